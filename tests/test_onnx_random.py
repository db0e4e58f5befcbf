"""Randomised comparison of ``jax_resize.onnx_resize`` with ``onnx.reference``.

Thousands of small Resize cases, drawn deterministically (one numpy Generator
per case id, see ``onnx_oracles.random_case``), cover every attribute of
Resize-19 (and the opset 13 / 18 attribute sets): modes, coordinate
transformation modes, nearest modes, cubic_coeff_a, exclude_outside,
antialias, ranks 1-5 with length-1 axes, axes subsets in any order (negative
too), scales with fractional output lengths, sizes with every
keep_aspect_ratio_policy, tf_crop_and_resize with rois outside [0, 1] and
extrapolation_value, and the dtypes float32 / float64 / float16 / int8 / uint8 /
int32 / int64 (float64 and int64 under ``jax.enable_x64``).

Every drawn case is kept and judged; none is redrawn because it is hard (output
lengths on which float32 and float64 disagree, tf_crop_and_resize lengths near an
integer, reference glitches included). Each case gets categories
(``onnx_oracles.CATEGORIES``): "agree" is the ONNX reference evaluator run on the
case itself; the others are named deviations of the reference from the spec
text (docs/notes/onnxruntime_findings.md), for which the spec result is the
reference run in a spec-equivalent way (``onnx_oracles.reference_verdict``), and
``onnx_oracles.check_deviation`` asserts what exactly the deviation changes in the
reference's own output (the output length rule; values identical outside the
rows a window glitch hits; zeros from exclude_outside with nearest; ...). The category
counts of the default 2000 cases are the README's sweep row (``test_sweep_categories``
asserts it). Scales go in as float64 arrays of their float32 values, so output lengths are
the exact product's, as the reference computes them (float32 arrays give onnxruntime's
float32 product: ``test_onnxruntime.py``, ``test_onnx_resize.py``).

Results are judged by ``onnx_oracles.judge``: integer outputs exactly (round half to even of
the float64 spec result; the other neighbour only inside a derived float-rounding window of a
.5 tie, and never where the weights are dyadic and the arithmetic exact), float16 / bfloat16
within a bound derived from their ulp and the sum of the terms' magnitudes. Beside the 2000
cases: integer x2 / x4 / /2 cases full of exact ties (``onnx_oracles.tie_cases``) and bfloat16
cases (drawn apart, so that the 2000 stay as drawn).

Even-numbered cases go through the keyword API ``onnx_resize``, odd ones through
``onnx_node_resize``.

Each case is one test (id ``r<opset>_<index>``), so a failure reproduces with
``pytest tests/test_onnx_random.py -k r19_00123``; its message carries the
attributes, the max error and a reproducer snippet. ``pytest -s`` prints a
summary per worker. ``ONNX_SWEEP_CASES`` (default 2000) scales the sweep.
"""

from __future__ import annotations

import collections
import os

import numpy as np
import onnx_oracles as O
import pytest

