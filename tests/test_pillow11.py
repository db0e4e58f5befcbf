"""Pillow 10.1-12.1's bits: ``compat.pil_resize(..., pillow_version="11")``, the ``pil11_*`` methods
of ``jax_resize.resize`` and the grain preset ``"pillow11"``, against Pillow 11.3.0 and 10.4.0.

Oracles: the real Pillow 11.3.0 and 10.4.0, each installed beside the test environment's Pillow 13
in a directory of its own (``$JAX_RESIZE_PILLOW11``, default ``.ci/pillow11``;
``$JAX_RESIZE_PILLOW10``, default ``.ci/pillow10``; ``.ci/run`` fills both, and they are installed
here on demand when absent) and run as subprocesses (``tests/test_pillow12.py``'s script); Pillow
12.3 (``test_pillow12.pillow12``) shows where 11 and 12 differ. Without an oracle the tests fail
under CI (``CI`` set) and skip, saying why, elsewhere. Cases: ``test_pillow12``'s (photo crops and
full-range noise; every filter; shrink, enlarge, integer and fractional factors, a float ``box``,
``reducing_gap``, heights shrinking much more than widths; modes L, RGB, RGBA, LA, I;16, I and F,
the last three under ``jax_enable_x64``), more images over 100 times taller than wide whose height
shrinks (Pillow 12.2 and later resize them vertical pass first, 10.1-12.1 horizontal first), and
``'I;16'`` edges enlarged past 65535 (11.x stores such a pass's value as ``0xFF00 | (v & 0xFF)``,
12.3 clips it). Every case must be bit exact with 11.3; with 10.4 too, except that 10.x refuses to
filter ``'I;16'`` (its ``NEAREST`` must match).
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import pytest
import readme
import test_pillow12 as p12
from PIL import Image

import jax_resize
from jax_resize import compat
from jax_resize._src import transforms as _t

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: The releases run as oracles: version -> (environment variable, default directory).
RELEASES = {"11.3.0": ("JAX_RESIZE_PILLOW11", ".ci/pillow11"), "10.4.0": ("JAX_RESIZE_PILLOW10", ".ci/pillow10")}
METHOD_11 = {r: "pil11_" + m[len("pil12_") :] for r, m in p12.METHOD_12.items()}
FILTERS, MODES = p12.FILTERS, p12.MODES
N_TALL = 6  # per mode
# NEAREST and BOX aside: one order, or almost always the same bits (and a width of 1 too: its
# horizontal pass copies the column)
TALL_FILTERS = [compat.LANCZOS, compat.BILINEAR, compat.BICUBIC, compat.HAMMING]
REFUSED_10 = "ValueError: image has wrong mode"  # Pillow 10.x filtering 'I;16'


def _folder(release: str) -> pathlib.Path:
    variable, default = RELEASES[release]
    return pathlib.Path(os.environ.get(variable, ROOT / default)).resolve()


def _install(release: str) -> str | None:
    """Installs Pillow ``release`` into its folder when absent; ``None`` when it is there, else why
    it could not be."""
    folder = _folder(release)
    if (folder / "PIL" / "__init__.py").is_file():
        return None
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(folder), f"pillow=={release}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode:
        return f"pip could not install pillow=={release} into {folder}: {done.stderr.strip()[-500:]}"
    return None


def pillow(release: str, cases) -> list:
    """Pillow ``release``'s ``Image.fromarray(a, mode).resize(size, resample, box, reducing_gap)``
    of each case (``(a, size, resample, box, gap, mode)``): its array, or its error's text."""
    problem = _install(release)
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"the Pillow {release} oracle is missing under CI: {problem}")
        pytest.skip(f"the Pillow {release} oracle is missing (not under CI, so skipped): {problem}")
    with tempfile.TemporaryDirectory() as folder:
        np.savez(f"{folder}/cases.npz", **{f"a{k}": np.asarray(c[0]) for k, c in enumerate(cases)})
        spec = [
            dict(size=list(size), resample=int(r), box=None if box is None else list(box), gap=gap, mode=mode)
            for _, size, r, box, gap, mode in cases
        ]
        pathlib.Path(folder, "cases.json").write_text(json.dumps(spec))
        env = dict(os.environ, PYTHONPATH=str(_folder(release)))
        subprocess.run([sys.executable, "-c", p12._SCRIPT, folder], check=True, env=env, timeout=900, cwd=folder)
        with np.load(f"{folder}/out.npz") as out:
            if str(out["version"]) != release:
                pytest.fail(f"the oracle in {_folder(release)} is Pillow {out['version']}, not {release}")
            return [str(out[f"e{k}"]) if f"e{k}" in out else out[f"r{k}"] for k in range(len(cases))]


