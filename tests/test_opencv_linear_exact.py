"""``cv2_resize(..., INTER_LINEAR_EXACT)`` on int8, uint16, int16 and int32 against the real
``cv2.resize`` (opencv-python-headless): OpenCV's 16.16 / 32.32 fixed point
(``peers/opencv_linear_exact.py``), bit for bit without ``jax_enable_x64``.

Oracle: OpenCV itself, on a photo crop scaled to 16 bits and full-range noise holding each
dtype's extremes, 1-4 channels, enlarging and shrinking, integer and fractional factors, mixed
directions, ``fx``/``fy`` (an exact 2x shrink of 16-bit images takes OpenCV's area route). The
bit-exact path is integer arithmetic, so it does not depend on the processor's vector dispatch;
a differing case still reports ``cv2.getCPUFeaturesLine()``.
"""

import jax
import numpy as np
import pytest
from conftest import cv2_size_rules

from jax_resize import compat
from jax_resize._src.peers import opencv_linear_exact as le
from jax_resize.compat import cv2_resize

cv2 = pytest.importorskip("cv2")

_ROW = "`cv2.resize` INTER_LINEAR_EXACT int8, uint16, int16, int32 (OpenCV 5.1)"


def _image(dtype, channels: int, h: int = 61, w: int = 83) -> np.ndarray:
    """A photo crop scaled to the dtype's full range for 1 and 3 channels of 16-bit images; else
    full-range noise, its first pixels the dtype's extremes."""
    info = np.iinfo(dtype)
    if channels in (1, 3) and info.bits == 16:
        from conftest import load_photo

        rgb = np.asarray(load_photo("chelsea.png").convert("RGB"))[100 : 100 + h, 150 : 150 + w].astype(np.int64)
        x = rgb.mean(axis=2).round().astype(np.int64)[..., None] if channels == 1 else rgb
        x = x * 257 + info.min  # 0..255 -> the full 16-bit range, extremes included
    else:
        rng = np.random.default_rng(channels + info.bits)
        x = rng.integers(info.min, int(info.max) + 1, (h, w, channels), dtype=np.int64)
        x.reshape(-1)[:4] = [info.min, info.max, info.max, info.min]
    x = x.astype(dtype)
    return x[..., 0] if channels == 1 else x


def _exact(x, kw) -> None:
    want = cv2.resize(x, interpolation=cv2.INTER_LINEAR_EXACT, **kw)
    got = np.asarray(cv2_resize(x, interpolation=compat.INTER_LINEAR_EXACT, **kw))
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, kw)
    np.testing.assert_array_equal(got, want, err_msg=f"{x.dtype} {x.shape} {kw} {cv2.getCPUFeaturesLine()}")


@pytest.mark.parametrize("dtype", [np.uint16, np.int16])
def test_sixteen_bit_photos_and_noise_bit_for_bit(dtype):
    import readme

    exact = 0
    for channels in (1, 2, 3, 4):
        x = _image(dtype, channels)
        for kw in cv2_size_rules(*x.shape[:2]):
            _exact(x, kw)
            exact += 1
    cell = readme.row(_ROW)[3]
    assert f"{np.dtype(dtype).name} {exact} / {exact} bit exact" in cell, cell


@pytest.mark.parametrize("dtype", [np.int8, np.int32])
def test_int8_and_int32_noise_bit_for_bit(dtype):
    import readme

    exact = 0
    for channels in (1, 2, 3, 4):
        x = _image(dtype, channels, 23, 31)
        for kw in cv2_size_rules(*x.shape[:2])[:4] + [dict(dsize=None, fx=2 / 3, fy=1.5)]:
            _exact(x, kw)
            exact += 1
    cell = readme.row(_ROW)[3]
    assert f"{np.dtype(dtype).name} {exact} / {exact} bit exact" in cell, cell


def test_int32_products_round_half_away_from_zero():
    # rows [p0, p1] halved across: H = (p0 + p1) / 2 in 32.32, exactly half an integer when the sum
    # is odd; a 3x enlarging column weighs it with odd 32.32 weights, so each product H * b is
    # half a unit of 2**-32, rounded away from zero (fixedpoint64::operator*): the outputs
    # where truncated or half-up products would end a unit lower (random data almost never does)
    for pair in ([0, 1], [0, -1], [1, 2], [-2, -1], [5, -8], [2**31 - 1, -(2**31)], [-(2**31), 1 - 2**31]):
        _exact(np.tile(np.array(pair, np.int32), (4, 4)), dict(dsize=(4, 12)))


