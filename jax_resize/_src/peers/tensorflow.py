"""Peer: TensorFlow's image resizers on the core layers — ``tf.image.resize`` (``tf_resize``),
``tf.compat.v1.image.resize`` (``tf_resize_v1``) and the v1 kernels ``resize_bilinear``,
``resize_bicubic``, ``resize_nearest_neighbor``, ``resize_area`` (``tf_resize_bilinear`` ...).

Contract: same argument names, defaults, output shapes and dtypes as TensorFlow 2.21's functions;
values follow its CPU kernels, each axis's record built on the host in TensorFlow's own float32
arithmetic (:mod:`.tensorflow_kernels`, this peer's part); what remains is the order of float32
additions (TensorFlow interpolates bilinear as ``a + (b - a) t``, and adds the edge pixel once per
clamped tap).

Filtered methods convert every input value to float32 first and compute in float32 (float32
output for every input dtype); nearest copies values (the input dtype).
"""

from __future__ import annotations

import numbers

import jax
import numpy as np
from jax.typing import ArrayLike

from .. import frontend as _frontend
from .. import records as _records
from .. import validation as _v
from ..execution import apply as _apply
from . import tensorflow_kernels as _tf_kernels

_F32 = np.float32

#: ``tf.image.ResizeMethod`` values accepted by :func:`tf_resize`.
TF_METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
#: ``tf.compat.v1.image.ResizeMethod`` values (``BILINEAR = 0`` ... ``AREA = 3``), by name.
V1_METHODS = ("bilinear", "nearest", "bicubic", "area")


# --- front ends ------------------------------------------------------------------------------------


def tf_size(size, *, kernel: bool = False) -> tuple[int, int]:
    """TensorFlow's ``size`` argument as ``(new_height, new_width)`` ints, refused where TensorFlow
    refuses it. ``kernel``: the v1 kernels' rules (``tf.compat.v1.image.resize_bilinear`` ...),
    which convert ``size`` to an int32 tensor directly; otherwise ``tf.image.resize``'s checks.

    An integer array or a sequence of ints is accepted; a float array only with integral values
    (TensorFlow truncates ``[6.9, 4.2]`` to ``[6, 4]``; jax_resize refuses it rather than resize to
    a size nobody wrote). Entries must be > 0 (TensorFlow: "output dimensions must be positive").

    Raises:
      TypeError: a traced ``size``; for the kernels, entries that are not ints (TensorFlow: "Cannot
        convert ... to EagerTensor of dtype int32").
      ValueError: not two entries, ``None`` entries, entries < 1; for ``tf.image.resize``, entries
        that are not ints ("'size' must be a 1-D int32 Tensor").
    """
    if _v.is_traced(size):
        raise TypeError("size must be static because it fixes the output shape; got a traced value.")
    if isinstance(size, np.ndarray) and size.dtype.kind == "f" and size.shape == (2,):
        if not np.all(np.isfinite(size) & (size == np.trunc(size))):
            raise ValueError(
                f"size={size!r} has non-integral values; TensorFlow truncates them to "
                f"{np.trunc(size).tolist()!r}, jax_resize refuses: pass the integers meant."
            )
        size = size.astype(np.int64)
    wrong_type = TypeError if kernel else ValueError
    if isinstance(size, (str, bytes)):
        raise wrong_type(f"size={size!r}: size must be (new_height, new_width), two ints.")
    try:
        entries = list(size)
    except TypeError:
        raise ValueError(f"size={size!r}: size must be a 1-D sequence of 2 elements: new_height, new_width.") from None
    if len(entries) != 2 or any(np.ndim(e) != 0 for e in entries):
        raise ValueError(f"size={size!r}: size must be a 1-D sequence of 2 elements: new_height, new_width.")
    if any(e is None for e in entries):
        raise ValueError(f"size={size!r}: size must be two ints; None is not a length.")
    for e in entries:
        if isinstance(e, (bool, np.bool_)) or not isinstance(e, numbers.Integral):
            raise wrong_type(f"size={size!r}: size must be two ints (an int32 tensor); {e!r} is not an int.")
    return _positive_size(tuple(int(e) for e in entries))


def _positive_size(size) -> tuple[int, int]:
    if min(size) < 1:
        raise ValueError(f"size={tuple(size)!r}: output dimensions must be positive (TensorFlow refuses 0 and less).")
    return size


