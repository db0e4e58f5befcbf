"""Every Resize case of the ONNX backend node tests, run through ``onnx_node_resize``.

``onnx.backend.test.case.node.collect_testcases("Resize")`` regenerates the
backend test models together with their inputs and expected outputs in memory
(the expected outputs come from onnx's own numpy implementation, not from
jax_resize). Each case is one test id, the backend test's name.

One case needs a spec reading rather than the stored output:
``test_resize_downsample_sizes_linear_pytorch_half_pixel`` has an output length
of 1 with pytorch_half_pixel, where the spec says x_original = 0 and onnx's
generator uses -0.5; for linear interpolation both give the first input element
(edge clamping), so the stored output is the spec's and the case runs as is.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import onnx_oracles as O
import pytest

from jax_resize import onnx_node_resize

EXPECTED_RESIZE_CASES = 39


@functools.cache
def _resize_cases() -> tuple:
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():  # other ops' generators warn about overflows
        warnings.simplefilter("ignore")
        cases = collect_testcases("Resize")
    found = {}
    for case in cases:
        if case.model is None or case.kind != "node":
            continue
        if any(node.op_type == "Resize" for node in case.model.graph.node):
            found.setdefault(case.name, case)
    return tuple(sorted(found.items()))


def _names() -> list[str]:
    return [name for name, _ in _resize_cases()]


def test_found_all_backend_resize_cases():
    names = _names()
    assert len(names) >= EXPECTED_RESIZE_CASES, names
    assert all(name.startswith("test_resize_") for name in names), names
    import readme  # every case runs in test_backend_case

    readme.assert_row(
        'ONNX backend node tests (`collect_testcases("Resize")`, run through `onnx_node_resize`)',
        f"**{len(names)} / {len(names)}** pass",
    )


@pytest.mark.parametrize("name", _names())
def test_backend_case(name):
    case = dict(_resize_cases())[name]
    model = case.model
    (node,) = [n for n in model.graph.node if n.op_type == "Resize"]
    assert len(model.graph.node) == 1, "only single-node Resize models are expected"
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    graph_inputs = [vi.name for vi in model.graph.input]
    assert case.data_sets, name
    for inputs, outputs in case.data_sets:
        feeds = dict(zip(graph_inputs, inputs))
        args = [feeds[n] if n else None for n in node.input]
        got = np.asarray(onnx_node_resize(node, *args, opset=opset))
        (expected,) = outputs
        assert got.shape == expected.shape, (name, got.shape, expected.shape)
        assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
        if np.issubdtype(expected.dtype, np.floating):
            cmp = O.compare(got, expected, 1e-5, 1e-5)
        else:
            cmp = O.compare(got, expected, 0.0, 0.0)
        assert cmp.ok, f"{name}: {cmp.msg}"
