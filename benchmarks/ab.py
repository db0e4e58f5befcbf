"""A/B: jax_resize at a base revision against the working tree, alternately, one fresh process per run.

``python benchmarks/ab.py --base REV [--rounds 5] [--repeats 7] [--only SUBSTRING ...] [--tuned-malloc]``

The base revision is checked out with ``git worktree`` into a temporary folder; each run imports
``jax_resize`` from one tree (``PYTHONPATH``, checked in the child) and times one workload of the
tensors, photos, first-call and shrinks sections (their definitions come from ``run.py``,
``photos.py``, ``first_calls.py`` and ``shrinks.py``): the first call (trace + compile + run) and
the median warm call. Rounds alternate the order A, B / B, A. A row is flagged ``slower`` when the
working tree's best round is slower than the base's worst (outside the run-to-run spread), and its
warm median is 5% or more above the base's. Like ``run.py``, runs use
the default malloc (``GLIBC_TUNABLES=glibc.malloc.hugetlb=1`` with ``--tuned-malloc``).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
MALLOC_TUNABLES = "glibc.malloc.hugetlb=1"


def workloads() -> list[tuple[str, str]]:
    """``(section, name)`` of every row timed."""
    sys.path.insert(0, str(HERE))
    sys.argv.append("--default-malloc")
    import first_calls
    import photos
    import run
    import shrinks

    sys.argv.remove("--default-malloc")
    rows = [("tensors", w.name) for w in run.WORKLOADS]
    rows += [("photos", w.name) for w in photos.PHOTO_WORKLOADS]
    rows += [("first", n) for n in first_calls.NAMES if n != first_calls.EAGER_NAME]
    rows += [("shrinks", w.name) for w in shrinks.SHRINKS]
    return rows


def _timed(fn, arg, repeats: int) -> dict:
    import jax

    t0 = time.perf_counter()
    jax.block_until_ready(fn(arg))
    first = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(arg))
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"first_s": first, "warm_ms": times[len(times) // 2] * 1e3}


def child(section: str, name: str, repeats: int) -> dict:
    """Times one row with the ``jax_resize`` on ``sys.path`` (the tree under test)."""
    sys.path.insert(0, str(HERE))
    sys.argv.append("--default-malloc")  # the parent chose the allocation already
    import jax
    import jax.numpy as jnp
    import numpy as np

    import jax_resize

    jax_resize.resize(jnp.ones((4, 4), jnp.float32), (2, 2), "linear").block_until_ready()  # warm jax up
    rng = np.random.default_rng(0)
    if section == "tensors":
        import run

        w = next(w for w in run.WORKLOADS if w.name == name)
        fn = run._ours_fn(w)
        x = jnp.asarray(rng.random(w.in_shape).astype(np.float32))
        if w.grad:
            ct = jnp.asarray(rng.random(w.out_shape).astype(np.float32))
            f = jax.jit(lambda v: jax.vjp(fn, v)[1](ct)[0])
        else:
            f = jax.jit(fn)
        out = _timed(f, x, repeats)
    elif section == "photos":
        import photos

        w = next(w for w in photos.PHOTO_WORKLOADS if w.name == name)
        x = photos.photo(*w.in_hw)
        x = jnp.asarray(x.astype(np.float32) if w.dtype == "float32" else x)
        out = _timed(photos._ours(w, "auto"), x, repeats)
    elif section == "first":
        import first_calls

        h, wd = first_calls.PHOTO_SHAPES[first_calls.NAMES.index(name)]
        x = rng.integers(0, 256, (h, wd, 3), dtype=np.uint8)
        out = _timed(lambda v: jax_resize.resize(v, (224, 224, 3), "linear", antialias=True), x, repeats)
    else:
        import shrinks

        w = next(w for w in shrinks.SHRINKS if w.name == name)
        uint8 = w.method.startswith("pil_")
        x = (rng.random(w.in_shape) * (255 if uint8 else 1)).astype(np.uint8 if uint8 else np.float32)
        out = _timed(shrinks._ours(w), jnp.asarray(x), repeats)
    out["module"] = jax_resize.__file__
    return out


def _run(tree: pathlib.Path, section: str, name: str, repeats: int, env: dict) -> dict:
    cmd = [sys.executable, str(HERE / "ab.py"), "--child", section, name, "--repeats", str(repeats)]
    proc = subprocess.run(cmd, env={**env, "PYTHONPATH": str(tree)}, capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if not pathlib.Path(result["module"]).is_relative_to(tree):
        raise RuntimeError(f"the child imported {result['module']}, not the tree {tree}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--tuned-malloc", action="store_true")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child, args.repeats)))
        return
    env = dict(os.environ)
    if args.tuned_malloc:
        env["GLIBC_TUNABLES"] = MALLOC_TUNABLES
    rows = [r for r in workloads() if not args.only or any(s in r[1] for s in args.only)]
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True)
        try:
            trees = {"base": base, "tree": ROOT}
            malloc = env.get("GLIBC_TUNABLES", "")
            print(f"A/B: base {args.base} against the working tree; {args.rounds} rounds; GLIBC_TUNABLES={malloc}")
            print(
                "| section | row | base warm ms (min-max) | tree warm ms (min-max) | tree / base "
                "| base first s | tree first s | verdict |"
            )
            print("| --- | --- | --- | --- | --- | --- | --- | --- |")
            for section, name in rows:
                got: dict = {"base": [], "tree": []}
                for r in range(args.rounds):
                    order = ("base", "tree") if r % 2 == 0 else ("tree", "base")
                    for which in order:
                        got[which].append(_run(trees[which], section, name, args.repeats, env))
                warm = {k: sorted(v["warm_ms"] for v in runs) for k, runs in got.items()}
                first = {k: sorted(v["first_s"] for v in runs) for k, runs in got.items()}
                med = {k: v[len(v) // 2] for k, v in warm.items()}
                first_med = {k: v[len(v) // 2] for k, v in first.items()}
                slower = warm["tree"][0] > warm["base"][-1] and med["tree"] >= 1.05 * med["base"]
                print(
                    f"| {section} | {name} | {med['base']:.2f} ({warm['base'][0]:.2f}-{warm['base'][-1]:.2f}) | "
                    f"{med['tree']:.2f} ({warm['tree'][0]:.2f}-{warm['tree'][-1]:.2f}) | "
                    f"{med['tree'] / med['base']:.2f} | "
                    f"{first_med['base']:.2f} | {first_med['tree']:.2f} | "
                    f"{'slower' if slower else 'same'} |",
                    flush=True,
                )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)


if __name__ == "__main__":
    main()
