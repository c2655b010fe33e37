"""Every line of every code cell in the notebooks fits the book's code column (100 characters).

The built book shows code in a fixed-width column; a longer line runs off it (or scrolls), and the
reader loses the end of it. Markdown cells are not checked: prose wraps.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIRS = ("book", "solutions", "exercises")
NOTEBOOKS = sorted(p for d in NOTEBOOK_DIRS for p in (ROOT / d).glob("*.ipynb"))
MAX_COLUMNS = 100

#: Notebooks that still have longer lines, each owned by another chapter's work (issue 11). Remove
#: an entry once its notebook passes; the test then holds it to the limit.
PENDING: set[str] = set()


def long_code_lines(notebook: dict, max_columns: int = MAX_COLUMNS) -> list[tuple[int, int, int]]:
    """(cell index, line number from 1, length) of every code line longer than ``max_columns``."""
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for number, line in enumerate(source.split("\n"), start=1):
            if len(line) > max_columns:
                found.append((index, number, len(line)))
    return found


def _param(path: Path):
    name = path.relative_to(ROOT).as_posix()
    marks = [pytest.mark.xfail(reason="issue 11: long lines not yet reformatted", strict=False)]
    return pytest.param(path, id=name, marks=marks if name in PENDING else [])


@pytest.mark.parametrize("path", [_param(p) for p in NOTEBOOKS])
def test_code_lines_fit_the_column(path: Path) -> None:
    found = long_code_lines(json.loads(path.read_text(encoding="utf-8")))
    listing = ", ".join(f"cell {c} line {n} ({length} columns)" for c, n, length in found)
    assert not found, f"{path.relative_to(ROOT)}: code lines over {MAX_COLUMNS} columns: {listing}"


def test_pending_names_existing_notebooks() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in NOTEBOOKS}
    assert PENDING <= names, f"PENDING lists notebooks that do not exist: {sorted(PENDING - names)}"


def test_the_check_finds_a_long_line_and_ignores_markdown() -> None:
    notebook = {"cells": [
        {"cell_type": "markdown", "source": "x" * 150},
        {"cell_type": "code", "source": ["a = 1\n", "b = '" + "y" * 100 + "'\n", "c = 3"]},
        {"cell_type": "code", "source": "z" * MAX_COLUMNS},
    ]}
    assert long_code_lines(notebook) == [(1, 2, 106)]
