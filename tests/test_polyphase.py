"""Polyphase plans and their application (jax_resize/_src/polyphase.py).

Oracles: phase tables derived by hand from the ONNX spec's coordinate formula and Keys' cubic
(Keys 1981), the ONNX reference evaluator for values, and the reference's own weight matrix
(its response to unit vectors) for gradients. A plan is checked against independent values,
never against another strategy of ours.
"""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import onnx_oracles as O
import pytest
from conftest import reference_resize

from jax_resize import onnx_resize
from jax_resize._src import records as _records
from jax_resize._src.execution import polyphase as _polyphase
from jax_resize._src.execution import strategies as _strategies
from jax_resize._src.execution.tuning import TUNING

RNG = np.random.default_rng(7)


def _taps(matrix: np.ndarray):
    """``[out, k]`` taps holding each row's non-zero entries of a dense ``[out, in]`` matrix."""
    k = max(1, int((matrix != 0).sum(1).max()))
    index = np.zeros((matrix.shape[0], k), np.int32)
    weight = np.zeros((matrix.shape[0], k))
    for o, row in enumerate(matrix):
        nz = np.flatnonzero(row)
        index[o, : nz.size], weight[o, : nz.size] = nz, row[nz]
    return index, weight


def _reference_matrix(n_in: int, n_out: int, **attrs) -> np.ndarray:
    """``W: [out, in]`` of the ONNX reference: its output for each unit input vector."""
    eye = np.eye(n_in, dtype=np.float64)
    return np.stack([reference_resize(e, sizes=[n_out], **attrs) for e in eye], axis=1)


def _keys(t: float, a: float = -0.75) -> np.ndarray:
    """Keys (1981) cubic weights of the taps at distances 1 + t, t, 1 - t, 2 - t."""

    def k(s):
        s = abs(s)
        if s <= 1:
            return (a + 2) * s**3 - (a + 3) * s**2 + 1
        return a * s**3 - 5 * a * s**2 + 8 * a * s - 4 * a if s < 2 else 0.0

    return np.array([k(1 + t), k(t), k(1 - t), k(2 - t)])


def test_linear_x2_plan_is_the_spec_phase_table():
    # half_pixel x2: output o samples x = (o + 0.5) / 2 - 0.5, so out[2q] = 0.25 x[q-1] + 0.75 x[q]
    # and out[2q+1] = 0.75 x[q] + 0.25 x[q+1]; edge pixels repeat (indices clamp).
    plan, w = _polyphase.polyphase_plan(*_taps(_reference_matrix(6, 12, mode="linear")), 6, TUNING["cpu"])
    assert (plan.phases, plan.step, plan.periods, plan.edge) == (2, 1, 6, True)
    assert plan.start == (-1, 0)
    np.testing.assert_allclose(np.array(plan.terms, float), [[0.25, 0.75], [0.75, 0.25]], atol=1e-12)


def test_cubic_three_quarters_plan_matches_keys_weights():
    # 512 -> 384 half_pixel: x = 4q + (4p + 2) / 3 - 0.5, fractional parts 1/6, 1/2, 5/6 per phase.
    plan, _ = _polyphase.polyphase_plan(*_taps(_reference_matrix(16, 12, mode="cubic")), 16, TUNING["cpu"])
    assert (plan.phases, plan.step, plan.edge) == (3, 4, True)
    for p, t in enumerate([1 / 6, 1 / 2, 5 / 6]):
        terms = np.array([0.0 if v is None else v for v in plan.terms[p]])
        nz = terms[terms != 0]
        np.testing.assert_allclose(nz, _keys(t)[_keys(t) != 0], atol=1e-6)  # the reference computes in float32


@pytest.mark.parametrize("n_in,n_out,ok", [(6, 12, True), (16, 12, True), (300, 224, False), (8, 4, True)])
def test_eligibility(n_in, n_out, ok):
    # 300 -> 224 has 56 phases (more than polyphase_max_phases); 8 -> 4 is integer decimation (one phase).
    found = _polyphase.polyphase_plan(*_taps(_reference_matrix(n_in, n_out, mode="linear")), n_in, TUNING["cpu"])
    assert (found is not None) == ok


