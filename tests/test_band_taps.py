"""``band_taps``: the host's fast paths against the reference window they pack.

Oracle: the reference builder ``weights.window_weights`` (the kernel on the window
``ceil(x) + arange(-half, half)``, rows normalised, the boundary policy), its positions clamped and
summed into the dense matrix in column order (``np.add.at``). With the host's window
(``half = ceil(support) + 1``) the packed bands (row blocks, rows sharing a class, compaction,
Rational coordinates) give that matrix bit for bit; the wide ``"exclude"`` band, normalised once
instead of twice, and every path against the reference's own tight window
(``floor(support) + 1``: no slack) agree to float64 rounding.
"""

import dataclasses
import itertools
import math

import numpy as np
import pytest

from jax_resize._src import band_taps, coordinates, kernels, records, weights
from jax_resize._src.host import HOST

KERNELS = [kernels.TRIANGLE, kernels.keys_cubic(-0.5), kernels.lanczos(3), kernels.BOX, kernels.AREA]


def _rational(n, m):
    o = np.arange(m)  # half-pixel centres (o + 1/2) n / m - 1/2 as integers over 2 m
    return coordinates.Rational((2 * o + 1) * n - m, 2 * m, np.dtype(np.float64))


def _half_pixel(n, m):
    return coordinates.source_coordinates("half_pixel", n, m, m / n)[0]


# (name, coordinates, in_size, stretch, the path taken unless "exclude"'s window is wide)
GEOMETRIES = [
    ("phases_up", _half_pixel(40, 160), 40, 1.0, "classes"),  # 4 phases: rows share a kernel evaluation
    ("phases_down", _half_pixel(60, 20), 60, 3.0, "classes"),
    ("irrational", _half_pixel(37, 101), 37, 1.0, "window"),  # every row its own: compact_window
    ("irrational_down", _half_pixel(101, 37), 101, 101 / 37, "window"),
    ("rational", _rational(40, 160), 40, 1.0, "classes"),
    ("rational_down", _rational(100, 7), 100, 100 / 7, "window"),  # "exclude": a wide band
    ("beyond_edges", np.linspace(-4.3, 12.6, 23), 9, 1.0, "window"),  # windows leaving the input
    ("wide", _half_pixel(2000, 20), 2000, 100.0, "classes"),  # "exclude": 402-tap windows
    ("whole", _half_pixel(300, 3), 300, 100.0, "window"),  # "exclude": wider than the input
    ("rational_wide", _rational(900, 4), 900, 225.0, "window"),
]
PATHS = {"classes": "_compact_classes", "window": "compact_window", "wide": "_excluded_band"}


def _reference(x, in_size, kernel, *, stretch, boundary, normalize, half):
    taps, w = weights.window_weights(
        x, half, kernel=kernel, stretch=stretch, boundary=boundary, normalize=normalize, valid=in_size
    )
    cols = np.clip(taps, 0, in_size - 1).astype(np.int64)
    return records.taps_to_matrix(cols, np.asarray(w, np.float64), in_size)


def _spy(monkeypatch, *names):
    """The names of ``band_taps``' functions ``names`` as they are called (the paths taken)."""
    called = []
    for name in names:
        fn = getattr(band_taps, name)
        monkeypatch.setattr(band_taps, name, lambda *a, _n=name, _f=fn, **k: called.append(_n) or _f(*a, **k))
    return called


