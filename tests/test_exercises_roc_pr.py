"""Chapter 6 exercises: references agree with scikit-learn (and mltutor.calibration), correct
alternative solutions pass, and known-wrong "mutants" are caught.

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
)
from scipy.optimize import minimize_scalar

from mltutor.check import CORRECT
from mltutor.exercises import roc_pr as ch6

sklearn_metrics = pytest.importorskip("sklearn.metrics")

CH6_SOLUTIONS = SOLUTIONS / "06_roc_pr.ipynb"
CH6_EXERCISES = EXERCISES / "06_roc_pr.ipynb"
EXERCISES_CH6 = {name: getattr(ch6, name) for name in ch6.__all__}


# --------------------------------------------------------------------------------------------
# The references agree with scikit-learn and with mltutor's own implementations
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(ch6.ex1.cases)))
def test_ex1_reference_matches_sklearn_roc_curve(i):
    fpr, tpr = ch6.ex1.expected(i)
    sk_fpr, sk_tpr, _ = sklearn_metrics.roc_curve(*ch6.ex1.cases[i].args, drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(tpr, sk_tpr, rtol=0, atol=1e-12)


@pytest.mark.parametrize("i", range(len(ch6.ex2.cases)))
def test_ex2_reference_matches_sklearn_and_mann_whitney(i):
    from scipy.stats import mannwhitneyu

    y, s = ch6.ex2.cases[i].args
    assert ch6.ex2.expected(i) == pytest.approx(sklearn_metrics.roc_auc_score(y, s), abs=1e-12)
    u = mannwhitneyu(s[y == 1], s[y == 0]).statistic
    assert ch6.ex2.expected(i) == pytest.approx(u / ((y == 1).sum() * (y == 0).sum()), abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch6.ex3.cases)))
def test_ex3_reference_matches_sklearn(i):
    y, s = ch6.ex3.cases[i].args
    assert ch6.ex3.expected(i) == pytest.approx(
        sklearn_metrics.average_precision_score(y, s), abs=1e-12
    )


@pytest.mark.parametrize("i", range(len(ch6.ex4.cases)))
def test_ex4_reference_matches_sklearn_log_loss_and_mltutor(i):
    from mltutor.calibration import nll_from_logits

    logits, y, t = ch6.ex4.cases[i].args
    assert ch6.ex4.expected(i) == pytest.approx(nll_from_logits(logits, y, t), rel=1e-12)
    if np.ptp(logits) < 100:  # sklearn needs probabilities; only where they do not underflow
        z = logits / t
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        ref = sklearn_metrics.log_loss(y, p, labels=np.arange(logits.shape[1]))
        assert ch6.ex4.expected(i) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("i", range(len(ch6.ex5.cases)))
def test_ex5_reference_matches_mltutor_and_is_a_minimum(i):
    from mltutor.calibration import fit_temperature, nll_from_logits

    logits, y = ch6.ex5.cases[i].args
    t = ch6.ex5.expected(i)
    assert t == pytest.approx(fit_temperature(logits, y), rel=1e-9)
    for nearby in (t * 0.999, t * 1.001):
        assert nll_from_logits(logits, y, nearby) > nll_from_logits(logits, y, t)


def test_ex5_cases_include_a_temperature_outside_the_usual_box():
    temps = [ch6.ex5.expected(i) for i in range(len(ch6.ex5.cases))]
    assert min(temps) < 1 < 5 < max(temps)


@pytest.mark.parametrize("i", range(len(ch6.ex6.cases)))
def test_ex6_reference_matches_mltutor_paired_bootstrap(i):
    """With the same indices, mltutor.stats.paired_bootstrap gives the same interval."""
    from mltutor import stats

    metric, y, a, b, idx, level = ch6.ex6.cases[i].args

    class SameIndices(np.random.Generator):
        def __init__(self):
            super().__init__(np.random.PCG64(0))

        def integers(self, low, high=None, size=None, **kwargs):  # noqa: ARG002
            return idx[: size[0]] if size[0] <= len(idx) else np.resize(idx, size)

    res = stats.paired_bootstrap(
        metric,
        y,
        a,
        b,
        n_resamples=len(idx),
        confidence_level=level,
        random_state=SameIndices(),
        skip_single_class=False,
    )
    assert ch6.ex6.expected(i) == pytest.approx((res.low, res.high), abs=1e-12)


def test_ex6_auc_resamples_keep_both_classes():
    for c in ch6.ex6.cases:
        metric, y, _, _, idx, _ = c.args
        if metric is ch6.roc_auc:
            counts = y[idx].sum(axis=1)
            assert counts.min() > 0 and counts.max() < idx.shape[1]


@pytest.mark.parametrize("i", range(len(ch6.ex10.cases)))
def test_ex10_reference_matches_statsmodels_and_mltutor(i):
    from mltutor.stats import mcnemar

    sm_tables = pytest.importorskip("statsmodels.stats.contingency_tables")
    c = ch6.ex10.cases[i]
    b, c_count, p = ch6.ex10.expected(i)
    ours = mcnemar(*c.args, exact=False, correction=c.kwargs["correction"])
    assert (b, c_count) == (ours.table[0, 1], ours.table[1, 0])
    assert p == pytest.approx(ours.pvalue, rel=0, abs=1e-12)
    theirs = sm_tables.mcnemar(ours.table, exact=False, correction=c.kwargs["correction"])
    assert p == pytest.approx(theirs.pvalue, rel=0, abs=1e-12)


def test_ex10_cases_have_the_traps():
    """Both settings of `correction`, both directions of b - c, and more than two classes."""
    settings = {c.kwargs["correction"] for c in ch6.ex10.cases}
    signs = {
        np.sign(ch6.ex10.expected(i)[0] - ch6.ex10.expected(i)[1])
        for i in range(len(ch6.ex10.cases))
    }
    assert settings == {True, False} and signs == {-1, 1}
    assert any(np.unique(c.args[0]).size > 2 for c in ch6.ex10.cases)


def test_ex10_discussion_numbers():
    """The numbers the solution's discussion quotes for the 500-sample case."""
    y, a, b = ch6.ex10.cases[2].args
    right_a, right_b = a == y, b == y
    assert np.sum(right_a == right_b) == 459 and ch6.ex10.expected(2)[:2] == (13, 28)
    assert round(right_a.mean(), 3) == 0.816 and round(right_b.mean(), 3) == 0.846
    assert round(ch6.ex10.expected(2)[2], 2) == 0.03
    assert round(ch6._wrong_ex10_unpaired(y, a, b)[2], 2) == 0.21
    assert sum(ch6.ex10.expected(0)[:2]) == 4


