"""Pillow 13's Magic Kernel Sharp filters (``Resampling.MKS2013``, ``MKS2021``) against Pillow itself.

Oracle: Pillow 13's ``Image.fromarray(a).resize(size, filter, box, reducing_gap)`` (``conftest.pillow_oracle``
fails every test here under another Pillow). Cases: crops of the real photographs in ``../shared/data``
(the bundled astronaut where they are absent) and uniform noise, in every mode ``Image.fromarray``
infers (L, RGB, RGBA and LA with premultiplied alpha, I;16, I from int32, F from float32), each
filter shrinking and enlarging by integer and fractional factors, with a float ``box`` and with
``reducing_gap``; each case from its own seed, none redrawn. Half-integer factors evaluate the
kernels at their breakpoints 0.5, 1.5, ... 4.5 (:func:`test_breakpoints_are_evaluated_as_pillow_does`).
8-bit modes must be bit exact; I;16, I and F bit exact under ``jax_enable_x64`` and within the
guide's bounds without it.
"""

import functools

import jax
import numpy as np
import pytest
import readme
from conftest import alpha_map, describe_difference, load_photo, pil_resize_ours, pillow_resized
from PIL import Image

import jax_resize
from jax_resize import compat

FILTERS = [compat.MKS2013, compat.MKS2021]
MODES = ("L", "RGB", "RGBA", "LA", "I;16", "I", "F")
WIDE_MODES = ("I;16", "I", "F")
# integer and fractional shrinks and enlargements, a float box, reducing_gap (I;16: a box, as
# Pillow cannot reduce I;16)
KINDS = ("down_int", "down_frac", "up_int", "up_frac", "box", "reducing_gap")
N_CASES = 2 * len(KINDS)  # per mode: each filter once per kind
PHOTOS = ["astronaut.png", "chelsea.png", "coffee.png"]

pytestmark = pytest.mark.usefixtures("pillow_oracle")


@functools.cache
def _photo(name):
    return np.asarray(load_photo(name).convert("RGB"))


