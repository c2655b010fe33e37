"""mltutor.curves against brute force with scikit-learn at every threshold.

The vectorised sweep (one sort, cumulative sums) must agree, at every distinct threshold and at any
other threshold passed to ``.at``, with scikit-learn applied to the thresholded predictions
``y_score >= t`` one threshold at a time.  Two brute forces:

* the property tests build one indicator column per threshold (column ``j`` is
  ``y_score >= t_j``) and let scikit-learn count and divide every column on its own
  (``multilabel_confusion_matrix`` and ``precision_recall_fscore_support(average=None)``) —
  the per-threshold loop, batched so that 1000 cases fit in seconds;
* a smaller literal loop calls ``confusion_matrix``, ``precision_score``, ``recall_score``,
  ``fbeta_score`` and ``accuracy_score`` once per threshold.

Both use ``zero_division=0``; floats must agree to 1e-12 and unweighted counts exactly.
"""

from __future__ import annotations

import doctest
from dataclasses import FrozenInstanceError, replace

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY, run, same_error_type
from hypothesis import given, settings
from hypothesis import strategies as st
from test_curves_kernel import scored_problems, sklearn_counts

import mltutor.curves
from mltutor.curves import (
    OperatingPoint,
    ThresholdSweep,
    best_fbeta_threshold,
    cost_optimal_threshold,
    min_cost_threshold,
    threshold_sweep,
)

ATOL = 1e-12
BETAS = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0, np.inf]), st.floats(0.1, 4.0))
COSTS = st.one_of(st.sampled_from([0.5, 1.0, 2.0, 5.0, 10.0]), st.floats(0.01, 100.0))


def brute_force(problem, thresholds: np.ndarray, beta: float) -> dict:
    """scikit-learn's counts and rates for "predict positive when score >= t", each t separately."""
    y = problem.is_positive.astype(np.int64)
    scores = np.asarray(problem.y_score, dtype=np.float64)
    y_pred = (scores[:, None] >= thresholds[None, :]).astype(np.int64)  # one column per threshold
    y_true = np.repeat(y[:, None], thresholds.shape[0], axis=1)
    w = problem.sample_weight
    mcm = skm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=w)  # [[tn, fp], [fn, tp]]
    p, r, f, _ = skm.precision_recall_fscore_support(
        y_true, y_pred, beta=beta, average=None, zero_division=0, sample_weight=w
    )
    _, specificity, _, _ = skm.precision_recall_fscore_support(
        1 - y_true, 1 - y_pred, average=None, zero_division=0, sample_weight=w
    )
    tn, fp, fn, tp = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1]
    accuracy = (tp + tn) / (tn + fp + fn + tp)  # accuracy_score itself: in the literal loop below
    return dict(
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        precision=p,
        recall=r,
        fbeta=f,
        accuracy=accuracy,
        specificity=specificity,
    )


def extra_thresholds(thresholds: np.ndarray) -> np.ndarray:
    """Thresholds that are not scores: above the top, below the bottom, +-inf and midpoints."""
    mids = (thresholds[:-1] + thresholds[1:]) / 2
    return np.r_[np.inf, thresholds[0] + 1.0, mids[:3], thresholds[-1] - 1.0, -np.inf]


def _same(ours, ref, name: str, weighted: bool) -> None:
    ours, ref = np.asarray(ours), np.asarray(ref)
    if name in ("tp", "fp", "fn", "tn") and not weighted:
        assert ours.dtype.kind == "i", f"{name}: unweighted counts must be ints, got {ours.dtype}"
        np.testing.assert_array_equal(ours, ref, err_msg=name)
    else:
        np.testing.assert_allclose(ours, ref, rtol=0, atol=ATOL, err_msg=name)


FIELDS = ("tp", "fp", "fn", "tn", "precision", "recall", "fbeta", "accuracy", "specificity")


