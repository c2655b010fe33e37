"""Ship the fonts for the book's Chinese terms and symbols, cut down to the characters it uses.

A reader whose machine has no CJK or emoji font would otherwise see the glossary title
(``Glossary 术语表``), every Chinese term and the ✅ ❌ ⏳ of the exercise checks as empty boxes.
After the HTML is written (``build-finished``), this extension

1. collects every CJK character and pictograph (emoji, dingbats) of the pages' text;
2. finds each one in the fonts that ``npm ci`` installed from ``package-lock.json``
   (``@fontsource/noto-emoji`` first for pictographs, ``@fontsource/noto-sans-sc`` first for
   everything else), reading fontsource's per-range ``400.css`` and each file's character map;
3. cuts one small WOFF file per family to exactly those characters (fontTools' subsetter and
   merger; WOFF, not WOFF2, so no Brotli is needed), and writes ``_static/mltutor-fonts.css``
   with one ``@font-face`` per family whose ``unicode-range`` lists them.

``book/_static/mltutor.css`` names these families *first* in the theme's font stacks. Their
``unicode-range`` holds only those CJK characters and pictographs, so every other character
(all Latin text, dashes, Greek, maths) is still drawn by the theme's system fonts. They cannot
come after the system fonts: Chromium 150 does not redraw text that it laid out before a web
font named later in the stack had loaded, so on a machine without CJK fonts the text shaped
first (the sidebar, the top of a page, every bold title) stays a row of boxes; a web font
named first is waited for and swapped in. ``scripts/check_site.py`` fails a page on which any
character is drawn as a missing-glyph box.
"""

from __future__ import annotations

