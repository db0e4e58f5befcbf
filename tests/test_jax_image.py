"""``jax_resize.resize`` against ``jax.image.resize`` (the oracle) for every method it has."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jax_resize

METHODS = [m.name.lower().replace("_", "-") for m in jax.image.ResizeMethod]


def test_every_installed_method_is_covered():
    assert set(METHODS) <= set(jax_resize._src.peers.jax_image.METHODS)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("antialias", [True, False])
@pytest.mark.parametrize("shape", [(2, 9, 7, 3), (2, 17, 23, 3), (2, 4, 3, 3), (2, 3, 40, 3), (2, 1, 1, 3)])
def test_matches_jax_image(method, antialias, shape):
    x = np.random.default_rng(0).uniform(0, 1, (2, 9, 7, 3)).astype(np.float32)
    want = jax.image.resize(x, shape, method, antialias)
    got = jax_resize.resize(x, shape, method, antialias)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-6)


def test_nearest_indices_exact_on_long_axes():
    x = np.arange(3001, dtype=np.int32)
    for n in (2999, 4097, 1024, 7):
        np.testing.assert_array_equal(jax_resize.resize(x, (n,), "nearest"), jax.image.resize(x, (n,), "nearest"))


def test_enum_aliases_and_dtypes():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = jax_resize.resize(x, (6, 8), jax.image.ResizeMethod.LINEAR)
    want = jax.image.resize(x, (6, 8), "bilinear")
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert jax_resize.resize(x, (6, 8), "nearest").dtype == x.dtype


def test_onnx_options_change_the_rule():
    # align_corners linear 3 -> 5 samples at 0, 0.5, 1, 1.5, 2 (hand-computable)
    x = np.array([0.0, 10.0, 30.0])
    got = jax_resize.resize_with_onnx_attributes(x, (5,), "linear", coordinate_transformation_mode="align_corners")
    np.testing.assert_allclose(got, [0, 5, 10, 20, 30])


def test_bad_arguments():
    with pytest.raises(ValueError, match="method='cubik'.*Did you mean 'cubic'"):
        jax_resize.resize(np.ones((3, 3)), (4, 4), "cubik")
    with pytest.raises(ValueError, match="shape=.*length 2"):
        jax_resize.resize(np.ones((3, 3)), (4, 4, 1), "linear")
    with pytest.raises(TypeError, match="shape must be static"):
        jax.jit(lambda s: jax_resize.resize(np.ones(3), s, "linear"))(jnp.array([4]))
