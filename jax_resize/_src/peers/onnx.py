"""Peer: the ONNX Resize operator (every opset >= 10: Resize-10, 11, 13, 18, 19), and its per-axis weight matrix.

Contract: :func:`onnx_resize` takes the operator's inputs and attributes by their ONNX names,
checks them against the chosen opset, resolves the output shape and per-axis scales on the host
(static), builds one record per resized axis (:func:`axis_record`: the coordinate rule of
``coordinate_transformation_mode``, then nearest indices or filter taps) and applies them with
:func:`..apply.run`. It returns exactly what the spec defines, computed with the dtype policy of
:mod:`..dtypes`. :func:`onnx_node_resize` runs an ``onnx.NodeProto`` with the same machinery;
:func:`weight_matrix` exposes one axis's ``[out, in]`` matrix.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np
from jax.typing import ArrayLike

from .. import coordinates as _coordinates
from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import validation as _v
from .. import weights as _weights
from ..execution import apply as _apply

#: ``coordinate_transformation_mode`` -> the registered coordinate rule it uses.
COORDINATE_RULES = {
    "half_pixel": "half_pixel",
    "half_pixel_symmetric": "half_pixel_symmetric",
    "pytorch_half_pixel": "half_pixel_single_zero",
    "align_corners": "align_corners",
    "asymmetric": "asymmetric",
    "tf_half_pixel_for_nn": "half_pixel_unshifted",
    "tf_crop_and_resize": "crop",
}
#: Every ONNX ``coordinate_transformation_mode`` (opset 19, plus ``tf_half_pixel_for_nn`` of opset 11).
COORDINATE_TRANSFORMATION_MODES = tuple(COORDINATE_RULES)
#: ONNX Resize ``nearest_mode`` values (each a registered nearest rule). ``"simple"`` (ONNX
#: Resize-10's implicit rule, OpenVINO's) is accepted internally: ceil when the axis downsamples,
#: truncation towards zero otherwise.
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
_ALL_NEAREST_MODES = NEAREST_MODES + ("simple",)
MODES = ("nearest", "linear", "cubic")

#: The Resize schema versions: the opsets at which the operator changed. Any other opset >= 10 runs
#: the version in force at it (12 -> Resize-11, 14..17 -> Resize-13, 20 and later -> Resize-19).
OPSETS = (10, 11, 13, 18, 19)
#: The newest default-domain opset known when ``onnx`` is not installed (onnx 1.23 knows 28); with
#: ``onnx`` installed its own ``onnx.defs.onnx_opset_version()`` is the limit.
LATEST_KNOWN_OPSET = 28
KEEP_ASPECT_RATIO_POLICIES = ("stretch", "not_larger", "not_smaller")

# coordinate_transformation_mode values per opset (Resize-10 has no such attribute).
_COORDINATE_MODES = {
    11: (
        "half_pixel",
        "pytorch_half_pixel",
        "align_corners",
        "asymmetric",
        "tf_half_pixel_for_nn",
        "tf_crop_and_resize",
    ),
    13: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
    18: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
    19: (
        "half_pixel",
        "half_pixel_symmetric",
        "pytorch_half_pixel",
        "align_corners",
        "asymmetric",
        "tf_crop_and_resize",
    ),
}
# Attributes (name -> default) each opset adds; an attribute outside the opset must keep its
# default value.
_OPSET11_ATTRIBUTES = dict(
    coordinate_transformation_mode="half_pixel",
    nearest_mode="round_prefer_floor",
    cubic_coeff_a=-0.75,
    exclude_outside=0,
    extrapolation_value=0.0,
)
_OPSET18_ATTRIBUTES = dict(antialias=0, axes=None, keep_aspect_ratio_policy="stretch")


def resize_version(opset: int) -> int:
    """The Resize schema version in force at a model's ``opset`` (its ``since_version``).

    ``onnx.defs.get_schema("Resize", opset).since_version`` when ``onnx`` is installed, else the
    same answer from :data:`OPSETS`: 12 -> 11, 14..17 -> 13, 20 and later -> 19.

    Raises:
      ValueError: ``opset`` is not an int >= 10, is newer than the opsets known here, or selects a
        Resize version this library does not implement.

    Example:
      >>> resize_version(17), resize_version(20), resize_version(12)
      (13, 19, 11)
    """
    if isinstance(opset, bool) or not isinstance(opset, (int, np.integer)) or opset < OPSETS[0]:
        raise ValueError(f"opset={opset!r} is not supported; Resize exists from opset 10 on: pass an int >= 10.")
    try:
        from onnx import defs
    except ImportError:
        latest, version = LATEST_KNOWN_OPSET, max(v for v in OPSETS if v <= opset)
    else:
        latest = defs.onnx_opset_version()
        version = defs.get_schema("Resize", min(int(opset), latest)).since_version
    if opset > latest:
        raise ValueError(
            f"opset={opset!r} is newer than the ONNX opsets known here (10..{latest}); its Resize version "
            "cannot be looked up. Upgrade onnx (and jax_resize), or pass the opset the model was written for."
        )
    if version not in OPSETS:
        raise ValueError(
            f"opset={opset!r} uses Resize-{version}, which jax_resize does not implement (it has {OPSETS})."
        )
    return int(version)


def _check_opset_attributes(opset: int, given: dict) -> None:
    missing = {}
    if opset < 11:
        missing.update(_OPSET11_ATTRIBUTES)
    if opset < 18:
        missing.update(_OPSET18_ATTRIBUTES)
    for name, default in missing.items():
        value = given[name]
        unchanged = value is None if default is None else (not isinstance(value, np.ndarray) and value == default)
        if not unchanged:
            first = 11 if name in _OPSET11_ATTRIBUTES else 18
            raise ValueError(
                f"{name}={value!r} is not an attribute of Resize-{opset}; it exists from opset {first} "
                f"on (leave it at its default {default!r} or pass opset>={first})."
            )


def _skipped_as_identity(scale: float, in_size: int, out_size: int, roi) -> bool:
    """The reference evaluator's rule: an axis whose length is kept, with a scale and roi close to
    1 and ``(0, 1)`` (``math.isclose``), is not resampled. A rule on the arguments, not a test that
    the record is an exact copy: a scale or roi near but not at identity still skips the axis."""
    if out_size != in_size or not math.isclose(scale, 1.0):
        return False
    return roi is None or (math.isclose(float(roi[0]), 0.0) and math.isclose(float(roi[1]), 1.0))


def onnx_resize(
    X: ArrayLike,
    roi: ArrayLike | Sequence[float] | None = None,
    scales: ArrayLike | Sequence[float] | None = None,
    sizes: ArrayLike | Sequence[int] | None = None,
    *,
    mode: str = "nearest",
    coordinate_transformation_mode: str = "half_pixel",
    nearest_mode: str = "round_prefer_floor",
    cubic_coeff_a: float = -0.75,
    exclude_outside: int = 0,
    extrapolation_value: float = 0.0,
    antialias: int = 0,
    axes=None,
    keep_aspect_ratio_policy: str = "stretch",
    opset: int = 19,
    strategy: str = "auto",
) -> jax.Array:
    """ONNX ``Resize``: resizes ``X`` by ``scales`` or to ``sizes`` with the operator's semantics.

    Each resized axis maps output indices to input coordinates (``coordinate_transformation_mode``),
    a filter turns them into a weight matrix ``W: [out, in]`` (:func:`weight_matrix`), contracted
    with ``X`` one axis at a time. Output shape: ``sizes`` (adjusted by
    ``keep_aspect_ratio_policy``), or ``floor(input_dimension * scale)`` (with
    ``tf_crop_and_resize``, ``floor(input_dimension * (roi_end - roi_start) * scale)``).

    Args:
      X: array of any rank >= 1, ``[d0, ..., dn-1]``; float16, bfloat16, float32, float64,
        int8-int64, uint8-uint64, complex64/128, or bool (nearest only).
      roi: ``[2 * k]`` floats ``[start_1..start_k, end_1..end_k]`` in normalised input coordinates
        (k = number of resized axes); used only by ``tf_crop_and_resize``. May be traced (then
        the output is differentiable with respect to it; ``sizes`` must be given).
      scales: ``[k]`` floats > 0 (static), rounded to float32 as ONNX's tensor(float). The output
        length is ``floor(in * scale)``: of the float32 product when ``scales`` is a float32 array
        (onnxruntime's arithmetic, what exported graphs expect), of the exact product otherwise
        (Python floats, float64 arrays: ``onnx.reference``'s). They differ only where the product
        is within a float32 rounding of an integer, e.g. ``f32(15) / f32(7)`` on length 7.
      sizes: ``[k]`` non-negative ints (static). Exactly one of scales/sizes; empty arrays count
        as absent, as in ONNX.
      mode: ``"nearest"``, ``"linear"`` or ``"cubic"``.
      coordinate_transformation_mode: ``"half_pixel"`` (default), ``"half_pixel_symmetric"``
        (opset 19), ``"pytorch_half_pixel"``, ``"align_corners"``, ``"asymmetric"``,
        ``"tf_half_pixel_for_nn"`` (opset 11 only), ``"tf_crop_and_resize"``.
      nearest_mode: ``"round_prefer_floor"``, ``"round_prefer_ceil"``, ``"floor"``, ``"ceil"``.
      cubic_coeff_a: Keys' ``a`` (-0.75 default; -0.5 in TensorFlow/Pillow).
      exclude_outside: 1 drops taps outside the input and renormalises.
      extrapolation_value: output value where ``tf_crop_and_resize`` samples outside the input.
      antialias: 1 stretches linear/cubic filters by ``max(1, 1/scale)`` (opset >= 18).
      axes: the axes ``scales``/``sizes``/``roi`` refer to, any order, negative allowed
        (opset >= 18). Default: all axes.
      keep_aspect_ratio_policy: ``"stretch"``, ``"not_larger"``, ``"not_smaller"`` (with sizes,
        opset >= 18); ``out = round_half_up(scale * in)`` with the min/max ratio.
      opset: the model's opset, any int >= 10 that onnx knows; the Resize version in force there
        applies (:func:`resize_version`: 12 -> 11, 14..17 -> 13, 20+ -> 19). Resize-10 takes
        ``X, scales`` and ``mode`` only, with asymmetric coordinates and onnxruntime's rule for
        nearest (ceil when downsampling, truncate otherwise).
      strategy: how the weights are applied, ``"auto"`` (default), ``"dense"``, ``"banded"`` or
        ``"polyphase"`` (not an ONNX attribute; values agree to float rounding).

    Returns:
      Array of ``X``'s dtype and the output shape. Integer outputs are rounded half to even and
      saturated; nearest copies values (bit exact for any dtype).

    Raises:
      ValueError: both or neither of scales/sizes, wrong lengths, non-positive/NaN/inf scales,
        negative or non-integer sizes, unknown mode names (with a suggestion), repeated or
        out-of-range axes, antialias with nearest, keep_aspect_ratio_policy with scales, an
        attribute outside the opset, a non-empty output from an empty input axis.
      TypeError: traced scales/sizes/axes (they fix the output shape), unsupported dtypes,
        non-nearest modes on bool.

    Example:
      >>> import numpy as np, jax_resize
      >>> x = np.array([[1., 2.], [3., 4.]], np.float32)
      >>> jax_resize.onnx_resize(x, scales=[2., 2.], mode="linear")[0].tolist()
      [1.0, 1.25, 1.75, 2.0]

    Spec: ONNX Operators.md, "Resize" (versions 10, 11, 13, 18, 19); behaviour checked against
    ``onnx.reference`` and onnxruntime (see README for the deviations).
    """
    version = resize_version(opset)
    given = dict(
        coordinate_transformation_mode=coordinate_transformation_mode,
        nearest_mode=nearest_mode,
        cubic_coeff_a=cubic_coeff_a,
        exclude_outside=exclude_outside,
        extrapolation_value=extrapolation_value,
        antialias=antialias,
        axes=axes,
        keep_aspect_ratio_policy=keep_aspect_ratio_policy,
    )
    attrs = _attributes(version, mode, roi, sizes, given)
    X, _ = _frontend.prologue("X", X, mode=attrs["mode"], min_rank=1)
    axes = _v.axes_tuple(axes, X.ndim)
    specs = _axis_specs(X.shape, axes, roi, scales, sizes, attrs)
    out_shape = list(X.shape)
    for axis, _, o, _, _ in specs:
        out_shape[axis] = o
    _frontend.output_size(out_shape, "sizes" if sizes is not None else "scales")
    empty = _frontend.empty_output(out_shape, X.dtype)
    if empty is not None:  # no axis's weights (another axis may be huge)
        return empty
    roi_traced = _v.is_traced(roi) and attrs["coordinate_transformation_mode"] == "tf_crop_and_resize"
    filter_attrs = {
        k: attrs[k]
        for k in (
            "mode",
            "coordinate_transformation_mode",
            "nearest_mode",
            "cubic_coeff_a",
            "exclude_outside",
            "antialias",
        )
    }
    ops = [
        (axis, axis_record(n, o, sc, roi=r, **filter_attrs))
        for axis, n, o, sc, r in specs
        if roi_traced or not _skipped_as_identity(sc, n, o, r)
    ]
    return _apply.run(X, ops, extrapolation_value=attrs["extrapolation_value"], strategy=strategy)


def _attributes(opset: int, mode, roi, sizes, given: dict) -> dict:
    """Validates the attributes against ``opset``; returns them normalised (Resize-10's implicit
    asymmetric coordinates and ``simple`` rounding filled in)."""
    _check_opset_attributes(opset, given)
    attrs = dict(given, mode=_v.choice("mode", mode, MODES if opset >= 11 else ("nearest", "linear")))
    ctm = given["coordinate_transformation_mode"]
    if opset == 10:
        if roi is not None and np.size(roi) and not _v.is_traced(roi):
            raise ValueError("roi is not an input of Resize-10 (its inputs are X, scales).")
        if sizes is not None and np.size(sizes):
            raise ValueError("sizes is not an input of Resize-10 (its inputs are X, scales); use opset>=11.")
        attrs.update(coordinate_transformation_mode="asymmetric", nearest_mode="simple")
    else:
        allowed = _COORDINATE_MODES[opset]
        if ctm not in allowed and ctm in COORDINATE_TRANSFORMATION_MODES:
            where = [o for o, modes in _COORDINATE_MODES.items() if ctm in modes]
            raise ValueError(
                f"coordinate_transformation_mode={ctm!r} is not part of Resize-{opset}; it exists in "
                f"opset(s) {where}. Allowed in {opset}: {allowed}."
            )
        _v.choice("coordinate_transformation_mode", ctm, allowed)
        _v.choice("nearest_mode", given["nearest_mode"], NEAREST_MODES)
    attrs["keep_aspect_ratio_policy"] = _v.choice(
        "keep_aspect_ratio_policy", given["keep_aspect_ratio_policy"], KEEP_ASPECT_RATIO_POLICIES
    )
    attrs["exclude_outside"] = _v.flag("exclude_outside", given["exclude_outside"])
    attrs["antialias"] = _v.flag("antialias", given["antialias"])
    attrs["cubic_coeff_a"] = _v.finite_float("cubic_coeff_a", given["cubic_coeff_a"])
    attrs["extrapolation_value"] = _v.finite_float("extrapolation_value", given["extrapolation_value"])
    if attrs["antialias"] and attrs["mode"] == "nearest":
        raise ValueError("antialias=1 is only defined for mode='linear' or 'cubic', not mode='nearest'.")
    return attrs


def _axis_specs(shape, axes, roi, scales, sizes, attrs) -> list[tuple]:
    """``(axis, in_size, out_size, scale, roi_pair)`` per entry of ``axes``, resolved on the host
    from ``scales`` (``floor(scale * in)``; with ``tf_crop_and_resize``
    ``floor(in * (end - start) * scale)``) or ``sizes`` (with ``keep_aspect_ratio_policy``)."""
    k = len(axes)
    in_sizes = [int(shape[a]) for a in axes]
    scales = _v.static_array("scales", scales)
    sizes = _v.static_array("sizes", sizes)
    if (scales is None) == (sizes is None):
        raise ValueError(
            "exactly one of scales and sizes must be given (empty arrays count as absent); got "
            + ("both." if scales is not None else "neither.")
        )
    crop = attrs["coordinate_transformation_mode"] == "tf_crop_and_resize"
    pairs = _v.roi_pairs(roi, k) if crop else [None] * k
    policy = attrs["keep_aspect_ratio_policy"]
    if scales is not None:
        axis_scales = list(_v.scales_array(scales, k))
        if policy != "stretch":
            raise ValueError(f"keep_aspect_ratio_policy={policy!r} applies to sizes only; with scales use 'stretch'.")
        if crop and _v.is_traced(roi):
            raise TypeError(
                "roi must be static when tf_crop_and_resize is used with scales, because the output "
                "size floor(in * (roi_end - roi_start) * scale) depends on it; pass sizes instead."
            )
        if crop:
            # Spec: output_dimension = floor(input_dimension * (roi_end - roi_start) * scale); the
            # coordinates then use that length (as if it had been given as sizes).
            out_sizes = [
                max(int(math.floor(_v.finite_length("scales (with roi)", n * float(e - b) * float(sc)))), 0)
                for n, sc, (b, e) in zip(in_sizes, axis_scales, pairs)
            ]
            axis_scales = [o / n if n else 1.0 for o, n in zip(out_sizes, in_sizes)]
        else:
            out_sizes = [
                _scaled_length(n, sc, float32=scales.dtype == np.float32) for sc, n in zip(axis_scales, in_sizes)
            ]
    else:
        out_sizes = [int(s) for s in _v.sizes_array(sizes, k)]
        _v.check_empty_axes(in_sizes, out_sizes, axes)
        axis_scales = [float(s) / n if n else 1.0 for s, n in zip(out_sizes, in_sizes)]
        if policy != "stretch":
            common = (min if policy == "not_larger" else max)(axis_scales)
            axis_scales = [common] * k
            out_sizes = [int(common * n + 0.5) for n in in_sizes]  # round half up
    return list(zip(axes, in_sizes, out_sizes, axis_scales, pairs))


def _scaled_length(in_size: int, scale: float, *, float32: bool) -> int:
    """``floor(in_size * scale)``: of the float32 product when the scales came as a float32 tensor
    (onnxruntime's arithmetic, and what an exported graph's later ops were traced with), else of
    the exact product of the (float32-valued) scale, as ``onnx.reference`` computes it.

    E.g. torch's opset-10 export of ``interpolate(size=15)`` on a length-7 axis writes
    ``scales = f32(15) / f32(7)``: ``f32(7) * scale`` rounds to 15.0, the exact product is
    14.99999952 (length 14)."""
    if float32:
        with np.errstate(over="ignore"):
            product = np.float32(in_size) * np.float32(scale)
        return int(math.floor(_v.finite_length("scales", product)))
    return int(math.floor(scale * in_size))


@_records.memoized
def axis_record(
    in_size: int,
    out_size: int,
    scale: float,
    *,
    mode: str,
    coordinate_transformation_mode: str,
    nearest_mode: str = "round_prefer_floor",
    cubic_coeff_a: float = -0.75,
    exclude_outside: bool = False,
    antialias: bool = False,
    roi=None,
) -> _records.Record:
    """One axis of ONNX Resize as a record (``roi``: a ``(start, end)`` pair, possibly traced):
    nearest rounds by ``nearest_mode`` (``"simple"``: ``ceil`` when ``scale < 1``, else ``trunc``);
    linear is the triangle, cubic Keys (1981) with ``a = cubic_coeff_a``; ``antialias`` stretches
    them by ``max(1, 1/scale)`` with rows normalised; ``exclude_outside`` drops the taps outside
    the input and renormalises (else they clamp to the edge)."""
    if in_size == 0 or out_size == 0:
        return _records.empty(in_size, out_size, gather=mode == "nearest")
    xp = _v.namespace_for(roi)
    rule = COORDINATE_RULES[coordinate_transformation_mode]
    x, outside = _coordinates.source_coordinates(rule, in_size, out_size, scale, roi=roi, xp=xp)
    if mode == "nearest":
        if nearest_mode == "simple":
            nearest_mode = "ceil" if scale < 1 else "trunc"
        return _records.Gather(_weights.nearest_indices(x, in_size, nearest_mode, xp=xp), in_size, outside)
    kernel = _kernels.TRIANGLE if mode == "linear" else _kernels.keys_cubic(cubic_coeff_a)
    stretch = _kernels.stretch(1.0 / scale) if antialias else 1.0
    taps = _weights.filter_taps(
        x,
        in_size,
        kernel,
        stretch=stretch,
        normalize=bool(antialias),
        boundary="exclude" if exclude_outside else "clamp",
        xp=xp,
    )
    return taps.with_outside(outside)


def weight_matrix(
    in_size: int,
    out_size: int,
    *,
    mode: str = "linear",
    coordinate_transformation_mode: str = "half_pixel",
    scale: float | None = None,
    roi: tuple[float, float] = (0.0, 1.0),
    nearest_mode: str = "round_prefer_floor",
    cubic_coeff_a: float = -0.75,
    exclude_outside: bool = False,
    antialias: bool = False,
) -> np.ndarray:
    """The ``[out_size, in_size]`` ONNX Resize weight matrix of one axis (float64, numpy).

    ``out = W @ in`` along the axis reproduces ONNX Resize for that axis (nearest: one-hot rows;
    ``tf_crop_and_resize``: zero rows where the operator writes ``extrapolation_value``).

    Args:
      in_size: input length (>= 1).
      out_size: output length (>= 0).
      mode, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, antialias: as in
        ONNX Resize (spec section "Resize", opset 19).
      scale: the axis scale; defaults to ``out_size / in_size`` (what ``sizes`` implies).
      roi: ``(start, end)`` for ``tf_crop_and_resize``.

    Returns:
      float64 ``np.ndarray`` of shape ``[out_size, in_size]``; rows sum to 1 (0 for extrapolated
      rows).

    Raises:
      ValueError: unknown mode names, ``in_size < 1`` or ``out_size < 0``, non-positive scale,
        antialias with nearest.

    Example:
      >>> weight_matrix(2, 4, mode="linear")[:, 0].tolist()
      [1.0, 0.75, 0.25, 0.0]
    """
    _v.choice("mode", mode, MODES)
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode, COORDINATE_TRANSFORMATION_MODES)
    _v.choice("nearest_mode", nearest_mode, _ALL_NEAREST_MODES)
    if int(in_size) < 1 or int(out_size) < 0:
        raise ValueError(f"need in_size >= 1 and out_size >= 0; got in_size={in_size}, out_size={out_size}.")
    _v.check_output_size((int(out_size), int(in_size)), "in_size/out_size (the matrix)")
    _v.check_output_size((int(in_size),), "in_size (a row of the matrix)")  # also when out_size is 0
    if scale is None:  # an empty matrix has no rows to place: any scale will do
        scale = out_size / in_size if out_size else 1.0
    scale = float(scale)
    if not (math.isfinite(scale) and scale > 0 and math.isfinite(1.0 / scale)):
        raise ValueError(f"scale must be finite and > 0, with 1 / scale finite; got {scale!r}.")
    if antialias and mode == "nearest":
        raise ValueError("antialias=1 is only defined for mode='linear' or 'cubic', not 'nearest'.")
    record = axis_record(
        int(in_size),
        int(out_size),
        scale,
        mode=mode,
        coordinate_transformation_mode=coordinate_transformation_mode,
        nearest_mode=nearest_mode,
        cubic_coeff_a=float(cubic_coeff_a),
        exclude_outside=bool(exclude_outside),
        antialias=bool(antialias),
        roi=roi,
    )
    return _records.record_matrix(record)


def _absent(value) -> bool:
    """An optional ONNX input that is missing: ``None`` or an empty (static) array."""
    return value is None or (not _v.is_traced(value) and np.size(value) == 0)


_NODE_INPUTS = {10: ("X", "scales")}
_NODE_INPUTS_DEFAULT = ("X", "roi", "scales", "sizes")


def onnx_node_resize(node, *inputs: ArrayLike | Sequence[float] | None, opset: int = 19) -> jax.Array:
    """Runs an ONNX ``Resize`` node (``onnx.NodeProto``) on numpy/jax inputs.

    Reads the node's attributes (``mode``, ``coordinate_transformation_mode``, ``axes``, ...) and
    calls :func:`onnx_resize`. Inputs follow the node's input order: ``X, roi, scales, sizes``
    (``X, scales`` for Resize-10); an input whose name in the node is empty, or that is missing,
    ``None`` or an empty array, is absent.

    Args:
      node: an ``onnx.NodeProto`` with ``op_type == "Resize"``.
      *inputs: the input arrays in the node's order.
      opset: the model's ONNX opset for the default domain (any opset >= 10 that onnx knows; the
        Resize version in force there applies, see :func:`resize_version`).

    Returns:
      The output ``Y`` (dtype of ``X``).

    Raises:
      ValueError: not a Resize node, unknown attributes, or anything :func:`onnx_resize` rejects.

    Example:
      >>> import onnx, numpy as np
      >>> node = onnx.helper.make_node("Resize", ["X", "", "scales"], ["Y"], mode="nearest")
      >>> onnx_node_resize(node, np.ones((1, 1, 2, 2), np.float32), None,
      ...                  np.array([1, 1, 2, 2], np.float32)).shape
      (1, 1, 4, 4)
    """
    from onnx import helper

    if getattr(node, "op_type", None) != "Resize":
        raise ValueError(
            f"node must be an onnx.NodeProto with op_type 'Resize'; got {getattr(node, 'op_type', node)!r}."
        )
    version = resize_version(opset)
    names = _NODE_INPUTS.get(version, _NODE_INPUTS_DEFAULT)
    if len(inputs) > len(names):
        raise ValueError(
            f"Resize-{version} (opset {opset}) takes at most {len(names)} inputs {names}; got {len(inputs)}."
        )
    args: dict[str, Any] = {}
    for i, name in enumerate(names):
        present = i < len(inputs) and i < len(node.input) and node.input[i] != ""
        args[name] = inputs[i] if present else None
    if version >= 11 and args["roi"] is not None and all(_absent(args[n]) for n in ("scales", "sizes")):
        raise ValueError(
            f"Resize-{version} (opset {opset}) takes inputs {list(names)}: the second input is roi, and the "
            f"scales go third (sizes fourth). The node's inputs are {list(node.input)} with neither scales nor "
            "sizes; write it as ['X', '', 'scales'] (an empty name skips roi), or pass opset=10 if the model "
            "is a Resize-10 graph with inputs [X, scales]."
        )
    attrs: dict[str, Any] = {}
    allowed = set(_OPSET11_ATTRIBUTES) | set(_OPSET18_ATTRIBUTES) | {"mode"}
    for attr in node.attribute:
        if attr.name not in allowed:
            raise ValueError(f"Resize node has unknown attribute {attr.name!r}; known: {sorted(allowed)}.")
        value = helper.get_attribute_value(attr)
        attrs[attr.name] = value.decode() if isinstance(value, bytes) else value
    if "axes" in attrs:
        attrs["axes"] = tuple(attrs["axes"])
    X = args.pop("X")
    return onnx_resize(X, **args, **attrs, opset=opset)
