"""Every committed figure is readable at the widths the book shows it, on a desktop and a phone.

A figure wider than the text column is shrunk to fit it, and its text with it.  Each PNG output
carries a record of its own text sizes, written when the notebook was executed
(``mltutor.plots._text_record``, switched on by ``scripts/notebook_tools.py``).  This test reads
every PNG output of every notebook in ``book/``, ``solutions/`` and ``exercises/`` and checks that
the record exists and that the smallest text, shrunk into a column of
``mltutor.plots._text_record.COLUMN_PX`` CSS px, is at least ``MIN_TEXT_PX`` high.  A figure that
fails needs larger fonts, fewer or stacked panels, or a narrower ``figsize``, then a re-execution
(``python scripts/run_notebooks.py NOTEBOOK``).

Two more widths (issue 26). On the desktop (the 1280 px layout, a ``COLUMN_PX`` column) the
smallest text should reach :data:`DESKTOP_MIN_PX` (9 px), a notch above the hard floor; notebooks
in :data:`PENDING_DESKTOP` still have a figure between the two. On a phone (390 px window, a
358 px column) ``book/_static/mltutor.css`` shows a figure at its own width up to
:data:`PHONE_SHOWN_PX` (1.8 columns) in a box that scrolls sideways, so the text is shrunk into
that width, and must stay at least :data:`PHONE_MIN_PX` high.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from mltutor.plots._text_record import COLUMN_PX, MIN_TEXT_PX, read_record, shown_text_px

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(
    p for folder in ("book", "solutions", "exercises") for p in (ROOT / folder).glob("*.ipynb")
)

#: Smallest text, CSS px, of a figure in the desktop column (COLUMN_PX, 1280 px window).
DESKTOP_MIN_PX = 9.0
#: Widest a figure is shown on a phone: 1.8 times the 358 px column (mltutor.css, max-width 180%).
PHONE_COLUMN_PX = 358
PHONE_SHOWN_PX = 1.8 * PHONE_COLUMN_PX
PHONE_MIN_PX = 8.0
#: Notebooks with a figure between MIN_TEXT_PX and DESKTOP_MIN_PX on the desktop, owned by other
#: chapters' work (issue 26): fewer or stacked panels, or a narrower figsize, then re-execute.
PENDING_DESKTOP: set[str] = set()


def figures(path: Path):
    """(cell index, PNG bytes, display width or None) of every PNG output of the notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png is not None:
                width = output.get("metadata", {}).get("image/png", {}).get("width")
                yield index, base64.b64decode("".join(png) if isinstance(png, list) else png), width


def problems(path: Path, column_px: float = COLUMN_PX, min_px: float = MIN_TEXT_PX) -> list[str]:
    found = []
    for index, png, width in figures(path):
        record = read_record(png)
        if record is None:
            found.append(f"cell {index}: no text record (re-execute with scripts/run_notebooks.py)")
            continue
        px = shown_text_px(record, column_px=column_px, shown_width_px=width)
        if px is not None and px < min_px:
            found.append(
                f"cell {index}: smallest text {px:.1f} px ({record['smallest_pt']:g} pt "
                f"{record['smallest']!r} in a {record['width_px']} px wide PNG at "
                f"{record['dpi']:g} dpi)"
            )
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_figure_text_is_readable_in_the_column(path):
    found = problems(path)
    assert not found, (
        f"{path.relative_to(ROOT)}: text smaller than {MIN_TEXT_PX:g} px in the "
        f"{COLUMN_PX} px column:\n  " + "\n  ".join(found)
    )


def _desktop_param(path: Path):
    name = str(path.relative_to(ROOT))
    marks = [pytest.mark.xfail(reason="issue 26: a figure below 9 px on the desktop", strict=False)]
    return pytest.param(path, id=name, marks=marks if name in PENDING_DESKTOP else [])


@pytest.mark.parametrize("path", [_desktop_param(p) for p in NOTEBOOKS])
def test_figure_text_reaches_9_px_on_the_desktop(path):
    found = problems(path, COLUMN_PX, DESKTOP_MIN_PX)
    assert not found, (
        f"{path.relative_to(ROOT)}: text smaller than {DESKTOP_MIN_PX:g} px in the "
        f"{COLUMN_PX} px desktop column:\n  " + "\n  ".join(found)
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_figure_text_is_readable_on_a_phone(path):
    found = problems(path, PHONE_SHOWN_PX, PHONE_MIN_PX)
    assert not found, (
        f"{path.relative_to(ROOT)}: text smaller than {PHONE_MIN_PX:g} px on a "
        f"phone (figures shown at most {PHONE_SHOWN_PX:g} px wide):\n  " + "\n  ".join(found)
    )


def test_pending_desktop_names_existing_notebooks():
    names = {str(p.relative_to(ROOT)) for p in NOTEBOOKS}
    assert PENDING_DESKTOP <= names, sorted(PENDING_DESKTOP - names)


def test_the_phone_width_matches_the_css():
    css = (ROOT / "book" / "_static" / "mltutor.css").read_text(encoding="utf-8")
    assert "max-width: 180%;" in css and PHONE_SHOWN_PX == 1.8 * PHONE_COLUMN_PX


def test_the_audit_reads_the_notebooks():
    assert any(True for path in NOTEBOOKS for _ in figures(path)), "no PNG outputs found"
