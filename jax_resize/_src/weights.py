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
    """

    axis: int = dataclasses.field(metadata=dict(static=True))
    in_size: int = dataclasses.field(metadata=dict(static=True))
    index: Any = None
    tap_index: Any = None
    tap_weight: Any = None
    outside: Any = None
    matrix: Any = None
    transpose_index: Any = None
    transpose_weight: Any = None

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
