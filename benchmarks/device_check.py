"""One command that checks jax_resize on the default JAX device: exactness, precision, speed.

Usage: ``python benchmarks/device_check.py [--platform cpu] [--quick] [--repeats N] [--output FILE]``.

Exactness: every case runs jax_resize on the device and compares it with an oracle computed
independently of jax_resize (host-side unless said otherwise):

* random ONNX Resize cases (the test sweep's generator, ``tests/onnx_oracles.py``) against
  ``onnx.reference`` with the sweep's own judge (``reference_verdict``, ``judge``);
* ``resize_with_pillow_filter`` on photographs (RGB, and RGBA with ``alpha="premultiplied"``) against
  Pillow: bit exact (Pillow 13, whose pass order the library replicates; another Pillow: n/a);
* ``compat.torch_interpolate`` against torch on the same device (uint8 on the device where torch
  has the kernel, else torch CPU; where torch's devices disagree, torch CPU, the preset's contract);
* ``openvino_interpolate`` against the tables ported from OpenVINO in ``tests/test_openvino.py``
  (read from that file's literals: openvino itself is not needed);
* ``scale_and_translate`` with traced scale/translation and ``resize_ragged`` against jax.image on
  the device, gradients against jax.image's, NaN locality against jax.image's filter support.

Precision: ``strategy="dense"`` float32 results on the device against the same call on the CPU
device in the same process (TF32 contractions would be about 1e-3 off; HIGHEST is about 1e-7).

Speed: the tensors workloads of ``benchmarks/run.py`` and the photos of ``benchmarks/photos.py``
(batched on accelerators) for jax_resize (auto and each forced strategy) against torch
``F.interpolate`` (NCHW or channels-last, the faster), torchvision v2 ``Resize`` and ``jax.image``
on the same device: warm medians, achieved bandwidth against a measured device copy, first calls;
and, with ``--candidate FIELD=VALUE,...``, auto planned with a changed tuning row next to auto: rows whose
program the change leaves as it is are marked ``same`` and not timed, so one run can settle a rule.

Stream: eager ``resize(uint8 photo, (224, 224, 3), "linear", antialias=True)`` on ``--stream``
distinct sizes (``benchmarks/streams.py``'s stream, issue 35): XLA compilations, mean call
against the mean warm call of 8 of its shapes (2 with ``--quick``), and the device memory jax holds
before and after.

The last line is ``device check (<platform> <device>): A/B exact, ...``; the exit status is 1 if any
case differs from its oracle (or a block fails to run).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import os
import pathlib
import platform
import statistics
import sys
import time
import traceback

ROOT = pathlib.Path(__file__).resolve().parents[1]
BLOCK_KEYS = ("onnx", "pillow", "torch", "openvino", "traced", "grad", "nan", "precision")
ONNX_CASES, ONNX_CASES_QUICK = 210, 20
# float32 dense results on two devices differ by summation order only: a few float32 ulps of the
# data's magnitude; a TF32 contraction (10-bit mantissa) would be ~1e-3.
PRECISION_BOUND = 1e-5


@dataclasses.dataclass
class Block:
    """One exactness block: ``equal`` of ``run`` cases matched their oracle; ``na`` says why the
    block did not run (then it counts nowhere and is never called exact)."""

    name: str
    oracle: str
    run: int = 0
    equal: int = 0
    worst: str = ""
    na: str = ""
    notes: list = dataclasses.field(default_factory=list)
    failures: list = dataclasses.field(default_factory=list)

    def judge(self, ok: bool, what: str) -> None:
        self.run += 1
        self.equal += bool(ok)
        if not ok and len(self.failures) < 5:
            self.failures.append(what)


def _parse(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--platform", choices=("default", "cpu"), default="default", help="cpu: JAX_PLATFORMS=cpu")
    p.add_argument("--quick", action="store_true", help="a reduced set (for tests): few cases, one speed row")
    p.add_argument("--repeats", type=int, help="timed calls per speed cell (default 20; --quick 3)")
    p.add_argument("--batch", type=int, help="photos per speed call (default: 16 on accelerators, 1 on CPU)")
    p.add_argument("--onnx-cases", type=int, help=f"random ONNX cases (default {ONNX_CASES}; --quick 20)")
    p.add_argument("--budget-s", type=float, default=330.0, help="speed rows that would start later are skipped")
    p.add_argument("--output", help="also write the report to this Markdown file")
    p.add_argument("--blocks", nargs="*", choices=BLOCK_KEYS, help="run only these exactness blocks")
    p.add_argument("--no-speed", action="store_true", help="skip the speed section")
    p.add_argument(
        "--dense", action="store_true", help="also time the dense strategy (never fastest on the GPU; slow to compile)"
    )
    p.add_argument(
        "--candidate",
        type=candidate_arg,
        default={},
        help="FIELD=VALUE,...: also time auto planned with the device's tuning row changed so (an A/B of a rule)",
    )
    p.add_argument("--rows", help="time only the speed rows whose name contains one of these comma-separated words")
    p.add_argument(
        "--stream", type=int, help="distinct photo shapes in the eager stream (default 100; --quick 4; 0 skips)"
    )
    p.add_argument("--torch-device", help=argparse.SUPPRESS)  # e.g. cpu:0, to run the device-side code on CPU
    return p.parse_args(argv)


# --------------------------------------------------------------------------------------------
# helpers


#: Timed calls of one speed cell stop after this many seconds (at least 3 calls): slow cells (the
#: dense strategy on photos) would otherwise take most of the check's time.
CELL_SECONDS = 1.0


def candidate_arg(text: str) -> dict:
    """``FIELD=VALUE,...`` -> ``{field: value}`` for :class:`~jax_resize._src.execution.tuning.Tuning`."""
    import ast

    from jax_resize._src.execution.tuning import Tuning

    fields = {f.name for f in dataclasses.fields(Tuning)}
    out = {}
    for item in filter(None, text.split(",")):
        name, sep, value = item.partition("=")
        if not sep or name not in fields:
            raise argparse.ArgumentTypeError(f"{item!r}: expected FIELD=VALUE with FIELD one of {sorted(fields)}")
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise argparse.ArgumentTypeError(f"{item!r}: VALUE must be a Python literal") from None
    return out


@contextlib.contextmanager
def candidate_row(jax, candidate: dict):
    """The default backend's tuning row changed by ``candidate`` while programs are traced."""
    from jax_resize._src.execution import tuning

    row = tuning.tuning_for(jax.default_backend())
    key = next(k for k, v in tuning.TUNING.items() if v is row)
    tuning.TUNING[key] = dataclasses.replace(row, **candidate)
    try:
        yield
    finally:
        tuning.TUNING[key] = row


