"""Print each edition of the book to an A4 PDF: single-page HTML, typeset in headless Chromium.

    python scripts/make_pdf.py            # both editions: _build/pdf/mltutor-en.pdf, mltutor-zh.pdf
    python scripts/make_pdf.py zh         # one edition
    python scripts/make_pdf.py --no-build # print the single-page HTML built last time again

For each edition (``make pdf`` runs this):

1. **Single-page HTML.** Sphinx's ``singlehtml`` builder writes the whole book (every page of
   ``_toc.yml``, in its order) into one page, from the same sources, ``_config.yml`` and message
   catalogs as ``make book`` (``scripts/build_book.py``: the Chinese edition only adds
   ``language = zh_CN`` and the translated ``_toc.yml``), into ``_build/singlehtml/<edition>/``
   with its own doctrees; warnings are errors. The web assets (MathJax, the widget manager) come
   from ``_build/web_assets`` (``scripts/copy_web_assets.py``, run by ``make pdf``).
2. **The page to print**, ``_build/singlehtml/<edition>/mltutor-<edition>.html``: the builder's
   page with its links made same-page (``#anchor``; links to other files, which a PDF cannot
   follow, become plain text), a title page, the contents by part (``_toc.yml``'s captions), and
   ``book/_static/print.css``. The shipped CJK and emoji fonts are cut again for this page's
   characters (``book/_ext/mltutor_fonts.py``), so the title page's Chinese has its glyphs too.
3. **Print.** The page is served on 127.0.0.1 and opened in Debian's Chromium through Playwright,
   launched as ``scripts/check_site.py`` launches it (every request off 127.0.0.1 blocked). After
   MathJax has typeset the page, the web fonts and every image have loaded and the widgets have
   rendered, each document of the book becomes a chapter of its own (its sections renumbered from
   ``h1``, a new page each), and whatever is still wider than the column (a wide table, a long
   display equation) is scaled down to fit; the print stops if any code block would still be cut
   at the right margin. Chromium then prints A4 with page numbers, and pypdf adds the outline
   (bookmarks: the parts and their documents, from the contents).
4. **Publish.** The PDF is written to ``_build/pdf/mltutor-<edition>.pdf``. When the site has
   been built (``_build/html``, ``make book``), the PDF is copied into it beside the edition it
   belongs to (``_build/html/pdf/mltutor-en.pdf``, ``_build/html/zh/pdf/mltutor-zh.pdf``) and the
   pages' download menu gets its link: ``book/_templates/article-header-buttons.html`` writes
   the menu entry into every page inside an HTML comment (:data:`LINK_OPEN` ... :data:`LINK_CLOSE`),
   and this step removes the comment markers, so a site built without ``make pdf`` never links a
   PDF it does not have. Run ``make pdf`` again after each ``make book``.

``scripts/check_pdf.py`` then checks both PDFs (page count, every font embedded, no missing
glyph, every CJK character of the page present in the PDF's text).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

PDF_DIR = ROOT / "_build" / "pdf"
SINGLE_DIR = ROOT / "_build" / "singlehtml"
SITE_DIR = ROOT / "_build" / "html"
#: Where each edition's PDF lies inside the built site (relative to the site root), and the
#: edition's own folder there; book/_templates/article-header-buttons.html links the same path.
SITE_PDF = {"en": "pdf/mltutor-en.pdf", "zh": "zh/pdf/mltutor-zh.pdf"}
EDITION_DIR = {"en": "", "zh": "zh"}
#: The download-menu entry of every page sits between these two markers until the PDF exists.
LINK_OPEN, LINK_CLOSE = "<!--mltutor-pdf-link ", " mltutor-pdf-link-->"
PRINT_CSS = "print.css"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: A4 with these margins; the content is laid out at 1 / SCALE of the paper's CSS width.
MARGIN_MM = {"top": 14, "bottom": 16, "left": 14, "right": 14}
SCALE = 0.8
#: Tagged (with a structure tree), a trial print of the English page came out at 24 MiB
#: instead of 5.6 MiB (about 160,000 structure elements), so the PDF is not tagged. Chromium
#: writes its own outline only into a tagged PDF: add_outline() writes one from the contents.
TAGGED = False


@dataclass(frozen=True)
class Edition:
    """What the title page says, per edition."""

    name: str  # "en" / "zh"
    lang: str  # the page's language (html lang)
    label: str  # "English edition"
    version: str  # "Version {version}"
    commit: str  # "Built from commit {commit} of {date}"
    note: str  # one sentence under it


EDITIONS = {
    "en": Edition(
        "en",
        "en",
        "English edition",
        "Version {version}",
        "Built from commit {commit} of {date}",
        "The book's web edition in print: the same text, code and outputs. The live "
        "parts (the threshold explorer, the exercise checks) run in JupyterLab.",
    ),
    "zh": Edition(
        "zh",
        "zh-CN",
        "中文版",
        "版本 {version}",
        "构建自 {date} 的提交 {commit}",
        "本书网页版的印刷版：文字、代码与输出都相同。交互部分（阈值浏览器、练习的检查）"
        "需要在 JupyterLab 中运行。",
    ),
}


# --------------------------------------------------------------------------------------------
# Pure parts: no Sphinx, no browser (tested in tests/test_pdf.py).
# --------------------------------------------------------------------------------------------

_A_HREF = re.compile(r'(<a\s[^>]*?)href="([^"]*)"')


def same_page_links(markup: str, page: str) -> str:
    """Links of the single page made same-page anchors; links to other local files unlinked.

    Sphinx's ``singlehtml`` builder writes internal references as ``<page>#anchor`` (``page`` is
    the root document's file, ``book/intro.html``); in the printed page they become ``#anchor``.
    A link to any other local file (another edition, a download, the search page) has no target
    in a PDF, so its ``href`` is dropped and the text stays. External links are kept.
    """

    def fix(match: re.Match) -> str:
        tag, url = match.group(1), html.unescape(match.group(2))
        if url.startswith(page + "#"):
            return f'{tag}href="{html.escape(url[len(page) :], quote=True)}"'
        if url == page:
            return f'{tag}href="#"'
        if url.startswith(("#", "http://", "https://", "mailto:")):
            return match.group(0)
        return f'{tag}data-mltutor-unlinked="true"'

    return _A_HREF.sub(fix, markup)


def contents_html(parts: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """The contents, by part: [(caption, [(docname, title or "")...])...] as nested lists.

    An empty title is filled in the browser from the document's own heading.
    """
    out = ['<nav id="mltutor-contents" class="mltutor-contents" hidden>']
    for caption, docs in parts:
        out.append(f'<p class="mltutor-contents-part">{html.escape(caption)}</p><ul>')
        for docname, title in docs:
            out.append(
                f'<li><a href="#document-{html.escape(docname, quote=True)}">'
                f"{html.escape(title)}</a></li>"
            )
        out.append("</ul>")
    out.append("</nav>")
    return "".join(out)


def title_page_html(
    title: str, author: str, edition: Edition, version: str, commit: str | None, date: str | None
) -> str:
    """The title page: title, authors, edition, version and (when known) the commit."""
    lines = [
        f'<section class="mltutor-title-page" lang="{edition.lang}">',
        f'<p class="mltutor-title">{html.escape(title)}</p>',
        f'<p class="mltutor-author">{html.escape(author)}</p>',
        f'<p class="mltutor-edition">{html.escape(edition.label)}</p>',
        f'<p class="mltutor-version">{html.escape(edition.version.format(version=version))}</p>',
    ]
    if commit and date:
        lines.append(
            f'<p class="mltutor-commit">'
            f"{html.escape(edition.commit.format(commit=commit, date=date))}</p>"
        )
    lines += [f'<p class="mltutor-note">{html.escape(edition.note)}</p>', "</section>"]
    return "".join(lines)


def toc_parts(toc: dict) -> list[tuple[str, list[tuple[str, str]]]]:
    """(caption, [(docname, title)]) of each part of a ``_toc.yml`` (sections flattened)."""

    def walk(entries: list[dict]) -> list[tuple[str, str]]:
        docs = []
        for entry in entries:
            docs.append((entry["file"], entry.get("title", "")))
            docs += walk(entry.get("sections", []))
        return docs

    return [
        (part.get("caption", ""), walk(part.get("chapters", []))) for part in toc.get("parts", [])
    ]


def print_page(markup: str, page: str, title_page: str, contents: str, css: str) -> str:
    """The single page as printed: links fixed, title page and contents first, print CSS last."""
    markup = same_page_links(markup, page)
    # The single page has no search (its index is not built): no request for it either.
    markup = re.sub(r'<script src="searchindex\.js[^"]*"></script>\n?', "", markup)
    article = re.search(r'<article class="bd-article"[^>]*>', markup)
    if article is None:
        raise ValueError('no <article class="bd-article"> in the single page')
    markup = markup[: article.end()] + title_page + contents + markup[article.end() :]
    head_end = markup.index("</head>")
    link = f'<link rel="stylesheet" type="text/css" href="{css}" />\n'
    return markup[:head_end] + link + markup[head_end:]


def with_widget_state(markup: str, states: list[dict], scripts: list[str] | None = None) -> str:
    """The page with the notebooks' saved widget states and the widget manager in its head.

    MyST-NB adds both to the page of the notebook that holds the widgets; the single page is the
    root document's, so they are added here (the same scripts, ``nb_ipywidgets_js``).
    """
    if not states:
        return markup
    if scripts is None:
        import yaml

        config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
        scripts = list(config["sphinx"]["config"]["nb_ipywidgets_js"])
    tags = [
        f'<script type="{WIDGET_STATE}">' + json.dumps(state).replace("</", "<\\/") + "</script>"
        for state in states
    ]
    tags += [f'<script src="_static/{src}"></script>' for src in scripts]
    head_end = markup.index("</head>")
    return markup[:head_end] + "\n".join(tags) + "\n" + markup[head_end:]


def widget_states(parts: list[tuple[str, list[tuple[str, str]]]]) -> list[dict]:
    """The saved widget state of every notebook of the book that has one, in book order."""
    states = []
    for _, docs in parts:
        for docname, _ in docs:
            path = ROOT / f"{docname}.ipynb"
            if not path.is_file():
                continue
            metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
            state = metadata.get("widgets", {}).get(WIDGET_STATE, {})
            if state.get("state"):
                states.append(state)
    return states


def enable_links(markup: str) -> tuple[str, int]:
    """Remove the comment markers around the PDF's download-menu entry; (page, entries)."""
    count = markup.count(LINK_OPEN)
    pattern = re.compile(re.escape(LINK_OPEN) + "(.*?)" + re.escape(LINK_CLOSE), re.S)
    return pattern.sub(lambda m: m.group(1), markup), count


