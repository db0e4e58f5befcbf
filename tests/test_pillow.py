"""``resize(..., "pil_*")`` against Pillow's ``Image.resize`` (the oracle).

Oracles: Pillow 13 itself (``conftest.pillow_oracle`` fails every test here under another Pillow:
the presets reproduce Pillow 13's pass order, so no other release is a valid oracle) — mode
``'F'`` for float images, the 8-bit modes ``'L'``/``'RGB'`` for uint8, mode ``'I'`` for int32 —
on the real photographs in ``../shared/data`` (where they are absent, on the photograph bundled
with the package, ``jax_resize/data/astronaut.png``) and on noise. uint8 results are asserted bit
exact everywhere.
"""

import re
import types

import jax
import numpy as np
import PIL
import pytest
import readme
from conftest import PIL_FILTERS as FILTERS
from conftest import PILLOW_ORACLE_MAJOR, load_photo
from jax.test_util import check_grads
from PIL import Image

import jax_resize
from jax_resize import compat

pytestmark = pytest.mark.usefixtures("pillow_oracle")


def _photo(name):
    return np.asarray(load_photo(name))


def pil_float(a, out_hw, resample):
    """Pillow mode 'F', channel by channel (Pillow has no multi-channel float mode)."""
    a = np.asarray(a, np.float32)
    size = (out_hw[1], out_hw[0])
    if a.ndim == 2:
        return np.asarray(Image.fromarray(a, "F").resize(size, resample))
    return np.stack([pil_float(a[..., c], out_hw, resample) for c in range(a.shape[-1])], -1)


def pil_uint8(a, out_hw, resample):
    return np.asarray(Image.fromarray(a).resize((out_hw[1], out_hw[0]), resample))


# Crops (name, top, left, height, width) and output sizes: down, up, mixed, thin, extreme.
PHOTO_CASES = [
    ("astronaut.png", 40, 100, 200, 160, (67, 53)),
    ("astronaut.png", 0, 0, 512, 512, (100, 300)),
    ("camera.png", 123, 45, 97, 131, (250, 61)),
    ("camera.png", 0, 0, 512, 512, (37, 41)),
    ("chelsea.png", 10, 20, 61, 47, (122, 141)),
    ("chelsea.png", 0, 0, 300, 451, (299, 450)),
    ("coffee.png", 200, 300, 33, 29, (7, 90)),
    ("coffee.png", 50, 60, 150, 211, (3, 200)),
]


@pytest.mark.parametrize("method", list(FILTERS))
@pytest.mark.parametrize("case", PHOTO_CASES, ids=lambda c: f"{c[0][:-4]}-{c[3]}x{c[4]}-{c[5][0]}x{c[5][1]}")
def test_photos_match_pillow(method, case):
    name, top, left, h, w, out_hw = case
    img = _photo(name)[top : top + h, left : left + w]
    shape = out_hw + img.shape[2:]
    # uint8: Pillow's 8-bit path ('L' or 'RGB')
    got8 = np.asarray(jax_resize.resize(img, shape, method))
    want8 = pil_uint8(img, out_hw, FILTERS[method])
    assert got8.dtype == np.uint8 and got8.shape == want8.shape
    diff = np.abs(got8.astype(int) - want8.astype(int))
    assert diff.max() == 0, f"{np.count_nonzero(diff)} of {diff.size} pixels differ, by up to {diff.max()}"
    # float: Pillow's mode 'F', within the README's bound on the 0-255 scale
    gotf = np.asarray(jax_resize.resize(img.astype(np.float32), shape, method))
    wantf = pil_float(img, out_hw, FILTERS[method])
    assert gotf.dtype == np.float32
    np.testing.assert_allclose(gotf, wantf, rtol=0, atol=readme.bound(_PHOTOS_ROW, 1))


_PHOTOS_ROW = '`resize(..., "pil_*")` vs `PIL.Image.resize` on crops of the real photos'


def test_readme_row():
    # every case of test_photos_match_pillow asserts its uint8 result bit exact and its float
    # result within the stated bound
    n = len(PHOTO_CASES) * len(FILTERS)
    stated = readme.bound(_PHOTOS_ROW, 1)
    readme.assert_row(
        _PHOTOS_ROW + f" ({len(PHOTO_CASES)} crops, down, up and mixed, × {len(FILTERS)} filters)",
        f"uint8 **{n} / {n} bit exact**; float ('F') within {stated:.1e}".replace("e-0", "e-"),
    )


