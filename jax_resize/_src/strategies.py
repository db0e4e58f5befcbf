"""Apply strategies: how one axis's record becomes a plan, and how a plan is applied.

Contract: a :class:`Strategy` is ``(eligible, prepare, apply)``:

* ``eligible(record, backend) -> bool`` — a cheap static test (e.g. the dense matrix fits);
* ``prepare(axis, record, cdtype) -> plan | None`` — host work done once per call (the dense
  matrix, the transposed taps, the polyphase tables, an index pattern), weights cast to the
  compute dtype; ``None`` declines (no small polyphase form), and the next strategy is tried;
* ``apply(y, plans, precision, nonfinite) -> y`` — the traced code for a group of plans (banded
  plans of consecutive axes are fused into one group; every other group has one plan).

Plans are pytrees (arrays are leaves, the rest static), so the jitted application caches one
compilation per structure and shapes. :data:`STRATEGIES` registers ``gather`` (for
:class:`~.weights.Gather` records) and ``dense``, ``banded``, ``polyphase`` (for
:class:`~.weights.Taps`); :func:`plan` picks one, with fallbacks.

* ``dense``: ``W: [out, in]`` (folded from the taps on the host, or on the device for traced
  taps) contracted with ``lax.dot_general``; the TPU default; never above ``MAX_DENSE_ELEMENTS``.
  NaN/Inf locality: with ``nonfinite`` the finite part is contracted and the non-finite outputs
  are rebuilt from matmuls of the NaN/+Inf/-Inf masks.
* ``banded``: ``k`` gathers fused into multiply-adds (:mod:`.banded`), ``O(out * k)`` work.
* ``polyphase``: strided slices for rational ratios (:mod:`.polyphase`).
* ``gather``: ``jnp.take``, or a broadcast / strided slice for regular index patterns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import banded as _banded
from . import chain as _chain
from . import polyphase as _polyphase
from . import weights as _weights

#: Largest dense weight matrix (entries) ever built, on the host or the device (128 MiB float64).
MAX_DENSE_ELEMENTS = 1 << 24


def _static(**kw):
    return dataclasses.field(metadata=dict(static=True), **kw)


@dataclasses.dataclass(frozen=True)
class Strategy:
    """A registered way to apply records (see the module docstring)."""

    name: str
    eligible: Callable[..., bool]
    prepare: Callable[..., Any]
    apply: Callable[..., Any]


#: Registry of strategies, by name.
STRATEGIES: dict[str, Strategy] = {}


def register(strategy: Strategy) -> Strategy:
    STRATEGIES[strategy.name] = strategy
    return strategy


def _axis_shape(ndim: int, axis: int, length: int) -> list[int]:
    shape = [1] * ndim
    shape[axis] = length
    return shape


# --- gather ------------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class GatherPlan:
    """``out = take(x, index, axis)``; ``pattern`` (static) replaces the gather when regular."""

    axis: int = _static()
    pattern: tuple | None = _static(default=None)
    index: Any = None
    outside: Any = None
    strategy: str = _static(default="gather")


def index_pattern(index: np.ndarray, in_size: int) -> tuple | None:
    """``("repeat", k)`` if ``index == arange(out) // k``, ``("stride", start, k)`` if
    ``index == start + k * arange(out)`` (k >= 1), else ``None``."""
    out = index.shape[0]
    if out == 0:
        return None
    o = np.arange(out)
    if out % max(in_size, 1) == 0 and out >= in_size > 0:
        k = out // in_size
        if k > 1 and np.array_equal(index, o // k):
            return ("repeat", k)
    step = int(index[1] - index[0]) if out > 1 else 1
    if step >= 1 and np.array_equal(index, index[0] + step * o):
        return ("stride", int(index[0]), step)
    return None


def _prepare_gather(axis, record, cdtype):
    pattern = None
    if isinstance(record.index, np.ndarray) and record.outside is None:
        pattern = index_pattern(record.index, record.in_size)
    return GatherPlan(axis, pattern, record.index, record.outside)


def _apply_gather(y, plans, precision, nonfinite):
    (p,) = plans
    a, out = p.axis, p.index.shape[0]
    if p.pattern is not None and p.pattern[0] == "repeat":
        k = p.pattern[1]
        wide = lax.broadcast_in_dim(
            y, y.shape[: a + 1] + (k,) + y.shape[a + 1 :], tuple(range(a + 1)) + tuple(range(a + 2, y.ndim + 1))
        )
        return wide.reshape(y.shape[:a] + (out,) + y.shape[a + 1 :])
    if p.pattern is not None and p.pattern[0] == "stride":
        _, start, step = p.pattern
        return lax.slice_in_dim(y, start, start + step * (out - 1) + 1, step, axis=a)
    return jnp.take(y, p.index, axis=a, mode="clip")


register(
    Strategy("gather", lambda record, backend: isinstance(record, _weights.Gather), _prepare_gather, _apply_gather)
)


# --- dense -------------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class DensePlan:
    """``out = W @ x`` along ``axis``; ``matrix`` ``[out, in]``, or taps folded on the device."""

    axis: int = _static()
    in_size: int = _static()
    matrix: Any = None
    index: Any = None
    weight: Any = None
    outside: Any = None
    strategy: str = _static(default="dense")


def _dense_eligible(record, backend):
    return isinstance(record, _weights.Taps) and record.out_size * record.in_size <= MAX_DENSE_ELEMENTS


def _prepare_dense(axis, record, cdtype):
    if record.constant:
        matrix = _weights.taps_to_matrix(record.index, record.weight, record.in_size).astype(cdtype)
        return DensePlan(axis, record.in_size, matrix=matrix, outside=record.outside)
    return DensePlan(axis, record.in_size, index=record.index, weight=record.weight, outside=record.outside)


def _dot(y, matrix, axis: int, precision):
    """``out[..., o, ...] = sum_i W[o, i] * y[..., i, ...]`` along ``axis``; W: [out, in]."""
    out = lax.dot_general(
        y, matrix, (((axis,), (1,)), ((), ())), precision=precision, preferred_element_type=y.dtype
    )  # the new axis comes last
    return jnp.moveaxis(out, -1, axis)


def _dot_nonfinite(y, matrix, axis: int, precision):
    """Dense contraction in which NaN/Inf inputs reach only the outputs that weight them."""
    out = _dot(jnp.where(jnp.isfinite(y), y, 0), matrix, axis, precision)

    def hits(mask, w):
        return _dot(mask.astype(y.dtype), w.astype(y.dtype), axis, precision) > 0

    pos, neg, nonzero = matrix > 0, matrix < 0, matrix != 0
    nan, pinf, ninf = jnp.isnan(y), y == jnp.inf, y == -jnp.inf
    to_nan = hits(nan, nonzero)
    to_pinf = hits(pinf, pos) | hits(ninf, neg)
    to_ninf = hits(ninf, pos) | hits(pinf, neg)
    out = jnp.where(to_pinf, jnp.inf, jnp.where(to_ninf, -jnp.inf, out))
    return jnp.where(to_nan | (to_pinf & to_ninf), jnp.nan, out)


def _apply_dense(y, plans, precision, nonfinite):
    (p,) = plans
    matrix = p.matrix
    if matrix is None:  # traced taps: fold on the device (differentiable)
        matrix = _weights.taps_to_matrix(p.index, p.weight, p.in_size, xp=jnp)
    return (_dot_nonfinite if nonfinite else _dot)(y, matrix.astype(y.dtype), p.axis, precision)


register(Strategy("dense", _dense_eligible, _prepare_dense, _apply_dense))


# --- banded ------------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class BandedPlan:
    """Fused gathers; ``transpose_*`` are the host-transposed taps (``None`` for traced taps).
    With ``row_class`` (a :class:`~.weights.SharedBand` applied in a loop) ``index`` is the band's
    ``start [out]`` and ``weight`` its ``table [patterns, k]``."""

    axis: int = _static()
    index: Any = None
    weight: Any = None
    transpose_index: Any = None
    transpose_weight: Any = None
    outside: Any = None
    strategy: str = _static(default="banded")
    masked: tuple[bool, ...] | None = _static(default=None)  # zero_columns of weight / its transpose
    transpose_masked: tuple[bool, ...] | None = _static(default=None)
    lazy_transpose: _banded.LazyTranspose | None = _static(default=None)  # instead of transpose_*
    row_class: Any = None
    rows: bool = _static(default=False)  # reads the application's input (see first_pass)
    next_taps: int = _static(default=0)  # taps of the band reading its output (see first_pass)

    @property
    def taps(self) -> int:
        return int(self.weight.shape[1])

    @property
    def constant(self) -> bool:
        """Host taps (not traced)."""
        return self.transpose_index is not None or self.lazy_transpose is not None

    @property
    def fusable(self) -> bool:
        """Constant taps and no extrapolated rows: may share a pass with its neighbours."""
        return self.constant and self.outside is None and self.row_class is None


def _taps_eligible(record, backend):
    return isinstance(record, _weights.Taps)


#: From this many taps (``out * k``) a band's transposed taps are built only when a gradient
#: asks for them (:class:`~.banded.LazyTranspose`): extreme shrinks (10**6 -> 3) plan faster.
LAZY_TRANSPOSE_TAPS = 1 << 20


def _prepare_shared(axis, record, cdtype):
    """The plan of a :class:`~.weights.SharedBand` applied in a loop, without expanding its rows,
    or ``None`` (a band whose starts decrease: planned from the expanded taps)."""
    k_t = _banded.starts_width_transposed(record.start, record.width, record.in_size)
    if k_t is None:
        return None
    table = record.table.astype(cdtype)
    lazy = _banded.LazyTranspose(lambda: (record.index, table[record.row_class]), cdtype, record.in_size, k_t)
    return BandedPlan(
        axis,
        record.start.astype(np.int32),
        table,
        outside=record.outside,
        masked=_banded.zero_columns(table),
        lazy_transpose=lazy,
        row_class=record.row_class.astype(np.int32),
    )


def _prepare_banded(axis, record, cdtype):
    if not record.constant:
        return BandedPlan(axis, record.index, record.weight, outside=record.outside)
    if isinstance(record, _weights.SharedBand) and record.width > _banded.MAX_UNROLLED_TAPS:
        shared = _prepare_shared(axis, record, cdtype)
        if shared is not None:
            return shared
    k_t = (
        _banded.band_width_transposed(record.index, record.in_size)
        if record.out_size * record.width >= LAZY_TRANSPOSE_TAPS
        else None
    )
    if k_t is not None:
        weight = record.weight.astype(cdtype)
        lazy = _banded.LazyTranspose(lambda: (record.index, weight), cdtype, record.in_size, k_t)
        masked = _banded.zero_columns(weight)
        return BandedPlan(axis, record.index, weight, outside=record.outside, masked=masked, lazy_transpose=lazy)
    t_index, t_weight = _banded.transpose_taps(record.index, record.weight, record.in_size)
    weight, t_weight = record.weight.astype(cdtype), t_weight.astype(cdtype)  # zeros after the cast
    return BandedPlan(
        axis,
        record.index,
        weight,
        t_index,
        t_weight,
        record.outside,
        masked=_banded.zero_columns(weight),
        transpose_masked=_banded.zero_columns(t_weight),
    )


def without_masks(plan):
    """``plan`` for an input without NaN/Inf (integer input, and every pass after it): no tap
    column needs its zero weights skipped."""
    if isinstance(plan, BandedPlan) and plan.masked is not None:
        return dataclasses.replace(plan, masked=(False,) * len(plan.masked))
    return plan


def first_pass(plan, next_taps: int = 0):
    """``plan`` marked as reading the application's input, a row-major array: a constant band
    may then run as :func:`~.banded.row_loop` on CPU. Later passes read the previous pass's
    output, whose layout XLA chooses; a row loop there made XLA transpose that output
    (12 MP -> 768x1024 ``pil_bicubic``: 68 -> 133 ms). ``next_taps``: the taps of the band of the
    next pass (0: none), which decides where the loop pays
    (:func:`~.banded.row_loop_eligible`)."""
    if isinstance(plan, BandedPlan) and plan.fusable:
        return dataclasses.replace(plan, rows=True, next_taps=next_taps)
    return plan


def _linear_banded(plans):
    p = plans[0]
    if p.row_class is not None:  # a shared band (never fused)
        forward = _banded.SharedBanded(p.axis, p.masked)
        return forward, [p.index, p.row_class, p.weight], _banded.Banded((p.axis,), None), p.lazy_transpose.operands()
    axes = tuple(p.axis for p in plans)
    forward = _banded.Banded(axes, tuple(p.masked for p in plans), p.rows, p.next_taps)
    transposed = [
        p.lazy_transpose.operands() if p.lazy_transpose else (p.transpose_index, p.transpose_weight) for p in plans
    ]
    transpose = _banded.Banded(axes, tuple(p.transpose_masked for p in plans))
    return forward, [a for p in plans for a in (p.index, p.weight)], transpose, [a for pair in transposed for a in pair]


def _apply_banded(y, plans, precision, nonfinite):
    if not plans[0].constant:
        (p,) = plans
        return _banded.banded_traced(y, [(p.index, p.weight)], [p.axis])
    return _banded.linear_map(y, *_linear_banded(plans))


register(Strategy("banded", _taps_eligible, _prepare_banded, _apply_banded))


# --- wide filters ------------------------------------------------------------------------------

#: Taps per output from which ``"auto"`` applies a constant filter with the banded strategy
#: first (large antialiased shrinks: 3000 -> 224 bilinear has ~28 taps), whose first pass may
#: run as the CPU row loop; at 16 taps (4K uint8 x1/8 linear antialias) banded and polyphase
#: measured equal.
WIDE_MIN_TAPS = 12


def wide(record) -> bool:
    """A constant filter with at least :data:`WIDE_MIN_TAPS` taps per output."""
    return isinstance(record, _weights.Taps) and record.constant and record.width >= WIDE_MIN_TAPS


# --- polyphase ---------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class PolyphaseApplyPlan:
    """A :class:`~.polyphase.PolyphasePlan` (static) with its weights ``[L, K, Q]`` (empty when
    every term is a scalar) and the transposed taps for the derivative."""

    axis: int = _static()
    plan: _polyphase.PolyphasePlan = _static()
    weight: Any = None
    transpose_index: Any = None
    transpose_weight: Any = None
    outside: Any = None
    strategy: str = _static(default="polyphase")


def _polyphase_eligible(record, backend):
    return isinstance(record, _weights.Taps) and record.constant


def _prepare_polyphase(axis, record, cdtype):
    found = _polyphase.polyphase_plan(record.index, record.weight, record.in_size)
    if found is None:
        return None
    plan, w = found
    w = w.astype(cdtype) if plan.uses_weights else np.zeros((0,), cdtype)  # scalar terms only
    t_index, t_weight = _banded.transpose_taps(record.index, record.weight, record.in_size)
    return PolyphaseApplyPlan(axis, plan, w, t_index, t_weight.astype(cdtype), record.outside)


def _linear_polyphase(plans):
    (p,) = plans
    forward = _polyphase.Polyphase(p.plan, p.axis)
    return forward, [p.weight], _banded.Banded((p.axis,)), [p.transpose_index, p.transpose_weight]


def _apply_polyphase(y, plans, precision, nonfinite):
    return _banded.linear_map(y, *_linear_polyphase(plans))


register(Strategy("polyphase", _polyphase_eligible, _prepare_polyphase, _apply_polyphase))


def reads_integers(plan) -> bool:
    """Whether ``plan`` as an application's first pass reads integer input as it is, converting
    inside its fused loop (constant banded taps and polyphase plans; dense contractions and traced
    taps take a float copy first)."""
    return isinstance(plan, PolyphaseApplyPlan) or (isinstance(plan, BandedPlan) and plan.constant)


# --- choosing ----------------------------------------------------------------------------------

#: What each requested strategy tries, in order, for a filter record; ``"auto"`` depends on the
#: backend (matmul units on TPU make dense cheap; elsewhere slices and gathers do less work).
FALLBACKS = {
    "dense": ("dense",),
    "banded": ("banded",),
    "polyphase": ("polyphase", "banded"),
    "auto": ("polyphase", "banded"),
    "auto@wide": ("banded",),  # constant filters of >= WIDE_MIN_TAPS taps
    "auto@tpu": ("dense", "polyphase", "banded"),
}
#: Accepted values of the ``strategy=`` argument of the front ends.
STRATEGY_NAMES = ("auto", "dense", "banded", "polyphase")


def plan(axis: int, record, requested: str = "auto", cdtype=np.float32, backend: str | None = None):
    """The plan of one record: the first strategy of ``FALLBACKS[requested]`` that is eligible
    and does not decline.

    Raises:
      ValueError: ``"dense"`` requested for a matrix above ``MAX_DENSE_ELEMENTS`` (an error rather
        than an out-of-memory).
    """
    if isinstance(record, _weights.Gather):
        return _prepare_gather(axis, record, cdtype)
    if requested == "auto" and (backend or jax.default_backend()) == "tpu":
        requested = "auto@tpu"
    elif requested == "auto" and wide(record):
        requested = "auto@wide"
    for name in FALLBACKS[requested]:
        strategy = STRATEGIES[name]
        if strategy.eligible(record, backend):
            found = strategy.prepare(axis, record, cdtype)
            if found is not None:
                return found
    if requested == "dense":
        raise ValueError(
            f"strategy='dense' would build a {record.out_size}x{record.in_size} weight matrix "
            f"({record.out_size * record.in_size} > MAX_DENSE_ELEMENTS = {MAX_DENSE_ELEMENTS}); "
            "use strategy='banded' or 'auto'."
        )
    raise AssertionError(f"no strategy applies to {record!r}")  # banded accepts every Taps


def linear(plans):
    """``(forward, operands, transpose, t_operands)`` of a pass that is one map of
    :data:`~.banded.linear_map_p` with constant operands (constant bands and polyphase plans), or
    ``None`` (traced taps, dense contractions, gathers)."""
    p = plans[0]
    if isinstance(p, BandedPlan) and p.constant:
        return _linear_banded(plans)
    if isinstance(p, PolyphaseApplyPlan):
        return _linear_polyphase(plans)
    return None


def chain(y, groups):
    """Applies consecutive passes, each :func:`linear`, as one map (:class:`~.chain.Chain`: on CPU
    in blocks of the first pass's output rows when that output is large)."""
    parts = [linear(g) for g in groups]
    forward = _chain.Chain(tuple(f for f, *_ in parts), tuple(len(ops) for _, ops, _, _ in parts))
    transpose = _chain.Chain(tuple(t for *_, t, _ in parts[::-1]), tuple(len(t_ops) for *_, t_ops in parts[::-1]))
    operands = [a for _, ops, _, _ in parts for a in ops]
    t_operands = [a for *_, t_ops in parts[::-1] for a in t_ops]
    return _banded.linear_map(y, forward, operands, transpose, t_operands)


def apply_group(y, plans, precision, nonfinite: bool):
    """Applies a group of plans (one plan, or consecutive fusable banded plans) to ``y``."""
    return STRATEGIES[plans[0].strategy].apply(y, plans, precision, nonfinite)


def mask_rows(y, outside, axis: int, fill):
    """Rows of ``axis`` flagged ``outside`` take ``fill``."""
    return jnp.where(outside.reshape(_axis_shape(y.ndim, axis, outside.shape[0])), jnp.asarray(fill, y.dtype), y)
