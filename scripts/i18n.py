"""The Chinese edition's message catalogs: update them, hand messages to translators, check them.

    python scripts/i18n.py update            # English changed: new .pot, merged into every .po
    python scripts/i18n.py export OUT.json   # untranslated or fuzzy messages, each once
    python scripts/i18n.py lint IN.json..    # check translations before importing them
    python scripts/i18n.py import IN.json..  # {"id": "译文"}: fills every catalog holding the id
    python scripts/i18n.py check             # every problem, one line each; exit 1 if any
    python scripts/i18n.py spacing OUT.json  # translations respaced to the convention, to import
    python scripts/i18n.py stats             # messages, translated, fuzzy, per catalog

One catalog per page (``locales/zh_CN/LC_MESSAGES/<page>.po``).  ``update`` marks a message fuzzy
when its English changed (``sphinx-intl``), and ``check`` (run by tests/test_translations.py) fails
on any untranslated or fuzzy message, so the English cannot move on without its Chinese.
``check`` also compares each translation's structure with its English: the same inline code,
maths, link targets and cross-reference targets, the same emphasis, the same numbers, and
the glossary's preferred terms (scripts/i18n_terms.py); the words inside ``\text{...}`` in maths
are translated (the rest of the maths is kept); and the spacing follows one convention
(:func:`spacing_problems`, CONTRIBUTING.md).
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
    return {
        name: polib.pofile(str(p), wrapwidth=0)
        for p in sorted(LOCALE.rglob("*.po"))
        if (name := str(p.relative_to(LOCALE).with_suffix(""))) != INTERFACE_CATALOG
    }


def _role_target(name: str, body: str) -> str:
    if name in TARGET_ROLES:
        m = re.search(r"<([^<>]+)>\s*$", body)
        return (
            (m.group(1) if m else body).strip().lower()
            if name.endswith("term")
            else (m.group(1) if m else body).strip()
        )
    return body


# ---------------------------------------------------------------------------------------------
# Maths: everything is kept except the words inside \text{...}, which are translated.
# ---------------------------------------------------------------------------------------------

#: Words inside ``\text{}`` that stay as they are: subscripts that name code (y_true, y_pred,
#: y_score, Y_test), abbreviations (p_interp, IoU_crowd, the continuity correction "corr", the
#: positive label "pos") and a distribution's name.  Upper-case abbreviations (BA, MCC, TPR) and
#: identifiers with ``\_`` (prob\_true) are kept without being listed.
MATH_TEXT_KEPT = {"interp", "crowd", "corr", "pos", "true", "pred", "score", "test", "Binomial"}


def _text_groups(tex: str) -> list[tuple[int, int, str]]:
    r"""The ``\text{...}`` groups of ``tex``: (start, end, content), braces matched."""
    groups = []
    for m in re.finditer(r"\\text\s*\{", tex):
        depth, i = 1, m.end()
        while i < len(tex) and depth:
            depth += {"{": 1, "}": -1}.get(tex[i], 0) if tex[i - 1] != "\\" else 0
            i += 1
        if not depth:
            groups.append((m.start(), i, tex[m.end() : i - 1]))
    return groups


def math_skeleton(tex: str) -> str:
    r"""The maths without its ``\text{}`` groups and spaces: what a translation must keep."""
    out, last = [], 0
    for start, end, _ in _text_groups(tex):
        out.append(tex[last:start])
        last = end
    out.append(tex[last:])
    return re.sub(r"\s+", "", "".join(out))


def _english_words(content: str) -> list[str]:
    r"""The English words of one ``\text{}`` content that a translation has to translate."""
    content = re.sub(r"\w*(\\_\w*)+|\\[A-Za-z]+", " ", content)
    return [
        w
        for w in re.findall(r"[A-Za-z]{3,}", content)
        if re.search(r"[a-z]", w) and w not in MATH_TEXT_KEPT
    ]


def math_texts(text: str, display: bool) -> list[str]:
    r"""The ``\text{}`` contents of a message's maths (``display``: the message is one block)."""
    if display:
        return [c for _, _, c in _text_groups(text)]
    found = []
    for pattern in (RST_ROLE, MYST_ROLE):
        for m in pattern.finditer(text):
            if m["name"] == "math":
                found += [c for _, _, c in _text_groups(m["body"])]
        text = pattern.sub(" ", text)
    for m in MATH.finditer(text):
        found += [c for _, _, c in _text_groups(m["d"] or m["body"])]
    return found


