"""An opt-in for the process's allocator (glibc): keep freed memory for the next resize. XLA:CPU
allocates every output afresh, and glibc maps large blocks with fresh pages and unmaps them on
``free``, so each call pays first-touch page faults; ``mallopt`` can keep them in the process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

# mallopt parameters (glibc <malloc.h>)
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_MAX = -1, -2, -4


def keep_freed_memory(*, top_pad_bytes: int = 64 << 20) -> bool:
    """Makes glibc's ``malloc`` keep freed memory in this process, so repeated resizes reuse pages.

    Sets ``M_MMAP_MAX = 0`` (large blocks from the heap), ``M_TRIM_THRESHOLD`` = 1 GiB (freed memory
    kept) and ``M_TOP_PAD`` (``mallopt(3)``) for every library in the process, for its whole life:
    its memory stays at its peak. The ``jax-resize`` command calls it for its own process.

    Args:
      top_pad_bytes: ``M_TOP_PAD``, the heap's growth step: an int in ``[0, 2**31 - 1]``.

    Returns:
      ``True`` when glibc accepted the settings; ``False`` without glibc (macOS, Windows, musl).

    Raises:
      TypeError, ValueError: ``top_pad_bytes`` not an int, or out of range.

    Example:
      >>> import jax_resize
      >>> jax_resize.keep_freed_memory()  # doctest: +SKIP
      True
      >>> jax_resize.keep_freed_memory(top_pad_bytes=-1)
      Traceback (most recent call last):
      ValueError: top_pad_bytes must be in [0, 2**31 - 1]; got -1.
    """
    if isinstance(top_pad_bytes, bool) or not isinstance(top_pad_bytes, int):
        raise TypeError(f"top_pad_bytes must be an int; got {type(top_pad_bytes).__name__}.")
    if not 0 <= top_pad_bytes < 2**31:
        raise ValueError(f"top_pad_bytes must be in [0, 2**31 - 1]; got {top_pad_bytes}.")
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return False
    if not hasattr(libc, "gnu_get_libc_version"):  # glibc only: musl's mallopt ignores these
        return False
    settings = ((_M_MMAP_MAX, 0), (_M_TRIM_THRESHOLD, 1 << 30), (_M_TOP_PAD, top_pad_bytes))
    return all(libc.mallopt(param, value) == 1 for param, value in settings)
