"""TensorFlow's resize kernels (``tensorflow/core/kernels/image/``) on one axis: each record built
on the host in TensorFlow's own float32 arithmetic — its scale and source coordinates
(:func:`resize_scale`, :func:`source_coordinates`), ``ResizeNearestNeighbor``
(:func:`nearest_indices`), ``ResizeBilinear`` (:func:`bilinear_taps`), ``ResizeBicubic``'s
1025-entry Keys table (:func:`bicubic_taps`), ``ResizeArea``'s overlaps and final factor
(:func:`area_taps`, :func:`area_factor`) and ``ScaleAndTranslate``'s windows and kernels
(:func:`scale_and_translate_taps`: Lanczos and Gaussian in TensorFlow's evaluation order).
A part of the TensorFlow peer: :mod:`.tensorflow` resolves the arguments and applies these records.

The per-axis weights equal TensorFlow's bit for bit, except Lanczos's (``sinf`` is emulated by the
float64 sine rounded to float32: a last-bit difference for a few arguments).
"""

from __future__ import annotations

import functools

import numpy as np

from .. import band_taps as _band_taps
from .. import kernels as _kernels
from .. import records as _records
from .. import weights as _weights

_F32 = np.float32

# --- ScaleAndTranslate's kernels in TensorFlow's evaluation order (sampling_kernels.h): float32
# arithmetic on float32 distances; ``std::sin`` of a float (emulated by the float64 sine rounded to
# float32), the Gaussian's exponential in float64 --------------------------------------------------

_PI = _F32(3.14159265359)


def _kernel(name: str, radius: float, profile) -> _kernels.Kernel:
    """A kernel ``profile(d / stretch)`` evaluated on float32 host (numpy) distances."""
    return _kernels.Kernel(name, radius, _kernels.scaled(lambda xp, d: profile(d), dtype=_F32))


def _lanczos(radius: int) -> _kernels.Kernel:
    r = _F32(radius)

    def profile(d):
        x = np.abs(d)
        sine = lambda v: np.sin(v.astype(np.float64)).astype(_F32)  # noqa: E731
        with np.errstate(divide="ignore", invalid="ignore"):
            y = r * sine(_PI * x) * sine(_PI * x / r) / (_PI * _PI * x * x)
        return np.where(x > r, _F32(0), np.where(x.astype(np.float64) <= 1e-3, _F32(1), y))

    return _kernel(f"tf_lanczos{radius}", float(radius), profile)


def _gaussian_profile(d):
    # radius 1.5, sigma = 1.5 / 3 = 0.5: exp(-x^2 / (2 sigma^2)) with -x^2 in float32
    x = np.abs(d)
    y = np.exp((-(x * x)).astype(np.float64) / 0.5).astype(_F32)
    return np.where(x >= _F32(1.5), _F32(0), y)


#: ``ScaleAndTranslate``'s ``kernel_type`` names used by ``tf.image.resize`` -> kernel. Triangle,
#: Keys and Mitchell-Netravali evaluate in float32 exactly as TensorFlow's do; Lanczos and Gaussian
#: follow its order (the generic ``kernels.gaussian`` / ``kernels.lanczos`` round differently).
SCALE_AND_TRANSLATE_KERNELS = {
    "triangle": _kernels.TRIANGLE,
    "keyscubic": _kernels.keys_cubic(-0.5),
    "lanczos3": _lanczos(3),
    "lanczos5": _lanczos(5),
    "gaussian": _kernel("tf_gaussian", 1.5, _gaussian_profile),
    "mitchellcubic": _kernels.MITCHELL,
}
#: ``tf.image.resize``'s kernel for ``antialias=True`` or a ScaleAndTranslate-only method.
_V2_KERNEL = {"bilinear": "triangle", "bicubic": "keyscubic"}

#: ``ResizeBicubic``'s coefficient table has ``TABLE_SIZE + 1`` entries per branch.
TABLE_SIZE = 1024
#: Weight sums at most this are left unnormalised (ResizeBicubic, ScaleAndTranslate).
_TINY = _F32(1000.0) * np.finfo(np.float32).tiny


# --- coordinates -----------------------------------------------------------------------------------


def resize_scale(in_size: int, out_size: int, align_corners: bool = False) -> np.float32:
    """TensorFlow's resize scale in float32: ``(in - 1) / (out - 1)`` with ``align_corners`` when
    ``in > 1`` and ``out > 1``, else ``in / out`` (both lengths converted to float32 first)."""
    if align_corners and in_size > 1 and out_size > 1:
        return _F32(in_size - 1) / _F32(out_size - 1)
    return _F32(in_size) / _F32(out_size)


def source_coordinates(in_size: int, out_size: int, *, align_corners=False, half_pixel_centers=True) -> np.ndarray:
    """The float32 input coordinate of every output index: ``(f32(o) + 0.5) * scale - 0.5`` with
    ``half_pixel_centers``, else ``f32(o) * scale`` (``scale``: :func:`resize_scale`). ``[out]``."""
    scale = resize_scale(in_size, out_size, align_corners)
    o = np.arange(out_size).astype(_F32)
    if half_pixel_centers:
        return (o + _F32(0.5)) * scale - _F32(0.5)
    return o * scale


