"""Programs inside a caller's ``jit`` export with ``jax.export`` (issue 46).

Everyday programs export for cpu, cuda and tpu without a host callback, also when planned with the
TPU row (whose dense contractions build their matrices on the device from the taps); the
serialized artifact for the three platforms, deserialized and run here, equals the jitted call.
Exported from this CPU for platforms it does not have: lowering needs no device. A trace plans
nothing: each platform's program is planned with its own row when it is lowered
(``execution/primitive.py``), so one artifact holds each platform's program.
"""

import collections
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export

import jax_resize
from jax_resize import compat
from jax_resize._src.execution import apply as _apply
from jax_resize._src.execution.tuning import TUNING

PLATFORMS = {"cpu": "cpu", "cuda": "gpu", "tpu": "tpu"}
BOXES = jnp.array([[0.1, 0.2, 0.9, 0.7], [0.0, 0.0, 1.0, 1.0]])

#: Everyday programs: ``(function, input shape, dtype)``; the photos are shapes only (lowering).
CASES = {
    "onnx linear": (lambda v: jax_resize.onnx_resize(v, sizes=[1, 3, 224, 224], mode="linear"), (1, 3, 480, 640), "f4"),
    "onnx cubic aa": (
        lambda v: jax_resize.onnx_resize(v, sizes=[1, 3, 100, 90], mode="cubic", antialias=1),
        (1, 3, 480, 640),
        "f4",
    ),
    "onnx nearest": (lambda v: jax_resize.onnx_resize(v, scales=[1, 1, 2, 2], mode="nearest"), (1, 3, 64, 80), "f4"),
    "12 MP photo -> 224": (lambda v: jax_resize.resize(v, (224, 224, 3)), (3000, 4000, 3), "u1"),
    "1080p photo -> 224": (lambda v: jax_resize.resize(v, (224, 224, 3)), (1080, 1920, 3), "u1"),
    "pil_bicubic 12 MP -> 768x1024": (
        lambda v: jax_resize.resize(v, (768, 1024, 3), "pil_bicubic"),
        (3000, 4000, 3),
        "u1",
    ),
    "lanczos3 4K x0.5": (lambda v: jax_resize.resize(v, (1080, 1920, 3), "lanczos3"), (2160, 3840, 3), "f4"),
    "grad": (jax.grad(lambda v: jax_resize.resize(v, (50, 70), "cubic").sum()), (64, 48), "f4"),
    "vmap": (jax.vmap(lambda v: jax_resize.resize(v, (30, 20, 3), "linear")), (4, 64, 48, 3), "f4"),
    "resize_ragged": (
        lambda v: jax_resize.resize_ragged(v, jnp.array([[40, 30], [64, 48]]), (32, 32, 3)),
        (2, 64, 48, 3),
        "f4",
    ),
    "crop_and_resize": (
        lambda v: jax_resize.crop_and_resize(v, BOXES, jnp.array([0, 0]), (24, 24)),
        (1, 64, 48, 3),
        "f4",
    ),
    "scale_and_translate": (
        lambda v: jax_resize.scale_and_translate(v, (40, 30), (0, 1), jnp.array([0.6, 0.6]), jnp.array([0.5, 0.0])),
        (64, 48),
        "f4",
    ),
    "openvino cubic": (
        lambda v: jax_resize.openvino_interpolate(v, [50, 40], [2, 3], mode="cubic", shape_calculation_mode="sizes"),
        (1, 3, 64, 48),
        "f4",
    ),
    "torch bilinear aa": (
        lambda v: compat.torch_interpolate(v, size=(40, 30), mode="bilinear", antialias=True),
        (2, 3, 64, 48),
        "f4",
    ),
    "torch u8 bicubic": (lambda v: compat.torch_interpolate(v, size=(96, 80), mode="bicubic"), (1, 3, 64, 48), "u1"),
    "tf bicubic": (lambda v: compat.tf_resize(v, (40, 30), "bicubic"), (2, 64, 48, 3), "f4"),
    "cv2 area": (lambda v: compat.cv2_resize(v, (30, 40), interpolation=compat.INTER_AREA), (64, 48, 3), "u1"),
    "pil lanczos": (lambda v: compat.pil_resize(v, (30, 40), compat.LANCZOS), (64, 48, 3), "u1"),
}


