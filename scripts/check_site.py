"""Load every page of the built book in a real browser, offline, and fail on anything broken.

Usage::

    python scripts/check_site.py _build/html
    python scripts/check_site.py _build/html --screenshots _build/screenshots --dark-page book/01_confusion_matrix.html

What it does:

1. Reads every ``.html`` file under the site with the standard library's HTML parser and checks
   each internal link and image: the target file must exist, and a ``#fragment`` must name an
   ``id`` on the target page.
2. Serves the folder on ``127.0.0.1`` (a free port) and opens each page in headless Debian
   Chromium (``/usr/bin/chromium``) driven by Playwright. Any request that leaves 127.0.0.1 is
   blocked and reported, so the check proves the book reads with no CDN. A page fails on a
   console error, an uncaught exception, a failed or non-2xx request, an image that did not
   load, a figure without alt text, math that MathJax did not typeset (``\\(``, ``\\[`` or
   ``$$`` left in the text, a ``.math`` element with no ``mjx-container``, or an
   ``mjx-merror``), widget state with no rendered widget, or a notebook error box / traceback.
3. Fails a page on which a character has no font (tofu). Every character above ASCII in the
   page's text (Chinese terms, ✅ ❌ ⏳, arrows, dashes ...) is drawn on a canvas in the font
   its element uses, once the page's web fonts for it have loaded, and compared pixel for
   pixel with the missing-glyph box that font draws for an unassigned code point (U+0378):
   equal pixels, or no ink, mean no font has the glyph. Each rendered occurrence on the page
   is also measured (a Range around it): nearer the box's width than the glyph's means the
   page itself shows a box, as Chromium does for text laid out before a late-listed web font
   loaded. (``document.fonts.check()`` cannot tell either: it answers true when no font in
   the list covers the text.) The book ships its CJK and emoji fonts
   (``book/_ext/mltutor_fonts.py``), so this passes on a machine without any.
4. Drives the threshold explorer (``mltutor.plots.static_threshold_explorer``) of chapter 3,
   both editions (:data:`EXPLORER_PAGES`; any other page that has one too): sets its range input
   to another position and dispatches ``input``, then clicks along the slider as a reader drags
   it, and fails the page unless the shown threshold, the readout (whose first line names that
   threshold) and the figure's pixels change each time.
5. Loads every page again at phone width (390 px) and at 1280 px
   (:func:`check_reading_widths`) and fails a page that is wider than the window
   (``document.documentElement.scrollWidth > innerWidth``: it would scroll sideways), a code
   or output block that scrolls sideways inside itself at 1280 px (on a phone a block scrolls
   rather than wrap a table's rows), or a right-hand contents entry that
   reaches past its sidebar (cut off at the window's edge); saves the first phone screen of
   each chapter as ``<page>-phone.png``.
6. Saves a full-page screenshot of every chapter (``book/NN_*.html``), the home page, the
   glossary and the first exercise page in light mode, and of ``--dark-page`` pages (the home
   page and chapter 1 by default) in dark mode, into ``--screenshots``.

Exit status 0 when every page is clean, 1 otherwise. Playwright's own browser download is never
used (no ``playwright install``): the system Chromium is launched by path.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import sys
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Folders of a Sphinx build that hold assets or sources, not pages to read.
NON_PAGE_DIRS = {"_static", "_sources", "_images", "_downloads", ".doctrees"}
CHAPTER_RE = re.compile(r"^(zh/)?book/\d+[a-z]?_[^/]+\.html$")  # zh/: the Chinese edition
# Pages screenshotted besides the chapters: the home page, the Chinese glossary, and an
# exercise page whose check outputs show the ✅ ❌ ⏳ symbols.
EXTRA_SCREENSHOT_PAGES = (
    "book/intro.html",
    "book/glossary.html",
    "exercises/01_confusion_matrix.html",
)
DEFAULT_DARK_PAGES = (
    "book/intro.html",
    "book/01_confusion_matrix.html",
    "zh/book/01_confusion_matrix.html",
)
# TeX delimiters that should never survive MathJax typesetting in the visible text.
UNRENDERED_MATH_RE = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{")


# --------------------------------------------------------------------------------------------
# Pure parts: no browser, no server (unit-tested in tests/test_site_check.py).
# --------------------------------------------------------------------------------------------


class PageLinks(HTMLParser):
    """Collect the links, image sources and element ids of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []  # <a href>, <link href>
        self.resources: list[str] = []  # <img src>, <script src>, <source src>
        self.images: list[dict[str, str | None]] = []  # attributes of every <img>
        self.ids: set[str] = set()
        self.redirect: str | None = None  # target of a <meta http-equiv="refresh">

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if attributes.get(key):
                self.ids.add(attributes[key])  # type: ignore[arg-type]
        if tag in ("a", "link") and attributes.get("href") is not None:
            self.links.append(attributes["href"])  # type: ignore[arg-type]
        elif tag in ("img", "script", "source", "iframe") and attributes.get("src"):
            self.resources.append(attributes["src"])  # type: ignore[arg-type]
        if tag == "img":
            self.images.append(attributes)
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh":
            match = re.search(r"url\s*=\s*['\"]?([^'\";]+)", attributes.get("content") or "", re.I)
            if match:
                self.redirect = match.group(1).strip()
                self.links.append(self.redirect)

    handle_startendtag = handle_starttag


