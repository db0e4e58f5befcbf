"""Peer: Pillow's resampling (``PIL.Image.resize``, ``Image.reduce``) on the core layers.

Contract: an ``[H, W]`` or ``[H, W, C]`` array behaves like ``Image.fromarray(array)``; every
axis whose length changes (or whose ``box`` edges differ from the image's) is resampled like one
pass of ``Image.resize``:

* coordinates: Pillow's filter centres ``in0 + (o + 0.5) * (in1 - in0) / out`` (:func:`centers`)
  and its NEAREST walk (:func:`nearest_indices`, repeated double additions);
* weights: Pillow's clipped, renormalised window (:func:`..weights.clipped_window_taps`) with
  Pillow's kernels in its own evaluation order (:data:`HAMMING`, :func:`bicubic`,
  :data:`LANCZOS`; BOX and BILINEAR are the core box and triangle);
* integer policy: ``uint8`` is Pillow's 8-bit modes (``'L'``, ``'RGB'`` ...), bit for bit —
  coefficients quantised to ``k / 2**22`` (``PRECISION_BITS``), each pass
  ``(2**21 + sum(x * k)) >> 22`` clipped to ``[0, 255]``; other integers follow mode ``'I'``
  (each pass rounded half away from zero); float is mode ``'F'``;
* pass order: Pillow 13's (:func:`pass_order`).

:func:`pil_resize` is ``Image.resize`` argument for argument (``box``, ``reducing_gap``);
:func:`resize_method` serves ``jax_resize.resize``'s ``pil_*`` methods (any rank).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from .. import apply as _apply
from .. import kernels as _kernels
from .. import rounding as _rounding
from .. import validation as _v
from .. import weights as _weights

#: ``jax_resize.resize`` methods for ``PIL.Image.Resampling`` NEAREST, BOX, BILINEAR, HAMMING,
#: BICUBIC and LANCZOS.
METHODS = ("pil_nearest", "pil_box", "pil_bilinear", "pil_hamming", "pil_bicubic", "pil_lanczos")
# PIL.Image.Resampling values
NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING = 0, 1, 2, 3, 4, 5
_METHOD = {
    NEAREST: "pil_nearest",
    BOX: "pil_box",
    BILINEAR: "pil_bilinear",
    HAMMING: "pil_hamming",
    BICUBIC: "pil_bicubic",
    LANCZOS: "pil_lanczos",
}
_SUPPORT = {NEAREST: 0.0, BOX: 0.5, BILINEAR: 1.0, HAMMING: 1.0, BICUBIC: 2.0, LANCZOS: 3.0}
#: Pillow's fixed-point precision for 8-bit images (``PRECISION_BITS = 32 - 8 - 2``).
PRECISION_BITS = 22
#: Integer policies: the 8-bit modes (fixed point, bit exact) and mode ``'I'``.
UINT8_POLICY = _rounding.IntegerPolicy(rounding="half_up", fixed_point_bits=PRECISION_BITS)
INT_POLICY = _rounding.IntegerPolicy(rounding="half_away", per_pass=True)


# --- kernels, in Pillow's evaluation order (Resample.c) ------------------------------------------
# Pillow evaluates its filters on ``d = (tap - center + 0.5) * (1 / filterscale)`` (already
# scaled), so they are used at stretch 1 by ``clipped_window_taps``.


def _scaled(profile):
    return lambda xp, d, stretch: profile(xp, d if stretch == 1.0 else d / stretch)


def _hamming(xp, d):
    # sinc(x) * (0.54 + 0.46 cos(pi x)) on |x| < 1; Pillow writes 0.54 and 0.46 as C float
    # literals, i.e. their float32 values.
    x = xp.abs(d)
    px = x * math.pi
    safe = xp.where(x == 0, 1.0, px)
    w = xp.sin(safe) / safe * (float(np.float32(0.54)) + float(np.float32(0.46)) * xp.cos(safe))
    return xp.where(x == 0, 1.0, xp.where(x >= 1.0, 0.0, w))


def bicubic(a: float = -0.5) -> _kernels.Kernel:
    """Keys (1981) cubic in Pillow's evaluation order (``a = -0.5`` in Pillow)."""

    def profile(xp, d):
        x = xp.abs(d)
        near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1
        far = (((x - 5) * x + 8) * x - 4) * a
        return xp.where(x < 1.0, near, xp.where(x < 2.0, far, 0.0))

    return _kernels.Kernel(f"pillow_bicubic(a={a})", 2.0, _scaled(profile))


