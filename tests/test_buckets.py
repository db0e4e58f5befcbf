"""Shape buckets (execution/buckets.py): streams of distinct shapes compile a bounded number of
programs, every output checked against jax.image / Pillow and against the call's exact program."""

from __future__ import annotations

import collections
import json
import os
import pathlib
import subprocess
import sys
import textwrap
import zlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import PIL_FILTERS, load_photo
from PIL import Image, ImageOps

import jax_resize
from jax_resize import compat
from jax_resize._src import frontend, records
from jax_resize._src.execution import apply, buckets, decide, strategies
from jax_resize._src.execution.tuning import TUNING

_COMPILES = [0]
jax.monitoring.register_event_duration_secs_listener(
    lambda event, duration, **kw: _COMPILES.__setitem__(
        0, _COMPILES[0] + (event == "/jax/core/compile/backend_compile_duration")
    )
)


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Empty call counts and widths: every shape of a test is new to it."""
    monkeypatch.setattr(buckets, "_CALLS", collections.OrderedDict())
    monkeypatch.setattr(buckets, "_WIDEST", collections.OrderedDict())


@pytest.fixture(scope="module")
def photo():
    """A real photograph enlarged to 1200x1200 RGB (crops of it are the stream)."""
    img = load_photo("coffee.png").convert("RGB")
    return np.asarray(img.resize((1200, 1200), Image.Resampling.LANCZOS))


def _shapes(count, seed, lo=48, hi=1200):
    rng = np.random.default_rng(seed)
    out: list = []
    while len(out) < count:
        hw = (int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1)))
        if hw not in out:
            out.append(hw)
    return out


def _stream(photo, shapes, call):
    before = _COMPILES[0]
    outs = [np.asarray(call(np.ascontiguousarray(photo[:h, :w]))) for h, w in shapes]
    return outs, _COMPILES[0] - before


def test_linear_stream_compiles_a_bounded_number_of_programs(photo):
    shapes = _shapes(30, 1)
    own = []
    real = buckets.shared
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(apply._buckets, "shared", lambda *a, **k: own.append(real(*a, **k)) or own[-1])
        outs, compiles = _stream(photo, shapes, lambda x: jax_resize.resize(x, (224, 224, 3), "linear"))
    # per shape this stream compiles 30 programs; shared: at most four per pair of input grid
    # sizes (two pass orders, the bands fused or not), plus one per call whose own plan a padded
    # band cannot reproduce (polyphase)
    cpu = TUNING["cpu"]
    pairs = {(decide.bucket_size(h, cpu), decide.bucket_size(w, cpu)) for h, w in shapes}
    assert compiles <= min(4 * len(pairs), len(shapes) - 5) + sum(found is None for found in own), compiles
    assert sum(found is None for found in own) <= len(shapes) // 4
    for (h, w), out in zip(shapes, outs):
        x = photo[:h, :w].astype(np.float32)
        want = np.asarray(jax.image.resize(x, (224, 224, 3), "linear", antialias=True))
        np.testing.assert_allclose(out, want, atol=255 * 2e-5, err_msg=f"{h}x{w}")  # float32 sums


def test_pil_stream_is_pillow_exact_and_bounded(photo, pillow_oracle):
    shapes = _shapes(16, 2)
    outs, compiles = _stream(photo, shapes, lambda x: jax_resize.resize(x, (224, 160, 3), "pil_bilinear"))
    # exact fixed point: every call shares; two programs per pair of input grid sizes (pass
    # orders) and taps class (below 8 taps a band keeps its own: 1-7, then 8, 16, ...)
    assert compiles <= 14, compiles
    for (h, w), out in zip(shapes, outs):
        want = np.asarray(Image.fromarray(photo[:h, :w]).resize((160, 224), PIL_FILTERS["pil_bilinear"]))
        np.testing.assert_array_equal(out, want, err_msg=f"{h}x{w}")


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


#: The stream of ``test_memory_stops_growing`` in a child: ``argv`` tests/, photo.npy, shapes (JSON).
_GROWTH = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    import jax_resize
    from test_buckets import _COMPILES, _rss_mb
    photo = np.load(sys.argv[2])
    for i, (h, w) in enumerate(json.loads(sys.argv[3])):
        jax_resize.resize(np.ascontiguousarray(photo[:h, :w]), (200, 200, 3), "cubic").block_until_ready()
        if i == 19:
            mark, compiled = _rss_mb(), _COMPILES[0]
    print(json.dumps({"grown_mb": _rss_mb() - mark, "compiled_after": _COMPILES[0] - compiled}))
    """
)