def _aspect_size(in_hw, size):
    """TF's preserve_aspect_ratio: ``round(min(new_h / h, new_w / w) * (h, w))`` in float32."""
    with np.errstate(over="ignore"):  # sizes beyond float32 (or float) become inf
        new = [_F32(s) if s < 2**128 else _F32(np.inf) for s in size]
        scale = min(new[0] / _F32(in_hw[0]), new[1] / _F32(in_hw[1]))
        return tuple(int(np.round(_v.finite_length(f"size={tuple(size)!r}", _F32(scale) * _F32(n)))) for n in in_hw)


def _image_axes(images, ranks=(3, 4), name="images"):
    """The H, W axes of ``[N, H, W, C]`` (or ``[H, W, C]`` when 3 is allowed) and their lengths."""
    ndim = np.ndim(images)
    if ndim not in ranks:
        want = "[H, W, C] or [N, H, W, C]" if 3 in ranks else "[N, H, W, C]"
        raise ValueError(f"{name} must be {want}; got rank {ndim} (shape {np.shape(images)}).")
    hw = (ndim - 3, ndim - 2)
    return hw, tuple(int(np.shape(images)[a]) for a in hw)


#: The filtered kernels read every value converted to float32 (``_frontend.prologue(float32=True)``).
_REAL_ONLY = (
    "images has dtype {dtype}; TensorFlow's filtered resizes take real numbers (int8-int64, "
    "uint8-uint64, float16, bfloat16, float32, float64). Use method 'nearest' to copy other dtypes."
)


def _is_exact_copy(record) -> bool:
    """Whether a host record copies its axis unchanged (``out[o] = in[o]``, weight exactly 1)."""
    n = record.in_size
    if record.out_size != n:
        return False
    if isinstance(record, _records.Gather):
        return bool(np.array_equal(record.index, np.arange(n)))
    return record.index.shape[1] == 1 and bool(
        np.array_equal(record.index[:, 0], np.arange(n)) and np.all(record.weight == 1.0)
    )


def _resize_with(images, size, hw, in_hw, method: str, **options) -> jax.Array:
    """Applies the method's record to the H and W axes — every axis, also one whose length is
    kept, as TensorFlow's kernels filter those too (gaussian and mitchellcubic blur it); only
    records that are exact copies are skipped."""
    shape = list(np.shape(images))
    _positive_size(size)  # preserve_aspect_ratio may round a length to 0
    if min(in_hw) < 1 or shape[-1] < 1:  # TensorFlow's kernels refuse both
        raise ValueError(
            f"images of shape {tuple(shape)}: TensorFlow's resize needs an image of non-zero size "
            "and at least one channel."
        )
    for axis, n in zip(hw, size):
        shape[axis] = n
    _frontend.output_size(shape, "size")
    gather = method == "nearest"
    images, _ = _frontend.prologue("images", images, real=None if gather else _REAL_ONLY, float32=not gather)
    _v.check_empty_axes(in_hw, size, hw)
    empty = _frontend.empty_output(shape, images.dtype)
    if empty is not None:  # no axis's weights (another axis may be huge)
        return empty
    record = _tf_kernels.filter_records(method, **options)
    ops = [(a, _records.Gather(record(n, s), n) if gather else record(n, s)) for a, n, s in zip(hw, in_hw, size)]
    ops = [(a, r) for a, r in ops if not _is_exact_copy(r)]  # exact copies (x * 1.0): no pass needed
    out = _apply.run(images, ops)
    if method == "area":
        out = out * _tf_kernels.area_factor(in_hw, size, align_corners=options.get("align_corners", False))
    return out


