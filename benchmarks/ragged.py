"""The "ragged" section of the benchmark: a batch of photos of many sizes resized to one shape.

Workload: 64 photos of mixed sizes (random crops from ~120x160 to 480x640 of the real photos in
``../shared/data`` — coffee, chelsea, astronaut — enlarged with Pillow's LANCZOS to at least
480x640; the bundled astronaut when that folder is missing), float32 in [0, 1] (uint8 for
Pillow), each resized to 224x224x3, linear with antialias. Every row times the whole set of 64
(ms; ``/ (b)`` is the ratio to row (b)):

- (r) ``jax_resize.resize_ragged`` on the zero-padded batch ``[64, 480, 640, 3]`` with the sizes
  traced, under one ``jax.jit``: the median of warm calls, the first call (trace + compile + run)
  and the number of traces over 10 different size mixes (a counter inside the jitted function).
- (a) ``jax_resize.resize`` under ``jax.jit`` with a new shape per photo, timed once including
  every compile (what a pipeline pays when each photo has a new size; the shapes were never seen
  by the process, which first warms jax up on an unrelated shape).
- (b) the same 64 calls once every shape is compiled (the sum of the per-image calls).
- (c) ``jax.vmap`` of ``jax.image.scale_and_translate`` over per-example scales (224/h, 224/w)
  and translation 0 on the padded batch, under ``jax.jit`` (jax.image's dense traced weights;
  near the padded border it is not the per-example resize: taps on the padding are not dropped),
  and the same with ``jax_resize.scale_and_translate``.
- (d) torch ``interpolate(mode="bilinear", antialias=True)`` per image (float32 NCHW, 2 threads)
  and Pillow ``Image.resize((224, 224), BILINEAR)`` per uint8 image (one thread).

``max |diff| vs (b)`` is the largest absolute difference of a row's 64 outputs from (b)'s (Pillow's
uint8 output divided by 255).
"""

from __future__ import annotations

import pathlib
import time

import jax
import jax.numpy as jnp
import numpy as np
from photos import DATA, THREADS, median_ms

import jax_resize

COUNT = 64
PADDED_HW = (480, 640)
MIN_HW = (120, 160)
OUT_SHAPE = (224, 224, 3)
MIXES = 10  # size mixes traced through (r)
SOURCES = ("coffee.png", "chelsea.png", "astronaut.png")
NAME = f"ragged {COUNT} photos {MIN_HW[0]}x{MIN_HW[1]}..{PADDED_HW[0]}x{PADDED_HW[1]} -> 224x224x3 bilinear aa"

RAGGED_HEADER = (
    f"| ragged: {COUNT} photos {MIN_HW[0]}x{MIN_HW[1]}..{PADDED_HW[0]}x{PADDED_HW[1]} -> 224x224x3, linear aa, "
    f"float32 | ms (all {COUNT}) | / (b) | first call s | traces / compiles | max abs diff vs (b) |"
)


def _sources() -> list[np.ndarray]:
    """The real photos, enlarged (LANCZOS, aspect kept) until a 480x640 crop fits."""
    from PIL import Image

    paths = [DATA / name for name in SOURCES if (DATA / name).exists()]
    if not paths:  # the photograph shipped with the package
        paths = [pathlib.Path(jax_resize.__file__).parent / "data" / "astronaut.png"]
    out = []
    for path in paths:
        img = Image.open(path).convert("RGB")
        s = max(1.0, PADDED_HW[0] / img.height, PADDED_HW[1] / img.width)
        if s > 1:
            img = img.resize((int(np.ceil(img.width * s)), int(np.ceil(img.height * s))), Image.Resampling.LANCZOS)
        out.append(np.asarray(img))
    return out


def random_sizes(seed: int) -> np.ndarray:
    """``[COUNT, 2]`` (h, w), each uniform in [MIN_HW, PADDED_HW]."""
    rng = np.random.default_rng(seed)
    h = rng.integers(MIN_HW[0], PADDED_HW[0] + 1, COUNT)
    w = rng.integers(MIN_HW[1], PADDED_HW[1] + 1, COUNT)
    return np.stack([h, w], axis=1).astype(np.int32)


def photos(seed: int = 0) -> tuple[list[np.ndarray], np.ndarray]:
    """``COUNT`` uint8 RGB random crops of the real photos and their ``[COUNT, 2]`` sizes."""
    sources = _sources()
    sizes = random_sizes(seed)
    rng = np.random.default_rng(seed + 1000)
    crops = []
    for i, (h, w) in enumerate(sizes):
        src = sources[i % len(sources)]
        y = rng.integers(0, src.shape[0] - h + 1)
        x = rng.integers(0, src.shape[1] - w + 1)
        crops.append(np.ascontiguousarray(src[y : y + h, x : x + w]))
    return crops, sizes


def _max_diff(outs, ref) -> float:
    return float(max(np.max(np.abs(np.asarray(o, np.float32) - r)) for o, r in zip(outs, ref)))


