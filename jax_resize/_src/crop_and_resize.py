"""Front end: ``tf.image.crop_and_resize`` — many boxes cropped from a batch and resized.

Contract: ``crop_and_resize(image, boxes, box_indices, crop_size)`` returns, for every box, the
crop of ``image[box_indices[b]]`` between the normalised corners ``(y1, x1)`` and ``(y2, x2)``,
sampled on a ``crop_h x crop_w`` grid, with the values TensorFlow's CPU kernel
(``core/kernels/image/crop_and_resize_op.cc``) computes: its float32 source coordinates, its
extrapolation test, its ``floorf``/``ceilf`` bilinear lerps and ``roundf`` nearest, each
operation rounded to float32 in its order. The boxes are traced (one jitted function for any box
values; differentiable with respect to ``image`` and, for bilinear, ``boxes``).

Why the arithmetic is guarded: XLA's CPU backend contracts a product that feeds an addition into
one fused multiply-add (one rounding where TensorFlow's kernel rounds twice), and rewrites a
division by a broadcast value as a multiplication by its reciprocal. Either moves a coordinate
by an ulp — enough to turn the sample on the last pixel into ``extrapolation_value``, or to move
a nearest sample across a ``.5`` — and which rewrite applies depends on the fusion, hence on the
other boxes in the batch. :func:`_rounded` and :func:`_divide` hide their operands from those
rewrites, so every product and quotient is rounded on its own, as in the kernel.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from . import dtypes as _dtypes
from . import frontend as _frontend
from . import kernels as _kernels
from . import records as _records
from . import rounding as _rounding
from . import validation as _v
from .execution import apply as _apply
from .execution import ordered as _ordered
from .peers import jax_image as _jax_image

#: ``method`` values of ``tf.image.crop_and_resize`` (TensorFlow's float32 values exactly when
#: ``antialias`` is off).
TF_METHODS = ("bilinear", "nearest")
#: Filtered methods of :func:`jax_resize.resize` (jax.image's kernels and boundaries), sampled at
#: TensorFlow's crop coordinates with weights computed on the device.
FILTER_METHODS = ("linear", "cubic", "lanczos3", "lanczos5", "cubic-pytorch", "area")
CROP_METHODS = TF_METHODS + FILTER_METHODS


def _crop_size(crop_size) -> tuple[int, int]:
    size = _v.int_sequence(
        "crop_size", crop_size, length=2, minimum=1, what="a pair of positive ints (crop_height, crop_width)"
    )
    return size[0], size[1]


def _source_coordinates(start: jax.Array, end: jax.Array, in_size: int, out_size: int) -> jax.Array:
    """TensorFlow's float32 source coordinate of every output row of every box, ``[num_boxes, out_size]``.

    ``out_size > 1``: ``start * (in - 1) + i * scale`` with ``scale = (end - start) * (in - 1) /
    (out_size - 1)``; ``out_size == 1``: ``0.5 * (start + end) * (in - 1)`` (the kernel evaluates
    this one in double and stores it as float; ``0.5 * s`` is exact, so the single float32
    rounding of the product is the same value).
    """
    last = jnp.float32(in_size - 1)
    if out_size == 1:
        return ((0.5 * (start + end)) * last)[:, None]
    scale = _ordered.divided((end - start) * last, out_size - 1)
    i = jnp.arange(out_size, dtype=jnp.float32)
    return _ordered.rounded(start * last)[:, None] + _ordered.rounded(i[None, :] * scale[:, None])


def _inside(coord: jax.Array, in_size: int) -> jax.Array:
    """The kernel's test ``!(in < 0 || in > in_size - 1)``; NaN (traced non-finite boxes) is outside."""
    return (coord >= 0) & (coord <= jnp.float32(in_size - 1))


def _index(value: jax.Array, in_size: int) -> jax.Array:
    """An integer-valued float coordinate as a gather index (clipped: outside samples are masked)."""
    return jnp.clip(value, 0, in_size - 1).astype(jnp.int32)


