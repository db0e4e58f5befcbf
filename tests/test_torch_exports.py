"""Real clients: small torch networks exported with ``torch.onnx.export``, their Resize nodes run
by jax_resize.

Each network resizes the way real models do (FPN top-down nearest ×2 plus a lateral, UNet
decoders with bilinear ``align_corners`` False/True, bicubic super-resolution heads ×3/×4,
antialiased bilinear/bicubic downsampling, ``size=`` taken from another tensor's shape,
``scale_factor=1.5`` with and without ``recompute_scale_factor``, trilinear on 5-D input, linear on
3-D input, nearest-exact, and a ``size=`` nearest export, whose opset-10 form carries the
scales ``f32(out) / f32(in)`` (7 → 15: ``floor(7 * f32(15/7))`` is 14 in float64 and 15 in float32)).
Every network is exported by the TorchScript exporter (``dynamo=False``) at the opsets in
``TORCHSCRIPT_OPSETS`` and by the dynamo exporter at its default opset. Exports torch refuses
are asserted to be refusals, with the reason each is expected to give (``Net.refused``); exports
whose graph holds no Resize node (torch decomposes the op into gathers) are asserted to be so
(``Net.no_resize``), and their output, onnxruntime's and torch's, to equal the equivalent Resize
(``Net.equivalent``) computed by jax_resize on the network's input.

For every exported model:

(a) every Resize node runs through ``onnx_node_resize(node, *inputs, opset=model_opset)`` on the
    real intermediate tensors — onnxruntime runs the model with the node's inputs and output
    exposed as extra graph outputs; constants and initializers are read with
    ``onnx.numpy_helper`` — and must match onnxruntime's output of that node (identical shape,
    float32 within ``RTOL`` of the output's magnitude);
(b) the whole model runs in ``onnx.reference.ReferenceEvaluator`` with Resize replaced by
    :class:`JaxResize` (jax_resize-backed), end to end against onnxruntime and against torch's
    eager output.

``test_summary`` prints (``pytest -s``) and asserts the counts, and the README row that states
them. Exports are cached per process (``functools.cache``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import warnings
from collections.abc import Callable, Mapping

import numpy as np
import pytest
import readme

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnxscript")  # torch.onnx.export(dynamo=True) needs it

from onnx import numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402
from onnx.reference.op_run import OpRun  # noqa: E402

import jax_resize  # noqa: E402

nn = torch.nn
F = torch.nn.functional

#: TorchScript exporter opsets; the dynamo exporter runs at its own default opset.
TORCHSCRIPT_OPSETS = (10, 11, 13, 17, 18, 20)
EXPORTERS: tuple[int | str, ...] = (*TORCHSCRIPT_OPSETS, "dynamo")
#: float32 agreement: max |ours - theirs| <= RTOL * max(1, max |theirs|).
RTOL = 1e-5
_ALL_TORCHSCRIPT = "every TorchScript opset"


# ---------------------------------------------------------------------------
# The networks
# ---------------------------------------------------------------------------


def _randn(seed: int, *shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _rand(seed: int, *shape: int) -> torch.Tensor:
    return torch.rand(*shape, generator=torch.Generator().manual_seed(seed))


class FPNTopDown(nn.Module):
    """FPN top-down step: the coarser map upsampled ×2 (nearest) plus a 1×1 lateral."""

    def __init__(self):
        super().__init__()
        self.down = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.lateral = nn.Conv2d(3, 4, 1)

    def forward(self, x):
        return F.interpolate(self.down(x), scale_factor=2, mode="nearest") + self.lateral(x)


class UNetDecoder(nn.Module):
    """UNet decoder step: bilinear ×2, concatenated with the skip, then a conv."""

    def __init__(self, align_corners: bool):
        super().__init__()
        self.align_corners = align_corners
        self.encode = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.decode = nn.Conv2d(7, 3, 3, padding=1)

    def forward(self, x):
        up = F.interpolate(self.encode(x), scale_factor=2, mode="bilinear", align_corners=self.align_corners)
        return self.decode(torch.cat([up, x], 1))


class BicubicSR(nn.Module):
    """Super-resolution head: a conv, then bicubic ×factor."""

    def __init__(self, factor: int):
        super().__init__()
        self.factor = factor
        self.body = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        return F.interpolate(self.body(x), scale_factor=self.factor, mode="bicubic", align_corners=False)


class AntialiasDown(nn.Module):
    """Preprocessing: [0, 1] -> [-1, 1], then antialiased downsampling."""

    def __init__(self, mode: str, **how):
        super().__init__()
        self.mode = mode
        self.how = how

    def forward(self, x):
        return F.interpolate(x * 2 - 1, mode=self.mode, antialias=True, align_corners=False, **self.how)


class SizeFromSkip(nn.Module):
    """Decoder whose output size is read from the skip tensor's shape."""

    def forward(self, x, skip):
        return F.interpolate(x, size=skip.shape[-2:], mode="bilinear", align_corners=False) + skip


