"""Weights layer: ``weight_matrix`` against the ONNX reference evaluator and hand tables.

Oracle: resizing an identity matrix ``eye(in)`` along axis 0 with the reference evaluator yields
exactly the ``[out, in]`` weight matrix of that axis.
"""

import dataclasses
import itertools

import numpy as np
import pytest
from conftest import reference_resize

from jax_resize import weight_matrix
from jax_resize._src import band_taps, kernels, records, weights
from jax_resize._src.peers import onnx


def test_hand_table_linear_upsample():
    # ONNX spec example resize_upsample_scales_linear (half_pixel, 2 -> 4)
    np.testing.assert_allclose(weight_matrix(2, 4, mode="linear"), [[1, 0], [0.75, 0.25], [0.25, 0.75], [0, 1]])


def test_hand_table_cubic_align_corners():
    # in 4 -> out 7 with align_corners: x = y / 2; at x = 0.5 the Keys(-0.75) taps -1, 0, 1, 2 have
    # weights W(1.5), W(0.5), W(0.5), W(1.5) = -0.09375, 0.59375, 0.59375, -0.09375; tap -1 is
    # clamped onto pixel 0.
    W = weight_matrix(4, 7, mode="cubic", coordinate_transformation_mode="align_corners")
    np.testing.assert_allclose(W[1], [-0.09375 + 0.59375, 0.59375, -0.09375, 0], atol=1e-15)
    np.testing.assert_allclose(W[::2], np.eye(4), atol=1e-15)


CASES = [
    dict(mode=m, coordinate_transformation_mode=c, **extra)
    for m, extra in [("nearest", dict(nearest_mode=n)) for n in onnx.NEAREST_MODES]
    + [("linear", dict(antialias=a, exclude_outside=e)) for a, e in itertools.product((0, 1), (0, 1))]
    + [
        ("cubic", dict(antialias=a, exclude_outside=e, cubic_coeff_a=-0.5))
        for a, e in itertools.product((0, 1), (0, 1))
    ]
    for c in ("half_pixel", "half_pixel_symmetric", "align_corners", "asymmetric", "pytorch_half_pixel")
]


