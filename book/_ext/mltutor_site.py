"""Small Sphinx fixes for the mltutor book (loaded through ``sphinx.local_extensions``).

1. **Duplicate scripts.** sphinx-thebe 0.3.1 registers its inline configuration script
   (``const THEBE_JS_URL = ...``) once with ``filename=None`` and once, through Sphinx's registry,
   with ``filename=''``; Sphinx 7.4 sees two different assets and writes the script twice, so
   every page throws ``SyntaxError: Identifier 'THEBE_JS_URL' has already been declared``.
   Exact duplicate scripts are dropped from each page before it is written.
2. **Theme.** pydata-sphinx-theme writes ``data-mode="{{ default_mode }}"``, and an unset
   ``default_mode`` makes every first visit log ``Got invalid theme mode: . Resetting to auto.``;
   it is set to ``auto`` (follow the reader's system). Its header bar held nothing but a second
   search box (the sidebar has one), so ``navbar_persistent`` is emptied and the bar goes.
3. **No dead routes.** ``repository.url`` in ``_config.yml`` is the one setting. While it is the
   known placeholder (:data:`PLACEHOLDER_REPOSITORY_URL`, not a published repository), the
   Binder/Colab launch buttons are left out and the install cell (a code cell tagged
   ``mltutor-install``, cell 1 of each chapter) is dropped from every notebook the site offers
   for download (``_sources/`` and ``_downloads/``). With a real URL, the buttons appear and the
   cell stays; it installs ``mltutor @ git+<url>@v<version>`` (:func:`install_cell_source`,
   which ``tests/test_install_cell.py`` compares with every chapter;
   ``python book/_ext/mltutor_site.py --write`` puts it into the chapters). In GitHub Actions
   ``scripts/build_book.py`` takes the URL from the repository the workflow runs in
   (``publish_overrides``): the Binder button appears, the downloads' install cell installs
   from that repository at the commit built (:func:`rewrite_install_cells_in_downloads`), and
   the Colab button appears only if the chapters' committed cells name that repository too
   (Colab opens the committed notebook; :func:`colab_opens_a_working_cell`).
4. **Two editions.** The English site is at the root of the output, the Chinese one (built with
   ``language = zh_CN`` from the same sources, ``scripts/build_book.py zh``) in ``zh/``. Every
   page's header carries a link to the same page in the other edition
   (``book/_templates/language-switch.html``; :func:`other_edition`), and a
   ``<link rel="alternate" hreflang>`` for search engines.
5. **Translated display maths.** A display-maths block whose ``\\text{}`` holds English words has a
   translation in the catalogs (``scripts/i18n.py``: everything but those words is kept).
   Sphinx's own i18n transform would parse that translation as reST (``"::"`` and an indented
   block) with the page's parser, MyST, and turn the block into ``\\[::\\]``;
   :class:`TranslatedDisplayMath` puts the translated LaTeX in place first, as it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The repository URL of ``_config.yml`` while the course is not published.
PLACEHOLDER_REPOSITORY_URL = "https://github.com/mltutor/mltutor"
#: Tag of the code cell that installs mltutor in Colab or Binder.
INSTALL_CELL_TAG = "mltutor-install"
#: Folders of the HTML output that hold downloadable notebooks.
DOWNLOAD_DIRS = ("_sources", "_downloads")
#: The Chinese edition's folder inside the English site, and its Sphinx language.
ZH_DIR, ZH_LANGUAGE = "zh", "zh_CN"


# --------------------------------------------------------------------------------------------
# Pure parts (tested in tests/test_install_cell.py).
# --------------------------------------------------------------------------------------------


def is_placeholder_repository(url: str | None) -> bool:
    """True while the repository URL is unset or the known placeholder (nothing to launch)."""
    return not url or url.strip().rstrip("/").removesuffix(".git") == PLACEHOLDER_REPOSITORY_URL


def install_cell_source(repository_url: str, version: str, ref: str | None = None) -> str:
    """The exact source of each chapter's install cell for this repository and version.

    With ``ref`` (a commit or tag other than ``v<version>``: the published site's downloads,
    :func:`rewrite_install_cells_in_downloads`), the cell installs that ref instead.
    """
    url = repository_url.strip().rstrip("/")
    if ref is None or ref == f"v{version}":
        ref = f"v{version}"
        comment = (
            "# In Colab or Binder: install mltutor from the course repository at this book's tag"
            " if it\n"
            "# is missing (never an upgrade). The build drops this cell while the repository URL"
            " in\n"
            "# _config.yml is a placeholder.\n"
        )
    else:
        comment = (
            "# In Colab or Binder: install mltutor, if it is missing (never an upgrade), from the\n"
            "# repository this site was built from, at the commit it was built from.\n"
        )
    return (
        comment + "try:\n"
        "    import mltutor\n"
        "except ImportError:\n"
        f'    %pip install --quiet "mltutor @ git+{url}@{ref}"\n'
        "    import mltutor"
    )


def same_repository(a: str | None, b: str | None) -> bool:
    """True when two repository URLs name the same repository (case, ``/`` and ``.git`` aside)."""

    def norm(url: str | None) -> str:
        return (url or "").strip().rstrip("/").removesuffix(".git").lower()

    return bool(norm(a)) and norm(a) == norm(b)


def is_install_cell(cell: dict) -> bool:
    return INSTALL_CELL_TAG in (cell.get("metadata", {}).get("tags") or [])


def drop_install_cells(notebook: dict) -> int:
    """Remove the install cells from a notebook (JSON dict), in place; return how many."""
    cells = notebook.get("cells", [])
    kept = [cell for cell in cells if not is_install_cell(cell)]
    notebook["cells"] = kept
    return len(cells) - len(kept)


def _downloadable_notebooks(outdir: Path):
    for folder in DOWNLOAD_DIRS:
        yield from sorted((outdir / folder).rglob("*.ipynb"))


def rewrite_install_cells_in_downloads(outdir: Path, source: str) -> list[Path]:
    """Give every install cell under the download folders of ``outdir`` the text ``source``."""
    changed = []
    for path in _downloadable_notebooks(outdir):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = [cell for cell in notebook.get("cells", []) if is_install_cell(cell)]
        if cells and any("".join(cell.get("source", "")) != source for cell in cells):
            for cell in cells:
                cell["source"] = source.splitlines(keepends=True)
            path.write_text(
                json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            changed.append(path)
    return changed


def strip_install_cells_from_downloads(outdir: Path) -> list[Path]:
    """Drop the install cells from every ``.ipynb`` under the download folders of ``outdir``."""
    changed = []
    for folder in DOWNLOAD_DIRS:
        for path in sorted((outdir / folder).rglob("*.ipynb")):
            notebook = json.loads(path.read_text(encoding="utf-8"))
            if drop_install_cells(notebook):
                path.write_text(
                    json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
                )
                changed.append(path)
    return changed


# --------------------------------------------------------------------------------------------
# Sphinx hooks.
# --------------------------------------------------------------------------------------------


def other_edition(pagename: str, language: str | None) -> dict[str, str]:
    """The link from ``pagename`` of one edition to the same page of the other, relative."""
    up = "../" * pagename.count("/")
    if language == ZH_LANGUAGE:
        return {
            "url": f"{up}../{pagename}.html",
            "hreflang": "en",
            "label": "English",
            "title": "Read this page in English",
        }
    return {
        "url": f"{up}{ZH_DIR}/{pagename}.html",
        "hreflang": "zh-CN",
        "label": "中文",
        "title": "阅读本页的中文版",
    }


def absolute_alternate(base_url: str, pagename: str, language: str | None) -> str:
    """The other edition's address of ``pagename`` on the published site, from this edition's
    ``html_baseurl`` (the English site's root, or its ``zh/`` folder)."""
    base = base_url.rstrip("/") + "/"
    if language == ZH_LANGUAGE:
        base = base.removesuffix(f"{ZH_DIR}/")
        return f"{base}{pagename}.html"
    return f"{base}{ZH_DIR}/{pagename}.html"


def add_language_switch(app, pagename, templatename, context, doctree) -> None:
    other = other_edition(pagename, app.config.language)
    context["mltutor_other_edition"] = other
    # Search engines want an absolute address; it is known once the site's URL is (html_baseurl).
    href = (
        absolute_alternate(app.config.html_baseurl, pagename, app.config.language)
        if app.config.html_baseurl
        else other["url"]
    )
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="alternate" hreflang="{other["hreflang"]}" href="{href}" />'
    )


