"""The install cell of every chapter follows the one setting, ``repository.url`` in _config.yml.

Each chapter's first code cell (tagged ``mltutor-install``) installs
``mltutor @ git+<repository url>@v<version>`` when mltutor is missing (Colab, Binder). Its text
must be exactly what ``book/_ext/mltutor_site.py`` generates from the URL and the package
version, so that a new URL or a release is one edit away from every chapter. While the URL is
the placeholder, the build drops the cell from the downloadable notebooks and leaves out the
launch buttons; that part is tested here on a fake build folder.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "mltutor_site", ROOT / "book" / "_ext" / "mltutor_site.py"
)
site = importlib.util.module_from_spec(_spec)
sys.modules["mltutor_site"] = site
_spec.loader.exec_module(site)

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
REPOSITORY_URL = CONFIG["repository"]["url"]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
CHAPTERS = sorted((ROOT / "book").glob("*.ipynb"))


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_package_version_is_one_number():
    import mltutor

    assert mltutor.__version__ == VERSION


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_install_cell_is_generated_from_the_config(path: Path):
    cells = _cells(path)
    install = [i for i, cell in enumerate(cells) if site.is_install_cell(cell)]
    assert install == [1], f"{path.name}: want one install cell, right after the title cell"
    cell = cells[1]
    assert cell["cell_type"] == "code"
    assert "remove-cell" in cell["metadata"]["tags"], "the page must not show the install cell"
    assert "".join(cell["source"]) == site.install_cell_source(REPOSITORY_URL, VERSION)


def test_install_cell_source_installs_from_the_repository_tag():
    source = site.install_cell_source("https://github.com/someone/mltutor/", "1.2.3")
    assert (
        '%pip install --quiet "mltutor @ git+https://github.com/someone/mltutor@v1.2.3"' in source
    )
    assert "import mltutor\nexcept ImportError:" in source  # installs only when missing


@pytest.mark.parametrize(
    "url, placeholder",
    [
        (site.PLACEHOLDER_REPOSITORY_URL, True),
        (site.PLACEHOLDER_REPOSITORY_URL + "/", True),
        (site.PLACEHOLDER_REPOSITORY_URL + ".git", True),
        ("", True),
        (None, True),
        ("https://github.com/someone/mltutor", False),
    ],
)
def test_placeholder_repository(url, placeholder):
    assert site.is_placeholder_repository(url) is placeholder


def _notebook(*tags_per_cell: list[str]) -> dict:
    return {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {"tags": tags},
                "source": [str(i)],
                "outputs": [],
                "execution_count": None,
            }
            for i, tags in enumerate(tags_per_cell)
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_downloadable_notebooks_lose_the_install_cell(tmp_path):
    sources = tmp_path / "_sources" / "book"
    sources.mkdir(parents=True)
    chapter = sources / "01_x.ipynb"
    chapter.write_text(json.dumps(_notebook([], ["remove-cell", "mltutor-install"], ["x"])))
    untouched = sources / "02_y.ipynb"
    untouched.write_text(json.dumps(_notebook([], [])))
    before = untouched.read_text()
    assert site.strip_install_cells_from_downloads(tmp_path) == [chapter]
    assert [c["source"] for c in json.loads(chapter.read_text())["cells"]] == [["0"], ["2"]]
    assert untouched.read_text() == before


class _App:
    def __init__(self, url):
        self.config = type("Config", (), {})()
        self.config.html_context = {}
        self.config.html_theme_options = {
            "repository_url": url,
            "launch_buttons": {
                "binderhub_url": "https://mybinder.org",
                "colab_url": "https://colab.research.google.com",
            },
        }


@pytest.mark.parametrize(
    "url, buttons",
    [(site.PLACEHOLDER_REPOSITORY_URL, False), ("https://github.com/someone/mltutor", True)],
)
def test_launch_buttons_follow_the_setting(url, buttons):
    app = _App(url)
    site.configure_theme(app, app.config)
    options = app.config.html_theme_options
    assert bool(options["launch_buttons"].get("binderhub_url")) is buttons
    assert bool(options["launch_buttons"].get("colab_url")) is buttons
    assert options["navbar_persistent"] == []  # no header bar holding only a search box
    assert app.config.html_context["default_mode"] == "auto"


def test_built_site_has_no_dead_routes():
    """On a built book (skipped when there is none): no launch links or install cell while
    the URL is the placeholder."""
    html = ROOT / "_build" / "html"
    if not (html / "index.html").is_file():
        pytest.skip("no built book (make book)")
    if not site.is_placeholder_repository(REPOSITORY_URL):
        pytest.skip("the repository URL is real: buttons and install cell are wanted")
    chapter = (html / "book" / "01_confusion_matrix.html").read_text(encoding="utf-8")
    assert "mybinder.org" not in chapter and "colab.research.google.com" not in chapter
    for path in (html / "_sources").rglob("*.ipynb"):
        assert not any(site.is_install_cell(c) for c in _cells(path)), path
