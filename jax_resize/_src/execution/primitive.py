"""The linear-map primitive: any forward implementation of a map linear in ``x``, one transpose rule.

Contract: :data:`linear_map_p` (``jax_resize_linear_map``) binds ``x`` with constant operands to a
hashable :class:`Implementation` of the map and one of its transpose; ``jvp`` applies the map to
the tangent and ``transpose`` swaps the two, so gradients are the banded contraction with
host-transposed taps instead of scatter-adds (which XLA runs serially on CPU). The transpose's
operands may be a static callable (``later``) instead, called when a gradient is traced. ``vmap`` shifts the
implementations by a batch axis; on XLA's CPU backend the lowering calls
:meth:`Implementation.on_cpu`, elsewhere ``__call__``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import core as _core
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

#: The abstract value of an array or tracer (``jax.typeof`` from jax 0.6; ``core.get_aval`` before).
typeof = getattr(jax, "typeof", None) or getattr(_core, "get_aval")  # noqa: B009


def result_dtype(x_dtype, operands):
    """``x``'s dtype, or for integer ``x`` (a first pass reading the input as it is) the dtype of
    the floating operands (the weights); int32 when every operand is an integer (the exact
    fixed-point path: integer weights)."""
    if jnp.issubdtype(x_dtype, jnp.inexact):
        return x_dtype
    return next((o.dtype for o in operands if jnp.issubdtype(o.dtype, jnp.floating)), np.dtype(np.int32))


@dataclasses.dataclass(frozen=True)
class RowBlocks:
    """A one-axis map's output split along its ``axis`` for a loop (see :mod:`.chain`): ``count``
    blocks of ``rows`` output rows, block ``b`` (a traced int32) being rows ``b * rows`` onwards,
    computed by ``block(b)``; ``pieces`` the remaining rows, as ``(output row, thunk)`` pairs
    computed apart (a remainder). Every output row is in exactly one of them."""

    axis: int
    rows: int
    count: int
    block: Callable
    pieces: tuple[tuple[int, Callable], ...] = ()


class Implementation:
    """A forward implementation for :data:`linear_map_p`: hashable, static.

    Subclasses define ``__call__(x, *operands)`` (the map, linear in ``x``), ``out_shape(shape,
    operands)``, ``shifted(n)`` (the same map on an array with ``n`` leading batch axes) and
    ``axes``; a one-axis map may define ``row_blocks`` (its CPU form split into blocks of output
    rows). Capabilities that :mod:`.decide` reads: ``loops_well`` (runs as fast inside a loop
    body over row blocks as over the whole array) and ``decimation_terms`` (the taps of a
    one-phase polyphase pass, else ``None``).
    """

    axes: tuple[int, ...]  # annotation only: a dataclass field or a property of the subclass
    loops_well = False
    decimation_terms: int | None = None

    def __call__(self, x, *operands):  # pragma: no cover - interface
        raise NotImplementedError

    def out_shape(self, shape, operands) -> tuple[int, ...]:  # pragma: no cover - interface
        raise NotImplementedError

    def shifted(self, n: int) -> Implementation:  # pragma: no cover - interface
        raise NotImplementedError

    def on_cpu(self, x, *operands):
        """The map as lowered for XLA's CPU backend (default: ``__call__``)."""
        return self(x, *operands)

    def row_blocks(self, x, operands, block_bytes: int) -> RowBlocks | None:
        """:meth:`on_cpu` split along the map's one axis into blocks of about ``block_bytes`` of
        output (at least one row each), or ``None`` (not split: the default)."""
        return None


linear_map_p = Primitive("jax_resize_linear_map")


def linear_map(x, forward: Implementation, operands, transpose: Implementation, t_operands):
    """Applies ``forward(x, *operands)``, whose transpose is ``transpose(g, *t_operands)``.
    Both operand lists are constants (no derivative flows to them); ``t_operands`` may instead be
    a static callable that returns them (built on the host only when a gradient is traced, and
    embedded in that program). Returns ``x`` mapped, in ``x``'s dtype.
    """
    if callable(t_operands):
        return linear_map_p.bind(x, *operands, forward=forward, transpose=transpose, n=len(operands), later=t_operands)
    return linear_map_p.bind(
        x, *operands, *t_operands, forward=forward, transpose=transpose, n=len(operands), later=None
    )


def _impl(x, *operands, forward, transpose, n, later):
    return forward(x, *operands[:n])


def _abstract_eval(x, *operands, forward, transpose, n, later):
    return _core.ShapedArray(forward.out_shape(x.shape, operands[:n]), result_dtype(x.dtype, operands[:n]))


def _jvp(primals, tangents, **params):
    x, *operands = primals
    out = linear_map_p.bind(x, *operands, **params)
    tx = tangents[0]
    if type(tx) is ad.Zero:
        return out, ad.Zero(typeof(out).to_tangent_aval())
    return out, linear_map_p.bind(tx, *operands, **params)


def _transpose(ct, x, *operands, forward, transpose, n, later):
    assert ad.is_undefined_primal(x)
    none = (None,) * len(operands)
    if type(ct) is ad.Zero:
        return (ad.Zero(x.aval), *none)
    t_operands = list(later()) if later is not None else list(operands[n:])
    swapped = (*t_operands, *operands[:n])
    out = linear_map_p.bind(ct, *swapped, forward=transpose, transpose=forward, n=len(t_operands), later=None)
    return (out, *none)


def _batch(args, dims, *, forward, transpose, n, later):
    x, *operands = args
    bx, *bops = dims
    if any(d is not None for d in bops):  # the operands are constants; never batched
        raise NotImplementedError("jax_resize_linear_map does not batch over its operands")
    x = jnp.moveaxis(x, bx, 0)
    shifted = dict(forward=forward.shifted(1), transpose=transpose.shifted(1), n=n, later=later)
    return linear_map_p.bind(x, *operands, **shifted), 0


linear_map_p.def_impl(_impl)
linear_map_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[linear_map_p] = _jvp
ad.primitive_transposes[linear_map_p] = _transpose
batching.primitive_batchers[linear_map_p] = _batch
mlir.register_lowering(linear_map_p, mlir.lower_fun(_impl, multiple_results=False))


def _impl_cpu(x, *operands, forward, transpose, n, later):
    return forward.on_cpu(x, *operands[:n])


mlir.register_lowering(linear_map_p, mlir.lower_fun(_impl_cpu, multiple_results=False), platform="cpu")
