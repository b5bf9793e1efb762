"""Frame sources: a video file read to its end, damage counted instead of raised.

A replay must keep what it has seen when the file turns bad: :class:`VideoFileSource` decodes
packet by packet, skips a packet the decoder refuses (counted in :attr:`Damage.corrupt`), and
after the last frame compares the count with what the container announced (a file cut short:
:attr:`Damage.missing`). Opening a file that is no video at all is a :class:`SourceError`, the
one-line error of exit status 2.

Examples
--------
>>> import numpy as np, tempfile, pathlib
>>> from simulator.video import VideoWriter
>>> path = pathlib.Path(tempfile.mkdtemp()) / "v.mp4"
>>> with VideoWriter(path, fps=30, size=(64, 48)) as w:
...     for k in range(4):
...         w.write(np.full((48, 64, 3), 50 * k, np.uint8))
>>> src = VideoFileSource(path)
>>> [k for k, _ in src.frames()], src.damage.ok
([0, 1, 2, 3], True)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np
from numpy.typing import NDArray

__all__ = ["Damage", "SourceError", "VideoFileSource"]

U8 = NDArray[np.uint8]
#: Refused packets in a row after which the rest of the file is taken as unreadable.
MAX_BAD_RUN = 50


class SourceError(ValueError):
    """A video that cannot be opened at all; the message names the file."""


@dataclass
class Damage:
    """What went wrong while reading: refused packets, frames announced but never decoded."""

    corrupt: int = 0
    missing: int = 0
    stopped: str = ""  # why reading stopped before the end, if it did

    @property
    def ok(self) -> bool:
        return self.corrupt == 0 and self.missing == 0 and not self.stopped

    def describe(self, path: str | Path) -> str:
        parts = []
        if self.corrupt:
            parts.append(f"{self.corrupt} corrupt packet(s) skipped")
        if self.missing:
            parts.append(f"{self.missing} announced frame(s) never decoded (the file ends early)")
        if self.stopped:
            parts.append(self.stopped)
        return f"{path}: " + "; ".join(parts) if parts else f"{path}: read to its end"


class VideoFileSource:
    """Decoded BGR frames of a video file, tolerant of damage (see the module docstring).

    Attributes
    ----------
    size_wh : (width, height) of the frames.
    fps : frames per second (30 when the file does not say).
    announced : the frame count the container announces (0 when it does not).
    damage : filled while :meth:`frames` runs.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        try:
            with av.open(str(self.path)) as c:
                if not c.streams.video:
                    raise SourceError(f"{self.path}: no video stream in the file")
                s = c.streams.video[0]
                self.size_wh = (int(s.codec_context.width), int(s.codec_context.height))
                self.fps = float(s.average_rate) if s.average_rate else 30.0
                self.announced = int(s.frames or 0)
        except av.error.FFmpegError as exc:
            raise SourceError(f"{self.path}: cannot read the video ({exc})") from None
        if self.size_wh[0] <= 0 or self.size_wh[1] <= 0:
            raise SourceError(f"{self.path}: the video stream has no frame size")
        self.damage = Damage()

    def frames(
        self, every: int = 1, limit: int | None = None, start: int = 0
    ) -> Iterator[tuple[int, U8]]:
        """``(index, image)`` for every ``every``-th decoded frame, at most ``limit`` of them.

        The index counts decoded frames (a skipped corrupt packet is not a frame). ``start``
        seeks to the key frame before that index and decodes from there (indices then come
        from the frames' timestamps). Damage is recorded in :attr:`damage` (reset on each
        call), never raised.
        """
        self.damage = Damage()
        k = n = 0
        if start > 0:
            yield from self._from(start, every, limit)
            return
        bad_run = 0
        try:
            container = av.open(str(self.path))
        except av.error.FFmpegError as exc:
            self.damage.stopped = f"cannot reopen the video ({exc})"
            return
        with container:
            stream = container.streams.video[0]
            try:
                packets = container.demux(stream)
                for packet in packets:
                    try:
                        decoded = packet.decode()
                    except av.error.FFmpegError:
                        self.damage.corrupt += 1
                        bad_run += 1
                        if bad_run >= MAX_BAD_RUN:
                            self.damage.stopped = f"{bad_run} unreadable packets in a row"
                            return
                        continue
                    bad_run = 0
                    for frame in decoded:
                        if k % every == 0:
                            yield k, np.asarray(frame.to_ndarray(format="bgr24"), np.uint8)
                            n += 1
                            if limit is not None and n >= limit:
                                return
                        k += 1
            except av.error.FFmpegError as exc:
                self.damage.stopped = f"the container is unreadable after frame {k} ({exc})"
                return
        if limit is None and self.announced and k < self.announced:
            self.damage.missing = max(self.announced - k - self.damage.corrupt, 0)

    def _from(self, start: int, every: int, limit: int | None) -> Iterator[tuple[int, U8]]:
        n = 0
        try:
            with av.open(str(self.path)) as container:
                stream = container.streams.video[0]
                tb = float(stream.time_base) if stream.time_base else 1.0 / self.fps
                target = int((start / self.fps) / tb) + int(stream.start_time or 0)
                container.seek(target, stream=stream, backward=True, any_frame=False)
                for packet in container.demux(stream):
                    try:
                        decoded = packet.decode()
                    except av.error.FFmpegError:
                        self.damage.corrupt += 1
                        continue
                    for frame in decoded:
                        if frame.pts is None:
                            continue
                        t = (frame.pts - int(stream.start_time or 0)) * tb
                        k = round(t * self.fps)
                        if k < start or (k - start) % every:
                            continue
                        yield k, np.asarray(frame.to_ndarray(format="bgr24"), np.uint8)
                        n += 1
                        if limit is not None and n >= limit:
                            return
        except av.error.FFmpegError as exc:
            self.damage.stopped = f"cannot read on from frame {start} ({exc})"
