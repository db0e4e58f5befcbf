"""Layer 2: one axis's taps as a separable C resampler computes them: each output's pixel centre
``in0 + (o + 0.5) * scale`` in continuous coordinates (pixel ``j`` covers ``[j, j + 1)``), a
window of the kernel's radius times ``max(scale, 1)`` (the antialias support) around it, clipped
to the input and renormalised by its sum in tap order (:func:`clipped_window_taps`), and the
nearest source index as the floor of the centres walked by repeated addition
(:func:`nearest_indices`). Box edges are C ``float`` values (float32), the rest double.

Several resamplers compute exactly this; each caller brings its kernel, its own centres where they
differ (:func:`axis_taps`' ``center_scale``) and its integer policy.
"""

from __future__ import annotations

import numpy as np

from . import band_taps as _band_taps
from . import kernels as _kernels
from . import records as _records
from . import weights as _weights


def centers(in_size: int, out_size: int, box: tuple[float, float] | None = None):
    """The pixel centres ``in0 + (o + 0.5) * scale``, ``scale = (in1 - in0) / out_size``, box edges
    ``(in0, in1)`` as float32 (default ``(0, in_size)``); continuous coordinates (pixel ``j``
    covers ``[j, j + 1)``). Returns ``(center [out_size] float64, scale)``."""
    in0, in1 = (0.0, float(in_size)) if box is None else box
    scale = float(np.float32(in1) - np.float32(in0)) / out_size
    o = np.arange(out_size, dtype=np.float64)
    return float(np.float32(in0)) + (o + 0.5) * scale, scale


def nearest_indices(
    in_size: int, out_size: int, box: tuple[float, float] | None = None, *, walk: bool = True
) -> np.ndarray:
    """Nearest source indices ``floor(in0 + (o + 0.5) * a)``, ``a = (in1 - in0) / out`` (box edges,
    default ``(0, in_size)``): int64 ``[out_size]`` in ``[0, in_size - 1]``. The positions are
    walked by repeated double addition (``x0 = in0 + a / 2; x += a``), a C loop's bits, not
    ``o * a``'s; ``walk=False``: ``a * (o + 0.5) + in0``, each operation rounded to double."""
    if out_size == 0:
        return np.zeros((0,), np.int64)
    in0, in1 = (0.0, float(in_size)) if box is None else box
    # the box's C floats: float32 edges, float32 difference, double division
    a = float(np.float32(in1) - np.float32(in0)) / out_size
    if not walk:
        pos = a * (np.arange(out_size) + 0.5) + float(np.float32(in0))
        return _weights.nearest_indices(pos, in_size, "floor")
    steps = np.full(out_size, a)
    steps[0] = a * 0.5 + float(np.float32(in0))
    pos = np.add.accumulate(steps)  # sequential, left to right, as the loop adds
    return _weights.nearest_indices(pos, in_size, "floor")


def clipped_window_taps(center, scale: float, in_size: int, kernel: _kernels.Kernel) -> _records.Taps:
    """The window around continuous centres ``center`` (``[out]`` float64), ``scale = in / out``:
    with ``filterscale = max(scale, 1)`` and ``support = kernel.radius * filterscale``, output ``o``
    reads ``[trunc(center - support + 0.5), trunc(center + support + 0.5))`` clipped to
    ``[0, in_size)``, weights ``kernel((j - center + 0.5) * (1 / filterscale))`` (stretch 1; times
    the reciprocal, not divided) over their sum when non-zero, summed in tap order. Returns host
    :class:`~..records.Taps` (float64), compacted like :func:`..weights.filter_taps`."""
    center = np.asarray(center, np.float64)
    filterscale = max(float(scale), 1.0)
    support = kernel.radius * filterscale
    lo = np.clip(np.trunc(center - support + 0.5), 0, in_size).astype(np.int64)
    hi = np.clip(np.trunc(center + support + 0.5), 0, in_size).astype(np.int64)
    width = int(max(1, (hi - lo).max(initial=1)))
    start = np.minimum(lo, in_size - width)
    # evaluated onto the band [start, start + width), a tile at a time (0 outside [lo, hi)), once per
    # class of rows with the same window at the same offset from start (an integer ratio's interior)
    keys = [*_band_taps.exact_difference(start.astype(np.float64), center), lo - start, hi - start]
    classes = _band_taps.row_classes(keys, min_rows=2, wide=True)
    rep = np.arange(center.size) if classes is None else classes[0]
    band = np.empty((rep.size, width))
    total = np.zeros(rep.size)
    for rows, c0, c1 in _records.tiles(rep.size, width):
        o = rep[rows]
        taps = start[o, None] + np.arange(c0, c1)
        w = kernel(np, (taps - center[o, None] + 0.5) * (1.0 / filterscale), 1.0)
        w = np.where((taps >= lo[o, None]) & (taps < hi[o, None]), w, 0.0)
        band[rows, c0:c1] = w
        # the sum in tap order, as the C loop adds (numpy's pairwise sum rounds otherwise); the
        # running total carries across tiles
        total[rows] = np.add.accumulate(np.concatenate([total[rows, None], w], axis=1), axis=1)[:, -1]
    band /= np.where(total == 0, 1.0, total)[:, None]
    band += 0.0  # -0.0 becomes 0.0: no negative zero weight (on the distinct rows, in place)
    if classes is None:
        return _records.Taps(_records.band_index(start, width), band, in_size)
    return _records.shared_band(start, classes[1], band, in_size)


def axis_taps(in_size: int, out_size: int, kernel: _kernels.Kernel, box=None, *, center_scale=None) -> _records.Taps:
    """One axis: the clipped window around :func:`centers` (or the given
    ``center_scale = (center, scale)``), clipped to the input and renormalised."""
    center, scale = centers(in_size, out_size, box) if center_scale is None else center_scale
    return clipped_window_taps(center, scale, in_size, kernel)
