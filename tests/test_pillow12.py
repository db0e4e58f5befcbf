"""Pillow 12.3's bits: ``compat.pil_resize(..., pillow_version="12")``, the ``pil12_*`` methods of
``jax_resize.resize`` and the grain preset ``"pillow12"``, against Pillow 12.3.0 itself.

Oracle: the real Pillow 12.3.0, installed beside the test environment's Pillow 13 in a directory
of its own (``$JAX_RESIZE_PILLOW12``, default ``.ci/pillow12``, which ``.ci/run`` fills; installed
here on demand when absent) and run as a subprocess: the cases' arrays and arguments go to it in
an ``.npz`` and a JSON file, its results come back in an ``.npz``. Without it the tests fail under
CI (``CI`` set) and skip, saying why, elsewhere. Cases: crops of the photographs in
``../shared/data`` and uniform noise (the full range of each mode's pixels, so that clipped
intermediates occur), each from its own seed and kept, never redrawn; every filter; shrink,
enlarge, integer and fractional factors, a float ``box``, ``reducing_gap``, shapes whose height
shrinks much more than the width (where Pillow 13 runs the vertical pass first, 12 the
horizontal) and images over 100 times taller than wide (Pillow 12's two-call resize); modes L,
RGB, RGBA, LA (premultiplied alpha), I;16, I and F (the last three under ``jax_enable_x64``).
Every case must be bit exact.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import jax
import numpy as np
import pytest
import readme
from conftest import alpha_map, load_photo
from PIL import Image

import jax_resize
from jax_resize import compat
from jax_resize._src import transforms as _t

ROOT = pathlib.Path(__file__).resolve().parents[1]
PILLOW12_VERSION = "12.3.0"
PILLOW12_DIR = pathlib.Path(os.environ.get("JAX_RESIZE_PILLOW12", ROOT / ".ci" / "pillow12")).resolve()

FILTERS = [compat.NEAREST, compat.BOX, compat.BILINEAR, compat.HAMMING, compat.BICUBIC, compat.LANCZOS]
METHOD_12 = {
    compat.NEAREST: "pil12_nearest",
    compat.BOX: "pil12_box",
    compat.BILINEAR: "pil12_bilinear",
    compat.HAMMING: "pil12_hamming",
    compat.BICUBIC: "pil12_bicubic",
    compat.LANCZOS: "pil12_lanczos",
}
PHOTOS = ["astronaut.png", "chelsea.png", "coffee.png"]
MODES = ("L", "RGB", "RGBA", "LA", "I;16", "I", "F")
WIDE_MODES = ("I;16", "I", "F")  # Pillow sums these in double: exact with jax_enable_x64
KINDS = ("down", "up", "box", "reducing_gap", "rows_first", "tall")
N_PER_MODE = 24  # each filter 4 times per mode; the kinds rotate so every filter meets each kind

# The oracle's side: reads cases.npz + cases.json, writes out.npz (results, or the error's text).
_SCRIPT = r"""
import json, sys, warnings
import numpy as np
import PIL
from PIL import Image
warnings.simplefilter("ignore")
folder = sys.argv[1]
arrays = np.load(folder + "/cases.npz")
out = {"version": np.array(PIL.__version__)}
for k, c in enumerate(json.load(open(folder + "/cases.json"))):
    a = arrays[f"a{k}"]
    try:
        im = Image.fromarray(a) if c["mode"] is None else Image.fromarray(a, c["mode"])
        box = None if c["box"] is None else tuple(c["box"])
        out[f"r{k}"] = np.asarray(im.resize(tuple(c["size"]), c["resample"], box=box, reducing_gap=c["gap"]))
    except Exception as error:
        out[f"e{k}"] = np.array(f"{type(error).__name__}: {error}")
