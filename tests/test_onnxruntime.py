"""onnxruntime (CPU) as a second, independent oracle for ``onnx_resize``.

* A random float32 sweep over opsets 10, 11, 13, 18 and 19 (opset 10 with the
  ``X, scales`` input layout and nearest / linear; opset 11 with
  tf_half_pixel_for_nn and the required ``roi`` / ``scales`` inputs). Cases
  onnxruntime refuses are skipped with the reason, after checking that the
  refusal is on the documented list (``onnx_oracles.ort_refusal_reason``). Output
  lengths that onnxruntime takes from the float32 product floor(in * scale) are
  judged (its length vs ours and the spec's). Refused cases are judged against
  the reference instead (then skipped as not compared with onnxruntime). Where
  onnxruntime is known to deviate from the spec (``onnx_oracles.ort_known_difference``),
  it is asserted to differ (as documented, where the notes say how) and
  jax_resize to equal the spec result; each kind is pinned by a test below.
* The documented refusals and behavioural differences, each pinned by a tiny
  example (docs/notes/onnxruntime_findings.md describes them), with jax_resize
  checked against the spec on the same input.

onnxruntime computes in float32, so the tolerance is 1e-4 (relative, and
absolute scaled by the data magnitude).
"""

from __future__ import annotations

import contextlib
import dataclasses

import numpy as np
import onnx_oracles as O
import pytest

pytest.importorskip("onnxruntime")

_SEED = 424242
_PLAN = [(10, i) for i in range(50)]
_PLAN += [(11, i) for i in range(90)]
_PLAN += [(13, i) for i in range(60)]
_PLAN += [(18, i) for i in range(80)]
_PLAN += [(19, i) for i in range(120)]


def _case(opset: int, index: int) -> O.ResizeCase:
    return O.random_case(
        f"ort{opset}_{index:04d}",
        (_SEED, opset, index),
        opset=opset,
        dtypes=(np.float32,),
        ort_layouts=True,
    )


def _ort_outcome(case: O.ResizeCase):
    """(output, None) or (None, error message) from onnxruntime."""
    try:
        return O.run_ort(case), None
    except Exception as e:  # noqa: BLE001 - onnxruntime raises several types
        return None, f"{type(e).__name__}: {e}"


def _reference_case(case: O.ResizeCase) -> O.ResizeCase | None:
    """The case in the opset-13 layout the reference evaluator runs, with the same meaning:
    Resize-11 is Resize-13 but for tf_half_pixel_for_nn, Resize-10 linear is asymmetric linear.
    None where the reference has no such mode (Resize-10 nearest, tf_half_pixel_for_nn)."""
    if case.opset >= 13:
        return case
    attrs = dict(case.attrs)
    if case.opset == 10:
        if attrs.get("mode", "nearest") != "linear":
            return None
        attrs["coordinate_transformation_mode"] = "asymmetric"
    elif attrs.get("coordinate_transformation_mode") == "tf_half_pixel_for_nn":
        return None
    return dataclasses.replace(case, attrs=attrs, opset=13)


@contextlib.contextmanager
def _tf_half_pixel_for_nn():
    """``onnx.reference`` with Resize-11's tf_half_pixel_for_nn, which it lacks: the spec's
    ``x_original = (x_resized + 0.5) / scale`` is its asymmetric rule ``x / scale`` at ``x + 0.5``."""
    from onnx.reference.ops import op_resize

    original = op_resize._compute_x_ori

    def patched(mode, y, *args):
        if mode == "tf_half_pixel_for_nn":
            mode, y = "asymmetric", y + 0.5
        return original(mode, y, *args)

    op_resize._compute_x_ori = patched
    try:
        yield
    finally:
        op_resize._compute_x_ori = original


