"""Resampling filters (1-D kernels) with their support radius, registered by name.

Contract: a :class:`Kernel` maps a *signed* distance ``d = tap - x_original`` (in input pixels) and
the antialias ``stretch`` (>= 1) to a weight, and is exactly zero for ``|d| >= kernel.support(stretch)``
(the box filter is non-zero on ``(-0.5, 0.5]``, half-open). ``xp`` is the array namespace (numpy on
the host, jax.numpy for traced coordinates). :data:`KERNELS` holds the fixed kernels by name;
parametrised families (:func:`keys_cubic`, :func:`lanczos`, :func:`gaussian`,
:func:`mitchell_netravali`) are built on demand. Front ends register
kernels with their own evaluation order (:func:`register`).

Sources:
  * triangle: linear interpolation.
  * Keys cubic convolution, R. G. Keys, "Cubic convolution interpolation for digital image
    processing", IEEE Trans. ASSP 29(6), 1981, eq. (4) with free parameter ``a`` (ONNX
    ``cubic_coeff_a``; -0.5 and -0.75 are the common choices).
  * Lanczos: windowed sinc, ``sinc(d) * sinc(d / a)`` (Duchon 1979), evaluated as
    ``a sin(pi d) sin(pi d / a) / (pi d)**2``.
  * Gaussian: ``exp(-d**2 / (2 sigma**2))`` cut off at a radius; the registered ``gaussian`` is
    K. Turkowski's choice for a 3-pixel support, "Filters for common resampling tasks" (Graphics
    Gems, 1990): sigma = 0.5, radius 1.5 (= 3 sigma).
  * Mitchell-Netravali cubic, D. P. Mitchell and A. N. Netravali, "Reconstruction filters in
    computer graphics", SIGGRAPH 1988, eq. (8) with parameters ``B``, ``C``; the registered
    ``mitchell`` is their recommended ``B = C = 1/3`` (not interpolating: ``k(0) = 8/9``).
  * box: nearest-neighbour averaging.
  * area: exact overlap of the output pixel's footprint with each input pixel; it depends on the
    footprint width, so it takes the stretch itself (its support is ``(stretch + 1) / 2``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any


@dataclasses.dataclass(frozen=True)
class Kernel:
    """A 1-D resampling filter.

    Attributes:
      name: registry name.
      radius: support radius at stretch 1, in input pixels.
      fn: ``fn(xp, d, stretch) -> weights`` for signed distances ``d`` (in input pixels).
      support_fn: ``support_fn(stretch)``, the half-width of the non-zero region; default
        ``radius * stretch`` (a kernel whose shape scales with the stretch).
    """

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


#: Registry of fixed kernels, by name.
KERNELS: dict[str, Kernel] = {}


def register(kernel: Kernel) -> Kernel:
    """Adds ``kernel`` to :data:`KERNELS` under ``kernel.name`` and returns it."""
    KERNELS[kernel.name] = kernel
    return kernel


def _scaled(profile: Callable) -> Callable:
    """Kernels whose shape scales with the stretch: ``k(d / stretch)``."""

    def fn(xp, d, stretch):
        unit = isinstance(stretch, (int, float)) and stretch == 1.0  # a traced stretch divides
        return profile(xp, d if unit else d / stretch)

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

    return Kernel(f"cubic(a={a})", 2.0, _scaled(profile))


def lanczos(a: int) -> Kernel:
    """Lanczos kernel of radius ``a``: ``sinc(d) sinc(d / a)``; 1 for ``|d| <= 1e-3``."""

    def profile(xp, d):
        x = xp.abs(d)
        y = a * xp.sin(math.pi * x) * xp.sin(math.pi * x / a)
        safe = xp.where(x != 0, math.pi**2 * x * x, 1.0)
        out = xp.where(x > 1e-3, y / safe, 1.0)
        return xp.where(x > a, 0.0, out)

    return Kernel(f"lanczos{a}", float(a), _scaled(profile))


def gaussian(sigma: float, radius: float | None = None, name: str | None = None) -> Kernel:
    """Gaussian ``exp(-d**2 / (2 sigma**2))`` for ``|d| < radius`` (default ``3 sigma``), else 0."""
    radius = 3.0 * sigma if radius is None else float(radius)
    denominator = 2.0 * sigma * sigma

    def profile(xp, d):
        x = xp.abs(d)
        return xp.where(x < radius, xp.exp(-(x * x) / denominator), 0.0)

    return Kernel(name or f"gaussian(sigma={sigma}, radius={radius})", radius, _scaled(profile))


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

    return Kernel(name or f"mitchell_netravali(b={b}, c={c})", 2.0, _scaled(profile))


def _box(xp, d):
    return xp.where((d > -0.5) & (d <= 0.5), 1.0, 0.0)


def _area(xp, d, stretch):
    # Overlap of the output footprint [x + 0.5 - w/2, x + 0.5 + w/2] (w = stretch = 1/scale) with
    # the input pixel [t, t + 1], written in d = t - x.
    half = stretch / 2.0
    return xp.maximum(0.0, xp.minimum(half, d + 0.5) - xp.maximum(-half, d - 0.5))


TRIANGLE = register(Kernel("triangle", 1.0, _scaled(_triangle)))
BOX = register(Kernel("box", 0.5, _scaled(_box)))
AREA = register(Kernel("area", 0.5, _area, support_fn=lambda stretch: (stretch + 1.0) / 2.0))
GAUSSIAN = register(gaussian(0.5, 1.5, name="gaussian"))
MITCHELL = register(mitchell_netravali(1.0 / 3.0, 1.0 / 3.0, name="mitchell"))