def parse_page(path: Path) -> PageLinks:
    parser = PageLinks()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return parser


def is_internal(url: str) -> bool:
    """True for a link into the site itself (relative or root-relative, no scheme, no host)."""
    parts = urlsplit(url.strip())
    return not parts.scheme and not parts.netloc


def resolve(page: PurePosixPath, url: str) -> tuple[PurePosixPath | None, str]:
    """Resolve an internal ``url`` found on ``page`` (both relative to the site root).

    Returns (target file or None when the link stays on the same page, fragment). A path that
    climbs above the site root resolves to ``..`` parts, which never exist in the site.
    """
    parts = urlsplit(url.strip())
    fragment = unquote(parts.fragment)
    if not parts.path:
        return None, fragment
    raw = unquote(parts.path)
    joined = PurePosixPath(raw.lstrip("/")) if raw.startswith("/") else page.parent / raw
    stack: list[str] = []
    for part in joined.parts:
        if part in ("", "."):
            continue
        if part == "..":
            if stack and stack[-1] != "..":
                stack.pop()
            else:
                stack.append("..")
        else:
            stack.append(part)
    target = PurePosixPath(*stack) if stack else PurePosixPath(".")
    if raw.endswith("/") or target == PurePosixPath("."):
        target = target / "index.html"
    return target, fragment


def list_pages(root: Path) -> list[PurePosixPath]:
    """Every HTML page of the site, as POSIX paths relative to ``root``, sorted."""
    pages = []
    for path in root.rglob("*.html"):
        rel = PurePosixPath(path.relative_to(root).as_posix())
        if not NON_PAGE_DIRS.intersection(rel.parts[:-1]):
            pages.append(rel)
    return sorted(pages)


def is_chapter(page: PurePosixPath) -> bool:
    return bool(CHAPTER_RE.match(str(page)))


def wants_screenshot(page: PurePosixPath) -> bool:
    return is_chapter(page) or str(page).removeprefix("zh/") in EXTRA_SCREENSHOT_PAGES