def nearest_indices(in_size: int, out_size: int, *, align_corners=False, half_pixel_centers=True) -> np.ndarray:
    """``ResizeNearestNeighbor``'s source indices, ``[out_size]`` int64.

    ``min(floorf(c), in - 1)`` with ``c = (f32(o) + 0.5) * scale`` (half-pixel centres) or
    ``c = f32(o) * scale``; ``roundf`` (half away from zero) instead of ``floorf`` with
    ``align_corners``.
    """
    scale = resize_scale(in_size, out_size, align_corners)
    o = np.arange(out_size).astype(_F32)
    c = (o + _F32(0.5)) * scale if half_pixel_centers else o * scale
    return _weights.nearest_indices(c, in_size, "round_prefer_ceil" if align_corners else "floor")


# --- filters ---------------------------------------------------------------------------------------


def bilinear_taps(in_size: int, out_size: int, *, align_corners=False, half_pixel_centers=True) -> _records.Taps:
    """``ResizeBilinear``: ``(1 - t) in[lo] + t in[hi]`` with ``lo = max(floor(x), 0)``,
    ``hi = min(ceil(x), in - 1)``, ``t = x - floor(x)`` (not clamped) for the float32 coordinate
    ``x`` of :func:`source_coordinates`."""
    x = source_coordinates(in_size, out_size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)
    floor = np.floor(x)
    lo = np.maximum(floor, 0).astype(np.int64)
    hi = np.minimum(np.ceil(x), in_size - 1).astype(np.int64)
    t = x - floor  # exact in float32
    cols = np.stack([lo, hi], axis=1).astype(np.int32)
    w = np.stack([_F32(1) - t, t], axis=1).astype(np.float64)
    return _band_taps.compact(cols, w, in_size)


@functools.cache
def keys_table(a: float) -> np.ndarray:
    """``ResizeBicubic``'s coefficient table ``[TABLE_SIZE + 1, 2]`` float32: entry ``i`` holds
    Keys' kernel with parameter ``a`` at ``t = i / 1024`` and at ``1 + t``, evaluated in float64 and
    rounded to float32 (read-only)."""
    t = np.arange(TABLE_SIZE + 1) / TABLE_SIZE
    keys = _kernels.keys_cubic(float(a))
    table = np.stack([keys(np, t), keys(np, t + 1.0)], axis=1).astype(_F32)
    table.setflags(write=False)
    return table


def bicubic_taps(in_size: int, out_size: int, *, align_corners=False, half_pixel_centers=True) -> _records.Taps:
    """``ResizeBicubic``: four taps ``floor(x) - 1 ... floor(x) + 2`` around the float32
    coordinate ``x`` (:func:`source_coordinates`), weights from :func:`keys_table` at
    ``k = lrintf(1024 (x - floor(x)))`` (half to even): ``T[k, 1], T[k, 0], T[1024 - k, 0],
    T[1024 - k, 1]``.

    Half-pixel centres: a = -0.5, taps outside the image get weight 0 and every row is multiplied
    by the float32 reciprocal of its float32 sum (when that sum exceeds ``1000 * FLT_MIN``).
    Otherwise a = -0.75 and outside taps read the edge pixel.
    """
    x = source_coordinates(in_size, out_size, align_corners=align_corners, half_pixel_centers=half_pixel_centers)
    floor = np.floor(x)
    k = np.rint((x - floor) * _F32(TABLE_SIZE)).astype(np.int64)
    table = keys_table(-0.5 if half_pixel_centers else -0.75)
    w = np.stack([table[k, 1], table[k, 0], table[TABLE_SIZE - k, 0], table[TABLE_SIZE - k, 1]], axis=1)
    taps = floor.astype(np.int64)[:, None] + np.arange(-1, 3)[None, :]
    if half_pixel_centers:
        w = np.where((taps >= 0) & (taps < in_size), w, _F32(0))
        w = _normalize_f32(w)
    cols = np.clip(taps, 0, in_size - 1).astype(np.int32)
    return _band_taps.compact(cols, w.astype(np.float64), in_size)


def _normalize_f32(w: np.ndarray) -> np.ndarray:
    """Rows times the float32 reciprocal of their float32 sum, summed left to right; rows whose
    sum is at most ``1000 * FLT_MIN`` in magnitude are left as they are."""
    total = np.zeros(w.shape[0], _F32)
    for j in range(w.shape[1]):
        total = total + w[:, j]
    big = np.abs(total) >= _TINY
    inv = _F32(1) / np.where(big, total, _F32(1))
    return np.where(big[:, None], w * inv[:, None], w)


