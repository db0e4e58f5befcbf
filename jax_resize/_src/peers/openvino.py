"""Peer: OpenVINO's ``Interpolate-11`` operator (:func:`openvino_interpolate`, OpenVINO's names).

Lengths and float32 scales are resolved on the host as the runtime does; one record per axis
(:func:`axis_record`; Pillow's window for ``*_pillow``, :mod:`..clipped_windows`), zero padding folded
into the records (:func:`shift`). Semantics: the reference implementation (what ``Node.evaluate``
and constant folding run); the CPU plugin's deviations are listed in :func:`openvino_interpolate`.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from .. import band_taps as _band_taps
from .. import clipped_windows as _windows
from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import rounding as _rounding
from .. import validation as _v
from .. import weights as _weights
from ..execution import apply as _apply

SHAPE_CALCULATION_MODES = ("sizes", "scales")
#: Interpolate-11 ``mode`` values.
MODES = ("nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow")
#: Interpolate-11 ``nearest_mode`` values.
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
#: Interpolate-11 ``coordinate_transformation_mode`` values.
COORDINATE_TRANSFORMATION_MODES = (
    "half_pixel",
    "pytorch_half_pixel",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "align_corners",
)
_PILLOW_MODES = ("bilinear_pillow", "bicubic_pillow")
_f32 = np.float32


def output_length_from_scale(padded_in: int, scale) -> int:
    """Interpolate-11's ``scales``-mode output length as the runtime computes it: ``padded_in`` if
    ``f32(scale) == 1``, else ``int(f32(padded_in) * (f32(scale) + 1e-6f))``; not the spec's
    ``floor(scale * padded_in)`` (``padded_in = 10, scale = 0.7``: 7 here, 6 in float64)."""
    s = _f32(scale)
    if s == _f32(1):
        return int(padded_in)
    with np.errstate(over="ignore"):
        product = _f32(padded_in) * (s + _f32(1e-6))
    return int(_v.finite_length("scales_or_sizes", product))


def coordinates(mode: str, in_size: int, out_size: int, scale) -> np.ndarray:
    """Interpolate-11's ``x_original`` for one axis, float32 ``[out_size]`` as OpenVINO computes it:
    ``in_size`` padded; ``scale`` the float32 scale, always divided, never inverted; ``x = o`` when
    ``f32(scale) == 1`` or ``out_size == in_size``; ``align_corners`` in the spec's and the
    reference's order (see :func:`openvino_interpolate`)."""
    f32 = np.float32
    o = np.arange(out_size, dtype=f32)
    s = f32(scale)
    if s == f32(1) or out_size == in_size:
        return o
    if mode == "half_pixel":
        return (o + f32(0.5)) / s - f32(0.5)
    if mode == "pytorch_half_pixel":
        return (o + f32(0.5)) / s - f32(0.5) if out_size > 1 else np.zeros_like(o)
    if mode == "asymmetric":
        return o / s
    if mode == "tf_half_pixel_for_nn":
        return (o + f32(0.5)) / s
    if mode == "align_corners":
        if out_size == 1:
            return np.zeros_like(o)
        return (o * f32(in_size - 1)) / f32(out_size - 1)
    raise ValueError(
        f"coordinate_transformation_mode={mode!r} is not supported; allowed values: "
        f"{', '.join(map(repr, COORDINATE_TRANSFORMATION_MODES))}."
    )


def axis_record(
    mode: str,
    in_size: int,
    out_size: int,
    scale,
    *,
    coordinate_transformation_mode="half_pixel",
    nearest_mode="round_prefer_floor",
    cube_coeff=-0.75,
    antialias_a=1.0,
) -> _records.Record:
    """One axis of Interpolate-11 on its padded length, each mode as :func:`openvino_interpolate`
    states it; ``scale``: the axis's float32 scale; ``antialias_a``: ``linear``'s ``a``."""
    if mode in _PILLOW_MODES:
        kernel = _kernels.TRIANGLE if mode == "bilinear_pillow" else _kernels.keys_cubic_factored(cube_coeff)
        return _windows.axis_taps(in_size, out_size, kernel)
    x = coordinates(coordinate_transformation_mode, in_size, out_size, scale)
    if mode == "nearest":
        if nearest_mode == "simple":
            nearest_mode = "ceil" if _f32(scale) < _f32(1) else "trunc"
        return _records.Gather(_weights.nearest_indices(x, in_size, nearest_mode), in_size)
    x = x.astype(np.float64)
    if mode == "linear_onnx":
        return _weights.clamped_linear_taps(x, in_size)
    if mode == "linear":
        return _weights.filter_taps(x, in_size, _kernels.TRIANGLE, stretch=1.0 / float(antialias_a), boundary="exclude")
    return _weights.filter_taps(x, in_size, _kernels.keys_cubic(float(cube_coeff)))