def missing_glyphs(groups: list[dict]) -> list[str]:
    """Characters that no font drew, from the glyph probe's report (see GLYPH_PROBE).

    Each group is one font of the page: ``font`` (CSS font at 40 px), ``size`` (its size on the
    page, px), ``tofu`` (signature of that font's missing-glyph box), ``glyphs`` ({character:
    signature}) and ``widths`` ({character: widths in px of its occurrences on the page}). A
    signature is ``[advance width at 40 px, pixel hash, inked pixels]`` of the character drawn
    alone on a canvas. A character has no font when its signature equals the box's or leaves
    no ink; and it shows as a box on the page when an occurrence there is nearer the box's
    width than its glyph's (the page drew it before a font for it was in place). Widths are
    only compared where glyph and box differ by a quarter em or more (CJK: 1 em against the
    box's 0.6 em; emoji: 1.27 em). Full-width punctuation (，。、（）) keeps its full width because
    ``book/_static/mltutor.css`` sets ``text-spacing-trim: space-all`` (Chromium would otherwise
    set "）。" pairs in half an em each, which is about a box's width).
    """
    problems = []
    for group in groups:
        tofu = list(group["tofu"])
        scale = group.get("size", 40) / 40
        for char, signature in sorted(group["glyphs"].items()):
            where = f"{char!r} (U+{ord(char):04X}) in font {group['font']!r}"
            if list(signature) == tofu or signature[2] == 0:
                problems.append(f"no font for {where}: drawn as a missing-glyph box")
                continue
            glyph_width, box_width = signature[0] * scale, tofu[0] * scale
            if abs(glyph_width - box_width) < 0.25 * group.get("size", 40):
                # Within a quarter em of the box: kerning against the next letter moves a
                # glyph's width on the page that much, so widths cannot tell them apart.
                continue
            widths = group.get("widths", {}).get(char, [])
            boxes = [w for w in widths if abs(w - box_width) < abs(w - glyph_width)]
            if boxes:
                problems.append(
                    f"{where} shows as a missing-glyph box on the page "
                    f"({boxes[0]:.2f} px wide, its glyph {glyph_width:.2f} px)"
                )
    return problems


def check_links(root: Path, pages: list[PurePosixPath] | None = None) -> list[str]:
    """Broken internal links, images and scripts, and fragments naming no id, of every page."""
    pages = list_pages(root) if pages is None else pages
    parsed: dict[PurePosixPath, PageLinks] = {}

    def parse(rel: PurePosixPath) -> PageLinks:
        if rel not in parsed:
            parsed[rel] = parse_page(root / rel)
        return parsed[rel]

    problems: list[str] = []
    for page in pages:
        info = parse(page)
        for url, kind in [(u, "link") for u in info.links] + [
            (u, "resource") for u in info.resources
        ]:
            if not is_internal(url) or url.startswith(("javascript:", "data:")):
                continue
            target, fragment = resolve(page, url)
            target_file = page if target is None else target
            if ".." in target_file.parts or not (root / target_file).is_file():
                problems.append(f"{page}: broken {kind} {url!r}")
                continue
            if fragment and kind == "link" and target_file.suffix == ".html":
                if fragment not in parse(target_file).ids:
                    problems.append(f"{page}: {url!r} names no id {fragment!r} in {target_file}")
    return problems


def unrendered_math(text: str) -> list[str]:
    """Snippets of ``text`` that still hold TeX delimiters (each with a little context)."""
    found = []
    for match in UNRENDERED_MATH_RE.finditer(text):
        start, end = max(0, match.start() - 30), min(len(text), match.end() + 30)
        found.append(" ".join(text[start:end].split()))
    return found


def missing_alt(images: list[dict[str, str | None]]) -> list[str]:
    """Sources of content images whose alt text is absent or blank (decorative theme images,
    marked with role=presentation or aria-hidden, are exempt)."""
    bad = []
    for attrs in images:
        if attrs.get("role") == "presentation" or attrs.get("aria-hidden") == "true":
            continue
        if not (attrs.get("alt") or "").strip():
            bad.append(str(attrs.get("src")))
    return bad


def explorer_target(value: int, last: int) -> int:
    """A slider position far from ``value`` on a range input running from 0 to ``last``."""
    return last if value <= last // 2 else 0


def explorer_problems(
    before: dict, after: dict, pixels_changed: bool, target: int | None = None
) -> list[str]:
    """What did not follow a move of a threshold explorer's slider (see EXPLORER_READ).

    ``before`` and ``after`` are the explorer's state read before and after the move: the
    input's ``value``, the threshold it shows (``shown``), the ``readout`` text and the
    ``overlay`` (the moving SVG elements); ``pixels_changed`` compares screenshots of the figure.
    """
    problems = []
    if target is not None and after["value"] != str(target):
        problems.append(f"the slider is at {after['value']}, not at {target}")
    elif after["value"] == before["value"]:
        problems.append(f"the slider did not move from position {before['value']}")
    if after["shown"] == before["shown"]:
        problems.append(f"the shown threshold stayed {before['shown']!r}")
    if after["readout"] == before["readout"]:
        problems.append("the readout (counts and rates) did not change")
    first_line = (after["readout"].splitlines() or [""])[0]
    if not first_line.endswith(f">= {after['shown']}"):
        problems.append(f"the readout says {first_line!r}, the slider {after['shown']!r}")
    if after["overlay"] == before["overlay"]:
        problems.append("the threshold line and markers did not move")
    if not pixels_changed:
        problems.append("the figure's pixels did not change")
    return problems


