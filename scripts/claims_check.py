#!/usr/bin/env python
"""Prose numbers and general claims: every one accounted for, page by page.

Two checks over the prose of every page of the book (chapter notebooks' markdown cells, the
solutions notebooks — the exercise pages are generated from them —, and the ``book/*.md`` pages):

* **numbers** — a number in the prose that a computation produced must be printed by the same
  notebook (an output), be one of its inputs (a code cell's source), be glued (``{glue:text}``),
  come from the literature (its paragraph cites, ``{cite}``), or be listed in the page's ledger
  under ``numbers:`` with the reason.  So a typed number cannot drift from the output it reports.
* **words** — every universal word (``always``, ``never``, ``only``, ``cannot``, ``must``,
  ``guarantees``, ``every``, ``exactly`` …) sits inside a ledger entry: a *claim* (kept, with its
  proof: a ``{ref}`` to the executed cell, a link, or a citation; listed on the claims page) or
  *plain* usage ("the only argument", an instruction).  A new "always" fails until it is proven,
  cited or reworded.

The ledgers are ``book/_claims/<page>.yml`` (``<page>`` is the stem of a ``book/`` page, or
``solutions_<stem>`` for a solutions notebook).  ``tests/test_prose_numbers.py`` and
``tests/test_claims.py`` run both checks; this script prints what is unaccounted for:

    python scripts/claims_check.py numbers [PAGE ...]   # unmatched prose numbers
    python scripts/claims_check.py words [PAGE ...]     # universal words outside the ledger
    python scripts/claims_check.py ledger [PAGE ...]    # stale or malformed ledger entries
    python scripts/claims_check.py page                 # write book/claims.md from the ledgers
    python scripts/claims_check.py page --check         # exit 1 if book/claims.md is stale
    python scripts/claims_check.py zh OUT.json          # the claims page's Chinese, for i18n.py import

Without PAGE, every page.  Exit status 1 when anything is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
LEDGERS = ROOT / "book" / "_claims"
CLAIMS_PAGE = ROOT / "book" / "claims.md"
#: Pages that are not prose of ours: the generated claims page itself and the bibliography.
SKIPPED_PAGES = {"book/claims.md", "book/bibliography.md"}
#: Pages whose numbers a script writes from a run rather than a cell of the page.
NUMBERS_FROM_SCRIPTS = {
    "book/parity.md": "scripts/make_parity_page.py writes its counts from the test suite's "
    "counters (tests/test_parity_page.py checks the rows)",
}

#: The universal words.  A match is case-insensitive and whole-word.
#: A hyphenated compound ("read-only", "sort-only") is a name, not a claim.
UNIVERSAL = re.compile(
    r"(?<![\w-])(?:always|never|only|cannot|can't|can\s+not|must|guarantee[sd]?|guaranteeing|"
    r"every|everywhere|exactly|impossible)(?![\w-])",
    re.IGNORECASE,
)

# Pieces of Markdown that are not prose: replaced by spaces of the same length (newlines kept),
# so positions in the masked text are positions in the source.
_FENCE = re.compile(
    r"^(?P<fence>```+|~~~+)(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S
)
#: Directives whose body is prose (admonitions and the like); any other fenced block is code.
PROSE_DIRECTIVES = {
    "admonition",
    "note",
    "warning",
    "tip",
    "important",
    "caution",
    "attention",
    "danger",
    "error",
    "hint",
    "seealso",
    "dropdown",
    "glossary",
    "epigraph",
    "topic",
    "sidebar",
    "margin",
    "card",
    "div",
}
_NOT_PROSE = [
    re.compile(r"<!--.*?-->", re.S),  # HTML comments
    re.compile(r"\$\$.*?\$\$", re.S),  # display maths
    re.compile(r"(?<![\\$])\$[^$\n]+?\$"),  # inline maths
    re.compile(r"\{[A-Za-z:+-]+\}`[^`]*`"),  # roles: {cite}`..`, {glue:text}`..`
    re.compile(r"``[^`]+``|`[^`\n]+`"),  # inline code
    re.compile(r"\]\([^)\s]*\)"),  # link targets
    re.compile(r"https?://[^\s)>\]]+"),  # bare URLs
    re.compile(r"</?[A-Za-z][^>\n]*>"),  # HTML tags
    re.compile(r"^\([A-Za-z0-9_-]+\)=[ \t]*$", re.M),  # MyST targets
    re.compile(r"^:[A-Za-z_-]+:.*$", re.M),  # directive options
    re.compile(r"^---\n.*?\n---\n", re.S),  # front matter
]
_HEADING = re.compile(r"^#{1,6} .*$", re.M)

# A number as prose writes it: 1,000 / 0.05 / 12.5 / 83 (a minus sign is read as part of it).
PROSE_NUMBER = re.compile(r"(?<![\w.,/\\-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|[.,]\d)")
OUTPUT_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?")
PERCENT_AFTER = re.compile(r"^[\s\u00a0\u2009\u202f]?%")
YEAR = range(1900, 2100)


# ---------------------------------------------------------------------------------------------
# Pages and their prose


@dataclass
class Page:
    """One page: its prose (markdown) and, for a notebook, what its code cells hold."""

    path: str  # "book/03_precision_recall.ipynb"
    cells: list[str]  # the prose, one string per markdown cell (a .md page: one)
    candidates: set[float] = field(default_factory=set)  # numbers in outputs and code
    notebook: bool = True

    @property
    def ledger_name(self) -> str:
        stem = Path(self.path).stem
        return stem if self.path.startswith("book/") else f"{Path(self.path).parent.name}_{stem}"

    @property
    def ledger_path(self) -> Path:
        return LEDGERS / f"{self.ledger_name}.yml"


def _numbers_in(text: str) -> set[float]:
    found = set()
    for m in OUTPUT_NUMBER.findall(text):
        try:
            found.add(abs(float(m.replace(",", ""))))
        except ValueError:  # pragma: no cover - the pattern only matches numbers
            pass
    return found


def _notebook_page(path: Path) -> Page:
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells, candidates = [], set()
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            cells.append(source)
        elif cell["cell_type"] == "code":
            candidates |= _numbers_in(source)
            for out in cell.get("outputs", []):
                candidates |= _numbers_in("".join(out.get("text", "")))
                for mime, value in out.get("data", {}).items():
                    if mime.startswith("text/") or mime.endswith("+json"):
                        text = value if isinstance(value, str) else json.dumps(value)
                        candidates |= _numbers_in("".join(text))
    return Page(str(path.relative_to(ROOT)), cells, candidates)


def page_paths() -> list[Path]:
    paths = sorted((ROOT / "book").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))
    paths += sorted(
        p for p in (ROOT / "book").glob("*.md") if str(p.relative_to(ROOT)) not in SKIPPED_PAGES
    )
    return paths


@cache
def _all_notebook_candidates() -> frozenset:
    found: set[float] = set()
    for path in page_paths():
        if path.suffix == ".ipynb":
            found |= _notebook_page(path).candidates
    return frozenset(found)


def load_page(path: Path | str) -> Page:
    path = Path(path)
    path = path if path.is_absolute() else ROOT / path
    if path.suffix == ".ipynb":
        return _notebook_page(path)
    return Page(
        str(path.relative_to(ROOT)),
        [path.read_text(encoding="utf-8")],
        set(_all_notebook_candidates()),
        notebook=False,
    )


def mask(text: str, headings: bool = False) -> str:
    """``text`` with everything that is not prose blanked out (same length, newlines kept)."""
    chars = list(text)

    def blank(start: int, end: int) -> None:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "

    for m in _FENCE.finditer(text):
        info = m.group("info").strip()
        directive = re.match(r"\{([A-Za-z-]+)\}", info)
        if directive and directive.group(1) in PROSE_DIRECTIVES:
            # Keep the title and the body; blank the fences and the directive's name.
            blank(m.start(), m.start("info") + directive.end())
            blank(m.end("body"), m.end())
        else:
            blank(m.start(), m.end())
    current = "".join(chars)
    for pattern in _NOT_PROSE:
        for m in pattern.finditer(current):
            blank(m.start(), m.end())
    if headings:
        for m in _HEADING.finditer(current):
            blank(m.start(), m.end())
    return "".join(chars)


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------------------------------------
# Ledgers


def load_ledger(page: Page) -> dict:
    if not page.ledger_path.exists():
        return {"claims": [], "plain": [], "numbers": []}
    data = yaml.safe_load(page.ledger_path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{page.ledger_path}: expected a mapping with claims/plain/numbers")
    for key in ("claims", "plain", "numbers"):
        data[key] = data.get(key) or []
    return data


def ledger_problems(page: Page, ledger: dict | None = None) -> list[str]:
    """Entries that do not fit the page as it is now (stale quotes, missing proofs, ...)."""
    ledger = load_ledger(page) if ledger is None else ledger
    where = page.ledger_path.relative_to(ROOT)
    text = normalise("\n\n".join(page.cells))
    out = []
    unknown = set(ledger) - {"claims", "plain", "numbers"}
    if unknown:
        out.append(f"{where}: unknown keys {sorted(unknown)}")
    for i, claim in enumerate(ledger["claims"]):
        if not isinstance(claim, dict) or not isinstance(claim.get("quote"), str):
            out.append(f"{where}: claims[{i}] needs a quote")
            continue
        quote = normalise(claim["quote"])
        if quote not in text:
            out.append(f"{where}: claim not found on the page: {quote!r}")
        if not UNIVERSAL.search(quote):
            out.append(f"{where}: claim has no universal word: {quote!r}")
        proof = claim.get("proof") or ""
        if not re.search(r"\{ref\}`|\{cite(?::[pt])?\}`|\]\([^)]+\)|\{doc\}`", proof):
            out.append(f"{where}: claim {quote!r}: the proof needs a {{ref}}, a link or a {{cite}}")
        for key in ("zh_quote", "zh_proof"):
            if not isinstance(claim.get(key), str) or not claim[key].strip():
                out.append(f"{where}: claim {quote!r}: {key} missing")
    for fragment in ledger["plain"]:
        if not isinstance(fragment, str):
            out.append(f"{where}: plain entries are strings: {fragment!r}")
            continue
        if normalise(fragment) not in text:
            out.append(f"{where}: plain fragment not found on the page: {fragment!r}")
        elif not UNIVERSAL.search(fragment):
            out.append(f"{where}: plain fragment has no universal word: {fragment!r}")
    prose_tokens = {m.group() for m in PROSE_NUMBER.finditer(mask("\n\n".join(page.cells)))}
    for entry in ledger["numbers"]:
        if not isinstance(entry, dict) or not entry.get("why") or "value" not in entry:
            out.append(f"{where}: numbers entries need value and why: {entry!r}")
        elif str(entry["value"]) not in prose_tokens:
            out.append(f"{where}: number {entry['value']!r} is not in the page's prose")
    return out


# ---------------------------------------------------------------------------------------------
# The two checks


def _decimals(token: str) -> int:
    return len(token.split(".")[1]) if "." in token else 0


def number_matches(token: str, percent: bool, candidates) -> bool:
    """Does the prose number ``token`` (as written) report one of ``candidates``?

    The prose's own rounding decides: 0.83 reports 0.8312; a percentage reports a fraction
    (83 % reports 0.8312) or a number already in per cent.
    """
    value = float(token.replace(",", ""))
    places = _decimals(token)
    tolerance = 0.5 * 10**-places + 1e-9 * max(1.0, value)
    for c in candidates:
        if abs(c - value) <= tolerance:
            return True
        if percent and abs(100 * c - value) <= tolerance:
            return True
    return False


def unmatched_numbers(page: Page, ledger: dict | None = None) -> list[tuple[str, str]]:
    """Prose numbers of ``page`` that nothing accounts for: ``[(number, context), ...]``."""
    ledger = load_ledger(page) if ledger is None else ledger
    exempt = {str(e.get("value")) for e in ledger["numbers"] if isinstance(e, dict)}
    out = []
    for cell in page.cells:
        masked = mask(cell, headings=True)
        for para_start, para in _paragraphs(cell):
            if re.search(r"\{cite(?::[pt])?\}`", para):
                continue  # a number from the literature, cited in its paragraph
            prose = masked[para_start : para_start + len(para)]
            for m in PROSE_NUMBER.finditer(prose):
                token = m.group()
                value = float(token.replace(",", ""))
                if "." not in token and (
                    "," not in token and value <= 10 or "," not in token and int(value) in YEAR
                ):
                    continue
                if token in exempt:
                    continue
                percent = bool(PERCENT_AFTER.match(prose[m.end() : m.end() + 2]))
                if not number_matches(token, percent, page.candidates):
                    context = normalise(para[max(0, m.start() - 50) : m.end() + 25])
                    out.append((token, context))
    return out


def _paragraphs(text: str):
    start = 0
    for block in re.split(r"(\n[ \t]*\n)", text):
        if block.strip() and not re.fullmatch(r"\n[ \t]*\n", block):
            yield start, block
        start += len(block)


def _normalised_with_map(text: str) -> tuple[str, list[int]]:
    """``normalise(text)`` and, for each of its characters, the index it came from."""
    out, where, space = [], [], False
    stripped = text.lstrip()
    offset = len(text) - len(stripped)
    for i, ch in enumerate(stripped.rstrip(), start=offset):
        if ch.isspace():
            space = True
            continue
        if space and out:
            out.append(" ")
            where.append(i - 1)
        space = False
        out.append(ch)
        where.append(i)
    return "".join(out), where


def uncovered_words(page: Page, ledger: dict | None = None) -> list[tuple[str, str]]:
    """Universal words in ``page``'s prose outside every ledger entry: ``[(word, context)]``."""
    ledger = load_ledger(page) if ledger is None else ledger
    raw = "\n\n".join(page.cells)
    masked = mask(raw)
    text, where = _normalised_with_map(raw)
    fragments = [
        normalise(c["quote"])
        for c in ledger["claims"]
        if isinstance(c, dict) and isinstance(c.get("quote"), str)
    ]
    fragments += [normalise(f) for f in ledger["plain"] if isinstance(f, str)]
    covered = [False] * len(text)
    for fragment in fragments:
        if not fragment:
            continue
        start = text.find(fragment)
        while start != -1:
            covered[start : start + len(fragment)] = [True] * len(fragment)
            start = text.find(fragment, start + 1)
    # Map source positions to normalised ones.
    position = {src: i for i, src in enumerate(where)}
    out = []
    for m in UNIVERSAL.finditer(masked):
        i = position.get(m.start())
        if i is None or not all(covered[i : i + len(m.group())]):
            at = i if i is not None else 0
            out.append((m.group(), text[max(0, at - 60) : at + len(m.group()) + 40]))
    return out