def _sinc(xp, x):
    px = x * math.pi
    safe = xp.where(x == 0, 1.0, px)
    return xp.where(x == 0, 1.0, xp.sin(safe) / safe)


def _lanczos(xp, d):
    # sinc(x) * sinc(x / 3) on the half-open interval [-3, 3).
    return xp.where((d >= -3.0) & (d < 3.0), _sinc(xp, d) * _sinc(xp, d / 3), 0.0)


HAMMING_KERNEL = _kernels.register(_kernels.Kernel("pillow_hamming", 1.0, _scaled(_hamming)))
LANCZOS_KERNEL = _kernels.register(_kernels.Kernel("pillow_lanczos", 3.0, _scaled(_lanczos)))


def kernel(method: str, cubic_coeff_a: float | None = None) -> _kernels.Kernel:
    """The kernel of a ``pil_*`` filter method (support = ``kernel.radius``)."""
    kernels = {
        "pil_box": _kernels.BOX,
        "pil_bilinear": _kernels.TRIANGLE,
        "pil_hamming": HAMMING_KERNEL,
        "pil_lanczos": LANCZOS_KERNEL,
    }
    if method == "pil_bicubic":
        return bicubic(-0.5 if cubic_coeff_a is None else float(cubic_coeff_a))
    if method not in kernels:
        raise ValueError(f"method={method!r} is not a Pillow filter; allowed: {METHODS[1:]}.")
    return kernels[method]


# --- coordinates and weights ---------------------------------------------------------------------


def centers(in_size: int, out_size: int, box: tuple[float, float] | None = None):
    """Pillow's filter centres for one axis: ``center = in0 + (o + 0.5) * scale`` (float64).

    ``scale = (in1 - in0) / out_size`` with the box edges ``(in0, in1)`` (default ``(0, in_size)``),
    as Pillow's ``precompute_coeffs`` (the edges parsed as C floats). The centre is in continuous
    coordinates (pixel ``j`` covers ``[j, j + 1)``), i.e. ``x_original = center - 0.5``.

    Returns:
      ``(center [out_size] float64, scale)``.
    """
    in0, in1 = (0.0, float(in_size)) if box is None else box
    scale = float(np.float32(in1) - np.float32(in0)) / out_size
    o = np.arange(out_size, dtype=np.float64)
    return float(np.float32(in0)) + (o + 0.5) * scale, scale


def nearest_indices(in_size: int, out_size: int, box: tuple[float, float] | None = None) -> np.ndarray:
    """``Image.resize(..., NEAREST)``'s source indices: ``floor(in0 + (o + 0.5) * (in1 - in0) / out)``.

    Pillow walks the positions by repeated double addition (``x0 = in0 + a / 2; x += a`` with
    ``a = (in1 - in0) / out``, box edges ``(in0, in1)``, default ``(0, in_size)``) rather than
    multiplying, and so do we, so that indices agree exactly. (OpenCV's ``INTER_NEAREST_EXACT``
    is the same rule.)

    Returns:
      int64 ``[out_size]`` in ``[0, in_size - 1]``.
    """
    if out_size == 0:
        return np.zeros((0,), np.int64)
    in0, in1 = (0.0, float(in_size)) if box is None else box
    # Pillow parses the box as C floats: float32 edges, float32 difference, double division
    a = float(np.float32(in1) - np.float32(in0)) / out_size
    steps = np.full(out_size, a)
    steps[0] = a * 0.5 + float(np.float32(in0))
    pos = np.add.accumulate(steps)  # sequential, left to right, like Pillow's loop
    return _weights.nearest_indices(pos, in_size, "floor")


