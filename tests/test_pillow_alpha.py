"""Pillow's modes beyond straight channels: premultiplied alpha (``LA``, ``RGBA``) through
``resize_with_pillow_filter(..., alpha="premultiplied")``, the conversions themselves, and the modes
``compat.pil_resize`` takes through ``mode=``.

Oracle: Pillow 13 itself (``conftest.pillow_oracle`` fails every test here under another Pillow,
whose pass order the presets do not follow) — ``Image.convert`` for the premultiply / unpremultiply conversions (every
colour and alpha value), ``Image.fromarray(a).resize(...)`` on RGBA / LA crops of the real
photographs in ``../shared/data`` (alpha maps with fully transparent, opaque, gradient and noisy
regions; the bundled astronaut where the photographs are absent), and
``Image.fromarray(a, mode).resize(...)`` for the modes given explicitly. Every case is drawn from
its own seed and kept.
"""

import functools

import jax
import numpy as np
import pytest
import readme
from conftest import PIL_FILTERS as FILTERS
from conftest import alpha_map, load_photo
from PIL import Image

import jax_resize
from jax_resize import compat
from jax_resize._src.peers import pillow_modes as _peer

METHODS = list(FILTERS)
pytestmark = pytest.mark.usefixtures("pillow_oracle")
PHOTOS = ["astronaut.png", "chelsea.png", "coffee.png"]


@functools.cache
def _photo(name):
    return np.asarray(load_photo(name).convert("RGB"))


def _pillow(a, out_hw, resample, mode=None):
    return np.asarray(Image.fromarray(a, mode).resize((out_hw[1], out_hw[0]), resample))


# --- the conversions ---------------------------------------------------------------------------


