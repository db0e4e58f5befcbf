"""The shared front-end prologue (``jax_resize/_src/frontend.py``): every public front end checks
the data input's dtype and rank, converts it to a jax array exactly once, holds the output to the
size limit, and returns an empty output without building any axis's weights.

Oracles: the error types and messages the prologue documents (each through two or more front
ends); a spy on ``dtypes.as_array`` counting the conversions of one call; for empty outputs,
``jnp.zeros`` of the dtype the non-empty call returns, in a child process whose address space
is capped (building the weights of a 7e8-long axis would need gigabytes)."""

import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import capped_failure, run_capped

import jax_resize
from jax_resize import compat
from jax_resize._src import dtypes, frontend

STRINGS = np.array([["a", "b"], ["c", "d"]])


@pytest.mark.parametrize(
    "call",
    [
        lambda x: jax_resize.resize(x, (4, 4)),
        lambda x: jax_resize.onnx_resize(x, scales=[2.0, 2.0]),
        lambda x: jax_resize.scale_and_translate(x, (4, 4), (0, 1), [2.0, 2.0], [0.0, 0.0]),
        lambda x: compat.cv2_resize(x, (4, 4)),
        lambda x: compat.pil_resize(x, (4, 4)),
        lambda x: compat.tf_resize(x[..., None], (4, 4), "nearest"),
    ],
)
def test_unsupported_dtype_is_a_type_error(call):
    with pytest.raises(TypeError, match="dtype <U1, which cannot be resized"):
        call(STRINGS)


@pytest.mark.parametrize(
    "call",
    [
        lambda x: jax_resize.onnx_resize(x, scales=[2.0, 2.0], mode="linear"),
        lambda x: jax_resize.openvino_interpolate(x, [4, 4], [0, 1], mode="linear", shape_calculation_mode="sizes"),
    ],
)
def test_bool_needs_nearest(call):
    x = np.ones((2, 2), bool)
    with pytest.raises(TypeError, match="bool, which only mode='nearest' can resize; got mode='linear'"):
        call(x)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x: compat.tf_resize(x, (4, 4)), "images has dtype complex64; TensorFlow's filtered resizes take real"),
        (lambda x: compat.tf_resize(x.real > 0, (4, 4), "area"), "images has dtype bool; TensorFlow's filtered"),
        (
            lambda x: jax_resize.crop_and_resize(x[None], [[0, 0, 1, 1]], [0], (4, 4)),
            r"image must be real \(int or float\); got dtype complex64",
        ),
    ],
)
def test_real_only_front_ends_refuse_complex_and_bool(call, message):
    with pytest.raises(TypeError, match=message):
        call(np.ones((2, 2, 1), np.complex64))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: jax_resize.onnx_resize(np.float32(1.0), scales=[]), r"X must be of rank >= 1; got shape \(\)"),
        (
            lambda: jax_resize.openvino_interpolate(
                np.float32(1.0), [], [], mode="nearest", shape_calculation_mode="sizes"
            ),
            r"image must be of rank >= 1",
        ),
        (lambda: compat.torch_interpolate(np.ones((2, 2)), size=3), r"input must be \[N, C, W\].*rank 3-5"),
        (lambda: compat.cv2_resize(np.ones(4), (2, 2)), r"src must be an \[H, W\] or \[H, W, C\] image; got shape"),
        (
            lambda: jax_resize.resize_ragged(np.ones(4), [[2]], ()),
            r"images must be \[N, D_1, ...\] with at least one example axis; got shape \(4,\)",
        ),
        (
            lambda: jax_resize.crop_and_resize(np.ones((2, 2, 1)), [[0, 0, 1, 1]], [0], (4, 4)),
            r"image must be of rank 4 \[N, H, W, C\]; got shape \(2, 2, 1\)",
        ),
    ],
)
def test_rank_is_checked(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda x: jax_resize.resize(x, (90, 90)), "shape"),
        (lambda x: jax_resize.onnx_resize(x, sizes=[90, 90]), "sizes"),
        (lambda x: jax_resize.scale_and_translate(x, (90, 90), (0, 1), [9.0, 9.0], [0.0, 0.0]), "shape"),
        (lambda x: compat.tf_resize(x[..., None], (90, 90)), "size"),
        (lambda x: compat.cv2_resize(x, (90, 90)), "dsize/fx/fy"),
    ],
)
def test_output_limit_names_the_argument(call, argument):
    previous = jax_resize.set_max_output_elements(1000)
    try:
        with pytest.raises(ValueError, match=f"^{argument} asks for an output of shape .* above the limit of 1,000"):
            call(np.ones((10, 10), np.float32))
    finally:
        jax_resize.set_max_output_elements(previous)


