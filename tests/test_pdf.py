"""The PDFs of the book (``make pdf``: scripts/make_pdf.py) and their check (scripts/check_pdf.py).

- The checker on tiny PDFs written here byte by byte: one that passes, and one each that must
  fail (a font not embedded, a missing-glyph box, a character lost, a page count out of range).
- The checker on a PDF that Chromium prints (skipped without Debian's chromium): a page whose
  character no font has fails; the same page without it passes.
- make_pdf's pure parts (links, contents, title page, the download-menu switch) and the
  download-menu template in a tiny Sphinx project, for both editions.
- The built PDFs, when ``_build/pdf/mltutor-*.pdf`` exist (skipped otherwise, as the site-build
  tests are): both pass the check.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))  # make_pdf imports its neighbours by name


def _script(name: str):
    """A module of scripts/ (loaded by path: scripts/ is not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


check_pdf = _script("check_pdf")
make_pdf = _script("make_pdf")

# --------------------------------------------------------------------------------------------
# Tiny PDFs, written by hand.
# --------------------------------------------------------------------------------------------


def write_pdf(
    path: Path, content: bytes, font: str = "type0", pages: int = 1, cmap: bytes | None = None
) -> Path:
    """A PDF of ``pages`` pages that each show ``content`` with one font /F1.

    ``font``: "type0" (an Identity-H Type 0 font with a font file, as Chromium writes) or
    "base14" (Helvetica named, not embedded). ``cmap`` is the font's ToUnicode map.
    """
    cmap = (
        cmap
        if cmap is not None
        else (
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
            b"2 beginbfchar <0001> <0041> <0002> <4E2D> endbfchar\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
        )
    )
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(data: bytes, extra: bytes = b"") -> bytes:
        packed = zlib.compress(data)
        return (
            b"<< /Length %d /Filter /FlateDecode %s>>\nstream\n" % (len(packed), extra)
            + packed
            + b"\nendstream"
        )

    if font == "type0":
        font_file = add(stream(b"not a real font program", b"/Length1 23 "))
        descriptor = add(
            b"<< /Type /FontDescriptor /FontName /AAAAAA+Tiny /Flags 4 "
            b"/FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 "
            b"/CapHeight 700 /StemV 80 /FontFile2 %d 0 R >>" % font_file
        )
        cid = add(
            b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /AAAAAA+Tiny "
            b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
            b"/FontDescriptor %d 0 R /CIDToGIDMap /Identity >>" % descriptor
        )
        to_unicode = add(stream(cmap))
        font_obj = add(
            b"<< /Type /Font /Subtype /Type0 /BaseFont /AAAAAA+Tiny "
            b"/Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>"
            % (cid, to_unicode)
        )
    else:
        font_obj = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    contents = add(stream(content))
    kids_start = len(objects) + 2  # pages tree first, then the pages
    pages_obj = add(
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (kids_start + i) for i in range(pages)), pages)
    )
    for _ in range(pages):
        add(
            b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 200 200] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (pages_obj, contents, font_obj)
        )
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj)
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


def html_page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.html"
    page.write_text(
        f'<html><body><article class="bd-article"><p>{text}</p></article>'
        f"<nav>侧栏</nav></body></html>",
        encoding="utf-8",
    )
    return page


def test_a_clean_pdf_passes(tmp_path):
    pdf = write_pdf(tmp_path / "ok.pdf", b"BT /F1 12 Tf 10 100 Td <00010002> Tj ET")
    report = check_pdf.check_pdf(pdf, html_page(tmp_path, "A 中"), min_pages=1)
    assert report.problems == []
    assert report.pages == 1 and report.text_chars == {"A", "中"}
    assert [(f.subtype, f.embedded, f.two_byte) for f in report.fonts] == [("/Type0", True, True)]
    # The sidebar's 侧栏 is not the article's: it is not expected in the PDF.
    assert main_status([str(pdf), "--min-pages", "1", "--html", str(tmp_path / "page.html")]) == 0


def test_a_font_not_embedded_fails(tmp_path):
    pdf = write_pdf(tmp_path / "base14.pdf", b"BT /F1 12 Tf 10 100 Td (Hi) Tj ET", font="base14")
    report = check_pdf.check_pdf(pdf, min_pages=1)
    assert report.problems == ["font Helvetica (Type1) is not embedded"]
    assert main_status([str(pdf), "--min-pages", "1"]) == 1


def test_a_missing_glyph_box_fails(tmp_path):
    # Glyph 0 (.notdef) between two real glyphs, once in a plain string and once in a TJ array.
    pdf = write_pdf(
        tmp_path / "tofu.pdf",
        b"BT /F1 12 Tf 10 100 Td <000100000002> Tj [<0001> -120 <0000>] TJ ET",
    )
    report = check_pdf.check_pdf(pdf, min_pages=1)
    assert report.problems == ["2 missing-glyph boxes (glyph 0) drawn in font AAAAAA+Tiny"]


