"""Extreme sizes fail fast: every front end refuses an output above the limit with a ValueError
naming the argument, before building anything — eagerly and under ``jit`` — in a subprocess whose
address space and CPU time are capped (an attempt to allocate, or a runaway loop, kills it or
raises inside it instead of passing).

Oracle: the exit status and stdout/stderr of that subprocess (no OOM, no internal exception, no
hang), and the CPU time the refused call itself took, against a bound >= 20x what it measures.
"""

import re
import textwrap

import jax
import numpy as np
import pytest
from conftest import capped_failure, run_capped

import jax_resize
from jax_resize import compat

# A refusal computes a few products: 0.1-45 ms of CPU per call measured (jit tracing included);
# this bound, in CPU seconds of the child (not wall time: a loaded CI machine stretches that),
# keeps a >= 20x margin.
REFUSAL_CPU_SECONDS = 1.0

CALLS = {
    "onnx_resize sizes": "jax_resize.onnx_resize(x4, sizes=[1, 1, 10**6, 10**6])",
    "onnx_resize scales 1e6": "jax_resize.onnx_resize(x4, scales=[1, 1, 1e6, 1e6])",
    "onnx_resize under jit": "jax.jit(lambda v: jax_resize.onnx_resize(v, scales=[1, 1, 1e6, 1e6]))(x4)",
    "resize": "jax_resize.resize(img, (10**6, 10**6, 3))",
    "resize under jit": "jax.jit(lambda v: jax_resize.resize(v, (10**6, 10**6, 3), 'pil_lanczos'))(img)",
    "openvino sizes": (
        "jax_resize.openvino_interpolate(x4, [10**6, 10**6], [2, 3], mode='linear', shape_calculation_mode='sizes')"
    ),
    "openvino pads": (
        "jax_resize.openvino_interpolate(x4, [2.0, 2.0], [2, 3], mode='linear', shape_calculation_mode='scales', "
        "pads_end=[0, 0, 0, 10**12])"
    ),
    "scale_and_translate": "jax_resize.scale_and_translate(img, (10**6, 10**6, 3), (0, 1), [1e5, 1e5], [0., 0.])",
    "resize_ragged": "jax_resize.resize_ragged(img[None], [[8, 8]], (10**6, 10**6, 3))",
    "crop_and_resize": "jax_resize.crop_and_resize(img[None], [[0., 0., 1., 1.]], [0], (10**6, 10**6))",
    "cv2_resize": "compat.cv2_resize(img, None, fx=1e6, fy=1e6)",
    "pil_resize": "compat.pil_resize((img * 255).astype(np.uint8), (10**6, 10**6))",
    "torch_interpolate": "compat.torch_interpolate(x4, scale_factor=1e6, mode='bilinear')",
    "tf_resize": "compat.tf_resize(img, (10**6, 10**6))",
    "flax Resize": "jax_resize.flax.Resize(size=10**6)(img[None])",
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_huge_output_is_a_clear_error_in_a_capped_subprocess(name):
    """The call raises the output-limit ValueError in a child capped at 6 GiB of address space and
    30 s of CPU, and the call itself takes under ``REFUSAL_CPU_SECONDS`` of CPU."""
    code = textwrap.dedent(
        f"""
        import time
        import jax, numpy as np, jax_resize, jax_resize.flax
        from jax_resize import compat
        x4 = np.ones((1, 2, 8, 8), np.float32)
        img = np.ones((8, 8, 3), np.float32)
        start = time.process_time()
        try:
            {CALLS[name]}
        except ValueError as e:
            print("ValueError", time.process_time() - start, e)
        """
    )
    run = run_capped(code)
    assert not capped_failure(run), capped_failure(run)
    assert run.returncode == 0, run.stderr[-2000:]
    words = run.stdout.split()
    assert words and words[0] == "ValueError", run.stdout + run.stderr[-2000:]
    assert float(words[1]) < REFUSAL_CPU_SECONDS, f"the refusal took {words[1]} s of CPU"
    assert "above the limit of 2,147,483,648" in run.stdout and "set_max_output_elements" in run.stdout


def test_limit_can_be_raised_and_lowered():
    x = np.ones((4, 4), np.float32)
    previous = jax_resize.set_max_output_elements(63)
    try:
        with pytest.raises(
            ValueError, match=r"shape asks for an output of shape 8x8 = 64 elements, above the limit of 63"
        ):
            jax_resize.resize(x, (8, 8))
        jax_resize.set_max_output_elements(64)
        np.testing.assert_allclose(np.asarray(jax_resize.resize(x, (8, 8))), 1.0)
    finally:
        assert jax_resize.set_max_output_elements(previous) == 64
    assert jax_resize.max_output_elements() == previous == 2**31


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "10"])
def test_bad_limit(bad):
    with pytest.raises(ValueError, match="limit must be a positive int"):
        jax_resize.set_max_output_elements(bad)