@pytest.fixture
def conversions(monkeypatch):
    """The modules that called ``dtypes.as_array`` on a value that was not yet a jax array."""
    callers = []
    convert = dtypes.as_array

    def spy(value):
        if not isinstance(value, (jax.Array, jax.core.Tracer)):
            callers.append(sys._getframe(1).f_globals["__name__"])
        return convert(value)

    monkeypatch.setattr(dtypes, "as_array", spy)
    return callers


IMAGE = np.arange(48, dtype=np.float32).reshape(4, 4, 3)

ONE_CONVERSION = {
    "resize linear": lambda: jax_resize.resize(IMAGE, (6, 5, 3)),
    "resize nearest onnx options": lambda: jax_resize.resize_with_onnx_attributes(
        IMAGE, (6, 5, 3), "nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"
    ),
    "resize pil": lambda: jax_resize.resize(IMAGE.astype(np.uint8), (6, 5, 3), "pil_bicubic"),
    "resize pil alpha": lambda: jax_resize.resize_with_pillow_filter(
        IMAGE.astype(np.uint8)[..., :2], (6, 5, 2), compat.BILINEAR, alpha="premultiplied"
    ),
    "scale_and_translate": lambda: jax_resize.scale_and_translate(IMAGE, (8, 8, 3), (0, 1), [2.0, 2.0], [0.0, 0.0]),
    "onnx_resize": lambda: jax_resize.onnx_resize(IMAGE, scales=[2.0, 2.0, 1.0], mode="cubic"),
    "openvino_interpolate": lambda: jax_resize.openvino_interpolate(
        IMAGE, [8, 8], [0, 1], mode="linear", shape_calculation_mode="sizes"
    ),
    "resize_ragged": lambda: jax_resize.resize_ragged(IMAGE[None], [[3, 4]], (5, 5, 3)),
    "crop_and_resize": lambda: jax_resize.crop_and_resize(IMAGE[None], [[0, 0, 1, 1]], [0], (5, 5)),
    "cv2_resize": lambda: compat.cv2_resize(IMAGE, (5, 6)),
    "pil_resize": lambda: compat.pil_resize(IMAGE.astype(np.uint8), (5, 6)),
    "tf_resize": lambda: compat.tf_resize(IMAGE, (5, 6), "bicubic"),
    "tf_resize nearest": lambda: compat.tf_resize(IMAGE, (5, 6), "nearest"),
    "torch_interpolate": lambda: compat.torch_interpolate(IMAGE[None], size=(6, 7), mode="bilinear"),
}


@pytest.mark.parametrize("name", list(ONE_CONVERSION))
def test_the_image_is_converted_once_by_the_prologue(name, conversions):
    ONE_CONVERSION[name]()
    assert conversions == ["jax_resize._src.frontend"]


def test_a_jax_array_is_passed_through_unconverted(conversions):
    x = jnp.asarray(IMAGE)
    jax_resize.resize(x, (6, 5, 3), "pil_lanczos")
    jax_resize.onnx_resize(x, sizes=[6, 5, 3])
    assert conversions == []


@pytest.mark.parametrize(
    "call, dtype",
    [
        (lambda x: jax_resize.resize(x, (0, 5)), np.float32),  # integers promote to float
        (lambda x: jax_resize.resize(x, (0, 5), "nearest"), np.int16),
        (lambda x: jax_resize.resize(x, (3, 0), "pil_bicubic"), np.int16),
        (lambda x: jax_resize.resize(x.astype(np.float16), (0, 5), "cubic"), np.float16),
        (lambda x: jax_resize.scale_and_translate(x, (0, 5), (0, 1), [1.0, 1.0], [0.0, 0.0]), np.float32),
        (lambda x: jax_resize.onnx_resize(x, sizes=[0, 5]), np.int16),
        (lambda x: jax_resize.resize_ragged(x[None], [[2, 3]], (0, 5)), np.float32),
        (lambda x: compat.tf_resize(x[None, ..., None][:0], (2, 5)), np.float32),  # TensorFlow refuses size 0
        (lambda x: compat.tf_resize(x[None, ..., None][:0], (2, 5), "nearest"), np.int16),
        (lambda x: jax_resize.crop_and_resize(x[None, ..., None][..., :0], [[0, 0, 1, 1]], [0], (2, 2)), np.float32),
    ],
)
def test_empty_output_is_zeros_of_the_result_dtype(call, dtype):
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    out = call(x)
    assert out.dtype == dtype and 0 in out.shape
    # the same call under jit
    assert jax.jit(call)(x).dtype == dtype


