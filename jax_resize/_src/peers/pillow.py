"""Peer: Pillow's resampling (``PIL.Image.resize``, ``Image.reduce``) on the core layers.

An ``[H, W(, C)]`` array behaves like ``Image.fromarray(array, mode)`` (:mod:`.pillow_modes`);
each axis whose length or ``box`` edges change is one pass of ``Image.resize``: Resample.c's
centres, NEAREST walk and clipped window (:mod:`..clipped_windows`), kernels in its own evaluation
order, its integer rules and alpha (:func:`pil_resize`) and its pass order (:func:`pass_order`;
earlier releases' rules in :mod:`.pillow_releases`). :func:`resample_axes` also serves
``jax_resize.resize``'s ``pil_*`` methods.
"""

from __future__ import annotations

import enum
import math
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from .. import clipped_windows as _windows
from .. import dtypes as _dtypes
from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import rounding as _rounding
from .. import validation as _v
from ..execution import apply as _apply
from . import pillow_modes as _modes
from . import pillow_releases as _releases

#: ``jax_resize.resize``'s methods of the ``PIL.Image.Resampling`` filters.
METHODS = (
    "pil_nearest",
    "pil_box",
    "pil_bilinear",
    "pil_hamming",
    "pil_bicubic",
    "pil_lanczos",
    "pil_mks2013",
    "pil_mks2021",
)


class Resampling(enum.IntEnum):
    """Pillow's resampling filters, with ``PIL.Image.Resampling``'s names and values. An ``int``
    subclass: ``3``, ``Resampling.BICUBIC`` and ``PIL.Image.Resampling.BICUBIC`` are interchangeable
    as :func:`pil_resize`'s ``resample``. Each: its filter, radius at scale 1 (times the scale when
    shrinking), and the :func:`jax_resize.resize` method:

    * ``NEAREST = 0``: nearest neighbour, no filter (``floor`` of the centre); ``"pil_nearest"``.
    * ``LANCZOS = 1``: Lanczos windowed sinc, ``sinc(x) * sinc(x / 3)``, radius 3;
      ``"pil_lanczos"``.
    * ``BILINEAR = 2``: triangle (linear), radius 1; ``"pil_bilinear"``.
    * ``BICUBIC = 3``: Keys cubic with ``a = -0.5``, radius 2; ``"pil_bicubic"``.
    * ``BOX = 4``: box (mean of the covered pixels), radius 0.5; ``"pil_box"``.
    * ``HAMMING = 5``: Hamming windowed sinc, radius 1; ``"pil_hamming"``.
    * ``MKS2013 = 6``: Costella's Magic Kernel Sharp 2013, piecewise quadratic, radius 2.5;
      ``"pil_mks2013"`` (Pillow 13).
    * ``MKS2021 = 7``: Costella's Magic Kernel Sharp 2021, piecewise quadratic, radius 4.5;
      ``"pil_mks2021"`` (Pillow 13).

    Example:
      >>> Resampling.BICUBIC == 3, Resampling(3).name
      (True, 'BICUBIC')
      >>> import numpy as np
      >>> pil_resize(np.zeros((4, 6), np.uint8), (3, 2), Resampling.LANCZOS).shape
      (2, 3)
    """

    NEAREST = 0
    LANCZOS = 1
    BILINEAR = 2
    BICUBIC = 3
    BOX = 4
    HAMMING = 5
    MKS2013 = 6
    MKS2021 = 7


NEAREST, LANCZOS, BILINEAR, BICUBIC, BOX, HAMMING, MKS2013, MKS2021 = (
    Resampling.NEAREST,
    Resampling.LANCZOS,
    Resampling.BILINEAR,
    Resampling.BICUBIC,
    Resampling.BOX,
    Resampling.HAMMING,
    Resampling.MKS2013,
    Resampling.MKS2021,
)
_METHOD = {
    NEAREST: "pil_nearest",
    BOX: "pil_box",
    BILINEAR: "pil_bilinear",
    HAMMING: "pil_hamming",
    BICUBIC: "pil_bicubic",
    LANCZOS: "pil_lanczos",
    MKS2013: "pil_mks2013",
    MKS2021: "pil_mks2021",
}
_SUPPORT = {NEAREST: 0.0, BOX: 0.5, BILINEAR: 1.0, HAMMING: 1.0, BICUBIC: 2.0, LANCZOS: 3.0, MKS2013: 2.5, MKS2021: 4.5}
#: Pillow's fixed-point precision for 8-bit images (``PRECISION_BITS = 32 - 8 - 2``).
PRECISION_BITS = 22
#: Integer policies: the 8-bit modes (fixed point, bit exact) and mode ``'I'``.
UINT8_POLICY = _rounding.IntegerPolicy(rounding="half_up", fixed_point_bits=PRECISION_BITS)
INT_POLICY = _rounding.IntegerPolicy(rounding="half_away", per_pass=True)


