"""Consecutive passes as one linear map, computed on CPU in blocks of rows.

Contract: :class:`Chain` is a :class:`~.banded.Implementation` of :data:`.banded.linear_map_p`
made of an application's consecutive constant passes (each an implementation with its own
operands: a band, a polyphase plan), applied one after another. Its transpose is the chain of
the passes' transposes in reverse order, so ``jvp``, ``transpose`` and ``vmap`` are those of the
primitive, and off CPU it is exactly the passes in turn.

On XLA's CPU backend, when the first pass is a band that runs as :func:`~.banded.row_loop` and
whose output (the intermediate array) would take at least ``BLOCK_MIN_BYTES``, and every later
pass is a band too, the chain runs as a loop over blocks of the first pass's output rows: each
iteration computes one block of the first pass (:meth:`~.banded.Implementation.row_blocks`),
applies the later passes to it (they contract other axes) and writes the result into the output
in place (``lax.fori_loop`` + ``dynamic_update_slice``). The intermediate array is never held
whole.

Why: XLA's CPU runtime allocates a program's temporary buffers on every call through the C
allocator, and glibc's ``malloc`` serves a request above its mmap threshold (which adapts up to
32 MiB, never beyond) with fresh pages from the kernel: a 37 MB float32 intermediate (12 MP ->
768x1024) cost about 9,000 page faults, each a zeroed page, on every call. Measured on 2 cores,
uint8 photos, whole call under ``jit``, alternately in one process (medians of 15), page faults
per call in brackets:

* 12 MP -> 768x1024 linear antialias: 18.0-19.8 ms (9,001) -> 9.3-9.5 ms (0);
* 12 MP -> 1600x1200 lanczos3: 44.0 ms (14,063) -> 30.6-38.1 ms (0-4,900);
* 4K -> 640x360 linear (a 16.6 MB intermediate): 4.8-5.9 ms unblocked, 4.7-4.9 ms blocked;
* 1080p -> 1422x800 cubic (18.4 MB): 5.2-6.6 ms unblocked, 7.6 ms blocked — below the
  threshold the loop only costs, hence ``BLOCK_MIN_BYTES`` at glibc's 32 MiB;
* blocks of 1 MiB and 4 MiB measured alike; collecting the blocks with ``lax.scan`` and a
  concatenation instead of updating in place was 0.3-2 ms slower.

Polyphase passes are not blocked: XLA's CPU code for their strided slices inside a loop body ran
3-4x slower than the same pass over the whole array (4K x0.5 width pass, 22-row blocks: 4.6-7.1
ms against 1.8 ms), which cost more than the page faults saved. Blocks of 4 MiB computed behind a
``lax.cond`` (which, unlike ``lax.optimization_barrier``, keeps XLA from fusing a block into the
next pass) lost too: 4K x0.5 cubic 18-21 -> 20-26 ms (RESULTS.md, tenth session).

Two polyphase passes that decimate by integers (one phase each) on different axes, with at most
``FUSED_MAX_TERMS`` taps of one axis times taps of the other and an intermediate of at least
``BLOCK_MIN_BYTES``, run instead as one pass over both axes (:func:`~.polyphase.polyphase_nd`):
each output reads its taps straight from the input, so there is no intermediate at all. 4K uint8
x0.5 linear antialias (4 x 4 taps): 17.4-18.5 ms (12,151 faults) -> 5.1-6.0 ms (0). Where that
multiplies the work it is slower, so those stay two passes: x0.5 cubic antialias (8 x 8 taps)
70-82 ms fused against 19-25 ms; 1080p x2 linear (two phases an axis) 37-50 ms against 23-28 ms.

Compile time grows by 0.1-0.3 s for the blocked programs (a second copy of the later passes for
the remainder rows).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from jax import lax
from jax import numpy as jnp

from . import banded as _banded
from . import polyphase as _polyphase

#: The CPU loop applies when the first pass's output takes at least this many bytes (glibc's
#: largest mmap threshold, ``DEFAULT_MMAP_THRESHOLD_MAX`` on 64-bit) ...
BLOCK_MIN_BYTES = 32 << 20
#: ... in blocks of about this many bytes of it (at least one output row).
BLOCK_BYTES = 4 << 20
#: Two integer-decimation polyphase passes above ``BLOCK_MIN_BYTES`` run as one pass of at most
#: this many terms (taps of one axis times taps of the other).
FUSED_MAX_TERMS = 16


@dataclasses.dataclass(frozen=True)
class Chain(_banded.Implementation):
    """``parts`` applied in turn; ``counts[i]`` operands belong to ``parts[i]``."""

    parts: tuple[_banded.Implementation, ...]
    counts: tuple[int, ...]

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
        return Chain(tuple(p.shifted(n) for p in self.parts), self.counts)

    def on_cpu(self, x, *operands):
        groups = self._split(operands)
        dtype = _banded._result_dtype(x.dtype, operands)
        fused = self._fused(x, groups)
        if fused is not None:
            return _polyphase.polyphase_nd(x, [(plan, w.astype(dtype), axis) for plan, w, axis in fused], dtype)
        rest = list(zip(self.parts[1:], groups[1:]))
        blocks = self._blocks(x, groups[0])
        if blocks is None:
            for part, ops in zip(self.parts, groups):
                x = part.on_cpu(x, *ops)
            return x

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

    def _large(self, x, operands) -> bool:
        """Whether the first pass's output takes at least ``BLOCK_MIN_BYTES``."""
        itemsize = np.dtype(_banded._result_dtype(x.dtype, operands)).itemsize
        return math.prod(self.parts[0].out_shape(x.shape, operands)) * itemsize >= BLOCK_MIN_BYTES

    def _fused(self, x, groups):
        """``[(plan, w, axis)]`` of the two passes when the chain is two integer-decimation
        polyphase passes (one phase each) on different axes, of at most ``FUSED_MAX_TERMS`` terms
        together, whose intermediate would take at least ``BLOCK_MIN_BYTES``; else ``None``."""
        passes = [p for p in self.parts if isinstance(p, _polyphase.Polyphase)]
        if len(self.parts) != 2 or len(passes) != 2 or passes[0].axis == passes[1].axis:
            return None
        taps = [sum(t is not None for t in p.plan.terms[0]) for p in passes]
        if any(p.plan.phases != 1 for p in passes) or taps[0] * taps[1] > FUSED_MAX_TERMS:
            return None
        if not self._large(x, groups[0]):
            return None
        return [(p.plan, w, p.axis) for p, (w,) in zip(passes, groups)]

    def _blocks(self, x, operands) -> _banded.RowBlocks | None:
        """The first pass's :class:`~.banded.RowBlocks` when its output takes at least
        ``BLOCK_MIN_BYTES`` and every later pass is a band, else ``None``."""
        part = self.parts[0]
        if len(self.parts) < 2 or not all(isinstance(p, _banded.Banded) for p in self.parts[1:]):
            return None
        if not self._large(x, operands):
            return None
        return part.row_blocks(x, operands, BLOCK_BYTES)
