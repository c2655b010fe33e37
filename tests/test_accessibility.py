"""Every figure in the book has alt text.

Two checks: the notebooks carry alt text in the metadata of each code cell that draws a figure
(``metadata.mystnb.image.alt``, which myst-nb copies onto the ``<img>``), and, when the book
has been built, every output image in ``_build/html`` has an alt text that is a description,
not the image's file name (myst-nb's fallback). scripts/set_figure_alt_text.py writes them.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
NOTEBOOK_DIRS = ("book", "solutions", "exercises")
IMAGE_MIME = ("image/png", "image/svg+xml", "image/jpeg", "image/gif")
FILENAME_RE = re.compile(r"\.(png|svg|jpe?g|gif)$", re.IGNORECASE)


def _notebooks() -> list[Path]:
    return sorted(p for d in NOTEBOOK_DIRS for p in (ROOT / d).glob("*.ipynb"))


def _is_description(alt: str | None, src: str | None = None) -> bool:
    alt = (alt or "").strip()
    return len(alt.split()) >= 4 and alt != (src or "").strip() and not FILENAME_RE.search(alt)


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_figure_cells_have_alt_text(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    missing = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        if not any(
            mime in out.get("data", {}) for out in cell.get("outputs", []) for mime in IMAGE_MIME
        ):
            continue
        alt = cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt")
        if not _is_description(alt):
            missing.append(f"cell {index} (id {cell.get('id')!r})")
    assert not missing, (
        f"{path.name}: figure cells without alt text in metadata.mystnb.image.alt: "
        f"{', '.join(missing)} (add them to scripts/set_figure_alt_text.py and run it)"
    )


class _Images(HTMLParser):
    """Collect the <img> tags of the page body with whether they sit in a notebook output."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open <div>: is it a cell output?
        self.images: list[tuple[dict, bool]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "div":
            classes = (attributes.get("class") or "").split()
            self.stack.append("cell_output" in classes or (bool(self.stack) and self.stack[-1]))
        elif tag == "img":
            self.images.append((attributes, bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag):
        if tag == "div" and self.stack:
            self.stack.pop()


def _built_pages() -> list[Path]:
    if not (HTML / "index.html").is_file():
        return []
    return sorted(p for d in NOTEBOOK_DIRS for p in (HTML / d).glob("*.html"))


@pytest.mark.skipif(not (HTML / "index.html").is_file(), reason="book not built (make book)")
def test_built_figures_have_alt_text() -> None:
    problems = []
    figures = 0
    for page in _built_pages():
        parser = _Images()
        parser.feed(page.read_text(encoding="utf-8"))
        for attrs, in_output in parser.images:
            src = attrs.get("src") or ""
            if not (in_output or "_images/" in src):
                continue
            figures += 1
            if not _is_description(attrs.get("alt"), src):
                problems.append(f"{page.relative_to(HTML)}: {src} alt={attrs.get('alt')!r}")
    assert figures, "no figures found in the built book"
    assert not problems, "images without a real description:\n" + "\n".join(problems)


def test_image_parser_tracks_outputs() -> None:
    parser = _Images()
    parser.feed(
        '<div class="cell_output docutils container"><div class="output">'
        '<img alt="a" src="../_images/x.png"/></div></div><img src="logo.svg" alt="">'
    )
    assert [(a["src"], out) for a, out in parser.images] == [
        ("../_images/x.png", True),
        ("logo.svg", False),
    ]


def test_file_names_are_not_descriptions() -> None:
    assert not _is_description("../_images/4357e8bf.png", "../_images/4357e8bf.png")
    assert not _is_description("")
    assert _is_description("Two heat maps of the same confusion matrix")


# Colour-blind-safe palettes in mltutor's plotting helpers -----------------------------------

OKABE_ITO = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7"}


def test_plot_palettes_are_colour_blind_safe() -> None:
    import inspect

    from matplotlib.colors import to_hex

    from mltutor import plots
    from mltutor.plots import curves as curve_plots
    from mltutor.plots import detection as detection_plots

    default_cmap = inspect.signature(plots.plot_confusion_matrix).parameters["cmap"].default
    assert default_cmap in {"viridis", "cividis"}
    assert {to_hex(c) for c in curve_plots.CURVE_COLOURS} <= OKABE_ITO
    detection = {
        detection_plots.BOX_COLOUR,
        detection_plots.INTERSECTION_COLOUR,
        *detection_plots.IOU_COLOURS,
    }
    assert {to_hex(c) for c in detection} <= OKABE_ITO
