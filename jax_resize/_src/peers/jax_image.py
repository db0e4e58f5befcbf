"""Peer: ``jax.image``'s rules — its method table, nearest rule, filters and ``scale_and_translate``.

Contract: the records built here reproduce ``jax.image.resize`` for every method it has —
``nearest``, ``linear``, ``cubic`` (Keys a = -0.5), ``lanczos3``, ``lanczos5``, ``cubic-pytorch``
(Keys a = -0.75 with edge clamping, or ``cubic`` when antialiasing) and ``area`` — on any
registered coordinate rule (:func:`filter_record`); :func:`scale_and_translate` is
``jax.image.scale_and_translate``. Methods are a table (:data:`FILTERS`: kernel, and whether
out-of-image taps are dropped by default); nearest uses jax.image's float32 index rule
(:func:`nearest_indices`). The public ``resize`` that dispatches to these rules is
:mod:`..resize`.
"""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from .. import band_taps as _band_taps
from .. import coordinates as _coordinates
from .. import frontend as _frontend
from .. import kernels as _kernels
from .. import records as _records
from .. import validation as _v
from .. import weights as _weights
from ..execution import apply as _apply
from ..execution import decide as _decide

#: Canonical method names (``jax.image.ResizeMethod``) and their accepted aliases.
METHODS = ("nearest", "linear", "cubic", "lanczos3", "lanczos5", "cubic-pytorch", "area")
_ALIASES = {
    "bilinear": "linear",
    "trilinear": "linear",
    "triangle": "linear",
    "bicubic": "cubic",
    "tricubic": "cubic",
    "bicubic-pytorch": "cubic-pytorch",
}
#: Filter methods: ``(kernel(cubic_coeff_a), exclude_outside by default)``; ``area`` is handled
#: apart (its footprint is ``1 / scale`` wide whether up- or downsampling, as TensorFlow's).
FILTERS = {
    "linear": (lambda a: _kernels.TRIANGLE, True),
    "cubic": (lambda a: _kernels.keys_cubic(-0.5 if a is None else float(a)), True),
    "cubic-pytorch": (lambda a: _kernels.keys_cubic(-0.75 if a is None else float(a)), False),
    "lanczos3": (lambda a: _kernels.lanczos(3), True),
    "lanczos5": (lambda a: _kernels.lanczos(5), True),
}


def nearest_coordinates(o, in_size, out_size, *, xp=np):
    """``jax.image.resize(method='nearest')``'s coordinate ``(o + 0.5) * in / out`` (its floor is
    the source index), in float32 and in jax.image's order of operations.

    Args:
      o: float32 ``[out]`` output indices.
      in_size, out_size: float32 scalars; traced with ``xp=jax.numpy``, where the division is kept
        a true division (XLA rewrites a division by a broadcast value into a product with its
        reciprocal, one ulp off).
    """
    x = (o + xp.float32(0.5)) * in_size
    if xp is not np:
        out_size = xp.where(x == x, out_size, xp.float32(xp.nan))
    return x / out_size


def nearest_indices(in_size: int, out_size: int) -> np.ndarray:
    """``jax.image.resize(method='nearest')``'s source indices: ``floor((i + 0.5) * in / out)``
    (:func:`nearest_coordinates`), so the indices agree exactly. Shape ``[out_size]``.
    """
    i = np.arange(out_size, dtype=np.float32)
    x = nearest_coordinates(i, np.float32(in_size), np.float32(out_size))
    return _weights.nearest_indices(x, in_size, "floor")


@_records.memoized
def nearest_record(in_size: int, out_size: int) -> _records.Gather:
    """jax.image's nearest on one axis: a gather of :func:`nearest_indices`."""
    return _records.Gather(nearest_indices(in_size, out_size), in_size)


def method_name(method, extra: tuple[str, ...] = ()) -> str:
    """The canonical name of a ``jax.image.ResizeMethod`` or a method name (aliases resolved);
    ``extra``: other names the caller accepts (Pillow's ``pil_*``).

    Raises:
      ValueError: an unknown name (with a suggestion).
    """
    if isinstance(method, jax.image.ResizeMethod):
        return method.name.lower().replace("_", "-")
    if isinstance(method, str):
        method = _ALIASES.get(method, method)
    return _v.choice("method", method, METHODS + tuple(extra) + tuple(_ALIASES))


