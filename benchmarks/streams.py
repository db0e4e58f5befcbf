"""The "streams" section: a stream of differently sized photos, as a notebook or a service meets them.

``python benchmarks/streams.py [--shapes 400] [--pil-shapes 100] [--seed 35]`` runs in the process it is given
(run it without ``GLIBC_TUNABLES`` for the default process a user gets). For each call of the stream
— ``resize(uint8 photo, (224, 224, 3), "linear", antialias=True)`` on ``--shapes`` distinct sizes (64-1600 px a
side), then ``resize(..., "pil_bilinear")`` on ``--pil-shapes`` more — it records:

- XLA compilations, counted with ``jax.monitoring`` (``/jax/core/compile/backend_compile_duration`` events);
- the process's resident memory (``/proc/self/statm``) after calls 100 and 400 of the first stream;
- the wall time of each call (host planning, trace, compile, run), its mean against a warm same-shape call.

The photo is a real one (``../shared/data/coffee.png``, else the bundled astronaut) enlarged once to 1600x1600;
each call reads a contiguous crop of it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _photo(side: int = 1600) -> np.ndarray:
    from PIL import Image

    path = HERE.parents[1] / "shared" / "data" / "coffee.png"
    if not path.is_file():
        path = HERE.parent / "jax_resize" / "data" / "astronaut.png"
    return np.asarray(Image.open(path).convert("RGB").resize((side, side), Image.Resampling.LANCZOS))


def distinct_shapes(count: int, seed: int, lo: int = 64, hi: int = 1600, exclude=()) -> list[tuple[int, int]]:
    """``count`` distinct ``(h, w)`` with sides in ``[lo, hi]``, from a fixed seed."""
    rng = np.random.default_rng(seed)
    seen, out = set(exclude), []
    while len(out) < count:
        hw = (int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1)))
        if hw not in seen:
            seen.add(hw)
            out.append(hw)
    return out


def run_stream(shapes, method: str, photo, compiles: list, *, rss_at=()) -> dict:
    """Times each call of the stream; returns per-call seconds, compilations and memory marks."""
    import jax

    import jax_resize

    times, rss = [], {}
    before = compiles[0]
    for i, (h, w) in enumerate(shapes, 1):
        x = np.ascontiguousarray(photo[:h, :w])
        t0 = time.perf_counter()
        jax.block_until_ready(jax_resize.resize(x, (224, 224, 3), method, antialias=True))
        times.append(time.perf_counter() - t0)
        if i in rss_at:
            rss[i] = _rss_mb()
    return {"times": times, "compiles": compiles[0] - before, "rss": rss}


def warm_ms(method: str, photo, shape, repeats: int = 21) -> float:
    import jax

    import jax_resize

    x = np.ascontiguousarray(photo[: shape[0], : shape[1]])
    call = lambda: jax.block_until_ready(jax_resize.resize(x, (224, 224, 3), method, antialias=True))  # noqa: E731
    call()
    call()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", type=int, default=400)
    parser.add_argument("--pil-shapes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args(argv)

    import jax

    compiles = [0]

    def listener(event, duration, **kwargs):
        if event == _COMPILE_EVENT:
            compiles[0] += 1

    jax.monitoring.register_event_duration_secs_listener(listener)
    photo = _photo()
    import jax_resize

    jax_resize.resize(np.zeros((4, 4, 3), np.uint8), (2, 2, 3), "linear").block_until_ready()  # jax warmed up
    shapes = distinct_shapes(args.shapes, args.seed)
    pil_shapes = distinct_shapes(args.pil_shapes, args.seed + 1, exclude=shapes)
    marks = (100, 400) if args.shapes >= 400 else (min(100, args.shapes), args.shapes)
    linear = run_stream(shapes, "linear", photo, compiles, rss_at=marks)
    pil = run_stream(pil_shapes, "pil_bilinear", photo, compiles)
    warm = {m: warm_ms(m, photo, shapes[0]) for m in ("linear", "pil_bilinear")}
    process = os.environ.get("GLIBC_TUNABLES") or "default process"
    print(f"streams ({process}; jax {jax.__version__}; {os.cpu_count()} CPUs)")
    print(
        "| stream | calls | XLA compilations | memory MB (call 100 -> last) | mean call ms | warm same-shape ms "
        "| mean / warm |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, res, m in (("linear aa -> 224", linear, "linear"), ("pil_bilinear -> 224", pil, "pil_bilinear")):
        mean = statistics.fmean(res["times"]) * 1e3
        mem = " -> ".join(f"{v:.0f}" for v in res["rss"].values()) or "n/a"
        calls, ratio = len(res["times"]), mean / warm[m]
        print(f"| {name} | {calls} | {res['compiles']} | {mem} | {mean:.1f} | {warm[m]:.2f} | {ratio:.0f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
