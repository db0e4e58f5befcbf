"""Apply: per-axis records -> the output array, in one jitted application.

Contract: :func:`run` takes ``x`` (a jax array or tracer: the front end's prologue made it one)
and ``(axis, record)`` pairs (:class:`~..records.Gather` / :class:`~..records.Taps`), asks
:mod:`.decide` for the pass order and each record's strategy with the backend's tuning row
(:mod:`.tuning`), prepares one plan per axis (:mod:`.strategies`) and calls :data:`apply`, a
single jitted function of ``x`` and the plans (weights are arguments, not constants: one
compilation per structure and shapes). Inside a caller's trace, the records are planned when the
program is lowered, for its platform (:mod:`.primitive`): host records as static parameters, traced
ones as operands. The application

* applies the passes :func:`.decide.groups` forms, consecutive linear passes as one chain;
* computes in the compute dtype of :mod:`..dtypes` (complex: real and imaginary parts apart); a
  first pass that ``reads_integers`` takes integer input as it is (no float copy of the input);
* fills rows flagged ``outside`` with ``extrapolation_value``;
* returns to integer dtypes with the :class:`~..rounding.IntegerPolicy` given — once at the end
  (default: half to even, saturated), or after every pass in the order given (``per_pass``,
  ``fixed_point_bits``: the weights are then split for exact fixed-point arithmetic here).

Gathers never pass through float arithmetic (bit exact for every dtype). NaN/Inf locality: a
non-finite input only affects outputs whose filter gives it a non-zero weight (``banded`` and
``polyphase`` skip zero weights; a ``matmul`` plan switches to a mask-aware contraction under a
``lax.cond`` when the input has a non-finite value).

Host planning is cached: constant records (memoised by the front ends' record builders) map to
their plans, weights already on the device, in a bounded LRU (``HOST.plan_cache_size``).
Everything is a pure function of its array arguments, so ``jit``, ``vmap`` and ``grad`` (with
respect to ``x`` and to traced weights) work through it.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import dataclasses
from collections.abc import Sequence
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import dtypes as _dtypes
from .. import records as _records
from .. import rounding as _rounding
from .. import validation as _v
from ..host import HOST
from . import buckets as _buckets
from . import decide as _decide
from . import primitive as _primitive
from . import stored as _stored
from . import strategies as _strategies
from .tuning import Tuning, tuning_for


def _apply(
    x, plans, *, extrapolation_value, precision, integer, fixed_shifts, tuning, dtype=None, local_nonfinite=True
):
    """The jitted application (see the module docstring); ``fixed_shifts[i]`` is the split ``b``
    of plan ``i`` under a fixed-point policy (``INT32`` for exact int32 arithmetic, else
    ``None``); ``tuning`` the backend's row; ``dtype`` the output dtype (``None``: ``x``'s);
    ``local_nonfinite=False`` lets matmul plans spread NaN/Inf as a plain matmul does (no
    ``lax.cond``, which ``vmap`` turns into both branches)."""
    dtype = np.dtype(dtype or x.dtype)
    if all(p.gathers for p in plans):
        fill = _rounding.scalar_as(extrapolation_value, x.dtype)
        return _gather_all(x, plans, fill, precision, tuning).astype(dtype)
    if jnp.iscomplexobj(x):
        kw = dict(
            precision=precision,
            integer=integer,
            fixed_shifts=fixed_shifts,
            tuning=tuning,
            local_nonfinite=local_nonfinite,
        )
        real = _apply(jnp.real(x), plans, extrapolation_value=extrapolation_value, **kw)
        imag = _apply(jnp.imag(x), plans, extrapolation_value=0.0, **kw)
        return lax.complex(real, imag).astype(x.dtype)
    if x.dtype.kind in "biu":  # no NaN/Inf can arise from integer input: no zero weight to skip
        plans = [p.without_masks() for p in plans]
    integral = dtype.kind in "iu"
    passes = integral and integer.passes
    groups = _decide.groups(plans, tuning, separate=passes)
    groups[0][0] = _decide.first_pass(groups[0][0], _decide.next_band_taps(groups), tuning)
    int32 = passes and INT32 in fixed_shifts  # exact fixed point in int32 (every pass)
    cdtype = np.dtype(np.int32) if int32 else _dtypes.compute_dtype(dtype)

    chained = 0 if passes else _decide.chained(groups)

    def fill_outside(y, group):  # the fill is in output units: after any fixed-point rounding
        for p in group:
            if p.outside is not None:
                y = _strategies.mask_rows(y, p.outside, p.axis, extrapolation_value)
        return y

    def run_all(y, nonfinite):
        if chained:
            y = _strategies.chain(y, groups[:chained], tuning)
        for i, group in enumerate(groups):
            if i < chained:
                continue
            y = _strategies.apply_pass(y, group, precision, nonfinite, tuning)
            if passes:
                (p,) = group  # one plan per pass: group i is plan i
                b = fixed_shifts[i]
                bits = integer.fixed_point_bits
                info = np.iinfo(dtype)
                if b == INT32:  # (2**(bits-1) + sum(x * k)) >> bits, an arithmetic shift
                    y = jnp.clip((y + (1 << (bits - 1))) >> bits, info.min, info.max)
                    if i + 1 < len(groups) and _decide.narrow_intermediate(y.size * 4, groups[i + 1][0], tuning):
                        y = y.astype(dtype)  # exact: already clipped to the range of dtype
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

    # a first pass that reads integers converts inside its fused loop: no float copy of the input
    y = x if x.dtype.kind in "iu" and plans[0].reads_integers else x.astype(cdtype)
    matmul = any(p.matmul for p in plans)
    if matmul and local_nonfinite and jnp.issubdtype(y.dtype, jnp.floating):
        y = lax.cond(jnp.all(jnp.isfinite(y)), lambda v: run_all(v, False), lambda v: run_all(v, True), y)
    else:
        y = run_all(y, False)
    return _rounding.to_output(y, dtype, integer.rounding)


def _gather_all(x, plans, fill, precision, tuning):
    """Every plan a gather: ``x`` moved, never computed on (bit exact), ``fill`` in rows flagged
    ``outside``. The derivative of a half-precision ``x`` is taken in float32 and rounded once: a
    gather's transpose sums the cotangents of every output that read an input (a scatter-add, or
    the sum over a broadcast), which in float16 / bfloat16 would round at every term."""

    def gathered(v, plans, fill):
        for p in plans:
            v = _strategies.apply_pass(v, [p], precision, False, tuning)
            if p.outside is not None:
                v = _strategies.mask_rows(v, p.outside, p.axis, fill)
        return v

    if not (jnp.issubdtype(x.dtype, jnp.floating) and x.dtype.itemsize < 4):
        return gathered(x, plans, fill)

    @jax.custom_jvp
    def half(v, plans):
        return gathered(v, plans, fill)

    @half.defjvp
    def _(primals, tangents):  # linear in the tangent, so reverse mode transposes it in float32
        v, plans = primals
        wide = gathered(tangents[0].astype(jnp.float32), plans, np.float32(0))  # a constant fill
        return half(v, plans), wide.astype(v.dtype)

    return half(x, plans)


_STATIC = ("extrapolation_value", "precision", "integer", "fixed_shifts", "tuning", "dtype", "local_nonfinite")
apply = jax.jit(_apply, static_argnames=_STATIC)

#: The jitted application by compiler options (sorted items; ``()``: XLA's defaults): :data:`apply`
#: itself where this jax or XLA does not know the options.
_PROGRAMS: dict = {(): apply}


def _program(key: tuple):
    """:data:`apply` compiled with the options ``key`` (sorted items); :data:`apply` itself where
    this jax's ``jit`` takes no ``compiler_options``."""
    if key not in _PROGRAMS:
        try:
            _PROGRAMS[key] = jax.jit(_apply, static_argnames=_STATIC, compiler_options=dict(key))
        except TypeError:
            _PROGRAMS[key] = apply
    return _PROGRAMS[key]