def make_tall(mode, i):
    """A case over 100 times taller than wide (2 or 3 columns) whose height shrinks and whose width
    changes (both passes run, in the order that tells 10.1-12.1 from 12.2 and later), from its own
    seed."""
    rng = np.random.default_rng([11, sum(map(ord, mode)), i])
    resample = TALL_FILTERS[i % len(TALL_FILTERS)]
    photo = p12._photo(p12.PHOTOS[i % 3])
    w = int(rng.integers(2, min(3, (photo.shape[0] - 1) // 100) + 1))
    h = int(rng.integers(100 * w + 1, min(photo.shape[0], 100 * w + 200) + 1))
    y0, x0 = int(rng.integers(0, photo.shape[0] - h + 1)), int(rng.integers(0, photo.shape[1] - w + 1))
    crop = photo[y0 : y0 + h, x0 : x0 + w]
    a = p12._pixels(mode, rng, crop[..., 1], crop, i % 2 == 1)
    size = (int(rng.choice([v for v in range(1, 8) if v != w])), int(rng.integers(2, h // 2)))
    box = (0.0, rng.uniform(0, h / 4), float(w), rng.uniform(3 * h / 4, h)) if i % 3 == 2 else None
    return a, size, resample, box, None, None


def make_overshoot(i):
    """An ``'I;16'`` edge of 0 and 65535 (or near it) enlarged by BICUBIC or LANCZOS, whose ringing
    takes a pass past 65535."""
    rng = np.random.default_rng([1116, i])
    h, w = int(rng.integers(6, 20)), int(rng.integers(6, 20))
    a = np.where(np.arange(w) < w // 2, 0, 65535 - int(rng.integers(0, 200))) * np.ones((h, 1), np.int64)
    a = np.clip(a + rng.integers(-50, 51, (h, w)), 0, 65535).astype(np.uint16)
    a = a if i % 2 else a.T.copy()
    size = (int(rng.integers(a.shape[1] + 1, 4 * a.shape[1])), int(rng.integers(a.shape[0] + 1, 4 * a.shape[0])))
    return a, size, [compat.BICUBIC, compat.LANCZOS][i % 2], None, None, None


N_OVERSHOOT = 6
CASES = [("base", m, i) for m, i in p12.CASES]
CASES += [("tall", m, i) for m in MODES for i in range(N_TALL)]
CASES += [("overshoot", "I;16", i) for i in range(N_OVERSHOOT)]
IDS = [f"{kind}-{m}-{i}" for kind, m, i in CASES]


def make_case(kind, mode, i):
    if kind == "base":
        return p12.make_case(mode, i)
    return make_tall(mode, i) if kind == "tall" else make_overshoot(i)


@functools.cache
def _oracle(release: str) -> dict:
    """Pillow ``release``'s result of every case of :data:`CASES` (12.3's too), in one subprocess."""
    cases = [make_case(*c) for c in CASES]
    return dict(zip(CASES, p12.pillow12(cases) if release == p12.PILLOW12_VERSION else pillow(release, cases)))


@functools.cache
def _ours(case, version="11", x64=True):
    a, size, resample, box, gap, _ = make_case(*case)
    if not x64:
        return np.asarray(compat.pil_resize(a, size, resample, box=box, reducing_gap=gap, pillow_version=version))
    return p12._ours(case[1], a, size, resample, box, gap, pillow_version=version)


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bit_exact_with_pillow_11_3_and_10_4(case, release):
    a, size, resample, *_ = make_case(*case)
    assert Image.fromarray(a).mode == case[1]  # the case is the mode it claims
    want = _oracle(release)[case]
    if release.startswith("10.") and case[1] == "I;16" and resample != compat.NEAREST:
        assert want == REFUSED_10  # Pillow 10.x cannot filter 'I;16'
        return
    assert not isinstance(want, str), f"Pillow {release} refused case {case}: {want}"
    got = _ours(case)
    assert got.dtype == want.dtype and got.shape == want.shape == (size[1], size[0]) + a.shape[2:]
    assert np.array_equal(got, want), p12._describe(f"Pillow {release}, case {case}", got, want)


def test_11_and_12_differ_where_the_options_do():
    """The cases cannot pass vacuously: on every tall image (every mode) and every 'I;16' edge
    Pillow 11.3 and 12.3 give other bits, and "11" and "12" each its own release's."""
    old, new = _oracle("11.3.0"), _oracle(p12.PILLOW12_VERSION)
    differ = {c for c in CASES if c[0] != "base" and not np.array_equal(old[c], new[c])}
    added = {c for c in CASES if c[0] != "base"}
    assert differ == added, sorted(added - differ)
    for case in differ:
        assert np.array_equal(_ours(case, "12"), new[case]) and not np.array_equal(_ours(case), new[case])


def test_i16_without_x64_is_within_1_but_at_the_byte_store():
    """Without x64 'I;16' passes sum in float32: within 1 of Pillow 11.3, but a value off by one
    across 65535 / 65536 is stored 255 apart (``0xFF00 | (v & 0xFF)``)."""
    old = _oracle("11.3.0")
    for case in [c for c in CASES if c[1] == "I;16"]:
        got, want = _ours(case, x64=False).astype(np.int64), old[case].astype(np.int64)
        diff = np.abs(got - want)
        stored = (got >= 0xFF00) | (want >= 0xFF00)
        assert diff[~stored].max(initial=0) <= 1 and diff.max(initial=0) <= 255, p12._describe(str(case), got, want)


def test_guide_rows():
    n = {mode: sum(m == mode for _, m, _ in CASES) for mode in MODES}
    nearest_16 = sum(m == "I;16" and make_case(k, m, i)[2] == compat.NEAREST for k, m, i in CASES)
    exact = ", ".join(f"{m} **{n[m]} / {n[m]}**" for m in ("L", "RGB", "RGBA", "LA"))
    wide = ", ".join(f"{m} **{n[m]} / {n[m]}**" for m in ("I;16", "I", "F"))
    readme.assert_row(
        '`compat.pil_resize(..., pillow_version="11")` vs Pillow 11.3.0 and 10.4.0 (`Image.fromarray(a).resize(...)`), '
        "the cases of the row above, images over 100 times taller than wide whose height shrinks "
        f"({N_TALL} per mode) and I;16 edges enlarged past 65,535 (`tests/test_pillow11.py`)",
        f"11.3.0: {exact} bit exact; with `jax_enable_x64` {wide} bit exact. 10.4.0: the same, but I;16 only "
        f"with NEAREST (**{nearest_16} / {nearest_16}**): 10.x refuses its other filters",
    )
    exact_resize = sum(dtype != np.float32 for *_, dtype in RESIZE_CASES)
    readme.assert_row(
        '`resize(..., "pil11_*")` and the grain preset `"pillow11"` vs Pillow 11.3.0 (the `pil12_*` row\'s '
        "cases, uint16 edges, a tall image for the preset)",
        f"uint8, uint16 and int32 **{exact_resize} / {exact_resize}**, grain **{2 * len(_t.PRESETS['pillow11'])} / "
        f"{2 * len(_t.PRESETS['pillow11'])}** bit exact; float32 ({len(RESIZE_CASES) - exact_resize}) within 1e-6 "
        "of the largest value",
    )


# --- jax_resize.resize's pil11_* methods and the grain preset --------------------------------------


def _resize_cases():
    """``test_pillow12``'s ``resize`` cases and the 'I;16' edges as uint16 ``resize`` inputs."""
    edges = [make_overshoot(i) for i in range(N_OVERSHOOT)]
    return p12.RESIZE_CASES + [(a, (size[1], size[0]), r, np.uint16) for a, size, r, *_ in edges]


RESIZE_CASES = _resize_cases()


@functools.cache
def _resize_oracle():
    return pillow("11.3.0", [(a, (o[1], o[0]), r, None, None, None) for a, o, r, _ in RESIZE_CASES])


@pytest.mark.parametrize("k", range(len(RESIZE_CASES)))
def test_resize_pil11_methods_are_pillow_11_3(k):
    p12.assert_resize_case(k, RESIZE_CASES[k], _resize_oracle()[k], METHOD_11)


def test_grain_preset_pillow11_is_pillow_11_3():
    """``preset="pillow11"`` (``transforms.resample``, and ``grain.Resize``) gives Pillow 11.3's
    pixels: on a photo crop where they differ from Pillow 13's and on a tall image where they differ
    from Pillow 12.3's (``preset="pillow12"``)."""
    rng = np.random.default_rng(1114)
    image = np.clip(p12._photo("chelsea.png")[:120, :90].astype(np.int64) + rng.integers(-30, 31, (120, 90, 3)), 0, 255)
    image = image.astype(np.uint8)
    tall = np.ascontiguousarray(p12._photo("astronaut.png")[:280, 100:102])
    names = _t.PRESETS["pillow11"]
    shapes = [(image, (23, 100)), (tall, (37, 3))]
    cases = [(x, (hw[1], hw[0]), compat.Resampling[n.upper()], None, None, None) for x, hw in shapes for n in names]
    wants = pillow("11.3.0", cases)
    differ = {"pillow": 0, "pillow12": 0}
    for (x, size, *_), name, want in zip(cases, names * 2, wants):
        hw = (size[1], size[0])
        got = _t.resample(x, hw, method=name, antialias=True, preset="pillow11")
        assert np.array_equal(got, want), p12._describe(name, got, want)
        other = "pillow" if x is image else "pillow12"
        differ[other] += not np.array_equal(_t.resample(x, hw, method=name, antialias=True, preset=other), want)
    assert differ["pillow"] >= 4 and differ["pillow12"] >= 3, differ  # NEAREST has one order
    pytest.importorskip("grain", reason="the grain extra is not installed")
    from jax_resize.grain import Resize

    out = Resize((37, 3), preset="pillow11", method="bicubic").map(tall)
    assert np.array_equal(out, wants[len(names) + names.index("bicubic")])


# --- arguments ------------------------------------------------------------------------------------


def test_pillow_11_has_no_mks_filters():
    for resample in (compat.MKS2013, compat.MKS2021):
        match = r"MKS20\d\d\) is not a Pillow 11 filter \(allowed: NEAREST=0, .*HAMMING=5"
        with pytest.raises(ValueError, match=match):
            compat.pil_resize(np.zeros((4, 4), np.uint8), (2, 2), resample, pillow_version="11")
    with pytest.raises(ValueError, match="not a Pillow 11 filter"):
        jax_resize.resize_with_pillow_filter(np.zeros((4, 4), np.uint8), (2, 2), compat.MKS2021, pillow_version="11")


@pytest.mark.parametrize("value", [11, "10", "11.3", "12.1"])
def test_other_versions_are_refused_naming_the_allowed_ones(value):
    with pytest.raises(ValueError, match=r"pillow_version=.*allowed values: '13', '12', '11'\."):
        compat.pil_resize(np.zeros((4, 4), np.uint8), (2, 2), compat.BILINEAR, pillow_version=value)


def test_pil11_methods_are_listed_and_checked():
    from jax_resize._src import cli, resize
    from jax_resize._src.peers import pillow_releases

    assert set(METHOD_11.values()) <= set(resize.PIL_METHODS) and set(METHOD_11.values()) <= set(cli.MODES)
    assert set(pillow_releases.RELEASE_METHODS) == set(METHOD_11.values()) | set(p12.METHOD_12.values())
    for method in METHOD_11.values():
        assert resize.pillow_filter(method)[1] == "11"
    with pytest.raises(ValueError, match="pil11_bicubic"):
        jax_resize.resize(np.zeros((4, 4), np.uint8), (2, 2), "pil11_bicubc")
    with pytest.raises(TypeError, match="pil11_box"):
        jax_resize.resize(np.zeros((4, 4), bool), (2, 2), "pil11_box")