N_CASES = int(os.environ.get("ONNX_SWEEP_CASES", "2000"))
N_BF16 = max(N_CASES // 25, 1)  # bfloat16 cases, beside the main sweep
# opset -> share of the sweep; opset 19 gets the rest
_OPSET_SHARE = {13: 0.06, 18: 0.1}
_SEED = 20240519


def _plan() -> list[tuple[int, int]]:
    plan = []
    for opset, share in _OPSET_SHARE.items():
        plan += [(opset, i) for i in range(int(N_CASES * share))]
    plan += [(19, i) for i in range(N_CASES - len(plan))]
    return plan


PLAN = _plan()
_CASES: dict[str, O.ResizeCase] = {}


def get_case(opset: int, index: int) -> O.ResizeCase:
    case_id = f"r{opset}_{index:05d}"
    if case_id not in _CASES:
        _CASES[case_id] = O.random_case(case_id, (_SEED, opset, index), opset=opset)
    return _CASES[case_id]


_RESULTS: collections.Counter = collections.Counter()


@pytest.fixture(scope="module", autouse=True)
def _summary():
    yield
    total = _RESULTS.pop("cases", 0)
    if total:
        by = ", ".join(f"{k}={v}" for k, v in sorted(_RESULTS.items()))
        print(f"\n[onnx reference sweep, this worker] cases judged={total}: {by}")


@pytest.mark.parametrize("opset,index", PLAN, ids=[f"r{o}_{i:05d}" for o, i in PLAN])
def test_matches_reference(opset, index):
    case = get_case(opset, index)
    verdict = O.reference_verdict(case)
    O.check_deviation(case, verdict)
    api = "node" if index % 2 else "kw"
    actual = O.run_jax(case, api=api)
    judged = O.judge(case, verdict.expected, actual)
    assert judged.cmp.ok, O.case_failure_message(case, judged.cmp, f"onnx.reference [{verdict.category}] (api={api})")
    _RESULTS["cases"] += 1
    for category in verdict.categories:
        _RESULTS[category] += 1


# bfloat16 cases, drawn apart so that the pinned 2000 cases above stay as drawn
BF16_PLAN = [(19, i) for i in range(N_BF16)]


@pytest.mark.parametrize("opset,index", BF16_PLAN, ids=[f"rb{o}_{i:05d}" for o, i in BF16_PLAN])
def test_bfloat16_matches_reference(opset, index):
    """bfloat16 data (every attribute drawn as in the main sweep) against the reference, within
    the bound of ``onnx_oracles.judge`` (float32 computation, the reference's float32
    coefficients, and one bfloat16 ulp)."""
    case = O.random_case(f"rb{opset}_{index:05d}", (_SEED, 16, opset, index), opset=opset, dtypes=(O.BFLOAT16,))
    verdict = O.reference_verdict(case)
    O.check_deviation(case, verdict)
    api = "node" if index % 2 else "kw"
    judged = O.judge(case, verdict.expected, O.run_jax(case, api=api))
    assert judged.cmp.ok, O.case_failure_message(case, judged.cmp, f"onnx.reference [{verdict.category}] (api={api})")


TIE_CASES = {c.id: c for c in O.tie_cases()}
# exact .5 ties of the float64 spec result in TIE_CASES (where jax_resize's arithmetic is exact):
# test_tie_cases_hold_exact_ties keeps at least this many
MIN_EXACT_TIES = 500


@pytest.mark.parametrize("case_id", list(TIE_CASES))
def test_integer_ties_match_reference_exactly(case_id):
    """Integer x2 / x4 / /2 cases (``onnx_oracles.tie_cases``): every output equals
    round_half_to_even of the float64 spec result, exact ties included (no window: the weights are
    dyadic and float32 computes them exactly)."""
    case = TIE_CASES[case_id]
    verdict = O.reference_verdict(case)
    O.check_deviation(case, verdict)
    api = "node" if int(case_id.split("_")[1]) % 2 else "kw"
    judged = O.judge(case, verdict.expected, O.run_jax(case, api=api))
    assert judged.cmp.ok, O.case_failure_message(case, judged.cmp, f"onnx.reference [{verdict.category}] (api={api})")
    assert judged.windowed == 0 and judged.max_window == 0.0, "a tie case is not exact in float32"


def test_tie_cases_hold_exact_ties():
    """The tie cases keep their exact ties (counted on the float64 spec result, no jax_resize run),
    every output of theirs is judged without a window, and they cover every dtype / mode / ratio."""
    ties = outputs = 0
    for case in TIE_CASES.values():
        t, n = O.exact_ties(case)
        b = O.sum_bound(case)
        assert (b.S * np.ldexp(1.0, b.bits) < 2.0**24).all(), case.id
        ties, outputs = ties + t, outputs + n
    print(f"\n[tie cases] {len(TIE_CASES)} cases, {outputs} outputs, {ties} exact .5 ties")
    assert ties >= MIN_EXACT_TIES, ties
    assert {c.x.dtype.name for c in TIE_CASES.values()} == {"int8", "uint8", "int32", "int64"}
    assert {(c.attr("mode"), c.attr("antialias")) for c in TIE_CASES.values()} == {
        (m, a) for m in ("linear", "cubic") for a in (0, 1)
    }
    assert {i.split("_")[2] for i in TIE_CASES} == {"x2", "x4", "/2"}


def _assert_readme_row(counts: collections.Counter) -> None:
    """The README's sweep row is this tally (categories depend only on the drawn cases)."""
    import readme

    c = counts
    readme.assert_row(
        "random sweep vs `onnx.reference.ReferenceEvaluator` (ranks 1–5, every attribute, axes in any order incl. "
        "negative, scales and sizes, keep_aspect_ratio_policy, tf_crop_and_resize with roi outside [0, 1], empty "
        "and large outputs, float16/32/64 and int8/uint8/int32/int64; opsets 13/18/19) — every drawn case kept, "
        "none redrawn; integer results judged exactly",
        f"**{len(PLAN)} / {len(PLAN)}** pass, plus **{len(TIE_CASES)}** integer ×2 / ×4 / ÷2 cases with at least "
        f"{MIN_EXACT_TIES} exact .5 ties and **{len(BF16_PLAN)}** bfloat16 cases. Integer outputs must equal "
        "round-half-to-even of the float64 spec result; the other neighbour is accepted only within the derived "
        "float-rounding window of a .5 tie, and nowhere where the weights are dyadic and the arithmetic exact; "
        "float16/bfloat16 within a bound from their ulp and Σ abs(w·x). "
        f"**{c['agree']}** of the {len(PLAN)} agree with the reference as it is; the others hit "
        "a documented reference deviation and are judged against the spec, with an assertion of exactly what the "
        f"reference does instead (nearest + exclude_outside {c['nearest exclude_outside']}, tf_crop_and_resize "
        f"output length {c['tf_crop scales length']} + with antialias {c['tf_crop scales antialias']}, "
        f"pytorch_half_pixel length 1: {c['pytorch_half_pixel length 1']}, reference window glitch "
        f"{c['reference window glitch']}; a case may be in several), or have a product `in * scale` within a "
        f"float32 rounding of an integer ({c['float32 length']}; judged with float64 `scales`, the reference's "
        "arithmetic; float32 arrays give onnxruntime's length, tested against it)",
    )
    assert set(c) <= set(O.CATEGORIES), c


def test_sweep_categories():
    """Every case of the sweep is in a known category, every category is exercised,
    and the reference glitch really changes values in the sweep (not just in theory)."""
    counts = collections.Counter()
    glitched = []
    for opset, index in PLAN:
        case = get_case(opset, index)
        cats = O.categories(case)
        assert cats and set(cats) <= set(O.CATEGORIES), cats
        assert ("agree" in cats) == (cats == ["agree"])
        counts.update(cats)
        if "reference window glitch" in cats:
            glitched.append(case)
    print("\n[onnx reference sweep] categories: " + ", ".join(f"{k}={v}" for k, v in counts.most_common()))
    if N_CASES == 2000:
        _assert_readme_row(counts)
    assert glitched, "no reference glitch in the sweep"
    changed = 0
    for case in glitched:
        v = O.reference_verdict(case)
        O.check_deviation(case, v)
        changed += not np.array_equal(v.unfixed, v.expected)
    assert changed >= 1, "the reference glitch changes no value in the sweep"


def test_sweep_covers_every_attribute():
    """The generator really produces every attribute value the sweep claims."""
    seen = collections.defaultdict(set)
    for opset, index in PLAN:
        c = get_case(opset, index)
        x = c.x
        axes = O.normalize_axes(c.attr("axes"), x.ndim)
        out = O.spec_output_shape(c)
        seen["opset"].add(opset)
        seen["dtype"].add(x.dtype.name)
        seen["rank"].add(x.ndim)
        seen["mode"].add(c.attr("mode"))
        seen["ctm"].add(c.attr("coordinate_transformation_mode"))
        if c.attr("mode") == "nearest":
            seen["nearest_mode"].add(c.attr("nearest_mode"))
        if c.attr("mode") == "cubic":
            a = c.attr("cubic_coeff_a")
            seen["cubic_coeff_a"].add(a if a in (-0.75, -0.5) else "random")
        seen["exclude_outside"].add(c.attr("exclude_outside"))
        seen["antialias"].add((c.attr("mode"), c.attr("antialias")))
        seen["input"].add("sizes" if c.sizes is not None else "scales")
        if c.sizes is not None:
            seen["policy"].add(c.attr("keep_aspect_ratio_policy"))
        if c.attrs.get("axes") is not None:
            ax = c.attrs["axes"]
            seen["axes"].add("negative" if min(ax) < 0 else "non-negative")
            if len(ax) < x.ndim:
                seen["axes"].add("subset")
            if list(O.normalize_axes(ax, x.ndim)) != sorted(O.normalize_axes(ax, x.ndim)):
                seen["axes"].add("unsorted")
        if 1 in x.shape:
            seen["shape"].add("length-1 input axis")
        if any(out[a] == 1 for a in axes):
            seen["shape"].add("length-1 output axis")
        if c.scales is not None and any(float(s) * x.shape[a] != out[a] for a, s in zip(axes, c.scales)):
            seen["shape"].add("fractional output length")
        if c.attr("coordinate_transformation_mode") == "tf_crop_and_resize":
            if c.roi is not None and (c.roi.min() < 0 or c.roi.max() > 1):
                seen["tf_crop"].add("roi outside [0, 1]")
            if "extrapolation_value" in c.attrs:
                seen["tf_crop"].add("extrapolation_value")
            seen["tf_crop"].add(c.sizes is not None and "sizes" or "scales")
    expected = {
        "opset": {13, 18, 19},
        "dtype": {"float32", "float64", "float16", "int8", "uint8", "int32", "int64"},
        "rank": {1, 2, 3, 4, 5},
        "mode": {"nearest", "linear", "cubic"},
        "ctm": set(O.COORD_MODES_19),
        "nearest_mode": set(O.NEAREST_MODES),
        "cubic_coeff_a": {-0.75, -0.5, "random"},
        "exclude_outside": {0, 1},
        "antialias": {("nearest", 0), ("linear", 0), ("linear", 1), ("cubic", 0), ("cubic", 1)},
        "input": {"sizes", "scales"},
        "policy": {"stretch", "not_larger", "not_smaller"},
        "axes": {"negative", "non-negative", "subset", "unsorted"},
        "shape": {"length-1 input axis", "length-1 output axis", "fractional output length"},
        "tf_crop": {"roi outside [0, 1]", "extrapolation_value", "sizes", "scales"},
    }
    for key, values in expected.items():
        assert values <= seen[key], f"{key}: missing {values - seen[key]}"
    assert len(PLAN) >= min(N_CASES, 1000)


# tf_crop_and_resize with scales, computed by hand from the spec text:
#   length = floor(in * (end - start) * scale)
#   x_original = start * (in - 1) + i * (end - start) * (in - 1) / (length - 1)
#                (0.5 * (start + end) * (in - 1) when length == 1)
# (the reference evaluator and onnxruntime size the output floor(in * scale)).
_TF_CROP_SCALES = [
    # data, roi (start, end), scale, mode, extrapolation_value, expected
    ([1, 2, 3, 4], (0.2, 0.8), 2.0, "linear", 0.0, [1.6, 2.2, 2.8, 3.4]),
    ([10, 20, 40], (-0.5, 1.5), 1.0, "linear", -7.0, [-7, -7, 16, 28, -7, -7]),
    ([10, 20, 40], (-0.5, 1.5), 1.0, "nearest", -7.0, [-7, -7, 20, 20, -7, -7]),
    ([1, 2, 4, 8], (0.25, 0.75), 1.5, "linear", 0.0, [1.75, 3.0, 5.0]),
    ([1, 2, 4, 8, 16], (0.1, 0.6), 0.5, "linear", 0.0, [2.8]),
    ([0, 1, 2, 3, 4, 5, 6, 7], (0.0, 0.5), 1.75, "nearest", 0.0, [0, 1, 1, 2, 2, 3, 3]),
]


@pytest.mark.parametrize("data,roi,scale,mode,extrapolation,expected", _TF_CROP_SCALES)
def test_tf_crop_and_resize_scales_hand_computed(data, roi, scale, mode, extrapolation, expected):
    from jax_resize import onnx_resize

    x = np.array(data, np.float32)
    got = np.asarray(
        onnx_resize(
            x,
            roi=np.array(roi, np.float32),
            scales=np.array([scale], np.float32),
            mode=mode,
            coordinate_transformation_mode="tf_crop_and_resize",
            extrapolation_value=extrapolation,
        )
    )
    np.testing.assert_allclose(got, np.array(expected, np.float32), rtol=1e-6, atol=1e-5)


def test_exact_nearest_oracle_agrees_with_the_reference():
    """``O.nearest_spec(case, Fraction)``: the spec's coordinates in rational arithmetic. It equals
    the reference's verdict on every nearest case of 600 draws (so it can judge where the
    reference's float64 rounding crosses an exact tie, below)."""
    from fractions import Fraction

    nearest = [
        c
        for i in range(600)
        if (c := O.random_case(f"exact{i}", (7, i), opset=(13, 18, 19)[i % 3])).attr("mode") == "nearest"
    ]
    assert len(nearest) > 150
    for c in nearest:
        np.testing.assert_array_equal(
            O.nearest_spec(c, Fraction), O.reference_verdict(c).expected, err_msg=c.describe()
        )


def test_nearest_exact_tie_that_float64_crosses():
    """tf_crop_and_resize, roi [-1.4989478216875645, 0.5] (both float32) over 8 samples to 8: the
    last output's x_original is exactly -1.49894... * 7 + 7 * 1.99894... * 7 / 7 = 3.5, a tie that
    round_prefer_floor sends to 3; the reference's float64 arithmetic gives 3.5000000000000018 and
    reads index 4. jax_resize gives the spec's 3 (found by test_extreme_sizes' random draws)."""
    from fractions import Fraction

    import jax_resize

    x = np.arange(8, dtype=np.float32).reshape(1, 1, 1, 8)
    roi = np.array([0, 0, 0, -1.4989478216875645, 1, 1, 1, 0.5], np.float32)
    attrs = dict(mode="nearest", coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=0.0)
    case = O.ResizeCase("tie", x, roi=roi, sizes=np.array([1, 1, 1, 8], np.int64), attrs=attrs)
    exact, reference = O.nearest_spec(case, Fraction), O.run_reference(case)
    assert exact[0, 0, 0, 7] == 3 and reference[0, 0, 0, 7] == 4  # the reference crosses the tie
    ours = jax_resize.onnx_resize(x, roi=roi, sizes=[1, 1, 1, 8], **attrs)
    np.testing.assert_array_equal(np.asarray(ours), exact)
