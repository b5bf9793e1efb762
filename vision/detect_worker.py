"""The detector in a process of its own, a few frames ahead of the tracker.

The detector is most of a frame's work and depends only on the frames it has seen, never on
the tracker or the rules (:meth:`vision.detect.Detector.detect` takes an image and a time), so
it can run beside them: while the caller tracks and judges frame ``k``, a child process
detects frames ``k + 1 .. k + depth``. Python's interpreter lock keeps a single process's
threads from doing that (the detector is mostly short numpy and compiled calls between
Python lines). The frames go to the child through shared memory (one copy of a frame, no
pickling); its :class:`vision.detections.Detections` come back, a few kilobytes each, in the
order the frames were sent. Detections are the same, bit for bit, as the same
:class:`Detector` would give in the caller's process (tested).

>>> # worker = DetectorWorker(camera, table, "gaucha", learn=frames)
>>> # worker.submit(image, k, t); ...; dets = worker.take()   # the oldest frame's detections
"""

from __future__ import annotations

import mmap
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import threading
import traceback
from collections import deque
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.tablespec import TableSpec
from vision.detections import Detections

__all__ = ["DetectorWorker", "WorkerError"]

U8 = NDArray[np.uint8]


class WorkerError(RuntimeError):
    """The detector's process failed outside the detector (it died, or could not start)."""


