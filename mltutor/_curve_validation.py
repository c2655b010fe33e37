"""Input checks for the score-based metrics (ROC AUC, average precision).

The binary checks (labels + one score per sample) live with the kernel in :mod:`mltutor.curves`;
these add what the averaged scores need: scikit-learn's target types (``type_of_target``), score
matrices, option arguments and the ``labels`` of a multiclass ROC AUC.  Nothing here counts or
divides.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from ._validation import _as_array, _kind, check_real_scores
from .curves import _check_scores, _check_weights, _column_or_1d, unique_labels

__all__ = [
    "check_labels_for_scores",
    "check_max_fpr",
    "check_option",
    "check_score_array",
    "check_score_weights",
    "target_type",
]


def check_option(value: Any, options: tuple, name: str) -> Any:
    """``value`` must be one of ``options`` (strings or None)."""
    if value is None and None in options:
        return None
    if isinstance(value, str) and value in options:
        return value
    shown = ", ".join(repr(o) for o in options)
    raise ValueError(f"{name} must be one of {shown}; got {value!r}.")


def check_max_fpr(max_fpr: Any) -> float | None:
    """``max_fpr`` is None or a real number in (0, 1]."""
    if max_fpr is None:
        return None
    if isinstance(max_fpr, (bool, np.bool_)) or not isinstance(max_fpr, Real):
        raise TypeError(f"max_fpr must be None or a real number in (0, 1]; got {max_fpr!r}.")
    if not 0 < max_fpr <= 1:  # also refuses NaN
        raise ValueError(f"max_fpr must be in the range (0, 1]; got {max_fpr!r}.")
    return float(max_fpr)


def target_type(y_true: Any) -> tuple[np.ndarray, str]:
    """The labels as an array and scikit-learn's ``type_of_target`` of them.

    Returns ``(y, kind)`` with ``kind`` one of 'binary' (at most two distinct values), 'multiclass',
    'multilabel-indicator', 'continuous', 'continuous-multioutput', 'multiclass-multioutput' or
    'unknown'.  A column vector (n, 1) is flattened.  NaN/inf labels, bytes and mixed types are
    refused here.
    """
    y, sparse = _as_array(y_true, "y_true")
    kind = _kind(y, "y_true")
    if kind != "labels":
        return y, kind
    if y.ndim == 2:
        y = y.reshape(-1)
    return y, "binary" if unique_labels(y).shape[0] <= 2 else "multiclass"


def check_score_array(y_score: Any, n_samples: int) -> np.ndarray:
    """Scores of shape (n_samples,) or (n_samples, n_columns): real, finite, non-empty."""
    if y_score is None or isinstance(y_score, (str, bytes)) or np.ndim(y_score) == 0:
        raise TypeError(f"y_score must be an array-like of scores; got {y_score!r}.")
    s = np.asarray(y_score)
    if s.ndim > 2:
        raise ValueError(f"y_score must be 1-D or 2-D; got an array of shape {s.shape}.")
    if s.ndim == 2 and s.shape[1] == 0:
        raise ValueError(f"y_score has shape {s.shape}: it needs at least one column of scores.")
    s = _check_scores(s) if s.ndim == 1 else check_real_scores(s, dtype_error=TypeError)
    if s.shape[0] != n_samples:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {n_samples}, y_score has {s.shape[0]}."
        )
    if n_samples == 0:
        raise ValueError("Found empty input: y_true and y_score have 0 samples; need at least 1.")
    return s


def check_score_weights(sample_weight: Any, n_samples: int, *, allow_all_zero: bool) -> np.ndarray | None:
    """float64 weights, one per sample, finite.  ``allow_all_zero`` for ``average='samples'``,
    where the weights only average the per-sample scores (an all-zero sum is refused later with
    ZeroDivisionError, as scikit-learn's ``np.average``)."""
    if sample_weight is None:
        return None
    if allow_all_zero:
        if isinstance(sample_weight, (str, bytes)) or np.ndim(sample_weight) == 0:
            raise TypeError(f"sample_weight must be an array-like; got {sample_weight!r}.")
        w = np.asarray(sample_weight)
        if w.dtype.kind not in "biuf":
            raise TypeError(f"sample_weight must hold real numbers; got dtype {w.dtype}.")
        w = _column_or_1d(w, "sample_weight").astype(np.float64)
        if w.shape[0] != n_samples:
            raise ValueError(f"sample_weight has {w.shape[0]} weights but there are {n_samples} samples.")
        if not np.isfinite(w).all():
            raise ValueError("Input sample_weight contains NaN or infinity; weights must be finite.")
        return w
    return _check_weights(sample_weight, n_samples)


def check_labels_for_scores(labels: Any, y_true: np.ndarray, n_columns: int) -> np.ndarray:
    """The classes that the columns of a multiclass score matrix stand for.

    Without ``labels``: the sorted classes of ``y_true``, one per column.  With ``labels``: unique,
    sorted, one per column, and containing every class of ``y_true``.
    """
    if labels is None:
        classes = unique_labels(y_true)
        if classes.shape[0] != n_columns:
            raise ValueError(
                f"Number of classes in y_true ({classes.shape[0]}) not equal to the number of "
                f"columns in 'y_score' ({n_columns}); pass labels= to name every column."
            )
        return classes
    given, _ = _as_array(labels, "labels")
    given = _column_or_1d(given, "labels")
    classes = np.unique(given)
    if classes.shape[0] != given.shape[0]:
        raise ValueError("Parameter 'labels' must be unique")
    if not np.array_equal(classes, given):
        raise ValueError("Parameter 'labels' must be ordered (sorted increasingly)")
    if classes.shape[0] != n_columns:
        raise ValueError(
            f"Number of given labels, {classes.shape[0]}, not equal to the number of columns in "
            f"'y_score', {n_columns}"
        )
    same_kind = (classes.dtype.kind == "U") == (y_true.dtype.kind == "U")
    if not same_kind or np.setdiff1d(y_true, classes).shape[0]:
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes
