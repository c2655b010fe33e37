"""The sort-only kernel 2 (issue 18): no ``argsort``, the same numbers as scikit-learn.

Unweighted ROC AUC, average precision and the curves are computed from ``np.sort`` of the scores
and ``np.searchsorted`` of the smaller class (:func:`mltutor.curves.sort_classes`).  These tests
aim at what that form could get wrong: ties (scores from a handful of values, ties across the two
classes), low-precision scores (float32, float16, where distinct floats collide), signed zeros,
infinite scores inside the kernel, both branches of "which class is smaller", one-class inputs,
and weights, which must keep the stable ``argsort`` path.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY, assert_parity
from hypothesis import given
from hypothesis import strategies as st

import mltutor.curves
import mltutor.metrics as mm
from mltutor.curves import (
    BinaryCounts,
    cumulative_counts,
    pr_points,
    sort_classes,
    sorted_average_precision,
    sorted_counts,
    sorted_det_points,
    sorted_pr_points,
    sorted_roc_auc,
    sorted_roc_bends,
    threshold_sweep,
)
from mltutor.curves._curves import _drop_collinear_roc, _drop_flat_pr

SCORE_KINDS = [
    "few",
    "few",
    "float32",
    "float16",
    "float16_wide",
    "signed_zero",
    "int",
    "separable",
    "constant",
    "continuous",
]


def _scores(rng: np.random.Generator, kind: str, is_pos: np.ndarray) -> np.ndarray:
    n = is_pos.shape[0]
    if kind == "few":  # a handful of values: long runs of ties, shared by both classes
        values = rng.normal(size=int(rng.integers(1, 6)))
        return values[rng.integers(0, values.shape[0], n)]
    if kind == "float32":  # rounded: ties, and the float32 dtype kept in the thresholds
        return (rng.normal(is_pos.astype(float), 1.0) * 8).round().astype(np.float32) / 8
    if kind == "float16":  # distinct float64 values that collide once rounded to float16
        return rng.normal(is_pos.astype(float), 1.0).astype(np.float16)
    if kind == "float16_wide":  # near float16's largest finite value
        return (rng.uniform(-1, 1, n) * 60000).astype(np.float16)
    if kind == "signed_zero":  # -0.0 == 0.0: one threshold
        return rng.choice([-0.0, 0.0, 1.0, -1.0], n)
    if kind == "int":
        return rng.integers(-3, 4, n)
    if kind == "separable":
        return np.where(is_pos, 1.0 + rng.random(n), rng.random(n))
    if kind == "constant":
        return np.full(n, 0.25)
    return rng.normal(is_pos.astype(float), 1.0)


@st.composite
def sort_only_problems(draw, max_n: int = 120):
    """0/1 labels with either class the smaller one; scores of the kinds above."""
    n = draw(st.integers(1, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rate = draw(st.sampled_from([0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.98]))
    y_true = (rng.random(n) < rate).astype(np.int64)
    kind = draw(st.sampled_from(SCORE_KINDS))
    return y_true, _scores(rng, kind, y_true == 1)


@st.composite
def two_class_problems(draw, max_n: int = 120):
    """As :func:`sort_only_problems`, with both classes present."""
    y_true, y_score = draw(sort_only_problems(max_n))
    if y_true.shape[0] < 2:
        y_true, y_score = np.array([0, 1]), np.array([0.5, 0.5])
    y_true[0], y_true[-1] = 0, 1
    return y_true, y_score


# --------------------------------------------------------------------------------------------
# Parity with scikit-learn
# --------------------------------------------------------------------------------------------


@PROPERTY
@given(sort_only_problems())
def test_areas_match_sklearn(problem):
    CASES["sort-only roc_auc_score + average_precision_score"] += 1
    y_true, y_score = problem
    assert_parity(skm.roc_auc_score, mm.roc_auc_score, y_true, y_score)
    assert_parity(skm.average_precision_score, mm.average_precision_score, y_true, y_score)


@PROPERTY
@given(sort_only_problems(), st.booleans())
def test_curves_match_sklearn(problem, drop):
    CASES["sort-only roc/pr/det curves"] += 1
    y_true, y_score = problem
    assert_parity(skm.roc_curve, mm.roc_curve, y_true, y_score, drop_intermediate=drop)
    assert_parity(
        skm.precision_recall_curve,
        mm.precision_recall_curve,
        y_true,
        y_score,
        drop_intermediate=drop,
    )
    assert_parity(skm.det_curve, mm.det_curve, y_true, y_score, drop_intermediate=drop)


@pytest.mark.filterwarnings(
    "ignore:overflow encountered in subtract:RuntimeWarning"
)  # sklearn's diff
@PROPERTY
@given(sort_only_problems())
def test_threshold_sweep_matches_sklearn_counts(problem):
    CASES["sort-only threshold_sweep"] += 1
    y_true, y_score = problem
    tns, fps, fns, tps, thresholds = skm.confusion_matrix_at_thresholds(y_true, y_score)
    sweep = threshold_sweep(y_true, y_score)
    np.testing.assert_array_equal(sweep.thresholds, thresholds)
    for ours, ref in ((sweep.tp, tps), (sweep.fp, fps), (sweep.fn, fns), (sweep.tn, tns)):
        assert ours.dtype == np.int64 and np.array_equal(ours, ref)


# --------------------------------------------------------------------------------------------
# Against the argsort form and the definitions, independent of scikit-learn
# --------------------------------------------------------------------------------------------


def _argsort_counts(is_positive: np.ndarray, y_score: np.ndarray) -> BinaryCounts:
    """The textbook kernel: argsort, cumulative sums, read at the last index of each run."""
    order = np.argsort(y_score, kind="stable")[::-1]
    score = y_score[order]
    last = np.append(np.flatnonzero(score[1:] != score[:-1]), score.shape[0] - 1)
    tps = np.cumsum(is_positive[order], dtype=np.float64)[last]
    return BinaryCounts(last + 1.0 - tps, tps, score[last])


@st.composite
def kernel_inputs(draw, max_n: int = 120):
    """Validated-array inputs to the kernel, including -inf and +inf scores (which the public
    functions refuse, as scikit-learn; the kernel itself only compares)."""
    y_true, y_score = draw(sort_only_problems(max_n))
    if draw(st.booleans()) and y_score.dtype.kind == "f":
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        y_score = y_score.copy()
        y_score[rng.random(y_score.shape[0]) < 0.2] = np.inf
        y_score[rng.random(y_score.shape[0]) < 0.2] = -np.inf
    return y_true == 1, y_score


@PROPERTY
@given(kernel_inputs())
def test_sorted_counts_equal_argsort_counts(inputs):
    CASES["sorted_counts == argsort kernel (with +-inf)"] += 1
    is_positive, y_score = inputs
    ours, ref = sorted_counts(is_positive, y_score), _argsort_counts(is_positive, y_score)
    for a, b in zip(ours, ref):
        np.testing.assert_array_equal(a, b)
    assert ours.thresholds.dtype == y_score.dtype
    assert ours.fps.dtype == ours.tps.dtype == np.float64
    bends = sorted_roc_bends(is_positive, y_score)
    for a, b in zip(bends, _drop_collinear_roc(ref)):
        np.testing.assert_array_equal(a, b)
    # Unit weights take the weighted (stable argsort) path: the same counts.
    for a, b in zip(cumulative_counts(is_positive, y_score, np.ones(y_score.shape[0])), ref):
        np.testing.assert_array_equal(a, b)


def _det_from_counts(counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scikit-learn's ``det_curve`` arithmetic on the kernel's counts (both classes present)."""
    tps, fps = np.r_[0.0, counts.tps], np.r_[0.0, counts.fps]
    thresholds = np.r_[np.inf, counts.thresholds.astype(np.float64)]
    first = np.searchsorted(fps, fps[0], side="right") - 1
    last = np.searchsorted(tps, tps[-1]) + 1
    keep = slice(first, last)
    fnr = (tps[-1] - tps[keep]) / tps[-1]
    return fps[keep][::-1] / fps[-1], fnr[::-1], thresholds[keep][::-1]


