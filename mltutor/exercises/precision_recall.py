"""Exercises for chapter 3, *Precision, recall and thresholds*.

=====  =========================================================================================
ex1    precision and recall from counts, 0/0 -> ``zero_division``     ``precision_recall``
ex2    precision, recall and F1 at a threshold (score >= t)           ``metrics_at_threshold``
ex3    the cost-optimal threshold on calibrated probabilities         ``cost_optimal_threshold``
ex4    coverage and accuracy of a human-review band                   ``review_band``
ex5    precision at every threshold of a small sweep                  an array
ex6    judgement: a threshold for the fraud queue (a number)
ex7    judgement: an operating point for screening (a letter)
ex8    judgement: the threshold to ship for a deployment recall of 0.9 (a number)
ex9    judgement: where a decision curve says the model is useful (a letter)
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (the chapter's own
``mltutor.metrics`` and ``mltutor.curves`` are deliberately not used, so an exercise cannot
inherit their bugs).  Every case is small enough to check by hand, except two seeded ones.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, ValueExercise, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "ex9"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def precision_recall(tp, fp, fn, zero_division=0.0):
    """Precision tp / (tp + fp) and recall tp / (tp + fn); a 0/0 gives `zero_division`."""
    flagged = tp + fp  # everything the model called positive
    present = tp + fn  # everything that really is positive
    precision = tp / flagged if flagged > 0 else zero_division
    recall = tp / present if present > 0 else zero_division
    return float(precision), float(recall)


def metrics_at_threshold(y_true, y_score, threshold):
    """Precision, recall and F1 when `y_score >= threshold` means positive; 0/0 -> 0.0."""
    actual = np.asarray(y_true) == 1
    flagged = np.asarray(y_score) >= threshold  # ties at the threshold count as positive
    tp = np.sum(actual & flagged)
    fp = np.sum(~actual & flagged)
    fn = np.sum(actual & ~flagged)
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    # F1 = 2PR / (P + R) = 2TP / (2TP + FP + FN): undefined only when tp + fp + fn == 0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn > 0 else 0.0
    return float(precision), float(recall), float(f1)


def cost_optimal_threshold(c_fp, c_fn):
    """Flag an item with calibrated probability p when p >= c_fp / (c_fp + c_fn)."""
    # Flagging costs (1 - p) * c_fp on average, not flagging costs p * c_fn.
    # Flag when (1 - p) * c_fp <= p * c_fn, that is when p >= c_fp / (c_fp + c_fn).
    return c_fp / (c_fp + c_fn)


def review_band(y_true, y_score, low, high):
    """Coverage and accuracy of an automatic decision that sends low <= score < high to a human.

    Scores >= high are decided positive, scores < low negative; the rest go to review.
    Returns (coverage, accuracy on the covered part); accuracy is 0.0 when nothing is covered.
    """
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score)
    covered = (y_score < low) | (y_score >= high)  # decided automatically
    decision = (y_score >= high).astype(int)  # 1 above the band, 0 below it
    coverage = covered.mean() if y_true.size else 0.0
    n_covered = covered.sum()
    correct = np.sum(covered & (decision == y_true))
    accuracy = correct / n_covered if n_covered > 0 else 0.0
    return float(coverage), float(accuracy)


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=float):
    return np.array(values, dtype=dtype)


def _calibrated(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Calibrated scores: p drawn from a Beta distribution, then y ~ Bernoulli(p)."""
    rng = np.random.default_rng(seed)
    p = np.round(rng.beta(0.7, 1.6, size=n), 2)  # two decimals: many ties, as in real scores
    y = (rng.random(n) < p).astype(int)
    return y, p


_Y5 = _a([1, 0, 1, 1, 0], int)
_S5 = _a([0.9, 0.4, 0.75, 0.65, 0.2])
_Y_BIG, _S_BIG = _calibrated(400, seed=3)

