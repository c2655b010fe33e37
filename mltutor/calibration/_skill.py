r""":math:`D^2` scores: the fraction of a proper score explained, against the prevalence model.

The null model predicts, for every sample, the (weighted) class proportions of ``y_true``.  The
:math:`D^2` of a score :math:`S` (log loss or Brier score) is :math:`1 - S(\hat p) / S(\bar y)`:
1 for a perfect model, 0 for one no better than the class proportions, negative for a worse one.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import _validation as _chk
from .._validation import calibration as _prob

__all__ = ["d2_brier_score", "d2_log_loss_score"]


def _class_totals(onehot: np.ndarray, w: np.ndarray | None) -> tuple[np.ndarray, float]:
    """The (weighted) total of each class column and the total weight."""
    if w is None:
        return onehot.sum(axis=0).astype(np.float64), float(onehot.shape[0])
    return w @ onehot.astype(np.float64), float(np.sum(w))


def _summed_log_loss(onehot: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> float:
    """:math:`-\\sum_i w_i \\sum_c y_{ic} \\log p_{ic}` with clipped p, reading only the
    entries where :math:`y_{ic} = 1` (``onehot`` holds 0 and 1)."""
    eps = np.finfo(p.dtype).eps
    rows, cols = np.nonzero(onehot)
    logs = np.log(np.clip(p[rows, cols], eps, 1 - eps))
    return float(-np.sum(logs) if w is None else -np.dot(w[rows], logs))


def _null_log_loss(onehot: np.ndarray, w: np.ndarray | None) -> float:
    """The null model's summed log loss, :math:`-\\sum_c W_c \\log \\bar p_c` with
    :math:`W_c` the weight of class c and :math:`\\bar p_c = W_c / W` (clipped)."""
    totals, weight = _class_totals(onehot, w)
    if weight == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    eps = np.finfo(np.float64).eps
    return float(-np.dot(totals, np.log(np.clip(totals / weight, eps, 1 - eps))))


def d2_log_loss_score(
    y_true: Any,
    y_proba: Any = None,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
) -> float:
    r""":math:`D^2` of the log loss: the fraction of the null model's log loss explained.

    .. math::
        D^2_{\log} = 1 - \frac{\sum_i w_i\, \ell(y_i, \hat p_i)}{\sum_i w_i\, \ell(y_i, \bar p)},
        \qquad \bar p_c = \frac{\sum_i w_i\, y_{ic}}{\sum_i w_i},\quad
        \ell(y, p) = -\sum_c y_c \log p_c

    Probabilities are clipped to :math:`[\epsilon, 1 - \epsilon]` as in :func:`log_loss`.
    With fewer than two samples the score is undefined: ``UndefinedMetricWarning`` and NaN.
    Matches scikit-learn 1.9's ``sklearn.metrics.d2_log_loss_score``.

    Parameters
    ----------
    y_true : array-like of labels, or a label-indicator matrix
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the greater of two labels.  2-D: one column per sorted class.
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like, optional
        All class labels, when ``y_true`` misses some.
    y_pred : deprecated
        The old name of ``y_proba`` (scikit-learn 1.9 deprecates it; kept for parity).

    Returns
    -------
    float

    Examples
    --------
    >>> round(d2_log_loss_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.714873
    """
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError(
                "Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` "
                "instead."
            )
        warnings.warn(
            "`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. "
            "Use `y_proba` instead.",
            FutureWarning,
            stacklevel=2,
        )
        y_proba = y_pred
    if not _prob.check_d2_sample_count(y_true, y_proba, sample_weight):
        return float("nan")
    if labels is not None and _chk.not_array_like(labels):
        raise TypeError(f"labels must be an array-like or None; got {labels!r}.")
    p = _prob.sklearn_proba(y_proba)
    onehot, p, w = _prob.sklearn_multiclass_targets(y_true, p, sample_weight, labels)
    numerator = _summed_log_loss(onehot, p, w)
    denominator = _null_log_loss(onehot, w)
    return float(1 - (numerator / denominator))


def d2_brier_score(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
) -> float:
    r""":math:`D^2` of the Brier score (the Brier skill score): the fraction explained.

    .. math::
        D^2_{\mathrm{Brier}} = 1 - \frac{\sum_i w_i \sum_c (y_{ic} - \hat p_{ic})^2}
        {\sum_i w_i \sum_c (y_{ic} - \bar p_c)^2},
        \qquad \bar p_c = \frac{\sum_i w_i\, y_{ic}}{\sum_i w_i}

    The halving of :func:`brier_score_loss` cancels in the ratio.  With fewer than two samples
    the score is undefined: ``UndefinedMetricWarning`` and NaN.  Matches scikit-learn 1.9's
    ``sklearn.metrics.d2_brier_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of ``pos_label``.  2-D: one column per sorted class.
    sample_weight : array-like of shape (n_samples,), optional
    pos_label : int, float, bool or str, optional
        The positive class for 1-D ``y_proba`` (as in :func:`brier_score_loss`).
    labels : array-like, optional
        All class labels, for 2-D ``y_proba`` when ``y_true`` misses some.

    Returns
    -------
    float

    Examples
    --------
    >>> round(d2_brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.85
    """
    if not _prob.check_d2_sample_count(y_true, y_proba, sample_weight):
        return float("nan")
    if labels is not None and _chk.not_array_like(labels):
        raise TypeError(f"labels must be an array-like or None; got {labels!r}.")
    if pos_label is not None and not isinstance(pos_label, (str, int, float, np.number, np.bool_)):
        raise TypeError(f"pos_label must be an int, float, bool, str or None; got {pos_label!r}.")
    p = _prob.sklearn_proba(y_proba)
    if p.ndim == 1 or p.shape[1] == 1:
        onehot, p, w = _prob.sklearn_binary_targets(y_true, p, sample_weight, pos_label)
    else:
        onehot, p, w = _prob.sklearn_multiclass_targets(y_true, p, sample_weight, labels)
    target = onehot.astype(p.dtype)
    brier = np.average(np.sum((target - p) ** 2, axis=1), weights=w)
    # The null model broadcast, not tiled: each class's (weighted) proportion on every row.
    pbar = np.average(target, axis=0, weights=w)
    brier_null = np.average(np.sum((target - pbar) ** 2, axis=1), weights=w)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(1 - brier / brier_null)
