"""``tf_resize``, ``tf_resize_v1`` and the TF1 kernels against TensorFlow itself.

Oracle: TensorFlow 2.21 (CPU) — ``tf.image.resize``, ``tf.compat.v1.image.resize`` and
``tf.compat.v1.image.resize_bilinear`` / ``resize_bicubic`` / ``resize_nearest_neighbor`` /
``resize_area`` — on seeded random sweeps (every drawn case is kept): sizes up and down, length 1
in and out, equal lengths, x2 / /2 and odd ratios, batched and unbatched, 1-4 channels, every
method with and without antialias, every ``align_corners`` x ``half_pixel_centers`` combination
TensorFlow accepts, and every input dtype TensorFlow's kernels take. Nearest must be bit exact;
filtered methods are compared by ``max |diff| / max |input|`` (standard-normal float32 data)
against the bounds the README states (``tests/readme.py``), and the README rows' case counts are
asserted. The per-axis weights are also
read back from TensorFlow (a batch of unit impulses) and compared with ours element by element.

A few formula checks remain as additional tests (TensorFlow's table entries, the nearest rule in
exact rationals, the half-pixel bilinear formula).
"""

import os
from fractions import Fraction

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import readme

from jax_resize import compat
from jax_resize._src import records as _records
from jax_resize._src.peers import tensorflow as _tf
from jax_resize._src.peers import tensorflow_kernels as _tf_kernels
from jax_resize.compat import tf_resize, tf_resize_v1

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
tf = pytest.importorskip("tensorflow")
tf.get_logger().setLevel("ERROR")
v1 = tf.compat.v1.image

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_TF = "`tf.image.resize` (TensorFlow 2.21)"
_TF1 = "`tf.compat.v1.image` (TensorFlow 2.21)"
CASES_PER_GROUP = 8  # random cases per (method, antialias) and per (TF1 kernel, geometry)

#: README rows (second cell's lead) of ``tf.image.resize``: which kernel computes each method.
NEAREST = "nearest"
BILINEAR_AREA = "bilinear, area (ResizeBilinear, ResizeArea)"
BICUBIC = "bicubic (ResizeBicubic)"
SCALE_AND_TRANSLATE = "antialias, lanczos3, lanczos5, gaussian, mitchellcubic (ScaleAndTranslate)"
DTYPES_ROW = "every method on uint8, int8, uint16, int16, int32, int64, float16, bfloat16, float64 input"
#: README rows of the TF1 functions.
V1_ROWS = {
    "nearest": "`resize_nearest_neighbor`, `resize` (method 1)",
    "bilinear": "`resize_bilinear`, `resize_area`, `resize` (methods 0, 3)",
    "bicubic": "`resize_bicubic`, `resize` (method 2)",
}
V1_ROWS["area"] = V1_ROWS["bilinear"]
_GEOMETRY = "every align_corners x half_pixel_centers TensorFlow accepts"


