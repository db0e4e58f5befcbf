"""Shared test helpers: the ONNX reference evaluator as an oracle for single Resize nodes."""

from __future__ import annotations

import numpy as np
import pytest


def reference_resize(X, roi=None, scales=None, sizes=None, *, opset=19, **attrs):
    """Runs one Resize node through ``onnx.reference.ReferenceEvaluator`` (the oracle)."""
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    X = np.asarray(X)
    names, feeds, infos = [], {"X": X}, [
        helper.make_tensor_value_info("X", helper.np_dtype_to_tensor_dtype(X.dtype), None)]
    for name, value, ttype in (("roi", roi, TensorProto.FLOAT), ("scales", scales, TensorProto.FLOAT),
                               ("sizes", sizes, TensorProto.INT64)):
        if value is None:
            names.append("")
            continue
        names.append(name)
        feeds[name] = np.asarray(value, np.int64 if name == "sizes" else np.float32)
        infos.append(helper.make_tensor_value_info(name, ttype, None))
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node("Resize", ["X", *names], ["Y"], **attrs)
    graph = helper.make_graph([node], "resize", infos, [
        helper.make_tensor_value_info("Y", helper.np_dtype_to_tensor_dtype(X.dtype), None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return ReferenceEvaluator(model).run(None, feeds)[0]
