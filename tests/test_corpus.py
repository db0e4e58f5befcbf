"""``tests/corpus.py``: a corpus recorded by one process compares identical in another, and a
recorded output, refusal or case description that no longer matches is reported and fails."""

import hashlib
import json
import pathlib
import subprocess
import sys

import numpy as np
from corpus import differing_elements, max_abs_diff

CORPUS = pathlib.Path(__file__).with_name("corpus.py")


def _corpus(*args):
    return subprocess.run([sys.executable, str(CORPUS), *args], capture_output=True, text=True, timeout=600)


def _rewrite(path, index, arrays, meta):
    np.savez_compressed(path, __meta__=np.asarray(json.dumps(meta)), __index__=np.asarray(json.dumps(index)), **arrays)


def test_record_compare_identical_then_each_planted_difference_is_reported(tmp_path):
    path = tmp_path / "corpus.npz"
    rec = _corpus("record", "--cases", "40", "--no-large", "--out", str(path))
    assert rec.returncode == 0, rec.stdout + rec.stderr
    same = _corpus("compare", "--corpus", str(path))
    assert same.returncode == 0, same.stdout + same.stderr
    assert "all identical" in same.stdout
    assert [line.split() for line in same.stdout.splitlines() if line.startswith("TOTAL")] == [
        ["TOTAL", "40", "40", "0", "0"]
    ]

    with np.load(path) as data:
        meta = json.loads(str(data["__meta__"]))
        index = json.loads(str(data["__index__"]))
        arrays = {k: data[k] for k in data.files if not k.startswith("__")}
    assert len(index) == 40
    # One float32 output changed by +1 in its first element (as a changed result would be).
    changed = next(
        cid
        for cid, e in index.items()
        if "outputs" in e and e["outputs"]["y"]["dtype"] == "float32" and e["outputs"]["y"]["stored"]
        if np.prod(e["outputs"]["y"]["shape"]) > 0
    )
    y = index[changed]["outputs"]["y"]
    a = np.frombuffer(arrays[f"{changed}.y"].tobytes(), np.float32).copy()
    a[0] = 1.0 if not np.isfinite(a[0]) else a[0] + np.float32(1.0)
    arrays[f"{changed}.y"] = np.frombuffer(a.tobytes(), np.uint8)
    y["sha256"] = hashlib.sha256(a.tobytes()).hexdigest()
    # One refusal recorded with another exception type.
    refused = next(cid for cid, e in index.items() if "error" in e)
    real_type = index[refused]["error"]["type"]
    index[refused]["error"]["type"] = "KeyError"
    # One case whose recorded description no longer matches what the script draws.
    redrawn = next(cid for cid in index if cid not in (changed, refused))
    index[redrawn]["desc"] = index[redrawn]["desc"].replace('"mode": ', '"mode":  ')
    _rewrite(path, index, arrays, meta)

    diff = _corpus("compare", "--corpus", str(path))
    assert diff.returncode == 1, diff.stdout + diff.stderr
    assert "Traceback" not in diff.stderr, diff.stderr
    lines = diff.stdout.splitlines()
    assert f"DIFFERING {changed}: y bytes differ: 1 of {int(np.prod(y['shape']))} elements" in "\n".join(lines)
    assert f"DIFFERING {refused}: refusal type KeyError -> {real_type}" in lines
    assert any(line.startswith(f"ERRORS {redrawn}: the redrawn case differs") for line in lines)
    assert [line.split() for line in lines if line.startswith("TOTAL")] == [["TOTAL", "40", "37", "2", "1"]]
    assert "3 case(s) not identical" in lines

    allowed = _corpus("compare", "--corpus", str(path), "--allow-diff", "--only", changed.split("-")[0])
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert f"DIFFERING {changed}" in allowed.stdout


def test_max_abs_diff_measures_values_and_differing_elements_counts_bit_patterns():
    a = np.array([1.0, 0.0, np.nan, 5.0], np.float32)
    assert differing_elements(a, np.array([1.0, -0.0, np.nan, 5.0], np.float32)) == 1  # -0.0: another pattern
    assert differing_elements(a, np.array([1.5, 0.0, np.nan, 2.0], np.float32)) == 2
    assert max_abs_diff(a, np.array([1.0, -0.0, np.nan, 5.0], np.float32)) == 0.0
    assert max_abs_diff(a, np.array([1.5, 0.0, np.nan, 2.0], np.float32)) == 3.0
    assert max_abs_diff(a, np.array([1.0, 0.0, 0.0, 5.0], np.float32)) == float("inf")
    assert max_abs_diff(np.array([200], np.uint8), np.array([3], np.uint8)) == 197.0