def _filter(method: str, antialias: bool, scale, cubic_coeff_a, exclude_outside, *, inv_scale=None):
    """(kernel, stretch, boundary) of a filtered method on one axis; ``scale`` may be traced
    (then so is the stretch). ``inv_scale``: ``1 / scale`` when the caller has it rounded once."""
    inv = 1.0 / scale if inv_scale is None else inv_scale
    if method == "area":  # the footprint is 1/scale wide whether up- or downsampling
        exclude = True if exclude_outside is None else bool(exclude_outside)
        return _kernels.AREA, inv, "exclude" if exclude else "clamp"
    if method == "cubic-pytorch" and antialias:
        method = "cubic"  # as jax.image does
    make, default_exclude = FILTERS[method]
    stretch: Any = _kernels.stretch(inv, xp=jnp if _v.is_traced(inv) else None) if antialias else 1.0
    exclude = default_exclude if exclude_outside is None else bool(exclude_outside)
    return make(cubic_coeff_a), stretch, "exclude" if exclude else "clamp"


def traced_filter_taps(x, in_size: int, inv, bound: float, options, *, valid=None) -> _records.Taps:
    """Device taps of a filtered method at ``[out]`` coordinates ``x`` (jax array or
    :class:`~..coordinates.Rational`) with a traced ``inv = 1 / scale``, the stretch clamped to the
    static ``bound`` (>= 1) that sizes the window, rows normalised; ``valid``: the traced valid
    length of the static ``in_size``; ``options``: ``(method, antialias, cubic_coeff_a, exclude_outside)``."""
    method, antialias, cubic_coeff_a, exclude_outside = options
    inv = jnp.clip(inv, 1e-6, bound)  # the static window bound; > 0 for degenerate boxes
    kernel, stretch, boundary = _filter(method, antialias, 1.0 / inv, cubic_coeff_a, exclude_outside, inv_scale=inv)
    max_stretch = bound if (antialias or method == "area") else 1.0
    return _weights.filter_taps(
        x,
        in_size,
        kernel,
        stretch=stretch,
        boundary=boundary,
        normalize=True,
        xp=jnp,
        max_stretch=max_stretch,
        valid=valid,
    )


@_records.memoized
def filter_record(n, o, roi, method, antialias, rule, cubic_coeff_a, exclude_outside):
    """One filtered axis ``n -> o``: the coordinate rule ``rule`` (a name in
    ``coordinates.COORDINATE_RULES``), the method's kernel, rows normalised (``roi``: a ``(start,
    end)`` pair for the ``crop`` rule, possibly traced, else ``None``)."""
    scale = o / n
    xp = _v.namespace_for(roi)
    x, outside = _coordinates.source_coordinates(rule, n, o, scale, roi=roi, xp=xp)
    kernel, stretch, boundary = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
    taps = _weights.filter_taps(x, n, kernel, stretch=stretch, boundary=boundary, normalize=True, xp=xp)
    return taps.with_outside(outside)


def method_record(n: int, o: int, method: str, antialias: bool) -> _records.Record:
    """One axis ``n -> o`` (both > 0) of ``jax.image.resize``: :func:`nearest_record` for nearest,
    else the method's filter at half-pixel coordinates (:func:`filter_record`)."""
    if method == "nearest":
        return nearest_record(n, o)
    return filter_record(n, o, None, method, antialias, "half_pixel", None, None)


