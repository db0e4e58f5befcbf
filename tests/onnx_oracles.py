"""Shared helpers for checking ``jax_resize.onnx_resize`` against ONNX oracles.

One place that knows how to turn a Resize test case into

* an ONNX ``NodeProto`` / ``ModelProto`` for a given opset (input layout differs:
  opset 10 is ``(X, scales)``, opset 11 requires ``roi`` and ``scales`` to be
  present (empty tensors when unused), opsets 13+ use ``""`` for omitted inputs),
* a run of the ONNX reference evaluator (``onnx.reference.ReferenceEvaluator``),
* a run of onnxruntime (CPU execution provider),
* a run of ``jax_resize`` (keyword API or NodeProto API),
* the spec's output shape, and a tolerance check that reports max errors.

The oracles are independent of ``jax_resize``: nothing here is derived from its
output.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import onnx
from onnx import helper

OPSETS = (10, 11, 13, 18, 19)

# Attributes each opset of Resize accepts (others must not be put on the node).
_ATTRS_BY_OPSET = {
    10: {"mode"},
    11: {
        "mode",
        "coordinate_transformation_mode",
        "nearest_mode",
        "cubic_coeff_a",
        "exclude_outside",
        "extrapolation_value",
    },
}
_ATTRS_BY_OPSET[13] = _ATTRS_BY_OPSET[11]
_ATTRS_BY_OPSET[18] = _ATTRS_BY_OPSET[11] | {
    "antialias",
    "axes",
    "keep_aspect_ratio_policy",
}
_ATTRS_BY_OPSET[19] = _ATTRS_BY_OPSET[18]

# Defaults of the ONNX Resize attributes (opset 19).
DEFAULTS: dict[str, Any] = {
    "mode": "nearest",
    "coordinate_transformation_mode": "half_pixel",
    "nearest_mode": "round_prefer_floor",
    "cubic_coeff_a": -0.75,
    "exclude_outside": 0,
    "extrapolation_value": 0.0,
    "antialias": 0,
    "axes": None,
    "keep_aspect_ratio_policy": "stretch",
}

COORD_MODES_19 = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
)
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


@dataclasses.dataclass
class ResizeCase:
    """One Resize invocation: data, optional inputs, node attributes, opset."""

    id: str
    x: np.ndarray
    roi: np.ndarray | None = None
    scales: np.ndarray | None = None
    sizes: np.ndarray | None = None
    attrs: dict[str, Any] = dataclasses.field(default_factory=dict)
    opset: int = 19
    note: str = ""

    # -- ONNX construction -------------------------------------------------
    @property
    def version(self) -> int:
        """The Resize schema version in force at ``opset`` (onnx's own table)."""
        return onnx.defs.get_schema("Resize", self.opset).since_version

    def input_names(self) -> list[str]:
        """Node input names in ONNX order ("" for omitted optional inputs)."""
        if self.version == 10:
            return ["X", "scales"]
        names = [
            "X",
            "roi" if (self.roi is not None or self.version == 11) else "",
            "scales" if (self.scales is not None or self.version == 11) else "",
            "sizes" if self.sizes is not None else "",
        ]
        while names and names[-1] == "":
            names.pop()
        return names

    def feeds(self) -> dict[str, np.ndarray]:
        """Values for the named (non-empty) inputs; opset 11 gets empty tensors."""
        empty = np.zeros((0,), np.float32)
        vals = {
            "X": self.x,
            "roi": self.roi if self.roi is not None else empty,
            "scales": self.scales if self.scales is not None else empty,
            "sizes": self.sizes,
        }
        return {n: vals[n] for n in self.input_names() if n}

    def node(self) -> onnx.NodeProto:
        allowed = _ATTRS_BY_OPSET[self.version]
        bad = set(self.attrs) - allowed
        if bad:
            raise ValueError(f"attributes {sorted(bad)} not in Resize-{self.version}")
        attrs = {k: v for k, v in self.attrs.items() if v is not None}
        return helper.make_node("Resize", self.input_names(), ["Y"], **attrs)

    def node_inputs(self) -> list[np.ndarray | None]:
        """Positional inputs for ``onnx_node_resize`` (None for omitted ones)."""
        feeds = self.feeds()
        return [feeds[n] if n else None for n in self.input_names()]

    def model(self, node: onnx.NodeProto | None = None) -> onnx.ModelProto:
        node = self.node() if node is None else node
        inputs = [
            helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(val.dtype), list(val.shape))
            for name, val in self.feeds().items()
        ]
        out = helper.make_tensor_value_info("Y", helper.np_dtype_to_tensor_dtype(self.x.dtype), [None] * self.x.ndim)
        graph = helper.make_graph([node], f"resize_{self.id}", inputs, [out])
        return helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", self.opset)],
            ir_version=max(8, helper.find_min_ir_version_for([helper.make_opsetid("", self.opset)])),
        )

    # -- descriptions ------------------------------------------------------
    def describe(self) -> str:
        def arr(a):
            return None if a is None else np.asarray(a).tolist()

        attrs = {k: v for k, v in self.attrs.items()}
        return (
            f"[{self.id}] opset={self.opset} x.shape={self.x.shape} "
            f"x.dtype={self.x.dtype} roi={arr(self.roi)} scales={arr(self.scales)} "
            f"sizes={arr(self.sizes)} attrs={attrs}" + (f" note={self.note}" if self.note else "")
        )

    def reproducer(self) -> str:
        """A small Python snippet that re-runs the case through jax_resize."""
        kw = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())

        def lit(a):
            if a is None:
                return "None"
            return f"np.array({np.asarray(a).tolist()!r}, np.{np.asarray(a).dtype})"

        return (
            "import numpy as np, jax_resize\n"
            f"X = {lit(self.x)}\n"
            f"Y = jax_resize.onnx_resize(X, roi={lit(self.roi)}, "
            f"scales={lit(self.scales)}, sizes={lit(self.sizes)}, {kw}, "
            f"opset={self.opset})"
        )

    # -- attribute helpers ---------------------------------------------------
    def attr(self, name: str) -> Any:
        return self.attrs.get(name, DEFAULTS[name])


# ---------------------------------------------------------------------------
# Spec helpers (independent of any implementation)
# ---------------------------------------------------------------------------


def normalize_axes(axes: Sequence[int] | None, rank: int) -> list[int]:
    if axes is None:
        return list(range(rank))
    return [a + rank if a < 0 else a for a in axes]


def spec_output_shape(case: ResizeCase) -> tuple[int, ...]:
    """Output shape as the opset-19 spec text describes it (float64 arithmetic).

    With scales: ``floor(in * (roi_end - roi_start) * scale)``, roi only counting
    for tf_crop_and_resize. With sizes: the keep_aspect_ratio_policy rules.
    """
    x = case.x
    rank = x.ndim
    axes = normalize_axes(case.attr("axes"), rank)
    shape = list(x.shape)
    if case.sizes is not None:
        sizes = [int(s) for s in case.sizes]
        policy = case.attr("keep_aspect_ratio_policy")
        if policy == "stretch":
            for a, s in zip(axes, sizes):
                shape[a] = s
        else:
            ratios = [s / x.shape[a] for a, s in zip(axes, sizes)]
            scale = min(ratios) if policy == "not_larger" else max(ratios)
            for a in axes:
                shape[a] = int(math.floor(scale * x.shape[a] + 0.5))
        return tuple(shape)
    scales = [float(s) for s in case.scales]
    tf_crop = case.attr("coordinate_transformation_mode") == "tf_crop_and_resize"
    n = len(axes)
    for i, (a, s) in enumerate(zip(axes, scales)):
        extent = 1.0
        if tf_crop and case.roi is not None and case.roi.size:
            extent = float(case.roi[n + i]) - float(case.roi[i])
        shape[a] = int(math.floor(x.shape[a] * extent * s))
    return tuple(shape)


# ---------------------------------------------------------------------------
# Random case generation (deterministic: one numpy Generator per case id)
# ---------------------------------------------------------------------------

ALL_DTYPES = (
    np.float32,
    np.float64,
    np.float16,
    np.int8,
    np.uint8,
    np.int32,
    np.int64,
)
_DTYPE_P = (0.46, 0.1, 0.1, 0.085, 0.085, 0.085, 0.085)
#: bfloat16 (ml_dtypes) is drawn only when asked for (``dtypes=(BFLOAT16,)``): adding it to
#: ALL_DTYPES would redraw every case of the pinned sweeps.
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

# ORT CPU accepts these (rank, resized-axes) layouts for linear / cubic
# (upsamplebase.h ScalesValidation); nearest works for every rank.
_ORT_LINEAR_LAYOUTS = [(2, None), (3, None), (4, (2, 3)), (4, (1, 2)), (5, (2, 3, 4))]
_ORT_CUBIC_LAYOUTS = [(2, None), (4, (2, 3)), (4, (1, 2))]


