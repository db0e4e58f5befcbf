"""Host-transposed taps: the banded form of ``W.T`` for a constant band, built now or lazily.

Contract: :func:`transpose_taps` returns ``[in, k_t]`` taps whose banded contraction is ``W.T @ g``;
bands (``index[o] = start[o] + arange(k)``, starts non-decreasing) take ``O(in * k_t)`` with binary
searches, other taps are sorted. :class:`LazyTranspose` defers that work to the first gradient.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import records as _records
from ..host import HOST


def transpose_taps(index: np.ndarray, weight: np.ndarray, in_size: int):
    """Taps of ``W.T``: ``[in_size, k_t]`` index/weight arrays such that the banded contraction
    with them computes ``W.T @ g`` for ``W`` given by ``(index, weight)`` (``[out, k]``).

    Bands (``index[o] = start[o] + arange(k)`` inside the input, ``start`` non-decreasing: every
    compacted filter) are transposed in ``O(in * k_t)`` with two binary searches; other taps are
    sorted."""
    band = _transpose_band(index, weight, in_size)
    if band is not None:
        return band
    out, k = index.shape
    rows = index.reshape(-1)
    cols = np.repeat(np.arange(out), k)
    vals = weight.reshape(-1)
    keep = vals != 0
    rows, cols, vals = rows[keep], cols[keep], vals[keep]
    order = np.argsort(rows, kind="stable")
    rows, cols, vals = rows[order], cols[order], vals[order]
    counts = np.bincount(rows, minlength=in_size)
    k_t = int(max(1, counts.max(initial=0)))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pos = np.arange(rows.size) - starts[rows]
    t_index = np.zeros((in_size, k_t), np.int32)
    t_weight = np.zeros((in_size, k_t), weight.dtype)
    t_index[rows, pos] = cols
    t_weight[rows, pos] = vals
    return t_index, t_weight


def _band_starts(index: np.ndarray, in_size: int):
    """``start`` (int64 ``[out]``, non-decreasing) when ``index[o] = start[o] + arange(k)`` lies
    inside the input, else ``None``."""
    out, k = index.shape
    if out == 0 or in_size == 0:
        return None
    start = index[:, 0].astype(np.int64)
    if (np.diff(start) < 0).any() or start[-1] + k > in_size or start[0] < 0:
        return None
    # checked a tile at a time: a 10**7-tap band would need a few full-size temporaries
    for rows, c0, c1 in _records.tiles(out, k):
        if not np.array_equal(index[rows, c0:c1], start[rows, None] + np.arange(c0, c1)[None, :]):
            return None
    return start


def _transpose_band(index: np.ndarray, weight: np.ndarray, in_size: int):
    """:func:`transpose_taps` of a band, or ``None`` when ``index`` is not one. Input ``i`` is read
    by the outputs ``o`` with ``start[o] <= i <= start[o] + k - 1``: a contiguous range, found by
    binary search in the non-decreasing starts and ends."""
    start = _band_starts(index, in_size)
    if start is None:
        return None
    out, k = index.shape
    i = np.arange(in_size)
    first = np.searchsorted(start + (k - 1), i, side="left")  # first output whose band reaches i
    stop = np.searchsorted(start, i, side="right")  # first output whose band starts after i
    count = np.maximum(stop - first, 0)
    k_t = int(max(1, count.max(initial=0)))
    slot = np.arange(k_t)[None, :]
    valid = slot < count[:, None]  # [in, k_t]
    o = np.minimum(first[:, None] + slot, out - 1)
    j = np.clip(i[:, None] - start[o], 0, k - 1)
    t_weight = np.where(valid, weight[o, j], 0).astype(weight.dtype)
    t_index = np.where(valid, o, 0).astype(np.int32)
    return t_index, t_weight


def band_width_transposed(index: np.ndarray, in_size: int) -> int | None:
    """``k_t`` of :func:`transpose_taps` for a band (the most outputs that read one input), in
    ``O(out log out)`` without building the transposed taps; ``None`` when ``index`` is not a band."""
    start = _band_starts(index, in_size)
    if start is None:
        return None
    return starts_width_transposed(start, index.shape[1], in_size)


def starts_width_transposed(start: np.ndarray, k: int, in_size: int) -> int | None:
    """:func:`band_width_transposed` of the band ``start[o] + arange(k)``; ``None`` when the starts
    decrease somewhere or the band leaves ``[0, in_size)``."""
    start = np.asarray(start, np.int64)
    if start.size == 0 or (np.diff(start) < 0).any() or start[0] < 0 or start[-1] + k > in_size:
        return None
    # the most windows over one point is reached at some window's first input
    count = np.searchsorted(start, start, side="right") - np.searchsorted(start + (k - 1), start, side="left")
    return int(max(1, count.max(initial=0)))


class LazyTranspose:
    """The transposed taps of a band, built on the host the first time they are asked for (a
    gradient), not when the plan is made. ``taps()`` gives the band's ``(index, weight)`` (weights
    of ``dtype``). Hashes by identity (a static field of a plan)."""

    def __init__(self, taps, dtype, in_size: int, k_t: int):
        self.taps, self.dtype, self.in_size, self.k_t = taps, np.dtype(dtype), in_size, k_t
        self._taps = None

    def __call__(self):
        if self._taps is None:
            taps = _transpose_band(*self.taps(), self.in_size)
            assert taps is not None and taps[0].shape == (self.in_size, self.k_t)
            self._taps = taps
        return self._taps


class HostOperands:
    """The transposed operands of a map, as the primitive's static ``later``: built on the host
    when a gradient is traced (a :class:`LazyTranspose` then builds its taps) and embedded in that
    program; the lazy ones, and any of ``HOST.fetch_min_bytes`` or more, behind an optimization
    barrier (XLA does not fold or specialize on them). ``sources``: per pass a
    :class:`LazyTranspose` or an ``(index, weight)`` pair. Hashes by identity."""

    def __init__(self, sources):
        self.sources = tuple(sources)

    def __len__(self) -> int:  # two arrays per pass
        return 2 * len(self.sources)

    def __call__(self):
        out = []
        for source in self.sources:
            lazy = isinstance(source, LazyTranspose)
            for a in source() if lazy else source:
                opaque = lazy or np.asarray(a).nbytes >= HOST.fetch_min_bytes
                out.append(lax.optimization_barrier(jnp.asarray(a)) if opaque else a)
        return out