def _frames_file(size: int) -> int:
    """A descriptor of ``size`` bytes of memory-backed file with no name left to clean up
    (Linux's memfd; elsewhere a temporary file unlinked at once): the child maps it too, and
    it is gone when both close it, even if either is killed."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("botao-frames")
    else:  # pragma: no cover - not Linux
        fd, path = tempfile.mkstemp(prefix="botao-frames-")
        os.unlink(path)
    os.ftruncate(fd, size)
    return fd


def _map(fd: int, shape: tuple[int, ...]) -> tuple[mmap.mmap, U8]:
    buf = mmap.mmap(fd, int(np.prod(shape)))
    return buf, np.ndarray(shape, np.uint8, buf)


def _recv_frames(conn: Connection, shapes: tuple[tuple[int, ...], ...]) -> list[U8]:
    return [np.frombuffer(conn.recv_bytes(), np.uint8).reshape(shape) for shape in shapes]


def _child(fd: int, frames_fd: int) -> None:
    """The child's entry: its end of the socket pair and the frames' file, then
    :func:`_serve`."""
    conn = Connection(fd)
    try:
        msg = conn.recv()
    except (EOFError, OSError, KeyboardInterrupt):
        return
    _serve(conn, frames_fd, *msg[1:])


def _serve(
    conn: Connection,
    frames_fd: int,
    shape: tuple[int, ...],
    camera: Camera,
    table: TableSpec,
    rules_name: str,
    threads: int | None,
) -> None:
    """The child: build the detector, then answer every message with one reply, in order:
    ``learn`` / ``rebuild`` / ``detect`` -> ``("ok", result)`` or ``("error", DetectorError)``;
    ``close`` ends it. Anything else that goes wrong -> ``("crash", traceback)``."""
    import cv2

    from vision.detect import Detector
    from vision.memory import release_free_memory

    if threads is not None:
        cv2.setNumThreads(threads)
    buf, frames = _map(frames_fd, shape)
    os.close(frames_fd)
    try:
        try:
            det = Detector(camera, table, rules_name)
            conn.send(("ok", None))
        except Exception as exc:  # reported by the parent as a one-line error
            conn.send(("error", exc))
            return
        while True:
            msg = conn.recv()
            try:
                if msg[0] == "detect":
                    _, slot, k, t = msg
                    conn.send(("ok", det.detect(frames[slot], k, t)))
                elif msg[0] == "learn":
                    det.learn_background(_recv_frames(conn, msg[1]))
                    release_free_memory()  # the frames, and what learning them took
                    conn.send(("ok", None))
                elif msg[0] == "rebuild":
                    new = Detector(msg[1], table, rules_name)
                    learn = _recv_frames(conn, msg[2])
                    if learn:
                        new.learn_background(learn)
                    det = new
                    del learn
                    release_free_memory()
                    conn.send(("ok", None))
                else:  # "close"
                    return
            except ValueError as exc:  # the detector's errors (DetectorError is one), as raised
                conn.send(("error", exc))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        return  # the parent went away (or was interrupted): nothing to answer
    except BaseException:
        try:
            conn.send(("crash", traceback.format_exc(limit=8)))
        except OSError:
            pass
    finally:
        del frames
        buf.close()


_MARK = "from vision.detect_worker import _child"  # in a child's command line


def _other_children(pid: int) -> bool:
    """Whether another detector process than ``pid`` runs on this machine (Linux's /proc)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return False
    for name in names:
        if not name.isdigit() or int(name) == pid:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if _MARK.encode() in f.read():
                    return True
        except OSError:
            continue
    return False


def _own_core(pid: int) -> tuple[int, set[int]] | None:
    """``pid`` on the last processor this thread may use, this thread (and the threads it
    starts later) on the others; nothing where affinity is not Linux's, on one processor, or
    when another detector process runs (analyses run side by side: pinned, they would all
    queue on the same processor). Returns (this thread's id, its processors before) to put
    back, or None."""
    if not hasattr(os, "sched_setaffinity"):  # pragma: no cover - not Linux
        return None
    cpus = os.sched_getaffinity(0)
    if len(cpus) < 2 or _other_children(pid):
        return None
    try:
        os.sched_setaffinity(pid, {max(cpus)})
        os.sched_setaffinity(0, cpus - {max(cpus)})
    except OSError:  # a container that forbids it: the scheduler decides
        return None
    return threading.get_native_id(), set(cpus)


class DetectorWorker:
    """A :class:`vision.detect.Detector` for ``camera`` and ``table`` in a child process.

    Parameters
    ----------
    camera, table, rules_name : as for :class:`vision.detect.Detector`.
    learn : frames of the empty table's learning (:meth:`Detector.learn_background`), or None
        (then :meth:`learn` them later: the child starts, importing its modules, while the
        caller decodes them).
    depth : frames detected ahead at most (sent and not yet taken).
    threads : OpenCV's threads in the child (None: OpenCV's default).
    own_core : the child on a processor of its own (the last this process may use), this
        process's threads on the others (Linux, two processors or more; the caller's thread
        gets its processors back on :meth:`close`). The detector is the slowest stage: sharing
        a core with the decoder's, the encoder's and the tracker's threads it loses time at
        random (``python -m benchmarks.bench_analyze --speed-run``, RESULTS.md).

    A detector that cannot be built, or an image or frames it refuses, raise
    :class:`vision.detect.DetectorError`, as the detector itself would;
    :class:`WorkerError` when the child itself fails. ``submit(image, k, t)`` sends a frame
    (take one first when :attr:`full`); ``take()`` returns the oldest frame's detections, or
    raises the :class:`vision.detect.DetectorError` the detector raised for it.
    ``rebuild(camera, learn)`` replaces the detector (a recalibrated camera) for the frames
    sent after it, as a detector rebuilt in the caller's process between those frames. Close
    it (or use it in a ``with``).
    """

    def __init__(
        self,
        camera: Camera,
        table: TableSpec,
        rules_name: str = "brasileira",
        learn: Sequence[U8] | None = None,
        *,
        depth: int = 2,
        threads: int | None = None,
        own_core: bool = True,
    ) -> None:
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        w, h = camera.image_size
        self.depth = int(depth)
        self.size_wh = (int(w), int(h))
        # one slot more than the frames in flight: the child reads a slot while the caller
        # fills the next
        self._shape = (self.depth + 1, int(h), int(w), 3)
        frames_fd = _frames_file(int(np.prod(self._shape)))
        try:
            self._buf, self._frames = _map(frames_fd, self._shape)
        except BaseException:
            os.close(frames_fd)
            raise
        self._pending: deque[int] = deque()  # the slots of the frames in flight, oldest first
        self._next_slot = 0
        self._closed = False
        # the replies owed, in the order they come: "control" (start, learn, rebuild: an error
        # or nothing) and "detect" (a frame's detections); every message gets one
        self._expect: deque[str] = deque()
        self._affinity: tuple[int, set[int]] | None = None
        # the child is a plain interpreter started on this module (not multiprocessing's
        # spawn, which imports the caller's main script again and needs its
        # ``if __name__ == "__main__"`` guard); it gets one end of a socket pair
        self._conn, child = mp.Pipe()
        fds = (child.fileno(), frames_fd)
        code = (
            "import sys; sys.path[:0] = "
            + repr([p for p in sys.path if p])
            + "; "
            + _MARK
            + "; _child"
            + repr(fds)
        )
        self._proc: subprocess.Popen[bytes] | None = None
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", code], pass_fds=fds, stdin=subprocess.DEVNULL
            )
            child.close()
            os.close(frames_fd)
            if own_core:
                self._affinity = _own_core(self._proc.pid)
            self._send(
                (
                    "start",
                    self._shape,
                    camera,  # pickled whole: a camera/1 document rounds nothing, but its
                    # parse computes the model again, not always to the same bits
                    table,
                    rules_name,
                    threads,
                )
            )
            self._expect.append("control")
            if learn:
                self.learn(learn)
        except BaseException:
            child.close()
            try:
                os.close(frames_fd)
            except OSError:
                pass
            self.close()
            raise

    def learn(self, frames: Sequence[U8], *, wait: bool = True) -> None:
        """The detector learns the empty table from ``frames`` (before any frame is sent).

        ``wait``: until it has (its error raised here); else the caller goes on while the
        child learns (a second or so of 1080p) and :meth:`settle`, or the first frame's
        :meth:`take`, raises what went wrong.
        """
        if self._pending:
            raise WorkerError("learn the table before sending frames")
        self._send_with_frames(("learn",), frames)
        self._expect.append("control")
        if wait:
            self._settle()

    def settle(self) -> None:
        """Wait until the detector is built and has learned what it was sent (raising the
        first error: a :class:`vision.detect.DetectorError`, or :class:`WorkerError`)."""
        self._settle()

    def _send_with_frames(self, msg: tuple[Any, ...], frames: Sequence[U8] | None) -> None:
        """``msg`` + the frames' shapes, then each frame's bytes as they are (no pickled copy
        of them all: 15 frames of 1080p are 93 MB)."""
        frames = [np.ascontiguousarray(f, np.uint8) for f in frames or ()]
        self._send((*msg, tuple(f.shape for f in frames)))
        try:
            for f in frames:
                self._conn.send_bytes(f.data.cast("B"))
        except OSError:
            raise WorkerError(self._died()) from None

    def _settle(self) -> None:
        """Wait for the control messages' replies owed before the next frame's (raising the
        first error)."""
        error: BaseException | None = None
        while self._expect and self._expect[0] == "control":
            self._expect.popleft()
            kind, payload = self._recv()
            if kind == "error" and error is None:
                error = payload
        if error is not None:
            raise error

    # ------------------------------------------------------------------ frames
    @property
    def in_flight(self) -> int:
        """Frames sent whose detections have not been taken."""
        return len(self._pending)

    @property
    def full(self) -> bool:
        """Whether ``depth`` frames are in flight (take one before sending another)."""
        return len(self._pending) >= self.depth

    def ready(self) -> bool:
        """Whether a reply is waiting (:meth:`take` would not wait for the detector)."""
        return bool(self._pending) and not self._closed and self._conn.poll(0)

    def submit(self, image: U8, frame: int, t: float) -> None:
        """Send frame ``frame`` (time ``t`` s) to be detected."""
        if self._closed:
            raise WorkerError("the detector's process is closed")
        if self.full:
            raise WorkerError(f"{self.depth} frames in flight already: take one first")
        if not self._pending:
            self._settle()  # a detector that could not be built or learn: said now
        img = np.asarray(image)
        w, h = self.size_wh
        if img.shape != (h, w, 3) or img.dtype != np.uint8:
            from vision.detect import DetectorError

            raise DetectorError(
                f"image is {img.shape[1] if img.ndim > 1 else '?'}x{img.shape[0]} "
                f"({img.dtype}), the camera's is {w}x{h} uint8 BGR "
                "(a camera file from another resolution?)"
            )
        slot = self._free_slot()
        self._frames[slot] = img
        self._send(("detect", slot, int(frame), float(t)))
        self._pending.append(slot)
        self._expect.append("detect")

    def take(self) -> Detections:
        """The oldest frame's detections (waits for them)."""
        if not self._pending:
            raise WorkerError("no frame in flight")
        try:
            self._settle()
        finally:  # the frame's own reply is read even when a rebuild before it failed
            self._expect.popleft()
            kind, payload = self._recv()
            self._pending.popleft()
        if kind == "error":
            raise payload
        assert isinstance(payload, Detections)
        return payload

    def rebuild(self, camera: Camera, learn: Sequence[U8] | None) -> None:
        """A new detector (``camera``, learning ``learn``) for the frames sent from now on;
        the frames in flight are the old one's (as a detector rebuilt here between them)."""
        self._send_with_frames(("rebuild", camera), learn)
        self._expect.append("control")
        self.size_wh = tuple(int(v) for v in camera.image_size)  # type: ignore[assignment]

    # ------------------------------------------------------------------ plumbing
    def _free_slot(self) -> int:
        busy = set(self._pending)
        while self._next_slot in busy:
            self._next_slot = (self._next_slot + 1) % self._shape[0]
        slot = self._next_slot
        self._next_slot = (slot + 1) % self._shape[0]
        return slot

    def _send(self, msg: tuple[Any, ...]) -> None:
        try:
            self._conn.send(msg)
        except (BrokenPipeError, OSError):
            raise WorkerError(self._died()) from None

    def _recv(self) -> tuple[str, Any]:
        try:
            kind, payload = self._conn.recv()
        except (EOFError, OSError):
            raise WorkerError(self._died()) from None
        if kind == "crash":
            last = str(payload).strip().splitlines()[-1] if payload else "?"
            raise WorkerError(f"the detector's process failed: {last}")
        return kind, payload

    def _died(self) -> str:
        code = None
        if self._proc is not None:
            try:
                code = self._proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        return f"the detector's process ended (exit code {code})"

    def close(self) -> None:
        """Stop the child and free the shared frames (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._proc is not None and self._proc.poll() is None:
                try:
                    self._conn.send(("close",))
                except OSError:
                    pass
                try:
                    self._proc.wait(timeout=5.0)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait(timeout=5.0)
        finally:
            self._conn.close()
            del self._frames
            self._buf.close()
            if self._affinity is not None:  # the caller's thread gets its processors back
                try:
                    os.sched_setaffinity(self._affinity[0], self._affinity[1])
                except OSError:  # that thread has ended
                    pass

    def __enter__(self) -> DetectorWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # a worker dropped unclosed must not leave its child running
        try:
            self.close()
        except Exception:
            pass
