"""Video -> detector -> tracker -> tracks: ``track_video`` and the ``tracks.csv`` writer.

``track_video(path, camera, table)`` decodes the video once to learn the empty table from
frames spread over its first seconds (:meth:`vision.detect.Detector.learn_background`), then
again frame by frame (decoded a few frames ahead in a thread of its own, :func:`prefetch`, so
decoding runs on the second core): detect, track, yield each
:class:`vision.tracker.TrackFrame`, and, when asked, append its rows to ``tracks.csv`` and its
contacts to ``contacts.jsonl``, flushed every frame so a reader can follow a live run.

``tracks.csv`` (INTERFACES.md, "Analyse"): ``frame, t, id, team, kind, x, y, vx, vy, moving``,
one row per piece whose place is known (seen, predicted or frozen under a hand), plus a last
column ``status`` (``seen``, ``predicted``, ``hidden``) that the contract allows as an added
field. A lost piece has no row until it is found again.
"""

from __future__ import annotations

import csv
import json
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol

import av
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec
from vision.detections import Detections
from vision.tracker import Tracker, TrackerConfig, TrackFrame

__all__ = [
    "TRACKS_HEADER",
    "PipelineError",
    "TracksWriter",
    "iter_frames",
    "prefetch",
    "track_video",
    "video_size",
]

U8 = NDArray[np.uint8]
TRACKS_HEADER = ("frame", "t", "id", "team", "kind", "x", "y", "vx", "vy", "moving", "status")
_WRITTEN = ("seen", "predicted", "hidden")


class PipelineError(ValueError):
    """A video or camera the pipeline cannot use (one line naming it)."""


class FrameDetector(Protocol):
    def learn_background(self, frames: Any) -> None: ...

    def detect(self, image_bgr: U8, frame: int = 0, t: float = 0.0) -> Detections: ...


def _open(path: str | Path) -> Any:
    if not Path(path).is_file():
        raise PipelineError(f"{path}: no such video file")
    try:
        container = av.open(str(path))
        if not container.streams.video:
            container.close()
            raise PipelineError(f"{path}: no video stream in the file")
    except av.error.FFmpegError as exc:
        raise PipelineError(f"{path}: cannot read the video ({exc})") from None
    return container


def video_size(path: str | Path) -> tuple[tuple[int, int], float, int]:
    """``((width, height), fps, frames)`` of a video (``frames`` 0 when the file does not say)."""
    with _open(path) as container:
        s = container.streams.video[0]
        size = (int(s.codec_context.width), int(s.codec_context.height))
        fps = float(s.average_rate) if s.average_rate else 30.0
        return size, fps, int(s.frames or 0)


def iter_frames(path: str | Path, every: int = 1, limit: int | None = None) -> Iterator[U8]:
    """Decoded BGR frames (every ``every``-th, at most ``limit`` of them)."""
    with _open(path) as container:
        n = 0
        try:
            for k, frame in enumerate(container.decode(video=0)):
                if k % every:
                    continue
                yield np.asarray(frame.to_ndarray(format="bgr24"), np.uint8)
                n += 1
                if limit is not None and n >= limit:
                    return
        except av.error.FFmpegError as exc:
            raise PipelineError(f"{path}: video ends in an unreadable frame ({exc})") from None


