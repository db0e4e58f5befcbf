"""ONNX front end: opsets, axes, keep_aspect_ratio_policy, node execution and spec deviations.

Oracles: the ONNX reference evaluator and hand-computed values from the spec's formulas.
"""

import numpy as np
import pytest
from conftest import reference_resize

from jax_resize import onnx_node_resize, onnx_resize

RNG = np.random.default_rng(0)


def test_axes_in_any_order_and_negative():
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    got = onnx_resize(x, sizes=[7, 2], axes=[-1, 1], mode="cubic")
    want = reference_resize(x, sizes=[7, 2], axes=[3, 1], mode="cubic")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("policy", ["not_larger", "not_smaller"])
def test_keep_aspect_ratio_policy(policy):
    x = RNG.standard_normal((1, 6, 9)).astype(np.float32)
    got = onnx_resize(x, sizes=[4, 4], axes=[1, 2], mode="linear", keep_aspect_ratio_policy=policy)
    want = reference_resize(x, sizes=[4, 4], axes=[1, 2], mode="linear", keep_aspect_ratio_policy=policy)
    # not_larger: scale = min(4/6, 4/9) = 4/9 -> round_half_up(6 * 4/9) = 3 and 4
    assert got.shape == {"not_larger": (1, 3, 4), "not_smaller": (1, 4, 6)}[policy] == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_empty_inputs_count_as_absent():
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    got = onnx_resize(x, np.array([], np.float32), np.array([], np.float32), np.array([4, 5]), mode="linear")
    np.testing.assert_allclose(got, reference_resize(x, sizes=[4, 5], mode="linear"), rtol=1e-6)


def test_pytorch_half_pixel_length_one_follows_spec():
    # Spec: x_original = 0 when length_resized == 1 -> the first element (reference: -0.5, which
    # mixes in the edge-padded value and gives the same here, so use a cubic with exclude_outside).
    x = np.array([1.0, 5.0, 2.0, 8.0, 3.0], np.float32)
    got = onnx_resize(x, sizes=[1], mode="linear", coordinate_transformation_mode="pytorch_half_pixel")
    np.testing.assert_array_equal(got, [1.0])
    got = onnx_resize(x, scales=[0.3], mode="cubic", coordinate_transformation_mode="pytorch_half_pixel")
    # x = 0: Keys taps -1, 0, 1, 2 with weights W(1), W(0), W(1), W(2) = 0, 1, 0, 0
    np.testing.assert_allclose(got, [1.0])


def test_tf_crop_and_resize_with_scales_uses_roi_in_output_size():
    # Spec: output_dimension = floor(input_dimension * (roi_end - roi_start) * scale) = floor(10*0.5*2)
    x = RNG.standard_normal((10,)).astype(np.float32)
    roi = np.array([0.25, 0.75], np.float32)
    got = onnx_resize(x, roi, scales=[2.0], mode="linear", coordinate_transformation_mode="tf_crop_and_resize")
    assert got.shape == (10,)
    want = reference_resize(x, roi, sizes=[10], mode="linear", coordinate_transformation_mode="tf_crop_and_resize")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_opset10_asymmetric_linear():
    # Resize-10 = Upsample: asymmetric coordinates x = y / scale; 2x linear of [0, 10] -> 0, 5, 10, 10
    got = onnx_resize(np.array([0.0, 10.0], np.float32), scales=[2.0], mode="linear", opset=10)
    np.testing.assert_allclose(got, [0, 5, 10, 10])


def test_opset11_tf_half_pixel_for_nn():
    # x_original = (y + 0.5) / scale; 3 -> 6, round_prefer_floor: 0.25, 0.75, 1.25, 1.75, 2.25, 2.75
    got = onnx_resize(
        np.array([1, 2, 3], np.int32), scales=[2.0], coordinate_transformation_mode="tf_half_pixel_for_nn", opset=11
    )
    np.testing.assert_array_equal(got, [1, 2, 2, 3, 3, 3])


