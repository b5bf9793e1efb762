"""``botao calibrate``, ``calibrate-intrinsics`` and ``check-camera``, end to end in-process.

Every command goes through :func:`monitor.cli.main`: bad input is one line on stderr naming the
file, field or value, exit status 2, never a traceback. Output is captured at the file
descriptors (``capfd``), so a warning a C library prints would show too.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import Camera, load_camera, preset_camera
from geometry.tablespec import load_table
from monitor.cli import build_parser, main
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from simulator.video import VideoWriter
from tests.calibration.test_check import three_balls
from tests.calibration.test_drift import random_camera, translated
from tests.calibration.test_intrinsics import chessboard_texture, poses, render_board
from tests.calibration.test_points import pairs_doc

TABLE = load_table("brasileira")


def _frame(seed: int = 1) -> FrameTruth:
    return next(iter(Match(TABLE, "brasileira", seed=seed, fps=30.0).frames(0.05)))


def field_error_mm(fit: Camera, true: Camera) -> float:
    """Largest distance (mm) over the field between where ``fit`` and ``true`` see a point."""
    xx, yy = np.meshgrid(np.linspace(-950, 950, 20), np.linspace(-650, 650, 14))
    xyz = np.column_stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)])
    return float(np.nanmax(np.hypot(*(fit.image_to_table(true(xyz), 0.0) - xyz[:, :2]).T)))


def one_error_line(captured: pytest.CaptureFixture[str]) -> str:
    """The single ``botao: error: ...`` line of a refused command (and no traceback)."""
    out = captured.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("botao: error: "), out.err
    assert "Traceback" not in out.err + out.out
    return lines[0]


@pytest.fixture(scope="module")
def tilted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Camera, Path]:
    """A 1280x720 picture of a table with pieces, from the tilted preset."""
    cam = preset_camera("tilted", TABLE, (1280, 720))
    path = tmp_path_factory.mktemp("cal") / "table.png"
    cv2.imwrite(str(path), Renderer(TABLE, cam, RenderStyle(jpeg_quality=85)).render(_frame()))
    return cam, path


def test_the_commands_are_registered() -> None:
    text = build_parser().format_help()
    for command in ("calibrate", "calibrate-intrinsics", "check-camera"):
        assert command in text


# ---------------------------------------------------------------------- calibrate
def test_calibrate_an_image(
    tilted: tuple[Camera, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    cam, image = tilted
    out, debug = tmp_path / "camera.json", tmp_path / "debug.png"
    status = main(
        ["calibrate", str(image), "--table", "brasileira", "--out", str(out), "--debug", str(debug)]
    )
    text = capfd.readouterr().out
    assert status == 0, text
    assert re.search(r"rms \d\.\d\d px, \d\.\d\d mm; markings found \d+% of their length", text)
    assert re.search(r"boundary +\d+% +\d\.\d\d +\d\.\d\d", text)  # found, rms px, rms mm
    doc = json.loads(out.read_text())
    assert doc["format"] == "camera/1" and 0.9 <= doc["found_share"] <= 1.0
    assert set(doc["per_marking_px"]) >= {"boundary", "halfway"}
    assert set(doc["per_marking_mm"]) >= {"boundary", "halfway"}
    assert doc["found_by_marking"]["center_circle"] > 0.8
    fit = load_camera(out)
    assert fit.rms_px is not None and fit.rms_px < 0.6
    assert fit.right_goal_image_side == "right"
    assert field_error_mm(fit, cam) < 1.0
    drawn = cv2.imread(str(debug))
    assert drawn is not None and drawn.shape == (720, 1280, 3)


def test_right_goal_override(
    tilted: tuple[Camera, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    cam, image = tilted
    out = tmp_path / "camera.json"
    argv = ["calibrate", str(image), "--table", "brasileira", "--out", str(out)]
    assert main([*argv, "--right-goal", "left"]) == 0
    fit = load_camera(out)
    assert fit.right_goal_image_side == "left"
    goal = np.array([[1000.0, 0.0, 0.0]])
    assert fit(goal)[0, 0] < cam(goal)[0, 0]  # the +x goal is now the one on the left
    capfd.readouterr()
    out.unlink()
    # The goals of this picture are left and right: "up" cannot be the +x goal's side.
    assert main([*argv, "--right-goal", "up"]) == 2
    assert "right_goal 'up' does not fit the picture" in one_error_line(capfd)
    assert not out.exists()


def test_calibrate_the_first_frames_of_a_video(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    cam = preset_camera("overhead", TABLE, (960, 540))
    r = Renderer(TABLE, cam, RenderStyle(field_bgr=FIELD_COLOURS["blue"]))
    video = tmp_path / "clip.mp4"
    with VideoWriter(video, fps=30, size=(960, 540)) as w:
        for f in Match(TABLE, "brasileira", seed=2, fps=30.0).frames(0.3):
            w.write(r.render(f))
    out = tmp_path / "camera.json"
    assert main(["calibrate", str(video), "--table", "brasileira", "--out", str(out)]) == 0
    assert field_error_mm(load_camera(out), cam) < 1.5
    assert "calibrated" in capfd.readouterr().out


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("dark", "no field found: too dark"),
        ("wrong_table", "markings .*table 'gaucha-min'"),
        ("cut_off", "field cut off at the image's left edge"),
    ],
)
def test_a_refused_picture_exits_2_with_the_reason_and_the_debug_image(
    tilted: tuple[Camera, Path],
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    name: str,
    reason: str,
) -> None:
    image, table = tmp_path / "in.png", "brasileira"
    if name == "dark":
        cv2.imwrite(str(image), np.full((360, 640, 3), 4, np.uint8))
    elif name == "wrong_table":  # a brasileira table, calibrated as the gaucha-min
        image, table = tilted[1], "gaucha-min"
    else:  # the left 15% of the picture missing
        whole = cv2.imread(str(tilted[1]))
        assert whole is not None
        cv2.imwrite(str(image), whole[:, 190:])
    debug, out = tmp_path / "debug.png", tmp_path / "camera.json"
    argv = ["calibrate", str(image), "--table", table, "--out", str(out), "--debug", str(debug)]
    assert main(argv) == 2
    line = one_error_line(capfd)
    assert re.search(f"{re.escape(str(image))}: calibration failed: .*{reason}", line), line
    assert f"(see {debug})" in line
    assert cv2.imread(str(debug)) is not None and not out.exists()


def test_calibrate_from_point_pairs(
    tilted: tuple[Camera, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    cam, image = tilted
    points = tmp_path / "points.json"
    points.write_text(json.dumps(pairs_doc(cam, 0.3, 7, extra=20)))
    out = tmp_path / "camera.json"
    argv = ["calibrate", str(image), "--table", "brasileira", "--out", str(out)]
    assert main([*argv, "--points", str(points), "--debug", str(tmp_path / "d.png")]) == 0
    text = capfd.readouterr().out
    assert "point pairs" in text and "centre_mark" in text and "err mm" in text
    assert "markings found" not in text
    assert field_error_mm(load_camera(out), cam) < 1.5
    # With the true lens as known intrinsics only the pose is fitted.
    intr = tmp_path / "intrinsics.json"
    cam.save(intr)
    assert main([*argv, "--points", str(points), "--intrinsics", str(intr)]) == 0
    np.testing.assert_allclose(load_camera(out).K, cam.K)


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        (["--points", "{tmp}/none.json"], "none.json: no such file, and click-to-pick: no display"),
        (["--points", "{tmp}/small.json"], "field 'image_size' 640x360 differs from the image's"),
        (["--points", "{tmp}/small.json", "--right-goal", "left"], "--right-goal: not with"),
        (["--intrinsics", "{tmp}/cam1080.json"], "--intrinsics .*1920x1080 differs .*1280x720"),
        (["--intrinsics", "{tmp}/none.json"], "--intrinsics: .*none.json: no such file"),
        (["--intrinsics", "{tmp}"], "--intrinsics: .*: is a directory"),
        (["--intrinsics", "{tmp}/binary.json"], "--intrinsics: .*binary.json: not a JSON text"),
        (["--intrinsics", "{tmp}/bad.json"], "--intrinsics: .*bad.json: field 'format'"),
        (["--table", "nope"], "nope"),
        (["--out", "{tmp}/no/such/dir/camera.json"], "--out .*camera.json: cannot write"),
        (["--debug", "{tmp}/no/such/dir/d.png"], "--debug .*d.png: cannot write"),
    ],
)
def test_calibrate_bad_input_exits_2(
    tilted: tuple[Camera, Path],
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    match: str,
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    small = preset_camera("tilted", TABLE, (640, 360))
    (tmp_path / "small.json").write_text(json.dumps(pairs_doc(small, 0.0, 1)))
    preset_camera("tilted", TABLE, (1920, 1080)).save(tmp_path / "cam1080.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00\x81 not text")
    (tmp_path / "bad.json").write_text('{"format": "camera/9"}')
    argv = ["calibrate", str(tilted[1]), "--table", "brasileira", "--out", str(tmp_path / "o.json")]
    status = main([*argv, *(e.format(tmp=tmp_path) for e in extra)])
    assert status == 2
    line = one_error_line(capfd)
    assert re.search(match, line), line
    assert not (tmp_path / "o.json").exists()


def test_calibrate_missing_or_unreadable_input(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    argv = ["--table", "brasileira", "--out", str(tmp_path / "o.json")]
    assert main(["calibrate", str(tmp_path / "gone.png"), *argv]) == 2
    assert "gone.png: no such file" in one_error_line(capfd)
    junk_png = tmp_path / "junk.png"
    junk_png.write_bytes(b"\x89PNG but not really")
    assert main(["calibrate", str(junk_png), *argv]) == 2
    assert "junk.png: not an image OpenCV can read" in one_error_line(capfd)
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video")
    assert main(["calibrate", str(junk), *argv]) == 2
    assert "junk.mp4: not a readable image or video" in one_error_line(capfd)
    assert main(["calibrate", str(tmp_path), *argv]) == 2
    assert ": not a file" in one_error_line(capfd)
    # An argument argparse refuses: its usage line and one error line, exit 2.
    assert main(["calibrate", str(junk_png), *argv, "--right-goal", "sideways"]) == 2
    assert "invalid choice: 'sideways'" in capfd.readouterr().err


# ---------------------------------------------------------------------- calibrate-intrinsics
def test_calibrate_intrinsics_command(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    tex = chessboard_texture((10, 7), 20.0)
    paths = []
    for k, pose in enumerate(poses(3, (100.0, 70.0), seed=1)):
        paths.append(tmp_path / f"b{k}.png")
        cv2.imwrite(str(paths[-1]), render_board(tex, 20.0, pose, seed=k))
    out = tmp_path / "intrinsics.json"
    opts = ["--board", "9x6", "--square-mm", "20", "--out", str(out)]
    assert main(["calibrate-intrinsics", *map(str, paths), *opts]) == 0
    assert "intrinsics from 3 of 3 pictures" in capfd.readouterr().out
    intr = load_camera(out)
    assert intr.image_size == (640, 480)
    assert json.loads(out.read_text())["intrinsics_only"] is True
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    with_blank = ["calibrate-intrinsics", str(blank), *map(str, paths)]
    assert main([*with_blank, *opts]) == 2
    assert "blank.png: no chessboard 9x6 inner corners pattern found" in one_error_line(capfd)
    assert main([*with_blank, *opts, "--skip-missing"]) == 0
    assert "intrinsics from 3 of 4 pictures" in capfd.readouterr().out
    assert main(["calibrate-intrinsics", str(blank), *opts, "--board", "9by6"]) == 2
    assert "--board: expected COLSxROWS" in one_error_line(capfd)
    assert main(["calibrate-intrinsics", str(tmp_path / "gone.png"), *opts]) == 2
    assert "gone.png: does not exist" in one_error_line(capfd)
    # The lens file feeds `calibrate --intrinsics`; a picture of another size is refused.
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), np.zeros((720, 1280, 3), np.uint8))
    argv = ["calibrate", str(table), "--table", "brasileira", "--out", str(tmp_path / "c.json")]
    assert main([*argv, "--intrinsics", str(out)]) == 2
    assert "'image_size' 640x480 differs from the image's 1280x720" in one_error_line(capfd)
    # ... and is no camera for check-camera (it has no pose).
    cv2.imwrite(str(table), np.zeros((480, 640, 3), np.uint8))
    check = ["check-camera", str(table), "--table", "brasileira", "--camera", str(out)]
    assert main(check) == 2
    assert "field 'intrinsics_only' is true" in one_error_line(capfd)


# ---------------------------------------------------------------------- check-camera
def test_check_camera_command(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    r = Renderer(TABLE, cam, RenderStyle(noise_sigma=3.0))
    image, cam_file = tmp_path / "balls.png", tmp_path / "camera.json"
    cv2.imwrite(str(image), r.render(three_balls()))
    cam.save(cam_file)
    argv = ["check-camera", str(image), "--table", "brasileira"]
    assert main([*argv, "--camera", str(cam_file), "--debug", str(tmp_path / "d.png")]) == 0
    text = capfd.readouterr().out
    assert "camera OK" in text and text.count(" ok") == 3
    assert cv2.imread(str(tmp_path / "d.png")) is not None

    # The table bumped by 4 mm since the calibration: refused, exit 1, where each ball is seen.
    bumped = tmp_path / "bumped.json"
    translated(cam, 4.0, math.radians(30)).save(bumped)
    assert main([*argv, "--camera", str(bumped)]) == 1
    captured = capfd.readouterr()
    assert "REFUSED" in captured.out and "mm off" in captured.out
    assert re.search(r"centre_mark +\( *-?\d+\.\d, +-?\d+\.\d\) +\( *-?\d+\.\d", captured.out)
    assert captured.err.startswith("botao: refused: ") and "Traceback" not in captured.err
    # ... unless the tolerance allows it.
    assert main([*argv, "--camera", str(bumped), "--tolerance-mm", "6"]) == 0
    capfd.readouterr()

    # A ball missing from the right penalty mark.
    cv2.imwrite(str(image), r.render(three_balls((True, True, False))))
    assert main([*argv, "--camera", str(cam_file)]) == 1
    assert re.search(
        r"penalty_mark_right: (no ball found|only the painted mark)", capfd.readouterr().out
    )


def test_check_camera_on_a_seeded_random_camera(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    table = load_table("nacional")
    cam = random_camera(12, (1600, 900))
    style = RenderStyle(field_bgr=FIELD_COLOURS["blue"], noise_sigma=3.0, jpeg_quality=85)
    img = Renderer(table, cam, style).render(three_balls(table=table))
    cv2.imwrite(str(tmp_path / "balls.png"), img)
    cam.save(tmp_path / "camera.json")
    argv = ["check-camera", str(tmp_path / "balls.png"), "--table", "nacional"]
    assert main([*argv, "--camera", str(tmp_path / "camera.json")]) == 0, capfd.readouterr()


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
        (["--camera", "{tmp}/none.json"], "--camera: .*none.json: no such file"),
        (["--camera", "{tmp}/img.png"], "--camera: .*img.png: not a JSON text file"),
        (["--image", "{tmp}/gone.png"], "gone.png: no such file"),
        (["--image", "{tmp}/junk.png"], "junk.png: not an image OpenCV can read"),
        (["--table", "nope"], "nope"),
        (["--debug", "{tmp}/no/such/dir/d.png"], "--debug .*d.png: cannot write"),
    ],
)
def test_check_camera_bad_input(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], extra: list[str], match: str
) -> None:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    cv2.imwrite(str(tmp_path / "img.png"), np.zeros((720, 1280, 3), np.uint8))
    (tmp_path / "junk.png").write_bytes(b"not a png")
    cam.save(tmp_path / "camera.json")
    replace(cam, image_size=(1920, 1080)).save(tmp_path / "c1080.json")
    (tmp_path / "bad.json").write_text('{"format": "camera/9"}')
    opts = {"--image": "{tmp}/img.png", "--table": "brasileira", "--camera": "{tmp}/camera.json"}
    for k in range(0, len(extra), 2):
        opts[extra[k]] = extra[k + 1]
    argv = ["check-camera", opts.pop("--image")]
    for key, value in opts.items():
        argv += [key, value]
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    line = one_error_line(capfd)
    assert re.search(match, line), line