def _spec(case: O.ResizeCase) -> tuple[np.ndarray, str]:
    """The spec result of the case and the oracle that gave it: the reference evaluator (for
    Resize-11's tf_half_pixel_for_nn with that rule added, :func:`_tf_half_pixel_for_nn`), or the
    nearest formulas where the reference lacks the mode."""
    ref_case = _reference_case(case)
    if ref_case is None:
        if case.attrs.get("mode", "nearest") == "nearest":
            return O.nearest_spec(case), "spec nearest formula"
        assert case.attrs.get("coordinate_transformation_mode") == "tf_half_pixel_for_nn", case.describe()
        with _tf_half_pixel_for_nn():
            return O.run_reference(dataclasses.replace(case, opset=13)), "onnx.reference + tf_half_pixel_for_nn"
    verdict = O.reference_verdict(ref_case)
    O.check_deviation(ref_case, verdict)
    return verdict.expected, f"onnx.reference [{verdict.category}]"


def _judge_against_spec(case: O.ResizeCase, api: str) -> np.ndarray:
    """jax_resize (float64 scales: the reference's output length) judged against the spec result
    (:func:`_spec`); returns the spec result."""
    actual = O.run_jax(case, api=api, scales_dtype=np.float64)
    expected, name = _spec(case)
    judged = O.judge(case, expected, actual)
    assert judged.cmp.ok, O.case_failure_message(case, judged.cmp, name)
    return expected


@pytest.mark.parametrize("opset,index", _PLAN, ids=[f"ort{o}_{i:04d}" for o, i in _PLAN])
def test_matches_onnxruntime(opset, index):
    """jax_resize equals onnxruntime; where onnxruntime refuses the case or deviates from the spec
    as documented, jax_resize equals the spec result instead, and the deviation is asserted."""
    case = _case(opset, index)
    api = "node" if index % 2 else "kw"
    oracle_case = O.ort_oracle_case(case)
    documented = O.ort_refusal_reason(oracle_case)
    expected, error = _ort_outcome(oracle_case)
    if error is not None:
        assert documented is not None, (
            f"onnxruntime refused a case not on the documented list: {error}\n{case.describe()}"
        )
        try:
            _judge_against_spec(case, api)
        except ValueError as e:  # refused by the spec too (e.g. antialias with nearest): the reference must agree
            with pytest.raises(Exception):  # noqa: B017 - the reference raises several types
                O.run_reference(_reference_case(case) or case)
            pytest.skip(f"onnxruntime and jax_resize refuse ({documented}; {e})")
        pytest.skip(f"onnxruntime refuses ({documented}); jax_resize judged against the spec result instead")
    assert documented is None, (
        f"onnxruntime ran a case documented as refused ({documented}); update "
        f"ort_refusal_reason and docs/notes/onnxruntime_findings.md\n{case.describe()}"
    )
    known = O.ort_known_difference(oracle_case)
    # scales as the float32 tensors onnxruntime reads: the output length is floor of the float32
    # product there (as in onnxruntime), of the exact product with float64 scales (the reference's)
    actual = O.run_jax(case, api=api, scales_dtype=np.float32)
    if known == O.FLOAT32_LENGTH:
        exact = O.run_jax(case, api=api, scales_dtype=np.float64)
        assert expected.shape == actual.shape == O.float32_lengths(oracle_case) != exact.shape, case.describe()
        known = O.ort_known_difference(oracle_case, float32_scales=True)
    if known:
        spec = _judge_against_spec(case, api)
        if _deviates(case, expected, spec):
            _assert_documented_deviation(case, oracle_case, known, expected)
            return
        # the predicate names the case, but on this data onnxruntime equals the spec result (the
        # deviation does not show, e.g. a nearest index that lands the same): judged as agreement
    cmp = O.compare(actual, expected, *O.tolerance_for(case, "ort"))
    assert cmp.ok, O.case_failure_message(case, cmp, "onnxruntime")


def _deviates(case, ort, spec) -> bool:
    """Whether onnxruntime's output ``ort`` differs from the spec result ``spec``."""
    return ort.shape != spec.shape or not O.compare(ort, spec, *O.tolerance_for(case, "ort")).ok


