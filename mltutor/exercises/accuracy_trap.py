"""Exercises for chapter 2, *The accuracy trap*.

=====  =========================================================================================
ex1    the majority-class baseline from a list of labels              ``majority_baseline``
ex2    balanced accuracy (and its adjusted form) from a matrix        ``balanced_accuracy``
ex3    support-weighted recall, which turns out to be accuracy        ``weighted_recall``
ex4    which metric exposes the shortcut? accuracy vs balanced acc.   two numbers
ex5    judgement: the fraud queue (a letter)
ex6    judgement: balanced accuracy of the do-nothing model (a number)
ex7    MCC and Cohen's kappa from a binary confusion matrix           ``mcc_and_kappa``
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (the chapter's own
``mltutor.metrics`` is deliberately not used, so an exercise cannot inherit its bugs).  They follow
scikit-learn where it has an opinion: ``balanced_accuracy`` leaves out classes with no true
samples, as ``sklearn.metrics.balanced_accuracy_score`` does (it warns "y_pred contains classes not
in y_true"), and ``weighted_recall`` weights each class by its true count, as
``recall_score(average="weighted")`` does.  ``mcc_and_kappa`` returns an MCC of 0.0 when a row or
column of the matrix is empty, as ``sklearn.metrics.matthews_corrcoef`` does.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, ValueExercise, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def majority_baseline(y_true):
    """Accuracy of always predicting the most frequent label in `y_true`."""
    _, counts = np.unique(np.asarray(y_true), return_counts=True)
    return float(counts.max() / counts.sum())


def balanced_accuracy(cm, adjusted=False):
    """Mean recall over the classes that occur (rows of `cm` with a non-zero sum).

    With ``adjusted=True`` the score is rescaled so that chance level (1 / K for K classes that
    occur) maps to 0 and a perfect score to 1.
    """
    cm = np.asarray(cm, dtype=float)
    support = cm.sum(axis=1)  # true samples of each class
    occurs = support > 0  # classes with no true samples are left out
    recall = np.diag(cm)[occurs] / support[occurs]
    score = recall.mean()
    if adjusted:
        chance = 1 / occurs.sum()
        score = (score - chance) / (1 - chance)
    return float(score)


def weighted_recall(y_true, y_pred):
    """Per-class recall, averaged with weights proportional to each class's true count."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    classes, true_index = np.unique(y_true, return_inverse=True)
    support = np.bincount(true_index)  # n_k
    hits = np.bincount(true_index, weights=(y_pred == y_true))  # TP_k
    recall = hits / support
    weights = support / support.sum()  # n_k / N
    return float(np.sum(weights * recall))


def mcc_and_kappa(cm):
    """Matthews correlation and Cohen's kappa of a 2 x 2 confusion matrix [[TN, FP], [FN, TP]]."""
    cm = np.asarray(cm, dtype=float)
    (tn, fp), (fn, tp) = cm
    denominator = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    mcc = (tp * tn - fp * fn) / denominator if denominator > 0 else 0.0  # 0/0: scikit-learn's 0
    shares = cm / cm.sum()
    p_observed = np.trace(shares)
    p_chance = shares.sum(axis=1) @ shares.sum(axis=0)  # true share x predicted share, per class
    return float(mcc), float((p_observed - p_chance) / (1 - p_chance))


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=int):
    return np.array(values, dtype=dtype)


def _labels_from_cm(cm, seed):
    """Shuffled (y_true, y_pred) with the given confusion matrix (classes 0 .. K-1)."""
    cm = np.asarray(cm)
    k = cm.shape[0]
    pairs = np.repeat(np.arange(k * k), cm.ravel())
    pairs = np.random.default_rng(seed).permutation(pairs)
    return pairs // k, pairs % k


#: Three classes with supports 150, 100 and 50 — accuracy 0.75, macro recall 0.733.
CM_THREE = _a([[120, 20, 10], [15, 70, 15], [5, 10, 35]])
_CM_BINARY = _a([[50, 10], [5, 35]])
_CM_CLASS_1_MISSING = _a([[8, 2, 1], [0, 0, 0], [1, 3, 5]])

