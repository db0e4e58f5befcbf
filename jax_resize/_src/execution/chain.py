"""Consecutive passes as one linear map, computed on CPU in blocks of rows or as one fused pass.

Contract: :class:`Chain` is an :class:`~.primitive.Implementation` of
:class:`.primitive.LinearMap` made of an application's consecutive constant passes (each an
implementation with its own operands: a band, a polyphase plan), applied one after another. Its
transpose is the chain of the passes' transposes in reverse order, so ``jvp``, ``transpose`` and
``vmap`` are those of the primitive, and off CPU it is exactly the passes in turn.

On XLA's CPU backend :func:`.decide.chain_form` may choose, for a large intermediate:

* ``"blocks"``: a loop over blocks of the first pass's output rows (its
  :meth:`~.primitive.Implementation.row_blocks`), each block taken through the later passes and
  written into the output in place; the intermediate is never held whole. Why: XLA's CPU runtime
  allocates a program's temporaries on every call through the C allocator, and glibc serves a
  request above its mmap threshold with fresh, zeroed pages from the kernel on every call.
* ``"fused"``: two integer decimations as one pass over both axes
  (:func:`~.polyphase.polyphase_nd`): each output reads its taps straight from the input, so there
  is no intermediate at all.

The measurements behind both are in ``benchmarks/results/cpu_passes.md`` ("Large intermediates on CPU",
"Two decimations as one pass").
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from jax import lax
from jax import numpy as jnp

from . import decide as _decide
from . import polyphase as _polyphase
from .primitive import Implementation, result_dtype
from .tuning import Tuning


@dataclasses.dataclass(frozen=True)
class Chain(Implementation):
    """``parts`` applied in turn; ``counts[i]`` operands belong to ``parts[i]``."""

    parts: tuple[Implementation, ...]
    counts: tuple[int, ...]
    tuning: Tuning

    @property
    def axes(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(a for p in self.parts for a in p.axes)

    def _split(self, operands):
        ends = np.cumsum((0,) + self.counts)
        return [operands[a:b] for a, b in zip(ends[:-1], ends[1:])]

    def __call__(self, x, *operands):
        for part, ops in zip(self.parts, self._split(operands)):
            x = part(x, *ops)
        return x

    def out_shape(self, shape, operands):
        for part, ops in zip(self.parts, self._split(operands)):
            shape = part.out_shape(shape, ops)
        return tuple(shape)

    def shifted(self, n):
        return dataclasses.replace(self, parts=tuple(p.shifted(n) for p in self.parts))

    def on_cpu(self, x, *operands):
        groups = self._split(operands)
        dtype = result_dtype(x.dtype, operands)
        first = self.parts[0].out_shape(x.shape, groups[0])
        first_bytes = math.prod(first) * np.dtype(result_dtype(x.dtype, groups[0])).itemsize
        form = _decide.chain_form(self.parts, first_bytes, self.tuning)
        if form == "fused":
            parts = [(p.plan, w.astype(dtype), p.axis) for p, (w,) in zip(self.parts, groups)]
            return _polyphase.polyphase_nd(x, parts, dtype, self.tuning.sum_chains)
        blocks = self.parts[0].row_blocks(x, groups[0], self.tuning.block_bytes) if form == "blocks" else None
        if blocks is None:
            for part, ops in zip(self.parts, groups):
                x = part.on_cpu(x, *ops)
            return x
        rest = list(zip(self.parts[1:], groups[1:]))

        def later(y):  # the later passes, on a block of the first pass's output
            for part, ops in rest:
                y = part.on_cpu(y, *ops)
            return y.astype(dtype)

        axis = blocks.axis
        out = jnp.zeros(self.out_shape(x.shape, operands), dtype)
        for row, piece in blocks.pieces:
            out = lax.dynamic_update_slice_in_dim(out, later(piece()), row, axis)
        if not blocks.count:
            return out

        def body(b, out):  # XLA updates the loop's output in place
            return lax.dynamic_update_slice_in_dim(out, later(blocks.block(b)), b * blocks.rows, axis)

        return lax.fori_loop(0, blocks.count, body, out)