def _known(key: tuple) -> bool:
    """Whether XLA compiles a one-element program with the options ``key``."""
    try:
        with jax.ensure_compile_time_eval():
            jax.jit(lambda v: v + 1, compiler_options=dict(key))(np.float32(0))
        return True
    except RuntimeError:
        return False


def _eager(x, plans, stored=False, **static):
    """:data:`apply` for a concrete ``x``, compiled with :func:`.decide.compiler_options`;
    ``stored``: through :mod:`.stored` (a bucketed program). Two refusals keep XLA's defaults: a
    ``jit`` with options of its own staged into a caller's trace (a closed-over array; ``ValueError``
    before anything is traced: the application is then part of the caller's program), and an XLA
    that does not know the options (it refuses them when it compiles: a one-element program tells
    that from an error of the application, and the options are dropped for the process)."""
    exact = all(p.gathers or b == INT32 for p, b in zip(plans, static["fixed_shifts"]))
    key = tuple(sorted((_decide.compiler_options(plans, static["tuning"], exact) or {}).items()))
    function = _program(key)

    def call(function):
        if stored:
            return _stored.call(function, (x, plans), static, extra=() if function is apply else key)
        return function(x, plans, **static)

    try:
        return call(function)
    except ValueError:
        if function is apply:
            raise
        return call(apply)  # an error of the application itself is raised again here
    except RuntimeError:
        if function is apply or _known(key):
            raise
        _PROGRAMS[key] = apply
        return call(apply)


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
    k = exact.table if isinstance(exact, _records.SharedBand) else exact.weight
    bound = max_input * float(np.abs(k).sum(axis=1).max(initial=0.0)) + float(1 << (bits - 1))
    return None if bound >= 2.0**31 else exact