def area_taps(in_size: int, out_size: int, *, align_corners=False) -> _records.Taps:
    """``ResizeArea``'s overlaps on one axis (not yet divided by the scale): output ``o`` covers
    ``[f32(o) * s, f32(o + 1) * s)`` (``s``: :func:`resize_scale`); pixel ``i`` of
    ``floor(f32(o) * s) <= i < ceil(f32(o + 1) * s)`` gets its float32 overlap with that interval
    (``s`` when the interval lies inside the pixel), pixels past the edge read the edge pixel.
    Each row sums to about ``s``; :func:`area_factor` divides the product of both axes' sums."""
    s = resize_scale(in_size, out_size, align_corners)
    o = np.arange(out_size)
    lo, hi = o.astype(_F32) * s, (o + 1).astype(_F32) * s
    start, end = np.floor(lo).astype(np.int64), np.ceil(hi).astype(np.int64)
    width = int(max(1, (end - start).max(initial=1)))
    i = start[:, None] + np.arange(width)[None, :]
    fi, one = i.astype(_F32), _F32(1)
    lo, hi = lo[:, None], hi[:, None]
    overlap = np.where(
        fi < lo,
        np.where(fi + one > hi, s, fi + one - lo),
        np.where(fi + one > hi, hi - fi, one),
    )
    overlap = np.where(i < end[:, None], overlap, _F32(0))
    cols = np.clip(i, 0, in_size - 1).astype(np.int32)
    return _band_taps.compact(cols, overlap.astype(np.float64), in_size)


def area_factor(in_hw, out_hw, *, align_corners=False) -> np.float32:
    """``ResizeArea``'s final factor ``f32(1 / (s_h * s_w))`` (the product of the two float32
    scales of :func:`resize_scale`, its reciprocal taken in float64): TensorFlow sums
    ``sum_h s_h(i) sum_w s_w(j) in[i, j]`` in float32 and multiplies by it once."""
    s_h, s_w = (resize_scale(n, o, align_corners) for n, o in zip(in_hw, out_hw))
    return _F32(1.0 / np.float64(s_h * s_w))


def scale_and_translate_taps(
    in_size: int,
    out_size: int,
    kernel_type: str,
    *,
    antialias: bool = True,
    scale: float | None = None,
    translate: float = 0.0,
) -> _records.Taps:
    """``ScaleAndTranslate`` spans of one axis (``tf.image.resize``'s antialiased and
    lanczos/gaussian/mitchellcubic methods), in float32.

    ``inv = f32(1 / scale)`` (``scale = f32(out) / f32(in)`` by default), sample
    ``s = (o + 0.5) * inv - translate * inv``, ``ks = max(inv, 1)`` with ``antialias`` (else 1),
    ``r = radius * ks``; taps ``ceil(s - r - 0.5) ... floor(s + r - 0.5)`` clipped to the image,
    weights ``kernel(|f32(j) + 0.5 - s| * (1 / ks))``, normalised like ResizeBicubic's. A sample
    outside ``[0, in]`` gets an empty row (output 0).
    """
    kernel = SCALE_AND_TRANSLATE_KERNELS[kernel_type]
    scale32 = _F32(out_size) / _F32(in_size) if scale is None else _F32(scale)
    inv = _F32(1.0 / np.float64(scale32))
    inv_translate = -inv * _F32(translate)
    kernel_scale = _kernels.stretch(inv, one=_F32(1)) if antialias else _F32(1)
    reach = _F32(kernel.radius) * kernel_scale
    span = min(2 * int(np.ceil(reach)) + 1, in_size)
    sample = (np.arange(out_size).astype(_F32) + _F32(0.5)) * inv + inv_translate
    inside = (sample >= 0) & (sample <= in_size)
    start = np.clip(np.ceil(sample - reach - _F32(0.5)), 0, in_size - 1).astype(np.int64)
    end = np.clip(np.floor(sample + reach - _F32(0.5)), 0, in_size - 1).astype(np.int64) + 1
    j = start[:, None] + np.arange(span)[None, :]
    position = (j.astype(_F32) + _F32(0.5)) - sample[:, None]
    w = kernel(np, np.abs(position * (_F32(1) / kernel_scale))).astype(_F32)
    w = np.where((j < end[:, None]) & inside[:, None], w, _F32(0))
    w = _normalize_f32(w)
    cols = np.clip(j, 0, in_size - 1).astype(np.int32)
    return _band_taps.compact(cols, w.astype(np.float64), in_size)


def filter_records(method: str, *, antialias=False, align_corners=False, half_pixel_centers=True):
    """``(in, out) -> record`` of one TensorFlow resize kernel (nearest: the gather indices)."""
    geometry = dict(align_corners=align_corners, half_pixel_centers=half_pixel_centers)
    if method == "nearest":
        return functools.partial(nearest_indices, **geometry)
    if method == "area":
        return functools.partial(area_taps, align_corners=align_corners)
    if method in ("bilinear", "bicubic") and not antialias:
        return functools.partial(bilinear_taps if method == "bilinear" else bicubic_taps, **geometry)
    return functools.partial(scale_and_translate_taps, kernel_type=_V2_KERNEL.get(method, method), antialias=antialias)
