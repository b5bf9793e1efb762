"""``botao detect`` and ``botao track`` through the real command line (``monitor.cli.main``),
in process: the commands are registered, their output is what INTERFACES.md says, and bad input
is one line ``botao: error: ...`` naming the file, field or value, exit status 2, no traceback.

Non-square images from two cameras (tilted at 1280 x 720 for the still, overhead at 960 x 540
for the clip); the real detector and tracker run on simulated frames.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.scene import scene_from_dict
from geometry.tablespec import load_table
from monitor.cli import main
from simulator.clip import write_clip
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from vision.pipeline import TRACKS_HEADER

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("cli")
    cam = preset_camera("tilted", TABLE, (1280, 720))
    frames = Match(TABLE, "brasileira", seed=4, fps=30).frames(12.0)
    frame = next(f for f in frames if f.frame >= 200 and not f.hands)
    img = Renderer(TABLE, cam, RenderStyle(jpeg_quality=88), rng=4).render(frame)
    paths = {
        "image": out / "still.jpg",
        "camera": out / "camera.json",
        "camera_small": out / "camera_small.json",
        "camera_bad": out / "camera_bad.json",
        "grey": out / "grey.png",
        "text": out / "notes.png",
        "clip": out / "clip",
    }
    cv2.imwrite(str(paths["image"]), img)
    cv2.imwrite(str(paths["grey"]), np.full_like(img, 120))
    paths["text"].write_text("not an image\n")
    cam.save(paths["camera"])
    preset_camera("tilted", TABLE, (960, 540)).save(paths["camera_small"])
    doc = json.loads(paths["camera"].read_text())
    doc["K"] = [[1.0, 0.0], [0.0, 1.0]]
    paths["camera_bad"].write_text(json.dumps(doc))
    clip_frames = list(Match(TABLE, "brasileira", seed=5, fps=30).frames(0.6))
    write_clip(clip_frames, TABLE, preset_camera("overhead", TABLE, (960, 540)), paths["clip"], 30)
    return paths


def _one_line_error(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith("botao: error: "), err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def test_detect_json_through_the_command_line(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["detect", str(files["image"]), "--camera", str(files["camera"]), "--json"])
    assert code == 0, capsys.readouterr().err
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "scene/1"
    scene = scene_from_dict(doc, "<out>", TABLE)
    kinds = [str(k) for k in scene.pieces.kind]
    assert kinds.count("goalkeeper") == 2 and kinds.count("ball") == 1
    assert kinds.count("button") >= 19  # a button may stand in the tilted view's blind spot
    for piece in doc["pieces"]:
        assert 0.0 < piece["confidence"] <= 1.0 and 0.0 < piece["sigma_mm"] < 3.0
        u, v = piece["px"]
        assert 0.0 <= u < 1280.0 and 0.0 <= v < 720.0


@pytest.mark.parametrize(
    ("image", "camera", "needles"),
    [
        ("image", "camera_small", ("still.jpg", "1280x720", "960x540")),
        ("grey", "camera", ("grey.png", "no table where the camera looks")),
        ("text", "camera", ("notes.png", "not a readable image")),
        ("missing", "camera", ("missing.png", "not a readable image")),
        ("image", "missing", ("--camera", "missing.json")),
        ("image", "camera_bad", ("--camera", "'K'")),
    ],
)
def test_detect_bad_input_is_one_line_exit_2(
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    image: str,
    camera: str,
    needles: tuple[str, ...],
) -> None:
    img = files.get(image, files["image"].with_name("missing.png"))
    cam = files.get(camera, files["camera"].with_name("missing.json"))
    assert main(["detect", str(img), "--camera", str(cam)]) == 2
    _one_line_error(capsys, *needles)


def test_track_writes_tracks_csv_through_the_command_line(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clip = files["clip"]
    out = tmp_path / "tracks"
    code = main(["track", str(clip / "video.mp4"), "--camera", str(clip / "camera.json"),
                 "--out", str(out)])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "tracking video.mp4" in captured.err  # the progress bar (lines when not a tty)
    assert "tracked 19 frames" in captured.out
    with (out / "tracks.csv").open() as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == TRACKS_HEADER
    assert {int(r[0]) for r in rows[1:]} == set(range(19))
    first = [r for r in rows[1:] if r[0] == "0"]
    ids = {r[2] for r in first}
    assert "ball" in ids and {"A1", "B1"} <= ids and len(first) >= 21
    assert (out / "contacts.jsonl").exists()


@pytest.mark.parametrize(
    ("video", "camera", "needles"),
    [
        ("missing.mp4", "clip", ("missing.mp4", "no such video")),
        ("clip", "camera_small_other", ("960x540", "1280x720")),
        ("clip", "camera_bad", ("--camera", "'K'")),
    ],
)
def test_track_bad_input_is_one_line_exit_2(
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    video: str,
    camera: str,
    needles: tuple[str, ...],
) -> None:
    clip = files["clip"]
    cams = {
        "clip": clip / "camera.json",
        "camera_small_other": files["camera"],  # 1280 x 720 for a 960 x 540 video
        "camera_bad": files["camera_bad"],
    }
    vid = clip / "video.mp4" if video == "clip" else tmp_path / video
    argv = ["track", str(vid), "--camera", str(cams[camera]), "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    _one_line_error(capsys, *needles)
