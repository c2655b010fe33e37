"""Chapter 6c exercises: the references agree with mltutor.conformal and MAPIE, correct
alternative solutions pass, and known-wrong "mutants" are caught (and named when the mistake is
a known one).

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
)

from mltutor.check import CORRECT
from mltutor.conformal import ConformalClassifier, conformal_quantile
from mltutor.exercises import prediction_sets as ch

EXERCISES_CH = {name: getattr(ch, name) for name in ch.__all__}


@pytest.mark.parametrize("i", range(len(ch.ex1.cases)))
def test_ex1_reference_matches_mltutor_conformal(i):
    scores, alpha = ch.ex1.cases[i].args
    assert ch.ex1.expected(i) == conformal_quantile(np.asarray(scores), alpha)


@pytest.mark.parametrize("i", range(len(ch.ex2.cases)))
def test_ex2_reference_matches_mltutor_conformal(i):
    cal, labels, test, alpha = ch.ex2.cases[i].args
    ours = ConformalClassifier("lac").fit(cal, labels, alpha).predict_sets(test)
    np.testing.assert_array_equal(ch.ex2.expected(i), ours)


# --------------------------------------------------------------------------------------------
# Correct alternatives pass
# --------------------------------------------------------------------------------------------


def ex1_with_partition(scores, alpha):
    n = len(scores)
    k = math.ceil(round((n + 1) * (1 - alpha), 9))
    return math.inf if k > n else float(np.partition(np.asarray(scores), k - 1)[k - 1])


def ex1_with_numpy_quantile(scores, alpha):
    n = len(scores)
    k = math.ceil(round((n + 1) * (1 - alpha), 9))
    return math.inf if k > n else float(np.quantile(scores, k / n, method="lower"))


def ex2_with_mltutor(cal_proba, cal_labels, test_proba, alpha):
    return ConformalClassifier("lac").fit(cal_proba, cal_labels, alpha).predict_sets(test_proba)


@pytest.mark.parametrize(
    "name, alternative",
    [("ex1", ex1_with_partition), ("ex1", ex1_with_numpy_quantile), ("ex2", ex2_with_mltutor)],
)
def test_correct_alternatives_pass(name, alternative):
    assert EXERCISES_CH[name].check(alternative, strict=False).status == CORRECT


# --------------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------------


def ex1_plain_quantile(scores, alpha):
    return float(np.quantile(scores, 1 - alpha))


def ex1_n_not_n_plus_1(scores, alpha):
    k = max(math.ceil(round(len(scores) * (1 - alpha), 9)), 1)
    return float(np.sort(scores)[k - 1])


def ex1_clipped_rank(scores, alpha):
    k = min(math.ceil(round((len(scores) + 1) * (1 - alpha), 9)), len(scores))
    return float(np.sort(scores)[k - 1])


def ex1_zero_based_rank(scores, alpha):
    return float(np.sort(scores)[math.ceil(round((len(scores) + 1) * (1 - alpha), 9))])


def ex1_unsorted(scores, alpha):
    n = len(scores)
    k = math.ceil(round((n + 1) * (1 - alpha), 9))
    return math.inf if k > n else float(np.asarray(scores)[k - 1])


def ex1_float_ceiling(
    scores, alpha
):  # no rounding: one rank too high where (n+1)(1-alpha) is whole
    n = len(scores)
    k = math.ceil((n + 1) * (1 - alpha))
    return math.inf if k > n else float(np.sort(scores)[k - 1])


def ex1_largest_score(scores, alpha):  # noqa: ARG001
    return float(np.max(scores))


def _true_p(cal_proba, cal_labels):
    return cal_proba[np.arange(len(cal_labels)), cal_labels]


def ex2_score_is_p(cal_proba, cal_labels, test_proba, alpha):
    return test_proba <= ch.conformal_threshold(_true_p(cal_proba, cal_labels), alpha)


def ex2_top_class_scores(cal_proba, cal_labels, test_proba, alpha):
    return (1 - test_proba) <= ch.conformal_threshold(1 - cal_proba.max(axis=1), alpha)


def ex2_strict_inequality(cal_proba, cal_labels, test_proba, alpha):
    return (1 - test_proba) < ch.conformal_threshold(1 - _true_p(cal_proba, cal_labels), alpha)


def ex2_plain_quantile(cal_proba, cal_labels, test_proba, alpha):
    return (1 - test_proba) <= np.quantile(1 - _true_p(cal_proba, cal_labels), 1 - alpha)


def ex2_top_class_only(cal_proba, cal_labels, test_proba, alpha):  # noqa: ARG001
    return test_proba == test_proba.max(axis=1, keepdims=True)


MUTANTS = {
    "ex1": [
        ex1_plain_quantile,
        ex1_n_not_n_plus_1,
        ex1_clipped_rank,
        ex1_zero_based_rank,
        ex1_unsorted,
        ex1_float_ceiling,
        ex1_largest_score,
    ],
    "ex2": [
        ex2_score_is_p,
        ex2_top_class_scores,
        ex2_strict_inequality,
        ex2_plain_quantile,
        ex2_top_class_only,
    ],
}
MUTANT_PARAMS = [(name, m) for name, ms in MUTANTS.items() for m in ms]

NAMED = {
    "ex1": {
        "ex1_plain_quantile": "plain_quantile",
        "ex1_n_not_n_plus_1": "n_not_n_plus_1",
        "ex1_clipped_rank": "clipped_rank",
        "ex1_zero_based_rank": "zero_based_rank",
    },
    "ex2": {
        "ex2_score_is_p": "score_is_p",
        "ex2_top_class_scores": "top_class_scores",
        "ex2_strict_inequality": "strict_inequality",
    },
}


def test_every_exercise_has_mutants():
    assert set(MUTANTS) == {n for n, ex in EXERCISES_CH.items() if ex.kind != "judgement"}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH[name], mutant)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH, NAMED)


JUDGEMENT_ANSWERS = {"ex3": "c", "ex4": "b", "ex5": "b"}


def test_the_judgement_exercises_are_the_ones_with_answers():
    assert {n for n, ex in EXERCISES_CH.items() if ex.kind == "judgement"} == set(JUDGEMENT_ANSWERS)
    assert len(JUDGEMENT_ANSWERS) >= 2


@pytest.mark.parametrize(
    "name, letter", [(n, x) for n, a in JUDGEMENT_ANSWERS.items() for x in "abcd" if x != a]
)
def test_judgement_wrong_letters_are_incorrect_and_explained(name, letter):
    ex = EXERCISES_CH[name]
    result = ex.check(letter, strict=False)
    assert result.status != CORRECT and result.misconception == f"option_{letter}"
    assert ex.options[letter][1] in result.message
    assert ex.check(JUDGEMENT_ANSWERS[name], strict=False).status == CORRECT


def test_exercise_notebook_contains_no_solution_code():
    text = (EXERCISES / "06c_prediction_sets.ipynb").read_text(encoding="utf-8")
    assert "math.ceil(round" not in text
    for name, letter in JUDGEMENT_ANSWERS.items():
        assert f'answer_{name[2:]} = \\"{letter}\\"' not in text  # as JSON writes the cell
        assert f'answer_{name[2:]} = "{letter}"' not in text


def test_ex4_and_ex5_explanation_numbers():
    """The ranks and the probability that the ex4 answer quotes (n = 2,000, alpha = 0.05), and the
    19 calibration patients of ex5, recomputed from the Beta distribution of one calibration set's
    coverage (chapter 6c)."""
    from scipy.stats import beta

    n, alpha, delta = 2000, 0.05, 0.1
    k = math.ceil(round((n + 1) * (1 - alpha), 9))
    ranks = np.arange(1, n + 1)
    pac = int(ranks[np.argmax(beta.sf(1 - alpha, ranks, n + 1 - ranks) >= 1 - delta)])
    below = beta.cdf(1 - alpha, k, n + 1 - k)
    why_b = ch.ex4.options["b"][1]
    assert (k, pac) == (1901, 1913) and f"{below:.3f}" == "0.486"
    assert "rank 1901" in why_b and "0.486" in why_b and "1913 of 2,000" in why_b
    fewest = min(m for m in range(1, 100) if math.ceil(round((m + 1) * 0.95, 9)) <= m)
    assert fewest == 19 and "fewer than 19 patients" in ch.ex5.options["b"][1]
