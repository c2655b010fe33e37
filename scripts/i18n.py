"""The Chinese edition's message catalogs: update them, hand messages to translators, check them.

    python scripts/i18n.py update            # English changed: new .pot, merged into every .po
    python scripts/i18n.py export OUT.json   # untranslated or fuzzy messages, each once
    python scripts/i18n.py lint IN.json..    # check translations before importing them
    python scripts/i18n.py import IN.json..  # {"id": "译文"}: fills every catalog holding the id
    python scripts/i18n.py check             # every problem, one line each; exit 1 if any
    python scripts/i18n.py stats             # messages, translated, fuzzy, per catalog

One catalog per page (``locales/zh_CN/LC_MESSAGES/<page>.po``).  ``update`` marks a message fuzzy
when its English changed (``sphinx-intl``), and ``check`` (run by tests/test_translations.py) fails
on any untranslated or fuzzy message, so the English cannot move on without its Chinese.
``check`` also compares each translation's structure with its English: the same inline code,
maths, link targets and cross-reference targets, the same emphasis, the same numbers, and
the glossary's preferred terms (scripts/i18n_terms.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locales" / "zh_CN" / "LC_MESSAGES"
POT = ROOT / "_build" / "gettext"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from i18n_terms import term_problems  # noqa: E402

# Inline pieces that a translation keeps exactly.  Order matters: roles before plain code.
RST_ROLE = re.compile(r":(?P<name>[a-z:+-]+):`(?P<body>[^`]*)`")
MYST_ROLE = re.compile(r"\{(?P<name>[a-z:+-]+)\}`(?P<body>[^`]*)`")
RST_CODE = re.compile(r"``(?P<body>.+?)``")
MD_CODE = re.compile(r"(?<!`)`(?P<body>[^`]+)`(?!`)")
MATH = re.compile(r"\$\$(?P<d>.+?)\$\$|\$(?P<body>[^$\n]+?)\$", re.S)
URL = re.compile(r"https?://[^\s)>\]]+")
RST_LINK = re.compile(r"`(?P<label>[^`<]*?)\s*<(?P<url>[^<>`]+)>`__?")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# Roles whose display text may be translated: only the target (``text <target>``) must stay.
TARGET_ROLES = {"term", "doc", "ref", "numref", "std:term", "cite:p", "cite:t", "eq"}


def rst_to_myst(text: str) -> str:
    r"""reST inline markup of a docstring message written as MyST, the parser Sphinx uses for it.

    Sphinx parses each translated message with its *page's* parser, and every page here is MyST
    (``.md`` or a notebook) — also the API pages, whose English comes from reST docstrings through
    ``{eval-rst}``.  So ``:func:`f``` must become ``{func}`f```, a reST link (``text <url>`` in
    backquotes with a trailing underscore) a Markdown link, and a closing ``::`` (reST's "a
    literal block follows") a plain colon.  ````code```` and ``*emphasis*`` read the same in both.
    """
    text = re.sub(r":(?P<name>[a-z][a-z:+-]*):`(?P<body>[^`]*)`", r"{\g<name>}`\g<body>`", text)
    text = re.sub(r"`(?P<label>[^`<]*?)\s*<(?P<url>[^<>`]+)>`__?", r"[\g<label>](\g<url>)", text)
    text = re.sub(r"\\ ", "", text)
    if text.rstrip().endswith("::"):
        stripped = text.rstrip()[:-2].rstrip()
        text = stripped + ("：" if CJK.search(stripped[-1:] or " ") else ":")
    return text


def message_id(msgid: str) -> str:
    """A short, stable name for one English message (the same in every catalog)."""
    return hashlib.sha1(msgid.encode("utf-8")).hexdigest()[:10]


#: Not a page: the interface strings of Sphinx and the theme (Sphinx's own "sphinx" domain).
INTERFACE_CATALOG = "sphinx"


def catalogs() -> dict[str, polib.POFile]:
    """The page catalogs, by page name (``book/01_confusion_matrix``)."""
    return {name: polib.pofile(str(p), wrapwidth=0) for p in sorted(LOCALE.rglob("*.po"))
            if (name := str(p.relative_to(LOCALE).with_suffix(""))) != INTERFACE_CATALOG}


def _role_target(name: str, body: str) -> str:
    if name in TARGET_ROLES:
        m = re.search(r"<([^<>]+)>\s*$", body)
        return (m.group(1) if m else body).strip().lower() if name.endswith("term") else \
            (m.group(1) if m else body).strip()
    return body


def pieces(text: str) -> tuple[Counter, str]:
    """The pieces a translation must keep (a multiset) and the text left once they are cut out."""
    kept: Counter = Counter()

    def cut(pattern: re.Pattern, label, s: str) -> str:
        def one(m: re.Match) -> str:
            kept[label(m)] += 1
            return " "
        return pattern.sub(one, s)

    s = cut(RST_LINK, lambda m: ("url", m["url"]), text)
    s = cut(RST_ROLE, lambda m: ("role", m["name"], _role_target(m["name"], m["body"])), s)
    s = cut(MYST_ROLE, lambda m: ("role", m["name"], _role_target(m["name"], m["body"])), s)
    s = cut(RST_CODE, lambda m: ("code", m["body"]), s)
    s = cut(MD_CODE, lambda m: ("code", m["body"]), s)
    s = cut(MATH, lambda m: ("math", m["d"] or m["body"]), s)
    s = cut(URL, lambda m: ("url", m.group(0)), s)
    for n in NUMBER.findall(s):
        kept[("number", n.replace(",", ""))] += 1
    return kept, s


def is_prose(msgid: str) -> bool:
    """False for messages with no English words outside code, maths and links (kept as they are)."""
    if msgid.startswith("\n"):
        return False
    rest = pieces(msgid)[1]
    if re.search(r"\\[a-zA-Z#{}]|[_^]\{", rest):
        return False  # raw LaTeX outside $...$: a display-maths block
    # A word: three letters, or two with a lower-case one ("As in", "e.g."); not "TN", "AP50".
    return bool(re.search(r"[A-Za-z]{3,}|\b(?=[A-Za-z]*[a-z])[A-Za-z]{2}\b|(?i:\b[a-z]\.[a-z]\.)", rest))


def _one_paragraph(text: str) -> bool:
    """Whether MyST reads ``text`` as a single paragraph: Sphinx drops a translation that parses
    as anything else (a list, a heading) without a warning."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    blocks = [t.type for t in MarkdownIt("commonmark").use(dollarmath_plugin).parse(text)
              if t.level == 0]
    return blocks == ["paragraph_open", "paragraph_close"] or blocks == ["math_block"] or \
        blocks == ["math_block_label"]


