"""Shape buckets: one compiled program for a class of shapes (eager calls meeting new sizes).

Contract: :func:`shared` gives the shared program's operands for an eager call as
:func:`.decide.bucket` and :func:`.decide.shareable` allow — each resized input axis padded with
zeros to :func:`.decide.bucket_size`, each output axis computed up to its own grid size and cut
back by :func:`cut`, each band's taps padded to :func:`.decide.bucket_taps` — or ``None`` (the call
runs its own program). The shared program performs the arithmetic of the call's own program:
the own plans' pass order, grouping, masked tap columns and CPU row-loop choice are kept, and a
padded tap has weight ``-0.0`` (the additive identity: ``s + (-0.0) == s`` for every ``s``), so
it performs the own program's operations in the same order: XLA compiled them to the own program's
bits in every measured call (it contracts multiply-adds by shape: a synthetic band in
``benchmarks/RESULTS.md`` is the exception found). Calls whose own arithmetic a padded band cannot
reproduce (polyphase, looped or dense float passes) are not shared. Both memories are bounded
LRUs (``HOST.bucket_memory``).
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import threading

import jax
import numpy as np

from .. import records as _records
from ..host import HOST
from . import decide as _decide
from .tuning import Tuning

_EXACT = contextvars.ContextVar("jax_resize_exact_shapes", default=False)


@contextlib.contextmanager
def exact_shapes():
    """A context in which every eager call runs the program of its exact shapes, compiled on its
    first call (one compilation per new shape signature): warm speed from the first call. A shared
    program performs the operations of the call's own program in the same order, so the results are
    the same bits with or without it; the context chooses which program runs.

    Example:
      >>> import numpy as np, jax_resize
      >>> with jax_resize.exact_shapes():
      ...     y = jax_resize.resize(np.ones((37, 41)), (20, 20))
    """
    token = _EXACT.set(True)
    try:
        yield
    finally:
        _EXACT.reset(token)


#: Calls per signature (shape, dtype, records' sizes, options): ``exact_after`` asks for it.
_CALLS: collections.OrderedDict = collections.OrderedDict()
#: Widest taps met per ``(bucket, out_size)`` (the programs already compiled serve narrower bands).
_WIDEST: collections.OrderedDict = collections.OrderedDict()


_LOCK = threading.Lock()  # callers on several threads (a service) share both memories


def _remember(memory: collections.OrderedDict, key, update):
    """``memory[key] = update(memory.get(key))`` as the most recent entry; returns the new value."""
    with _LOCK:
        memory[key] = value = update(memory.get(key))
        memory.move_to_end(key)
        while len(memory) > HOST.bucket_memory:
            memory.popitem(last=False)
    return value


def _signature(x, ops, options) -> tuple:
    sizes = tuple(
        (axis, r.in_size, r.out_size, r.width if isinstance(r, _records.Taps) else 0, r.outside is not None)
        for axis, r in ops
    )
    return (x.shape, str(x.dtype), sizes, options)


def _padded(record, size: int, out: int, width: int):
    """``record`` reading the first ``in_size`` of ``size`` inputs and computing ``out`` rows (the
    rows past its own are cut by :func:`cut`), a band widened to ``width`` taps of weight ``-0.0``
    (index 0): each padded term adds ``-0.0``, which leaves every sum as it was."""
    rows = out - record.out_size
    outside = None if record.outside is None else np.pad(np.asarray(record.outside), (0, rows))
    if isinstance(record, _records.Gather):
        return _records.Gather(np.pad(record.index, (0, rows)), size, outside)
    pad = ((0, rows), (0, width - record.width))
    kind = _records.FixedTaps if isinstance(record, _records.FixedTaps) else _records.Taps
    return kind(np.pad(record.index, pad), np.pad(record.weight, pad, constant_values=-0.0), size, outside)


def shared(x, ops, requested: str, options, own: list, exact: list[bool], tuning: Tuning, *, separate: bool):
    """``(x padded, ops padded, loops)`` of an eager call's shared program, or ``None`` (see the
    module docstring). A band that shares a pass with another in the own program keeps its taps
    (padded terms would fall between its own in the product order of a fused pass); a band alone
    in its pass is padded at the end of its taps and keeps its own partial sums
    (:func:`.strategies.like_own`).
    ``loops``: whether the own first pass is the CPU row loop (the shared one must be too).

    Args:
      x: the concrete input (a jax array).
      ops: ``(axis, record)`` pairs in the call's pass order.
      requested: the ``strategy=`` argument.
      options: the call's other arguments that key its program (hashable).
      own: the plans of the call's own program, one per record.
      exact: per plan, whether its pass runs in exact int32 fixed point.
      tuning: the backend's row.
      separate: one plan per pass (a per-pass integer policy).
    """
    if _EXACT.get():
        return None
    calls = _remember(_CALLS, _signature(x, ops, options), lambda seen: (seen or 0) + 1)
    if not _decide.bucket(ops, requested, calls, tuning) or not _decide.shareable(own, exact, tuning):
        return None
    shape = list(x.shape)
    for axis, record in ops:
        shape[axis] = _decide.bucket_size(record.in_size, tuning)
    if np.prod(shape, dtype=np.float64) > tuning.bucket_max_elements:
        return None
    out_shape = list(shape)
    for axis, record in ops:
        out_shape[axis] = _decide.bucket_out_size(record.out_size, tuning, shrink=record.out_size < record.in_size)
    if np.prod(out_shape, dtype=np.float64) > tuning.bucket_max_elements:
        return None  # a padded output this large: its own program (and no padded copy of it)
    groups = _decide.groups(own, tuning, separate=separate)
    fused = {id(p) for group in groups if len(group) > 1 for p in group}
    padded = []
    for (axis, record), plan in zip(ops, own):
        out = out_shape[axis]
        width = record.width if isinstance(record, _records.Taps) else 0
        if isinstance(record, _records.Taps) and id(plan) not in fused:
            k, kind = record.width, _decide.taps_class(record.width, tuning)  # the widest that sums alike
            width = _remember(
                _WIDEST, (shape[axis], out, kind), lambda widest, k=k: _decide.bucket_taps(k, widest or 0)
            )
        padded.append((axis, _padded(record, shape[axis], out, width)))
    loops = _decide.first_pass_loops(own, x.shape, tuning, separate=separate)
    if tuple(shape) == x.shape:
        return jax.numpy.asarray(x), padded, loops
    host = np.zeros(shape, x.dtype)  # zeros: the padding is never read with a non-zero weight
    host[tuple(slice(0, n) for n in x.shape)] = np.asarray(x)
    return jax.device_put(host), padded, loops


def cut(y, ops):
    """A shared program's output ``y`` cut to the call's own output sizes (``ops``: its records):
    a slice of a host view and one transfer back (an eager slice of a new shape would compile a
    program of its own)."""
    index = [slice(None)] * y.ndim
    for axis, record in ops:
        index[axis] = slice(0, record.out_size)
    if all(s.stop is None or s.stop == n for s, n in zip(index, y.shape)):
        return y
    (device,) = y.devices()
    host = jax.device_get(y.block_until_ready())  # a ready buffer: numpy's view of one still computing aborts
    return jax.device_put(np.ascontiguousarray(host[tuple(index)]), device)