def crop_and_resize(
    image: ArrayLike,
    boxes: ArrayLike,
    box_indices: ArrayLike,
    crop_size,
    method: str = "bilinear",
    extrapolation_value: float = 0.0,
    *,
    antialias: bool = False,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
) -> jax.Array:
    """Crops boxes from a batch of images and resizes them, as ``tf.image.crop_and_resize``.

    For box ``b = [y1, x1, y2, x2]`` (normalised: 0 and 1 are the first and last pixel centres)
    and output row ``i`` of ``crop_h``, the input row is, in float32 and in this order,

    ``in_y = y1 * (H - 1) + i * ((y2 - y1) * (H - 1) / (crop_h - 1))`` (``crop_h > 1``), or
    ``in_y = 0.5 * (y1 + y2) * (H - 1)`` (``crop_h == 1``),

    and likewise for columns with ``x1, x2, W, crop_w``. ``y1 > y2`` flips the crop vertically
    (``x1 > x2`` horizontally); boxes may extend beyond the image. A sample with ``in_y`` or
    ``in_x`` outside ``[0, H - 1]`` / ``[0, W - 1]`` takes ``extrapolation_value``. Bilinear
    lerps the ``floor``/``ceil`` neighbours as TensorFlow does (``top = tl + (tr - tl) * dx``,
    the same for the bottom row, then ``top + (bottom - top) * dy``); nearest takes the pixel at
    ``roundf`` (half away from zero) of each coordinate. Every operation is rounded to float32
    as in TensorFlow's CPU kernel, so the results are TensorFlow's float32 values exactly (NaN
    where TensorFlow has NaN), with and without an enclosing ``jax.jit`` (see the module
    docstring for how XLA's rewrites are kept out).

    Every filter of :func:`jax_resize.resize` is available too, at the same sample coordinates:
    ``"linear"``, ``"cubic"`` (Keys 1981, a = -0.5), ``"lanczos3"``, ``"lanczos5"``,
    ``"cubic-pytorch"``, ``"area"``, and ``"bilinear"`` with ``antialias=True``. Output ``i``
    weights input ``j`` by ``kernel((j - in_y) / stretch)``, rows renormalised over the taps
    inside the image (``cubic-pytorch``: edge pixels repeated), where ``stretch = max(1, |step|)``
    with antialias (``step`` = the sample spacing ``(y2 - y1) * (H - 1) / (crop_h - 1)`` in
    pixels; ``area``: the footprint ``|step|`` always) — jax.image's antialias for the scale
    ``1 / step``. The window is sized statically for boxes inside the image: ``|step|`` is clamped to
    ``max(1, (H - 1) / (crop_h - 1))`` (``H - 1`` for ``crop_h == 1``, whose sample spacing is the
    box height), so a box larger than the image is filtered as if it were the whole image. These
    weights are computed in float32 on the device; samples outside the image still take
    ``extrapolation_value``.

    Args:
      image: ``[N, H, W, C]`` array, any real dtype (converted to float32 as TensorFlow does).
      boxes: ``[num_boxes, 4]`` float ``[y1, x1, y2, x2]`` (converted to float32); may be traced
        (differentiable). Non-finite values are refused when concrete, as TensorFlow does; traced
        ones give ``extrapolation_value`` at the samples they reach.
      box_indices: ``[num_boxes]`` integers in ``[0, N)``: the image each box is cut from. Checked
        when concrete; traced indices out of range are clamped.
      crop_size: ``(crop_h, crop_w)``, positive Python ints (static).
      method: ``"bilinear"`` (default) or ``"nearest"`` (TensorFlow's), or a filter of
        ``resize``: ``"linear"``, ``"cubic"``, ``"lanczos3"``, ``"lanczos5"``, ``"cubic-pytorch"``,
        ``"area"``.
      extrapolation_value: value of samples outside the image (a static float, stored as float32).
      antialias: stretch the filter when a box is shrunk (``|step| > 1``); not for nearest.
      cubic_coeff_a, exclude_outside: as in :func:`jax_resize.resize`, for the filters.

    Returns:
      float32 array ``[num_boxes, crop_h, crop_w, C]``.

    Raises:
      ValueError: ``image`` not rank 4 or with an empty spatial axis, ``boxes`` not
        ``[num_boxes, 4]`` or (concrete) not finite, ``box_indices`` not ``[num_boxes]`` or
        (concrete) out of ``[0, N)``, a ``crop_size`` that is not two positive ints, an unknown
        ``method``, ``antialias`` with nearest, filter options with TensorFlow's methods.
      TypeError: non-numeric ``image``/``boxes``, non-integer ``box_indices``, traced
        ``crop_size``/``method``/``extrapolation_value``.

    Example:
      >>> import numpy as np, jax_resize
      >>> img = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
      >>> out = jax_resize.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], (2, 2))
      >>> out[0, :, :, 0].tolist()
      [[0.0, 3.0], [12.0, 15.0]]

      >>> soft = jax_resize.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], (2, 2), "cubic", antialias=True)
      >>> soft.shape
      (1, 2, 2, 1)

    Source: TensorFlow ``tf.image.crop_and_resize`` (``core/kernels/image/crop_and_resize_op.cc``,
    the CPU functor ``CropAndResize<CPUDevice, T>``); the filters: ``jax.image.scale_and_translate``
    (Keys 1981, Lanczos, area overlaps).
    """
    method = _v.choice("method", method, CROP_METHODS)
    antialias = _v.flag("antialias", antialias)
    if method == "nearest" and antialias:
        raise ValueError("antialias=True needs a filter; method='nearest' has none (use 'area' or 'linear').")
    if method in TF_METHODS and (cubic_coeff_a is not None or exclude_outside is not None):
        raise ValueError(
            f"cubic_coeff_a / exclude_outside apply to the resize filters ({', '.join(FILTER_METHODS)}); "
            f"method={method!r} reproduces TensorFlow's kernel, which has neither."
        )
    if method == "bilinear" and antialias:
        method = "linear"  # the triangle filter, stretched
    extrapolation_value = _v.finite_float("extrapolation_value", extrapolation_value)
    crop_h, crop_w = _crop_size(crop_size)
    # TensorFlow converts each pixel with static_cast<float>: on the host for host arrays (64-bit
    # inputs that jax without x64 would first narrow to 32 bits)
    image, _ = _frontend.prologue(
        "image",
        image,
        ranks=(4,),
        layout="of rank 4 [N, H, W, C]",
        real="image must be real (int or float); got dtype {dtype}.",
        float32=True,
    )
    n, height, width, channels = image.shape
    num_boxes = np.shape(boxes)[0] if np.ndim(boxes) == 2 else 1
    _frontend.output_size((num_boxes, crop_h, crop_w, channels), "crop_size")
    if height < 1 or width < 1:
        raise ValueError(f"image must have H >= 1 and W >= 1; got shape {image.shape}.")
    boxes_dtype = _dtypes.dtype_of(boxes)
    if boxes_dtype.kind not in "fiu":
        raise TypeError(f"boxes must be real numbers; got dtype {boxes_dtype}.")
    if np.ndim(boxes) != 2 or np.shape(boxes)[1] != 4:
        raise ValueError(f"boxes must have shape [num_boxes, 4] ([y1, x1, y2, x2] rows); got {np.shape(boxes)}.")
    if not _v.is_traced(boxes) and not np.all(np.isfinite(np.asarray(boxes, np.float32))):
        raise ValueError("boxes must be finite (TensorFlow refuses non-finite boxes too).")
    boxes = jnp.asarray(boxes, jnp.float32)
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
    empty = _frontend.empty_output((num_boxes, crop_h, crop_w, channels), image.dtype)
    if empty is not None:  # no boxes or no channels: no sample coordinates or weights
        return empty
    if method in FILTER_METHODS:
        if cubic_coeff_a is not None:
            cubic_coeff_a = _v.finite_float("cubic_coeff_a", cubic_coeff_a)
        options = (method, antialias, cubic_coeff_a, None if exclude_outside is None else bool(exclude_outside))
        return _filtered(
            image, boxes, box_indices, crop_h=crop_h, crop_w=crop_w, options=options, fill=extrapolation_value
        )
    return _crop_and_resize(
        image, boxes, box_indices, crop_h=crop_h, crop_w=crop_w, method=method, extrapolation_value=extrapolation_value
    )


