"""Records: the record types, their matrices, the memoiser and the lazily expanded shared band.

Oracles: explicit arrays written out here (one-hot rows, ``start + arange`` bands, row-by-row
sums) and, for the shared band, Pillow's window formula evaluated row by row in plain Python.
"""

import dataclasses

import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize._src import clipped_windows, kernels, records


def test_memoized_returns_the_same_read_only_record():
    calls = []

    @records.memoized
    def build(in_size, out_size):
        calls.append((in_size, out_size))
        return records.Taps(np.zeros((out_size, 2), np.int32), np.ones((out_size, 2)), in_size)

    build.cache_clear()
    first, again = build(4, 3), build(4, 3)
    assert first is again and calls == [(4, 3)]
    assert not first.index.flags.writeable and not first.weight.flags.writeable
    with pytest.raises(ValueError):
        first.weight[0, 0] = 2.0
    assert build(4, 5) is not first and calls == [(4, 3), (4, 5)]


def test_memoized_builds_afresh_for_unhashable_arguments():
    @records.memoized
    def build(index):
        return records.Gather(np.asarray(index), 4)

    a, b = build(np.array([0, 1])), build(np.array([0, 1]))
    assert a is not b and a.index.flags.writeable  # not cached, so not frozen


def test_shared_band_expands_to_the_explicit_band():
    # rows 0..5 alternate two patterns; each row's band starts at start[o]
    start = np.array([0, 1, 3, 4, 6, 7])
    row_class = np.array([0, 1, 0, 1, 0, 1])
    table = np.array([[0.25, 0.75, 0.0], [0.5, 0.25, 0.25]])
    band = records.shared_band(start, row_class, table, 10)
    assert isinstance(band, records.SharedBand) and band.out_size == 6 and band.width == 3
    np.testing.assert_array_equal(band.index, start[:, None] + np.arange(3)[None, :])
    np.testing.assert_array_equal(band.weight, table[row_class])
    assert band.index.dtype == np.int32 and not band.index.flags.writeable and not band.weight.flags.writeable
    assert band.constant and band.index is band.index  # expanded once
    explicit = records.Taps(start[:, None] + np.arange(3)[None, :], table[row_class], 10)
    np.testing.assert_array_equal(records.record_matrix(band), records.record_matrix(explicit))


def test_shared_band_of_distinct_narrow_rows_is_plain_taps():
    start, row_class, table = np.array([0, 2]), np.array([0, 1]), np.array([[1.0, 0.0], [0.5, 0.5]])
    band = records.shared_band(start, row_class, table, 4)
    assert type(band) is records.Taps
    np.testing.assert_array_equal(band.index, [[0, 1], [2, 3]])
    np.testing.assert_array_equal(band.weight, table)


def test_record_matrix_of_a_gather_is_one_hot():
    record = records.Gather(np.array([2, 0, 0, 3]), 4, outside=np.array([False, False, True, False]))
    want = np.array([[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]], np.float64)
    np.testing.assert_array_equal(records.record_matrix(record), want)


def test_taps_to_matrix_sums_repeated_taps_and_numpy_and_jax_agree():
    index = np.array([[0, 0, 1], [2, 3, 3]], np.int32)
    weight = np.array([[0.25, 0.25, 0.5], [0.125, 0.375, 0.5]])
    want = np.array([[0.5, 0.5, 0, 0], [0, 0, 0.125, 0.875]])
    np.testing.assert_array_equal(records.taps_to_matrix(index, weight, 4), want)
    got = records.taps_to_matrix(jnp.asarray(index), jnp.asarray(weight, jnp.float32), 4, xp=jnp)
    np.testing.assert_array_equal(np.asarray(got), want.astype(np.float32))


def test_empty_records():
    gather = records.empty(0, 3, gather=True)
    assert isinstance(gather, records.Gather) and gather.out_size == 3 and gather.in_size == 0
    taps = records.empty(5, 0, gather=False)
    assert isinstance(taps, records.Taps) and taps.out_size == 0 and taps.width == 1