# --- kernels in Resample.c's order, on scaled distances (stretch 1); cubic and Lanczos: kernels ---


def _hamming(xp, d):
    # Pillow writes 0.54 and 0.46 as C float literals: their float32 values
    x = xp.abs(d)
    px = x * math.pi
    safe = xp.where(x == 0, 1.0, px)
    w = xp.sin(safe) / safe * (float(np.float32(0.54)) + float(np.float32(0.46)) * xp.cos(safe))
    return xp.where(x == 0, 1.0, xp.where(x >= 1.0, 0.0, w))


HAMMING_KERNEL = _kernels.Kernel("pillow_hamming", 1.0, _kernels.scaled(_hamming))


def kernel(method: str, cubic_coeff_a: float | None = None) -> _kernels.Kernel:
    """The kernel of a ``pil_*`` filter method (support = ``kernel.radius``)."""
    kernels = {
        "pil_box": _kernels.BOX,
        "pil_bilinear": _kernels.TRIANGLE,
        "pil_hamming": HAMMING_KERNEL,
        "pil_lanczos": _kernels.LANCZOS3_SINC_PRODUCT,
        "pil_mks2013": _kernels.MKS2013,  # Resample.c evaluates Costella's pieces in their written order
        "pil_mks2021": _kernels.MKS2021,
    }
    if method == "pil_bicubic":
        return _kernels.keys_cubic_factored(-0.5 if cubic_coeff_a is None else float(cubic_coeff_a))
    if method not in kernels:
        raise ValueError(f"method={method!r} is not a Pillow filter; allowed: {METHODS[1:]}.")
    return kernels[method]


def quantized(taps: _records.Taps) -> _records.Taps:
    """Pillow's 8-bit coefficients: ``k = trunc(w * 2**22 +- 0.5)`` (away from zero), ``k / 2**22``."""
    return taps.map_weights(lambda w: _rounding.quantize_weights(w, PRECISION_BITS))


def pass_order(changed: list[int], in_shape, out_shape, version: str = "13") -> list[int]:
    """Pillow 13's pass order over the ``changed`` axes (ascending): for ``(h, w)`` the vertical pass
    first iff ``out_h < in_h and 2 * (out_w - in_w) > out_h - in_h`` (found empirically,
    ``docs/notes/openvino_pillow_semantics.md``), else the horizontal; other counts last axis first.
    ``version="12"`` / ``"11"``: that release's (:func:`.pillow_releases.order`)."""
    if len(changed) == 2:
        h, w = changed
        if version != "13":
            return _releases.order(version, h, w, in_shape, out_shape)
        if out_shape[h] < in_shape[h] and 2 * (out_shape[w] - in_shape[w]) > out_shape[h] - in_shape[h]:
            return [h, w]
        return [w, h]
    return sorted(changed, reverse=True)


# --- resampling ----------------------------------------------------------------------------------


def _x64() -> bool:
    return bool(jax.config.jax_enable_x64)  # type: ignore[attr-defined]


def _split_weights(weight: np.ndarray):
    """``weight = high + low`` (exactly): ``high`` keeps the top 29 significant bits of each
    float64, ``low`` the other 24, so that ``x * high`` and ``x * low`` are exact in float64 for
    any float32 ``x`` or integer ``|x| < 2**24``."""
    weight = np.ascontiguousarray(weight, np.float64)
    high = (weight.view(np.int64) & ~np.int64((1 << 24) - 1)).view(np.float64)
    return high, weight - high


