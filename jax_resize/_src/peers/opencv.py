"""Peer: OpenCV's ``cv2.resize`` (``cv2_resize``) on the core layers.

Contract: same arguments (``dsize`` is ``(width, height)``), flags, size rule and output shapes as
``cv2.resize`` (opencv-python 5.0, ``modules/imgproc/src/resize.cpp``) for ``[H, W]`` and
``[H, W, C]`` images; each resized axis gets one record (:func:`axis_record`), the filter of its
flag (:class:`InterpolationFlags`; ``INTER_NEAREST_EXACT`` is Pillow's rule, from :mod:`.pillow`).
``uint8`` linear/cubic/Lanczos weights are OpenCV's 11-bit fixed point ones (ties to even) and
the result is rounded half up, as OpenCV's fixed-point casts.
"""

from __future__ import annotations

import enum
import numbers

import jax
import numpy as np
from jax.typing import ArrayLike

from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import rounding as _rounding
from .. import validation as _v
from .. import weights as _weights
from ..execution import apply as _apply
from . import pillow as _pillow


class InterpolationFlags(enum.IntEnum):
    """OpenCV's ``cv::InterpolationFlags`` that ``cv2.resize`` takes, with OpenCV's names and values.

    An ``int`` subclass: each member equals (and hashes as) its value, so ``2``,
    ``InterpolationFlags.INTER_CUBIC`` and ``cv2.INTER_CUBIC`` are interchangeable as
    :func:`cv2_resize`'s ``interpolation``. Each is ``cv2.resize``'s filter for that flag, with
    ``s = in / out`` (or ``1 / fx``) and the source coordinate ``x = (o + 0.5) * s - 0.5``:

    * ``INTER_NEAREST = 0``: nearest neighbour, ``min(floor(o * s), in - 1)``.
    * ``INTER_LINEAR = 1``: 2-tap linear at ``x`` clamped to the image (no antialiasing).
    * ``INTER_CUBIC = 2``: Keys cubic with ``a = -0.75``, 4 taps clamped to the edge.
    * ``INTER_AREA = 3``: pixel-area averaging when shrinking, OpenCV's bilinear variant otherwise.
    * ``INTER_LANCZOS4 = 4``: ``sinc(d) * sinc(d / 4)`` on 8 taps, normalised.
    * ``INTER_LINEAR_EXACT = 5``: ``INTER_LINEAR`` with OpenCV's bit-exact fixed point (here the
      same as ``INTER_LINEAR``, within 1 on integers).
    * ``INTER_NEAREST_EXACT = 6``: nearest neighbour ``floor((o + 0.5) * in / out)``, Pillow's rule.

    Example:
      >>> InterpolationFlags.INTER_AREA == 3, InterpolationFlags(2).name
      (True, 'INTER_CUBIC')
      >>> import numpy as np
      >>> cv2_resize(np.zeros((4, 6), np.float32), (3, 2), interpolation=InterpolationFlags.INTER_AREA).shape
      (2, 3)
    """

    INTER_NEAREST = 0
    INTER_LINEAR = 1
    INTER_CUBIC = 2
    INTER_AREA = 3
    INTER_LANCZOS4 = 4
    INTER_LINEAR_EXACT = 5
    INTER_NEAREST_EXACT = 6


INTER_NEAREST = InterpolationFlags.INTER_NEAREST
INTER_LINEAR = InterpolationFlags.INTER_LINEAR
INTER_CUBIC = InterpolationFlags.INTER_CUBIC
INTER_AREA = InterpolationFlags.INTER_AREA
INTER_LANCZOS4 = InterpolationFlags.INTER_LANCZOS4
INTER_LINEAR_EXACT = InterpolationFlags.INTER_LINEAR_EXACT
INTER_NEAREST_EXACT = InterpolationFlags.INTER_NEAREST_EXACT

#: ``INTER_RESIZE_COEF_BITS``: OpenCV's fixed-point precision for 8-bit linear/cubic/Lanczos.
INTER_RESIZE_COEF_BITS = 11

