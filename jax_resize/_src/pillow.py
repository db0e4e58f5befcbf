"""Pillow's resampling (``PIL.Image.resize``) on the coordinates -> weights -> apply layers.

Contract: :func:`pil_resize` reproduces ``Image.resize(size, resample)`` (no ``box``, no
``reducing_gap``) for every axis whose length changes: Pillow's filter centres
(:func:`.coordinates.pillow_centers`), its coefficient rule (:func:`.weights.pillow_taps`) or its
NEAREST indices (:func:`.coordinates.pillow_nearest_indices`), applied with :func:`.apply.run`.

* float inputs are Pillow's mode ``'F'``: each pass is a float sum, the intermediate is float;
* ``uint8`` inputs are Pillow's 8-bit modes (``'L'``, ``'RGB'``, ...), bit for bit: coefficients
  quantised to integers ``k`` in ``2**-22`` units, each pass ``(2**21 + sum(x * k)) >> 22``
  clipped to ``[0, 255]`` (the intermediate image is ``uint8``), evaluated exactly with float32
  contractions (:func:`_fixed_point_pass`), passes in Pillow 13's order (:func:`pillow_pass_order`);
* other integers follow Pillow's 32-bit integer mode ``'I'``: each pass rounded half away from
  zero (then saturated to the dtype).

:func:`run_passes` (one pass at a time with a rounding rule in between) also serves OpenVINO's
``bilinear_pillow``/``bicubic_pillow`` on integer images.
"""

from __future__ import annotations

import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import apply as _apply
from . import coordinates as _coordinates
from . import dtypes as _dtypes
from . import kernels as _kernels
from . import weights as _weights

#: ``jax_resize.resize`` methods for ``PIL.Image.Resampling`` NEAREST, BOX, BILINEAR, HAMMING,
#: BICUBIC and LANCZOS.
PIL_METHODS = ("pil_nearest", "pil_box", "pil_bilinear", "pil_hamming", "pil_bicubic", "pil_lanczos")


def pillow_kernel(method: str, cubic_coeff_a: float | None = None) -> _kernels.Kernel:
    """The kernel of a ``pil_*`` filter method (support = ``kernel.radius``)."""
    if method == "pil_box":
        return _kernels.BOX
    if method == "pil_bilinear":
        return _kernels.TRIANGLE
    if method == "pil_hamming":
        return _kernels.PIL_HAMMING
    if method == "pil_bicubic":
        return _kernels.pillow_bicubic(-0.5 if cubic_coeff_a is None else float(cubic_coeff_a))
    if method == "pil_lanczos":
        return _kernels.PIL_LANCZOS
    raise ValueError(f"method={method!r} is not a Pillow filter; allowed: {PIL_METHODS[1:]}.")


def pillow_axis(axis: int, in_size: int, out_size: int, kernel: _kernels.Kernel, *,
                fixed_point: bool = False) -> _weights.AxisResample:
    """One axis of Pillow's two-pass resampling as an :class:`AxisResample` (taps)."""
    center, scale = _coordinates.pillow_centers(in_size, out_size)
    taps = _weights.pillow_taps(center, scale, in_size, kernel, fixed_point=fixed_point)
    return _weights.axis_resample(axis, in_size, "taps", taps)


def pillow_pass_order(changed: list[int], in_shape, out_shape) -> list[int]:
    """The order in which Pillow 13 runs the passes over the ``changed`` axes (ascending).

    With two axes ``(h, w)`` (an image's rows and columns) Pillow 13.0.0's 8-bit path runs the
    vertical pass first iff ``out_h < in_h and 2 * (out_w - in_w) > out_h - in_h``, otherwise the
    horizontal one (found empirically, see ``docs/notes/openvino_pillow_semantics.md``). Any other
    number of axes runs from the last axis to the first.
    """
    if len(changed) == 2:
        h, w = changed
        if out_shape[h] < in_shape[h] and 2 * (out_shape[w] - in_shape[w]) > out_shape[h] - in_shape[h]:
            return [h, w]
        return [w, h]
    return sorted(changed, reverse=True)


