"""``compat.pil_resize`` against Pillow's ``Image.fromarray(a).resize(size, filter, box, reducing_gap)``.

Oracle: Pillow 13 itself (``conftest.pillow_oracle`` fails every test here under another Pillow,
whose pass order the presets do not follow), on crops of the real photographs in ``../shared/data`` (the bundled
astronaut where they are absent), in every mode ``Image.fromarray`` infers: RGBA and LA (which
Pillow resamples with premultiplied alpha; the alpha maps hold fully transparent, opaque,
gradient and noisy regions, and the colour under alpha 0 is the photograph's), L and RGB (8-bit),
I;16 (uint16), I (int32 and int16 arrays) and F (float32 and float64 arrays, with fractional
values). Every case is drawn from its own seed and kept; none is redrawn. Every filter, down,
up, with a float ``box`` and with ``reducing_gap``. The 8-bit modes must be bit exact; I;16, I
and F bit exact under ``jax_enable_x64`` and within the README's bounds without it.
"""

import functools
import pydoc
import re

import jax
import numpy as np
import pytest
import readme
from conftest import PILLOW_ORACLE_MAJOR, alpha_map, describe_difference, load_photo, pil_resize_ours, pillow_resized
from PIL import Image

from jax_resize import compat
from jax_resize._src import clipped_windows
from jax_resize._src.peers import pillow

FILTERS = [compat.NEAREST, compat.BOX, compat.BILINEAR, compat.HAMMING, compat.BICUBIC, compat.LANCZOS]
PHOTOS = ["astronaut.png", "chelsea.png", "coffee.png"]
# cases per mode (each filter equally often; the kinds down / up / box / reducing_gap rotate)
N_CASES = {"RGBA": 48, "LA": 24, "L": 12, "RGB": 12, "I;16": 12, "I": 12, "F": 12}
WIDE_MODES = ("I;16", "I", "F")  # Pillow accumulates these in double: exact with jax_enable_x64
KINDS = ("down", "up", "box", "reducing_gap")

pytestmark = pytest.mark.usefixtures("pillow_oracle")


@functools.cache
def _photo(name):
    return np.asarray(load_photo(name).convert("RGB"))


