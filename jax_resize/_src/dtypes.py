"""Dtype policy: which float type computes a resize, and how results return to the input dtype.

Contract:
  * float16 / bfloat16 / float32 and 8/16-bit integers compute in float32; float64 and
    32/64-bit integers in float64 when ``jax_enable_x64`` is on (else float32); complex inputs
    resample their real and imaginary parts in the matching real type.
  * Integer results are rounded half to even and saturated to the dtype's range (the ONNX
    reference evaluator's ``saturate_cast`` since onnx 1.19); float results are cast.
  * bool is accepted for gathers (nearest) only.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

_SUPPORTED_KINDS = "biufc"


def check_dtype(dtype, *, name: str = "X") -> np.dtype:
    """Returns ``dtype`` as a numpy dtype, or raises TypeError for unsupported types (e.g. strings)."""
    dtype = np.dtype(dtype)
    if dtype.kind not in _SUPPORTED_KINDS and dtype.name != "bfloat16":
        raise TypeError(
            f"{name} has dtype {dtype}, which cannot be resized; allowed: bool (nearest only), "
            f"int8-int64, uint8-uint64, float16, bfloat16, float32, float64, complex64, complex128."
        )
    return dtype


def compute_dtype(dtype) -> np.dtype:
    """The real float type used to compute a filtered (non-gather) resize of ``dtype``."""
    dtype = np.dtype(dtype)
    wide = jax.config.jax_enable_x64 and (dtype.itemsize >= 8 if dtype.kind in "fc" else dtype.itemsize >= 4)
    if dtype.kind == "c":
        wide = jax.config.jax_enable_x64 and dtype.itemsize >= 16
    return np.dtype(np.float64 if wide else np.float32)


def _largest_below(bound: float, dtype) -> float:
    """The largest value of float ``dtype`` strictly below ``bound``."""
    return float(np.nextafter(dtype.type(bound), dtype.type(-np.inf)))


def to_output(y, dtype):
    """Casts a float result ``y`` to ``dtype``: round half to even + saturate for integers."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        return y.astype(dtype)
    info = np.iinfo(dtype)
    ftype = np.dtype(y.dtype)
    y = jnp.round(y)  # half to even
    hi = float(info.max) + 1.0  # a power of two: exact in every float type
    # Clip below `hi` to a value that converts exactly, then saturate the rest.
    clipped = jnp.clip(y, float(info.min), _largest_below(hi, ftype)).astype(dtype)
    return jnp.where(y >= hi, jnp.asarray(info.max, dtype), clipped)


def scalar_as(value: float, dtype):
    """``extrapolation_value`` expressed in ``dtype`` (rounded and saturated for integers)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.bool_(value != 0)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(np.clip(np.round(value), info.min, info.max))
    return np.asarray(value).astype(dtype)
