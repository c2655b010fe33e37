"""Chapter 4 exercises: references agree with scikit-learn / mltutor, and known-wrong mutants are caught.

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    SOLUTIONS,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
    assert_wrong_value_caught,
    run_notebook_code,
)

from mltutor.exercises import f1_fbeta as ch4

CH4_SOLUTIONS = SOLUTIONS / "04_f1_fbeta.ipynb"
CH4_EXERCISES = EXERCISES / "04_f1_fbeta.ipynb"
EXERCISES_CH4 = {name: getattr(ch4, name) for name in ch4.__all__}

sklearn_metrics = pytest.importorskip("sklearn.metrics")


@pytest.fixture(scope="module")
def solved():
    return run_notebook_code(CH4_SOLUTIONS)


# --------------------------------------------------------------------------------------------
# The references agree with scikit-learn (and with mltutor.curves for ex3)
# --------------------------------------------------------------------------------------------


def labels_from_counts(tp, fp, fn, tn=3):
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


@pytest.mark.parametrize("i", range(len(ch4.ex2.cases)))
def test_ex2_reference_matches_sklearn(i):
    c = ch4.ex2.cases[i]
    tp, fp, fn = c.args
    y_true, y_pred = labels_from_counts(tp, fp, fn)
    ref = sklearn_metrics.fbeta_score(
        y_true, y_pred, beta=c.kwargs["beta"], zero_division=c.kwargs.get("zero_division", 0.0)
    )
    assert ch4.ex2.expected(i) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch4.ex1.cases)))
def test_ex1_reference_matches_counts_formula(i):
    """F-beta from P and R equals sklearn's F-beta on labels with those P and R."""
    c = ch4.ex1.cases[i]
    p, r = c.args
    beta = c.kwargs["beta"]
    if p == r == 0:
        y_true, y_pred = labels_from_counts(0, 5, 5)
    else:
        tp = 252  # 252 / p and 252 / r are whole numbers for every case: exact P and R
        fp, fn = round(tp / p) - tp, round(tp / r) - tp
        assert tp / (tp + fp) == pytest.approx(p, abs=1e-12) and tp / (tp + fn) == pytest.approx(
            r, abs=1e-12
        )
        y_true, y_pred = labels_from_counts(tp, fp, fn)
    ref = sklearn_metrics.fbeta_score(y_true, y_pred, beta=beta)
    assert ch4.ex1.expected(i) == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize("i", range(len(ch4.ex3.cases)))
def test_ex3_reference_matches_brute_force_and_mltutor(i):
    c = ch4.ex3.cases[i]
    y, s = c.args
    beta = c.kwargs["beta"]
    t, f = ch4.ex3.expected(i)
    candidates = np.unique(s)[::-1]  # descending
    scores = np.array(
        [
            sklearn_metrics.fbeta_score(y, (s >= u).astype(int), beta=beta, zero_division=0)
            for u in candidates
        ]
    )
    best = np.flatnonzero(np.isclose(scores, scores.max(), rtol=0, atol=1e-12))[0]
    assert t == candidates[best]
    assert f == pytest.approx(scores.max(), abs=1e-12)
    thresholds = pytest.importorskip("mltutor.curves")
    assert thresholds.best_fbeta_threshold(y, s, beta=beta) == pytest.approx((t, f), abs=1e-12)


def test_ex4_answer(solved):
    p, r = 0.9, ch4.ex4.answer
    assert 2 * p * r / (p + r) == pytest.approx(0.6, abs=1e-12)
    assert solved[0]["needed_recall"] == pytest.approx(ch4.ex4.answer, abs=1e-12)


# --------------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------------


def ex1_beta_not_squared(precision, recall, beta=1.0):
    d = beta * precision + recall
    return 0.0 if d == 0 else (1 + beta) * precision * recall / d


def ex1_roles_swapped(precision, recall, beta=1.0):
    b2 = beta**2
    d = b2 * recall + precision
    return 0.0 if d == 0 else (1 + b2) * precision * recall / d


def ex1_arithmetic_mean(precision, recall, beta=1.0):
    b2 = beta**2
    return (precision + b2 * recall) / (1 + b2)


def ex1_forgets_zero_division(precision, recall, beta=1.0):
    b2 = beta**2
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(
            np.float64((1 + b2) * precision * recall) / np.float64(b2 * precision + recall)
        )


def ex1_ignores_beta(precision, recall, beta=1.0):
    d = precision + recall
    return 0.0 if d == 0 else 2 * precision * recall / d


