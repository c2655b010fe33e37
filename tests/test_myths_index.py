"""``book/myths.md`` lists every myth box of the book and links to each one.

A myth box is a MyST admonition in a markdown cell of a book notebook (or a book page) whose title
starts with "Myth".  Each must carry a MyST target ``(myth-...)=`` on the line right before it,
and the index must link to that target with ``{ref}``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
INDEX = BOOK / "myths.md"
OPEN = re.compile(
    r"^(`{3,}|:{3,})\{(?:admonition|warning|note|important|caution|attention|tip|hint|danger|error)\}\s*(Myth\b.*)$"
)
TARGET = re.compile(r"^\((myth-[\w-]+)\)=\s*$")


def markdown_sources():
    for path in sorted(BOOK.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                yield path.name, "".join(cell["source"])
    for path in sorted(BOOK.glob("*.md")):
        if path != INDEX:
            yield path.name, path.read_text(encoding="utf-8")


def myth_boxes() -> list[tuple[str, str, str | None]]:
    """(file, title, target label or None) for every myth box."""
    boxes = []
    for name, text in markdown_sources():
        lines = text.split("\n")
        for k, line in enumerate(lines):
            m = OPEN.match(line.strip())
            if m:
                target = TARGET.match(lines[k - 1].strip()) if k > 0 else None
                boxes.append((name, m.group(2), target.group(1) if target else None))
    return boxes


def index_refs() -> set[str]:
    return set(re.findall(r"\{ref\}`[^`<]*<(myth-[\w-]+)>`", INDEX.read_text(encoding="utf-8")))


def test_there_are_myth_boxes():
    assert len(myth_boxes()) >= 10


def test_every_myth_box_has_a_target():
    missing = [f"{name}: {title}" for name, title, label in myth_boxes() if label is None]
    assert not missing, "myth boxes without a (myth-...)= target on the line before:\n" + "\n".join(
        missing
    )


def test_targets_are_unique():
    labels = [label for _, _, label in myth_boxes() if label]
    assert len(labels) == len(set(labels))


def test_every_myth_box_is_in_the_index():
    refs = index_refs()
    missing = [
        f"{name}: {title} ({label})" for name, title, label in myth_boxes() if label not in refs
    ]
    assert not missing, "myth boxes missing from book/myths.md:\n" + "\n".join(missing)


def test_index_links_only_existing_boxes():
    labels = {label for _, _, label in myth_boxes()}
    assert index_refs() <= labels, index_refs() - labels
