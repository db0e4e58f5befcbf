"""The deciding module (``execution/decide.py``): each choice from plan capabilities and a tuning row.

Oracles: the rules as the tuning table states them (thresholds read from the row, so a changed
threshold moves the expectation with it), and the compiled program where a choice shows in it."""

import dataclasses
import types

import numpy as np
import pytest

from jax_resize._src import records
from jax_resize._src.execution import decide, strategies
from jax_resize._src.execution.tuning import TUNING
from jax_resize._src.peers import onnx as _onnx

CPU, GPU, TPU = TUNING["cpu"], TUNING["gpu"], TUNING["tpu"]


def _record(n, o, mode="linear", antialias=True):
    return _onnx.axis_record(n, o, o / n, mode=mode, coordinate_transformation_mode="half_pixel", antialias=antialias)


def test_strategies_follow_the_request_and_the_row():
    narrow, wide = _record(16, 8), _record(3000, 224)
    assert narrow.width < CPU.wide_min_taps <= wide.width
    gather = records.Gather(np.zeros(3, np.int32), 4)
    for row in (CPU, GPU, TPU):
        assert decide.strategies(gather, "auto", row) == ("gather",)
        assert decide.strategies(narrow, "dense", row) == ("dense",)
        assert decide.strategies(narrow, "polyphase", row) == ("polyphase", "banded")
    assert decide.strategies(narrow, "auto", CPU) == CPU.auto == ("polyphase", "banded")
    assert decide.strategies(wide, "auto", CPU) == ("banded",)
    assert decide.strategies(wide, "auto", TPU) == ("dense", "polyphase", "banded")  # no wide rule on TPU
    assert decide.dense_order("auto", TPU) and not decide.dense_order("auto", CPU) and decide.dense_order("dense", CPU)


def _band(taps, *, constant=True, outside=None):
    index = np.zeros((4, taps), np.int32)
    weight = np.full((4, taps), 1.0 / taps, np.float32)
    t = (np.zeros((2, 1), np.int32), np.zeros((2, 1), np.float32)) if constant else (None, None)
    return strategies.BandedPlan(0, index, weight, *t, outside)


def test_groups_fuse_bands_up_to_the_rows_product():
    a, b, c = _band(4), _band(4), _band(2)
    assert [len(g) for g in decide.groups([a, b, c], CPU, separate=False)] == [2, 1]  # 4 * 4 = 16, then 32 > 16
    assert [len(g) for g in decide.groups([a, b, c], CPU, separate=True)] == [1, 1, 1]
    row = dataclasses.replace(CPU, fuse_max_taps=32)
    assert [len(g) for g in decide.groups([a, b, c], row, separate=False)] == [3]
    traced = _band(2, constant=False)
    assert [len(g) for g in decide.groups([c, traced, c], CPU, separate=False)] == [1, 1, 1]
    assert decide.next_band_taps([[a], [b, c]]) == 8 and decide.next_band_taps([[a, b]]) == 0
    assert decide.chained([[a], [b]]) == 2 and decide.chained([[a], [traced], [b]]) == 0


def test_first_pass_is_marked_only_where_the_row_has_a_row_loop():
    band = _band(30)
    assert decide.first_pass(band, 7, CPU).rows and decide.first_pass(band, 7, CPU).next_taps == 7
    assert decide.first_pass(band, 7, GPU) is band and decide.first_pass(band, 7, TPU) is band
    assert decide.first_pass(_band(30, constant=False), 0, CPU).rows is False


def test_row_loop_thresholds():
    row = dataclasses.replace(CPU, row_loop_max_threads=1 << 20)
    assert decide.row_loop((600, 1200), 0, row.row_loop_min_taps, 40, 0, row)
    assert not decide.row_loop((600, 1200), 0, row.row_loop_min_taps - 1, 40, 0, row)
    assert not decide.row_loop((600, row.row_loop_min_run - 1), 0, 30, 40, 0, row)  # rows too short
    assert not decide.row_loop((600, 1200), 0, row.max_unrolled_taps + 1, 40, 0, row)  # looped taps
    # a narrow pass before a band XLA would fuse: from row_loop_min_taps_before_band with enough work
    assert decide.row_loop((1200, 2400), 0, 6, 460, 11, row)
    assert not decide.row_loop((1200, 2400), 0, 6, 460, row.xla_max_duplication + 1, row)
    assert not decide.row_loop((1200, 2400), 0, 6, 460, 11, dataclasses.replace(row, row_loop_max_threads=0))
    for accelerator in (GPU, TPU):
        assert not decide.row_loop((600, 1200), 0, 30, 40, 0, accelerator)


