"""Grain transforms: resize, crop and letterbox images in an input pipeline, as a framework does.

Needs ``grain`` (``pip install "jax_resize[grain]"``); ``import jax_resize`` does not import it.

Each transform is a frozen, picklable dataclass (a ``grain.transforms.Map`` or ``RandomMap``),
options keyword-only, acting on an image element ``[H, W]`` / ``[H, W, C]`` (numpy, channels last)
or with ``key=`` on that entry of a dict element. Pixels follow ``preset``'s library with its method
names (``"torchvision"``, ``"pillow"`` (Pillow 13; ``"pillow12"``: Pillow 12.3's bits;
``"pillow11"``: Pillow 10.1-12.1's), ``"tf"``, ``"opencv"``, ``"jax"``); dtypes and exactness:
:func:`jax_resize._src.transforms.resample`. ``output_shape(input_shape)`` gives the output shape.
With ``device=True`` the workers compute geometry only and :func:`on_device` resizes each batch
stacked by :func:`batch` on the accelerator.

Example:
  >>> import grain, numpy as np
  >>> from jax_resize.grain import CenterCrop, Resize
  >>> images = [np.zeros((300, 400, 3), np.uint8), np.zeros((500, 375, 3), np.uint8)]
  >>> ds = grain.MapDataset.source(images).map(Resize(256)).map(CenterCrop(224))
  >>> [x.shape for x in ds]
  [(224, 224, 3), (224, 224, 3)]
"""

from __future__ import annotations

import collections
import dataclasses
import io
import logging
import os
from typing import Any

import numpy as np

try:
    import grain as _grain
except ImportError as error:  # pragma: no cover - exercised only without grain
    raise ImportError(
        'jax_resize.grain needs grain (>= 0.2.18); install it with `pip install "jax_resize[grain]"`.'
    ) from error

from jax_resize._src import pending as _p
from jax_resize._src import transforms as _t
from jax_resize._src import validation as _v

__all__ = [
    "CenterCrop",
    "DecodeImage",
    "RandomResizedCrop",
    "Resize",
    "ResizeWithPad",
    "batch",
    "decode_errors",
    "on_device",
]

_log = logging.getLogger(__name__)
#: Elements :class:`DecodeImage` dropped in this process, by reason.
_DECODE_ERRORS: collections.Counter = collections.Counter()


def _image(element, key: str | None) -> np.ndarray:
    image = element if key is None else element[key]
    if isinstance(image, _p.Pending):
        raise TypeError(
            "this element waits for the device (a device=True transform made it): only CenterCrop may follow; "
            "then batch with jax_resize.grain.batch and resize with jax_resize.grain.on_device."
        )
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        where = "the element" if key is None else f"element[{key!r}]"
        raise ValueError(f"{where} must be an image [H, W] or [H, W, C]; got shape {image.shape}.")
    return image


def _replace(element, key: str | None, image: Any):
    if key is None:
        return image
    return {**element, key: image}


def _sized(size, input_shape, name: str = "size") -> tuple[int, ...]:
    """The shape of an image of ``input_shape`` made ``size`` (an int or ``(height, width)``)."""
    return (*_t.pair(name, size), *tuple(input_shape)[2:])


def _check(transform) -> None:
    """The options every resampling transform shares, checked when it is built."""
    _t.check_method(transform.preset, transform.method, transform.antialias)
    _key(transform.key)
    if _v.boolean("device", transform.device) and (transform.preset, transform.method) in _p.UNSUPPORTED:
        raise ValueError(
            f"device=True does not support preset={transform.preset!r} with method={transform.method!r} "
            "(its result is scaled after the resize); use device=False."
        )


def _key(key) -> str | None:
    if key is not None and not isinstance(key, str):
        raise TypeError(f"key must be a str (an entry of dict elements) or None; got {key!r}.")
    return key


