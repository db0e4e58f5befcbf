"""Which Pillow release's resize a call reproduces: the rules that differ between releases.

:mod:`.pillow` reproduces Pillow 13 by default. ``pillow_version="12"`` (``compat.pil_resize``),
the ``pil12_*`` methods (``jax_resize.resize``) and the grain preset ``"pillow12"`` select Pillow
12.3's rules; ``pillow_version="11"``, the ``pil11_*`` methods and the preset ``"pillow11"``
Pillow 10.1-12.1's. Every release shares Pillow 13's windows, kernels, 8-bit, ``'I'`` and ``'F'``
rounding; they differ in three places, all here:

* the pass order (:func:`order`): Pillow 10.1-12.3's ``ImagingResampleInner`` runs the horizontal
  pass first whenever the width changes; 12.2 and 12.3's ``Image.resize`` resize an image more
  than 100 times taller than wide (``in_h > 100 * in_w``) whose height shrinks in two calls, the
  vertical first (``"12"``; ``"11"`` has no such rule).
* ``LA``/``RGBA`` with a filter: Pillow 10.1-12.3's ``Image.resize`` resizes the premultiplied
  image without ``reducing_gap`` (:func:`alpha_reducing_gap`); 13 passes it on.
* ``'I;16'``: Pillow 11.0-12.2 store a pass's rounded value ``v`` as two clipped bytes,
  ``v & 0xFF`` and ``v >> 8`` (:func:`store_i16`: ``0xFF00 | (v & 0xFF)`` above 65535); 12.3 and
  13 clip it to ``[0, 65535]``; 10.x refuses to filter ``'I;16'`` (only ``NEAREST`` resizes it).

So ``"12"`` gives 12.3's bits in every mode; ``"11"`` gives 11.0-12.1's in every mode, and
10.1-10.4's in every mode (``'I;16'`` with ``NEAREST`` only). 12.2 has 12.3's pass order and 11's
``'I;16'`` store: ``"12"`` gives its bits but for ``'I;16'``, ``"11"`` but for the tall images.

Source: Pillow 12.3 and 13.0 ``src/libImaging/Resample.c`` (``ImagingResampleInner``),
``src/PIL/Image.py`` (``Image.resize``); the older rules found and checked on the releases
themselves (10.1, 10.4, 11.0, 11.3, 12.1.1, 12.2: ``tests/test_pillow11.py``).
"""

from __future__ import annotations

import jax.numpy as jnp

from .. import rounding as _rounding

#: ``pil_resize``'s ``pillow_version`` values: the Pillow release series whose bits a call gives.
VERSIONS = ("13", "12", "11")
#: ``jax_resize.resize``'s methods of Pillow 12.3's filters (Pillow 12 has no ``MKS*`` filters).
METHODS_12 = ("pil12_nearest", "pil12_box", "pil12_bilinear", "pil12_hamming", "pil12_bicubic", "pil12_lanczos")
#: ``jax_resize.resize``'s methods of Pillow 10.1-12.1's filters (``pillow_version="11"``).
METHODS_11 = ("pil11_nearest", "pil11_box", "pil11_bilinear", "pil11_hamming", "pil11_bicubic", "pil11_lanczos")
#: Every ``resize`` method of a release before Pillow 13: ``pil12_*`` and ``pil11_*``.
RELEASE_METHODS = METHODS_12 + METHODS_11


def version(value) -> str:
    """``pillow_version`` checked: one of :data:`VERSIONS`.

    Raises:
      ValueError: any other value (ints included: the versions are strings).
    """
    if not isinstance(value, str) or value not in VERSIONS:
        allowed = ", ".join(map(repr, VERSIONS))
        raise ValueError(f"pillow_version={value!r} is not supported; allowed values: {allowed}.")
    return value


def split_method(method: str) -> tuple[str, str]:
    """``(pil_* method, version)`` of a ``resize`` method: ``"pil12_bicubic"`` -> ``("pil_bicubic",
    "12")``, ``"pil11_box"`` -> ``("pil_box", "11")``; any other name is Pillow 13's (``"13"``),
    unchanged."""
    if method in RELEASE_METHODS:
        prefix, name = method.split("_", 1)
        return "pil_" + name, prefix[len("pil") :]
    return method, "13"


def order(version: str, h: int, w: int, in_shape, out_shape) -> list[int]:
    """The pass order of a release before 13 (``version`` ``"12"`` or ``"11"``) for a resize that
    changes both axes ``h`` (rows) and ``w`` (columns): the horizontal pass first, but for
    ``"12"`` the vertical first iff ``in_h > 100 * in_w`` and ``out_h < in_h`` (12.2's rule)."""
    if version == "12" and in_shape[h] > 100 * in_shape[w] and out_shape[h] < in_shape[h]:
        return [h, w]
    return [w, h]


def alpha_reducing_gap(version: str, reducing_gap):
    """The ``reducing_gap`` Pillow's ``Image.resize`` applies to a premultiplied ``LA``/``RGBA``
    image: Pillow 13 keeps it, 10.1-12.3 resize the premultiplied image without it (``None``)."""
    return reducing_gap if version == "13" else None


def store_i16(total) -> jnp.ndarray:
    """Pillow 11.0-12.2's ``'I;16'`` pixel of a pass's float sums: ``v = ROUND_UP(total)`` (half
    away from zero), stored as the bytes ``CLIP8(v % 256)`` and ``CLIP8(v >> 8)``: ``v`` in
    ``[0, 65535]``, 0 below, ``0xFF00 | (v & 0xFF)`` above (uint16). ``pil_resize``'s ``'I;16'``
    with ``pillow_version="11"``, and ``resize``'s ``pil11_*`` methods on uint16."""
    v = _rounding.ROUNDING_RULES["half_away"](jnp.clip(total, -1.0, 2.0**24)).astype(jnp.int32)
    return jnp.where(v > 65535, 0xFF00 | (v & 0xFF), jnp.clip(v, 0, 65535)).astype(jnp.uint16)
