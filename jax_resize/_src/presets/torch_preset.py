"""``torch_interpolate``: ``torch.nn.functional.interpolate`` on the jax_resize layers.

Contract: same arguments, defaults, checks and output shapes as ``F.interpolate`` (PyTorch 2.13,
CPU, contiguous ``[N, C, *spatial]`` tensors); every resized axis gets one operator:

* coordinates: :func:`.coordinates.torch_source_coordinates` / ``torch_nearest_indices`` /
  ``torch_antialias_centers`` (PyTorch's scale rule, its float32/float64 arithmetic, its fused
  multiply-add and ``floorf``);
* weights: :func:`.weights.clamped_linear_taps` (linear modes), :func:`.weights.filter_taps`
  with Keys a = -0.75 (bicubic), :func:`.weights.pillow_taps` (antialias: PyTorch's separable
  kernels are Pillow's), :func:`.weights.adaptive_average_taps` (area);
* apply: :func:`.apply.run`; ``uint8`` filters run one pass per axis (last axis first) in
  PyTorch's int16 fixed point (:func:`.pillow.run_passes` with ``"fixed_point"``), which is exact.
"""

from __future__ import annotations

import math
import numbers

import jax.numpy as jnp
import numpy as np

from .. import apply as _apply
from .. import coordinates as _coordinates
from .. import dtypes as _dtypes
from .. import kernels as _kernels
from .. import pillow as _pillow
from .. import validation as _v
from .. import weights as _weights

MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area", "lanczos")
#: Modes tied to one input rank (``F.interpolate`` raises for the others).
_RANK = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5, "lanczos": 4}
_NO_ALIGN_CORNERS = ("nearest", "area", "nearest-exact")
_ANTIALIAS_MODES = ("bilinear", "bicubic", "lanczos")
#: What PyTorch's CPU kernels implement for uint8 (every mode takes float16/bfloat16/float32/
#: float64, antialias only float32/float64).
_UINT8_MODES = ("nearest", "nearest-exact", "bilinear", "bicubic", "lanczos")


def _per_axis(name: str, value, dim: int, integer: bool) -> list:
    """``size``/``scale_factor``: a number or a sequence of ``dim`` numbers -> list of ``dim``."""
    if _v.is_traced(value):
        raise TypeError(f"{name} must be static because it fixes the output shape; got a traced value.")
    values = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value]
    if isinstance(value, (list, tuple, np.ndarray)) and len(values) != dim:
        raise ValueError(
            f"{name}={tuple(values)!r} must have {dim} entries, one per spatial dimension of the "
            f"[N, C, *spatial] input (spatial rank {dim})."
        )
    values = values * dim if len(values) == 1 else values
    out = []
    for v in values:
        if integer:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
                raise TypeError(f"{name} must be an int or a sequence of ints; got {value!r}.")
            if v <= 0:
                raise ValueError(f"{name}={value!r}: output sizes must be > 0.")
            out.append(int(v))
        else:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                raise TypeError(f"{name} must be a float or a sequence of floats; got {value!r}.")
            if not (math.isfinite(float(v)) and float(v) > 0):
                raise ValueError(f"{name}={value!r} must be finite and > 0.")
            out.append(float(v))
    return out


def output_sizes(in_sizes, size=None, scale_factor=None, recompute_scale_factor=None, mode="nearest"):
    """``F.interpolate``'s output spatial sizes and the scale factors the kernels then use.

    ``size`` gives the sizes (no scale factors). ``scale_factor`` gives
    ``floor(in * scale_factor)``; the kernels use ``1 / scale_factor`` unless
    ``recompute_scale_factor`` is true (or ``mode='area'``), in which case the scale factors are
    dropped and the kernels use ``in / out``.

    Returns:
      ``(sizes, scale_factors)``: lists of ``len(in_sizes)``; ``scale_factors`` entries may be None.
    """
    dim = len(in_sizes)
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if size is not None:
        return _per_axis("size", size, dim, integer=True), [None] * dim
    factors = _per_axis("scale_factor", scale_factor, dim, integer=False)
    sizes = [math.floor(n * f) for n, f in zip(in_sizes, factors)]
    for n, f, o in zip(in_sizes, factors, sizes):
        if o <= 0:
            raise ValueError(
                f"scale_factor={scale_factor!r} gives an empty output: floor({n} * {f}) = {o}; "
                "output sizes must be > 0."
            )
    if recompute_scale_factor or mode == "area":
        factors = [None] * dim
    return sizes, factors


