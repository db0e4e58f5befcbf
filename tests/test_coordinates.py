"""Coordinates layer (the rules ONNX's modes use) against the spec's formulas, by hand (exact rationals)."""

from fractions import Fraction

import numpy as np
import pytest

from jax_resize._src import coordinates as _coordinates
from jax_resize._src.peers import jax_image, onnx


def onnx_coordinates(mode, *args, **kw):
    """The registered rule of an ONNX coordinate_transformation_mode, evaluated."""
    return _coordinates.source_coordinates(onnx.COORDINATE_RULES.get(mode, mode), *args, **kw)


def test_half_pixel_upsample_by_two():
    # Spec: x_original = (x_resized + 0.5) / scale - 0.5
    x, outside = onnx_coordinates("half_pixel", 4, 8, 2.0)
    assert outside is None
    np.testing.assert_array_equal(x, [-0.25, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.25])


def test_align_corners():
    # x_original = x_resized * (length_original - 1) / (length_resized - 1) = y * 3 / 6
    x, _ = onnx_coordinates("align_corners", 4, 7, 7 / 4)
    np.testing.assert_allclose(x, np.arange(7) / 2, rtol=0, atol=1e-15)
    x, _ = onnx_coordinates("align_corners", 4, 1, 1 / 4)
    np.testing.assert_array_equal(x, [0.0])


def test_asymmetric_and_tf_half_pixel_for_nn():
    x, _ = onnx_coordinates("asymmetric", 3, 6, 2.0)
    np.testing.assert_array_equal(x, [0, 0.5, 1, 1.5, 2, 2.5])
    x, _ = onnx_coordinates("tf_half_pixel_for_nn", 3, 6, 2.0)
    np.testing.assert_array_equal(x, [0.25, 0.75, 1.25, 1.75, 2.25, 2.75])


def test_pytorch_half_pixel_length_one_is_zero():
    # Spec: length_resized > 1 ? (x + 0.5) / scale - 0.5 : 0
    x, _ = onnx_coordinates("pytorch_half_pixel", 5, 1, 0.2)
    np.testing.assert_array_equal(x, [0.0])
    x, _ = onnx_coordinates("pytorch_half_pixel", 5, 2, 0.4)
    np.testing.assert_allclose(x, [0.75, 3.25])


def test_half_pixel_symmetric():
    # in 4, scale 0.6: length_resized = 2.4, out = 2, adjustment = 2/2.4, offset = 2 * (1 - 2/2.4)
    x, _ = onnx_coordinates("half_pixel_symmetric", 4, 2, 0.6)
    offset = 2 * (1 - 2 / 2.4)
    np.testing.assert_allclose(x, [offset + 0.5 / 0.6 - 0.5, offset + 1.5 / 0.6 - 0.5], rtol=1e-15)


def test_tf_crop_and_resize_and_outside_mask():
    # x = start * (in - 1) + y * (end - start) * (in - 1) / (out - 1)
    x, outside = onnx_coordinates("tf_crop_and_resize", 5, 4, 4 / 5, roi=(-0.25, 1.25))
    np.testing.assert_allclose(x, [-1.0, 1.0, 3.0, 5.0])
    np.testing.assert_array_equal(outside, [True, False, False, True])
    x, _ = onnx_coordinates("tf_crop_and_resize", 5, 1, 1 / 5, roi=(0.2, 0.6))
    np.testing.assert_allclose(x, [0.5 * (0.2 + 0.6) * 4])


def test_unknown_mode():
    with pytest.raises(ValueError, match="coordinate rule 'bogus' is not registered"):
        onnx_coordinates("bogus", 3, 3, 1.0)


@pytest.mark.parametrize("in_size,out_size", [(5, 7), (7, 5), (300, 224), (451, 224), (3, 1000)])
def test_jax_image_nearest_indices_exact(in_size, out_size):
    want = [int(Fraction(2 * i + 1, 2) * in_size / out_size) for i in range(out_size)]
    np.testing.assert_array_equal(jax_image.nearest_indices(in_size, out_size), want)
