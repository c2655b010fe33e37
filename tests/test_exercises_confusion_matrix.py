"""Chapter 1 exercises: references agree with scikit-learn, and known-wrong "mutants" are caught.

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
    assert_wrong_value_caught,
    run_notebook_code,
)

from mltutor.exercises import confusion_matrix as ch1

CH1_SOLUTIONS = SOLUTIONS / "01_confusion_matrix.ipynb"
CH1_EXERCISES = EXERCISES / "01_confusion_matrix.ipynb"
EXERCISES_CH1 = {name: getattr(ch1, name) for name in ch1.__all__}


@pytest.fixture(scope="module")
def solved():
    return run_notebook_code(CH1_SOLUTIONS)


# --------------------------------------------------------------------------------------------
# The references agree with scikit-learn
# --------------------------------------------------------------------------------------------

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def labels_from_cm(cm):
    cm = np.asarray(cm)
    c = cm.shape[0]
    idx = np.repeat(np.arange(c * c), cm.ravel())
    return idx // c, idx % c


@pytest.mark.parametrize("i", range(len(ch1.ex1.cases)))
def test_ex1_reference_matches_sklearn(i):
    c = ch1.ex1.cases[i]
    y_true, y_pred = c.args
    pos = c.kwargs["pos_label"]
    if y_true.size == 0:
        assert ch1.ex1.expected(i) == (0, 0, 0, 0)
        return
    t, p = y_true == pos, y_pred == pos
    tn, fp, fn, tp = sklearn_metrics.confusion_matrix(t, p, labels=[False, True]).ravel()
    assert ch1.ex1.expected(i) == (tp, fp, fn, tn)


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@pytest.mark.parametrize("i", range(len(ch1.ex2.cases)))
def test_ex2_reference_matches_sklearn(i):
    c = ch1.ex2.cases[i]
    n = c.kwargs["n_classes"]
    ref = sklearn_metrics.confusion_matrix(*c.args, labels=np.arange(n))
    np.testing.assert_array_equal(ch1.ex2.expected(i), ref)


@pytest.mark.parametrize("i", range(len(ch1.ex3.cases)))
def test_ex3_reference_matches_sklearn(i):
    cm = ch1.ex3.cases[i].args[0]
    precision, recall = ch1.ex3.expected(i)
    if cm.sum() == 0:
        assert not precision.any() and not recall.any()
        return
    y_true, y_pred = labels_from_cm(cm)
    p, r, _, _ = sklearn_metrics.precision_recall_fscore_support(
        y_true, y_pred, labels=np.arange(cm.shape[0]), average=None, zero_division=0
    )
    np.testing.assert_allclose(precision, p, rtol=0, atol=1e-12)
    np.testing.assert_allclose(recall, r, rtol=0, atol=1e-12)


@pytest.mark.parametrize("i", range(len(ch1.ex4.cases)))
def test_ex4_reference_matches_sklearn(i):
    y_true, y_pred = labels_from_cm(ch1.ex4.cases[i].args[0])
    assert ch1.ex4.expected(i) == pytest.approx(
        sklearn_metrics.accuracy_score(y_true, y_pred), abs=1e-12
    )


def test_ex5_answer_is_what_the_buggy_metric_reports(solved):
    namespace, _ = solved
    buggy = namespace["buggy_accuracy"]
    for n_per_class in (1, 7, 20):
        y_true = np.repeat(np.arange(101), n_per_class)
        y_pred = (y_true + 1 + np.arange(y_true.size) % 100) % 101  # never the true class
        cm = np.bincount(101 * y_true + y_pred, minlength=101 * 101).reshape(101, 101)
        assert np.trace(cm) == 0
        assert buggy(cm) == pytest.approx(ch1.ex5.answer, abs=1e-12)


def test_the_101_class_case_shows_the_bug(solved):
    """The bug the exercise is about: ~0.99 reported on 101 classes for a ~60 % model."""
    buggy = solved[0]["buggy_accuracy"]
    cm = ch1._CM_101
    assert cm.shape == (101, 101)
    assert 0.5 < ch1.accuracy(cm) < 0.7
    assert buggy(cm) > 0.99
    # ... and why binary tests never catch it
    assert buggy(ch1._CM_BINARY) == pytest.approx(ch1.accuracy(ch1._CM_BINARY))


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def _outcomes(y_true, y_pred, pos_label):
    actual, predicted = y_true == pos_label, y_pred == pos_label
    return (
        int(np.sum(actual & predicted)),
        int(np.sum(~actual & predicted)),
        int(np.sum(actual & ~predicted)),
        int(np.sum(~actual & ~predicted)),
    )


def ex1_fp_fn_swapped(y_true, y_pred, pos_label=1):
    tp, fp, fn, tn = _outcomes(y_true, y_pred, pos_label)
    return tp, fn, fp, tn


def ex1_sklearn_ravel_order(y_true, y_pred, pos_label=1):
    tp, fp, fn, tn = _outcomes(y_true, y_pred, pos_label)
    return tn, fp, fn, tp


def ex1_pos_label_ignored(y_true, y_pred, pos_label=1):
    return _outcomes(y_true, y_pred, 1)


def ex1_tn_only_correct_negatives(y_true, y_pred, pos_label=1):
    tp, fp, fn, _ = _outcomes(y_true, y_pred, pos_label)
    return tp, fp, fn, int(np.sum((y_true == y_pred) & (y_true != pos_label)))


def ex1_tp_counts_every_correct(y_true, y_pred, pos_label=1):
    _, fp, fn, tn = _outcomes(y_true, y_pred, pos_label)
    return int(np.sum(y_true == y_pred)), fp, fn, tn


def ex1_tn_is_the_rest_after_tp(y_true, y_pred, pos_label=1):
    tp, fp, fn, _ = _outcomes(y_true, y_pred, pos_label)
    return tp, fp, fn, len(y_true) - tp


def ex1_labels_as_booleans(y_true, y_pred, pos_label=1):
    actual, predicted = y_true.astype(bool), y_pred.astype(bool)
    return (
        int(np.sum(actual & predicted)),
        int(np.sum(~actual & predicted)),
        int(np.sum(actual & ~predicted)),
        int(np.sum(~actual & ~predicted)),
    )


def ex2_transposed(y_true, y_pred, n_classes):
    return np.bincount(n_classes * y_pred + y_true, minlength=n_classes**2).reshape(
        n_classes, n_classes
    )


def ex2_no_minlength(y_true, y_pred, n_classes):
    return np.bincount(n_classes * y_true + y_pred).reshape(n_classes, n_classes)


def ex2_minlength_n_not_n_squared(y_true, y_pred, n_classes):
    return np.bincount(n_classes * y_true + y_pred, minlength=n_classes).reshape(
        n_classes, n_classes
    )


def ex2_size_from_the_data(y_true, y_pred, n_classes):
    k = int(max(y_true.max(), y_pred.max())) + 1
    return np.bincount(k * y_true + y_pred, minlength=k * k).reshape(k, k)


def ex2_rows_and_columns_from_unique_labels(y_true, y_pred, n_classes):
    rows, cols = np.unique(y_true), np.unique(y_pred)
    return np.array([[np.sum((y_true == r) & (y_pred == c)) for c in cols] for r in rows])


def ex2_bins_off_by_one(y_true, y_pred, n_classes):
    counts = np.bincount(n_classes * y_true + y_pred + 1, minlength=n_classes**2 + 1)
    return counts[: n_classes**2].reshape(n_classes, n_classes)


def ex2_wrong_stride(y_true, y_pred, n_classes):
    counts = np.bincount((n_classes - 1) * y_true + y_pred, minlength=n_classes**2)
    return counts[: n_classes**2].reshape(n_classes, n_classes)


def _pr(cm, zero=0.0):
    cm = np.asarray(cm, dtype=float)
    tp, predicted, actual = np.diag(cm), cm.sum(axis=0), cm.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p, r = tp / predicted, tp / actual
    return np.where(predicted > 0, p, zero), np.where(actual > 0, r, zero)


def ex3_axes_swapped(cm):
    p, r = _pr(cm)
    return r, p


def ex3_transposed_matrix(cm):
    return _pr(np.asarray(cm).T)


def ex3_micro_instead_of_per_class(cm):
    cm = np.asarray(cm, dtype=float)
    micro = np.trace(cm) / cm.sum() if cm.sum() else 0.0
    return np.full(cm.shape[0], micro), np.full(cm.shape[0], micro)


def ex3_macro_scalars(cm):
    p, r = _pr(cm)
    return float(p.mean()), float(r.mean())


def ex3_forgets_zero_division(cm):
    cm = np.asarray(cm, dtype=float)
    return np.diag(cm) / cm.sum(axis=0), np.diag(cm) / cm.sum(axis=1)


def ex3_zero_division_gives_one(cm):
    return _pr(cm, zero=1.0)


def ex3_divides_by_total(cm):
    cm = np.asarray(cm, dtype=float)
    total = cm.sum() or 1.0
    return np.diag(cm) / total, np.diag(cm) / total


def ex3_integer_division(cm):
    cm = np.asarray(cm)
    tp, predicted, actual = np.diag(cm), cm.sum(axis=0), cm.sum(axis=1)
    return (
        np.where(predicted > 0, tp // np.maximum(predicted, 1), 0),
        np.where(actual > 0, tp // np.maximum(actual, 1), 0),
    )


def ex4_summed_tn(cm):
    """The popular bug: one-vs-rest TP + TN summed over classes, over C * N."""
    cm = np.asarray(cm)
    c, n = cm.shape[0], cm.sum()
    tp = np.diag(cm)
    fp, fn = cm.sum(axis=0) - tp, cm.sum(axis=1) - tp
    return float((tp + (n - tp - fp - fn)).sum() / (c * n))


def ex4_mean_recall(cm):
    return float(_pr(cm)[1].mean())


def ex4_mean_precision(cm):
    return float(_pr(cm)[0].mean())


def ex4_trace_over_classes(cm):
    cm = np.asarray(cm)
    return float(np.trace(cm) / cm.shape[0])


def ex4_integer_division(cm):
    cm = np.asarray(cm)
    return int(np.trace(cm) // cm.sum())


def ex4_forgets_last_class(cm):
    cm = np.asarray(cm)
    return float(np.trace(cm[:-1, :-1]) / cm.sum())


MUTANTS = {
    "ex1": [
        ex1_fp_fn_swapped,
        ex1_sklearn_ravel_order,
        ex1_pos_label_ignored,
        ex1_tn_only_correct_negatives,
        ex1_tp_counts_every_correct,
        ex1_tn_is_the_rest_after_tp,
        ex1_labels_as_booleans,
    ],
    "ex2": [
        ex2_transposed,
        ex2_no_minlength,
        ex2_minlength_n_not_n_squared,
        ex2_size_from_the_data,
        ex2_rows_and_columns_from_unique_labels,
        ex2_bins_off_by_one,
        ex2_wrong_stride,
    ],
    "ex3": [
        ex3_axes_swapped,
        ex3_transposed_matrix,
        ex3_micro_instead_of_per_class,
        ex3_macro_scalars,
        ex3_forgets_zero_division,
        ex3_zero_division_gives_one,
        ex3_divides_by_total,
        ex3_integer_division,
    ],
    "ex4": [
        ex4_summed_tn,
        ex4_mean_recall,
        ex4_mean_precision,
        ex4_trace_over_classes,
        ex4_integer_division,
        ex4_forgets_last_class,
    ],
}
# Wrong values a learner might type for ex5: 1 - 1/C, "it is perfect", "it is zero", per-100, 2/C.
VALUE_MUTANTS = {"ex5": [1 - 1 / 101, 1.0, 0.0, 0.99, 2 / 101, 99 / 100, 100 / 101]}

MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]
VALUE_PARAMS = [
    pytest.param(ex, v, id=f"{ex}-{v:.6g}") for ex, vs in VALUE_MUTANTS.items() for v in vs
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) | set(VALUE_MUTANTS) == {
        n for n, ex in EXERCISES_CH1.items() if ex.kind != "judgement"
    }


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH1[name], mutant)


@pytest.mark.parametrize("name, value", VALUE_PARAMS)
def test_wrong_value_is_caught(name, value):
    assert_wrong_value_caught(EXERCISES_CH1[name], value)


def test_mutant_messages_are_useful():
    """Spot-check that messages point at the mistake."""
    m = ch1.ex1.check(ex1_fp_fn_swapped, strict=False).message
    assert "`fp`" in m and "case 1 of 8 (binary labels)" in m
    m = ch1.ex2.check(ex2_rows_and_columns_from_unique_labels, strict=False).message
    assert "expected a square matrix" in m
    m = ch1.ex2.check(ex2_no_minlength, strict=False).message
    assert "raised ValueError" in m
    m = ch1.ex3.check(ex3_forgets_zero_division, strict=False).message
    assert "NaN" in m and "(class 1 is never predicted)" in m
    m = ch1.ex4.check(ex4_summed_tn, strict=False).message
    assert (
        "case 2 of 7 (three classes)" in m
    )  # passes the binary case, fails the first multiclass one


def test_exercise_notebook_contains_no_solution_code():
    text = CH1_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "np.trace(cm) / cm.sum()",
        "minlength=n_classes * n_classes",
        "1 - 2 / 101",
        "out=np.zeros_like(tp)",
        "Discussion",
    ):
        assert needle not in text, needle


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_fp_fn_swapped": "fp_fn_swapped",
        "ex1_sklearn_ravel_order": "ravel_order",
        "ex1_pos_label_ignored": "pos_label_ignored",
    },
    "ex2": {
        "ex2_transposed": "transposed",
        "ex2_size_from_the_data": "size_from_data",
        "ex2_no_minlength": "no_minlength",
        "ex2_minlength_n_not_n_squared": "no_minlength",  # the same cut-off
    },
    "ex3": {
        "ex3_axes_swapped": "axes_swapped",
        "ex3_transposed_matrix": "axes_swapped",  # transposing swaps P and R
        "ex3_forgets_zero_division": "nan_for_zero_division",
        "ex3_divides_by_total": "divides_by_total",
    },
    "ex4": {
        "ex4_summed_tn": "summed_tn",
        "ex4_mean_recall": "mean_recall",
        "ex4_trace_over_classes": "trace_over_classes",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH1[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH1, NAMED)
