"""torchvision as an oracle beside the CPU build of torch 2.13.

torchvision 0.28's compiled operators (``torchvision::nms`` ...) do not load beside torch 2.13+cpu,
and its ``_meta_registrations`` module, which registers their fake kernels, fails at import. The
transforms used as oracles here (``v2.Resize``, ``CenterCrop``, ``RandomResizedCrop``,
``functional.resized_crop``) are Python over torch's own operators, so that module alone is
replaced by an empty one before the import. A missing torchvision is an error, not a skip.
"""

import sys
import types

sys.modules.setdefault("torchvision._meta_registrations", types.ModuleType("torchvision._meta_registrations"))

import torch  # noqa: E402
import torchvision  # noqa: E402, F401
from torchvision.transforms import v2  # noqa: E402
from torchvision.transforms.v2 import functional as F  # noqa: E402

__all__ = ["F", "torch", "v2"]
