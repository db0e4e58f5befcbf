"""``jax-resize demo``: a labelled sheet of the resize modes on a bundled photograph.

Contract: :func:`write_sheet` loads ``jax_resize/data/astronaut.png`` (Eileen Collins, NASA,
public domain), draws :func:`sheet` into a PNG and returns its path. The sheet: a title line
with the input and output sizes, then three rows of four labelled panels, each row under a
heading —

* an upscaled face crop with ``onnx_resize`` (nearest, linear with align_corners, linear, cubic);
* the whole photo downscaled with ``onnx_resize`` (linear and cubic, antialias off and on);
* the library's point: Pillow's bicubic downscale of the uint8 photo computed by
  ``jax_resize.resize(..., "pil_bicubic")`` and by ``PIL.Image.resize(..., BICUBIC)``, their
  absolute difference (amplified, labelled with its maximum, measured when the sheet is made), and
  ``jax.image.resize``'s difference to Pillow on the same task (labelled likewise).

Text uses DejaVu Sans where it is installed, else Pillow's scalable default font (Pillow >= 10.1
with FreeType) or its bitmap font, which lack ``×``, ``→``, ``—`` and ``−``: those are then
written in ASCII.
"""

from __future__ import annotations

import importlib.resources
import pathlib
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from . import resize as _resize
from .peers import onnx as _onnx

PHOTO = "astronaut.png"  # 512 x 512 RGB, in jax_resize/data
PANEL = 224  # displayed panel size in pixels
CROP = (slice(76, 132), slice(196, 252))  # 56 x 56 face crop, shown x4
SMALL = 112  # downscaled size; shown enlarged x2 by pixel repetition so aliasing stays visible
AMPLIFY = 64  # differences are shown multiplied by this (clipped to 255)
GAP, MARGIN = 16, 16  # pixels between panels and around the sheet
#: the preferred fonts (regular, bold), looked up by Pillow in the system's font folders
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
# what the fonts without these characters get instead
_ASCII = str.maketrans({"×": "x", "→": "->", "—": "-", "−": "-"})


class Row(NamedTuple):
    """One row of the sheet: a heading, then ``(label, [PANEL, PANEL, 3] uint8)`` panels; a label
    may hold several lines."""

    heading: str
    panels: list[tuple[str, np.ndarray]]


class Sheet(NamedTuple):
    """The sheet's text and pixels: its title line and its rows, in order."""

    title: str
    rows: list[Row]


class Parity(NamedTuple):
    """Pillow's bicubic downscale of the photo to ``[SMALL, SMALL, 3]`` uint8 three ways."""

    jax_resize: np.ndarray  # jax_resize.resize(photo, ..., "pil_bicubic")
    pillow: np.ndarray  # PIL.Image.resize(..., BICUBIC), the peer
    jax_image: np.ndarray  # jax.image.resize(..., "cubic") in float32, rounded and clipped to uint8


def load_photo() -> np.ndarray:
    """The bundled photo as ``[512, 512, 3]`` uint8."""
    from PIL import Image

    with importlib.resources.as_file(importlib.resources.files("jax_resize") / "data" / PHOTO) as path:
        with Image.open(path) as img:
            return np.asarray(img.convert("RGB"))


def _onnx_resize(image: np.ndarray, size: int, **attrs) -> np.ndarray:
    fn = jax.jit(lambda x: _onnx.onnx_resize(x, sizes=[size, size], axes=[0, 1], **attrs))
    return np.asarray(fn(image))


def _enlarge(image: np.ndarray) -> np.ndarray:
    """``image`` repeated to fill a panel (a whole factor: every pixel stays visible as is)."""
    factor = PANEL // image.shape[0]
    assert factor * image.shape[0] == PANEL, image.shape
    return np.repeat(np.repeat(image, factor, axis=0), factor, axis=1)


def _difference(a: np.ndarray, b: np.ndarray) -> tuple[int, np.ndarray]:
    """``(max |a - b|, the amplified difference as an enlarged uint8 panel)``."""
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
    return int(diff.max()), _enlarge(np.minimum(diff * AMPLIFY, 255).astype(np.uint8))


def parity(photo: np.ndarray) -> Parity:
    """The parity row's three results for an ``[H, W, 3]`` uint8 ``photo``."""
    from PIL import Image

    shape = (SMALL, SMALL, 3)
    ours = jax.jit(lambda x: _resize.resize(x, shape, "pil_bicubic"))(photo)
    pillow = Image.fromarray(photo).resize((SMALL, SMALL), Image.Resampling.BICUBIC)
    floats = jax.jit(lambda x: jax.image.resize(x.astype(jnp.float32), shape, "cubic"))(photo)
    rounded = jnp.clip(jnp.round(floats), 0, 255).astype(jnp.uint8)
    return Parity(np.asarray(ours), np.asarray(pillow), np.asarray(rounded))