def _check_dtype(dtype: np.dtype, mode: str, antialias: bool) -> None:
    name = dtype.name
    if name in ("float32", "float64"):
        return
    if name in ("float16", "bfloat16") and not antialias:
        return
    if name == "uint8" and mode in _UINT8_MODES:
        return
    if name == "uint8":
        allowed = f"uint8 only with mode in {_UINT8_MODES}"
    else:
        allowed = "float32, float64; float16/bfloat16 without antialias; uint8 with some modes"
    raise TypeError(
        f"input has dtype {name}, which F.interpolate (CPU) does not implement for mode={mode!r}"
        f"{' with antialias=True' if antialias else ''}; allowed: {allowed}."
    )


def axis_operator(mode: str, axis: int, in_size: int, out_size: int, *, scale_factor=None,
                  align_corners: bool = False, antialias: bool = False, dtype=np.float32, two_d: bool = False,
                  first_row_only: bool = False):
    """One axis of ``F.interpolate`` as an :class:`~.weights.AxisResample`, or None (identity).

    ``dtype`` is the input's dtype; it decides PyTorch's arithmetic (float64 coordinates for
    float64 inputs and for uint8 filters, float32 otherwise); ``two_d`` marks an axis of a 4-D
    input (``nearest`` then takes PyTorch's 2-D shortcuts); ``first_row_only`` gives every output
    the taps of output 0 (PyTorch's float antialias kernel does that to H when the output width is
    1). For ``uint8`` filters the weights
    are PyTorch's int16 ones, ``k / 2**p`` (:func:`.weights.torch_uint8_precision`).
    """
    dtype = np.dtype(dtype)
    if mode in ("nearest", "nearest-exact"):
        arith = np.float64 if dtype == np.float64 else np.float32
        idx = _coordinates.torch_nearest_indices(in_size, out_size, scale_factor=scale_factor,
                                                 exact=mode == "nearest-exact", dtype=arith,
                                                 shortcuts=two_d)
        if out_size == in_size and np.array_equal(idx, np.arange(in_size)):
            return None
        return _weights.axis_resample(axis, in_size, "gather", idx)
    if mode == "area":
        if out_size == in_size:
            return None
        return _weights.axis_resample(axis, in_size, "taps", _weights.adaptive_average_taps(in_size, out_size))
    arith = np.float64 if dtype in (np.float64, np.uint8) else np.float32
    if antialias:
        if out_size == in_size:  # PyTorch skips the axis
            return None
        kernel = {"bilinear": _kernels.TRIANGLE, "bicubic": _kernels.pillow_bicubic(-0.5),
                  "lanczos": _kernels.PIL_LANCZOS}[mode]
        center, scale = _coordinates.torch_antialias_centers(
            in_size, out_size, scale_factor=scale_factor, align_corners=align_corners, dtype=arith)
        taps = _weights.pillow_taps(center, scale, in_size, kernel)
    elif mode == "bicubic":
        if out_size == in_size and (scale_factor is None or align_corners or dtype == np.uint8):
            return None  # x = o (one-hot weights); uint8's separable kernel skips the axis
        x = _coordinates.torch_source_coordinates(in_size, out_size, scale_factor=scale_factor,
                                                  align_corners=align_corners, cubic=True, dtype=arith)
        taps = _weights.filter_taps(x.astype(np.float64), in_size, _kernels.keys_cubic(-0.75))
    else:  # linear, bilinear, trilinear
        if out_size == in_size:  # PyTorch copies (whatever the scale factor)
            return None
        x = _coordinates.torch_source_coordinates(in_size, out_size, scale_factor=scale_factor,
                                                  align_corners=align_corners, dtype=arith)
        taps = _weights.clamped_linear_taps(x, in_size)
    index, weight = taps
    if first_row_only:
        index, weight = np.repeat(index[:1], out_size, axis=0), np.repeat(weight[:1], out_size, axis=0)
    if dtype == np.uint8:
        weight = _weights.fixed_point_weights(weight, _weights.torch_uint8_precision(weight))
    return _weights.axis_resample(axis, in_size, "taps", (index, weight))


