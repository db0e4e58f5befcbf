"""Dtype policy: which float type computes a resize, and how results return to the input dtype.

Contract:
  * float16 / bfloat16 / float32 and 8/16-bit integers compute in float32; float64 and
    32/64-bit integers in float64 when ``jax_enable_x64`` is on (else float32); complex inputs
    resample their real and imaginary parts in the matching real type.
  * How integer results are rounded is the integer policy of :mod:`.rounding`.
  * bool is accepted for gathers (nearest) only.
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


def compute_dtype(dtype) -> np.dtype:
    """The real float type used to compute a filtered (non-gather) resize of ``dtype``."""
    dtype = np.dtype(dtype)
    x64 = bool(jax.config.jax_enable_x64)  # type: ignore[attr-defined]
    if dtype.kind == "c":
        wide = x64 and dtype.itemsize >= 16
    else:
        wide = x64 and (dtype.itemsize >= 8 if dtype.kind == "f" else dtype.itemsize >= 4)
    return np.dtype(np.float64 if wide else np.float32)
