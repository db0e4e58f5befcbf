"""Image files for the ``jax-resize`` command: read them as arrays, write them back without loss.

Contract: :func:`read_picture` opens a file with Pillow and returns a :class:`Picture`: every
frame (animated GIF / APNG / WebP, multi-page TIFF) as a ``[H, W]`` or ``[H, W, C]`` array, the
EXIF orientation already applied (``ImageOps.exif_transpose``), the bit depth kept (16-bit
greyscale as uint16 ``I;16``; 16-bit colour PNG/TIFF, which Pillow would reduce to 8 bits, read
by OpenCV as uint16 ``RGB;16`` / ``RGBA;16``), and the metadata to write back (ICC profile, EXIF
with orientation 1, dpi, XMP, comments, PNG text, TIFF compression and descriptive tags, frame
durations and loop count). :func:`write_picture` saves resized frames in the format the output
suffix names, with that metadata, refusing what the format cannot hold (alpha in JPEG without a
``background``; 16-bit data in an 8-bit-only format is converted with ``round(v / 257)`` and
reported). Unreadable or unwritable files raise :class:`PictureError` with a one-line reason.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import pathlib
from typing import Any

import numpy as np

#: Pillow modes whose arrays are kept as they are (uint8 bands, or one 16/32-bit band).
KEPT_MODES = ("L", "LA", "RGB", "RGBA", "CMYK", "YCbCr", "LAB", "HSV", "I;16", "I", "F")
#: Modes (ours and Pillow's) whose last channel is alpha.
ALPHA_MODES = ("LA", "RGBA", "RGBA;16")
#: 16-bit colour, read and written by OpenCV (Pillow has no such mode).
WIDE_MODES = ("RGB;16", "RGBA;16")
#: Formats that OpenCV writes 16-bit colour to.
WIDE_FORMATS = ("PNG", "TIFF")
#: TIFF tags copied to the output: description, make, model, software, date, artist, copyright, XMP.
TIFF_TAGS = (270, 271, 272, 305, 306, 315, 33432, 700)
ORIENTATION = 0x0112
#: Formats whose encoder takes a ``quality`` (1-100).
QUALITY_FORMATS = ("JPEG", "WEBP", "AVIF")
#: EXIF orientation -> numpy operations on ``[H, W, ...]`` (as ``ImageOps.exif_transpose``).
_ORIENT = {
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: np.swapaxes(a, 0, 1),
    6: lambda a: np.swapaxes(a, 0, 1)[:, ::-1],
    7: lambda a: np.swapaxes(a, 0, 1)[::-1, ::-1],
    8: lambda a: np.swapaxes(a, 0, 1)[::-1],
}


class PictureError(ValueError):
    """A file that cannot be read or written; ``str(error)`` is the one-line reason."""


@dataclasses.dataclass
class Picture:
    """One image file as arrays.

    Attributes:
      frames: ``[H, W]`` or ``[H, W, C]`` arrays, one per frame, all of one dtype (uint8; uint16
        for ``I;16`` / ``RGB;16`` / ``RGBA;16``; int32 for ``I``; float32 for ``F``).
      mode: the Pillow mode of the arrays, or ``RGB;16`` / ``RGBA;16`` (16-bit colour).
      format: Pillow's name of the input format (``"JPEG"``, ``"PNG"``...).
      info: metadata to write back (Pillow ``save`` keywords: ``icc_profile``, ``exif``, ``dpi``,
        ``xmp``, ``comment``, ``loop``, ``compression``, ``subsampling``, ``pnginfo`` ...).
      durations: per-frame durations in ms (animations), else None.
    """

    frames: list[np.ndarray]
    mode: str
    format: str
    info: dict[str, Any]
    durations: list[int] | None = None

    @property
    def has_alpha(self) -> bool:
        return self.mode in ALPHA_MODES

    @property
    def maxval(self) -> float:
        """The value of opaque alpha / full intensity (255, or 65535 for 16-bit data)."""
        return 65535.0 if self.frames[0].dtype == np.uint16 else 255.0


def _bits(img) -> int:
    """Bits per sample of the stored data (16 for 16-bit PNG/TIFF colour that Pillow reads as 8)."""
    if img.format == "TIFF":
        bits = img.tag_v2.get(258, (8,))
        return max(bits) if isinstance(bits, tuple) else int(bits)
    if img.format == "PNG" and img.tile:
        raw = img.tile[0][3]  # the raw mode, e.g. "RGB;16B"
        return 16 if ";16" in (raw if isinstance(raw, str) else str(raw[0])) else 8
    return 8


def _normal_mode(frame):
    """The frame converted to one of KEPT_MODES (palette/1-bit/premultiplied modes -> L/RGB(A))."""
    mode = frame.mode
    if "transparency" in frame.info and mode in ("L", "RGB", "P"):
        return frame.convert("LA" if mode == "L" else "RGBA")
    if mode in KEPT_MODES:
        return frame
    if mode in ("I;16B", "I;16L", "I;16N"):
        return frame.convert("I;16") if frame.mode != "I;16" else frame
    if mode == "1":
        return frame.convert("L")
    if mode == "La":
        return frame.convert("LA")
    return frame.convert("RGBA" if "A" in frame.getbands() or "a" in frame.getbands() else "RGB")


def _array(frame) -> np.ndarray:
    if frame.mode == "I;16":  # numpy's view of I;16 is little-endian uint16 on every platform
        return np.asarray(frame).astype(np.uint16)
    return np.asarray(frame)


def _metadata(img) -> dict[str, Any]:
    info: dict[str, Any] = {}
    for key in ("icc_profile", "dpi", "comment", "xmp", "loop", "compression"):
        if img.info.get(key) is not None:
            info[key] = img.info[key]
    if img.format == "TIFF":
        tags = {tag: img.tag_v2[tag] for tag in TIFF_TAGS if tag in img.tag_v2}
        if tags:
            info["tiffinfo"] = tags
    else:
        exif = img.getexif()
        if len(exif):
            from PIL import Image

            exif = Image.Exif()
            exif.load(img.getexif().tobytes())
            if ORIENTATION in exif:
                exif[ORIENTATION] = 1  # the pixels are turned upright before resizing
            info["exif"] = exif
    if img.format == "PNG" and getattr(img, "text", None):
        from PIL import PngImagePlugin

        text = PngImagePlugin.PngInfo()
        for key, value in img.text.items():
            (text.add_itxt if key == "XML:com.adobe.xmp" else text.add_text)(key, value)
        info["pnginfo"] = text
    if img.format == "JPEG":
        from PIL import JpegImagePlugin

        sampling = JpegImagePlugin.get_sampling(img)
        if sampling >= 0:
            info["subsampling"] = sampling
    return info


def read_picture(path: str | pathlib.Path) -> Picture:
    """Reads an image file as a :class:`Picture` (frames upright, bit depth and metadata kept).

    Raises:
      PictureError: a file Pillow cannot identify or decode (truncated, corrupt, not an image,
        larger than Pillow's decompression-bomb limit).
    """
    from PIL import Image, ImageOps, ImageSequence

    path = pathlib.Path(path)
    try:
        with Image.open(path) as img:
            if img.mode in ("RGB", "RGBA") and _bits(img) == 16:
                return _read_wide(path, img, _metadata(img))
            frames, durations = [], []
            for frame in ImageSequence.Iterator(img):
                frames.append(_normal_mode(ImageOps.exif_transpose(frame)))
                durations.append(frame.info.get("duration"))
            modes = {f.mode for f in frames}
            if len(modes) > 1:  # e.g. a GIF's first frame P, later frames RGB(A)
                common = "RGBA" if any("A" in m for m in modes) else "RGB"
                frames = [f.convert(common) for f in frames]
            mode = frames[0].mode
            arrays = [_array(f) for f in frames]
            img.seek(0)
            info = _metadata(img)  # after exif_transpose: it resets the orientation of the image's EXIF
            timed = len(frames) > 1 and all(d is not None for d in durations)
            return Picture(arrays, mode, img.format or "", info, [int(d or 0) for d in durations] if timed else None)
    except PictureError:
        raise
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        raise PictureError(f"not an image Pillow can read ({error})") from error


def _read_wide(path: pathlib.Path, img, info: dict) -> Picture:
    """16-bit colour PNG/TIFF through OpenCV (Pillow would reduce it to 8 bits)."""
    try:
        import cv2
    except ImportError as error:
        raise PictureError(
            f"16-bit colour {img.format}: Pillow reads it as 8 bits; install opencv-python-headless "
            '(pip install "jax_resize[cli]") to keep 16 bits'
        ) from error
    ok, pages = cv2.imreadmulti(str(path), flags=cv2.IMREAD_UNCHANGED)
    if not ok or not pages:
        raise PictureError(f"OpenCV cannot decode this 16-bit colour {img.format}")
    orient = _ORIENT.get(int(img.getexif().get(ORIENTATION, 1)), lambda a: a)
    frames = [np.ascontiguousarray(orient(p[..., [2, 1, 0, 3][: p.shape[-1]]])) for p in pages]  # BGR(A) -> RGB(A)
    mode = "RGBA;16" if frames[0].shape[-1] == 4 else "RGB;16"
    return Picture(frames, mode, img.format, info)


def output_format(path: str | pathlib.Path) -> str:
    """Pillow's format name for the output suffix (``.jpg`` -> ``"JPEG"``).

    Raises:
      PictureError: a suffix Pillow cannot write.
    """
    from PIL import Image

    suffix = pathlib.Path(path).suffix.lower()
    fmt = Image.registered_extensions().get(suffix)
    if fmt is None or fmt not in Image.SAVE:
        raise PictureError(f"Pillow cannot write {suffix or 'files without a suffix'} files ({path})")
    return fmt


@functools.cache
def can_write(fmt: str, mode: str) -> bool:
    """Whether ``fmt`` stores images of Pillow ``mode`` (checked by saving a 1 x 1 image)."""
    from PIL import Image

    if mode in WIDE_MODES:
        return fmt in WIDE_FORMATS
    try:
        Image.new(mode, (1, 1)).save(io.BytesIO(), fmt)
    except (OSError, KeyError, ValueError, TypeError):
        return False
    return True


def _flatten(frame: np.ndarray, background: tuple[int, ...], maxval: float) -> np.ndarray:
    """Composites a straight-alpha frame over an opaque colour; the alpha channel is dropped."""
    colour, alpha = frame[..., :-1].astype(np.float64), frame[..., -1:].astype(np.float64) / maxval
    bg = np.asarray(background[: colour.shape[-1]], np.float64) * (maxval / 255.0)
    return np.clip(np.rint(colour * alpha + bg * (1 - alpha)), 0, maxval).astype(frame.dtype)


def _narrow(frame: np.ndarray) -> np.ndarray:
    """16-bit values to 8 bits: ``round(v / 257)`` (65535 -> 255)."""
    return np.rint(frame.astype(np.float64) / 257.0).astype(np.uint8)


def plan_output(picture: Picture, fmt: str, background: tuple[int, ...] | None) -> tuple[str, list[str]]:
    """The mode the frames are written in and notes about conversions, before any resizing.

    Raises:
      PictureError: alpha into a format without alpha (and no ``background``), or a mode the
        format cannot store.
    """
    mode, notes = picture.mode, []
    if picture.has_alpha and background is not None:
        mode = {"LA": "L", "RGBA": "RGB", "RGBA;16": "RGB;16"}[mode]
    if picture.has_alpha and not can_write(fmt, mode):
        raise PictureError(
            f"{mode} image: {fmt} has no alpha channel; write .png, .webp or .tif, "
            "or flatten onto a colour with --background (e.g. --background white)"
        )
    if mode in ("I;16", *WIDE_MODES) and not can_write(fmt, mode):
        narrow = {"I;16": "L", "RGB;16": "RGB", "RGBA;16": "RGBA"}[mode]
        if not can_write(fmt, narrow):
            raise PictureError(f"{fmt} cannot store {mode} images")
        notes.append(f"{fmt} holds 8 bits per channel: 16-bit values written as round(v / 257)")
        mode = narrow
    if not can_write(fmt, mode):
        able = [f for f in ("PNG", "TIFF", "JPEG", "WEBP") if can_write(f, mode)]
        raise PictureError(f"{fmt} cannot store {mode} images" + (f"; write {' or '.join(able)}" if able else ""))
    one_frame = fmt not in _save_all_formats() or (mode in WIDE_MODES and fmt != "TIFF")
    if len(picture.frames) > 1 and one_frame:
        notes.append(f"{fmt} holds one frame: only the first of {len(picture.frames)} frames written")
    if mode in WIDE_MODES:
        dropped = [k for k in ("icc_profile", "exif", "xmp", "pnginfo", "tiffinfo") if k in picture.info]
        if dropped:
            notes.append(f"16-bit colour is written by OpenCV, which does not store {', '.join(dropped)}")
    return mode, notes


def _save_all_formats() -> set:
    from PIL import Image

    return set(Image.SAVE_ALL)


def write_picture(
    path: str | pathlib.Path,
    picture: Picture,
    frames: list,
    mode: str,
    *,
    background: tuple[int, ...] | None = None,
    quality: int | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Writes resized ``frames`` of ``picture`` in ``mode`` (from :func:`plan_output`) to ``path``;
    ``frames`` may be jax arrays still being computed (converted here, on the writing thread).

    ``quality`` goes to the formats in ``QUALITY_FORMATS``; ``options`` are Pillow ``save``
    keywords (``lossless``, ``optimize``, ``compression``...) that override the metadata kept
    from the input; formats ignore the keywords they do not use.

    Raises:
      PictureError: Pillow or OpenCV failed to write the file.
    """
    from PIL import Image

    frames = [np.asarray(f) for f in frames]
    path = pathlib.Path(path)
    fmt = output_format(path)
    if mode != picture.mode and picture.has_alpha and mode not in ALPHA_MODES:
        frames = [_flatten(f, background or (255, 255, 255), picture.maxval) for f in frames]
    if picture.maxval > 255 and mode in ("L", "RGB", "RGBA"):
        frames = [_narrow(f) for f in frames]
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode in WIDE_MODES:
        _write_wide(path, fmt, frames, picture.info)
        return
    images = [Image.frombytes(mode, (f.shape[1], f.shape[0]), np.ascontiguousarray(f).tobytes()) for f in frames]
    kw = {k: v for k, v in picture.info.items() if not (fmt == "TIFF" and k == "exif")}
    if fmt != "TIFF":
        kw.pop("tiffinfo", None)
    if fmt != "JPEG":
        kw.pop("subsampling", None)
    if fmt != "TIFF" and kw.get("compression") is not None:
        kw.pop("compression")
    if len(images) > 1 and fmt in _save_all_formats():
        kw.update(save_all=True, append_images=images[1:])
        if picture.durations is not None:
            kw["duration"] = picture.durations
        if fmt == "GIF" and mode in ALPHA_MODES:
            kw.setdefault("disposal", 2)  # each frame is whole: clear before drawing the next
    if quality is not None and fmt in QUALITY_FORMATS:
        kw["quality"] = quality
    kw.update(options or {})
    try:
        images[0].save(path, fmt, **kw)
    except (OSError, ValueError, TypeError, KeyError) as error:
        raise PictureError(f"Pillow cannot write it as {fmt} ({error})") from error


def _write_wide(path: pathlib.Path, fmt: str, frames: list[np.ndarray], info: dict) -> None:
    import cv2

    bgr = [np.ascontiguousarray(f[..., [2, 1, 0, 3][: f.shape[-1]]]) for f in frames]
    params: list[int] = []
    if fmt == "TIFF" and info.get("dpi"):
        x, y = (int(round(float(v))) for v in info["dpi"])
        params = [cv2.IMWRITE_TIFF_RESUNIT, 2, cv2.IMWRITE_TIFF_XDPI, x, cv2.IMWRITE_TIFF_YDPI, y]
    if len(bgr) > 1 and fmt == "TIFF":
        ok = cv2.imwritemulti(str(path), bgr, params)
    else:
        ok, data = cv2.imencode(".png" if fmt == "PNG" else ".tif", bgr[0], params)
        if ok:
            path.write_bytes(data.tobytes())
    if not ok:
        raise PictureError(f"OpenCV cannot write 16-bit colour {fmt}")
