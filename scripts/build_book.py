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
           {"language": "zh_CN", "html_title": "如实评估分类器与检测器",
            # Jupyter Book sets this theme string itself, so Sphinx's catalogs never see it.
            "html_theme_options": {"search_bar_text": "搜索本书……"}}),
    "gettext": ("gettext", "_build/gettext", "_build/.doctrees-gettext", {}),
}


def build(edition: str, out: Path | None = None, doctrees: Path | None = None,
          quiet: bool = False) -> int:
    """Run one Sphinx build through Jupyter Book's own entry point; return its exit status.

    ``out`` and ``doctrees`` replace the edition's folders (tests build the catalogs elsewhere).
    """
    from jupyter_book.sphinx import build_sphinx

    builder, default_out, default_doctrees, settings = EDITIONS[edition]
    overrides = {"external_toc_path": "_toc.yml", "latex_individualpages": False, **settings}
    result = build_sphinx(
        ROOT, out or ROOT / default_out, noconfig=True, path_config=str(ROOT / "_config.yml"),
        confoverrides=overrides, doctreedir=doctrees or ROOT / default_doctrees, builder=builder,
        force_all=True, freshenv=True, warningiserror=True, keep_going=True, quiet=quiet,
    )
    if isinstance(result, Exception):
        raise result
    return int(result)


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
        if edition != "gettext" and not status:
            print(f"The {edition} edition is at {ROOT / EDITIONS[edition][1] / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
