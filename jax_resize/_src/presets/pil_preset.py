"""``pil_resize``: ``PIL.Image.resize`` (with ``box`` and ``reducing_gap``) on the jax_resize layers.

Contract: same argument names and defaults as ``Image.resize`` (``size = (width, height)``,
``resample`` one of Pillow's integer constants, ``box = (x0, y0, x1, y1)`` in pixels,
``reducing_gap``); an ``[H, W]`` or ``[H, W, C]`` array behaves like ``Image.fromarray(array)``.
Filters use Pillow's centres ``in0 + (o + 0.5) * (in1 - in0) / out`` and coefficient rule
(:func:`.weights.pillow_taps`) over the box, with taps clipped to the whole image; NEAREST uses
Pillow's affine walk (:func:`.coordinates.pillow_nearest_indices`). ``reducing_gap`` first
block-averages by ``int((in1 - in0) / out / reducing_gap)`` over Pillow's "safe box" (as
``Image.reduce``), then resizes the remapped box. float arrays follow mode ``'F'``; uint8 follows
the 8-bit fixed-point path (:func:`.pillow.run_passes`).
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from .. import apply as _apply
from .. import coordinates as _coordinates
from .. import dtypes as _dtypes
from .. import pillow as _pillow
from .. import validation as _v
from .. import weights as _weights

# PIL.Image.Resampling values
NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING = 0, 1, 2, 3, 4, 5
_METHOD = {NEAREST: "pil_nearest", BOX: "pil_box", BILINEAR: "pil_bilinear", HAMMING: "pil_hamming",
           BICUBIC: "pil_bicubic", LANCZOS: "pil_lanczos"}
_SUPPORT = {NEAREST: 0.0, BOX: 0.5, BILINEAR: 1.0, HAMMING: 1.0, BICUBIC: 2.0, LANCZOS: 3.0}


def _safe_box(size, resample, box, in_wh):
    """Pillow's ``Image._get_safe_box``: the integer box the filter can read, for ``reduce``."""
    support = _SUPPORT[resample] - 0.5
    sx = (box[2] - box[0]) / size[0] * support
    sy = (box[3] - box[1]) / size[1] * support
    return (max(0, int(box[0] - sx)), max(0, int(box[1] - sy)),
            min(in_wh[0], math.ceil(box[2] + sx)), min(in_wh[1], math.ceil(box[3] + sy)))


