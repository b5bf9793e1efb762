"""``botao calibrate``, ``calibrate-intrinsics`` and ``check-camera``, run in-process.

The commands are driven through a parser built with :func:`monitor.cmd_calibrate.add_parsers`
and the same error handling as :func:`monitor.cli.main` (bad input: one line, exit 2).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import Camera, load_camera, preset_camera
from geometry.field import FieldModel
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from monitor import cmd_calibrate
from monitor.errors import BAD_INPUT
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from simulator.video import VideoWriter
from tests.calibration.test_drift import random_camera, translated
from tests.calibration.test_intrinsics import chessboard_texture, poses, render_board
from tests.calibration.test_points import pairs_doc

TABLE = load_table("brasileira")


def botao(argv: Sequence[str]) -> int:
    """``monitor.cli.main`` for this module's commands."""
    parser = argparse.ArgumentParser(prog="botao")
    cmd_calibrate.add_parsers(parser.add_subparsers(dest="command", required=True))
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args))
    except BAD_INPUT as exc:
        print(f"botao: error: {exc}")
        return 2


def _frame(seed: int = 1) -> FrameTruth:
    return next(iter(Match(TABLE, "brasileira", seed=seed, fps=30.0).frames(0.05)))


def field_error_mm(fit: Camera, true: Camera) -> float:
    xx, yy = np.meshgrid(np.linspace(-950, 950, 20), np.linspace(-650, 650, 14))
    xyz = np.column_stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)])
    return float(np.nanmax(np.hypot(*(fit.image_to_table(true(xyz), 0.0) - xyz[:, :2]).T)))


@pytest.fixture(scope="module")
def tilted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Camera, Path]:
    """A 1280x720 picture of a table with pieces, from the tilted preset."""
    cam = preset_camera("tilted", TABLE, (1280, 720))
    path = tmp_path_factory.mktemp("cal") / "table.png"
    cv2.imwrite(str(path), Renderer(TABLE, cam, RenderStyle(jpeg_quality=85)).render(_frame()))
    return cam, path


# ---------------------------------------------------------------------- calibrate
def test_calibrate_an_image(
    tilted: tuple[Camera, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cam, image = tilted
    out, debug = tmp_path / "camera.json", tmp_path / "debug.png"
    status = botao(
        ["calibrate", str(image), "--table", "brasileira", "--out", str(out), "--debug", str(debug)]
    )
    text = capsys.readouterr().out
    assert status == 0, text
    assert "rms" in text and "markings found" in text and "boundary" in text
    doc = json.loads(out.read_text())
    assert doc["format"] == "camera/1" and 0.9 <= doc["found_share"] <= 1.0
    assert set(doc["per_marking_px"]) >= {"boundary", "halfway"}
    fit = load_camera(out)
    assert fit.right_goal_image_side == "right"
    assert field_error_mm(fit, cam) < 1.0
    drawn = cv2.imread(str(debug))
    assert drawn is not None and drawn.shape == (720, 1280, 3)


def test_calibrate_the_first_frames_of_a_video(tmp_path: Path) -> None:
    cam = preset_camera("overhead", TABLE, (960, 540))
    r = Renderer(TABLE, cam, RenderStyle(field_bgr=FIELD_COLOURS["blue"]))
    video = tmp_path / "clip.mp4"
    with VideoWriter(video, fps=30, size=(960, 540)) as w:
        for f in Match(TABLE, "brasileira", seed=2, fps=30.0).frames(0.3):
            w.write(r.render(f))
    out = tmp_path / "camera.json"
    assert botao(["calibrate", str(video), "--table", "brasileira", "--out", str(out)]) == 0
    assert field_error_mm(load_camera(out), cam) < 1.5


def test_a_dark_picture_exits_2_with_the_reason_and_the_debug_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), np.full((360, 640, 3), 4, np.uint8))
    debug, out = tmp_path / "debug.png", tmp_path / "camera.json"
    argv = ["calibrate", str(dark), "--table", "brasileira", "--out", str(out)]
    assert botao([*argv, "--debug", str(debug)]) == 2
    text = capsys.readouterr().out
    assert "calibration failed" in text and "dark" in text
    assert debug.exists() and not out.exists()


