"""crop_and_resize: tf.image.crop_and_resize semantics, built on the traced-roi layers.

Oracles: the ONNX reference evaluator's ``tf_crop_and_resize`` (one box at a time, the box as
``roi``), and a float64 loop port of TensorFlow's kernel (``crop_and_resize_op.cc``).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import reference_resize
from jax.test_util import check_grads

from jax_resize import crop_and_resize

RNG = np.random.default_rng(0)


def tf_crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """TensorFlow's CPU kernel, line by line, in float64."""
    image = np.asarray(image, np.float64)
    _, height, width, channels = image.shape
    crop_h, crop_w = crop_size
    out = np.empty((len(boxes), crop_h, crop_w, channels))
    for b, (y1, x1, y2, x2) in enumerate(np.asarray(boxes, np.float64)):
        n = box_indices[b]
        h_scale = (y2 - y1) * (height - 1) / (crop_h - 1) if crop_h > 1 else 0.0
        w_scale = (x2 - x1) * (width - 1) / (crop_w - 1) if crop_w > 1 else 0.0
        for y in range(crop_h):
            in_y = y1 * (height - 1) + y * h_scale if crop_h > 1 else 0.5 * (y1 + y2) * (height - 1)
            for x in range(crop_w):
                in_x = x1 * (width - 1) + x * w_scale if crop_w > 1 else 0.5 * (x1 + x2) * (width - 1)
                if not (0 <= in_y <= height - 1 and 0 <= in_x <= width - 1):
                    out[b, y, x] = extrapolation_value
                elif method == "bilinear":
                    t, bt, yl = int(np.floor(in_y)), int(np.ceil(in_y)), in_y - np.floor(in_y)
                    lf, r, xl = int(np.floor(in_x)), int(np.ceil(in_x)), in_x - np.floor(in_x)
                    top = image[n, t, lf] + (image[n, t, r] - image[n, t, lf]) * xl
                    bottom = image[n, bt, lf] + (image[n, bt, r] - image[n, bt, lf]) * xl
                    out[b, y, x] = top + (bottom - top) * yl
                else:  # roundf: half away from zero
                    out[b, y, x] = image[n, int(np.floor(in_y + 0.5)), int(np.floor(in_x + 0.5))]
    return out


def random_boxes(count, low=-0.2, high=1.2):
    """Boxes with random corners, some flipped (y1 > y2 or x1 > x2), some leaving the image."""
    return RNG.uniform(low, high, (count, 4)).astype(np.float32)