@pytest.mark.parametrize("attrs", CASES, ids=lambda a: "-".join(str(v) for v in a.values()))
@pytest.mark.parametrize("in_size,out_size", [(5, 12), (12, 5), (7, 3), (9, 9), (6, 17), (1, 4)])
def test_weight_matrix_matches_reference(attrs, in_size, out_size):
    eye = np.eye(in_size, dtype=np.float64)
    ref = reference_resize(eye, sizes=[out_size], axes=[0], **attrs)
    W = weight_matrix(in_size, out_size, **attrs)
    assert W.shape == (out_size, in_size)
    # The reference evaluates cubic with the float32 attribute cubic_coeff_a, in float32 arithmetic.
    tol = 1e-5 if attrs["mode"] == "cubic" else 1e-12
    np.testing.assert_allclose(W, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize(
    "attrs", [a for a in CASES if a["mode"] != "nearest"], ids=lambda a: "-".join(map(str, a.values()))
)
def test_weight_matrix_built_in_row_blocks_matches_reference(attrs, monkeypatch):
    # long output axes build their taps HOST.chunk_rows rows at a time; blocks of 3 rows (bands of
    # different widths, widened and moved at the input's end) give the reference's matrix too
    monkeypatch.setattr(band_taps, "HOST", dataclasses.replace(band_taps.HOST, chunk_rows=3))
    onnx.axis_record.cache_clear()
    try:
        for in_size, out_size in [(6, 17), (12, 5), (4, 40)]:
            ref = reference_resize(np.eye(in_size), sizes=[out_size], axes=[0], **attrs)
            tol = 1e-5 if attrs["mode"] == "cubic" else 1e-12
            np.testing.assert_allclose(weight_matrix(in_size, out_size, **attrs), ref, rtol=tol, atol=tol)
    finally:
        onnx.axis_record.cache_clear()


def test_tf_crop_and_resize_rows_outside_are_zero():
    attrs = dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize")
    roi = np.array([-0.2, 1.1], np.float32)  # the oracle's roi is float32
    W = weight_matrix(6, 5, roi=tuple(roi.astype(np.float64)), **attrs)
    ref = reference_resize(np.eye(6), roi=roi, sizes=[5], axes=[0], extrapolation_value=0.0, **attrs)
    # the reference computes coordinates with float32 roi scalars (float32 arithmetic)
    np.testing.assert_allclose(W, ref, atol=1e-6)
    assert np.all(W[0] == 0) and np.all(W[-1] == 0)


def test_rows_sum_to_one():
    rng = np.random.default_rng(1)
    for _ in range(50):
        n, o = rng.integers(1, 40, 2)
        W = weight_matrix(int(n), int(o), mode="cubic", antialias=True, exclude_outside=bool(rng.integers(2)))
        np.testing.assert_allclose(W.sum(1), 1.0, atol=1e-12)


def test_filter_matrix_box_covers_half_open_boundary():
    # Box stretched by 2 around x = 2: taps with d in (-1, 1] -> pixels 2 and 3 (d = 0, 1), not 1.
    W = records.record_matrix(weights.filter_taps(np.array([2.0]), 6, kernels.BOX, stretch=2.0, normalize=True))
    np.testing.assert_allclose(W, [[0, 0, 0.5, 0.5, 0, 0]])


def test_weight_matrix_errors():
    with pytest.raises(ValueError, match="mode='bilinear'"):
        weight_matrix(3, 4, mode="bilinear")
    with pytest.raises(ValueError, match="in_size"):
        weight_matrix(0, 4)
    with pytest.raises(ValueError, match="antialias"):
        weight_matrix(3, 4, mode="nearest", antialias=True)


@pytest.mark.parametrize(
    "attrs", [a for a in CASES if a["mode"] != "nearest"], ids=lambda a: "-".join(map(str, a.values()))
)
def test_rows_sharing_a_phase_match_reference(attrs):
    # a rational ratio repeats a few phases (10 -> 40: 4), whose rows' weights are computed once
    # and shared; rows whose windows leave the input keep their own. Same matrix as the reference.
    onnx.axis_record.cache_clear()
    for in_size, out_size in [(10, 40), (16, 48), (60, 20), (9, 90)]:
        ref = reference_resize(np.eye(in_size), sizes=[out_size], axes=[0], **attrs)
        tol = 1e-5 if attrs["mode"] == "cubic" else 1e-12
        np.testing.assert_allclose(weight_matrix(in_size, out_size, **attrs), ref, rtol=tol, atol=tol)


def _keys(t, a=-0.75):
    t = np.abs(t)
    near = (a + 2) * t**3 - (a + 3) * t**2 + 1
    far = a * t**3 - 5 * a * t**2 + 8 * a * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def test_excluded_window_wider_than_the_input_is_the_input():
    # scale 1e-6 stretches antialiased cubic over 4e6 taps per output; with exclude_outside only
    # the 8 inputs can carry weight. Oracle (ONNX Resize, cubic antialias, half_pixel, by hand):
    # x = (o + 0.5) / s - 0.5, w_j = K((j - x) * s) over j in [0, 8), renormalised; the last row's
    # kernel reaches no input (|(j - x) s| > 2): it reads the nearest edge pixel
    s = 1e-6
    got = weight_matrix(8, 3, mode="cubic", antialias=True, exclude_outside=1, scale=s)
    x = (np.arange(3) + 0.5) / s - 0.5
    w = _keys((np.arange(8)[None, :] - x[:2, None]) * s)
    np.testing.assert_allclose(got[:2], w / w.sum(axis=1, keepdims=True), rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(got[2], np.eye(8)[7])


def test_rows_far_outside_the_input_read_the_edge():
    # coordinates beyond 2**52 (o / scale with a tiny scale): every row reads the edge pixel (clamp),
    # with no distance lost to float rounding (oracle: the spec's clamped taps, by hand)
    got = weight_matrix(8, 5, mode="linear", scale=1e-17)
    np.testing.assert_array_equal(got, np.tile(np.eye(8)[7], (5, 1)))
    got = weight_matrix(8, 5, mode="cubic", coordinate_transformation_mode="asymmetric", scale=1e-17)
    np.testing.assert_array_equal(got, np.vstack([np.eye(8)[0], np.tile(np.eye(8)[7], (4, 1))]))


def test_area_footprints_past_the_edge_read_the_edge_pixel():
    # area upsampling with asymmetric coordinates: output o's footprint is [x + 1/2 - w/2, x + 1/2 + w/2]
    # (x = o / s, w = 1 / s, pixel j = [j, j + 1)); the last ones lie past the image (x + 1/2 - w/2 >= 4)
    # and take the last pixel instead of becoming 0. Oracle: the overlaps in exact fractions, by hand.
    from fractions import Fraction

    import jax_resize

    n, out = 4, 13
    v = np.array([3.0, -1.0, 7.0, 2.0], np.float32)
    want, past = [], 0
    for o in range(out):
        x, w = Fraction(o * n, out), Fraction(n, out)
        lo, hi = x + Fraction(1, 2) - w / 2, x + Fraction(1, 2) + w / 2
        overlap = [max(Fraction(0), min(hi, j + 1) - max(lo, Fraction(j))) for j in range(n)]
        total = sum(overlap)
        past += not total
        want.append(float(sum(a * float(b) for a, b in zip(overlap, v)) / total) if total else float(v[-1]))
    assert past == 1  # o = 12: x = 48/13, footprint [4.04, 4.35]
    got = jax_resize.resize_with_onnx_attributes(v, (out,), "area", coordinate_transformation_mode="asymmetric")
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


WIDE_CASES = [
    dict(mode=m, antialias=1, exclude_outside=1, coordinate_transformation_mode=c, **extra)
    for m, extra in [("linear", {}), ("cubic", dict(cubic_coeff_a=-0.75))]
    for c in ("half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel")
]


@pytest.mark.parametrize("attrs", WIDE_CASES, ids=lambda a: "-".join(map(str, a.values())))
def test_wide_excluded_windows_built_on_their_band_match_reference(attrs, monkeypatch):
    # antialiased shrinks of 100x and more have windows of hundreds of taps, evaluated straight
    # onto their band a tile at a time; tiles of 37 weights split rows and columns anywhere
    monkeypatch.setattr(records, "HOST", dataclasses.replace(records.HOST, tile_elements=37))
    onnx.axis_record.cache_clear()
    try:
        sizes = [(600, 5), (301, 2), (500, 3)]
        if attrs["coordinate_transformation_mode"] != "pytorch_half_pixel":  # the reference's x is
            sizes.append((400, 1))  # -0.5 there for length 1, the spec's 0 (a known deviation)
        for in_size, out_size in sizes:
            ref = reference_resize(np.eye(in_size), sizes=[out_size], axes=[0], **attrs)
            tol = 1e-5 if attrs["mode"] == "cubic" else 1e-12
            got = weight_matrix(in_size, out_size, **attrs)
            np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)
    finally:
        onnx.axis_record.cache_clear()


@pytest.mark.parametrize("method", ["linear", "cubic", "lanczos3"])
def test_wide_excluded_windows_match_jax_image(method, monkeypatch):
    # oracle: jax.image.resize itself (antialiased, weights over the whole input, renormalised)
    import jax
    import jax.numpy as jnp

    import jax_resize
    from jax_resize._src.peers import jax_image

    monkeypatch.setattr(records, "HOST", dataclasses.replace(records.HOST, tile_elements=1000))
    jax_image.filter_record.cache_clear()
    rng = np.random.default_rng(5)
    try:
        for in_size, out_size in [(20000, 3), (5000, 37), (40000, 40)]:  # 40: one band shared by the rows
            v = rng.random(in_size).astype(np.float32)
            got = jax_resize.resize(v, (out_size,), method)
            want = jax.image.resize(jnp.asarray(v), (out_size,), method)
            np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-6, atol=2e-6)
    finally:
        jax_image.filter_record.cache_clear()