def test_memory_stops_growing(photo, tmp_path):
    # the per-shape path kept ~2 MB per new shape (compiled programs): 40 shapes ~80 MB. Measured in
    # a fresh process: a test worker's RSS also carries what earlier tests' threads and heaps do.
    shapes = _shapes(60, 3, hi=800)
    np.save(tmp_path / "photo.npy", photo[:800, :800])
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            _GROWTH,
            str(pathlib.Path(__file__).parent),
            str(tmp_path / "photo.npy"),
            json.dumps(shapes),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout.splitlines()[-1])
    # 40 new shapes after the mark: per shape they are 40 programs and 89 MB. Shared programs that
    # keep the own arithmetic (taps below 8 kept, the row-loop choice) take more than the padded
    # ones did before (5 programs), but fewer than the shapes
    assert found["compiled_after"] <= 25, found
    assert found["grown_mb"] < 70, found


def _bits(a):
    """``a``'s bytes: equal bits, not equal values (``-0.0 == 0.0``, ``nan != nan``)."""
    a = np.ascontiguousarray(a)
    return a.dtype, a.shape, a.tobytes()


def _twice(call, x, jit=True):
    """The first result of a call (a shared program where the call can share one) and its result
    from the call's own program (the ``exact_after``-th call), after checking that calls 1-6, the
    call under ``exact_shapes`` and under ``jax.jit`` give the same bits (one answer per input)."""
    n = TUNING["cpu"].exact_after
    spy = []
    real = buckets.shared

    def record(*args, **kw):
        found = real(*args, **kw)
        spy.append(found is not None)
        return found

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(apply._buckets, "shared", record)
        outs = [np.asarray(call(x)) for _ in range(n + 2)]
        with jax_resize.exact_shapes():
            outs.append(np.asarray(call(x)))
        if jit:
            outs.append(np.asarray(jax.jit(call)(x)))
    assert not any(spy[n - 1 :]), spy  # from the exact_after-th call on: its own program
    for out in outs[1:]:
        assert _bits(out) == _bits(outs[0])
    return outs[0], outs[n - 1]


FRONT_ENDS = {
    "resize linear": lambda x: jax_resize.resize(x, (100, 90, 3), "linear"),
    "resize lanczos3 float": lambda x: jax_resize.resize(x.astype(np.float32) / 255, (300, 250, 3), "lanczos3"),
    "pil_lanczos": lambda x: jax_resize.resize(x, (100, 90, 3), "pil_lanczos"),
    "pil_bicubic rgba": lambda x: jax_resize.resize_with_pillow_filter(
        np.concatenate([x, x[..., :1]], -1), (90, 100, 4), compat.BICUBIC, alpha="premultiplied"
    ),
    "onnx nearest": lambda x: jax_resize.onnx_resize(x, sizes=[77, 50, 3], mode="nearest"),
    "onnx cubic aa u8": lambda x: jax_resize.onnx_resize(x, sizes=[64, 70, 3], mode="cubic", antialias=1),
    "onnx crop extrapolation": lambda x: jax_resize.onnx_resize(
        x.astype(np.float32),
        [-0.1, 0.2, 0.0, 0.9, 1.1, 1.0],
        sizes=[40, 60, 3],
        mode="linear",
        coordinate_transformation_mode="tf_crop_and_resize",
        extrapolation_value=-7.0,
    ),
    "openvino cubic": lambda x: jax_resize.openvino_interpolate(
        x.astype(np.float32), [70, 80], [0, 1], mode="cubic", shape_calculation_mode="sizes"
    ),
    "scale_and_translate": lambda x: jax_resize.scale_and_translate(
        x.astype(np.float32), (60, 70, 3), (0, 1), jnp.array([0.3, 0.25]), jnp.array([1.5, -2.0]), "lanczos3"
    ),
    "torch u8 aa": lambda x: compat.torch_interpolate(
        x.transpose(2, 0, 1)[None], size=(50, 60), mode="bilinear", antialias=True
    ),
}


@pytest.mark.parametrize("name", FRONT_ENDS)
def test_every_front_end_bucketed_equals_its_exact_program(photo, name):
    """Calls 1-6, ``exact_shapes`` and ``jit`` of each front end give the same bits (``_twice``)."""
    call = FRONT_ENDS[name]
    for h, w in _shapes(3, 4, hi=400):
        first, second = _twice(call, np.ascontiguousarray(photo[:h, :w]), jit=name not in NOT_UNDER_JIT)
        assert _bits(first) == _bits(second)


