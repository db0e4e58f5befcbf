"""The public ``resize`` front end (``jax_resize/_src/resize.py``): its dispatch to the peers' rules.

Oracles: ``jax.image.resize`` (jax.image's methods, also ``tests/test_jax_image.py``),
``compat.pil_resize`` (the ``pil_*`` methods: one pass per changed axis of ``Image.resize``),
``onnx_resize`` (the ONNX nearest rounding), and a spy on the peers' public functions (the image
reaches the peers' rules and ``apply.run`` directly, never another front end)."""

import jax
import numpy as np
import pytest

import jax_resize
from jax_resize import compat
from jax_resize._src import resize as resize_module
from jax_resize._src.peers import onnx, openvino, pillow

RNG = np.random.default_rng(11)
IMAGE = RNG.integers(0, 256, (7, 9, 3)).astype(np.uint8)


def test_method_names_resolve_jax_image_and_pillow_names():
    assert resize_module.method_name(jax.image.ResizeMethod.LANCZOS3) == "lanczos3"
    assert resize_module.method_name("bicubic") == "cubic"
    assert resize_module.method_name("pil_hamming") == "pil_hamming"
    with pytest.raises(ValueError, match="Did you mean 'pil_box'"):
        resize_module.method_name("pil_bx")


@pytest.fixture
def no_other_front_end(monkeypatch):
    """Every other peer front end raises if ``resize`` calls it."""

    def refuse(*args, **kwargs):
        raise AssertionError("resize went through another front end")

    for module, name in ((onnx, "onnx_resize"), (pillow, "pil_resize"), (openvino, "openvino_interpolate")):
        monkeypatch.setattr(module, name, refuse)


@pytest.mark.parametrize("method", ["pil_nearest", "pil_box", "pil_bilinear", "pil_hamming", "pil_bicubic"])
def test_pil_methods_equal_pil_resize(method, no_other_front_end):
    got = jax_resize.resize(IMAGE, (4, 13, 3), method)
    resample = getattr(compat, method[4:].upper())
    want = compat.pil_resize(IMAGE, (13, 4), resample)  # compat keeps the function the spy replaced
    np.testing.assert_array_equal(got, want)


def test_onnx_nearest_rounding_equals_onnx_resize(no_other_front_end):
    x = RNG.random((5, 8)).astype(np.float32)
    got = jax_resize.resize(
        x, (9, 3), "nearest", coordinate_transformation_mode="asymmetric", nearest_mode="round_prefer_floor"
    )
    want = jax_resize.onnx_resize(
        x, sizes=[9, 3], mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="round_prefer_floor"
    )
    np.testing.assert_array_equal(got, want)


def test_pil_methods_refuse_onnx_options_and_alpha_needs_pil():
    with pytest.raises(ValueError, match="has no coordinate_transformation_mode, roi option"):
        jax_resize.resize(
            IMAGE, (4, 4, 3), "pil_bilinear", coordinate_transformation_mode="asymmetric", roi=[0, 0, 0, 1, 1, 1]
        )
    with pytest.raises(ValueError, match="cubic_coeff_a is accepted by 'pil_bicubic' only"):
        jax_resize.resize(IMAGE, (4, 4, 3), "pil_lanczos", cubic_coeff_a=-0.5)
    with pytest.raises(ValueError, match="needs a pil_\\* method"):
        jax_resize.resize(IMAGE, (4, 4, 3), "linear", alpha="premultiplied")


def test_identity_axes_build_no_record():
    x = RNG.random((4, 6)).astype(np.float32)
    np.testing.assert_array_equal(jax_resize.resize(x, (4, 6), "cubic"), x)
    # a roi that covers the axis exactly is the identity too
    roi = [0.0, 0.0, 1.0, 1.0]
    got = jax_resize.resize(x, (4, 6), "linear", coordinate_transformation_mode="tf_crop_and_resize", roi=roi)
    np.testing.assert_array_equal(got, x)
