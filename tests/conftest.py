"""Shared test helpers: the ONNX reference evaluator as an oracle for single Resize nodes, the
sample photographs, alpha channels for them, and a resource-capped Python subprocess."""

from __future__ import annotations

import importlib
import importlib.resources
import pathlib
import signal
import subprocess
import sys
import zlib

import numpy as np
import pytest
from PIL import Image

# The photographs beside the repository (../shared/data: astronaut, camera, chelsea, coffee).
SHARED_DATA = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data"
_GREY_PHOTOS = {"camera.png"}  # the cameraman photograph is single-channel


def bundled_photo_path():
    """The photograph shipped inside the package (astronaut, 512x512 RGB)."""
    return importlib.resources.files("jax_resize") / "data" / "astronaut.png"


#: jax_resize's Pillow-exact methods and the Pillow filter each reproduces (the oracle's side).
PIL_FILTERS = {
    "pil_nearest": Image.Resampling.NEAREST,
    "pil_box": Image.Resampling.BOX,
    "pil_bilinear": Image.Resampling.BILINEAR,
    "pil_hamming": Image.Resampling.HAMMING,
    "pil_bicubic": Image.Resampling.BICUBIC,
    "pil_lanczos": Image.Resampling.LANCZOS,
}


#: The Pillow release series the ``pil_*`` presets and ``compat.pil_resize`` reproduce bit for bit
#: (the test extra pins it). Pillow 10.1-12.3 run the horizontal pass first in every case, while
#: 13 chooses the order per shape (``peers.pillow.pass_order``), so their uint8 results differ
#: from 13's by up to 36 levels where the clipped intermediate differs, and I/F by a rounding.
PILLOW_ORACLE_MAJOR = 13


@pytest.fixture
def pillow_oracle():
    """Fails (never skips) a test whose Pillow oracle is not the release series the presets
    reproduce: with another Pillow the exactness it asserts is not promised."""
    import PIL

    if int(PIL.__version__.split(".")[0]) != PILLOW_ORACLE_MAJOR:
        pytest.fail(
            f"Pillow {PIL.__version__} is installed; the pil_* presets reproduce Pillow {PILLOW_ORACLE_MAJOR}.x bit "
            f'for bit (README), so this oracle cannot judge them: run pip install ".[test]" '
            f"(pillow>={PILLOW_ORACLE_MAJOR},<{PILLOW_ORACLE_MAJOR + 1})."
        )