def fixed(record, integer: _rounding.IntegerPolicy, dtype) -> _records.Taps:
    """A host record as :func:`run` applies it under ``integer`` on ``dtype`` outputs: under a
    fixed-point policy, :class:`~..records.FixedTaps` in exact int32 units (rows may then be traced
    apart from the host check); else ``record`` itself.

    Raises:
      ValueError: sums of these taps could leave int32 (a split fixed-point pass, host weights only).
    """
    dtype = np.dtype(dtype)
    if not isinstance(record, _records.Taps) or dtype.kind not in "iu" or integer.fixed_point_bits is None:
        return record
    exact = _int32_fixed_point(record, integer.fixed_point_bits, float(max(np.iinfo(dtype).max, -np.iinfo(dtype).min)))
    if exact is None:
        raise ValueError(f"{record!r}: its fixed-point sums can leave int32; it needs host weights.")
    return _records.FixedTaps(exact.index, exact.weight, exact.in_size, exact.outside)


def _split_fixed_point(record, bits: int, max_input: float):
    """A fixed-point record as stacked ``[kh; kl]`` taps (twice the rows) and its split ``b``."""
    kh, kl, b = _rounding.split_fixed_point(record.weight, bits, max_input)
    stacked = _records.Taps(np.concatenate([record.index, record.index]), np.concatenate([kh, kl]), record.in_size)
    return stacked, b


