"""Stored programs (execution/stored.py): a bucketed program compiled in one process runs in the
next without tracing or compiling, its outputs Pillow's and jax.image's; unreadable files are
misses; the folder and the loaded programs stay bounded; the key follows what changes a program."""

from __future__ import annotations

import collections
import dataclasses
import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import load_photo, run_capped

from jax_resize._src.execution import stored
from jax_resize._src.host import HOST


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A persistent cache in ``tmp_path`` and an empty process memory of loaded programs; JAX
    writes none of these small programs to its own cache (a hit there is never stored here)."""
    jax.config.update("jax_compilation_cache_dir", str(tmp_path))  # conftest restores it
    minimum = jax.config.jax_persistent_cache_min_compile_time_secs
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 1e9)
    monkeypatch.setattr(stored, "_LOADED", collections.OrderedDict())
    yield tmp_path / "jax_resize"
    jax.config.update("jax_persistent_cache_min_compile_time_secs", minimum)


def _traced(counter):
    """A jitted ``x * w + k`` that counts its traces."""

    def f(x, w, *, k):
        counter[0] += 1
        return x * w + k

    return jax.jit(f, static_argnames=("k",))


def test_off_without_a_persistent_cache(monkeypatch):
    jax.config.update("jax_compilation_cache_dir", None)
    counter = [0]
    out = stored.call(_traced(counter), (jnp.ones(3), jnp.ones(3)), {"k": 1.0})
    np.testing.assert_array_equal(out, [2.0, 2.0, 2.0])
    assert stored.directory() is None and counter == [1]


def test_a_stored_program_runs_without_tracing(folder, monkeypatch):
    counter = [0]
    function = _traced(counter)
    x, w = jnp.arange(4.0), jnp.full(4, 2.0)
    np.testing.assert_array_equal(stored.call(function, (x, w), {"k": 1.0}), [1, 3, 5, 7])
    assert counter == [1] and len(list(folder.glob("*.xla"))) == 1
    monkeypatch.setattr(stored, "_LOADED", collections.OrderedDict())  # as a new process,
    function = _traced(counter)  # with a new function (jax's own trace cache is per function)
    np.testing.assert_array_equal(stored.call(function, (x + 1, w), {"k": 1.0}), [3, 5, 7, 9])
    assert counter == [1]
    stored.call(function, (x, w), {"k": 2.0})  # another static argument: another program
    stored.call(function, (jnp.arange(5.0), jnp.ones(5)), {"k": 1.0})  # other shapes
    assert counter == [3] and len(list(folder.glob("*.xla"))) == 3


def test_an_unreadable_file_is_a_miss_and_is_replaced(folder, monkeypatch):
    counter = [0]
    function = _traced(counter)
    args = (jnp.arange(3.0), jnp.ones(3))
    stored.call(function, args, {"k": 0.0})
    (path,) = folder.glob("*.xla")
    path.write_bytes(b"not an executable")
    monkeypatch.setattr(stored, "_LOADED", collections.OrderedDict())
    np.testing.assert_array_equal(stored.call(_traced(counter), args, {"k": 0.0}), [0, 1, 2])
    assert counter == [2] and path.stat().st_size > 100


def test_a_payload_that_fails_to_run_is_removed_and_recompiled(folder, monkeypatch):
    counter = [0]
    args = (jnp.arange(3.0), jnp.ones(3))
    stored.call(_traced(counter), args, {"k": 0.0})
    (path,) = folder.glob("*.xla")
    real = stored._serialize.deserialize_and_load

    def failing(*a, **k):
        def run(*args):
            raise RuntimeError("NOT_FOUND: Function add_fusion not found")

        return run

    monkeypatch.setattr(stored._serialize, "deserialize_and_load", failing)
    monkeypatch.setattr(stored, "_LOADED", collections.OrderedDict())
    np.testing.assert_array_equal(stored.call(_traced(counter), args, {"k": 0.0}), [0, 1, 2])
    assert counter == [2] and not path.exists()  # removed, compiled, and (its copy failing too) not stored
    monkeypatch.setattr(stored._serialize, "deserialize_and_load", real)
    monkeypatch.setattr(stored, "_LOADED", collections.OrderedDict())
    stored.call(_traced(counter), args, {"k": 0.0})
    assert counter == [3] and path.exists()


def test_folder_and_memory_are_bounded(folder, monkeypatch):
    monkeypatch.setattr(stored, "HOST", dataclasses.replace(HOST, stored_programs=2, bucket_memory=2))
    function = _traced([0])
    for n in range(2, 6):
        stored.call(function, (jnp.ones(n), jnp.ones(n)), {"k": 0.0})
    assert len(list(folder.glob("*.xla"))) == 2 and len(stored._LOADED) == 2
    assert not list(folder.glob("*.tmp"))


def test_the_key_follows_the_program_and_its_environment(monkeypatch):
    args, static = (jnp.ones((2, 3)), jnp.ones(3, jnp.int32)), {"k": 1.0}
    base = stored.key(args, static)
    assert stored.key(args, static) == base
    assert stored.key((jnp.ones((2, 3)), jnp.ones(3)), static) != base  # a dtype
    assert stored.key((jnp.ones((3, 2)), args[1]), static) != base  # a shape
    assert stored.key(args, {"k": 2.0}) != base
    assert stored.key(args, static, extra=(("xla_option", False),)) != base
    assert stored.key(([args[0]], args[1]), static) != base  # the tree
    monkeypatch.setenv("XLA_FLAGS", "--xla_cpu_enable_fast_math=true")
    assert stored.key(args, static) != base
    monkeypatch.delenv("XLA_FLAGS")
    monkeypatch.setattr(stored, "_SOURCE", ["another version of the package"])
    assert stored.key(args, static) != base


_CHILD = """
import json, sys, jax, numpy as np
events = []
jax.monitoring.register_event_duration_secs_listener(lambda event, duration, **kw: events.append(event))
import jax_resize
from jax_resize._src.execution import stored
if sys.argv[3:] == ["jax-cache-only"]:
    stored.directory = lambda: None