def _group(method, antialias):
    """The README row of a ``tf.image.resize`` case (nearest and area ignore ``antialias``)."""
    if method == "nearest":
        return NEAREST
    if method == "area":
        return BILINEAR_AREA
    if antialias or method in ("lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
        return SCALE_AND_TRANSLATE
    return BICUBIC if method == "bicubic" else BILINEAR_AREA


def test_readme_names_the_installed_tensorflow():
    assert _TF.endswith(" ".join(["TensorFlow", ".".join(tf.__version__.split(".")[:2])]) + ")")
    assert _TF1.endswith(_TF[_TF.index("(") :])


# --- random cases ----------------------------------------------------------------------------------

ODD_RATIOS = [(3, 7), (7, 3), (5, 3), (3, 5), (11, 4), (4, 11), (9, 2)]


def _axis(rng):
    """(input length, output length) of one axis: random, length 1 in or out, unchanged, x2, /2,
    or an odd ratio."""
    kind = rng.choice(["random", "random", "one_in", "one_out", "same", "up2", "down2", "odd"])
    n = int(rng.integers(2, 31))
    if kind == "random":
        return int(rng.integers(1, 41)), int(rng.integers(1, 61))
    if kind == "one_in":
        return 1, int(rng.integers(1, 20))
    if kind == "one_out":
        return n, 1
    if kind == "same":
        return n, n
    if kind == "up2":
        return n, 2 * n
    if kind == "down2":
        return 2 * n, n
    p, q = ODD_RATIOS[int(rng.integers(len(ODD_RATIOS)))]
    m = int(rng.integers(1, 5))
    return p * m, q * m


def _images(rng, *, batched=None, dtype=np.float32):
    (h, oh), (w, ow) = _axis(rng), _axis(rng)
    batched = bool(rng.integers(2)) if batched is None else batched
    shape = ((int(rng.integers(1, 3)),) if batched else ()) + (h, w, int(rng.choice([1, 2, 3, 4])))
    return rng.standard_normal(shape).astype(dtype), (oh, ow)


def _rel(got, want, x):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.abs(got - want).max(initial=0.0) / max(float(np.abs(np.asarray(x, np.float64)).max()), 1e-30))


def _check(got, want, x, group, bounds, worst, what):
    got = np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (what, got.shape, got.dtype, want.shape, want.dtype)
    if bounds[group] is None:  # an "exact" row
        np.testing.assert_array_equal(got, want, err_msg=what)
        worst[group] = 0.0
        return
    rel = _rel(got, want, x)
    assert rel <= bounds[group], f"{what}: max |diff| / max |x| = {rel:.3g} > README's {bounds[group]:g}"
    worst[group] = max(worst.get(group, 0.0), rel)


def _bounds(peer, groups):
    """Each row's float32 bound (``None`` for a row that says "exact")."""
    return {g: None if readme.row(peer, g)[2] == "exact" else readme.bound((peer, g), 2, "rel") for g in groups}


def _assert_counts(peer, counts, middle=""):
    """Each row's second cell is ``"{lead}{middle}: {n} float32 cases"`` with the measured count."""
    for lead, n in counts.items():
        have = readme.row(peer, lead)[1]
        assert have == f"{lead}{middle}: {n} float32 cases", (peer, have, n)


# --- tf.image.resize -------------------------------------------------------------------------------


def test_tf_resize_matches_tensorflow_random_sweep():
    rng = np.random.default_rng(20)
    groups = [NEAREST, BILINEAR_AREA, BICUBIC, SCALE_AND_TRANSLATE]
    bounds = _bounds(_TF, groups)
    assert bounds[NEAREST] is None
    worst: dict = {}
    counts = dict.fromkeys(groups, 0)
    for method in _tf.TF_METHODS:
        for antialias in (False, True):
            for _ in range(CASES_PER_GROUP):
                x, size = _images(rng)
                want = tf.image.resize(x, size, method, antialias=antialias).numpy()
                got = tf_resize(x, size, method, antialias=antialias)
                what = f"tf.image.resize({x.shape}, {size}, {method!r}, antialias={antialias})"
                group = _group(method, antialias)
                _check(got, want, x, group, bounds, worst, what)
                counts[group] += 1
    print(f"tf.image.resize, max |diff| / max |x| per row: {worst}")
    _assert_counts(_TF, counts)


DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.int32, np.int64, np.float16, "bfloat16", np.float64]


def _dtype_input(rng, shape, dtype):
    dtype = jnp.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -(2**40)), min(int(info.max), 2**40)
        return rng.integers(lo, hi, shape, endpoint=True).astype(dtype)
    return rng.uniform(-300, 300, shape).astype(dtype)


