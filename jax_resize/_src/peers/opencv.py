"""Peer: OpenCV's ``cv2.resize`` (``cv2_resize``) on the core layers.

Contract: same arguments (``dsize`` is ``(width, height)``), flags, size rule and output shapes as
``cv2.resize`` (opencv-python 5.1, ``modules/imgproc/src/resize.cpp``) for ``[H, W]`` and
``[H, W, C]`` images. 8-bit filters run OpenCV's own integer arithmetic (:func:`plan`: a route
and its tables, run by :mod:`.opencv_routes`, one program per shape), bit for bit with the x86-64
wheel (``INTER_CUBIC`` where the wheel calls Intel IPP: float32 taps summed in order); the nearest
flags and the other dtypes take one float record per resized axis (:func:`axis_record`;
``INTER_NEAREST_EXACT`` is Pillow's rule, :func:`..clipped_windows.nearest_indices`),
``INTER_AREA`` shrinks of 16-bit and float32 images OpenCV's summation order.
"""

from __future__ import annotations

import enum
import math
import numbers

import jax
import numpy as np
from jax.typing import ArrayLike

from .. import band_taps as _band_taps
from .. import clipped_windows as _windows
from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import validation as _v
from .. import weights as _weights
from ..execution import apply as _apply
from ..execution import ordered as _ordered
from . import opencv_linear_exact as _linear_exact
from . import opencv_routes as _routes


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
    * ``INTER_LINEAR_EXACT = 5``: ``INTER_LINEAR`` with OpenCV's bit-exact fixed point (8.8 bits
      on uint8, 16.16 on int8 and 16-bit, 32.32 on int32).
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


def area_table(in_size: int, out_size: int, scale: float):
    """``INTER_AREA``'s table when shrinking (``scale = 1 / inv_scale >= 1`` on both axes), OpenCV's
    ``computeResizeAreaTab`` in its order: output ``o`` covers ``[f1, f2) = [o * scale, o * scale +
    scale)``; its entries are the left partial pixel, the whole ones, the right partial pixel, each
    weighted by its overlap divided by ``cell = min(scale, in - f1)``, partial pixels only when
    their overlap exceeds ``1e-3`` (a row may sum to slightly less than 1), weights float32.
    Returns ``(index, weight)`` ``[out, k]`` (int64, float64 holding float32 values), absent
    entries weighted 0."""
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
    return np.clip(cols, 0, max(in_size - 1, 0)), w


def area_taps(in_size: int, out_size: int, scale: float):
    """:func:`area_table` as compact taps (the same weights, any summation order)."""
    index, weight = area_table(in_size, out_size, scale)
    return _band_taps.compact(index, weight, in_size)


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
    return _band_taps.compact(cols, w, in_size)


# --- OpenCV's own arithmetic for 8-bit images (``resizeGeneric_``, ``resize_bitExact``,
# ``resizeAreaFast_``, ``ResizeArea_Invoker``): host tables, one program per shape -----------------

_F32 = np.float32
_S45 = 0.70710678118654752440084436210485
_LANCZOS4_CS = ((1, 0), (-_S45, -_S45), (0, 1), (_S45, -_S45), (-1, 0), (_S45, _S45), (0, -1), (-_S45, _S45))


def _cubic_coefficients(x: np.ndarray) -> np.ndarray:
    """``interpolateCubic`` (``A = -0.75``) in float32 as OpenCV writes it, ``[n, 4]``."""
    a, one, t = _F32(-0.75), _F32(1), x + _F32(1)
    c0 = ((a * t - _F32(5) * a) * t + _F32(8) * a) * t - _F32(4) * a
    c1 = ((a + _F32(2)) * x - (a + _F32(3))) * x * x + one
    u = one - x
    c2 = ((a + _F32(2)) * u - (a + _F32(3))) * u * u + one
    return np.stack([c0, c1, c2, ((one - c0) - c1) - c2], axis=1)


