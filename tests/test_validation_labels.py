"""Label arrays of every dtype: scikit-learn's answer, or a clear refusal naming the argument (issue 12)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from _strategies import assert_parity

import mltutor.metrics as M

_r = np.random.default_rng(5)
N = 60
_Y2 = _r.integers(0, 2, N)
_Y3 = _r.integers(0, 3, N)
_P3 = np.where(_r.random(N) < 0.7, _Y3, _r.integers(0, 3, N))
_SCORE = _r.random(N)
_PROBA = _r.dirichlet([1, 1, 1], N)

ACCEPTED = {
    "bool": lambda y: y.astype(bool),
    "int8": lambda y: y.astype(np.int8),
    "uint8": lambda y: y.astype(np.uint8),
    "uint64": lambda y: y.astype(np.uint64),
    "float16": lambda y: y.astype(np.float16),
    "huge int64": lambda y: np.array([-(2**62), 7, 2**62])[y],
    "huge uint64": lambda y: np.array([0, 5, 2**64 - 1], dtype=np.uint64)[y],
    "pandas boolean": lambda y: pd.Series(y.astype(bool), dtype="boolean"),
    "pandas Int64": lambda y: pd.Series(y, dtype="Int64"),
    "pandas category": lambda y: pd.Series(y.astype(str)).astype("category"),
}

METRICS = {
    "accuracy": lambda m, t, p: m.accuracy_score(t, p),
    "f1 macro": lambda m, t, p: m.f1_score(t, p, average="macro"),
    "confusion matrix": lambda m, t, p: m.confusion_matrix(t, p),
    "classification report": lambda m, t, p: m.classification_report(t, p, output_dict=True),
}


@pytest.mark.parametrize("metric", METRICS, ids=list(METRICS))
@pytest.mark.parametrize("kind", ACCEPTED, ids=list(ACCEPTED))
def test_label_dtypes_match_sklearn(kind: str, metric: str) -> None:
    base = _Y2 if kind.endswith("boolean") or kind == "bool" else _Y3
    pred = _P3 % 2 if base is _Y2 else _P3
    t, p = ACCEPTED[kind](base), ACCEPTED[kind](pred)
    fn = METRICS[metric]
    assert_parity(lambda a, b: fn(skm, a, b), lambda a, b: fn(M, a, b), t, p)


@pytest.mark.parametrize("kind", ["bool", "int8", "uint8", "float16", "huge int64", "pandas Int64"])
def test_label_dtypes_match_sklearn_for_scores(kind: str) -> None:
    base = _Y2 if kind == "bool" else _Y3
    y = ACCEPTED[kind](base)
    if kind == "bool":
        assert_parity(skm.roc_auc_score, M.roc_auc_score, y, _SCORE)
        assert_parity(skm.log_loss, M.log_loss, y, _SCORE)
    else:
        assert_parity(skm.roc_auc_score, M.roc_auc_score, y, _PROBA, multi_class="ovr")
        assert_parity(skm.log_loss, M.log_loss, y, _PROBA)
        assert_parity(skm.top_k_accuracy_score, M.top_k_accuracy_score, y, _PROBA, k=2)


# --------------------------------------------------------------------------------------------
# Missing values: "contains NaN" (scikit-learn's words) and that they are missing values
# --------------------------------------------------------------------------------------------

MISSING = {
    "pandas boolean with NA": pd.Series([True, False, pd.NA, True], dtype="boolean"),
    "pandas Int64 with NA": pd.Series([1, 0, pd.NA, 1], dtype="Int64"),
    "pandas string with NA": pd.Series(["a", "b", pd.NA, "a"], dtype="string"),
    "object array with None": np.array(["a", "b", None, "a"], dtype=object),
}


@pytest.mark.parametrize("name", MISSING, ids=list(MISSING))
@pytest.mark.parametrize("argument", ["y_true", "y_pred"])
def test_missing_labels_are_named_as_missing(name: str, argument: str) -> None:
    """A pandas ``boolean`` Series with NA used to get "mixes label types (e.g. str and int)"."""
    y = MISSING[name]
    complete = pd.Series(y).fillna(pd.Series(y).dropna().iloc[0]).to_numpy()
    if y.dtype == object or str(y.dtype) == "string":
        complete = complete.astype(str)
    elif str(y.dtype) == "boolean":
        complete = complete.astype(bool)
    else:
        complete = complete.astype(np.int64)
    args = (y, complete) if argument == "y_true" else (complete, y)
    with pytest.raises(ValueError, match=rf"Input {argument} contains NaN: missing values"):
        M.accuracy_score(*args)


@pytest.mark.parametrize(
    "fn",
    [
        lambda y: M.roc_auc_score(y, [0.1, 0.4, 0.3, 0.8]),
        lambda y: M.average_precision_score(y, [0.1, 0.4, 0.3, 0.8]),
        lambda y: M.brier_score_loss(y, [0.1, 0.4, 0.3, 0.8]),
        lambda y: M.log_loss(y, [0.1, 0.4, 0.3, 0.8]),
        lambda y: M.top_k_accuracy_score(y, [0.1, 0.4, 0.3, 0.8], k=1),
        lambda y: M.roc_curve(y, [0.1, 0.4, 0.3, 0.8]),
    ],
    ids=["roc_auc", "average_precision", "brier", "log_loss", "top_k", "roc_curve"],
)
def test_missing_labels_refused_by_score_metrics(fn) -> None:
    with pytest.raises(ValueError, match="y_true contains NaN: missing values"):
        fn(pd.Series([True, False, pd.NA, True], dtype="boolean"))


@pytest.mark.parametrize(
    "bad, word", [(np.nan, "NaN"), (np.inf, "infinity"), (-np.inf, "infinity")]
)
def test_non_finite_float_labels_refused(bad: float, word: str) -> None:
    y = np.array([0.0, 1.0, bad, 1.0])
    for fn in (M.accuracy_score, M.f1_score, M.confusion_matrix):
        with pytest.raises(ValueError, match=f"Input y_true contains {word}"):
            fn(y, np.zeros(4))
    with pytest.raises(ValueError, match=f"Input y_true contains {word}"):
        M.roc_auc_score(y, [0.1, 0.2, 0.3, 0.4])


def test_object_labels_mixing_types_refused() -> None:
    y = np.array([1, "a", 2, "b"], dtype=object)
    with pytest.raises(TypeError, match="y_true mixes label types"):
        M.accuracy_score(y, y)
    with pytest.raises(ValueError, match="non-string values"):
        M.accuracy_score(np.array([1, 0, 1], dtype=object), np.array([1, 0, 1], dtype=object))
