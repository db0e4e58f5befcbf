"""Consecutive passes as one map (:class:`~jax_resize._src.chain.Chain`), blocked on CPU.

Contract: a chain gives the passes' values in turn; on CPU, above the CPU row's ``block_min_bytes`` of
intermediate, with a first band that runs as the row loop and bands after it, it runs as a loop
over blocks of the first pass's output rows that writes every output row exactly once (blocks and
remainder pieces), with the same values,
gradients (the chain of transposes), ``vmap`` and NaN locality as the passes apart; below the
threshold, with a polyphase pass or a gather first (a gradient's transposed band), it is not
blocked.

Oracles: numpy indexing (one-hot taps select rows), ``jax.image.resize`` in float64 (values,
gradients), the ONNX reference evaluator (uint8 in and out, exactly), the count of while loops in
the compiled program.
"""

import jax
import jax.numpy as jnp
import numpy as np
import onnx_oracles as O
import pytest
from conftest import reference_resize
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from jax_resize import onnx_resize, resize
from jax_resize._src.execution import banded as _banded
from jax_resize._src.execution import chain as _chain
from jax_resize._src.execution import polyphase as _polyphase
from jax_resize._src.execution import primitive as _primitive
from jax_resize._src.execution import tuning as _tuning

RNG = np.random.default_rng(11)


@pytest.fixture
def blocked(monkeypatch, tune):
    """Blocking from any size, in blocks of a few rows (remainder pieces included), with the row
    loop wherever eligible: fresh compilations, as both are decided when a program is lowered."""
    # one output row per block unless a test says
    tune(block_min_bytes=0, block_bytes=1, row_loop_max_threads=1 << 20)
    jax.clear_caches()
    yield tune
    jax.clear_caches()


def _while_loops(fn, x) -> int:
    return jax.jit(fn).lower(x).compile().as_text().count(" while(")


def _one_hot(pick: np.ndarray, in_size: int):
    """Band taps that copy input row ``pick[o]`` to output row ``o`` (2 taps, one of weight 0)."""
    index = np.stack([pick, (pick + 1) % in_size], axis=1).astype(np.int32)
    weight = np.zeros(index.shape, np.float32)
    weight[:, 0] = 1
    return jnp.asarray(index), jnp.asarray(weight)


