"""Shared test helpers: the ONNX reference evaluator as an oracle for single Resize nodes, the
sample photographs, and alpha channels for them."""

from __future__ import annotations

import importlib.resources
import pathlib

import numpy as np
import pytest
from PIL import Image

# The photographs beside the repository (../shared/data: astronaut, camera, chelsea, coffee).
SHARED_DATA = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data"
_GREY_PHOTOS = {"camera.png"}  # the cameraman photograph is single-channel


def bundled_photo_path():
    """The photograph shipped inside the package (astronaut, 512x512 RGB)."""
    return importlib.resources.files("jax_resize") / "data" / "astronaut.png"


#: jax_resize's Pillow-exact methods and the Pillow filter each reproduces (the oracle's side).
PIL_FILTERS = {
    "pil_nearest": Image.Resampling.NEAREST,
    "pil_box": Image.Resampling.BOX,
    "pil_bilinear": Image.Resampling.BILINEAR,
    "pil_hamming": Image.Resampling.HAMMING,
    "pil_bicubic": Image.Resampling.BICUBIC,
    "pil_lanczos": Image.Resampling.LANCZOS,
}


def load_photo(name, data_dir=None):
    """``name`` from ../shared/data as a PIL image; where that file is absent, the photograph
    bundled with the package instead (converted to greyscale for the grey ones), so the tests
    that use photographs always run. Crops used by the tests fit inside 512x512 either way."""

    path = (SHARED_DATA if data_dir is None else pathlib.Path(data_dir)) / name
    if path.is_file():
        return Image.open(path)
    with importlib.resources.as_file(bundled_photo_path()) as bundled:
        img = Image.open(bundled)
        img.load()
    return img.convert("L") if name in _GREY_PHOTOS else img


def alpha_map(rng, h, w):
    """An ``[h, w]`` uint8 alpha channel: a gradient in a random direction, with a fully transparent
    (0), an opaque (255) and a noisy rectangle — every case of premultiplied resampling."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = xx * np.cos(angle) + yy * np.sin(angle)
    alpha = np.round(255 * (ramp - ramp.min()) / max(np.ptp(ramp), 1e-9))
    for fill in (0, 255, None):
        rh, rw = int(rng.integers(h // 6, h // 2 + 1)), int(rng.integers(w // 6, w // 2 + 1))
        y0, x0 = int(rng.integers(0, h - rh + 1)), int(rng.integers(0, w - rw + 1))
        alpha[y0 : y0 + rh, x0 : x0 + rw] = rng.integers(0, 256, (rh, rw)) if fill is None else fill
    return alpha.astype(np.uint8)


def reference_resize(X, roi=None, scales=None, sizes=None, *, opset=19, **attrs):
    """Runs one Resize node through ``onnx.reference.ReferenceEvaluator`` (the oracle)."""
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    X = np.asarray(X)
    names, feeds, infos = (
        [],
        {"X": X},
        [helper.make_tensor_value_info("X", helper.np_dtype_to_tensor_dtype(X.dtype), None)],
    )
    for name, value, ttype in (
        ("roi", roi, TensorProto.FLOAT),
        ("scales", scales, TensorProto.FLOAT),
        ("sizes", sizes, TensorProto.INT64),
    ):
        if value is None:
            names.append("")
            continue
        names.append(name)
        feeds[name] = np.asarray(value, np.int64 if name == "sizes" else np.float32)
        infos.append(helper.make_tensor_value_info(name, ttype, None))
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", ["X", *names], ["Y"], **attrs)
    graph = helper.make_graph(
        [node], "resize", infos, [helper.make_tensor_value_info("Y", helper.np_dtype_to_tensor_dtype(X.dtype), None)]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return ReferenceEvaluator(model).run(None, feeds)[0]
