"""The ``jax-resize`` command: resize image files (or a directory of them) with jax_resize.

Contract: ``main(argv)`` reads each image with :mod:`.image_files` (every frame, orientation,
bit depth and metadata kept), resizes its H and W axes under ``jax.jit`` with ``onnx_resize`` (the
ONNX modes), ``openvino_interpolate`` (the OpenVINO Pillow modes) or ``resize`` (every other
method), alpha premultiplied, and writes it in the output suffix's format. An option that does not
apply to the mode is an error. Files decode in background threads, frames resize ``BATCH`` at a
time; a file that fails is reported as ``skipped PATH: reason``. Exit status: 0 all written, 1
some skipped, 2 argument errors. ``jax-resize demo`` writes a contact sheet of the modes.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import functools
import importlib.util
import math
import os
import pathlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import image_files as _files
from . import resize as _resize
from . import rounding as _rounding
from .memory import keep_freed_memory
from .peers import jax_image as _jax_image
from .peers import onnx as _onnx

#: Modes that map to ONNX Resize; every other ``jax_resize.resize`` method is offered too.
ONNX_MODES = _onnx.MODES
#: OpenVINO Interpolate-11 modes whose names do not clash with ONNX's (``--cubic-coeff-a`` is
#: passed as ``cube_coeff``).
OPENVINO_MODES = ("linear_onnx", "bilinear_pillow", "bicubic_pillow")
MODES = ONNX_MODES + OPENVINO_MODES + tuple(m for m in _jax_image.METHODS + _resize.PIL_METHODS if m not in ONNX_MODES)
BATCH = 16  # frames per jitted call (and the most frames held in memory waiting for one)
#: Pillow's decompression-bomb threshold (``PIL.Image.MAX_IMAGE_PIXELS``): the default limit on
#: output pixels per frame.
MAX_OUTPUT_PIXELS = 89_478_485
#: What "cubic" means in this command (printed by ``--help``).
CUBIC = (
    "cubic is Keys (1981) cubic convolution with a = --cubic-coeff-a, default -0.75 "
    "(ONNX Resize, OpenCV, PyTorch); jax.image, jax_resize.resize and Pillow use a = -0.5 "
    "(give --cubic-coeff-a -0.5, or --mode pil_bicubic for Pillow's exact result)"
)
#: The modes each option applies to; giving it with another mode is an error.
APPLIES = {
    "coordinate_transformation_mode": ONNX_MODES + OPENVINO_MODES,
    "nearest_mode": ("nearest",),
    "cubic_coeff_a": ("cubic", "bicubic_pillow", "cubic-pytorch", "pil_bicubic", "pil12_bicubic", "pil11_bicubic"),
    "exclude_outside": ("linear", "cubic"),
    "antialias": ("linear", "cubic", "linear_onnx", "bilinear_pillow", "bicubic_pillow", "lanczos3", "lanczos5")
    + ("cubic-pytorch",),
}


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


_size = functools.partial(_pair, kind=int, name="--size")
_scale = functools.partial(_pair, kind=float, name="--scale")


def _roi(text: str):
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 4:
        raise argparse.ArgumentTypeError(f"--roi must be y1,x1,y2,x2 (normalised floats); got {text!r}")
    return values


def _colour(text: str) -> tuple[int, ...]:
    from PIL import ImageColor

    try:
        return tuple(ImageColor.getrgb(text))[:3]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--background must be a colour name or #RRGGBB (Pillow's ImageColor); got {text!r}"
        ) from None


def _save_option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"--save-option must be KEY=VALUE (a Pillow save keyword); got {text!r}")
    lowered = value.lower()
    if lowered in ("true", "false"):
        return key, lowered == "true"
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def _int_in(text: str, low: int, high: float, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{what}; got {text!r}")
    return value


_quality = functools.partial(_int_in, low=1, high=100, what="--quality must be an integer from 1 to 100")
_positive_int = functools.partial(_int_in, low=1, high=math.inf, what="--max-output-pixels must be a positive integer")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jax-resize",
        usage="%(prog)s INPUT OUTPUT (--size HxW | --scale S) [options]\n       %(prog)s demo [--output SHEET.png]",
        description="Resize images with jax_resize (ONNX Resize semantics, jitted JAX). The EXIF orientation "
        "is applied, metadata (ICC profile, EXIF, dpi, XMP, comments) and bit depth (16-bit PNG/TIFF) are "
        "kept, every frame of an animation is resized, alpha is resampled premultiplied. "
        "'jax-resize demo' writes a sheet comparing the modes on a bundled photo.",
        epilog=f"Modes: {CUBIC}. Antialias is on by default for the modes it applies to (it only acts "
        "when shrinking, as Pillow and torchvision do); --no-antialias turns it off. A directory INPUT "
        "resizes every image file in it (not recursively; hidden files are ignored) into the directory "
        "OUTPUT with the same names. Exit status: 0 all written, 1 some files skipped, 2 argument errors. "
        "Example: jax-resize photo.jpg small.jpg --size 224x224 --mode cubic",
    )
    parser.add_argument("input", type=pathlib.Path, help="an image file or a directory of images")
    parser.add_argument("output", type=pathlib.Path, help="the output file (or directory); its suffix sets the format")
    return add_options(parser)


def add_options(parser: argparse.ArgumentParser, *, overwrite: bool = True) -> argparse.ArgumentParser:
    """Adds the command's options (all but INPUT and OUTPUT; ``--overwrite`` where ``overwrite``) to ``parser``."""
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--size", type=_size, metavar="HxW", help="output size in pixels, e.g. 224x224 (or 224)")
    target.add_argument("--scale", type=_scale, metavar="S|SYxSX", help="scale factor(s), e.g. 0.5 or 2x1.5")
    parser.add_argument("--mode", default="linear", choices=MODES, help=f"interpolation mode (default linear); {CUBIC}")
    parser.add_argument(
        "--coordinate-transformation-mode",
        choices=_onnx._COORDINATE_MODES[19],
        help="ONNX coordinate_transformation_mode (ONNX and OpenVINO modes; default half_pixel)",
    )
    parser.add_argument(
        "--nearest-mode",
        choices=_onnx.NEAREST_MODES,
        help="ONNX nearest_mode (mode nearest; default round_prefer_floor)",
    )
    parser.add_argument(
        "--cubic-coeff-a",
        type=float,
        help="a of the cubic kernel (cubic, cubic-pytorch, bicubic_pillow, pil_bicubic; default -0.75, -0.5 for "
        "pil_bicubic)",
    )
    parser.add_argument(
        "--exclude-outside", action="store_true", default=None, help="ONNX exclude_outside=1 (linear, cubic)"
    )
    parser.add_argument(
        "--antialias",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="filter stretched when shrinking (default on for " + ", ".join(APPLIES["antialias"]) + ")",
    )
    parser.add_argument(
        "--keep-aspect-ratio-policy",
        choices=_onnx.KEEP_ASPECT_RATIO_POLICIES,
        help="ONNX keep_aspect_ratio_policy with --size: not_larger fits inside HxW, not_smaller covers it",
    )
    parser.add_argument(
        "--extrapolation-value", type=float, help="ONNX extrapolation_value (tf_crop_and_resize; default 0)"
    )
    parser.add_argument("--roi", type=_roi, metavar="y1,x1,y2,x2", help="ONNX roi for tf_crop_and_resize")
    files = parser.add_argument_group("files")
    files.add_argument(
        "--quality", type=_quality, default=95, help="JPEG/WebP/AVIF quality, 1-100 (default 95; Pillow's is 75)"
    )
    files.add_argument(
        "--save-option",
        type=_save_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Pillow save option passed through, e.g. optimize=true, lossless=true, compression=tiff_lzw "
        "(repeatable)",
    )
    files.add_argument(
        "--background",
        type=_colour,
        metavar="COLOUR",
        help="flatten alpha onto this colour (needed to write LA/RGBA images as JPEG or BMP)",
    )
    files.add_argument(
        "--max-output-pixels",
        type=_positive_int,
        default=MAX_OUTPUT_PIXELS,
        metavar="N",
        help=f"refuse outputs with more pixels per frame (default {MAX_OUTPUT_PIXELS:,}, Pillow's MAX_IMAGE_PIXELS)",
    )
    if overwrite:
        files.add_argument("--overwrite", action="store_true", help="allow writing over the input file(s)")
    files.add_argument("--quiet", action="store_true", help="no progress bar or per-file lines")
    return parser


