"""Live frame capture: a camera (or a clip played at its real rate) read on its own thread.

The monitor must keep up with the camera, not with a queue: :class:`Capture` reads every frame
as it comes, numbers it (the frame index of the recording), hands the newest one to whoever
asks (:meth:`Capture.newest`) and counts those nobody took (``dropped``). Every frame also goes
to the :class:`Recorder` (raw H.264 video, fragmented MP4 so that a file cut by a crash still
plays), which counts what it could not keep up with. A source that fails (a camera unplugged,
a stream that drops) is reopened with backoff (0.5 s doubling to 8 s) until it returns or the
capture is stopped; the gap is reported, nothing already recorded is lost.

Sources (:func:`open_source`): ``0`` or ``/dev/videoN`` (a webcam through OpenCV),
``rtsp://...`` / ``http://...`` (a network stream), ``sim:FILE`` or a plain ``FILE`` (a clip
played at its real frame rate: the simulated camera the tests and benchmarks use).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

import av
import cv2
import numpy as np
from numpy.typing import NDArray

from monitor.source import SourceError

__all__ = ["Capture", "ClipCamera", "FrameSource", "Recorder", "open_source"]

U8 = NDArray[np.uint8]
BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Capture times kept, by frame index (30 s at 30 frames/s): an event's decisive frame may be
#: one that was captured but not judged (a contact between two judged frames).
KEEP_TIMES = 900


class FrameSource(Protocol):
    """A camera: ``read()`` blocks for the next frame; None when it failed or ended."""

    fps: float
    size_wh: tuple[int, int]
    ended: bool  # no more frames will come (a clip's end), as opposed to a failure

    def read(self) -> U8 | None: ...

    def reopen(self) -> bool: ...

    def close(self) -> None: ...


class ClipCamera:
    """A video file played as a camera at its real frame rate (or ``speed`` times it)."""

    def __init__(self, path: str | Path, speed: float = 1.0) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        self.speed = speed
        try:
            self._c = av.open(str(self.path))
        except av.error.FFmpegError as exc:
            raise SourceError(f"{self.path}: cannot read the video ({exc})") from None
        if not self._c.streams.video:
            raise SourceError(f"{self.path}: no video stream in the file")
        s = self._c.streams.video[0]
        self.fps = float(s.average_rate) if s.average_rate else 30.0
        self.size_wh = (int(s.codec_context.width), int(s.codec_context.height))
        self._frames = self._c.decode(video=0)
        self._t0: float | None = None
        self._k = 0
        self.ended = False

    def read(self) -> U8 | None:
        try:
            frame = next(self._frames)
        except (StopIteration, av.error.FFmpegError):
            self.ended = True
            return None
        if self._t0 is None:
            self._t0 = time.perf_counter()
        due = self._t0 + self._k / (self.fps * self.speed)
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        self._k += 1
        return np.asarray(frame.to_ndarray(format="bgr24"), np.uint8)

    def reopen(self) -> bool:
        return False  # a clip that failed stays failed

    def close(self) -> None:
        self._c.close()


class CvCamera:
    """A webcam or a network stream through ``cv2.VideoCapture``."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.ended = False
        self._cap = self._open()
        if self._cap is None:
            raise SourceError(f"--source {spec}: cannot open the camera or stream")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else 30.0
        w = int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH))
        h = int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
        self.size_wh = (w, h)

    def _open(self) -> Any:
        target: int | str = int(self.spec) if self.spec.isdigit() else self.spec
        cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            cap.release()
            return None
        return cap

    def read(self) -> U8 | None:
        ok, img = self._cap.read()
        return np.asarray(img, np.uint8) if ok and img is not None else None

    def reopen(self) -> bool:
        self._cap.release()
        cap = self._open()
        if cap is None:
            return False
        self._cap = cap
        return True

    def close(self) -> None:
        self._cap.release()


def open_source(spec: str, speed: float = 1.0) -> FrameSource:
    """The source named on the command line (see the module docstring)."""
    if spec.startswith("sim:"):
        return ClipCamera(spec[4:], speed)
    if spec.isdigit() or spec.startswith(("/dev/video", "rtsp://", "http://", "https://")):
        return CvCamera(spec)
    return ClipCamera(spec, speed)


