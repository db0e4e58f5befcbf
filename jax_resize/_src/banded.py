"""Banded contractions ``out[o] = sum_k w[o, k] * x[index[o, k]]``, and the linear-map primitive.

Contract:

* :func:`banded_traced` contracts ``x`` along one or more axes with their taps in a single pass:
  for taps ``(index_i, weight_i)`` on axes ``a_1..a_m`` it sums, over every tap combination,
  ``prod_i w_i * x[index_1, ..., index_m]`` — gathers fused into multiply-adds, so the
  intermediate arrays of a per-axis application are never written. Zero weights are skipped, so
  NaN/Inf inputs reach only the outputs that weight them; the skip (a ``where``) is emitted only
  for tap columns that hold a zero (:func:`zero_columns`, known on the host for constant taps)
  and never for integer input, which has no NaN. Plain jax ops: differentiable in the weights
  too (traced taps).
* :data:`linear_map_p` (``jax_resize_linear_map``) is a JAX primitive for a map that is linear in
  ``x`` with constant operands. It takes *any* forward implementation (a hashable
  :class:`Implementation`: the banded contraction, or a polyphase plan) and the implementation of
  its transpose; ``jvp`` applies the map to the tangent and ``transpose`` swaps the two, so
  gradients are the banded contraction with host-transposed taps (:func:`transpose_taps`) instead
  of scatter-adds, which XLA runs serially on CPU. ``vmap`` and ``jit`` work through it.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import core as _core
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from . import weights as _weights


def zero_columns(weight: np.ndarray) -> tuple[bool, ...]:
    """Per tap column ``k`` of constant weights ``[out, k]``: whether some row has a zero there;
    above ``MAX_UNROLLED_TAPS`` columns (applied in a loop) one flag for all of them."""
    zero = (np.asarray(weight) == 0).any(axis=0)
    if zero.size > MAX_UNROLLED_TAPS:
        return (bool(zero.any()),)
    return tuple(bool(v) for v in zero)


def banded_traced(x, taps, axes, masked=None):
    """The fused contraction with plain jax ops (differentiable in the weights too).

    Args:
      x: array ``[..., in_i, ...]``.
      taps: sequence of ``(index [out_i, k_i] int, weight [out_i, k_i])``, one per axis.
      axes: the contracted axes, one per element of ``taps``.
      masked: per axis, :func:`zero_columns` of its weights (static), or ``None``: every column
        may hold a zero (traced weights).

    Returns:
      ``x`` with each ``in_i`` replaced by ``out_i``, in ``x``'s dtype (the weights' dtype for
      integer ``x``: float, or int32 for the exact fixed-point path).
    """
    out_shape = list(x.shape)
    for (index, _), axis in zip(taps, axes):
        out_shape[axis] = index.shape[0]
    dtype = _result_dtype(x.dtype, [w for _, w in taps])
    # integer input has no NaN/Inf to keep local: no zero weight needs skipping
    can_be_nan = jnp.issubdtype(x.dtype, jnp.inexact)
    if masked is None:
        masked = [None] * len(taps)
    if len(taps) == 1 and taps[0][0].shape[1] > MAX_UNROLLED_TAPS:
        ((index, weight),), (axis,), (zeros,) = taps, axes, masked
        weight = weight.astype(dtype)

        def columns(j0, c):  # [out, c] taps j0 .. j0 + c - 1
            return lax.dynamic_slice_in_dim(index, j0, c, 1), lax.dynamic_slice_in_dim(weight, j0, c, 1)

        skip = can_be_nan and (zeros is None or any(zeros))
        return _looped(x, columns, index.shape, axis, dtype, skip)
    # lax ops only, not jnp: the unrolled taps are traced again for every new input shape, and
    # each jnp call traces a nested jit of its own (300x317 -> 224: lowering 30 -> 20-24 ms)
    columns = []
    for (index, weight), zeros in zip(taps, masked):
        columns.append(
            [
                (
                    lax.index_in_dim(index, k, axis=1),  # [out_i, 1]
                    lax.convert_element_type(lax.index_in_dim(weight, k, axis=1, keepdims=False), dtype),
                    zeros is None or zeros[k],
                )
                for k in range(index.shape[1])
            ]
        )
    terms = []
    for combo in itertools.product(*columns):
        v, w, skip = x, None, False
        for (idx, wk, has_zero), axis in zip(combo, axes):
            v = _take_clipped(v, idx, axis)
            wk = lax.broadcast_in_dim(wk, out_shape, (axis,))
            w = wk if w is None else lax.mul(w, wk)
            skip = skip or (can_be_nan and has_zero)
        terms.append(_term(w, v, dtype, skip))
    if not terms:  # an axis without taps (empty output)
        return jnp.zeros(out_shape, dtype)
    return sum_terms(terms)


#: Partial sums a band's terms are split into (:func:`sum_terms`). One running sum makes every
#: output element a chain of ``k - 1`` dependent adds (XLA does not reassociate float adds), so a
#: wide band waits on the adder's latency rather than its throughput. Measured on 2 cores, the
#: CPU row loop alone, 12 MP uint8 -> 224 rows (28 taps): one sum 7.3 ms, 2, 4 or 8 chains
#: 4.0-5.0 ms (10 -> 15-19 G multiply-adds/s; no order among 2, 4 and 8 beyond the noise, in
#: whole calls either); the whole call in RESULTS.md ("Dependent adds").
SUM_CHAINS = 4


def sum_terms(terms):
    """``terms[0] + terms[1] + ...`` as ``SUM_CHAINS`` interleaved partial sums (term ``j`` into
    chain ``j % SUM_CHAINS``), the chains then added pairwise. The sum of :func:`banded_traced`,
    :func:`row_loop` and the polyphase segments; integer terms (the exact fixed-point path) give
    the same result in any order, float ones may differ from a left-to-right sum in the last bits."""
    chains = [None] * SUM_CHAINS
    for j, term in enumerate(terms):
        c = j % SUM_CHAINS
        chains[c] = term if chains[c] is None else lax.add(chains[c], term)
    chains = [c for c in chains if c is not None]
    while len(chains) > 1:
        pairs = range(0, len(chains) - 1, 2)
        chains = [lax.add(chains[i], chains[i + 1]) for i in pairs] + chains[len(chains) - len(chains) % 2 :]
    return chains[0]


def _term(w, v, dtype, skip: bool):
    """One tap's term ``w * v`` (``v`` converted to ``dtype`` inside the fused loop: integer input
    is read as it is), zero where ``w`` is zero when ``skip`` (NaN/Inf stay local). The term of
    both :func:`banded_traced` and :func:`row_loop`."""
    term = lax.mul(w, lax.convert_element_type(v, dtype))
    if skip:  # the `where` costs: 12 MP uint8 -> 224 rows pass 40 -> 16 ms without it
        term = lax.select(lax.ne(w, lax.full_like(w, 0)), term, lax.full_like(term, 0))
    return term


def _take_clipped(x, index, axis: int):
    """``x`` gathered along ``axis`` at ``index`` ``[n, 1]`` (clamped into range, as
    ``jnp.take(..., mode="clip")``): ``x``'s shape with ``n`` at ``axis``, one ``lax.gather``."""
    dims = lax.GatherDimensionNumbers(
        offset_dims=tuple(d for d in range(x.ndim) if d != axis), collapsed_slice_dims=(axis,), start_index_map=(axis,)
    )
    sizes = tuple(1 if d == axis else n for d, n in enumerate(x.shape))
    return lax.gather(x, index, dims, sizes, mode=lax.GatherScatterMode.CLIP)