def tf_resize(
    images: ArrayLike, size, method: str = "bilinear", preserve_aspect_ratio: bool = False, antialias: bool = False
) -> jax.Array:
    """``tf.image.resize`` (TF2) in JAX: resize the H, W axes of ``[N, H, W, C]`` or ``[H, W, C]``.

    Half-pixel float32 coordinates ``x = (o + 0.5) * in / out - 0.5``: ``nearest``, ``bilinear``,
    ``bicubic`` (Keys a = -0.5 from TensorFlow's 1024-step table) and ``area`` are the v1 kernels
    with half-pixel centres; ``lanczos3``, ``lanczos5``, ``gaussian`` (sigma 0.5, radius 1.5),
    ``mitchellcubic`` (B = C = 1/3), and ``bilinear`` / ``bicubic`` with ``antialias``, are
    ``ScaleAndTranslate`` kernels. Every axis is filtered, also one whose length is kept
    (gaussian and mitchellcubic then blur, as in TensorFlow).

    Args:
      images: ``[N, H, W, C]`` or ``[H, W, C]``: integers, float16, bfloat16, float32, float64
        (any dtype for ``nearest``).
      size: ``(new_height, new_width)``, static ints >= 1 (:func:`tf_size`).
      method: ``"bilinear"`` (default), ``"nearest"``, ``"bicubic"``, ``"area"``, ``"lanczos3"``,
        ``"lanczos5"``, ``"gaussian"``, ``"mitchellcubic"`` (``tf.image.ResizeMethod`` values).
      preserve_aspect_ratio: fit inside ``size`` keeping the aspect ratio:
        ``round(min(new_h / h, new_w / w) * (h, w))`` in float32.
      antialias: stretch the kernel when downsampling (ignored by ``nearest`` and ``area``).

    Returns:
      ``[N, new_h, new_w, C]`` (or 3-D): float32, computed from the input converted to float32;
      ``nearest`` keeps the input dtype (as TF).

    Raises:
      ValueError: rank not 3 or 4, bad ``size`` (not two ints >= 1, :func:`tf_size`), an image
        with no pixels or no channels (TensorFlow refuses both), unknown ``method``.
      TypeError: a complex or bool input with a filtered method, a traced ``size``.

    Example:
      >>> import numpy as np
      >>> tf_resize(np.ones((4, 6, 3), np.float32), (8, 12)).shape
      (8, 12, 3)
      >>> tf_resize(np.ones((4, 6, 3), np.uint8), (2, 3), "mitchellcubic").dtype
      dtype('float32')

    Source: TensorFlow 2.21 ``image_ops_impl.resize_images_v2`` and the CPU kernels in
    ``core/kernels/image/`` (resize_bilinear_op.cc, resize_bicubic_op.cc, resize_area_op.cc,
    resize_nearest_neighbor_op.cc, scale_and_translate_op.cc, sampling_kernels.h).
    """
    method = _v.choice("method", method, TF_METHODS)
    antialias = _v.boolean("antialias", antialias)
    hw, in_hw = _image_axes(images)
    size = tf_size(size)
    if preserve_aspect_ratio:
        size = _aspect_size(in_hw, size)
    return _resize_with(images, size, hw, in_hw, method, antialias=antialias)


# --- TF1: tf.compat.v1.image.resize and the four kernels -------------------------------------------


def _v1_method(method) -> str:
    """``tf.compat.v1.image.ResizeMethod`` ints (0-3) or the method names."""
    if isinstance(method, numbers.Integral) and not isinstance(method, (bool, np.bool_)) and 0 <= int(method) < 4:
        return V1_METHODS[int(method)]
    if isinstance(method, str) and method in V1_METHODS:
        return method
    raise ValueError(
        f"method={method!r} is not supported by tf.compat.v1.image.resize; allowed values: "
        + ", ".join(f"{i} or {name!r}" for i, name in enumerate(V1_METHODS))
        + " (tf.compat.v1.image.ResizeMethod.BILINEAR, NEAREST_NEIGHBOR, BICUBIC, AREA)."
    )


def _geometry(align_corners, half_pixel_centers) -> dict:
    align_corners = _v.boolean("align_corners", align_corners)
    half_pixel_centers = _v.boolean("half_pixel_centers", half_pixel_centers)
    if align_corners and half_pixel_centers:
        raise ValueError(
            "align_corners=True and half_pixel_centers=True cannot be combined (TensorFlow: if "
            "half_pixel_centers is True, align_corners must be False)."
        )
    return dict(align_corners=align_corners, half_pixel_centers=half_pixel_centers)


