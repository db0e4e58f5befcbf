"""Layer 3 — apply: per-axis operators -> the output array.

Contract: ``apply_axes(x, ops, ...)`` applies each :class:`~.weights.AxisResample` in order to
its axis and returns an array of ``x``'s dtype:

* nearest (``op.index``): a gather, ``jnp.take`` — no arithmetic, bit exact for every dtype;
* filters (``op.tap_index``/``op.tap_weight``), by strategy:

  - ``"dense"``: the ``[out, in]`` matrix (folded from the taps) contracted with
    ``lax.dot_general`` (``precision`` HIGHEST by default). Always correct; the default on TPU,
    where the MXU makes matmuls cheap. Never used for a matrix above ``MAX_DENSE_ELEMENTS``.
  - ``"banded"``: ``out[o] = sum_k w[o, k] * x[index[o, k]]`` as ``k`` gathers fused into
    multiply-adds — one pass over memory, ``O(out * k)`` work instead of ``O(out * in)``.
    Consecutive axes whose tap counts multiply to at most ``FUSE_MAX_TAPS`` share one pass
    (e.g. bilinear and bicubic upsampling), so no intermediate array is written.
  - ``"polyphase"``: for a rational ratio ``L / M`` with few phases (:mod:`.polyphase`), each
    output phase is a sum of strided slices of the input (extended by its edge element or by
    zeros) — no gathers. Axes without such a form (irregular ratios, integer decimation, traced
    weights) use ``"banded"``. The default on CPU and GPU.

  Accumulation is in the compute dtype of :mod:`.dtypes`; rows flagged ``outside`` take
  ``extrapolation_value``; integers are rounded half to even and saturated.

NaN/Inf locality: a non-finite input element only affects outputs whose filter gives it a
non-zero weight. ``banded`` skips zero-weight taps; ``dense`` contracts the finite part and
rebuilds the non-finite outputs from matmuls of the NaN/+Inf/-Inf masks (only when the input
has a non-finite value: a ``lax.cond``, which ``vmap`` turns into computing both branches).

Everything is a pure function of its array arguments, so ``jit``, ``vmap`` and ``grad`` (with
respect to ``x`` and to traced weights) work through it. ``apply`` is the same function jitted
with the static structure as static arguments.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import banded as _banded
from . import dtypes as _dtypes
from . import polyphase as _polyphase
from . import validation as _v
from . import weights as _weights

STRATEGIES = ("auto", "dense", "banded", "polyphase")
#: Largest dense weight matrix (entries) ever built, on the host or the device (128 MiB float64).
MAX_DENSE_ELEMENTS = 1 << 24
#: Banded axes are fused into one pass (no intermediate arrays) while the product of their tap
#: counts is at most this; beyond it separate passes do less arithmetic.
FUSE_MAX_TAPS = 16


def choose_strategy(op: _weights.AxisResample, strategy: str = "auto", backend: str | None = None) -> str:
    """The strategy requested for one filter axis: ``"dense"``, ``"banded"`` or ``"polyphase"``.

    ``auto`` picks dense on TPU (matmul units) unless the matrix is too large, polyphase elsewhere
    (which :func:`run` turns into banded for an axis without a small polyphase form).
    A forced ``dense`` beyond ``MAX_DENSE_ELEMENTS`` is an error rather than an out-of-memory.
    """
    size = op.out_size * op.in_size
    if strategy == "dense" and size > MAX_DENSE_ELEMENTS:
        raise ValueError(
            f"strategy='dense' would build a {op.out_size}x{op.in_size} weight matrix "
            f"({size} > MAX_DENSE_ELEMENTS = {MAX_DENSE_ELEMENTS}); use strategy='banded' or 'auto'."
        )
    if strategy != "auto":
        return strategy
    backend = backend or jax.default_backend()
    return "dense" if backend == "tpu" and size <= MAX_DENSE_ELEMENTS else "polyphase"


def _axis_shape(ndim: int, axis: int, length: int) -> list[int]:
    shape = [1] * ndim
    shape[axis] = length
    return shape


def _dot(y, matrix, axis: int, precision):
    """``out[..., o, ...] = sum_i W[o, i] * y[..., i, ...]`` along ``axis``; W: [out, in]."""
    out = lax.dot_general(
        y, matrix, (((axis,), (1,)), ((), ())), precision=precision, preferred_element_type=y.dtype
    )  # the new axis comes last
    return jnp.moveaxis(out, -1, axis)


def _dense_nonfinite(y, matrix, axis: int, precision):
    """Dense contraction in which NaN/Inf inputs reach only the outputs that weight them."""
    finite = jnp.isfinite(y)
    out = _dot(jnp.where(finite, y, 0), matrix, axis, precision)
    f = lambda mask, w: _dot(mask.astype(y.dtype), w.astype(y.dtype), axis, precision) > 0
    pos, neg, nonzero = matrix > 0, matrix < 0, matrix != 0
    nan, pinf, ninf = jnp.isnan(y), y == jnp.inf, y == -jnp.inf
    to_nan = f(nan, nonzero)
    to_pinf = f(pinf, pos) | f(ninf, neg)
    to_ninf = f(ninf, pos) | f(pinf, neg)
    out = jnp.where(to_pinf, jnp.inf, jnp.where(to_ninf, -jnp.inf, out))
    return jnp.where(to_nan | (to_pinf & to_ninf), jnp.nan, out)


def _gather(x, op: _weights.AxisResample):
    """Nearest along ``op.axis``: a broadcast or a strided slice for regular index patterns
    (XLA turns them into plain copies), else a gather."""
    if op.pattern is not None and op.pattern[0] == "repeat":
        k, a = op.pattern[1], op.axis
        wide = lax.broadcast_in_dim(x, x.shape[:a + 1] + (k,) + x.shape[a + 1:],
                                    tuple(range(a + 1)) + tuple(range(a + 2, x.ndim + 1)))
        return wide.reshape(x.shape[:a] + (op.out_size,) + x.shape[a + 1:])
    if op.pattern is not None and op.pattern[0] == "stride":
        _, start, step = op.pattern
        return lax.slice_in_dim(x, start, start + step * (op.out_size - 1) + 1, step, axis=op.axis)
    return jnp.take(x, op.index, axis=op.axis, mode="clip")


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


def _groups(ops, strategies):
    """Splits the operators into passes: consecutive banded operators with constant taps share one
    fused pass while the product of their tap counts stays <= ``FUSE_MAX_TAPS``."""
    groups, taps = [], 0
    for op, strategy in zip(ops, strategies):
        k = op.tap_index.shape[1]
        fusable = strategy == "banded" and op.transpose_index is not None and op.outside is None
        if fusable and groups and groups[-1][-1][2] and taps * k <= FUSE_MAX_TAPS:
            groups[-1].append((op, strategy, True))
            taps *= k
        else:
            groups.append([(op, strategy, fusable)])
            taps = k
    return [[(op, strategy) for op, strategy, _ in group] for group in groups]


def _mask_rows(y, outside, axis: int, fill):
    return jnp.where(outside.reshape(_axis_shape(y.ndim, axis, outside.shape[0])), jnp.asarray(fill, y.dtype), y)


def apply_axes(x, ops, *, extrapolation_value: float = 0.0, precision=lax.Precision.HIGHEST,
               strategies: tuple[str, ...] | None = None):
    """Applies per-axis resampling operators to ``x``.

    Args:
      x: array ``[...]`` of any supported dtype.
      ops: sequence of ``AxisResample``; either all gathers (nearest) or all filters.
      extrapolation_value: value of rows flagged ``outside``.
      precision: ``lax.Precision`` for dense contractions.
      strategies: per-op ``"dense"``/``"banded"``/``"polyphase"`` (filters; polyphase needs
        ``op.phase_plan``); default banded.

    Returns:
      The resampled array, same dtype as ``x``.
    """
    x = jnp.asarray(x)
    if all(op.index is not None for op in ops):
        fill = _dtypes.scalar_as(extrapolation_value, x.dtype)
        for op in ops:
            x = _gather(x, op)
            if op.outside is not None:
                x = _mask_rows(x, op.outside, op.axis, fill)
        return x
    if jnp.iscomplexobj(x):
        kw = dict(precision=precision, strategies=strategies)
        real = apply_axes(jnp.real(x), ops, extrapolation_value=extrapolation_value, **kw)
        imag = apply_axes(jnp.imag(x), ops, extrapolation_value=0.0, **kw)
        return lax.complex(real, imag).astype(x.dtype)
    strategies = strategies or ("banded",) * len(ops)
    cdtype = _dtypes.compute_dtype(x.dtype)

    def run_all(y, dense_fn):
        for group in _groups(ops, strategies):
            op, strategy = group[0]
            if strategy == "dense":
                matrix = op.matrix
                if matrix is None:  # traced taps: fold on the device (differentiable)
                    matrix = _weights.taps_to_matrix(op.tap_index, op.tap_weight, op.in_size, xp=jnp)
                y = dense_fn(y, matrix.astype(cdtype), op.axis, precision)
            elif op.transpose_index is not None:  # constant taps: fused, fast transpose
                plans = [(g.phase_plan, g.phase_weight) if s == "polyphase" else None for g, s in group]
                y = _banded.banded(
                    y, [(g.tap_index, g.tap_weight.astype(cdtype)) for g, _ in group],
                    [(g.transpose_index, g.transpose_weight.astype(cdtype)) for g, _ in group],
                    [g.axis for g, _ in group], plans)
            else:
                y = _banded.banded_traced(y, [(op.tap_index, op.tap_weight)], [op.axis])
            for g, _ in group:
                if g.outside is not None:
                    y = _mask_rows(y, g.outside, g.axis, extrapolation_value)
        return y

    y = x.astype(cdtype)
    if "dense" in strategies and jnp.issubdtype(cdtype, jnp.floating):
        y = lax.cond(jnp.all(jnp.isfinite(y)), lambda v: run_all(v, _dot),
                     lambda v: run_all(v, _dense_nonfinite), y)
    else:
        y = run_all(y, _dot)
    return _dtypes.to_output(y, x.dtype)


apply = jax.jit(apply_axes, static_argnames=("extrapolation_value", "precision", "strategies"))


def run(x, ops, *, extrapolation_value: float = 0.0, precision=lax.Precision.HIGHEST, strategy: str = "auto"):
    """Chooses strategies, casts host (float64) weights once, then calls the jitted :func:`apply`.

    Front ends call this. With no operators (every axis is the identity) ``x`` is returned as a
    jax array unchanged.
    """
    strategy = _v.choice("strategy", strategy, STRATEGIES)
    x = jnp.asarray(x)
    if not ops:
        return x
    cdtype = _dtypes.compute_dtype(x.dtype)
    ops = sorted(ops, key=_order)
    strategies = [choose_strategy(op, strategy) if op.index is None else "gather" for op in ops]
    for i, op in enumerate(ops):
        if isinstance(op.tap_weight, np.ndarray):
            ops[i], strategies[i] = _prepare(op, strategies[i], cdtype)
        elif strategies[i] == "polyphase":  # traced weights: no host plan
            strategies[i] = "banded"
    strategies = tuple(strategies)
    ops = [op.replace(pattern=index_pattern(op.index, op.in_size))
           if isinstance(op.index, np.ndarray) and op.outside is None else op for op in ops]
    return apply(x, ops, extrapolation_value=float(extrapolation_value), precision=precision, strategies=strategies)


def _order(op: _weights.AxisResample):
    """Shrink first: the axis with the smallest out/in ratio is applied first. Between equal
    upsampling ratios the inner axis goes first: its output interleaves the shortest runs, so it
    should write the smaller array (bilinear x2 NHWC: W then H measured ~15% faster)."""
    ratio = op.out_size / max(op.in_size, 1)
    return (ratio, -op.axis if ratio > 1 else op.axis)


def _prepare(op: _weights.AxisResample, strategy: str, cdtype) -> tuple[_weights.AxisResample, str]:
    """Host-side work for constant taps, cast once: the dense matrix, the polyphase plan, or the
    transposed taps (banded; also polyphase's fallback for an axis without a small plan)."""
    if strategy == "dense":
        matrix = _weights.taps_to_matrix(op.tap_index, op.tap_weight, op.in_size)
        return op.replace(tap_weight=op.tap_weight.astype(cdtype), matrix=matrix.astype(cdtype)), strategy
    found = _polyphase.polyphase_plan(op.tap_index, op.tap_weight, op.in_size) if strategy == "polyphase" else None
    t_index, t_weight = _banded.transpose_taps(op.tap_index, op.tap_weight, op.in_size)
    op = op.replace(tap_weight=op.tap_weight.astype(cdtype), transpose_index=t_index,
                    transpose_weight=t_weight.astype(cdtype))
    if found is None:
        return op, "banded"
    plan, w = found
    w = w.astype(cdtype) if plan.uses_weights else np.zeros((0,), cdtype)  # scalar terms only
    return op.replace(phase_plan=plan, phase_weight=w), strategy