def _double_pass(y, axis: int, taps: _records.Taps) -> jax.Array:
    """Pillow's 32-bit pass in float64: ``ss += x[j] * k[j]`` over the taps in order, each product
    rounded before it is added: ``x * high + x * low``, two exact products, for ``|x| < 2**24`` (no
    fused multiply-add can skip that rounding); ``x * k`` for larger ``'I'`` values, which is
    Pillow's product wherever XLA does not fuse it into the sum (its CPU does not). Returns the
    float64 sums."""
    high, low = _split_weights(taps.weight)
    x = jnp.moveaxis(jnp.asarray(y), axis, 0)
    x = _dtypes.widen_float32(x) if x.dtype == jnp.float32 else x.astype(jnp.float64)  # subnormals kept
    shape = (-1,) + (1,) * (x.ndim - 1)
    total = jnp.zeros((taps.index.shape[0],) + x.shape[1:], jnp.float64)
    for j in range(taps.index.shape[1]):
        v = jnp.take(x, taps.index[:, j], axis=0, mode="clip")
        term = v * high[:, j].reshape(shape) + v * low[:, j].reshape(shape)
        if taps.weight.size and np.dtype(y.dtype).kind in "iu" and np.dtype(y.dtype).itemsize >= 4:
            term = jnp.where(jnp.abs(v) < 2.0**24, term, v * jnp.asarray(taps.weight[:, j]).reshape(shape))
        total = total + jnp.where((taps.weight[:, j] != 0).reshape(shape), term, 0.0)
    return jnp.moveaxis(total, 0, axis)


def _mode_pass(y, axis: int, taps: _records.Taps, rule: str, precision, strategy: str, version="13") -> jax.Array:
    """One pass of the 32-bit modes (``'F'``, ``'I'``) and ``'I;16'``, rounded to the mode's pixels:
    float32 for F; ``ROUND_UP`` (half away from zero) and saturation for I and I;16 (``[0, 65535]``;
    ``version="11"``: :func:`.pillow_releases.store_i16`). Bit exact in float64
    (``jax_enable_x64``); otherwise accumulated in float32."""
    if rule == "I;16" and version == "11":
        if _x64():
            return _releases.store_i16(_double_pass(y, axis, taps))
        return _releases.store_i16(_apply.run(y, [(axis, taps)], precision=precision, strategy=strategy, dtype="f4"))
    if _x64():
        total = _double_pass(y, axis, taps)
        if rule == "F":
            return _dtypes.narrow_float64(total)
        return _rounding.to_output(total, y.dtype, "half_away")
    policy = _rounding.FINAL_HALF_EVEN if rule == "F" else INT_POLICY
    return _apply.run(y, [(axis, taps)], precision=precision, strategy=strategy, integer=policy)


def _rule(dtype, mode: str | None) -> str | None:
    """How the filters treat the pixels: ``'F'``, ``'I'``, ``'I;16'`` (Pillow's 32-bit and 16-bit
    paths, pass by pass), or ``None`` (uint8: the 8-bit path; other dtypes: their own rule)."""
    if mode in ("F", "I", "I;16"):
        return mode
    if mode is None:  # an array without a Pillow mode: each channel as the 2-D mode of its dtype
        return {np.dtype(np.float32): "F", np.dtype(np.int32): "I", np.dtype(np.uint16): "I;16"}.get(np.dtype(dtype))
    return None