def has_math_words(msgid: str) -> bool:
    r"""A display-maths message with English words in ``\text{}``: it carries a translation."""
    return any(_english_words(c) for c in math_texts(msgid, display=True))


def math_text_problems(msgid: str, msgstr: str, display: bool) -> list[str]:
    r"""``\text{}`` words left in English, changed without being translated, or off-glossary."""
    problems = []
    if display and math_skeleton(msgid) != math_skeleton(msgstr):
        problems.append("the maths differ outside \\text{...}: keep everything but the words there")
    english, chinese = math_texts(msgid, display), math_texts(msgstr, display)
    for content in chinese:
        if content in english and _english_words(content):
            problems.append(
                f"English inside \\text{{{content}}}: translate the words "
                f"({', '.join(_english_words(content))})"
            )
        elif content not in english and not CJK.search(content):
            problems.append(f"\\text{{{content}}} is neither the English's nor a translation")
    if english or chinese:
        problems += [
            f"in \\text{{}}: {p}" for p in term_problems(" ".join(english), " ".join(chinese))
        ]
    return problems


def pieces(text: str) -> tuple[Counter, str]:
    """The pieces a translation must keep (a multiset) and the text left once they are cut out."""
    kept: Counter = Counter()

    def cut(pattern: re.Pattern, label, s: str) -> str:
        def one(m: re.Match) -> str:
            kept[label(m)] += 1
            return " "

        return pattern.sub(one, s)

    def role(m: re.Match) -> tuple:
        if m["name"] == "math":
            return ("math", math_skeleton(m["body"]))
        return ("role", m["name"], _role_target(m["name"], m["body"]))

    s = cut(RST_LINK, lambda m: ("url", m["url"]), text)
    s = cut(RST_ROLE, role, s)
    s = cut(MYST_ROLE, role, s)
    s = cut(RST_CODE, lambda m: ("code", m["body"]), s)
    s = cut(MD_CODE, lambda m: ("code", m["body"]), s)
    s = cut(MATH, lambda m: ("math", math_skeleton(m["d"] or m["body"])), s)
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
    return bool(
        re.search(r"[A-Za-z]{3,}|\b(?=[A-Za-z]*[a-z])[A-Za-z]{2}\b|(?i:\b[a-z]\.[a-z]\.)", rest)
    )


def _one_paragraph(text: str) -> bool:
    """Whether MyST reads ``text`` as a single paragraph: Sphinx drops a translation that parses
    as anything else (a list, a heading) without a warning."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    blocks = [
        t.type for t in MarkdownIt("commonmark").use(dollarmath_plugin).parse(text) if t.level == 0
    ]
    return (
        blocks == ["paragraph_open", "paragraph_close"]
        or blocks == ["math_block"]
        or blocks == ["math_block_label"]
    )


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
                sig[
                    (child.type, child.attrs.get("href", "") if child.type == "link_open" else "")
                ] += 1
    return sig


def glossary_terms() -> set[str]:
    """The English term lines of book/glossary.md: the glossary page keeps them as they are, because
    every ``{term}`` reference of both editions resolves against them (the Chinese line follows)."""
    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    terms = set()
    for block in re.findall(r"```\{glossary\}\n(.*?)\n```", text, re.S):
        terms.update(
            line.strip()
            for line in block.split("\n")
            if line.strip() and not line.startswith((" ", "\t")) and not CJK.search(line)
        )
    return terms


def is_list_paragraph(msgid: str) -> bool:
    """napoleon writes several return values as a bullet list inside one paragraph; Sphinx can put
    only a paragraph in its place, so such a message keeps its English (6 in the API pages)."""
    return msgid.startswith(("* ", "- "))


def kept_verbatim(page: str, msgid: str) -> bool:
    """Messages that are their own translation: maths and code with no English words (display
    maths whose ``\\text{}`` holds English is translated), napoleon's bullet-list paragraphs, and
    the glossary's English term lines."""
    return (
        (not is_prose(msgid) and not has_math_words(msgid))
        or is_list_paragraph(msgid)
        or (page == "book/glossary" and msgid in glossary_terms())
    )