def _assert_documented_deviation(case, oracle_case, known, ort):
    """onnxruntime's output ``ort`` differs from the spec in the documented way, where the notes
    (findings 3) say how."""
    if known.startswith("output shape == input shape"):
        np.testing.assert_array_equal(ort, case.x, err_msg=known)
    elif known.startswith("nearest:") and ort.shape == O.spec_output_shape(oracle_case):
        # (with another output length too, that length is the float32-length deviation, asserted above)
        np.testing.assert_array_equal(ort, O.nearest_spec(oracle_case, np.float32), err_msg=known)
    elif known.startswith("align_corners/tf_crop_and_resize") and not case.attr("antialias"):
        # ORT's coordinates: the integer output length, which the reference uses with sizes (stretch)
        ref_case = _reference_case(oracle_case)
        if ref_case is not None:
            integer_length = O._stretch_sizes_case(ref_case, O.spec_output_shape(ref_case))
            cmp = O.compare(ort, O.run_reference(integer_length), *O.tolerance_for(case, "ort"))
            assert cmp.ok, f"{known}: {cmp.msg}\n{case.describe()}"


def test_readme_row_is_the_sweep():
    """The README's onnxruntime row is this sweep's tally (each compared case is asserted by
    test_matches_onnxruntime; this counts how the plan splits)."""
    import onnxruntime
    import readme

    refused = deviating = inert = float32_length = 0
    for opset, index in _PLAN:
        case = _case(opset, index)
        oracle_case = O.ort_oracle_case(case)
        if O.ort_refusal_reason(oracle_case) is not None:
            refused += 1
            continue
        if O.ort_known_difference(oracle_case, float32_scales=bool(O.float32_length_axes(oracle_case))) is not None:
            if _deviates(case, O.run_ort(oracle_case), _spec(case)[0]):
                deviating += 1
                continue
            inert += 1
        if O.float32_length_axes(oracle_case):
            float32_length += 1
    agree = len(_PLAN) - refused - deviating
    version = ".".join(onnxruntime.__version__.split(".")[:2])
    readme.assert_row(
        f"onnxruntime {version} as a second oracle (opsets 10, 11, 13, 18, 19; incl. Resize-10 `X, scales` and "
        f"Resize-11 `tf_half_pixel_for_nn`), {len(_PLAN)} cases",
        f"**{agree}** agree (**{float32_length}** of them only with `scales` as float32 arrays, whose output "
        f"length is onnxruntime's float32 product `floor(f32(in) * scale)`; **{inert}** named by a documented "
        f"deviation that does not show on their data), **{deviating}** where onnxruntime deviates from the spec as "
        "documented (asserted: it differs, in the documented way where the notes say how, and jax_resize equals "
        f"the spec result), **{refused}** refused by onnxruntime (jax_resize judged against the reference instead)",
    )


def test_sweep_exercises_every_opset_and_refusal():
    cases = [_case(o, i) for o, i in _PLAN]
    assert {c.opset for c in cases} == {10, 11, 13, 18, 19}
    assert any(c.attrs.get("coordinate_transformation_mode") == "tf_half_pixel_for_nn" for c in cases)
    assert {c.attrs.get("mode", "nearest") for c in cases if c.opset == 10} == {"nearest", "linear"}
    reasons = {O.ort_refusal_reason(O.ort_oracle_case(c)) for c in cases}
    assert len(reasons - {None}) >= 3, reasons
    compared = [
        c
        for c in cases
        if O.ort_refusal_reason(O.ort_oracle_case(c)) is None and O.ort_known_difference(O.ort_oracle_case(c)) is None
    ]
    assert len(compared) >= 300, len(compared)


# ---------------------------------------------------------------------------
# Documented refusals (docs/notes/onnxruntime_findings.md, "Refusals")
# ---------------------------------------------------------------------------


def _f32(*v):
    return np.array(v, np.float32)


def _i64(*v):
    return np.array(v, np.int64)