@pytest.mark.parametrize("i", range(len(ch6.ex11.cases)))
def test_ex11_cases_and_reference_match_mltutor_delong(i):
    """The case inputs are DeLong's AUCs and covariance; the reference's z and p are the test's."""
    from mltutor.stats import delong_roc_test

    c = ch6.ex11.cases[i]
    auc_a, auc_b, covariance = c.args
    test = delong_roc_test(*ch6.AUC_SCENARIOS[i])
    assert (auc_a, auc_b) == pytest.approx((test.auc_a, test.auc_b), rel=0, abs=1e-12)
    np.testing.assert_allclose(covariance, test.covariance, rtol=0, atol=1e-12)
    z, p, differs = ch6.ex11.expected(i)
    assert z == pytest.approx(test.z, rel=1e-10) and p == pytest.approx(test.pvalue, rel=1e-10)
    assert differs == (test.pvalue < c.kwargs.get("alpha", 0.05))


def test_ex11_discussion_numbers():
    """Same AUCs, opposite answers; overlapping intervals in both; the small and the large case."""

    def aucs(i):
        return ch6.ex11.cases[i].args[:2]

    def correlation(i):
        cov = ch6.ex11.cases[i].args[2]
        return cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1])

    assert [round(v, 2) for v in aucs(0)] == [round(v, 2) for v in aucs(1)] == [0.83, 0.81]
    assert round(correlation(0), 2) == 0.90 and round(correlation(1), 2) == 0.19
    assert round(ch6.ex11.expected(0)[1], 3) == 0.015 and round(ch6.ex11.expected(1)[1], 1) == 0.3
    assert round(aucs(0)[0] - aucs(0)[1], 3) == 0.015 and round(aucs(1)[0] - aucs(1)[1], 3) == 0.018
    assert ch6.ex11.expected(0)[2] and not ch6.ex11.expected(1)[2]
    se = [np.sqrt(np.diag(ch6.ex11.cases[i].args[2])) for i in (0, 1)]
    assert np.max(np.abs(se[0] - se[1])) < 0.001  # nearly the same
    for i in (0, 1):
        c = ch6.ex11.cases[i]
        assert ch6._wrong_ex11_no_overlap(*c.args, **c.kwargs)[2] is False  # the intervals overlap
        assert ch6._wrong_ex11_independent(*c.args, **c.kwargs)[2] is False
    assert round(aucs(4)[0] - aucs(4)[1], 2) == 0.05 and not ch6.ex11.expected(4)[2]
    assert round(aucs(5)[0] - aucs(5)[1], 3) == 0.004 and ch6.ex11.expected(5)[2]
    assert ch6.AUC_SCENARIOS[4][0].size == 80 and ch6.AUC_SCENARIOS[5][0].size == 5000


# --------------------------------------------------------------------------------------------
# Correct alternatives pass (the checks must not demand one particular method)
# --------------------------------------------------------------------------------------------


def ex1_with_a_loop(y_true, y_score):
    pos, neg = np.sum(y_true == 1), np.sum(y_true == 0)
    fpr, tpr = [0.0], [0.0]
    for t in np.unique(y_score)[::-1]:
        flagged = y_score >= t
        fpr.append(np.sum(flagged & (y_true == 0)) / neg)
        tpr.append(np.sum(flagged & (y_true == 1)) / pos)
    return np.array(fpr), np.array(tpr)