@PROPERTY
@given(scored_problems(), BETAS, COSTS, COSTS)
def test_sweep_best_fbeta_and_min_cost_match_brute_force(problem, beta, c_fp, c_fn):
    """One brute-force table per drawn problem checks all four: the sweep rows, ``.at`` between and
    beyond the scores, the best F-beta threshold and the minimum-cost threshold."""
    kwargs = problem.kwargs()
    outcome = run(threshold_sweep, problem.y_true, problem.y_score, beta=beta, **kwargs)
    reference = run(sklearn_counts, problem.y_true, problem.y_score, **kwargs)
    if reference.error is not None:  # invalid input: every function refuses it like scikit-learn
        for fn, extra in (
            (threshold_sweep, {}),
            (best_fbeta_threshold, {}),
            (min_cost_threshold, {"c_fp": c_fp, "c_fn": c_fn}),
        ):
            got = run(fn, problem.y_true, problem.y_score, **kwargs, **extra)
            assert got.error is not None and same_error_type(reference.error, got.error), got
        return
    assert outcome.error is None, outcome.error
    assert not outcome.warnings, outcome.warnings
    sweep = outcome.result
    weighted = problem.sample_weight is not None
    extras = extra_thresholds(sweep.thresholds)
    brute = brute_force(problem, np.r_[sweep.thresholds, extras], beta)
    k = len(sweep)

    # 1. every row of the sweep
    CASES["threshold_sweep"] += 1
    np.testing.assert_array_equal(
        sweep.thresholds, np.asarray(reference.result[2], dtype=np.float64)
    )
    for name in FIELDS:
        _same(getattr(sweep, name), brute[name][:k], name, weighted)

    # 2. .at() on the thresholds themselves and on thresholds that are not scores
    CASES["ThresholdSweep.at"] += 1
    points = [sweep.at(t) for t in np.r_[sweep.thresholds, extras]]
    for name in FIELDS:
        _same([getattr(p, name) for p in points], brute[name], f"at().{name}", weighted)

    # 3. the best F-beta threshold: the highest threshold among the (brute-force) maxima
    CASES["best_fbeta_threshold"] += 1
    t_best, f_best = best_fbeta_threshold(problem.y_true, problem.y_score, beta=beta, **kwargs)
    f_brute = brute["fbeta"][:k]
    assert abs(f_best - f_brute.max()) <= ATOL
    assert t_best == sweep.thresholds[np.flatnonzero(f_brute >= f_brute.max() - ATOL)[0]]

    # 4. the minimum-cost threshold over the scores and +inf (nothing predicted positive)
    CASES["min_cost_threshold"] += 1
    t_cost, cost = min_cost_threshold(
        problem.y_true, problem.y_score, c_fp=c_fp, c_fn=c_fn, **kwargs
    )
    candidates = np.r_[np.inf, sweep.thresholds]
    cost_brute = c_fp * brute["fp"][[k] + list(range(k))] + c_fn * brute["fn"][[k] + list(range(k))]
    tol = ATOL * max(1.0, float(np.abs(cost_brute).max()))
    assert abs(cost - cost_brute.min()) <= tol
    assert t_cost == candidates[np.flatnonzero(cost_brute <= cost_brute.min() + tol)[0]]


@settings(PROPERTY, max_examples=150)
@given(scored_problems(max_n=8), BETAS)
def test_literal_loop_over_thresholds(problem, beta):
    """The brute force exactly as a learner would write it: one set of sklearn calls per threshold.
    (About 10 ms per threshold, so fewer and smaller cases.)"""
    sweep = run(
        threshold_sweep, problem.y_true, problem.y_score, beta=beta, **problem.kwargs()
    ).result
    if sweep is None:
        return
    CASES["threshold_sweep (literal sklearn loop)"] += 1
    y = problem.is_positive
    w = problem.sample_weight
    scores = np.asarray(problem.y_score)
    for i, t in enumerate(sweep.thresholds):
        y_pred = scores >= t
        tn, fp, fn, tp = skm.confusion_matrix(
            y, y_pred, labels=[False, True], sample_weight=w
        ).ravel()
        ref = dict(
            tp=tp,
            fp=fp,
            fn=fn,
            tn=tn,
            precision=skm.precision_score(y, y_pred, zero_division=0, sample_weight=w),
            recall=skm.recall_score(y, y_pred, zero_division=0, sample_weight=w),
            fbeta=skm.fbeta_score(y, y_pred, beta=beta, zero_division=0, sample_weight=w),
            accuracy=skm.accuracy_score(y, y_pred, sample_weight=w),
        )
        for name, value in ref.items():
            _same(getattr(sweep, name)[i], value, name, w is not None)


@PROPERTY
@given(COSTS, COSTS, st.floats(0.0, 1.0))
def test_cost_optimal_threshold_is_the_bayes_rule(c_fp, c_fn, p):
    """Predicting positive is cheaper in expectation, (1 - p) c_fp <= p c_fn, exactly when
    p >= c_fp / (c_fp + c_fn) (up to rounding at the boundary)."""
    CASES["cost_optimal_threshold"] += 1
    t = cost_optimal_threshold(c_fp, c_fn)
    assert 0 < t < 1 and t == c_fp / (c_fp + c_fn)
    cost_positive, cost_negative = (1 - p) * c_fp, p * c_fn
    if abs(p - t) > 1e-9:
        assert (p >= t) == (cost_positive <= cost_negative)


# --------------------------------------------------------------------------------------------
# Hand-picked cases
# --------------------------------------------------------------------------------------------

Y4, S4 = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]