def scale_and_translate(
    image: ArrayLike,
    shape,
    spatial_dims,
    scale,
    translation,
    method="linear",
    antialias: bool = True,
    precision=lax.Precision.HIGHEST,
    *,
    cubic_coeff_a: float | None = None,
    exclude_outside: bool | None = None,
) -> jax.Array:
    """Resamples ``image`` under a scale and translation, as ``jax.image.scale_and_translate``.

    Output pixel ``o`` of a spatial axis samples the input at ``x = (o + 0.5 - translation) /
    scale - 0.5`` with the method's filter, stretched by ``max(1, 1 / scale)`` when
    ``antialias``; taps outside the input are dropped and each row renormalised; rows whose
    ``x`` is outside ``[-0.5, in - 0.5]`` are 0 (``cubic-pytorch`` without antialias pads the
    image with ``radius`` repeated edge pixels instead, as jax.image: rows sampled farther out than
    that are 0). ``area`` weights the overlap of the output pixel's
    footprint ``[o, o + 1] / scale - translation / scale`` with each input pixel.

    ``scale`` and ``translation`` may be traced (``jit``, ``vmap``, ``grad``): the weights are then
    jax.image's dense ``[out, in]`` rows computed on the device, applied as plain matmuls (a NaN
    spreads along its rows and columns, as in jax.image); concrete values take float64 host
    weights on the filter's band (a NaN reaches only the outputs that weight it).

    Args:
      image: array of any rank, e.g. ``[N, H, W, C]``; integers are promoted to float.
      shape: the full output shape (static), ``len(shape) == image.ndim``; axes not in
        ``spatial_dims`` keep their length.
      spatial_dims: the ``K`` resampled axes (static ints, negative allowed).
      scale: ``[K]`` output pixels per input pixel (> 0), float, may be traced.
      translation: ``[K]`` offsets in output pixels, float, may be traced.
      method: ``"linear"``, ``"cubic"`` (Keys a = -0.5), ``"lanczos3"``, ``"lanczos5"``,
        ``"cubic-pytorch"``, ``"area"`` or a ``jax.image.ResizeMethod`` (not nearest, as in jax).
      antialias: stretch the filter when downsampling (``scale < 1``).
      precision: ``lax.Precision`` of the contractions.
      cubic_coeff_a: the Keys parameter of the cubic methods (default -0.5 / -0.75 for
        ``cubic-pytorch``), as ONNX's ``cubic_coeff_a``.
      exclude_outside: ``True`` drops taps outside the image and renormalises; ``False`` repeats
        the edge pixels (``ceil(radius * stretch)`` beyond each edge, rows sampled farther out are
        0); default: the method's rule (``False`` for ``cubic-pytorch`` without antialias, as
        jax.image). ``False`` with a traced scale and antialias is refused (its reach is not static).

    Returns:
      Array ``shape``, ``image``'s float dtype (float32 for integers).

    Raises:
      ValueError: ``shape`` of the wrong length, a changed axis not in ``spatial_dims``, ``scale``
        or ``translation`` not of length ``K``, a concrete non-positive scale, method nearest,
        ``exclude_outside=False`` with antialias and a traced scale.
      TypeError: an unsupported dtype.

    Example:
      >>> import jax, jax.numpy as jnp, jax_resize
      >>> img = jnp.ones((32, 32, 3))
      >>> zoom = lambda s: jax_resize.scale_and_translate(img, (16, 16, 3), (0, 1), jnp.array([s, s]), jnp.zeros(2))
      >>> jax.jit(zoom)(0.5).shape
      (16, 16, 3)

    Source: ``jax.image.scale_and_translate`` (``jax/_src/image/scale.py``); kernels: Keys 1981,
    Lanczos; the area overlap of TensorFlow's ``ScaleAndTranslate``.
    """
    # resize's own methods are refused by name: nearest and the pil_* / pil12_* methods
    pil = isinstance(method, str) and method.startswith("pil")
    method = method if pil else method_name(method)
    if method == "nearest" or pil:
        raise ValueError(
            f"method={method!r} is not available in scale_and_translate (as in jax.image); allowed: "
            + ", ".join(m for m in METHODS if m != "nearest")
            + "."
        )
    image, dtype = _frontend.prologue("image", image)
    if dtype.kind not in "fc":  # jax.image's promotion: the default float type
        image = image.astype(jax.dtypes.canonicalize_dtype(np.float64))
    shape = _frontend.output_size(_v.shape_tuple("shape", shape, image.ndim), "shape")
    dims = _v.axes_tuple(spatial_dims, image.ndim)
    for axis, (n, o) in enumerate(zip(image.shape, shape)):
        if axis not in dims and n != o:
            raise ValueError(
                f"shape[{axis}] = {o} differs from image.shape[{axis}] = {n}, but axis {axis} is not in "
                f"spatial_dims={tuple(spatial_dims)}; list every resampled axis."
            )
    traced = _v.is_traced(scale) or _v.is_traced(translation)
    xp = jnp if traced else np
    scale = xp.asarray(scale, dtype=None if traced else np.float64).reshape(-1)
    translation = xp.asarray(translation, dtype=None if traced else np.float64).reshape(-1)
    for name, value in (("scale", scale), ("translation", translation)):
        if value.shape[0] != len(dims):
            raise ValueError(f"{name} has {value.shape[0]} values for {len(dims)} spatial_dims={tuple(spatial_dims)}.")
    if not traced and not np.all(np.isfinite(scale) & (scale > 0)):
        raise ValueError(f"scale must be positive and finite; got {scale.tolist()}.")
    if not traced and not np.all(np.isfinite(translation)):
        raise ValueError(f"translation must be finite; got {translation.tolist()}.")
    if exclude_outside is not None:
        exclude_outside = bool(exclude_outside)
    if traced and antialias and _filter(method, True, 0.5, cubic_coeff_a, exclude_outside)[2] == "clamp":
        raise ValueError(
            f"exclude_outside=False (edge pixels repeated) with antialias needs a concrete scale: the filter's reach "
            f"beyond the edge is ceil(radius / scale); got a traced scale with method={method!r}. Pass concrete "
            "scales, antialias=False, or exclude_outside=True."
        )
    _v.check_empty_axes([image.shape[a] for a in dims], [shape[a] for a in dims], dims)
    empty = _frontend.empty_output(shape, image.dtype)
    if empty is not None:  # no axis's weights (another axis may be huge)
        return empty
    ops = []
    for i, axis in enumerate(dims):
        n, o = image.shape[axis], shape[axis]
        if traced:
            ops.append(
                (
                    axis,
                    _translated_record(
                        n, o, scale[i], translation[i], method, antialias, cubic_coeff_a, exclude_outside, jnp
                    ),
                )
            )
        else:
            _check_edge_window(n, o, float(scale[i]), method, antialias, cubic_coeff_a, exclude_outside)
            ops.append(
                (
                    axis,
                    _host_translated_record(
                        n, o, float(scale[i]), float(translation[i]), method, antialias, cubic_coeff_a, exclude_outside
                    ),
                )
            )
    strategy = "auto"
    fits = all(_decide.dense_fits(r) for _, r in ops)
    if traced and fits:
        strategy = "dense"  # every input position is a tap: one matmul per axis
    # traced weights: plain matmuls, as jax.image (a NaN pixel spreads along its rows and columns)
    return _apply.run(image, ops, precision=precision, strategy=strategy, local_nonfinite=not traced)


