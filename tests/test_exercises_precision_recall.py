"""Chapter 3 exercises: references agree with scikit-learn, and known-wrong "mutants" are caught.

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
    run_notebook_code,
    without_own_values,
)

from mltutor.exercises import precision_recall as ch3

CH3_SOLUTIONS = SOLUTIONS / "03_precision_recall.ipynb"
CH3_EXERCISES = EXERCISES / "03_precision_recall.ipynb"
EXERCISES_CH3 = {name: getattr(ch3, name) for name in ch3.__all__}

sklearn_metrics = pytest.importorskip("sklearn.metrics")


@pytest.fixture(scope="module")
def solved():
    return run_notebook_code(CH3_SOLUTIONS)


# --------------------------------------------------------------------------------------------
# The references agree with scikit-learn (and with mltutor.curves, which is tested on its own)
# --------------------------------------------------------------------------------------------


def labels_from_counts(tp, fp, fn):
    """y_true, y_pred with the given counts (and two true negatives, which P and R ignore)."""
    tp, fp, fn = int(tp), int(fp), int(fn)
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, 2])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, 2])
    return y_true, y_pred


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("i", range(len(ch3.ex1.cases)))
def test_ex1_reference_matches_sklearn(i):
    c = ch3.ex1.cases[i]
    zd = c.kwargs.get("zero_division", 0.0)
    y_true, y_pred = labels_from_counts(*c.args)
    p = sklearn_metrics.precision_score(y_true, y_pred, zero_division=zd)
    r = sklearn_metrics.recall_score(y_true, y_pred, zero_division=zd)
    assert ch3.ex1.expected(i) == pytest.approx((p, r), abs=1e-12)
    assert all(type(v) is float for v in ch3.ex1.expected(i))


@pytest.mark.parametrize("i", range(len(ch3.ex2.cases)))
def test_ex2_reference_matches_sklearn(i):
    y_true, y_score, t = ch3.ex2.cases[i].args
    y_pred = (y_score >= t).astype(int)
    expected = tuple(
        getattr(sklearn_metrics, f)(y_true, y_pred, labels=[0, 1], zero_division=0)
        for f in ("precision_score", "recall_score", "f1_score")
    )
    assert ch3.ex2.expected(i) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch3.ex2.cases)))
def test_ex2_reference_matches_threshold_sweep(i):
    from mltutor.curves import threshold_sweep

    y_true, y_score, t = ch3.ex2.cases[i].args
    if not y_true.any():
        pytest.skip("threshold_sweep needs both classes to name the positive one")
    point = threshold_sweep(y_true, y_score).at(t)
    assert ch3.ex2.expected(i) == pytest.approx(
        (point.precision, point.recall, point.fbeta), abs=1e-12
    )


@pytest.mark.parametrize("i", range(len(ch3.ex3.cases)))
def test_ex3_reference_minimises_expected_cost(i):
    from mltutor.curves import cost_optimal_threshold

    c_fp, c_fn = ch3.ex3.cases[i].args
    t = ch3.ex3.expected(i)
    assert t == pytest.approx(cost_optimal_threshold(c_fp, c_fn), abs=1e-12)
    # For every probability p, "flag iff p >= t" picks the cheaper of the two expected costs.
    p = np.linspace(0, 1, 100_001)
    flag_cost, clear_cost = (1 - p) * c_fp, p * c_fn
    flagged = p >= t
    assert np.all(flag_cost[flagged] <= clear_cost[flagged] + 1e-12)
    assert np.all(clear_cost[~flagged] <= flag_cost[~flagged] + 1e-12)


def test_ex3_threshold_is_the_empirical_minimum_on_calibrated_data():
    """On a large calibrated sample the min-cost threshold found by search lands near c_fp/(c_fp+c_fn)."""
    from mltutor.curves import min_cost_threshold

    rng = np.random.default_rng(0)
    p = rng.uniform(size=200_000)
    y = (rng.random(p.size) < p).astype(int)
    for c_fp, c_fn in [(1, 1), (1, 9), (5, 1)]:
        t, _ = min_cost_threshold(y, p, c_fp=c_fp, c_fn=c_fn)
        assert t == pytest.approx(ch3.cost_optimal_threshold(c_fp, c_fn), abs=0.02)


def _review_band_by_loop(y_true, y_score, low, high):
    covered = correct = 0
    for y, s in zip(y_true.tolist(), y_score.tolist()):
        if low <= s < high:
            continue
        covered += 1
        correct += int((1 if s >= high else 0) == y)
    n = len(y_true)
    return (covered / n if n else 0.0), (correct / covered if covered else 0.0)


@pytest.mark.parametrize("i", range(len(ch3.ex4.cases)))
def test_ex4_reference_matches_a_plain_loop_and_sklearn(i):
    y_true, y_score, low, high = ch3.ex4.cases[i].args
    coverage, accuracy = ch3.ex4.expected(i)
    assert (coverage, accuracy) == pytest.approx(
        _review_band_by_loop(y_true, y_score, low, high), abs=1e-12
    )
    covered = (y_score < low) | (y_score >= high)
    if covered.any():
        ref = sklearn_metrics.accuracy_score(
            y_true[covered], (y_score[covered] >= high).astype(int)
        )
        assert accuracy == pytest.approx(ref, abs=1e-12)


def test_ex5_answer_matches_precision_recall_curve():
    precision, _, thresholds = sklearn_metrics.precision_recall_curve(ch3._Y_SWEEP, ch3._S_SWEEP)
    np.testing.assert_allclose(ch3.ex5.answer, precision[:-1][::-1], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(thresholds[::-1], np.unique(ch3._S_SWEEP)[::-1])
    assert np.any(np.diff(ch3.ex5.answer) > 0), "the example must show precision falling as t rises"


def test_cases_exercise_what_the_chapter_teaches():
    # ex2: the five-sample example of the chapter flips at 0.7 (SEED_AUDIT item 12)
    assert ch3.ex2.expected(1) == pytest.approx((1.0, 2 / 3, 0.8))
    # ex1: the spam filter (item 11) and the retrieval example
    assert ch3.ex1.expected(0) == (1.0, 0.75) and ch3.ex1.expected(1) == pytest.approx((0.6, 0.3))
    # ex4: some case has a score exactly on each edge of the band
    edges = ch3.ex4.cases[1]
    y_score, low, high = edges.args[1], edges.args[2], edges.args[3]
    assert low in y_score and high in y_score


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def ex1_swapped(tp, fp, fn, zero_division=0.0):
    p, r = ch3.precision_recall(tp, fp, fn, zero_division)
    return r, p


def ex1_epsilon(tp, fp, fn, zero_division=0.0):
    eps = 1e-6
    return tp / (tp + fp + eps), tp / (tp + fn + eps)


def ex1_ignores_zero_division(tp, fp, fn, zero_division=0.0):
    return ch3.precision_recall(tp, fp, fn, 0.0)


def ex1_nan_for_zero_over_zero(tp, fp, fn, zero_division=0.0):
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.float64(tp) / (tp + fp)), float(np.float64(tp) / (tp + fn))


def ex1_zero_division_whenever_tp_is_zero(tp, fp, fn, zero_division=0.0):
    if tp == 0:
        return float(zero_division), float(zero_division)
    return ch3.precision_recall(tp, fp, fn, zero_division)


def ex1_recall_over_everything(tp, fp, fn, zero_division=0.0):
    p, _ = ch3.precision_recall(tp, fp, fn, zero_division)
    n = tp + fp + fn
    return p, (tp / n if n else zero_division)


def ex1_integer_division(tp, fp, fn, zero_division=0.0):
    return (tp // (tp + fp) if tp + fp else zero_division), (
        tp // (tp + fn) if tp + fn else zero_division
    )


def _counts(y_true, y_score, t, strict=False):
    flagged = y_score > t if strict else y_score >= t
    actual = y_true == 1
    return np.sum(actual & flagged), np.sum(~actual & flagged), np.sum(actual & ~flagged)


def _prf(tp, fp, fn, zero=0.0):
    p = tp / (tp + fp) if tp + fp else zero
    r = tp / (tp + fn) if tp + fn else zero
    f = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
    return float(p), float(r), float(f)


def ex2_strict_greater(y_true, y_score, threshold):
    return _prf(*_counts(y_true, y_score, threshold, strict=True))


def ex2_swapped(y_true, y_score, threshold):
    p, r, f = _prf(*_counts(y_true, y_score, threshold))
    return r, p, f


def ex2_arithmetic_mean(y_true, y_score, threshold):
    p, r, _ = _prf(*_counts(y_true, y_score, threshold))
    return p, r, (p + r) / 2


def ex2_harmonic_mean_unguarded(y_true, y_score, threshold):
    p, r, _ = _prf(*_counts(y_true, y_score, threshold))
    with np.errstate(invalid="ignore"):
        return p, r, float(np.float64(2 * p * r) / (p + r))


def ex2_zero_division_one(y_true, y_score, threshold):
    return _prf(*_counts(y_true, y_score, threshold), zero=1.0)


def ex2_inverted_rule(y_true, y_score, threshold):
    return _prf(*_counts(y_true, -y_score, -threshold))


def ex2_ignores_threshold(y_true, y_score, threshold):
    return _prf(*_counts(y_true, y_score, 0.5))


def ex2_fn_counted_as_fp(y_true, y_score, threshold):
    tp, fp, fn = _counts(y_true, y_score, threshold)
    return _prf(tp, fn, fp)


def ex3_swapped_costs(c_fp, c_fn):
    return c_fn / (c_fp + c_fn)


def ex3_ratio(c_fp, c_fn):
    return c_fp / c_fn


def ex3_always_half(c_fp, c_fn):
    return 0.5


def ex3_integer_division(c_fp, c_fn):
    return c_fp // (c_fp + c_fn)


def ex3_odds_instead_of_probability(c_fp, c_fn):
    return c_fn / c_fp if c_fp else 0.0


def _band(y_true, y_score, low, high, *, in_band=None, decide_at=None, over_all=False, nan=False):
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


def ex4_coverage_of_the_band(y_true, y_score, low, high):
    coverage, accuracy = _band(y_true, y_score, low, high)
    return 1 - coverage, accuracy


def ex4_accuracy_over_all_cases(y_true, y_score, low, high):
    return _band(y_true, y_score, low, high, over_all=True)


def ex4_band_includes_high(y_true, y_score, low, high):
    return _band(y_true, y_score, low, high, in_band=(y_score >= low) & (y_score <= high))


def ex4_band_excludes_low(y_true, y_score, low, high):
    return _band(y_true, y_score, low, high, in_band=(y_score > low) & (y_score < high))


def ex4_decides_at_one_half(y_true, y_score, low, high):
    return _band(y_true, y_score, low, high, decide_at=0.5)


def ex4_nan_when_nothing_covered(y_true, y_score, low, high):
    return _band(y_true, y_score, low, high, nan=True)


def ex4_count_instead_of_share(y_true, y_score, low, high):
    coverage, accuracy = _band(y_true, y_score, low, high)
    return float(coverage * y_true.size), accuracy


MUTANTS = {
    "ex1": [
        ex1_swapped,
        ex1_epsilon,
        ex1_ignores_zero_division,
        ex1_nan_for_zero_over_zero,
        ex1_zero_division_whenever_tp_is_zero,
        ex1_recall_over_everything,
        ex1_integer_division,
    ],
    "ex2": [
        ex2_strict_greater,
        ex2_swapped,
        ex2_arithmetic_mean,
        ex2_harmonic_mean_unguarded,
        ex2_zero_division_one,
        ex2_inverted_rule,
        ex2_ignores_threshold,
        ex2_fn_counted_as_fp,
    ],
    "ex3": [
        ex3_swapped_costs,
        ex3_ratio,
        ex3_always_half,
        ex3_integer_division,
        ex3_odds_instead_of_probability,
    ],
    "ex4": [
        ex4_coverage_of_the_band,
        ex4_accuracy_over_all_cases,
        ex4_band_includes_high,
        ex4_band_excludes_low,
        ex4_decides_at_one_half,
        ex4_nan_when_nothing_covered,
        ex4_count_instead_of_share,
    ],
}


def _sweep(y, s, rule, metric="precision", distinct=True):
    thresholds = np.unique(s)[::-1] if distinct else s
    flagged = rule(s[None, :], thresholds[:, None])
    tp = (flagged & (y == 1)).sum(axis=1)
    if metric == "recall":
        return tp / (y == 1).sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        return tp / flagged.sum(axis=1)


_Y, _S = ch3._Y_SWEEP, ch3._S_SWEEP
VALUE_MUTANTS = {
    "ex5": [
        ("lowest threshold first", _sweep(_Y, _S, np.greater_equal)[::-1]),
        ("recall instead", _sweep(_Y, _S, np.greater_equal, "recall")),
        ("ties counted one by one", _sweep(_Y, _S, np.greater_equal, distinct=False)),
        ("strict > rule", np.nan_to_num(_sweep(_Y, _S, np.greater))),
        ("only the first four", _sweep(_Y, _S, np.greater_equal)[:4]),
        ("monotone by assumption", np.sort(_sweep(_Y, _S, np.greater_equal))[::-1]),
    ]
}

MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]
VALUE_PARAMS = [
    pytest.param(ex, v, id=f"{ex}-{label}") for ex, vs in VALUE_MUTANTS.items() for label, v in vs
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) | set(VALUE_MUTANTS) == {
        n for n, ex in EXERCISES_CH3.items() if ex.kind != "judgement"
    }


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH3[name], mutant)


@pytest.mark.parametrize("name, value", VALUE_PARAMS)
def test_wrong_value_is_caught(name, value):
    ex = EXERCISES_CH3[name]
    result = ex.check(value, strict=False)
    assert result.status == "incorrect", f"{value!r} passed {name}"
    message = without_own_values(result.message)
    for v in np.ravel(ex.answer):
        for text in {f"{v:.3f}", f"{v:.6g}", repr(float(v))}:
            assert v == round(v) or text not in message, (label_of(value), message)


def label_of(value):
    return np.array2string(np.asarray(value), precision=3)


def test_wrong_scalar_values_are_caught():
    for value in (0.5, 1.0, 0.0):
        assert_wrong_value_caught_array(ch3.ex5, value)


def assert_wrong_value_caught_array(ex, value):
    result = ex.check(value, strict=False)
    assert result.status == "incorrect"
    assert "expected an array" in result.message or "shape" in result.message


def test_mutant_messages_are_useful():
    """Spot-check that messages point at the mistake."""
    m = ch3.ex1.check(ex1_nan_for_zero_over_zero, strict=False).message
    assert "NaN" in m and "(nothing flagged: precision is 0/0)" in m
    m = ch3.ex2.check(ex2_strict_greater, strict=False).message
    assert "case 3 of" in m and "(scores equal to the threshold)" in m
    m = ch3.ex3.check(ex3_swapped_costs, strict=False).message
    assert "case 2 of" in m  # equal costs cannot tell the two apart
    m = ch3.ex4.check(ex4_band_includes_high, strict=False).message
    assert "(scores exactly on the band's edges)" in m and "`coverage`" in m
    m = ch3.ex5.check(VALUE_MUTANTS["ex5"][2][1], strict=False).message
    assert "wrong shape" in m


def test_solution_functions_in_the_notebook_match_the_references(solved):
    namespace, _ = solved
    for name, ex in EXERCISES_CH3.items():
        if hasattr(ex, "reference"):
            func = namespace[ex.reference.__name__]
            for i, c in enumerate(ex.cases):
                assert c.run(func) == pytest.approx(ex.expected(i), abs=1e-12), (name, i)


def test_exercise_notebook_contains_no_solution_code():
    text = CH3_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "c_fp / (c_fp + c_fn)",
        "2 * tp / (2 * tp + fp + fn)",
        "covered.mean()",
        "np.unique(y_score)[::-1]",
        "Discussion",
        "if flagged > 0 else zero_division",
    ):
        assert needle not in text, needle


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_swapped": "swapped",
        "ex1_epsilon": "epsilon",
        "ex1_ignores_zero_division": "ignores_zero_division",
    },
    "ex2": {
        "ex2_strict_greater": "strict_greater",
        "ex2_swapped": "swapped",
        "ex2_fn_counted_as_fp": "swapped",  # fp and fn swapped swaps P and R
        "ex2_arithmetic_mean": "arithmetic_mean",
    },
    "ex3": {
        "ex3_swapped_costs": "swapped_costs",
        "ex3_ratio": "ratio",
        "ex3_always_half": "always_half",
    },
    "ex4": {
        "ex4_coverage_of_the_band": "coverage_of_band",
        "ex4_accuracy_over_all_cases": "accuracy_over_all",
        "ex4_band_includes_high": "band_includes_high",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH3[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH3, NAMED)


# --------------------------------------------------------------------------------------------
# The judgement exercises: the intended answers follow from the scenarios as worded
# --------------------------------------------------------------------------------------------


def test_ex6_answer_minimises_the_expected_cost_of_the_scenario():
    """Review 5 € on every flagged transaction (frauds included), 95 € per fraud not flagged."""
    review, loss = 5.0, 95.0
    p = np.linspace(0, 1, 200_001)
    flag, clear = np.full_like(p, review), p * loss  # expected cost of each decision

    def expected_cost(t):  # calibrated p spread uniformly: flag iff p >= t
        return np.mean(np.where(p >= t, flag, clear))

    t = ch3.ex6.answer
    assert t == pytest.approx(review / loss, abs=1e-15)
    assert np.all(flag[p >= t] <= clear[p >= t] + 1e-12) and np.all(clear[p < t] <= flag[p < t])
    for other in (0.05, 0.95, 0.5, 90 / 95, 5 / 90):
        assert expected_cost(t) < expected_cost(other), other
    # the chapter's formula gives it with every cost relative to the correct decision
    assert ch3.cost_optimal_threshold(review - 0.0, loss - review) == pytest.approx(t, abs=1e-15)


@pytest.mark.parametrize(
    "value, why",
    [
        (0.05, "a caught fraud costs 5 €, not 0"),
        (1 / 20, "a caught fraud costs 5 €, not 0"),
        (0.95, "swaps the roles of the two costs"),
        (90 / 95, "swaps the roles of the two costs"),
        (5 / 90, "divides one cost by the other"),
        (0.5, "minimises the number of errors"),
    ],
)
def test_ex6_known_wrong_values_are_explained(value, why):
    result = ch3.ex6.check(value, strict=False)
    assert result.status == "incorrect" and why in result.message, result.message
    assert "0.0526" not in without_own_values(result.message)


@pytest.mark.parametrize("value", [5 / 95, 0.0526, 0.053, 0.0525])
def test_ex6_the_right_reasoning_passes(value):
    assert ch3.ex6.check(value).correct


def _recall_target_failure_rate(n_pos, k):
    """P(true recall < 0.95) for the threshold at the k-th lowest of n_pos validation positives.

    For continuous scores the true miss rate there is Beta(k, n - k + 1), so it exceeds 0.05
    with probability P(Binomial(n, 0.05) < k).
    """
    from scipy import stats

    return stats.binom.cdf(k - 1, n_pos, 0.05)


def test_ex7_the_margin_rule_meets_the_target_and_the_edge_rule_does_not():
    from mltutor.stats import proportion_ci

    for n_pos in (20, 50, 58, 59, 100, 200, 500, 1000, 2000):
        k = np.arange(1, n_pos + 1)  # threshold at the k-th lowest positive score
        kept = n_pos - k + 1
        edge = k[kept / n_pos >= 0.95][-1]
        assert _recall_target_failure_rate(n_pos, edge) > 0.4, n_pos  # option (c): about half
        low, _ = proportion_ci(kept, n_pos, alpha=0.10, method="clopper-pearson")
        allowed = k[low >= 0.95]
        if n_pos < 59:
            assert allowed.size == 0, n_pos  # too few positives to promise it: no threshold
            continue
        assert _recall_target_failure_rate(n_pos, allowed[-1]) <= 0.05 + 1e-12, n_pos  # option (b)
    assert ch3.ex7.answer == "b"
    assert "lower confidence bound" in ch3.ex7.options["b"][0]
    assert "at least 0.95" in ch3.ex7.options["c"][0] and "bound" not in ch3.ex7.options["c"][0]


# --------------------------------------------------------------------------------------------
# ex8: the threshold to ship for a deployment recall of 0.9, computed independently
# --------------------------------------------------------------------------------------------


def _ex8_rule(rule: str) -> float:
    """The threshold each way of reasoning ships, from the validation set alone."""
    from scipy import stats

    from mltutor.curves import threshold_for_recall

    y, s = ch3.EX8_Y, ch3.EX8_SCORES
    pos = np.sort(s[y == 1])  # ascending
    n = pos.size
    kept = n - np.searchsorted(pos, pos, side="left")  # positives at or above each score
    if rule == "bound":  # the intended rule, by hand: Clopper-Pearson, one-sided 95 %
        low = stats.beta.ppf(0.05, kept, n - kept + 1)
        return float(pos[low >= 0.9].max())
    if rule == "edge":
        return float(pos[kept / n >= 0.9].max())
    if rule == "keep_all":
        return float(pos.min())
    if rule == "two_sided":  # the lower end of a two-sided 95 % interval
        return threshold_for_recall(y, s, min_recall=0.9, confidence=0.975).threshold
    if rule == "fixed_margin":
        return threshold_for_recall(y, s, min_recall=0.95).threshold
    raise ValueError(rule)


def test_ex8_answer_is_the_lower_bound_rule():
    from mltutor.curves import threshold_for_recall

    point = threshold_for_recall(ch3.EX8_Y, ch3.EX8_SCORES, min_recall=0.9, confidence=0.95)
    assert ch3.ex8.answer == point.threshold == _ex8_rule("bound")
    assert point.lower_bound >= 0.9
    assert ch3.ex8.check(point.threshold).correct
    assert (ch3.EX8_Y == 1).sum() == 200 and (ch3.EX8_Y == 0).sum() == 800  # as the statement says


EX8_MUTANTS = {
    "edge": "takes the validation recall for the deployed recall",
    "keep_all": "a lower threshold is not free",
    "two_sided": "a one-sided 97.5 % bound",
    "fixed_margin": "a margin of fixed size",
}


@pytest.mark.parametrize("rule, why", EX8_MUTANTS.items())
def test_ex8_mutant_rules_are_caught_and_explained(rule, why):
    value = _ex8_rule(rule)
    assert abs(value - ch3.ex8.answer) > 2 * ch3.ex8.atol, rule  # far from the answer
    result = ch3.ex8.check(value, strict=False)
    assert result.status == "incorrect" and why in result.message, result.message
    assert f"{ch3.ex8.answer:.2f}" not in without_own_values(result.message)
    with pytest.raises(Exception, match="not right"):
        ch3.ex8.check(value, strict=True)


def test_ex8_wrong_values_are_separated():
    values = [ch3.ex8.answer] + [v for v, _ in ch3.ex8.wrong_answers]
    gaps = np.abs(np.subtract.outer(values, values))[np.triu_indices(len(values), 1)]
    assert gaps.min() > 2 * ch3.ex8.atol


def test_ex8_statements_in_the_explanations_hold():
    from mltutor.stats import proportion_ci

    y, s = ch3.EX8_Y, ch3.EX8_SCORES
    keep_all = _ex8_rule("keep_all")
    assert round(100 * np.mean(s[y == 0] >= keep_all)) == 78  # "it flags 78 % of the healthy"
    fpr = {r: np.mean(s[y == 0] >= _ex8_rule(r)) for r in ("bound", "two_sided", "fixed_margin")}
    assert fpr["two_sided"] > fpr["bound"] and fpr["fixed_margin"] > fpr["bound"]  # more alarms
    # the fixed margin is larger than needed here (more positives kept than the bound needs) ...
    kept = {r: np.sum(s[y == 1] >= _ex8_rule(r)) for r in ("bound", "fixed_margin")}
    assert kept["fixed_margin"] > kept["bound"]
    # ... and too small with a few dozen positives: with 40, aiming at 0.95 keeps 38, while a
    # 95 % lower bound of 0.9 needs all 40
    low, _ = proportion_ci(np.array([38, 40]), 40, alpha=0.10, method="clopper-pearson")
    assert low[0] < 0.9 <= low[1]
    # the edge rule's true recall falls short about half the time: at the k-th lowest of n
    # positives the true miss rate is Beta(k, n - k + 1), above 0.1 w.p. P(Bin(n, 0.1) < k)
    from scipy import stats

    n = 200
    k_edge = n - 180 + 1  # the threshold keeps 180 of the 200
    assert 0.4 < stats.binom.cdf(k_edge - 1, n, 0.1) < 0.65
    k_bound = n - int(np.sum(s[y == 1] >= _ex8_rule("bound"))) + 1
    assert stats.binom.cdf(k_bound - 1, n, 0.1) <= 0.05  # the bound keeps its 5 %


# --------------------------------------------------------------------------------------------
# ex9: the decision-curve judgement, from the table the learner reads
# --------------------------------------------------------------------------------------------

EX9_ROWS = np.round(np.arange(0.05, 0.61, 0.05), 2)  # the rows printed in the notebook


def _ex9_table():
    """Net benefit of the model and of treat all at the printed rows, by the definition."""
    y, s = ch3.EX9_Y, ch3.EX9_SCORES
    n = y.size
    odds = EX9_ROWS / (1 - EX9_ROWS)
    treat = s[None, :] >= EX9_ROWS[:, None]
    model = (treat & (y == 1)).sum(axis=1) / n - (treat & (y == 0)).sum(axis=1) / n * odds
    treat_all = y.mean() - (1 - y.mean()) * odds
    return model, treat_all


def test_ex9_table_matches_decision_curve():
    from mltutor.curves import decision_curve

    curve = decision_curve(ch3.EX9_Y, ch3.EX9_SCORES)
    rows = np.searchsorted(np.round(curve.thresholds, 2), EX9_ROWS)
    model, treat_all = _ex9_table()
    assert np.allclose(curve.model[rows], model, rtol=0, atol=1e-12)
    assert np.allclose(curve.treat_all[rows], treat_all, rtol=0, atol=1e-12)


def test_ex9_options_describe_the_table():
    model, treat_all = _ex9_table()
    above_both = (model > treat_all) & (model > 0)
    assert EX9_ROWS[above_both].tolist() == [0.05, 0.1, 0.15, 0.2, 0.25]  # option (a)
    assert np.all(model[EX9_ROWS >= 0.3] < 0)  # "from 0.30 on ... below treating nobody"
    assert np.all(model > treat_all)  # option (b)'s premise: above treat all in every row
    assert np.argmax(model) == 0  # option (c)'s premise: highest at 0.05
    assert np.all(np.diff(treat_all) < 0)  # net benefit falls with p_t (treat all)
    from sklearn.metrics import roc_auc_score

    assert roc_auc_score(ch3.EX9_Y, ch3.EX9_SCORES) > 0.7  # option (d)'s premise: a high AUC
    # the scores overstate the risk: sqrt(p) > p, and a calibrated score does better
    p = ch3.EX9_SCORES**2
    assert np.all(ch3.EX9_SCORES >= p)
    odds = EX9_ROWS / (1 - EX9_ROWS)
    treat = p[None, :] >= EX9_ROWS[:, None]
    y = ch3.EX9_Y
    calibrated = ((treat & (y == 1)).sum(1) - (treat & (y == 0)).sum(1) * odds) / y.size
    assert np.all(calibrated[EX9_ROWS >= 0.3] >= model[EX9_ROWS >= 0.3])


@pytest.mark.parametrize("letter", ["b", "c", "d"])
def test_ex9_wrong_options_are_explained(letter):
    result = ch3.ex9.check(letter, strict=False)
    assert result.status == "incorrect"
    assert ch3.ex9.options[letter][1][:40] in result.message
    assert ch3.ex9.check("a").correct