# --------------------------------------------------------------------------------------------
# Sphinx, fonts, git.
# --------------------------------------------------------------------------------------------


def build_singlehtml(edition: str, out: Path, doctrees: Path) -> int:
    """The ``singlehtml`` build of one edition; its exit status.

    ``scripts/build_book.py``'s own build of the edition (its settings, overrides, quiet log in
    ``_build/singlehtml/<edition>.<edition>.log`` and warnings as errors) with Sphinx's
    ``singlehtml`` builder in place of ``html``.
    """
    from unittest import mock

    import build_book

    _, _, _, settings = build_book.EDITIONS[edition]
    single = ("singlehtml", str(out), str(doctrees), settings)
    with mock.patch.dict(build_book.EDITIONS, {edition: single}):
        return build_book.build(edition, out, doctrees)


def book_metadata(edition: str) -> tuple[str, str]:
    """(title, author) of an edition, as its site shows them."""
    import build_book
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    settings = build_book.EDITIONS[edition][3]
    return settings.get("html_title", config["title"]), settings.get("author", config["author"])


def git_commit() -> tuple[str | None, str | None]:
    """(short hash, commit date) of HEAD, or (None, None) outside a git checkout."""
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%h %cs"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None, None
    return (out[0], out[1]) if len(out) == 2 else (None, None)