# ---------------------------------------------------------------------------------------------
# Spacing (CONTRIBUTING.md, "The Chinese edition"): markup is invisible; the characters a reader
# sees on either side of a space decide.
#   1. no space between two Chinese characters, also where one of them is inside emphasis, a
#      link's text or a {term}'s display text;
#   2. no space next to full-width punctuation (，。、；：？！（）“”‘’《》——), on either side, also
#      between it and inline code, maths or a role;
#   3. one space between a Chinese character and a Latin letter, a digit, inline code, maths or
#      a role that shows code or a number.
# ---------------------------------------------------------------------------------------------

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
FULL_WIDTH_PUNCTUATION = "\u3000-\u303f\uff00-\uffef“”‘’—"
#: Roles that show code or a number (half-width); {cite}, {ref} without text and the like show
#: something else and take no side.
CODE_ROLES = {
    "func",
    "meth",
    "class",
    "mod",
    "attr",
    "data",
    "exc",
    "obj",
    "code",
    "kbd",
    "file",
    "samp",
    "math",
    "glue",
    "glue:text",
    "glue:any",
    "py:func",
    "py:class",
    "py:meth",
    "py:mod",
    "py:attr",
    "py:data",
    "py:obj",
}
_HALF, _NEUTRAL = "\x01", "\x02"  # stand-ins for an atom's visible ends
_ATOM = re.compile(
    r"(?P<role>\{(?P<name>[a-z:+-]+)\}`(?P<body>[^`]*)`)"
    r"|(?P<code>``.+?``|(?<!`)`[^`]+`(?!`))"
    r"|(?P<math>\$\$.+?\$\$|\$[^$\n]+?\$)"
    r"|(?P<link>!?\[(?P<text>[^\]]*)\]\([^)]*\))"
    r"|(?P<url><https?://[^>]+>|https?://[^\s)>\]，。；：）]+)"
    r"|(?P<tag></?[a-z][^>]*>)"
    r"|(?P<escape>\\[^A-Za-z0-9\s])"
    r"|(?P<stars>\*+)",
    re.S,
)


def _visible(text: str) -> list[tuple[int, str]]:
    """The characters a reader sees, each with its position in ``text``: markup delimiters are
    dropped, code, maths and code roles become one half-width stand-in at each end."""
    out: list[tuple[int, str]] = []
    pos = 0
    for m in _ATOM.finditer(text):
        out += [(i, text[i]) for i in range(pos, m.start())]
        pos = m.end()
        if m["role"]:
            name, body = m["name"], m["body"]
            shown = re.match(r"(?s)(.*?)\s*<[^<>]*>\s*$", body)
            if name in CODE_ROLES:
                out += [(m.start(), _HALF), (m.end() - 1, _HALF)]
            elif shown or name.endswith("term"):
                start = m.start("body")
                text_of = shown.group(1) if shown else body
                out += [(start + i, c) for i, c in enumerate(text_of)]
            else:
                out += [(m.start(), _NEUTRAL), (m.end() - 1, _NEUTRAL)]
        elif m["code"] or m["math"] or m["url"]:
            out += [(m.start(), _HALF), (m.end() - 1, _HALF)]
        elif m["tag"]:  # <sub>, <sup>: the text inside belongs to the character before
            out.append((m.start(), _NEUTRAL))
        elif m["link"]:
            start = m.start("text")
            out += [(start + i, c) for i, c in enumerate(m["text"])]
        elif m["escape"]:
            out.append((m.start() + 1, m["escape"][1]))
    out += [(i, text[i]) for i in range(pos, len(text))]
    return out