def test_photo_cases_run_on_the_bundled_photo(tmp_path):
    # Without ../shared/data every case runs on the packaged astronaut (grey for camera.png): the
    # crops fit, and the uint8 path still matches Pillow on them.
    for name, top, left, h, w, out_hw in PHOTO_CASES:
        full = np.asarray(load_photo(name, data_dir=tmp_path))
        assert full.shape[:2] == (512, 512) and full.ndim == (2 if name == "camera.png" else 3)
        img = full[top : top + h, left : left + w]
        assert img.shape[:2] == (h, w), name
        got = np.asarray(jax_resize.resize(img, out_hw + img.shape[2:], "pil_bicubic")).astype(int)
        diff = np.abs(got - pil_uint8(img, out_hw, FILTERS["pil_bicubic"]).astype(int))
        assert diff.max() == 0, name


@pytest.mark.parametrize("method", list(FILTERS))
def test_noise_uint8_and_float(method):
    # Noise maximises overshoot (bicubic/lanczos), so the uint8 intermediate's clipping matters.
    rng = np.random.default_rng(1)
    for _ in range(4):
        h, w = rng.integers(1, 30, 2)
        oh, ow = rng.integers(1, 45, 2)
        a = rng.integers(0, 256, (h, w), dtype=np.uint8)
        got = np.asarray(jax_resize.resize(a, (oh, ow), method)).astype(int)
        diff = np.abs(got - pil_uint8(a, (oh, ow), FILTERS[method]).astype(int))
        assert diff.max() == 0, (h, w, oh, ow)
        f = rng.uniform(-100, 300, (h, w)).astype(np.float32)
        np.testing.assert_allclose(
            jax_resize.resize(f, (oh, ow), method), pil_float(f, (oh, ow), FILTERS[method]), rtol=0, atol=1e-3
        )


@pytest.mark.parametrize("method", ["pil_bicubic", "pil_lanczos"])
def test_large_photo_whose_intermediate_is_stored_in_8_bits(method):
    """12 MP -> 768x1024: the horizontal pass's result (3000x1024x3, 36.9 MB as int32) is stored
    as uint8 (decide.narrow_intermediate); Pillow's resize is the oracle, bit for bit."""
    from jax_resize._src.execution import decide
    from jax_resize._src.execution.tuning import TUNING

    img = Image.fromarray(_photo("coffee.png")).convert("RGB").resize((4000, 3000), Image.Resampling.BICUBIC)
    assert decide.narrow_intermediate(3000 * 1024 * 3 * 4, types.SimpleNamespace(reads_integers=True), TUNING["cpu"])
    want = np.asarray(img.resize((1024, 768), FILTERS[method]))
    got = np.asarray(jax.jit(lambda v: jax_resize.resize(v, (768, 1024, 3), method))(np.asarray(img)))
    np.testing.assert_array_equal(got, want)


def test_pass_order_matters_and_is_pillows():
    # 40x40 -> 13x60: out_h < in_h and 2 * (60 - 40) > 13 - 40, so Pillow 13 runs the vertical
    # pass first; the other order (Pillow <= 12's horizontal-first) clips a different intermediate
    # and changes pixels.
    a = np.random.default_rng(2).integers(0, 256, (40, 40), dtype=np.uint8)
    want = pil_uint8(a, (13, 60), Image.Resampling.LANCZOS)
    got = np.asarray(jax_resize.resize(a, (13, 60), "pil_lanczos"))
    other = np.asarray(jax_resize.resize(jax_resize.resize(a, (40, 60), "pil_lanczos"), (13, 60), "pil_lanczos"))
    assert np.count_nonzero(other != want) > 0
    np.testing.assert_array_equal(got, want)