def prepare(edition: str, outdir: Path) -> Path:
    """Write the page to print into ``outdir`` (a singlehtml build); cut its fonts; its path."""
    import yaml

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import build_book
    import mltutor_fonts

    root_doc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    page = f"{root_doc}.html"
    toc_path = build_book.translated_toc() if edition == "zh" else ROOT / "_toc.yml"
    parts = toc_parts(yaml.safe_load(toc_path.read_text(encoding="utf-8")))
    title, author = book_metadata(edition)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    commit, date = git_commit()
    markup = print_page(
        (outdir / page).read_text(encoding="utf-8"),
        page,
        title_page_html(title, author, EDITIONS[edition], version, commit, date),
        contents_html(parts),
        f"_static/{PRINT_CSS}",
    )
    markup = with_widget_state(markup, widget_states(parts))
    target = outdir / f"mltutor-{edition}.html"
    target.write_text(markup, encoding="utf-8")
    shutil.copy2(ROOT / "book" / "_static" / PRINT_CSS, outdir / "_static" / PRINT_CSS)
    _, uncovered = mltutor_fonts.build_fonts(outdir, ROOT / "node_modules")
    if uncovered:
        names = " ".join(f"{c} U+{ord(c):04X}" for c in sorted(uncovered))
        print(f"  {edition}: in no shipped font (left to the system fonts): {names}")
    return target