def _ms(fn, repeats: int, sync=lambda: None) -> float:
    """Median of ``repeats`` timed calls (fewer, at least 3, past ``CELL_SECONDS``) after two warm-up
    calls; ``fn`` must block (or ``sync``)."""
    fn()
    fn()
    sync()
    times: list[float] = []
    while len(times) < repeats and (len(times) < 3 or sum(times) < CELL_SECONDS):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def _photo_rgb():
    """A real photograph: coffee from ../shared/data, else the one bundled with the package."""
    from PIL import Image

    path = ROOT.parent / "shared" / "data" / "coffee.png"
    if path.is_file():
        return "coffee.png", Image.open(path).convert("RGB")
    return "bundled astronaut.png", Image.open(ROOT / "jax_resize" / "data" / "astronaut.png").convert("RGB")


TORCH_DEVICE = None  # --torch-device: run torch's "device" side elsewhere (to exercise that code on CPU)


def _torch():
    try:
        import torch
    except ImportError:
        return None, None
    dev = TORCH_DEVICE or ("cuda" if torch.cuda.is_available() else "cpu")
    return torch, dev


# --------------------------------------------------------------------------------------------
# exactness blocks


def block_onnx(n: int) -> Block:
    import onnx_oracles as O
    import test_onnx_random as T

    b = Block("ONNX Resize random cases", "onnx.reference (host), the sweep's judge")
    import jax

    wide_ok = jax.default_backend() != "tpu"  # TPUs have no float64
    stride = max(1, len(T.PLAN) // n)
    plan = T.PLAN[::stride][:n]
    seen = {"ctm": set(), "antialias": set(), "policy": set(), "dtype": set()}
    skipped_wide = 0
    for opset, index in plan:
        case = T.get_case(opset, index)
        if case.x.dtype.name in ("float64", "int64") and not wide_ok:
            skipped_wide += 1
            continue
        seen["ctm"].add(case.attr("coordinate_transformation_mode"))
        seen["antialias"].add(case.attr("antialias"))
        if case.sizes is not None:
            seen["policy"].add(case.attr("keep_aspect_ratio_policy"))
        seen["dtype"].add(case.x.dtype.name)
        verdict = O.reference_verdict(case)
        api = "node" if index % 2 else "kw"
        try:
            actual = O.run_jax(case, api=api)
        except Exception as e:  # a crash is a mismatch, reported with the case id
            b.judge(False, f"{case.id}: {type(e).__name__}: {e}")
            continue
        cmp = O.judge(case, verdict.expected, actual).cmp
        b.judge(cmp.ok, f"{case.id} ({api}, {verdict.category}): {cmp.msg}")
    b.notes.append(
        "covers coordinate modes "
        + ", ".join(sorted(seen["ctm"]))
        + f"; antialias {sorted(seen['antialias'])}; keep_aspect_ratio_policy {sorted(seen['policy'])}; "
        + "dtypes "
        + ", ".join(sorted(seen["dtype"]))
    )
    if skipped_wide:
        b.notes.append(f"{skipped_wide} float64/int64 cases not run: the device has no float64")
    return b


def block_pillow(quick: bool) -> Block:
    import numpy as np
    import PIL
    from conftest import PIL_FILTERS, alpha_map
    from PIL import Image

    import jax_resize

    name, img = _photo_rgb()
    rgb = np.asarray(img)
    b = Block("Pillow-exact uint8 (`pil_*`)", f"Pillow {PIL.__version__} (host) on {name}")
    if PIL.__version__.split(".")[0] != "13":  # as in the tests: no other Pillow is the oracle
        b.na = f"n/a: Pillow {PIL.__version__} is not the oracle (the presets follow Pillow 13; carry its wheel)"
        return b
    filters = list(PIL_FILTERS)[2:4] if quick else list(PIL_FILTERS)
    rng = np.random.default_rng(36)
    # (crop height, width, output height, width): a shrink, an enlargement, a mixed one
    geoms = [(200, 160, 67, 53)] if quick else [(200, 160, 67, 53), (61, 47, 122, 141), (150, 211, 300, 90)]
    for method in filters:
        for h, w, oh, ow in geoms:
            y0, x0 = int(rng.integers(0, rgb.shape[0] - h)), int(rng.integers(0, rgb.shape[1] - w))
            crop = rgb[y0 : y0 + h, x0 : x0 + w]
            rgba = np.concatenate([crop, alpha_map(rng, h, w)[..., None]], -1)
            for layout, a, alpha in (("RGB", crop, None), ("RGBA", rgba, "premultiplied")):
                want = np.asarray(Image.fromarray(a).resize((ow, oh), PIL_FILTERS[method])).astype(int)
                shape = (oh, ow, a.shape[-1])
                got = np.asarray(jax_resize.resize_with_pillow_filter(a, shape, PIL_FILTERS[method], alpha=alpha))
                if got.dtype != np.uint8 or got.shape != want.shape:
                    b.judge(False, f"{method} {layout}: {got.dtype} {got.shape} vs uint8 {want.shape}")
                    continue
                diff = int(np.abs(got.astype(int) - want).max())
                what = f"{method} {layout} {h}x{w}->{oh}x{ow}: max diff {diff}"
                b.judge(diff == 0, what)
    # a batch of photos in one call (as an input pipeline calls it)
    batch = np.stack([rgb[i * 7 : i * 7 + 90, i * 5 : i * 5 + 120] for i in range(8)])
    got = np.asarray(jax_resize.resize(batch, (8, 37, 50, 3), "pil_bicubic"))
    want = np.stack([np.asarray(Image.fromarray(a).resize((50, 37), PIL_FILTERS["pil_bicubic"])) for a in batch])
    diff = int(np.abs(got.astype(int) - want).max())
    b.judge(diff == 0, f"batch of 8 pil_bicubic: max diff {diff}")
    return b


def block_torch(quick: bool) -> Block:
    import numpy as np

    from jax_resize.compat import torch_interpolate

    torch, dev = _torch()
    if torch is None:
        return Block("compat.torch_interpolate", "torch", na="n/a: needs torch")
    import test_compat_torch as TT

    b = Block("compat.torch_interpolate", f"torch {torch.__version__} on {dev} (uint8 where {dev} has it, else cpu)")
    F = torch.nn.functional
    plans = [(m, np.float32, False) for m in ("nearest", "nearest-exact", "bilinear", "bicubic", "trilinear", "area")]
    plans += [(m, np.float32, True) for m in ("bilinear", "bicubic")]
    plans += [(m, np.uint8, False) for m in ("nearest", "nearest-exact", "bilinear", "bicubic")]
    plans += [(m, np.uint8, True) for m in ("bilinear", "bicubic")]
    if quick:
        plans = [("bilinear", np.uint8, True), ("bicubic", np.float32, True)]
    per_plan = 2 if quick else 4
    cpu_only, devices_differ, refused = 0, 0, 0
    for mode, dtype, aa in plans:
        rng = np.random.default_rng([sum(map(ord, mode)), int(aa), np.dtype(dtype).itemsize, 36])
        for _ in range(per_plan):
            x, kw = TT._case(rng, mode, dtype, antialias=aa)
            exact = dtype == np.uint8 or mode in ("nearest", "nearest-exact")
            scale = float(np.abs(x).max()) if x.size else 0.0

            def same(got, want):
                if got.shape != want.shape or got.dtype != want.dtype:
                    return False
                if exact:
                    return np.array_equal(got, want)
                return np.allclose(got, want, rtol=1e-5, atol=1e-5 * scale)

            try:
                want_cpu = F.interpolate(torch.from_numpy(x), **kw).numpy()
            except (RuntimeError, NotImplementedError, ValueError):
                refused += 1  # this torch has no such mode/dtype: nothing to judge against
                continue
            want = want_cpu
            if dev != "cpu":
                try:
                    want_dev = F.interpolate(torch.from_numpy(x).to(dev), **kw).cpu().numpy()
                    if same(want_dev, want_cpu):
                        want = want_dev
                    else:
                        devices_differ += 1
                except (RuntimeError, NotImplementedError):
                    cpu_only += 1
            got = np.asarray(torch_interpolate(x, **kw))
            b.judge(same(got, want), f"{dtype.__name__} {kw} shape {x.shape}")
    if dev != "cpu":
        b.notes.append(f"{cpu_only} cases judged against torch cpu ({dev} has no kernel)")
        b.notes.append(f"{devices_differ} cases where torch {dev} and torch cpu disagree: judged against cpu")
    if refused:
        b.notes.append(f"{refused} cases this torch refuses (not counted)")
    return b


def _openvino_tables() -> dict:
    """The literal tables of tests/test_openvino.py, without importing openvino (which it needs)."""
    import ast

    src = (ROOT / "tests" / "test_openvino.py").read_text()
    tree = ast.parse(src)
    wanted = {"A_F", "B_F", "UP_B_BILINEAR", "UP_B_BICUBIC", "R64", "R48", "RAND48", "U90", "C30", "C24"}
    wanted |= {"BC_UP_U8", "BC_UP_I32", "PIL_F32", "PIL_INT", "OTHER_F32", "_TABLE_IS_PILLOW"}
    ns: dict = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and getattr(node.targets[0], "id", "") in wanted:
            exec(compile(ast.Module([node], []), "test_openvino.py", "exec"), {"range": range, "float": float}, ns)
    missing = wanted - set(ns)
    if missing:
        raise RuntimeError(f"tables not found in tests/test_openvino.py: {sorted(missing)}")
    return ns


def _pillow_passes_f64(x, out_shape, axes, mode, a):
    """OpenVINO REF's ``*_pillow`` on uint8 data from the formulas, in float64: Pillow's
    coefficients (support scaled by the shrink factor, centre ``(o + 0.5) * in / out``, window
    ``[int(c - support + 0.5), int(c + support + 0.5))`` clipped, weights normalised), the second
    axis first, rounding half away from zero and clipping to [0, 255] after each pass. Returns the
    result and where a pass's value is within 1e-3 of a .5 tie (in the last pass, or fed by one)."""
    import numpy as np

    def kernel(v):
        v = np.abs(v)
        if mode == "bilinear_pillow":
            return np.where(v < 1, 1 - v, 0.0), 1.0
        cubic = np.where(v < 1, ((a + 2) * v - (a + 3)) * v * v + 1, ((v - 5) * v + 8) * v * a - 4 * a)
        return np.where(v < 2, cubic, 0.0), 2.0

    def matrix(n_in, n_out):
        scale = n_in / n_out
        fs = max(scale, 1.0)
        support = kernel(0.0)[1] * fs
        m = np.zeros((n_out, n_in))
        for o in range(n_out):
            c = (o + 0.5) * scale
            lo, hi = max(int(c - support + 0.5), 0), min(int(c + support + 0.5), n_in)
            w = kernel((np.arange(lo, hi) - c + 0.5) / fs)[0]
            m[o, lo:hi] = w / w.sum()
        return m

    def tie(v):
        return np.abs(v - np.floor(v) - 0.5) < 1e-3

    def rnd(v):
        return np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), 0, 255)

    def apply(v, axis, m):
        return np.moveaxis(np.tensordot(m, np.moveaxis(v, axis, 0), axes=(1, 0)), 0, axis)

    a0, a1 = (list(range(x.ndim)) if axes is None else list(axes))[:2]
    m1, m0 = matrix(x.shape[a1], out_shape[a1]), matrix(x.shape[a0], out_shape[a0])
    f1 = apply(x.astype(np.float64), a1, m1)
    f2 = apply(rnd(f1), a0, m0)
    fed = apply(tie(f1).astype(np.float64), a0, np.abs(m0)) != 0
    return rnd(f2).astype(int), tie(f2) | fed