def test_installed_pillow_is_the_readme_oracle():
    """The installed Pillow, the documented Pillow rows and sentence, and the test extra's pin all name
    the release series the presets reproduce (the fixture fails every test here otherwise)."""
    major = PILLOW_ORACLE_MAJOR
    assert int(PIL.__version__.split(".")[0]) == major, PIL.__version__
    readme.row(f"`PIL.Image.resize` (Pillow {major})")  # one row, measured by test_compat_pil
    text = readme.text()  # the README and the guide pages
    assert f"The Pillow rows hold for Pillow {major}, the release the `[test]` extra pins" in text
    pyproject = (readme.README.parent / "pyproject.toml").read_text(encoding="utf-8")
    test_extra = re.search(r"^test = \[\n(.*?)^\]", pyproject, re.S | re.M)[1]
    assert f'"pillow>={major},<{major + 1}",' in test_extra


_SUPPORT = {"pil_nearest": 0.5, "pil_box": 0.5, "pil_bilinear": 1.0, "pil_bicubic": 2.0, "pil_lanczos": 3.0}


def _pil_i(a, size, resample):
    return np.asarray(Image.fromarray(np.asarray(a, np.int32), "I").resize(size, resample)).astype(np.int64)


def _pillow_i_near_ties(a, out_hw, method):
    """Where a float32 computation of Pillow's mode 'I' resize may round to the other side: Pillow
    sums each pass in double and rounds it half away from zero. Its unrounded sums come from Pillow
    itself on the pass's input times ``2**bits`` (a power-of-two scale commutes with the double sums;
    the rounding then leaves ``2**-bits``; ``bits`` as large as int32 allows), each pass a Pillow
    resize of one axis, in the order whose result equals Pillow's own (both orders where both do).
    A pass's sum is near when within ``(taps + 2) * 2**-24 * 1.5 * max|input| + 2**-bits`` of a .5
    tie (float32 sums of ``taps`` terms, weights with sum |k| < 1.5; a sum on a tie to ``2**-bits``
    may be a few double ulps off it, e.g. a centre ``(o + 0.5) * in / out`` an ulp off an integer),
    or reads a near intermediate."""
    want = _pil_i(a, (out_hw[1], out_hw[0]), FILTERS[method])
    near_any, orders = np.zeros(want.shape, bool), 0
    for sizes in (((out_hw[1], a.shape[0]), (out_hw[1], out_hw[0])), ((a.shape[1], out_hw[0]), (out_hw[1], out_hw[0]))):
        y, near = np.asarray(a, np.int64), np.zeros(a.shape, bool)
        for size in sizes:
            if size == (y.shape[1], y.shape[0]):
                continue  # Pillow skips an axis whose length is unchanged
            scale = max(y.shape[1] / size[0], y.shape[0] / size[1], 1.0)
            taps = 2 * int(np.ceil(_SUPPORT[method] * scale)) + 1
            window = (taps + 2) * 2.0**-24 * 1.5 * np.abs(y).max()
            bits = int(np.log2(2**30 / max(1, np.abs(y).max())))  # sums |k| < 1.5: no int32 overflow
            exact = _pil_i(y * 2**bits, size, FILTERS[method]) / 2**bits  # to 2**-bits
            fed = np.asarray(Image.fromarray(near.astype(np.float32), "F").resize(size, FILTERS[method])) != 0
            near = fed | (np.abs(exact - np.floor(exact) - 0.5) <= window + 2.0**-bits)
            y = _pil_i(y, size, FILTERS[method])
        if np.array_equal(y, want):
            near_any, orders = near_any | near, orders + 1
    assert orders > 0, "no order of one-axis Pillow passes gives Pillow's result"
    return want, near_any


@pytest.mark.parametrize("method", ["pil_box", "pil_bilinear", "pil_bicubic", "pil_lanczos", "pil_nearest"])
def test_int32_is_pillow_mode_I(method):
    # Pillow sums in double, we in float32 (without jax_enable_x64): equal to Pillow, except next to
    # a .5 tie of one of Pillow's unrounded pass sums (see _pillow_i_near_ties), there by 1 at most
    a = np.random.default_rng(3).integers(-5000, 5000, (9, 14)).astype(np.int32)
    near_count = size = 0
    for out_hw in [(4, 5), (20, 31), (9, 3)]:
        want, near = _pillow_i_near_ties(a, out_hw, method)
        got = np.asarray(jax_resize.resize(a, out_hw, method))
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got[~near], want[~near], err_msg=f"{method} {out_hw}")
        assert np.abs(got.astype(np.int64) - want).max() <= 1
        near_count, size = near_count + int(near.sum()), size + want.size
    assert near_count <= size // 10  # 90 % or more of the method's outputs judged exactly


