"""Layer 2 — weights: input coordinates + filter -> one axis's record (:mod:`.records`).

Contract: for one axis, given coordinates ``x_original`` (``[out_size]``, from :mod:`.coordinates`),
:func:`nearest_indices` gives a :class:`~.records.Gather`'s indices and :func:`filter_taps` a
:class:`~.records.Taps` (host: int32 index, float64 weight, packed into the narrowest band by
:mod:`.band_taps`).

Registries:

* :data:`NEAREST_RULES` — rounding of a coordinate to a source index (``round_prefer_floor``,
  ``round_prefer_ceil``, ``floor``, ``ceil``, ``trunc``), used by :func:`nearest_indices`;
* :data:`BOUNDARIES` — what happens to taps outside ``[0, in_size)``: ``"clamp"`` (repeat the
  edge pixel), ``"exclude"`` (drop them and renormalise the row; a row left with no weight reads
  the edge pixel, as ``"clamp"``), ``"zero"`` (drop them: the input is zero-extended).

Windows (:func:`window_weights`, the reference for every ``xp``): the kernel on the integers
``ceil(x) + arange(-half, half)``, rows normalised, then the boundary policy; ``half =
floor(support) + 1`` holds ``[x - support, x + support]`` (ties prefer the left pixel, as
``onnx.reference``). With numpy inputs (float64, as the ONNX reference) :func:`filter_taps` hands
it to the host's fast paths (:mod:`.band_taps`); with ``xp=jax.numpy`` the window is the record.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import band_taps as _band_taps
from . import coordinates as _coordinates
from . import kernels as _kernels
from . import records as _records

# --- nearest ---------------------------------------------------------------------------------------

#: Registry of rounding rules, ``rule(xp, x) -> float indices`` (before clamping).
NEAREST_RULES: dict[str, Callable[[Any, Any], Any]] = {}


def register_nearest_rule(name: str):
    """Decorator: registers ``fn(xp, x)`` as the nearest rounding rule ``name``."""

    def wrap(fn):
        NEAREST_RULES[name] = fn
        return fn

    return wrap


@register_nearest_rule("round_prefer_floor")
def _round_prefer_floor(xp, x):
    xf = xp.floor(x)
    return xf + ((x - xf) > 0.5)


@register_nearest_rule("round_prefer_ceil")
def _round_prefer_ceil(xp, x):
    xf = xp.floor(x)
    return xf + ((x - xf) >= 0.5)


@register_nearest_rule("floor")
def _floor(xp, x):
    return xp.floor(x)


@register_nearest_rule("ceil")
def _ceil(xp, x):
    xf = xp.floor(x)
    return xf + ((x - xf) > 0)


@register_nearest_rule("trunc")
def _trunc(xp, x):
    return xp.trunc(x)


def nearest_indices(x, in_size: int, rule: str, *, xp=np):
    """Source index per output: ``clip(rule(x), 0, in_size - 1)``.

    Args:
      x: ``[out]`` input coordinates.
      in_size: input length.
      rule: a name in :data:`NEAREST_RULES`.

    Returns:
      ``[out]`` integer indices (int64 numpy, or int32 traced). An integer ``x`` maps to itself.

    Raises:
      ValueError: an unknown rule.
    """
    fn = NEAREST_RULES.get(rule)
    if fn is None:
        raise ValueError(f"nearest rule {rule!r} is not registered; known: {', '.join(map(repr, NEAREST_RULES))}.")
    idx = fn(xp, x)
    return xp.clip(idx, 0, max(in_size - 1, 0)).astype(np.int32 if xp is not np else np.int64)


# --- boundaries ------------------------------------------------------------------------------------

#: Registry of boundary policies, ``policy(xp, taps, w, in_size) -> w`` for tap positions ``taps``
#: (float or int, ``[out, n]``) and weights ``w``; the positions are clamped to the input afterwards.
BOUNDARIES: dict[str, Callable[..., Any]] = {}


def register_boundary(name: str):
    """Decorator: registers ``fn(xp, taps, w, in_size) -> w`` as the boundary policy ``name``."""

    def wrap(fn):
        BOUNDARIES[name] = fn
        return fn

    return wrap


def _normalize_rows(xp, w):
    total = w.sum(axis=1, keepdims=True)
    return w / xp.where(total == 0, 1.0, total)


@register_boundary("clamp")
def _clamp(xp, taps, w, in_size):
    return w  # outside taps read the edge pixel once their positions are clamped


@register_boundary("exclude")
def _exclude(xp, taps, w, in_size):
    kept = xp.where((taps >= 0) & (taps <= in_size - 1), w, 0.0)
    # a row whose weight lies wholly outside the image (an area footprint narrower than a pixel,
    # past the edge) reads the edge pixel, as under "clamp", rather than becoming a row of zeros
    lost = xp.all(kept == 0, axis=1, keepdims=True)
    return _normalize_rows(xp, xp.where(lost, w, kept))


@register_boundary("zero")
def _zero(xp, taps, w, in_size):
    return xp.where((taps >= 0) & (taps <= in_size - 1), w, 0.0)


def _boundary(name: str):
    fn = BOUNDARIES.get(name)
    if fn is None:
        raise ValueError(f"boundary {name!r} is not registered; known: {', '.join(map(repr, BOUNDARIES))}.")
    return fn


# --- filters ---------------------------------------------------------------------------------------


def filter_taps(
    x,
    in_size: int,
    kernel: _kernels.Kernel,
    *,
    stretch=1.0,
    boundary: str = "clamp",
    normalize: bool = False,
    xp=np,
    max_stretch: float | None = None,
    valid=None,
):
    """Taps of a filter sampled at coordinates ``x``.

    Args:
      x: ``[out]`` input coordinates (float64 numpy on the host, or a jax array), or a
        :class:`~.coordinates.Rational` (integer numerators over one denominator: the window
        and the distances ``tap - x`` are then computed exactly and rounded once).
      in_size: input length (> 0), static: the length of the array axis.
      kernel: the filter, evaluated as ``kernel(xp, tap - x, stretch)``.
      stretch: antialias stretch ``max(1, 1 / scale)`` (1 for plain interpolation); may be a
        traced scalar when ``max_stretch`` bounds it.
      boundary: a name in :data:`BOUNDARIES` (``"clamp"``, ``"exclude"``, ``"zero"``).
      normalize: divide each row by the sum of its window's weights (before the boundary).
      max_stretch: static upper bound of a traced ``stretch``; the window (taps per output,
        ``2 * (floor(kernel.support(max_stretch)) + 1)``) is sized from it. Default: ``stretch``.
      valid: the valid length of the axis (``<= in_size``; may be traced): positions from
        ``valid`` on are outside the image (a zero-padded example). Default ``in_size``.

    Returns:
      :class:`~.records.Taps` with ``index`` int32 in ``[0, valid)``: :func:`window_weights`' window,
      its positions clamped (indices may repeat); on the host (numpy, every position valid) packed
      into its narrowest band by :func:`.band_taps.band_taps`.

    Raises:
      ValueError: an unknown boundary; on the host, more weights than the output limit.
    """
    _boundary(boundary)
    support = kernel.support(stretch if max_stretch is None else max_stretch)
    valid = in_size if valid is None else valid
    weigh = functools.partial(
        window_weights, kernel=kernel, stretch=stretch, boundary=boundary, normalize=normalize, valid=valid, xp=xp
    )
    if xp is np and isinstance(valid, int) and valid == in_size:  # the host's fast paths
        return _band_taps.band_taps(
            x, in_size, kernel, stretch=stretch, support=support, boundary=boundary, weigh=weigh
        )
    # no slack (every tap is work on the device): [x - support, x + support] lies in this window
    taps, w = weigh(x, int(math.floor(support)) + 1)
    return _records.Taps(xp.clip(taps, 0, valid - 1).astype(np.int32), w, in_size)


def window_weights(x, half: int, *, kernel: _kernels.Kernel, stretch, boundary: str, normalize: bool, valid, xp=np):
    """The weight builder: ``(taps, w)``, both ``[out, 2 * half]``: output ``o``'s window
    ``ceil(x[o]) + arange(-half, half)`` (unclamped; integers for a Rational, else floats) and
    ``kernel(xp, tap - x[o], stretch)`` (exact, then rounded once, for a Rational), each row
    divided by its sum when ``normalize``, then the ``boundary`` policy for ``valid`` positions."""
    offsets = xp.arange(-half, half)
    if isinstance(x, _coordinates.Rational):  # the window and the distances exact, rounded once
        taps = (-((-x.num) // x.den))[:, None] + offsets[None, :]
        den = x.den if isinstance(x.den, int) else xp.asarray(x.den).astype(x.dtype)
        d = (taps * x.den - x.num[:, None]).astype(x.dtype) / den
    else:
        taps = xp.ceil(x)[:, None] + offsets[None, :]
        d = taps - x[:, None]
    w = kernel(xp, d, stretch)
    if normalize:
        w = _normalize_rows(xp, w)
    return taps, _boundary(boundary)(xp, taps, w, valid)


def clamped_linear_taps(x, in_size: int) -> _records.Taps:
    """2-tap linear interpolation at ``x`` clamped to ``[0, in_size - 1]`` (edge pixels repeated):
    ``i = floor(x)``, weights ``(1 - (x - i), x - i)`` on ``(i, i + 1)``."""
    x = np.clip(np.asarray(x, np.float64), 0.0, float(max(in_size - 1, 0)))
    return filter_taps(x, in_size, _kernels.TRIANGLE)