def block_openvino(quick: bool) -> Block:
    import numpy as np

    import jax_resize

    b = Block("openvino_interpolate tables", "OpenVINO op_reference tables (tests/test_openvino.py literals)")
    t = _openvino_tables()

    def ours(x, values, axes, **kw):
        return np.asarray(jax_resize.openvino_interpolate(x, values, axes, **kw))

    pil_f32 = t["PIL_F32"][:2] if quick else t["PIL_F32"]
    for name, in_shape, sizes, out_shape, scales, axes, mode, scm, cc, data, expected in pil_f32:
        x = np.array(data, np.float32).reshape(in_shape)
        got = ours(x, sizes if scm == "sizes" else scales, axes, mode=mode, shape_calculation_mode=scm, cube_coeff=cc)
        want = np.array(expected, np.float32).reshape(out_shape)
        # test_openvino: this table's expected values are off OpenVINO's REF and Pillow by up to 7e-4
        # of the largest value; every other table within 1e-6 relative, 2e-5 absolute
        atol = 1e-3 * np.abs(want).max() if name == "bicubic.upsample_negative_out_val_2D_sizes" else 2e-5
        rtol = 0 if name == "bicubic.upsample_negative_out_val_2D_sizes" else 1e-6
        b.judge(got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol), f"float {name}")
    pil_int = t["PIL_INT"][:2] if quick else t["PIL_INT"]
    ties = [0, 0]  # uint8 outputs on a near .5 tie; of them, off the table by 1
    for name, in_shape, sizes, out_shape, scales, axes, mode, scm, cc, data, expected in pil_int:
        name = name.split(" ")[0]
        x = np.array(data, np.uint8).reshape(in_shape)
        got = ours(x, sizes if scm == "sizes" else scales, axes, mode=mode, shape_calculation_mode=scm, cube_coeff=cc)
        table = np.array(expected).reshape(out_shape)
        # where the ported table holds Pillow's value at an exact .5 tie, REF (which jax_resize
        # follows) rounds half away from zero after each pass: one more (test_openvino.py)
        want = table.copy()
        want.ravel()[t["_TABLE_IS_PILLOW"].get(name, [])] += 1
        # REF computes in double, jax_resize in float32: within 1e-3 of a .5 tie either side is
        # right (test_openvino.py's rule); the ties come from the formula in double, not from REF
        emulated, near = _pillow_passes_f64(x, out_shape, axes, mode, cc)
        if not np.array_equal(emulated[~near], want[~near]):
            b.judge(False, f"uint8 {name}: the float64 emulation disagrees with the table (oracle fault)")
            continue
        diff = np.abs(got.astype(int) - want) if got.shape == want.shape else np.array([99])
        ok = got.dtype == np.uint8 and diff.max(initial=0) <= 1 and not diff[~near].any()
        b.judge(ok, f"uint8 {name}: differs at {np.flatnonzero(diff)[:8]}, near ties {np.flatnonzero(near)[:8]}")
        ties[0] += int(near.sum())
        ties[1] += int(np.count_nonzero(diff[near])) if diff.shape == near.shape else 0
    other = t["OTHER_F32"][:2] if quick else t["OTHER_F32"]
    for name, in_shape, sizes, out_shape, scales, axes, mode, scm, ctm, nm, data, expected in other:
        x = np.array(data, np.float32).reshape(in_shape)
        got = ours(
            x,
            sizes if scm == "sizes" else scales,
            axes,
            mode=mode,
            shape_calculation_mode=scm,
            coordinate_transformation_mode=ctm,
            nearest_mode=nm,
        )
        want = np.array(expected, np.float32).reshape(out_shape)
        b.judge(got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=1e-6), f"float {name}")
    b.notes.append(
        f"uint8: {ties[0]} outputs within 1e-3 of a .5 tie in double (either side right), {ties[1]} of them off by 1"
    )
    return b