def _lanczos4_coefficients(x: np.ndarray) -> np.ndarray:
    """``interpolateLanczos4``: ``sin``/``cos`` of ``-(x + 3) * pi / 4`` in double (C's libm), the
    8 taps rounded to float32, summed and normalised in float32; ``x < FLT_EPSILON``: a delta."""
    s0 = np.array([math.sin(v) for v in (-(x + _F32(3)).astype(np.float64) * math.pi) * 0.25])
    c0 = np.array([math.cos(v) for v in (-(x + _F32(3)).astype(np.float64) * math.pi) * 0.25])
    c = np.empty((len(x), 8), np.float32)
    total = np.zeros(len(x), np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):  # x == 0: the delta below
        for i, (cs, cc) in enumerate(_LANCZOS4_CS):
            y = (-((x + _F32(3)) - _F32(i)).astype(np.float64) * math.pi) * 0.25
            c[:, i] = ((cs * s0 + cc * c0) / (y * y)).astype(np.float32)
            total = total + c[:, i]
        c = c * (_F32(1) / total)[:, None]
    delta = np.zeros(8, np.float32)
    delta[3] = 1
    return np.where((x < np.finfo(np.float32).eps)[:, None], delta, c)


def fixed_coefficients(interpolation, in_size: int, out_size: int, inv_scale: float, *, clamp: bool = True):
    """OpenCV's 8-bit table of one axis for ``INTER_LINEAR``, ``INTER_CUBIC``, ``INTER_LANCZOS4`` and
    ``INTER_AREA`` when enlarging: the float32 fraction ``fx`` of ``(o + 0.5) / inv - 0.5`` (area:
    ``(o + 1) - (i + 1) * inv``), the filter's float32 coefficients, each ``rint(c * 2048)``
    (``INTER_RESIZE_COEF_BITS``). ``clamp`` (the horizontal axis of 2-tap filters): a position left
    or right of the image takes its edge pixel with weight 1. Returns ``index`` (int64 ``[out, k]``,
    edge-clamped) and ``weight`` (int32 ``[out, k]``)."""
    scale, o = 1.0 / float(inv_scale), np.arange(out_size, dtype=np.float64)
    if interpolation == INTER_AREA:
        i = np.floor(o * scale)
        fx = ((o + 1) - (i + 1) * float(inv_scale)).astype(np.float32)
        fx = np.where(fx <= 0, _F32(0), fx - np.floor(fx)).astype(np.float32)
    else:
        fx = ((o + 0.5) * scale - 0.5).astype(np.float32)
        i = np.floor(fx).astype(np.float64)
        fx = fx - np.floor(fx)
    if clamp:
        edge = (i < 0) | (i >= in_size - 1)
        fx = np.where(edge, _F32(0), fx).astype(np.float32)
        i = np.clip(i, 0, in_size - 1)
    if interpolation == INTER_CUBIC:
        c = _cubic_coefficients(fx)
    elif interpolation == INTER_LANCZOS4:
        c = _lanczos4_coefficients(fx)
    else:
        c = np.stack([_F32(1) - fx, fx], axis=1)
    k = c.shape[1]
    index = np.clip(i.astype(np.int64)[:, None] - (k // 2 - 1) + np.arange(k), 0, in_size - 1)
    weight = np.clip(np.rint(c * _F32(1 << INTER_RESIZE_COEF_BITS)), -32768, 32767).astype(np.int32)
    return index, weight


def _windowed(rows, cols, out_hw):
    """The row and column tables cut to a pipeline's output window (:func:`.apply.window_of`)."""
    ys, xs = _apply.window_of(0, out_hw[0]), _apply.window_of(1, out_hw[1])
    return tuple(t[ys] for t in rows), tuple(t[xs] for t in cols)


def _ipp_cubic(h: int, w: int, cn: int) -> bool:
    """Whether the x86-64 wheel resizes 8-bit ``INTER_CUBIC`` with Intel IPP (its closed float
    code, which the float records approach) rather than OpenCV's own: 1, 3 or 4 channels and an
    input of at least 4 x 4 pixels (measured with ``cv2.ipp.setUseIPP``)."""
    return cn in (1, 3, 4) and h >= 4 and w >= 4


# a pipeline's device mode: plans recorded, stacked across images, run vmap-ed by the host's executor
planned, execute, stacked = _routes.planned, _routes.execute, _routes.stacked
_two_pass = _routes.two_pass


def _float_taps(interpolation, in_size: int, out_size: int, inv_scale: float):
    """:func:`axis_record`'s taps as ``(index, weight)`` int32 / float32 ``[out, k]`` (an identity: 1 tap)."""
    record = axis_record(interpolation, in_size, out_size, inv_scale)
    if record is None:
        return np.arange(in_size, dtype=np.int32)[:, None], np.ones((in_size, 1), np.float32)
    assert isinstance(record, _records.Taps)  # INTER_CUBIC's filter: never a gather
    return np.asarray(record.index, np.int32), np.asarray(record.weight, np.float32)


def plan(interpolation, shape, dtype, out_hw, inv, ipp: bool = True) -> _routes.Plan | None:
    """``cv::hal::resize``'s route with OpenCV's own arithmetic for an image of ``shape`` (``[H, W]``
    or ``[H, W, C]``) and ``dtype`` resized to ``out_hw`` with ``inv = (inv_y, inv_x)``, its tables
    cut to a pipeline's output window, or None (the float records serve: the nearest flags, other
    dtypes). Where the wheel calls Intel IPP (8-bit ``INTER_CUBIC``, :func:`_ipp_cubic`): float32
    taps summed in order, horizontal pass first. ``INTER_LINEAR_EXACT`` is not planned here."""
    (h, w), (oh, ow), (inv_y, inv_x) = shape[:2], out_hw, inv
    cn = shape[2] if len(shape) == 3 else 1
    scale = (1.0 / inv_y, 1.0 / inv_x)
    iscale = tuple(int(np.rint(v)) for v in scale)
    area_fast = all(abs(v - i) < np.finfo(np.float64).eps for v, i in zip(scale, iscale))
    if interpolation == INTER_LINEAR and area_fast and iscale == (2, 2):
        interpolation = INTER_AREA
    if interpolation == INTER_AREA and min(scale) >= 1:
        if area_fast:
            if dtype.name not in ("uint8", "uint16", "int16"):
                return None
            pairs = iscale == (2, 2) and cn in (1, 3, 4)
            ys, xs = _windowed(_routes.block_taps(h, oh, iscale[0]), _routes.block_taps(w, ow, iscale[1]), (oh, ow))
            scalars = (np.asarray(pairs), np.asarray(1.0 / (iscale[0] * iscale[1]), np.float32))
            return _routes.Plan("blocks", ys, xs, scalars, dtype.name)
        if dtype.name not in ("uint8", "uint16", "int16", "float32"):
            return None
        ys, xs = [
            (i.astype(np.int32), wt.astype(np.float32))
            for i, wt in (area_table(h, oh, scale[0]), area_table(w, ow, scale[1]))
        ]
        ys, xs = _windowed(ys, xs, (oh, ow))
        return _routes.Plan("ordered", ys, xs, (), dtype.name)
    if dtype != np.uint8 or interpolation in _NEAREST:
        return None
    if interpolation == INTER_CUBIC and ipp and _ipp_cubic(h, w, cn):  # IPP's closed code, within 1
        ys, xs = _windowed(_float_taps(INTER_CUBIC, h, oh, inv_y), _float_taps(INTER_CUBIC, w, ow, inv_x), (oh, ow))
        return _routes.Plan("ordered", ys, xs, (), "uint8")
    form = {INTER_LINEAR: "mulhi", INTER_AREA: "mulhi", INTER_LANCZOS4: "shift22", INTER_CUBIC: "float"}[interpolation]
    rows = fixed_coefficients(interpolation, h, oh, inv_y, clamp=False)
    cols = fixed_coefficients(interpolation, w, ow, inv_x, clamp=form == "mulhi")
    cols = cols + (_routes.vector_lanes(ow, cn),) if form == "float" else cols
    ys, xs = _windowed(rows, cols, (oh, ow))
    return _routes.Plan(form, ys, xs, (), "uint8")


def _own_arithmetic(x, interpolation, dtype, out_hw, inv, ipp: bool = True) -> jax.Array | None:
    """``cv::hal::resize``'s routes with OpenCV's own arithmetic (:func:`plan`, run by
    :func:`.opencv_routes.run`), or None (the float records serve). ``inv = (inv_y, inv_x)``."""
    (h, w), (oh, ow), (inv_y, inv_x) = x.shape[:2], out_hw, inv
    cn = x.shape[2] if x.ndim == 3 else 1
    scale = (1.0 / inv_y, 1.0 / inv_x)
    iscale = tuple(int(np.rint(v)) for v in scale)
    area_fast = all(abs(v - i) < np.finfo(np.float64).eps for v, i in zip(scale, iscale))
    u8 = dtype == np.uint8
    if interpolation == INTER_LINEAR_EXACT:
        # OpenCV's 2x area route has no int8/int32 function (it asserts): those stay bit-exact linear
        if not (area_fast and iscale == (2, 2) and cn != 2 and dtype.name in ("uint8", "uint16", "int16")):
            if not u8:  # 16.16 (int8, 16-bit) or 32.32 (int32) fixed point; floats: INTER_LINEAR
                return _linear_exact.resize(x, dtype, (oh, ow), inv) if dtype.kind in "iu" else None
            coefficients = _linear_exact.exact_linear_coefficients
            tables = coefficients(h, oh, inv_y), coefficients(w, ow, inv_x)
            return _ordered.program(_two_pass)(x, *_windowed(*tables, (oh, ow)), form="shift16")
        interpolation = INTER_AREA
    found = plan(interpolation, x.shape, dtype, out_hw, inv, ipp)
    return None if found is None else _routes.run(x, found)


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
    interpolation: int, in_size: int, out_size: int, inv_scale: float, *, area_shrinks: bool = True
) -> _records.Record | None:
    """One axis of ``cv2.resize`` as a float record, or None (identity): the filter of the flag at
    OpenCV's coordinates, weights in float64 (the float paths, and the wheel's Intel IPP calls).

    ``area_shrinks``: whether ``INTER_AREA`` takes its true-area path (both axes have
    ``scale = 1 / inv_scale >= 1``) or OpenCV's bilinear variant.
    """
    if out_size == in_size and inv_scale == 1.0:
        return None
    if interpolation == INTER_NEAREST:
        return _records.Gather(nearest_indices(in_size, out_size, inv_scale), in_size)
    if interpolation == INTER_NEAREST_EXACT:
        return _records.Gather(_windows.nearest_indices(in_size, out_size), in_size)
    if interpolation == INTER_AREA and area_shrinks:
        return area_taps(in_size, out_size, 1.0 / inv_scale)
    if interpolation == INTER_AREA:
        return area_linear_taps(in_size, out_size, inv_scale)
    x = source_coordinates(in_size, out_size, inv_scale)
    if interpolation in (INTER_LINEAR, INTER_LINEAR_EXACT):
        return _weights.clamped_linear_taps(x, in_size)
    if interpolation == INTER_CUBIC:
        return _weights.filter_taps(x, in_size, _kernels.keys_cubic(-0.75))
    # INTER_LANCZOS4: 8 taps floor(x) - 3 .. floor(x) + 4, normalised, edge-clamped
    return _weights.filter_taps(x, in_size, _kernels.lanczos(4), normalize=True)


def cv2_resize(
    src: ArrayLike, dsize, fx: float = 0, fy: float = 0, interpolation: int = INTER_LINEAR, *, ipp: bool = True
) -> jax.Array:
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
      ipp: whether the OpenCV to match calls Intel IPP where the x86-64 wheel does (default);
        ``False``: OpenCV's own 8-bit ``INTER_CUBIC`` everywhere, as after
        ``cv2.ipp.setUseIPP(False)`` and in builds without IPP (its other paths are the same).

    Returns:
      Array ``[out_h, out_w]`` or ``[out_h, out_w, C]`` of ``src``'s dtype; like OpenCV, a
      one-channel ``[H, W, 1]`` image comes back as ``[out_h, out_w]``; int64 images are int32
      values (as OpenCV's binding passes them) and come back int32 unless ``jax_enable_x64`` is
      on. Beyond OpenCV: ``INTER_LINEAR_EXACT`` halving int8/int32 images (OpenCV's area route
      has no function for them) gives its linear result; ``INTER_AREA``
      shrinking by a non-integer factor also accepts more than 4 channels (OpenCV asserts
      ``cn <= 4`` there).

    Exactness (against the x86-64 wheel of opencv-python 5.1, ``tests/test_compat_cv2.py``):

    * uint8: bit for bit for every flag, with OpenCV's own arithmetic: 11-bit coefficients, the
      vertical pass of ``INTER_LINEAR`` / ``INTER_AREA`` (enlarging) as its vector code computes
      it, ``INTER_LINEAR_EXACT``'s 8.8 fixed point, ``INTER_AREA``'s integer-factor blocks and
      float sums in OpenCV's order, ``INTER_LANCZOS4``'s 22-bit shift, ``INTER_CUBIC``'s float32
      vector loop and integer tail (groups of 8 values: the wheel's AVX2 dispatch). Except
      ``INTER_CUBIC`` on 1, 3 or 4 channels of at least 4 x 4 pixels, which the wheel hands to
      Intel IPP (closed source): float32 weights summed in tap order, horizontal pass first,
      within 1 (a fraction of a percent of pixels);
      with ``ipp=False`` OpenCV's own, bit for bit with ``cv2.ipp.setUseIPP(False)``.
    * uint16/int16: ``INTER_LINEAR_EXACT`` bit for bit (OpenCV's 16.16 fixed point with its
      32.32 sums, emulated in 32-bit integers: :mod:`.opencv_linear_exact`), as are int8 (16.16)
      and int32 (32.32, products rounded half away from zero); ``INTER_AREA`` shrinking bit
      exact; the other filters within 1 (IPP computes linear and cubic).
    * float32/float64: within float32 rounding (about 1e-5 of the largest value).
    * A pipeline's device mode (``jax_resize.grain``, ``device=True``) runs the same plans
      (:func:`plan`) stacked across images: the same bits, IPP's cubic included.

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

    Source: OpenCV ``cv::resize`` and ``cv::hal::resize`` (``modules/imgproc/src/resize.cpp``:
    ``resizeNN``, ``resizeNN_bitexact``, ``resizeGeneric_``, ``resize_bitExact``,
    ``resizeAreaFast_``, ``ResizeArea_Invoker``, ``computeResizeAreaTab``, ``interpolateCubic``,
    ``interpolateLanczos4``).
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
    own = _own_arithmetic(x, interpolation, dtype, (out_h, out_w), (inv_y, inv_x), _v.boolean("ipp", ipp))
    if own is not None:
        return own
    shrinks = 1.0 / inv_x >= 1 and 1.0 / inv_y >= 1
    records = [
        (0, axis_record(interpolation, int(x.shape[0]), out_h, inv_y, area_shrinks=shrinks)),
        (1, axis_record(interpolation, int(x.shape[1]), out_w, inv_x, area_shrinks=shrinks)),
    ]
    return _apply.run(x, [(a, r) for a, r in records if r is not None])