@pytest.mark.parametrize("rows,width,elements", [(7, 5, 6), (3, 100, 37), (50, 2, 1 << 14), (1, 1, 1)])
def test_tiles_cover_the_band_once(rows, width, elements, monkeypatch):
    monkeypatch.setattr(records, "HOST", dataclasses.replace(records.HOST, tile_elements=elements))
    seen = np.zeros((rows, width), int)
    for r, c0, c1 in records.tiles(rows, width):
        seen[r, c0:c1] += 1
    np.testing.assert_array_equal(seen, 1)


def test_shared_band_matches_the_window_formula_and_expands_on_demand():
    # a 1000x shrink: rows away from the edges repeat one pattern (records.SharedBand); oracle:
    # clipped_window_taps's formula evaluated row by row in plain Python (a C loop's window rule)
    in_size, out_size, scale = 12000, 12, 1000.0
    kernel = kernels.lanczos(3)
    center = (np.arange(out_size) + 0.5) * scale
    record = records._freeze(clipped_windows.clipped_window_taps(center, scale, in_size, kernel))
    assert isinstance(record, records.SharedBand) and record.table.shape[0] < out_size
    assert not record._expanded  # freezing does not expand the rows
    support = 3 * scale
    want = np.zeros((out_size, in_size))
    for o, c in enumerate(center):
        lo, hi = max(int(c - support + 0.5), 0), min(int(c + support + 0.5), in_size)
        w = [float(kernel(np, np.float64((j - c + 0.5) / scale), 1.0)) for j in range(lo, hi)]
        want[o, lo:hi] = np.array(w) / sum(w)
    np.testing.assert_allclose(records.record_matrix(record), want, rtol=0, atol=1e-15)
    assert not record.weight.flags.writeable and not record.index.flags.writeable
    doubled = record.map_weights(lambda w: 2 * w)
    assert isinstance(doubled, records.SharedBand)
    np.testing.assert_array_equal(doubled.weight, 2 * record.weight)
    flagged = record.with_outside(np.arange(out_size) == 0)
    assert isinstance(flagged, records.SharedBand) and flagged.outside[0] and not flagged.outside[1:].any()
    assert record.width == record.index.shape[1] and record.out_size == out_size


def test_matrix_band_holds_the_matrix_entries():
    """``matrix_band`` is ``taps_to_matrix``'s nonzero band, entries bit for bit (duplicate taps
    summed in the same order), outputs x width values instead of outputs x inputs."""
    rng = np.random.default_rng(46)
    index = np.clip(rng.integers(-2, 6, (7, 5)) + np.arange(7)[:, None] * 3, 0, 24).astype(np.int32)
    weight = rng.standard_normal((7, 5))
    W = records.taps_to_matrix(index, weight, 25)
    start, band = records.matrix_band(index, weight)
    assert band.shape == (7, int((index.max(1) - index.min(1)).max()) + 1)
    rebuilt = np.zeros_like(W)
    for o in range(7):
        rebuilt[o, start[o] : start[o] + band.shape[1]] = band[o, : 25 - start[o]]
    np.testing.assert_array_equal(rebuilt, W)


def test_rows_cut_every_kind_of_record_to_those_outputs():
    band = records.SharedBand(
        np.array([0, 1, 2, 3, 4]), np.array([0, 1, 0, 1, 0]), np.array([[0.25, 0.75], [0.5, 0.5]]), 6
    )
    taps = records.Taps(band.index.copy(), band.weight.copy(), 6, np.array([True, False, False, False, True]))
    gather = records.Gather(np.array([5, 4, 3, 2, 1]), 6, np.array([False, True, False, True, False]))
    for record in (band, taps, gather):
        cut = records.rows(record, 1, 4)
        assert type(cut) is type(record) and cut.out_size == 3 and cut.in_size == 6
        np.testing.assert_array_equal(cut.index, record.index[1:4])
        if not isinstance(record, records.Gather):
            np.testing.assert_array_equal(cut.weight, record.weight[1:4])
        if record.outside is not None:
            np.testing.assert_array_equal(cut.outside, record.outside[1:4])
