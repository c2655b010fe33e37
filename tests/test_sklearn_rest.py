"""Parity with scikit-learn 1.9 for the rest of its classification and ranking metrics (issue 29).

Each property test draws small problems with ties, sample weights (some zero, sometimes all
zero), absent labels, all-zero and all-one rows, and single samples, and asserts the same result
(floats to 1e-12), the same warnings or the same exception type as scikit-learn
(``tests/_strategies.py``'s ``assert_parity``).
"""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY, assert_parity, assert_same, run
from hypothesis import given
from hypothesis import strategies as st

import mltutor.metrics as M

sk = pytest.importorskip("sklearn.metrics")
sparse = pytest.importorskip("scipy.sparse")


# --------------------------------------------------------------------------------------------
# Multilabel ranking
# --------------------------------------------------------------------------------------------


@st.composite
def ranking_problems(draw):
    """An indicator matrix (1-40 rows, 1-6 labels), scores with or without ties, weights."""
    n = draw(st.integers(1, 40))
    k = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    dtype = draw(st.sampled_from([np.int64, bool, np.float64]))
    y = (rng.random((n, k)) < density).astype(dtype)
    if draw(st.booleans()):  # rows with no relevant label and rows with every label relevant
        y[rng.random(n) < 0.2] = 0
        y[rng.random(n) < 0.2] = 1
    ties = draw(st.sampled_from(["none", "few", "many", "constant"]))
    if ties == "none":
        s = rng.normal(size=(n, k))
    elif ties == "few":
        s = rng.integers(0, 10, (n, k)) / 10
    elif ties == "many":
        s = rng.integers(0, 2, (n, k)).astype(np.float64)
    else:
        s = np.full((n, k), 0.5)
    if draw(st.integers(0, 9)) == 0:
        s = s[:, : max(k - 1, 1)] if k > 1 else np.hstack([s, s])  # a shape mismatch
    wkind = draw(st.sampled_from(["none", "none", "float", "int", "zeros", "all_zero"]))
    if wkind == "none":
        w = None
    elif wkind == "float":
        w = rng.uniform(0.01, 5, n)
    elif wkind == "int":
        w = rng.integers(1, 4, n)
    elif wkind == "zeros":
        w = np.where(rng.random(n) < 0.5, 0.0, rng.uniform(0.1, 3, n))
    else:
        w = np.zeros(n)
    as_sparse = draw(st.integers(0, 4)) == 0
    return y, s, w, as_sparse


def _ranking_case(name, problem):
    y, s, w, as_sparse = problem
    yy = sparse.csr_matrix(y) if as_sparse else y
    assert_parity(getattr(sk, name), getattr(M, name), yy, s, sample_weight=w)


@PROPERTY
@given(ranking_problems())
def test_coverage_error(problem):
    _ranking_case("coverage_error", problem)
    CASES["coverage_error"] += 1


@PROPERTY
@given(ranking_problems())
def test_label_ranking_average_precision_score(problem):
    _ranking_case("label_ranking_average_precision_score", problem)
    CASES["label_ranking_average_precision_score"] += 1


@PROPERTY
@given(ranking_problems())
def test_label_ranking_loss(problem):
    _ranking_case("label_ranking_loss", problem)
    CASES["label_ranking_loss"] += 1


