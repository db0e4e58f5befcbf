"""The README's ``## Use`` examples run as written after the install line the README puts above them.

Each Python block of the section follows a bash block holding one ``pip install`` line. For each
pair, the test copies the repository (its tracked and unignored files, as a checkout has them) to
a temporary folder, makes a fresh virtual environment there (``python -m venv``), runs that exact
install line in the copy with the environment's pip (``--quiet``; pip's cache is reused), and runs
the block with the environment's Python outside the repository, so only the installed package and
the dependencies that line brought can be imported. Both the line and the code come from the
README: an example that needs an extra its line does not install fails here.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from readme import README

ROOT = README.parent


def use_examples() -> list[tuple[str, str]]:
    """``(install line, code)`` for each Python block of the README's ``## Use`` section."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Use\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, "README.md has no '## Use' section"
    blocks = re.findall(r"^```(\w+)\n(.*?)^```", section.group(1), re.S | re.M)
    pairs = []
    for i, (language, code) in enumerate(blocks):
        if language != "python":
            continue
        assert i > 0 and blocks[i - 1][0] == "bash", f"Python block {len(pairs) + 1} of '## Use' has no install line"
        (line,) = blocks[i - 1][1].strip().splitlines()
        assert line.startswith("pip install "), line
        pairs.append((line, code))
    return pairs


EXAMPLES = use_examples()


def test_core_examples_need_only_the_library():
    # the first block is the library alone: `pip install .`, no extra
    assert len(EXAMPLES) >= 2 and EXAMPLES[0][0] == "pip install ."


def _checkout(dest: Path) -> Path:
    """The repository's tracked and unignored files (no virtual environments or build outputs)."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    for name in filter(None, listing.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # listed files deleted in the working tree are skipped
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@pytest.mark.parametrize("install,code", EXAMPLES, ids=[line for line, _ in EXAMPLES])
def test_use_block_runs_after_its_install_line(tmp_path, install, code):
    # no path into the repository or the suite's environment; pip's own settings (index, cache) stay
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    repo = _checkout(tmp_path / "repo")
    command = shlex.split(install)
    assert command[:2] == ["pip", "install"], install
    pip = [str(python), "-m", "pip", "install", "--quiet", *command[2:]]
    done = subprocess.run(pip, cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{install} failed:\n{done.stdout}\n{done.stderr}"
    script = tmp_path / "work" / "use.py"
    script.parent.mkdir()
    script.write_text(code, encoding="utf-8")
    run = subprocess.run([str(python), str(script)], cwd=script.parent, env=env, capture_output=True, text=True)
    assert run.returncode == 0, f"the README block after `{install}` failed:\n{run.stdout}\n{run.stderr}"