def _spec(name):
    _, shape, dtype = CASES[name]
    return jax.ShapeDtypeStruct(shape, np.dtype(dtype))


def _exported(name, platforms):
    fn = CASES[name][0]
    return export.export(jax.jit(lambda v: fn(v)), platforms=platforms)(_spec(name))  # a new trace each time


def _callbacks(module: str) -> list[str]:
    """The host callbacks a module calls (``custom_call @xla_..._callback``)."""
    return re.findall(r"custom_call @(\w*callback\w*)", module)


def _module(name, platform):
    module = _exported(name, (platform,)).mlir_module()
    assert not _callbacks(module), f"{name} on {platform}: a host callback"
    return module


@pytest.mark.parametrize("name", CASES)
def test_everyday_programs_export_for_every_platform(name):
    for platform in PLATFORMS:
        _module(name, platform)


@pytest.mark.parametrize("name", ["12 MP photo -> 224", "1080p photo -> 224", "onnx linear", "lanczos3 4K x0.5"])
def test_the_tpu_rows_dense_programs_export_with_bounded_constants(name):
    """Lowered for the TPU from this CPU process, the program is the TPU row's: its matrices (224 x
    4000 float32 is 3.5 MB) are built on the device from their bands, the program holds outputs x
    taps constants, no callback."""
    module = _module(name, "tpu")
    assert "stablehlo.dot_general" in module
    _, shape, _ = CASES[name]
    assert len(module) < 4 * 224 * max(shape)  # the hex of a matrix alone would be 8 characters per entry
    # contractions at HIGHEST (the default precision of TPU matmuls is bfloat16 passes), no loop
    # (the CPU row's row loops and blocks are while loops), a bounded program
    precisions = re.findall(r"stablehlo.dot_general .*precision = \[(\w+), (\w+)\]", module)
    assert precisions and all(p == ("HIGHEST", "HIGHEST") for p in precisions)
    assert "stablehlo.while" not in module
    assert len(re.findall(r"= stablehlo\.\w+", module)) < 300


@pytest.mark.parametrize("name", ["onnx cubic aa", "grad", "vmap", "resize_ragged", "torch u8 bicubic", "pil lanczos"])
def test_one_artifact_for_three_platforms_runs_here(name):
    exported = _exported(name, tuple(PLATFORMS))
    assert exported.platforms == tuple(PLATFORMS)
    restored = export.deserialize(exported.serialize())
    spec = _spec(name)
    x = np.random.default_rng(len(name)).uniform(0, 255, spec.shape).astype(spec.dtype)
    np.testing.assert_array_equal(np.asarray(restored.call(x)), np.asarray(jax.jit(CASES[name][0])(x)))


def _ops(module: str) -> collections.Counter:
    return collections.Counter(re.findall(r'= "?(stablehlo\.\w+)', module))


@pytest.mark.parametrize("name", ["12 MP photo -> 224", "onnx linear", "grad", "vmap"])
def test_one_artifact_holds_each_platforms_own_program(name):
    """Exported for cpu and tpu together, the module holds the program exported for each alone: the
    TPU's dense contractions and the CPU's loops and gathers, behind JAX's switch on the platform."""
    both = _ops(_exported(name, ("cpu", "tpu")).mlir_module())
    cpu, tpu = _ops(_module(name, "cpu")), _ops(_module(name, "tpu"))
    assert tpu["stablehlo.dot_general"] > 0
    assert cpu != tpu
    for op in ("stablehlo.dot_general", "stablehlo.gather", "stablehlo.while"):
        assert both[op] == cpu[op] + tpu[op], op
    assert both["stablehlo.case"] >= 1