import html
import re
import shutil
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Generated into the site's _static/ (the pages link it from the start; see ``setup``).
FONT_CSS = "mltutor-fonts.css"
FONT_DIR = "fonts"
#: Folders of the output that hold no pages.
NON_PAGE_DIRS = {
    "_static",
    "_sources",
    "_images",
    "_downloads",
    "zh",
}  # zh/: the Chinese edition, its own build
#: Code blocks whose characters prefer the emoji font (pictographs, dingbats, clocks ...).
EMOJI_BLOCKS = ((0x2300, 0x23FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF))
#: CJK blocks: radicals, symbols and punctuation (《 》), kana, ideographs, full-width forms.
CJK_BLOCKS = (
    (0x2E80, 0x2FDF),
    (0x3000, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
    (0x20000, 0x3FFFF),
)


@dataclass(frozen=True)
class FontPackage:
    """One fontsource package: where it lies under node_modules and the CSS family it becomes."""

    package: str  # npm name, e.g. "@fontsource/noto-sans-sc"
    family: str  # family name in the generated CSS (distinct from any installed font)
    slug: str  # file name stem of the subset

    def faces_css(self, node_modules: Path) -> Path:
        return node_modules / self.package / "400.css"

    def license_file(self, node_modules: Path) -> Path:
        return node_modules / self.package / "LICENSE"


NOTO_EMOJI = FontPackage("@fontsource/noto-emoji", "MLTutor Noto Emoji", "noto-emoji-subset")
NOTO_SANS_SC = FontPackage(
    "@fontsource/noto-sans-sc", "MLTutor Noto Sans SC", "noto-sans-sc-subset"
)
PACKAGES = (NOTO_SANS_SC, NOTO_EMOJI)


# --------------------------------------------------------------------------------------------
# Pure parts (tested in tests/test_site_check.py).
# --------------------------------------------------------------------------------------------

_SCRIPT_OR_STYLE = re.compile(r"<(script|style|head)\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_FACE = re.compile(r"@font-face\s*\{(.*?)\}", re.S)
_WOFF_URL = re.compile(r"url\(\s*['\"]?([^'\")]+\.woff)['\"]?\s*\)")
_RANGE = re.compile(r"unicode-range\s*:\s*([^;]+);")


def page_text(markup: str) -> str:
    """The text of an HTML page as a reader sees it (no head, scripts, styles or tags)."""
    return html.unescape(_TAG.sub(" ", _SCRIPT_OR_STYLE.sub(" ", markup)))


def _in_blocks(char: str, blocks: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= ord(char) <= hi for lo, hi in blocks)


def needs_font(char: str) -> bool:
    """True for a drawn CJK character or pictograph: what Latin fonts lack and we ship."""
    # Separators, controls, format characters (ZWJ, variation selectors) and combining marks
    # draw nothing of their own.
    if unicodedata.category(char)[0] in ("Z", "C", "M"):
        return False
    return _in_blocks(char, CJK_BLOCKS) or _in_blocks(char, EMOJI_BLOCKS)


def characters_needing_fonts(texts: Iterable[str]) -> set[str]:
    return {char for text in texts for char in set(text) if needs_font(char)}


def parse_unicode_range(value: str) -> set[int]:
    """Code points of a CSS ``unicode-range`` value (``U+4e00-4e0f,U+20`` ...; ``?`` wildcards)."""
    points: set[int] = set()
    for token in value.replace(" ", "").split(","):
        if not token:
            continue
        token = token.upper().removeprefix("U+")
        if "?" in token:
            start, end = int(token.replace("?", "0"), 16), int(token.replace("?", "F"), 16)
        elif "-" in token:
            first, last = token.split("-")
            start, end = int(first, 16), int(last, 16)
        else:
            start = end = int(token, 16)
        points.update(range(start, end + 1))
    return points


def parse_faces(css: str) -> list[tuple[str, set[int]]]:
    """(WOFF file named in ``src``, code points of its ``unicode-range``) of each ``@font-face``."""
    faces = []
    for body in _FACE.findall(css):
        url, ranges = _WOFF_URL.search(body), _RANGE.search(body)
        if url and ranges:
            faces.append((url.group(1), parse_unicode_range(ranges.group(1))))
    return faces


def format_unicode_range(points: Iterable[int]) -> str:
    """The shortest ``unicode-range`` for ``points``: runs become ``U+a-b``."""
    runs: list[list[int]] = []
    for point in sorted(set(points)):
        if runs and point == runs[-1][1] + 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return ",".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


def is_pictograph(char: str) -> bool:
    return _in_blocks(char, EMOJI_BLOCKS)


def font_face_css(family: str, url: str, points: Iterable[int]) -> str:
    return (
        "@font-face {\n"
        f'  font-family: "{family}";\n'
        "  font-style: normal;\n"
        "  font-weight: 400;\n"
        "  font-display: swap;\n"
        f'  src: url("{url}") format("woff");\n'
        f"  unicode-range: {format_unicode_range(points)};\n"
        "}\n"
    )


# --------------------------------------------------------------------------------------------
# Font files (fontTools) and the Sphinx hook.
# --------------------------------------------------------------------------------------------


def _cmap(path: Path) -> set[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as font:
        return set(font.getBestCmap())


def assign_characters(
    chars: set[str], node_modules: Path, packages: tuple[FontPackage, ...] = PACKAGES
) -> tuple[dict[FontPackage, dict[Path, set[int]]], set[str]]:
    """For each package, {its WOFF file: the code points to take from it}; and the characters
    no shipped font has."""
    faces: dict[FontPackage, list[tuple[Path, set[int]]]] = {}
    for package in packages:
        css_path = package.faces_css(node_modules)
        if not css_path.is_file():
            raise FileNotFoundError(
                f"{css_path} is missing: run `npm ci` (package-lock.json pins {package.package})"
            )
        faces[package] = [
            (css_path.parent / url, points)
            for url, points in parse_faces(css_path.read_text(encoding="utf-8"))
        ]
    cmaps: dict[Path, set[int]] = {}
    chosen: dict[FontPackage, dict[Path, set[int]]] = {p: {} for p in packages}
    uncovered = set()
    for char in sorted(chars):
        order = sorted(
            packages,
            key=lambda p: (p is not NOTO_EMOJI) if is_pictograph(char) else (p is NOTO_EMOJI),
        )
        for package in order:
            hit = next(
                (
                    path
                    for path, points in faces[package]
                    if ord(char) in points
                    and ord(char)
                    in cmaps.setdefault(path, _cmap(path) if path.is_file() else set())
                ),
                None,
            )
            if hit is not None:
                chosen[package].setdefault(hit, set()).add(ord(char))
                break
        else:
            uncovered.add(char)
    return chosen, uncovered


def write_subset(sources: dict[Path, set[int]], out: Path) -> None:
    """Cut each source file to its code points and merge the pieces into one WOFF at ``out``."""
    from fontTools import subset
    from fontTools.merge import Merger
    from fontTools.ttLib import TTFont

    pieces = []
    for index, (path, points) in enumerate(sorted(sources.items())):
        font = TTFont(path, recalcTimestamp=False)
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = ["*"]  # keep the copyright and licence records
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=points)
        subsetter.subset(font)
        font.flavor = None
        piece = out.with_name(f"{out.stem}.part{index}.ttf")
        font.save(piece)
        pieces.append(piece)
    try:
        merged = pieces[0] if len(pieces) == 1 else None
        font = (
            TTFont(merged, recalcTimestamp=False)
            if merged
            else Merger().merge([str(p) for p in pieces])
        )
        font.recalcTimestamp = False
        font.flavor = "woff"
        font.save(out)
    finally:
        for piece in pieces:
            piece.unlink(missing_ok=True)


def build_fonts(outdir: Path, node_modules: Path) -> tuple[dict[str, int], set[str]]:
    """Write the subset fonts and ``_static/mltutor-fonts.css`` for the pages in ``outdir``.

    Returns ({family: number of characters shipped}, characters no shipped font has).
    """
    texts = [
        page_text(path.read_text(encoding="utf-8", errors="replace"))
        for path in sorted(outdir.rglob("*.html"))
        if not NON_PAGE_DIRS.intersection(path.relative_to(outdir).parts[:-1])
    ]
    chosen, uncovered = assign_characters(characters_needing_fonts(texts), node_modules)
    static = outdir / "_static"
    font_dir = static / FONT_DIR
    font_dir.mkdir(parents=True, exist_ok=True)
    written = set()
    css = [
        "/* Generated by book/_ext/mltutor_fonts.py: the characters of this site above"
        " Latin-1, cut from fonts pinned in package-lock.json (SIL Open Font License,"
        " see fonts/LICENSE-*). */\n"
    ]
    shipped = {}
    for package, sources in chosen.items():
        if not sources:
            continue
        out = font_dir / f"{package.slug}.woff"
        # Written beside the old file and then renamed over it, so that a reader (or the
        # browser check) of a site being rebuilt never meets a missing font.
        partial = out.with_suffix(".woff.partial")
        write_subset(sources, partial)
        partial.replace(out)
        licence = font_dir / f"LICENSE-{package.slug}.txt"
        shutil.copy2(package.license_file(node_modules), licence)
        written |= {out, licence}
        points = set().union(*sources.values())
        css.append(font_face_css(package.family, f"{FONT_DIR}/{out.name}", points))
        shipped[package.family] = len(points)
    (static / FONT_CSS).write_text("\n".join(css), encoding="utf-8")
    for stale in set(font_dir.iterdir()) - written:
        stale.unlink()
    return shipped, uncovered


def _node_modules(app) -> Path:
    configured = app.config.mltutor_node_modules
    return Path(configured) if configured else Path(app.srcdir) / "node_modules"


def write_fonts(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    shipped, uncovered = build_fonts(Path(app.outdir), _node_modules(app))
    summary = ", ".join(f"{family}: {n} characters" for family, n in shipped.items())
    logger.info(f"mltutor_fonts: shipped {summary or 'no fonts'}")
    if uncovered:
        # Not a warning: the browser check is what fails when a page really draws a box.
        names = " ".join(f"{c} U+{ord(c):04X}" for c in sorted(uncovered))
        logger.info(f"mltutor_fonts: in no shipped font (left to the system fonts): {names}")


def setup(app) -> dict[str, Any]:
    app.add_config_value("mltutor_node_modules", "", "html")
    app.add_css_file(FONT_CSS)
    app.connect("build-finished", write_fonts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