class Interpolate(nn.Module):
    """A bare ``F.interpolate`` call."""

    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, x):
        return F.interpolate(x, **self.kwargs)


@dataclasses.dataclass(frozen=True)
class Net:
    """One network: how to build it (seeded) and what torch does with it.

    ``refused``: exporter (an opset, or ``_ALL_TORCHSCRIPT``) -> a substring of the error torch
    raises. ``no_resize``: exporter -> why its graph has no Resize node; ``equivalent`` is then the
    ONNX Resize that computes what the network does (its attributes, and its ``scales`` or
    ``sizes``), run by jax_resize on the network's input. ``ort_refused``: exporter
    -> a substring of the error onnxruntime raises when it loads the model with its default graph
    optimizations (it then runs without them). ``eager_differs``: exporter -> why the export does
    not compute what torch computes (asserted: it differs from torch's eager output by > 1e-3).
    """

    name: str
    module: Callable[[], nn.Module]
    inputs: Callable[[], tuple[torch.Tensor, ...]]
    refused: Mapping[int | str, str] = dataclasses.field(default_factory=dict)
    no_resize: Mapping[int | str, str] = dataclasses.field(default_factory=dict)
    equivalent: tuple[dict, str, list] | None = None
    ort_refused: Mapping[int | str, str] = dataclasses.field(default_factory=dict)
    eager_differs: Mapping[int | str, str] = dataclasses.field(default_factory=dict)

    def build(self) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
        torch.manual_seed(sum(map(ord, self.name)))
        return self.module().eval(), self.inputs()

    def expected_refusal(self, exporter) -> str | None:
        if exporter in self.refused:
            return self.refused[exporter]
        if exporter != "dynamo" and _ALL_TORCHSCRIPT in self.refused:
            return self.refused[_ALL_TORCHSCRIPT]
        return None


#: Resize-10 has no coordinate_transformation_mode: its linear is asymmetric, torch's is not.
_OPSET10_LINEAR = {10: "Resize-10 linear uses asymmetric coordinates (torch warns: opset 10 does not match)"}


def _x() -> tuple[torch.Tensor]:
    """The 1×3×7×9 input of the single-input networks."""
    return (_randn(7, 1, 3, 7, 9),)