def _demo_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jax-resize demo", description="Write a PNG sheet comparing the modes.")
    parser.add_argument(
        "--output",
        type=pathlib.Path,
        default=pathlib.Path("jax_resize_demo.png"),
        help="where to write the sheet (default: jax_resize_demo.png in the current directory)",
    )
    return parser


@dataclasses.dataclass(frozen=True)
class Plan:
    """What to do to every frame: static, hashable (it keys the jitted functions).

    ``target`` is ``(h, w)`` sizes or ``(sy, sx)`` scales (``by_scale``); ``options`` the ONNX
    attributes that apply to ``mode``, as sorted ``(name, value)`` pairs.
    """

    mode: str
    target: tuple
    by_scale: bool
    options: tuple

    def out_size(self, h: int, w: int) -> tuple[int, int]:
        """The output ``(h, w)`` of an ``h x w`` frame: OpenVINO's rule ``int(f32(n) * (f32(s) + 1e-6f))``
        for the OpenVINO modes with ``--scale``, ONNX Resize's rule otherwise."""
        if self.by_scale and self.mode in OPENVINO_MODES:
            from .peers import openvino as _openvino

            try:
                return _openvino.output_length_from_scale(h, self.target[0]), _openvino.output_length_from_scale(
                    w, self.target[1]
                )
            except ValueError:  # the float32 product overflowed
                raise ValueError(
                    f"--scale {self.target[0]!r}x{self.target[1]!r} gives an output length beyond the float32 "
                    f"range for a {h}x{w} frame"
                ) from None
        opts = dict(self.options)
        attrs = dict(
            coordinate_transformation_mode=opts.get("coordinate_transformation_mode", "half_pixel"),
            keep_aspect_ratio_policy=opts.get("keep_aspect_ratio_policy", "stretch"),
        )
        scales, sizes = (list(self.target), None) if self.by_scale else (None, list(self.target))
        specs = _onnx._axis_specs((h, w), [0, 1], opts.get("roi"), scales, sizes, attrs)
        return specs[0][2], specs[1][2]