def _markdown_signature(text: str) -> Counter:
    """Emphasis, links and code as markdown-it (MyST's parser) reads them: a CJK character next to
    ``**`` can silently turn bold into literal asterisks."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").use(dollarmath_plugin)
    sig: Counter = Counter()
    for tok in md.parseInline(text):
        for child in tok.children or []:
            if child.type in {"strong_open", "em_open", "code_inline", "math_inline", "link_open"}:
                sig[(child.type, child.attrs.get("href", "") if child.type == "link_open" else "")] += 1
    return sig


def glossary_terms() -> set[str]:
    """The English term lines of book/glossary.md: the glossary page keeps them as they are, because
    every ``{term}`` reference of both editions resolves against them (the Chinese line follows)."""
    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    terms = set()
    for block in re.findall(r"```\{glossary\}\n(.*?)\n```", text, re.S):
        terms.update(line.strip() for line in block.split("\n")
                     if line.strip() and not line.startswith((" ", "\t")) and not CJK.search(line))
    return terms


def is_list_paragraph(msgid: str) -> bool:
    """napoleon writes several return values as a bullet list inside one paragraph; Sphinx can put
    only a paragraph in its place, so such a message keeps its English (6 in the API pages)."""
    return msgid.startswith(("* ", "- "))


def kept_verbatim(page: str, msgid: str) -> bool:
    return not is_prose(msgid) or is_list_paragraph(msgid) or \
        (page == "book/glossary" and msgid in glossary_terms())


def entry_problems(msgid: str, msgstr: str, page: str = "") -> list[str]:
    """Why ``msgstr`` is not an acceptable translation of ``msgid`` (empty list: it is)."""
    if not msgstr:
        return ["untranslated"]
    if page == "book/glossary" and msgid in glossary_terms():
        return [] if msgstr == msgid else ["a glossary term line: keep it exactly as the English"]
    if not is_prose(msgid):
        return [] if msgstr == msgid else ["not prose (maths, code, numbers): keep it exactly as the English"]
    if is_list_paragraph(msgid):
        return [] if msgstr == msgid else ["a bullet list inside a paragraph: Sphinx cannot use a "
                                           "translation here, keep it exactly as the English"]
    problems = []
    want, _ = pieces(msgid)
    got, _ = pieces(msgstr)
    if want != got:
        lost = want - got
        extra = got - want
        problems.append(f"kept pieces differ: missing {sorted(lost.elements())}, extra {sorted(extra.elements())}")
    if not _one_paragraph(msgstr):
        problems.append("the translation is not one paragraph in MyST, so Sphinx silently keeps "
                        "the English: '1. ' at the start opens a list (write '1\\. '), so do "
                        "'- ', '# ', '> ' and a blank line")
    if RST_ROLE.search(msgstr) or re.search(r"`[^`]*<[^>]+>`_", msgstr):
        problems.append("reST roles or links in the translation: every page is MyST, write "
                        "{func}`f` for :func:`f` and [text](url) for `text <url>`_ "
                        "(import converts them)")
    english, chinese = _markdown_signature(rst_to_myst(msgid)), _markdown_signature(msgstr)
    if english != chinese:
        problems.append(f"markdown structure differs: {dict(english)} vs {dict(chinese)} "
                        "(bold/italic next to punctuation needs a space)")
    if not CJK.search(msgstr) and re.search(r"[A-Za-z]{3,}\s+[a-z]{3,}", pieces(msgid)[1]):
        problems.append("no Chinese in the translation")
    problems += term_problems(msgid, msgstr)
    return problems


def _catalog_lock():
    """One writer of the catalogs at a time: ``update`` and ``import`` may run from several shells."""
    import fcntl

    lock = open(LOCALE.parent / ".import.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def cmd_update(_args) -> int:
    lock = _catalog_lock()  # noqa: F841 (held until the function returns)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_book.py"), "gettext"], check=True)
    # sphinx.pot holds the strings of our templates; sphinx.po is kept by hand (it also holds
    # Sphinx's and the theme's strings that no template here names), so it is not merged.
    (POT / f"{INTERFACE_CATALOG}.pot").unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "sphinx_intl", "update", "-p", str(POT), "-l", "zh_CN",
                    "-d", str(ROOT / "locales"), "-w", "0"], check=True)
    # Pages removed from the book: their catalogs go too.
    pots = {str(p.relative_to(POT).with_suffix("")) for p in POT.rglob("*.pot")}
    for name in catalogs():
        if name not in pots:
            (LOCALE / f"{name}.po").unlink()
            print("removed", name)
    return cmd_fill_kept(_args)


def cmd_fill_kept(_args) -> int:
    """Messages that are not prose (display maths, code-only cells) are their own translation."""
    for name, po in catalogs().items():
        changed = False
        for e in po:
            if kept_verbatim(name, e.msgid) and e.msgstr != e.msgid:
                e.msgstr = e.msgid
                if "fuzzy" in e.flags:
                    e.flags.remove("fuzzy")
                changed = True
        if changed:
            po.save()
    return 0


def cmd_export(args) -> int:
    wanted: dict[str, dict] = {}
    for name, po in catalogs().items():
        if args.pages and not any(name.startswith(p) for p in args.pages):
            continue
        for e in po:
            if e.obsolete or (e.msgstr and "fuzzy" not in e.flags and not args.all):
                continue
            item = wanted.setdefault(message_id(e.msgid), {"id": message_id(e.msgid), "en": e.msgid,
                                                            "pages": []})
            item["pages"].append(name)
            if "fuzzy" in e.flags and e.msgstr:
                item["old_zh"] = e.msgstr
                item["old_en"] = e.previous_msgid or ""
            if args.all and e.msgstr:
                item["zh"] = e.msgstr
    Path(args.out).write_text(json.dumps(list(wanted.values()), ensure_ascii=False, indent=1),
                              encoding="utf-8")
    print(f"{len(wanted)} messages -> {args.out}")
    return 0


def read_tables(files) -> dict[str, str]:
    table: dict[str, str] = {}
    for path in files:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise SystemExit(f"{path}: expected a JSON object {{message id: translation}}")
        table.update(data)
    return table


def cmd_lint(args) -> int:
    """Check translations in JSON files against their English, without touching any catalog."""
    table = {key: rst_to_myst(zh) for key, zh in read_tables(args.files).items()}
    english = {message_id(e.msgid): e.msgid for po in catalogs().values() for e in po}
    problems = 0
    for key, zh in table.items():
        if key not in english:
            print(f"{key}: no catalog has this message id")
            problems += 1
            continue
        for p in entry_problems(english[key], zh):
            print(f"{key}: {p}")
            problems += 1
    print(f"{len(table)} translations, {problems} problems")
    return 1 if problems else 0


def cmd_import(args) -> int:
    table = {key: rst_to_myst(zh) for key, zh in read_tables(args.files).items()}
    used, problems = set(), 0
    lock = _catalog_lock()  # noqa: F841 (several translators may import at once: one at a time)
    for name, po in catalogs().items():
        changed = False
        for e in po:
            key = message_id(e.msgid)
            if key in table and kept_verbatim(name, e.msgid) and is_prose(e.msgid):
                continue  # a glossary term line stays English on the glossary page
            if key in table:
                for p in entry_problems(e.msgid, table[key], name):
                    if p != "untranslated":
                        print(f"{key} ({name}): {p}")
                        problems += 1
                e.msgstr = table[key]
                if "fuzzy" in e.flags:
                    e.flags.remove("fuzzy")
                e.previous_msgid = None
                used.add(key)
                changed = True
        if changed:
            po.save()
    for key in sorted(set(table) - used):
        print(f"{key}: no catalog has this message")
    print(f"imported {len(used)} messages, {problems} problems")
    return 0


def all_problems(pages=None) -> list[str]:
    out = []
    for name, po in catalogs().items():
        if pages and not any(name.startswith(p) for p in pages):
            continue
        for e in po:
            if e.obsolete:
                continue
            where = f"{name} {message_id(e.msgid)}"
            if "fuzzy" in e.flags:
                out.append(f"{where}: fuzzy (the English changed since it was translated)")
                continue
            out += [f"{where}: {p}" for p in entry_problems(e.msgid, e.msgstr, name)]
    return out


def cmd_check(args) -> int:
    problems = all_problems(args.pages)
    for p in problems:
        print(p)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


def cmd_stats(_args) -> int:
    total = done = fuzzy = 0
    for name, po in catalogs().items():
        n = len([e for e in po if not e.obsolete])
        t = len(po.translated_entries())
        f = len([e for e in po if "fuzzy" in e.flags and not e.obsolete])
        total, done, fuzzy = total + n, done + t, fuzzy + f
        print(f"{name:45s} {t:5d}/{n:<5d} fuzzy {f}")
    print(f"{'all':45s} {done:5d}/{total:<5d} fuzzy {fuzzy}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update").set_defaults(func=cmd_update)
    sub.add_parser("fill-kept").set_defaults(func=cmd_fill_kept)
    p = sub.add_parser("export")
    p.add_argument("out")
    p.add_argument("--pages", nargs="*", help="page-name prefixes, e.g. book/01 api/")
    p.add_argument("--all", action="store_true", help="translated messages too")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("import")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_import)
    p = sub.add_parser("lint")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_lint)
    p = sub.add_parser("check")
    p.add_argument("--pages", nargs="*")
    p.set_defaults(func=cmd_check)
    sub.add_parser("stats").set_defaults(func=cmd_stats)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
