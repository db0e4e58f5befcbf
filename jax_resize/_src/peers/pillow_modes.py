"""Pillow's modes: which ``Image.fromarray`` mode an array stands for (:func:`array_modes`,
:func:`image_mode`), and the premultiplied alpha of its ``LA``/``RGBA`` images in Convert.c's
integer rounding (:func:`premultiply`, :func:`unpremultiply`, :func:`check_alpha`). A part of the
Pillow peer (:mod:`.pillow`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .. import dtypes as _dtypes

#: The 8-bit modes of ``[H, W, C]`` uint8 by channel count, ``Image.fromarray``'s inferred one first.
_CHANNEL_MODES = {
    2: ("LA", "La", "PA"),
    3: ("RGB", "YCbCr", "LAB", "HSV"),
    4: ("RGBA", "RGBa", "RGBX", "CMYK"),
}
#: Every ``mode`` :func:`.pillow.pil_resize` accepts (Pillow's mode strings).
PIL_MODES = ("1", "L", "P", "I", "I;16", "F") + tuple(m for modes in _CHANNEL_MODES.values() for m in modes)
#: The modes ``Image.resize`` resamples with premultiplied alpha (``LA -> La``, ``RGBA -> RGBa``).
ALPHA_MODES = ("LA", "RGBA")
#: Values of ``resize``'s ``alpha`` argument for the ``pil_*`` methods.
ALPHA_OPTIONS = (None, "straight", "premultiplied")
#: The pixel dtype of the modes that do not store uint8 (``np.asarray(image).dtype``).
MODE_DTYPE = {"1": np.dtype(bool), "I": np.dtype(np.int32), "I;16": np.dtype(np.uint16), "F": np.dtype(np.float32)}
# 2-D integer arrays that Image.fromarray reads as mode 'I' (32-bit signed pixels)
_MODE_I_DTYPES = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.uint32))


def array_modes(shape, dtype) -> tuple[str, ...]:
    """The Pillow modes an array of ``shape`` and ``dtype`` can stand for (``()`` if none): first the
    one ``Image.fromarray(array)`` infers (Pillow 13), then those ``Image.fromarray(array, mode)``
    accepts, plus ``'I'`` for ``[H, W]`` uint16 (``.convert('I')``); e.g. ``('RGBA', 'RGBa', 'RGBX',
    'CMYK')`` for ``[H, W, 4]`` uint8."""
    dtype = np.dtype(dtype)
    if len(shape) == 2:
        if dtype == np.bool_:
            return ("1",)
        if dtype == np.uint8:
            return ("L", "P")
        if dtype == np.uint16:
            return ("I;16", "I")
        if dtype in _MODE_I_DTYPES:
            return ("I",)
        if dtype in (np.dtype(np.float32), np.dtype(np.float64)):
            return ("F",)
    elif len(shape) == 3 and dtype == np.uint8:
        return _CHANNEL_MODES.get(int(shape[2]), ())
    return ()


def image_mode(shape, dtype, mode: str | None = None) -> str | None:
    """``mode`` checked against an array of ``shape`` and ``dtype``, or (``mode=None``) the mode
    ``Image.fromarray`` infers for it; ``None`` for an array Pillow has no mode for.

    Raises:
      ValueError: ``mode`` is not in :data:`PIL_MODES` or does not fit the array (:func:`array_modes`).
    """
    allowed = array_modes(shape, dtype)
    if mode is None:
        return allowed[0] if allowed else None
    if mode not in PIL_MODES:
        raise ValueError(f"mode={mode!r} is not supported; allowed values: None, {', '.join(map(repr, PIL_MODES))}.")
    if mode not in allowed:
        fits = (
            f"allowed for it: None (inferred: {allowed[0]!r}), {', '.join(map(repr, allowed))}"
            if allowed
            else "Pillow has no mode for it; pass mode=None (its channels are resampled independently)"
        )
        image = f"an image of shape {tuple(shape)} and dtype {np.dtype(dtype)}"
        raise ValueError(f"mode={mode!r} does not fit {image}; {fits}.")
    return mode


def premultiply(image) -> jax.Array:
    """Pillow's ``RGBA -> RGBa`` and ``LA -> La`` on uint8 ``[..., C]`` (alpha ``a`` last, kept): each
    colour ``c`` becomes ``((t >> 8) + t) >> 8``, ``t = c * a + 128`` (``c * a / 255`` rounded).

    Example:
      >>> import numpy as np
      >>> np.asarray(premultiply(np.array([[200, 255], [200, 128], [200, 0]], np.uint8))).tolist()
      [[200, 255], [100, 128], [0, 0]]

    Source: Pillow ``src/libImaging/Convert.c`` (``rgbA2rgba``, ``lA2la``; ``MULDIV255`` in
    ``ImagingUtils.h``).
    """
    x = _dtypes.as_array(image).astype(jnp.int32)
    alpha = x[..., -1:]
    t = x[..., :-1] * alpha + 128
    return jnp.concatenate([((t >> 8) + t) >> 8, alpha], axis=-1).astype(jnp.uint8)


def unpremultiply(image) -> jax.Array:
    """Pillow's ``RGBa -> RGBA`` and ``La -> LA`` on uint8 ``[..., C]`` (alpha ``a`` last, kept): each
    colour ``c`` becomes ``min(255, (255 * c) // a)``, kept where ``a`` is 0 or 255.

    Example:
      >>> import numpy as np
      >>> np.asarray(unpremultiply(np.array([[200, 255], [100, 128], [7, 0]], np.uint8))).tolist()
      [[200, 255], [199, 128], [7, 0]]

    Source: Pillow ``src/libImaging/Convert.c`` (``rgba2rgbA``, ``la2lA``).
    """
    x = _dtypes.as_array(image).astype(jnp.int32)
    alpha, colour = x[..., -1:], x[..., :-1]
    divided = jnp.minimum((255 * colour) // jnp.maximum(alpha, 1), 255)
    colour = jnp.where((alpha == 0) | (alpha == 255), colour, divided)
    return jnp.concatenate([colour, alpha], axis=-1).astype(jnp.uint8)


def check_alpha(image_shape, shape, dtype, alpha) -> bool:
    """Validates ``resize``'s ``alpha`` for a ``pil_*`` method; True for ``"premultiplied"``.

    Raises:
      ValueError: unknown ``alpha``; premultiplied alpha on an array whose last axis is not 2 or 4
        channels long (``LA``, ``RGBA``) or changes length.
      TypeError: premultiplied alpha on a dtype other than uint8 (Pillow's ``LA``/``RGBA``).
    """
    if alpha not in ALPHA_OPTIONS:
        raise ValueError(f"alpha={alpha!r} is not supported; allowed values: {', '.join(map(repr, ALPHA_OPTIONS))}.")
    if alpha != "premultiplied":
        return False
    if np.dtype(dtype) != np.uint8:
        raise TypeError(
            f"alpha='premultiplied' reproduces Pillow's LA/RGBA images, which are uint8; image has dtype {dtype}."
        )
    if len(image_shape) < 2 or image_shape[-1] not in (2, 4):
        raise ValueError(
            "alpha='premultiplied' needs the channels on the last axis, 2 (LA) or 4 (RGBA) of them, alpha last; "
            f"image has shape {tuple(image_shape)}."
        )
    if shape[-1] != image_shape[-1]:
        raise ValueError(
            f"alpha='premultiplied' treats the last axis as channels, which cannot be resized; "
            f"shape[-1]={shape[-1]} but image.shape[-1]={image_shape[-1]}."
        )
    return True
