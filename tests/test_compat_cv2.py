"""``jax_resize.compat.cv2_resize`` against the real ``cv2.resize`` (opencv-python-headless).

Oracle: OpenCV itself, on photos, noise and random image shapes, channel counts, ``dsize`` and
``fx``/``fy``, every flag, up and down. uint8 bit for bit (OpenCV's own fixed-point arithmetic),
except ``INTER_CUBIC`` where the x86-64 wheel calls Intel IPP (1, 3 or 4 channels, inputs of at
least 4 x 4): within 1 there; 16-bit within 1 (``INTER_LINEAR_EXACT`` bit for bit:
``tests/test_opencv_linear_exact.py``); float32 within 1e-5 (relative to the image's
magnitude); the nearest flags exactly.
"""

import pydoc

import jax
import numpy as np
import pytest
from conftest import cv2_size_rules

from jax_resize import compat
from jax_resize.compat import cv2_resize

cv2 = pytest.importorskip("cv2")

FLAGS = [
    "INTER_NEAREST",
    "INTER_LINEAR",
    "INTER_CUBIC",
    "INTER_AREA",
    "INTER_LANCZOS4",
    "INTER_LINEAR_EXACT",
    "INTER_NEAREST_EXACT",
]


def _case(rng, dtype):
    h, w = int(rng.integers(1, 23)), int(rng.integers(1, 23))
    c = int(rng.choice([0, 1, 3, 4]))
    shape = (h, w) if c == 0 else (h, w, c)
    x = rng.integers(0, 256, shape).astype(dtype) if dtype == np.uint8 else rng.random(shape).astype(dtype)
    r = rng.random()
    if r < 0.4:
        kw = dict(dsize=(int(rng.integers(1, 35)), int(rng.integers(1, 35))))
    elif r < 0.55:  # integer factors: OpenCV's fast area / 2x paths
        k = int(rng.choice([2, 3]))
        kw = dict(dsize=(max(1, w // k), max(1, h // k))) if rng.random() < 0.5 else dict(dsize=(w * k, h * k))
    else:
        fx, fy = float(rng.uniform(0.25, 3.0)), float(rng.uniform(0.25, 3.0))
        if rng.random() < 0.3:
            fx = fy = float(rng.choice([0.5, 2.0, 1 / 3, 1.5]))
        fx, fy = max(fx, 0.5 / w + 1e-9), max(fy, 0.5 / h + 1e-9)  # non-empty output
        kw = dict(dsize=None, fx=fx, fy=fy)
    return x, kw


def _compare(x, kw, flag):
    interp = getattr(cv2, flag)
    want = cv2.resize(x, interpolation=interp, **kw)
    got = np.asarray(cv2_resize(x, interpolation=getattr(compat, flag), **kw))
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, kw)
    if "NEAREST" in flag:
        np.testing.assert_array_equal(got, want, err_msg=f"{flag} {kw}")
        return 0.0, 0
    if x.dtype.kind in "iu":
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
        assert diff.max(initial=0) <= 1, (flag, kw)
        if x.dtype == np.uint8 and not (flag == "INTER_CUBIC" and _ipp_cubic(x)):
            np.testing.assert_array_equal(got, want, err_msg=f"{flag} {kw} {cv2.getCPUFeaturesLine()}")
        return float(np.count_nonzero(diff)), diff.size
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * float(np.abs(x).max()), err_msg=f"{flag} {kw}")
    scale = float(np.abs(x).max())
    return float(np.abs(got.astype(np.float64) - want).max(initial=0)) / (scale or 1.0), got.size


# The README's OpenCV rows (flags cell prefix); each sweep asserts its errors are within the
# row's stated bounds, test_readme_rows the case counts.
N_CASES = 8
_CV2 = "`cv2.resize` (OpenCV 5.1)"
_ROWS = {"INTER_NEAREST, INTER_NEAREST_EXACT": 2, "LINEAR, CUBIC, AREA, LANCZOS4, LINEAR_EXACT": 5}


def _ipp_cubic(x) -> bool:
    """Whether the wheel resizes this 8-bit image's INTER_CUBIC with Intel IPP (peers/opencv.py)."""
    cn = x.shape[2] if x.ndim == 3 else 1
    return cn in (1, 3, 4) and min(x.shape[:2]) >= 4


def test_readme_rows():
    import readme

    assert _CV2 == f"`cv2.resize` (OpenCV {'.'.join(cv2.__version__.split('.')[:2])})"
    for flags, n in _ROWS.items():
        want = f"{flags}: {n * N_CASES} float32, {n * N_CASES} uint8 cases"
        assert readme.row(_CV2, flags)[1] == want, readme.row(_CV2, flags)


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_random_against_opencv(flag, dtype):
    import readme

    rng = np.random.default_rng(sum(map(ord, flag)) + (dtype == np.uint8))
    results = [_compare(*_case(rng, dtype), flag) for _ in range(N_CASES)]
    if "NEAREST" in flag:
        return
    lead = (_CV2, "LINEAR, CUBIC")
    if dtype == np.uint8:  # bit exact (asserted per case); INTER_CUBIC's IPP cases within the row's share
        share = 100 * sum(r[0] for r in results) / sum(r[1] for r in results)
        assert share <= readme.bound(lead, 3, "%"), (flag, share, readme.row(*lead))
    else:
        worst = max(r[0] for r in results)
        assert worst <= readme.bound(lead, 2, "rel"), (flag, worst, readme.row(*lead))


@pytest.mark.parametrize("flag", ["INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4"])
def test_other_dtypes(flag):
    rng = np.random.default_rng(7)
    for dtype in (np.uint16, np.int16, np.float64):
        x = rng.random((9, 13, 3)) if dtype == np.float64 else rng.integers(0, 5000, (9, 13, 3)).astype(dtype)
        for dsize in ((5, 4), (20, 17)):
            want = cv2.resize(x, dsize, interpolation=getattr(cv2, flag))
            got = np.asarray(cv2_resize(x, dsize, interpolation=getattr(compat, flag))).astype(np.float64)
            tol = 1.0 if dtype != np.float64 else 1e-5
            assert np.abs(got - want).max() <= tol, (dtype, flag, dsize)


# --- uint8 bit for bit on photos and noise (issue 54): each filter x 1-4 channels x 8 sizes -------

_PHOTO_FLAGS = ["INTER_LINEAR", "INTER_LINEAR_EXACT", "INTER_AREA", "INTER_LANCZOS4", "INTER_CUBIC"]
_PHOTO_ROW = "`cv2.resize` uint8, x86-64 wheel (OpenCV 5.1)"


def _photo_or_noise(channels: int) -> np.ndarray:
    """An odd-sized 61 x 83 crop of a photo (grey for 1 channel, RGB for 3), noise for 2 and 4."""
    if channels in (1, 3):
        from conftest import load_photo

        rgb = np.asarray(load_photo("chelsea.png").convert("RGB"))[100:161, 150:233]
        return rgb.mean(axis=2).round().astype(np.uint8) if channels == 1 else rgb
    return np.random.default_rng(channels).integers(0, 256, (61, 83, channels)).astype(np.uint8)


@pytest.mark.parametrize("flag", _PHOTO_FLAGS)
def test_uint8_photos_and_noise_bit_for_bit(flag):
    import readme

    exact = ipp = within = without = 0
    off = total = 0
    for channels in (1, 2, 3, 4):
        x = _photo_or_noise(channels)
        for kw in cv2_size_rules(*x.shape[:2]):
            want = cv2.resize(x, interpolation=getattr(cv2, flag), **kw)
            got = np.asarray(cv2_resize(x, interpolation=getattr(compat, flag), **kw))
            assert got.shape == want.shape and got.dtype == want.dtype
            if flag == "INTER_CUBIC" and _ipp_cubic(x):  # Intel IPP's closed float code
                diff = np.abs(got.astype(int) - want)
                assert diff.max() <= 1, (channels, kw)
                ipp, within, off, total = ipp + 1, within + 1, off + np.count_nonzero(diff), total + diff.size
                cv2.ipp.setUseIPP(False)  # OpenCV's own code, which ipp=False reproduces
                try:
                    own = cv2.resize(x, interpolation=cv2.INTER_CUBIC, **kw)
                finally:
                    cv2.ipp.setUseIPP(True)
                mine = np.asarray(cv2_resize(x, interpolation=compat.INTER_CUBIC, ipp=False, **kw))
                np.testing.assert_array_equal(mine, own, err_msg=f"{channels} {kw} {cv2.getCPUFeaturesLine()}")
                without += 1
                continue
            # OpenCV's vectorised loops shape the bits: the x86-64 wheel's dispatch (AVX2 here)
            np.testing.assert_array_equal(got, want, err_msg=f"{channels} {kw} {cv2.getCPUFeaturesLine()}")
            exact += 1
    cell = readme.row(_PHOTO_ROW)[3]
    if flag == "INTER_CUBIC":
        assert f"INTER_CUBIC {exact} / {exact} bit exact" in cell and f"{within} / {ipp} within ±1" in cell, cell
        assert f"`ipp=False`: {without} / {ipp} bit exact against `cv2.ipp.setUseIPP(False)`" in cell, cell
        assert 100 * off / total <= readme.bound(_PHOTO_ROW, 3, "% of pixels"), (off, total)
    else:
        assert f"{flag} {exact} / 32 bit exact" in cell, cell


def test_uint8_exactness_does_not_depend_on_the_call():
    # one answer per input: eager twice, under jit and under vmap, the same bits
    x = _photo_or_noise(3)
    for flag in _PHOTO_FLAGS:
        interp = getattr(compat, flag)
        first = np.asarray(cv2_resize(x, (50, 37), interpolation=interp))
        np.testing.assert_array_equal(first, np.asarray(cv2_resize(x, (50, 37), interpolation=interp)))
        jitted = jax.jit(lambda a, i=interp: cv2_resize(a, (50, 37), interpolation=i))(x)
        np.testing.assert_array_equal(first, np.asarray(jitted))
        batch = jax.vmap(lambda a, i=interp: cv2_resize(a, (50, 37), interpolation=i))(np.stack([x, x[::-1]]))
        np.testing.assert_array_equal(first, np.asarray(batch[0]))
        np.testing.assert_array_equal(cv2.resize(x[::-1], (50, 37), interpolation=int(interp)), np.asarray(batch[1]))


def test_cubic_vector_loop_and_scalar_tail():
    # OpenCV's own INTER_CUBIC (2 channels, no IPP): float32 on whole groups of 8 values of a row,
    # integer arithmetic on the rest; every row width 2..140 values, enlarging and shrinking rows
    rng = np.random.default_rng(5)
    x = rng.integers(0, 256, (31, 47, 2)).astype(np.uint8)
    for out_w in range(1, 71):
        for out_h in (13, 70):
            want = cv2.resize(x, (out_w, out_h), interpolation=cv2.INTER_CUBIC)
            got = np.asarray(cv2_resize(x, (out_w, out_h), interpolation=compat.INTER_CUBIC))
            np.testing.assert_array_equal(got, want, err_msg=f"{out_w} {cv2.getCPUFeaturesLine()}")


def test_sixteen_bit_and_float_bounds():
    # uint16 / int16 within 1 (OpenCV's float and IPP paths; INTER_LINEAR_EXACT and INTER_AREA
    # shrinking exact), float32 on [0, 1]
    import readme

    lead = "`cv2.resize` uint16, int16, float32 (OpenCV 5.1)"
    bounds = {np.float32: readme.bound(lead, 2), np.uint16: readme.bound(lead, 3), np.int16: readme.bound(lead, 3)}
    rng = np.random.default_rng(11)
    for flag in _PHOTO_FLAGS:
        for channels in (1, 2, 3, 4):
            h, w = int(rng.integers(5, 40)), int(rng.integers(5, 40))
            for dtype in (np.uint16, np.int16, np.float32):
                if dtype == np.float32:
                    x = rng.random((h, w, channels)).astype(dtype)
                else:
                    info = np.iinfo(dtype)
                    x = rng.integers(info.min, int(info.max) + 1, (h, w, channels)).astype(dtype)
                for dsize in ((2 * w + 1, h // 2 + 1), (w // 2 + 1, 3 * h), (w // 2, h // 2)):
                    want = cv2.resize(x, dsize, interpolation=getattr(cv2, flag)).astype(np.float64)
                    got = np.asarray(cv2_resize(x, dsize, interpolation=getattr(compat, flag))).astype(np.float64)
                    shrink = flag == "INTER_AREA" and dsize[0] <= w and dsize[1] <= h
                    exact = (shrink or flag == "INTER_LINEAR_EXACT") and dtype != np.float32
                    tol = 0.0 if exact else bounds[dtype]
                    assert np.abs(got - want.reshape(got.shape)).max() <= tol, (flag, dtype, channels, dsize)


def test_area_mixed_directions_and_non_integer_shrink():
    rng = np.random.default_rng(3)
    x = rng.random((17, 23, 3)).astype(np.float32)
    for dsize in ((10, 40), (40, 10), (7, 5), (22, 16), (11, 8)):  # grow/shrink mixes use the bilinear variant
        _compare(x, dict(dsize=dsize), "INTER_AREA")
    _compare(x, dict(dsize=None, fx=1 / 3, fy=0.5), "INTER_AREA")  # fast integer path


def test_size_rules():
    x = np.random.default_rng(0).random((5, 7)).astype(np.float32)
    # round half to even: 7 * 0.5 = 3.5 -> 4, 5 * 0.5 = 2.5 -> 2
    assert cv2_resize(x, None, fx=0.5, fy=0.5).shape == cv2.resize(x, None, fx=0.5, fy=0.5).shape == (2, 4)
    # dsize wins over fx/fy, one-channel HWC comes back as HW, an unchanged size is a copy
    _compare(x, dict(dsize=(9, 3), fx=5.0, fy=5.0), "INTER_LINEAR")
    x1 = x[:, :, None]
    assert cv2_resize(x1, (3, 4)).shape == cv2.resize(x1, (3, 4)).shape == (4, 3)
    np.testing.assert_array_equal(cv2_resize(x, (7, 5), fx=2.0, fy=2.0), x)
    _compare(x, dict(dsize=None, fx=1.05, fy=1.05), "INTER_CUBIC")  # size unchanged, scale != 1 -> copy
    _compare(x, dict(dsize=None, fx=1.05, fy=1.5), "INTER_CUBIC")  # width unchanged, its scale used


def test_constants_match_opencv():
    for flag in FLAGS:
        assert getattr(compat, flag) == getattr(cv2, flag)
    assert set(FLAGS) <= set(compat.__all__)


def test_jit_with_static_dsize():
    x = np.random.default_rng(1).random((9, 11, 3)).astype(np.float32)
    for flag in ("INTER_CUBIC", "INTER_AREA", "INTER_NEAREST"):
        f = jax.jit(lambda v: cv2_resize(v, (6, 14), interpolation=getattr(compat, flag)))
        want = cv2.resize(x, (6, 14), interpolation=getattr(cv2, flag))
        np.testing.assert_allclose(f(x), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "args,kwargs,err,match",
    [
        (((4, 4),), dict(interpolation=9), ValueError, "interpolation=9 is not supported"),
        ((None,), dict(), ValueError, "fx and fy must be > 0"),
        (((0, 0),), dict(fx=0.5), ValueError, "fx and fy must be > 0"),
        (((4, -1),), dict(), ValueError, "non-negative"),
        (((4, 4.5),), dict(), TypeError, "pair of ints"),
        ((None,), dict(fx=0.01, fy=0.01), ValueError, "empty output"),
    ],
)
def test_errors_name_argument_and_value(args, kwargs, err, match):
    with pytest.raises(err, match=match):
        cv2_resize(np.zeros((6, 6), np.float32), *args, **kwargs)


def test_dtype_and_rank_errors():
    with pytest.raises(TypeError, match="does not support"):
        cv2_resize(np.zeros((6, 6), np.int32), (3, 3), interpolation=compat.INTER_CUBIC)
    assert cv2_resize(np.zeros((6, 6), np.int32), (3, 3), interpolation=compat.INTER_NEAREST).dtype == np.int32
    with pytest.raises(ValueError, match=r"\[H, W\] or \[H, W, C\]"):
        cv2_resize(np.zeros((1, 6, 6, 1), np.float32), (3, 3))


def test_interpolation_flags_are_opencvs_and_document_themselves():
    # names and values: cv2's own constants are the oracle; help() shows the enum's docstring, not int's
    assert [flag.name for flag in compat.InterpolationFlags] == FLAGS
    for flag in compat.InterpolationFlags:
        assert getattr(cv2, flag.name) == flag == getattr(compat, flag.name) and isinstance(flag, int)
    text = pydoc.render_doc(compat.INTER_CUBIC)
    assert "OpenCV" in text and "INTER_CUBIC = 2" in text and "int([x]) -> integer" not in text


def test_interpolation_as_cv2_int_or_member():
    x = np.random.default_rng(5).random((9, 11, 3)).astype(np.float32)
    want = np.asarray(cv2_resize(x, (7, 4), interpolation=compat.INTER_LANCZOS4))
    for flag in (cv2.INTER_LANCZOS4, 4, compat.InterpolationFlags(4), np.int64(4)):
        np.testing.assert_array_equal(np.asarray(cv2_resize(x, (7, 4), interpolation=flag)), want)
    with pytest.raises(ValueError, match=r"INTER_NEAREST_EXACT \(6\)"):
        cv2_resize(x, (7, 4), interpolation=7)


#: Bad arguments of ``cv2.resize``. OpenCV raises ``cv2.error`` for all of them: read as a
#: ``TypeError`` where its Python binding cannot parse the argument (the message's location is
#: ``:-1:``) and as a ``ValueError`` where ``cv::resize`` asserts on its value (a ``resize.cpp``
#: line); ours must be that class (issue 45).
CV2_BAD_ARGUMENTS = {
    "dsize of length 3": dict(dsize=(8, 8, 8)),
    "dsize of length 1": dict(dsize=(8,)),
    "dsize an int": dict(dsize=8),
    "dsize with a float": dict(dsize=(8.0, 8)),
    "dsize a string": dict(dsize="ab"),
    "dsize with a bool": dict(dsize=(True, 8)),
    "dsize negative": dict(dsize=(-1, 8)),
    "dsize (0, 8) without factors": dict(dsize=(0, 8)),
    "dsize None without factors": dict(dsize=None),
    "fx negative": dict(dsize=None, fx=-1, fy=2),
    "fx a string": dict(dsize=None, fx="a", fy=2),
    "fx NaN": dict(dsize=None, fx=float("nan"), fy=2),
    "interpolation 99": dict(dsize=(8, 8), interpolation=99),
    "interpolation INTER_MAX": dict(dsize=(8, 8), interpolation=7),
    "interpolation WARP_INVERSE_MAP": dict(dsize=(8, 8), interpolation=16),
    "interpolation a float": dict(dsize=(8, 8), interpolation=1.0),
    "interpolation a string": dict(dsize=(8, 8), interpolation="linear"),
    "interpolation None": dict(dsize=(8, 8), interpolation=None),
    "dsize an int64 array": dict(dsize=np.array([8, 7])),
}


@pytest.mark.parametrize("name", CV2_BAD_ARGUMENTS)
def test_argument_errors_are_opencvs(name):
    kw = CV2_BAD_ARGUMENTS[name]
    src = np.random.default_rng(4).integers(0, 256, (10, 12, 3), np.uint8)
    try:
        want = cv2.resize(src, **kw)
    except cv2.error as error:
        want = TypeError if ":-1:" in str(error) else ValueError
    if isinstance(want, np.ndarray):  # uint8 linear: within 1 (the module's bound)
        got = np.asarray(compat.cv2_resize(src, **kw))
        assert got.shape == want.shape and np.abs(got.astype(int) - want).max() <= 1
    else:
        with pytest.raises(want):
            compat.cv2_resize(src, **kw)


def test_a_none_in_dsize_is_a_type_error():
    """OpenCV's binding reads ``(None, 8)`` as a size and ``cv::resize`` then asserts; a ``None``
    is no length, so jax_resize refuses it as a type, with the other non-ints."""
    with pytest.raises(cv2.error):
        cv2.resize(np.zeros((4, 4), np.uint8), (None, 8))
    with pytest.raises(TypeError, match="dsize="):
        compat.cv2_resize(np.zeros((4, 4), np.uint8), (None, 8))


def test_ipp_must_be_a_bool():
    x = np.zeros((6, 6, 3), np.uint8)
    with pytest.raises(TypeError, match=r"ipp must be a bool; got 'yes'"):
        cv2_resize(x, (3, 3), interpolation=compat.INTER_CUBIC, ipp="yes")
    with pytest.raises(TypeError, match="ipp must be a bool"):
        cv2_resize(x, (3, 3), ipp=1)
