"""Resampling filters (1-D kernels) with their support radius.

Contract: a :class:`Kernel` maps a *signed* distance ``d = (tap - x_original) / stretch`` (in input
pixels, divided by the antialias stretch) to a weight, and is exactly zero for ``|d| >= radius``
(the box filter is non-zero on ``(-0.5, 0.5]``, half-open as in Pillow). ``xp`` is the array
namespace (numpy on the host, jax.numpy for traced coordinates).

Sources:
  * triangle: linear interpolation (ONNX ``linear``, jax.image ``linear``).
  * Keys cubic convolution, R. G. Keys, "Cubic convolution interpolation for digital image
    processing", IEEE Trans. ASSP 29(6), 1981, eq. (4) with free parameter ``a`` (ONNX
    ``cubic_coeff_a``, OpenVINO ``cube_coeff``; -0.5 in jax.image/Pillow, -0.75 in PyTorch/OpenCV).
  * Lanczos: windowed sinc, ``sinc(d) * sinc(d / a)`` (Duchon 1979), as in jax.image.
  * box: nearest-neighbour averaging (Pillow ``BOX``).
  * Pillow's HAMMING (``sinc(d) (0.54 + 0.46 cos(pi d))``, |d| < 1), BICUBIC and LANCZOS
    (``sinc(d) sinc(d / 3)`` on ``[-3, 3)``) in Pillow's evaluation order (``Resample.c``), for
    ``weights.pillow_taps``.
  * area: exact overlap of the output pixel's footprint with each input pixel (TensorFlow /
    jax.image ``area``); it depends on the footprint width, so it takes the stretch itself.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Kernel:
    """A 1-D resampling filter.

    Attributes:
      name: registry name.
      radius: support radius at stretch 1, in input pixels.
      fn: ``fn(xp, d, stretch) -> weights`` for signed distances ``d`` (in input pixels).
    """

    name: str
    radius: float
    fn: Callable

    def support(self, stretch: float) -> float:
        """Half-width of the non-zero region in input pixels for a given stretch (>= 1)."""
        if self.name == "area":
            return (stretch + 1.0) / 2.0
        return self.radius * stretch

    def __call__(self, xp, d, stretch: float = 1.0):
        return self.fn(xp, d, stretch)


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
    """Lanczos kernel of radius ``a``: ``sinc(d) sinc(d / a)`` (jax.image's evaluation)."""

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


TRIANGLE = Kernel("triangle", 1.0, _scaled(_triangle))
BOX = Kernel("box", 0.5, _scaled(_box))
AREA = Kernel("area", 0.5, _area)


# --- Pillow's filters (``PIL.Image.Resampling``), in Pillow's own evaluation order --------------
# Pillow evaluates its filters on ``d = (tap - center + 0.5) * (1 / filterscale)`` (already
# scaled), so these are used with stretch 1 by ``weights.pillow_taps``. BOX (support 0.5) and
# BILINEAR (``TRIANGLE``, support 1) are the kernels above.


def _pil_hamming(xp, d):
    # sinc(x) * (0.54 + 0.46 cos(pi x)) on |x| < 1; Pillow writes 0.54 and 0.46 as C float
    # literals, i.e. their float32 values.
    x = xp.abs(d)
    px = x * math.pi
    safe = xp.where(x == 0, 1.0, px)
    w = xp.sin(safe) / safe * (float(np.float32(0.54)) + float(np.float32(0.46)) * xp.cos(safe))
    return xp.where(x == 0, 1.0, xp.where(x >= 1.0, 0.0, w))


def pillow_bicubic(a: float = -0.5) -> Kernel:
    """Keys cubic in Pillow's evaluation order (``a = -0.5`` in Pillow; OpenVINO's ``cube_coeff``)."""

    def profile(xp, d):
        x = xp.abs(d)
        near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1
        far = (((x - 5) * x + 8) * x - 4) * a
        return xp.where(x < 1.0, near, xp.where(x < 2.0, far, 0.0))

    return Kernel(f"pil_bicubic(a={a})", 2.0, _scaled(profile))


def _pil_sinc(xp, x):
    px = x * math.pi
    safe = xp.where(x == 0, 1.0, px)
    return xp.where(x == 0, 1.0, xp.sin(safe) / safe)


def _pil_lanczos(xp, d):
    # Pillow's LANCZOS: sinc(x) * sinc(x / 3) on the half-open interval [-3, 3).
    return xp.where((d >= -3.0) & (d < 3.0), _pil_sinc(xp, d) * _pil_sinc(xp, d / 3), 0.0)


PIL_HAMMING = Kernel("pil_hamming", 1.0, _scaled(_pil_hamming))
PIL_LANCZOS = Kernel("pil_lanczos", 3.0, _scaled(_pil_lanczos))
