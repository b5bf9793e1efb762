"""Every sample scene gives the verdicts written beside it (worked out by hand in
samples/make_scenes.py), through the command line, in process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monitor.cli import main

SCENES = Path(__file__).resolve().parents[2] / "samples" / "scenes"
NAMES = sorted(p.stem for p in (SCENES / "expected").glob("*.json"))


def test_there_are_samples() -> None:
    assert len(NAMES) >= 9


@pytest.mark.parametrize("name", NAMES)
def test_sample_scene_gives_its_verdicts(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads((SCENES / "expected" / f"{name}.json").read_text("utf-8"))
    assert (
        main(["check", str(SCENES / f"{name}.json"), "--rules", expected["rules"], "--json"]) == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "verdicts/1"
    for e in expected["expect"]:
        hits = [
            v
            for v in doc["verdicts"]
            if v["check"] == e["check"]
            and all(v.get(k) == e[k] for k in ("team", "piece", "other", "constraint") if k in e)
        ]
        assert len(hits) == 1, f"{name}: {e} matched {len(hits)} verdicts"
        v = hits[0]
        assert v["holds"] is e["holds"], f"{name}: {v}"
        assert v["margin_mm"] == pytest.approx(e["margin_mm"], abs=e["tol"]), f"{name}: {v}"
        assert v["article"]
