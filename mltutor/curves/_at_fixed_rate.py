"""Constrained operating points: the best precision at a required recall, the best recall at a
required precision, and their scorer-friendly forms, from the kernel's counts."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_binary_scores
from .._validation.decisions import check_min_rate
from ._counts import BinaryCounts, cumulative_counts

__all__ = [
    "precision_at_recall",
    "precision_at_recall_score",
    "recall_at_precision",
    "recall_at_precision_score",
]


def _rates(y_true, y_score, pos_label, sample_weight) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated ``(precision, recall, thresholds)``, one per distinct score, highest first."""
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    counts: BinaryCounts = cumulative_counts(is_positive, scores, weights)
    if not counts.tps[-1] > 0:
        raise ValueError("y_true has no positive samples (or they weigh 0): recall is not defined.")
    flagged = counts.tps + counts.fps
    precision = np.divide(counts.tps, flagged, out=np.zeros_like(counts.tps), where=flagged > 0)
    return precision, counts.tps / counts.tps[-1], counts.thresholds


def _best(value: np.ndarray, other: np.ndarray, thresholds: np.ndarray, allowed: np.ndarray):
    """The lexicographic maximum of ``(value, other, threshold)`` over the allowed points;
    ``(0.0, nan)`` when none is allowed or the best value is 0 (torchmetrics' convention)."""
    if not allowed.any():
        return 0.0, float("nan")
    v, o, t = value[allowed], other[allowed], thresholds[allowed]
    i = np.lexsort((t, o, v))[-1]  # last key sorts first: value, then other, then threshold
    if v[i] == 0:
        return 0.0, float("nan")
    return float(v[i]), float(t[i])


def precision_at_recall(
    y_true: Any,
    y_score: Any,
    *,
    min_recall: float,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[float, float]:
    r"""The highest precision among thresholds whose recall is at least ``min_recall``.

    Over the distinct scores :math:`t` (predict positive when ``score >= t``),

    .. math:: \max_t \; \mathrm{precision}(t) \quad\text{subject to}\quad
              \mathrm{recall}(t) \ge r_\text{min},

    with the threshold that attains it.  Ties follow torchmetrics'
    ``binary_precision_at_fixed_recall``: among equal precisions the larger recall, then the
    larger threshold.  A target no threshold reaches gives ``(0.0, nan)``, as in torchmetrics 1.9
    (which uses the same NaN threshold when the best precision is 0; older releases returned the
    threshold 1e6).  Measured on one test set,
    the recall of the returned threshold on new data is itself uncertain: see chapter 6.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, binary (or multiclass with ``pos_label``); at least one positive.
    y_score : array-like of shape (n_samples,)
        Scores, larger means more positive.  Finite.
    min_recall : float in [0, 1]
        The required recall.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 and needs labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample.

    Returns
    -------
    precision : float
    threshold : float
        The score threshold (``score >= threshold`` is positive); NaN when unreachable.

    See Also
    --------
    precision_at_recall_score : the precision alone, for ``sklearn.metrics.make_scorer``.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9]
    >>> precision_at_recall(y, s, min_recall=0.6)
    (1.0, 0.8)
    >>> precision_at_recall(y, s, min_recall=1.0)
    (0.6, 0.35)
    """
    min_recall = check_min_rate(min_recall, "min_recall", allow_zero=True)
    precision, recall, thresholds = _rates(y_true, y_score, pos_label, sample_weight)
    return _best(precision, recall, thresholds, recall >= min_recall)


def recall_at_precision(
    y_true: Any,
    y_score: Any,
    *,
    min_precision: float,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[float, float]:
    r"""The highest recall among thresholds whose precision is at least ``min_precision``.

    .. math:: \max_t \; \mathrm{recall}(t) \quad\text{subject to}\quad
              \mathrm{precision}(t) \ge p_\text{min}

    over the distinct scores :math:`t`, with the threshold that attains it.  Ties follow
    torchmetrics' ``binary_recall_at_fixed_precision``: among equal recalls the larger
    precision, then the larger threshold.  A target no threshold reaches gives ``(0.0, nan)``,
    as in torchmetrics 1.9 (older releases returned the threshold 1e6).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, binary (or multiclass with ``pos_label``); at least one positive.
    y_score : array-like of shape (n_samples,)
        Scores, larger means more positive.  Finite.
    min_precision : float in [0, 1]
        The required precision.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 and needs labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample.

    Returns
    -------
    recall : float
    threshold : float
        The score threshold (``score >= threshold`` is positive); NaN when unreachable.

    See Also
    --------
    recall_at_precision_score : the recall alone, for ``sklearn.metrics.make_scorer``.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9]
    >>> recall_at_precision(y, s, min_precision=0.7)
    (0.6666666666666666, 0.8)
    >>> recall_at_precision(y, [0.9, 0.8, 0.1, 0.2, 0.7, 0.3], min_precision=0.55)
    (0.0, nan)
    """
    min_precision = check_min_rate(min_precision, "min_precision", allow_zero=True)
    precision, recall, thresholds = _rates(y_true, y_score, pos_label, sample_weight)
    return _best(recall, precision, thresholds, precision >= min_precision)


def precision_at_recall_score(
    y_true: Any,
    y_score: Any,
    *,
    min_recall: float,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """:func:`precision_at_recall` without the threshold: a score for ``make_scorer``.

    Examples
    --------
    >>> from sklearn.metrics import make_scorer
    >>> scorer = make_scorer(
    ...     precision_at_recall_score, response_method="predict_proba", min_recall=0.9
    ... )
    >>> precision_at_recall_score([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.7], min_recall=0.9)
    0.6666666666666666
    """
    return precision_at_recall(
        y_true, y_score, min_recall=min_recall, pos_label=pos_label, sample_weight=sample_weight
    )[0]


def recall_at_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    min_precision: float,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """:func:`recall_at_precision` without the threshold: a score for ``make_scorer``.

    Examples
    --------
    >>> recall_at_precision_score([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.7], min_precision=0.9)
    0.5
    """
    return recall_at_precision(
        y_true,
        y_score,
        min_precision=min_precision,
        pos_label=pos_label,
        sample_weight=sample_weight,
    )[0]
