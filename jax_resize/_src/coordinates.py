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


# --- OpenVINO Interpolate-11 -----------------------------------------------------------------

#: Interpolate-11 ``coordinate_transformation_mode`` values.
OPENVINO_COORDINATE_MODES = (
    "half_pixel",
    "pytorch_half_pixel",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "align_corners",
)


def openvino_coordinates(mode: str, in_size: int, out_size: int, scale) -> np.ndarray:
    """OpenVINO Interpolate-11's ``x_original`` for one axis, in float32 as OpenVINO computes it.

    ``in_size`` is the padded input length. ``scale`` is the float32 scale the operator uses (the
    given scale in ``scales`` mode, ``f32(out) / f32(in)`` in ``sizes`` mode); it is always
    divided, never inverted. An axis with ``f32(scale) == 1`` or ``out_size == in_size`` maps
    ``x = o`` (the identity), whatever the mode. ``align_corners`` is evaluated in the order the
    spec writes it, ``(o * (in - 1)) / (out - 1)`` (OpenVINO's reference implementation; the CPU
    plugin computes ``o * ((in - 1) / (out - 1))``, which moves a few nearest indices).

    Returns:
      float32 ``np.ndarray`` ``[out_size]``.
    """
    f32 = np.float32
    o = np.arange(out_size, dtype=f32)
    s = f32(scale)
    if s == f32(1) or out_size == in_size:
        return o
    if mode == "half_pixel":
        return (o + f32(0.5)) / s - f32(0.5)
    if mode == "pytorch_half_pixel":
        return (o + f32(0.5)) / s - f32(0.5) if out_size > 1 else np.zeros_like(o)
    if mode == "asymmetric":
        return o / s
    if mode == "tf_half_pixel_for_nn":
        return (o + f32(0.5)) / s
    if mode == "align_corners":
        if out_size == 1:
            return np.zeros_like(o)
        return (o * f32(in_size - 1)) / f32(out_size - 1)
    raise ValueError(
        f"coordinate_transformation_mode={mode!r} is not supported; allowed values: "
        f"{', '.join(map(repr, OPENVINO_COORDINATE_MODES))}."
    )


# --- Pillow (PIL.Image.resize) ------------------------------------------------------------------


def pillow_centers(in_size: int, out_size: int, box: tuple[float, float] | None = None):
    """Pillow's filter centres for one axis: ``center = in0 + (o + 0.5) * scale`` (float64).

    ``scale = (in1 - in0) / out_size`` with the box edges ``(in0, in1)`` (default ``(0, in_size)``),
    as Pillow's ``precompute_coeffs``. The centre is in continuous coordinates (pixel ``j``
    covers ``[j, j + 1)``), i.e. ``x_original = center - 0.5`` in ONNX terms (``half_pixel``).

    Returns:
      ``(center [out_size] float64, scale)``.
    """
    in0, in1 = (0.0, float(in_size)) if box is None else box
    scale = float(np.float32(in1) - np.float32(in0)) / out_size
    o = np.arange(out_size, dtype=np.float64)
    return float(np.float32(in0)) + (o + 0.5) * scale, scale


def pillow_nearest_indices(in_size: int, out_size: int, box: tuple[float, float] | None = None) -> np.ndarray:
    """``Image.resize(..., NEAREST)``'s source indices: ``floor(in0 + (o + 0.5) * (in1 - in0) / out)``.

    Pillow walks the positions by repeated double addition (``x0 = in0 + a / 2; x += a`` with
    ``a = (in1 - in0) / out``, box edges ``(in0, in1)``, default ``(0, in_size)``) rather than
    multiplying, and so do we, so that indices agree exactly.

    Returns:
      int64 ``[out_size]`` in ``[0, in_size - 1]``.
    """
    if out_size == 0:
        return np.zeros((0,), np.int64)
    in0, in1 = (0.0, float(in_size)) if box is None else box
    # Pillow parses the box as C floats: float32 edges, float32 difference, double division
    a = float(np.float32(in1) - np.float32(in0)) / out_size
    in0 = float(np.float32(in0))
    steps = np.full(out_size, a)
    steps[0] = a * 0.5 + in0
    pos = np.add.accumulate(steps)  # sequential, left to right, like Pillow's loop
    return np.clip(np.where(pos < 0, -1, np.trunc(pos)).astype(np.int64), 0, max(in_size - 1, 0))


# --- PyTorch (torch.nn.functional.interpolate, CPU kernels) ----------------------------------
# PyTorch computes coordinates in the "opmath" type of the input (float32 for float32, float16,
# bfloat16 and the nearest modes of uint8; float64 for float64 and for uint8's filters), and its
# AVX2/AVX-512 kernels contract ``scale * (o + 0.5) - 0.5`` into one fused multiply-add. Nearest
# indices go through ``floorf``: the coordinate is rounded to float32 before the floor.


def fused_multiply_add(a, b, c: float, dtype=np.float32) -> np.ndarray:
    """``a * b + c`` rounded once to ``dtype`` (float32 or float64), as a hardware FMA computes it.

    float32: the product of two float32 values is exact in float64, so is adding ``c = -0.5``
    to it (Sterbenz), and the result is rounded once. float64: the product's rounding error is
    recovered exactly (Dekker's two-product with Veltkamp splitting) and added back in one rounding.
    """
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    if np.dtype(dtype) == np.float32:
        return (a * b + c).astype(np.float32)
    p = a * b
    split = 134217729.0  # 2**27 + 1
    ta, tb = a * split, b * split
    ah = ta - (ta - a)
    al = a - ah
    bh = tb - (tb - b)
    bl = b - bh
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # p + err == a * b exactly
    return (p + c) + err


