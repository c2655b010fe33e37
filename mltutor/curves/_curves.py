"""Curves from the kernel's counts: ROC, precision-recall and DET, and the trapezoidal area."""

from __future__ import annotations

import bisect
import operator
from typing import Any

import numpy as np

from .._validation import (
    UndefinedMetricWarning,
    check_binary_scores,
    check_bool,
    column_or_1d,
    warn,
)
from ._counts import (
    BinaryCounts,
    SortedClasses,
    _has_ties,
    _minority_positions,
    _split_counts,
    cumulative_counts,
    run_starts,
    sort_classes,
    sorted_counts,
)

# --------------------------------------------------------------------------------------------
# Curves: ROC, precision-recall, DET.  Each one is the kernel's two arrays divided by totals.
# --------------------------------------------------------------------------------------------


# ``drop_intermediate``: one rule per curve kind, each a mask over the points of a curve (first
# and last point always kept).  The weighted, the sort-only and the DET paths all call these two;
# only :func:`sorted_roc_bends` finds the ROC bends on other data (one boolean per sample), and
# its tests check it against :func:`_collinear_kept`.


def _collinear_kept(fps: np.ndarray, tps: np.ndarray) -> np.ndarray:
    """The ROC rule (scikit-learn's): keep the first and last points and every point where the
    curve bends, a non-zero second difference of fps or tps; a dropped point lies on the
    straight segment between its neighbours, so the curve and its area do not change."""
    # A second difference is 0 exactly when two successive steps are equal (finite floats).
    keep = np.ones(fps.shape[0], dtype=bool)
    if fps.shape[0] > 2:
        fps_step, tps_step = np.diff(fps), np.diff(tps)
        np.not_equal(fps_step[1:], fps_step[:-1], out=keep[1:-1])
        keep[1:-1] |= tps_step[1:] != tps_step[:-1]
    return keep


def _flat_tps_kept(tps: np.ndarray) -> np.ndarray:
    """The PR and DET rule (scikit-learn's): keep the first and last points and every point
    whose tps differs from a neighbour's.  Between two changes of tps only false positives are
    added: precision falls (FPR grows) at constant recall, and only the ends of that run matter
    for a step curve.  Symmetric, so either order of the points works."""
    keep = np.ones(tps.shape[0], dtype=bool)
    np.not_equal(tps[1:-1], tps[:-2], out=keep[1:-1])
    keep[1:-1] |= tps[2:] != tps[1:-1]
    return keep


def _drop_collinear_roc(counts: BinaryCounts) -> BinaryCounts:
    """``counts`` at the points :func:`_collinear_kept` keeps (ROC's ``drop_intermediate``)."""
    keep = _collinear_kept(counts.fps, counts.tps)
    return BinaryCounts(counts.fps[keep], counts.tps[keep], counts.thresholds[keep])


def _drop_flat_pr(counts: BinaryCounts) -> BinaryCounts:
    """``counts`` at the points :func:`_flat_tps_kept` keeps (PR's ``drop_intermediate``)."""
    keep = _flat_tps_kept(counts.tps)
    return BinaryCounts(counts.fps[keep], counts.tps[keep], counts.thresholds[keep])


def sorted_roc_bends(is_positive: np.ndarray, y_score: np.ndarray) -> BinaryCounts:
    """:func:`sorted_counts` reduced to the ROC curve's bends (``drop_intermediate``), the same
    points as dropping the collinear ones afterwards.

    Without ties each threshold admits one sample, so a point is collinear with its neighbours
    exactly when the samples admitted just before and just after it are of the same class.  The
    bends are then found on one boolean per sample, and the counts at a bend are a cumulative sum
    over the bends only: between two bends every admitted sample has the class of the later one.
    With ties this falls back to :func:`sorted_counts` and the generic rule.
    """
    classes = sort_classes(is_positive, y_score)
    scores = classes.scores
    n = scores.shape[0]
    if _has_ties(scores):
        return _drop_collinear_roc(sorted_counts(is_positive, y_score))
    is_minority = np.zeros(n, dtype=bool)
    is_minority[_minority_positions(classes)] = True
    bend = np.ones(n, dtype=bool)  # ascending indices; the first and last points stay
    np.not_equal(is_minority[:-2], is_minority[1:-1], out=bend[1:-1])
    kept = np.flatnonzero(bend)[::-1]  # highest score first
    last = (n - 1) - kept  # the same points as indices into scores[::-1]
    admitted = np.diff(last, prepend=-1)
    minority_at_or_above = np.cumsum(admitted * is_minority[kept], dtype=np.float64)
    return _split_counts(classes, minority_at_or_above, last, scores[kept])


