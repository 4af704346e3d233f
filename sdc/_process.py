"""Process settings of the command line: large freed arrays kept for reuse.

glibc's malloc hands every block of 32 MB or more straight back to the system when it is
freed (``munmap``), so the next large array of a run is made of fresh pages that the kernel
must fault in and zero one by one. A run over millions of records allocates such temporary
arrays by the hundred (a chunk's columns, its packed patterns, their codes): measured on
``sdc risk --chunks 2000000`` over 10^7 records x 8 keys, 3.8-4.4 s of system time out of
11.4-11.7 s, and 0.8-0.9 s once freed memory is kept (the process's peak memory 3-7 % higher).
:func:`keep_freed_memory` asks malloc (``mallopt``) to serve large blocks from its heap and not
to give freed memory back before the process ends. The command line calls it; the library does
not change its host's allocator on its own, and a script or notebook working on millions of
records may call ``sdc.keep_freed_memory()`` first (``sdc.individual_risk`` under the wildcard
rule at 10^7 x 8 keys: 20.8-23.6 s wall, of which 4.6-6.4 s system, against 16.1-16.5 s).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = ["keep_freed_memory"]

# mallopt's parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_LARGEST = 2**31 - 1  # mallopt takes an int


def keep_freed_memory() -> bool:
    """Ask glibc's malloc to keep freed memory for reuse, for the rest of the process.

    Large temporary arrays are then served from memory already mapped rather than from fresh
    pages (see the module notes); the process's peak memory may grow by a few per cent, and
    freed memory is returned to the system only when the process ends.

    Returns
    -------
    bool
        Whether the setting took effect: False off Linux, without glibc, or when either of
        glibc's own variables (``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``) is set
        (the user's choice wins).

    Examples
    --------
    >>> import sdc
    >>> sdc.keep_freed_memory() in (True, False)
    True
    """
    if not sys.platform.startswith("linux") or any(
            v in os.environ for v in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # another C library (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, _LARGEST)) and bool(mallopt(_M_TRIM_THRESHOLD, _LARGEST))
