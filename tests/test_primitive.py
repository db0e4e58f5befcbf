"""The linear-map primitive (``execution/primitive.py``) with a forward implementation of its own:
``jit``, ``vmap``, ``jvp`` and ``grad`` go through the map and its stated transpose.

Oracle: a dense matrix ``W`` in numpy (the map is ``W @ x`` along an axis, its transpose ``W.T``)."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

from jax_resize._src.execution import primitive

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
X = RNG.standard_normal((3, 7, 2)).astype(np.float32)


def _map(x):
    return primitive.linear_map(x, MatMul(1), [jnp.asarray(W)], MatMul(1), [jnp.asarray(W.T)])


def test_forward_jit_and_vmap():
    want = np.einsum("oi,bic->boc", W, X)
    np.testing.assert_allclose(np.asarray(jax.jit(_map)(X)), want, rtol=1e-5, atol=1e-5)
    batched = jax.vmap(lambda v: primitive.linear_map(v, MatMul(0), [jnp.asarray(W)], MatMul(0), [jnp.asarray(W.T)]))
    np.testing.assert_allclose(np.asarray(batched(X)), want, rtol=1e-5, atol=1e-5)


def test_gradient_is_the_stated_transpose():
    g = RNG.standard_normal((3, 5, 2)).astype(np.float32)
    got = jax.grad(lambda v: jnp.sum(_map(v) * g))(jnp.asarray(X))
    np.testing.assert_allclose(np.asarray(got), np.einsum("oi,boc->bic", W, g), rtol=1e-5, atol=1e-5)
    _, tangent = jax.jvp(_map, (jnp.asarray(X),), (jnp.ones_like(X),))
    np.testing.assert_allclose(np.asarray(tangent), np.einsum("oi,bic->boc", W, np.ones_like(X)), rtol=1e-5, atol=1e-5)


def test_result_dtype_of_integer_input():
    assert primitive.result_dtype(np.dtype(np.uint8), [np.zeros(1, np.float32)]) == np.float32
    assert primitive.result_dtype(np.dtype(np.uint8), [np.zeros(1, np.int32)]) == np.int32
    assert primitive.result_dtype(np.dtype(np.float64), [np.zeros(1, np.float32)]) == np.float64
