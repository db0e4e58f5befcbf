"""The layout the architecture doc promises: the core layers know no peer, every peer lives in its
module under ``jax_resize/_src/peers`` (with its own parts), and no peer imports another.

Oracle: the source text itself (a peer named in a core module is a layering defect, whatever the
tests of behaviour say)."""

import importlib
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "jax_resize" / "_src"
CORE = [
    "host",
    "coordinates",
    "kernels",
    "clipped_windows",
    "records",
    "weights",
    "band_taps",
    "execution/__init__",
    "execution/tuning",
    "execution/decide",
    "execution/apply",
    "execution/buckets",
    "execution/stored",
    "execution/strategies",
    "execution/primitive",
    "execution/transpose",
    "execution/banded",
    "execution/polyphase",
    "execution/chain",
    "execution/ordered",
    "dtypes",
    "rounding",
    "validation",
]
PEERS = ["onnx", "openvino", "jax_image", "pillow", "torch", "opencv", "tensorflow"]
# A peer's own parts: modules named ``<peer>_<part>`` that the peer's module imports and that
# belong to no other peer (Pillow's modes and alpha; the rules of Pillow releases before 13;
# TensorFlow's per-axis kernels; OpenCV's INTER_LINEAR_EXACT fixed point). Rules two peers share
# live below the peers, in the core.
PEER_PARTS = {
    "opencv": {"opencv_linear_exact", "opencv_routes"},
    "pillow": {"pillow_modes", "pillow_releases"},
    "tensorflow": {"tensorflow_kernels"},
}
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
    front_ends = {"crop_and_resize", "cli", "image_files", "demo", "ragged", "resize", "frontend", "memory", "__init__"}
    front_ends.add("transforms")  # the pipeline transforms' geometry and presets (jax_resize.grain)
    front_ends.add("beam_job")  # jax_resize.beam's batches, files and report (over cli and image_files)
    front_ends.add("pending")  # device mode of the pipeline transforms (jax_resize.grain)
    found = {p.stem for p in SRC.glob("*.py")} | {f"execution/{p.stem}" for p in (SRC / "execution").glob("*.py")}
    assert found == set(CORE) | front_ends
    parts = set().union(*PEER_PARTS.values())
    assert {p.stem for p in (SRC / "peers").glob("*.py")} == set(PEERS) | parts | {"__init__"}


def _peer_imports(path) -> set[str]:
    """The modules of ``peers/`` that a module imports (``from . import x``, ``from .x import y``)."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 2 and (node.module or "").startswith("peers"):
            found.add((node.module or "").removeprefix("peers").lstrip(".") or "peers")
    return found


@pytest.mark.parametrize("peer", PEERS)
def test_no_peer_imports_another(peer):
    """A peer's module imports only its own parts; a part imports no peer module (its own peer's
    module included: the peer builds on its parts, not the other way round)."""
    own = PEER_PARTS.get(peer, set())
    assert _peer_imports(SRC / "peers" / f"{peer}.py") <= own, peer
    for part in own:
        assert part.startswith(f"{peer}_") and not _peer_imports(SRC / "peers" / f"{part}.py"), part


@pytest.mark.parametrize("module", ["transforms", "beam_job"])
def test_pipelines_reach_the_execution_layer_through_the_front_ends(module):
    """A pipeline module calls front ends (and :mod:`.frontend` for windows and shared sizes), never
    the execution layer's modules themselves."""
    import ast

    imported = set()
    for node in ast.walk(ast.parse((SRC / f"{module}.py").read_text())):
        if isinstance(node, ast.ImportFrom):
            imported |= {f"{node.module}.{a.name}" if node.module else a.name for a in node.names}
    assert not {name for name in imported if "execution" in name}, imported


