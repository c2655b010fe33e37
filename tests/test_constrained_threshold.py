"""Thresholds for a required recall or precision (issue 29): brute force, scipy, and the promise.

The promise of ``threshold_for_recall(..., confidence=c)`` is checked by simulation: over 1,000
validation draws (positives' scores i.i.d. normal, negatives too), the true recall of the chosen
threshold falls below ``min_recall`` with probability at most ``1 - c``; the empirical rule misses
about half the time.  Both simulated rates are compared with their exact values (the true recall
of the threshold at the k-th highest of n positive scores is Beta(k, n - k + 1) distributed).
"""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY, run, same_error_type
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from test_curves_kernel import scored_problems

from mltutor.curves import (
    ConstrainedThreshold,
    threshold_for_precision,
    threshold_for_recall,
    threshold_sweep,
)

RATES = st.sampled_from([0.05, 0.3, 0.5, 0.6, 0.75, 0.9, 0.95, 0.99, 1.0]) | st.floats(0.01, 1.0)
LEVELS = st.sampled_from([None, 0.5, 0.8, 0.9, 0.95, 0.99])


def _by_hand(problem):
    """Distinct scores (descending) and TP, FP at each: a loop over thresholds."""
    pos = problem.is_positive
    s = np.asarray(problem.y_score, dtype=np.float64)
    ts = np.unique(s)[::-1]
    tp = np.array([np.sum(pos & (s >= t)) for t in ts])
    fp = np.array([np.sum(~pos & (s >= t)) for t in ts])
    return ts, tp, fp


@settings(PROPERTY, max_examples=2000)
@given(scored_problems(weights=False), RATES, LEVELS)
def test_threshold_for_recall_matches_brute_force(problem, min_recall, confidence):
    CASES["threshold_for_recall"] += 1  # every case is checked: a threshold, or the same error
    ours = run(
        threshold_for_recall,
        problem.y_true,
        problem.y_score,
        min_recall=min_recall,
        confidence=confidence,
        pos_label=problem.pos_label,
    )
    sweep = run(threshold_sweep, problem.y_true, problem.y_score, pos_label=problem.pos_label)
    if sweep.error is not None:
        assert ours.error is not None and same_error_type(sweep.error, ours.error)
        return
    ts, tp, fp = _by_hand(problem)
    n_pos = int(problem.is_positive.sum())
    if n_pos == 0:
        assert isinstance(ours.error, ValueError) and "no positives" in str(ours.error)
        return
    if confidence is None:
        allowed = [tp[i] / n_pos >= min_recall for i in range(ts.size)]
        low = None
    else:  # scipy's Beta quantile, one threshold at a time
        low = [stats.beta.ppf(1 - confidence, k, n_pos - k + 1) if k > 0 else 0.0 for k in tp]
        allowed = [bound >= min_recall for bound in low]
    if not any(allowed):
        assert isinstance(ours.error, ValueError), ours.error
        assert ("at least" if min_recall < 1 else "never reached") in str(ours.error)
        return
    assert ours.error is None, ours.error
    point = ours.result
    i = int(np.flatnonzero(ts == point.threshold)[0])
    if low is None:
        assert i == allowed.index(True)
    else:  # the first allowed one; a bound equal to min_recall to 1e-12 may fall either way
        assert low[i] >= min_recall - 1e-12 and point.lower_bound >= min_recall
        assert all(bound < min_recall + 1e-12 for bound in low[:i])
    assert (point.tp, point.fp) == (tp[i], fp[i])
    assert point.fn == n_pos - tp[i] and point.tn == fp[-1] - fp[i]
    assert point.recall == tp[i] / n_pos
    assert point.precision == tp[i] / (tp[i] + fp[i])
    if low is None:
        assert point.lower_bound is None and point.confidence is None
    else:
        assert point.confidence == confidence
        assert point.lower_bound == pytest.approx(low[i], rel=1e-12, abs=1e-300)


@PROPERTY
@given(scored_problems(weights=False), RATES)
def test_threshold_for_precision_matches_brute_force(problem, min_precision):
    CASES["threshold_for_precision"] += 1
    ours = run(
        threshold_for_precision,
        problem.y_true,
        problem.y_score,
        min_precision=min_precision,
        pos_label=problem.pos_label,
    )
    sweep = run(threshold_sweep, problem.y_true, problem.y_score, pos_label=problem.pos_label)
    if sweep.error is not None:
        assert ours.error is not None and same_error_type(sweep.error, ours.error)
        return
    ts, tp, fp = _by_hand(problem)
    allowed = [tp[i] / (tp[i] + fp[i]) >= min_precision for i in range(ts.size)]
    if not any(allowed):
        assert isinstance(ours.error, ValueError) and "No threshold" in str(ours.error)
    else:
        i = ts.size - 1 - allowed[::-1].index(True)  # the lowest allowed threshold
        assert ours.error is None, ours.error
        assert ours.result.threshold == ts[i]
        assert (ours.result.tp, ours.result.fp) == (tp[i], fp[i])