def roc_rates(counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, thresholds)`` from the kernel's counts: a (0, 0) point at threshold +inf,
    then ``fps / N`` and ``tps / P``.  A rate whose total is 0 is all NaN, with an
    :class:`~mltutor._validation.UndefinedMetricWarning` (as scikit-learn)."""
    thresholds = _prepend(np.inf, counts.thresholds)
    if counts.fps[-1] <= 0:
        warn(
            "No negative samples in y_true, false positive value should be meaningless",
            UndefinedMetricWarning,
        )
        fpr = np.full(thresholds.shape, np.nan)
    else:
        fpr = _prepend(0.0, counts.fps)
        fpr /= counts.fps[-1]
    if counts.tps[-1] <= 0:
        warn(
            "No positive samples in y_true, true positive value should be meaningless",
            UndefinedMetricWarning,
        )
        tpr = np.full(thresholds.shape, np.nan)
    else:
        tpr = _prepend(0.0, counts.tps)
        tpr /= counts.tps[-1]
    return fpr, tpr, thresholds


def _prepend(first: float, values: np.ndarray) -> np.ndarray:
    """``np.r_[first, values]`` as float64, written once into a new array."""
    out = np.empty(values.shape[0] + 1)
    out[0] = first
    out[1:] = values
    return out


def pr_points(counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(precision, recall, thresholds)`` from the kernel's counts, in scikit-learn's order:
    increasing threshold, then a final point ``(precision 1, recall 0)`` with no threshold.

    Precision is ``tps / (tps + fps)`` (0 where nothing is predicted positive); without positives
    recall is set to 1 everywhere, with a ``UserWarning`` (as scikit-learn)."""
    fps, tps, thresholds = counts
    n_points = tps.shape[0]
    # Written straight into the reversed outputs (one pass each, no concatenation).
    precision = np.empty(n_points + 1)
    precision[-1] = 1.0
    predicted = np.add(tps[::-1], fps[::-1], out=precision[:-1])  # then divided in place
    nonzero = predicted != 0
    if nonzero.all():
        np.divide(tps[::-1], predicted, out=predicted)
    else:
        np.divide(tps[::-1], predicted, out=predicted, where=nonzero)
        predicted[~nonzero] = 0.0
    recall = np.empty(n_points + 1)
    recall[-1] = 0.0
    if tps[-1] == 0:
        warn("No positive class found in y_true, recall is set to one for all thresholds.")
        recall[:-1] = 1.0
    else:
        np.divide(tps[::-1], tps[-1], out=recall[:-1])
    return precision, recall, thresholds[::-1]


# --------------------------------------------------------------------------------------------
# Unweighted precision-recall and DET curves, written straight into their output arrays
# --------------------------------------------------------------------------------------------