def benchmark_module(name: str):
    """The script ``benchmarks/<name>.py`` imported as a module (``benchmarks/`` on ``sys.path`` while
    it imports, as ``benchmarks/run.py`` has it)."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def load_photo(name, data_dir=None):
    """``name`` from ../shared/data as a PIL image; where that file is absent, the photograph
    bundled with the package instead (converted to greyscale for the grey ones), so the tests
    that use photographs always run. Crops used by the tests fit inside 512x512 either way."""

    path = (SHARED_DATA if data_dir is None else pathlib.Path(data_dir)) / name
    if path.is_file():
        return Image.open(path)
    with importlib.resources.as_file(bundled_photo_path()) as bundled:
        img = Image.open(bundled)
        img.load()
    return img.convert("L") if name in _GREY_PHOTOS else img


def alpha_map(rng, h, w):
    """An ``[h, w]`` uint8 alpha channel: a gradient in a random direction, with a fully transparent
    (0), an opaque (255) and a noisy rectangle — every case of premultiplied resampling."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = xx * np.cos(angle) + yy * np.sin(angle)
    alpha = np.round(255 * (ramp - ramp.min()) / max(np.ptp(ramp), 1e-9))
    for fill in (0, 255, None):
        rh, rw = int(rng.integers(h // 6, h // 2 + 1)), int(rng.integers(w // 6, w // 2 + 1))
        y0, x0 = int(rng.integers(0, h - rh + 1)), int(rng.integers(0, w - rw + 1))
        alpha[y0 : y0 + rh, x0 : x0 + rw] = rng.integers(0, 256, (rh, rw)) if fill is None else fill
    return alpha.astype(np.uint8)


def reference_resize(X, roi=None, scales=None, sizes=None, *, opset=19, **attrs):
    """Runs one Resize node through ``onnx.reference.ReferenceEvaluator`` (the oracle)."""
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    X = np.asarray(X)
    names, feeds, infos = (
        [],
        {"X": X},
        [helper.make_tensor_value_info("X", helper.np_dtype_to_tensor_dtype(X.dtype), None)],
    )
    for name, value, ttype in (
        ("roi", roi, TensorProto.FLOAT),
        ("scales", scales, TensorProto.FLOAT),
        ("sizes", sizes, TensorProto.INT64),
    ):
        if value is None:
            names.append("")
            continue
        names.append(name)
        feeds[name] = np.asarray(value, np.int64 if name == "sizes" else np.float32)
        infos.append(helper.make_tensor_value_info(name, ttype, None))
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", ["X", *names], ["Y"], **attrs)
    graph = helper.make_graph(
        [node], "resize", infos, [helper.make_tensor_value_info("Y", helper.np_dtype_to_tensor_dtype(X.dtype), None)]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return ReferenceEvaluator(model).run(None, feeds)[0]


#: The caps of :func:`run_capped`'s default: jax's start reserves ~0.5-1.6 GB of address space (VmPeak
#: of the command and of one refused front-end call: 0.46-1.6 GB), so 6 GiB leaves room for a
#: normal run while the refused outputs the tests ask for (8 GB and up) die; 30 s of CPU is >= 20x
#: what a capped child spends in all (about 0.8-1.3 s, jax's import included).
CAP_ADDRESS_SPACE = 6 * 2**30
CAP_CPU_SECONDS = 30


def run_capped(code, *args, address_space=CAP_ADDRESS_SPACE, cpu_seconds=CAP_CPU_SECONDS, **kwargs):
    """``python -c CODE ARGS`` with the child's address space (``RLIMIT_AS``) and CPU time
    (``RLIMIT_CPU``) capped from its first statement on: a runaway allocation fails inside the
    child (MemoryError, or the process dies) and a runaway loop is killed by SIGXCPU, so a test
    judges the exit status and output instead of a wall clock. The limits are set by the child
    itself (``preexec_fn`` is unsafe in a parent that runs threads, as jax does). Returns the
    ``subprocess.CompletedProcess`` (text, output captured); ``kwargs`` go to ``subprocess.run``."""
    prelude = (
        "import resource as _r\n"
        f"_r.setrlimit(_r.RLIMIT_AS, ({int(address_space)}, {int(address_space)}))\n"
        f"_r.setrlimit(_r.RLIMIT_CPU, ({int(cpu_seconds)}, {int(cpu_seconds) + 5}))\n"
        "del _r\n"
    )
    kwargs = {"capture_output": True, "text": True, "timeout": 600, **kwargs}
    return subprocess.run([sys.executable, "-c", prelude + code, *map(str, args)], **kwargs)


def capped_failure(run):
    """A message for a :func:`run_capped` child that did not exit normally (empty if it did)."""
    if run.returncode in (-signal.SIGXCPU, -signal.SIGKILL):  # SIGKILL: the hard CPU limit (or the OOM killer)
        return f"the child hit its CPU cap or was killed (status {run.returncode}): {run.stderr[-2000:]}"
    if run.returncode < 0:
        return f"the child died of signal {-run.returncode}: {run.stderr[-2000:]}"
    return ""


#: ``python -m jax_resize`` as code for :func:`run_capped` (``sys.argv`` as the module sees it).
JAX_RESIZE_MAIN = (
    "import runpy, sys; sys.argv[0] = 'jax_resize'; runpy.run_module('jax_resize', run_name='__main__', alter_sys=True)"
)


@pytest.fixture(autouse=True)
def exact_programs(request):
    """Every eager call runs its exact program (``jax_resize.exact_shapes``): the tests of a
    strategy, form or peer check that program against its oracle. ``test_buckets`` checks the
    shared programs of new shapes (outside this context) against these and the oracles."""
    if request.module.__name__.endswith(("test_buckets", "test_stored")):
        yield
        return
    import jax_resize

    with jax_resize.exact_shapes():
        yield


@pytest.fixture(autouse=True)
def own_draws(request, monkeypatch):
    """A test module's ``RNG`` restarted for each test, seeded by the module's and the test's names:
    a test's random inputs never depend on which tests ran before it in its process (``-n 2``
    splits a module between workers as their load goes)."""
    rng = getattr(request.module, "RNG", None)
    if isinstance(rng, np.random.Generator):
        seed = zlib.crc32(f"{request.module.__name__}::{request.node.name}".encode())
        monkeypatch.setattr(request.module, "RNG", np.random.default_rng(seed))


@pytest.fixture(autouse=True)
def compilation_cache_untouched(monkeypatch, tmp_path_factory):
    """The command's persistent cache goes to a temporary folder, never the user's, and its
    ``jax_compilation_cache_dir`` does not outlive the test (stored programs follow that setting)."""
    import jax

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "xdg-cache"))
    before = jax.config.jax_compilation_cache_dir
    yield
    jax.config.update("jax_compilation_cache_dir", before)


@pytest.fixture(autouse=True)
def malloc_untouched(monkeypatch):
    """The command's ``keep_freed_memory`` call leaves the test process's malloc alone when a test
    runs the command in-process (memory-growth tests read that process's RSS)."""
    from jax_resize._src import cli

    monkeypatch.setattr(cli, "keep_freed_memory", lambda **kw: False)


@pytest.fixture
def tune(monkeypatch):
    """``tune(**changes)`` replaces fields of the CPU row of the execution tuning table for one
    test (``run`` reads the row on every call; the changed row is a new jit key)."""
    import dataclasses

    from jax_resize._src.execution import tuning

    def set_fields(**changes):
        monkeypatch.setitem(tuning.TUNING, "cpu", dataclasses.replace(tuning.TUNING["cpu"], **changes))

    return set_fields


def pillow_resized(a, size, resample, box, gap):
    """``Image.fromarray(a).resize(size, resample, box, reducing_gap)`` as an array (the oracle)."""
    return np.asarray(Image.fromarray(a).resize(size, resample, box=box, reducing_gap=gap))


def pil_resize_ours(a, size, resample, box, gap):
    """The same call through ``compat.pil_resize``."""
    from jax_resize import compat

    return np.asarray(compat.pil_resize(a, size, resample, box=box, reducing_gap=gap))


def describe_difference(mode, i, got, want) -> str:
    """How many values of case ``i`` in ``mode`` differ, and by how much at most."""
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    return f"mode {mode} case {i}: {np.count_nonzero(diff)} of {diff.size} values differ, max {diff.max()}"


def cv2_size_rules(h: int, w: int) -> list[dict]:
    """``cv2.resize`` size arguments for an ``h x w`` image: enlarging and shrinking, integer and
    fractional factors, mixed directions, fx/fy (an exact 2x shrink of an odd size: OpenCV's
    integer-area path with partial blocks)."""
    return [
        dict(dsize=(2 * w, 2 * h)),
        dict(dsize=(int(w * 1.37), int(h * 1.37))),
        dict(dsize=(w // 3, h // 3)),
        dict(dsize=(int(w * 0.61), int(h * 0.61))),
        dict(dsize=(2 * w + 3, h // 2)),
        dict(dsize=None, fx=0.5, fy=0.5),
        dict(dsize=None, fx=1 / 3, fy=0.75),
        dict(dsize=(w // 4, 3 * h)),
    ]
