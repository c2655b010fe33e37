"""Chapter 2 exercises: references agree with scikit-learn, and known-wrong "mutants" are caught.

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import warnings

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
    without_own_values,
)

from mltutor.check import CORRECT, INCORRECT, CheckFailed
from mltutor.exercises import accuracy_trap as ch2

CH2_SOLUTIONS = SOLUTIONS / "02_accuracy_trap.ipynb"
CH2_EXERCISES = EXERCISES / "02_accuracy_trap.ipynb"
EXERCISES_CH2 = {name: getattr(ch2, name) for name in ch2.__all__}

sklearn_metrics = pytest.importorskip("sklearn.metrics")
sklearn_dummy = pytest.importorskip("sklearn.dummy")


def labels_from_cm(cm):
    cm = np.asarray(cm)
    c = cm.shape[0]
    idx = np.repeat(np.arange(c * c), cm.ravel())
    return idx // c, idx % c


# --------------------------------------------------------------------------------------------
# The references agree with scikit-learn
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(ch2.ex1.cases)))
def test_ex1_reference_matches_dummy_classifier(i):
    (y,) = ch2.ex1.cases[i].args
    X = np.zeros((y.size, 1))
    dummy = sklearn_dummy.DummyClassifier(strategy="most_frequent").fit(X, y)
    expected = sklearn_metrics.accuracy_score(y, dummy.predict(X))
    assert ch2.ex1.expected(i) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch2.ex2.cases)))
def test_ex2_reference_matches_sklearn(i):
    c = ch2.ex2.cases[i]
    cm = c.args[0]
    y_true, y_pred = labels_from_cm(cm)
    dropped = (cm.sum(axis=1) == 0) & (cm.sum(axis=0) > 0)  # predicted, never true
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        expected = sklearn_metrics.balanced_accuracy_score(y_true, y_pred, **c.kwargs)
    messages = [str(w.message) for w in caught]
    assert ("y_pred contains classes not in y_true" in messages) == bool(dropped.any())
    assert ch2.ex2.expected(i) == pytest.approx(expected, abs=1e-12)


def test_ex2_has_the_traps():
    """Cases with a never-predicted class, a predicted-but-absent class, and a class absent everywhere."""
    cms = [c.args[0] for c in ch2.ex2.cases]
    assert any((cm.sum(axis=0) == 0).any() and (cm.sum(axis=1) > 0).all() for cm in cms)
    assert any(((cm.sum(axis=1) == 0) & (cm.sum(axis=0) > 0)).any() for cm in cms)
    assert any(((cm.sum(axis=1) == 0) & (cm.sum(axis=0) == 0)).any() for cm in cms)
    assert any(
        c.kwargs.get("adjusted") and (c.args[0].sum(axis=1) == 0).any() for c in ch2.ex2.cases
    )


@pytest.mark.filterwarnings(
    "ignore:Recall is ill-defined:sklearn.exceptions.UndefinedMetricWarning"
)
@pytest.mark.parametrize("i", range(len(ch2.ex3.cases)))
def test_ex3_reference_matches_sklearn(i):
    y_true, y_pred = ch2.ex3.cases[i].args
    expected = sklearn_metrics.recall_score(y_true, y_pred, average="weighted", zero_division=0)
    assert ch2.ex3.expected(i) == pytest.approx(expected, abs=1e-12)
    # ... and that is accuracy, which is the point of the exercise
    assert ch2.ex3.expected(i) == pytest.approx(
        sklearn_metrics.accuracy_score(y_true, y_pred), abs=1e-12
    )


def test_ex3_has_the_traps():
    notes = [c.note for c in ch2.ex3.cases]
    assert any("never predicted" in n for n in notes) and any("never occurs" in n for n in notes)


def test_ex4_answer_matches_sklearn():
    def both(cm):
        y_true, y_pred = labels_from_cm(cm)
        return (
            sklearn_metrics.accuracy_score(y_true, y_pred),
            sklearn_metrics.balanced_accuracy_score(y_true, y_pred),
        )

    a, b = both(ch2.CM_ALWAYS_LEGITIMATE), both(ch2.CM_MODEL)
    accuracy_change, balanced_change = ch2.ex4.answer
    assert accuracy_change == pytest.approx(b[0] - a[0], abs=1e-12) and accuracy_change < 0
    assert balanced_change == pytest.approx(b[1] - a[1], abs=1e-12) and balanced_change > 0.4
    # weighted recall would have told the same (wrong) story as accuracy
    ya, pa = labels_from_cm(ch2.CM_ALWAYS_LEGITIMATE)
    yb, pb = labels_from_cm(ch2.CM_MODEL)
    weighted_change = sklearn_metrics.recall_score(
        yb, pb, average="weighted"
    ) - sklearn_metrics.recall_score(ya, pa, average="weighted")
    assert weighted_change == pytest.approx(accuracy_change, abs=1e-12)


def test_ex4_matrices_in_the_notebook_are_the_module_ones():
    namespace, _ = run_notebook_code(CH2_SOLUTIONS)
    np.testing.assert_array_equal(namespace["cm_a"], ch2.CM_ALWAYS_LEGITIMATE)
    np.testing.assert_array_equal(namespace["cm_b"], ch2.CM_MODEL)


@pytest.mark.parametrize("i", range(len(ch2.ex7.cases)))
def test_ex7_reference_matches_sklearn(i):
    y_true, y_pred = labels_from_cm(ch2.ex7.cases[i].args[0])
    mcc, kappa = ch2.ex7.expected(i)
    assert mcc == pytest.approx(sklearn_metrics.matthews_corrcoef(y_true, y_pred), abs=1e-12)
    assert kappa == pytest.approx(sklearn_metrics.cohen_kappa_score(y_true, y_pred), abs=1e-12)


def test_ex7_has_the_traps():
    """An empty column (constant prediction), an empty row, and the kappa paradox."""
    cms = [c.args[0] for c in ch2.ex7.cases]
    assert any((cm.sum(axis=0) == 0).any() for cm in cms)
    assert any((cm.sum(axis=1) == 0).any() for cm in cms)
    assert any(np.trace(cm) / cm.sum() == 0.9 and ch2.mcc_and_kappa(cm)[1] < 0 for cm in cms)


def test_cm_three_is_the_chapter_example():
    """SEED_AUDIT item 2: accuracy = weighted recall = 0.75, macro recall 0.733."""
    y_true, y_pred = labels_from_cm(ch2.CM_THREE)
    assert sklearn_metrics.accuracy_score(y_true, y_pred) == 0.75
    assert sklearn_metrics.recall_score(y_true, y_pred, average="weighted") == pytest.approx(
        0.75, abs=1e-12
    )
    assert sklearn_metrics.recall_score(y_true, y_pred, average="macro") == pytest.approx(
        0.7333, abs=5e-5
    )


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def _counts(y):
    return np.unique(np.asarray(y), return_counts=True)[1]


def ex1_uniform_guess(y_true):
    return 1 / len(_counts(y_true))


def ex1_smallest_class(y_true):
    c = _counts(y_true)
    return float(c.min() / c.sum())


def ex1_first_sorted_class(y_true):
    c = _counts(y_true)
    return float(c[0] / c.sum())


def ex1_class_of_the_first_sample(y_true):
    y = np.asarray(y_true)
    return float(np.mean(y == y[0]))


def ex1_count_not_fraction(y_true):
    return int(_counts(y_true).max())


def ex1_with_bincount(y_true):
    c = np.bincount(np.asarray(y_true))
    return float(c.max() / c.sum())


def ex1_error_rate(y_true):
    c = _counts(y_true)
    return float(1 - c.max() / c.sum())


def ex1_share_of_label_one(y_true):
    return float(np.mean(np.asarray(y_true) == 1))


def ex1_largest_over_smallest(y_true):
    c = _counts(y_true)
    return float(c.max() / (c.max() + c.min()))


def _recall_rows(cm):
    cm = np.asarray(cm, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.diag(cm) / cm.sum(axis=1)


def _adjust(score, k, adjusted):
    if not adjusted:
        return float(score)
    return float((score - 1 / k) / (1 - 1 / k))


def ex2_weighted_instead_of_macro(cm, adjusted=False):
    """Macro and weighted swapped: support-weighted recall, which is accuracy."""
    cm = np.asarray(cm, dtype=float)
    return _adjust(np.trace(cm) / cm.sum(), int((cm.sum(axis=1) > 0).sum()), adjusted)


def ex2_absent_classes_count_as_zero(cm, adjusted=False):
    """Forgets that classes with no true samples are left out: their 0/0 becomes 0."""
    r = np.nan_to_num(_recall_rows(cm))
    return _adjust(r.mean(), len(r), adjusted)


def ex2_predicted_counts(cm, adjusted=False):
    """Divides by the column sums (predicted counts): mean precision, not mean recall."""
    cm = np.asarray(cm, dtype=float)
    col = cm.sum(axis=0)
    p = np.diag(cm)[col > 0] / col[col > 0]
    return _adjust(p.mean(), len(p), adjusted)


def ex2_drops_never_predicted(cm, adjusted=False):
    """Leaves out classes that are never predicted, instead of those that never occur."""
    cm = np.asarray(cm, dtype=float)
    keep = (cm.sum(axis=0) > 0) & (cm.sum(axis=1) > 0)
    r = np.diag(cm)[keep] / cm.sum(axis=1)[keep]
    return _adjust(r.mean(), int(keep.sum()), adjusted)


def ex2_ignores_adjusted(cm, adjusted=False):
    r = _recall_rows(cm)
    return float(np.nanmean(r))


def ex2_chance_from_matrix_size(cm, adjusted=False):
    r = _recall_rows(cm)
    return _adjust(np.nanmean(r), np.asarray(cm).shape[0], adjusted)


def ex2_no_rescaling(cm, adjusted=False):
    r = _recall_rows(cm)
    r = r[~np.isnan(r)]
    return float(r.mean() - 1 / len(r)) if adjusted else float(r.mean())


def ex2_nan_from_absent_class(cm, adjusted=False):
    r = _recall_rows(cm)
    return _adjust(r.mean(), len(r), adjusted)


def ex2_transposed(cm, adjusted=False):
    cm = np.asarray(cm, dtype=float).T
    r = _recall_rows(cm)
    r = r[~np.isnan(r)]
    return _adjust(r.mean(), len(r), adjusted)


def _per_class(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    labels = np.union1d(y_true, y_pred)
    support = np.array([np.sum(y_true == k) for k in labels], dtype=float)
    predicted = np.array([np.sum(y_pred == k) for k in labels], dtype=float)
    tp = np.array([np.sum((y_true == k) & (y_pred == k)) for k in labels], dtype=float)
    return support, predicted, tp


def ex3_macro_recall(y_true, y_pred):
    support, _, tp = _per_class(y_true, y_pred)
    occurs = support > 0
    return float(np.mean(tp[occurs] / support[occurs]))


def ex3_weights_from_predictions(y_true, y_pred):
    support, predicted, tp = _per_class(y_true, y_pred)
    occurs = support > 0
    return float(np.sum(predicted[occurs] / predicted.sum() * tp[occurs] / support[occurs]))


def ex3_weighted_precision(y_true, y_pred):
    support, predicted, tp = _per_class(y_true, y_pred)
    precision = np.divide(tp, predicted, out=np.zeros_like(tp), where=predicted > 0)
    return float(np.sum(support / support.sum() * precision))


def ex3_absent_classes_as_zero_in_a_plain_mean(y_true, y_pred):
    support, _, tp = _per_class(y_true, y_pred)
    recall = np.divide(tp, support, out=np.zeros_like(tp), where=support > 0)
    return float(recall.mean())


def ex3_weights_not_normalised(y_true, y_pred):
    support, _, tp = _per_class(y_true, y_pred)
    occurs = support > 0
    return float(np.sum(support[occurs] * tp[occurs] / support[occurs]) / occurs.sum())


def ex3_inverse_frequency_weights(y_true, y_pred):
    """ "Fixes imbalance" by weighting rare classes up: not what average='weighted' does."""
    support, _, tp = _per_class(y_true, y_pred)
    occurs = support > 0
    w = 1 / support[occurs]
    return float(np.sum(w / w.sum() * tp[occurs] / support[occurs]))


def _cells(cm):
    (tn, fp), (fn, tp) = np.asarray(cm, dtype=float).tolist()
    return tn, fp, fn, tp


def _kappa(cm):
    return ch2.mcc_and_kappa(cm)[1]


def _mcc(cm):
    return ch2.mcc_and_kappa(cm)[0]


def ex7_kappa_is_accuracy(cm):
    tn, fp, fn, tp = _cells(cm)
    return _mcc(cm), (tn + tp) / (tn + fp + fn + tp)


def ex7_chance_from_true_shares_squared(cm):
    tn, fp, fn, tp = _cells(cm)
    n = tn + fp + fn + tp
    p_e = ((tn + fp) / n) ** 2 + ((fn + tp) / n) ** 2
    return _mcc(cm), ((tn + tp) / n - p_e) / (1 - p_e)


def ex7_informedness_for_mcc(cm):
    tn, fp, fn, tp = _cells(cm)
    return tp / (tp + fn) + tn / (tn + fp) - 1, _kappa(cm)


def ex7_nan_when_undefined(cm):
    tn, fp, fn, tp = _cells(cm)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.sqrt(np.float64((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
        return float((tp * tn - fp * fn) / d), _kappa(cm)


def ex7_no_square_root(cm):
    tn, fp, fn, tp = _cells(cm)
    d = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return ((tp * tn - fp * fn) / d if d else 0.0), _kappa(cm)


def ex7_f1_for_mcc(cm):
    tn, fp, fn, tp = _cells(cm)
    return (2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0), _kappa(cm)


def ex7_kappa_over_one_plus_chance(cm):
    tn, fp, fn, tp = _cells(cm)
    n = tn + fp + fn + tp
    p_e = ((tn + fp) * (tn + fn) + (fn + tp) * (fp + tp)) / n**2
    return _mcc(cm), ((tn + tp) / n - p_e) / (1 + p_e)


def ex7_swapped_outputs(cm):
    mcc, kappa = ch2.mcc_and_kappa(cm)
    return kappa, mcc


MUTANTS = {
    "ex1": [
        ex1_uniform_guess,
        ex1_smallest_class,
        ex1_first_sorted_class,
        ex1_class_of_the_first_sample,
        ex1_count_not_fraction,
        ex1_with_bincount,
        ex1_error_rate,
        ex1_share_of_label_one,
        ex1_largest_over_smallest,
    ],
    "ex2": [
        ex2_weighted_instead_of_macro,
        ex2_absent_classes_count_as_zero,
        ex2_predicted_counts,
        ex2_drops_never_predicted,
        ex2_ignores_adjusted,
        ex2_chance_from_matrix_size,
        ex2_no_rescaling,
        ex2_nan_from_absent_class,
        ex2_transposed,
    ],
    "ex3": [
        ex3_macro_recall,
        ex3_weights_from_predictions,
        ex3_weighted_precision,
        ex3_absent_classes_as_zero_in_a_plain_mean,
        ex3_weights_not_normalised,
        ex3_inverse_frequency_weights,
    ],
    "ex7": [
        ex7_kappa_is_accuracy,
        ex7_chance_from_true_shares_squared,
        ex7_informedness_for_mcc,
        ex7_nan_when_undefined,
        ex7_no_square_root,
        ex7_f1_for_mcc,
        ex7_kappa_over_one_plus_chance,
        ex7_swapped_outputs,
    ],
}

# Wrong answers for ex4 (accuracy change, balanced accuracy change), B minus A:
_ACC = (np.trace(ch2.CM_ALWAYS_LEGITIMATE) / 1000, np.trace(ch2.CM_MODEL) / 1000)
_BAL = (ch2.balanced_accuracy(ch2.CM_ALWAYS_LEGITIMATE), ch2.balanced_accuracy(ch2.CM_MODEL))
VALUE_MUTANTS = {
    "ex4": [
        (_ACC[0] - _ACC[1], _BAL[0] - _BAL[1]),  # A minus B
        (_ACC[1] - _ACC[0], _ACC[1] - _ACC[0]),  # weighted recall instead of balanced accuracy
        (_ACC[1], _BAL[1]),  # model B's values, not the changes
        (abs(_ACC[1] - _ACC[0]), _BAL[1] - _BAL[0]),  # dropped the sign of the accuracy change
        (_ACC[1] - _ACC[0], _BAL[1] - 1.0),  # model A's balanced accuracy taken as 1
        (_ACC[1] - _ACC[0], ch2.balanced_accuracy(ch2.CM_MODEL.T) - 1 / 3),  # precision, not recall
        (_ACC[1] - _ACC[0], ch2.balanced_accuracy(ch2.CM_MODEL, adjusted=True)),  # adjusted B alone
    ]
}

MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]
VALUE_PARAMS = [
    pytest.param(ex, v, id=f"{ex}-{i}")
    for ex, vs in VALUE_MUTANTS.items()
    for i, v in enumerate(vs)
]


def test_every_exercise_has_mutants():
    assert set(MUTANTS) | set(VALUE_MUTANTS) == {
        n for n, ex in EXERCISES_CH2.items() if ex.kind != "judgement"
    }


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # mutants that divide 0/0 on purpose
        assert_mutant_caught(EXERCISES_CH2[name], mutant)


def assert_wrong_tuple_caught(ex, value) -> None:
    """The harness's value check, for an answer that is a tuple of numbers."""
    result = ex.check(value, strict=False)
    assert result.status == INCORRECT, f"{value!r} passed {ex.name}"
    with pytest.raises(CheckFailed):
        ex.check(value, strict=True)
    message = without_own_values(result.message)
    for v in ex.answer:
        for text in {f"{v:.3f}", f"{v:.2f}", f"{v:.6g}", repr(float(v))}:
            assert text not in message, f"{ex.name} reveals {text}: {message}"


