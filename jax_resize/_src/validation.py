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


def namespace_for(pair):
    """``jax.numpy`` when a ``(start, end)`` roi pair holds a traced value (geometry built on the
    device, differentiable), else ``numpy`` (static geometry built on the host in float64)."""
    import jax.numpy as jnp

    return jnp if pair is not None and any(is_traced(v) for v in pair) else np


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
        raise ValueError(f"scales must have {count} elements (one per resized axis); got {arr.size}: {arr.tolist()!r}.")
    bad = [float(s) for s in arr.astype(np.float64) if not (math.isfinite(s) and s > 0)]
    if bad:
        raise ValueError(f"scales must be finite and > 0; got {arr.tolist()!r} (bad: {bad!r}).")
    with np.errstate(over="ignore", under="ignore"):
        rounded = arr.astype(np.float32)
    lost = [float(s) for s, r in zip(arr.astype(np.float64), rounded) if not (np.isfinite(r) and r > 0)]
    if lost:
        raise ValueError(
            f"scales must be finite and > 0 as float32 (a tensor(float)); got {arr.tolist()!r}, and {lost!r} "
            f"round to inf or 0 (float32 holds {float(np.finfo(np.float32).smallest_subnormal):.3g} to "
            f"{float(np.finfo(np.float32).max):.4g})."
        )
    return rounded.astype(np.float64)


def sizes_array(sizes, count: int) -> np.ndarray:
    """Validates ONNX ``sizes``: ``count`` non-negative integers, returned as int64."""
    arr = np.asarray(sizes)
    if arr.shape != (count,):
        raise ValueError(f"sizes must have {count} elements (one per resized axis); got {arr.size}: {arr.tolist()!r}.")
    python_ints = arr.dtype.kind == "O" and all(  # numpy keeps ints beyond 64 bits as objects
        isinstance(s, numbers.Integral) and not isinstance(s, (bool, np.bool_)) for s in arr.tolist()
    )
    beyond = (arr.dtype.kind == "u" and np.any(arr > np.iinfo(np.int64).max)) or (
        arr.dtype.kind == "f" and np.any(np.abs(arr) >= 2.0**63)  # e.g. [1, 2**63]: numpy makes it float64
    )
    if python_ints or beyond:  # beyond int64
        shown = list(sizes) if isinstance(sizes, (list, tuple)) else arr.tolist()
        raise ValueError(f"sizes must be integers in [0, 2**63); got {shown!r}.")
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
        if not -rank <= int(a) < rank:
            raise ValueError(f"axes={tuple(axes)!r}: axis {a} is out of range [{-rank}, {rank - 1}] for rank {rank}.")
        out.append(int(a) % rank)
    if len(set(out)) != len(out):
        raise ValueError(f"axes={tuple(axes)!r} repeats an axis (after normalising negatives: {out}).")
    return tuple(out)


def flag(name: str, value) -> bool:
    """An ONNX int attribute used as a boolean: 0/1 or False/True.

    Raises:
      TypeError: neither an int nor a bool; ValueError: an int other than 0 and 1.
    """
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be 0 or 1 (or a bool); got {value!r}.")
    raise TypeError(f"{name} must be 0 or 1 (or a bool); got {value!r} of type {type(value).__name__}.")


def boolean(name: str, value) -> bool:
    """An option typed ``bool`` by a peer: ``True``/``False`` (numpy's too), ``None`` read as
    ``False``.

    Raises:
      TypeError: anything else, ints included.
    """
    if value is None or isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be a bool; got {value!r} of type {type(value).__name__}.")


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


