r"""Areas under the curves: ROC AUC and average precision, binary, multiclass and multilabel.

Both are arithmetic on kernel 2 (:func:`mltutor.curves.cumulative_counts`): sort the scores once,
take cumulative true and false positives at each distinct score, then

* ROC AUC: the trapezoidal area under (FPR, TPR) — equal to the probability that a random
  positive scores above a random negative, ties counting one half (the Mann–Whitney statistic);
* average precision: the step sum :math:`\mathrm{AP} = \sum_n (R_n - R_{n-1})\,P_n` over the
  thresholds, *without* interpolation (for the interpolated VOC/COCO variants see
  :mod:`mltutor.detection`).

Without sample weights (and without ``max_fpr``) neither area needs the curve.  From
:func:`mltutor.curves.sort_classes` — every score sorted, the smaller class's scores sorted apart
and ranked among all with ``np.searchsorted`` — the Mann–Whitney sum is a sum of ranks
(:func:`sorted_roc_auc`), and AP needs the counts only at the distinct positive scores
(:func:`sorted_average_precision`).  Both are sorts and binary searches of values: no ``argsort``,
no gather through a permutation, and memory of about one extra copy of the scores.

Several columns (one-vs-rest classes, multilabel columns) are a loop over columns; ``average=
'samples'`` scores every row of the matrix at once with a row-wise version of the same kernel.
Same names, arguments, results, warnings and errors as scikit-learn 1.9, except that (deliberate):

* a score matrix whose shape differs from the label-indicator matrix is refused (scikit-learn
  silently scores only the first columns, or fails with an IndexError);
* inputs are checked (lengths, finite weights) before the "only one class" rule, so a broken input
  raises instead of returning NaN;
* non-numeric scores raise ``TypeError`` (scikit-learn: ``ValueError``).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from .._validation import (
    UndefinedMetricWarning,
    check_indicator_scores,
    check_labels_for_scores,
    check_max_fpr,
    check_option,
    check_pos_label,
    check_score_array,
    column_or_1d,
    contains,
    equals_label,
    resolve_pos_label,
    score_target_type,
    unique_labels,
    warn,
)
from .._validation.weights import check_area_weights
from ._counts import BinaryCounts, cumulative_counts, run_starts, sort_classes
from ._curves import _trapezoid, pr_points, roc_rates, too_few_points

__all__ = ["average_precision_score", "roc_auc_score"]

_AVERAGES = ("micro", "macro", "samples", "weighted", None)
_ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."


# --------------------------------------------------------------------------------------------
# One binary problem (1-D), from the kernel's counts
# --------------------------------------------------------------------------------------------


def _mcclish(partial_area: Any, max_fpr: float) -> Any:
    """McClish's (1989) standardised partial AUC: the raw area over FPR in [0, max_fpr] mapped
    from [min_area, max_area] = [max_fpr²/2, max_fpr] (chance, perfect) to [0.5, 1].  A float or
    an array of areas (one per row)."""
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1 + (partial_area - min_area) / (max_area - min_area))


def _partial_roc_area(fpr: np.ndarray, tpr: np.ndarray, max_fpr: float) -> float:
    """The trapezoidal area under the ROC curve up to ``fpr = max_fpr``, the last segment cut
    at ``max_fpr`` by linear interpolation (scikit-learn's)."""
    stop = np.searchsorted(fpr, max_fpr, "right")
    x_interp = [fpr[stop - 1], fpr[stop]]
    y_interp = [tpr[stop - 1], tpr[stop]]
    tpr = np.append(tpr[:stop], np.interp(max_fpr, x_interp, y_interp))
    fpr = np.append(fpr[:stop], max_fpr)
    if fpr.shape[0] < 2:  # fpr all NaN (the negatives weigh 0): scikit-learn's auc refuses it
        raise too_few_points(fpr.shape[0])
    return _trapezoid(fpr, tpr)


def sorted_roc_auc(is_positive: np.ndarray, y_score: np.ndarray) -> float:
    r"""Unweighted ROC AUC of validated arrays holding both classes, by ranks (no ``argsort``).

    With the ``m`` minority scores :math:`x_j` ranked among all ``n`` scores (``lo_j`` scores
    strictly below, ``hi_j`` at or below), the pairs a minority score wins against the majority,
    ties counting one half, sum to

    .. math:: U = \sum_j \frac{lo_j + hi_j}{2} - \frac{m^2}{2}

    (the minority's own pairs, ties included, sum to :math:`m^2/2`).  The area is :math:`U/(PN)`
    when the positives are the minority and :math:`1 - U/(PN)` otherwise: the Mann–Whitney form
    of the trapezoidal area scikit-learn computes, in exact integers up to one final division.
    ``hi_j = lo_j + 1`` unless ``x_j`` is tied, so only tied scores are searched a second time.
    """
    classes = sort_classes(is_positive, y_score)
    scores, x, lo = classes.scores, classes.minority, classes.below
    n, m = scores.shape[0], x.shape[0]
    # x[j] sits at scores[lo[j]]; it is tied when the next score is equal (clipping at the end
    # can flag the last score, which then adds 0 below).
    tied = np.take(scores, lo + 1, mode="clip") == x
    extra_ties = int(np.sum(np.searchsorted(scores, x[tied], side="right") - lo[tied] - 1))
    twice_u = 2 * int(np.sum(lo)) + m + extra_ties - m * m  # sum of lo + hi, minus m^2
    pairs = 2 * m * (n - m)
    if not classes.minority_is_positive:
        twice_u = pairs - twice_u
    return twice_u / pairs  # Python ints: one correctly rounded division


def sorted_average_precision(is_positive: np.ndarray, y_score: np.ndarray) -> float:
    r"""Unweighted step-sum AP of validated arrays, without ``argsort``.

    Only thresholds where recall grows add to :math:`\sum_n (R_n - R_{n-1}) P_n`: the distinct
    positive scores :math:`v`.  At each, ``tps`` = positives scoring at least :math:`v` (from the
    sorted positives) and ``tps + fps`` = all samples scoring at least :math:`v` (from the rank
    of :math:`v` among all scores); :math:`R_{n-1}` is the recall at the next higher positive
    score (0 above the highest), as in scikit-learn's sum over every threshold.  When the
    positives are the larger class the counts come from :func:`mltutor.curves.sorted_counts`
    instead, which ranks the negatives.
    """
    n, n_pos = is_positive.shape[0], int(np.count_nonzero(is_positive))
    if n_pos == 0 or 2 * n_pos > n:
        return _step_sum(cumulative_counts(is_positive, y_score))
    classes = sort_classes(is_positive, y_score)
    starts = run_starts(classes.minority)  # ascending distinct positive scores
    tps = (n_pos - starts).astype(np.float64)
    precision = tps / (n - classes.below[starts])
    recall = tps / n_pos
    gain = recall - np.append(recall[1:], 0.0)
    return float(max(0.0, np.sum(gain * precision)))


def _step_sum(counts: BinaryCounts) -> float:
    """Step-sum AP from the kernel's counts: Σ (R_n − R_{n−1}) P_n, never below 0."""
    precision, recall, _ = pr_points(counts)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _roc_auc_positive(
    is_positive: np.ndarray,
    two_classes: bool,
    y_score: np.ndarray,
    sample_weight: np.ndarray | None,
    max_fpr: float | None,
) -> float:
    """ROC AUC of one binary problem; NaN with a warning unless ``y_true`` shows two classes.
    Unweighted full areas take the rank form; weights and ``max_fpr`` need the curve."""
    if not two_classes:
        warn(_ONE_CLASS, UndefinedMetricWarning)
        return float("nan")
    full_area = max_fpr is None or max_fpr == 1
    if sample_weight is None and full_area:
        return sorted_roc_auc(is_positive, y_score)
    fpr, tpr, _ = roc_rates(cumulative_counts(is_positive, y_score, sample_weight))
    if full_area:
        return _trapezoid(fpr, tpr)
    return float(_mcclish(_partial_roc_area(fpr, tpr, max_fpr), max_fpr))


def _roc_auc_column(
    y: np.ndarray, s: np.ndarray, w: np.ndarray | None, max_fpr: float | None
) -> float:
    """scikit-learn's ``_binary_roc_auc_score`` on one column of labels (positive class = 1)."""
    classes = unique_labels(y)
    if classes.shape[0] != 2:
        return _roc_auc_positive(np.zeros(y.shape, bool), False, s, w, max_fpr)
    return _roc_auc_positive(equals_label(y, resolve_pos_label(classes, None)), True, s, w, max_fpr)


def _average_precision_positive(
    is_positive: np.ndarray, y_score: np.ndarray, sample_weight: np.ndarray | None
) -> float:
    """Step-sum AP of one binary problem: Σ (R_n − R_{n−1}) P_n, never below 0."""
    if sample_weight is None:
        return sorted_average_precision(is_positive, y_score)
    return _step_sum(cumulative_counts(is_positive, y_score, sample_weight))


# --------------------------------------------------------------------------------------------
# Every row of a matrix at once (average='samples'): the kernel along axis 1
# --------------------------------------------------------------------------------------------


def _row_counts(is_positive: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, ...]:
    """Kernel 2 on each row: ``(tps, fps, last)`` after sorting every row by decreasing score;
    ``last[i, j]`` marks the last position of a run of tied scores (the points of the curve)."""
    order = np.argsort(scores, axis=1)[:, ::-1]
    s = np.take_along_axis(scores, order, axis=1)
    tps = np.cumsum(np.take_along_axis(is_positive, order, axis=1), axis=1, dtype=np.float64)
    fps = np.arange(1, scores.shape[1] + 1, dtype=np.float64) - tps
    last = np.ones(s.shape, dtype=bool)
    last[:, :-1] = s[:, :-1] != s[:, 1:]
    return tps, fps, last


def _previous_point(values: np.ndarray, last: np.ndarray) -> np.ndarray:
    """For each position, the value at the previous curve point (0 before the first).  The
    values are non-decreasing along a row, so that is a running maximum over the points."""
    at_points = np.where(last, values, 0.0)
    prev = np.zeros_like(values)
    prev[:, 1:] = np.maximum.accumulate(at_points, axis=1)[:, :-1]
    return prev


def _rows_roc_auc(is_positive: np.ndarray, scores: np.ndarray, max_fpr: float | None) -> np.ndarray:
    """ROC AUC of every row (each row holds both classes): trapezoids between curve points,
    clipped at ``max_fpr`` (then McClish-standardised) when given."""
    tps, fps, last = _row_counts(is_positive, scores)
    tpr, fpr = tps / tps[:, -1:], fps / fps[:, -1:]
    x0, y0 = _previous_point(fpr, last), _previous_point(tpr, last)
    if max_fpr is None or max_fpr == 1:
        area = (fpr - x0) * (tpr + y0) / 2
    else:
        m = max_fpr
        inside = fpr <= m
        crossing = (x0 < m) & (fpr > m)
        with np.errstate(divide="ignore", invalid="ignore"):
            y_m = y0 + (tpr - y0) * (m - x0) / (fpr - x0)
        area = np.where(
            inside, (fpr - x0) * (tpr + y0) / 2, np.where(crossing, (m - x0) * (y0 + y_m) / 2, 0.0)
        )
    area = np.where(last, area, 0.0).sum(axis=1)
    if max_fpr is None or max_fpr == 1:
        return area
    return _mcclish(area, max_fpr)


def _rows_average_precision(is_positive: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Step-sum AP of every row; 0 (with a warning) for a row without positives."""
    tps, fps, last = _row_counts(is_positive, scores)
    total = tps[:, -1:]
    if (total == 0).any():
        warn("No positive class found in y_true, recall is set to one for all thresholds.")
    precision = tps / (tps + fps)
    with np.errstate(divide="ignore", invalid="ignore"):
        gained = np.where(total > 0, (tps - _previous_point(tps, last)) / total, 0.0)
    return np.where(last, gained * precision, 0.0).sum(axis=1)


# --------------------------------------------------------------------------------------------
# Averaging over the columns (or rows) of an indicator matrix
# --------------------------------------------------------------------------------------------


def _as_float(value: Any) -> Any:
    """A float for a mean, the array for ``average=None``; the int 0 that scikit-learn returns
    for a weighted mean without any positive stays an int."""
    if isinstance(value, int) or np.ndim(value):
        return value
    return float(value)


def _average_columns(
    metric: str,
    y: np.ndarray,
    s: np.ndarray,
    average: Any,
    w: np.ndarray | None,
    *,
    max_fpr: float | None = None,
    pos_label: Any = 1,
) -> Any:
    """scikit-learn's ``_average_binary_score`` for an indicator matrix ``y`` (n, k), a score
    matrix of the same shape and validated weights ``w``.  ``metric`` is 'roc_auc' or 'ap'."""
    k = y.shape[1]

    def column(yc: np.ndarray, sc: np.ndarray, wc: np.ndarray | None) -> float:
        if metric == "roc_auc":
            return _roc_auc_column(yc, sc, wc, max_fpr)
        return _average_precision_positive(equals_label(yc, pos_label), sc, wc)

    if average == "micro":
        return column(y.ravel(), s.ravel(), None if w is None else np.repeat(w, k))
    if average == "samples":
        scores = _rows_score(metric, y, s, max_fpr, pos_label)
        if w is not None:
            scores[w == 0] = 0
        return _weighted_mean(scores, w)
    average_weight = None
    if average == "weighted":
        support = y.astype(np.float64) if w is None else y * w[:, None]
        average_weight = support.sum(axis=0)
        if np.isclose(average_weight.sum(), 0):
            return 0
    scores = np.array([column(y[:, c], s[:, c], w) for c in range(k)], dtype=np.float64)
    if average is None:
        return scores
    if average_weight is not None:
        scores[average_weight == 0] = 0
    return _weighted_mean(scores, average_weight)


def _weighted_mean(values: np.ndarray, weights: np.ndarray | None) -> float:
    if weights is None:
        return float(np.mean(values))
    total = weights.sum()
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(np.dot(values, weights) / total)


def _rows_score(
    metric: str, y: np.ndarray, s: np.ndarray, max_fpr: float | None, pos_label: Any
) -> np.ndarray:
    """Per-row scores for ``average='samples'`` (rows are unweighted, as in scikit-learn)."""
    if metric == "ap":
        return _rows_average_precision(equals_label(y, pos_label), s)
    two = y.min(axis=1) != y.max(axis=1)
    out = np.full(y.shape[0], np.nan)
    if not two.all():
        warn(_ONE_CLASS, UndefinedMetricWarning)
    if two.any():
        positive = resolve_pos_label(unique_labels(y[two]), None)
        out[two] = _rows_roc_auc(equals_label(y[two], positive), s[two], max_fpr)
    return out


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
) -> float | np.ndarray:
    r"""Area under the ROC curve.

    For a binary problem with :math:`P` positives and :math:`N` negatives the area equals the
    Mann–Whitney probability that a random positive outranks a random negative:

    .. math::

        \mathrm{AUC} = \frac{1}{PN}\sum_{i:\,y_i=1}\;\sum_{j:\,y_j=0}
            \Big([s_i > s_j] + \tfrac12 [s_i = s_j]\Big),

    computed as the trapezoidal area under :func:`mltutor.metrics.roc_curve` (one sort, no pairs).
    It lies in [0, 1]: 1 ranks every positive first, 0.5 is chance, 0 is a perfectly *inverted*
    ranking.  Same arguments, results, warnings and errors as ``sklearn.metrics.roc_auc_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary labels (the larger label is positive), multiclass labels, or a label-indicator
        matrix (multilabel).
    y_score : array-like of shape (n_samples,) or (n_samples, n_columns)
        Binary: the score of the positive class.  Multiclass: probabilities, rows summing to 1,
        one column per class (sorted labels, or ``labels``).  Multilabel: one column per label.
    average : {'macro', 'weighted', 'micro', 'samples'} or None, default='macro'
        Multilabel / multiclass: mean over columns (``'macro'``), weighted by each column's
        positives (``'weighted'``), one curve over all cells (``'micro'``, not for ``'ovo'``),
        mean over rows (``'samples'``, multilabel only), or one score per column (None).
        Ignored for binary problems.
    sample_weight : array-like of shape (n_samples,), default=None
    max_fpr : float in (0, 1], default=None
        Binary and multilabel: the standardised partial AUC over FPR in [0, max_fpr]
        (McClish correction, 0.5 for chance and 1 for perfect).
    multi_class : {'raise', 'ovr', 'ovo'}, default='raise'
        Multiclass only: one-vs-rest (one curve per class against all others) or one-vs-one
        (mean over class pairs of the two one-against-the-other AUCs, Hand & Till, 2001;
        ``average='weighted'`` weights a pair by its share of the samples).
    labels : array-like of shape (n_classes,), default=None
        Multiclass only: the sorted classes the columns of ``y_score`` stand for.

    Returns
    -------
    float, or ndarray of shape (n_columns,) when ``average=None``
        NaN with an ``UndefinedMetricWarning`` for a binary problem (or column) with one class.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_score([0, 0, 1, 1], [0.8, 0.4, 0.35, 0.1])   # every negative ranked first
    0.0
    >>> probs = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3]]
    >>> roc_auc_score([0, 1, 2, 1], probs, multi_class="ovr")
    1.0
    """
    average = check_option(average, _AVERAGES, "average")
    max_fpr = check_max_fpr(max_fpr)
    multi_class = check_option(multi_class, ("raise", "ovr", "ovo"), "multi_class")
    # Validated once, here; the kernels below never check again.
    y, y_type = score_target_type(y_true)
    s = check_score_array(y_score, y.shape[0])
    w = check_area_weights(sample_weight, y.shape[0], average, y_type)
    if y_type == "multiclass" or (y_type == "binary" and s.ndim == 2 and s.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' must be "
                f"set to `None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            raise ValueError(
                "multi_class must be in ('ovo', 'ovr'): y_true has more than two classes, so say "
                "how to reduce them to binary problems."
            )
        return _multiclass_roc_auc(y, s, labels, multi_class, average, w)
    if y_type == "binary":
        classes = unique_labels(y)
        two_classes = classes.shape[0] == 2
        is_positive = equals_label(y, classes[-1]) if two_classes else np.zeros(y.shape, bool)
        return _roc_auc_positive(is_positive, two_classes, column_or_1d(s, "y_score"), w, max_fpr)
    if y_type != "multilabel-indicator":
        raise ValueError(f"{y_type} format is not supported")
    check_indicator_scores(y, s)
    return _as_float(_average_columns("roc_auc", y, s, average, w, max_fpr=max_fpr))


def _multiclass_roc_auc(
    y: np.ndarray, s: np.ndarray, labels: Any, multi_class: str, average: Any, w: np.ndarray | None
) -> Any:
    """One-vs-rest or one-vs-one ROC AUC (scikit-learn's ``_multiclass_roc_auc_score``)."""
    if s.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={s.shape}`."
        )
    if not np.allclose(1, s.sum(axis=1)):
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they should sum "
            "up to 1.0 over classes"
        )
    options = (
        ("macro", "weighted", None)
        if multi_class == "ovo"
        else ("micro", "macro", "weighted", None)
    )
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    classes = check_labels_for_scores(labels, y, s.shape[1])
    if multi_class == "ovr":
        indicator = (y[:, None] == classes[None, :]).astype(np.int64)
        return _as_float(_average_columns("roc_auc", indicator, s, average, w))
    if w is not None:
        raise ValueError(
            "sample_weight is not supported for multiclass one-vs-one ROC AUC, 'sample_weight' "
            "must be None in this case."
        )
    encoded = np.searchsorted(classes, y)
    pair_scores, prevalence = [], []
    for a, b in combinations(unique_labels(encoded).tolist(), 2):
        in_pair = (encoded == a) | (encoded == b)
        a_true, b_true = encoded[in_pair] == a, encoded[in_pair] == b
        auc_a = _roc_auc_positive(a_true, True, s[in_pair, a], None, None)
        auc_b = _roc_auc_positive(b_true, True, s[in_pair, b], None, None)
        pair_scores.append((auc_a + auc_b) / 2)
        prevalence.append(in_pair.mean())
    if not pair_scores:  # one class in y_true: no pair to compare
        if average == "weighted":
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        warn(
            "y_true holds one class only, so there is no pair of classes for one-vs-one ROC AUC; "
            "returning nan.",
            RuntimeWarning,
        )
        return float("nan")
    return float(np.average(pair_scores, weights=prevalence if average == "weighted" else None))


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> float | np.ndarray:
    r"""Average precision: the precision-recall curve summarised as a step sum.

    .. math:: \mathrm{AP} = \sum_n (R_n - R_{n-1})\, P_n

    over the distinct thresholds, highest first (:math:`R_0 = 0`): each gain in recall is
    weighted by the precision reached at that threshold.  There is no interpolation — no
    precision envelope, no trapezoids (which would be too optimistic between points); the
    interpolated VOC/COCO variants are :func:`mltutor.detection.interpolated_average_precision`.
    Same arguments, results, warnings and errors as ``sklearn.metrics.average_precision_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary labels, multiclass labels (one-vs-rest; ``y_score`` then has one column per
        sorted class) or a label-indicator matrix.
    y_score : array-like of shape (n_samples,) or (n_samples, n_columns)
    average : {'macro', 'weighted', 'micro', 'samples'} or None, default='macro'
        As in :func:`roc_auc_score`; ignored for binary problems.
    pos_label : int, float, bool or str, default=1
        Binary only: the positive class (must be one of the labels when there are two).
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float, or ndarray of shape (n_columns,) when ``average=None``
        0.0 (with a warning) when there are no positives.

    Examples
    --------
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333333
    """
    average = check_option(average, _AVERAGES, "average")
    if pos_label is None:
        raise TypeError("pos_label must be a label (int, float, bool or str), not None.")
    pos_label = check_pos_label(pos_label)
    y, y_type = score_target_type(y_true)
    if y_type == "binary":
        present = unique_labels(y)
        if present.shape[0] == 2 and not contains(present, pos_label):
            raise ValueError(
                f"pos_label={pos_label} is not a valid label. It should be one of {present}"
            )
        s = column_or_1d(check_score_array(y_score, y.shape[0]), "y_score")
        w = check_area_weights(sample_weight, y.shape[0], average, y_type)
        return _average_precision_positive(equals_label(y, pos_label), s, w)
    if y_type in ("multilabel-indicator", "multiclass") and not _is_one(pos_label):
        raise ValueError(
            f"Parameter pos_label is fixed to 1 for {y_type} y_true. Do not set pos_label or set "
            "pos_label to 1."
        )
    if y_type == "multiclass":
        s = check_score_array(y_score, y.shape[0])
        present = unique_labels(y)
        y = (y[:, None] == present[None, :]).astype(np.int64)
        if s.shape != y.shape:
            raise ValueError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
                f"multiple classes. Got `y_score.shape={s.shape}`."
            )
    elif y_type == "multilabel-indicator":
        s = check_score_array(y_score, y.shape[0])
        check_indicator_scores(y, s)
    else:
        raise ValueError(f"{y_type} format is not supported")
    w = check_area_weights(sample_weight, y.shape[0], average, y_type)
    return _as_float(_average_columns("ap", y, s, average, w, pos_label=pos_label))


def _is_one(label: Any) -> bool:
    return not isinstance(label, (str, np.str_)) and label == 1
