"""``benchmarks/device_check.py --platform cpu --quick``: the device check runs end to end on CPU.

What is checked: the script exits 0 (every exactness case equal to its oracle), its last line has
the documented form ``device check (cpu <device>): A/B exact, ...`` with A == B > 0 and no block
reported as not run or failed, the exactness table lists every block with a count, the speed
table has its row, and ``--output`` writes the same report. The oracles themselves are the ones
the script uses (onnx.reference, Pillow, torch, OpenVINO's tables, jax.image); what they prove is
in the script's docstring.
"""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BLOCKS = [
    "ONNX Resize random cases",
    "Pillow-exact uint8 (`pil_*`)",
    "compat.torch_interpolate",
    "openvino_interpolate tables",
    "traced geometry",
    "gradients",
    "NaN locality",
    "precision (dense, float32)",
]
SUMMARY = re.compile(r"^device check \(cpu (?P<kind>[^)]+)\): (?P<a>\d+)/(?P<b>\d+) exact, (?P<rest>.*)$")


def _check(*args, env=None):
    """``device_check.py --platform cpu --quick ARGS`` in a subprocess (JAX_PLATFORMS unset)."""
    full = {k: v for k, v in os.environ.items() if k != "JAX_PLATFORMS"}
    full.update(env or {})
    script = [sys.executable, str(ROOT / "benchmarks" / "device_check.py"), "--platform", "cpu", "--quick"]
    return subprocess.run(script + list(args), capture_output=True, text=True, cwd=ROOT, env=full)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    pytest.importorskip("torch")
    report = tmp_path_factory.mktemp("device_check") / "report.md"
    return _check("--output", str(report), "--candidate", "fuse_max_taps=1"), report


def test_quick_cpu_run_exits_0_and_ends_with_the_summary_line(quick_run):
    proc, _ = quick_run
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    last = proc.stdout.strip().splitlines()[-1]
    m = SUMMARY.match(last)
    assert m, last
    assert int(m["a"]) == int(m["b"]) > 0, last
    assert "not run" not in m["rest"] and "failed to run" not in m["rest"], last
    # on CPU the precision comparison is CPU against CPU and must say that it proves nothing
    assert "precision n/a (cpu vs cpu" in m["rest"], last
    assert re.search(r"speed median auto / fastest peer \d+\.\d\d over 1 rows", m["rest"]), last
    # fuse_max_taps=1 splits the quick row's fused pass (2 x 2 taps): a changed program, timed
    changed = r"candidate rule / auto median \d+\.\d\d over 1 changed rows \(\d faster, \d slower by 5 %\+; 0 rows"
    assert re.search(changed, m["rest"]), last
    # the eager stream: 4 distinct shapes, compilations counted (at least the first bucket's program)
    assert re.search(r"stream 4 shapes: [1-9]\d* compilations, mean/warm \d+\.\dx", m["rest"]), last


def test_quick_cpu_run_reports_every_block_and_the_speed_row(quick_run):
    proc, report = quick_run
    rows = {line.split(" | ")[0].lstrip("| "): line for line in proc.stdout.splitlines() if line.startswith("| ")}
    for name in BLOCKS:
        assert name in rows, name
        counts = rows[name].split(" | ")[2]
        if name.startswith("precision"):
            # run, but CPU against CPU: reported as n/a, never as exact
            assert counts.startswith("n/a: CPU vs CPU proves nothing") and counts.endswith("1 / 1 equal)"), counts
            continue
        a, b = (int(v) for v in counts.split(" / "))
        assert a == b > 0, rows[name]
    speed = [line for line in proc.stdout.splitlines() if line.startswith("| bilinear 16x300x451x3 -> 224 |")]
    assert len(speed) == 1 and "failed" not in speed[0] and "skipped" not in speed[0], speed
    auto, candidate = (float(v) for v in speed[0].split(" | ")[1:3])  # the candidate rule timed too
    assert auto > 0 and candidate > 0, speed
    # --output holds the same report and summary
    written = report.read_text()
    assert written.strip().splitlines()[-1] == proc.stdout.strip().splitlines()[-1]
    assert "## Exactness on the device" in written and "## Speed" in written


def test_a_mismatch_exits_1(tmp_path):
    """The exit status follows the judgement: with one ONNX case made to differ (the library's
    output perturbed through a sitecustomize hook in the subprocess), the script exits 1 and the
    summary counts the case."""
    pytest.importorskip("torch")
    hook = tmp_path / "sitecustomize.py"
    hook.write_text(
        "import os, sys\n"
        "sys.path.insert(0, os.path.join(os.environ['DEVICE_CHECK_ROOT'], 'tests'))\n"
        "import onnx_oracles as O\n"
        "_run = O.run_jax\n"
        "def run_jax(case, *a, **k):\n"
        "    y = _run(case, *a, **k)\n"
        "    if case.id.endswith('_00000') and y.size:\n"
        "        y = y.copy(); y.flat[0] += 7\n"
        "    return y\n"
        "O.run_jax = run_jax\n"
    )
    env = dict(PYTHONPATH=str(tmp_path), DEVICE_CHECK_ROOT=str(ROOT))
    proc = _check("--blocks", "onnx", "--no-speed", "--onnx-cases", "4", env=env)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    m = SUMMARY.match(proc.stdout.strip().splitlines()[-1])
    assert m and int(m["b"]) == 4 and int(m["a"]) == 3, proc.stdout[-2000:]
    assert "not run: Pillow-exact" in m["rest"], m["rest"]
    assert "ONNX Resize random cases: r13_00000" in proc.stdout


def test_candidate_rules_are_tuning_fields_and_literals():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import argparse

    import device_check

    assert device_check.candidate_arg("polyphase_shrink_max_phases=1,polyphase_shrink_min_taps=8") == {
        "polyphase_shrink_max_phases": 1,
        "polyphase_shrink_min_taps": 8,
    }
    assert device_check.candidate_arg("wide_min_taps=None") == {"wide_min_taps": None}
    for bad in ("no_such_field=1", "fuse_max_taps", "fuse_max_taps=sixteen"):
        with pytest.raises(argparse.ArgumentTypeError, match=bad.split("=")[0]):
            device_check.candidate_arg(bad)


def test_a_candidate_that_changes_no_program_is_not_timed():
    """A rule that leaves the row's program as it is is reported as ``same`` (timing it again
    would only measure the noise: identical GPU programs differed by up to 1.8x in one run)."""
    pytest.importorskip("torch")
    proc = _check("--blocks", "--stream", "0", "--candidate", "polyphase_shrink_min_taps=8")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    speed = [line for line in proc.stdout.splitlines() if line.startswith("| bilinear 16x300x451x3 -> 224 |")]
    assert len(speed) == 1 and speed[0].split(" | ")[2] == "same", speed
    assert "candidate rule changes none of the 1 rows' programs" in proc.stdout.strip().splitlines()[-1]
