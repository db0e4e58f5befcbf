"""``tf_resize`` against TensorFlow's documented kernels and jax.image.resize (TF2 semantics).

tensorflow is not installed in the test extra; the oracles are jax.image.resize (an independent
implementation of TF2's ``scale_and_translate`` / half-pixel kernels) and TF's formulas written
out here: ``ResizeBilinear(half_pixel_centers=True)`` and ``ResizeNearestNeighbor``.
"""

from fractions import Fraction

import jax
import numpy as np
import pytest

from jax_resize.compat import tf_resize

RNG = np.random.default_rng(0)


def _tf_bilinear_formula(img, out_h, out_w):
    """TF ResizeBilinear, half_pixel_centers: in = (o + 0.5) * scale - 0.5, lerp of clamped floor/ceil."""

    def axis(n_in, n_out):
        x = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
        lo = np.floor(x)
        frac = x - lo
        return np.clip(lo, 0, n_in - 1).astype(int), np.clip(lo + 1, 0, n_in - 1).astype(int), frac

    y0, y1, fy = axis(img.shape[0], out_h)
    x0, x1, fx = axis(img.shape[1], out_w)
    top = img[y0][:, x0] * (1 - fx)[None, :, None] + img[y0][:, x1] * fx[None, :, None]
    bot = img[y1][:, x0] * (1 - fx)[None, :, None] + img[y1][:, x1] * fx[None, :, None]
    return top * (1 - fy)[:, None, None] + bot * fy[:, None, None]


@pytest.mark.parametrize("out", [(5, 13), (17, 3), (9, 7), (20, 30)])
def test_bilinear_matches_tf_formula(out):
    img = RNG.uniform(0, 255, (9, 7, 3)).astype(np.float32)
    np.testing.assert_allclose(
        tf_resize(img, out), _tf_bilinear_formula(img.astype(np.float64), *out), rtol=1e-5, atol=1e-3
    )


@pytest.mark.parametrize("method", ["bilinear", "bicubic", "lanczos3", "lanczos5", "area"])
@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("out", [(5, 13), (30, 40)])
def test_scale_and_translate_methods_match_jax_image(method, antialias, out):
    img = RNG.uniform(0, 1, (2, 11, 14, 3)).astype(np.float32)
    jmethod = {"bilinear": "linear", "bicubic": "cubic"}.get(method, method)
    want = jax.image.resize(img, (2, *out, 3), jmethod, antialias=antialias)
    np.testing.assert_allclose(tf_resize(img, out, method, antialias=antialias), want, rtol=1e-5, atol=2e-6)


@pytest.mark.parametrize("n_in,n_out", [(7, 3), (3, 7), (10, 4), (64, 48), (5, 5)])
def test_nearest_exact_rational_and_keeps_dtype(n_in, n_out):
    img = RNG.integers(0, 255, (n_in, n_in, 1)).astype(np.uint8)
    got = tf_resize(img, (n_out, n_out), "nearest")
    idx = [min(int(Fraction(2 * o + 1, 2) * Fraction(n_in, n_out)), n_in - 1) for o in range(n_out)]
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, img[idx][:, idx])


def test_preserve_aspect_ratio_and_dtype():
    img = np.zeros((1, 30, 40, 3), np.float64)
    out = tf_resize(img, (20, 20), preserve_aspect_ratio=True)
    # min(20/30, 20/40) = 0.5 -> round(0.5 * (30, 40)) = (15, 20); TF returns float32
    assert out.shape == (1, 15, 20, 3) and out.dtype == np.float32


def test_bad_arguments():
    with pytest.raises(ValueError, match="method='bilinaer'.*Did you mean 'bilinear'"):
        tf_resize(np.zeros((4, 4, 1)), (2, 2), "bilinaer")
    with pytest.raises(ValueError, match="rank 2"):
        tf_resize(np.zeros((4, 4)), (2, 2))
    with pytest.raises(ValueError, match="size="):
        tf_resize(np.zeros((4, 4, 1)), (2, -1))