def _simulate(rule_confidence, n_pos=200, n_neg=400, repetitions=1000, seed=11):
    """Share of validation draws whose chosen threshold has a true recall below 0.95; and, for the
    same thresholds, the share of fresh deployment samples (2,000 positives each) below 0.95."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    true_miss = deployed_miss = 0
    for _ in range(repetitions):
        s = np.r_[rng.normal(1.0, 1.0, n_pos), rng.normal(-1.0, 1.0, n_neg)]
        t = threshold_for_recall(y, s, min_recall=0.95, confidence=rule_confidence).threshold
        true_miss += stats.norm.sf(t - 1.0) < 0.95
        deployed = rng.normal(1.0, 1.0, 2000)  # fresh positives from the same distribution
        deployed_miss += np.mean(deployed >= t) < 0.95
    return true_miss / repetitions, deployed_miss / repetitions


def _exact_miss(k: int, n: int, target: float = 0.95) -> float:
    """P(true recall < target) for the threshold at the k-th highest of n positive scores."""
    return float(stats.beta.cdf(target, k, n - k + 1))


def test_the_promise_by_simulation():
    n = 200
    # the empirical rule keeps the k = ceil(0.95 n) highest positives; the bound rule the fewest
    # whose 95 % lower bound reaches 0.95 (both depend on n only, for distinct scores)
    k_emp = int(np.ceil(0.95 * n))
    k_lcb = next(k for k in range(1, n + 1) if stats.beta.ppf(0.05, k, n - k + 1) >= 0.95)
    exact_emp, exact_lcb = _exact_miss(k_emp, n), _exact_miss(k_lcb, n)
    assert exact_emp > 0.5 and exact_lcb <= 0.05
    emp_true, emp_deployed = _simulate(None)
    lcb_true, lcb_deployed = _simulate(0.95)
    # tolerance: 4 binomial standard errors of a rate over 1,000 repetitions
    for simulated, exact in ((emp_true, exact_emp), (lcb_true, exact_lcb)):
        assert abs(simulated - exact) <= 4 * np.sqrt(exact * (1 - exact) / 1000)
    assert emp_true > 0.45 and lcb_true <= 0.05 + 4 * np.sqrt(0.05 * 0.95 / 1000)
    # a finite deployment sample scatters around the true recall: still about half and far fewer
    assert emp_deployed > 0.4
    assert lcb_deployed < 0.15


def test_hand_example_and_result_type():
    y = [1] * 10 + [0] * 10
    s = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.2] + [0.1 * i for i in range(10)]
    point = threshold_for_recall(y, s, min_recall=0.9)
    assert isinstance(point, ConstrainedThreshold)
    assert (point.threshold, point.tp, point.fp, point.fn, point.tn) == (0.55, 9, 4, 1, 6)
    assert threshold_for_recall(y, s, min_recall=1.0).threshold == 0.2
    bound = threshold_for_recall(y, s, min_recall=0.7, confidence=0.95)
    assert bound.threshold == 0.2
    assert bound.lower_bound == pytest.approx(0.05 ** (1 / 10), rel=1e-14)  # (1 - c)^(1/n)
    with pytest.raises(ValueError, match="at least 14 positives"):
        threshold_for_recall(y, s, min_recall=0.8, confidence=0.95)


def test_ties_move_together():
    # three positives tied at 0.5: recall jumps from 1/4 to 1 at that threshold
    point = threshold_for_recall([1, 1, 1, 1, 0], [0.9, 0.5, 0.5, 0.5, 0.5], min_recall=0.5)
    assert (point.threshold, point.tp, point.fp) == (0.5, 4, 1)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"min_recall": 0.0}, ValueError, "min_recall"),
        ({"min_recall": 1.5}, ValueError, "min_recall"),
        ({"min_recall": np.nan}, ValueError, "min_recall"),
        ({"min_recall": True}, TypeError, "min_recall"),
        ({"min_recall": "0.9"}, TypeError, "min_recall"),
        ({"min_recall": 0.9, "confidence": 1.0}, ValueError, "confidence"),
        ({"min_recall": 0.9, "confidence": 0.3}, ValueError, "confidence"),
        ({"min_recall": 0.9, "confidence": True}, TypeError, "confidence"),
    ],
)
def test_bad_parameters_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        threshold_for_recall([0, 1, 1], [0.1, 0.5, 0.9], **kwargs)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="no positives"):
        threshold_for_recall([0, 0], [0.1, 0.5], min_recall=0.9)
    with pytest.raises(ValueError, match="NaN"):
        threshold_for_recall([0, 1], [0.1, np.nan], min_recall=0.9)
    with pytest.raises(ValueError, match="No threshold"):
        threshold_for_precision([1, 0], [0.1, 0.5], min_precision=0.9)
    with pytest.raises(ValueError, match="min_precision"):
        threshold_for_precision([1, 0], [0.1, 0.5], min_precision=0)
