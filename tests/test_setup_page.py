"""The setup page and the README tell one setup story.

``book/setup.md`` includes the README's make-target tables (between the ``make-targets`` markers),
so the two are one text; the tables list exactly the targets ``make help`` prints; the conda
route installs everything the build needs (Node.js for ``npm ci``) and runs the Makefile's own
commands in an order that works from a fresh clone.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SETUP = (ROOT / "book" / "setup.md").read_text(encoding="utf-8")
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
START, END = "<!-- make-targets: start -->", "<!-- make-targets: end -->"


def _region() -> str:
    assert README.count(START) == 1 and README.count(END) == 1
    return README[README.index(START) + len(START) : README.index(END)]


def _table_commands(text: str) -> list[str]:
    return re.findall(r"^\| `make ([a-z-]+)` \|", text, flags=re.M)


def test_setup_page_includes_the_readme_tables():
    include = f"```{{include}} ../README.md\n:start-after: {START}\n:end-before: {END}\n```"
    assert include in SETUP
    # No second, hand-written table of make targets on the page.
    assert _table_commands(SETUP) == []


def test_the_tables_list_exactly_the_targets_of_make_help():
    help_targets = re.findall(r'^\t@echo "make ([a-z-]+)', MAKEFILE, flags=re.M)
    commands = _table_commands(_region())
    assert len(commands) == len(set(commands)), commands
    phony = re.search(r"^\.PHONY: (.*)$", MAKEFILE, flags=re.M).group(1).split()
    # make install has a row too (it is the step every other target starts with).
    assert set(commands) == set(help_targets) | {"install"}
    assert set(commands) <= set(phony)


def test_first_run_and_warm_figures_stand_together():
    region = _region()
    assert "first `make book` in a fresh clone" in region
    assert "cold" in region and "warm" in region


def test_conda_route_has_node_and_the_build_steps():
    environment = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    deps = environment["dependencies"]
    assert any(isinstance(d, str) and d.split("=")[0] == "nodejs" for d in deps)
    assert any(isinstance(d, str) and d == "python=3.11" for d in deps)
    assert {"pip": ["-r requirements.txt"]} in deps
    conda = SETUP[SETUP.index("## With conda") :]
    conda = conda[: conda.index("```", conda.index("```bash") + 3)]
    steps = [line.split("#")[0].strip() for line in conda.splitlines()[3:] if line.strip()]
    # What the Makefile runs for make book, in its order: npm ci (with the Makefile's flags)
    # before the web assets are staged, and the assets before the build.
    npm = re.search(r"^\t(npm ci .*)$", MAKEFILE, flags=re.M).group(1)
    assert npm in steps
    order = [npm, "python scripts/copy_web_assets.py", "python scripts/build_book.py en zh"]
    assert [steps.index(step) for step in order] == sorted(steps.index(step) for step in order)
    assert "pip install --no-deps -e ." in steps
    assert steps.index("pip install --no-deps -e .") < steps.index(npm)
    # make test's pytest command.
    test = re.search(r"^test: .*\n\t\$\(BIN\)/python -m (pytest .*)$", MAKEFILE, flags=re.M)
    assert test.group(1) in steps


def test_makefile_book_recipe_matches_the_story():
    book = re.search(r"^book: (.*)\n((?:\t.*\n)+)", MAKEFILE, flags=re.M)
    assert "$(STAMP)" in book.group(1) and "node_modules/.package-lock.json" in book.group(1)
    assert "scripts/copy_web_assets.py" in book.group(2)
    assert "scripts/build_book.py en zh" in book.group(2)