#: Calls whose jit would not be the resize alone: numpy on the input (Pillow's alpha rule), or the
#: caller's own arithmetic (``astype``, ``/ 255``), which XLA fuses into the resize and contracts
#: into its multiply-adds (the resize's input is then not the eager call's).
NOT_UNDER_JIT = (
    "resize lanczos3 float",
    "pil_bicubic rgba",
    "onnx crop extrapolation",
    "openvino cubic",
    "scale_and_translate",
)


#: Pillow's empty images: ``(array, size, resample, reducing_gap)``; Pillow returns a black image.
PIL_EMPTY = {
    "bicubic 0x0": (np.zeros((0, 0, 3), np.uint8), (212, 195), compat.BICUBIC, None),
    "lanczos 0x0": (np.zeros((0, 0, 3), np.uint8), (212, 195), compat.LANCZOS, None),
    "nearest": (np.zeros((0, 0, 3), np.uint8), (21, 19), compat.NEAREST, None),
    "L 0x5": (np.zeros((0, 5), np.uint8), (7, 9), compat.BILINEAR, None),
    "F": (np.zeros((0, 5), np.float32), (7, 9), compat.BOX, None),
    "I": (np.zeros((4, 0), np.int32), (7, 9), compat.HAMMING, None),
    "RGBA": (np.zeros((0, 0, 4), np.uint8), (7, 9), compat.BICUBIC, None),
    "reducing_gap": (np.zeros((0, 0, 3), np.uint8), (7, 9), compat.BICUBIC, 2.0),
}


def _calls_1_to_5_and_exact(call):
    """Calls 1-5 of a shape (bucketed, then its own program), then five under ``exact_shapes``."""
    outs = [np.asarray(call()) for _ in range(5)]
    with jax_resize.exact_shapes():
        outs += [np.asarray(call()) for _ in range(5)]
    return outs


@pytest.mark.parametrize("name", PIL_EMPTY)
def test_an_empty_image_is_pillows_black_image_on_every_call(name, pillow_oracle):
    """Its own program once gathered from an empty axis: from the fourth call (and always under
    ``exact_shapes``) Pillow's empty image raised an XLA TypeError (issue 45)."""
    a, size, resample, gap = PIL_EMPTY[name]
    want = np.asarray(Image.fromarray(a).resize(size, resample, reducing_gap=gap))
    for out in _calls_1_to_5_and_exact(lambda: compat.pil_resize(a, size, resample, reducing_gap=gap)):
        assert out.dtype == want.dtype
        np.testing.assert_array_equal(out, want)


#: Every other front end on an input without elements (its peer returns an empty output or
#: refuses, as the front end does): the call and the shape and dtype of its result.
EMPTY_INPUTS = {
    "resize no channels": (
        lambda: jax_resize.resize(np.zeros((5, 5, 0), np.uint8), (9, 7, 0), "pil_bicubic"),
        (9, 7, 0),
        np.uint8,
    ),
    "onnx_resize no channels": (
        lambda: jax_resize.onnx_resize(np.zeros((1, 0, 5, 5), np.float32), scales=[1, 1, 2, 2], mode="cubic"),
        (1, 0, 10, 10),
        np.float32,
    ),
    "openvino no channels": (
        lambda: jax_resize.openvino_interpolate(
            np.zeros((1, 0, 5, 5), np.float32), [10, 10], [2, 3], mode="linear", shape_calculation_mode="sizes"
        ),
        (1, 0, 10, 10),
        np.float32,
    ),
    "scale_and_translate no channels": (
        lambda: jax_resize.scale_and_translate(
            np.zeros((5, 5, 0), np.float32), (9, 9, 0), (0, 1), jnp.array([2.0, 2.0]), jnp.array([0.0, 0.0])
        ),
        (9, 9, 0),
        np.float32,
    ),
    "resize_ragged no examples": (
        lambda: jax_resize.resize_ragged(np.zeros((0, 5, 5, 3), np.float32), np.zeros((0, 2), np.int32), (4, 4, 3)),
        (0, 4, 4, 3),
        np.float32,
    ),
    "crop_and_resize no boxes": (
        lambda: jax_resize.crop_and_resize(
            np.zeros((1, 5, 5, 3), np.float32), np.zeros((0, 4), np.float32), np.zeros((0,), np.int32), (3, 3)
        ),
        (0, 3, 3, 3),
        np.float32,
    ),
    "torch_interpolate no channels": (
        lambda: compat.torch_interpolate(np.zeros((1, 0, 5, 5), np.float32), scale_factor=2, mode="bicubic"),
        (1, 0, 10, 10),
        np.float32,
    ),
    "tf_resize no batch": (
        lambda: compat.tf_resize(np.zeros((0, 5, 5, 3), np.float32), (9, 7), "area"),
        (0, 9, 7, 3),
        np.float32,
    ),
}


