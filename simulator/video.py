"""H.264 video in and out: browser-playable mp4 (PyAV, libx264, yuv420p) and a frame reader.

Examples
--------
>>> import numpy as np, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "v.mp4"
>>> with VideoWriter(path, fps=30, size=(64, 48)) as w:
...     for k in range(5):
...         w.write(np.full((48, 64, 3), 40 * k, np.uint8))
>>> frames = list(read_video(path))
>>> len(frames), frames[0].shape
(5, (48, 64, 3))
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import Any

import av
import numpy as np
from numpy.typing import NDArray

__all__ = ["VideoWriter", "read_video", "video_info"]


class VideoWriter:
    """Writes BGR uint8 frames (h, w, 3) to an H.264 mp4 that browsers play.

    ``preset`` trades speed for size (``ultrafast`` ... ``veryfast`` ...); ``crf`` ~20 is
    visually lossless for these scenes. Width and height must be even (yuv420p).
    ``quick``: for a picture to watch, not to measure (the annotated video): colours to
    yuv420p by OpenCV (a 2x2 chroma average; a tenth of swscale's time) and one encoder
    thread (a video written beside other work; x264's threads cost more CPU than they save).
    """

    def __init__(
        self,
        path: str | Path,
        fps: float,
        size: tuple[int, int],
        crf: int = 20,
        preset: str = "veryfast",
        *,
        quick: bool = False,
    ) -> None:
        w, h = size
        if w % 2 or h % 2:
            raise ValueError(f"VideoWriter: size must be even for yuv420p, got {w}x{h}")
        self.path = Path(path)
        self.size = (w, h)
        # The index up front (faststart): a browser streams it, and a file cut short still
        # opens and plays up to the cut.
        self._container: Any = av.open(str(self.path), mode="w", options={"movflags": "+faststart"})
        rate = Fraction(fps).limit_denominator(1001)
        stream: Any = self._container.add_stream("libx264", rate=rate)
        stream.width, stream.height = w, h
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": str(crf), "preset": preset}
        if quick:
            stream.codec_context.thread_count = 1
        self._stream = stream
        self._quick = quick
        self.frames = 0

    def write(self, bgr: NDArray[np.uint8]) -> None:
        if bgr.shape != (self.size[1], self.size[0], 3):
            raise ValueError(
                f"VideoWriter: expected a frame {self.size[1]}x{self.size[0]}x3, got {bgr.shape}"
            )
        if self._quick:
            import cv2

            i420 = np.asarray(
                cv2.cvtColor(np.ascontiguousarray(bgr), cv2.COLOR_BGR2YUV_I420), np.uint8
            )
            frame = av.VideoFrame.from_ndarray(i420, format="yuv420p")
        else:
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(bgr), format="bgr24")
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        self.frames += 1

    def close(self) -> None:
        if self._container is None:
            return
        for packet in self._stream.encode():
            self._container.mux(packet)
        self._container.close()
        self._container = None

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def read_video(path: str | Path) -> Iterator[NDArray[np.uint8]]:
    """Decode a video's frames as BGR uint8 arrays, in order."""
    with av.open(str(path)) as container:
        for frame in container.decode(video=0):
            yield np.asarray(frame.to_ndarray(format="bgr24"), np.uint8)


def video_info(path: str | Path) -> dict[str, Any]:
    """``{"width", "height", "fps", "frames", "codec"}`` of a video file's first stream."""
    with av.open(str(path)) as container:
        s = container.streams.video[0]
        return {
            "width": s.codec_context.width,
            "height": s.codec_context.height,
            "fps": float(s.average_rate) if s.average_rate else None,
            "frames": s.frames,
            "codec": s.codec_context.name,
        }
