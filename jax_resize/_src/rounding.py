"""Integer results: rounding rules, saturation, fixed-point weights and passes (:class:`IntegerPolicy`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

#: Registry of rounding rules to integers, ``rule(y) -> y`` on float arrays (jax or numpy).
ROUNDING_RULES: dict[str, Callable[[Any], Any]] = {
    "half_even": lambda y: jnp.round(y),
    "half_up": lambda y: jnp.floor(y + 0.5),
    "half_away": lambda y: jnp.sign(y) * jnp.floor(jnp.abs(y) + 0.5),
}


def half_up_exact(y):
    """``y`` rounded half up, exactly: ``floor(y) + (y - floor(y) >= 0.5)`` (``y - floor(y)`` is
    exact). C's ``roundf`` for ``y >= 0``. Not :data:`ROUNDING_RULES`' ``floor(y + 0.5)``, whose
    sum rounds first: ``0.49999997`` gives 1 there, and odd float32 values above ``2**23`` move."""
    low = jnp.floor(y)
    return low + (y - low >= 0.5)


@dataclasses.dataclass(frozen=True)
class IntegerPolicy:
    """How a filtered result returns to an integer dtype, always saturated to its range (ignored for
    float dtypes); static and hashable, run by the execution layer inside its jitted application.

    Attributes:
      rounding: a :data:`ROUNDING_RULES` name (``"half_even"``: the ONNX reference's ``saturate_cast``
        since onnx 1.19).
      per_pass: round and clip after every axis (an integer intermediate), not once at the end.
      fixed_point_bits: weights are integers ``k`` in units of ``2**-bits`` and each pass computes
        ``(2**(bits - 1) + sum(x * k)) >> bits`` exactly (int32 where the sums fit, else
        :func:`split_fixed_point` / :func:`combine_fixed_point`); implies ``per_pass``.
    """

    rounding: str = "half_even"
    per_pass: bool = False
    fixed_point_bits: int | None = None

    def __post_init__(self):
        if self.rounding not in ROUNDING_RULES:
            raise ValueError(f"rounding={self.rounding!r} is not registered; known: {', '.join(ROUNDING_RULES)}.")

    @property
    def passes(self) -> bool:
        """Whether every axis is its own pass, rounded before the next."""
        return self.per_pass or self.fixed_point_bits is not None


#: The default: one rounding half to even at the end, saturated.
FINAL_HALF_EVEN = IntegerPolicy()


def _largest_below(bound: float, dtype) -> float:
    """The largest value of float ``dtype`` strictly below ``bound``."""
    return float(np.nextafter(dtype.type(bound), dtype.type(-np.inf)))


def saturate(y, dtype):
    """Integer-valued float ``y`` cast to integer ``dtype``, saturating at its range."""
    dtype = np.dtype(dtype)
    info = np.iinfo(dtype)
    hi = float(info.max) + 1.0  # a power of two: exact in every float type
    # Clip below `hi` to a value that converts exactly, then saturate the rest.
    clipped = jnp.clip(y, float(info.min), _largest_below(hi, np.dtype(y.dtype))).astype(dtype)
    return jnp.where(y >= hi, jnp.asarray(info.max, dtype), clipped)


def round_clip(y, dtype, rounding: str):
    """``y`` rounded with ``rounding`` and clipped to integer ``dtype``'s range, still float."""
    info = np.iinfo(np.dtype(dtype))
    return jnp.clip(ROUNDING_RULES[rounding](y), float(info.min), float(info.max))


def to_output(y, dtype, rounding: str = "half_even"):
    """Float ``y`` cast to ``dtype``: rounded with ``rounding`` and saturated for integers."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        return y.astype(dtype)
    if jnp.issubdtype(y.dtype, jnp.integer):  # already integers (the int32 fixed-point path)
        info = np.iinfo(dtype)
        return jnp.clip(y, max(info.min, np.iinfo(y.dtype).min), min(info.max, np.iinfo(y.dtype).max)).astype(dtype)
    return saturate(ROUNDING_RULES[rounding](y), dtype)


def scalar_as(value: float, dtype):
    """A fill value expressed in ``dtype`` (rounded half to even and saturated for integers)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.bool_(value != 0)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(np.clip(np.round(value), info.min, info.max))
    return np.asarray(value).astype(dtype)


def quantize_weights(weight, bits: int, *, ties: str = "away") -> np.ndarray:
    """Weights quantised to ``k / 2**bits`` (float64): ``k = trunc(w * 2**bits +- 0.5)`` for
    ``ties="away"``, ``rint(w * 2**bits)`` for ``ties="even"``."""
    k = np.asarray(weight, np.float64) * float(1 << bits)  # worked in place from here (large plans)
    if ties == "even":
        np.rint(k, out=k)
    else:
        negative = k < 0
        np.subtract(k, 0.5, out=k, where=negative)
        np.add(k, 0.5, out=k, where=~negative)
        np.trunc(k, out=k)
    k /= float(1 << bits)
    return k


_MANTISSA = 24  # float32 holds every integer below 2**24 exactly


def split_fixed_point(weight: np.ndarray, bits: int, max_input: float):
    """Splits weights ``k / 2**bits`` as ``k = kh * 2**b + kl`` (``0 <= kl < 2**b``) so float32 sums
    them exactly: ``sum(x * kl) < 2**24`` for ``0 <= x <= max_input`` in any order (``sum(x * kh)``
    too while a row has fewer than about ``2**(24 - bits + b) / max_input`` taps). Returns
    ``(kh, kl, b)``, ``kh``/``kl`` float64 integer-valued ``[out, k]``."""
    k = np.rint(np.asarray(weight) * float(1 << bits)).astype(np.int64)
    taps = max(k.shape[1], 1)
    b = int(np.clip(np.floor(np.log2((2.0**_MANTISSA - 1) / (max(max_input, 1.0) * taps))), 0, bits))
    kh = np.floor_divide(k, 1 << b)
    kl = k - kh * (1 << b)
    return kh.astype(np.float64), kl.astype(np.float64), b


def combine_fixed_point(s, *, axis: int, b: int, bits: int, lo: float, hi: float):
    """``clip((2**(bits-1) + sh * 2**b + sl) >> bits, lo, hi)`` from the exact partial sums.

    ``s`` stacks ``sh = sum(x * kh)`` and ``sl = sum(x * kl)`` along ``axis`` (first and second
    half); every intermediate below stays under ``2**24``, so float32 computes it exactly.
    """
    sh, sl = jnp.split(s, 2, axis=axis)
    step = float(1 << (bits - b))
    q = jnp.floor(sh / step)
    rh = sh - q * step  # in [0, 2**(bits - b)), so rh * 2**b < 2**bits
    one = float(1 << bits)
    ql = jnp.floor(sl / one)
    rl = sl - ql * one
    out = q + ql + jnp.floor((rh * float(1 << b) + rl + one / 2) / one)
    return jnp.clip(out, lo, hi)


def fixed_point_mean(sums, counts, dtype, bits: int = 24):
    """Block means ``((sum + n // 2) * (2**bits // n)) >> bits`` in uint32, cast to ``dtype``;
    ``sums``: integer-valued float block sums (< ``2**24``), ``counts``: the block sizes ``n``."""
    n = np.asarray(counts)
    total = sums.astype(jnp.uint32) + (n // 2).astype(np.uint32)
    out = (total * ((1 << bits) // n).astype(np.uint32)) >> bits
    return to_output(out.astype(jnp.float32), dtype)