def torch_scale(in_size: int, out_size: int, scale_factor: float | None = None, align_corners: bool = False,
                dtype=np.float32):
    """PyTorch's ``area_pixel_compute_scale`` in ``dtype``.

    ``align_corners``: ``(in - 1) / (out - 1)`` (0 when ``out == 1``); otherwise
    ``1 / scale_factor`` (computed in float64, then rounded) when a scale factor is used, else
    ``in / out`` (both converted to ``dtype`` first).
    """
    t = np.dtype(dtype).type
    if align_corners:
        return t(in_size - 1) / t(out_size - 1) if out_size > 1 else t(0)
    if scale_factor is not None and scale_factor > 0:
        return t(1.0 / scale_factor)
    return t(in_size) / t(out_size)


def torch_source_coordinates(in_size: int, out_size: int, *, scale_factor: float | None = None,
                             align_corners: bool = False, cubic: bool = False, dtype=np.float32) -> np.ndarray:
    """PyTorch's ``area_pixel_compute_source_index`` for every output index, in ``dtype``.

    ``align_corners``: ``x = scale * o``; otherwise ``x = fma(scale, o + 0.5, -0.5)`` (one
    rounding), and the linear modes (``cubic=False``) clamp negative coordinates to 0 (bicubic
    keeps them). ``scale`` is :func:`torch_scale`.

    Returns:
      ``np.ndarray`` ``[out_size]`` of ``dtype``.
    """
    s = torch_scale(in_size, out_size, scale_factor, align_corners, dtype)
    o = np.arange(out_size)
    if align_corners:
        return o.astype(dtype) * s
    x = fused_multiply_add(s, o + 0.5, -0.5, dtype)
    return x if cubic else np.maximum(x, np.dtype(dtype).type(0))


def torch_nearest_indices(in_size: int, out_size: int, *, scale_factor: float | None = None, exact: bool = False,
                          dtype=np.float32, shortcuts: bool = False) -> np.ndarray:
    """``mode='nearest'`` / ``'nearest-exact'`` source indices of ``torch.nn.functional.interpolate``.

    nearest: ``min(floorf(o * scale), in - 1)``; nearest-exact:
    ``min(floorf(x + 0.5), in - 1)`` with ``x`` the clamped half-pixel coordinate of
    :func:`torch_source_coordinates`. ``scale`` is ``1 / scale_factor`` or ``in / out``
    (:func:`torch_scale`), the arithmetic is in ``dtype`` and ``floorf`` first rounds to float32
    (the contiguous-memory CPU kernel). ``shortcuts``: ``nearest`` of 4-D inputs (2 spatial axes)
    runs a kernel that copies when ``out == in`` (``src = o``) and uses ``src = o // 2`` when
    ``out == 2 * in``, whatever the scale factor (measured with torch 2.13).

    Returns:
      int64 ``[out_size]`` in ``[0, in_size - 1]``.
    """
    if shortcuts and not exact and out_size in (in_size, 2 * in_size):
        return np.arange(out_size, dtype=np.int64) // (out_size // in_size)
    if exact:
        x = torch_source_coordinates(in_size, out_size, scale_factor=scale_factor, dtype=dtype)
        v = x + np.dtype(dtype).type(0.5)
    else:
        s = torch_scale(in_size, out_size, scale_factor, False, dtype)
        v = np.arange(out_size).astype(dtype) * s
    idx = np.floor(v.astype(np.float32)).astype(np.int64)
    return np.clip(idx, 0, max(in_size - 1, 0))


def torch_antialias_centers(in_size: int, out_size: int, *, scale_factor: float | None = None,
                            align_corners: bool = False, dtype=np.float32):
    """Filter centres of PyTorch's separable antialiasing kernels (``_upsample_*_aa``).

    ``center = scale * (o + 0.5)`` rounded to ``dtype`` with ``scale`` from :func:`torch_scale`
    (also with ``align_corners``, whose scale is ``(in - 1) / (out - 1)``); continuous
    coordinates as in :func:`pillow_centers`.

    Returns:
      ``(center [out_size] float64, scale)``.
    """
    s = torch_scale(in_size, out_size, scale_factor, align_corners, dtype)
    center = (float(s) * (np.arange(out_size) + 0.5)).astype(dtype)
    return center.astype(np.float64), float(s)


# --- OpenCV (cv2.resize) -----------------------------------------------------------------------
# OpenCV's ``inv_scale`` is ``fx`` when the size comes from ``fx``/``fy``, else ``out / in``
# (float64); coordinates use ``scale = 1 / inv_scale``.


def opencv_source_coordinates(in_size: int, out_size: int, inv_scale: float) -> np.ndarray:
    """``cv2.resize``'s half-pixel coordinate ``x = (o + 0.5) * (1 / inv_scale) - 0.5`` (float64).

    Used unclamped by ``INTER_CUBIC``/``INTER_LANCZOS4``; ``INTER_LINEAR`` clamps it to
    ``[0, in - 1]``. Returns ``[out_size]`` float64.
    """
    scale = 1.0 / float(inv_scale)
    return (np.arange(out_size) + 0.5) * scale - 0.5


def opencv_nearest_indices(in_size: int, out_size: int, inv_scale: float) -> np.ndarray:
    """``INTER_NEAREST``: ``min(floor(o * (1 / inv_scale)), in - 1)`` in float64. int64 ``[out_size]``.

    (``INTER_NEAREST_EXACT`` is Pillow's rule, :func:`pillow_nearest_indices`.)
    """
    ifx = 1.0 / float(inv_scale)
    return np.clip(np.floor(np.arange(out_size) * ifx).astype(np.int64), 0, max(in_size - 1, 0))
