"""``cv2_resize``: OpenCV's ``cv2.resize`` on the jax_resize layers.

Contract: same arguments (``dsize`` is ``(width, height)``), flags, size rule and output shapes as
``cv2.resize`` (opencv-python 5.0, ``modules/imgproc/src/resize.cpp``) for ``[H, W]`` and
``[H, W, C]`` images; each resized axis gets one operator:

* coordinates: :func:`.coordinates.opencv_source_coordinates` (``(o + 0.5) / inv_scale - 0.5``,
  float64), :func:`.coordinates.opencv_nearest_indices`, :func:`.coordinates.pillow_nearest_indices`
  (``INTER_NEAREST_EXACT`` is Pillow's rule);
* weights: :func:`.weights.clamped_linear_taps`, :func:`.weights.filter_taps` with Keys a = -0.75
  or normalised Lanczos-4, :func:`.weights.opencv_area_taps` / ``opencv_area_linear_taps``;
* apply: :func:`.apply.run`. ``uint8`` linear/cubic/Lanczos weights are OpenCV's 11-bit fixed
  point ones and the result is rounded half up, as OpenCV's fixed-point casts.
"""

from __future__ import annotations

import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from .. import apply as _apply
from .. import coordinates as _coordinates
from .. import dtypes as _dtypes
from .. import kernels as _kernels
from .. import validation as _v
from .. import weights as _weights

INTER_NEAREST = 0
INTER_LINEAR = 1
INTER_CUBIC = 2
INTER_AREA = 3
INTER_LANCZOS4 = 4
INTER_LINEAR_EXACT = 5
INTER_NEAREST_EXACT = 6

INTERPOLATIONS = {
    INTER_NEAREST: "INTER_NEAREST",
    INTER_LINEAR: "INTER_LINEAR",
    INTER_CUBIC: "INTER_CUBIC",
    INTER_AREA: "INTER_AREA",
    INTER_LANCZOS4: "INTER_LANCZOS4",
    INTER_LINEAR_EXACT: "INTER_LINEAR_EXACT",
    INTER_NEAREST_EXACT: "INTER_NEAREST_EXACT",
}
#: ``INTER_RESIZE_COEF_BITS``: OpenCV's fixed-point precision for 8-bit linear/cubic/Lanczos.
INTER_RESIZE_COEF_BITS = 11

_NEAREST = (INTER_NEAREST, INTER_NEAREST_EXACT)
#: dtypes OpenCV's filters (linear, cubic, area, Lanczos) accept; INTER_LINEAR_EXACT also takes
#: int8/int32/int64, the nearest flags take every dtype.
_FILTER_DTYPES = ("uint8", "uint16", "int16", "float32", "float64")
_EXACT_DTYPES = _FILTER_DTYPES + ("int8", "int32", "int64")


def _interpolation(value) -> int:
    integer = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    if not integer or int(value) not in INTERPOLATIONS:
        allowed = ", ".join(f"{name} ({k})" for k, name in INTERPOLATIONS.items())
        raise ValueError(f"interpolation={value!r} is not supported; allowed values: {allowed}.")
    return int(value)


def _dsize(dsize):
    """``None`` or ``(width, height)`` of non-negative ints."""
    if dsize is None:
        return 0, 0
    if _v.is_traced(dsize):
        raise TypeError("dsize must be static because it fixes the output shape; got a traced value.")
    try:
        values = tuple(dsize)
    except TypeError:
        raise TypeError(f"dsize must be None or a (width, height) pair of ints; got {dsize!r}.") from None
    if len(values) != 2 or any(isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral) for v in values):
        raise TypeError(f"dsize must be None or a (width, height) pair of ints; got {dsize!r}.")
    if any(v < 0 for v in values):
        raise ValueError(f"dsize={values!r} must contain non-negative integers (width, height).")
    return int(values[0]), int(values[1])


def output_size(in_hw, dsize=None, fx=0.0, fy=0.0):
    """``cv2.resize``'s output ``(height, width)`` and inverse scales ``(inv_y, inv_x)``.

    A ``dsize`` with both entries > 0 is the output ``(width, height)`` and
    ``inv = out / in`` (``fx``/``fy`` ignored); otherwise ``fx, fy > 0`` give
    ``out = round(in * f)`` (``saturate_cast<int>``: half to even) and ``inv = f``.
    """
    h, w = in_hw
    dw, dh = _dsize(dsize)
    fx = _v.finite_float("fx", fx)
    fy = _v.finite_float("fy", fy)
    if dw > 0 and dh > 0:
        return (dh, dw), (dh / h, dw / w)
    if not (fx > 0 and fy > 0):
        raise ValueError(
            f"dsize={dsize!r} is empty, so fx and fy must be > 0; got fx={fx!r}, fy={fy!r} "
            "(give dsize=(width, height) or both scale factors)."
        )
    out = (int(np.rint(h * fy)), int(np.rint(w * fx)))
    if min(out) <= 0:
        raise ValueError(
            f"fx={fx!r}, fy={fy!r} give an empty output of (height, width) = {out} from {(h, w)}."
        )
    return out, (fy, fx)


