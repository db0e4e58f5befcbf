"""The host-side limits: sizes of the weights, plans and caches built on the host, the same on
every backend. Below the execution layer (it imports nothing of the package), so that the weights
layer (``weights.py``, ``records.py``) and the execution layer read one table. Each field says
what it bounds; the measurements that set it are in ``benchmarks/RESULTS.md`` or its dated log
(``benchmarks/results/``, indexed there) under the section named in its comment. The
device-dependent thresholds are the rows of ``execution/tuning.py``.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Host:
    """Host-side limits, the same on every backend."""

    #: Largest dense weight matrix built (entries; 128 MiB of float64).
    max_dense_elements: int = 1 << 24
    #: From this many taps (``out * k``) a band's transposed taps are built only when a gradient
    #: asks (extreme shrinks plan faster). RESULTS.md "Extreme shrinks".
    lazy_transpose_taps: int = 1 << 20
    #: Inside a caller's trace, plan arrays of at least this many bytes are embedded behind an
    #: optimization barrier (opaque to XLA, as the eager program's arguments). RESULTS.md "Host
    #: callbacks against embedded constants".
    fetch_min_bytes: int = 1 << 20
    #: Plans kept for constant records (least recently used dropped first).
    plan_cache_size: int = 128
    #: Records kept by each memoised record builder (least recently used dropped first).
    record_cache_size: int = 256
    #: Host filter taps are built this many output rows at a time (bounds the temporaries).
    chunk_rows: int = 1 << 16
    #: Host windows wider than this many taps are evaluated straight onto their band and kept as a
    #: shared band (applied in a loop, never expanded).
    wide_window: int = 64
    #: Wide windows are evaluated a tile of this many weights at a time (cache-sized temporaries:
    #: a 10**7-weight band costs a few passes over memory, not dozens).
    tile_elements: int = 1 << 14
    #: Call signatures counted for ``exact_after``; taps widths kept per bucket.
    bucket_memory: int = 4096
    #: Bucketed programs kept on disk by ``stored.py`` (least recently used removed first).
    stored_programs: int = 512
    #: Axes with at least this many outputs evaluate their kernel once per class of rows that see
    #: the same distances (a rational ratio repeats a few phases: 2**20 -> 2**22 has 4).
    class_min_rows: int = 16


HOST = Host()
