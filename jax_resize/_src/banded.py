"""Banded contractions: ``out[o] = sum_k w[o, k] * x[index[o, k]]`` along one or more axes.

Contract: :func:`banded` contracts ``x`` along each axis of a group with that axis's taps in a
single pass: for taps ``(index_i, weight_i)`` on axes ``a_1..a_m`` it sums, over every tap
combination, ``prod_i w_i * x[index_1, ..., index_m]`` — gathers fused into multiply-adds, so the
intermediate arrays of a per-axis application are never written. Zero weights are skipped, so
NaN/Inf inputs reach only the outputs that weight them.

An axis with a polyphase plan (:mod:`.polyphase`) is computed from strided slices instead of
gathers — same weights, same primitive, so it shares the derivative below.

Its reverse-mode derivative with respect to ``x`` is the same contraction with the *transposed*
taps (precomputed on the host by :func:`transpose_taps`) instead of scatter-adds, which XLA runs
serially on CPU. It is a JAX primitive (``jax_resize_banded``) so that ``jvp``, ``grad``,
``vmap`` and ``jit`` all work; the taps are constants (no derivative flows to them — traced
weights use :func:`banded_traced`, plain jax ops, instead).
"""

from __future__ import annotations

import itertools

import jax.numpy as jnp
import numpy as np
from jax import core as _core
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from . import polyphase as _polyphase


def banded_traced(x, taps, axes):
    """The fused contraction with plain jax ops (differentiable in the weights too).

    Args:
      x: array ``[..., in_i, ...]``.
      taps: sequence of ``(index [out_i, k_i] int, weight [out_i, k_i])``, one per axis.
      axes: the contracted axes, one per element of ``taps``.

    Returns:
      ``x`` with each ``in_i`` replaced by ``out_i``, in ``x``'s dtype.
    """
    out_shape = list(x.shape)
    for (index, _), axis in zip(taps, axes):
        out_shape[axis] = index.shape[0]
    columns = []
    for (index, weight), axis in zip(taps, axes):
        shape = [1] * x.ndim
        shape[axis] = index.shape[0]
        columns.append([(index[:, k], weight[:, k].astype(x.dtype).reshape(shape)) for k in range(index.shape[1])])
    out = None
    for combo in itertools.product(*columns):
        v, w = x, None
        for (idx, wk), axis in zip(combo, axes):
            v = jnp.take(v, idx, axis=axis, mode="clip")
            w = wk if w is None else w * wk
        term = jnp.where(w != 0, w * v, 0)
        out = term if out is None else out + term
    if out is None:  # an axis without taps (empty output)
        out = jnp.zeros(out_shape, x.dtype)
    return out


def transpose_taps(index: np.ndarray, weight: np.ndarray, in_size: int):
    """Taps of ``W.T``: ``[in_size, k_t]`` index/weight arrays such that the banded contraction
    with them computes ``W.T @ g`` for ``W`` given by ``(index, weight)`` (``[out, k]``)."""
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


banded_p = Primitive("jax_resize_banded")

_NO_WEIGHTS = np.zeros((0,), np.float32)


def banded(x, taps, transposed, axes, plans=None):
    """Fused banded contraction of ``x`` along ``axes`` with constant taps.

    Args:
      x: array ``[..., in_i, ...]``.
      taps: per axis ``(index [out_i, k_i], weight [out_i, k_i])``, weights in ``x``'s dtype.
      transposed: per axis the taps of ``W_i.T`` (:func:`transpose_taps`), ``[in_i, k_t]``.
      axes: the contracted axes.
      plans: optional, per axis ``None`` or ``(PolyphasePlan, w [L, K, Q])``: that axis is
        applied as strided slices (:mod:`.polyphase`, same weights) instead of gathers; its
        transpose still uses the transposed taps. An axis with a plan must be alone in ``axes``.

    Returns:
      ``x`` with each ``in_i`` replaced by ``out_i``, in ``x``'s dtype.
    """
    plans = plans or [None] * len(axes)
    fwd = tuple(None if p is None else p[0] for p in plans)
    weights = [_NO_WEIGHTS if p is None else p[1] for p in plans]
    flat = ([a for pair in taps for a in pair] + [a for pair in transposed for a in pair]
            + weights + [_NO_WEIGHTS] * len(axes))
    return banded_p.bind(x, *flat, axes=tuple(axes), plans=fwd, tplans=(None,) * len(axes))


def _split(operands, axes):
    m = len(axes)
    taps = [(operands[2 * i], operands[2 * i + 1]) for i in range(m)]
    transposed = [(operands[2 * m + 2 * i], operands[2 * m + 2 * i + 1]) for i in range(m)]
    weights = list(operands[4 * m:5 * m])
    t_weights = list(operands[5 * m:6 * m])
    return taps, transposed, weights, t_weights


def _impl(x, *operands, axes, plans, tplans):
    taps, _, weights, _ = _split(operands, axes)
    if any(p is not None for p in plans):
        (plan,), (w,), (axis,) = plans, weights, axes
        return _polyphase.polyphase(x, plan, w.astype(x.dtype), axis)
    return banded_traced(x, taps, axes)


def _abstract_eval(x, *operands, axes, plans, tplans):
    taps, *_ = _split(operands, axes)
    shape = list(x.shape)
    for (index, _), axis in zip(taps, axes):
        shape[axis] = index.shape[0]
    return _core.ShapedArray(tuple(shape), x.dtype)


def _jvp(primals, tangents, **params):
    x, *operands = primals
    out = banded_p.bind(x, *operands, **params)
    tx = tangents[0]
    if type(tx) is ad.Zero:
        return out, ad.Zero.from_primal_value(out)
    return out, banded_p.bind(tx, *operands, **params)


def _transpose(ct, x, *operands, axes, plans, tplans):
    assert ad.is_undefined_primal(x)
    none = (None,) * len(operands)
    if type(ct) is ad.Zero:
        return (ad.Zero(x.aval), *none)
    taps, transposed, weights, t_weights = _split(operands, axes)
    flat = ([a for pair in transposed for a in pair] + [a for pair in taps for a in pair]
            + t_weights + weights)
    return (banded_p.bind(ct, *flat, axes=axes, plans=tplans, tplans=plans), *none)


def _batch(args, dims, *, axes, plans, tplans):
    x, *operands = args
    bx, *bops = dims
    if any(d is not None for d in bops):  # the taps are constants; never batched
        raise NotImplementedError("jax_resize_banded does not batch over its taps")
    x = jnp.moveaxis(x, bx, 0)
    return banded_p.bind(x, *operands, axes=tuple(a + 1 for a in axes), plans=plans, tplans=tplans), 0


banded_p.def_impl(_impl)
banded_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[banded_p] = _jvp
ad.primitive_transposes[banded_p] = _transpose
batching.primitive_batchers[banded_p] = _batch
mlir.register_lowering(banded_p, mlir.lower_fun(_impl, multiple_results=False))