@pytest.mark.parametrize("boundary,normalize", list(itertools.product(["clamp", "exclude", "zero"], [False, True])))
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: g[0])
def test_fast_paths_give_the_reference_matrix(geometry, kernel, boundary, normalize, monkeypatch):
    _, x, in_size, stretch, path = geometry
    called = _spy(monkeypatch, *PATHS.values())
    got = records.record_matrix(
        weights.filter_taps(x, in_size, kernel, stretch=stretch, boundary=boundary, normalize=normalize)
    )
    support = kernel.support(stretch)
    # "exclude" with windows wider than HOST.wide_window taps, or than the input: its own band
    wide = boundary == "exclude" and 2 * (math.ceil(support) + 1) > min(in_size + 4, HOST.wide_window)
    assert called[0] == PATHS["wide" if wide else path]  # the path the geometry reaches
    host, tight = (
        _reference(x, in_size, kernel, stretch=stretch, boundary=boundary, normalize=normalize, half=half)
        for half in (math.ceil(support) + 1, math.floor(support) + 1)
    )
    if wide:  # normalised once, not twice
        np.testing.assert_allclose(got, host, rtol=1e-13, atol=1e-15)
    else:
        np.testing.assert_array_equal(got, host)
    np.testing.assert_allclose(got, tight, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
@pytest.mark.parametrize("boundary", ["clamp", "exclude"])
def test_long_axes_built_in_row_blocks_are_the_reference_matrix(kernel, boundary, monkeypatch):
    # blocks of 5 rows: bands of different widths, widened and moved left at the input's end
    monkeypatch.setattr(band_taps, "HOST", dataclasses.replace(HOST, chunk_rows=5))
    called = _spy(monkeypatch, "_stack_bands")
    for x, in_size, stretch in [
        (_half_pixel(13, 47), 13, 1.0),
        (_half_pixel(47, 13), 47, 47 / 13),
        (_rational(6, 23), 6, 1.0),
        (np.linspace(-3.7, 9.2, 31), 7, 1.5),
    ]:
        support = kernel.support(stretch)
        record = weights.filter_taps(x, in_size, kernel, stretch=stretch, boundary=boundary, normalize=True)
        want = _reference(
            x, in_size, kernel, stretch=stretch, boundary=boundary, normalize=True, half=math.ceil(support) + 1
        )
        if boundary == "exclude" and 2 * (math.ceil(support) + 1) > min(in_size + 4, HOST.wide_window):
            np.testing.assert_allclose(records.record_matrix(record), want, rtol=1e-13, atol=1e-15)  # the wide band
        else:
            np.testing.assert_array_equal(records.record_matrix(record), want)
    assert called == ["_stack_bands"] * 4


def test_rows_beyond_the_reach_read_the_edge_exactly():
    # coordinates are clipped to just past the window's reach, where every row reads the edge
    # pixel: at 1e17 the reference's distances tap - x round to 0 (its 6 taps weigh 1 each)
    x = np.array([-50.3, 1e17, 1e30, 12.6])
    kernel = kernels.keys_cubic(-0.5)
    got = records.record_matrix(weights.filter_taps(x, 6, kernel))
    np.testing.assert_array_equal(got, np.eye(6)[[0, 5, 5, 5]])
    reference = _reference(x, 6, kernel, stretch=1.0, boundary="clamp", normalize=False, half=3)
    np.testing.assert_array_equal(reference[1:3], 6 * np.eye(6)[[5, 5]])


@pytest.mark.parametrize("case", range(40))
def test_compact_window_is_the_folded_matrix(case):
    # oracle: numpy's np.add.at of the clamped taps into a dense matrix (sequential per entry)
    rng = np.random.default_rng(case)
    in_size, out_size, n = int(rng.integers(1, 60)), int(rng.integers(1, 60)), int(rng.integers(1, 20))
    first = rng.integers(-12, in_size + 4, out_size)
    w = rng.standard_normal((out_size, n)) * (rng.random((out_size, n)) > 0.3)
    cols = np.clip(first[:, None] + np.arange(n), 0, in_size - 1)
    want = np.zeros((out_size, in_size))
    np.add.at(want, (np.repeat(np.arange(out_size), n), cols.ravel()), w.ravel())
    got = band_taps.compact_window(first, w, in_size)
    np.testing.assert_array_equal(records.taps_to_matrix(got.index, got.weight, in_size), want)
    assert (np.diff(got.index, axis=1) >= 0).all()  # a band
    # compact of the same taps in any column order of repeated positions: the same matrix
    got = band_taps.compact(cols.astype(np.int32), w, in_size)
    np.testing.assert_array_equal(records.taps_to_matrix(got.index, got.weight, in_size), want)


def test_compact_window_far_outside_the_input():
    # windows at +-1e30 (a translation or roi of 1e30): every tap clamps to an edge pixel
    w = np.array([[0.25, 0.75], [0.5, 0.5]])
    got = band_taps.compact_window(np.array([-1e30, 1e30]), w, 4)
    want = np.zeros((2, 4))
    want[0, 0], want[1, 3] = 1.0, 1.0  # np.add.at of the clamped taps, summed by hand
    np.testing.assert_array_equal(records.taps_to_matrix(got.index, got.weight, 4), want)


def test_phase_classes_group_rows_by_exact_distance():
    # the class key is the exact difference ceil(x) - x (TwoSum), not its rounding: 2**53 + 2 - x
    # rounds the same for x = 0.25 and x = 0.5, but the rows' distances differ
    s, e = band_taps.exact_difference(np.array([2.0**53 + 2] * 2), np.array([0.25, 0.5]))
    assert s[0] == s[1] and e[0] != e[1]
    keys = [np.repeat([0.5, 0.25, 0.5], 8), np.zeros(24), np.repeat([0, 0, 1], 8)]
    first, inverse = band_taps.row_classes(keys)
    np.testing.assert_array_equal(first, [8, 0, 16])
    np.testing.assert_array_equal(inverse, np.repeat([1, 0, 2], 8))
    assert band_taps.row_classes([np.arange(24.0)]) is None  # every row its own class: nothing shared