def test_premultiply_and_back_match_pillow_for_every_value():
    c, a = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    rgba = np.stack([c, 255 - c, c // 2, a], axis=-1).astype(np.uint8)  # [256, 256, 4]
    np.testing.assert_array_equal(_peer.premultiply(rgba), np.asarray(Image.fromarray(rgba).convert("RGBa")))
    np.testing.assert_array_equal(_peer.unpremultiply(rgba), np.asarray(Image.fromarray(rgba, "RGBa").convert("RGBA")))
    la = rgba[..., [0, 3]]
    np.testing.assert_array_equal(_peer.premultiply(la), np.asarray(Image.fromarray(la).convert("La")))
    np.testing.assert_array_equal(_peer.unpremultiply(la), np.asarray(Image.fromarray(la, "La").convert("LA")))


# --- resize_with_pillow_filter(..., alpha="premultiplied") ---------------------------------------

# cases per layout: RGBA [H, W, 4], LA [H, W, 2], a batch [3, H, W, 4]; filters rotate, down / up
N_RESIZE = {"RGBA": 24, "LA": 12, "batch": 6}
RESIZE_CASES = [(layout, i) for layout, n in N_RESIZE.items() for i in range(n)]


def resize_case(layout, i):
    """``(images [n, H, W, C], out_hw, method)`` of case ``i``, from its own seed."""
    rng = np.random.default_rng([sum(map(ord, layout)), 7, i])
    method = METHODS[i % 6]
    h, w = int(rng.integers(20, 141)), int(rng.integers(20, 141))
    images = []
    for k in range(3 if layout == "batch" else 1):
        photo = _photo(PHOTOS[(i + k) % 3])
        y0, x0 = int(rng.integers(0, photo.shape[0] - h + 1)), int(rng.integers(0, photo.shape[1] - w + 1))
        crop = photo[y0 : y0 + h, x0 : x0 + w]
        colour = crop[..., 1:2] if layout == "LA" else crop
        images.append(np.concatenate([colour, alpha_map(rng, h, w)[..., None]], axis=-1))
    if (i // 6) % 2 == 0:  # down
        out_hw = (int(rng.integers(3, h)), int(rng.integers(3, w)))
    else:  # up
        out_hw = (int(rng.integers(h + 1, 2 * h + 30)), int(rng.integers(w + 1, 2 * w + 30)))
    return np.stack(images), out_hw, method


@pytest.mark.parametrize("layout,i", RESIZE_CASES, ids=[f"{layout}-{i}" for layout, i in RESIZE_CASES])
def test_resize_premultiplied_is_pillow(layout, i):
    images, out_hw, method = resize_case(layout, i)
    want = np.stack([_pillow(a, out_hw, FILTERS[method]) for a in images])
    x = images if layout == "batch" else images[0]
    shape = x.shape[:-3] + out_hw + x.shape[-1:]
    got = np.asarray(jax_resize.resize_with_pillow_filter(x, shape, FILTERS[method], alpha="premultiplied"))
    got = got if layout == "batch" else got[None]
    assert got.dtype == np.uint8 and got.shape == want.shape
    diff = np.abs(got.astype(int) - want)
    assert diff.max() == 0, f"{layout} {i} {method}: {np.count_nonzero(diff)} of {diff.size} differ, max {diff.max()}"


def test_straight_alpha_is_not_pillow():
    # what alpha= changes: resampled as four independent channels, RGBA photos are far from Pillow
    images, out_hw, _ = resize_case("RGBA", 1)
    straight = np.asarray(jax_resize.resize(images[0], out_hw + (4,), "pil_bilinear")).astype(int)
    same = np.asarray(jax_resize.resize_with_pillow_filter(images[0], out_hw + (4,), compat.BILINEAR, alpha="straight"))
    np.testing.assert_array_equal(straight, same)
    assert np.abs(straight - _pillow(images[0], out_hw, Image.Resampling.BILINEAR)).max() > 50


def test_premultiplied_nearest_and_unchanged_are_straight():
    images, out_hw, _ = resize_case("RGBA", 0)
    a = images[0]
    # Pillow resamples NEAREST straight (no premultiplication round trip)
    np.testing.assert_array_equal(
        jax_resize.resize_with_pillow_filter(a, out_hw + (4,), compat.NEAREST, alpha="premultiplied"),
        jax_resize.resize(a, out_hw + (4,), "pil_nearest"),
    )
    # the same size is a copy, as Image.resize returns one
    np.testing.assert_array_equal(
        jax_resize.resize_with_pillow_filter(a, a.shape, compat.LANCZOS, alpha="premultiplied"), a
    )
    np.testing.assert_array_equal(np.asarray(Image.fromarray(a).resize(a.shape[1::-1], Image.LANCZOS)), a)


def test_premultiplied_under_jit_and_vmap():
    images, out_hw, method = resize_case("batch", 4)
    f = lambda v: jax_resize.resize_with_pillow_filter(v, out_hw + (4,), FILTERS[method], alpha="premultiplied")
    want = np.stack([_pillow(a, out_hw, FILTERS[method]) for a in images])
    np.testing.assert_array_equal(jax.jit(jax.vmap(f))(images), want)


def test_alpha_errors():
    rgba = np.zeros((6, 8, 4), np.uint8)
    box = functools.partial(jax_resize.resize_with_pillow_filter, resample=compat.BOX)
    with pytest.raises(ValueError, match=r"alpha='premul' is not supported; allowed values: None, 'straight'"):
        box(rgba, (3, 4, 4), alpha="premul")
    with pytest.raises(TypeError, match="uint8; image has dtype float32"):
        box(rgba.astype(np.float32), (3, 4, 4), alpha="premultiplied")
    with pytest.raises(ValueError, match=r"2 \(LA\) or 4 \(RGBA\).*\(6, 8, 3\)"):
        box(np.zeros((6, 8, 3), np.uint8), (3, 4, 3), alpha="premultiplied")
    with pytest.raises(ValueError, match=r"shape\[-1\]=2 but image.shape\[-1\]=4"):
        box(rgba, (3, 4, 2), alpha="premultiplied")


# --- compat.pil_resize(..., mode=...) ------------------------------------------------------------

# modes Image.fromarray accepts for a layout but does not infer (resampled as independent
# channels), P (always NEAREST), 1 (bool, inferred; always NEAREST) and I for uint16
EXPLICIT = ["RGBX", "CMYK", "RGBa", "YCbCr", "LAB", "HSV", "La", "PA", "P", "1", "I"]
SIZES = [(13, 17), (57, 41)]  # (height, width): down and up from 31 x 37


def explicit_array(mode):
    rng = np.random.default_rng(sum(map(ord, mode)))
    photo = _photo("chelsea.png")
    crop = photo[100:131, 200:237]
    if mode in ("RGBX", "CMYK", "RGBa"):
        a = np.concatenate([crop, alpha_map(rng, 31, 37)[..., None]], axis=-1)
        if mode == "RGBa":  # a valid premultiplied image: colour <= alpha
            a = np.asarray(_peer.premultiply(a))
        return a
    if mode in ("YCbCr", "LAB", "HSV"):
        return crop
    if mode in ("La", "PA"):
        a = np.stack([crop[..., 1], alpha_map(rng, 31, 37)], axis=-1)
        return np.asarray(_peer.premultiply(a)) if mode == "La" else a
    if mode == "P":
        return crop[..., 1]
    if mode == "1":
        return crop[..., 1] > 100
    return (crop[..., 1].astype(np.uint16) * 257) ^ rng.integers(0, 256, (31, 37)).astype(np.uint16)  # I


def _explicit_oracle(a, mode, size, resample):
    if mode == "I":  # uint16 read as 32-bit integers
        return np.asarray(Image.fromarray(a).convert("I").resize(size, resample))
    if mode == "1":
        return np.asarray(Image.fromarray(a).resize(size, resample))
    return np.asarray(Image.fromarray(a, mode).resize(size, resample))


@pytest.mark.parametrize("mode", EXPLICIT)
def test_explicit_modes_match_pillow(mode):
    a = explicit_array(mode)
    for method, resample in FILTERS.items():
        for out_hw in SIZES:
            size = out_hw[::-1]
            want = _explicit_oracle(a, mode, size, resample)
            with jax.enable_x64(mode == "I"):
                got = np.asarray(compat.pil_resize(a, size, resample, mode=mode))
            assert got.dtype == want.dtype and got.shape == want.shape, (mode, method, got.dtype, want.dtype)
            assert np.array_equal(got, want), (mode, method, out_hw, np.count_nonzero(got != want))


def test_explicit_modes_differ_from_the_inferred_one():
    # RGBX is resampled straight, RGBA (inferred) premultiplied: on an image with alpha they differ
    a = explicit_array("RGBX")
    assert not np.array_equal(
        compat.pil_resize(a, (17, 13), compat.BICUBIC, mode="RGBX"), compat.pil_resize(a, (17, 13), compat.BICUBIC)
    )


# --- README -------------------------------------------------------------------------------------

_RESIZE_ROW = '`resize_with_pillow_filter(..., alpha="premultiplied")` vs `PIL.Image.resize`'
_MODES_ROW = "`compat.pil_resize(..., mode=...)` vs `Image.fromarray(a, mode).resize(...)`"


def test_readme_rows():
    n = sum(N_RESIZE.values())
    readme.assert_row(
        _RESIZE_ROW + " on RGBA and LA crops of the real photos (alpha maps with fully transparent, opaque, "
        f"gradient and noisy regions), every filter, down and up: {N_RESIZE['RGBA']} RGBA, {N_RESIZE['LA']} LA, "
        f"{N_RESIZE['batch']} batches of 3 RGBA",
        f"**{n} / {n}** bit exact",
    )
    m = len(EXPLICIT) * len(FILTERS) * len(SIZES)
    readme.assert_row(
        _MODES_ROW + " for the modes it accepts without inferring them (RGBX, CMYK, RGBa, YCbCr, LAB, HSV, La, PA, P; "
        "I for uint16, with `jax_enable_x64`) and 1 (bool), every filter, down and up",
        f"**{m} / {m}** bit exact",
    )


def test_rgba_box_crop_round_trips_like_pillow():
    # an integral box as large as the output is a crop for Pillow, but of the premultiplied image:
    # RGBA -> RGBa -> crop -> RGBA loses colour precision where 0 < alpha < 255
    a = explicit_array("RGBX")
    want = np.asarray(Image.fromarray(a).resize((20, 15), Image.Resampling.LANCZOS, box=(5, 7, 25, 22)))
    got = np.asarray(compat.pil_resize(a, (20, 15), compat.LANCZOS, box=(5, 7, 25, 22)))
    np.testing.assert_array_equal(got, want)
    assert not np.array_equal(want, a[7:22, 5:25])