def axis_operator(interpolation: int, axis: int, in_size: int, out_size: int, inv_scale: float, *,
                  area_shrinks: bool = True, dtype=np.float32):
    """One axis of ``cv2.resize`` as an :class:`~.weights.AxisResample`, or None (identity).

    ``area_shrinks``: whether ``INTER_AREA`` takes its true-area path (both axes have
    ``scale = 1 / inv_scale >= 1``) or OpenCV's bilinear variant. ``dtype`` is the image's; for
    ``uint8`` the linear/cubic/Lanczos weights are quantised to 11 bits as OpenCV does.
    """
    if out_size == in_size and inv_scale == 1.0:
        return None
    if interpolation == INTER_NEAREST:
        idx = _coordinates.opencv_nearest_indices(in_size, out_size, inv_scale)
        return _weights.axis_resample(axis, in_size, "gather", idx)
    if interpolation == INTER_NEAREST_EXACT:
        return _weights.axis_resample(axis, in_size, "gather", _coordinates.pillow_nearest_indices(in_size, out_size))
    fixed = np.dtype(dtype) == np.uint8
    if interpolation == INTER_AREA and area_shrinks:
        taps = _weights.opencv_area_taps(in_size, out_size, 1.0 / inv_scale)
        fixed = False  # OpenCV's area path computes in float
    elif interpolation == INTER_AREA:
        taps = _weights.opencv_area_linear_taps(in_size, out_size, inv_scale)
    else:
        x = _coordinates.opencv_source_coordinates(in_size, out_size, inv_scale)
        if interpolation in (INTER_LINEAR, INTER_LINEAR_EXACT):
            taps = _weights.clamped_linear_taps(x, in_size)
        elif interpolation == INTER_CUBIC:
            taps = _weights.filter_taps(x, in_size, _kernels.keys_cubic(-0.75))
        else:  # INTER_LANCZOS4: 8 taps floor(x) - 3 .. floor(x) + 4, normalised, edge-clamped
            taps = _weights.filter_taps(x, in_size, _kernels.lanczos(4), normalize=True)
    index, weight = taps
    if fixed:
        weight = _weights.fixed_point_weights(weight, INTER_RESIZE_COEF_BITS, ties="even")
    return _weights.axis_resample(axis, in_size, "taps", (index, weight))


@functools.partial(jax.jit, static_argnames=("dtype",))
def _round_half_up(y, *, dtype):
    info = np.iinfo(dtype)
    return jnp.clip(jnp.floor(y + 0.5), float(info.min), float(info.max)).astype(dtype)


