"""``scale_and_translate``: jax.image.scale_and_translate's results, with traced geometry.

Oracles: ``jax.image.scale_and_translate`` itself (values, vmap, gradients) and central finite
differences in float64 (gradients with respect to scale and translation).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize import scale_and_translate

METHODS = ["linear", "cubic", "lanczos3", "lanczos5", "cubic-pytorch", "area"]


def _case(seed):
    rng = np.random.default_rng(seed)
    image = rng.random((int(rng.integers(3, 20)), int(rng.integers(3, 20)), 2)).astype(np.float32)
    shape = (int(rng.integers(1, 25)), int(rng.integers(1, 25)), 2)
    scale = rng.uniform(0.2, 3.0, 2).astype(np.float32)  # shrinks and zooms
    translation = rng.uniform(-6.0, 6.0, 2).astype(np.float32)  # inside and outside the image
    return image, shape, scale, translation


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("antialias", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_matches_jax_image_static_and_traced(method, antialias, seed):
    image, shape, scale, translation = _case(seed)
    want = np.asarray(jax.image.scale_and_translate(image, shape, (0, 1), scale, translation, method, antialias))
    static = scale_and_translate(image, shape, (0, 1), scale, translation, method, antialias)
    traced = jax.jit(lambda s, t: scale_and_translate(image, shape, (0, 1), s, t, method, antialias))(
        scale, translation
    )
    for got in (static, traced):
        assert got.shape == shape and got.dtype == np.float32
        np.testing.assert_allclose(np.asarray(got), want, rtol=0, atol=1e-5)


def test_vmap_over_scale_and_translation():
    image, shape, _, _ = _case(7)
    rng = np.random.default_rng(8)
    scales = rng.uniform(0.3, 2.5, (5, 2)).astype(np.float32)
    shifts = rng.uniform(-3, 3, (5, 2)).astype(np.float32)
    got = jax.vmap(lambda s, t: scale_and_translate(image, shape, (0, 1), s, t, "cubic"))(scales, shifts)
    want = jax.vmap(lambda s, t: jax.image.scale_and_translate(image, shape, (0, 1), s, t, "cubic"))(scales, shifts)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=0, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("antialias", [True, False])
def test_gradients_match_jax_image_and_finite_differences(method, antialias):
    # a point off every kink (an area footprint edge on a pixel edge has one-sided derivatives)
    rng = np.random.default_rng(3)
    image = rng.standard_normal((11, 13, 2))
    scale, translation = np.array([0.63, 1.37]), np.array([0.41, -0.73])

    def loss(fn):
        return lambda s, t: jnp.sum(jnp.sin(fn(image, (7, 17, 2), (0, 1), s, t, method, antialias)))

    with jax.enable_x64(True):
        got = jax.grad(loss(scale_and_translate), argnums=(0, 1))(scale, translation)
        want = jax.grad(loss(jax.image.scale_and_translate), argnums=(0, 1))(scale, translation)
        f = loss(scale_and_translate)
        eps = 1e-6
        fd_s = [(f(scale + eps * e, translation) - f(scale - eps * e, translation)) / (2 * eps) for e in np.eye(2)]
        fd_t = [(f(scale, translation + eps * e) - f(scale, translation - eps * e)) / (2 * eps) for e in np.eye(2)]
        grad_image = jax.grad(lambda x: jnp.sum(scale_and_translate(x, (7, 17, 2), (0, 1), scale, translation, method)))
        assert grad_image(image).shape == image.shape
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(fd_s), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got[1]), np.asarray(fd_t), rtol=1e-5, atol=1e-6)


def test_integer_image_promotes_and_other_axes_keep_their_length():
    u = np.arange(60, dtype=np.uint8).reshape(2, 10, 3)
    got = scale_and_translate(u, (2, 5, 3), (1,), [0.5], [0.0])
    want = jax.image.scale_and_translate(u, (2, 5, 3), (1,), jnp.array([0.5]), jnp.array([0.0]), "linear")
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=1e-5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(method="nearest"), "not available in scale_and_translate"),
        (dict(scale=[0.5]), "scale has 1 values for 2 spatial_dims"),
        (dict(translation=[0.0, 0.0, 0.0]), "translation has 3 values"),
        (dict(scale=[0.5, -1.0]), "scale must be positive"),
        (dict(shape=(4, 4, 2)), r"shape\[2\] = 2 differs"),
        (dict(shape=(4, 4)), "shape"),
    ],
)
def test_errors(kwargs, message):
    args = dict(shape=(4, 4, 3), scale=[0.5, 0.5], translation=[0.0, 0.0])
    args.update(kwargs)
    method = args.pop("method", "linear")
    with pytest.raises(ValueError, match=message):
        scale_and_translate(
            np.zeros((8, 8, 3), np.float32), args["shape"], (0, 1), args["scale"], args["translation"], method
        )


@pytest.mark.parametrize("method", ["linear", "cubic", "lanczos3"])
@pytest.mark.parametrize(("antialias", "traced"), [(False, False), (False, True), (True, False)])
def test_exclude_outside_false_repeats_the_edge(method, antialias, traced):
    # oracle: jax.image on the image padded with its edge pixels (np.pad "edge"), translated by the
    # pad, for samples inside the image (where the two rules coincide)
    rng = np.random.default_rng(11)
    image = rng.random((13, 17, 2)).astype(np.float32)
    scale, translation = np.array([1.7, 0.6], np.float32), np.array([0.3, -0.2], np.float32)
    shape = (22, 10, 2)
    pad = 20
    padded = np.pad(image, ((pad, pad), (pad, pad), (0, 0)), mode="edge")
    want = jax.image.scale_and_translate(padded, shape, (0, 1), scale, translation - pad * scale, method, antialias)

    def ours(s, t):
        return scale_and_translate(image, shape, (0, 1), s, t, method, antialias, exclude_outside=False)

    got = jax.jit(ours)(scale, translation) if traced else ours(scale, translation)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=0, atol=1e-5)


def test_exclude_outside_false_with_traced_antialias_is_refused():
    with pytest.raises(ValueError, match="needs a concrete scale"):
        jax.jit(lambda s: scale_and_translate(np.ones((8, 8)), (4, 4), (0, 1), s, [0.0, 0.0], exclude_outside=False))(
            jnp.array([0.5, 0.5])
        )


@pytest.mark.parametrize("traced", [False, True])
def test_edge_padding_ends_where_jax_image_ends_it(traced):
    # cubic-pytorch without antialias pads with `radius` (2) edge pixels: rows sampled at x = 6.9 ...
    # 19.2 of 13 give 0 beyond that reach, partial windows at it (oracle: jax.image)
    image = np.random.default_rng(12).random((13, 17, 2)).astype(np.float32)
    scale, translation = np.array([1.7, 0.6], np.float32), np.array([-12.0, 0.0], np.float32)
    want = np.asarray(
        jax.image.scale_and_translate(image, (22, 10, 2), (0, 1), scale, translation, "cubic-pytorch", False)
    )
    fn = lambda s, t: scale_and_translate(image, (22, 10, 2), (0, 1), s, t, "cubic-pytorch", False)  # noqa: E731
    got = jax.jit(fn)(scale, translation) if traced else fn(scale, translation)
    np.testing.assert_allclose(np.asarray(got), want, rtol=0, atol=1e-5)
    assert (want == 0).any() and (want != 0).any()
