"""Chapter 6 exercises: references agree with scikit-learn (and mltutor.calibration), correct
alternative solutions pass, and known-wrong "mutants" are caught.

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from _exercise_harness import assert_misconceptions_proven, assert_named, EXERCISES, SOLUTIONS, assert_mutant_caught
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
    assert ch6.ex3.expected(i) == pytest.approx(sklearn_metrics.average_precision_score(y, s), abs=1e-12)


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

    res = stats.paired_bootstrap(metric, y, a, b, n_resamples=len(idx), confidence_level=level,
                                 random_state=SameIndices(), skip_single_class=False)
    assert ch6.ex6.expected(i) == pytest.approx((res.low, res.high), abs=1e-12)


def test_ex6_auc_resamples_keep_both_classes():
    for c in ch6.ex6.cases:
        metric, y, _, _, idx, _ = c.args
        if metric is ch6.roc_auc:
            counts = y[idx].sum(axis=1)
            assert counts.min() > 0 and counts.max() < idx.shape[1]


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
    res = minimize_scalar(lambda u: ch6.nll_at_temperature(logits, y_true, np.exp(u)),
                          bracket=(-1.0, 1.0))
    return float(np.exp(res.x))


def ex6_vectorised(metric, y_true, pred_a, pred_b, indices, confidence_level=0.95):
    diffs = [metric(y_true[i], pred_a[i]) - metric(y_true[i], pred_b[i]) for i in indices]
    lo, hi = np.percentile(diffs, [50 * (1 - confidence_level), 50 * (1 + confidence_level)])
    return lo, hi


@pytest.mark.parametrize("name, solution", [
    ("ex1", ex1_with_a_loop), ("ex1", ex1_with_sklearn), ("ex2", ex2_with_average_ranks),
    ("ex3", ex3_with_sklearn), ("ex4", ex4_with_scipy_logsumexp), ("ex5", ex5_with_scipy),
    ("ex6", ex6_vectorised),
])
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
    return float(np.mean([precision[recall >= r].max() if np.any(recall >= r) else 0.0
                          for r in np.arange(11) / 10]))


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def ex4_log_of_softmax(logits, y_true, temperature):
    with np.errstate(divide="ignore"):
        return float(np.mean(-np.log(_softmax(logits / temperature)[np.arange(len(y_true)), y_true])))


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
    res = minimize_scalar(lambda t: ch6.nll_at_temperature(logits, y_true, t), bounds=(0.1, 5.0),
                          method="bounded")
    return float(res.x)


def ex5_returns_beta(logits, y_true):
    return 1.0 / ch6.fit_temperature(logits, y_true)


def ex5_multiplies_logits(logits, y_true):
    """Optimises a factor that multiplies the logits, and reports it as T."""
    res = minimize_scalar(lambda u: ch6.nll_at_temperature(logits * np.exp(u), y_true, 1.0),
                          bracket=(-1.0, 1.0))
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
    res = minimize_scalar(lambda u: ch6.nll_at_temperature(probs, y_true, np.exp(u)),
                          bracket=(-1.0, 1.0))
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


MUTANTS = {
    "ex1": [ex1_fpr_tpr_swapped, ex1_ties_not_grouped, ex1_no_origin, ex1_lowest_threshold_first,
            ex1_divided_by_n, ex1_strictly_greater, ex1_drop_intermediate, ex1_specificity_not_fpr],
    "ex2": [ex2_ties_count_zero, ex2_ties_count_one, ex2_negatives_above, ex2_divided_by_n_squared,
            ex2_returns_u, ex2_ordinal_ranks],
    "ex3": [ex3_trapezoids, ex3_trapezoids_with_end_point, ex3_interpolated_envelope,
            ex3_ties_not_grouped, ex3_precision_at_step_start, ex3_mean_precision, ex3_voc_11_point],
    "ex4": [ex4_log_of_softmax, ex4_clipped_log_of_softmax, ex4_no_max_subtraction,
            ex4_multiplies_by_t, ex4_ignores_t, ex4_sum_not_mean],
    "ex5": [ex5_search_box, ex5_returns_beta, ex5_multiplies_logits, ex5_grid,
            ex5_confidence_matches_accuracy, ex5_temperature_on_probabilities],
    "ex6": [ex6_unpaired, ex6_b_minus_a, ex6_alpha_not_halved, ex6_percentile_of_fractions,
            ex6_normal_approximation, ex6_separate_intervals, ex6_truth_not_resampled,
            ex6_indices_ignored],
    "ex9": [ex9_wald, ex9_clipped_wald, ex9_centred_on_p, ex9_z_not_squared,
            ex9_half_width_not_divided, ex9_agresti_coull, ex9_ignores_z, ex9_low_high_swapped],
}

MUTANT_PARAMS = [pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms]


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
    for needle in ("np.cumsum(y == 1)", "0.5 * np.sum", "z_max", "np.quantile(diffs", "Discussion"):
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
