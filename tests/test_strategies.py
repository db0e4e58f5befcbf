"""Apply strategies: equal results, NaN/Inf locality, long axes without dense matrices.

Oracles: the dense strategy (the plain matmul) for equality across strategies, the ONNX reference
for values, and hand-derived filter supports / numpy slicing for locality and long axes.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import reference_resize

from jax_resize import onnx_resize, resize
from jax_resize._src.execution import banded as _banded
from jax_resize._src.execution import decide as _decide
from jax_resize._src.execution import strategies as _strategies
from jax_resize._src.execution.tuning import TUNING

STRATEGIES = [s for s in _decide.STRATEGY_NAMES if s != "auto"]
RNG = np.random.default_rng(0)


@pytest.mark.parametrize("case", range(40))
def test_strategies_agree_on_random_cases(case):
    rng = np.random.default_rng(case)
    rank = int(rng.integers(1, 5))
    shape = tuple(int(s) for s in rng.integers(1, 9, rank))
    x = rng.standard_normal(shape).astype(np.float32)
    mode = ["linear", "cubic"][case % 2]
    sizes = [int(s) for s in rng.integers(1, 17, rank)]
    kw = dict(
        sizes=sizes,
        mode=mode,
        antialias=int(rng.integers(2)),
        exclude_outside=int(rng.integers(2)),
        coordinate_transformation_mode=str(rng.choice(["half_pixel", "align_corners", "asymmetric"])),
    )
    want = reference_resize(x, **kw)
    results = {s: np.asarray(onnx_resize(x, strategy=s, **kw)) for s in STRATEGIES}
    for s, got in results.items():
        np.testing.assert_allclose(got, results["dense"], rtol=1e-6, atol=1e-6 * np.abs(x).max(), err_msg=s)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=s)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("method,radius", [("linear", 1), ("cubic", 2)])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nonfinite_input_stays_local(strategy, method, radius, bad):
    x = RNG.uniform(0, 1, (64, 64)).astype(np.float32)
    x[20, 30] = bad
    y = np.asarray(resize(x, (128, 128), method, strategy=strategy))
    # half_pixel x2: output o samples x = o / 2 - 0.25; the kernel reaches pixel p iff |x - p| < radius
    o = np.arange(128)
    rows = np.abs(o / 2 - 0.25 - 20) < radius
    cols = np.abs(o / 2 - 0.25 - 30) < radius
    support = rows[:, None] & cols[None, :]
    assert np.all(np.isfinite(y[~support]))
    assert not np.any(np.isfinite(y[support]))
    if np.isnan(bad):
        assert np.all(np.isnan(y[support]))
    else:
        assert np.all(np.isinf(y[support]))


def test_forced_dense_refuses_huge_matrices():
    x = np.zeros(1 << 20, np.float32)
    with pytest.raises(ValueError, match="strategy='dense' would build"):
        onnx_resize(x, scales=[0.5], mode="linear", strategy="dense")
    with pytest.raises(ValueError, match="strategy='bogus'.*allowed"):
        onnx_resize(x[:8], scales=[0.5], mode="linear", strategy="bogus")


def test_long_axis_values_and_memory():
    # 10**6 samples: a dense W would have 5 * 10**11 entries. Run in a fresh process to read its
    # peak resident memory (VmHWM); inputs + outputs are ~10 MB.
    code = textwrap.dedent(r"""
        import re, numpy as np, jax_resize
        # VmHWM belongs to this address space (ru_maxrss would carry the forking parent's peak)
        peak = lambda: int(re.search(r"VmHWM:\s*(\d+)", open("/proc/self/status").read()).group(1)) // 1024
        jax_resize.onnx_resize(np.zeros(8, np.float32), scales=[0.5], mode="linear")  # start XLA
        print(peak())
        n = 10**6
        a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
        y = np.asarray(jax_resize.onnx_resize(a, scales=[0.5], mode="linear"))
        # half_pixel 1/2: x = 2o + 0.5 -> mean of each pair
        assert y.shape == (n // 2,) and np.allclose(y, (a[0::2] + a[1::2]) / 2, atol=1e-6)
        z = np.asarray(jax_resize.onnx_resize(a, scales=[1.5], mode="linear"))
        xs = np.clip((np.arange(3 * n // 2) + 0.5) / 1.5 - 0.5, 0, n - 1)
        assert np.allclose(z, np.interp(xs, np.arange(n), a.astype(np.float64)), atol=1e-5)
        print(peak())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    start_mb, peak_mb = (int(v) for v in out.stdout.split()[-2:])
    # growth: the float64 host weights and the device buffers, all O(n); a dense W would be 2 TB
    assert peak_mb - start_mb < 1000, f"peak RSS {peak_mb} MB after starting at {start_mb} MB"


@pytest.mark.parametrize(
    "in_size,out_size,kw",
    [
        (64, 128, dict(nearest_mode="floor", coordinate_transformation_mode="asymmetric")),  # repeat x2
        (5, 15, dict()),  # repeat x3 (half_pixel, round_prefer_floor)
        (64, 32, dict(coordinate_transformation_mode="asymmetric")),  # stride 2 from 0
        (9, 3, dict()),  # stride 3 from 1
        (7, 5, dict()),  # irregular: a gather
    ],
)
def test_nearest_patterns_equal_gathers(in_size, out_size, kw):
    x = RNG.integers(-1000, 1000, (3, in_size, 2)).astype(np.int32)
    got = np.asarray(onnx_resize(x, sizes=[out_size], axes=[1], mode="nearest", **kw))
    want = reference_resize(x, sizes=[out_size], axes=[1], mode="nearest", **kw)
    np.testing.assert_array_equal(got, want)
    index = np.asarray(reference_resize(np.arange(in_size, dtype=np.int64), sizes=[out_size], mode="nearest", **kw))
    pattern = _strategies.index_pattern(index, in_size)
    assert (pattern is None) == ((in_size, out_size) == (7, 5))


def _wide_record(in_size=300, out_size=17):
    from jax_resize._src.peers import onnx as _onnx

    attrs = dict(mode="linear", coordinate_transformation_mode="half_pixel", antialias=True)
    return _onnx.axis_record(in_size, out_size, out_size / in_size, **attrs)


def test_auto_uses_banded_for_wide_filters_and_matches_reference():
    # a 300 -> 17 antialiased shrink has ~36 taps: banded on CPU/GPU (it reads integer input as it
    # is), dense on TPU; below the row's wide_min_taps polyphase is tried first as before
    record = _wide_record()
    assert record.index.shape[1] >= TUNING["cpu"].wide_min_taps
    assert isinstance(_strategies.plan(0, record, "auto", tuning=TUNING["cpu"]), _strategies.BandedPlan)
    assert isinstance(_strategies.plan(0, record, "auto", tuning=TUNING["tpu"]), _strategies.DensePlan)
    x = RNG.standard_normal((300, 5, 2)).astype(np.float32)
    kw = dict(sizes=[17], axes=[0], mode="linear", antialias=1)
    np.testing.assert_allclose(np.asarray(onnx_resize(x, **kw)), reference_resize(x, **kw), rtol=1e-5, atol=1e-5)


def _eqns(jaxpr):
    """Every equation of ``jaxpr``, nested jaxprs (pjit, cond, custom primitives) included."""
    for e in jaxpr.eqns:
        yield e
        for value in e.params.values():
            for sub in value if isinstance(value, (tuple, list)) else [value]:
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    yield from _eqns(inner)


def _full_converts(fn, u):
    """The converts of a whole input of ``u``'s shape to a float in ``fn``'s program lowered for
    this CPU (a trace holds every platform's branch; the lowering keeps the CPU's)."""
    import re

    import jax

    shape = "x".join(map(str, u.shape))
    text = jax.jit(fn).lower(u).as_text()
    return re.findall(rf"stablehlo.convert .*: \(tensor<{shape}x[ui]\d+>\) -> tensor<{shape}xf\d+>", text)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32])
def test_integer_first_pass_reads_the_input_without_a_float_copy(dtype):
    """Integer input keeps its dtype, is rounded half to even as the ONNX reference (exactly away
    from float32's reach of a tie) and is read by the first pass without a converted copy."""
    import jax

    info = np.iinfo(dtype)
    u = RNG.integers(max(info.min, -(2**20)), min(info.max, 2**20), (300, 40, 3)).astype(dtype)
    kw = dict(sizes=[17, 9], axes=[0, 1], mode="linear", antialias=1)
    exact = reference_resize(u.astype(np.float64), **kw)  # the float64 sum, before rounding
    want = np.clip(np.rint(exact), info.min, info.max)  # ONNX: half to even, saturated
    got = np.asarray(jax.jit(lambda v: onnx_resize(v, **kw))(u))
    assert got.dtype == dtype  # ONNX: the output keeps the integer input's dtype
    # float32 sums may fall either side of a .5 tie within a few ulps of the terms' magnitude
    # (sum |w| |x|, the non-negative weights' resize of |x|); everywhere else the rounding is exact
    magnitude = reference_resize(np.abs(u.astype(np.float64)), **kw)
    near_tie = np.abs(exact - np.floor(exact) - 0.5) <= 4 * np.finfo(np.float32).eps * magnitude
    assert np.count_nonzero(~near_tie) > got.size // 3  # a third or more judged exactly (int32: about half)
    diff = np.abs(got.astype(np.float64) - want)
    np.testing.assert_array_equal(diff[~near_tie], 0)
    assert diff.max() <= 1

    # no convert of the whole input in the traced program: the first pass takes it as it is
    assert not _full_converts(lambda v: onnx_resize(v, **kw), u)
    assert _full_converts(lambda v: onnx_resize(v, strategy="dense", **kw), u)  # the check sees converts


def test_resize_of_integer_input_reads_it_as_it_is_and_returns_float():
    # jax.image's rule: integer in -> float out, unrounded; read by the first pass, not copied
    import jax

    u = RNG.integers(0, 256, (300, 40, 3)).astype(np.uint8)
    got = resize(u, (17, 9, 3), "linear", antialias=True)
    want = jax.image.resize(u, (17, 9, 3), "linear", antialias=True)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-3)
    assert not _full_converts(lambda v: resize(v, (17, 9, 3), "linear", antialias=True), u)


def test_banded_skips_zero_weights_only_where_needed():
    # the `where` that keeps NaN local is emitted per tap column holding a zero weight, and never
    # for integer input (no NaN); that these masks keep NaN local is checked at the end of this test
    # (test_nonfinite_input_stays_local's x2 upsample has no zero-weight tap column)
    import jax

    record = _wide_record()
    zeros = _banded.zero_columns(record.weight)
    assert zeros == tuple(bool(v) for v in (record.weight == 0).any(axis=0))
    assert 0 < sum(zeros) < len(zeros)
    kw = dict(sizes=[17], axes=[0], mode="linear", antialias=1, strategy="banded")

    plan = _strategies.plan(0, record, "banded")
    assert plan.masked == zeros

    def selects(u):  # the forward implementation the plan's primitive lowers
        forward = _banded.Banded((0,), (plan.masked,))
        jaxpr = jax.make_jaxpr(lambda v: forward(v, plan.index, plan.weight))(u).jaxpr
        return sum(e.primitive.name == "select_n" for e in _eqns(jaxpr))

    assert selects(np.zeros((300, 4), np.float32)) == sum(zeros)
    assert selects(np.zeros((300, 4), np.uint8)) == 0
    # NaN reaches exactly the outputs the reference gives a non-zero weight to that input
    ref = {k: v for k, v in kw.items() if k != "strategy"}
    x = RNG.standard_normal((300, 4)).astype(np.float32)
    hit = np.zeros_like(x)
    hit[150, 1] = 1
    x[150, 1] = np.nan
    got = np.asarray(onnx_resize(x, **kw))
    np.testing.assert_array_equal(np.isnan(got), reference_resize(hit, **ref) != 0)
    finite = reference_resize(np.nan_to_num(x), **ref)
    np.testing.assert_allclose(got[~np.isnan(got)], finite[~np.isnan(got)], rtol=1e-5, atol=1e-5)


def test_gradient_over_five_upsampled_axes_is_small_and_the_reference_transpose():
    """``jax.grad`` over five upsampled axes in one fused band (corpus case 00403): the transposed
    bands are wider than the forward ones (an input feeds up to ``ceil(scale) + 1`` outputs), so
    they share a pass only while their widths multiply to at most ``fuse_max_taps``; fused as the
    forward pass is, the gradient's program multiplied out the transposed taps of all five axes
    (over 100 s of compilation and 7 GB). Oracle: the ONNX reference's response to unit vectors,
    ``d sum(y) / dx_j = sum(reference(e_j))``."""
    import jax
    import jax.numpy as jnp

    shape, scales, axes = (2, 3, 3, 2, 1), [2.6666667, 9.482919, 1.3333334, 2.0, 4.0], [1, 4, 2, 0, 3]
    kw = dict(mode="linear", coordinate_transformation_mode="asymmetric")
    x = np.random.default_rng(5).random(shape).astype(np.float32)
    for dtype in (np.float16, np.float32):
        f = lambda v: onnx_resize(v, scales=scales, axes=axes, strategy="banded", **kw).astype(jnp.float32).sum()  # noqa: E731
        lowered = jax.jit(jax.grad(f)).lower(jnp.asarray(x, dtype))
        assert len(lowered.as_text()) < 200_000, len(lowered.as_text())  # about 57 000 characters
    got = np.asarray(lowered.compile()(jnp.asarray(x)))
    unit = np.eye(x.size, dtype=np.float32).reshape(x.size, *shape)
    want = np.array([reference_resize(e, scales=scales, axes=axes, **kw).sum() for e in unit]).reshape(shape)
    np.testing.assert_allclose(got, want, rtol=2e-6)