def test_too_many_terms_is_declined():
    # 27 -> 24 cubic antialias: 8 phases of 5 taps = 40 slice terms > polyphase_max_terms = 32
    index, weight = _taps(_reference_matrix(27, 24, mode="cubic", antialias=1))
    plan, _ = _polyphase.polyphase_plan(index, weight, 27, TUNING["cpu"], max_terms=10**6)
    assert (plan.phases, len(plan.terms[0])) == (8, 5)
    assert _polyphase.polyphase_plan(index, weight, 27, TUNING["cpu"]) is None


def test_a_row_can_keep_shrinks_to_one_phase_of_many_taps():
    # x0.5 linear antialias: one phase of 4 taps; x0.5 cubic antialias: one phase of 8 taps;
    # 16 -> 12 linear: 3 phases (a shrink); 6 -> 12 linear: 2 phases of an upsampling
    linear, cubic = (_taps(_reference_matrix(16, 8, mode=m, antialias=1)) for m in ("linear", "cubic"))
    assert (linear[0].shape[1], cubic[0].shape[1]) == (4, 8)
    three, up = _taps(_reference_matrix(16, 12, mode="linear")), _taps(_reference_matrix(6, 12, mode="linear"))
    row = dataclasses.replace(TUNING["cpu"], polyphase_shrink_max_phases=1, polyphase_shrink_min_taps=8)
    assert _polyphase.polyphase_plan(*linear, 16, row) is None
    assert _polyphase.polyphase_plan(*cubic, 16, row) is not None
    assert _polyphase.polyphase_plan(*three, 16, row) is None
    assert _polyphase.polyphase_plan(*up, 6, row)[0].phases == 2  # upsampling: the general range
    for args in ((*linear, 16), (*three, 16)):  # the CPU row: any shrink within the general range
        assert _polyphase.polyphase_plan(*args, TUNING["cpu"]) is not None


def test_integer_decimation_plans_are_the_spec_tables():
    # half_pixel x0.5: output q samples x = 2q + 0.5, so linear reads x[2q], x[2q+1] at 1/2 each.
    plan, _ = _polyphase.polyphase_plan(*_taps(_reference_matrix(8, 4, mode="linear")), 8, TUNING["cpu"])
    assert (plan.phases, plan.step, plan.periods, plan.start) == (1, 2, 4, (0,))
    np.testing.assert_allclose(np.array(plan.terms, float), [[0.5, 0.5]], atol=1e-12)
    # with antialias the triangle is stretched to radius 2: distances 1.5, 0.5, 0.5, 1.5 from
    # x = 2q + 0.5 give 0.25, 0.75, 0.75, 0.25, normalised by their sum 2; edge taps clamp.
    plan, _ = _polyphase.polyphase_plan(*_taps(_reference_matrix(12, 6, mode="linear", antialias=1)), 12, TUNING["cpu"])
    assert (plan.phases, plan.step, plan.start, plan.edge) == (1, 2, (-1,), True)
    np.testing.assert_allclose(np.array(plan.terms, float), [[0.125, 0.375, 0.375, 0.125]], atol=1e-7)


@pytest.mark.parametrize("n_in,n_out", [(12, 6), (13, 6), (40, 10), (6, 2), (27, 24)])
def test_interior_periods_read_only_inside(n_in, n_out):
    # every tap of every phase in the interior periods reads a position inside [0, in); the
    # other periods read at least one position outside (13 -> 6: one period, no interior)
    taps = _taps(_reference_matrix(n_in, n_out, mode="cubic", antialias=1))
    plan, _ = _polyphase.polyphase_plan(*taps, n_in, TUNING["cpu"], max_terms=10**6)
    q_a, q_b = _polyphase.interior(plan, n_in)
    k = len(plan.terms[0])

    def inside(q):
        return all(0 <= s + q * plan.step + j < n_in for s in plan.start for j in range(k))

    assert all(inside(q) for q in range(q_a, q_b))
    assert all(not inside(q) for q in [*range(q_a), *range(q_b, plan.periods)])


