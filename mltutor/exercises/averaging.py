"""Exercises for chapter 5, *Macro, micro, weighted and samples averaging*.

=====  =========================================================================================
ex1    macro, micro and weighted F1 from a confusion matrix          ``averaged_f1``
ex2    samples-averaged F1 from indicator matrices                   ``samples_f1``
ex3    the Hamming loss by hand                                      ``hamming_loss``
ex4    which classes enter the macro mean: ``labels=``               ``macro_f1_over``
ex5    the 101-class macro mean of the tutorial                      a number
ex6    judgement: does the model serve the rare classes? (a letter)
ex7    judgement: tags for a shop's products (a letter)
=====  =========================================================================================

The references are plain NumPy (``mltutor.metrics`` is deliberately not used, so an exercise
cannot inherit its bugs); ``tests/test_exercises_averaging.py`` checks them against scikit-learn.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, ValueExercise, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def averaged_f1(cm):
    """Return (macro, micro, weighted) F1 of a confusion matrix (rows = truth).

    A class with an all-zero row and column never occurred: it is left out, as scikit-learn
    leaves out labels it never sees.
    """
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    fp = cm.sum(axis=0) - tp
    fn = cm.sum(axis=1) - tp
    seen = (tp + fp + fn) > 0  # classes that occur in the truth or the predictions
    tp, fp, fn = tp[seen], fp[seen], fn[seen]
    f1 = 2 * tp / (2 * tp + fp + fn)  # per class; no 0/0 left after dropping unseen classes
    support = tp + fn  # row sums: how often each class really occurs
    macro = float(f1.mean())
    micro = float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum()))
    weighted = float(np.sum(support * f1) / support.sum())
    return macro, micro, weighted


def samples_f1(Y_true, Y_pred):
    """Mean over samples of the F1 between the true and the predicted label sets.

    A sample with no true and no predicted label scores 1.0 (scikit-learn's zero_division=1.0).
    """
    Y_true = np.asarray(Y_true, dtype=bool)
    Y_pred = np.asarray(Y_pred, dtype=bool)
    both = (Y_true & Y_pred).sum(axis=1)
    sizes = Y_true.sum(axis=1) + Y_pred.sum(axis=1)
    per_sample = np.divide(2 * both, sizes, out=np.ones(len(sizes)), where=sizes > 0)
    return float(per_sample.mean())


def hamming_loss(Y_true, Y_pred):
    """Fraction of wrong label decisions (entries that differ); 1-D labels: the error rate."""
    return float(np.mean(np.asarray(Y_true) != np.asarray(Y_pred)))


def macro_f1_over(y_true, y_pred, labels):
    """Macro F1 over exactly `labels`: a listed class that never occurs scores 0, an unlisted
    class is ignored (scikit-learn's f1_score(..., labels=labels, average="macro",
    zero_division=0))."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    scores = []
    for k in labels:
        tp = np.sum((y_true == k) & (y_pred == k))
        fp = np.sum((y_true != k) & (y_pred == k))
        fn = np.sum((y_true == k) & (y_pred != k))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn > 0 else 0.0)
    return float(np.mean(scores))


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=int):
    return np.array(values, dtype=dtype)


_CM_STORY = _a([[120, 20, 10], [15, 70, 15], [5, 10, 35]])

