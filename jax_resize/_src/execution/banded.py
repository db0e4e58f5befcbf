"""Banded contractions ``out[o] = sum_k w[o, k] * x[index[o, k]]``: unrolled, looped, or as CPU row loops.

Contract: :func:`banded_traced` contracts ``x`` along one or more axes with their taps in a single
pass: for taps ``(index_i, weight_i)`` on axes ``a_1..a_m`` it sums, over every tap combination,
``prod_i w_i * x[index_1, ..., index_m]`` — gathers fused into multiply-adds, so the intermediate
arrays of a per-axis application are never written. Zero weights are skipped, so NaN/Inf inputs
reach only the outputs that weight them; the skip (a ``where``) is emitted only for tap columns
that hold a zero (:func:`zero_columns`, known on the host for constant taps) and never for
integer input, which has no NaN. Plain jax ops: differentiable in the weights too (traced taps).
Every form adds a band's terms with :func:`sum_terms`. :class:`Banded` and :class:`SharedBanded`
are the forms as implementations of :class:`.primitive.LinearMap`; which form runs is asked of
:mod:`.decide` with the plan's tuning row.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import decide as _decide
from .primitive import Implementation, RowBlocks, result_dtype
from .tuning import Tuning, tuning_for


def _row(tuning: Tuning | None) -> Tuning:
    return tuning if tuning is not None else tuning_for(jax.default_backend())


def zero_columns(weight: np.ndarray, tuning: Tuning | None = None) -> tuple[bool, ...]:
    """Per tap column ``k`` of constant weights ``[out, k]``: whether some row has a zero there;
    one flag for all of them when the columns are looped (:func:`.decide.unrolled`)."""
    zero = (np.asarray(weight) == 0).any(axis=0)
    if not _decide.unrolled(zero.size, _row(tuning)):
        return (bool(zero.any()),)
    return tuple(bool(v) for v in zero)


def banded_traced(x, taps, axes, masked=None, tuning: Tuning | None = None, chains: int | None = None):
    """The fused contraction with plain jax ops (differentiable in the weights too).

    Args:
      x: array ``[..., in_i, ...]``.
      taps: sequence of ``(index [out_i, k_i] int, weight [out_i, k_i])``, one per axis.
      axes: the contracted axes, one per element of ``taps``.
      masked: per axis, :func:`zero_columns` of its weights (static), or ``None``: every column
        may hold a zero (traced weights).
      tuning: the backend's row (default: the default backend's), for the looped form and the sum.
      chains: the partial sums of :func:`sum_terms` (default the row's ``sum_chains``): a shared
        program's padded band sums with its own band's.

    Returns:
      ``x`` with each ``in_i`` replaced by ``out_i``, in ``x``'s dtype (the weights' dtype for
      integer ``x``: float, or int32 for the exact fixed-point path).
    """
    out_shape = list(x.shape)
    for (index, _), axis in zip(taps, axes):
        out_shape[axis] = index.shape[0]
    dtype = result_dtype(x.dtype, [w for _, w in taps])
    # integer input has no NaN/Inf to keep local: no zero weight needs skipping
    can_be_nan = jnp.issubdtype(x.dtype, jnp.inexact)
    if masked is None:
        masked = [None] * len(taps)
    tuning = _row(tuning)
    if len(taps) == 1 and not _decide.unrolled(taps[0][0].shape[1], tuning):
        ((index, weight),), (axis,), (zeros,) = taps, axes, masked
        weight = weight.astype(dtype)

        def columns(j0, c):  # [out, c] taps j0 .. j0 + c - 1
            return lax.dynamic_slice_in_dim(index, j0, c, 1), lax.dynamic_slice_in_dim(weight, j0, c, 1)

        skip = can_be_nan and (zeros is None or any(zeros))
        return _looped(x, columns, index.shape, axis, dtype, skip, tuning)
    # lax ops only, not jnp: the unrolled taps are traced again for every new input shape, and
    # each jnp call traces a nested jit of its own (lowering time; results/tuning.md)
    per_axis = []
    for (index, weight), zeros in zip(taps, masked):
        per_axis.append(
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
    for combo in itertools.product(*per_axis):
        v, w, skip = x, None, False
        for (idx, wk, has_zero), axis in zip(combo, axes):
            v = _take_clipped(v, idx, axis)
            wk = lax.broadcast_in_dim(wk, out_shape, (axis,))
            w = wk if w is None else lax.mul(w, wk)
            skip = skip or (can_be_nan and has_zero)
        terms.append(_term(w, v, dtype, skip))
    if not terms:  # an axis without taps (empty output)
        return jnp.zeros(out_shape, dtype)
    return sum_terms(terms, chains or tuning.sum_chains)


def sum_terms(terms, chains: int):
    """``terms[0] + terms[1] + ...`` as ``chains`` interleaved partial sums (term ``j`` into
    chain ``j % chains``), the chains then added pairwise: no output waits on ``k - 1`` dependent
    float adds, which XLA does not reassociate. Fewer than ``2 * chains`` terms are added left to
    right (one chain): a chain of one product would be contracted by XLA into the chains' addition,
    so a band padded with terms that add nothing (a shared program's) would sum differently. The
    sum of :func:`banded_traced`, :func:`row_loop` and the polyphase segments; integer terms (the
    exact fixed-point path) give the same result in any order, float ones may differ from a
    left-to-right sum in the last bits."""
    if len(terms) < 2 * chains:
        chains = 1
    sums: list = [None] * chains
    for j, term in enumerate(terms):
        c = j % chains
        sums[c] = term if sums[c] is None else lax.add(sums[c], term)
    sums = [c for c in sums if c is not None]
    while len(sums) > 1:
        pairs = range(0, len(sums) - 1, 2)
        sums = [lax.add(sums[i], sums[i + 1]) for i in pairs] + sums[len(sums) - len(sums) % 2 :]
    return sums[0]


def _term(w, v, dtype, skip: bool):
    """One tap's term ``w * v`` (``v`` converted to ``dtype`` inside the fused loop: integer input
    is read as it is); when ``skip``, ``v`` is taken as 0 where ``w`` is zero (NaN/Inf stay local).
    Masking the input rather than the term keeps ``sum + w * v`` a multiply-add XLA can contract
    in masked columns as in unmasked ones (a shared program masks its padded columns too). The
    term of both :func:`banded_traced` and :func:`row_loop`."""
    v = lax.convert_element_type(v, dtype)
    if skip:  # only for columns that hold a zero: the select costs a pass a large share of its time
        v = lax.select(lax.ne(w, lax.full_like(w, 0)), v, lax.full_like(v, 0))
    return lax.mul(w, v)


def _take_clipped(x, index, axis: int):
    """``x`` gathered along ``axis`` at ``index`` ``[n, 1]`` (clamped into range, as
    ``jnp.take(..., mode="clip")``): ``x``'s shape with ``n`` at ``axis``, one ``lax.gather``."""
    dims = lax.GatherDimensionNumbers(
        offset_dims=tuple(d for d in range(x.ndim) if d != axis), collapsed_slice_dims=(axis,), start_index_map=(axis,)
    )
    sizes = tuple(1 if d == axis else n for d, n in enumerate(x.shape))
    return lax.gather(x, index, dims, sizes, mode=lax.GatherScatterMode.CLIP)


