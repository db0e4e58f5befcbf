"""Layer 1 — coordinates: output index -> input coordinate, one axis at a time.

A rule maps output indices ``y = 0..out_size-1`` to input coordinates ``x`` (``[out_size]``,
float64 on the host; pixel ``j`` centred at ``x = j``), in the array namespace ``xp`` (``numpy``,
or ``jax.numpy`` for traced geometry). ``scale`` is the axis scale (given, or ``out / in``);
``length_resized = scale * in_size`` is a float, not always ``out_size``. The formulas are the ONNX
Resize spec's (``coordinate_transformation_mode``, opsets 10-19) in ``onnx.reference``'s order of
operations, so ``floor`` and ties agree bit for bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class CoordinateRule:
    """A named rule ``fn(xp, y, in_size, out_size, scale, roi) -> x``; ``uses_roi``: it reads
    ``roi = (start, end)`` (normalised input coordinates) and reports outputs leaving the input."""

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
    """Input coordinates of the outputs ``0..out_size-1`` under a registered rule.

    Args:
      rule: a name in :data:`COORDINATE_RULES`; ``scale``: the axis scale (> 0), a Python float.
      roi: ``(start, end)`` for rules with ``uses_roi``; may be traced (then ``xp=jax.numpy``).

    Returns:
      ``(x, outside)``: ``x`` float ``[out_size]``; ``outside`` bool ``[out_size]`` (outside
      ``[0, in_size - 1]``) for rules with ``uses_roi``, else ``None``.

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