# --------------------------------------------------------------------------------------------
# The browser.
# --------------------------------------------------------------------------------------------

# After check_site.PAGE_PROBE (MathJax typeset, widgets rendered): every image loaded, each
# document a chapter of its own with headings from h1, the contents in place.
RESTRUCTURE = r"""
async () => {
  await document.fonts.ready;
  for (const img of document.images) {
    img.loading = 'eager';
    if (!img.complete) { try { await img.decode(); } catch (e) {} }
  }
  for (const d of document.querySelectorAll('details')) d.open = true;
  const article = document.querySelector('article.bd-article');
  const docs = [];
  for (const span of article.querySelectorAll('span[id^="document-"]')) {
    const section = span.nextElementSibling;
    if (section && section.tagName === 'SECTION') docs.push([span, section]);
  }
  for (const [span, section] of docs) {
    const wrap = document.createElement('div');
    wrap.className = 'mltutor-doc';
    wrap.dataset.doc = span.id.slice('document-'.length);
    article.appendChild(wrap);
    wrap.append(span, section);
  }
  // Headings by their depth in the document's sections: the document's title is h1.
  for (const wrap of article.querySelectorAll('.mltutor-doc')) {
    for (const h of Array.from(wrap.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
      let depth = 0;
      for (let el = h.parentElement; el && el !== wrap; el = el.parentElement) {
        if (el.tagName === 'SECTION') depth++;
      }
      const level = Math.min(Math.max(depth, 1), 6);
      if (h.tagName === 'H' + level) continue;
      const twin = document.createElement('h' + level);
      for (const a of h.attributes) twin.setAttribute(a.name, a.value);
      twin.append(...h.childNodes);
      h.replaceWith(twin);
    }
  }
  const contents = document.getElementById('mltutor-contents');
  const title = (doc) => {
    const wrap = article.querySelector(`.mltutor-doc[data-doc="${doc}"]`);
    const h = wrap && wrap.querySelector('h1');
    if (!h) return '';
    const copy = h.cloneNode(true);
    copy.querySelectorAll('.headerlink').forEach(el => el.remove());
    return copy.textContent.trim();
  };
  let missing = [];
  for (const a of contents.querySelectorAll('a')) {
    const doc = decodeURIComponent(a.getAttribute('href').slice('#document-'.length));
    if (!article.querySelector(`.mltutor-doc[data-doc="${doc}"]`)) missing.push(doc);
    if (!a.textContent.trim()) a.textContent = title(doc);
  }
  const wrapper = article.querySelector('.toctree-wrapper');
  if (wrapper) wrapper.replaceChildren(contents); else article.prepend(contents);
  contents.hidden = false;
  // The contents as the reader sees them, for the PDF's outline: [[caption, [[doc, title]]]].
  const parts = [];
  for (const el of contents.children) {
    if (el.matches('.mltutor-contents-part')) parts.push([el.textContent.trim(), []]);
    else if (el.tagName === 'UL' && parts.length) {
      for (const a of el.querySelectorAll('a')) {
        parts[parts.length - 1][1].push([
          decodeURIComponent(a.getAttribute('href').slice('#document-'.length)),
          a.textContent.trim()]);
      }
    }
  }
  return {documents: docs.length, missing: missing, parts: parts,
          images: document.images.length,
          brokenImages: Array.from(document.images)
            .filter(img => !img.complete || img.naturalWidth === 0)
            .map(img => img.getAttribute('src'))};
}
"""

