"""The referee with its detector in a process of its own, a few frames ahead: the same events,
tracks and contacts as with the detector in the caller's process, through a recalibration
(the rebuilt detector must also redo the frames already sent to it).

A seeded match with hands rendered at 960x540; recalibration asked for (live mode's key) at
frame 20: the camera keeper fits the camera again on the next frames it tests and the
detector is rebuilt on the new one. (A bumped camera takes the same path, at a second a
frame of detection while the old camera is wrong: too slow for a unit test.)
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from geometry.tablespec import load_table
from monitor.analyze import Referee
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from vision.detect_worker import DetectorWorker

TABLE = load_table("brasileira")
FPS = 30.0


def _frames() -> tuple[object, list[np.ndarray]]:
    rng = np.random.default_rng(41)
    cam, _, _ = random_camera(rng, TABLE, (960, 540))
    style = RenderStyle(field_bgr=FIELD_COLOURS["green"], noise_sigma=3.0, jpeg_quality=85)
    render = Renderer(TABLE, cam, style)
    return cam, [render.render(f) for f in Match(TABLE, "brasileira", seed=41, fps=FPS).frames(2)]


def _run(out: Path, cam: object, frames: list[np.ndarray], ahead: int) -> list[dict]:
    out.mkdir()
    worker = DetectorWorker(cam, TABLE, "brasileira", depth=ahead) if ahead else None  # type: ignore[arg-type]
    ref = Referee(
        cam,  # type: ignore[arg-type]
        TABLE,
        "brasileira",
        out,
        FPS,
        title="t",
        learn=frames[:30:3],
        write_video=False,
        worker=worker,
    )
    for k, img in enumerate(frames):
        ref.push(k, img, k / FPS)
        if k == 20:  # the keeper sees each frame as it comes in, before it is judged
            ref.recalibrate()
    ref.drain()
    ref.close()
    assert ref.judged == len(frames)
    assert ref.camera is not cam and ref.keeper.results[-1][1].ok  # recalibrated, rebuilt
    return [json.loads(ln) for ln in (out / "events.jsonl").read_text("utf-8").splitlines()]


def test_detector_ahead_decides_as_in_process_through_a_recalibration(tmp_path: Path) -> None:
    cam, frames = _frames()
    here = _run(tmp_path / "here", cam, frames, 0)
    ahead = _run(tmp_path / "ahead", cam, frames, 2)
    assert len(here) > 1
    assert ahead == here
    for name in ("tracks.csv", "contacts.jsonl"):
        assert (tmp_path / "ahead" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


def test_a_bumped_camera_is_not_judged_until_recalibrated(tmp_path: Path) -> None:
    # the table pushed 3 mm one second in: the keeper calls the camera lost, recalibrates and
    # restores it; the frames in between are neither detected (slow and wrong through the old
    # camera) nor judged, with the detector here or ahead alike
    from tests.calibration.test_drift import translated

    rng = np.random.default_rng(43)
    cam, _, _ = random_camera(rng, TABLE, (960, 540))
    moved = translated(cam, 3.0, rng.uniform(0.0, 2.0 * np.pi))
    style = RenderStyle(field_bgr=FIELD_COLOURS["blue"], noise_sigma=3.0, jpeg_quality=85)
    before, after = Renderer(TABLE, cam, style), Renderer(TABLE, moved, style)
    frames = [
        (before if f.t < 1.0 else after).render(f)
        for f in Match(TABLE, "brasileira", seed=43, fps=FPS).frames(3.5)
    ]
    runs = {}
    for ahead in (0, 2):
        out = tmp_path / str(ahead)
        out.mkdir()
        worker = DetectorWorker(cam, TABLE, "brasileira", depth=ahead) if ahead else None
        ref = Referee(
            cam, TABLE, "brasileira", out, FPS, title="t", learn=frames[:30:3],
            write_video=False, worker=worker,
        )  # fmt: skip
        for k, img in enumerate(frames):
            ref.push(k, img, k / FPS)
        ref.drain()
        ref.close()
        events = [json.loads(ln) for ln in (out / "events.jsonl").read_text("utf-8").splitlines()]
        contacts = (out / "contacts.jsonl").read_text("utf-8")
        runs[ahead] = (events, ref.blind, (out / "tracks.csv").read_bytes(), contacts)
    events, blind, _, contacts = runs[0]
    assert runs[2] == runs[0]
    lost = next(e["frame"] for e in events if e["type"] == "calibration_lost")
    restored = next(e for e in events if e["type"] == "calibration_restored")
    assert 30 <= lost < restored["frame"] and restored["recalibrated"] is True
    assert blind > 5
    # nothing called on the frames the camera was lost (the keeper's own events aside); the
    # engine holds a frame back, so one decided on the frame before the loss may come with it
    called = [e for e in events if e["type"] not in ("calibration_lost", "calibration_restored")]
    assert not [e for e in called if lost < e["frame"] < lost + blind], called
    # nor read across the gap on the first frames back: the ball rolled on unseen meanwhile
    # and an A9-B8 hit was found from its jump before the tracker and the engine were told
    # of the gap
    back = [json.loads(ln) for ln in contacts.splitlines()]
    assert not [c for c in back if lost < c["frame"] <= lost + blind + 3], back
    motion = ("contact", "touch", "foul", "lance", "ball_moving", "ball_out", "goal")
    assert not [e for e in called if lost < e["frame"] <= lost + blind + 3 and e["type"] in motion]


def test_a_table_the_worker_cannot_learn_is_said_by_the_referee(tmp_path: Path) -> None:
    # the child learns while the referee sets up the rest; its error still comes from the
    # constructor (``botao analyze`` makes it a one-line usage error), not from frame 0
    cam, frames = _frames()
    cut = [f[:100] for f in frames[:3]]
    with DetectorWorker(cam, TABLE, "brasileira") as worker:  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"expected \(540, 960\), got \(100, 960\)"):
            Referee(
                cam, TABLE, "brasileira", tmp_path, FPS, title="t", learn=cut,
                write_video=False, worker=worker,
            )  # type: ignore[arg-type]  # fmt: skip
    assert (tmp_path / "events.jsonl").read_text("utf-8") == ""
