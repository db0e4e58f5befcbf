"""The one primitive (``execution/primitive.py``).

A :class:`Deferred` whose program differs by platform (a matrix product scaled by the platform's
factor) is compared with the same jax function applied directly: under ``jit``, ``grad``,
``jvp``, ``vmap`` and their compositions, second derivatives, eagerly, and exported for several
platforms (each platform's factor lowered into its own case). A :class:`LinearMap` with a forward
implementation of its own: ``jit``, ``vmap``, ``jvp`` and ``grad`` go through the map and its stated
transpose (oracle: a dense matrix ``W`` in numpy; the map is ``W @ x`` along an axis, its transpose
``W.T``).
"""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize._src.execution import primitive

A = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)
FACTOR = {"cpu": 1.0, "gpu": 2.0, "tpu": 3.0}


@dataclasses.dataclass(frozen=True)
class _Affine(primitive.Deferred):
    """``factor * sin(A @ x) + fill`` along axis 0 (nonlinear, so derivatives are tested), or
    ``factor * A @ x + fill``."""

    fill: float = 0.0
    linear: bool = False

    def program(self, platform):
        inner = (lambda v: v) if self.linear else jnp.sin
        return lambda x: (FACTOR[platform] * inner(jnp.tensordot(A, x, axes=1)) + self.fill,)

    def out_avals(self, x):
        return (x.update(shape=(A.shape[0], *x.shape[1:])),)


def _direct(x, fill=0.0, linear=False):
    return FACTOR["cpu"] * (jnp.tensordot(A, x, axes=1) if linear else jnp.sin(jnp.tensordot(A, x, axes=1))) + fill


def _bound(x, fill=0.0, linear=False):
    return primitive.bind(_Affine(fill, linear), x)[0]


X = np.random.default_rng(1).standard_normal((7, 3)).astype(np.float32)
XS = np.random.default_rng(2).standard_normal((4, 7, 3, 2)).astype(np.float32)

TRANSFORMS = {
    "eager": lambda f: f,
    "jit": jax.jit,
    "grad": lambda f: jax.grad(lambda x: (f(x) ** 2).sum()),
    "jit grad": lambda f: jax.jit(jax.grad(lambda x: (f(x) ** 2).sum())),
    "jacfwd": jax.jacfwd,
    "jacrev": jax.jacrev,
    "hessian": lambda f: jax.hessian(lambda x: f(x).sum()),
    "vmap grad": lambda f: lambda x: jax.vmap(jax.grad(lambda v: (f(v) ** 2).sum()))(jnp.stack([x, 2 * x])),
    "grad vmap": lambda f: jax.grad(lambda x: jax.vmap(f, in_axes=1, out_axes=1)(x).sum()),
    "checkpoint": lambda f: jax.grad(lambda x: jax.checkpoint(f)(x).sum()),
}


@pytest.mark.parametrize("fill", [0.0, 1.5])
@pytest.mark.parametrize("name", TRANSFORMS)
def test_transformations_equal_the_function_applied_directly(name, fill):
    t = TRANSFORMS[name]
    got = t(lambda x: _bound(x, fill))(X)
    want = t(lambda x: _direct(x, fill))(X)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)


def test_linear_transpose_of_the_linear_map():
    ct = np.arange(15, dtype=np.float32).reshape(5, 3)
    got = jax.linear_transpose(lambda v: _bound(v, linear=True), X)(ct)
    want = jax.linear_transpose(lambda v: _direct(v, linear=True), X)(ct)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6)


