"""Warnings: the same categories and messages as scikit-learn, attributed to the caller's line."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import assert_parity, run

import mltutor.metrics as mtm
from mltutor._validation import UndefinedMetricWarning

NO_PREDICTED_POSITIVE = ([0, 1, 1, 0], [0, 0, 0, 0])


def test_undefined_metric_warning_is_a_user_warning_named_like_sklearns():
    from sklearn.exceptions import UndefinedMetricWarning as Sk

    assert issubclass(UndefinedMetricWarning, UserWarning)
    assert UndefinedMetricWarning.__name__ == Sk.__name__
    assert mtm.UndefinedMetricWarning is UndefinedMetricWarning


@pytest.mark.parametrize("fn", ["precision_score", "f1_score", "fbeta_score", "recall_score"])
@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_zero_division_warns_only_when_asked(fn, zero_division):
    kwargs = {"beta": 2.0} if fn == "fbeta_score" else {}
    y_true, y_pred = NO_PREDICTED_POSITIVE if fn != "recall_score" else ([0, 0], [0, 1])
    outcome = assert_parity(
        getattr(skm, fn), getattr(mtm, fn), y_true, y_pred, zero_division=zero_division, **kwargs
    )
    assert bool(outcome.warnings) == (
        zero_division == "warn" and fn in ("precision_score", "recall_score")
    )


def test_precision_warning_text():
    with pytest.warns(UndefinedMetricWarning) as record:
        mtm.precision_score(*NO_PREDICTED_POSITIVE)
    assert str(record[0].message) == (
        "Precision is ill-defined and being set to 0.0 due to no predicted samples. "
        "Use `zero_division` parameter to control this behavior."
    )


def test_warning_points_at_the_callers_line():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        mtm.classification_report([0, 1], [1, 1])
    assert record and all(w.filename == __file__ for w in record)


def test_per_label_warning_wording_for_several_labels_and_samples():
    y_true = np.array([[1, 0], [0, 0]])
    y_pred = np.array([[0, 0], [0, 0]])
    for average in (None, "samples", "macro", "micro"):
        assert_parity(
            skm.precision_recall_fscore_support,
            mtm.precision_recall_fscore_support,
            y_true,
            y_pred,
            average=average,
        )


def test_f_score_warns_only_when_both_are_undefined():
    # f1_score warns only for F itself: labels with no true and no predicted samples.
    outcome = assert_parity(
        skm.f1_score, mtm.f1_score, [0, 1, 2], [0, 1, 1], labels=[0, 1, 3], average="macro"
    )
    assert {m for _, m in outcome.warnings} == {
        "F-score is ill-defined and being set to 0.0 in labels with no true nor predicted samples. "
        "Use `zero_division` parameter to control this behavior."
    }


def test_pos_label_ignored_warning():
    outcome = assert_parity(
        skm.recall_score, mtm.recall_score, [0, 1, 2], [0, 1, 1], average="macro", pos_label=2
    )
    assert (
        "UserWarning",
        "Note that pos_label (set to 2) is ignored when average != 'binary' (got "
        "'macro'). You may use labels=[pos_label] to specify a single positive class.",
    ) in outcome.warnings


def test_single_label_confusion_matrix_warning():
    outcome = assert_parity(skm.confusion_matrix, mtm.confusion_matrix, ["a", "a"], ["a", "a"])
    assert any("A single label was found" in m for _, m in outcome.warnings)


def test_balanced_accuracy_warns_about_classes_only_predicted():
    outcome = assert_parity(
        skm.balanced_accuracy_score, mtm.balanced_accuracy_score, [0, 0, 1], [0, 2, 1]
    )
    assert ("UserWarning", "y_pred contains classes not in y_true") in outcome.warnings


def test_report_warns_about_target_names_when_labels_given():
    outcome = assert_parity(
        skm.classification_report,
        mtm.classification_report,
        [0, 1, 2],
        [1, 1, 2],
        labels=[1, 2],
        target_names=["a", "b", "c"],
    )
    assert (
        "UserWarning",
        "labels size, 2, does not match size of target_names, 3",
    ) in outcome.warnings


def test_specificity_warns_with_its_own_wording():
    with pytest.warns(
        UndefinedMetricWarning, match="Specificity is ill-defined .* due to no negative samples"
    ):
        assert mtm.specificity_score([1, 1], [1, 1]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="in labels with no negative samples"):
        mtm.specificity_score([0, 0], [0, 0], labels=[0, 1], average=None)
    assert np.isnan(run(mtm.specificity_score, [1, 1], [1, 1], zero_division=np.nan).result)
    assert not run(mtm.specificity_score, [1, 1], [1, 1], zero_division=1.0).warnings


def test_no_warning_when_everything_is_defined():
    outcome = run(mtm.precision_recall_fscore_support, [0, 1, 2, 2], [0, 1, 2, 1])
    assert outcome.error is None and not outcome.warnings
