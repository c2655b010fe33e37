"""Exercises for chapter 6c, *Prediction sets with a guarantee*.

=====  ===========================================================================================
ex1    the split-conformal threshold from n calibration scores                 ``conformal_threshold``
ex2    LAC prediction sets from the threshold                                   ``lac_sets``
ex3    judgement: what a 90 % coverage promises (a letter)
ex4    judgement: alpha and set construction for a triage tool (a letter)
ex5    judgement: what the triage tool's guarantee says about a rare diagnosis (a letter)
=====  ===========================================================================================

The functions below are the reference solutions, in plain NumPy (``mltutor.conformal`` is
deliberately not used, so an exercise cannot inherit its bugs).
"""

from __future__ import annotations

import inspect
import math

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def conformal_threshold(scores, alpha):
    """The k-th smallest of the n scores, k = ceil((n + 1)(1 - alpha)); inf when k > n."""
    scores = np.sort(np.asarray(scores, dtype=float))
    n = scores.size
    k = int(np.ceil(round((n + 1) * (1 - alpha), 9)))  # round away float noise (9.000000000000002)
    if k > n:
        return np.inf  # alpha < 1 / (n + 1): no finite threshold keeps the promise
    return float(scores[k - 1])


def lac_sets(cal_proba, cal_labels, test_proba, alpha):
    """Boolean matrix: class j is in test sample i's set when 1 - p[i, j] <= the threshold of the
    calibration scores 1 - p(true class)."""
    cal_proba, test_proba = np.asarray(cal_proba, dtype=float), np.asarray(test_proba, dtype=float)
    cal_labels = np.asarray(cal_labels)
    scores = 1 - cal_proba[np.arange(cal_labels.size), cal_labels]
    return (1 - test_proba) <= conformal_threshold(scores, alpha)


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=float):
    return np.array(values, dtype=dtype)


def _scores(n, seed, decimals=None):
    s = np.random.default_rng(seed).random(n)
    return np.round(s, decimals) if decimals is not None else s


def _problem(n_cal, n_test, k, seed, concentration=1.0):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(k, concentration), n_cal + n_test)
    y = (rng.random(n_cal + n_test)[:, None] > np.cumsum(p, axis=1)).sum(axis=1).clip(0, k - 1)
    return p[:n_cal], y[:n_cal], p[n_cal:]


ex1 = Exercise(
    "ex1",
    title="The split-conformal threshold",
    reference=conformal_threshold,
    cases=[
        case(_scores(25, seed=5), 0.2, note="25 scores, alpha = 0.2"),
        case(_scores(25, seed=5), 0.5, note="the same 25 scores, alpha = 0.5"),
        case(np.sort(_scores(40, seed=6))[::-1].copy(), 0.3, note="40 scores in decreasing order"),
        case(_scores(25, seed=7), 0.03, note="alpha below 1 / (n + 1): no finite threshold"),
        case(
            _scores(39, seed=8) + 1.0, 0.025, note="39 scores, alpha = 0.025: the rank is n itself"
        ),
        case(
            _scores(29, seed=9), 0.7, note="29 scores, alpha = 0.7: (n + 1)(1 - alpha) = 9 exactly"
        ),
        case(_scores(99, seed=1), 0.1, note="99 scores, alpha = 0.1"),
        case(_scores(500, seed=2), 0.1, note="500 scores, alpha = 0.1"),
        case(_scores(200, seed=3, decimals=1), 0.25, note="200 scores with many ties"),
        case(_scores(30, seed=4), 0.9, note="30 scores, alpha = 0.9: a low rank"),
    ],
    misconceptions=[
        Misconception(
            "plain_quantile",
            "the plain (1 - alpha) quantile of the n scores, without the n + 1 correction",
            lambda scores, alpha: float(np.quantile(scores, 1 - alpha)),
        ),
        Misconception(
            "n_not_n_plus_1",
            "rank ceil(n (1 - alpha)) instead of ceil((n + 1)(1 - alpha))",
            lambda scores, alpha: float(
                np.sort(scores)[max(math.ceil(round(len(scores) * (1 - alpha), 9)), 1) - 1]
            ),
        ),
        Misconception(
            "clipped_rank",
            "the largest score when the rank passes n, instead of an infinite threshold",
            lambda scores, alpha: float(
                np.sort(scores)[
                    min(math.ceil(round((len(scores) + 1) * (1 - alpha), 9)), len(scores)) - 1
                ]
            ),
        ),
        Misconception(
            "zero_based_rank",
            "index k instead of k - 1 into the sorted scores (one rank too high)",
            lambda scores, alpha: float(
                np.sort(scores)[math.ceil(round((len(scores) + 1) * (1 - alpha), 9))]
            ),
        ),
    ],
    hints=[
        "Sort the scores. The threshold is the k-th smallest of them, k = ⌈(n + 1)(1 − α)⌉: "
        "`math.ceil((n + 1) * (1 - alpha))`, and the k-th smallest is `sorted_scores[k - 1]`.",
        "Why n + 1: the new sample's score is one more exchangeable draw among n + 1; it lands at "
        "or below the k-th of the n calibration scores with probability k / (n + 1).",
        "When k > n no calibration score is high enough: return `math.inf`, so that every class "
        "is in every set. In floats (n + 1)(1 − α) can come out as 9.000000000000002 (n = 29, "
        "α = 0.7); round it (e.g. to 9 decimals) before taking the ceiling.",
    ],
)


