"""Device mode of the pipeline transforms: geometry in the workers, pixels on the device.

Contract: a transform with ``device=True`` returns a :class:`Pending` (the image and its geometry,
numpy only); :func:`batch` pads a batch's images with zeros to one shape of the global grid
:func:`grid_size` and stacks them (:class:`PendingBatch`); :func:`resize_batch` resizes it on the
device. Each image's records are those its host-mode call builds (the preset's front end called
with :func:`.execution.apply.recorded`, memoised by geometry), cut to its window and placed in the canvas; they
are stacked with their taps zero-padded to a power of two and applied by one ``vmap``-ed program
per (padded shape, canvas, preset, method, tap widths, pass orders). Zero taps and zero padding
add exact zeros, so integer presets equal the host mode bit for bit; float results (``tf``,
``jax``) equal it within float32 rounding (the pass order is chosen on the padded shape).
OpenCV's own arithmetic gives plans instead (``peers.opencv.planned``: route and tables), stacked
the same way and run by the host mode's executor, each route selected per image: bit for bit.
"""

from __future__ import annotations

import functools
import math
from typing import Any, NamedTuple

import jax
import numpy as np

from . import records as _records
from . import transforms as _t

#: Presets and methods whose front end is more than one application (a factor after it).
UNSUPPORTED = {("tf", "area")}
#: The geometry columns of :attr:`PendingBatch.geometry`.
GEOMETRY = (
    "height",
    "width",
    "resized_h",
    "resized_w",
    "top",
    "left",
    "window_h",
    "window_w",
    "place_top",
    "place_left",
)