def test_a_trace_plans_nothing_until_it_is_lowered(monkeypatch):
    """The caller's trace binds the primitive; the plans are made by the lowering, for its platform."""
    planned = []
    original = _apply._plans
    monkeypatch.setattr(_apply, "_plans", lambda *a: planned.append(a[-1].backend) or original(*a))
    fn, spec = CASES["onnx cubic aa"][0], _spec("onnx cubic aa")
    jaxpr = jax.make_jaxpr(jax.grad(lambda v: fn(v).sum()))(spec)
    assert planned == [] and "jax_resize[" in str(jaxpr)
    export.export(jax.jit(fn), platforms=("cpu", "tpu"))(spec)
    assert sorted(set(planned)) == ["cpu", "tpu"]


def test_a_program_lowered_for_the_cpu_keeps_the_cpu_row_whatever_the_default_backend(monkeypatch):
    """A ``jit`` placed on the CPU in an accelerator's process: planned for the CPU, not for the
    process's default backend (simulated: this process has only a CPU)."""
    fn, spec = CASES["12 MP photo -> 224"][0], _spec("12 MP photo -> 224")
    here = jax.jit(fn).lower(spec).as_text()
    monkeypatch.setattr(jax, "default_backend", lambda: "tpu")
    assert jax.jit(fn).lower(spec).as_text() == here
    cpu, tpu = _ops(here), _ops(_module("12 MP photo -> 224", "tpu"))
    assert cpu["stablehlo.dot_general"] == 0 < tpu["stablehlo.dot_general"]


def test_eager_calls_plan_for_their_inputs_platform():
    x = jax.device_put(np.ones((4, 4), np.float32), jax.devices("cpu")[0])
    assert _apply._platform(x) == "cpu"
    assert _apply._platform(np.ones(3)) == jax.default_backend()


@pytest.mark.parametrize("name", CASES)
def test_every_program_exported_for_the_tpu_is_the_tpu_rows(name, monkeypatch):
    """Traced records (ragged extents, boxes, a traced scale) as well as host ones: the program
    exported for the TPU from this CPU process is the one planned with the TPU row everywhere."""
    got = _without_locations(_module(name, "tpu"))
    monkeypatch.setattr(_apply, "tuning_for", lambda backend: TUNING["tpu"])
    assert got == _without_locations(_module(name, "tpu"))


def _without_locations(module: str) -> str:
    """The module's operations (its source locations name the caller's lines)."""
    lines = [line for line in module.splitlines() if not line.startswith("#loc")]
    return re.sub(r" loc\(#loc\d*\)", "", "\n".join(lines))


#: Issue 46's extreme shrinks under ``jit`` (their plans were host callbacks), a shared band's
#: gradient (its transposed taps built when the gradient is traced) and a fused one.
EXTREME = {
    "onnx 10**6 -> 3 cubic aa": (lambda v: jax_resize.onnx_resize(v, sizes=[3], mode="cubic", antialias=1), (10**6,)),
    "tf area 10**6 -> 1000": (lambda v: compat.tf_resize(v, (1000, 1), "area"), (10**6, 1, 1)),
    "grad of a shared band": (jax.grad(lambda v: jax_resize.resize(v, (40, 30), "lanczos3").sum()), (4000, 3000)),
    "grad 10**6 -> 3": (jax.grad(lambda v: jax_resize.onnx_resize(v, sizes=[3], mode="cubic").sum()), (10**6,)),
}


@pytest.mark.parametrize("name", EXTREME)
def test_extreme_shrinks_export_without_callbacks(name):
    fn, shape = EXTREME[name]
    x = np.random.default_rng(7).random(shape).astype(np.float32)
    exported = export.export(jax.jit(lambda v: fn(v)), platforms=tuple(PLATFORMS))(jax.ShapeDtypeStruct(shape, x.dtype))
    assert not _callbacks(exported.mlir_module())
    got = export.deserialize(exported.serialize()).call(x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(jax.jit(fn)(x)))
