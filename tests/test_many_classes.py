"""Any number of classes: the same numbers as scikit-learn for 257 to 100,000 classes, none refused.

Every metric except ``confusion_matrix`` is computed from per-class marginal counts (three
bincounts), so 100,000 classes cost O(n + C) memory; these tests check parity with scikit-learn
on both encodings (integers in a range are their own codes; strings and sparse integers go through
``np.unique``), with absent classes, ``labels=`` subsets, weights and ``zero_division``.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import (
    AVERAGES,
    CASES,
    PROPERTY,
    ZERO_DIVISIONS,
    Problem,
    assert_parity,
    labels_for,
    pos_label_for,
    weights_for,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from test_metrics_parity import sk_specificity

import mltutor.metrics as mtm

# Many-class examples cost more than the small ones of test_metrics_parity.
MANY = settings(PROPERTY, max_examples=300)

SET_WISE = ["precision_score", "recall_score", "f1_score", "jaccard_score"]


def _label_values(kind: str, n_classes: int, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """``n_classes`` distinct labels of a kind, and labels guaranteed not among them."""
    if kind == "int":
        return np.arange(n_classes), [n_classes + 7, -1]
    if kind == "shifted":  # negative integers: the codes are shifted to start at 0
        return np.arange(n_classes) - 5_000, [n_classes, -5_001]
    if kind == "bigint":  # too wide a range to count over: encoded with np.unique
        values = np.unique(rng.integers(-(10**12), 10**12, n_classes))
        return values, [10**12 + 1]
    return np.array([f"c{k:06d}" for k in range(n_classes)]), ["absent", "zz"]


@st.composite
def many_class_problems(draw) -> Problem:
    """1-300 samples drawn from 257 to 100,000 classes of ints, shifted ints, wide ints or strings."""
    kind = draw(st.sampled_from(["int", "shifted", "bigint", "str"]))
    n_classes = draw(st.sampled_from([257, 1_000, 8_193, 20_000, 100_000]))
    n = draw(st.integers(1, 300))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values, absent = _label_values(kind, n_classes, rng)
    t = rng.integers(0, values.shape[0], n)
    mode = draw(st.sampled_from(["random", "mostly_right", "perfect", "all_wrong", "constant"]))
    if mode == "perfect":
        p = t.copy()
    elif mode == "all_wrong":
        p = (t + 1) % values.shape[0]
    elif mode == "constant":
        p = np.full(n, t[0])
    elif mode == "mostly_right":
        p = np.where(rng.random(n) < 0.7, t, rng.integers(0, values.shape[0], n))
    else:
        p = rng.integers(0, values.shape[0], n)
    # The pool offered to labels= and pos_label: the labels used plus a few unused ones.
    pool = np.union1d(values[t], values[p])
    unused = values[rng.integers(0, values.shape[0], 3)]
    return Problem(kind, values[t], values[p], np.union1d(pool, unused).tolist(), absent)


def _set_wise_kwargs(data, problem):
    return dict(
        labels=data.draw(labels_for(problem)),
        pos_label=data.draw(pos_label_for(problem)),
        average=data.draw(st.sampled_from(AVERAGES)),
        sample_weight=data.draw(weights_for(problem)),
        zero_division=data.draw(st.sampled_from(ZERO_DIVISIONS)),
    )


@MANY
@given(data=st.data(), problem=many_class_problems(), name=st.sampled_from(SET_WISE))
def test_set_wise_scores_many_classes(data, problem, name):
    CASES[name] += 1
    assert_parity(
        getattr(skm, name),
        getattr(mtm, name),
        problem.y_true,
        problem.y_pred,
        **_set_wise_kwargs(data, problem),
    )


@MANY
@given(
    data=st.data(),
    problem=many_class_problems(),
    beta=st.sampled_from([0.0, 0.5, 1.0, 2.0, np.inf]),
)
def test_precision_recall_fscore_support_many_classes(data, problem, beta):
    CASES["precision_recall_fscore_support"] += 1
    kwargs = _set_wise_kwargs(data, problem)
    assert_parity(
        skm.precision_recall_fscore_support,
        mtm.precision_recall_fscore_support,
        problem.y_true,
        problem.y_pred,
        beta=beta,
        **kwargs,
    )


@MANY
@given(data=st.data(), problem=many_class_problems())
def test_specificity_many_classes(data, problem):
    CASES["specificity_score"] += 1
    assert_parity(
        sk_specificity,
        mtm.specificity_score,
        problem.y_true,
        problem.y_pred,
        **_set_wise_kwargs(data, problem),
    )


@MANY
@given(data=st.data(), problem=many_class_problems())
def test_counts_free_and_balanced_metrics_many_classes(data, problem):
    w = data.draw(weights_for(problem))
    args = problem.y_true, problem.y_pred
    normalize = data.draw(st.booleans())
    assert_parity(
        skm.accuracy_score, mtm.accuracy_score, *args, normalize=normalize, sample_weight=w
    )
    CASES["accuracy_score"] += 1
    assert_parity(skm.hamming_loss, mtm.hamming_loss, *args, sample_weight=w)
    CASES["hamming_loss"] += 1
    adjusted = data.draw(st.booleans())
    assert_parity(
        skm.balanced_accuracy_score,
        mtm.balanced_accuracy_score,
        *args,
        sample_weight=w,
        adjusted=adjusted,
    )
    CASES["balanced_accuracy_score"] += 1
    assert_parity(
        skm.multilabel_confusion_matrix,
        mtm.multilabel_confusion_matrix,
        *args,
        sample_weight=w,
        labels=data.draw(labels_for(problem)),
    )
    CASES["multilabel_confusion_matrix"] += 1


@MANY
@given(data=st.data(), problem=many_class_problems())
def test_classification_report_many_classes(data, problem):
    CASES["classification_report"] += 1
    kwargs = dict(
        labels=data.draw(labels_for(problem)),
        sample_weight=data.draw(weights_for(problem)),
        digits=data.draw(st.integers(0, 4)),
        output_dict=data.draw(st.booleans()),
        zero_division=data.draw(st.sampled_from(ZERO_DIVISIONS)),
    )
    assert_parity(
        skm.classification_report,
        mtm.classification_report,
        problem.y_true,
        problem.y_pred,
        **kwargs,
    )


@MANY
@given(data=st.data(), problem=many_class_problems())
def test_confusion_matrix_with_labels_many_classes(data, problem):
    # Labels drawn from up to 100,000 classes; the table covers only the <= 600 present (or the
    # labels= selection of present, absent and unused labels).
    CASES["confusion_matrix"] += 1
    assert_parity(
        skm.confusion_matrix,
        mtm.confusion_matrix,
        problem.y_true,
        problem.y_pred,
        labels=data.draw(labels_for(problem)),
        sample_weight=data.draw(weights_for(problem)),
        normalize=data.draw(st.sampled_from([None, "true", "pred", "all"])),
    )


# --------------------------------------------------------------------------------------------
# Many classes present at once (larger n)
# --------------------------------------------------------------------------------------------


def _many(n_samples: int, n_classes: int, kind: str = "int", seed: int = 0):
    rng = np.random.default_rng(seed)
    values, _ = _label_values(kind, n_classes, rng)
    t = rng.integers(0, values.shape[0], n_samples)
    p = np.where(rng.random(n_samples) < 0.6, t, rng.integers(0, values.shape[0], n_samples))
    return values[t], values[p], values


# (n_samples, n_classes, kind): 100,000 int classes over 60,000 samples are counted over their
# range; over 3,000 samples, and as strings or wide ints, they are encoded with np.unique.
MANY_PRESENT = [
    (60_000, 100_000, "int"),
    (3_000, 100_000, "int"),
    (50_000, 20_000, "shifted"),
    (25_000, 20_000, "str"),
    (40_000, 20_000, "bigint"),
]


@pytest.mark.parametrize("n_samples, n_classes, kind", MANY_PRESENT)
def test_parity_with_many_classes_present(n_samples, n_classes, kind):
    y_true, y_pred, values = _many(n_samples, n_classes, kind)
    rng = np.random.default_rng(1)
    weights = rng.uniform(0, 3, n_samples) * (rng.random(n_samples) < 0.8)
    subset = list(values[rng.integers(0, values.shape[0], 200)][::-1])
    subset = list(dict.fromkeys(subset))  # unique, unsorted
    for w in (None, weights, rng.integers(0, 4, n_samples)):
        for average, labels in (
            (None, None),
            ("weighted", subset),
            ("macro", None),
            ("micro", subset),
        ):
            kw = dict(labels=labels, average=average, sample_weight=w)
            assert_parity(
                skm.precision_recall_fscore_support,
                mtm.precision_recall_fscore_support,
                y_true,
                y_pred,
                beta=2.0,
                **kw,
            )
        assert_parity(
            skm.jaccard_score,
            mtm.jaccard_score,
            y_true,
            y_pred,
            average=None,
            sample_weight=w,
            zero_division=0,
        )
        assert_parity(
            skm.jaccard_score,
            mtm.jaccard_score,
            y_true,
            y_pred,
            average="weighted",
            labels=subset,
            sample_weight=w,
        )
        assert_parity(
            sk_specificity,
            mtm.specificity_score,
            y_true,
            y_pred,
            average=None,
            labels=subset,
            sample_weight=w,
        )
        assert_parity(
            sk_specificity, mtm.specificity_score, y_true, y_pred, average="macro", sample_weight=w
        )
        assert_parity(
            skm.f1_score,
            mtm.f1_score,
            y_true,
            y_pred,
            average="macro",
            sample_weight=w,
            zero_division=np.nan,
        )
        assert_parity(skm.accuracy_score, mtm.accuracy_score, y_true, y_pred, sample_weight=w)
        assert_parity(skm.hamming_loss, mtm.hamming_loss, y_true, y_pred, sample_weight=w)
        assert_parity(
            skm.classification_report,
            mtm.classification_report,
            y_true,
            y_pred,
            sample_weight=w,
            digits=4,
        )
        assert_parity(
            skm.confusion_matrix,
            mtm.confusion_matrix,
            y_true,
            y_pred,
            labels=subset,
            sample_weight=w,
        )
    # Balanced accuracy is macro recall over the true classes; sklearn's own builds the dense
    # C x C table first (80 GB here), so compare with its recall (positive weights: no class of
    # y_true has zero weight, where the two definitions part).
    positive = rng.uniform(0.5, 3, n_samples)
    for w in (None, positive):
        expected = skm.recall_score(
            y_true, y_pred, labels=np.unique(y_true), average="macro", sample_weight=w
        )
        assert mtm.balanced_accuracy_score(y_true, y_pred, sample_weight=w) == pytest.approx(
            expected, rel=0, abs=1e-12
        )


@pytest.mark.parametrize("kind", ["int", "str"])
def test_full_confusion_matrix_beyond_the_small_table(kind):
    # 2,500 classes: the table is counted from the codes with one bincount (no 8,192 refusal).
    y_true, y_pred, values = _many(60_000, 2_500, kind)
    w = np.random.default_rng(2).uniform(0, 2, y_true.shape[0])
    for sample_weight in (None, w):
        assert_parity(
            skm.confusion_matrix, mtm.confusion_matrix, y_true, y_pred, sample_weight=sample_weight
        )
    labels = np.r_[values[::-7], values[:1]][:-1].tolist() + (["absent"] if kind == "str" else [-3])
    assert_parity(
        skm.confusion_matrix,
        mtm.confusion_matrix,
        y_true,
        y_pred,
        labels=labels,
        sample_weight=w,
        normalize="true",
    )


def test_100000_classes_are_not_refused():
    # Before issue #12, more than 8,192 distinct labels raised "would not fit in memory".
    y_true, y_pred, values = _many(200_000, 100_000, "str")
    assert np.unique(np.r_[y_true, y_pred]).size > 90_000
    p, r, f, s = mtm.precision_recall_fscore_support(y_true, y_pred, zero_division=0)
    assert p.shape == (np.union1d(y_true, y_pred).size,) and s.sum() == y_true.shape[0]
    assert 0 < mtm.f1_score(y_true, y_pred, average="macro", zero_division=0) < 1
    assert 0 < mtm.balanced_accuracy_score(y_true, y_pred) < 1
    assert mtm.accuracy_score(y_true, y_pred) == skm.accuracy_score(y_true, y_pred)
    report = mtm.classification_report(y_true, y_pred, zero_division=0)
    assert report.count("\n") > 90_000
    cm = mtm.confusion_matrix(y_true, y_pred, labels=values[:3])
    assert cm.shape == (3, 3)


def test_many_classes_need_no_class_by_class_table():
    # 100,000 classes: a C x C count would be 80 GB (10 GB as bools); the marginals are O(n + C).
    y_true, y_pred, _ = _many(200_000, 100_000, "int")
    tracemalloc.start()
    try:
        mtm.f1_score(y_true, y_pred, average=None, zero_division=0)
        mtm.balanced_accuracy_score(y_true, y_pred)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20


def test_exact_zero_true_negatives_with_float_weights_and_many_classes():
    # Every sample of non-zero weight is of class 0, so class 0 has tn == 0 and fp == 0 exactly:
    # its specificity is 0/0 (zero_division), not the 1.0 a rounding residue of
    # total - tp - fp - fn would give.
    rng = np.random.default_rng(3)
    n, n_classes = 5_000, 1_000
    y_true = rng.integers(0, n_classes, n)
    y_pred = rng.integers(0, n_classes, n)
    y_true[:300] = 0
    w = np.where(y_true == 0, rng.uniform(0.1, 1.0, n), 0.0)
    spec = mtm.specificity_score(
        y_true, y_pred, average=None, sample_weight=w, zero_division=np.nan
    )
    assert np.isnan(spec[0])
    assert_parity(
        sk_specificity,
        mtm.specificity_score,
        y_true,
        y_pred,
        average=None,
        sample_weight=w,
        zero_division=np.nan,
    )


def test_weighted_table_with_no_sample_among_the_labels_is_float():
    # Found by the property test: np.bincount returns int64 for an empty input even with weights;
    # a float-weighted confusion matrix must be float64 as in sklearn (here over 257 codes).
    y_true, y_pred, w = np.r_[0, 256, 5], np.r_[196, 3, 5], np.r_[1.5, 2.0, 3.0]
    assert_parity(
        skm.confusion_matrix, mtm.confusion_matrix, y_true, y_pred, labels=[0], sample_weight=w
    )
    y_pred = np.r_[196, 3, 6]  # no sample right: weighted tp from an empty bincount
    assert_parity(
        skm.precision_recall_fscore_support,
        mtm.precision_recall_fscore_support,
        y_true,
        y_pred,
        sample_weight=w,
        zero_division=0,
    )
