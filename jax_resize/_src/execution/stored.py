"""Stored programs: the compiled programs of shape buckets, kept on disk across processes.

Contract: where JAX's persistent compilation cache is on (``jax_compilation_cache_dir`` set, as
the command sets it), :func:`call` runs a bucketed program from an executable it serialized in an
earlier process, keyed by everything that determines the program: the arguments' tree (the plans'
static fields included) and shapes, the static arguments, the compiler options, the versions of
jax, jaxlib and this package's source, the device, ``XLA_FLAGS`` and jax's configuration. A hit
skips tracing and lowering, which JAX's own cache needs before it can look a program up. A
missing, unreadable or refused file is a miss (one whose program fails on its first call in a
process is removed): the program is compiled as usual and stored once its payload, loaded again,
reproduces the call's result bit for bit. An executable that JAX loaded from its own cache is
never stored: its payload need not load again. The directory keeps at most
``HOST.stored_programs`` files (the least recently used are removed); the programs loaded in a
process are a bounded LRU too.
"""

from __future__ import annotations

import collections
import hashlib
import os
import pathlib
import tempfile
import threading

import jax
import jaxlib
import numpy as np

from ..host import HOST

try:
    from jax.experimental import serialize_executable as _serialize
except ImportError:  # pragma: no cover - a jax without executable serialization: nothing is stored
    _serialize = None  # type: ignore[assignment]

_LOADED: collections.OrderedDict = collections.OrderedDict()
_LOCK = threading.Lock()
_SOURCE: list[str] = []  # the package source's digest, read once per process
_HITS = threading.local()  # JAX persistent-cache hits of this thread (``_stored_hits``)
_HITS_LISTENING: list[bool] = []


def directory() -> pathlib.Path | None:
    """Where programs are stored: ``<jax_compilation_cache_dir>/jax_resize``, or ``None`` (off)."""
    base = jax.config.jax_compilation_cache_dir  # type: ignore[attr-defined]
    if not base or _serialize is None or "://" in str(base):  # remote caches: JAX's own only
        return None
    return pathlib.Path(base) / "jax_resize"


def _source_digest() -> str:
    """A digest of every module of the package: a program changes with any line of its source."""
    if not _SOURCE:
        root = pathlib.Path(__file__).resolve().parents[2]
        digest = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
        _SOURCE.append(digest.hexdigest())
    return _SOURCE[0]


def key(args, static: dict, extra=()) -> str:
    """The name of the program ``function(*args, **static)`` compiles to (see the module docstring)."""
    leaves, tree = jax.tree_util.tree_flatten(args)
    device = jax.devices()[0]
    config = sorted((name, repr(value)) for name, value in jax.config.values.items())
    context = (jax.config.jax_enable_x64, jax.config.jax_default_matmul_precision)  # type: ignore[attr-defined]
    parts = (
        str(tree),
        [(tuple(leaf.shape), str(leaf.dtype)) for leaf in leaves],
        sorted((name, repr(value)) for name, value in static.items()),
        extra,
        (jax.__version__, jaxlib.__version__, _source_digest()),
        (device.platform, device.device_kind, os.environ.get("XLA_FLAGS", "")),
        config,
        context,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _remember(name: str, compiled) -> None:
    with _LOCK:
        _LOADED[name] = compiled
        _LOADED.move_to_end(name)
        while len(_LOADED) > HOST.bucket_memory:
            _LOADED.popitem(last=False)


def _executable(payload: bytes, args):
    """The executable serialized in ``payload``, called as ``(*args)`` and returning one array."""
    return _serialize.deserialize_and_load(
        payload, jax.tree_util.tree_structure((args, {})), jax.tree_util.tree_structure(0)
    )


def _load(path: pathlib.Path, args):
    """The executable stored at ``path`` for ``args``' tree, or ``None`` (absent or refused)."""
    try:
        compiled = _executable(path.read_bytes(), args)
        os.utime(path)  # recently used
        return compiled
    except Exception:  # absent, truncated, or written by another jaxlib: compile instead
        return None


def _stored_hits() -> int:
    """JAX persistent-cache hits in this thread so far (a listener is registered on first use)."""
    with _LOCK:
        if not _HITS_LISTENING:
            jax.monitoring.register_event_listener(_count_hit)
            _HITS_LISTENING.append(True)
    return getattr(_HITS, "count", 0)


def _count_hit(event: str, **_) -> None:
    if event == "/jax/compilation_cache/cache_hits":
        _HITS.count = getattr(_HITS, "count", 0) + 1


def _store(folder: pathlib.Path, path: pathlib.Path, compiled, args, result) -> None:
    """Writes ``compiled`` atomically once its payload, loaded again, gives ``result`` on ``args``;
    then removes the least recently used files above the bound."""
    try:
        payload, _, _ = _serialize.serialize(compiled)
        if not np.array_equal(np.asarray(_executable(payload, args)(*args)), np.asarray(result), equal_nan=True):
            return
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as handle:
            handle.write(payload)
        os.replace(handle.name, path)
        files = sorted(folder.glob("*.xla"), key=lambda p: p.stat().st_mtime)
        for old in files[: max(0, len(files) - HOST.stored_programs)]:
            old.unlink(missing_ok=True)
    except Exception:  # a payload that does not load or run again, a full disk: nothing is stored
        pass


def call(function, args: tuple, static: dict, extra=()):
    """``function(*args, **static)`` (a ``jax.jit`` function), through the stored programs."""
    folder = directory()
    default = {jax.devices()[0]}
    if folder is None or any(leaf.devices() != default for leaf in jax.tree_util.tree_leaves(args)):
        return function(*args, **static)  # programs are stored for the default device only
    name = key(args, static, extra)
    compiled = _LOADED.get(name)
    if compiled is not None:
        return compiled(*args)
    path = folder / f"{name}.xla"
    compiled = _load(path, args)
    if compiled is not None:
        try:  # a loaded program's first call waits: a payload that fails to run is removed
            result = jax.block_until_ready(compiled(*args))
            _remember(name, compiled)
            return result
        except Exception:
            path.unlink(missing_ok=True)
    hits = _stored_hits()
    compiled = function.lower(*args, **static).compile()
    result = compiled(*args)
    # an executable JAX loaded from its own cache does not serialize again on CPU (its payload
    # fails with "Function ... not found"): only programs compiled here are stored
    if _stored_hits() == hits:
        _store(folder, path, compiled, args, result)
    _remember(name, compiled)
    return result