def make_case(mode, i):
    """``(array, size, resample, box, reducing_gap)`` of case ``i`` of ``mode``, from its own seed."""
    rng = np.random.default_rng([sum(map(ord, mode)), i, 54])
    resample, kind = FILTERS[i % 2], KINDS[i // 2]
    if mode == "I;16" and kind == "reducing_gap":
        kind = "box"
    h, w = int(rng.integers(20, 70)), int(rng.integers(20, 70))
    if (i // 2 + MODES.index(mode)) % 2:  # uniform noise, values over the mode's range
        rgb = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
    else:
        photo = _photo(PHOTOS[i % 3])
        y0, x0 = int(rng.integers(0, photo.shape[0] - h + 1)), int(rng.integers(0, photo.shape[1] - w + 1))
        rgb = photo[y0 : y0 + h, x0 : x0 + w]
    grey = rgb[..., 1]
    wide = grey.astype(np.int64) * 257
    a = {
        "L": lambda: grey,
        "RGB": lambda: rgb,
        "RGBA": lambda: np.concatenate([rgb, alpha_map(rng, h, w)[..., None]], axis=-1),
        "LA": lambda: np.stack([grey, alpha_map(rng, h, w)], axis=-1),
        "I;16": lambda: np.clip(wide + rng.integers(-128, 129, (h, w)), 0, 65535).astype(np.uint16),
        "I": lambda: ((wide - 32768 + rng.integers(-100, 101, (h, w))) * 7).astype(np.int32),
        "F": lambda: (grey - 40.0 + rng.uniform(0, 1, (h, w)) * 0.37).astype(np.float32),
    }[mode]()
    box, gap = None, None
    if kind == "down_int":
        f = int(rng.integers(2, 4))
        size = (max(1, w // f), max(1, h // f))
        a = a[: size[1] * f, : size[0] * f]
    elif kind == "down_frac":
        size = (int(rng.integers(3, w - 1)), int(rng.integers(3, h - 1)))
    elif kind == "up_int":
        f = int(rng.integers(2, 5))
        size = (w * f, h * (2 if f > 2 else 3))
    elif kind == "up_frac":
        size = (int(rng.integers(w + 1, 2 * w + 7)), int(rng.integers(h + 1, 2 * h + 7)))
    elif kind == "box":
        bx, by = rng.uniform(0, w / 3), rng.uniform(0, h / 3)
        box = (bx, by, rng.uniform(bx + 5, w), rng.uniform(by + 5, h))
        size = (int(rng.integers(3, 2 * w)), int(rng.integers(3, 2 * h)))
    else:
        gap = [1.5, 2.0, 3.0][i % 3]
        size = (int(rng.integers(3, max(4, int(w / (2 * gap))))), int(rng.integers(3, max(4, int(h / (2 * gap))))))
        if i % 4 == 1:
            box = (rng.uniform(0, w / 4), rng.uniform(0, h / 4), rng.uniform(3 * w / 4, w), rng.uniform(3 * h / 4, h))
    return a, size, resample, box, gap


_pillow, _ours, _describe = pillow_resized, pil_resize_ours, describe_difference


CASES = [(mode, i) for mode in MODES for i in range(N_CASES)]
WIDE_CASES = [(mode, i) for mode, i in CASES if mode in WIDE_MODES]


@pytest.mark.parametrize("mode,i", CASES, ids=[f"{m}-{i}" for m, i in CASES])
def test_bit_exact_with_pillow(mode, i):
    a, size, resample, box, gap = make_case(mode, i)
    assert Image.fromarray(a).mode == mode  # the case is the mode it claims
    want = _pillow(a, size, resample, box, gap)
    with jax.enable_x64(mode in WIDE_MODES):
        got = _ours(a, size, resample, box, gap)
    assert got.dtype == want.dtype and got.shape == want.shape == (size[1], size[0]) + a.shape[2:]
    assert np.array_equal(got, want), _describe(mode, i, got, want)


# The guide's row for this sweep (frameworks.md): its cells are this module's counts and bounds.
_ROW = "`compat.pil_resize(a, size, MKS2013 or MKS2021, box, reducing_gap)` vs `Image.fromarray(a).resize(...)`"


@pytest.mark.parametrize("mode,i", WIDE_CASES, ids=[f"{m}-{i}" for m, i in WIDE_CASES])
def test_without_x64_within_the_guide_bounds(mode, i):
    a, size, resample, box, gap = make_case(mode, i)
    want = _pillow(a, size, resample, box, gap).astype(np.float64)
    got = _ours(a, size, resample, box, gap)
    diff = float(np.abs(got.astype(np.float64) - want).max())
    if mode == "F":  # on the photos' 0-255 scale
        assert diff <= readme.bound(_ROW, 1, "abs"), _describe(mode, i, got, want)
    else:  # values below 2**19: two passes' roundings apart, the first carried by sum |w| > 1
        assert diff <= (2 if mode == "I" else 1), _describe(mode, i, got, want)


def test_guide_row():
    n = N_CASES
    counts = ", ".join(f"{m} **{n} / {n}**" for m in MODES if m not in WIDE_MODES)
    wide = ", ".join(f"{m} **{n} / {n}**" for m in WIDE_MODES)
    f_bound = f"{readme.bound(_ROW, 1, 'abs'):.1e}".replace("e-0", "e-")  # as the guide writes it: 6.0e-5
    readme.assert_row(
        _ROW + " on crops of the real photos and noise, both filters, integer and fractional shrinks and "
        "enlargements, a float `box`, `reducing_gap`",
        f"{counts} bit exact; with `jax_enable_x64` {wide} bit exact (without: F ≤ {f_bound} abs on 0–255, "
        "I within ±2, I;16 within ±1)",
    )


def _distances(n, out, support):
    """Every ``|x|`` Pillow evaluates its kernel at resizing ``n`` to ``out`` (``precompute_coeffs``:
    ``(j - center + 0.5) * (1 / filterscale)`` over the window, in double)."""
    scale = n / out
    filterscale = max(scale, 1.0)
    found = set()
    for center in (np.arange(out) + 0.5) * scale:
        lo = max(0, int(center - support * filterscale + 0.5))
        hi = min(n, int(center + support * filterscale + 0.5))
        found |= {abs((j - center + 0.5) * (1.0 / filterscale)) for j in range(lo, hi)}
    return found


def test_breakpoints_are_evaluated_as_pillow_does():
    """The kernels change formula at |x| = 0.5, 1.5, ... (Pillow takes the upper piece from the
    breakpoint on; MKS2021's neighbouring pieces differ there by an ulp). Integer factors never
    evaluate them; 1.5x and 2.5x enlargements and 2/3 and 2/5 shrinks do, and must match Pillow."""
    for resample, support in ((compat.MKS2013, 2.5), (compat.MKS2021, 4.5)):
        edges = set(np.arange(0.5, support + 0.5))
        for n, out in ((12, 18), (12, 30), (18, 12), (30, 12)):
            assert edges <= _distances(n, out, support), (resample, n, out)
            rng = np.random.default_rng(n * out)
            # rows resized across: the wide values (I up to 2**30, F up to ~4000) show an ulp of a
            # weight in some of the 64 rows' results
            arrays = (
                rng.integers(0, 256, (64, n), np.uint8),
                rng.integers(-(2**30), 2**30, (64, n)).astype(np.int32),
                (rng.standard_normal((64, n)) * 1000).astype(np.float32),
            )
            for a in arrays:
                want = _pillow(a, (out, 64), resample, None, None)
                with jax.enable_x64(a.dtype != np.uint8):
                    np.testing.assert_array_equal(_ours(a, (out, 64), resample, None, None), want)


@pytest.mark.parametrize("method,resample", [("pil_mks2013", compat.MKS2013), ("pil_mks2021", compat.MKS2021)])
def test_resize_method_is_pillow_and_one_answer(method, resample):
    rgb = _photo("chelsea.png")[40:100, 60:135]
    want = np.asarray(Image.fromarray(rgb).resize((31, 97), Image.Resampling[resample.name]))
    first = np.asarray(jax_resize.resize(rgb, (97, 31, 3), method))
    np.testing.assert_array_equal(first, want)
    np.testing.assert_array_equal(np.asarray(jax_resize.resize(rgb, (97, 31, 3), method)), first)  # same bits again
    rgba = np.concatenate([rgb, alpha_map(np.random.default_rng(7), *rgb.shape[:2])[..., None]], axis=-1)
    want = np.asarray(Image.fromarray(rgba).resize((44, 23), resample))
    got = np.asarray(jax_resize.resize_with_pillow_filter(rgba, (23, 44, 4), resample, alpha="premultiplied"))
    np.testing.assert_array_equal(got, want)
    grey = rgb[..., 1].astype(np.float32) / 7  # mode F, float32 sums without x64: the same bits twice
    once = np.asarray(compat.pil_resize(grey, (29, 61), resample))
    np.testing.assert_array_equal(np.asarray(compat.pil_resize(grey, (29, 61), resample)), once)


def test_constants_are_pillows():
    for name, value in (("MKS2013", 6), ("MKS2021", 7)):
        member = getattr(compat, name)
        assert member == value == Image.Resampling[name] and compat.Resampling(value) is member
    with pytest.raises(ValueError, match=r"resample=8 .*MKS2013=6, MKS2021=7"):
        compat.pil_resize(np.zeros((4, 4), np.uint8), (2, 2), 8)
