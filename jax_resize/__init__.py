"""jax_resize: ONNX Resize and OpenVINO Interpolate as pure, jittable JAX functions.

Every resized axis gets a weight matrix ``[out_size, in_size]`` (coordinates -> filter ->
weights), kept as its sparse taps and applied with fused gathers (CPU/GPU) or
``lax.dot_general`` (TPU); nearest modes gather. Other frameworks' functions live in
``jax_resize.compat``, Flax layers in ``jax_resize.flax``. See ``docs/architecture.md``.
"""

from jax_resize._src.crop_and_resize import crop_and_resize
from jax_resize._src.jax_image import resize
from jax_resize._src.onnx_resize import onnx_node_resize, onnx_resize
from jax_resize._src.openvino import openvino_interpolate
from jax_resize._src.weights import weight_matrix

__version__ = "0.1.0"

__all__ = [
    "crop_and_resize",
    "onnx_node_resize",
    "onnx_resize",
    "openvino_interpolate",
    "resize",
    "weight_matrix",
]
