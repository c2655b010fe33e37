"""List the code lines and text-output lines of the notebooks that are wider than the book's column.

Usage::

    python scripts/check_line_widths.py                    # every notebook, both limits
    python scripts/check_line_widths.py book/08_ucf101_case_study.ipynb
    python scripts/check_line_widths.py --site _build/html # measure the column in Chromium first

The column, in characters. The site shows code cells and their text outputs in the same ``pre``
block style. In a 1280 px window (sphinx-book-theme, both sidebars shown) that block is
:data:`BLOCK_PX` wide. ``book/_static/mltutor.css`` sets its font to :data:`FONT_PX` px and its
padding to :data:`PADDING_PX` px; the widest of the monospace fonts the theme asks for (DejaVu
Sans Mono, also Menlo's width) advances :data:`CHAR_EM` em per character, so a line of
:data:`COLUMNS` characters fits (``floor((684 - 2 * 12) / (12.4 * 0.602)) = 88``). With the
theme's own 14 px font and 16 px padding the same block held only 77. ``--site`` measures the
block and the advance in the built book instead of trusting these numbers.

What counts as a text output: a ``stream`` output (``print``), and the ``text/plain`` of a result
or display that has no richer form the site shows instead (HTML, an image, a widget, Markdown,
LaTeX). From a 720 px window up, lines longer than the column wrap on the site (``white-space:
pre-wrap`` in mltutor.css), so nothing is hidden, but a wrapped table or log line is hard to
read; on a phone a block scrolls sideways inside itself. Keep printed lines within :data:`COLUMNS`.
``tests/test_code_line_length.py`` holds code lines to its own limit and text
outputs to :data:`COLUMNS`.

Exit status 1 when an output line is longer than the column, 0 otherwise (code lines between
:data:`COLUMNS` and the test's limit are listed but do not fail).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIRS = ("book", "solutions", "exercises")

#: Width in CSS px of a code or output block in a 1280 px window (measured in Chromium).
BLOCK_PX = 684
#: The block's font size and its left and right padding, set in book/_static/mltutor.css.
FONT_PX = 12.4
PADDING_PX = 12
#: Advance of one character of DejaVu Sans Mono (1233 / 2048 em; Menlo is the same).
CHAR_EM = 0.602
#: Characters that fit on one line of the block.
COLUMNS = math.floor((BLOCK_PX - 2 * PADDING_PX) / (FONT_PX * CHAR_EM))

#: Output types whose text/plain the site does not show (a richer form is shown instead).
RICHER = (
    "text/html",
    "image/png",
    "image/svg+xml",
    "image/jpeg",
    "text/markdown",
    "text/latex",
    "application/vnd.jupyter.widget-view+json",
)


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def notebooks(paths: list[str] | None = None) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p for d in NOTEBOOK_DIRS for p in (ROOT / d).glob("*.ipynb"))


def long_code_lines(notebook: dict, max_columns: int = COLUMNS) -> list[tuple[int, int, int]]:
    """(cell index, line number from 1, length) of every code line longer than ``max_columns``."""
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        for number, line in enumerate(_text(cell["source"]).split("\n"), start=1):
            if len(line) > max_columns:
                found.append((index, number, len(line)))
    return found


def output_texts(cell: dict) -> list[str]:
    """The texts the site shows as plain text for one code cell's outputs."""
    texts = []
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            texts.append(_text(output.get("text", "")))
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "text/plain" in data and not any(mime in data for mime in RICHER):
                texts.append(_text(data["text/plain"]))
        elif kind == "error":
            texts.append("\n".join(output.get("traceback", [])))
    return texts


def long_output_lines(notebook: dict, max_columns: int = COLUMNS) -> list[tuple[int, int, str]]:
    """(cell index, length, the line) of every text-output line longer than ``max_columns``."""
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        for text in output_texts(cell):
            for line in text.split("\n"):
                if len(line) > max_columns:
                    found.append((index, len(line), line))
    return found


def measure(site: Path, page: str = "book/01_confusion_matrix.html") -> dict:
    """Block width, padding, font size and character advance of a code block, in Chromium."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from check_site import CHROMIUM, CHROMIUM_ARGS, serve
    from playwright.sync_api import sync_playwright

    server, base = serve(site.resolve())
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
            tab.goto(base + page, wait_until="load")
            found = tab.evaluate("""() => {
              const pre = document.querySelector('div.cell_input pre, div.highlight pre');
              const cs = getComputedStyle(pre);
              const probe = document.createElement('span');
              probe.style.whiteSpace = 'pre';
              probe.textContent = 'x'.repeat(200);
              pre.appendChild(probe);
              const advance = probe.getBoundingClientRect().width / 200;
              probe.remove();
              return {block_px: pre.getBoundingClientRect().width,
                      padding_px: parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight),
                      font_px: parseFloat(cs.fontSize), advance_px: advance};
            }""")
            browser.close()
    finally:
        server.shutdown()
    found["columns"] = math.floor((found["block_px"] - found["padding_px"]) / found["advance_px"])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks (default: all)")
    parser.add_argument(
        "--site",
        type=Path,
        default=None,
        help="a built book (e.g. _build/html): measure the column there",
    )
    parser.add_argument("--columns", type=int, default=None, help="override the column width")
    args = parser.parse_args(argv)
    columns = args.columns or COLUMNS
    if args.site is not None:
        measured = measure(args.site)
        print("measured at 1280 px: " + ", ".join(f"{k} {v:g}" for k, v in measured.items()))
        columns = args.columns or measured["columns"]
    print(f"column: {columns} characters")
    failing = 0
    for path in notebooks(args.notebooks):
        nb = json.loads(path.read_text(encoding="utf-8"))
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        code, outputs = long_code_lines(nb, columns), long_output_lines(nb, columns)
        if not (code or outputs):
            continue
        failing += bool(outputs)
        print(f"{name}: {len(code)} code line(s), {len(outputs)} output line(s) over {columns}")
        for index, length, line in outputs:
            print(f"  cell {index} output ({length}): {line[:110]}")
        for index, number, length in code:
            print(f"  cell {index} line {number} ({length})")
    print(f"{failing} notebook(s) with output lines over {columns} characters")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