def test_registries_are_populated():
    coordinates = importlib.import_module("jax_resize._src.coordinates")
    weights = importlib.import_module("jax_resize._src.weights")
    kernels = importlib.import_module("jax_resize._src.kernels")
    strategies = importlib.import_module("jax_resize._src.execution.strategies")
    rounding = importlib.import_module("jax_resize._src.rounding")
    assert {"half_pixel", "align_corners", "asymmetric", "crop"} <= set(coordinates.COORDINATE_RULES)
    assert {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "trunc"} == set(weights.NEAREST_RULES)
    assert {"clamp", "exclude", "zero"} == set(weights.BOUNDARIES)
    # kernels are constants and families, not a registry
    assert [k.name for k in (kernels.TRIANGLE, kernels.BOX, kernels.AREA)] == ["triangle", "box", "area"]
    assert {"gather", "dense", "banded", "polyphase", "bucketed"} == set(strategies.STRATEGIES)
    assert {"half_even", "half_up", "half_away"} == set(rounding.ROUNDING_RULES)


# --- the execution layer's promises (issue 34) ------------------------------------------------

PACKAGE = SRC.parent


def test_no_module_exceeds_600_lines():
    """Every module, peers and their parts included."""
    lengths = {str(p.relative_to(PACKAGE)): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    long = {name: n for name, n in lengths.items() if n > 600}
    assert not long, long


def _numeric_constants(path) -> list[str]:
    """Module-level ``NAME = <number expression>`` assignments (tunables), by name."""
    import ast

    names = []
    for node in ast.parse(path.read_text()).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        value = getattr(node, "value", None)
        if value is None or not all(isinstance(t, ast.Name) and t.id.isupper() for t in targets):
            continue
        leaves = [n for n in ast.walk(value) if not isinstance(n, (ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))]
        if leaves and all(isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) for n in leaves):
            names += [f"{path.stem}.{t.id}" for t in targets]
    return names


def test_tunables_live_in_the_tuning_table():
    # the core's numeric constants outside the table: facts and user limits, not tunables
    core = [SRC / f"{m}.py" for m in CORE if m != "execution/tuning"]
    outside = [name for p in core for name in _numeric_constants(p)]
    assert len(outside) <= 4, outside
    # the table itself: every backend row, each field documented, accelerator rows without CPU-only forms
    from jax_resize._src.execution import tuning as t

    assert set(t.TUNING) == {"cpu", "gpu", "tpu"}
    for row in (t.TUNING["gpu"], t.TUNING["tpu"]):
        assert row.row_loop_min_taps is None and row.block_min_bytes is None and row.fused_max_terms is None
        assert row.compiler_options == ()
    assert t.TUNING["tpu"].measured_on == "not measured"


def _prose_lines(path) -> tuple[int, int]:
    """``(prose, total)`` non-blank lines of a module: comment-only lines and docstring lines."""
    import ast
    import io
    import tokenize

    text = path.read_text()
    lines = text.splitlines()
    prose = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT and not lines[tok.start[0] - 1][: tok.start[1]].strip():
            prose.add(tok.start[0])
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            if isinstance(body[0].value.value, str):
                prose.update(range(body[0].lineno, body[0].end_lineno + 1))
    # ``#:`` attribute docs and comments count; blank lines inside docstrings do not
    total = sum(1 for line in lines if line.strip())
    return sum(1 for i in prose if lines[i - 1].strip()), total


def test_comments_and_docstrings_are_at_most_30_percent():
    prose, total = map(sum, zip(*(_prose_lines(p) for p in PACKAGE.rglob("*.py"))))
    assert prose <= 0.30 * total, f"{prose} of {total} non-blank lines ({prose / total:.1%})"


def test_the_weights_layer_imports_nothing_from_execution():
    """Layer 2 reads its host limits from ``host.py``, below the execution layer (issue 46)."""
    for module in ("coordinates", "kernels", "records", "weights", "band_taps", "host"):
        text = (SRC / f"{module}.py").read_text()
        assert "execution" not in re.findall(r"^from \.+(\w+)|^import (\w+)", text, re.M).__repr__(), module
