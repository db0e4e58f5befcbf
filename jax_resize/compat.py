"""Framework-parity presets: other libraries' resize functions with their own argument names,
defaults and output conventions, reproducing their outputs (see each function's docstring for
the measured exactness).

* :func:`torch_interpolate` — ``torch.nn.functional.interpolate`` (``[N, C, *spatial]``);
* :func:`cv2_resize` — OpenCV's ``cv2.resize`` (``[H, W]`` / ``[H, W, C]``), with the
  ``INTER_*`` flags under OpenCV's names and values (members of :class:`InterpolationFlags`);
* :func:`pil_resize` — Pillow's ``Image.fromarray(a, mode).resize`` (``box``, ``reducing_gap``;
  premultiplied alpha for LA/RGBA as Pillow), with the ``PIL.Image.Resampling`` constants
  ``NEAREST`` ... ``LANCZOS``, ``MKS2013``, ``MKS2021`` (members of :class:`Resampling`, Pillow's
  names and values);
* :func:`tf_resize` — TensorFlow 2's ``tf.image.resize`` (also ``gaussian``, ``mitchellcubic``);
* :func:`tf_resize_v1` — TF1's ``tf.compat.v1.image.resize`` (``align_corners``), and the TF1
  kernels :func:`tf_resize_bilinear`, :func:`tf_resize_bicubic`, :func:`tf_resize_nearest_neighbor`,
  :func:`tf_resize_area` (``tf.compat.v1.image.resize_bilinear`` ...: ``align_corners``,
  ``half_pixel_centers``).
"""

from jax_resize._src.peers.opencv import (
    INTER_AREA,
    INTER_CUBIC,
    INTER_LANCZOS4,
    INTER_LINEAR,
    INTER_LINEAR_EXACT,
    INTER_NEAREST,
    INTER_NEAREST_EXACT,
    InterpolationFlags,
    cv2_resize,
)
from jax_resize._src.peers.pillow import (
    BICUBIC,
    BILINEAR,
    BOX,
    HAMMING,
    LANCZOS,
    MKS2013,
    MKS2021,
    NEAREST,
    Resampling,
    pil_resize,
)
from jax_resize._src.peers.tensorflow import (
    tf_resize,
    tf_resize_area,
    tf_resize_bicubic,
    tf_resize_bilinear,
    tf_resize_nearest_neighbor,
    tf_resize_v1,
)
from jax_resize._src.peers.torch import torch_interpolate

__all__ = [
    "BICUBIC",
    "BILINEAR",
    "BOX",
    "HAMMING",
    "LANCZOS",
    "MKS2013",
    "MKS2021",
    "NEAREST",
    "INTER_AREA",
    "INTER_CUBIC",
    "INTER_LANCZOS4",
    "INTER_LINEAR",
    "INTER_LINEAR_EXACT",
    "INTER_NEAREST",
    "INTER_NEAREST_EXACT",
    "InterpolationFlags",
    "Resampling",
    "cv2_resize",
    "pil_resize",
    "tf_resize",
    "tf_resize_area",
    "tf_resize_bicubic",
    "tf_resize_bilinear",
    "tf_resize_nearest_neighbor",
    "tf_resize_v1",
    "torch_interpolate",
]