np.savez(folder + "/out.npz", **out)
"""


def _install_pillow12() -> str | None:
    """Installs Pillow 12.3.0 into :data:`PILLOW12_DIR` when it is absent; ``None`` when it is
    there, else why it could not be."""
    if (PILLOW12_DIR / "PIL" / "__init__.py").is_file():
        return None
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(PILLOW12_DIR)]
    done = subprocess.run([*command, f"pillow=={PILLOW12_VERSION}"], capture_output=True, text=True, timeout=600)
    if done.returncode:
        return f"pip could not install pillow=={PILLOW12_VERSION} into {PILLOW12_DIR}: {done.stderr.strip()[-500:]}"
    return None


def pillow12(cases) -> list:
    """Pillow 12.3's ``Image.fromarray(a, mode).resize(size, resample, box, reducing_gap)`` of each
    case (``(a, size, resample, box, gap, mode)``): its array, or its error's text (a ``str``)."""
    problem = _install_pillow12()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"the Pillow 12.3 oracle is missing under CI: {problem}")
        pytest.skip(f"the Pillow 12.3 oracle is missing (not under CI, so skipped): {problem}")
    with tempfile.TemporaryDirectory() as folder:
        arrays = {f"a{k}": np.asarray(c[0]) for k, c in enumerate(cases)}
        np.savez(f"{folder}/cases.npz", **arrays)
        spec = [
            dict(size=list(size), resample=int(r), box=None if box is None else list(box), gap=gap, mode=mode)
            for _, size, r, box, gap, mode in cases
        ]
        pathlib.Path(folder, "cases.json").write_text(json.dumps(spec))
        env = dict(os.environ, PYTHONPATH=str(PILLOW12_DIR))
        subprocess.run([sys.executable, "-c", _SCRIPT, folder], check=True, env=env, timeout=900, cwd=folder)
        with np.load(f"{folder}/out.npz") as out:
            version = str(out["version"])
            if version != PILLOW12_VERSION:
                pytest.fail(f"the oracle in {PILLOW12_DIR} is Pillow {version}, not {PILLOW12_VERSION}")
            return [str(out[f"e{k}"]) if f"e{k}" in out else out[f"r{k}"] for k in range(len(cases))]


@functools.cache
def _photo(name):
    return np.asarray(load_photo(name).convert("RGB"))


def _pixels(mode, rng, grey, crop, noise):
    """The array of ``mode`` from a photo crop (``grey``, ``crop``) or, with ``noise``, uniform
    noise over the mode's range."""
    h, w = grey.shape
    if mode in ("RGBA", "LA"):
        colour = rng.integers(0, 256, (h, w, 3), dtype=np.uint8) if noise else crop
        alpha = rng.integers(0, 256, (h, w), dtype=np.uint8) if noise else alpha_map(rng, h, w)
        return np.dstack([colour if mode == "RGBA" else colour[..., 1], alpha])
    if mode == "L":
        return rng.integers(0, 256, (h, w), dtype=np.uint8) if noise else grey
    if mode == "RGB":
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8) if noise else crop
    if mode == "I;16":
        if noise:
            return rng.integers(0, 65536, (h, w)).astype(np.uint16)
        return np.clip(grey.astype(np.int64) * 257 + rng.integers(-128, 129, (h, w)), 0, 65535).astype(np.uint16)
    if mode == "I":
        if noise:
            return rng.integers(-(2**30), 2**30, (h, w)).astype(np.int32)
        return (grey.astype(np.int32) * 257 - 32768) * 7 + rng.integers(-100, 101, (h, w)).astype(np.int32)
    if noise:  # F
        return rng.uniform(-1e4, 1e4, (h, w)).astype(np.float32)
    return (grey - 40.0 + rng.uniform(0, 1, (h, w)) * 0.37).astype(np.float32)