def tf_resize_v1(
    images: ArrayLike, size, method=0, align_corners: bool = False, preserve_aspect_ratio: bool = False
) -> jax.Array:
    """``tf.compat.v1.image.resize`` (``tf.compat.v1.image.resize_images``) in JAX: TF1's legacy
    coordinates ``x = o * scale`` (no half-pixel offset) on the H, W axes of ``[N, H, W, C]`` or
    ``[H, W, C]``.

    The methods are the v1 kernels without half-pixel centres (:func:`tf_resize_bilinear`,
    :func:`tf_resize_nearest_neighbor`, :func:`tf_resize_bicubic`: Keys a = -0.75 with
    edge-clamped taps, :func:`tf_resize_area`). When ``size`` equals the input's ``(H, W)`` the
    input is returned unchanged (its own dtype), as TensorFlow does.

    Args:
      images: ``[N, H, W, C]`` or ``[H, W, C]``, real dtypes (any dtype for nearest).
      size: ``(new_height, new_width)``, static ints >= 1 (:func:`tf_size`).
      method: ``tf.compat.v1.image.ResizeMethod``: 0 / ``"bilinear"`` (default), 1 /
        ``"nearest"``, 2 / ``"bicubic"``, 3 / ``"area"``.
      align_corners: align the centres of the corner pixels (``scale = (in - 1) / (out - 1)``).
      preserve_aspect_ratio: fit inside ``size``: ``round(min(new_h / h, new_w / w) * (h, w))``.

    Returns:
      ``[N, new_h, new_w, C]`` (or 3-D): float32 (``nearest``: the input dtype); the input itself
      when the size is unchanged.

    Raises:
      ValueError: rank not 3 or 4, bad ``size`` (not two ints >= 1, :func:`tf_size`), an image
        with no pixels or no channels (TensorFlow refuses both), unknown ``method``, non-boolean
        flags.
      TypeError: a complex or bool input with a filtered method, a traced ``size``.

    Example:
      >>> import numpy as np
      >>> x = np.arange(4, dtype=np.float32).reshape(1, 4, 1)
      >>> np.asarray(tf_resize_v1(x, (1, 7), align_corners=True))[0, :, 0].tolist()
      [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]

    Source: TensorFlow 2.21 ``image_ops_impl.resize_images`` and the kernels of
    :func:`tf_resize_bilinear`, :func:`tf_resize_bicubic`, :func:`tf_resize_nearest_neighbor`,
    :func:`tf_resize_area`.
    """
    method = _v1_method(method)
    align_corners = _v.boolean("align_corners", align_corners)
    hw, in_hw = _image_axes(images)
    size = tf_size(size)
    if preserve_aspect_ratio:
        size = _aspect_size(in_hw, size)
    if size == in_hw:
        return _frontend.prologue("images", images)[0]
    return _resize_with(images, size, hw, in_hw, method, align_corners=align_corners, half_pixel_centers=False)


def _v1_kernel(method: str, images, size, geometry: dict) -> jax.Array:
    hw, in_hw = _image_axes(images, ranks=(4,))
    size = tf_size(size, kernel=True)
    return _resize_with(images, size, hw, in_hw, method, **geometry)


def tf_resize_bilinear(
    images: ArrayLike, size, align_corners: bool = False, half_pixel_centers: bool = False
) -> jax.Array:
    """``tf.compat.v1.image.resize_bilinear`` (the ``ResizeBilinear`` kernel) in JAX.

    ``out[o] = (1 - t) in[max(floor(x), 0)] + t in[min(ceil(x), in - 1)]``, ``t = x - floor(x)``,
    per axis, with the float32 coordinate ``x = (o + 0.5) * scale - 0.5`` (``half_pixel_centers``)
    or ``x = o * scale``; ``scale = (in - 1) / (out - 1)`` with ``align_corners`` (when ``in > 1``
    and ``out > 1``), else ``in / out``.

    Args:
      images: ``[N, H, W, C]``, real dtypes.
      size: ``(new_height, new_width)``, static ints >= 1 (:func:`tf_size`).
      align_corners: align the corner pixels' centres.
      half_pixel_centers: half-pixel coordinates (TF2's default; not with ``align_corners``).

    Returns:
      ``[N, new_h, new_w, C]`` float32.

    Raises:
      ValueError: rank not 4, bad ``size`` (not two entries, or < 1), an image with no pixels or
        no channels, both ``align_corners`` and ``half_pixel_centers``.
      TypeError: a complex or bool input, ``size`` entries that are not ints (as TensorFlow).

    Example:
      >>> import numpy as np
      >>> x = np.array([0.0, 1.0], np.float32).reshape(1, 1, 2, 1)
      >>> np.asarray(tf_resize_bilinear(x, (1, 4)))[0, 0, :, 0].tolist()
      [0.0, 0.5, 1.0, 1.0]

    Source: TensorFlow 2.21 ``core/kernels/image/resize_bilinear_op.cc``,
    ``core/util/image_resizer_state.h``.
    """
    return _v1_kernel("bilinear", images, size, _geometry(align_corners, half_pixel_centers))