def shared_band_traced(x, start, row_class, table, axis: int, masked=None, tuning: Tuning | None = None):
    """The looped contraction of a :class:`~..records.SharedBand`: ``out[o] = sum_j table[row_class[o],
    j] * x[start[o] + j]`` along ``axis``, each chunk of taps built on the device (``start [out]``,
    ``row_class [out]``, ``table [patterns, width]``); ``masked`` as :func:`zero_columns` of the
    table. The same sums, in the same order, as :func:`banded_traced` on the expanded taps."""
    dtype = result_dtype(x.dtype, [table])
    table = table.astype(dtype)

    def columns(j0, c):  # [out, c] taps j0 .. j0 + c - 1
        index = start[:, None] + (j0 + lax.iota(start.dtype, c))[None, :]
        return index, jnp.take(lax.dynamic_slice_in_dim(table, j0, c, 1), row_class, axis=0)

    skip = jnp.issubdtype(x.dtype, jnp.inexact) and (masked is None or any(masked))
    return _looped(x, columns, (start.shape[0], table.shape[1]), axis, dtype, skip, _row(tuning))


def _looped(x, columns, shape, axis: int, dtype, skip: bool, tuning: Tuning):
    """``sum_k weight[:, k] * x[index[:, k]]`` along ``axis`` in a ``fori_loop`` over chunks of taps;
    ``columns(j0, c)`` gives the ``[out, c]`` index and weight (``dtype``) of taps ``j0 .. j0 + c - 1``
    (``j0`` traced inside the loop), ``shape`` is ``(out, k)``.

    Two forms, by the size of one tap's gather (``out * rest``, ``rest`` the other axes):

    * large (an image axis shrunk to a thumbnail): ``c`` unrolled taps per iteration,
      each a gather fused into a multiply-add, added one tap at a time in column order (the
      unrolled sum's order);
    * small (``10**6 -> 3``): the loop overhead (microseconds per iteration) would dominate, so
      each iteration gathers ``[..., out, c, ...]`` at once and
      sums it with its weights — a single iteration when everything fits.

    ``skip``: zero weights are skipped (``where``), so NaN/Inf stay local. The last ``k % c`` taps
    are applied after the loop.
    """
    out, k = shape
    small, c = _decide.loop_form(x.shape, axis, out, k, tuning)
    shape = [1] * x.ndim
    shape[axis] = out
    wide = shape[: axis + 1] + [-1] + shape[axis + 1 :]  # weights of a [..., out, c, ...] gather

    def add(acc, idx, w):  # idx, w: [out, c]
        if small:
            w = w.reshape(wide)
            term = w * jnp.take(x, idx, axis=axis, mode="clip").astype(dtype)
            return acc + _blocked_sum(jnp.where(w != 0, term, 0) if skip else term, axis + 1)
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


