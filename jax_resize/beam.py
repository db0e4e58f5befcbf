"""Apache Beam: resize image files or encoded images on many workers, as ``jax-resize`` does.

Needs apache-beam (``pip install "jax_resize[beam]"``; ``apache-beam[gcp]`` for ``gs://`` and
Dataflow); ``import jax_resize`` does not import it.

:class:`ResizeImages` keys each element by the shape bucket of its upright first frame (read from
the header, so the shuffles carry paths or encoded bytes, not pixels), groups each key into
batches (a batch shares compiled programs), spreads the batches over the workers (``Reshuffle``)
and resizes each batch on one worker, whose ``setup`` turns on the persistent compilation cache.
``python -m jax_resize.beam --input GLOB --output DIR --size HxW [options] [Beam options]`` is the
job (``--help``); it writes a report of every input in DIR.

Runners (Beam options after the job's): locally ``--runner=DirectRunner
--direct_running_mode=multi_processing --direct_num_workers=N`` (the DirectRunner first tries Prism,
a binary it downloads); Dataflow ``--runner=DataflowRunner --project P --region R --temp_location
gs://B/tmp --requirements_file F`` (F lists ``jax_resize[beam]`` and ``apache-beam[gcp]``); Flink
``--runner=FlinkRunner --flink_master=HOST:PORT``, Spark ``--runner=SparkRunner
--spark_master_url=spark://HOST:7077``, with ``--environment_type`` as the cluster runs its workers.
Workers need this package; inputs and outputs on a filesystem they all reach (``gs://``, ``s3://``).

Example (not run as a doctest: Beam is slow to start)::

    with beam.Pipeline() as p:
        out = p | beam.Create(["a.jpg", "b.png"]) | ResizeImages(size=(224, 224), mode="pil_bicubic")
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

try:
    import apache_beam as beam
except ImportError as error:  # pragma: no cover - exercised only without apache-beam
    raise ImportError(
        'jax_resize.beam needs apache-beam (>= 2.71); install it with `pip install "jax_resize[beam]"`.'
    ) from error

from jax_resize._src import beam_job as _job
from jax_resize._src import cli as _cli
from jax_resize._src.beam_job import Resized

__all__ = ["ResizeImages", "Resized", "main"]


class _KeyByBucket(beam.DoFn):
    def process(self, value):
        source, data = _job.element(value)
        yield _job.bucket_key(source, data), (source, data)


class _ResizeBatch(beam.DoFn):
    def __init__(self, rules: _job.Rules):
        self.rules = rules

    def setup(self):
        _cli.enable_compilation_cache()  # once per worker: programs compiled by earlier runs are reused
        self.counts = {k: beam.metrics.Metrics.counter("jax_resize", k) for k in ("written", "resized", "skipped")}

    def process(self, batch):
        for outcome in _job.resize_batch(self.rules, batch):
            self.counts["skipped" if outcome.error else "written" if outcome.target else "resized"].inc()
            yield outcome


def _batches(keyed, size: int):
    batch: list = []
    for value in keyed[1]:
        batch.append(value)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _pair(name: str, value, kind) -> tuple:
    pair = (value, value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
    try:
        ok = len(pair) == 2 and all(isinstance(v, (int, kind)) and not isinstance(v, bool) and v > 0 for v in pair)
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"{name} must be a positive {kind.__name__} or a pair of them; got {value!r}")
    return tuple(kind(v) for v in pair)


class ResizeImages(beam.PTransform):
    """Resizes image elements: paths (Beam ``FileSystems``), encoded bytes, or ``(key, bytes)`` pairs.

    Output: one :class:`Resized` per element: the resized picture (frames ``[h, w]`` / ``[h, w, C]``
    numpy arrays in the input's dtype, EXIF orientation applied, every frame, the input's metadata),
    or with ``output_dir`` the file written there (the input's name and format; never over an
    existing file), or the reason it failed (``error``). The arguments are the ``jax-resize``
    command's options (``--help``): ``size`` ``(h, w)`` or an int, ``scale`` ``(sy, sx)`` or a float,
    ``mode`` (default ``"linear"``), the ONNX attributes (``antialias``, ``cubic_coeff_a``,
    ``coordinate_transformation_mode``, ``nearest_mode``, ``exclude_outside``,
    ``keep_aspect_ratio_policy``, ``extrapolation_value``, ``roi``), ``max_output_pixels``, and for
    files written ``quality``, ``background`` (a colour name or ``(r, g, b)``) and ``save_options``
    (Pillow ``save`` keywords). Pixels equal the command's.

    Raises:
      ValueError: no or both of ``size`` and ``scale``, an invalid value, or an option that does
        not apply to ``mode``.
      TypeError: an unknown keyword; at run time, an element of another type.

    Example:
      >>> import io, numpy as np, PIL.Image
      >>> from apache_beam.runners.portability.fn_api_runner import FnApiRunner  # in this process
      >>> png = io.BytesIO()
      >>> PIL.Image.fromarray(np.zeros((40, 60, 3), np.uint8)).save(png, "PNG")
      >>> with beam.Pipeline(runner=FnApiRunner()) as p:
      ...     out = p | beam.Create([("a", png.getvalue()), ("b", b"junk")]) | ResizeImages(size=(20, 30))
      ...     _ = out | beam.combiners.ToList() | beam.Map(lambda rs: print(sorted((r.source, r.out_size) for r in rs)))
      [('a', (20, 30)), ('b', None)]
    """

    def __init__(
        self,
        *,
        size: int | Sequence[int] | None = None,
        scale: float | Sequence[float] | None = None,
        mode: str = "linear",
        max_output_pixels: int = _cli.MAX_OUTPUT_PIXELS,
        output_dir: str | None = None,
        quality: int = 95,
        background: str | Sequence[int] | None = None,
        save_options: dict[str, Any] | None = None,
        batch_size: int = _cli.BATCH,
        **options,
    ):
        super().__init__()
        unknown = sorted(set(options) - set(_job.OPTIONS))
        if unknown:
            raise TypeError(f"ResizeImages got unknown keyword(s) {unknown}; options are {list(_job.OPTIONS)}")
        if (size is None) == (scale is None):
            raise ValueError(f"give one of size and scale; got size={size!r}, scale={scale!r}")
        if mode not in _cli.MODES:
            raise ValueError(f"mode must be one of {', '.join(_cli.MODES)}; got {mode!r}")
        for name, value, low, high in (
            ("quality", quality, 1, 100),
            ("max_output_pixels", max_output_pixels, 1, None),
            ("batch_size", batch_size, 1, None),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < low or (high and value > high):
                raise ValueError(
                    f"{name} must be an integer from {low}{f' to {high}' if high else ' up'}; got {value!r}"
                )
        if isinstance(background, str):
            try:
                background = _cli._colour(background)
            except argparse.ArgumentTypeError as error:
                raise ValueError(str(error).replace("--background", "background")) from None
        namespace = argparse.Namespace(
            size=None if size is None else _pair("size", size, int),
            scale=None if scale is None else _pair("scale", scale, float),
            mode=mode,
            **{name: options.get(name) for name in _job.OPTIONS},
        )
        plan = _cli.make_plan(namespace)  # ValueError: an option that does not apply to mode
        background = None if background is None else tuple(int(v) for v in background)
        save = tuple(sorted((save_options or {}).items()))
        self.rules = _job.Rules(plan, max_output_pixels, output_dir, background, quality, save)
        self.batch_size = batch_size

    def expand(self, pcoll):
        return (
            pcoll
            | "KeyByBucket" >> beam.ParDo(_KeyByBucket())
            | "Group" >> beam.GroupByKey()
            | "Batch" >> beam.FlatMap(_batches, self.batch_size)
            | "Spread" >> beam.Reshuffle()  # the batches of a large bucket go to many workers
            | "Resize" >> beam.ParDo(_ResizeBatch(self.rules))
        )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m jax_resize.beam``: resizes ``--input`` files into ``--output`` and writes the
    report; exit status 0 all written, 1 some skipped (2: argument errors, from argparse)."""
    from apache_beam.io import fileio
    from apache_beam.metrics.metric import MetricsFilter
    from apache_beam.options.pipeline_options import PipelineOptions

    _cli._require_cli_extra()
    parser = _job.job_parser()
    args, beam_args = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
    try:
        transform = ResizeImages(
            size=args.size,
            scale=args.scale,
            mode=args.mode,
            max_output_pixels=args.max_output_pixels,
            output_dir=args.output,
            quality=args.quality,
            background=args.background,
            save_options=dict(args.save_option),
            batch_size=args.batch_size,
            **_job.options_of(args),
        )
        _job.check_input(args.input)
        _job.make_output(args.output)
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    report = _job.report_name(args.output)
    with beam.Pipeline(options=PipelineOptions(beam_args)) as pipeline:
        (
            pipeline
            | "Match" >> fileio.MatchFiles(args.input)
            | "Paths" >> beam.Map(lambda metadata: metadata.path)
            | "NotHidden" >> beam.Filter(lambda path: not _job.hidden(path))
            | "Resize" >> transform
            | "Lines" >> beam.Map(Resized.line)
            | "Report" >> beam.io.WriteToText(report, ".tsv", num_shards=1, shard_name_template="", header=_job.HEADER)
        )
    counts = {k: 0 for k in ("written", "skipped")}
    for result in pipeline.result.metrics().query(MetricsFilter().with_namespace("jax_resize"))["counters"]:
        counts[result.key.metric.name] = counts.get(result.key.metric.name, 0) + result.committed
    total = counts["written"] + counts["skipped"]
    if not args.quiet or counts["skipped"]:
        skipped = f"; {counts['skipped']} skipped" if counts["skipped"] else ""
        out = sys.stderr if counts["skipped"] else sys.stdout
        print(
            f"resized {counts['written']} of {total} files into {args.output}{skipped}; report {report}.tsv", file=out
        )
    return 1 if counts["skipped"] else 0


if __name__ == "__main__":
    from jax_resize.beam import main as _main  # the DoFns pickled by their module's name, not __main__'s

    sys.exit(_main())
