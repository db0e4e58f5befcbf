"""crop_and_resize with resize's filters and antialias, boxes traced.

Oracles: ``jax.image.scale_and_translate`` (a box inside the image is the scale ``1 / step`` and
the translation that puts output 0 on ``y1 * (H - 1)``), TensorFlow's ``tf.image.crop_and_resize``
for ``linear`` without antialias (its bilinear lerps, to float32 rounding),
mirror images for flipped boxes, and central finite differences for gradients.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize import crop_and_resize
from jax_resize._src import crop_and_resize as _crop

RNG = np.random.default_rng(0)
IMAGE = RNG.random((2, 40, 50, 3)).astype(np.float32)
# inside the image, shrunk and enlarged, thin (a 0.4-pixel-high box stretched over 7 rows)
BOXES = np.array(
    [[0.1, 0.2, 0.9, 0.95], [0.3, 0.0, 0.5, 0.4], [0.05, 0.5, 0.95, 0.6], [0.2, 0.2, 0.21, 0.9]], np.float32
)
INDICES = np.array([0, 1, 1, 0])


def _oracle(box, index, crop, method, antialias):
    """jax.image.scale_and_translate of the box (y1 < y2, x1 < x2, samples inside the image)."""
    (_, h, w, _), (ch, cw) = IMAGE.shape, crop
    scale = np.array([(ch - 1) / ((box[2] - box[0]) * (h - 1)), (cw - 1) / ((box[3] - box[1]) * (w - 1))], np.float32)
    translation = 0.5 - scale * (np.array([box[0] * (h - 1), box[1] * (w - 1)]) + 0.5)
    return jax.image.scale_and_translate(IMAGE[index], (ch, cw, 3), (0, 1), scale, translation, method, antialias)


@pytest.mark.parametrize("method", _crop.FILTER_METHODS)
@pytest.mark.parametrize("antialias", [True, False])
def test_filters_match_jax_image_with_traced_boxes(method, antialias):
    crop = (7, 9)
    f = jax.jit(lambda b: crop_and_resize(IMAGE, b, INDICES, crop, method, antialias=antialias))
    got = np.asarray(f(BOXES))
    assert got.shape == (4, 7, 9, 3) and got.dtype == np.float32
    for k, (box, index) in enumerate(zip(BOXES, INDICES)):
        np.testing.assert_allclose(got[k], np.asarray(_oracle(box, index, crop, method, antialias)), atol=1e-5)


def test_bilinear_with_antialias_is_the_stretched_triangle():
    got = crop_and_resize(IMAGE, BOXES, INDICES, (5, 6), "bilinear", antialias=True)
    for k, (box, index) in enumerate(zip(BOXES, INDICES)):
        np.testing.assert_allclose(
            np.asarray(got[k]), np.asarray(_oracle(box, index, (5, 6), "linear", True)), atol=1e-5
        )


def test_linear_without_antialias_equals_tensorflow_bilinear_to_rounding():
    # same samples, same 2-tap lerp as tf.image.crop_and_resize's bilinear (TensorFlow itself is
    # the oracle), for boxes reaching outside the image and flipped ones
    tf = pytest.importorskip("tensorflow")
    boxes = np.array([[-0.2, 0.1, 1.3, 0.7], [0.9, 0.8, 0.1, 0.2]], np.float32)  # outside, flipped
    got = np.asarray(crop_and_resize(IMAGE, boxes, [0, 1], (11, 13), "linear", extrapolation_value=-1.0))
    want = tf.image.crop_and_resize(IMAGE, boxes, [0, 1], (11, 13), "bilinear", extrapolation_value=-1.0).numpy()
    outside = want == -1.0
    assert outside.any() and not outside.all()  # some samples outside take the extrapolation value
    np.testing.assert_array_equal(got == -1.0, outside)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("method", ["cubic", "area", "lanczos3"])
def test_flipped_box_is_the_mirror_image(method):
    box = np.array([[0.1, 0.2, 0.8, 0.9]], np.float32)
    flipped = box[:, [2, 3, 0, 1]]
    a = crop_and_resize(IMAGE, box, [0], (6, 8), method, antialias=True)
    b = crop_and_resize(IMAGE, flipped, [0], (6, 8), method, antialias=True)
    np.testing.assert_allclose(np.asarray(b), np.asarray(a)[:, ::-1, ::-1], atol=1e-5)


@pytest.mark.parametrize("method", _crop.FILTER_METHODS)
def test_box_larger_than_the_image_is_filtered_as_the_whole_image(method):
    # The box [-0.5, 1.5]^2 samples every 9.75 rows (12.25 columns) from -19.5 (-24.5): rows and
    # columns 2..6 land on 0, 9.75, ..., 39 (0, 12.25, ..., 49), the others outside the image. Its
    # |step| is clamped to (H - 1) / (crop - 1), so the window is that of the whole image resized
    # to 9 x 9, whose samples are every 4.875 rows (6.125 columns): the inside samples are
    # jax.image's whole-image resize at its even outputs; the rest is extrapolation_value.
    big = crop_and_resize(IMAGE, [[-0.5, -0.5, 1.5, 1.5]], [0], (9, 9), method, -7.0, antialias=True)
    big = np.asarray(big)[0]
    whole = np.asarray(_oracle(np.array([0.0, 0.0, 1.0, 1.0]), 0, (9, 9), method, True))
    np.testing.assert_allclose(big[2:7, 2:7], whole[::2, ::2], atol=1e-5)
    out = (np.arange(9) < 2) | (np.arange(9) > 6)
    inside = ~out[:, None] & ~out[None, :]
    assert np.all(big[~inside] == -7.0)  # outside on either axis: exactly the fill


def test_grad_with_respect_to_boxes_and_image():
    box = jnp.asarray([[0.13, 0.21, 0.77, 0.86]], jnp.float32)

    def loss(b, x):
        return jnp.sum(jnp.sin(crop_and_resize(x, b, [0], (6, 7), "cubic", antialias=True)))

    with jax.enable_x64(True):
        image = jnp.asarray(IMAGE[:1], jnp.float64)
        g_box, g_image = jax.grad(loss, argnums=(0, 1))(box, image)
        eps = 1e-3
        fd = [(loss(box + eps * e, image) - loss(box - eps * e, image)) / (2 * eps) for e in np.eye(4)[:, None, :]]
    assert g_image.shape == image.shape and np.any(np.asarray(g_image) != 0)
    np.testing.assert_allclose(np.asarray(g_box)[0], np.asarray(fd), rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(method="nearest", antialias=True), "antialias=True needs a filter"),
        (dict(method="bilinear", cubic_coeff_a=-0.75), "cubic_coeff_a / exclude_outside apply"),
        (dict(method="pil_bilinear"), "method"),
    ],
)
def test_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        crop_and_resize(IMAGE, BOXES, INDICES, (4, 4), **kwargs)
