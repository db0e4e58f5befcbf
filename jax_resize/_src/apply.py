"""Layer 3 — apply: per-axis operators -> the output array.

Contract: ``apply_axes(x, ops, ...)`` applies each :class:`~.weights.AxisResample` in order to
its axis: a gather (``jnp.take``) for index vectors, a contraction with ``lax.dot_general`` for
weight matrices (``precision=HIGHEST`` by default, accumulation in the compute dtype of
:mod:`.dtypes`). Rows flagged ``outside`` take ``extrapolation_value``. The result has the input's
dtype. Everything is a pure function of its array arguments, so ``jit``, ``vmap`` and ``grad``
(with respect to ``x`` and to traced weights) work through it.

``apply`` is the same function jitted with the static structure (axes, dtype, options) as static
arguments: eager calls with the same shapes reuse one compiled executable, and inside a user's
``jit`` it simply inlines. Faster application strategies go here, behind the same signature.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import dtypes as _dtypes


def _contract(y, matrix, axis: int, precision):
    """``out[..., o, ...] = sum_i W[o, i] * y[..., i, ...]`` along ``axis``; W: [out, in]."""
    out = lax.dot_general(
        y, matrix, (((axis,), (1,)), ((), ())), precision=precision, preferred_element_type=y.dtype
    )  # the new axis comes last
    return jnp.moveaxis(out, -1, axis)


def _mask_rows(y, outside, axis: int, fill):
    shape = [1] * y.ndim
    shape[axis] = outside.shape[0]
    return jnp.where(outside.reshape(shape), jnp.asarray(fill, y.dtype), y)


def apply_axes(x, ops, *, extrapolation_value: float = 0.0, precision=lax.Precision.HIGHEST):
    """Applies per-axis resampling operators to ``x``.

    Args:
      x: array ``[...]`` of any supported dtype.
      ops: sequence of ``AxisResample``; either all gathers or all matrices.
      extrapolation_value: value of rows flagged ``outside``.
      precision: ``lax.Precision`` for the contractions.

    Returns:
      The resampled array, same dtype as ``x``.
    """
    x = jnp.asarray(x)
    if all(op.matrix is None for op in ops):
        fill = _dtypes.scalar_as(extrapolation_value, x.dtype)
        for op in ops:
            x = jnp.take(x, op.indices, axis=op.axis, mode="clip")
            if op.outside is not None:
                x = _mask_rows(x, op.outside, op.axis, fill)
        return x
    if jnp.iscomplexobj(x):
        real = apply_axes(jnp.real(x), ops, extrapolation_value=extrapolation_value, precision=precision)
        imag = apply_axes(jnp.imag(x), ops, extrapolation_value=0.0, precision=precision)
        return lax.complex(real, imag).astype(x.dtype)
    cdtype = _dtypes.compute_dtype(x.dtype)
    y = x.astype(cdtype)
    for op in ops:
        y = _contract(y, op.matrix.astype(cdtype), op.axis, precision)
        if op.outside is not None:
            y = _mask_rows(y, op.outside, op.axis, extrapolation_value)
    return _dtypes.to_output(y, x.dtype)


apply = jax.jit(apply_axes, static_argnames=("extrapolation_value", "precision"))


def run(x, ops, *, extrapolation_value: float = 0.0, precision=lax.Precision.HIGHEST):
    """Casts host (numpy float64) weights once to the compute dtype, then calls :func:`apply`.

    Front ends call this. With no operators (every axis is the identity) ``x`` is returned as a
    jax array unchanged.
    """
    x = jnp.asarray(x)
    if not ops:
        return x
    cdtype = _dtypes.compute_dtype(x.dtype)
    ops = [
        op if not isinstance(op.matrix, np.ndarray) else
        type(op)(axis=op.axis, matrix=op.matrix.astype(cdtype), indices=op.indices, outside=op.outside)
        for op in ops
    ]
    return apply(x, ops, extrapolation_value=float(extrapolation_value), precision=precision)
