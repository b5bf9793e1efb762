"""``botao detect IMAGE --camera camera.json [--json]`` (issue 5, deliverable 5)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.scene import scene_from_dict
from geometry.tablespec import load_table
from monitor import cmd_detect
from monitor.errors import UsageError
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer

TABLE = load_table("brasileira")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="botao")
    cmd_detect.add_parsers(p.add_subparsers(dest="command", required=True))
    return p


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return int(args.func(args))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("detect")
    cam = preset_camera("overhead", TABLE, (1280, 720))
    frames = Match(TABLE, "brasileira", seed=2, fps=30).frames(12.0)
    frame = next(f for f in frames if f.frame >= 300 and not f.hands and not f.moving.any())
    img = Renderer(TABLE, cam, RenderStyle(jpeg_quality=90), rng=1).render(frame)
    paths = {
        "image": out / "still.png",
        "camera": out / "camera.json",
        "camera_720": out / "camera720.json",
        "black": out / "black.png",
    }
    cv2.imwrite(str(paths["image"]), img)
    cv2.imwrite(str(paths["black"]), np.zeros_like(img))
    cam.save(paths["camera"])
    preset_camera("overhead", TABLE, (960, 540)).save(paths["camera_720"])
    return paths


def test_json_is_a_scene_with_detection_fields(files: dict[str, Path], capsys) -> None:  # type: ignore[no-untyped-def]
    assert _run(["detect", str(files["image"]), "--camera", str(files["camera"]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    scene = scene_from_dict(doc, "<out>", TABLE)  # a valid scene/1 on this table
    kinds = sorted(str(k) for k in scene.pieces.kind)
    assert kinds.count("button") == 20 and kinds.count("goalkeeper") == 2
    assert kinds.count("ball") == 1
    for piece in doc["pieces"]:
        assert 0.0 < piece["confidence"] <= 1.0
        assert len(piece["px"]) == 2 and 0 < piece["px"][0] < 1280 and 0 < piece["px"][1] < 720
        assert 0.0 < piece["sigma_mm"] < 2.0
    # team A is the team on the left at the start (its goalkeeper guards the left goal)
    keeper_a = next(p for p in doc["pieces"] if p["kind"] == "goalkeeper" and p["team"] == "A")
    assert keeper_a["x"] < -900


def test_table_output(files: dict[str, Path], capsys) -> None:  # type: ignore[no-untyped-def]
    assert _run(["detect", str(files["image"]), "--camera", str(files["camera"])]) == 0
    out = capsys.readouterr().out
    assert "23 pieces" in out and "ball" in out


@pytest.mark.parametrize(
    ("image", "camera", "message"),
    [
        ("image", "camera_720", "camera .* is for 960x540"),
        ("black", "camera", "no table where the camera looks"),
        ("missing", "camera", "not a readable image"),
        ("image", "missing", "--camera"),
    ],
)
def test_bad_input_is_one_line(
    files: dict[str, Path], image: str, camera: str, message: str
) -> None:
    img = files.get(image, files["image"].with_name("missing.png"))
    cam = files.get(camera, files["camera"].with_name("missing.json"))
    with pytest.raises(UsageError, match=message) as err:
        _run(["detect", str(img), "--camera", str(cam)])
    assert "\n" not in str(err.value)