def test_onnx_node_resize_reads_attributes():
    from onnx import helper

    node = helper.make_node(
        "Resize",
        ["X", "", "", "sizes"],
        ["Y"],
        mode="cubic",
        cubic_coeff_a=-0.5,
        exclude_outside=1,
        axes=[2, 3],
        coordinate_transformation_mode="align_corners",
    )
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    got = onnx_node_resize(node, x, None, None, np.array([6, 3]))
    want = reference_resize(
        x,
        sizes=[6, 3],
        mode="cubic",
        cubic_coeff_a=-0.5,
        exclude_outside=1,
        axes=[2, 3],
        coordinate_transformation_mode="align_corners",
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="op_type 'Resize'"):
        onnx_node_resize(helper.make_node("Relu", ["X"], ["Y"]), x)


# --- real exporters' opsets, float32 output lengths, error messages (issue 10) ---------------


def test_resize_version_is_the_schema_in_force():
    from onnx import defs

    from jax_resize._src.peers.onnx import resize_version

    latest = defs.onnx_opset_version()
    for opset in range(10, latest + 1):
        assert resize_version(opset) == defs.get_schema("Resize", opset).since_version, opset
    with pytest.raises(ValueError, match=f"opset={latest + 1} is newer than the ONNX opsets known here"):
        resize_version(latest + 1)
    with pytest.raises(ValueError, match="opset=9 is not supported; Resize exists from opset 10"):
        resize_version(9)


def test_resize_version_without_onnx_installed(monkeypatch):
    import sys

    from onnx import defs

    from jax_resize._src.peers.onnx import LATEST_KNOWN_OPSET, resize_version

    schema = {o: defs.get_schema("Resize", o).since_version for o in range(10, LATEST_KNOWN_OPSET + 1)}
    monkeypatch.setitem(sys.modules, "onnx", None)  # `from onnx import defs` raises ImportError
    assert {o: resize_version(o) for o in schema} == schema
    with pytest.raises(ValueError, match="newer than the ONNX opsets known here"):
        resize_version(LATEST_KNOWN_OPSET + 1)


def _opset_case(opset):
    import onnx_oracles as O

    x = RNG.standard_normal((1, 2, 5, 7)).astype(np.float32)
    if opset == 10:
        return O.ResizeCase(
            f"o{opset}", x, scales=np.array([1, 1, 1.6, 0.6], np.float32), attrs=dict(mode="linear"), opset=10
        )
    attrs = dict(mode="cubic", coordinate_transformation_mode="align_corners", cubic_coeff_a=-0.5)
    return O.ResizeCase(f"o{opset}", x, sizes=np.array([1, 2, 9, 4], np.int64), attrs=attrs, opset=opset)


def test_every_known_opset_runs_like_onnxruntime_and_the_reference():
    """torch exports at opsets 17 and 20 by default: every opset >= 10 runs the Resize version in force."""
    import onnx_oracles as O
    from onnx import defs

    ort_ran = []
    for opset in range(10, defs.onnx_opset_version() + 1):
        case = _opset_case(opset)
        got = np.asarray(onnx_node_resize(case.node(), *case.node_inputs(), opset=opset))
        if opset >= 13:  # the oracle runs the reference in the opset 13+ layout
            np.testing.assert_allclose(got, O.run_reference(case), rtol=1e-5, atol=1e-5, err_msg=str(opset))
        try:
            want = O.run_ort(case)
        except Exception as e:  # noqa: BLE001 - onnxruntime refuses opsets newer than it knows
            assert "opset" in str(e).lower(), e
            continue
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=str(opset))
        ort_ran.append(opset)
    assert set(range(10, 22)) <= set(ort_ran), ort_ran


