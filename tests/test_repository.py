"""Repository invariants: every notebook is in the book, executed, and free of noisy outputs."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIRS = ("book", "solutions", "exercises")
NOTEBOOKS = sorted(p for d in NOTEBOOK_DIRS for p in (ROOT / d).glob("*.ipynb"))


def toc_files() -> set[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = {toc["root"]}
    for part in toc["parts"]:
        files |= {chapter["file"] for chapter in part["chapters"]}
    return files


def test_every_notebook_is_in_the_table_of_contents():
    listed = toc_files()
    missing = [
        str(nb.relative_to(ROOT))
        for nb in NOTEBOOKS
        if str(nb.relative_to(ROOT).with_suffix("")) not in listed
    ]
    assert not missing, f"notebooks not listed in _toc.yml: {missing}"


def test_every_toc_entry_exists():
    absent = [
        f
        for f in toc_files()
        if not any((ROOT / f).with_suffix(s).exists() for s in (".md", ".ipynb"))
    ]
    assert not absent, f"_toc.yml lists files that do not exist: {absent}"


def test_exercises_mirror_solutions():
    names = lambda d: sorted(p.name for p in (ROOT / d).glob("*.ipynb"))  # noqa: E731
    assert names("exercises") == names("solutions")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_is_committed_executed_and_clean(path: Path):
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    # nbval passes trivially on a notebook without stored outputs, and the book would show nothing.
    assert any(c.get("outputs") for c in code), (
        f"{path.name} has no stored outputs: run `make notebooks`"
    )
    counts = [c["execution_count"] for c in code]
    assert None not in counts, f"{path.name} has unexecuted code cells"
    assert counts == sorted(counts), f"{path.name} was executed out of order"
    for cell in code:
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"{path.name} stores an error output"
            text = "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
            assert not re.search(r"0x[0-9a-f]{6,}", text), (
                f"{path.name} stores a memory address: {text[:80]}"
            )
            assert out.get("name") != "stderr", (
                f"{path.name} prints to stderr (a warning?): {text[:200]}"
            )


BOOK_PAGES = sorted((ROOT / "book").rglob("*.md"))
MARKDOWN_FILE_NAME = re.compile(r"\b([A-Za-z0-9_][A-Za-z0-9_.-]*\.md)\b")
NOT_REPOSITORY = {".venv", "node_modules", "_build", ".git", "workspace", "build"}


def repository_markdown_names() -> set[str]:
    names = set()
    for _folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in NOT_REPOSITORY]
        names.update(f for f in files if f.endswith(".md"))
    return names


REPOSITORY_MD = repository_markdown_names()


@pytest.mark.parametrize("path", BOOK_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_book_pages_name_only_files_of_this_repository(path: Path):
    """A page that says "see X.md" sends the reader to X.md: it must be in the repository."""
    named = set(MARKDOWN_FILE_NAME.findall(path.read_text(encoding="utf-8")))
    assert named <= REPOSITORY_MD, (
        f"{path.name} names files not in the repository: {named - REPOSITORY_MD}"
    )
