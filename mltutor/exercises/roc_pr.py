"""Exercises for chapter 6, *ROC and precision-recall curves* and *Calibration and confidence intervals*.

=====  ===========================================================================================
ex1    ROC points by hand: (FPR, TPR) at every distinct score, ties together  ``roc_points``
ex2    AUC by counting (positive, negative) pairs, ties worth one half       ``auc_by_ranking``
ex3    average precision as a step sum                                       ``average_precision``
ex4    the temperature-scaling loss from logits, without overflow            ``nll_at_temperature``
ex5    fit a temperature by minimising that loss                             ``fit_temperature``
ex6    a paired bootstrap interval from given resample indices               ``paired_interval``
ex7    judgement: a curve for a rare disease (a letter)
ex8    judgement: is the difference real? (a letter)
ex9    a Wilson interval for a small class's recall                         ``wilson_interval``
ex10   McNemar's test: two classifiers on the same test set                  ``mcnemar_test``
ex11   DeLong's test: is the difference of two AUCs real?                    ``auc_difference_test``
=====  ===========================================================================================

The functions below are the reference solutions, in plain NumPy, with SciPy only for the
chi-square and normal tails of ex10 and ex11 (``mltutor.metrics``, ``mltutor.calibration`` and
``mltutor.stats`` are deliberately not used, so an exercise cannot inherit their bugs).
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, case


def _stats():
    """``scipy.stats``, imported by the references that need it: scipy is not a dependency of
    mltutor, so importing this module must not need it."""
    from scipy import stats

    return stats


__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "ex9", "ex10", "ex11"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def roc_points(y_true, y_score):
    """(fpr, tpr): the point (0, 0), then one point per distinct score, highest score first."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    order = np.argsort(-y_score, kind="stable")  # highest score first
    s, y = y_score[order], y_true[order]
    tps = np.cumsum(y == 1)  # positives with score >= s[k]
    fps = np.cumsum(y == 0)  # negatives with score >= s[k]
    last = np.r_[np.flatnonzero(np.diff(s)), s.size - 1]  # last sample of each run of ties
    fpr = np.r_[0.0, fps[last] / fps[-1]]
    tpr = np.r_[0.0, tps[last] / tps[-1]]
    return fpr, tpr


def auc_by_ranking(y_true, y_score):
    """P(score of a random positive > score of a random negative), a tie counting 1/2."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    diff = pos[:, None] - neg[None, :]  # one entry per (positive, negative) pair
    return float((np.sum(diff > 0) + 0.5 * np.sum(diff == 0)) / diff.size)


def average_precision(y_true, y_score):
    """AP = sum over distinct thresholds of (R_n - R_{n-1}) * P_n, from the highest score down."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    order = np.argsort(-y_score, kind="stable")
    s, y = y_score[order], y_true[order]
    tps, fps = np.cumsum(y == 1), np.cumsum(y == 0)
    last = np.r_[np.flatnonzero(np.diff(s)), s.size - 1]  # tied scores form one threshold
    precision = tps[last] / (tps[last] + fps[last])
    recall = tps[last] / tps[-1]
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def nll_at_temperature(logits, y_true, temperature):
    """Mean of -log softmax(logits / T)[true class], with log-sum-exp (no overflow, no log(0))."""
    z = np.asarray(logits, dtype=float) / temperature
    y = np.asarray(y_true)
    z_max = z.max(axis=1, keepdims=True)
    log_norm = z_max[:, 0] + np.log(np.sum(np.exp(z - z_max), axis=1))  # log sum_k exp(z_k)
    return float(np.mean(log_norm - z[np.arange(y.size), y]))


def fit_temperature(logits, y_true):
    """The T > 0 that minimises nll_at_temperature, found by bisection on beta = 1 / T.

    As a function of beta the NLL is convex, and its slope is the mean over samples of
    E_p[z] - z_true (p = softmax(beta * z)), which rises with beta: find where it crosses zero.
    """
    z = np.asarray(logits, dtype=float)
    y = np.asarray(y_true)

    def slope(beta):
        zb = beta * z
        p = np.exp(zb - zb.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        return np.mean(np.sum(p * z, axis=1) - z[np.arange(y.size), y])

    lo, hi = 0.0, 1.0
    while slope(hi) < 0:  # the minimum lies at a larger beta: double until the slope turns
        lo, hi = hi, 2 * hi
    for _ in range(200):  # bisection: the bracket halves each time
        mid = (lo + hi) / 2
        if slope(mid) < 0:
            lo = mid
        else:
            hi = mid
    return float(2 / (lo + hi))


def paired_interval(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    """Percentile interval of metric(a) - metric(b), both computed on the same resample rows."""
    y_true, pred_a, pred_b = np.asarray(y_true), np.asarray(pred_a), np.asarray(pred_b)
    diffs = np.array([metric(y_true[i], pred_a[i]) - metric(y_true[i], pred_b[i]) for i in indices])
    alpha = 1 - confidence_level
    low, high = np.quantile(diffs, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


# Metrics the ex6 cases pass in (plain NumPy as well).


def wilson_interval(k, n, z=1.959963984540054):
    """Wilson's interval for k successes in n trials (z = 1.96 for 95 %), as (low, high)."""
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return float(centre - half), float(centre + half)


def mcnemar_test(y_true, pred_a, pred_b, correction=True):
    """(b, c, pvalue): McNemar's chi-square test on the samples where exactly one model is right."""
    from scipy.stats import chi2

    y_true, pred_a, pred_b = np.asarray(y_true), np.asarray(pred_a), np.asarray(pred_b)
    right_a, right_b = pred_a == y_true, pred_b == y_true
    b = int(np.sum(right_a & ~right_b))  # only A right
    c = int(np.sum(~right_a & right_b))  # only B right
    statistic = (abs(b - c) - (1 if correction else 0)) ** 2 / (b + c)
    return b, c, float(chi2.sf(statistic, 1))


def auc_difference_test(auc_a, auc_b, covariance, alpha=0.05):
    """(z, pvalue, differs): DeLong's z for AUC_a - AUC_b, its two-sided p-value, and p < alpha."""
    from scipy.stats import norm

    cov = np.asarray(covariance, dtype=float)
    se = np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])  # the AUCs are correlated: subtract 2C
    z = (auc_a - auc_b) / se
    pvalue = 2 * norm.sf(abs(z))
    return float(z), float(pvalue), bool(pvalue < alpha)


def accuracy(y_true, y_pred):
    """Share of samples predicted correctly."""
    return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))