def _round(y, rounding: str):
    if rounding == "half_up":
        return jnp.floor(y + 0.5)
    return jnp.sign(y) * jnp.floor(jnp.abs(y) + 0.5)  # half away from zero


@functools.partial(jax.jit, static_argnames=("rounding", "lo", "hi"))
def _round_clip(y, *, rounding: str, lo: float, hi: float):
    return jnp.clip(_round(y, rounding), lo, hi)


_MANTISSA = 24  # float32 holds every integer below 2**24 exactly


@functools.partial(jax.jit, static_argnames=("axis", "b"))
def _fixed_point_combine(s, *, axis: int, b: int):
    """``clip((2**21 + sh * 2**b + sl) >> 22, 0, 255)`` from the stacked exact partial sums."""
    bits = _weights.PILLOW_PRECISION_BITS
    sh, sl = jnp.split(s, 2, axis=axis)
    step = float(1 << (bits - b))
    q = jnp.floor(sh / step)
    rh = sh - q * step  # in [0, 2**(22 - b)), so rh * 2**b < 2**22
    one = float(1 << bits)
    ql = jnp.floor(sl / one)
    rl = sl - ql * one
    out = q + ql + jnp.floor((rh * float(1 << b) + rl + one / 2) / one)  # every term < 2**24
    return jnp.clip(out, 0.0, 255.0)


def _fixed_point_pass(y, op: _weights.AxisResample, precision, strategy):
    """One pass of Pillow's 8-bit fixed point, exactly, with float32 contractions.

    ``y`` holds integers in ``[0, 255]`` and ``op`` weights ``k / 2**22`` (``pillow_taps`` with
    ``fixed_point=True``). Pillow computes ``(2**21 + sum(y * k)) >> 22`` in int32; ``y * k`` needs
    up to 30 bits, so each integer weight is split as ``k = kh * 2**b + kl`` (``0 <= kl < 2**b``)
    with ``b`` chosen so that the partial sums ``sum(y * kl)`` stay below 2**24 (exact in
    float32 whatever the summation order; ``sum(y * kh)`` too while a row has fewer than about
    780 taps), and the shift is recombined from exact pieces. Both partial sums come from one
    contraction whose output axis stacks the ``kh`` and ``kl`` rows. Returns the clipped result
    (float, integer-valued).
    """
    bits = _weights.PILLOW_PRECISION_BITS
    k = np.rint(np.asarray(op.tap_weight) * float(1 << bits)).astype(np.int64)
    b = int(np.clip(np.floor(np.log2((2.0**_MANTISSA - 1) / (255.0 * max(k.shape[1], 1)))), 0, bits))
    kh = np.floor_divide(k, 1 << b)
    kl = k - kh * (1 << b)
    stacked = op.replace(tap_index=np.concatenate([op.tap_index, op.tap_index]),
                         tap_weight=np.concatenate([kh, kl]).astype(np.float64))
    s = _apply.run(y, [stacked], precision=precision, strategy=strategy)
    return _fixed_point_combine(s, axis=op.axis, b=b)


def _passes(x, ops, rounding, precision, strategy):
    info = np.iinfo(x.dtype)
    y = x.astype(_dtypes.compute_dtype(x.dtype))
    for op in ops:
        if rounding == "fixed_point" and op.tap_weight is not None:
            y = _fixed_point_pass(y, op, precision, strategy)
            continue
        y = _apply.run(y, [op], precision=precision, strategy=strategy)
        y = _round_clip(y, rounding="half_up" if rounding == "fixed_point" else rounding,
                        lo=float(info.min), hi=float(info.max))
    return _dtypes.to_output(y, x.dtype)


_COMPILED: collections.OrderedDict = collections.OrderedDict()
_COMPILED_MAX = 64


