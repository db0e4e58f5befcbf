"""The Colab notebooks in ``colab/`` run top to bottom on CPU (so they cannot rot)."""

import pathlib

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

COLAB = pathlib.Path(__file__).parents[1] / "colab"
NOTEBOOKS = sorted(p.name for p in COLAB.glob("*.ipynb"))


def test_notebooks_present():
    assert {
        "quickstart.ipynb",
        "onnx_conformance.ipynb",
        "flax_tpu_preprocessing.ipynb",
        "ragged_pipeline.ipynb",
        "grain_training.ipynb",
    } <= set(NOTEBOOKS)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_executes(name, tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(COLAB / name, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    errors = [
        o
        for cell in nb.cells
        if cell.cell_type == "code"
        for o in cell.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
    if name == "onnx_conformance.ipynb":
        text = "".join(o.get("text", "") for o in nb.cells[2].get("outputs", []))
        agree, total = text.split(" backend cases agree")[0].split()[-3::2]
        assert agree == total and int(total) >= 39, text[:200]
        sweep = "".join(o.get("text", "") for o in nb.cells[3].get("outputs", []))
        counts = [line.split()[-1].split("/") for line in sweep.splitlines()[1:]]
        assert counts and all(a == b for a, b in counts), sweep