def sheet(photo: np.ndarray) -> Sheet:
    """The title and the three rows of :func:`write_sheet` for the ``[H, W, 3]`` uint8 ``photo``."""
    height, width = photo.shape[:2]
    crop = photo[CROP]
    crop_h, crop_w = crop.shape[:2]
    title = f"jax_resize demo — {PHOTO} {width}×{height} → {SMALL}×{SMALL}; crop {crop_w}×{crop_h} → {PANEL}×{PANEL}"
    upscale = Row(
        f"Upscale ×{PANEL // crop_h}: {crop_w}×{crop_h} face crop → {PANEL}×{PANEL} with jax_resize.onnx_resize",
        [
            ("nearest", _onnx_resize(crop, PANEL, mode="nearest")),
            (
                "linear, align corners",
                _onnx_resize(crop, PANEL, mode="linear", coordinate_transformation_mode="align_corners"),
            ),
            ("linear, half pixel", _onnx_resize(crop, PANEL, mode="linear")),
            ("cubic, a = −0.75", _onnx_resize(crop, PANEL, mode="cubic")),
        ],
    )
    small = lambda **attrs: _enlarge(_onnx_resize(photo, SMALL, **attrs))
    downscale = Row(
        f"Downscale: {width}×{height} → {SMALL}×{SMALL} with jax_resize.onnx_resize (shown ×2)",
        [
            ("linear, no antialias", small(mode="linear")),
            ("linear, antialias", small(mode="linear", antialias=1)),
            ("cubic, no antialias", small(mode="cubic")),
            ("cubic, antialias", small(mode="cubic", antialias=1)),
        ],
    )
    result = parity(photo)
    ours_max, ours_diff = _difference(result.jax_resize, result.pillow)
    jax_max, jax_diff = _difference(result.jax_image, result.pillow)
    same = Row(
        f"Same pixels as Pillow: bicubic {width}×{height} → {SMALL}×{SMALL} on uint8 "
        f"(shown ×2; differences ×{AMPLIFY}, black = equal)",
        [
            ('jax_resize.resize\n"pil_bicubic"', _enlarge(result.jax_resize)),
            ("Pillow Image.resize\nBICUBIC", _enlarge(result.pillow)),
            (f"|jax_resize − Pillow|\nmax difference {ours_max}", ours_diff),
            (f"|jax.image.resize − Pillow|\nmax difference {jax_max}", jax_diff),
        ],
    )
    return Sheet(title, [upscale, downscale, same])


def font(size: int, bold: bool = False):
    """``(font, unicode)``: DejaVu Sans at ``size`` pixels where installed (``unicode`` True: it has
    ``×`` and ``→``), else Pillow's default font — scalable with Pillow >= 10.1 and FreeType, else
    its fixed-size bitmap font — with ``unicode`` False."""
    from PIL import ImageFont

    try:
        return ImageFont.truetype(FONT_FILES[bold], size), True
    except (OSError, ImportError):  # not installed, or Pillow without FreeType
        pass
    try:
        return ImageFont.load_default(size=size), False
    except TypeError:  # Pillow < 10.1: no size argument
        return ImageFont.load_default(), False


def drawable(text: str, unicode: bool) -> str:
    """``text`` as a font of :func:`font` draws it: as is, or with ``×``, ``→``, ``—`` and ``−``
    written in ASCII where ``unicode`` is False."""
    return text if unicode else text.translate(_ASCII)


def write_sheet(output: str | pathlib.Path = "jax_resize_demo.png") -> pathlib.Path:
    """Writes the sheet of :func:`sheet` as a PNG at ``output`` (its folders created) and returns
    its path."""
    from PIL import Image, ImageDraw

    contents = sheet(load_photo())
    fonts = {"title": font(20, bold=True), "heading": font(16, bold=True), "label": font(14)}

    def shown(text: str, kind: str):
        face, unicode = fonts[kind]
        return face, drawable(text, unicode)

    def text_height(text: str, kind: str) -> int:
        face, _ = fonts[kind]
        return len(text.splitlines()) * (int(face.getbbox("Ag|")[3]) + 4)

    def text_width(text: str, kind: str) -> int:
        face, text = shown(text, kind)
        return max(int(face.getlength(line)) for line in text.splitlines())

    def draw_text(draw, xy, text: str, kind: str) -> None:
        face, text = shown(text, kind)
        draw.multiline_text(xy, text, fill="black", font=face, spacing=4)

    cols = max(len(row.panels) for row in contents.rows)
    headings = [(contents.title, "title")] + [(row.heading, "heading") for row in contents.rows]
    width = 2 * MARGIN + max([cols * PANEL + (cols - 1) * GAP] + [text_width(t, kind) for t, kind in headings])
    label_heights = [max(text_height(label, "label") for label, _ in row.panels) for row in contents.rows]
    height = MARGIN + text_height(contents.title, "title") + MARGIN
    for row, label_h in zip(contents.rows, label_heights):
        height += text_height(row.heading, "heading") + 6 + label_h + PANEL + GAP
    canvas = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(canvas)
    draw_text(draw, (MARGIN, MARGIN), contents.title, "title")
    y = MARGIN + text_height(contents.title, "title") + MARGIN
    for row, label_h in zip(contents.rows, label_heights):
        draw_text(draw, (MARGIN, y), row.heading, "heading")
        y += text_height(row.heading, "heading") + 6
        for i, (label, array) in enumerate(row.panels):
            x = MARGIN + i * (PANEL + GAP)
            draw_text(draw, (x, y), label, "label")
            canvas.paste(Image.fromarray(array), (x, y + label_h))
        y += label_h + PANEL + GAP
    output = pathlib.Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    canvas.save(output)
    return output