def resample_axes(
    image,
    out_shape,
    method: str,
    changed,
    edges,
    *,
    rule: str | None = None,
    cubic_coeff_a=None,
    precision=lax.Precision.HIGHEST,
    strategy: str = "auto",
    version: str = "13",
):
    """Resamples the ``changed`` axes of ``image`` to ``out_shape`` like ``Image.resize``;
    ``edges[axis]`` is the box's ``(in0, in1)`` on that axis, or ``None``; ``rule`` as
    :func:`_rule` (``None``: by dtype, one :func:`..apply.run`); ``version``: the Pillow release
    (:mod:`.pillow_releases`): its pass order (:func:`pass_order`) and ``'I;16'`` store."""
    dtype = np.dtype(image.dtype)
    order = pass_order(changed, image.shape, out_shape, version)
    if method == "pil_nearest":
        walk = rule != "I;16"
        ops = [
            (
                a,
                _records.Gather(
                    _windows.nearest_indices(image.shape[a], out_shape[a], edges[a], walk=walk), image.shape[a]
                ),
            )
            for a in order
        ]
        return _apply.run(image, ops, strategy=strategy)
    k = kernel(method, cubic_coeff_a)
    taps = [(a, _windows.axis_taps(image.shape[a], out_shape[a], k, edges[a])) for a in order]
    if rule is None and version == "11" and dtype == np.uint16:
        rule = "I;16"  # resize's pil11_* methods: Pillow 11's 'I;16' store
    if rule is not None:
        y = image
        for a, t in taps:
            y = _mode_pass(y, a, t, rule, precision, strategy, version)
        return y
    policy = _rounding.FINAL_HALF_EVEN
    if dtype == np.uint8:
        taps, policy = [(a, quantized(t)) for a, t in taps], UINT8_POLICY
    elif dtype.kind in "iu":
        policy = INT_POLICY
    return _apply.run(image, taps, precision=precision, strategy=strategy, integer=policy)


# --- Image.resize with box and reducing_gap -------------------------------------------------------


def _safe_box(size, resample, box, in_wh):
    """Pillow's ``Image._get_safe_box``: the integer box the filter can read, for ``reduce``."""
    support = _SUPPORT[resample] - 0.5
    sx = (box[2] - box[0]) / size[0] * support
    sy = (box[3] - box[1]) / size[1] * support
    return (
        max(0, int(box[0] - sx)),
        max(0, int(box[1] - sy)),
        min(in_wh[0], math.ceil(box[2] + sx)),
        min(in_wh[1], math.ceil(box[3] + sy)),
    )