ex1 = Exercise(
    "ex1",
    title="Macro, micro and weighted F1 from a confusion matrix",
    reference=averaged_f1,
    outputs=("macro", "micro", "weighted"),
    cases=[
        case(_CM_STORY, note="the chapter's three classes, supports 150/100/50"),
        case(_a([[50, 0, 0], [10, 0, 0], [5, 0, 5]]), note="class 1 is never predicted"),
        case(
            _a([[8, 2, 0, 0], [1, 6, 0, 0], [0, 0, 0, 0], [2, 1, 0, 4]]),
            note="class 2 never occurs at all",
        ),
        case(_a([[2, 3], [1, 94]]), note="a rare class next to a large one"),
        case(_a([[5, 0, 2], [0, 0, 0], [0, 3, 9]]), note="class 1 is predicted but never true"),
        case(_a([[0, 4], [6, 0]]), note="every prediction wrong"),
        case(_a([[40, 10], [10, 40]]), note="symmetric errors: all three averages agree"),
    ],
    hints=[
        "Start from the per-class counts: `tp = np.diag(cm)`, `fp` = column sums minus `tp`, "
        "`fn` = row sums minus `tp`. Then `f1 = 2 * tp / (2 * tp + fp + fn)` per class.",
        "Macro is the plain mean of the per-class F1, weighted uses the row sums (supports) as "
        "weights, micro computes one F1 from `tp.sum()`, `fp.sum()` and `fn.sum()`. For single-"
        "label data micro F1 is the accuracy.",
        "A class whose row and column are all zero has `tp + fp + fn == 0`: without `labels=`, "
        "scikit-learn does not see that label, so it is not part of the macro mean at all "
        "(neither 0 nor 1). Select "
        "the classes with `tp + fp + fn > 0` first.",
    ],
)

