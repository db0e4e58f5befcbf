"""Layer 1 — coordinates: output index -> input coordinate, one axis at a time.

Contract: a *coordinate rule* maps the output indices ``y = 0..out_size-1`` of one axis to input
coordinates ``x_original`` (``[out_size]``; float64 when computed on the host with numpy), where
input pixel ``j`` has its centre at ``x = j``. Rules are registered by name in
:data:`COORDINATE_RULES`; :func:`source_coordinates` evaluates one. Every rule takes an array
namespace ``xp`` (``numpy`` for static values, ``jax.numpy`` when the geometry is traced) so one
definition serves both paths.

``scale`` is the per-axis scale the operator uses (given, or ``out / in``); ``length_resized``
below is ``scale * in_size`` as a float (it differs from ``out_size`` when ``scale * in_size`` is
not an integer). The formulas follow the ONNX Resize spec (``coordinate_transformation_mode``,
opsets 10-19), evaluated in the order of ``onnx.reference`` so that ``floor`` and rounding ties
agree bit for bit; front ends map their own mode names onto these rules.

Also here: :func:`fused_multiply_add`, for rules that some implementations evaluate with one
rounding (``a * b + c`` as a hardware FMA).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class CoordinateRule:
    """A named coordinate rule.

    Attributes:
      name: registry name.
      fn: ``fn(xp, y, in_size, out_size, scale, roi) -> x`` for output indices ``y`` (float).
      uses_roi: whether the rule reads ``roi = (start, end)`` (normalised input coordinates); such
        rules also report which outputs leave the input (:func:`source_coordinates`).
    """

    name: str
    fn: Callable[..., Any]
    uses_roi: bool = False


#: Registry of coordinate rules, by name.
COORDINATE_RULES: dict[str, CoordinateRule] = {}


def register(name: str, *, uses_roi: bool = False):
    """Decorator: registers ``fn(xp, y, in_size, out_size, scale, roi)`` as the rule ``name``."""

    def wrap(fn):
        COORDINATE_RULES[name] = CoordinateRule(name, fn, uses_roi)
        return fn

    return wrap


@register("half_pixel")
def _half_pixel(xp, y, in_size, out_size, scale, roi):
    return (y + 0.5) / scale - 0.5


@register("half_pixel_symmetric")
def _half_pixel_symmetric(xp, y, in_size, out_size, scale, roi):
    # The centre of the implicit ROI maps to the centre of the output canvas (ONNX opset 19).
    adjustment = out_size / (scale * in_size)
    offset = (in_size / 2) * (1 - adjustment)
    return offset + (y + 0.5) / scale - 0.5


@register("half_pixel_single_zero")
def _half_pixel_single_zero(xp, y, in_size, out_size, scale, roi):
    # half_pixel, except that a length-1 output samples x = 0 (the spec's "length_resized > 1 ?"
    # rule; onnx.reference uses -0.5 there, onnx issue 4275, onnxruntime follows the spec).
    return (y + 0.5) / scale - 0.5 if out_size > 1 else y * 0.0


@register("align_corners")
def _align_corners(xp, y, in_size, out_size, scale, roi):
    length_resized = scale * in_size
    return y * 0.0 if length_resized == 1 else y * (in_size - 1) / (length_resized - 1)


@register("asymmetric")
def _asymmetric(xp, y, in_size, out_size, scale, roi):
    return y / scale


@register("half_pixel_unshifted")
def _half_pixel_unshifted(xp, y, in_size, out_size, scale, roi):
    # The output pixel's centre scaled, without the -0.5 shift back to centre coordinates.
    return (y + 0.5) / scale


@register("crop", uses_roi=True)
def _crop(xp, y, in_size, out_size, scale, roi):
    # align_corners inside the region [start, end] of the input (normalised coordinates).
    start, end = roi[0], roi[1]
    length_resized = scale * in_size
    if length_resized == 1:
        x = y * 0.0 + (end - start) * (in_size - 1) / 2
    else:
        x = y * (end - start) * (in_size - 1) / (length_resized - 1)
    return x + start * (in_size - 1)


def source_coordinates(rule: str, in_size: int, out_size: int, scale: float, *, roi=None, xp=np):
    """Maps output indices ``0..out_size-1`` to input coordinates with a registered rule.

    Args:
      rule: a name in :data:`COORDINATE_RULES`.
      in_size, out_size: axis lengths.
      scale: the axis scale (> 0), a Python float.
      roi: ``(start, end)`` in normalised input coordinates, for rules with ``uses_roi``; may be
        traced (then ``xp`` must be ``jax.numpy``).
      xp: array namespace, ``numpy`` or ``jax.numpy``.

    Returns:
      ``(x, outside)``: ``x`` float ``[out_size]``; for rules that use a ``roi``, ``outside`` is a
      bool ``[out_size]`` marking coordinates outside ``[0, in_size - 1]``, else ``None``.

    Raises:
      ValueError: an unknown rule name.
    """
    found = COORDINATE_RULES.get(rule)
    if found is None:
        raise ValueError(
            f"coordinate rule {rule!r} is not registered; known: {', '.join(map(repr, COORDINATE_RULES))}."
        )
    y = xp.arange(out_size, dtype=np.float64) if xp is np else xp.arange(out_size).astype(float)
    x = found.fn(xp, y, in_size, out_size, scale, roi)
    outside = ((x < 0) | (x > in_size - 1)) if found.uses_roi else None
    return x, outside


@dataclasses.dataclass(frozen=True)
class Rational:
    """Coordinates ``num / den`` with integer numerators ``[out]`` (numpy or traced int32) over
    one positive integer denominator (a Python int, or a traced scalar), for exact windows
    (``ceil``) and distances. ``dtype``: the float type the distances are rounded to."""

    num: Any
    den: int
    dtype: Any = np.dtype(np.float32)


def fused_multiply_add(a, b, c: float, dtype=np.float32) -> np.ndarray:
    """``a * b + c`` rounded once to ``dtype`` (float32 or float64), as a hardware FMA computes it.

    float32: the product of two float32 values is exact in float64, so is adding ``c = -0.5``
    to it (Sterbenz), and the result is rounded once. float64: the product's rounding error is
    recovered exactly (Dekker's two-product with Veltkamp splitting) and added back in one rounding.
    """
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    if np.dtype(dtype) == np.float32:
        return (a * b + c).astype(np.float32)
    p = a * b
    split = 134217729.0  # 2**27 + 1
    ta, tb = a * split, b * split
    ah = ta - (ta - a)
    al = a - ah
    bh = tb - (tb - b)
    bl = b - bh
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # p + err == a * b exactly
    return (p + c) + err