_NEAREST = (INTER_NEAREST, INTER_NEAREST_EXACT)
#: dtypes OpenCV's filters (linear, cubic, area, Lanczos) accept; INTER_LINEAR_EXACT also takes
#: int8/int32/int64, the nearest flags take every dtype.
_FILTER_DTYPES = ("uint8", "uint16", "int16", "float32", "float64")
_EXACT_DTYPES = _FILTER_DTYPES + ("int8", "int32", "int64")


# --- coordinates and weights (OpenCV's ``inv_scale`` is ``fx`` when the size comes from
# ``fx``/``fy``, else ``out / in`` in float64; coordinates use ``scale = 1 / inv_scale``) ---------


def source_coordinates(in_size: int, out_size: int, inv_scale: float) -> np.ndarray:
    """``cv2.resize``'s half-pixel coordinates ``x = (o + 0.5) * (1 / inv_scale) - 0.5``, ``[out_size]``
    float64 (``INTER_LINEAR`` clamps them to ``[0, in - 1]``, cubic and Lanczos do not)."""
    scale = 1.0 / float(inv_scale)
    return (np.arange(out_size) + 0.5) * scale - 0.5


def nearest_indices(in_size: int, out_size: int, inv_scale: float) -> np.ndarray:
    """``INTER_NEAREST``: ``min(floor(o * (1 / inv_scale)), in - 1)`` in float64, int64 ``[out_size]``."""
    ifx = 1.0 / float(inv_scale)
    return _weights.nearest_indices(np.arange(out_size) * ifx, in_size, "floor")


def area_taps(in_size: int, out_size: int, scale: float):
    """``INTER_AREA`` when shrinking (``scale = 1 / inv_scale >= 1`` on both axes), OpenCV's
    ``computeResizeAreaTab``: output ``o`` covers ``[f1, f2) = [o * scale, o * scale + scale)``;
    each input pixel gets its overlap divided by ``cell = min(scale, in - f1)``, partial pixels
    only when their overlap exceeds ``1e-3`` (so a row may sum to slightly less than 1), weights
    rounded to float32. (OpenCV's integer-scale fast path gives the same weights.)
    """
    # vectorised over outputs (O(out * k)): [left partial?, s1 .. s2 - 1, right partial?]
    f1 = np.arange(out_size, dtype=np.float64) * scale
    f2 = f1 + scale
    cell = np.minimum(scale, in_size - f1)
    s2 = np.minimum(np.floor(f2), in_size - 1)
    s1 = np.minimum(np.ceil(f1), s2)
    full = (s2 - s1).astype(np.int64)  # whole pixels per output
    width = int(full.max(initial=0)) + 2
    slot = np.arange(width)[None, :]
    cols = (s1.astype(np.int64) - 1)[:, None] + slot  # slot 0: s1 - 1, slot j: s1 - 1 + j
    left = np.where(s1 - f1 > 1e-3, (s1 - f1) / cell, 0.0)
    right = np.where(f2 - s2 > 1e-3, np.minimum(np.minimum(f2 - s2, 1.0), cell) / cell, 0.0)
    w = np.where((slot >= 1) & (slot <= full[:, None]), (1.0 / cell)[:, None], 0.0)
    w[:, 0] = left
    w[np.arange(out_size), full + 1] = right
    w = w.astype(np.float32).astype(np.float64)  # OpenCV's float32 table
    return _weights.compact(np.clip(cols, 0, max(in_size - 1, 0)), w, in_size)


def area_linear_taps(in_size: int, out_size: int, inv_scale: float):
    """``INTER_AREA`` when an axis grows (either ``scale < 1``): OpenCV's bilinear variant, on
    every axis: ``i = floor(o * scale)``, ``f = f32((o + 1) - (i + 1) * inv_scale)``,
    ``f = 0 if f <= 0 else f - floor(f)``, weights ``(1 - f, f)`` on ``(i, i + 1)``; ``i`` and
    ``f`` clamped like ``INTER_LINEAR`` (``i < 0`` -> ``(0, 0)``, ``i >= in - 1`` -> ``(in - 1, 0)``).
    """
    scale = 1.0 / float(inv_scale)
    o = np.arange(out_size)
    i = np.floor(o * scale)
    f = ((o + 1) - (i + 1) * float(inv_scale)).astype(np.float32).astype(np.float64)
    f = np.where(f <= 0, 0.0, f - np.floor(f))
    f = np.where((i < 0) | (i >= in_size - 1), 0.0, f)
    i = np.clip(i, 0, in_size - 1).astype(np.int64)
    cols = np.stack([i, np.minimum(i + 1, in_size - 1)], axis=1)
    w = np.stack([1.0 - f, f], axis=1)
    return _weights.compact(cols, w, in_size)