def int_sequence(
    name: str,
    value,
    *,
    length: int | None = None,
    max_length: int | None = None,
    minimum: int = 0,
    scalar: bool = False,
    what: str = "non-negative integers",
) -> tuple[int, ...]:
    """A static sequence of Python ints, each ``>= minimum``.

    Args:
      name: the argument's name (for messages).
      value: the value given.
      length: the exact length required, if any; ``max_length``: the most entries allowed (the
        rank of the input).
      minimum: the smallest allowed entry.
      scalar: accept a single int as a one-element sequence.
      what: what is allowed, for messages (``"{name}=VALUE: {name} must be {what}"``).

    Raises:
      TypeError: a traced value, a non-sequence, non-integer entries (bools included).
      ValueError: a wrong length, or an entry below ``minimum``.
    """
    if is_traced(value):
        raise TypeError(f"{name} must be static because it fixes the output shape; got a traced value.")
    if scalar and isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        value = (value,)
    try:
        out = tuple(value)
    except TypeError:
        raise TypeError(f"{name}={value!r}: {name} must be {what}.") from None
    if length is not None and len(out) != length:
        raise ValueError(f"{name}={out!r}: {name} must be {what} (length {length}, got {len(out)}).")
    if max_length is not None and len(out) > max_length:
        raise ValueError(f"{name}={out!r} has {len(out)} entries, more than the rank {max_length} of the input.")
    for s in out:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, numbers.Integral):
            raise TypeError(f"{name}={out!r}: {name} must be {what}; {s!r} is not an int.")
        if int(s) < minimum:
            raise ValueError(f"{name}={out!r}: {name} must be {what}; {s!r} < {minimum}.")
    return tuple(int(s) for s in out)


def per_axis(name: str, value, count: int, *, integer: bool, positive: bool = True, where: str = "") -> tuple:
    """One number (repeated) or a sequence of ``count`` numbers, as a tuple of ``count``.

    ``integer``: entries must be ints (``>= 1`` when ``positive``, else ``>= 0``); otherwise real
    numbers, finite and ``> 0``. ``where`` describes the axes in the length message.

    Raises:
      TypeError: a traced value, entries of the wrong type (bools included).
      ValueError: a sequence of the wrong length, or entries out of range.
    """
    if is_traced(value):
        raise TypeError(f"{name} must be static because it fixes the output shape; got a traced value.")
    sequence = isinstance(value, (list, tuple, np.ndarray))
    values = list(value) if sequence else [value]
    if sequence and len(values) != count:
        raise ValueError(
            f"{name}={tuple(values)!r} must be one number or {count}{where}: it must have {count} entries, "
            f"got {len(values)}."
        )
    values = values * count if len(values) == 1 else values
    kind = "int" if integer else "number"
    out: list[int | float] = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral if integer else numbers.Real):
            raise TypeError(f"{name}={value!r} must contain {kind}s: an {kind} or a sequence of {kind}s.")
        number = int(v) if integer else float(v)  # type: ignore[call-overload]
        if integer and (number < 1 if positive else number < 0):
            raise ValueError(f"{name}={value!r}: sizes must be {'> 0' if positive else '>= 0'}.")
        if not integer and not (math.isfinite(number) and number > 0):
            raise ValueError(f"{name}={value!r} must be finite and > 0.")
        out.append(number)
    return tuple(out)


def shape_tuple(name: str, shape, rank: int) -> tuple[int, ...]:
    """A full output shape (as in ``jax.image.resize``): ``rank`` non-negative ints (see
    :func:`int_sequence`)."""
    return int_sequence(name, shape, length=rank, what=f"{rank} non-negative integers (one per axis of the input)")


def check_empty_axes(in_sizes, out_sizes, axes) -> None:
    """An axis of length 0 can only be resized to length 0.

    Raises:
      ValueError: naming the axis and both lengths.
    """
    for n, o, a in zip(in_sizes, out_sizes, axes):
        if n == 0 and o != 0:
            raise ValueError(f"cannot resize axis {a} of length 0 to length {o}.")


def roi_pairs(roi, count: int) -> list:
    """ONNX ``roi`` ``[start_1..start_k, end_1..end_k]`` as ``count`` ``(start, end)`` pairs.

    ``None`` or an empty array means the whole input ``(0, 1)``. A traced ``roi`` stays traced
    (its pairs are traced scalars); a static one becomes float64.

    Raises:
      ValueError: a ``roi`` whose shape is not ``[2 * count]``.
    """
    if roi is None or (not is_traced(roi) and np.size(roi) == 0):
        return [(0.0, 1.0)] * count
    if np.shape(roi) != (2 * count,):
        raise ValueError(
            f"roi must have 2 * {count} = {2 * count} elements [starts..., ends...] for {count} resized "
            f"axes; got shape {np.shape(roi)}."
        )
    r = roi if is_traced(roi) else np.asarray(roi, dtype=np.float64)
    if not is_traced(roi) and not np.all(np.isfinite(r)):
        raise ValueError(f"roi must be finite; got {r.tolist()!r}.")
    return [(r[i], r[count + i]) for i in range(count)]