def test_vmap_over_any_axis_and_nested():
    got = jax.vmap(jax.vmap(_bound, in_axes=2), in_axes=0)(XS)
    want = jax.vmap(jax.vmap(_direct, in_axes=2), in_axes=0)(XS)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_a_trace_holds_one_equation_and_the_lowering_picks_the_platforms_program():
    from jax import export  # jax 0.4.36's export needs absl (the floors deselect this test)

    jaxpr = jax.make_jaxpr(jax.grad(lambda x: _bound(x).sum()))(X)
    assert [e.primitive.name for e in jaxpr.eqns].count("jax_resize") == 2
    exported = export.export(jax.jit(_bound), platforms=("tpu", "cuda", "cpu"))(X)
    restored = export.deserialize(exported.serialize())
    np.testing.assert_allclose(np.asarray(restored.call(X)), np.asarray(_direct(X)), rtol=1e-6)
    module = exported.mlir_module()
    for factor in (2.0, 3.0):  # the GPU and TPU cases are in the artifact
        assert f"{factor:.0e}".replace("e+00", "") in module or str(factor) in module


def test_integer_results_have_no_derivative():
    @dataclasses.dataclass(frozen=True)
    class _Rounded(primitive.Deferred):
        def program(self, platform):
            return lambda x: (jnp.round(x).astype(jnp.int32),)

        def out_avals(self, x):
            return (x.update(dtype=np.dtype(np.int32)),)

    tangent = jax.jvp(lambda x: primitive.bind(_Rounded(), x)[0], (X,), (X,))[1]
    assert tangent.dtype == jax.dtypes.float0


RNG = np.random.default_rng(8)


@dataclasses.dataclass(frozen=True)
class MatMul(primitive.Implementation):
    """``out = W @ x`` along ``axis`` (operand: ``W [out, in]``)."""

    axis: int

    @property
    def axes(self):
        return (self.axis,)

    def __call__(self, x, w):
        return jnp.moveaxis(jnp.tensordot(w, x, axes=((1,), (self.axis,))), 0, self.axis)

    def out_shape(self, shape, operands):
        shape = list(shape)
        shape[self.axis] = operands[0].shape[0]
        return tuple(shape)

    def shifted(self, n):
        return MatMul(self.axis + n)


W = RNG.standard_normal((5, 7)).astype(np.float32)
XB = RNG.standard_normal((3, 7, 2)).astype(np.float32)


def _map(x):
    return primitive.linear_map(x, MatMul(1), [jnp.asarray(W)], MatMul(1), [jnp.asarray(W.T)])


def test_forward_jit_and_vmap():
    want = np.einsum("oi,bic->boc", W, XB)
    np.testing.assert_allclose(np.asarray(jax.jit(_map)(XB)), want, rtol=1e-5, atol=1e-5)
    batched = jax.vmap(lambda v: primitive.linear_map(v, MatMul(0), [jnp.asarray(W)], MatMul(0), [jnp.asarray(W.T)]))
    np.testing.assert_allclose(np.asarray(batched(XB)), want, rtol=1e-5, atol=1e-5)


def test_gradient_is_the_stated_transpose():
    """The transpose binds the stated map (``MatMul`` of ``W.T``), never a transposed gather."""
    jaxpr = jax.make_jaxpr(jax.grad(lambda v: _map(v).sum()))(jnp.asarray(XB))
    fns = [e.params["fn"] for e in jaxpr.eqns if e.primitive is primitive.resize_p]
    assert all(isinstance(f, primitive.LinearMap) for f in fns) and len(fns) == 2
    g = RNG.standard_normal((3, 5, 2)).astype(np.float32)
    got = jax.grad(lambda v: jnp.sum(_map(v) * g))(jnp.asarray(XB))
    np.testing.assert_allclose(np.asarray(got), np.einsum("oi,boc->bic", W, g), rtol=1e-5, atol=1e-5)
    _, tangent = jax.jvp(_map, (jnp.asarray(XB),), (jnp.ones_like(XB),))
    np.testing.assert_allclose(np.asarray(tangent), np.einsum("oi,bic->boc", W, np.ones_like(XB)), rtol=1e-5, atol=1e-5)


def test_result_dtype_of_integer_input():
    assert primitive.result_dtype(np.dtype(np.uint8), [np.zeros(1, np.float32)]) == np.float32
    assert primitive.result_dtype(np.dtype(np.uint8), [np.zeros(1, np.int32)]) == np.int32
    assert primitive.result_dtype(np.dtype(np.float64), [np.zeros(1, np.float32)]) == np.float64
