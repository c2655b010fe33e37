"""Link a chapter to the glossary and give its myth boxes targets, editing markdown cells only.

    python scripts/link_glossary.py book/08_ucf101_case_study.ipynb [--dry-run]

For each notebook:

* every myth box (an admonition whose title starts with "Myth") without a MyST target on the line
  before gets one, ``(myth-<slug of the title>)=``, for ``book/myths.md`` to link with ``{ref}``
  (add the box's one-line verdict there; ``tests/test_myths_index.py`` lists what is missing);
* the first prose occurrence of each glossary term in ``TERMS`` becomes a ``{term}`` reference,
  unless the notebook already links that term.  Headings, admonition titles, code, math, links
  and existing roles are left alone.

Only markdown cell sources change: code cells, outputs, metadata and cell ids are kept, and the
file is written as ``nbformat`` writes it (indent 1, UTF-8, trailing newline).  Running it twice
changes nothing the second time.  Read the diff: a word may be used in another sense.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

OPEN = re.compile(r"^(`{3,}|:{3,})\{(\w[\w-]*)\}\s*(Myth\b.*)$")
TARGET = re.compile(r"^\((myth-[\w-]+)\)=\s*$")

W, E = r"(?<![\w-])", r"(?![\w-])"
#: (glossary term, pattern), in priority order.
TERMS = [
    ("confusion matrix", W + r"[Cc]onfusion matri(?:x|ces)" + E),
    ("balanced accuracy", W + r"[Bb]alanced accuracy" + E),
    ("top-k accuracy", W + r"[Tt]op-k accuracy" + E),
    ("accuracy", W + r"(?<!balanced )(?<!top-k )[Aa]ccuracy" + E),
    ("true positive", W + r"[Tt]rue positives?" + E),
    ("false positive", W + r"[Ff]alse positives?" + E),
    ("false negative", W + r"[Ff]alse negatives?" + E),
    ("true negative", W + r"[Tt]rue negatives?" + E),
    ("precision-recall curve", W + r"[Pp]recision-recall curves?" + E),
    ("mean average precision", W + r"(?:[Mm]ean average precision|mAP)" + E),
    ("average precision", W + r"(?<!mean )[Aa]verage precision" + E),
    ("precision", W + r"(?<!average )(?<!numeric )(?<!floating-point )[Pp]recision" + E),
    ("recall", W + r"[Rr]ecall" + E),
    ("specificity", W + r"[Ss]pecificity" + E),
    ("sensitivity", W + r"[Ss]ensitivity" + E),
    ("F1 score", W + r"F1(?: score)?" + E),
    ("F-beta score", W + r"F-beta(?: score)?" + E),
    ("harmonic mean", W + r"[Hh]armonic mean" + E),
    ("macro average", W + r"[Mm]acro[- ]averag(?:e|es|ing|ed)" + E),
    ("micro average", W + r"[Mm]icro[- ]averag(?:e|es|ing|ed)" + E),
    ("weighted average", W + r"[Ww]eighted averag(?:e|es|ing)" + E),
    ("prevalence", W + r"[Pp]revalence" + E),
    ("baseline", W + r"[Bb]aselines?" + E),
    ("class imbalance", W + r"(?:[Cc]lass )?[Ii]mbalance(?:d)?" + E),
    ("data leakage", W + r"(?:[Dd]ata )?[Ll]eak(?:age|s)?" + E),
    ("operating point", W + r"[Oo]perating points?" + E),
    ("threshold", W + r"(?<!IoU )[Tt]hreshold" + E),
    ("ROC curve", W + r"ROC curves?" + E),
    ("AUC", W + r"AUC" + E),
    ("IoU", W + r"IoU" + E),
    ("non-maximum suppression", W + r"(?:[Nn]on-maximum suppression|NMS)" + E),
    ("reliability diagram", W + r"[Rr]eliability diagrams?" + E),
    ("expected calibration error", W + r"(?:[Ee]xpected calibration error|ECE)" + E),
    ("calibration", W + r"[Cc]alibration" + E),
    ("Brier score", W + r"Brier score" + E),
    ("log loss", W + r"[Ll]og loss" + E),
    ("confidence interval", W + r"[Cc]onfidence intervals?" + E),
    ("bootstrap", W + r"[Bb]ootstrap" + E),
    ("multilabel", W + r"[Mm]ultilabel" + E),
    ("Jaccard index", W + r"Jaccard(?: index| score)?" + E),
    ("Hamming loss", W + r"Hamming loss" + E),
    ("nDCG", W + r"nDCG" + E),
    ("reciprocal rank", W + r"[Rr]eciprocal rank" + E),
    ("ground truth", W + r"[Gg]round truth" + E),
    ("positive class", W + r"[Pp]ositive class" + E),
]
#: Spans never rewritten: roles, inline code, math, links, HTML tags, bare URLs.
PROTECT = re.compile(
    r"(\{[\w:-]+\}`[^`]*`|`+[^`]*`+|\$\$.*?\$\$|\$[^$]*\$|!?\[[^\]]*\]\([^)]*\)"
    r"|<[^>]+>|https?://\S+)"
)
EXISTING = re.compile(r"\{term\}`([^`<]*?)(?:\s*<([^>]+)>)?`")
NON_PROSE_DIRECTIVES = {
    "code",
    "code-block",
    "code-cell",
    "math",
    "eval-rst",
    "glossary",
    "csv-table",
    "list-table",
    "raw",
}


def slug(title: str) -> str:
    words = re.findall(r"[a-z0-9]+", title.lower().removeprefix("myth:").replace("'", ""))
    return "myth-" + "-".join(words[:10])


def _role(text: str, term: str) -> str:
    return f"{{term}}`{text}`" if text == term else f"{{term}}`{text} <{term}>`"


def link_line(line: str, linked: set[str]) -> str:
    parts = PROTECT.split(line)
    for i in range(0, len(parts), 2):  # the even parts are prose
        pieces = [parts[i]]  # alternating prose / finished role
        for term, pattern in TERMS:
            if term in linked:
                continue
            for j in range(0, len(pieces), 2):
                match = re.search(pattern, pieces[j])
                if match:
                    text = pieces[j]
                    pieces[j : j + 1] = [
                        text[: match.start()],
                        _role(match.group(0), term),
                        text[match.end() :],
                    ]
                    linked.add(term)
                    break
        parts[i] = "".join(pieces)
    return "".join(parts)


def prose_lines(lines: list[str]):
    """Indices of lines that are prose (outside code, math and non-prose directives)."""
    stack: list[tuple[str, bool]] = []  # (fence, prose inside?)
    in_math = False
    for k, line in enumerate(lines):
        s = line.strip()
        fence = re.match(r"^(`{3,}|:{3,})(.*)$", s)
        if fence:
            if stack and fence.group(1) == stack[-1][0] and not fence.group(2).strip():
                stack.pop()
            else:
                name = re.match(r"\{([\w-]+)\}", fence.group(2))
                prose = bool(name) and name.group(1) not in NON_PROSE_DIRECTIVES
                stack.append((fence.group(1), prose))
            continue
        if s.startswith("$$"):
            if not (s.endswith("$$") and len(s) > 2):
                in_math = not in_math
            continue
        if in_math or any(not prose for _, prose in stack):
            continue
        if (
            s.startswith(("#", ":", "|--", "| --"))
            or re.match(r"^\(.*\)=$", s)
            or line.startswith("    ")
        ):
            continue
        yield k


def process(path: Path, write: bool = True) -> tuple[list[str], list[str]]:
    raw = path.read_text(encoding="utf-8")
    nb = json.loads(raw)
    if json.dumps(nb, indent=1, ensure_ascii=False) + "\n" != raw:
        raise SystemExit(f"{path}: not in nbformat's layout; refusing to rewrite it")
    linked = {
        (m.group(2) or m.group(1)).strip()
        for cell in nb["cells"]
        if cell["cell_type"] == "markdown"
        for m in EXISTING.finditer("".join(cell["source"]))
    }
    before = set(linked)
    targets = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        lines = source.split("\n")
        out: list[str] = []
        for line in lines:
            match = OPEN.match(line.strip())
            if match and not (out and TARGET.match(out[-1].strip())):
                if out and out[-1].strip():
                    out.append("")
                out.append(f"({slug(match.group(3))})=")
                targets.append(out[-1])
            out.append(line)
        for k in list(prose_lines(out)):
            out[k] = link_line(out[k], linked)
        new = "\n".join(out)
        if new != source:
            cell["source"] = new.splitlines(keepends=True)
    if write:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return targets, sorted(linked - before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--dry-run", action="store_true", help="report, write nothing")
    args = parser.parse_args()
    for path in args.notebooks:
        targets, terms = process(path, write=not args.dry_run)
        print(
            f"{path}: new myth targets {targets or 'none'}; linked {len(terms)} terms: {', '.join(terms)}"
        )


if __name__ == "__main__":
    main()
