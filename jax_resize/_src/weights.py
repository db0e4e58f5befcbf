"""Layer 2 — weights: input coordinates + filter -> one axis's resampling operator.

Contract: for one axis, given ``x_original`` (``[out_size]``, from :mod:`.coordinates`), build
either

* filter taps ``(index, weight)``, each ``[out_size, k]`` (filters: linear, cubic, antialias,
  lanczos, box, area ...), the sparse form of the dense weight matrix ``W: [out_size, in_size]``
  (``W[o, index[o, k]] += weight[o, k]``, :func:`taps_to_matrix`), so that
  ``out[o] = sum_i W[o, i] * in[i]``, or
* an index vector ``idx: [out_size]`` into ``[0, in_size)`` (nearest), applied as a gather so that
  integer data never passes through float arithmetic.

Taps follow the ONNX reference evaluator (``onnx/reference/ops/op_resize.py``): the window is the
``2 * ceil(support)`` integers around ``x`` (ties prefer the left pixel, i.e. an integer ``x`` is
treated as the right end of the interval ``(x - 1, x]``), widened here by one tap on each side so
that half-open kernels (box) are covered; extra taps carry zero weight. Out-of-range taps are
either clamped to the edge (``exclude_outside=False``, the reference's edge padding) or dropped
and the rest renormalised (``exclude_outside=True``). ``normalize=True`` divides by the window's
sum first (ONNX antialias, jax.image, Pillow).

With numpy inputs everything is float64 on the host, as in the reference; with ``xp=jax.numpy``
(a traced ``roi``) the same code builds a differentiable matrix on the device.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import jax
import numpy as np

from . import coordinates as _coordinates
from . import kernels as _kernels

#: ONNX Resize ``nearest_mode`` values. ``"simple"`` (OpenVINO; ONNX Resize-10's implicit rule)
#: is accepted internally: ceil when the axis downsamples, truncation towards zero otherwise.
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
_ALL_NEAREST_MODES = NEAREST_MODES + ("simple",)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class AxisResample:
    """How one axis is resampled; a pytree whose arrays are leaves.

    Exactly one of ``index`` (nearest: a gather) or ``tap_index``/``tap_weight`` (a filter) is
    set. The filter's dense matrix ``W: [out, in]`` is ``W[o, tap_index[o, k]] += tap_weight[o, k]``
    (:func:`taps_to_matrix`); the tap form is what lets the apply layer avoid building ``W``.

    Attributes:
      axis: the axis of the input it acts on (static).
      in_size: the input length of that axis (static).
      index: ``[out]`` integer source indices (nearest), or ``None``.
      tap_index: ``[out, k]`` integer source indices in ``[0, in_size)``, or ``None``.
      tap_weight: ``[out, k]`` float weights of those taps, or ``None``.
      outside: ``[out]`` bool; ``True`` rows take ``extrapolation_value``; or ``None``.
      matrix: optional ``[out, in]`` dense form of the taps, precomputed on the host by the
        apply layer when it contracts densely.
      transpose_index, transpose_weight: optional ``[in, k_t]`` taps of ``W.T``, precomputed on
        the host for constant taps so that gradients avoid scatter-adds.
      pattern: optional static shape of a constant ``index``: ``("repeat", k)`` when
        ``index == arange(out) // k`` or ``("stride", start, k)`` when
        ``index == start + k * arange(out)``; the apply layer then uses a broadcast or a strided
        slice instead of a gather.
      phase_plan, phase_weight: optional polyphase form of constant taps (static
        :class:`~.polyphase.PolyphasePlan` and its ``[L, K, Q]`` weights), precomputed on the
        host by the apply layer for rational ratios.
    """

    axis: int = dataclasses.field(metadata=dict(static=True))
    in_size: int = dataclasses.field(metadata=dict(static=True))
    pattern: tuple | None = dataclasses.field(default=None, metadata=dict(static=True))
    phase_plan: Any = dataclasses.field(default=None, metadata=dict(static=True))
    index: Any = None
    tap_index: Any = None
    tap_weight: Any = None
    outside: Any = None
    matrix: Any = None
    transpose_index: Any = None
    transpose_weight: Any = None
    phase_weight: Any = None

    @property
    def out_size(self) -> int:
        return (self.index if self.index is not None else self.tap_index).shape[0]

    def replace(self, **changes) -> "AxisResample":
        return dataclasses.replace(self, **changes)


def axis_resample(axis: int, in_size: int, kind: str, op, outside=None) -> AxisResample:
    """Wraps ``("gather", index)`` or ``("taps", (index, weight))`` as an :class:`AxisResample`."""
    if kind == "gather":
        return AxisResample(axis=axis, in_size=in_size, index=op, outside=outside)
    return AxisResample(axis=axis, in_size=in_size, tap_index=op[0], tap_weight=op[1], outside=outside)


def empty_axis(axis: int, in_size: int, out_size: int, *, gather: bool) -> AxisResample:
    """The operator of an axis with an empty input or output (no taps to compute)."""
    if gather:
        return AxisResample(axis=axis, in_size=in_size, index=np.zeros((out_size,), np.int32))
    return AxisResample(axis=axis, in_size=in_size, tap_index=np.zeros((out_size, 1), np.int32),
                        tap_weight=np.zeros((out_size, 1)))


def nearest_indices(x, in_size: int, nearest_mode: str, *, downsample: bool = False, xp=np):
    """Source index per output for nearest resampling.

    Args:
      x: ``[out]`` input coordinates.
      in_size: input length; indices are clamped to ``[0, in_size - 1]``.
      nearest_mode: one of ``NEAREST_MODES`` or ``"simple"``.
      downsample: for ``"simple"`` only: whether this axis shrinks.

    Returns:
      ``[out]`` integer indices. An integer ``x`` always maps to itself (ONNX reference).
    """
    xf = xp.floor(x)
    frac = x - xf
    if nearest_mode == "round_prefer_floor":
        idx = xf + (frac > 0.5)
    elif nearest_mode == "round_prefer_ceil":
        idx = xf + (frac >= 0.5)
    elif nearest_mode == "floor":
        idx = xf
    elif nearest_mode == "ceil":
        idx = xf + (frac > 0)
    elif nearest_mode == "simple":
        idx = xp.ceil(x) if downsample else xp.trunc(x)
    else:
        raise ValueError(
            f"nearest_mode={nearest_mode!r} is not supported; allowed values: "
            f"{', '.join(map(repr, NEAREST_MODES))}."
        )
    return xp.clip(idx, 0, max(in_size - 1, 0)).astype(np.int32 if xp is not np else np.int64)


def filter_taps(
    x,
    in_size: int,
    kernel: _kernels.Kernel,
    *,
    stretch: float = 1.0,
    exclude_outside: bool = False,
    normalize: bool = False,
    xp=np,
):
    """Taps ``(index, weight)``, each ``[out, k]``, of a filter sampled at coordinates ``x``.

    Args:
      x: ``[out]`` input coordinates (float64 numpy on the host, or a jax array).
      in_size: input length (> 0).
      kernel: the filter; ``kernel(d / stretch)`` for signed distances ``d = tap - x``.
      stretch: antialias stretch ``max(1, 1 / scale)`` (1 for plain interpolation).
      exclude_outside: drop taps outside ``[0, in_size)`` and renormalise; otherwise clamp them to
        the edge pixel (edge padding).
      normalize: divide each row by the sum of its window's weights (before exclusion).

    Returns:
      ``(index, weight)``: ``index`` int32 in ``[0, in_size)``. On the host (numpy) the taps are
      compacted to the narrowest contiguous band ``index[o] = start[o] + arange(k)`` that holds
      every non-zero weight (clamped taps folded in); with ``xp=jax.numpy`` the window is kept
      as is (clamped indices may repeat). Rows sum to 1 whenever ``normalize`` or
      ``exclude_outside`` is set (and for interpolating kernels otherwise, up to rounding).
    """
    half = int(math.ceil(kernel.support(stretch))) + 1
    offsets = xp.arange(2 * half) - half  # window: ceil(x) - half ... ceil(x) + half - 1
    taps = xp.ceil(x)[:, None] + offsets[None, :]  # [out, n], float
    w = kernel(xp, taps - x[:, None], stretch)  # [out, n]
    if normalize:
        total = w.sum(axis=1, keepdims=True)
        w = w / xp.where(total == 0, 1.0, total)
    if exclude_outside:
        w = xp.where((taps >= 0) & (taps <= in_size - 1), w, 0.0)
        total = w.sum(axis=1, keepdims=True)
        w = w / xp.where(total == 0, 1.0, total)
    cols = xp.clip(taps, 0, in_size - 1).astype(np.int32)
    if xp is not np:
        return cols, w
    return _compact(cols, w, in_size)


def _compact(cols: np.ndarray, w: np.ndarray, in_size: int):
    """Folds repeated (clamped) taps and trims each row to the narrowest common band width."""
    nz = w != 0
    lo = np.where(nz, cols, in_size).min(axis=1)
    hi = np.where(nz, cols, -1).max(axis=1)
    empty = hi < lo
    width = int(max(1, (hi - lo + 1)[~empty].max(initial=1)))
    start = np.clip(np.where(empty, 0, lo), 0, max(in_size - width, 0))
    index = start[:, None] + np.arange(width)[None, :]  # [out, width]
    band = np.zeros(index.shape, np.float64)
    for j in range(cols.shape[1]):  # O(out * width) memory per step
        band += w[:, j : j + 1] * (cols[:, j : j + 1] == index)
    return np.minimum(index, in_size - 1).astype(np.int32), band


def taps_to_matrix(index, weight, in_size: int, *, xp=np):
    """The dense ``[out, in_size]`` matrix of taps: ``W[o, index[o, k]] += weight[o, k]``."""
    out = index.shape[0]
    rows = xp.broadcast_to(xp.arange(out)[:, None], index.shape)
    if xp is np:
        W = np.zeros((out, in_size), dtype=np.float64)
        np.add.at(W, (rows, index), weight)
        return W
    return xp.zeros((out, in_size), dtype=weight.dtype).at[rows, index].add(weight)


def filter_matrix(x, in_size: int, kernel: _kernels.Kernel, *, xp=np, **options):
    """Dense weights ``W: [out, in]`` of :func:`filter_taps` (same arguments)."""
    index, weight = filter_taps(x, in_size, kernel, xp=xp, **options)
    return taps_to_matrix(index, weight, in_size, xp=xp)


def nearest_matrix(indices, in_size: int, *, xp=np):
    """One-hot ``[out, in]`` matrix equivalent to gathering ``indices``."""
    return (indices[:, None] == xp.arange(in_size)[None, :]).astype(np.float64 if xp is np else float)


ONNX_MODES = ("nearest", "linear", "cubic")


def onnx_axis_weights(
    x,
    in_size: int,
    scale: float,
    *,
    mode: str,
    nearest_mode: str = "round_prefer_floor",
    cubic_coeff_a: float = -0.75,
    exclude_outside: bool = False,
    antialias: bool = False,
    xp=np,
):
    """ONNX Resize's per-axis operator for coordinates ``x``: ``("gather", idx)`` or ``("taps", (idx, w))``.

    * nearest: ``idx`` by ``nearest_mode`` (``"simple"`` uses ``scale < 1`` as downsampling);
    * linear: triangle filter; cubic: Keys with ``a = cubic_coeff_a`` (radius 2);
    * antialias (linear/cubic): filter stretched by ``max(1, 1/scale)`` and normalised;
    * ``exclude_outside``: taps outside the input dropped and the rest renormalised.
    """
    if mode == "nearest":
        return "gather", nearest_indices(x, in_size, nearest_mode, downsample=scale < 1, xp=xp)
    kernel = _kernels.TRIANGLE if mode == "linear" else _kernels.keys_cubic(cubic_coeff_a)
    stretch = max(1.0, 1.0 / scale) if antialias else 1.0
    taps = filter_taps(
        x, in_size, kernel, stretch=stretch, exclude_outside=exclude_outside, normalize=antialias, xp=xp
    )
    return "taps", taps


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

    ``out = W @ in`` along the axis reproduces ONNX Resize (``mode`` in ``nearest``, ``linear``,
    ``cubic``) for that axis; nearest gives a one-hot matrix. For ``tf_crop_and_resize`` the rows
    whose coordinate leaves the input are all zero (the operator fills them with
    ``extrapolation_value``).

    Args:
      in_size: input length (>= 1).
      out_size: output length (>= 0).
      mode, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside,
        antialias: as in ONNX Resize (spec section "Resize", opset 19).
      scale: the axis scale; defaults to ``out_size / in_size`` (what ``sizes`` implies).
      roi: ``(start, end)`` for ``tf_crop_and_resize``.

    Returns:
      float64 ``np.ndarray`` of shape ``[out_size, in_size]``; rows sum to 1 (0 for extrapolated
      rows).

    Raises:
      ValueError: unknown mode names, ``in_size < 1`` or ``out_size < 0``, non-positive scale.

    Example:
      >>> weight_matrix(2, 4, mode="linear")[:, 0].tolist()
      [1.0, 0.75, 0.25, 0.0]
    """
    from . import validation as _v

    _v.choice("mode", mode, ONNX_MODES)
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode,
              _coordinates.COORDINATE_TRANSFORMATION_MODES)
    _v.choice("nearest_mode", nearest_mode, _ALL_NEAREST_MODES)
    if int(in_size) < 1 or int(out_size) < 0:
        raise ValueError(f"need in_size >= 1 and out_size >= 0; got in_size={in_size}, out_size={out_size}.")
    scale = out_size / in_size if scale is None else float(scale)
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be finite and > 0; got {scale!r}.")
    if antialias and mode == "nearest":
        raise ValueError("antialias=1 is only defined for mode='linear' or 'cubic', not 'nearest'.")
    x, outside = _coordinates.source_coordinates(
        coordinate_transformation_mode, in_size, out_size, scale, roi=roi
    )
    kind, op = onnx_axis_weights(
        x, in_size, scale, mode=mode, nearest_mode=nearest_mode, cubic_coeff_a=float(cubic_coeff_a),
        exclude_outside=bool(exclude_outside), antialias=bool(antialias),
    )
    W = nearest_matrix(op, in_size) if kind == "gather" else taps_to_matrix(*op, in_size)
    if outside is not None:
        W = np.where(outside[:, None], 0.0, W)
    return W