ex1 = Exercise(
    "ex1",
    title="Precision and recall from counts",
    reference=precision_recall,
    outputs=("precision", "recall"),
    cases=[
        case(15, 0, 5, note="the spam filter: nothing wrongly flagged"),
        case(6, 4, 14, note="a search that returns 10 documents, 6 of the 20 relevant ones"),
        case(0, 0, 5, note="nothing flagged: precision is 0/0"),
        case(0, 3, 0, note="no positives at all: recall is 0/0"),
        case(0, 0, 0, zero_division=1.0, note="zero_division=1.0"),
        case(0, 0, 7, zero_division=1.0, note="nothing flagged, zero_division=1.0"),
        case(np.int64(36), np.int64(90), np.int64(4), note="NumPy integer counts"),
        case(0, 12, 8, zero_division=1.0, note="flags only wrong ones"),
    ],
    hints=[
        "Precision asks *of what I flagged, how much was right?*: divide by tp + fp. Recall asks "
        "*of what was there, how much did I find?*: divide by tp + fn.",
        "Test each denominator before dividing: `tp / flagged if flagged > 0 else zero_division`.",
        "A 0/0 is not 0 by nature: it is whatever `zero_division` says. Do not add a small eps to "
        "the denominator either; 15 / (15 + 1e-6) is not 1.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="Precision, recall and F1 at a threshold",
    reference=metrics_at_threshold,
    outputs=("precision", "recall", "f1"),
    cases=[
        case(_Y5, _S5, 0.5, note="five samples, threshold 0.5"),
        case(_Y5, _S5, 0.7, note="five samples, threshold 0.7"),
        case(
            _a([1, 0, 1, 0, 1], int),
            _a([0.8, 0.6, 0.6, 0.3, 0.2]),
            0.6,
            note="scores equal to the threshold",
        ),
        case(_Y5, _S5, 0.95, note="threshold above every score"),
        case(_a([0, 0, 0, 0], int), _a([0.1, 0.7, 0.4, 0.9]), 0.5, note="no positives at all"),
        case(
            _a([1, 0, 1, 1], int),
            _a([0.3, 0.2, 0.9, 0.1]),
            0.0,
            note="threshold 0: flag everything",
        ),
        case(_a([1, 1, 0, 0, 0], int), _a([0.2, 0.1, 0.9, 0.8, 0.7]), 0.5, note="every flag wrong"),
        case(_Y_BIG, _S_BIG, 0.35, note="400 calibrated scores with ties, threshold 0.35"),
    ],
    hints=[
        "First turn the scores into decisions: `flagged = y_score >= threshold`. A score exactly "
        "equal to the threshold counts as positive (scikit-learn's convention).",
        "Then count tp, fp and fn with `&` and `~`, as in chapter 1, and divide. Return 0.0 "
        "for any 0/0.",
        "F1 is the harmonic mean 2PR / (P + R) = 2tp / (2tp + fp + fn), not the average (P + R) / 2.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="The cost-optimal threshold",
    reference=cost_optimal_threshold,
    cases=[
        case(1.0, 1.0, note="equal costs"),
        case(1.0, 9.0, note="a miss costs nine false alarms"),
        case(5.0, 1.0, note="a false alarm costs five misses"),
        case(2.0, 200.0, note="fraud: review 2, missed fraud 200"),
        case(0.5, 1.5, note="small costs: 0.5 and 1.5"),
        case(3, 7, note="integer costs"),
        case(30.0, 10.0, note="a false alarm costs three misses"),
    ],
    hints=[
        "For one item with calibrated probability p, flagging it costs c_fp with probability "
        "1 - p (it is a false alarm), and not flagging it costs c_fn with probability p (a miss).",
        "Flag when the expected cost of flagging is no larger: (1 - p) c_fp <= p c_fn. Solve for p.",
        "Sanity check: when misses are expensive (c_fn large), the threshold must be *low*, so "
        "that more items are flagged.",
    ],
)

ex4 = Exercise(
    "ex4",
    title="Coverage and accuracy of a review band",
    reference=review_band,
    outputs=("coverage", "accuracy"),
    cases=[
        case(
            _a([1, 0, 1, 0, 1, 0, 0, 1], int),
            _a([0.9, 0.1, 0.6, 0.55, 0.3, 0.8, 0.2, 0.72]),
            0.5,
            0.7,
            note="a band from 0.5 to 0.7",
        ),
        case(
            _a([1, 0, 1, 0, 1, 0], int),
            _a([0.5, 0.7, 0.65, 0.2, 0.95, 0.1]),
            0.5,
            0.7,
            note="scores exactly on the band's edges",
        ),
        case(
            _a([0, 1, 1, 0, 0, 0], int),
            _a([0.45, 0.35, 0.9, 0.1, 0.65, 0.2]),
            0.3,
            0.6,
            note="a band that does not start at 0.5",
        ),
        case(
            _a([0, 1, 0, 1, 0, 1], int),
            _a([0.55, 0.85, 0.3, 0.7, 0.65, 0.95]),
            0.6,
            0.8,
            note="a band above 0.5",
        ),
        case(_a([1, 0, 1], int), _a([0.55, 0.6, 0.65]), 0.5, 0.7, note="everything goes to review"),
        case(
            _a([1, 0, 0, 1], int),
            _a([0.8, 0.2, 0.4, 0.9]),
            0.5,
            0.5,
            note="an empty band: no review",
        ),
        case(_Y_BIG, _S_BIG, 0.2, 0.6, note="400 calibrated scores, band from 0.2 to 0.6"),
    ],
    hints=[
        "Make a mask `covered` of the samples the system decides by itself: score below `low` "
        "or at least `high`. The band [low, high) goes to a human.",
        "Coverage is the share of *all* samples that are covered. The automatic decision is "
        "positive when score >= high and negative when score < low.",
        "Accuracy counts correct automatic decisions among the *covered* samples only, so divide "
        "by the number of covered samples (and return 0.0 when there are none).",
    ],
)

_Y_SWEEP = _a([1, 1, 0, 1, 0, 0, 1, 0], int)
_S_SWEEP = _a([0.95, 0.85, 0.8, 0.7, 0.6, 0.6, 0.4, 0.3])


def _precision_at_every_score(y_true, y_score):
    thresholds = np.unique(y_score)[::-1]  # distinct scores, highest first
    flagged = y_score[None, :] >= thresholds[:, None]
    return (flagged & (y_true == 1)).sum(axis=1) / flagged.sum(axis=1)


ex5 = ValueExercise(
    "ex5",
    variable="precision_sweep",
    title="Precision at every threshold",
    answer=_precision_at_every_score(_Y_SWEEP, _S_SWEEP),
    atol=5e-4,
    hints=[
        "The useful thresholds are the distinct scores: 0.95, 0.85, 0.8, 0.7, 0.6, 0.4 and 0.3. "
        "At threshold t every sample with score >= t is flagged.",
        "Both samples with score 0.6 are flagged together, so there is one precision value for "
        "threshold 0.6, not two. The array has seven entries, highest threshold first.",
    ],
    solution="""
        y_true = np.array([1, 1, 0, 1, 0, 0, 1, 0])
        y_score = np.array([0.95, 0.85, 0.8, 0.7, 0.6, 0.6, 0.4, 0.3])
        # distinct scores, highest first; at each, the share of positives among the flagged cases
        precision_sweep = np.array([y_true[y_score >= t].mean() for t in np.unique(y_score)[::-1]])
        """,
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex6 = ValueExercise(
    "ex6",
    kind="judgement",
    title="A threshold for the fraud queue",
    variable="threshold_6",
    answer=5 / 95,
    rtol=0.0,
    atol=0.001,
    wrong_answers=[
        (
            0.95,
            "that threshold swaps the roles of the two costs: expensive misses call for a *low* "
            "threshold, so that more is flagged.",
        ),
        (
            0.05,
            "5 / (5 + 95) charges the 5 € review to the legitimate transactions only, but every "
            "flagged transaction is reviewed, frauds included: a caught fraud costs 5 €, not 0. "
            "Compare the expected cost of flagging with that of not flagging.",
        ),
        (
            0.5,
            "0.5 minimises the number of errors, which is right only when both errors cost the same.",
        ),
        (
            90 / 95,
            "that threshold swaps the roles of the two costs: expensive misses call for a *low* "
            "threshold, so that more is flagged, and this one flags almost nothing.",
        ),
        (
            5 / 90,
            "that divides one cost by the other; the threshold is the probability at which the "
            "expected cost of flagging equals the expected cost of not flagging.",
        ),
    ],
    hints=[
        "List what each decision costs. Flagging: the 5 € review, whether or not the transaction "
        "is a fraud. Not flagging: 95 € if it is a fraud (probability p), nothing otherwise.",
        "Flag when the expected cost of flagging is no larger than that of not flagging, and "
        "solve for p.",
        "The formula C_FP / (C_FP + C_FN) counts each cost relative to the correct decision. "
        "What does the correct decision for a fraud, flagging it, cost here?",
    ],
    solution="threshold_6 = 5 / 95  # flagging costs 5 for sure, not flagging 95 * p",
)

ex7 = ChoiceExercise(
    "ex7",
    title="An operating point for screening",
    variable="answer_7",
    options={
        "a": (
            "0.5, because the model is calibrated",
            "0.5 minimises errors when a miss and a false alarm cost the same; here a miss costs"
            " far more, and the programme sets a recall target that 0.5 need not meet.",
        ),
        "b": (
            "the highest threshold at which a one-sided 95 % lower confidence bound for the "
            "recall, computed from the validation positives, is at least 0.95",
            "the bound keeps a margin for the sampling noise of the validation recall, so the "
            "target holds in the population in at least 95 % of validation studies (for "
            "continuous scores and validation positives drawn independently from that "
            "population), and it shows when there are too few positives to promise it. "
            "Among the thresholds that qualify the highest sends the fewest people to the "
            "follow-up: the bound, like the recall, never rises with the threshold.",
        ),
        "c": (
            "the highest threshold whose recall on validation data is at least 0.95",
            "that threshold sits at the edge of a noisy estimate: on the population it will "
            "screen, its recall falls below 0.95 about half the time (chapter 3 simulates it), "
            "and the programme asks for at least 95 %. It needs a margin.",
        ),
        "d": (
            "the threshold with the highest precision",
            "the highest precision usually comes at a high threshold that sends few people on "
            "and misses many of the sick: the opposite of what the programme asks.",
        ),
        "e": (
            "the threshold with the highest accuracy",
            "when the sick are rare, the most accurate threshold tends to flag few people, and "
            "accuracy does not see the misses the programme cares about.",
        ),
    },
    answer="b",
    hints=[
        "Which metric does the programme's 95 % speak about, and on whom: the validation set or "
        "the population it will screen?",
        "A validation recall is an estimate from a finite sample. At the threshold where it just "
        "reaches 0.95, how often is the true recall below 0.95?",
        "Recall can only fall or stay the same as the threshold rises, and so can a lower "
        "confidence bound for it. Among the thresholds that qualify, which one flags the fewest "
        "people?",
    ],
)


def _ex8_validation_set() -> tuple[np.ndarray, np.ndarray]:
    """200 sick (scores from N(1, 1)) then 800 healthy (N(-1, 1)), two decimals, seed 30."""
    rng = np.random.default_rng(30)
    y = np.repeat([1, 0], [200, 800])
    scores = np.round(np.r_[rng.normal(1.0, 1.0, 200), rng.normal(-1.0, 1.0, 800)], 2)
    return y, scores


EX8_Y, EX8_SCORES = _ex8_validation_set()


def _ex8_threshold(k_needed: int) -> float:
    """The highest distinct score that keeps at least `k_needed` of the validation positives."""
    positives = np.sort(EX8_SCORES[EX8_Y == 1])[::-1]  # highest first
    return float(positives[k_needed - 1])


def _ex8_bound_threshold(min_recall: float, confidence: float) -> float:
    """Highest threshold whose one-sided Clopper-Pearson lower bound of recall >= min_recall.

    With k of the n positives kept, the lower bound at level c is at least r exactly when
    P(Binomial(n, r) >= k) <= 1 - c (the bound is the p at which that tail reaches 1 - c, and
    the tail rises with p); the fewest k that qualify give the threshold.  Plain NumPy.
    """
    n = int(np.sum(EX8_Y == 1))
    j = np.arange(n + 1)
    log_factorial = np.r_[0.0, np.cumsum(np.log(np.arange(1, n + 1)))]  # log(i!), i = 0..n
    log_choose = log_factorial[n] - log_factorial - log_factorial[::-1]
    pmf = np.exp(log_choose + j * np.log(min_recall) + (n - j) * np.log1p(-min_recall))
    tail = np.cumsum(pmf[::-1])[::-1]  # tail[k] = P(X >= k)
    k = np.flatnonzero(tail[1:] <= 1 - confidence)[0] + 1
    return _ex8_threshold(int(k))


ex8 = ValueExercise(
    "ex8",
    kind="judgement",
    title="The threshold to ship for a recall of 0.9",
    variable="threshold_8",
    answer=_ex8_bound_threshold(0.9, 0.95),
    rtol=0.0,
    atol=0.004,
    wrong_answers=[
        (
            _ex8_threshold(180),
            "that is the highest threshold whose validation recall reaches 0.9: it takes the "
            "validation recall for the deployed recall. Chosen at the edge of a noisy estimate, "
            "such a threshold falls short of the target in the population about half the time, "
            "and the programme accepts a 5 % risk.",
        ),
        (
            float(np.min(EX8_SCORES[EX8_Y == 1])),
            "keeping every validation positive looks safest, but a lower threshold is not free: "
            "it flags 78 % of the healthy here, and the programme asks for the threshold that "
            "flags the fewest people among those that keep the promise.",
        ),
        (
            _ex8_bound_threshold(0.9, 0.975),
            "that is the lower end of a two-sided 95 % interval, a one-sided 97.5 % bound: a "
            "stronger promise than the programme asked for, paid for in false alarms.",
        ),
        (
            _ex8_threshold(190),
            "aiming at 0.95 on validation adds a margin of fixed size, which ignores how many "
            "positives the validation set has: too small for a few dozen, larger than needed "
            "here. The margin should come from a confidence bound.",
        ),
    ],
    hints=[
        "The promise is about the population, with a 5 % risk: you need a one-sided 95 % lower "
        "confidence bound for the recall, computed from the 200 validation positives.",
        "In the chapter, `threshold_for_recall(..., confidence=0.95)` from `mltutor.curves` "
        "does it; here by hand (the grader has no mltutor): the Clopper-Pearson lower bound "
        "with k of n positives kept is at least r when P(Binomial(n, r) >= k) <= 0.05.",
        "The bound falls as the threshold rises. Among the thresholds whose bound is at least "
        "0.9, the highest flags the fewest people.",
    ],
    solution="""
        from mltutor.curves import threshold_for_recall
        from mltutor.exercises.precision_recall import EX8_SCORES, EX8_Y

        point = threshold_for_recall(EX8_Y, EX8_SCORES, min_recall=0.9, confidence=0.95)
        threshold_8 = point.threshold
        """,
)


def _ex9_cases() -> tuple[np.ndarray, np.ndarray]:
    """3,000 cases with risk p ~ Beta(1.2, 4), y ~ Bernoulli(p), scored sqrt(p) (overstated)."""
    rng = np.random.default_rng(9)
    p = rng.beta(1.2, 4.0, size=3000)
    y = (rng.random(3000) < p).astype(int)
    return y, np.sqrt(p)


EX9_Y, EX9_SCORES = _ex9_cases()

ex9 = ChoiceExercise(
    "ex9",
    title="Where is the model useful?",
    variable="answer_9",
    options={
        "a": (
            "at p_t from 0.05 to 0.25, the rows where its net benefit is above both treat all "
            "and treat none",
            "a strategy is worth using where it beats both defaults, and a decision maker reads "
            "the curve at the p_t they would choose: from 0.30 on, treating nobody does better "
            "than treating by this model's scores.",
        ),
        "b": (
            "at every p_t in the table, because its net benefit is above treat all in every row",
            "treat all is only one of the two defaults. From 0.30 on the model's net benefit is "
            "negative, below treating nobody: there its stated risks send more false positives "
            "than its true positives are worth.",
        ),
        "c": (
            "only at p_t = 0.05, where its net benefit is highest",
            "net benefit tends to fall as p_t rises, because a false positive is charged more "
            "(treat all falls in every row); the model's largest value says nothing about where "
            "it beats the defaults. Compare the strategies row by row, at the p_t of the "
            "decision.",
        ),
        "d": (
            "at every p_t in the table, because its ROC AUC is well above 0.5",
            "the ROC AUC sees only the ranking. Treating when the stated risk passes p_t uses "
            "the risks themselves, and these are overstated: net benefit, which scores the "
            "decisions, shows the model below treating nobody from 0.30 on.",
        ),
    },
    answer="a",
    hints=[
        "A decision curve has three lines: the model, treat all and treat none (net benefit 0). "
        "At a given p_t, which one is highest?",
        "Net benefit tends to fall as p_t rises, since each false positive costs "
        "p_t / (1 - p_t) true positives. Compare the lines row by row, not the model's row "
        "with its other rows.",
        "A good ranking is not enough: the rule treats when the stated risk reaches p_t, so the "
        "risks must be right too.",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_precision_recall.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_ex1_swapped(tp, fp, fn, zero_division=0.0):
    p, r = precision_recall(tp, fp, fn, zero_division)
    return r, p


def _wrong_ex1_epsilon(tp, fp, fn, zero_division=0.0):
    eps = 1e-6
    return tp / (tp + fp + eps), tp / (tp + fn + eps)


def _wrong_ex1_ignores_zero_division(tp, fp, fn, zero_division=0.0):
    return precision_recall(tp, fp, fn, 0.0)


def _wrong_counts(y_true, y_score, t, strict=False):
    flagged = y_score > t if strict else y_score >= t
    actual = y_true == 1
    return np.sum(actual & flagged), np.sum(~actual & flagged), np.sum(actual & ~flagged)


def _wrong_prf(tp, fp, fn, zero=0.0):
    p = tp / (tp + fp) if tp + fp else zero
    r = tp / (tp + fn) if tp + fn else zero
    f = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    return float(p), float(r), float(f)


def _wrong_ex2_strict_greater(y_true, y_score, threshold):
    return _wrong_prf(*_wrong_counts(y_true, y_score, threshold, strict=True))


def _wrong_ex2_swapped(y_true, y_score, threshold):
    p, r, f = _wrong_prf(*_wrong_counts(y_true, y_score, threshold))
    return r, p, f


def _wrong_ex2_arithmetic_mean(y_true, y_score, threshold):
    p, r, _ = _wrong_prf(*_wrong_counts(y_true, y_score, threshold))
    return p, r, (p + r) / 2


def _wrong_ex3_swapped_costs(c_fp, c_fn):
    return c_fn / (c_fp + c_fn)


def _wrong_ex3_ratio(c_fp, c_fn):
    return c_fp / c_fn


def _wrong_ex3_always_half(c_fp, c_fn):
    return 0.5


def _wrong_band(
    y_true, y_score, low, high, *, in_band=None, decide_at=None, over_all=False, nan=False
):
    if in_band is None:
        in_band = (y_score >= low) & (y_score < high)
    covered = ~in_band
    decision = (y_score >= (high if decide_at is None else decide_at)).astype(int)
    correct = np.sum(covered & (decision == y_true))
    coverage = covered.mean() if y_true.size else 0.0
    denominator = y_true.size if over_all else covered.sum()
    if denominator == 0:
        return float(coverage), (float("nan") if nan else 0.0)
    return float(coverage), float(correct / denominator)


def _wrong_ex4_coverage_of_the_band(y_true, y_score, low, high):
    coverage, accuracy = _wrong_band(y_true, y_score, low, high)
    return 1 - coverage, accuracy


def _wrong_ex4_accuracy_over_all_cases(y_true, y_score, low, high):
    return _wrong_band(y_true, y_score, low, high, over_all=True)


def _wrong_ex4_band_includes_high(y_true, y_score, low, high):
    return _wrong_band(y_true, y_score, low, high, in_band=(y_score >= low) & (y_score <= high))


ex1.misconceptions = [
    Misconception("swapped", "precision and recall swapped", _wrong_ex1_swapped),
    Misconception(
        "epsilon",
        "an epsilon in the denominator, tp / (tp + fp + 1e-6), which also makes a perfect "
        "score 0.999999",
        _wrong_ex1_epsilon,
    ),
    Misconception(
        "ignores_zero_division",
        "`zero_division` ignored: every 0/0 becomes 0",
        _wrong_ex1_ignores_zero_division,
    ),
]
ex2.misconceptions = [
    Misconception(
        "strict_greater",
        "`>` for `>=`: a score equal to the threshold must count as positive",
        _wrong_ex2_strict_greater,
    ),
    Misconception("swapped", "precision and recall swapped", _wrong_ex2_swapped),
    Misconception(
        "arithmetic_mean",
        "F1 as the arithmetic mean (P + R) / 2 instead of the harmonic mean",
        _wrong_ex2_arithmetic_mean,
    ),
]
ex3.misconceptions = [
    Misconception(
        "swapped_costs", "the costs swapped, c_fn / (c_fp + c_fn)", _wrong_ex3_swapped_costs
    ),
    Misconception(
        "ratio", "the cost ratio c_fp / c_fn instead of c_fp / (c_fp + c_fn)", _wrong_ex3_ratio
    ),
    Misconception("always_half", "the threshold 0.5 whatever the costs", _wrong_ex3_always_half),
]
ex4.misconceptions = [
    Misconception(
        "coverage_of_band",
        "the share *in* the review band as coverage, instead of the share decided automatically",
        _wrong_ex4_coverage_of_the_band,
    ),
    Misconception(
        "accuracy_over_all",
        "accuracy averaged over all cases instead of the covered ones",
        _wrong_ex4_accuracy_over_all_cases,
    ),
    Misconception(
        "band_includes_high",
        "a band that includes `high` (score <= high) instead of low <= score < high",
        _wrong_ex4_band_includes_high,
    ),
]
