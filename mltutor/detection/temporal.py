r"""Temporal action detection: tIoU, and mAP as ActivityNet and THUMOS'14 score it.

A detection in an untrimmed video is a segment :math:`[s, e]` (seconds) with a label and a score.
Its overlap with a ground-truth segment is the **temporal IoU**

.. math:: \mathrm{tIoU}(a, b) = \frac{\max(0, \min(e_a, e_b) - \max(s_a, s_b))}
          {(e_a - s_a) + (e_b - s_b) - \max(0, \min(e_a, e_b) - \max(s_a, s_b))},

kernel 3's IoU in one dimension.  Both benchmarks then match detections to ground truth class by
class and video, and average an interpolated precision over recall (AP per class), then over
classes (mAP) at each tIoU threshold.  They differ in every step, so the same detections get two
different numbers:

===========  ==========================================  ==========================================
step         ActivityNet (:func:`evaluate_activitynet`)  THUMOS'14 (:func:`evaluate_thumos14`)
===========  ==========================================  ==========================================
thresholds   0.5, 0.55, ..., 0.95 (``np.linspace``)      0.1, 0.2, ..., 0.7
matching     **prediction-major**: by score, each        **ground-truth-major**: each segment, in
             prediction takes the free ground truth of   annotation order, takes the free
             highest tIoU, if that tIoU is ``>= t``      detection of highest overlap, if that
                                                         overlap is ``> t`` (strictly)
Ambiguous    an ordinary class                           a detection that overlaps an "Ambiguous"
                                                         segment and matched nothing is neither a
                                                         TP nor an FP
AP           all-point (area under the envelope, VOC     11-point: mean of the envelope at recall
             2010+)                                      0, 0.1, ..., 1 (MATLAB's levels)
tied scores  see below                                   true positives before false positives
===========  ==========================================  ==========================================

**Sources.**  ActivityNet: ``Evaluation/eval_detection.py`` (``ANETdetection``,
``compute_average_precision_detection``) and ``Evaluation/utils.py`` (``interpolated_prec_rec``,
``segment_iou``) of github.com/activitynet/ActivityNet at commit ``82304fa``.  THUMOS'14: the
official MATLAB kit ``TH14evalkit`` (``TH14evaldet.m``, ``TH14eventdetpr.m``,
``intervaloverlapvalseconds.m``), distributed from the challenge's website and read here in the
copies that papers' code commits to GitHub (demianzhang/weakly-action-localization,
menorashid/nn_net), which agree on every line used.  The test suite re-implements both scorers
line by line (``tests/_temporal_references.py``) and compares them with this module on generated
cases.

**Ties, and where results can differ from the references.**

* ActivityNet sorts a class's predictions with ``score.argsort()[::-1]``.  NumPy's default sort is
  not stable: with NumPy 2.4.6 on an x86-64 CPU with AVX-512,
  ``np.array([1.0, 2, 2, 2, 1, 3, 2]).argsort()`` already lists the tied 2s as 2, 1, 3, 6.  So
  the reference's order among equal scores is not specified.  When its sort happens to be stable,
  tied predictions come in *reverse* input order (videos in the order of
  ``predictions["results"]``, then list order; under Python 2, which the official code targets,
  a dict's order is itself arbitrary).  This module always uses that reverse input order.  Two
  ground-truth segments at the same tIoU from one prediction are handled alike: the reference's
  ``tiou_arr.argsort()[::-1]`` visits the later one first when stable, and this module gives the
  tie to the later one in annotation order (the package's greedy kernel does so).  Without tied
  scores and without such tIoU ties, each sort has a single possible order, and the results are
  the reference's.
* mmaction2 1.2.0's port (``mmaction/evaluation/functional/eval_detection.py``) sorts with
  Python's stable ``list.sort``, so its tied predictions come in input order, not reversed.  It
  also rounds tIoU to float32 (a relative error up to 6e-8), which can move a tIoU close to a
  threshold to its other side; it reads the ground truth without the ``"database"`` level, and it
  drops the first two characters of every ground-truth video name (ActivityNet's ``v_``) but not
  of the predictions'.
* THUMOS'14 uses MATLAB's ``sort``, which is stable: within a video, tied detections keep their
  input order, which decides which one a ground-truth segment takes when both overlap it equally.
  Across videos, the scorer puts all true positives before all false positives and sorts that list
  stably, so among equal scores every true positive counts first.  This module does the same.
* THUMOS's overlap divides the intersection by the *hull* :math:`\max(e) - \min(s)`, which equals
  the union whenever the segments overlap; in floating point the two can differ in the last bit,
  so :func:`evaluate_thumos14` uses THUMOS's arithmetic, not :func:`temporal_iou`'s.
* THUMOS's recall levels come from MATLAB's ``0:0.1:1``.  MathWorks describes its colon operator
  as computing the first half of a range as ``a + k*d`` and the second half as ``b - k*d``, so the
  fourth level is 0.30000000000000004: a class whose recall is exactly 0.3 (3 of 10 segments)
  does not reach that level.  ``interpolated_average_precision(..., method="voc2007")`` reads the
  levels ``k/10`` instead, so its 11-point AP can be higher.

**What each reference does with odd inputs, and what this module does.**

* A video with predictions but no ground truth of their class: each such prediction is a false
  positive in both (for THUMOS'14, unless it overlaps an "Ambiguous" segment).  Predictions are
  not filtered by ``subset``: ActivityNet reads every video of ``predictions["results"]``, so
  predictions for videos of another subset count as false positives.
* A class with ground truth but no prediction has AP 0 in both.
* Segments must end after they start, and scores be finite: THUMOS's overlap puts a reversed
  segment's ends back in order (``[min max]``), ActivityNet's tIoU of two zero-length segments is
  NaN, and neither scorer checks scores; here such records are refused, by name.
* Classes: ActivityNet's are the labels of its ground truth (of the subset); THUMOS's are the 20 of
  its ``detclasslist.txt``, and its scorer stops (``assert(npos>0)``) on one without ground truth.
  Here both take the labels of the ground truth (without "Ambiguous" for THUMOS'14), so a label
  without ground truth is not a class.
* A prediction whose label has no ground truth: the official ActivityNet code fails with a
  ``KeyError``; :func:`evaluate_activitynet` raises a ``ValueError`` naming it.  THUMOS's scorer
  prints a warning and skips a detection whose class is not one of its classes;
  :func:`evaluate_thumos14` skips it with a ``UserWarning``.
* ``subset``: the official ``ANETdetection`` keeps only the videos whose ``"subset"`` is
  ``"validation"`` by default; here ``subset=None`` keeps every video, and ``subset="validation"``
  does what the official default does.  The official class also drops "blocked" videos that it
  downloads from a server (``check_status=True``); this module has no network and drops none.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np

from .._validation.temporal import (
    Segments,
    check_segments,
    check_subset,
    check_tiou_thresholds,
    parse_ground_truth,
    parse_predictions,
)
from .._validation.warning import warn
from ._ap import _MATLAB_11_RECALLS, _all_point, _envelope_mean
from ._matching import greedy_match, group_pairs

__all__ = [
    "ACTIVITYNET_TIOU_THRESHOLDS",
    "AMBIGUOUS",
    "THUMOS14_TIOU_THRESHOLDS",
    "TemporalDetectionResult",
    "evaluate_activitynet",
    "evaluate_thumos14",
    "temporal_iou",
]

#: ActivityNet's thresholds, ``np.linspace(0.5, 0.95, 10)`` (the ninth is 0.8999999999999999).
ACTIVITYNET_TIOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)

#: THUMOS'14's thresholds as papers often report them (the kit's ``TH14evaldet.m`` loops over
#: 0.1:0.1:0.5; papers call the scorer once per threshold, at 0.1 to 0.7 or 0.3 to 0.7).
THUMOS14_TIOU_THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)

#: The ground-truth label of THUMOS'14's ambiguous segments.
AMBIGUOUS = "Ambiguous"


@dataclass(frozen=True)
class TemporalDetectionResult:
    """The scores of :func:`evaluate_activitynet` and :func:`evaluate_thumos14`.

    Attributes
    ----------
    map : float
        ``map_per_threshold.mean()``: ActivityNet's "average mAP".
    map_per_threshold : ndarray of shape (n_thresholds,)
        mAP at each threshold: the unweighted mean of ``ap`` over the classes.
    ap : ndarray of shape (n_classes, n_thresholds)
        AP of each class (rows in the order of ``labels``) at each threshold.
    labels : list
        The classes, sorted: the labels of the ground truth (without "Ambiguous" for THUMOS'14).
    tiou_thresholds : ndarray of shape (n_thresholds,)
    n_positives : ndarray of int64, shape (n_classes,)
        Ground-truth segments of each class.
    protocol : str
        ``"activitynet"`` or ``"thumos14"``.
    """

    map: float
    map_per_threshold: np.ndarray
    ap: np.ndarray
    labels: list
    tiou_thresholds: np.ndarray
    n_positives: np.ndarray
    protocol: str


# --------------------------------------------------------------------------------------------
# Overlaps
# --------------------------------------------------------------------------------------------


def _tiou(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Elementwise tIoU with ActivityNet's arithmetic (``utils.segment_iou``)."""
    inter = np.maximum(np.minimum(e1, e2) - np.maximum(s1, s2), 0.0)
    return inter / ((e2 - s2) + (e1 - s1) - inter)


def _thumos_overlap(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Elementwise overlap with THUMOS's arithmetic: intersection / hull, 0 without overlap."""
    iw = np.minimum(e1, e2) - np.maximum(s1, s2)
    hull = np.maximum(e1, e2) - np.minimum(s1, s2)
    return np.divide(iw, hull, out=np.zeros(iw.shape), where=iw > 0)


def temporal_iou(segments_a: Any, segments_b: Any) -> np.ndarray:
    r"""Temporal IoU of every pair of segments.

    .. math:: \mathrm{tIoU}(a, b) = \frac{|a \cap b|}{|a| + |b| - |a \cap b|}, \qquad
              |a \cap b| = \max(0, \min(e_a, e_b) - \max(s_a, s_b))

    computed as ActivityNet's ``segment_iou`` does (to the last bit).  Segments that only touch
    (``e_a == s_b``) have tIoU 0.

    Parameters
    ----------
    segments_a : array-like of shape (N, 2)
        ``[start, end]`` rows in seconds, finite, ``end > start``.  One segment ``[s, e]`` is read
        as ``N = 1``.
    segments_b : array-like of shape (M, 2)

    Returns
    -------
    ndarray of float64, shape (N, M)

    Examples
    --------
    >>> temporal_iou([[0, 10]], [[5, 15], [0, 10], [10, 20]]).tolist()
    [[0.3333333333333333, 1.0, 0.0]]
    """
    a = check_segments(segments_a, "segments_a")
    b = check_segments(segments_b, "segments_b")
    return _tiou(a[:, None, 0], a[:, None, 1], b[None, :, 0], b[None, :, 1])


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


@dataclass
class _Problem:
    """Ground truth and predictions with shared video codes and class indices."""

    labels: list
    n_videos: int
    gt_video: np.ndarray
    gt_start: np.ndarray
    gt_end: np.ndarray
    gt_class: np.ndarray  # -1 for THUMOS's ambiguous segments
    pr_video: np.ndarray
    pr_start: np.ndarray
    pr_end: np.ndarray
    pr_class: np.ndarray  # -1 for a label without ground truth
    pr_score: np.ndarray


def _codes(labels: list, classes: list) -> np.ndarray:
    index = {c: i for i, c in enumerate(classes)}
    return np.array(list(map(index.get, labels, repeat(-1))), dtype=np.int64).reshape(-1)


def _problem(gt: Segments, pr: Segments, ambiguous: str | None) -> _Problem:
    classes = sorted({v for v in gt.label if v != ambiguous} if ambiguous else set(gt.label))
    if not classes:
        raise ValueError(
            "ground_truth holds no segment to detect (after the subset filter): "
            "mAP is undefined without ground truth."
        )
    pr_types = set(map(type, pr.label)) if pr.label_types is None else pr.label_types
    if len({issubclass(t, str) for t in set(map(type, classes)) | pr_types}) > 1:
        raise ValueError(
            "ground_truth and predictions must use labels of one kind: all strings or all integers."
        )
    index = {v: i for i, v in enumerate(gt.videos)}
    for v in pr.videos:
        index.setdefault(v, len(index))
    pr_video = np.array([index[v] for v in pr.videos], dtype=np.int64)[pr.video]
    gt_class = _codes(gt.label, classes)
    return _Problem(
        classes,
        len(index),
        gt.video,
        gt.start,
        gt.end,
        gt_class,
        pr_video,
        pr.start,
        pr.end,
        _codes(pr.label, classes),
        pr.score,
    )


def _unknown_labels(p: _Problem, pr: Segments) -> list:
    return sorted({pr.label[i] for i in np.flatnonzero(p.pr_class < 0).tolist()}, key=repr)


def _rank_within(groups: np.ndarray) -> np.ndarray:
    """Position of each element among the elements of its group, in the given order."""
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    start = np.flatnonzero(np.r_[True, g[1:] != g[:-1]]) if g.shape[0] else np.zeros(0, int)
    rank = np.empty(groups.shape[0], dtype=np.int64)
    rank[order] = np.arange(g.shape[0]) - np.repeat(start, np.diff(np.r_[start, g.shape[0]]))
    return rank


def _pairs(det_group: np.ndarray, gt_group_sorted: np.ndarray, n_groups: int):
    """``group_pairs``'s pairs (detection, ground-truth position), by a table of groups.

    With group codes below ``n_groups`` and ``n_groups`` not much above the number of
    detections, a count per group (``np.bincount``) and a gather replace the two binary
    searches per detection; otherwise ``group_pairs`` does it.
    """
    if n_groups > 4 * det_group.shape[0] + 1024:
        pair_det, pair_gt, _ = group_pairs(det_group, gt_group_sorted)
        return pair_det, pair_gt
    per_group = np.bincount(gt_group_sorted, minlength=n_groups)
    first = np.cumsum(per_group) - per_group
    lo, count = first[det_group], per_group[det_group]
    ends = np.cumsum(count)
    n_pairs = int(ends[-1]) if ends.shape[0] else 0
    pair_det = np.repeat(np.arange(det_group.shape[0]), count)
    pair_gt = np.arange(n_pairs) + np.repeat(lo - (ends - count), count)
    return pair_det, pair_gt


def _result(ap: np.ndarray, p: _Problem, thresholds: np.ndarray, protocol: str):
    per_threshold = ap.mean(axis=0)
    n_pos = np.bincount(p.gt_class[p.gt_class >= 0], minlength=len(p.labels)).astype(np.int64)
    return TemporalDetectionResult(
        float(per_threshold.mean()),
        per_threshold,
        ap,
        list(p.labels),
        thresholds.copy(),
        n_pos,
        protocol,
    )


# --------------------------------------------------------------------------------------------
# ActivityNet
# --------------------------------------------------------------------------------------------


def _activitynet_ap(p: _Problem, thresholds: np.ndarray) -> np.ndarray:
    n_pr, n_gt, n_cls = p.pr_score.shape[0], p.gt_class.shape[0], len(p.labels)
    # Class by class, descending score; among equal scores the later prediction first (the
    # reference's argsort()[::-1] when its sort is stable).
    order = n_pr - 1 - np.argsort(-p.pr_score[::-1], kind="stable")
    # A stable sort has one result; on 16-bit codes NumPy's stable sort is a radix sort.
    cls = p.pr_class[order]
    order = order[np.argsort(cls.astype(np.int16) if n_cls < 2**15 else cls, kind="stable")]
    det_group = (p.pr_class * p.n_videos + p.pr_video)[order]
    gt_group = p.gt_class * p.n_videos + p.gt_video
    gt_order = np.argsort(gt_group, kind="stable")
    pair_det, pair_pos = _pairs(det_group, gt_group[gt_order], n_cls * p.n_videos)
    pair_gt = gt_order[pair_pos]
    s, e = p.pr_start[order[pair_det]], p.pr_end[order[pair_det]]
    iou = _tiou(s, e, p.gt_start[pair_gt], p.gt_end[pair_gt])
    # Only predictions with a pair that can match go to the kernel; the others are false
    # positives at every threshold.
    near = iou >= thresholds.min()
    pair_det, pair_gt, iou = pair_det[near], pair_gt[near], iou[near]
    cand = np.unique(pair_det)
    no_flags = np.zeros((n_gt, 1), dtype=bool)
    match = greedy_match(
        np.searchsorted(cand, pair_det),
        pair_gt,
        iou,
        # Rank among the candidates of the group: the kernel reads only the order within a group
        # (the other predictions have no pair), the same as among all of the group's predictions.
        _rank_within(det_group[cand]),
        no_flags,
        no_flags[:, 0],
        thresholds,
    )
    tp = np.zeros((n_pr, thresholds.shape[0]), dtype=bool)  # in class/score order
    tp[cand] = match[:, 0, :] >= 0
    bounds = np.searchsorted(p.pr_class[order], np.arange(n_cls + 1))
    n_pos = np.bincount(p.gt_class, minlength=n_cls)
    ap = np.zeros((n_cls, thresholds.shape[0]))
    # Only the rows with a true positive at some threshold enter the curves: a row that is a
    # false positive at every threshold leaves recall unchanged (its term of the sum is 0) and
    # its precision is below that of the last true positive before it, so the envelope at the
    # true positives, all the sum reads, is the same without it.
    rows = np.flatnonzero(tp.any(axis=1))
    hits_all = tp[rows]
    kept = np.searchsorted(rows, bounds)
    for c in range(n_cls):
        hits = hits_all[kept[c] : kept[c + 1]]
        if not hits.shape[0]:
            continue  # no prediction of this class, or no true positive: AP 0, as the reference
        ctp = np.cumsum(hits, axis=0, dtype=np.float64)
        seen = (rows[kept[c] : kept[c + 1]] - bounds[c] + 1).astype(np.float64)[:, None]
        # All-point AP (interpolated_average_precision), every threshold's curve at once;
        # TP + FP after the n-th prediction of the class is n.
        ap[c] = _all_point(ctp / n_pos[c], ctp / seen)
    return ap


def evaluate_activitynet(
    ground_truth: Any,
    predictions: Any,
    tiou_thresholds: Any = ACTIVITYNET_TIOU_THRESHOLDS,
    *,
    subset: str | None = None,
) -> TemporalDetectionResult:
    r"""Temporal detection mAP under ActivityNet's rules (``ANETdetection``).

    For each class *c* and threshold *t*: the predictions of *c* over all videos are visited in
    descending score; each takes, among the still free ground-truth segments of *c* in its video,
    the one of highest tIoU, provided :math:`\mathrm{tIoU} \ge t` (otherwise it is a false
    positive).  With :math:`\mathrm{TP}_n, \mathrm{FP}_n` counted over the first *n* predictions,
    :math:`R_n = \mathrm{TP}_n / N_c` and :math:`P_n = \mathrm{TP}_n / n`, the AP is the
    all-point area under the precision envelope,

    .. math:: \mathrm{AP}_c(t) = \sum_n (R_n - R_{n-1}) \max_{m \ge n} P_m,

    mAP(*t*) is its unweighted mean over the classes and ``result.map`` the mean over the
    thresholds.  Ties in score and the odd cases are described in the module docstring.

    Parameters
    ----------
    ground_truth : dict
        ``{"database": {video: {"annotations": [{"segment": [s, e], "label": str}, ...],
        "subset": str (optional)}}}`` (ActivityNet's JSON).  Other keys are ignored.
    predictions : dict
        ``{"results": {video: [{"segment": [s, e], "label": str, "score": float}, ...]}}``.
        Labels are strings or integers (one kind in both arguments).
    tiou_thresholds : float or sequence of floats, default ``np.linspace(0.5, 0.95, 10)``
        Each in [0, 1).
    subset : str, optional
        Keep only the ground-truth videos whose ``"subset"`` equals this (the official default
        is ``"validation"``).  None keeps every video.

    Returns
    -------
    TemporalDetectionResult

    Raises
    ------
    ValueError
        For a malformed record (named), a segment that is not finite or does not end after it
        starts, a score that is not finite, no ground truth at all, or a predicted label that no
        ground-truth segment has.
    TypeError
        For a container of the wrong type (a list where a dict is expected, say).

    Examples
    --------
    Two segments of one class; the first is found twice (the duplicate is a false positive) and
    the second is found at tIoU 0.6 only:

    >>> gt = {"database": {"v1": {"annotations": [
    ...     {"segment": [0.0, 10.0], "label": "jump"},
    ...     {"segment": [20.0, 30.0], "label": "jump"}]}}}
    >>> pred = {"results": {"v1": [
    ...     {"segment": [0.0, 10.0], "label": "jump", "score": 0.9},
    ...     {"segment": [1.0, 10.0], "label": "jump", "score": 0.8},
    ...     {"segment": [22.0, 34.0], "label": "jump", "score": 0.7}]}}
    >>> r = evaluate_activitynet(gt, pred, [0.5, 0.7])
    >>> r.ap.round(4).tolist(), round(r.map, 4)
    ([[0.8333, 0.5]], 0.6667)
    """
    thresholds = check_tiou_thresholds(tiou_thresholds)
    gt = parse_ground_truth(ground_truth, check_subset(subset))
    pr = parse_predictions(predictions)
    p = _problem(gt, pr, ambiguous=None)
    unknown = _unknown_labels(p, pr)
    if unknown:
        i = int(np.flatnonzero(p.pr_class < 0)[0])
        raise ValueError(
            f"predictions['results'][{pr.videos[pr.video[i]]!r}] has the label {pr.label[i]!r}, "
            f"which no ground-truth segment has (labels without ground truth: {unknown[:5]}); "
            "ActivityNet's scorer fails on such a prediction (KeyError): remove it or add the "
            "class's ground truth."
        )
    return _result(_activitynet_ap(p, thresholds), p, thresholds, "activitynet")


# --------------------------------------------------------------------------------------------
# THUMOS'14
# --------------------------------------------------------------------------------------------


def _thumos_ap(p: _Problem, thresholds: np.ndarray) -> np.ndarray:
    n_cls, n_t = len(p.labels), thresholds.shape[0]
    known = np.flatnonzero(p.pr_class >= 0)
    cls, vid, score = p.pr_class[known], p.pr_video[known], p.pr_score[known]
    # Per (class, video), detections in *reverse* visiting order (ascending score, later input
    # first): the greedy kernel gives a tie to the last candidate, THUMOS's max() to the first.
    rev = np.lexsort((-np.arange(known.shape[0]), score, vid, cls))
    det_group = (cls * p.n_videos + vid)[rev]
    ds, de = p.pr_start[known][rev], p.pr_end[known][rev]
    real = np.flatnonzero(p.gt_class >= 0)
    gt_group = p.gt_class[real] * p.n_videos + p.gt_video[real]
    gt_order = real[np.argsort(gt_group, kind="stable")]  # by group, then annotation order
    gt_group = p.gt_class[gt_order] * p.n_videos + p.gt_video[gt_order]
    # Roles swapped: each ground-truth segment (in annotation order) picks a detection.
    pair_gt, pair_det, _ = group_pairs(gt_group, det_group)
    ov = _thumos_overlap(
        p.gt_start[gt_order][pair_gt], p.gt_end[gt_order][pair_gt], ds[pair_det], de[pair_det]
    )
    n_det = det_group.shape[0]
    no_flags = np.zeros((n_det, 1), dtype=bool)
    strict = np.nextafter(thresholds, np.inf)  # overlap > t  <=>  overlap >= nextafter(t)
    match = greedy_match(
        pair_gt, pair_det, ov, _rank_within(gt_group), no_flags, no_flags[:, 0], strict
    )[:, 0, :]  # (n_gt, T): detection taken or -1
    tp = np.zeros((n_det, n_t), dtype=bool)
    gi, ti = np.nonzero(match >= 0)
    tp[match[gi, ti], ti] = True
    # A detection that overlaps an ambiguous segment of its video (any positive overlap) and
    # matched nothing is left out; one that matched stays a true positive.
    amb = np.flatnonzero(p.gt_class < 0)
    amb = amb[np.argsort(p.gt_video[amb], kind="stable")]
    near_amb = np.zeros(n_det, dtype=bool)
    if amb.shape[0]:
        det_vid = vid[rev]
        pd, pa, _ = group_pairs(det_vid, p.gt_video[amb])
        hit = _thumos_overlap(p.gt_start[amb][pa], p.gt_end[amb][pa], ds[pd], de[pd]) > 0
        near_amb[pd[hit]] = True
    counted = tp | ~near_amb[:, None]
    n_pos = np.bincount(p.gt_class[real], minlength=n_cls)
    bounds = np.searchsorted(cls[rev], np.arange(n_cls + 1))
    score_rev = score[rev]
    ap = np.zeros((n_cls, n_t))
    for c in range(n_cls):
        sl = slice(bounds[c], bounds[c + 1])
        tp_c, counted_c, score_c = tp[sl], counted[sl], score_rev[sl]
        for t in range(n_t):
            keep = counted_c[:, t]
            hits, sc = tp_c[keep, t], score_c[keep]
            # Descending score; among equal scores true positives first (TH14eventdetpr.m sorts
            # [tpconf fpconf] with MATLAB's stable sort).
            hits = hits[np.lexsort((~hits, -sc))]
            ctp = np.cumsum(hits, dtype=np.float64)
            cfp = np.cumsum(~hits, dtype=np.float64)
            # prap of TH14eventdetpr.m: the mean of max(prec(rec >= t)) over MATLAB's 0:0.1:1
            ap[c, t] = _envelope_mean(ctp / n_pos[c], ctp / (ctp + cfp), _MATLAB_11_RECALLS)
    return ap


def evaluate_thumos14(
    ground_truth: Any,
    predictions: Any,
    tiou_thresholds: Any = THUMOS14_TIOU_THRESHOLDS,
    *,
    subset: str | None = None,
) -> TemporalDetectionResult:
    r"""Temporal detection mAP under THUMOS'14's rules (the official ``TH14evaldet.m``).

    For each class *c*, threshold *t* and video: the detections of *c* in the video are sorted by
    descending score (ties keep input order); then each ground-truth segment of *c*, in annotation
    order, takes among the still free detections the one of highest overlap (the first on a tie),
    provided that overlap is **strictly greater** than *t*.  Taken detections are true positives;
    a free detection that overlaps a segment labelled ``"Ambiguous"`` in its video (any positive
    overlap) is left out; the other free ones are false positives.  Over all videos, ranked by
    score (true positives first among equal scores), :math:`R_n = \mathrm{TP}_n / N_c`,
    :math:`P_n = \mathrm{TP}_n / n`, and the AP is the 11-point mean of the envelope

    .. math:: \mathrm{AP}_c(t) = \frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}}
              \max_{R_n \ge r} P_n

    (0 where no point reaches *r*; MATLAB's levels, see the module docstring).  mAP(*t*) is the
    mean over the classes, ``result.map`` the mean over the thresholds.

    Parameters
    ----------
    ground_truth : dict
        ActivityNet's layout, as for :func:`evaluate_activitynet`; segments labelled
        ``"Ambiguous"`` are THUMOS's ambiguous segments, not a class.
    predictions : dict
        ActivityNet's layout.  A detection whose label has no ground truth is skipped with a
        ``UserWarning`` (the official scorer prints a warning and skips it).
    tiou_thresholds : float or sequence of floats, default (0.1, 0.2, ..., 0.7)
        Each in [0, 1).
    subset : str, optional
        Keep only the ground-truth videos whose ``"subset"`` equals this; None keeps every video.

    Returns
    -------
    TemporalDetectionResult

    Examples
    --------
    One action and two detections: the better-scored one overlaps it less.  THUMOS's ground
    truth picks the better overlap (the lower score), so the higher-scored detection is a false
    positive ranked first; ActivityNet's first prediction takes the segment.

    >>> gt = {"database": {"v1": {"annotations": [{"segment": [0.0, 10.0], "label": "jump"}]}}}
    >>> pred = {"results": {"v1": [
    ...     {"segment": [0.0, 6.0], "label": "jump", "score": 0.9},
    ...     {"segment": [0.0, 9.0], "label": "jump", "score": 0.8}]}}
    >>> round(evaluate_thumos14(gt, pred, [0.5]).map, 4)
    0.5
    >>> evaluate_activitynet(gt, pred, [0.5]).map
    1.0
    """
    thresholds = check_tiou_thresholds(tiou_thresholds)
    gt = parse_ground_truth(ground_truth, check_subset(subset))
    pr = parse_predictions(predictions)
    p = _problem(gt, pr, ambiguous=AMBIGUOUS)
    unknown = _unknown_labels(p, pr)
    if unknown:
        warn(
            f"predictions: {int((p.pr_class < 0).sum())} detection(s) with labels that no "
            f"ground-truth segment has ({unknown[:5]}) are skipped, as THUMOS'14's scorer skips "
            "classes that are not among its detection classes."
        )
    return _result(_thumos_ap(p, thresholds), p, thresholds, "thumos14")


from ._temporal_errors import (  # noqa: E402  (the DETAD-style breakdown, chapter 8b)
    ERROR_KINDS,
    TemporalErrorBreakdown,
    temporal_error_breakdown,
)

__all__ += ["ERROR_KINDS", "TemporalErrorBreakdown", "temporal_error_breakdown"]