def axis_taps(in_size: int, out_size: int, kernel: _kernels.Kernel, box=None, *, center_scale=None) -> _weights.Taps:
    """One axis of Pillow's resampling: its window around :func:`centers` (or the given
    ``center_scale = (center, scale)``), clipped to the input and renormalised."""
    center, scale = centers(in_size, out_size, box) if center_scale is None else center_scale
    return _weights.clipped_window_taps(center, scale, in_size, kernel)


def quantized(taps: _weights.Taps) -> _weights.Taps:
    """Pillow's 8-bit coefficients: ``k = trunc(w * 2**22 +- 0.5)`` (away from zero), ``k / 2**22``."""
    return _weights.Taps(taps.index, _rounding.quantize_weights(taps.weight, PRECISION_BITS), taps.in_size)


def pass_order(changed: list[int], in_shape, out_shape) -> list[int]:
    """The order in which Pillow 13 runs the passes over the ``changed`` axes (ascending).

    With two axes ``(h, w)`` (an image's rows and columns) Pillow 13.0.0's 8-bit path runs the
    vertical pass first iff ``out_h < in_h and 2 * (out_w - in_w) > out_h - in_h``, otherwise the
    horizontal one (found empirically, see ``docs/notes/openvino_pillow_semantics.md``). Any other
    number of axes runs from the last axis to the first.
    """
    if len(changed) == 2:
        h, w = changed
        if out_shape[h] < in_shape[h] and 2 * (out_shape[w] - in_shape[w]) > out_shape[h] - in_shape[h]:
            return [h, w]
        return [w, h]
    return sorted(changed, reverse=True)


def _resample(
    image,
    out_shape,
    method: str,
    changed,
    edges,
    *,
    cubic_coeff_a=None,
    precision=lax.Precision.HIGHEST,
    strategy: str = "auto",
):
    """Resamples the ``changed`` axes of ``image`` to ``out_shape`` like ``Image.resize``;
    ``edges[axis]`` is the box's ``(in0, in1)`` on that axis, or ``None``."""
    dtype = np.dtype(image.dtype)
    order = pass_order(changed, image.shape, out_shape)
    if method == "pil_nearest":
        ops = [
            (a, _weights.Gather(nearest_indices(image.shape[a], out_shape[a], edges[a]), image.shape[a])) for a in order
        ]
        return _apply.run(image, ops, strategy=strategy)
    if dtype.kind == "b":
        raise TypeError(f"image has dtype bool, which only method='pil_nearest' can resize; got {method!r}.")
    k = kernel(method, cubic_coeff_a)
    taps = [(a, axis_taps(image.shape[a], out_shape[a], k, edges[a])) for a in order]
    policy = _rounding.FINAL_HALF_EVEN
    if dtype == np.uint8:
        taps, policy = [(a, quantized(t)) for a, t in taps], UINT8_POLICY
    elif dtype.kind in "iu":
        policy = INT_POLICY
    return _apply.run(image, taps, precision=precision, strategy=strategy, integer=policy)


def resize_method(
    image,
    shape,
    method: str,
    *,
    cubic_coeff_a: float | None = None,
    precision=lax.Precision.HIGHEST,
    strategy: str = "auto",
):
    """A ``pil_*`` method of ``jax_resize.resize``: every axis whose length changes is resampled.

    ``image`` and ``shape`` are validated by the caller; ``shape`` has the rank of ``image``.

    Returns:
      Array of ``shape`` and ``image``'s dtype.
    """
    image = jnp.asarray(image)
    changed = [a for a in range(image.ndim) if image.shape[a] != shape[a]]
    _v.check_empty_axes([image.shape[a] for a in changed], [shape[a] for a in changed], changed)
    if any(shape[a] == 0 for a in changed):
        return jnp.zeros(shape, image.dtype)
    return _resample(
        image,
        shape,
        method,
        changed,
        {a: None for a in changed},
        cubic_coeff_a=cubic_coeff_a,
        precision=precision,
        strategy=strategy,
    )


