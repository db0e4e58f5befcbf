"""``benchmarks/streams.py``'s output rules run end to end on CPU (a few photos): one row per rule, with
jax_resize's, Pillow's and torch's ms per image and the programs jax_resize compiled."""

from conftest import benchmark_module

streams = benchmark_module("streams")


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