photo = np.load(sys.argv[1])
out = {}
for h, w in [(301, 457), (288, 470)]:
    before = len(events)
    y = np.asarray(jax_resize.resize(photo[:h, :w], (40, 56, 3), "pil_bilinear"))
    np.save(sys.argv[2] + f"-{h}.npy", y)
    out[h] = sorted(set(e for e in events[before:] if "trace" in e or "backend_compile" in e))
print(json.dumps(out))
"""


def test_a_new_process_runs_stored_bucketed_programs(tmp_path, pillow_oracle):
    """Two fresh processes resize two photo crops of one bucket with ``pil_bilinear``: the first
    compiles, the second neither traces nor compiles; both equal Pillow's resize bit for bit."""
    from PIL import Image

    photo = np.asarray(load_photo("astronaut.png").convert("RGB"))
    np.save(tmp_path / "photo.npy", photo)
    env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_COMPILATION_CACHE_DIR=str(tmp_path / "cache"))
    env["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "")  # the key reads it: the same in both children
    events = []
    for run in ("first", "second"):
        child = run_capped(_CHILD, tmp_path / "photo.npy", tmp_path / run, env=env)
        assert child.returncode == 0, child.stderr[-3000:]
        events.append(json.loads(child.stdout.strip().splitlines()[-1]))
    assert any(events[0].values()), events  # the first process compiled its bucketed program
    assert events[1] == {"301": [], "288": []}, events
    assert len(list((tmp_path / "cache" / "jax_resize").glob("*.xla"))) == 1
    for h, w in [(301, 457), (288, 470)]:
        want = np.asarray(Image.fromarray(photo[:h, :w]).resize((56, 40), Image.Resampling.BILINEAR))
        for run in ("first", "second"):
            np.testing.assert_array_equal(np.load(tmp_path / f"{run}-{h}.npy"), want, err_msg=run)


def test_programs_jax_loaded_from_its_cache_are_not_stored(tmp_path, pillow_oracle):
    """On CPU an executable that JAX loaded from its persistent cache serializes to a payload that
    fails when run ("Function ... not found"): a process whose compilation hit JAX's cache stores
    nothing, and the next process still gives Pillow's result."""
    from PIL import Image

    photo = np.asarray(load_photo("astronaut.png").convert("RGB"))
    np.save(tmp_path / "photo.npy", photo)
    env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_COMPILATION_CACHE_DIR=str(tmp_path / "cache"))
    env["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "")
    env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    env["JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES"] = "0"
    for run, extra in (("jax", ["jax-cache-only"]), ("hit", []), ("next", [])):
        child = run_capped(_CHILD, tmp_path / "photo.npy", tmp_path / run, *extra, env=env)
        assert child.returncode == 0, child.stderr[-3000:]
        if run == "hit":
            assert not list((tmp_path / "cache" / "jax_resize").glob("*.xla"))
    for h, w in [(301, 457), (288, 470)]:
        want = np.asarray(Image.fromarray(photo[:h, :w]).resize((56, 40), Image.Resampling.BILINEAR))
        for run in ("jax", "hit", "next"):
            np.testing.assert_array_equal(np.load(tmp_path / f"{run}-{h}.npy"), want, err_msg=run)


def test_a_payload_that_does_not_reproduce_the_result_is_not_stored(folder, monkeypatch):
    real = stored._serialize.deserialize_and_load

    def wrong(*a, **k):
        loaded = real(*a, **k)
        return lambda *args: loaded(*args) + 1

    monkeypatch.setattr(stored._serialize, "deserialize_and_load", wrong)
    out = stored.call(_traced([0]), (jnp.arange(3.0), jnp.ones(3)), {"k": 0.0})
    np.testing.assert_array_equal(out, [0, 1, 2])
    assert not list(folder.glob("*.xla"))


_OTHER_DEVICE = """
import sys, jax, numpy as np
import jax_resize
a = np.load(sys.argv[1])[:192, :192]
y = jax_resize.resize(jax.device_put(a, jax.devices()[1]), (40, 56, 3), "pil_bilinear")
assert y.devices() == {jax.devices()[1]}, y.devices()
np.save(sys.argv[2], np.asarray(y))
"""


def test_an_input_on_another_device_runs_its_own_program(tmp_path, pillow_oracle):
    """Programs are stored for the default device only: a 192x192 crop (its own bucket: no padding,
    no move) committed to the second of two CPU devices runs on it, stores nothing, and is Pillow's."""
    from PIL import Image

    photo = np.asarray(load_photo("astronaut.png").convert("RGB"))
    np.save(tmp_path / "photo.npy", photo)
    env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_COMPILATION_CACHE_DIR=str(tmp_path / "cache"))
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
    child = run_capped(_OTHER_DEVICE, tmp_path / "photo.npy", tmp_path / "out.npy", env=env)
    assert child.returncode == 0, child.stderr[-3000:]
    assert not list((tmp_path / "cache" / "jax_resize").glob("*.xla"))
    want = np.asarray(Image.fromarray(photo[:192, :192]).resize((56, 40), Image.Resampling.BILINEAR))
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), want)