def _check_edge_window(n, o, scale, method, antialias, cubic_coeff_a, exclude_outside) -> None:
    """Refuses (``ValueError`` naming ``scale``) edge-repeating rows (``exclude_outside=False``) of
    ``n + 2 ceil(support)`` taps each, ``support`` growing with ``1 / scale``, above the output limit."""
    kernel, stretch, boundary = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
    if boundary != "clamp":
        return
    support = kernel.support(stretch)
    taps = n + 2 * math.ceil(support) if math.isfinite(support) else math.inf
    if o * taps > _v.max_output_elements():
        raise ValueError(
            f"scale={scale!r} with exclude_outside=False (edge pixels repeated) stretches the {method} filter over "
            f"{taps:,} taps per output: {o:,} x {taps:,} weights, above the limit of {_v.max_output_elements():,} "
            "(jax_resize.set_max_output_elements raises it)."
        )


@_records.memoized
def _host_translated_record(n, o, scale, translation, method, antialias, cubic_coeff_a, exclude_outside):
    return _translated_record(n, o, scale, translation, method, antialias, cubic_coeff_a, exclude_outside, np)


def _translated_record(n, o, scale, translation, method, antialias, cubic_coeff_a, exclude_outside, xp):
    """One axis of :func:`scale_and_translate`: taps on every input position (traced; jax.image's
    dense rows) or on the filter's band (host, float64, compacted)."""
    kernel, stretch, boundary = _filter(method, antialias, scale, cubic_coeff_a, exclude_outside)
    inv = 1.0 / scale
    y = np.arange(o, dtype=np.float64) if xp is np else jnp.arange(o, dtype=jnp.result_type(scale, float))
    x = (y + 0.5) * inv - translation * inv - 0.5  # [o] input coordinate of each output centre
    edge = boundary == "clamp"  # cubic-pytorch without antialias: edge pixels repeat, no zero rows
    outside = None if edge else ~((x >= -0.5) & (x <= n - 0.5))
    if xp is np and not edge:
        taps = _weights.filter_taps(x, n, kernel, stretch=stretch, boundary=boundary, normalize=True)
        return taps.with_outside(outside)
    # jax.image's rows: every input position (and `radius` repeated edge positions each side)
    radius = int(np.ceil(kernel.support(stretch))) if edge else 0  # static stretch when edge
    taps = xp.arange(-radius, n + radius)[None, :] + xp.zeros((o, 1), x.dtype)  # [o, n + 2 radius]
    w = kernel(xp, taps - x[:, None], stretch)
    if not edge:
        w = xp.where((taps >= 0) & (taps <= n - 1), w, 0.0)
    total = w.sum(axis=1, keepdims=True)
    w = xp.where(xp.abs(total) > 1000.0 * float(np.finfo(np.float32).eps), w / xp.where(total != 0, total, 1.0), 0.0)
    index = xp.clip(taps, 0, n - 1).astype(np.int32)
    if xp is np:
        return _band_taps.compact(index, w, n)
    return _records.Taps(index, w, n, outside)
