"""Memory of this process and of the processes it started (the detector's process).

Linux's /proc: ``VmRSS`` now, ``VmHWM`` the peak. (Not ``getrusage``'s ``RUSAGE_CHILDREN``: a
child's ``ru_maxrss`` starts at its parent's peak, which survives ``exec``, and would count the
parent twice.) A child's peak is read while it runs (:class:`ChildPeaks` samples it), so a
child that ends between two samples loses only its last moments.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

__all__ = ["ChildPeaks", "children", "status_mb"]


def status_mb(field: str = "VmRSS", pid: int | str = "self") -> float:
    """``field`` of /proc/PID/status in MB (0 when unreadable: no /proc, or the process ended)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return float(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def children(pid: int | None = None) -> list[int]:
    """The live children of ``pid`` (this process by default)."""
    me = str(os.getpid() if pid is None else pid)
    out: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2 :].split()[1] == me:
            out.append(int(name))
    return out


class ChildPeaks:
    """Samples this process's children every ``every_s`` seconds on a thread of its own: the
    peak (``VmHWM``) of each, and their resident memory now (:meth:`rss_mb`)."""

    def __init__(self, every_s: float = 0.25) -> None:
        self.peaks: dict[int, float] = {}
        self._stop = threading.Event()
        self._every = every_s
        self._thread = threading.Thread(target=self._run, name="botao-memwatch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.sample()

    def sample(self) -> None:
        for pid in children():
            hwm = status_mb("VmHWM", pid)
            if hwm > self.peaks.get(pid, 0.0):
                self.peaks[pid] = hwm

    def rss_mb(self) -> float:
        """The children's resident memory now (MB)."""
        return sum(status_mb("VmRSS", pid) for pid in children())

    def peak_mb(self) -> float:
        """The largest peak of any child so far (MB; they run one at a time)."""
        return max(self.peaks.values(), default=0.0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