def test_precision_is_not_monotone_in_the_threshold():
    """SEED_AUDIT 18: raising the threshold can lower precision (1.0, 0.5, 0.667, 0.5)."""
    sweep = threshold_sweep(Y4, S4)
    assert sweep.precision.round(3).tolist() == [1.0, 0.5, 0.667, 0.5]
    assert sweep.recall.tolist() == [0.5, 0.5, 1.0, 1.0]
    assert sweep.tp.tolist() == [1, 1, 2, 2] and sweep.tn.tolist() == [2, 1, 1, 0]


def test_ties_cross_the_threshold_together():
    sweep = threshold_sweep([1, 0, 1, 0, 1], [0.9, 0.6, 0.6, 0.6, 0.2])
    assert sweep.thresholds.tolist() == [0.9, 0.6, 0.2]
    assert sweep.tp.tolist() == [1, 2, 3] and sweep.fp.tolist() == [0, 2, 2]
    assert sweep.at(0.7).tp == 1 and sweep.at(0.6).tp == 2 and sweep.at(0.5999).fp == 2


def test_single_score_value():
    sweep = threshold_sweep([0, 1, 1], [0.5, 0.5, 0.5])
    assert (
        len(sweep) == 1 and sweep.precision.tolist() == [2 / 3] and sweep.recall.tolist() == [1.0]
    )
    assert best_fbeta_threshold([0, 1, 1], [0.5, 0.5, 0.5]) == (0.5, 0.8)
    # nothing predicted positive costs 2 misses; everything costs 1 false alarm
    assert min_cost_threshold([0, 1, 1], [0.5] * 3, c_fp=1, c_fn=1) == (0.5, 1.0)
    assert min_cost_threshold([0, 1, 1], [0.5] * 3, c_fp=3, c_fn=1) == (np.inf, 2.0)


def test_all_positive_and_all_negative():
    pos = threshold_sweep([1, 1, 1], [0.2, 0.5, 0.9])
    assert pos.precision.tolist() == [1.0, 1.0, 1.0] and pos.specificity.tolist() == [0.0, 0.0, 0.0]
    assert best_fbeta_threshold([1, 1, 1], [0.2, 0.5, 0.9]) == (0.2, 1.0)
    neg = threshold_sweep([0, 0, 0], [0.2, 0.5, 0.9])
    assert (
        neg.recall.tolist() == [0.0] * 3 and neg.fbeta.tolist() == [0.0] * 3
    )  # 0/0 -> 0, no warning
    assert neg.precision.tolist() == [0.0] * 3 and neg.specificity.tolist() == [2 / 3, 1 / 3, 0.0]
    # F-beta is 0 everywhere: the highest threshold wins the tie
    assert best_fbeta_threshold([0, 0, 0], [0.2, 0.5, 0.9]) == (0.9, 0.0)
    assert min_cost_threshold([0, 0, 0], [0.2, 0.5, 0.9], c_fp=1, c_fn=1) == (np.inf, 0.0)


def test_integer_weights_equal_repeated_samples():
    y, s, w = (
        np.array([0, 1, 1, 0, 1]),
        np.array([0.3, 0.8, 0.3, 0.6, 0.1]),
        np.array([2, 1, 3, 1, 2]),
    )
    weighted = threshold_sweep(y, s, sample_weight=w)
    repeated = threshold_sweep(np.repeat(y, w), np.repeat(s, w))
    assert weighted.tp.dtype == np.float64 and repeated.tp.dtype == np.int64
    for name in FIELDS:
        np.testing.assert_allclose(
            getattr(weighted, name), getattr(repeated, name), rtol=0, atol=ATOL
        )
    assert best_fbeta_threshold(y, s, sample_weight=w) == best_fbeta_threshold(
        np.repeat(y, w), np.repeat(s, w)
    )


def test_zero_weight_samples_do_not_add_thresholds():
    sweep = threshold_sweep([0, 1, 1], [0.9, 0.5, 0.2], sample_weight=[0, 1, 1])
    assert sweep.thresholds.tolist() == [0.5, 0.2]
    assert sweep.at(0.9).tp == 0 and sweep.at(0.9).fp == 0  # the zero-weight negative counts 0


def test_at_semantics():
    sweep = threshold_sweep(Y4, S4)
    above = sweep.at(2.0)
    assert (above.tp, above.fp, above.fn, above.tn) == (0, 0, 2, 2)
    assert above.precision == 0.0 and above.recall == 0.0 and above.specificity == 1.0
    same = [replace(sweep.at(t), threshold=0.0) for t in (-np.inf, 0.1, -5)]
    assert same[0] == same[1] == same[2]
    assert sweep.at(0.37) == OperatingPoint(
        threshold=0.37,
        tp=1,
        fp=1,
        fn=1,
        tn=1,
        precision=0.5,
        recall=0.5,
        fbeta=0.5,
        accuracy=0.5,
        specificity=0.5,
        beta=1.0,
    )
    assert isinstance(sweep.at(0.37).tp, int) and isinstance(sweep.at(0.37).precision, float)
    assert sweep.at(0.35).confusion_matrix.tolist() == [[1, 1], [0, 2]]
    assert sweep.at(0.35).cost(c_fp=2, c_fn=7) == 2.0
    assert sweep.index(0.8) == 1 and sweep.index(0.81) == 0 and sweep.index(0.0) == 4


