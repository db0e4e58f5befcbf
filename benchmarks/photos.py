"""The "photos" section of the benchmark: uint8 camera photos resized the way users resize them.

Each row is one image (HxWx3 uint8, channels last, as decoded from a JPEG) resized once, in one
process: jax_resize under ``jax.jit`` (``strategy="auto"`` and each forced strategy), the C
libraries on the same uint8 array — Pillow (one thread, ``Image.resize``), OpenCV
(``cv2.resize``, 2 threads, ``INTER_AREA`` for antialiased shrinks), torch (uint8 NCHW
``interpolate(antialias=True)``, 2 threads), pyvips (``resize`` with its kernel, the photo-speed
reference) — and ``jax.image.resize`` (float32, as it only computes in float). Medians of warm
calls in ms; ``best peer`` is the fastest of Pillow/OpenCV/torch/pyvips, ``ours / best`` the
ratio of jax_resize auto to it; ``read floor`` is the time to read the input once at the measured
copy bandwidth; ``first s`` is jax_resize's first call (trace, host planning, compile, run) for a
new shape. The Pillow-exact rows compare ``resize(..., "pil_*")`` with Pillow itself (the same
pixels). The uint8/float32 row pair shows what the integer input costs.

Images: the real photos in ``../shared/data`` (up to 600x400) enlarged to camera sizes with
Pillow's LANCZOS (12 MP 3000x4000, 1080p, 4K), so the pixels have photo statistics.
"""

from __future__ import annotations

import dataclasses
import pathlib
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

import jax_resize

THREADS = 2
DATA = pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "data"


@dataclasses.dataclass(frozen=True)
class PhotoWorkload:
    name: str
    in_hw: tuple[int, int]
    out_hw: tuple[int, int]
    method: str  # "linear" | "cubic"
    pil_exact: bool = False  # jax_resize's pil_* method against Pillow itself
    dtype: str = "uint8"


PHOTO_WORKLOADS = [
    PhotoWorkload("12MP 3000x4000 -> 224x224 bilinear aa", (3000, 4000), (224, 224), "linear"),
    PhotoWorkload("12MP 3000x4000 -> 224x224 bilinear aa float32", (3000, 4000), (224, 224), "linear", dtype="float32"),
    PhotoWorkload("12MP 3000x4000 -> 224x224 pil_bilinear", (3000, 4000), (224, 224), "linear", pil_exact=True),
    PhotoWorkload("1080p 1080x1920 -> 224x224 bilinear aa", (1080, 1920), (224, 224), "linear"),
    PhotoWorkload("12MP 3000x4000 -> 768x1024 bilinear aa", (3000, 4000), (768, 1024), "linear"),
    PhotoWorkload("12MP 3000x4000 -> 768x1024 pil_bicubic", (3000, 4000), (768, 1024), "cubic", pil_exact=True),
    PhotoWorkload("4K 2160x3840 x0.5 bilinear aa", (2160, 3840), (1080, 1920), "linear"),
    PhotoWorkload("4K 2160x3840 x0.5 bicubic aa", (2160, 3840), (1080, 1920), "cubic"),
    PhotoWorkload("photo 400x600 x0.5 bicubic aa", (400, 600), (200, 300), "cubic"),
]


def median_ms(fn, repeats: int) -> float:
    for _ in range(3):  # warm: in a fresh process the first calls also fault in their buffers' pages
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def photo(h: int, w: int) -> np.ndarray:
    """A real photograph enlarged to ``h x w`` (uint8 RGB)."""
    from PIL import Image

    path = DATA / "coffee.png"
    if path.exists():
        img = Image.open(path).convert("RGB")
    else:  # the photograph shipped with the package
        img = Image.open(pathlib.Path(jax_resize.__file__).parent / "data" / "astronaut.png").convert("RGB")
    return np.asarray(img.resize((w, h), Image.Resampling.LANCZOS))


def _ours(w: PhotoWorkload, strategy: str):
    shape = (*w.out_hw, 3)
    if w.pil_exact:
        method = "pil_bilinear" if w.method == "linear" else "pil_bicubic"
        return jax.jit(lambda v: jax_resize.resize(v, shape, method, strategy=strategy))
    # ONNX semantics (antialias=1; cubic a=-0.75 as torch/OpenCV); uint8 in -> uint8 out
    kw = dict(cubic_coeff_a=-0.75) if w.method == "cubic" else {}
    return jax.jit(
        lambda v: jax_resize.onnx_resize(
            v, sizes=list(w.out_hw), axes=[0, 1], mode=w.method, antialias=1, strategy=strategy, **kw
        )
    )


def _pil(w, x):
    from PIL import Image

    img = Image.fromarray(x if x.dtype == np.uint8 else np.clip(x, 0, 255).astype(np.uint8))
    resample = Image.Resampling.BILINEAR if w.method == "linear" else Image.Resampling.BICUBIC
    size = (w.out_hw[1], w.out_hw[0])
    return lambda: img.resize(size, resample)


