"""Video -> detector -> tracker -> tracks.csv (``vision.pipeline``) and ``botao track``.

A one-second simulated clip at 320 x 200 is decoded for real; the detector is a stand-in that
reports the simulator's truth for the decoded frame's index (the real detector has its own
tests), so these tests are about the pipeline: the frames, the learning pass, the CSV, the
progress, and the one-line errors (exit 2).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from monitor.cmd_track import add_parsers, run_track
from monitor.errors import UsageError
from simulator.clip import write_clip
from simulator.match import Match
from simulator.state import FrameTruth
from simulator.video import VideoWriter
from vision.detections import Detections
from vision.pipeline import TRACKS_HEADER, PipelineError, TracksWriter, track_video, video_size
from vision.tracker import Tracker

TABLE = load_table("brasileira")


class TruthDetector:
    """Reports the truth of the frame it is given (by index), with seeded noise."""

    def __init__(self, frames: list[FrameTruth]) -> None:
        self.frames = frames
        self.learned = 0
        self.rng = np.random.default_rng(0)

    def learn_background(self, frames: object) -> None:
        self.learned = sum(1 for _ in frames)  # type: ignore[attr-defined]

    def detect(self, image_bgr: np.ndarray, frame: int = 0, t: float = 0.0) -> Detections:
        assert image_bgr.shape == (200, 320, 3)
        p = self.frames[frame].pieces
        n = len(p)
        return Detections(
            kind=p.kind,
            team=p.team,
            xy_mm=p.xy_mm + self.rng.normal(size=(n, 2)) * 0.5,
            uv_px=np.zeros((n, 2)),
            size_mm=p.size_mm,
            angle_rad=p.angle_rad,
            confidence=np.ones(n),
            sigma_mm=np.full(n, 0.5),
            frame=frame,
            t=t,
        )


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[FrameTruth]]:
    out = tmp_path_factory.mktemp("clip")
    frames = list(Match(TABLE, "brasileira", seed=2, fps=30).frames(1.0))
    cam = preset_camera("overhead", TABLE, (320, 200))
    write_clip(frames, TABLE, cam, out, 30.0, seed=2)
    return out, frames


def test_track_video_yields_every_frame_and_writes_tracks_csv(clip, tmp_path: Path) -> None:
    folder, frames = clip
    cam = preset_camera("overhead", TABLE, (320, 200))
    det = TruthDetector(frames)
    done: list[int] = []
    out = tmp_path / "out"
    got = list(
        track_video(
            folder / "video.mp4", cam, TABLE, progress=done.append, out_dir=out, detector=det
        )
    )
    assert len(got) == len(frames) == 31
    assert done == list(range(1, 32))
    assert det.learned == 15  # frames spread over the clip's first seconds
    with (out / "tracks.csv").open() as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == TRACKS_HEADER
    assert {int(r[0]) for r in rows[1:]} == set(range(31))
    first = [r for r in rows[1:] if r[0] == "0"]
    assert len(first) == 23 and {r[10] for r in first} == {"seen"}
    ball = next(r for r in first if r[2] == "ball")
    truth_ball = frames[0].pieces.xy_mm[frames[0].pieces.index("ball")]
    assert float(ball[5]) == pytest.approx(truth_ball[0], abs=2.0)
    assert ball[3] == "" and ball[4] == "ball"


def test_tracks_writer_flushes_every_frame_and_skips_lost_pieces(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    p = Match(TABLE, "brasileira", seed=1, fps=30).world.state()[0]
    n = len(p)
    tr = Tracker()
    with TracksWriter(tmp_path) as w:
        for f in range(3):
            keep = np.arange(n) != 5 if f else np.ones(n, bool)  # piece 5 unseen later
            d = Detections(
                p.kind[keep], p.team[keep], p.xy_mm[keep] + rng.normal(size=(keep.sum(), 2)),
                np.zeros((keep.sum(), 2)), p.size_mm[keep], p.angle_rad[keep],
                np.ones(keep.sum()), np.full(keep.sum(), 1.0), frame=f, t=f / 30,
            )  # fmt: skip
            w.write(tr.update(d))
            lines = (tmp_path / "tracks.csv").read_text().splitlines()
            assert len(lines) == 1 + 23 * (f + 1)  # on disk before close; a predicted row too
    assert lines[-1].endswith(",seen")
    assert sum(line.endswith(",predicted") for line in lines) == 2


def test_unreadable_video_and_camera_of_another_size_are_errors(clip, tmp_path: Path) -> None:
    folder, frames = clip
    cam = preset_camera("overhead", TABLE, (320, 200))
    with pytest.raises(PipelineError, match="no such video"):
        list(track_video(tmp_path / "none.mp4", cam, TABLE, detector=TruthDetector(frames)))
    junk = tmp_path / "junk.mp4"
    junk.write_text("not a video\n")
    with pytest.raises(PipelineError, match="cannot read"):
        video_size(junk)
    big = preset_camera("overhead", TABLE, (1920, 1080))
    with pytest.raises(PipelineError, match="320x200, the camera is for 1920x1080"):
        list(track_video(folder / "video.mp4", big, TABLE, detector=TruthDetector(frames)))


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="botao")
    add_parsers(parser.add_subparsers(dest="command"))
    return parser.parse_args(["track", *argv])


@pytest.mark.parametrize(
    ("video", "camera", "message"),
    [
        ("missing.mp4", "clip", "no such video"),
        ("junk", "clip", "cannot read"),
        ("clip", "other-size", "the camera is for 1280x720"),
        ("clip", "missing.json", "--camera"),
        ("blank", None, "pass --camera"),  # no table to calibrate on
    ],
)
def test_botao_track_bad_input_is_a_one_line_error(
    clip, tmp_path: Path, video: str, camera: str | None, message: str
) -> None:
    folder, _ = clip
    paths = {"clip": str(folder / "video.mp4"), "junk": str(tmp_path / "junk.mp4")}
    (tmp_path / "junk.mp4").write_bytes(b"\x00" * 64)
    if video == "blank":
        paths["blank"] = str(tmp_path / "blank.mp4")
        with VideoWriter(paths["blank"], 30.0, (320, 200)) as w:
            for k in range(10):
                w.write(np.full((200, 320, 3), 90 + k, np.uint8))
    if camera == "other-size":
        preset_camera("overhead", TABLE, (1280, 720)).save(tmp_path / "cam.json")
        camera = str(tmp_path / "cam.json")
    elif camera == "clip":
        camera = str(folder / "camera.json")
    argv = [paths.get(video, str(tmp_path / video)), "--out", str(tmp_path / "out")]
    if camera is not None:
        argv += ["--camera", camera if camera.startswith("/") else str(tmp_path / camera)]
    with pytest.raises(UsageError, match=message) as err:
        run_track(_args(*argv))
    assert "\n" not in str(err.value)
