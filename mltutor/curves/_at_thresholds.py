r"""scikit-learn 1.8/1.9's per-threshold functions: the four confusion counts, or any metric.

Both read the kernel's sort: the distinct scores, highest first, are the thresholds, and "predict
positive when ``score >= threshold``" admits a whole run of tied scores at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.scores import check_binary_scores, check_threshold_metric
from ._counts import cumulative_counts

__all__ = ["confusion_matrix_at_thresholds", "metric_at_thresholds"]


def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""The binary confusion counts at every distinct score, highest score first.

    .. math::
        \mathrm{tps}_i = \sum_{k:\, s_k \ge t_i,\, y_k = +} w_k,\quad
        \mathrm{fps}_i = \sum_{k:\, s_k \ge t_i,\, y_k \ne +} w_k,\quad
        \mathrm{fns}_i = \mathrm{tps}_{\mathrm{last}} - \mathrm{tps}_i,\quad
        \mathrm{tns}_i = \mathrm{fps}_{\mathrm{last}} - \mathrm{fps}_i

    with :math:`t_i` the distinct scores in decreasing order.  Samples of weight 0 are dropped
    first (their scores are not thresholds).  This is the kernel
    (:func:`mltutor.curves.binary_counts`) with the other two counts added; it matches
    scikit-learn 1.9's ``sklearn.metrics.confusion_matrix_at_thresholds`` (new in 1.8).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; or multiclass with ``pos_label`` naming the positive class.
    y_score : array-like of shape (n_samples,)
        Scores, finite; larger means "more positive".
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 and needs labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    tns, fps, fns, tps : ndarray of float64, shape (n_thresholds,)
    thresholds : ndarray, shape (n_thresholds,)
        The distinct scores, decreasing, in the dtype of ``y_score``.

    Examples
    --------
    >>> tns, fps, fns, tps, thresholds = confusion_matrix_at_thresholds(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> thresholds.tolist()
    [0.8, 0.4, 0.35, 0.1]
    >>> tns.tolist(), fps.tolist(), fns.tolist(), tps.tolist()
    ([2.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 2.0], [1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 2.0, 2.0])
    """
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    fps, tps, thresholds = cumulative_counts(is_positive, scores, weights)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds


def metric_at_thresholds(
    y_true: Any,
    y_score: Any,
    metric_func: Any,
    *,
    sample_weight: Any = None,
    metric_params: dict | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""``metric_func`` evaluated at every distinct score used as the threshold.

    .. math::
        m_i = \mathrm{metric}\bigl(y,\ [\, s_k \ge t_i \,]_k\bigr), \qquad
        t_1 > t_2 > \dots \text{ the distinct scores}

    The samples are sorted by decreasing score (stably; samples of weight 0 dropped) and
    ``metric_func(y_true_sorted, y_pred, **metric_params)`` is called once per threshold with
    ``y_pred`` the int32 predictions ``score >= threshold`` (and ``sample_weight=`` the sorted
    weights, when given).  The cost is one call of ``metric_func`` per distinct score; for the
    confusion counts themselves, :func:`confusion_matrix_at_thresholds` needs one sort only.
    Matches scikit-learn 1.9's ``sklearn.metrics.metric_at_thresholds`` (new in 1.9).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, passed (sorted) to ``metric_func``.
    y_score : array-like of shape (n_samples,)
        Scores, finite.
    metric_func : callable
        Called as ``metric_func(y_true, y_pred, **metric_params)``; returns a number or a
        sequence of numbers of the same size at every threshold.
    sample_weight : array-like of shape (n_samples,), default=None
        Passed to ``metric_func`` as ``sample_weight``.
    metric_params : dict, default=None
        Further keyword arguments of ``metric_func``.

    Returns
    -------
    metric_values : ndarray of shape (n_thresholds,) or (n_thresholds, n_outputs)
    thresholds : ndarray of shape (n_thresholds,)

    Examples
    --------
    >>> from mltutor.metrics import accuracy_score
    >>> values, thresholds = metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8],
    ...                                           accuracy_score)
    >>> thresholds.tolist(), values.tolist()
    ([0.8, 0.4, 0.35, 0.1], [0.75, 0.5, 0.75, 0.5])
    """
    inputs = check_threshold_metric(y_true, y_score, metric_func, sample_weight, metric_params)
    y, s, w, params = inputs.y_true, inputs.y_score, inputs.sample_weight, inputs.metric_params
    if w is not None:
        keep = w != 0
        y, s, w = y[keep], s[keep], w[keep]
    # Stable and descending, ties in input order (scikit-learn's order).
    order = (s.shape[0] - 1) - np.argsort(s[::-1], kind="stable")[::-1]
    y, s = y[order], s[order]
    if w is not None:
        params["sample_weight"] = w[order]
    last = np.append(np.flatnonzero(s[1:] != s[:-1]), s.shape[0] - 1)
    position = np.arange(s.shape[0])
    values = [inputs.metric_func(y, (position <= i).astype(np.int32), **params) for i in last]
    return np.asarray(values), s[last]