# --- Pillow's coefficients ---------------------------------------------------------------------

#: Pillow's fixed-point precision for 8-bit images (``PRECISION_BITS = 32 - 8 - 2``).
PILLOW_PRECISION_BITS = 22


def pillow_taps(center, scale: float, in_size: int, kernel: _kernels.Kernel, *, fixed_point: bool = False):
    """Pillow's ``precompute_coeffs`` as taps ``(index, weight)``, each ``[out, k]`` (float64).

    With ``filterscale = max(scale, 1)`` and ``support = kernel.radius * filterscale``, output
    ``o`` reads the window ``[int(center - support + 0.5), int(center + support + 0.5))`` (C casts,
    truncation) clipped to ``[0, in_size)``, with weights
    ``kernel((j - center + 0.5) * (1 / filterscale))`` divided by their sum (when non-zero).
    The window is clipped to the image and the rest renormalised, whatever the filter.

    Args:
      center: ``[out]`` float64 centres from :func:`.coordinates.pillow_centers`.
      scale: ``in / out`` (box width over output length).
      in_size: input length.
      kernel: a kernel evaluated at stretch 1 (``BOX``, ``TRIANGLE``, ``PIL_HAMMING``,
        ``pillow_bicubic(a)``, ``PIL_LANCZOS``).
      fixed_point: quantise the weights as Pillow's 8-bit path does:
        ``k = trunc(w * 2**22 +- 0.5) / 2**22`` (away from zero), exact in float32.

    Returns:
      ``(index int32 [out, k], weight float64 [out, k])``, compacted like :func:`filter_taps`.
    """
    center = np.asarray(center, np.float64)
    filterscale = max(float(scale), 1.0)
    support = kernel.radius * filterscale
    ksize = int(math.ceil(support)) * 2 + 1
    lo = np.maximum(np.trunc(center - support + 0.5), 0).astype(np.int64)
    hi = np.minimum(np.trunc(center + support + 0.5), in_size).astype(np.int64)
    taps = lo[:, None] + np.arange(ksize)[None, :]
    inside = taps < hi[:, None]
    w = kernel(np, (taps - center[:, None] + 0.5) * (1.0 / filterscale), 1.0)
    w = np.where(inside, w, 0.0)
    total = w.sum(axis=1, keepdims=True)
    w = w / np.where(total == 0, 1.0, total)
    if fixed_point:
        one = float(1 << PILLOW_PRECISION_BITS)
        w = np.trunc(w * one + np.where(w < 0, -0.5, 0.5)) / one
    cols = np.clip(taps, 0, max(in_size - 1, 0)).astype(np.int32)
    return _compact(cols, w, in_size)