def _wrong_lac(cal_proba, cal_labels, test_proba, alpha, mistake):
    """The known wrong versions of ``lac_sets``."""
    true_p = cal_proba[np.arange(len(cal_labels)), cal_labels]
    if mistake == "score_is_p":
        return test_proba <= conformal_threshold(true_p, alpha)
    if mistake == "top_class_scores":
        return (1 - test_proba) <= conformal_threshold(1 - cal_proba.max(axis=1), alpha)
    return (1 - test_proba) < conformal_threshold(1 - true_p, alpha)  # strict_inequality


_CAL_A, _Y_A, _TEST_A = _problem(40, 12, 3, seed=10)
_CAL_B, _Y_B, _TEST_B = _problem(300, 50, 5, seed=11, concentration=0.5)
_CAL_C, _Y_C, _TEST_C = _problem(9, 6, 4, seed=12)

ex2 = Exercise(
    "ex2",
    title="LAC prediction sets",
    reference=lac_sets,
    solution=lambda: inspect.getsource(conformal_threshold) + "\n\n" + inspect.getsource(lac_sets),
    cases=[
        case(
            _a([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]]),
            _a([0, 1, 1, 0], int),
            _a([[0.5, 0.4, 0.1], [0.2, 0.2, 0.6]]),
            0.4,
            note="four calibration samples, three classes",
        ),
        case(_CAL_A, _Y_A, _TEST_A, 0.1, note="40 calibration samples, 3 classes"),
        case(_CAL_B, _Y_B, _TEST_B, 0.1, note="300 calibration samples, 5 peaked classes"),
        case(_CAL_B, _Y_B, _TEST_B, 0.3, note="the same with alpha = 0.3"),
        case(_CAL_C, _Y_C, _TEST_C, 0.05, note="9 calibration samples, alpha below 1 / (n + 1)"),
        case(
            _a([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.45, 0.55], [0.7, 0.3]]),
            _a([0, 1, 1, 1, 0], int),
            _a([[0.55, 0.45], [0.99, 0.01]]),
            0.4,
            note="two classes, a test probability on the threshold",
        ),
    ],
    misconceptions=[
        Misconception(
            "score_is_p",
            "the probability itself as the score (classes with p <= threshold)",
            lambda *args: _wrong_lac(*args, mistake="score_is_p"),
        ),
        Misconception(
            "top_class_scores",
            "calibration scores from the predicted (top) class instead of the true class",
            lambda *args: _wrong_lac(*args, mistake="top_class_scores"),
        ),
        Misconception(
            "strict_inequality",
            "a strict < against the threshold, which drops the class whose score equals it",
            lambda *args: _wrong_lac(*args, mistake="strict_inequality"),
        ),
    ],
    hints=[
        "Calibration scores: `1 - cal_proba[np.arange(n), cal_labels]`, the score of each "
        "sample's *true* class. Their threshold comes from exercise 1.",
        "A class is in a test sample's set when its own score `1 - test_proba[i, j]` is at most "
        "the threshold: one comparison of the whole matrix `1 - test_proba` with a number.",
        "At most, not below: a class whose score equals the threshold belongs to the set (the "
        "calibration sample that set the threshold was covered too). An infinite threshold "
        "puts every class in.",
    ],
)

