"""The parity tables of the README and the guide, read by the tests that measure them.

Every number in the conformance and parity tables of ``README.md`` and of the guide pages
(``docs/guide/*.md``) is re-measured by a test: the test computes the row it expects from its own
sweep and calls ``assert_row`` (exact text: counts, "exact", "bit exact"), or reads a stated bound
with ``bound`` and asserts that what it measured stays within it. An edit that no measurement
backs, or a regression that breaks a claim, fails the suite.

A row is found by its leading cells among the table rows of all those pages together, and must be
the only one: two rows that match and differ fail, so a claim is stated once. The same row copied
verbatim onto two pages (a summary repeating a guide row) counts once.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The guide's pages, one per task; their tables are read with the README's.
GUIDE = ROOT / "docs" / "guide"


def pages() -> list[Path]:
    """The pages whose tables are read: README.md, then every ``docs/guide/*.md`` (sorted)."""
    return [README, *sorted(GUIDE.glob("*.md"))]


def text() -> str:
    """The text of every page of :func:`pages`, joined (for sentences a test looks for)."""
    return "\n".join(page.read_text(encoding="utf-8") for page in pages())


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _located_rows() -> list[tuple[str, list[str]]]:
    """``(page, cells)`` of every markdown table row of :func:`pages`."""
    found = []
    for page in pages():
        name = page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else str(page)
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("|"):
                found.append((name, _cells(line)))
    return found


def rows() -> list[list[str]]:
    """Every markdown table row of the README and the guide pages, as stripped cells."""
    return [cells for _, cells in _located_rows()]


def row(*lead: str) -> list[str]:
    """The cells of the one table row (README or guide) whose leading cells start with ``lead``.

    Identical rows on several pages count as one; matching rows that differ are an error.
    """
    found = [
        (page, r)
        for page, r in _located_rows()
        if len(r) >= len(lead) and all(c.startswith(p) for c, p in zip(r, lead))
    ]
    distinct = {tuple(r) for _, r in found}
    if len(distinct) != 1:
        where = ", ".join(sorted({page for page, _ in found})) or "README.md, docs/guide/*.md"
        raise AssertionError(f"{where}: expected one table row starting with {lead!r}, found {len(distinct)}")
    return found[0][1]


def assert_row(*cells: str) -> None:
    """Assert the README or a guide page holds this exact row (matched by its first cell), with a readable diff."""
    have = row(cells[0])
    want = [c.strip() for c in cells]
    if have != want:
        raise AssertionError(
            "the table row differs from the measurement:\n  stated:   | "
            + " | ".join(have)
            + " |\n  measured: | "
            + " | ".join(want)
            + " |"
        )


def bound(lead: str | tuple[str, ...], column: int, label: str = "") -> float:
    """The number after ``≤`` (or "within") in a row's cell; with ``label``, the one just before it.

    ``lead`` is the row's first cell (or its leading cells, a tuple), matched by prefix as in
    :func:`row`: ``bound(("`cv2.resize`", "LINEAR"), 2, "rel")`` on "≤ 1.2e-6 rel" gives 1.2e-6.
    """
    cell = row(*((lead,) if isinstance(lead, str) else lead))[column]
    number = r"([0-9.]+(?:e-?[0-9]+)?)"
    pattern = rf"(?:≤|within)\s*{number}\s*{re.escape(label)}" if label else rf"(?:≤|within)\s*{number}"
    match = re.search(pattern, cell)
    if not match:
        raise AssertionError(f"README.md, docs/guide: no bound {label!r} in cell {cell!r} of row {lead!r}")
    return float(match.group(1))
