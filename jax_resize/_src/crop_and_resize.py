"""Front end: ``tf.image.crop_and_resize`` — many boxes cropped from a batch and resized.

Contract: ``crop_and_resize(image, boxes, box_indices, crop_size)`` returns, for every box, the
crop of ``image[box_indices[b]]`` between the normalised corners ``(y1, x1)`` and ``(y2, x2)``,
sampled on a ``crop_h x crop_w`` grid with TensorFlow's rule (the ONNX ``tf_crop_and_resize``
coordinates). The boxes are traced: each box's per-axis taps come from the coordinates layer
(``source_coordinates(..., xp=jax.numpy)``) and the weights layer (ONNX's ``axis_record``), the
path ``onnx_resize`` uses for a traced ``roi``, so the output is differentiable with respect to
``image`` and ``boxes``. The boxes are batched with ``jax.vmap``.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from . import dtypes as _dtypes
from . import kernels as _kernels
from . import validation as _v
from . import weights as _weights
from .peers import onnx as _onnx
from .peers import tensorflow as _tensorflow

#: ``method`` values, as in ``tf.image.crop_and_resize``.
CROP_METHODS = ("bilinear", "nearest")


def _crop_size(crop_size) -> tuple[int, int]:
    size = _v.int_sequence(
        "crop_size", crop_size, length=2, minimum=1, what="a pair of positive ints (crop_height, crop_width)"
    )
    return size[0], size[1]


def _live_columns(radius: float) -> np.ndarray:
    """Columns of ``filter_taps``'s window that can hold a non-zero weight at stretch 1.

    The window is ``ceil(x) + o`` for offsets ``o`` in ``[-half, half)``; the distance
    ``d = ceil(x) + o - x`` lies in ``[o, o + 1)``, so a column is identically zero when
    ``o + 1 <= -radius`` or ``o >= radius`` (for the triangle: the two middle columns remain).
    """
    half = int(math.ceil(radius)) + 1
    offsets = np.arange(2 * half) - half
    return np.nonzero((offsets + 1 > -radius) & (offsets < radius))[0]


def _axis(in_size: int, out_size: int, start, end, method: str):
    """One axis of one box: ``(index or (index, weight), outside)`` from ONNX's record."""
    if out_size == 1:
        # TF: in = 0.5 * (start + end) * (in_size - 1). A zero-length roi at the midpoint gives
        # exactly that in both of source_coordinates' branches (its test of `scale * in_size == 1`
        # is not exact in floating point for every in_size).
        start = end = 0.5 * (start + end)
    scale = out_size / in_size
    record = _onnx.axis_record(
        in_size,
        out_size,
        scale,
        mode="nearest" if method == "nearest" else "linear",
        roi=(start, end),
        coordinate_transformation_mode="tf_crop_and_resize",
        nearest_mode=_tensorflow.CROP_NEAREST_RULE,
    )
    if isinstance(record, _weights.Gather):
        return record.index, record.outside
    live = _live_columns(_kernels.TRIANGLE.radius)
    return (record.index[:, live], record.weight[:, live]), record.outside


