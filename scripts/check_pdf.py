"""Check the book's PDFs: page count, every font embedded, no missing glyph, no lost character.

Usage::

    python scripts/check_pdf.py                       # _build/pdf/mltutor-en.pdf and -zh.pdf
    python scripts/check_pdf.py some.pdf --html some.html --min-pages 1

For each PDF (read with pypdf, pinned in requirements.txt):

1. **Page count** within ``--min-pages`` .. ``--max-pages`` (a book of this size prints to a few
   hundred A4 pages; a PDF of a handful of pages means the print lost the book).
2. **Fonts embedded.** Every font that a page, a form XObject or a Type 3 glyph procedure uses
   is embedded: a Type 0 font's descendant font and every simple TrueType or Type 1 font has a
   font file (``/FontFile``, ``/FontFile2`` or ``/FontFile3``) in its descriptor; a Type 3 font
   carries its glyphs as drawing procedures in the file. A font without one would be drawn by
   whatever the reader's viewer substitutes.
3. **No missing-glyph box.** Chromium draws a character that no font in the page's font stack
   has with glyph 0, ``.notdef`` (the box; tests/test_pdf.py prints one); Skia, Chromium's PDF
   writer, embeds the page's text fonts (here DejaVu, Noto Sans SC, Noto Emoji) as Type 0
   fonts whose codes are glyph ids (``Identity-H``), so a code 0 shown with such a font is a box
   on the page. Every text-showing operator (``Tj``, ``TJ``, ``'``, ``"``) of every page and
   form XObject is read. Fonts that Skia writes as Type 3 (MathJax's, in these PDFs) have no
   glyph ids to judge; check 4 still covers the CJK characters and pictographs.
4. **No lost character.** The text of the PDF, decoded through each font's ``/ToUnicode`` map,
   holds every CJK character and pictograph of the printed HTML page's article (``--html``,
   default ``_build/singlehtml/<edition>/mltutor-<edition>.html`` beside ``mltutor-<edition>.pdf``;
   the same characters ``book/_ext/mltutor_fonts.py`` ships fonts for): a character drawn as a
   box, or not drawn, has no Unicode in the PDF.

Exit status 0 when every PDF passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PDFS = [ROOT / "_build" / "pdf" / f"mltutor-{edition}.pdf" for edition in ("en", "zh")]
MIN_PAGES, MAX_PAGES = 150, 1500
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")

# One token of a content stream that matters here: a font selection, a string (hex or
# literal), an array bracket, or a text-showing operator. Everything else is skipped.
_TOKEN = re.compile(
    rb"/(?P<name>[^\s/\[\]()<>{}%]+)\s+[-+.\d]+\s+Tf\b"
    rb"|<(?P<hex>[0-9A-Fa-f\s]*)>"
    rb"|(?P<lit>\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\))"
    rb"|(?P<do>/(?P<xobject>[^\s/\[\]()<>{}%]+)\s+Do\b)"
    rb"|/[^\s/\[\]()<>{}%]*"  # any other name: skipped
    rb"|(?P<op>[A-Za-z][A-Za-z0-9*]*|'|\")"
)
SHOW = {"Tj", "TJ", "'", '"'}
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


@dataclass
class Font:
    """What the check needs of one font resource."""

    name: str  # /BaseFont, or the resource name for a Type 3 font
    subtype: str  # /Type0, /TrueType, /Type1, /Type3 ...
    embedded: bool
    two_byte: bool  # a Type 0 font with Identity-H/V: codes are 2-byte glyph ids
    to_unicode: dict[int, str] = field(default_factory=dict)


@dataclass
class Report:
    """The findings for one PDF."""

    path: str
    pages: int = 0
    fonts: list[Font] = field(default_factory=list)
    notdef: Counter = field(default_factory=Counter)  # font name -> codes 0 shown
    text_chars: set[str] = field(default_factory=set)
    missing_chars: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Pure parts: bytes and dictionaries in, findings out (tested in tests/test_pdf.py).
# --------------------------------------------------------------------------------------------


def parse_cmap(data: bytes) -> dict[int, str]:
    """The code -> text map of a ``/ToUnicode`` CMap (``bfchar`` and ``bfrange`` sections)."""

    def text(hexcode: bytes) -> str:
        raw = bytes.fromhex(hexcode.decode("ascii"))
        return raw.decode("utf-16-be", errors="replace") if len(raw) >= 2 else raw.decode("latin-1")

    mapping: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            mapping[int(src, 16)] = text(dst)
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, rest in re.findall(
            rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])", block
        ):
            lo_i, hi_i = int(lo, 16), int(hi, 16)
            if rest.startswith(b"["):
                for offset, dst in enumerate(re.findall(rb"<([0-9A-Fa-f]*)>", rest)):
                    mapping[lo_i + offset] = text(dst)
            else:
                start = bytes.fromhex(rest[1:-1].decode("ascii"))
                for offset in range(hi_i - lo_i + 1):
                    value = int.from_bytes(start, "big") + offset
                    mapping[lo_i + offset] = text(
                        value.to_bytes(max(len(start), 2), "big").hex().encode("ascii")
                    )
    return mapping


def literal_bytes(token: bytes) -> bytes:
    """The bytes of a PDF literal string token ``(...)`` (escapes resolved)."""
    body, out, i = token[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i : i + 1]
        if char != b"\\":
            out += char
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in _ESCAPES:
            out += _ESCAPES[nxt]
            i += 2
        elif nxt.isdigit():
            octal = re.match(rb"[0-7]{1,3}", body[i + 1 : i + 4]).group(0)
            out.append(int(octal, 8) & 0xFF)
            i += 1 + len(octal)
        elif nxt in (b"\n", b"\r"):
            i += 2  # a line continuation
        else:
            out += nxt
            i += 2
    return bytes(out)


def shown_codes(content: bytes) -> list[tuple[str | None, bytes | None, str | None]]:
    """The text-showing events of a content stream, in order.

    Each item is ``(font resource name, None, None)`` for ``Tf``, ``(None, string bytes, None)``
    for a string operand, ``(None, None, operator)`` for any other operator (``Tj``, ``TJ``,
    ``'`` and ``"`` show the strings before them; the others discard them), or
    ``("Do", None, xobject name)`` for an XObject drawn.
    """
    events: list[tuple[str | None, bytes | None, str | None]] = []
    for match in _TOKEN.finditer(content):
        if match.group("name") is not None:
            events.append((match.group("name").decode("latin-1"), None, None))
        elif match.group("hex") is not None:
            digits = re.sub(rb"\s", b"", match.group("hex"))
            if len(digits) % 2:
                digits += b"0"
            events.append((None, bytes.fromhex(digits.decode("ascii")), None))
        elif match.group("lit") is not None:
            events.append((None, literal_bytes(match.group("lit")), None))
        elif match.group("op") is not None:
            events.append((None, None, match.group("op").decode("latin-1")))
        elif match.group("do") is not None:
            events.append(("Do", None, match.group("xobject").decode("latin-1")))
    return events


def decode(font: Font, data: bytes) -> tuple[str, int]:
    """(text, number of glyph-0 codes) of a string shown in ``font``."""
    if font.two_byte:
        codes = [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data) - 1, 2)]
    else:
        codes = list(data)
    text = "".join(font.to_unicode.get(code, "") for code in codes)
    return text, sum(1 for code in codes if code == 0) if font.two_byte else 0


def expected_characters(markup: str) -> set[str]:
    """The CJK characters and pictographs of an HTML page's article (or whole body)."""
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from mltutor_fonts import characters_needing_fonts, page_text

    article = re.search(r'<article class="bd-article"[^>]*>(.*)</article>', markup, re.S)
    return characters_needing_fonts([page_text(article.group(1) if article else markup)])


# --------------------------------------------------------------------------------------------
# Reading a PDF (pypdf).
# --------------------------------------------------------------------------------------------


def _font(resource_name: str, obj) -> Font:
    from pypdf.generic import NameObject

    subtype = str(obj.get("/Subtype", ""))
    descriptor = None
    two_byte = False
    if subtype == "/Type0":
        descendant = obj["/DescendantFonts"][0].get_object()
        descriptor = descendant.get("/FontDescriptor")
        encoding = obj.get("/Encoding")
        two_byte = isinstance(encoding, NameObject) and str(encoding) in (
            "/Identity-H",
            "/Identity-V",
        )
    else:
        descriptor = obj.get("/FontDescriptor")
    descriptor = descriptor.get_object() if descriptor is not None else None
    embedded = subtype == "/Type3" or (
        descriptor is not None and any(key in descriptor for key in FONT_FILES)
    )
    to_unicode = obj.get("/ToUnicode")
    cmap = parse_cmap(to_unicode.get_object().get_data()) if to_unicode is not None else {}
    name = str(obj.get("/BaseFont", resource_name)).lstrip("/")
    return Font(name, subtype, embedded, two_byte, cmap)


def _walk(content: bytes, resources, fonts: dict, report: Report, depth: int = 0) -> None:
    """Read one content stream with its resources: fonts used, text shown, glyph-0 codes."""
    if resources is None or depth > 8:
        return
    resources = resources.get_object()
    font_dict = resources.get("/Font")
    font_dict = font_dict.get_object() if font_dict is not None else {}
    xobjects = resources.get("/XObject")
    xobjects = xobjects.get_object() if xobjects is not None else {}
    current: Font | None = None
    strings: list[bytes] = []
    for name, data, op in shown_codes(content):
        if name == "Do":
            xobject = xobjects.get("/" + op)
            xobject = xobject.get_object() if xobject is not None else None
            if xobject is not None and xobject.get("/Subtype") == "/Form":
                _walk(xobject.get_data(), xobject.get("/Resources"), fonts, report, depth + 1)
        elif name is not None:
            ref = font_dict.get("/" + name)
            if ref is None:
                report.problems.append(f"font /{name} selected but not in the resources")
                current = None
                continue
            key = getattr(ref, "idnum", None) or id(ref.get_object())
            if key not in fonts:
                obj = ref.get_object()
                fonts[key] = _font(name, obj)
                if fonts[key].subtype == "/Type3":
                    for proc in (obj.get("/CharProcs") or {}).values():
                        _walk(
                            proc.get_object().get_data(),
                            obj.get("/Resources"),
                            fonts,
                            report,
                            depth + 1,
                        )
            current = fonts[key]
        elif data is not None:
            strings.append(data)
        elif op is not None:
            if current is not None and op in SHOW:
                for string in strings:
                    text, zeros = decode(current, string)
                    report.text_chars.update(text)
                    if zeros:
                        report.notdef[current.name] += zeros
            strings = []


def read_pdf(path: Path) -> Report:
    """Pages, fonts, glyph-0 codes and the set of characters of the text of a PDF."""
    from pypdf import PdfReader

    report = Report(str(path))
    reader = PdfReader(path)
    report.pages = len(reader.pages)
    fonts: dict = {}
    for page in reader.pages:
        contents = page.get_contents()
        data = contents.get_data() if contents is not None else b""
        _walk(data, page.get("/Resources"), fonts, report)
    report.fonts = list(fonts.values())
    return report


def check_pdf(
    path: Path, html: Path | None = None, min_pages: int = MIN_PAGES, max_pages: int = MAX_PAGES
) -> Report:
    """Read ``path`` and judge it; the problems are in ``report.problems``."""
    report = read_pdf(path)
    if not min_pages <= report.pages <= max_pages:
        report.problems.append(f"{report.pages} pages, outside {min_pages}..{max_pages}")
    if not report.fonts:
        report.problems.append("no font at all: the PDF has no text")
    for font in report.fonts:
        if not font.embedded:
            report.problems.append(f"font {font.name} ({font.subtype[1:]}) is not embedded")
    for name, count in sorted(report.notdef.items()):
        report.problems.append(f"{count} missing-glyph boxes (glyph 0) drawn in font {name}")
    if html is not None:
        expected = expected_characters(html.read_text(encoding="utf-8"))
        report.missing_chars = expected - report.text_chars
        if report.missing_chars:
            shown = " ".join(f"{c} U+{ord(c):04X}" for c in sorted(report.missing_chars)[:30])
            report.problems.append(
                f"{len(report.missing_chars)} of {len(expected)} CJK "
                f"characters and pictographs of {html.name} are not in the "
                f"PDF's text: {shown}"
            )
    return report


def default_html(pdf: Path) -> Path | None:
    """The printed page of ``_build/pdf/mltutor-<edition>.pdf``, when it is there."""
    match = re.fullmatch(r"mltutor-(\w+)\.pdf", pdf.name)
    if not match:
        return None
    page = ROOT / "_build" / "singlehtml" / match.group(1) / f"mltutor-{match.group(1)}.html"
    return page if page.is_file() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path, default=DEFAULT_PDFS)
    parser.add_argument(
        "--html",
        type=Path,
        action="append",
        default=None,
        help="the HTML page each PDF was printed from (once per PDF)",
    )
    parser.add_argument("--min-pages", type=int, default=MIN_PAGES)
    parser.add_argument("--max-pages", type=int, default=MAX_PAGES)
    args = parser.parse_args(argv)
    if args.html and len(args.html) != len(args.pdfs):
        parser.error("give --html once per PDF, or not at all")
    status = 0
    for index, pdf in enumerate(args.pdfs):
        if not pdf.is_file():
            print(f"{pdf}: missing (make pdf builds it)")
            status = 1
            continue
        html = args.html[index] if args.html else default_html(pdf)
        report = check_pdf(pdf, html, args.min_pages, args.max_pages)
        kinds = Counter(font.subtype[1:] for font in report.fonts)
        summary = (
            f"{pdf}: {report.pages} pages, {pdf.stat().st_size / 2**20:.1f} MiB, "
            f"{len(report.fonts)} fonts embedded "
            f"({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), "
            f"{len(report.text_chars)} distinct characters in its text"
        )
        if html is not None:
            summary += f", every CJK character and pictograph of {html.name} among them"
        if report.problems:
            status = 1
            print(f"{pdf}: {len(report.problems)} problem(s)")
            for problem in report.problems:
                print(f"  {problem}")
        else:
            print(summary)
    return status


if __name__ == "__main__":
    sys.exit(main())
