"""``jax-resize demo``: a labelled contact sheet of the resize modes on a bundled photograph.

Contract: :func:`write_sheet` loads ``jax_resize/data/astronaut.png`` (Eileen Collins, NASA,
public domain), resizes it with ``onnx_resize`` under ``jax.jit`` — an upscaled face crop with
nearest / linear / cubic, and the whole photo downscaled with linear and cubic, antialias on and
off — and writes one PNG with a text label above each panel. Returns the output path.
"""

from __future__ import annotations

import importlib.resources
import pathlib

import jax
import numpy as np

from .peers import onnx as _onnx

PANEL = 192  # displayed panel size in pixels
CROP = (slice(80, 128), slice(200, 248))  # 48 x 48 face crop of the 512 x 512 photo
SMALL = 96  # downscaled size; shown enlarged x2 with nearest so aliasing stays visible


def load_photo() -> np.ndarray:
    """The bundled photo as ``[512, 512, 3]`` uint8."""
    from PIL import Image

    with importlib.resources.as_file(importlib.resources.files("jax_resize") / "data" / "astronaut.png") as path:
        with Image.open(path) as img:
            return np.asarray(img.convert("RGB"))


def _resize(image: np.ndarray, size: int, **attrs) -> np.ndarray:
    fn = jax.jit(lambda x: _onnx.onnx_resize(x, sizes=[size, size], axes=[0, 1], **attrs))
    return np.asarray(fn(image))


def panels(photo: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """(label, ``[PANEL, PANEL, 3]`` uint8) pairs, in sheet order (two rows of four)."""
    crop = photo[CROP]
    show = lambda small: _resize(small, PANEL, mode="nearest")  # noqa: E731 (pixel-exact enlargement)
    return [
        ("x4 nearest", _resize(crop, PANEL, mode="nearest")),
        (
            "x4 linear align_corners",
            _resize(crop, PANEL, mode="linear", coordinate_transformation_mode="align_corners"),
        ),
        ("x4 linear", _resize(crop, PANEL, mode="linear")),
        ("x4 cubic a=-0.75", _resize(crop, PANEL, mode="cubic")),
        ("1/5.3 linear", show(_resize(photo, SMALL, mode="linear"))),
        ("1/5.3 linear antialias", show(_resize(photo, SMALL, mode="linear", antialias=1))),
        ("1/5.3 cubic", show(_resize(photo, SMALL, mode="cubic"))),
        ("1/5.3 cubic antialias", show(_resize(photo, SMALL, mode="cubic", antialias=1))),
    ]


def write_sheet(output: str | pathlib.Path = "jax_resize_demo.png") -> pathlib.Path:
    """Writes the contact sheet PNG (two rows of four labelled panels) and returns its path."""
    from PIL import Image, ImageDraw

    items = panels(load_photo())
    label_h, gap, cols = 18, 8, 4
    rows = (len(items) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (PANEL + gap) + gap, rows * (PANEL + label_h + gap) + gap), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (label, array) in enumerate(items):
        x = gap + (i % cols) * (PANEL + gap)
        y = gap + (i // cols) * (PANEL + label_h + gap)
        draw.text((x, y + 2), label, fill="black")
        sheet.paste(Image.fromarray(array), (x, y + label_h))
    output = pathlib.Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(output)
    return output