@PROPERTY
@given(kernel_inputs(), st.booleans())
def test_pr_and_det_points_equal_the_counts_path(inputs, drop):
    """The unweighted curves, written straight into their output arrays (lowest threshold
    first), equal the same curves computed from the kernel's counts, +-inf scores included."""
    CASES["sorted_pr_points / sorted_det_points == counts path (with +-inf)"] += 1
    is_positive, y_score = inputs
    counts = sorted_counts(is_positive, y_score)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no positives: recall set to 1 (both)
        ours = sorted_pr_points(is_positive, y_score, drop)
        ref = pr_points(_drop_flat_pr(counts) if drop else counts)
    for a, b in zip(ours, ref):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    if 0 < np.count_nonzero(is_positive) < is_positive.shape[0]:
        for a, b in zip(sorted_det_points(is_positive, y_score), _det_from_counts(counts)):
            assert a.dtype == b.dtype == np.float64
            np.testing.assert_array_equal(a, b)


def _mann_whitney(is_positive: np.ndarray, y_score: np.ndarray) -> Fraction:
    """The definition, over all pairs (test-only brute force), as an exact fraction."""
    pos, neg = y_score[is_positive], y_score[~is_positive]
    wins = (pos[:, None] > neg[None, :]).sum() * 2 + (pos[:, None] == neg[None, :]).sum()
    return Fraction(int(wins), 2 * pos.shape[0] * neg.shape[0])