@dataclasses.dataclass(frozen=True)
class Resize(_grain.transforms.Map):
    """Resizes an image as ``torchvision.transforms.v2.Resize(size, max_size=...)`` sizes it.

    Args:
      size: an int: the shorter edge's length (the longer edge scaled and truncated, as
        torchvision); ``(height, width)``: exactly that; ``None``: the longer edge becomes
        ``max_size``.
      max_size: caps the longer edge (an int ``size`` or ``None`` only), as torchvision.
      method: the preset library's method name (``"bilinear"`` ...).
      antialias: filter over the scaled support when shrinking (Pillow always does, OpenCV never:
        pass ``False`` with ``preset="opencv"``).
      preset: ``"torchvision"`` (default), ``"pillow"`` (Pillow 13), ``"pillow12"`` (Pillow 12.3:
        ``compat.pil_resize``'s ``pillow_version="12"``), ``"pillow11"`` (Pillow 10.1-12.1:
        ``pillow_version="11"``), ``"tf"``, ``"opencv"``, ``"jax"``.
      key: the entry of a dict element to resize; ``None``: the element is the image.
      crop: ``Resize(size)`` then ``CenterCrop(crop)`` (an int or ``(height, width)``), the same
        pixels computed as one resize of the crop's shape: every image size shares its programs
        (separately, each resized size compiles its own).
      device: compute only the geometry here (numpy): the element becomes pending, for
        :func:`batch` and :func:`on_device` (which resizes on the device, with the same pixels;
        ``preset="opencv"`` too: OpenCV's integer arithmetic, its tables stacked per batch).

    Raises:
      ValueError / TypeError: when built, for a size, method, preset or flag not allowed; when
        mapping, for an element that is not an image.

    Source: torchvision ``transforms.v2.Resize`` (sizes); pixels by ``preset``.

    Example:
      >>> Resize(256, crop=224).map(np.zeros((480, 640, 3), np.uint8)).shape
      (224, 224, 3)
    """

    size: Any
    _: dataclasses.KW_ONLY
    max_size: int | None = None
    method: str = "bilinear"
    antialias: bool = True
    preset: str = "torchvision"
    key: str | None = None
    crop: Any = None
    device: bool = False

    def __post_init__(self):
        _check(self)
        _t.resized_size(1000, 1000, self.size, self.max_size)  # the size's errors, when built
        if self.crop is not None:
            _t.pair("crop", self.crop)

    def output_shape(self, input_shape) -> tuple[int, ...]:
        """The output shape of an image of ``input_shape`` ``(H, W[, C])``."""
        if self.crop is not None:
            return _sized(self.crop, input_shape, "crop")
        h, w = _t.resized_size(int(input_shape[0]), int(input_shape[1]), self.size, self.max_size)
        return (h, w, *tuple(input_shape)[2:])

    def map(self, element):
        image = _image(element, self.key)
        size = _t.resized_size(image.shape[0], image.shape[1], self.size, self.max_size)
        options: dict[str, Any] = dict(method=self.method, antialias=self.antialias, preset=self.preset)
        if self.device:
            pending = _p.pending(image, size, **options)
            return _replace(element, self.key, pending if self.crop is None else _p.center_crop(pending, self.crop))
        if self.crop is None:
            return _replace(element, self.key, _t.resample(image, size, **options))
        ch, cw = _t.pair("crop", self.crop)
        if ch > size[0] or cw > size[1]:  # torchvision pads: crop the whole result
            return _replace(element, self.key, _t.center_crop(_t.resample(image, size, **options), (ch, cw)))
        top, left, _, _ = _t.center_crop_box(size[0], size[1], ch, cw)
        return _replace(element, self.key, _t.resample(image, size, window=(top, left, ch, cw), **options))