def test_small_and_degenerate_axes():
    # 1- and 2-pixel axes (OpenCV's edge rules, its non-"mulall" row loop), outputs of 1 pixel
    rng = np.random.default_rng(4)
    for dtype in (np.uint16, np.int16, np.int32):
        info = np.iinfo(dtype)
        for shape, dsize in (((1, 5), (9, 3)), ((2, 2, 3), (5, 7)), ((7, 1, 2), (1, 4)), ((3, 4), (1, 1))):
            _exact(rng.integers(info.min, int(info.max) + 1, shape, dtype=np.int64).astype(dtype), dict(dsize=dsize))


def test_halving_int8_and_int32_where_opencv_has_no_area_function():
    # OpenCV asserts on an exact 2x shrink of int8 / int32 (no area function for them); ours is
    # the bit-exact linear result, which for 16-bit images equals OpenCV's area route
    x = _image(np.int32, 3, 10, 14)
    with pytest.raises(cv2.error):
        cv2.resize(x, (7, 5), interpolation=cv2.INTER_LINEAR_EXACT)
    got = np.asarray(cv2_resize(x, (7, 5), interpolation=compat.INTER_LINEAR_EXACT))
    mean = x.astype(np.int64).reshape(5, 2, 7, 2, 3).mean(axis=(1, 3))
    assert got.dtype == np.int32 and np.abs(got - mean).max() <= 1


def test_int64_is_opencvs_int32():
    # the binding passes int64 images whose values fit as CV_32S: int32 results
    x = _image(np.int32, 2, 9, 11).astype(np.int64) // 4
    want = cv2.resize(x, (17, 5), interpolation=cv2.INTER_LINEAR_EXACT)
    got = np.asarray(cv2_resize(x, (17, 5), interpolation=compat.INTER_LINEAR_EXACT))
    np.testing.assert_array_equal(got.astype(np.int64), want.astype(np.int64))


def test_one_answer_per_input():
    # eager twice, under jit and under vmap: the same bits
    for dtype in (np.uint16, np.int16, np.int8, np.int32):
        x = _image(dtype, 3, 19, 26)
        first = np.asarray(cv2_resize(x, (41, 13), interpolation=compat.INTER_LINEAR_EXACT))
        np.testing.assert_array_equal(first, np.asarray(cv2_resize(x, (41, 13), interpolation=5)))
        jitted = jax.jit(lambda a: cv2_resize(a, (41, 13), interpolation=compat.INTER_LINEAR_EXACT))(x)
        np.testing.assert_array_equal(first, np.asarray(jitted))
        batch = jax.vmap(lambda a: cv2_resize(a, (41, 13), interpolation=compat.INTER_LINEAR_EXACT))(
            np.stack([x, x[::-1]])
        )
        np.testing.assert_array_equal(first, np.asarray(batch[0]))
        np.testing.assert_array_equal(cv2.resize(x[::-1], (41, 13), interpolation=5), np.asarray(batch[1]))


def test_coefficients_are_opencvs_fixed_point():
    # c1 = rint(frac * 2**F) half to even, (2**F - c1, c1); edges take the edge pixel with 2**F
    index, weight = le.exact_linear_coefficients(4, 8, 2.0, 16)
    assert weight.dtype == np.int32 and weight.sum(axis=1).tolist() == [1 << 16] * 8
    assert weight[:, 1].tolist() == [0, 16384, 49152, 16384, 49152, 16384, 49152, 0]
    assert index[0].tolist() == [0, 1] and index[-1].tolist() == [3, 3]
    index, weight = le.exact_linear_coefficients(3, 2, 2 / 3, 32)
    assert weight.dtype == np.int64 and weight[:, 1].tolist() == [1 << 30, 3 << 30]
    assert le.FRACTION_BITS == {"uint8": 8, "int8": 16, "uint16": 16, "int16": 16, "int32": 32, "int64": 32}