def _box_taps(start, end, in_size: int, out_size: int, options):
    """Taps of one axis of one box (traced): TensorFlow's sample coordinates, the filter stretched
    by the clamped sample spacing (see :func:`crop_and_resize`), rows outside the image flagged."""
    x = _source_coordinates(start[None], end[None], in_size, out_size)[0]  # [out]
    span = jnp.abs(end - start) * jnp.float32(in_size - 1)
    step = span / (out_size - 1) if out_size > 1 else span
    bound = _kernels.stretch((in_size - 1) / (out_size - 1) if out_size > 1 else float(in_size - 1))
    taps = _jax_image.traced_filter_taps(x, in_size, step, bound, options)
    return _records.Taps(taps.index, taps.weight, in_size, ~_inside(x, in_size))


@functools.partial(jax.jit, static_argnames=("crop_h", "crop_w", "options", "fill"))
def _filtered(image, boxes, box_indices, *, crop_h, crop_w, options, fill):
    _, height, width, _ = image.shape
    n = jnp.clip(box_indices, 0, image.shape[0] - 1)

    def one(box, index):
        ops = [
            (0, _box_taps(box[0], box[2], height, crop_h, options)),
            (1, _box_taps(box[1], box[3], width, crop_w, options)),
        ]
        return _apply.run(image[index], ops, extrapolation_value=fill)

    return jax.vmap(one)(boxes, n)