#: Above this many taps on one axis the taps are applied in a loop (:func:`_looped`): compile time
#: stops growing with the tap count (a 4096 -> 32 lanczos3 antialias axis has 770 taps; unrolled,
#: it compiled for ~10 s per axis).
MAX_UNROLLED_TAPS = 64
#: Taps per iteration of the loop when each tap's gather is large (``out * rest >= SMALL_TAP``):
#: ``LOOP_CHUNK`` along an axis whose contiguous run (the elements after it) is shorter than
#: ``SHORT_RUN`` (element-wise gathers: the unrolled taps amortise each iteration), else
#: ``LOOP_CHUNK_LONG_RUNS`` (row copies: a smaller loop body compiles faster for the same speed;
#: 4096x4096x3 -> 32x32x3 lanczos3 antialias compiled in 0.43-0.66 s with 8, 0.28-0.33 s with 2).
LOOP_CHUNK = 8
LOOP_CHUNK_LONG_RUNS = 2
SHORT_RUN = 16
SMALL_TAP = 4096
#: Elements gathered per iteration when each tap's gather is small (``out * rest < SMALL_TAP``).
LOOP_ELEMENTS = 1 << 22


def shared_band_traced(x, start, row_class, table, axis: int, masked=None):
    """The looped contraction of a :class:`~.weights.SharedBand`: ``out[o] = sum_j table[row_class[o],
    j] * x[start[o] + j]`` along ``axis``, each chunk of taps built on the device (``start [out]``,
    ``row_class [out]``, ``table [patterns, width]``); ``masked`` as :func:`zero_columns` of the
    table. The same sums, in the same order, as :func:`banded_traced` on the expanded taps."""
    dtype = _result_dtype(x.dtype, [table])
    table = table.astype(dtype)

    def columns(j0, c):  # [out, c] taps j0 .. j0 + c - 1
        index = start[:, None] + (j0 + lax.iota(start.dtype, c))[None, :]
        return index, jnp.take(lax.dynamic_slice_in_dim(table, j0, c, 1), row_class, axis=0)

    skip = jnp.issubdtype(x.dtype, jnp.inexact) and (masked is None or any(masked))
    return _looped(x, columns, (start.shape[0], table.shape[1]), axis, dtype, skip)


