"""The prologue every public front end runs before it builds any weights: the data input's dtype
and rank checked and the input converted to a jax array once (:func:`prologue`), the output held
to the size limit (:func:`output_size`), an empty output returned without weights
(:func:`empty_output`: a huge other axis would need them). ``apply.run`` repeats none of it.

What the pipelines ask of every front end is here too, so they reach the execution layer through
this layer only: a call computing one window of its output (:func:`output_window`) and the input
sizes whose eager calls share one program (:func:`shared_input_sizes`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterator

import jax
import jax.numpy as jnp
import numpy as np

from . import dtypes as _dtypes
from . import validation as _v
from .execution import apply as _apply
from .execution import decide as _decide
from .execution import tuning as _tuning


def prologue(
    name: str,
    value,
    *,
    mode: str | None = None,
    ranks: Collection[int] | None = None,
    min_rank: int = 0,
    layout: str = "",
    real: str | None = None,
    float32: bool = False,
) -> tuple[jax.Array, np.dtype]:
    """``(array, dtype)``: the data input ``value`` (argument ``name``) as a jax array, converted
    once with :func:`.dtypes.as_array`, and its dtype before conversion.

    ``mode``: bool input is refused unless it is ``"nearest"``; ``real``: complex and bool input
    are refused with this message (``{dtype}`` filled in); ``ranks`` / ``min_rank``: the allowed
    ranks, ``layout`` names them in the error; ``float32``: every value converted to float32 once,
    host arrays on the host (64-bit integers need no ``jax_enable_x64``).

    Raises:
      TypeError: an unsupported dtype (strings, objects), bool or complex where refused.
      ValueError: a rank outside ``ranks`` or below ``min_rank``.
    """
    dtype = _dtypes.check_dtype(_dtypes.dtype_of(value), name=name)
    if mode is not None and dtype.kind == "b" and mode != "nearest":
        raise TypeError(f"{name} has dtype bool, which only mode='nearest' can resize; got mode={mode!r}.")
    if real is not None and dtype.kind in "bc":
        raise TypeError(real.format(dtype=dtype))
    if not float32:
        array = _dtypes.as_array(value)
    elif isinstance(value, jax.Array) or _v.is_traced(value):
        array = jnp.asarray(value).astype(jnp.float32)
    else:
        array = _dtypes.as_array(np.asarray(value).astype(np.float32))
    if (ranks is not None and array.ndim not in ranks) or array.ndim < min_rank:
        raise ValueError(f"{name} must be {layout or f'of rank >= {min_rank}'}; got shape {array.shape}.")
    return array, dtype


def output_size(shape, argument: str) -> tuple[int, ...]:
    """``shape`` as ints; a ``ValueError`` naming ``argument`` when it has more elements than the
    limit (:func:`.validation.check_output_size`)."""
    shape = tuple(int(s) for s in shape)
    _v.check_output_size(shape, argument)
    return shape


def empty_output(shape, dtype) -> jax.Array | None:
    """``jnp.zeros(shape, dtype)`` when ``shape`` is empty (else ``None``): the result of an empty
    output, built without any axis's weights. ``dtype``: what the non-empty call would return."""
    shape = tuple(int(s) for s in shape)
    return jnp.zeros(shape, dtype) if 0 in shape else None


@contextlib.contextmanager
def output_window(windows: dict[int, tuple[int, int]]) -> Iterator[None]:
    """Inside this block every front end computes only outputs ``start..stop`` of each axis named in
    ``windows`` (``{axis: (start, stop)}``) that it resamples, as if its result were cropped: the
    program has the window's output shape, shared by every input size that fills it
    (:func:`.execution.apply.output_window` states the exactness)."""
    with _apply.output_window(windows):
        yield


def shared_input_sizes(sizes) -> tuple[int, ...]:
    """The input sizes the default backend's shared eager programs are compiled for: calls whose
    inputs give equal tuples can share programs (each size rounded up to the tuning row's grid,
    :func:`.execution.decide.bucket_size`); ``sizes`` themselves where the backend shares none."""
    row = _tuning.tuning_for(jax.default_backend())
    if row.bucket_ratio is None:
        return tuple(int(n) for n in sizes)
    return tuple(_decide.bucket_size(int(n), row) for n in sizes)
