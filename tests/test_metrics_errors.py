"""Bad input: mltutor refuses wherever scikit-learn refuses, with a message that names the argument.

Each case runs both libraries: scikit-learn must raise too (same exception type; its parameter
errors are both ValueError and TypeError), unless the case is one of mltutor's documented,
deliberate refusals (``sklearn_accepts=True``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from _strategies import run, same_error_type

import mltutor.metrics as mtm

Y2 = np.array([[0, 1], [1, 1], [1, 0]])

# (id, function name, args, kwargs, exception, words the message must contain, sklearn accepts)
CASES = [
    (
        "length",
        "accuracy_score",
        ([0, 1, 1], [0, 1]),
        {},
        ValueError,
        ["y_true has 3", "y_pred has 2"],
        False,
    ),
    ("empty", "f1_score", ([], []), {}, ValueError, ["empty", "y_true", "y_pred"], False),
    (
        "empty cm with labels",
        "confusion_matrix",
        ([], []),
        {"labels": [0, 1]},
        ValueError,
        ["empty"],
        False,
    ),
    (
        "2-D not multilabel",
        "precision_score",
        (np.array([[0, 3], [1, 2]]), np.array([[0, 3], [1, 2]])),
        {"average": "macro"},
        ValueError,
        ["multiclass-multioutput", "y_true", "y_pred"],
        False,
    ),
    (
        "3-D",
        "accuracy_score",
        (np.zeros((2, 2, 2)), np.zeros((2, 2, 2))),
        {},
        ValueError,
        ["y_true", "1-D"],
        False,
    ),
    (
        "NaN in y_true",
        "accuracy_score",
        ([1.0, np.nan, 2.0], [1, 2, 2]),
        {},
        ValueError,
        ["y_true", "NaN"],
        False,
    ),
    (
        "inf in y_pred",
        "recall_score",
        ([1, 0, 1], [1.0, 0.0, np.inf]),
        {},
        ValueError,
        ["y_pred", "infinity"],
        False,
    ),
    (
        "continuous",
        "f1_score",
        ([0, 1, 1], [0.2, 0.7, 1.0]),
        {},
        ValueError,
        ["continuous", "y_pred"],
        False,
    ),
    (
        "str and int",
        "confusion_matrix",
        (["a", "b"], [1, 2]),
        {},
        ValueError,
        ["string", "number", "y_true"],
        False,
    ),
    (
        "mixed object",
        "accuracy_score",
        (np.array(["a", 1], dtype=object), ["a", "b"]),
        {},
        TypeError,
        ["y_true"],
        False,
    ),
    ("bytes", "accuracy_score", ([b"a"], [b"a"]), {}, TypeError, ["y_true", "bytes"], False),
    ("scalar", "accuracy_score", (1, 1), {}, TypeError, ["y_true", "array-like"], False),
    ("string as y", "accuracy_score", ("ab", "ab"), {}, TypeError, ["y_true"], False),
    (
        "multiclass with binary average",
        "f1_score",
        ([0, 1, 2], [0, 2, 1]),
        {},
        ValueError,
        [
            "Target is multiclass but average='binary'. Please choose another average setting, one of "
            "[None, 'micro', 'macro', 'weighted']."
        ],
        False,
    ),
    (
        "multilabel with binary average",
        "precision_score",
        (Y2, Y2),
        {},
        ValueError,
        ["Target is multilabel-indicator but average='binary'", "'samples'"],
        False,
    ),
    (
        "pos_label absent",
        "f1_score",
        ([0, 1, 1], [0, 1, 0]),
        {"pos_label": 2},
        ValueError,
        ["pos_label=2 is not a valid label", "[0 1]"],
        False,
    ),
    (
        "pos_label default with strings",
        "recall_score",
        (["no", "yes"], ["yes", "yes"]),
        {},
        ValueError,
        ["pos_label=1", "'no' 'yes'"],
        False,
    ),
    (
        "unknown average",
        "recall_score",
        ([0, 1], [0, 1]),
        {"average": "mean"},
        ValueError,
        ["average", "'mean'"],
        False,
    ),
    (
        "negative beta",
        "fbeta_score",
        ([0, 1], [0, 1]),
        {"beta": -1.0},
        ValueError,
        ["beta", ">= 0"],
        False,
    ),
    (
        "beta not a number",
        "fbeta_score",
        ([0, 1], [0, 1]),
        {"beta": "2"},
        TypeError,
        ["beta"],
        False,
    ),
    (
        "labels none in y_true",
        "confusion_matrix",
        ([0, 1], [0, 2]),
        {"labels": [2, 5]},
        ValueError,
        ["At least one label specified must be in y_true", "labels=[2, 5]"],
        False,
    ),
    (
        "labels empty",
        "confusion_matrix",
        ([0, 1], [0, 1]),
        {"labels": []},
        ValueError,
        ["'labels'"],
        False,
    ),
    (
        "multilabel vs multiclass",
        "accuracy_score",
        (Y2, [0, 1, 2]),
        {},
        ValueError,
        [
            "mix of multilabel-indicator and multiclass",
            "y_true is multilabel-indicator",
            "y_pred is multiclass",
        ],
        False,
    ),
    (
        "multilabel different widths",
        "f1_score",
        (Y2, np.array([[0, 1, 1], [1, 1, 0], [0, 0, 1]])),
        {"average": "macro"},
        ValueError,
        ["different numbers of labels", "y_true has 2", "y_pred has 3"],
        False,
    ),
    (
        "multilabel labels out of range",
        "multilabel_confusion_matrix",
        (Y2, Y2),
        {"labels": [0, 5]},
        ValueError,
        ["All labels must be in [0, n labels)", "5 > 1"],
        False,
    ),
    (
        "multilabel negative label",
        "multilabel_confusion_matrix",
        (Y2, Y2),
        {"labels": [-1]},
        ValueError,
        ["-1 < 0"],
        False,
    ),
    (
        "confusion_matrix multilabel",
        "confusion_matrix",
        (Y2, Y2),
        {},
        ValueError,
        ["multilabel-indicator is not supported", "multilabel_confusion_matrix"],
        False,
    ),
    (
        "balanced accuracy multilabel",
        "balanced_accuracy_score",
        (Y2, Y2),
        {},
        ValueError,
        ["multilabel-indicator is not supported"],
        False,
    ),
    (
        "samples average multiclass",
        "f1_score",
        ([0, 1, 2], [0, 1, 1]),
        {"average": "samples"},
        ValueError,
        ["Samplewise metrics", "average='samples'"],
        False,
    ),
    (
        "samplewise multiclass",
        "multilabel_confusion_matrix",
        ([0, 1, 2], [0, 1, 1]),
        {"samplewise": True},
        ValueError,
        ["Samplewise metrics"],
        False,
    ),
    (
        "sample_weight length",
        "accuracy_score",
        ([0, 1, 1], [0, 1, 1]),
        {"sample_weight": [1, 2]},
        ValueError,
        ["sample_weight has 2"],
        False,
    ),
    (
        "sample_weight NaN",
        "f1_score",
        ([0, 1, 1], [0, 1, 1]),
        {"sample_weight": [1, np.nan, 1]},
        ValueError,
        ["sample_weight", "NaN"],
        False,
    ),
    (
        "sample_weight inf",
        "confusion_matrix",
        ([0, 1, 1], [0, 1, 1]),
        {"sample_weight": [1, np.inf, 1]},
        ValueError,
        ["sample_weight", "infinity"],
        False,
    ),
    (
        "sample_weight 2-D",
        "accuracy_score",
        ([0, 1, 1], [0, 1, 1]),
        {"sample_weight": [[1], [2], [3]]},
        ValueError,
        ["sample_weight", "1-D"],
        False,
    ),
    (
        "sample_weight scalar",
        "accuracy_score",
        ([0, 1, 1], [0, 1, 1]),
        {"sample_weight": 2.0},
        TypeError,
        ["sample_weight"],
        False,
    ),
    (
        "sample_weight all zero",
        "precision_score",
        ([0, 1, 1], [0, 1, 1]),
        {"sample_weight": [0, 0, 0]},
        ValueError,
        ["sample_weight", "non-zero"],
        False,
    ),
    # One weight check for every family (issue 12): the same refusals in curves, areas, losses.
    (
        "sample_weight NaN (roc_auc)",
        "roc_auc_score",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [1, np.nan, 1, 1]},
        ValueError,
        ["sample_weight", "NaN"],
        False,
    ),
    (
        "sample_weight inf (average precision)",
        "average_precision_score",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [1, np.inf, 1, 1]},
        ValueError,
        ["sample_weight", "infinity"],
        False,
    ),
    (
        "sample_weight length (roc_curve)",
        "roc_curve",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [1, 2, 3]},
        ValueError,
        ["sample_weight has 3", "4 samples"],
        False,
    ),
    (
        "sample_weight all zero (pr curve)",
        "precision_recall_curve",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [0, 0, 0, 0]},
        ValueError,
        ["sample_weight", "non-zero"],
        False,
    ),
    (
        "sample_weight NaN (log_loss)",
        "log_loss",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [1, np.nan, 1, 1]},
        ValueError,
        ["sample_weight", "NaN"],
        False,
    ),
    (
        "sample_weight inf (brier)",
        "brier_score_loss",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [1, np.inf, 1, 1]},
        ValueError,
        ["sample_weight", "infinity"],
        False,
    ),
    (
        "sample_weight 2-D (log_loss)",
        "log_loss",
        ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]),
        {"sample_weight": [[1], [1], [1], [1]]},
        ValueError,
        ["sample_weight", "1-D"],
        False,
    ),
    (
        "sample_weight strings in an object array",
        "f1_score",
        ([0, 1, 1, 0], [0, 1, 0, 0]),
        {"sample_weight": np.array(["1", "1", "1", "1"], dtype=object)},
        TypeError,
        ["sample_weight", "strings"],
        False,
    ),
    (
        "pandas boolean with NA",
        "accuracy_score",
        (pd.Series([True, pd.NA, False], dtype="boolean"), [True, True, False]),
        {},
        ValueError,
        ["y_true contains NaN", "missing values"],
        False,
    ),
    (
        "pandas Int64 with NA in y_pred",
        "f1_score",
        ([1, 0, 1], pd.Series([1, pd.NA, 0], dtype="Int64")),
        {},
        ValueError,
        ["y_pred contains NaN", "missing values"],
        False,
    ),
    (
        "normalize unknown",
        "confusion_matrix",
        ([0, 1], [0, 1]),
        {"normalize": "rows"},
        ValueError,
        ["normalize", "'rows'", "'true'"],
        False,
    ),
    (
        "zero_division 2",
        "f1_score",
        ([0, 1], [0, 1]),
        {"zero_division": 2},
        ValueError,
        ["zero_division", "2"],
        False,
    ),
    (
        "zero_division 'nan' string",
        "precision_score",
        ([0, 1], [0, 1]),
        {"zero_division": "nan"},
        ValueError,
        ["zero_division", "np.nan"],
        False,
    ),
    (
        "zero_division None",
        "recall_score",
        ([0, 1], [0, 1]),
        {"zero_division": None},
        ValueError,
        ["zero_division"],
        False,
    ),
    (
        "digits negative",
        "classification_report",
        ([0, 1], [0, 1]),
        {"digits": -1},
        ValueError,
        ["digits"],
        False,
    ),
    (
        "normalize not bool",
        "accuracy_score",
        ([0, 1], [0, 1]),
        {"normalize": "yes"},
        TypeError,
        ["normalize"],
        False,
    ),
    (
        "target_names size",
        "classification_report",
        ([0, 1, 2], [0, 1, 1]),
        {"target_names": ["a", "b"]},
        ValueError,
        ["Number of classes, 3", "target_names, 2"],
        False,
    ),
    (
        "pos_label a list",
        "f1_score",
        ([0, 1], [0, 1]),
        {"pos_label": [1]},
        TypeError,
        ["pos_label"],
        False,
    ),
    (
        "labels a scalar",
        "precision_recall_fscore_support",
        ([0, 1], [0, 1]),
        {"labels": 1},
        TypeError,
        ["labels"],
        False,
    ),
    # Deliberate refusals where scikit-learn returns something misleading (documented in metrics.py).
    (
        "labels of the wrong type",
        "confusion_matrix",
        ([0, 1, 1], [1, 1, 1]),
        {"labels": ["a", 0]},
        ValueError,
        ["labels", "numbers"],
        True,
    ),
    (
        "labels of the wrong type (prfs)",
        "precision_recall_fscore_support",
        ([0, 1], [0, 1]),
        {"labels": ["a"]},
        ValueError,
        ["labels", "same type"],
        True,
    ),
    (
        "repeated labels",
        "confusion_matrix",
        ([0, 1, 1], [1, 1, 1]),
        {"labels": [1, 1, 0]},
        ValueError,
        ["labels", "repeat"],
        True,
    ),
    (
        "2-D labels",
        "confusion_matrix",
        ([0, 1], [0, 1]),
        {"labels": [[0, 1]]},
        ValueError,
        ["labels", "1-D"],
        True,
    ),
    # scikit-learn returns nan for NaN weights here; a NaN weight is never meant.
    (
        "sample_weight NaN (top-k)",
        "top_k_accuracy_score",
        ([0, 1, 2, 1], np.eye(3)[[0, 1, 2, 0]]),
        {"sample_weight": [1, np.nan, 1, 1], "k": 2},
        ValueError,
        ["sample_weight", "NaN"],
        True,
    ),
    (
        "sample_weight NaN (ndcg)",
        "ndcg_score",
        (np.eye(3)[[0, 1, 2, 0]], np.eye(3)[[0, 2, 1, 0]]),
        {"sample_weight": [1, np.nan, 1, 1]},
        ValueError,
        ["sample_weight", "NaN"],
        True,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_refused_clearly(case):
    _, name, args, kwargs, exc_type, words, sklearn_accepts = case
    with pytest.raises(exc_type) as info:
        getattr(mtm, name)(*args, **kwargs)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    reference = run(getattr(skm, name), *args, **kwargs)
    if sklearn_accepts:
        assert reference.error is None, f"sklearn now refuses too: {reference.error!r}"
    else:
        assert reference.error is not None, f"sklearn accepts this: {reference.result!r}"
        assert same_error_type(reference.error, info.value), f"sklearn raised {reference.error!r}"


def test_specificity_refuses_like_recall():
    with pytest.raises(ValueError, match="average='binary'"):
        mtm.specificity_score([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="pos_label=5"):
        mtm.specificity_score([0, 1], [0, 1], pos_label=5)
    with pytest.raises(ValueError, match="zero_division"):
        mtm.specificity_score([0, 1], [0, 1], zero_division="yes")


def test_sparse_one_dimensional_input_is_refused_like_sklearn():
    scipy_sparse = pytest.importorskip("scipy.sparse")
    y = scipy_sparse.csr_matrix(np.array([[0], [1], [1]]))
    with pytest.raises(TypeError, match="Sparse input"):
        mtm.accuracy_score(y, y)
    Y = scipy_sparse.csr_matrix(Y2)
    assert mtm.f1_score(Y, Y, average="macro") == skm.f1_score(Y, Y, average="macro")


def test_negative_weights_are_accepted_as_in_sklearn():
    args = ([0, 1, 1], [1, 1, 1])
    w = [1.0, -0.5, 2.0]
    np.testing.assert_allclose(
        mtm.confusion_matrix(*args, sample_weight=w), skm.confusion_matrix(*args, sample_weight=w)
    )


def test_weights_summing_to_zero_cannot_normalise():
    with pytest.raises(ZeroDivisionError):
        skm.accuracy_score([0, 1], [0, 0], sample_weight=[1.0, -1.0])
    with pytest.raises(ZeroDivisionError):
        mtm.accuracy_score([0, 1], [0, 0], sample_weight=[1.0, -1.0])
