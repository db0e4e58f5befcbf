"""The ``jax-resize`` command: resize image files (or a directory of them) with jax_resize.

Contract: ``main(argv)`` parses the arguments, reads images with Pillow as ``[H, W]`` or
``[H, W, C]`` arrays, resizes the H and W axes under ``jax.jit`` and writes them with Pillow,
keeping the dtype (uint8 stays uint8). ONNX modes (``nearest``, ``linear``, ``cubic``) go through
``onnx_resize`` with every ONNX option; the other methods of ``jax_resize.resize`` (lanczos,
area, ...) through ``resize``; the ``pil_*`` methods resample RGBA and LA files with premultiplied
alpha, as ``PIL.Image.resize`` does (``alpha="premultiplied"``). A directory input batches images
of equal shape and mode into one jitted call. ``jax-resize demo`` writes a contact sheet of the
modes on a bundled photograph. Returns 0 on success; argument errors exit through argparse with status 2.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import pathlib
import sys
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from . import rounding as _rounding
from .peers import jax_image as _jax_image
from .peers import onnx as _onnx
from .peers import pillow as _pillow

#: Modes that map to ONNX Resize; every other ``jax_resize.resize`` method is offered too.
ONNX_MODES = _onnx.MODES
#: OpenVINO Interpolate-11 modes whose names do not clash with ONNX's (``--cubic-coeff-a`` is
#: passed as ``cube_coeff``).
OPENVINO_MODES = ("linear_onnx", "bilinear_pillow", "bicubic_pillow")
MODES = ONNX_MODES + OPENVINO_MODES + tuple(m for m in _jax_image.METHODS + _pillow.METHODS if m not in ONNX_MODES)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
BATCH = 16  # images per jitted call in directory mode


def _pair(text: str, kind, name: str) -> tuple:
    parts = text.lower().split("x")
    try:
        values = tuple(kind(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) == 1:
        values = values * 2
    if len(values) != 2 or any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError(
            f"{name} must be N or HxW with positive {'integers' if kind is int else 'numbers'}; got {text!r}"
        )
    return values


def _size(text: str):
    return _pair(text, int, "--size")


def _scale(text: str):
    return _pair(text, float, "--scale")


def _roi(text: str):
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 4:
        raise argparse.ArgumentTypeError(f"--roi must be y1,x1,y2,x2 (normalised floats); got {text!r}")
    y1, x1, y2, x2 = values
    return (y1, x1, y2, x2)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jax-resize",
        usage="%(prog)s INPUT OUTPUT (--size HxW | --scale S) [options]\n       %(prog)s demo [--output SHEET.png]",
        description="Resize images with jax_resize (ONNX Resize semantics, jitted JAX). "
        "'jax-resize demo' writes a sheet comparing the modes on a bundled photo.",
        epilog="Example: jax-resize photo.png small.png --size 224x224 --mode cubic --antialias",
    )
    parser.add_argument("input", type=pathlib.Path, help="an image file or a directory of images")
    parser.add_argument("output", type=pathlib.Path, help="the output file (or directory for a directory input)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--size", type=_size, metavar="HxW", help="output size in pixels, e.g. 224x224 (or 224)")
    target.add_argument("--scale", type=_scale, metavar="S|SYxSX", help="scale factor(s), e.g. 0.5 or 2x1.5")
    parser.add_argument(
        "--mode",
        default="linear",
        choices=MODES,
        help="interpolation mode (ONNX modes and jax_resize.resize methods); default linear",
    )
    parser.add_argument(
        "--coordinate-transformation-mode",
        default="half_pixel",
        choices=_onnx._COORDINATE_MODES[19],
        help="ONNX coordinate_transformation_mode",
    )
    parser.add_argument(
        "--nearest-mode",
        default="round_prefer_floor",
        choices=_onnx.NEAREST_MODES,
        help="ONNX nearest_mode (mode nearest)",
    )
    parser.add_argument("--cubic-coeff-a", type=float, default=-0.75, help="ONNX cubic_coeff_a (mode cubic)")
    parser.add_argument("--exclude-outside", action="store_true", help="ONNX exclude_outside=1")
    parser.add_argument("--antialias", action="store_true", help="ONNX antialias=1 (linear/cubic downscaling)")
    parser.add_argument(
        "--keep-aspect-ratio-policy",
        default="stretch",
        choices=_onnx.KEEP_ASPECT_RATIO_POLICIES,
        help="ONNX keep_aspect_ratio_policy (with --size)",
    )
    parser.add_argument(
        "--extrapolation-value", type=float, default=0.0, help="ONNX extrapolation_value (tf_crop_and_resize)"
    )
    parser.add_argument("--roi", type=_roi, metavar="y1,x1,y2,x2", help="ONNX roi for tf_crop_and_resize")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _demo_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jax-resize demo", description="Write a PNG sheet comparing the modes.")
    parser.add_argument("--output", type=pathlib.Path, default=pathlib.Path("jax_resize_demo.png"))
    return parser


@functools.cache
def resize_fn(mode: str, target: tuple, by_scale: bool, options: tuple, batched: bool, alpha: str | None = None):
    """A jitted function resizing the H, W axes (``[H, W, ...]`` or ``[N, H, W, ...]``); ``alpha``
    is ``resize``'s (``"premultiplied"`` for RGBA/LA images with a ``pil_*`` mode)."""
    opts = dict(options)
    axes = (1, 2) if batched else (0, 1)
    if mode in ONNX_MODES:
        kw: dict[str, Any] = dict(scales=list(target)) if by_scale else dict(sizes=list(target))
        roi = opts.pop("roi", None)
        if mode != "nearest":
            opts.pop("nearest_mode")
        if mode != "cubic":
            opts.pop("cubic_coeff_a")
        return jax.jit(lambda x: _onnx.onnx_resize(x, roi, mode=mode, axes=axes, **kw, **opts))
    if mode in OPENVINO_MODES:
        from .peers import openvino as _openvino

        return jax.jit(
            lambda x: _openvino.openvino_interpolate(
                x,
                list(target),
                list(axes),
                mode=mode,
                shape_calculation_mode="scales" if by_scale else "sizes",
                coordinate_transformation_mode=opts["coordinate_transformation_mode"],
                antialias=bool(opts["antialias"]),
                cube_coeff=opts["cubic_coeff_a"],
            )
        )

    def run(x):
        shape = list(x.shape)
        for a, t in zip(axes, target):
            shape[a] = int(np.floor(shape[a] * t)) if by_scale else t
        y = _jax_image.resize(x, tuple(shape), mode, antialias=bool(opts["antialias"]), alpha=alpha)
        # resize promotes integers to float: round half to even and saturate back
        return _rounding.to_output(y, x.dtype) if x.dtype == np.uint8 != y.dtype else y  # pil_* keep uint8

    return jax.jit(run)