def _interpolation(value) -> InterpolationFlags:
    """``interpolation`` as the binding reads it: ``None`` is ``INTER_LINEAR`` (the default); an
    argument it cannot parse as an int is a ``TypeError`` (its "Bad argument"), an int that is no
    ``INTER_*`` flag a ``ValueError`` (``cv::resize``'s assertion)."""
    if value is None:
        return INTER_LINEAR
    allowed = ", ".join(f"{flag.name} ({flag.value})" for flag in InterpolationFlags)
    if not isinstance(value, numbers.Integral) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"interpolation={value!r} must be an int, one of {allowed}.")
    if int(value) not in {flag.value for flag in InterpolationFlags}:
        raise ValueError(f"interpolation={value!r} is not supported; allowed values: {allowed}.")
    return InterpolationFlags(int(value))


def _dsize(dsize):
    """``None`` or ``(width, height)`` of non-negative ints; a ``TypeError`` for what the binding
    cannot parse as a size (not a sequence of two ints), a ``ValueError`` for negative entries."""
    if dsize is None:
        return 0, 0
    what = "a (width, height) pair of ints, non-negative"
    if not _v.is_traced(dsize) and np.ndim(dsize) == 1 and len(dsize) != 2:
        raise TypeError(f"dsize={tuple(dsize)!r}: dsize must be {what} (length 2, got {len(dsize)}).")
    return _v.int_sequence("dsize", dsize, length=2, what=what)


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
        _v.check_output_size((dh, dw), "dsize/fx/fy")  # before dh / h, which a huge int would overflow
        return (dh, dw), (dh / h, dw / w)
    if not (fx > 0 and fy > 0):
        raise ValueError(
            f"dsize={dsize!r} is empty, so fx and fy must be > 0; got fx={fx!r}, fy={fy!r} "
            "(give dsize=(width, height) or both scale factors)."
        )
    out = (int(np.rint(_v.finite_length(f"fy={fy!r}", h * fy))), int(np.rint(_v.finite_length(f"fx={fx!r}", w * fx))))
    if min(out) <= 0:
        raise ValueError(f"fx={fx!r}, fy={fy!r} give an empty output of (height, width) = {out} from {(h, w)}.")
    return out, (fy, fx)


def axis_record(
    interpolation: int, in_size: int, out_size: int, inv_scale: float, *, area_shrinks: bool = True, dtype=np.float32
) -> _records.Record | None:
    """One axis of ``cv2.resize`` as a record, or None (identity).

    ``area_shrinks``: whether ``INTER_AREA`` takes its true-area path (both axes have
    ``scale = 1 / inv_scale >= 1``) or OpenCV's bilinear variant. ``dtype`` is the image's; for
    ``uint8`` the linear/cubic/Lanczos weights are quantised to 11 bits as OpenCV does.
    """
    if out_size == in_size and inv_scale == 1.0:
        return None
    if interpolation == INTER_NEAREST:
        return _records.Gather(nearest_indices(in_size, out_size, inv_scale), in_size)
    if interpolation == INTER_NEAREST_EXACT:
        return _records.Gather(_pillow.nearest_indices(in_size, out_size), in_size)
    fixed = np.dtype(dtype) == np.uint8
    if interpolation == INTER_AREA and area_shrinks:
        taps = area_taps(in_size, out_size, 1.0 / inv_scale)
        fixed = False  # OpenCV's area path computes in float
    elif interpolation == INTER_AREA:
        taps = area_linear_taps(in_size, out_size, inv_scale)
    else:
        x = source_coordinates(in_size, out_size, inv_scale)
        if interpolation in (INTER_LINEAR, INTER_LINEAR_EXACT):
            taps = _weights.clamped_linear_taps(x, in_size)
        elif interpolation == INTER_CUBIC:
            taps = _weights.filter_taps(x, in_size, _kernels.keys_cubic(-0.75))
        else:  # INTER_LANCZOS4: 8 taps floor(x) - 3 .. floor(x) + 4, normalised, edge-clamped
            taps = _weights.filter_taps(x, in_size, _kernels.lanczos(4), normalize=True)
    if fixed:
        return _records.Taps(
            taps.index, _rounding.quantize_weights(taps.weight, INTER_RESIZE_COEF_BITS, ties="even"), in_size
        )
    return taps