@dataclasses.dataclass(frozen=True)
class CenterCrop(_grain.transforms.Map):
    """Crops the centre ``size`` (an int: a square; ``(height, width)``) of an image, padding with
    zeros where the image is smaller, as ``torchvision.transforms.v2.CenterCrop``. No resampling:
    the pixels are the image's own. On an element a ``device=True`` transform made, it crops the
    pending output (geometry only).

    Source: torchvision ``transforms.v2.functional.center_crop``.

    Example:
      >>> CenterCrop((2, 3)).map(np.arange(16).reshape(4, 4))
      array([[ 4,  5,  6],
             [ 8,  9, 10]])
    """

    size: Any
    _: dataclasses.KW_ONLY
    key: str | None = None

    def __post_init__(self):
        _t.pair("size", self.size)
        _key(self.key)

    def output_shape(self, input_shape) -> tuple[int, ...]:
        """The output shape of an image of ``input_shape`` ``(H, W[, C])``."""
        return _sized(self.size, input_shape)

    def map(self, element):
        image = element if self.key is None else element[self.key]
        if isinstance(image, _p.Pending):
            return _replace(element, self.key, _p.center_crop(image, self.size))
        return _replace(element, self.key, _t.center_crop(_image(element, self.key), self.size))


@dataclasses.dataclass(frozen=True)
class RandomResizedCrop(_grain.transforms.RandomMap):
    """A random box of the image resized to ``size``, as ``torchvision.transforms.v2.RandomResizedCrop``:
    the box is drawn with torchvision's algorithm from grain's per-element ``rng``
    (:func:`jax_resize._src.transforms.random_resized_crop_box`); for a given box the pixels are
    ``torchvision.transforms.v2.functional.resized_crop``'s (preset ``"torchvision"``), or the crop
    resized by another preset.

    Args:
      size: an int (a square) or ``(height, width)``.
      scale: the range of the box's area as a fraction of the image's.
      ratio: the range of the box's aspect ratio (width / height), drawn log-uniformly.
      method, antialias, preset, key, device: as :class:`Resize`.

    Raises:
      ValueError / TypeError: as :class:`Resize`; ``scale`` or ``ratio`` not an increasing pair of
        positive numbers (``scale`` at most 1).

    Source: torchvision ``transforms.v2.RandomResizedCrop``.

    Example:
      >>> crop = RandomResizedCrop(64)
      >>> top, left, h, w = crop.box(480, 640, np.random.default_rng(0))  # inside, 8-100 % of the area
      >>> 0 <= top <= 480 - h and 0 <= left <= 640 - w and 0.08 * 480 * 640 <= h * w <= 480 * 640
      True
      >>> crop.random_map(np.zeros((480, 640, 3), np.uint8), np.random.default_rng(0)).shape
      (64, 64, 3)
    """

    size: Any
    _: dataclasses.KW_ONLY
    scale: tuple[float, float] = (0.08, 1.0)
    ratio: tuple[float, float] = (3 / 4, 4 / 3)
    method: str = "bilinear"
    antialias: bool = True
    preset: str = "torchvision"
    key: str | None = None
    device: bool = False

    def __post_init__(self):
        _check(self)
        _t.pair("size", self.size)
        for name, (lo, hi) in (("scale", self._range("scale")), ("ratio", self._range("ratio"))):
            if not 0 < lo <= hi or (name == "scale" and hi > 1):
                raise ValueError(
                    f"{name} must be (low, high) with 0 < low <= high{' <= 1' * (name == 'scale')}; got {(lo, hi)}."
                )

    def _range(self, name: str) -> tuple[float, float]:
        value = getattr(self, name)
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise TypeError(f"{name} must be a (low, high) pair; got {value!r}.")
        return _v.finite_float(f"{name}[0]", value[0]), _v.finite_float(f"{name}[1]", value[1])

    def output_shape(self, input_shape) -> tuple[int, ...]:
        """The output shape of an image of ``input_shape`` ``(H, W[, C])``."""
        return _sized(self.size, input_shape)

    def box(self, height: int, width: int, rng: np.random.Generator) -> tuple[int, int, int, int]:
        """The box ``(top, left, height, width)`` this transform draws from ``rng``."""
        return _t.random_resized_crop_box(height, width, self._range("scale"), self._range("ratio"), rng)

    def random_map(self, element, rng: np.random.Generator):
        image = _image(element, self.key)
        top, left, h, w = self.box(image.shape[0], image.shape[1], rng)
        crop = image[top : top + h, left : left + w]
        size = _t.pair("size", self.size)
        options: dict[str, Any] = dict(method=self.method, antialias=self.antialias, preset=self.preset)
        if self.device:  # a copy: the pending element does not keep the whole image alive
            return _replace(element, self.key, _p.pending(np.ascontiguousarray(crop), size, **options))
        out = _t.resample(crop, size, **options)
        return _replace(element, self.key, out)