NETS = {
    net.name: net
    for net in (
        Net("fpn_nearest_x2", FPNTopDown, lambda: (_randn(1, 1, 3, 14, 18),)),
        Net(
            "unet_bilinear",
            lambda: UNetDecoder(align_corners=False),
            lambda: (_randn(2, 1, 3, 14, 18),),
            eager_differs=_OPSET10_LINEAR,
        ),
        Net(
            "unet_bilinear_align_corners",
            lambda: UNetDecoder(align_corners=True),
            lambda: (_randn(3, 1, 3, 14, 18),),
            refused={10: "align_corners == True"},
        ),
        Net(
            "sr_bicubic_x3",
            lambda: BicubicSR(3),
            _x,
            refused={10: "upsample_bicubic2d' to ONNX opset version 10 is not supported"},
        ),
        Net(
            "sr_bicubic_x4",
            lambda: BicubicSR(4),
            _x,
            refused={10: "upsample_bicubic2d' to ONNX opset version 10 is not supported"},
        ),
        Net(
            "antialias_bilinear_half",
            lambda: AntialiasDown("bilinear", scale_factor=0.5),
            lambda: (_rand(4, 1, 3, 14, 18),),
            refused={_ALL_TORCHSCRIPT: "aten::_upsample_bilinear2d_aa"},
        ),
        Net(
            "antialias_bicubic_size",
            lambda: AntialiasDown("bicubic", size=(4, 5)),
            lambda: (_rand(5, 1, 3, 14, 18),),
            refused={_ALL_TORCHSCRIPT: "aten::_upsample_bicubic2d_aa"},
        ),
        Net(
            "size_from_skip",
            SizeFromSkip,
            lambda: (_randn(6, 1, 3, 4, 5), _randn(8, 1, 3, 7, 9)),
            # Resize-10's scales are f32(9) / f32(5) = 1.79999995: onnxruntime's optimizer folds
            # them into a constant, ONNX shape inference then gives floor(5 * 1.79999995) = 8
            # columns (float64) against the skip's 9, and the Add fails; unoptimised, onnxruntime
            # computes 9 columns (float32), as torch does.
            ort_refused={10: "[ShapeInferenceError] Incompatible dimensions"},
            eager_differs=_OPSET10_LINEAR,
        ),
        Net(
            "scale_1_5_recompute",
            lambda: Interpolate(scale_factor=1.5, mode="bilinear", recompute_scale_factor=True),
            _x,
            eager_differs=_OPSET10_LINEAR,
        ),
        Net(
            "scale_1_5_no_recompute",
            lambda: Interpolate(scale_factor=1.5, mode="bilinear", recompute_scale_factor=False),
            _x,
            eager_differs=_OPSET10_LINEAR,
        ),
        Net(
            "trilinear_5d",
            lambda: Interpolate(scale_factor=2, mode="trilinear"),
            lambda: (_randn(9, 1, 2, 3, 4, 5),),
            eager_differs=_OPSET10_LINEAR,
        ),
        Net(
            "linear_1d",
            lambda: Interpolate(scale_factor=2.5, mode="linear"),
            lambda: (_randn(10, 1, 3, 7),),
            no_resize={"dynamo": "the dynamo exporter decomposes 1-D linear into GatherND"},
            # torch samples (o + 0.5) / 2.5 - 0.5, clamped at 0: the given scale, not out / in
            equivalent=(
                dict(mode="linear", coordinate_transformation_mode="pytorch_half_pixel"),
                "scales",
                [1, 1, 2.5],
            ),
            eager_differs=_OPSET10_LINEAR,
        ),
        Net(
            "nearest_exact",
            lambda: Interpolate(size=(12, 5), mode="nearest-exact"),
            _x,
            refused={_ALL_TORCHSCRIPT: "aten::_upsample_nearest_exact2d"},
            no_resize={"dynamo": "the dynamo exporter decomposes nearest-exact into GatherND"},
            # torch's nearest-exact: floor((o + 0.5) * in / out), half-pixel rounded half up
            equivalent=(
                dict(mode="nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil"),
                "sizes",
                [1, 3, 12, 5],
            ),
        ),
        Net("size_nearest_7_to_15", lambda: Interpolate(size=(15, 20), mode="nearest"), _x),
    )
}
CASES = [(name, exporter) for name in NETS for exporter in EXPORTERS]
#: The exports torch makes (the others are asserted to be refusals by ``test_export_outcome``).
EXPORTED = [(name, exporter) for name, exporter in CASES if NETS[name].expected_refusal(exporter) is None]


def _ids(cases) -> list[str]:
    return [f"{name}-{exporter if exporter == 'dynamo' else f'opset{exporter}'}" for name, exporter in cases]