def test_beta_extremes():
    zero, inf = threshold_sweep(Y4, S4, beta=0), threshold_sweep(Y4, S4, beta=np.inf)
    np.testing.assert_array_equal(zero.fbeta, zero.precision)
    np.testing.assert_array_equal(inf.fbeta, inf.recall)
    assert best_fbeta_threshold(Y4, S4, beta=2) == (0.35, 10 / 11)


def test_pos_label_and_multiclass():
    y = np.array(["spam", "ham", "spam", "ham"])
    a = threshold_sweep(y, [0.9, 0.8, 0.3, 0.1], pos_label="spam")
    assert a.pos_label == "spam" and a.tp.tolist() == [1, 1, 2, 2]
    b = threshold_sweep([0, 2, 1, 2], [0.9, 0.8, 0.3, 0.1], pos_label=2)
    assert b.tp.tolist() == [0, 1, 1, 2] and b.n_neg == 2
    with pytest.raises(ValueError, match="pos_label"):
        threshold_sweep(y, [0.9, 0.8, 0.3, 0.1])


def test_sweep_is_immutable_and_prints():
    sweep = threshold_sweep(Y4, S4)
    with pytest.raises(FrozenInstanceError):
        sweep.beta = 2.0
    with pytest.raises(ValueError):
        sweep.precision[0] = 0.0
    assert (
        repr(sweep)
        == "ThresholdSweep(4 thresholds from 0.8 down to 0.1; positives=2, negatives=2, beta=1)"
    )
    assert isinstance(sweep, ThresholdSweep) and len(sweep) == 4
    np.testing.assert_allclose(sweep.cost(1, 5), [5, 6, 1, 2])


def test_table():
    sweep = threshold_sweep(np.arange(100) % 2, np.linspace(0, 1, 100))
    lines = sweep.table(rows=5).splitlines()
    assert len(lines) == 6 and lines[0].split()[:3] == ["threshold", "TP", "FP"]
    assert lines[1].split()[0] == "1" and lines[-1].split()[0] == "0"
    assert len(sweep.table(rows=None).splitlines()) == 101
    chosen = sweep.table(rows=[0.5, 2.0]).splitlines()
    assert chosen[2].split()[1:5] == ["0", "0", "50", "50"]
    weighted = threshold_sweep([0, 1], [0.2, 0.7], sample_weight=[0.5, 1.5]).table()
    assert "1.5" in weighted and "F1" in weighted
    with pytest.raises(ValueError, match="rows"):
        sweep.table(rows=0)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: threshold_sweep(Y4, S4, beta=-1), ValueError, "beta"),
        (lambda: threshold_sweep(Y4, S4, beta="1"), TypeError, "beta"),
        (lambda: threshold_sweep(Y4, [0.1, np.nan, 0.2, 0.3]), ValueError, "NaN"),
        (lambda: threshold_sweep(Y4, S4[:3]), ValueError, "inconsistent"),
        (lambda: threshold_sweep(Y4, S4).at(np.nan), ValueError, "NaN"),
        (lambda: threshold_sweep(Y4, S4).at("0.5"), TypeError, "threshold"),
        (lambda: cost_optimal_threshold(0, 1), ValueError, "c_fp"),
        (lambda: cost_optimal_threshold(1, -2), ValueError, "c_fn"),
        (lambda: cost_optimal_threshold(1, np.inf), ValueError, "c_fn"),
        (lambda: cost_optimal_threshold(True, 1), TypeError, "c_fp"),
        (lambda: cost_optimal_threshold("1", 1), TypeError, "c_fp"),
        (lambda: min_cost_threshold(Y4, S4, c_fp=1, c_fn=np.nan), ValueError, "c_fn"),
        (lambda: best_fbeta_threshold([0, 1, 2], [0.1, 0.2, 0.3]), ValueError, "multiclass"),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_no_loop_over_thresholds_is_needed_for_a_million_scores():
    """A smoke test of the vectorised path (not a timing): 10^6 scores, ~10^6 thresholds."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 1_000_000)
    s = rng.normal(y, 1.0)
    sweep = threshold_sweep(y, s)
    assert len(sweep) == np.unique(s).shape[0]
    assert sweep.tp[-1] == y.sum() and sweep.fp[-1] == (1 - y).sum()


def test_doctests():
    assert doctest.testmod(mltutor.curves).failed == 0