def test_tf_resize_input_dtypes_match_tensorflow():
    """Every dtype TensorFlow's kernels take: filtered methods return float32 computed from the
    input converted to float32 (float16 is not rounded back to float16); nearest copies (64-bit
    types under ``jax.enable_x64``, which JAX needs to hold them)."""
    rng = np.random.default_rng(21)
    bound = readme.bound((_TF, DTYPES_ROW), 3, "rel")
    worst = 0.0
    cases = 0
    for method in _tf.TF_METHODS:
        shape = (2, int(rng.integers(1, 20)), int(rng.integers(1, 20)), 3)
        size = (int(rng.integers(1, 30)), int(rng.integers(1, 30)))
        antialias = bool(rng.integers(2))
        for dtype in DTYPES:
            x = _dtype_input(rng, shape, dtype)
            want = tf.image.resize(x, size, method, antialias=antialias).numpy()
            wide = method == "nearest" and x.dtype.itemsize == 8
            with jax.enable_x64(True) if wide else _nullcontext():
                got = np.asarray(tf_resize(x, size, method, antialias=antialias))
            what = f"{method} {x.dtype} {shape} -> {size}"
            assert got.dtype == want.dtype, what
            if method == "nearest":
                np.testing.assert_array_equal(got, want, err_msg=what)
            else:
                rel = _rel(got, want, x)
                assert rel <= bound, f"{what}: {rel:.3g} > README's {bound:g}"
                worst = max(worst, rel)
            cases += 1
    print(f"input dtypes, {cases} cases, max |diff| / max |x|: {worst:.3g}")
    assert readme.row(_TF, DTYPES_ROW)[1] == f"{DTYPES_ROW}: {cases} cases"
    assert readme.row(_TF, DTYPES_ROW)[3].startswith("nearest exact (input dtype kept);")


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_float16_is_computed_from_float32_not_rounded_to_float16():
    # The old path rounded the result through float16 (6.7e-3 off); TensorFlow converts each input
    # value to float32 and returns float32.
    rng = np.random.default_rng(22)
    x = rng.uniform(0, 1, (9, 7, 3)).astype(np.float16)
    want = tf.image.resize(x, (13, 5), "bicubic").numpy()
    got = np.asarray(tf_resize(x, (13, 5), "bicubic"))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=0, atol=5e-7)


def test_under_jit_and_with_jax_arrays():
    rng = np.random.default_rng(23)
    x = rng.uniform(0, 255, (2, 11, 6, 3)).astype(np.uint8)
    want = tf.image.resize(x, (7, 9), "lanczos3", antialias=True).numpy()
    got = jax.jit(lambda v: tf_resize(v, (7, 9), "lanczos3", antialias=True))(jnp.asarray(x))
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), want, rtol=0, atol=255 * 5e-7)


@pytest.mark.parametrize("method", ["bilinear", "nearest", "mitchellcubic"])
def test_preserve_aspect_ratio_matches_tensorflow(method):
    rng = np.random.default_rng(24)
    for _ in range(4):
        x = rng.uniform(0, 1, (int(rng.integers(3, 40)), int(rng.integers(3, 40)), 2)).astype(np.float32)
        size = (int(rng.integers(1, 50)), int(rng.integers(1, 50)))
        want = tf.image.resize(x, size, method, preserve_aspect_ratio=True).numpy()
        got = np.asarray(tf_resize(x, size, method, preserve_aspect_ratio=True))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=5e-7)
        if method in _tf.V1_METHODS:
            want = v1.resize(x, size, method, preserve_aspect_ratio=True).numpy()
            got = np.asarray(tf_resize_v1(x, size, method, preserve_aspect_ratio=True))
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=0, atol=5e-7)


def test_unchanged_size_is_still_filtered_as_tensorflow_does():
    # TF2 resizes even when the size is kept: gaussian and mitchellcubic blur, nothing is skipped.
    x = np.random.default_rng(25).uniform(0, 1, (8, 6, 1)).astype(np.float32)
    for method in ("gaussian", "mitchellcubic", "lanczos3"):
        want = tf.image.resize(x, (8, 6), method).numpy()
        got = np.asarray(tf_resize(x, (8, 6), method))
        np.testing.assert_allclose(got, want, rtol=0, atol=5e-7)
    assert np.abs(np.asarray(tf_resize(x, (8, 6), "gaussian")) - x).max() > 0.01


