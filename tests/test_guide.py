"""The guide's examples run as written: every ```python block of each ``docs/guide/*.md`` page.

Each page's blocks run in order in one fresh namespace, in a fresh Python process (so no JAX
configuration such as ``jax_enable_x64`` leaks between pages), in a temporary working directory,
with ``MPLBACKEND=Agg``. A traceback names the page and its line. A block fenced as
```python no-run is shown, not run (for what cannot run here: an accelerator, ``gs://``); shell
commands and output are fenced as ```bash, ```console or ```text and not run either.

README.md's ```python blocks are one more case, except those of its ``## Use`` section, which
``tests/test_readme_use.py`` runs in fresh virtual environments after their install lines.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide"
README = ROOT / "README.md"

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
_RUNNER = """
import sys
namespace = {"__name__": "__main__"}
for name, line, code in BLOCKS:
    # blank lines first, so a traceback's line numbers are the page's
    exec(compile("\\n" * line + code, name, "exec"), namespace)
"""


def python_blocks(page: Path, skip_section: str | None = None) -> list[tuple[int, str]]:
    """``(line of the block's first code line - 1, code)`` of each runnable ```python block.

    With ``skip_section`` (a ``## `` heading's text), the blocks under that heading (up to the next
    ``## `` heading) are left out.
    """
    text = page.read_text(encoding="utf-8")
    skipped: tuple[int, int] | None = None
    if skip_section is not None:
        section = re.search(rf"^## {re.escape(skip_section)}\n.*?(?=^## |\Z)", text, re.S | re.M)
        if section:
            skipped = section.span()
    blocks = []
    for match in _FENCE.finditer(text):
        info = match.group(1).split()
        if not info or info[0] != "python" or "no-run" in info[1:]:
            continue
        if skipped and skipped[0] <= match.start() < skipped[1]:
            continue
        blocks.append((text.count("\n", 0, match.start(2)), match.group(2)))
    return blocks


PAGES = sorted(GUIDE.glob("*.md"))
# the README's blocks outside "## Use" (those run in fresh environments: tests/test_readme_use.py)
CASES = [(page, skip) for page, skip in [(p, None) for p in PAGES] + [(README, "Use")] if python_blocks(page, skip)]
#: Pages without examples to run: tables of measurements only.
WITHOUT_EXAMPLES = {"performance.md"}


def test_guide_pages_exist_and_hold_examples():
    assert len(PAGES) >= 10, PAGES
    assert {p.name for p in PAGES if not python_blocks(p)} == WITHOUT_EXAMPLES


@pytest.mark.parametrize("page,skip", CASES, ids=[page.relative_to(ROOT).as_posix() for page, _ in CASES])
def test_python_blocks_run(tmp_path, page, skip):
    blocks = python_blocks(page, skip)
    name = page.relative_to(ROOT).as_posix()
    script = f"BLOCKS = {[(name, line, code) for line, code in blocks]!r}\n" + _RUNNER
    env = {**os.environ, "MPLBACKEND": "Agg"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, f"a python block of {name} failed:\n{run.stdout}\n{run.stderr}"


def test_fence_parser_skips_no_run_and_other_languages(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# t\n\n```python\na = 1\n```\n\n```python no-run\nb = 2\n```\n\n```bash\nls\n```\n\n"
        "## Use\n\n```python\nc = 3\n```\n\n## Next\n\n```python\nd = 4\n```\n",
        encoding="utf-8",
    )
    assert [code for _, code in python_blocks(page)] == ["a = 1\n", "c = 3\n", "d = 4\n"]
    assert python_blocks(page, "Use") == [(3, "a = 1\n"), (23, "d = 4\n")]
