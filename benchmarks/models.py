"""Models, not only calls (issue 46): resize layers inside a network's training step.

Two Flax ``nnx`` networks, each built twice — with ``jax_resize.flax.Resize`` layers and with the
same layers calling ``jax.image.resize`` — and timed as a training step (forward and backward
under one ``jax.jit`` of ``nnx.value_and_grad``):

- **U-Net decoder**: three levels of conv 3x3 -> resize x2 -> concatenate the skip -> conv 3x3,
  from ``[N, 16, 16, C]`` (method ``linear``, ``cubic`` or ``lanczos3``);
- **FPN top-down path**: four levels, each ``nearest`` x2 of the coarser map plus a 1x1 lateral
  conv of the backbone map, then a 3x3 output conv per level.

Columns: ``compile s`` is a fresh ``jit``'s trace + lowering + XLA compile of the step (median of
``--compiles`` fresh ones, ``jax.clear_caches()`` between), ``split`` its trace / lowering / XLA
compile seconds (medians), ``step ms`` the median warm step. The two kinds alternate, compile by
compile and step by step, so a neighbour's load falls on both.
Where torch sees a CUDA device, the same networks run in torch (``F.interpolate``) for the step
time. ``python benchmarks/models.py [--batch 4] [--channels 64] [--repeats 20] [--compiles 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

from jax_resize.flax import Resize


class ImageResize(nnx.Module):
    """``jax.image.resize`` as a layer: the baseline (``x2`` of the spatial axes)."""

    def __init__(self, method: str):
        self.method = method

    def __call__(self, x):
        n, h, w, c = x.shape
        return jax.image.resize(x, (n, 2 * h, 2 * w, c), self.method)


def _upsample(kind: str, method: str) -> nnx.Module:
    return Resize(scale=2, method=method) if kind == "jax_resize" else ImageResize(method)


class UNetDecoder(nnx.Module):
    def __init__(self, kind: str, method: str, channels: int, rngs: nnx.Rngs):
        self.up = nnx.List([_upsample(kind, method) for _ in range(3)])
        self.pre = nnx.List([nnx.Conv(channels, channels, (3, 3), rngs=rngs) for _ in range(3)])
        self.post = nnx.List([nnx.Conv(2 * channels, channels, (3, 3), rngs=rngs) for _ in range(3)])

    def __call__(self, x, skips):
        for up, pre, post, skip in zip(self.up, self.pre, self.post, skips):
            x = post(jnp.concatenate([up(nnx.relu(pre(x))), skip], axis=-1))
        return x


class FPNTopDown(nnx.Module):
    def __init__(self, kind: str, channels: int, rngs: nnx.Rngs):
        self.up = nnx.List([_upsample(kind, "nearest") for _ in range(3)])
        self.lateral = nnx.List([nnx.Conv(channels, channels, (1, 1), rngs=rngs) for _ in range(4)])
        self.out = nnx.List([nnx.Conv(channels, channels, (3, 3), rngs=rngs) for _ in range(4)])

    def __call__(self, features):  # coarsest first
        top = self.lateral[0](features[0])
        outs = [self.out[0](top)]
        for up, lateral, out, feature in zip(self.up, self.lateral[1:], self.out[1:], features[1:]):
            top = up(top) + lateral(feature)
            outs.append(out(top))
        return outs


def _inputs(name: str, batch: int, channels: int):
    rng = np.random.default_rng(0)
    sizes = [16, 32, 64, 128]
    maps = [jnp.asarray(rng.standard_normal((batch, s, s, channels)), jnp.float32) for s in sizes]
    return (maps[0], maps[1:]) if name.startswith("unet") else (maps,)


def _model(name: str, kind: str, channels: int):
    rngs = nnx.Rngs(0)
    if name.startswith("unet"):
        return UNetDecoder(kind, name.split()[-1], channels, rngs)
    return FPNTopDown(kind, channels, rngs)


def _loss(model, *inputs):
    out = model(*inputs)
    return sum(jnp.mean(o**2) for o in (out if isinstance(out, list) else [out]))


def _compiled(name: str, kind: str, batch: int, channels: int):
    """A fresh ``jit`` of one network's step: ``(compiled, args, (trace s, lower s, compile s))``."""
    inputs = _inputs(name, batch, channels)
    jax.clear_caches()
    model = _model(name, kind, channels)
    graphdef, state = nnx.split(model)

    def step(state, *inputs, graphdef=graphdef):
        return jax.value_and_grad(lambda s: _loss(nnx.merge(graphdef, s), *inputs))(state)

    t0 = time.perf_counter()
    traced = jax.jit(step).trace(state, *inputs)
    t1 = time.perf_counter()
    lowered = traced.lower()
    t2 = time.perf_counter()
    compiled = lowered.compile()
    t3 = time.perf_counter()
    return compiled, (state, *inputs), (t1 - t0, t2 - t1, t3 - t2)