def test_calibrate_from_point_pairs(
    tilted: tuple[Camera, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cam, image = tilted
    points = tmp_path / "points.json"
    points.write_text(json.dumps(pairs_doc(cam, 0.3, 7, extra=20)))
    out = tmp_path / "camera.json"
    argv = ["calibrate", str(image), "--table", "brasileira", "--out", str(out)]
    assert botao([*argv, "--points", str(points)]) == 0
    text = capsys.readouterr().out
    assert "centre_mark" in text and "err mm" in text
    assert field_error_mm(load_camera(out), cam) < 1.5
    # With the true lens as known intrinsics only the pose is fitted.
    intr = tmp_path / "intrinsics.json"
    cam.save(intr)
    assert botao([*argv, "--points", str(points), "--intrinsics", str(intr)]) == 0
    np.testing.assert_allclose(load_camera(out).K, cam.K)


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        (["--points", "{tmp}/none.json"], "none.json: no such file, and click-to-pick: no display"),
        (["--points", "{tmp}/small.json"], "field 'image_size' 640x360 differs from the image's"),
        (["--points", "{tmp}/small.json", "--right-goal", "left"], "--right-goal: not with"),
        (["--intrinsics", "{tmp}/cam1080.json"], "--intrinsics .*1920x1080 differs"),
        (["--intrinsics", "{tmp}/none.json"], "--intrinsics .*none.json: no such file"),
        (["--table", "nope"], "nope"),
        (["--right-goal", "sideways"], None),
    ],
)
def test_calibrate_bad_input_exits_2(
    tilted: tuple[Camera, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    match: str | None,
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    small = preset_camera("tilted", TABLE, (640, 360))
    (tmp_path / "small.json").write_text(json.dumps(pairs_doc(small, 0.0, 1)))
    preset_camera("tilted", TABLE, (1920, 1080)).save(tmp_path / "cam1080.json")
    argv = ["calibrate", str(tilted[1]), "--table", "brasileira", "--out", str(tmp_path / "o.json")]
    status = botao([*argv, *(e.format(tmp=tmp_path) for e in extra)])
    captured = capsys.readouterr()
    assert status == 2
    if match is not None:
        assert len(captured.out.strip().splitlines()) == 1
        assert re.search(match, captured.out), captured.out
    assert not (tmp_path / "o.json").exists()


def test_calibrate_missing_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--table", "brasileira", "--out", str(tmp_path / "o.json")]
    assert botao(["calibrate", str(tmp_path / "gone.png"), *argv]) == 2
    assert "gone.png: no such file" in capsys.readouterr().out
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video")
    assert botao(["calibrate", str(junk), *argv]) == 2
    assert "not a readable image or video" in capsys.readouterr().out


# ---------------------------------------------------------------------- calibrate-intrinsics
def test_calibrate_intrinsics_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tex = chessboard_texture((10, 7), 20.0)
    paths = []
    for k, pose in enumerate(poses(3, (100.0, 70.0), seed=1)):
        paths.append(tmp_path / f"b{k}.png")
        cv2.imwrite(str(paths[-1]), render_board(tex, 20.0, pose, seed=k))
    out = tmp_path / "intrinsics.json"
    opts = ["--board", "9x6", "--square-mm", "20", "--out", str(out)]
    assert botao(["calibrate-intrinsics", *map(str, paths), *opts]) == 0
    assert "intrinsics from 3 of 3 pictures" in capsys.readouterr().out
    assert load_camera(out).image_size == (640, 480)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    with_blank = ["calibrate-intrinsics", str(blank), *map(str, paths)]
    assert botao([*with_blank, *opts]) == 2
    assert "blank.png: no chessboard 9x6 inner corners pattern found" in capsys.readouterr().out
    assert botao([*with_blank, *opts, "--skip-missing"]) == 0
    assert "intrinsics from 3 of 4 pictures" in capsys.readouterr().out
    assert botao(["calibrate-intrinsics", str(blank), *opts, "--board", "9by6"]) == 2
    assert "--board: expected COLSxROWS" in capsys.readouterr().out


# ---------------------------------------------------------------------- check-camera
def three_balls(present: tuple[bool, bool, bool] = (True, True, True)) -> FrameTruth:
    """The ball on the centre mark and on both penalty marks (000 REGRA 1 marks)."""
    fm = FieldModel(TABLE)
    xy = np.array([[0.0, 0.0], fm.penalty_mark("left"), fm.penalty_mark("right")])[list(present)]
    n = len(xy)
    ids = np.array(["ball", "ball2", "ball3"][:n])
    p = Pieces(
        ids,
        np.full(n, ""),
        np.full(n, "ball"),
        xy,
        np.full((n, 2), 10.0),
        np.zeros(n),
        np.full(n, np.nan),
    )
    return FrameTruth(0, 0.0, p, np.zeros((n, 2)), np.zeros(n, bool))


@pytest.mark.parametrize(
    ("cam", "field"),
    [
        (preset_camera("tilted", TABLE, (1280, 720), tilt_deg=25.0), "green"),
        (random_camera(8, (1280, 720)), "blue"),
        (preset_camera("wide", TABLE, (1920, 1080)), "dark_green"),
    ],
)
def test_balls_on_the_marks_are_found_within_half_a_millimetre(cam: Camera, field: str) -> None:
    style = RenderStyle(field_bgr=FIELD_COLOURS[field], jpeg_quality=85, noise_sigma=4.0)
    img = Renderer(TABLE, cam, style).render(three_balls())
    records = cmd_calibrate.check_marks(img, cam, TABLE, 2.0)
    assert [r["mark"] for r in records] == [
        "centre_mark",
        "penalty_mark_left",
        "penalty_mark_right",
    ]
    assert all(r["ok"] for r in records), records
    assert max(r["error_mm"] for r in records) < 0.5


def test_check_camera_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    r = Renderer(TABLE, cam, RenderStyle(noise_sigma=3.0))
    image, cam_file = tmp_path / "balls.png", tmp_path / "camera.json"
    cv2.imwrite(str(image), r.render(three_balls()))
    cam.save(cam_file)
    argv = ["check-camera", str(image), "--table", "brasileira"]
    assert botao([*argv, "--camera", str(cam_file), "--debug", str(tmp_path / "d.png")]) == 0
    text = capsys.readouterr().out
    assert "camera OK" in text and text.count(" ok") == 3
    assert (tmp_path / "d.png").exists()

    # The table bumped by 4 mm since the calibration: refused, exit 1, the reason printed.
    bumped = tmp_path / "bumped.json"
    translated(cam, 4.0, math.radians(30)).save(bumped)
    assert botao([*argv, "--camera", str(bumped)]) == 1
    text = capsys.readouterr().out
    assert "REFUSED" in text and "mm off" in text
    # ... unless the tolerance allows it.
    assert botao([*argv, "--camera", str(bumped), "--tolerance-mm", "6"]) == 0
    capsys.readouterr()

    # A ball missing from the right penalty mark.
    cv2.imwrite(str(image), r.render(three_balls((True, True, False))))
    assert botao([*argv, "--camera", str(cam_file)]) == 1
    assert re.search(
        r"penalty_mark_right: (no ball found|only the painted mark)", capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        (["--tolerance-mm", "-1"], "--tolerance-mm: expected a positive number"),
        (["--tolerance-mm", "nan"], "--tolerance-mm: expected a positive number"),
        (
            ["--camera", "{tmp}/c1080.json"],
            "--camera .*1920x1080 differs from the image's 1280x720",
        ),
        (["--camera", "{tmp}/bad.json"], "--camera: .*bad.json: field 'format'"),
    ],
)
def test_check_camera_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], match: str
) -> None:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    cv2.imwrite(str(tmp_path / "img.png"), np.zeros((720, 1280, 3), np.uint8))
    cam.save(tmp_path / "camera.json")
    replace(cam, image_size=(1920, 1080)).save(tmp_path / "c1080.json")
    (tmp_path / "bad.json").write_text('{"format": "camera/9"}')
    argv = ["check-camera", str(tmp_path / "img.png"), "--table", "brasileira"]
    if not any(e == "--camera" for e in extra):
        argv += ["--camera", str(tmp_path / "camera.json")]
    assert botao([*argv, *(e.format(tmp=tmp_path) for e in extra)]) == 2
    assert re.search(match, capsys.readouterr().out)
