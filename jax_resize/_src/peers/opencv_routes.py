"""OpenCV's own integer-table routes as plans (one image's route and tables) and their executor.

Contract: a :class:`Plan` is ``route`` (static), ``rows`` / ``cols`` (numpy tables, first axis the
outputs: index, weight, the route's extras) and ``scalars``. :func:`execute` is plain ``jax.numpy``
(``jit``, ``vmap``); :func:`stacked` stacks plans across images (taps zero-padded, outputs placed in
a canvas, zero tables elsewhere): a zero-weight tap adds an exact zero in every route and an output
whose taps all weigh 0 is 0. Routes (``resize.cpp``): ``"mulhi"``, ``"shift22"``, ``"shift16"``,
``"float"`` (:func:`two_pass`), ``"blocks"`` (``resizeAreaFast_``), ``"ordered"`` (float32 sums in
table order: ``ResizeArea_Invoker``, and the float taps standing in for Intel IPP's cubic).
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from .. import rounding as _rounding
from ..execution import ordered as _ordered

_F32 = np.float32
#: values per iteration of ``VResizeCubicVec_32s8u``'s loop in the x86-64 wheel (AVX2 dispatch)
CUBIC_LANES = 8


class Plan(NamedTuple):
    """One image's route, its tables and output ``dtype`` (a name)."""

    route: str
    rows: tuple
    cols: tuple
    scalars: tuple
    dtype: str


def vector_lanes(out_w: int, cn: int) -> np.ndarray:
    """``VResizeCubicVec_32s8u`` takes whole groups of :data:`CUBIC_LANES` values of a row
    (``out_w * cn`` of them); the row's rest is the scalar loop's. ``[out_w, cn]`` bool."""
    n = out_w * cn
    return (np.arange(n) < n - n % CUBIC_LANES).reshape(out_w, cn)


def block_taps(in_size: int, out_size: int, block: int) -> tuple:
    """``resizeAreaFast_``'s blocks of one axis as taps: output ``o`` sums inputs ``o * block + j``
    inside the image (weight 1; beyond its edge weight 0). Returns ``(index, weight, count,
    whole)``: int32 ``[out, block]`` twice, the inputs summed (int32 ``[out]``), whether the block
    is whole (bool ``[out]``)."""
    at = np.arange(out_size)[:, None] * block + np.arange(block)[None, :]
    weight = (at < in_size).astype(np.int32)
    count = weight.sum(axis=1).astype(np.int32)
    return np.minimum(at, in_size - 1).astype(np.int32), weight, count, count == block


def two_pass(x, rows, cols, lanes=None, *, form: str) -> jax.Array:
    """The horizontal pass in int32, then the vertical pass of ``form``: ``"mulhi"``
    (``VResizeLinearVec_32s8u``: ``((b0 * (S0 >> 4)) >> 16) + ((b1 * (S1 >> 4)) >> 16) + 2 >> 2``),
    ``"shift22"`` (``(sum + 2**21) >> 22``), ``"shift16"`` (``resize_bitExact``: ``(sum + 2**15)
    >> 16``) or ``"float"`` (``VResizeCubicVec_32s8u``: float32 ``((t2 + t3) + t1) + t0`` with
    ``t = S * (b * 2**-22)``, rounded half to even, where ``lanes`` (``[out_w, cn]`` bool: the
    vector loop's values, :func:`vector_lanes`), else as ``"shift22"``)."""
    s = _ordered.int_pass(x, 1, *cols)
    index, weight = rows
    if form in ("shift22", "shift16"):
        bits = 22 if form == "shift22" else 16
        return _rounding.to_output((_ordered.int_pass(s, 0, index, weight) + (1 << (bits - 1))) >> bits, np.uint8)
    g = jnp.take(s, jnp.asarray(index, jnp.int32), axis=0)  # [out_h, k, out_w(, C)]
    b = jnp.asarray(weight, jnp.int32).reshape(weight.shape + (1,) * (s.ndim - 1))
    if form == "mulhi":
        return _rounding.to_output(
            (((b[:, 0] * (g[:, 0] >> 4)) >> 16) + ((b[:, 1] * (g[:, 1] >> 4)) >> 16) + 2) >> 2, np.uint8
        )
    # S * b fits int32 (|S| < 2**20, |b| < 2**12), so its float32 conversion is the float32 product
    # (no fused multiply-add can change it); 2**-22 scales exactly
    t = [(g[:, j] * b[:, j]).astype(jnp.float32) * _F32(1.0 / (1 << 22)) for j in range(4)]
    vector = jnp.rint(((t[2] + t[3]) + t[1]) + t[0]).astype(jnp.int32)
    lanes = jnp.reshape(lanes, lanes.shape[:1] + x.shape[2:])  # [out_w] for an [H, W] image
    return _rounding.to_output(jnp.where(lanes, vector, (jnp.sum(g * b, axis=1) + (1 << 21)) >> 22), np.uint8)