@dataclasses.dataclass(frozen=True)
class ResizeWithPad(_grain.transforms.Map):
    """Letterboxes an image into ``size``: scaled to fit, keeping its aspect ratio, and centred on a
    zero canvas, as ``tf.image.resize_with_pad`` (its float32 geometry,
    :func:`jax_resize._src.transforms.pad_box`). With ``preset="tf"`` the result is TensorFlow's
    (float32, nearest keeps the dtype); other presets resize the fitted part with their arithmetic.

    Args:
      size: an int (a square) or ``(height, width)``.
      method, antialias, preset, key, device: as :class:`Resize` (defaults: TensorFlow's
        ``bilinear`` without antialias).

    Source: TensorFlow ``tf.image.resize_with_pad``.

    Example:
      >>> ResizeWithPad(64).map(np.full((30, 60), 255, np.uint8))[14:18, 0]
      array([  0.,   0., 255., 255.], dtype=float32)
    """

    size: Any
    _: dataclasses.KW_ONLY
    method: str = "bilinear"
    antialias: bool = False
    preset: str = "tf"
    key: str | None = None
    device: bool = False

    def __post_init__(self):
        _check(self)
        _t.pair("size", self.size)

    def output_shape(self, input_shape) -> tuple[int, ...]:
        """The output shape of an image of ``input_shape`` ``(H, W[, C])``."""
        return _sized(self.size, input_shape)

    def map(self, element):
        image = _image(element, self.key)
        th, tw = _t.pair("size", self.size)
        rh, rw, top, left = _t.pad_box(image.shape[0], image.shape[1], th, tw)
        if self.device:
            pending = _p.pending(image, (rh, rw), method=self.method, antialias=self.antialias, preset=self.preset)
            return _replace(element, self.key, pending._replace(place=(top, left), canvas=(th, tw)))
        fitted = _t.resample(image, (rh, rw), method=self.method, antialias=self.antialias, preset=self.preset)
        canvas = np.zeros((th, tw, *fitted.shape[2:]), fitted.dtype)
        canvas[top : top + rh, left : left + rw] = fitted
        return _replace(element, self.key, canvas)


def batch(elements):
    """Stacks a batch (a ``batch_fn`` for grain's ``batch``): images a ``device=True`` transform
    made pending are zero-padded to one shape of a global grid (``2**k * (1, 1.25, 1.5, 1.75)``
    pixels per axis, the same on every host) with their geometry, for :func:`on_device`; other
    entries of dict elements are stacked with ``np.stack``.

    Raises:
      ValueError: pending images of one batch with different output shapes or presets.

    Example:
      >>> images = [np.zeros((300, 400, 3), np.uint8), np.zeros((500, 375, 3), np.uint8)]
      >>> pending = [Resize(256, crop=224, device=True).map(x) for x in images]
      >>> batch(pending).images.shape  # padded to the grid: 512 x 448
      (2, 512, 448, 3)
      >>> next(on_device([batch(pending)])).shape
      (2, 224, 224, 3)
    """
    first = elements[0]
    if isinstance(first, _p.Pending):
        return _p.batch(elements)
    if isinstance(first, dict):
        return {k: batch([e[k] for e in elements]) for k in first}
    return np.stack([np.asarray(e) for e in elements])


