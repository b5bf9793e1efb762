"""scene/1 parsing: every error names the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from geometry.scene import SceneError, load_scene, scene_from_dict
from geometry.tablespec import load_table
from tests.scenes import ball, button, keeper, scene_doc


def _doc(**over):
    doc = scene_doc([button("A7", "A", -300, 120), keeper("B1", "B", 985, 0), ball(0, 0)])
    doc.update(over)
    return doc


def test_valid_scene_round_trips() -> None:
    s = scene_from_dict(_doc(), "s.json")
    assert list(s.pieces.ids) == ["A7", "B1", "ball"]
    assert s.attack_sign("A") == 1.0 and s.attack_sign("B") == -1.0
    again = scene_from_dict(json.loads(json.dumps(s.to_dict())), "again")
    assert (again.pieces.xy_mm == s.pieces.xy_mm).all()
    assert again.pieces.angle_rad == pytest.approx(s.pieces.angle_rad)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="scene/2"), "s.json: format: expected 'scene/1'"),
        (lambda d: d.pop("table"), "s.json: table"),
        (lambda d: d.update(teams={"A": {"defends": "left"}}), "s.json: teams"),
        (lambda d: d["teams"]["B"].update(defends="up"), r"teams\.B\.defends"),
        (lambda d: d["teams"]["B"].update(defends="left"), "both teams defend"),
        (lambda d: d.update(pieces=[]), "s.json: pieces"),
        (lambda d: d["pieces"][0].pop("x"), r"pieces\[0\]\.x: missing"),
        (lambda d: d["pieces"][0].update(x="far"), r"pieces\[0\]\.x: must be a number"),
        (
            lambda d: d["pieces"][0].update(diameter=-60),
            r"pieces\[0\]\.diameter: must be a positive",
        ),
        (lambda d: d["pieces"][0].update(team="C"), r"pieces\[0\]\.team"),
        (lambda d: d["pieces"][0].update(kind="referee"), r"pieces\[0\]\.kind"),
        (lambda d: d["pieces"][0].update(colour="red"), r"pieces\[0\]\.colour: unknown field"),
        (lambda d: d["pieces"][1].pop("length"), r"pieces\[1\]\.length: missing"),
        (lambda d: d["pieces"][1].update(id="A7"), r"pieces\[1\]\.id: duplicate"),
        (lambda d: d["pieces"].append({**ball(10, 10), "id": "b2"}), "more than one ball"),
        (lambda d: d.update(context={"restart": "bicycle"}), r"context\.restart"),
        (lambda d: d.update(context={"to_play": "Z"}), r"context\.to_play"),
        (lambda d: d.update(context={"spot": [1]}), r"context\.spot"),
        (lambda d: d.update(context={"last_touch": "A99"}), r"context\.last_touch"),
        (lambda d: d.update(context={"half": 3}), r"context\.half"),
        (lambda d: d.update(context={"weather": "rain"}), r"context\.weather"),
    ],
)
def test_bad_scenes_name_the_field(mutate, message: str) -> None:
    doc = _doc()
    mutate(doc)
    with pytest.raises(SceneError, match=message):
        scene_from_dict(doc, "s.json")


def test_overlap_tolerance_is_one_millimetre() -> None:
    table = load_table("brasileira")
    # two 60 mm buttons 59.1 mm apart overlap by 0.9 mm: measurement noise, accepted
    ok = scene_doc([button("A1", "A", 0, 0), button("B1", "B", 59.1, 0), ball(300, 0)])
    scene_from_dict(ok, "ok.json", table)
    bad = scene_doc([button("A1", "A", 0, 0), button("B1", "B", 58.9, 0), ball(300, 0)])
    with pytest.raises(SceneError, match=r"bad\.json: pieces\[1\] \(B1\): overlaps A1 by 1\.1 mm"):
        scene_from_dict(bad, "bad.json", table)


def test_pieces_beyond_the_rails_are_rejected() -> None:
    table = load_table("brasileira")  # rails at |x| 1100, |y| 800
    doc = scene_doc([button("A1", "A", 1075, 0), ball(0, 0)])
    with pytest.raises(SceneError, match=r"pieces\[0\] \(A1\): beyond the rails"):
        scene_from_dict(doc, "r.json", table)
    scene_from_dict(scene_doc([button("A1", "A", 1070, 0), ball(0, 0)]), "r.json", table)


def test_file_errors(tmp_path: Path) -> None:
    p = tmp_path / "broken.json"
    p.write_text("{", "utf-8")
    with pytest.raises(SceneError, match=r"broken\.json: invalid JSON at line 1"):
        load_scene(p)
    with pytest.raises(SceneError, match=r"nothere\.json: cannot read"):
        load_scene(tmp_path / "nothere.json")