@pytest.mark.parametrize("name", EMPTY_INPUTS)
def test_every_front_end_on_an_empty_input_on_every_call(name):
    call, shape, dtype = EMPTY_INPUTS[name]
    for out in _calls_1_to_5_and_exact(call):
        assert out.shape == shape and out.dtype == dtype


#: ``(method, output)`` of a 61x83 input: shrinks and enlargements of each filter family, nearest, Pillow.
CALLS_BY_KIND = {
    "linear shrink": ("linear", (23, 37)),
    "cubic enlarge": ("cubic", (130, 171)),
    "lanczos3 shrink": ("lanczos3", (20, 19)),
    "nearest": ("nearest", (97, 40)),
    "pil_bicubic": ("pil_bicubic", (30, 100)),
}


#: Pillow's filters on uint8 here (its I;16, I and F modes have tests of their own).
_KIND_DTYPES = [
    (kind, dtype)
    for kind in CALLS_BY_KIND
    for dtype in ("float32", "float16", "uint8", "int16")
    if dtype == "uint8" or not kind.startswith("pil_")
]


@pytest.mark.parametrize("strategy", ["auto", "banded", "polyphase"])
@pytest.mark.parametrize("kind,dtype", _KIND_DTYPES)
def test_one_answer_per_input_for_every_dtype_and_strategy(kind, dtype, strategy):
    """Calls 1-6, ``exact_shapes`` and ``jit`` of one input give the same bits (``_twice``)."""
    method, (h, w) = CALLS_BY_KIND[kind]
    rng = np.random.default_rng(zlib.crc32(f"{kind} {dtype}".encode()))
    x = rng.uniform(-300 if dtype == "int16" else 0, 255, (61, 83, 3)).astype(dtype)
    _twice(lambda v: jax_resize.resize(v, (h, w, 3), method, strategy=strategy), x)


def test_nan_stays_local_in_a_bucketed_program():
    x = np.random.default_rng(5).random((37, 53, 2)).astype(np.float32)
    x[20, 30, 1] = np.nan
    first, second = _twice(lambda v: jax_resize.resize(v, (20, 23, 2), "lanczos3"), x)
    np.testing.assert_array_equal(np.isnan(first), np.isnan(second))
    assert 0 < np.isnan(first).sum() < first.size // 10


def test_no_buckets_under_a_trace_or_for_dense_or_traced_records(photo):
    x = np.ascontiguousarray(photo[:101, :103])
    calls = []
    real = buckets.shared
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(apply._buckets, "shared", lambda *a, **k: calls.append(1) or real(*a, **k))
        jax.jit(lambda v: jax_resize.resize(v, (50, 50, 3), "linear"))(x)
        jax.grad(lambda v: jax_resize.resize(v, (50, 50, 3), "linear").sum())(x.astype(np.float32))
    assert calls == []
    taps = records.Taps(np.zeros((4, 2), np.int32), np.ones((4, 2)), 9)
    traced = records.Taps(np.zeros((4, 2), np.int32), jnp.ones((4, 2)), 9)
    cpu = TUNING["cpu"]
    assert decide.bucket([(0, taps)], "auto", 1, cpu)
    assert decide.bucket([(0, taps)], "banded", 1, cpu)
    assert not decide.bucket([(0, taps)], "auto", cpu.exact_after, cpu)
    assert not decide.bucket([(0, taps)], "dense", 1, cpu)
    assert not decide.bucket([(0, taps)], "polyphase", 1, cpu)
    assert not decide.bucket([(0, traced)], "auto", 1, cpu)
    assert not decide.bucket([(0, taps)], "auto", 1, TUNING["tpu"])  # dense first, not measured


def test_grid_and_widths():
    cpu = TUNING["cpu"]
    grid = [decide.bucket_size(n, cpu) for n in (1, 64, 65, 192, 193, 576, 577, 1728, 1729)]
    assert grid == [64, 64, 192, 192, 576, 576, 1728, 1728, 2592]
    assert [decide.bucket_size(n, cpu) for n in (2593, 4032, 5833)] == [3888, 5832, 8748]
    assert [decide.bucket_taps(k, 0) for k in (1, 2, 3, 5, 8, 9, 100)] == [1, 2, 4, 8, 8, 16, 128]
    assert decide.bucket_taps(3, 16) == 16
    # bands share a width only with bands that sum alike: the form, and one chain below 2 * sum_chains
    assert [decide.taps_class(k, cpu) for k in (7, 8, 64, 65)] == [
        (True, True),
        (True, False),
        (True, False),
        (False, False),
    ]
    assert [decide.bucket_out_size(n, cpu) for n in (1, 3, 64, 224, 256)] == [1, 3, 75, 232, 290]
    # a shrinking axis: the grid 1, 2, 4, ... (at most twice its outputs)
    assert [decide.bucket_out_size(n, cpu, shrink=True) for n in (1, 3, 64, 224, 256, 257)] == [1, 4, 64, 256, 256, 512]