# ---------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Export:
    name: str
    exporter: int | str
    model: onnx.ModelProto | None  # None when torch refused
    refusal: str | None = None

    @property
    def opset(self) -> int:
        return {o.domain: o.version for o in self.model.opset_import}.get("", 0)

    @property
    def resize_nodes(self) -> list:
        return [n for n in self.model.graph.node if n.op_type == "Resize"]


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


_TORCHLIB_REGISTRIES: dict = {}


def _reuse_torchlib_registry():
    """Speed only: the dynamo exporter rebuilds its registry of onnxscript functions (parsing
    their sources, about half of each export's time) on every call; build it once per opset.
    Where torch's private layout differs, exports simply run unpatched."""
    from unittest import mock

    try:
        from torch.onnx._internal.exporter import _registration

        build = _registration.ONNXRegistry.from_torchlib
    except (ImportError, AttributeError):
        return contextlib.nullcontext()

    def from_torchlib(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key not in _TORCHLIB_REGISTRIES:
            _TORCHLIB_REGISTRIES[key] = build(*args, **kwargs)
        return _TORCHLIB_REGISTRIES[key]

    return mock.patch.object(_registration.ONNXRegistry, "from_torchlib", staticmethod(from_torchlib))


@functools.cache
def export(name: str, exporter: int | str) -> Export:
    """The network exported to ONNX (or torch's refusal, as ``ExceptionType: first line``)."""
    module, args = NETS[name].build()
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            if exporter == "dynamo":
                with _reuse_torchlib_registry():
                    model = torch.onnx.export(module, args, dynamo=True).model_proto
            else:
                buffer = io.BytesIO()
                torch.onnx.export(module, args, buffer, opset_version=exporter, dynamo=False)
                model = onnx.load_from_string(buffer.getvalue())
    except Exception as error:  # noqa: BLE001 - torch raises several types; each is asserted expected
        return Export(name, exporter, None, _first_line(error))
    return Export(name, exporter, model)


def _feeds(ex: Export) -> dict[str, np.ndarray]:
    _, args = NETS[ex.name].build()
    initializers = {i.name for i in ex.model.graph.initializer}
    names = [i.name for i in ex.model.graph.input if i.name not in initializers]
    assert len(names) == len(args), (names, len(args))
    return {name: a.numpy() for name, a in zip(names, args)}


@functools.cache
def ort_refusal(name: str, exporter: int | str) -> str | None:
    """onnxruntime's error when it loads the export with its default graph optimizations, or
    None; an error must be the expected one (``Net.ort_refused``)."""
    try:
        ort.InferenceSession(export(name, exporter).model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as error:  # noqa: BLE001 - onnxruntime raises several types; asserted expected
        reason = _first_line(error)
        expected = NETS[name].ort_refused.get(exporter)
        assert expected is not None and expected in reason, f"{name} / {exporter}: onnxruntime refuses: {reason}"
        return reason
    assert exporter not in NETS[name].ort_refused, f"{name} / {exporter}: onnxruntime now loads the model"
    return None


def _ort_run(ex: Export, model: onnx.ModelProto, feeds, outputs=None) -> dict[str, np.ndarray]:
    """onnxruntime (CPU) on ``model`` (``ex``'s model, possibly with more outputs): with its default
    graph optimizations, or without them where it refuses those (``ort_refusal``)."""
    options = ort.SessionOptions()
    options.log_severity_level = 3  # its warnings on the exporters' shape annotations (see size_from_skip)
    if ort_refusal(ex.name, ex.exporter) is not None:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()] if outputs is None else outputs
    return dict(zip(names, session.run(names, feeds)))


def _constants(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Initializers and Constant-node outputs, read with ``onnx.numpy_helper``."""
    values = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type != "Constant":
            continue
        (attr,) = node.attribute
        if attr.name == "value":
            values[node.output[0]] = numpy_helper.to_array(attr.t)
        else:  # value_float(s) / value_int(s)
            dtype = np.float32 if "float" in attr.name else np.int64
            values[node.output[0]] = np.asarray(onnx.helper.get_attribute_value(attr), dtype)
    return values


# ---------------------------------------------------------------------------
# (a) every Resize node on its real intermediate tensors
# ---------------------------------------------------------------------------


def _rel_diff(ours, theirs, what: str) -> float:
    """max |ours - theirs| / max(1, max |theirs|), after asserting equal shapes and dtypes."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} != {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{what}: dtype {ours.dtype} != {theirs.dtype}"
    if ours.size == 0:
        return 0.0
    scale = max(1.0, float(np.max(np.abs(theirs.astype(np.float64)))))
    return float(np.max(np.abs(ours.astype(np.float64) - theirs.astype(np.float64)))) / scale


@dataclasses.dataclass(frozen=True)
class NodeCheck:
    node: str
    attrs: dict
    input_shapes: tuple
    output_shape: tuple
    rel_diff: float


@functools.cache
def node_checks(name: str, exporter: int | str) -> tuple[NodeCheck, ...]:
    """Every Resize node of the export run by ``onnx_node_resize`` on the tensors onnxruntime
    computes for its inputs, against onnxruntime's output of that node."""
    ex = export(name, exporter)
    constants = _constants(ex.model)
    nodes = ex.resize_nodes
    wanted = [n for node in nodes for n in (*node.input, node.output[0]) if n and n not in constants]
    exposed = onnx.ModelProto()
    exposed.CopyFrom(ex.model)
    present = {o.name for o in exposed.graph.output}
    for n in dict.fromkeys(wanted):
        if n not in present:
            exposed.graph.output.append(onnx.ValueInfoProto(name=n))
    feeds = _feeds(ex)
    values = {**constants, **feeds, **_ort_run(ex, exposed, feeds, list(dict.fromkeys(wanted)))}
    checks = []
    for node in nodes:
        inputs = [values[n] if n else None for n in node.input]
        ours = np.asarray(jax_resize.onnx_node_resize(node, *inputs, opset=ex.opset))
        theirs = values[node.output[0]]
        what = f"{name} / {exporter}: node {node.name!r} ({_attrs(node)}) on inputs {_shapes(inputs)}"
        rel = _rel_diff(ours, theirs, f"{what}, ours vs onnxruntime")
        assert rel <= RTOL, f"{what}: max rel diff {rel:.3g} > {RTOL}"
        checks.append(NodeCheck(node.name, _attrs(node), _shapes(inputs), theirs.shape, rel))
    return tuple(checks)


@functools.cache
def equivalent_check(name: str, exporter: int | str) -> float:
    """An export without a Resize node: its graph has none, and its output (onnxruntime), and
    torch's eager output, equal the network's ``equivalent`` Resize computed by
    ``onnx_node_resize`` on the network's input (at the export's opset). Returns the larger max
    rel diff."""
    ex, net = export(name, exporter), NETS[name]
    assert not ex.resize_nodes and net.equivalent is not None, f"{name} / {exporter}"
    attrs, kind, values = net.equivalent
    node = onnx.helper.make_node("Resize", ["x", "", "scales", "sizes"], ["y"], **attrs)
    array = np.asarray(values, np.float32 if kind == "scales" else np.int64)
    feeds = _feeds(ex)
    (x,) = feeds.values()
    inputs = (x, None, array, None) if kind == "scales" else (x, None, None, array)
    ours = np.asarray(jax_resize.onnx_node_resize(node, *inputs, opset=ex.opset))
    (theirs,) = _ort_run(ex, ex.model, feeds).values()
    module, args = net.build()
    with torch.no_grad():
        eager = module(*args).numpy()
    what = f"{name} / {exporter}: jax_resize's equivalent Resize ({attrs}, {kind} {values})"
    rel = max(_rel_diff(ours, theirs, f"{what} vs onnxruntime"), _rel_diff(ours, eager, f"{what} vs torch"))
    assert rel <= RTOL, f"{what}: max rel diff {rel:.3g} > {RTOL}"
    return rel


def _attrs(node) -> dict:
    out = {}
    for attr in node.attribute:
        value = onnx.helper.get_attribute_value(attr)
        out[attr.name] = value.decode() if isinstance(value, bytes) else value
    return out


def _shapes(inputs) -> tuple:
    return tuple(None if a is None else (a.tolist() if a.ndim == 1 and a.size <= 5 else a.shape) for a in inputs)


# ---------------------------------------------------------------------------
# (b) the whole model, Resize run by jax_resize inside onnx.reference
# ---------------------------------------------------------------------------


class JaxResize(OpRun):
    """ONNX Resize for ``onnx.reference.ReferenceEvaluator``, computed by jax_resize.

    ``ReferenceEvaluator(model, new_ops=[JaxResize])`` replaces the built-in Resize: the evaluator
    keys ``new_ops`` by ``(op_domain, class __name__)``, hence ``__name__ = "Resize"`` below. The
    attributes arrive as keyword arguments — the node's own ones plus the defaults of the newest
    Resize schema (opset 19's, whatever the model's opset) — so ``_run`` reads them from the node
    itself (``self.onnx_node``), and the opset from the model's imports (``run_params``), as
    ``onnx_node_resize`` needs.
    """

    op_domain = ""
    calls = 0

    def _run(self, *inputs, **attributes):  # noqa: ARG002 - read from self.onnx_node instead
        type(self).calls += 1
        opset = self.run_params["opsets"][""]
        return (np.asarray(jax_resize.onnx_node_resize(self.onnx_node, *inputs, opset=opset)),)


JaxResize.__name__ = "Resize"


@dataclasses.dataclass(frozen=True)
class ModelCheck:
    jax_calls: int
    vs_ort: float
    vs_torch: float


@functools.cache
def model_check(name: str, exporter: int | str) -> ModelCheck:
    ex = export(name, exporter)
    feeds = _feeds(ex)
    (want,) = _ort_run(ex, ex.model, feeds).values()
    before = JaxResize.calls
    try:
        (ours,) = ReferenceEvaluator(ex.model, new_ops=[JaxResize]).run(None, feeds)
    except Exception as error:
        raise AssertionError(f"{name} / {exporter}: ReferenceEvaluator + JaxResize failed: {error}") from error
    calls = JaxResize.calls - before
    assert calls == len(ex.resize_nodes), f"{name} / {exporter}: {calls} JaxResize calls"
    module, args = NETS[name].build()
    with torch.no_grad():
        eager = module(*args).numpy()
    what = f"{name} / {exporter}: end to end (ReferenceEvaluator + JaxResize)"
    vs_ort, vs_torch = _rel_diff(ours, want, f"{what} vs onnxruntime"), _rel_diff(ours, eager, f"{what} vs torch")
    assert vs_ort <= RTOL, f"{name} / {exporter}: end to end vs onnxruntime, max rel diff {vs_ort:.3g}"
    if exporter in NETS[name].eager_differs:
        assert vs_torch > 1e-3, f"{name} / {exporter}: now agrees with torch ({NETS[name].eager_differs[exporter]})"
    else:
        assert vs_torch <= RTOL, f"{name} / {exporter}: end to end vs torch eager, max rel diff {vs_torch:.3g}"
    return ModelCheck(calls, vs_ort, vs_torch)


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,exporter", CASES, ids=_ids(CASES))
def test_export_outcome(name, exporter):
    """torch exports exactly what it is expected to, and refuses only the expected exports."""
    net, ex = NETS[name], export(name, exporter)
    expected = net.expected_refusal(exporter)
    if expected is not None:
        assert ex.model is None, f"{name} / {exporter}: torch now exports it (expected refusal {expected!r})"
        assert expected in ex.refusal, f"{name} / {exporter}: refused for another reason: {ex.refusal}"
        return
    assert ex.model is not None, f"{name} / {exporter}: torch refused: {ex.refusal}"
    if exporter != "dynamo":
        assert ex.opset == exporter
    in_functions = [n for f in ex.model.functions for n in f.node if n.op_type == "Resize"]
    assert not in_functions, "a Resize node inside a model-local function would go unchecked"
    if exporter in net.no_resize:
        assert not ex.resize_nodes, f"{name} / {exporter}: now has Resize nodes ({net.no_resize[exporter]})"
    else:
        assert ex.resize_nodes, f"{name} / {exporter}: no Resize node in the export"


def _exported(name, exporter) -> Export:
    ex = export(name, exporter)
    assert ex.model is not None, f"{name} / {exporter}: torch refused: {ex.refusal}"
    return ex


@pytest.mark.parametrize("name,exporter", EXPORTED, ids=_ids(EXPORTED))
def test_resize_nodes_match_onnxruntime(name, exporter):
    """(a): each Resize node on its real inputs, against onnxruntime's output of that node; an
    export without one (torch decomposed the op): its output against jax_resize's equivalent
    Resize on the network's input (``equivalent_check``)."""
    ex = _exported(name, exporter)
    checks = node_checks(name, exporter)
    assert len(checks) == len(ex.resize_nodes)
    if not ex.resize_nodes:
        assert exporter in NETS[name].no_resize, f"{name} / {exporter}: no Resize node in the export"
        equivalent_check(name, exporter)


@pytest.mark.parametrize("name,exporter", EXPORTED, ids=_ids(EXPORTED))
def test_model_end_to_end(name, exporter):
    """(b): ReferenceEvaluator with jax_resize's Resize, against onnxruntime and torch eager."""
    _exported(name, exporter)
    model_check(name, exporter)


def test_opset10_size_export_scales_are_float32_ratios():
    """The opset-10 export of ``size=(15, 20)`` from 7×9 carries scales ``f32(15) / f32(7)``,
    whose float64 product with 7 is just below 15; onnxruntime and jax_resize give 15 rows."""
    ex = export("size_nearest_7_to_15", 10)
    (node,) = ex.resize_nodes
    scales = _constants(ex.model)[node.input[1]]
    np.testing.assert_array_equal(scales[2:], np.float32([15, 20]) / np.float32([7, 9]))
    assert np.floor(7 * np.float64(scales[2])) == 14
    (check,) = node_checks("size_nearest_7_to_15", 10)
    assert check.output_shape == (1, 3, 15, 20)


#: Short names of torch's refusals (keyed by the substrings ``Net.refused`` expects), for the README.
_REFUSAL_LABELS = {
    "aten::_upsample_bilinear2d_aa": "antialias",
    "aten::_upsample_bicubic2d_aa": "antialias",
    "aten::_upsample_nearest_exact2d": "nearest-exact",
    "upsample_bicubic2d' to ONNX opset version 10 is not supported": "bicubic at opset 10",
    "align_corners == True": "align_corners at opset 10",
}
#: The README row this module measures (its first cell).
README_CHECK = (
    "torch networks exported by `torch.onnx.export` (FPN nearest ×2, UNet bilinear with and without "
    "align_corners, bicubic super-resolution ×3 / ×4, antialiased bilinear / bicubic downsampling, "
    "`size=` from another tensor, `scale_factor=1.5` with and without recompute_scale_factor, "
    "trilinear, 1-D linear, nearest-exact, `size=` nearest 7 → 15), TorchScript exporter at opsets "
    + ", ".join(map(str, TORCHSCRIPT_OPSETS))
    + " and dynamo exporter (its default opset, 20); every Resize node run by `onnx_node_resize` on "
    "the real intermediate tensors, every model run by `ReferenceEvaluator` with Resize computed by jax_resize"
)


def test_summary():
    """Everything above, counted: printed with ``pytest -s`` and asserted, with the README row."""
    exported, refused, no_resize, eager_differs, ort_unoptimised = [], [], [], [], []
    nodes = 0
    max_node = max_ort = max_torch = 0.0
    for name, exporter in CASES:
        net, ex = NETS[name], export(name, exporter)
        if ex.model is None:
            expected = net.expected_refusal(exporter)
            assert expected is not None and expected in ex.refusal, ex.refusal
            refused.append((name, exporter, _REFUSAL_LABELS[expected], ex.refusal))
            continue
        exported.append((name, exporter, ex.opset))
        checks, result = node_checks(name, exporter), model_check(name, exporter)
        nodes += len(checks)
        max_node = max([max_node, *(c.rel_diff for c in checks)])
        max_ort = max(max_ort, result.vs_ort)
        if not checks:
            no_resize.append((name, exporter))
            max_node = max(max_node, equivalent_check(name, exporter))
        if exporter in net.eager_differs:
            eager_differs.append((name, exporter))
        else:
            max_torch = max(max_torch, result.vs_torch)
        if ort_refusal(name, exporter) is not None:
            ort_unoptimised.append((name, exporter, ort_refusal(name, exporter)))

    by_label: dict[str, int] = {}
    for *_, label, _reason in refused:
        by_label[label] = by_label.get(label, 0) + 1
    dynamo_opsets = sorted({opset for _, exporter, opset in exported if exporter == "dynamo"})
    lines = [
        f"{len(NETS)} networks x {len(EXPORTERS)} exporters (TorchScript opsets {TORCHSCRIPT_OPSETS}, "
        f"dynamo at opset {dynamo_opsets}) = {len(CASES)} exports: {len(exported)} exported, "
        f"{len(refused)} refused by torch {by_label}",
        f"(a) Resize nodes on real tensors vs onnxruntime: {nodes}, max rel diff {max_node:.2g}",
        f"(b) models end to end (ReferenceEvaluator + JaxResize): {len(exported)}, max rel diff vs "
        f"onnxruntime {max_ort:.2g}, vs torch eager {max_torch:.2g} "
        f"({len(exported) - len(eager_differs)} models; differ from torch as expected: {eager_differs})",
        f"exported without a Resize node: {no_resize}",
        f"onnxruntime refuses with its graph optimizations (run without): {ort_unoptimised}",
        "torch's refusals:",
        *(f"  {name} / {exporter}: {reason[:160]}" for name, exporter, _, reason in refused),
        "Resize nodes per export (" + ", ".join(map(str, EXPORTERS)) + "):",
    ]
    for name in NETS:
        cells = [
            "refused" if export(name, e).model is None else str(len(export(name, e).resize_nodes)) for e in EXPORTERS
        ]
        lines.append(f"  {name:28s}" + "".join(f"{c:>9s}" for c in cells))
    print("\n".join(lines))

    assert len(exported) + len(refused) == len(CASES)
    assert [(name, exporter) for name, exporter, _ in exported] == EXPORTED
    assert dynamo_opsets == [20]
    assert max(max_node, max_ort, max_torch) <= RTOL
    tolerance = f"{RTOL:g}".replace("e-0", "e-")
    refusals = ", ".join(f"{label} {count}" for label, count in sorted(by_label.items(), key=lambda kv: -kv[1]))
    readme.assert_row(
        README_CHECK,
        f"**{len(exported)}** of {len(CASES)} exports made (**{len(refused)}** refused by torch: {refusals}); "
        f"**{nodes} / {nodes}** Resize nodes agree with onnxruntime's output of that node; "
        f"**{len(exported)} / {len(exported)}** models agree end to end with onnxruntime and "
        f"**{len(exported) - len(eager_differs)}** with torch eager (the {len(eager_differs)} opset-10 linear "
        f"exports differ from torch, as torch warns); all within {tolerance} of the output's magnitude; "
        f"{len(no_resize)} dynamo exports hold no Resize node (1-D linear, nearest-exact: gathers; their "
        f"output equals jax_resize's equivalent Resize on the input); "
        f"{len(ort_unoptimised)} export onnxruntime loads only without graph optimizations (its shape "
        f"inference takes the float64 length of a float32 scales product)",
    )
