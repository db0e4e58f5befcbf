"""Mutation check: named faults in a temporary copy of the package must fail the conformance tests.

Each :class:`Mutant` replaces one exact text (it must occur exactly once in its file, else the
script stops: a mutant cannot rot silently when the code moves) in a fresh copy of the
repository, then runs a small selection of *conformance* tests there — tests that compare with
an independent oracle (onnx.reference, onnxruntime, OpenVINO, Pillow, torch, TensorFlow,
OpenCV, jax.image), never the rule tables' own unit tests — with ``pytest -x``. A mutant is
caught when a selected test fails; the first failing test id is reported. The unmutated copy
runs the union of the selections first (the baseline): it must pass, so a catch is the fault's.

Usage::

    python tests/mutants.py            # baseline + every mutant; Markdown table; exit 1 if any survives
    python tests/mutants.py --list     # the mutants, their faults and selections
    python tests/mutants.py NAME ...   # only these mutants (the baseline runs their selections)

Selections are ``{test file: regex}``; the regex is searched in the test's name (the node id
after ``file::``). This module is also the pytest plugin (``-p mutants``) that applies them and
checks that the copy's ``jax_resize`` is the one imported; it fails the run when a file's regex
selects no test.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
_SELECT_ENV = "JAX_RESIZE_MUTANTS_SELECT"
_ROOT_ENV = "JAX_RESIZE_MUTANTS_ROOT"
#: Copied into the temporary repository (everything else the tests read lives under these).
_COPIED = ("jax_resize", "tests", "docs", "benchmarks", "colab", "pyproject.toml", "README.md", "CHANGELOG.md")
_RUN_TIMEOUT_S = 900


@dataclasses.dataclass(frozen=True)
class Mutant:
    """A named fault: ``old`` (exactly once in ``path``) becomes ``new``; ``select`` is the
    conformance selection, ``{test file: regex on the test name}``, that must fail."""

    name: str
    path: str
    old: str
    new: str
    fault: str
    select: dict[str, str]


# The first 60 opset-19 cases of the ONNX reference sweep (test_onnx_random ids r19_00000 .. r19_00059).
_ONNX_SWEEP_SLICE = r"\[r19_000[0-5]\d\]"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "rounding_half_up",
        "jax_resize/_src/rounding.py",
        '"half_even": lambda y: jnp.round(y),',
        '"half_even": lambda y: jnp.floor(y + 0.5),',
        "integer results rounded half up instead of half to even (the ONNX reference's rule)",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE + r"|^test_integer_ties_match_reference_exactly\["},
    ),
    Mutant(
        "cubic_coeff_nudged",
        "jax_resize/_src/kernels.py",
        "near = ((a + 2) * x - (a + 3)) * x * x + 1  # |d| <= 1",
        "near = ((a + 2.001) * x - (a + 3)) * x * x + 1  # |d| <= 1",
        "Keys cubic: the |d|**3 coefficient (a + 2) of the inner piece off by 1e-3",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE},
    ),
    Mutant(
        "triangle_nudged",
        "jax_resize/_src/kernels.py",
        "return xp.clip(1.0 - xp.abs(d), 0.0, 1.0)",
        "return xp.clip(1.001 - xp.abs(d), 0.0, 1.0)",
        "linear (triangle) kernel raised by 1e-3",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE},
    ),
    Mutant(
        "half_pixel_offset",
        "jax_resize/_src/coordinates.py",
        "def _half_pixel(xp, y, in_size, out_size, scale, roi):\n    return (y + 0.5) / scale - 0.5\n",
        "def _half_pixel(xp, y, in_size, out_size, scale, roi):\n    return (y + 0.5) / scale - 0.5 + 1e-3\n",
        "half_pixel coordinate rule offset by 1e-3 input pixels",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE},
    ),
    Mutant(
        "pillow_precision_bits",
        "jax_resize/_src/peers/pillow.py",
        "PRECISION_BITS = 22",
        "PRECISION_BITS = 21",
        "Pillow's 8-bit fixed-point coefficients with 21 fractional bits instead of 22",
        {"tests/test_pillow.py": r"^test_photos_match_pillow\[.*-pil_(bilinear|bicubic)\]"},
    ),
    Mutant(
        "nan_mask_dropped",
        "jax_resize/_src/execution/banded.py",
        "v = lax.select(lax.ne(w, lax.full_like(w, 0)), v, lax.full_like(v, 0))",
        "v = lax.select(lax.ne(w, lax.full_like(w, 0)), v, v)",
        # the select stays (the count of selects is asserted structurally); only its effect goes
        "banded: a zero-weight tap's term kept (0 * NaN), so a NaN/Inf input spreads past its window",
        {"tests/test_strategies.py": r"^test_banded_skips_zero_weights_only_where_needed$"},
    ),
    Mutant(
        "nan_mask_dropped_dense",
        "jax_resize/_src/execution/strategies.py",
        "return (_dot_nonfinite if nonfinite else _dot)(y, matrix.astype(y.dtype), p.axis, precision)",
        "return _dot(y, matrix.astype(y.dtype), p.axis, precision)",
        "dense: the plain matmul also for non-finite input, so a NaN/Inf spreads along its whole row",
        {"tests/test_strategies.py": r"^test_nonfinite_input_stays_local\[.*-dense\]$"},
    ),
    Mutant(
        "pillow_pass_order_swapped",
        "jax_resize/_src/peers/pillow.py",
        "            return [h, w]\n        return [w, h]\n",
        "            return [w, h]\n        return [h, w]\n",
        "Pillow's two 8-bit passes run in the other order (rows rounded before columns or back)",
        {"tests/test_pillow.py": r"^test_photos_match_pillow\[.*-pil_(bilinear|bicubic)\]"},
    ),
    Mutant(
        "opencv_linear_single_rounding",
        "jax_resize/_src/peers/opencv_routes.py",
        "(((b[:, 0] * (g[:, 0] >> 4)) >> 16) + ((b[:, 1] * (g[:, 1] >> 4)) >> 16) + 2) >> 2",
        "(b[:, 0] * g[:, 0] + b[:, 1] * g[:, 1] + (1 << 21)) >> 22",
        "OpenCV's 8-bit INTER_LINEAR vertical pass rounded once, not as its vector code truncates",
        {"tests/test_compat_cv2.py": r"^test_uint8_photos_and_noise_bit_for_bit\[INTER_LINEAR\]$"},
    ),
    Mutant(
        "opencv_area_blocks_half_even",
        "jax_resize/_src/peers/opencv_routes.py",
        "full = jnp.where(pairs, (sums + 2) >> 2, ",
        "full = jnp.where(pairs, jnp.rint(sums / 4).astype(jnp.int32), ",
        "OpenCV's 2x2 INTER_AREA blocks rounded half to even, not (sum + 2) >> 2",
        {"tests/test_compat_cv2.py": r"^test_uint8_photos_and_noise_bit_for_bit\[INTER_AREA\]$"},
    ),
    Mutant(
        "opencv_linear_exact_sum_truncated",
        "jax_resize/_src/peers/opencv_linear_exact.py",
        "(b >> 16) + 0x8000) >> 16)",
        "(b >> 16)) >> 16)",
        "INTER_LINEAR_EXACT's 16.16 vertical sum truncated, not rounded ((V + 2**31) >> 32)",
        {"tests/test_opencv_linear_exact.py": r"^test_sixteen_bit_photos_and_noise_bit_for_bit\[uint16\]$"},
    ),
    Mutant(
        "opencv_linear_exact_products_truncated",
        "jax_resize/_src/peers/opencv_linear_exact.py",
        "p = _digits([p[0], p[1] + 0x8000] + p[2:], 6)[2:]",
        "p = p[2:]",
        "int32 INTER_LINEAR_EXACT's 64.64 products truncated to 32.32, not rounded half away from zero",
        {"tests/test_opencv_linear_exact.py": r"^test_int32_products_round_half_away_from_zero$"},
    ),
    Mutant(
        "nearest_prefer_floor_as_ceil",
        "jax_resize/_src/weights.py",
        "    xf = xp.floor(x)\n    return xf + ((x - xf) > 0.5)\n",
        "    xf = xp.floor(x)\n    return xf + ((x - xf) >= 0.5)\n",
        "nearest_mode round_prefer_floor resolves ties upwards (round_prefer_ceil)",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE},
    ),
    Mutant(
        "antialias_stretch",
        "jax_resize/_src/peers/onnx.py",
        "stretch = _kernels.stretch(1.0 / scale) if antialias else 1.0",
        "stretch = _kernels.stretch(1.001 / scale) if antialias else 1.0",
        "ONNX antialias filter stretched by 1.001/scale instead of 1/scale",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE},
    ),
    Mutant(
        "extrapolation_value_ignored",
        "jax_resize/_src/execution/apply.py",
        "y = _strategies.mask_rows(y, p.outside, p.axis, extrapolation_value)",
        "y = _strategies.mask_rows(y, p.outside, p.axis, 0.0)",
        "filtered rows outside a tf_crop_and_resize roi filled with 0, not extrapolation_value",
        {"tests/test_onnx_random.py": _ONNX_SWEEP_SLICE},
    ),
)


# --- the pytest plugin (loaded in the temporary copy with -p mutants) ------------------------------


def pytest_collection_modifyitems(config, items):
    spec = os.environ.get(_SELECT_ENV)
    if not spec:
        return
    select = {path: re.compile(pattern) for path, pattern in json.loads(spec).items()}
    hits = dict.fromkeys(select, 0)
    keep, drop = [], []
    for item in items:
        path, _, name = item.nodeid.partition("::")
        pattern = select.get(path)
        if pattern is not None and pattern.search(name):
            keep.append(item)
            hits[path] += 1
        else:
            drop.append(item)
    empty = sorted(path for path, n in hits.items() if n == 0)
    if empty:
        raise pytest.UsageError(f"mutants: the selection matches no test in {empty}")
    config.hook.pytest_deselected(items=drop)
    items[:] = keep


def pytest_collection_finish(session):
    root = os.environ.get(_ROOT_ENV)
    if not root:
        return
    import jax_resize

    where = pathlib.Path(jax_resize.__file__).resolve()
    if pathlib.Path(root).resolve() not in where.parents:
        raise pytest.UsageError(f"mutants: imported {where}, not the copy under {root}")


# --- the driver ------------------------------------------------------------------------------------


def check_texts(mutants) -> None:
    """Every mutant's ``old`` occurs exactly once in its file (else: SystemExit with the list)."""
    errors = []
    for m in mutants:
        path = REPO / m.path
        count = path.read_text().count(m.old) if path.is_file() else -1
        if count != 1:
            errors.append(f"{m.name}: {m.path} holds its text {count} times (want exactly 1): {m.old!r}")
        if m.old == m.new:
            errors.append(f"{m.name}: old and new text are the same")
    if errors:
        raise SystemExit("mutants out of date:\n  " + "\n  ".join(errors))


