"""Unit tests of the pure parts of scripts/check_site.py (no browser, no server)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("check_site", ROOT / "scripts" / "check_site.py")
check_site = importlib.util.module_from_spec(_spec)
sys.modules["check_site"] = check_site  # dataclasses look their module up while defining
_spec.loader.exec_module(check_site)


def _links(html: str):
    parser = check_site.PageLinks()
    parser.feed(html)
    return parser


def test_collects_links_resources_images_and_ids():
    page = _links(
        '<a href="b.html#x">b</a><link rel="stylesheet" href="_static/s.css">'
        '<img src="_images/f.png" alt="a figure"><script src="_static/j.js"></script>'
        '<h1 id="top">t</h1><a name="old"></a><section id="s1"></section>'
        '<a href="https://example.org/">e</a><script>var inline = 1;</script>'
    )
    assert page.links == ["b.html#x", "_static/s.css", "https://example.org/"]
    assert page.resources == ["_images/f.png", "_static/j.js"]
    assert page.ids == {"top", "old", "s1"}
    assert page.images == [{"src": "_images/f.png", "alt": "a figure"}]
    assert page.redirect is None


def test_meta_refresh_is_a_redirect_and_a_link():
    page = _links('<meta http-equiv="Refresh" content="0; url=book/intro.html" />')
    assert page.redirect == "book/intro.html"
    assert page.links == ["book/intro.html"]


@pytest.mark.parametrize(
    "url, internal",
    [
        ("b.html", True),
        ("../_static/x.js?v=1", True),
        ("#frag", True),
        ("/abs.html", True),
        ("https://cdn.jsdelivr.net/npm/x", False),
        ("//unpkg.com/x", False),
        ("mailto:a@b.c", False),
        ("http://127.0.0.1:8000/", False),
    ],
)
def test_is_internal(url, internal):
    assert check_site.is_internal(url) is internal


@pytest.mark.parametrize(
    "page, url, target, fragment",
    [
        ("book/a.html", "b.html#sec-1", "book/b.html", "sec-1"),
        ("book/a.html", "../_static/x.js?v=3", "_static/x.js", ""),
        ("book/a.html", "#here", None, "here"),
        ("book/a.html", "./", "book/index.html", ""),
        ("index.html", "book/intro.html", "book/intro.html", ""),
        ("book/a.html", "/genindex.html", "genindex.html", ""),
        ("book/a.html", "../../outside.html", "../outside.html", ""),
        ("book/a.html", "c%20d.html#x%20y", "book/c d.html", "x y"),
    ],
)
def test_resolve(page, url, target, fragment):
    got_target, got_fragment = check_site.resolve(PurePosixPath(page), url)
    assert (None if got_target is None else str(got_target)) == target
    assert got_fragment == fragment


def test_unrendered_math_finds_tex_delimiters_only():
    assert check_site.unrendered_math("Recall is TP / (TP + FN), about 0.8.") == []
    assert check_site.unrendered_math("costs $5 and $6") == []
    found = check_site.unrendered_math(r"the score \(F_1\) and $$x$$ and \begin{align}")
    assert len(found) == 5  # \(  \)  $$  $$  \begin{
    assert any("F_1" in snippet for snippet in found)


def test_missing_alt():
    images = [
        {"src": "a.png", "alt": "A chart"},
        {"src": "b.png", "alt": " "},
        {"src": "c.png"},
        {"src": "d.svg", "role": "presentation"},
        {"src": "e.svg", "aria-hidden": "true"},
    ]
    assert check_site.missing_alt(images) == ["b.png", "c.png"]


def test_chapter_pages():
    assert check_site.is_chapter(PurePosixPath("book/01_confusion_matrix.html"))
    assert check_site.is_chapter(PurePosixPath("book/06b_calibration_uncertainty.html"))
    assert not check_site.is_chapter(PurePosixPath("book/intro.html"))
    assert not check_site.is_chapter(PurePosixPath("exercises/01_confusion_matrix.html"))
    assert check_site.is_chapter(PurePosixPath("zh/book/01_confusion_matrix.html"))


def _site(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_list_pages_skips_asset_folders(tmp_path):
    root = _site(
        tmp_path,
        {
            "index.html": "",
            "book/a.html": "",
            "_static/x.html": "",
            "_sources/book/a.html": "",
            "genindex.html": "",
        },
    )
    assert [str(p) for p in check_site.list_pages(root)] == [
        "book/a.html",
        "genindex.html",
        "index.html",
    ]


def test_check_links_reports_missing_files_and_fragments(tmp_path):
    root = _site(
        tmp_path,
        {
            "index.html": '<meta http-equiv="refresh" content="0; url=book/a.html">',
            "book/a.html": (
                '<a href="b.html#there">ok</a><a href="b.html#nowhere">bad id</a>'
                '<a href="missing.html">gone</a><img src="../_images/f.png" alt="x">'
                '<img src="../_images/none.png" alt="y"><a href="#self">self</a><p id="self"></p>'
                '<a href="https://example.org/">external</a><script src="../_static/j.js"></script>'
            ),
            "book/b.html": '<h2 id="there">b</h2>',
            "_images/f.png": "png",
            "_static/j.js": "",
        },
    )
    problems = check_site.check_links(root)
    assert len(problems) == 3, problems
    assert any("'b.html#nowhere'" in p and "'nowhere'" in p for p in problems)
    assert any("broken link 'missing.html'" in p for p in problems)
    assert any("broken resource '../_images/none.png'" in p for p in problems)


def test_check_links_clean_site(tmp_path):
    root = _site(
        tmp_path,
        {
            "index.html": '<a href="book/a.html#t">a</a>',
            "book/a.html": '<h1 id="t">A</h1><a href="../index.html">home</a>',
        },
    )
    assert check_site.check_links(root) == []


def test_main_refuses_a_folder_without_index(tmp_path, capsys):
    assert check_site.main([str(tmp_path), "--no-browser"]) == 1
    assert "no index.html" in capsys.readouterr().err


def test_main_static_only(tmp_path):
    root = _site(
        tmp_path,
        {"index.html": '<a href="book/01_x.html">a</a>', "book/01_x.html": "<p>chapter</p>"},
    )
    assert check_site.main([str(root), "--no-browser", "--dark-page", ""]) == 0


# --- missing glyphs (the pure judgement of the browser's glyph probe) -------------------------

TOFU = [24.0, 111, 300]  # signature of the font's missing-glyph box at 40 px


def _group(glyphs, widths=None, size=16.0):
    return {
        "font": "normal 400 40px test",
        "size": size,
        "tofu": TOFU,
        "glyphs": glyphs,
        "widths": widths or {},
    }


def test_missing_glyphs_passes_real_glyphs():
    # 术 is a 1 em CJK glyph (40 px at 40 px, 16 px on a 16 px page) and is as wide there.
    groups = [
        _group({"术": [40.0, 222, 499], "✅": [50.8, 333, 1468]}, {"术": [16.0], "✅": [20.31]})
    ]
    assert check_site.missing_glyphs(groups) == []


def test_missing_glyphs_fails_a_character_drawn_as_the_box():
    # Without a CJK font the canvas draws 术 exactly like the box for U+0378.
    problems = check_site.missing_glyphs([_group({"术": list(TOFU), "a": [24.5, 5, 278]})])
    assert len(problems) == 1 and "U+672F" in problems[0] and "no font" in problems[0]


def test_missing_glyphs_fails_a_character_without_ink():
    problems = check_site.missing_glyphs([_group({"语": [40.0, 0, 0]})])
    assert len(problems) == 1 and "U+8BED" in problems[0]


def test_missing_glyphs_fails_a_box_on_the_page_although_the_font_exists():
    # The canvas has the glyph (the font is loaded), but the page laid 术 out as a box:
    # 9.6 px = the box (24/40 em) at 16 px, not the 16 px glyph. Chromium does this to text
    # shaped before a web font named late in the stack had loaded.
    problems = check_site.missing_glyphs([_group({"术": [40.0, 222, 499]}, {"术": [16.0, 9.6]})])
    assert len(problems) == 1 and "shows as a missing-glyph box on the page" in problems[0]


def test_missing_glyphs_fails_half_width_punctuation():
    # The book sets text-spacing-trim: space-all, so a half-width "）" is a box, not a trim.
    problems = check_site.missing_glyphs([_group({"）": [40.0, 444, 120]}, {"）": [16.0, 9.6]})])
    assert len(problems) == 1 and "U+FF09" in problems[0]


def test_full_width_punctuation_is_not_trimmed():
    css = (ROOT / "book" / "_static" / "mltutor.css").read_text(encoding="utf-8")
    assert "text-spacing-trim: space-all" in css


def test_missing_glyphs_cannot_judge_widths_when_glyph_is_as_wide_as_the_box():
    assert check_site.missing_glyphs([_group({"→": [24.1, 9, 50]}, {"→": [9.6]})]) == []


def test_screenshot_pages_and_names():
    assert check_site.wants_screenshot(PurePosixPath("book/glossary.html"))
    assert check_site.wants_screenshot(PurePosixPath("book/intro.html"))
    assert check_site.wants_screenshot(PurePosixPath("exercises/01_confusion_matrix.html"))
    assert not check_site.wants_screenshot(PurePosixPath("book/api/metrics.html"))
    assert check_site.wants_screenshot(PurePosixPath("zh/book/glossary.html"))
    assert (
        check_site._shot_name(PurePosixPath("exercises/01_x.html"), "-dark")
        == "exercises-01_x-dark.png"
    )


# --- the shipped fonts (book/_ext/mltutor_fonts.py) ------------------------------------------

_fspec = importlib.util.spec_from_file_location(
    "mltutor_fonts", ROOT / "book" / "_ext" / "mltutor_fonts.py"
)
mltutor_fonts = importlib.util.module_from_spec(_fspec)
sys.modules["mltutor_fonts"] = mltutor_fonts
_fspec.loader.exec_module(mltutor_fonts)
NODE_MODULES = ROOT / "node_modules"


def test_unicode_range_round_trip():
    points = mltutor_fonts.parse_unicode_range("U+4e00-4e02, U+20,U+1F6?")
    assert points == {0x4E00, 0x4E01, 0x4E02, 0x20} | set(range(0x1F60, 0x1F70))
    assert (
        mltutor_fonts.format_unicode_range([0x4E02, 0x4E00, 0x4E01, 0x20, 0x2705])
        == "U+20,U+2705,U+4E00-4E02"
    )


def test_parse_faces_reads_woff_and_range():
    css = (
        "@font-face { font-family: 'X'; src: url(./files/x-0.woff2) format('woff2'), "
        "url(./files/x-0.woff) format('woff'); unicode-range: U+4e00-4e01; }\n"
        "@font-face { font-family: 'X'; src: url(./files/x-1.woff) format('woff'); }"
    )
    assert mltutor_fonts.parse_faces(css) == [("./files/x-0.woff", {0x4E00, 0x4E01})]


def test_characters_needing_fonts_are_cjk_and_pictographs_only():
    text = mltutor_fonts.page_text(
        "<html><head><title>术</title></head><body><script>var s = '表';</script>"
        "<h1>Glossary 术语表</h1><p>✅ passed &amp; “quoted” — α ≤ β → x\u200d\ufe0f 《书》</p>"
        "</body></html>"
    )
    assert mltutor_fonts.characters_needing_fonts([text]) == set("术语表✅《书》")


@pytest.mark.skipif(
    not (NODE_MODULES / "@fontsource" / "noto-sans-sc").is_dir(),
    reason="needs `npm ci` (the fontsource packages of package-lock.json)",
)
def test_build_fonts_ships_exactly_the_page_characters(tmp_path):
    from fontTools.ttLib import TTFont

    root = _site(
        tmp_path,
        {"index.html": "<p>Glossary 术语表 ✅ ❌ ⏳ — done</p>", "_static/x.html": "<p>忽略</p>"},
    )
    shipped, uncovered = mltutor_fonts.build_fonts(root, NODE_MODULES)
    assert uncovered == set()
    assert shipped == {"MLTutor Noto Sans SC": 3, "MLTutor Noto Emoji": 3}
    fonts = root / "_static" / "fonts"
    assert set(TTFont(fonts / "noto-sans-sc-subset.woff").getBestCmap()) >= {
        ord(c) for c in "术语表"
    }
    assert set(TTFont(fonts / "noto-emoji-subset.woff").getBestCmap()) >= {ord(c) for c in "✅❌⏳"}
    css = (root / "_static" / "mltutor-fonts.css").read_text(encoding="utf-8")
    assert "unicode-range: U+672F,U+8868,U+8BED;" in css
    assert "unicode-range: U+23F3,U+2705,U+274C;" in css
    assert (fonts / "LICENSE-noto-sans-sc-subset.txt").is_file()