# --- OpenVINO Interpolate-11 -------------------------------------------------------------------

#: Interpolate-11 ``mode`` values.
OPENVINO_MODES = ("nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow")
#: Interpolate-11 ``nearest_mode`` values.
OPENVINO_NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")


def openvino_axis_weights(x, in_size: int, scale, *, mode: str, nearest_mode: str = "round_prefer_floor",
                          cube_coeff: float = -0.75, antialias_a: float = 1.0):
    """Interpolate-11's operator of one (padded) axis for float32 coordinates ``x``.

    ``("gather", idx)`` for nearest, else ``("taps", (index, weight))`` over ``[0, in_size)``:

    * ``nearest``: ``nearest_indices`` with ``downsample = f32(scale) < 1`` for ``simple``;
    * ``linear_onnx``: the coordinate clamped to ``[0, in - 1]``, then the 2-tap triangle;
    * ``linear``: triangle ``a * max(0, 1 - |a (x - j)|)`` with ``a = antialias_a`` (the scale
      when OpenVINO antialiases, else 1), taps outside ``[0, in)`` dropped, rows renormalised
      (a row with nothing left is 0);
    * ``cubic``: Keys with ``a = cube_coeff`` on taps ``floor(x) - 1 .. floor(x) + 2``, indices
      clamped to the edge (weights still sum to 1).

    The Pillow modes do not use ``x``; see :func:`pillow_taps`.
    """
    x = np.asarray(x)
    if mode == "nearest":
        downsample = bool(np.float32(scale) < np.float32(1))
        return "gather", nearest_indices(x, in_size, nearest_mode, downsample=downsample)
    x = x.astype(np.float64)
    if mode == "linear_onnx":
        xc = np.clip(x, 0.0, float(in_size - 1))
        return "taps", filter_taps(xc, in_size, _kernels.TRIANGLE)
    if mode == "linear":
        stretch = 1.0 / float(antialias_a)
        return "taps", filter_taps(x, in_size, _kernels.TRIANGLE, stretch=stretch, exclude_outside=True)
    if mode == "cubic":
        return "taps", filter_taps(x, in_size, _kernels.keys_cubic(float(cube_coeff)))
    raise ValueError(f"mode={mode!r} has no coordinate-based weights; allowed: nearest, linear, linear_onnx, cubic.")


