"""Polyphase contractions: a rational-ratio axis as strided slices and multiply-adds.

Contract: when ``out / in`` reduces to ``L / M`` with few phases ``L``, output ``o = q * L + p``
(phase ``p``, period ``q``) of a filter reads inputs ``q * M + start_p + k`` for ``k < K`` only:

    out[q * L + p] = sum_k  w[p, k, q] * xe[q * M + start_p + k]

where ``xe`` is ``x`` extended past ``[0, in)`` by its edge element (``plan.edge``) or by zeros,
and ``w`` holds the taps' own weights (``w[p, k, q]`` differs between periods only near the
edges, where ``exclude_outside`` or antialiasing renormalised a row; clamped ONNX taps are the
interior pattern read from the edge-extended input, so those plans use one scalar per term).
Each ``(p, k)`` term is a strided slice: no gathers, so XLA emits one pass per phase and
interleaves the phases with a stack + reshape. This is the periodic structure of ``W: [out, in]``
for rational ratios (polyphase filtering, e.g. Crochiere & Rabiner 1983); the weights are the
taps', so every strategy computes the same sums up to float rounding order.

:func:`polyphase_plan` builds the plan on the host (numpy, from constant taps) or returns ``None``
when the axis has too few or too many phases or terms to pay off. :func:`polyphase` applies a plan
with plain jax ops; :func:`polyphase_nd` applies plans of several axes at once (every combination
of one tap per axis is one strided read of the input: ``W_a X W_b^T`` without an intermediate);
:class:`Polyphase` is the same map as a forward implementation of :class:`.primitive.LinearMap`,
so the derivative is the banded contraction with the transposed taps.

NaN/Inf locality: a term whose weight is zero in some period where it reads a real input is
masked (``where(w != 0, w * v, 0)``); terms zero in every period are dropped; zero weights that
read the zero extension need no mask.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import jax.numpy as jnp
import numpy as np
from jax import lax

from . import banded as _banded
from .primitive import Implementation, result_dtype
from .tuning import Tuning


@dataclasses.dataclass(frozen=True)
class PolyphasePlan:
    """Static shape of one axis's polyphase contraction (hashable; weights live elsewhere).

    Attributes:
      phases: ``L``, outputs per period.
      step: ``M``, inputs per period.
      periods: ``Q = out / L``.
      out_size: ``L * Q``.
      edge: positions outside ``[0, in)`` read the edge element (``True``) or zero (``False``).
      start: per phase, the position of tap 0 in period 0 (may be negative).
      terms: per phase, per tap, how the weight enters: a float (the same in every period), or
        ``"row"`` (per period, from the weight array), or ``"masked"`` (per period, and zero in some
        period where it reads a real input, so NaN/Inf must be masked). ``None``: always zero.
    """

    phases: int
    step: int
    periods: int
    out_size: int
    edge: bool
    start: tuple[int, ...]
    terms: tuple[tuple, ...]

    @property
    def uses_weights(self) -> bool:
        """Whether some term reads the ``[L, K, Q]`` weight array (else all are scalars)."""
        return any(isinstance(t, str) for row in self.terms for t in row)


def _by_phase(values, phases: int, periods: int, taps: int, weights):
    """``[L, K, Q]`` table of ``weights`` summed at relative positions ``values``.

    ``values``/``weights``: ``[Q, L, k]`` (row ``o = q * L + p``), positions relative to the
    window start ``q * M + start[p]``; every position must lie in ``[0, K)``.
    """
    flat = (np.arange(phases)[None, :, None] * taps + values) * periods + np.arange(periods)[:, None, None]
    keep = weights != 0
    table = np.bincount(flat[keep], weights=weights[keep], minlength=phases * taps * periods)
    return table.reshape(phases, taps, periods)


def _edge_weights(w, step: int, lo, in_size: int, atol: float):
    """``[L, K]`` weights that, read from the edge-extended input, reproduce every period of
    ``w`` (``[L, K, Q]``); or None.

    Taps clamped to the edge (ONNX linear/cubic without ``exclude_outside``) are the interior
    pattern read from an input that repeats its edge element, so one scalar per term serves
    every period (no weight arrays in the fused loop).
    """
    phases, taps, periods = w.shape
    q = np.arange(periods)
    interior = np.flatnonzero((q * step + lo.min() >= 0) & (q * step + lo.max() + taps <= in_size))
    if not interior.size:
        return None
    w_edge = w[:, :, interior[interior.size // 2]]  # [L, K]
    window = q[:, None] * step + lo[None, :]  # [Q, L]: position of tap 0
    pos = window[:, :, None] + np.arange(taps)  # [Q, L, K]
    rel = np.clip(pos, 0, in_size - 1) - window[:, :, None]  # where the edge-extended read lands
    vals = np.broadcast_to(w_edge[None], pos.shape)
    if np.any((vals != 0) & ((rel < 0) | (rel >= taps))):
        return None
    rebuilt = _by_phase(rel, phases, periods, taps, vals)
    return w_edge if np.all(np.abs(rebuilt - w) <= atol) else None


def polyphase_plan(
    index: np.ndarray,
    weight: np.ndarray,
    in_size: int,
    tuning: Tuning,
    *,
    max_terms: int | None = None,
    atol: float = 1e-12,
):
    """The polyphase form of constant taps, or ``None`` outside the tuning row's
    ``polyphase_min_phases..polyphase_max_phases`` phases, a shrink outside its
    ``polyphase_shrink_max_phases`` / ``polyphase_shrink_min_taps``, or beyond ``max_terms`` terms
    (default: the row's ``polyphase_max_terms``; compile time grows with the unrolled terms).

    Args:
      index: ``[out, k]`` integer tap indices in ``[0, in_size)``.
      weight: ``[out, k]`` float tap weights (float64 on the host).
      in_size: input length of the axis.
      atol: weights this close count as equal (float64 rounding of periodic coordinates).

    Returns:
      ``(plan, w)``: a :class:`PolyphasePlan` and ``w: [L, K, Q]`` float64, the weight of phase
      ``p``'s tap ``k`` in period ``q``; or ``None``.
    """
    out, k = index.shape
    if out == 0 or in_size == 0:
        return None
    ratio = Fraction(out, in_size)
    phases, step = ratio.numerator, ratio.denominator
    if max_terms is None:
        max_terms = tuning.polyphase_max_terms
    if not tuning.polyphase_min_phases <= phases <= tuning.polyphase_max_phases:
        return None
    shrink_phases = tuning.polyphase_shrink_max_phases
    if step > phases and (
        (shrink_phases is not None and phases > shrink_phases) or k < tuning.polyphase_shrink_min_taps
    ):
        return None
    periods = out // phases  # exact: out / in = L / M in lowest terms
    # [Q, L, k]: row o = q * L + p; tap positions relative to the period's first input q * M
    rel = index.reshape(periods, phases, k).astype(np.int64) - (np.arange(periods) * step)[:, None, None]
    weight = weight.reshape(periods, phases, k)
    nonzero = weight != 0
    big = np.iinfo(np.int64).max
    per_phase = lambda a: np.moveaxis(a, 1, 0).reshape(phases, -1)  # [L, Q * k], one row per phase
    lo = per_phase(np.where(nonzero, rel, big)).min(axis=1)
    hi = per_phase(np.where(nonzero, rel, -big)).max(axis=1)
    unused = ~per_phase(nonzero).any(axis=1)  # a phase whose rows are all zero
    lo[unused], hi[unused] = 0, 0
    taps = int((hi - lo).max()) + 1
    if phases * taps > max_terms:
        return None
    w = _by_phase(np.where(nonzero, rel - lo[None, :, None], 0), phases, periods, taps, weight)
    start = tuple(int(s) for s in lo)
    w_edge = _edge_weights(w, step, lo, in_size, atol)
    if w_edge is not None:
        terms = tuple(tuple(float(v) if v != 0 else None for v in row) for row in w_edge)
        return PolyphasePlan(phases, step, periods, out, True, start, terms), w
    rows: list[tuple] = []
    for ph in range(phases):
        pos = np.arange(periods) * step + start[ph]
        row: list[float | str | None] = []
        for t in range(taps):
            col = w[ph, t]
            real = (pos + t >= 0) & (pos + t < in_size)
            if not col.any():
                row.append(None)
            elif col[0] != 0 and np.all(np.abs(col - col[0]) <= atol):
                row.append(float(col[0]))
            elif np.any((col == 0) & real):
                row.append("masked")
            else:
                row.append("row")
        rows.append(tuple(row))
    return PolyphasePlan(phases, step, periods, out, False, start, tuple(rows)), w


def _strided(x, first: int, count: int, plan: PolyphasePlan, axis: int):
    """``x`` at positions ``first + i * M`` (``i < count``) along ``axis``, reading the edge element
    (or zero) outside ``[0, in)``: a strided slice, with broadcast pieces concatenated at the ends
    when some position lies outside (only in the edge segments of :func:`polyphase`)."""
    n, step = x.shape[axis], plan.step
    i_lo = min(count, max(0, -(first // step)))  # first i reading position >= 0
    i_hi = max(i_lo, min(count, -(-(n - first) // step)))  # first i reading position >= n
    pieces = []
    for size, edge_at in ((i_lo, 0), (None, 0), (count - i_hi, n - 1)):
        if size is None:
            if i_hi > i_lo:
                begin = first + i_lo * step
                pieces.append(lax.slice_in_dim(x, begin, begin + (i_hi - i_lo - 1) * step + 1, step, axis=axis))
        elif size:
            shape = x.shape[:axis] + (size,) + x.shape[axis + 1 :]
            if plan.edge:
                edge = lax.slice_in_dim(x, edge_at, edge_at + 1, axis=axis)
                pieces.append(lax.broadcast_in_dim(edge, shape, tuple(range(x.ndim))))
            else:
                pieces.append(lax.full(shape, 0, x.dtype))
    return pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, axis)


def interior(plan: PolyphasePlan, in_size: int) -> tuple[int, int]:
    """``(q_a, q_b)``: the periods ``q_a <= q < q_b`` in which every tap of every phase reads a
    position inside ``[0, in_size)`` (``q_a == q_b`` when there is none)."""
    taps = len(plan.terms[0]) if plan.terms else 0
    q_a = max((-(min(s, 0) // plan.step) for s in plan.start), default=0)  # ceil(-s / M) for s < 0
    q_b = min(((in_size - s - taps) // plan.step + 1 for s in plan.start), default=plan.periods)
    q_a = min(q_a, plan.periods)
    return q_a, max(q_a, min(q_b, plan.periods))


def _weighted(v, term, w, ph: int, k: int, axis: int, q0: int, q1: int, dtype):
    """``v`` (periods ``q0 <= q < q1`` along ``axis``) times the weight of phase ``ph``'s tap ``k``."""
    if isinstance(term, float):
        return v if term == 1.0 else lax.mul(v, lax.full(v.shape, term, dtype))
    wk = lax.reshape(lax.slice(w, (ph, k, q0), (ph + 1, k + 1, q1)), (q1 - q0,))
    product = lax.mul(lax.broadcast_in_dim(wk, v.shape, (axis,)), v)
    if term != "masked":
        return product
    keep = lax.broadcast_in_dim(lax.ne(wk, lax.full_like(wk, 0)), v.shape, (axis,))
    return lax.select(keep, product, lax.full_like(product, 0))


def _interleave(phases, axis: int):
    """``out[..., q * L + p, ...] = phases[p][..., q, ...]``: a stack and a reshape."""
    if len(phases) == 1:
        return phases[0]
    y = lax.concatenate([lax.expand_dims(p, (axis + 1,)) for p in phases], axis + 1)  # [..., count, L, ...]
    shape = phases[0].shape
    return lax.reshape(y, shape[:axis] + (shape[axis] * len(phases),) + shape[axis + 1 :])


def _segment(x, parts, dtype, chains: int):
    """Outputs of the periods ``q0 <= q < q1`` of every part ``(plan, w, axis, q0, q1)`` (one
    part per resampled axis), in ``dtype``.

    Each combination of one phase per part is a sum of terms, one per combination of taps: the
    strided read of ``x`` along every part's axis, converted inside the fused loop (integer input:
    no float copy), times each part's weight. The phases are then interleaved axis by axis.
    """

    def phase_sum(phs):
        terms = []
        taps = [[(k, t) for k, t in enumerate(plan.terms[ph]) if t is not None] for (plan, *_), ph in zip(parts, phs)]
        for combo in itertools.product(*taps):
            v = x
            for (plan, _, axis, q0, q1), ph, (k, _) in zip(parts, phs, combo):
                v = _strided(v, plan.start[ph] + k + q0 * plan.step, q1 - q0, plan, axis)
            v = lax.convert_element_type(v, dtype)
            for (_, w, axis, q0, q1), ph, (k, term) in zip(parts, phs, combo):
                v = _weighted(v, term, w, ph, k, axis, q0, q1, dtype)
            terms.append(v)
        if terms:
            return _banded.sum_terms(terms, chains)
        shape = list(x.shape)
        for _, _, axis, q0, q1 in parts:
            shape[axis] = q1 - q0
        return jnp.zeros(shape, dtype)

    def interleaved(phs):  # the phases of parts[len(phs):], interleaved
        if len(phs) == len(parts):
            return phase_sum(phs)
        plan, _, axis, _, _ = parts[len(phs)]
        return _interleave([interleaved(phs + (ph,)) for ph in range(plan.phases)], axis)

    return interleaved(())


def _bounds(plan: PolyphasePlan, in_size: int) -> list[tuple[int, int]]:
    """The non-empty period ranges before, inside and after :func:`interior`."""
    q_a, q_b = interior(plan, in_size)
    edges = (0, q_a, q_b, plan.periods)
    return [(q0, q1) for q0, q1 in zip(edges[:-1], edges[1:]) if q1 > q0]


def polyphase_nd(x, parts, dtype, chains: int):
    """Applies polyphase plans along several axes at once: ``parts`` are ``(plan, w, axis)``
    (distinct axes), every term reads ``x`` directly, and no intermediate array is formed.

    Each axis's periods are split as in :func:`polyphase` (edge, interior, edge) and the segments
    are concatenated, the outermost concatenation along the last axis (XLA's CPU loops run the
    other nesting several times slower: results/compile_time.md, issue 55).

    Args:
      x: array ``[..., in_a, ..., in_b, ...]`` (float, or integer read as it is).
      parts: ``(plan, w, axis)`` per resampled axis: a plan from :func:`polyphase_plan`, its
        ``[L, K, Q]`` weights in ``dtype`` (read only for per-period terms) and the axis.
      dtype: the compute and result dtype.
      chains: partial sums of the terms (:func:`.banded.sum_terms`).

    Returns:
      ``x`` with each part's ``in`` replaced by its ``plan.out_size``, in ``dtype``. A NaN or Inf
      reaches an output only where its weight is non-zero along every axis (each axis's weight is
      applied, and masked, in turn).
    """
    parts = sorted(parts, key=lambda part: -part[2])  # the last axis first: outermost

    def assembled(fixed):  # the segments of parts[len(fixed):], given those of parts[:len(fixed)]
        if len(fixed) == len(parts):
            return _segment(x, [(*part, *q) for part, q in zip(parts, fixed)], dtype, chains)
        plan, _, axis = parts[len(fixed)]
        pieces = [assembled(fixed + (q,)) for q in _bounds(plan, x.shape[axis])]
        return pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, axis)

    if any(plan.periods == 0 for plan, _, _ in parts):  # an empty output
        shape = list(x.shape)
        for plan, _, axis in parts:
            shape[axis] = plan.out_size
        return jnp.zeros(shape, dtype)
    return assembled(())


