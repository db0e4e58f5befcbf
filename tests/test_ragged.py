"""``resize_ragged``: per-example jax.image.resize of zero-padded batches, one compilation.

Oracles: ``jax.image.resize`` of each example's valid crop (values; exact for nearest), a trace
counter (one compilation for many size mixes), NaN in the padding (never read).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import load_photo

from jax_resize import resize_ragged
from jax_resize._src import ragged as _ragged

PHOTOS = ["astronaut.png", "chelsea.png", "coffee.png", "camera.png"]


def _photo_batch(rng, count=5, padded=(96, 128)):
    """Crops of the real photos of many sizes (one tiny), zero-padded, float32 in [0, 1]."""
    images = np.zeros((count, *padded, 3), np.float32)
    sizes = np.zeros((count, 2), np.int32)
    for i in range(count):
        photo = np.asarray(load_photo(PHOTOS[i % len(PHOTOS)]).convert("RGB"), np.float32) / 255
        h = 1 if i == count - 1 else int(rng.integers(2, padded[0] + 1))
        w = int(rng.integers(1, padded[1] + 1))
        y, x = int(rng.integers(0, photo.shape[0] - h)), int(rng.integers(0, photo.shape[1] - w))
        images[i, :h, :w] = photo[y : y + h, x : x + w]
        sizes[i] = h, w
    return images, sizes


@pytest.mark.parametrize("method", _ragged.RAGGED_METHODS)
@pytest.mark.parametrize("antialias", [True, False])
def test_equals_jax_image_per_example_on_photo_crops(method, antialias):
    rng = np.random.default_rng(abs(hash((method, antialias))) % 2**32)
    images, sizes = _photo_batch(rng)
    shape = (24, 40, 3)
    got = np.asarray(jax.jit(lambda b, s: resize_ragged(b, s, shape, method, antialias))(images, sizes))
    assert got.shape == (len(sizes), *shape)
    for i, (h, w) in enumerate(sizes):
        want = np.asarray(jax.image.resize(images[i, :h, :w], shape, method, antialias))
        np.testing.assert_allclose(got[i], want, rtol=0, atol=1e-5, err_msg=f"example {i}: {h}x{w}")


def test_uint8_nearest_exact_and_dtypes():
    rng = np.random.default_rng(1)
    images = rng.integers(0, 256, (4, 50, 60, 3)).astype(np.uint8)
    sizes = np.array([[50, 60], [17, 23], [1, 60], [49, 2]])
    got = np.asarray(resize_ragged(images, sizes, (30, 31, 3), "nearest"))
    assert got.dtype == np.uint8
    for i, (h, w) in enumerate(sizes):
        np.testing.assert_array_equal(got[i], np.asarray(jax.image.resize(images[i, :h, :w], (30, 31, 3), "nearest")))
    linear = resize_ragged(images, sizes, (30, 31, 3))
    assert linear.dtype == np.float32  # integers promote, as jax.image.resize


def test_one_trace_for_ten_size_mixes():
    traces = []

    @jax.jit
    def f(batch, sizes):
        traces.append(1)
        return resize_ragged(batch, sizes, (16, 16, 3), "cubic")

    rng = np.random.default_rng(2)
    batch = rng.random((3, 40, 50, 3)).astype(np.float32)
    for _ in range(10):
        sizes = np.stack([rng.integers(1, 41, 3), rng.integers(1, 51, 3)], axis=1)
        out = f(batch, sizes)
        want = jax.image.resize(batch[0, : sizes[0, 0], : sizes[0, 1]], (16, 16, 3), "cubic")
        np.testing.assert_allclose(np.asarray(out[0]), np.asarray(want), atol=1e-5)
    assert len(traces) == 1


@pytest.mark.parametrize("method", ["linear", "lanczos3", "area", "cubic-pytorch", "nearest"])
def test_padding_is_never_read(method):
    rng = np.random.default_rng(3)
    clean = np.zeros((2, 30, 40, 1), np.float32)
    clean[0, :11, :29] = rng.random((11, 29, 1))
    clean[1, :30, :7] = rng.random((30, 7, 1))
    sizes = np.array([[11, 29], [30, 7]])
    dirty = clean.copy()
    dirty[0, 11:], dirty[0, :, 29:], dirty[1, :, 7:] = np.nan, np.inf, np.nan
    for antialias in (True, False):
        a = np.asarray(resize_ragged(clean, sizes, (9, 13, 1), method, antialias))
        b = np.asarray(resize_ragged(dirty, sizes, (9, 13, 1), method, antialias))
        assert np.all(np.isfinite(b))
        np.testing.assert_array_equal(a, b)


def test_untraced_axes_resize_statically():
    rng = np.random.default_rng(4)
    images = rng.random((2, 20, 6, 4)).astype(np.float32)
    sizes = np.array([[20], [9]])  # only axis 1 is ragged; axis 2 goes 6 -> 3 for everyone
    got = np.asarray(resize_ragged(images, sizes, (8, 3, 4), "linear"))
    for i, (h,) in enumerate(sizes):
        want = np.asarray(jax.image.resize(images[i, :h], (8, 3, 4), "linear"))
        np.testing.assert_allclose(got[i], want, atol=1e-5)


def test_traced_sizes_are_clamped():
    images = np.random.default_rng(5).random((1, 10, 10, 1)).astype(np.float32)
    f = jax.jit(lambda s: resize_ragged(images, s, (4, 4, 1)))
    want = jax.image.resize(images[0, :1, :10], (4, 4, 1), "linear")  # clamped to [1, 10]
    np.testing.assert_allclose(np.asarray(f(jnp.array([[0, 99]])))[0], np.asarray(want), atol=1e-6)


@pytest.mark.parametrize(
    ("sizes", "error", "message"),
    [
        ([[0, 5]], ValueError, r"sizes\[0, 0\] = 0 is outside \[1, 10\]"),
        ([[5, 11]], ValueError, r"sizes\[0, 1\] = 11 is outside \[1, 10\]"),
        ([[5, 5, 1, 1]], ValueError, r"sizes must be \[N, k\] = \[1, k\]"),
        ([5, 5], ValueError, r"sizes must be \[N, k\]"),
        ([[2.5, 3.0]], TypeError, "sizes must be integers"),
    ],
)
def test_bad_sizes(sizes, error, message):
    with pytest.raises(error, match=message):
        resize_ragged(np.zeros((1, 10, 10, 3), np.float32), sizes, (4, 4, 3))


def test_bad_method():
    with pytest.raises(ValueError, match="not available in resize_ragged"):
        resize_ragged(np.zeros((1, 4, 4), np.float32), [[4, 4]], (2, 2), "pil_bilinear")


@pytest.mark.parametrize(
    ("method", "tf_method", "antialias"),
    [
        ("linear", "bilinear", False),
        ("linear", "bilinear", True),
        ("cubic", "bicubic", True),
        ("lanczos3", "lanczos3", True),
        ("nearest", "nearest", False),
        ("area", "area", False),
    ],
)
def test_letterbox_equals_tensorflow_resize_with_pad(method, tf_method, antialias):
    tf = pytest.importorskip("tensorflow")
    rng = np.random.default_rng(6)
    images, sizes = _photo_batch(rng, count=5, padded=(96, 128))
    shape = (40, 48, 3)
    f = jax.jit(lambda b, s: resize_ragged(b, s, shape, method, antialias, letterbox=True))
    got = np.asarray(f(images, sizes))
    clamped = 0
    for i, (h, w) in enumerate(sizes):
        crop = images[i, :h, :w]
        # resize_with_pad's fit (tensorflow/python/ops/image_ops_impl.py), in float32
        ratio = max(np.float32(h) / np.float32(shape[0]), np.float32(w) / np.float32(shape[1]))
        fit = [np.float32(n) / ratio for n in (h, w)]
        if min(int(np.floor(v)) for v in fit) > 0:
            want = tf.image.resize_with_pad(crop, shape[0], shape[1], tf_method, antialias=antialias).numpy()
        else:
            # TensorFlow refuses a zero-row (or zero-column) fit; ours keeps one (documented: m_j >= 1),
            # resized by TensorFlow and padded at resize_with_pad's offsets
            clamped += 1
            m = [max(1, int(np.floor(v))) for v in fit]
            offset = [max(0, int(np.floor((np.float32(t) - v) / 2))) for t, v in zip(shape[:2], fit)]
            resized = tf.image.resize(crop, m, tf_method, antialias=antialias)
            want = tf.image.pad_to_bounding_box(resized, *offset, shape[0], shape[1]).numpy()
        tol = 0 if method == "nearest" else 1e-5
        np.testing.assert_allclose(got[i], want, rtol=0, atol=tol, err_msg=f"example {i}: {h}x{w}")
    assert clamped == 1  # the one-row example (a 1 x 87 crop into 40 x 48): fit height 0.55
