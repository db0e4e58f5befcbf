"""Peer: a drop-in for ``jax.image.resize`` with ONNX Resize's options as keywords.

Contract: with only the positional arguments of ``jax.image.resize`` (``image, shape, method,
antialias, precision``) the result equals ``jax.image.resize`` for every method it has —
``nearest``, ``linear``, ``cubic`` (Keys a = -0.5), ``lanczos3``, ``lanczos5``, ``cubic-pytorch``
(Keys a = -0.75 with edge clamping, or ``cubic`` when antialiasing) and ``area`` — including its
dtype rules (integers promote to float, except for nearest). The keyword-only ONNX options change
the coordinate rule, rounding, cubic coefficient or boundary handling for the same filters.
The ``pil_*`` methods reproduce ``PIL.Image.resize`` instead (:mod:`.pillow`).

Methods are a table (:data:`FILTERS`: kernel, and whether out-of-image taps are dropped by
default); nearest uses jax.image's float32 index rule (:func:`nearest_indices`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from .. import apply as _apply
from .. import coordinates as _coordinates
from .. import dtypes as _dtypes
from .. import kernels as _kernels
from .. import validation as _v
from .. import weights as _weights
from . import onnx as _onnx
from . import pillow as _pillow

#: Canonical method names (``jax.image.ResizeMethod``) and their accepted aliases.
METHODS = ("nearest", "linear", "cubic", "lanczos3", "lanczos5", "cubic-pytorch", "area")
_ALIASES = {
    "bilinear": "linear",
    "trilinear": "linear",
    "triangle": "linear",
    "bicubic": "cubic",
    "tricubic": "cubic",
    "bicubic-pytorch": "cubic-pytorch",
}
#: Filter methods: ``(kernel(cubic_coeff_a), exclude_outside by default)``; ``area`` is handled
#: apart (its footprint is ``1 / scale`` wide whether up- or downsampling, as TensorFlow's).
FILTERS = {
    "linear": (lambda a: _kernels.TRIANGLE, True),
    "cubic": (lambda a: _kernels.keys_cubic(-0.5 if a is None else float(a)), True),
    "cubic-pytorch": (lambda a: _kernels.keys_cubic(-0.75 if a is None else float(a)), False),
    "lanczos3": (lambda a: _kernels.lanczos(3), True),
    "lanczos5": (lambda a: _kernels.lanczos(5), True),
}


def nearest_indices(in_size: int, out_size: int) -> np.ndarray:
    """``jax.image.resize(method='nearest')``'s source indices: ``floor((i + 0.5) * in / out)``.

    Evaluated in float32 in the same operation order as ``jax.image`` so the indices agree
    exactly. Shape ``[out_size]``.
    """
    i = np.arange(out_size, dtype=np.float32)
    x = (i + np.float32(0.5)) * np.float32(in_size) / np.float32(out_size)
    return _weights.nearest_indices(x, in_size, "floor")


@_weights.memoized
def _nearest_record(in_size: int, out_size: int) -> _weights.Gather:
    return _weights.Gather(nearest_indices(in_size, out_size), in_size)


def _method_name(method) -> str:
    if isinstance(method, jax.image.ResizeMethod):
        return method.name.lower().replace("_", "-")
    if isinstance(method, str):
        method = _ALIASES.get(method, method)
    return _v.choice("method", method, METHODS + _pillow.METHODS + tuple(_ALIASES))


def _pil_options_unused(method, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, roi):
    """Pillow's methods have fixed rules; an ONNX option given with them is an error."""
    given = dict(
        coordinate_transformation_mode=coordinate_transformation_mode != "half_pixel",
        nearest_mode=nearest_mode is not None,
        exclude_outside=exclude_outside is not None,
        roi=roi is not None,
        cubic_coeff_a=cubic_coeff_a is not None and method != "pil_bicubic",
    )
    bad = [name for name, set_ in given.items() if set_]
    if bad:
        raise ValueError(
            f"method={method!r} reproduces PIL.Image.resize, whose rule has no {', '.join(bad)} option; "
            "leave it at its default (cubic_coeff_a is accepted by 'pil_bicubic' only)."
        )


