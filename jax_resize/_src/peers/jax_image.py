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

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from .. import apply as _apply
from .. import coordinates as _coordinates
from .. import dtypes as _dtypes
from .. import kernels as _kernels
from .. import strategies as _strategies
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


def _filter(method: str, antialias: bool, scale, cubic_coeff_a, exclude_outside, *, inv_scale=None):
    """(kernel, stretch, boundary) of a filtered method on one axis; ``scale`` may be traced
    (then so is the stretch). ``inv_scale``: ``1 / scale`` when the caller has it rounded once."""
    inv = 1.0 / scale if inv_scale is None else inv_scale
    if method == "area":  # the footprint is 1/scale wide whether up- or downsampling
        exclude = True if exclude_outside is None else bool(exclude_outside)
        return _kernels.AREA, inv, "exclude" if exclude else "clamp"
    if method == "cubic-pytorch" and antialias:
        method = "cubic"  # as jax.image does
    make, default_exclude = FILTERS[method]
    stretch: Any
    if not antialias:
        stretch = 1.0
    elif _v.is_traced(inv):
        stretch = jnp.maximum(1.0, inv)
    else:
        stretch = max(1.0, inv)
    exclude = default_exclude if exclude_outside is None else bool(exclude_outside)
    return make(cubic_coeff_a), stretch, "exclude" if exclude else "clamp"


def traced_filter_taps(x, in_size: int, inv, bound: float, options, *, valid=None) -> _weights.Taps:
    """Taps of a filtered method with a traced ``inv = 1 / scale`` (device weights): the stretch
    clamped to the static ``bound`` that sizes the window (``max_stretch``), rows normalised.

    Args:
      x: ``[out]`` coordinates (a jax array or a :class:`~..coordinates.Rational`).
      in_size: the static axis length; ``valid`` its traced valid length (default all).
      inv: traced ``1 / scale`` (input pixels per output pixel).
      bound: static upper bound of the stretch (>= 1).
      options: ``(method, antialias, cubic_coeff_a, exclude_outside)``.
    """
    method, antialias, cubic_coeff_a, exclude_outside = options
    inv = jnp.clip(inv, 1e-6, bound)  # the static window bound; > 0 for degenerate boxes
    kernel, stretch, boundary = _filter(method, antialias, 1.0 / inv, cubic_coeff_a, exclude_outside, inv_scale=inv)
    max_stretch = bound if (antialias or method == "area") else 1.0
    return _weights.filter_taps(
        x,
        in_size,
        kernel,
        stretch=stretch,
        boundary=boundary,
        normalize=True,
        xp=jnp,
        max_stretch=max_stretch,
        valid=valid,
    )


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
    each row renormalised (jax.image's convention; a row left with no weight, e.g. an ``area``
    footprint past the edge with ``asymmetric`` coordinates, reads the nearest edge pixel).
    Nearest picks ``floor((i + 0.5) * in / out)``.

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
    image = _dtypes.as_array(image)
    shape = _v.shape_tuple("shape", shape, image.ndim)
    _v.check_output_size(shape, "shape")
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
    return taps.with_outside(outside)