@pytest.mark.parametrize("rows_per_block", [1, 3, 4, 7, 11])
@pytest.mark.parametrize("batched", [False, True])
def test_blocks_write_every_output_row_once(blocked, rows_per_block, batched):
    x = RNG.standard_normal((3, 23, 17, 2) if batched else (23, 17, 2)).astype(np.float32)
    lead = x.ndim - 3
    pick_h, pick_w = RNG.integers(0, 23, 11), RNG.integers(0, 17, 9)
    ops = [*_one_hot(pick_h, 23), *_one_hot(pick_w, 17)]
    row_bytes = 17 * 2 * 4 * (3 if batched else 1)  # one output row of the first pass, float32
    # only a row-loop first pass is blocked
    blocked(block_bytes=rows_per_block * row_bytes, row_loop_min_run=1, row_loop_min_taps=1)
    cpu = _tuning.TUNING["cpu"]
    chain = _chain.Chain(
        (_banded.Banded((lead,), rows=True, tuning=cpu), _banded.Banded((lead + 1,), tuning=cpu)), (2, 2), cpu
    )
    fn = jax.jit(lambda v: _primitive.linear_map(v, chain, ops, chain, ops))
    blocks = chain.parts[0].row_blocks(jnp.asarray(x), ops[:2], cpu.block_bytes)
    assert (blocks.rows, blocks.count) == (rows_per_block, 11 // rows_per_block)
    assert [row for row, _ in blocks.pieces] == ([11 // rows_per_block * rows_per_block] if 11 % rows_per_block else [])
    want = x[..., pick_h, :, :][..., pick_w, :]
    np.testing.assert_array_equal(np.asarray(fn(x)), want)
    np.testing.assert_array_equal(np.asarray(chain(jnp.asarray(x), *ops)), want)  # the passes in turn


# [H, W, 3] with rows of W * 3 >= row_loop_min_run: a narrow first pass followed by a band XLA would
# fuse (the row loop), and a wide one (31 taps); both take the row loop inside the blocks
CASES = [((1200, 800, 3), (460, 307, 3), "cubic"), ((600, 400, 3), (40, 30, 3), "linear")]


@pytest.mark.parametrize("shape,out,method", CASES)
def test_blocked_uint8_photo_matches_jax_image_and_torch(blocked, shape, out, method):
    blocked(block_bytes=7 * shape[1] * shape[2] * 4)  # 7 rows a block, and a remainder
    a = RNG.integers(0, 256, shape, dtype=np.uint8)
    fn = jax.jit(lambda v: resize(v, out, method, antialias=True))  # uint8 in, float32 out
    assert _while_loops(fn, jnp.asarray(a)) >= 2  # the blocks' loop around the row loop
    with jax.enable_x64(True):
        want = np.asarray(jax.image.resize(a.astype(np.float64), out, method, antialias=True))
    np.testing.assert_allclose(np.asarray(fn(a)), want, atol=2e-4, rtol=0)
    if method == "linear":  # uint8 in, uint8 out: the ONNX reference evaluator, exactly
        fn = jax.jit(lambda v: onnx_resize(v, sizes=list(out[:2]), axes=[0, 1], mode="linear", antialias=1))
        assert _while_loops(fn, jnp.asarray(a)) >= 2
        node = helper.make_node("Resize", ["X", "", "", "S"], ["Y"], mode="linear", antialias=1, axes=[0, 1])
        inputs = [helper.make_tensor_value_info("X", TensorProto.UINT8, None)]
        inputs.append(helper.make_tensor_value_info("S", TensorProto.INT64, None))
        graph = helper.make_graph(
            [node], "resize", inputs, [helper.make_tensor_value_info("Y", TensorProto.UINT8, None)]
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
        (want,) = ReferenceEvaluator(model).run(None, {"X": a, "S": np.array(out[:2], np.int64)})
        np.testing.assert_array_equal(np.asarray(fn(a)), want)


@pytest.mark.parametrize("method", ["linear", "cubic"])
def test_blocked_values_gradients_and_vmap_match_jax_image(blocked, method):
    x = RNG.standard_normal((2, 600, 400, 3)).astype(np.float32)
    out = (2, 40, 30, 3)
    blocked(block_bytes=3 * 2 * 400 * 3 * 4)  # 3 rows a block, and a remainder
    fn = jax.jit(lambda v: resize(v, out, method, antialias=True))
    assert _while_loops(fn, jnp.asarray(x)) >= 2
    want = np.asarray(jax.image.resize(x, out, method, antialias=True))
    np.testing.assert_allclose(np.asarray(fn(x)), want, atol=2e-6, rtol=0)
    batched = jax.jit(jax.vmap(lambda v: resize(v, out[1:], method, antialias=True)))(jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(batched), want, atol=2e-6, rtol=0)
    g = RNG.standard_normal(out).astype(np.float32)

    def grad(f):
        return np.asarray(jax.jit(jax.grad(lambda v: jnp.sum(f(v) * g)))(jnp.asarray(x)))

    got = grad(lambda v: resize(v, out, method, antialias=True))
    np.testing.assert_allclose(got, grad(lambda v: jax.image.resize(v, out, method, antialias=True)), atol=2e-6)


def test_blocked_keeps_nan_local(blocked):
    x = RNG.standard_normal((600, 400, 3)).astype(np.float32)
    want = np.asarray(jax.image.resize(x, (40, 30, 3), "linear", antialias=True))  # the clean image
    x[0, 7] = np.nan  # input row 0 lies in the first output row's window only
    got = np.asarray(jax.jit(lambda v: resize(v, (40, 30, 3), "linear", antialias=True))(x))
    assert np.isnan(got[0]).any() and not np.isnan(got[1:]).any()
    np.testing.assert_allclose(got[1:], want[1:], atol=2e-6, rtol=0)


def test_blocking_applies_from_its_threshold_with_bands_only(tune):
    tune(row_loop_max_threads=1 << 20)
    jax.clear_caches()
    photo = jax.ShapeDtypeStruct((3000, 4000, 3), np.uint8)  # 12 MP: a 37 MB float32 intermediate
    text = jax.jit(lambda v: resize(v, (768, 1024, 3), "linear", antialias=True)).lower(photo).compile().as_text()
    assert text.count(" while(") >= 2  # the blocks around the row loop
    small = jax.ShapeDtypeStruct((1200, 800, 3), np.uint8)  # a 4.4 MB intermediate: the row loop alone
    assert _while_loops(lambda v: resize(v, (460, 307, 3), "cubic", antialias=True), small) == 1
    tune(block_min_bytes=0)
    jax.clear_caches()
    assert _while_loops(lambda v: resize(v, (460, 307, 3), "cubic", antialias=True), small) >= 2
    # x0.5 in both axes: two polyphase passes, never blocked
    assert _while_loops(lambda v: resize(v, (600, 400, 3), "linear", antialias=True), small) == 0
    jax.clear_caches()


@pytest.fixture
def fused(monkeypatch, tune):
    """Two one-phase polyphase passes fused from any size; records how many axes each
    ``polyphase_nd`` call resamples at once."""
    tune(block_min_bytes=0)
    calls = _count_axes_at_once(monkeypatch)
    jax.clear_caches()
    yield calls
    jax.clear_caches()


def _count_axes_at_once(monkeypatch) -> list:
    """Records, per ``polyphase_nd`` call, how many axes it resamples."""
    calls: list = []
    nd = _polyphase.polyphase_nd
    monkeypatch.setattr(
        _polyphase,
        "polyphase_nd",
        lambda x, parts, dtype, chains: calls.append(len(parts)) or nd(x, parts, dtype, chains),
    )
    return calls


@pytest.mark.parametrize(
    "shape,axes,sizes,attrs",
    [
        ((64, 96, 3), [0, 1], (32, 48), dict(mode="linear", antialias=1)),  # 4 x 4 taps
        ((2, 60, 90, 3), [1, 2], (20, 30), dict(mode="linear")),  # x1/3: 2 x 2 taps, a batch axis
        ((40, 60, 3), [0, 1], (20, 30), dict(mode="cubic", exclude_outside=1)),  # per-period edge weights
        ((1, 3, 32, 40), [2, 3], (16, 20), dict(mode="linear", antialias=1)),  # NCHW: the last two axes
    ],
)
def test_fused_decimation_uint8_matches_onnx_reference(fused, shape, axes, sizes, attrs):
    # uint8 in and out, both axes' terms read straight from the input: onnx_oracles.judge, i.e.
    # round half to even of the float64 spec result, saturated (the reference evaluator's integer
    # output agrees); the other neighbour only within float32's derived reach of a .5 tie
    a = RNG.integers(0, 256, shape, dtype=np.uint8)
    fn = jax.jit(lambda v: onnx_resize(v, sizes=list(sizes), axes=axes, **attrs))
    got = np.asarray(fn(a))
    assert 2 in fused  # both axes at once
    case = O.ResizeCase("fused", a, sizes=np.array(sizes, np.int64), attrs=dict(axes=axes, **attrs))
    judged = O.judge(case, reference_resize(a, sizes=list(sizes), axes=axes, **attrs), got)
    assert judged.cmp.ok, judged.cmp.msg
    assert judged.windowed <= got.size // 100  # 99 % or more judged exactly
    if attrs == dict(mode="linear", antialias=1):  # x0.5, weights k/8: every sum is exact in float32
        np.testing.assert_array_equal(got, reference_resize(a, sizes=list(sizes), axes=axes, **attrs))


def test_fused_values_gradients_vmap_and_nan_match_jax_image(fused):
    x = RNG.standard_normal((2, 64, 96, 3)).astype(np.float32)
    out = (2, 32, 48, 3)
    fn = jax.jit(lambda v: resize(v, out, "linear", antialias=True))
    want = np.asarray(jax.image.resize(x, out, "linear", antialias=True))
    np.testing.assert_allclose(np.asarray(fn(x)), want, atol=2e-6, rtol=0)
    assert 2 in fused
    batched = jax.jit(jax.vmap(lambda v: resize(v, out[1:], "linear", antialias=True)))(jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(batched), want, atol=2e-6, rtol=0)
    g = RNG.standard_normal(out).astype(np.float32)

    def grad(f):
        return np.asarray(jax.jit(jax.grad(lambda v: jnp.sum(f(v) * g)))(jnp.asarray(x)))

    got = grad(lambda v: resize(v, out, "linear", antialias=True))
    np.testing.assert_allclose(got, grad(lambda v: jax.image.resize(v, out, "linear", antialias=True)), atol=2e-6)
    # NaN reaches exactly the outputs whose window holds the pixel (jax.image's response to it)
    one_hot = np.zeros(x.shape[1:], np.float64)
    one_hot[0, 7, 1] = 1
    with jax.enable_x64(True):
        reach = np.asarray(jax.image.resize(one_hot, out[1:], "linear", antialias=True)) != 0
    y = x[0].copy()
    y[0, 7, 1] = np.nan
    got = np.asarray(jax.jit(lambda v: resize(v, out[1:], "linear", antialias=True))(y))
    np.testing.assert_array_equal(np.isnan(got), reach)
    np.testing.assert_allclose(got[~reach], want[0][~reach], atol=2e-6, rtol=0)


def test_fusion_applies_to_large_few_term_decimations_only(monkeypatch):
    calls = _count_axes_at_once(monkeypatch)
    jax.clear_caches()

    def axes_at_once(shape, out, method):
        calls.clear()
        fn = jax.jit(lambda v: onnx_resize(v, sizes=list(out), axes=[0, 1], mode=method, antialias=1))
        fn.lower(jax.ShapeDtypeStruct(shape, np.uint8)).compile()
        return max(calls, default=0)

    assert axes_at_once((2160, 3840, 3), (1080, 1920), "linear") == 2  # 4K x0.5: a 50 MB intermediate
    assert axes_at_once((1080, 1920, 3), (540, 960), "linear") == 1  # 12 MB: the passes in turn
    assert axes_at_once((2160, 3840, 3), (1080, 1920), "cubic") == 1  # 8 x 8 = 64 terms
    assert axes_at_once((1080, 1920, 3), (2160, 3840), "linear") == 1  # x2: two phases an axis
    jax.clear_caches()
