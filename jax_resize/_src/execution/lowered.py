"""Programs planned for the platform they are lowered for.

Contract: :func:`bind` applies a :class:`Deferred` function (hashable, static) to its operands
through :data:`planned_p` (``jax_resize_planned``). A trace plans nothing: each platform's
lowering rule (``cpu``, ``tpu``, and the default rule for the GPUs) asks the function for that
platform's program (:meth:`Deferred.program`) and lowers it. A ``jit`` placed on the CPU in a GPU
process thus runs the CPU row, and ``jax.export(..., platforms=...)`` holds one program per
platform (JAX emits the switch on the platform index). Outside a trace the operands' platform's
program runs op by op.

Transformations are recorded (:class:`Jvp`, :class:`Transpose`, :class:`Vmap`) and applied
(``jax.jvp``, ``jax.linear_transpose``, ``jax.vmap``) to the platform's program when it is
lowered, so derivatives and batches compute what the program traced directly computes.
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

from .primitive import typeof


class Deferred:
    """A function of arrays whose program depends on the platform it is lowered for: hashable.

    Subclasses define ``program(platform)`` (a callable of the operands returning a tuple of
    arrays; ``platform`` is ``"cpu"``, ``"tpu"`` or ``"gpu"``) and ``out_avals(*avals)`` (the
    results' shapes and dtypes, computed without planning).
    """

    def program(self, platform: str) -> Callable:  # pragma: no cover - interface
        raise NotImplementedError

    def out_avals(self, *avals) -> tuple:  # pragma: no cover - interface
        raise NotImplementedError


def _zero_tangent(primal):
    if jnp.issubdtype(primal.dtype, jnp.inexact):
        return jnp.zeros_like(primal)
    return np.zeros(primal.shape, jax.dtypes.float0)


@dataclasses.dataclass(frozen=True)
class Jvp(Deferred):
    """The tangents of ``inner``: operands are its primals, then the tangents flagged ``nonzero``."""

    inner: Deferred
    nonzero: tuple[bool, ...]

    def program(self, platform):
        fn, n = self.inner.program(platform), len(self.nonzero)

        def tangents(*args):
            primals, given = args[:n], iter(args[n:])
            ts = [next(given) if nz else _zero_tangent(p) for p, nz in zip(primals, self.nonzero)]
            return tuple(jax.jvp(fn, tuple(primals), tuple(ts))[1])

        return tangents

    def out_avals(self, *avals):
        return tuple(a.to_tangent_aval() for a in self.inner.out_avals(*avals[: len(self.nonzero)]))


@dataclasses.dataclass(frozen=True)
class Transpose(Deferred):
    """The transpose of ``inner`` in its operands flagged ``linear`` (with abstract values
    ``avals``): operands are the other operands, then one cotangent per result of ``inner``."""

    inner: Deferred
    linear: tuple[bool, ...]
    avals: tuple

    def program(self, platform):
        fn, known = self.inner.program(platform), self.linear.count(False)
        specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in self.avals]

        def transposed(*args):
            fixed, cts = args[:known], tuple(args[known:])

            def of_linear(*xs):
                k, v = iter(fixed), iter(xs)
                return tuple(fn(*(next(v) if lin else next(k) for lin in self.linear)))

            return tuple(jax.linear_transpose(of_linear, *specs)(cts))

        return transposed

    def out_avals(self, *avals):
        return tuple(self.avals)


@dataclasses.dataclass(frozen=True)
class Vmap(Deferred):
    """``inner`` mapped over axis ``in_dims[i]`` of operand ``i`` (``None``: not mapped), ``size``
    elements; results carry the mapped axis first."""

    inner: Deferred
    in_dims: tuple[int | None, ...]
    size: int

    def program(self, platform):
        return jax.vmap(self.inner.program(platform), in_axes=self.in_dims, out_axes=0, axis_size=self.size)

    def out_avals(self, *avals):
        inner = [
            a if d is None else a.update(shape=a.shape[:d] + a.shape[d + 1 :]) for a, d in zip(avals, self.in_dims)
        ]
        return tuple(a.update(shape=(self.size, *a.shape)) for a in self.inner.out_avals(*inner))


planned_p = Primitive("jax_resize_planned")
planned_p.multiple_results = True


def bind(fn: Deferred, *args) -> list:
    """The results of ``fn`` applied to ``args`` (a list), planned when lowered."""
    return planned_p.bind(*args, fn=fn)


def _abstract_eval(*avals, fn):
    return [_core.ShapedArray(a.shape, a.dtype) for a in fn.out_avals(*avals)]


def _jvp(primals, tangents, *, fn):
    out = planned_p.bind(*primals, fn=fn)
    nonzero = tuple(type(t) is not ad.Zero for t in tangents)
    if not any(nonzero) or not all(jnp.issubdtype(o.dtype, jnp.inexact) for o in out):
        return out, [ad.Zero(typeof(o).to_tangent_aval()) for o in out]
    given = [t for t in tangents if type(t) is not ad.Zero]
    return out, planned_p.bind(*primals, *given, fn=Jvp(fn, nonzero))


def _transpose(cts, *args, fn):
    linear = tuple(ad.is_undefined_primal(a) for a in args)
    avals = tuple(a.aval for a in args if ad.is_undefined_primal(a))
    if all(type(ct) is ad.Zero for ct in cts):
        return [ad.Zero(a.aval) if lin else None for a, lin in zip(args, linear)]
    known = [a for a in args if not ad.is_undefined_primal(a)]
    cts = [ad.instantiate_zeros(ct) for ct in cts]
    outs = iter(planned_p.bind(*known, *cts, fn=Transpose(fn, linear, avals)))
    return [next(outs) if lin else None for lin in linear]


def _batch(args, dims, *, fn):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    in_dims = tuple(None if d is None else int(d) for d in dims)
    out = planned_p.bind(*args, fn=Vmap(fn, in_dims, size))
    return out, [0] * len(out)


def _lowering(platform: str):
    def rule(ctx, *args, fn):
        return mlir.lower_fun(fn.program(platform), multiple_results=True)(ctx, *args)

    return rule


def platform_of(x) -> str:
    """The platform of a concrete array's devices (the default backend's where it has none)."""
    devices = getattr(x, "devices", None)
    try:
        return next(iter(devices())).platform if devices is not None else jax.default_backend()
    except (StopIteration, RuntimeError):
        return jax.default_backend()


def _impl(*args, fn):
    """Outside a trace: the program of the operands' platform, run op by op (its inner jitted
    application is cached by shapes, so new records of known shapes compile nothing)."""
    platform = platform_of(args[0]) if args else jax.default_backend()
    return list(fn.program(platform if platform in ("cpu", "tpu") else "gpu")(*args))


planned_p.def_impl(_impl)
planned_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[planned_p] = _jvp
ad.primitive_transposes[planned_p] = _transpose
batching.primitive_batchers[planned_p] = _batch
mlir.register_lowering(planned_p, _lowering("gpu"))  # cuda, rocm and other accelerators: the GPU row
for _platform in ("cpu", "tpu"):
    mlir.register_lowering(planned_p, _lowering(_platform), platform=_platform)