def test_a_lost_character_fails(tmp_path):
    pdf = write_pdf(tmp_path / "lost.pdf", b"BT /F1 12 Tf 10 100 Td <0001> Tj ET")
    report = check_pdf.check_pdf(pdf, html_page(tmp_path, "A 中文"), min_pages=1)
    assert report.missing_chars == {"中", "文"}
    assert len(report.problems) == 1 and "2 of 2 CJK characters" in report.problems[0]


def test_page_count_outside_the_range_fails(tmp_path):
    pdf = write_pdf(tmp_path / "three.pdf", b"BT /F1 12 Tf <0001> Tj ET", pages=3)
    assert check_pdf.check_pdf(pdf, min_pages=1, max_pages=3).problems == []
    assert check_pdf.check_pdf(pdf, min_pages=4).problems == ["3 pages, outside 4..1500"]
    assert check_pdf.check_pdf(pdf, min_pages=1, max_pages=2).problems == ["3 pages, outside 1..2"]


def test_a_missing_pdf_fails(tmp_path, capsys):
    assert main_status([str(tmp_path / "absent.pdf")]) == 1
    assert "missing (make pdf builds it)" in capsys.readouterr().out


def main_status(argv: list[str]) -> int:
    return check_pdf.main(argv)


def test_parse_cmap_ranges_and_arrays():
    cmap = (
        b"2 beginbfchar <0003> <0020> <0010> <00660069> endbfchar\n"
        b"2 beginbfrange <0020> <0022> <0041> <0030> <0031> [<4E2D> <6587>] endbfrange"
    )
    assert check_pdf.parse_cmap(cmap) == {
        3: " ",
        16: "fi",
        0x20: "A",
        0x21: "B",
        0x22: "C",
        0x30: "中",
        0x31: "文",
    }


def test_content_tokens_strings_operators_and_forms():
    content = (
        rb"/P <</MCID 3>> BDC BT /F2 9.5 Tf [(a\)b) 50 <0102>] TJ (c\101) ' ET EMC"
        rb" /Span << /ActualText (x) >> BDC (y) Tj EMC /Fm1 Do"
    )
    events = check_pdf.shown_codes(content)
    assert ("F2", None, None) in events
    assert (None, b"a)b", None) in events and (None, b"\x01\x02", None) in events
    assert (None, b"cA", None) in events and (None, None, "'") in events
    assert ("Do", None, "Fm1") in events
    # A string that is an operand of BDC is discarded at BDC, never shown.
    strings_before_show = []
    pending = []
    for _name, data, op in events:
        if data is not None:
            pending.append(data)
        elif op is not None:
            if op in check_pdf.SHOW:
                strings_before_show += pending
            pending = []
    assert b"x" not in strings_before_show and b"y" in strings_before_show


def test_expected_characters_come_from_the_article():
    markup = (
        "<html><head><title>标题</title></head><body><nav>目录</nav>"
        '<article class="bd-article"><p>精确率 ✅ &amp; é</p><script>var s = "脚本";'
        "</script></article></body></html>"
    )
    assert check_pdf.expected_characters(markup) == set("精确率✅")


# --------------------------------------------------------------------------------------------
# A PDF that Chromium prints.
# --------------------------------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_chromium_pdf_with_a_character_no_font_has_fails(tmp_path):
    pytest.importorskip("playwright")
    from playwright.sync_api import sync_playwright

    check_site = _script("check_site")
    # U+0378 is unassigned: no font has it, so Chromium draws glyph 0 (the box) for it.
    pages = {"clean": "Precision and recall", "tofu": "Precision \u0378 recall"}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=check_site.CHROMIUM_ARGS
        )
        tab = browser.new_page()
        for name, text in pages.items():
            tab.set_content(
                f'<html><body style="font-family: sans-serif"><article '
                f'class="bd-article"><p>{text}</p></article></body></html>'
            )
            tab.pdf(path=str(tmp_path / f"{name}.pdf"), format="A4")
        browser.close()
    clean = check_pdf.check_pdf(tmp_path / "clean.pdf", min_pages=1)
    assert clean.problems == [] and set("Precision") <= clean.text_chars
    tofu = check_pdf.check_pdf(tmp_path / "tofu.pdf", min_pages=1)
    assert len(tofu.problems) == 1 and "missing-glyph boxes (glyph 0)" in tofu.problems[0]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_outline_from_the_contents_links(tmp_path):
    pytest.importorskip("playwright")
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    check_site = _script("check_site")
    page = (
        '<html><body><p><a href="#document-book/a">A</a> <a href="#document-book/b">B</a></p>'
        '<div style="break-before: page"><span id="document-book/a"></span><h1>A</h1></div>'
        '<div style="break-before: page"><span id="document-book/b"></span><h1>B</h1></div>'
        "</body></html>"
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=check_site.CHROMIUM_ARGS
        )
        tab = browser.new_page()
        tab.set_content(page)
        tab.pdf(path=str(tmp_path / "book.pdf"), format="A4")
        browser.close()
    parts = [["Chapters", [["book/a", "1. A"], ["book/b", "2. B"], ["book/gone", "3. C"]]]]
    assert make_pdf.add_outline(tmp_path / "book.pdf", "The book", parts) == 2
    reader = PdfReader(tmp_path / "book.pdf")
    top = reader.outline
    assert [item.title for item in top if not isinstance(item, list)] == ["The book", "Chapters"]
    children = next(item for item in top if isinstance(item, list))
    assert [(c.title, reader.get_destination_page_number(c)) for c in children] == [
        ("1. A", 1),
        ("2. B", 2),
    ]
    assert len(reader.pages) == 3