# --------------------------------------------------------------------------------------------
# Browser parts.
# --------------------------------------------------------------------------------------------

# Runs in the page after the load event: waits for MathJax's first typeset and for the widget
# manager, then reports what a reader would see as broken.
PAGE_PROBE = r"""
async () => {
  if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
    await window.MathJax.startup.promise;
  }
  const widgetState = document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]').length;
  if (widgetState) {
    const t0 = Date.now();
    while (Date.now() - t0 < 15000 &&
           document.querySelectorAll('.jupyter-widgets, .widget-subarea > *').length === 0) {
      await new Promise(r => setTimeout(r, 100));
    }
  }
  const article = document.querySelector('.bd-article') || document.body;
  const skip = 'pre, code, script, style, textarea, mjx-container, .highlight, .MathJax, mjx-assistive-mml';
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement && !node.parentElement.closest(skip)) texts.push(node.nodeValue);
  }
  const math = Array.from(document.querySelectorAll('.math'));
  return {
    text: texts.join(' '),
    mathElements: math.length,
    mathUntypeset: math.filter(el => !el.querySelector('mjx-container') &&
                                     el.tagName.toLowerCase() !== 'mjx-container').length,
    mjxContainers: document.querySelectorAll('mjx-container').length,
    mathErrors: Array.from(document.querySelectorAll('mjx-merror'))
                     .map(el => el.getAttribute('data-mjx-error') || el.textContent).slice(0, 5),
    widgetState: widgetState,
    widgetsRendered: document.querySelectorAll('.jupyter-widgets').length,
    brokenImages: Array.from(document.images)
        .filter(img => !img.complete || img.naturalWidth === 0)
        .map(img => img.getAttribute('src')),
    errorBoxes: Array.from(document.querySelectorAll(
        '.output.error, .output.traceback, .cell_output .traceback, .cell_output .error'))
        .map(el => el.textContent.trim().slice(0, 200)),
    tracebackText: Array.from(document.querySelectorAll('.cell_output'))
        .some(el => el.textContent.includes('Traceback (most recent call last)')),
  };
}
"""


# Runs after PAGE_PROBE. For every font (style, weight, size, family) of the page's text it
# reports, per non-ASCII character: its signature drawn alone on a canvas in that font, and the
# widths it takes in the page itself (a Range around each rendered occurrence); plus the
# signature of the font's missing-glyph box. missing_glyphs() judges them.
GLYPH_PROBE = r"""
async () => {
  await document.fonts.ready;
  const skip = 'script, style, noscript, template, mjx-container, mjx-assistive-mml, .MathJax';
  // Letters, digits, punctuation and symbols draw ink; spaces, controls, format characters
  // (ZWJ) and combining marks (variation selectors) do not.
  const drawn = /[\p{L}\p{N}\p{P}\p{S}]/u;
  const groups = new Map();
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let samples = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest(skip)) continue;
    const text = node.nodeValue;
    let style = null, group = null;
    for (let i = 0; i < text.length; ) {
      const ch = String.fromCodePoint(text.codePointAt(i));
      const start = i;
      i += ch.length;
      if (ch.codePointAt(0) <= 0x7f || !drawn.test(ch)) continue;
      if (!group) {
        style = getComputedStyle(el);
        const key = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join('|');
        if (!groups.has(key)) {
          groups.set(key, {font: `${style.fontStyle} ${style.fontWeight} 40px ${style.fontFamily}`,
                           size: parseFloat(style.fontSize), glyphs: {}, widths: {}});
        }
        group = groups.get(key);
      }
      group.glyphs[ch] = null;
      const widths = group.widths[ch] = group.widths[ch] || [];
      if (widths.length >= 8 || samples > 20000) continue;
      range.setStart(node, start);
      range.setEnd(node, i);
      const rects = range.getClientRects();
      // Not rendered (display: none, a closed <details>): nothing to judge there.
      if (rects.length !== 1 || rects[0].width === 0) continue;
      const spacing = parseFloat(style.letterSpacing) || 0;
      const width = Math.round((rects[0].width - spacing) * 100) / 100;
      if (!widths.includes(width)) widths.push(width);
      samples++;
    }
  }
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 72;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const signature = (font, ch) => {
    ctx.clearRect(0, 0, 72, 72);
    ctx.font = font;
    ctx.textBaseline = 'top';
    ctx.fillText(ch, 8, 8);
    const data = ctx.getImageData(0, 0, 72, 72).data;
    let hash = 0, ink = 0;
    for (let i = 3; i < data.length; i += 4) {
      hash = (Math.imul(hash, 31) + data[i]) >>> 0;
      if (data[i]) ink++;
    }
    return [ctx.measureText(ch).width, hash, ink];
  };
  const report = [];
  for (const group of groups.values()) {
    const chars = Object.keys(group.glyphs);
    try { await document.fonts.load(group.font, chars.join('')); } catch (e) {}
    for (const ch of chars) group.glyphs[ch] = signature(group.font, ch);
    // U+0378 is unassigned: every font stack draws its missing-glyph box for it.
    group.tofu = signature(group.font, '\u0378');
    report.push(group);
  }
  return report;
}
"""


