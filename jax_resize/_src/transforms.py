"""Image transforms of input pipelines: geometry in numpy, pixels by a framework preset.

Contract: the geometry functions take and return Python ints (heights, widths, boxes ``(top,
left, height, width)`` in pixels) and follow one library's rule each, named in their docstring;
:func:`resample` resizes one channels-last image ``[H, W, C]`` (or ``[H, W]``) with the arithmetic
of a ``preset`` and its method names, returning a numpy array equal to that library's own resize
of the same image (see :data:`PRESETS` for the dtype each returns and :func:`resample` for the
exactness). The grain transforms (:mod:`jax_resize.grain`) are built from these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from . import validation as _v

#: Per preset, the method names it accepts (the library's own spellings).
PRESETS: dict[str, tuple[str, ...]] = {
    "torchvision": ("nearest", "nearest-exact", "bilinear", "bicubic"),
    "pillow": ("nearest", "box", "bilinear", "hamming", "bicubic", "lanczos", "mks2013", "mks2021"),
    "pillow12": ("nearest", "box", "bilinear", "hamming", "bicubic", "lanczos"),
    "pillow11": ("nearest", "box", "bilinear", "hamming", "bicubic", "lanczos"),
    "tf": ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"),
    "opencv": ("nearest", "linear", "cubic", "area", "lanczos4", "nearest-exact"),
    "jax": ("nearest", "linear", "bilinear", "cubic", "bicubic", "lanczos3", "lanczos5"),
}
#: Presets whose library always (Pillow) or never (OpenCV) filters over the scaled support.
_ALWAYS_ANTIALIASED = ("pillow", "pillow12", "pillow11")
_NEVER_ANTIALIASED = ("opencv",)


def check_method(preset: str, method: str, antialias: bool) -> tuple[str, str]:
    """``(preset, method)`` validated.

    Raises:
      ValueError: an unknown preset or a method the preset does not name; ``antialias=False`` for
        Pillow (it always filters over the scaled support) or ``antialias=True`` for OpenCV (it
        has no such switch: its shrinking filter is ``"area"``) unless the method is ``"area"``.
      TypeError: ``antialias`` not a bool.
    """
    preset = _v.choice("preset", preset, tuple(PRESETS))
    method = _v.choice("method", method, PRESETS[preset])
    antialias = _v.boolean("antialias", antialias)
    if preset in _ALWAYS_ANTIALIASED and not antialias:
        raise ValueError("antialias=False: Pillow always filters over the scaled support; pass antialias=True.")
    if preset in _NEVER_ANTIALIASED and antialias and method != "area":
        raise ValueError(
            f"antialias=True with preset='opencv' and method={method!r}: cv2.resize has no antialias switch "
            "(its shrinking filter is method='area'); pass antialias=False."
        )
    return preset, method


def _positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int; got {value!r}.")
    if value < 1:
        raise ValueError(f"{name} must be at least 1; got {value}.")
    return int(value)


def pair(name: str, size) -> tuple[int, int]:
    """``size`` as ``(height, width)``: an int gives a square.

    Raises:
      TypeError / ValueError: not an int or a pair of ints >= 1.
    """
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        return (_positive(name, size),) * 2
    if not isinstance(size, Sequence) or len(size) != 2:
        raise TypeError(f"{name} must be an int or a (height, width) pair; got {size!r}.")
    return _positive(f"{name}[0]", size[0]), _positive(f"{name}[1]", size[1])


def resized_size(height: int, width: int, size, max_size: int | None = None) -> tuple[int, int]:
    """The output ``(height, width)`` of ``torchvision.transforms.v2.Resize(size, max_size=...)``.

    ``size`` an int (or a one-element sequence): the shorter edge becomes ``size``, the longer
    ``int(size * long / short)`` (truncated); ``(h, w)``: exactly that; ``None``: the longer edge
    becomes ``max_size``. ``max_size`` caps the longer edge: where it is exceeded, the longer edge
    becomes ``max_size`` and the shorter ``int(max_size * short / long)``.

    Raises:
      ValueError: ``max_size`` with ``(h, w)``, ``max_size <= size``, ``size=None`` without
        ``max_size``, or a size < 1. TypeError: non-int sizes.

    Source: torchvision ``transforms/functional.py`` ``_compute_resized_output_size``.
    """
    short, long = (width, height) if width <= height else (height, width)
    if size is None:
        if max_size is None:
            raise ValueError("size=None needs max_size (the longer edge's length).")
        long_out = _positive("max_size", max_size)
        short_out = int(long_out * short / long)
    else:
        if isinstance(size, Sequence) and len(size) == 1:
            size = size[0]
        if not (isinstance(size, (int, np.integer)) and not isinstance(size, bool)):
            if max_size is not None:
                raise ValueError(f"max_size applies to an int size (the shorter edge); got size={size!r}.")
            return pair("size", size)
        short_out = _positive("size", size)
        long_out = int(short_out * long / short)
        if max_size is not None:
            max_size = _positive("max_size", max_size)
            if max_size <= short_out:
                raise ValueError(f"max_size={max_size} must be greater than size={short_out} (the shorter edge).")
            if long_out > max_size:
                short_out, long_out = int(max_size * short_out / long_out), max_size
    return (long_out, short_out) if width <= height else (short_out, long_out)


def center_crop_box(height: int, width: int, crop_height: int, crop_width: int) -> tuple[int, int, int, int]:
    """``(top, left, pad_top, pad_left)`` of ``torchvision.transforms.v2.CenterCrop``: where the crop
    is larger than the image, the image is first padded with zeros by ``(crop - size) // 2`` before
    (and the rest after); the crop's corner is ``round((size - crop) / 2)`` (Python's round: half
    to even) in the padded image.

    Source: torchvision ``transforms/v2/functional/_geometry.py`` ``center_crop_image``.
    """
    pad_top = (crop_height - height) // 2 if crop_height > height else 0
    pad_left = (crop_width - width) // 2 if crop_width > width else 0
    padded_h, padded_w = max(height, crop_height), max(width, crop_width)
    return int(round((padded_h - crop_height) / 2.0)), int(round((padded_w - crop_width) / 2.0)), pad_top, pad_left


def center_crop(image: np.ndarray, size) -> np.ndarray:
    """``image`` ``[H, W, ...]`` cropped to ``size`` (an int or ``(h, w)``) about its centre, padded
    with zeros where the crop is larger (:func:`center_crop_box`)."""
    ch, cw = pair("size", size)
    h, w = image.shape[:2]
    top, left, pad_top, pad_left = center_crop_box(h, w, ch, cw)
    if ch > h or cw > w:
        pads = [(pad_top, max(ch - h, 0) - pad_top), (pad_left, max(cw - w, 0) - pad_left)]
        image = np.pad(image, pads + [(0, 0)] * (image.ndim - 2))
    return image[top : top + ch, left : left + cw]


def random_resized_crop_box(
    height: int, width: int, scale: tuple[float, float], ratio: tuple[float, float], rng: np.random.Generator
) -> tuple[int, int, int, int]:
    """The box ``(top, left, height, width)`` of ``torchvision.transforms.v2.RandomResizedCrop``,
    drawn from ``rng``: up to 10 tries of an area fraction uniform in ``scale`` and a log-uniform
    aspect ratio in ``ratio``, each rounded (half to even) to a box that must fit, at a uniform
    corner; else the central crop of the ratio clamped into ``ratio``. The variates are rounded to
    float32, as torchvision's are.

    Source: torchvision ``transforms/v2/_geometry.py`` ``RandomResizedCrop.make_params``.
    """
    area = height * width
    f32 = np.float32  # torchvision draws and takes the logarithm and exponential in float32
    log_ratio = np.log(np.asarray(ratio, f32))
    for _ in range(10):
        target_area = area * float(f32(rng.uniform(scale[0], scale[1])))
        aspect = float(np.exp(f32(rng.uniform(float(log_ratio[0]), float(log_ratio[1])))))
        w = int(round(math.sqrt(target_area * aspect)))
        h = int(round(math.sqrt(target_area / aspect)))
        if 0 < w <= width and 0 < h <= height:
            return int(rng.integers(0, height - h + 1)), int(rng.integers(0, width - w + 1)), h, w
    in_ratio = width / height
    if in_ratio < min(ratio):
        w, h = width, int(round(width / min(ratio)))
    elif in_ratio > max(ratio):
        h, w = height, int(round(height * max(ratio)))
    else:
        h, w = height, width
    return (height - h) // 2, (width - w) // 2, h, w


def pad_box(height: int, width: int, target_height: int, target_width: int) -> tuple[int, int, int, int]:
    """``(resized_height, resized_width, top, left)`` of ``tf.image.resize_with_pad``: the image
    scaled by ``1 / max(w / tw, h / th)`` (float32 arithmetic, floored) and placed at
    ``floor((target - resized_float) / 2)`` in a zero canvas.

    Source: TensorFlow ``python/ops/image_ops_impl.py`` ``_resize_image_with_pad_common``.
    """
    f32 = np.float32
    ratio = max(f32(width) / f32(target_width), f32(height) / f32(target_height))
    rh, rw = f32(height) / ratio, f32(width) / ratio
    top = max(0, int(np.floor((f32(target_height) - rh) / f32(2))))
    left = max(0, int(np.floor((f32(target_width) - rw) / f32(2))))
    return int(np.floor(rh)), int(np.floor(rw)), top, left


def resample(
    image: np.ndarray, size: tuple[int, int], *, method: str, antialias: bool, preset: str, window=None
) -> np.ndarray:
    """``image`` ``[H, W]`` or ``[H, W, C]`` resized to ``size = (height, width)`` as ``preset``'s
    library resizes it, as a numpy array; with ``window = (top, left, height, width)`` only that
    part of the result, computed as such (bit for bit for the uint8 presets torchvision, pillow,
    opencv; float results within rounding), so every input size shares the window's programs.

    Presets and what they equal (uint8 images, bit for bit unless stated):

    * ``"torchvision"``: ``torchvision.transforms.v2.functional.resize`` of the ``[C, H, W]``
      uint8 tensor (``torch.nn.functional.interpolate`` on uint8 for bilinear with AVX2 and for
      bicubic; nearest modes too); an unchanged size returns the image. uint8 out.
    * ``"pillow"``: ``PIL.Image.resize`` with ``Resampling[method.upper()]`` (Pillow 13). uint8 out.
    * ``"pillow12"``: the same with Pillow 12.3's bits (``compat.pil_resize``'s
      ``pillow_version="12"``). uint8 out.
    * ``"pillow11"``: the same with Pillow 10.1-12.1's bits (``pillow_version="11"``). uint8 out.
    * ``"tf"``: ``tf.image.resize(method, antialias)``: float32 out (nearest keeps the dtype).
    * ``"opencv"``: ``cv2.resize`` with ``INTER_<METHOD>`` (:func:`jax_resize.compat.cv2_resize`):
      bit for bit, but cubic within 1 where the x86-64 wheel calls Intel IPP. uint8 out.
    * ``"jax"``: ``jax.image.resize(method, antialias)``: float32 out for filters of integer
      images (jax.image's rule), nearest keeps the dtype.

    Raises:
      ValueError / TypeError: as :func:`check_method`; ``image`` not 2-D or 3-D.
    """
    preset, method = check_method(preset, method, antialias)
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError(f"image must be [H, W] or [H, W, C]; got shape {image.shape}.")
    out = np.asarray(preset_resize(image, size, method, preset, antialias, window))
    if window is None:
        return out
    top, left, wh, ww = window
    if out.shape[0] != wh:  # an axis the library copies (its size unchanged) is cut here
        out = out[top : top + wh]
    return out if out.shape[1] == ww else out[:, left : left + ww]


def height_axis(preset: str) -> int:
    """The axis of the image's height in the array ``preset``'s front end resamples (torch's
    ``[N, C, H, W]``; the others take the image as it is); the width's follows it."""
    return 2 if preset == "torchvision" else 0


def preset_resize(image, size: tuple[int, int], method: str, preset: str, antialias: bool, window=None):
    """The front-end call of :func:`resample` (checked arguments), of a numpy image or a tracer: a
    jax array; with ``window``, the axes it resamples computed for the window's outputs only."""
    from . import frontend  # the front ends import jax: only when pixels are resized

    if window is None:
        return _resample(image, size, method, preset, antialias)
    top, left, wh, ww = window
    first = height_axis(preset)
    with frontend.output_window({first: (top, top + wh), first + 1: (left, left + ww)}):
        return _resample(image, size, method, preset, antialias)


def _resample(image, size: tuple[int, int], method: str, preset: str, antialias: bool):
    from .. import compat  # the front ends import jax: only when pixels are resized
    from .resize import resize

    h, w = size
    if preset == "torchvision":
        if (h, w) == image.shape[:2]:
            return image
        chw = image.reshape(*image.shape[:2], -1).transpose(2, 0, 1)[None]
        aa = antialias and method in ("bilinear", "bicubic")
        nchw = compat.torch_interpolate(chw, size=(h, w), mode=method, antialias=aa)
        return nchw[0].transpose(1, 2, 0).reshape(*nchw.shape[2:], *image.shape[2:])
    if preset in _ALWAYS_ANTIALIASED:
        version = preset[len("pillow") :] or "13"
        return compat.pil_resize(image, (w, h), compat.Resampling[method.upper()], pillow_version=version)
    if preset == "tf":  # tf.image.resize takes [H, W, C]
        hwc = compat.tf_resize(image.reshape(*image.shape[:2], -1), (h, w), method, antialias=antialias)
        return hwc.reshape(*hwc.shape[:2], *image.shape[2:])
    if preset == "opencv":
        flag = compat.InterpolationFlags[f"INTER_{method.upper().replace('-', '_')}"]
        hw = compat.cv2_resize(image, (w, h), interpolation=flag)
        return hw.reshape(*hw.shape[:2], *image.shape[2:])
    jax_method = {"bilinear": "linear", "bicubic": "cubic"}.get(method, method)
    return resize(image, (h, w, *image.shape[2:]), jax_method, antialias=antialias)
