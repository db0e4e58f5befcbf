"""Layer 2, host only: :func:`.weights.filter_taps`' taps packed into their narrowest band.

:func:`band_taps` gives the reference window's matrix (:func:`.weights.window_weights`) as the
narrowest band ``index[o] = start[o] + arange(k)`` holding every non-zero weight (clamped taps
summed in column order), float64, in ``O(out * taps)``: long axes a block of ``HOST.chunk_rows``
rows at a time (:func:`_stack_bands`); rows at the same exact distance from their window weighed
once (:func:`row_classes`, :func:`_compact_classes`); an ``"exclude"`` window wider than
``HOST.wide_window`` taps evaluated onto its band (:func:`_excluded_band`: equal up to rounding).
``tests/test_band_taps.py`` holds each path to the reference.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np

from . import coordinates as _coordinates
from . import kernels as _kernels
from . import records as _records
from . import validation as _v
from .host import HOST


def band_taps(
    x, in_size: int, kernel: _kernels.Kernel, *, stretch, support: float, boundary: str, weigh: Callable
) -> _records.Taps:
    """:func:`.weights.filter_taps` on the host, every position of ``x`` (``[out]`` float64 or a
    Rational) valid: ``weigh(x, half) -> (taps, w)`` is the reference's window ``ceil(x) +
    arange(-half, half)``; ``support``: the kernel's at ``stretch``. Returns :class:`~.records.Taps`
    (int32, float64) or a :class:`~.records.SharedBand`; raises ``ValueError`` past the output limit.
    """
    # the reference's floor(support) + 1 taps each side, and a zero tap of slack for a fractional
    # support (the sums of these windows are the recorded bits)
    half = int(math.ceil(support)) + 1 if math.isfinite(support) else 0
    # under "exclude" a window much wider than the input (a tiny scale) is the input itself,
    # [out, in_size] not [out, 2 * half]; narrow ones keep their outside taps (a row weighted
    # only there falls back to the edge)
    whole = boundary == "exclude" and (not half or 2 * half > in_size + 4)
    rows = len(x.num) if isinstance(x, _coordinates.Rational) else len(x)
    _v.check_plan_size(rows, in_size if whole else (2 * half if half else math.inf), kernel.name, stretch)
    if rows > HOST.chunk_rows:  # a long output axis: its temporaries (~0.5 KB per row) a block at a time
        blocks = [
            band_taps(
                _rows(x, slice(a, a + HOST.chunk_rows)),
                in_size,
                kernel,
                stretch=stretch,
                support=support,
                boundary=boundary,
                weigh=weigh,
            )
            for a in range(0, rows, HOST.chunk_rows)
        ]
        return _stack_bands(blocks, in_size)
    if boundary == "exclude" and (whole or 2 * half > HOST.wide_window):
        return _excluded_band(x, in_size, kernel, stretch, None if whole else half)
    rational = isinstance(x, _coordinates.Rational)
    if not rational:
        # beyond the window's reach every row is the same; clipped, distances keep their fractions
        x = np.clip(np.asarray(x), -half - 1.0, in_size + half)
    ceil = -((-x.num) // x.den) if rational else np.ceil(x)  # exact for a Rational
    first, n = ceil - half, 2 * half  # the window's first tap, its taps
    # rows at the same distance from their window, whose windows leave the input by the same
    # number of taps, have the same weights: computed once per class (a few phases)
    distance = [ceil * x.den - x.num] if rational else list(exact_difference(ceil, x))
    classes = row_classes(distance + [np.clip(-first, 0, n), np.clip(first + n - in_size, 0, n)])
    if classes is None:
        return compact_window(first, np.asarray(weigh(x, half)[1], np.float64), in_size)
    rep, inverse = classes
    return _compact_classes(first, np.asarray(weigh(_rows(x, rep), half)[1], np.float64), rep, inverse, in_size)


def _rows(x, rows):
    """The coordinates of the rows ``rows`` (a slice or indices) of ``x`` (an array or a Rational)."""
    if isinstance(x, _coordinates.Rational):
        return dataclasses.replace(x, num=x.num[rows])
    return x[rows]


def compact(cols: np.ndarray, w: np.ndarray, in_size: int) -> _records.Taps:
    """Folds repeated (clamped) taps and trims each row to the narrowest common band width.

    ``O(out * k)`` time and memory: each tap is added into its band slot; repeated taps of a row
    are summed in column order (a sequential sum, the same bits as a per-column loop)."""
    nz = w != 0
    lo = np.where(nz, cols, in_size).min(axis=1, initial=in_size)
    hi = np.where(nz, cols, -1).max(axis=1, initial=-1)
    empty_row = hi < lo
    width = int(max(1, (hi - lo + 1)[~empty_row].max(initial=1)))
    start = np.clip(np.where(empty_row, 0, lo), 0, max(in_size - width, 0))
    out = cols.shape[0]
    index = start[:, None] + np.arange(width)[None, :]  # [out, width]
    slot = cols.astype(np.int64) - start[:, None]  # band position of each non-zero tap, in [0, width)
    flat = (np.arange(out, dtype=np.int64)[:, None] * width + slot)[nz]  # row-major: column order kept
    band = np.bincount(flat, weights=w[nz], minlength=out * width).reshape(out, width)
    return _records.Taps(np.minimum(index, in_size - 1).astype(np.int32), band, in_size)


def compact_window(first: np.ndarray, w: np.ndarray, in_size: int) -> _records.Taps:
    """:func:`compact` of a window of consecutive taps ``first[o] + arange(n)`` (before they are
    clamped to ``[0, in_size)``), in a few passes over ``[out, n]`` (the bulk of the host planning
    of a large shrink): each row's band is sliced out of ``w``, then the taps clamped to the first
    and the last input are summed into them in column order (:func:`compact`'s sums, bit for bit)."""
    out, n = w.shape
    # a window wholly outside the input folds the same from just outside it (no int64 overflow
    # for coordinates like 1e30)
    first = np.clip(np.asarray(first, np.float64), -n, in_size).astype(np.int64)
    if in_size <= 1 or out == 0 or n == 0:
        return compact(np.clip(first[:, None] + np.arange(n), 0, max(in_size - 1, 0)).astype(np.int32), w, in_size)
    nz = w != 0
    empty = ~nz.any(axis=1)
    lo = np.clip(first + np.argmax(nz, axis=1), 0, in_size - 1)  # clamping keeps the taps ordered
    hi = np.clip(first + (n - 1 - np.argmax(nz[:, ::-1], axis=1)), 0, in_size - 1)
    width = int(max(1, (hi - lo + 1)[~empty].max(initial=1)))
    start = np.clip(np.where(empty, 0, lo), 0, max(in_size - width, 0))
    j = (start - first)[:, None] + np.arange(width)[None, :]  # window column of each band slot
    band = np.where((j >= 0) & (j < n), np.take_along_axis(w, np.clip(j, 0, n - 1), axis=1), 0.0)
    left = np.flatnonzero((first < 0) & (start == 0))  # columns 0 .. -first read input 0 (slot 0)
    if left.size:
        band[left, 0] = np.add.accumulate(w[left], axis=1)[np.arange(left.size), np.minimum(-first[left], n - 1)]
    right = np.flatnonzero((first + n - 1 > in_size - 1) & (start + width - 1 >= in_size - 1))
    if right.size:  # columns in_size - 1 - first .. n - 1 read the last input
        c = np.maximum(in_size - 1 - first[right], 0)
        tail = np.where(np.arange(n)[None, :] >= c[:, None], w[right], 0.0)
        band[right, in_size - 1 - start[right]] = np.add.accumulate(tail, axis=1)[:, -1]
    band = band + 0.0  # no negative zeros (as a sum from 0.0)
    index = np.minimum(start[:, None] + np.arange(width)[None, :], in_size - 1)
    return _records.Taps(index.astype(np.int32), band, in_size)


def _compact_classes(first, w: np.ndarray, rep: np.ndarray, inverse: np.ndarray, in_size: int) -> _records.Taps:
    """:func:`compact_window` of ``(first, w[inverse])`` without expanding ``w`` (``[classes, n]``,
    class ``c``'s window weights, ``rep[c]`` a row of it) over every row: a class whose windows
    lie inside the input gives each row its band sliced from the class's window at the row's own
    start; a class whose windows leave the input (all its rows at one position) or have no weight
    gives every row its representative's compacted row. The same bands, bit for bit."""
    n = w.shape[1]
    f = np.clip(np.asarray(first, np.float64), -n, in_size).astype(np.int64)
    packed = compact_window(f[rep], w, in_size)  # the representatives: the band width of every row
    width = packed.index.shape[1]
    nz = w != 0
    shared = nz.any(axis=1) & (f[rep] >= 0) & (f[rep] + n <= in_size)  # per class
    lead = np.argmax(nz, axis=1)
    row_shared = shared[inverse]
    start = np.where(row_shared, np.clip(f + lead[inverse], 0, max(in_size - width, 0)), 0)
    start = np.where(row_shared, start, packed.index[inverse, 0].astype(np.int64))
    offset = np.where(row_shared, start - f, -1)  # window column of the band's first slot
    _, pair_first, pair_of = np.unique(inverse * (n + 1) + offset + 1, return_index=True, return_inverse=True)
    cls, off = inverse[pair_first], offset[pair_first]
    band = np.empty((pair_first.size, width))
    sliced = off >= 0
    if sliced.any():
        band[sliced] = _shifted_rows(w, cls[sliced], off[sliced], width) + 0.0  # no negative zeros
    band[~sliced] = packed.weight[cls[~sliced]]
    return _records.shared_band(start, pair_of.reshape(-1), band, in_size)


def exact_difference(a: np.ndarray, b: np.ndarray):
    """``(s, e)`` with ``s + e == a - b`` exactly (Knuth's TwoSum): equal pairs mean equal
    differences, so rows keyed by them see bit-identical rounded distances ``a + j - b``."""
    s = a - b
    v = s - a
    e = (a - (s - v)) + (-b - v)
    return s, e


def row_classes(keys, min_rows: int | None = None, wide: bool = False):
    """Rows with equal ``keys`` (1-D arrays, the first the primary): ``(first, inverse)``, a
    representative row per class and each row's class, or ``None`` when there are fewer than
    ``min_rows`` rows or more classes than half the rows (``wide``: as many classes as rows),
    too little to share."""
    if min_rows is None:
        min_rows = HOST.class_min_rows
    n = len(keys[0])
    if n < min_rows:
        return None
    order = np.lexsort(keys[::-1])
    change = np.zeros(n, bool)
    change[0] = True
    for k in keys:
        ks = k[order]
        change[1:] |= ks[1:] != ks[:-1]
    first = order[change]
    if (first.size >= n) if wide else (2 * first.size > n):
        return None
    inverse = np.empty(n, np.intp)
    inverse[order] = np.cumsum(change) - 1
    return first, inverse


def _distances(x, rows: slice, cols: np.ndarray) -> np.ndarray:
    """``tap - x`` for integer taps ``cols: [r, c]`` of the rows ``rows`` (exact for a Rational)."""
    if isinstance(x, _coordinates.Rational):
        return (cols * x.den - x.num[rows, None]).astype(x.dtype) / x.den
    return cols - x[rows, None]


def _excluded_band(x, in_size: int, kernel: _kernels.Kernel, stretch, half: int | None) -> _records.Taps:
    """:func:`filter_taps` with the ``"exclude"`` boundary for wide windows (host, float64): the
    window ``[ceil(x) - half, ceil(x) + half)`` (the whole input when ``half`` is None) clipped to
    the input is evaluated straight onto the band that holds every row's part, a tile at a time,
    then each row divided by its sum. The kernel is zero beyond its support (its contract), so the
    band's columns outside a row's window add nothing. A row with no weight in the input (far
    outside it) reads the nearest edge pixel, as under ``"clamp"``.

    ``O(out * width)`` time in a few passes over the band, ``width`` the widest clipped window;
    the same weights as the window route up to float64 rounding (one normalisation, not two)."""
    rational = isinstance(x, _coordinates.Rational)
    num = x.num if rational else np.asarray(x, np.float64)
    if half is None:
        lo, hi = np.zeros(num.shape, np.int64), np.full(num.shape, in_size, np.int64)
    else:
        if not rational:  # beyond the window's reach every row is the same (as the window route)
            x = num = np.clip(num, -half - 1.0, in_size + half)
        ceil = -((-x.num) // x.den) if rational else np.ceil(num)
        lo = np.clip(ceil - half, 0, in_size).astype(np.int64)
        hi = np.clip(ceil + half, 0, in_size).astype(np.int64)
    width = int(max(1, (hi - lo).max(initial=1)))
    start = np.minimum(lo, in_size - width)
    dtype = np.dtype(x.dtype) if rational else np.dtype(np.float64)  # a Rational's distances' type
    # rows whose start is at the same distance from x have the same band: built once per class
    distance = [start * x.den - x.num] if rational else list(exact_difference(start.astype(np.float64), num))
    classes = row_classes(distance, min_rows=2, wide=True)  # a wide row costs more than sorting keys
    rep = np.arange(num.shape[0]) if classes is None else classes[0]
    band = np.empty((rep.size, width), dtype)  # band[o, j]: weight of input start[o] + j
    total = np.zeros(rep.size, dtype)
    for rows, c0, c1 in _records.tiles(rep.size, width):
        w = kernel(np, _distances(x, rep[rows], start[rep[rows], None] + np.arange(c0, c1)), stretch)
        band[rows, c0:c1] = w
        total[rows] += w.sum(axis=1)
    band /= np.where(total == 0, 1.0, total)[:, None]
    band += 0.0  # no negative zeros (in place, before the rows are expanded: large bands' passes)
    # each row from its first weight, the band as wide as the widest non-zero span (the window's
    # slack trimmed), rows placed as compact_window places them; then expanded to every row
    cls = np.arange(rep.size) if classes is None else classes[1]  # each row's class
    nz = band != 0
    has = nz.any(axis=1)
    first = np.where(has, np.argmax(nz, axis=1), 0)
    span = np.where(has, width - np.argmax(nz[:, ::-1], axis=1) - first, 1)
    total = total[cls]
    lost = total == 0  # no weight inside the input: the nearest edge pixel
    edge = np.where(num < 0, 0, in_size - 1)
    trimmed = int(max(1, span[has].max(initial=1)))
    placed = np.minimum(np.where(lost, edge, start + first[cls]), in_size - trimmed)
    shift = np.clip(placed - start, 0, width)
    # one pattern per (class, shift), and per edge slot of the rows that read an edge pixel
    key = np.where(lost, -1 - (edge - placed), cls * (width + 1) + shift)
    _, pair_first, pair_of = np.unique(key, return_index=True, return_inverse=True)
    table = _shifted_rows(band, cls[pair_first], shift[pair_first], trimmed, scratch=True)
    one_hot = lost[pair_first]
    if one_hot.any():
        table[one_hot] = 0.0
        table[one_hot, (edge - placed)[pair_first[one_hot]]] = 1.0
    return _records.shared_band(placed, pair_of.reshape(-1), table, in_size)


def _shifted_rows(
    band: np.ndarray, rows: np.ndarray, shift: np.ndarray, width: int, scratch: bool = False
) -> np.ndarray:
    """``out[p, j] = band[rows[p], shift[p] + j]`` for ``j < width`` (0 past the band's end).
    ``scratch``: ``band`` may be overwritten; when ``rows`` is every row in order, the rows are
    shifted in place and a view of ``band`` returned (no fresh array: 10**6-wide rows)."""
    if rows.size > 256:  # many distinct rows: one gather
        j = shift[:, None] + np.arange(width)[None, :]
        source = np.take_along_axis(band[rows], np.minimum(j, band.shape[1] - 1), axis=1)
        return np.where(j < band.shape[1], source, 0.0)
    in_place = scratch and np.array_equal(rows, np.arange(band.shape[0]))
    out = band if in_place else np.zeros((rows.size, width), band.dtype)
    for p, (r, s) in enumerate(zip(rows.tolist(), shift.tolist())):  # a few rows: slices
        m = max(0, min(width, band.shape[1] - s))
        if not in_place or s:
            out[p, :m] = band[r, s : s + m]
        if in_place:
            out[p, m:width] = 0.0
    return out[:, :width] if in_place else out


def _stack_bands(blocks: list[_records.Taps], in_size: int) -> _records.Taps:
    """One band record from bands of consecutive row blocks: each widened to the widest, its
    start moved left where the wider band would pass the input's end (as :func:`compact_window`
    places a band of that width, so the result equals the band built in one piece)."""
    width = max(b.index.shape[1] for b in blocks)
    index, weight = [], []
    for b in blocks:
        if b.index.shape[1] == width:  # already the widest: placed as compact_window places it
            index.append(b.index)
            weight.append(b.weight)
            continue
        start = b.index[:, 0].astype(np.int64)
        moved = np.minimum(start, max(in_size - width, 0))
        band = np.zeros((start.size, width))
        cols = (start - moved)[:, None] + np.arange(b.index.shape[1])[None, :]
        np.put_along_axis(band, cols, b.weight, axis=1)
        index.append(np.minimum(moved[:, None] + np.arange(width)[None, :], in_size - 1).astype(np.int32))
        weight.append(band)
    return _records.Taps(np.concatenate(index), np.concatenate(weight), in_size)