def block_traced(quick: bool) -> Block:
    import jax
    import numpy as np
    import test_scale_and_translate as TS

    import jax_resize
    from jax_resize._src import ragged as _ragged

    b = Block("traced geometry", "jax.image on the device (within 1e-5, as the tests)")
    methods = TS.METHODS[1:2] if quick else TS.METHODS
    for method in methods:
        for antialias in (True,) if quick else (True, False):
            for seed in range(1):
                image, shape, scale, translation = TS._case(seed)
                oracle = jax.jit(
                    lambda s, t, m=method, a=antialias, im=image, sh=shape: jax.image.scale_and_translate(
                        im, sh, (0, 1), s, t, m, a
                    )
                )
                want = np.asarray(oracle(scale, translation))
                f = jax.jit(
                    lambda s, t, m=method, a=antialias, im=image, sh=shape: jax_resize.scale_and_translate(
                        im, sh, (0, 1), s, t, m, a
                    )
                )
                got = np.asarray(f(scale, translation))
                ok = got.shape == want.shape and np.allclose(got, want, rtol=0, atol=1e-5)
                b.judge(ok, f"scale_and_translate traced {method} aa={antialias} seed {seed}")
    rng = np.random.default_rng(36)
    _, img = _photo_rgb()
    photo = np.asarray(img, np.float32) / 255
    count, padded, shape = 4, (96, 128), (24, 40, 3)
    images = np.zeros((count, *padded, 3), np.float32)
    sizes = np.zeros((count, 2), np.int32)
    for i in range(count):
        h = 1 if i == count - 1 else int(rng.integers(2, padded[0] + 1))
        w = int(rng.integers(1, padded[1] + 1))
        y, x = int(rng.integers(0, photo.shape[0] - h)), int(rng.integers(0, photo.shape[1] - w))
        images[i, :h, :w] = photo[y : y + h, x : x + w]
        sizes[i] = h, w
    rmethods = _ragged.RAGGED_METHODS[1:2] if quick else ("linear", "cubic", "lanczos3", "area")
    for method in rmethods:
        for antialias in (True,) if quick else (True, False):
            f = jax.jit(lambda v, s, m=method, a=antialias: jax_resize.resize_ragged(v, s, shape, m, a))
            got = np.asarray(f(images, sizes))
            oracle = jax.jit(lambda v, m=method, a=antialias: jax.image.resize(v, shape, m, a))
            for i, (h, w) in enumerate(sizes):
                want = np.asarray(oracle(images[i, :h, :w]))
                ok = np.allclose(got[i], want, rtol=0, atol=1e-5)
                b.judge(ok, f"resize_ragged {method} aa={antialias} example {i} ({h}x{w})")
    return b


