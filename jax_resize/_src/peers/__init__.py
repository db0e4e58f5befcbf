"""One module per peer: everything that makes that framework's resize that framework's.

Each module owns how its peer's arguments resolve to per-axis specs (input length, output length,
scale, roi), its coordinate / rounding / window rules (registered with, or built from, the core
registries) and its pass order and integer policy, and then calls :func:`..apply.run`. Shared
rules are explicit imports (torch's antialias uses Pillow's window: ``from . import pillow``).

* :mod:`.onnx` — ONNX Resize (``onnx_resize``, ``onnx_node_resize``, ``weight_matrix``);
* :mod:`.openvino` — OpenVINO Interpolate-11 (``openvino_interpolate``);
* :mod:`.jax_image` — ``jax.image``'s rules (``scale_and_translate``; the public ``resize`` of
  :mod:`..resize` dispatches to them);
* :mod:`.pillow` — ``PIL.Image.resize`` (``pil_resize``, the ``pil_*`` methods of ``resize``);
* :mod:`.torch` — ``torch.nn.functional.interpolate`` (``torch_interpolate``);
* :mod:`.opencv` — ``cv2.resize`` (``cv2_resize``);
* :mod:`.tensorflow` — ``tf.image.resize`` (``tf_resize``), ``tf.compat.v1.image.resize`` and its
  kernels (``tf_resize_v1``, ``tf_resize_bilinear``, ``tf_resize_bicubic``,
  ``tf_resize_nearest_neighbor``, ``tf_resize_area``).

The module names match the peers; inside this package they never shadow the real packages
(absolute imports only).
"""