def jax_rows(name: str, batch: int, channels: int, repeats: int, compiles: int) -> dict[str, dict]:
    """Per kind (``jax_resize``, ``jax.image``): ``compile`` s, its ``split`` (trace, lower, compile
    s, medians) and ``step`` ms; the kinds alternate."""
    kinds = ("jax_resize", "jax.image")
    splits: dict[str, list] = {k: [] for k in kinds}
    programs, args = {}, {}
    for _ in range(compiles):
        for kind in kinds:
            programs[kind], args[kind], split = _compiled(name, kind, batch, channels)
            splits[kind].append(split)
    for kind in kinds:
        jax.block_until_ready(programs[kind](*args[kind]))
    times: dict[str, list] = {k: [] for k in kinds}
    for _ in range(repeats):
        for kind in kinds:
            t0 = time.perf_counter()
            jax.block_until_ready(programs[kind](*args[kind]))
            times[kind].append(time.perf_counter() - t0)
    return {
        kind: {
            "compile": statistics.median(sum(s) for s in splits[kind]),
            "split": tuple(statistics.median(s[i] for s in splits[kind]) for i in range(3)),
            "step": 1e3 * statistics.median(times[kind]),
        }
        for kind in kinds
    }


def torch_step_ms(name: str, batch: int, channels: int, repeats: int) -> float | None:
    """The same network's step in torch on CUDA (``F.interpolate``), or ``None`` without a device."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    F = torch.nn.functional
    dev = torch.device("cuda")
    conv = lambda i, o, k: torch.nn.Conv2d(i, o, k, padding=k // 2).to(dev).to(memory_format=torch.channels_last)  # noqa: E731
    sizes = [16, 32, 64, 128]
    maps = [torch.randn(batch, channels, s, s, device=dev).contiguous(memory_format=torch.channels_last) for s in sizes]
    if name.startswith("unet"):
        mode = {"linear": "bilinear", "cubic": "bicubic"}.get(name.split()[-1])
        if mode is None:  # torch has no Lanczos
            return None
        pre = [conv(channels, channels, 3) for _ in range(3)]
        post = [conv(2 * channels, channels, 3) for _ in range(3)]
        params = [p for m in pre + post for p in m.parameters()]

        def loss():
            x = maps[0]
            for a, b, skip in zip(pre, post, maps[1:]):
                up = F.interpolate(torch.relu(a(x)), scale_factor=2, mode=mode, align_corners=False)
                x = b(torch.cat([up, skip], 1))
            return (x**2).mean()

    else:
        lateral = [conv(channels, channels, 1) for _ in range(4)]
        out = [conv(channels, channels, 3) for _ in range(4)]
        params = [p for m in lateral + out for p in m.parameters()]

        def loss():
            top = lateral[0](maps[0])
            total = (out[0](top) ** 2).mean()
            for lat, o, feature in zip(lateral[1:], out[1:], maps[1:]):
                top = F.interpolate(top, scale_factor=2, mode="nearest") + lat(feature)
                total = total + (o(top) ** 2).mean()
            return total

    def step():
        for p in params:
            p.grad = None
        loss().backward()

    step()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


NAMES = ["unet linear", "unet cubic", "unet lanczos3", "fpn nearest"]


def main(argv=None) -> list[str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--compiles", type=int, default=3)
    parser.add_argument("--models", nargs="*", default=NAMES, choices=NAMES)
    args = parser.parse_args(argv)
    for flag in ("batch", "channels", "repeats", "compiles"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag} must be at least 1")
    lines = [
        f"models on {jax.devices()[0].device_kind} ({jax.default_backend()}), batch {args.batch}, "
        f"{args.channels} channels, value_and_grad under one jit",
        "| model | jax_resize compile s | jax.image compile s | ratio | jax_resize split s | jax.image split s "
        "| jax_resize step ms | jax.image step ms | ratio | torch CUDA step ms |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    print("\n".join(lines), flush=True)
    for name in args.models:
        rows = jax_rows(name, args.batch, args.channels, args.repeats, args.compiles)
        ours, base = rows["jax_resize"], rows["jax.image"]
        torch_ms = torch_step_ms(name, args.batch, args.channels, args.repeats)
        split = lambda row: " / ".join(f"{t:.2f}" for t in row["split"])  # noqa: E731
        line = (
            f"| {name} | {ours['compile']:.2f} | {base['compile']:.2f} | {ours['compile'] / base['compile']:.2f} "
            f"| {split(ours)} | {split(base)} | {ours['step']:.2f} | {base['step']:.2f} "
            f"| {ours['step'] / base['step']:.2f} | {'—' if torch_ms is None else f'{torch_ms:.2f}'} |"
        )
        print(line, flush=True)
        lines.append(line)
    return lines


if __name__ == "__main__":
    main()