def union(selections) -> dict[str, str]:
    """Per file, the alternation of the selections' regexes."""
    merged: dict[str, list[str]] = {}
    for select in selections:
        for path, pattern in select.items():
            if pattern not in merged.setdefault(path, []):
                merged[path].append(pattern)
    return {path: "|".join(f"(?:{p})" for p in patterns) for path, patterns in merged.items()}


def copy_repo(dest: pathlib.Path) -> pathlib.Path:
    """A fresh copy of the repository's sources and tests under ``dest/<repo name>``; ``../shared``
    (the photographs) is linked beside it, as in the checkout."""
    root = dest / REPO.name
    root.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", ".pytest_cache")
    for name in _COPIED:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=ignore)
        elif src.is_file():
            shutil.copy2(src, root / name)
    shared = REPO.parent / "shared"
    if shared.is_dir() and not (dest / "shared").exists():
        (dest / "shared").symlink_to(shared)
    return root


@dataclasses.dataclass
class Outcome:
    rc: int
    failed: str | None  # the first FAILED test id
    errors: list[str]  # ERROR ids, or the tail of the output when pytest itself failed
    seconds: float


def run_selection(root: pathlib.Path, select: dict[str, str]) -> Outcome:
    env = dict(os.environ)
    env[_SELECT_ENV] = json.dumps(select)
    env[_ROOT_ENV] = str(root)
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "tests"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "mutants", "-rfE"]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [*cmd, *select], cwd=root, env=env, capture_output=True, text=True, timeout=_RUN_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return Outcome(-1, None, [f"timed out after {_RUN_TIMEOUT_S} s"], time.perf_counter() - start)
    seconds = time.perf_counter() - start
    failed, errors = None, []
    for line in proc.stdout.splitlines():
        found = re.match(r"(FAILED|ERROR) (\S+)", line)
        if found and found.group(1) == "FAILED" and failed is None:
            failed = found.group(2)
        elif found and found.group(1) == "ERROR":
            errors.append(found.group(2))
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and failed is None and not errors):
        errors.append((proc.stdout + proc.stderr)[-3000:])
    return Outcome(proc.returncode, failed, errors, seconds)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="mutants to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args(argv)
    known = {m.name: m for m in MUTANTS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown mutants {unknown}; known: {', '.join(known)}")
    mutants = [known[n] for n in args.names] if args.names else list(MUTANTS)
    check_texts(mutants)
    if args.list:
        for m in mutants:
            print(f"{m.name}  ({m.path}): {m.fault}\n    select: {m.select}")
        return 0

    baseline_select = union(m.select for m in mutants)
    ok = True
    rows = []
    with tempfile.TemporaryDirectory(prefix="jax_resize_mutants_") as tmp:
        base = run_selection(copy_repo(pathlib.Path(tmp) / "baseline"), baseline_select)
        if base.rc != 0:
            ok = False
            print(f"baseline FAILED (rc={base.rc}, first failure {base.failed}):", *base.errors, sep="\n")
        rows.append(("(none: baseline)", "", "passes" if base.rc == 0 else f"FAILS: {base.failed}", base.seconds))
        for i, m in enumerate(mutants):
            root = copy_repo(pathlib.Path(tmp) / f"m{i}")
            path = root / m.path
            text = path.read_text()
            if text.count(m.old) != 1:  # the checkout changed since check_texts
                raise SystemExit(f"{m.name}: its text is no longer in {m.path} exactly once")
            path.write_text(text.replace(m.old, m.new))
            out = run_selection(root, m.select)
            if out.failed is not None and out.rc == 1 and not out.errors:
                verdict = f"`{out.failed}`"
            else:
                ok = False
                verdict = "**SURVIVED**" if out.rc == 0 else f"**ERROR** (rc={out.rc})"
                if out.errors:
                    print(f"{m.name}: pytest errors:", *out.errors, sep="\n")
            rows.append((m.name, m.path, verdict, out.seconds))
            shutil.rmtree(root, ignore_errors=True)
            print(f"[{m.name}] {verdict} ({out.seconds:.0f} s)", flush=True)
    print("\n| mutant | file | caught by | time |\n| --- | --- | --- | --- |")
    for name, path, verdict, seconds in rows:
        print(f"| {name} | {path} | {verdict} | {seconds:.0f} s |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