def make_plan(args) -> Plan:
    """The :class:`Plan` of parsed arguments.

    Raises:
      ValueError: an option that does not apply to ``args.mode`` (or to ``--scale``).
    """
    given = {
        name: getattr(args, name)
        for name in (*APPLIES, "keep_aspect_ratio_policy", "extrapolation_value", "roi")
        if getattr(args, name) is not None
    }
    flag = lambda name: "--" + name.replace("_", "-")  # noqa: E731
    for name, modes in APPLIES.items():
        if name in given and args.mode not in modes:
            raise ValueError(f"{flag(name)} does not apply to --mode {args.mode}; it applies to {', '.join(modes)}")
    crop = given.get("coordinate_transformation_mode") == "tf_crop_and_resize"
    for name in ("roi", "extrapolation_value"):
        if name in given and not crop:
            raise ValueError(f"{flag(name)} applies to --coordinate-transformation-mode tf_crop_and_resize only")
    if crop and "roi" not in given:
        raise ValueError("--coordinate-transformation-mode tf_crop_and_resize needs --roi y1,x1,y2,x2")
    if args.scale is not None and given.get("keep_aspect_ratio_policy", "stretch") != "stretch":
        raise ValueError("--keep-aspect-ratio-policy needs --size, not --scale")
    if args.mode in APPLIES["antialias"]:
        given.setdefault("antialias", True)  # as Pillow and torchvision: antialias when shrinking
    if "exclude_outside" in given:
        given["exclude_outside"] = int(given["exclude_outside"])
    target = args.scale if args.scale is not None else args.size
    return Plan(args.mode, tuple(target), args.scale is not None, tuple(sorted(given.items())))


