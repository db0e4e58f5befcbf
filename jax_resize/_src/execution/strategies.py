"""Strategies: how one axis's record becomes a plan, and how a pass of plans is applied.

Contract: a :class:`Strategy` is ``(eligible, prepare, apply)``:

* ``eligible(record, tuning) -> bool`` — a cheap static test (e.g. the dense matrix fits);
* ``prepare(axis, record, cdtype, tuning) -> plan | None`` — host work done once per call (the
  dense matrix, the transposed taps, the polyphase tables, an index pattern), weights cast to the
  compute dtype; ``None`` declines and the next strategy is tried;
* ``apply(y, plans, precision, nonfinite, tuning) -> y`` — the traced code of one pass (several
  plans only for fusable bands).

:data:`STRATEGIES` registers ``gather`` (:class:`~..records.Gather` records), ``dense``, ``banded``
and ``polyphase`` (:class:`~..records.Taps`); :func:`plan` walks the order that
:func:`.decide.strategies` gives. Plans are pytrees (arrays are leaves, the rest static) and
expose capabilities (:class:`Capabilities`) that :mod:`.decide` and :mod:`.apply` read instead of
telling plan classes apart. Dense NaN/Inf locality: with ``nonfinite`` the finite part is
contracted and the non-finite outputs are rebuilt from matmuls of the NaN/+Inf/-Inf masks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import records as _records
from ..host import HOST
from . import banded as _banded
from . import decide as _decide
from . import polyphase as _polyphase
from . import transpose as _transpose
from .chain import Chain
from .primitive import linear_map
from .tuning import Tuning, tuning_for


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


class Capabilities:
    """What a plan can do, read by :mod:`.decide` and :mod:`.apply` (defaults: none of it):
    ``fusable`` (may share a pass with neighbouring bands), ``linear`` (one constant linear map:
    may join a chain), ``gathers`` (copies, no arithmetic), ``reads_integers`` (converts integer
    input inside its fused loop), ``matmul`` (a NaN spreads along its row unless masked),
    ``default_compiler`` (keeps XLA's default options), ``fetch_all`` (every array kept opaque
    inside a caller's trace), ``taps`` (per output; 0: not a band)."""

    fusable = False
    linear = False
    gathers = False
    reads_integers = False
    matmul = False
    default_compiler = False
    fetch_all = False
    taps = 0

    def without_masks(self):
        """The plan for an input without NaN/Inf (no zero weight needs skipping)."""
        return self

    def as_first_pass(self, next_taps: int):
        """The plan marked as reading the row-major input (see :func:`.decide.first_pass`)."""
        return self


def _axis_shape(ndim: int, axis: int, length: int) -> list[int]:
    shape = [1] * ndim
    shape[axis] = length
    return shape


# --- gather ------------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class GatherPlan(Capabilities):
    """``out = take(x, index, axis)``; ``pattern`` (static) replaces the gather when regular."""

    axis: int = _static()
    pattern: tuple | None = _static(default=None)
    index: Any = None
    outside: Any = None
    strategy: str = _static(default="gather")
    gathers = True


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


def _prepare_gather(axis, record, cdtype, tuning):
    pattern = None
    if isinstance(record.index, np.ndarray) and record.outside is None:
        pattern = index_pattern(record.index, record.in_size)
    return GatherPlan(axis, pattern, record.index, record.outside)


def _apply_gather(y, plans, precision, nonfinite, tuning):
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


register(Strategy("gather", lambda record, tuning: isinstance(record, _records.Gather), _prepare_gather, _apply_gather))


# --- dense -------------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class DensePlan(Capabilities):
    """``out = W @ x`` along ``axis``. ``W`` ``[out, in]`` is built on the device: from its band
    (``start [out]``, ``band [out, width]``: ``W[o, start[o] + j] = band[o, j]``, the host matrix's
    entries, so the plan holds outputs x width values, never outputs x inputs), or from traced taps."""

    axis: int = _static()
    in_size: int = _static()
    start: Any = None
    band: Any = None
    index: Any = None
    weight: Any = None
    outside: Any = None
    strategy: str = _static(default="dense")
    matmul = True


def _dense_eligible(record, tuning):
    return isinstance(record, _records.Taps) and _decide.dense_fits(record)


def _prepare_dense(axis, record, cdtype, tuning):
    if record.constant:
        start, band = _records.matrix_band(record.index, record.weight)
        return DensePlan(axis, record.in_size, start=start, band=band.astype(cdtype), outside=record.outside)
    return DensePlan(axis, record.in_size, index=record.index, weight=record.weight, outside=record.outside)


def _band_matrix(start, band, in_size: int):
    """``W [out, in_size]`` of a band: an iota comparison and a gather XLA fuses (exact: each entry
    is one band value or 0)."""
    width = band.shape[1]
    j = jnp.arange(in_size, dtype=start.dtype)[None, :] - start[:, None]
    inside = (j >= 0) & (j < width)
    return jnp.where(inside, jnp.take_along_axis(band, jnp.clip(j, 0, width - 1), axis=1), 0).astype(band.dtype)


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


def _apply_dense(y, plans, precision, nonfinite, tuning):
    (p,) = plans
    if p.band is not None:
        matrix = _band_matrix(p.start, p.band, p.in_size)
    else:  # traced taps: fold on the device (differentiable)
        matrix = _records.taps_to_matrix(p.index, p.weight, p.in_size, xp=jnp)
    return (_dot_nonfinite if nonfinite else _dot)(y, matrix.astype(y.dtype), p.axis, precision)


register(Strategy("dense", _dense_eligible, _prepare_dense, _apply_dense))


# --- banded ------------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class BandedPlan(Capabilities):
    """Fused gathers; ``transpose_*`` are the host-transposed taps (``None`` for traced taps).
    With ``row_class`` (a :class:`~..records.SharedBand` applied in a loop) ``index`` is the band's
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
    lazy_transpose: _transpose.LazyTranspose | None = _static(default=None)  # instead of transpose_*
    row_class: Any = None
    rows: bool = _static(default=False)  # reads the application's input (decide.first_pass)
    next_taps: int = _static(default=0)  # taps of the band reading its output (decide.first_pass)
    loop: bool | None = _static(default=None)  # a shared program's band: its own row-loop choice
    chains: int | None = _static(default=None)  # a shared program's band: its own band's partial sums

    @property
    def taps(self) -> int:  # type: ignore[override]
        return int(self.weight.shape[1])

    @property
    def constant(self) -> bool:
        """Host taps (not traced)."""
        return self.transpose_index is not None or self.lazy_transpose is not None

    @property
    def fusable(self) -> bool:  # type: ignore[override]
        return self.constant and self.outside is None and self.row_class is None

    @property
    def linear(self) -> bool:  # type: ignore[override]
        return self.constant

    @property
    def reads_integers(self) -> bool:  # type: ignore[override]
        return self.constant

    @property
    def fetch_all(self) -> bool:  # type: ignore[override]
        return self.row_class is not None

    def without_masks(self):
        if self.masked is None:
            return self
        return dataclasses.replace(self, masked=(False,) * len(self.masked))

    def as_first_pass(self, next_taps: int):
        return dataclasses.replace(self, rows=True, next_taps=next_taps)


def _taps_eligible(record, tuning):
    return isinstance(record, _records.Taps)


def _prepare_shared(axis, record, cdtype, tuning):
    """The plan of a :class:`~..records.SharedBand` applied in a loop, without expanding its rows,
    or ``None`` (a band whose starts decrease: planned from the expanded taps)."""
    k_t = _transpose.starts_width_transposed(record.start, record.width, record.in_size)
    if k_t is None:
        return None
    table = record.table.astype(cdtype)
    lazy = _transpose.LazyTranspose(lambda: (record.index, table[record.row_class]), cdtype, record.in_size, k_t)
    return BandedPlan(
        axis,
        record.start.astype(np.int32),
        table,
        outside=record.outside,
        masked=_banded.zero_columns(table, tuning),
        lazy_transpose=lazy,
        row_class=record.row_class.astype(np.int32),
    )


def _prepare_banded(axis, record, cdtype, tuning):
    if not record.constant:
        return BandedPlan(axis, record.index, record.weight, outside=record.outside)
    if isinstance(record, _records.SharedBand) and not _decide.unrolled(record.width, tuning):
        shared = _prepare_shared(axis, record, cdtype, tuning)
        if shared is not None:
            return shared
    k_t = _transpose.band_width_transposed(record.index, record.in_size) if _decide.lazy_transpose(record) else None
    if k_t is not None:
        weight = record.weight.astype(cdtype)
        lazy = _transpose.LazyTranspose(lambda: (record.index, weight), cdtype, record.in_size, k_t)
        masked = _banded.zero_columns(weight, tuning)
        return BandedPlan(axis, record.index, weight, outside=record.outside, masked=masked, lazy_transpose=lazy)
    t_index, t_weight = _transpose.transpose_taps(record.index, record.weight, record.in_size)
    weight, t_weight = record.weight.astype(cdtype), t_weight.astype(cdtype)  # zeros after the cast
    return BandedPlan(
        axis,
        record.index,
        weight,
        t_index,
        t_weight,
        record.outside,
        masked=_banded.zero_columns(weight, tuning),
        transpose_masked=_banded.zero_columns(t_weight, tuning),
    )


def _linear_banded(plans, tuning):
    p = plans[0]
    if p.row_class is not None:  # a shared band (never fused)
        forward = _banded.SharedBanded(p.axis, p.masked, tuning)
        transpose = _banded.Banded((p.axis,), None, tuning=tuning)
        return forward, [p.index, p.row_class, p.weight], transpose, _transpose.HostOperands([p.lazy_transpose])
    axes = tuple(p.axis for p in plans)
    forward = _banded.Banded(axes, tuple(p.masked for p in plans), p.rows, p.next_taps, tuning, p.loop, p.chains)
    transposed = [p.lazy_transpose or (p.transpose_index, p.transpose_weight) for p in plans]
    widths = [p.lazy_transpose.k_t if p.lazy_transpose else int(p.transpose_weight.shape[1]) for p in plans]
    runs = _decide.fused_runs(widths, tuning)
    parts = tuple(
        _banded.Banded(tuple(axes[i] for i in run), tuple(plans[i].transpose_masked for i in run), tuning=tuning)
        for run in runs
    )
    transpose = parts[0] if len(parts) == 1 else Chain(parts, tuple(2 * len(run) for run in runs), tuning)
    operands = [a for p in plans for a in (p.index, p.weight)]
    if any(p.lazy_transpose for p in plans):  # built when a gradient is traced, not by the plan
        return forward, operands, transpose, _transpose.HostOperands(transposed)
    return forward, operands, transpose, [a for pair in transposed for a in pair]


def _apply_banded(y, plans, precision, nonfinite, tuning):
    if not plans[0].constant:
        (p,) = plans
        return _banded.banded_traced(y, [(p.index, p.weight)], [p.axis], tuning=tuning)
    return linear_map(y, *_linear_banded(plans, tuning))


register(Strategy("banded", _taps_eligible, _prepare_banded, _apply_banded))


# --- polyphase ---------------------------------------------------------------------------------


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class PolyphaseApplyPlan(Capabilities):
    """A :class:`~.polyphase.PolyphasePlan` (static) with its weights ``[L, K, Q]`` (empty when
    every term is a scalar) and the transposed taps for the derivative."""

    axis: int = _static()
    plan: _polyphase.PolyphasePlan = _static()
    weight: Any = None
    transpose_index: Any = None
    transpose_weight: Any = None
    outside: Any = None
    strategy: str = _static(default="polyphase")
    linear = True
    reads_integers = True
    default_compiler = True  # its interleaving runs faster on XLA's fusion emitters


def _polyphase_eligible(record, tuning):
    return isinstance(record, _records.Taps) and record.constant


def _prepare_polyphase(axis, record, cdtype, tuning):
    found = _polyphase.polyphase_plan(record.index, record.weight, record.in_size, tuning)
    if found is None:
        return None
    plan, w = found
    w = w.astype(cdtype) if plan.uses_weights else np.zeros((0,), cdtype)  # scalar terms only
    t_index, t_weight = _transpose.transpose_taps(record.index, record.weight, record.in_size)
    return PolyphaseApplyPlan(axis, plan, w, t_index, t_weight.astype(cdtype), record.outside)


def _linear_polyphase(plans, tuning):
    (p,) = plans
    forward = _polyphase.Polyphase(p.plan, p.axis, tuning)
    return forward, [p.weight], _banded.Banded((p.axis,), tuning=tuning), [p.transpose_index, p.transpose_weight]


def _apply_polyphase(y, plans, precision, nonfinite, tuning):
    return linear_map(y, *_linear_polyphase(plans, tuning))


register(Strategy("polyphase", _polyphase_eligible, _prepare_polyphase, _apply_polyphase))

# --- bucketed (execution/buckets.py) -------------------------------------------------------------


def _prepare_bucketed(axis, record, cdtype, tuning):
    """A padded record's plan, its static fields functions of its shapes only: a gather without
    index pattern, or a band with every tap column masked (the padded taps' zeros). No transposed
    taps: only concrete inputs are bucketed, so no derivative is ever taken of this plan."""
    if isinstance(record, _records.Gather):
        return GatherPlan(axis, None, record.index, record.outside)
    k = record.width
    masked = (True,) * k if _decide.unrolled(k, tuning) else (True,)
    empty = np.zeros((0, 0), np.int32), np.zeros((0, 0), cdtype)
    return BandedPlan(axis, record.index, record.weight.astype(cdtype), *empty, record.outside, masked=masked)


register(Strategy("bucketed", lambda record, tuning: True, _prepare_bucketed, _apply_banded))


def like_own(shared, own, loops: bool, tuning: Tuning, *, integer_input: bool):
    """A shared program's plans (one per plan of the call's own, ``own``) that keep the own
    arithmetic: a band masks the tap columns its own plan masks (and its padded columns: they may
    read a NaN), sums in its own band's partial sums (:func:`.banded.sum_terms` on its own taps) and
    its first pass takes the own row-loop choice ``loops`` — each changes which products XLA
    contracts into multiply-adds. Integer input masks nothing (it has no NaN), so its bands keep
    one mask pattern: one program for every pattern of zero weights."""
    out = []
    for s, o in zip(shared, own):
        if isinstance(s, BandedPlan):
            masked, own_masks = s.masked, None if integer_input else getattr(o, "masked", None)
            if own_masks is not None and len(own_masks) == o.taps and len(masked or ()) == s.taps:  # both unrolled
                masked = own_masks + (True,) * (s.taps - o.taps)
            padded = isinstance(o, BandedPlan) and s.taps != o.taps  # alone in its pass (buckets.shared)
            chains = 1 if padded and o.taps < 2 * tuning.sum_chains else None
            s = dataclasses.replace(s, masked=masked, loop=loops, chains=chains)
        out.append(s)
    return out


#: The ``(forward, operands, transpose, t_operands)`` of a linear pass, per strategy.
_LINEAR_PARTS = {"banded": _linear_banded, "polyphase": _linear_polyphase}


# --- choosing and applying ---------------------------------------------------------------------


def plan(axis: int, record, requested: str = "auto", cdtype=np.float32, tuning: Tuning | None = None):
    """The plan of one record: the first strategy of :func:`.decide.strategies` that is eligible
    and does not decline (``tuning``: the backend's row, default the default backend's).

    Raises:
      ValueError: ``"dense"`` requested for a matrix above ``HOST.max_dense_elements`` (an error
        rather than an out-of-memory).
    """
    if tuning is None:
        tuning = tuning_for(jax.default_backend())
    for name in _decide.strategies(record, requested, tuning):
        strategy = STRATEGIES[name]
        if strategy.eligible(record, tuning):
            found = strategy.prepare(axis, record, cdtype, tuning)
            if found is not None:
                return found
    if requested == "dense":
        raise ValueError(
            f"strategy='dense' would build a {record.out_size}x{record.in_size} weight matrix "
            f"({record.out_size * record.in_size} > HOST.max_dense_elements = {HOST.max_dense_elements}); "
            "use strategy='banded' or 'auto'."
        )
    raise AssertionError(f"no strategy applies to {record!r}")  # banded accepts every Taps


def chain(y, passes, tuning: Tuning):
    """Applies consecutive linear passes as one map (:class:`~.chain.Chain`)."""
    parts = [_LINEAR_PARTS[g[0].strategy](g, tuning) for g in passes]
    forward = Chain(tuple(f for f, *_ in parts), tuple(len(ops) for _, ops, _, _ in parts), tuning)
    t_parts = [t_ops for *_, t_ops in parts[::-1]]
    transpose = Chain(tuple(t for *_, t, _ in parts[::-1]), tuple(len(t_ops) for t_ops in t_parts), tuning)
    operands = [a for _, ops, _, _ in parts for a in ops]
    if any(callable(t_ops) for t_ops in t_parts):  # a lazy transpose among them: all built later
        pairs = (t_ops.sources if callable(t_ops) else zip(t_ops[::2], t_ops[1::2]) for t_ops in t_parts)
        return linear_map(y, forward, operands, transpose, _transpose.HostOperands([s for p in pairs for s in p]))
    return linear_map(y, forward, operands, transpose, [a for t_ops in t_parts for a in t_ops])


def apply_pass(y, plans, precision, nonfinite: bool, tuning: Tuning):
    """Applies one pass (one plan, or consecutive fusable bands) with its strategy."""
    return STRATEGIES[plans[0].strategy].apply(y, plans, precision, nonfinite, tuning)


def mask_rows(y, outside, axis: int, fill):
    """Rows of ``axis`` flagged ``outside`` take ``fill``."""
    return jnp.where(outside.reshape(_axis_shape(y.ndim, axis, outside.shape[0])), jnp.asarray(fill, y.dtype), y)
