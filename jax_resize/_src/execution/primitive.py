"""The one primitive: a function of arrays whose program is chosen when it is lowered.

Contract: :func:`bind` applies a :class:`Deferred` (hashable, static) to its operands through
:data:`resize_p` (``jax_resize``). A trace plans nothing: each platform's lowering rule (``cpu``,
``tpu``, and the default rule for the GPUs) asks the function for that platform's program
(:meth:`Deferred.program`) and lowers it, so a ``jit`` placed on the CPU in a GPU process runs the
CPU's program and ``jax.export(..., platforms=...)`` holds one program per platform (JAX emits the
switch on the platform index). Outside a trace the operands' platform's program runs op by op.

The rules are the function's own (:meth:`Deferred.jvp`, ``transpose``, ``batch``). By default
they are recorded (:class:`Jvp`, :class:`Transpose`, :class:`Vmap`) and applied (``jax.jvp``,
``jax.linear_transpose``, ``jax.vmap``) to the platform's program when it is lowered: a whole
application (:mod:`.apply`). A :class:`LinearMap` (one pass of a band or polyphase map, linear in
its first operand ``x``) states its own: ``jvp`` maps the tangent, ``transpose`` binds the map's
stated transpose (host-transposed taps: gradients without scatter-adds, which XLA runs serially on
CPU), ``batch`` shifts its implementations by a leading batch axis.
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


class Deferred:
    """A function of arrays whose program depends on the platform it is lowered for: hashable.

    Subclasses define ``program(platform)`` (a callable of the operands returning a tuple of
    arrays; ``platform`` is ``"cpu"``, ``"tpu"`` or ``"gpu"``) and ``out_avals(*avals)`` (the
    results' shapes and dtypes, computed without planning); they may state their own rules.
    """

    def program(self, platform: str) -> Callable:  # pragma: no cover - interface
        raise NotImplementedError

    def out_avals(self, *avals) -> tuple:  # pragma: no cover - interface
        raise NotImplementedError

    def jvp(self, primals, tangents):
        out = bind(self, *primals)
        nonzero = tuple(type(t) is not ad.Zero for t in tangents)
        if not any(nonzero) or not all(jnp.issubdtype(o.dtype, jnp.inexact) for o in out):
            return out, [ad.Zero(typeof(o).to_tangent_aval()) for o in out]
        given = [t for t in tangents if type(t) is not ad.Zero]
        return out, bind(Jvp(self, nonzero), *primals, *given)

    def transpose(self, cts, args):
        linear = tuple(ad.is_undefined_primal(a) for a in args)
        if all(type(ct) is ad.Zero for ct in cts):
            return [ad.Zero(a.aval) if lin else None for a, lin in zip(args, linear)]
        avals = tuple(a.aval for a in args if ad.is_undefined_primal(a))
        known = [a for a in args if not ad.is_undefined_primal(a)]
        cts = [ad.instantiate_zeros(ct) for ct in cts]
        outs = iter(bind(Transpose(self, linear, avals), *known, *cts))
        return [next(outs) if lin else None for lin in linear]

    def batch(self, args, dims):
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        in_dims = tuple(None if d is None else int(d) for d in dims)
        out = bind(Vmap(self, in_dims, size), *args)
        return out, [0] * len(out)


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


# --- linear maps ---------------------------------------------------------------------------------


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
    """A forward implementation of a :class:`LinearMap`: hashable, static.

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


@dataclasses.dataclass(frozen=True)
class LinearMap(Deferred):
    """``forward(x, *operands[:n])``, linear in ``x``, whose transpose is ``transpose(g,
    *t_operands)``: the operands after the first ``n`` (or, when ``later`` is given, the arrays it
    returns, built on the host only when a gradient is traced). The operands are constants: no
    derivative flows to them."""

    forward: Implementation
    transpose_map: Implementation
    n: int
    later: Callable | None = None

    def program(self, platform):
        apply = self.forward.on_cpu if platform == "cpu" else self.forward
        return lambda x, *operands: (apply(x, *operands[: self.n]),)

    def out_avals(self, x, *operands):
        shape = self.forward.out_shape(x.shape, operands[: self.n])
        return (_core.ShapedArray(shape, result_dtype(x.dtype, operands[: self.n])),)

    def jvp(self, primals, tangents):
        out = bind(self, *primals)
        if type(tangents[0]) is ad.Zero:
            return out, [ad.Zero(typeof(out[0]).to_tangent_aval())]
        return out, bind(self, tangents[0], *primals[1:])

    def transpose(self, cts, args):
        x, *operands = args
        assert ad.is_undefined_primal(x)
        none = [None] * len(operands)
        if type(cts[0]) is ad.Zero:
            return [ad.Zero(x.aval), *none]
        t_operands = list(self.later()) if self.later is not None else operands[self.n :]
        swapped = LinearMap(self.transpose_map, self.forward, len(t_operands))
        return [bind(swapped, cts[0], *t_operands, *operands[: self.n])[0], *none]

    def batch(self, args, dims):
        x, *operands = args
        if any(d is not None for d in dims[1:]):  # the operands are constants; never batched
            raise NotImplementedError("a jax_resize linear map does not batch over its operands")
        shifted = LinearMap(self.forward.shifted(1), self.transpose_map.shifted(1), self.n, self.later)
        return bind(shifted, jnp.moveaxis(x, dims[0], 0), *operands), [0]


def linear_map(x, forward: Implementation, operands, transpose: Implementation, t_operands):
    """Applies ``forward(x, *operands)``, whose transpose is ``transpose(g, *t_operands)``
    (:class:`LinearMap`; ``t_operands`` may be a static callable that returns them). Returns ``x``
    mapped, in ``x``'s dtype (integer ``x``: :func:`result_dtype`)."""
    if callable(t_operands):
        return bind(LinearMap(forward, transpose, len(operands), t_operands), x, *operands)[0]
    return bind(LinearMap(forward, transpose, len(operands)), x, *operands, *t_operands)[0]


# --- the primitive -------------------------------------------------------------------------------

resize_p = Primitive("jax_resize")
resize_p.multiple_results = True


def bind(fn: Deferred, *args) -> list:
    """The results of ``fn`` applied to ``args`` (a list), its program chosen when lowered."""
    return resize_p.bind(*args, fn=fn)


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


def _lowering(platform: str):
    def rule(ctx, *args, fn):
        return mlir.lower_fun(fn.program(platform), multiple_results=True)(ctx, *args)

    return rule


resize_p.def_impl(_impl)
resize_p.def_abstract_eval(lambda *avals, fn: [_core.ShapedArray(a.shape, a.dtype) for a in fn.out_avals(*avals)])
ad.primitive_jvps[resize_p] = lambda primals, tangents, *, fn: fn.jvp(primals, tangents)
ad.primitive_transposes[resize_p] = lambda cts, *args, fn: fn.transpose(cts, args)
batching.primitive_batchers[resize_p] = lambda args, dims, *, fn: fn.batch(args, dims)
mlir.register_lowering(resize_p, _lowering("gpu"))  # cuda, rocm and other accelerators: the GPU row
for _platform in ("cpu", "tpu"):
    mlir.register_lowering(resize_p, _lowering(_platform), platform=_platform)