def ex1_with_sklearn(y_true, y_score):
    fpr, tpr, _ = sklearn_metrics.roc_curve(y_true, y_score, drop_intermediate=False)
    return fpr, tpr


def ex2_with_average_ranks(y_true, y_score):
    from scipy.stats import rankdata

    r = rankdata(y_score)
    n1 = np.sum(y_true == 1)
    n0 = y_true.size - n1
    return (r[y_true == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)


def ex3_with_sklearn(y_true, y_score):
    return sklearn_metrics.average_precision_score(y_true, y_score)


def ex4_with_scipy_logsumexp(logits, y_true, temperature):
    from scipy.special import logsumexp

    z = logits / temperature
    return np.mean(logsumexp(z, axis=1) - z[np.arange(len(y_true)), y_true])


def ex5_with_scipy(logits, y_true):
    res = minimize_scalar(
        lambda u: ch6.nll_at_temperature(logits, y_true, np.exp(u)), bracket=(-1.0, 1.0)
    )
    return float(np.exp(res.x))


def ex6_vectorised(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    diffs = [metric(y_true[i], pred_a[i]) - metric(y_true[i], pred_b[i]) for i in indices]
    lo, hi = np.percentile(diffs, [50 * (1 - confidence_level), 50 * (1 + confidence_level)])
    return lo, hi


def ex10_with_statsmodels(y_true, pred_a, pred_b, correction=True):
    from statsmodels.stats.contingency_tables import mcnemar

    right_a, right_b = pred_a == y_true, pred_b == y_true
    table = [
        [np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
        [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)],
    ]
    result = mcnemar(table, exact=False, correction=correction)
    return table[0][1], table[1][0], result.pvalue


def ex10_with_a_crosstab(y_true, pred_a, pred_b, correction=True):
    """The 2 x 2 table by bincount, and the chi-square tail as 1 - cdf."""
    from scipy.stats import chi2

    table = np.bincount(2 * (pred_a != y_true) + (pred_b != y_true), minlength=4)
    b, c = table[1], table[2]
    statistic = (abs(b - c) - correction) ** 2 / (b + c)
    return b, c, 1 - chi2.cdf(statistic, df=1)


def ex11_with_a_contrast(auc_a, auc_b, covariance, alpha=0.05):
    """Var(a - b) as the quadratic form l' S l with the contrast l = (1, -1)."""
    from scipy.stats import norm

    contrast = np.array([1.0, -1.0])
    z = (auc_a - auc_b) / np.sqrt(contrast @ covariance @ contrast)
    p = 2 * norm.cdf(-abs(z))
    return z, p, p < alpha


def ex11_with_the_correlation(auc_a, auc_b, covariance, alpha=0.05):
    """The same variance written with the standard errors and their correlation."""
    from math import erfc, sqrt

    se_a, se_b = np.sqrt(np.diag(covariance))
    r = covariance[0, 1] / (se_a * se_b)
    z = (auc_a - auc_b) / sqrt(se_a**2 + se_b**2 - 2 * r * se_a * se_b)
    p = erfc(abs(z) / sqrt(2))
    return z, p, bool(p < alpha)


@pytest.mark.parametrize(
    "name, solution",
    [
        ("ex1", ex1_with_a_loop),
        ("ex1", ex1_with_sklearn),
        ("ex2", ex2_with_average_ranks),
        ("ex3", ex3_with_sklearn),
        ("ex4", ex4_with_scipy_logsumexp),
        ("ex5", ex5_with_scipy),
        ("ex6", ex6_vectorised),
        ("ex10", ex10_with_statsmodels),
        ("ex10", ex10_with_a_crosstab),
        ("ex11", ex11_with_a_contrast),
        ("ex11", ex11_with_the_correlation),
    ],
)
def test_correct_alternatives_pass(name, solution):
    result = EXERCISES_CH6[name].check(solution, strict=False)
    assert result.status == CORRECT, result


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def _sorted_counts(y_true, y_score, group_ties=True):
    order = np.argsort(-y_score, kind="stable")
    s, y = y_score[order], y_true[order]
    tps, fps = np.cumsum(y == 1), np.cumsum(y == 0)
    if group_ties:
        last = np.r_[np.flatnonzero(np.diff(s)), s.size - 1]
        tps, fps = tps[last], fps[last]
    return tps, fps, np.sum(y == 1), np.sum(y == 0)


def ex1_fpr_tpr_swapped(y_true, y_score):
    fpr, tpr = ch6.roc_points(y_true, y_score)
    return tpr, fpr


def ex1_ties_not_grouped(y_true, y_score):
    tps, fps, p, n = _sorted_counts(y_true, y_score, group_ties=False)
    return np.r_[0.0, fps / n], np.r_[0.0, tps / p]


def ex1_no_origin(y_true, y_score):
    tps, fps, p, n = _sorted_counts(y_true, y_score)
    return fps / n, tps / p


def ex1_lowest_threshold_first(y_true, y_score):
    fpr, tpr = ch6.roc_points(y_true, y_score)
    return fpr[::-1], tpr[::-1]


def ex1_divided_by_n(y_true, y_score):
    tps, fps, _, _ = _sorted_counts(y_true, y_score)
    return np.r_[0.0, fps / y_true.size], np.r_[0.0, tps / y_true.size]


def ex1_strictly_greater(y_true, y_score):
    fpr, tpr = [0.0], [0.0]
    for t in np.unique(y_score)[::-1]:
        flagged = y_score > t
        fpr.append(np.sum(flagged & (y_true == 0)) / np.sum(y_true == 0))
        tpr.append(np.sum(flagged & (y_true == 1)) / np.sum(y_true == 1))
    return np.array(fpr), np.array(tpr)


def ex1_drop_intermediate(y_true, y_score):
    fpr, tpr, _ = sklearn_metrics.roc_curve(y_true, y_score)
    return fpr, tpr


def ex1_specificity_not_fpr(y_true, y_score):
    fpr, tpr = ch6.roc_points(y_true, y_score)
    return 1 - fpr, tpr


def _pairs(y_true, y_score):
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    return pos[:, None] - neg[None, :]


def ex2_ties_count_zero(y_true, y_score):
    d = _pairs(y_true, y_score)
    return np.sum(d > 0) / d.size


def ex2_ties_count_one(y_true, y_score):
    d = _pairs(y_true, y_score)
    return np.sum(d >= 0) / d.size


def ex2_negatives_above(y_true, y_score):
    d = _pairs(y_true, y_score)
    return (np.sum(d < 0) + 0.5 * np.sum(d == 0)) / d.size


def ex2_divided_by_n_squared(y_true, y_score):
    d = _pairs(y_true, y_score)
    return (np.sum(d > 0) + 0.5 * np.sum(d == 0)) / y_true.size**2


def ex2_returns_u(y_true, y_score):
    d = _pairs(y_true, y_score)
    return float(np.sum(d > 0) + 0.5 * np.sum(d == 0))


def ex2_ordinal_ranks(y_true, y_score):
    r = np.empty(y_score.size)
    r[np.argsort(y_score, kind="stable")] = np.arange(1, y_score.size + 1)
    n1 = np.sum(y_true == 1)
    return (r[y_true == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * (y_true.size - n1))


def _pr(y_true, y_score, group_ties=True):
    tps, fps, p, _ = _sorted_counts(y_true, y_score, group_ties)
    return tps / (tps + fps), tps / p


def ex3_trapezoids(y_true, y_score):
    precision, recall = _pr(y_true, y_score)
    return float(np.trapezoid(precision, recall))


def ex3_trapezoids_with_end_point(y_true, y_score):
    p, r, _ = sklearn_metrics.precision_recall_curve(y_true, y_score)
    return float(sklearn_metrics.auc(r, p))


def ex3_interpolated_envelope(y_true, y_score):
    precision, recall = _pr(y_true, y_score)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    return float(np.sum(np.diff(np.r_[0.0, recall]) * envelope))


def ex3_ties_not_grouped(y_true, y_score):
    precision, recall = _pr(y_true, y_score, group_ties=False)
    return float(np.sum(np.diff(np.r_[0.0, recall]) * precision))


def ex3_precision_at_step_start(y_true, y_score):
    precision, recall = _pr(y_true, y_score)
    return float(np.sum(np.diff(np.r_[0.0, recall]) * np.r_[1.0, precision[:-1]]))


def ex3_mean_precision(y_true, y_score):
    return float(np.mean(_pr(y_true, y_score)[0]))


def ex3_voc_11_point(y_true, y_score):
    precision, recall = _pr(y_true, y_score)
    return float(
        np.mean(
            [
                precision[recall >= r].max() if np.any(recall >= r) else 0.0
                for r in np.arange(11) / 10
            ]
        )
    )


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def ex4_log_of_softmax(logits, y_true, temperature):
    with np.errstate(divide="ignore"):
        return float(
            np.mean(-np.log(_softmax(logits / temperature)[np.arange(len(y_true)), y_true]))
        )


def ex4_clipped_log_of_softmax(logits, y_true, temperature):
    p = np.clip(_softmax(logits / temperature), 1e-15, 1.0)
    return float(np.mean(-np.log(p[np.arange(len(y_true)), y_true])))


def ex4_no_max_subtraction(logits, y_true, temperature):
    z = logits / temperature
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y_true)), y_true]))