def _cv2(w, x):
    import cv2

    cv2.setNumThreads(THREADS)
    dsize = (w.out_hw[1], w.out_hw[0])
    shrink = w.out_hw[0] < w.in_hw[0]  # INTER_AREA is OpenCV's antialiased shrink
    interp = cv2.INTER_AREA if shrink else (cv2.INTER_LINEAR if w.method == "linear" else cv2.INTER_CUBIC)
    return lambda: cv2.resize(x, dsize, interpolation=interp)


def _torch(w, x):
    import torch

    torch.set_num_threads(THREADS)
    t = torch.from_numpy(x).permute(2, 0, 1)[None]  # channels-last memory, NCHW view
    mode = "bilinear" if w.method == "linear" else "bicubic"

    def run():
        with torch.no_grad():
            torch.nn.functional.interpolate(t, size=w.out_hw, mode=mode, antialias=True, align_corners=False)

    return run


def _vips(w, x):
    import pyvips

    pyvips.cache_set_max(0)  # no result caching between calls
    pyvips.concurrency_set(THREADS)
    image = (
        pyvips.Image.new_from_array(x)
        if x.dtype != np.uint8
        else pyvips.Image.new_from_memory(np.ascontiguousarray(x).data, x.shape[1], x.shape[0], 3, "uchar")
    )
    kernel = "linear" if w.method == "linear" else "cubic"
    hscale, vscale = w.out_hw[1] / w.in_hw[1], w.out_hw[0] / w.in_hw[0]
    return lambda: image.resize(hscale, vscale=vscale, kernel=kernel).write_to_memory()


def _jax_image(w, x):
    xf = jnp.asarray(x, jnp.float32)
    method = "linear" if w.method == "linear" else "cubic"
    f = jax.jit(lambda v: jax.image.resize(v, (*w.out_hw, 3), method, antialias=True))
    return lambda: jax.block_until_ready(f(xf))


def copy_gbps() -> float:
    a = np.ones(64 << 20, np.uint8)
    b = np.empty_like(a)
    ms = median_ms(lambda: np.copyto(b, a), 7)
    return 2 * a.nbytes / (ms / 1e3) / 1e9


def photo_row(w: PhotoWorkload, repeats: int) -> tuple[str, float | None]:
    """Measures one photo workload; returns its Markdown row and ours / best peer."""
    x = photo(*w.in_hw)
    if w.dtype == "float32":
        x = x.astype(np.float32)
    xj = jnp.asarray(x)
    times = {}
    f = _ours(w, "auto")
    t0 = time.perf_counter()
    jax.block_until_ready(f(xj))
    first = time.perf_counter() - t0
    for strategy in ("auto", "banded", "polyphase", "dense"):
        g = _ours(w, strategy)
        times[strategy] = median_ms(lambda g=g: jax.block_until_ready(g(xj)), repeats)
    peers = {}
    for name, make in (("Pillow", _pil), ("OpenCV", _cv2), ("torch", _torch), ("pyvips", _vips)):
        if w.pil_exact and name != "Pillow":
            continue
        if name == "torch" and w.dtype != "uint8":
            pass
        try:
            peers[name] = median_ms(make(w, x), repeats)
        except ImportError:
            peers[name] = None
    ji = median_ms(_jax_image(w, x), repeats)
    floor = x.nbytes / (copy_gbps() / 2 * 1e9) * 1e3  # one read of the input
    measured = [v for v in peers.values() if v is not None]
    best = min(measured) if measured else None
    ratio = times["auto"] / best if best else None
    # OpenCV shrinks with INTER_AREA, a box filter: the other peers compute our filter
    shrink = w.out_hw[0] < w.in_hw[0]
    same = [v for n, v in peers.items() if v is not None and not (n == "OpenCV" and shrink)]
    same_ratio = times["auto"] / min(same) if same else None
    cells = [
        w.name,
        *(f"{times[s]:.1f}" for s in ("auto", "banded", "polyphase", "dense")),
        *("n/a" if peers.get(n) is None else f"{peers[n]:.1f}" for n in ("Pillow", "OpenCV", "torch", "pyvips")),
        f"{ji:.1f}",
        f"{floor:.1f}",
        "n/a" if ratio is None else f"{ratio:.2f}",
        "n/a" if same_ratio is None else f"{same_ratio:.2f}",
        f"{first:.2f}",
    ]
    return "| " + " | ".join(cells) + " |", ratio


PHOTO_HEADER = (
    "| photo workload | jax_resize auto ms | banded ms | polyphase ms | dense ms | Pillow ms (1 thread) | "
    "OpenCV ms | torch ms | pyvips ms | jax.image ms (float32) | read floor ms | ours / best peer | "
    "ours / best peer of the same filter | first s |"
)
