"""Exercises for chapter 1, *The confusion matrix*.

=====  =========================================================================================
ex1    count TP, FP, FN and TN for one positive label                 ``count_outcomes``
ex2    the multiclass confusion matrix with one ``np.bincount``       ``confusion_matrix``
ex3    per-class precision and recall from a matrix, 0/0 -> 0.0       ``precision_recall_per_class``
ex4    find the bug: the "accuracy" that says 0.99 on 101 classes     ``accuracy``
ex5    how high does that bug go for a model that is always wrong?    a number
ex6    judgement: a positive screening result (a letter)
ex7    judgement: whose convention? (a letter)
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (the chapter's own
``mltutor.metrics`` is deliberately not used, so an exercise cannot inherit its bugs).  Every
case is small enough to check by hand, except the 101-class one, which is built from a fixed seed.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, ValueExercise, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def count_outcomes(y_true, y_pred, pos_label=1):
    """Return (tp, fp, fn, tn) when `pos_label` is the positive class."""
    actual = np.asarray(y_true) == pos_label  # truly positive
    predicted = np.asarray(y_pred) == pos_label  # predicted positive
    tp = int(np.sum(actual & predicted))
    fp = int(np.sum(~actual & predicted))
    fn = int(np.sum(actual & ~predicted))
    tn = int(np.sum(~actual & ~predicted))
    return tp, fp, fn, tn


def confusion_matrix(y_true, y_pred, n_classes):
    """Counts C[i, j] of samples with true class i predicted as class j."""
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    # Each (true, predicted) pair gets its own bin: n_classes * true + predicted.
    counts = np.bincount(n_classes * y_true + y_pred, minlength=n_classes * n_classes)
    return counts.reshape(n_classes, n_classes)


def precision_recall_per_class(cm):
    """Per-class precision (diagonal / column sums) and recall (diagonal / row sums), 0/0 -> 0."""
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    predicted = cm.sum(axis=0)  # column sums: how often each class was predicted
    actual = cm.sum(axis=1)  # row sums: how often each class really occurs
    precision = np.divide(tp, predicted, out=np.zeros_like(tp), where=predicted > 0)
    recall = np.divide(tp, actual, out=np.zeros_like(tp), where=actual > 0)
    return precision, recall


def accuracy(cm):
    """Fraction of samples on the diagonal: trace / total."""
    cm = np.asarray(cm)
    return float(np.trace(cm) / cm.sum())


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=int):
    return np.array(values, dtype=dtype)


def _simulated_cm(n_classes: int, n_per_class: int, p_right: float, seed: int) -> np.ndarray:
    """Balanced classes; each prediction is right with probability p_right, else a random class."""
    rng = np.random.default_rng(seed)
    y_true = np.repeat(np.arange(n_classes), n_per_class)
    guess = rng.integers(0, n_classes, size=y_true.size)
    y_pred = np.where(rng.random(y_true.size) < p_right, y_true, guess)
    return confusion_matrix(y_true, y_pred, n_classes)


_CM_3 = _a([[5, 1, 0], [2, 3, 1], [0, 2, 6]])
_CM_BINARY = _a([[50, 10], [5, 35]])
_CM_101 = _simulated_cm(101, 20, p_right=0.6, seed=101)

ex1 = Exercise(
    "ex1",
    title="Count the four outcomes",
    reference=count_outcomes,
    outputs=("tp", "fp", "fn", "tn"),
    cases=[
        case(
            _a([1, 0, 1, 1, 0, 0, 1, 0]),
            _a([1, 1, 0, 1, 1, 0, 1, 0]),
            pos_label=1,
            note="binary labels",
        ),
        case(_a([0, 0, 1, 1, 0]), _a([0, 1, 1, 0, 0]), pos_label=0, note="the positive class is 0"),
        case(
            _a(["spam", "ham", "spam", "ham", "ham"], str),
            _a(["spam", "spam", "ham", "ham", "spam"], str),
            pos_label="spam",
            note="string labels",
        ),
        case(
            _a([0, 1, 2, 2, 1, 0]),
            _a([0, 2, 2, 1, 1, 1]),
            pos_label=2,
            note="three classes, one of them positive",
        ),
        case(_a([0, 0, 0]), _a([0, 1, 0]), pos_label=1, note="the positive class never occurs"),
        case(_a([1, 0, 1, 0]), _a([0, 1, 0, 1]), pos_label=1, note="every prediction wrong"),
        case(_a([1, 1, 1]), _a([1, 1, 1]), pos_label=1, note="one class only"),
        case(_a([]), _a([]), pos_label=1, note="no samples at all"),
    ],
    hints=[
        "Make two boolean arrays first: `actual = y_true == pos_label` and "
        "`predicted = y_pred == pos_label`.",
        "Combine them with `&` and `~`: a false positive is *predicted* positive but *not actually* "
        "positive. `np.sum` of a boolean array counts its `True` entries.",
        "With three classes and `pos_label=2`, a sample of class 0 predicted as class 1 is wrong, "
        "but for class 2 it is still a true negative.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="The confusion matrix with one bincount",
    reference=confusion_matrix,
    cases=[
        case(
            _a([0, 1, 2, 2, 1, 0, 2]), _a([0, 2, 2, 0, 1, 0, 2]), n_classes=3, note="three classes"
        ),
        case(_a([0, 1, 2, 1]), _a([0, 1, 1, 2]), n_classes=4, note="class 3 never occurs"),
        case(
            _a([0, 1, 1, 0, 1]),
            _a([0, 2, 1, 1, 1]),
            n_classes=3,
            note="class 2 is predicted but never true",
        ),
        case(_a([1, 2, 2]), _a([2, 2, 1]), n_classes=3, note="class 0 never occurs"),
        case(_a([1, 1]), _a([1, 1]), n_classes=2, note="one class only"),
        case(_a([0, 0, 0]), _a([0, 0, 0]), n_classes=1, note="a single class"),
        case(_a([0, 1, 2, 0]), _a([1, 2, 0, 2]), n_classes=3, note="every prediction wrong"),
    ],
    hints=[
        "Give each (true, predicted) pair its own integer: `n_classes * y_true + y_pred` runs "
        "from 0 to `n_classes**2 - 1`.",
        "`np.bincount` counts how often each integer occurs. Its `minlength` argument makes sure "
        "classes that never occur still get their (zero) bins.",
        "Reshape the `n_classes**2` counts to `(n_classes, n_classes)`. Rows are the truth, "
        "columns the prediction: row `i` holds the pairs whose *true* class is `i`.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="Per-class precision and recall",
    reference=precision_recall_per_class,
    outputs=("precision", "recall"),
    cases=[
        case(_CM_3, note="three classes"),
        case(_a([[4, 0, 1], [2, 0, 3], [0, 0, 5]]), note="class 1 is never predicted"),
        case(_a([[3, 1, 0], [0, 0, 0], [1, 2, 4]]), note="class 1 never occurs"),
        case(_a([[7]]), note="one class only"),
        case(_a([[0, 3], [4, 0]]), note="every prediction wrong"),
        case(_CM_BINARY, note="two classes"),
        case(_a([[0, 0], [0, 0]]), note="no samples at all"),
        case(_simulated_cm(6, 5, p_right=0.5, seed=6), note="six classes"),
    ],
    hints=[
        "The diagonal `np.diag(cm)` holds the true positives of every class at once.",
        "Precision divides by how often a class was *predicted* (column sums, `axis=0`); "
        "recall by how often it *really occurs* (row sums, `axis=1`).",
        "`np.divide(tp, denominator, out=np.zeros(len(tp)), where=denominator > 0)` leaves 0.0 "
        "wherever the denominator is zero, without a warning.",
    ],
)

ex4 = Exercise(
    "ex4",
    title="Find the bug: the 0.99 accuracy",
    reference=accuracy,
    cases=[
        case(_CM_BINARY, note="two classes"),
        case(_CM_3, note="three classes"),
        case(_CM_101, note="101 balanced classes, about 60 % right"),
        case(_a([[0, 2, 3], [1, 0, 4], [2, 2, 0]]), note="every prediction wrong"),
        case(_a([[4, 0, 0], [0, 7, 0], [0, 0, 1]]), note="every prediction right"),
        case(_a([[90, 0, 0], [5, 0, 0], [5, 0, 0]]), note="one class dominates"),
        case(_a([[9]]), note="one class only"),
    ],
    hints=[
        "Accuracy is the fraction of samples whose prediction equals the truth. Where are those "
        "samples in the confusion matrix?",
        "They are on the diagonal. Every sample is counted exactly once in the matrix, so the "
        "total number of samples is `cm.sum()`.",
        "The buggy version counts each sample once per class (C times): as TP or FN for its true "
        "class, FP for its predicted class when that is another class, and TN for all the others.",
    ],
)

ex5 = ValueExercise(
    "ex5",
    variable="buggy_on_all_wrong",
    title="How high can the bug go?",
    answer=1 - 2 / 101,
    atol=5e-4,
    hints=[
        "Take one wrongly classified sample. For how many of the 101 classes is it a true "
        "negative?",
        "It is a false positive for the class it was predicted as, a false negative for its "
        "true class, and a true negative for the other 99 classes.",
    ],
    solution="""
        # Every sample is wrong: no TP anywhere. Each sample is one FP (its predicted class),
        # one FN (its true class) and a TN for the other C - 2 classes, so the buggy metric
        # reports (C - 2) * N / (C * N) = 1 - 2 / C, whatever N is.
        buggy_on_all_wrong = 1 - 2 / 101
        """,
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex6 = ChoiceExercise(
    "ex6",
    title="A positive screening result",
    variable="answer_6",
    options={
        "a": (
            "TP / (TP + FN) = 27 / 30, the sensitivity (recall)",
            "27 / 30 is the share of the *sick* who test positive. Her question starts from the "
            "other end: what she knows is that she is among the 60 who tested positive; whether "
            "she is among the 30 who are sick is what she asks.",
        ),
        "b": (
            "TP / (TP + FP) = 27 / 60, the positive predictive value (precision)",
            "among the 60 positive results, 27 are sick: a positive result means the disease "
            "about 45 % of the time, although the test finds 90 % of the sick. The other 33 "
            "are false alarms, which is why a positive screen is followed by a confirmatory "
            "test.",
        ),
        "c": (
            "(TP + TN) / N, the accuracy",
            "accuracy mixes the people who tested negative into the answer; most of the 1,000 "
            "are healthy and correctly negative, so it says little about what a positive result "
            "means.",
        ),
        "d": (
            "TN / (TN + FP), the specificity",
            "specificity is about the healthy: the share of them who test negative. It does not "
            "start from a positive result either.",
        ),
    },
    answer="b",
    hints=[
        "Her question is conditional on *testing positive*. Which row or column of the matrix "
        "holds everyone who tested positive?",
        "Everyone flagged is TP + FP; how many of them are really sick?",
    ],
)

ex7 = ChoiceExercise(
    "ex7",
    title="Whose convention?",
    variable="answer_7",
    options={
        "a": (
            "the recall of cat, as he says",
            "with predictions in the rows, the *cat* row holds everything *predicted* cat; "
            "dividing by it answers *of what I called cat, how much was cat?*, which is not "
            "recall.",
        ),
        "b": (
            "the precision of cat",
            "the row holds every sample predicted as cat, so diagonal / row sum is the share of "
            "cat predictions that were right: precision. Which axis is which is a convention; "
            "check it before reading recall or precision off a matrix.",
        ),
        "c": (
            "the accuracy of the classifier",
            "accuracy uses the whole diagonal over the whole matrix, not one row.",
        ),
        "d": (
            "the specificity of cat",
            "specificity counts the true non-cats that were not called cat; one row's diagonal "
            "entry is a count of correct cat predictions instead.",
        ),
    },
    answer="b",
    hints=[
        "Write down what the *cat* row holds when rows are predictions.",
        "Recall divides by everything that *is* cat; precision by everything *called* cat.",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_confusion_matrix.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_outcomes(y_true, y_pred, pos_label):
    actual, predicted = y_true == pos_label, y_pred == pos_label
    return (
        int(np.sum(actual & predicted)),
        int(np.sum(~actual & predicted)),
        int(np.sum(actual & ~predicted)),
        int(np.sum(~actual & ~predicted)),
    )


def _wrong_ex1_fp_fn_swapped(y_true, y_pred, pos_label=1):
    tp, fp, fn, tn = _wrong_outcomes(y_true, y_pred, pos_label)
    return tp, fn, fp, tn


def _wrong_ex1_sklearn_ravel_order(y_true, y_pred, pos_label=1):
    tp, fp, fn, tn = _wrong_outcomes(y_true, y_pred, pos_label)
    return tn, fp, fn, tp


def _wrong_ex1_pos_label_ignored(y_true, y_pred, pos_label=1):
    return _wrong_outcomes(y_true, y_pred, 1)


def _wrong_ex2_transposed(y_true, y_pred, n_classes):
    return np.bincount(n_classes * y_pred + y_true, minlength=n_classes**2).reshape(
        n_classes, n_classes
    )


def _wrong_ex2_no_minlength(y_true, y_pred, n_classes):
    return np.bincount(n_classes * y_true + y_pred).reshape(n_classes, n_classes)


def _wrong_ex2_size_from_the_data(y_true, y_pred, n_classes):
    k = int(max(y_true.max(), y_pred.max())) + 1
    return np.bincount(k * y_true + y_pred, minlength=k * k).reshape(k, k)


def _wrong_pr(cm, zero=0.0):
    cm = np.asarray(cm, dtype=float)
    tp, predicted, actual = np.diag(cm), cm.sum(axis=0), cm.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p, r = tp / predicted, tp / actual
    return np.where(predicted > 0, p, zero), np.where(actual > 0, r, zero)


def _wrong_ex3_axes_swapped(cm):
    p, r = _wrong_pr(cm)
    return r, p


def _wrong_ex3_forgets_zero_division(cm):
    cm = np.asarray(cm, dtype=float)
    return np.diag(cm) / cm.sum(axis=0), np.diag(cm) / cm.sum(axis=1)


def _wrong_ex3_divides_by_total(cm):
    cm = np.asarray(cm, dtype=float)
    total = cm.sum() or 1.0
    return np.diag(cm) / total, np.diag(cm) / total


def _wrong_ex4_summed_tn(cm):
    """The popular bug: one-vs-rest TP + TN summed over classes, over C * N."""
    cm = np.asarray(cm)
    c, n = cm.shape[0], cm.sum()
    tp = np.diag(cm)
    fp, fn = cm.sum(axis=0) - tp, cm.sum(axis=1) - tp
    return float((tp + (n - tp - fp - fn)).sum() / (c * n))


def _wrong_ex4_mean_recall(cm):
    return float(_wrong_pr(cm)[1].mean())


def _wrong_ex4_trace_over_classes(cm):
    cm = np.asarray(cm)
    return float(np.trace(cm) / cm.shape[0])


ex1.misconceptions = [
    Misconception(
        "fp_fn_swapped",
        "fp and fn swapped (a false positive is predicted positive, actually negative)",
        _wrong_ex1_fp_fn_swapped,
    ),
    Misconception(
        "ravel_order",
        "scikit-learn's `ravel()` order (tn, fp, fn, tp) instead of (tp, fp, fn, tn)",
        _wrong_ex1_sklearn_ravel_order,
    ),
    Misconception(
        "pos_label_ignored",
        "`pos_label` ignored: label 1 is always taken as the positive class",
        _wrong_ex1_pos_label_ignored,
    ),
]
ex2.misconceptions = [
    Misconception(
        "transposed",
        "the transposed matrix: rows must be the true class, columns the prediction",
        _wrong_ex2_transposed,
    ),
    Misconception(
        "size_from_data",
        "the size taken from the labels that occur, not from `n_classes`",
        _wrong_ex2_size_from_the_data,
    ),
    Misconception(
        "no_minlength",
        "`np.bincount` without `minlength=n_classes**2`, so missing pairs at the end are cut off",
        _wrong_ex2_no_minlength,
    ),
]
ex3.misconceptions = [
    Misconception(
        "axes_swapped",
        "precision and recall swapped (precision divides by a column sum, recall by a row sum)",
        _wrong_ex3_axes_swapped,
    ),
    Misconception(
        "nan_for_zero_division",
        "a NaN for a class never predicted or never present, instead of `zero_division`",
        _wrong_ex3_forgets_zero_division,
    ),
    Misconception(
        "divides_by_total",
        "dividing by the total count instead of by the row or column sums",
        _wrong_ex3_divides_by_total,
    ),
]
ex4.misconceptions = [
    Misconception(
        "summed_tn",
        "one-vs-rest (TP + TN) summed over classes and divided by C·N",
        _wrong_ex4_summed_tn,
    ),
    Misconception(
        "mean_recall",
        "the mean of the per-class recalls (balanced accuracy), not accuracy",
        _wrong_ex4_mean_recall,
    ),
    Misconception(
        "trace_over_classes",
        "the trace divided by the number of classes instead of the number of samples",
        _wrong_ex4_trace_over_classes,
    ),
]