def run(
    x,
    ops: Sequence[tuple[int, _records.Record]],
    *,
    extrapolation_value: float = 0.0,
    precision=lax.Precision.HIGHEST,
    strategy: str = "auto",
    integer: _rounding.IntegerPolicy = _rounding.FINAL_HALF_EVEN,
    dtype=None,
    local_nonfinite: bool = True,
    backend: str | None = None,
) -> jax.Array:
    """Plans every axis on the host, then calls the jitted :data:`apply`. Front ends call this.

    Args:
      x: the input, a jax array or tracer (a front end's prologue converted it).
      ops: ``(axis, record)`` pairs, one per resampled axis. Under a per-pass integer policy
        (and for integer ``x``) the passes run in this order; otherwise :func:`.decide.pass_order`.
      extrapolation_value: fill of rows flagged ``outside``.
      precision: ``lax.Precision`` of dense contractions.
      strategy: ``"auto"``, ``"dense"``, ``"banded"`` or ``"polyphase"`` (:mod:`.strategies`).
      integer: how integer results are rounded (:mod:`.rounding`).
      dtype: the output dtype, default ``x``'s. A float ``dtype`` for integer ``x`` returns the
        filtered values unrounded (jax.image's rule) without a float copy of ``x`` first.
      local_nonfinite: NaN/Inf reach only the outputs that weight them (default); ``False``:
        dense contractions are plain matmuls (a NaN spreads along its row and column, as in
        ``jax.image``) — cheaper under ``vmap``.
      backend: the tuning row to plan with; the program still runs where ``x`` is. Default: an
        eager call plans with the row of the platform ``x`` lives on; inside a caller's trace
        (a traced ``x`` or traced records), the program is planned when it is lowered, with the
        row of the platform it is lowered for (:mod:`.primitive`).

    Returns:
      The resampled array in ``dtype``. With no records ``x`` is returned as a jax array (in
      ``dtype``); an ``x`` without elements gives zeros (``extrapolation_value`` in rows flagged
      ``outside``), on every call.
    """
    strategy = _v.choice("strategy", strategy, _decide.STRATEGY_NAMES)
    dtype = np.dtype(dtype or x.dtype)
    windows = _WINDOW.get()
    if windows:
        ops = [(a, _records.rows(r, *windows[a]) if a in windows else r) for a, r in ops]
    if not ops:
        return x.astype(dtype)
    recording = _RECORDING.get()
    if recording is not None:
        keywords = dict(
            extrapolation_value=extrapolation_value,
            precision=precision,
            strategy=strategy,
            integer=integer,
            dtype=dtype,
            local_nonfinite=local_nonfinite,
            backend=backend,
        )
        recording.append(Application(tuple(ops), tuple(keywords.items()), np.dtype(x.dtype)))
        return jnp.zeros(_out_shape(x.shape, ops), dtype)
    if x.size == 0:  # no input value to read (a front end allows it only where its peer does)
        return _without_input(x, ops, dtype, extrapolation_value)
    static = dict(
        extrapolation_value=float(extrapolation_value),
        precision=precision,
        integer=integer,
        dtype=None if dtype == x.dtype else dtype,
        local_nonfinite=local_nonfinite,
    )
    traced = [record for _, record in ops if not _constant(record)]
    if isinstance(x, jax.core.Tracer) or traced:  # in a caller's trace: planned when lowered
        skeleton, arrays = _operands(ops)
        planned = _Planned(skeleton, strategy, dtype, tuple(static.items()), backend)
        return _primitive.bind(planned, x, *arrays)[0]
    tuning = tuning_for(_platform(x) if backend is None else backend)
    ops = _ordered(ops, x.shape, strategy, dtype, integer, tuning)
    plans, shifts = _plans(tuple(ops), strategy, dtype, integer, tuning)
    # an eager call: a shared program (padded shapes) while its shape is new, same arithmetic
    options = (strategy, dtype.str, integer, float(extrapolation_value), str(precision), local_nonfinite)
    exact = [b == INT32 for b in shifts]
    separate = dtype.kind in "iu" and integer.passes
    found = _buckets.shared(x, ops, strategy, options, plans.host, exact, tuning, separate=separate)
    if found is None:
        return _eager(x, plans.device(), fixed_shifts=shifts, tuning=tuning, **static)
    padded, padded_ops, loops = found
    shared, shared_shifts = _plans(tuple(padded_ops), "bucketed", dtype, integer, tuning)
    kept = _strategies.like_own(shared.host, plans.host, loops, tuning, integer_input=x.dtype.kind in "biu")
    shared_plans = jax.device_put(kept)
    y = _eager(padded, shared_plans, stored=True, fixed_shifts=shared_shifts, tuning=tuning, **static)
    return _buckets.cut(y, ops)


class Application(NamedTuple):
    """One call of :func:`run` as :func:`recorded` keeps it: ``(axis, record)`` pairs (cut to the
    output window), :func:`run`'s keywords as items, and the dtype of the ``x`` it was given."""

    ops: tuple
    keywords: tuple
    in_dtype: np.dtype


_RECORDING: contextvars.ContextVar = contextvars.ContextVar("jax_resize_recording", default=None)


@contextlib.contextmanager
def recorded():
    """Inside this block :func:`run` computes nothing: it appends its :class:`Application` to the
    list this yields and returns zeros of its output's shape and dtype. A front end called here
    gives its records to another executor (grain's device mode applies them stacked per batch)."""
    applications: list[Application] = []
    token = _RECORDING.set(applications)
    try:
        yield applications
    finally:
        _RECORDING.reset(token)


