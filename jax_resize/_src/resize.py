"""Front end: ``resize`` (jax.image's arguments), ``resize_with_onnx_attributes`` and
``resize_with_pillow_filter``: one prologue (:mod:`.frontend`), each axis's record from a peer's rule
(:mod:`.peers.jax_image`, :mod:`.peers.onnx`, :mod:`.peers.pillow`), applied by ``apply.run``."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from . import frontend as _frontend
from . import validation as _v
from .execution import apply as _apply
from .peers import jax_image as _jax_image
from .peers import onnx as _onnx
from .peers import pillow as _pillow
from .peers import pillow_modes as _pillow_modes
from .peers import pillow_releases as _pillow_releases


def method_name(method) -> str:
    """The canonical name of a ``resize`` method: jax.image's (aliases and ``jax.image.ResizeMethod``
    resolved) or Pillow's ``pil_*``.

    Raises:
      ValueError: an unknown name (with a suggestion).
    """
    return _jax_image.method_name(method, PIL_METHODS)


#: Every ``pil_*`` method: Pillow 13's (``pil_bicubic`` ...), Pillow 12.3's (``pil12_bicubic`` ...)
#: and Pillow 10.1-12.1's (``pil11_bicubic`` ...).
PIL_METHODS = _pillow.METHODS + _pillow_releases.RELEASE_METHODS


#: ONNX Resize's attributes that :func:`resize_with_onnx_attributes` takes beside jax.image's arguments.
ONNX_ATTRIBUTES = (
    "coordinate_transformation_mode",
    "nearest_mode",
    "cubic_coeff_a",
    "exclude_outside",
    "roi",
    "extrapolation_value",
)


def resize(
    image: ArrayLike,
    shape,
    method="linear",
    antialias: bool = True,
    precision=lax.Precision.HIGHEST,
    *,
    strategy: str = "auto",
    **deprecated,
) -> jax.Array:
    """Image resize with ``jax.image.resize``'s arguments and results, and Pillow's filters by name.

    With a jax.image method the result equals ``jax.image.resize``'s, dtype rules included. Each
    axis whose size changes is resampled with a weight matrix ``W: [out, in]``: coordinates
    ``x = (i + 0.5) / scale - 0.5`` (``scale = out / in``), the filter stretched by
    ``max(1, 1/scale)`` when ``antialias`` and downsampling, taps outside the image dropped and rows
    renormalised (a row left with no weight reads the nearest edge pixel). Nearest picks
    ``floor((i + 0.5) * in / out)``.

    Args:
      image: array ``[...]`` of any rank (e.g. ``[N, H, W, C]``).
      shape: the full output shape, same length as ``image.shape`` (static).
      method: ``"nearest"``, ``"linear"`` (default; aliases bilinear/trilinear/triangle),
        ``"cubic"`` (Keys 1981, a = -0.5), ``"lanczos3"``, ``"lanczos5"``, ``"cubic-pytorch"``
        (a = -0.75, edge-clamped), ``"area"`` or a ``jax.image.ResizeMethod``; ``"pil_nearest"``,
        ``"pil_box"``, ``"pil_bilinear"``, ``"pil_hamming"``, ``"pil_bicubic"``, ``"pil_lanczos"``,
        ``"pil_mks2013"``, ``"pil_mks2021"``: :func:`resize_with_pillow_filter` with that filter
        (Pillow 13); ``"pil12_nearest"`` ... ``"pil12_lanczos"``: with ``pillow_version="12"``;
        ``"pil11_nearest"`` ... ``"pil11_lanczos"``: with ``pillow_version="11"``.
      antialias: stretch the filter when downsampling (ignored by nearest, area and ``pil_*``,
        which always use Pillow's support ``filter_support * max(in / out, 1)``).
      precision: ``lax.Precision`` of the contractions.
      strategy: how weights are applied: ``"auto"`` (default), ``"dense"`` (matmul),
        ``"banded"`` (fused gathers) or ``"polyphase"`` (strided slices for rational ratios,
        banded elsewhere); all give the same values up to float rounding.
      **deprecated: ONNX's attributes and ``alpha`` (issue 55): the same bits as the call that
        takes them now (:func:`split_call`), named by a ``DeprecationWarning``.

    Returns:
      Array of shape ``shape``: ``image``'s dtype for nearest and ``pil_*``, otherwise its inexact
      promotion (integers become the default float type), as ``jax.image.resize``.

    Raises:
      ValueError: wrong ``shape`` length or negative sizes, an output above
        :func:`jax_resize.max_output_elements`, unknown methods, a non-empty output from an empty axis.
      TypeError: traced ``shape``; unsupported dtypes; bool with a ``pil_*`` filter; unknown keywords.

    Example:
      >>> import jax.numpy as jnp, jax_resize
      >>> jax_resize.resize(jnp.ones((4, 4, 3)), (8, 8, 3), "cubic").shape
      (8, 8, 3)

      >>> jax_resize.resize(img, (128, 96, 3), "pil_lanczos")  # == img.resize((96, 128), LANCZOS)  # doctest: +SKIP

    Source: ``jax/_src/image/scale.py`` (kernels: Keys 1981; Lanczos; TensorFlow's area),
    Pillow's ``Image.resize`` (``Resample.c``) for ``pil_*``.
    """
    if deprecated:
        function, args, kwargs = split_call(method, antialias, dict(deprecated, precision=precision, strategy=strategy))
        warnings.warn(
            f"jax_resize.resize(..., {', '.join(k + '=...' for k in sorted(deprecated))}) is deprecated (issue 55): "
            f"call {_spelled(function, args, kwargs)} instead, which gives the same result.",
            DeprecationWarning,
            stacklevel=2,
        )
        return function(image, shape, *args, **kwargs)
    method = method_name(method)
    if method in PIL_METHODS:
        resample, version = pillow_filter(method)
        return resize_with_pillow_filter(
            image, shape, resample, pillow_version=version, precision=precision, strategy=strategy
        )
    call = _prepared(image, shape, method)
    if call.empty is not None:
        return call.empty
    ops = [(a, _jax_image.method_record(call.image.shape[a], call.shape[a], method, antialias)) for a in call.axes]
    return _apply.run(call.image, ops, precision=precision, strategy=strategy, dtype=call.dtype)


def resize_with_onnx_attributes(
    image: ArrayLike,
    shape,
    method="linear",
    *,
    antialias: bool = True,
    precision=lax.Precision.HIGHEST,
    coordinate_transformation_mode: str = "half_pixel",
    nearest_mode: str | None = None,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
    roi=None,
    extrapolation_value: float = 0.0,
    strategy: str = "auto",
) -> jax.Array:
    """:func:`resize`'s jax.image methods with ONNX Resize's coordinate rule, nearest rounding,
    cubic coefficient and boundary handling; all at their defaults, :func:`resize`'s result. Unlike
    :func:`jax_resize.onnx_resize` (the operator: ``scales``/``sizes``, ``mode``, the dtype kept), an
    unset attribute keeps jax.image's convention and filters return jax.image's float dtypes.

    Args:
      image, shape, antialias, precision, strategy: as :func:`resize`'s.
      method: a jax.image method of :func:`resize` (not ``pil_*``).
      coordinate_transformation_mode: an ONNX mode (default ``"half_pixel"``: jax.image's).
      nearest_mode: ONNX rounding for nearest; ``None`` keeps jax.image's rule.
      cubic_coeff_a: Keys' ``a`` for the cubic methods; ``None`` keeps the method's.
      exclude_outside: ``True`` drops out-of-image taps and renormalises, ``False`` clamps to the
        edge; ``None`` keeps the method's convention.
      roi: ``[2 * rank]`` ROI for ``tf_crop_and_resize`` (ONNX layout), static or traced.
      extrapolation_value: fill for ``tf_crop_and_resize`` samples outside the image.

    Returns, Raises: as :func:`resize` (ValueError also for a ``pil_*`` method, unknown modes).

    Example:
      >>> import jax.numpy as jnp, jax_resize
      >>> x = jnp.array([[0.0, 1.0]])
      >>> jax_resize.resize_with_onnx_attributes(x, (1, 3), coordinate_transformation_mode="align_corners").tolist()
      [[0.0, 0.5, 1.0]]

    Source: ``jax/_src/image/scale.py``; ONNX Operators.md, "Resize", for the attributes.
    """
    if isinstance(method, str) and method in PIL_METHODS:
        raise ValueError(
            f"method={method!r} is a Pillow filter, whose rule has no ONNX attributes; allowed: "
            f"{', '.join(map(repr, _jax_image.METHODS))} (call resize or resize_with_pillow_filter for {method!r})."
        )
    method = _jax_image.method_name(method)
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode, _onnx.COORDINATE_TRANSFORMATION_MODES)
    if nearest_mode is not None:
        _v.choice("nearest_mode", nearest_mode, _onnx.NEAREST_MODES)
    crop = coordinate_transformation_mode == "tf_crop_and_resize"
    call = _prepared(image, shape, method, crop=crop, roi=roi)
    if call.empty is not None:
        return call.empty
    options = (method, antialias, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside)
    ops = [(a, _axis_record(call.image.shape[a], call.shape[a], call.pairs[a], *options)) for a in call.axes]
    return _apply.run(
        call.image,
        ops,
        extrapolation_value=extrapolation_value,
        precision=precision,
        strategy=strategy,
        dtype=call.dtype,
    )


class _Prepared(NamedTuple):
    """A call of :func:`resize` or :func:`resize_with_onnx_attributes` after its checks."""

    image: jax.Array
    shape: tuple[int, ...]
    dtype: Any  # the result's when it is not the image's (filters give integers the default float type)
    axes: list[int]  # the axes resampled: those that change, or that a roi crops
    pairs: list  # per axis, the roi's (start, end) (``tf_crop_and_resize``) or None
    empty: jax.Array | None  # the result when it is empty (no axis's weights built)


def _prepared(image, shape, method: str, *, crop: bool = False, roi=None) -> _Prepared:
    """The prologue of the jax.image methods: ``image`` and ``shape`` checked, the result's dtype,
    the axes to resample (``crop``: ``tf_crop_and_resize`` with ``roi``)."""
    image, dtype = _frontend.prologue("image", image)
    shape = _frontend.output_size(_v.shape_tuple("shape", shape, image.ndim), "shape")
    out_dtype = None
    if method != "nearest" and dtype.kind in "biu":  # jax.image's rule: a float result
        out_dtype = jax.dtypes.canonicalize_dtype(np.float64)
    roi_traced = crop and _v.is_traced(roi)
    pairs = _v.roi_pairs(roi, image.ndim) if crop else [None] * image.ndim
    axes = [
        axis
        for axis, (n, o, r) in enumerate(zip(image.shape, shape, pairs))
        if n != o or roi_traced or not (r is None or (float(r[0]) == 0.0 and float(r[1]) == 1.0))
    ]
    _v.check_empty_axes([image.shape[a] for a in axes], [shape[a] for a in axes], axes)
    return _Prepared(image, shape, out_dtype, axes, pairs, _frontend.empty_output(shape, out_dtype or image.dtype))


def resize_with_pillow_filter(
    image: ArrayLike,
    shape,
    resample=_pillow.BICUBIC,
    *,
    alpha: str | None = None,
    pillow_version: str = "13",
    cubic_coeff_a: float | None = None,
    precision=lax.Precision.HIGHEST,
    strategy: str = "auto",
) -> jax.Array:
    """``PIL.Image.resize``'s filter ``resample`` (one pass of Pillow's window and kernels, in its
    pass order: :func:`jax_resize.compat.pil_resize`) on every axis whose length changes, to the
    full ``shape`` (any rank), in the input dtype: float as mode ``'F'``; ``uint8`` as the 8-bit
    modes, bit for bit (22-bit fixed point, each pass rounded; exact below ~780 taps per output, a
    ~130x lanczos shrink); other integers as ``'I'`` (half away from zero after each pass). For
    ``box``, ``reducing_gap`` and Pillow's modes: :func:`jax_resize.compat.pil_resize`.

    Args:
      image, shape, precision, strategy: as :func:`resize`'s (bool only with ``NEAREST``).
      resample: a ``Resampling`` value (``compat.BICUBIC``, ``PIL.Image.Resampling.BICUBIC`` or its
        int), ``NEAREST`` (0) to ``MKS2021`` (7); default ``BICUBIC``, as Pillow.
      alpha: ``None`` / ``"straight"`` (default): channels independent (as ``RGBX``);
        ``"premultiplied"``: the last axis holds a uint8 ``LA`` (2) or ``RGBA`` (4) pixel, alpha
        last, and keeps its length; colours premultiplied, resampled and divided back with Pillow's
        integer rounding (:func:`.peers.pillow_modes.premultiply`; not for ``NEAREST``, as Pillow).
      pillow_version: ``"13"`` (default) or ``"12"``: Pillow 12.3's pass order (no ``MKS*``).
      cubic_coeff_a: Keys' ``a`` of ``BICUBIC``; ``None``: Pillow's -0.5.

    Returns:
      Array of shape ``shape`` and ``image``'s dtype.

    Raises:
      ValueError: as :func:`resize`; unknown ``resample`` / ``pillow_version``, ``MKS*`` in Pillow
        12, ``cubic_coeff_a`` not finite or not with ``BICUBIC``; a bad last axis for ``alpha``.
      TypeError: as :func:`resize`; a float ``resample``; bool without ``NEAREST``;
        ``alpha="premultiplied"`` on non-uint8.

    Example:
      >>> import numpy as np, jax_resize
      >>> from jax_resize import compat
      >>> rgba = np.array([[[255, 0, 0, 255], [0, 0, 255, 0]]], np.uint8)  # red, transparent blue
      >>> jax_resize.resize_with_pillow_filter(rgba, (1, 1, 4), compat.BILINEAR, alpha="premultiplied").tolist()
      [[[255, 0, 0, 128]]]

    Source: Pillow's ``Image.resize`` (``src/libImaging/Resample.c``, ``Convert.c`` for alpha).
    """
    resample, version = _pillow.release_filter(resample, pillow_version)
    image, _ = _frontend.prologue("image", image)
    shape = _frontend.output_size(_v.shape_tuple("shape", shape, image.ndim), "shape")
    if cubic_coeff_a is not None:
        if resample != _pillow.BICUBIC:
            raise ValueError(
                f"cubic_coeff_a={cubic_coeff_a!r} is Keys' a of resample=BICUBIC (3) only; "
                f"got resample={int(resample)} ({resample.name})."
            )
        cubic_coeff_a = _v.finite_float("cubic_coeff_a", cubic_coeff_a)
    base = _pillow.filter_method(resample)
    premultiplied = _pillow_modes.check_alpha(image.shape, shape, image.dtype, alpha)
    changed = [a for a in range(image.ndim) if image.shape[a] != shape[a]]
    _v.check_empty_axes([image.shape[a] for a in changed], [shape[a] for a in changed], changed)
    if image.dtype == np.bool_ and base != "pil_nearest":
        method = base if version == "13" else f"pil{version}_" + base[len("pil_") :]
        raise TypeError(
            "image has dtype bool, which only the NEAREST filter ('pil_nearest', 'pil12_nearest', 'pil11_nearest') "
            f"can resize; got resample={int(resample)} ({resample.name}, method {method!r})."
        )
    empty = _frontend.empty_output(shape, image.dtype)
    if empty is not None:  # no axis's weights (another axis may be huge)
        return empty

    def run(x):
        edges = {a: None for a in changed}
        return _pillow.resample_axes(
            x,
            shape,
            base,
            changed,
            edges,
            cubic_coeff_a=cubic_coeff_a,
            precision=precision,
            strategy=strategy,
            version=version,
        )

    if premultiplied and changed and base != "pil_nearest":
        return _pillow_modes.unpremultiply(run(_pillow_modes.premultiply(image)))
    return run(image)


def pillow_filter(method: str) -> tuple[_pillow.Resampling, str]:
    """``(resample, pillow_version)`` of a canonical ``pil_*`` / ``pil12_*`` / ``pil11_*`` method: ``"pil12_box"`` ->
    ``(BOX, "12")``."""
    base, version = _pillow_releases.split_method(method)
    return _pillow.Resampling[base[len("pil_") :].upper()], version


#: The values at which ``resize``'s old keywords changed nothing (``alpha="straight"`` is ``None``'s).
_UNCHANGED: dict[str, Callable[[Any], bool]] = {
    "coordinate_transformation_mode": lambda v: isinstance(v, str) and v == "half_pixel",
    "nearest_mode": lambda v: v is None,
    "cubic_coeff_a": lambda v: v is None,
    "exclude_outside": lambda v: v is None,
    "roi": lambda v: v is None,
    "extrapolation_value": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0.0,
    "alpha": lambda v: v is None or (isinstance(v, str) and v == "straight"),
    "precision": lambda v: v is lax.Precision.HIGHEST,
    "strategy": lambda v: isinstance(v, str) and v == "auto",
}


def split_call(method, antialias, options: dict) -> tuple[Callable[..., jax.Array], tuple, dict]:
    """``(function, args, kwargs)``: the call ``function(image, shape, *args, **kwargs)`` taking
    ``method``, ``antialias`` and ``options`` (``resize``'s, ONNX's, ``alpha``): :func:`resize` if no
    option changes anything, else :func:`resize_with_pillow_filter` (``pil_*``) or
    :func:`resize_with_onnx_attributes`. Raises what ``resize`` refused before the split (ValueError:
    ONNX's attributes with ``pil_*``, premultiplied alpha without; TypeError: unknown keywords)."""
    unknown = sorted(set(options) - set(_UNCHANGED))
    if unknown:
        raise TypeError(f"resize() got an unexpected keyword argument {unknown[0]!r}")
    method = method_name(method)
    pil = method in PIL_METHODS
    # pil_* ignored extrapolation_value before the split: dropped, as it changed nothing
    given = {k: v for k, v in options.items() if not _UNCHANGED[k](v) and not (pil and k == "extrapolation_value")}
    own = {k: given.pop(k) for k in ("precision", "strategy") if k in given}
    if not given:
        return resize, (method,) + ((antialias,) if antialias is not True else ()), own
    if pil:
        onnx = [k for k in ONNX_ATTRIBUTES if k in given and k != "cubic_coeff_a"]
        if onnx:
            raise ValueError(
                f"method={method!r} reproduces PIL.Image.resize, whose rule has no {', '.join(onnx)} option; "
                "leave it at its default (cubic_coeff_a is accepted by 'pil_bicubic' only)."
            )
        resample, version = pillow_filter(method)
        release = {"pillow_version": version} if version != "13" else {}
        return resize_with_pillow_filter, (resample,), {**given, **release, **own}
    if "alpha" in given:
        raise ValueError(
            f"alpha={given['alpha']!r} reproduces PIL.Image.resize's LA/RGBA resampling and needs a pil_* method "
            f"({', '.join(PIL_METHODS)}); got method={method!r}. Leave alpha=None for the others."
        )
    flags = {"antialias": antialias} if antialias is not True else {}
    return resize_with_onnx_attributes, (method,), {**flags, **given, **own}


def _spelled(function: Callable, args: tuple, kwargs: dict) -> str:
    """``function``'s call as a user writes it: ``jax_resize.f(image, shape, compat.BICUBIC, ...)``;
    arrays by their type's name (the roi as ``roi``)."""

    def word(v):
        if isinstance(v, (_pillow.Resampling, lax.Precision)):
            return f"{'compat' if isinstance(v, _pillow.Resampling) else 'lax.Precision'}.{v.name}"
        return repr(v) if not _v.is_traced(v) and np.ndim(v) == 0 else type(v).__name__

    words = [word(a) for a in args] + [f"{k}={'roi' if k == 'roi' else word(v)}" for k, v in kwargs.items()]
    return f"jax_resize.{function.__name__}(image, shape, {', '.join(words)})"


def _axis_record(n, o, roi, method, antialias, ctm, nearest_mode, cubic_coeff_a, exclude_outside):
    """One axis ``n -> o`` (both > 0) on ONNX's ``coordinate_transformation_mode`` ``ctm``: jax.image's nearest rule,
    ONNX's nearest rounding, or a jax.image filter."""
    if method == "nearest" and nearest_mode is None and ctm == "half_pixel":
        return _jax_image.nearest_record(n, o)
    if method == "nearest":
        return _onnx.axis_record(
            n,
            o,
            o / n,
            mode="nearest",
            roi=roi,
            coordinate_transformation_mode=ctm,
            nearest_mode=nearest_mode or "round_prefer_ceil",
        )
    rule = _onnx.COORDINATE_RULES[ctm]
    return _jax_image.filter_record(n, o, roi, method, antialias, rule, cubic_coeff_a, exclude_outside)