def torch_interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                      recompute_scale_factor=None, antialias=False):
    """``torch.nn.functional.interpolate`` in JAX: resamples the spatial axes of ``[N, C, *spatial]``.

    Output size: ``size``, or ``floor(in * scale_factor)`` per axis. Scale used by the kernels:
    ``s = 1 / scale_factor`` when ``scale_factor`` is given and ``recompute_scale_factor`` is not
    true, else ``s = in / out`` (``(in - 1) / (out - 1)`` with ``align_corners=True``). Per axis,
    in PyTorch's float32 arithmetic (float64 for float64 inputs and uint8 filters):

    * ``nearest``: ``src = min(floor(o * s), in - 1)`` (4-D inputs: ``src = o`` when
      ``out == in`` and ``o // 2`` when ``out == 2 in``, as PyTorch's 2-D kernel); ``nearest-exact``:
      ``src = min(floor(x + 0.5), in - 1)`` with ``x = max(0, s (o + 0.5) - 0.5)``;
    * ``linear``/``bilinear``/``trilinear``: ``x = s (o + 0.5) - 0.5`` clamped to ``[0, in - 1]``
      (``x = s o`` with ``align_corners``), 2-tap linear interpolation; an axis with
      ``out == in`` is copied;
    * ``bicubic``: Keys cubic (a = -0.75) at the unclamped ``x``, the 4 tap indices clamped to
      the edge (float inputs resample an axis with ``out == in`` too; uint8 copies it);
    * ``antialias=True`` (``bilinear``, ``bicubic``, ``lanczos``): ``center = s (o + 0.5)``,
      ``support = r * max(s, 1)`` (r = 1, 2, 3), taps
      ``[int(center - support + 0.5), int(center + support + 0.5))`` clipped to the input,
      weights ``K((j - center + 0.5) / max(s, 1))`` normalised (triangle; Keys a = -0.5;
      Lanczos-3) — Pillow's rule; an axis with ``out == in`` is copied. PyTorch 2.13's float
      kernel has a bug when the output width is 1: every output row takes the H weights of row
      0 (rows all equal row 0 of the correct result); this is reproduced (uint8 is correct);
    * ``area``: adaptive average pooling, the mean of
      ``[floor(o * in / out), ceil((o + 1) * in / out))``.

    ``uint8`` inputs: nearest modes gather; filters run one pass per axis (W, then H), each in
    PyTorch's int16 fixed point (``(sum(k x) + 2**(p-1)) >> p``, clamped to [0, 255]).

    Args:
      input: array ``[N, C, W]``, ``[N, C, H, W]`` or ``[N, C, D, H, W]``; float32/float64 (all
        modes), float16/bfloat16 (no antialias), uint8 (nearest, nearest-exact, bilinear,
        bicubic, lanczos).
      size: int or sequence of 1-3 ints (static): the output spatial size.
      scale_factor: float or sequence of floats > 0 (static). Exactly one of ``size`` and
        ``scale_factor``.
      mode: ``"nearest"`` (default), ``"nearest-exact"``, ``"linear"`` (3-D input),
        ``"bilinear"``, ``"bicubic"``, ``"lanczos"`` (4-D), ``"trilinear"`` (5-D), ``"area"``.
      align_corners: for the linear modes and bicubic (``None`` means False); must stay
        ``None`` for nearest, nearest-exact and area; lanczos refuses True.
      recompute_scale_factor: True: use ``in / out`` instead of ``1 / scale_factor``.
      antialias: bilinear/bicubic on 4-D inputs; lanczos requires it.

    Returns:
      Array ``[N, C, *out_spatial]`` of ``input``'s dtype.

    Raises:
      ValueError: bad mode (with a suggestion), both or neither of ``size``/``scale_factor``,
        wrong lengths, non-positive sizes or factors, an empty output, ``align_corners`` or
        ``antialias`` where PyTorch refuses them, a mode used with the wrong rank (PyTorch
        raises NotImplementedError there).
      TypeError: traced ``size``/``scale_factor``, non-integer sizes, dtypes PyTorch does not
        implement for the mode.

    Example:
      >>> import numpy as np
      >>> from jax_resize.compat import torch_interpolate
      >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 4)
      >>> torch_interpolate(x, scale_factor=2, mode="linear")[0, 0].tolist()
      [0.0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.0]

    Source: ``torch/nn/functional.py`` (``interpolate``) and ATen's CPU kernels
    (``aten/src/ATen/native/UpSample.h``, ``native/cpu/UpSampleKernel.cpp``,
    ``AdaptiveAveragePooling.cpp``). Exactness (measured against torch 2.13 CPU): nearest modes,
    and all uint8 modes bit-exact; float filters within float32 rounding. The kernels' fused
    multiply-add is that of PyTorch's AVX2/AVX-512 builds.
    """
    mode = _v.choice("mode", mode, MODES)
    antialias = _v.flag("antialias", antialias)
    if mode in _NO_ALIGN_CORNERS:
        if align_corners is not None:
            raise ValueError(
                f"align_corners={align_corners!r}: the align_corners option can only be set with the "
                "interpolating modes: linear | bilinear | bicubic | trilinear"
            )
    else:
        align_corners = _v.flag("align_corners", False if align_corners is None else align_corners)
    if recompute_scale_factor is not None:
        recompute_scale_factor = _v.flag("recompute_scale_factor", recompute_scale_factor)
    dtype = _dtypes.check_dtype(getattr(input, "dtype", None) or np.asarray(input).dtype, name="input")
    x = jnp.asarray(input)
    if x.ndim not in (3, 4, 5):
        raise ValueError(
            f"input must be [N, C, W], [N, C, H, W] or [N, C, D, H, W] (rank 3-5); got shape {x.shape}."
        )
    in_sizes = [int(n) for n in x.shape[2:]]
    if 0 in in_sizes:
        raise ValueError(f"input has an empty spatial dimension (shape {x.shape}); sizes must be > 0.")
    sizes, factors = output_sizes(in_sizes, size, scale_factor, recompute_scale_factor, mode)
    if antialias and not (mode in _ANTIALIAS_MODES and x.ndim == 4):
        raise ValueError(
            f"antialias=True with mode={mode!r} and a {x.ndim}-D input: anti-alias option is restricted "
            "to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input."
        )
    if mode in _RANK and x.ndim != _RANK[mode]:
        raise ValueError(
            f"mode={mode!r} needs a {_RANK[mode]}-D input ([N, C] + {_RANK[mode] - 2} spatial dims); "
            f"got {x.ndim}-D input of shape {x.shape}."
        )
    if mode == "lanczos":
        if align_corners:
            raise ValueError("align_corners=True: Lanczos mode does not support align_corners=True.")
        if not antialias:
            raise ValueError("antialias=False: Lanczos mode requires antialias=True.")
    _check_dtype(dtype, mode, antialias)

    out_shape = tuple(x.shape[:2]) + tuple(sizes)
    if x.size == 0:
        return jnp.zeros(out_shape, x.dtype)
    ops = []
    for i, (n, o, f) in enumerate(zip(in_sizes, sizes, factors)):
        op = axis_operator(mode, 2 + i, n, o, scale_factor=f, align_corners=align_corners,
                           antialias=antialias, dtype=dtype, two_d=x.ndim == 4,
                           first_row_only=antialias and dtype != np.uint8 and i == 0 and sizes[-1] == 1)
        if op is not None:
            ops.append(op)
    if dtype == np.uint8 and mode not in ("nearest", "nearest-exact") and ops:
        # PyTorch resamples the last axis first, rounding to uint8 after each pass.
        ops = sorted(ops, key=lambda op: -op.axis)
        return _pillow.run_passes(x, ops, rounding="fixed_point")
    return _apply.run(x, ops)