def _script_key(script: Any) -> tuple:
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return (filename, tuple(sorted((k, str(v)) for k, v in attributes.items())))


def drop_duplicate_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple] = set()
    unique = []
    for script in scripts:
        key = _script_key(script)
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    context["script_files"] = unique


def repository_is_published(app) -> bool:
    return not is_placeholder_repository(app.config.html_theme_options.get("repository_url"))


def colab_opens_a_working_cell(app) -> bool:
    """Colab opens the chapter as committed on GitHub, whose install cell names the URL of
    ``_config.yml`` (``mltutor_install_cell_url``, set by ``scripts/build_book.py`` when the URL
    comes from the environment): the button is offered only when that is this repository."""
    committed = getattr(app.config, "mltutor_install_cell_url", None)
    if committed is None:
        return True  # the URL is _config.yml's own: the cells name it
    return same_repository(committed, app.config.html_theme_options.get("repository_url"))


def configure_theme(app, config) -> None:
    """Theme options that _config.yml cannot express without replacing Jupyter Book's own."""
    config.html_context.setdefault("default_mode", "auto")
    theme_options = config.html_theme_options
    theme_options["navbar_persistent"] = []
    # The link to the other edition, first in every page's header (before the download buttons).
    theme_options["article_header_end"] = ["language-switch.html", "article-header-buttons.html"]
    if not repository_is_published(app):
        # sphinx-book-theme adds Binder/Colab buttons only when launch_buttons names a URL.
        theme_options["launch_buttons"] = {}
    elif not colab_opens_a_working_cell(app):
        theme_options["launch_buttons"] = {
            **theme_options.get("launch_buttons", {}),
            "colab_url": "",
        }