def _filter(method: str, antialias: bool, scale: float, cubic_coeff_a, exclude_outside):
    """(kernel, stretch, boundary) of a filtered method on one axis."""
    if method == "area":  # the footprint is 1/scale wide whether up- or downsampling
        exclude = True if exclude_outside is None else bool(exclude_outside)
        return _kernels.AREA, 1.0 / scale, "exclude" if exclude else "clamp"
    if method == "cubic-pytorch" and antialias:
        method = "cubic"  # as jax.image does
    make, default_exclude = FILTERS[method]
    stretch = max(1.0, 1.0 / scale) if antialias else 1.0
    exclude = default_exclude if exclude_outside is None else bool(exclude_outside)
    return make(cubic_coeff_a), stretch, "exclude" if exclude else "clamp"


def resize(
    image: ArrayLike,
    shape,
    method="linear",
    antialias: bool = True,
    precision=lax.Precision.HIGHEST,
    *,
    coordinate_transformation_mode: str = "half_pixel",
    nearest_mode: str | None = None,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
    roi=None,
    extrapolation_value: float = 0.0,
    strategy: str = "auto",
    alpha: str | None = None,
) -> jax.Array:
    """Image resize compatible with ``jax.image.resize``, with ONNX Resize options.

    Each axis whose size changes is resampled with a weight matrix ``W: [out, in]``: coordinates
    ``x = (i + 0.5) / scale - 0.5`` (``scale = out / in``), the method's filter stretched by
    ``max(1, 1/scale)`` when ``antialias`` and downsampling, taps outside the image dropped and
    each row renormalised (jax.image's convention). Nearest picks ``floor((i + 0.5) * in / out)``.

    Args:
      image: array ``[...]`` of any rank (e.g. ``[N, H, W, C]``).
      shape: the full output shape, same length as ``image.shape`` (static).
      method: ``"nearest"``, ``"linear"`` (default; aliases bilinear/trilinear/triangle),
        ``"cubic"`` (Keys 1981, a = -0.5), ``"lanczos3"``, ``"lanczos5"``, ``"cubic-pytorch"``
        (a = -0.75, edge-clamped) or ``"area"``, or a ``jax.image.ResizeMethod``. Beyond
        jax.image, ``"pil_nearest"``, ``"pil_box"``, ``"pil_bilinear"``, ``"pil_hamming"``,
        ``"pil_bicubic"``, ``"pil_lanczos"`` reproduce ``PIL.Image.resize`` with
        ``Image.Resampling.NEAREST/BOX/BILINEAR/HAMMING/BICUBIC/LANCZOS``. The ``pil_`` prefix
        keeps them apart from jax.image's names: on float images ``pil_bilinear``,
        ``pil_bicubic`` and ``pil_lanczos`` equal the antialiased ``linear``, ``cubic`` and
        ``lanczos3`` up to float rounding, but Pillow always antialiases, has its own
        integer pipeline, BOX and HAMMING filters and NEAREST arithmetic.
        See "Pillow methods" below.
      antialias: stretch the filter when downsampling (ignored by nearest, area and ``pil_*``,
        which always use Pillow's support ``filter_support * max(in / out, 1)``).
      precision: ``lax.Precision`` of the contractions.
      coordinate_transformation_mode: an ONNX mode (default ``"half_pixel"``).
      nearest_mode: ONNX rounding for nearest; ``None`` keeps jax.image's rule.
      cubic_coeff_a: Keys' ``a`` for the cubic methods; ``None`` keeps the method's.
      exclude_outside: ``True`` drops out-of-image taps and renormalises, ``False`` clamps to the
        edge; ``None`` keeps the method's convention.
      roi: ``[2 * rank]`` ROI for ``tf_crop_and_resize`` (ONNX layout), static or traced.
      extrapolation_value: fill for ``tf_crop_and_resize`` samples outside the image.
      strategy: how weights are applied: ``"auto"`` (default), ``"dense"`` (matmul),
        ``"banded"`` (fused gathers) or ``"polyphase"`` (strided slices for rational ratios,
        banded elsewhere); all give the same values up to float rounding (see ``apply.py``).
      alpha: ``pil_*`` methods only: ``None`` / ``"straight"`` (default) resamples every channel
        independently; ``"premultiplied"`` treats the last axis as the channels of a uint8
        ``LA`` (2) or ``RGBA`` (4) image, alpha last, and resamples it as ``PIL.Image.resize``
        does: colours premultiplied by alpha, resampled, divided back, with Pillow's integer
        rounding (``c * a / 255``: ``((t >> 8) + t) >> 8``, ``t = c * a + 128``; back:
        ``min(255, 255 * c // a)`` where ``0 < a < 255``). ``pil_nearest`` is not premultiplied
        (as in Pillow); the last axis must keep its length.

    Pillow methods: every axis whose length changes is resampled like one pass of
    ``Image.resize`` (an ``[H, W]`` or ``[H, W, C]`` array behaves like ``Image.fromarray``):
    ``center = (o + 0.5) * in / out``, ``support = filter_support * max(in / out, 1)``, taps
    ``[int(center - support + 0.5), int(center + support + 0.5))`` clipped to the image, weights
    ``K((j - center + 0.5) / max(in / out, 1))`` renormalised to sum 1; NEAREST picks
    ``floor((o + 0.5) * in / out)``. They keep the input dtype, like Pillow's modes: float
    images give mode ``'F'``'s result; ``uint8`` images give the 8-bit modes' (``'L'``,
    ``'RGB'``...) result bit for bit: Pillow's 22-bit fixed-point coefficients, each pass rounded
    and clipped to a ``uint8`` intermediate, the passes in Pillow 13's order (exact while a pass
    reads fewer than about 780 taps per output, i.e. downsampling by less than ~130x with
    lanczos); other integers round half away from zero after each pass (mode ``'I'``).
    ``cubic_coeff_a`` changes ``pil_bicubic``'s ``a`` (Pillow: -0.5); the other ONNX options
    do not apply to them. Not supported: Pillow's ``box`` and ``reducing_gap``
    (``compat.pil_resize`` has them). Pillow resamples ``LA``/``RGBA`` images with premultiplied
    alpha: pass ``alpha="premultiplied"`` for those (an ``[H, W, 4]`` uint8 array is otherwise
    resampled as four independent channels, like ``RGBX``).

    Returns:
      Array of shape ``shape``: ``image``'s dtype for nearest and the ``pil_*`` methods,
      otherwise its inexact promotion (integers become the default float type), as
      ``jax.image.resize``.

    Raises:
      ValueError: wrong ``shape`` length or negative sizes, unknown method or mode names,
        a non-empty output from an empty axis, an ONNX option with a ``pil_*`` method,
        ``alpha="premultiplied"`` with another method, or on a last axis that is not 2 or 4
        channels long or changes length.
      TypeError: traced ``shape``; unsupported dtypes; ``alpha="premultiplied"`` on non-uint8.

    Example:
      >>> import jax.numpy as jnp, jax_resize
      >>> jax_resize.resize(jnp.ones((4, 4, 3)), (8, 8, 3), "cubic").shape
      (8, 8, 3)

      >>> img = np.asarray(PIL.Image.open("photo.png"))                      # doctest: +SKIP
      >>> jax_resize.resize(img, (128, 96, 3), "pil_lanczos")  # == img.resize((96, 128), LANCZOS)  # doctest: +SKIP
      >>> rgba = np.asarray(PIL.Image.open("logo.png").convert("RGBA"))  # doctest: +SKIP
      >>> jax_resize.resize(rgba, (64, 64, 4), "pil_bicubic", alpha="premultiplied")  # doctest: +SKIP

    Source: ``jax/_src/image/scale.py`` (kernels: Keys 1981; Lanczos; TensorFlow's area),
    ONNX Resize for the keyword options, Pillow's ``Image.resize`` (``Resample.c``) for ``pil_*``.
    """
    method = _method_name(method)
    dtype = _dtypes.check_dtype(_dtypes.dtype_of(image), name="image")
    image = jnp.asarray(image)
    shape = _v.shape_tuple("shape", shape, image.ndim)
    if method in _pillow.METHODS:
        _pil_options_unused(method, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, roi)
        if cubic_coeff_a is not None:
            cubic_coeff_a = _v.finite_float("cubic_coeff_a", cubic_coeff_a)
        return _pillow.resize_method(
            image, shape, method, cubic_coeff_a=cubic_coeff_a, alpha=alpha, precision=precision, strategy=strategy
        )
    if alpha not in (None, "straight"):
        raise ValueError(
            f"alpha={alpha!r} reproduces PIL.Image.resize's LA/RGBA resampling and needs a pil_* method "
            f"({', '.join(_pillow.METHODS)}); got method={method!r}. Leave alpha=None for the others."
        )
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode, _onnx.COORDINATE_TRANSFORMATION_MODES)
    if nearest_mode is not None:
        _v.choice("nearest_mode", nearest_mode, _onnx.NEAREST_MODES)
    out_dtype = None
    if method != "nearest" and dtype.kind in "biu":  # jax.image's rule: a float result
        out_dtype = jax.dtypes.canonicalize_dtype(np.float64)
    crop = coordinate_transformation_mode == "tf_crop_and_resize"
    roi_traced = crop and _v.is_traced(roi)
    pairs = _v.roi_pairs(roi, image.ndim) if crop else [None] * image.ndim
    ops = []
    for axis, (n, o, r) in enumerate(zip(image.shape, shape, pairs)):
        if n == o and not roi_traced and (r is None or (float(r[0]) == 0.0 and float(r[1]) == 1.0)):
            continue
        _v.check_empty_axes([n], [o], [axis])
        if n == 0 or o == 0:
            ops.append((axis, _weights.empty(n, o, gather=method == "nearest")))
        elif method == "nearest" and nearest_mode is None and coordinate_transformation_mode == "half_pixel":
            ops.append((axis, _nearest_record(n, o)))
        elif method == "nearest":
            ops.append(
                (
                    axis,
                    _onnx.axis_record(
                        n,
                        o,
                        o / n,
                        mode="nearest",
                        roi=r,
                        coordinate_transformation_mode=coordinate_transformation_mode,
                        nearest_mode=nearest_mode or "round_prefer_ceil",
                    ),
                )
            )
        else:
            ops.append(
                (
                    axis,
                    _filter_record(
                        n, o, r, method, antialias, coordinate_transformation_mode, cubic_coeff_a, exclude_outside
                    ),
                )
            )
    return _apply.run(
        image, ops, extrapolation_value=extrapolation_value, precision=precision, strategy=strategy, dtype=out_dtype
    )


@_weights.memoized
def _filter_record(n, o, roi, method, antialias, coordinate_transformation_mode, cubic_coeff_a, exclude_outside):
    """One filtered axis: the ONNX coordinate rule, the method's kernel, rows normalised."""
    scale = o / n
    xp = _v.namespace_for(roi)
    rule = _onnx.COORDINATE_RULES[coordinate_transformation_mode]
    x, outside = _coordinates.source_coordinates(rule, n, o, scale, roi=roi, xp=xp)
    kernel, stretch, boundary = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
    taps = _weights.filter_taps(x, n, kernel, stretch=stretch, boundary=boundary, normalize=True, xp=xp)
    return _weights.Taps(taps.index, taps.weight, n, outside)
