"""Benchmark jax_resize against its peers on the issue's workloads (not a test).

Prints one Markdown table: for each workload the median wall time (warm, ms) of
jax_resize, jax.image.resize, torch.nn.functional.interpolate (2 threads; the faster of NCHW and
channels-last memory layouts), onnxruntime (Resize, 2 threads), OpenCV ``cv2.resize`` and Pillow
(per image and channel, the bandwidth-bound reference), the ratios of jax_resize to the fastest of
torch/onnxruntime and to jax.image, jax_resize's first call (trace + compile + run), XLA's peak
memory estimate relative to input + output, and ``compiled.cost_analysis()`` flops and bytes
accessed for jax_resize and jax.image (the device-independent picture for GPU/TPU). Each workload
runs in ``--runs`` fresh processes (default 3): the row is the process with the median ratio and
the last two columns list every process's ratios, since page faults and huge-page availability
move single runs by up to 3x on a shared 2-core machine.

Usage: ``python benchmarks/run.py [--repeats 7] [--runs 3] [--only NAME ...] [--output FILE]
[--section tensors|photos|ragged|shrinks|first|streams|all]`` (photos: benchmarks/photos.py, one fresh process per row;
ragged: benchmarks/ragged.py, 64 photos of mixed sizes to one shape, all rows in one fresh process; shrinks:
benchmarks/shrinks.py, first calls of extreme shrinks against jax.image / Pillow, one fresh process per row; first:
benchmarks/first_calls.py, first calls of new photo shapes and small eager calls against jax.image, one fresh
process per row; streams: benchmarks/streams.py, 400 + 100 distinct photo sizes, one fresh default process).
Peers that are not installed are reported as n/a (``pip install -e ".[bench]"`` installs them).
``--output FILE`` also writes the table with its machine line to FILE, replacing it (not
``benchmarks/RESULTS.md``, which is kept by hand: the new table goes into its script's section there,
and the table it replaces into the dated log in ``benchmarks/results/``).

Allocation: every section measures the process a user gets (glibc's default malloc). XLA:CPU (and
torch) allocate every output afresh; glibc serves large buffers with fresh mmap'd 4 KiB pages, so
each call pays first-touch page faults (about 50 ms per 128 MB on the reference machine) that
dominate memory-bound resizes. ``--tuned-malloc`` re-executes the script with
``GLIBC_TUNABLES=glibc.malloc.hugetlb=1`` (glibc >= 2.35: large allocations are madvise'd for
transparent huge pages, 512x fewer faults) — for every library alike, since they share the
process: the tuned process's tables in ``benchmarks/results/cpu_tables.md``. ``--default-malloc`` is
accepted (the default).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import sys
import time

MALLOC_TUNABLES = "glibc.malloc.hugetlb=1"
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")  # kept by hand: not an --output
if "--tuned-malloc" in sys.argv and os.environ.get("GLIBC_TUNABLES") != MALLOC_TUNABLES:
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "GLIBC_TUNABLES": MALLOC_TUNABLES})

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from photos import copy_gbps as memcpy_gbps  # noqa: E402  (shared timing helpers)
from photos import median_ms  # noqa: E402

import jax_resize  # noqa: E402

#: ``--keep-freed-memory``: every process of the run (children too) calls ``jax_resize.keep_freed_memory()``.
KEEP = "--keep-freed-memory"
KEPT = KEEP in sys.argv and jax_resize.keep_freed_memory()

THREADS = 2


@dataclasses.dataclass
class Workload:
    name: str
    in_shape: tuple[int, ...]
    out_hw: tuple[int, int]
    method: str  # "linear" | "cubic" | "nearest"
    antialias: bool = False
    layout: str = "NHWC"
    grad: bool = False

    @property
    def hw_axes(self) -> tuple[int, int]:
        return (1, 2) if self.layout == "NHWC" else (2, 3)

    @property
    def out_shape(self) -> tuple[int, ...]:
        shape = list(self.in_shape)
        for a, s in zip(self.hw_axes, self.out_hw):
            shape[a] = s
        return tuple(shape)


WORKLOADS = [
    Workload("bilinear x2 up 32x224x224x3", (32, 224, 224, 3), (448, 448), "linear"),
    Workload("bilinear aa /4 8x1024x1024x3", (8, 1024, 1024, 3), (256, 256), "linear", antialias=True),
    Workload("bilinear aa 256->224 64x256x256x3", (64, 256, 256, 3), (224, 224), "linear", antialias=True),
    Workload("bicubic 512->384 4x512x512x3", (4, 512, 512, 3), (384, 384), "cubic"),
    Workload("nearest x2 8x256x64x64 NCHW", (8, 256, 64, 64), (128, 128), "nearest", layout="NCHW"),
    Workload("grad of bilinear x2", (32, 224, 224, 3), (448, 448), "linear", grad=True),
    Workload("bilinear 16x300x451x3 -> 224", (16, 300, 451, 3), (224, 224), "linear"),
]


def _ours_fn(w: Workload):
    """jax_resize with the ONNX attributes each peer uses (half_pixel; cubic a=-0.75 as torch)."""
    kw = dict(sizes=list(w.out_hw), axes=list(w.hw_axes), mode=w.method, antialias=int(w.antialias))
    if w.method == "cubic":
        kw["cubic_coeff_a"] = -0.75
    if w.method == "nearest":
        kw["nearest_mode"] = "floor"
        kw["coordinate_transformation_mode"] = "asymmetric"  # torch's 'nearest'
    return lambda v: jax_resize.onnx_resize(v, **kw)


def _jax_image_fn(w: Workload):
    method = {"linear": "linear", "cubic": "cubic", "nearest": "nearest"}[w.method]
    return lambda v: jax.image.resize(v, w.out_shape, method, antialias=w.antialias)


def _jax_timing(w: Workload, fn, x, ct, repeats):
    if w.grad:
        f = jax.jit(lambda v, c: jax.vjp(fn, v)[1](c)[0])
        args = (x, ct)
    else:
        f = jax.jit(fn)
        args = (x,)
    t0 = time.perf_counter()
    jax.block_until_ready(f(*args))
    first = time.perf_counter() - t0
    ms = median_ms(lambda: jax.block_until_ready(f(*args)), repeats)
    compiled = f.lower(*args).compile()
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, (list, tuple)) else cost
    mem = compiled.memory_analysis()
    peak = None
    if mem is not None:
        peak = mem.temp_size_in_bytes + mem.argument_size_in_bytes + mem.output_size_in_bytes
    return ms, first, cost or {}, peak


def _torch_ms(w: Workload, x: np.ndarray, ct: np.ndarray, repeats: int):
    try:
        import torch
    except ImportError:
        return None, ""
    torch.set_num_threads(THREADS)
    mode = {"linear": "bilinear", "cubic": "bicubic", "nearest": "nearest"}[w.method]
    kw = dict(size=w.out_hw, mode=mode)
    if w.method != "nearest":
        kw.update(align_corners=False, antialias=w.antialias)
    base = torch.from_numpy(x)
    layouts = (
        {"NCHW": base}
        if w.layout == "NCHW"
        else {"channels_last": base.permute(0, 3, 1, 2), "NCHW": base.permute(0, 3, 1, 2).contiguous()}
    )
    best, which = None, ""
    for name, t in layouts.items():
        if w.grad:
            t = t.clone().requires_grad_(True)
            g = torch.from_numpy(ct).permute(0, 3, 1, 2)
            g = g.contiguous() if name == "NCHW" else g

            def run(t=t, g=g):
                t.grad = None
                torch.nn.functional.interpolate(t, **kw).backward(g)
        else:

            def run(t=t):
                with torch.no_grad():
                    torch.nn.functional.interpolate(t, **kw)

        ms = median_ms(run, repeats)
        if best is None or ms < best:
            best, which = ms, name
    return best, which


def _ort_ms(w: Workload, x: np.ndarray, repeats: int):
    if w.grad:
        return None
    try:
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError:
        return None
    attrs = dict(mode=w.method, axes=list(w.hw_axes), antialias=int(w.antialias))
    if w.method == "cubic":
        attrs["cubic_coeff_a"] = -0.75
    if w.method == "nearest":
        attrs.update(nearest_mode="floor", coordinate_transformation_mode="asymmetric")
    node = helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"], **attrs)
    graph = helper.make_graph(
        [node],
        "r",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
        initializer=[helper.make_tensor("sizes", TensorProto.INT64, [2], list(w.out_hw))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    opts.inter_op_num_threads = 1
    try:
        sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        return median_ms(lambda: sess.run(None, {"X": x}), repeats)
    except Exception:  # onnxruntime refuses some attribute combinations
        return None


def _cv2_ms(w: Workload, x: np.ndarray, repeats: int):
    if w.grad or w.layout != "NHWC":
        return None
    try:
        import cv2
    except ImportError:
        return None
    cv2.setNumThreads(THREADS)
    interp = {
        "linear": cv2.INTER_AREA if w.antialias else cv2.INTER_LINEAR,
        "cubic": cv2.INTER_CUBIC,
        "nearest": cv2.INTER_NEAREST,
    }[w.method]
    dsize = (w.out_hw[1], w.out_hw[0])
    return median_ms(lambda: [cv2.resize(img, dsize, interpolation=interp) for img in x], repeats)


def _pil_ms(w: Workload, x: np.ndarray, repeats: int):
    if w.grad or w.layout != "NHWC":
        return None
    try:
        from PIL import Image
    except ImportError:
        return None
    resample = {"linear": Image.BILINEAR, "cubic": Image.BICUBIC, "nearest": Image.NEAREST}[w.method]
    planes = [Image.fromarray(np.ascontiguousarray(img[..., c])) for img in x for c in range(x.shape[-1])]
    size = (w.out_hw[1], w.out_hw[0])
    return median_ms(lambda: [p.resize(size, resample) for p in planes], repeats)


def fmt(v, digits=1):
    return "n/a" if v is None else f"{v:.{digits}f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--runs", type=int, default=3, help="fresh processes per workload; the table shows the median run and the range"
    )
    parser.add_argument("--only", nargs="*", help="substrings of workload names to run")
    parser.add_argument(
        "--output", help="also write the table (with machine info) to this Markdown file, replacing it (not RESULTS.md)"
    )
    parser.add_argument("--default-malloc", action="store_true", help="glibc's default malloc (the default)")
    parser.add_argument("--tuned-malloc", action="store_true", help=f"GLIBC_TUNABLES={MALLOC_TUNABLES}")
    parser.add_argument(KEEP, action="store_true", help="call jax_resize.keep_freed_memory() in every process")
    parser.add_argument(
        "--section",
        choices=("tensors", "photos", "ragged", "shrinks", "first", "streams", "all"),
        default="all",
        help="tensors: the float32 batch workloads; photos: uint8 camera photos (benchmarks/photos.py); "
        "ragged: 64 photos of mixed sizes to one shape (benchmarks/ragged.py); "
        "shrinks: first calls of extreme shrinks (benchmarks/shrinks.py); "
        "first: first calls of new photo shapes and small eager calls (benchmarks/first_calls.py); "
        "streams: 400 + 100 distinct photo sizes in a default process (benchmarks/streams.py)",
    )
    parser.add_argument("--workload", help=argparse.SUPPRESS)  # internal: run one workload, print its row
    parser.add_argument("--photo-workload", help=argparse.SUPPRESS)  # internal: one photo workload
    parser.add_argument("--ragged-workload", action="store_true", help=argparse.SUPPRESS)  # internal: ragged rows
    parser.add_argument("--shrink-workload", help=argparse.SUPPRESS)  # internal: one shrink row
    parser.add_argument("--first-workload", help=argparse.SUPPRESS)  # internal: one first-call row
    args = parser.parse_args(argv)
    if args.output and os.path.abspath(args.output) == RESULTS:
        parser.error("--output would replace benchmarks/RESULTS.md, which is kept by hand: write another file")
    if args.first_workload is not None:
        import first_calls

        print(first_calls.first_call_row(args.first_workload, args.repeats), flush=True)
        return 0
    if args.shrink_workload is not None:
        import shrinks

        (w,) = [w for w in shrinks.SHRINKS if w.name == args.shrink_workload]
        print(shrinks.shrink_row(w, args.repeats), flush=True)
        return 0
    if args.ragged_workload:
        import ragged

        for row in ragged.ragged_rows(args.repeats):
            print(row, flush=True)
        return 0
    if args.photo_workload is not None:
        import photos

        (w,) = [w for w in photos.PHOTO_WORKLOADS if w.name == args.photo_workload]
        row, ratio = photos.photo_row(w, args.repeats)
        print(row, flush=True)
        return 0
    if args.workload is None:
        return _run_isolated(args)

    (w,) = [w for w in WORKLOADS if w.name == args.workload]
    row, ratio, ji_ratio = _row(w, args.repeats)
    print(row, flush=True)
    print(f"#ratios {ratio if ratio is not None else 'nan'} {ji_ratio}", flush=True)
    return 0


def _row(w: Workload, repeats: int):
    """Measures one workload with every library; returns its table row, ours / best(torch, ort)
    and jax.image / ours."""
    rng = np.random.default_rng(0)
    x = rng.random(w.in_shape, dtype=np.float32)
    ct = rng.random(w.out_shape, dtype=np.float32) if w.grad else None
    xj = jnp.asarray(x)
    ctj = jnp.asarray(ct) if ct is not None else None
    ours, first, cost, peak = _jax_timing(w, _ours_fn(w), xj, ctj, repeats)
    ji, _, jcost, _ = _jax_timing(w, _jax_image_fn(w), xj, ctj, repeats)
    torch_ms, torch_layout = _torch_ms(w, x, ct, repeats)
    ort_ms = _ort_ms(w, x, repeats)
    cv_ms = _cv2_ms(w, x, repeats)
    pil_ms = _pil_ms(w, x, repeats)
    # bytes of the jitted function's inputs and outputs: (x) -> y, or (x, cotangent) -> dx
    in_out = x.nbytes + int(np.prod(w.out_shape)) * 4 + (x.nbytes if w.grad else 0)
    floor_ms = in_out / (memcpy_gbps() * 1e9) * 1e3  # bytes read + written once at the copy rate
    peers = [v for v in (torch_ms, ort_ms) if v is not None]
    ratio = ours / min(peers) if peers else None
    return (
        (
            f"| {w.name} | {fmt(ours)} | {fmt(ji)} | "
            f"{fmt(torch_ms)}{' (' + torch_layout + ')' if torch_layout else ''} | "
            f"{fmt(ort_ms)} | {fmt(cv_ms)} | {fmt(pil_ms)} | {fmt(floor_ms)} | {fmt(ratio, 2)} | {fmt(ji / ours, 2)} | "
            f"{fmt(first, 2)} | {fmt(peak / in_out if peak else None, 2)} | "
            f"{fmt(cost.get('flops', 0) / 1e9, 2)} / {fmt(jcost.get('flops', 0) / 1e9, 2)} | "
            f"{fmt(cost.get('bytes accessed', 0) / 1e9, 2)} / {fmt(jcost.get('bytes accessed', 0) / 1e9, 2)} |"
        ),
        ratio,
        ji / ours,
    )


def _machine(bw: float, repeats: int, runs: int, section: str = "tensors") -> str:
    if section == "tensors":
        how = (
            f"each workload measured in {runs} fresh processes (allocator state does not leak between "
            "them), all libraries of a row in the same process; the row shows the process with the median "
            "ours / best ratio, the last two columns every process's ratios, sorted"
        )
    elif section == "all":
        how = (
            f"tensors: each workload in {runs} fresh processes (the row: the median ratio; the last two "
            "columns: every process's ratios); photos, shrinks and first: one fresh process per row; ragged: one "
            "process; streams: one fresh default process (no GLIBC_TUNABLES)"
        )
    else:
        how = {
            "photos": "photos: one fresh process per row",
            "ragged": "ragged: one process for the section",
            "shrinks": "shrinks: one fresh process per row",
            "first": "first: one fresh process per row",
            "streams": "streams: one fresh default process (no GLIBC_TUNABLES)",
        }[section]
    return (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, {platform.system()}; "
        f"jax {jax.__version__} on {jax.default_backend()}; measured copy bandwidth {bw:.1f} GB/s "
        f"(read + write); {THREADS} threads for torch/onnxruntime/OpenCV; medians of {repeats} warm calls; "
        f"GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '(default)')}; keep_freed_memory: {KEPT}; XLA_FLAGS="
        f"{os.environ.get('XLA_FLAGS') or '(default)'}; {how}"
    )


def _run_isolated(args) -> int:
    """Runs each workload in a fresh interpreter and assembles the table."""
    import subprocess

    header = (
        "| workload | jax_resize ms | jax.image ms | torch ms | onnxruntime ms | OpenCV ms | Pillow ms | "
        "copy floor ms | ours / best(torch, ort) | jax.image / ours | first call s | peak mem / (in+out) | "
        "GFLOP ours / jax.image | GB accessed ours / jax.image | ours / best, all runs | "
        "jax.image / ours, all runs |"
    )
    rows = [header, "|" + "|".join(["---"] * (header.count("|") - 1)) + "|"]
    for w in WORKLOADS if args.section in ("tensors", "all") else []:
        if args.only and not any(s in w.name for s in args.only):
            continue
        cmd = [sys.executable, os.path.abspath(__file__), "--workload", w.name, "--repeats", str(args.repeats)]
        cmd += [KEEP] if KEPT else []
        if args.default_malloc:
            cmd.append("--default-malloc")
        runs = []  # (ratio, ji_ratio, row) per fresh process
        for _ in range(max(1, args.runs)):
            out = subprocess.run(cmd, capture_output=True, text=True)
            row = [line for line in out.stdout.splitlines() if line.startswith("| ")]
            stats = [line.split()[1:] for line in out.stdout.splitlines() if line.startswith("#ratios")]
            if not row or not stats:
                runs = None
                rows.append(f"| {w.name} | failed: {out.stderr.strip().splitlines()[-1:]} |")
                break
            runs.append((float(stats[-1][0]), float(stats[-1][1]), row[-1]))
        if runs:
            ratios = sorted(r for r, _, _ in runs)
            ji = sorted(j for _, j, _ in runs)
            median_run = sorted(runs, key=lambda r: (np.isnan(r[0]), r[0]))[(len(runs) - 1) // 2]
            spread = lambda v: "n/a" if np.isnan(v[0]) else (", ".join(f"{x:.2f}" for x in v))
            rows.append(f"{median_run[2]} {spread(ratios)} | {spread(ji)} |")
        print(rows[-1], flush=True)
    if args.section not in ("tensors", "all"):
        rows = []
    if args.section in ("photos", "all"):
        rows += ["", *_photo_rows(args)]
    if args.section in ("ragged", "all"):
        rows += ["", *_ragged_rows(args)]
    if args.section in ("shrinks", "all"):
        rows += ["", *_shrink_rows(args)]
    if args.section in ("first", "all"):
        rows += ["", *_first_call_rows(args)]
    if args.section in ("streams", "all"):
        rows += ["", *_stream_rows(args)]
    machine = _machine(memcpy_gbps(), args.repeats, max(1, args.runs), args.section)
    table = "\n".join(rows)
    print()
    print(table)
    print()
    print(machine)
    if args.output:
        with open(args.output, "w") as f:
            f.write("# Benchmark results\n\n`python benchmarks/run.py` on: " + machine + ".\n\n" + table + "\n")
    return 0


def _fresh_process_rows(args, header: str, names, flag: str) -> list[str]:
    """A section whose rows each run in a fresh process (``run.py <flag> NAME``), once."""
    import subprocess

    rows = [header, "|" + "|".join(["---"] * (header.count("|") - 1)) + "|"]
    for name in names:
        if args.only and not any(s in name for s in args.only):
            continue
        cmd = [sys.executable, os.path.abspath(__file__), flag, name, "--repeats", str(args.repeats)]
        cmd += [KEEP] if KEPT else []
        out = subprocess.run(cmd, capture_output=True, text=True)
        row = [line for line in out.stdout.splitlines() if line.startswith("| ")]
        rows.append(row[-1] if row else f"| {name} | failed: {out.stderr.strip().splitlines()[-1:]} |")
        print(rows[-1], flush=True)
    return rows


def _photo_rows(args) -> list[str]:
    """The photos section (benchmarks/photos.py): each workload in a fresh process, once."""
    import photos

    return _fresh_process_rows(args, photos.PHOTO_HEADER, [w.name for w in photos.PHOTO_WORKLOADS], "--photo-workload")


def _ragged_rows(args) -> list[str]:
    """The ragged section (benchmarks/ragged.py): every row in one fresh process, once."""
    import subprocess

    import ragged

    rows = [ragged.RAGGED_HEADER, "|" + "|".join(["---"] * (ragged.RAGGED_HEADER.count("|") - 1)) + "|"]
    if args.only and not any(s in ragged.NAME for s in args.only):
        return rows
    cmd = [sys.executable, os.path.abspath(__file__), "--ragged-workload", "--repeats", str(args.repeats)]
    cmd += [KEEP] if KEPT else []
    if args.default_malloc:
        cmd.append("--default-malloc")
    out = subprocess.run(cmd, capture_output=True, text=True)
    found = [line for line in out.stdout.splitlines() if line.startswith("| ")]
    rows += found or [f"| {ragged.NAME} | failed: {out.stderr.strip().splitlines()[-1:]} |"]
    for row in rows[2:]:
        print(row, flush=True)
    return rows


def _first_call_rows(args) -> list[str]:
    """The first section (benchmarks/first_calls.py): each row in a fresh process (a real first call)."""
    import first_calls

    return _fresh_process_rows(args, first_calls.HEADER, first_calls.NAMES, "--first-workload")


def _stream_rows(args) -> list[str]:
    """The streams section (benchmarks/streams.py), in a fresh default process: no ``GLIBC_TUNABLES``, as a user
    runs it, whatever the other sections use."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "streams.py")
    out = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env)
    rows = out.stdout.splitlines()[1:]  # the tables and lines after the title line
    rows = rows or [f"| streams | failed: {out.stderr.strip().splitlines()[-1:]} |"]
    for row in rows:
        print(row, flush=True)
    return rows


def _shrink_rows(args) -> list[str]:
    """The shrinks section (benchmarks/shrinks.py): each row in a fresh process (a real first call)."""
    import shrinks

    return _fresh_process_rows(args, shrinks.SHRINK_HEADER, [w.name for w in shrinks.SHRINKS], "--shrink-workload")


if __name__ == "__main__":
    main()