# --- zero padding folded into the records -------------------------------------------------------


def shift(record: _records.Record, offset: int, in_size: int) -> _records.Record:
    """A record built on the axis zero-extended by ``offset`` before it, re-targeted at the axis: taps
    ``j`` become ``j - offset``, those in the zeros dropped (no renormalisation); gathered rows in
    the zeros are flagged ``outside`` (filled with 0)."""
    if isinstance(record, _records.Gather):
        j = np.asarray(record.index, np.int64) - offset
        outside = (j < 0) | (j >= in_size)
        index = np.clip(j, 0, in_size - 1).astype(np.int32)
        return _records.Gather(index, in_size, outside if outside.any() else None)
    j = np.asarray(record.index, np.int64) - offset
    w = _weights.BOUNDARIES["zero"](np, j, record.weight, in_size)
    return _band_taps.compact(np.clip(j, 0, in_size - 1).astype(np.int32), w, in_size)


def zero_extend(in_size: int, before: int, after: int, *, gather: bool) -> _records.Record:
    """The record of an axis that is only zero-extended: ``out[o] = in[o - before]`` or 0."""
    j = np.arange(before + in_size + after)
    if gather:
        return shift(_records.Gather(j, before + in_size + after), before, in_size)
    return shift(_records.Taps(j[:, None], np.ones((j.size, 1)), before + in_size + after), before, in_size)


