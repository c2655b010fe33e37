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


@pytest.mark.parametrize("url, internal", [
    ("b.html", True), ("../_static/x.js?v=1", True), ("#frag", True), ("/abs.html", True),
    ("https://cdn.jsdelivr.net/npm/x", False), ("//unpkg.com/x", False),
    ("mailto:a@b.c", False), ("http://127.0.0.1:8000/", False),
])
def test_is_internal(url, internal):
    assert check_site.is_internal(url) is internal


@pytest.mark.parametrize("page, url, target, fragment", [
    ("book/a.html", "b.html#sec-1", "book/b.html", "sec-1"),
    ("book/a.html", "../_static/x.js?v=3", "_static/x.js", ""),
    ("book/a.html", "#here", None, "here"),
    ("book/a.html", "./", "book/index.html", ""),
    ("index.html", "book/intro.html", "book/intro.html", ""),
    ("book/a.html", "/genindex.html", "genindex.html", ""),
    ("book/a.html", "../../outside.html", "../outside.html", ""),
    ("book/a.html", "c%20d.html#x%20y", "book/c d.html", "x y"),
])
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
    images = [{"src": "a.png", "alt": "A chart"}, {"src": "b.png", "alt": " "},
              {"src": "c.png"}, {"src": "d.svg", "role": "presentation"},
              {"src": "e.svg", "aria-hidden": "true"}]
    assert check_site.missing_alt(images) == ["b.png", "c.png"]


def test_chapter_pages():
    assert check_site.is_chapter(PurePosixPath("book/01_confusion_matrix.html"))
    assert check_site.is_chapter(PurePosixPath("book/06b_calibration_uncertainty.html"))
    assert not check_site.is_chapter(PurePosixPath("book/intro.html"))
    assert not check_site.is_chapter(PurePosixPath("exercises/01_confusion_matrix.html"))


def _site(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_list_pages_skips_asset_folders(tmp_path):
    root = _site(tmp_path, {"index.html": "", "book/a.html": "", "_static/x.html": "",
                            "_sources/book/a.html": "", "genindex.html": ""})
    assert [str(p) for p in check_site.list_pages(root)] == [
        "book/a.html", "genindex.html", "index.html"]


def test_check_links_reports_missing_files_and_fragments(tmp_path):
    root = _site(tmp_path, {
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
    })
    problems = check_site.check_links(root)
    assert len(problems) == 3, problems
    assert any("'b.html#nowhere'" in p and "'nowhere'" in p for p in problems)
    assert any("broken link 'missing.html'" in p for p in problems)
    assert any("broken resource '../_images/none.png'" in p for p in problems)


def test_check_links_clean_site(tmp_path):
    root = _site(tmp_path, {"index.html": '<a href="book/a.html#t">a</a>',
                            "book/a.html": '<h1 id="t">A</h1><a href="../index.html">home</a>'})
    assert check_site.check_links(root) == []


def test_main_refuses_a_folder_without_index(tmp_path, capsys):
    assert check_site.main([str(tmp_path), "--no-browser"]) == 1
    assert "no index.html" in capsys.readouterr().err


def test_main_static_only(tmp_path):
    root = _site(tmp_path, {"index.html": '<a href="book/01_x.html">a</a>',
                            "book/01_x.html": "<p>chapter</p>"})
    assert check_site.main([str(root), "--no-browser", "--dark-page", ""]) == 0