def scale_and_translate(
    image: ArrayLike,
    shape,
    spatial_dims,
    scale,
    translation,
    method="linear",
    antialias: bool = True,
    precision=lax.Precision.HIGHEST,
    *,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
) -> jax.Array:
    """Resamples ``image`` under a scale and translation, as ``jax.image.scale_and_translate``.

    Output pixel ``o`` of a spatial axis samples the input at ``x = (o + 0.5 - translation) /
    scale - 0.5`` with the method's filter, stretched by ``max(1, 1 / scale)`` when
    ``antialias``; taps outside the input are dropped and each row renormalised; rows whose
    ``x`` is outside ``[-0.5, in - 0.5]`` are 0 (``cubic-pytorch`` without antialias pads the
    image with ``radius`` repeated edge pixels instead, as jax.image: rows sampled farther out than
    that are 0). ``area`` weights the overlap of the output pixel's
    footprint ``[o, o + 1] / scale - translation / scale`` with each input pixel.

    ``scale`` and ``translation`` may be traced (``jit``, ``vmap``, ``grad``): the weights are
    then computed on the device over every input position (a dense ``[out, in]`` matrix, as
    jax.image does) and applied as plain matmuls, so a NaN/Inf pixel spreads along its rows and
    columns as in jax.image. Concrete values take the host path: float64 weights on the
    filter's band (NaN/Inf reach only the outputs that weight them).

    Args:
      image: array of any rank, e.g. ``[N, H, W, C]``; integers are promoted to float.
      shape: the full output shape (static), ``len(shape) == image.ndim``; axes not in
        ``spatial_dims`` keep their length.
      spatial_dims: the ``K`` resampled axes (static ints, negative allowed).
      scale: ``[K]`` output pixels per input pixel (> 0), float, may be traced.
      translation: ``[K]`` offsets in output pixels, float, may be traced.
      method: ``"linear"``, ``"cubic"`` (Keys a = -0.5), ``"lanczos3"``, ``"lanczos5"``,
        ``"cubic-pytorch"``, ``"area"`` or a ``jax.image.ResizeMethod`` (not nearest, as in jax).
      antialias: stretch the filter when downsampling (``scale < 1``).
      precision: ``lax.Precision`` of the contractions.
      cubic_coeff_a: the Keys parameter of the cubic methods (default -0.5 / -0.75 for
        ``cubic-pytorch``), as ONNX's ``cubic_coeff_a``.
      exclude_outside: ``True`` drops taps outside the image and renormalises (jax.image's rule
        for every method but ``cubic-pytorch`` without antialias); ``False`` repeats the edge
        pixels instead (that method's rule: the window reaches ``ceil(radius * stretch)`` pixels
        beyond each edge; rows sampled farther out are 0, as in jax.image). Default: the method's rule. ``False`` with a
        traced scale and antialias is refused (its reach is not static; jax.image refuses it too).

    Returns:
      Array ``shape``, ``image``'s float dtype (float32 for integers).

    Raises:
      ValueError: ``shape`` of the wrong length, a changed axis not in ``spatial_dims``, ``scale``
        or ``translation`` not of length ``K``, a concrete non-positive scale, method nearest,
        ``exclude_outside=False`` with antialias and a traced scale.
      TypeError: an unsupported dtype.

    Example:
      >>> import jax, jax.numpy as jnp, jax_resize
      >>> img = jnp.ones((32, 32, 3))
      >>> zoom = lambda s: jax_resize.scale_and_translate(img, (16, 16, 3), (0, 1), jnp.array([s, s]), jnp.zeros(2))
      >>> jax.jit(zoom)(0.5).shape
      (16, 16, 3)

    Source: ``jax.image.scale_and_translate`` (``jax/_src/image/scale.py``); kernels: Keys 1981,
    Lanczos; the area overlap of TensorFlow's ``ScaleAndTranslate``.
    """
    method = _method_name(method)
    if method == "nearest" or method in _pillow.METHODS:
        raise ValueError(
            f"method={method!r} is not available in scale_and_translate (as in jax.image); allowed: "
            + ", ".join(m for m in METHODS if m != "nearest")
            + "."
        )
    dtype = _dtypes.check_dtype(_dtypes.dtype_of(image), name="image")
    image = _dtypes.as_array(image)
    if dtype.kind not in "fc":  # jax.image's promotion: the default float type
        image = image.astype(jax.dtypes.canonicalize_dtype(np.float64))
    shape = _v.shape_tuple("shape", shape, image.ndim)
    _v.check_output_size(shape, "shape")
    dims = _v.axes_tuple(spatial_dims, image.ndim)
    for axis, (n, o) in enumerate(zip(image.shape, shape)):
        if axis not in dims and n != o:
            raise ValueError(
                f"shape[{axis}] = {o} differs from image.shape[{axis}] = {n}, but axis {axis} is not in "
                f"spatial_dims={tuple(spatial_dims)}; list every resampled axis."
            )
    traced = _v.is_traced(scale) or _v.is_traced(translation)
    xp = jnp if traced else np
    scale = xp.asarray(scale, dtype=None if traced else np.float64).reshape(-1)
    translation = xp.asarray(translation, dtype=None if traced else np.float64).reshape(-1)
    for name, value in (("scale", scale), ("translation", translation)):
        if value.shape[0] != len(dims):
            raise ValueError(f"{name} has {value.shape[0]} values for {len(dims)} spatial_dims={tuple(spatial_dims)}.")
    if not traced and not np.all(np.isfinite(scale) & (scale > 0)):
        raise ValueError(f"scale must be positive and finite; got {scale.tolist()}.")
    if not traced and not np.all(np.isfinite(translation)):
        raise ValueError(f"translation must be finite; got {translation.tolist()}.")
    if exclude_outside is not None:
        exclude_outside = bool(exclude_outside)
    if traced and antialias and _filter(method, True, 0.5, cubic_coeff_a, exclude_outside)[2] == "clamp":
        raise ValueError(
            f"exclude_outside=False (edge pixels repeated) with antialias needs a concrete scale: the filter's reach "
            f"beyond the edge is ceil(radius / scale); got a traced scale with method={method!r}. Pass concrete "
            "scales, antialias=False, or exclude_outside=True."
        )
    ops = []
    for i, axis in enumerate(dims):
        n, o = image.shape[axis], shape[axis]
        _v.check_empty_axes([n], [o], [axis])
        if n == 0 or o == 0:
            ops.append((axis, _weights.empty(n, o, gather=False)))
        elif traced:
            ops.append(
                (
                    axis,
                    _translated_record(
                        n, o, scale[i], translation[i], method, antialias, cubic_coeff_a, exclude_outside, jnp
                    ),
                )
            )
        else:
            _check_edge_window(n, o, float(scale[i]), method, antialias, cubic_coeff_a, exclude_outside)
            ops.append(
                (
                    axis,
                    _host_translated_record(
                        n, o, float(scale[i]), float(translation[i]), method, antialias, cubic_coeff_a, exclude_outside
                    ),
                )
            )
    strategy = "auto"
    fits = all(r.out_size * r.in_size <= _strategies.MAX_DENSE_ELEMENTS for _, r in ops)
    if traced and fits:
        strategy = "dense"  # every input position is a tap: one matmul per axis
    # traced weights: plain matmuls, as jax.image (a NaN pixel spreads along its rows and columns)
    return _apply.run(image, ops, precision=precision, strategy=strategy, local_nonfinite=not traced)