# Chapter 3's explorer, in both editions: these pages must have one that responds.
EXPLORER_PAGES = ("book/03_precision_recall.html", "zh/book/03_precision_recall.html")
EXPLORER_SELECTOR = ".mltutor-threshold-explorer"
# The state of one explorer element; explorer_problems() compares two of them.
EXPLORER_READ = r"""
(el) => {
  const slider = el.querySelector('input[type=range]');
  return {
    value: slider ? slider.value : '', last: slider ? slider.max : '0',
    shown: (el.querySelector('output') || {}).textContent || '',
    readout: (el.querySelector('pre') || {}).textContent || '',
    overlay: Array.from(el.querySelectorAll('svg [class^="mte-"]'))
                  .map(node => node.outerHTML).join(''),
  };
}
"""
# Set the range input as a script would, and tell the page as the browser does after a drag.
EXPLORER_MOVE = r"""
(el, position) => {
  const slider = el.querySelector('input[type=range]');
  slider.value = String(position);
  slider.dispatchEvent(new Event('input', {bubbles: true}));
}
"""


def check_explorers(tab, required: bool) -> list[str]:
    """Move every threshold explorer on the open page twice and report what did not follow.

    First the input's value is set and an ``input`` event dispatched; then the mouse clicks on
    the slider's track a quarter or three quarters along (whichever is farther from the thumb),
    as a reader dragging it.  ``required``: a page without an explorer is a problem.
    """
    explorers = tab.locator(EXPLORER_SELECTOR)
    count = explorers.count()
    if count == 0:
        return (
            ["no threshold explorer on the page (expected one: EXPLORER_PAGES)"] if required else []
        )
    problems = []
    for k in range(count):
        el = explorers.nth(k)
        figure = el.locator(".mte-figure, div:has(> img)").first  # all its panels
        slider = el.locator("input[type=range]").first
        try:
            el.scroll_into_view_if_needed()
            before = el.evaluate(EXPLORER_READ)
            pixels = figure.screenshot()
            target = explorer_target(int(before["value"]), int(before["last"]))
            el.evaluate(EXPLORER_MOVE, target)
            after = el.evaluate(EXPLORER_READ)
            moved = figure.screenshot()
            found = explorer_problems(before, after, moved != pixels, target)
            box = slider.bounding_box()
            share = 0.25 if int(after["value"]) > int(after["last"]) // 2 else 0.75
            slider.click(position={"x": box["width"] * share, "y": box["height"] / 2})
            dragged = el.evaluate(EXPLORER_READ)
            found += [
                f"after a click on the slider: {p}"
                for p in explorer_problems(after, dragged, figure.screenshot() != moved)
            ]
        except Exception as exc:  # a missing part or a timeout fails the page
            found = [f"could not be driven: {str(exc)[:300]}"]
        problems += [f"threshold explorer {k + 1}: {p}" for p in found]
    return problems


