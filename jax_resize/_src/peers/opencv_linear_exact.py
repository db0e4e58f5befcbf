"""Peer part of :mod:`.opencv`: ``INTER_LINEAR_EXACT`` (``resize_bitExact``) bit for bit on int8,
16-bit and int32 images, in 32-bit integers (no ``jax_enable_x64``).

Contract: OpenCV's fixed point (``fixedpoint.inl.hpp``) with ``F`` fraction bits
(:data:`FRACTION_BITS`): ``H = a0 p[i0] + a1 p[i1]`` along a row (exact), ``V = b0 H[j0] + b1
H[j1]`` down a column, output ``floor((V + 2**(2F - 1)) / 2**(2F))``; int32 rounds each product
``H b`` to 32.32 half away from zero first. Weights: :func:`exact_linear_coefficients`. The wide
numbers are 16-bit digits in uint32 (plain ``jax.numpy``: ``jit``/``vmap``, no float arithmetic).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..execution import apply as _apply
from ..execution import ordered as _ordered

#: ``fixedtype<ET, false>``'s fraction bits; int64 images are int32 values (as OpenCV's binding)
FRACTION_BITS = {"uint8": 8, "int8": 16, "uint16": 16, "int16": 16, "int32": 32, "int64": 32}
#: added to reach ``[0, 65535]`` (the weights sum to ``2**16``: exact)
_OFFSET = {"int8": 128, "uint16": 0, "int16": 32768}
_DIGIT = 0xFFFF


def exact_linear_coefficients(in_size: int, out_size: int, inv_scale: float, bits: int = 8):
    """``interpolationLinear``'s ``(index, weight)`` ``[out, 2]``: ``f = (o + 0.5) / inv - 0.5``,
    ``c = rint(frac(f) * 2**bits)``, ``(2**bits - c, c)``; outside the image (or a 1-pixel axis)
    the edge pixel with ``2**bits``. Weights int32 (int64 for 32 bits)."""
    f = (np.arange(out_size) + 0.5) * (1.0 / float(inv_scale)) - 0.5
    i = np.floor(f)
    inner = (i >= 0) & (i < in_size - 1) & (in_size > 1)
    c1 = np.where(inner, np.rint((f - i) * float(1 << bits)), 0).astype(np.int64)
    i = np.clip(i, 0, in_size - 1).astype(np.int64)
    index = np.stack([i, np.minimum(i + 1, in_size - 1)], axis=1)
    return index, np.stack([(1 << bits) - c1, c1], axis=1).astype(np.int64 if bits > 16 else np.int32)


def _pair(v, axis: int, index) -> tuple:
    """``(v[index[:, 0]], v[index[:, 1]])`` along ``axis``."""
    g = jnp.take(v, jnp.asarray(index, jnp.int32), axis=axis)
    pick = (slice(None),) * axis
    return g[pick + (slice(None), 0)], g[pick + (slice(None), 1)]


def _along(w, axis: int, ndim: int) -> jax.Array:
    """A weight column ``[out]`` as uint32, shaped to broadcast along ``axis`` of a rank-``ndim`` image."""
    return jnp.asarray(w, jnp.uint32).reshape((-1,) + (1,) * (ndim - axis - 1))


def _taps(v, axis: int, index, weight) -> jax.Array:
    """``v[index[:, 0]] * weight[:, 0] + v[index[:, 1]] * weight[:, 1]`` along ``axis``, uint32."""
    g0, g1 = _pair(v, axis, index)
    return g0 * _along(weight[:, 0], axis, v.ndim) + g1 * _along(weight[:, 1], axis, v.ndim)


def _sixteen(x, rows, cols, *, offset: int) -> jax.Array:
    """16.16: ``H = a . (p + offset) < 2**32``; ``V = b . H < 2**48`` from ``A = b . (H >> 16)``
    and ``B = b . (H & 0xFFFF)``: ``(V + 2**31) >> 32 = (A >> 16) + ((A & 0xFFFF) + (B >> 16) +
    2**15 >> 16)``."""
    h = _taps((x.astype(jnp.int32) + offset).astype(jnp.uint32), 1, *cols)
    a, b = _taps(h >> 16, 0, *rows), _taps(h & _DIGIT, 0, *rows)
    y = (a >> 16) + (((a & _DIGIT) + (b >> 16) + 0x8000) >> 16)
    return y.astype(jnp.int32) - offset


# --- 32.32 (int32): little-endian 16-bit digits in uint32 arrays --------------------------------


def _digits(columns, n: int) -> list:
    """Column sums (each below ``2**32``) carried into ``n`` digits (mod ``2**(16 n)``)."""
    out, carry = [], 0
    for k in range(n):
        s = (columns[k] if k < len(columns) else 0) + carry
        out.append(s & _DIGIT)
        carry = s >> 16
    return out


def _product(pairs, n: int) -> list:
    """``sum a * b`` over ``pairs`` of digit lists mod ``2**(16 n)`` (digit products split in halves)."""
    columns = [0] * (n + 1)
    for a, b in pairs:
        for i, ai in enumerate(a):
            for j, bj in enumerate(b):
                if i + j < n:
                    p = ai * bj
                    columns[i + j] = columns[i + j] + (p & _DIGIT)
                    columns[i + j + 1] = columns[i + j + 1] + (p >> 16)
    return _digits(columns, n)


def _negated(d, negative) -> list:
    """``-d`` where ``negative``, else ``d`` (mod ``2**(16 len(d))``)."""
    neg = _digits([(~d[0] & _DIGIT) + 1] + [~v & _DIGIT for v in d[1:]], len(d))
    return [jnp.where(negative, m, v) for m, v in zip(neg, d)]


def _thirty_two(x, rows, cols) -> jax.Array:
    """32.32 (``fixedpoint64``): ``H = a . (p + 2**31) - 2**63``; each ``R = sign(H) * ((|H| b +
    2**31) >> 32)``; the top 32 bits of ``R0 + R1 + 2**31`` (mod ``2**64``). Weights: 3 digits."""
    q = jax.lax.bitcast_convert_type(x.astype(jnp.int32), jnp.uint32) ^ jnp.uint32(1 << 31)
    (ci, cw), (ri, rw) = cols, rows
    digits = [
        [_along(w[:, tap, k], axis, x.ndim) for k in range(3)] for w, axis in ((cw, 1), (rw, 0)) for tap in (0, 1)
    ]
    h = _product([([g & _DIGIT, g >> 16], digits[t]) for t, g in enumerate(_pair(q, 1, ci))], 4)
    h[3] = h[3] ^ 0x8000  # H in two's complement
    negative = h[3] >= 0x8000
    magnitude = _negated(h, negative)
    total = [0] * 4
    for tap in range(2):
        p = _product([([_pair(d, 0, ri)[tap] for d in magnitude], digits[2 + tap])], 6)
        p = _digits([p[0], p[1] + 0x8000] + p[2:], 6)[2:]
        r = _negated(p, _pair(negative, 0, ri)[tap])
        total = _digits([u + v for u, v in zip(total, r)], 4)
    total = _digits([total[0], total[1] + 0x8000] + total[2:], 4)
    return jax.lax.bitcast_convert_type((total[3] << 16) | total[2], jnp.int32)


def _as_digits(weight) -> np.ndarray:
    """Weights ``[out, 2]`` (``<= 2**32``) as three 16-bit digits ``[out, 2, 3]`` uint32."""
    w = np.asarray(weight, np.int64)
    return np.stack([w & _DIGIT, (w >> 16) & _DIGIT, w >> 32], axis=-1).astype(np.uint32)


def _run(x, rows, cols, *, dtype: str) -> jax.Array:
    if FRACTION_BITS[dtype] == 32:
        return _thirty_two(x, rows, cols)
    return _sixteen(x, rows, cols, offset=_OFFSET[dtype])


def resize(x, dtype, out_hw, inv) -> jax.Array:
    """``resize_bitExact`` of ``x`` (``[H, W(, C)]``, any integer dtype but uint8) to ``out_hw``
    with inverse scales ``inv = (inv_y, inv_x)``; of ``x``'s dtype. A pipeline's window
    (:func:`.apply.window_of`) cuts the tables to its outputs."""
    dtype = np.dtype(dtype).name
    bits = FRACTION_BITS[dtype]
    tables = []
    for axis in (0, 1):
        index, weight = exact_linear_coefficients(int(x.shape[axis]), out_hw[axis], inv[axis], bits)
        window = _apply.window_of(axis, out_hw[axis])
        weight = _as_digits(weight) if bits == 32 else weight.astype(np.uint32)
        tables.append((index[window], weight[window]))
    return _ordered.program(_run)(x, *tables, dtype=dtype).astype(x.dtype)