def test_ranking_examples_by_hand():
    y, s = [[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    assert M.label_ranking_loss(y, s) == 0.75
    assert M.coverage_error([[1, 0, 1]], [[0.5, 0.5, 0.5]]) == 3.0  # ties count against
    assert M.label_ranking_average_precision_score([[0, 0]], [[0.1, 0.2]]) == 1.0


# --------------------------------------------------------------------------------------------
# Hinge loss
# --------------------------------------------------------------------------------------------

_POOLS = [[0, 1], [-1, 1], ["a", "b"], [True, False], [0, 1, 2], [3, 5, 7, 9], ["x", "y", "z"]]


@st.composite
def hinge_problems(draw):
    n = draw(st.integers(1, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pool = np.array(draw(st.sampled_from(_POOLS)))
    present = draw(st.integers(1, len(pool)))
    y = pool[rng.integers(0, present, n)]
    labels = None
    if draw(st.booleans()) and len(pool) > 2:
        labels = list(pool)  # some of them absent from y_true
    n_classes = len(pool) if labels is not None else np.unique(y).size
    if n_classes > 2:
        d = rng.normal(size=(n, n_classes))
        if draw(st.integers(0, 9)) == 0:
            d = d[:, :-1]  # too few columns
    else:
        d = rng.normal(size=n)
        if draw(st.integers(0, 9)) == 0:
            d = d.reshape(-1, 1)
    if draw(st.booleans()):
        d = np.round(d)  # ties and margins of exactly 1
    wkind = draw(st.sampled_from(["none", "none", "float", "int", "zeros"]))
    w = {
        "none": None,
        "float": rng.uniform(0.01, 5, n),
        "int": rng.integers(1, 4, n),
        "zeros": np.where(rng.random(n) < 0.5, 0.0, 1.5),
    }[wkind]
    return y, d, labels, w


@PROPERTY
@given(hinge_problems())
def test_hinge_loss(problem):
    y, d, labels, w = problem
    assert_parity(sk.hinge_loss, M.hinge_loss, y, d, labels=labels, sample_weight=w)
    CASES["hinge_loss"] += 1


def test_hinge_loss_refuses_too_few_labels_for_y_true():
    """A deliberate difference: scikit-learn scores 3 classes against 2 labels' binarisation."""
    with pytest.raises(ValueError, match="labels names 2 classes"):
        M.hinge_loss([0, 1, 2], [0.5, -0.5, 1.0], labels=[0, 1])


# --------------------------------------------------------------------------------------------
# D^2 scores
# --------------------------------------------------------------------------------------------


@st.composite
def probability_problems(draw):
    n = draw(st.integers(1, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pool = np.array(draw(st.sampled_from(_POOLS)))
    present = draw(st.integers(1, len(pool)))
    y = pool[rng.integers(0, present, n)]
    labels = list(pool) if draw(st.booleans()) else None
    n_classes = len(pool) if labels is not None else np.unique(y).size
    if n_classes <= 2 and draw(st.booleans()):
        p = rng.random(n)
    else:
        p = rng.dirichlet(np.ones(max(n_classes, 2)), n)
    if draw(st.booleans()):
        p = np.round(p, 1)  # ties, and probabilities of exactly 0 and 1 (clipped)
    wkind = draw(st.sampled_from(["none", "none", "float", "int", "zeros"]))
    w = {
        "none": None,
        "float": rng.uniform(0.01, 5, n),
        "int": rng.integers(1, 4, n),
        "zeros": np.where(rng.random(n) < 0.5, 0.0, 1.5),
    }[wkind]
    pos_label = draw(st.sampled_from([None, pool[-1].item(), pool[0].item()]))
    return y, p, labels, w, pos_label


def _d2_parity(reference, ours, *args, **kwargs):
    """assert_parity, except that a score beyond 1e3 in size (``y_true`` holds one class of
    the given ``labels``: the null model's loss is ~1e-16 and D^2 ~ -1e16) is compared to
    1e-12 relative."""
    ref = run(reference, *args, **kwargs)
    if ref.error is None and np.isfinite(ref.result) and abs(ref.result) > 1e3:
        got = run(ours, *args, **kwargs)
        assert got.error is None and got.warnings == ref.warnings
        np.testing.assert_allclose(got.result, ref.result, rtol=1e-12)
        return
    assert_parity(reference, ours, *args, **kwargs)


@PROPERTY
@given(probability_problems())
def test_d2_log_loss_score(problem):
    y, p, labels, w, _ = problem
    _d2_parity(sk.d2_log_loss_score, M.d2_log_loss_score, y, p, labels=labels, sample_weight=w)
    CASES["d2_log_loss_score"] += 1


@PROPERTY
@given(probability_problems())
def test_d2_brier_score(problem):
    y, p, labels, w, pos_label = problem
    _d2_parity(
        sk.d2_brier_score,
        M.d2_brier_score,
        y,
        p,
        labels=labels,
        sample_weight=w,
        pos_label=pos_label,
    )
    CASES["d2_brier_score"] += 1


def test_d2_one_sample_warns_and_is_nan():
    with pytest.warns(M.UndefinedMetricWarning, match="less than two samples"):
        assert np.isnan(M.d2_brier_score([1], [0.7]))


# --------------------------------------------------------------------------------------------
# Per-threshold functions (scikit-learn 1.8 / 1.9)
# --------------------------------------------------------------------------------------------


@st.composite
def threshold_problems(draw):
    n = draw(st.integers(1, 50))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pool = np.array(draw(st.sampled_from(_POOLS[:5])))
    y = pool[rng.integers(0, draw(st.integers(1, len(pool))), n)]
    ties = draw(st.sampled_from(["none", "few", "constant"]))
    s = {"none": rng.normal(size=n), "few": rng.integers(0, 5, n) / 4, "constant": np.full(n, 0.3)}[
        ties
    ]
    wkind = draw(st.sampled_from(["none", "none", "float", "int", "zeros", "all_zero"]))
    w = {
        "none": None,
        "float": rng.uniform(0.01, 5, n),
        "int": rng.integers(1, 4, n),
        "zeros": np.where(rng.random(n) < 0.5, 0.0, rng.uniform(0.1, 3, n)),
        "all_zero": np.zeros(n),
    }[wkind]
    pos_label = draw(st.sampled_from([None, pool[-1].item(), pool[0].item()]))
    return y, s, w, pos_label


@PROPERTY
@given(threshold_problems())
def test_confusion_matrix_at_thresholds(problem):
    y, s, w, pos_label = problem
    assert_parity(
        sk.confusion_matrix_at_thresholds,
        M.confusion_matrix_at_thresholds,
        y,
        s,
        pos_label=pos_label,
        sample_weight=w,
    )
    CASES["confusion_matrix_at_thresholds"] += 1


def _counts_and_rate(y_true, y_pred, sample_weight=None):
    """A metric returning two numbers (the output becomes 2-D)."""
    w = np.ones(len(y_true)) if sample_weight is None else sample_weight
    return float(np.sum(w * y_pred)), float(np.sum(w * (y_pred == (y_true == y_true[0]))))


@PROPERTY
@given(threshold_problems(), st.sampled_from(["accuracy", "pair", "f1"]))
def test_metric_at_thresholds(problem, metric):
    y, s, w, _ = problem
    if metric == "pair":
        fns = (_counts_and_rate, _counts_and_rate)
        params = None
    elif metric == "accuracy":
        fns = (sk.accuracy_score, M.accuracy_score)
        params = {"normalize": True}
    else:
        fns = (sk.f1_score, M.f1_score)
        params = {"average": "macro", "zero_division": 0.0}
    ref = run(sk.metric_at_thresholds, y, s, fns[0], sample_weight=w, metric_params=params)
    got = run(M.metric_at_thresholds, y, s, fns[1], sample_weight=w, metric_params=params)
    if ref.error is not None:
        assert got.error is not None, f"sklearn raised {ref.error!r}; mltutor {got.result!r}"
    else:
        assert got.error is None, got.error
        assert_same(got.result, ref.result)
        assert got.warnings == ref.warnings
    CASES["metric_at_thresholds"] += 1
