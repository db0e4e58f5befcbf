"""Dtype policy: the float type that computes a resize of each input dtype.

float16/bfloat16/float32 and 8/16-bit integers compute in float32; float64 and 32/64-bit integers
in float64 under ``jax_enable_x64`` (else float32); complex resamples its real and imaginary parts
in the matching real type; bool is for gathers (nearest) only. Integer rounding: :mod:`.rounding`.
"""

from __future__ import annotations

import jax
import numpy as np

_SUPPORTED_KINDS = "biufc"


def dtype_of(value) -> np.dtype:
    """The dtype of an array-like without converting a jax/numpy array (lists go through numpy)."""
    dtype = getattr(value, "dtype", None)
    return np.dtype(dtype if dtype is not None else np.asarray(value).dtype)


def check_dtype(dtype, *, name: str = "X") -> np.dtype:
    """Returns ``dtype`` as a numpy dtype, or raises TypeError for unsupported types (e.g. strings)."""
    dtype = np.dtype(dtype)
    if dtype.kind not in _SUPPORTED_KINDS and dtype.name != "bfloat16":
        raise TypeError(
            f"{name} has dtype {dtype}, which cannot be resized; allowed: bool (nearest only), "
            f"int8-int64, uint8-uint64, float16, bfloat16, float32, float64, complex64, complex128."
        )
    return dtype


def as_array(value) -> jax.Array:
    """``value`` as a jax array without compiling anything for a new shape: jax arrays and tracers
    as they are; numeric numpy arrays by :func:`jax.device_put` (``jnp.asarray``'s dtypes, without
    its copy program compiled per shape); anything else through ``jnp.asarray``."""
    if isinstance(value, (jax.Array, jax.core.Tracer)):
        return value
    if isinstance(value, np.ndarray) and value.dtype.kind in _SUPPORTED_KINDS:
        if not value.dtype.isnative:  # byte-swapped (big-endian files): jax takes native order only
            value = value.astype(value.dtype.newbyteorder("="))
        return jax.device_put(value)
    import jax.numpy as jnp

    return jnp.asarray(value)


def compute_dtype(dtype) -> np.dtype:
    """The real float type used to compute a filtered (non-gather) resize of ``dtype``."""
    dtype = np.dtype(dtype)
    x64 = bool(jax.config.jax_enable_x64)  # type: ignore[attr-defined]
    if dtype.kind == "c":
        wide = x64 and dtype.itemsize >= 16
    else:
        wide = x64 and (dtype.itemsize >= 8 if dtype.kind == "f" else dtype.itemsize >= 4)
    return np.dtype(np.float64 if wide else np.float32)


# XLA's CPU runs with denormals flushed to zero: a float32 subnormal read by a convert becomes 0,
# and a float64 value in float32's subnormal range converts to 0. These two conversions move the
# bits with integer operations instead, exact for every value (a peer that keeps subnormals).


def widen_float32(x):
    """``x`` (float32) as float64, subnormals included (their mantissa times ``2**-149``)."""
    import jax.numpy as jnp
    from jax import lax

    bits = lax.bitcast_convert_type(x, jnp.uint32)
    mantissa = (bits & np.uint32(0x7FFFFF)).astype(jnp.float64) * 2.0**-149  # float32's smallest subnormal
    tiny = (bits & np.uint32(0x7F800000)) == 0  # zero or subnormal
    return jnp.where(tiny, jnp.where(bits >> 31 == 1, -mantissa, mantissa), x.astype(jnp.float64))


def narrow_float64(y):
    """``y`` (float64) rounded to float32 (half to even), results in float32's subnormal range kept."""
    import jax.numpy as jnp
    from jax import lax

    magnitude = jnp.abs(y)
    units = jnp.round(magnitude * 2.0**149).astype(jnp.uint32)  # exact scaling; at most 2**23
    sign = jnp.where(jnp.signbit(y), np.uint32(0x80000000), np.uint32(0))
    tiny = lax.bitcast_convert_type(units | sign, jnp.float32)
    return jnp.where(magnitude < 2.0**-126, tiny, y.astype(jnp.float32))  # below float32's smallest normal
