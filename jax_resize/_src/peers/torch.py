"""Peer: ``torch.nn.functional.interpolate`` (``torch_interpolate``) on the core layers.

Same arguments, defaults, checks and output shapes as ``F.interpolate`` (PyTorch 2.13, CPU,
contiguous ``[N, C, *spatial]``); one record per resized axis (:func:`axis_record`) in PyTorch's
coordinate arithmetic, with its weights (antialias: Pillow's window and kernels,
:mod:`..clipped_windows`) and its uint8 int16 fixed point; :func:`torch_interpolate` states the rules.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from .. import clipped_windows as _windows
from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import rounding as _rounding
from .. import validation as _v
from .. import weights as _weights
from ..execution import apply as _apply

MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area", "lanczos")
#: Modes tied to one input rank (``F.interpolate`` raises for the others).
_RANK = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5, "lanczos": 4}
_NO_ALIGN_CORNERS = ("nearest", "area", "nearest-exact")
_ANTIALIAS_MODES = ("bilinear", "bicubic", "lanczos")
#: PyTorch's CPU uint8 modes (floats take every mode; antialias only float32/float64).
_UINT8_MODES = ("nearest", "nearest-exact", "bilinear", "bicubic", "lanczos")
_SPATIAL = ", one per spatial dimension of the [N, C, *spatial] input (spatial rank {})"
#: uint8 filters: each pass rounded half up in units of 2**-22, where every weight ``k / 2**p`` of
#: :func:`uint8_precision` (``p <= 22``) is exact, so a pass is ``(2**(p - 1) + sum(x k)) >> p``.
UINT8_POLICY = _rounding.IntegerPolicy(rounding="half_up", fixed_point_bits=22)


# --- coordinates, in PyTorch's "opmath" type (:func:`axis_record`) -------------------------------


def scale_of(
    in_size: int, out_size: int, scale_factor: float | None = None, align_corners: bool = False, dtype=np.float32
):
    """PyTorch's ``area_pixel_compute_scale`` in ``dtype``: ``(in - 1) / (out - 1)`` with
    ``align_corners`` (0 for ``out == 1``), else ``1 / scale_factor`` (in float64, then rounded) when
    one is used, else ``in / out`` (both converted to ``dtype`` first)."""
    t = np.dtype(dtype).type
    if align_corners:
        return t(in_size - 1) / t(out_size - 1) if out_size > 1 else t(0)
    if scale_factor is not None and scale_factor > 0:
        return t(1.0 / scale_factor)
    return t(in_size) / t(out_size)


def fused_multiply_add(a, b, c: float, dtype=np.float32) -> np.ndarray:
    """``a * b + c`` rounded once to ``dtype``, as the FMA of PyTorch's AVX2/AVX-512 kernels: float32's
    product and the sum with ``c = -0.5`` are exact in float64 (Sterbenz); float64's product error
    is recovered exactly (Dekker's two-product, Veltkamp splitting) and added back in one rounding."""
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


def source_coordinates(
    in_size: int,
    out_size: int,
    *,
    scale_factor: float | None = None,
    align_corners: bool = False,
    cubic: bool = False,
    dtype=np.float32,
) -> np.ndarray:
    """PyTorch's ``area_pixel_compute_source_index``, ``[out_size]`` of ``dtype``: ``scale * o`` with
    ``align_corners``, else ``fma(scale, o + 0.5, -0.5)`` (one rounding), negatives clamped to 0
    unless ``cubic``; ``scale`` is :func:`scale_of`."""
    s = scale_of(in_size, out_size, scale_factor, align_corners, dtype)
    o = np.arange(out_size)
    if align_corners:
        return o.astype(dtype) * s
    x = fused_multiply_add(s, o + 0.5, -0.5, dtype)
    return x if cubic else np.maximum(x, np.dtype(dtype).type(0))


def nearest_indices(
    in_size: int,
    out_size: int,
    *,
    scale_factor: float | None = None,
    exact: bool = False,
    dtype=np.float32,
    shortcuts: bool = False,
) -> np.ndarray:
    """``mode='nearest'`` / ``'nearest-exact'`` source indices, int64 ``[out_size]`` in ``[0, in_size - 1]``:
    ``min(floorf(o * scale), in - 1)`` / ``min(floorf(x + 0.5), in - 1)`` (``x``:
    :func:`source_coordinates`), ``scale`` of :func:`scale_of`, in ``dtype``, ``floorf`` of float32
    (the contiguous CPU kernel). ``shortcuts``: the 2-D ``nearest`` kernel (4-D inputs) gives ``o``
    for ``out == in`` and ``o // 2`` for ``out == 2 * in``, whatever the scale factor (torch 2.13)."""
    if shortcuts and not exact and out_size in (in_size, 2 * in_size):
        return np.arange(out_size, dtype=np.int64) // (out_size // in_size)
    if exact:
        x = source_coordinates(in_size, out_size, scale_factor=scale_factor, dtype=dtype)
        v = x + np.dtype(dtype).type(0.5)
    else:
        s = scale_of(in_size, out_size, scale_factor, False, dtype)
        v = np.arange(out_size).astype(dtype) * s
    return _weights.nearest_indices(v.astype(np.float32), in_size, "floor")


def antialias_centers(
    in_size: int, out_size: int, *, scale_factor: float | None = None, align_corners: bool = False, dtype=np.float32
):
    """Centres of PyTorch's antialias kernels (``_upsample_*_aa``): ``scale * (o + 0.5)`` rounded to
    ``dtype``, ``scale`` of :func:`scale_of` (``align_corners`` too), continuous coordinates as
    :func:`..clipped_windows.centers`. Returns ``(center [out_size] float64, scale)``."""
    s = scale_of(in_size, out_size, scale_factor, align_corners, dtype)
    center = (float(s) * (np.arange(out_size) + 0.5)).astype(dtype)
    return center.astype(np.float64), float(s)


# --- weights -------------------------------------------------------------------------------------


def adaptive_average_taps(in_size: int, out_size: int) -> _records.Taps:
    """Adaptive average pooling (``mode='area'``): the mean of ``[start, end)`` with
    ``start = floor(o * in / out)``, ``end = ceil((o + 1) * in / out)`` (exact integer arithmetic,
    ``adaptive_avg_pool1d/2d/3d``)."""
    o = np.arange(out_size, dtype=np.int64)
    start = (o * in_size) // out_size
    end = -((-(o + 1) * in_size) // out_size)
    k = int((end - start).max(initial=1))
    first = np.minimum(start, in_size - k)  # contiguous band of width k inside the input
    index = first[:, None] + np.arange(k)[None, :]
    inside = (index >= start[:, None]) & (index < end[:, None])
    return _records.Taps(index.astype(np.int32), np.where(inside, 1.0 / (end - start)[:, None], 0.0), in_size)


def uint8_precision(weight) -> int:
    """Bits of PyTorch's int16 uint8 weights for one axis: the largest ``p < 22`` with
    ``int(0.5 + max(w) * 2**(p + 1)) < 2**15`` (``_compute_index_ranges_int16_weights``)."""
    w_max = float(np.max(weight, initial=0.0))
    p = 0
    while p < 22 and int(0.5 + w_max * (1 << (p + 1))) < (1 << 15):
        p += 1
    return p


def output_sizes(in_sizes, size=None, scale_factor=None, recompute_scale_factor=None, mode="nearest"):
    """``F.interpolate``'s output spatial sizes and its kernels' scale factors: ``size``, or
    ``floor(in * scale_factor)`` with factors kept unless ``recompute_scale_factor`` (or
    ``mode='area'``) drops them for ``in / out``. Returns ``(sizes, scale_factors)``, lists of
    ``len(in_sizes)`` (factors may be None)."""
    dim = len(in_sizes)
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if size is not None:
        return list(_v.per_axis("size", size, dim, integer=True, where=_SPATIAL.format(dim))), [None] * dim
    factors = list(_v.per_axis("scale_factor", scale_factor, dim, integer=False, where=_SPATIAL.format(dim)))
    sizes = [math.floor(_v.finite_length(f"scale_factor={scale_factor!r}", n * f)) for n, f in zip(in_sizes, factors)]
    for n, f, o in zip(in_sizes, factors, sizes):
        if o <= 0:
            raise ValueError(
                f"scale_factor={scale_factor!r} gives an empty output: floor({n} * {f}) = {o}; "
                "output sizes must be > 0."
            )
    if recompute_scale_factor or mode == "area":
        factors = [None] * dim
    return sizes, factors


def _check_dtype(dtype: np.dtype, mode: str, antialias: bool) -> None:
    name = dtype.name
    if name in ("float32", "float64"):
        return
    if name in ("float16", "bfloat16") and not antialias:
        return
    if name == "uint8" and mode in _UINT8_MODES:
        return
    if name == "uint8":
        allowed = f"uint8 only with mode in {_UINT8_MODES}"
    else:
        allowed = "float32, float64; float16/bfloat16 without antialias; uint8 with some modes"
    raise TypeError(
        f"input has dtype {name}, which F.interpolate (CPU) does not implement for mode={mode!r}"
        f"{' with antialias=True' if antialias else ''}; allowed: {allowed}."
    )


def axis_record(
    mode: str,
    in_size: int,
    out_size: int,
    *,
    scale_factor=None,
    align_corners: bool = False,
    antialias: bool = False,
    dtype=np.float32,
    two_d: bool = False,
    first_row_only: bool = False,
) -> _records.Record | None:
    """One axis of ``F.interpolate`` as a record, or None (PyTorch copies the axis).

    ``dtype`` (the input's) sets PyTorch's "opmath": float64 coordinates for float64 inputs and uint8
    filters, else float32. ``two_d``: an axis of a 4-D input (``nearest``'s 2-D shortcuts);
    ``first_row_only``: every output takes output 0's taps (the float antialias kernel on H when
    the output width is 1). uint8 filters get int16 weights ``k / 2**p`` (:func:`uint8_precision`).
    """
    dtype = np.dtype(dtype)
    if mode in ("nearest", "nearest-exact"):
        arith = np.float64 if dtype == np.float64 else np.float32
        idx = nearest_indices(
            in_size, out_size, scale_factor=scale_factor, exact=mode == "nearest-exact", dtype=arith, shortcuts=two_d
        )
        if out_size == in_size and np.array_equal(idx, np.arange(in_size)):
            return None
        return _records.Gather(idx, in_size)
    if mode == "area":
        return None if out_size == in_size else adaptive_average_taps(in_size, out_size)
    arith = np.float64 if dtype in (np.float64, np.uint8) else np.float32
    if antialias:
        if out_size == in_size:  # PyTorch skips the axis
            return None
        kernel = {
            "bilinear": _kernels.TRIANGLE,
            "bicubic": _kernels.keys_cubic_factored(-0.5),
            "lanczos": _kernels.LANCZOS3_SINC_PRODUCT,
        }
        center_scale = antialias_centers(
            in_size, out_size, scale_factor=scale_factor, align_corners=align_corners, dtype=arith
        )
        taps = _windows.axis_taps(in_size, out_size, kernel[mode], center_scale=center_scale)
    elif mode == "bicubic":
        if out_size == in_size and (scale_factor is None or align_corners or dtype == np.uint8):
            return None  # x = o (one-hot weights); uint8's separable kernel skips the axis
        x = source_coordinates(
            in_size, out_size, scale_factor=scale_factor, align_corners=align_corners, cubic=True, dtype=arith
        )
        taps = _weights.filter_taps(x.astype(np.float64), in_size, _kernels.keys_cubic(-0.75))
    else:  # linear, bilinear, trilinear
        if out_size == in_size:  # PyTorch copies (whatever the scale factor)
            return None
        x = source_coordinates(in_size, out_size, scale_factor=scale_factor, align_corners=align_corners, dtype=arith)
        taps = _weights.clamped_linear_taps(x, in_size)
    index, weight = taps.index, taps.weight
    if first_row_only:
        index, weight = np.repeat(index[:1], out_size, axis=0), np.repeat(weight[:1], out_size, axis=0)
    if dtype == np.uint8:
        weight = _rounding.quantize_weights(weight, uint8_precision(weight))
    return _records.Taps(index, weight, in_size)


def torch_interpolate(
    input: ArrayLike,
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias: bool = False,
) -> jax.Array:
    """``torch.nn.functional.interpolate`` in JAX: resamples the spatial axes of ``[N, C, *spatial]``.

    Output size: ``size``, or ``floor(in * scale_factor)``. The kernels' scale: ``s = 1 /
    scale_factor`` when given and ``recompute_scale_factor`` is not true, else ``in / out``
    (``(in - 1) / (out - 1)`` with ``align_corners=True``). Per axis, in PyTorch's float32
    arithmetic (float64 for float64 inputs and uint8 filters):

    * ``nearest``: ``src = min(floor(o * s), in - 1)`` (4-D inputs: ``o`` when ``out == in``,
      ``o // 2`` when ``out == 2 in``); ``nearest-exact``: ``src = min(floor(x + 0.5), in - 1)``,
      ``x = max(0, s (o + 0.5) - 0.5)``;
    * ``linear``/``bilinear``/``trilinear``: 2-tap linear at ``x = s (o + 0.5) - 0.5`` clamped to
      ``[0, in - 1]`` (``x = s o`` with ``align_corners``); an axis with ``out == in`` is copied;
    * ``bicubic``: Keys cubic (a = -0.75) at the unclamped ``x``, the 4 tap indices clamped to
      the edge (float inputs resample an axis with ``out == in`` too; uint8 copies it);
    * ``antialias=True`` (``bilinear``, ``bicubic``, ``lanczos``): Pillow's window
      (:func:`..clipped_windows.clipped_window_taps`) around ``center = s (o + 0.5)`` (triangle; Keys
      a = -0.5; Lanczos-3); an axis with ``out == in`` is copied. PyTorch 2.13's float kernel,
      reproduced: with an output width of 1, every row takes row 0's H weights (uint8 is right);
    * ``area``: adaptive average pooling, the mean of
      ``[floor(o * in / out), ceil((o + 1) * in / out))``.

    ``uint8`` filters run one pass per axis (W, then H) in PyTorch's int16 fixed point
    (``(sum(k x) + 2**(p-1)) >> p``, clamped to [0, 255]).

    Args:
      input: array ``[N, C, W]``, ``[N, C, H, W]`` or ``[N, C, D, H, W]``; float32/float64 (all
        modes), float16/bfloat16 (no antialias), uint8 (nearest, nearest-exact, bilinear,
        bicubic, lanczos).
      size: int or sequence of 1-3 ints (static): the output spatial size.
      scale_factor: float or sequence of floats > 0 (static); exactly one of it and ``size``.
      mode: ``"nearest"`` (default), ``"nearest-exact"``, ``"linear"`` (3-D input),
        ``"bilinear"``, ``"bicubic"``, ``"lanczos"`` (4-D), ``"trilinear"`` (5-D), ``"area"``.
      align_corners: for the linear modes and bicubic (``None`` means False); must stay
        ``None`` for nearest, nearest-exact and area; lanczos refuses True.
      recompute_scale_factor: True: use ``in / out`` instead of ``1 / scale_factor``.
      antialias: bilinear/bicubic on 4-D inputs; lanczos requires it.

    Returns:
      Array ``[N, C, *out_spatial]`` of ``input``'s dtype.

    Raises:
      ValueError: bad mode (with a suggestion), both or neither of ``size``/``scale_factor``,
        wrong lengths, non-positive sizes or factors, an empty output, ``align_corners`` or
        ``antialias`` where PyTorch refuses them, a mode with the wrong rank (PyTorch:
        NotImplementedError).
      TypeError: traced ``size``/``scale_factor``, non-integer sizes, dtypes PyTorch does not
        implement for the mode, an ``align_corners`` that is not a bool (as PyTorch).

    Example:
      >>> import numpy as np
      >>> from jax_resize.compat import torch_interpolate
      >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 4)
      >>> torch_interpolate(x, scale_factor=2, mode="linear")[0, 0].tolist()
      [0.0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.0]

    Source: ``torch/nn/functional.py`` (``interpolate``) and ATen's CPU kernels
    (``aten/src/ATen/native/UpSample.h``, ``native/cpu/UpSampleKernel.cpp``,
    ``AdaptiveAveragePooling.cpp``). Against torch 2.13 CPU (AVX2/AVX-512 builds): nearest and
    uint8 modes bit-exact, float filters within float32 rounding.
    """
    mode = _v.choice("mode", mode, MODES)
    antialias = _v.flag("antialias", antialias)
    if mode in _NO_ALIGN_CORNERS:
        if align_corners is not None:
            raise ValueError(
                f"align_corners={align_corners!r}: the align_corners option can only be set with the "
                "interpolating modes: linear | bilinear | bicubic | trilinear"
            )
    else:
        align_corners = _v.boolean("align_corners", align_corners)  # torch: a bool or None
    if recompute_scale_factor is not None:
        recompute_scale_factor = _v.flag("recompute_scale_factor", recompute_scale_factor)
    x, dtype = _frontend.prologue(
        "input", input, ranks=(3, 4, 5), layout="[N, C, W], [N, C, H, W] or [N, C, D, H, W] (rank 3-5)"
    )
    in_sizes = [int(n) for n in x.shape[2:]]
    if 0 in in_sizes:
        raise ValueError(f"input has an empty spatial dimension (shape {x.shape}); sizes must be > 0.")
    sizes, factors = output_sizes(in_sizes, size, scale_factor, recompute_scale_factor, mode)
    _frontend.output_size(list(x.shape[:2]) + list(sizes), "size/scale_factor")
    if antialias and not (mode in _ANTIALIAS_MODES and x.ndim == 4):
        raise ValueError(
            f"antialias=True with mode={mode!r} and a {x.ndim}-D input: anti-alias option is restricted "
            "to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input."
        )
    if mode in _RANK and x.ndim != _RANK[mode]:
        raise ValueError(
            f"mode={mode!r} needs a {_RANK[mode]}-D input ([N, C] + {_RANK[mode] - 2} spatial dims); "
            f"got {x.ndim}-D input of shape {x.shape}."
        )
    if mode == "lanczos":
        if align_corners:
            raise ValueError("align_corners=True: Lanczos mode does not support align_corners=True.")
        if not antialias:
            raise ValueError("antialias=False: Lanczos mode requires antialias=True.")
    _check_dtype(dtype, mode, antialias)

    out_shape = tuple(x.shape[:2]) + tuple(sizes)
    if x.size == 0:
        return jnp.zeros(out_shape, x.dtype)
    ops = []
    for i, (n, o, f) in enumerate(zip(in_sizes, sizes, factors)):
        record = axis_record(
            mode,
            n,
            o,
            scale_factor=f,
            align_corners=align_corners,
            antialias=antialias,
            dtype=dtype,
            two_d=x.ndim == 4,
            first_row_only=antialias and dtype != np.uint8 and i == 0 and sizes[-1] == 1,
        )
        if record is not None:
            ops.append((2 + i, record))
    if dtype == np.uint8 and mode not in ("nearest", "nearest-exact"):
        # last axis first, rounded after each pass; each axis's ``k / 2**p`` is exact in units of 2**-22
        return _apply.run(x, sorted(ops, key=lambda op: -op[0]), integer=UINT8_POLICY)
    return _apply.run(x, ops)