def _out_shape(shape, ops) -> tuple[int, ...]:
    out = list(shape)
    for axis, record in ops:
        out[axis] = record.out_size
    return tuple(out)


#: ``{axis: (start, stop)}``: the outputs the calls inside :func:`output_window` keep.
_WINDOW: contextvars.ContextVar = contextvars.ContextVar("jax_resize_output_window", default=None)


@contextlib.contextmanager
def output_window(windows: dict[int, tuple[int, int]]):
    """Inside this block, :func:`run` computes only outputs ``start..stop`` of each axis named in
    ``windows`` that it resamples (its records cut with :func:`..records.rows`): a front end's
    result, then cropped, with the output shape of the window (one program for every input size
    that shares it): bit for bit for gathers and per-pass integer policies, float sums within
    rounding (the cut records may take another strategy). An axis the call does not resample is
    left whole."""
    token = _WINDOW.set(dict(windows))
    try:
        yield
    finally:
        _WINDOW.reset(token)


def window_of(axis: int, out_size: int) -> slice:
    """The outputs of ``axis`` a call computes inside :func:`output_window` (all outside it)."""
    start, stop = (_WINDOW.get() or {}).get(axis, (0, out_size))
    return slice(start, stop)


_platform = _primitive.platform_of


def _ordered(ops, shape, strategy, dtype, integer, tuning):
    """The pass order: as given under a per-pass integer policy, else :func:`.decide.pass_order`."""
    if dtype.kind in "iu" and integer.passes:
        return list(ops)
    return _decide.pass_order(ops, shape, tuning, dense=_decide.dense_order(strategy, tuning))


def _traced(x, ops, strategy, dtype, tuning, static):
    """The application inside a caller's trace, planned with ``tuning``'s row."""
    ops = _ordered(ops, x.shape, strategy, dtype, static["integer"], tuning)
    plans, shifts = _plans(tuple(ops), strategy, dtype, static["integer"], tuning)
    return apply(x, _fetched(plans.host), fixed_shifts=shifts, tuning=tuning, **static)


@dataclasses.dataclass(frozen=True)
class _Operand:
    """Where a record's array is an operand of the primitive: operand ``1 + position`` (after ``x``)."""

    position: int
    shape: tuple
    dtype: np.dtype


def _operands(ops):
    """``(skeleton, arrays)``: ``ops`` with every jax array of a record (a tracer, or a concrete
    array that cannot be a static parameter) replaced by an :class:`_Operand`, and those arrays."""
    skeleton, arrays = [], []
    for axis, record in ops:
        if not _constant(record):
            moved = {}
            for field in dataclasses.fields(record):
                value = getattr(record, field.name)
                if isinstance(value, jax.Array):
                    moved[field.name] = _Operand(len(arrays), tuple(value.shape), np.dtype(value.dtype))
                    arrays.append(value)
            record = dataclasses.replace(record, **moved)
        skeleton.append((axis, record))
    return tuple(skeleton), arrays


def _filled(skeleton, arrays):
    """The records of ``skeleton`` with their operands ``arrays`` in place."""

    def fill(record):
        fields = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
        moved = {name: arrays[v.position] for name, v in fields.items() if isinstance(v, _Operand)}
        return dataclasses.replace(record, **moved) if moved else record

    return [(axis, fill(record)) for axis, record in skeleton]


@dataclasses.dataclass(frozen=True)
class _Planned(_primitive.Deferred):
    """:func:`run` inside a caller's trace, planned with the row of the platform it is lowered for
    (``backend``: that row on every platform). Operands: ``x``, then the records' jax arrays
    (:class:`_Operand`); host records are part of ``ops``."""

    ops: tuple
    strategy: str
    dtype: np.dtype
    static: tuple
    backend: str | None

    def program(self, platform):
        tuning = tuning_for(self.backend or platform)

        def application(x, *arrays):
            return (_traced(x, _filled(self.ops, arrays), self.strategy, self.dtype, tuning, dict(self.static)),)

        return application

    def __repr__(self):  # a jaxpr prints its parameters: the records' sizes, not their arrays
        sizes = ", ".join(f"{axis}: {r.in_size}->{r.out_size}" for axis, r in self.ops)
        return f"planned({{{sizes}}}, {self.strategy}, {self.dtype}, backend={self.backend})"

    def out_avals(self, x, *arrays):
        return (jax.core.ShapedArray(_out_shape(x.shape, self.ops), self.dtype),)