def test_hand_computed_bilinear_and_box():
    # 4 -> 2 (in/out = 2): support 1 * 2, first centre 1.0, window [int(-0.5), int(3.5)) = [0, 3);
    # weights tri((j - 1 + 0.5) / 2) = 0.75, 0.75, 0.25, renormalised by their sum 1.75.
    x = np.array([[0.0, 10.0, 20.0, 30.0]], np.float32)
    got = np.asarray(jax_resize.resize(x, (1, 2), "pil_bilinear"))
    np.testing.assert_allclose(got[0, 0], (0.75 * 0 + 0.75 * 10 + 0.25 * 20) / 1.75, rtol=1e-6)
    # box 4 -> 2 averages pairs
    np.testing.assert_allclose(jax_resize.resize(x, (1, 2), "pil_box"), [[5.0, 25.0]])
    # nearest 4 -> 3 picks floor((o + 0.5) * 4 / 3) = 0, 2, 3
    np.testing.assert_array_equal(jax_resize.resize(x, (1, 3), "pil_nearest"), [[0.0, 20.0, 30.0]])


def test_pil_bicubic_coefficient():
    x = np.random.default_rng(4).uniform(0, 255, (11, 13)).astype(np.float32)
    default = jax_resize.resize(x, (5, 29), "pil_bicubic")
    same = jax_resize.resize_with_pillow_filter(x, (5, 29), compat.BICUBIC, cubic_coeff_a=-0.5)
    np.testing.assert_array_equal(default, same)
    other = jax_resize.resize_with_pillow_filter(x, (5, 29), compat.BICUBIC, cubic_coeff_a=-0.75)
    assert np.abs(np.asarray(other) - default).max() > 0.1


def test_jit_vmap_grad():
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 1, (3, 9, 7)).astype(np.float32)
    f = lambda v: jax_resize.resize(v, (4, 12), "pil_lanczos")
    np.testing.assert_allclose(jax.jit(f)(x[0]), f(x[0]), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(jax.vmap(f)(x), np.stack([f(v) for v in x]), rtol=1e-6, atol=1e-6)
    g = lambda v: jax_resize.resize(v, (4, 12), "pil_bicubic")
    check_grads(g, (x[0].astype(np.float64),), order=2, modes=("fwd", "rev"), eps=1e-2)
    # uint8 path under jit and vmap (rounding between passes is traced too)
    u = rng.integers(0, 256, (2, 10, 8), dtype=np.uint8)
    h = lambda v: jax_resize.resize(v, (7, 13), "pil_bicubic")
    want = np.stack([pil_uint8(v, (7, 13), Image.Resampling.BICUBIC) for v in u])
    got = np.asarray(jax.jit(jax.vmap(h))(u)).astype(int)
    np.testing.assert_array_equal(got, want)


def test_unchanged_and_empty():
    a = np.arange(12, dtype=np.uint8).reshape(3, 4)
    np.testing.assert_array_equal(jax_resize.resize(a, (3, 4), "pil_lanczos"), a)
    assert jax_resize.resize(a, (0, 4), "pil_bilinear").shape == (0, 4)


def test_bad_arguments():
    x = np.ones((4, 4), np.float32)
    with pytest.raises(ValueError, match="coordinate_transformation_mode"):
        jax_resize.resize(x, (2, 2), "pil_bilinear", coordinate_transformation_mode="align_corners")
    with pytest.raises(
        ValueError, match=r"cubic_coeff_a=-0.5 is Keys' a of resample=BICUBIC \(3\) only; got resample=1"
    ):
        jax_resize.resize_with_pillow_filter(x, (2, 2), compat.LANCZOS, cubic_coeff_a=-0.5)
    with pytest.raises(ValueError, match="method='pil_bicubik'.*Did you mean 'pil_bicubic'"):
        jax_resize.resize(x, (2, 2), "pil_bicubik")
    with pytest.raises(TypeError, match="bool"):
        jax_resize.resize(np.ones((4, 4), bool), (2, 2), "pil_box")