def _looped(x, columns, shape, axis: int, dtype, skip: bool):
    """``sum_k weight[:, k] * x[index[:, k]]`` along ``axis`` in a ``fori_loop`` over chunks of taps;
    ``columns(j0, c)`` gives the ``[out, c]`` index and weight (``dtype``) of taps ``j0 .. j0 + c - 1``
    (``j0`` traced inside the loop), ``shape`` is ``(out, k)``.

    Two forms, by the size of one tap's gather (``out * rest``, ``rest`` the other axes):

    * large (an image axis shrunk to a thumbnail): ``LOOP_CHUNK`` (``LOOP_CHUNK_LONG_RUNS`` along an
      axis with long contiguous runs) unrolled taps per iteration,
      each a gather fused into a multiply-add, added one tap at a time in column order (the
      unrolled sum's order);
    * small (``10**6 -> 3``): the loop overhead (microseconds per iteration) would dominate, so
      each iteration gathers ``[..., out, c, ...]`` at once (``c`` from ``LOOP_ELEMENTS``) and
      sums it with its weights — a single iteration when everything fits.

    ``skip``: zero weights are skipped (``where``), so NaN/Inf stay local. The last ``k % c`` taps
    are applied after the loop.
    """
    out, k = shape
    rest = int(np.prod(x.shape, dtype=np.int64)) // max(int(x.shape[axis]), 1)
    small = out * rest < SMALL_TAP
    run = int(np.prod(x.shape[axis + 1 :], dtype=np.int64))
    chunk = LOOP_CHUNK if run < SHORT_RUN else LOOP_CHUNK_LONG_RUNS
    c = max(1, min(k, LOOP_ELEMENTS // max(out * rest, 1))) if small else chunk
    shape = [1] * x.ndim
    shape[axis] = out
    wide = shape[: axis + 1] + [-1] + shape[axis + 1 :]  # weights of a [..., out, c, ...] gather

    def add(acc, idx, w):  # idx, w: [out, c]
        if small:
            w = w.reshape(wide)
            term = w * jnp.take(x, idx, axis=axis, mode="clip").astype(dtype)
            return acc + (jnp.where(w != 0, term, 0) if skip else term).sum(axis=axis + 1)
        for j in range(idx.shape[1]):
            wj = w[:, j].reshape(shape)
            term = wj * jnp.take(x, idx[:, j], axis=axis, mode="clip").astype(dtype)
            acc = acc + (jnp.where(wj != 0, term, 0) if skip else term)
        return acc

    n = k // c
    out_shape = list(x.shape)
    out_shape[axis] = out

    def body(i, acc):
        return add(acc, *columns(i * c, c))

    acc = jnp.zeros(out_shape, dtype)
    acc = add(acc, *columns(0, c)) if n == 1 else lax.fori_loop(0, n, body, acc)
    if k % c:
        acc = add(acc, *columns(n * c, k % c))
    return acc


#: The CPU lowering of a one-axis band over an application's input (:func:`row_loop`) applies
#: when the elements after the axis form contiguous runs of at least this many (image rows) ...
ROW_LOOP_MIN_RUN = 1024
#: ... the band has at least this many taps (a large shrink) ...
ROW_LOOP_MIN_TAPS = 24
#: ... and XLA has at most this many CPU threads. The loop runs on one thread; XLA splits the
#: gather across threads. Measured alternately in one process on 2 cores, 12 MP uint8 -> 224
#: (whole call): the gather 13-15 ms at 1.7 CPU-seconds per second (about 23 ms of CPU time),
#: the loop 9.4-10.3 ms (about 11.5 ms of CPU time). With 17 taps (12 MP -> 384x512) the
#: gather won (9.9 ms against 11.9 ms), with 21 taps they tied, with 28 and 55 taps the loop
#: won (13-15 -> 9.4-10.3 ms; cubic 29.5 -> 20.6-22.5 ms). From 3-4 threads the gather is
#: expected to win on CPU time alone (not measured: no such machine here).
ROW_LOOP_MAX_THREADS = 2
#: XLA's CPU fusion copies a producer into a consumer that indexes it at most this many times
#: (``FusionNodeIndexingEvaluation::kAllowedCodeDuplication``): a band of at most this many taps
#: reading a pass's output recomputes that pass once per tap, although the two passes were planned
#: apart (``apply.FUSE_MAX_TAPS``). A first pass followed by such a band therefore runs as a row
#: loop from ``ROW_LOOP_MIN_TAPS_BEFORE_BAND`` taps: XLA does not fuse a loop's output. Measured
#: on 2 cores, uint8 photos, whole call, 5 fresh processes, each alternating both programs
#: (medians of 21; wall ms, CPU ms in brackets), taps of both passes:
#: 12 MP -> 768x1024 linear (8, 8) 20.9-27.8 (39-42) -> 13.7-14.9 (20-22);
#: 4K -> 640x360 linear (12, 12) 12.1-13.3 (23-26) -> 6.4-6.9 (8-9);
#: 1080p -> 1422x800 cubic (6, 6) 18.4-27.4 (35-43) -> 7.0-8.2 (11-12);
#: 12 MP -> 1600x1200 lanczos3 (15, 15) 111-133 (210-230) -> 32-38 (45-50).
#: Where the second band is wider XLA keeps the passes apart, and there the gather, on both
#: threads, was faster than the loop below ``ROW_LOOP_MIN_TAPS`` (1080p -> 224: 1.66 against
#: 2.09 ms). The loop compiles 0.05-0.09 s longer than the gather (XLA's CPU fusion emitters), so
#: it is taken only where the first pass does at least ``ROW_LOOP_BEFORE_BAND_MIN_WORK``
#: multiply-adds (``outer * out * run * k``): 720p -> 224 (6.0 M; 1.8-3.1 -> 0.9-1.2 ms) and
#: 1536x2048 -> 533x400 (19.7 M; 5.8-7.2 -> 3.6-4.8 ms) take it; 480x640 -> 224 (2.2 M; 1.35 ->
#: 0.56 ms, but a first call of 0.09 -> 0.18 s) and 600x800 -> 224 (3.2 M; 1.24 -> 1.05 ms) do not.
XLA_MAX_DUPLICATION = 15
ROW_LOOP_MIN_TAPS_BEFORE_BAND = 2
ROW_LOOP_BEFORE_BAND_MIN_WORK = 1 << 22


def _cpu_threads() -> int:
    """The CPU threads this process may use (its affinity where the OS reports it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity API (macOS, Windows)
        return os.cpu_count() or 1


def row_loop_eligible(shape, axis: int, k: int, *, next_taps: int = 0, out: int = 0) -> bool:
    """Whether :func:`row_loop` applies to ``x`` of ``shape`` contracted along ``axis`` with
    ``k`` taps into ``out`` rows (``ROW_LOOP_MIN_RUN``, ``ROW_LOOP_MIN_TAPS``,
    ``ROW_LOOP_MAX_THREADS``; at most ``MAX_UNROLLED_TAPS`` taps). ``next_taps``: the taps of the
    band that reads this pass's output (0: none); at most ``XLA_MAX_DUPLICATION``, with at least
    ``ROW_LOOP_BEFORE_BAND_MIN_WORK`` multiply-adds, lowers the least ``k`` to
    ``ROW_LOOP_MIN_TAPS_BEFORE_BAND``."""
    run = int(np.prod(shape[axis + 1 :], dtype=np.int64))
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    work = outer * out * run * k
    duplicated = 0 < next_taps <= XLA_MAX_DUPLICATION and work >= ROW_LOOP_BEFORE_BAND_MIN_WORK
    least = ROW_LOOP_MIN_TAPS_BEFORE_BAND if duplicated else ROW_LOOP_MIN_TAPS
    return (
        least <= k <= MAX_UNROLLED_TAPS
        and run >= ROW_LOOP_MIN_RUN
        and int(shape[axis]) > 0
        and _cpu_threads() <= ROW_LOOP_MAX_THREADS
    )


def row_loop(x, index, weight, axis: int, masked=None):
    """:func:`banded_traced` along one axis as a loop over output rows (XLA's CPU backend).

    ``out[o] = sum_j weight[o, j] * x[index[o, j]]``, one output row per iteration (a
    ``lax.scan``), every ``x[index[o, j]]`` a slice of whole rows at a scalar offset
    (``lax.dynamic_slice``, its start clamped into range like the gather's ``CLIP`` mode): the row's
    multiply-adds run along contiguous memory and vectorise, where XLA's CPU gather computes an
    index per element. The same terms, added in the same order, as :func:`banded_traced` (float
    results may still differ in the last bit where XLA contracts a multiply-add differently).
    When it applies: :func:`row_loop_eligible`.

    One row per iteration: blocks of ``b`` rows let XLA split an iteration across threads but
    compile in time proportional to ``b * k`` (13 rows x 28 taps: 1.7-2.2 s instead of 0.2-0.4
    s for the whole call).

    Args:
      x: array ``[..., in, ...]`` (``in`` at ``axis``).
      index: ``[out, k]`` int32 input rows; weight: ``[out, k]``.
      axis: the contracted axis.
      masked: :func:`zero_columns` of ``weight`` (static), or ``None``.

    Returns:
      ``x`` with ``in`` replaced by ``out``, in :func:`_result_dtype`.
    """
    out, k = index.shape
    dtype = _result_dtype(x.dtype, [weight])
    weight = lax.convert_element_type(weight, dtype)
    out_shape = list(x.shape)
    out_shape[axis] = out
    if out == 0:
        return jnp.zeros(out_shape, dtype)
    # [outer, in, run]: the fused loops run along the contiguous run (with channels last kept
    # as an axis of 3, XLA's CPU loops did not vectorise: 12 MP uint8 rows pass 6 -> 28 ms)
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    run = int(np.prod(x.shape[axis + 1 :], dtype=np.int64))
    x = lax.reshape(x, (outer, x.shape[axis], run))
    can_be_nan = jnp.issubdtype(x.dtype, jnp.inexact)
    skips = [can_be_nan and (masked is None or bool(masked[j])) for j in range(k)]

    zero, last = lax.full((), 0, index.dtype), lax.full((), x.shape[1] - 1, index.dtype)

    def body(carry, taps):  # one output row: [outer, run]
        idx, wt = taps  # [k]
        terms = []
        for j in range(k):
            start = lax.reshape(lax.slice_in_dim(idx, j, j + 1), ())
            start = lax.clamp(zero, start, last)  # jax would wrap a negative start like numpy
            v = lax.reshape(lax.dynamic_slice(x, (zero, start, zero), (outer, 1, run)), (outer, run))
            w = lax.broadcast_in_dim(lax.reshape(lax.slice_in_dim(wt, j, j + 1), ()), v.shape, ())
            terms.append(_term(w, v, dtype, skips[j]))
        return carry, sum_terms(terms)

    _, rows = lax.scan(body, None, (index, weight))  # [out, outer, run]
    return lax.reshape(lax.transpose(rows, (1, 0, 2)), tuple(out_shape))


def _result_dtype(x_dtype, operands):
    """``x``'s dtype, or for integer ``x`` (a first pass reading the input as it is) the dtype of
    the floating operands (the weights); int32 when every operand is an integer (the exact
    fixed-point path: integer weights)."""
    if jnp.issubdtype(x_dtype, jnp.inexact):
        return x_dtype
    return next((o.dtype for o in operands if jnp.issubdtype(o.dtype, jnp.floating)), np.dtype(np.int32))


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
    for rows, c0, c1 in _weights.tiles(out, k):
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

    @property
    def shapes(self):
        shape = (self.in_size, self.k_t)
        return (jax.ShapeDtypeStruct(shape, np.int32), jax.ShapeDtypeStruct(shape, self.dtype))

    def __call__(self):
        if self._taps is None:
            taps = _transpose_band(*self.taps(), self.in_size)
            assert taps is not None and taps[0].shape == (self.in_size, self.k_t)
            self._taps = taps
        return self._taps

    def operands(self):
        """``(t_index, t_weight)`` as traced values of a host callback (no program constants)."""
        return jax.pure_callback(self, self.shapes)


@dataclasses.dataclass(frozen=True)
class RowBlocks:
    """A one-axis map's output split along its ``axis`` for a loop (see :mod:`.chain`): ``count``
    blocks of ``rows`` output rows, block ``b`` (a traced int32) being rows ``b * rows`` onwards,
    computed by ``block(b)``; ``pieces`` the remaining rows, as ``(output row, thunk)`` pairs
    computed apart (a remainder). Every output row is in exactly one of them."""

    axis: int
    rows: int
    count: int
    block: Callable
    pieces: tuple[tuple[int, Callable], ...] = ()


class Implementation:
    """A forward implementation for :data:`linear_map_p`: hashable, static.

    Subclasses define ``__call__(x, *operands)`` (the map, linear in ``x``), ``out_shape(shape,
    operands)`` and ``shifted(n)`` (the same map on an array with ``n`` leading batch axes); a
    one-axis map may define ``row_blocks`` (its CPU form split into blocks of output rows).
    """

    def __call__(self, x, *operands):  # pragma: no cover - interface
        raise NotImplementedError

    def out_shape(self, shape, operands) -> tuple[int, ...]:  # pragma: no cover - interface
        raise NotImplementedError

    def shifted(self, n: int) -> Implementation:  # pragma: no cover - interface
        raise NotImplementedError

    def on_cpu(self, x, *operands):
        """The map as lowered for XLA's CPU backend (default: ``__call__``)."""
        return self(x, *operands)

    def row_blocks(self, x, operands, block_bytes: int) -> RowBlocks | None:
        """:meth:`on_cpu` split along the map's one axis into blocks of about ``block_bytes`` of
        output (at least one row each), or ``None`` (not split: the default)."""
        return None


@dataclasses.dataclass(frozen=True)
class Banded(Implementation):
    """The fused banded contraction over ``axes``; operands ``index_1, weight_1, index_2, ...``;
    ``masked`` as in :func:`banded_traced`. ``rows``: on CPU, one axis applied to an array in
    row-major layout (an application's input) may run as :func:`row_loop`; ``next_taps``: the
    taps of the band that reads the result (0: none; see :func:`row_loop_eligible`)."""

    axes: tuple[int, ...]
    masked: tuple | None = None
    rows: bool = False
    next_taps: int = 0

    def __call__(self, x, *operands):
        taps = [(operands[2 * i], operands[2 * i + 1]) for i in range(len(self.axes))]
        return banded_traced(x, taps, self.axes, self.masked)

    def on_cpu(self, x, *operands):
        return self._row_loop(x, *operands) if self._loops(x.shape, operands) else self(x, *operands)

    def _loops(self, shape, operands) -> bool:
        """Whether the CPU form is :func:`row_loop` (decided on the whole output)."""
        out, k = operands[0].shape
        eligible = functools.partial(row_loop_eligible, shape, self.axes[0], k, next_taps=self.next_taps, out=out)
        return self.rows and len(self.axes) == 1 and eligible()

    def row_blocks(self, x, operands, block_bytes):
        """Blocks of the :func:`row_loop` form only. Blocks of the gather (a gradient's
        transposed band over a batch) ran slower than the whole pass: 32x448x448x3 -> 224
        (``grad of bilinear x2``) 14-20 -> 23-38 ms."""
        if not self._loops(x.shape, operands):
            return None
        index, weight = operands
        out = index.shape[0]
        shape = self.out_shape(x.shape, operands)  # bytes of one output row: the rest of the shape
        row = int(np.prod(shape, dtype=np.int64)) // max(out, 1) * np.dtype(_result_dtype(x.dtype, operands)).itemsize
        rows = max(1, block_bytes // max(row, 1))
        count = out // rows
        cpu = functools.partial(self._row_loop, x)

        def block(b):
            start = b * rows
            return cpu(lax.dynamic_slice_in_dim(index, start, rows), lax.dynamic_slice_in_dim(weight, start, rows))

        rest = count * rows
        pieces = ((rest, lambda: cpu(index[rest:], weight[rest:])),) if rest < out else ()
        return RowBlocks(self.axes[0], rows, count, block, pieces)

    def _row_loop(self, x, index, weight):
        return row_loop(x, index, weight, self.axes[0], None if self.masked is None else self.masked[0])

    def out_shape(self, shape, operands):
        shape = list(shape)
        for i, axis in enumerate(self.axes):
            shape[axis] = operands[2 * i].shape[0]
        return tuple(shape)

    def shifted(self, n):
        return Banded(tuple(a + n for a in self.axes), self.masked, self.rows, self.next_taps)


@dataclasses.dataclass(frozen=True)
class SharedBanded(Implementation):
    """:func:`shared_band_traced` along ``axis``; operands ``start, row_class, table``."""

    axis: int
    masked: tuple | None = None

    def __call__(self, x, *operands):
        return shared_band_traced(x, *operands, self.axis, self.masked)

    def out_shape(self, shape, operands):
        shape = list(shape)
        shape[self.axis] = operands[0].shape[0]
        return tuple(shape)

    def shifted(self, n):
        return SharedBanded(self.axis + n, self.masked)


linear_map_p = Primitive("jax_resize_linear_map")


def linear_map(x, forward: Implementation, operands, transpose: Implementation, t_operands):
    """Applies ``forward(x, *operands)``, whose transpose is ``transpose(g, *t_operands)``.

    Both operand lists are constants (no derivative flows to them). Returns ``x`` mapped, in
    ``x``'s dtype.
    """
    return linear_map_p.bind(x, *operands, *t_operands, forward=forward, transpose=transpose, n=len(operands))


def _impl(x, *operands, forward, transpose, n):
    return forward(x, *operands[:n])


def _abstract_eval(x, *operands, forward, transpose, n):
    return _core.ShapedArray(forward.out_shape(x.shape, operands[:n]), _result_dtype(x.dtype, operands[:n]))


def _jvp(primals, tangents, **params):
    x, *operands = primals
    out = linear_map_p.bind(x, *operands, **params)
    tx = tangents[0]
    if type(tx) is ad.Zero:
        return out, ad.Zero.from_primal_value(out)
    return out, linear_map_p.bind(tx, *operands, **params)


def _transpose(ct, x, *operands, forward, transpose, n):
    assert ad.is_undefined_primal(x)
    none = (None,) * len(operands)
    if type(ct) is ad.Zero:
        return (ad.Zero(x.aval), *none)
    swapped = (*operands[n:], *operands[:n])
    return (linear_map_p.bind(ct, *swapped, forward=transpose, transpose=forward, n=len(operands) - n), *none)


def _batch(args, dims, *, forward, transpose, n):
    x, *operands = args
    bx, *bops = dims
    if any(d is not None for d in bops):  # the operands are constants; never batched
        raise NotImplementedError("jax_resize_linear_map does not batch over its operands")
    x = jnp.moveaxis(x, bx, 0)
    return linear_map_p.bind(x, *operands, forward=forward.shifted(1), transpose=transpose.shifted(1), n=n), 0


linear_map_p.def_impl(_impl)
linear_map_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[linear_map_p] = _jvp
ad.primitive_transposes[linear_map_p] = _transpose
batching.primitive_batchers[linear_map_p] = _batch
mlir.register_lowering(linear_map_p, mlir.lower_fun(_impl, multiple_results=False))


def _impl_cpu(x, *operands, forward, transpose, n):
    return forward.on_cpu(x, *operands[:n])


mlir.register_lowering(linear_map_p, mlir.lower_fun(_impl_cpu, multiple_results=False), platform="cpu")
