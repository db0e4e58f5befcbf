"""Front end: OpenVINO's ``Interpolate-11`` operator.

Contract: :func:`openvino_interpolate` takes the operator's inputs and attributes by their
OpenVINO names, resolves the padded input lengths, output lengths and float32 scales on the
host exactly as the OpenVINO runtime does, builds one operator per axis with the coordinates
(:func:`.coordinates.openvino_coordinates`, :func:`.coordinates.pillow_centers`) and weights
(:func:`.weights.openvino_axis_weights`, :func:`.weights.pillow_taps`) layers, folds the zero
padding into those operators (:func:`.weights.unpad`, :func:`.weights.pad_only`), and applies
them with :func:`.apply.run` (or :func:`.pillow.run_passes` for integer ``*_pillow`` results,
which are rounded after every pass). Semantics: the reference implementation (``REF``,
what ``Node.evaluate`` and constant folding run); the CPU plugin's deviations are documented in
:func:`openvino_interpolate` and ``docs/notes/openvino_pillow_semantics.md``.
"""

from __future__ import annotations

import numbers

import jax.numpy as jnp
import numpy as np

from . import apply as _apply
from . import coordinates as _coordinates
from . import kernels as _kernels
from . import pillow as _pillow
from . import validation as _v
from . import weights as _weights

SHAPE_CALCULATION_MODES = ("sizes", "scales")
_PILLOW_MODES = ("bilinear_pillow", "bicubic_pillow")
_f32 = np.float32


def _pads(name: str, pads, rank: int) -> list[int]:
    if _v.is_traced(pads):
        raise TypeError(f"{name} must be static because it fixes the output shape; got a traced value.")
    if isinstance(pads, numbers.Integral) and not isinstance(pads, (bool, np.bool_)):
        pads = (pads,)
    try:
        values = list(pads)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of non-negative integers; got {pads!r}.") from None
    if len(values) > rank:
        raise ValueError(f"{name}={tuple(values)!r} has {len(values)} entries, more than the rank {rank} of image.")
    for p in values:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Integral) or p < 0:
            raise ValueError(f"{name}={tuple(values)!r} must contain non-negative integers.")
    return [int(p) for p in values] + [0] * (rank - len(values))


def output_length_from_scale(padded_in: int, scale) -> int:
    """Interpolate-11's output length in ``scales`` mode, as the runtime computes it.

    ``out = padded_in`` if ``f32(scale) == 1``, else ``int(f32(padded_in) * (f32(scale) + 1e-6f))``
    (a float32 product, truncated). The spec writes ``floor(scale * padded_in)``; the epsilon
    makes e.g. ``padded_in = 10, scale = 0.7`` give 7 (``floor`` in float64 gives 6).
    """
    s = _f32(scale)
    if s == _f32(1):
        return int(padded_in)
    return int(_f32(padded_in) * (s + _f32(1e-6)))


def axis_weights(mode: str, in_size: int, out_size: int, scale, *, coordinate_transformation_mode="half_pixel",
                 nearest_mode="round_prefer_floor", cube_coeff=-0.75, antialias_a=1.0):
    """One axis of Interpolate-11 on its (padded) length: ``("gather", idx)`` or ``("taps", taps)``.

    ``scale`` is the float32 scale of the axis (given, or ``f32(out) / f32(in)``);
    ``antialias_a`` is ``linear``'s ``a`` (the scale when antialiasing is on, else 1).
    """
    if mode in _PILLOW_MODES:
        kernel = _kernels.TRIANGLE if mode == "bilinear_pillow" else _kernels.pillow_bicubic(cube_coeff)
        center, ratio = _coordinates.pillow_centers(in_size, out_size)
        return "taps", _weights.pillow_taps(center, ratio, in_size, kernel)
    x = _coordinates.openvino_coordinates(coordinate_transformation_mode, in_size, out_size, scale)
    return _weights.openvino_axis_weights(x, in_size, scale, mode=mode, nearest_mode=nearest_mode,
                                          cube_coeff=cube_coeff, antialias_a=antialias_a)


