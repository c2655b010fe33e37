"""Exercises for chapter 8, *Case study: UCF101 video actions*.

=====  =========================================================================================
ex1    find the leak: the groups that sit on both sides of a split      ``leaked_groups``
ex2    pick the checkpoint on validation, never on test                 ``pick_checkpoint``
ex3    per-class recall after a change: which classes got worse?        ``recall_drops``
ex4    read the most-confused pairs off a confusion matrix              ``confused_pairs``
ex5    judgement: which split to report? (a letter)
ex6    judgement: which checkpoint, which number? (a letter)
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (the chapter's own package is
deliberately not used, so an exercise cannot inherit its bugs).  Every case is small enough to
check by hand.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def leaked_groups(groups, train_idx, test_idx):
    """The sorted group ids that have clips in the training part *and* in the test part."""
    groups = np.asarray(groups)
    # Look the groups up through the indices: the split lists clips, the leak is about groups.
    return np.intersect1d(groups[train_idx], groups[test_idx])


def pick_checkpoint(val_macro_f1, test_accuracy):
    """Index of the epoch with the best validation macro-F1 (the earliest on ties).

    `test_accuracy` is deliberately not used: the test set is scored once, after the choice.
    """
    return int(np.argmax(np.asarray(val_macro_f1)))  # argmax returns the first maximum


def recall_drops(cm_before, cm_after, threshold):
    """Classes whose recall fell by more than `threshold` from `cm_before` to `cm_after`."""

    def recall(cm):
        cm = np.asarray(cm, dtype=float)
        support = cm.sum(axis=1)  # rows are the true classes
        return np.divide(np.diag(cm), support, out=np.zeros(len(cm)), where=support > 0)

    drop = recall(cm_before) - recall(cm_after)
    return np.flatnonzero(drop > threshold)


def confused_pairs(cm, k):
    """The `k` most-confused unordered class pairs, as rows (i, j, count) with i < j.

    count = cm[i, j] + cm[j, i]; pairs never confused are left out; ties go to the smaller
    (i, j) first.
    """
    cm = np.asarray(cm)
    both = cm + cm.T  # i -> j and j -> i together
    i, j = np.triu_indices(len(cm), k=1)  # each unordered pair once, diagonal excluded
    count = both[i, j]
    order = np.lexsort((j, i, -count))  # last key sorts first: count down, then i, then j
    order = order[count[order] > 0][:k]
    return np.stack([i[order], j[order], count[order]], axis=1)


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=int):
    return np.array(values, dtype=dtype)


ex1 = Exercise(
    "ex1",
    title="Find the leak",
    reference=leaked_groups,
    cases=[
        case(
            _a([1, 1, 2, 2, 3, 3]),
            _a([0, 2, 4]),
            _a([1, 3, 5]),
            note="a random split: every group leaks",
        ),
        case(_a([1, 1, 2, 2, 3, 3]), _a([0, 1, 2, 3]), _a([4, 5]), note="a clean group split"),
        case(
            _a([5, 5, 5, 2, 2, 9, 9]),
            _a([0, 1, 3, 5]),
            _a([2, 6, 4]),
            note="unsorted indices, groups not in order",
        ),
        case(
            _a([7, 7, 7, 7, 3, 3]),
            _a([0, 1, 4]),
            _a([2, 3, 5]),
            note="several clips of one group on both sides: report it once",
        ),
        case(
            _a([1201, 1201, 1202, 2503, 2503]),
            _a([0, 2, 3]),
            _a([1, 4]),
            note="group ids that encode class and group (class * 100 + group)",
        ),
        case(
            _a([4, 4, 1, 1, 2, 2]),
            _a([4, 5]),
            _a([0, 1, 2]),
            note="indices and group ids share values: compare groups, not indices",
        ),
        case(_a([0, 0, 1, 2, 2, 3]), _a([0, 2, 3]), _a([1, 4, 5]), note="group 0 exists"),
    ],
    hints=[
        "Turn clip indices into group ids first: `groups[train_idx]` and `groups[test_idx]`.",
        "A leaked group appears in both arrays. `np.intersect1d` returns the common values, "
        "sorted and without repeats.",
        "Compare *group ids*, not clip indices: clip 3 of the training list and clip 3 of the "
        "test list cannot both exist, but group 3 can.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="Pick the checkpoint on validation",
    reference=pick_checkpoint,
    cases=[
        case(
            _a([0.41, 0.52, 0.58, 0.57, 0.55], float),
            _a([0.40, 0.50, 0.55, 0.58, 0.56], float),
            note="validation and test disagree about the best epoch",
        ),
        case(
            _a([0.30, 0.45, 0.45, 0.44], float),
            _a([0.31, 0.40, 0.47, 0.42], float),
            note="a tie on validation: take the earliest",
        ),
        case(
            _a([0.62, 0.60, 0.58], float),
            _a([0.55, 0.59, 0.61], float),
            note="the first epoch is best on validation",
        ),
        case(
            _a([0.20, 0.35, 0.51, 0.66], float),
            _a([0.22, 0.70, 0.50, 0.64], float),
            note="the last epoch is best on validation",
        ),
        case(_a([0.5], float), _a([0.4], float), note="one epoch only"),
        case(
            _a([0.10, 0.12, 0.11, 0.12, 0.09, 0.12], float),
            _a([0.30, 0.10, 0.20, 0.50, 0.60, 0.40], float),
            note="three-way tie on validation",
        ),
    ],
    hints=[
        "The test scores are there to tempt you. The choice may use only the validation column.",
        "`np.argmax` returns the index of the *first* maximum, which is the earliest epoch on a "
        "tie.",
        "Return a plain integer index (0 is the first epoch), not the score.",
    ],
)

_CM_A = _a([[8, 2, 0], [1, 7, 2], [0, 3, 7]])
_CM_B = _a([[9, 1, 0], [4, 5, 1], [0, 1, 9]])

ex3 = Exercise(
    "ex3",
    title="Which classes got worse?",
    reference=recall_drops,
    cases=[
        case(_CM_A, _CM_B, 0.1, note="class 1 loses 0.2 of recall"),
        case(_CM_B, _CM_A, 0.1, note="the other way round: two classes drop"),
        case(
            _a([[5, 5], [2, 8]]),
            _a([[4, 6], [2, 8]]),
            0.1,
            note="a drop of exactly the threshold does not count",
        ),
        case(
            _a([[6, 4, 0], [0, 10, 0], [0, 0, 0]]),
            _a([[10, 0, 0], [2, 8, 0], [0, 0, 0]]),
            0.1,
            note="class 2 has no samples: recall 0 before and after",
        ),
        case(
            _a([[10, 0], [0, 20]]),
            _a([[2, 8], [1, 39]]),
            0.5,
            note="different totals before and after: compare rates, not counts",
        ),
        case(
            _a([[5, 0, 5], [0, 9, 1], [1, 0, 9]]),
            _a([[9, 0, 1], [5, 0, 5], [0, 1, 9]]),
            0.0,
            note="the precision of a class changes, its recall does not",
        ),
        case(_a([[9, 1], [1, 9]]), _a([[9, 1], [1, 9]]), 0.05, note="nothing changed"),
    ],
    hints=[
        "Recall of class *c* is the diagonal entry divided by the sum of row *c* (rows are the "
        "true classes). A row of zeros has recall 0.",
        "Compute both recall vectors, subtract *after* from *before*, and keep the classes whose "
        "drop is strictly greater than `threshold`.",
        "`np.flatnonzero(mask)` turns a boolean mask into the class indices.",
    ],
)

ex4 = Exercise(
    "ex4",
    title="The most-confused pairs",
    reference=confused_pairs,
    cases=[
        case(_a([[10, 3, 0], [1, 12, 2], [0, 5, 9]]), 2, note="3 classes, 2 pairs"),
        case(
            _a([[9, 0, 4], [0, 9, 0], [4, 0, 9]]),
            1,
            note="a symmetric confusion: count the pair once",
        ),
        case(
            _a([[50, 1, 1, 0], [1, 3, 0, 2], [1, 0, 40, 0], [0, 2, 0, 30]]),
            3,
            note="a large diagonal must not show up as a pair",
        ),
        case(
            _a([[5, 2, 0, 1], [0, 5, 1, 0], [2, 1, 5, 0], [1, 0, 0, 5]]),
            4,
            note="ties: the smaller (i, j) first",
        ),
        case(_a([[7, 0, 1], [0, 7, 0], [0, 0, 7]]), 3, note="only one pair was ever confused"),
        case(_a([[3, 0, 6], [4, 3, 0], [0, 5, 3]]), 2, note="one-way confusions: 0->2, 2->1, 1->0"),
        case(
            _a([[4, 1, 2], [2, 4, 0], [0, 1, 4]]), 3, note="1->0 and 0->1 add up to more than 0->2"
        ),
    ],
    hints=[
        "An unordered pair {i, j} was confused `cm[i, j] + cm[j, i]` times: `cm + cm.T` holds "
        "that for every cell.",
        "Visit each pair once, without the diagonal: `np.triu_indices(n, k=1)` gives the cells "
        "above the diagonal.",
        "Sort by count descending, then by i and by j ascending: `np.lexsort((j, i, -count))` (its "
        "*last* key sorts first). Drop zero counts, keep the first k, and stack the rows as "
        "`(i, j, count)`.",
    ],
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex5 = ChoiceExercise(
    "ex5",
    title="Which split to report?",
    variable="answer_5",
    options={
        "a": (
            "92 %, the random split, since it uses more varied test clips",
            "with a random split, clips of the same group land on both sides; the model can "
            "recognise the actor or the room instead of the action, so 92 % is inflated by "
            "leakage.",
        ),
        "b": (
            "75 %, the official group split",
            "new videos come from new groups, and only the group split tests that. Most of the "
            "17-point gap is what the leakage added (the two numbers also come from different "
            "test clips, so a little of it is chance).",
        ),
        "c": (
            "the mean of the two, 83.5 %",
            "averaging an inflated number with a sound one gives a number that is neither.",
        ),
        "d": (
            "neither can be trusted, since they differ",
            "they differ for a known reason, leakage between clips of a group; the group split "
            "is the one that removes it.",
        ),
    },
    answer="b",
    hints=[
        "What do clips of one group share, and on which side of a random split do they land?",
        "New videos come from new groups: which split imitates that?",
    ],
)

ex6 = ChoiceExercise(
    "ex6",
    title="Which checkpoint, which number?",
    variable="answer_6",
    options={
        "a": (
            "checkpoint 3, reporting 0.72",
            "choosing by test accuracy turns the test set into a second validation set: 0.72 is "
            "the best of three draws on the test set and is optimistic.",
        ),
        "b": (
            "checkpoint 2, reporting its test accuracy 0.69",
            "choose on validation (0.64 is the best), then measure the chosen model once on the "
            "test set: 0.69 is an honest estimate, even though another checkpoint scored higher "
            "on test.",
        ),
        "c": (
            "checkpoint 2, reporting its validation macro-F1 0.64",
            "0.64 is the maximum of three validation scores, so it is biased upwards by the "
            "choice itself: the number to report comes from data that the choice did not "
            "look at.",
        ),
        "d": (
            "the checkpoint with the best mean of the two columns",
            "mixing test scores into the choice again leaks the test set.",
        ),
    },
    answer="b",
    hints=[
        "Which data may the choice look at, and which data is left untouched for the report?",
        "A number that was used to make a choice is biased upwards by that choice.",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_ucf101_case_study.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_ex1_indices_not_groups(groups, train_idx, test_idx):
    return np.intersect1d(train_idx, test_idx)


def _wrong_ex1_union(groups, train_idx, test_idx):
    return np.union1d(groups[train_idx], groups[test_idx])


def _wrong_ex1_train_only_groups(groups, train_idx, test_idx):
    return np.setdiff1d(groups[train_idx], groups[test_idx])


def _wrong_ex2_chosen_on_test(val_macro_f1, test_accuracy):
    return int(np.argmax(test_accuracy))


def _wrong_ex2_one_based(val_macro_f1, test_accuracy):
    return int(np.argmax(val_macro_f1)) + 1


def _wrong_ex2_last_epoch(val_macro_f1, test_accuracy):
    return len(val_macro_f1) - 1


def _wrong_recall(cm, axis=1):
    cm = np.asarray(cm, dtype=float)
    s = cm.sum(axis=axis)
    return np.divide(np.diag(cm), s, out=np.zeros(len(cm)), where=s > 0)


def _wrong_ex3_precision_instead(cm_before, cm_after, threshold):
    return np.flatnonzero(_wrong_recall(cm_before, 0) - _wrong_recall(cm_after, 0) > threshold)


def _wrong_ex3_at_least_threshold(cm_before, cm_after, threshold):
    return np.flatnonzero(_wrong_recall(cm_before) - _wrong_recall(cm_after) >= threshold)


def _wrong_ex3_absolute_change(cm_before, cm_after, threshold):
    return np.flatnonzero(np.abs(_wrong_recall(cm_before) - _wrong_recall(cm_after)) > threshold)


def _wrong_pairs(values, i, j, k, *, keep_zero=False, tie_desc=False):
    order = np.lexsort((-j, -i, -values) if tie_desc else (j, i, -values))
    if not keep_zero:
        order = order[values[order] > 0]
    order = order[:k]
    return np.stack([i[order], j[order], values[order]], axis=1)


def _wrong_ex4_ordered_cells(cm, k):
    """One direction only: cm[i, j] as its own pair."""
    n = len(cm)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    return _wrong_pairs(cm[i, j], i, j, k)


def _wrong_ex4_upper_triangle_only(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    return _wrong_pairs(cm[i, j], i, j, k)


def _wrong_ex4_zeros_kept(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    return _wrong_pairs((cm + cm.T)[i, j], i, j, k, keep_zero=True)


ex1.misconceptions = [
    Misconception(
        "indices_not_groups",
        "the shared sample indices instead of the shared groups",
        _wrong_ex1_indices_not_groups,
    ),
    Misconception(
        "union", "the union of the groups instead of their intersection", _wrong_ex1_union
    ),
    Misconception(
        "train_only",
        "the groups only in training (a set difference) instead of those in both",
        _wrong_ex1_train_only_groups,
    ),
]
ex2.misconceptions = [
    Misconception(
        "chosen_on_test",
        "the epoch chosen on the test accuracy: that leaks the test set into the choice",
        _wrong_ex2_chosen_on_test,
    ),
    Misconception(
        "one_based", "a 1-based epoch number instead of the 0-based index", _wrong_ex2_one_based
    ),
    Misconception(
        "last_epoch", "the last epoch instead of the best one on validation", _wrong_ex2_last_epoch
    ),
]
ex3.misconceptions = [
    Misconception(
        "precision_instead",
        "per-class precision (column sums) instead of recall (row sums)",
        _wrong_ex3_precision_instead,
    ),
    Misconception(
        "at_least_threshold",
        "`>=` threshold instead of a drop strictly greater than it",
        _wrong_ex3_at_least_threshold,
    ),
    Misconception(
        "absolute_change",
        "any change larger than the threshold, up or down, instead of a drop",
        _wrong_ex3_absolute_change,
    ),
]
ex4.misconceptions = [
    Misconception(
        "ordered_cells",
        "(i, j) and (j, i) as two pairs instead of one summed pair",
        _wrong_ex4_ordered_cells,
    ),
    Misconception(
        "upper_triangle_only",
        "only cm[i, j] above the diagonal, without adding cm[j, i]",
        _wrong_ex4_upper_triangle_only,
    ),
    Misconception("zeros_kept", "pairs never confused kept in the list", _wrong_ex4_zeros_kept),
]