def _block_axis(axis: int, size: int, factor: int, *, mean: bool):
    """Taps summing (or averaging) ``[0, size)`` in blocks of ``factor``; a shorter last block
    uses what it has. Also returns the block sizes ``[n_out]``."""
    n_out = -(-size // factor)
    starts = factor * np.arange(n_out)
    index = np.minimum(starts[:, None] + np.arange(factor)[None, :], size - 1)
    count = np.minimum(size - starts, factor)
    valid = np.arange(factor)[None, :] < count[:, None]
    weight = np.where(valid, 1.0 / count[:, None] if mean else 1.0, 0.0)
    return _weights.axis_resample(axis, size, "taps", (index.astype(np.int32), weight)), count


def _reduce(image, factor, box):
    """``Image.reduce(factor, box)``: block means over ``box``.

    uint8 follows Pillow's integer rule ``((sum + n // 2) * (2**24 // n)) >> 24`` for a block of
    ``n`` pixels (exact: the block sums are integers below 2**24, the product fits in uint32).
    """
    (fx, fy), (x0, y0, x1, y1) = factor, box
    image = image[y0:y1, x0:x1]
    dtype = np.dtype(image.dtype)
    mean = dtype.kind not in "iu"
    (op_y, ny), (op_x, nx) = _block_axis(0, y1 - y0, fy, mean=mean), _block_axis(1, x1 - x0, fx, mean=mean)
    if mean:
        return _apply.run(image, [op_y, op_x])
    sums = _apply.run(jnp.asarray(image, jnp.float32), [op_y, op_x]).astype(jnp.uint32)
    n = (ny[:, None] * nx[None, :]).reshape(ny.size, nx.size, *([1] * (image.ndim - 2)))
    out = ((sums + (n // 2).astype(np.uint32)) * ((1 << 24) // n).astype(np.uint32)) >> 24
    return _dtypes.to_output(out.astype(jnp.float32), dtype)


def pil_resize(image, size, resample=BICUBIC, box=None, reducing_gap=None):
    """``PIL.Image.resize`` in JAX: ``[H, W(, C)]`` -> ``[height, width(, C)]``.

    For each axis ``center_o = in0 + (o + 0.5) * scale``, ``scale = (in1 - in0) / out``; the
    filter (support scaled by ``max(scale, 1)``) is sampled at ``(j - center + 0.5) / max(scale, 1)``
    over ``[int(center - support + 0.5), int(center + support + 0.5))`` clipped to the image, and
    the weights are normalised. NEAREST picks ``floor(center)``.

    Args:
      image: ``[H, W]`` or ``[H, W, C]``; float (Pillow mode ``'F'``), uint8 (8-bit modes) or other
        integers (mode ``'I'``).
      size: ``(width, height)`` of the output, ints >= 1 (Pillow's order).
      resample: ``NEAREST`` (0), ``LANCZOS`` (1), ``BILINEAR`` (2), ``BICUBIC`` (3, default),
        ``BOX`` (4) or ``HAMMING`` (5) — ``PIL.Image.Resampling`` values.
      box: ``(x0, y0, x1, y1)`` source region in pixels (floats allowed); default the whole image.
      reducing_gap: ``None`` or a float >= 1: first reduce by an integer factor with block means
        while the remaining scale stays >= ``reducing_gap`` (faster, slightly different).

    Returns:
      ``[height, width(, C)]`` array of ``image``'s dtype.

    Raises:
      ValueError: rank not 2 or 3, bad size, unknown resample, box outside the image or empty,
        reducing_gap < 1.

    Example:
      >>> import numpy as np
      >>> pil_resize(np.zeros((30, 40, 3), np.uint8), (20, 15), BILINEAR).shape
      (15, 20, 3)

    Source: Pillow ``Image.resize`` / ``Image.reduce`` (``src/PIL/Image.py``) and
    ``src/libImaging/Resample.c`` (``precompute_coeffs``).
    """
    ndim = np.ndim(image)
    if ndim not in (2, 3):
        raise ValueError(f"image must be [H, W] or [H, W, C]; got shape {np.shape(image)}.")
    if resample not in _METHOD:
        raise ValueError(f"resample={resample!r} is not supported; allowed: NEAREST=0, LANCZOS=1, BILINEAR=2, "
                         f"BICUBIC=3, BOX=4, HAMMING=5.")
    width, height = _v.shape_tuple("size", size, 2)
    if width < 1 or height < 1:
        raise ValueError(f"size={tuple(size)!r} must be >= 1 in both dimensions (Pillow's rule).")
    in_h, in_w = np.shape(image)[:2]
    box = (0.0, 0.0, float(in_w), float(in_h)) if box is None else tuple(float(b) for b in box)
    if len(box) != 4 or box[0] < 0 or box[1] < 0 or box[2] > in_w or box[3] > in_h or \
            box[2] < box[0] or box[3] < box[1]:
        raise ValueError(f"box={box!r} must be (x0, y0, x1, y1) with 0 <= x0 <= x1 <= {in_w}, 0 <= y0 <= y1 <= {in_h}.")
    if reducing_gap is not None and not reducing_gap >= 1.0:
        raise ValueError(f"reducing_gap={reducing_gap!r} must be None or >= 1.0.")
    image = jnp.asarray(image)
    if box == (0.0, 0.0, float(in_w), float(in_h)) and (width, height) == (in_w, in_h):
        return image  # Pillow returns a copy
    if reducing_gap is not None and resample != NEAREST:
        fx = int((box[2] - box[0]) / width / reducing_gap) or 1
        fy = int((box[3] - box[1]) / height / reducing_gap) or 1
        if fx > 1 or fy > 1:
            rbox = _safe_box((width, height), resample, box, (in_w, in_h))
            image = _reduce(image, (fx, fy), rbox)
            box = ((box[0] - rbox[0]) / fx, (box[1] - rbox[1]) / fy, (box[2] - rbox[0]) / fx, (box[3] - rbox[1]) / fy)
            in_h, in_w = image.shape[:2]
    method = _METHOD[resample]
    out_shape = (height, width) + tuple(image.shape[2:])
    edges = {0: (box[1], box[3]), 1: (box[0], box[2])}
    full = {0: (0.0, float(in_h)), 1: (0.0, float(in_w))}
    # Pillow skips a pass when the axis keeps its length and the box covers it exactly
    changed = [a for a in (0, 1) if out_shape[a] != image.shape[a] or edges[a] != full[a]]
    if method == "pil_nearest":
        ops = [_weights.axis_resample(a, image.shape[a], "gather",
                                      _coordinates.pillow_nearest_indices(image.shape[a], out_shape[a], edges[a]))
               for a in changed]
        return _apply.run(image, ops)
    kernel = _pillow.pillow_kernel(method)
    dtype = np.dtype(image.dtype)
    fixed_point = dtype == np.uint8
    order = _pillow.pillow_pass_order(changed, image.shape, out_shape)
    ops = []
    for a in order:
        center, scale = _coordinates.pillow_centers(image.shape[a], out_shape[a], edges[a])
        taps = _weights.pillow_taps(center, scale, image.shape[a], kernel, fixed_point=fixed_point)
        ops.append(_weights.axis_resample(a, image.shape[a], "taps", taps))
    if dtype.kind in "iu":
        return _pillow.run_passes(image, ops, rounding="fixed_point" if fixed_point else "half_away")
    return _apply.run(image, ops)