def roc_auc(y_true, y_score):
    """ROC AUC by counting pairs (the reference of ex2)."""
    return auc_by_ranking(y_true, y_score)


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=float):
    return np.array(values, dtype=dtype)


_Y10 = _a([1, 1, 0, 1, 0, 1, 0, 0, 1, 0], int)
_S10 = _a([9.5, 8.5, 8.0, 7.0, 7.0, 5.5, 4.5, 3.0, 2.0, 1.0])  # the chapter's ten patients, x 10


def _scored(n, seed, decimals=None, shift=1.0):
    """n shuffled labels (about 40 % positive) and noisy scores; rounded scores give ties."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = shift * y + rng.normal(0.0, 1.0, n)
    return y, (np.round(s, decimals) if decimals is not None else s)


_Y40, _S40 = _scored(40, seed=6)
_Y60T, _S60T = _scored(60, seed=60, decimals=0)  # many ties


def _logits(n, k, seed, scale):
    """Logits of a k-class model that is `scale` times too confident, and labels drawn from it."""
    rng = np.random.default_rng(seed)
    shown = rng.integers(0, k, n)
    z = rng.normal(0.0, 1.0, (n, k)) + 2.0 * np.eye(k)[shown]
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = (p.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1)
    return scale * z, y


_L_SMALL = _a([[2.0, 0.5, -1.0], [0.0, 1.5, 0.3], [1.0, 1.0, 3.0], [-0.5, 2.5, 0.0]])
_Y_SMALL = _a([0, 2, 2, 1], int)
_L_HUGE = _a([[800.0, 0.0, -300.0], [0.0, 900.0, 100.0], [-200.0, 0.0, 1000.0]])
_Y_HUGE = _a([0, 2, 1], int)  # two confident mistakes with logit gaps of 800 and 1000
_L_OVER, _Y_OVER = _logits(300, 4, seed=1, scale=2.5)
_L_UNDER, _Y_UNDER = _logits(300, 5, seed=2, scale=0.4)
_L_12, _Y_12 = _logits(400, 6, seed=3, scale=12.0)
_L_400, _Y_400 = _logits(200, 3, seed=4, scale=400.0)


def _resample_indices(n, n_resamples, seed):
    return np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))


_rng6 = np.random.default_rng(66)
_Y_CLS = _rng6.integers(0, 3, 80)
_A_CLS = np.where(_rng6.random(80) < 0.75, _Y_CLS, _rng6.integers(0, 3, 80))
_B_CLS = np.where(
    _rng6.random(80) < 0.15, _rng6.integers(0, 3, 80), _A_CLS
)  # A with some answers changed
_IDX_80 = _resample_indices(80, 200, seed=7)
_Y_BIN = (np.random.default_rng(67).random(50) < 0.4).astype(int)
_SHARED = _Y_BIN + np.random.default_rng(68).normal(0.0, 1.0, 50)
_SA = _SHARED + np.random.default_rng(69).normal(0.0, 0.4, 50)
_SB = _SHARED + 0.3 * _Y_BIN + np.random.default_rng(70).normal(0.0, 0.4, 50)
_IDX_50 = _resample_indices(50, 300, seed=8)

ex1 = Exercise(
    "ex1",
    title="ROC points by hand",
    reference=roc_points,
    outputs=("fpr", "tpr"),
    cases=[
        case(_Y10, _S10, note="ten patients, one tied pair"),
        case(_a([0, 1, 0, 1], int), _a([0.1, 0.4, 0.35, 0.8]), note="four samples, no ties"),
        case(_a([1, 1, 0, 0, 0], int), _a([0.9, 0.8, 0.3, 0.2, 0.1]), note="a perfect ranking"),
        case(_a([1, 0, 1, 0, 0], int), _a([0.5, 0.5, 0.5, 0.5, 0.5]), note="all scores equal"),
        case(
            _a([1, 0, 0, 1, 1, 0], int),
            _a([3.0, 3.0, 1.0, 1.0, 1.0, -2.0]),
            note="scores that are not probabilities, two tied groups",
        ),
        case(_a([0, 0, 1, 1], int), _a([0.9, 0.8, 0.2, 0.1]), note="a reversed ranking"),
        case(_Y60T, _S60T, note="60 samples, rounded scores with many ties"),
    ],
    hints=[
        "Sort the samples by score, highest first (`np.argsort(-y_score)`). Lowering the threshold "
        "one sample at a time, `np.cumsum(y == 1)` counts the true positives and "
        "`np.cumsum(y == 0)` the false positives.",
        "Divide by the totals: TPR = TP / P and FPR = FP / N, where P and N are the last entries "
        "of the two cumulative sums. Start with the point (0, 0), the threshold that flags "
        "nothing.",
        "Tied scores are one threshold: `score >= t` flags all of them at once. Keep only the last "
        "index of each run of equal sorted scores, e.g. `np.flatnonzero(np.diff(sorted_scores))` "
        "plus the final index.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="AUC by counting pairs",
    reference=auc_by_ranking,
    cases=[
        case(_a([0, 1, 0, 1], int), _a([0.1, 0.4, 0.35, 0.8]), note="four samples, no ties"),
        case(_Y10, _S10, note="ten patients, one tied pair"),
        case(_a([1, 0, 1, 0], int), _a([0.7, 0.7, 0.7, 0.7]), note="all scores equal"),
        case(_a([1, 1, 0, 0, 0], int), _a([0.9, 0.8, 0.3, 0.2, 0.1]), note="a perfect ranking"),
        case(_a([0, 0, 1, 1], int), _a([0.9, 0.8, 0.2, 0.1]), note="a reversed ranking"),
        case(
            _a([1, 0, 0, 0, 1, 0], int),
            _a([2.0, 2.0, 2.0, -1.0, 0.5, 0.5]),
            note="ties across and within the classes",
        ),
        case(_Y40, _S40, note="40 samples, no ties"),
        case(_Y60T, _S60T, note="60 samples, rounded scores with many ties"),
    ],
    hints=[
        "Split the scores: `pos = y_score[y_true == 1]`, `neg = y_score[y_true == 0]`. There are "
        "`len(pos) * len(neg)` pairs.",
        "`pos[:, None] - neg[None, :]` is a matrix with one entry per pair. Count the positive "
        "entries (the positive ranked higher) and the zero entries (ties).",
        "A tie counts one half. Divide by the number of pairs, not by the number of samples.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="Average precision as a step sum",
    reference=average_precision,
    cases=[
        case(_a([0, 1, 0, 1], int), _a([0.1, 0.4, 0.35, 0.8]), note="four samples, no ties"),
        case(
            _a([1, 0, 1, 1, 0], int),
            _a([0.9, 0.8, 0.7, 0.6, 0.5]),
            note="precision rises again after a false positive",
        ),
        case(_Y10, _S10, note="ten patients, one tied pair"),
        case(_a([1, 1, 0, 0, 0], int), _a([0.9, 0.8, 0.3, 0.2, 0.1]), note="a perfect ranking"),
        case(_a([1, 0, 1, 0, 0], int), _a([0.5, 0.5, 0.5, 0.5, 0.5]), note="all scores equal"),
        case(_a([0, 0, 0, 1], int), _a([0.9, 0.8, 0.7, 0.6]), note="the only positive ranked last"),
        case(_Y60T, _S60T, note="60 samples, rounded scores with many ties"),
    ],
    hints=[
        "Sort by score, highest first, and take cumulative sums of positives (TP) and negatives "
        "(FP). Precision is TP / (TP + FP), recall TP / P.",
        "Tied scores form one threshold: read precision and recall only at the last sample of "
        "each run of equal scores.",
        "AP = Σ (R_n − R_{n−1}) · P_n with R_0 = 0: each step's gain in recall times the "
        "precision *at the end* of the step. No trapezoids, no interpolation.",
    ],
)

ex4 = Exercise(
    "ex4",
    title="The temperature-scaling loss, from logits",
    reference=nll_at_temperature,
    cases=[
        case(_L_SMALL, _Y_SMALL, 1.0, note="four samples, T = 1"),
        case(_L_SMALL, _Y_SMALL, 2.0, note="four samples, T = 2"),
        case(_L_SMALL, _Y_SMALL, 0.25, note="T < 1 sharpens"),
        case(_a([[0.0, 0.0], [1.0, -1.0]]), _a([1, 0], int), 1.0, note="two classes"),
        case(_L_HUGE, _Y_HUGE, 1.0, note="huge logits with confident mistakes"),
        case(_L_HUGE, _Y_HUGE, 50.0, note="huge logits, T = 50"),
        case(_L_OVER, _Y_OVER, 2.5, note="300 samples of an over-confident model"),
    ],
    hints=[
        "Divide the logits by T first. The log-probability of class k is "
        "z_k − log Σ_j exp(z_j): compute it in that form, not as `np.log(softmax(z))`.",
        "`np.exp(1000.0)` overflows to inf. Subtract each row's maximum m before exponentiating: "
        "log Σ_j exp(z_j) = m + log Σ_j exp(z_j − m), and every exponent is then ≤ 0.",
        "Pick each sample's true-class entry with `z[np.arange(n), y_true]`, and return the mean "
        "of −log p over the samples (a mean, not a sum).",
    ],
)

ex5 = Exercise(
    "ex5",
    title="Fit a temperature",
    reference=fit_temperature,
    rtol=1e-4,
    atol=0.0,
    cases=[
        case(_L_OVER, _Y_OVER, note="an over-confident model (T > 1)"),
        case(_L_UNDER, _Y_UNDER, note="an under-confident model (T < 1)"),
        case(_L_SMALL, _Y_SMALL, note="four samples"),
        case(_L_12, _Y_12, note="a model twelve times too confident"),
        case(_L_400, _Y_400, note="logits in the hundreds"),
    ],
    hints=[
        "Minimise your `nll_at_temperature` (exercise 4) over T > 0. "
        "`scipy.optimize.minimize_scalar` works if you search over log T, which can be any real "
        "number: `minimize_scalar(lambda u: nll(logits, y, np.exp(u)))`.",
        "Do not give the search a box such as `bounds=(0.1, 5)`: the best T can be larger "
        "(one case needs about 12). And divide the logits by T, do not multiply them.",
        "The answer must be accurate to 1e-4 (relative). A grid of candidate temperatures is not; "
        "a 1-D optimiser or bisection is. The NLL is convex in β = 1/T, with slope "
        "mean(E_p[z] − z_true), so bisection on that slope works without scipy.",
    ],
)

ex6 = Exercise(
    "ex6",
    title="A paired bootstrap interval",
    reference=paired_interval,
    outputs=("low", "high"),
    cases=[
        case(
            accuracy,
            _Y_CLS,
            _A_CLS,
            _B_CLS,
            _IDX_80,
            0.95,
            note="accuracy of two classifiers, 200 resamples",
        ),
        case(accuracy, _Y_CLS, _A_CLS, _B_CLS, _IDX_80, 0.80, note="an 80 % interval"),
        case(
            roc_auc, _Y_BIN, _SB, _SA, _IDX_50, 0.95, note="ROC AUC of two scorers, 300 resamples"
        ),
        case(roc_auc, _Y_BIN, _SA, _SB, _IDX_50, 0.90, note="the difference the other way round"),
        case(accuracy, _Y_CLS, _A_CLS, _B_CLS, _IDX_80[:1], 0.95, note="a single resample"),
    ],
    hints=[
        "Row b of `indices` is one resample: `y_true[i]`, `pred_a[i]` and `pred_b[i]` with "
        "`i = indices[b]`. Use the **same** row for both models: that is the pairing.",
        "For each row compute `metric(y_true[i], pred_a[i]) - metric(y_true[i], pred_b[i])`; "
        "the interval is about these differences, not about each model separately.",
        "A 95 % percentile interval keeps the middle 95 %: the 2.5 % and 97.5 % quantiles, "
        "`np.quantile(diffs, [alpha / 2, 1 - alpha / 2])` with `alpha = 1 - confidence_level` "
        "(NumPy's default, linear interpolation).",
    ],
)


#: z of a two-sided 90 % interval (the 0.95 quantile of the standard normal).
Z_90 = 1.6448536269514722

ex9 = Exercise(
    "ex9",
    title="A Wilson interval for a small class",
    reference=wilson_interval,
    outputs=("low", "high"),
    cases=[
        case(1, 12, note="1 of 12 found"),
        case(0, 12, note="none of 12 found"),
        case(12, 12, note="all 12 found"),
        case(6, 12, note="half of 12 found"),
        case(4, 38, note="4 of 38, a tail class of chapter 8"),
        case(950, 1000, note="950 of 1,000"),
        case(3, 20, z=Z_90, note="a 90 % interval, 3 of 20"),
    ],
    hints=[
        "Start from p = k / n. Wilson's interval is centred at (p + z²/2n) / (1 + z²/n), not at p.",
        "Its half-width is z·√(p(1 − p)/n + z²/4n²) / (1 + z²/n). Note the z² (not z) inside.",
        "At k = 0 the low end is 0 and the high end is not: that is the point of Wilson's interval.",
    ],
)


def _paired_predictions(n, cell_probs, seed, n_classes=2):
    """Labels and two models' predictions; each sample is both right, only A right, only B right
    or both wrong with the chances ``cell_probs``. A wrong prediction is a random other label."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    cell = rng.choice(4, size=n, p=cell_probs)
    right_a, right_b = cell <= 1, (cell == 0) | (cell == 2)
    off_a, off_b = rng.integers(1, n_classes, n), rng.integers(1, n_classes, n)
    return (
        y,
        np.where(right_a, y, (y + off_a) % n_classes),
        np.where(right_b, y, (y + off_b) % n_classes),
    )