def _check_edge_window(n, o, scale, method, antialias, cubic_coeff_a, exclude_outside) -> None:
    """The edge-repeating rule (``exclude_outside=False``) builds dense rows of ``n + 2 ceil(support)``
    taps, ``support`` growing with ``1 / scale``; refuses them above the output limit.

    Raises:
      ValueError: naming ``scale``.
    """
    kernel, stretch, boundary = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
    if boundary != "clamp":
        return
    support = kernel.support(stretch)
    taps = n + 2 * math.ceil(support) if math.isfinite(support) else math.inf
    if o * taps > _v.max_output_elements():
        raise ValueError(
            f"scale={scale!r} with exclude_outside=False (edge pixels repeated) stretches the {method} filter over "
            f"{taps:,} taps per output: {o:,} x {taps:,} weights, above the limit of {_v.max_output_elements():,} "
            "(jax_resize.set_max_output_elements raises it)."
        )


@_weights.memoized
def _host_translated_record(n, o, scale, translation, method, antialias, cubic_coeff_a, exclude_outside):
    return _translated_record(n, o, scale, translation, method, antialias, cubic_coeff_a, exclude_outside, np)


def _translated_record(n, o, scale, translation, method, antialias, cubic_coeff_a, exclude_outside, xp):
    """One axis of :func:`scale_and_translate`: taps on every input position (traced; jax.image's
    dense rows) or on the filter's band (host, float64, compacted)."""
    kernel, stretch, boundary = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
    inv = 1.0 / scale
    y = np.arange(o, dtype=np.float64) if xp is np else jnp.arange(o, dtype=jnp.result_type(scale, float))
    x = (y + 0.5) * inv - translation * inv - 0.5  # [o] input coordinate of each output centre
    edge = boundary == "clamp"  # cubic-pytorch without antialias: edge pixels repeat, no zero rows
    outside = None if edge else ~((x >= -0.5) & (x <= n - 0.5))
    if xp is np and not edge:
        taps = _weights.filter_taps(x, n, kernel, stretch=stretch, boundary=boundary, normalize=True)
        return taps.with_outside(outside)
    # jax.image's rows: every input position (and `radius` repeated edge positions each side)
    radius = int(np.ceil(kernel.support(stretch))) if edge else 0  # static stretch when edge
    taps = xp.arange(-radius, n + radius)[None, :] + xp.zeros((o, 1), x.dtype)  # [o, n + 2 radius]
    w = kernel(xp, taps - x[:, None], stretch)
    if not edge:
        w = xp.where((taps >= 0) & (taps <= n - 1), w, 0.0)
    total = w.sum(axis=1, keepdims=True)
    w = xp.where(xp.abs(total) > 1000.0 * float(np.finfo(np.float32).eps), w / xp.where(total != 0, total, 1.0), 0.0)
    index = xp.clip(taps, 0, n - 1).astype(np.int32)
    if xp is np:
        return _weights.compact(index, w, n)
    return _weights.Taps(index, w, n, outside)