# --- zero padding folded into an operator --------------------------------------------------------


def unpad(axis: int, kind: str, op, pad_begin: int, in_size: int) -> AxisResample:
    """Re-targets an operator built on a zero-padded axis at the unpadded input.

    The operator was built for an axis of length ``pad_begin + in_size + pad_end`` whose padded
    entries are zeros. Each tap ``j`` becomes ``j - pad_begin``; taps that fall in the padding
    contribute zero and are dropped (no renormalisation: the zeros were part of the input).
    Gathered indices in the padding become rows flagged ``outside`` (filled with 0).

    Returns:
      An :class:`AxisResample` on ``axis`` with ``in_size`` the unpadded length (>= 1).
    """
    if kind == "gather":
        j = np.asarray(op, np.int64) - pad_begin
        outside = (j < 0) | (j >= in_size)
        index = np.clip(j, 0, in_size - 1).astype(np.int32)
        return AxisResample(axis=axis, in_size=in_size, index=index,
                            outside=outside if outside.any() else None)
    index, weight = op
    j = np.asarray(index, np.int64) - pad_begin
    w = np.where((j >= 0) & (j < in_size), weight, 0.0)
    cols = np.clip(j, 0, in_size - 1).astype(np.int32)
    return axis_resample(axis, in_size, "taps", _compact(cols, w, in_size))


