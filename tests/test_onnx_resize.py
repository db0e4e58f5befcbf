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