def _part(terms=None, axes=(0,), loops_well=False):
    return types.SimpleNamespace(decimation_terms=terms, axes=axes, loops_well=loops_well)


def test_chain_form():
    big = CPU.block_min_bytes
    assert decide.chain_form([_part(4, (0,)), _part(4, (1,))], big, CPU) == "fused"
    assert decide.chain_form([_part(8, (0,)), _part(8, (1,))], big, CPU) is None  # 64 terms
    assert decide.chain_form([_part(4, (0,)), _part(4, (1,))], big - 1, CPU) is None
    assert decide.chain_form([_part(), _part(loops_well=True)], big, CPU) == "blocks"
    assert decide.chain_form([_part(), _part(4, (1,))], big, CPU) is None  # a later polyphase pass
    assert decide.chain_form([_part(4, (0,)), _part(4, (1,))], big, GPU) is None


def test_fused_runs_bound_the_product_of_taps():
    m = CPU.fuse_max_taps
    assert decide.fused_runs([2, 2, 2, 2], CPU) == [[0, 1, 2, 3]]  # 16
    assert decide.fused_runs([4, 11, 3, 2, 5], CPU) == [[0], [1], [2, 3], [4]]
    assert decide.fused_runs([m + 1, 1], CPU) == [[0], [1]] and decide.fused_runs([], CPU) == []
    for taps in ([3, 5, 2, 2, 7], [1, 16, 1], [9, 9, 9]):
        runs = decide.fused_runs(taps, CPU)
        assert [i for run in runs for i in run] == list(range(len(taps)))
        assert all(len(run) == 1 or np.prod([taps[i] for i in run]) <= m for run in runs)


def test_narrow_intermediate():
    big = CPU.block_min_bytes
    reads, floats = types.SimpleNamespace(reads_integers=True), types.SimpleNamespace(reads_integers=False)
    assert decide.narrow_intermediate(big, reads, CPU)
    assert not decide.narrow_intermediate(big - 1, reads, CPU)
    assert not decide.narrow_intermediate(big, floats, CPU)
    assert not decide.narrow_intermediate(big, reads, GPU) and not decide.narrow_intermediate(big, reads, TPU)


def test_compiler_options_and_fetching():
    band, poly = _band(2), types.SimpleNamespace(default_compiler=True)
    assert decide.compiler_options([band], CPU, True) == dict(CPU.compiler_options)
    assert decide.compiler_options([band], CPU, False) is None  # float: a caller's jit's options
    assert decide.compiler_options([band, poly], CPU, True) is None
    assert decide.compiler_options([band], GPU, True) is None and decide.compiler_options([band], TPU, True) is None
    shared = types.SimpleNamespace(fetch_all=True)
    assert decide.fetched(np.zeros(1, np.uint8), shared) and not decide.fetched(np.zeros(1, np.uint8), band)


@pytest.mark.parametrize(
    "shape,axis,out,k,small,c",
    [
        ((4096, 4096, 3), 0, 32, 770, False, 2),  # long runs: loop_chunk_long_runs
        ((512, 4096, 3), 1, 32, 770, False, 8),  # runs of 3: loop_chunk
        ((10**6,), 0, 3, 5000, True, 5000),  # a tiny gather: everything at once
    ],
)
def test_loop_form(shape, axis, out, k, small, c):
    assert decide.loop_form(shape, axis, out, k, CPU) == (small, c)
    assert decide.unrolled(CPU.max_unrolled_taps, CPU) and not decide.unrolled(CPU.max_unrolled_taps + 1, CPU)


def test_gpu_row_keeps_polyphase_for_long_one_phase_shrinks_and_upsampling():
    # the H200 runs: banded beat polyphase on 256 -> 224 linear aa (7 phases x 3 taps) and x0.5
    # linear aa (1 x 4); polyphase won x0.5 cubic aa (1 x 8). Upsampling keeps the general range.
    cases = {
        (256, 224, "linear"): "banded",
        (3840, 1920, "linear"): "banded",
        (3840, 1920, "cubic"): "polyphase",
        (224, 448, "linear"): "polyphase",
    }
    for (n, o, mode), expected in cases.items():
        record = _record(n, o, mode=mode, antialias=n > o)
        assert strategies.plan(0, record, tuning=GPU).strategy == expected, (n, o, mode)
        assert strategies.plan(0, record, tuning=CPU).strategy == "polyphase", (n, o, mode)
    assert (GPU.polyphase_shrink_max_phases, GPU.polyphase_shrink_min_taps) == (1, 8)
    assert "polyphase_shrink_min_taps" not in GPU.not_measured and "polyphase_shrink_min_taps" in TPU.not_measured