@PROPERTY
@given(kernel_inputs())
def test_sorted_roc_auc_is_mann_whitney(inputs):
    CASES["sorted_roc_auc == Mann-Whitney (with +-inf)"] += 1
    is_positive, y_score = inputs
    if is_positive.all() or not is_positive.any():
        return
    # One correctly rounded division of exact integers.
    assert sorted_roc_auc(is_positive, y_score) == float(_mann_whitney(is_positive, y_score))


@PROPERTY
@given(kernel_inputs())
def test_sorted_average_precision_is_the_step_sum(inputs):
    CASES["sorted_average_precision == step sum (with +-inf)"] += 1
    is_positive, y_score = inputs
    if not is_positive.any():
        return
    # Exact step sum over the distinct positive scores v: (positives at v / P) * precision(v).
    total = Fraction(0)
    for v in np.unique(y_score[is_positive]):
        at_or_above = y_score >= v
        total += Fraction(
            int((y_score[is_positive] == v).sum()), int(is_positive.sum())
        ) * Fraction(int((at_or_above & is_positive).sum()), int(at_or_above.sum()))
    assert abs(sorted_average_precision(is_positive, y_score) - float(total)) <= 1e-12


def test_minority_is_the_smaller_class():
    scores = np.array([0.3, 0.1, 0.2, 0.4])
    assert sort_classes(np.array([True, False, False, False]), scores).minority_is_positive
    many = sort_classes(np.array([True, True, True, False]), scores)
    assert not many.minority_is_positive and many.minority.tolist() == [0.4]
    assert many.scores.tolist() == [0.1, 0.2, 0.3, 0.4] and many.below.tolist() == [3]
    assert sort_classes(np.array([True, True, False, False]), scores).minority_is_positive


@pytest.mark.parametrize("rate", [0.05, 0.5, 0.95])
@pytest.mark.parametrize("kind", ["continuous", "few", "float16"])
def test_large_inputs_match_sklearn(rate, kind):
    """100,000 scores, each class the smaller one in turn (the two branches of the kernel)."""
    rng = np.random.default_rng(7)
    y_true = (rng.random(100_000) < rate).astype(np.int64)
    y_score = _scores(rng, kind, y_true == 1)
    assert abs(mm.roc_auc_score(y_true, y_score) - skm.roc_auc_score(y_true, y_score)) < 1e-12
    assert (
        abs(
            mm.average_precision_score(y_true, y_score)
            - skm.average_precision_score(y_true, y_score)
        )
        < 1e-12
    )
    for ours, ref in zip(mm.roc_curve(y_true, y_score), skm.roc_curve(y_true, y_score)):
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)
    ours_pr = mm.precision_recall_curve(y_true, y_score)
    for ours, ref in zip(ours_pr, skm.precision_recall_curve(y_true, y_score)):
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------------------------
# Errors and one-class inputs: the same outcome as scikit-learn
# --------------------------------------------------------------------------------------------

_PUBLIC = [
    (skm.roc_auc_score, mm.roc_auc_score),
    (skm.average_precision_score, mm.average_precision_score),
    (skm.roc_curve, mm.roc_curve),
    (skm.precision_recall_curve, mm.precision_recall_curve),
    (skm.det_curve, mm.det_curve),
]


@pytest.mark.parametrize("reference, ours", _PUBLIC)
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_non_finite_scores_are_refused(reference, ours, bad, dtype):
    y_score = np.array([0.1, 0.4, bad, 0.8], dtype=dtype)
    assert_parity(reference, ours, [0, 1, 0, 1], y_score)
    with pytest.raises(ValueError, match="y_score"):
        ours([0, 1, 0, 1], y_score)