def pad_only(axis: int, in_size: int, pad_begin: int, pad_end: int, *, gather: bool) -> AxisResample:
    """The operator of an axis that is only zero-padded: ``out[o] = in[o - pad_begin]`` or 0."""
    j = np.arange(pad_begin + in_size + pad_end)
    if gather:
        return unpad(axis, "gather", j, pad_begin, in_size)
    return unpad(axis, "taps", (j[:, None], np.ones((j.size, 1))), pad_begin, in_size)


# --- PyTorch / OpenCV ----------------------------------------------------------------------------


def clamped_linear_taps(x, in_size: int):
    """2-tap linear interpolation at ``x`` clamped to ``[0, in_size - 1]``: ``(index, weight)``.

    The linear rule of PyTorch's ``linear``/``bilinear``/``trilinear`` (which clamps negative
    half-pixel coordinates to 0 and the index to ``in - 1``), OpenCV's ``INTER_LINEAR`` and
    ONNX/OpenVINO's ``linear_onnx``: ``i = floor(x)``, ``w = (1 - (x - i), x - i)`` on
    ``(i, i + 1)``, edge pixels repeated.
    """
    x = np.clip(np.asarray(x, np.float64), 0.0, float(max(in_size - 1, 0)))
    return filter_taps(x, in_size, _kernels.TRIANGLE)


