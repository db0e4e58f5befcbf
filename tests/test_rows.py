"""Runtime-sized row loops (``execution/rows.py``) and the CPU row's choice of them.

Oracles: float64 numpy sums of the taps (``records.taps_to_matrix``), exact integer sums, the
dense matrix's transpose for gradients; for the contract (padding changes no value's arithmetic)
the same loop on the unpadded arrays, bit for bit; for the choice, the tuning row's thresholds."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jax_resize
from jax_resize._src import records
from jax_resize._src.execution import apply, decide, rows, strategies, tuning
from jax_resize._src.peers import onnx as _onnx

CPU = tuning.TUNING["cpu"]


def _taps(rng, n, o, k, zeros=0.2):
    index = rng.integers(0, n, (o, k)).astype(np.int32)
    weight = rng.normal(size=(o, k))
    weight[rng.random((o, k)) < zeros] = 0.0
    return index, weight


def test_compact_moves_the_nonzero_taps_first_in_their_order():
    index = np.array([[3, 4, 5, 6], [0, 1, 2, 3]])
    weight = np.array([[0.0, 0.5, 0.0, 0.25], [1.0, -0.0, 2.0, 3.0]])
    i, w, c = rows.compact(index, weight)
    np.testing.assert_array_equal(c, [2, 3])
    np.testing.assert_array_equal(i[0, :2], [4, 6])
    np.testing.assert_array_equal(w[0, :2], [0.5, 0.25])
    np.testing.assert_array_equal(i[1, :3], [0, 2, 3])
    np.testing.assert_array_equal(w[1, :3], [1.0, 2.0, 3.0])
    assert i.shape == w.shape == (2, 4)


@pytest.mark.parametrize("shape,axis", [((23, 7, 3), 0), ((9, 31, 2), 1), ((5, 4, 40), 2), ((40,), 0)])
def test_rows_match_float64_sums(shape, axis):
    rng = np.random.default_rng([5, *shape, axis])
    index, weight = _taps(rng, shape[axis], 13, 6)
    x = rng.normal(size=shape).astype(np.float32)
    i, w, c = rows.compact(index, weight.astype(np.float32))
    got = np.asarray(jax.jit(rows.rows_traced, static_argnums=(4, 5))(x, i, w, c, axis, 64))
    matrix = records.taps_to_matrix(index, weight.astype(np.float32).astype(np.float64), shape[axis])
    want = np.moveaxis(np.tensordot(matrix, np.moveaxis(x.astype(np.float64), axis, 0), 1), 0, axis)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())


def test_integer_input_and_integer_weights_are_exact():
    rng = np.random.default_rng(7)
    x = rng.integers(0, 256, (50, 17, 3)).astype(np.uint8)
    index = rng.integers(0, 50, (20, 5)).astype(np.int32)
    weight = rng.integers(-4096, 4096, (20, 5)).astype(np.int32)
    got = np.asarray(rows.rows_traced(jnp.asarray(x), *rows.compact(index, weight), 0, 2048))
    assert got.dtype == np.int32
    want = np.einsum("ok,okwc->owc", weight.astype(np.int64), x[index].astype(np.int64))
    np.testing.assert_array_equal(got, want)


def test_a_nan_reaches_only_the_outputs_that_weight_it():
    index = np.array([[0, 1], [1, 2], [2, 3]], np.int32)
    weight = np.array([[0.5, 0.5], [0.0, 1.0], [1.0, 0.0]], np.float32)  # input 1 has a zero weight in row 1
    x = np.ones((4, 8), np.float32)
    x[1] = np.nan
    got = np.asarray(rows.rows_traced(x, *rows.compact(index, weight), 0, 2048))
    assert np.isnan(got[0]).all() and np.isfinite(got[1:]).all()


def test_real_length_ends_at_the_last_real_value():
    assert rows.real_length((10, 8, 3), (10, 5, 3), 0) == 15  # [w, c] rows: 5 * 3 first
    assert rows.real_length((6, 8, 3), (4, 5, 3), 1) == 12  # [h, c] rows after moving w out
    assert rows.real_length((2, 9, 8, 3), (2, 7, 5, 3), 1) == (1 * 8 + 4) * 3 + 2 + 1  # a padded inner axis
    assert rows.real_length((4, 8), (4, 0), 0) == 0


@pytest.mark.parametrize("length", [1, 7, 8, 9, 33, 301])
def test_padding_changes_no_value(length):
    # the contract: the padded input rows, row length, output rows and -0.0 tap columns of a shared
    # program leave every value's chain of multiply-adds as it was
    rng = np.random.default_rng([11, length])
    n, o, k = 37, 19, 7
    index, weight = _taps(rng, n, o, k)
    weight = weight.astype(np.float32)
    x = rng.normal(size=(n, length)).astype(np.float32)
    run = jax.jit(rows.rows_traced, static_argnums=(4, 5))
    own = np.asarray(run(x, *rows.compact(index, weight), 0, 16))
    big = np.zeros((64, length + 29), np.float32)
    big[:n, :length] = x
    pad = ((0, 13), (0, 9))
    p_index, p_weight = np.pad(index, pad), np.pad(weight, pad, constant_values=-0.0)
    # blocks of 16: the real values end inside a block, the last block moved back where it passes the end
    length_ = rows.real_length(big.shape, x.shape, 0)
    assert length_ == length
    padded = np.asarray(run(big, *rows.compact(p_index, p_weight), 0, 16, np.int32(length_)))
    np.testing.assert_array_equal(padded[:o, :length].view(np.uint32), own.view(np.uint32))
    assert not padded[o:].any()


def test_gradient_and_vmap_through_the_primitive():
    rng = np.random.default_rng(3)
    index, weight = _taps(rng, 30, 12, 4, zeros=0.0)
    record = records.Taps(index, weight, 30)
    plan = strategies.plan(0, record, "rows", np.float32, CPU)
    assert isinstance(plan, strategies.RowsPlan)
    x = rng.normal(size=(30, 5)).astype(np.float32)
    g = rng.normal(size=(12, 5)).astype(np.float32)

    def f(v):
        return strategies.apply_pass(v, [plan], None, False, CPU)

    _, pullback = jax.vjp(f, jnp.asarray(x))
    matrix = records.taps_to_matrix(index, weight.astype(np.float32).astype(np.float64), 30)
    np.testing.assert_allclose(pullback(jnp.asarray(g))[0], matrix.T @ g, rtol=1e-5, atol=1e-5)
    batch = rng.normal(size=(3, 30, 5)).astype(np.float32)
    np.testing.assert_allclose(jax.vmap(f)(batch), np.stack([f(b) for b in batch]), rtol=0, atol=0)


def _ops(shape, out, mode="linear", antialias=True):
    return [
        (a, _onnx.axis_record(n, o, o / n, mode=mode, coordinate_transformation_mode="half_pixel", antialias=antialias))
        for a, (n, o) in enumerate(zip(shape, out))
        if n != o
    ]


def test_the_cpu_row_chooses_rows_for_photos_only():
    photo = _ops((600, 500, 3), (224, 224, 3))
    assert decide.rows_strategy(photo, (600, 500, 3), "auto", CPU) == "rows"
    assert decide.rows_strategy(photo, (600, 500, 3), "banded", CPU) == "banded"
    for accelerator in ("gpu", "tpu"):
        assert decide.rows_strategy(photo, (600, 500, 3), "auto", tuning.TUNING[accelerator]) == "auto"
    signal = _ops((1000,), (300,))  # rows of one element: the loop's overhead would dominate
    assert decide.rows_strategy(signal, (1000,), "auto", CPU) == "auto"
    wide = _ops((20000, 4), (100, 4))  # 200 + taps per output
    assert wide[0][1].width > CPU.rows_max_taps
    assert decide.rows_strategy(wide, (20000, 4), "auto", CPU) == "auto"
    nearest = _ops((600, 500, 3), (224, 224, 3), mode="nearest")
    assert decide.rows_strategy(nearest, (600, 500, 3), "auto", CPU) == "auto"


def _bits(y):
    y = np.asarray(y)
    return y.view(np.uint8 if y.dtype.itemsize == 1 else f"u{y.dtype.itemsize}")


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float16, np.int16])
def test_a_photo_call_gives_its_bits_on_every_call_and_under_jit(dtype):
    rng = np.random.default_rng([13, np.dtype(dtype).itemsize])
    x = rng.integers(0, 200, (313, 271, 3)).astype(dtype)
    out = (97, 131, 3)

    def call(v):
        return jax_resize.resize(v, out, "cubic", antialias=True)

    first = _bits(call(x))
    for _ in range(5):
        np.testing.assert_array_equal(_bits(call(x)), first)
    with jax_resize.exact_shapes():
        np.testing.assert_array_equal(_bits(call(x)), first)
    np.testing.assert_array_equal(_bits(jax.jit(call)(x)), first)


def test_a_photo_runs_as_row_loops_on_cpu():
    shape, out = (600, 500, 3), (224, 224, 3)
    ops = _ops(shape, out)
    text = jax.jit(lambda v: apply.run(v, ops)).lower(jax.ShapeDtypeStruct(shape, np.uint8)).as_text()
    assert text.count("stablehlo.while") >= 4  # two passes, each rows and taps
