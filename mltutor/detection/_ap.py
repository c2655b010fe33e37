r"""Interpolated average precision: PASCAL VOC 2007 (11 points), VOC 2010+ (all points), COCO (101).

Detection benchmarks do not use scikit-learn's step sum (:func:`mltutor.metrics.average_precision_score`).
They first replace the precision at recall :math:`r` by its **precision envelope**

.. math:: p_{\mathrm{interp}}(r) = \max_{r' \ge r} p(r'),

the best precision reachable at recall :math:`r` *or more* (the saw-tooth of the raw curve becomes
a non-increasing staircase), and then average it:

* ``"voc2007"`` — 11 points: :math:`\frac{1}{11}\sum_{t \in \{0, 0.1, \dots, 1\}} p_{\mathrm{interp}}(t)`,
  with :math:`p_{\mathrm{interp}}(t) = 0` when no point reaches recall :math:`t`.  The recall
  points here are exactly :math:`k/10`.  The official VOC2007 devkit (``for t=0:0.1:1`` in
  MATLAB) and ``voc_eval.py`` of py-faster-rcnn (``np.arange(0., 1.1, 0.1)``) use floating
  levels instead, such as 0.30000000000000004 for 0.3, which flips ``recall >= t`` at a recall of
  exactly 0.3: to reproduce a published number, use the levels of the code that produced it.
* ``"all-point"`` (VOC 2010 and later) — the exact area under the envelope:
  :math:`\sum_n (r_n - r_{n-1})\, p_{\mathrm{interp}}(r_n)`.
* ``"coco"`` — 101 points ``np.linspace(0, 1, 101)``, as pycocotools' ``COCOeval.accumulate``:
  for each recall threshold :math:`t` take the envelope at the first point with
  :math:`r \ge t` (``np.searchsorted(recall, t, side='left')``), 0 beyond the largest recall
  reached, and average the 101 values.

The points are those of a *detection* curve: one per detection, in decreasing score order,
recall = TP so far / number of ground-truth objects, precision = TP so far / detections so far.
Unlike scikit-learn's curves, tied scores are **not** merged: each detection is its own point
(detection benchmarks break ties by a stable sort).  :func:`detection_pr_curve` builds those points
from per-detection scores and match flags, which is what a detection evaluator has per class.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import UndefinedMetricWarning, warn
from .._validation.detection import check_pr_points, check_ranked_detections

__all__ = [
    "AP_METHODS",
    "detection_average_precision",
    "detection_pr_curve",
    "interpolated_average_precision",
    "precision_envelope",
]

#: The interpolation methods of :func:`interpolated_average_precision`.
AP_METHODS = ("all-point", "voc2007", "coco")

_VOC2007_RECALLS = np.arange(11) / 10  # exactly k/10 (0.3, not 0.30000000000000004)
_COCO_RECALLS = np.linspace(0.0, 1.0, 101)  # as pycocotools' Params.recThrs
# MATLAB's 0:0.1:1 (THUMOS'14's TH14eventdetpr.m): MATLAB builds the first half of a range as
# a + k*d and the second half as b - k*d, so the fourth level is 0.30000000000000004 and the
# eighth 1 - 0.30000000000000004, exactly 0.7.  Used by mltutor.detection.temporal.
_MATLAB_11_RECALLS = np.r_[np.arange(6) * 0.1, 1.0 - np.arange(4, -1, -1) * 0.1]


def precision_envelope(precision: Any) -> np.ndarray:
    r"""The running maximum from the right: ``out[i] = max(precision[i:])``.

    For points in increasing recall order this is :math:`\max_{r' \ge r_i} p(r')`, the
    interpolated precision of the VOC and COCO benchmarks.

    Examples
    --------
    >>> precision_envelope([1.0, 0.5, 0.67, 0.5, 0.6]).tolist()
    [1.0, 0.67, 0.67, 0.6, 0.6]
    """
    p = np.asarray(precision, dtype=np.float64)
    return np.maximum.accumulate(p[::-1])[::-1] if p.size else p.copy()


def interpolated_average_precision(
    recall: Any, precision: Any, *, method: str = "all-point"
) -> float:
    r"""Average of the precision envelope :math:`\max_{r' \ge r} p(r')` over recall.

    Parameters
    ----------
    recall, precision : array-like of shape (n_points,)
        The points of a detection precision-recall curve in decreasing score order (recall
        non-decreasing), values in [0, 1].  No points (no detections) gives AP 0.
    method : {'all-point', 'voc2007', 'coco'}, default='all-point'
        ``'all-point'``: area under the envelope (PASCAL VOC 2010+).  ``'voc2007'``: mean of the
        envelope at recall 0, 0.1, ..., 1.  ``'coco'``: mean at 101 recall points, as
        pycocotools.  See the module docstring for the exact definitions.

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    Three detections against two objects: hit, miss, hit.

    >>> recall, precision = [0.5, 0.5, 1.0], [1.0, 0.5, 2 / 3]
    >>> interpolated_average_precision(recall, precision)          # 0.5*1 + 0.5*(2/3)
    0.8333333333333333
    >>> round(interpolated_average_precision(recall, precision, method="voc2007"), 6)  # (6*1 + 5*(2/3)) / 11
    0.848485
    >>> round(interpolated_average_precision(recall, precision, method="coco"), 6)     # (51*1 + 50*(2/3)) / 101
    0.834983
    """
    if method not in AP_METHODS:
        raise ValueError(f"method must be one of {AP_METHODS}; got {method!r}.")
    r, p = check_pr_points(recall, precision)
    if method == "all-point":
        return _all_point(r, p)
    return _envelope_mean(r, p, _VOC2007_RECALLS if method == "voc2007" else _COCO_RECALLS)


def _all_point(r: np.ndarray, p: np.ndarray) -> Any:
    """All-point AP of checked curves: a float for 1-D input; for 2-D input (one curve per column,
    recall sorted down each column) one AP per column, equal to the 1-D results to rounding."""
    # Sentinels (0, 0) and (1, 0), as the VOC development kit; the envelope then covers every
    # recall step, and only steps where recall changes contribute.
    if r.ndim == 1:
        mrec = np.r_[0.0, r, 1.0]
        mpre = precision_envelope(np.r_[0.0, p, 0.0])
        step = np.flatnonzero(mrec[1:] != mrec[:-1])
        return float(np.sum((mrec[step + 1] - mrec[step]) * mpre[step + 1]))
    edge = np.zeros((1, r.shape[1]))
    mrec = np.concatenate([edge, r, edge + 1.0])
    mpre = np.maximum.accumulate(np.concatenate([edge, p, edge])[::-1], axis=0)[::-1]
    step = mrec[1:] != mrec[:-1]
    return np.sum(np.where(step, (mrec[1:] - mrec[:-1]) * mpre[1:], 0.0), axis=0)


def _envelope_mean(r: np.ndarray, p: np.ndarray, points: np.ndarray) -> float:
    """Mean over ``points`` of the envelope at the first curve point with recall >= each one (0
    where none reaches it); checked, recall-sorted input.  ``points=_MATLAB_11_RECALLS`` is
    THUMOS'14's 11-point AP (``prap`` of ``TH14eventdetpr.m``)."""
    # Recall is sorted, so the points with recall >= t are those from the first such index on,
    # and the maximum precision over them is the envelope there.
    first = np.searchsorted(r, points, side="left")
    reached = first < r.shape[0]
    values = np.zeros(points.shape[0])
    values[reached] = precision_envelope(p)[first[reached]]
    return float(np.mean(values))


def detection_pr_curve(
    scores: Any, is_tp: Any, n_positives: int, *, eps: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Precision-recall points of a detector, one per detection in decreasing score order.

    .. math:: r_i = \frac{\mathrm{TP}_i}{n_{\mathrm{pos}}}, \qquad
              p_i = \frac{\mathrm{TP}_i}{\mathrm{TP}_i + \mathrm{FP}_i + \varepsilon}

    where :math:`\mathrm{TP}_i, \mathrm{FP}_i` count the first :math:`i` detections.  The sort is
    stable (``np.argsort(-scores, kind='mergesort')``, as pycocotools), so tied detections keep
    their input order.  ``eps=np.spacing(1)`` reproduces pycocotools' precision to the last bit.
    Detections to be ignored (COCO's crowd/area-range ones) should be removed before the call: they
    add repeated points that change no AP.

    Parameters
    ----------
    scores : array-like of shape (n_detections,)
    is_tp : array-like of bool, shape (n_detections,)
        Whether each detection matched a ground-truth object (after the benchmark's matching).
    n_positives : int >= 1
        Number of (non-ignored) ground-truth objects of this class.

    Returns
    -------
    recall, precision, sorted_scores : ndarray of float64, shape (n_detections,)
    """
    s, t, n_pos = check_ranked_detections(scores, is_tp, n_positives)
    if n_pos == 0:
        raise ValueError("n_positives is 0: recall is undefined without ground-truth objects.")
    order = np.argsort(-s, kind="mergesort")
    tp = np.cumsum(t[order], dtype=np.float64)
    fp = np.cumsum(~t[order], dtype=np.float64)
    return tp / n_pos, tp / (fp + tp + eps), s[order]


