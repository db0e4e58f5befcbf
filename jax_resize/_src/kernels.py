"""Resampling filters (1-D kernels) with their support radius.

A :class:`Kernel` maps a signed distance ``d = tap - x_original`` (input pixels) and the antialias
``stretch`` (>= 1) to a weight, exactly zero for ``|d| >= kernel.support(stretch)`` (box: non-zero on
``(-0.5, 0.5]``); ``xp`` is numpy on the host, jax.numpy for traced coordinates. Peers build
kernels in their own evaluation order with :func:`scaled`.

Sources: R. G. Keys, "Cubic convolution interpolation for digital image processing", IEEE Trans.
ASSP 29(6), 1981, eq. (4) (``a``: ONNX ``cubic_coeff_a``); Lanczos: ``sinc(d) sinc(d / a)``
(Duchon 1979); :data:`GAUSSIAN`: K. Turkowski, "Filters for common resampling tasks", Graphics
Gems 1990 (sigma 0.5, radius 1.5); D. P. Mitchell and A. N. Netravali, "Reconstruction filters in
computer graphics", SIGGRAPH 1988, eq. (8) (:data:`MITCHELL`: their ``B = C = 1/3``, ``k(0) =
8/9``); area: the exact overlap of the output footprint with each input pixel, so it takes the
stretch itself (support ``(stretch + 1) / 2``); :data:`MKS2013`, :data:`MKS2021`: J. P. Costella,
"Magic Kernel Sharp" (johncostella.com/magic, and "Solving the mystery of Magic Kernel Sharp",
2021), the piecewise quadratics as written there.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class Kernel:
    """A 1-D filter ``fn(xp, d, stretch) -> weights`` of signed distances ``d`` (input pixels);
    ``radius``: the support at stretch 1; ``support_fn(stretch)``: the half-width of the non-zero
    region (default ``radius * stretch``); ``name``: for error messages."""

    name: str
    radius: float
    fn: Callable[..., Any]
    support_fn: Callable[[float], float] | None = None

    def support(self, stretch: float) -> float:
        """Half-width of the non-zero region in input pixels for a given stretch (>= 1)."""
        if self.support_fn is not None:
            return self.support_fn(stretch)
        return self.radius * stretch

    def __call__(self, xp, d, stretch: float = 1.0):
        return self.fn(xp, d, stretch)


def stretch(inv, *, xp=None, one=1.0):
    """The antialias stretch ``max(1, inv)``, ``inv = 1 / scale``. Host scalars keep their type
    (``one``: 1 in the caller's float type); a traced ``inv`` needs ``xp=jax.numpy``."""
    return max(one, inv) if xp is None else xp.maximum(one, inv)


def scaled(profile: Callable, dtype=None) -> Callable:
    """``fn(xp, d, stretch) = profile(xp, d / stretch)`` (a Python-number stretch of 1 leaves ``d``
    as it is); ``dtype``: a peer's host float type, ``d`` converted to it and divided by
    ``dtype(stretch)``."""

    def fn(xp, d, stretch):
        if dtype is not None:
            d = np.asarray(d, dtype)
        unit = isinstance(stretch, (int, float)) and stretch == 1.0  # a traced stretch divides
        return profile(xp, d if unit else d / (stretch if dtype is None else dtype(stretch)))

    return fn


def _triangle(xp, d):
    return xp.clip(1.0 - xp.abs(d), 0.0, 1.0)


def keys_cubic(a: float) -> Kernel:
    """Keys (1981) cubic convolution kernel with parameter ``a``; radius 2."""

    def profile(xp, d):
        x = xp.abs(d)
        near = ((a + 2) * x - (a + 3)) * x * x + 1  # |d| <= 1
        far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a  # 1 < |d| < 2
        return xp.where(x <= 1, near, xp.where(x < 2, far, 0.0))

    return Kernel(f"cubic(a={a})", 2.0, scaled(profile))


def lanczos(a: int) -> Kernel:
    """Lanczos kernel of radius ``a``: ``sinc(d) sinc(d / a)``; 1 for ``|d| <= 1e-3``."""

    def profile(xp, d):
        x = xp.abs(d)
        y = a * xp.sin(math.pi * x) * xp.sin(math.pi * x / a)
        safe = xp.where(x != 0, math.pi**2 * x * x, 1.0)
        out = xp.where(x > 1e-3, y / safe, 1.0)
        return xp.where(x > a, 0.0, out)

    return Kernel(f"lanczos{a}", float(a), scaled(profile))


def keys_cubic_factored(a: float) -> Kernel:
    """Keys' cubic (radius 2) with ``a`` factored out of the outer piece: ``(((x - 5) x + 8) x - 4)
    a`` for ``1 <= |d| < 2``, ``((a + 2) x - (a + 3)) x x + 1`` for ``|d| < 1`` (a C loop's
    order; :func:`keys_cubic` multiplies each term by ``a`` and rounds otherwise)."""

    def profile(xp, d):
        x = xp.abs(d)
        near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1
        far = (((x - 5) * x + 8) * x - 4) * a
        return xp.where(x < 1.0, near, xp.where(x < 2.0, far, 0.0))

    return Kernel(f"keys_cubic_factored(a={a})", 2.0, scaled(profile))


def _sinc(xp, x):
    px = x * math.pi
    safe = xp.where(x == 0, 1.0, px)
    return xp.where(x == 0, 1.0, xp.sin(safe) / safe)


def lanczos_sinc_product(a: int) -> Kernel:
    """Lanczos of radius ``a`` as the product ``sinc(d) * sinc(d / a)`` of two ``sin(pi x) / (pi x)``
    on the half-open ``[-a, a)`` (:func:`lanczos` evaluates one quotient and rounds otherwise)."""

    def profile(xp, d):
        return xp.where((d >= -a) & (d < a), _sinc(xp, d) * _sinc(xp, d / a), 0.0)

    return Kernel(f"lanczos{a}_sinc_product", float(a), scaled(profile))


def gaussian(sigma: float, radius: float | None = None, name: str | None = None) -> Kernel:
    """Gaussian ``exp(-d**2 / (2 sigma**2))`` for ``|d| < radius`` (default ``3 sigma``), else 0."""
    radius = 3.0 * sigma if radius is None else float(radius)
    denominator = 2.0 * sigma * sigma

    def profile(xp, d):
        x = xp.abs(d)
        return xp.where(x < radius, xp.exp(-(x * x) / denominator), 0.0)

    return Kernel(name or f"gaussian(sigma={sigma}, radius={radius})", radius, scaled(profile))


def mitchell_netravali(b: float, c: float, name: str | None = None) -> Kernel:
    """Mitchell-Netravali (1988) cubic with parameters ``B``, ``C``; radius 2.

    ``6 k(x) = (12 - 9B - 6C)|x|^3 + (-18 + 12B + 6C)|x|^2 + (6 - 2B)`` for ``|x| < 1`` and
    ``(-B - 6C)|x|^3 + (6B + 30C)|x|^2 + (-12B - 48C)|x| + (8B + 24C)`` for ``1 <= |x| < 2``,
    evaluated in Horner form. ``B = 0`` gives Keys' kernel with ``a = -C``.
    """
    p3, p2, p0 = (12 - 9 * b - 6 * c) / 6, (-18 + 12 * b + 6 * c) / 6, (6 - 2 * b) / 6
    q3, q2, q1, q0 = (-b - 6 * c) / 6, (6 * b + 30 * c) / 6, (-12 * b - 48 * c) / 6, (8 * b + 24 * c) / 6

    def profile(xp, d):
        x = xp.abs(d)
        near = ((p3 * x + p2) * x) * x + p0  # |x| < 1
        far = ((q3 * x + q2) * x + q1) * x + q0  # 1 <= |x| < 2
        return xp.where(x < 1, near, xp.where(x < 2, far, 0.0))

    return Kernel(name or f"mitchell_netravali(b={b}, c={c})", 2.0, scaled(profile))


def _box(xp, d):
    return xp.where((d > -0.5) & (d <= 0.5), 1.0, 0.0)


def _area(xp, d, stretch):
    # Overlap of the output footprint [x + 0.5 - w/2, x + 0.5 + w/2] (w = stretch = 1/scale) with
    # the input pixel [t, t + 1], written in d = t - x.
    half = stretch / 2.0
    return xp.maximum(0.0, xp.minimum(half, d + 0.5) - xp.maximum(-half, d - 0.5))


def _mks2013(xp, d):
    # Costella's pieces as he writes them, each on [lo, hi) of |d| (the upper one at a breakpoint),
    # in his order of operations: a peer that evaluates them so in double gets these bits
    x = xp.abs(d)
    return xp.where(
        x < 0.5,
        17.0 / 16.0 - 7.0 / 4.0 * (x * x),
        xp.where(x < 1.5, (1.0 - x) * (7.0 / 4.0 - x), xp.where(x < 2.5, -1.0 / 8.0 * ((x - 2.5) * (x - 2.5)), 0.0)),
    )


def _mks2021(xp, d):
    # as _mks2013: Costella's five pieces, each constant a double quotient, products left to right
    x = xp.abs(d)
    pieces = [
        (0.5, 577.0 / 576.0 - 239.0 / 144.0 * (x * x)),
        (1.5, 35.0 / 36.0 * (x - 1.0) * (x - 239.0 / 140.0)),
        (2.5, 1.0 / 6.0 * (x - 2.0) * (65.0 / 24.0 - x)),
        (3.5, 1.0 / 36.0 * (x - 3.0) * (x - 15.0 / 4.0)),
        (4.5, -1.0 / 288.0 * ((x - 4.5) * (x - 4.5))),
    ]
    out = 0.0
    for edge, value in reversed(pieces):
        out = xp.where(x < edge, value, out)
    return out


TRIANGLE = Kernel("triangle", 1.0, scaled(_triangle))
BOX = Kernel("box", 0.5, scaled(_box))
AREA = Kernel("area", 0.5, _area, support_fn=lambda stretch: (stretch + 1.0) / 2.0)
GAUSSIAN = gaussian(0.5, 1.5, name="gaussian")
MITCHELL = mitchell_netravali(1.0 / 3.0, 1.0 / 3.0, name="mitchell")
#: Magic Kernel Sharp 2013 (radius 2.5) and 2021 (radius 4.5), Costella's piecewise quadratics.
MKS2013 = Kernel("mks2013", 2.5, scaled(_mks2013))
MKS2021 = Kernel("mks2021", 4.5, scaled(_mks2021))
#: Lanczos-3 as a sinc product (:func:`lanczos_sinc_product`), one object for every user.
LANCZOS3_SINC_PRODUCT = lanczos_sinc_product(3)
