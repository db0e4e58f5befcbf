"""crop_and_resize against TensorFlow's ``tf.image.crop_and_resize`` itself (its CPU kernel).

Oracle: TensorFlow (``pytest.importorskip`` guards the import; the test extra installs
tensorflow-cpu). Values are compared exactly — :func:`assert_same` asks for the same float32 bits
(so the same sign of zero) and NaN where TensorFlow has NaN — because ``crop_and_resize``
evaluates the kernel's float32 arithmetic in its order. Each comparison runs with the boxes
concrete ("eager": the call's own jit) and traced under an enclosing ``jax.jit`` ("jit"), with
several boxes sharing one call, since XLA's fused multiply-adds and reciprocal divisions used to
depend on the fusion; a few also run op by op (``jax.disable_jit``).

The random sweep keeps every drawn case: images of every dtype TensorFlow accepts, boxes inside,
outside, flipped, degenerate, on pixel-grid fractions and at the edges, crop sizes including 1,
both methods and three extrapolation values.
"""

import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from jax_resize import crop_and_resize

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
tf = pytest.importorskip("tensorflow")

RNG = np.random.default_rng(0)
MODES = ("eager", "jit")
_JITTED = jax.jit(crop_and_resize, static_argnames=("crop_size", "method", "extrapolation_value"))


