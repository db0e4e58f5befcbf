"""``benchmarks/pipeline.py`` runs end to end on CPU (a few JPEGs): every pipeline prints its row, with
an images/s figure per epoch; jax_resize's row counts its programs; the JPEGs are written once and
have distinct sizes."""

from conftest import benchmark_module
from PIL import Image


def test_pipeline_benchmark_prints_every_row(tmp_path):
    pipeline = benchmark_module("pipeline")
    lines = pipeline.main(["--images", "6", "--batch", "3", "--epochs", "1", "--workers", "0", "--dir", str(tmp_path)])
    rows = lines[3:]
    assert [row.split("|")[1].strip() for row in rows] == pipeline.ROWS
    for row in rows:
        rates = row.split("|")[2].split(",")
        assert len(rates) == 1 and float(rates[0]) > 0, row
    assert all(int(rows[i].split("|")[4]) >= 1 for i in range(3))
    sizes = {Image.open(p).size for p in tmp_path.glob("*.jpg")}
    assert len(sizes) == 6 and all(300 <= s <= 1600 for size in sizes for s in size)
