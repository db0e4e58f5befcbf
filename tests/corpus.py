"""Behaviour corpus: record every front end's outputs at one commit, compare them bit for bit later.

``python tests/corpus.py record [--out .corpus/corpus.npz] [--cases N] [--seed S] [--no-large]``
draws ``N`` cases (case ``i`` from ``numpy.random.default_rng([seed, i])``: a prefix of a larger
corpus is the same cases), runs each with the current code and stores, per output, its dtype,
shape and sha256 (plus the bytes when the output has at most ``KEEP_ELEMENTS`` elements, so a
difference can be measured); a refusal stores its exception type and message. A fixed list of
large cases (``LARGE``) reaches the CPU-only forms (row loop, blocked chain, fused x0.5
decimation, looped taps, host-fetched plans); their outputs are kept as hashes only.

``python tests/corpus.py compare [--corpus .corpus/corpus.npz] [--allow-diff]`` redraws every
case (its description and input hash must match the recorded ones, else the case is an error:
the corpus script or numpy's generator changed, not the library), runs it again and reports per
case whether dtype, shape and bytes are identical; a refusal must stay a refusal of the same
type (a changed message is listed, not counted as a difference). Exit 1 when any case differs or
errors, unless ``--allow-diff``.

This is a regression tool, not an oracle: it proves that a refactor did not move results, never
that the results are right (the test suite's oracles do that).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import hashlib
import json
import os
import pathlib
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import onnx_oracles as O  # noqa: E402

import jax_resize  # noqa: E402
from jax_resize import compat  # noqa: E402
from jax_resize._src.peers import jax_image as _jax_image  # noqa: E402
from jax_resize._src.peers import onnx as _onnx  # noqa: E402
from jax_resize._src.peers import openvino as _openvino  # noqa: E402
from jax_resize._src.peers import pillow as _pillow  # noqa: E402
from jax_resize._src.peers import pillow_modes as _pillow_modes  # noqa: E402
from jax_resize._src.peers import tensorflow as _tensorflow  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_PATH = ROOT / ".corpus" / "corpus.npz"
DEFAULT_SEED = 34
DEFAULT_CASES = 2500
#: Outputs with at most this many elements are stored whole (to measure a difference); larger
#: ones only as dtype, shape and sha256.
KEEP_ELEMENTS = 20_000
#: Input elements a drawn case may have (the large cases are listed apart).
MAX_ELEMENTS = 10_000

BF16 = O.BFLOAT16
#: Input dtypes of the generic front ends (float64 always under x64); some front ends refuse
#: some of them, and the refusal is recorded.
DTYPES = ("uint8", "int8", "int32", "float16", "bfloat16", "float32", "float64")
DTYPE_P = (0.2, 0.08, 0.08, 0.1, 0.1, 0.34, 0.1)
STRATEGIES = ("auto", "dense", "banded", "polyphase")


@dataclasses.dataclass
class Case:
    """One call: ``fn(x, *traced)`` with everything else closed over. ``mode``: ``eager``, ``jit``
    (``x`` and ``traced`` are arguments of a ``jax.jit``) or ``host`` (no JAX transformation
    applies: ``weight_matrix``); ``grad``: also ``d/dx sum(fn(x) * w)`` (in the same mode), ``w``
    a fixed cosine pattern of the output's shape."""

    id: str
    front: str
    desc: dict
    fn: Callable
    x: Any
    traced: tuple = ()
    mode: str = "eager"
    grad: bool = False
    x64: bool = False

    def description(self) -> str:
        x = np.ascontiguousarray(np.asarray(self.x)) if self.x is not None else None
        d = dict(
            self.desc,
            front=self.front,
            mode=self.mode,
            grad=self.grad,
            x64=self.x64,
            x=None if x is None else [str(x.dtype), list(x.shape), _sha(x)[:16]],
            traced=[_sha(np.ascontiguousarray(np.asarray(t)))[:16] for t in self.traced],
        )
        return json.dumps(d, sort_keys=True, default=repr)


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(a.tobytes()).hexdigest()


# --- drawing ---------------------------------------------------------------------------------


def _dtype(rng, choices=DTYPES, p=DTYPE_P):
    p = np.asarray(p, float)
    return str(choices[int(rng.choice(len(choices), p=p / p.sum()))])


def _data(rng, shape, dtype: str):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype == "complex64":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
    # onnx_oracles._data's rule, copied so that an edit there does not redraw this corpus
    dt = BF16 if dtype == "bfloat16" else np.dtype(dtype)
    if dt.kind == "f" or dt == BF16:
        return (rng.standard_normal(shape) * (4.0 if dt in (np.float16, BF16) else 10.0)).astype(dt)
    info = np.iinfo(dt)
    if dt.itemsize == 1:  # full range: saturation of cubic overshoot
        lo, hi = int(info.min), int(info.max)
    else:  # values exactly representable in float32
        lo, hi = max(int(info.min), -20000), min(int(info.max), 20000)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)