def detection_average_precision(
    scores: Any, is_tp: Any, n_positives: int, *, method: str = "all-point"
) -> float:
    """Interpolated AP of one class from its detections: :func:`detection_pr_curve` then
    :func:`interpolated_average_precision`.

    ``method='coco'`` computes precision with pycocotools' ``+ np.spacing(1)`` in the denominator,
    so the result is pycocotools' per-class AP at one IoU threshold, area range and ``maxDets``.
    Without ground-truth objects (``n_positives=0``) AP is undefined: NaN with an
    ``UndefinedMetricWarning`` (COCO leaves such a class out of the mean, marked -1).

    Examples
    --------
    >>> detection_average_precision([0.9, 0.8, 0.7], [True, False, True], 2)
    0.8333333333333333
    """
    if method not in AP_METHODS:
        raise ValueError(f"method must be one of {AP_METHODS}; got {method!r}.")
    _, _, n_pos = check_ranked_detections(scores, is_tp, n_positives)
    if n_pos == 0:
        warn(
            "No ground-truth objects (n_positives=0): average precision is undefined; returning nan.",
            UndefinedMetricWarning,
        )
        return float("nan")
    eps = np.spacing(1) if method == "coco" else 0.0
    recall, precision, _ = detection_pr_curve(scores, is_tp, n_pos, eps=eps)
    return interpolated_average_precision(recall, precision, method=method)