def ex1_one_plus_beta_squared_missing(precision, recall, beta=1.0):
    b2 = beta**2
    d = b2 * precision + recall
    return 0.0 if d == 0 else 2 * precision * recall / d


def ex1_geometric_mean(precision, recall, beta=1.0):
    return float(np.sqrt(precision * recall))


def _fb_counts(tp, fp, fn, b2):
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def ex2_beta_squared_on_fp(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp + fp + fn == 0:
        return zero_division
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fp + fn)


def ex2_beta_not_squared(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp + fp + fn == 0:
        return zero_division
    return _fb_counts(tp, fp, fn, beta)


def ex2_undefined_when_precision_is(tp, fp, fn, beta=1.0, zero_division=0.0):
    """Goes through P and R and returns zero_division whenever either is 0/0."""
    if tp + fp == 0 or tp + fn == 0:
        return zero_division
    p, r = tp / (tp + fp), tp / (tp + fn)
    b2 = beta**2
    return 0.0 if b2 * p + r == 0 else (1 + b2) * p * r / (b2 * p + r)


def ex2_ignores_zero_division(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp + fp + fn == 0:
        return 0.0
    return _fb_counts(tp, fp, fn, beta**2)


def ex2_zero_division_when_tp_is_zero(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp == 0:
        return zero_division
    return _fb_counts(tp, fp, fn, beta**2)


def ex2_f1_always(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp + fp + fn == 0:
        return zero_division
    return 2 * tp / (2 * tp + fp + fn)


def _sweep(y_true, y_score):
    order = np.argsort(-y_score, kind="stable")
    s, pos = y_score[order], y_true[order] == 1
    tp, fp = np.cumsum(pos), np.cumsum(~pos)
    return s, pos, tp, fp


def _best(thresholds, tp, fp, n_pos, b2, pick="first"):
    fn = n_pos - tp
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.nan_to_num((1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp))
    if pick == "first":
        k = int(np.argmax(f))
    else:
        k = int(np.flatnonzero(f == f.max())[-1])
    return float(thresholds[k]), float(f[k])


def ex3_ties_to_lowest_threshold(y_true, y_score, beta=1.0):
    s, pos, tp, fp = _sweep(y_true, y_score)
    last = np.r_[s[1:] != s[:-1], True]
    return _best(s[last], tp[last], fp[last], pos.sum(), beta**2, pick="last")


def ex3_tied_scores_not_grouped(y_true, y_score, beta=1.0):
    s, pos, tp, fp = _sweep(y_true, y_score)
    return _best(s, tp, fp, pos.sum(), beta**2)


def ex3_strictly_greater(y_true, y_score, beta=1.0):
    thresholds = np.unique(y_score)[::-1]
    pred = y_score[None, :] > thresholds[:, None]
    tp = (pred & (y_true == 1)).sum(axis=1)
    fp = (pred & (y_true != 1)).sum(axis=1)
    return _best(thresholds, tp, fp, (y_true == 1).sum(), beta**2)


def ex3_beta_not_squared(y_true, y_score, beta=1.0):
    s, pos, tp, fp = _sweep(y_true, y_score)
    last = np.r_[s[1:] != s[:-1], True]
    return _best(s[last], tp[last], fp[last], pos.sum(), beta)


def ex3_fixed_grid(y_true, y_score, beta=1.0):
    grid = np.arange(10, 90, 5)[::-1]
    pred = y_score[None, :] >= grid[:, None]
    tp = (pred & (y_true == 1)).sum(axis=1)
    fp = (pred & (y_true != 1)).sum(axis=1)
    return _best(grid, tp, fp, (y_true == 1).sum(), beta**2)


def ex3_ascending_sort(y_true, y_score, beta=1.0):
    """Sorts lowest first: cumulative counts then describe `score <= t`."""
    order = np.argsort(y_score, kind="stable")
    s, pos = y_score[order], y_true[order] == 1
    tp, fp = np.cumsum(pos), np.cumsum(~pos)
    last = np.r_[s[1:] != s[:-1], True]
    return _best(s[last], tp[last], fp[last], pos.sum(), beta**2)


def ex3_f1_always(y_true, y_score, beta=1.0):
    s, pos, tp, fp = _sweep(y_true, y_score)
    last = np.r_[s[1:] != s[:-1], True]
    return _best(s[last], tp[last], fp[last], pos.sum(), 1.0)


MUTANTS = {
    "ex1": [
        ex1_beta_not_squared,
        ex1_roles_swapped,
        ex1_arithmetic_mean,
        ex1_forgets_zero_division,
        ex1_ignores_beta,
        ex1_one_plus_beta_squared_missing,
        ex1_geometric_mean,
    ],
    "ex2": [
        ex2_beta_squared_on_fp,
        ex2_beta_not_squared,
        ex2_undefined_when_precision_is,
        ex2_ignores_zero_division,
        ex2_zero_division_when_tp_is_zero,
        ex2_f1_always,
    ],
    "ex3": [
        ex3_ties_to_lowest_threshold,
        ex3_tied_scores_not_grouped,
        ex3_strictly_greater,
        ex3_beta_not_squared,
        ex3_fixed_grid,
        ex3_ascending_sort,
        ex3_f1_always,
    ],
}
# ex4: the arithmetic-mean answer, F1 itself, the precision, "half of F1", the geometric-mean answer.
VALUE_MUTANTS = {"ex4": [0.3, 0.6, 0.9, 0.5, 0.4, 0.36 / 0.9]}

MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]
VALUE_PARAMS = [
    pytest.param(ex, v, id=f"{ex}-{v:.6g}") for ex, vs in VALUE_MUTANTS.items() for v in vs
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) | set(VALUE_MUTANTS) == {
        n for n, ex in EXERCISES_CH4.items() if ex.kind != "judgement"
    }


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH4[name], mutant)


@pytest.mark.parametrize("name, value", VALUE_PARAMS)
def test_wrong_value_is_caught(name, value):
    assert_wrong_value_caught(EXERCISES_CH4[name], value)


def test_mutant_messages_point_at_the_mistake():
    m = ch4.ex1.check(ex1_beta_not_squared, strict=False).message
    assert "F2" in m  # passes every beta = 1 case, fails the first F2 case
    m = ch4.ex2.check(ex2_undefined_when_precision_is, strict=False).message
    assert "nothing predicted positive" in m
    m = ch4.ex3.check(ex3_ties_to_lowest_threshold, strict=False).message
    assert "same best F1" in m
    m = ch4.ex3.check(ex3_tied_scores_not_grouped, strict=False).message
    assert "no threshold can split" in m


def test_exercise_notebook_contains_no_solution_code():
    text = CH4_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "b2 * precision + recall",
        "(1 + b2) * tp",
        "np.cumsum",
        "2 / 0.6 - 1 / 0.9",
        "R = 0.45",
    ):
        assert needle not in text, needle


def test_ex3_notes_that_claim_a_lower_f2_threshold_are_true():
    """A case whose note says F2 prefers a lower threshold must have F2's best below F1's."""
    claimed = [c for c in ch4.ex3.cases if "F2 prefers a lower threshold" in c.note]
    assert claimed
    for c in claimed:
        y_true, y_score = c.args
        t_f1, _ = ch4.best_fbeta_threshold(y_true, y_score, beta=1.0)
        t_f2, _ = ch4.best_fbeta_threshold(y_true, y_score, beta=2.0)
        assert t_f2 < t_f1, c.note


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_beta_not_squared": "beta_not_squared",
        "ex1_roles_swapped": "roles_swapped",
        "ex1_arithmetic_mean": "arithmetic_mean",
    },
    "ex2": {
        "ex2_beta_squared_on_fp": "beta_squared_on_fp",
        "ex2_beta_not_squared": "beta_not_squared",
        "ex2_undefined_when_precision_is": "undefined_when_precision_is",
        "ex2_zero_division_when_tp_is_zero": "undefined_when_precision_is",  # same on every case
    },
    "ex3": {
        "ex3_tied_scores_not_grouped": "ties_not_grouped",
        "ex3_strictly_greater": "strict_greater",
        "ex3_beta_not_squared": "beta_not_squared",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH4[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH4, NAMED)


def test_ex5_feedback_does_not_read_beta_as_a_cost_ratio():
    """The right option's explanation must not say F2 stands for a miss costing four false alarms.

    On calibrated scores the F2-optimal threshold lies below the cost threshold 1 / (1 + 4) = 0.2
    (chapter 4 computes 0.136 exactly), so β² is not a cost ratio.
    """
    from mltutor.curves import min_cost_threshold

    why = ch4.ex5.options["b"][1]
    assert "not a cost ratio" in why and "matches costly misses" not in why
    rng = np.random.default_rng(0)
    p = rng.beta(0.6, 2.4, size=200_000)
    y = (rng.random(p.size) < p).astype(int)
    t_f2, _ = ch4.best_fbeta_threshold(y, np.round(p, 3), beta=2.0)
    t_cost, _ = min_cost_threshold(y, p, c_fp=1.0, c_fn=4.0)
    assert t_f2 < 0.16 < 0.18 < t_cost < 0.22, (t_f2, t_cost)
