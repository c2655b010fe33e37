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
3. Saves a full-page screenshot of every chapter (``book/NN_*.html``) in light mode, and of one
   chapter in dark mode, into ``--screenshots``.

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
CHAPTER_RE = re.compile(r"^book/\d+[a-z]?_[^/]+\.html$")
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
        for url, kind in [(u, "link") for u in info.links] + [(u, "resource") for u in info.resources]:
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


@dataclass
class PageResult:
    page: str
    problems: list[str] = field(default_factory=list)
    math: int = 0
    widgets: int = 0
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


def check_page(context, base: str, page: PurePosixPath, root: Path,
               screenshot: Path | None, timeout_ms: int) -> PageResult:
    result = PageResult(str(page))
    tab = context.new_page()
    tab.on("console", lambda msg: msg.type == "error" and result.problems.append(
        f"console error: {msg.text[:300]}"))
    tab.on("pageerror", lambda exc: result.problems.append(f"uncaught exception: {str(exc)[:300]}"))
    tab.on("requestfailed", lambda req: result.problems.append(
        f"request failed: {req.url} ({req.failure})"))
    tab.on("response", lambda resp: resp.status >= 400 and result.problems.append(
        f"HTTP {resp.status}: {resp.url}"))
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
            f"{probe['mathUntypeset']} of {probe['mathElements']} .math elements not typeset")
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
    if screenshot is not None:
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(screenshot), full_page=True)
        result.screenshot = str(screenshot)
    tab.close()
    return result


def run_browser(root: Path, pages: list[PurePosixPath], shots: Path, dark_page: str,
                chromium: str, timeout_ms: int) -> list[PageResult]:
    from playwright.sync_api import sync_playwright  # imported here: the pure parts need none

    server, base = serve(root)
    results = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                         args=CHROMIUM_ARGS)

            def new_context(dark: bool):
                context = browser.new_context(viewport={"width": 1280, "height": 900},
                                              color_scheme="dark" if dark else "light")
                # Offline: anything not served by our own server is blocked (and so reported
                # through the requestfailed handler).
                context.route(re.compile(r"^(?!http://127\.0\.0\.1:).*"),
                              lambda route: route.abort("blockedbyclient"))
                mode = "dark" if dark else "light"
                # pydata-sphinx-theme reads the reader's choice from localStorage.
                context.add_init_script(
                    f"try {{ localStorage.setItem('mode', '{mode}');"
                    f" localStorage.setItem('theme', '{mode}'); }} catch (e) {{}}")
                return context

            light = new_context(dark=False)
            for page in pages:
                if parse_page(root / page).redirect is not None:
                    # A redirect stub (index.html): its target is checked as a link and loaded
                    # on its own; loading the stub would only navigate away mid-check.
                    print(f"  {page}: redirect, target checked statically", flush=True)
                    continue
                shot = shots / (page.stem + ".png") if is_chapter(page) else None
                results.append(check_page(light, base, page, root, shot, timeout_ms))
                status = "ok" if not results[-1].problems else f"{len(results[-1].problems)} problem(s)"
                print(f"  {page}: {status} (math {results[-1].math}, widgets {results[-1].widgets})",
                      flush=True)
            light.close()
            if dark_page:
                dark = new_context(dark=True)
                page = PurePosixPath(dark_page)
                res = check_page(dark, base, page, root, shots / (page.stem + "-dark.png"),
                                 timeout_ms)
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
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="where to save screenshots (default: SITE/../screenshots)")
    parser.add_argument("--dark-page", default="book/01_confusion_matrix.html",
                        help="page (relative to SITE) also screenshotted in dark mode; '' for none")
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--timeout", type=float, default=60, help="seconds per page load")
    parser.add_argument("--report", type=Path, default=None, help="write results as JSON here")
    parser.add_argument("--no-browser", action="store_true", help="only the static link check")
    parser.add_argument("--only", default=None,
                        help="load only pages whose path contains this text (links: all pages)")
    args = parser.parse_args(argv)

    root = args.site.resolve()
    if not (root / "index.html").is_file():
        print(f"{root} has no index.html: build the book first (make book)", file=sys.stderr)
        return 1
    shots = args.screenshots or root.parent / "screenshots"
    pages = list_pages(root)
    if args.dark_page and PurePosixPath(args.dark_page) not in pages:
        print(f"--dark-page {args.dark_page} is not a page of {root}", file=sys.stderr)
        return 1

    print(f"checking links in {len(pages)} pages of {root}")
    problems = check_links(root, pages)
    results: list[PageResult] = []
    if not args.no_browser:
        print(f"loading {len(pages) if args.only is None else 'some'} pages in {args.chromium} (offline, 127.0.0.1 only)")
        loaded = [p for p in pages if args.only is None or args.only in str(p)]
        results = run_browser(root, loaded, shots, args.dark_page, args.chromium,
                              int(args.timeout * 1000))
        problems += [f"{r.page}: {p}" for r in results for p in r.problems]
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(
            {"pages": len(pages), "problems": problems,
             "results": [r.__dict__ for r in results]}, indent=1), encoding="utf-8")
    shots_taken = [r.screenshot for r in results if r.screenshot]
    if shots_taken:
        print(f"{len(shots_taken)} screenshots in {shots}")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print(f"all {len(pages)} pages clean"
          + (f"; math typeset on {sum(1 for r in results if r.math)} pages" if results else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
