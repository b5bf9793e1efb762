"""Video writing/reading and a whole clip on disk (video.mp4 + camera.json + truth files)."""

from __future__ import annotations

import csv
from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import load_camera, preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.clip import write_clip
from simulator.state import FrameTruth
from simulator.video import VideoWriter, read_video, video_info

TABLE = load_table("brasileira")


@pytest.mark.parametrize("quick", [False, True])
def test_video_round_trip(tmp_path, quick: bool) -> None:  # type: ignore[no-untyped-def]
    # quick: OpenCV's colour conversion, which must agree with the decoder's (limited range,
    # BT.601) as swscale's does
    vv, uu = np.mgrid[0:72, 0:128]
    frames = [
        np.stack([uu + 10 * k, vv * 2, 255 - uu], axis=2).clip(0, 255).astype(np.uint8)
        for k in range(6)
    ]
    path = tmp_path / "v.mp4"
    with VideoWriter(path, fps=30, size=(128, 72), crf=12, quick=quick) as w:
        for f in frames:
            w.write(f)
    back = list(read_video(path))
    assert len(back) == 6
    # H.264 at crf 12 in yuv420p: close to smooth frames, not exact.
    assert np.abs(back[3].astype(float) - frames[3]).mean() < 4.0  # limited-range YUV rounding
    info = video_info(path)
    assert (info["width"], info["height"], info["codec"]) == (128, 72, "h264")
    assert info["fps"] == pytest.approx(30.0)


def test_video_rejects_bad_sizes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="even"):
        VideoWriter(tmp_path / "odd.mp4", fps=30, size=(127, 72))
    with (
        VideoWriter(tmp_path / "v.mp4", fps=30, size=(64, 48)) as w,
        pytest.raises(ValueError, match="48x64x3"),
    ):
        w.write(np.zeros((64, 48, 3), np.uint8))


def _frames(n: int) -> list[FrameTruth]:
    p = Pieces(
        np.array(["A2", "B2", "ball"]),
        np.array(["A", "B", ""]),
        np.array(["button", "button", "ball"]),
        np.array([[-200.0, 0.0], [200.0, 50.0], [0.0, 0.0]]),
        np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]]),
    )
    out = []
    for k in range(n):
        xy = p.xy_mm.copy()
        xy[2, 0] = 10.0 * k
        vel = np.zeros((3, 2))
        vel[2, 0] = 300.0
        out.append(
            FrameTruth(k, k / 30.0, replace(p, xy_mm=xy), vel, np.array([False, False, True]))
        )
    return out


def test_write_clip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cam = preset_camera("tilted", TABLE, (320, 180))
    seen: list[int] = []
    n = write_clip(_frames(8), TABLE, cam, tmp_path / "clip", fps=30, progress=seen.append)
    assert n == 8 and seen == list(range(1, 9))
    clip = tmp_path / "clip"
    assert len(list(read_video(clip / "video.mp4"))) == 8
    assert load_camera(clip / "camera.json").image_size == (320, 180)
    with open(clip / "truth.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 8 * 3
    assert (clip / "events.jsonl").exists() and (clip / "contacts.jsonl").exists()
