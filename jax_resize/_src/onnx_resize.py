"""Front end: the ONNX Resize operator (opsets 10, 11, 13, 18, 19).

Contract: ``onnx_resize`` takes the operator's inputs and attributes by their ONNX names, checks
them against the chosen opset, resolves the output shape and per-axis scales on the host
(static), builds one operator per resized axis with the coordinates and weights layers, and
applies them. It returns exactly what the spec defines, computed with the dtype policy of
:mod:`.dtypes`. ``onnx_node_resize`` runs an ``onnx.NodeProto`` with the same machinery.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from . import apply as _apply
from . import coordinates as _coordinates
from . import validation as _v
from . import weights as _weights

OPSETS = (10, 11, 13, 18, 19)
KEEP_ASPECT_RATIO_POLICIES = ("stretch", "not_larger", "not_smaller")

# coordinate_transformation_mode values per opset (Resize-10 has no such attribute).
_COORDINATE_MODES = {
    11: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
         "tf_crop_and_resize"),
    13: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
    18: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
    19: ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric",
         "tf_crop_and_resize"),
}
# Attributes (name -> default) each opset adds; an attribute outside the opset must keep its
# default value.
_OPSET11_ATTRIBUTES = dict(
    coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_floor",
    cubic_coeff_a=-0.75, exclude_outside=0, extrapolation_value=0.0,
)
_OPSET18_ATTRIBUTES = dict(antialias=0, axes=None, keep_aspect_ratio_policy="stretch")


def _check_opset_attributes(opset: int, given: dict) -> None:
    missing = {}
    if opset < 11:
        missing.update(_OPSET11_ATTRIBUTES)
    if opset < 18:
        missing.update(_OPSET18_ATTRIBUTES)
    for name, default in missing.items():
        value = given[name]
        unchanged = value is None if default is None else (
            not isinstance(value, np.ndarray) and value == default
        )
        if not unchanged:
            first = 11 if name in _OPSET11_ATTRIBUTES else 18
            raise ValueError(
                f"{name}={value!r} is not an attribute of Resize-{opset}; it exists from opset {first} "
                f"on (leave it at its default {default!r} or pass opset>={first})."
            )


def _is_identity(scale: float, in_size: int, out_size: int, roi) -> bool:
    """The reference evaluator skips axes whose resize is the identity; so do we."""
    if out_size != in_size or not math.isclose(scale, 1.0):
        return False
    return roi is None or (math.isclose(float(roi[0]), 0.0) and math.isclose(float(roi[1]), 1.0))


def onnx_resize(
    X,
    roi=None,
    scales=None,
    sizes=None,
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
):
    """ONNX ``Resize``: resizes ``X`` by ``scales`` or to ``sizes`` with the operator's semantics.

    For every resized axis the output index maps to an input coordinate
    (``coordinate_transformation_mode``, e.g. ``half_pixel``:
    ``x_original = (x_resized + 0.5) / scale - 0.5``), a filter turns coordinates into a weight
    matrix ``W: [out, in]`` (nearest, linear, cubic with ``cubic_coeff_a``, stretched by
    ``max(1, 1/scale)`` with ``antialias``), and the matrices are contracted with ``X`` one axis
    at a time. Output shape: ``sizes`` (adjusted by ``keep_aspect_ratio_policy``), or
    ``floor(input_dimension * scale)``; with ``tf_crop_and_resize`` and ``scales`` the spec's
    ``floor(input_dimension * (roi_end - roi_start) * scale)``.

    Args:
      X: array of any rank >= 1, ``[d0, ..., dn-1]``; float16, bfloat16, float32, float64,
        int8-int64, uint8-uint64, complex64/128, or bool (nearest only).
      roi: ``[2 * k]`` floats ``[start_1..start_k, end_1..end_k]`` in normalised input coordinates
        (k = number of resized axes); used only by ``tf_crop_and_resize``. May be traced (then
        the output is differentiable with respect to it; ``sizes`` must be given).
      scales: ``[k]`` floats > 0 (static), rounded to float32 as ONNX's tensor(float).
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
      opset: 10, 11, 13, 18 or 19. Resize-10 takes ``X, scales`` and ``mode`` only, with
        asymmetric coordinates and onnxruntime's rule for nearest (ceil when downsampling,
        truncate otherwise).
      strategy: how the weights are applied — ``"auto"`` (default: polyphase slices for
        rational ratios and banded gathers otherwise on CPU/GPU, matmuls on TPU), ``"dense"``,
        ``"banded"`` or ``"polyphase"``. Not an ONNX attribute; values agree to float rounding.

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
    if isinstance(opset, bool) or opset not in OPSETS:
        raise ValueError(f"opset={opset!r} is not supported; allowed values: {OPSETS}.")
    _check_opset_attributes(opset, dict(
        coordinate_transformation_mode=coordinate_transformation_mode, nearest_mode=nearest_mode,
        cubic_coeff_a=cubic_coeff_a, exclude_outside=exclude_outside,
        extrapolation_value=extrapolation_value, antialias=antialias, axes=axes,
        keep_aspect_ratio_policy=keep_aspect_ratio_policy,
    ))
    mode = _v.choice("mode", mode, _weights.ONNX_MODES if opset >= 11 else ("nearest", "linear"))
    if opset == 10:
        if roi is not None and np.size(roi) and not _v.is_traced(roi):
            raise ValueError("roi is not an input of Resize-10 (its inputs are X, scales).")
        if sizes is not None and np.size(sizes):
            raise ValueError("sizes is not an input of Resize-10 (its inputs are X, scales); use opset>=11.")
        coordinate_transformation_mode, nearest_mode = "asymmetric", "simple"
    else:
        allowed = _COORDINATE_MODES[opset]
        if coordinate_transformation_mode not in allowed and coordinate_transformation_mode in \
                _coordinates.COORDINATE_TRANSFORMATION_MODES:
            where = [o for o, modes in _COORDINATE_MODES.items() if coordinate_transformation_mode in modes]
            raise ValueError(
                f"coordinate_transformation_mode={coordinate_transformation_mode!r} is not part of "
                f"Resize-{opset}; it exists in opset(s) {where}. Allowed in {opset}: {allowed}."
            )
        _v.choice("coordinate_transformation_mode", coordinate_transformation_mode, allowed)
        _v.choice("nearest_mode", nearest_mode, _weights.NEAREST_MODES)
    keep_aspect_ratio_policy = _v.choice(
        "keep_aspect_ratio_policy", keep_aspect_ratio_policy, KEEP_ASPECT_RATIO_POLICIES
    )
    exclude_outside = _v.flag("exclude_outside", exclude_outside)
    antialias = _v.flag("antialias", antialias)
    cubic_coeff_a = _v.finite_float("cubic_coeff_a", cubic_coeff_a)
    extrapolation_value = _v.finite_float("extrapolation_value", extrapolation_value)
    if antialias and mode == "nearest":
        raise ValueError("antialias=1 is only defined for mode='linear' or 'cubic', not mode='nearest'.")

    X = _v.data_array("X", X, mode)
    rank = X.ndim
    axes = _v.axes_tuple(axes, rank)
    k = len(axes)
    in_sizes = [int(X.shape[a]) for a in axes]

    scales = _v.static_array("scales", scales)
    sizes = _v.static_array("sizes", sizes)
    if (scales is None) == (sizes is None):
        raise ValueError(
            "exactly one of scales and sizes must be given (empty arrays count as absent); got "
            + ("both." if scales is not None else "neither.")
        )

    crop = coordinate_transformation_mode == "tf_crop_and_resize"
    roi_traced = crop and _v.is_traced(roi)
    if crop:
        if roi is None or np.size(roi) == 0:
            roi_pairs = [(0.0, 1.0)] * k
        else:
            if np.shape(roi) != (2 * k,):
                raise ValueError(
                    f"roi must have 2 * {k} = {2 * k} elements [starts..., ends...] for {k} resized "
                    f"axes; got shape {np.shape(roi)}."
                )
            r = roi if roi_traced else np.asarray(roi, dtype=np.float64)
            roi_pairs = [(r[i], r[k + i]) for i in range(k)]
    else:
        roi_pairs = [None] * k

    if scales is not None:
        axis_scales = list(_v.scales_array(scales, k))
        if keep_aspect_ratio_policy != "stretch":
            raise ValueError(
                f"keep_aspect_ratio_policy={keep_aspect_ratio_policy!r} applies to sizes only; "
                "with scales use 'stretch'."
            )
        if crop and roi_traced:
            raise TypeError(
                "roi must be static when tf_crop_and_resize is used with scales, because the output "
                "size floor(in * (roi_end - roi_start) * scale) depends on it; pass sizes instead."
            )
        if crop:
            # Spec: output_dimension = floor(input_dimension * (roi_end - roi_start) * scale); the
            # coordinates then use that length (as if it had been given as sizes).
            out_sizes = [int(math.floor(n * float(e - s) * sc)) for n, sc, (s, e) in
                         zip(in_sizes, axis_scales, roi_pairs)]
            out_sizes = [max(o, 0) for o in out_sizes]
            axis_scales = [o / n if n else 1.0 for o, n in zip(out_sizes, in_sizes)]
        else:
            out_sizes = [int(math.floor(sc * n)) for sc, n in zip(axis_scales, in_sizes)]
    else:
        sizes = _v.sizes_array(sizes, k)
        for n, s, a in zip(in_sizes, sizes, axes):
            if n == 0 and s != 0:
                raise ValueError(f"cannot resize axis {a} of length 0 to sizes {int(s)}; X has shape {X.shape}.")
        axis_scales = [float(s) / n if n else 1.0 for s, n in zip(sizes, in_sizes)]
        out_sizes = [int(s) for s in sizes]
        if keep_aspect_ratio_policy != "stretch":
            pick = min if keep_aspect_ratio_policy == "not_larger" else max
            common = pick(axis_scales)
            axis_scales = [common] * k
            out_sizes = [int(common * n + 0.5) for n in in_sizes]  # round half up

    ops = []
    for axis, n, o, sc, r in zip(axes, in_sizes, out_sizes, axis_scales, roi_pairs):
        if not roi_traced and _is_identity(sc, n, o, r):
            continue
        ops.append(_axis_op(axis, n, o, sc, r, roi_traced, mode=mode,
                            coordinate_transformation_mode=coordinate_transformation_mode,
                            nearest_mode=nearest_mode, cubic_coeff_a=cubic_coeff_a,
                            exclude_outside=exclude_outside, antialias=antialias))
    return _apply.run(X, ops, extrapolation_value=extrapolation_value, strategy=strategy)


