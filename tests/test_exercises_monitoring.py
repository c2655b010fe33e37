"""Chapter 9 exercises: the references agree with scikit-learn and mltutor.monitoring, correct
alternatives pass, and known-wrong "mutants" are caught (and named when the mistake is known).

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
)
from sklearn.metrics import f1_score

from mltutor import monitoring as mon
from mltutor.check import CORRECT
from mltutor.exercises import monitoring as ch

EXERCISES_CH = {name: getattr(ch, name) for name in ch.__all__}


@pytest.mark.parametrize("i", range(len(ch.ex1.cases)))
def test_ex1_reference_matches_sklearn_on_the_concatenated_batches(i):
    (batches,) = ch.ex1.cases[i].args
    t = np.concatenate([b[0] for b in batches])
    p = np.concatenate([b[1] for b in batches])
    assert ch.ex1.expected(i) == pytest.approx(f1_score(t, p, zero_division=0), abs=1e-12)
    assert ch.ex1.expected(i) == pytest.approx(
        mon.rolling_score("f1", t, p, t.size, zero_division=0.0)[-1], abs=1e-12
    )


@pytest.mark.parametrize("i", range(len(ch.ex2.cases)))
def test_ex2_reference_matches_mltutor_monitoring(i):
    x, p0, p1 = ch.ex2.cases[i].args
    np.testing.assert_allclose(
        ch.ex2.expected(i), mon.bernoulli_cusum(x, p0, p1, 1.0).statistic, atol=1e-12
    )


def test_ex1_first_case_shows_the_batch_mean_differs():
    (batches,) = ch.ex1.cases[0].args
    assert ch._mean_of_batch_f1(batches) != pytest.approx(ch.window_f1(batches))


# --------------------------------------------------------------------------------------------
# Correct alternatives pass
# --------------------------------------------------------------------------------------------


def ex1_with_sklearn(batches):
    t = np.concatenate([b[0] for b in batches])
    p = np.concatenate([b[1] for b in batches])
    return f1_score(t, p, zero_division=0)


def ex2_with_loop(errors, p0, p1):
    s, out = 0.0, []
    for v in errors:
        s = max(0.0, s + (np.log(p1 / p0) if v else np.log((1 - p1) / (1 - p0))))
        out.append(s)
    return np.array(out)


def ex2_with_mltutor(errors, p0, p1):
    return mon.bernoulli_cusum(errors, p0, p1, 1.0).statistic


@pytest.mark.parametrize(
    "name, alternative",
    [("ex1", ex1_with_sklearn), ("ex2", ex2_with_loop), ("ex2", ex2_with_mltutor)],
)
def test_correct_alternatives_pass(name, alternative):
    assert EXERCISES_CH[name].check(alternative, strict=False).status == CORRECT


# --------------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------------


def _f1(t, p):
    return f1_score(t, p, zero_division=0)


def ex1_mean_of_batch_f1(batches):
    return float(np.mean([_f1(t, p) for t, p in batches]))


def ex1_size_weighted(batches):
    return float(np.average([_f1(t, p) for t, p in batches], weights=[len(t) for t, _ in batches]))


def ex1_last_batch_only(batches):
    return _f1(*batches[-1])


def ex1_fp_fn_swapped_accuracy(batches):  # accuracy instead of F1
    t = np.concatenate([b[0] for b in batches])
    p = np.concatenate([b[1] for b in batches])
    return float(np.mean(t == p))


def ex1_zero_division_one(batches):
    t = np.concatenate([b[0] for b in batches])
    p = np.concatenate([b[1] for b in batches])
    return f1_score(t, p, zero_division=1)


def ex2_no_reset(errors, p0, p1):
    x = np.asarray(errors)
    return np.cumsum(np.where(x == 1, np.log(p1 / p0), np.log((1 - p1) / (1 - p0))))


def ex2_ratio_upside_down(errors, p0, p1):
    return ex2_with_loop(errors, p1, p0)


def ex2_errors_only(errors, p0, p1):
    s, out = 0.0, []
    for v in errors:
        s = max(0.0, s + (np.log(p1 / p0) if v else 0.0))
        out.append(s)
    return np.array(out)


def ex2_count_of_errors(errors, p0, p1):  # noqa: ARG001
    return np.cumsum(errors).astype(float)


def ex2_reset_after_error(errors, p0, p1):  # min instead of max
    s, out = 0.0, []
    for v in errors:
        s = min(0.0, s + (np.log(p1 / p0) if v else np.log((1 - p1) / (1 - p0))))
        out.append(s)
    return np.array(out)


MUTANTS = {
    "ex1": [
        ex1_mean_of_batch_f1,
        ex1_size_weighted,
        ex1_last_batch_only,
        ex1_fp_fn_swapped_accuracy,
        ex1_zero_division_one,
    ],
    "ex2": [
        ex2_no_reset,
        ex2_ratio_upside_down,
        ex2_errors_only,
        ex2_count_of_errors,
        ex2_reset_after_error,
    ],
}
MUTANT_PARAMS = [(name, m) for name, ms in MUTANTS.items() for m in ms]

NAMED = {
    "ex1": {
        "ex1_mean_of_batch_f1": "mean_of_batch_f1",
        "ex1_size_weighted": "size_weighted_batch_f1",
        "ex1_last_batch_only": "last_batch_only",
    },
    "ex2": {
        "ex2_no_reset": "no_reset",
        "ex2_ratio_upside_down": "ratio_upside_down",
        "ex2_errors_only": "errors_only",
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


JUDGEMENT_ANSWERS = {"ex3": "b", "ex4": "b"}


def test_the_judgement_exercises_are_the_ones_with_answers():
    assert {n for n, ex in EXERCISES_CH.items() if ex.kind == "judgement"} == set(JUDGEMENT_ANSWERS)


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
    text = (EXERCISES / "09_monitoring.ipynb").read_text(encoding="utf-8")
    assert "np.minimum.accumulate" not in text and "2 * tp + fp + fn" not in text
    for name, letter in JUDGEMENT_ANSWERS.items():
        assert f'answer_{name[2:]} = \\"{letter}\\"' not in text
        assert f'answer_{name[2:]} = "{letter}"' not in text


def test_ex3_numbers():
    """The per-day probability and the standard errors quoted in ex3's explanations."""
    from scipy.stats import binom

    p_day = binom.cdf(163, 200, 0.85)  # accuracy < 0.82 means at most 163 of 200
    se = np.sqrt(0.85 * 0.15 / 200)
    assert f"{p_day:.2f}" == "0.10" and round((0.85 - 0.82) / se, 1) == 1.2
    assert f"{1 - (1 - p_day) ** 365:.4f}" == "1.0000"
    assert (
        "about 0.10" in ch.ex3.options["a"][1] and "1.2 standard errors" in ch.ex3.options["a"][1]
    )