def _kind(c: str) -> str:
    if re.match(f"[{HAN}]", c):
        return "han"
    if re.match(f"[{FULL_WIDTH_PUNCTUATION}]", c):
        return "punct"
    if c == _HALF or re.match(r"[A-Za-z0-9]", c):
        return "half"
    return "other"


def _spacing_spots(text: str) -> list[tuple[str, str, int, int]]:
    """Where the spacing breaks the convention: (rule, action, start, end) in ``text``.  "drop":
    the space text[start:end] should go; "insert": a space belongs somewhere in text[start:end]
    (between the two visible characters, on either side of the markup between them)."""
    seen = _visible(text)
    spots = []
    k = 0
    while k < len(seen):
        i, c = seen[k]
        if c in " \t\n":
            j = k
            while j < len(seen) and seen[j][1] in " \t\n":
                j += 1
            if 0 < k and j < len(seen):
                left, right = _kind(seen[k - 1][1]), _kind(seen[j][1])
                if "punct" in (left, right):
                    spots.append(
                        ("a space next to full-width punctuation", "drop", i, seen[j - 1][0] + 1)
                    )
                elif left == right == "han":
                    spots.append(
                        ("a space between Chinese characters", "drop", i, seen[j - 1][0] + 1)
                    )
            k = j
            continue
        if k + 1 < len(seen) and seen[k + 1][1] not in " \t\n":
            if {_kind(c), _kind(seen[k + 1][1])} == {"han", "half"}:
                spots.append(
                    (
                        "no space between a Chinese character and Latin, a digit or code",
                        "insert",
                        i + 1,
                        seen[k + 1][0],
                    )
                )
        k += 1
    return spots


def _same_structure(a: str, b: str) -> bool:
    return _markdown_signature(a) == _markdown_signature(b) and pieces(a)[0] == pieces(b)[0]


def _respaced(text: str, action: str, a: int, b: int) -> str | None:
    """``text`` with one spot fixed without changing its markdown structure, or None when the
    markup needs the space as it is (``**{term}`x`**`` must be preceded by a space)."""
    if action == "drop":
        candidates = [text[:a] + text[b:]]
        m = re.search(f"([{FULL_WIDTH_PUNCTUATION}])(\\*+)$", text[:a])
        if m:  # "**标题。** 正文" -> "**标题**。正文": the bold may touch the Chinese then
            candidates.append(text[: m.start()] + m.group(2) + m.group(1) + text[b:])
    else:
        candidates = [text[:p] + " " + text[p:] for p in range(a, b + 1)]
    return next((c for c in candidates if _same_structure(c, text)), None)


def spacing_problems(msgstr: str) -> list[str]:
    """The convention's breaches in one translation, each with a little context.  A space that
    the markup needs (no fix keeps the emphasis and the kept pieces) is not one."""
    return [
        f"spacing: {rule}: {msgstr[max(0, a - 6) : b + 6]!r}"
        for rule, action, a, b in _spacing_spots(msgstr)
        if _respaced(msgstr, action, a, b) is not None
    ]


def fix_spacing(msgstr: str) -> str:
    """``msgstr`` respaced to the convention, one spot at a time, wherever the markup allows."""
    text = msgstr
    for _ in range(500):
        for _rule, action, a, b in _spacing_spots(text):
            fixed = _respaced(text, action, a, b)
            if fixed is not None:
                text = fixed
                break
        else:
            return text
    return text