ex3 = ChoiceExercise(
    "ex3",
    title="What does 90 % coverage promise?",
    variable="answer_3",
    options={
        "a": (
            "Each prediction set contains the true class with probability 0.9, whatever the photo",
            "that would be coverage photo by photo, and it is not promised: for a hard photo "
            "the chance that its set holds the true class can be far below 0.9 (0.29 for the "
            "hardest photo in chapter 6c), and no method that assumes nothing about the "
            "distribution can promise it photo by photo, short of returning every class most "
            "of the time. The 0.9 is an average over photos and over calibration sets.",
        ),
        "b": (
            "For every insect class, 90 % of its photos get a set that contains it",
            "that is class-conditional coverage; the marginal guarantee averages over classes, "
            "and chapter 6c showed a rare class covered well under half the time.",
        ),
        "c": (
            "Over new photos drawn like the calibration photos, and over the draw of the "
            "calibration set, at least 90 % of the sets contain the true class",
            "that is the marginal guarantee: on average over calibration sets and exchangeable "
            "new samples, whatever the model.",
        ),
        "d": (
            "On this deployment's test set, at least 90 % of the sets will contain the true class",
            "one calibration set gives one coverage, and about half of all calibration sets "
            "fall below 0.9 (chapter 6c saw 0.858 in one of 300 splits); a promise for this "
            "deployment needs the higher PAC rank of chapter 6c. And if the deployment data are "
            "not drawn like the calibration data, there is no guarantee at all.",
        ),
    },
    answer="c",
    hints=[
        "Over what is the probability taken: one photo, one class, or new samples and the "
        "calibration set together?",
        "Look again at the histogram of coverage over 300 splits and at the table of coverage per "
        "class in chapter 6c.",
    ],
)

ex4 = ChoiceExercise(
    "ex4",
    title="An alpha and a construction for a triage tool",
    variable="answer_4",
    options={
        "a": (
            "alpha = 0.95 with LAC sets",
            "alpha is the share of sets allowed to *miss* the true diagnosis; 0.95 asks only "
            "that the sets contain it 5 % of the time.",
        ),
        "b": (
            "alpha = 0.05 with LAC sets, calibrated on held-out patients from the 2,000",
            "1 - alpha = 0.95 is the coverage asked for, patients the model never saw make the "
            "marginal guarantee hold, and LAC gave the smallest sets of the constructions in "
            "chapter 6c, which is what the doctors want. That guarantee is an average over "
            "calibration sets: calibrated on all 2,000 patients with the plain rank 1901, the "
            "one tool you deploy covers less than 95 % with probability 0.486. For this tool, "
            "not the average one, use the PAC rank of chapter 6c (1913 of 2,000 for 90 % "
            "confidence), and keep some patients out of the calibration to check it.",
        ),
        "c": (
            "alpha = 0.05 with plain (not randomised) APS sets",
            "plain APS is valid but over-covers: in chapter 6c it covered 99.7 % where 90 % was "
            "asked, with sets of 3.3 classes against 1.3 for LAC; the doctors asked for short "
            "lists.",
        ),
        "d": (
            "alpha = 0.05 with LAC sets, calibrated on the patients the model was trained on",
            "the model has seen those patients, so their scores look better than a new "
            "patient's: the threshold comes out too low and the sets too small to cover 95 %.",
        ),
    },
    answer="b",
    hints=[
        "Is alpha the coverage or the miscoverage?",
        "Which construction gave the smallest sets in chapter 6c, and on which samples must the "
        "scores be computed for the promise to hold?",
    ],
)

ex5 = ChoiceExercise(
    "ex5",
    title="What the guarantee says about a rare diagnosis",
    variable="answer_5",
    options={
        "a": (
            "its sets also contain it for at least 95 % of such patients",
            "the promise is marginal, an average over all patients; in chapter 6c the rare "
            "earwig was covered 37 % of the time while the average was 90 %.",
        ),
        "b": (
            "nothing: measure its coverage on its own, and if it must be 95 %, calibrate a "
            "threshold per diagnosis on enough patients with it",
            "the common diagnoses can carry the average: with the other 95 % of patients always "
            "covered, the rare one could be missed every time and the marginal coverage would "
            "still be 0.95. Class-conditional calibration gives a promise per class (again on "
            "average over calibration sets), at the price of enough calibration patients of "
            "each: with fewer than 19 patients of a diagnosis, alpha = 0.05 is below "
            "1 / (n + 1), its threshold is infinite, and that diagnosis joins every list.",
        ),
        "c": (
            "at least 95 % minus its share of the patients, so 90 %",
            "no such bound exists: 0.95 of the patients in the other diagnoses, all covered, "
            "already reach 0.95 with the rare diagnosis covered not at all.",
        ),
        "d": (
            "switching from LAC to APS brings its coverage up to 95 %",
            "APS sets grow where the model is unsure, which helps a rare class a little (52 % "
            "against 37 % for the earwig in chapter 6c), but APS makes no promise per class "
            "either.",
        ),
    },
    answer="b",
    hints=[
        "Write the marginal coverage as the average of the per-diagnosis coverages, weighted by "
        "how common each diagnosis is.",
        "How low can the rare diagnosis's coverage be while that average is still 0.95?",
    ],
)