class Recorder:
    """Raw frames to an H.264 fragmented MP4 on a thread; ``lost`` counts frames it could not
    take (its queue full: the machine cannot encode as fast as the camera films)."""

    def __init__(self, path: str | Path, fps: float, size_wh: tuple[int, int]) -> None:
        w, h = size_wh
        self.path = Path(path)
        self._c: Any = av.open(
            str(self.path), mode="w", options={"movflags": "frag_keyframe+empty_moov"}
        )
        st: Any = self._c.add_stream("libx264", rate=Fraction(fps).limit_denominator(1001))
        st.width, st.height, st.pix_fmt = w - w % 2, h - h % 2, "yuv420p"
        st.options = {"preset": "ultrafast", "crf": "23", "g": str(max(int(fps), 1))}
        self._st = st
        self.q: queue.Queue[U8 | None] = queue.Queue(maxsize=64)
        self.frames = 0
        self.lost = 0
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="botao-record", daemon=True)
        self._thread.start()

    def put(self, img: U8) -> None:
        try:
            self.q.put_nowait(img)
        except queue.Full:
            self.lost += 1

    def _run(self) -> None:
        try:
            while (img := self.q.get()) is not None:
                h, w = self._st.height, self._st.width
                # OpenCV's conversion to yuv420p (BT.601 limited range, as swscale's; a 2x2
                # chroma average): ~1 ms a 1080p frame against swscale's ~9, on the core
                # the capture and the referee share
                i420 = cv2.cvtColor(np.ascontiguousarray(img[:h, :w]), cv2.COLOR_BGR2YUV_I420)
                frame = av.VideoFrame.from_ndarray(np.asarray(i420, np.uint8), "yuv420p")
                for packet in self._st.encode(frame):
                    self._c.mux(packet)
                self.frames += 1
        except BaseException as exc:  # reported by close()
            self.error = exc
        finally:
            try:
                for packet in self._st.encode():
                    self._c.mux(packet)
            finally:
                self._c.close()

    def close(self) -> None:
        self.q.put(None)
        self._thread.join()


@dataclass
class Grabbed:
    """One captured frame: its index in the recording, the image, the capture time."""

    index: int
    image: U8
    t_capture: float


class Capture:
    """Reads ``source`` on a thread (see the module docstring)."""

    def __init__(
        self,
        source: FrameSource,
        recorder: Recorder | None = None,
        on_gap: Callable[[str], None] | None = None,
    ) -> None:
        self.source = source
        self.recorder = recorder
        self.on_gap = on_gap
        self.captured = 0
        self.dropped = 0
        self.reopened = 0
        self.ended = False
        self._times = np.full(KEEP_TIMES, np.nan)
        self._slot: Grabbed | None = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="botao-capture", daemon=True)

    def start(self) -> Capture:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                img = self.source.read()
                t = time.perf_counter()
                if img is None:
                    if self.source.ended or not self._retry():
                        break
                    continue
                if self.recorder is not None:
                    self.recorder.put(img)
                with self._cond:
                    if self._slot is not None:
                        self.dropped += 1
                    self._slot = Grabbed(self.captured, img, t)
                    self._times[self.captured % KEEP_TIMES] = t
                    self.captured += 1
                    self._cond.notify_all()
        finally:
            with self._cond:
                self.ended = True
                self._cond.notify_all()

    def _retry(self) -> bool:
        for wait in BACKOFF_S * 100:  # about 13 minutes of tries, then give up
            if self.on_gap is not None:
                self.on_gap(f"the camera stopped sending; retrying in {wait:.1f} s")
            if self._stop.wait(wait):
                return False
            if self.source.reopen():
                self.reopened += 1
                if self.on_gap is not None:
                    self.on_gap("the camera is back")
                return True
        return False

    def captured_at(self, index: int) -> float | None:
        """When frame ``index`` was captured (``time.perf_counter``), None when it was not
        or is older than the last :data:`KEEP_TIMES` frames."""
        with self._cond:
            if not self.captured - KEEP_TIMES <= index < self.captured or index < 0:
                return None
            return float(self._times[index % KEEP_TIMES])

    def newest(self, timeout: float = 1.0) -> Grabbed | None:
        """The newest frame not yet taken (waits up to ``timeout``); None if none came or
        the capture ended."""
        with self._cond:
            if self._slot is None and not self.ended:
                self._cond.wait(timeout)
            got, self._slot = self._slot, None
            return got

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5.0)
        self.source.close()