@pytest.mark.parametrize("method", ["pil_lanczos", "pil_bicubic", "pil_bilinear", "pil_box"])
def test_wide_pillow_windows_built_in_tiles_are_pillow_bit_for_bit(method, monkeypatch):
    # Pillow's sequential row sums carried across tiles of 29 weights: the same 22-bit fixed-point
    # weights, so the same bytes as Pillow itself (oracle) on a 1000x shrink and a ragged one
    Image = pytest.importorskip("PIL.Image")
    import jax_resize

    monkeypatch.setattr(records, "HOST", dataclasses.replace(records.HOST, tile_elements=29))
    filters = {
        "pil_lanczos": Image.Resampling.LANCZOS,
        "pil_bicubic": Image.Resampling.BICUBIC,
        "pil_bilinear": Image.Resampling.BILINEAR,
        "pil_box": Image.Resampling.BOX,
    }
    rng = np.random.default_rng(11)
    # 32000 -> 32: an integer ratio, one band shared by the rows away from the edges
    for (h, w), (oh, ow) in [((2, 7000), (2, 7)), ((3, 4099), (3, 13)), ((2, 32000), (2, 32))]:
        img = rng.integers(0, 256, (h, w), dtype=np.uint8)
        want = np.asarray(Image.fromarray(img).resize((ow, oh), filters[method]))
        got = np.asarray(jax_resize.resize(img, (oh, ow), method))
        np.testing.assert_array_equal(got, want)