def entry_problems(msgid: str, msgstr: str, page: str = "") -> list[str]:
    """Why ``msgstr`` is not an acceptable translation of ``msgid`` (empty list: it is)."""
    if not msgstr:
        return ["untranslated"]
    if page == "book/glossary" and msgid in glossary_terms():
        return [] if msgstr == msgid else ["a glossary term line: keep it exactly as the English"]
    if not is_prose(msgid) and has_math_words(msgid):
        return math_text_problems(msgid, msgstr, display=True)
    if not is_prose(msgid):
        return (
            []
            if msgstr == msgid
            else ["not prose (maths, code, numbers): keep it exactly as the English"]
        )
    if is_list_paragraph(msgid):
        return (
            []
            if msgstr == msgid
            else [
                "a bullet list inside a paragraph: Sphinx cannot use a "
                "translation here, keep it exactly as the English"
            ]
        )
    problems = []
    want, _ = pieces(msgid)
    got, _ = pieces(msgstr)
    if want != got:
        lost = want - got
        extra = got - want
        problems.append(
            f"kept pieces differ: missing {sorted(lost.elements())}, extra {sorted(extra.elements())}"
        )
    if not _one_paragraph(msgstr):
        problems.append(
            "the translation is not one paragraph in MyST, so Sphinx silently keeps "
            "the English: '1. ' at the start opens a list (write '1\\. '), so do "
            "'- ', '# ', '> ' and a blank line"
        )
    if RST_ROLE.search(msgstr) or re.search(r"`[^`]*<[^>]+>`_", msgstr):
        problems.append(
            "reST roles or links in the translation: every page is MyST, write "
            "{func}`f` for :func:`f` and [text](url) for `text <url>`_ "
            "(import converts them)"
        )
    english, chinese = _markdown_signature(rst_to_myst(msgid)), _markdown_signature(msgstr)
    if english != chinese:
        problems.append(
            f"markdown structure differs: {dict(english)} vs {dict(chinese)} "
            "(bold/italic next to punctuation needs a space; write “**词**”, "
            "not **“词”**)"
        )
    if not CJK.search(msgstr) and re.search(r"[A-Za-z]{3,}\s+[a-z]{3,}", pieces(msgid)[1]):
        problems.append("no Chinese in the translation")
    problems += term_problems(msgid, msgstr)
    problems += math_text_problems(msgid, msgstr, display=False)
    problems += spacing_problems(msgstr)
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
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx_intl",
            "update",
            "-p",
            str(POT),
            "-l",
            "zh_CN",
            "-d",
            str(ROOT / "locales"),
            "-w",
            "0",
        ],
        check=True,
    )
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
            item = wanted.setdefault(
                message_id(e.msgid), {"id": message_id(e.msgid), "en": e.msgid, "pages": []}
            )
            item["pages"].append(name)
            if "fuzzy" in e.flags and e.msgstr:
                item["old_zh"] = e.msgstr
                item["old_en"] = e.previous_msgid or ""
            if args.all and e.msgstr:
                item["zh"] = e.msgstr
    Path(args.out).write_text(
        json.dumps(list(wanted.values()), ensure_ascii=False, indent=1), encoding="utf-8"
    )
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
    english = {message_id(e.msgid): e.msgid for po in catalogs().values() for e in po}
    # Display maths is no MyST paragraph: its "\ " is LaTeX's space, not reST's escape.
    table = {
        key: rst_to_myst(zh) if key not in english or is_prose(english[key]) else zh
        for key, zh in read_tables(args.files).items()
    }
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
    raw = read_tables(args.files)
    table = {key: rst_to_myst(zh) for key, zh in raw.items()}
    used, problems = set(), 0
    lock = _catalog_lock()  # noqa: F841 (several translators may import at once: one at a time)
    for name, po in catalogs().items():
        changed = False
        for e in po:
            key = message_id(e.msgid)
            if key in table and kept_verbatim(name, e.msgid) and is_prose(e.msgid):
                continue  # a glossary term line stays English on the glossary page
            if key in table:
                value = table[key] if is_prose(e.msgid) else raw[key]  # maths: no reST in it
                for p in entry_problems(e.msgid, value, name):
                    if p != "untranslated":
                        print(f"{key} ({name}): {p}")
                        problems += 1
                e.msgstr = value
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


MYTH_BOX = re.compile(
    r"\((?P<label>myth-[\w-]+)\)=\s*\n`{3,}\{admonition\} "
    r"Myth: \"(?P<title>.+?)\""
)
MYTHS_PAGE = "book/myths"