def _without_input(x, ops, dtype: np.dtype, extrapolation_value) -> jax.Array:
    """The output of an input without elements: zeros (a sum of no terms), ``extrapolation_value``
    in rows flagged ``outside``. No gather or program of an empty axis is built: its indices could
    point nowhere."""
    y = jnp.zeros(_out_shape(x.shape, ops), dtype)
    fill = _rounding.scalar_as(extrapolation_value, dtype)
    for axis, record in ops:
        if record.outside is not None:
            y = _strategies.mask_rows(y, jnp.asarray(record.outside), axis, fill)
    return y


def _fetched(plans):
    """``plans`` with the concrete arrays :func:`.decide.fetched` names behind an optimization
    barrier: embedded in the program (it exports), but opaque to XLA, which neither folds them
    (a shared band's ``table[row_class]`` would become an expanded constant) nor specializes the
    arithmetic on their values (the program computes as the eager one, whose plans are arguments)."""

    def fetch(a, p):
        if isinstance(a, (np.ndarray, jax.Array)) and not isinstance(a, jax.core.Tracer) and _decide.fetched(a, p):
            return lax.optimization_barrier(jnp.asarray(a))
        return a

    return [jax.tree_util.tree_map(lambda a, p=p: fetch(a, p), p) for p in plans]


#: Plans of constant records (``HOST.plan_cache_size``, least recently used dropped first); records
#: hash by identity, so the memoised record builders (:func:`..records.memoized`) make calls hit.
_PLAN_CACHE: collections.OrderedDict = collections.OrderedDict()


def _constant(record) -> bool:
    """Whether a record is host data only (no tracer: it can be a static parameter)."""
    host = isinstance(record, _records.Taps) and record.constant
    host = host or (isinstance(record, _records.Gather) and isinstance(record.index, np.ndarray))
    return host and not isinstance(record.outside, jax.core.Tracer)


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


def _plans(ops: tuple, strategy: str, dtype: np.dtype, integer, tuning: Tuning):
    """``(plans, fixed_shifts)`` of ``ops``: host work (strategy choice, transposed taps,
    polyphase tables), cached for constant records (:class:`_Plans`: host arrays, and their device
    copies once an eager call asks)."""
    key = (ops, strategy, dtype.str, integer, tuning, bool(jax.config.jax_enable_x64))  # type: ignore[attr-defined]
    cacheable = strategy != "bucketed" and all(_constant(record) for _, record in ops)
    if cacheable and key in _PLAN_CACHE:
        _PLAN_CACHE.move_to_end(key)
        return _PLAN_CACHE[key]
    cdtype = _dtypes.compute_dtype(dtype)
    integral = dtype.kind in "iu"
    fixed = integral and integer.fixed_point_bits is not None
    if fixed:
        bits, max_input = integer.fixed_point_bits, float(max(np.iinfo(dtype).max, -np.iinfo(dtype).min))
        exact = [
            r
            if isinstance(r, _records.FixedTaps)
            else _int32_fixed_point(r, bits, max_input)
            if isinstance(r, _records.Taps)
            else None
            for _, r in ops
        ]
        int32 = all(e is not None for e, (_, r) in zip(exact, ops) if isinstance(r, _records.Taps))
    plans, shifts = [], []
    for i, (axis, record) in enumerate(ops):
        b = None
        if fixed and int32 and isinstance(record, _records.Taps):
            record, b, cdtype = exact[i], INT32, np.dtype(np.int32)
        elif fixed and isinstance(record, _records.Taps):
            record, b = _split_fixed_point(record, integer.fixed_point_bits, float(np.iinfo(dtype).max))
        plans.append(_strategies.plan(axis, record, strategy, cdtype, tuning))
        shifts.append(b)
    result = (_Plans(plans), tuple(shifts))
    if cacheable:
        _PLAN_CACHE[key] = result
        while len(_PLAN_CACHE) > HOST.plan_cache_size:
            _PLAN_CACHE.popitem(last=False)
    return result