# --------------------------------------------------------------------------------------------
# make_pdf's pure parts and the download-menu template.
# --------------------------------------------------------------------------------------------


def test_same_page_links():
    markup = (
        '<link rel="stylesheet" href="_static/a.css" />'
        '<a class="reference internal" href="book/intro.html#term-recall">recall</a>'
        '<a href="book/intro.html">home</a>'
        '<a href="#x">x</a><a href="https://example.org/">out</a>'
        '<a class="reference download" href="_downloads/abc/nb.ipynb">nb</a>'
        '<a href="../zh/book/intro.html">中文</a>'
    )
    out = make_pdf.same_page_links(markup, "book/intro.html")
    assert '<link rel="stylesheet" href="_static/a.css" />' in out
    assert 'href="#term-recall">recall' in out and 'href="#">home' in out
    assert 'href="#x"' in out and 'href="https://example.org/"' in out
    assert "_downloads" not in out and "../zh/" not in out
    assert out.count('data-mltutor-unlinked="true"') == 2 and ">nb</a>" in out


def test_contents_and_title_page():
    toc = {
        "root": "book/intro",
        "parts": [
            {"caption": "Chapters", "chapters": [{"file": "book/01_x", "title": "1. X <y>"}]},
            {
                "caption": "Appendix",
                "chapters": [
                    {"file": "book/api/index", "title": "API", "sections": [{"file": "book/api/m"}]}
                ],
            },
        ],
    }
    parts = make_pdf.toc_parts(toc)
    assert parts == [
        ("Chapters", [("book/01_x", "1. X <y>")]),
        ("Appendix", [("book/api/index", "API"), ("book/api/m", "")]),
    ]
    nav = make_pdf.contents_html(parts)
    assert '<a href="#document-book/01_x">1. X &lt;y&gt;</a>' in nav
    assert '<a href="#document-book/api/m"></a>' in nav and nav.startswith('<nav id="mltutor')
    page = make_pdf.title_page_html(
        "T & U", "A", make_pdf.EDITIONS["zh"], "0.1.0", "abc1234", "2026-12-01"
    )
    assert "T &amp; U" in page and "版本 0.1.0" in page and "abc1234" in page
    assert 'lang="zh-CN"' in page
    assert "commit" not in make_pdf.title_page_html(
        "T", "A", make_pdf.EDITIONS["en"], "1", None, None
    )


def test_print_page_adds_title_contents_and_css():
    markup = (
        '<html><head><script src="searchindex.js"></script>\n</head><body>'
        '<article class="bd-article" role="main"><a href="book/intro.html#a">a</a>'
        "</article></body></html>"
    )
    out = make_pdf.print_page(
        markup, "book/intro.html", "<section>T</section>", "<nav>C</nav>", "_static/print.css"
    )
    assert '<article class="bd-article" role="main"><section>T</section><nav>C</nav>' in out
    assert out.index('href="_static/print.css"') < out.index("</head>")
    assert "searchindex.js" not in out and 'href="#a"' in out
    with pytest.raises(ValueError):
        make_pdf.print_page("<html></html>", "x.html", "", "", "")


def test_widget_state_goes_into_the_head():
    out = make_pdf.with_widget_state(
        "<html><head></head></html>", [{"state": {"m": {"v": "</script>"}}}], ["a.js", "b.js"]
    )
    assert (
        out.index(make_pdf.WIDGET_STATE)
        < out.index('src="_static/a.js"')
        < out.index('src="_static/b.js"')
        < out.index("</head>")
    )
    assert '</script>"' not in out
    assert make_pdf.with_widget_state("<html></html>", []) == "<html></html>"


