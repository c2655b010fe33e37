"""The published site's addresses come from the environment, not from an edit of _config.yml.

In GitHub Actions, ``scripts/build_book.py`` reads ``GITHUB_SERVER_URL`` and ``GITHUB_REPOSITORY``
(or an explicit ``MLTUTOR_REPOSITORY_URL``) and passes Sphinx the repository URL (launch buttons),
``html_baseurl`` (the Pages address: ``https://<owner>.github.io/<repo>/``, Chinese ``…/zh/``)
and the ref the downloaded notebooks install from. Without those variables the build reads
``_config.yml`` as it is (the placeholder: no buttons, no install cell). The last test checks
that the overrides reach the configuration a real Sphinx application sees (no pages are read).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


build_book = _load("build_book", ROOT / "scripts" / "build_book.py")
site = _load("mltutor_site", ROOT / "book" / "_ext" / "mltutor_site.py")
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
ACTIONS = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "Someone/mltutor",
    "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
}


@pytest.mark.parametrize(
    "environ, url",
    [
        ({}, None),
        (ACTIONS, "https://github.com/Someone/mltutor"),
        (
            {"GITHUB_REPOSITORY": "a/b"},
            "https://github.com/a/b",
        ),  # the server defaults to github.com
        (
            {"GITHUB_SERVER_URL": "https://git.example.org/", "GITHUB_REPOSITORY": "team/course"},
            "https://git.example.org/team/course",
        ),
        (
            {**ACTIONS, "MLTUTOR_REPOSITORY_URL": "https://github.com/x/y.git/"},
            "https://github.com/x/y",
        ),  # the explicit setting wins
        ({"MLTUTOR_REPOSITORY_URL": "  "}, None),
    ],
)
def test_repository_url_from_env(environ, url):
    assert build_book.repository_url_from_env(environ) == url


@pytest.mark.parametrize(
    "repository, environ, pages",
    [
        ("https://github.com/Someone/mltutor", {}, "https://someone.github.io/mltutor/"),
        ("https://github.com/someone/someone.github.io", {}, "https://someone.github.io/"),
        ("https://github.com/Someone/Someone.github.io", {}, "https://someone.github.io/"),
        ("https://git.example.org/team/course", {}, None),  # no rule for other servers
        (
            "https://github.com/someone/mltutor",
            {"MLTUTOR_PAGES_URL": "https://course.example.org"},
            "https://course.example.org/",
        ),
    ],
)
def test_pages_url(repository, environ, pages):
    assert build_book.pages_url(repository, environ) == pages


def test_install_ref_prefers_the_explicit_ref_then_the_commit():
    assert build_book.install_ref("0.1.0", {"MLTUTOR_INSTALL_REF": "v9"}) == "v9"
    ref = build_book.install_ref("0.1.0", ACTIONS)
    # v0.1.0 when this checkout's HEAD carries that tag, else the commit being built.
    assert ref in {"v0.1.0", ACTIONS["GITHUB_SHA"]}


def test_no_environment_no_overrides():
    """Locally (nothing set) the build is exactly the placeholder build of _config.yml."""
    for edition in ("en", "zh", "gettext"):
        assert build_book.publish_overrides(edition, {}, CONFIG, "0.1.0") == {}


def test_overrides_in_github_actions():
    environ = {**ACTIONS, "MLTUTOR_INSTALL_REF": "abc1234"}
    en = build_book.publish_overrides("en", environ, CONFIG, "0.1.0")
    zh = build_book.publish_overrides("zh", environ, CONFIG, "0.1.0")
    assert en["html_theme_options"] == {"repository_url": "https://github.com/Someone/mltutor"}
    assert en["html_baseurl"] == "https://someone.github.io/mltutor/"
    assert zh["html_baseurl"] == "https://someone.github.io/mltutor/zh/"
    assert en["mltutor_install_cell_url"] == CONFIG["repository"]["url"]
    assert en["mltutor_install_ref"] == "abc1234"
    # The catalogs' messages do not depend on where the book is built.
    assert build_book.publish_overrides("gettext", environ, CONFIG, "0.1.0") == {}


def test_merge_keeps_the_chinese_theme_options():
    zh = build_book.EDITIONS["zh"][3]
    merged = build_book.merge(zh, {"html_theme_options": {"repository_url": "u"}})
    assert merged["html_theme_options"] == {"search_bar_text": "搜索本书……", "repository_url": "u"}
    assert zh["html_theme_options"] == {"search_bar_text": "搜索本书……"}  # not modified


class _App:
    def __init__(self, url, committed=None, baseurl="", language=None):
        self.config = type("Config", (), {})()
        self.config.html_context = {}
        self.config.html_baseurl = baseurl
        self.config.language = language
        self.config.mltutor_install_cell_url = committed
        self.config.html_theme_options = {
            "repository_url": url,
            "launch_buttons": {
                "binderhub_url": "https://mybinder.org",
                "colab_url": "https://colab.research.google.com",
            },
        }


@pytest.mark.parametrize(
    "url, committed, binder, colab",
    [
        # local build, placeholder in _config.yml: no launch route at all
        (site.PLACEHOLDER_REPOSITORY_URL, None, False, False),
        # _config.yml edited to a real URL: the committed cells name it, both routes
        ("https://github.com/someone/mltutor", None, True, True),
        # URL from GitHub Actions while _config.yml keeps the placeholder: Binder builds this
        # repository; Colab would open a committed cell that installs from the placeholder
        ("https://github.com/someone/mltutor", site.PLACEHOLDER_REPOSITORY_URL, True, False),
        # from GitHub Actions, and _config.yml names the same repository
        ("https://github.com/Someone/mltutor", "https://github.com/someone/mltutor/", True, True),
    ],
)
def test_launch_buttons(url, committed, binder, colab):
    app = _App(url, committed)
    site.configure_theme(app, app.config)
    buttons = app.config.html_theme_options["launch_buttons"]
    assert bool(buttons.get("binderhub_url")) is binder
    assert bool(buttons.get("colab_url")) is colab


def test_downloaded_install_cell_installs_the_built_commit(tmp_path):
    sources = tmp_path / "_sources" / "book"
    sources.mkdir(parents=True)
    committed = site.install_cell_source(site.PLACEHOLDER_REPOSITORY_URL, "0.1.0")
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "source": committed,
                "outputs": [],
                "execution_count": None,
                "metadata": {"tags": ["remove-cell", site.INSTALL_CELL_TAG]},
            }
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = sources / "01_x.ipynb"
    path.write_text(json.dumps(notebook))
    wanted = site.install_cell_source("https://github.com/someone/mltutor", "0.1.0", "abc1234")
    assert '"mltutor @ git+https://github.com/someone/mltutor@abc1234"' in wanted
    assert "at the commit it was built from" in wanted
    assert site.rewrite_install_cells_in_downloads(tmp_path, wanted) == [path]
    cell = json.loads(path.read_text())["cells"][0]
    assert "".join(cell["source"]) == wanted
    assert site.rewrite_install_cells_in_downloads(tmp_path, wanted) == []  # already so
    # The tag form is the committed cell's text, byte for byte.
    assert site.install_cell_source(site.PLACEHOLDER_REPOSITORY_URL, "0.1.0", "v0.1.0") == committed


@pytest.mark.parametrize(
    "base, page, language, href",
    [
        (
            "https://someone.github.io/mltutor/",
            "book/01_x",
            None,
            "https://someone.github.io/mltutor/zh/book/01_x.html",
        ),
        (
            "https://someone.github.io/mltutor/zh/",
            "book/01_x",
            "zh_CN",
            "https://someone.github.io/mltutor/book/01_x.html",
        ),
        (
            "https://someone.github.io/mltutor/zh",
            "intro",
            "zh_CN",
            "https://someone.github.io/mltutor/intro.html",
        ),
    ],
)
def test_absolute_alternate(base, page, language, href):
    assert site.absolute_alternate(base, page, language) == href


def test_language_switch_uses_the_published_address():
    app = _App("https://github.com/someone/mltutor", baseurl="https://someone.github.io/mltutor/")
    context = {}
    site.add_language_switch(app, "book/01_x", "page.html", context, None)
    assert 'href="https://someone.github.io/mltutor/zh/book/01_x.html"' in context["metatags"]
    app = _App(site.PLACEHOLDER_REPOSITORY_URL)  # unpublished: the relative link as before
    context = {}
    site.add_language_switch(app, "book/01_x", "page.html", context, None)
    assert 'href="../zh/book/01_x.html"' in context["metatags"]


def test_overrides_reach_the_sphinx_configuration(tmp_path, monkeypatch):
    """Jupyter Book turns _config.yml plus the overrides into the configuration a Sphinx
    application starts with; after mltutor_site's config-inited hook the theme sees the URL
    and the Binder button, and html_baseurl is the Pages address (no page is read)."""
    pytest.importorskip("jupyter_book")
    from jupyter_book.config import get_final_config
    from sphinx.application import Sphinx

    environ = {**ACTIONS, "MLTUTOR_INSTALL_REF": "abc1234"}
    overrides = build_book.merge(
        {"external_toc_path": "_toc.yml", "latex_individualpages": False},
        build_book.publish_overrides("en", environ, CONFIG, "0.1.0"),
    )
    config, _ = get_final_config(
        user_yaml=ROOT / "_config.yml", cli_config=overrides, sourcedir=ROOT
    )
    monkeypatch.chdir(ROOT)
    app = Sphinx(
        srcdir=ROOT,
        confdir=None,
        outdir=tmp_path / "html",
        doctreedir=tmp_path / "doctrees",
        buildername="html",
        confoverrides=config,
        status=None,
        warning=None,
        freshenv=True,
    )
    options = app.config.html_theme_options
    assert options["repository_url"] == "https://github.com/Someone/mltutor"
    assert options["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    assert not options["launch_buttons"].get("colab_url")  # _config.yml keeps the placeholder
    assert app.config.html_baseurl == "https://someone.github.io/mltutor/"
    assert app.config.mltutor_install_ref == "abc1234"


def test_read_online_links_somewhere_real():
    """book/intro.md's ``{{ read_online }}``: the published site's two editions, or, while the
    address is unknown, the setup page's section on publishing (a label of this book)."""
    site_url = "https://someone.github.io/mltutor/"
    en = build_book.read_online("en", site_url)
    assert f"[{site_url}]({site_url})" in en and f"({site_url}zh/)" in en
    assert f"[{site_url}zh/]({site_url}zh/)" in build_book.read_online("zh", site_url)
    for edition in ("en", "zh", "gettext"):
        assert "{ref}`publishing`" in build_book.read_online(edition, None)
    assert "(publishing)=\n## Publishing" in (ROOT / "book" / "setup.md").read_text(
        encoding="utf-8"
    )
    assert "{{ read_online }}" in (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    environ = {**ACTIONS, "MLTUTOR_INSTALL_REF": "abc1234"}
    overrides = build_book.publish_overrides("zh", environ, CONFIG, "0.1.0")
    assert overrides["myst_substitutions"]["read_online"] == build_book.read_online(
        "zh", "https://someone.github.io/mltutor/"
    )


def test_build_output_counts_and_tees_warnings(tmp_path):
    """make book's terminal shows every warning (and the log keeps it), and the summary line
    reports Sphinx's own count."""
    import io

    log, terminal = io.StringIO(), io.StringIO()
    tee = build_book._Tee(log, terminal)
    tee.write("book/x.md:3: WARNING: undefined label: 'y'\nbook/x.md:9: ERROR: bad\n")
    tee.write("a continuation line\n")
    assert tee.problems == 2
    assert terminal.getvalue() == log.getvalue()
    assert (
        build_book.warning_count(
            "reading...\nbuild finished with problems, 3 warnings (with warnings treated as "
            "errors).\n",
            2,
        )
        == 3
    )
    assert build_book.warning_count("build finished with problems, 1 warning.\n", 0) == 1
    assert build_book.warning_count("build succeeded.\n", 0) == 0
    assert build_book.warning_count("", 4) == 4  # a crash before Sphinx's summary
    assert build_book.log_path("en", None) == ROOT / "_build" / "logs" / "en.log"
    assert build_book.log_path("gettext", tmp_path / "pot") == tmp_path / "pot.gettext.log"


def test_quiet_libraries_keeps_warnings_and_drops_info():
    """fontTools' INFO lines (thousands per build once a11y_pygments has set the root logger to
    INFO) no longer reach the terminal; its warnings still do."""
    import io
    import logging

    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level, logging.getLogger("fontTools").level
    try:
        build_book.quiet_libraries(stream)
        logging.basicConfig(level=logging.INFO)  # what a11y_pygments does on import: a no-op now
        logging.getLogger("fontTools.subset").info("Glyph names: ['a', 'b']")
        logging.getLogger("fontTools.subset").warning("FFTM NOT subset; dropped")
    finally:
        logging.captureWarnings(False)
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.getLogger("fontTools").setLevel(saved[2])
    assert "Glyph names" not in stream.getvalue()
    assert "WARNING: fontTools.subset: FFTM NOT subset" in stream.getvalue()
