"""``botao check`` and ``botao tables`` in process: outputs, and bad input as one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monitor.cli import main
from tests.scenes import ball, button, keeper, scene_doc

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "scenes"


def _write(tmp_path: Path, name: str, doc: object) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(doc) if not isinstance(doc, str) else doc, "utf-8")
    return str(p)


def _ok_doc() -> dict:
    return scene_doc([keeper("A1", "A", -990, 0), button("B7", "B", 300, 100), ball(1010, 0)])


def test_tables_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables"]) == 0
    out = capsys.readouterr().out
    for name in ("brasileira", "nacional", "gaucha-min", "gaucha-max", "paulista", "mesa-posta"):
        assert name in out
    assert main(["tables", "show", "gaucha-min"]) == 0
    out = capsys.readouterr().out
    assert "001 Art. V a" in out and "500 x 250" in out
    assert main(["tables", "show", "gaucha-min", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["field_length"] == 1400.0


def test_check_json_one_document_per_scene(tmp_path: Path, capsys) -> None:
    a = _write(tmp_path, "a.json", _ok_doc())
    b = _write(tmp_path, "b.json", _ok_doc())
    assert main(["check", a, b, "--rules", "brasileira", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    doc = json.loads(lines[0])
    assert doc["format"] == "verdicts/1" and doc["rules"] == "brasileira"
    goal = next(v for v in doc["verdicts"] if v["check"] == "ball_in_goal")
    assert goal["holds"] is True and goal["margin_mm"] == pytest.approx(5.0)
    assert goal["article"] == "000 REGRA 10"


def test_check_table_view(tmp_path: Path, capsys) -> None:
    a = _write(tmp_path, "a.json", _ok_doc())
    assert main(["check", a, "--rules", "brasileira"]) == 0
    out = capsys.readouterr().out
    assert "ball_in_goal" in out and "YES" in out and "000 REGRA 10" in out


def test_check_svg(tmp_path: Path, capsys) -> None:
    svg = tmp_path / "out.svg"
    scene = str(SAMPLES / "offside.json")
    assert main(["check", scene, "--rules", "brasileira", "--svg", str(svg)]) == 0
    text = svg.read_text("utf-8")
    assert text.startswith("<svg") and "stroke-dasharray" in text  # the offside line
    assert "A9" in text


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("{", [], "bad.json: invalid JSON at line 1"),
        ({"format": "scene/1"}, [], "bad.json: table"),
        (scene_doc([button("A1", "A", 0, 0, d=-3)]), [], r"bad.json: pieces[0].diameter"),
        (scene_doc([button("A1", "A", 1090, 0), ball(0, 0)]), [], "beyond the rails"),
        (scene_doc([button("A1", "A", 0, 0), button("B1", "B", 50, 0)]), [], "overlaps A1"),
        ({**_ok_doc(), "table": "wembley"}, [], "bad.json: table: unknown table 'wembley'"),
        (_ok_doc(), ["--rules", "fifa"], "unknown rule set 'fifa'"),
        (_ok_doc(), ["--table", "nowhere.toml"], "nowhere.toml: cannot read"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys, content, args, message) -> None:
    path = _write(tmp_path, "bad.json", content)
    rules = [] if "--rules" in args else ["--rules", "brasileira"]
    assert main(["check", path, *rules, *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith("botao: error:")
    assert message in err


def test_one_bad_file_does_not_lose_the_others(tmp_path: Path, capsys) -> None:
    good = _write(tmp_path, "good.json", _ok_doc())
    bad = _write(tmp_path, "bad.json", "[]")
    assert main(["check", bad, good, "--rules", "brasileira", "--json"]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.strip().splitlines()) == 1
    assert "bad.json" in captured.err


def test_missing_required_option_exits_2(capsys) -> None:
    assert main(["check", "x.json"]) == 2
    assert "--rules" in capsys.readouterr().err