def _axis_op(axis, in_size, out_size, scale, roi, roi_traced, *, coordinate_transformation_mode, **opts):
    """Coordinates + weights for one axis -> an ``AxisResample``."""
    if in_size == 0 or out_size == 0:
        return _weights.empty_axis(axis, in_size, out_size, gather=opts["mode"] == "nearest")
    xp = jnp if roi_traced else np
    x, outside = _coordinates.source_coordinates(
        coordinate_transformation_mode, in_size, out_size, scale, roi=roi, xp=xp
    )
    kind, op = _weights.onnx_axis_weights(x, in_size, scale, xp=xp, **opts)
    return _weights.axis_resample(axis, in_size, kind, op, outside)


_NODE_INPUTS = {10: ("X", "scales")}
_NODE_INPUTS_DEFAULT = ("X", "roi", "scales", "sizes")


def onnx_node_resize(node, *inputs, opset: int = 19):
    """Runs an ONNX ``Resize`` node (``onnx.NodeProto``) on numpy/jax inputs.

    Reads the node's attributes (``mode``, ``coordinate_transformation_mode``, ``axes``, ...) and
    calls :func:`onnx_resize`. Inputs follow the node's input order: ``X, roi, scales, sizes``
    (``X, scales`` for Resize-10); an input whose name in the node is empty, or that is missing,
    ``None`` or an empty array, is absent.

    Args:
      node: an ``onnx.NodeProto`` with ``op_type == "Resize"``.
      *inputs: the input arrays in the node's order.
      opset: the model's ONNX opset for the default domain (10, 11, 13, 18 or 19).

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
        raise ValueError(f"node must be an onnx.NodeProto with op_type 'Resize'; got {getattr(node, 'op_type', node)!r}.")
    names = _NODE_INPUTS.get(opset, _NODE_INPUTS_DEFAULT)
    if len(inputs) > len(names):
        raise ValueError(f"Resize-{opset} takes at most {len(names)} inputs {names}; got {len(inputs)}.")
    args = {}
    for i, name in enumerate(names):
        present = i < len(inputs) and i < len(node.input) and node.input[i] != ""
        args[name] = inputs[i] if present else None
    attrs = {}
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