# --- Image.resize with box and reducing_gap -------------------------------------------------------


def _safe_box(size, resample, box, in_wh):
    """Pillow's ``Image._get_safe_box``: the integer box the filter can read, for ``reduce``."""
    support = _SUPPORT[resample] - 0.5
    sx = (box[2] - box[0]) / size[0] * support
    sy = (box[3] - box[1]) / size[1] * support
    return (
        max(0, int(box[0] - sx)),
        max(0, int(box[1] - sy)),
        min(in_wh[0], math.ceil(box[2] + sx)),
        min(in_wh[1], math.ceil(box[3] + sy)),
    )


def _block_taps(size: int, factor: int, *, mean: bool):
    """Taps summing (or averaging) ``[0, size)`` in blocks of ``factor``; a shorter last block
    uses what it has. Also returns the block sizes ``[n_out]``."""
    n_out = -(-size // factor)
    starts = factor * np.arange(n_out)
    index = np.minimum(starts[:, None] + np.arange(factor)[None, :], size - 1)
    count = np.minimum(size - starts, factor)
    valid = np.arange(factor)[None, :] < count[:, None]
    weight = np.where(valid, 1.0 / count[:, None] if mean else 1.0, 0.0)
    return _weights.Taps(index.astype(np.int32), weight, size), count


def _reduce(image, factor, box) -> jax.Array:
    """``Image.reduce(factor, box)``: block means over ``box``.

    uint8 follows Pillow's integer rule ``((sum + n // 2) * (2**24 // n)) >> 24`` for a block of
    ``n`` pixels (exact: the block sums are integers below 2**24, the product fits in uint32).
    """
    (fx, fy), (x0, y0, x1, y1) = factor, box
    image = image[y0:y1, x0:x1]
    dtype = np.dtype(image.dtype)
    mean = dtype.kind not in "iu"
    (taps_y, ny), (taps_x, nx) = _block_taps(y1 - y0, fy, mean=mean), _block_taps(x1 - x0, fx, mean=mean)
    if mean:
        return _apply.run(image, [(0, taps_y), (1, taps_x)])
    sums = _apply.run(jnp.asarray(image, jnp.float32), [(0, taps_y), (1, taps_x)])
    n = (ny[:, None] * nx[None, :]).reshape(ny.size, nx.size, *([1] * (image.ndim - 2)))
    return _rounding.fixed_point_mean(sums, n, dtype)


def pil_resize(
    image: ArrayLike, size, resample: int = BICUBIC, box=None, reducing_gap: float | None = None
) -> jax.Array:
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
        raise ValueError(
            f"resample={resample!r} is not supported; allowed: NEAREST=0, LANCZOS=1, BILINEAR=2, "
            f"BICUBIC=3, BOX=4, HAMMING=5."
        )
    width, height = _v.shape_tuple("size", size, 2)
    if width < 1 or height < 1:
        raise ValueError(f"size={tuple(size)!r} must be >= 1 in both dimensions (Pillow's rule).")
    in_h, in_w = np.shape(image)[:2]
    box = (0.0, 0.0, float(in_w), float(in_h)) if box is None else tuple(float(b) for b in box)
    if (
        len(box) != 4
        or box[0] < 0
        or box[1] < 0
        or box[2] > in_w
        or box[3] > in_h
        or box[2] < box[0]
        or box[3] < box[1]
    ):
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
    out_shape = (height, width) + tuple(image.shape[2:])
    edges = {0: (box[1], box[3]), 1: (box[0], box[2])}
    full = {0: (0.0, float(in_h)), 1: (0.0, float(in_w))}
    # Pillow skips a pass when the axis keeps its length and the box covers it exactly
    changed = [a for a in (0, 1) if out_shape[a] != image.shape[a] or edges[a] != full[a]]
    return _resample(image, out_shape, _METHOD[resample], changed, edges)