def block_grad(quick: bool) -> Block:
    import jax
    import jax.numpy as jnp
    import numpy as np

    import jax_resize

    b = Block("gradients", "jax.grad through jax.image on the device")
    rng = np.random.default_rng(7)
    cases = [((2, 37, 29, 3), (2, 16, 51, 3))]
    if not quick:
        cases += [((1, 64, 64, 2), (1, 128, 32, 2))]
    methods = ["cubic"] if quick else ["linear", "cubic", "lanczos3"]
    for in_shape, out_shape in cases:
        x = rng.standard_normal(in_shape).astype(np.float32)
        ct = rng.standard_normal(out_shape).astype(np.float32)
        for method in methods:
            for antialias in (True,) if quick else (True, False):

                def g(fn, m=method, a=antialias, o=out_shape):
                    return jax.jit(jax.grad(lambda v: jnp.sum(fn(v, o, m, antialias=a) * ct)))(x)

                got = np.asarray(g(jax_resize.resize))
                want = np.asarray(g(jax.image.resize))
                scale = float(np.abs(want).max())
                ok = np.allclose(got, want, rtol=1e-5, atol=1e-5 * scale)
                err = float(np.abs(got - want).max()) / scale
                b.judge(ok, f"d/dimage {method} aa={antialias} {in_shape}->{out_shape}: rel err {err:.2g}")
    # with respect to traced scale and translation (float64 where the device has it)
    wide = jax.default_backend() != "tpu"
    dtype = np.float64 if wide else np.float32
    image = rng.standard_normal((11, 13, 2)).astype(dtype)
    s0, t0 = np.array([0.63, 1.37], dtype), np.array([0.41, -0.73], dtype)
    tol = 1e-7 if wide else 1e-4
    with jax.enable_x64(wide):
        for method in methods:
            for antialias in (True,) if quick else (True, False):

                def loss(fn, m=method, a=antialias):
                    return jax.jit(
                        jax.grad(lambda s, t: jnp.sum(jnp.sin(fn(image, (7, 17, 2), (0, 1), s, t, m, a))), (0, 1))
                    )(s0, t0)

                got = loss(jax_resize.scale_and_translate)
                want = loss(jax.image.scale_and_translate)
                ok = all(np.allclose(np.asarray(g_), np.asarray(w_), rtol=tol, atol=tol) for g_, w_ in zip(got, want))
                b.judge(ok, f"d/d(scale, translation) {method} aa={antialias} ({np.dtype(dtype).name})")
    if not wide:
        b.notes.append("scale/translation gradients in float32: the device has no float64")
    return b


def block_nan(quick: bool) -> Block:
    import jax
    import numpy as np

    import jax_resize

    b = Block("NaN locality", "jax.image's filter support (non-zero weights) on the device")
    rng = np.random.default_rng(11)
    # (in, out): x2 and /2 (polyphase ratios) and an irregular shrink and zoom (banded)
    geoms = [((40, 30), (80, 15))] if quick else [((40, 30), (80, 15)), ((57, 41), (23, 100))]
    methods = ["linear"] if quick else ["linear", "cubic"]
    strategies = ["auto", "banded"] if quick else ["auto", "dense", "banded", "polyphase"]
    for (h, w), (oh, ow) in geoms:
        x = rng.uniform(-1, 1, (h, w)).astype(np.float32)
        pos = (int(rng.integers(0, h)), int(rng.integers(0, w)))
        hit = np.zeros_like(x)
        hit[pos] = 1.0
        xn = x.copy()
        xn[pos] = np.nan
        for method in methods:
            for antialias in (True, False):
                oracle = jax.jit(lambda v, m=method, a=antialias: jax.image.resize(v, (oh, ow), m, a))
                support = np.asarray(oracle(hit)) != 0
                finite = np.asarray(oracle(np.where(hit > 0, 0, x)))
                for strategy in strategies:
                    f = jax.jit(
                        lambda v, m=method, a=antialias, s=strategy: jax_resize.resize(v, (oh, ow), m, a, strategy=s)
                    )
                    got = np.asarray(f(xn))
                    nan = np.isnan(got)
                    ok = np.array_equal(nan, support) and np.allclose(got[~nan], finite[~nan], rtol=1e-5, atol=1e-5)
                    what = f"{strategy} {method} aa={antialias} {h}x{w}->{oh}x{ow}: {int(nan.sum())} NaN"
                    b.judge(ok, what + f" vs support {int(support.sum())}")
    return b


def block_precision(quick: bool) -> tuple[Block, dict]:
    """The dense strategy's float32 results on the default device against the CPU device."""
    import jax
    import numpy as np

    import jax_resize

    b = Block("precision (dense, float32)", "the same call on jax's CPU device")
    cpu = jax.devices("cpu")[0]
    dev = jax.devices()[0]
    same_device = dev.platform == "cpu"
    rng = np.random.default_rng(5)
    cases = [((4, 64, 64, 3), (4, 56, 56, 3), "linear", True)]
    if not quick:
        cases += [
            ((2, 256, 256, 3), (2, 224, 224, 3), "linear", True),
            ((2, 128, 128, 3), (2, 96, 96, 3), "cubic", False),
            ((1, 256, 256, 3), (1, 64, 64, 3), "lanczos3", True),
            ((4, 32, 48, 3), (4, 96, 100, 3), "cubic", False),
        ]
    worst_abs = worst_rel = 0.0
    for in_shape, out_shape, method, aa in cases:
        x = rng.uniform(0, 1, in_shape).astype(np.float32)
        f = jax.jit(lambda v, o=out_shape, m=method, a=aa: jax_resize.resize(v, o, m, a, strategy="dense"))
        on_dev = np.asarray(f(jax.device_put(x, dev)))
        on_cpu = np.asarray(f(jax.device_put(x, cpu)))
        err = float(np.abs(on_dev.astype(np.float64) - on_cpu).max())
        rel = err / float(np.abs(x).max())
        worst_abs, worst_rel = max(worst_abs, err), max(worst_rel, rel)
        b.judge(rel <= PRECISION_BOUND, f"{method} aa={aa} {in_shape}->{out_shape}: max |dev - cpu| {err:.3g}")
    b.worst = f"max abs {worst_abs:.2g}, rel to max|x| {worst_rel:.2g} (bound {PRECISION_BOUND:g})"
    if same_device:  # run (so that this code runs on CPU too) but never counted as exact
        b.na = f"n/a: CPU vs CPU proves nothing about TF32 ({b.equal} / {b.run} equal)"
    return b, {"abs": worst_abs, "rel": worst_rel, "trivial": same_device}


# --------------------------------------------------------------------------------------------
# speed