@dataclass
class PageResult:
    page: str
    problems: list[str] = field(default_factory=list)
    math: int = 0
    widgets: int = 0
    glyphs: int = 0
    screenshot: str | None = None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``root`` on 127.0.0.1 at a free port, in a daemon thread."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def check_page(
    context, base: str, page: PurePosixPath, root: Path, screenshot: Path | None, timeout_ms: int
) -> PageResult:
    result = PageResult(str(page))
    tab = context.new_page()
    tab.on(
        "console",
        lambda msg: (
            msg.type == "error" and result.problems.append(f"console error: {msg.text[:300]}")
        ),
    )
    tab.on("pageerror", lambda exc: result.problems.append(f"uncaught exception: {str(exc)[:300]}"))
    tab.on(
        "requestfailed",
        lambda req: result.problems.append(f"request failed: {req.url} ({req.failure})"),
    )
    tab.on(
        "response",
        lambda resp: (
            resp.status >= 400 and result.problems.append(f"HTTP {resp.status}: {resp.url}")
        ),
    )
    try:
        tab.goto(base + str(page), wait_until="load", timeout=timeout_ms)
        probe = tab.evaluate(PAGE_PROBE)
    except Exception as exc:  # a timeout or a crashed tab is a failure of this page
        result.problems.append(f"did not load: {exc}")
        tab.close()
        return result
    result.math, result.widgets = probe["mjxContainers"], probe["widgetsRendered"]
    for snippet in unrendered_math(probe["text"])[:5]:
        result.problems.append(f"unrendered math in text: {snippet!r}")
    if probe["mathUntypeset"]:
        result.problems.append(
            f"{probe['mathUntypeset']} of {probe['mathElements']} .math elements not typeset"
        )
    for err in probe["mathErrors"]:
        result.problems.append(f"MathJax error: {err}")
    if probe["widgetState"] and not probe["widgetsRendered"]:
        result.problems.append(f"{probe['widgetState']} widget views in the page, none rendered")
    for src in probe["brokenImages"]:
        result.problems.append(f"image did not load: {src}")
    for box in probe["errorBoxes"]:
        result.problems.append(f"notebook error box: {box!r}")
    if probe["tracebackText"]:
        result.problems.append("a cell output shows a Python traceback")
    for src in missing_alt(parse_page(root / page).images):
        result.problems.append(f"image without alt text: {src}")
    try:
        glyph_groups = tab.evaluate(GLYPH_PROBE)
    except Exception as exc:
        result.problems.append(f"glyph probe failed: {exc}")
        glyph_groups = []
    result.glyphs = sum(len(group["glyphs"]) for group in glyph_groups)
    result.problems += missing_glyphs(glyph_groups)
    if screenshot is not None:
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(screenshot), full_page=True)
        result.screenshot = str(screenshot)
    result.problems += check_explorers(tab, required=str(page) in EXPLORER_PAGES)
    tab.close()
    return result


#: Window widths of the reading-width check: a phone and the desktop layout of the screenshots.
PHONE_WIDTH, DESKTOP_WIDTH = 390, 1280
#: From this window width up, mltutor.css wraps code and output lines that do not fit; below it
#: (a phone) a block keeps its lines and may scroll sideways inside itself.
WRAP_FROM_WIDTH = 720

# Widths that decide whether a page reads without sideways scrolling: the document's scroll
# width, code/output blocks that scroll inside themselves, and right-hand contents entries that
# reach past the sidebar (cut off at the window's edge).
WIDTH_PROBE = r"""
async () => {
  if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
    await window.MathJax.startup.promise;
  }
  const doc = document.documentElement;
  const scrolling = [...document.querySelectorAll('.bd-content pre')]
    .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
    .map(pre => pre.textContent.trim().split('\n')[0].slice(0, 60));
  const side = document.querySelector('.bd-sidebar-secondary');
  let clipped = [];
  if (side && side.getBoundingClientRect().width > 0
      && getComputedStyle(side).visibility !== 'hidden') {
    const edge = Math.min(side.getBoundingClientRect().right, innerWidth);
    clipped = [...side.querySelectorAll('a')]
      .filter(a => a.getBoundingClientRect().width > 0
                   && a.getBoundingClientRect().right > edge + 1)
      .map(a => a.textContent.trim().slice(0, 60));
  }
  return {scrollWidth: doc.scrollWidth, innerWidth: innerWidth, scrolling: scrolling,
          clipped: clipped};
}
"""


