"""Front end: a batch of zero-padded examples of many sizes, resized under one compilation.

Contract: ``resize_ragged(images, sizes, shape, method, antialias)`` equals, example by example,
``resize(images[i, :h_i, :w_i, ...], shape, method, antialias)`` (jax.image's rules; float32
rounding of device-computed weights), while ``sizes`` — the valid extents — are traced: one
compiled function serves every mix of sizes, and ``vmap``/``grad`` work through it.

How: each example's records are built on the device from its traced extent ``n``, with a static
window sized from the padded extent ``N`` (a filter is never stretched by more than
``max(1, N / out)``); taps at or beyond ``n`` count as outside the image (dropped or clamped, as
the method's boundary says), so the zero padding is never read.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from . import coordinates as _coordinates
from . import frontend as _frontend
from . import kernels as _kernels
from . import records as _records
from . import resize as _resize
from . import validation as _v
from .execution import apply as _apply
from .peers import jax_image as _jax_image

#: ``method`` values (the filters of :func:`jax_resize.resize` that do not reproduce Pillow).
RAGGED_METHODS = _jax_image.METHODS


def _check_sizes(sizes, extents: tuple[int, ...]):
    """Concrete ``sizes`` ``[N, k]`` must lie in ``[1, extent]``; traced ones are clamped."""
    if _v.is_traced(sizes):
        return jnp.clip(jnp.asarray(sizes).astype(jnp.int32), 1, jnp.asarray(extents, jnp.int32))
    array = np.asarray(sizes)
    if array.dtype.kind not in "iu" and not (array.dtype.kind == "f" and np.all(array == np.round(array))):
        raise TypeError(f"sizes must be integers (the valid extent of each example); got dtype {array.dtype}.")
    bad = (array < 1) | (array > np.asarray(extents))
    if np.any(bad):
        row, col = (int(v[0]) for v in np.nonzero(bad))
        raise ValueError(
            f"sizes[{row}, {col}] = {int(array[row, col])} is outside [1, {extents[col]}] (1 to the padded "
            f"extent images.shape[{col + 1}]); every example needs at least one valid pixel per resized axis."
        )
    return jnp.asarray(array, jnp.int32)


def _record(n, padded: int, out: int, method: str, antialias: bool, cubic_coeff_a, exclude_outside, fit=None):
    """One axis of one example: its valid extent ``n`` (traced int) of ``padded``, resized to
    ``out`` — a :class:`~.records.Gather` for nearest, else :class:`~.records.Taps`. ``fit``:
    ``(m, p, bound)`` for letterboxing: the image fills outputs ``p .. p + m - 1`` (traced ints),
    the other rows are flagged outside, ``bound`` (static) bounds the stretch ``n / m``."""
    m, p, bound = (out, 0, _kernels.stretch(padded / out)) if fit is None else fit
    o = jnp.arange(out, dtype=jnp.int32) - p  # output index inside the resized image
    outside = None if fit is None else (o < 0) | (o >= m)
    nf, mf = n.astype(jnp.float32), jnp.asarray(m).astype(jnp.float32)
    if method == "nearest":  # jax.image's float32 rule: floor((o + 0.5) * n / m)
        x = _jax_image.nearest_coordinates(o.astype(jnp.float32), nf, mf, xp=jnp)
        return _records.Gather(jnp.clip(jnp.floor(x), 0, n - 1).astype(jnp.int32), padded, outside)
    # x = (o + 0.5) * n / m - 0.5 = ((2 o + 1) n - m) / (2 m): exact, distances rounded once
    # (float32 coordinates near x = 1000 would move every distance by up to 6e-5 px); 1 / scale =
    # n / m rounded once
    x = _coordinates.Rational((2 * o + 1) * n - m, 2 * m)
    options = (method, antialias, cubic_coeff_a, exclude_outside)
    taps = _jax_image.traced_filter_taps(x, padded, nf / mf, bound, options, valid=n)
    return _records.Taps(taps.index, taps.weight, padded, outside)


def _letterbox(size, shape: tuple[int, ...], extents: tuple[int, ...]):
    """``tf.image.resize_with_pad``'s fit, in float32, for the ``k`` traced extents ``size``:
    ``ratio = max(n_j / out_j)``, resized ``m_j = trunc(n_j / ratio)`` (at least 1), offset
    ``p_j = max(0, floor((out_j - n_j / ratio) / 2))``; with the static stretch bound
    ``2 * max(N_j / out_j)`` (``n / trunc(n / ratio) <= 2 * ratio``)."""
    n = size.astype(jnp.float32)
    out = jnp.asarray(shape, jnp.float32)
    # divisors selected per element: XLA rewrites a division by a broadcast value into a product
    # with its reciprocal, one ulp off (91 / (91 / 40) would truncate to 39, not TensorFlow's 40)
    per_element = lambda v: jnp.where(n == n, v, jnp.float32(jnp.nan))  # noqa: E731
    ratio = jnp.max(n / per_element(out))
    exact = n / per_element(ratio)
    m = jnp.maximum(exact.astype(jnp.int32), 1)
    p = jnp.maximum(jnp.floor((out - exact) / 2), 0).astype(jnp.int32)
    bound = max(1.0, 2.0 * max(e / o for e, o in zip(extents, shape)))
    return [(m[j], p[j], bound) for j in range(len(shape))]


def resize_ragged(
    images: ArrayLike,
    sizes,
    shape,
    method: str = "linear",
    antialias: bool = True,
    *,
    precision=lax.Precision.HIGHEST,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
    strategy: str = "auto",
    letterbox: bool = False,
) -> jax.Array:
    """Resizes every example of a zero-padded batch from its own valid extent to one shape.

    ``out[i] = resize(images[i, :sizes[i, 0], ..., :sizes[i, k-1]], shape, method, antialias)``
    for every ``i``, with the sizes traced: one compilation for any mix of sizes.

    Args:
      images: ``[N, D_1, ..., D_r]`` (e.g. ``[N, H_max, W_max, C]``), each example zero-padded
        (or padded with anything: padding is never read) after its valid extent.
      sizes: ``[N, k]`` ints, the valid extent of axes ``1..k`` of each example (``1 <= sizes[i,
        j] <= D_{j+1}``); may be traced (then clamped to that range).
      shape: the static output shape of one example, ``r`` ints. Axes after ``k`` are resized
        as :func:`jax_resize.resize` does (statically).
      method: ``"nearest"``, ``"linear"``, ``"cubic"``, ``"lanczos3"``, ``"lanczos5"``,
        ``"cubic-pytorch"``, ``"area"`` (the jax.image methods of :func:`jax_resize.resize`).
      antialias: stretch the filter when downsampling, as ``resize``.
      precision: ``lax.Precision`` of dense contractions.
      cubic_coeff_a, exclude_outside: as in :func:`jax_resize.resize`.
      strategy: ``"auto"``, ``"dense"`` or ``"banded"`` (``"polyphase"`` needs static weights
        and falls back to banded).
      letterbox: keep each example's aspect ratio, as ``tf.image.resize_with_pad``: the ``k``
        ragged axes are resized to ``m_j = trunc(n_j / ratio)`` with ``ratio = max_j(n_j /
        shape_j)`` (float32, ``m_j >= 1``), placed at offset ``max(0, floor((shape_j - n_j /
        ratio) / 2))`` and surrounded by zeros.

    Returns:
      ``[N, *shape]``: ``images``' dtype for nearest, else its float dtype (float32 for
      integers), as ``resize``.

    Raises:
      ValueError: ``sizes`` not ``[N, k]`` with ``k <= r``, a concrete size outside
        ``[1, D_j]``, ``shape`` of the wrong length, an unknown method (``pil_*`` reproduce
        Pillow's host-side windows and are not traced here).
      TypeError: non-integer sizes, an unsupported dtype.

    Example:
      >>> import jax, jax.numpy as jnp, jax_resize
      >>> batch = jnp.zeros((2, 480, 640, 3))  # a 300x400 and a 480x640 photo, zero-padded
      >>> f = jax.jit(lambda b, s: jax_resize.resize_ragged(b, s, (224, 224, 3)))
      >>> f(batch, jnp.array([[300, 400], [480, 640]])).shape
      (2, 224, 224, 3)

    Source: jax.image.resize's rules (``jax/_src/image/scale.py``) with traced extents; the
    static window bound is ours (see the module docstring).
    """
    method = _resize.method_name(method)
    if method not in RAGGED_METHODS:
        raise ValueError(
            f"method={method!r} is not available in resize_ragged; allowed: {', '.join(RAGGED_METHODS)} "
            "(the pil_* methods build Pillow's windows on the host)."
        )
    images, dtype = _frontend.prologue(
        "images", images, min_rank=2, layout="[N, D_1, ...] with at least one example axis"
    )
    shape = _v.shape_tuple("shape", shape, images.ndim - 1)
    _frontend.output_size((images.shape[0], *shape), "shape")
    sizes_shape = tuple(np.shape(sizes))
    if len(sizes_shape) != 2 or sizes_shape[0] != images.shape[0] or not 1 <= sizes_shape[1] <= images.ndim - 1:
        raise ValueError(
            f"sizes must be [N, k] = [{images.shape[0]}, k] with 1 <= k <= {images.ndim - 1} (the valid extent of "
            f"axes 1..k of each example); got shape {sizes_shape}."
        )
    k = sizes_shape[1]
    sizes = _check_sizes(sizes, tuple(images.shape[1 : k + 1]))
    for axis in range(images.ndim - 1):
        _v.check_empty_axes([images.shape[axis + 1]], [shape[axis]], [axis])
    out_dtype = None
    if method != "nearest" and dtype.kind in "biu":  # as resize: a float result
        out_dtype = jax.dtypes.canonicalize_dtype(np.float64)
    empty = _frontend.empty_output((images.shape[0], *shape), out_dtype or images.dtype)
    if empty is not None:  # no window: the stretch n / out has no bound
        return empty
    options = (method, antialias, cubic_coeff_a, exclude_outside)

    def one(image, size):  # image [D_1, ..., D_r], size [k]
        fits = _letterbox(size, shape[:k], image.shape[:k]) if letterbox else [None] * k
        ops = [(j, _record(size[j], image.shape[j], shape[j], *options, fit=fits[j])) for j in range(k)]
        for j in range(k, image.ndim):  # untraced axes: the host records of resize
            if image.shape[j] != shape[j]:
                if method == "nearest":
                    record = _jax_image.nearest_record(image.shape[j], shape[j])
                else:
                    record = _jax_image.filter_record(
                        image.shape[j], shape[j], None, method, antialias, "half_pixel", cubic_coeff_a, exclude_outside
                    )
                ops.append((j, record))
        return _apply.run(image, ops, precision=precision, strategy=strategy, dtype=out_dtype)

    return jax.vmap(one)(images, sizes)
