"""The detector in a process of its own (``vision.detect_worker``): the same detections as in
the caller's process, bit for bit, in order, through a rebuild; errors that say what failed.

A 2 s seeded random match rendered at 800x520 (not square: swapped axes would show) with a
tilted camera and hands; the real detector both ways.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from calibration.camera import load_camera
from geometry.tablespec import load_table
from monitor.cli import main
from monitor.source import VideoFileSource
from vision.detect import Detector, DetectorError
from vision.detect_worker import DetectorWorker, WorkerError, _other_children
from vision.detections import Detections

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("clip")
    args = ["simulate", "--random-match", "--seconds", "2", "--seed", "5"]
    args += ["--resolution", "800x520", "--camera", "tilted", "--out", str(out)]
    assert main(args) == 0
    return out


@pytest.fixture(scope="module")
def frames(clip: Path) -> list[np.ndarray]:
    return [img for _, img in VideoFileSource(clip / "video.mp4").frames()]


def _same(a: Detections, b: Detections) -> None:
    for f in dataclasses.fields(Detections):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), (
                f.name
            )
        elif isinstance(x, list):
            assert len(x) == len(y) and all(
                np.array_equal(u, v) for u, v in zip(x, y, strict=True)
            ), f.name
        else:
            assert x == y, f.name


def test_same_detections_as_in_process_through_a_rebuild(clip: Path, frames: list) -> None:
    cam = load_camera(clip / "camera.json")
    learn, run = frames[:60:4], frames[:24]
    here = Detector(cam, TABLE, "brasileira")
    here.learn_background(learn)
    want = [here.detect(img, k, k / 30) for k, img in enumerate(run)]
    # rebuilt after frame 14 was sent (a recalibration), frames 12-14 still in flight: 15.. by
    # a detector that learned again, 12-14 by the old one
    again = Detector(cam, TABLE, "brasileira")
    again.learn_background(run[8:12])
    want[15:] = [again.detect(img, k, k / 30) for k, img in enumerate(run) if k >= 15]

    got: list[Detections] = []
    with DetectorWorker(cam, TABLE, "brasileira", learn, depth=3) as w:
        for k, img in enumerate(run):
            if w.full:
                got.append(w.take())
            w.submit(img, k, k / 30)
            if k == 14:  # frames 12, 13, 14 in flight: the old detector's
                assert len(got) == 12 and w.in_flight == 3
                w.rebuild(cam, run[8:12])
        while w.in_flight:
            got.append(w.take())
    assert [d.frame for d in got] == list(range(24))
    assert sum(len(d.kind) for d in got) > 24 * 10  # the pieces are there to compare
    for a, b in zip(got, want, strict=True):
        _same(a, b)


def test_bad_image_and_misuse_are_one_line_errors(clip: Path, frames: list) -> None:
    cam = load_camera(clip / "camera.json")
    with DetectorWorker(cam, TABLE, "brasileira", frames[:40:8], depth=1) as w:
        with pytest.raises(WorkerError, match="no frame in flight"):
            w.take()
        with pytest.raises(DetectorError, match=r"image is 520x800 .*camera's is 800x520"):
            w.submit(np.zeros((800, 520, 3), np.uint8), 0, 0.0)
        w.submit(frames[0], 0, 0.0)
        with pytest.raises(WorkerError, match="1 frames in flight already"):
            w.submit(frames[1], 1, 0.0)
        assert w.take().frame == 0
    with pytest.raises(WorkerError, match="closed"):
        w.submit(frames[0], 0, 0.0)


def test_learning_errors_come_back_as_the_detectors(clip: Path, frames: list) -> None:
    cam = load_camera(clip / "camera.json")
    cut = [f[:100] for f in frames[:3]]  # frames of another size
    with pytest.raises(ValueError, match=r"expected \(520, 800\), got \(100, 800\)"):
        Detector(cam, TABLE, "brasileira").learn_background(cut)
    with DetectorWorker(cam, TABLE, "brasileira") as w:
        with pytest.raises(ValueError, match=r"expected \(520, 800\), got \(100, 800\)"):
            w.learn(cut)
        w.learn(frames[:40:8])  # and it goes on
        w.submit(frames[0], 0, 0.0)
        assert len(w.take().kind) > 10
    # not waited for: the error comes with the next settle, or before the first frame is sent
    with DetectorWorker(cam, TABLE, "brasileira") as w:
        w.learn(cut, wait=False)
        with pytest.raises(ValueError, match=r"expected \(520, 800\), got \(100, 800\)"):
            w.settle()
        w.settle()  # said once
        w.learn(cut, wait=False)
        with pytest.raises(ValueError, match=r"expected \(520, 800\), got \(100, 800\)"):
            w.submit(frames[0], 0, 0.0)
        w.learn(frames[:40:8], wait=False)
        w.submit(frames[0], 0, 0.0)
        assert len(w.take().kind) > 10


def test_a_killed_child_is_a_one_line_worker_error(clip: Path, frames: list) -> None:
    cam = load_camera(clip / "camera.json")
    w = DetectorWorker(cam, TABLE, "brasileira", frames[:40:8])
    try:
        assert w._proc is not None
        w._proc.kill()
        w._proc.wait()
        with pytest.raises(WorkerError, match=r"the detector's process ended \(exit code -9\)"):
            w.submit(frames[0], 0, 0.0)
            w.take()
    finally:
        w.close()
    w.close()  # twice: nothing


@pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="processor affinity needs Linux and two processors",
)
def test_own_core_and_the_callers_processors_given_back(clip: Path) -> None:
    cam = load_camera(clip / "camera.json")
    before = os.sched_getaffinity(0)
    # another analysis's detector on this machine (a benchmark beside the tests): no pinning,
    # as documented (vision.detect_worker._own_core), and that is what is checked then
    others = _other_children(-1)
    with DetectorWorker(cam, TABLE, "brasileira") as w:
        assert w._proc is not None
        if others:
            assert os.sched_getaffinity(w._proc.pid) == before
            assert os.sched_getaffinity(0) == before
        else:
            assert os.sched_getaffinity(w._proc.pid) == {max(before)}
            assert os.sched_getaffinity(0) == before - {max(before)}
    assert os.sched_getaffinity(0) == before
    with DetectorWorker(cam, TABLE, "brasileira", own_core=False) as w:
        assert os.sched_getaffinity(0) == before


def test_track_video_with_the_detector_ahead_writes_the_same_tracks(
    clip: Path, tmp_path: Path
) -> None:
    from vision.pipeline import track_video

    cam = load_camera(clip / "camera.json")
    done: dict[int, list[int]] = {0: [], 2: []}
    for ahead in (0, 2):
        frames = track_video(
            clip / "video.mp4",
            cam,
            TABLE,
            progress=done[ahead].append,
            out_dir=tmp_path / str(ahead),
            detect_ahead=ahead,
        )
        assert [tf.frame for tf in frames] == list(range(61))
    assert done[0] == done[2] == list(range(1, 62))
    for name in ("tracks.csv", "contacts.jsonl"):
        assert (tmp_path / "2" / name).read_bytes() == (tmp_path / "0" / name).read_bytes()


@pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="processor affinity needs Linux and two processors",
)
def test_a_second_detector_process_is_not_pinned(clip: Path) -> None:
    # analyses side by side would all queue their detectors on one processor
    cam = load_camera(clip / "camera.json")
    go, seen = threading.Event(), {}

    def second() -> None:  # a thread started before the first pin: all the processors
        go.wait()
        before = os.sched_getaffinity(0)
        with DetectorWorker(cam, TABLE, "brasileira") as w2:
            assert w2._proc is not None
            seen["child"] = os.sched_getaffinity(w2._proc.pid)
            seen["caller"] = os.sched_getaffinity(0)
        seen["before"] = before

    t = threading.Thread(target=second)
    t.start()
    with DetectorWorker(cam, TABLE, "brasileira") as w:
        assert w._proc is not None
        assert _other_children(os.getpid())  # seen: its child (another run's would be too)
        go.set()
        t.join()
    assert len(seen["before"]) >= 2
    assert seen["child"] == seen["caller"] == seen["before"]  # not pinned