def prefetch(frames: Iterator[U8], depth: int = 4) -> Iterator[U8]:
    """The same frames, decoded ahead in a background thread (the decoder releases the
    interpreter while it works, so decoding the next frames overlaps the detection of this
    one on a second core); at most ``depth`` frames wait. An error of the decoder is raised
    here, in the caller's thread."""
    q: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=max(depth, 1))
    stop = threading.Event()

    def work() -> None:
        try:
            for f in frames:
                while not stop.is_set():
                    try:
                        q.put(("frame", f), timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(("end", None))
        except BaseException as exc:  # handed over to the caller's thread
            q.put(("error", exc))

    thread = threading.Thread(target=work, name="botao-decode", daemon=True)
    thread.start()
    try:
        while True:
            kind, item = q.get()
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield item
    finally:
        stop.set()
        while thread.is_alive():  # let a blocked put see the stop
            try:
                q.get_nowait()
            except queue.Empty:
                thread.join(0.05)


class TracksWriter:
    """Appends :class:`TrackFrame` rows to ``tracks.csv`` (and contacts to ``contacts.jsonl``)."""

    def __init__(self, out_dir: str | Path) -> None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        self._csv_file: IO[str] = open(out / "tracks.csv", "w", newline="", encoding="utf-8")
        self._csv = csv.writer(self._csv_file)
        self._csv.writerow(TRACKS_HEADER)
        self._contacts: IO[str] = open(out / "contacts.jsonl", "w", encoding="utf-8")
        self.rows = 0

    def write(self, tf: TrackFrame) -> None:
        t = f"{tf.t:.4f}"
        for k in np.flatnonzero(np.isin(tf.status, _WRITTEN)):
            self._csv.writerow(
                (
                    tf.frame,
                    t,
                    tf.ids[k],
                    tf.team[k],
                    tf.kind[k],
                    f"{tf.xy_mm[k, 0]:.2f}",
                    f"{tf.xy_mm[k, 1]:.2f}",
                    f"{tf.v_mm_s[k, 0]:.1f}",
                    f"{tf.v_mm_s[k, 1]:.1f}",
                    int(tf.moving[k]),
                    tf.status[k],
                )
            )
            self.rows += 1
        for c in tf.contacts:
            rec = {"t": round(c.t, 4), "frame": c.frame, "a": c.a, "b": c.b, "kind": c.kind}
            self._contacts.write(json.dumps(rec) + "\n")
        self._csv_file.flush()
        self._contacts.flush()

    def close(self) -> None:
        self._csv_file.close()
        self._contacts.close()

    def __enter__(self) -> TracksWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def track_video(
    path: str | Path,
    camera: Camera,
    table: TableSpec,
    rules_name: str = "brasileira",
    progress: Callable[[int], None] | None = None,
    out_dir: str | Path | None = None,
    *,
    detector: FrameDetector | None = None,
    config: TrackerConfig | None = None,
    learn_frames: int = 15,
    learn_span_s: float = 10.0,
    detect_ahead: int = 0,
) -> Iterator[TrackFrame]:
    """Track every frame of a video; yields one :class:`TrackFrame` per frame.

    ``progress`` is called with the number of frames done; ``out_dir`` receives
    ``tracks.csv`` and ``contacts.jsonl`` as the frames go. ``detector`` defaults to
    :class:`vision.detect.Detector` for ``camera`` and ``table``, here or (``detect_ahead`` >
    0) in a process of its own that many frames ahead of the tracker
    (:mod:`vision.detect_worker`); it learns the empty table from ``learn_frames`` frames spread
    over the first ``learn_span_s`` seconds. Here by default: the tracker is a fifth of the
    detector's time, so the second process gains little (34.9 against 32.5 frames/s on the
    seed-21 render, two cores) for a second interpreter's memory (~300 MB more at 1080p:
    ``python -m benchmarks.bench_track --video-run VIDEO track``).
    Raises :class:`PipelineError` for a video that cannot be read or whose size is not the
    camera's.
    """
    size, fps, n_frames = video_size(path)
    if tuple(camera.image_size) != size:
        w, h = camera.image_size
        raise PipelineError(
            f"{path}: the video is {size[0]}x{size[1]}, the camera is for {w}x{h} images"
        )
    worker = None
    if detector is None:
        if detect_ahead > 0:
            from vision.detect_worker import DetectorWorker

            # started first: the child imports its modules while the table's frames decode
            worker = DetectorWorker(camera, table, rules_name, depth=detect_ahead)
        else:
            from vision.detect import Detector

            detector = Detector(camera, table, rules_name)
    span = max(int(learn_span_s * fps), 1)
    if n_frames:
        span = min(span, n_frames)
    every = max(span // max(learn_frames, 1), 1)
    tracker = Tracker(config or TrackerConfig(fps=fps, spots_mm=FieldModel(table).restart_spots()))
    writer: TracksWriter | None = None
    done = 0

    def track(dets: Detections) -> TrackFrame:
        nonlocal done
        tf = tracker.update(dets)
        if writer is not None:
            writer.write(tf)
        done += 1
        if progress is not None:
            progress(done)
        return tf

    try:
        learn = iter_frames(path, every, learn_frames)
        if worker is not None:
            worker.learn(list(learn))
        else:
            assert detector is not None
            detector.learn_background(learn)
        writer = TracksWriter(out_dir) if out_dir is not None else None
        for k, image in enumerate(prefetch(iter_frames(path))):
            if worker is None:
                assert detector is not None
                yield track(detector.detect(image, k, k / fps))
                continue
            if worker.full:
                yield track(worker.take())
            worker.submit(image, k, k / fps)
        while worker is not None and worker.in_flight:
            yield track(worker.take())
    finally:
        if worker is not None:
            worker.close()
        if writer is not None:
            writer.close()