def _blocks(x, rows, cols, scalars, dtype: str) -> jax.Array:
    """``resizeAreaFast_``: block sums in int32 (:func:`block_taps`); whole blocks ``(sum + 2) >> 2``
    where ``pairs`` (2x2 blocks of 1, 3 or 4 channels), else ``rint(f32(sum) * recip)`` (``recip``:
    ``f32(1 / area)``); blocks cut by the image's right or bottom edge ``rint(f32(sum) / f32(count))``."""
    (ri, rw, rc, r_whole), (ci, cw, cc, c_whole), (pairs, recip) = rows, cols, scalars
    sums = _ordered.int_pass(_ordered.int_pass(x, 1, ci, cw), 0, ri, rw)
    tail = (1,) * (x.ndim - 2)
    whole = (r_whole[:, None] & c_whole[None, :]).reshape(sums.shape[:2] + tail)
    count = jnp.maximum(rc[:, None] * cc[None, :], 1).astype(jnp.float32).reshape(sums.shape[:2] + tail)
    total = sums.astype(jnp.float32)
    full = jnp.where(pairs, (sums + 2) >> 2, jnp.rint(total * recip).astype(jnp.int32))
    part = jnp.rint(_ordered.divided(total, count)).astype(jnp.int32)
    return _rounding.to_output(jnp.where(whole, full, part), dtype)


def execute(x, rows, cols, scalars, *, route: str, dtype: str) -> jax.Array:
    """``x`` ``[H, W(, C)]`` resized by one plan's tables (see the module contract)."""
    if route == "blocks":
        return _blocks(x, rows, cols, scalars, dtype)
    if route == "ordered":  # each input row's float32 sums in table order, then the rows' sums
        return _rounding.to_output(_ordered.ordered_pass(_ordered.ordered_pass(x, 1, *cols), 0, *rows), dtype)
    return two_pass(x, rows, cols[:2], cols[2] if route == "float" else None, form=route)


_PLANS: contextvars.ContextVar = contextvars.ContextVar("jax_resize_cv2_plans", default=None)


@contextlib.contextmanager
def planned():
    """Inside this block :func:`run` appends its :class:`Plan` to the list this yields, returns zeros."""
    plans: list[Plan] = []
    token = _PLANS.set(plans)
    try:
        yield plans
    finally:
        _PLANS.reset(token)


def run(x, plan: Plan) -> jax.Array:
    """``plan`` applied to ``x``: one jitted program per shape and route, the tables its arguments."""
    found = _PLANS.get()
    if found is not None:
        found.append(plan)
        return jnp.zeros((len(plan.rows[0]), len(plan.cols[0]), *x.shape[2:]), plan.dtype)
    return _ordered.program(execute)(x, plan.rows, plan.cols, plan.scalars, route=plan.route, dtype=plan.dtype)


def stacked(plans: list, places, canvas, route: str) -> tuple:
    """``(rows, cols, scalars)`` of the images whose plan takes ``route``, stacked over all images
    (leading axis): image ``i``'s tables at outputs ``places[i]`` of ``canvas`` ``(h, w)``, trailing
    axes zero-padded to the widest; zeros for the other images and outside the placed outputs."""
    mine = [(i, p) for i, p in enumerate(plans) if p is not None and p.route == route]
    first = mine[0][1]

    def axis(a):
        tables = []
        for j, table in enumerate((first.rows, first.cols)[a]):
            arrays = [(i, np.asarray((p.rows, p.cols)[a][j])) for i, p in mine]
            trailing = tuple(max(t.shape[d] for _, t in arrays) for d in range(1, table.ndim))
            out = np.zeros((len(plans), canvas[a], *trailing), np.asarray(table).dtype)
            for i, t in arrays:
                at = places[i][a]
                out[(i, slice(at, at + len(t)), *(slice(0, n) for n in t.shape[1:]))] = t
            tables.append(out)
        return tuple(tables)

    scalars = []
    for j, value in enumerate(first.scalars):
        column = np.zeros(len(plans), np.asarray(value).dtype)
        for i, p in mine:
            column[i] = p.scalars[j]
        scalars.append(column)
    return axis(0), axis(1), tuple(scalars)