# With print media at the column's width: scale down what is wider than the column; report
# what still is (a code block there is cut at the right margin).
FIT = r"""
() => {
  const article = document.querySelector('article.bd-article');
  const box = article.getBoundingClientRect();
  const width = article.clientWidth;
  // What a reader sees of an element: a formula's own box (mjx-math), not its container (the
  // column's width) nor its hidden assistive MathML.
  const seen = el => (el.matches('mjx-container') && el.querySelector(':scope > mjx-math')) || el;
  // Past the column's edges, or (a block of code or output, a table) holding lines wider
  // than its own box.
  const wide = el => {
    const r = seen(el).getBoundingClientRect();
    return r.right > box.right + 0.5 || r.left < box.left - 0.5 ||
           (el.matches('pre, div.highlight, div.output, table') &&
            el.scrollWidth > el.clientWidth + 1);
  };
  // Measure everything first, then scale (one layout, not one per element).
  const selector = 'table, mjx-container[display="true"], .cell_output > .output, ' +
                   '.jupyter-widgets, img, svg, iframe';
  const plans = [];
  for (const el of article.querySelectorAll(selector)) {
    if (!wide(el)) continue;
    const r = seen(el).getBoundingClientRect();
    const need = Math.max(el.scrollWidth, r.width);
    const left = Math.max(el.getBoundingClientRect().left - box.left, 0);
    plans.push([el, Math.max(0.3, (width - left) / need)]);
  }
  const fitted = [];
  for (const [el, zoom] of plans) {
    if (plans.some(([outer]) => outer !== el && outer.contains(el))) continue;
    el.style.zoom = zoom.toFixed(3);
    el.dataset.mltutorFitted = zoom.toFixed(3);
    fitted.push(el.tagName.toLowerCase());
  }
  const cut = [];
  for (const el of article.querySelectorAll('pre, div.highlight, table, mjx-container, img')) {
    if (wide(el)) cut.push(el.tagName.toLowerCase() + ': ' +
                           (el.textContent || el.getAttribute('src') || '').trim().slice(0, 80));
  }
  return {fitted: fitted, cut: cut};
}
"""

WIDGETS_RENDERED = """() => document.querySelectorAll(
  'script[type="application/vnd.jupyter.widget-view+json"]').length === 0 ||
  document.querySelectorAll('.jupyter-widgets').length > 0"""

FOOTER = (
    '<div style="width:100%;font-size:8px;color:#555;text-align:center;'
    'font-family:sans-serif"><span class="pageNumber"></span> / '
    '<span class="totalPages"></span></div>'
)


