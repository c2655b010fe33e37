"""Every committed figure is readable at the width the book shows it: smallest text >= 8 CSS px.

A figure wider than the text column is shrunk to fit it, and its text with it.  Each PNG output
carries a record of its own text sizes, written when the notebook was executed
(``mltutor.plots._text_record``, switched on by ``scripts/notebook_tools.py``).  This test reads
every PNG output of every notebook in ``book/``, ``solutions/`` and ``exercises/`` and checks that
the record exists and that the smallest text, shrunk into a column of
``mltutor.plots._text_record.COLUMN_PX`` CSS px, is at least ``MIN_TEXT_PX`` high.  A figure that
fails needs larger fonts, fewer or stacked panels, or a narrower ``figsize``, then a re-execution
(``python scripts/run_notebooks.py NOTEBOOK``).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from mltutor.plots._text_record import COLUMN_PX, MIN_TEXT_PX, read_record, shown_text_px

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for folder in ("book", "solutions", "exercises")
                   for p in (ROOT / folder).glob("*.ipynb"))


def figures(path: Path):
    """(cell index, PNG bytes, display width or None) of every PNG output of the notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png is not None:
                width = output.get("metadata", {}).get("image/png", {}).get("width")
                yield index, base64.b64decode("".join(png) if isinstance(png, list) else png), width


def problems(path: Path) -> list[str]:
    found = []
    for index, png, width in figures(path):
        record = read_record(png)
        if record is None:
            found.append(f"cell {index}: no text record (re-execute with scripts/run_notebooks.py)")
            continue
        px = shown_text_px(record, column_px=COLUMN_PX, shown_width_px=width)
        if px is not None and px < MIN_TEXT_PX:
            found.append(f"cell {index}: smallest text {px:.1f} px ({record['smallest_pt']:g} pt "
                         f"{record['smallest']!r} in a {record['width_px']} px wide PNG at "
                         f"{record['dpi']:g} dpi)")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_figure_text_is_readable_in_the_column(path):
    found = problems(path)
    assert not found, (f"{path.relative_to(ROOT)}: text smaller than {MIN_TEXT_PX:g} px in the "
                       f"{COLUMN_PX} px column:\n  " + "\n  ".join(found))


def test_the_audit_reads_the_notebooks():
    assert any(True for path in NOTEBOOKS for _ in figures(path)), "no PNG outputs found"