# Ten samples: both right 5, only A right 3 (b), only B right 1 (c), both wrong 1.
_Y_MC10 = _a([1, 0, 1, 1, 0, 1, 0, 0, 1, 0], int)
_A_MC10 = _a([1, 0, 1, 1, 0, 1, 0, 0, 0, 1], int)
_B_MC10 = _a([1, 0, 1, 1, 0, 0, 1, 1, 1, 1], int)
_MC_SIMILAR = _paired_predictions(500, [0.78, 0.02, 0.06, 0.14], seed=3)  # B a little better
_MC_FIVE = _paired_predictions(300, [0.60, 0.10, 0.05, 0.25], seed=4, n_classes=5)
_MC_CLOSE = _paired_predictions(2000, [0.70, 0.06, 0.065, 0.175], seed=5)

ex10 = Exercise(
    "ex10",
    title="McNemar's test for two classifiers",
    reference=mcnemar_test,
    outputs=("b", "c", "pvalue"),
    cases=[
        case(
            _Y_MC10,
            _A_MC10,
            _B_MC10,
            correction=True,
            note="ten samples, with the continuity correction",
        ),
        case(_Y_MC10, _A_MC10, _B_MC10, correction=False, note="the same ten samples, without it"),
        case(
            *_MC_SIMILAR, correction=True, note="500 samples, two models that agree on most of them"
        ),
        case(*_MC_SIMILAR, correction=False, note="the same 500 samples, without the correction"),
        case(
            *_MC_FIVE,
            correction=True,
            note="five classes: some samples both models get wrong, with different labels",
        ),
        case(*_MC_CLOSE, correction=False, note="2,000 samples, b and c close"),
    ],
    hints=[
        "A sample counts only if exactly one model is right: `right_a = pred_a == y_true`, "
        "`right_b = pred_b == y_true`, then b = A right and B wrong, c = the other way round. "
        "The samples both models get right, or both wrong, do not enter the test.",
        "The statistic is (|b − c| − 1)² / (b + c) with the continuity correction and "
        "(b − c)² / (b + c) without it; `correction` says which.",
        "The p-value is the upper tail of the chi-square distribution with 1 degree of freedom: "
        "`scipy.stats.chi2.sf(statistic, 1)`. Do not compare the two accuracies as if they came "
        "from two different test sets.",
    ],
)