@PROPERTY
@given(
    st.integers(1, 60),
    st.sampled_from([0, 1]),
    st.sampled_from(SCORE_KINDS),
    st.integers(0, 2**32 - 1),
)
def test_one_class_inputs_match_sklearn(n, label, kind, seed):
    """All positive or all negative: NaN with a warning (AUC), 0 or 1 (AP), NaN rates with
    warnings (ROC), recall 1 with a warning (PR), an error (DET) -- as scikit-learn."""
    CASES["sort-only one-class inputs"] += 1
    y_true = np.full(n, label)
    y_score = _scores(np.random.default_rng(seed), kind, y_true == 1)
    for reference, ours in _PUBLIC:
        assert_parity(reference, ours, y_true, y_score)


# --------------------------------------------------------------------------------------------
# Weights keep the argsort path
# --------------------------------------------------------------------------------------------


@PROPERTY
@given(
    sort_only_problems(max_n=60),
    st.sampled_from(["int", "dyadic", "float", "zeros"]),
    st.integers(0, 2**32 - 1),
)
def test_weighted_inputs_match_sklearn(problem, weight_kind, seed):
    CASES["sort-only weighted (argsort path)"] += 1
    y_true, y_score = problem
    rng = np.random.default_rng(seed)
    n = y_true.shape[0]
    if weight_kind == "int":
        w = rng.integers(1, 4, n)
    elif weight_kind == "dyadic":
        w = rng.choice([0.25, 0.5, 1.0, 3.0], n)
    elif weight_kind == "float":
        w = rng.uniform(0.01, 10.0, n)
    else:
        w = np.where(rng.random(n) < 0.4, 0.0, rng.uniform(0.5, 2.0, n))
        w[0] = 1.0
    for reference, ours in _PUBLIC:
        assert_parity(reference, ours, y_true, y_score, sample_weight=w)


def test_weights_and_max_fpr_do_not_take_the_sort_only_path(monkeypatch):
    """The rank form has no weights and no partial area: those inputs must use the curve."""

    def refuse(*args):
        raise AssertionError("sort-only path taken")

    monkeypatch.setattr(mltutor.curves._areas, "sorted_roc_auc", refuse)
    monkeypatch.setattr(mltutor.curves._areas, "sorted_average_precision", refuse)
    y_true, y_score = [0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.8, 0.35]
    w = [1.0, 2.0, 1.0, 0.5, 1.0]
    assert mm.roc_auc_score(y_true, y_score, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y_true, y_score, sample_weight=w), abs=1e-12
    )
    assert mm.roc_auc_score(y_true, y_score, max_fpr=0.5) == pytest.approx(
        skm.roc_auc_score(y_true, y_score, max_fpr=0.5), abs=1e-12
    )
    assert mm.average_precision_score(y_true, y_score, sample_weight=w) == pytest.approx(
        skm.average_precision_score(y_true, y_score, sample_weight=w), abs=1e-12
    )
    with pytest.raises(AssertionError, match="sort-only"):
        mm.roc_auc_score(y_true, y_score)


@PROPERTY
@given(two_class_problems(max_n=40), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_ovr_and_multilabel_columns_match_sklearn(problem, k, seed):
    """The fast path per column: one-vs-rest, one-vs-one and multilabel averages."""
    CASES["sort-only ovr/ovo/multilabel"] += 1
    y_true, y_score = problem
    rng = np.random.default_rng(seed)
    n = y_true.shape[0]
    labels = rng.integers(0, k, n)
    labels[:k] = np.arange(k)[: min(k, n)]
    proba = rng.dirichlet(np.ones(k), n)
    proba = np.round(proba * 4) / 4  # ties
    proba[:, -1] = 1 - proba[:, :-1].sum(axis=1)
    if np.unique(labels).shape[0] > 2:
        for multi_class in ("ovr", "ovo"):
            assert_parity(
                skm.roc_auc_score, mm.roc_auc_score, labels, proba, multi_class=multi_class
            )
    indicator = (rng.random((n, k)) < 0.4).astype(np.int64)
    indicator[:, 0] = y_true
    scores = np.column_stack([y_score.astype(np.float64)] + [rng.integers(0, 3, n) / 2] * (k - 1))
    for average in ("micro", "macro", "weighted", None):
        assert_parity(skm.roc_auc_score, mm.roc_auc_score, indicator, scores, average=average)
        assert_parity(
            skm.average_precision_score,
            mm.average_precision_score,
            indicator,
            scores,
            average=average,
        )