def on_device(iterator, *, sharding=None):
    """Yields the batches of ``iterator`` with each pending batch resized on the device: a
    ``jax.Array`` ``[B, H, W(, C)]`` with the pixels of the host mode (bit for bit for uint8
    results of torchvision, pillow and opencv, every method; float results within float32
    rounding), computed by one program per padded shape of the grid, output shape and preset
    (never per image size).

    Args:
      iterator: grain batches made with ``batch_fn=jax_resize.grain.batch``.
      sharding: a ``jax.sharding.NamedSharding`` whose first axis splits the batch over devices;
        in several processes each resizes its own batch and the results form one global array
        (``jax.make_array_from_process_local_data``). Default: the default device.
    """
    import jax

    several = sharding is not None and jax.process_count() > 1

    def resized(value):
        if isinstance(value, _p.PendingBatch):
            out = _p.resize_batch(value, None if several else sharding)
            return jax.make_array_from_process_local_data(sharding, out) if several else out
        if isinstance(value, dict):
            return {k: resized(v) for k, v in value.items()}
        return value

    for element in iterator:
        yield resized(element)


def decode_errors() -> dict[str, int]:
    """The elements :class:`DecodeImage` dropped in this process, counted by reason (each worker
    process of a ``grain.DataLoader`` keeps its own count; every drop is also logged there)."""
    return dict(_DECODE_ERRORS)


def _describe(source) -> str:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return f"an element of {len(source)} bytes starting {bytes(source[:8])!r}"
    return (
        repr(os.fspath(source))
        if isinstance(source, (str, os.PathLike))
        else f"an element of type {type(source).__name__}"
    )


@dataclasses.dataclass(frozen=True)
class DecodeImage(_grain.transforms.Map):
    """Decodes encoded image bytes, or reads an image file, to an upright ``[H, W, C]`` uint8 array.

    The EXIF orientation is applied (``PIL.ImageOps.exif_transpose``, as the ``jax-resize``
    command does) and the first frame converted to Pillow ``mode``. An element that cannot be
    decoded never stops the pipeline: with ``on_error="drop"`` (default) it becomes ``None``, which
    grain's datasets skip, and is logged and counted by reason (:func:`decode_errors`); with
    ``on_error="raise"`` a ``ValueError`` names it.

    Args:
      mode: the Pillow mode of the result (``"RGB"``: ``[H, W, 3]``; ``"L"``: ``[H, W]``;
        ``"RGBA"``...).
      on_error: ``"drop"`` or ``"raise"``.
      key: the entry of a dict element holding the bytes or path; ``None``: the element itself.

    Raises:
      ValueError: when built, an unknown ``on_error`` or ``mode``; when mapping with
        ``on_error="raise"``, an element that is not an image Pillow can read.

    Source: Pillow ``Image.open``, ``ImageOps.exif_transpose``, ``Image.convert``.

    Example:
      >>> DecodeImage().map(b"not an image") is None  # dropped: logged and counted
      True
      >>> decode_errors()["UnidentifiedImageError"] >= 1  # this process's count by reason
      True
    """

    _: dataclasses.KW_ONLY
    mode: str = "RGB"
    on_error: str = "drop"
    key: str | None = None

    def __post_init__(self):
        from PIL import Image

        _v.choice("on_error", self.on_error, ("drop", "raise"))
        _v.choice("mode", self.mode, tuple(Image.MODES))
        _key(self.key)

    def map(self, element):
        from PIL import Image, ImageOps

        source = element if self.key is None else element[self.key]
        try:
            opened = io.BytesIO(source) if isinstance(source, (bytes, bytearray, memoryview)) else source
            with Image.open(opened) as img:
                image = np.asarray(ImageOps.exif_transpose(img).convert(self.mode))
        except (OSError, SyntaxError, ValueError, TypeError, Image.DecompressionBombError) as error:
            reason = f"{type(error).__name__}: {error}"
            if self.on_error == "raise":
                raise ValueError(
                    f"DecodeImage: {_describe(source)} is not an image Pillow can read ({reason})."
                ) from error
            _DECODE_ERRORS[type(error).__name__] += 1
            _log.warning("DecodeImage dropped %s: %s", _describe(source), reason)
            return None
        return _replace(element, self.key, image)