def ex4_multiplies_by_t(logits, y_true, temperature):
    return ch6.nll_at_temperature(logits * temperature**2, y_true, temperature)


def ex4_ignores_t(logits, y_true, temperature):
    return ch6.nll_at_temperature(logits, y_true, 1.0)


def ex4_sum_not_mean(logits, y_true, temperature):
    return ch6.nll_at_temperature(logits, y_true, temperature) * len(y_true)


def ex5_search_box(logits, y_true):
    res = minimize_scalar(
        lambda t: ch6.nll_at_temperature(logits, y_true, t), bounds=(0.1, 5.0), method="bounded"
    )
    return float(res.x)


def ex5_returns_beta(logits, y_true):
    return 1.0 / ch6.fit_temperature(logits, y_true)


def ex5_multiplies_logits(logits, y_true):
    """Optimises a factor that multiplies the logits, and reports it as T."""
    res = minimize_scalar(
        lambda u: ch6.nll_at_temperature(logits * np.exp(u), y_true, 1.0), bracket=(-1.0, 1.0)
    )
    return float(np.exp(res.x))


def ex5_grid(logits, y_true):
    grid = np.r_[np.arange(0.05, 2.0, 0.05), np.arange(2.0, 20.0, 0.1), np.arange(20.0, 600.0, 5.0)]
    return float(grid[np.argmin([ch6.nll_at_temperature(logits, y_true, t) for t in grid])])


