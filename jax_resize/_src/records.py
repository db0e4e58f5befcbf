"""Records: one axis's resampling operator as data, the contract between the code that builds it
(weights, front ends) and the execution layer. A record (:class:`Gather`, :class:`Taps`) maps
``in_size`` inputs to ``out_size`` outputs; either may carry ``outside: [out]`` bool, rows that take
the extrapolation value. Records are never mutated once built.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from .host import HOST


@dataclasses.dataclass(frozen=True, eq=False)
class Gather:
    """Nearest: ``out[o] = in[index[o]]``, ``index: [out]`` integers in ``[0, in_size)`` (numpy or
    traced); a gather, so integer data never passes through float arithmetic."""

    index: Any
    in_size: int
    outside: Any = None

    @property
    def out_size(self) -> int:
        return int(self.index.shape[0])


@dataclasses.dataclass(frozen=True, eq=False)
class Taps:
    """A filter: ``out[o] = sum_k weight[o, k] * in[index[o, k]]``, ``index``/``weight`` ``[out, k]``
    (host: int32 and float64 numpy; or traced), the sparse form of ``W: [out, in_size]``."""

    index: Any
    weight: Any
    in_size: int
    outside: Any = None

    @property
    def out_size(self) -> int:
        return int(self.index.shape[0])

    @property
    def constant(self) -> bool:
        """Whether the weights are host (numpy) values, so plans can be precomputed."""
        return isinstance(self.weight, np.ndarray)

    @property
    def width(self) -> int:
        """Taps per output (``k``)."""
        return int(self.index.shape[1])

    def map_weights(self, fn: Callable[[np.ndarray], np.ndarray]) -> Taps:
        """The same taps with ``fn`` (elementwise) applied to the host weights."""
        return Taps(self.index, fn(self.weight), self.in_size, self.outside)

    def with_outside(self, outside) -> Taps:
        """The same taps with the rows ``outside`` (``[out]`` bool, or ``None``) flagged."""
        return Taps(self.index, self.weight, self.in_size, outside)


class FixedTaps(Taps):
    """Taps whose weights are already fixed-point integers ``k = rint(w * 2**bits)`` (host or
    traced), checked on the host to keep every sum within int32 (:func:`..execution.apply.fixed`):
    a per-pass fixed-point policy applies them as they are."""


class SharedBand(Taps):
    """Host taps whose rows repeat a few patterns (a rational shrink's phases): ``index[o] = start[o]
    + arange(width)`` (``start: [out]`` int64 in ``[0, in_size - width]``), ``weight[o] =
    table[row_class[o]]`` (``table: [patterns, width]`` float64). ``index`` and ``weight`` are
    expanded on first read (read-only); the banded strategy loops over ``(start, row_class, table)``
    as they are, so a plan costs ``O(out + patterns * width)`` on the host, not ``O(out * width)``."""

    start: np.ndarray
    row_class: np.ndarray
    table: np.ndarray
    _expanded: dict

    def __init__(self, start, row_class, table, in_size: int, outside=None):
        for name, value in (("start", start), ("row_class", row_class), ("table", table)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "in_size", in_size)
        object.__setattr__(self, "outside", outside)
        object.__setattr__(self, "_expanded", {})

    def __repr__(self) -> str:
        return (
            f"SharedBand(out={self.out_size}, width={self.width}, patterns={self.table.shape[0]}, "
            f"in_size={self.in_size})"
        )

    def _expand(self, name: str, build):
        if name not in self._expanded:
            value = build()
            value.flags.writeable = False
            self._expanded[name] = value
        return self._expanded[name]

    @property
    def index(self):
        return self._expand("index", lambda: band_index(self.start, self.width))

    @property
    def weight(self):
        return self._expand("weight", lambda: self.table[self.row_class])

    @property
    def out_size(self) -> int:
        return int(self.start.shape[0])

    @property
    def constant(self) -> bool:
        return True

    @property
    def width(self) -> int:
        return int(self.table.shape[1])

    def map_weights(self, fn: Callable[[np.ndarray], np.ndarray]) -> Taps:
        return SharedBand(self.start, self.row_class, fn(self.table), self.in_size, self.outside)

    def with_outside(self, outside) -> Taps:
        return SharedBand(self.start, self.row_class, self.table, self.in_size, outside)


def shared_band(start: np.ndarray, row_class: np.ndarray, table: np.ndarray, in_size: int) -> Taps:
    """The band ``(start, table[row_class])`` as a :class:`SharedBand` when rows share patterns or
    the band is wider than ``HOST.wide_window`` taps (applied in a loop: its index is never needed),
    else as plain :class:`Taps`."""
    if table.shape[0] < row_class.shape[0] or table.shape[1] > HOST.wide_window:
        return SharedBand(start.astype(np.int64), row_class, table, in_size)
    return Taps(band_index(start, table.shape[1]), table[row_class], in_size)


Record = Gather | Taps


def rows(record, start: int, stop: int):
    """Outputs ``start..stop`` of ``record``: a crop of its axis's output (each output keeps its taps)."""
    cut = slice(start, stop)
    outside = None if record.outside is None else record.outside[cut]
    if isinstance(record, Gather):
        return Gather(record.index[cut], record.in_size, outside)
    if isinstance(record, SharedBand):
        return SharedBand(record.start[cut], record.row_class[cut], record.table, record.in_size, outside)
    return Taps(record.index[cut], record.weight[cut], record.in_size, outside)


def _freeze(record):
    names = [f.name for f in dataclasses.fields(record)] if dataclasses.is_dataclass(record) else []
    if isinstance(record, SharedBand):  # its index and weight are expanded (read-only) on demand
        names = ["start", "row_class", "table", "outside"]
    for name in names:
        value = getattr(record, name)
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return record


def memoized(build):
    """Memoises a record builder on its hashable arguments: the same geometry returns the same record
    (arrays read-only), whose plan the execution layer caches too; unhashable arguments (a traced
    ``roi``, an array) build afresh."""
    cached = functools.lru_cache(maxsize=HOST.record_cache_size)(lambda *a, **k: _freeze(build(*a, **k)))

    @functools.wraps(build)
    def wrapper(*args, **kwargs):
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return build(*args, **kwargs)
        return cached(*args, **kwargs)

    wrapper.cache_clear = cached.cache_clear
    return wrapper


def empty(in_size: int, out_size: int, *, gather: bool) -> Record:
    """The record of an axis with an empty input or output (no taps to compute)."""
    if gather:
        return Gather(np.zeros((out_size,), np.int32), in_size)
    return Taps(np.zeros((out_size, 1), np.int32), np.zeros((out_size, 1)), in_size)


def tiles(rows: int, width: int):
    """Cache-sized tiles ``(row slice, first column, end column)`` covering a ``[rows, width]`` band."""
    per_row = max(1, min(rows, HOST.tile_elements // max(width, 1)))
    per_col = max(1, min(width, HOST.tile_elements // per_row))
    for r in range(0, rows, per_row):
        for c in range(0, width, per_col):
            yield slice(r, r + per_row), c, min(c + per_col, width)


def band_index(start: np.ndarray, width: int) -> np.ndarray:
    """``index[o] = start[o] + arange(width)``, int32 (built in int32: a fraction of int64's cost)."""
    return start.astype(np.int32)[:, None] + np.arange(width, dtype=np.int32)[None, :]


def taps_to_matrix(index, weight, in_size: int, *, xp=np):
    """The dense ``[out, in_size]`` matrix of taps: ``W[o, index[o, k]] += weight[o, k]``."""
    out = index.shape[0]
    rows = xp.broadcast_to(xp.arange(out)[:, None], index.shape)
    if xp is np:
        W = np.zeros((out, in_size), dtype=np.float64)
        np.add.at(W, (rows, index), weight)
        return W
    return xp.zeros((out, in_size), dtype=weight.dtype).at[rows, index].add(weight)


def matrix_band(index, weight) -> tuple[np.ndarray, np.ndarray]:
    """The nonzero band of :func:`taps_to_matrix`'s rows: ``(start [out] int32, band [out, width]
    float64)`` with ``W[o, start[o] + j] = band[o, j]``; the entries are the matrix's own (the
    same float64 sums in the same order), ``width`` the widest row's span of taps."""
    index = np.asarray(index)
    if index.size == 0:
        return np.zeros(index.shape[0], np.int32), np.zeros((index.shape[0], 1))
    start = index.min(axis=1).astype(np.int32)
    offset = index - start[:, None]
    band = np.zeros((index.shape[0], int(offset.max()) + 1))
    np.add.at(band, (np.broadcast_to(np.arange(index.shape[0])[:, None], index.shape), offset), weight)
    return start, band


def record_matrix(record: Record) -> np.ndarray:
    """The dense ``[out, in]`` float64 matrix of a host record (one-hot rows for a gather); rows
    flagged ``outside`` are zero."""
    if isinstance(record, Gather):
        W = (np.asarray(record.index)[:, None] == np.arange(record.in_size)[None, :]).astype(np.float64)
    else:
        W = taps_to_matrix(record.index, record.weight, record.in_size)
    if record.outside is not None:
        W = np.where(np.asarray(record.outside)[:, None], 0.0, W)
    return W