def _delong_inputs(y, score_a, score_b):
    """(auc_a, auc_b, covariance) from every (positive, negative) pair, as in chapter 6b."""
    s = np.stack([score_a, score_b])
    pos, neg = s[:, y == 1], s[:, y == 0]
    psi = (pos[:, :, None] > neg[:, None, :]) + 0.5 * (pos[:, :, None] == neg[:, None, :])
    v10, v01 = psi.mean(axis=2), psi.mean(axis=1)  # per positive, per negative
    cov = np.cov(v10) / pos.shape[1] + np.cov(v01) / neg.shape[1]
    return float(psi[0].mean()), float(psi[1].mean()), cov


def _two_scorers(n, seed, shared, shift_a, shift_b):
    """Labels (40 % positive) and two scores whose noise has the share ``shared`` in common."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    common = rng.normal(0.0, 1.0, n)

    def score(shift):
        return shift * y + np.sqrt(shared) * common + np.sqrt(1 - shared) * rng.normal(0.0, 1.0, n)

    return y, score(shift_a), score(shift_b)


#: The labels and scores behind each ex11 case (tests recompute the case with mltutor.stats).
AUC_SCENARIOS = [
    _two_scorers(1000, seed=6, shared=0.9, shift_a=1.35, shift_b=1.24),  # 0.83 vs 0.81, alike
    _two_scorers(1000, seed=17, shared=0.2, shift_a=1.35, shift_b=1.24),  # 0.83 vs 0.81, unalike
    _two_scorers(1000, seed=3, shared=0.9, shift_a=1.24, shift_b=1.35),  # B better
    _two_scorers(1000, seed=20, shared=0.9, shift_a=1.24, shift_b=1.35),  # 0.01 < p < 0.05
    _two_scorers(80, seed=8, shared=0.5, shift_a=1.35, shift_b=1.0),
    _two_scorers(5000, seed=21, shared=0.97, shift_a=1.30, shift_b=1.28),
]
_AUC_INPUTS = [_delong_inputs(*s) for s in AUC_SCENARIOS]

ex11 = Exercise(
    "ex11",
    title="Is the difference of two AUCs real?",
    reference=auc_difference_test,
    outputs=("z", "pvalue", "differs"),
    cases=[
        case(*_AUC_INPUTS[0], note="AUC 0.83 against 0.81, scores that share most of their noise"),
        case(
            *_AUC_INPUTS[1], note="AUC 0.83 against 0.81, scores that share little of their noise"
        ),
        case(*_AUC_INPUTS[2], note="B's AUC the higher one"),
        case(*_AUC_INPUTS[3], alpha=0.01, note="a 1 % level"),
        case(*_AUC_INPUTS[4], note="80 test samples, AUCs 0.05 apart"),
        case(*_AUC_INPUTS[5], note="5,000 test samples, AUCs 0.004 apart"),
    ],
    hints=[
        "The two AUCs come from the same samples, so they are correlated: "
        "Var(AUC_a − AUC_b) = V_a + V_b − 2C, with V_a = `covariance[0, 0]`, "
        "V_b = `covariance[1, 1]` and C = `covariance[0, 1]`.",
        "z = (AUC_a − AUC_b) / √(Var(AUC_a − AUC_b)), and the two-sided p-value is "
        "2 · P(Z > |z|) for a standard normal Z: `2 * scipy.stats.norm.sf(abs(z))`.",
        "`differs` is the decision: True only when p < alpha. A higher AUC alone is not a "
        "difference, and two separate intervals that overlap do not rule one out: test the "
        "difference itself.",
    ],
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex7 = ChoiceExercise(
    "ex7",
    title="A curve for a rare disease",
    variable="answer_7",
    options={
        "a": (
            "the ROC curve, since its AUC is already high",
            "the ROC curve plots rates over the negatives and over the positives separately; "
            "with 999 healthy people per sick one, a small false positive rate still means many "
            "false alarms per true case, which the ROC curve does not show.",
        ),
        "b": (
            "the precision-recall curve (and its average precision)",
            "precision is the share of the flagged who are ill, exactly the clinic's question, "
            "and it depends on how rare the disease is, which the PR curve shows.",
        ),
        "c": (
            "the accuracy at each threshold",
            "flagging nobody already gives 99.9 % accuracy, so accuracy says almost nothing "
            "about the flagged people.",
        ),
        "d": (
            "the calibration curve",
            "calibration tells whether the scores can be read as probabilities; it does not show"
            " the trade between finding the ill and the false alarms.",
        ),
    },
    answer="b",
    hints=[
        "Write the clinic's question as a ratio of confusion-matrix counts.",
        "Does the ROC curve change when the disease becomes ten times rarer? Does precision?",
    ],
)

ex8 = ChoiceExercise(
    "ex8",
    title="Is the difference real?",
    variable="answer_8",
    options={
        "a": (
            "A is better: its average precision is higher",
            "0.712 is higher than 0.705 on this test set, but the interval shows that a "
            "difference of zero, or a small one in B's favour, is compatible with the data.",
        ),
        "b": (
            "the test set does not show a difference at the 95 % level: the interval contains 0",
            "the interval reaches below 0, so these 2,000 cases cannot rule out that the models "
            "are equally good; the report should give the interval, not a winner.",
        ),
        "c": (
            "B is better, because the interval reaches below 0",
            "the interval reaches only slightly below 0 and mostly lies above it; it does not "
            "point to B either.",
        ),
        "d": (
            "the models differ, because 10,000 bootstrap resamples is a lot",
            "the number of resamples only makes the interval's end points precise; it does not "
            "add test cases, and it is the 2,000 cases that limit what can be told apart.",
        ),
    },
    answer="b",
    hints=[
        "Where does 0 lie relative to the interval?",
        "What would the interval look like if the test set could tell the two models apart?",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_roc_pr.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_sorted_counts(y_true, y_score, group_ties=True):
    order = np.argsort(-y_score, kind="stable")
    s, y = y_score[order], y_true[order]
    tps, fps = np.cumsum(y == 1), np.cumsum(y == 0)
    if group_ties:
        last = np.r_[np.flatnonzero(np.diff(s)), s.size - 1]
        tps, fps = tps[last], fps[last]
    return tps, fps, np.sum(y == 1), np.sum(y == 0)


def _wrong_ex1_fpr_tpr_swapped(y_true, y_score):
    fpr, tpr = roc_points(y_true, y_score)
    return tpr, fpr


def _wrong_ex1_ties_not_grouped(y_true, y_score):
    tps, fps, p, n = _wrong_sorted_counts(y_true, y_score, group_ties=False)
    return np.r_[0.0, fps / n], np.r_[0.0, tps / p]


def _wrong_ex1_no_origin(y_true, y_score):
    tps, fps, p, n = _wrong_sorted_counts(y_true, y_score)
    return fps / n, tps / p


def _wrong_pairs(y_true, y_score):
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    return pos[:, None] - neg[None, :]


def _wrong_ex2_ties_count_zero(y_true, y_score):
    d = _wrong_pairs(y_true, y_score)
    return np.sum(d > 0) / d.size


def _wrong_ex2_ties_count_one(y_true, y_score):
    d = _wrong_pairs(y_true, y_score)
    return np.sum(d >= 0) / d.size


def _wrong_ex2_returns_u(y_true, y_score):
    d = _wrong_pairs(y_true, y_score)
    return float(np.sum(d > 0) + 0.5 * np.sum(d == 0))


def _wrong_pr(y_true, y_score, group_ties=True):
    tps, fps, p, _ = _wrong_sorted_counts(y_true, y_score, group_ties)
    return tps / (tps + fps), tps / p


def _wrong_ex3_trapezoids(y_true, y_score):
    precision, recall = _wrong_pr(y_true, y_score)
    return float(np.trapezoid(precision, recall))


def _wrong_ex3_interpolated_envelope(y_true, y_score):
    precision, recall = _wrong_pr(y_true, y_score)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    return float(np.sum(np.diff(np.r_[0.0, recall]) * envelope))


def _wrong_ex3_mean_precision(y_true, y_score):
    return float(np.mean(_wrong_pr(y_true, y_score)[0]))


def _wrong_ex4_multiplies_by_t(logits, y_true, temperature):
    return nll_at_temperature(logits * temperature**2, y_true, temperature)


def _wrong_ex4_ignores_t(logits, y_true, temperature):
    return nll_at_temperature(logits, y_true, 1.0)


def _wrong_ex4_sum_not_mean(logits, y_true, temperature):
    return nll_at_temperature(logits, y_true, temperature) * len(y_true)


def _wrong_ex5_search_box(logits, y_true):
    from scipy.optimize import minimize_scalar  # scipy: only the references need it

    res = minimize_scalar(
        lambda t: nll_at_temperature(logits, y_true, t), bounds=(0.1, 5.0), method="bounded"
    )
    return float(res.x)


def _wrong_ex5_returns_beta(logits, y_true):
    return 1.0 / fit_temperature(logits, y_true)


def _wrong_ex5_grid(logits, y_true):
    grid = np.r_[np.arange(0.05, 2.0, 0.05), np.arange(2.0, 20.0, 0.1), np.arange(20.0, 600.0, 5.0)]
    return float(grid[np.argmin([nll_at_temperature(logits, y_true, t) for t in grid])])


def _wrong_diffs(metric, y, a, b, rows_a, rows_b):
    return np.array([metric(y[i], a[i]) - metric(y[j], b[j]) for i, j in zip(rows_a, rows_b)])


def _wrong_ex6_unpaired(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = _wrong_diffs(metric, y_true, pred_a, pred_b, indices, np.roll(indices, 1, axis=0))
    alpha = 1 - confidence_level
    return tuple(np.quantile(d, [alpha / 2, 1 - alpha / 2]))


def _wrong_ex6_b_minus_a(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    return paired_interval(metric, y_true, pred_b, pred_a, indices, confidence_level)


def _wrong_ex6_alpha_not_halved(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = _wrong_diffs(metric, y_true, pred_a, pred_b, indices, indices)
    alpha = 1 - confidence_level
    return tuple(np.quantile(d, [alpha, 1 - alpha]))


ex1.misconceptions = [
    Misconception("fpr_tpr_swapped", "FPR and TPR swapped", _wrong_ex1_fpr_tpr_swapped),
    Misconception(
        "ties_not_grouped",
        "tied scores treated one by one instead of as one threshold",
        _wrong_ex1_ties_not_grouped,
    ),
    Misconception("no_origin", "the curve without its starting point (0, 0)", _wrong_ex1_no_origin),
]
ex2.misconceptions = [
    Misconception(
        "ties_count_zero",
        "tied positive–negative pairs counted as 0 instead of ½",
        _wrong_ex2_ties_count_zero,
    ),
    Misconception(
        "ties_count_one",
        "tied positive–negative pairs counted as 1 instead of ½",
        _wrong_ex2_ties_count_one,
    ),
    Misconception(
        "returns_u",
        "the Mann–Whitney U count, not divided by the number of pairs",
        _wrong_ex2_returns_u,
    ),
]
ex3.misconceptions = [
    Misconception(
        "trapezoids",
        "trapezoids between the PR points: average precision uses steps, not linear interpolation",
        _wrong_ex3_trapezoids,
    ),
    Misconception(
        "envelope",
        "the interpolated (upper-envelope) precision instead of the precision at each step",
        _wrong_ex3_interpolated_envelope,
    ),
    Misconception(
        "mean_precision",
        "the plain mean of the precisions, not weighted by the recall steps",
        _wrong_ex3_mean_precision,
    ),
]
ex4.misconceptions = [
    Misconception(
        "multiplies_by_t",
        "logits multiplied by T instead of divided by it",
        _wrong_ex4_multiplies_by_t,
    ),
    Misconception("ignores_t", "the temperature ignored (T = 1)", _wrong_ex4_ignores_t),
    Misconception(
        "sum_not_mean", "the summed log loss instead of its mean", _wrong_ex4_sum_not_mean
    ),
]
ex5.misconceptions = [
    Misconception(
        "returns_inverse",
        "1 / T, the factor that multiplies the logits, instead of T",
        _wrong_ex5_returns_beta,
    ),
    Misconception(
        "bounded_search",
        "a search bounded to [0.1, 5], which stops at the edge",
        _wrong_ex5_search_box,
    ),
    Misconception("coarse_grid", "a grid search, whose step limits the answer", _wrong_ex5_grid),
]
ex6.misconceptions = [
    Misconception(
        "unpaired",
        "the two models resampled independently: a paired bootstrap uses the same indices for both",
        _wrong_ex6_unpaired,
    ),
    Misconception(
        "b_minus_a", "the difference taken as B − A instead of A − B", _wrong_ex6_b_minus_a
    ),
    Misconception(
        "alpha_not_halved",
        "α not split between the two tails (the 90 % interval for a 95 % level)",
        _wrong_ex6_alpha_not_halved,
    ),
]


def _wrong_ex9_wald(k, n, z=1.959963984540054):
    p = k / n
    half = z * np.sqrt(p * (1 - p) / n)
    return float(p - half), float(p + half)


def _wrong_ex9_centred_on_p(k, n, z=1.959963984540054):
    p = k / n
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return float(p - half), float(p + half)


def _wrong_ex9_z_not_squared(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z / (2 * n)) / (1 + z / n)
    half = z * np.sqrt(p * (1 - p) / n + z / (4 * n**2)) / (1 + z / n)
    return float(centre - half), float(centre + half)


ex9.misconceptions = [
    Misconception("wald", "the Wald interval p ± z·√(p(1 − p)/n), not Wilson's", _wrong_ex9_wald),
    Misconception(
        "centred_on_p",
        "Wilson's half-width, but centred on k / n instead of Wilson's shifted centre",
        _wrong_ex9_centred_on_p,
    ),
    Misconception("z_not_squared", "z where the formula has z²", _wrong_ex9_z_not_squared),
]


def _wrong_ex10_concordant(y_true, pred_a, pred_b, correction=True):
    right_a, right_b = pred_a == y_true, pred_b == y_true
    both_right, both_wrong = int(np.sum(right_a & right_b)), int(np.sum(~right_a & ~right_b))
    statistic = (abs(both_right - both_wrong) - int(correction)) ** 2 / (both_right + both_wrong)
    return both_right, both_wrong, float(_stats().chi2.sf(statistic, 1))


def _wrong_ex10_unpaired(y_true, pred_a, pred_b, correction=True):
    b, c, _ = mcnemar_test(y_true, pred_a, pred_b, correction)
    acc_a, acc_b = np.mean(pred_a == y_true), np.mean(pred_b == y_true)
    pooled, n = (acc_a + acc_b) / 2, y_true.size
    z = (acc_a - acc_b) / np.sqrt(pooled * (1 - pooled) * 2 / n)
    return b, c, float(2 * _stats().norm.sf(abs(z)))


def _wrong_ex10_no_correction(y_true, pred_a, pred_b, correction=True):
    return mcnemar_test(y_true, pred_a, pred_b, correction=False)


def _wrong_ex10_predictions_table(y_true, pred_a, pred_b, correction=True):
    b, c = int(np.sum((pred_a == 1) & (pred_b == 0))), int(np.sum((pred_a == 0) & (pred_b == 1)))
    statistic = (abs(b - c) - int(correction)) ** 2 / (b + c)
    return b, c, float(_stats().chi2.sf(statistic, 1))


ex10.misconceptions = [
    Misconception(
        "concordant",
        "the concordant cells (both right, both wrong) instead of the discordant ones: "
        "only the samples where the two models disagree about being right can tell them "
        "apart",
        _wrong_ex10_concordant,
    ),
    Misconception(
        "unpaired",
        "a two-sample test of the two accuracies, as if they came from two different "
        "test sets: on one test set the pairs matter, and only b and c carry the "
        "difference",
        _wrong_ex10_unpaired,
    ),
    Misconception(
        "no_correction",
        "the continuity correction (the − 1 in |b − c| − 1) left out where "
        "`correction=True` asks for it",
        _wrong_ex10_no_correction,
    ),
    Misconception(
        "predictions_table",
        "the table of the two models' predictions (A says 1, B says 0) instead of their "
        "correctness (A right, B wrong)",
        _wrong_ex10_predictions_table,
    ),
]


def _wrong_ex11_independent(auc_a, auc_b, covariance, alpha=0.05):
    z = (auc_a - auc_b) / np.sqrt(covariance[0, 0] + covariance[1, 1])
    p = 2 * _stats().norm.sf(abs(z))
    return float(z), float(p), bool(p < alpha)


def _wrong_ex11_auc_alone(auc_a, auc_b, covariance, alpha=0.05):
    z, p, _ = auc_difference_test(auc_a, auc_b, covariance, alpha)
    return z, p, bool(auc_a != auc_b)


def _wrong_ex11_one_sided(auc_a, auc_b, covariance, alpha=0.05):
    z, _, _ = auc_difference_test(auc_a, auc_b, covariance, alpha)
    p = _stats().norm.sf(abs(z))
    return z, float(p), bool(p < alpha)


def _wrong_ex11_no_overlap(auc_a, auc_b, covariance, alpha=0.05):
    z, p, _ = auc_difference_test(auc_a, auc_b, covariance, alpha)
    half_a, half_b = _stats().norm.isf(alpha / 2) * np.sqrt(np.diag(covariance))
    overlap = auc_a - half_a <= auc_b + half_b and auc_b - half_b <= auc_a + half_a
    return z, p, bool(not overlap)


ex11.misconceptions = [
    Misconception(
        "independent",
        "the two AUCs treated as independent (V_a + V_b): on the same samples they are "
        "correlated, and the variance of the difference is V_a + V_b − 2C",
        _wrong_ex11_independent,
    ),
    Misconception(
        "auc_alone",
        "a difference called real because one AUC is higher, whatever the p-value",
        _wrong_ex11_auc_alone,
    ),
    Misconception(
        "one_sided",
        "a one-sided p-value, P(Z > |z|), for a two-sided question",
        _wrong_ex11_one_sided,
    ),
    Misconception(
        "no_overlap",
        "a difference called real only when the two separate intervals do not overlap: "
        "they can overlap while the difference is real",
        _wrong_ex11_no_overlap,
    ),
]
