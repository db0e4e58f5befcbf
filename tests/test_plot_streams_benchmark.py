"""``benchmarks/plot_streams.py`` draws the recorded streams (the performance guide's figure)."""

import json

import numpy as np
import pytest
from conftest import benchmark_module
from PIL import Image

plot = benchmark_module("plot_streams")


def _call(ms, programs):
    return {
        "size": [300, 400],
        "out": [224, 224],
        "jax_resize_ms": ms,
        "pillow_ms": 5.0,
        "torch_ms": 1.0,
        "programs": programs,
    }


def test_draws_one_panel_per_rule(tmp_path):
    recorded = {"meta": {"command": "c", "date": "d"}, "rules": {"a": [_call(100, 1), _call(4, 1)], "b": [_call(9, 1)]}}
    source = tmp_path / "in.json"
    source.write_text(json.dumps(recorded))
    out = tmp_path / "figure.png"
    assert plot.main(["--input", str(source), "--output", str(out)]) == 0
    one = np.asarray(Image.open(plot.draw({"rules": {"a": recorded["rules"]["a"]}}, tmp_path / "one.png")))
    two = np.asarray(Image.open(out))
    assert two.shape[0] > 1.5 * one.shape[0] and two.shape[1] == one.shape[1]  # a panel per rule, stacked
    assert len(np.unique(two.reshape(-1, two.shape[-1]), axis=0)) > 10  # something drawn, not a blank sheet


def test_the_committed_figure_is_drawn_from_the_committed_record():
    assert plot.INPUT.is_file() and plot.OUTPUT.is_file()
    assert set(json.loads(plot.INPUT.read_text())["rules"]) == set(benchmark_module("streams").RULES)


@pytest.mark.parametrize("recorded", [{}, {"rules": {}}, {"rules": {"a": []}}])
def test_nothing_recorded_is_a_value_error(recorded, tmp_path):
    with pytest.raises(ValueError, match="recorded"):
        plot.draw(recorded, tmp_path / "x.png")
