"""Flax layers around :func:`jax_resize.resize`: ``Resize`` (``flax.nnx``) and ``LinenResize``.

Needs ``flax`` (``pip install "jax_resize[flax]"``); ``import jax_resize`` does not import it.
"""

from __future__ import annotations

import inspect
import math
import numbers

import jax
from jax.typing import ArrayLike

try:
    from flax import linen as _linen
    from flax import nnx as _nnx
except ImportError as error:  # pragma: no cover - exercised only without flax
    raise ImportError(
        'jax_resize.flax needs flax (>= 0.10); install it with `pip install "jax_resize[flax]"` or `pip install flax`.'
    ) from error

from jax_resize._src import frontend as _frontend
from jax_resize._src import resize as _resize
from jax_resize._src import validation as _v

__all__ = ["LinenResize", "Resize", "output_shape"]


def output_shape(input_shape, size=None, scale=None) -> tuple[int, ...]:
    """The layers' output shape for a channels-last ``input_shape`` ``[N, *spatial, C]``: the spatial
    lengths ``size``, or ``floor(length * scale)`` (as ONNX Resize, TensorFlow and PyTorch).

    Raises:
      ValueError: rank < 3, both or neither of ``size``/``scale``, wrong counts, sizes < 0,
        scales <= 0 or non-finite.
      TypeError: non-integer sizes, non-numeric scales.

    Example:
      >>> output_shape((2, 15, 20, 3), scale=1.5)
      (2, 22, 30, 3)
    """
    input_shape = tuple(input_shape)
    if len(input_shape) < 3:
        raise ValueError(f"input must be channels-last [N, *spatial, C] with rank >= 3; got shape {input_shape}.")
    spatial = input_shape[1:-1]
    if (size is None) == (scale is None):
        raise ValueError(f"give exactly one of size and scale; got size={size!r}, scale={scale!r}.")
    if size is not None:
        out = _v.per_axis("size", size, len(spatial), integer=True, positive=False, where=" (one per spatial axis)")
    else:
        scales = _v.per_axis("scale", scale, len(spatial), integer=False, where=" (one per spatial axis)")
        lengths = (_v.finite_length(f"scale={scale!r}", n * float(s)) for n, s in zip(spatial, scales))
        out = tuple(int(math.floor(length)) for length in lengths)
    return (input_shape[0], *(int(s) for s in out), input_shape[-1])


class _ConstructorSignature:
    """A class's ``__signature__``: ``__init__`` without ``self``, not ``flax.nnx``'s metaclass
    ``__call__(*args, **kwargs)``; ``None`` on instances (``layer.__call__``'s signature)."""

    def __get__(self, instance, owner) -> inspect.Signature | None:
        if instance is not None:
            return None
        signature = inspect.signature(owner.__init__, eval_str=True)
        return signature.replace(parameters=list(signature.parameters.values())[1:])


class Resize(_nnx.Module):
    """Resizes the spatial axes of ``[N, *spatial, C]`` input with :func:`jax_resize.resize`.

    ``y = jax_resize.resize(x, (N, *out_spatial, C), method, antialias, precision, **options)``
    with ``out_spatial = size`` or ``floor(in_spatial * scale)``. Differentiable with respect to
    ``x``; no parameters.

    Args:
      size: output spatial lengths (an int for every axis, or one per axis), or
      scale: a factor (one, or one per axis); exactly one of the two.
      method: any :func:`jax_resize.resize` method (default ``"linear"``).
      antialias: as in :func:`jax_resize.resize` (default ``True``: only affects downsampling).
      precision: ``lax.Precision`` of the contractions (default: ``resize``'s, HIGHEST).
      **options: keywords of :func:`jax_resize.resize` (``strategy``), of
        :func:`jax_resize.resize_with_onnx_attributes` (``cubic_coeff_a`` ...) or, with ``pil_*``,
        :func:`jax_resize.resize_with_pillow_filter` (``alpha``): that function is called.

    Call: ``layer(x)``, ``x`` ``[N, *spatial, C]``; returns ``[N, *out_spatial, C]`` of
    :func:`jax_resize.resize`'s dtype (ints promote to float except for nearest).

    Raises:
      ValueError / TypeError: bad ``size``/``scale`` at construction; at call time, input of
        rank < 3 and anything :func:`jax_resize.resize` rejects.

    Example:
      >>> import jax.numpy as jnp
      >>> from jax_resize.flax import Resize
      >>> Resize(scale=2, method="cubic")(jnp.ones((1, 8, 8, 3))).shape
      (1, 16, 16, 3)
    """

    __signature__ = _ConstructorSignature()

    def __init__(self, size=None, scale=None, *, method="linear", antialias: bool = True, precision=None, **options):
        if (size is None) == (scale is None):
            raise ValueError(f"give exactly one of size and scale; got size={size!r}, scale={scale!r}.")
        self.size = size if size is None or isinstance(size, numbers.Number) else tuple(size)
        self.scale = scale if scale is None or isinstance(scale, numbers.Number) else tuple(scale)
        self.method = method
        self.antialias = bool(antialias)
        self.precision = precision
        self.options = tuple(sorted(options.items()))  # static, hashable

    def __call__(self, x: ArrayLike) -> jax.Array:
        return _apply(x, self.size, self.scale, self.method, self.antialias, self.precision, dict(self.options))


class LinenResize(_linen.Module):
    """``flax.linen`` version of :class:`Resize` (same arguments as fields; ``options`` a dict).

    Example:
      >>> import jax, jax.numpy as jnp
      >>> layer = LinenResize(size=(5, 7), method="linear")
      >>> layer.apply({}, jnp.ones((2, 10, 14, 1))).shape
      (2, 5, 7, 1)
    """

    size: object = None
    scale: object = None
    method: str = "linear"
    antialias: bool = True
    precision: object = None
    options: dict | None = None

    @_linen.compact
    def __call__(self, x: ArrayLike) -> jax.Array:
        return _apply(x, self.size, self.scale, self.method, self.antialias, self.precision, dict(self.options or {}))


def _apply(x, size, scale, method, antialias, precision, options):
    shape = output_shape(x.shape, size=size, scale=scale)
    _frontend.output_size(shape, "size" if size is not None else "scale")
    if precision is not None:
        options["precision"] = precision
    # the options' own function: resize, resize_with_onnx_attributes or resize_with_pillow_filter
    function, args, kwargs = _resize.split_call(method, antialias, options)
    return function(x, shape, *args, **kwargs)