_Y3 = _a([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
_P3 = _a([[1, 0, 0], [0, 1, 1], [1, 1, 0], [1, 0, 0]])

ex2 = Exercise(
    "ex2",
    title="Samples-averaged F1 from indicator matrices",
    reference=samples_f1,
    cases=[
        case(_Y3, _P3, note="four samples, three labels"),
        case(
            _a([[1, 0], [0, 0], [0, 1]]),
            _a([[1, 0], [0, 0], [1, 1]]),
            note="a sample with no true and no predicted label",
        ),
        case(
            _a([[1, 1, 0, 0], [0, 0, 0, 1]]),
            _a([[0, 0, 0, 0], [0, 0, 0, 0]]),
            note="nothing predicted at all",
        ),
        case(
            _a([[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 1]]),
            _a([[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 0, 1]]),
            note="macro over labels would differ from the mean over samples",
        ),
        case(_a([[1, 0, 1, 1]]), _a([[1, 1, 0, 1]]), note="a single sample"),
        case(_a([[0, 1], [1, 0]]), _a([[1, 0], [0, 1]]), note="every label wrong"),
        case(_a([[1, 1], [0, 1]], bool), _a([[1, 0], [0, 1]], bool), note="boolean matrices"),
    ],
    hints=[
        "Work row by row, all rows at once: `(Y_true & Y_pred).sum(axis=1)` counts the labels a "
        "sample got right, `Y_true.sum(axis=1)` and `Y_pred.sum(axis=1)` the sizes of its two sets.",
        "Per sample, F1 = 2 |true ∩ predicted| / (|true| + |predicted|); then average over the "
        "samples (axis 0), not over the labels.",
        "When a sample has no true and no predicted label the fraction is 0/0; this exercise "
        "scores such a sample 1.0. `np.divide(..., out=np.ones(n), where=sizes > 0)` does it "
        "without a warning.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="The Hamming loss by hand",
    reference=hamming_loss,
    cases=[
        case(_Y3, _P3, note="four samples, three labels"),
        case(_a([[1, 0, 0, 0, 1]]), _a([[1, 0, 0, 0, 0]]), note="one wrong label out of five"),
        case(
            _a([[0, 0], [0, 0], [0, 0]]), _a([[0, 0], [0, 0], [0, 0]]), note="all empty, all right"
        ),
        case(_a([[1, 1, 1], [0, 0, 0]]), _a([[0, 0, 0], [1, 1, 1]]), note="every decision wrong"),
        case(
            _a([[1, 0], [1, 1], [0, 1], [0, 0]]),
            _a([[0, 1], [1, 1], [0, 1], [0, 0]]),
            note="a false positive and a false negative in the same row",
        ),
        case(
            _a([0, 2, 1, 2, 2]), _a([0, 1, 1, 2, 0]), note="multiclass 1-D labels: the error rate"
        ),
    ],
    hints=[
        "Each entry of the indicator matrix is one yes/no decision. `Y_true != Y_pred` marks the "
        "wrong ones.",
        "Divide by the number of *decisions*, samples times labels, not by the number of samples. "
        "`np.mean` over the whole boolean matrix does exactly that.",
        "The Hamming loss is milder than subset accuracy: one wrong label out of five costs 0.2, "
        "not a whole sample.",
    ],
)

ex4 = Exercise(
    "ex4",
    title="Which classes enter the macro mean?",
    reference=macro_f1_over,
    cases=[
        case(
            _a([0, 1, 2, 2, 1, 0]),
            _a([0, 2, 2, 2, 1, 0]),
            labels=[0, 1, 2],
            note="labels lists exactly the classes present",
        ),
        case(
            _a([0, 1, 2, 2, 1, 0]),
            _a([0, 2, 2, 2, 1, 0]),
            labels=[0, 1, 2, 3, 4],
            note="two listed classes never occur",
        ),
        case(
            _a([0, 1, 2, 2, 1, 0]),
            _a([0, 2, 2, 2, 1, 0]),
            labels=[2, 1],
            note="class 0 is present but not listed",
        ),
        case(
            _a(["cat", "dog", "dog", "ant"], str),
            _a(["cat", "cat", "dog", "ant"], str),
            labels=["ant", "cat", "dog", "eel"],
            note="string labels with an absent one",
        ),
        case(
            _a([0, 0, 1, 1]),
            _a([0, 3, 1, 1]),
            labels=[0, 1],
            note="class 3 is predicted but not listed",
        ),
        case(
            _a([5, 5, 5]), _a([5, 5, 5]), labels=[5, 6], note="a perfect model and an absent class"
        ),
    ],
    hints=[
        "Loop over `labels`, not over the classes in the data: those are the classes of the mean, "
        "in that order, and nothing else.",
        "For each listed class count tp, fp and fn with boolean masks; a sample of an unlisted "
        "class can still be a false positive or false negative of a listed one.",
        "A listed class that never occurs has tp + fp + fn = 0; here it scores 0 (scikit-learn's "
        "`zero_division=0`), so it pulls the mean down.",
    ],
)

ex5 = ValueExercise(
    "ex5",
    variable="macro_101",
    title="The 101-class macro mean",
    answer=(99 * 0.88 + 0.31 + 0.42) / 101,
    atol=5e-5,
    hints=[
        "Macro F1 is the plain mean of the 101 per-class values.",
        "99 classes contribute 0.88 each, two contribute 0.31 and 0.42; divide the sum by 101.",
    ],
    solution="""
        # 99 classes at 0.88 and two at 0.31 and 0.42: the plain mean of 101 values.
        macro_101 = (99 * 0.88 + 0.31 + 0.42) / 101
        """,
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex6 = ChoiceExercise(
    "ex6",
    title="Does the model serve the rare classes?",
    variable="answer_6",
    options={
        "a": (
            "micro-averaged F1",
            "micro F1 pools the counts of all clips, so the big classes dominate it; for single-"
            "label data it equals accuracy, which a model can keep high while failing the tail.",
        ),
        "b": (
            "macro-averaged F1",
            "every class counts once, however few clips it has, so a neglected rare class pulls "
            "the mean down as much as a neglected big one.",
        ),
        "c": (
            "support-weighted F1",
            "weighting by support gives the ten largest classes half of the weight, so the rare "
            "classes barely move it.",
        ),
        "d": (
            "samples-averaged F1",
            "samples averaging is for multi-label data, a mean over samples of each sample's F1;"
            " on one-hot rows (one label per clip) it is just accuracy again, and on plain class"
            " labels scikit-learn refuses it.",
        ),
    },
    answer="b",
    hints=[
        "Which average gives each *class* the same weight, and which gives each *clip* the same "
        "weight?",
        "Micro and weighted averages are dominated by the classes with the most clips.",
    ],
)

ex7 = ChoiceExercise(
    "ex7",
    title="Tags for a shop's products",
    variable="answer_7",
    options={
        "a": (
            "subset accuracy (the share of products whose tag set is exactly right)",
            "subset accuracy gives no partial credit: a product with 9 of 10 tags right counts "
            "as wrong, as much as one with none.",
        ),
        "b": (
            "macro-averaged F1 over the 300 tags",
            "macro F1 is a mean over *tags*: it tells how well a typical tag is predicted, not "
            "how well a typical product's set is.",
        ),
        "c": (
            "samples-averaged F1",
            "it computes F1 between the true and the predicted set of each product and averages "
            "over products: per-product quality with partial credit.",
        ),
        "d": (
            "micro-averaged F1 over all product–tag pairs",
            "micro F1 pools all pairs, so products with many tags weigh more; it is not a mean "
            "over products.",
        ),
    },
    answer="c",
    hints=[
        "The question is *per product*: over what does each average take its mean?",
        "Which score gives credit for a partly right tag set?",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_averaging.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_counts(cm):
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    return tp, cm.sum(axis=0) - tp, cm.sum(axis=1) - tp


def _wrong_f1(tp, fp, fn):
    den = 2 * tp + fp + fn
    return np.divide(2 * tp, den, out=np.zeros_like(tp), where=den > 0)


def _wrong_ex1_micro_instead_of_macro(cm):
    tp, fp, fn = _wrong_counts(cm)
    micro = 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())
    seen = tp + fp + fn > 0
    f1 = _wrong_f1(tp, fp, fn)[seen]
    support = (tp + fn)[seen]
    return float(micro), float(micro), float(np.sum(support * f1) / support.sum())


def _wrong_ex1_absent_classes_count_as_zero(cm):
    tp, fp, fn = _wrong_counts(cm)
    f1 = _wrong_f1(tp, fp, fn)
    support = tp + fn
    return (
        float(f1.mean()),
        float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())),
        float(np.sum(support * f1) / support.sum()),
    )


def _wrong_ex1_f1_of_macro_precision_and_recall(cm):
    tp, fp, fn = _wrong_counts(cm)
    seen = tp + fp + fn > 0
    tp, fp, fn = tp[seen], fp[seen], fn[seen]
    p = np.divide(tp, tp + fp, out=np.zeros_like(tp), where=tp + fp > 0).mean()
    r = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=tp + fn > 0).mean()
    f1 = _wrong_f1(tp, fp, fn)
    support = tp + fn
    return (
        float(2 * p * r / (p + r)) if p + r else 0.0,
        float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())),
        float(np.sum(support * f1) / support.sum()),
    )