def myth_boxes() -> dict[str, str]:
    """The English title of every myth box, by the label in front of it (chapters and pages)."""
    import json

    boxes = {}
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        boxes.update((m["label"], m["title"]) for m in MYTH_BOX.finditer(text))
    for path in sorted((ROOT / "book").glob("*.md")):
        boxes.update((m["label"], m["title"]) for m in MYTH_BOX.finditer(path.read_text("utf-8")))
    return boxes


def myth_title_problems(cats: dict[str, polib.POFile] | None = None) -> list[str]:
    """The Myths index quotes each box's title; where the English quotes are the same, the Chinese
    must be too (a reader who follows the link lands on a box with the title they clicked)."""
    cats = cats if cats is not None else catalogs()
    if MYTHS_PAGE not in cats:
        return []
    boxes = myth_boxes()
    box_zh = {
        e.msgid: e.msgstr
        for po in cats.values()
        for e in po
        if not e.obsolete and e.msgid.startswith('Myth: "')
    }
    out = []
    for e in cats[MYTHS_PAGE]:
        title = re.match(r'\*\*"(.+?)"\*\*', e.msgid)
        label = re.search(r"<(myth-[\w-]+)>", e.msgid)
        if e.obsolete or not title or not label or label[1] not in boxes:
            continue
        english = boxes[label[1]]
        if english.casefold() != title[1].casefold() or not e.msgstr or "fuzzy" in e.flags:
            continue  # different English (or not translated yet): nothing to compare
        box = box_zh.get(f'Myth: "{english}"', "")
        index_title = re.match(r"\*\*“(.+?)”\*\*", e.msgstr)
        box_title = re.match(r"误区：“(.+)”$", box)
        if not index_title or not box_title:
            out.append(
                f"{MYTHS_PAGE} {message_id(e.msgid)}: myth title: write the index entry as "
                f"**“标题”** and the box as 误区：“标题”"
            )
        elif index_title[1] != box_title[1]:
            out.append(
                f"{MYTHS_PAGE} {message_id(e.msgid)}: myth title differs from its box "
                f"({label[1]}): “{index_title[1]}” here, “{box_title[1]}” in the box"
            )
    return out


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
    if not pages or any(MYTHS_PAGE.startswith(p) or p.startswith(MYTHS_PAGE) for p in pages):
        out += myth_title_problems()
    return out


def cmd_spacing(args) -> int:
    """Write ``{id: translation}`` for every translation whose spacing breaks the convention,
    respaced (``import`` takes the file); list those that need a hand."""
    # ``out`` is written, never read: contributors who named their own translations file here
    # lost it, so an existing file is kept.
    if Path(args.out).exists():
        raise SystemExit(f"spacing writes a new file; {args.out} exists (choose another name)")
    fixed: dict[str, str] = {}
    by_hand = []
    for name, po in catalogs().items():
        if args.pages and not any(name.startswith(p) for p in args.pages):
            continue
        for e in po:
            if (
                e.obsolete
                or not e.msgstr
                or "fuzzy" in e.flags
                or kept_verbatim(name, e.msgid)
                or not spacing_problems(e.msgstr)
            ):
                continue
            new = fix_spacing(e.msgstr)
            if spacing_problems(new):
                by_hand.append(f"{name} {message_id(e.msgid)}: {spacing_problems(new)[0]}")
            if new != e.msgstr:
                fixed[message_id(e.msgid)] = new
    Path(args.out).write_text(json.dumps(fixed, ensure_ascii=False, indent=1), encoding="utf-8")
    for line in by_hand:
        print(line)
    print(f"{len(fixed)} translations respaced -> {args.out}; {len(by_hand)} need a hand")
    return 0


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
    p = sub.add_parser("spacing")
    p.add_argument("out", help="a new .json file (the respaced translations, for import)")
    p.add_argument("--pages", nargs="*")
    p.set_defaults(func=cmd_spacing)
    sub.add_parser("stats").set_defaults(func=cmd_stats)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