_X2 = np.arange(12, dtype=np.float32).reshape(3, 4)
_X3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
_X4 = np.arange(48, dtype=np.float32).reshape(1, 3, 4, 4)
REFUSED = {
    "antialias_nearest": O.ResizeCase("r", _X2, scales=_f32(0.5, 0.5), attrs=dict(mode="nearest", antialias=1)),
    "exclude_outside_nearest": O.ResizeCase("r", _X2, scales=_f32(2, 2), attrs=dict(mode="nearest", exclude_outside=1)),
    "exclude_outside_linear": O.ResizeCase("r", _X2, scales=_f32(2, 2), attrs=dict(mode="linear", exclude_outside=1)),
    "linear_rank1": O.ResizeCase("r", _X2[0], scales=_f32(2), attrs=dict(mode="linear")),
    "linear_rank4_outer": O.ResizeCase("r", _X4, scales=_f32(1, 2, 2, 2), attrs=dict(mode="linear")),
    "cubic_rank1": O.ResizeCase("r", _X2[0], scales=_f32(2), attrs=dict(mode="cubic")),
    "cubic_rank3": O.ResizeCase("r", _X3, scales=_f32(1, 2, 2), attrs=dict(mode="cubic")),
    "cubic_nhwc_downscale": O.ResizeCase("r", _X4, scales=_f32(1, 0.5, 0.5, 1), attrs=dict(mode="cubic")),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_documented_refusal(name):
    case = REFUSED[name]
    reason = O.ort_refusal_reason(case)
    assert reason is not None
    _, error = _ort_outcome(case)
    assert error is not None, f"onnxruntime now runs {name}; update the notes"
    # jax_resize runs it (or refuses it for its own, spec, reasons: not tested here)


def test_documented_supported_layouts_run():
    for case in [
        O.ResizeCase("s", _X4, scales=_f32(1, 2, 2, 1), attrs=dict(mode="cubic")),  # NHWC upsample
        O.ResizeCase("s", _X4, scales=_f32(1, 0.5, 0.5, 1), attrs=dict(mode="cubic", antialias=1)),
        O.ResizeCase("s", _X3, scales=_f32(2, 2, 2), attrs=dict(mode="linear")),  # trilinear
        O.ResizeCase("s", _X2[0], scales=_f32(2), attrs=dict(mode="nearest")),
    ]:
        assert O.ort_refusal_reason(case) is None
        _, error = _ort_outcome(case)
        assert error is None, error


# ---------------------------------------------------------------------------
# Documented behavioural differences, each with jax_resize checked on the spec
# ---------------------------------------------------------------------------


def _jax(case):
    return O.run_jax(case)


def test_tf_crop_and_resize_with_scales_output_length():
    """Spec: floor(in * (end - start) * scale); onnxruntime (and the reference): floor(in * scale)."""
    x = np.array([[1, 2, 3, 4]], np.float32)
    case = O.ResizeCase(
        "t",
        x,
        roi=_f32(0, 0.2, 1, 0.8),
        scales=_f32(1, 2),
        attrs=dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize"),
    )
    ort, _ = _ort_outcome(case)
    assert ort.shape == (1, 8)  # onnxruntime
    # spec: length floor(4 * 0.6 * 2) = 4, x_original = 0.6 + 0.6 * i
    np.testing.assert_allclose(_jax(case), [[1.6, 2.2, 2.8, 3.4]], rtol=1e-5)


def test_output_shape_equal_to_input_returns_input():
    """ORT copies X when the output shape equals the input shape, whatever the scales."""
    x = np.array([[0, 1, 4, 9, 16, 25]], np.float32)
    case = O.ResizeCase("t", x, scales=_f32(1, 1.1), attrs=dict(mode="linear"))
    ort, _ = _ort_outcome(case)
    np.testing.assert_array_equal(ort, x)
    # spec (half_pixel, scale 1.1): x_original = (i + 0.5) / 1.1 - 0.5
    xo = np.clip((np.arange(6) + 0.5) / np.float64(np.float32(1.1)) - 0.5, 0, 5)
    np.testing.assert_allclose(_jax(case)[0], np.interp(xo, np.arange(6), x[0]), rtol=1e-5)
    assert O.ort_known_difference(case)


def test_antialias_path_copies_axes_with_unchanged_length():
    x = np.arange(20, dtype=np.float32).reshape(4, 5) ** 1.5
    case = O.ResizeCase("t", x, scales=_f32(1.1, 2.0), attrs=dict(mode="linear", antialias=1))
    ort, _ = _ort_outcome(case)
    as_if_scale_1 = O.run_reference(O.ResizeCase("t", x, scales=_f32(1.0, 2.0), attrs=case.attrs))
    np.testing.assert_allclose(ort, as_if_scale_1, rtol=1e-5, atol=1e-4)
    ref = O.reference_expected(case)
    assert not np.allclose(ref, as_if_scale_1, atol=1e-3)
    np.testing.assert_allclose(_jax(case), ref, rtol=1e-5, atol=1e-4)
    assert O.ort_known_difference(case)


def test_tf_crop_and_resize_roi_ignored_on_unscaled_axis():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) * 10
    case = O.ResizeCase(
        "t",
        x,
        roi=_f32(0, -0.5, 1, 1),
        sizes=_i64(4, 4),
        attrs=dict(mode="nearest", coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=-1.0),
    )
    ort, _ = _ort_outcome(case)
    assert (ort != -1).all()  # onnxruntime: no crop on axis 1
    ref = O.reference_expected(case)
    assert (ref[:, 0] == -1).all()
    np.testing.assert_array_equal(_jax(case), ref)
    assert O.ort_known_difference(case)


