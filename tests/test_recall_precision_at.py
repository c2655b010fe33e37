"""precision_at_recall / recall_at_precision against a loop over scikit-learn's
precision_recall_curve (torchmetrics' rule for ties and unreachable targets), against torchmetrics
itself on probabilities, and their scorers inside cross_val_score."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from test_curves_kernel import scored_problems

from mltutor.curves import (
    precision_at_recall,
    precision_at_recall_score,
    recall_at_precision,
    recall_at_precision_score,
)

TARGETS = st.sampled_from([0.0, 0.1, 0.25, 1 / 3, 0.5, 0.6, 0.75, 0.9, 0.99, 1.0])


def _loop(y, s, w, target, *, fixed):
    """Brute force, torchmetrics' rule written out: every threshold of sklearn's curve (its final
    (1, 0) point has none), kept if it meets the target; the largest (value, other, threshold)
    tuple; (0, nan) when none is kept or the best value is 0."""
    precision, recall, thresholds = skm.precision_recall_curve(
        y, s, sample_weight=w, drop_intermediate=False
    )
    rows = []
    for p, r, t in zip(precision[:-1], recall[:-1], thresholds, strict=True):
        if fixed == "recall" and r >= target:
            rows.append((p, r, t))
        if fixed == "precision" and p >= target:
            rows.append((r, p, t))
    if not rows:
        return 0.0, math.nan
    best = max(rows)
    return (0.0, math.nan) if best[0] == 0 else (best[0], best[2])


def _same(got, ref):
    assert abs(got[0] - ref[0]) <= 1e-12
    assert (math.isnan(got[1]) and math.isnan(ref[1])) or got[1] == ref[1], (got, ref)


@PROPERTY
@given(scored_problems(), TARGETS, st.sampled_from(["recall", "precision"]))
def test_matches_a_loop_over_the_precision_recall_curve(problem, target, fixed):
    CASES["precision_at_recall / recall_at_precision"] += 1
    y = problem.is_positive.astype(int)
    w = problem.sample_weight
    wt = np.ones(y.shape[0]) if w is None else np.asarray(w, dtype=float)
    fn, key = (
        (precision_at_recall, "min_recall")
        if fixed == "recall"
        else (recall_at_precision, "min_precision")
    )
    if wt[y == 1].sum() <= 0:
        with pytest.raises(ValueError, match="no positive"):
            fn(y, problem.y_score, sample_weight=w, **{key: target})
        return
    got = fn(y, problem.y_score, sample_weight=w, **{key: target})
    _same(got, _loop(y, problem.y_score, w, target, fixed=fixed))
    scorer = precision_at_recall_score if fixed == "recall" else recall_at_precision_score
    assert scorer(y, problem.y_score, sample_weight=w, **{key: target}) == got[0]


def test_matches_torchmetrics_on_probabilities():
    torch = pytest.importorskip("torch")
    from torchmetrics.functional.classification import (
        binary_precision_at_fixed_recall,
        binary_recall_at_fixed_precision,
    )

    rng = np.random.default_rng(11)
    for _ in range(40):
        n = int(rng.integers(5, 60))
        y = rng.integers(0, 2, n)
        y[0] = 1
        s = rng.integers(0, 8, n) / 8 if rng.random() < 0.5 else rng.random(n)
        s = s.astype(np.float32).astype(np.float64)  # torchmetrics computes in float32
        for target in (0.2, 0.5, 0.8, 1.0):
            p_ref, t_ref = binary_precision_at_fixed_recall(
                torch.tensor(s), torch.tensor(y), min_recall=target
            )
            r_ref, u_ref = binary_recall_at_fixed_precision(
                torch.tensor(s), torch.tensor(y), min_precision=target
            )
            for got, value, thr in (
                (precision_at_recall(y, s, min_recall=target), p_ref, t_ref),
                (recall_at_precision(y, s, min_precision=target), r_ref, u_ref),
            ):
                assert abs(got[0] - float(value)) < 1e-6
                if math.isnan(float(thr)):
                    assert math.isnan(got[1])
                else:
                    assert abs(got[1] - float(thr)) < 1e-6


def test_ties_and_unreachable_targets():
    # two thresholds reach precision 1: the larger recall wins (0.5 at 0.8, not 0.25 at 0.9)
    y, s = [1, 1, 0, 1, 0, 1], [0.9, 0.8, 0.5, 0.8, 0.4, 0.1]
    assert recall_at_precision(y, s, min_precision=1.0) == (0.75, 0.8)
    # a run of tied scores crosses together: recall 0.75 needs the tied pair at 0.8
    assert precision_at_recall(y, s, min_recall=0.7) == (1.0, 0.8)
    # nothing reaches precision 0.9 when the top score is a negative and all others tie
    assert recall_at_precision([0, 1, 1, 0], [0.9, 0.5, 0.5, 0.5], min_precision=0.9)[0] == 0.0
    assert math.isnan(recall_at_precision([0, 1, 1, 0], [0.9, 0.5, 0.5, 0.5], min_precision=0.9)[1])
    # recall 1 is always reachable (the lowest threshold flags everyone)
    assert precision_at_recall([0, 1, 0, 0], [0.9, 0.1, 0.5, 0.3], min_recall=1.0) == (0.25, 0.1)


def test_scorers_work_in_cross_val_score():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import make_scorer
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    X, y = make_classification(n_samples=400, weights=[0.8], random_state=0)
    scorer = make_scorer(precision_at_recall_score, response_method="predict_proba", min_recall=0.9)
    twin = make_scorer(
        recall_at_precision_score, response_method="decision_function", min_precision=0.8
    )
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    model = LogisticRegression()
    scores = cross_val_score(model, X, y, cv=cv, scoring=scorer)
    twins = cross_val_score(model, X, y, cv=cv, scoring=twin)
    by_hand = []
    for train, test in cv.split(X, y):
        p = model.fit(X[train], y[train]).predict_proba(X[test])[:, 1]
        by_hand.append(precision_at_recall(y[test], p, min_recall=0.9)[0])
    np.testing.assert_allclose(scores, by_hand, atol=1e-12)
    assert scores.shape == twins.shape == (5,)
    assert np.all((scores > 0) & (scores <= 1)) and np.all((twins >= 0) & (twins <= 1))


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: precision_at_recall([0, 1], [0.1, 0.2], min_recall=1.5), ValueError, "min_recall"),
        (lambda: precision_at_recall([0, 1], [0.1, 0.2], min_recall="a"), TypeError, "min_recall"),
        (
            lambda: recall_at_precision([0, 1], [0.1, 0.2], min_precision=np.nan),
            ValueError,
            "min_precision",
        ),
        (
            lambda: recall_at_precision([0, 0], [0.1, 0.2], min_precision=0.5),
            ValueError,
            "positive",
        ),
        (lambda: precision_at_recall([0, 1], [0.1], min_recall=0.5), ValueError, "inconsistent"),
    ],
)
def test_bad_arguments_are_named(call, error, match):
    with pytest.raises(error, match=match):
        call()