def test_bucketed_records_read_only_the_valid_part(photo):
    """Padding the input is invisible: the shared records read only the exact part (the padding
    is zeros), and compute the output grid's rows, cut back to the call's own."""
    x = jnp.asarray(photo[:130, :70])
    gather = records.Gather(np.arange(5) * 25, 130)
    own = [strategies.plan(0, gather, "auto", np.float32, TUNING["cpu"])]
    found = buckets.shared(x, [(0, gather)], "auto", (), own, [False], TUNING["cpu"], separate=False)
    padded, ((_, shared),), loops = found
    # 5 of 130 rows: a shrink's output grid 1, 2, 4, 8 computes 8 rows
    assert padded.shape == (192, 70, 3) and shared.in_size == 192 and shared.out_size == 8 and not loops
    np.testing.assert_array_equal(np.asarray(padded)[:130], photo[:130, :70])
    np.testing.assert_array_equal(shared.index[:5], gather.index)
    y = buckets.cut(jnp.zeros((7, 70, 3)), [(0, gather)])
    assert y.shape == (5, 70, 3)


def test_cli_on_a_folder_of_distinct_sizes(tmp_path, monkeypatch, pillow_oracle):
    """``jax-resize DIR OUT`` on files of distinct sizes (some EXIF-rotated): each output is Pillow's
    (``exif_transpose`` then ``resize``), and the files share programs (per shape: one each)."""
    from jax_resize._src import cli

    monkeypatch.setenv("JAX_RESIZE_NO_CACHE", "1")
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    img = load_photo("astronaut.png").convert("RGB")
    sizes = _shapes(12, 6, lo=90, hi=500)
    for i, (h, w) in enumerate(sizes):
        exif = Image.Exif()
        if i % 3 == 0:
            exif[0x0112] = (6, 8, 3)[i // 3 % 3]
        img.crop((0, 0, w, h)).save(src / f"{i:02d}.png", exif=exif)
    before = _COMPILES[0]
    assert cli.main([str(src), str(out), "--size", "40x56", "--mode", "pil_bilinear", "--quiet"]) == 0
    assert _COMPILES[0] - before <= 8, _COMPILES[0] - before
    for i in range(len(sizes)):
        with Image.open(src / f"{i:02d}.png") as original:
            want = ImageOps.exif_transpose(original).resize((56, 40), Image.Resampling.BILINEAR)
        with Image.open(out / f"{i:02d}.png") as got:
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want), err_msg=str(i))


def test_threads_share_the_buckets(photo):
    """Calls from several threads (a service) count and pad consistently: every output is jax.image's."""
    import concurrent.futures

    shapes = _shapes(16, 8, hi=300) * 2  # every shape twice, from different threads

    def one(hw):
        x = np.ascontiguousarray(photo[: hw[0], : hw[1]])
        return np.asarray(jax_resize.resize(x, (40, 30, 3), "linear"))

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(one, shapes))
    for (h, w), out in zip(shapes, outs):
        want = jax.image.resize(photo[:h, :w].astype(np.float32), (40, 30, 3), "linear", antialias=True)
        np.testing.assert_allclose(out, np.asarray(want), atol=255 * 2e-5, err_msg=f"{h}x{w}")
    assert all(buckets._CALLS[k] == 2 for k in buckets._CALLS)


def test_inputs_of_equal_shared_sizes_share_programs():
    """What ``frontend.shared_input_sizes`` promises the pipelines (Beam groups by it): eleven input
    sizes with one ``shared_input_sizes`` compile at most two programs (the two pass orders of a
    shared program), where exact shapes would compile eleven."""
    image = np.random.default_rng(3).integers(0, 256, (131, 150, 3), np.uint8)
    heights = range(100, 131, 3)
    assert len({frontend.shared_input_sizes((h, 150)) for h in heights}) == 1
    before = _COMPILES[0]
    for h in heights:
        jax_resize.resize(image[:h], (41, 29, 3), "pil_bilinear").block_until_ready()
    assert _COMPILES[0] - before <= 2