#: The default limit on the elements of one output: 2**31 (8 GiB of float32). A front end checks
#: its output shape against the limit before it builds any weights.
DEFAULT_MAX_OUTPUT_ELEMENTS = 2**31
_LIMIT = {"elements": DEFAULT_MAX_OUTPUT_ELEMENTS}


def max_output_elements() -> int:
    """The current limit on the elements of one output (see :func:`set_max_output_elements`).

    Returns:
      An int, by default ``DEFAULT_MAX_OUTPUT_ELEMENTS`` (``2**31``).

    Example:
      >>> import jax_resize
      >>> jax_resize.max_output_elements()
      2147483648
    """
    return _LIMIT["elements"]


def set_max_output_elements(limit: int) -> int:
    """Sets the limit on the elements of one output; returns the previous limit.

    Every front end refuses an output shape above it with a ``ValueError`` before building any
    weights (a mistyped scale would otherwise allocate terabytes). Process-wide.

    Args:
      limit: a positive int (elements, not bytes).

    Raises:
      ValueError: ``limit`` not a positive int.

    Example:
      >>> import jax_resize
      >>> previous = jax_resize.set_max_output_elements(10**10)
      >>> jax_resize.set_max_output_elements(previous)
      10000000000
    """
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or int(limit) < 1:
        raise ValueError(f"limit must be a positive int (output elements); got {limit!r}.")
    previous = _LIMIT["elements"]
    _LIMIT["elements"] = int(limit)
    return previous


def finite_length(argument: str, length: float | np.floating) -> float | np.floating:
    """``length``, an output length computed in floating point (e.g. ``in * scale``), if it is
    finite; a product that overflowed to inf is refused as above the limit.

    Raises:
      ValueError: naming ``argument`` (e.g. ``"scale_factor=1e+308"``).
    """
    if not math.isfinite(length):
        raise ValueError(
            f"{argument} asks for an output length of {float(length)} (beyond the float range), above the limit "
            f"of {_LIMIT['elements']:,} (jax_resize.set_max_output_elements raises it)."
        )
    return length


def check_plan_size(rows: int, taps, filter_name: str, stretch) -> None:
    """Raises ``ValueError`` when one axis's host weights (``rows`` outputs x ``taps`` per output)
    exceed the output limit: a filter stretched by a tiny scale reaches ``~1 / scale`` inputs per
    output, whatever the output length (``scale_and_translate``, ``weight_matrix(scale=...)``,
    edge-repeating windows).

    Raises:
      ValueError: naming the scale (``1 / stretch``), the filter and the weights' count.
    """
    total = rows * taps
    if total > _LIMIT["elements"]:
        raise ValueError(
            f"scale={1.0 / float(stretch):.6g} stretches the {filter_name} filter over {taps:,} taps per output: "
            f"{rows:,} x {taps:,} weights for one axis, above the limit of {_LIMIT['elements']:,} "
            "(jax_resize.set_max_output_elements raises it)."
        )


#: The longest axis an XLA array can have (dimensions are int64).
_MAX_AXIS = 2**63 - 1


def check_output_size(shape, argument: str) -> None:
    """Raises ``ValueError`` naming ``argument`` when ``shape`` has more elements than the limit, or
    (an empty output) an axis longer than an XLA dimension can be.

    ``shape``: ints (Python arithmetic: no overflow); ``argument``: the argument(s) that set it.
    """
    total, outer = 1, 1
    for s in shape:
        total *= int(s)
        outer *= int(s) if total else 1  # the positions before the first empty axis
    limit = _LIMIT["elements"]
    dims = "x".join(str(int(s)) for s in shape) if max(total, outer) > limit else ""
    if total > limit:
        raise ValueError(
            f"{argument} asks for an output of shape {dims} = {total:,} elements, above the limit of "
            f"{limit:,} (jax_resize.set_max_output_elements raises it)."
        )
    if outer > limit:  # XLA's CPU backend takes time per position before the first empty axis
        raise ValueError(
            f"{argument} asks for an empty output of shape {dims} with {outer:,} positions before its first "
            f"empty axis (building it takes time per position), above the limit of {limit:,} "
            "(jax_resize.set_max_output_elements raises it)."
        )
    longest = max((int(s) for s in shape), default=0)
    if longest > _MAX_AXIS:  # only an empty output gets here; XLA's dimensions are int64
        raise ValueError(
            f"{argument} asks for an empty output with an axis of {longest:,} samples, above the limit of "
            f"{_MAX_AXIS:,} (2**63 - 1) on any axis of an array."
        )
