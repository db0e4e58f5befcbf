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
from jax_resize._src import strategies as _strategies

STRATEGIES = [s for s in _strategies.STRATEGY_NAMES if s != "auto"]
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


def test_blocked_layout_rebuilds_the_weight_matrix():
    from jax_resize._src import weights as _weights

    record = _wide_record()
    starts, window, w = _strategies.blocked_layout(record.index, record.weight, record.in_size, block=4)
    dense = _weights.taps_to_matrix(record.index, record.weight, record.in_size)
    rebuilt = np.zeros((w.shape[0] * 4, record.in_size))
    for b, s in enumerate(starts):
        rebuilt[b * 4 : b * 4 + 4, s : s + window] = w[b]
    np.testing.assert_array_equal(rebuilt[: record.out_size], dense)
    assert window < record.in_size and record.index.shape[1] >= _strategies.BLOCKED_MIN_TAPS


def test_auto_uses_blocked_for_wide_filters_and_matches_reference():
    # a 300 -> 17 antialiased shrink has ~36 taps: block-banded matmuls on CPU/GPU, dense on TPU
    assert isinstance(_strategies.plan(0, _wide_record(), "auto", backend="cpu"), _strategies.BlockedPlan)
    assert isinstance(_strategies.plan(0, _wide_record(), "auto", backend="tpu"), _strategies.DensePlan)
    x = RNG.standard_normal((300, 5, 2)).astype(np.float32)
    kw = dict(sizes=[17], axes=[0], mode="linear", antialias=1)
    np.testing.assert_allclose(np.asarray(onnx_resize(x, **kw)), reference_resize(x, **kw), rtol=1e-5, atol=1e-5)
    u = (RNG.random((300, 7)) * 255).astype(np.uint8)  # integer input, converted inside the pass
    want = np.clip(np.rint(reference_resize(u.astype(np.float64), **kw)), 0, 255)
    assert np.max(np.abs(np.asarray(onnx_resize(u, **kw)).astype(int) - want)) <= 1


def test_blocked_gradient_equals_dense():
    import jax

    x = RNG.standard_normal((120, 9)).astype(np.float32)
    ct = RNG.standard_normal((10, 9)).astype(np.float32)
    grads = {
        s: np.asarray(jax.vjp(lambda v, s=s: resize(v, (10, 9), "cubic", strategy=s), x)[1](ct)[0])
        for s in ("blocked", "dense")
    }
    np.testing.assert_allclose(grads["blocked"], grads["dense"], rtol=1e-5, atol=1e-6)