def _resizer(plan: Plan, axes: tuple[int, int], pil_alpha: bool):
    """``x -> y`` resizing the two ``axes`` of ``x`` as ``plan`` says (traceable)."""
    opts = dict(plan.options)
    if plan.mode in ONNX_MODES:
        kw: dict[str, Any] = dict(scales=list(plan.target)) if plan.by_scale else dict(sizes=list(plan.target))
        roi = opts.pop("roi", None)
        if "antialias" in opts:
            opts["antialias"] = int(opts["antialias"])
        return lambda x: _onnx.onnx_resize(x, roi, mode=plan.mode, axes=axes, **kw, **opts)
    if plan.mode in OPENVINO_MODES:
        from .peers import openvino as _openvino

        # sizes through Plan.out_size, which applies --keep-aspect-ratio-policy
        return lambda x: _openvino.openvino_interpolate(
            x,
            list(plan.target) if plan.by_scale else list(plan.out_size(x.shape[axes[0]], x.shape[axes[1]])),
            list(axes),
            mode=plan.mode,
            shape_calculation_mode="scales" if plan.by_scale else "sizes",
            coordinate_transformation_mode=opts.get("coordinate_transformation_mode", "half_pixel"),
            antialias=bool(opts.get("antialias", False)),
            cube_coeff=opts.get("cubic_coeff_a", -0.75),
        )

    def run(x):
        shape = list(x.shape)
        shape[axes[0]], shape[axes[1]] = plan.out_size(x.shape[axes[0]], x.shape[axes[1]])
        options = dict(cubic_coeff_a=opts.get("cubic_coeff_a"), alpha="premultiplied" if pil_alpha else None)
        function, args, kwargs = _resize.split_call(plan.mode, bool(opts.get("antialias", True)), options)
        return function(x, tuple(shape), *args, **kwargs)

    return run


@functools.cache
def resize_fn(plan: Plan, batched: bool, alpha: bool):
    """Resizes ``[H, W, ...]`` eagerly (new sizes share programs) or ``[N, H, W, ...]`` jitted when
    ``batched``, in their dtype (half to even, saturated); ``alpha``: last channel, premultiplied."""
    axes = (1, 2) if batched else (0, 1)
    pil_alpha = alpha and plan.mode in _resize.PIL_METHODS  # Pillow's own integer premultiplication
    resize = _resizer(plan, axes, pil_alpha)

    def keep_dtype(y, dtype):
        return y if y.dtype == dtype else _rounding.to_output(y, dtype)

    def run(x):
        if not alpha or pil_alpha or plan.mode in ("nearest", "pil_nearest", "pil12_nearest", "pil11_nearest"):
            return keep_dtype(resize(x), x.dtype)
        maxval = float(np.iinfo(x.dtype).max) if np.issubdtype(x.dtype, np.integer) else 1.0
        xf = x.astype(jnp.float32)
        a = xf[..., -1:]
        y = resize(jnp.concatenate([xf[..., :-1] * (a / maxval), a], axis=-1))
        ya = jnp.clip(y[..., -1:], 0.0, maxval)
        colour = jnp.where(ya > 0, y[..., :-1] * maxval / jnp.where(ya > 0, ya, 1.0), 0.0)
        return keep_dtype(jnp.concatenate([colour, ya], axis=-1), x.dtype)

    return jax.jit(run) if batched else run


def resize_frames(plan: Plan, frames: Sequence[np.ndarray], alpha: bool) -> list:
    """Resizes frames of one shape and dtype, ``BATCH`` per jitted call; a single frame's result
    is the jax array of an asynchronous call (the writer thread waits for it)."""
    if len(frames) == 1:
        return [resize_fn(plan, False, alpha)(frames[0])]
    out: list[np.ndarray] = []
    for start in range(0, len(frames), BATCH):
        out.extend(np.asarray(resize_fn(plan, True, alpha)(np.stack(frames[start : start + BATCH]))))
    return out