def drop_install_cells_while_placeholder(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    if repository_is_published(app):
        ref = getattr(app.config, "mltutor_install_ref", None)
        if ref:  # the URL came from the environment: the downloads install from it, at ref
            import tomllib

            version = tomllib.loads(
                (Path(app.srcdir) / "pyproject.toml").read_text(encoding="utf-8")
            )["project"]["version"]
            url = app.config.html_theme_options["repository_url"]
            changed = rewrite_install_cells_in_downloads(
                Path(app.outdir), install_cell_source(url, version, ref)
            )
            logging.getLogger(__name__).info(
                f"mltutor_site: install cell of {len(changed)} downloadable notebooks installs "
                f"from {url} at {ref}"
            )
        return
    changed = strip_install_cells_from_downloads(Path(app.outdir))
    logging.getLogger(__name__).info(
        f"mltutor_site: placeholder repository URL, install cell dropped from "
        f"{len(changed)} downloadable notebooks"
    )


def translated_display_math():
    """The transform of item 5 (a factory, so that importing this module needs no Sphinx)."""
    from os import path

    from docutils import nodes
    from sphinx.locale import init as init_locale
    from sphinx.transforms import SphinxTransform
    from sphinx.util.i18n import docname_to_domain

    class TranslatedDisplayMath(SphinxTransform):
        default_priority = 19  # just before sphinx.transforms.i18n.Locale (20)

        def apply(self, **kwargs: Any) -> None:
            if self.config.language in (None, "", "en"):
                return
            domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
            dirs = [path.join(self.env.srcdir, d) for d in self.config.locale_dirs]
            catalog, found = init_locale(dirs, self.config.language, domain)
            if not found:
                return
            for node in self.document.findall(nodes.math_block):
                message = node.rawsource or node.astext()
                translated = catalog.gettext(message)
                if translated and translated != message:
                    node.children = [nodes.Text(translated)]
                    node.rawsource = translated

    return TranslatedDisplayMath


def setup(app) -> dict[str, Any]:
    # Set by scripts/build_book.py when the repository URL comes from the environment (GitHub
    # Actions): the URL the committed install cells name, and the ref the downloads install.
    app.add_config_value("mltutor_install_cell_url", None, "html")
    app.add_config_value("mltutor_install_ref", None, "html")
    app.add_transform(translated_display_math())
    app.connect("config-inited", configure_theme)
    # After every other handler (sphinx-thebe, myst-nb, the theme) has added its scripts.
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    app.connect("html-page-context", add_language_switch)
    app.connect("build-finished", drop_install_cells_while_placeholder)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


# --------------------------------------------------------------------------------------------
# Command line: after changing repository.url or releasing a version.
# --------------------------------------------------------------------------------------------


def _configured_source(root: Path) -> str:
    import tomllib
    import yaml

    url = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    version = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    return install_cell_source(url, version)


def main(argv: list[str] | None = None) -> int:
    """Print the install cell for _config.yml and pyproject.toml; ``--write`` puts it into
    every chapter of book/ that has one (the cell has no outputs, so nothing is re-executed)."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[2]
    source = _configured_source(root)
    if not args.write:
        print(source)
        return 0
    sys.path.insert(0, str(root / "scripts"))
    from notebook_tools import read_notebook, write_notebook

    for path in sorted((root / "book").glob("*.ipynb")):
        notebook = read_notebook(path)
        cells = [cell for cell in notebook.cells if is_install_cell(cell)]
        if cells and any(cell.source != source for cell in cells):
            for cell in cells:
                cell.source = source
            write_notebook(notebook, path)
            print(f"updated {path.relative_to(root)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
