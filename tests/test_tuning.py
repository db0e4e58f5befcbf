"""The tuning table (``execution/tuning.py``): one row per backend, and plans built for the GPU and
TPU rows run on this CPU with the results of the CPU row's plans.

Oracles: for the results, the CPU row's plans (integer outputs bit for bit; float outputs within
the summation order of a different strategy, 1e-5 of the input's range) and the ONNX reference for
one case; for the forms, the compiled program (a row loop is a ``while`` in the HLO)."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize._src.execution import apply, tuning
from jax_resize._src.peers import onnx as _onnx
from jax_resize._src.peers import pillow as _pillow

RNG = np.random.default_rng(34)


def test_rows_and_their_marks():
    assert set(tuning.TUNING) == {"cpu", "gpu", "tpu"}
    fields = {f.name for f in dataclasses.fields(tuning.Tuning)}
    for name, row in tuning.TUNING.items():
        assert row.backend == name and set(row.not_measured) <= fields
        hash(row)  # a static argument of the jitted application
    assert tuning.TUNING["cpu"].not_measured == ()
    assert "auto" not in tuning.TUNING["gpu"].not_measured  # set by the H200 run
    assert "auto" in tuning.TUNING["tpu"].not_measured
    for accelerator in ("gpu", "tpu"):  # never a CPU-only form
        row = tuning.TUNING[accelerator]
        assert (row.row_loop_min_taps, row.block_min_bytes, row.fused_max_terms, row.compiler_options) == (
            None,
            None,
            None,
            (),
        )


def test_tuning_for_backend_names():
    assert tuning.tuning_for("cpu") is tuning.TUNING["cpu"]
    assert tuning.tuning_for("TPU") is tuning.TUNING["tpu"]
    for name in ("gpu", "cuda", "rocm", "metal"):
        assert tuning.tuning_for(name) is tuning.TUNING["gpu"]
    with pytest.raises(ValueError, match="backend must be a jax backend name"):
        tuning.tuning_for(None)


def _onnx_ops(shape, out, mode, antialias):
    return [
        (a, _onnx.axis_record(n, o, o / n, mode=mode, coordinate_transformation_mode="half_pixel", antialias=antialias))
        for a, (n, o) in enumerate(zip(shape, out))
        if n != o
    ]


CASES = [
    ((600, 400, 3), (40, 30, 3), "linear", True),  # a wide first pass: the CPU row loop
    ((1200, 800, 3), (460, 307, 3), "cubic", True),  # a narrow pass before a band: the row loop
    ((64, 96, 3), (32, 48, 3), "linear", True),  # two integer decimations (fused on CPU when large)
    ((37, 41, 3), (80, 90, 3), "cubic", False),  # polyphase upsampling
    ((30, 2000), (30, 9), "linear", True),  # looped taps (more than max_unrolled_taps)
]


@pytest.mark.parametrize("backend", ["gpu", "tpu"])
@pytest.mark.parametrize("shape,out,mode,antialias", CASES)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_accelerator_plans_equal_cpu_plans_on_cpu(tune, backend, shape, out, mode, antialias, dtype):
    tune(row_loop_max_threads=1 << 20, block_min_bytes=0)  # every CPU-only form where eligible
    jax.clear_caches()
    # the case's own seed: its input does not depend on which tests ran before it in the worker
    rng = np.random.default_rng([34, *shape, *out, int(antialias), np.dtype(dtype).itemsize])
    x = jnp.asarray(rng.integers(0, 256, shape).astype(dtype))
    ops = _onnx_ops(shape, out, mode, antialias)
    want = np.asarray(apply.run(x, ops, backend="cpu"))
    got = np.asarray(apply.run(x, ops, backend=backend))
    assert got.dtype == want.dtype == dtype
    if dtype == np.uint8:
        # round-half-even of the same value; a different summation order may cross a .5 only by
        # an ulp, which would show as 1: counted (one in a small output, 1e-3 of a large one), and
        # each judged to be at a tie below
        diff = np.abs(got.astype(int) - want.astype(int))
        assert diff.max() <= 1 and (diff == 1).sum() <= max(1, 1e-3 * diff.size)
        if (diff == 1).any():
            exact = np.asarray(apply.run(x, ops, backend="cpu", dtype=np.float32))
            frac = np.abs(exact[diff == 1] % 1 - 0.5)
            assert frac.max() < 1e-3, frac.max()
    else:
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * 255)
    jax.clear_caches()


def test_accelerator_rows_leave_out_the_cpu_row_loop(tune):
    tune(row_loop_max_threads=1 << 20)
    shape, out = (600, 400, 3), (40, 30, 3)
    ops = _onnx_ops(shape, out, "linear", True)
    spec = jax.ShapeDtypeStruct(shape, np.uint8)

    def loops(backend):
        text = jax.jit(lambda v: apply.run(v, ops, backend=backend)).lower(spec).compile().as_text()
        return text.count(" while(")

    assert loops("cpu") == 1
    assert loops("gpu") == 0 and loops("tpu") == 0


@pytest.mark.parametrize("backend", ["gpu", "tpu"])
def test_accelerator_pillow_fixed_point_is_bit_exact(backend):
    # Pillow's 8-bit passes (integer fixed point, pass by pass): the same integers on every row
    from PIL import Image

    x = RNG.integers(0, 256, (97, 131, 3), dtype=np.uint8)
    want = np.asarray(Image.fromarray(x).resize((60, 45), Image.Resampling.BICUBIC))
    real = apply.run

    def on(v, ops, **kw):
        return real(v, ops, backend=backend, **kw)

    try:
        apply.run = on
        got = np.asarray(_pillow.pil_resize(x, (60, 45), _pillow.BICUBIC))
    finally:
        apply.run = real
    np.testing.assert_array_equal(got, want)