def openvino_interpolate(
    image: ArrayLike,
    scales_or_sizes: ArrayLike | Sequence[float],
    axes=None,
    *,
    mode: str,
    shape_calculation_mode: str,
    coordinate_transformation_mode: str = "half_pixel",
    nearest_mode: str = "round_prefer_floor",
    antialias: bool = False,
    pads_begin=(0,),
    pads_end=(0,),
    cube_coeff: float = -0.75,
    strategy: str = "auto",
) -> jax.Array:
    """OpenVINO ``Interpolate-11``: resizes ``image`` along ``axes`` by scales or to sizes.

    ``image`` is zero-padded by ``pads_begin``/``pads_end``; each axis ``axes[i]`` of padded length
    ``in`` gets the output length ``out`` and scale ``s``:

    * ``sizes``: ``out = scales_or_sizes[i]``, ``s = f32(out) / f32(in)``;
    * ``scales``: ``s = f32(scales_or_sizes[i])``, ``out = int(f32(in) * (s + 1e-6f))`` (``in`` if
      ``s == 1``), the runtime's rule, not the spec's ``floor(s * in)``.

    Output ``o`` reads the input coordinate ``x = T(o)`` (``coordinate_transformation_mode``,
    float32, e.g. ``half_pixel``: ``x = (o + 0.5) / s - 0.5``; ``x = o`` when ``s == 1`` or
    ``out == in``) and the mode's filter builds ``W: [out, in]``:

    * ``nearest``: ``W[o, R(x)] = 1`` with ``R`` per ``nearest_mode`` (``simple``: ``ceil`` if this
      axis has ``s < 1``, truncation otherwise), clamped to ``[0, in - 1]``;
    * ``linear_onnx``: 2-tap linear interpolation at ``x`` clamped to ``[0, in - 1]``;
    * ``linear``: triangle ``a * max(0, 1 - |a (x - j)|)`` with ``a = s`` when ``antialias`` and
      any resized axis has ``s < 1`` (then on every axis), else ``a = 1``; taps outside the input
      dropped, the row renormalised (0 if none is left; equals ``linear_onnx`` without antialias);
    * ``cubic``: Keys (1981) with ``a = cube_coeff`` on ``floor(x) - 1 .. floor(x) + 2``, tap
      indices clamped to the edge;
    * ``bilinear_pillow`` / ``bicubic_pillow``: Pillow's window (:func:`..clipped_windows.axis_taps`)
      around ``(o + 0.5) * in / out``, ``coordinate_transformation_mode`` and ``antialias``
      ignored; bicubic's ``a = cube_coeff`` (-0.5 matches Pillow) in Pillow's evaluation order.

    Zero padding is folded into the weights (no padded copy): taps in it contribute 0, without
    renormalisation, and nearest rows in it are 0.

    Args:
      image: array ``[d0, ..., d(r-1)]``, rank >= 1, any numeric dtype (bool for nearest only).
      scales_or_sizes: ``[len(axes)]`` static floats > 0 (``scales``, rounded to float32) or
        integers >= 0 (``sizes``), in the order of ``axes``.
      axes: static distinct axes in any order (negatives count from the end); default ``0 .. r-1``.
      mode: ``"nearest"``, ``"linear"``, ``"linear_onnx"``, ``"cubic"``, ``"bilinear_pillow"``,
        ``"bicubic_pillow"``.
      shape_calculation_mode: ``"sizes"`` or ``"scales"``.
      coordinate_transformation_mode: ``"half_pixel"`` (default), ``"pytorch_half_pixel"``,
        ``"asymmetric"``, ``"tf_half_pixel_for_nn"``, ``"align_corners"``
        (``(o * (in - 1)) / (out - 1)`` in float32, the spec's and the reference's order).
      nearest_mode: ``"round_prefer_floor"`` (default), ``"round_prefer_ceil"``, ``"floor"``,
        ``"ceil"``, ``"simple"``.
      antialias: for ``linear`` (see above); ignored by the other modes.
      pads_begin, pads_end: non-negative ints per axis (missing trailing entries are 0).
      cube_coeff: ``a`` of ``cubic`` and ``bicubic_pillow`` (default -0.75).
      strategy: ``"auto"``, ``"dense"``, ``"banded"`` or ``"polyphase"`` (not an OpenVINO attribute).

    Returns:
      ``image``'s dtype, the padded shape with ``axes[i]`` of length ``out``. Integers are rounded
      and saturated: ``*_pillow`` after each pass (last axis of ``axes`` first, half away from zero,
      as the reference), other filters once, half to even (the CPU plugin, up to .5 ties; the
      reference truncates ``linear_onnx`` and ``cubic`` and wraps cubic overshoot, -26 -> 230 in
      uint8, as the CPU's rank-5 cubic does). Nearest copies values exactly.

    Raises:
      ValueError: unknown mode names (with a suggestion), wrong number of ``scales_or_sizes``,
        non-positive or non-finite scales, negative sizes, bad/repeated axes, negative pads or
        more pads than axes, a non-empty output from an empty padded axis.
      TypeError: traced ``scales_or_sizes``/``axes``/pads, unsupported dtypes, bool with a
        filtering mode.

    Deviations of OpenVINO's CPU plugin from the reference (openvino 2026.4; details in
    ``docs/notes/openvino_pillow_semantics.md``):

    * ``linear`` at rank <= 4 runs ``linear_onnx`` (no antialias); at rank 5 it antialiases
      whenever ``antialias`` is set, even if no axis downsamples.
    * ``bicubic_pillow`` at rank <= 4 ignores ``cube_coeff`` (-0.5), in float32 (~3e-6 off).
    * ``align_corners`` is ``o * ((in - 1) / (out - 1))``, which moves a few nearest indices.
    * Rank 3 with pads and NHWC (axes 1, 2) with pads give wrong shapes; ``*_pillow`` with
      descending axes other than NCHW's (3, 2) gives wrong values.
    * Axis sets: the reference takes the Pillow modes with two axes only, ``linear_onnx`` with the
      spec's sets only (and is wrong at rank >= 4 when it resizes axis 0 or 1 or keeps a spatial
      axis); this function takes any axes for every mode, each resampled separably to its size.

    Example:
      >>> import numpy as np, jax_resize
      >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
      >>> jax_resize.openvino_interpolate(x, [2, 2], [2, 3], mode="linear_onnx",
      ...                                 shape_calculation_mode="sizes")[0, 0].tolist()
      [[2.5, 4.5], [10.5, 12.5]]

    Spec: OpenVINO opset11 ``Interpolate-11`` (``openvino-interpolate-11.rst``).
    """
    mode = _v.choice("mode", mode, MODES)
    shape_calculation_mode = _v.choice("shape_calculation_mode", shape_calculation_mode, SHAPE_CALCULATION_MODES)
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode, COORDINATE_TRANSFORMATION_MODES)
    _v.choice("nearest_mode", nearest_mode, NEAREST_MODES)
    antialias = _v.flag("antialias", antialias)
    cube_coeff = _v.finite_float("cube_coeff", cube_coeff)
    image, _ = _frontend.prologue("image", image, mode=mode, min_rank=1)
    rank = image.ndim
    axes = _v.axes_tuple(axes, rank)
    pads = [
        _v.int_sequence(name, value, max_length=rank, scalar=True)
        for name, value in (("pads_begin", pads_begin), ("pads_end", pads_end))
    ]
    pb, pe = [list(p) + [0] * (rank - len(p)) for p in pads]
    padded = [int(image.shape[a]) + pb[a] + pe[a] for a in range(rank)]
    _frontend.output_size([max(p, 0) for p in padded], "pads_begin/pads_end (the padded input)")
    outs, scales = _output_lengths(scales_or_sizes, axes, padded, shape_calculation_mode)
    out_shape = list(padded)
    for a, o in zip(axes, outs):
        out_shape[a] = o
    _frontend.output_size([max(o, 0) for o in out_shape], "scales_or_sizes")
    _v.check_empty_axes([padded[a] for a in axes], outs, axes)
    if image.size == 0 or 0 in out_shape:  # all-padding input, or an empty output: no weights
        return jnp.zeros(out_shape, image.dtype)

    aa = antialias and any(s < _f32(1) for s in scales)
    records = {}
    for a, o, s in zip(axes, outs, scales):
        antialias_a = float(s) if (aa and mode == "linear") else 1.0
        if o == padded[a] and antialias_a == 1.0:
            continue  # the identity (x = o); padding, if any, is added below
        record = axis_record(
            mode,
            padded[a],
            o,
            s,
            coordinate_transformation_mode=coordinate_transformation_mode,
            nearest_mode=nearest_mode,
            cube_coeff=cube_coeff,
            antialias_a=antialias_a,
        )
        records[a] = shift(record, pb[a], int(image.shape[a]))
    padding = [a for a in range(rank) if a not in records and (pb[a] or pe[a])]
    for a in padding:  # axes padded but not resampled: pure zero extension
        records[a] = zero_extend(int(image.shape[a]), pb[a], pe[a], gather=mode == "nearest")
    if mode in _PILLOW_MODES:
        # the reference pads first, then resamples the axes in reverse order, rounding after each
        order = padding + [a for a in reversed(axes) if a in records and a not in padding]
        policy = _rounding.IntegerPolicy(rounding="half_away", per_pass=True)
        return _apply.run(image, [(a, records[a]) for a in order], integer=policy, strategy=strategy)
    return _apply.run(image, list(records.items()), strategy=strategy)


def _output_lengths(scales_or_sizes, axes, padded, shape_calculation_mode):
    """Output lengths and float32 scales of ``axes`` (see :func:`openvino_interpolate`)."""
    values = _v.static_array("scales_or_sizes", scales_or_sizes)
    if values is None:
        values = np.zeros((0,))
    if values.shape != (len(axes),):
        raise ValueError(
            f"scales_or_sizes must have {len(axes)} elements (one per axis in axes={axes}); "
            f"got {values.size}: {values.tolist()!r}."
        )
    if shape_calculation_mode == "scales":
        scales = [_f32(s) for s in _v.scales_array(values, len(axes))]
        return [output_length_from_scale(padded[a], s) for a, s in zip(axes, scales)], scales
    outs = [int(s) for s in _v.sizes_array(values, len(axes))]
    return outs, [_f32(o) / _f32(padded[a]) if padded[a] else _f32(1) for a, o in zip(axes, outs)]
