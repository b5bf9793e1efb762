"""A progress bar on standard error (quiet when it is not a terminal, unless forced)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """``Progress(total, "rendering")``; call ``update(n)``; ``close()`` ends the line.

    On a terminal it redraws one line; elsewhere (CI, pipes) it prints a line every 10%.
    """

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self._last_decile = -1
        self.n = 0

    def update(self, n: int) -> None:
        self.n = n
        frac = min(n / self.total, 1.0)
        rate = n / max(time.perf_counter() - self.t0, 1e-9)
        if self.tty:
            bar = "#" * int(frac * 30)
            self.stream.write(f"\r{self.label} [{bar:<30}] {n}/{self.total} {rate:5.1f}/s")
            self.stream.flush()
        elif int(frac * 10) > self._last_decile:
            self._last_decile = int(frac * 10)
            self.stream.write(f"{self.label}: {n}/{self.total} ({frac:.0%}, {rate:.1f}/s)\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