def copy_gbps(jax, jnp, accel: bool) -> float:
    """Device copy bandwidth: an elementwise op over a large array, read + written, GB/s. On CPU,
    numpy's copy into a kept buffer (benchmarks/photos.py): XLA:CPU's fresh output pages would
    make it a page-fault benchmark."""
    if not accel:
        import photos

        return photos.copy_gbps()
    n = 1 << 30
    a = jnp.ones((n // 4,), jnp.float32)
    f = jax.jit(lambda v: v + 1.0)
    ms = _ms(lambda: jax.block_until_ready(f(a)), 10)
    return 2 * n / (ms / 1e3) / 1e9


def _speed_rows(quick: bool):
    from photos import PHOTO_WORKLOADS
    from run import WORKLOADS

    rows = []
    for w in WORKLOADS:
        rows.append(("tensors", w))
    for w in PHOTO_WORKLOADS:
        rows.append(("photos", w))
    if quick:
        rows = [("tensors", w) for w in WORKLOADS if w.name.startswith("bilinear 16x300x451x3")]
    return rows


def _import_benchmarks():
    """benchmarks/run.py re-executes itself (for a malloc setting) unless it sees --default-malloc."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    argv = sys.argv
    sys.argv = [argv[0], "--default-malloc"]
    try:
        import photos  # noqa: F401
        import run  # noqa: F401
    finally:
        sys.argv = argv


def speed_row(kind, w, *, batch, repeats, accel, torch, tdev, tv, bw, dense=False, candidate=None):
    import jax
    import jax.numpy as jnp
    import numpy as np

    import jax_resize

    cells = {}
    if kind == "tensors":
        x = np.random.default_rng(0).random(w.in_shape, dtype=np.float32)
        axes, out_shape, grad = list(w.hw_axes), w.out_shape, w.grad
        method = {"linear": "linear", "cubic": "cubic", "nearest": "nearest"}[w.method]
        aa = w.antialias
        b = w.in_shape[0]
        layout = w.layout
        pil = None
    else:
        b = batch
        one = _photo_cached(w.in_hw)
        x = np.broadcast_to(one, (b, *one.shape)).copy()
        if w.dtype == "float32":
            x = x.astype(np.float32)
        axes, out_shape, grad, aa, layout = [1, 2], (b, *w.out_hw, 3), False, True, "NHWC"
        method = w.method
        pil = ("pil_bilinear" if w.method == "linear" else "pil_bicubic") if w.pil_exact else None
    out_hw = tuple(out_shape[a] for a in axes)
    xj = jnp.asarray(x)
    ct = jnp.asarray(np.random.default_rng(1).random(out_shape, dtype=np.float32)) if grad else None

    def ours(strategy):
        if pil:
            return lambda v: jax_resize.resize(v, out_shape, pil, strategy=strategy)
        kw = dict(sizes=list(out_hw), axes=axes, mode=method, antialias=int(aa), strategy=strategy)
        if method == "cubic":
            kw["cubic_coeff_a"] = -0.75
        if method == "nearest":
            kw.update(nearest_mode="floor", coordinate_transformation_mode="asymmetric")
        return lambda v: jax_resize.onnx_resize(v, **kw)

    def jitted(fn, lowered=False):
        if grad:
            g = jax.jit(lambda v, c: jax.vjp(fn, v)[1](c)[0])
            return g.lower(xj, ct).as_text() if lowered else lambda: g(xj, ct)
        f = jax.jit(fn)
        return f.lower(xj).as_text() if lowered else lambda: f(xj)

    call = jitted(ours("auto"))
    t0 = time.perf_counter()
    jax.block_until_ready(call())
    first = time.perf_counter() - t0
    cells["auto"] = _ms(lambda: jax.block_until_ready(call()), repeats)
    cells["candidate"] = None
    if candidate:
        program = jitted(ours("auto"), lowered=True)
        with candidate_row(jax, candidate):  # traced (and timed) with the candidate row
            if jitted(ours("auto"), lowered=True) == program:
                cells["candidate"] = "same"  # timing it again would only measure the noise
            else:
                c = jitted(ours("auto"))
                cells["candidate"] = _ms(lambda c=c: jax.block_until_ready(c()), repeats)
    for strategy in ("dense", "banded", "polyphase"):
        if strategy == "dense" and not dense:
            cells[strategy] = None
            continue
        try:
            c = jitted(ours(strategy))
            cells[strategy] = _ms(lambda c=c: jax.block_until_ready(c()), repeats)
        except Exception as e:  # e.g. the dense strategy's size cap
            cells[strategy] = None
            cells.setdefault("notes", []).append(f"{strategy}: {type(e).__name__}")
    ji_method = {"linear": "linear", "cubic": "cubic", "nearest": "nearest"}[method]

    def ji(v):
        v = v.astype(jnp.float32) if v.dtype != jnp.float32 else v
        return jax.image.resize(v, out_shape, ji_method, antialias=aa)

    try:
        c = jitted(ji)
        cells["jax.image"] = _ms(lambda: jax.block_until_ready(c()), repeats)
    except Exception as e:
        cells["jax.image"] = None
        cells.setdefault("notes", []).append(f"jax.image: {type(e).__name__}")
    xj = ct = None  # free the device copies before torch allocates its own
    cells["torch"], cells["torch layout"], cells["torchvision"] = None, "", None
    if torch is not None:
        sync = torch.cuda.synchronize if tdev.startswith("cuda") else (lambda: None)
        base = torch.from_numpy(x).to(tdev)
        if layout == "NHWC":
            layouts = {"channels_last": base.permute(0, 3, 1, 2), "NCHW": base.permute(0, 3, 1, 2).contiguous()}
        else:
            layouts = {"NCHW": base}
        mode = {"linear": "bilinear", "cubic": "bicubic", "nearest": "nearest"}[method]
        kw = dict(size=out_hw, mode=mode)
        if method != "nearest":
            kw.update(align_corners=False, antialias=aa)
        g = None
        if grad:
            g = torch.from_numpy(np.random.default_rng(1).random(out_shape, dtype=np.float32)).to(tdev)
            g = g.permute(0, 3, 1, 2)
        for lname, t in layouts.items():
            try:
                if grad:
                    t = t.clone().requires_grad_(True)
                    gl = g.contiguous() if lname == "NCHW" else g

                    def run(t=t, gl=gl):
                        t.grad = None
                        torch.nn.functional.interpolate(t, **kw).backward(gl)

                else:

                    def run(t=t):
                        with torch.no_grad():
                            torch.nn.functional.interpolate(t, **kw)

                ms = _ms(run, repeats, sync)
            except (RuntimeError, NotImplementedError) as e:  # e.g. no uint8 kernel on this device
                cells.setdefault("notes", []).append(f"torch {lname}: {str(e).splitlines()[0][:60]}")
                continue
            if cells["torch"] is None or ms < cells["torch"]:
                cells["torch"], cells["torch layout"] = ms, lname
        if tv is not None and not grad:
            from torchvision.transforms import InterpolationMode

            interp = {
                "linear": InterpolationMode.BILINEAR,
                "cubic": InterpolationMode.BICUBIC,
                "nearest": InterpolationMode.NEAREST,
            }[method]
            op = tv.Resize(list(out_hw), interpolation=interp, antialias=aa)
            t = layouts["NCHW"]
            try:

                def run_tv(t=t):
                    with torch.no_grad():
                        op(t)

                cells["torchvision"] = _ms(run_tv, repeats, sync)
            except (RuntimeError, NotImplementedError, TypeError) as e:
                cells.setdefault("notes", []).append(f"torchvision: {str(e).splitlines()[0][:60]}")
        del base, layouts, g
        if tdev.startswith("cuda"):
            torch.cuda.empty_cache()
    # bytes of the call's inputs and outputs: (x) -> y, or (x, cotangent) -> dx
    out_bytes = int(np.prod(out_shape)) * (4 if grad or x.dtype == np.float32 else x.itemsize)
    in_out = x.nbytes + out_bytes + (x.nbytes if grad else 0)
    gbps = in_out / (cells["auto"] / 1e3) / 1e9
    peers = [v for v in (cells["torch"], cells["torchvision"], cells["jax.image"]) if v is not None]
    ratio = cells["auto"] / min(peers) if peers else None
    strategies = {s: cells[s] for s in ("dense", "banded", "polyphase") if cells[s] is not None}
    best = min(strategies, key=strategies.get) if strategies else "n/a"

    def f(v, d=2):
        return "n/a" if v is None else v if isinstance(v, str) else f"{v:.{d}f}"

    name = w.name if kind == "tensors" else f"{w.name} (batch {b})"
    torch_cell = f(cells["torch"]) + (f" ({cells['torch layout']})" if cells["torch layout"] else "")
    row = (
        f"| {name} | {f(cells['auto'])} | {f(cells['candidate'])} | {f(cells['dense'])} | {f(cells['banded'])} | "
        f"{f(cells['polyphase'])} | "
        f"{best} | {torch_cell} | {f(cells['torchvision'])} | {f(cells['jax.image'])} | {f(ratio)} | "
        f"{gbps:.1f} | {100 * gbps / bw:.0f}% | {first:.2f} |"
    )
    versus = cells["candidate"]
    versus = versus if versus in (None, "same") else versus / cells["auto"]
    return row, ratio, gbps / bw, cells.get("notes", []), versus


@functools.cache
def _photo_cached(hw):
    import photos

    return photos.photo(*hw)


SPEED_HEADER = (
    "| workload | jax_resize auto ms | candidate rule ms | dense ms | banded ms | polyphase ms | fastest forced | "
    "torch ms | torchvision v2 ms | jax.image ms | auto / fastest peer | auto GB/s | % of copy | first call s | row s |"
)


# --------------------------------------------------------------------------------------------


def speed_section(args, out, start, jax, jnp, accel, torch, tdev, tv, batch, repeats, ratios, fractions, candidates):
    """The speed table; appends each row's auto / fastest peer to ``ratios``, its share of the
    copy bandwidth to ``fractions`` and its candidate / auto to ``candidates``."""
    out("## Speed")
    out()
    _import_benchmarks()
    bw = copy_gbps(jax, jnp, accel)
    out(
        f"Copy bandwidth ({'jitted `x + 1` on 1 GiB float32' if accel else 'numpy copy of 64 MiB'}, read + write): "
        f"{bw:.1f} GB/s. Medians of {repeats} calls after 2 warm-up calls, synchronised; photos are uint8 "
        f"(HxWx3) in batches of {batch}; torch: F.interpolate, the faster of NCHW and channels-last; "
        "jax.image converts uint8 to float32 inside its jit; first call = trace + compile + run of auto; "
        f"a cell stops timing after {CELL_SECONDS:.0f} s (at least 3 calls); the dense strategy only with "
        f"--dense; candidate rule: {f'auto planned with {args.candidate}' if args.candidate else 'none (--candidate)'}"
        " (same: the candidate leaves that row's program as it is)."
    )
    out()
    out(SPEED_HEADER)
    out("|" + "---|" * (SPEED_HEADER.count("|") - 1))
    notes = []
    for kind, w in _speed_rows(args.quick):
        if args.rows and not any(word in w.name for word in args.rows.split(",")):
            continue
        if time.perf_counter() - start > args.budget_s:
            out(f"| {w.name} | skipped: past the {args.budget_s:.0f} s budget |")
            continue
        row_start = time.perf_counter()
        try:
            row, ratio, frac, n, versus = speed_row(
                kind,
                w,
                batch=batch,
                repeats=repeats,
                accel=accel,
                torch=torch,
                tdev=tdev,
                tv=tv,
                bw=bw,
                dense=args.dense,
                candidate=args.candidate,
            )
        except Exception as e:
            out(f"| {w.name} | failed: {type(e).__name__}: {str(e).splitlines()[0][:120]} |")
            continue
        out(f"{row} {time.perf_counter() - row_start:.1f} |")
        if ratio is not None:
            ratios.append(ratio)
        fractions.append(frac)
        if versus is not None:
            candidates.append(versus)
        notes += [f"{w.name}: {x}" for x in n]
    if notes:
        out()
        out("Speed notes: " + "; ".join(notes))


def stream_section(args, out, jax, items) -> None:
    """The eager stream of distinct photo shapes on the default device (one summary item)."""
    _import_benchmarks()
    import streams

    n = args.stream if args.stream is not None else (4 if args.quick else 100)
    if n <= 0:
        return
    compiles = [0]

    def listener(event, duration, **kwargs):
        if event == streams._COMPILE_EVENT:
            compiles[0] += 1

    jax.monitoring.register_event_duration_secs_listener(listener)
    dev = jax.devices()[0]
    held = lambda: (dev.memory_stats() or {}).get("bytes_in_use", 0) / 2**20  # noqa: E731 (None on CPU)
    photo = streams._photo()
    shapes = streams.distinct_shapes(n, 35)
    before = held()
    res = streams.run_stream(shapes, "linear", photo, compiles)
    after = held()
    warm = streams.warm_cost_ms("linear", photo, shapes, 2 if args.quick else 8)
    mean = statistics.fmean(res["times"]) * 1e3
    out("## Stream of distinct shapes (eager, issue 35)")
    out()
    out(
        "| stream | calls | XLA compilations | device memory held MB (before -> after) | mean call ms "
        "| warm ms (mean of its shapes) | mean / warm |"
    )
    out("| --- | --- | --- | --- | --- | --- | --- |")
    out(
        f"| linear aa uint8 -> 224 | {n} | {res['compiles']} | {before:.0f} -> {after:.0f} | {mean:.1f} | "
        f"{warm:.2f} | {mean / warm:.1f}x |"
    )
    out()
    items.append(f"stream {n} shapes: {res['compiles']} compilations, mean/warm {mean / warm:.1f}x")


def main(argv=None) -> int:
    global TORCH_DEVICE
    args = _parse(sys.argv[1:] if argv is None else argv)
    TORCH_DEVICE = args.torch_device
    if args.platform == "cpu":
        os.environ["JAX_PLATFORMS"] = "cpu"
    # jax and torch share the accelerator: keep room for torch's allocations
    os.environ.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.6")
    sys.path.insert(0, str(ROOT / "tests"))
    start = time.perf_counter()
    import jax
    import jax.numpy as jnp
    import numpy as np

    dev = jax.devices()[0]
    accel = dev.platform != "cpu"
    torch, tdev = _torch()
    tv = None
    if torch is not None:
        try:
            from torchvision.transforms import v2 as tv
        except (ImportError, RuntimeError):  # RuntimeError: compiled operators built for another torch
            tv = None
    repeats = args.repeats or (3 if args.quick else 20)
    batch = args.batch or (16 if accel else 1)
    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    torch_dev = "n/a"
    if torch is not None:
        torch_dev = torch.cuda.get_device_name(0) if tdev.startswith("cuda") else tdev
    out("# jax_resize device check")
    out()
    out(
        f"Device: {dev.platform} `{dev.device_kind}` ({len(jax.devices())} devices); jax {jax.__version__}, "
        f"jaxlib backend {jax.default_backend()}; torch {getattr(torch, '__version__', 'n/a')} on {torch_dev}; "
        f"torchvision {'v2 present' if tv is not None else 'n/a'}; numpy {np.__version__}; "
        f"Python {platform.python_version()}; host {os.cpu_count()} cores; "
        f"mode {'quick' if args.quick else 'full'}, {repeats} timed calls per cell."
    )
    out()
    blocks: list[Block] = []
    n_onnx = args.onnx_cases or (ONNX_CASES_QUICK if args.quick else ONNX_CASES)
    precision = None
    runs = [
        ("onnx", "ONNX Resize random cases", lambda: block_onnx(n_onnx)),
        ("pillow", "Pillow-exact uint8 (`pil_*`)", lambda: block_pillow(args.quick)),
        ("torch", "compat.torch_interpolate", lambda: block_torch(args.quick)),
        ("openvino", "openvino_interpolate tables", lambda: block_openvino(args.quick)),
        ("traced", "traced geometry", lambda: block_traced(args.quick)),
        ("grad", "gradients", lambda: block_grad(args.quick)),
        ("nan", "NaN locality", lambda: block_nan(args.quick)),
        ("precision", "precision (dense, float32)", lambda: block_precision(args.quick)),
    ]
    assert [r[0] for r in runs] == list(BLOCK_KEYS)
    out("## Exactness on the device")
    out()
    out("| block | oracle | equal / run | s | notes |")
    out("| --- | --- | --- | --- | --- |")
    for key, name, fn in runs:
        t0 = time.perf_counter()
        try:
            if args.blocks is not None and key not in args.blocks:
                res = Block(name, "-", na="n/a: not selected (--blocks)")
            else:
                res = fn()
            if isinstance(res, tuple):
                res, precision = res
        except Exception as e:  # a block that cannot run is a failure, loudly
            res = Block(name, "-", na=f"ERROR {type(e).__name__}: {e}")
            res.failures.append(traceback.format_exc(limit=3))
        blocks.append(res)
        counts = res.na if res.na else f"{res.equal} / {res.run}"
        notes = "; ".join(([res.worst] if res.worst else []) + res.notes)
        out(f"| {res.name} | {res.oracle} | {counts} | {time.perf_counter() - t0:.1f} | {notes} |")
    failures = [(b.name, f) for b in blocks for f in b.failures]
    if failures:
        out()
        out("Mismatches (first 5 per block):")
        for name, f in failures:
            out(f"- {name}: {f}")
    out()

    ratios, fractions, candidates = [], [], []
    if not args.no_speed:
        speed_section(args, out, start, jax, jnp, accel, torch, tdev, tv, batch, repeats, ratios, fractions, candidates)
    else:
        out("## Speed: not run (--no-speed)")
    out()
    stream_items = []
    try:
        stream_section(args, out, jax, stream_items)
    except Exception as e:  # reported, not fatal: exactness decides the exit status
        stream_items.append(f"stream failed: {type(e).__name__}: {str(e).splitlines()[0][:120]}")

    run_blocks = [b for b in blocks if not b.na]
    equal, total = sum(b.equal for b in run_blocks), sum(b.run for b in run_blocks)
    broken = [b.name for b in blocks if b.na.startswith("ERROR")]
    trivial = precision is not None and precision["trivial"]
    missing = [b.name for b in blocks if b.na and not b.na.startswith("ERROR")]
    missing = [m for m in missing if not (trivial and m == "precision (dense, float32)")]
    items = [f"{equal}/{total} exact"]
    if missing:
        items.append("not run: " + ", ".join(missing))
    if broken:
        items.append("failed to run: " + ", ".join(broken))
    if precision is None:
        items.append("precision not measured")
    elif precision["trivial"]:
        items.append(f"precision n/a (cpu vs cpu, max rel {precision['rel']:.1g})")
    else:
        ok = precision["rel"] <= PRECISION_BOUND
        items.append(f"precision {'HIGHEST' if ok else 'NOT float32'} (dense vs cpu max rel {precision['rel']:.1g})")
    if ratios:
        items.append(f"speed median auto / fastest peer {statistics.median(ratios):.2f} over {len(ratios)} rows")
    if fractions:
        items.append(f"median {100 * statistics.median(fractions):.0f}% of copy bandwidth")
    if candidates:
        changed = [r for r in candidates if r != "same"]
        same = len(candidates) - len(changed)
        if changed:
            faster, slower = sum(r < 0.95 for r in changed), sum(r > 1.05 for r in changed)
            items.append(
                f"candidate rule / auto median {statistics.median(changed):.2f} over {len(changed)} changed rows "
                f"({faster} faster, {slower} slower by 5 %+; {same} rows the same program)"
            )
        else:
            items.append(f"candidate rule changes none of the {same} rows' programs")
    items += stream_items
    items.append(f"{time.perf_counter() - start:.0f} s")
    summary = f"device check ({dev.platform} {dev.device_kind}): " + ", ".join(items)
    ok = equal == total and not broken
    if args.output:
        pathlib.Path(args.output).write_text("\n".join(lines) + "\n\n" + summary + "\n")
    print(summary, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