#: ex4 — 1,000 card payments (940 legitimate, 40 stolen card, 20 account takeover).
#: Model A always answers "legitimate"; model B is a real model.
CM_ALWAYS_LEGITIMATE = _a([[940, 0, 0], [40, 0, 0], [20, 0, 0]])
CM_MODEL = _a([[880, 40, 20], [8, 30, 2], [4, 2, 14]])

_rng = np.random.default_rng(2)
_PETS = _rng.permutation(_a(["dog"] * 270 + ["cat"] * 30, str))

ex1 = Exercise(
    "ex1",
    title="The majority-class baseline",
    reference=majority_baseline,
    cases=[
        case(_a([0, 0, 1, 0, 0, 1, 0, 0]), note="two classes"),
        case(_PETS, note="270 dogs and 30 cats"),
        case(_a([2, 2, 1, 2, 0, 2, 1]), note="the largest class is not class 0"),
        case(_a([-1, 7, 7, -1, -1, 1000]), note="negative and large labels"),
        case(_a([3, 3, 5, 5, 9]), note="two classes tie for the largest"),
        case(_a([4, 4, 4]), note="one class only"),
        case(_a(["b", "a", "c", "c", "a", "c", "d"], str), note="four string labels"),
    ],
    hints=[
        "A model that always predicts one class is right exactly on the samples of that class. "
        "Which class should it pick?",
        "`np.unique(y_true, return_counts=True)` returns the classes and how often each occurs. "
        "It works for strings and negative numbers, where `np.bincount` does not.",
        "The answer is a fraction: the largest count divided by the number of samples.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="Balanced accuracy from a confusion matrix",
    reference=balanced_accuracy,
    cases=[
        case(_CM_BINARY, note="two classes"),
        case(CM_THREE, note="three classes, supports 150, 100 and 50"),
        case(_a([[40, 0, 10], [5, 0, 15], [2, 0, 28]]), note="class 1 is never predicted"),
        case(_CM_CLASS_1_MISSING, note="class 1 never occurs but is predicted"),
        case(_a([[6, 0, 2], [0, 0, 0], [1, 0, 9]]), note="class 1 occurs nowhere"),
        case(CM_ALWAYS_LEGITIMATE, note="always the majority class"),
        case(_CM_BINARY, adjusted=True, note="adjusted, two classes"),
        case(_CM_CLASS_1_MISSING, adjusted=True, note="adjusted, class 1 never occurs"),
        case(CM_ALWAYS_LEGITIMATE, adjusted=True, note="adjusted, always the majority class"),
        case(_a([[1, 9], [8, 2]]), adjusted=True, note="adjusted, worse than chance"),
    ],
    hints=[
        "Recall of class k is the diagonal entry over its row sum: `np.diag(cm) / cm.sum(axis=1)`. "
        "Balanced accuracy is the plain (unweighted) mean of these recalls.",
        "A class whose row is all zeros has no true samples, so its recall is 0/0. scikit-learn "
        "leaves such classes out of the mean (with a warning); do the same. A class that is "
        "never *predicted* (a zero column) does occur, and its recall of 0 counts.",
        "Adjusted: with K classes left in the mean, chance level is 1/K. Rescale with "
        "`(score - 1/K) / (1 - 1/K)`, so that chance gives 0 and a perfect model 1.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="Weighted recall",
    reference=weighted_recall,
    cases=[
        case(_a([0, 1, 2, 2, 1, 0, 2, 2]), _a([0, 2, 2, 2, 1, 1, 0, 2]), note="three classes"),
        case(
            _a(["cat", "dog", "dog", "dog", "cat"], str),
            _a(["dog", "dog", "dog", "cat", "cat"], str),
            note="string labels",
        ),
        case(_a([0, 0, 1, 1, 1, 2]), _a([0, 0, 0, 1, 0, 0]), note="class 2 is never predicted"),
        case(
            _a([0, 1, 1, 0, 1]), _a([0, 2, 1, 2, 1]), note="class 2 is predicted but never occurs"
        ),
        case(*_labels_from_cm(CM_THREE, seed=3), note="300 samples, supports 150, 100 and 50"),
        case(_a([5, 3, 5, 1]), _a([5, 3, 5, 1]), note="every prediction right"),
        case(_a([0, 1, 2, 0]), _a([1, 2, 0, 2]), note="every prediction wrong"),
        case(_a([7, 7, 7]), _a([7, 3, 7]), note="one true class only"),
    ],
    hints=[
        "First the recall of every class k that occurs in `y_true`: among the samples whose true "
        "label is k, the share predicted as k.",
        "The weight of class k is its share of the true labels, n_k / N. Classes that only appear "
        "in `y_pred` have weight 0. `np.unique(y_true, return_inverse=True)` and `np.bincount` "
        "(with its `weights=` argument) do all classes at once.",
        "Write the weighted sum out: (n_k / N) × (TP_k / n_k). What is left after n_k cancels?",
    ],
)


def _changes() -> tuple[float, float]:
    def acc(cm):
        return np.trace(cm) / cm.sum()

    return (
        float(acc(CM_MODEL) - acc(CM_ALWAYS_LEGITIMATE)),
        float(balanced_accuracy(CM_MODEL) - balanced_accuracy(CM_ALWAYS_LEGITIMATE)),
    )


ex4 = ValueExercise(
    "ex4",
    variable="changes",
    title="Which metric exposes the shortcut?",
    answer=_changes(),
    outputs=("accuracy_change", "balanced_accuracy_change"),
    atol=5e-4,
    hints=[
        "Compute each metric for model A and for model B, then subtract: B minus A. A change can "
        "be negative.",
        "Accuracy is the trace over the total. Balanced accuracy is the mean of the three per-class "
        "recalls (diagonal over row sums); model A's recall is 1 for one class and 0 for the other two.",
    ],
    solution="""
        cm_a = np.array([[940, 0, 0], [40, 0, 0], [20, 0, 0]])      # always "legitimate"
        cm_b = np.array([[880, 40, 20], [8, 30, 2], [4, 2, 14]])     # a real model

        def accuracy(cm):
            return np.trace(cm) / cm.sum()

        def mean_recall(cm):
            return np.mean(np.diag(cm) / cm.sum(axis=1))

        changes = (accuracy(cm_b) - accuracy(cm_a), mean_recall(cm_b) - mean_recall(cm_a))
        """,
)


ex7 = Exercise(
    "ex7",
    title="MCC and Cohen's kappa from a confusion matrix",
    reference=mcc_and_kappa,
    outputs=("mcc", "kappa"),
    cases=[
        case(_a([[2940, 0], [59, 1]]), note="the chapter's default model: 1 of 60 defects found"),
        case(_a([[2940, 0], [60, 0]]), note="always 'good': a constant prediction"),
        case(_a([[45, 5], [5, 45]]), note="90 % agreement, 50 % positive"),
        case(_a([[90, 5], [5, 0]]), note="90 % agreement, 5 % positive"),
        case(_CM_BINARY, note="more false alarms than misses"),
        case(_a([[30, 0], [0, 10]]), note="every prediction right"),
        case(_a([[0, 7], [3, 0]]), note="every prediction wrong"),
        case(_a([[6, 4], [0, 0]]), note="no positive in the truth"),
    ],
    hints=[
        "Unpack the matrix first: `(tn, fp), (fn, tp) = cm`. MCC is "
        "(TP·TN − FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)).",
        "When one of the four totals is 0 (an empty row or column) MCC is 0/0; scikit-learn "
        "returns 0.0 there, and so should you.",
        "Kappa is (p_o − p_e) / (1 − p_e): p_o is the share of the diagonal, p_e the sum over the "
        "two classes of (true share of the class) × (predicted share of the class).",
    ],
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex5 = ChoiceExercise(
    "ex5",
    title="The fraud queue",
    variable="answer_5",
    options={
        "a": (
            "A: its accuracy is higher",
            "99.5 % is exactly the share of legitimate transactions, what a model that never "
            "flags anything gets: A catches no fraud at all. Accuracy rewards it for the easy "
            "majority.",
        ),
        "b": (
            "B: it catches 800 of the 1,000 frauds, and its 6,500 flags fit in the queue",
            "B finds 80 % of the fraud; its lower accuracy comes from 5,700 false alarms, which "
            "the review queue can absorb. The decision rests on recall and on the number of "
            "flags, not on accuracy.",
        ),
        "c": (
            "neither: 97.05 % and 99.5 % are too close to tell apart",
            "the two models are not close at all: one finds 800 frauds, the other none. Accuracy"
            " hides the difference because fraud is rare.",
        ),
        "d": (
            "A, after tuning it to an accuracy above 99.5 %",
            "an accuracy above 99.5 % only means fewer than 1,000 errors in all, which is "
            "possible with most of the fraud still missed; tuning for accuracy does not aim at "
            "fraud.",
        ),
    },
    answer="b",
    hints=[
        "What accuracy does a model get that flags nothing?",
        "Count what each model catches, and whether its flags fit in the team's 7,000 a day.",
    ],
)

ex6 = ValueExercise(
    "ex6",
    kind="judgement",
    title="Balanced accuracy of the do-nothing model",
    variable="balanced_6",
    answer=0.5,
    rtol=0.0,
    atol=0.001,
    wrong_answers=[
        (
            0.995,
            "that is its plain accuracy: balanced accuracy averages the recall of the two classes, "
            "each with the same weight.",
        ),
        (0.0, "0 is its recall on fraud only; the legitimate class counts too, with recall 1."),
        (1.0, "1 is its recall on legitimate transactions only; fraud counts too, with recall 0."),
    ],
    hints=[
        "Its recall on fraud is 0 / 1,000 and on legitimate transactions 199,000 / 199,000.",
        "Balanced accuracy is the plain mean of those two recalls.",
    ],
    solution="balanced_6 = (0 / 1_000 + 199_000 / 199_000) / 2  # recall of fraud, of legitimate",
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_accuracy_trap.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_counts(y):
    return np.unique(np.asarray(y), return_counts=True)[1]


def _wrong_ex1_uniform_guess(y_true):
    return 1 / len(_wrong_counts(y_true))


def _wrong_ex1_smallest_class(y_true):
    c = _wrong_counts(y_true)
    return float(c.min() / c.sum())


def _wrong_ex1_error_rate(y_true):
    c = _wrong_counts(y_true)
    return float(1 - c.max() / c.sum())


def _wrong_recall_rows(cm):
    cm = np.asarray(cm, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.diag(cm) / cm.sum(axis=1)


def _wrong_adjust(score, k, adjusted):
    if not adjusted:
        return float(score)
    return float((score - 1 / k) / (1 - 1 / k))


def _wrong_ex2_weighted_instead_of_macro(cm, adjusted=False):
    """Macro and weighted swapped: support-weighted recall, which is accuracy."""
    cm = np.asarray(cm, dtype=float)
    return _wrong_adjust(np.trace(cm) / cm.sum(), int((cm.sum(axis=1) > 0).sum()), adjusted)


def _wrong_ex2_predicted_counts(cm, adjusted=False):
    """Divides by the column sums (predicted counts): mean precision, not mean recall."""
    cm = np.asarray(cm, dtype=float)
    col = cm.sum(axis=0)
    p = np.diag(cm)[col > 0] / col[col > 0]
    return _wrong_adjust(p.mean(), len(p), adjusted)


def _wrong_ex2_ignores_adjusted(cm, adjusted=False):
    r = _wrong_recall_rows(cm)
    return float(np.nanmean(r))


def _wrong_per_class(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    labels = np.union1d(y_true, y_pred)
    support = np.array([np.sum(y_true == k) for k in labels], dtype=float)
    predicted = np.array([np.sum(y_pred == k) for k in labels], dtype=float)
    tp = np.array([np.sum((y_true == k) & (y_pred == k)) for k in labels], dtype=float)
    return support, predicted, tp


def _wrong_ex3_macro_recall(y_true, y_pred):
    support, _, tp = _wrong_per_class(y_true, y_pred)
    occurs = support > 0
    return float(np.mean(tp[occurs] / support[occurs]))


def _wrong_ex3_weights_from_predictions(y_true, y_pred):
    support, predicted, tp = _wrong_per_class(y_true, y_pred)
    occurs = support > 0
    return float(np.sum(predicted[occurs] / predicted.sum() * tp[occurs] / support[occurs]))


def _wrong_ex3_weighted_precision(y_true, y_pred):
    support, predicted, tp = _wrong_per_class(y_true, y_pred)
    precision = np.divide(tp, predicted, out=np.zeros_like(tp), where=predicted > 0)
    return float(np.sum(support / support.sum() * precision))


ex1.misconceptions = [
    Misconception(
        "smallest_class",
        "the share of the smallest class, not the largest",
        _wrong_ex1_smallest_class,
    ),
    Misconception(
        "error_rate", "the error rate of the baseline (1 − its accuracy)", _wrong_ex1_error_rate
    ),
    Misconception(
        "uniform_guess",
        "1 / number of classes: a uniform guess, not the majority class",
        _wrong_ex1_uniform_guess,
    ),
]
ex2.misconceptions = [
    Misconception(
        "weighted_not_macro",
        "support-weighted recall (which is plain accuracy) instead of the macro mean",
        _wrong_ex2_weighted_instead_of_macro,
    ),
    Misconception(
        "column_sums",
        "dividing by column sums (or a transposed matrix): the mean precision, not the mean recall",
        _wrong_ex2_predicted_counts,
    ),
    Misconception(
        "ignores_adjusted",
        "`adjusted=True` ignored: chance is not subtracted and rescaled",
        _wrong_ex2_ignores_adjusted,
    ),
]
ex3.misconceptions = [
    Misconception(
        "macro_recall",
        "the plain (macro) mean of recalls, without the support weights",
        _wrong_ex3_macro_recall,
    ),
    Misconception(
        "weights_from_predictions",
        "weights from the predicted counts instead of the true counts (support)",
        _wrong_ex3_weights_from_predictions,
    ),
    Misconception(
        "weighted_precision",
        "support-weighted precision instead of recall",
        _wrong_ex3_weighted_precision,
    ),
]


def _wrong_cells(cm):
    (tn, fp), (fn, tp) = np.asarray(cm, dtype=float).tolist()  # Python floats: 0/0 raises
    return tn, fp, fn, tp


def _wrong_ex7_kappa_without_chance(cm):
    tn, fp, fn, tp = _wrong_cells(cm)
    return mcc_and_kappa(cm)[0], (tn + tp) / (tn + fp + fn + tp)


def _wrong_ex7_chance_from_truth_only(cm):
    tn, fp, fn, tp = _wrong_cells(cm)
    n = tn + fp + fn + tp
    p_chance = ((tn + fp) / n) ** 2 + ((fn + tp) / n) ** 2
    return mcc_and_kappa(cm)[0], ((tn + tp) / n - p_chance) / (1 - p_chance)


def _wrong_ex7_informedness(cm):
    tn, fp, fn, tp = _wrong_cells(cm)
    return tp / (tp + fn) + tn / (tn + fp) - 1, mcc_and_kappa(cm)[1]  # raises on an empty row


ex7.misconceptions = [
    Misconception(
        "kappa_without_chance",
        "kappa without the correction for chance: the plain agreement (accuracy)",
        _wrong_ex7_kappa_without_chance,
    ),
    Misconception(
        "chance_from_truth_only",
        "chance agreement from the true class shares alone "
        "(squared), instead of true share × predicted share",
        _wrong_ex7_chance_from_truth_only,
    ),
    Misconception(
        "informedness",
        "recall + specificity − 1 (informedness, adjusted balanced accuracy) instead of MCC",
        _wrong_ex7_informedness,
    ),
]
