"""Peer: TensorFlow 2's ``tf.image.resize`` (``tf_resize``) on the core layers.

Contract: same argument names, defaults and output shapes as ``tf.image.resize``; values follow
TF2's kernels (``tensorflow/python/ops/image_ops_impl.py``, ``resize_images_v2``): half-pixel
centres everywhere; ``bilinear``/``bicubic`` without antialias are ``ResizeBilinear`` /
``ResizeBicubic`` with ``half_pixel_centers=True`` (Keys a = -0.5, out-of-image taps dropped and
renormalised — the same weights as ``jax.image.resize``); with antialias and for ``lanczos3``,
``lanczos5`` they are ``ScaleAndTranslate`` kernels; ``area`` is ``ResizeArea``; ``nearest`` is
``ResizeNearestNeighbor(half_pixel_centers=True)``: ``floor((o + 0.5f) * f32(in / out))``.
"""

from __future__ import annotations

import jax
import numpy as np
from jax.typing import ArrayLike

from .. import apply as _apply
from .. import dtypes as _dtypes
from .. import validation as _v
from .. import weights as _weights
from . import jax_image as _jax_image

TF_METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5")
_TO_RESIZE = {"bilinear": "linear", "bicubic": "cubic", "area": "area", "lanczos3": "lanczos3", "lanczos5": "lanczos5"}


#: ``tf.image.crop_and_resize`` rounds the nearest coordinate with ``roundf`` (half away from zero);
#: coordinates inside the image are >= 0, so that is the ``round_prefer_ceil`` rule.
CROP_NEAREST_RULE = "round_prefer_ceil"


def nearest_indices(in_size: int, out_size: int) -> np.ndarray:
    """``ResizeNearestNeighbor(half_pixel_centers=True)``: ``min(floor((o + 0.5f) * s), in - 1)``,
    ``s = f32(in) / f32(out)``, all in float32 as TensorFlow computes it. Shape ``[out_size]``."""
    f32 = np.float32
    scale = f32(in_size) / f32(out_size)
    o = np.arange(out_size, dtype=f32)
    return _weights.nearest_indices((o + f32(0.5)) * scale, in_size, "floor")


def _aspect_size(in_hw, size):
    """TF's preserve_aspect_ratio: ``round(min(new_h / h, new_w / w) * (h, w))`` in float32."""
    f32 = np.float32
    scale = min(f32(size[0]) / f32(in_hw[0]), f32(size[1]) / f32(in_hw[1]))
    return tuple(int(np.round(f32(scale) * f32(n))) for n in in_hw)


def tf_resize(
    images: ArrayLike, size, method: str = "bilinear", preserve_aspect_ratio: bool = False, antialias: bool = False
) -> jax.Array:
    """``tf.image.resize`` (TF2) in JAX: resize the H, W axes of ``[N, H, W, C]`` or ``[H, W, C]``.

    Coordinates use half-pixel centres, ``x = (o + 0.5) * in / out - 0.5``; each method's kernel
    gives a ``[out, in]`` weight matrix per axis (``bilinear`` triangle, ``bicubic`` Keys
    a = -0.5, ``lanczos3``/``lanczos5``, ``area`` box overlap), taps outside the image dropped and
    rows renormalised; with ``antialias`` the kernel is stretched by ``max(1, in / out)``.

    Args:
      images: ``[N, H, W, C]`` or ``[H, W, C]``, any real dtype.
      size: ``(new_height, new_width)``, static ints >= 0.
      method: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"``, ``"area"``, ``"lanczos3"``,
        ``"lanczos5"`` (``tf.image.ResizeMethod`` values).
      preserve_aspect_ratio: fit inside ``size`` keeping the aspect ratio:
        ``round(min(new_h / h, new_w / w) * (h, w))``.
      antialias: stretch the kernel when downsampling (``ScaleAndTranslate``).

    Returns:
      ``[N, new_h, new_w, C]`` (or 3-D): float32, except ``nearest`` keeps the input dtype (as TF).

    Raises:
      ValueError: rank not 3 or 4, bad ``size``, unknown ``method``.

    Example:
      >>> import numpy as np
      >>> tf_resize(np.ones((4, 6, 3), np.float32), (8, 12)).shape
      (8, 12, 3)

    Source: TensorFlow ``image_ops_impl.resize_images_v2`` and the kernels in
    ``core/kernels/image/`` (resize_bilinear_op.cc, resize_bicubic_op.cc, resize_area_op.cc,
    resize_nearest_neighbor_op.cc, scale_and_translate_op.cc).
    """
    method = _v.choice("method", method, TF_METHODS)
    ndim = np.ndim(images)
    if ndim not in (3, 4):
        raise ValueError(f"images must be [H, W, C] or [N, H, W, C]; got rank {ndim} (shape {np.shape(images)}).")
    hw = (1, 2) if ndim == 4 else (0, 1)
    in_hw = tuple(np.shape(images)[a] for a in hw)
    size = _v.shape_tuple("size", size, 2)
    if preserve_aspect_ratio:
        size = _aspect_size(in_hw, size)
    shape = list(np.shape(images))
    for a, s in zip(hw, size):
        shape[a] = s
    if method == "nearest":
        ops = [
            (a, _weights.Gather(nearest_indices(n, s), n) if n and s else _weights.empty(n, s, gather=True))
            for a, n, s in zip(hw, in_hw, size)
            if n != s
        ]
        return _apply.run(images, ops)
    _dtypes.check_dtype(_dtypes.dtype_of(images), name="images")
    y = _jax_image.resize(images, tuple(shape), _TO_RESIZE[method], antialias=bool(antialias))
    return y.astype(np.float32)
