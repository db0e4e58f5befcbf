"""The "first" section of the benchmark: first calls for new photo shapes, and the host time of
small eager calls (issue 12's last two targets).

Each row runs in a fresh process. Before it, one unrelated 4x4 resize warms jax up (backend
initialisation, jax's own caches), as in a pipeline that has already resized something. Columns:

- photo rows (a uint8 photo of a shape never seen before -> 224x224x3, ``resize(..., "linear",
  antialias=True)`` called eagerly on the numpy array, as a user would): ``first s`` is the whole
  first call (host planning, trace, lowering, XLA compile, run), ``compile s`` the XLA compile in
  it (jax's ``/jax/core/compile/backend_compile_duration`` events), ``warm ms`` the median later
  call; then the same for ``jax.image.resize`` (linear, antialias) on the same array, run after
  ours, and the ratio of the first calls.
- the eager row: 224x224x3 float32 (a jax array) -> 112x112x3 linear, the median over 7 rounds of
  200 back-to-back eager calls, ours and ``jax.image.resize``'s (the issue's target: no more host
  time per call than jax.image).
"""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp
import numpy as np
from photos import median_ms

import jax_resize

PHOTO_SHAPES = [(300, 317), (309, 326), (480, 640), (1080, 1920), (3000, 4000)]
EAGER_NAME = "eager 224x224x3 float32 -> 112x112x3 linear"
NAMES = [f"photo {h}x{w} uint8 -> 224x224" for h, w in PHOTO_SHAPES] + [EAGER_NAME]
HEADER = (
    "| first call (fresh process) | jax_resize first s | of which XLA compile s | jax_resize warm ms | "
    "jax.image first s | jax.image compile s | jax.image warm ms | first / jax.image first |"
)

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


def _compile_seconds() -> list[float]:
    """Accumulates (into the returned one-element list) the seconds of XLA compiles from now on."""
    spent = [0.0]

    def listener(event, duration, **kwargs):
        if event == _COMPILE_EVENT:
            spent[0] += duration

    jax.monitoring.register_event_duration_secs_listener(listener)
    return spent


def _first(fn, x, compiled: list[float]) -> tuple[float, float]:
    before = compiled[0]
    t0 = time.perf_counter()
    jax.block_until_ready(fn(x))
    return time.perf_counter() - t0, compiled[0] - before


def _eager_row(repeats: int) -> str:
    x = jnp.asarray(np.random.default_rng(0).random((224, 224, 3)).astype(np.float32))
    ours = lambda: jax_resize.resize(x, (112, 112, 3), "linear")
    peer = lambda: jax.image.resize(x, (112, 112, 3), "linear")
    rounds = {ours: [], peer: []}
    for fn in rounds:
        jax.block_until_ready(fn())
    for _ in range(repeats):
        for fn, times in rounds.items():  # alternately, so both see the same machine state
            t0 = time.perf_counter()
            for _ in range(200):
                jax.block_until_ready(fn())
            times.append((time.perf_counter() - t0) / 200 * 1e3)
    o, p = (float(np.median(t)) for t in rounds.values())
    return f"| {EAGER_NAME} (per call) | n/a | n/a | {o:.3f} | n/a | n/a | {p:.3f} | warm {o / p:.2f} |"


def first_call_row(name: str, repeats: int) -> str:
    jax_resize.resize(jnp.ones((4, 4), jnp.float32), (2, 2), "linear").block_until_ready()  # warm jax up
    if name == EAGER_NAME:
        return _eager_row(repeats)
    (h, w) = PHOTO_SHAPES[NAMES.index(name)]
    x = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
    compiled = _compile_seconds()
    ours = lambda v: jax_resize.resize(v, (224, 224, 3), "linear", antialias=True)
    peer = lambda v: jax.image.resize(v, (224, 224, 3), "linear", antialias=True)
    rows = []
    for fn in (ours, peer):
        first, compile_s = _first(fn, x, compiled)
        rows.append((first, compile_s, median_ms(lambda fn=fn: jax.block_until_ready(fn(x)), repeats)))
    (of, oc, ow), (pf, pc, pw) = rows
    return f"| {name} | {of:.3f} | {oc:.3f} | {ow:.1f} | {pf:.3f} | {pc:.3f} | {pw:.1f} | {of / pf:.2f} |"