def make_case(mode, i):
    """``(array, size, resample, box, reducing_gap)`` of case ``i`` of ``mode``, from its own seed."""
    rng = np.random.default_rng([sum(map(ord, mode)), i])
    resample = FILTERS[i % 6]
    kind = KINDS[(i + i // 6) % 4]
    if mode == "I;16" and kind == "reducing_gap":
        kind = "box"  # Pillow cannot reduce I;16 images (test_i16_reducing_gap_is_refused_like_pillow)
    photo = _photo(PHOTOS[i % 3])
    h, w = int(rng.integers(24, 161)), int(rng.integers(24, 161))
    y0, x0 = int(rng.integers(0, photo.shape[0] - h + 1)), int(rng.integers(0, photo.shape[1] - w + 1))
    crop = photo[y0 : y0 + h, x0 : x0 + w]
    grey = crop[..., 1]
    if mode == "RGBA":
        a = np.concatenate([crop, alpha_map(rng, h, w)[..., None]], axis=-1)
    elif mode == "LA":
        a = np.stack([grey, alpha_map(rng, h, w)], axis=-1)
    elif mode == "L":
        a = grey
    elif mode == "RGB":
        a = crop
    elif mode == "I;16":
        a = np.clip(grey.astype(np.int64) * 257 + rng.integers(-128, 129, (h, w)), 0, 65535).astype(np.uint16)
    elif mode == "I":
        v = grey.astype(np.int64) * 257 - 32768 + rng.integers(-100, 101, (h, w))
        a = (v * 7).astype(np.int32) if i % 2 == 0 else np.clip(v, -32768, 32767).astype(np.int16)
    else:  # F
        v = grey - 40.0 + rng.uniform(0, 1, (h, w)) * 0.37
        a = v.astype(np.float32) if i % 2 == 0 else v.astype(np.float64)
    box, gap = None, None
    if kind == "down":
        size = (int(rng.integers(3, w)), int(rng.integers(3, h)))
    elif kind == "up":
        size = (int(rng.integers(w + 1, 2 * w + 30)), int(rng.integers(h + 1, 2 * h + 30)))
    elif kind == "box":
        bx, by = rng.uniform(0, w / 3), rng.uniform(0, h / 3)
        box = (bx, by, rng.uniform(bx + 5, w), rng.uniform(by + 5, h))
        size = (int(rng.integers(3, 2 * w)), int(rng.integers(3, 2 * h)))
    else:  # reducing_gap: downscale enough that Image.reduce runs (for every filter but NEAREST)
        gap = [1.0, 1.5, 2.0, 3.0][i % 4]
        size = (int(rng.integers(3, max(4, int(w / (2 * gap))))), int(rng.integers(3, max(4, int(h / (2 * gap))))))
        if i % 2:
            box = (rng.uniform(0, w / 4), rng.uniform(0, h / 4), rng.uniform(3 * w / 4, w), rng.uniform(3 * h / 4, h))
    return a, size, resample, box, gap


_pillow, _ours, _describe = pillow_resized, pil_resize_ours, describe_difference


CASES = [(mode, i) for mode, n in N_CASES.items() for i in range(n)]
WIDE_CASES = [(mode, i) for mode, i in CASES if mode in WIDE_MODES]


@pytest.mark.parametrize("mode,i", CASES, ids=[f"{m}-{i}" for m, i in CASES])
def test_bit_exact_with_pillow(mode, i):
    a, size, resample, box, gap = make_case(mode, i)
    assert Image.fromarray(a).mode == mode  # the case is the mode it claims
    want = _pillow(a, size, resample, box, gap)
    if mode in WIDE_MODES:
        with jax.enable_x64(True):
            got = _ours(a, size, resample, box, gap)
    else:
        got = _ours(a, size, resample, box, gap)
    assert got.dtype == want.dtype and got.shape == want.shape == (size[1], size[0]) + a.shape[2:]
    assert np.array_equal(got, want), _describe(mode, i, got, want)


@pytest.mark.parametrize("mode,i", WIDE_CASES, ids=[f"{m}-{i}" for m, i in WIDE_CASES])
def test_without_x64_within_readme_bounds(mode, i):
    # float32 accumulation: F within the README's bound (on a 0-255 scale), I and I;16 within 1
    a, size, resample, box, gap = make_case(mode, i)
    want = _pillow(a, size, resample, box, gap).astype(np.float64)
    got = _ours(a, size, resample, box, gap)
    assert got.dtype == np.dtype({"F": np.float32, "I": np.int32, "I;16": np.uint16}[mode])
    diff = float(np.abs(got.astype(np.float64) - want).max())
    if mode == "F":
        assert diff <= readme.bound(_COMPAT, 2), _describe(mode, i, got, want)
    else:
        # ±1 is the documented contract (pil_resize: "I/I;16 may differ by 1 next to .5 ties"): float32
        # pass sums of values up to 2**18 (ulp 2**-5) vs Pillow's double; off by one: at most 5 % (measured 4.2)
        off = np.count_nonzero(got.astype(np.float64) != want)
        assert diff <= 1 and off <= 0.05 * want.size, _describe(mode, i, got, want)


def test_alpha_cases_exercise_premultiplication():
    # the RGBA sweep is not vacuous: resampled straight, as before, it differs from Pillow
    worst = 0
    for i in range(12):
        a, size, resample, box, gap = make_case("RGBA", i)
        if resample == compat.NEAREST:
            continue
        straight = np.asarray(compat.pil_resize(a, size, resample, box, gap, mode="RGBX")).astype(int)
        worst = max(worst, int(np.abs(straight - _pillow(a, size, resample, box, gap)).max()))
    assert worst > 50


def test_i16_reducing_gap_is_refused_like_pillow():
    a = make_case("I;16", 0)[0]
    with pytest.raises(ValueError, match="wrong mode"):
        Image.fromarray(a).resize((7, 5), Image.Resampling.BILINEAR, reducing_gap=2.0)
    with pytest.raises(ValueError, match=r"mode 'I;16'.*reducing_gap=None"):
        compat.pil_resize(a, (7, 5), compat.BILINEAR, reducing_gap=2.0)
    # where no reduction happens Pillow resizes, and so do we
    want = np.asarray(Image.fromarray(a).resize((30, 20), Image.Resampling.BILINEAR, reducing_gap=3.0))
    with jax.enable_x64(True):
        np.testing.assert_array_equal(compat.pil_resize(a, (30, 20), compat.BILINEAR, reducing_gap=3.0), want)


# The README rows this module measures (first cells).
_COMPAT = f"`PIL.Image.resize` (Pillow {PILLOW_ORACLE_MAJOR})"
_SWEEP = "`compat.pil_resize(a, size, filter, box, reducing_gap)` vs `Image.fromarray(a).resize(...)`"


def test_readme_rows():
    n = N_CASES
    stated_f = readme.bound(_COMPAT, 2)  # checked by test_without_x64_within_readme_bounds
    f_bound = f"{stated_f:.1e}".replace("e-0", "e-")  # as the README writes it, e.g. 4.6e-5
    readme.assert_row(
        _COMPAT,
        "all six filters, `box`, `reducing_gap`; modes L, LA, RGB, RGBA (premultiplied alpha), I;16, I, F: "
        f"{sum(n.values())} photo crops",
        f"F bit exact with `jax_enable_x64`, else ≤ {f_bound} abs on 0–255",
        "bit exact",
    )
    readme.assert_row(
        _SWEEP + " on crops of the real photos, every filter, down, up, with a float `box` and with `reducing_gap`; "
        "alpha maps with fully transparent, opaque, gradient and noisy regions",
        f"RGBA **{n['RGBA']} / {n['RGBA']}**, LA **{n['LA']} / {n['LA']}**, L **{n['L']} / {n['L']}**, "
        f"RGB **{n['RGB']} / {n['RGB']}** bit exact; with `jax_enable_x64` I;16 **{n['I;16']} / {n['I;16']}**, "
        f"I **{n['I']} / {n['I']}**, F **{n['F']} / {n['F']}** bit exact (without: F within {f_bound}, "
        "I and I;16 within ±1 below 2¹⁹; bounds below)",
    )


def test_same_size_is_a_copy_and_errors():
    x = np.arange(12, dtype=np.uint8).reshape(3, 4)
    np.testing.assert_array_equal(compat.pil_resize(x, (4, 3)), x)
    with pytest.raises(ValueError, match="resample=8"):
        compat.pil_resize(x, (2, 2), 8)
    with pytest.raises(ValueError, match="box="):
        compat.pil_resize(x, (2, 2), box=(0, 0, 5, 3))
    with pytest.raises(ValueError, match="reducing_gap"):
        compat.pil_resize(x, (2, 2), reducing_gap=0.5)
    with pytest.raises(ValueError, match="image must be"):
        compat.pil_resize(np.zeros(4), (2, 2))


def test_mode_errors_name_the_allowed_modes():
    rgb = np.zeros((4, 5, 3), np.uint8)
    with pytest.raises(ValueError, match=r"mode='RGBA' does not fit .*\(4, 5, 3\).*uint8.*'RGB', 'YCbCr'"):
        compat.pil_resize(rgb, (2, 2), mode="RGBA")
    with pytest.raises(ValueError, match=r"mode='RGBZ' is not supported; allowed values: None, '1', 'L'"):
        compat.pil_resize(rgb, (2, 2), mode="RGBZ")
    with pytest.raises(ValueError, match=r"mode='F' does not fit .*int32.*None \(inferred: 'I'\), 'I'"):
        compat.pil_resize(np.zeros((4, 5), np.int32), (2, 2), mode="F")
    with pytest.raises(ValueError, match=r"mode='L' does not fit .*float32.*Pillow has no mode for it"):
        compat.pil_resize(np.zeros((4, 5, 3), np.float32), (2, 2), mode="L")


def test_resampling_constants_are_pillows_and_document_themselves():
    # names and values: Pillow's own enum is the oracle; help() shows the enum's docstring, not int's
    for member in compat.Resampling:
        assert Image.Resampling[member.name] == member and isinstance(member, int)
    assert [
        compat.NEAREST,
        compat.LANCZOS,
        compat.BILINEAR,
        compat.BICUBIC,
        compat.BOX,
        compat.HAMMING,
        compat.MKS2013,
        compat.MKS2021,
    ] == list(compat.Resampling)
    assert set(compat.Resampling.__members__) == set(Image.Resampling.__members__)
    text = pydoc.render_doc(compat.BICUBIC)
    assert "Pillow" in text and "BICUBIC = 3" in text and "Keys cubic" in text
    assert "int([x]) -> integer" not in text
    # each member's line of the docstring names its jax_resize method and the kernel's support radius
    entries = dict(re.findall(r"\* ``(\w+) = \d+``: (.*?)(?=\n\s*\*|\n\s*\n)", compat.Resampling.__doc__, re.S))
    assert set(entries) == set(compat.Resampling.__members__)
    for name, text in entries.items():
        method = f"pil_{name.lower()}"
        assert f'``"{method}"``' in text, name
        if name != "NEAREST":
            assert f"radius {pillow.kernel(method).radius:g};" in text, name


def test_resample_as_int_compat_member_or_pillow_member():
    a = np.asarray(_photo("astronaut.png"))[100:140, 200:250]
    want = np.asarray(Image.fromarray(a).resize((17, 29), Image.Resampling.HAMMING))
    for resample in (5, compat.HAMMING, compat.Resampling(5), Image.Resampling.HAMMING):
        np.testing.assert_array_equal(np.asarray(compat.pil_resize(a, (17, 29), resample)), want)


#: Bad arguments of ``Image.resize``: Pillow's error class must be ours (issue 45: a box of
#: length 2 was a ValueError where Pillow raises TypeError). ``DEVIATIONS``: what Pillow accepts
#: and jax_resize refuses on purpose (a NaN box computes garbage, a bool is no length).
BAD_ARGUMENTS = {
    "box of length 2": dict(size=(8, 8), resample=2, box=(0, 0)),
    "box of length 5": dict(size=(8, 8), resample=2, box=(0, 0, 4, 4, 4)),
    "box with None": dict(size=(8, 8), resample=2, box=(0, None, 4, 4)),
    "box of a string": dict(size=(8, 8), resample=2, box="abcd"),
    "box an int": dict(size=(8, 8), resample=2, box=3),
    "box outside": dict(size=(8, 8), resample=2, box=(0, 0, 40, 4)),
    "box reversed": dict(size=(8, 8), resample=2, box=(4, 0, 2, 4)),
    "box negative": dict(size=(8, 8), resample=2, box=(-1, 0, 2, 4)),
    "box infinite": dict(size=(8, 8), resample=2, box=(0, 0, float("inf"), 4)),
    "size of length 3": dict(size=(8, 8, 8), resample=2),
    "size of length 1": dict(size=(8,), resample=2),
    "size an int": dict(size=8, resample=2),
    "size with a float": dict(size=(8.0, 8), resample=2),
    "size zero": dict(size=(0, 8), resample=2),
    "size negative": dict(size=(-1, 8), resample=2),
    "size with None": dict(size=(None, 8), resample=2),
    "size a string": dict(size="ab", resample=2),
    "resample -1": dict(size=(8, 8), resample=-1),
    "resample 8": dict(size=(8, 8), resample=8),
    "resample a name": dict(size=(8, 8), resample="bilinear"),
    "resample a float": dict(size=(8, 8), resample=2.0),
    "resample None": dict(size=(8, 8), resample=None),
    "reducing_gap 0.5": dict(size=(4, 4), resample=2, reducing_gap=0.5),
    "reducing_gap a string": dict(size=(4, 4), resample=2, reducing_gap="2"),
    "reducing_gap NaN": dict(size=(4, 4), resample=2, reducing_gap=float("nan")),
}
DEVIATIONS = {
    "box with NaN": (dict(size=(8, 8), resample=2, box=(0, 0, float("nan"), 4)), ValueError),
    "size with a bool": (dict(size=(True, 8), resample=2), TypeError),
}
_RGB = np.random.default_rng(3).integers(0, 256, (10, 12, 3), np.uint8)


def _pillow_answer(kw):
    try:
        return np.asarray(Image.fromarray(_RGB).resize(**kw))
    except (TypeError, ValueError) as error:
        return type(error)


@pytest.mark.parametrize("name", BAD_ARGUMENTS)
def test_argument_errors_are_pillows(name):
    kw = BAD_ARGUMENTS[name]
    want = _pillow_answer(kw)
    if isinstance(want, np.ndarray):
        np.testing.assert_array_equal(compat.pil_resize(_RGB, **kw), want)
    else:
        with pytest.raises(want):
            compat.pil_resize(_RGB, **kw)


@pytest.mark.parametrize("name", DEVIATIONS)
def test_arguments_pillow_takes_and_jax_resize_refuses(name):
    kw, error = DEVIATIONS[name]
    assert isinstance(_pillow_answer(kw), np.ndarray)
    with pytest.raises(error, match="box=|size=|resample="):
        compat.pil_resize(_RGB, **kw)


# --- the float bounds of modes F and I (issue 45) ----------------------------------------------------


def _wide_cases(rng, make, sizes=((13, 11), (5, 4), (9, 17))):
    """Every filter but NEAREST, down and up: ``(array, size, resample)`` with ``make(rng)`` arrays."""
    return [(make(rng), size, resample) for resample in FILTERS[1:] for size in sizes]


def test_f_subnormals_are_kept_with_x64():
    """XLA's CPU flushes float32 subnormals in converts; the float64 passes move them bit for bit."""
    rng = np.random.default_rng(45)
    cases = _wide_cases(rng, lambda r: (r.standard_normal((8, 10)) * 1e-38).astype(np.float32))
    cases.append((np.full((6, 7), 1.175494e-38, np.float32), (5, 4), compat.BILINEAR))
    with jax.enable_x64(True):
        for a, size, resample in cases:
            want = _pillow(a, size, resample, None, None)
            np.testing.assert_array_equal(_ours(a, size, resample, None, None), want)
    assert np.count_nonzero((np.abs(want) < np.finfo(np.float32).tiny) & (want != 0)) > 0  # subnormal results


def test_f_without_x64_flushes_subnormals_and_may_overflow():
    """The documented limits of float32 sums (README, ``pil_resize``): subnormals become 0, and
    partial sums past float32's range give inf where Pillow's double sums stay finite."""
    tiny = np.full((6, 7), 1.175494e-38, np.float32)
    assert _pillow(tiny, (5, 4), compat.BILINEAR, None, None).all()
    assert not _ours(tiny, (5, 4), compat.BILINEAR, None, None).any()
    big = (3.0e38 + np.random.default_rng(1).random((6, 7)) * 3e37).astype(np.float32)
    want = _pillow(big, (11, 9), compat.BICUBIC, None, None)
    got = _ours(big, (11, 9), compat.BICUBIC, None, None)
    assert np.isfinite(want).all() and np.isinf(got).any()
    with jax.enable_x64(True):
        np.testing.assert_array_equal(_ours(big, (11, 9), compat.BICUBIC, None, None), want)


def derived_i_bound(a, size, resample) -> int:
    """The most mode ``'I'`` without x64 may differ from Pillow resizing ``a`` to ``size`` (no box,
    no reducing_gap), as ``pil_resize``'s docstring derives it: a float32 pass whose outputs read at
    most ``n`` taps with ``sum |w| <= W`` differs from Pillow's double sum by at most
    ``gamma(n + 2) * W * A + W * D`` (``gamma(k) = k u / (1 - k u)``, ``u = 2**-24``: the weights',
    the inputs' and the products' roundings and ``n - 1`` additions in any order; ``A``: the largest
    input magnitude, ``D``: the input's difference from Pillow's), plus Pillow's own double error;
    rounding half away adds at most 1 (1.5 where float32 steps reach 1, from 2**23)."""
    u = 2.0**-24
    out_shape = (size[1], size[0])
    changed = [ax for ax in (0, 1) if out_shape[ax] != a.shape[ax]]
    k = pillow.kernel(pillow._METHOD[resample])
    diff, mag = 0.0, float(np.abs(a.astype(np.float64)).max())
    for ax in pillow.pass_order(changed, a.shape, out_shape):
        w = np.abs(np.asarray(clipped_windows.axis_taps(a.shape[ax], out_shape[ax], k).weight))
        total, n = float(w.sum(axis=1).max()), int(np.count_nonzero(w, axis=1).max())
        gamma = (n + 2) * u / (1 - (n + 2) * u)
        error = gamma * total * mag + total * diff + n * 2.0**-52 * total * mag
        mag = min(2.0**31, total * mag * (1 + gamma) + 1.5)
        diff = float(np.floor(error + (1.5 if mag >= 2**23 else 1.0)))
    return int(diff)


@pytest.mark.parametrize("bits", [18, 20, 24, 28, 30])
def test_i_without_x64_within_its_derived_bound(bits):
    """Without x64 within :func:`derived_i_bound` (and ±1 on these inputs below 2**19); exact with x64."""
    rng = np.random.default_rng(bits)
    cases = _wide_cases(rng, lambda r: r.integers(-(2**bits) + 1, 2**bits - 1, (8, 10)).astype(np.int32))
    for a, size, resample in cases:
        want = _pillow(a, size, resample, None, None).astype(np.int64)
        bound = 1 if bits < 19 else derived_i_bound(a, size, resample)
        assert np.abs(_ours(a, size, resample, None, None).astype(np.int64) - want).max() <= bound
        with jax.enable_x64(True):
            np.testing.assert_array_equal(_ours(a, size, resample, None, None), want)


def test_i_without_x64_near_int32_limits_within_the_derived_bound():
    """Issue 54: values within 2**12 of ±2**31, where float32 steps are 128 and 256. Each filter
    down and up stays within :func:`derived_i_bound`; the worst exceeds the old ``2 + 2e-7 *
    max|value|`` (431 here), which no derivation backed. Elements whose exact value leaves int32
    (Pillow's cast is undefined there) are left out: those where x64 differs from Pillow."""
    rng = np.random.default_rng(54)
    worst, old = 0, 2 + 2e-7 * 2**31
    for resample in FILTERS[1:] + [compat.MKS2013, compat.MKS2021]:
        for size in ((7, 5), (23, 17)):
            top = 2**31 - 1 - rng.integers(0, 2**12, (9, 11))
            for a in (top, -top - 1, np.where(rng.random((9, 11)) < 0.5, top, -top - 1)):
                a = a.astype(np.int32)
                want = _pillow(a, size, resample, None, None).astype(np.int64)
                with jax.enable_x64(True):
                    valid = np.asarray(_ours(a, size, resample, None, None)) == want
                assert valid.mean() > 0.25  # the mixed image overshoots int32 in places
                diff = int(np.abs(_ours(a, size, resample, None, None).astype(np.int64) - want)[valid].max())
                assert diff <= derived_i_bound(a, size, resample), (resample, size)
                worst = max(worst, diff)
    assert worst > old


def test_i_results_beyond_int32_saturate():
    """A filter's overshoot past int32 saturates; Pillow casts the double with C's ``(int)``,
    undefined beyond the range (x86 gives -2**31), so only those elements may differ."""
    a = (2**31 - 1 - np.random.default_rng(2).integers(0, 1000, (6, 7))).astype(np.int32)
    want = _pillow(a, (11, 9), compat.BICUBIC, None, None)
    with jax.enable_x64(True):
        got = _ours(a, (11, 9), compat.BICUBIC, None, None)
    differ = got != want
    assert np.all(got[differ] == 2**31 - 1)
    np.testing.assert_array_equal(got[~differ], want[~differ])