def width_problems(probe: dict, width: int) -> list[str]:
    """What a :data:`WIDTH_PROBE` result says is wider than a ``width`` px window."""
    found = []
    if probe["scrollWidth"] > probe["innerWidth"]:
        found.append(
            f"at {width} px the page scrolls sideways: {probe['scrollWidth']} px wide "
            f"in a {probe['innerWidth']} px window"
        )
    for line in probe["scrolling"][:5] if width >= WRAP_FROM_WIDTH else []:
        found.append(f"at {width} px a code or output block scrolls sideways: {line!r}")
    for entry in probe["clipped"][:5]:
        found.append(f"at {width} px a contents entry is cut off at the edge: {entry!r}")
    return found


def check_reading_widths(
    browser, base: str, pages: list[PurePosixPath], shots: Path | None, timeout_ms: int
) -> list[PageResult]:
    """Load each page at phone and desktop width: no sideways scroll, nothing cut off (issue 26).

    At :data:`PHONE_WIDTH` and :data:`DESKTOP_WIDTH` px a page fails when the document is wider
    than the window (``document.documentElement.scrollWidth > innerWidth``), when a code or
    output block scrolls sideways inside itself (from :data:`WRAP_FROM_WIDTH` up, where lines
    wrap; a phone scrolls a block rather than wrap a table), or when an entry of the right-hand
    contents reaches past the sidebar (names cut off at the window's edge). Saves the first screen of
    every chapter at phone width into ``shots`` as ``<page>-phone.png``.
    """
    results = []
    for width in (PHONE_WIDTH, DESKTOP_WIDTH):
        context = browser.new_context(viewport={"width": width, "height": 844})
        context.route(
            re.compile(r"^(?!http://127\.0\.0\.1:).*"), lambda route: route.abort("blockedbyclient")
        )
        for page in pages:
            result = PageResult(f"{page} ({width} px)")
            tab = context.new_page()
            try:
                tab.goto(base + str(page), wait_until="load", timeout=timeout_ms)
                result.problems += width_problems(tab.evaluate(WIDTH_PROBE), width)
                if shots is not None and width == PHONE_WIDTH and wants_screenshot(page):
                    shots.mkdir(parents=True, exist_ok=True)
                    tab.screenshot(path=str(shots / _shot_name(page, "-phone")))
            except Exception as exc:  # a timeout or a crashed tab is a failure of this page
                result.problems.append(f"did not load at {width} px: {exc}")
            tab.close()
            if result.problems:
                results.append(result)
        context.close()
        failing = sum(1 for r in results if r.page.endswith(f"({width} px)"))
        print(f"  reading widths at {width} px: {failing} page(s) with problems", flush=True)
    return results


def _shot_name(page: PurePosixPath, suffix: str = "") -> str:
    """A page's screenshot file: its folder and stem (exercises and chapters share stems)."""
    stem = "-".join(page.with_suffix("").parts)
    return f"{stem}{suffix}.png"


