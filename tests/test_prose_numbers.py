"""A number in the prose is a number some executed cell printed (issue 22).

Every decimal, percentage or integer above 10 in a page's markdown prose must be found, after the
prose's own rounding, among the numbers the same notebook prints or sets in its code, be glued
(``{glue:text}``), sit in a paragraph that cites its source, or be listed with its reason in the
page's ledger (``book/_claims/<page>.yml``, ``numbers:``).  ``scripts/claims_check.py numbers``
prints what is unaccounted for.  When an output changes and the prose does not, this fails.
"""

from __future__ import annotations

import copy

import pytest
from _claims import claims_check, exercise_pages, page_ids

NOT_FROM_CELLS = claims_check.NUMBERS_FROM_SCRIPTS


@pytest.mark.parametrize("path", page_ids())
def test_every_prose_number_is_printed_or_accounted_for(path):
    if path in NOT_FROM_CELLS:
        pytest.skip(f"{path}: {NOT_FROM_CELLS[path]}")
    page = claims_check.load_page(path)
    unmatched = claims_check.unmatched_numbers(page)
    assert not unmatched, "\n".join(f"{n!r} in …{c}…" for n, c in unmatched)


@pytest.mark.parametrize("exercise, solutions", exercise_pages())
def test_exercise_pages_numbers(exercise, solutions):
    """An exercise page's prose comes from its solutions notebook and reports its outputs."""
    page = claims_check.load_page(exercise)
    source = claims_check.load_page(solutions)
    page.candidates = source.candidates
    unmatched = claims_check.unmatched_numbers(page, claims_check.load_ledger(source))
    assert not unmatched, "\n".join(f"{n!r} in …{c}…" for n, c in unmatched)


def _planted(path: str, change) -> claims_check.Page:
    page = copy.deepcopy(claims_check.load_page(path))
    page.cells = [change(cell) for cell in page.cells]
    return page


def test_a_planted_wrong_number_fails():
    path = "book/03_precision_recall.ipynb"
    page = claims_check.load_page(path)
    before = claims_check.unmatched_numbers(page)
    planted = copy.deepcopy(page)
    planted.cells = planted.cells + ["On this test set the precision is 0.8137 and recall 93.7 %."]
    after = claims_check.unmatched_numbers(planted)
    assert {n for n, _ in after} - {n for n, _ in before} == {"0.8137", "93.7"}


def test_a_prose_number_that_stops_matching_its_output_fails():
    """Change one number the prose reports correctly: the check must notice."""
    page = claims_check.load_page("book/01_confusion_matrix.ipynb")
    before = len(claims_check.unmatched_numbers(page))
    for i, cell in enumerate(page.cells):
        masked = claims_check.mask(cell, headings=True)
        for m in claims_check.PROSE_NUMBER.finditer(masked):
            token = m.group()
            if "." in token and claims_check.number_matches(token, False, page.candidates):
                wrong = copy.deepcopy(page)
                # One more digit that moves the value off every output: 0.84 -> 0.8491.
                changed = token + "91"
                assert not claims_check.number_matches(changed, False, page.candidates)
                wrong.cells[i] = cell[: m.start()] + changed + cell[m.end() :]
                after = claims_check.unmatched_numbers(wrong)
                assert len(after) == before + 1 and changed in {n for n, _ in after}
                return
    pytest.fail("chapter 1 should report at least one decimal number in its prose")


@pytest.mark.parametrize(
    "token, percent, candidates, expected",
    [
        ("0.83", False, {0.8312}, True),
        ("0.83", False, {0.8372}, False),
        ("83", True, {0.8312}, True),
        ("83.1", True, {0.8312}, True),
        ("1,000", False, {1000.0}, True),
        ("12", False, {12.6}, False),
        ("13", False, {12.6}, True),
    ],
)
def test_rounding_rule(token, percent, candidates, expected):
    assert claims_check.number_matches(token, percent, candidates) is expected


def test_numbers_in_code_maths_links_and_cited_paragraphs_are_not_prose():
    page = claims_check.Page(
        "book/x.ipynb",
        [
            "Set `n = 12345` and $p = 0.4321$; see [the table](https://example.org/2345.html).",
            "Chow reported 0.4444 in 1970 {cite}`chow1970`.",
            "## 17.5 A heading number",
        ],
        candidates=set(),
    )
    assert claims_check.unmatched_numbers(page, {"claims": [], "plain": [], "numbers": []}) == []
