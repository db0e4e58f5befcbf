"""The README's parity tables, read by the tests that measure them.

Every number in the README's conformance and parity tables is re-measured by a test: the test
computes the row it expects from its own sweep and calls ``assert_row`` (exact text: counts,
"exact", "bit exact"), or reads a stated bound with ``bound`` and asserts that what it measured
stays within it. A README edit that no measurement backs, or a regression that breaks a claim,
fails the suite.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def rows() -> list[list[str]]:
    """Every markdown table row of the README, as stripped cells."""
    return [_cells(line) for line in README.read_text(encoding="utf-8").splitlines() if line.lstrip().startswith("|")]


def row(*lead: str) -> list[str]:
    """The cells of the one README table row whose leading cells start with ``lead``."""
    found = [r for r in rows() if len(r) >= len(lead) and all(c.startswith(p) for c, p in zip(r, lead))]
    if len(found) != 1:
        raise AssertionError(f"README.md: expected one table row starting with {lead!r}, found {len(found)}")
    return found[0]


def assert_row(*cells: str) -> None:
    """Assert the README holds this exact row (matched by its first cell), with a readable diff."""
    have = row(cells[0])
    want = [c.strip() for c in cells]
    if have != want:
        raise AssertionError(
            "README.md row differs from the measurement:\n  README:   | "
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
        raise AssertionError(f"README.md: no bound {label!r} in cell {cell!r} of row {lead!r}")
    return float(match.group(1))