@pytest.mark.parametrize("method,onnx_mode", [("bilinear", "linear"), ("nearest", "nearest")])
@pytest.mark.parametrize("crop_size", [(5, 4), (3, 7), (1, 3)])
def test_matches_onnx_reference_per_box(method, onnx_mode, crop_size):
    image = RNG.standard_normal((2, 9, 11, 3)).astype(np.float32)
    boxes = random_boxes(6)
    boxes[0] = [0.7, 0.9, 0.1, 0.2]  # flipped both ways
    box_indices = np.array([0, 1, 1, 0, 1, 0])
    got = crop_and_resize(image, boxes, box_indices, crop_size, method, extrapolation_value=-3.5)
    assert got.shape == (6, *crop_size, 3) and got.dtype == jnp.float32
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        want = reference_resize(
            image[box_indices[b]][None],
            np.array([y1, x1, y2, x2]),
            sizes=list(crop_size),
            axes=[1, 2],
            mode=onnx_mode,
            coordinate_transformation_mode="tf_crop_and_resize",
            nearest_mode="round_prefer_ceil",
            extrapolation_value=-3.5,
        )
        np.testing.assert_allclose(got[b], want[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
@pytest.mark.parametrize(
    "shape,crop_size",
    [((3, 49, 17, 2), (1, 1)), ((2, 6, 5, 4), (8, 9)), ((1, 1, 7, 2), (3, 2)), ((2, 20, 30, 1), (7, 7))],
)
def test_matches_tensorflow_kernel(method, shape, crop_size):
    image = RNG.standard_normal(shape).astype(np.float32)
    boxes = random_boxes(8)
    box_indices = RNG.integers(0, shape[0], 8)
    got = crop_and_resize(image, boxes, box_indices, crop_size, method=method, extrapolation_value=2.0)
    want = tf_crop_and_resize(image, boxes, box_indices, crop_size, method, 2.0)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_whole_image_box_and_flip():
    image = RNG.standard_normal((1, 6, 8, 2)).astype(np.float32)
    boxes = [[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    out = np.asarray(crop_and_resize(image, boxes, [0, 0, 0], (6, 8)))
    np.testing.assert_allclose(out[0], image[0], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out[1], image[0, ::-1], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out[2], image[0, :, ::-1], rtol=1e-6, atol=1e-6)


def test_nearest_ties_round_half_up():
    # in_y = i * 4 / 8 hits every .5 exactly; TF's roundf takes the upper pixel (round_prefer_ceil)
    image = np.arange(5 * 5, dtype=np.float32).reshape(1, 5, 5, 1)
    out = crop_and_resize(image, [[0.0, 0.0, 1.0, 0.0]], [0], (9, 1), method="nearest")
    np.testing.assert_array_equal(out[0, :, 0, 0], [0, 5, 5, 10, 10, 15, 15, 20, 20])


def test_integer_image_and_extrapolation():
    image = RNG.integers(0, 255, (1, 5, 6, 3)).astype(np.uint8)
    out = crop_and_resize(image, [[-0.5, 0.2, 0.5, 0.9]], [0], (4, 3), extrapolation_value=7.0)
    assert out.dtype == jnp.float32
    want = tf_crop_and_resize(image, [[-0.5, 0.2, 0.5, 0.9]], [0], (4, 3), "bilinear", 7.0)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-4)
    assert np.all(np.asarray(out)[0, :2] == 7.0)  # rows above the image


def test_jit_vmap_and_traced_indices():
    image = jnp.asarray(RNG.standard_normal((3, 8, 9, 2)), jnp.float32)
    boxes = jnp.asarray(random_boxes(4))
    idx = jnp.array([2, 0, 1, 2])
    eager = crop_and_resize(image, boxes, idx, (3, 5))
    jitted = jax.jit(crop_and_resize, static_argnames=("crop_size", "method"))(image, boxes, idx, crop_size=(3, 5))
    np.testing.assert_allclose(jitted, eager, rtol=1e-6, atol=1e-6)
    # vmap over sets of boxes == a loop
    sets = jnp.asarray(random_boxes(3 * 4).reshape(3, 4, 4))
    batched = jax.vmap(lambda b: crop_and_resize(image, b, idx, (3, 5)))(sets)
    np.testing.assert_allclose(
        batched, np.stack([crop_and_resize(image, b, idx, (3, 5)) for b in sets]), rtol=1e-6, atol=1e-6
    )
    # vmap over images too
    images = jnp.stack([image, image * 2])
    out = jax.vmap(lambda im: crop_and_resize(im, boxes, idx, (3, 5)))(images)
    np.testing.assert_allclose(out[1], 2 * eager, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_grad_image_and_boxes(method):
    image = jnp.asarray(RNG.standard_normal((2, 6, 7, 2)), jnp.float32)
    # no sample on an integer coordinate (kinks) nor on the image border
    boxes = jnp.array([[0.13, 0.07, 0.91, 0.83], [0.77, 0.62, 0.21, 0.11], [0.31, -0.17, 0.55, 0.47]], jnp.float32)
    idx = jnp.array([0, 1, 1])
    f = lambda im, bx: crop_and_resize(im, bx, idx, (4, 3), method=method, extrapolation_value=0.5)
    check_grads(lambda im: f(im, boxes), (image,), order=2, modes=("fwd", "rev"), eps=1e-2, atol=2e-2, rtol=2e-2)
    if method == "bilinear":
        check_grads(lambda bx: f(image, bx), (boxes,), order=1, modes=("fwd", "rev"), eps=1e-3, atol=3e-2, rtol=3e-2)
    else:  # piecewise constant in the boxes
        assert not np.any(jax.grad(lambda bx: f(image, bx).sum())(boxes))


def test_grad_boxes_matches_tensorflow_finite_differences():
    image = RNG.standard_normal((1, 9, 10, 1))
    boxes = np.array([[0.12, 0.23, 0.84, 0.71]])
    g = jax.grad(lambda bx: crop_and_resize(image, bx, [0], (5, 4)).sum())(jnp.asarray(boxes, jnp.float32))
    eps = 1e-6
    fd = np.zeros(4)
    for k in range(4):
        d = np.zeros_like(boxes)
        d[0, k] = eps
        fd[k] = (
            tf_crop_and_resize(image, boxes + d, [0], (5, 4)).sum()
            - tf_crop_and_resize(image, boxes - d, [0], (5, 4)).sum()
        ) / (2 * eps)
    np.testing.assert_allclose(g[0], fd, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        (dict(image=np.zeros((4, 4, 1))), ValueError, "rank 4"),
        (dict(boxes=np.zeros((2, 3))), ValueError, r"boxes must have shape \[num_boxes, 4\]"),
        (dict(box_indices=[0]), ValueError, r"box_indices must have shape \[num_boxes\]"),
        (dict(box_indices=[0, 2]), ValueError, r"in \[0, N\) = \[0, 2\); got \[2\]"),
        (dict(box_indices=[0.0, 1.0]), TypeError, "box_indices must be integers"),
        (dict(crop_size=(0, 3)), ValueError, "crop_size must be a pair of positive ints"),
        (dict(crop_size=(2, 3, 4)), ValueError, "crop_size"),
        (dict(crop_size=3), TypeError, "crop_size"),
        (dict(method="bicubic"), ValueError, "method='bicubic' is not supported"),
        (dict(image=np.zeros((2, 4, 4, 1), complex)), TypeError, "image must be real"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    args = dict(image=np.zeros((2, 4, 4, 1), np.float32), boxes=np.zeros((2, 4)), box_indices=[0, 1], crop_size=(2, 3))
    args.update(kwargs)
    with pytest.raises(error, match=match):
        crop_and_resize(**args)