def test_exclude_outside_renormalised_edges_use_per_period_weights():
    attrs = dict(mode="cubic", exclude_outside=1)
    plan, w = _polyphase.polyphase_plan(*_taps(_reference_matrix(7, 14, **attrs)), 7, TUNING["cpu"])
    assert not plan.edge and any(t in ("row", "masked") for row in plan.terms for t in row)
    x = RNG.standard_normal((3, 7, 5)).astype(np.float32)
    got = np.asarray(onnx_resize(x, sizes=[14], axes=[1], strategy="polyphase", **attrs))
    np.testing.assert_allclose(got, reference_resize(x, sizes=[14], axes=[1], **attrs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "mode,coord",
    [
        ("linear", "half_pixel"),
        ("cubic", "half_pixel"),
        ("linear", "asymmetric"),
        ("cubic", "pytorch_half_pixel"),
        ("linear", "align_corners"),
    ],
)
@pytest.mark.parametrize("ratio", [(4, 8), (5, 15), (8, 6), (9, 12), (6, 10), (8, 4), (9, 3), (17, 8)])
def test_values_match_reference(mode, coord, ratio):
    n_in, n_out = ratio
    x = RNG.standard_normal((2, n_in, n_in + 1, 3)).astype(np.float32)
    kw = dict(sizes=[n_out, n_out + 1], axes=[1, 2], mode=mode, coordinate_transformation_mode=coord)
    got = np.asarray(onnx_resize(x, strategy="polyphase", **kw))
    np.testing.assert_allclose(got, reference_resize(x, **kw), rtol=1e-5, atol=1e-5)


def test_masked_term_keeps_nan_local():
    # 6 -> 12 with equal pair weights, except that output 4 gives its first tap weight 0: that
    # term reads a real input in one period only, so it must be masked, not multiplied by 0.
    index = np.stack([np.arange(12) // 2, np.minimum(np.arange(12) // 2 + 1, 5)], axis=1).astype(np.int32)
    weight = np.full((12, 2), 0.5)
    weight[4] = [0.0, 1.0]
    plan, w = _polyphase.polyphase_plan(index, weight, 6, TUNING["cpu"])
    assert "masked" in plan.terms[0]
    x = np.arange(6, dtype=np.float32)
    x[2] = np.nan  # output 4's zero-weight tap
    y = np.asarray(
        _polyphase.polyphase(jnp.asarray(x), plan, jnp.asarray(w, jnp.float32), 0, chains=TUNING["cpu"].sum_chains)
    )
    dense = np.zeros((12, 6))
    np.add.at(dense, (np.repeat(np.arange(12), 2), index.ravel()), weight.ravel())
    reads_nan = dense[:, 2] != 0
    assert np.all(np.isnan(y[reads_nan])) and np.all(np.isfinite(y[~reads_nan]))
    np.testing.assert_allclose(y[~reads_nan], (dense @ np.nan_to_num(x))[~reads_nan], rtol=1e-6)


def test_gradient_is_the_transposed_reference_matrix():
    matrix = _reference_matrix(5, 10, mode="linear")  # [10, 5]
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    ct = RNG.standard_normal((2, 10, 3)).astype(np.float32)
    f = lambda v: onnx_resize(v, sizes=[10], axes=[1], mode="linear", strategy="polyphase")
    grad = jax.jit(lambda v, c: jax.vjp(f, v)[1](c)[0])(x, ct)
    np.testing.assert_allclose(np.asarray(grad), np.einsum("oi,boc->bic", matrix, ct), rtol=1e-5, atol=1e-6)
    tangent = jax.jvp(f, (x,), (x,))[1]
    np.testing.assert_allclose(np.asarray(tangent), np.einsum("oi,bic->boc", matrix, x), rtol=1e-5, atol=1e-6)


def test_vmap_and_jit_agree_with_reference():
    x = RNG.standard_normal((4, 6, 6)).astype(np.float32)
    f = lambda v: onnx_resize(v, sizes=[9, 12], mode="cubic", strategy="polyphase")
    got = jax.jit(jax.vmap(f))(x)
    want = np.stack([reference_resize(v, sizes=[9, 12], mode="cubic") for v in x])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_auto_uses_polyphase_off_tpu_and_banded_for_irregular_axes():
    records = [_records.Taps(*_taps(_reference_matrix(n, o, mode="linear")), n) for n, o in [(6, 12), (300, 224)]]
    assert _strategies.plan(1, records[0], "auto", tuning=TUNING["cpu"]).strategy == "polyphase"
    assert _strategies.plan(1, records[0], "auto", tuning=TUNING["tpu"]).strategy == "dense"
    prepared = [_strategies.plan(1, r, "polyphase") for r in records]
    assert [p.strategy for p in prepared] == ["polyphase", "banded"]  # 300 -> 224: 56 phases


@pytest.mark.parametrize("n_in,n_out", [(24, 12), (24, 8), (16, 12), (6, 12)])
def test_uint8_input_is_read_without_a_float_copy(n_in, n_out):
    # oracle: onnx_oracles.judge, i.e. round half to even of the float64 spec result, saturated (the
    # reference evaluator's integer output agrees); the other neighbour only within float32's
    # derived reach of a .5 tie
    x = RNG.integers(0, 256, (n_in, 2 * n_in, 3), dtype=np.uint8)
    kw = dict(sizes=[n_out, 2 * n_out], axes=[0, 1], mode="cubic", antialias=1, cubic_coeff_a=-0.75)
    f = jax.jit(lambda v: onnx_resize(v, strategy="polyphase", **kw))
    got = np.asarray(f(x))
    assert got.dtype == np.uint8
    attrs = {k: v for k, v in kw.items() if k != "sizes"}
    case = O.ResizeCase("polyphase", x, sizes=np.array(kw["sizes"], np.int64), attrs=attrs)
    judged = O.judge(case, reference_resize(x, **kw), got)
    assert judged.cmp.ok, judged.cmp.msg
    assert judged.windowed <= got.size // 100  # 99 % or more judged exactly
    # the first pass converts inside its fused loop: no float32 array of the input's shape
    hlo = f.lower(x).compile().as_text()
    assert f"f32[{n_in},{2 * n_in},3]" not in hlo


@pytest.mark.parametrize(
    "attrs",
    [
        dict(mode="linear", antialias=1),
        dict(mode="linear"),
        dict(mode="cubic", exclude_outside=1),  # renormalised edges: per-period ("row"/"masked") terms
        dict(mode="cubic", coordinate_transformation_mode="align_corners"),
        dict(mode="nearest"),
    ],
)
@pytest.mark.parametrize("ratio", [(8, 4), (9, 3), (4, 8), (6, 9)])
def test_two_axes_at_once_match_reference(attrs, ratio):
    # polyphase_nd reads every term of both axes straight from the input (no intermediate):
    # the values are the reference's 2-D resize, uint8 read as it is
    n_in, n_out = ratio
    sizes = (n_out, 2 * n_out)
    plans = [
        _polyphase.polyphase_plan(*_taps(_reference_matrix(n, o, **attrs)), n, TUNING["cpu"])
        for n, o in zip((n_in, 2 * n_in), sizes)
    ]
    x = RNG.integers(0, 256, (2, n_in, 2 * n_in, 3), dtype=np.uint8)
    parts = [(plan, jnp.asarray(w, jnp.float32), axis) for (plan, w), axis in zip(plans, (1, 2))]
    got = np.asarray(jax.jit(lambda v: _polyphase.polyphase_nd(v, parts, np.float32, TUNING["cpu"].sum_chains))(x))
    want = reference_resize(x.astype(np.float32), sizes=list(sizes), axes=[1, 2], **attrs)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
