"""The bilingual glossary: every entry has an English and a Chinese term, and every ``{term}`` in
the book points at an entry; each chapter links at least a few terms."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
GLOSSARY = BOOK / "glossary.md"
CJK = re.compile(r"[\u4e00-\u9fff]")


def entries() -> list[list[str]]:
    """The term lines of each glossary entry (the lines before its indented definition)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    result = []
    for block in re.findall(r"```\{glossary\}\n(.*?)\n```", text, re.S):
        terms: list[str] = []
        for line in block.split("\n"):
            if not line.strip():
                continue
            if line.startswith((" ", "\t")):
                if terms:
                    result.append(terms)
                    terms = []
            else:
                terms.append(line.strip())
        assert not terms, f"glossary term without definition: {terms}"
    return result


def term_refs(text: str) -> list[str]:
    return [
        (m.group(2) or m.group(1)).strip()
        for m in re.finditer(r"\{term\}`([^`<]*?)(?:\s*<([^>]+)>)?`", text)
    ]


def book_texts():
    for path in sorted(BOOK.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        yield (
            path.name,
            "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown"),
        )
    for path in sorted(BOOK.glob("*.md")):
        yield path.name, path.read_text(encoding="utf-8")


def test_each_entry_is_english_then_chinese():
    for terms in entries():
        assert len(terms) == 2, terms
        english, chinese = terms
        assert not CJK.search(english), f"first term line should be English: {terms}"
        assert CJK.search(chinese), f"second term line should be Chinese: {terms}"


def test_terms_are_unique():
    lowered = [t.lower() for terms in entries() for t in terms]
    assert len(lowered) == len(set(lowered)), sorted(t for t in lowered if lowered.count(t) > 1)


def test_required_terms_present():
    english = {terms[0] for terms in entries()}
    chinese = {terms[1] for terms in entries()}
    for term in [
        "accuracy",
        "precision",
        "recall",
        "specificity",
        "sensitivity",
        "confusion matrix",
        "threshold",
        "IoU",
        "average precision",
        "mean average precision",
        "macro average",
        "micro average",
        "weighted average",
        "ROC curve",
        "AUC",
        "calibration",
        "confidence interval",
        "bootstrap",
        "non-maximum suppression",
    ]:
        assert term in english, term
    for term in [
        "准确率",
        "精确率",
        "召回率",
        "特异度",
        "混淆矩阵",
        "阈值",
        "交并比",
        "平均精度",
        "宏平均",
        "微平均",
        "加权平均",
    ]:
        assert term in chinese, term


def test_precision_ambiguity_is_explained():
    text = GLOSSARY.read_text(encoding="utf-8")
    assert "精度" in text and "单精度" in text


def test_every_term_reference_resolves():
    known = {t.lower() for terms in entries() for t in terms}
    for name, text in book_texts():
        for ref in term_refs(text):
            assert ref.lower() in known, f"{name}: {{term}}`{ref}` is not in the glossary"


def test_chapters_link_terms():
    for name, text in book_texts():
        if re.match(r"\d", name) or name.startswith("appendix"):
            assert len(set(term_refs(text))) >= 3, f"{name} links fewer than 3 glossary terms"