def _row_taps(rows, in_size: int):
    """Taps from per-output lists of ``(index, weight)`` pairs (host loops over small tables)."""
    k = max(1, max((len(r) for r in rows), default=1))
    cols = np.zeros((len(rows), k), np.int64)
    w = np.zeros((len(rows), k), np.float64)
    for o, row in enumerate(rows):
        for j, (i, v) in enumerate(row):
            cols[o, j], w[o, j] = i, v
    return _compact(cols, w, in_size)


def adaptive_average_taps(in_size: int, out_size: int):
    """Adaptive average pooling (PyTorch ``mode='area'``): the mean of ``[start, end)`` with
    ``start = floor(o * in / out)``, ``end = ceil((o + 1) * in / out)`` (exact integer arithmetic,
    ``adaptive_avg_pool1d/2d/3d``). Returns ``(index, weight)``, each ``[out, k]``.
    """
    o = np.arange(out_size, dtype=np.int64)
    start = (o * in_size) // out_size
    end = -((-(o + 1) * in_size) // out_size)
    k = int((end - start).max(initial=1))
    first = np.minimum(start, in_size - k)  # contiguous band of width k inside the input
    index = first[:, None] + np.arange(k)[None, :]
    inside = (index >= start[:, None]) & (index < end[:, None])
    return index.astype(np.int32), np.where(inside, 1.0 / (end - start)[:, None], 0.0)


def opencv_area_taps(in_size: int, out_size: int, scale: float):
    """``INTER_AREA`` when shrinking (``scale = 1 / inv_scale >= 1`` on both axes), OpenCV's
    ``computeResizeAreaTab``: output ``o`` covers ``[f1, f2) = [o * scale, o * scale + scale)``;
    each input pixel gets its overlap divided by ``cell = min(scale, in - f1)``, partial pixels
    only when their overlap exceeds ``1e-3`` (so a row may sum to slightly less than 1), weights
    rounded to float32. (OpenCV's integer-scale fast path gives the same weights.)
    """
    rows = []
    for dx in range(out_size):
        f1 = dx * scale
        f2 = f1 + scale
        cell = min(scale, in_size - f1)
        s1, s2 = math.ceil(f1), math.floor(f2)
        s2 = min(s2, in_size - 1)
        s1 = min(s1, s2)
        row = []
        if s1 - f1 > 1e-3:
            row.append((s1 - 1, (s1 - f1) / cell))
        row += [(s, 1.0 / cell) for s in range(s1, s2)]
        if f2 - s2 > 1e-3:
            row.append((s2, min(min(f2 - s2, 1.0), cell) / cell))
        rows.append([(i, float(np.float32(v))) for i, v in row])
    return _row_taps(rows, in_size)


def opencv_area_linear_taps(in_size: int, out_size: int, inv_scale: float):
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
    return _compact(cols, w, in_size)


def fixed_point_weights(weight, bits: int, *, ties: str = "away") -> np.ndarray:
    """Weights quantised to ``k / 2**bits`` with integer ``k``, as integer resize paths store them.

    ``ties="away"``: ``k = trunc(w * 2**bits +- 0.5)`` (PyTorch's int16 weights, Pillow);
    ``ties="even"``: ``k = rint(w * 2**bits)`` (OpenCV's ``saturate_cast<short>``). float64.
    """
    scaled = np.asarray(weight, np.float64) * float(1 << bits)
    if ties == "even":
        k = np.rint(scaled)
    else:
        k = np.trunc(scaled + np.where(scaled < 0, -0.5, 0.5))
    return k / float(1 << bits)


def torch_uint8_precision(weight) -> int:
    """Bits of PyTorch's int16 uint8 weights for one axis: the largest ``p < 22`` with
    ``int(0.5 + max(w) * 2**(p + 1)) < 2**15`` (``_compute_index_ranges_int16_weights``)."""
    w_max = float(np.max(weight, initial=0.0))
    p = 0
    while p < 22 and int(0.5 + w_max * (1 << (p + 1))) < (1 << 15):
        p += 1
    return p