def _block_taps(size: int, factor: int, *, mean: bool):
    """Taps summing (or averaging) ``[0, size)`` in blocks of ``factor``; a shorter last block
    uses what it has. Also returns the block sizes ``[n_out]``."""
    n_out = -(-size // factor)
    starts = factor * np.arange(n_out)
    index = np.minimum(starts[:, None] + np.arange(factor)[None, :], size - 1)
    count = np.minimum(size - starts, factor)
    valid = np.arange(factor)[None, :] < count[:, None]
    weight = np.where(valid, 1.0 / count[:, None] if mean else 1.0, 0.0)
    return _records.Taps(index.astype(np.int32), weight, size), count


def _reduce_8bit(image, fx: int, fy: int) -> jax.Array:
    """Block means of the cropped uint8 ``image`` by Pillow's 8-bit rule ``((sum + n // 2) * (2**24 //
    n)) >> 24`` (exact: integer block sums below 2**24, products within uint32)."""
    h, w = image.shape[:2]
    (taps_y, ny), (taps_x, nx) = _block_taps(h, fy, mean=False), _block_taps(w, fx, mean=False)
    sums = _apply.run(jnp.asarray(image, jnp.float32), [(0, taps_y), (1, taps_x)])
    n = (ny[:, None] * nx[None, :]).reshape(ny.size, nx.size, *([1] * (image.ndim - 2)))
    return _rounding.fixed_point_mean(sums, n, image.dtype)


def _block_sums(region, by: int, bx: int, grouped: bool, wide):
    """Sums of the ``by x bx`` blocks of ``region`` (``[ny * by, nx * bx, ...]``) -> ``[ny, nx, ...]``.
    ``grouped``: Pillow's full blocks (2x2 quads ``((a + b) + c) + d``, pairs in an odd last column
    or row, the odd corner), each partial sum in the pixels' type before it joins the ``wide``
    total; else pixel by pixel (partial edge blocks). Exact, hence order-free, within ``wide``."""
    r = region.reshape(region.shape[0] // by, by, region.shape[1] // bx, bx, *region.shape[2:])
    if not grouped:
        return jnp.sum(r.astype(wide), axis=(1, 3))
    terms = []
    if by >= 2 and bx >= 2:
        rows0, rows1 = r[:, 0 : by - 1 : 2], r[:, 1:by:2]
        quads = ((rows0[:, :, :, 0 : bx - 1 : 2] + rows0[:, :, :, 1:bx:2]) + rows1[:, :, :, 0 : bx - 1 : 2]) + rows1[
            :, :, :, 1:bx:2
        ]
        terms.append(jnp.sum(quads.astype(wide), axis=(1, 3)))
    if bx % 2 and by >= 2:
        terms.append(jnp.sum((r[:, 0 : by - 1 : 2, :, bx - 1] + r[:, 1:by:2, :, bx - 1]).astype(wide), axis=1))
    if by % 2 and bx >= 2:
        terms.append(jnp.sum((r[:, by - 1, :, 0 : bx - 1 : 2] + r[:, by - 1, :, 1:bx:2]).astype(wide), axis=2))
    if by % 2 and bx % 2:
        terms.append(r[:, by - 1, :, bx - 1].astype(wide))
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def _reduce_32bit(image, fx: int, fy: int) -> jax.Array:
    """Block means of the cropped ``image`` by Pillow's 32-bit rule: ``ss * (1.0 / n)`` of double
    block sums (:func:`_block_sums`), stored as float (F) or ``ROUND_UP`` (half away from zero);
    full blocks, then the partial last column, last row and corner, each with its own ``n``."""
    dtype = np.dtype(image.dtype)
    wide = jnp.float64 if _x64() else jnp.float32
    h, w = image.shape[:2]
    ny, nx, ry, rx = h // fy, w // fx, h % fy, w % fx

    def mean(region, by, bx, grouped):
        return _block_sums(region, by, bx, grouped, wide) * (1.0 / (by * bx))

    rows = [mean(image[: ny * fy, : nx * fx], fy, fx, True)]
    if rx:
        rows[0] = jnp.concatenate([rows[0], mean(image[: ny * fy, nx * fx :], fy, rx, False)], axis=1)
    if ry:
        last = mean(image[ny * fy :, : nx * fx], ry, fx, False)
        if rx:
            last = jnp.concatenate([last, mean(image[ny * fy :, nx * fx :], ry, rx, False)], axis=1)
        rows.append(last)
    out = rows[0] if len(rows) == 1 else jnp.concatenate(rows, axis=0)
    if dtype.kind in "iu":
        return _rounding.to_output(out, dtype, "half_away")
    return out.astype(dtype)


def _reduce(image, factor, box) -> jax.Array:
    """``Image.reduce(factor, box)``: block means over ``box`` (8-bit rule for uint8, the 32-bit
    rule otherwise)."""
    (fx, fy), (x0, y0, x1, y1) = factor, box
    image = image[y0:y1, x0:x1]
    if np.dtype(image.dtype) == np.uint8:
        return _reduce_8bit(image, fx, fy)
    return _reduce_32bit(image, fx, fy)


def pil_resize(
    image: ArrayLike,
    size,
    resample: int | None = BICUBIC,
    box=None,
    reducing_gap: float | None = None,
    *,
    mode: str | None = None,
    pillow_version: str = "13",
) -> jax.Array:
    """``PIL.Image.fromarray(image, mode).resize(size, resample, box, reducing_gap)`` in JAX:
    ``[H, W(, C)]`` -> ``[height, width(, C)]``.

    Each resampled axis is Pillow's window (:func:`..clipped_windows.clipped_window_taps`) around
    its centres ``in0 + (o + 0.5) * (in1 - in0) / out``; NEAREST picks ``floor(center)``.

    Modes (``mode=None`` infers them as ``Image.fromarray`` does, :func:`.pillow_modes.array_modes`):

    * 8-bit (uint8): ``'L'``, ``'RGB'``, ``'LA'``, ``'RGBA'`` ... — 22-bit fixed point, each pass
      rounded and clipped to uint8. ``'LA'``/``'RGBA'`` (inferred for 2 and 4 channels) resample
      premultiplied, except with NEAREST (:func:`.pillow_modes.premultiply`, resample, back);
      ``mode='RGBX'``, ``'CMYK'``, ``'RGBa'``, ``'La'``, ``'PA'`` resample channels independently
      (``'LAB'``: a* and b* as signed bytes). ``'P'`` and ``'1'`` (bool) always use NEAREST.
    * ``'I'`` (int8/int16/int32/uint32, or uint16 with ``mode='I'``; returns int32): each pass
      rounded half away from zero. ``'I;16'`` (uint16): the same, clipped to ``[0, 65535]``.
    * ``'F'`` (float32/float64; returns float32): each pass stored as float32.

    ``'F'``, ``'I'`` and ``'I;16'`` are bit exact with ``jax_enable_x64`` (Pillow's double sums,
    float32 subnormals included), except ``'I'`` results beyond int32, which saturate where
    Pillow's C cast is undefined (x86 gives ``-2**31``). Without x64 the sums are float32: ``'F'``
    within ~1e-6 of the largest value, subnormals flushed to 0 (XLA's CPU) and partial sums past
    3.4e38 overflowing to inf; ``'I;16'`` within 1; ``'I'`` within a bound derived pass by pass: a
    pass whose outputs read ``n`` taps with ``sum |w| <= W`` is off Pillow's double sum by at most
    ``(n + 2) * 2**-24 * W * max|input| + W * D`` (to first order: float32 weights, inputs and
    products, ``n - 1`` additions in any order; ``D``: its input's difference), and rounding adds
    1 (1.5 from ``|value| >= 2**23``); ``reducing_gap``'s block means are one more pass (``W`` =
    1). That is within 2 for two passes of up to 16 taps below ``2**17``, and thousands near
    ``+-2**31``. An array
    with no Pillow mode keeps its dtype, channels resampled independently (float32 as ``'F'``,
    int32 as ``'I'``, uint16 as ``'I;16'``, uint8 as ``'L'``, others in their own dtype).

    ``pillow_version="12"`` gives Pillow 12.3's bits instead of 13's, with the same exactness: the
    horizontal pass first (vertical first for an image over 100 times taller than wide whose
    height shrinks), and ``LA``/``RGBA`` filtered without ``reducing_gap``
    (:mod:`.pillow_releases`); also 12.2's in every mode but ``'I;16'``. ``pillow_version="11"``
    gives Pillow 11.0-12.1's bits, with the same exactness: the horizontal pass first whenever the
    width changes, ``LA``/``RGBA`` without ``reducing_gap``, and ``'I;16'`` passes storing a value
    above 65535 as ``0xFF00 | (value & 0xFF)`` (without x64 within 1, but up to 255 where a pass's
    float32 sum crosses 65535.5); and 10.1-10.4's in every mode, but for ``'I;16'`` only with
    ``NEAREST``: 10.x refuses its other filters (``'image has wrong mode'``).

    Args:
      image: ``[H, W]`` or ``[H, W, C]``.
      size: ``(width, height)`` of the output, ints >= 1 (Pillow's order).
      resample: a :class:`Resampling` value, ``NEAREST`` (0) to ``MKS2021`` (7, Pillow 13's Magic
        Kernel Sharp filters ``MKS2013`` = 6 and ``MKS2021`` = 7 included); default (and ``None``,
        as in Pillow) ``BICUBIC``.
      box: ``(x0, y0, x1, y1)`` source region in pixels (floats allowed); default the whole image.
      reducing_gap: ``None`` or a float >= 1: first reduce by an integer factor with block means
        while the remaining scale stays >= ``reducing_gap`` (faster, slightly different).
      mode: a Pillow mode string for the array (:data:`.pillow_modes.PIL_MODES`), or ``None`` to infer it.
      pillow_version: ``"13"`` (default), ``"12"`` (12.3) or ``"11"`` (10.1-12.1): the Pillow
        release whose bits to give.

    Returns:
      ``[height, width(, C)]``: the mode's pixels (uint8; int32 for ``'I'``, uint16 for
      ``'I;16'``, float32 for ``'F'``, bool for ``'1'``), or ``image``'s dtype without a mode.

    Raises:
      ValueError: rank not 2 or 3, a size < 1, unknown resample, box outside the image, reversed
        or not finite (Pillow computes with a NaN box), reducing_gap < 1, a mode that is unknown
        or does not fit the array's shape and dtype, reducing_gap that reduces a ``'I;16'`` image
        (Pillow cannot), a ``pillow_version`` other than ``"13"``, ``"12"``, ``"11"``, an ``MKS*``
        filter with ``"12"`` or ``"11"`` (Pillow 10.1-12.3 have none).
      TypeError: as Pillow: ``size`` not two ints (bools refused too, which Pillow reads as 1),
        ``box`` not four real numbers, a float ``resample``; a traced ``size`` or ``box``.

    Example:
      >>> import numpy as np
      >>> pil_resize(np.zeros((30, 40, 3), np.uint8), (20, 15), BILINEAR).shape
      (15, 20, 3)
      >>> rgba = np.array([[[255, 0, 0, 255], [0, 0, 255, 0]]], np.uint8)  # red, transparent blue
      >>> np.asarray(pil_resize(rgba, (1, 1), BILINEAR)).tolist()  # the transparent pixel adds no blue
      [[[255, 0, 0, 128]]]

    Source: Pillow ``Image.resize`` / ``Image.reduce`` / ``Image.fromarray`` (``src/PIL/Image.py``),
    ``src/libImaging/Resample.c`` (``precompute_coeffs``), ``Reduce.c``, ``Convert.c``.
    """
    shape = np.shape(image)
    if len(shape) not in (2, 3):
        raise ValueError(f"image must be [H, W] or [H, W, C]; got shape {shape}.")
    resample, version = release_filter(resample, pillow_version)
    width, height = _size(size)
    out_shape = _frontend.output_size((height, width) + tuple(shape[2:]), "size")
    in_h, in_w = shape[:2]
    box = (0.0, 0.0, float(in_w), float(in_h)) if box is None else _box(box)
    if (
        not all(math.isfinite(b) for b in box)
        or box[0] < 0
        or box[1] < 0
        or box[2] > in_w
        or box[3] > in_h
        or box[2] < box[0]
        or box[3] < box[1]
    ):
        raise ValueError(f"box={box!r} must be (x0, y0, x1, y1) with 0 <= x0 <= x1 <= {in_w}, 0 <= y0 <= y1 <= {in_h}.")
    if reducing_gap is not None and not reducing_gap >= 1.0:
        raise ValueError(f"reducing_gap={reducing_gap!r} must be None or >= 1.0.")
    image, dtype = _frontend.prologue("image", image)
    mode = _modes.image_mode(shape, dtype, mode)
    if mode in _modes.MODE_DTYPE:
        image = image.astype(_modes.MODE_DTYPE[mode])  # the pixels Image.fromarray stores
    if box == (0.0, 0.0, float(in_w), float(in_h)) and (width, height) == (in_w, in_h):
        return image  # Pillow returns a copy
    empty = _frontend.empty_output(out_shape, image.dtype)
    if empty is not None:  # no channels: no axis's weights
        return empty
    if mode in ("1", "P"):
        resample = NEAREST  # Pillow's rule for bilevel and palette images
    if mode in _modes.ALPHA_MODES and resample != NEAREST:
        gap = _releases.alpha_reducing_gap(version, reducing_gap)
        return _modes.unpremultiply(
            _resize_box(_modes.premultiply(image), (width, height), resample, box, gap, mode, version)
        )
    if mode == "LAB":  # Pillow stores a* and b* (signed in the array) offset by 128: its raw unpacker
        flip = jnp.array([0, 128, 128], jnp.uint8)  # flips their top bit, and its packer flips it back
        return _resize_box(image ^ flip, (width, height), resample, box, reducing_gap, mode, version) ^ flip
    return _resize_box(image, (width, height), resample, box, reducing_gap, mode, version)


def release_filter(resample, pillow_version) -> tuple[Resampling, str]:
    """``(resample, version)`` checked (:func:`_resample`, :func:`.pillow_releases.version`): a filter
    of that release (Pillow 10.1-12.3 have no MKS)."""
    resample = _resample(resample)
    version = _releases.version(pillow_version)
    if version != "13" and resample > HAMMING:
        name = f"resample={int(resample)} ({resample.name})"
        allowed = ", ".join(f"{r.name}={r.value}" for r in Resampling if r <= HAMMING)
        raise ValueError(f"{name} is not a Pillow {version} filter (allowed: {allowed}); use pillow_version='13'.")
    return resample, version


def filter_method(resample: Resampling) -> str:
    """``jax_resize.resize``'s ``pil_*`` method of the filter ``resample`` (``BICUBIC`` -> ``"pil_bicubic"``)."""
    return _METHOD[resample]


def _resample(resample) -> Resampling:
    """``Image.resize``'s ``resample``: ``None`` is BICUBIC (Pillow's default); an int 0-7."""
    if resample is None:
        return BICUBIC
    if isinstance(resample, (bool, np.bool_, float, np.floating)):  # Pillow: "cannot be interpreted as an integer"
        kind = type(resample).__name__
        raise TypeError(f"resample={resample!r} must be an Image.Resampling value (an int), not {kind}.")
    if resample not in _METHOD:
        allowed = ", ".join(f"{r.name}={r.value}" for r in Resampling)
        raise ValueError(f"resample={resample!r} is not supported; allowed: {allowed}.")
    return Resampling(int(resample))


def _entries(name: str, value, length: int, kind: type, what: str) -> tuple:
    """``value`` as Pillow's argument parser reads it: a static sequence of ``length`` entries of
    ``kind`` (``numbers.Integral`` or ``numbers.Real``; bools refused), else a ``TypeError`` (its
    "argument must be sequence of length ..."); ``what`` describes it in the message."""
    if _v.is_traced(value):
        raise TypeError(f"{name} must be static because it fixes the weights; got a traced value.")
    try:
        entries = tuple(value)
    except TypeError:
        raise TypeError(f"{name}={value!r} must be {what}.") from None
    if len(entries) != length:
        raise TypeError(f"{name}={entries!r} must be {what}: a sequence of length {length}, not {len(entries)}.")
    for e in entries:
        if isinstance(e, (bool, np.bool_)) or not isinstance(e, kind):
            raise TypeError(f"{name}={entries!r} must be {what}; {e!r} is not one.")
    return entries


def _size(size) -> tuple[int, int]:
    """``(width, height)``: two ints (:func:`_entries`), each > 0 (``ValueError``)."""
    width, height = _entries("size", size, 2, numbers.Integral, "(width, height), two ints")
    if min(width, height) < 1:
        raise ValueError(f"size={size!r} must be >= 1 in both dimensions (Pillow: height and width must be > 0).")
    return int(width), int(height)


def _box(box) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)``: four real numbers (:func:`_entries`), as floats."""
    x0, y0, x1, y1 = _entries("box", box, 4, numbers.Real, "(x0, y0, x1, y1), four real numbers")
    return float(x0), float(y0), float(x1), float(y1)


def _resize_box(image, size, resample, box, reducing_gap, mode, version="13") -> jax.Array:
    """``Image.resize`` after the mode handling: ``reduce`` for ``reducing_gap``, then the passes."""
    (width, height), (in_h, in_w) = size, image.shape[:2]
    if reducing_gap is not None and resample != NEAREST:
        fx = int((box[2] - box[0]) / width / reducing_gap) or 1
        fy = int((box[3] - box[1]) / height / reducing_gap) or 1
        if fx > 1 or fy > 1:
            if mode == "I;16":
                raise ValueError(
                    f"reducing_gap={reducing_gap!r} reduces this image by {(fx, fy)}, and Pillow cannot reduce "
                    "mode 'I;16' images ('image has wrong mode'); use reducing_gap=None, or mode='I'."
                )
            rbox = _safe_box((width, height), resample, box, (in_w, in_h))
            image = _reduce(image, (fx, fy), rbox)
            box = ((box[0] - rbox[0]) / fx, (box[1] - rbox[1]) / fy, (box[2] - rbox[0]) / fx, (box[3] - rbox[1]) / fy)
            in_h, in_w = image.shape[:2]
    out_shape = (height, width) + tuple(image.shape[2:])
    edges = {0: (box[1], box[3]), 1: (box[0], box[2])}
    full = {0: (0.0, float(in_h)), 1: (0.0, float(in_w))}
    # Pillow skips a pass when the axis keeps its length and the box covers it exactly
    changed = [a for a in (0, 1) if out_shape[a] != image.shape[a] or edges[a] != full[a]]
    rule = _rule(image.dtype, mode)
    return resample_axes(image, out_shape, _METHOD[resample], changed, edges, rule=rule, version=version)
