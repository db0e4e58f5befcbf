"""Runtime-sized row loops: ``out[o] = sum_{j < count[o]} weight[o, j] * x[index[o, j]]`` along one axis.

Contract: :func:`rows_traced` runs a ``fori_loop`` over blocks of the other axes (flattened), the output
rows and, innermost, the row's ``count[o]`` taps, each tap one multiply-add over the block:
``acc = acc + w * x`` from ``acc = 0``, left to right. Trip counts are array values, not shapes: the
number of blocks too (a shared program computes its real values only, and runs at the cost of the
call's own shapes). So every output value is the
same chain of operations whatever the shapes around it: padding the input, the other axes, the rows or
the tap columns (a shared program of :mod:`.buckets`) changes the program's shapes, never one value's
arithmetic, and one compiled program serves every size up to its shapes. :func:`compact` (host) moves a
row's non-zero taps to the front in their order and counts them: zero weights are never taps, so NaN/Inf
reach only the outputs that weight them, and padded taps (weight ``-0.0``) are dropped. Integer input is
converted row by row inside the loop (no float copy of the input). CPU only (:func:`.decide.rows_strategy`):
on an accelerator every iteration would be a kernel launch.
"""

from __future__ import annotations

import dataclasses

import jax.numpy as jnp
import numpy as np
from jax import lax

from .primitive import Implementation, result_dtype


def compact(index: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(index, weight, count)`` of host taps ``[out, k]``: each row's non-zero taps first, in their
    order (the shape kept: ``k`` columns), ``count [out]`` int32 of them."""
    weight = np.asarray(weight)
    keep = weight != 0
    order = np.argsort(~keep, axis=1, kind="stable")
    index = np.take_along_axis(np.asarray(index, np.int32), order, axis=1)
    return index, np.take_along_axis(weight, order, axis=1), keep.sum(axis=1, dtype=np.int32)


def rows_traced(x, index, weight, count, axis: int, block: int, length=None):
    """The loop of the module docstring. ``x [..., in, ...]``; ``index``/``weight`` ``[out, k]``,
    ``count [out]`` (arrays or tracers); the other axes, flattened, run in blocks of ``block``
    elements, ``length`` (an int32 scalar, default all of them) of them computed: a shared program's
    real values come first in each flattened row, the rest is padding (:func:`real_length`). A last
    block past the row's end is moved back to end there (its values computed again, alike).
    Returns ``x`` with ``in`` replaced by ``out`` at ``axis``, in ``x``'s dtype (the weights' for
    integer ``x``: float, or int32 for integer weights)."""
    index, weight, count = jnp.asarray(index), jnp.asarray(weight), jnp.asarray(count)
    dtype = result_dtype(x.dtype, [weight])
    weight = weight.astype(dtype)
    moved = jnp.moveaxis(x, axis, 0)
    rest = moved.shape[1:]
    flat = moved.reshape(moved.shape[0], -1)
    out, width = index.shape[0], flat.shape[1]
    size = max(1, min(block, width))
    if length is None:
        length = width
    blocks = (jnp.asarray(length, jnp.int32) + size - 1) // size

    def one_block(b, y):
        start = jnp.minimum(b * size, width - size)

        def row(o, y):
            def tap(j, acc):
                v = lax.dynamic_slice(flat, (index[o, j], start), (1, size))[0]
                return acc + weight[o, j] * v.astype(dtype)

            acc = lax.fori_loop(0, count[o], tap, jnp.zeros((size,), dtype))
            return lax.dynamic_update_slice(y, acc[None], (o, start))

        return lax.fori_loop(0, out, row, y)

    y = jnp.zeros((out, width), dtype)
    if width:
        y = lax.fori_loop(0, blocks, one_block, y)
    return jnp.moveaxis(y.reshape((out, *rest)), 0, axis)


def real_length(padded: tuple[int, ...], real: tuple[int, ...], axis: int) -> int:
    """Elements of a flattened row of ``padded`` (without ``axis``, the others in order) up to and
    including the last one inside ``real``: the ``length`` of :func:`rows_traced`."""
    dims = [(p, r) for a, (p, r) in enumerate(zip(padded, real)) if a != axis]
    if any(r == 0 for _, r in dims):
        return 0
    last, stride = 0, 1
    for p, r in reversed(dims):
        last += (r - 1) * stride
        stride *= p
    return last + 1


@dataclasses.dataclass(frozen=True)
class Rows(Implementation):
    """:func:`rows_traced` as an implementation of :data:`.primitive.linear_map_p`; operands
    ``index, weight, count`` and, ``with_length``, ``length``."""

    axis: int
    block: int
    with_length: bool = False

    @property
    def axes(self) -> tuple[int, ...]:  # type: ignore[override]
        return (self.axis,)

    def __call__(self, x, *operands):
        index, weight, count, *length = operands
        return rows_traced(x, index, weight, count, self.axis, self.block, *length)

    def out_shape(self, shape, operands):
        shape = list(shape)
        shape[self.axis] = operands[0].shape[0]
        return tuple(shape)

    def shifted(self, n):
        return dataclasses.replace(self, axis=self.axis + n)