def tf_resize_bicubic(
    images: ArrayLike, size, align_corners: bool = False, half_pixel_centers: bool = False
) -> jax.Array:
    """``tf.compat.v1.image.resize_bicubic`` (the ``ResizeBicubic`` kernel) in JAX.

    Four taps ``floor(x) - 1 ... floor(x) + 2`` around the float32 coordinate ``x`` (as in
    :func:`tf_resize_bilinear`), Keys weights ``W(1 + t), W(t), W(1 - t), W(2 - t)`` read from a
    1025-entry float32 table at ``t = lrintf(1024 (x - floor(x))) / 1024``. With
    ``half_pixel_centers``: a = -0.5, taps outside the image dropped and rows renormalised;
    otherwise a = -0.75 with edge-clamped taps.

    Args:
      images: ``[N, H, W, C]``, real dtypes.
      size: ``(new_height, new_width)``, static ints >= 1 (:func:`tf_size`).
      align_corners: align the corner pixels' centres.
      half_pixel_centers: half-pixel coordinates (not with ``align_corners``).

    Returns:
      ``[N, new_h, new_w, C]`` float32.

    Raises:
      ValueError: rank not 4, bad ``size`` (not two entries, or < 1), an image with no pixels or
        no channels, both ``align_corners`` and ``half_pixel_centers``.
      TypeError: a complex or bool input, ``size`` entries that are not ints (as TensorFlow).

    Example:
      >>> import numpy as np
      >>> tf_resize_bicubic(np.ones((1, 3, 3, 1), np.uint8), (5, 4), align_corners=True).shape
      (1, 5, 4, 1)

    Source: TensorFlow 2.21 ``core/kernels/image/resize_bicubic_op.cc``.
    """
    return _v1_kernel("bicubic", images, size, _geometry(align_corners, half_pixel_centers))


def tf_resize_nearest_neighbor(
    images: ArrayLike, size, align_corners: bool = False, half_pixel_centers: bool = False
) -> jax.Array:
    """``tf.compat.v1.image.resize_nearest_neighbor`` (``ResizeNearestNeighbor``) in JAX.

    ``in[min(floorf(c), in - 1)]`` with ``c = (o + 0.5) * scale`` (``half_pixel_centers``) or
    ``c = o * scale``; with ``align_corners``, ``roundf(o * scale)`` (half away from zero) and
    ``scale = (in - 1) / (out - 1)``. Float32 arithmetic; the values are copied.

    Args:
      images: ``[N, H, W, C]``, any dtype.
      size: ``(new_height, new_width)``, static ints >= 1 (:func:`tf_size`).
      align_corners: align the corner pixels' centres.
      half_pixel_centers: half-pixel coordinates (not with ``align_corners``).

    Returns:
      ``[N, new_h, new_w, C]``, ``images``' dtype.

    Raises:
      ValueError: rank not 4, bad ``size`` (not two entries, or < 1), an image with no pixels or
        no channels, both ``align_corners`` and ``half_pixel_centers``.
      TypeError: ``size`` entries that are not ints (as TensorFlow), a traced ``size``.

    Example:
      >>> import numpy as np
      >>> x = np.arange(3, dtype=np.int32).reshape(1, 1, 3, 1)
      >>> np.asarray(tf_resize_nearest_neighbor(x, (1, 5), align_corners=True))[0, 0, :, 0].tolist()
      [0, 1, 1, 2, 2]

    Source: TensorFlow 2.21 ``core/kernels/image/resize_nearest_neighbor_op.cc``.
    """
    return _v1_kernel("nearest", images, size, _geometry(align_corners, half_pixel_centers))


def tf_resize_area(images: ArrayLike, size, align_corners: bool = False) -> jax.Array:
    """``tf.compat.v1.image.resize_area`` (the ``ResizeArea`` kernel) in JAX.

    Output ``o`` averages the input over ``[o * scale, (o + 1) * scale)``: each pixel ``i`` is
    weighted by its overlap with that interval (in float32, pixels past the edge read the edge
    pixel), times ``1 / scale``; ``scale = (in - 1) / (out - 1)`` with ``align_corners`` (when
    ``in > 1`` and ``out > 1``), else ``in / out``.

    Args:
      images: ``[N, H, W, C]``, real dtypes.
      size: ``(new_height, new_width)``, static ints >= 1 (:func:`tf_size`).
      align_corners: use ``scale = (in - 1) / (out - 1)``.

    Returns:
      ``[N, new_h, new_w, C]`` float32.

    Raises:
      ValueError: rank not 4, bad ``size`` (not two entries, or < 1), an image with no pixels or
        no channels.
      TypeError: a complex or bool input, ``size`` entries that are not ints (as TensorFlow).

    Example:
      >>> import numpy as np
      >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 4, 1)
      >>> np.asarray(tf_resize_area(x, (1, 2)))[0, 0, :, 0].tolist()
      [0.5, 2.5]

    Source: TensorFlow 2.21 ``core/kernels/image/resize_area_op.cc``.
    """
    return _v1_kernel("area", images, size, dict(align_corners=_v.boolean("align_corners", align_corners)))