def test_nhwc_tf_crop_and_resize_extrapolation_rows():
    x = np.arange(6, dtype=np.float32).reshape(1, 3, 1, 2) * 10 + 10
    case = O.ResizeCase(
        "t",
        x,
        roi=_f32(0, -0.3, 0.2, 0, 1, 0.7, 0.4, 1),
        sizes=_i64(1, 8, 2, 2),
        attrs=dict(mode="cubic", coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=-1.0),
    )
    ort, _ = _ort_outcome(case)
    ref = O.reference_expected(case)
    rows_ref = sorted({int(i) for i in np.argwhere(ref[0, :, 0, 0] == -1).ravel()})
    rows_ort = sorted({int(i) for i in np.argwhere(ort[0, :, 0, 0] == -1).ravel()})
    assert rows_ref == [0, 1, 2] and rows_ort != rows_ref
    np.testing.assert_allclose(_jax(case), ref, rtol=1e-5, atol=1e-4)
    assert O.ort_known_difference(case)


def test_negative_axes_disable_keep_aspect_ratio_policy():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    neg = O.ResizeCase(
        "t", x, sizes=_i64(8, 9), attrs=dict(mode="nearest", axes=[-1, -2], keep_aspect_ratio_policy="not_larger")
    )
    ort, _ = _ort_outcome(neg)
    assert ort.shape == (3, 4)  # onnxruntime ignores the policy (and the resize)
    ort_pos, _ = _ort_outcome(O.ort_case(neg))
    assert ort_pos.shape == (6, 8)
    np.testing.assert_array_equal(_jax(neg), ort_pos)


def test_pytorch_half_pixel_single_output_is_spec():
    """Spec and onnxruntime: x_original = 0 for an output length of 1; the reference: -0.5."""
    x = np.array([[1, 2, 4, 8]], np.float32)
    case = O.ResizeCase(
        "t", x, sizes=_i64(1, 1), attrs=dict(mode="cubic", coordinate_transformation_mode="pytorch_half_pixel")
    )
    ort, _ = _ort_outcome(case)
    np.testing.assert_allclose(ort, [[1.0]])
    assert not np.allclose(O.run_reference(case), [[1.0]])
    np.testing.assert_allclose(_jax(case), ort, rtol=1e-5)