# ---------------------------------------------------------------------------------------------
# The claims page


def _toc_titles() -> dict[str, str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    titles = {}

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                titles[entry["file"]] = entry.get("title", "")
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    walk(toc.get("parts"))
    return titles


def _page_title(page: Page) -> str:
    title = _toc_titles().get(str(Path(page.path).with_suffix("")))
    if title:
        return title
    for cell in page.cells:
        m = re.search(r"^# (.+)$", cell, re.M)
        if m:
            return m.group(1).strip()
    return page.path


def _link(page: Page) -> str:
    # book/claims.md links to its neighbours in book/ and to ../solutions/.
    target = Path(page.path)
    return target.name if target.parent.name == "book" else f"../{target}"


def _cell(text: str) -> str:
    return normalise(text).replace("|", "\\|")


#: The claims page's opening, English and Chinese (one paragraph: one catalog message).
PAGE_TITLE = ("Claims and their evidence", "论断及其证据")
PAGE_INTRO = (
    "Each general claim this book keeps (a sentence with *always*, *never*, *only*, *cannot*, "
    "*must*, *guarantees*, *every* or *exactly* that states a fact) is listed here with its "
    "evidence: the executed cell that proves it, or the source that establishes it. A test reads "
    "the prose of every page and fails on a universal word that is neither listed here nor "
    'recorded as plain usage ("the only argument", an instruction), and on a number in the '
    "prose that no executed cell of the same page prints. The page is generated from the ledgers "
    "in `book/_claims/` by `scripts/claims_check.py page`.",
    "本书保留的每一条一般性论断（含有 *always*、*never*、*only*、*cannot*、*must*、"
    "*guarantees*、*every* 或 *exactly* 等全称词并陈述事实的句子）都列在这里，并附上证据："
    "证明它的已执行单元格，或确立它的文献。一项测试会读取每一页的正文：若某个全称词既未列在"
    "这里，也未登记为普通用法（“the only argument”、一条操作说明），测试就失败；若正文中的某个"
    "数字不是同一页某个已执行单元格打印出来的，测试也会失败。本页由 "
    "`scripts/claims_check.py page` 根据 `book/_claims/` 中的台账生成。",
)
COLUMNS = (("Claim", "论断"), ("Evidence", "证据"))


def claim_rows() -> list[tuple[Page, list[dict]]]:
    rows = []
    for path in page_paths():
        page = load_page(path)
        claims = [c for c in load_ledger(page)["claims"] if isinstance(c, dict)]
        if claims:
            rows.append((page, claims))
    return rows


def _quote_cell(page: Page, claim: dict, title: str, zh: bool = False) -> str:
    if zh:  # full-width brackets, no spaces beside them (the Chinese edition's convention)
        return _cell(f"“{normalise(claim['zh_quote'])}”（[{title}]({_link(page)})）")
    return _cell(f"“{normalise(claim['quote'])}” ([{title}]({_link(page)}))")


def render_page() -> str:
    lines = [f"# {PAGE_TITLE[0]}", "", PAGE_INTRO[0]]
    for page, claims in claim_rows():
        title = _page_title(page)
        lines += ["", f"## {title}", "", f"| {COLUMNS[0][0]} | {COLUMNS[1][0]} |", "| --- | --- |"]
        for claim in claims:
            lines.append(f"| {_quote_cell(page, claim, title)} | {_cell(claim['proof'])} |")
    return "\n".join(lines).rstrip() + "\n"


def _zh_title(page: Page) -> str:
    """The page title as the page's own catalog translates it (escaped for MyST, "1\\. ...")."""
    import polib

    title = _page_title(page)
    po_path = ROOT / "locales" / "zh_CN" / "LC_MESSAGES" / Path(page.path).with_suffix(".po")
    entry = polib.pofile(str(po_path)).find(title) if po_path.exists() else None
    if entry is None or not entry.msgstr or "fuzzy" in entry.flags:
        raise SystemExit(f"{page.path}: its title {title!r} has no Chinese in {po_path.name}")
    return entry.msgstr


def zh_table() -> dict[str, str]:
    """``{message id: 中文}`` for the claims page (``scripts/i18n.py import`` takes it)."""

    def message_id(msgid: str) -> str:
        return hashlib.sha1(msgid.encode("utf-8")).hexdigest()[:10]

    def unescape(cell: str) -> str:  # a table cell's message is its text without the \| escape
        return cell.replace("\\|", "|")

    sys.path.insert(0, str(ROOT / "scripts"))
    from i18n import fix_spacing

    table = {message_id(en): zh for en, zh in (PAGE_TITLE, PAGE_INTRO, *COLUMNS)}
    for page, claims in claim_rows():
        title, zh_title = _page_title(page), _zh_title(page)
        table[message_id(title)] = zh_title
        for claim in claims:
            en = unescape(_quote_cell(page, claim, title))
            zh = unescape(_quote_cell(page, claim, zh_title.replace("\\.", ".", 1), zh=True))
            table[message_id(en)] = zh
            table[message_id(unescape(_cell(claim["proof"])))] = unescape(_cell(claim["zh_proof"]))
    return {key: fix_spacing(zh) for key, zh in table.items()}


# ---------------------------------------------------------------------------------------------
# Command line


def _pages(args) -> list[Page]:
    return [load_page(p) for p in (args.pages or page_paths())]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("numbers", "words", "ledger"):
        p = sub.add_parser(name)
        p.add_argument("pages", nargs="*")
    p = sub.add_parser("page")
    p.add_argument("--check", action="store_true")
    p = sub.add_parser("zh", help="write the claims page's Chinese messages to a new .json file")
    p.add_argument("out", help="a .json file to write (a page named here would be overwritten)")
    args = parser.parse_args(argv)

    if args.cmd == "page":
        text = render_page()
        if args.check:
            stale = not CLAIMS_PAGE.exists() or CLAIMS_PAGE.read_text(encoding="utf-8") != text
            if stale:
                print("book/claims.md is stale: run scripts/claims_check.py page")
            return int(stale)
        CLAIMS_PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {CLAIMS_PAGE.relative_to(ROOT)}")
        return 0
    if args.cmd == "zh":
        # Two contributors passed a notebook here as if ``zh`` checked it, and lost the notebook.
        if Path(args.out).suffix != ".json":
            parser.error(f"zh writes a .json file; refusing to overwrite {args.out!r}")
        table = zh_table()
        Path(args.out).write_text(json.dumps(table, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"{len(table)} messages -> {args.out}")
        return 0

    problems = 0
    for page in _pages(args):
        if args.cmd == "numbers" and page.path in NUMBERS_FROM_SCRIPTS:
            continue
        if args.cmd == "numbers":
            found = [f"{n!r} in …{c}…" for n, c in unmatched_numbers(page)]
        elif args.cmd == "words":
            found = [f"{w!r} in …{c}…" for w, c in uncovered_words(page)]
        else:
            found = ledger_problems(page)
        for line in found:
            print(f"{page.path}: {line}")
        problems += len(found)
    if problems:
        print(f"{problems} to account for")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