def crop_and_resize(
    image: ArrayLike,
    boxes: ArrayLike,
    box_indices: ArrayLike,
    crop_size,
    method: str = "bilinear",
    extrapolation_value: float = 0.0,
) -> jax.Array:
    """Crops boxes from a batch of images and resizes them, as ``tf.image.crop_and_resize``.

    For box ``b = [y1, x1, y2, x2]`` (normalised: 0 and 1 are the first and last pixel centres)
    and output row ``i`` of ``crop_h``, the input row is

    ``in_y = y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1)`` (``crop_h > 1``), or
    ``in_y = 0.5 * (y1 + y2) * (H - 1)`` (``crop_h == 1``),

    and likewise for columns with ``x1, x2, W, crop_w``. ``y1 > y2`` flips the crop vertically
    (``x1 > x2`` horizontally); boxes may extend beyond the image. A sample with ``in_y`` or
    ``in_x`` outside ``[0, H - 1]`` / ``[0, W - 1]`` takes ``extrapolation_value``; the others are
    interpolated bilinearly (``floor``/``ceil`` neighbours) or take the nearest pixel
    (``round``, half away from zero). These are ONNX Resize's ``tf_crop_and_resize`` coordinates
    with ``roi = (y1, y2)``; nearest is its ``nearest_mode="round_prefer_ceil"``.

    Args:
      image: ``[N, H, W, C]`` array, any real dtype (computed and returned as float32).
      boxes: ``[num_boxes, 4]`` float ``[y1, x1, y2, x2]``; may be traced (differentiable).
      box_indices: ``[num_boxes]`` integers in ``[0, N)``: the image each box is cut from. Checked
        when concrete; traced indices out of range are clamped.
      crop_size: ``(crop_h, crop_w)``, positive Python ints (static).
      method: ``"bilinear"`` (default) or ``"nearest"``.
      extrapolation_value: value of samples outside the image (a static float).

    Returns:
      float32 array ``[num_boxes, crop_h, crop_w, C]``.

    Raises:
      ValueError: ``image`` not rank 4 or with an empty spatial axis, ``boxes`` not
        ``[num_boxes, 4]``, ``box_indices`` not ``[num_boxes]`` or (concrete) out of
        ``[0, N)``, a ``crop_size`` that is not two positive ints, an unknown ``method``.
      TypeError: non-numeric ``image``/``boxes``, non-integer ``box_indices``, traced
        ``crop_size``/``method``/``extrapolation_value``.

    Example:
      >>> import numpy as np, jax_resize
      >>> img = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
      >>> out = jax_resize.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], (2, 2))
      >>> out[0, :, :, 0].tolist()
      [[0.0, 3.0], [12.0, 15.0]]

    Source: TensorFlow ``tf.image.crop_and_resize`` (``core/kernels/image/crop_and_resize_op.cc``);
    ONNX Resize ``coordinate_transformation_mode="tf_crop_and_resize"``.
    """
    method = _v.choice("method", method, CROP_METHODS)
    extrapolation_value = _v.finite_float("extrapolation_value", extrapolation_value)
    crop_h, crop_w = _crop_size(crop_size)
    dtype = _dtypes.check_dtype(_dtypes.dtype_of(image), name="image")
    if dtype.kind in "bc":
        raise TypeError(f"image must be real (int or float); got dtype {dtype}.")
    image = jnp.asarray(image)
    if image.ndim != 4:
        raise ValueError(f"image must have rank 4 [N, H, W, C]; got shape {image.shape}.")
    n, height, width, _ = image.shape
    if height < 1 or width < 1:
        raise ValueError(f"image must have H >= 1 and W >= 1; got shape {image.shape}.")
    boxes_dtype = _dtypes.dtype_of(boxes)
    if boxes_dtype.kind not in "fiu":
        raise TypeError(f"boxes must be real numbers; got dtype {boxes_dtype}.")
    boxes = jnp.asarray(boxes, jnp.float32)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"boxes must have shape [num_boxes, 4] ([y1, x1, y2, x2] rows); got {boxes.shape}.")
    index_dtype = _dtypes.dtype_of(box_indices)
    if index_dtype.kind not in "iu":
        raise TypeError(f"box_indices must be integers; got dtype {index_dtype}.")
    if np.shape(box_indices) != (boxes.shape[0],):
        raise ValueError(
            f"box_indices must have shape [num_boxes] = [{boxes.shape[0]}] (one per box); got {np.shape(box_indices)}."
        )
    if not _v.is_traced(box_indices):
        concrete = np.asarray(box_indices)
        bad = concrete[(concrete < 0) | (concrete >= n)]
        if bad.size:
            raise ValueError(f"box_indices must be in [0, N) = [0, {n}); got {bad.tolist()[:8]!r}.")
    box_indices = jnp.asarray(box_indices, jnp.int32)
    image = image.astype(jnp.float32)
    return _crop_and_resize(
        image, boxes, box_indices, crop_h=crop_h, crop_w=crop_w, method=method, extrapolation_value=extrapolation_value
    )


@functools.partial(jax.jit, static_argnames=("crop_h", "crop_w", "method", "extrapolation_value"))
def _crop_and_resize(image, boxes, box_indices, *, crop_h, crop_w, method, extrapolation_value):
    _, height, width, _ = image.shape

    def one_box(box, index):
        y_op, y_out = _axis(height, crop_h, box[0], box[2], method)
        x_op, x_out = _axis(width, crop_w, box[1], box[3], method)
        if method == "nearest":
            out = image[index, y_op[:, None], x_op[None, :]]  # [crop_h, crop_w, C]
        else:
            out = _gather_taps(image, index, y_op, x_op)
        outside = y_out[:, None] | x_out[None, :]
        return jnp.where(outside[:, :, None], jnp.float32(extrapolation_value), out)

    return jax.vmap(one_box)(boxes, box_indices)


def _gather_taps(image, index, y_taps, x_taps):
    """``out[i, j] = sum_{k, l} wy[i, k] wx[j, l] image[index, iy[i, k], ix[j, l]]``, ``[crop_h, crop_w, C]``.

    The banded contraction of :func:`.banded.banded_traced` over both spatial axes, with the box's
    image index folded into each gather: slicing ``image[index]`` first would, under ``vmap``,
    materialise a ``[num_boxes, H, W, C]`` copy (and its gradient a scatter into one).
    Zero-weight taps are skipped, so non-finite pixels reach only the samples that weight them.
    """
    (iy, wy), (ix, wx) = y_taps, x_taps
    out = None
    for ky in range(iy.shape[1]):
        for kx in range(ix.shape[1]):
            v = image[index, iy[:, ky, None], ix[None, :, kx]]  # [crop_h, crop_w, C]
            w = (wy[:, ky, None] * wx[None, :, kx])[:, :, None].astype(image.dtype)
            term = jnp.where(w != 0, w * v, 0)
            out = term if out is None else out + term
    return out