def print_pdf(page_file: Path, pdf: Path, chromium: str, timeout_s: float) -> dict:
    """Open ``page_file`` (inside its singlehtml folder) in Chromium and print it to ``pdf``."""
    import check_site
    from playwright.sync_api import sync_playwright

    server, base = check_site.serve(page_file.parent)
    problems: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, headless=True, args=check_site.CHROMIUM_ARGS
            )
            column = (210 - MARGIN_MM["left"] - MARGIN_MM["right"]) / 25.4 * 96 / SCALE
            context = browser.new_context(
                viewport={"width": round(column), "height": 1200}, color_scheme="light"
            )
            context.route(
                re.compile(r"^(?!http://127\.0\.0\.1:).*"),
                lambda route: route.abort("blockedbyclient"),
            )
            tab = context.new_page()
            tab.on("pageerror", lambda exc: problems.append(f"uncaught exception: {exc}"))
            tab.set_default_timeout(timeout_s * 1000)
            tab.goto(base + page_file.name, wait_until="load", timeout=timeout_s * 1000)
            # The widget manager renders the saved widgets after the load event; on this long
            # page that can take longer than the site check's 15 s.
            try:
                tab.wait_for_function(WIDGETS_RENDERED, timeout=min(timeout_s, 120) * 1000)
            except Exception:  # PAGE_PROBE then reports the widgets that did not render
                pass
            probe = tab.evaluate(check_site.PAGE_PROBE)
            if probe["mathUntypeset"] or probe["mathErrors"]:
                problems.append(
                    f"{probe['mathUntypeset']} of {probe['mathElements']} maths "
                    f"elements not typeset; errors: {probe['mathErrors']}"
                )
            if probe["widgetState"] and not probe["widgetsRendered"]:
                problems.append("widget state in the page, no widget rendered")
            shape = tab.evaluate(RESTRUCTURE)
            if shape["missing"]:
                problems.append(f"contents name documents not in the page: {shape['missing']}")
            if shape["brokenImages"]:
                problems.append(f"images that did not load: {shape['brokenImages'][:5]}")
            tab.emulate_media(media="print")
            fit = tab.evaluate(FIT)
            if fit["cut"]:
                problems.append(f"{len(fit['cut'])} blocks wider than the column: {fit['cut'][:5]}")
            if not problems:
                pdf.parent.mkdir(parents=True, exist_ok=True)
                tab.pdf(
                    path=str(pdf),
                    format="A4",
                    print_background=True,
                    scale=SCALE,
                    margin={k: f"{v}mm" for k, v in MARGIN_MM.items()},
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=FOOTER,
                    outline=TAGGED,
                    tagged=TAGGED,
                )
            browser.close()
    finally:
        server.shutdown()
    return {
        "problems": problems,
        "documents": shape["documents"] if "shape" in locals() else 0,
        "parts": shape["parts"] if "shape" in locals() else [],
        "images": shape["images"] if "shape" in locals() else 0,
        "math": probe["mjxContainers"] if "probe" in locals() else 0,
        "fitted": len(fit["fitted"]) if "fit" in locals() else 0,
    }


def add_outline(pdf: Path, title: str, parts: list) -> int:
    """Give ``pdf`` an outline (bookmarks): the book, then each part and its documents.

    Chromium writes an outline only with a tagged PDF (see :data:`TAGGED`), but it writes every
    same-page link target as a named destination, and the contents link each document's
    ``#document-<docname>`` anchor: each bookmark goes to the page of that destination.
    Returns the number of documents in the outline.
    """
    import logging

    from pypdf import PdfReader, PdfWriter

    # Chromium 156's trailer counts fewer objects than its PDF has; pypdf says so on reading
    # ("Object count ... exceeds defined trailer size") and writes a consistent file.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = PdfReader(pdf)
    pages = {
        name.lstrip("/"): reader.get_destination_page_number(dest)
        for name, dest in reader.named_destinations.items()
    }
    writer = PdfWriter(clone_from=reader)
    writer.add_outline_item(title=title, page_number=min(1, len(reader.pages) - 1))
    count = 0
    for caption, docs in parts:
        found = [
            (name, pages[f"document-{doc}"]) for doc, name in docs if f"document-{doc}" in pages
        ]
        if not found:
            continue
        parent = writer.add_outline_item(title=caption, page_number=found[0][1])
        for name, page in found:
            writer.add_outline_item(title=name, page_number=page, parent=parent)
            count += 1
    writer.page_mode = "/UseOutlines"
    partial = pdf.with_suffix(".pdf.partial")
    with open(partial, "wb") as out:
        writer.write(out)
    partial.replace(pdf)
    return count


# --------------------------------------------------------------------------------------------
# Into the site.
# --------------------------------------------------------------------------------------------