def ours(mode, image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    if mode == "jit":  # boxes and indices traced
        out = _JITTED(
            image,
            jnp.asarray(boxes, jnp.float32),
            jnp.asarray(box_indices, jnp.int32),
            crop_size=tuple(crop_size),
            method=method,
            extrapolation_value=extrapolation_value,
        )
    elif mode == "op-by-op":
        with jax.disable_jit():
            out = crop_and_resize(image, boxes, box_indices, crop_size, method, extrapolation_value)
    else:
        out = crop_and_resize(image, boxes, box_indices, crop_size, method, extrapolation_value)
    return np.asarray(out)


def tensorflow(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    out = tf.image.crop_and_resize(
        image,
        np.asarray(boxes, np.float32),
        np.asarray(box_indices, np.int32),
        crop_size,
        method=method,
        extrapolation_value=extrapolation_value,
    )
    return out.numpy()


def assert_same(got, want):
    """Same shape, dtype float32, NaN at the same places and the same float32 bits elsewhere."""
    assert got.shape == want.shape and got.dtype == want.dtype == np.float32
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg="NaN positions differ")
    mismatch = got.view(np.int32)[~nan] != want.view(np.int32)[~nan]
    if mismatch.any():
        diff = np.abs(got[~nan] - want[~nan])[mismatch]
        raise AssertionError(
            f"{mismatch.sum()} of {mismatch.size} values differ from TensorFlow, max |diff| {diff.max()}"
        )


# --- the two examples of issue 10 ------------------------------------------------------------


@pytest.mark.parametrize("mode", (*MODES, "op-by-op"))
def test_sample_on_the_last_pixel_is_not_extrapolated(mode):
    # in_x = 0 + 5 * (13 / 5) lands exactly on W - 1 = 13; one ulp above it would extrapolate
    image = np.arange(14, dtype=np.float32).reshape(1, 1, 14, 1)
    got = ours(mode, image, [[0.0, 0.0, 1.0, 1.0]], [0], (1, 6))
    want = tensorflow(image, [[0.0, 0.0, 1.0, 1.0]], [0], (1, 6))
    assert want[0, 0, -1, 0] == 13.0
    assert_same(got, want)


@pytest.mark.parametrize("companions", [1, 3, 8, 15])
@pytest.mark.parametrize("mode", MODES)
def test_last_pixel_whatever_shares_the_batch(mode, companions):
    image = np.arange(2 * 14, dtype=np.float32).reshape(2, 1, 14, 1)
    rng = np.random.default_rng(companions)
    boxes = np.concatenate([[[0.0, 0.0, 1.0, 1.0]], rng.uniform(-0.2, 1.2, (companions, 4))]).astype(np.float32)
    box_indices = rng.integers(0, 2, companions + 1)
    box_indices[0] = 0
    got = ours(mode, image, boxes, box_indices, (1, 6))
    want = tensorflow(image, boxes, box_indices, (1, 6))
    assert got[0, 0, -1, 0] == 13.0
    assert_same(got, want)


@pytest.mark.parametrize("mode", (*MODES, "op-by-op"))
def test_nearest_float32_near_tie(mode):
    # in_y = 0.1 * 10 + i * ((0.7 - 0.1) * 10 / 4): row 3 is 5.4999995 in float32 (round to 5),
    # not 5.5 as in real arithmetic (6)
    image = np.arange(11, dtype=np.float32).reshape(1, 11, 1, 1)
    boxes = [[0.1, 0.0, 0.7, 1.0]]
    got = ours(mode, image, boxes, [0], (5, 1), "nearest")
    want = tensorflow(image, boxes, [0], (5, 1), "nearest")
    np.testing.assert_array_equal(want[0, :, 0, 0], [1, 3, 4, 5, 7])
    assert_same(got, want)


# --- the random sweep ------------------------------------------------------------------------

SWEEP = 60
DTYPES = ("float32", "float32", "uint8", "int8", "int16", "uint16", "int32", "int64", "float16", "float64")


def _box_rows(rng, kind, count, height, width):
    """``count`` boxes ``[y1, x1, y2, x2]`` of one kind."""
    if kind == "inside":
        return rng.uniform(0, 1, (count, 4))
    if kind == "outside":
        return rng.uniform(-0.6, 1.6, (count, 4))
    if kind == "flipped":
        b = rng.uniform(-0.2, 1.2, (count, 4))
        return np.stack([np.maximum(b[:, 0], b[:, 2]), b[:, 1], np.minimum(b[:, 0], b[:, 2]), b[:, 3]], axis=1)
    if kind == "degenerate":  # zero height or width (or both)
        b = rng.uniform(-0.1, 1.1, (count, 4))
        b[:, 2] = np.where(rng.random(count) < 0.7, b[:, 0], b[:, 2])
        b[:, 3] = np.where(rng.random(count) < 0.7, b[:, 1], b[:, 3])
        return b
    if kind == "grid":  # pixel centres, half pixels and tenths: coordinates on and next to ties

        def frac(size):
            den = max(size - 1, 1)
            pick = rng.integers(0, 3, count)
            on = rng.integers(-1, den + 2, count) / den
            half = (rng.integers(-1, den + 1, count) + 0.5) / den
            tenth = rng.integers(-2, 13, count) / 10
            return np.choose(pick, [on, half, tenth])

        return np.stack([frac(height), frac(width), frac(height), frac(width)], axis=1)
    # "edges": 0, 1 and their float32 neighbours
    edge = np.array([0.0, 1.0, np.nextafter(np.float32(1), 0), np.nextafter(np.float32(1), 2), 1e-8, -1e-8, 0.5])
    return rng.choice(edge, (count, 4))


def _draw(case):
    """Case ``case`` of the sweep: ``(image, boxes, box_indices, crop_size, method, extrapolation_value)``."""
    rng = np.random.default_rng(1000 + case)
    n = int(rng.integers(1, 4))
    height, width = int(rng.integers(1, 33)), int(rng.integers(1, 33))
    channels = int(rng.integers(1, 5))
    dtype = np.dtype(DTYPES[case % len(DTYPES)])
    if dtype.kind == "f":
        image = (rng.standard_normal((n, height, width, channels)) * 40).astype(dtype)
    else:
        info = np.iinfo(dtype)
        image = rng.integers(max(info.min, -(2**20)), min(info.max, 2**20), (n, height, width, channels)).astype(dtype)
    kinds = ("inside", "outside", "flipped", "degenerate", "grid", "edges")
    count = int(rng.integers(1, 13))
    boxes = np.concatenate([_box_rows(rng, kind, count, height, width) for kind in rng.choice(kinds, 2)])
    boxes = boxes[rng.permutation(len(boxes))].astype(np.float32)
    box_indices = rng.integers(0, n, len(boxes))
    sizes = (1, 1, 2, 3, int(rng.integers(4, 41)))
    crop_size = (int(rng.choice(sizes)), int(rng.choice(sizes)))
    method = ("bilinear", "nearest")[case % 2]
    extrapolation_value = float(rng.choice([0.0, -2.5, 7.0]))
    return image, boxes, box_indices, crop_size, method, extrapolation_value


@pytest.mark.parametrize("case", range(SWEEP))
def test_random_sweep_matches_tensorflow(case):
    image, boxes, box_indices, crop_size, method, extrapolation_value = _draw(case)
    want = tensorflow(image, boxes, box_indices, crop_size, method, extrapolation_value)
    for mode in MODES:
        assert_same(ours(mode, image, boxes, box_indices, crop_size, method, extrapolation_value), want)


def test_readme_row_is_the_sweep():
    """The README row states this sweep (each case asserted bit-exact above, in every mode)."""
    import readme

    version = ".".join(tf.__version__.split(".")[:2])
    readme.assert_row(
        f"`tf.image.crop_and_resize` (TF {version})",
        f"bilinear, nearest: {SWEEP} random cases ({len(set(DTYPES))} image dtypes; boxes inside, outside, flipped, "
        f"degenerate, on ties and edges; crop sizes incl. 1), each {' and '.join(MODES)}",
        "exact (same float32 bits)",
        "exact (float32 output)",
    )


# --- dedicated cases -------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
@pytest.mark.parametrize("mode", (*MODES, "op-by-op"))
def test_flipped_outside_degenerate_and_size_one(method, mode):
    image = RNG.standard_normal((2, 9, 11, 3)).astype(np.float32)
    boxes = [
        [0.7, 0.9, 0.1, 0.2],  # flipped both ways
        [-0.5, 0.2, 0.5, 1.4],  # half outside
        [1.5, -0.7, 2.0, -0.1],  # entirely outside
        [0.3, 0.3, 0.3, 0.8],  # zero height
        [0.0, 0.0, 1.0, 1.0],
    ]
    box_indices = [1, 0, 1, 0, 1]
    for crop_size in [(5, 4), (1, 3), (4, 1), (1, 1)]:
        want = tensorflow(image, boxes, box_indices, crop_size, method, -3.5)
        assert_same(ours(mode, image, boxes, box_indices, crop_size, method, -3.5), want)


def test_whole_image_box_and_flips_are_exact_copies():
    image = RNG.standard_normal((1, 6, 8, 2)).astype(np.float32)
    boxes = [[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    for mode in MODES:
        out = ours(mode, image, boxes, [0, 0, 0], (6, 8))
        assert_same(out, tensorflow(image, boxes, [0, 0, 0], (6, 8)))
        np.testing.assert_array_equal(out[0], image[0])
        np.testing.assert_array_equal(out[1], image[0, ::-1])
        np.testing.assert_array_equal(out[2], image[0, :, ::-1])


def test_nearest_exact_ties_round_half_away_from_zero():
    # in_y = i * 4 / 8 hits every .5 exactly; roundf takes the upper pixel
    image = np.arange(5 * 5, dtype=np.float32).reshape(1, 5, 5, 1)
    boxes = [[0.0, 0.0, 1.0, 0.0]]
    want = tensorflow(image, boxes, [0], (9, 1), "nearest")
    np.testing.assert_array_equal(want[0, :, 0, 0], [0, 5, 5, 10, 10, 15, 15, 20, 20])
    for mode in MODES:
        assert_same(ours(mode, image, boxes, [0], (9, 1), "nearest"), want)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int8", "int16", "int32", "int64", "float16", "float64"])
def test_integer_and_other_float_images_return_float32(dtype):
    image = (RNG.standard_normal((2, 5, 6, 3)) * 100).clip(0 if dtype.startswith("u") else -128, 127).astype(dtype)
    boxes = [[-0.5, 0.2, 0.5, 0.9], [0.1, 0.1, 0.9, 0.6]]
    for method in ("bilinear", "nearest"):
        want = tensorflow(image, boxes, [1, 0], (4, 3), method, 7.0)
        for mode in MODES:
            assert_same(ours(mode, image, boxes, [1, 0], (4, 3), method, 7.0), want)


@pytest.mark.parametrize("extrapolation_value", [float("nan"), float("inf"), -1e30])
def test_extrapolation_values(extrapolation_value):
    image = RNG.standard_normal((1, 5, 6, 2)).astype(np.float32)
    boxes = [[-0.5, -0.2, 1.5, 1.3]]
    for method in ("bilinear", "nearest"):
        want = tensorflow(image, boxes, [0], (6, 5), method, extrapolation_value)
        for mode in MODES:
            assert_same(ours(mode, image, boxes, [0], (6, 5), method, extrapolation_value), want)


def test_non_finite_pixels_propagate_as_in_tensorflow():
    # TensorFlow's lerp `tl + (tr - tl) * dx` gives NaN next to an infinite pixel even where dx = 0
    image = RNG.standard_normal((1, 6, 7, 2)).astype(np.float32)
    image[0, 2, 3, 0] = np.inf
    image[0, 4, 1, 1] = -np.inf
    image[0, 1, 5, :] = np.nan
    boxes = [[0.0, 0.0, 1.0, 1.0], [0.2, 0.1, 0.8, 0.9], [0.4, 0.5, 0.4, 0.5]]
    for crop_size in [(6, 7), (11, 13), (3, 4)]:
        for method in ("bilinear", "nearest"):
            want = tensorflow(image, boxes, [0, 0, 0], crop_size, method)
            for mode in MODES:
                assert_same(ours(mode, image, boxes, [0, 0, 0], crop_size, method), want)


def test_jit_vmap_and_traced_indices():
    image = jnp.asarray(RNG.standard_normal((3, 8, 9, 2)), jnp.float32)
    boxes = RNG.uniform(-0.2, 1.2, (4, 4)).astype(np.float32)
    idx = np.array([2, 0, 1, 2])
    want = tensorflow(np.asarray(image), boxes, idx, (3, 5))
    for mode in MODES:
        assert_same(ours(mode, image, boxes, idx, (3, 5)), want)
    # vmap over sets of boxes == one call per set == TensorFlow per set
    sets = RNG.uniform(-0.2, 1.2, (3, 4, 4)).astype(np.float32)
    batched = np.asarray(jax.vmap(lambda b: crop_and_resize(image, b, idx, (3, 5)))(jnp.asarray(sets)))
    for k, b in enumerate(sets):
        assert_same(batched[k], tensorflow(np.asarray(image), b, idx, (3, 5)))
    # vmap over images too
    images = jnp.stack([image, image * 2])
    out = np.asarray(jax.vmap(lambda im: crop_and_resize(im, jnp.asarray(boxes), jnp.asarray(idx), (3, 5)))(images))
    assert_same(out[1], tensorflow(np.asarray(images[1]), boxes, idx, (3, 5)))


# --- gradients ---------------------------------------------------------------------------------


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


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
@pytest.mark.parametrize("crop_size", [(5, 4), (1, 3)])
def test_gradients_match_tensorflow(method, crop_size):
    """Gradients against TensorFlow's CropAndResizeGradImage / GradBoxes kernels.

    Tolerance: the kernels accumulate in float32 in their own order (per box, per sample, per
    channel), jax's transposes in another; the sums agree to a few float32 ulps of their terms.
    TensorFlow's box gradient for "nearest" is its bilinear formula; jax's is 0 (the output is
    piecewise constant in the boxes), so only bilinear box gradients are compared. No sample of
    these boxes lies within 0.02 pixel of an integer coordinate (see the next test for why).
    """
    image = RNG.standard_normal((2, 9, 10, 3)).astype(np.float32)
    boxes = np.array([[0.12, 0.23, 0.84, 0.71], [0.93, -0.13, 0.31, 0.57], [0.05, 0.4, 0.6, 0.95]], np.float32)
    idx = np.array([0, 1, 0])
    weights = RNG.standard_normal((3, *crop_size, 3)).astype(np.float32)
    image_t, boxes_t = tf.constant(image), tf.constant(boxes)
    with tf.GradientTape() as tape:
        tape.watch([image_t, boxes_t])
        loss = tf.reduce_sum(tf.image.crop_and_resize(image_t, boxes_t, idx, crop_size, method=method) * weights)
    want_image, want_boxes = (g.numpy() for g in tape.gradient(loss, [image_t, boxes_t]))
    loss_fn = lambda im, bx: jnp.sum(crop_and_resize(im, bx, idx, crop_size, method) * weights)
    got_image, got_boxes = jax.grad(loss_fn, argnums=(0, 1))(jnp.asarray(image), jnp.asarray(boxes))
    np.testing.assert_allclose(got_image, want_image, rtol=1e-5, atol=1e-5)
    if method == "bilinear":
        np.testing.assert_allclose(got_boxes, want_boxes, rtol=1e-4, atol=1e-4)
    else:
        np.testing.assert_array_equal(got_boxes, 0)


def test_box_gradient_is_the_forward_slope_where_tensorflow_grad_kernel_rounds_otherwise():
    """A documented difference: TensorFlow's box-gradient kernel recomputes the coordinates as
    ``x1 * (W - 1) + x * ((x2 - x1) * ((W - 1) / (crop_w - 1)))``, another float32 order than its
    forward's ``(x2 - x1) * (W - 1) / (crop_w - 1)``. For ``x = [-0.1, 0.55]``, ``W = 10``,
    ``crop_w = 4`` the forward samples column 2 at ``in_x = 3.0000002`` (between pixels 3 and 4),
    the gradient kernel at ``3.0`` (a pixel centre, slope 0). jax differentiates the forward
    itself: its gradient is the slope of the (3, 4) segment, which a one-sided finite difference
    of TensorFlow's own forward confirms.
    """
    image = RNG.standard_normal((1, 9, 10, 1)).astype(np.float32)
    boxes = np.array([[0.9, -0.1, 0.3, 0.55]], np.float32)
    image_t, boxes_t = tf.constant(image), tf.constant(boxes)
    with tf.GradientTape() as tape:
        tape.watch(boxes_t)
        column = tf.reduce_sum(tf.image.crop_and_resize(image_t, boxes_t, [0], (5, 4))[0, :, 2])
    tf_grad_x1 = tape.gradient(column, boxes_t).numpy()[0, 1]
    ours_grad_x1 = jax.grad(lambda bx: crop_and_resize(image, bx, [0], (5, 4))[0, :, 2].sum())(jnp.asarray(boxes))[0, 1]
    eps = np.float32(1e-3)  # moves in_x by 3 * eps to the right: stays inside the (3, 4) segment
    up = boxes.copy()
    up[0, 1] += eps
    forward_slope = (
        tensorflow(image, up, [0], (5, 4))[0, :, 2].sum() - tensorflow(image, boxes, [0], (5, 4))[0, :, 2].sum()
    ) / (up[0, 1] - boxes[0, 1])
    assert tf_grad_x1 == 0.0
    np.testing.assert_allclose(ours_grad_x1, forward_slope, rtol=1e-3)
    assert abs(ours_grad_x1) > 0.1


# --- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        (dict(image=np.zeros((4, 4, 1))), ValueError, "rank 4"),
        (dict(image=np.zeros((2, 0, 4, 1))), ValueError, "H >= 1 and W >= 1"),
        (dict(boxes=np.zeros((2, 3))), ValueError, r"boxes must have shape \[num_boxes, 4\]"),
        (dict(boxes=[[0, 0, 1, np.nan], [0, 0, 1, 1]]), ValueError, "boxes must be finite"),
        (dict(boxes=[[0, 0, 1, np.inf], [0, 0, 1, 1]]), ValueError, "boxes must be finite"),
        (dict(boxes=np.array([["a"] * 4] * 2)), TypeError, "boxes must be real numbers"),
        (dict(box_indices=[0]), ValueError, r"box_indices must have shape \[num_boxes\]"),
        (dict(box_indices=[0, 2]), ValueError, r"in \[0, N\) = \[0, 2\); got \[2\]"),
        (dict(box_indices=[-1, 0]), ValueError, r"in \[0, N\) = \[0, 2\); got \[-1\]"),
        (dict(box_indices=[0.0, 1.0]), TypeError, "box_indices must be integers"),
        (dict(crop_size=(0, 3)), ValueError, "crop_size must be a pair of positive ints"),
        (dict(crop_size=(2, 3, 4)), ValueError, "crop_size"),
        (dict(crop_size=3), TypeError, "crop_size"),
        (dict(method="bicubic"), ValueError, "method='bicubic' is not supported"),
        (dict(image=np.zeros((2, 4, 4, 1), complex)), TypeError, "image must be real"),
        (dict(image=np.zeros((2, 4, 4, 1), bool)), TypeError, "image must be real"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    args = dict(image=np.zeros((2, 4, 4, 1), np.float32), boxes=np.zeros((2, 4)), box_indices=[0, 1], crop_size=(2, 3))
    args.update(kwargs)
    with pytest.raises(error, match=match):
        crop_and_resize(**args)
