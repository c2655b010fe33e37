"""Exercises for chapter 4, *F1 and F-beta*.

=====  =========================================================================================
ex1    F-beta from precision and recall (beta squared; 0 when both are 0)   ``fbeta_from_pr``
ex2    F-beta from counts, with zero_division only when TP + FP + FN = 0   ``fbeta_from_counts``
ex3    the threshold that maximises F-beta, from one sort                  ``best_fbeta_threshold``
ex4    how much recall does a model with precision 0.9 need for F1 = 0.6?  a number
ex5    judgement: which β for a fraud detector? (a letter)
ex6    judgement: what f1 does not see (a letter)
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (``mltutor.metrics`` and
``mltutor.curves`` are deliberately not used, so an exercise cannot inherit their bugs).
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, ValueExercise, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def fbeta_from_pr(precision, recall, beta=1.0):
    """(1 + beta^2) P R / (beta^2 P + R); 0.0 when P = R = 0."""
    b2 = beta**2
    denominator = b2 * precision + recall
    if denominator == 0:
        return 0.0
    return (1 + b2) * precision * recall / denominator


def fbeta_from_counts(tp, fp, fn, beta=1.0, zero_division=0.0):
    """(1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP); zero_division when TP + FP + FN = 0."""
    if tp + fp + fn == 0:
        return zero_division
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def best_fbeta_threshold(y_true, y_score, beta=1.0):
    """The threshold t (a distinct score) maximising F-beta of `score >= t`; ties -> highest t."""
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=float)
    order = np.argsort(-y_score, kind="stable")  # highest score first
    scores, positive = y_score[order], y_true[order] == 1
    tp = np.cumsum(positive)  # predicted positive: the first k
    fp = np.cumsum(~positive)
    last = np.r_[scores[1:] != scores[:-1], True]  # end of each group of tied scores
    thresholds, tp, fp = scores[last], tp[last], fp[last]
    fn = positive.sum() - tp
    b2 = beta**2
    fbeta = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)  # tp + fp >= 1 here: no 0/0
    best = int(np.argmax(fbeta))  # the first maximum = highest threshold
    return float(thresholds[best]), float(fbeta[best])


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _scores(n, prevalence, separation, seed):
    """Labels and integer scores 0-100 (rounding makes ties) for a seeded binary problem."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    score = 1 / (1 + np.exp(-(separation * (2 * y - 1) + rng.normal(size=n))))
    return y, np.round(100 * score).astype(int)


_Y40, _S40 = _scores(40, 0.3, 1.0, seed=4)
_Y300, _S300 = _scores(300, 0.1, 1.2, seed=5)