def make_case(mode, i):
    """``(array, size, resample, box, reducing_gap, None)`` of case ``i`` of ``mode``, from its own
    seed (``Image.fromarray`` infers the mode)."""
    rng = np.random.default_rng([12, sum(map(ord, mode)), i])
    resample = FILTERS[i % 6]
    kind = KINDS[(i + i // 6) % len(KINDS)]
    if mode == "I;16" and kind == "reducing_gap":
        kind = "box"  # Pillow cannot reduce I;16 images
    noise = i % 4 >= 2
    photo = _photo(PHOTOS[i % 3])
    if kind == "tall":
        w = int(rng.integers(1, 3))
        h = int(rng.integers(100 * w + 1, min(photo.shape[0], 100 * w + 200) + 1))
    else:
        h, w = int(rng.integers(24, 161)), int(rng.integers(24, 161))
    y0, x0 = int(rng.integers(0, photo.shape[0] - h + 1)), int(rng.integers(0, photo.shape[1] - w + 1))
    crop = photo[y0 : y0 + h, x0 : x0 + w]
    a = _pixels(mode, rng, crop[..., 1], crop, noise)
    box, gap = None, None
    if kind == "down":  # integer factors every other case
        f = int(rng.integers(2, 5))
        size = (max(1, w // f), max(1, h // f)) if i % 2 else (int(rng.integers(3, w)), int(rng.integers(3, h)))
    elif kind == "up":
        f = int(rng.integers(2, 4))
        size = (w * f, h * f) if i % 2 else (int(rng.integers(w + 1, 2 * w + 30)), int(rng.integers(h + 1, 2 * h + 30)))
    elif kind == "box":
        bx, by = rng.uniform(0, w / 3), rng.uniform(0, h / 3)
        box = (bx, by, rng.uniform(bx + 5, w), rng.uniform(by + 5, h))
        size = (int(rng.integers(3, 2 * w)), int(rng.integers(3, 2 * h)))
    elif kind == "reducing_gap":
        gap = [1.0, 1.5, 2.0, 3.0][i % 4]
        size = (int(rng.integers(3, max(4, int(w / (2 * gap))))), int(rng.integers(3, max(4, int(h / (2 * gap))))))
        if i % 2:
            box = (rng.uniform(0, w / 4), rng.uniform(0, h / 4), rng.uniform(3 * w / 4, w), rng.uniform(3 * h / 4, h))
    elif kind == "rows_first":  # the height shrinks over twice as much as the width: Pillow 13 goes vertical first
        size = (int(rng.integers(w - 5, w + 40)), int(rng.integers(3, h // 3)))
    else:  # tall: Pillow 12's two-call resize, vertical first
        size = (int(rng.integers(1, 7)), int(rng.integers(2, h)))
        if i % 2:
            box = (0.0, rng.uniform(0, h / 4), float(w), rng.uniform(3 * h / 4, h))
    return a, size, resample, box, gap, None


CASES = [(mode, i) for mode in MODES for i in range(N_PER_MODE)]


@functools.cache
def _oracle():
    """Pillow 12.3's result of every case of :data:`CASES`, in one subprocess."""
    return dict(zip(CASES, pillow12([make_case(m, i) for m, i in CASES])))


def _ours(mode, a, size, resample, box, gap, **kw):
    call = functools.partial(compat.pil_resize, a, size, resample, box=box, reducing_gap=gap, **kw)
    if mode in WIDE_MODES:
        with jax.enable_x64(True):
            return np.asarray(call())
    return np.asarray(call())


def _describe(what, got, want):
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    return f"{what}: {np.count_nonzero(diff)} of {diff.size} values differ, max {diff.max()}"


@pytest.mark.parametrize("mode,i", CASES, ids=[f"{m}-{i}" for m, i in CASES])
def test_bit_exact_with_pillow_12_3(mode, i):
    a, size, resample, box, gap, _ = make_case(mode, i)
    assert Image.fromarray(a).mode == mode  # the case is the mode it claims
    want = _oracle()[mode, i]
    assert not isinstance(want, str), f"Pillow 12.3 refused case {mode}-{i}: {want}"
    got = _ours(mode, a, size, resample, box, gap, pillow_version="12")
    assert got.dtype == want.dtype and got.shape == want.shape == (size[1], size[0]) + a.shape[2:]
    assert np.array_equal(got, want), _describe(f"mode {mode} case {i}", got, want)


@functools.cache
def _differing():
    """The cases whose Pillow 12.3 result differs from Pillow 13's (this environment's Pillow):
    ``{(mode, i): Pillow 13's result}``."""
    import PIL

    assert PIL.__version__.startswith("13."), PIL.__version__
    found = {}
    for mode, i in CASES:
        a, size, resample, box, gap, _ = make_case(mode, i)
        want_13 = np.asarray(Image.fromarray(a).resize(size, resample, box=box, reducing_gap=gap))
        if not np.array_equal(_oracle()[mode, i], want_13):
            found[mode, i] = want_13
    return found


def test_the_option_matters_and_the_default_stays_pillow_13():
    """Where Pillow 12.3 and 13 differ (enough cases, in every mode), pillow_version="12" gives
    12.3's result (test above) while the default, and pillow_version="13", give Pillow 13's."""
    differ = _differing()
    assert len(differ) >= len(CASES) // 6, f"only {len(differ)} of {len(CASES)} cases tell Pillow 12.3 from 13"
    assert {mode for mode, _ in differ} == set(MODES)
    for (mode, i), want_13 in differ.items():
        a, size, resample, box, gap, _ = make_case(mode, i)
        got = _ours(mode, a, size, resample, box, gap)
        assert np.array_equal(got, want_13), _describe(f"default, mode {mode} case {i}", got, want_13)
        assert np.array_equal(_ours(mode, a, size, resample, box, gap, pillow_version="13"), got)


def test_guide_rows():
    n = {mode: sum(m == mode for m, _ in CASES) for mode in MODES}
    readme.assert_row(
        '`compat.pil_resize(..., pillow_version="12")` vs Pillow 12.3.0\'s `Image.fromarray(a).resize(...)` on crops '
        "of the real photos and uniform noise, every filter, down and up (integer and fractional factors), a float "
        "`box`, `reducing_gap`, heights shrinking much more than widths, images over 100 times taller than wide "
        "(`tests/test_pillow12.py`)",
        f"L **{n['L']} / {n['L']}**, RGB **{n['RGB']} / {n['RGB']}**, RGBA **{n['RGBA']} / {n['RGBA']}**, "
        f"LA **{n['LA']} / {n['LA']}** bit exact; with `jax_enable_x64` I;16 **{n['I;16']} / {n['I;16']}**, "
        f"I **{n['I']} / {n['I']}**, F **{n['F']} / {n['F']}** bit exact",
    )
    exact = sum(dtype != np.float32 for *_, dtype in RESIZE_CASES)
    readme.assert_row(
        '`resize(..., "pil12_*")` and the grain preset `"pillow12"` vs Pillow 12.3.0 (noisy photo crops, every '
        "filter, pass orders where 12 and 13 differ and a tall image; RGB, RGBA premultiplied, int32, float32)",
        f"uint8 and int32 **{exact} / {exact}**, RGBA premultiplied **{len(FILTERS)} / {len(FILTERS)}**, grain "
        f"**{len(_t.PRESETS['pillow12']) + 1} / {len(_t.PRESETS['pillow12']) + 1}** bit exact; float32 "
        f"({len(RESIZE_CASES) - exact}) within 1e-6 of the largest value",
    )


# --- jax_resize.resize's pil12_* methods and the grain preset --------------------------------------


def _resize_cases():
    """``(array, out_hw, resample, dtype)``: a noisy photo crop per filter and dtype, in shapes where
    Pillow 12 and 13 order the passes differently and one over 100 times taller than wide."""
    cases = []
    for k, resample in enumerate(FILTERS):
        rng = np.random.default_rng([1212, k])
        photo = _photo(PHOTOS[k % 3])
        for j, (hw, out) in enumerate(
            [((90, 70), (17, 81)), ((300, 2), (101, 3)), ((64, 48), (31, 47)), ((40, 41), (80, 20))]
        ):
            crop = photo[: hw[0], : hw[1]]
            rgb = np.clip(crop.astype(np.int64) + rng.integers(-40, 41, crop.shape), 0, 255).astype(np.uint8)
            cases.append((rgb, out, resample, np.uint8))
            if j < 2:
                cases.append(
                    ((rgb[..., 1] - 40.0 + rng.uniform(0, 1, hw)).astype(np.float32), out, resample, np.float32)
                )
                cases.append((rgb[..., 0].astype(np.int32) * 1000 - 99_999, out, resample, np.int32))
    return cases


RESIZE_CASES = _resize_cases()


@functools.cache
def _resize_oracle():
    return pillow12([(a, (o[1], o[0]), r, None, None, None) for a, o, r, _ in RESIZE_CASES])


def assert_resize_case(k, case, want, methods):
    """``jax_resize.resize`` of ``case`` (``(a, (oh, ow), resample, dtype)``) with ``methods[resample]``
    equals the release's ``want``: bit for bit, float32 within a rounding."""
    a, (oh, ow), resample, dtype = case
    shape = (oh, ow) + a.shape[2:]
    with jax.enable_x64(dtype != np.uint8):
        got = np.asarray(jax_resize.resize(a, shape, methods[resample]))
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if dtype == np.float32:  # resize's float passes are not Pillow's double sums: within a rounding
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6 * np.abs(want).max())
    else:
        assert np.array_equal(got, want), _describe(f"case {k}", got, want)


@pytest.mark.parametrize("k", range(len(RESIZE_CASES)))
def test_resize_pil12_methods_are_pillow_12_3(k):
    assert_resize_case(k, RESIZE_CASES[k], _resize_oracle()[k], METHOD_12)


def test_resize_pil12_premultiplied_alpha_is_pillow_12_3():
    rng = np.random.default_rng(1213)
    rgb = _photo("coffee.png")[:80, :60]
    rgba = np.dstack([rgb, alpha_map(rng, 80, 60)])
    methods = [METHOD_12[r] for r in FILTERS]
    wants = pillow12([(rgba, (70, 19), r, None, None, None) for r in FILTERS])
    for r, method, want in zip(FILTERS, methods, wants):
        got = np.asarray(
            jax_resize.resize_with_pillow_filter(rgba, (19, 70, 4), r, alpha="premultiplied", pillow_version="12")
        )
        assert np.array_equal(got, want), _describe(method, got, want)


def test_grain_preset_pillow12_is_pillow_12_3():
    """``preset="pillow12"`` (``transforms.resample``, and ``grain.Resize``) gives Pillow 12.3's
    pixels, where they differ from Pillow 13's (``preset="pillow"``)."""
    rng = np.random.default_rng(1214)
    image = np.clip(_photo("chelsea.png")[:120, :90].astype(np.int64) + rng.integers(-30, 31, (120, 90, 3)), 0, 255)
    image = image.astype(np.uint8)
    names = _t.PRESETS["pillow12"]
    wants = pillow12([(image, (100, 23), compat.Resampling[n.upper()], None, None, None) for n in names])
    differ = 0
    for name, want in zip(names, wants):
        got = _t.resample(image, (23, 100), method=name, antialias=True, preset="pillow12")
        assert np.array_equal(got, want), _describe(name, got, want)
        differ += not np.array_equal(_t.resample(image, (23, 100), method=name, antialias=True, preset="pillow"), want)
    assert differ >= 4  # every filter but NEAREST (one pass order) and, maybe, BOX
    grain = pytest.importorskip("grain", reason="the grain extra is not installed")
    del grain
    from jax_resize.grain import Resize

    out = Resize((23, 100), preset="pillow12", method="bicubic").map(image)
    assert np.array_equal(out, wants[names.index("bicubic")])


# --- determinism and arguments -----------------------------------------------------------------------


def test_two_calls_give_the_same_bits():
    a, size, resample, box, gap, _ = make_case("RGBA", 4)
    first = _ours("RGBA", a, size, resample, box, gap, pillow_version="12")
    second = _ours("RGBA", a, size, resample, box, gap, pillow_version="12")
    assert np.array_equal(first, second)
    x = np.random.default_rng(5).integers(0, 256, (50, 40, 3), dtype=np.uint8)
    once = np.asarray(jax_resize.resize(x, (11, 57, 3), "pil12_lanczos"))
    jitted = jax.jit(lambda v: jax_resize.resize(v, (11, 57, 3), "pil12_lanczos"))
    assert np.array_equal(once, np.asarray(jitted(x))) and np.array_equal(once, np.asarray(jitted(x)))


@pytest.mark.parametrize("value", [12, "12.3", "10", None, 13.0])
def test_unknown_pillow_version_is_refused(value):
    with pytest.raises(ValueError, match=r"pillow_version=.*allowed values: '13', '12'"):
        compat.pil_resize(np.zeros((4, 4), np.uint8), (2, 2), compat.BILINEAR, pillow_version=value)


def test_pillow_12_has_no_mks_filters():
    with pytest.raises(ValueError, match=r"resample=6\b.*MKS2013"):
        compat.pil_resize(np.zeros((4, 4), np.uint8), (2, 2), 6, pillow_version="12")


def test_pil12_methods_are_listed_and_checked():
    from jax_resize._src import cli

    assert set(METHOD_12.values()) <= set(cli.MODES)
    with pytest.raises(ValueError, match="pil12_bicubic"):
        jax_resize.resize(np.zeros((4, 4), np.uint8), (2, 2), "pil12_bicubc")
    with pytest.raises(TypeError, match="pil12_box"):
        jax_resize.resize(np.zeros((4, 4), bool), (2, 2), "pil12_box")