def polyphase(x, plan: PolyphasePlan, w, axis: int, dtype=None, *, chains: int):
    """Applies a polyphase plan along ``axis``.

    The periods whose every term reads inside the input (:func:`interior`) are computed from plain
    strided slices; the few periods at either end, whose terms also read the edge element or the
    zero extension, separately; the segments are concatenated (edge pieces concatenated into every
    term of the whole axis made XLA's CPU loops branch per element).

    Args:
      x: array ``[..., in, ...]`` (float, or integer read as it is).
      plan: from :func:`polyphase_plan`.
      w: ``[L, K, Q]`` weights in ``dtype`` (a constant or traced array); not read (may be
        empty) when ``plan.uses_weights`` is false.
      axis: the resampled axis.
      dtype: the compute and result dtype (default ``x``'s).
      chains: partial sums of the terms (:func:`.banded.sum_terms`).

    Returns:
      ``x`` with ``in`` replaced by ``plan.out_size``, in ``dtype``.
    """
    # out = L * (in / M) exactly (L / M is out / in reduced), so the periods tile the output
    return polyphase_nd(x, [(plan, w, axis)], np.dtype(dtype or x.dtype), chains)


@dataclasses.dataclass(frozen=True)
class Polyphase(Implementation):
    """:func:`polyphase` as a forward implementation of :class:`.primitive.LinearMap` (operand:
    the ``[L, K, Q]`` weights, or an empty array when every term is a scalar)."""

    plan: PolyphasePlan
    axis: int
    tuning: Tuning

    @property
    def axes(self) -> tuple[int, ...]:  # type: ignore[override]
        return (self.axis,)

    @property
    def decimation_terms(self) -> int | None:  # type: ignore[override]
        """The taps of a one-phase plan (integer decimation), else ``None``."""
        if self.plan.phases != 1:
            return None
        return sum(t is not None for t in self.plan.terms[0])

    def __call__(self, x, w):
        dtype = result_dtype(x.dtype, [w])  # integer x: the weights' float dtype
        return polyphase(x, self.plan, w.astype(dtype), self.axis, dtype, chains=self.tuning.sum_chains)

    def out_shape(self, shape, operands):
        return tuple(shape[: self.axis]) + (self.plan.out_size,) + tuple(shape[self.axis + 1 :])

    def shifted(self, n):
        return dataclasses.replace(self, axis=self.axis + n)