def ragged_rows(repeats: int) -> list[str]:
    """Measures every row of the section in this process; returns the Markdown rows (no header)."""
    crops, sizes = photos(0)
    floats = [c.astype(np.float32) / 255 for c in crops]
    batch = np.zeros((COUNT, *PADDED_HW, 3), np.float32)
    for i, f in enumerate(floats):
        batch[i, : f.shape[0], : f.shape[1]] = f
    batch_j = jax.device_put(batch)
    sizes_j = jax.device_put(sizes)
    imgs_j = [jax.device_put(f) for f in floats]
    jax.block_until_ready((batch_j, sizes_j, imgs_j))

    def resize_one(v):
        return jax_resize.resize(v, OUT_SHAPE, "linear", antialias=True)

    # warm jax and jax_resize up on a shape outside the mix, so that (a) pays compiles, not imports
    jax.block_until_ready(jax.jit(resize_one)(jnp.zeros((64, 64, 3), jnp.float32)))

    # (a) a fresh jit, every photo's shape new to the process: compile + run, timed once
    f_a = jax.jit(resize_one)
    t0 = time.perf_counter()
    outs_b = [jax.block_until_ready(f_a(v)) for v in imgs_j]
    cold_ms = (time.perf_counter() - t0) * 1e3
    ref = [np.asarray(o) for o in outs_b]
    distinct = len({tuple(s) for s in sizes.tolist()})

    # (b) the same calls, every shape compiled
    warm_ms = median_ms(lambda: [jax.block_until_ready(f_a(v)) for v in imgs_j], repeats)

    # (r) resize_ragged: one jit for every size mix
    traces = [0]

    def ragged(b, s):
        traces[0] += 1  # runs once per trace
        return jax_resize.resize_ragged(b, s, OUT_SHAPE, "linear", antialias=True)

    f_r = jax.jit(ragged)
    t0 = time.perf_counter()
    out_r = jax.block_until_ready(f_r(batch_j, sizes_j))
    r_first = time.perf_counter() - t0
    r_ms = median_ms(lambda: jax.block_until_ready(f_r(batch_j, sizes_j)), repeats)
    r_diff = _max_diff(np.asarray(out_r), ref)
    for seed in range(1, MIXES):  # the padded batch is the same; only the sizes (traced) change
        jax.block_until_ready(f_r(batch_j, jax.device_put(random_sizes(seed))))
    r_traces = traces[0]

    # (c) vmap of scale_and_translate over per-example scales, translation 0
    scales = jax.device_put((np.float32(OUT_SHAPE[0]) / sizes).astype(np.float32))  # [COUNT, 2]: 224/h, 224/w

    def vmapped(scale_and_translate):
        def one(image, scale):
            return scale_and_translate(image, OUT_SHAPE, (0, 1), scale, jnp.zeros(2, jnp.float32), "linear", True)

        return jax.jit(jax.vmap(one))

    sat_rows = []
    for label, sat in (
        ("(c) jax.vmap(jax.image.scale_and_translate), padded batch, one jit", jax.image.scale_and_translate),
        ("(c') jax.vmap(jax_resize.scale_and_translate), padded batch, one jit", jax_resize.scale_and_translate),
    ):
        f_c = vmapped(sat)
        t0 = time.perf_counter()
        out_c = jax.block_until_ready(f_c(batch_j, scales))
        first = time.perf_counter() - t0
        ms = median_ms(lambda: jax.block_until_ready(f_c(batch_j, scales)), repeats)
        sat_rows.append((label, ms, first, _max_diff(np.asarray(out_c), ref)))

    # (d) torch and Pillow, image by image
    torch_ms = torch_diff = None
    try:
        import torch

        torch.set_num_threads(THREADS)
        tensors = [torch.from_numpy(f).permute(2, 0, 1)[None].contiguous() for f in floats]

        def run_torch():
            with torch.no_grad():
                return [
                    torch.nn.functional.interpolate(
                        t, size=OUT_SHAPE[:2], mode="bilinear", antialias=True, align_corners=False
                    )
                    for t in tensors
                ]

        torch_ms = median_ms(run_torch, repeats)
        torch_diff = _max_diff([o[0].permute(1, 2, 0).numpy() for o in run_torch()], ref)
    except ImportError:
        pass
    from PIL import Image

    pil_images = [Image.fromarray(c) for c in crops]
    size = (OUT_SHAPE[1], OUT_SHAPE[0])
    run_pil = lambda: [p.resize(size, Image.Resampling.BILINEAR) for p in pil_images]
    pil_ms = median_ms(run_pil, repeats)
    pil_diff = _max_diff([np.asarray(o, np.float32) / 255 for o in run_pil()], ref)

    def cell(v, digits=1):
        return "n/a" if v is None else f"{v:.{digits}f}"

    def row(label, ms, first=None, traces_=None, diff=None):
        ratio = None if ms is None else ms / warm_ms
        count = "n/a" if traces_ is None else traces_
        diff = "n/a" if diff is None else f"{diff:.1e}"
        return f"| {label} | {cell(ms)} | {cell(ratio, 2)} | {cell(first, 2)} | {count} | {diff} |"

    return [
        row(
            "(r) jax_resize.resize_ragged, padded [64, 480, 640, 3], sizes traced, one jit (warm)",
            r_ms,
            r_first,
            f"{r_traces} trace(s) over {MIXES} size mixes",
            r_diff,
        ),
        row(
            "(a) jax_resize.resize, jit per shape, new shapes (compile included, timed once)",
            cold_ms,
            None,
            f"{distinct} compiles",
            0.0,
        ),
        row("(b) jax_resize.resize, jit per shape, warm (sum of 64 calls)", warm_ms, None, None, 0.0),
        *(row(label, ms, first, None, diff) for label, ms, first, diff in sat_rows),
        row("(d) torch interpolate bilinear aa, per image, float32 NCHW, 2 threads", torch_ms, None, None, torch_diff),
        row("(d) Pillow Image.resize BILINEAR, per uint8 image, 1 thread", pil_ms, None, None, pil_diff),
    ]
