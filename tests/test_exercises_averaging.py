"""Chapter 5 exercises: references agree with scikit-learn, and known-wrong "mutants" are caught.

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
    assert_wrong_value_caught,
)

from mltutor.exercises import averaging as ch5

CH5_EXERCISES = EXERCISES / "05_averaging.ipynb"
EXERCISES_CH5 = {name: getattr(ch5, name) for name in ch5.__all__}

skm = pytest.importorskip("sklearn.metrics")


def labels_from_cm(cm):
    cm = np.asarray(cm)
    c = cm.shape[0]
    idx = np.repeat(np.arange(c * c), cm.ravel())
    return idx // c, idx % c


# --------------------------------------------------------------------------------------------
# The references agree with scikit-learn
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(ch5.ex1.cases)))
def test_ex1_reference_matches_sklearn(i):
    y_true, y_pred = labels_from_cm(ch5.ex1.cases[i].args[0])
    expected = [
        skm.f1_score(y_true, y_pred, average=a, zero_division=0.0)
        for a in ("macro", "micro", "weighted")
    ]
    np.testing.assert_allclose(ch5.ex1.expected(i), expected, rtol=0, atol=1e-12)
    assert ch5.ex1.expected(i)[1] == pytest.approx(skm.accuracy_score(y_true, y_pred), abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch5.ex2.cases)))
def test_ex2_reference_matches_sklearn(i):
    Y_true, Y_pred = ch5.ex2.cases[i].args
    ref = skm.f1_score(Y_true, Y_pred, average="samples", zero_division=1.0)
    assert ch5.ex2.expected(i) == pytest.approx(ref, abs=1e-12)


def test_ex2_samples_and_macro_differ_where_promised():
    Y_true, Y_pred = ch5.ex2.cases[3].args
    assert (
        abs(skm.f1_score(Y_true, Y_pred, average="macro", zero_division=1.0) - ch5.ex2.expected(3))
        > 0.05
    )


@pytest.mark.parametrize("i", range(len(ch5.ex3.cases)))
def test_ex3_reference_matches_sklearn(i):
    assert ch5.ex3.expected(i) == pytest.approx(skm.hamming_loss(*ch5.ex3.cases[i].args), abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch5.ex4.cases)))
def test_ex4_reference_matches_sklearn(i):
    c = ch5.ex4.cases[i]
    ref = skm.f1_score(*c.args, labels=c.kwargs["labels"], average="macro", zero_division=0.0)
    assert ch5.ex4.expected(i) == pytest.approx(ref, abs=1e-12)


def test_ex5_answer():
    assert ch5.ex5.answer == pytest.approx(np.mean(np.r_[np.full(99, 0.88), 0.31, 0.42]), abs=1e-15)
    assert round(ch5.ex5.answer, 4) == 0.8698


def test_mltutor_metrics_agree_with_the_references():
    import mltutor.metrics as mlm

    for i, c in enumerate(ch5.ex3.cases):
        assert mlm.hamming_loss(*c.args) == pytest.approx(ch5.ex3.expected(i), abs=1e-12)
    for i, c in enumerate(ch5.ex4.cases):
        assert mlm.f1_score(
            *c.args, labels=c.kwargs["labels"], average="macro", zero_division=0.0
        ) == pytest.approx(ch5.ex4.expected(i), abs=1e-12)


# --------------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------------


def _counts(cm):
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    return tp, cm.sum(axis=0) - tp, cm.sum(axis=1) - tp


def _f1(tp, fp, fn):
    den = 2 * tp + fp + fn
    return np.divide(2 * tp, den, out=np.zeros_like(tp), where=den > 0)


def ex1_micro_instead_of_macro(cm):
    tp, fp, fn = _counts(cm)
    micro = 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())
    seen = tp + fp + fn > 0
    f1 = _f1(tp, fp, fn)[seen]
    support = (tp + fn)[seen]
    return float(micro), float(micro), float(np.sum(support * f1) / support.sum())


def ex1_weights_by_predicted_counts(cm):
    tp, fp, fn = _counts(cm)
    seen = tp + fp + fn > 0
    tp, fp, fn = tp[seen], fp[seen], fn[seen]
    f1 = _f1(tp, fp, fn)
    predicted = tp + fp  # column sums
    return (
        float(f1.mean()),
        float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())),
        float(np.sum(predicted * f1) / predicted.sum()),
    )


def ex1_absent_classes_count_as_zero(cm):
    tp, fp, fn = _counts(cm)
    f1 = _f1(tp, fp, fn)
    support = tp + fn
    return (
        float(f1.mean()),
        float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())),
        float(np.sum(support * f1) / support.sum()),
    )


def ex1_f1_of_macro_precision_and_recall(cm):
    tp, fp, fn = _counts(cm)
    seen = tp + fp + fn > 0
    tp, fp, fn = tp[seen], fp[seen], fn[seen]
    p = np.divide(tp, tp + fp, out=np.zeros_like(tp), where=tp + fp > 0).mean()
    r = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=tp + fn > 0).mean()
    f1 = _f1(tp, fp, fn)
    support = tp + fn
    return (
        float(2 * p * r / (p + r)) if p + r else 0.0,
        float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())),
        float(np.sum(support * f1) / support.sum()),
    )


def ex1_macro_recall_instead_of_f1(cm):
    tp, fp, fn = _counts(cm)
    seen = tp + fp + fn > 0
    tp, fp, fn = tp[seen], fp[seen], fn[seen]
    recall = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=tp + fn > 0)
    f1 = _f1(tp, fp, fn)
    support = tp + fn
    return (
        float(recall.mean()),
        float(2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())),
        float(np.sum(support * f1) / support.sum()),
    )


def ex1_order_swapped(cm):
    macro, micro, weighted = ch5.averaged_f1(cm)
    return micro, macro, weighted


def ex1_macro_weighted_swapped(cm):
    macro, micro, weighted = ch5.averaged_f1(cm)
    return weighted, micro, macro


def ex2_macro_instead_of_samples(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    both = (Y_true & Y_pred).sum(axis=0)
    sizes = Y_true.sum(axis=0) + Y_pred.sum(axis=0)
    return float(np.divide(2 * both, sizes, out=np.ones(len(sizes)), where=sizes > 0).mean())


def ex2_micro_instead_of_samples(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    sizes = Y_true.sum() + Y_pred.sum()
    return float(2 * (Y_true & Y_pred).sum() / sizes) if sizes else 1.0


def ex2_empty_sample_scores_zero(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    both = (Y_true & Y_pred).sum(axis=1)
    sizes = Y_true.sum(axis=1) + Y_pred.sum(axis=1)
    return float(np.divide(2 * both, sizes, out=np.zeros(len(sizes)), where=sizes > 0).mean())


def ex2_empty_samples_skipped(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    both = (Y_true & Y_pred).sum(axis=1)
    sizes = Y_true.sum(axis=1) + Y_pred.sum(axis=1)
    keep = sizes > 0
    return float(np.mean(2 * both[keep] / sizes[keep])) if keep.any() else 1.0


def ex2_jaccard_instead_of_f1(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true, bool), np.asarray(Y_pred, bool)
    both, union = (Y_true & Y_pred).sum(axis=1), (Y_true | Y_pred).sum(axis=1)
    return float(np.divide(both, union, out=np.ones(len(union)), where=union > 0).mean())


def ex2_subset_accuracy(Y_true, Y_pred):
    return float(np.mean((np.asarray(Y_true) == np.asarray(Y_pred)).all(axis=1)))


def ex3_divides_by_samples_only(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true), np.asarray(Y_pred)
    return float(np.sum(Y_true != Y_pred) / Y_true.shape[0])


def ex3_subset_zero_one_loss(Y_true, Y_pred):
    Y_true, Y_pred = np.atleast_2d(np.asarray(Y_true).T).T, np.atleast_2d(np.asarray(Y_pred).T).T
    return float(np.mean((Y_true != Y_pred).any(axis=1)))


def ex3_counts_only_misses(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true), np.asarray(Y_pred)
    return float(np.mean((Y_true != 0) & (Y_pred == 0)))


def ex3_one_minus_micro_f1(Y_true, Y_pred):
    Y_true, Y_pred = np.asarray(Y_true) != 0, np.asarray(Y_pred) != 0
    sizes = Y_true.sum() + Y_pred.sum()
    return float(1 - 2 * (Y_true & Y_pred).sum() / sizes) if sizes else 0.0


def ex3_accuracy_instead_of_loss(Y_true, Y_pred):
    return float(np.mean(np.asarray(Y_true) == np.asarray(Y_pred)))


def _class_f1(y_true, y_pred, k):
    tp = np.sum((y_true == k) & (y_pred == k))
    fp = np.sum((y_true != k) & (y_pred == k))
    fn = np.sum((y_true == k) & (y_pred != k))
    return (2 * tp / (2 * tp + fp + fn)) if tp + fp + fn else None


def ex4_ignores_labels(y_true, y_pred, labels):
    present = np.union1d(y_true, y_pred)
    return float(np.mean([_class_f1(y_true, y_pred, k) for k in present]))


def ex4_absent_listed_classes_skipped(y_true, y_pred, labels):
    scores = [_class_f1(y_true, y_pred, k) for k in labels]
    scores = [s for s in scores if s is not None]
    return float(np.mean(scores)) if scores else 0.0


def ex4_union_of_labels_and_present(y_true, y_pred, labels):
    every = np.union1d(np.union1d(y_true, y_pred), np.asarray(labels))
    return float(np.mean([_class_f1(y_true, y_pred, k) or 0.0 for k in every]))


def ex4_micro_over_labels(y_true, y_pred, labels):
    tp = fp = fn = 0
    for k in labels:
        tp += np.sum((y_true == k) & (y_pred == k))
        fp += np.sum((y_true != k) & (y_pred == k))
        fn += np.sum((y_true == k) & (y_pred != k))
    return float(2 * tp / (2 * tp + fp + fn)) if tp + fp + fn else 0.0


def ex4_absent_listed_scores_one(y_true, y_pred, labels):
    scores = [_class_f1(y_true, y_pred, k) for k in labels]
    return float(np.mean([1.0 if s is None else s for s in scores]))


def ex4_samples_of_unlisted_classes_dropped(y_true, y_pred, labels):
    keep = np.isin(y_true, labels) & np.isin(y_pred, labels)
    return float(np.mean([_class_f1(y_true[keep], y_pred[keep], k) or 0.0 for k in labels]))


MUTANTS = {
    "ex1": [
        ex1_micro_instead_of_macro,
        ex1_weights_by_predicted_counts,
        ex1_absent_classes_count_as_zero,
        ex1_f1_of_macro_precision_and_recall,
        ex1_macro_recall_instead_of_f1,
        ex1_order_swapped,
        ex1_macro_weighted_swapped,
    ],
    "ex2": [
        ex2_macro_instead_of_samples,
        ex2_micro_instead_of_samples,
        ex2_empty_sample_scores_zero,
        ex2_empty_samples_skipped,
        ex2_jaccard_instead_of_f1,
        ex2_subset_accuracy,
    ],
    "ex3": [
        ex3_divides_by_samples_only,
        ex3_subset_zero_one_loss,
        ex3_counts_only_misses,
        ex3_one_minus_micro_f1,
        ex3_accuracy_instead_of_loss,
    ],
    "ex4": [
        ex4_ignores_labels,
        ex4_absent_listed_classes_skipped,
        ex4_union_of_labels_and_present,
        ex4_micro_over_labels,
        ex4_absent_listed_scores_one,
        ex4_samples_of_unlisted_classes_dropped,
    ],
}
# Wrong values a learner might give for ex5: the tutorial's 0.867, the plain 0.88, micro-ish guesses.
VALUE_MUTANTS = {"ex5": [0.867, 0.88, (0.88 + 0.31 + 0.42) / 3, (99 * 0.88) / 101, 0.87]}

MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]
VALUE_PARAMS = [
    pytest.param(ex, v, id=f"{ex}-{v:.6g}") for ex, vs in VALUE_MUTANTS.items() for v in vs
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) | set(VALUE_MUTANTS) == {
        n for n, ex in EXERCISES_CH5.items() if ex.kind != "judgement"
    }


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH5[name], mutant)


@pytest.mark.parametrize("name, value", VALUE_PARAMS)
def test_wrong_value_is_caught(name, value):
    assert_wrong_value_caught(EXERCISES_CH5[name], value)


def test_mutant_messages_point_at_the_case():
    m = ch5.ex1.check(ex1_absent_classes_count_as_zero, strict=False).message
    assert "(class 2 never occurs at all)" in m and "`macro`" in m
    m = ch5.ex2.check(ex2_empty_sample_scores_zero, strict=False).message
    assert "(a sample with no true and no predicted label)" in m
    m = ch5.ex4.check(ex4_absent_listed_classes_skipped, strict=False).message
    assert "(two listed classes never occur)" in m


def test_exercise_notebook_contains_no_solution_code():
    text = CH5_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "2 * tp.sum() /",
        "out=np.ones(len(sizes))",
        "(99 * 0.88 + 0.31 + 0.42) / 101",
        "np.asarray(Y_true) != np.asarray(Y_pred)",
        "Discussion",
    ):
        assert needle not in text, needle


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_micro_instead_of_macro": "micro_for_macro",
        "ex1_absent_classes_count_as_zero": "absent_classes_as_zero",
        "ex1_f1_of_macro_precision_and_recall": "f1_of_means",
    },
    "ex2": {
        "ex2_macro_instead_of_samples": "macro_for_samples",
        "ex2_micro_instead_of_samples": "micro_for_samples",
        "ex2_jaccard_instead_of_f1": "jaccard",
    },
    "ex3": {
        "ex3_divides_by_samples_only": "divides_by_samples",
        "ex3_subset_zero_one_loss": "subset_loss",
        "ex3_accuracy_instead_of_loss": "accuracy_not_loss",
    },
    "ex4": {
        "ex4_ignores_labels": "ignores_labels",
        "ex4_absent_listed_classes_skipped": "absent_listed_skipped",
        "ex4_micro_over_labels": "micro_over_labels",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH5[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH5, NAMED)


def test_ex6_samples_option_explanation_is_true():
    """On one-hot rows samples-F1 is accuracy; on plain class labels scikit-learn refuses it."""
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 4, 50), rng.integers(0, 4, 50)
    one_hot = np.eye(4, dtype=int)
    assert skm.f1_score(one_hot[y_true], one_hot[y_pred], average="samples") == pytest.approx(
        skm.accuracy_score(y_true, y_pred), abs=1e-12
    )
    with pytest.raises(ValueError, match="Samplewise"):
        skm.f1_score(y_true, y_pred, average="samples")
    assert "refuses it" in ch5.ex6.options["d"][1]
