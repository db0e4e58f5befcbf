"""Bad input: a clear ValueError/TypeError naming the argument, the value and what is allowed."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize import onnx_resize
from jax_resize._src import validation

X = np.ones((3, 4), np.float32)

BAD = [
    (dict(scales=[2, 2], sizes=[1, 1]), ValueError, "exactly one of scales and sizes.*both"),
    (dict(), ValueError, "exactly one of scales and sizes.*neither"),
    (dict(scales=np.array([], np.float32), sizes=np.array([], np.int64)), ValueError, "neither"),
    (dict(scales=[2.0]), ValueError, r"scales must have 2 elements.*\[2.0\]"),
    (dict(sizes=[2, 3, 4]), ValueError, "sizes must have 2 elements"),
    (dict(scales=[0, 1]), ValueError, "scales must be finite and > 0"),
    (dict(scales=[-1.0, 1]), ValueError, "scales must be finite and > 0"),
    (dict(scales=[np.nan, 1]), ValueError, "nan"),
    (dict(scales=[np.inf, 1]), ValueError, "inf"),
    (dict(sizes=[-1, 2]), ValueError, r"sizes must be >= 0.*\[-1, 2\]"),
    (dict(sizes=[1.5, 2]), ValueError, "sizes must be integers"),
    (dict(scales=[2, 2], mode="lineer"), ValueError, "mode='lineer'.*Did you mean 'linear'"),
    (dict(scales=[2, 2], coordinate_transformation_mode="halfpixel"), ValueError, "Did you mean 'half_pixel'"),
    (dict(scales=[2, 2], nearest_mode="round_prefer_flor"), ValueError, "Did you mean 'round_prefer_floor'"),
    (dict(scales=[2, 2], keep_aspect_ratio_policy="not-larger"), ValueError, "Did you mean 'not_larger'"),
    (dict(scales=[2, 2], axes=[0, 0]), ValueError, "repeats an axis"),
    (dict(scales=[2, 2], axes=[0, -2]), ValueError, "repeats an axis"),
    (dict(scales=[2, 2], axes=[0, 2]), ValueError, r"axis 2 is out of range \[-2, 1\]"),
    (dict(scales=[2, 2], axes=[0.0, 1]), TypeError, "axes must be integers"),
    (dict(scales=[2, 2], antialias=1), ValueError, "antialias=1 is only defined for mode='linear' or 'cubic'"),
    (dict(scales=[2, 2], antialias=2, mode="linear"), ValueError, "antialias must be 0 or 1"),
    (dict(scales=[2, 2], exclude_outside=3), ValueError, "exclude_outside must be 0 or 1"),
    (dict(scales=[2, 2], keep_aspect_ratio_policy="not_larger"), ValueError, "applies to sizes only"),
    (
        dict(scales=[2, 2], mode="linear", antialias=1, opset=13),
        ValueError,
        "antialias=1 is not an attribute of Resize-13",
    ),
    (dict(scales=[2, 2], axes=[0, 1], opset=11), ValueError, "axes=.* is not an attribute of Resize-11"),
    (dict(sizes=[2, 2], keep_aspect_ratio_policy="not_smaller", opset=13), ValueError, "not an attribute of Resize-13"),
    (
        dict(scales=[2, 2], coordinate_transformation_mode="asymmetric", opset=10),
        ValueError,
        "not an attribute of Resize-10",
    ),
    (dict(scales=[2, 2], mode="cubic", opset=10), ValueError, "mode='cubic'"),
    (dict(sizes=[2, 2], opset=10), ValueError, "sizes is not an input of Resize-10"),
    (dict(scales=[2, 2], coordinate_transformation_mode="tf_half_pixel_for_nn"), ValueError, r"opset\(s\) \[11\]"),
    (
        dict(scales=[2, 2], coordinate_transformation_mode="half_pixel_symmetric", opset=18),
        ValueError,
        r"opset\(s\) \[19\]",
    ),
    (dict(scales=[2, 2], opset=9), ValueError, "opset=9 is not supported; Resize exists from opset 10"),
    (
        dict(roi=[0, 0, 1], sizes=[2, 2], coordinate_transformation_mode="tf_crop_and_resize"),
        ValueError,
        "roi must have 2 \\* 2 = 4",
    ),
    (dict(scales=[2, 2], cubic_coeff_a=float("nan")), ValueError, "cubic_coeff_a must be finite"),
]


@pytest.mark.parametrize("kwargs,exc,match", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        onnx_resize(X, **kwargs)


def test_traced_static_arguments_are_type_errors():
    with pytest.raises(TypeError, match="scales must be static.*fix the output shape"):
        jax.jit(lambda s: onnx_resize(X, scales=s))(jnp.array([2.0, 2.0]))
    with pytest.raises(TypeError, match="sizes must be static"):
        jax.jit(lambda s: onnx_resize(X, sizes=s))(jnp.array([2, 2]))
    with pytest.raises(TypeError, match="roi must be static when tf_crop_and_resize is used with scales"):
        jax.jit(lambda r: onnx_resize(X, r, scales=[2.0, 2.0], coordinate_transformation_mode="tf_crop_and_resize"))(
            jnp.array([0.0, 0.0, 1.0, 1.0])
        )


def test_dtypes():
    with pytest.raises(TypeError, match="dtype <U1.*cannot be resized"):
        onnx_resize(np.array(["a", "b"]), scales=[2.0])
    with pytest.raises(TypeError, match="bool, which only mode='nearest'"):
        onnx_resize(np.ones(3, bool), scales=[2.0], mode="linear")
    with pytest.raises(ValueError, match="rank >= 1"):
        onnx_resize(np.float32(1.0), scales=[])


def test_empty_axis_to_non_empty():
    with pytest.raises(ValueError, match="cannot resize axis 0 of length 0"):
        onnx_resize(np.ones((0, 3)), sizes=[2, 3])


def test_choice_without_close_match_lists_allowed():
    with pytest.raises(ValueError, match="allowed values: 'a', 'b'") as info:
        validation.choice("opt", "zzzzzz", ("a", "b"))
    assert "Did you mean" not in str(info.value)


def test_empty_output_axis_beyond_int64_is_refused():
    # 8 * 3.4e38 samples on the last axis of an empty output: XLA's dimensions are int64
    with pytest.raises(ValueError, match=r"scales asks for an empty output with an axis of 2,719,999.*\(2\*\*63 - 1\)"):
        onnx_resize(np.ones((1, 2, 8, 8), np.float32), scales=[1.0, 1 / 3, 1.0, 3.4e38], mode="nearest")
    validation.check_output_size((0, 2**63 - 1), "sizes")  # the longest axis there is: allowed
    with pytest.raises(ValueError, match="sizes asks for an empty output"):
        validation.check_output_size((0, 2**63), "sizes")