def publish(edition: str, pdf: Path, site: Path) -> int:
    """Copy ``pdf`` into the built site and enable its links in the edition's pages; how many."""
    target = site / SITE_PDF[edition]
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(pdf, target)
    edition_root = site / EDITION_DIR[edition] if EDITION_DIR[edition] else site
    linked = 0
    for path in sorted(edition_root.rglob("*.html")):
        rel = path.relative_to(site).parts
        if edition == "en" and rel and rel[0] == "zh":
            continue  # the Chinese edition's pages link the Chinese PDF
        markup = path.read_text(encoding="utf-8")
        if LINK_OPEN not in markup:
            continue
        markup, count = enable_links(markup)
        path.write_text(markup, encoding="utf-8")
        linked += count > 0
    return linked


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it is inside it."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def make_edition(edition: str, args: argparse.Namespace) -> tuple[int, str | None]:
    """Build, print and publish one edition; (exit status, its summary line or None)."""
    start = time.monotonic()
    outdir = SINGLE_DIR / edition
    pdf = args.out / f"mltutor-{edition}.pdf"
    pdf.unlink(missing_ok=True)  # no PDF of an older build is left when this one fails
    status = 0
    if not args.no_build:
        if build_singlehtml(edition, outdir, ROOT / "_build" / f".doctrees-singlehtml-{edition}"):
            print(f"{edition}: the single-page build failed (warnings above)", file=sys.stderr)
            if not args.allow_warnings:
                return 1, None
            status = 1
    built = time.monotonic()
    page = prepare(edition, outdir)
    print(f"{edition}: printing {_shown(page)} in {args.chromium}", flush=True)
    result = print_pdf(page, pdf, args.chromium, args.timeout)
    if result["problems"]:
        for problem in result["problems"]:
            print(f"{edition}: {problem}", file=sys.stderr)
        return 1, None
    from pypdf import PdfReader

    outlined = add_outline(pdf, book_metadata(edition)[0], result["parts"])
    line = (
        f"{edition}: {_shown(pdf)}: {len(PdfReader(pdf).pages)} pages, "
        f"{pdf.stat().st_size / 2**20:.1f} MiB ({result['documents']} documents, "
        f"{result['images']} images, {result['math']} formulas, {result['fitted']} wide "
        f"blocks scaled to fit, {outlined} in the outline; build {built - start:.0f} s, print "
        f"{time.monotonic() - built:.0f} s)"
    )
    if (args.site / "index.html").is_file():
        linked = publish(edition, pdf, args.site)
        line += f"; copied to {_shown(args.site / SITE_PDF[edition])}, linked from {linked} pages"
    print(line, flush=True)
    return status, line


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; ``editions`` is the list of editions to make, in order, each once."""
    import check_site

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "editions", nargs="*", metavar="{en,zh}", help="the editions to make (default: both)"
    )
    parser.add_argument(
        "--no-build", action="store_true", help="print the single-page HTML of the last build again"
    )
    parser.add_argument(
        "--allow-warnings",
        action="store_true",
        help="print even when the single-page build warned (make pdf never does)",
    )
    parser.add_argument(
        "--site",
        type=Path,
        default=SITE_DIR,
        help="built site to put the PDFs into (skipped if it has no index.html)",
    )
    parser.add_argument("--out", type=Path, default=PDF_DIR)
    parser.add_argument("--chromium", default=check_site.CHROMIUM)
    parser.add_argument("--timeout", type=float, default=300, help="seconds for each print")
    parser.add_argument(
        "--jobs",
        type=int,
        default=2,
        help="editions made at the same time (each is one Sphinx process, then "
        "one Chromium; default 2: both at once)",
    )
    args = parser.parse_args(argv)
    args.editions = list(dict.fromkeys(args.editions or ["en", "zh"]))
    unknown = sorted(set(args.editions) - set(EDITIONS))
    if unknown:
        parser.error(f"no edition {', '.join(unknown)} (en, zh)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    editions = args.editions
    start = time.monotonic()
    if args.jobs > 1 and len(editions) > 1:
        # One process per edition (Sphinx and docutils keep global state), in parallel.
        passed = [
            "--site",
            str(args.site),
            "--out",
            str(args.out),
            "--chromium",
            args.chromium,
            "--timeout",
            str(args.timeout),
            "--jobs",
            "1",
        ]
        passed += [
            flag
            for flag, on in (
                ("--no-build", args.no_build),
                ("--allow-warnings", args.allow_warnings),
            )
            if on
        ]
        children = [
            subprocess.Popen([sys.executable, __file__, edition, *passed]) for edition in editions
        ]
        status = max(child.wait() for child in children)
        pdfs = [args.out / f"mltutor-{edition}.pdf" for edition in editions]
        lines = [
            f"{_shown(pdf)} ({pdf.stat().st_size / 2**20:.1f} MiB)" for pdf in pdfs if pdf.is_file()
        ]
    else:
        status, lines = 0, []
        for edition in editions:
            code, line = make_edition(edition, args)
            status = max(status, code)
            lines += [line] if line else []
    if args.jobs > 1 and len(editions) > 1 and lines:
        print(f"PDFs ({time.monotonic() - start:.0f} s): " + ", ".join(lines), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
