"""The public ``resize``, ``resize_with_onnx_attributes`` and ``resize_with_pillow_filter`` front end
(``jax_resize/_src/resize.py``): one API's options each, resize's deprecated keywords, the peers' rules.

Oracles: ``jax.image.resize`` (jax.image's methods, also ``tests/test_jax_image.py``),
``compat.pil_resize`` (the ``pil_*`` methods: one pass per changed axis of ``Image.resize``),
``onnx_resize`` (the ONNX nearest rounding), the new functions (resize's deprecated keywords: the
same bits), and a spy on the peers' public functions (the image
reaches the peers' rules and ``apply.run`` directly, never another front end)."""

import inspect
import re

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


def test_signatures_take_one_api_each():
    params = lambda f: [(p.name, p.kind.name) for p in inspect.signature(f).parameters.values()]
    assert params(jax_resize.resize) == [
        ("image", "POSITIONAL_OR_KEYWORD"),
        ("shape", "POSITIONAL_OR_KEYWORD"),
        ("method", "POSITIONAL_OR_KEYWORD"),
        ("antialias", "POSITIONAL_OR_KEYWORD"),
        ("precision", "POSITIONAL_OR_KEYWORD"),
        ("strategy", "KEYWORD_ONLY"),
        ("deprecated", "VAR_KEYWORD"),
    ]
    onnx_names = [name for name, _ in params(jax_resize.resize_with_onnx_attributes)]
    assert set(resize_module.ONNX_ATTRIBUTES) <= set(onnx_names) and "alpha" not in onnx_names
    pillow_names = [name for name, _ in params(jax_resize.resize_with_pillow_filter)]
    assert pillow_names[:3] == ["image", "shape", "resample"] and "coordinate_transformation_mode" not in pillow_names


@pytest.mark.parametrize("method", resize_module.PIL_METHODS)
def test_pil_methods_are_resize_with_pillow_filter(method):
    resample, version = resize_module.pillow_filter(method)
    prefix = method.split("_")[0]  # pil, pil12, pil11
    assert resample.name.lower() == method.split("_")[1] and version == (prefix[3:] or "13")
    got = jax_resize.resize(IMAGE, (4, 13, 3), method)
    want = jax_resize.resize_with_pillow_filter(IMAGE, (4, 13, 3), resample, pillow_version=version)
    np.testing.assert_array_equal(got, want)


def test_onnx_nearest_rounding_equals_onnx_resize(no_other_front_end):
    x = RNG.random((5, 8)).astype(np.float32)
    got = jax_resize.resize_with_onnx_attributes(
        x, (9, 3), "nearest", coordinate_transformation_mode="asymmetric", nearest_mode="round_prefer_floor"
    )
    want = jax_resize.onnx_resize(
        x, sizes=[9, 3], mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="round_prefer_floor"
    )
    np.testing.assert_array_equal(got, want)


RGBA = RNG.integers(0, 256, (7, 9, 4)).astype(np.uint8)
FLOATS = RNG.random((7, 9, 3)).astype(np.float32)
ROI = [0.1, 0.2, 0.0, 0.8, 0.9, 1.0]