def _op_key(op: _weights.AxisResample):
    arrays = (op.index, op.tap_index, op.tap_weight, op.outside)
    return (op.axis, op.in_size) + tuple(
        None if a is None else (np.asarray(a).shape, np.asarray(a).dtype.str, np.asarray(a).tobytes()) for a in arrays)


def run_passes(x, ops, *, rounding: str, precision=lax.Precision.HIGHEST, strategy: str = "auto"):
    """Applies filter operators one at a time to an integer ``x``, rounding between passes.

    After each pass the values are rounded and clipped to the dtype's range, so the intermediate
    is an integer image as in Pillow and in OpenVINO's ``*_pillow`` modes:

    * ``"fixed_point"``: Pillow's 8-bit arithmetic, bit exact (``uint8`` input, weights from
      ``pillow_taps(..., fixed_point=True)``): ``(2**21 + sum(x * k)) >> 22``, clipped;
    * ``"half_up"``: ``floor(y + 0.5)``;
    * ``"half_away"``: half away from zero (Pillow's ``'I'`` mode, OpenVINO's reference).

    The whole chain is compiled once per (operators, dtype, shape) and cached, so repeated calls
    cost one dispatch.

    Returns:
      Array of ``x``'s (integer) dtype.
    """
    x = jnp.asarray(x)
    if not all(isinstance(op.tap_weight, np.ndarray) or op.index is not None for op in ops):
        return _passes(x, ops, rounding, precision, strategy)  # traced weights: no cache key
    key = (tuple(_op_key(op) for op in ops), rounding, str(precision), strategy)
    fn = _COMPILED.get(key)
    if fn is None:
        fn = jax.jit(functools.partial(_passes, ops=ops, rounding=rounding, precision=precision, strategy=strategy))
        _COMPILED[key] = fn
        while len(_COMPILED) > _COMPILED_MAX:
            _COMPILED.popitem(last=False)
    else:
        _COMPILED.move_to_end(key)
    return fn(x)


def pil_resize(image, shape, method: str, *, cubic_coeff_a: float | None = None,
               precision=lax.Precision.HIGHEST, strategy: str = "auto"):
    """``PIL.Image.resize(size, resample)`` on a jax/numpy array (see the module docstring).

    ``image`` and ``shape`` are validated by the caller (:func:`.jax_image.resize`); every axis
    whose length changes is resampled, so an ``[H, W]`` or ``[H, W, C]`` array behaves like the
    PIL image ``Image.fromarray(image)`` resized to ``(W_out, H_out)``.

    Returns:
      Array of ``shape`` and ``image``'s dtype.
    """
    image = jnp.asarray(image)
    dtype = np.dtype(image.dtype)
    changed = [a for a in range(image.ndim) if image.shape[a] != shape[a]]
    for a in changed:
        if image.shape[a] == 0:
            raise ValueError(f"cannot resize axis {a} of length 0 to length {shape[a]}.")
    if any(shape[a] == 0 for a in changed):
        return jnp.zeros(shape, dtype)
    order = pillow_pass_order(changed, image.shape, shape)
    if method == "pil_nearest":
        ops = [_weights.axis_resample(a, image.shape[a], "gather",
                                      _coordinates.pillow_nearest_indices(image.shape[a], shape[a]))
               for a in order]
        return _apply.run(image, ops, strategy=strategy)
    kernel = pillow_kernel(method, cubic_coeff_a)
    fixed_point = dtype == np.uint8
    ops = [pillow_axis(a, image.shape[a], shape[a], kernel, fixed_point=fixed_point) for a in order]
    if dtype.kind in "iu":
        return run_passes(image, ops, rounding="fixed_point" if fixed_point else "half_away",
                          precision=precision, strategy=strategy)
    if dtype.kind == "b":
        raise TypeError(f"image has dtype bool, which only method='pil_nearest' can resize; got {method!r}.")
    return _apply.run(image, ops, precision=precision, strategy=strategy)