def grid_size(n: int) -> int:
    """The global grid's extent for ``n`` pixels: the smallest ``2**k * (1, 1.25, 1.5, 1.75)``
    (at least 32) that holds it, so padding costs at most a quarter per axis."""
    k = max(5, math.floor(math.log2(max(n, 1))))
    while True:
        for step in (4, 5, 6, 7):
            if (size := (step << k) // 4) >= n:
                return size
        k += 1


class Pending(NamedTuple):
    """An image waiting to be resized on the device: resized to ``resized`` ``(h, w)``, of which
    ``window`` ``(top, left, h, w)`` is kept and placed at ``place`` ``(top, left)`` of a zero
    canvas ``canvas`` ``(h, w)``; pixels by ``preset`` / ``method`` / ``antialias``."""

    image: np.ndarray
    resized: tuple[int, int]
    window: tuple[int, int, int, int]
    place: tuple[int, int]
    canvas: tuple[int, int]
    preset: str
    method: str
    antialias: bool

    @property
    def shape(self) -> tuple[int, ...]:
        """The output's shape."""
        return (*self.canvas, *self.image.shape[2:])


def pending(image, resized, *, preset: str, method: str, antialias: bool) -> Pending:
    """``image`` resized to ``resized`` whole, as :class:`Pending`."""
    if (preset, method) in UNSUPPORTED:
        raise ValueError(f"device=True does not support preset={preset!r} with method={method!r}; use device=False.")
    h, w = resized
    return Pending(np.asarray(image), (h, w), (0, 0, h, w), (0, 0), (h, w), preset, method, antialias)


def _crop_axis(start: int, length: int, place: int, canvas: int, top: int, pad: int, new: int):
    """One axis of a centre crop of the canvas: the crop's row ``r`` is the canvas row
    ``r + top - pad``; returns the window's ``(start, length, place)`` in the new canvas."""
    at = place + pad - top
    lo, hi = max(at, 0), min(at + length, new)
    return start + lo - at, max(hi - lo, 0), lo


def center_crop(p: Pending, size) -> Pending:
    """:func:`..transforms.center_crop` of ``p``'s output, as geometry."""
    ch, cw = _t.pair("size", size)
    top, left, pad_top, pad_left = _t.center_crop_box(*p.canvas, ch, cw)
    t, th, pt = _crop_axis(p.window[0], p.window[2], p.place[0], p.canvas[0], top, pad_top, ch)
    le, tw, pl = _crop_axis(p.window[1], p.window[3], p.place[1], p.canvas[1], left, pad_left, cw)
    return p._replace(window=(t, le, th, tw), place=(pt, pl), canvas=(ch, cw))


class PendingBatch(NamedTuple):
    """A batch of :class:`Pending`: ``images`` ``[B, H, W(, C)]`` zero-padded to the grid,
    ``geometry`` ``[B, 10]`` int32 (columns :data:`GEOMETRY`), and the shared ``canvas``,
    ``preset``, ``method``, ``antialias``."""

    images: np.ndarray
    geometry: np.ndarray
    canvas: tuple[int, int]
    preset: str
    method: str
    antialias: bool


def batch(elements: list[Pending]) -> PendingBatch:
    """Stacks pending images of one output shape and preset, padded to :func:`grid_size`.

    Raises:
      ValueError: the elements differ in output shape, dtype, channels or preset.
    """
    first = elements[0]
    for p in elements:
        if (p.shape, p.image.dtype, p.preset, p.method, p.antialias) != (
            first.shape,
            first.image.dtype,
            first.preset,
            first.method,
            first.antialias,
        ):
            raise ValueError(
                f"a batch mixes images resized to {first.shape} ({first.image.dtype}, {first.preset} "
                f"{first.method}) and {p.shape} ({p.image.dtype}, {p.preset} {p.method}): device mode "
                "needs one output shape per batch (pass crop= or a (height, width) size)."
            )
    height = grid_size(max(p.image.shape[0] for p in elements))
    width = grid_size(max(p.image.shape[1] for p in elements))
    images = np.zeros((len(elements), height, width, *first.image.shape[2:]), first.image.dtype)
    for i, p in enumerate(elements):
        images[i, : p.image.shape[0], : p.image.shape[1]] = p.image
    geometry = np.array([(*p.image.shape[:2], *p.resized, *p.window, *p.place) for p in elements], np.int32)
    return PendingBatch(images, geometry, first.canvas, first.preset, first.method, first.antialias)


# --- on the device ---------------------------------------------------------------------------------

_LAYOUT = {"transpose", "broadcast_in_dim", "squeeze", "reshape", "expand_dims", "convert_element_type", "copy"}


class _Call(NamedTuple):
    """One image's host-mode application: records by image axis in pass order, ``run``'s keywords,
    the dtype ``run`` reads and the output dtype."""

    records: tuple
    options: tuple
    in_dtype: Any
    out_dtype: Any
    plan: Any = None  # OpenCV's own arithmetic: its route and tables (``peers.opencv.plan``)


@functools.lru_cache(maxsize=4096)
def _call(shape, dtype, resized, window, preset: str, method: str, antialias: bool) -> _Call:
    """The records the host mode applies to an image of ``shape``: its front end called with the
    applications recorded (:func:`.execution.apply.recorded`) and OpenCV's own arithmetic planned
    (``peers.opencv.planned``: its integer tables, not a linear map); a front end that computes
    anything besides its one application or plan (its jaxpr shows more than layout) is refused."""
    from .execution import apply
    from .peers import opencv

    front_end = functools.partial(_t.preset_resize, size=resized, method=method, preset=preset, antialias=antialias)
    with opencv.planned() as plans, apply.recorded() as applications:
        jaxpr = jax.make_jaxpr(lambda x: front_end(x, window=window))(jax.ShapeDtypeStruct(shape, dtype))
    others = {e.primitive.name for e in jaxpr.eqns} - _LAYOUT
    if len(applications) + len(plans) > 1 or others:
        raise ValueError(
            f"device=True cannot resize {preset!r} {method!r} images of shape {shape}: its front end "
            f"computes more than one application ({sorted(others)}); use device=False."
        )
    out_dtype = jaxpr.out_avals[0].dtype
    if plans:
        return _Call((), (), np.dtype(dtype), out_dtype, plans[0])
    if not applications:
        return _Call((), (), out_dtype, out_dtype)
    (found,) = applications
    records = tuple((axis - _t.height_axis(preset), _plain(record)) for axis, record in found.ops)
    return _Call(records, found.keywords, found.in_dtype, out_dtype)


def _plain(record):
    """A shared band expanded (rows are stacked across images)."""
    if isinstance(record, _records.Taps):
        return _records.Taps(np.asarray(record.index), np.asarray(record.weight), record.in_size, record.outside)
    return record


def _identity(start: int, length: int, in_size: int):
    return _records.Gather(np.arange(start, start + length, dtype=np.int32), in_size)


def _as_taps(record):
    if isinstance(record, _records.Gather):
        ones = np.ones((record.out_size, 1))
        return _records.Taps(np.asarray(record.index)[:, None], ones, record.in_size, record.outside)
    return record


def _placed(record, place: int, canvas: int, in_size: int):
    """``record`` (rows of the window) at rows ``place..`` of ``canvas`` rows, the rest outside."""
    n = record.out_size
    outside = np.ones(canvas, bool)
    outside[place : place + n] = False if record.outside is None else np.asarray(record.outside)
    rows = np.zeros(canvas, np.int64)
    rows[place : place + n] = np.arange(n)
    keep = ~outside
    if isinstance(record, _records.Gather):
        return _records.Gather(np.where(keep, np.asarray(record.index)[rows], 0).astype(np.int32), in_size, outside)
    index = np.where(keep[:, None], np.asarray(record.index)[rows], 0).astype(np.int32)
    weight = np.where(keep[:, None], np.asarray(record.weight)[rows], 0.0)
    return type(record)(index, weight, in_size, outside)


class _Structure(NamedTuple):
    """What a batch's program depends on besides its arrays' shapes."""

    kinds: tuple  # per image axis: "gather" or "taps"
    # the applications met, ``(pass order, run()'s keywords, dtype read)`` each: one unless the
    # images of a batch take different integer pass orders (Pillow) or policies
    variants: tuple
    # the routes of OpenCV's own arithmetic met, ``(route, dtype)`` each (choices after the variants)
    routes: tuple = ()


def _variant(call: _Call, ordered: bool) -> tuple:
    found = [a for a, _ in call.records]
    order = tuple(found + [a for a in (0, 1) if a not in found]) if ordered else (0, 1)
    return order, call.options, call.in_dtype


def _batch_records(pb: PendingBatch):
    """``(records, choice, structure, (plans, places))``: per image, its placed record per axis, its
    variant (or route), its OpenCV plan (or None) and where its window sits in the canvas."""
    padded = pb.images.shape[1:3]
    geometry = pb.geometry.tolist()
    calls = [
        _call((h, w, *pb.images.shape[3:]), pb.images.dtype, (rh, rw), (t, le, wh, ww), *pb[3:])
        for h, w, rh, rw, t, le, wh, ww, _, _ in geometry
    ]
    if len({c.out_dtype for c in calls}) > 1:
        raise ValueError(f"{pb.preset!r} {pb.method!r}: the images of this batch give different dtypes.")
    plain = [c for c in calls if c.plan is None]
    applied = [c for c in plain if c.records] or [c._replace(options=(("dtype", c.out_dtype),)) for c in plain[:1]]
    routes = tuple(sorted({(c.plan.route, c.plan.dtype) for c in calls if c.plan is not None}))

    def ordered(call):  # an integer per-pass policy: the library's pass order is part of the result
        policy = _integer_policy(call.options)
        return policy is not None and policy.passes

    variants = tuple(sorted({_variant(c, ordered(c)) for c in applied}, key=repr))
    records, choice, kinds = [], [], ["gather", "gather"]
    for call, (h, w, _, _, t, le, wh, ww, pt, pl) in zip(calls, geometry):
        found = dict(call.records)
        axes = []
        for a, (start, length, place, n) in enumerate(((t, wh, pt, h), (le, ww, pl, w))):
            if call.plan is not None:  # unused (its plan's route computes it): a gather of row 0
                found[a] = _records.Gather(np.zeros(length, np.int32), n)
            record = _placed(found.get(a) or _identity(start, length, n), place, pb.canvas[a], padded[a])
            kinds[a] = "taps" if isinstance(record, _records.Taps) else kinds[a]
            axes.append(record)
        records.append(axes)
        if call.plan is not None:
            choice.append(len(variants) + routes.index((call.plan.route, call.plan.dtype)))
        else:
            choice.append(variants.index(_variant(call, ordered(call))) if call.records else 0)
    for axes, i in zip(records, choice):  # one kind per axis, then the variant's weights
        kw = dict(variants[i][1]) if i < len(variants) else {}
        axes[:] = [_apply_fixed(_as_taps(r) if k == "taps" else r, kw) for r, k in zip(axes, kinds)]
    plans = [c.plan for c in calls], [(pt, pl) for *_, pt, pl in geometry]
    return records, np.array(choice, np.int32), _Structure(tuple(kinds), variants, routes), plans


def _stack(records, structure: _Structure):
    """Per axis, the images' records as stacked arrays (taps zero-padded to a power of two;
    fixed-point weights in their integer units, exact in float32)."""
    arrays = []
    for a, kind in enumerate(structure.kinds):
        column = [r[a] for r in records]
        entry = {}
        if any(r.outside is not None for r in column):
            entry["outside"] = np.stack(
                [np.zeros(r.out_size, bool) if r.outside is None else r.outside for r in column]
            )
        if kind == "gather":
            entry["index"] = np.stack([np.asarray(r.index, np.int32) for r in column])
        else:
            k = 1 << max(max(r.width for r in column) - 1, 0).bit_length()
            pad = [((0, 0), (0, k - r.width)) for r in column]
            entry["index"] = np.stack([np.pad(np.asarray(r.index, np.int32), p) for r, p in zip(column, pad)])
            entry["weight"] = np.stack([np.pad(np.asarray(r.weight, np.float32), p) for r, p in zip(column, pad)])
        arrays.append(entry)
    return arrays


def _integer_policy(options):
    """The integer policy of ``run()``'s keywords where the output is integer, else ``None``."""
    kw = dict(options)
    return kw.get("integer") if np.dtype(kw["dtype"]).kind in "iu" else None


def _apply_fixed(record, kw):
    from .execution import apply

    return record if kw.get("integer") is None else apply.fixed(record, kw["integer"], kw["dtype"])


#: Program keys met (structure and shapes): the programs compiled by :func:`resize_batch`.
PROGRAMS: set = set()


@functools.partial(jax.jit, static_argnames=("structure",))
def _program(images, arrays, choice, routes, structure: _Structure):
    import jax.numpy as jnp

    from .execution import apply
    from .peers import opencv

    def record(a, entry, in_size, fixed):
        outside = entry.get("outside")
        if structure.kinds[a] == "gather":
            return _records.Gather(entry["index"], in_size, outside)
        if fixed:  # integer units, exact in float32
            return _records.FixedTaps(entry["index"], entry["weight"].astype(jnp.int32), in_size, outside)
        return _records.Taps(entry["index"], entry["weight"], in_size, outside)

    def one(image, arrays, choice, routes):
        out = None
        for i, (order, options, in_dtype) in enumerate(structure.variants):
            policy = _integer_policy(options)
            fixed = policy is not None and policy.fixed_point_bits is not None
            ops = [(a, record(a, arrays[a], image.shape[a], fixed)) for a in order]
            result = apply.run(image.astype(in_dtype), ops, **dict(options))
            out = result if out is None else jnp.where(choice == i, result, out)
        for j, ((route, dtype), tables) in enumerate(zip(structure.routes, routes)):
            result = opencv.execute(image, *tables, route=route, dtype=dtype)
            out = result if out is None else jnp.where(choice == len(structure.variants) + j, result, out)
        return out

    return jax.vmap(one)(images, arrays, choice, routes)


def resize_batch(pb: PendingBatch, sharding=None) -> jax.Array:
    """The batch resized on the device: ``[B, canvas_h, canvas_w(, C)]`` in the preset's dtype.

    ``sharding``: where the batch's inputs (and so the program) are placed, e.g. a
    ``NamedSharding`` splitting the first axis over a mesh; default: the default device.
    """
    records, choice, structure, (plans, places) = _batch_records(pb)
    arrays = _stack(records, structure)
    if structure.routes:
        from .peers import opencv

        routes = tuple(opencv.stacked(plans, places, pb.canvas, route) for route, _ in structure.routes)
    else:
        routes = ()
    args = (pb.images, arrays, choice, routes)
    PROGRAMS.add((structure, tuple((a.shape, a.dtype.str) for a in jax.tree_util.tree_leaves(args))))
    if sharding is not None:
        args = jax.device_put(args, _batch_sharding(sharding))
    return _program(*args, structure=structure)


def _batch_sharding(sharding):
    """``sharding`` for the leading (batch) axis of every argument."""
    if isinstance(sharding, jax.sharding.NamedSharding):
        return jax.sharding.NamedSharding(sharding.mesh, jax.sharding.PartitionSpec(sharding.spec[0]))
    return sharding
