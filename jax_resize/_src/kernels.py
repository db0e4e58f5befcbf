"""Resampling filters (1-D kernels) with their support radius, registered by name.

Contract: a :class:`Kernel` maps a *signed* distance ``d = tap - x_original`` (in input pixels) and
the antialias ``stretch`` (>= 1) to a weight, and is exactly zero for ``|d| >= kernel.support(stretch)``
(the box filter is non-zero on ``(-0.5, 0.5]``, half-open). ``xp`` is the array namespace (numpy on
the host, jax.numpy for traced coordinates). :data:`KERNELS` holds the fixed kernels by name;
parametrised families (:func:`keys_cubic`, :func:`lanczos`) are built on demand. Front ends register
kernels with their own evaluation order (:func:`register`).

Sources:
  * triangle: linear interpolation.
  * Keys cubic convolution, R. G. Keys, "Cubic convolution interpolation for digital image
    processing", IEEE Trans. ASSP 29(6), 1981, eq. (4) with free parameter ``a`` (ONNX
    ``cubic_coeff_a``; -0.5 and -0.75 are the common choices).
  * Lanczos: windowed sinc, ``sinc(d) * sinc(d / a)`` (Duchon 1979), evaluated as
    ``a sin(pi d) sin(pi d / a) / (pi d)**2``.
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
        return profile(xp, d if stretch == 1.0 else d / stretch)

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