def test_names_the_argument_of_each_front_end():
    x4 = np.ones((1, 2, 8, 8), np.float32)
    with pytest.raises(ValueError, match=r"^scales asks for an output of shape 1x2x8000000000x8"):
        jax_resize.onnx_resize(x4, scales=[1, 1, 1e9, 1])
    with pytest.raises(ValueError, match=r"^pads_begin/pads_end \(the padded input\) asks"):
        jax_resize.openvino_interpolate(
            x4, [1.0], [2], mode="linear", shape_calculation_mode="scales", pads_end=[0, 0, 0, 10**12]
        )
    with pytest.raises(ValueError, match=r"^dsize/fx/fy asks"):
        compat.cv2_resize(np.ones((8, 8, 3), np.float32), (10**6, 10**6))


def test_host_weights_of_one_axis_are_held_to_the_limit():
    """A tiny scale stretches the filter over ~1 / scale inputs per output, whatever the output
    length: 10**6 rows x 4e6 taps (clamped edges: every tap counts, 16 TB of weights) are refused
    naming the scale, in a child capped at 6 GiB of address space and 30 s of CPU (building them
    would die there), each refusal within ``REFUSAL_CPU_SECONDS`` of CPU."""
    code = textwrap.dedent(
        """
        import time
        import numpy as np, jax_resize
        for call in (
            lambda: jax_resize.weight_matrix(8, 10**6, mode="cubic", antialias=True, scale=1e-6),
            lambda: jax_resize.scale_and_translate(
                np.ones((8, 8)), (1000, 8), (0, 1), [1e-9, 1.0], [0.0, 0.0], "linear", exclude_outside=False
            ),
        ):
            start = time.process_time()
            try:
                call()
                print("no error")
            except ValueError as e:
                print(time.process_time() - start, e)
        """
    )
    run = run_capped(code)
    assert not capped_failure(run), capped_failure(run)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert len(lines) == 2, run.stdout + run.stderr[-2000:]
    cpu, messages = zip(*(line.split(" ", 1) for line in lines))
    cpu = [float(c) for c in cpu]
    assert re.match(r"^scale=1e-06 stretches the cubic\(a=-0.75\) filter over 4,000,002 taps", messages[0])
    assert re.match(r"^scale=1e-09 with exclude_outside=False .* above the limit", messages[1])
    assert max(cpu) < REFUSAL_CPU_SECONDS, f"the refusals took {cpu} s of CPU"


def test_dropped_taps_do_not_widen_the_window_past_the_input():
    # exclude_outside (jax.image's rule): the stretched window of scale 1e-6 is cut to the 8 inputs,
    # so 1000 outputs cost 1000 x 8 weights, not 1000 x 4e6. Oracle: jax.image itself.
    x = np.random.default_rng(3).random((8, 8)).astype(np.float32)
    # scale 2**-20 and translation 1/2 - 2**-18 (exact in float32): row 0 samples x = 3.5, the
    # others lie far past the image (zero rows)
    scale, translation = np.array([2.0**-20, 1.0], np.float32), np.array([0.5 - 2.0**-18, 0.0], np.float32)
    args = ((1000, 8), (0, 1), scale, translation, "linear")
    got = jax_resize.scale_and_translate(x, *args)
    want = jax.image.scale_and_translate(x, *args)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=0, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got)[0], x.mean(axis=0), rtol=1e-5)  # ~1/8 of each row