def _blocked_sum(terms, axis: int, block: int = 256):
    """``terms.sum(axis)`` as sums of blocks of ``block`` terms, then of the blocks: a float32 sum of
    up to millions of terms (a 10**6 -> 3 shrink) then keeps its rounding error near ``sqrt`` of a
    one-by-one sum's, whichever order XLA's reduction takes."""
    n = terms.shape[axis]
    if n <= block:
        return terms.sum(axis=axis)
    pad = [(0, 0)] * terms.ndim
    pad[axis] = (0, -n % block)
    terms = jnp.pad(terms, pad)
    shape = terms.shape[:axis] + (terms.shape[axis] // block, block) + terms.shape[axis + 1 :]
    return terms.reshape(shape).sum(axis=axis + 1).sum(axis=axis)


def row_loop(x, index, weight, axis: int, masked=None, tuning: Tuning | None = None, chains: int | None = None):
    """:func:`banded_traced` along one axis as a loop over output rows (XLA's CPU backend).

    ``out[o] = sum_j weight[o, j] * x[index[o, j]]``, one output row per iteration (a
    ``lax.scan``), every ``x[index[o, j]]`` a slice of whole rows at a scalar offset
    (``lax.dynamic_slice``, its start clamped into range like the gather's ``CLIP`` mode): the row's
    multiply-adds run along contiguous memory and vectorise, where XLA's CPU gather computes an
    index per element. The same terms, added in the same order, as :func:`banded_traced` (float
    results may still differ in the last bit where XLA contracts a multiply-add differently).
    When it applies: :func:`.decide.row_loop`.

    One row per iteration: blocks of ``b`` rows would let XLA split an iteration across threads,
    but compile in time proportional to ``b * k``.

    Args:
      x: array ``[..., in, ...]`` (``in`` at ``axis``).
      index: ``[out, k]`` int32 input rows; weight: ``[out, k]``.
      axis: the contracted axis.
      masked: :func:`zero_columns` of ``weight`` (static), or ``None``.

    Returns:
      ``x`` with ``in`` replaced by ``out``, in :func:`result_dtype`.
    """
    out, k = index.shape
    dtype = result_dtype(x.dtype, [weight])
    weight = lax.convert_element_type(weight, dtype)
    out_shape = list(x.shape)
    out_shape[axis] = out
    if out == 0:
        return jnp.zeros(out_shape, dtype)
    # [outer, in, run]: the fused loops run along the contiguous run, so XLA's CPU loops
    # vectorise (a short channels-last axis kept apart would be the innermost loop)
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
        return carry, sum_terms(terms, chains)

    chains = chains or _row(tuning).sum_chains
    _, rows = lax.scan(body, None, (index, weight))  # [out, outer, run]
    return lax.reshape(lax.transpose(rows, (1, 0, 2)), tuple(out_shape))


@dataclasses.dataclass(frozen=True)
class Banded(Implementation):
    """The fused banded contraction over ``axes``; operands ``index_1, weight_1, index_2, ...``;
    ``masked`` as in :func:`banded_traced`. ``rows``: a first pass over the row-major input, whose
    CPU lowering may be :func:`row_loop`; ``next_taps``: the taps of the band that reads the result
    (0: none); both go to :func:`.decide.row_loop` with ``tuning``."""

    axes: tuple[int, ...]
    masked: tuple | None = None
    rows: bool = False
    next_taps: int = 0
    tuning: Tuning | None = None
    loop: bool | None = None  # the row-loop choice, made for a shared program's own shapes
    chains: int | None = None  # sum_terms' partial sums, a shared program's own band's
    loops_well = True

    def __call__(self, x, *operands):
        taps = [(operands[2 * i], operands[2 * i + 1]) for i in range(len(self.axes))]
        return banded_traced(x, taps, self.axes, self.masked, self.tuning, self.chains)

    def on_cpu(self, x, *operands):
        return self._row_loop(x, *operands) if self._loops(x.shape, operands) else self(x, *operands)

    def _loops(self, shape, operands) -> bool:
        """Whether the CPU form is :func:`row_loop` (decided on the whole output)."""
        if not self.rows or len(self.axes) != 1:
            return False
        if self.loop is not None:
            return self.loop
        out, k = operands[0].shape
        return _decide.row_loop(shape, self.axes[0], k, out, self.next_taps, _row(self.tuning))

    def row_blocks(self, x, operands, block_bytes):
        """Blocks of the :func:`row_loop` form only: the gather form runs as one pass (blocks of
        it cost more than they save)."""
        if not self._loops(x.shape, operands):
            return None
        index, weight = operands
        out = index.shape[0]
        shape = self.out_shape(x.shape, operands)  # bytes of one output row: the rest of the shape
        row = int(np.prod(shape, dtype=np.int64)) // max(out, 1) * np.dtype(result_dtype(x.dtype, operands)).itemsize
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
        masked = None if self.masked is None else self.masked[0]
        return row_loop(x, index, weight, self.axes[0], masked, self.tuning, self.chains)

    def out_shape(self, shape, operands):
        shape = list(shape)
        for i, axis in enumerate(self.axes):
            shape[axis] = operands[2 * i].shape[0]
        return tuple(shape)

    def shifted(self, n):
        return dataclasses.replace(self, axes=tuple(a + n for a in self.axes))


@dataclasses.dataclass(frozen=True)
class SharedBanded(Implementation):
    """:func:`shared_band_traced` along ``axis``; operands ``start, row_class, table``."""

    axis: int
    masked: tuple | None = None
    tuning: Tuning | None = None

    @property
    def axes(self) -> tuple[int, ...]:  # type: ignore[override]
        return (self.axis,)

    def __call__(self, x, *operands):
        return shared_band_traced(x, *operands, self.axis, self.masked, self.tuning)

    def out_shape(self, shape, operands):
        shape = list(shape)
        shape[self.axis] = operands[0].shape[0]
        return tuple(shape)

    def shifted(self, n):
        return dataclasses.replace(self, axis=self.axis + n)
