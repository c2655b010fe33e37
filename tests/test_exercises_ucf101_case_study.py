"""Chapter 8 exercises: references agree with independent implementations, mutants are caught.

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
)

from mltutor.exercises import ucf101_case_study as ch8

CH8_EXERCISES = EXERCISES / "08_ucf101_case_study.ipynb"
EXERCISES_CH8 = {name: getattr(ch8, name) for name in ch8.__all__}

sklearn_metrics = pytest.importorskip("sklearn.metrics")


# --------------------------------------------------------------------------------------------
# The references agree with slow, obvious implementations (and with scikit-learn for recall)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(ch8.ex1.cases)))
def test_ex1_reference_matches_set_intersection(i):
    groups, train, test = ch8.ex1.cases[i].args
    slow = sorted({groups[t] for t in train} & {groups[t] for t in test})
    assert list(ch8.ex1.expected(i)) == slow


@pytest.mark.parametrize("i", range(len(ch8.ex2.cases)))
def test_ex2_reference_is_first_best_on_validation(i):
    val, _ = ch8.ex2.cases[i].args
    best = max(val)
    assert ch8.ex2.expected(i) == min(e for e, v in enumerate(val) if v == best)


def _labels_from_cm(cm):
    cm = np.asarray(cm)
    c = cm.shape[0]
    idx = np.repeat(np.arange(c * c), cm.ravel())
    return idx // c, idx % c


@pytest.mark.parametrize("i", range(len(ch8.ex3.cases)))
def test_ex3_reference_matches_sklearn_recall(i):
    before, after, threshold = ch8.ex3.cases[i].args
    n = len(before)
    r = [
        sklearn_metrics.recall_score(
            *_labels_from_cm(cm), labels=np.arange(n), average=None, zero_division=0
        )
        for cm in (before, after)
    ]
    np.testing.assert_array_equal(ch8.ex3.expected(i), np.flatnonzero(r[0] - r[1] > threshold))


@pytest.mark.parametrize("i", range(len(ch8.ex4.cases)))
def test_ex4_reference_matches_brute_force(i):
    cm, k = ch8.ex4.cases[i].args
    n = len(cm)
    rows = [(a, b, int(cm[a, b] + cm[b, a])) for a, b in itertools.combinations(range(n), 2)]
    rows = sorted((r for r in rows if r[2] > 0), key=lambda r: (-r[2], r[0], r[1]))[:k]
    np.testing.assert_array_equal(ch8.ex4.expected(i), np.array(rows).reshape(-1, 3))


def test_ex4_on_a_101_class_matrix():
    rng = np.random.default_rng(8)
    cm = rng.poisson(0.3, size=(101, 101)) + np.diag(rng.integers(20, 40, 101))
    top = ch8.confused_pairs(cm, 10)
    assert top.shape == (10, 3)
    assert np.all(top[:, 0] < top[:, 1])
    assert np.all(np.diff(top[:, 2]) <= 0)


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def ex1_indices_not_groups(groups, train_idx, test_idx):
    return np.intersect1d(train_idx, test_idx)


def ex1_union(groups, train_idx, test_idx):
    return np.union1d(groups[train_idx], groups[test_idx])


def ex1_symmetric_difference(groups, train_idx, test_idx):
    return np.setxor1d(groups[train_idx], groups[test_idx])


def ex1_train_only_groups(groups, train_idx, test_idx):
    return np.setdiff1d(groups[train_idx], groups[test_idx])


def ex1_repeats_kept(groups, train_idx, test_idx):
    test_groups = groups[test_idx]
    return np.sort(groups[train_idx][np.isin(groups[train_idx], test_groups)])


def ex1_same_position(groups, train_idx, test_idx):
    n = min(len(train_idx), len(test_idx))
    g_train, g_test = groups[train_idx][:n], groups[test_idx][:n]
    return np.unique(g_train[g_train == g_test])


def ex2_chosen_on_test(val_macro_f1, test_accuracy):
    return int(np.argmax(test_accuracy))


def ex2_last_best(val_macro_f1, test_accuracy):
    v = np.asarray(val_macro_f1)
    return int(len(v) - 1 - np.argmax(v[::-1]))


def ex2_best_of_sum(val_macro_f1, test_accuracy):
    return int(np.argmax(np.asarray(val_macro_f1) + np.asarray(test_accuracy)))


def ex2_one_based(val_macro_f1, test_accuracy):
    return int(np.argmax(val_macro_f1)) + 1


def ex2_argmin(val_macro_f1, test_accuracy):
    return int(np.argmin(val_macro_f1))


def ex2_returns_score(val_macro_f1, test_accuracy):
    return float(np.max(val_macro_f1))


def ex2_last_epoch(val_macro_f1, test_accuracy):
    return len(val_macro_f1) - 1


def _recall(cm, axis=1):
    cm = np.asarray(cm, dtype=float)
    s = cm.sum(axis=axis)
    return np.divide(np.diag(cm), s, out=np.zeros(len(cm)), where=s > 0)


def ex3_precision_instead(cm_before, cm_after, threshold):
    return np.flatnonzero(_recall(cm_before, 0) - _recall(cm_after, 0) > threshold)


def ex3_at_least_threshold(cm_before, cm_after, threshold):
    return np.flatnonzero(_recall(cm_before) - _recall(cm_after) >= threshold)


def ex3_absolute_change(cm_before, cm_after, threshold):
    return np.flatnonzero(np.abs(_recall(cm_before) - _recall(cm_after)) > threshold)


def ex3_counts_not_rates(cm_before, cm_after, threshold):
    d = np.diag(np.asarray(cm_before, float)) - np.diag(np.asarray(cm_after, float))
    return np.flatnonzero(d / np.asarray(cm_before).sum() > threshold)


def ex3_after_minus_before(cm_before, cm_after, threshold):
    return np.flatnonzero(_recall(cm_after) - _recall(cm_before) > threshold)


def ex3_mask_not_indices(cm_before, cm_after, threshold):
    return _recall(cm_before) - _recall(cm_after) > threshold


def ex3_relative_drop(cm_before, cm_after, threshold):
    rb, ra = _recall(cm_before), _recall(cm_after)
    rel = np.divide(rb - ra, rb, out=np.zeros_like(rb), where=rb > 0)
    return np.flatnonzero(rel > threshold)


def _pairs(values, i, j, k, *, keep_zero=False, tie_desc=False):
    order = np.lexsort((-j, -i, -values) if tie_desc else (j, i, -values))
    if not keep_zero:
        order = order[values[order] > 0]
    order = order[:k]
    return np.stack([i[order], j[order], values[order]], axis=1)


def ex4_ordered_cells(cm, k):
    """One direction only: cm[i, j] as its own pair."""
    n = len(cm)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    return _pairs(cm[i, j], i, j, k)


def ex4_double_counted(cm, k):
    """Both (i, j) and (j, i) listed with the summed count."""
    n = len(cm)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    return _pairs((cm + cm.T)[i, j], i, j, k)


def ex4_diagonal_included(cm, k):
    i, j = np.triu_indices(len(cm), k=0)
    return _pairs((cm + cm.T)[i, j] // np.where(i == j, 2, 1), i, j, k)


def ex4_upper_triangle_only(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    return _pairs(cm[i, j], i, j, k)


def ex4_ties_reversed(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    return _pairs((cm + cm.T)[i, j], i, j, k, tie_desc=True)


def ex4_zeros_kept(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    return _pairs((cm + cm.T)[i, j], i, j, k, keep_zero=True)


def ex4_ascending(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    v = (cm + cm.T)[i, j]
    order = np.lexsort((j, i, v))
    order = order[v[order] > 0][:k]
    return np.stack([i[order], j[order], v[order]], axis=1)


def ex4_unstable_argsort(cm, k):
    i, j = np.triu_indices(len(cm), k=1)
    v = (cm + cm.T)[i, j]
    order = np.argsort(v)[::-1]  # descending by reversing: ties come out last-first
    order = order[v[order] > 0][:k]
    return np.stack([i[order], j[order], v[order]], axis=1)


MUTANTS = {
    "ex1": [
        ex1_indices_not_groups,
        ex1_union,
        ex1_symmetric_difference,
        ex1_train_only_groups,
        ex1_repeats_kept,
        ex1_same_position,
    ],
    "ex2": [
        ex2_chosen_on_test,
        ex2_last_best,
        ex2_best_of_sum,
        ex2_one_based,
        ex2_argmin,
        ex2_returns_score,
        ex2_last_epoch,
    ],
    "ex3": [
        ex3_precision_instead,
        ex3_at_least_threshold,
        ex3_absolute_change,
        ex3_counts_not_rates,
        ex3_after_minus_before,
        ex3_mask_not_indices,
        ex3_relative_drop,
    ],
    "ex4": [
        ex4_ordered_cells,
        ex4_double_counted,
        ex4_diagonal_included,
        ex4_upper_triangle_only,
        ex4_ties_reversed,
        ex4_zeros_kept,
        ex4_ascending,
        ex4_unstable_argsort,
    ],
}
MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) == {n for n, ex in EXERCISES_CH8.items() if ex.kind != "judgement"}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH8[name], mutant)


@pytest.mark.parametrize(
    "name", sorted(n for n, ex in EXERCISES_CH8.items() if ex.kind == "implement")
)
def test_reference_passes(name):
    ex = EXERCISES_CH8[name]
    assert ex.check(ex.reference, strict=False).correct


def test_mutant_messages_are_useful():
    m = ch8.ex2.check(ex2_chosen_on_test, strict=False).message
    assert "case 1 of 6 (validation and test disagree about the best epoch)" in m
    m = ch8.ex4.check(ex4_diagonal_included, strict=False).message
    assert "case 1 of 7" in m


def test_exercise_notebook_contains_no_solution_code():
    if not CH8_EXERCISES.exists():
        pytest.skip("exercise notebook not generated yet")
    text = CH8_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "np.intersect1d(",
        "np.lexsort((j, i, -count))",
        "np.argmax(val_macro_f1)",
        "Discussion",
    ):
        assert needle not in text, needle


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_indices_not_groups": "indices_not_groups",
        "ex1_union": "union",
        "ex1_train_only_groups": "train_only",
    },
    "ex2": {
        "ex2_chosen_on_test": "chosen_on_test",
        "ex2_one_based": "one_based",
        "ex2_last_epoch": "last_epoch",
    },
    "ex3": {
        "ex3_precision_instead": "precision_instead",
        "ex3_at_least_threshold": "at_least_threshold",
        "ex3_absolute_change": "absolute_change",
    },
    "ex4": {
        "ex4_ordered_cells": "ordered_cells",
        "ex4_upper_triangle_only": "upper_triangle_only",
        "ex4_zeros_kept": "zeros_kept",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH8[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH8, NAMED)
