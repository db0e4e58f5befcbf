"""Which Pillow release's resize a call reproduces: the rules that differ between releases.

:mod:`.pillow` reproduces Pillow 13 by default; ``pillow_version="12"`` (``compat.pil_resize``),
the ``pil12_*`` methods (``jax_resize.resize``) and the grain preset ``"pillow12"`` select Pillow
12.3's rules instead. Pillow 12.3 and 13 share every window, kernel, rounding and mode; they differ
in two places, both here:

* the pass order (:func:`order_12`): Pillow 12's ``ImagingResample`` runs the horizontal pass
  first whenever the width changes; 12.2's ``Image.resize`` resizes an image more than 100 times
  taller than wide (``in_h > 100 * in_w``) whose height shrinks in two calls, the vertical first.
* ``LA``/``RGBA`` with a filter: Pillow 12's ``Image.resize`` resizes the premultiplied image
  without ``reducing_gap`` (:func:`alpha_reducing_gap`); 13 passes it on.

Pillow 10.1-12.1 lack the tall-image rule (horizontal first there too); 10.1-12.2 differ in
``'I;16'`` (see ``pil_resize``).

Source: Pillow 12.3 and 13.0 ``src/libImaging/Resample.c`` (``ImagingResampleInner``),
``src/PIL/Image.py`` (``Image.resize``).
"""

from __future__ import annotations

#: ``pil_resize``'s ``pillow_version`` values: the Pillow release series whose bits a call gives.
VERSIONS = ("13", "12")
#: ``jax_resize.resize``'s methods of Pillow 12.3's filters (Pillow 12 has no ``MKS*`` filters).
METHODS_12 = ("pil12_nearest", "pil12_box", "pil12_bilinear", "pil12_hamming", "pil12_bicubic", "pil12_lanczos")


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
    "12")``; any other name is Pillow 13's (``"13"``), unchanged."""
    if method in METHODS_12:
        return "pil_" + method[len("pil12_") :], "12"
    return method, "13"


def order_12(h: int, w: int, in_shape, out_shape) -> list[int]:
    """Pillow 12's order of a resize that changes both axes ``h`` (rows) and ``w`` (columns): the
    vertical pass first iff ``in_h > 100 * in_w`` and ``out_h < in_h`` (12.2 and later), else the
    horizontal pass first."""
    if in_shape[h] > 100 * in_shape[w] and out_shape[h] < in_shape[h]:
        return [h, w]
    return [w, h]


def alpha_reducing_gap(version: str, reducing_gap):
    """The ``reducing_gap`` Pillow's ``Image.resize`` applies to a premultiplied ``LA``/``RGBA``
    image: Pillow 13 keeps it, Pillow 12 resizes the premultiplied image without it (``None``)."""
    return reducing_gap if version == "13" else None