def ex5_confidence_matches_accuracy(logits, y_true):
    """A heuristic: choose T so that the mean top probability equals the accuracy."""
    acc = np.mean(logits.argmax(axis=1) == y_true)
    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _softmax(logits / np.exp(mid)).max(axis=1).mean() > acc:
            lo = mid
        else:
            hi = mid
    return float(np.exp((lo + hi) / 2))


def ex5_temperature_on_probabilities(logits, y_true):
    """Treats the probabilities as if they were logits: softmax(softmax(z) / T)."""
    probs = _softmax(logits)
    res = minimize_scalar(
        lambda u: ch6.nll_at_temperature(probs, y_true, np.exp(u)), bracket=(-1.0, 1.0)
    )
    return float(np.exp(res.x))


def _diffs(metric, y, a, b, rows_a, rows_b):
    return np.array([metric(y[i], a[i]) - metric(y[j], b[j]) for i, j in zip(rows_a, rows_b)])


def ex6_unpaired(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = _diffs(metric, y_true, pred_a, pred_b, indices, np.roll(indices, 1, axis=0))
    alpha = 1 - confidence_level
    return tuple(np.quantile(d, [alpha / 2, 1 - alpha / 2]))


def ex6_b_minus_a(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    return ch6.paired_interval(metric, y_true, pred_b, pred_a, indices, confidence_level)


def ex6_alpha_not_halved(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = _diffs(metric, y_true, pred_a, pred_b, indices, indices)
    alpha = 1 - confidence_level
    return tuple(np.quantile(d, [alpha, 1 - alpha]))


def ex6_percentile_of_fractions(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = _diffs(metric, y_true, pred_a, pred_b, indices, indices)
    alpha = 1 - confidence_level
    return tuple(np.percentile(d, [alpha / 2, 1 - alpha / 2]))


def ex6_normal_approximation(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = _diffs(metric, y_true, pred_a, pred_b, indices, indices)
    from scipy.stats import norm

    z = norm.ppf(0.5 + confidence_level / 2)
    return d.mean() - z * d.std(ddof=1), d.mean() + z * d.std(ddof=1)


def ex6_separate_intervals(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    alpha = 1 - confidence_level
    qa = np.quantile([metric(y_true[i], pred_a[i]) for i in indices], [alpha / 2, 1 - alpha / 2])
    qb = np.quantile([metric(y_true[i], pred_b[i]) for i in indices], [alpha / 2, 1 - alpha / 2])
    return qa[0] - qb[1], qa[1] - qb[0]


def ex6_truth_not_resampled(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    d = np.array([metric(y_true, pred_a[i]) - metric(y_true, pred_b[i]) for i in indices])
    alpha = 1 - confidence_level
    return tuple(np.quantile(d, [alpha / 2, 1 - alpha / 2]))


def ex6_indices_ignored(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    rng = np.random.default_rng(0)
    rows = rng.integers(0, len(y_true), size=indices.shape)
    return ex6_b_minus_a(metric, y_true, pred_b, pred_a, rows, confidence_level)


def ex9_wald(k, n, z=1.959963984540054):
    p = k / n
    half = z * np.sqrt(p * (1 - p) / n)
    return p - half, p + half


def ex9_clipped_wald(k, n, z=1.959963984540054):
    low, high = ex9_wald(k, n, z)
    return max(low, 0.0), min(high, 1.0)


def ex9_centred_on_p(k, n, z=1.959963984540054):
    p = k / n
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p - half, p + half


def ex9_z_not_squared(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z / (2 * n)) / (1 + z / n)
    half = z * np.sqrt(p * (1 - p) / n + z / (4 * n * n)) / (1 + z / n)
    return centre - half, centre + half


def ex9_half_width_not_divided(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def ex9_agresti_coull(k, n, z=1.959963984540054):
    n_t = n + z * z
    p_t = (k + z * z / 2) / n_t
    half = z * np.sqrt(p_t * (1 - p_t) / n_t)
    return p_t - half, p_t + half


def ex9_ignores_z(k, n, z=1.959963984540054):
    return ch6.wilson_interval(k, n)


def ex9_low_high_swapped(k, n, z=1.959963984540054):
    low, high = ch6.wilson_interval(k, n, z)
    return high, low


def _discordant(y_true, pred_a, pred_b):
    right_a, right_b = pred_a == y_true, pred_b == y_true
    return int(np.sum(right_a & ~right_b)), int(np.sum(~right_a & right_b))


def _chi2_p(statistic, df=1):
    from scipy.stats import chi2

    return float(chi2.sf(statistic, df))


def ex10_concordant(y_true, pred_a, pred_b, correction=True):
    right_a, right_b = pred_a == y_true, pred_b == y_true
    n11, n00 = int(np.sum(right_a & right_b)), int(np.sum(~right_a & ~right_b))
    return n11, n00, _chi2_p((abs(n11 - n00) - int(correction)) ** 2 / (n11 + n00))


def ex10_two_proportion_z(y_true, pred_a, pred_b, correction=True):
    """b and c right, then a two-sample z-test of the accuracies, as if on two test sets."""
    from scipy.stats import norm

    b, c = _discordant(y_true, pred_a, pred_b)
    k_a, k_b, n = np.sum(pred_a == y_true), np.sum(pred_b == y_true), len(y_true)
    pooled = (k_a + k_b) / (2 * n)
    z = (k_a / n - k_b / n) / np.sqrt(pooled * (1 - pooled) * (1 / n + 1 / n))
    return b, c, 2 * norm.sf(abs(z))


def ex10_correction_ignored(y_true, pred_a, pred_b, correction=True):
    b, c = _discordant(y_true, pred_a, pred_b)
    return b, c, _chi2_p((b - c) ** 2 / (b + c))


def ex10_predictions_crosstab(y_true, pred_a, pred_b, correction=True):
    """McNemar on the table of the predictions (A says 1 / B says 0), not of their correctness."""
    b, c = int(np.sum((pred_a == 1) & (pred_b == 0))), int(np.sum((pred_a == 0) & (pred_b == 1)))
    return b, c, _chi2_p((abs(b - c) - int(correction)) ** 2 / (b + c))


def ex10_b_c_swapped(y_true, pred_a, pred_b, correction=True):
    b, c, p = ch6.mcnemar_test(y_true, pred_a, pred_b, correction)
    return c, b, p


def ex10_exact_binomial(y_true, pred_a, pred_b, correction=True):
    from scipy.stats import binom

    b, c = _discordant(y_true, pred_a, pred_b)
    return b, c, min(1.0, 2 * binom.cdf(min(b, c), b + c, 0.5))


def ex10_half_correction(y_true, pred_a, pred_b, correction=True):
    b, c = _discordant(y_true, pred_a, pred_b)
    return b, c, _chi2_p((abs(b - c) - 0.5 * correction) ** 2 / (b + c))


def ex10_no_absolute_value(y_true, pred_a, pred_b, correction=True):
    b, c = _discordant(y_true, pred_a, pred_b)
    return b, c, _chi2_p((b - c - int(correction)) ** 2 / (b + c))


def ex10_two_degrees_of_freedom(y_true, pred_a, pred_b, correction=True):
    b, c = _discordant(y_true, pred_a, pred_b)
    return b, c, _chi2_p((abs(b - c) - int(correction)) ** 2 / (b + c), df=2)


def ex10_lower_tail(y_true, pred_a, pred_b, correction=True):
    from scipy.stats import chi2

    b, c = _discordant(y_true, pred_a, pred_b)
    return b, c, float(chi2.cdf((abs(b - c) - int(correction)) ** 2 / (b + c), 1))


def ex10_yates_contingency(y_true, pred_a, pred_b, correction=True):
    """A chi-square test of independence on (model x right/wrong), as if A and B were unpaired."""
    from scipy.stats import chi2_contingency

    b, c = _discordant(y_true, pred_a, pred_b)
    k_a, k_b, n = np.sum(pred_a == y_true), np.sum(pred_b == y_true), len(y_true)
    return b, c, chi2_contingency([[k_a, n - k_a], [k_b, n - k_b]], correction=correction).pvalue


def ex10_error_counts(y_true, pred_a, pred_b, correction=True):
    """Each model's number of errors in place of b and c."""
    b, c = int(np.sum(pred_a != y_true)), int(np.sum(pred_b != y_true))
    return b, c, _chi2_p((abs(b - c) - int(correction)) ** 2 / (b + c))


def _ex11_from_se(auc_a, auc_b, se, alpha, two_sided=True):
    from scipy.stats import norm

    z = (auc_a - auc_b) / se
    p = (2 if two_sided else 1) * norm.sf(abs(z))
    return z, p, p < alpha


def ex11_variances_added(auc_a, auc_b, covariance, alpha=0.05):
    return _ex11_from_se(auc_a, auc_b, np.sqrt(covariance[0, 0] + covariance[1, 1]), alpha)


def ex11_higher_auc_wins(auc_a, auc_b, covariance, alpha=0.05):
    z, p, _ = ch6.auc_difference_test(auc_a, auc_b, covariance, alpha)
    return z, p, auc_a > auc_b or auc_b > auc_a


def ex11_one_sided(auc_a, auc_b, covariance, alpha=0.05):
    se = np.sqrt(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
    return _ex11_from_se(auc_a, auc_b, se, alpha, two_sided=False)


def ex11_separate_intervals(auc_a, auc_b, covariance, alpha=0.05):
    """z and p right, but 'differs' only when the two (1 - alpha) intervals are disjoint."""
    from scipy.stats import norm

    z, p, _ = ch6.auc_difference_test(auc_a, auc_b, covariance, alpha)
    q = norm.ppf(1 - alpha / 2)
    lo_a, hi_a = auc_a - q * np.sqrt(covariance[0, 0]), auc_a + q * np.sqrt(covariance[0, 0])
    lo_b, hi_b = auc_b - q * np.sqrt(covariance[1, 1]), auc_b + q * np.sqrt(covariance[1, 1])
    return z, p, hi_a < lo_b or hi_b < lo_a


def ex11_covariance_added(auc_a, auc_b, covariance, alpha=0.05):
    se = np.sqrt(covariance[0, 0] + covariance[1, 1] + 2 * covariance[0, 1])
    return _ex11_from_se(auc_a, auc_b, se, alpha)


def ex11_covariance_once(auc_a, auc_b, covariance, alpha=0.05):
    se = np.sqrt(covariance[0, 0] + covariance[1, 1] - covariance[0, 1])
    return _ex11_from_se(auc_a, auc_b, se, alpha)


def ex11_variance_not_rooted(auc_a, auc_b, covariance, alpha=0.05):
    var = covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1]
    return _ex11_from_se(auc_a, auc_b, var, alpha)


def ex11_standard_errors_added(auc_a, auc_b, covariance, alpha=0.05):
    return _ex11_from_se(auc_a, auc_b, np.sqrt(covariance[0, 0]) + np.sqrt(covariance[1, 1]), alpha)


def ex11_b_minus_a(auc_a, auc_b, covariance, alpha=0.05):
    return ch6.auc_difference_test(auc_b, auc_a, covariance, alpha)


def ex11_alpha_ignored(auc_a, auc_b, covariance, alpha=0.05):
    return ch6.auc_difference_test(auc_a, auc_b, covariance)


def ex11_signed_one_sided(auc_a, auc_b, covariance, alpha=0.05):
    """P(Z > z) without the absolute value: B's better AUC gets p near 1."""
    from scipy.stats import norm

    z, _, _ = ch6.auc_difference_test(auc_a, auc_b, covariance, alpha)
    return z, norm.sf(z), norm.sf(z) < alpha


MUTANTS = {
    "ex1": [
        ex1_fpr_tpr_swapped,
        ex1_ties_not_grouped,
        ex1_no_origin,
        ex1_lowest_threshold_first,
        ex1_divided_by_n,
        ex1_strictly_greater,
        ex1_drop_intermediate,
        ex1_specificity_not_fpr,
    ],
    "ex2": [
        ex2_ties_count_zero,
        ex2_ties_count_one,
        ex2_negatives_above,
        ex2_divided_by_n_squared,
        ex2_returns_u,
        ex2_ordinal_ranks,
    ],
    "ex3": [
        ex3_trapezoids,
        ex3_trapezoids_with_end_point,
        ex3_interpolated_envelope,
        ex3_ties_not_grouped,
        ex3_precision_at_step_start,
        ex3_mean_precision,
        ex3_voc_11_point,
    ],
    "ex4": [
        ex4_log_of_softmax,
        ex4_clipped_log_of_softmax,
        ex4_no_max_subtraction,
        ex4_multiplies_by_t,
        ex4_ignores_t,
        ex4_sum_not_mean,
    ],
    "ex5": [
        ex5_search_box,
        ex5_returns_beta,
        ex5_multiplies_logits,
        ex5_grid,
        ex5_confidence_matches_accuracy,
        ex5_temperature_on_probabilities,
    ],
    "ex6": [
        ex6_unpaired,
        ex6_b_minus_a,
        ex6_alpha_not_halved,
        ex6_percentile_of_fractions,
        ex6_normal_approximation,
        ex6_separate_intervals,
        ex6_truth_not_resampled,
        ex6_indices_ignored,
    ],
    "ex9": [
        ex9_wald,
        ex9_clipped_wald,
        ex9_centred_on_p,
        ex9_z_not_squared,
        ex9_half_width_not_divided,
        ex9_agresti_coull,
        ex9_ignores_z,
        ex9_low_high_swapped,
    ],
    "ex10": [
        ex10_concordant,
        ex10_two_proportion_z,
        ex10_correction_ignored,
        ex10_predictions_crosstab,
        ex10_b_c_swapped,
        ex10_exact_binomial,
        ex10_half_correction,
        ex10_no_absolute_value,
        ex10_two_degrees_of_freedom,
        ex10_lower_tail,
        ex10_yates_contingency,
        ex10_error_counts,
    ],
    "ex11": [
        ex11_variances_added,
        ex11_higher_auc_wins,
        ex11_one_sided,
        ex11_separate_intervals,
        ex11_covariance_added,
        ex11_covariance_once,
        ex11_variance_not_rooted,
        ex11_standard_errors_added,
        ex11_b_minus_a,
        ex11_alpha_ignored,
        ex11_signed_one_sided,
    ],
}

MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) == {n for n, ex in EXERCISES_CH6.items() if ex.kind != "judgement"}


def test_at_least_five_cases_each():
    implemented = [ex for ex in EXERCISES_CH6.values() if ex.kind == "implement"]
    assert all(len(ex.cases) >= 5 for ex in implemented)
    assert all(c.note for ex in implemented for c in ex.cases)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH6[name], mutant)


def test_mutant_messages_are_useful():
    m = ch6.ex2.check(ex2_ties_count_zero, strict=False).message
    assert "case 2 of 8 (ten patients, one tied pair)" in m
    m = ch6.ex4.check(ex4_log_of_softmax, strict=False).message
    assert "huge logits" in m and "inf" in m
    m = ch6.ex5.check(ex5_search_box, strict=False).message
    assert "twelve times too confident" in m
    m = ch6.ex6.check(ex6_unpaired, strict=False).message
    assert "case 1 of 5" in m


def test_exercise_notebook_contains_no_solution_code():
    text = CH6_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "np.cumsum(y == 1)",
        "0.5 * np.sum",
        "z_max",
        "np.quantile(diffs",
        "Discussion",
        "right_a & ~right_b",
        "2 * cov[0, 1]",
        "chi2.sf(statistic",
    ):
        assert needle not in text, needle


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_fpr_tpr_swapped": "fpr_tpr_swapped",
        "ex1_ties_not_grouped": "ties_not_grouped",
        "ex1_no_origin": "no_origin",
    },
    "ex2": {
        "ex2_ties_count_zero": "ties_count_zero",
        "ex2_ties_count_one": "ties_count_one",
        "ex2_returns_u": "returns_u",
    },
    "ex3": {
        "ex3_trapezoids": "trapezoids",
        "ex3_interpolated_envelope": "envelope",
        "ex3_mean_precision": "mean_precision",
    },
    "ex4": {
        "ex4_multiplies_by_t": "multiplies_by_t",
        "ex4_ignores_t": "ignores_t",
        "ex4_sum_not_mean": "sum_not_mean",
    },
    "ex5": {
        "ex5_returns_beta": "returns_inverse",
        "ex5_multiplies_logits": "returns_inverse",  # the factor is 1 / T
        "ex5_search_box": "bounded_search",
        "ex5_grid": "coarse_grid",
    },
    "ex6": {
        "ex6_unpaired": "unpaired",
        "ex6_b_minus_a": "b_minus_a",
        "ex6_alpha_not_halved": "alpha_not_halved",
    },
    "ex9": {
        "ex9_wald": "wald",
        "ex9_centred_on_p": "centred_on_p",
        "ex9_z_not_squared": "z_not_squared",
    },
    "ex10": {
        "ex10_concordant": "concordant",
        "ex10_two_proportion_z": "unpaired",
        "ex10_correction_ignored": "no_correction",
        "ex10_predictions_crosstab": "predictions_table",
    },
    "ex11": {
        "ex11_variances_added": "independent",
        "ex11_higher_auc_wins": "auc_alone",
        "ex11_one_sided": "one_sided",
        "ex11_separate_intervals": "no_overlap",
    },
}


@pytest.mark.parametrize("i", range(len(ch6.ex9.cases)))
def test_ex9_reference_matches_statsmodels(i):
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    from scipy.stats import norm

    c = ch6.ex9.cases[i]
    z = c.kwargs.get("z", 1.959963984540054)
    expected = proportion.proportion_confint(*c.args, alpha=2 * norm.sf(z), method="wilson")
    np.testing.assert_allclose(ch6.ex9.expected(i), expected, rtol=0, atol=1e-12)


def test_ex9_has_the_traps():
    """0 of n and n of n (where Wald's interval has width 0) and a level other than 95 %."""
    counts = [(c.args[0], c.args[1]) for c in ch6.ex9.cases]
    assert any(k == 0 for k, n in counts) and any(k == n for k, n in counts)
    assert any("z" in c.kwargs for c in ch6.ex9.cases)


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH6[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH6, NAMED)
