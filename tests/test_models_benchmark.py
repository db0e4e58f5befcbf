"""``benchmarks/models.py`` runs end to end on CPU (small sizes): every model, both layer kinds,
numbers in every column but torch's (no CUDA device here)."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_models_benchmark_prints_every_row():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import models
    finally:
        sys.path.pop(0)
    lines = models.main(["--batch", "1", "--channels", "4", "--repeats", "1", "--compiles", "1"])
    rows = lines[3:]
    assert [row.split("|")[1].strip() for row in rows] == models.NAMES
    for row in rows:
        cells = [c.strip() for c in row.split("|")[2:-1]]
        assert all(float(c) > 0 for c in cells[:6]), row
