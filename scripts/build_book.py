"""Build the book: the English edition, the Chinese edition, or the message catalogs.

    python scripts/build_book.py en       # _build/html/        (English, the source text)
    python scripts/build_book.py zh       # _build/html/zh/     (Chinese, from locales/zh_CN)
    python scripts/build_book.py gettext  # _build/gettext/     (the .pot templates, one per page)

All three read the same notebooks, pages, ``_config.yml`` and ``_toc.yml``; the Chinese edition only
adds ``language = zh_CN``, which makes Sphinx replace every prose message by its translation in
``locales/zh_CN/LC_MESSAGES/<page>.po`` and the theme print its own interface strings in Chinese.
Each build keeps its own doctree folder (Sphinx refuses to share one between builders and
languages). Warnings are errors; every page is rebuilt (``--all -W --keep-going`` of the CLI).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: edition -> (Sphinx builder, output folder, doctree folder, extra Sphinx settings)
EDITIONS = {
    "en": ("html", "_build/html", "_build/.doctrees", {}),
    "zh": ("html", "_build/html/zh", "_build/.doctrees-zh",
           {"language": "zh_CN", "html_title": "如实评估分类器与检测器", "author": "mltutor 作者团队",
            # Jupyter Book sets this theme string itself, so Sphinx's catalogs never see it.
            "html_theme_options": {"search_bar_text": "搜索本书……"},
            # sphinx-togglebutton ships these in a zh-cn folder that language zh_CN never finds.
            "togglebutton_hint": "点击显示", "togglebutton_hint_hide": "点击隐藏"}),
    # The catalogs need no web assets (make book stages them; a fresh clone has none yet).
    "gettext": ("gettext", "_build/gettext", "_build/.doctrees-gettext",
                {"html_static_path": ["book/_static"]}),
}


LOCALE = ROOT / "locales" / "zh_CN" / "LC_MESSAGES"


def translated_toc() -> Path:
    """``_toc.yml`` with its captions and titles in Chinese, for the Chinese edition.

    sphinx-external-toc inserts the table of contents after Sphinx has applied the catalogs, so
    its explicit titles (which equal the pages' own titles, tests/test_page_titles.py) and part
    captions (messages of the root page) are looked up in the catalogs here.  A missing or fuzzy
    translation stops the build.
    """
    import polib
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    catalogs: dict[str, polib.POFile] = {}

    def chinese(page: str, english: str) -> str:
        po = catalogs.setdefault(page, polib.pofile(str(LOCALE / f"{page}.po")))
        entry = po.find(english)
        if entry is None or not entry.msgstr or "fuzzy" in entry.flags:
            raise SystemExit(f"_toc.yml: {english!r} has no translation in {page}.po "
                             "(make gettext, then translate it)")
        return entry.msgstr.replace("\\.", ".", 1)  # "1\\. 混淆矩阵": escaped for MyST, not here

    def walk(entries: list[dict]) -> None:
        for entry in entries:
            if "title" in entry:
                entry["title"] = chinese(entry["file"], entry["title"])
            walk(entry.get("sections", []))

    for part in toc.get("parts", []):
        if "caption" in part:
            part["caption"] = chinese(toc["root"], part["caption"])
        walk(part.get("chapters", []))
    out = ROOT / "_build" / "_toc.zh_CN.yml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(toc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def glossary_dictionary() -> Path:
    """A jieba user dictionary of the glossary's Chinese terms (one "word frequency" per line)."""
    import re

    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    terms = sorted({line.strip() for block in re.findall(r"```\{glossary\}\n(.*?)\n```", text, re.S)
                    for line in block.split("\n")
                    if line.strip() and not line.startswith((" ", "\t"))
                    and re.search(r"[\u4e00-\u9fff]", line) and " " not in line.strip()})
    out = ROOT / "_build" / "jieba_glossary.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{term} 100000\n" for term in terms), encoding="utf-8")
    return out


def build(edition: str, out: Path | None = None, doctrees: Path | None = None,
          quiet: bool = False) -> int:
    """Run one Sphinx build through Jupyter Book's own entry point; return its exit status.

    ``out`` and ``doctrees`` replace the edition's folders (tests build the catalogs elsewhere).
    """
    from jupyter_book.sphinx import build_sphinx

    builder, default_out, default_doctrees, settings = EDITIONS[edition]
    toc = translated_toc().as_posix() if edition == "zh" else "_toc.yml"
    overrides = {"external_toc_path": toc, "latex_individualpages": False, **settings}
    if edition == "zh":
        # Sphinx indexes Chinese text for search only through jieba's word segmentation; the
        # glossary's terms are added to its dictionary so that 精确率 is one word, not 精确 + 率.
        overrides["html_search_options"] = {"dict": str(glossary_dictionary())}
    result = build_sphinx(
        ROOT, out or ROOT / default_out, noconfig=True, path_config=str(ROOT / "_config.yml"),
        confoverrides=overrides, doctreedir=doctrees or ROOT / default_doctrees, builder=builder,
        force_all=True, freshenv=True, warningiserror=True, keep_going=True, quiet=quiet,
    )
    if isinstance(result, Exception):
        raise result
    return int(result)


def dropped_translations(doctrees: Path) -> list[str]:
    """Messages whose translation the Chinese build did not use.

    Sphinx keeps the English, without a warning, when a translation does not parse into the same
    kind of node (MyST reads "1. 标题" as a list); every prose node of the Chinese doctrees must
    therefore be marked translated unless its catalog keeps the English on purpose.
    """
    import pickle

    import polib
    from sphinx.util.nodes import extract_messages

    problems = []
    for path in sorted(doctrees.rglob("*.doctree")):
        page = path.relative_to(doctrees).with_suffix("").as_posix()
        catalog = LOCALE / f"{page}.po"
        if not catalog.is_file():
            continue
        table = {e.msgid: e.msgstr for e in polib.pofile(str(catalog)) if not e.obsolete}
        doctree = pickle.loads(path.read_bytes())
        for node, message in extract_messages(doctree):
            wanted = table.get(message)
            if not node.get("translated") and wanted and wanted != message:
                problems.append(f"{page}: translation not used: {message[:70]!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("editions", nargs="+", choices=sorted(EDITIONS))
    parser.add_argument("--out", type=Path, help="output folder (one edition only)")
    parser.add_argument("--doctrees", type=Path, help="doctree folder (one edition only)")
    parser.add_argument("--quiet", action="store_true", help="warnings only")
    args = parser.parse_args(argv)
    if (args.out or args.doctrees) and len(args.editions) > 1:
        parser.error("--out and --doctrees need exactly one edition")
    status = 0
    for edition in args.editions:
        status = build(edition, args.out, args.doctrees, args.quiet) or status
        if edition == "zh" and not status:
            dropped = dropped_translations(args.doctrees or ROOT / EDITIONS["zh"][2])
            for problem in dropped:
                print(problem, file=sys.stderr)
            if dropped:
                print(f"{len(dropped)} translations were not used (see above)", file=sys.stderr)
                status = 1
        if edition != "gettext" and not status:
            print(f"The {edition} edition is at {ROOT / EDITIONS[edition][1] / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