def openvino_interpolate(
    image,
    scales_or_sizes,
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
):
    """OpenVINO ``Interpolate-11``: resizes ``image`` along ``axes`` by scales or to sizes.

    ``image`` is zero-padded by ``pads_begin``/``pads_end`` (every axis); each axis
    ``axes[i]`` of padded length ``in`` gets the output length ``out`` and scale ``s``:

    * ``sizes``: ``out = scales_or_sizes[i]``, ``s = f32(out) / f32(in)``;
    * ``scales``: ``s = f32(scales_or_sizes[i])``,
      ``out = int(f32(in) * (s + 1e-6f))`` (``in`` if ``s == 1``) — what the runtime computes;
      the spec's ``floor(s * in)`` differs from it for some products just below an integer.

    Output ``o`` reads the input coordinate ``x = T(o)`` (``coordinate_transformation_mode``,
    float32, e.g. ``half_pixel``: ``x = (o + 0.5) / s - 0.5``; ``x = o`` when ``s == 1`` or
    ``out == in``) and the mode's filter builds ``W: [out, in]``:

    * ``nearest``: ``W[o, R(x)] = 1`` with ``R`` per ``nearest_mode`` (``simple``: ``ceil`` if this
      axis has ``s < 1``, truncation otherwise), clamped to ``[0, in - 1]``;
    * ``linear_onnx``: 2-tap linear interpolation at ``x`` clamped to ``[0, in - 1]``;
    * ``linear``: triangle ``a * max(0, 1 - |a (x - j)|)`` with ``a = s`` when ``antialias`` and
      any resized axis has ``s < 1`` (then on every axis), else ``a = 1``; taps outside the input
      dropped and the row renormalised (equals ``linear_onnx`` without antialias);
    * ``cubic``: Keys (1981) with ``a = cube_coeff`` on ``floor(x) - 1 .. floor(x) + 2``, tap
      indices clamped to the edge;
    * ``bilinear_pillow`` / ``bicubic_pillow``: Pillow's resampling (``coordinate_transformation_mode``
      and ``antialias`` ignored): ``center = (o + 0.5) * in / out``,
      ``support = {1, 2} * max(in / out, 1)``, taps
      ``[int(center - support + 0.5), int(center + support + 0.5))`` clipped to the input,
      weights ``K((j - center + 0.5) / max(in / out, 1))`` renormalised; bicubic uses
      ``a = cube_coeff`` (set -0.5 to match Pillow; OpenVINO's default is -0.75).

    Zero padding is folded into the weights: taps that land in the padding contribute 0 (no
    renormalisation, the zeros are part of the padded input) and nearest rows that land in it
    are 0; no padded copy of ``image`` is made.

    Args:
      image: array ``[d0, ..., d(r-1)]``, rank >= 1, any numeric dtype (bool for nearest only).
      scales_or_sizes: ``[len(axes)]`` static floats > 0 (``scales``, rounded to float32) or
        integers >= 0 (``sizes``), in the order of ``axes``.
      axes: static distinct axes in any order (negative values count from the end); default
        ``0 .. r-1``.
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
      strategy: how weights are applied (``"auto"``, ``"dense"``, ``"banded"``, ``"polyphase"``); not an
        OpenVINO attribute.

    Returns:
      Array of ``image``'s dtype, shape ``padded shape`` with ``axes[i]`` of length ``out``.
      Integer images are rounded and saturated: the ``*_pillow`` modes after each pass (the
      last axis of ``axes`` first, half away from zero, clipped to the dtype, as the
      reference); the other filters once, half to even, like the CPU plugin up to exact .5
      ties (the reference casts instead: ``linear_onnx`` and ``cubic`` truncate, and cubic
      overshoot wraps around, e.g. -26 becomes 230 in uint8; so does the CPU's rank-5 cubic).
      Nearest copies values exactly.

    Raises:
      ValueError: unknown mode names (with a suggestion), wrong number of ``scales_or_sizes``,
        non-positive or non-finite scales, negative sizes, bad/repeated axes, negative pads or
        more pads than axes, a non-empty output from an empty padded axis.
      TypeError: traced ``scales_or_sizes``/``axes``/pads, unsupported dtypes, bool with a
        filtering mode.

    Deviations of OpenVINO's CPU plugin from the reference (and from this function), measured
    with openvino 2026.4 (``docs/notes/openvino_pillow_semantics.md``):

    * ``linear`` at rank <= 4 runs ``linear_onnx``: ``antialias`` has no effect there. At rank 5
      it antialiases whenever ``antialias`` is set, even if no axis downsamples.
    * ``bicubic_pillow`` at rank <= 4 ignores ``cube_coeff`` (always -0.5); the CPU builds the
      Pillow coefficients in float32 (~3e-6 off).
    * ``align_corners`` is computed as ``o * ((in - 1) / (out - 1))``, which moves a few
      nearest indices.
    * The reference accepts the Pillow modes with exactly two axes only and ``linear_onnx``
      with the spec's axis sets only; the CPU accepts other sets (some give wrong output).
      This function accepts any axes for every mode, resampling them separably.
    * Rank 3 with pads, and NHWC (axes 1, 2) with pads, give wrong output shapes; ``*_pillow``
      with descending axes other than NCHW's (3, 2) gives wrong values (the reference gives
      uninitialised values for any descending order; we resample each listed axis to its own
      size, as the CPU does for (3, 2)).
    * The reference's ``linear_onnx`` at rank >= 4 returns wrong values (or corrupts memory)
      when it resizes axis 0 or 1 or leaves a spatial axis unchanged; the CPU plugin and this
      function agree there.

    Example:
      >>> import numpy as np, jax_resize
      >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
      >>> jax_resize.openvino_interpolate(x, [2, 2], [2, 3], mode="linear_onnx",
      ...                                 shape_calculation_mode="sizes")[0, 0].tolist()
      [[2.5, 4.5], [10.5, 12.5]]

    Spec: OpenVINO opset11 ``Interpolate-11`` (``openvino-interpolate-11.rst``).
    """
    mode = _v.choice("mode", mode, _weights.OPENVINO_MODES)
    shape_calculation_mode = _v.choice("shape_calculation_mode", shape_calculation_mode, SHAPE_CALCULATION_MODES)
    _v.choice("coordinate_transformation_mode", coordinate_transformation_mode,
              _coordinates.OPENVINO_COORDINATE_MODES)
    _v.choice("nearest_mode", nearest_mode, _weights.OPENVINO_NEAREST_MODES)
    antialias = _v.flag("antialias", antialias)
    cube_coeff = _v.finite_float("cube_coeff", cube_coeff)
    image = _v.data_array("image", image, mode)
    rank = image.ndim
    dtype = np.dtype(image.dtype)
    axes = _v.axes_tuple(axes, rank)
    pb = _pads("pads_begin", pads_begin, rank)
    pe = _pads("pads_end", pads_end, rank)
    padded = [int(image.shape[a]) + pb[a] + pe[a] for a in range(rank)]

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
        outs = [output_length_from_scale(padded[a], s) for a, s in zip(axes, scales)]
    else:
        outs = [int(s) for s in _v.sizes_array(values, len(axes))]
        scales = [_f32(o) / _f32(padded[a]) if padded[a] else _f32(1) for a, o in zip(axes, outs)]
    out_shape = list(padded)
    for a, o in zip(axes, outs):
        if padded[a] == 0 and o != 0:
            raise ValueError(f"cannot resize axis {a} of (padded) length 0 to length {o}.")
        out_shape[a] = o

    if image.size == 0 or 0 in out_shape:  # all-padding input, or an empty output
        return jnp.zeros(out_shape, image.dtype)

    gather = mode == "nearest"
    aa = antialias and any(s < _f32(1) for s in scales)
    resampled = {}
    for a, o, s in zip(axes, outs, scales):
        n = padded[a]
        antialias_a = float(s) if (aa and mode == "linear") else 1.0
        if o == n and antialias_a == 1.0:
            continue  # the identity (x = o); padding, if any, is added below
        kind, op = axis_weights(mode, n, o, s, coordinate_transformation_mode=coordinate_transformation_mode,
                                nearest_mode=nearest_mode, cube_coeff=cube_coeff, antialias_a=antialias_a)
        resampled[a] = _weights.unpad(a, kind, op, pb[a], int(image.shape[a]))
    # Axes padded but not resampled: a pure zero-padding operator.
    for a in range(rank):
        if a not in resampled and (pb[a] or pe[a]):
            resampled[a] = _weights.pad_only(a, int(image.shape[a]), pb[a], pe[a], gather=gather)

    if mode in _PILLOW_MODES and dtype.kind in "iu":
        # The reference resamples axes[1] (W) and then axes[0] (H), rounding after each pass;
        # zero padding of the other axes is exact, so it runs first, in one contraction.
        padding = [resampled[a] for a in sorted(resampled) if a not in axes]
        if padding:
            image = _apply.run(image, padding, strategy=strategy)
        passes = [resampled[a] for a in reversed(axes) if a in resampled]
        return _pillow.run_passes(image, passes, rounding="half_away", strategy=strategy)
    ops = [resampled[a] for a in list(axes) + sorted(set(resampled) - set(axes)) if a in resampled]
    return _apply.run(image, ops, strategy=strategy)