def _wrong_ex2_macro_instead_of_samples(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    both = (Y_true & Y_pred).sum(axis=0)
    sizes = Y_true.sum(axis=0) + Y_pred.sum(axis=0)
    return float(np.divide(2 * both, sizes, out=np.ones(len(sizes)), where=sizes > 0).mean())


def _wrong_ex2_micro_instead_of_samples(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    sizes = Y_true.sum() + Y_pred.sum()
    return float(2 * (Y_true & Y_pred).sum() / sizes) if sizes else 1.0


def _wrong_ex2_jaccard_instead_of_f1(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    both, union = (Y_true & Y_pred).sum(axis=1), (Y_true | Y_pred).sum(axis=1)
    return float(np.divide(both, union, out=np.ones(len(union)), where=union > 0).mean())


def _wrong_ex3_divides_by_samples_only(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true), np.asarray(Y_pred)
    return float(np.sum(Y_true != Y_pred) / Y_true.shape[0])


def _wrong_ex3_subset_zero_one_loss(Y_true, Y_pred):
    Y_true, Y_pred = np.atleast_2d(np.asarray(Y_true).T).T, np.atleast_2d(np.asarray(Y_pred).T).T
    return float(np.mean((Y_true != Y_pred).any(axis=1)))


def _wrong_ex3_accuracy_instead_of_loss(Y_true, Y_pred):
    return float(np.mean(np.asarray(Y_true) == np.asarray(Y_pred)))


def _wrong_class_f1(y_true, y_pred, k):
    tp = np.sum((y_true == k) & (y_pred == k))
    fp = np.sum((y_true != k) & (y_pred == k))
    fn = np.sum((y_true == k) & (y_pred != k))
    return (2 * tp / (2 * tp + fp + fn)) if tp + fp + fn else None


def _wrong_ex4_ignores_labels(y_true, y_pred, labels):
    present = np.union1d(y_true, y_pred)
    return float(np.mean([_wrong_class_f1(y_true, y_pred, k) for k in present]))


def _wrong_ex4_absent_listed_classes_skipped(y_true, y_pred, labels):
    scores = [_wrong_class_f1(y_true, y_pred, k) for k in labels]
    scores = [s for s in scores if s is not None]
    return float(np.mean(scores)) if scores else 0.0


def _wrong_ex4_micro_over_labels(y_true, y_pred, labels):
    tp = fp = fn = 0
    for k in labels:
        tp += np.sum((y_true == k) & (y_pred == k))
        fp += np.sum((y_true != k) & (y_pred == k))
        fn += np.sum((y_true == k) & (y_pred != k))
    return float(2 * tp / (2 * tp + fp + fn)) if tp + fp + fn else 0.0


ex1.misconceptions = [
    Misconception(
        "micro_for_macro",
        "micro-averaged F1 where the macro average was asked for",
        _wrong_ex1_micro_instead_of_macro,
    ),
    Misconception(
        "absent_classes_as_zero",
        "classes that never occur and are never predicted counted as F1 = 0, instead of "
        "being left out",
        _wrong_ex1_absent_classes_count_as_zero,
    ),
    Misconception(
        "f1_of_means",
        "the F1 of macro precision and macro recall, instead of the mean of the per-class F1s",
        _wrong_ex1_f1_of_macro_precision_and_recall,
    ),
]
ex2.misconceptions = [
    Misconception(
        "macro_for_samples",
        "a mean over labels (macro) instead of over samples",
        _wrong_ex2_macro_instead_of_samples,
    ),
    Misconception(
        "micro_for_samples",
        "one F1 from all counts pooled (micro) instead of a mean over samples",
        _wrong_ex2_micro_instead_of_samples,
    ),
    Misconception(
        "jaccard",
        "the Jaccard index |A∩B| / |A∪B| instead of F1 per sample",
        _wrong_ex2_jaccard_instead_of_f1,
    ),
]
ex3.misconceptions = [
    Misconception(
        "divides_by_samples",
        "dividing the wrong labels by the number of samples only, not samples × labels",
        _wrong_ex3_divides_by_samples_only,
    ),
    Misconception(
        "subset_loss",
        "the subset zero-one loss (a sample counts as wrong if any label is), not the Hamming loss",
        _wrong_ex3_subset_zero_one_loss,
    ),
    Misconception(
        "accuracy_not_loss",
        "the share of right labels (1 − Hamming loss)",
        _wrong_ex3_accuracy_instead_of_loss,
    ),
]
ex4.misconceptions = [
    Misconception(
        "ignores_labels",
        "`labels` ignored: the mean runs over the classes that occur",
        _wrong_ex4_ignores_labels,
    ),
    Misconception(
        "absent_listed_skipped",
        "listed classes that never occur left out, instead of scoring 0",
        _wrong_ex4_absent_listed_classes_skipped,
    ),
    Misconception(
        "micro_over_labels",
        "micro F1 over the listed classes instead of the macro mean",
        _wrong_ex4_micro_over_labels,
    ),
]
