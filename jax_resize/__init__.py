"""jax_resize: ONNX Resize and OpenVINO Interpolate as pure, jittable JAX functions.

Every resized axis gets a weight matrix ``[out_size, in_size]`` (coordinates -> filter ->
weights), kept as its sparse taps and applied in one jitted function: polyphase strided slices
for rational ratios and fused banded gathers otherwise (the CPU/GPU default), or
``lax.dot_general`` matmuls (the TPU default); nearest modes gather. Other frameworks' functions
live in ``jax_resize.compat``, Flax layers in ``jax_resize.flax``. See ``docs/architecture.md``.
"""

from jax_resize._src.crop_and_resize import crop_and_resize
from jax_resize._src.execution.buckets import exact_shapes
from jax_resize._src.memory import keep_freed_memory
from jax_resize._src.peers.jax_image import scale_and_translate
from jax_resize._src.peers.onnx import onnx_node_resize, onnx_resize, weight_matrix
from jax_resize._src.peers.openvino import openvino_interpolate
from jax_resize._src.ragged import resize_ragged
from jax_resize._src.resize import resize, resize_with_onnx_attributes, resize_with_pillow_filter
from jax_resize._src.validation import max_output_elements, set_max_output_elements

__version__ = "0.1.0"

__all__ = [
    "crop_and_resize",
    "exact_shapes",
    "keep_freed_memory",
    "max_output_elements",
    "onnx_node_resize",
    "onnx_resize",
    "openvino_interpolate",
    "resize",
    "resize_ragged",
    "resize_with_onnx_attributes",
    "resize_with_pillow_filter",
    "scale_and_translate",
    "set_max_output_elements",
    "weight_matrix",
]