def test_empty_output_is_returned_after_the_argument_checks():
    x = np.ones((3, 4), np.float32)
    with pytest.raises(ValueError, match="cannot resize axis 0 of length 0 to length 5"):
        jax_resize.resize(np.ones((0, 4)), (5, 0))
    with pytest.raises(ValueError, match="unknown|not one of|method"):
        jax_resize.resize(x, (0, 4), "no_such_method")
    with pytest.raises(ValueError, match="scale must be positive"):
        jax_resize.scale_and_translate(x, (0, 4), (0, 1), [0.0, 1.0], [0.0, 0.0])
    with pytest.raises(TypeError, match=r"bool, which only the NEAREST filter \('pil_nearest'"):
        jax_resize.resize(np.ones((3, 4), bool), (0, 4), "pil_bilinear")


HUGE = 7 * 10**8


@pytest.mark.parametrize(
    "expression",
    [
        f"jax_resize.resize(x, (0, {HUGE}))",
        f"jax_resize.resize(x, (0, {HUGE}), 'lanczos3')",
        f"jax_resize.resize(x, (0, {HUGE}), 'pil_lanczos')",
        f"jax_resize.scale_and_translate(x, (0, {HUGE}), (0, 1), [1.0, {HUGE} / 4], [0.0, 0.0])",
        f"jax.jit(lambda v: jax_resize.scale_and_translate(v, (0, {HUGE}), (0, 1), jnp.ones(2), jnp.zeros(2)))(x)",
        f"jax_resize.compat.tf_resize(x[None, :, :, None][:0], (2, {HUGE}))",
    ],
)
def test_empty_output_builds_no_weights_for_a_huge_axis(expression):
    code = textwrap.dedent(
        f"""
        import jax, jax.numpy as jnp, numpy as np, jax_resize, jax_resize.compat
        x = np.ones((3, 4), np.float32)
        out = {expression}
        print(out.shape, out.dtype, float(jnp.abs(out).sum()))
        """
    )
    run = run_capped(code)
    assert not capped_failure(run), capped_failure(run)
    assert run.returncode == 0, run.stderr[-2000:]
    shape = "(0, 2, 700000000, 1)" if "tf_resize" in expression else "(0, 700000000)"
    assert run.stdout.split("\n")[0] == f"{shape} float32 0.0"


def test_prologue_float32_converts_host_arrays_on_the_host():
    # 2**40 + 1 has no int32 form: converted on the host it rounds once, to float32's 2**40
    big = np.array([2**40 + 1], np.int64)
    array, dtype = frontend.prologue("images", big, float32=True)
    assert dtype == np.int64 and array.dtype == jnp.float32 and float(array[0]) == 2.0**40


# --- what the pipelines ask of the front ends -------------------------------------------------------


def test_shared_input_sizes_hold_their_inputs():
    sizes = [1, 63, 64, 65, 500, 4031, 9000]
    shared = frontend.shared_input_sizes(sizes)
    assert all(s >= n for s, n in zip(shared, sizes)) and list(shared) == sorted(shared)


@pytest.mark.parametrize("window", [(0, 0, 41, 29), (5, 3, 20, 17), (40, 28, 1, 1)])
def test_output_window_is_that_crop_of_pillows_result(window):
    from PIL import Image

    image = np.random.default_rng(4).integers(0, 256, (97, 131, 3), np.uint8)
    top, left, h, w = window
    want = np.asarray(Image.fromarray(image).resize((29, 41), Image.Resampling.BILINEAR))[
        top : top + h, left : left + w
    ]
    with frontend.output_window({0: (top, top + h), 1: (left, left + w)}):
        got = compat.pil_resize(image, (29, 41), compat.BILINEAR)
    np.testing.assert_array_equal(np.asarray(got), want)
