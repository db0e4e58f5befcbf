"""The README orients rather than archives: at most 200 lines, and every measured figure it quotes is
one that ``benchmarks/RESULTS.md`` (or a log under ``benchmarks/results/``) holds, in a section the
README names.

Oracle: the results files, which the benchmark scripts' runs were copied into.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
RESULTS = "\n".join(
    p.read_text(encoding="utf-8")
    for p in [ROOT / "benchmarks" / "RESULTS.md", *sorted((ROOT / "benchmarks" / "results").glob("*.md"))]
)


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def test_readme_is_at_most_200_lines():
    assert len(README.splitlines()) <= 200


def test_every_figure_of_the_performance_section_is_in_the_results():
    text = _section("Performance")
    figures = set(re.findall(r"(?<![\w.])\d+\.\d+(?![\w.])", text))
    assert len(figures) >= 20, figures  # the table's cells: a test that finds nothing proves nothing
    missing = sorted(f for f in figures if not re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", RESULTS))
    assert not missing, f"README figures not in benchmarks/RESULTS.md: {missing}"


def test_the_results_sections_the_readme_names_exist():
    quoted = [" ".join(n.split()) for n in re.findall(r'"([^"]+)"', _section("Performance"))]
    named = [n for n in quoted if n.startswith("`benchmarks/")]  # "`benchmarks/<script>.py`: <title>"
    assert named, "the Performance section names no RESULTS.md section"
    headings = [h.strip() for h in re.findall(r"^#+ (.*)$", RESULTS, re.M)]
    for name in named:
        assert any(h.startswith(name) for h in headings), f"no RESULTS.md section starts with {name!r}"
