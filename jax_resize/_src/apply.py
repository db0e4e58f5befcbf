"""Layer 3 — apply: per-axis records -> the output array, in one jitted application.

Contract: :func:`run` takes ``x`` and ``(axis, record)`` pairs (:class:`~.weights.Gather` /
:class:`~.weights.Taps`), prepares one plan per axis with the strategy registry
(:mod:`.strategies`: dense, banded, polyphase, gather), and calls :data:`apply`, a single jitted
function of ``x`` and the plans (weights are arguments, not constants: one compilation per
structure and shapes) that

* applies the axes in the order of least modelled work (:func:`pass_order`: output elements x
  taps per pass, gathers along short contiguous runs costed higher), fusing consecutive banded
  axes whose tap counts multiply to at most ``FUSE_MAX_TAPS`` into one pass;
* computes in the compute dtype of :mod:`.dtypes` (complex: real and imaginary parts apart); a
  constant banded or a polyphase first pass reads integer input as it is (no float copy of the
  input);
* fills rows flagged ``outside`` with ``extrapolation_value``;
* returns to integer dtypes with the :class:`~.rounding.IntegerPolicy` given — once at the end
  (default: half to even, saturated), or after every pass in the order given (``per_pass``,
  ``fixed_point_bits``: the weights are then split for exact fixed-point arithmetic here).

Gathers never pass through float arithmetic (bit exact for every dtype). NaN/Inf locality: a
non-finite input only affects outputs whose filter gives it a non-zero weight (``banded`` and
``polyphase`` skip zero weights; ``dense`` switches to a mask-aware contraction under a
``lax.cond`` when the input has a non-finite value).

Host planning is cached: constant records (memoised by the front ends' record builders) map to
their plans, weights already on the device, in a bounded LRU (``PLAN_CACHE_SIZE``).

Everything is a pure function of its array arguments, so ``jit``, ``vmap`` and ``grad`` (with
respect to ``x`` and to traced weights) work through it.
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Sequence
from typing import cast

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import dtypes as _dtypes
from . import rounding as _rounding
from . import strategies as _strategies
from . import validation as _v
from . import weights as _weights

#: Banded axes are fused into one pass (no intermediate arrays) while the product of their tap
#: counts is at most this; beyond it separate passes do less arithmetic.
FUSE_MAX_TAPS = 16


def _groups(plans, separate: bool):
    """Splits the plans into passes: consecutive fusable banded plans share one pass while the
    product of their tap counts stays <= ``FUSE_MAX_TAPS`` (never when ``separate``)."""
    groups: list[list] = []
    taps = 0
    for p in plans:
        fusable = not separate and isinstance(p, _strategies.BandedPlan) and p.fusable
        if fusable and groups and groups[-1][-1][1] and taps * p.taps <= FUSE_MAX_TAPS:
            groups[-1].append((p, True))
            taps *= p.taps
        else:
            groups.append([(p, fusable)])
            taps = p.taps if fusable else 0
    return [[p for p, _ in group] for group in groups]


def _next_band_taps(groups) -> int:
    """The taps of the band that reads the first pass's output: the product of the second pass's
    tap counts when the first pass is one plan and the second pass constant bands; else 0."""
    if len(groups) < 2 or len(groups[0]) != 1:
        return 0
    if not all(isinstance(p, _strategies.BandedPlan) and p.fusable for p in groups[1]):
        return 0
    return int(np.prod([p.taps for p in groups[1]]))


def _chained(groups) -> int:
    """How many leading passes run as one :func:`~.strategies.chain`: the longest prefix of passes
    that are each one constant linear map without extrapolated rows, if at least two (else 0)."""
    n = 0
    while n < len(groups) and _strategies.linear(groups[n]) is not None and all(p.outside is None for p in groups[n]):
        n += 1
    return n if n >= 2 else 0


def _apply(x, plans, *, extrapolation_value, precision, integer, fixed_shifts, dtype=None, local_nonfinite=True):
    """The jitted application (see the module docstring); ``fixed_shifts[i]`` is the split ``b``
    of plan ``i`` under a fixed-point policy (``INT32`` for exact int32 arithmetic, else
    ``None``); ``dtype`` the output dtype (``None``: ``x``'s); ``local_nonfinite=False`` lets
    dense contractions spread NaN/Inf as a plain matmul does (no ``lax.cond``, which ``vmap``
    turns into both branches)."""
    dtype = np.dtype(dtype or x.dtype)
    if all(isinstance(p, _strategies.GatherPlan) for p in plans):
        fill = _rounding.scalar_as(extrapolation_value, x.dtype)
        for p in plans:
            x = _strategies.apply_group(x, [p], precision, False)
            if p.outside is not None:
                x = _strategies.mask_rows(x, p.outside, p.axis, fill)
        return x.astype(dtype)
    if jnp.iscomplexobj(x):
        kw = dict(precision=precision, integer=integer, fixed_shifts=fixed_shifts, local_nonfinite=local_nonfinite)
        real = _apply(jnp.real(x), plans, extrapolation_value=extrapolation_value, **kw)
        imag = _apply(jnp.imag(x), plans, extrapolation_value=0.0, **kw)
        return lax.complex(real, imag).astype(x.dtype)
    if x.dtype.kind in "biu":  # no NaN/Inf can arise from integer input: no zero weight to skip
        plans = [_strategies.without_masks(p) for p in plans]
    integral = dtype.kind in "iu"
    passes = integral and integer.passes
    groups = _groups(plans, separate=passes)
    groups[0][0] = _strategies.first_pass(groups[0][0], _next_band_taps(groups))
    int32 = passes and INT32 in fixed_shifts  # exact fixed point in int32 (every pass)
    cdtype = np.dtype(np.int32) if int32 else _dtypes.compute_dtype(dtype)

    chained = 0 if passes else _chained(groups)

    def fill_outside(y, group):  # the fill is in output units: after any fixed-point rounding
        for p in group:
            if p.outside is not None:
                y = _strategies.mask_rows(y, p.outside, p.axis, extrapolation_value)
        return y

    def run_all(y, nonfinite):
        if chained:
            y = _strategies.chain(y, groups[:chained])
        for i, group in enumerate(groups):
            if i < chained:
                continue
            y = _strategies.apply_group(y, group, precision, nonfinite)
            if passes:
                (p,) = group  # one plan per pass: group i is plan i
                b = fixed_shifts[i]
                bits = integer.fixed_point_bits
                info = np.iinfo(dtype)
                if b == INT32:  # (2**(bits-1) + sum(x * k)) >> bits, an arithmetic shift
                    y = jnp.clip((y + (1 << (bits - 1))) >> bits, info.min, info.max)
                elif b is not None:
                    y = _rounding.combine_fixed_point(
                        y, axis=p.axis, b=b, bits=bits, lo=float(info.min), hi=float(info.max)
                    )
                elif jnp.issubdtype(y.dtype, jnp.integer):  # a gather between int32 passes
                    y = jnp.clip(y, info.min, info.max)
                else:
                    y = _rounding.round_clip(y, dtype, integer.rounding)
            y = fill_outside(y, group)
        # a later pass filters the rows an earlier pass filled, with weights that sum to 1 only up
        # to rounding: fill them again, so an output outside the input on any axis is the fill
        for group in groups[:-1]:
            y = fill_outside(y, group)
        return y

    # a constant banded or a polyphase first pass reads integer input as it is and converts
    # inside its fused loop: no float copy of the whole input is written (12 MP uint8 -> 224 with
    # auto: 93-111 ms -> 41-42 ms, measured standalone)
    reads_integers = _strategies.reads_integers(plans[0])
    y = x if x.dtype.kind in "iu" and reads_integers else x.astype(cdtype)
    dense = any(isinstance(p, _strategies.DensePlan) for p in plans)
    if dense and local_nonfinite and jnp.issubdtype(y.dtype, jnp.floating):
        y = lax.cond(jnp.all(jnp.isfinite(y)), lambda v: run_all(v, False), lambda v: run_all(v, True), y)
    else:
        y = run_all(y, False)
    return _rounding.to_output(y, dtype, integer.rounding)


_STATIC = ("extrapolation_value", "precision", "integer", "fixed_shifts", "dtype", "local_nonfinite")
apply = jax.jit(_apply, static_argnames=_STATIC)

#: XLA options of an eager call's own compilation on CPU, for programs without a polyphase
#: plan. XLA's older loop emitters (``xla_cpu_use_fusion_emitters=False``) compile this program
#: in 43-75 % of the time of the default fusion emitters and run it about as fast. Measured
#: in one process, alternately (2-core CPU): 300x317 -> 224 uint8 linear antialias compiles in
#: 0.100 s instead of 0.163 s; 12 MP -> 224 ``pil_bilinear`` in 0.30 s instead of 0.49 s and runs
#: in 38 ms instead of 55 ms. Polyphase plans keep XLA's defaults: their interleaving fusion ran
#: 1.2-1.4x slower on the older emitters (x2 upsampling). Float results may differ from the
#: default compilation in the last bit; integer results were equal over 480 drawn cases. Inside a
#: caller's ``jit`` the caller's options rule.
EAGER_CPU_COMPILER_OPTIONS = {"xla_cpu_use_fusion_emitters": False}
_apply_eager_cpu: Callable | None
try:
    _apply_eager_cpu = jax.jit(_apply, static_argnames=_STATIC, compiler_options=EAGER_CPU_COMPILER_OPTIONS)
except TypeError:  # a jax without per-function compiler options
    _apply_eager_cpu = None


def _top_level() -> bool:
    """Whether no trace is active: a concrete ``x`` can still be resized inside a caller's ``jit``
    (a closed-over array), where a ``jit`` with its own compiler options may not be called."""
    from jax._src import core  # no public equivalent; without it, eager calls keep XLA's defaults

    clean = getattr(core, "trace_state_clean", None)
    return clean is not None and bool(clean())


def _eager(x, plans, **static):
    """:data:`apply` for a concrete ``x``, compiled with ``EAGER_CPU_COMPILER_OPTIONS`` on CPU
    unless a plan is polyphase or a trace is active (falls back to the default options, once and
    for all, on an XLA that does not know them)."""
    global _apply_eager_cpu
    polyphase = any(isinstance(p, _strategies.PolyphaseApplyPlan) for p in plans)
    if _apply_eager_cpu is None or polyphase or jax.default_backend() != "cpu" or not _top_level():
        return apply(x, plans, **static)
    try:
        return _apply_eager_cpu(x, plans, **static)
    except Exception as error:  # only an unknown-option error is swallowed
        if not any(name in str(error) for name in EAGER_CPU_COMPILER_OPTIONS):
            raise
        _apply_eager_cpu = None
        return apply(x, plans, **static)


#: ``fixed_shifts`` marker: the pass runs in exact int32 arithmetic (:func:`_int32_fixed_point`).
INT32 = "int32"


def _int32_fixed_point(record, bits: int, max_input: float):
    """The record with integer-valued weights ``k = w * 2**bits`` when ``sum(x * k) + 2**(bits-1)``
    fits int32 for ``0 <= |x| <= max_input`` (then int32 arithmetic is exact: the integer paths'
    own rule for 8-bit images: a 32-bit accumulator), else ``None``. No float split, no float copy."""

    def fixed(weight):
        k = np.asarray(weight, np.float64) * float(1 << bits)
        np.rint(k, out=k)  # in place: plans of 10**7 taps
        return k

    exact = record.map_weights(fixed)  # a shared band's patterns, not its expanded rows
    k = exact.table if isinstance(exact, _weights.SharedBand) else exact.weight
    bound = max_input * float(np.abs(k).sum(axis=1).max(initial=0.0)) + float(1 << (bits - 1))
    return None if bound >= 2.0**31 else exact


#: Modelled cost of one tap on an axis whose contiguous run (elements after it) is shorter than
#: ``SHORT_RUN``, relative to one on an outer axis, where a gather copies a contiguous row and
#: vectorises. Measured on a 12 MP uint8 RGB photo -> 224: the height pass (runs of 12000)
#: 0.21 ns per tap and output, the width pass (runs of 3) 0.52 ns.
SHORT_RUN_COST = 2.5
SHORT_RUN = 16
#: Up to this many resampled axes every pass order is costed; beyond it shrink-first is used.
MAX_COSTED_AXES = 4


def _order(pair):
    """Shrink first: the axis with the smallest out/in ratio is applied first. Between equal
    upsampling ratios the inner axis goes first: its output interleaves the shortest runs, so it
    should write the smaller array (bilinear x2 NHWC: W then H measured ~15% faster)."""
    axis, record = pair
    ratio = record.out_size / max(record.in_size, 1)
    return (ratio, -axis if ratio > 1 else axis)


def _work(ops, shape, dense: bool) -> float:
    """Modelled work of applying ``ops`` in this order to an array of ``shape``: per pass, output
    elements x taps (``in_size`` for dense matrices), gathers along short-run axes weighted by
    ``SHORT_RUN_COST``."""
    shape = list(shape)
    total = 0.0
    for axis, record in ops:
        shape[axis] = record.out_size
        if isinstance(record, _weights.Taps):
            taps = record.in_size if dense else record.width
        else:
            taps = 1
        run = int(np.prod(shape[axis + 1 :], dtype=np.float64))
        short = not dense and run < SHORT_RUN  # a matmul does not gather
        total += float(np.prod(shape, dtype=np.float64)) * taps * (SHORT_RUN_COST if short else 1.0)
    return total


def pass_order(ops, shape, dense: bool = False) -> list:
    """The order of least modelled work (:func:`_work`); ties keep the shrink-first order
    (:func:`_order`). More than ``MAX_COSTED_AXES`` axes: shrink-first."""
    ops = sorted(ops, key=_order)
    if len(ops) > MAX_COSTED_AXES:
        return ops
    return list(min(itertools.permutations(ops), key=lambda perm: _work(perm, shape, dense)))


def _split_fixed_point(record, bits: int, max_input: float):
    """A fixed-point record as stacked ``[kh; kl]`` taps (twice the rows) and its split ``b``."""
    kh, kl, b = _rounding.split_fixed_point(record.weight, bits, max_input)
    stacked = _weights.Taps(np.concatenate([record.index, record.index]), np.concatenate([kh, kl]), record.in_size)
    return stacked, b


def run(
    x,
    ops: Sequence[tuple[int, _weights.Record]],
    *,
    extrapolation_value: float = 0.0,
    precision=lax.Precision.HIGHEST,
    strategy: str = "auto",
    integer: _rounding.IntegerPolicy = _rounding.FINAL_HALF_EVEN,
    dtype=None,
    local_nonfinite: bool = True,
) -> jax.Array:
    """Plans every axis on the host, then calls the jitted :data:`apply`. Front ends call this.

    Args:
      x: the input array.
      ops: ``(axis, record)`` pairs, one per resampled axis. Under a per-pass integer policy
        (and for integer ``x``) the passes run in this order; otherwise :func:`pass_order`.
      extrapolation_value: fill of rows flagged ``outside``.
      precision: ``lax.Precision`` of dense contractions.
      strategy: ``"auto"``, ``"dense"``, ``"banded"`` or ``"polyphase"`` (:mod:`.strategies`).
      integer: how integer results are rounded (:mod:`.rounding`).
      dtype: the output dtype, default ``x``'s. A float ``dtype`` for integer ``x`` returns the
        filtered values unrounded (jax.image's rule) without a float copy of ``x`` first.
      local_nonfinite: NaN/Inf reach only the outputs that weight them (default); ``False``:
        dense contractions are plain matmuls (a NaN spreads along its row and column, as in
        ``jax.image``) — cheaper under ``vmap``.

    Returns:
      The resampled array in ``dtype``. With no records ``x`` is returned as a jax array (in
      ``dtype``).
    """
    strategy = _v.choice("strategy", strategy, _strategies.STRATEGY_NAMES)
    x = _dtypes.as_array(x)
    dtype = np.dtype(dtype or x.dtype)
    if not ops:
        return x.astype(dtype)
    out_shape = list(x.shape)
    for axis, record in ops:
        out_shape[axis] = record.out_size
    _v.check_output_size(out_shape, "the requested size")
    integral = dtype.kind in "iu"
    if integral and integer.passes:
        ops = list(ops)
    else:
        dense = strategy == "dense" or (strategy == "auto" and jax.default_backend() == "tpu")
        ops = pass_order(ops, x.shape, dense)
    plans, shifts = _plans(tuple(ops), strategy, dtype, integer, jax.default_backend())
    if isinstance(x, jax.core.Tracer):  # inside the caller's jit/vmap/grad
        plans, application = _fetched(plans.host), cast(Callable, apply)
    else:
        plans, application = plans.device(), _eager
    return application(
        x,
        plans,
        extrapolation_value=float(extrapolation_value),
        precision=precision,
        integer=integer,
        fixed_shifts=shifts,
        dtype=None if dtype == x.dtype else dtype,
        local_nonfinite=local_nonfinite,
    )


#: Inside a caller's trace, plan arrays of at least this many bytes are fetched by a host
#: callback when the program runs, instead of becoming constants of the caller's program (whose
#: lowering and compilation cost grows with their bytes: a 10**6 -> 10**3 ``pil_lanczos`` axis
#: carries ~50 MB of taps). Smaller arrays stay constants (XLA may fold them).
FETCH_MIN_BYTES = 1 << 20


def _fetched(plans):
    """``plans`` with every concrete array of at least ``FETCH_MIN_BYTES`` read by a host callback;
    every array of a shared band's plan too (as constants, its rows expanded from the table would
    be folded by XLA's constant folding at compile time: 1.6 s for a 1000 x 6000-tap axis)."""

    def fetch(a, always=False):
        if (
            isinstance(a, (np.ndarray, jax.Array))
            and not isinstance(a, jax.core.Tracer)
            and (always or a.nbytes >= FETCH_MIN_BYTES)
        ):
            host = np.asarray(a)
            return jax.pure_callback(lambda: host, jax.ShapeDtypeStruct(host.shape, host.dtype))
        return a

    def plan(p):
        shared = isinstance(p, _strategies.BandedPlan) and p.row_class is not None
        return jax.tree_util.tree_map(lambda a: fetch(a, shared), p)

    return [plan(p) for p in plans]


#: Plans kept for constant records (least recently used dropped first); records hash by identity,
#: so the memoised record builders (:func:`.weights.memoized`) make repeated calls hit.
PLAN_CACHE_SIZE = 128
_PLAN_CACHE: collections.OrderedDict = collections.OrderedDict()


def _constant(record) -> bool:
    return (
        isinstance(record, _weights.Taps)
        and record.constant
        or (isinstance(record, _weights.Gather) and isinstance(record.index, np.ndarray))
    )


class _Plans:
    """The plans of one call: ``host`` (numpy arrays; what a caller's trace fetches or embeds) and
    :meth:`device`, the same put on the device once, on the first eager call that needs them (numpy
    leaves would be transferred on every call)."""

    def __init__(self, host):
        self.host, self._device = host, None

    def device(self):
        if self._device is None:
            with jax.ensure_compile_time_eval():  # concrete arrays even when called under a trace
                self._device = jax.device_put(self.host)  # one batched transfer of every leaf
        return self._device


def _plans(ops: tuple, strategy: str, dtype: np.dtype, integer, backend: str):
    """``(plans, fixed_shifts)`` of ``ops``: host work (strategy choice, transposed taps,
    polyphase tables), cached for constant records (:class:`_Plans`: host arrays, and their device
    copies once an eager call asks)."""
    key = (ops, strategy, dtype.str, integer, backend, bool(jax.config.jax_enable_x64))  # type: ignore[attr-defined]
    cacheable = all(_constant(record) for _, record in ops)
    if cacheable and key in _PLAN_CACHE:
        _PLAN_CACHE.move_to_end(key)
        return _PLAN_CACHE[key]
    cdtype = _dtypes.compute_dtype(dtype)
    integral = dtype.kind in "iu"
    fixed = integral and integer.fixed_point_bits is not None
    if fixed:
        bits, max_input = integer.fixed_point_bits, float(max(np.iinfo(dtype).max, -np.iinfo(dtype).min))
        exact = [_int32_fixed_point(r, bits, max_input) if isinstance(r, _weights.Taps) else None for _, r in ops]
        int32 = all(e is not None for e, (_, r) in zip(exact, ops) if isinstance(r, _weights.Taps))
    plans, shifts = [], []
    for i, (axis, record) in enumerate(ops):
        b = None
        if fixed and int32 and isinstance(record, _weights.Taps):
            record, b, cdtype = exact[i], INT32, np.dtype(np.int32)
        elif fixed and isinstance(record, _weights.Taps):
            record, b = _split_fixed_point(record, integer.fixed_point_bits, float(np.iinfo(dtype).max))
        plans.append(_strategies.plan(axis, record, strategy, cdtype, backend))
        shifts.append(b)
    result = (_Plans(plans), tuple(shifts))
    if cacheable:
        _PLAN_CACHE[key] = result
        while len(_PLAN_CACHE) > PLAN_CACHE_SIZE:
            _PLAN_CACHE.popitem(last=False)
    return result
