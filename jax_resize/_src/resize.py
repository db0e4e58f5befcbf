"""Front end: the public ``resize`` — ``jax.image.resize``'s methods with ONNX Resize's options as
keywords, and ``PIL.Image.resize`` as the ``pil_*`` methods. The image runs through one prologue
(:mod:`.frontend`); each axis's record comes straight from a peer's rule (:mod:`.peers.jax_image`,
:mod:`.peers.onnx`, :mod:`.peers.pillow`), applied by ``apply.run``.
"""

from __future__ import annotations

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


#: Every ``pil_*`` method: Pillow 13's (``pil_bicubic`` ...) and Pillow 12.3's (``pil12_bicubic`` ...).
PIL_METHODS = _pillow.METHODS + _pillow_releases.METHODS_12


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

    With only ``jax.image.resize``'s arguments the result equals it for every method, dtype rules
    included; the keyword-only ONNX options change the coordinate rule, rounding, cubic
    coefficient or boundary handling of the same filters. Each axis whose size changes is
    resampled with a weight matrix ``W: [out, in]``: coordinates ``x = (i + 0.5) / scale - 0.5``
    (``scale = out / in``), the filter stretched by ``max(1, 1/scale)`` when ``antialias`` and
    downsampling, taps outside the image dropped and rows renormalised (a row left with no
    weight reads the nearest edge pixel). Nearest picks ``floor((i + 0.5) * in / out)``.

    Args:
      image: array ``[...]`` of any rank (e.g. ``[N, H, W, C]``).
      shape: the full output shape, same length as ``image.shape`` (static).
      method: ``"nearest"``, ``"linear"`` (default; aliases bilinear/trilinear/triangle),
        ``"cubic"`` (Keys 1981, a = -0.5), ``"lanczos3"``, ``"lanczos5"``, ``"cubic-pytorch"``
        (a = -0.75, edge-clamped), ``"area"`` or a ``jax.image.ResizeMethod``; ``"pil_nearest"``,
        ``"pil_box"``, ``"pil_bilinear"``, ``"pil_hamming"``, ``"pil_bicubic"``, ``"pil_lanczos"``,
        ``"pil_mks2013"``, ``"pil_mks2021"`` (Pillow 13's Magic Kernel Sharp filters)
        reproduce ``PIL.Image.resize`` with ``Image.Resampling``'s filter of that name (below),
        Pillow 13's bits; ``"pil12_nearest"`` ... ``"pil12_lanczos"`` the same filters with Pillow
        12.3's (its pass order: ``compat.pil_resize``'s ``pillow_version="12"``).
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
        banded elsewhere); all give the same values up to float rounding.
      alpha: ``pil_*`` methods only: ``None`` / ``"straight"`` (default) resamples every channel
        independently; ``"premultiplied"`` treats the last axis as the channels of a uint8
        ``LA`` (2) or ``RGBA`` (4) image, alpha last, resampled as ``PIL.Image.resize`` does
        (colours premultiplied by alpha, resampled, divided back, with Pillow's integer rounding:
        :func:`.peers.pillow_modes.premultiply`); ``pil_nearest`` is not premultiplied (as in Pillow).
        The last axis must keep its length.

    Pillow methods: every axis whose length changes is resampled like one pass of
    ``Image.resize`` with Pillow's window and kernels (``compat.pil_resize`` gives the formulas).
    They keep the input dtype, like Pillow's modes: float images give mode ``'F'``'s result;
    ``uint8`` images the 8-bit modes' (``'L'``, ``'RGB'``...) bit for bit (22-bit fixed point,
    each pass rounded and clipped to ``uint8``, Pillow 13's pass order (12's for ``pil12_*``);
    exact while a pass reads fewer than about 780 taps per output, i.e. downsampling by less than
    ~130x with lanczos);
    other integers round half away from zero after each pass (mode ``'I'``). ``cubic_coeff_a``
    changes ``pil_bicubic``'s ``a`` (Pillow: -0.5); the other ONNX options do not apply. Not
    supported: ``box`` and ``reducing_gap`` (``compat.pil_resize`` has them). An ``[H, W, 4]``
    uint8 array without ``alpha="premultiplied"`` is resampled as four independent channels,
    like ``RGBX``.

    Returns:
      Array of shape ``shape``: ``image``'s dtype for nearest and the ``pil_*`` methods,
      otherwise its inexact promotion (integers become the default float type), as
      ``jax.image.resize``.

    Raises:
      ValueError: wrong ``shape`` length or negative sizes, an output above
        :func:`jax_resize.max_output_elements`, unknown method or mode names, a non-empty output
        from an empty axis, an ONNX option with a ``pil_*`` method, ``alpha="premultiplied"``
        with another method, or on a last axis that is not 2 or 4 channels long or changes length.
      TypeError: traced ``shape``; unsupported dtypes; bool with a ``pil_*`` filter;
        ``alpha="premultiplied"`` on non-uint8.

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
    method = method_name(method)
    image, dtype = _frontend.prologue("image", image)
    shape = _frontend.output_size(_v.shape_tuple("shape", shape, image.ndim), "shape")
    if method in PIL_METHODS:
        _pil_options_unused(method, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, roi)
        if cubic_coeff_a is not None:
            cubic_coeff_a = _v.finite_float("cubic_coeff_a", cubic_coeff_a)
        return _pil_resize(image, shape, method, cubic_coeff_a, alpha, precision, strategy)
    if alpha not in (None, "straight"):
        raise ValueError(
            f"alpha={alpha!r} reproduces PIL.Image.resize's LA/RGBA resampling and needs a pil_* method "
            f"({', '.join(PIL_METHODS)}); got method={method!r}. Leave alpha=None for the others."
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
    axes = [
        axis
        for axis, (n, o, r) in enumerate(zip(image.shape, shape, pairs))
        if n != o or roi_traced or not (r is None or (float(r[0]) == 0.0 and float(r[1]) == 1.0))
    ]
    _v.check_empty_axes([image.shape[a] for a in axes], [shape[a] for a in axes], axes)
    empty = _frontend.empty_output(shape, out_dtype or image.dtype)
    if empty is not None:  # no axis's weights (another axis may be huge)
        return empty
    options = (method, antialias, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside)
    ops = [(axis, _axis_record(image.shape[axis], shape[axis], pairs[axis], *options)) for axis in axes]
    return _apply.run(
        image, ops, extrapolation_value=extrapolation_value, precision=precision, strategy=strategy, dtype=out_dtype
    )


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


def _pil_options_unused(method, coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, roi):
    """Pillow's methods have fixed rules; an ONNX option given with them is an error."""
    given = dict(
        coordinate_transformation_mode=coordinate_transformation_mode != "half_pixel",
        nearest_mode=nearest_mode is not None,
        exclude_outside=exclude_outside is not None,
        roi=roi is not None,
        cubic_coeff_a=cubic_coeff_a is not None and method not in ("pil_bicubic", "pil12_bicubic"),
    )
    bad = [name for name, set_ in given.items() if set_]
    if bad:
        raise ValueError(
            f"method={method!r} reproduces PIL.Image.resize, whose rule has no {', '.join(bad)} option; "
            "leave it at its default (cubic_coeff_a is accepted by 'pil_bicubic' only)."
        )


def _pil_resize(image, shape, method: str, cubic_coeff_a, alpha, precision, strategy) -> jax.Array:
    """A ``pil_*`` method: every axis whose length changes is resampled as one pass of
    ``Image.resize``; ``alpha="premultiplied"`` wraps the passes in Pillow's premultiplication
    (not ``pil_nearest``, which Pillow resamples straight). Returns ``image``'s dtype."""
    base, version = _pillow_releases.split_method(method)
    premultiplied = _pillow_modes.check_alpha(image.shape, shape, image.dtype, alpha)
    changed = [a for a in range(image.ndim) if image.shape[a] != shape[a]]
    _v.check_empty_axes([image.shape[a] for a in changed], [shape[a] for a in changed], changed)
    if image.dtype == np.bool_ and base != "pil_nearest":
        raise TypeError(
            f"image has dtype bool, which only method='pil_nearest' (or 'pil12_nearest') can resize; got {method!r}."
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