def _data(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "f" or dtype == BFLOAT16:
        mag = 10.0 if dtype not in (np.float16, BFLOAT16) else 4.0
        return (rng.standard_normal(shape) * mag).astype(dtype)
    info = np.iinfo(dtype)
    if dtype.itemsize == 1:  # full range: exercises saturation of cubic overshoot
        lo, hi = int(info.min), int(info.max)
    else:  # keep values exactly representable in float32
        lo, hi = max(int(info.min), -20000), min(int(info.max), 20000)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def _pick_scale(rng: np.random.Generator, n_in: int, *, max_out: int) -> np.float32:
    """A float32 scale for an axis of length n_in: 1, ``out / n_in`` rounded to float32 (the
    product with n_in may then fall just below ``out``: 0.7f * 10 = 6.99999988, a length of 6
    in float64 and of 7 in float32), or a fractional ``(out + u) / n_in``."""
    kind = rng.choice(["one", "exact", "frac"], p=[0.1, 0.45, 0.45])
    if kind == "one":
        return np.float32(1.0)
    out = int(rng.integers(1, max_out + 1))
    if kind == "exact":
        return np.float32(out / n_in)
    return np.float32((out + rng.uniform(0.05, 0.95)) / n_in)


def random_case(
    case_id: str,
    seed: Sequence[int],
    *,
    opset: int = 19,
    dtypes: Sequence[Any] = ALL_DTYPES,
    ort_layouts: bool = False,
) -> ResizeCase:
    """Build one random Resize case for ``opset``; same seed -> same case.

    Every case is kept as drawn: hard ones (output lengths that float32 and float64
    disagree on, reference glitches, spec readings) are judged by
    :func:`reference_verdict`, never redrawn. Outputs are small (the 2000-case
    sweep's largest has about 10**5 elements).

    ``ort_layouts``: mostly draw rank / resized axes / exclude_outside that the
    onnxruntime CPU kernel accepts (about 10% are drawn freely, to exercise the
    refusals).
    """
    rng = np.random.default_rng(list(seed))
    return _draw_case(rng, case_id, opset, dtypes, ort_layouts)


def _draw_case(rng, case_id, opset, dtypes, ort_layouts) -> ResizeCase:
    p = [1.0 if np.dtype(d) == BFLOAT16 else _DTYPE_P[ALL_DTYPES.index(d)] for d in dtypes]
    dtype = dtypes[int(rng.choice(len(dtypes), p=np.asarray(p) / sum(p)))]

    modes = ["nearest", "linear"] if opset == 10 else ["nearest", "linear", "cubic"]
    mode = str(rng.choice(modes))
    free = not ort_layouts or rng.random() < 0.1

    # rank, shape and which axes get resized
    if free or mode == "nearest":
        rank = int(rng.integers(1, 6))
        resizable = None
    else:
        layouts = _ORT_LINEAR_LAYOUTS if mode == "linear" else _ORT_CUBIC_LAYOUTS
        rank, resizable = layouts[int(rng.integers(len(layouts)))]
    max_dim = {1: 8, 2: 6, 3: 5, 4: 4, 5: 3}[rank]
    shape = tuple(int(rng.integers(1, max_dim + 1)) for _ in range(rank))
    x = _data(rng, shape, dtype)
    all_axes = list(range(rank)) if resizable is None else list(resizable)

    # attributes
    attrs: dict[str, Any] = {}
    if rng.random() < 0.9 or mode != "nearest":
        attrs["mode"] = mode
    if opset >= 11:
        ctms = list(COORD_MODES_19)
        if opset < 19:
            ctms.remove("half_pixel_symmetric")
        if opset == 11:
            ctms.append("tf_half_pixel_for_nn")
        ctm = str(rng.choice(ctms))
        if ctm != "half_pixel" or rng.random() < 0.5:
            attrs["coordinate_transformation_mode"] = ctm
    else:
        ctm = "asymmetric"
    if opset >= 11 and mode == "nearest" and rng.random() < 0.85:
        attrs["nearest_mode"] = str(rng.choice(NEAREST_MODES))
    if opset >= 11 and mode == "cubic" and rng.random() < 0.8:
        a = rng.choice([-0.75, -0.5, float(rng.uniform(-1.0, -0.3))])
        attrs["cubic_coeff_a"] = float(np.float32(a))
    antialias = 0
    if opset >= 18 and mode != "nearest" and rng.random() < 0.35:
        antialias = 1
        attrs["antialias"] = 1
    if opset >= 11:
        if ort_layouts and not free:
            allow_excl = mode == "cubic" or (mode == "linear" and antialias)
        else:
            allow_excl = True
        if allow_excl and rng.random() < 0.4:
            attrs["exclude_outside"] = 1
        elif rng.random() < 0.1:
            attrs["exclude_outside"] = 0
    if ctm == "tf_crop_and_resize" and rng.random() < 0.75:
        attrs["extrapolation_value"] = float(np.float32(rng.uniform(-50, 50)))

    # axes attribute (opset 18+)
    axes: list[int] | None = None
    if opset >= 18 and rng.random() < 0.45:
        k = int(rng.integers(1, len(all_axes) + 1))
        axes = [int(a) for a in rng.permutation(all_axes)[:k]]
        axes = [a - rank if rng.random() < 0.5 else a for a in axes]
        attrs["axes"] = axes
    elif resizable is not None:
        # only resize the allowed axes; the others get scale 1 / their own size
        pass
    target_axes = normalize_axes(axes, rank)
    free_axes = set(all_axes)

    # scales or sizes
    use_sizes = opset != 10 and rng.random() < 0.45
    roi = scales = sizes = None
    if use_sizes:
        vals = []
        for a in target_axes:
            if a in free_axes:
                vals.append(int(rng.integers(1, min(2 * x.shape[a] + 3, 9) + 1)))
            else:
                vals.append(x.shape[a])
        sizes = np.array(vals, np.int64)
        if opset >= 18 and rng.random() < 0.4:
            attrs["keep_aspect_ratio_policy"] = str(
                rng.choice(["stretch", "not_larger", "not_smaller"], p=[0.2, 0.4, 0.4])
            )
    else:
        vals = []
        for a in target_axes:
            if a in free_axes:
                vals.append(_pick_scale(rng, x.shape[a], max_out=9))
            else:
                vals.append(np.float32(1.0))
        scales = np.array(vals, np.float32)

    if opset >= 11 and (ctm == "tf_crop_and_resize" or rng.random() < 0.08):
        starts, ends = [], []
        for a in target_axes:
            if a not in free_axes or rng.random() < 0.15:
                lo, hi = 0.0, 1.0
            else:
                lo = float(rng.uniform(-0.4, 0.8))
                hi = lo + float(rng.uniform(0.1, 1.2))
                if use_sizes and rng.random() < 0.05:
                    lo, hi = hi, lo  # flipped crop (with scales its spec length would be negative)
            starts.append(lo)
            ends.append(hi)
        roi = np.array(starts + ends, np.float32)
    return ResizeCase(case_id, x, roi=roi, scales=scales, sizes=sizes, attrs=attrs, opset=opset)


# ---------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------


def reference_node(case: ResizeCase) -> onnx.NodeProto:
    """Node for the reference evaluator: axes made non-negative.

    The reference implementation (onnx 1.23) does ``a not in axes`` on the raw
    attribute, so negative axes break it; the spec says they count from the back,
    which is exactly what normalising them does.
    """
    attrs = dict(case.attrs)
    if attrs.get("axes") is not None:
        attrs["axes"] = normalize_axes(attrs["axes"], case.x.ndim)
    return dataclasses.replace(case, attrs=attrs).node()


def run_reference(case: ResizeCase, *, window_fix: bool = False) -> np.ndarray:
    """Run the case with ``onnx.reference.ReferenceEvaluator`` (opset 13+ layout).

    ``window_fix``: with the reference's window-rounding glitch fixed (see
    :func:`_window_fixed_reference`); nothing else changes.
    """
    from onnx.reference import ReferenceEvaluator

    if case.opset < 13:
        raise ValueError("the reference evaluator implements the opset 13+ layout")
    sess = ReferenceEvaluator(case.model(reference_node(case)))
    with _window_fixed_reference() if window_fix else _nullcontext():
        return np.asarray(sess.run(None, case.feeds())[0])


def _stretch_sizes_case(case: ResizeCase, shape: Sequence[int]) -> ResizeCase:
    """Same node, but ``sizes`` = the spec's output lengths and policy stretch."""
    attrs = {k: v for k, v in case.attrs.items() if k != "keep_aspect_ratio_policy"}
    axes = normalize_axes(case.attr("axes"), case.x.ndim)
    sizes = np.array([shape[a] for a in axes], np.int64)
    return dataclasses.replace(case, scales=None, sizes=sizes, attrs=attrs)


def _deviation(case: ResizeCase) -> str | None:
    """Which known reference-vs-spec deviation (if any) the case runs into.

    * ``"length"``: tf_crop_and_resize with ``scales``: the spec's output length
      ``floor(in * (roi_end - roi_start) * scale)`` includes the roi extent, the
      reference's does not. Those coordinates depend only on the output length and
      the roi, so the reference run with ``sizes`` = spec lengths gives the spec
      result. With antialias the filter width depends on which scale is meant; the
      spec does not say, and jax_resize reads it as the effective ``out / in`` (what
      ``sizes`` gives). (align_corners and tf_crop_and_resize otherwise use the
      reference's ``length_resized = scale * input_length``, fractional with
      ``scales`` or a keep_aspect_ratio_policy: the ONNX backend case
      resize_downsample_scales_linear_align_corners fixes that reading.)
    * ``"pytorch1"``: pytorch_half_pixel with a spec output length of 1 (input
      longer than 1) on a resized axis: spec x_original = 0, the reference uses
      -0.5 (or the general formula when scale * length is fractional). The
      resize is separable, so the spec result is the reference's own 1-D routine
      run axis by axis with the reference's scales and lengths, with align_corners
      (x_original = 0 for a single output) on those axes.
    """
    x = case.x
    ctm = case.attr("coordinate_transformation_mode") if case.opset >= 11 else "asymmetric"
    axes = normalize_axes(case.attr("axes"), x.ndim)
    shape = spec_output_shape(case)
    if ctm == "tf_crop_and_resize" and case.scales is not None:
        return "length"
    if ctm == "pytorch_half_pixel":
        if any(shape[a] == 1 and x.shape[a] > 1 for a in axes):
            return "pytorch1"
    return None


def _without_nearest_exclude(case: ResizeCase) -> ResizeCase:
    """exclude_outside=1 with mode nearest, as the spec reads: no effect.

    exclude_outside re-weights interpolation taps; nearest picks one input
    element, clamped into the tensor like every other mode's taps. The onnx 1.23
    reference instead zeroes the single tap when the picked index is outside
    [0, length - 1] and returns 0 there (0/0 guarded to 0); onnxruntime refuses
    exclude_outside=1 with nearest. So the reference is run with exclude_outside=0.
    """
    if case.attr("mode") == "nearest" and case.attr("exclude_outside"):
        attrs = dict(case.attrs)
        attrs["exclude_outside"] = 0
        return dataclasses.replace(case, attrs=attrs)
    return case


def _axis_runs(case: ResizeCase) -> list[tuple]:
    """The 1-D passes the reference makes for the (rewritten) case.

    ``(axis, scale, n_in, n_out, coordinate_transformation_mode, roi)`` per resized
    axis, in the reference's order, identity axes skipped as it skips them (scale
    close to 1, same length, no crop). Mirrors ``onnx.reference``'s
    ``_interpolate_nd``; for ``"pytorch1"`` these are the axis-by-axis runs of
    :func:`reference_expected`.
    """
    case = _without_nearest_exclude(case)
    dev = _deviation(case)
    if dev == "length":
        case = _stretch_sizes_case(case, spec_output_shape(case))
    x = case.x
    axes = normalize_axes(case.attr("axes"), x.ndim)
    ctm = case.attr("coordinate_transformation_mode")
    shape = spec_output_shape(case)
    if case.sizes is not None:
        scales = [float(s) / x.shape[a] for a, s in zip(axes, case.sizes)]
        policy = case.attr("keep_aspect_ratio_policy")
        if policy != "stretch":
            scales = [min(scales) if policy == "not_larger" else max(scales)] * len(axes)
    else:
        scales = [float(s) for s in case.scales]
    n = len(axes)
    runs = []
    for i, a in enumerate(axes):
        roi = None
        if ctm == "tf_crop_and_resize" and case.roi is not None and case.roi.size:
            roi = [float(case.roi[i]), float(case.roi[n + i])]
        if (
            math.isclose(scales[i], 1.0)
            and shape[a] == x.shape[a]
            and (roi is None or (math.isclose(roi[0], 0.0) and math.isclose(roi[1], 1.0)))
        ):
            continue
        axis_ctm = ctm
        if dev == "pytorch1" and shape[a] == 1 and x.shape[a] > 1:
            axis_ctm = "align_corners"
        runs.append((a, scales[i], x.shape[a], shape[a], axis_ctm, roi))
    return runs


def _coefficients(case: ResizeCase):
    """The reference's coefficient function for the case (as ``Resize._run`` builds it)."""
    from onnx.reference.ops import op_resize as R

    mode = case.attr("mode")
    if mode == "nearest":
        nearest = case.attr("nearest_mode")
        return lambda ratio, scale: R._nearest_coeffs(ratio, mode=nearest)
    aa = bool(case.attr("antialias"))
    if mode == "linear":
        return R._linear_coeffs_antialias if aa else R._linear_coeffs
    fct, a = (R._cubic_coeffs_antialias if aa else R._cubic_coeffs), case.attr("cubic_coeff_a")
    return lambda ratio, scale: fct(ratio, scale, A=a)


def glitch_positions(case: ResizeCase) -> dict[int, np.ndarray]:
    """Output positions hit by a rounding glitch of the onnx 1.23 reference.

    ``_interpolate_1d_along_axis`` takes the interpolation ratio from ``x_ori``
    but picks the neighbour window from ``x_ori + pad``; when ``x_ori`` sits a
    few ulps above an integer, ``x_ori + pad`` rounds to that integer and the
    window starts one element too early while the ratio is ~0, so the output
    takes the previous input element (e.g. 3 -> 9 with half_pixel_symmetric,
    scale 3.1144254: output[4] = X[0] instead of X[1]). See
    docs/notes/onnxruntime_findings.md, section 5. ``{axis: output indices}``.
    """
    from onnx.reference.ops.op_resize import _compute_x_ori

    mode = case.attr("mode")
    aa = bool(case.attr("antialias"))
    found = {}
    for a, scale, n_in, n_out, ctm, roi in _axis_runs(case):
        if n_out == 0:
            continue
        x_ori, _ = _compute_x_ori(ctm, np.arange(n_out, dtype=np.float64), scale, n_in, scale * n_in, n_out, roi)
        if mode == "nearest" or (mode == "linear" and not aa):
            k = 2
        elif mode == "cubic" and not aa:
            k = 4
        else:
            start = int(np.floor((-1 if mode == "linear" else -2) / min(scale, 1.0)) + 1)
            k = 2 - 2 * start
        pad = int(np.ceil(k / 2))
        xp = x_ori + pad
        fl, flp = np.floor(x_ori), np.floor(xp)
        frac, fracp = x_ori - fl, xp - flp
        bad = flp - pad != fl
        if k % 2 == 0:
            bad |= (fracp == 0) != (frac == 0)
        else:
            bad |= (fracp <= 0.5) != (frac <= 0.5)
        if bad.any():
            found[a] = np.flatnonzero(bad)
    return found


class _window_fixed_reference:
    """Context: ``onnx.reference``'s Resize with the window-rounding glitch fixed.

    The only change to the installed ``_interpolate_1d_along_axis``: the window is
    placed from ``floor(x_ori)`` (from which the ratio is taken too) instead of
    ``floor(x_ori + pad)``. If onnx changes that code, this raises (it never
    silently falls back).
    """

    _OLD = (
        "    x_padded = x_ori + pad_width\n"
        "    p_padded = np.floor(x_padded).astype(np.int64)\n"
        "    frac = x_padded - p_padded\n"
    )
    _NEW = "    p_padded = x_ori_int + pad_width\n    frac = x_ori - x_ori_int\n"
    _fixed = None

    @classmethod
    def function(cls):
        if cls._fixed is None:
            import inspect

            from onnx.reference.ops import op_resize

            src = inspect.getsource(op_resize._interpolate_1d_along_axis)
            if src.count(cls._OLD) != 1 or "x_ori_int = np.floor(x_ori)" not in src:
                raise AssertionError(
                    "onnx.reference's _interpolate_1d_along_axis changed: update the window fix "
                    "(tests/onnx_oracles.py) and docs/notes/onnxruntime_findings.md section 5"
                )
            namespace = dict(vars(op_resize))
            exec(compile(src.replace(cls._OLD, cls._NEW), op_resize.__file__, "exec"), namespace)
            cls._fixed = namespace["_interpolate_1d_along_axis"]
        return cls._fixed

    def __enter__(self):
        from onnx.reference.ops import op_resize

        self._saved = op_resize._interpolate_1d_along_axis
        op_resize._interpolate_1d_along_axis = self.function()

    def __exit__(self, *exc):
        from onnx.reference.ops import op_resize

        op_resize._interpolate_1d_along_axis = self._saved
        return False


def _spec_result(case: ResizeCase, *, window_fix: bool) -> np.ndarray:
    """The reference's result with the documented deviations rewritten (see
    :func:`_deviation`); ``window_fix``: with the window glitch fixed as well."""
    case = _without_nearest_exclude(case)
    dev = _deviation(case)
    if dev is None:
        return run_reference(case, window_fix=window_fix)
    if dev == "length":
        return run_reference(_stretch_sizes_case(case, spec_output_shape(case)), window_fix=window_fix)
    # pytorch1: the reference's 1-D routine axis by axis in float64, round / saturate once
    from onnx.reference.ops import op_resize

    with _window_fixed_reference() if window_fix else _nullcontext():
        y = _axis_by_axis(case, op_resize._interpolate_1d_along_axis)
    return _cast_like_reference(y, case.x.dtype)


def _axis_by_axis(case: ResizeCase, interpolate) -> np.ndarray:
    """The reference's 1-D routine ``interpolate`` over :func:`_axis_runs`, in float64, with the
    float64 coefficients of :func:`_coefficients`."""
    y = case.x.astype(np.float64)
    for a, scale, _, n_out, ctm, roi in _axis_runs(case):
        y = interpolate(
            y,
            a,
            scale,
            n_out,
            _coefficients(case),
            roi=roi,
            extrapolation_value=case.attr("extrapolation_value"),
            coordinate_transformation_mode=ctm,
            exclude_outside=bool(case.attr("exclude_outside")),
        )
    return y


def float32_length_axes(case: ResizeCase) -> list[int]:
    """Axes whose output length floor(in * scale) differs between float64 (the spec's
    arithmetic on the float32 scale, the reference's) and a float32 product (onnxruntime's)."""
    if case.scales is None or (
        case.opset >= 11 and case.attr("coordinate_transformation_mode") == "tf_crop_and_resize"
    ):
        return []
    axes = normalize_axes(case.attr("axes"), case.x.ndim)
    return [
        a
        for a, s in zip(axes, case.scales)
        if math.floor(float(np.float32(s)) * case.x.shape[a])
        != math.floor(float(np.float32(np.float32(s) * np.float32(case.x.shape[a]))))
    ]


# What each category of the random sweep means; docs/notes/onnxruntime_findings.md
# has the details. "agree" is the reference evaluator run on the case itself.
CATEGORIES = {
    "agree": "the reference evaluator on the case itself",
    "float32 length": "agree; floor(in * scale) in float32 would give another output length "
    "(onnxruntime's rule, findings 3.6); the reference and the spec use float64",
    "tf_crop scales length": "tf_crop_and_resize with scales: the reference sizes the output "
    "floor(in * scale), the spec floor(in * (end - start) * scale) (findings 2)",
    "tf_crop scales antialias": "as 'tf_crop scales length', with antialias: filter scale read as out / in",
    "pytorch_half_pixel length 1": "the reference puts x_original at -0.5, the spec at 0 (findings 4)",
    "nearest exclude_outside": "the reference zeroes outputs whose nearest index is outside (findings 5)",
    "reference window glitch": "x_original a few ulps above an integer: the reference's window "
    "starts one element early (findings 5)",
}


@dataclasses.dataclass
class Verdict:
    """How a case is judged: its categories and the spec result from the reference."""

    categories: list[str]
    expected: np.ndarray
    raw: np.ndarray  # the reference evaluator on the case itself
    unfixed: np.ndarray  # ``expected`` without the window-glitch fix
    glitches: dict[int, np.ndarray]

    @property
    def category(self) -> str:
        return " + ".join(self.categories)


def reference_verdict(case: ResizeCase) -> Verdict:
    """Classify the case and compute its spec result with the reference evaluator.

    Every case gets a verdict (nothing is skipped): the reference on the case
    itself ("agree"), or a named deviation of the reference from the spec, for
    which the spec result is the reference run in a spec-equivalent way.
    :func:`check_deviation` asserts what exactly the deviation changes.
    """
    if case.opset < 13:
        raise ValueError("the reference evaluator implements the opset 13+ layout")
    cats = categories(case)
    glitches = glitch_positions(case)
    raw = run_reference(case)
    rewritten = _deviation(case) is not None or "nearest exclude_outside" in cats
    unfixed = _spec_result(case, window_fix=False) if rewritten else raw
    expected = _spec_result(case, window_fix=True) if glitches else unfixed
    return Verdict(cats, expected, raw, unfixed, glitches)


def categories(case: ResizeCase) -> list[str]:
    """The case's categories (keys of :data:`CATEGORIES`), without running anything."""
    cats = []
    dev = _deviation(case)
    if dev == "length":
        cats.append("tf_crop scales antialias" if case.attr("antialias") else "tf_crop scales length")
    elif dev == "pytorch1":
        cats.append("pytorch_half_pixel length 1")
    if _without_nearest_exclude(case) is not case:
        cats.append("nearest exclude_outside")
    if float32_length_axes(case):
        cats.append("float32 length")
    if glitch_positions(case):
        cats.append("reference window glitch")
    return cats or ["agree"]


def check_deviation(case: ResizeCase, v: Verdict) -> None:
    """Assert exactly what each documented deviation changes in the reference's output."""
    x = case.x
    axes = normalize_axes(case.attr("axes"), x.ndim)
    spec = spec_output_shape(case)
    assert v.expected.shape == spec, (v.expected.shape, spec)
    cats = set(v.categories)
    if "float32 length" in cats:
        f32 = float32_lengths(case)
        assert v.raw.shape == spec and f32 != spec, (v.raw.shape, f32, spec)
    if cats & {"tf_crop scales length", "tf_crop scales antialias"}:
        ref_shape = list(x.shape)
        for a, s in zip(axes, case.scales):
            ref_shape[a] = int(math.floor(float(s) * x.shape[a]))
        assert v.raw.shape == tuple(ref_shape), (v.raw.shape, ref_shape)
    if "pytorch_half_pixel length 1" in cats:
        assert v.raw.shape == spec
        plain = case.attr("mode") == "nearest" or (case.attr("mode") == "linear" and not case.attr("antialias"))
        if (
            plain
            and case.sizes is not None
            and case.attr("keep_aspect_ratio_policy") == "stretch"
            and not cats & {"nearest exclude_outside", "reference window glitch"}
        ):
            # a length of exactly 1: x_original -0.5 (reference) and 0 (spec) both give X[0]
            np.testing.assert_array_equal(v.raw, v.unfixed)
    if "nearest exclude_outside" in cats and _deviation(case) is None:
        # the reference's output is the spec's, or 0 where its picked index fell outside
        assert v.raw.shape == v.unfixed.shape
        assert np.all((v.raw == v.unfixed) | (v.raw == 0)), "exclude_outside changed nearest values"
    if v.glitches:
        # the glitch changes nothing outside the output rows it hits
        mask = np.zeros(v.expected.shape, bool)
        for a, rows in v.glitches.items():
            index = [slice(None)] * x.ndim
            index[a] = rows
            mask[tuple(index)] = True
        np.testing.assert_array_equal(v.unfixed[~mask], v.expected[~mask])


def reference_expected(case: ResizeCase) -> np.ndarray:
    """The spec result, computed with the ONNX reference evaluator (see :func:`reference_verdict`)."""
    return reference_verdict(case).expected


def _cast_like_reference(y: np.ndarray, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.round(y), info.min, info.max).astype(dtype)
    info = ml_dtypes.finfo(dtype)
    return np.clip(y, float(info.min), float(info.max)).astype(dtype)


# ---------------------------------------------------------------------------
# Judging rounded results: integers exactly, float16 / bfloat16 within a derived bound
# ---------------------------------------------------------------------------


def compute_significand_bits(dtype) -> int:
    """Significand bits (with the implicit one) of the float type jax_resize documents for a
    filtered resize of ``dtype`` (jax_resize/_src/dtypes.py): float64 for 64-bit data, which
    :func:`run_jax` runs under x64; float32 for the rest (8-bit and int32 data, float16, bfloat16)."""
    return 53 if np.dtype(dtype).itemsize >= 8 else 24


def _dyadic_bits(c: np.ndarray) -> np.ndarray:
    """Smallest ``b >= 0`` with ``c * 2**b`` an integer, per element of float64 ``c``."""
    m, e = np.frexp(np.abs(np.asarray(c, np.float64)))
    mi = (m * 2.0**53).astype(np.int64)  # c = mi * 2**(e - 53), mi < 2**53
    low = np.where(mi > 0, mi & -mi, 1)  # lowest set bit
    trailing = np.round(np.log2(low.astype(np.float64))).astype(np.int64)
    return np.where(mi > 0, np.maximum(53 - trailing - e, 0), 0)


#: Per-coefficient absolute error allowed to the reference's float32 coefficient arithmetic: it
#: reads cubic_coeff_a (and a ``scales`` tensor) as np.float32, so NumPy 2 evaluates Keys' polynomial
#: (and the antialias taps ``scale * (i - ratio)`` and their normalisation) in float32. The
#: polynomial has <= 8 roundings of values <= 8 in magnitude (<= 64 * 2**-24) and the ratio's
#: rounding to float32 moves a coefficient by <= 2 * 2**-24; 2**-16 leaves a margin of 4.
REFERENCE_COEFF_ERROR = 2.0**-16


@dataclasses.dataclass
class SumBound:
    """Per output element: ``S = sum |w * x|`` over every tap of every pass (the spec's float64
    weights, extrapolated outputs counted as ``|extrapolation_value|``); ``S_ref``: the same with
    ``|w| + REFERENCE_COEFF_ERROR`` per tap where the reference computes coefficients in float32
    (so ``|y_reference - y64| <= S_ref - S``); ``bits``: the weights of all passes are multiples of
    ``2**-bits``; ``terms``: ``sum over passes of (taps + 1)``."""

    S: np.ndarray
    S_ref: np.ndarray
    bits: np.ndarray
    terms: int


def _reference_float32_coefficients(case: ResizeCase) -> bool:
    """Whether onnx.reference evaluates the case's coefficients in float32 (see REFERENCE_COEFF_ERROR)."""
    mode = case.attr("mode")
    return mode == "cubic" or (mode == "linear" and bool(case.attr("antialias")) and case.scales is not None)


def _passes(case: ResizeCase):
    """``(axis, W, rows, taps, outside)`` per pass of :func:`_axis_runs`, from the reference's own
    (window-fixed) 1-D routine run on an identity matrix with the float64 coefficient function of
    :func:`_coefficients`: ``W [out, in]`` holds ``|c|`` summed over the taps clamped onto each
    input (with exclude_outside no two taps share an input, and it is ``|W|`` of the normalised
    weights); ``rows``: each output row's tap coefficients (None with exclude_outside);
    ``outside``: outputs set to extrapolation_value."""
    interpolate = _window_fixed_reference.function()
    coeffs = _coefficients(case)
    excl = bool(case.attr("exclude_outside"))
    for a, scale, n_in, n_out, ctm, roi in _axis_runs(case):
        rows: list[np.ndarray] = []

        def recorded(ratio, sc, rows=rows):
            c = np.asarray(coeffs(ratio, sc), np.float64)
            rows.append(c)
            return np.abs(c)

        kw = dict(roi=roi, coordinate_transformation_mode=ctm, extrapolation_value=0.0)
        eye = np.eye(n_in)
        if excl:
            # rows: None, never exact: the renormalisation divides, and jax_resize's float64
            # quotient may differ from the reference's in the last bit (then not dyadic in float32)
            w = interpolate(eye, 0, scale, n_out, coeffs, exclude_outside=True, **kw)
            rows, w, taps = [None] * n_out, np.abs(w), len(coeffs(0.5, scale))
        else:
            w = interpolate(eye, 0, scale, n_out, recorded, exclude_outside=False, **kw)
            taps = max((len(r) for r in rows), default=0)
        kw["extrapolation_value"] = 1.0
        outside = interpolate(np.zeros((n_in, 1)), 0, scale, n_out, coeffs, **kw)[:, 0] == 1
        yield a, w, rows[:n_out], taps, outside


def sum_bound(case: ResizeCase) -> SumBound:
    """:class:`SumBound` of the case (see :func:`_passes`)."""
    case = _without_nearest_exclude(case)
    ev = float(case.attr("extrapolation_value"))
    eps = REFERENCE_COEFF_ERROR if _reference_float32_coefficients(case) else 0.0
    s = np.abs(case.x.astype(np.float64))
    s_ref = s
    bits = np.zeros(s.shape, np.int64)
    terms = 0
    for a, w, rows, taps, outside in _passes(case):
        n_out = w.shape[0]
        row_bits = np.array([64 if r is None else _dyadic_bits(r).max(initial=0) for r in rows], np.int64)
        row_bits = row_bits.reshape(n_out)
        row_bits = np.where(outside, _dyadic_bits(np.array([ev]))[0], row_bits)
        terms += taps + 1
        shape = [1] * s.ndim
        shape[a] = n_out
        out = outside.reshape(shape)

        def apply(m, v, a=a, out=out):
            return np.where(out, abs(ev), np.moveaxis(np.tensordot(m, np.moveaxis(v, a, 0), axes=(1, 0)), 0, a))

        s_ref = apply(w + eps * (w > 0), s_ref)
        s = apply(w, s)
        bits = np.moveaxis(np.moveaxis(bits, a, 0)[:1].repeat(n_out, 0), 0, a) + row_bits.reshape(shape)
    return SumBound(s, s_ref, np.broadcast_to(bits, s.shape), terms)


def spec_float64(case: ResizeCase) -> np.ndarray:
    """The spec result before the final cast, in float64 throughout: the reference's 1-D routine
    (window fixed) axis by axis over :func:`_axis_runs`, with the float64 coefficients of
    :func:`_coefficients` (the reference's own Resize evaluates cubic and some antialias
    coefficients in float32, see REFERENCE_COEFF_ERROR)."""
    return _axis_by_axis(_without_nearest_exclude(case), _window_fixed_reference.function())


@dataclasses.dataclass
class Judgement:
    """A comparison with the spec result, with the counts of how strictly it was judged."""

    cmp: Comparison
    exact_ties: int = 0  # outputs exactly on a .5 tie where float arithmetic is exact: strict
    windowed: int = 0  # outputs within the tie window: either neighbour accepted
    max_window: float = 0.0


def _saturate(y: np.ndarray, dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    return np.clip(y, info.min, info.max).astype(dtype)


def _float_ulp(v: np.ndarray, dtype) -> np.ndarray:
    """The spacing of ``dtype`` (float16 / bfloat16) at magnitude ``|v|``, subnormals included."""
    fi = ml_dtypes.finfo(dtype)
    _, e = np.frexp(np.abs(np.asarray(v, np.float64)))
    return np.ldexp(1.0, np.maximum(e - 1, int(fi.minexp)) - int(fi.nmant))


def judge(case: ResizeCase, expected: np.ndarray, actual: np.ndarray) -> Judgement:
    """jax_resize's ``actual`` against the spec result ``expected`` (the reference's, see
    :func:`reference_verdict`), with the rule of the case's dtype.

    * integer nearest: equal.
    * integer linear / cubic: the spec result is ``saturate(round_half_to_even(y64))`` with ``y64``
      = :func:`spec_float64`; it must equal the reference's own integer output ``expected``
      wherever ``y64`` is farther from a .5 tie than the reference's float32 coefficients can move
      it (``S_ref - S``, :func:`sum_bound`), so the rewrite cannot drift from the reference.
      jax_resize computes ``y`` in float ``T`` (unit roundoff ``u = 2**-p``,
      :func:`compute_significand_bits`) from float64 weights rounded to ``T``, one dot product of
      ``n`` taps per pass; each pass adds at most ``(n + 1) * u * S`` (weight rounding and ``n``
      roundings of the sum, in any order; ``S = sum |w * x|``), so ``|y - y64| <= (sum over passes
      of (n + 1) + 1) * u * S`` (the ``+ 1`` covers second-order terms and float64 rounding). Within
      that window of a .5 tie either neighbour is accepted; elsewhere equality. Where every weight
      is a multiple of ``2**-bits`` (never with exclude_outside, see :func:`_passes`) and
      ``S * 2**bits < 2**p`` (dyadic ratios such as x2, x4, /2 with coordinates exact in ``T``),
      every product and partial sum is exact in ``T``, so the window is 0: ties there are judged
      strictly.
    * float16 / bfloat16: ``|actual - expected| <= (sum (n + 1) + 1) * 2**-24 * S + (S_ref - S) +
      ulp``: jax_resize's float32 computation as above, the reference's float32 coefficients,
      then two roundings to the dtype (of jax_resize's float32 value and of the reference's
      float64 one) that may land on neighbouring values (one ulp at the result's magnitude, not
      half).
    * float32 / float64: :func:`tolerance_for`.
    """
    dt = np.dtype(case.x.dtype)
    actual, expected = np.asarray(actual), np.asarray(expected)
    mode = case.attr("mode") if case.opset > 10 else case.attrs.get("mode", "nearest")
    shape_ok = actual.shape == expected.shape and actual.dtype == expected.dtype
    if not shape_ok or actual.size == 0 or (dt.kind in "iu" and mode == "nearest"):
        return Judgement(compare(actual, expected, 0.0, 0.0))
    if dt.kind in "iu":
        y64 = spec_float64(case)
        want = _saturate(np.rint(y64), dt)
        b = sum_bound(case)
        lo = np.floor(y64)
        ref_window = b.S_ref - b.S + (b.terms + 1) * 2.0**-53 * b.S
        drift = (want != expected) & (np.abs(y64 - lo - 0.5) > ref_window)
        assert not drift.any(), (
            f"round_half_to_even of the float64 spec result differs from the reference's own integer output at "
            f"{int(drift.sum())} elements away from a tie\n{case.describe()}"
        )
        p = compute_significand_bits(dt)
        exact = b.S * np.ldexp(1.0, b.bits) < 2.0**p
        window = np.where(exact, 0.0, (b.terms + 1) * 2.0**-p * b.S)
        assert window.max() < 0.25, f"tie window {window.max()} would accept almost anything\n{case.describe()}"
        near = ~exact & (np.abs(y64 - lo - 0.5) <= window)  # exact ties get no window
        other = _saturate(np.where(want == _saturate(lo, dt), lo + 1, lo), dt)
        bad = (actual != want) & ~(near & (actual == other))
        ties = int((exact & (y64 - lo == 0.5)).sum())
        windowed = int(near.sum())
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            msg = (
                f"{int(bad.sum())}/{actual.size} integer outputs differ from round_half_to_even(y64); first at "
                f"{idx}: got {actual[idx]!r}, expected {want[idx]!r} (y64={y64[idx]!r}, tie window "
                f"{window[idx]:.3g}, exact={bool(exact[idx])})"
            )
            diff = float(np.abs(actual.astype(np.float64) - want).max())
            return Judgement(Comparison(False, diff, math.inf, msg), ties, windowed, float(window.max()))
        return Judgement(Comparison(True, 0.0, 0.0, "ok"), ties, windowed, float(window.max()))
    if dt in (np.float16, BFLOAT16):
        b = sum_bound(case)
        e = expected.astype(np.float64)
        spread = (b.terms + 1) * 2.0**-24 * b.S + (b.S_ref - b.S)
        tol = spread + _float_ulp(np.abs(e) + spread, dt)
        return Judgement(compare(actual, expected, 0.0, tol), max_window=float(tol.max()))
    return Judgement(compare(actual, expected, *tolerance_for(case)))


def exact_ties(case: ResizeCase) -> tuple[int, int]:
    """``(ties, outputs)``: how many of the case's outputs have a float64 spec result exactly on a
    .5 tie where jax_resize's arithmetic is exact (see :func:`judge`), and how many outputs it has."""
    y64 = spec_float64(case)
    b = sum_bound(case)
    exact = b.S * np.ldexp(1.0, b.bits) < 2.0 ** compute_significand_bits(case.x.dtype)
    return int((exact & (y64 - np.floor(y64) == 0.5)).sum()), int(y64.size)


#: Geometries of :func:`tie_cases` whose coordinates are dyadic and exact in float32:
#: ``(name, coordinate_transformation_mode, input length, scale or None, size or None)``.
_TIE_GEOMETRIES = (
    ("x2", "half_pixel", 4, 2.0, None),  # x_original = y / 2 - 0.25
    ("x2", "pytorch_half_pixel", 4, 2.0, None),
    ("x2", "half_pixel_symmetric", 4, 2.0, None),  # offset 0: integer output length
    ("x2", "asymmetric", 4, 2.0, None),  # y / 2
    ("x2", "align_corners", 4, None, 7),  # y * 3 / 6
    ("x4", "half_pixel", 4, 4.0, None),  # y / 4 - 0.375
    ("x4", "asymmetric", 4, 4.0, None),
    ("x4", "align_corners", 4, None, 13),  # y * 3 / 12
    ("/2", "half_pixel", 8, 0.5, None),  # 2 y + 0.5
    ("/2", "pytorch_half_pixel", 8, 0.5, None),
    ("/2", "half_pixel_symmetric", 8, 0.5, None),
)
_TIE_DTYPES = (np.int8, np.uint8, np.int32, np.int64)


def tie_cases() -> list[ResizeCase]:
    """Integer cases rich in exact .5 ties: every geometry of :data:`_TIE_GEOMETRIES` with linear
    (both axes of a 4-row image), cubic a = -0.75 and a = -0.5 (the last axis only, ``axes=[-1]``,
    so that ``S * 2**bits`` stays below float32's ``2**24``), antialias off and on, the dtype
    rotating through int8 / uint8 / int32 / int64 (int32 / int64 data in +-20000 for linear,
    multiples of 128 in +-2000 for cubic; 8-bit data over the full range, multiples of 64 for
    cubic). Coefficients stay dyadic: no
    exclude_outside (its renormalisation divides), cubic_coeff_a in {-0.75, -0.5}."""
    cases = []
    combos = [(g, m, aa) for g in _TIE_GEOMETRIES for m in ("linear", "cubic-0.75", "cubic-0.5") for aa in (0, 1)]
    for i, ((ratio, ctm, n, scale, size), mode, aa) in enumerate(combos):
        dtype = np.dtype(_TIE_DTYPES[i % len(_TIE_DTYPES)])
        rng = np.random.default_rng([20240613, i])
        cubic = mode.startswith("cubic")
        info = np.iinfo(dtype)
        bound = 2000 if cubic else 20000
        lo, hi = (int(info.min), int(info.max)) if dtype.itemsize == 1 else (-bound, bound)
        rows = 3 if cubic else (8 if ratio == "/2" else 4)
        # cubic weights have 7-11 fractional bits: multiples of 2**step leave ~2-4, so ties are common
        step = 0 if not cubic else (6 if dtype.itemsize == 1 else 7)
        x = (rng.integers(lo >> step, hi >> step, size=(rows, n), endpoint=True) << step).astype(dtype)
        attrs: dict[str, Any] = {"mode": "cubic" if cubic else "linear", "coordinate_transformation_mode": ctm}
        if cubic:
            attrs["cubic_coeff_a"] = float(mode[len("cubic") :])
            attrs["axes"] = [-1]
        if aa:
            attrs["antialias"] = 1
        k = 1 if cubic else 2
        scales = None if scale is None else np.full(k, scale, np.float32)
        sizes = None if size is None else np.array([size] * k if not cubic else [size], np.int64)
        if sizes is not None and not cubic:
            sizes = np.array([2 * rows - 1 if ratio == "x2" else 4 * rows - 3, size], np.int64)
        cid = f"tie_{i:02d}_{ratio}_{ctm}_{mode}_aa{aa}_{dtype.name}"
        cases.append(ResizeCase(cid, x, roi=None, scales=scales, sizes=sizes, attrs=attrs, opset=19))
    return cases


# ---------------------------------------------------------------------------
# onnxruntime: what it refuses, and where it is known to differ from the spec
# (docs/notes/onnxruntime_findings.md has the details and tiny examples)
# ---------------------------------------------------------------------------


def _ort_full_scales(case: ResizeCase) -> list[float]:
    """The per-axis float32 scales ORT validates (after axes / sizes / policy)."""
    x = case.x
    rank = x.ndim
    axes = normalize_axes(case.attrs.get("axes"), rank)
    full = [np.float32(1.0)] * rank
    if case.sizes is not None:
        policy = case.attrs.get("keep_aspect_ratio_policy", "stretch")
        ratios = {a: np.float32(np.float32(s) / np.float32(x.shape[a])) for a, s in zip(axes, case.sizes)}
        for a in axes:
            if policy == "stretch":
                full[a] = ratios[a]
            else:
                pick = min if policy == "not_larger" else max
                full[a] = pick(ratios.values())
    else:
        for a, s in zip(axes, case.scales):
            full[a] = np.float32(s)
    return [float(s) for s in full]


def ort_refusal_reason(case: ResizeCase) -> str | None:
    """Why onnxruntime's CPU Resize kernel refuses the case (None: it runs it).

    The documented list (upsamplebase.h in onnxruntime 1.17-1.31):
    * antialias=1 with mode nearest;
    * exclude_outside=1 unless mode cubic, or mode linear with antialias=1;
    * linear: rank 2 or 3; rank 4 with scales[0] == scales[1] == 1 or
      scales[0] == scales[3] == 1; rank 5 with scales[0] == scales[1] == 1;
    * cubic: rank 2; rank 4 with scales[0] == scales[1] == 1, or with
      scales[0] == scales[3] == 1 and (antialias=1 or scales[1], scales[2] >= 1);
    * sizes with a 0 (its scale 0 / in fails "Scale value should be greater
      than 0"; found with onnxruntime 1.32 once the random sweeps kept
      tf_crop_and_resize cases whose spec length is 0).
    """
    mode = case.attrs.get("mode", "nearest")
    aa = bool(case.attrs.get("antialias", 0))
    if aa and mode == "nearest":
        return "antialias with mode nearest"
    if case.attrs.get("exclude_outside", 0) and not (mode == "cubic" or (mode == "linear" and aa)):
        return "exclude_outside=1 needs cubic, or linear with antialias"
    s = _ort_full_scales(case)
    if case.sizes is not None and any(v == 0 for v in s):
        return "sizes with a 0: ORT's scale 0 is refused"
    rank = len(s)
    if mode == "linear":
        ok = (
            rank in (2, 3)
            or (rank == 4 and s[0] == 1 and (s[1] == 1 or s[3] == 1))
            or (rank == 5 and s[0] == 1 and s[1] == 1)
        )
        if not ok:
            return "linear needs rank 2/3, 4 (NCHW or NHWC), or 5 (NCDHW)"
    if mode == "cubic":
        ok = rank == 2 or (rank == 4 and s[0] == 1 and (s[1] == 1 or (s[3] == 1 and (aa or (s[1] >= 1 and s[2] >= 1)))))
        if not ok:
            return "cubic needs rank 2, or rank 4 (NCHW, or NHWC when upsampling / antialias)"
    return None


FLOAT32_LENGTH = "ORT computes floor(in * scale) in float32"


def float32_lengths(case: ResizeCase) -> tuple[int, ...]:
    """The output shape with floor(in * scale) taken of the float32 product (onnxruntime)."""
    shape = list(spec_output_shape(case))
    for a, s in zip(normalize_axes(case.attrs.get("axes"), case.x.ndim), case.scales):
        shape[a] = int(np.float32(s) * np.float32(case.x.shape[a]))
    return tuple(shape)


def ort_known_difference(case: ResizeCase, *, float32_scales: bool = False) -> str | None:
    """Why onnxruntime's result is known to differ from the spec for the case.

    Only differences found and documented in docs/notes/onnxruntime_findings.md. With
    ``float32_scales`` the comparison is with jax_resize given float32 scales, whose output length
    is onnxruntime's float32 product: that length is then no difference.
    """
    x = case.x
    rank = x.ndim
    shape = float32_lengths(case) if float32_scales and case.scales is not None else spec_output_shape(case)
    axes = normalize_axes(case.attrs.get("axes"), rank)
    ctm = case.attrs.get("coordinate_transformation_mode", "half_pixel")
    if case.opset == 10:
        ctm = "asymmetric"
    if case.scales is not None:
        if float32_length_axes(case) and not float32_scales:
            return FLOAT32_LENGTH
        if tuple(shape) == x.shape and any(float(s) != 1.0 for s in case.scales):
            return "output shape == input shape: ORT returns X unchanged"
    if nearest_float32_sensitive(case):
        return "nearest: ORT's float32 coordinate lands on the other side of a tie"
    if ctm in ("align_corners", "tf_crop_and_resize") and (
        case.scales is not None or case.attrs.get("keep_aspect_ratio_policy", "stretch") != "stretch"
    ):
        widths = (
            [float(s) * x.shape[a] for a, s in zip(axes, case.scales)]
            if case.scales is not None
            else [None] * len(axes)
        )
        if any(w != shape[a] for a, w in zip(axes, widths)):
            return (
                "align_corners/tf_crop_and_resize with a fractional scale * length: ORT divides by the "
                "integer output length - 1, the reference and the ONNX backend data by scale * length - 1"
            )
    full = _ort_full_scales(case)
    mode = case.attrs.get("mode", "nearest")
    aa = bool(case.attrs.get("antialias"))
    nhwc = rank == 4 and full[0] == 1 and full[3] == 1 and full[1] != 1
    if aa or (mode == "cubic" and nhwc):
        # ORT runs these through its antialias kernels
        if any(shape[a] == x.shape[a] and full[a] != 1.0 for a in range(rank)):
            return "antialias / NHWC-cubic path: ORT copies axes whose length is unchanged"
        if nhwc and ctm == "tf_crop_and_resize" and x.shape[3] > 1:
            return "NHWC antialias/cubic + tf_crop_and_resize: extrapolation at wrong rows"
    if ctm == "tf_crop_and_resize" and case.roi is not None and case.roi.size:
        n = len(axes)
        for i, a in enumerate(axes):
            lo, hi = float(case.roi[i]), float(case.roi[n + i])
            if full[a] == 1.0 and (lo, hi) != (0.0, 1.0):
                return "tf_crop_and_resize: ORT ignores roi on axes with scale 1"
    return None


def _nearest_indices(case: ResizeCase, a: int, dtype) -> np.ndarray:
    """Nearest-mode source indices on axis ``a``, coordinates computed in ``dtype``.

    float64 gives the reference's coordinates (the scale it uses: out/in for sizes); ``Fraction``
    computes the spec's formulas in exact rational arithmetic, with the exact ratio
    out/in for sizes: the spec's answer also where float64 rounding lands on the other side of a
    .5 tie. float32 with float32 scales mimics onnxruntime. -1 marks tf_crop_and_resize
    extrapolation.
    """
    if dtype is Fraction:
        return _nearest_indices_exact(case, a)
    x = case.x
    rank = x.ndim
    axes = normalize_axes(case.attrs.get("axes"), rank)
    shape = spec_output_shape(case)
    n_in, n_out = x.shape[a], shape[a]
    full = _ort_full_scales(case)
    if dtype == np.float64 and case.sizes is not None:
        policy = case.attrs.get("keep_aspect_ratio_policy", "stretch")
        ratios = [float(s) / x.shape[b] for b, s in zip(axes, case.sizes)]
        if a not in axes:
            s = 1.0
        elif policy == "stretch":
            s = ratios[axes.index(a)]
        else:
            s = min(ratios) if policy == "not_larger" else max(ratios)
    else:
        s = full[a]
    t = np.dtype(dtype).type
    s = t(s)
    y = np.arange(n_out, dtype=dtype)
    ctm = case.attrs.get("coordinate_transformation_mode", "half_pixel")
    if case.opset == 10:
        ctm = "asymmetric"
    half, one = t(0.5), t(1)
    fi, fo = t(n_in), t(n_out)
    lo, hi = t(0), t(1)
    if ctm == "tf_crop_and_resize" and a in axes and case.roi is not None and case.roi.size:
        i, n = axes.index(a), len(axes)
        lo, hi = t(case.roi[i]), t(case.roi[n + i])
    if dtype == np.float64 and ctm not in ("tf_half_pixel_for_nn",) and case.opset > 10:
        from onnx.reference.ops.op_resize import _compute_x_ori

        # the reference's own coordinates (integer output length for tf_crop_and_resize with scales)
        width = n_out if (ctm == "tf_crop_and_resize" and case.scales is not None) else s * n_in
        if ctm == "pytorch_half_pixel" and n_out == 1:
            width = 1
        xo, _ = _compute_x_ori(ctm, y, float(s), n_in, width, n_out, [float(lo), float(hi)])
    elif ctm == "half_pixel":
        xo = (y + half) / s - half
    elif ctm == "asymmetric":
        xo = y / s
    elif ctm == "pytorch_half_pixel":
        xo = (y + half) / s - half if n_out > 1 else np.zeros_like(y)
    elif ctm == "tf_half_pixel_for_nn":
        xo = (y + half) / s
    elif ctm == "align_corners":
        xo = y * (fi - one) / (fo - one) if n_out > 1 else np.zeros_like(y)
    elif ctm == "half_pixel_symmetric":
        ow = s * fi
        offset = (fi / t(2)) * (one - fo / ow)
        # ORT: float offset, then (x + 0.5) / scale - 0.5 in double, cast to float
        y64, s64 = y.astype(np.float64), np.float64(s)
        xo = (np.float64(offset) + ((y64 + 0.5) / s64 - 0.5)).astype(dtype)
    elif ctm == "tf_crop_and_resize":
        if n_out > 1:
            xo = lo * (fi - one) + y * (hi - lo) * (fi - one) / (fo - one)
        else:
            xo = np.full_like(y, half * (lo + hi) * (fi - one))
    else:
        raise ValueError(ctm)
    nm = case.attrs.get("nearest_mode", "round_prefer_floor")
    if case.opset == 10:
        idx = np.ceil(xo) if float(s) < 1 else np.trunc(xo)
    elif nm == "round_prefer_floor":
        idx = np.where(xo == np.floor(xo) + half, np.floor(xo), np.floor(xo + half))
    elif nm == "round_prefer_ceil":
        idx = np.floor(xo + half)
    elif nm == "floor":
        idx = np.floor(xo)
    else:
        idx = np.ceil(xo)
    idx = np.clip(idx, 0, n_in - 1).astype(np.int64)
    if ctm == "tf_crop_and_resize":
        idx = np.where((xo < 0) | (xo > fi - one), -1, idx)
    return idx


def _nearest_indices_exact(case: ResizeCase, a: int) -> np.ndarray:
    x, axes = case.x, normalize_axes(case.attrs.get("axes"), case.x.ndim)
    n_in, n_out = x.shape[a], spec_output_shape(case)[a]
    ctm = case.attrs.get("coordinate_transformation_mode", "half_pixel") if case.opset > 10 else "asymmetric"
    if a not in axes:
        s = Fraction(1)
    elif case.sizes is not None:
        ratios = [Fraction(int(size), x.shape[b]) for b, size in zip(axes, case.sizes)]
        policy = case.attrs.get("keep_aspect_ratio_policy", "stretch")
        s = ratios[axes.index(a)] if policy == "stretch" else (min if policy == "not_larger" else max)(ratios)
    else:
        s = Fraction(float(case.scales[axes.index(a)]))
    lo, hi = Fraction(0), Fraction(1)
    if ctm == "tf_crop_and_resize" and a in axes and case.roi is not None and case.roi.size:
        i = axes.index(a)
        lo, hi = Fraction(float(case.roi[i])), Fraction(float(case.roi[len(axes) + i]))
    # the spec's formulas, with the reference's length_resized (s * in; the integer length for
    # tf_crop_and_resize with scales, see _deviation) where align_corners / tf_crop_and_resize use it
    width = n_out if (ctm == "tf_crop_and_resize" and case.scales is not None) else s * n_in
    half = Fraction(1, 2)
    xo = []
    for y in map(Fraction, range(n_out)):
        if ctm in ("half_pixel", "half_pixel_symmetric") or (ctm == "pytorch_half_pixel" and n_out > 1):
            v = (y + half) / s - half
            if ctm == "half_pixel_symmetric":
                v += Fraction(n_in, 2) * (1 - n_out / width)
        elif ctm == "asymmetric":
            v = y / s
        elif ctm == "tf_half_pixel_for_nn":
            v = (y + half) / s
        elif ctm == "align_corners" and width != 1:
            v = y * (n_in - 1) / (width - 1)
        elif ctm == "tf_crop_and_resize":
            v = lo * (n_in - 1) + y * (hi - lo) * (n_in - 1) / (width - 1) if width != 1 else (lo + hi) / 2 * (n_in - 1)
        else:  # pytorch_half_pixel or align_corners with one output: x_original = 0
            v = Fraction(0)
        xo.append(v)
    nm = case.attrs.get("nearest_mode", "round_prefer_floor")
    idx = []
    for v in xo:
        fl = math.floor(v)
        if case.opset == 10:
            k = math.ceil(v) if s < 1 else math.trunc(v)
        elif nm == "round_prefer_floor":
            k = fl if v - fl <= half else fl + 1
        elif nm == "round_prefer_ceil":
            k = fl if v - fl < half else fl + 1
        else:
            k = fl if nm == "floor" else math.ceil(v)
        outside = ctm == "tf_crop_and_resize" and (v < 0 or v > n_in - 1)
        idx.append(-1 if outside else min(max(k, 0), n_in - 1))
    return np.array(idx, np.int64)


def nearest_spec(case: ResizeCase, dtype=np.float64) -> np.ndarray:
    """Nearest resize from the spec's coordinate formulas (:func:`_nearest_indices`): float64
    coordinates give the reference's result, ``Fraction`` the exact one, float32 onnxruntime's."""
    y = case.x
    fill = _cast_like_reference(np.array(case.attr("extrapolation_value"), np.float64), y.dtype)
    for a in range(case.x.ndim):
        idx = _nearest_indices(case, a, dtype)
        y = np.take(y, np.clip(idx, 0, case.x.shape[a] - 1), axis=a)
        shape = [1] * y.ndim
        shape[a] = idx.size
        y = np.where(idx.reshape(shape) == -1, fill, y)
    return y


def nearest_float32_sensitive(case: ResizeCase) -> bool:
    """Nearest-mode index that flips when coordinates are computed in float32."""
    if case.attrs.get("mode", "nearest") != "nearest":
        return False
    return any(
        not np.array_equal(_nearest_indices(case, a, np.float64), _nearest_indices(case, a, np.float32))
        for a in range(case.x.ndim)
    )


def ort_case(case: ResizeCase) -> ResizeCase:
    """The case as given to ORT: axes made non-negative.

    ORT ignores keep_aspect_ratio_policy when axes are negative (its policy code
    compares raw axes with 0..rank-1); negative axes otherwise work. The spec
    says negative axes count from the back, so normalising them is exact.
    """
    if case.attrs.get("axes") is None:
        return case
    attrs = dict(case.attrs)
    attrs["axes"] = normalize_axes(attrs["axes"], case.x.ndim)
    return dataclasses.replace(case, attrs=attrs)


def ort_oracle_case(case: ResizeCase) -> ResizeCase:
    """The case to run through ORT so that its result is the spec result.

    Axes made non-negative (see :func:`ort_case`); tf_crop_and_resize with scales
    run with ``sizes`` = the spec output lengths (ORT, like the reference, sizes
    the output as floor(in * scale), ignoring the roi extent; the coordinates of
    tf_crop_and_resize depend only on the output length and the roi).
    """
    c = ort_case(case)
    ctm = c.attrs.get("coordinate_transformation_mode", "half_pixel")
    if c.opset >= 11 and ctm == "tf_crop_and_resize" and c.scales is not None:
        # with antialias, this reads the filter scale as out / in (see _deviation)
        c = _stretch_sizes_case(c, spec_output_shape(case))
    return c


def ort_session(case: ResizeCase):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 4
    return ort.InferenceSession(case.model().SerializeToString(), opts, providers=["CPUExecutionProvider"])


def run_ort(case: ResizeCase) -> np.ndarray:
    return np.asarray(ort_session(case).run(None, case.feeds())[0])


def run_jax(case: ResizeCase, api: str = "kw", scales_dtype=np.float64) -> np.ndarray:
    """Run the case through jax_resize, either API.

    ``api="kw"``: ``onnx_resize(X, roi, scales, sizes, **attrs, opset=...)``;
    ``api="node"``: ``onnx_node_resize(node, *inputs, opset=...)``.
    float64 / int64 data run under ``jax.enable_x64(True)``. ``scales`` (float32 values) are passed
    as ``scales_dtype``: float64 asks for the output length of the exact product (the reference's
    arithmetic), float32 for the float32 product (onnxruntime's).
    """
    import jax

    import jax_resize

    wide = case.x.dtype in (np.float64, np.int64, np.uint64)
    ctx = jax.enable_x64(True) if wide else _nullcontext()
    with ctx:
        scales = None if case.scales is None else np.asarray(case.scales, np.float32).astype(scales_dtype)
        if api == "node":
            names = case.input_names()
            inputs = [
                scales if n == "scales" and v is not None and v.size else v for n, v in zip(names, case.node_inputs())
            ]
            y = jax_resize.onnx_node_resize(case.node(), *inputs, opset=case.opset)
        else:
            y = jax_resize.onnx_resize(
                case.x,
                roi=case.roi,
                scales=scales,
                sizes=case.sizes,
                opset=case.opset,
                **case.attrs,
            )
        return np.asarray(y)


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Comparison:
    ok: bool
    max_abs: float
    max_rel: float
    msg: str


def tolerance_for(case: ResizeCase, oracle: str = "reference") -> tuple[float, float]:
    """(rtol, atol) for float32 / float64 results against an oracle; atol scaled by data size.
    Integer, float16 and bfloat16 results are judged by :func:`judge` (exact integers)."""
    dt = np.dtype(case.x.dtype)
    if dt not in (np.float32, np.float64):
        raise ValueError(f"tolerance_for covers float32 / float64, not {dt}: use judge()")
    mag = max(1.0, float(np.max(np.abs(case.x.astype(np.float64)), initial=0.0)))
    if oracle == "ort":
        return 1e-4, 1e-4 * mag
    return 1e-5, 1e-5 * mag


def compare(actual, expected, rtol: float, atol: float) -> Comparison:
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    if actual.shape != expected.shape:
        return Comparison(False, math.inf, math.inf, f"shape {actual.shape} != expected {expected.shape}")
    if actual.dtype != expected.dtype:
        return Comparison(False, math.inf, math.inf, f"dtype {actual.dtype} != expected {expected.dtype}")
    if actual.size == 0:
        return Comparison(True, 0.0, 0.0, "empty")
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    both_nan = np.isnan(a) & np.isnan(e)
    diff = np.where(both_nan, 0.0, np.abs(a - e))
    diff = np.where(np.isnan(diff), np.inf, diff)
    max_abs = float(diff.max())
    max_rel = float((diff / np.maximum(np.abs(e), 1e-30)).max())
    bad = diff > atol + rtol * np.abs(e)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        msg = (
            f"{int(bad.sum())}/{a.size} elements differ; max_abs={max_abs:.3g} "
            f"max_rel={max_rel:.3g}; first at {idx}: got {a[idx]!r}, expected {e[idx]!r}"
        )
        return Comparison(False, max_abs, max_rel, msg)
    return Comparison(True, max_abs, max_rel, "ok")


def case_failure_message(case: ResizeCase, cmp: Comparison, oracle: str) -> str:
    return f"jax_resize disagrees with {oracle}: {cmp.msg}\n{case.describe()}\nreproducer:\n{case.reproducer()}"