def _ascending_counts(classes: SortedClasses) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tps, predicted, thresholds)`` at every distinct score, *lowest* first, in two float64
    buffers one element longer than the number of thresholds (the last element is left for
    the caller's end point).

    ``predicted[i]`` is the number of samples scoring at least ``thresholds[i]``, ``n - start`` for
    the index ``start`` where that run of ties begins in the sorted scores.  ``tps[i]`` is read
    from the minority scores strictly below ``thresholds[i]``: without ties one mark after each
    minority position and a cumulative sum, in place; with ties a ``searchsorted`` per distinct
    score.  No other array of the full length is made, and no ``argsort``.
    """
    scores, minority = classes.scores, classes.minority
    n, m = scores.shape[0], minority.shape[0]
    if _has_ties(scores):
        starts = run_starts(scores)
        d = starts.shape[0]
        thresholds = scores[starts]
        predicted = np.empty(d + 1)
        np.subtract(n, starts, out=predicted[:d])
        del starts
        tps = np.empty(d + 1)
        tps[:d] = np.searchsorted(minority, thresholds, side="left")
    else:  # every score is a threshold: the sorted scores themselves
        d, thresholds = n, scores
        # m at index 0, one step down after each minority score (distinct positions, so no
        # np.add.at), summed in place (no copy): the minority scores at or above each index.
        tps = np.zeros(d + 1)
        tps[0] = m
        tps[_minority_positions(classes) + 1] = -1.0
        np.cumsum(tps[:d], out=tps[:d])
        predicted = _countdown(n, d + 1)
        if classes.minority_is_positive:
            return tps, predicted, thresholds
        np.subtract(m, tps[:d], out=tps[:d])  # back to the minority scores below each index
    if classes.minority_is_positive:
        np.subtract(m, tps[:d], out=tps[:d])  # positives at or above = m - positives below
    else:  # positives at or above = predicted - (negatives at or above)
        tps[:d] -= m
        tps[:d] += predicted[:d]
    return tps, predicted, thresholds


def _countdown(n: int, size: int, block: int = 1 << 16) -> np.ndarray:
    """A float64 array of ``size`` whose first ``n`` elements are ``n, n - 1, ..., 1`` (exact),
    written a cache-sized block at a time: one pass, and no second array of the full length."""
    out = np.empty(size)
    for start in range(0, n, block):
        stop = min(start + block, n)
        out[start:stop] = np.arange(n - start, n - stop, -1.0)
    return out


def sorted_pr_points(
    is_positive: np.ndarray, y_score: np.ndarray, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`pr_points` of :func:`sorted_counts` (with ``drop_intermediate`` as scikit-learn),
    computed in the output arrays: the counts are built lowest threshold first, which is already
    the order of the outputs, and precision and recall are divided in place.  Every sample is
    predicted positive at the lowest threshold, so ``tps + fps`` is never 0 here."""
    n_positive = int(np.count_nonzero(is_positive))
    tps, predicted, thresholds = _ascending_counts(sort_classes(is_positive, y_score))
    d = thresholds.shape[0]
    if drop_intermediate and d > 2:
        keep = _flat_tps_kept(tps[:d])
        keep = np.append(keep, True)  # the end point
        tps, predicted, thresholds = tps[keep], predicted[keep], thresholds[keep[:-1]]
        d = thresholds.shape[0]
    precision = predicted
    np.divide(tps[:d], predicted[:d], out=precision[:d])
    precision[d] = 1.0
    recall = tps
    if n_positive == 0:
        warn("No positive class found in y_true, recall is set to one for all thresholds.")
        recall[:d] = 1.0
    else:
        recall[:d] /= n_positive
    recall[d] = 0.0
    return precision, recall, thresholds


def sorted_det_points(
    is_positive: np.ndarray, y_score: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``det_curve`` without weights and without ``drop_intermediate``, in the output arrays.

    The lowest kept threshold is the last one at which every positive is still predicted
    positive, the highest is the first one with no false positive (the threshold ``inf`` when
    the top score is a negative's); both classes are present.  The thresholds are float64 as in
    scikit-learn, with ``inf`` after the highest score.
    """
    n_positive = int(np.count_nonzero(is_positive))
    n = is_positive.shape[0]
    # float64 scores are sorted into a buffer one longer, whose end holds the threshold inf: the
    # output thresholds are then a view, not one more array of the full length.
    spare = np.empty(n + 1) if y_score.dtype == np.float64 else None
    tps, predicted, thresholds = _ascending_counts(sort_classes(is_positive, y_score, spare))
    d = thresholds.shape[0]
    tps[d], predicted[d] = 0.0, 0.0  # the point at threshold inf: nothing predicted positive
    fps = np.subtract(predicted, tps, out=predicted)  # ascending index: fps non-increasing
    # tps is non-increasing too: ``lo`` is its last value n_positive, ``hi`` fps's first 0,
    # found by bisection (``key`` negates: bisect wants ascending keys; no pass over the arrays).
    lo = bisect.bisect_right(tps, -n_positive, hi=d + 1, key=operator.neg) - 1
    hi = bisect.bisect_left(fps, 0.0, hi=d + 1, key=operator.neg)
    keep = slice(lo, hi + 1)
    fnr = np.subtract(n_positive, tps[keep], out=tps[keep])
    fnr /= n_positive
    fpr = fps[keep]
    fpr /= n - n_positive
    if spare is not None and thresholds.base is spare:  # no ties: the scores are the thresholds
        spare[n] = np.inf
        out_thresholds = _compact(spare[lo : hi + 1])
    else:
        out_thresholds = np.empty(hi + 1 - lo)
        top = min(hi + 1, d)
        out_thresholds[: top - lo] = thresholds[lo:top]
        out_thresholds[top - lo :] = np.inf
    return _compact(fpr), _compact(fnr), out_thresholds


def _compact(view: np.ndarray) -> np.ndarray:
    """The view itself when it spans most of its buffer, else a copy that lets the buffer go."""
    if view.base is not None and 2 * view.nbytes < view.base.nbytes:
        return view.copy()
    return view


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Receiver operating characteristic: false and true positive rates at every threshold.

    Predict positive when ``score >= threshold``.  With :math:`P` and :math:`N` the (weighted)
    numbers of positives and negatives, each distinct score :math:`s` gives one point

    .. math::

        \mathrm{FPR}(s) = \frac{\mathrm{fps}(s)}{N}, \qquad
        \mathrm{TPR}(s) = \frac{\mathrm{tps}(s)}{P},

    where ``fps``/``tps`` are kernel 2's cumulative counts (:func:`binary_counts`).  The curve
    starts at (0, 0) with threshold ``+inf`` (nothing predicted positive) and ends at (1, 1).
    Tied scores cross the threshold together, so they make one diagonal step, not a staircase.
    Same arguments, results, warnings and errors as ``sklearn.metrics.roc_curve``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: binary, or multiclass with ``pos_label`` naming the positive class.
    y_score : array-like of shape (n_samples,)
        Scores; larger means "more positive".  Finite.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 and needs labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample; zero-weight samples are dropped.
    drop_intermediate : bool, default=True
        Drop thresholds whose point lies on the straight segment between its neighbours (the
        curve, and its area, do not change).

    Returns
    -------
    fpr, tpr : ndarray of float64
        Non-decreasing rates, one per kept threshold.  All NaN, with an
        ``UndefinedMetricWarning``, when there are no negatives (fpr) or no positives (tpr).
    thresholds : ndarray of float64
        Decreasing; ``thresholds[0]`` is ``inf``.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> thr.tolist()
    [inf, 0.8, 0.4, 0.35, 0.1]
    """
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    if drop_intermediate and weights is None:
        return roc_rates(sorted_roc_bends(is_positive, scores))
    counts = cumulative_counts(is_positive, scores, weights)
    if drop_intermediate:
        counts = _drop_collinear_roc(counts)
    return roc_rates(counts)


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Precision and recall at every threshold.

    For each distinct score :math:`s` (predict positive when ``score >= s``):

    .. math::

        \mathrm{precision}(s) = \frac{\mathrm{tps}(s)}{\mathrm{tps}(s) + \mathrm{fps}(s)}, \qquad
        \mathrm{recall}(s) = \frac{\mathrm{tps}(s)}{P}.

    The arrays run from the lowest threshold (recall 1) to the highest, then end with the point
    (recall 0, precision 1), which has no threshold: that is why ``thresholds`` is one element
    shorter.  Same arguments, results, warnings and errors as
    ``sklearn.metrics.precision_recall_curve``.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`roc_curve`.
    drop_intermediate : bool, default=False
        Drop thresholds that add only false positives between two others with the same true
        positive count (the inner points of a vertical drop, at one recall); the step curve, and
        average precision, do not change.

    Returns
    -------
    precision, recall : ndarray of float64, shape (n_thresholds + 1,)
        Recall is non-increasing.  Without positives, recall is 1 everywhere (with a
        ``UserWarning``).
    thresholds : ndarray, shape (n_thresholds,)
        Increasing, in the dtype of ``y_score``.

    Examples
    --------
    >>> p, r, thr = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(3).tolist(), r.tolist(), thr.tolist()
    ([0.5, 0.667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    if weights is None:
        return sorted_pr_points(is_positive, scores, drop_intermediate)
    counts = cumulative_counts(is_positive, scores, weights)
    if drop_intermediate:
        counts = _drop_flat_pr(counts)
    return pr_points(counts)


def det_curve(
    y_true: Any,
    y_score: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Detection error tradeoff: false positive rate and false negative rate at each threshold.

    .. math:: \mathrm{FPR}(s) = \frac{\mathrm{fps}(s)}{N}, \qquad
              \mathrm{FNR}(s) = 1 - \mathrm{TPR}(s) = \frac{P - \mathrm{tps}(s)}{P}

    Only the thresholds between the last one with FPR at its minimum and the first one with
    FNR 0 are kept (the rest repeat the end points); the arrays run from the lowest threshold
    to the highest.  Same arguments (``pos_label`` and ``sample_weight`` may be positional),
    results and errors as ``sklearn.metrics.det_curve``.

    Returns
    -------
    fpr, fnr : ndarray of float64
    thresholds : ndarray of float64
        Increasing (may end with ``inf``).

    Raises
    ------
    ValueError
        ``y_true`` does not hold exactly two distinct values, besides :func:`roc_curve`'s errors.

    Examples
    --------
    >>> fpr, fnr, thr = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    checked = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    if checked.sample_weight is None and not drop_intermediate and checked.n_classes == 2:
        return sorted_det_points(checked.is_positive, checked.y_score)
    counts = cumulative_counts(checked.is_positive, checked.y_score, checked.sample_weight)
    tps = _prepend(0.0, counts.tps)
    fps = _prepend(0.0, counts.fps)
    thresholds = _prepend(np.inf, counts.thresholds)
    del counts  # the copies above replace it (peak memory)
    if drop_intermediate and fps.shape[0] > 2:
        keep = _flat_tps_kept(tps)
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    if checked.n_classes != 2:
        raise ValueError(
            "Only one class is present in y_true. Detection error tradeoff curve is not defined "
            "in that case (y_true must hold exactly two distinct values)."
        )
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    last = int(np.searchsorted(tps, tps[-1])) + 1
    keep = slice(first, last)
    with np.errstate(divide="ignore", invalid="ignore"):  # zero weights can empty a class
        fnr = np.subtract(tps[-1], tps[keep][::-1])  # false negatives, lowest threshold first
        fnr /= tps[-1]
        return fps[keep][::-1] / fps[-1], fnr, thresholds[keep][::-1]


def auc(x: Any, y: Any) -> float:
    r"""Area under a curve given by points, with the trapezoidal rule.

    .. math:: \mathrm{area} = \sum_i (x_{i+1} - x_i)\,\frac{y_i + y_{i+1}}{2}

    ``x`` must be monotonic (increasing or decreasing; the area is positive either way).  For a
    ROC curve this is the ROC AUC; for a precision-recall curve it is the *trapezoidal* area,
    which interpolates linearly between points and is **not** average precision (see
    :func:`mltutor.metrics.average_precision_score`).  Same results and errors as
    ``sklearn.metrics.auc``.

    Parameters
    ----------
    x, y : array-like of shape (n_points,)
        At least two points.

    Examples
    --------
    >>> auc([0.0, 0.5, 1.0], [0.5, 1.0, 1.0])
    0.875
    """
    xs, ys = _numeric_1d(x, "x"), _numeric_1d(y, "y")
    if xs.shape[0] != ys.shape[0]:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"x has {xs.shape[0]} points, y has {ys.shape[0]}."
        )
    if xs.shape[0] < 2:
        raise too_few_points(xs.shape[0])
    dx = np.diff(xs)
    direction = 1.0
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError(f"x is neither increasing nor decreasing : {xs}.")
        direction = -1.0
    return direction * _trapezoid(xs, ys)


def too_few_points(n_points: int) -> ValueError:
    """scikit-learn's error for an area under fewer than two points (raised by :func:`auc`, and by
    a partial ROC area whose curve has no point below ``max_fpr``)."""
    return ValueError(
        f"At least 2 points are needed to compute area under curve, but x.shape = {n_points}"
    )


def _trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    """The trapezoidal area of validated points with non-decreasing ``x`` (the arithmetic of
    :func:`auc`, for callers whose curve comes from the kernel and needs no second check)."""
    return float(np.trapezoid(y, x))


def _numeric_1d(values: Any, name: str) -> np.ndarray:
    """A 1-D (or column) array of real numbers; bools count as 0/1.  NaN is allowed."""
    if values is None or isinstance(values, (str, bytes)) or np.ndim(values) == 0:
        raise TypeError(f"{name} must be an array-like of numbers; got {values!r}.")
    arr = np.asarray(values)
    if arr.dtype.kind == "O":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold real numbers; got an object array.") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers; got dtype {arr.dtype}.")
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    return column_or_1d(arr, name)
