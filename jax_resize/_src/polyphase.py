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
with plain jax ops; :class:`Polyphase` is the same map as a forward implementation of
:data:`.banded.linear_map_p`, so the derivative is the banded contraction with the transposed taps.

NaN/Inf locality: a term whose weight is zero in some period where it reads a real input is
masked (``where(w != 0, w * v, 0)``); terms zero in every period are dropped; zero weights that
read the zero extension need no mask.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import jax.numpy as jnp
import numpy as np
from jax import lax

from . import banded as _banded

#: Fewest phases ``L`` worth a plan: with ``L = 1`` (integer decimation) no input is shared
#: between phases and banded gathers measured faster (benchmarks/RESULTS.md, 2-core x86).
MIN_PHASES = 2
#: Most phases ``L`` a plan may have.
MAX_PHASES = 8
#: Most slice terms (phases x taps per phase) a plan may have; beyond it (e.g. 256 -> 224
#: antialiased: 7 phases x 3 taps) banded gathers measured faster.
MAX_TERMS = 16


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
    *,
    min_phases: int = MIN_PHASES,
    max_phases: int = MAX_PHASES,
    max_terms: int = MAX_TERMS,
    atol: float = 1e-12,
):
    """The polyphase form of constant taps, or ``None`` outside ``min_phases..max_phases`` phases
    or beyond ``max_terms`` terms.

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
    if not min_phases <= phases <= max_phases:
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


def _strided(x, first: int, plan: PolyphasePlan, axis: int):
    """``x`` at positions ``first + q * M`` (``q < Q``) along ``axis``, reading the edge element
    (or zero) outside ``[0, in)``: a strided slice with broadcast pieces concatenated at the ends
    (one reader each, so XLA fuses them into the sum instead of writing a padded copy of ``x``)."""
    n, step, periods = x.shape[axis], plan.step, plan.periods
    q_lo = min(periods, max(0, -(first // step)))  # first period reading position >= 0
    q_hi = max(q_lo, min(periods, -(-(n - first) // step)))  # first period reading position >= n
    pieces = []
    for count, edge_at in ((q_lo, 0), (None, 0), (periods - q_hi, n - 1)):
        if count is None:
            if q_hi > q_lo:
                begin = first + q_lo * step
                pieces.append(lax.slice_in_dim(x, begin, begin + (q_hi - q_lo - 1) * step + 1, step, axis=axis))
        elif count:
            shape = x.shape[:axis] + (count,) + x.shape[axis + 1 :]
            if plan.edge:
                pieces.append(jnp.broadcast_to(lax.slice_in_dim(x, edge_at, edge_at + 1, axis=axis), shape))
            else:
                pieces.append(jnp.zeros(shape, x.dtype))
    return pieces[0] if len(pieces) == 1 else jnp.concatenate(pieces, axis=axis)


def polyphase(x, plan: PolyphasePlan, w, axis: int):
    """Applies a polyphase plan along ``axis``.

    Args:
      x: array ``[..., in, ...]`` (float).
      plan: from :func:`polyphase_plan`.
      w: ``[L, K, Q]`` weights in ``x``'s dtype (a constant or traced array); not read (may be
        empty) when ``plan.uses_weights`` is false.
      axis: the resampled axis.

    Returns:
      ``x`` with ``in`` replaced by ``plan.out_size``, in ``x``'s dtype.
    """
    shape = [1] * x.ndim
    shape[axis] = plan.periods
    phases = []
    for ph, row in enumerate(plan.terms):
        acc = None
        for k, term in enumerate(row):
            if term is None:
                continue
            v = _strided(x, plan.start[ph] + k, plan, axis)  # [..., Q, ...]
            if isinstance(term, float):
                t = v if term == 1.0 else v * jnp.asarray(term, x.dtype)
            else:
                wk = w[ph, k].reshape(shape)
                t = jnp.where(wk != 0, wk * v, 0) if term == "masked" else wk * v
            acc = t if acc is None else acc + t
        if acc is None:
            acc = jnp.zeros(x.shape[:axis] + (plan.periods,) + x.shape[axis + 1 :], x.dtype)
        phases.append(acc)
    y = jnp.stack(phases, axis=axis + 1)  # [..., Q, L, ...]
    # out = L * (in / M) exactly (L / M is out / in reduced), so the periods tile the output
    return y.reshape(x.shape[:axis] + (plan.out_size,) + x.shape[axis + 1 :])


@dataclasses.dataclass(frozen=True)
class Polyphase(_banded.Implementation):
    """:func:`polyphase` as a forward implementation of :data:`.banded.linear_map_p` (operand:
    the ``[L, K, Q]`` weights, or an empty array when every term is a scalar)."""

    plan: PolyphasePlan
    axis: int

    def __call__(self, x, w):
        return polyphase(x, self.plan, w.astype(x.dtype), self.axis)

    def out_shape(self, shape, operands):
        return tuple(shape[: self.axis]) + (self.plan.out_size,) + tuple(shape[self.axis + 1 :])

    def shifted(self, n):
        return Polyphase(self.plan, self.axis + n)