def test_align_corners_fractional_scale_length():
    """onnxruntime divides by (length_resized - 1) with the integer output length; the reference
    and the ONNX backend data (resize_downsample_scales_linear_align_corners) use
    scale * length_original - 1 (here 5.8 instead of 5), and so does jax_resize."""
    x = np.array([[1, 2, 4, 8]], np.float32)
    case = O.ResizeCase(
        "t", x, scales=_f32(1, 1.7), attrs=dict(mode="linear", coordinate_transformation_mode="align_corners")
    )
    ort, _ = _ort_outcome(case)
    np.testing.assert_allclose(ort, [[1.0, 1.6, 2.4, 3.6, 5.6, 8.0]], rtol=1e-5)
    np.testing.assert_allclose(_jax(case), O.run_reference(case), rtol=1e-5)


def test_output_length_floor_in_float32():
    """ORT computes floor(in * scale) in float32: 0.7f * 10 -> 7; exactly it is 6.99999988 -> 6."""
    x = np.arange(10, dtype=np.float32)
    case = O.ResizeCase("t", x, scales=_f32(0.7), attrs=dict(mode="nearest"))
    ort, _ = _ort_outcome(case)
    assert ort.shape == (7,)
    assert O.run_reference(case).shape == (6,)
    assert _jax(case).shape == (6,)


def test_opset10_nearest_rounding_is_simple():
    """Resize-10 in ORT: downsampling rounds x_original up (ceil), upsampling truncates."""
    x = np.arange(5, dtype=np.float32)
    down = O.ResizeCase("t", x, scales=_f32(0.6), attrs=dict(mode="nearest"), opset=10)
    up = O.ResizeCase("t", x, scales=_f32(1.6), attrs=dict(mode="nearest"), opset=10)
    ort_down, _ = _ort_outcome(down)
    ort_up, _ = _ort_outcome(up)
    xs = np.float32(0.6)
    np.testing.assert_array_equal(ort_down, np.minimum(np.ceil(np.arange(3) / xs), 4))
    np.testing.assert_array_equal(ort_up, np.floor(np.arange(8) / np.float32(1.6)))
    np.testing.assert_array_equal(_jax(down), ort_down)
    np.testing.assert_array_equal(_jax(up), ort_up)


def test_tf_half_pixel_for_nn_opset11():
    x = np.arange(6, dtype=np.float32)
    case = O.ResizeCase(
        "t",
        x.reshape(1, 6),
        scales=_f32(1, 0.5),
        attrs=dict(mode="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn"),
        opset=11,
    )
    ort, _ = _ort_outcome(case)
    # x_original = (i + 0.5) / 0.5 = 1, 3, 5; round_prefer_floor
    np.testing.assert_array_equal(ort, [[1, 3, 5]])
    np.testing.assert_array_equal(_jax(case), ort)


def test_nearest_float32_coordinate_tie():
    """Findings 3.7: X = arange(7), sizes [9], pytorch_half_pixel, floor: x_original(4) = 4.5 * 7/9
    - 0.5 is 3 exactly; onnxruntime's float32 coordinate gives index 3, the float64 reference
    (2.9999999999999996) and jax_resize give 2 (the spec formula in float64)."""
    x = np.arange(7, dtype=np.float32)
    attrs = dict(mode="nearest", coordinate_transformation_mode="pytorch_half_pixel", nearest_mode="floor")
    case = O.ResizeCase("t", x, sizes=_i64(9), attrs=attrs)
    ort, _ = _ort_outcome(case)
    assert ort[4] == 3
    ref = O.run_reference(case)
    assert ref[4] == 2
    np.testing.assert_array_equal(ort, O.nearest_spec(case, np.float32))
    np.testing.assert_array_equal(_jax(case), ref)
    assert O.ort_known_difference(case) == "nearest: ORT's float32 coordinate lands on the other side of a tie"