def test_float32_scales_tensor_gives_onnxruntimes_output_length():
    """torch's opset-10 export of interpolate(size=15) on length 7 writes scales = f32(15) / f32(7):
    floor(f32(7) * scale) = 15 (onnxruntime, and what the graph's next ops expect); the exact
    product 14.99999952 gives 14 (onnx.reference, and jax_resize with float64 scales)."""
    import onnx_oracles as O

    s = np.float32(15) / np.float32(7)
    assert 7 * float(s) < 15 <= np.float32(7) * s
    # its own draw: the module's RNG would make the input depend on which tests ran before
    x = np.random.default_rng(7).standard_normal((1, 1, 7, 7)).astype(np.float32)
    scales = np.array([1, 1, s, s], np.float32)
    for opset, mode in [(10, "nearest"), (10, "linear"), (13, "linear"), (17, "nearest"), (19, "cubic")]:
        case = O.ResizeCase("f32", x, scales=scales, attrs=dict(mode=mode), opset=opset)
        want = O.run_ort(case)
        assert want.shape == (1, 1, 15, 15)
        got = onnx_node_resize(case.node(), *case.node_inputs(), opset=opset)
        # atol 1e-5 as the opset sweep: onnxruntime's cubic coefficients are float32, ours float64
        # (one draw met 2.7e-6 at a value of 0.01 that 16 terms of size ~1 cancel to)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{opset} {mode}")
        np.testing.assert_allclose(onnx_resize(x, scales=scales, mode=mode, opset=opset), want, rtol=1e-5, atol=1e-5)
        exact = onnx_resize(x, scales=scales.astype(np.float64), mode=mode, opset=opset)
        assert exact.shape == (1, 1, 14, 14)
        if opset > 10:
            ref = O.run_reference(case)  # the reference: float64 product of the float32 scale
            assert ref.shape == (1, 1, 14, 14)
            np.testing.assert_allclose(exact, ref, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(np.asarray(got)[..., :14, :14], ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_half_pixel_symmetric_antialias_keep_aspect_follows_spec(mode):
    """[6, 7], sizes [3, 12], not_larger: one scale 0.5 for both axes (spec: the policy's scale is
    the resize scale, and antialias stretches by 1 / 0.5). Axis 1 (7 -> 4) has x_original(0) =
    2.2e-16, where the reference's window starts one element early (onnx_oracles.glitch_positions);
    onnxruntime and the reference with its window placed from floor(x_original) agree with us."""
    import onnx_oracles as O

    x = (np.arange(42, dtype=np.float32).reshape(6, 7)) ** 1.5
    attrs = dict(
        mode=mode,
        antialias=1,
        coordinate_transformation_mode="half_pixel_symmetric",
        keep_aspect_ratio_policy="not_larger",
    )
    case = O.ResizeCase("hps", x, sizes=np.array([3, 12], np.int64), attrs=attrs, opset=19)
    got = np.asarray(onnx_resize(x, sizes=[3, 12], **attrs))
    assert got.shape == (3, 4)
    assert {a: list(v) for a, v in O.glitch_positions(case).items()} == {1: [0]}
    np.testing.assert_allclose(got, O.run_ort(case), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(got, O.run_reference(case, window_fix=True), rtol=1e-5, atol=1e-4)
    raw = O.run_reference(case)
    np.testing.assert_allclose(got[:, 1:], raw[:, 1:], rtol=1e-5, atol=1e-4)
    assert np.abs(got[:, 0] - raw[:, 0]).min() > 1e-3  # the glitch: only column 0 differs


def test_node_with_scales_second_at_opset_11_says_roi_comes_second():
    from onnx import helper

    node = helper.make_node("Resize", ["X", "scales"], ["Y"], mode="nearest")
    x = np.ones((1, 1, 2, 2), np.float32)
    s = np.array([1, 1, 2, 2], np.float32)
    with pytest.raises(ValueError, match=r"the second input is roi, and the scales go third.*\['X', '', 'scales'\]"):
        onnx_node_resize(node, x, s, opset=17)
    assert onnx_node_resize(node, x, s, opset=10).shape == (1, 1, 4, 4)