def recall_steps(
    n_positives: np.ndarray, recall_thresholds: np.ndarray = _COCO_RECALLS
) -> np.ndarray:
    r"""How many true positives a curve needs to reach each recall threshold, pycocotools' way.

    .. math:: c_r = \min\{c : c / n \ge r\}

    found with the float division ``c / n`` that pycocotools' ``np.searchsorted(tp / npig, recThrs,
    side="left")`` compares (0 for a curve without positives).

    >>> recall_steps(np.array([3]), np.array([0.0, 0.5, 1.0])).tolist()
    [[0, 2, 3]]
    """
    n_positives = np.asarray(n_positives)
    need = np.zeros(n_positives.shape + recall_thresholds.shape, dtype=np.int64)
    for n in np.unique(n_positives[n_positives > 0]).tolist():  # few distinct counts: one each
        recall = np.arange(n + 1) / n
        need[n_positives == n] = np.searchsorted(recall, recall_thresholds, side="left")
    return need


def coco_sampled_precision(
    curve: np.ndarray,
    n_counted: np.ndarray,
    n_positives: np.ndarray,
    recall_thresholds: np.ndarray = _COCO_RECALLS,
    need: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""COCO's 101-point interpolated precision of many detection curves at once.

    Each curve is one (category, IoU threshold, area range, maxDets) of a COCO evaluation, its
    detections in decreasing score order.  Only its true positives are passed: the *j*-th true
    positive, with ``n_counted`` detections counted (true or false positives, not ignored ones) up
    to and including it, has precision :math:`p_j = j / (n_j + \varepsilon)` (``np.spacing(1)``,
    pycocotools' denominator) and recall :math:`j / n_{pos}`.  At each recall threshold *r* the
    result is the envelope :math:`\max_{j' \ge c_r} p_{j'}` at the first true positive that
    reaches *r* (:func:`recall_steps`), 0 when the curve never reaches *r*.

    Between two true positives precision only falls, so the envelope over all detections, read at
    a true positive, is the envelope over the true positives alone.  It is computed in two steps,
    both vectorised over every curve: the maximum of each block between consecutive sampled true
    positives (``np.maximum.reduceat``), then a running maximum from the right over the 101 blocks.

    Parameters
    ----------
    curve : ndarray of int, shape (n_tp,)
        The curve of each true positive, non-decreasing (a curve's true positives contiguous, in
        score order).
    n_counted : ndarray of int, shape (n_tp,)
        Counted detections of its curve up to and including each true positive.
    n_positives : ndarray of int, shape (n_curves,)
        Ground truth (not ignored) of each curve; a curve with none is not sampled (zeros).
    recall_thresholds : ndarray of float, shape (R,)
    need : ndarray of int, shape (n_curves, R), optional
        ``recall_steps(n_positives, recall_thresholds)``, when the caller has it already.

    Returns
    -------
    precision : ndarray of float, shape (n_curves, R)
    read : ndarray of int, shape (n_curves, R)
        Which true positive (an index into ``curve``) each value was read at, -1 where the recall
        is not reached.
    n_tp : ndarray of int, shape (n_curves,)
        True positives of each curve (its final recall is ``n_tp / n_positives``).

    Examples
    --------
    One curve, 2 objects: TP, FP, TP — precision 1 at the first hit, 2/3 at the second.

    >>> p, read, n_tp = coco_sampled_precision(np.array([0, 0]), np.array([1, 3]), np.array([2]),
    ...                                        np.array([0.0, 0.5, 1.0]))
    >>> np.round(p, 6).tolist(), read.tolist(), n_tp.tolist()
    ([[1.0, 1.0, 0.666667]], [[0, 0, 1]], [2])
    """
    n_curves, n_r = n_positives.shape[0], recall_thresholds.shape[0]
    n_tp = np.bincount(curve, minlength=n_curves)
    first = np.cumsum(n_tp) - n_tp
    j = (np.arange(curve.shape[0]) - first[curve] + 1).astype(np.float64)
    pr = j / (n_counted.astype(np.float64) + np.spacing(1))
    need = recall_steps(n_positives, recall_thresholds) if need is None else need
    at = first[:, None] + np.maximum(need, 1) - 1  # c_r = 0 (recall 0) reads the first TP
    reached = (need <= n_tp[:, None]) & (n_positives > 0)[:, None] & (n_tp > 0)[:, None]
    rows = np.flatnonzero(n_tp > 0)
    precision = np.zeros((n_curves, n_r))
    if rows.shape[0]:
        # Block b of a row spans its sampled true positives b .. b + 1 (the last one: to the row's
        # end, which is where the next row's leading index starts).  Indices past a row's last true
        # positive are clipped to it; they are zeroed afterwards.
        last = (first + n_tp - 1)[rows, None]
        starts = np.hstack([first[rows, None], np.minimum(at[rows], last)])
        blocks = np.maximum.reduceat(pr, starts.ravel()).reshape(rows.shape[0], n_r + 1)[:, 1:]
        envelope = np.maximum.accumulate(blocks[:, ::-1], axis=1)[:, ::-1]
        precision[rows] = np.where(reached[rows], envelope, 0.0)
    return precision, np.where(reached, at, -1), n_tp
