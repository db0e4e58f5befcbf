"""The "shrinks" section of the benchmark: extreme shrinks, where host planning and compile time
used to dominate (issue 14's table).

Each row runs in a fresh process (so the first call is a real first call: nothing planned, traced
or compiled before it except an unrelated 4x4 resize that warms jax up). Columns, for jax_resize
(``resize`` / ``onnx_resize`` under ``jax.jit``) and its peer on the same input:

- ``lower s``: trace + host planning (weights, transposed taps, strategy) + lowering to StableHLO,
  measured first; ``plan ms``: the host planning in it — the time spent in the weights layer's
  window builders (``filter_taps``, ``clipped_window_taps``) and in ``apply._plans`` (strategy
  choice, plan arrays);
- ``first s``: the first call: ``lower s`` + the call after it (XLA compile + run; the trace and
  the plan are reused), then ``warm ms``: the median warm call;
- the peer: ``jax.image.resize`` with the same filter (first call and warm, under ``jax.jit``),
  or Pillow itself for the ``pil_*`` rows (warm only: it has no compile step);
- ``first / peer first``: ratio of first calls (issue 14's target: within 2x of jax.image).

Inputs are float32 (uint8 for the ``pil_*`` rows) random values: timing does not depend on them.
"""

from __future__ import annotations

import dataclasses
import time

import jax
import jax.numpy as jnp
import numpy as np
from photos import median_ms

import jax_resize


@dataclasses.dataclass(frozen=True)
class Shrink:
    name: str
    in_shape: tuple[int, ...]
    out_shape: tuple[int, ...]
    method: str  # a resize method, or "onnx_cubic_aa"
    peer: str | None  # a jax.image method, "pillow", or None


SHRINKS = [
    Shrink("4096x4096x3 -> 32x32x3 lanczos3 aa", (4096, 4096, 3), (32, 32, 3), "lanczos3", "lanczos3"),
    Shrink("4096x4096x3 -> 32x32x3 linear aa", (4096, 4096, 3), (32, 32, 3), "linear", "linear"),
    Shrink("4096x4096x3 uint8 -> 32x32x3 pil_bicubic", (4096, 4096, 3), (32, 32, 3), "pil_bicubic", "pillow"),
    Shrink("1-D 10^6 -> 3 linear aa", (10**6,), (3,), "linear", "linear"),
    Shrink("1-D 10^7 -> 10 area", (10**7,), (10,), "area", None),
    Shrink("10^6x1 uint8 -> 1000x1 pil_lanczos", (10**6, 1), (1000, 1), "pil_lanczos", "pillow"),
    Shrink("onnx cubic aa 1x1x30000x1 -> 1x1x1x1", (1, 1, 30000, 1), (1, 1, 1, 1), "onnx_cubic_aa", "cubic"),
]

SHRINK_HEADER = (
    "| shrink (fresh process) | jax_resize lower s | jax_resize plan ms | jax_resize first s | "
    "jax_resize warm ms | "
    "peer | peer first s | peer warm ms | first / peer first |"
)


def _ours(w: Shrink):
    if w.method == "onnx_cubic_aa":
        return lambda v: jax_resize.onnx_resize(v, sizes=list(w.out_shape), mode="cubic", antialias=1)
    return lambda v: jax_resize.resize(v, w.out_shape, w.method, antialias=not w.method.startswith("pil_"))


def _first_and_warm(fn, x, repeats: int):
    jitted = jax.jit(fn)
    t0 = time.perf_counter()
    jitted(x).block_until_ready()
    first = time.perf_counter() - t0
    return first, median_ms(lambda: jitted(x).block_until_ready(), repeats)


def _planning_timer() -> list[float]:
    """Accumulates (into the returned one-element list) the seconds spent in the host planning
    functions from now on: the outermost calls only (one builder may call another)."""
    from jax_resize._src import clipped_windows, weights
    from jax_resize._src.execution import apply

    spent, depth = [0.0], [0]

    def timed(fn):
        def wrapper(*args, **kwargs):
            if depth[0]:
                return fn(*args, **kwargs)
            depth[0] += 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - t0
                depth[0] -= 1

        return wrapper

    for module, name in [(weights, "filter_taps"), (clipped_windows, "clipped_window_taps"), (apply, "_plans")]:
        setattr(module, name, timed(getattr(module, name)))
    return spent


def shrink_row(w: Shrink, repeats: int) -> str:
    jax_resize.resize(jnp.ones((4, 4), jnp.float32), (2, 2), "linear").block_until_ready()  # warm jax up
    rng = np.random.default_rng(0)
    uint8 = w.method.startswith("pil_")
    x = (rng.random(w.in_shape) * (255 if uint8 else 1)).astype(np.uint8 if uint8 else np.float32)
    xj = jnp.asarray(x)
    xj.block_until_ready()
    jitted = jax.jit(_ours(w))
    planning = _planning_timer()
    t0 = time.perf_counter()
    jitted.lower(xj)
    lower = time.perf_counter() - t0
    plan = planning[0]
    rest, warm = _first_and_warm(jitted, xj, repeats)
    first = lower + rest
    peer, peer_first, peer_warm = "n/a (no such filter)", None, None
    if w.peer == "pillow":
        from PIL import Image

        pil = {"pil_bicubic": Image.Resampling.BICUBIC, "pil_lanczos": Image.Resampling.LANCZOS}[w.method]
        img = Image.fromarray(x)
        size = (w.out_shape[1], w.out_shape[0])
        peer, peer_warm = "Pillow", median_ms(lambda: img.resize(size, pil), repeats)
    elif w.peer is not None:
        shape = w.out_shape
        peer = f"jax.image {w.peer}"
        peer_first, peer_warm = _first_and_warm(lambda v: jax.image.resize(v, shape, w.peer), xj, repeats)

    def fmt(v, nd=2):
        return "n/a" if v is None else f"{v:.{nd}f}"

    ratio = None if peer_first is None else first / peer_first
    return (
        f"| {w.name} | {fmt(lower)} | {fmt(plan * 1e3, 0)} | {fmt(first)} | {fmt(warm, 1)} | {peer} | "
        f"{fmt(peer_first)} | {fmt(peer_warm, 1)} | {fmt(ratio)} |"
    )