def resize_pictures(plan: Plan, pictures: Sequence[Any]) -> list:
    """Per picture, its resized frames (equal shapes, dtypes and alpha batched by :func:`resize_frames`)
    or the one-line reason it cannot be resized (a ``str``)."""
    groups: dict = {}
    for n, picture in enumerate(pictures):
        for i, frame in enumerate(picture.frames):
            groups.setdefault((frame.shape, frame.dtype.str, picture.has_alpha), []).append((n, i))
    frames: list = [[None] * len(picture.frames) for picture in pictures]
    errors: dict[int, str] = {}
    for (_, _, alpha), members in groups.items():
        try:
            outs = resize_frames(plan, [pictures[n].frames[i] for n, i in members], alpha)
        except (ValueError, TypeError) as error:  # e.g. a pil_* mode on data Pillow has no mode for
            errors.update((n, errors.get(n, str(error).splitlines()[0])) for n, _ in members)
            continue
        for (n, i), out in zip(members, outs):
            frames[n][i] = out
    return [errors.get(n, f) for n, f in enumerate(frames)]


def check_sizes(plan: Plan, picture, max_output_pixels: int) -> None:
    """Raises :class:`~.image_files.PictureError` where a frame's output is empty or above ``max_output_pixels``."""
    for h, w in (plan.out_size(*frame.shape[:2]) for frame in picture.frames):
        if h * w > max_output_pixels or h * w == 0:
            many = f" = {h * w:,} pixels, above the limit of {max_output_pixels:,} (raise it with --max-output-pixels)"
            raise _files.PictureError(f"the output would be {h}x{w}" + (many if h * w else ": empty"))


@dataclasses.dataclass
class _Job:
    source: pathlib.Path
    target: pathlib.Path
    picture: Any = None  # image_files.Picture once read
    mode: str = ""  # the mode it is written in
    notes: list = dataclasses.field(default_factory=list)


