"""The layout the architecture doc promises: the core layers know no peer, and every peer lives in
one module under ``jax_resize/_src/peers``.

Oracle: the source text itself (a peer named in a core module is a layering defect, whatever the
tests of behaviour say)."""

import importlib
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "jax_resize" / "_src"
CORE = [
    "coordinates",
    "kernels",
    "weights",
    "apply",
    "strategies",
    "banded",
    "polyphase",
    "chain",
    "dtypes",
    "rounding",
    "validation",
]
PEERS = ["onnx", "openvino", "jax_image", "pillow", "torch", "opencv", "tensorflow"]
# a peer's name as a word (``tf_`` prefixes count: they name TensorFlow)
PEER_NAME = re.compile(r"pillow|\bPIL\b|opencv|cv2|torch|openvino|tensorflow|\btf\b|\btf_", re.IGNORECASE)


@pytest.mark.parametrize("module", CORE)
def test_core_module_names_no_peer(module):
    text = (SRC / f"{module}.py").read_text()
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(text.splitlines(), 1) if PEER_NAME.search(line)]
    assert not hits, f"core module {module}.py mentions a peer:\n" + "\n".join(hits)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_no_peer_module(module):
    text = (SRC / f"{module}.py").read_text()
    assert "peers" not in text and "crop_and_resize" not in text and "cli" not in re.findall(r"import (\w+)", text)


def test_every_source_module_is_core_peer_or_front_end():
    front_ends = {"crop_and_resize", "cli", "image_files", "demo", "ragged", "__init__"}
    found = {p.stem for p in SRC.glob("*.py")}
    assert found == set(CORE) | front_ends
    assert {p.stem for p in (SRC / "peers").glob("*.py")} == set(PEERS) | {"__init__"}


def test_registries_are_populated():
    coordinates = importlib.import_module("jax_resize._src.coordinates")
    weights = importlib.import_module("jax_resize._src.weights")
    kernels = importlib.import_module("jax_resize._src.kernels")
    strategies = importlib.import_module("jax_resize._src.strategies")
    rounding = importlib.import_module("jax_resize._src.rounding")
    assert {"half_pixel", "align_corners", "asymmetric", "crop"} <= set(coordinates.COORDINATE_RULES)
    assert {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "trunc"} == set(weights.NEAREST_RULES)
    assert {"clamp", "exclude", "zero"} == set(weights.BOUNDARIES)
    assert {"triangle", "box", "area"} <= set(kernels.KERNELS)
    assert {"gather", "dense", "banded", "polyphase"} == set(strategies.STRATEGIES)
    assert {"half_even", "half_up", "half_away"} == set(rounding.ROUNDING_RULES)
