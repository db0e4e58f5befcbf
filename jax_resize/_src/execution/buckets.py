"""Shape buckets: one compiled program for a class of input shapes (eager calls meeting new sizes).

Contract: :func:`bucketed` gives ``(x, ops)`` of an eager call as :func:`.decide.bucket` asks —
each resized input axis padded with zeros to :func:`.decide.bucket_size`, each record reading only
the valid part (output sizes exact), each band's taps zero-padded to :func:`.decide.bucket_taps` —
or ``None`` (the call gets its own program). Zero taps add exact zeros: integer fixed-point
results are bit for bit those of the exact program, float results equal them within summation
order (the pass order and grouping are chosen on the padded shapes). Both memories are bounded
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
    first call (one compilation per new input shape), so float results are the same bits on every
    call of a shape. Outside it, the first ``exact_after - 1`` calls of a shape signature run a
    shared program of padded shapes, whose float results may differ from its own program's in the
    last bits (summation order); integer fixed-point results and gathers never do.

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


def _padded(record, size: int):
    """``record`` reading the first ``in_size`` of ``size`` inputs, bands widened with zero taps."""
    if isinstance(record, _records.Gather):
        return _records.Gather(record.index, size, record.outside)
    k = record.width
    width = _remember(_WIDEST, (size, record.out_size), lambda widest: _decide.bucket_taps(k, widest or 0))
    pad = ((0, 0), (0, width - k))
    return _records.Taps(np.pad(record.index, pad), np.pad(record.weight, pad), size, record.outside)


def bucketed(x, ops, requested: str, options, tuning: Tuning):
    """``(x padded, ops padded)`` of an eager call, or ``None`` (see the module docstring).

    Args:
      x: the concrete input (a jax array).
      ops: ``(axis, record)`` pairs.
      requested: the ``strategy=`` argument.
      options: the call's other arguments that key its program (hashable).
      tuning: the backend's row.
    """
    if _EXACT.get():
        return None
    key = _signature(x, ops, options)
    calls = _remember(_CALLS, key, lambda seen: (seen or 0) + 1)
    if not _decide.bucket(ops, requested, calls, tuning):
        return None
    shape = list(x.shape)
    for axis, record in ops:
        shape[axis] = _decide.bucket_size(record.in_size, tuning)
    if np.prod(shape, dtype=np.float64) > tuning.bucket_max_elements:
        return None
    padded = [(axis, _padded(record, shape[axis])) for axis, record in ops]
    if tuple(shape) == x.shape:
        return jax.numpy.asarray(x), padded
    host = np.zeros(shape, x.dtype)  # zeros: the padding is never read with a non-zero weight
    host[tuple(slice(0, n) for n in x.shape)] = np.asarray(x)
    return jax.device_put(host), padded