def run_browser(
    root: Path,
    pages: list[PurePosixPath],
    shots: Path,
    dark_pages: list[str],
    chromium: str,
    timeout_ms: int,
) -> list[PageResult]:
    from playwright.sync_api import sync_playwright  # imported here: the pure parts need none

    server, base = serve(root)
    results = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_ARGS
            )

            def new_context(dark: bool):
                context = browser.new_context(
                    viewport={"width": 1280, "height": 900},
                    color_scheme="dark" if dark else "light",
                )
                # Offline: anything not served by our own server is blocked (and so reported
                # through the requestfailed handler).
                context.route(
                    re.compile(r"^(?!http://127\.0\.0\.1:).*"),
                    lambda route: route.abort("blockedbyclient"),
                )
                # No stored choice: each page loads as on a first visit, where the theme's
                # default mode (auto: follow color_scheme) applies; an unset default_mode
                # logs "Got invalid theme mode" as a console error, which fails the page.
                return context

            light = new_context(dark=False)
            for page in pages:
                if parse_page(root / page).redirect is not None:
                    # A redirect stub (index.html): its target is checked as a link and loaded
                    # on its own; loading the stub would only navigate away mid-check.
                    print(f"  {page}: redirect, target checked statically", flush=True)
                    continue
                shot = shots / _shot_name(page) if wants_screenshot(page) else None
                results.append(check_page(light, base, page, root, shot, timeout_ms))
                res = results[-1]
                status = "ok" if not res.problems else f"{len(res.problems)} problem(s)"
                print(
                    f"  {page}: {status} (math {res.math}, widgets {res.widgets}, "
                    f"non-ASCII glyphs {res.glyphs})",
                    flush=True,
                )
            light.close()
            results += check_reading_widths(
                browser,
                base,
                [p for p in pages if parse_page(root / p).redirect is None],
                shots,
                timeout_ms,
            )
            if dark_pages:
                dark = new_context(dark=True)
                for name in dark_pages:
                    page = PurePosixPath(name)
                    res = check_page(
                        dark, base, page, root, shots / _shot_name(page, "-dark"), timeout_ms
                    )
                    res.page += " (dark mode)"
                    results.append(res)
                    print(f"  {res.page}: {'ok' if not res.problems else res.problems}", flush=True)
                dark.close()
            browser.close()
    finally:
        server.shutdown()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built HTML folder, e.g. _build/html")
    parser.add_argument(
        "--screenshots",
        type=Path,
        default=None,
        help="where to save screenshots (default: SITE/../screenshots)",
    )
    parser.add_argument(
        "--dark-page",
        action="append",
        default=None,
        help="page (relative to SITE) also checked and screenshotted in dark "
        "mode; repeat for more; '' for none (default: " + ", ".join(DEFAULT_DARK_PAGES) + ")",
    )
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--timeout", type=float, default=60, help="seconds per page load")
    parser.add_argument("--report", type=Path, default=None, help="write results as JSON here")
    parser.add_argument("--no-browser", action="store_true", help="only the static link check")
    parser.add_argument(
        "--only",
        default=None,
        help="load only pages whose path contains this text (links: all pages)",
    )
    args = parser.parse_args(argv)

    root = args.site.resolve()
    if not (root / "index.html").is_file():
        print(f"{root} has no index.html: build the book first (make book)", file=sys.stderr)
        return 1
    shots = args.screenshots or root.parent / "screenshots"
    pages = list_pages(root)
    dark_pages = [
        p
        for p in (args.dark_page or [d for d in DEFAULT_DARK_PAGES if PurePosixPath(d) in pages])
        if p
    ]
    for dark_page in dark_pages:
        if PurePosixPath(dark_page) not in pages:
            print(f"--dark-page {dark_page} is not a page of {root}", file=sys.stderr)
            return 1

    print(f"checking links in {len(pages)} pages of {root}")
    problems = check_links(root, pages)
    results: list[PageResult] = []
    if not args.no_browser:
        print(
            f"loading {len(pages) if args.only is None else 'some'} pages in {args.chromium} (offline, 127.0.0.1 only)"
        )
        loaded = [p for p in pages if args.only is None or args.only in str(p)]
        results = run_browser(
            root, loaded, shots, dark_pages, args.chromium, int(args.timeout * 1000)
        )
        problems += [f"{r.page}: {p}" for r in results for p in r.problems]
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(
            json.dumps(
                {
                    "pages": len(pages),
                    "problems": problems,
                    "results": [r.__dict__ for r in results],
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    shots_taken = [r.screenshot for r in results if r.screenshot]
    if shots_taken:
        print(f"{len(shots_taken)} screenshots in {shots}")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for problem in problems:
            print(f"  {problem}")
        return 1
    glyphs = sum(r.glyphs for r in results)
    print(
        f"all {len(pages)} pages clean"
        + (
            f"; math typeset on {sum(1 for r in results if r.math)} pages; "
            f"{glyphs} non-ASCII glyphs drawn by a font"
            if results
            else ""
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