# each deprecated spelling of resize (issue 55): (image, shape, method, antialias, old keywords), the
# call that takes them now, and the replacement the warning names
DEPRECATED = {
    "onnx nearest": (
        (FLOATS, (9, 4, 3), "nearest", True, dict(coordinate_transformation_mode="asymmetric", nearest_mode="floor")),
        lambda x, s: jax_resize.resize_with_onnx_attributes(
            x, s, "nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"
        ),
        "resize_with_onnx_attributes(image, shape, 'nearest', coordinate_transformation_mode='asymmetric', "
        "nearest_mode='floor')",
    ),
    "onnx cubic": (
        (IMAGE, (4, 13, 3), "cubic", False, dict(cubic_coeff_a=-0.75, exclude_outside=False)),
        lambda x, s: jax_resize.resize_with_onnx_attributes(
            x, s, "cubic", antialias=False, cubic_coeff_a=-0.75, exclude_outside=False
        ),
        "resize_with_onnx_attributes(image, shape, 'cubic', antialias=False, cubic_coeff_a=-0.75, "
        "exclude_outside=False)",
    ),
    "onnx crop": (
        (FLOATS, (5, 6, 3), "lanczos3", True, dict(coordinate_transformation_mode="tf_crop_and_resize", roi=ROI)),
        lambda x, s: jax_resize.resize_with_onnx_attributes(
            x, s, "lanczos3", coordinate_transformation_mode="tf_crop_and_resize", roi=ROI
        ),
        "resize_with_onnx_attributes(image, shape, 'lanczos3', coordinate_transformation_mode='tf_crop_and_resize', "
        "roi=roi)",
    ),
    "pil alpha": (
        (RGBA, (4, 13, 4), "pil_bicubic", True, dict(alpha="premultiplied")),
        lambda x, s: jax_resize.resize_with_pillow_filter(x, s, compat.BICUBIC, alpha="premultiplied"),
        "resize_with_pillow_filter(image, shape, compat.BICUBIC, alpha='premultiplied')",
    ),
    "pil12 alpha": (
        (RGBA, (4, 13, 4), "pil12_lanczos", True, dict(alpha="premultiplied")),
        lambda x, s: jax_resize.resize_with_pillow_filter(
            x, s, compat.LANCZOS, alpha="premultiplied", pillow_version="12"
        ),
        "resize_with_pillow_filter(image, shape, compat.LANCZOS, alpha='premultiplied', pillow_version='12')",
    ),
    "pil cubic_coeff_a": (
        (IMAGE, (4, 13, 3), "pil_bicubic", True, dict(cubic_coeff_a=-0.75)),
        lambda x, s: jax_resize.resize_with_pillow_filter(x, s, compat.BICUBIC, cubic_coeff_a=-0.75),
        "resize_with_pillow_filter(image, shape, compat.BICUBIC, cubic_coeff_a=-0.75)",
    ),
    "alpha None": (
        (IMAGE, (4, 13, 3), "linear", True, dict(alpha=None)),
        lambda x, s: jax_resize.resize(x, s, "linear"),
        "resize(image, shape, 'linear')",
    ),
    "pil at onnx defaults": (  # before the split pil_* accepted these values (extrapolation_value: any)
        (
            IMAGE,
            (4, 13, 3),
            "pil_box",
            True,
            dict(coordinate_transformation_mode="half_pixel", extrapolation_value=3.0),
        ),
        lambda x, s: jax_resize.resize(x, s, "pil_box"),
        "resize(image, shape, 'pil_box')",
    ),
}


@pytest.mark.parametrize("name", list(DEPRECATED))
def test_deprecated_spellings_warn_with_the_new_call_and_give_the_same_bits(name):
    (x, shape, method, antialias, old), new, spelled = DEPRECATED[name]
    with pytest.warns(DeprecationWarning, match=re.escape(f"call jax_resize.{spelled} instead")) as record:
        got = jax_resize.resize(x, shape, method, antialias, **old)
    assert record[0].filename == __file__  # the warning points at the caller
    want = new(x, shape)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_refused_mixtures_stay_refused():
    with pytest.raises(ValueError, match="has no coordinate_transformation_mode, roi option"):
        jax_resize.resize(
            IMAGE, (4, 4, 3), "pil_bilinear", coordinate_transformation_mode="asymmetric", roi=[0, 0, 0, 1, 1, 1]
        )
    with pytest.raises(ValueError, match="needs a pil_\\* method"):
        jax_resize.resize(IMAGE, (4, 4, 3), "linear", alpha="premultiplied")
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="resample=BICUBIC \\(3\\) only"):
        jax_resize.resize(IMAGE, (4, 4, 3), "pil_lanczos", cubic_coeff_a=-0.5)
    with pytest.raises(TypeError, match="unexpected keyword argument 'alpah'"):
        jax_resize.resize(IMAGE, (4, 4, 3), "pil_box", alpah="premultiplied")


def test_each_function_refuses_the_others_options():
    with pytest.raises(ValueError, match="'pil_box' is a Pillow filter, whose rule has no ONNX attributes"):
        jax_resize.resize_with_onnx_attributes(IMAGE, (4, 4, 3), "pil_box")
    with pytest.raises(ValueError, match="Keys' a of resample=BICUBIC"):
        jax_resize.resize_with_pillow_filter(IMAGE, (4, 4, 3), compat.BOX, cubic_coeff_a=-0.5)
    with pytest.raises(ValueError, match="resample=6 \\(MKS2013\\) is not a Pillow 12 filter"):
        jax_resize.resize_with_pillow_filter(IMAGE, (4, 4, 3), compat.MKS2013, pillow_version="12")
    with pytest.raises(TypeError, match="resample=3.0 must be an Image.Resampling value"):
        jax_resize.resize_with_pillow_filter(IMAGE, (4, 4, 3), 3.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'alpha'"):
        jax_resize.resize_with_onnx_attributes(IMAGE, (4, 4, 3), alpha="premultiplied")


def test_identity_axes_build_no_record():
    x = RNG.random((4, 6)).astype(np.float32)
    np.testing.assert_array_equal(jax_resize.resize(x, (4, 6), "cubic"), x)
    # a roi that covers the axis exactly is the identity too
    roi = [0.0, 0.0, 1.0, 1.0]
    got = jax_resize.resize_with_onnx_attributes(
        x, (4, 6), "linear", coordinate_transformation_mode="tf_crop_and_resize", roi=roi
    )
    np.testing.assert_array_equal(got, x)
