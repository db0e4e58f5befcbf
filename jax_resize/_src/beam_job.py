"""The steps of ``jax_resize.beam``: bucket keys, a batch read, resized and written with the
``jax-resize`` command's machinery (:mod:`.cli`, :mod:`.image_files`), the job's arguments and report.

Files are read and written through Beam's ``FileSystems`` (local paths, ``gs://``, ``s3://``...).
An output is never written over: local files are published with ``os.link`` (atomic), remote ones
after an existence check.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import posixpath
import tempfile
import uuid
from collections.abc import Sequence
from typing import Any

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from . import cli as _cli
from . import frontend as _frontend
from . import image_files as _files

#: The ONNX-attribute options of :func:`.cli.make_plan`, as keyword arguments.
OPTIONS = (*_cli.APPLIES, "keep_aspect_ratio_policy", "extrapolation_value", "roi")
REPORT = "jax-resize-report"
HEADER = "status\tsource\ttarget or reason\tinput WxH\toutput WxH\tnotes"
_RAW = CompressionTypes.UNCOMPRESSED


@dataclasses.dataclass(frozen=True)
class Rules:
    """What a batch does: ``plan``, the output limit, and where and how files are written (``output``
    None: the resized pictures are returned)."""

    plan: _cli.Plan
    max_output_pixels: int = _cli.MAX_OUTPUT_PIXELS
    output: str | None = None
    background: tuple[int, ...] | None = None
    quality: int = 95
    save_options: tuple = ()


@dataclasses.dataclass
class Resized:
    """The outcome of one input element.

    Attributes:
      source: the input's path, or the key of a ``(key, bytes)`` element (None for bare bytes).
      picture: the resized :class:`~jax_resize._src.image_files.Picture` (frames ``[h, w]`` or
        ``[h, w, C]`` numpy arrays, upright, in the input's dtype; the input's mode, format and
        metadata), or None when it was written or failed.
      target: the file written, or None.
      error: why it was neither resized nor written (the command's one-line reason), or None.
      in_size, out_size: ``(height, width)`` of the first frame, upright, before and after.
      notes: conversions made writing it (the command's ``note`` lines).
    """

    source: str | None
    picture: Any = None
    target: str | None = None
    error: str | None = None
    in_size: tuple[int, int] | None = None
    out_size: tuple[int, int] | None = None
    notes: tuple[str, ...] = ()

    def line(self) -> str:
        """The report's tab-separated line: status, source, target or reason, sizes ``WxH``."""
        size = lambda s: f"{s[1]}x{s[0]}" if s else ""
        status = "skipped" if self.error else "written" if self.target else "resized"
        cells = [status, str(self.source), self.error or self.target or "", size(self.in_size), size(self.out_size)]
        return "\t".join([*cells, *self.notes])


def element(value) -> tuple[str | None, bytes | None]:
    """``(source, data)`` of an input element: a path (str), encoded bytes, or ``(key, bytes)``.

    Raises:
      TypeError: any other element.
    """
    if isinstance(value, str):
        return value, None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return None, bytes(value)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (bytes, bytearray, memoryview)):
        return str(value[0]), bytes(value[1])
    raise TypeError(f"ResizeImages elements must be paths (str), bytes or (key, bytes) pairs; got {type(value)!r}")


def bucket_key(source: str | None, data: bytes | None) -> tuple[int, ...]:
    """The shape bucket of an element's upright first frame, from its header; ``()`` where Pillow
    cannot identify it (the batch reports why)."""
    import io

    from PIL import Image

    try:
        with io.BytesIO(data) if data is not None else FileSystems.open(source, compression_type=_RAW) as f:
            with Image.open(f) as img:
                h, w = img.height, img.width
                if int(img.getexif().get(_files.ORIENTATION, 1)) in (5, 6, 7, 8):
                    h, w = w, h
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return ()
    return _frontend.shared_input_sizes((h, w))


def _read(source: str | None, data: bytes | None) -> _files.Picture:
    if data is None and FileSystems.get_scheme(source) in (None, "file"):
        return _files.read_picture(source)  # type: ignore[arg-type]
    try:
        if data is None:
            with FileSystems.open(source, compression_type=_RAW) as f:
                data = f.read()
    except OSError as error:
        raise _files.PictureError(f"cannot read it ({error})") from error
    # read_picture takes a path (16-bit colour is read by OpenCV from the file)
    with tempfile.NamedTemporaryFile(suffix=posixpath.splitext(source or "")[1]) as tmp:
        tmp.write(data)
        tmp.flush()
        return _files.read_picture(tmp.name)


def _target(rules: Rules, source: str | None) -> str:
    name = posixpath.basename(source or "")
    if not name:
        raise _files.PictureError("no file name to write it under (give (name, bytes) elements)")
    target = FileSystems.join(rules.output or "", name)
    if FileSystems.exists(target):
        raise _files.PictureError(f"{target} exists (the job never writes over a file)")
    return target


def _publish(rules: Rules, target: str, picture, frames: list, mode: str) -> None:
    """Writes ``frames`` to ``target``, never over an existing file.

    Raises:
      PictureError: the file cannot be written, or ``target`` appeared meanwhile.
    """
    opts: dict[str, Any] = dict(background=rules.background, quality=rules.quality, options=dict(rules.save_options))
    suffix = posixpath.splitext(target)[1]
    exists = _files.PictureError(f"{target} exists (the job never writes over a file)")
    if FileSystems.get_scheme(target) in (None, "file"):
        folder, name = os.path.split(target)
        tmp = os.path.join(folder, f".{name}.{uuid.uuid4().hex}.tmp{suffix}")
        try:
            _files.write_picture(tmp, picture, frames, mode, **opts)
            try:
                os.link(tmp, target)  # atomic, and fails where target exists
            except FileExistsError:
                raise exists from None
            except OSError:  # a filesystem without hard links
                with open(target, "xb") as out, open(tmp, "rb") as f:
                    out.write(f.read())
        except FileExistsError:
            raise exists from None
        finally:
            pathlib.Path(tmp).unlink(missing_ok=True)
        return
    with tempfile.TemporaryDirectory() as folder:
        tmp = os.path.join(folder, "out" + suffix)
        _files.write_picture(tmp, picture, frames, mode, **opts)
        if FileSystems.exists(target):
            raise exists
        try:
            with FileSystems.create(target, compression_type=_RAW) as out, open(tmp, "rb") as f:
                out.write(f.read())
        except OSError as error:
            raise _files.PictureError(f"cannot write {target} ({error})") from error


def resize_batch(rules: Rules, elements: Sequence[tuple[str | None, bytes | None]]) -> list[Resized]:
    """Reads, checks, resizes (equal shapes batched: :func:`.cli.resize_pictures`) and, where
    ``rules.output`` is set, writes each ``(source, data)`` element; one :class:`Resized` each."""
    done: list[Resized] = []
    jobs: list[tuple[Resized, Any, str]] = []
    for source, data in elements:
        outcome = Resized(source)
        try:
            target = _target(rules, source) if rules.output is not None else ""
            picture = _read(source, data)
            outcome.in_size = picture.frames[0].shape[:2]
            mode, notes = picture.mode, list[str]()
            if target:
                mode, notes = _files.plan_output(picture, _files.output_format(target), rules.background)
            _cli.check_sizes(rules.plan, picture, rules.max_output_pixels)
        except _files.PictureError as error:
            outcome.error = str(error)
            done.append(outcome)
            continue
        outcome.target, outcome.notes, outcome.picture = target or None, tuple(notes), picture
        jobs.append((outcome, picture, mode))
    results = _cli.resize_pictures(rules.plan, [picture for _, picture, _ in jobs])
    for (outcome, picture, mode), frames in zip(jobs, results):
        done.append(outcome)
        outcome.picture = None
        try:
            if isinstance(frames, str):
                raise _files.PictureError(frames)
            if outcome.target is not None:
                _publish(rules, outcome.target, picture, frames, mode)
            else:
                import numpy as np

                outcome.picture = dataclasses.replace(picture, frames=[np.asarray(f) for f in frames])
            outcome.out_size = tuple(frames[0].shape[:2])
        except _files.PictureError as error:
            outcome.target, outcome.error = None, str(error)
    return done


def job_parser() -> argparse.ArgumentParser:
    """The arguments of ``python -m jax_resize.beam`` (Beam's own options are passed through)."""
    parser = argparse.ArgumentParser(
        prog="python -m jax_resize.beam",
        usage="%(prog)s --input GLOB --output DIR (--size HxW | --scale S) [options] [Beam pipeline options]",
        description="Resize image files with Apache Beam, with the jax-resize command's rules: EXIF orientation "
        "applied, metadata and bit depth kept, every frame resized. An existing output is never written over. "
        f"Every input is written or listed with its reason in DIR/{REPORT}-*.tsv. Files whose names start with "
        "'.' are ignored. Exit status: 0 all written, 1 some skipped, 2 argument errors.",
        epilog="Beam options (--runner, --project, --region, --temp_location, --direct_num_workers...) follow "
        "Beam's PipelineOptions. Example: python -m jax_resize.beam --input 'gs://b/in/*.jpg' --output gs://b/out "
        "--size 224x224 --runner DataflowRunner --project P --region R --temp_location gs://b/tmp "
        "--requirements_file req.txt",
        allow_abbrev=False,
    )
    parser.add_argument("--input", required=True, metavar="GLOB", help="files to resize (a FileSystems glob)")
    parser.add_argument("--output", required=True, metavar="DIR", help="the folder the files are written to")
    parser.add_argument("--batch-size", type=int, default=_cli.BATCH, help="images per batch (default %(default)s)")
    return _cli.add_options(parser, overwrite=False)


def options_of(args) -> dict[str, Any]:
    """The ONNX-attribute keywords of parsed arguments that were given."""
    return {name: getattr(args, name) for name in OPTIONS if getattr(args, name) is not None}


def report_name(output: str) -> str:
    """A new report's path in ``output`` (the time and a random part make it unique)."""
    import time

    return FileSystems.join(output, f"{REPORT}-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:6]}")


def check_input(pattern: str) -> None:
    """Raises ValueError where ``pattern`` matches no file."""
    try:
        matched = FileSystems.match([pattern], limits=[1])[0].metadata_list
    except OSError as error:
        raise ValueError(f"--input {pattern!r} cannot be listed ({error})") from None
    if not matched:
        raise ValueError(f"--input {pattern!r} matches no file")


def make_output(output: str) -> None:
    """Creates a local output folder.

    Raises:
      ValueError: ``output`` is a file.
    """
    if FileSystems.get_scheme(output) in (None, "file"):
        if os.path.exists(output) and not os.path.isdir(output):
            raise ValueError(f"--output {output} is a file; give a folder")
        os.makedirs(output, exist_ok=True)


def hidden(path: str) -> bool:
    """Whether a matched file is ignored (its name starts with '.', as the command ignores them)."""
    return posixpath.basename(path.replace(os.sep, "/")).startswith(".")
