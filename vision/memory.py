"""Giving the heap's freed memory back to the operating system after a one-off peak.

glibc serves an allocation larger than its mmap threshold with its own mapping and returns it on
free; but each such free raises the threshold (up to 32 MB), so the next frame-sized arrays come
from the heap, and what a one-off peak (the table learned from a stack of frames) freed stays
resident (~130 MB at 1080p). ``malloc_trim`` hands those free pages back; it is called once,
after the peak. Elsewhere than glibc (macOS, Windows, musl) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim: Callable[[int], int] = libc.malloc_trim
        return trim
    except (OSError, AttributeError, TypeError):
        return None


def release_free_memory() -> bool:
    """Return the heap's free pages to the operating system (glibc); False where it cannot.

    Examples
    --------
    >>> release_free_memory() in (True, False)
    True
    """
    trim = _trim()
    if trim is None:
        return False
    return bool(trim(0))