def _same_file(a: pathlib.Path, b: pathlib.Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _jobs(args) -> list[_Job]:
    """(input, output) pairs; refuses to write over an input unless --overwrite.

    Raises:
      ValueError: a missing input, an empty directory, an output that is an input.
    """
    if args.input.is_dir():
        if args.output.exists() and not args.output.is_dir():
            raise ValueError(
                f"the input {args.input} is a directory, so the output must be one; {args.output} is a file"
            )
        if _same_file(args.input, args.output) and not args.overwrite:
            raise ValueError(
                f"the output directory {args.output} is the input directory: the originals would be overwritten "
                "(give another directory, or --overwrite)"
            )
        files = sorted(p for p in args.input.iterdir() if p.is_file() and not p.name.startswith("."))
        if not files:
            raise ValueError(f"no files in {args.input}")
        return [_Job(p, args.output / p.name) for p in files]
    if not args.input.exists():
        raise ValueError(f"{args.input} does not exist")
    output = args.output / args.input.name if args.output.is_dir() else args.output
    if _same_file(args.input, output) and not args.overwrite:
        raise ValueError(
            f"the output {output} is the input file: it would be overwritten (give another path, or --overwrite)"
        )
    _files.output_format(output)  # an unknown suffix is an argument error
    return [_Job(args.input, output)]


def _read_ahead(pool, jobs: Sequence[_Job], depth: int) -> Iterator[tuple[_Job, Any]]:
    """Yields ``(job, future of its Picture)`` in order, decoding up to ``depth`` files ahead."""
    pending = [(job, pool.submit(_files.read_picture, job.source)) for job in jobs[:depth]]
    for job in jobs[depth:]:
        pending.append((job, pool.submit(_files.read_picture, job.source)))
        yield pending.pop(0)
    yield from pending


class _Run:
    """The state of one command: counts, the progress bar, messages."""

    def __init__(self, args, plan: Plan, total: int, pool):
        from tqdm import tqdm

        self.args, self.plan, self.pool, self.pending = args, plan, pool, list[tuple]()  # pending: writes
        self.written, self.skipped = 0, 0
        self.bar = tqdm(total=total, unit="file", disable=args.quiet or total == 1, file=sys.stderr)

    def say(self, text: str, error: bool = False) -> None:
        if error or not self.args.quiet:
            self.bar.write(text, file=sys.stderr if error else sys.stdout)

    def skip(self, job: _Job, reason: str) -> None:
        self.skipped += 1
        self.say(f"skipped {job.source}: {reason}", error=True)
        self.bar.update(1)

    def prepare(self, job: _Job) -> None:
        """Checks a read picture before any resizing (format, mode, output size)."""
        job.mode, job.notes = _files.plan_output(job.picture, _files.output_format(job.target), self.args.background)
        check_sizes(self.plan, job.picture, self.args.max_output_pixels)

    def flush(self, jobs: list[_Job]) -> None:
        """Resizes the frames of ``jobs`` (equal shapes batched) and writes the files."""
        results = resize_pictures(self.plan, [job.picture for job in jobs])
        self.finish()  # the previous batch's files, encoded while this batch was resized
        for job, frames in zip(jobs, results):
            if isinstance(frames, str):
                self.skip(job, frames)
                continue
            opts = dict(background=self.args.background, quality=self.args.quality, options=dict(self.args.save_option))
            write = self.pool.submit(_files.write_picture, job.target, job.picture, frames, job.mode, **opts)
            self.pending.append((job, frames, write))

    def finish(self) -> None:
        """Waits for the files being written and reports each."""
        pending, self.pending = self.pending, []
        for job, frames, write in pending:
            try:
                write.result()
            except _files.PictureError as error:
                self.skip(job, str(error))
                continue
            self.written += 1
            first = job.picture.frames[0]
            frames_text = f" ({len(frames)} frames)" if len(frames) > 1 else ""
            self.say(
                f"{job.source} {first.shape[1]}x{first.shape[0]} -> {job.target} "
                f"{frames[0].shape[1]}x{frames[0].shape[0]}{frames_text}"
            )
            for note in job.notes:
                self.say(f"note {job.target}: {note}", error=True)
            self.bar.update(1)
            job.picture = None  # free the frames


def enable_compilation_cache() -> pathlib.Path | None:
    """Turns on JAX's persistent compilation cache (later runs reuse the XLA programs of earlier
    ones) in ``$JAX_COMPILATION_CACHE_DIR``, else ``$XDG_CACHE_HOME/jax_resize/xla``
    (``~/.cache/jax_resize/xla``); ``JAX_RESIZE_NO_CACHE=1`` turns it off. Returns the directory or None."""
    if os.environ.get("JAX_RESIZE_NO_CACHE") == "1":
        return None
    if os.environ.get("JAX_COMPILATION_CACHE_DIR"):
        path = pathlib.Path(os.environ["JAX_COMPILATION_CACHE_DIR"])
    else:
        base = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
        path = base / "jax_resize" / "xla"
        jax.config.update("jax_compilation_cache_dir", str(path))
    # our programs compile faster than JAX's default threshold (1 s), which would cache none of them
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    return path


def _run_files(args) -> int:
    plan = make_plan(args)
    enable_compilation_cache()
    keep_freed_memory()  # the command's own process: pages reused from file to file
    jobs = _jobs(args)
    batch: list[_Job] = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool, concurrent.futures.ThreadPoolExecutor(1) as writer:
        run = _Run(args, plan, len(jobs), writer)
        for job, future in _read_ahead(pool, jobs, depth=BATCH):
            try:
                job.picture = future.result()
                run.prepare(job)
            except _files.PictureError as error:
                run.skip(job, str(error))
                continue
            batch.append(job)
            if sum(len(j.picture.frames) for j in batch) >= BATCH:
                run.flush(batch)
                batch = []
        if batch:
            run.flush(batch)
        run.finish()
    run.bar.close()
    if len(jobs) > 1 or run.skipped:
        run.say(
            f"resized {run.written} of {len(jobs)} files into {args.output}"
            + (f"; {run.skipped} skipped" if run.skipped else ""),
            error=bool(run.skipped),
        )
    return 1 if run.skipped else 0


def _require_cli_extra() -> None:
    """The command reads and writes image files with Pillow and shows progress with tqdm."""
    missing = [name for module, name in (("PIL", "pillow"), ("tqdm", "tqdm")) if not importlib.util.find_spec(module)]
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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run_files(args)
    except (ValueError, TypeError) as e:  # invalid option combinations and paths, before anything is written
        parser.error(str(e))
    return 2
