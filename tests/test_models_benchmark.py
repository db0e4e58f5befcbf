"""``benchmarks/models.py`` runs end to end on CPU (small sizes): every model, both layer kinds,
numbers in every column but torch's (no CUDA device here)."""

from conftest import benchmark_module


def test_models_benchmark_prints_every_row():
    models = benchmark_module("models")
    lines = models.main(["--batch", "1", "--channels", "4", "--repeats", "1", "--compiles", "1"])
    rows = lines[3:]
    assert [row.split("|")[1].strip() for row in rows] == models.NAMES
    for row in rows:
        cells = [c.strip() for c in row.split("|")[2:-1]]
        assert all(float(c) > 0 for c in cells[:3] + cells[5:8]), row
        assert all(float(t) > 0 for c in cells[3:5] for t in c.split(" / ")), row