@pytest.fixture(scope="module")
def tiny_sites(tmp_path_factory):
    """A two-page Sphinx project with the book's theme and templates, in each edition."""
    src = tmp_path_factory.mktemp("tiny")
    (src / "conf.py").write_text(
        'project = "tiny"\nhtml_theme = "sphinx_book_theme"\n'
        f"templates_path = [{str(ROOT / 'book' / '_templates')!r}]\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text("Tiny\n====\n\n.. toctree::\n\n   sub/page\n", encoding="utf-8")
    (src / "sub").mkdir()
    (src / "sub" / "page.rst").write_text("Page\n====\n\nText.\n", encoding="utf-8")
    sites = {}
    for edition, language in (("en", "en"), ("zh", "zh_CN")):
        out = src / f"_out_{edition}"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sphinx",
                "-q",
                "-b",
                "html",
                "-D",
                f"language={language}",
                str(src),
                str(out),
            ],
            check=True,
            capture_output=True,
        )
        sites[edition] = out
    return sites


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_download_menu_links_the_pdf_only_once_enabled(tiny_sites, edition):
    page = (tiny_sites[edition] / "sub" / "page.html").read_text(encoding="utf-8")
    # Before make pdf: the entry is inside a comment, so no link to a PDF that is not there.
    assert page.count(make_pdf.LINK_OPEN) == 1 and page.count(make_pdf.LINK_CLOSE) == 1
    visible = re.sub(r"<!--.*?-->", "", page, flags=re.S)
    assert "mltutor-" + edition + ".pdf" not in visible
    enabled, count = make_pdf.enable_links(page)
    assert count == 1 and make_pdf.LINK_OPEN not in enabled
    menu = enabled[enabled.index("btn-download-pdf-button") :]
    menu = menu[: menu.index("</ul>")]
    href = re.search(r'<a href="([^"]+\.pdf)"', menu).group(1)
    # From sub/page.html, the edition's PDF at <edition root>/pdf/ (make_pdf.SITE_PDF).
    assert href == f"../pdf/mltutor-{edition}.pdf"
    expected = make_pdf.SITE_PDF[edition].removeprefix(make_pdf.EDITION_DIR[edition] + "/")
    assert (Path("sub") / href).as_posix().replace("sub/../", "") == expected
    assert ("全书 PDF" if edition == "zh" else "Book (PDF)") in menu


def test_publish_copies_the_pdf_and_enables_only_its_edition(tmp_path):
    site = tmp_path / "html"
    entry = f'{make_pdf.LINK_OPEN}<li><a href="pdf/x.pdf">PDF</a></li>{make_pdf.LINK_CLOSE}'
    for page in ("index.html", "book/a.html", "zh/index.html", "zh/book/a.html"):
        (site / page).parent.mkdir(parents=True, exist_ok=True)
        (site / page).write_text(f"<ul>{entry}</ul>", encoding="utf-8")
    pdf = write_pdf(tmp_path / "book.pdf", b"BT /F1 12 Tf <0001> Tj ET")
    assert make_pdf.publish("en", pdf, site) == 2
    assert (site / "pdf" / "mltutor-en.pdf").read_bytes() == pdf.read_bytes()
    assert make_pdf.LINK_OPEN not in (site / "book" / "a.html").read_text(encoding="utf-8")
    assert make_pdf.LINK_OPEN in (site / "zh" / "book" / "a.html").read_text(encoding="utf-8")
    assert make_pdf.publish("zh", pdf, site) == 2
    assert (site / "zh" / "pdf" / "mltutor-zh.pdf").is_file()
    assert make_pdf.LINK_OPEN not in (site / "zh" / "index.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------------
# The built PDFs.
# --------------------------------------------------------------------------------------------

BUILT = sorted((ROOT / "_build" / "pdf").glob("mltutor-*.pdf"))


@pytest.mark.skipif(not BUILT, reason="no PDF built (make pdf)")
@pytest.mark.parametrize("pdf", BUILT, ids=[p.stem for p in BUILT])
def test_built_pdf_passes_the_check(pdf):
    html = check_pdf.default_html(pdf)
    assert html is not None, f"{pdf.name}: the page it was printed from is gone (make pdf)"
    report = check_pdf.check_pdf(pdf, html)
    assert report.problems == []


def test_command_line_editions():
    assert make_pdf.parse_args([]).editions == ["en", "zh"]
    assert make_pdf.parse_args(["zh", "en", "zh"]).editions == ["zh", "en"]
    with pytest.raises(SystemExit):
        make_pdf.parse_args(["fr"])