def cv2_resize(src, dsize, fx=0, fy=0, interpolation=INTER_LINEAR):
    """``cv2.resize`` in JAX: resizes an ``[H, W]`` or ``[H, W, C]`` image to ``dsize = (width, height)``.

    Output size: ``dsize`` when both entries are > 0, else ``(round(H * fy), round(W * fx))``
    (half to even). ``inv = out / in`` (from ``dsize``) or ``fx``/``fy``; ``s = 1 / inv``. An
    output of the input's size is a copy. Per axis:

    * ``INTER_NEAREST``: ``src = min(floor(o * s), in - 1)``;
      ``INTER_NEAREST_EXACT``: ``floor((o + 0.5) * in / out)`` accumulated like Pillow;
    * ``INTER_LINEAR`` (and ``INTER_LINEAR_EXACT``): ``x = (o + 0.5) s - 0.5`` clamped to
      ``[0, in - 1]``, 2-tap linear interpolation;
    * ``INTER_CUBIC``: Keys cubic (a = -0.75) at the unclamped ``x``, taps clamped to the edge
      (border replicate); ``INTER_LANCZOS4``: ``sinc(d) sinc(d / 4)`` on the 8 taps
      ``floor(x) - 3 .. floor(x) + 4``, normalised, taps clamped to the edge;
    * ``INTER_AREA``: when both ``s >= 1``, exact pixel-area averaging (output ``o`` covers
      ``[o s, (o + 1) s)``, pieces under 1e-3 of a pixel dropped); otherwise, on both axes,
      OpenCV's bilinear variant ``i = floor(o s)``, ``f = frac(max(0, (o + 1) - (i + 1) inv))``.

    Args:
      src: array ``[H, W]`` or ``[H, W, C]``. dtypes as OpenCV: uint8, uint16, int16, float32,
        float64 for every flag; also int8, int32, int64 for ``INTER_LINEAR_EXACT``; anything for
        the nearest flags.
      dsize: ``(width, height)`` (static ints) or ``None``/``(0, 0)`` to use ``fx``, ``fy``.
      fx, fy: scale factors (> 0 when ``dsize`` is empty; ignored otherwise).
      interpolation: one of the ``INTER_*`` constants (default ``INTER_LINEAR``).

    Returns:
      Array ``[out_h, out_w]`` or ``[out_h, out_w, C]`` of ``src``'s dtype; like OpenCV, a
      one-channel ``[H, W, 1]`` image comes back as ``[out_h, out_w]``. ``INTER_LINEAR_EXACT``
      is ``INTER_LINEAR`` here (OpenCV's bit-exact fixed point differs by at most 1 on
      integers); int32/int64 images compute in float32 unless ``jax_enable_x64`` is on. Beyond
      OpenCV: ``INTER_AREA`` shrinking by a non-integer factor also accepts more than 4 channels
      (OpenCV asserts ``cn <= 4`` there).

    Raises:
      ValueError: rank not 2 or 3, an empty image, unknown ``interpolation``, negative ``dsize``
        entries, empty ``dsize`` without positive ``fx``/``fy``, an empty output.
      TypeError: traced ``dsize``/``fx``/``fy``, a malformed ``dsize``, a dtype OpenCV refuses
        for the flag.

    Example:
      >>> import numpy as np
      >>> from jax_resize.compat import cv2_resize, INTER_LINEAR
      >>> img = np.arange(8, dtype=np.float32).reshape(2, 4)
      >>> cv2_resize(img, (2, 1), interpolation=INTER_LINEAR).tolist()
      [[2.5, 4.5]]

    Source: OpenCV ``cv::resize`` (``modules/imgproc/src/resize.cpp``: ``resizeNN``,
    ``resizeNN_bitexact``, ``computeResizeAreaTab``, ``interpolateCubic``,
    ``interpolateLanczos4``). Exactness (measured against opencv-python 5.0): nearest flags
    bit-exact, float within float32 rounding (OpenCV evaluates cubic/Lanczos coefficients in
    float32), integer filters within 1 (OpenCV's fixed-point intermediate truncations).
    """
    interpolation = _interpolation(interpolation)
    dtype = _dtypes.check_dtype(getattr(src, "dtype", None) or np.asarray(src).dtype, name="src")
    x = jnp.asarray(src)
    if x.ndim not in (2, 3):
        raise ValueError(f"src must be an [H, W] or [H, W, C] image; got shape {x.shape}.")
    if x.shape[0] == 0 or x.shape[1] == 0 or (x.ndim == 3 and x.shape[2] == 0):
        raise ValueError(f"src is empty (shape {x.shape}).")
    allowed = None if interpolation in _NEAREST else (
        _EXACT_DTYPES if interpolation == INTER_LINEAR_EXACT else _FILTER_DTYPES)
    if allowed is not None and dtype.name not in allowed:
        raise TypeError(
            f"src has dtype {dtype.name}, which cv2.resize does not support with "
            f"interpolation={INTERPOLATIONS[interpolation]}; allowed: {', '.join(allowed)}."
        )
    (out_h, out_w), (inv_y, inv_x) = output_size(x.shape[:2], dsize, fx, fy)
    if x.ndim == 3 and x.shape[2] == 1:
        x = x[:, :, 0]
    if (out_h, out_w) == tuple(x.shape[:2]):
        return x
    shrinks = 1.0 / inv_x >= 1 and 1.0 / inv_y >= 1
    ops = [op for op in (
        axis_operator(interpolation, 0, int(x.shape[0]), out_h, inv_y, area_shrinks=shrinks, dtype=dtype),
        axis_operator(interpolation, 1, int(x.shape[1]), out_w, inv_x, area_shrinks=shrinks, dtype=dtype),
    ) if op is not None]
    if dtype == np.uint8 and interpolation not in _NEAREST and not (interpolation == INTER_AREA and shrinks):
        # Fixed-point paths end with (sum + 2**21) >> 22: round half up.
        return _round_half_up(_apply.run(x.astype(jnp.float32), ops), dtype=dtype.name)
    return _apply.run(x, ops)
