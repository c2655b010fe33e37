"""Exercises for chapter 9, *After deployment: monitoring a classifier*.

=====  ===========================================================================================
ex1    the F1 of a window of batches, from pooled counts                        ``window_f1``
ex2    Page's CUSUM of the error indicator                                      ``cusum_statistic``
ex3    judgement: a daily accuracy rule over a year (a letter)
ex4    judgement: a drift alarm with no accuracy drop (a letter)
=====  ===========================================================================================

The functions below are the reference solutions, in plain NumPy (``mltutor.monitoring`` is
deliberately not used, so an exercise cannot inherit its bugs).
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, case

__all__ = ["ex1", "ex2", "ex3", "ex4"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def window_f1(batches):
    """F1 of the positive class 1 over all batches pooled: 2 TP / (2 TP + FP + FN); 0.0 if 0/0.

    ``batches`` is a list of ``(y_true, y_pred)`` pairs of 0/1 arrays.
    """
    tp = fp = fn = 0
    for y_true, y_pred in batches:
        t, p = np.asarray(y_true) == 1, np.asarray(y_pred) == 1
        tp += int(np.sum(t & p))
        fp += int(np.sum(~t & p))
        fn += int(np.sum(t & ~p))
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else 0.0


def cusum_statistic(errors, p0, p1):
    """S_t = max(0, S_{t-1} + log LR(x_t)), S_0 = 0, for Bernoulli(p1) against Bernoulli(p0)."""
    x = np.asarray(errors, dtype=float)
    inc = np.where(x == 1, np.log(p1 / p0), np.log((1 - p1) / (1 - p0)))
    out = np.empty(x.size)
    s = 0.0
    for i, v in enumerate(inc):
        s = max(0.0, s + v)
        out[i] = s
    return out


# --------------------------------------------------------------------------------------------
# Wrong versions (named misconceptions)
# --------------------------------------------------------------------------------------------


def _f1(t, p):
    t, p = np.asarray(t) == 1, np.asarray(p) == 1
    tp, fp, fn = np.sum(t & p), np.sum(~t & p), np.sum(t & ~p)
    den = 2 * tp + fp + fn
    return 2 * tp / den if den else 0.0


def _mean_of_batch_f1(batches):
    return float(np.mean([_f1(t, p) for t, p in batches]))


def _weighted_batch_f1(batches):
    sizes = np.array([len(t) for t, _ in batches], dtype=float)
    return float(np.average([_f1(t, p) for t, p in batches], weights=sizes))


def _last_batch_only(batches):
    return float(_f1(*batches[-1]))


def _no_reset(errors, p0, p1):
    x = np.asarray(errors, dtype=float)
    return np.cumsum(np.where(x == 1, np.log(p1 / p0), np.log((1 - p1) / (1 - p0))))


def _ratio_upside_down(errors, p0, p1):
    return cusum_statistic(errors, p1, p0)


def _errors_only(errors, p0, p1):
    x = np.asarray(errors, dtype=float)
    out, s = np.empty(x.size), 0.0
    for i, v in enumerate(x):
        s = max(0.0, s + (np.log(p1 / p0) if v == 1 else 0.0))
        out[i] = s
    return out


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _batches(sizes, prevalence, seed, recall=0.8, fpr=0.02):
    rng = np.random.default_rng(seed)
    out = []
    for n in sizes:
        y = (rng.random(n) < prevalence).astype(int)
        p = np.where(y == 1, rng.random(n) < recall, rng.random(n) < fpr).astype(int)
        out.append((y, p))
    return out


def _a(values):
    return np.array(values, dtype=int)


ex1 = Exercise(
    "ex1",
    title="The F1 of a window of batches",
    reference=window_f1,
    cases=[
        case(
            [(_a([1, 0, 0, 0]), _a([1, 1, 1, 1])), (_a([1, 1, 1, 1]), _a([1, 1, 1, 0]))],
            note="two batches of four: the batch mean and the pooled F1 differ",
        ),
        case(_batches([20] * 10, 0.05, seed=1), note="ten batches of 20, 5 % positives"),
        case(_batches([50, 5, 200, 12], 0.2, seed=2), note="batches of different sizes"),
        case(
            [(_a([0, 0, 0]), _a([0, 0, 0])), (_a([1, 0, 1]), _a([1, 0, 0]))],
            note="a batch with no positive and no positive prediction (F1 0/0 in that batch)",
        ),
        case(
            [(_a([0, 0]), _a([0, 0])), (_a([0, 0, 0]), _a([0, 0, 0]))],
            note="no positive anywhere: 0/0 for the window, return 0.0",
        ),
        case([(_a([1, 1, 0]), _a([0, 0, 1]))], note="a single batch"),
        case(_batches([100] * 30, 0.02, seed=3), note="thirty batches of 100, 2 % positives"),
    ],
    misconceptions=[
        Misconception(
            "mean_of_batch_f1",
            "the mean of the batches' F1 (the post's monitor) "
            "instead of the F1 of the pooled counts",
            _mean_of_batch_f1,
        ),
        Misconception(
            "size_weighted_batch_f1",
            "the batches' F1 weighted by batch size, still not the F1 of the pooled counts",
            _weighted_batch_f1,
        ),
        Misconception("last_batch_only", "the F1 of the last batch only", _last_batch_only),
    ],
    hints=[
        "Add up TP, FP and FN over all the batches first; compute F1 once at the end.",
        "F1 = 2 TP / (2 TP + FP + FN). A batch with no positive and no positive prediction adds "
        "nothing to the counts, and it must not add a 0 to an average either.",
        "If the whole window has 2 TP + FP + FN = 0, return 0.0 (scikit-learn's default "
        "zero_division).",
    ],
)

_RNG = np.random.default_rng(9)

ex2 = Exercise(
    "ex2",
    title="Page's CUSUM of the error indicator",
    reference=cusum_statistic,
    cases=[
        case(_a([0, 0, 1, 1, 1, 1]), 0.1, 0.5, note="two correct, then four errors"),
        case(_a([1, 0, 0, 0, 0, 0, 0, 0]), 0.2, 0.4, note="one error, then a long quiet run"),
        case(_a([0] * 10), 0.1, 0.3, note="no error at all: the statistic stays at 0"),
        case(
            (_RNG.random(200) < 0.15).astype(int),
            0.15,
            0.2,
            note="200 labels at the in-control error rate",
        ),
        case((_RNG.random(200) < 0.3).astype(int), 0.15, 0.3, note="200 labels after a drop"),
        case(_a([1, 1, 0, 1, 0, 0, 1, 1, 1, 0]), 0.3, 0.6, note="ten labels, p0 = 0.3"),
    ],
    misconceptions=[
        Misconception(
            "no_reset",
            "a running sum of the log-likelihood ratios, without restarting at 0",
            _no_reset,
        ),
        Misconception(
            "ratio_upside_down",
            "log(p0 / p1) instead of log(p1 / p0): it detects a fall in the error rate",
            _ratio_upside_down,
        ),
        Misconception(
            "errors_only",
            "adding log(p1 / p0) for an error and nothing for a correct prediction",
            _errors_only,
        ),
    ],
    hints=[
        "For an error (x = 1) add log(p1 / p0); for a correct prediction add "
        "log((1 - p1) / (1 - p0)), which is negative when p1 > p0.",
        "After each step take max(0, S): the statistic restarts whenever the evidence "
        "points back to p0.",
        "Return the statistic after each label, one value per element of errors.",
    ],
)

ex3 = ChoiceExercise(
    "ex3",
    title="A daily accuracy rule over a year",
    variable="answer_3",
    options={
        "a": (
            "About 5 %: the threshold 0.82 is about two standard errors below 0.85",
            "that is the false-alarm probability of one check (about 0.10 in chapter 9 for "
            "200 labels, since 0.82 sits about 1.2 standard errors below 0.85); a year "
            "holds 365 checks, and 1 - (1 - 0.10)^365 is 1.0000 to four decimals.",
        ),
        "b": (
            "Close to certain: each day's check has a false-alarm probability near 0.10, and "
            "365 of them compound",
            "with a per-day probability p the chance of at least one alarm in a year is "
            "1 - (1 - p)^365; the chapter computes it exactly and by simulating 2000 years.",
        ),
        "c": (
            "Zero, since the model never changed",
            "the model did not change but the day's accuracy is a proportion of 200 noisy "
            "outcomes; it falls below 0.82 on about one day in ten.",
        ),
        "d": (
            "It cannot be known without the labels of the coming year",
            "the false-alarm rate of a rule on a model that did not change is a property of "
            "the rule and the noise: the binomial distribution gives it before any label "
            "arrives.",
        ),
    },
    answer="b",
    hints=[
        "What is the chance of one false alarm on one day? The daily accuracy of 200 labels "
        "is a binomial proportion.",
        "Over 365 independent days, what is the chance that none of them fires?",
    ],
)

ex4 = ChoiceExercise(
    "ex4",
    title="A drift alarm, and no accuracy drop",
    variable="answer_4",
    options={
        "a": (
            "Retrain at once: a PSI of 3 means the model is broken",
            "a PSI measures how far the scores' distribution moved, not whether the model is "
            "wrong; in chapter 9 a PSI of 3.288 came with accuracy rising from 0.770 to "
            "0.912.",
        ),
        "b": (
            "Look at the labelled accuracy and its interval: the scores moved, but the "
            "labels so far show no drop; keep watching the labelled error rate with an alarm "
            "whose false-alarm rate is controlled",
            "drift is a reason to look, and labels (late as they are) are what measure "
            "degradation; the error-rate monitor or a CUSUM tells you when they show one.",
        ),
        "c": (
            "Ignore drift statistics from now on: they are useless",
            "drift can come before a drop that the late labels have not yet shown, and under "
            "prior shift it tells you the prevalence moved (so precision did); it is a "
            "reason to look, not a verdict.",
        ),
        "d": (
            "Trust the accuracy estimated from the model's own probabilities: it shows no "
            "drop, so nothing changed",
            "that estimate assumes the probabilities are calibrated on the deployed data; "
            "under concept shift in chapter 9 it reported 0.773 while the true accuracy was "
            "0.637.",
        ),
    },
    answer="b",
    hints=[
        "What does a PSI measure: a change in the scores' distribution, or a change in how "
        "often the model is right?",
        "Which quantity in the chapter measured degradation directly, and what did it need?",
    ],
)
