"""Checks of :func:`mltutor.report.evaluate`: class indices, the scores (logits, probabilities or
predicted classes), the class names, the groups of the group bootstrap and the counts.

:func:`check_evaluate_inputs` runs them all in the order ``evaluate`` documents and returns the
clean inputs, so that ``evaluate`` itself only computes.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any, NamedTuple

import numpy as np

from .arrays import as_numpy, float_eps
from .params import check_n_bins, check_scalar
from .stats import check_group_codes, check_n_resamples, varies_within_groups

__all__ = [
    "PROB_ATOL",
    "EvaluateInputs",
    "check_class_indices",
    "check_class_names",
    "check_evaluate_inputs",
    "check_report_groups",
    "probability_rows",
    "resolve_logits",
]

#: Rows of probabilities must lie in [0, 1] within this tolerance, and sum to 1 within it (or
#: within the rounding of their own dtype, if coarser: float16 rows of 3 sum to 1 +- 1.5e-3).
PROB_ATOL = 1e-4


class EvaluateInputs(NamedTuple):
    """``evaluate``'s arguments, checked.

    ``scores`` is the float64 ``(n, k)`` score matrix and ``logits`` says whether it holds
    logits (True) or probabilities (False); with 1-D predicted classes ``scores`` and ``logits``
    are None and ``preds`` holds them.
    """

    y: np.ndarray
    scores: np.ndarray | None
    logits: bool | None
    preds: np.ndarray | None
    k: int
    names: tuple[str, ...]
    groups: np.ndarray | None
    n_resamples: int
    top_confusions: int
    n_bins: int


def check_class_indices(values: Any, name: str) -> np.ndarray:
    """A non-empty 1-D array of class indices ``0 ... K-1`` (whole-number floats accepted), as
    int64."""
    arr = as_numpy(values, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D class indices, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if arr.dtype.kind in "fc":
        if not (np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))):
            raise TypeError(f"{name} must hold integer class indices 0 ... K-1, got non-integers")
        arr = arr.astype(np.int64)
    elif arr.dtype.kind == "b" or arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer class indices 0 ... K-1, got dtype {arr.dtype}")
    if arr.min() < 0:
        raise ValueError(f"{name} must hold class indices 0 ... K-1, found {int(arr.min())}")
    return arr.astype(np.int64)


def check_report_groups(groups: Any, y: np.ndarray) -> np.ndarray | None:
    """One group id per sample, each group within one true class (the bootstrap's strata)."""
    if groups is None:
        return None
    groups, code = check_group_codes(groups, y.shape[0])
    if varies_within_groups(code, y):
        raise ValueError(
            "groups must not mix classes: every group holds samples of one true class "
            "(use group ids that are unique across classes)"
        )
    return groups


def check_class_names(class_names: Any, k: int | None) -> tuple[str, ...] | None:
    """None, or ``k`` unique names (any ``k`` when ``k`` is None), as a tuple of str."""
    if class_names is None:
        return None
    if isinstance(class_names, str):
        raise TypeError("class_names must be a sequence of names, not a single string")
    names = tuple(str(c) for c in class_names)
    if k is not None and len(names) != k:
        raise ValueError(f"class_names has {len(names)} entries but the scores have {k} columns")
    if len(set(names)) != len(names):
        raise ValueError("class_names must be unique")
    return names


def probability_rows(scores: np.ndarray, eps: float) -> np.ndarray:
    """Which rows are probabilities: in [0, 1] and summing to 1.

    The entries may stray from [0, 1] by 1e-4 only (arithmetic noise such as -1e-9: rounding a
    probability to a coarser dtype never takes it outside); the sum by 1e-4 or ``k * eps``, the
    rounding of the dtype the scores came in (``eps``), if that is coarser.
    """
    k = scores.shape[1]
    in_range = np.all((scores >= -PROB_ATOL) & (scores <= 1 + PROB_ATOL), axis=1)
    return in_range & (np.abs(scores.sum(axis=1) - 1.0) <= max(PROB_ATOL, k * eps))


def _not_probabilities(scores: np.ndarray, rows: np.ndarray) -> str:
    """The first row that is not a probability vector, and how to make it one, for a message."""
    bad = int(np.flatnonzero(~rows)[0])
    row = scores[bad]
    return (
        f"row {bad} ({np.array2string(row, precision=4, threshold=8)}) sums to "
        f"{row.sum():.6g}, with entries from {row.min():.4g} to {row.max():.4g}. If they "
        "are probabilities rounded on the way (saved with a few decimals, say), renormalise "
        "them first: P / P.sum(axis=1, keepdims=True)"
    )


def resolve_logits(scores: np.ndarray, logits: Any, eps: float) -> bool:
    """Whether the score rows are logits (True) or probabilities (False).

    ``"auto"`` takes the scores as probabilities when every row is one (up to the rounding of
    the dtype they came in, ``eps``), as logits when no row is, or when fewer than half are and
    some score is negative (a few rows of logits look like probabilities by chance: 2 classes of
    100,000 samples have some), and refuses any other mix: a softmax of rows that are
    probabilities changes every calibration number without a word.  ``False`` is refused when
    some row is not a probability vector.
    """
    if isinstance(logits, str) and logits == "auto":
        rows = probability_rows(scores, eps)
        if rows.all():
            return False
        if not rows.any() or (2 * rows.sum() < rows.size and scores.min() < -PROB_ATOL):
            return True
        raise ValueError(
            f"scores_or_logits: {int(rows.sum())} of {rows.size} rows are probabilities (in "
            "[0, 1], summing to 1) and the others are not: "
            f"{_not_probabilities(scores, rows)}; if they are logits, pass logits=True "
            "(softmax every row)"
        )
    if logits is not True and logits is not False:
        raise ValueError(f"logits must be 'auto', True or False, got {logits!r}")
    if not logits:
        rows = probability_rows(scores, eps)
        if not rows.all():
            raise ValueError(
                "logits=False but some rows are not probabilities (each row must lie "
                f"in [0, 1] and sum to 1): {_not_probabilities(scores, rows)}; if "
                "they are logits or other raw scores, pass logits=True (softmax "
                "every row)"
            )
    return logits


def check_evaluate_inputs(
    y_true: Any,
    scores_or_logits: Any,
    *,
    class_names: Any,
    n_resamples: Any,
    logits: Any,
    top_confusions: Any,
    n_bins: Any,
    groups: Any,
) -> EvaluateInputs:
    """Every check of :func:`mltutor.report.evaluate`, in the order of its documentation."""
    y = check_class_indices(y_true, "y_true")
    scores = as_numpy(scores_or_logits, "scores_or_logits")
    n_resamples = check_n_resamples(n_resamples)
    top_confusions = check_scalar(top_confusions, "top_confusions", Integral, min_val=0)
    n_bins = check_n_bins(n_bins)
    preds, eps = None, 0.0
    if scores.ndim == 2:
        if scores.dtype.kind not in "iufb" or scores.dtype.kind == "b":
            raise TypeError(f"scores_or_logits must be numbers, got dtype {scores.dtype}")
        eps = float_eps(scores_or_logits, scores)  # of the dtype given (bfloat16: 2**-7)
        scores = scores.astype(np.float64)
        if not np.all(np.isfinite(scores)):
            raise ValueError("scores_or_logits holds NaN or infinite values")
        k = scores.shape[1]
        names = check_class_names(class_names, k)
    elif scores.ndim == 1:
        names = check_class_names(class_names, None)
        preds = check_class_indices(scores, "scores_or_logits (1-D: predicted classes)")
        k = len(names) if names is not None else int(max(y.max(), preds.max())) + 1
        if preds.max() >= k:
            raise ValueError(
                f"a predicted class index ({int(preds.max())}) is outside the {k} class_names"
            )
    else:
        raise ValueError(
            "scores_or_logits must have shape (n_samples, n_classes) (or be 1-D "
            f"predicted classes), got shape {scores.shape}"
        )
    if scores.shape[0] != y.shape[0]:
        raise ValueError(
            f"y_true has {y.shape[0]} samples but scores_or_logits has {scores.shape[0]}"
        )
    if k < 2:
        raise ValueError(f"need at least 2 classes, got {k}")
    if y.max() >= k:
        raise ValueError(
            f"y_true holds class index {int(y.max())} but there are only {k} "
            "classes (score columns)"
        )
    if names is None:
        names = tuple(str(i) for i in range(k))
    groups = check_report_groups(groups, y)
    if preds is not None:
        return EvaluateInputs(
            y, None, None, preds, k, names, groups, n_resamples, top_confusions, n_bins
        )
    logits = resolve_logits(scores, logits, eps)
    return EvaluateInputs(
        y, scores, logits, None, k, names, groups, n_resamples, top_confusions, n_bins
    )