def _shape(rng, rank: int, max_side: int = 16, max_elements: int = MAX_ELEMENTS) -> list[int]:
    shape = [int(rng.integers(1, max_side + 1)) for _ in range(rank)]
    while int(np.prod(shape)) > max_elements:
        i = int(np.argmax(shape))
        shape[i] = max(1, shape[i] // 2)
    return shape


def _out(rng, n: int, max_side: int = 24) -> int:
    """An output length for an input length ``n``: equal, a shrink, a growth or an integer ratio."""
    kind = rng.choice(["same", "down", "up", "half", "double"], p=[0.1, 0.35, 0.35, 0.1, 0.1])
    if kind == "same":
        return n
    if kind == "half":
        return max(1, n // 2)
    if kind == "double":
        return min(2 * n, 2 * max_side)
    if kind == "down":
        return int(rng.integers(1, n + 1))
    return int(rng.integers(n, max_side + 1)) if n < max_side else n + 1


def _mode(rng, p_jit=0.5) -> str:
    return "jit" if rng.random() < p_jit else "eager"


def _grad(rng, dtype: str, p=0.25) -> bool:
    return dtype in ("float16", "bfloat16", "float32", "float64") and rng.random() < p


def _x64(rng, dtype: str) -> bool:
    return dtype in ("float64", "int64") or rng.random() < 0.1


def _common(rng, dtype, p_jit=0.5, p_grad=0.25):
    return dict(mode=_mode(rng, p_jit), grad=_grad(rng, dtype, p_grad), x64=_x64(rng, dtype))


def _limit(shape_in, shape_out):
    """Halves the largest output axis until the output has at most MAX_ELEMENTS elements."""
    shape_out = list(shape_out)
    while int(np.prod(shape_out)) > MAX_ELEMENTS:
        i = int(np.argmax(shape_out))
        shape_out[i] = max(1, shape_out[i] // 2)
    return shape_out


def draw_resize_jax(rng):
    dtype = _dtype(rng, DTYPES + ("complex64", "bool"), DTYPE_P + (0.03, 0.02))
    rank = int(rng.integers(1, 5))
    shape = _shape(rng, rank)
    out = _limit(shape, [_out(rng, n) for n in shape])
    method = str(rng.choice(list(_jax_image.METHODS) + ["bilinear", "trilinear", "bicubic"]))
    kw = dict(method=method, antialias=bool(rng.random() < 0.6), strategy=str(rng.choice(STRATEGIES)))
    if rng.random() < 0.1:
        kw["precision"] = str(rng.choice(["DEFAULT", "HIGH", "HIGHEST"]))
    x = _data(rng, shape, dtype)
    return _resize_case(kw, x, out, rng, dtype)


def _resize_case(kw, x, out, rng, dtype, **extra):
    call = dict(kw)
    if "precision" in call:
        call["precision"] = getattr(jax.lax.Precision, call["precision"])

    def fn(x):
        return jax_resize.resize(x, tuple(out), **call)

    c = _common(rng, dtype)
    if dtype == "complex64":
        c["grad"] = False
    return dict(desc=dict(kw, shape_out=out, **extra), fn=fn, x=x, **c)


def draw_resize_onnx_options(rng):
    dtype = _dtype(rng)
    rank = int(rng.integers(1, 4))
    shape = _shape(rng, rank)
    out = _limit(shape, [_out(rng, n) for n in shape])
    ctm = str(rng.choice(_onnx.COORDINATE_TRANSFORMATION_MODES))
    kw: dict = dict(
        method=str(rng.choice(["nearest", "linear", "cubic", "lanczos3", "cubic-pytorch"])),
        antialias=bool(rng.random() < 0.5),
        coordinate_transformation_mode=ctm,
        strategy=str(rng.choice(STRATEGIES)),
    )
    if rng.random() < 0.5:
        kw["nearest_mode"] = str(rng.choice(_onnx.NEAREST_MODES))
    if rng.random() < 0.4:
        kw["cubic_coeff_a"] = float(np.round(rng.uniform(-1.0, 0.0), 3))
    if rng.random() < 0.4:
        kw["exclude_outside"] = bool(rng.random() < 0.5)
    if ctm == "tf_crop_and_resize":
        lo = np.round(rng.uniform(-0.2, 0.5, rank), 3)
        hi = np.round(lo + rng.uniform(0.1, 1.0, rank), 3)
        kw["roi"] = [float(v) for v in np.concatenate([lo, hi])]
        kw["extrapolation_value"] = float(np.round(rng.uniform(-5, 5), 2))
    return _resize_case(kw, _data(rng, shape, dtype), out, rng, dtype)


def draw_resize_pil(rng):
    dtype = _dtype(
        rng, ("uint8", "int32", "float32", "float16", "int8", "float64"), (0.6, 0.08, 0.15, 0.05, 0.05, 0.07)
    )
    alpha = rng.choice(["none", "straight", "premultiplied"], p=[0.5, 0.15, 0.35])
    if alpha == "premultiplied" and rng.random() < 0.9:  # mostly LA / RGBA uint8 images
        channels = int(rng.choice([2, 4]))
        dtype = "uint8" if rng.random() < 0.9 else dtype
    else:
        channels = int(rng.choice([0, 1, 2, 3, 4]))
    shape = _shape(rng, 2, 24) + ([channels] if channels else [])
    out = _limit(shape, [_out(rng, n, 32) for n in shape[:2]] + shape[2:])
    if channels and rng.random() < 0.05:
        out[2] = channels + 1  # a channel change: refused
    kw: dict = dict(method=str(rng.choice(_pillow.METHODS)), strategy=str(rng.choice(STRATEGIES)))
    if alpha != "none":
        kw["alpha"] = str(alpha)
    if rng.random() < 0.15:
        kw["cubic_coeff_a"] = float(np.round(rng.uniform(-1.0, 0.0), 3))
    return _resize_case(kw, _data(rng, shape, dtype), out, rng, dtype)


def _onnx_case(rng, index, seed, api):
    opset = int(rng.choice(O.OPSETS))
    dtypes = (BF16,) if rng.random() < 0.08 else O.ALL_DTYPES
    case = O.random_case(f"onnx{index}", (seed, 34, index), opset=opset, dtypes=dtypes)
    dtype = str(np.dtype(case.x.dtype))
    scales_dtype = np.float64 if rng.random() < 0.7 else np.float32
    scales = None if case.scales is None else np.asarray(case.scales, np.float32).astype(scales_dtype)
    strategy = str(rng.choice(STRATEGIES)) if api == "kw" else None
    if api == "node":
        node = case.node()
        inputs = [
            scales if n == "scales" and v is not None and v.size else v
            for n, v in zip(case.input_names(), case.node_inputs())
        ][1:]

        def fn(x):
            return jax_resize.onnx_node_resize(node, x, *inputs, opset=opset)
    else:

        def fn(x):
            return jax_resize.onnx_resize(
                x, roi=case.roi, scales=scales, sizes=case.sizes, opset=opset, strategy=strategy, **case.attrs
            )

    desc = dict(case=case.describe(), scales_dtype=np.dtype(scales_dtype).name, strategy=strategy, api=api)
    c = _common(rng, dtype)
    c["x64"] = c["x64"] or dtype in ("float64", "int64")
    return dict(desc=desc, fn=fn, x=case.x, **c)


def draw_onnx_resize(rng, index, seed):
    return _onnx_case(rng, index, seed, "kw")


def draw_onnx_node_resize(rng, index, seed):
    return _onnx_case(rng, index, seed, "node")


def draw_openvino(rng):
    ov = _openvino
    dtype = _dtype(rng)
    rank = int(rng.integers(1, 5))
    shape = _shape(rng, rank)
    axes = sorted(int(a) for a in rng.choice(rank, int(rng.integers(1, rank + 1)), replace=False))
    if rng.random() < 0.2:
        axes = [a - rank for a in axes[::-1]]
    pads_b = [int(rng.integers(0, 3)) if rng.random() < 0.2 else 0 for _ in range(rank)]
    pads_e = [int(rng.integers(0, 3)) if rng.random() < 0.2 else 0 for _ in range(rank)]
    scm = str(rng.choice(ov.SHAPE_CALCULATION_MODES))
    padded = [n + b + e for n, b, e in zip(shape, pads_b, pads_e)]
    if scm == "sizes":
        values = [_out(rng, padded[a]) for a in axes]
    else:
        values = [float(np.float32(_out(rng, padded[a]) / padded[a] + rng.choice([0, 0.013]))) for a in axes]
    kw = dict(
        axes=axes,
        mode=str(rng.choice(ov.MODES)),
        shape_calculation_mode=scm,
        coordinate_transformation_mode=str(rng.choice(ov.COORDINATE_TRANSFORMATION_MODES)),
        nearest_mode=str(rng.choice(ov.NEAREST_MODES)),
        antialias=bool(rng.random() < 0.4),
        pads_begin=pads_b,
        pads_end=pads_e,
        cube_coeff=float(rng.choice([-0.75, -0.5])),
        strategy=str(rng.choice(STRATEGIES)),
    )

    def fn(x):
        return jax_resize.openvino_interpolate(x, values, **kw)

    return dict(desc=dict(kw, values=values), fn=fn, x=_data(rng, shape, dtype), **_common(rng, dtype))


def draw_scale_and_translate(rng):
    dtype = _dtype(rng)
    rank = int(rng.integers(1, 5))
    shape = _shape(rng, rank)
    dims = sorted(int(a) for a in rng.choice(rank, int(rng.integers(1, rank + 1)), replace=False))
    out = list(shape)
    for a in dims:
        out[a] = _out(rng, shape[a])
    out = _limit(shape, out)
    scale = [float(np.round(out[a] / shape[a] * rng.choice([1.0, rng.uniform(0.7, 1.4)]), 4)) for a in dims]
    translation = [float(np.round(rng.choice([0.0, rng.uniform(-3, 3)]), 3)) for _ in dims]
    method = str(rng.choice(["linear", "cubic", "lanczos3", "lanczos5", "cubic-pytorch", "area", "nearest"]))
    kw: dict = dict(method=method, antialias=bool(rng.random() < 0.6))
    if rng.random() < 0.3:
        kw["exclude_outside"] = bool(rng.random() < 0.5)
    if rng.random() < 0.2:
        kw["cubic_coeff_a"] = -0.75
    mode = str(rng.choice(["eager", "jit", "jit-traced"]))
    c = _common(rng, dtype)
    desc = dict(kw, shape_out=out, dims=dims, scale=scale, translation=translation)
    if mode == "jit-traced":

        def fn_traced(x, s, t):
            return jax_resize.scale_and_translate(x, tuple(out), dims, s, t, **kw)

        traced = (np.asarray(scale, np.float32), np.asarray(translation, np.float32))
        return dict(desc=desc, fn=fn_traced, x=_data(rng, shape, dtype), traced=traced, **dict(c, mode="jit"))

    def fn(x):
        return jax_resize.scale_and_translate(x, tuple(out), dims, scale, translation, **kw)

    return dict(desc=desc, fn=fn, x=_data(rng, shape, dtype), **dict(c, mode=mode))


def draw_ragged(rng):
    dtype = _dtype(rng)
    n = int(rng.integers(1, 4))
    rank = int(rng.integers(1, 4))
    shape = _shape(rng, rank, 14, MAX_ELEMENTS // n)
    k = int(rng.integers(1, rank + 1))
    sizes = np.stack([rng.integers(1, shape[j] + 1, n) for j in range(k)], axis=1).astype(np.int32)
    out = _limit(shape, [_out(rng, d) for d in shape])
    kw = dict(
        method=str(rng.choice(_jax_image.METHODS)),
        antialias=bool(rng.random() < 0.6),
        strategy=str(rng.choice(STRATEGIES)),
        letterbox=bool(rng.random() < 0.25),
    )
    c = _common(rng, dtype, p_jit=0.75, p_grad=0.15)  # eager runs op by op: mostly jit
    x = _data(rng, [n] + shape, dtype)
    desc = dict(kw, shape_out=out, sizes=sizes.tolist())
    if c["mode"] == "jit" and rng.random() < 0.7:  # the sizes traced

        def fn_traced(x, s):
            return jax_resize.resize_ragged(x, s, tuple(out), **kw)

        return dict(desc=dict(desc, sizes_traced=True), fn=fn_traced, x=x, traced=(sizes,), **c)

    def fn(x):
        return jax_resize.resize_ragged(x, sizes, tuple(out), **kw)

    return dict(desc=desc, fn=fn, x=x, **c)


def draw_crop_and_resize(rng):
    dtype = _dtype(rng)
    n = int(rng.integers(1, 3))
    h, w, ch = _shape(rng, 3, 16, MAX_ELEMENTS // n)
    nb = int(rng.integers(1, 5))
    boxes = np.round(rng.uniform(-0.2, 1.2, (nb, 4)), 3).astype(np.float32)
    idx = rng.integers(0, n, nb).astype(np.int32)
    crop = (int(rng.integers(1, 12)), int(rng.integers(1, 12)))
    kw = dict(
        method=str(rng.choice(["bilinear", "nearest", "linear", "cubic", "lanczos3", "cubic-pytorch", "area"])),
        extrapolation_value=float(rng.choice([0.0, 1.5])),
        antialias=bool(rng.random() < 0.4),
    )
    c = _common(rng, dtype, p_jit=0.75, p_grad=0.15)  # eager runs op by op: mostly jit
    x = _data(rng, [n, h, w, ch], dtype)
    desc = dict(kw, boxes=boxes.tolist(), box_indices=idx.tolist(), crop=crop)
    if c["mode"] == "jit" and rng.random() < 0.7:  # the boxes traced

        def fn_traced(x, b):
            return jax_resize.crop_and_resize(x, b, idx, crop, **kw)

        return dict(desc=dict(desc, boxes_traced=True), fn=fn_traced, x=x, traced=(boxes,), **c)

    def fn(x):
        return jax_resize.crop_and_resize(x, boxes, idx, crop, **kw)

    return dict(desc=desc, fn=fn, x=x, **c)


def draw_weight_matrix(rng):
    n = int(rng.integers(1, 40))
    o = _out(rng, n, 48)
    kw: dict = dict(
        mode=str(rng.choice(["nearest", "linear", "cubic"])),
        coordinate_transformation_mode=str(rng.choice(_onnx.COORDINATE_TRANSFORMATION_MODES)),
        nearest_mode=str(rng.choice(_onnx.NEAREST_MODES)),
        cubic_coeff_a=float(rng.choice([-0.75, -0.5])),
        exclude_outside=bool(rng.random() < 0.3),
        antialias=bool(rng.random() < 0.4),
    )
    if rng.random() < 0.3:
        kw["scale"] = float(np.round(o / n * rng.uniform(0.8, 1.2), 4))
    if kw["coordinate_transformation_mode"] == "tf_crop_and_resize":
        lo = float(np.round(rng.uniform(-0.2, 0.5), 3))
        kw["roi"] = (lo, float(np.round(lo + rng.uniform(0.1, 1.0), 3)))

    def fn(_):
        return jax_resize.weight_matrix(n, o, **kw)

    return dict(desc=dict(kw, n=n, o=o), fn=fn, x=None, mode="host", grad=False, x64=bool(rng.random() < 0.2))


def draw_torch(rng):
    dtype = _dtype(rng)
    mode = str(
        rng.choice(["nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area", "lanczos"])
    )
    ranks = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5, "lanczos": 4}
    rank = ranks[mode] if mode in ranks and rng.random() < 0.9 else int(rng.choice([3, 4, 5], p=[0.3, 0.55, 0.15]))
    shape = _shape(rng, rank, 12)
    shape[0], shape[1] = min(shape[0], 2), min(shape[1], 3)
    kw: dict = dict(mode=mode, antialias=bool(rng.random() < 0.3))
    if rng.random() < 0.6:
        kw["size"] = _limit(shape, [_out(rng, d) for d in shape[2:]])
    else:
        kw["scale_factor"] = [float(np.round(rng.uniform(0.3, 2.5), 3)) for _ in shape[2:]]
        if rng.random() < 0.3:
            kw["recompute_scale_factor"] = bool(rng.random() < 0.5)
    if rng.random() < 0.5:
        kw["align_corners"] = bool(rng.random() < 0.5)

    def fn(x):
        return compat.torch_interpolate(x, **kw)

    return dict(desc=kw, fn=fn, x=_data(rng, shape, dtype), **_common(rng, dtype))


def draw_pil_resize(rng):
    dtype = _dtype(
        rng,
        ("uint8", "int32", "uint16", "float32", "float64", "bool", "int8"),
        (0.55, 0.1, 0.06, 0.14, 0.05, 0.04, 0.06),
    )
    channels = int(rng.choice([0, 2, 3, 4])) if dtype == "uint8" else int(rng.choice([0, 0, 0, 3]))
    shape = _shape(rng, 2, 24) + ([channels] if channels else [])
    size = [_out(rng, shape[1], 32), _out(rng, shape[0], 32)]
    kw: dict = dict(resample=int(rng.integers(0, len(compat.Resampling))))
    if rng.random() < 0.25:
        w, h = shape[1], shape[0]
        x0, y0 = float(np.round(rng.uniform(0, w / 2), 2)), float(np.round(rng.uniform(0, h / 2), 2))
        kw["box"] = (x0, y0, float(np.round(rng.uniform(x0 + 0.5, w), 2)), float(np.round(rng.uniform(y0 + 0.5, h), 2)))
    if rng.random() < 0.25:
        kw["reducing_gap"] = float(rng.choice([1.0, 1.5, 2.0, 3.0]))
    if rng.random() < 0.2:
        modes = _pillow_modes.array_modes(shape, np.dtype(dtype))
        if modes:
            kw["mode"] = str(rng.choice(modes))

    def fn(x):
        return compat.pil_resize(x, tuple(size), **kw)

    c = _common(rng, dtype)
    return dict(desc=dict(kw, size=size), fn=fn, x=_data(rng, shape, dtype), **c)


def draw_cv2(rng):
    dtype = _dtype(
        rng,
        ("uint8", "uint16", "int16", "float32", "float64", "int8", "int32", "float16"),
        (0.35, 0.08, 0.08, 0.25, 0.08, 0.06, 0.06, 0.04),
    )
    rank = int(rng.choice([2, 3]))
    shape = _shape(rng, 2, 24) + ([int(rng.choice([1, 3, 4, 5]))] if rank == 3 else [])
    kw: dict = dict(interpolation=int(rng.integers(0, 7)))
    if rng.random() < 0.7:
        kw["dsize"] = (_out(rng, shape[1], 32), _out(rng, shape[0], 32))
    else:
        kw["dsize"] = None
        kw["fx"], kw["fy"] = (float(rng.choice([0.5, 2.0, np.round(rng.uniform(0.2, 2.5), 3)])) for _ in range(2))

    def fn(x):
        return compat.cv2_resize(x, **kw)

    return dict(desc=kw, fn=fn, x=_data(rng, shape, dtype), **_common(rng, dtype))


def draw_tf(rng):
    tf = _tensorflow
    dtype = _dtype(rng, DTYPES + ("bool",), DTYPE_P + (0.02,))
    fname = str(
        rng.choice(
            [
                "tf_resize",
                "tf_resize_v1",
                "tf_resize_bilinear",
                "tf_resize_bicubic",
                "tf_resize_nearest_neighbor",
                "tf_resize_area",
            ],
            p=[0.5, 0.14, 0.1, 0.1, 0.08, 0.08],
        )
    )
    rank = int(rng.choice([3, 4])) if fname in ("tf_resize", "tf_resize_v1") else 4  # the TF1 kernels: 4-D
    shape = _shape(rng, rank, 16)
    if rank == 4:
        shape[0] = min(shape[0], 2)
    hw = shape[-3:-1]
    size = _limit(hw, [_out(rng, d) for d in hw])
    kw: dict = {}
    if fname == "tf_resize":
        kw = dict(
            method=str(rng.choice(tf.TF_METHODS)),
            preserve_aspect_ratio=bool(rng.random() < 0.2),
            antialias=bool(rng.random() < 0.5),
        )
    elif fname == "tf_resize_v1":
        kw = dict(
            method=int(rng.integers(0, 4)),
            align_corners=bool(rng.random() < 0.4),
            preserve_aspect_ratio=bool(rng.random() < 0.2),
        )
    else:
        kw = dict(align_corners=bool(rng.random() < 0.4))
        if fname != "tf_resize_area":
            kw["half_pixel_centers"] = bool(rng.random() < 0.5)
    f = getattr(compat, fname)

    def fn(x):
        return f(x, tuple(size), **kw)

    return dict(desc=dict(kw, fn=fname, size=size), fn=fn, x=_data(rng, shape, dtype), **_common(rng, dtype))


#: Front ends by name: (share of the drawn cases, drawer). A drawer gets ``rng`` (and, for the
#: ONNX ones, the case index and seed for ``onnx_oracles.random_case``).
FRONT_ENDS: dict[str, tuple[float, Callable]] = {
    "resize": (0.13, draw_resize_jax),
    "resize_onnx_options": (0.08, draw_resize_onnx_options),
    "resize_pil": (0.10, draw_resize_pil),
    "onnx_resize": (0.12, draw_onnx_resize),
    "onnx_node_resize": (0.05, draw_onnx_node_resize),
    "openvino_interpolate": (0.08, draw_openvino),
    "scale_and_translate": (0.07, draw_scale_and_translate),
    "resize_ragged": (0.04, draw_ragged),
    "crop_and_resize": (0.04, draw_crop_and_resize),
    "weight_matrix": (0.03, draw_weight_matrix),
    "torch_interpolate": (0.06, draw_torch),
    "pil_resize": (0.06, draw_pil_resize),
    "cv2_resize": (0.06, draw_cv2),
    "tf_resize": (0.06, draw_tf),
}


def draw(index: int, seed: int) -> Case:
    """Case ``index`` of the corpus of ``seed`` (independent of how many cases are drawn)."""
    rng = np.random.default_rng([seed, index])
    names = list(FRONT_ENDS)
    p = np.asarray([FRONT_ENDS[n][0] for n in names])
    front = names[int(rng.choice(len(names), p=p / p.sum()))]
    drawer = FRONT_ENDS[front][1]
    parts = drawer(rng, index, seed) if front in ("onnx_resize", "onnx_node_resize") else drawer(rng)
    case = Case(id=f"{index:05d}-{front}", front=front, **parts)
    if seed == DEFAULT_SEED and case.id in GRADIENT_LEFT_OUT and case.grad:
        case.grad = False
        case.desc = dict(case.desc, gradient_left_out=GRADIENT_LEFT_OUT[case.id])
    return case


#: Drawn gradient cases that cannot be recorded, by id (default seed): the forward result is still
#: recorded, the gradient is not, and record and compare list them. Each is a finding, not a skip.
#: (Case 00403's gradient, left out up to commit 91fec92 for a compilation of more than 100 s and
#: 7 GB, compiles in 0.2 s since: a base recorded before that commit needs the entry back.)
GRADIENT_LEFT_OUT: dict[str, str] = {}


# --- large cases: the CPU-only forms (thresholds in jax_resize/_src/execution/tuning.py) --


def _large(name, shape, dtype, fn, *, mode="eager", grad=False, x64=False, note=""):
    def build(seed):
        rng = np.random.default_rng([seed, 1 << 20, sum(map(ord, name))])
        x = _data(rng, shape, dtype)
        return Case(
            id=f"L-{name}",
            front="large",
            desc=dict(note=note, shape=list(shape), dtype=dtype),
            fn=fn,
            x=x,
            mode=mode,
            grad=grad,
            x64=x64,
        )

    return name, build


def _large_cases():
    r = jax_resize.resize
    cases = []
    for mode in ("eager", "jit"):
        cases += [
            _large(
                f"row-loop-{mode}",
                (2048, 1536, 3),
                "float32",
                lambda x: r(x, (80, 60, 3), "linear"),
                mode=mode,
                note="a band of ~54 taps over rows of 4608: banded.row_loop",
            ),
            _large(
                f"row-loop-pil-{mode}",
                (3000, 1200, 3),
                "uint8",
                lambda x: r(x, (100, 1000, 3), "pil_bilinear"),
                mode=mode,
                note="Pillow's int32 fixed point, height pass first (~62 taps over rows of 3600): a row loop",
            ),
            _large(
                f"row-loop-before-band-{mode}",
                (1536, 2048, 3),
                "uint8",
                lambda x: r(x, (533, 400, 3), "linear"),
                mode=mode,
                note="a first pass read by a band of <= XLA_MAX_DUPLICATION taps: a row loop",
            ),
            _large(
                f"chain-blocks-{mode}",
                (3000, 4000, 3),
                "uint8",
                lambda x: r(x, (768, 1024, 3), "linear"),
                mode=mode,
                note="12 MP -> 768x1024: a 37 MB intermediate computed in blocks (chain.BLOCK_MIN_BYTES)",
            ),
            _large(
                f"polyphase-fused-half-{mode}",
                (2160, 3840, 3),
                "uint8",
                lambda x: r(x, (1080, 1920, 3), "linear"),
                mode=mode,
                note="4K x0.5: two integer decimations fused into one pass (chain.FUSED_MAX_TERMS)",
            ),
            _large(
                f"looped-small-{mode}",
                (200_000,),
                "float32",
                lambda x: r(x, (7,), "linear"),
                mode=mode,
                note="~57000 taps: the small looped form (banded.LOOP_ELEMENTS)",
            ),
            _large(
                f"looped-large-{mode}",
                (4096, 256),
                "float32",
                lambda x: r(x, (32, 256), "lanczos3"),
                mode=mode,
                note="770 taps, 32 x 256 elements a tap: the unrolled-chunk loop (banded.LOOP_CHUNK)",
            ),
            _large(
                f"torch-uint8-antialias-{mode}",
                (1, 3, 1536, 2048),
                "uint8",
                lambda x: compat.torch_interpolate(x, (224, 224), mode="bilinear", antialias=True),
                mode=mode,
                note="torch's uint8 policy on a large antialiased shrink",
            ),
            _large(
                f"cv2-area-{mode}",
                (2000, 3000, 3),
                "uint8",
                lambda x: compat.cv2_resize(x, (750, 500), interpolation=compat.INTER_AREA),
                mode=mode,
                note="integer-ratio area: polyphase with one phase",
            ),
        ]
    cases += [
        _large(
            "fetched-plan-jit",
            (1_000_000,),
            "float32",
            lambda x: jax_resize.onnx_resize(x, sizes=[999], mode="linear", antialias=1),
            mode="jit",
            note="plan arrays >= apply.FETCH_MIN_BYTES read by a host callback inside jit",
        ),
        _large(
            "grad-lanczos3-jit",
            (1024, 1024),
            "float32",
            lambda x: r(x, (300, 300), "lanczos3"),
            mode="jit",
            grad=True,
            note="the transpose of wide bands",
        ),
        _large(
            "grad-row-loop",
            (2048, 1536, 3),
            "float32",
            lambda x: r(x, (80, 60, 3), "linear"),
            grad=True,
            note="the transpose of a row loop",
        ),
    ]
    return dict(cases)


LARGE = _large_cases()


# --- running -----------------------------------------------------------------------------------


def _weights_like(y):
    dtype = jnp.promote_types(y.dtype, jnp.float32)
    return jnp.cos(jnp.arange(y.size, dtype=jnp.float32).reshape(y.shape) * 0.37 + 0.1).astype(dtype)


def execute(case: Case) -> dict[str, np.ndarray]:
    """Runs ``case``: ``{"y": output}`` plus ``"dx"`` for a gradient case."""
    ctx = jax.enable_x64(True) if case.x64 else jax.enable_x64(False)
    with ctx:
        if case.mode == "host":
            return {"y": np.asarray(case.fn(None))}
        x = case.x
        f = jax.jit(case.fn) if case.mode == "jit" else case.fn
        out = {"y": np.asarray(f(x, *case.traced))}
        if case.grad:

            def loss(x, *t):
                y = case.fn(x, *t)
                yf = y.astype(jnp.promote_types(y.dtype, jnp.float32))
                return jnp.sum(yf * _weights_like(yf))

            g = jax.grad(loss)
            g = jax.jit(g) if case.mode == "jit" else g
            out["dx"] = np.asarray(g(jnp.asarray(x), *case.traced))
        return out


def run_case(case: Case) -> dict:
    """The record of one case: its description, and its outputs or its refusal."""
    entry: dict = {"front": case.front, "desc": case.description()}
    try:
        outputs = execute(case)
    except Exception as error:  # a refusal is behaviour too
        entry["error"] = {"type": type(error).__name__, "message": str(error)[:2000]}
        return entry
    entry["outputs"] = {}
    for name, a in outputs.items():
        a = np.ascontiguousarray(a)
        entry["outputs"][name] = {"dtype": str(a.dtype), "shape": list(a.shape), "sha256": _sha(a), "array": a}
    return entry


def cases(seed: int, n: int, large: bool):
    """``(id, builder)`` of the corpus, in order; a builder returns the :class:`Case`."""
    out = [(f"{i:05d}", (lambda i=i: draw(i, seed))) for i in range(n)]
    if large:
        out += [(f"L-{name}", (lambda b=build: b(seed))) for name, build in LARGE.items()]
    return out


# --- metadata ------------------------------------------------------------------------------------


def _git(*args) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _cpu_threads() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def metadata(seed: int, n: int, large: bool) -> dict:
    import jaxlib
    import ml_dtypes

    return {
        "seed": seed,
        "cases": n,
        "large": large,
        "commit": _git("rev-parse", "HEAD"),
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no", "--", "jax_resize")),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "versions": {
            "jax": jax.__version__,
            "jaxlib": jaxlib.__version__,
            "numpy": np.__version__,
            "ml_dtypes": ml_dtypes.__version__,
            "python": platform.python_version(),
        },
        # The CPU forms depend on these (the CPU row's row_loop_max_threads against the affinity).
        "environment": {
            "backend": jax.default_backend(),
            "machine": platform.machine(),
            "cpu_threads": _cpu_threads(),
            "XLA_FLAGS": os.environ.get("XLA_FLAGS", ""),
            "JAX_ENABLE_X64": os.environ.get("JAX_ENABLE_X64", ""),
        },
    }


# --- record / compare ------------------------------------------------------------------------------


VERBOSE = False


def _progress(i, total, start, label):
    if VERBOSE or (i + 1) % 250 == 0 or i + 1 == total:
        print(f"  {label} {i + 1}/{total} ({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)


def record(path: pathlib.Path, seed: int, n: int, large: bool) -> dict:
    meta = metadata(seed, n, large)
    index, arrays = {}, {}
    todo = cases(seed, n, large)
    start = time.monotonic()
    for i, (_, build) in enumerate(todo):
        case = build()
        if VERBOSE:
            print(f"  {case.id} ...", file=sys.stderr, flush=True)
        entry = run_case(case)
        for name, o in entry.get("outputs", {}).items():
            a = o.pop("array")
            o["stored"] = a.size <= KEEP_ELEMENTS
            if o["stored"]:
                arrays[f"{case.id}.{name}"] = np.frombuffer(a.tobytes(), np.uint8)
        index[case.id] = entry
        _progress(i, len(todo), start, "recorded")
    meta["seconds"] = round(time.monotonic() - start, 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        __meta__=np.asarray(json.dumps(meta)),
        __index__=np.asarray(json.dumps(index)),
        **arrays,
    )
    errors = sum("error" in e for e in index.values())
    print(f"recorded {len(index)} cases ({errors} refusals) in {meta['seconds']} s -> {path}")
    _left_out(index)
    return meta


def _left_out(index):
    for cid, reason in GRADIENT_LEFT_OUT.items():
        if cid in index:
            print(f"gradient left out of {cid}: {reason}")


def _decode(raw: np.ndarray, dtype: str, shape) -> np.ndarray:
    return np.frombuffer(raw.tobytes(), jnp.dtype(dtype)).reshape(shape)


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    """The largest ``|a - b|`` in float64 (complex: modulus); NaN against a number, or NaN patterns
    that differ, count as ``inf``; 0.0 when only bit patterns differ (``-0.0``, NaN payloads)."""
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    b64 = b.astype(np.complex128 if b.dtype.kind == "c" else np.float64)
    nan_a, nan_b = np.isnan(a64), np.isnan(b64)
    if np.any(nan_a != nan_b):
        return float("inf")
    both = ~nan_a
    with np.errstate(invalid="ignore"):
        d = np.abs(a64[both] - b64[both])
    d = np.where(np.isnan(d), np.inf, d)  # inf - inf
    return float(d.max(initial=0.0))


def differing_elements(a: np.ndarray, b: np.ndarray) -> int:
    """How many elements of two arrays of one dtype and shape differ in their bytes."""
    if not a.size:
        return 0
    return int((a.view(np.uint8).reshape(a.size, -1) != b.view(np.uint8).reshape(b.size, -1)).any(axis=1).sum())


def compare(path: pathlib.Path, allow_diff: bool = False, only: str | None = None) -> int:
    with np.load(path) as data:
        meta = json.loads(str(data["__meta__"]))
        index = json.loads(str(data["__index__"]))
        stored = {k: data[k] for k in data.files if not k.startswith("__")}
    now = metadata(meta["seed"], meta["cases"], meta["large"])
    print(f"corpus {path}: {len(index)} cases recorded at {meta['commit'][:12]} on {meta['date']}")
    print(f"comparing with {now['commit'][:12]}" + (" (jax_resize/ modified)" if now["dirty"] else ""))
    for group in ("versions", "environment"):
        for key, was in meta[group].items():
            if now[group].get(key) != was:
                print(f"WARNING: {key} was {was!r} at record time, is {now[group].get(key)!r} now")
    results: dict[str, dict] = {}
    notes: list[str] = []
    todo = [(cid, b) for cid, b in cases(meta["seed"], meta["cases"], meta["large"]) if not only or only in cid]
    start = time.monotonic()
    for i, (_, build) in enumerate(todo):
        case = build()
        if VERBOSE:
            print(f"  {case.id} ...", file=sys.stderr, flush=True)
        was = index[case.id]
        r = results.setdefault(case.front, {"cases": 0, "identical": 0, "differing": 0, "errors": 0})
        r["cases"] += 1
        try:
            verdict, detail = _judge(case, was, stored)
        except Exception as error:  # a broken comparison is reported, not a crash of the whole run
            verdict, detail = "errors", f"comparison failed: {type(error).__name__}: {error}"
        r[verdict] += 1
        if verdict != "identical":
            notes.append(f"{verdict.upper()} {case.id}: {detail}")
        elif detail:
            notes.append(f"note {case.id}: {detail}")
        _progress(i, len(todo), start, "compared")
    total = {k: sum(r[k] for r in results.values()) for k in ("cases", "identical", "differing", "errors")}
    print(f"\n{'front end':<22}{'cases':>7}{'identical':>11}{'differing':>11}{'errors':>8}")
    for front, r in sorted(results.items()) + [("TOTAL", total)]:
        print(f"{front:<22}{r['cases']:>7}{r['identical']:>11}{r['differing']:>11}{r['errors']:>8}")
    for line in notes:
        print(line)
    bad = total["differing"] + total["errors"]
    _left_out(index)
    print("all identical" if not bad else f"{bad} case(s) not identical")
    return 1 if bad and not allow_diff else 0


def _judge(case: Case, was: dict, stored: dict) -> tuple[str, str]:
    """``(verdict, detail)``: ``identical`` / ``differing`` / ``errors`` (the case could not be
    redrawn as recorded, or a recorded result now raises)."""
    desc = case.description()
    if desc != was["desc"]:
        return (
            "errors",
            f"the redrawn case differs from the recorded one (corpus script or numpy changed): {desc[:300]}",
        )
    now = run_case(case)
    if "error" in was or "error" in now:
        if "error" not in now:
            return "differing", f"recorded a refusal ({was['error']['type']}), now returns a result"
        if "error" not in was:
            return "errors", f"now raises {now['error']['type']}: {now['error']['message'][:300]}"
        if now["error"]["type"] != was["error"]["type"]:
            return "differing", f"refusal type {was['error']['type']} -> {now['error']['type']}"
        if now["error"]["message"] != was["error"]["message"]:
            return (
                "identical",
                f"refusal message changed: {was['error']['message'][:200]!r} -> {now['error']['message'][:200]!r}",
            )
        return "identical", ""
    problems = []
    for name, o in was["outputs"].items():
        n = now["outputs"].get(name)
        if n is None:
            problems.append(f"{name} missing")
            continue
        if (n["dtype"], n["shape"]) != (o["dtype"], o["shape"]):
            problems.append(f"{name} {o['dtype']}{o['shape']} -> {n['dtype']}{n['shape']}")
        elif n["sha256"] != o["sha256"]:
            key = f"{case.id}.{name}"
            if key in stored:
                a = _decode(stored[key], o["dtype"], o["shape"])
                count = differing_elements(a, n["array"])
                problems.append(
                    f"{name} bytes differ: {count} of {a.size} elements, max abs diff {max_abs_diff(a, n['array']):.6g}"
                )
            else:
                problems.append(f"{name} bytes differ (sha256 only stored, {int(np.prod(o['shape']))} elements)")
    return ("differing", "; ".join(problems)) if problems else ("identical", "")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--verbose", action="store_true", help="print every case id as it runs (to find a hang)")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run the corpus and store its outputs")
    rec.add_argument("--out", type=pathlib.Path, default=DEFAULT_PATH)
    rec.add_argument("--cases", type=int, default=DEFAULT_CASES)
    rec.add_argument("--seed", type=int, default=DEFAULT_SEED)
    rec.add_argument("--no-large", action="store_true", help="leave out the large CPU-form cases")
    cmp_ = sub.add_parser("compare", help="re-run a recorded corpus and report differences")
    cmp_.add_argument("--corpus", type=pathlib.Path, default=DEFAULT_PATH)
    cmp_.add_argument("--allow-diff", action="store_true", help="exit 0 even when cases differ")
    cmp_.add_argument("--only", help="compare only the case ids containing this text")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    if args.command == "record":
        record(args.out, args.seed, args.cases, not args.no_large)
        return 0
    return compare(args.corpus, args.allow_diff, args.only)


if __name__ == "__main__":
    sys.exit(main())
