"""mltutor.metrics against scikit-learn: property tests (hypothesis) and tricky hand-picked cases.

Each property test draws a small problem (ints incl. negative, wide ints, strings, bools, whole
floats or indicator matrices; absent and one-sided classes; one class only; perfect, all-wrong and
constant predictions), plus labels / pos_label / average / zero_division / weights / beta, and
asserts the same result, the same warnings, or the same exception type as scikit-learn.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import (
    AVERAGES,
    CASES,
    PROPERTY,
    ZERO_DIVISIONS,
    assert_parity,
    assert_same,
    betas,
    labels_for,
    pos_label_for,
    problems,
    same_error_type,
    weights_for,
)
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning as SkUndefinedMetricWarning
from sklearn.utils.extmath import _nanaverage

import mltutor.metrics as mtm

SKLEARN_TWINS = [
    "confusion_matrix",
    "multilabel_confusion_matrix",
    "accuracy_score",
    "balanced_accuracy_score",
    "precision_score",
    "recall_score",
    "f1_score",
    "fbeta_score",
    "precision_recall_fscore_support",
    "classification_report",
]


@pytest.mark.parametrize("name", SKLEARN_TWINS)
def test_signature_matches_sklearn(name):
    ours, theirs = inspect.signature(getattr(mtm, name)), inspect.signature(getattr(skm, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.default) for p in theirs.parameters.values()
    ]


# --------------------------------------------------------------------------------------------
# Property tests
# --------------------------------------------------------------------------------------------


@PROPERTY
@given(data=st.data(), problem=problems())
def test_confusion_matrix(data, problem):
    CASES["confusion_matrix"] += 1
    kwargs = dict(
        labels=data.draw(labels_for(problem)),
        sample_weight=data.draw(weights_for(problem)),
        normalize=data.draw(st.sampled_from([None, "true", "pred", "all"])),
    )
    assert_parity(
        skm.confusion_matrix, mtm.confusion_matrix, problem.y_true, problem.y_pred, **kwargs
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_multilabel_confusion_matrix(data, problem):
    CASES["multilabel_confusion_matrix"] += 1
    kwargs = dict(
        labels=data.draw(labels_for(problem)),
        sample_weight=data.draw(weights_for(problem)),
        samplewise=data.draw(st.booleans()),
    )
    assert_parity(
        skm.multilabel_confusion_matrix,
        mtm.multilabel_confusion_matrix,
        problem.y_true,
        problem.y_pred,
        **kwargs,
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_accuracy_score(data, problem):
    CASES["accuracy_score"] += 1
    kwargs = dict(normalize=data.draw(st.booleans()), sample_weight=data.draw(weights_for(problem)))
    assert_parity(skm.accuracy_score, mtm.accuracy_score, problem.y_true, problem.y_pred, **kwargs)


@PROPERTY
@given(data=st.data(), problem=problems())
def test_balanced_accuracy_score(data, problem):
    CASES["balanced_accuracy_score"] += 1
    kwargs = dict(sample_weight=data.draw(weights_for(problem)), adjusted=data.draw(st.booleans()))
    assert_parity(
        skm.balanced_accuracy_score,
        mtm.balanced_accuracy_score,
        problem.y_true,
        problem.y_pred,
        **kwargs,
    )


def _set_wise_kwargs(data, problem):
    return dict(
        labels=data.draw(labels_for(problem)),
        pos_label=data.draw(pos_label_for(problem)),
        average=data.draw(st.sampled_from(AVERAGES)),
        sample_weight=data.draw(weights_for(problem)),
        zero_division=data.draw(st.sampled_from(ZERO_DIVISIONS)),
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_precision_score(data, problem):
    CASES["precision_score"] += 1
    assert_parity(
        skm.precision_score,
        mtm.precision_score,
        problem.y_true,
        problem.y_pred,
        **_set_wise_kwargs(data, problem),
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_recall_score(data, problem):
    CASES["recall_score"] += 1
    assert_parity(
        skm.recall_score,
        mtm.recall_score,
        problem.y_true,
        problem.y_pred,
        **_set_wise_kwargs(data, problem),
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_f1_score(data, problem):
    CASES["f1_score"] += 1
    assert_parity(
        skm.f1_score,
        mtm.f1_score,
        problem.y_true,
        problem.y_pred,
        **_set_wise_kwargs(data, problem),
    )


@PROPERTY
@given(data=st.data(), problem=problems(), beta=betas)
def test_fbeta_score(data, problem, beta):
    CASES["fbeta_score"] += 1
    assert_parity(
        skm.fbeta_score,
        mtm.fbeta_score,
        problem.y_true,
        problem.y_pred,
        beta=beta,
        **_set_wise_kwargs(data, problem),
    )


@PROPERTY
@given(data=st.data(), problem=problems(), beta=betas)
def test_precision_recall_fscore_support(data, problem, beta):
    CASES["precision_recall_fscore_support"] += 1
    kwargs = _set_wise_kwargs(data, problem)
    kwargs["average"] = data.draw(st.sampled_from(AVERAGES))  # default None included via AVERAGES
    warn_for = data.draw(st.sampled_from([("precision", "recall", "f-score"), ("recall",), ()]))
    assert_parity(
        skm.precision_recall_fscore_support,
        mtm.precision_recall_fscore_support,
        problem.y_true,
        problem.y_pred,
        beta=beta,
        warn_for=warn_for,
        **kwargs,
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_classification_report(data, problem):
    CASES["classification_report"] += 1
    labels = data.draw(labels_for(problem))
    n_names = problem.n_classes if labels is None else len(labels)
    names = data.draw(st.sampled_from(["none", "match", "mismatch"]))
    if names == "none":
        target_names = None
    else:
        count = n_names if names == "match" else n_names + data.draw(st.sampled_from([-1, 1]))
        target_names = [f"class {chr(97 + i)}" * (1 + i % 3) for i in range(max(count, 0))]
    kwargs = dict(
        labels=labels,
        target_names=target_names,
        sample_weight=data.draw(weights_for(problem)),
        digits=data.draw(st.integers(0, 5)),
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


# --------------------------------------------------------------------------------------------
# Specificity: scikit-learn has no such function; the reference is built from its
# multilabel_confusion_matrix (tn / (tn + fp)) after letting recall_score validate the arguments.
# --------------------------------------------------------------------------------------------


def sk_specificity(
    y_true,
    y_pred,
    *,
    labels=None,
    pos_label=1,
    average="binary",
    sample_weight=None,
    zero_division="warn",
):
    # recall_score raises where specificity_score must raise, and warns about pos_label.
    skm.recall_score(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=0.0,
    )
    if average == "binary":
        labels = [pos_label]
    mcm = skm.multilabel_confusion_matrix(
        y_true, y_pred, labels=labels, sample_weight=sample_weight, samplewise=average == "samples"
    )
    tn, fp = mcm[:, 0, 0].astype(float), mcm[:, 0, 1].astype(float)
    # sklearn derives tn by subtraction: snap its float residue (1e-16) to the exact 0 it stands for.
    tn[np.abs(tn) < 1e-9], fp[np.abs(fp) < 1e-9] = 0.0, 0.0
    support = mcm[:, 1, 1] + mcm[:, 1, 0]
    if average == "micro":
        tn, fp = tn.sum(keepdims=True), fp.sum(keepdims=True)
    undefined = tn + fp == 0
    spec = tn / np.where(undefined, 1, tn + fp)
    spec[undefined] = 0.0 if zero_division == "warn" else zero_division
    if undefined.any() and zero_division == "warn":
        axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
        where = "due to" if spec.shape[0] == 1 else f"in {axis1}s with"
        warnings.warn(
            f"Specificity is ill-defined and being set to 0.0 {where} no negative {axis0}s. "
            "Use `zero_division` parameter to control this behavior.",
            SkUndefinedMetricWarning,
        )
    if average is None:
        return spec
    weights = {"weighted": support, "samples": sample_weight}.get(average)
    return float(_nanaverage(spec, weights=weights))


@PROPERTY
@given(data=st.data(), problem=problems())
def test_specificity_score(data, problem):
    CASES["specificity_score"] += 1
    assert_parity(
        sk_specificity,
        mtm.specificity_score,
        problem.y_true,
        problem.y_pred,
        **_set_wise_kwargs(data, problem),
    )


# --------------------------------------------------------------------------------------------
# Hand-picked cases
# --------------------------------------------------------------------------------------------

TRICKY = {
    "ties and absent class": ([0, 0, 1, 1], [1, 1, 0, 0]),
    "one class only": ([3, 3, 3], [3, 3, 3]),
    "all wrong": ([0, 1, 2, 0], [1, 2, 0, 2]),
    "class only in y_pred": ([0, 0, 1], [0, 2, 1]),
    "strings": (["cat", "dog", "cat", "ant"], ["cat", "cat", "cat", "dog"]),
    "negative ints": ([-1, 5, -1, 7], [-1, -1, 5, 7]),
    "bools": ([True, False, True], [True, True, False]),
    "whole floats": ([1.0, 2.0, 3.0], [1.0, 3.0, 3.0]),
    "wide ints": ([0, 10**12, 10**12], [10**12, 10**12, 0]),
    "multilabel": (
        np.array([[1, 0, 1], [0, 1, 0], [0, 0, 0]]),
        np.array([[1, 0, 0], [0, 1, 1], [0, 0, 0]]),
    ),
}


@pytest.mark.parametrize("case", TRICKY)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize("average", AVERAGES)
def test_tricky_precision_recall_fscore(case, zero_division, average):
    y_true, y_pred = TRICKY[case]
    assert_parity(
        skm.precision_recall_fscore_support,
        mtm.precision_recall_fscore_support,
        y_true,
        y_pred,
        average=average,
        zero_division=zero_division,
        pos_label=y_true[0] if average == "binary" and not np.ndim(y_true[0]) else 1,
    )


@pytest.mark.parametrize("case", TRICKY)
@pytest.mark.parametrize("digits", [0, 2, 4])
def test_tricky_reports(case, digits):
    y_true, y_pred = TRICKY[case]
    for fn in (
        "confusion_matrix",
        "multilabel_confusion_matrix",
        "accuracy_score",
        "balanced_accuracy_score",
    ):
        assert_parity(getattr(skm, fn), getattr(mtm, fn), y_true, y_pred)
    for output_dict in (False, True):
        assert_parity(
            skm.classification_report,
            mtm.classification_report,
            y_true,
            y_pred,
            digits=digits,
            output_dict=output_dict,
        )


def test_report_text_binary_with_target_names():
    y_true, y_pred = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    ours = mtm.classification_report(y_true, y_pred, target_names=["neg", "pos"], digits=3)
    assert ours == skm.classification_report(y_true, y_pred, target_names=["neg", "pos"], digits=3)
    assert "accuracy" in ours and "micro avg" not in ours


def test_report_text_multiclass_subset_shows_micro_avg():
    y_true, y_pred = [1, 1, 1], [1, 1, 0]
    ours = mtm.classification_report(y_true, y_pred, labels=[1, 2, 3], zero_division=0.0)
    assert ours == skm.classification_report(y_true, y_pred, labels=[1, 2, 3], zero_division=0.0)
    assert "micro avg" in ours


def test_report_text_multilabel_has_samples_avg():
    y_true = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    y_pred = np.array([[1, 0, 0], [0, 1, 1], [0, 1, 0]])
    names = ["sports", "politics", "tech"]
    outcome = assert_parity(
        skm.classification_report,
        mtm.classification_report,
        y_true,
        y_pred,
        target_names=names,
        digits=4,
    )
    assert "samples avg" in outcome.result


def test_report_support_prints_as_float_when_nothing_is_right():
    # sklearn's support column turns float (1.0) when no sample is predicted right; mirrored.
    assert_parity(skm.classification_report, mtm.classification_report, [0, 1], [1, 0])
    assert "1.0" in mtm.classification_report([0, 1], [1, 0], zero_division=0.0)


def test_weighted_confusion_matrix_with_labels_reorders_and_pads():
    y_true, y_pred = ["b", "a", "c", "a"], ["a", "a", "c", "b"]
    w = [0.5, 2.0, 1.0, 3.0]
    assert_parity(
        skm.confusion_matrix,
        mtm.confusion_matrix,
        y_true,
        y_pred,
        labels=["c", "zz", "a"],
        sample_weight=w,
        normalize="true",
    )


def test_integer_weights_keep_integer_confusion_matrix():
    cm = mtm.confusion_matrix([0, 1, 1], [1, 1, 1], sample_weight=[1, 2, 3])
    assert cm.dtype == np.int64 and cm.tolist() == [[0, 1], [0, 5]]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint64])
def test_small_integer_dtypes_including_negative(dtype):
    rng = np.random.default_rng(0)
    lo = 0 if np.dtype(dtype).kind == "u" else -3
    y_true = rng.integers(lo, 5, 500).astype(dtype)
    y_pred = rng.integers(lo, 5, 500).astype(dtype)
    assert_parity(skm.confusion_matrix, mtm.confusion_matrix, y_true, y_pred)
    assert_parity(
        skm.precision_recall_fscore_support, mtm.precision_recall_fscore_support, y_true, y_pred
    )


def test_large_input_fast_path_matches_sklearn():
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 101, 300_000)
    y_pred = np.where(rng.random(300_000) < 0.3, rng.integers(0, 101, 300_000), y_true)
    assert_same(mtm.confusion_matrix(y_true, y_pred), skm.confusion_matrix(y_true, y_pred))
    w = rng.random(300_000)
    ours = mtm.precision_recall_fscore_support(y_true, y_pred, sample_weight=w, average=None)
    theirs = skm.precision_recall_fscore_support(y_true, y_pred, sample_weight=w, average=None)
    for a, b in zip(ours, theirs):  # supports are sums of ~3000 weights: compare relatively
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_specificity_binary_is_recall_of_the_negative_class():
    y_true, y_pred = [0, 0, 0, 1, 1], [0, 1, 0, 1, 0]
    assert mtm.specificity_score(y_true, y_pred) == skm.recall_score(y_true, y_pred, pos_label=0)
    assert mtm.specificity_score(y_true, y_pred, pos_label=0) == skm.recall_score(
        y_true, y_pred, pos_label=1
    )


def test_specificity_averages():
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 1, 1]
    per_class = mtm.specificity_score(y_true, y_pred, average=None)
    np.testing.assert_allclose(per_class, [4 / 4, 2 / 3, 2 / 3])
    assert mtm.specificity_score(y_true, y_pred, average="macro") == pytest.approx(per_class.mean())
    assert mtm.specificity_score(y_true, y_pred, average="weighted") == pytest.approx(
        np.average(per_class, weights=[1, 2, 2])
    )
    assert mtm.specificity_score(y_true, y_pred, average="micro") == pytest.approx(8 / 10)


def test_helpers_for_the_book():
    from mltutor.confusion import confusion_counts, per_class_counts

    cm = confusion_counts(np.array([0, 1, 1, 2]), np.array([0, 1, 2, 2]), 3)
    assert cm.tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    tp, fp, fn, tn = per_class_counts(cm)
    mcm = skm.multilabel_confusion_matrix([0, 1, 1, 2], [0, 1, 2, 2])
    assert np.array_equal(np.stack([tn, fp, fn, tp], axis=1).reshape(-1, 2, 2), mcm)


def test_same_error_type_helper():
    assert same_error_type(ValueError("x"), ValueError("y"))
    assert not same_error_type(ValueError("x"), TypeError("y"))