ex1 = Exercise(
    "ex1",
    title="F-beta from precision and recall",
    reference=fbeta_from_pr,
    cases=[
        case(0.5, 0.8, beta=1.0, note="F1"),
        case(0.5, 0.8, beta=2.0, note="F2: recall counts more"),
        case(0.5, 0.8, beta=0.5, note="F0.5: precision counts more"),
        case(0.9, 0.3, beta=2.0, note="high precision, low recall, F2"),
        case(1.0, 0.01, beta=1.0, note="one correct flag, 99 misses"),
        case(0.0, 0.0, beta=1.0, note="precision and recall both 0"),
        case(0.0, 0.0, beta=2.0, note="both 0, beta = 2"),
        case(0.7, 0.7, beta=3.0, note="precision equals recall"),
        case(0.25, 0.6, beta=3.0, note="beta = 3"),
    ],
    hints=[
        "F-beta is a weighted harmonic mean: 1/F = (1/(1+b²))·(1/P) + (b²/(1+b²))·(1/R), where "
        "b² is `beta**2`. Multiply out to get (1 + b²)·P·R / (b²·P + R).",
        "It is beta **squared**, and it multiplies *precision* in the denominator: with beta = 2 "
        "the result must move towards recall.",
        "The denominator is zero only when P = R = 0; return 0.0 there instead of dividing.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="F-beta from counts",
    reference=fbeta_from_counts,
    cases=[
        case(40, 40, 10, beta=1.0, note="P = 0.5, R = 0.8"),
        case(40, 40, 10, beta=2.0, note="the same counts, F2"),
        case(30, 5, 25, beta=0.5, note="F0.5"),
        case(
            0,
            0,
            7,
            beta=1.0,
            zero_division=1.0,
            note="nothing predicted positive, 7 positives missed",
        ),
        case(0, 4, 0, beta=1.0, zero_division=1.0, note="no positives, 4 false alarms"),
        case(0, 0, 0, beta=1.0, note="no positives anywhere, zero_division = 0"),
        case(0, 0, 0, beta=2.0, zero_division=1.0, note="no positives anywhere, zero_division = 1"),
        case(12, 0, 0, beta=3.0, note="perfect"),
        case(9, 3, 6, beta=3.0, zero_division=1.0, note="beta = 3"),
    ],
    hints=[
        "Write P and R in counts and simplify: F-beta = (1 + b²)·TP / ((1 + b²)·TP + b²·FN + FP), "
        "with b² = `beta**2`.",
        "Which count gets the b² weight? A *missed* positive (FN) should cost more when recall "
        "matters more.",
        "This single denominator is 0 only when TP + FP + FN = 0. Precision being 0/0 (nothing "
        "predicted positive) does not make F-beta undefined: it is then 0.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="The best threshold for F-beta",
    reference=best_fbeta_threshold,
    outputs=("threshold", "fbeta"),
    cases=[
        case(np.array([0, 0, 1, 1]), np.array([10, 40, 35, 80]), beta=1.0, note="four samples"),
        case(
            np.array([0, 0, 1, 1]), np.array([10, 40, 35, 80]), beta=0.5, note="four samples, F0.5"
        ),
        case(
            np.array([1, 0, 1, 0, 1, 0]),
            np.array([90, 70, 70, 70, 40, 20]),
            beta=1.0,
            note="tied scores with different labels",
        ),
        case(
            np.array([1, 1, 0, 0, 1]),
            np.array([80, 50, 50, 50, 20]),
            beta=1.0,
            note="a group of tied scores that no threshold can split",
        ),
        case(
            np.array([1, 0, 0, 1, 0]),
            np.array([90, 80, 60, 40, 20]),
            beta=1.0,
            note="two thresholds give the same best F1",
        ),
        case(
            np.array([1, 1, 0, 0, 1]),
            np.array([90, 80, 60, 30, 30]),
            beta=2.0,
            note="F2 prefers a lower threshold than F1 (30 against 80)",
        ),
        case(np.array([1, 1, 1]), np.array([20, 90, 60]), beta=1.0, note="only positives"),
        case(
            np.array([0, 1, 0, 0]),
            np.array([95, 92, 5, 2]),
            beta=1.0,
            note="the best threshold is above 85",
        ),
        case(_Y40, _S40, beta=1.0, note="40 samples with ties"),
        case(_Y300, _S300, beta=2.0, note="300 samples, 10 % positive, F2"),
    ],
    hints=[
        "Sort the scores from highest to lowest. Predicting positive for `score >= t` then means "
        "predicting positive for the first k samples: `np.cumsum` of the sorted labels gives TP "
        "for every k at once, and FP = k - TP.",
        "Only distinct scores are thresholds: samples with the same score are all positive or all "
        "negative together. Keep the cumulative counts at the *last* sample of each group of "
        "tied scores.",
        "FN = (number of positives) - TP. `np.argmax` returns the first maximum, which is the "
        "highest threshold when thresholds are in descending order. Do not use a fixed grid "
        "such as `np.arange(10, 90, 5)`: it stops at 85 and misses thresholds.",
    ],
)

ex4 = ValueExercise(
    "ex4",
    variable="needed_recall",
    title="How much recall for F1 = 0.6?",
    answer=0.45,
    atol=5e-4,
    hints=[
        "Start from 1/F1 = (1/P + 1/R) / 2 and solve for R.",
        "1/R = 2/F1 - 1/P = 2/0.6 - 1/0.9. The arithmetic mean would say R = 0.3; check that "
        "P = 0.9 and R = 0.3 give an F1 well below 0.6.",
    ],
    solution="""
        # F1 is the harmonic mean: 2/F1 = 1/P + 1/R, so R = 1 / (2/F1 - 1/P) = F1·P / (2P - F1).
        needed_recall = 1 / (2 / 0.6 - 1 / 0.9)   # = 0.54 / 1.2 = 0.45
        """,
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex5 = ChoiceExercise(
    "ex5",
    title="Which β for a fraud detector?",
    variable="answer_5",
    options={
        "a": (
            "F0.5",
            "β < 1 weights precision more than recall: it favours a detector that flags little, "
            "which is the wrong way round when misses are expensive.",
        ),
        "b": (
            "F2",
            "β = 2 gives recall more weight than precision, which suits a detector whose misses "
            "are expensive. β states a trade between recall and precision, not a cost ratio: F2 "
            "does not mean that a miss costs four false alarms (chapter 4). When the two costs "
            "are known, the cost-optimal threshold of chapter 3 uses them directly.",
        ),
        "c": (
            "F1, because it is the standard",
            "F1 weights precision and recall alike; nothing in the scenario says they matter "
            "alike.",
        ),
        "d": (
            "accuracy",
            "fraud is rare, so accuracy is dominated by the legitimate transactions and barely "
            "moves when frauds are missed.",
        ),
    },
    answer="b",
    hints=[
        "In F-β, β > 1 gives recall more weight.",
        "Which error is the expensive one here, and which of precision and recall counts it?",
    ],
)

ex6 = ChoiceExercise(
    "ex6",
    title="What F1 does not see",
    variable="answer_6",
    options={
        "a": (
            "adding 10,000 defect-free items that the detector correctly passes",
            "F1 = 2TP / (2TP + FP + FN) has no TN in it, so correctly passed items never move "
            "it: F1 cannot tell a test set with many easy negatives from one with few.",
        ),
        "b": (
            "two missed defects becoming detected",
            "that turns two false negatives into true positives, which raises F1.",
        ),
        "c": (
            "adding 100 defect-free items that the detector wrongly flags",
            "those are 100 new false positives; they lower precision and F1 (unless the "
            "detector finds no defect at all, when both are already 0).",
        ),
        "d": (
            "adding 100 defects that the detector misses",
            "those are 100 new false negatives; they lower recall and F1 (unless the "
            "detector finds no defect at all, when both are already 0).",
        ),
    },
    answer="a",
    hints=[
        "Write F1 with counts: which of TP, FP, FN and TN does it use?",
        "Go through the options one by one: which count does each change?",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_f1_fbeta.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_ex1_beta_not_squared(precision, recall, beta=1.0):
    d = beta * precision + recall
    return 0.0 if d == 0 else (1 + beta) * precision * recall / d


def _wrong_ex1_roles_swapped(precision, recall, beta=1.0):
    b2 = beta**2
    d = b2 * recall + precision
    return 0.0 if d == 0 else (1 + b2) * precision * recall / d


def _wrong_ex1_arithmetic_mean(precision, recall, beta=1.0):
    b2 = beta**2
    return (precision + b2 * recall) / (1 + b2)


def _wrong_fb_counts(tp, fp, fn, b2):
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def _wrong_ex2_beta_squared_on_fp(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp + fp + fn == 0:
        return zero_division
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fp + fn)


def _wrong_ex2_beta_not_squared(tp, fp, fn, beta=1.0, zero_division=0.0):
    if tp + fp + fn == 0:
        return zero_division
    return _wrong_fb_counts(tp, fp, fn, beta)


def _wrong_ex2_undefined_when_precision_is(tp, fp, fn, beta=1.0, zero_division=0.0):
    """Goes through P and R and returns zero_division whenever either is 0/0."""
    if tp + fp == 0 or tp + fn == 0:
        return zero_division
    p, r = tp / (tp + fp), tp / (tp + fn)
    b2 = beta**2
    return 0.0 if b2 * p + r == 0 else (1 + b2) * p * r / (b2 * p + r)


def _wrong_sweep(y_true, y_score):
    order = np.argsort(-y_score, kind="stable")
    s, pos = y_score[order], y_true[order] == 1
    tp, fp = np.cumsum(pos), np.cumsum(~pos)
    return s, pos, tp, fp


def _wrong_best(thresholds, tp, fp, n_pos, b2, pick="first"):
    fn = n_pos - tp
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.nan_to_num((1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp))
    if pick == "first":
        k = int(np.argmax(f))
    else:
        k = int(np.flatnonzero(f == f.max())[-1])
    return float(thresholds[k]), float(f[k])


def _wrong_ex3_tied_scores_not_grouped(y_true, y_score, beta=1.0):
    s, pos, tp, fp = _wrong_sweep(y_true, y_score)
    return _wrong_best(s, tp, fp, pos.sum(), beta**2)


def _wrong_ex3_strictly_greater(y_true, y_score, beta=1.0):
    thresholds = np.unique(y_score)[::-1]
    pred = y_score[None, :] > thresholds[:, None]
    tp = (pred & (y_true == 1)).sum(axis=1)
    fp = (pred & (y_true != 1)).sum(axis=1)
    return _wrong_best(thresholds, tp, fp, (y_true == 1).sum(), beta**2)


def _wrong_ex3_beta_not_squared(y_true, y_score, beta=1.0):
    s, pos, tp, fp = _wrong_sweep(y_true, y_score)
    last = np.r_[s[1:] != s[:-1], True]
    return _wrong_best(s[last], tp[last], fp[last], pos.sum(), beta)


ex1.misconceptions = [
    Misconception(
        "beta_not_squared", "β instead of β² in the formula", _wrong_ex1_beta_not_squared
    ),
    Misconception(
        "roles_swapped",
        "precision and recall swapped in the formula: β weights recall, not precision",
        _wrong_ex1_roles_swapped,
    ),
    Misconception(
        "arithmetic_mean",
        "a weighted arithmetic mean instead of the weighted harmonic mean",
        _wrong_ex1_arithmetic_mean,
    ),
]
ex2.misconceptions = [
    Misconception(
        "beta_squared_on_fp",
        "β² on the false positives instead of the false negatives",
        _wrong_ex2_beta_squared_on_fp,
    ),
    Misconception(
        "beta_not_squared", "β instead of β² in the formula", _wrong_ex2_beta_not_squared
    ),
    Misconception(
        "undefined_when_precision_is",
        "`zero_division` whenever precision is 0/0, though F-β = (1+β²)TP / ((1+β²)TP + "
        "β²FN + FP) is defined then",
        _wrong_ex2_undefined_when_precision_is,
    ),
]
ex3.misconceptions = [
    Misconception(
        "ties_not_grouped",
        "tied scores treated one by one instead of as one threshold",
        _wrong_ex3_tied_scores_not_grouped,
    ),
    Misconception("strict_greater", "`>` for `>=` at the threshold", _wrong_ex3_strictly_greater),
    Misconception(
        "beta_not_squared", "β instead of β² in the formula", _wrong_ex3_beta_not_squared
    ),
]
