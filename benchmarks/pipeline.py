"""Input pipelines (issue 47): images per second of ``Resize(256) + CenterCrop(224)`` over JPEGs of mixed sizes.

``python benchmarks/pipeline.py [--images 1000] [--batch 64] [--workers 2] [--epochs 2] [--dir DIR]`` writes
``--images`` JPEGs of distinct sizes (300-1600 px a side: crops of the shared photos, rescaled; kept in ``--dir``
when given) and runs one pipeline per row, each decoding, resizing the shorter edge to 256, centre-cropping 224 and
batching ``--batch`` images with ``--workers`` worker processes:

- **jax_resize.grain**: ``grain.DataLoader`` with ``DecodeImage``, ``Resize(256, crop=224)`` (torchvision's
  preset; one resize of the crop's shape), ``grain.transforms.Batch``; and with ``Resize(256)``, ``CenterCrop(224)``
  apart (each resized size its own program); and with ``device=True`` (the workers decode and compute the
  geometry, ``jax_resize.grain.batch`` pads each batch to the global grid, ``on_device`` resizes it in the
  main process on the default device);
- **grain + cv2**: the same loader with ``cv2.imdecode`` and ``cv2.resize(INTER_LINEAR)`` (grain's tutorial; no
  antialiasing, so not the same pixels);
- **tf.data**: ``tf.io.decode_jpeg``, ``tf.image.resize(antialias=True)``, a central crop,
  ``num_parallel_calls=--workers``;
- **torch DataLoader + torchvision v2**: Pillow decoding, ``v2.Resize(256)``, ``v2.CenterCrop(224)`` on uint8
  tensors, ``num_workers=--workers``.

Columns: images/s of each epoch (the first includes compilation and worker start), the resident memory of the
worker processes (sum, MB) after a quarter, half and all of the last epoch, and for jax_resize the XLA programs one
process compiles for the whole run (counted in-process with ``worker_count=0``: each worker compiles the same ones).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import time

import grain
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "data"
SHORT, CROP = 256, 224


def write_jpegs(folder: pathlib.Path, count: int, seed: int = 47) -> list[str]:
    """``count`` JPEGs of distinct sizes (300-1600 px a side) from the shared photos, written once."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    existing = sorted(str(p) for p in folder.glob("*.jpg"))
    if len(existing) >= count:
        return existing[:count]
    photos = [Image.open(p).convert("RGB") for p in sorted(SHARED.glob("*.png"))]
    if not photos:  # the photograph bundled with the package
        from jax_resize._src.demo import bundled_photo_path

        photos = [Image.open(bundled_photo_path()).convert("RGB")]
    rng = np.random.default_rng(seed)
    seen, paths = set(), []
    while len(paths) < count:
        h, w = (int(v) for v in rng.integers(300, 1601, 2))
        if (h, w) in seen:
            continue
        seen.add((h, w))
        photo = photos[len(paths) % len(photos)]
        box_w, box_h = (
            rng.integers(photo.width // 2, photo.width + 1),
            rng.integers(photo.height // 2, photo.height + 1),
        )
        left, top = rng.integers(0, photo.width - box_w + 1), rng.integers(0, photo.height - box_h + 1)
        image = photo.resize((w, h), Image.Resampling.BILINEAR, box=(left, top, left + box_w, top + box_h))
        path = folder / f"{len(paths):05d}.jpg"
        image.save(path, quality=90)
        paths.append(str(path))
    return paths


class Cv2DecodeResizeCrop(grain.transforms.Map):
    """grain's tutorial pipeline: ``cv2.imdecode``, shorter edge to 256 (``INTER_LINEAR``), centre crop."""

    def map(self, path):
        import cv2

        image = cv2.cvtColor(cv2.imdecode(np.fromfile(path, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        h, w = image.shape[:2]
        scale = SHORT / min(h, w)
        image = cv2.resize(
            image, (max(SHORT, int(w * scale)), max(SHORT, int(h * scale))), interpolation=cv2.INTER_LINEAR
        )
        top, left = (image.shape[0] - CROP) // 2, (image.shape[1] - CROP) // 2
        return image[top : top + CROP, left : left + CROP]


def _grain_operations(kind: str, batch: int):
    from jax_resize.grain import CenterCrop, DecodeImage, Resize
    from jax_resize.grain import batch as pad_and_stack

    if kind == DEVICE_ROW:
        return [
            DecodeImage(),
            Resize(SHORT, crop=CROP, device=True),
            grain.transforms.Batch(batch, batch_fn=pad_and_stack),
        ]
    if kind == "jax_resize.grain":
        return [DecodeImage(), Resize(SHORT, crop=CROP), grain.transforms.Batch(batch)]
    if kind == "jax_resize.grain, crop apart":
        return [DecodeImage(), Resize(SHORT), CenterCrop(CROP), grain.transforms.Batch(batch)]
    return [Cv2DecodeResizeCrop(), grain.transforms.Batch(batch)]


def _rss_mb(pids) -> float:
    total = 0
    for pid in pids:
        try:
            total += int(pathlib.Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError):
            pass
    return total / 2**20


def _children() -> list[int]:
    import psutil

    return [c.pid for c in psutil.Process().children(recursive=True)]


def _epochs(make_iter, images: int, batch: int, epochs: int):
    """Images per second of each epoch, and the workers' memory at 1/4, 1/2 and the end of the last."""
    rates, memory = [], []
    batches = -(-images // batch)
    for epoch in range(epochs):
        start, seen, marks = time.perf_counter(), 0, []
        for i, b in enumerate(make_iter()):
            seen += len(b)
            if epoch == epochs - 1 and i + 1 in (max(1, batches // 4), max(1, batches // 2), batches):
                marks.append(_rss_mb(_children()))
        rates.append(seen / (time.perf_counter() - start))
        memory = marks
    return rates, memory


def _loader(kind: str, paths, batch: int, workers: int):
    """The row's grain loader; the device row's batches resized on the device (waited for)."""
    loader = grain.DataLoader(
        data_source=paths,
        sampler=grain.samplers.IndexSampler(len(paths), shuffle=False, num_epochs=1),
        operations=_grain_operations(kind, batch),
        worker_count=workers,
    )
    if kind != DEVICE_ROW:
        return loader
    import jax

    from jax_resize.grain import on_device

    return (jax.block_until_ready(b) for b in on_device(loader))


def run_grain(kind: str, paths, batch: int, workers: int, epochs: int):
    return _epochs(lambda: _loader(kind, paths, batch, workers), len(paths), batch, epochs)


def run_tf(paths, batch: int, workers: int, epochs: int):
    import tensorflow as tf

    def load(path):
        image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
        shape = tf.cast(tf.shape(image)[:2], tf.float32)
        size = tf.cast(tf.math.floor(shape * SHORT / tf.reduce_min(shape)), tf.int32)
        image = tf.image.resize(image, tf.maximum(size, SHORT), antialias=True)
        top, left = (tf.shape(image)[0] - CROP) // 2, (tf.shape(image)[1] - CROP) // 2
        return tf.cast(tf.round(image[top : top + CROP, left : left + CROP]), tf.uint8)

    def make_iter():
        ds = tf.data.Dataset.from_tensor_slices(paths).map(load, num_parallel_calls=workers or None).batch(batch)
        return ds.as_numpy_iterator()

    return _epochs(make_iter, len(paths), batch, epochs)


class _TorchData:
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        from PIL import Image
        from tv_oracle import torch, v2  # torchvision beside the CPU torch (tests/tv_oracle.py)

        image = torch.from_numpy(np.array(Image.open(self.paths[i]).convert("RGB"))).permute(2, 0, 1)
        return v2.CenterCrop(CROP)(v2.Resize(SHORT, antialias=True)(image.contiguous()))


def run_torch(paths, batch: int, workers: int, epochs: int):
    sys.path.insert(0, str(HERE.parent / "tests"))  # tv_oracle, inherited by the forked workers
    from tv_oracle import torch

    def make_iter():
        return torch.utils.data.DataLoader(_TorchData(paths), batch_size=batch, num_workers=workers)

    return _epochs(make_iter, len(paths), batch, epochs)


def count_programs(kind: str, paths, batch: int) -> int:
    """XLA programs compiled in one process for the jax_resize pipeline over ``paths`` (no workers)."""
    import jax

    jax.clear_caches()  # a row run without workers compiled in this process already
    compiled = []
    jax.monitoring.register_event_duration_secs_listener(
        lambda name, *_a, **_k: compiled.append(name) if name == "/jax/core/compile/backend_compile_duration" else None
    )
    for _ in _loader(kind, paths, batch, 0):
        pass
    return len(compiled)


DEVICE_ROW = "jax_resize.grain, device=True"
ROWS = [
    "jax_resize.grain",
    "jax_resize.grain, crop apart",
    DEVICE_ROW,
    "grain + cv2",
    "tf.data",
    "torch DataLoader + torchvision v2",
]


def main(argv=None) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--dir", type=pathlib.Path, default=None)
    parser.add_argument("--rows", nargs="*", default=ROWS, choices=ROWS)
    args = parser.parse_args(argv)
    for flag in ("images", "batch", "epochs"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag} must be at least 1")
    from absl import flags

    if not flags.FLAGS.is_parsed():  # grain's workers read absl flags
        flags.FLAGS.mark_as_parsed()
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_jpegs(args.dir or pathlib.Path(tmp), args.images)
        lines = [
            f"{len(paths)} JPEGs (300-1600 px a side), Resize({SHORT}) + CenterCrop({CROP}), batch {args.batch}, "
            f"{args.workers} workers, {os.cpu_count()} CPUs",
            "| pipeline | images/s by epoch | workers' MB at 1/4, 1/2, end of the last epoch | programs |",
            "| --- | --- | --- | --- |",
        ]
        print("\n".join(lines), flush=True)
        for row in args.rows:
            if row.startswith("jax_resize") or row == "grain + cv2":
                rates, memory = run_grain(row, paths, args.batch, args.workers, args.epochs)
            elif row == "tf.data":
                rates, memory = run_tf(paths, args.batch, args.workers, args.epochs)
            else:
                rates, memory = run_torch(paths, args.batch, args.workers, args.epochs)
            programs = str(count_programs(row, paths, args.batch)) if row.startswith("jax_resize") else "—"
            line = (
                f"| {row} | {', '.join(f'{r:.0f}' for r in rates)} | {', '.join(f'{m:.0f}' for m in memory) or '—'} "
                f"| {programs} |"
            )
            print(line, flush=True)
            lines.append(line)
    return lines


if __name__ == "__main__":
    main()