# --- TF1 -------------------------------------------------------------------------------------------

V1_KERNELS = {
    "bilinear": (v1.resize_bilinear, compat.tf_resize_bilinear),
    "bicubic": (v1.resize_bicubic, compat.tf_resize_bicubic),
    "nearest": (v1.resize_nearest_neighbor, compat.tf_resize_nearest_neighbor),
    "area": (v1.resize_area, compat.tf_resize_area),
}
GEOMETRIES = [(False, False), (True, False), (False, True)]  # (align_corners, half_pixel_centers)


def test_tf1_kernels_match_tensorflow_random_sweep():
    rng = np.random.default_rng(30)
    groups = list(dict.fromkeys(V1_ROWS.values()))
    bounds = _bounds(_TF1, groups)
    assert bounds[V1_ROWS["nearest"]] is None
    worst: dict = {}
    counts = dict.fromkeys(groups, 0)
    for method, (theirs, ours) in V1_KERNELS.items():
        for align_corners, half_pixel_centers in GEOMETRIES:
            if method == "area" and half_pixel_centers:
                continue  # ResizeArea has no half_pixel_centers
            kw = dict(align_corners=align_corners)
            if method != "area":
                kw["half_pixel_centers"] = half_pixel_centers
            for _ in range(CASES_PER_GROUP):
                x, size = _images(rng, batched=True)
                want = theirs(x, size, **kw).numpy()
                what = f"{theirs.__name__}({x.shape}, {size}, {kw})"
                _check(ours(x, size, **kw), want, x, V1_ROWS[method], bounds, worst, what)
                counts[V1_ROWS[method]] += 1
    # tf.compat.v1.image.resize: ResizeMethodV1 ints and names, align_corners, rank 3 and 4
    for method in range(4):
        for align_corners in (False, True):
            for _ in range(3):
                x, size = _images(rng)
                name = _tf.V1_METHODS[method]
                given = name if rng.integers(2) else method
                want = v1.resize(x, size, given, align_corners=align_corners).numpy()
                what = f"tf.compat.v1.image.resize({x.shape}, {size}, {given!r}, align_corners={align_corners})"
                _check(tf_resize_v1(x, size, given, align_corners), want, x, V1_ROWS[name], bounds, worst, what)
                counts[V1_ROWS[name]] += 1
    print(f"TF1, max |diff| / max |x| per row: {worst}")
    _assert_counts(_TF1, counts, f"; {_GEOMETRY}")


def test_tf1_resize_returns_the_input_when_the_size_is_kept():
    x = np.arange(24, dtype=np.uint8).reshape(4, 2, 3)
    want = v1.resize(x, (4, 2), 2)  # BICUBIC: skipped by TensorFlow, dtype kept
    got = tf_resize_v1(x, (4, 2), 2)
    assert got.dtype == want.dtype == np.uint8
    np.testing.assert_array_equal(got, want.numpy())
    # the kernels themselves always compute (float32)
    assert compat.tf_resize_bilinear(x[None], (4, 2)).dtype == v1.resize_bilinear(x[None], (4, 2)).dtype


def test_align_corners_area_with_one_input_pixel():
    # TensorFlow uses in / out when in == 1, even with align_corners (no division by zero).
    x = np.array([3.0, -1.5], np.float32).reshape(1, 1, 2, 1)
    for size in [(3, 1), (5, 4), (1, 7)]:
        want = v1.resize_area(x[:, :, :1], size, align_corners=True).numpy()
        np.testing.assert_allclose(compat.tf_resize_area(x[:, :, :1], size, align_corners=True), want, atol=5e-7)
        want = v1.resize_bicubic(x, size, align_corners=True).numpy()
        np.testing.assert_allclose(compat.tf_resize_bicubic(x, size, align_corners=True), want, atol=5e-7)


# --- the weights, read back from TensorFlow --------------------------------------------------------


