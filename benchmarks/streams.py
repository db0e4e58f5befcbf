"""The "streams" section: a stream of differently sized photos, as a notebook or a service meets them.

``python benchmarks/streams.py [--shapes 400] [--pil-shapes 100] [--seed 35] [--warm-sample 8]
[--rules 150] [--warm] [--record FILE] [--candidate FIELD=VALUE,...]`` runs in the process it is given
(run it without ``GLIBC_TUNABLES`` for the default process a user gets;
``--candidate`` plans with the default backend's tuning row so changed, for an A/B of
two processes). For each call of the stream — ``resize(uint8 photo, (224, 224, 3), "linear", antialias=True)``
on ``--shapes`` distinct sizes (64-1600 px a side), then ``resize(..., "pil_bilinear")`` on ``--pil-shapes``
more — it records:

- XLA compilations, counted with ``jax.monitoring`` (``/jax/core/compile/backend_compile_duration`` events);
- the process's resident memory (``/proc/self/statm``) after calls 100, 400 and the last of the first stream;
- the wall time of each call (host planning, trace, compile, run); its mean against the warm cost of the stream's
  shapes: the mean, over ``--warm-sample`` of them evenly spaced, of a same-shape call once its own program runs.

``--rules N`` (default 150; 0 skips) then runs issue 53's output rules (:data:`RULES`: fixed 224x224 and
shorter edge 256 with linear antialias, half size with ``pil_bicubic``) on N uint8 photo crops of 300-2000 px a
side, with Pillow and torch uint8 (channels-last) on the same images in the same process: ms per image and
programs compiled; ``--record FILE`` also writes those streams photo by photo as JSON, which
``benchmarks/plot_streams.py`` draws (the performance guide's figure); ``--warm`` then times the same
photos warm, in their shared programs and in each shape's own program (``exact_shapes()``);
``--enlarge`` runs :data:`ENLARGE` (the photos enlarged x1.5) instead of the rules.

The photo is a real one (``../shared/data/coffee.png``, else the bundled astronaut) enlarged once to 1600x1600;
each call reads a contiguous crop of it.

``--cli N`` (default 100; 0 skips) then writes N JPEGs of distinct sizes (300-2400 px a side, crops of the four
shared photos, every fifth EXIF-rotated) and times, each in a fresh process, ``jax-resize DIR OUT --size 224x224``
with an empty persistent compilation cache, again with that cache kept, and a single-threaded Pillow loop doing the
same work (``exif_transpose``, ``BILINEAR``, JPEG quality 95); and the import time of ``jax_resize``.
``--cli-rule`` gives the outputs instead: ``scale 0.5`` or ``shorter edge 256`` (:data:`CLI_RULES`).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import device_check  # its tuning-row candidates (light at import)
import numpy as np
from photos import median_ms  # shared timing helper (benchmarks/ on sys.path, as run.py has it)

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
    for _ in range(3):  # its own program from the fourth call (exact_after)
        call()
    return median_ms(call, repeats)


def warm_cost_ms(method: str, photo, shapes, k: int) -> float:
    """A stream's warm cost: the mean of :func:`warm_ms` over ``k`` of its ``shapes``, evenly spaced."""
    k = min(k, len(shapes))
    return statistics.fmean(warm_ms(method, photo, shapes[i * len(shapes) // k]) for i in range(k))


_PILLOW_LOOP = """
import pathlib, sys
from PIL import Image, ImageOps
src, dst = map(pathlib.Path, sys.argv[1:3])
dst.mkdir(exist_ok=True)
for path in sorted(src.iterdir()):
    with Image.open(path) as img:
        img = ImageOps.exif_transpose(img).convert("RGB")
        img.resize(SIZE, Image.Resampling.BILINEAR).save(dst / path.name, quality=95)
"""
#: The command's output rules for ``--cli-rule``: its arguments, and the Pillow loop's output size
#: (an expression of ``img``: ONNX Resize's sizes, floor of the scaled size, and the
#: ``not_smaller`` policy's rounded one).
CLI_RULES = {
    "224x224": (["--size", "224x224"], "(224, 224)"),
    "scale 0.5": (["--scale", "0.5"], "(img.width // 2, img.height // 2)"),
    "shorter edge 256": (
        ["--size", "256", "--keep-aspect-ratio-policy", "not_smaller"],
        "tuple(round(n * max(256 / img.width, 256 / img.height)) for n in img.size)",
    ),
}


def write_folder(folder: pathlib.Path, count: int, seed: int = 37) -> None:
    """``count`` JPEGs of distinct sizes from the shared photos (every fifth with EXIF orientation 6)."""
    from PIL import Image

    data = HERE.parents[1] / "shared" / "data"
    names = [p for p in sorted(data.glob("*.png")) if p.name != "camera.png"] or [_photo_path()]
    sources = [Image.open(p).convert("RGB").resize((2400, 2400), Image.Resampling.BICUBIC) for p in names]
    for i, (h, w) in enumerate(distinct_shapes(count, seed, lo=300, hi=2400)):
        img = sources[i % len(sources)].crop((0, 0, w, h))
        exif = Image.Exif()
        if i % 5 == 0:
            exif[0x0112] = 6  # rotate 90 degrees on display
        img.save(folder / f"{i:03d}.jpg", quality=92, exif=exif)


def _timed(cmd, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, capture_output=True)
    return time.perf_counter() - t0


def cli_rows(count: int, rounds: int = 3, rule: str = "224x224") -> list[str]:
    """The CLI on a mixed folder against the Pillow loop, each in a fresh default process; ``rounds``
    rounds (each with an empty cache first), medians and ranges; ``rule`` names the outputs
    (:data:`CLI_RULES`)."""
    arguments, size = CLI_RULES[rule]
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    runs: dict = {"first": [], "cached": [], "pillow": [], "bare": [], "import": [], "jax": []}
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "in").mkdir()
        write_folder(root / "in", count)
        for r in range(rounds):
            env["JAX_COMPILATION_CACHE_DIR"] = str(root / f"cache{r}")
            cli = [sys.executable, "-m", "jax_resize", str(root / "in"), *arguments, "--quiet"]
            runs["first"].append(_timed([*cli[:4], str(root / f"a{r}"), *cli[4:]], env))
            runs["cached"].append(_timed([*cli[:4], str(root / f"b{r}"), *cli[4:]], env))
            # the cached run's stored programs must reproduce the first run's files byte for byte
            differ += sum((root / f"a{r}" / p.name).read_bytes() != p.read_bytes() for p in (root / f"b{r}").iterdir())
            loop = [sys.executable, "-c", _PILLOW_LOOP.replace("SIZE", size), str(root / "in"), str(root / f"c{r}")]
            runs["pillow"].append(_timed(loop, env))
            runs["bare"].append(_timed([sys.executable, "-c", "pass"], env))
            runs["import"].append(_timed([sys.executable, "-c", "import jax_resize"], env))
            runs["jax"].append(_timed([sys.executable, "-c", "import jax, jax.numpy"], env))
    med = {k: statistics.median(v) for k, v in runs.items()}

    def cell(key):
        v = runs[key]
        paired = sorted(a / b for a, b in zip(v, runs["pillow"]))  # each round against its own Pillow run
        return (
            f"{med[key]:.2f} ({min(v):.2f}-{max(v):.2f}) | {med[key] / med['pillow']:.2f}x | "
            f"{', '.join(f'{r:.2f}' for r in paired)}"
        )

    return [
        f"CLI on {count} JPEGs of distinct sizes (300-2400 px, every fifth EXIF-rotated) -> {rule}, fresh processes,"
        f" median of {rounds} rounds (range)",
        "| run | seconds | / Pillow loop | per round / that round's Pillow loop |",
        "| --- | --- | --- | --- |",
        f"| jax-resize, empty compilation cache | {cell('first')} |",
        f"| jax-resize, cache kept | {cell('cached')} |",
        f"| single-threaded Pillow loop | {cell('pillow')} |",
        f"import jax_resize {med['import'] - med['bare']:.2f} s (jax alone {med['jax'] - med['bare']:.2f} s; "
        f"python {med['bare']:.2f} s)",
        f"files of the cached runs that differ from the first runs' (stored programs): {differ} of {count * rounds}",
    ]


#: The output rules of issue 53's stream: ``name -> (h, w) -> ((out_h, out_w), jax_resize method, peer filter)``.
RULES = {
    "fixed 224x224, linear antialias": lambda h, w: ((224, 224), "linear", "bilinear"),
    "shorter edge 256, linear antialias": lambda h, w: (_shorter_edge(h, w, 256), "linear", "bilinear"),
    "half size, pil_bicubic": lambda h, w: ((h // 2, w // 2), "pil_bicubic", "bicubic"),
}


#: Enlargements for ``--enlarge``: the same photos one and a half times their size (output grid of
#: ``bucket_out_ratio``, not the shrinks' ``bucket_out_ratio_shrink``).
ENLARGE = {
    "x1.5, linear": lambda h, w: ((h * 3 // 2, w * 3 // 2), "linear", "bilinear"),
    "x1.5, pil_bicubic": lambda h, w: ((h * 3 // 2, w * 3 // 2), "pil_bicubic", "bicubic"),
}


def _shorter_edge(h: int, w: int, n: int) -> tuple[int, int]:
    """torchvision's ``Resize(n)``: the shorter edge to ``n``, the other by ``int(n * long / short)``."""
    return (n, int(n * w / h)) if h <= w else (int(n * h / w), n)


def rule_rows(count: int, seed: int = 53, record: dict | None = None, rules: dict = RULES) -> list[str]:
    """Each rule of ``rules`` (:data:`RULES`) on ``count`` uint8 photo crops of sizes drawn uniformly in 300-2000 px
    a side, in this process (compilations included): ms per image of jax_resize, Pillow and torch uint8
    (channels-last, antialias), and the XLA programs compiled. ``record``, where given, receives per
    rule the stream photo by photo (:func:`_record`): what ``plot_streams.py`` draws."""
    import jax
    import torch
    from PIL import Image

    import jax_resize

    compiles = [0]
    jax.monitoring.register_event_duration_secs_listener(
        lambda event, duration, **kw: compiles.__setitem__(0, compiles[0] + (event == _COMPILE_EVENT))
    )
    photo = _photo(2000)
    jax_resize.resize(np.zeros((4, 4, 3), np.uint8), (2, 2, 3), "linear").block_until_ready()  # jax warmed up
    shapes = distinct_shapes(count, seed, lo=300, hi=2000)
    rows = [
        f"{count} uint8 photos, sides uniform in 300-2000 px (seed {seed}), compilations included",
        "| rule | jax_resize ms / image | Pillow ms | torch uint8 ms | jax_resize / Pillow | programs |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    filters = {"bilinear": Image.Resampling.BILINEAR, "bicubic": Image.Resampling.BICUBIC}
    for name, rule in rules.items():
        before, spent = compiles[0], {"jax": 0.0, "pil": 0.0, "torch": 0.0}
        calls = record.setdefault(name, []) if record is not None else None
        for h, w in shapes:
            x = np.ascontiguousarray(photo[:h, :w])
            (oh, ow), method, peer = rule(h, w)
            t0 = time.perf_counter()
            _resized(x, (oh, ow), method)
            t1 = time.perf_counter()
            Image.fromarray(x).resize((ow, oh), filters[peer])
            t2 = time.perf_counter()
            t = torch.from_numpy(x).permute(2, 0, 1)[None]  # NCHW view of HWC memory: channels-last
            torch.nn.functional.interpolate(t, size=(oh, ow), mode=peer, antialias=True)
            t3 = time.perf_counter()
            spent["jax"] += t1 - t0
            spent["pil"] += t2 - t1
            spent["torch"] += t3 - t2
            if calls is not None:
                calls.append(_record((h, w), (oh, ow), t1 - t0, t2 - t1, t3 - t2, compiles[0] - before))
        ms = {k: v / count * 1e3 for k, v in spent.items()}
        rows.append(
            f"| {name} | {ms['jax']:.1f} | {ms['pil']:.1f} | {ms['torch']:.2f} | {ms['jax'] / ms['pil']:.2f}x "
            f"| {compiles[0] - before} |"
        )
    return rows


def _resized(x, out: tuple[int, int], method: str):
    """The rules' jax_resize call on an ``[h, w, 3]`` photo (linear antialiased), its result ready."""
    import jax

    import jax_resize

    kw = {"antialias": True} if method == "linear" else {}
    return jax.block_until_ready(jax_resize.resize(x, (*out, 3), method, **kw))


def warm_rows(count: int, seed: int = 53, rules: dict = RULES) -> list[str]:
    """Each rule of ``rules`` (:data:`RULES`) on the photos of :func:`rule_rows`, warm: the stream once to compile,
    then again (second calls of each signature: their shared programs), then twice inside
    ``exact_shapes()`` (each shape's own program, the second pass timed). Mean ms per image."""

    import jax_resize

    photo = _photo(2000)
    shapes = distinct_shapes(count, seed, lo=300, hi=2000)

    def stream(name: str) -> float:
        t0 = time.perf_counter()
        for h, w in shapes:
            out, method, _ = rules[name](h, w)
            _resized(np.ascontiguousarray(photo[:h, :w]), out, method)
        return (time.perf_counter() - t0) / count * 1e3

    rows = [
        f"the same {count} photos warm (seed {seed}): mean ms per image",
        "| rule | shared programs ms | own programs ms | shared / own |",
        "| --- | --- | --- | --- |",
    ]
    for name in rules:
        stream(name)
        shared = stream(name)
        with jax_resize.exact_shapes():
            stream(name)
            own = stream(name)
        rows.append(f"| {name} | {shared:.1f} | {own:.1f} | {shared / own:.2f}x |")
    return rows


def _record(size, out, jax_s: float, pil_s: float, torch_s: float, programs: int) -> dict:
    """One photo of a rule's stream: its size and output size, each library's ms, and the programs
    jax_resize had compiled for the rule so far (this call's included)."""
    return {
        "size": list(size),
        "out": list(out),
        "jax_resize_ms": round(jax_s * 1e3, 3),
        "pillow_ms": round(pil_s * 1e3, 3),
        "torch_ms": round(torch_s * 1e3, 3),
        "programs": programs,
    }


def _recorded_json(meta: dict, record: dict) -> str:
    """``{"meta": meta, "rules": record}`` as JSON with one photo per line (a readable diff)."""
    rules = ",\n".join(
        f" {json.dumps(name)}: [\n" + ",\n".join(f"  {json.dumps(call)}" for call in calls) + "\n ]"
        for name, calls in record.items()
    )
    return f'{{"meta": {json.dumps(meta)},\n"rules": {{\n{rules}\n}}}}\n'


def _photo_path() -> pathlib.Path:
    return HERE.parent / "jax_resize" / "data" / "astronaut.png"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", type=int, default=400)
    parser.add_argument("--pil-shapes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--warm-sample", type=int, default=8, help="shapes of each stream timed warm (their mean)")
    parser.add_argument("--cli", type=int, default=100, help="JPEGs in the CLI's mixed folder (0: skip)")
    parser.add_argument("--rules", type=int, default=150, help="photo sizes of each output rule's stream (0: skip)")
    parser.add_argument("--rounds", type=int, default=3, help="CLI rounds, each in fresh processes")
    parser.add_argument("--cli-rule", choices=list(CLI_RULES), default="224x224", help="the command's outputs")
    parser.add_argument("--enlarge", action="store_true", help="the rules' photos enlarged instead (ENLARGE)")
    parser.add_argument("--warm", action="store_true", help="then the rules' photos warm: shared and own programs")
    parser.add_argument(
        "--record",
        type=pathlib.Path,
        metavar="FILE",
        help="write the rules' streams photo by photo to FILE (JSON; benchmarks/plot_streams.py draws it)",
    )
    parser.add_argument(
        "--candidate",
        type=device_check.candidate_arg,
        metavar="FIELD=VALUE,...",
        help="the streams planned with the default backend's tuning row so changed (e.g. bucket_ratio=6.0); "
        "run it in its own process against one without (not with --cli: the command runs in its own process)",
    )
    args = parser.parse_args(argv)
    if args.warm_sample < 1:
        parser.error(f"--warm-sample must be at least 1; got {args.warm_sample}")
    if args.candidate and args.cli:
        parser.error("--candidate applies to the streams in this process only: give --cli 0 with it")

    import jax

    compiles = [0]

    def listener(event, duration, **kwargs):
        if event == _COMPILE_EVENT:
            compiles[0] += 1

    process = os.environ.get("GLIBC_TUNABLES") or "default process"
    row = f"; tuning row changed by {args.candidate}" if args.candidate else ""
    print(f"streams ({process}; jax {jax.__version__}; {os.cpu_count()} CPUs{row})")
    if args.shapes:
        with device_check.candidate_row(jax, args.candidate or {}):
            _streams(args, compiles, listener)
    if args.rules:
        record: dict = {}
        with device_check.candidate_row(jax, args.candidate or {}):
            rules = ENLARGE if args.enlarge else RULES
            print("\n".join(["", *rule_rows(args.rules, record=record, rules=rules)]))
        if args.warm:
            with device_check.candidate_row(jax, args.candidate or {}):
                print("\n".join(["", *warm_rows(args.rules, rules=rules)]))
        if args.record:
            meta = {"command": " ".join(["python benchmarks/streams.py", *(argv or sys.argv[1:])]), "process": process}
            meta.update(jax=jax.__version__, cpus=os.cpu_count(), date=time.strftime("%Y-%m-%d"))
            args.record.write_text(_recorded_json(meta, record))
    if args.cli:
        print("\n".join(["", *cli_rows(args.cli, args.rounds, args.cli_rule)]))
    return 0


def _streams(args, compiles, listener) -> None:
    import jax

    jax.monitoring.register_event_duration_secs_listener(listener)
    photo = _photo()
    import jax_resize

    jax_resize.resize(np.zeros((4, 4, 3), np.uint8), (2, 2, 3), "linear").block_until_ready()  # jax warmed up
    shapes = distinct_shapes(args.shapes, args.seed)
    pil_shapes = distinct_shapes(args.pil_shapes, args.seed + 1, exclude=shapes)
    n = len(shapes)
    marks = tuple(sorted({min(100, n), min(400, n), n}))
    linear = run_stream(shapes, "linear", photo, compiles, rss_at=marks)
    pil = run_stream(pil_shapes, "pil_bilinear", photo, compiles)
    print(
        "| stream | calls | XLA compilations | memory MB (calls " + " -> ".join(map(str, marks)) + ") | mean call ms "
        f"| warm same-shape ms (mean of {args.warm_sample} of its shapes) | mean / warm |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, res, m, stream in (
        ("linear aa -> 224", linear, "linear", shapes),
        ("pil_bilinear -> 224", pil, "pil_bilinear", pil_shapes),
    ):
        if not stream:
            continue
        warm = warm_cost_ms(m, photo, stream, args.warm_sample)  # its own shapes' warm cost, not one shape's
        mean = statistics.fmean(res["times"]) * 1e3
        mem = " -> ".join(f"{v:.0f}" for v in res["rss"].values()) or "n/a"
        print(f"| {name} | {len(stream)} | {res['compiles']} | {mem} | {mean:.1f} | {warm:.2f} | {mean / warm:.1f}x |")


if __name__ == "__main__":
    raise SystemExit(main())
