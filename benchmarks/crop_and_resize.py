"""Benchmark ``jax_resize.crop_and_resize`` against a plain jnp gather implementation (not a test).

Workload (Faster R-CNN style RoI cropping): 1000 boxes of 7x7 and 14x14 from a 1x64x64x256
float32 feature map, bilinear. The peer is TensorFlow's kernel written directly with
``jnp`` gathers (four corner gathers and two lerps per output; TensorFlow itself is not a
dependency). Both are jitted; the median of warm calls is printed in ms, plus the forward +
backward (gradient with respect to the image and the boxes) time.

Usage: ``python benchmarks/crop_and_resize.py [--repeats 20] [--boxes 1000] [--default-malloc]``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

# Same allocation policy as benchmarks/run.py (large buffers on transparent huge pages, so that
# first-touch page faults of fresh outputs do not dominate); --default-malloc turns it off.
MALLOC_TUNABLES = "glibc.malloc.hugetlb=1"
if "--default-malloc" not in sys.argv and os.environ.get("GLIBC_TUNABLES") != MALLOC_TUNABLES:
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "GLIBC_TUNABLES": MALLOC_TUNABLES})

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import jax_resize  # noqa: E402


def gather_crop_and_resize(image, boxes, box_indices, crop_size, extrapolation_value=0.0):
    """TensorFlow's ``crop_and_resize`` (bilinear) as four ``jnp`` gathers per output."""
    crop_h, crop_w = crop_size
    _, height, width, _ = image.shape
    y1, x1, y2, x2 = (boxes[:, i] for i in range(4))

    def coords(start, end, size, crop):
        i = jnp.arange(crop, dtype=jnp.float32)
        if crop > 1:
            return start[:, None] * (size - 1) + i[None, :] * ((end - start) * (size - 1) / (crop - 1))[:, None]
        return jnp.broadcast_to((0.5 * (start + end) * (size - 1))[:, None], (start.shape[0], crop))

    in_y, in_x = coords(y1, y2, height, crop_h), coords(x1, x2, width, crop_w)  # [B, ch], [B, cw]
    top, left = jnp.floor(in_y), jnp.floor(in_x)
    y_lerp, x_lerp = (in_y - top)[:, :, None, None], (in_x - left)[:, None, :, None]
    t = jnp.clip(top, 0, height - 1).astype(jnp.int32)[:, :, None]
    b = jnp.clip(jnp.ceil(in_y), 0, height - 1).astype(jnp.int32)[:, :, None]
    lft = jnp.clip(left, 0, width - 1).astype(jnp.int32)[:, None, :]
    r = jnp.clip(jnp.ceil(in_x), 0, width - 1).astype(jnp.int32)[:, None, :]
    n = box_indices[:, None, None]
    tl, tr, bl, br = image[n, t, lft], image[n, t, r], image[n, b, lft], image[n, b, r]  # [B, ch, cw, C]
    upper = tl + (tr - tl) * x_lerp
    lower = bl + (br - bl) * x_lerp
    out = upper + (lower - upper) * y_lerp
    outside = ((in_y < 0) | (in_y > height - 1))[:, :, None] | ((in_x < 0) | (in_x > width - 1))[:, None, :]
    return jnp.where(outside[..., None], extrapolation_value, out)


def median_ms(fn, repeats: int) -> float:
    jax.block_until_ready(fn())  # warm (compile)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        jax.block_until_ready(fn())
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--boxes", type=int, default=1000)
    parser.add_argument("--default-malloc", action="store_true", help="keep glibc's default malloc")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    image = jnp.asarray(rng.standard_normal((1, 64, 64, 256)), jnp.float32)
    corners = rng.uniform(-0.1, 1.1, (args.boxes, 2, 2))
    boxes = jnp.asarray(np.concatenate([corners.min(1), corners.max(1)], axis=1), jnp.float32)  # y1 x1 y2 x2
    box_indices = jnp.zeros((args.boxes,), jnp.int32)

    print(f"# crop_and_resize, {args.boxes} boxes from 1x64x64x256 float32, bilinear")
    print(
        f"# jax {jax.__version__}, backend {jax.default_backend()}, {jax.devices()[0].device_kind}, "
        f"{platform.machine()}; median of {args.repeats} warm jitted calls, ms"
    )
    print("| crop | jax_resize | jnp gather (peer) | ratio | jax_resize fwd+bwd | peer fwd+bwd |")
    print("| --- | --- | --- | --- | --- | --- |")
    for crop in ((7, 7), (14, 14)):
        ours = jax.jit(lambda im, bx: jax_resize.crop_and_resize(im, bx, box_indices, crop))
        peer = jax.jit(lambda im, bx: gather_crop_and_resize(im, bx, box_indices, crop))
        np.testing.assert_allclose(ours(image, boxes), peer(image, boxes), rtol=1e-4, atol=1e-4)
        grad = lambda f: jax.jit(jax.grad(lambda im, bx: jnp.sum(f(im, bx) ** 2), argnums=(0, 1)))
        ours_g, peer_g = grad(ours), grad(peer)
        t_ours = median_ms(lambda: ours(image, boxes), args.repeats)
        t_peer = median_ms(lambda: peer(image, boxes), args.repeats)
        g_ours = median_ms(lambda: ours_g(image, boxes), args.repeats)
        g_peer = median_ms(lambda: peer_g(image, boxes), args.repeats)
        print(
            f"| {crop[0]}x{crop[1]} | {t_ours:.2f} | {t_peer:.2f} | {t_ours / t_peer:.2f} | "
            f"{g_ours:.2f} | {g_peer:.2f} |"
        )


if __name__ == "__main__":
    main()
