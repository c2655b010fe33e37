"""Every page's title is the one the table of contents shows, and chapters carry their number.

A page whose first heading differs from its ``_toc.yml`` title reads as two names for one
page: the sidebar says one thing, the page and the browser tab another.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NUMBERED_PARTS = ("Chapters", "Exercises", "Solutions")
FILE_NUMBER = re.compile(r"^(\d+)([a-z]?)_")


def toc_entries() -> list[tuple[str, str, str]]:
    """(part caption, file, title) of every _toc.yml entry that sets a ``title:``."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    entries = []

    def walk(caption: str, items: list[dict]) -> None:
        for item in items:
            if "title" in item:
                entries.append((caption, item["file"], item["title"]))
            walk(caption, item.get("sections", []))

    for part in toc["parts"]:
        walk(part["caption"], part["chapters"])
    return entries


def first_heading(markdown: str) -> str | None:
    """Text of the first level-1 ATX heading (``# ...``) outside code fences."""
    fence = None
    for line in markdown.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            mark = stripped[:3]
            fence = None if fence == mark else (fence or mark)
            continue
        if fence is None and line.startswith("# "):
            return line[2:].strip()
    return None


def page_heading(file: str) -> str | None:
    md, ipynb = (ROOT / file).with_suffix(".md"), (ROOT / file).with_suffix(".ipynb")
    if md.is_file():
        return first_heading(md.read_text(encoding="utf-8"))
    cells = json.loads(ipynb.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if cell["cell_type"] == "markdown":
            heading = first_heading("".join(cell["source"]))
            if heading is not None:
                return heading
    return None


ENTRIES = toc_entries()


def test_the_toc_has_titled_entries():
    assert len(ENTRIES) >= 30
    assert ("Appendix", "book/glossary", "Glossary 术语表") in ENTRIES


@pytest.mark.parametrize("caption, file, title", ENTRIES, ids=[e[1] for e in ENTRIES])
def test_first_heading_is_the_toc_title(caption, file, title):
    assert page_heading(file) == title, (
        f"{file}: first '# ' heading is {page_heading(file)!r}, _toc.yml says {title!r}"
    )


@pytest.mark.parametrize(
    "caption, file, title",
    [e for e in ENTRIES if e[0] in NUMBERED_PARTS],
    ids=[e[1] for e in ENTRIES if e[0] in NUMBERED_PARTS],
)
def test_chapter_titles_carry_their_number(caption, file, title):
    match = FILE_NUMBER.match(Path(file).name)
    assert match, f"{file}: a numbered part holds a file without a number prefix"
    number = f"{int(match.group(1))}{match.group(2)}."
    assert title.startswith(number + " "), f"{file}: title {title!r} should start with {number!r}"


def test_first_heading_skips_code_fences():
    assert first_heading("```python\n# a comment\n```\n\n# Title\n\n# Later") == "Title"
    assert first_heading("(label)=\n## Not level one\n") is None
