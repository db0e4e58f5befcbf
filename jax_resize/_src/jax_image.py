"""Front end: a drop-in for ``jax.image.resize`` with ONNX Resize's options as keywords.

Contract: with only the positional arguments of ``jax.image.resize`` (``image, shape, method,
antialias, precision``) the result equals ``jax.image.resize`` for every method it has —
``nearest``, ``linear``, ``cubic`` (Keys a = -0.5), ``lanczos3``, ``lanczos5``, ``cubic-pytorch``
(Keys a = -0.75 with edge clamping, or ``cubic`` when antialiasing) and ``area`` — including its
dtype rules (integers promote to float, except for nearest). The keyword-only ONNX options change
the coordinate rule, rounding, cubic coefficient or boundary handling for the same filters.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import apply as _apply
from . import coordinates as _coordinates
from . import dtypes as _dtypes
from . import kernels as _kernels
from . import validation as _v
from . import weights as _weights

#: Canonical method names (``jax.image.ResizeMethod``) and their accepted aliases.
METHODS = ("nearest", "linear", "cubic", "lanczos3", "lanczos5", "cubic-pytorch", "area")
_ALIASES = {
    "bilinear": "linear", "trilinear": "linear", "triangle": "linear",
    "bicubic": "cubic", "tricubic": "cubic", "bicubic-pytorch": "cubic-pytorch",
}


def _method_name(method) -> str:
    if isinstance(method, jax.image.ResizeMethod):
        return method.name.lower().replace("_", "-")
    if isinstance(method, str):
        method = _ALIASES.get(method, method)
    return _v.choice("method", method, METHODS + tuple(_ALIASES))


def _filter(method: str, antialias: bool, scale: float, cubic_coeff_a, exclude_outside):
    """(kernel, stretch, exclude_outside) of a filtered method on one axis."""
    if method == "cubic-pytorch" and antialias:
        method = "cubic"  # as jax.image does
    if method == "linear":
        kernel, default_exclude = _kernels.TRIANGLE, True
    elif method in ("cubic", "cubic-pytorch"):
        a = cubic_coeff_a if cubic_coeff_a is not None else (-0.5 if method == "cubic" else -0.75)
        kernel, default_exclude = _kernels.keys_cubic(float(a)), method == "cubic"
    elif method in ("lanczos3", "lanczos5"):
        kernel, default_exclude = _kernels.lanczos(int(method[-1])), True
    else:  # area: the footprint is 1/scale wide whether up- or downsampling (as TensorFlow)
        return _kernels.AREA, 1.0 / scale, True if exclude_outside is None else bool(exclude_outside)
    stretch = max(1.0, 1.0 / scale) if antialias else 1.0
    exclude = default_exclude if exclude_outside is None else bool(exclude_outside)
    return kernel, stretch, exclude


def resize(
    image,
    shape,
    method="linear",
    antialias: bool = True,
    precision=lax.Precision.HIGHEST,
    *,
    coordinate_transformation_mode: str = "half_pixel",
    nearest_mode: str | None = None,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
    roi=None,
    extrapolation_value: float = 0.0,
    strategy: str = "auto",
):
    """Image resize compatible with ``jax.image.resize``, with ONNX Resize options.

    Each axis whose size changes is resampled with a weight matrix ``W: [out, in]``: coordinates
    ``x = (i + 0.5) / scale - 0.5`` (``scale = out / in``), the method's filter stretched by
    ``max(1, 1/scale)`` when ``antialias`` and downsampling, taps outside the image dropped and
    each row renormalised (jax.image's convention). Nearest picks ``floor((i + 0.5) * in / out)``.

    Args:
      image: array ``[...]`` of any rank (e.g. ``[N, H, W, C]``).
      shape: the full output shape, same length as ``image.shape`` (static).
      method: ``"nearest"``, ``"linear"`` (default; aliases bilinear/trilinear/triangle),
        ``"cubic"`` (Keys 1981, a = -0.5), ``"lanczos3"``, ``"lanczos5"``, ``"cubic-pytorch"``
        (a = -0.75, edge-clamped) or ``"area"``, or a ``jax.image.ResizeMethod``.
      antialias: stretch the filter when downsampling (ignored by nearest and area).
      precision: ``lax.Precision`` of the contractions.
      coordinate_transformation_mode: an ONNX mode (default ``"half_pixel"``).
      nearest_mode: ONNX rounding for nearest; ``None`` keeps jax.image's rule.
      cubic_coeff_a: Keys' ``a`` for the cubic methods; ``None`` keeps the method's.
      exclude_outside: ``True`` drops out-of-image taps and renormalises, ``False`` clamps to the
        edge; ``None`` keeps the method's convention.
      roi: ``[2 * rank]`` ROI for ``tf_crop_and_resize`` (ONNX layout), static or traced.
      extrapolation_value: fill for ``tf_crop_and_resize`` samples outside the image.
      strategy: how weights are applied: ``"auto"`` (default), ``"dense"`` (matmul) or
        ``"banded"`` (fused gathers); all give the same values (see ``apply.py``).

    Returns:
      Array of shape ``shape``: ``image``'s dtype for nearest, otherwise its inexact promotion
      (integers become the default float type), as ``jax.image.resize``.

    Raises:
      ValueError: wrong ``shape`` length or negative sizes, unknown method or mode names,
        a non-empty output from an empty axis.
      TypeError: traced ``shape``; unsupported dtypes.

    Example:
      >>> import jax.numpy as jnp, jax_resize
      >>> jax_resize.resize(jnp.ones((4, 4, 3)), (8, 8, 3), "cubic").shape
      (8, 8, 3)

    Source: ``jax/_src/image/scale.py`` (kernels: Keys 1981; Lanczos; TensorFlow's area) and
    ONNX Resize for the keyword options.
    """
    method = _method_name(method)
    dtype = _dtypes.check_dtype(getattr(image, "dtype", None) or np.asarray(image).dtype, name="image")
    image = jnp.asarray(image)
    shape = _v.shape_tuple("shape", shape, image.ndim)
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode,
              _coordinates.COORDINATE_TRANSFORMATION_MODES)
    if nearest_mode is not None:
        _v.choice("nearest_mode", nearest_mode, _weights.NEAREST_MODES)
    if method != "nearest":
        if dtype.kind in "biu":
            image = image.astype(jax.dtypes.canonicalize_dtype(np.float64))
    crop = coordinate_transformation_mode == "tf_crop_and_resize"
    roi_traced = crop and _v.is_traced(roi)
    if crop and roi is not None and np.shape(roi) != (2 * image.ndim,):
        raise ValueError(f"roi must have {2 * image.ndim} elements; got shape {np.shape(roi)}.")
    if crop and roi is not None and not roi_traced:
        roi = np.asarray(roi, np.float64)
    ops = []
    for axis, (n, o) in enumerate(zip(image.shape, shape)):
        r = (roi[axis], roi[axis + image.ndim]) if crop and roi is not None else ((0.0, 1.0) if crop else None)
        if n == o and not roi_traced and (r is None or (float(r[0]) == 0.0 and float(r[1]) == 1.0)):
            continue
        if n == 0 or o == 0:
            if n == 0 and o != 0:
                raise ValueError(f"cannot resize axis {axis} of length 0 to length {o}.")
            ops.append(_weights.empty_axis(axis, n, o, gather=method == "nearest"))
            continue
        scale = o / n
        if method == "nearest" and nearest_mode is None and coordinate_transformation_mode == "half_pixel":
            ops.append(_weights.axis_resample(axis, n, "gather", _coordinates.jax_image_nearest_indices(n, o)))
            continue
        xp = jnp if roi_traced else np
        x, outside = _coordinates.source_coordinates(coordinate_transformation_mode, n, o, scale, roi=r, xp=xp)
        if method == "nearest":
            idx = _weights.nearest_indices(x, n, nearest_mode or "round_prefer_ceil", xp=xp)
            ops.append(_weights.axis_resample(axis, n, "gather", idx, outside))
            continue
        kernel, stretch, exclude = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
        taps = _weights.filter_taps(x, n, kernel, stretch=stretch, exclude_outside=exclude, normalize=True, xp=xp)
        ops.append(_weights.axis_resample(axis, n, "taps", taps, outside))
    return _apply.run(image, ops, extrapolation_value=extrapolation_value, precision=precision, strategy=strategy)