def _impulse_matrix(n, out, fn):
    """TensorFlow's ``[out, n]`` weights of the W axis: image ``j`` of the batch is a unit impulse at
    column ``j`` (H = 1 -> 1), so every output is one weight times 1 plus zeros, exactly."""
    x = np.zeros((n, 1, n, 1), np.float32)
    x[np.arange(n), 0, np.arange(n), 0] = 1
    return np.asarray(fn(x, (1, out)))[:, 0, :, 0].T


def _record_matrix(method, n, out, **options):
    """Our weights as TensorFlow applies them to that batch: the W record times the H record's
    single weight (1 -> 1), and ResizeArea's final factor."""
    records = _tf_kernels.filter_records(method, **options)
    if method == "nearest":
        return (records(n, out)[:, None] == np.arange(n)[None, :]).astype(np.float32)
    w = _records.record_matrix(records(n, out)).astype(np.float32) * np.float32(
        _records.record_matrix(records(1, 1))[0, 0]
    )
    if method == "area":
        w = w * _tf_kernels.area_factor((1, n), (1, out), align_corners=options.get("align_corners", False))
    return w


def test_weights_are_tensorflows_bit_for_bit():
    """Per-axis weights equal TensorFlow's exactly, except: Lanczos, whose ``sin`` we take in float64
    rounded to float32 where TensorFlow calls the C library's ``sinf`` (they differ in the last bit
    for a few arguments); and TF1 bicubic rows whose clamped taps repeat an edge pixel, which we
    add in float64 where TensorFlow adds them in float32 (one ulp)."""
    rng = np.random.default_rng(40)
    for case in range(240):
        n, out = int(rng.integers(1, 50)), int(rng.integers(1, 70))
        if case % 2:
            method, antialias = _tf.TF_METHODS[case // 2 % 8], bool(rng.integers(2))
            want = _impulse_matrix(n, out, lambda x, s: tf.image.resize(x, s, method, antialias=antialias))
            got = _record_matrix(method, n, out, antialias=antialias)
            legacy = False
        else:
            method = _tf.V1_METHODS[case // 2 % 4]
            align_corners, half_pixel_centers = GEOMETRIES[int(rng.integers(2 if method == "area" else 3))]
            kw = dict(align_corners=align_corners)
            if method != "area":
                kw["half_pixel_centers"] = half_pixel_centers
            want = _impulse_matrix(n, out, lambda x, s: V1_KERNELS[method][0](x, s, **kw))
            got = _record_matrix(method, n, out, align_corners=align_corners, half_pixel_centers=half_pixel_centers)
            legacy = method == "bicubic" and not half_pixel_centers
        what = f"{method} {n} -> {out} (case {case})"
        if method.startswith("lanczos"):
            np.testing.assert_allclose(got, want, rtol=4e-7, atol=1e-12, err_msg=what)
        elif legacy:
            np.testing.assert_array_max_ulp(got, want, maxulp=1)
        else:
            np.testing.assert_array_equal(got, want, err_msg=what)


# --- formula checks (additional) -------------------------------------------------------------------


def _keys_table(a):
    """ResizeBicubic's coefficient table written out from TensorFlow's source (``InitCoeffsTable``
    in ``resize_bicubic_op.cc``): ``x = i / 1024`` in float32, Keys' kernel in double in Horner
    form at ``x`` and at ``x + 1``, each stored as float32: ``[1025, 2]``."""
    x = (np.arange(1025) / 1024).astype(np.float32).astype(np.float64)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    y = x + 1
    far = ((a * y - 5 * a) * y + 8 * a) * y - 4 * a
    return np.stack([near, far], axis=1).astype(np.float32)


def test_keys_table_is_tensorflows():
    """The whole table, both kernels: ours equals Keys' formula written out above; for a = -0.75
    that formula equals the table read back from TensorFlow; spot values by hand."""
    # TF1 bicubic without half-pixel centres (a = -0.75) applies raw table rows, edge taps repeated
    # and no renormalisation: 4 -> 4096 samples x = o / 1024, so outputs 1024..2047 (floor(x) = 1,
    # all four taps inside) read rows k = o - 1024 as T[k, 1], T[k, 0], T[1024 - k, 0], T[1024 - k, 1].
    rows = _impulse_matrix(4, 4096, lambda x, s: v1.resize_bicubic(x, s))[1024:2048]
    read = np.zeros((1025, 2), np.float32)
    k = np.arange(1024)
    read[k, 1], read[k, 0], read[1024 - k, 0], read[1024 - k, 1] = rows.T
    np.testing.assert_array_equal(read, _keys_table(-0.75))
    for a in (-0.5, -0.75):
        table = _tf_kernels.keys_table(a)
        assert table.shape == (1025, 2) and table.dtype == np.float32
        np.testing.assert_array_equal(table, _keys_table(a), err_msg=f"a = {a}")
    # Keys at 0.5 and 1.5: a = -0.5: 0.5625, -0.0625; a = -0.75: 0.59375, -0.09375; 1 and 0 at 0
    for a, near, far in [(-0.5, 0.5625, -0.0625), (-0.75, 0.59375, -0.09375)]:
        assert tuple(_keys_table(a)[512]) == (near, far) and tuple(_keys_table(a)[0]) == (1, 0)
        assert tuple(_keys_table(a)[1024]) == (0, 0)


def test_bicubic_reads_the_table_at_lrintf():
    """5 -> 13 half-pixel: x = (o + 0.5) * 5/13 - 0.5; every row's weights are the table rows at
    round-half-even(1024 * frac(x)), outside taps zeroed and the row multiplied by the float32
    reciprocal of its float32 sum; equal to TensorFlow's and to ours, and not Keys' kernel at
    frac(x) itself (1024 * frac(x) is no integer here)."""
    n, out, t = 5, 13, _keys_table(-0.5)
    want = np.zeros((out, n), np.float32)
    direct = np.zeros((out, n), np.float32)  # Keys' kernel at frac(x), same zeroing and scaling
    for o in range(out):
        x = np.float32((np.float32(o) + np.float32(0.5)) * (np.float32(n) / np.float32(out)) - np.float32(0.5))
        frac = float(x - np.floor(x))
        k = int(np.rint(np.float32(frac) * np.float32(1024)))
        cols = np.arange(int(np.floor(x)) - 1, int(np.floor(x)) + 3)
        inside = (cols >= 0) & (cols < n)
        for matrix, w in (
            (want, [t[k, 1], t[k, 0], t[1024 - k, 0], t[1024 - k, 1]]),
            (direct, [_keys(1 + frac), _keys(frac), _keys(1 - frac), _keys(2 - frac)]),
        ):
            w = np.where(inside, np.array(w, np.float32), np.float32(0))
            w = w * (np.float32(1) / (((w[0] + w[1]) + w[2]) + w[3]))
            matrix[o, cols[inside]] = w[inside]
    assert np.abs(want - direct).max() > 1e-5
    np.testing.assert_array_equal(
        _impulse_matrix(n, out, lambda x, s: v1.resize_bicubic(x, s, half_pixel_centers=True)), want
    )
    np.testing.assert_array_equal(_records.record_matrix(_tf_kernels.bicubic_taps(n, out)).astype(np.float32), want)


def _keys(t, a=-0.5):
    """Keys' cubic kernel at ``t`` (float64)."""
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a if t < 2 else 0.0


def _tf_bilinear_formula(img, out_h, out_w):
    """TF ResizeBilinear, half_pixel_centers: in = (o + 0.5) * scale - 0.5, lerp of clamped floor/ceil."""

    def axis(n_in, n_out):
        x = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
        lo = np.floor(x)
        frac = x - lo
        return np.clip(lo, 0, n_in - 1).astype(int), np.clip(lo + 1, 0, n_in - 1).astype(int), frac

    y0, y1, fy = axis(img.shape[0], out_h)
    x0, x1, fx = axis(img.shape[1], out_w)
    top = img[y0][:, x0] * (1 - fx)[None, :, None] + img[y0][:, x1] * fx[None, :, None]
    bot = img[y1][:, x0] * (1 - fx)[None, :, None] + img[y1][:, x1] * fx[None, :, None]
    return top * (1 - fy)[:, None, None] + bot * fy[:, None, None]


@pytest.mark.parametrize("out", [(5, 13), (17, 3), (9, 7), (20, 30)])
def test_bilinear_matches_tf_formula(out):
    img = np.random.default_rng(1).uniform(0, 255, (9, 7, 3)).astype(np.float32)
    np.testing.assert_allclose(
        tf_resize(img, out), _tf_bilinear_formula(img.astype(np.float64), *out), rtol=1e-5, atol=1e-3
    )


@pytest.mark.parametrize("n_in,n_out", [(7, 3), (3, 7), (10, 4), (64, 48), (5, 5)])
def test_nearest_exact_rational_and_keeps_dtype(n_in, n_out):
    img = np.random.default_rng(2).integers(0, 255, (n_in, n_in, 1)).astype(np.uint8)
    got = tf_resize(img, (n_out, n_out), "nearest")
    idx = [min(int(Fraction(2 * o + 1, 2) * Fraction(n_in, n_out)), n_in - 1) for o in range(n_out)]
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, img[idx][:, idx])


# --- arguments -------------------------------------------------------------------------------------


def test_bad_arguments():
    with pytest.raises(ValueError, match="method='bilinaer'.*Did you mean 'bilinear'"):
        tf_resize(np.zeros((4, 4, 1)), (2, 2), "bilinaer")
    with pytest.raises(ValueError, match="rank 2"):
        tf_resize(np.zeros((4, 4)), (2, 2))
    with pytest.raises(ValueError, match="size="):
        tf_resize(np.zeros((4, 4, 1)), (2, -1))
    with pytest.raises(TypeError, match="complex64"):
        tf_resize(np.zeros((4, 4, 1), np.complex64), (2, 2))
    with pytest.raises(ValueError, match="method='lanczos3' is not supported by tf.compat.v1.image.resize"):
        tf_resize_v1(np.zeros((4, 4, 1)), (2, 2), "lanczos3")
    with pytest.raises(ValueError, match="method=4"):
        tf_resize_v1(np.zeros((4, 4, 1)), (2, 2), 4)
    with pytest.raises(ValueError, match="align_corners=True and half_pixel_centers=True"):
        compat.tf_resize_bilinear(np.zeros((1, 4, 4, 1)), (2, 2), align_corners=True, half_pixel_centers=True)
    with pytest.raises(ValueError, match=r"\[N, H, W, C\]; got rank 3"):
        compat.tf_resize_bicubic(np.zeros((4, 4, 1)), (2, 2))
    with pytest.raises(TypeError, match="align_corners must be a bool"):
        compat.tf_resize_area(np.zeros((1, 4, 4, 1)), (2, 2), align_corners="yes")


#: Bad ``size`` values and images, and TensorFlow's own answer to each (a ``size`` TensorFlow
#: takes must give its shape; an error must be of TensorFlow's class, ``InvalidArgumentError`` read
#: as ``ValueError``). A float array is TensorFlow's one conversion jax_resize does not repeat
#: where it truncates: refused with a ``ValueError`` (issue 45).
BAD_SIZES = {
    "int": 4,
    "float entry": [6, 4.0],
    "None entry": [None, 4],
    "float array": np.array([6.0, 4.0]),
    "non-integral float array": np.array([6.9, 4.2]),
    "float tuple": (6.0, 4.0),
    "three entries": (1, 2, 3),
    "2-D array": np.array([[6, 4]]),
    "string": "ab",
    "zeros": (0, 0),
    "zero height": (0, 4),
    "negative": (-1, 4),
    "uint8 array": np.array([6, 4], np.uint8),
}
TF_FUNCTIONS = {
    "tf_resize": (tf_resize, tf.image.resize, 3),
    "tf_resize nearest": (
        lambda x, s: tf_resize(x, s, "nearest"),
        lambda x, s: tf.image.resize(x, s, "nearest"),
        3,
    ),
    "tf_resize lanczos3": (
        lambda x, s: tf_resize(x, s, "lanczos3"),
        lambda x, s: tf.image.resize(x, s, "lanczos3"),
        3,
    ),
    "tf_resize_v1": (tf_resize_v1, tf.compat.v1.image.resize, 3),
    "tf_resize_bilinear": (compat.tf_resize_bilinear, v1.resize_bilinear, 4),
    "tf_resize_bicubic": (compat.tf_resize_bicubic, v1.resize_bicubic, 4),
    "tf_resize_nearest_neighbor": (compat.tf_resize_nearest_neighbor, v1.resize_nearest_neighbor, 4),
    "tf_resize_area": (compat.tf_resize_area, v1.resize_area, 4),
}


def _tf_answer(call):
    """TensorFlow's result shape, or the class of its error (``InvalidArgumentError``: ``ValueError``)."""
    try:
        return tuple(call().shape)
    except tf.errors.InvalidArgumentError:
        return ValueError
    except (TypeError, ValueError) as error:
        return type(error)


@pytest.mark.parametrize("size", BAD_SIZES)
@pytest.mark.parametrize("name", TF_FUNCTIONS)
def test_size_errors_are_tensorflows(name, size):
    ours, theirs, rank = TF_FUNCTIONS[name]
    x = np.ones((5, 6, 3) if rank == 3 else (1, 5, 6, 3), np.float32)
    want = _tf_answer(lambda: theirs(x, BAD_SIZES[size]))
    if size == "non-integral float array":
        assert want == ((6, 4, 3) if rank == 3 else (1, 6, 4, 3))  # TensorFlow truncates
        want = ValueError
    if isinstance(want, tuple):
        assert tuple(ours(x, BAD_SIZES[size]).shape) == want
    else:
        with pytest.raises(want, match="size="):
            ours(x, BAD_SIZES[size])


@pytest.mark.parametrize(
    "shape, size, kw",
    [
        ((5, 6, 0), (9, 7), {}),  # no channels
        ((0, 6, 3), (4, 4), {}),  # no pixels
        ((5, 600, 3), (10, 10), dict(preserve_aspect_ratio=True)),  # the height rounds to 0
    ],
)
@pytest.mark.parametrize("method", ["bilinear", "nearest", "lanczos3"])
def test_images_tensorflow_refuses_are_refused(shape, size, kw, method):
    x = np.ones(shape, np.float32)
    assert _tf_answer(lambda: tf.image.resize(x, size, method, **kw)) is ValueError
    with pytest.raises(ValueError, match="non-zero size|must be positive"):
        tf_resize(x, size, method, **kw)


def test_an_empty_batch_is_an_empty_output_as_in_tensorflow():
    x = np.ones((0, 5, 6, 3), np.float32)
    want = tuple(tf.image.resize(x, (9, 7), "area").shape)
    assert tuple(tf_resize(x, (9, 7), "area").shape) == want == (0, 9, 7, 3)


@pytest.mark.parametrize("value", [1, 2, "yes", 1.0])
def test_flags_that_are_not_bools_are_type_errors_as_in_tensorflow(value):
    x4 = np.ones((1, 5, 6, 3), np.float32)
    with pytest.raises(TypeError):
        v1.resize_bilinear(x4, (3, 3), align_corners=value)
    with pytest.raises(TypeError, match="align_corners must be a bool"):
        compat.tf_resize_bilinear(x4, (3, 3), align_corners=value)
    with pytest.raises(TypeError):
        tf.image.resize(x4, (3, 3), antialias=value)
    with pytest.raises(TypeError, match="antialias must be a bool"):
        tf_resize(x4, (3, 3), antialias=value)