@pytest.mark.parametrize("name, value", VALUE_PARAMS)
def test_wrong_value_is_caught(name, value):
    ex = EXERCISES_CH2[name]
    if isinstance(ex.answer, tuple):
        assert_wrong_tuple_caught(ex, value)
    else:
        assert_wrong_value_caught(ex, value)


def test_ex4_accepts_rounded_answers():
    assert ch2.ex4.check((-0.016, 0.462), strict=False).status == CORRECT
    assert ch2.ex4.check([-0.016, 0.4621], strict=False).status == CORRECT
    assert ch2.ex4.check((-0.016,), strict=False).status == INCORRECT


def test_ex3_accuracy_is_a_correct_answer():
    """The punchline of ex3: a learner who returns accuracy passes, because it is the same number."""
    assert (
        ch2.ex3.check(
            lambda y_true, y_pred: float(np.mean(np.asarray(y_true) == np.asarray(y_pred))),
            strict=False,
        ).status
        == CORRECT
    )


def test_mutant_messages_are_useful():
    m = ch2.ex2.check(ex2_absent_classes_count_as_zero, strict=False).message
    assert "class 1 never occurs but is predicted" in m
    m = ch2.ex2.check(ex2_nan_from_absent_class, strict=False).message
    assert "NaN" in m
    m = ch2.ex2.check(ex2_weighted_instead_of_macro, strict=False).message
    assert "case 1 of 10 (two classes)" in m
    m = ch2.ex1.check(ex1_with_bincount, strict=False).message
    assert "raised" in m and "270 dogs and 30 cats" in m


def test_exercise_notebook_contains_no_solution_code():
    text = CH2_EXERCISES.read_text(encoding="utf-8")
    for needle in (
        "return_counts=True)",
        "occurs.sum()",
        "support / support.sum()",
        "accuracy_b - accuracy_a",
        "Discussion",
    ):
        assert needle not in text, needle


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_smallest_class": "smallest_class",
        "ex1_error_rate": "error_rate",
        "ex1_uniform_guess": "uniform_guess",
    },
    "ex2": {
        "ex2_weighted_instead_of_macro": "weighted_not_macro",
        "ex2_predicted_counts": "column_sums",
        "ex2_transposed": "column_sums",  # a transposed matrix divides by columns
        "ex2_ignores_adjusted": "ignores_adjusted",
    },
    "ex3": {
        "ex3_macro_recall": "macro_recall",
        "ex3_weights_from_predictions": "weights_from_predictions",
        "ex3_weighted_precision": "weighted_precision",
    },
    "ex7": {
        "ex7_kappa_is_accuracy": "kappa_without_chance",
        "ex7_chance_from_true_shares_squared": "chance_from_truth_only",
        "ex7_informedness_for_mcc": "informedness",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH2[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH2, NAMED)