def _options(args) -> tuple:
    opts = dict(
        coordinate_transformation_mode=args.coordinate_transformation_mode,
        nearest_mode=args.nearest_mode,
        cubic_coeff_a=args.cubic_coeff_a,
        exclude_outside=int(args.exclude_outside),
        antialias=int(args.antialias),
        keep_aspect_ratio_policy=args.keep_aspect_ratio_policy,
        extrapolation_value=args.extrapolation_value,
    )
    if args.roi is not None:
        opts["roi"] = args.roi
    return tuple(sorted(opts.items()))


def read_image(path: pathlib.Path):
    """(array [H, W] or [H, W, C] uint8, Pillow mode) — palette/other modes become RGB(A)."""
    from PIL import Image

    with Image.open(path) as img:
        if img.mode not in ("L", "LA", "RGB", "RGBA"):
            img = img.convert("RGBA" if "A" in img.getbands() else "RGB")
        return np.asarray(img), img.mode


def write_image(path: pathlib.Path, array: np.ndarray, mode: str) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.asarray(array), mode=mode).save(path)


def _resize_arrays(args, arrays: Sequence[np.ndarray], image_mode: str = "RGB") -> list[np.ndarray]:
    target = args.scale if args.scale is not None else args.size
    options = _options(args)
    if args.scale is not None and args.keep_aspect_ratio_policy != "stretch":
        raise ValueError("--keep-aspect-ratio-policy needs --size, not --scale")
    # Pillow resamples LA/RGBA images with premultiplied alpha; the pil_* modes do the same
    alpha = "premultiplied" if args.mode in _pillow.METHODS and image_mode in _pillow.ALPHA_MODES else None
    if len(arrays) == 1:
        fn = resize_fn(args.mode, target, args.scale is not None, options, False, alpha)
        return [np.asarray(fn(arrays[0]))]
    fn = resize_fn(args.mode, target, args.scale is not None, options, True, alpha)
    return list(np.asarray(fn(np.stack(arrays))))


def _run_files(args) -> int:
    from tqdm import tqdm

    if args.input.is_dir():
        files = sorted(p for p in args.input.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise ValueError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {args.input}")
        groups: dict = {}
        for path in files:
            array, mode = read_image(path)
            groups.setdefault((array.shape, mode), []).append((path, array))
        with tqdm(total=len(files), unit="img", disable=args.quiet) as bar:
            for (_, mode), items in groups.items():
                for start in range(0, len(items), BATCH):
                    chunk = items[start : start + BATCH]
                    for (path, _), out in zip(chunk, _resize_arrays(args, [a for _, a in chunk], mode)):
                        write_image(args.output / path.name, out, mode)
                    bar.update(len(chunk))
        return 0
    if not args.input.exists():
        raise ValueError(f"{args.input} does not exist")
    array, mode = read_image(args.input)
    output = args.output / args.input.name if args.output.is_dir() else args.output
    write_image(output, _resize_arrays(args, [array], mode)[0], mode)
    if not args.quiet:
        print(f"{args.input} {array.shape} -> {output}")
    return 0


def _require_cli_extra() -> None:
    """The command reads and writes image files with Pillow and shows progress with tqdm."""
    missing = [
        name for module, name in (("PIL", "pillow"), ("tqdm", "tqdm")) if importlib.util.find_spec(module) is None
    ]
    if missing:
        raise SystemExit(
            f"jax-resize needs {' and '.join(missing)}: install the command's extra with "
            '`pip install "jax_resize[cli]"`.'
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``jax-resize`` and ``python -m jax_resize``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _require_cli_extra()
    if argv and argv[0] == "demo":
        from . import demo

        args = _demo_parser().parse_args(argv[1:])
        print(demo.write_sheet(args.output))
        return 0
    args = build_parser().parse_args(argv)
    try:
        return _run_files(args)
    except (ValueError, TypeError) as e:  # invalid option combinations, reported by the library
        build_parser().error(str(e))
    return 2