@functools.partial(jax.jit, static_argnames=("crop_h", "crop_w", "method", "extrapolation_value"))
def _crop_and_resize(image, boxes, box_indices, *, crop_h, crop_w, method, extrapolation_value):
    _, height, width, _ = image.shape
    in_y = _source_coordinates(boxes[:, 0], boxes[:, 2], height, crop_h)  # [B, crop_h]
    in_x = _source_coordinates(boxes[:, 1], boxes[:, 3], width, crop_w)  # [B, crop_w]
    inside = _inside(in_y, height)[:, :, None] & _inside(in_x, width)[:, None, :]  # [B, crop_h, crop_w]
    n = jnp.clip(box_indices, 0, image.shape[0] - 1)[:, None, None]
    if method == "nearest":
        out = image[
            n,
            _index(_rounding.half_up_exact(in_y), height)[:, :, None],
            _index(_rounding.half_up_exact(in_x), width)[:, None, :],
        ]
    else:
        top, left = jnp.floor(in_y), jnp.floor(in_x)
        dy = (in_y - top)[:, :, None, None]  # exact: the fraction of a float
        dx = (in_x - left)[:, None, :, None]
        t, b = _index(top, height)[:, :, None], _index(jnp.ceil(in_y), height)[:, :, None]
        lf, r = _index(left, width)[:, None, :], _index(jnp.ceil(in_x), width)[:, None, :]
        top_row = image[n, t, lf] + _ordered.rounded((image[n, t, r] - image[n, t, lf]) * dx)
        bottom_row = image[n, b, lf] + _ordered.rounded((image[n, b, r] - image[n, b, lf]) * dx)
        out = top_row + _ordered.rounded((bottom_row - top_row) * dy)
    return jnp.where(inside[..., None], out, jnp.float32(extrapolation_value))
