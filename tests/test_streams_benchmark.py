"""``benchmarks/streams.py``'s output rules run end to end on CPU (a few photos): one row per rule, with
jax_resize's, Pillow's and torch's ms per image and the programs jax_resize compiled."""

import json
import pathlib

from conftest import benchmark_module

streams = benchmark_module("streams")
ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_rule_rows_print_every_rule():
    rows = streams.rule_rows(3, seed=5)[3:]
    assert [row.split("|")[1].strip() for row in rows] == list(streams.RULES)
    for row in rows:
        cells = [c.strip() for c in row.split("|")[2:-1]]
        assert all(float(c.rstrip("x")) > 0 for c in cells[:4]), row
        assert 1 <= int(cells[4]) <= 3, row  # at most one program per photo


def test_shorter_edge_is_torchvisions_rule():
    # torchvision's _compute_resized_output_size: the long side is int(size * long / short)
    assert streams._shorter_edge(300, 451, 256) == (256, 384)
    assert streams._shorter_edge(1999, 301, 256) == (1700, 256)


def test_record_keeps_every_photo_of_every_rule_and_reads_back():
    record: dict = {}
    rows = streams.rule_rows(2, seed=7, record=record)[3:]
    assert list(record) == list(streams.RULES)
    for row, calls in zip(rows, record.values()):
        assert len(calls) == 2 and all(c["jax_resize_ms"] > 0 and c["pillow_ms"] > 0 for c in calls)
        assert calls[-1]["programs"] == int(row.split("|")[-2])  # the row's count, reached by its last photo
        assert [c["programs"] for c in calls] == sorted(c["programs"] for c in calls)
    text = streams._recorded_json({"command": "x"}, record)
    assert json.loads(text) == {"meta": {"command": "x"}, "rules": record}


def test_the_guide_table_is_the_recorded_stream():
    # the performance page's stream rows and figure come from the one recorded run
    import readme

    recorded = json.loads((ROOT / "benchmarks" / "results" / "streams_rules.json").read_text())
    cells = {
        "fixed 224x224, linear antialias": 'fixed 224×224, `resize(..., "linear", antialias=True)`',
        "shorter edge 256, linear antialias": "shorter edge 256, the same call",
        "half size, pil_bicubic": 'half size, `resize(..., "pil_bicubic")`',
    }
    assert list(recorded["rules"]) == list(cells) == list(streams.RULES)
    for name, calls in recorded["rules"].items():
        mean = {k: sum(c[k] for c in calls) / len(calls) for k in ("jax_resize_ms", "pillow_ms", "torch_ms")}
        row = readme.row(cells[name])
        assert row[1] == f"{mean['jax_resize_ms']:.1f}, {calls[-1]['programs']}", (name, row)
        assert row[2] == f"{mean['pillow_ms']:.1f}" and row[3] == f"{mean['torch_ms']:.2f}", (name, row)


def test_cli_rows_run_the_command_and_the_pillow_loop_for_a_rule():
    rows = streams.cli_rows(2, rounds=1, rule="shorter edge 256")
    assert "-> shorter edge 256" in rows[0]
    for name in ("jax-resize, empty compilation cache", "jax-resize, cache kept", "single-threaded Pillow loop"):
        (row,) = [r for r in rows if r.startswith(f"| {name} |")]
        assert float(row.split("|")[2].split()[0]) > 0, row
    assert rows[-1].endswith(": 0 of 2"), rows[-1]  # stored programs reproduce the first run's files


def test_warm_rows_time_every_rule_in_shared_and_own_programs():
    rows = streams.warm_rows(1, seed=5)[3:]
    assert [row.split("|")[1].strip() for row in rows] == list(streams.RULES)
    for row in rows:
        shared, own, ratio = (float(c.strip().rstrip("x")) for c in row.split("|")[2:5])
        assert shared > 0 and own > 0 and abs(ratio - shared / own) < 0.1 * ratio + 0.05, row  # cells rounded to 0.1 ms
