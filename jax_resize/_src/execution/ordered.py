"""Passes with a prescribed arithmetic, for callers whose bits depend on it.

Contract: a pass resamples one ``axis`` of ``x`` with host tables ``index`` (int ``[out, k]``, in
``[0, n)``) and ``weight`` (``[out, k]``):

* :func:`int_pass` sums ``x[index[o, j]] * weight[o, j]`` over ``j`` in int32 — exact, whatever
  the order, while the partial sums stay inside int32 (the caller's bound);
* :func:`ordered_pass` accumulates the same products in float32 from 0 in tap order
  ``j = 0, 1, ...``, each product and each sum rounded to float32, as a scalar C loop
  ``acc += x * w`` does (zero-weight padding taps add ``+0``: no change).

Both are plain ``jax.numpy`` of their arguments (``jit`` and ``vmap`` work; no gradient: their
callers are integer paths). :func:`program` jits a caller's whole computation once per input shape
and static options, with the tables as arguments, so eager calls of one shape share a program.
"""

from __future__ import annotations

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np

#: Taps summed unrolled; beyond, a scan over the taps (see :func:`ordered_pass`).
UNROLLED_TAPS = 32


def _gathered(x, axis: int, index):
    """``x`` with ``axis`` replaced by ``[out, k]``: ``x[..., index[o, j], ...]``."""
    return jnp.take(x, jnp.asarray(index, jnp.int32), axis=axis)


def _weights(weight, axis: int, ndim: int, dtype):
    """``weight [out, k]`` shaped to broadcast against a gathered ``x`` of rank ``ndim + 1``."""
    return jnp.asarray(weight, dtype).reshape(np.shape(weight) + (1,) * (ndim - axis - 1))


def int_pass(x, axis: int, index, weight) -> jax.Array:
    """``sum_j x[index[o, j]] * weight[o, j]`` along ``axis`` in int32 (see the module contract)."""
    g = _gathered(x.astype(jnp.int32), axis, index)
    return jnp.sum(g * _weights(weight, axis, x.ndim, jnp.int32), axis=axis + 1)


def ordered_pass(x, axis: int, index, weight) -> jax.Array:
    """``acc = 0; acc += x[index[o, j]] * weight[o, j]`` for ``j = 0, 1, ...`` in float32.

    Up to :data:`UNROLLED_TAPS` taps the sums are unrolled; wider tables (a large shrink) run a
    ``lax.scan`` over the taps, one program whatever their count, with the same sums."""
    g = _gathered(x.astype(jnp.float32), axis, index)
    w = _weights(weight, axis, x.ndim, jnp.float32)  # [out, k, 1, ...]: its tap axis is 1
    k = np.shape(weight)[1]
    if k > UNROLLED_TAPS:

        def step(acc, tap):
            return acc + rounded(tap[0] * tap[1]), None

        acc0 = jnp.zeros(jax.lax.index_in_dim(g, 0, axis=axis + 1, keepdims=False).shape, jnp.float32)
        return jax.lax.scan(step, acc0, (jnp.moveaxis(g, axis + 1, 0), jnp.moveaxis(w, 1, 0)))[0]
    acc = jnp.zeros((), jnp.float32)  # 0 + t == t exactly: the first sum changes nothing
    for j in range(k):
        acc = acc + rounded(jax.lax.index_in_dim(g, j, axis=axis + 1, keepdims=False) * w[:, j])
    return acc


def rounded(x: jax.Array) -> jax.Array:
    """``x`` (a product), rounded to float32 before any addition uses it.

    A select on ``x == x`` (false only for NaN, which stays NaN) stands between the product and
    its consumer, so XLA cannot contract the two into a fused multiply-add. jax has no switch for
    contraction; ``lax.reduce_precision(x, 8, 23)`` and ``lax.optimization_barrier`` do not stop
    it on XLA's CPU backend, this select does.
    """
    return jnp.where(x == x, x, jnp.float32(jnp.nan))


def divided(x: jax.Array, divisor) -> jax.Array:
    """``x / divisor`` correctly rounded in float32: the divisor (a static number or array) is
    selected per element (``x == x`` as in :func:`rounded`), so XLA's simplifier cannot replace
    the division by a multiplication with its reciprocal."""
    return x / jnp.where(x == x, jnp.asarray(divisor, jnp.float32), jnp.float32(jnp.nan))


@functools.cache
def program(fn):
    """``fn(x, tables, **static)`` jitted with the keyword options static: one compilation per
    input shape, table shapes and options (``fn`` must be a module-level function)."""
    return jax.jit(fn, static_argnames=_static_names(fn))


def _static_names(fn) -> tuple[str, ...]:
    return tuple(p.name for p in inspect.signature(fn).parameters.values() if p.kind is p.KEYWORD_ONLY)
