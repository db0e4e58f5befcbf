"""Argument checks shared by every front end.

Contract: each check either returns a normalised, static (Python/numpy) value or raises a
``ValueError``/``TypeError`` whose message names the argument, repeats the value given and says
what is allowed. Nothing here touches traced values except to reject them where a static value
is required (sizes, scales and axes fix the output shape, so they must be known before tracing).
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Sequence

import jax
import numpy as np


def choice(name: str, value, allowed: Sequence[str]) -> str:
    """Returns ``value`` if it is one of ``allowed``; otherwise a ValueError suggesting the closest."""
    if isinstance(value, str) and value in allowed:
        return value
    msg = f"{name}={value!r} is not supported; allowed values: {', '.join(map(repr, allowed))}."
    if isinstance(value, str):
        close = difflib.get_close_matches(value, allowed, n=1, cutoff=0.5)
        if close:
            msg += f" Did you mean {close[0]!r}?"
    raise ValueError(msg)


def is_traced(value) -> bool:
    """True for JAX tracers (values only known at run time inside jit/vmap/grad)."""
    return isinstance(value, jax.core.Tracer)


def static_array(name: str, value, *, why: str = "they fix the output shape") -> np.ndarray | None:
    """Converts a static array-like to numpy; ``None`` or an empty array means absent (as in ONNX)."""
    if value is None:
        return None
    if is_traced(value):
        raise TypeError(
            f"{name} must be static (a Python sequence or numpy array known before tracing) because "
            f"{why}; got a traced value of shape {np.shape(value)}. Pass it as a concrete value, e.g. "
            f"close over it or mark it static with jax.jit(..., static_argnames=...)."
        )
    arr = np.asarray(value)
    if arr.size == 0:
        return None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape} ({value!r}).")
    return arr


def scales_array(scales, count: int) -> np.ndarray:
    """Validates ONNX ``scales``: ``count`` finite values > 0, returned as float64 of float32 values.

    ONNX declares ``scales`` as tensor(float), so the values are rounded to float32 first and then
    widened, exactly as the reference evaluator sees them.
    """
    arr = np.asarray(scales)
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"scales must be numbers; got dtype {arr.dtype} ({scales!r}).")
    if arr.shape != (count,):
        raise ValueError(
            f"scales must have {count} elements (one per resized axis); got {arr.size}: {arr.tolist()!r}."
        )
    bad = [float(s) for s in arr.astype(np.float64) if not (math.isfinite(s) and s > 0)]
    if bad:
        raise ValueError(f"scales must be finite and > 0; got {arr.tolist()!r} (bad: {bad!r}).")
    return arr.astype(np.float32).astype(np.float64)


def sizes_array(sizes, count: int) -> np.ndarray:
    """Validates ONNX ``sizes``: ``count`` non-negative integers, returned as int64."""
    arr = np.asarray(sizes)
    if arr.shape != (count,):
        raise ValueError(
            f"sizes must have {count} elements (one per resized axis); got {arr.size}: {arr.tolist()!r}."
        )
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)):
            raise ValueError(f"sizes must be integers; got {arr.tolist()!r}.")
    elif arr.dtype.kind not in "iu":
        raise TypeError(f"sizes must be integers; got dtype {arr.dtype} ({sizes!r}).")
    arr = arr.astype(np.int64)
    if np.any(arr < 0):
        raise ValueError(f"sizes must be >= 0; got {arr.tolist()!r}.")
    return arr


def axes_tuple(axes, rank: int) -> tuple[int, ...]:
    """Normalises ONNX ``axes`` (negative allowed, in [-rank, rank-1], no repeats); None means all."""
    if axes is None:
        return tuple(range(rank))
    if is_traced(axes):
        raise TypeError("axes must be static because they fix the output shape; got a traced value.")
    if isinstance(axes, numbers.Integral):
        axes = (axes,)
    out = []
    for a in list(np.asarray(axes).reshape(-1).tolist()) if not isinstance(axes, (list, tuple)) else axes:
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, numbers.Integral):
            raise TypeError(f"axes must be integers; got {axes!r}.")
        if not -rank <= a < rank:
            raise ValueError(f"axes={tuple(axes)!r}: axis {a} is out of range [{-rank}, {rank - 1}] for rank {rank}.")
        out.append(int(a) % rank)
    if len(set(out)) != len(out):
        raise ValueError(f"axes={tuple(axes)!r} repeats an axis (after normalising negatives: {out}).")
    return tuple(out)


def flag(name: str, value) -> bool:
    """An ONNX int attribute used as a boolean: 0/1 or False/True."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    raise ValueError(f"{name} must be 0 or 1 (or a bool); got {value!r}.")


def finite_float(name: str, value) -> float:
    if is_traced(value):
        raise TypeError(f"{name} must be a static Python float; got a traced value.")
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a float; got {value!r}.") from None
    if not math.isfinite(out) and name != "extrapolation_value":
        raise ValueError(f"{name} must be finite; got {value!r}.")
    return out


def shape_tuple(name: str, shape, rank: int) -> tuple[int, ...]:
    """Validates a full output shape (as in ``jax.image.resize``): ``rank`` non-negative ints."""
    if is_traced(shape):
        raise TypeError(f"{name} must be static because it fixes the output shape; got a traced value.")
    try:
        out = tuple(shape)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of {rank} integers; got {shape!r}.") from None
    if len(out) != rank:
        raise ValueError(f"{name}={out!r} must have length {rank} (the rank of the input).")
    for s in out:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, numbers.Integral) or s < 0:
            raise ValueError(f"{name}={out!r} must contain non-negative integers.")
    return tuple(int(s) for s in out)


def data_array(name: str, value, mode: str):
    """The data input as a jax array of rank >= 1, with its dtype checked (bool: nearest only).

    Raises:
      TypeError: unsupported dtype (strings, objects), or bool with a mode other than nearest.
      ValueError: a scalar.
    """
    import jax.numpy as jnp

    from . import dtypes as _dtypes

    dtype = _dtypes.check_dtype(getattr(value, "dtype", None) or np.asarray(value).dtype, name=name)
    if dtype.kind == "b" and mode != "nearest":
        raise TypeError(f"{name} has dtype bool, which only mode='nearest' can resize; got mode={mode!r}.")
    value = jnp.asarray(value)
    if value.ndim < 1:
        raise ValueError(f"{name} must have rank >= 1; got a scalar of shape {value.shape}.")
    return value
