"""Layer 1 — coordinates: output index -> input coordinate, one axis at a time.

Contract: ``source_coordinates`` returns ``x_original`` for every output index of one axis, as a
float array of shape ``[out_size]`` (float64 when computed on the host with numpy), plus, for
``tf_crop_and_resize`` only, a boolean ``outside`` mask of the same shape marking outputs whose
coordinate leaves ``[0, in_size - 1]`` (they take ``extrapolation_value``).

Formulas are those of the ONNX Resize spec (``coordinate_transformation_mode``, opsets 10-19) and
OpenVINO Interpolate-11, evaluated in the same order as ``onnx.reference`` so that ``floor`` and
nearest-rounding ties agree bit for bit. ``scale`` is the per-axis scale the operator uses (the
user's scale, or ``out/in`` when sizes are given); ``length_resized`` below is ``scale * in_size``
as a float, as in the reference (it matters when ``scale * in_size`` is not an integer).

The functions take an array namespace ``xp`` (``numpy`` for static values, ``jax.numpy`` when the
``roi`` is traced) so one definition serves both paths.
"""

from __future__ import annotations

import numpy as np

#: ONNX Resize (opset 19) modes, plus ``tf_half_pixel_for_nn`` (opset 11 only, also OpenVINO).
COORDINATE_TRANSFORMATION_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
)


def source_coordinates(
    mode: str,
    in_size: int,
    out_size: int,
    scale: float,
    *,
    roi=None,
    xp=np,
):
    """Maps output indices ``0..out_size-1`` to input coordinates ``x_original``.

    Args:
      mode: one of ``COORDINATE_TRANSFORMATION_MODES``.
      in_size, out_size: axis lengths (``length_original``, integer ``length_resized``).
      scale: the axis scale (> 0), a Python float.
      roi: ``(start, end)`` in normalised input coordinates; only for ``tf_crop_and_resize``.
        May be traced (``xp = jax.numpy``).
      xp: array namespace, ``numpy`` or ``jax.numpy``.

    Returns:
      ``(x, outside)``: ``x`` float ``[out_size]``; ``outside`` bool ``[out_size]`` for
      ``tf_crop_and_resize``, else ``None``.
    """
    dtype = np.float64 if xp is np else None
    y = xp.arange(out_size, dtype=dtype) if dtype else xp.arange(out_size).astype(float)
    length_resized = scale * in_size  # float, as in the reference evaluator
    outside = None
    if mode == "half_pixel":
        x = (y + 0.5) / scale - 0.5
    elif mode == "half_pixel_symmetric":
        # Centre of the implicit ROI maps to the centre of the output canvas (opset 19).
        adjustment = out_size / length_resized
        offset = (in_size / 2) * (1 - adjustment)
        x = offset + (y + 0.5) / scale - 0.5
    elif mode == "pytorch_half_pixel":
        # Spec: length_resized > 1 ? (x + 0.5) / scale - 0.5 : 0.  (The reference uses -0.5 for a
        # length of 1, onnx issue 4275; we follow the spec, as onnxruntime does.)
        x = (y + 0.5) / scale - 0.5 if out_size > 1 else y * 0.0
    elif mode == "align_corners":
        x = y * 0.0 if length_resized == 1 else y * (in_size - 1) / (length_resized - 1)
    elif mode == "asymmetric":
        x = y / scale
    elif mode == "tf_half_pixel_for_nn":
        x = (y + 0.5) / scale
    elif mode == "tf_crop_and_resize":
        start, end = roi[0], roi[1]
        if length_resized == 1:
            x = y * 0.0 + (end - start) * (in_size - 1) / 2
        else:
            x = y * (end - start) * (in_size - 1) / (length_resized - 1)
        x = x + start * (in_size - 1)
        outside = (x < 0) | (x > in_size - 1)
    else:
        raise ValueError(
            f"coordinate_transformation_mode={mode!r} is not supported; allowed values: "
            f"{', '.join(map(repr, COORDINATE_TRANSFORMATION_MODES))}."
        )
    return x, outside


def jax_image_nearest_indices(in_size: int, out_size: int) -> np.ndarray:
    """``jax.image.resize(method='nearest')``'s source indices: ``floor((i + 0.5) * in / out)``.

    Evaluated in float32 in the same operation order as ``jax.image`` so the indices agree
    exactly (it equals ``tf_half_pixel_for_nn`` with ``floor`` rounding). Shape ``[out_size]``.
    """
    i = np.arange(out_size, dtype=np.float32)
    x = (i + np.float32(0.5)) * np.float32(in_size) / np.float32(out_size)
    return np.clip(np.floor(x).astype(np.int64), 0, max(in_size - 1, 0))
