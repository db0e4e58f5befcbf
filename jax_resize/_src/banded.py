"""The banded contraction ``out[o] = sum_k w[o, k] * x[index[o, k]]`` along one axis.

Contract: :func:`banded` computes it as ``k`` gathers fused into multiply-adds (one pass over
memory), skipping zero weights so that NaN/Inf inputs reach only the outputs that weight them.
Its reverse-mode derivative with respect to ``x`` is the same contraction with the *transposed*
taps (precomputed on the host by :func:`transpose_taps`) instead of a scatter-add, which XLA
executes serially on CPU. This is a JAX primitive (``jax_resize_banded``) so that ``jvp``,
``grad``, ``vmap`` and ``jit`` all work; the taps are constants (no derivative flows to them —
traced weights use :func:`banded_traced`, plain jax ops, instead).
"""

from __future__ import annotations

import numpy as np
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir
import jax.numpy as jnp
from jax import core as _core


def banded_traced(x, index, weight, axis: int):
    """``sum_k w[:, k] * take(x, index[:, k], axis)``, zero weights skipped; plain jax ops."""
    shape = [1] * x.ndim
    shape[axis] = index.shape[0]
    out = None
    for k in range(index.shape[1]):
        w = weight[:, k].astype(x.dtype).reshape(shape)
        term = jnp.where(w != 0, w * jnp.take(x, index[:, k], axis=axis, mode="clip"), 0)
        out = term if out is None else out + term
    if out is None:
        out = jnp.zeros(x.shape[:axis] + (index.shape[0],) + x.shape[axis + 1:], x.dtype)
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


def banded(x, index, weight, t_index, t_weight, *, axis: int):
    """Banded contraction of ``x`` along ``axis`` with constant taps and their transpose.

    Args:
      x: array ``[..., in, ...]``.
      index, weight: ``[out, k]`` taps (weights already in ``x``'s dtype).
      t_index, t_weight: ``[in, k_t]`` transposed taps (:func:`transpose_taps`).
      axis: the contracted axis.

    Returns:
      ``[..., out, ...]`` of ``x``'s dtype.
    """
    return banded_p.bind(x, index, weight, t_index, t_weight, axis=axis)


def _impl(x, index, weight, t_index, t_weight, *, axis):
    return banded_traced(x, index, weight, axis)


def _abstract_eval(x, index, weight, t_index, t_weight, *, axis):
    shape = list(x.shape)
    shape[axis] = index.shape[0]
    return _core.ShapedArray(tuple(shape), x.dtype)


def _jvp(primals, tangents, *, axis):
    x, *taps = primals
    out = banded_p.bind(x, *taps, axis=axis)
    tx = tangents[0]
    if type(tx) is ad.Zero:
        return out, ad.Zero.from_primal_value(out)
    return out, banded_p.bind(tx, *taps, axis=axis)


def _transpose(ct, x, index, weight, t_index, t_weight, *, axis):
    assert ad.is_undefined_primal(x) and not ad.is_undefined_primal(weight)
    if type(ct) is ad.Zero:
        return (ad.Zero(x.aval), None, None, None, None)
    return (banded_p.bind(ct, t_index, t_weight, index, weight, axis=axis), None, None, None, None)


def _batch(args, dims, *, axis):
    x, *taps = args
    bx, *btaps = dims
    if any(d is not None for d in btaps):  # taps are constants; never batched
        raise NotImplementedError("jax_resize_banded does not batch over its taps")
    x = jnp.moveaxis(x, bx, 0)
    return banded_p.bind(x, *taps, axis=axis + 1), 0


banded_p.def_impl(_impl)
banded_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[banded_p] = _jvp
ad.primitive_transposes[banded_p] = _transpose
batching.primitive_batchers[banded_p] = _batch
mlir.register_lowering(banded_p, mlir.lower_fun(_impl, multiple_results=False))
