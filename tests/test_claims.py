"""Every universal word in the prose is a proven, cited claim or plain usage (issue 22).

``always``, ``never``, ``only``, ``cannot``, ``must``, ``guarantees``, ``every``, ``exactly`` …
in a page's prose must each sit inside an entry of the page's ledger (``book/_claims/<page>.yml``):
a *claim*, with its evidence (a ``{ref}`` to the executed cell that proves it, a link, or a
citation) and its Chinese, or *plain* usage.  The claims page (``book/claims.md``) lists the
claims and is generated from the ledgers.  ``scripts/claims_check.py words`` and ``ledger`` print
what is unaccounted for.
"""

from __future__ import annotations

import copy

import pytest
from _claims import ROOT, claims_check, exercise_pages, page_ids


@pytest.mark.parametrize("path", page_ids())
def test_every_universal_word_is_in_the_ledger(path):
    page = claims_check.load_page(path)
    uncovered = claims_check.uncovered_words(page)
    assert not uncovered, "\n".join(f"{w!r} in …{c}…" for w, c in uncovered)


@pytest.mark.parametrize("path", page_ids())
def test_ledger_entries_fit_the_page(path):
    problems = claims_check.ledger_problems(claims_check.load_page(path))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("exercise, solutions", exercise_pages())
def test_exercise_pages_words(exercise, solutions):
    page = claims_check.load_page(exercise)
    ledger = claims_check.load_ledger(claims_check.load_page(solutions))
    uncovered = claims_check.uncovered_words(page, ledger)
    assert not uncovered, "\n".join(f"{w!r} in …{c}…" for w, c in uncovered)


def test_every_ledger_belongs_to_a_page():
    names = {claims_check.load_page(p).ledger_name for p in page_ids()}
    orphans = sorted(p.name for p in claims_check.LEDGERS.glob("*.yml") if p.stem not in names)
    assert not orphans, f"ledgers with no page: {orphans}"


def test_claims_page_is_generated_from_the_ledgers():
    assert (ROOT / "book" / "claims.md").read_text(
        encoding="utf-8"
    ) == claims_check.render_page(), (
        "book/claims.md is stale: run scripts/claims_check.py page (then make gettext)"
    )


def test_a_planted_always_fails():
    page = claims_check.load_page("book/01_confusion_matrix.ipynb")
    before = [w for w, _ in claims_check.uncovered_words(page)]
    planted = copy.deepcopy(page)
    planted.cells = planted.cells + ["A larger test set always gives a better model."]
    assert [w for w, _ in claims_check.uncovered_words(planted)] == before + ["always"]


def test_universal_words_in_code_and_maths_are_not_prose():
    page = claims_check.Page(
        "book/x.ipynb",
        [
            "Call `only_positive(y)`; $\\text{never}$.\n\n```python\nassert always\n```",
            ":::{admonition} Myth: a metric is exactly right\n:class: warning\nIt never is.\n:::",
        ],
    )
    found = [
        w for w, _ in claims_check.uncovered_words(page, {"claims": [], "plain": [], "numbers": []})
    ]
    assert found == ["exactly", "never"]


def test_a_claim_needs_evidence_and_its_chinese():
    page = claims_check.load_page("book/01_confusion_matrix.ipynb")
    text = claims_check.normalise("\n\n".join(page.cells))
    word = claims_check.UNIVERSAL.search(claims_check.mask("\n\n".join(page.cells)))
    assert word
    fragment = claims_check.normalise("\n\n".join(page.cells)[word.start() : word.end() + 1])
    assert fragment.strip() in text
    ledger = {
        "claims": [{"quote": fragment.strip()}],
        "plain": ["no such words anywhere"],
        "numbers": [{"value": "99999", "why": "x"}],
    }
    problems = "\n".join(claims_check.ledger_problems(page, ledger))
    assert "proof needs" in problems
    assert "zh_quote missing" in problems
    assert "plain fragment not found" in problems
    assert "not in the page's prose" in problems