def cv2_resize(src: ArrayLike, dsize, fx: float = 0, fy: float = 0, interpolation: int = INTER_LINEAR) -> jax.Array:
    """``cv2.resize`` in JAX: resizes an ``[H, W]`` or ``[H, W, C]`` image to ``dsize = (width, height)``.

    Output size: ``dsize`` when both entries are > 0, else ``(round(H * fy), round(W * fx))``
    (half to even). ``inv = out / in`` (from ``dsize``) or ``fx``/``fy``; ``s = 1 / inv``. An
    output of the input's size is a copy. Each axis takes the filter of its flag
    (:class:`InterpolationFlags`; ``INTER_AREA``: exact pixel areas when both ``s >= 1``,
    :func:`area_taps`, else OpenCV's bilinear variant on both axes, :func:`area_linear_taps`).

    Args:
      src: array ``[H, W]`` or ``[H, W, C]``. dtypes as OpenCV: uint8, uint16, int16, float32,
        float64 for every flag; also int8, int32, int64 for ``INTER_LINEAR_EXACT``; anything for
        the nearest flags.
      dsize: ``(width, height)`` (static ints) or ``None``/``(0, 0)`` to use ``fx``, ``fy``.
      fx, fy: scale factors (> 0 when ``dsize`` is empty; ignored otherwise).
      interpolation: one of the ``INTER_*`` constants (default, and ``None`` as in OpenCV,
        ``INTER_LINEAR``).

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
      TypeError: what OpenCV's binding cannot parse ("Bad argument"): a ``dsize`` that is not two
        ints, a non-numeric ``fx``/``fy``, a non-int ``interpolation``; traced
        ``dsize``/``fx``/``fy``; a dtype OpenCV refuses for the flag.

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
    x, dtype = _frontend.prologue("src", src, ranks=(2, 3), layout="an [H, W] or [H, W, C] image")
    if x.shape[0] == 0 or x.shape[1] == 0 or (x.ndim == 3 and x.shape[2] == 0):
        raise ValueError(f"src is empty (shape {x.shape}).")
    allowed = (
        None
        if interpolation in _NEAREST
        else (_EXACT_DTYPES if interpolation == INTER_LINEAR_EXACT else _FILTER_DTYPES)
    )
    if allowed is not None and dtype.name not in allowed:
        raise TypeError(
            f"src has dtype {dtype.name}, which cv2.resize does not support with "
            f"interpolation={interpolation.name}; allowed: {', '.join(allowed)}."
        )
    (out_h, out_w), (inv_y, inv_x) = output_size(x.shape[:2], dsize, fx, fy)
    _frontend.output_size((out_h, out_w) + tuple(x.shape[2:]), "dsize/fx/fy")
    if x.ndim == 3 and x.shape[2] == 1:
        x = x[:, :, 0]
    if (out_h, out_w) == tuple(x.shape[:2]):
        return x
    shrinks = 1.0 / inv_x >= 1 and 1.0 / inv_y >= 1
    records = [
        (0, axis_record(interpolation, int(x.shape[0]), out_h, inv_y, area_shrinks=shrinks, dtype=dtype)),
        (1, axis_record(interpolation, int(x.shape[1]), out_w, inv_x, area_shrinks=shrinks, dtype=dtype)),
    ]
    ops = [(a, r) for a, r in records if r is not None]
    if dtype == np.uint8 and interpolation not in _NEAREST and not (interpolation == INTER_AREA and shrinks):
        # Fixed-point paths end with (sum + 2**21) >> 22: round half up.
        return _apply.run(x, ops, integer=_rounding.IntegerPolicy(rounding="half_up"))
    return _apply.run(x, ops)
