"""Kernel 3: greedy matching of detections to ground truth.

Within one image and one class, detections are visited from the highest score down.  Each one takes
the ground-truth box it overlaps best among those still free, provided the IoU reaches the threshold;
otherwise it is a false positive.  A ground-truth box is taken at most once (crowd regions excepted),
so a second detection of the same object (a *duplicate*) finds it taken and becomes a false positive,
unless another free box also reaches the threshold with it: then it takes that one.  That is the
evaluator's job; suppressing duplicates beforehand (NMS) is the detector's.

COCO adds *ignored* ground truth: crowd regions, boxes outside the area range being evaluated, and
(for keypoints) objects without a labelled keypoint.
A detection matched to an ignored box is ignored too (neither a true nor a false positive), and an
ignored box that nobody detects is not a miss.  pycocotools' exact rule, reproduced here:

1. the candidates are the ground-truth boxes with ``IoU >= min(t, 1 - 1e-10)`` that are free (a crowd
   box is always free: it may absorb any number of detections);
2. among the candidates that are **not** ignored take the one with the highest IoU (on a tie, the last
   in annotation order); only if there is none, do the same among the ignored ones.

The loop over detections is inherently sequential (a box taken by detection *k* is unavailable to
detection *k + 1*), but different images, classes, IoU thresholds and area ranges do not interact.
So :func:`greedy_match` runs the sequence once for all of them together: step *k* handles the *k*-th
detection of every (image, class) group at once, with a segmented arg-max over that detection's
candidate boxes.  The number of Python-level steps is the largest number of detections in one group
(at most ``maxDets``), not the number of detections.

Most detections do not even need the steps.  Pairs below the lowest threshold (0.5) can never match
and are dropped first; a detection left with a single candidate box, when no detection with several
candidates competes for that box, is decided in closed form: the box goes to the first detection in
score order that reaches the threshold (every such detection, for a crowd box).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "match_detections",
    "greedy_match",
    "group_pairs",
    "rank_in_groups",
    "match_groups",
    "GroupMatch",
]


def group_pairs(
    det_group: np.ndarray, gt_group_sorted: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (detection, ground truth) pair that shares a group, without a loop.

    Parameters
    ----------
    det_group : ndarray of int, shape (n_det,)
        Group (image x class) of each detection, in the order the pairs should come out.
    gt_group_sorted : ndarray of int, shape (n_gt,)
        Group of each ground-truth box, sorted (boxes of one group are contiguous).

    Returns
    -------
    pair_det, pair_gt : ndarray of int, shape (n_pairs,)
        Detection index and ground-truth position of each pair; the pairs of one detection are
        contiguous and follow the ground-truth order.
    seg_start : ndarray of int, shape (n_det,)
        Where each detection's pairs start (detections without any ground truth have none).
    """
    n_gt = gt_group_sorted.shape[0]
    compact = det_group.dtype.kind in "iu" and gt_group_sorted.dtype.kind in "iu"
    if compact:
        low = min(det_group.min(initial=0), gt_group_sorted.min(initial=0))
        n_groups = int(max(det_group.max(initial=0), gt_group_sorted.max(initial=0))) + 1
        compact = low >= 0 and n_groups <= 8 * (det_group.shape[0] + n_gt) + (1 << 16)
    if compact:
        # Compact group numbers (category * n_images + image): a table of each group's first box
        # and box count, read once per detection, is ten times faster than two binary searches.
        # (as intp: numpy before 2.0 refuses to bincount uint64, and the values are small here)
        det_group, gt_group_sorted = det_group.astype(np.intp), gt_group_sorted.astype(np.intp)
        per_group = np.bincount(gt_group_sorted, minlength=n_groups)
        lo = (np.cumsum(per_group) - per_group)[det_group]
        count = per_group[det_group]
    else:
        lo = np.searchsorted(gt_group_sorted, det_group, side="left")
        count = np.searchsorted(gt_group_sorted, det_group, side="right") - lo
    ends = np.cumsum(count)
    seg_start = ends - count
    n_pairs = int(ends[-1]) if ends.shape[0] else 0
    pair_det = np.repeat(np.arange(det_group.shape[0]), count)
    pair_gt = np.arange(n_pairs) + np.repeat(lo - seg_start, count)
    return pair_det, pair_gt, seg_start


def _stable_argsort(key: np.ndarray) -> np.ndarray:
    """``np.argsort(key, kind="stable")`` for non-negative integers; below 2**16 as uint16, which
    numpy sorts by radix in linear time (several times faster than its merge sort of int64)."""
    if key.shape[0] and 0 <= key.min() and key.max() < 1 << 16:
        key = key.astype(np.uint16)
    return np.argsort(key, kind="stable")


def _stable_argsort_descending(values: np.ndarray) -> np.ndarray:
    """``np.argsort(-values, kind="stable")`` for floats, about three times faster.

    numpy's stable sort of floats is a merge sort, its default one a vectorised quicksort (seven
    times faster here, but ties come out in any order).  So: the quicksort, then each run of tied
    values put back in input order by sorting ``run * n + index``, keys that are all distinct (so
    the quicksort's order among equals does not matter).  NaN sorts last and counts as one value.
    """
    n = values.shape[0]
    order = np.argsort(-values)
    v = values[order]
    same = (v[1:] == v[:-1]) | (np.isnan(v[1:]) & np.isnan(v[:-1]))
    run = np.zeros(n, dtype=np.int64)
    np.cumsum(~same, out=run[1:])
    keys = run * n + order
    keys.sort()
    return keys - run * n  # the runs are contiguous, so sorted keys keep each one's place


def _stable_argsort2(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """``np.lexsort((minor, major))`` (by ``major``, ties by ``minor``, then input order) for
    non-negative integers, as two stable sorts: by ``minor`` first, then by ``major`` keeping that
    order.  Each is a radix sort when its key fits uint16 (5x faster than lexsort's merge sorts)."""
    order = _stable_argsort(minor)
    return order[_stable_argsort(major[order])]


def score_order(score: np.ndarray, minor: np.ndarray | None = None) -> np.ndarray:
    """Indices by descending score, ties by ``minor`` (the image), then by input order: the order in
    which pycocotools' ``accumulate`` meets one category's detections (it concatenates the images'
    lists, in image order, and merge-sorts them by score), and a start for :func:`rank_in_groups`.

    Two stable sorts: by ``minor`` (a radix sort when it fits uint16), then by descending score.
    """
    if minor is None:
        return _stable_argsort_descending(score)
    by_minor = _stable_argsort(minor)
    return by_minor[_stable_argsort_descending(score[by_minor])]


def rank_in_groups(
    group: np.ndarray,
    score: np.ndarray,
    max_det: int,
    n_minor: int | None = None,
    by_score: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """pycocotools' order of the detections: by group, then by descending score (a stable sort: tied
    scores keep the input order, as its mergesort), only the ``max_det`` best of each group.

    Parameters
    ----------
    group : ndarray of int, shape (n,)
        The (category, image) group of each detection, e.g. ``category * n_images + image``.
    score : ndarray of float, shape (n,)
    max_det : int
        Detections kept per group (COCO: 100, or 20 for keypoints).
    n_minor : int, optional
        When ``group = major * n_minor + minor`` (category * n_images + image), sort by the two
        parts one after the other: each fits a radix sort where the product would not.
    by_score : ndarray of int, optional
        :func:`score_order` of ``score``, when the caller has it (it is the slow sort; the group
        sorts that follow are radix sorts).  Its ties may be broken by any key that is constant
        inside a group (the image, with ``n_minor``): inside a group they stay in input order.

    Returns
    -------
    order : ndarray of int
        The kept detections (indices into the input), group after group, best first.
    rank : ndarray of int
        The position of each kept detection inside its group (0 = its best).

    Examples
    --------
    >>> order, rank = rank_in_groups(np.array([1, 0, 1, 1]), np.array([0.2, 0.9, 0.8, 0.8]), 2)
    >>> order.tolist(), rank.tolist()
    ([1, 2, 3], [0, 0, 1])
    """
    order = score_order(score) if by_score is None else by_score
    if n_minor is None:
        order = order[_stable_argsort(group[order])]
    else:
        order = order[_stable_argsort(group[order] % n_minor)]
        order = order[_stable_argsort(group[order] // n_minor)]
    g = group[order]
    # Position inside the group: the distance to the group's first entry, carried forward with a
    # running maximum (linear; a binary search of every entry was 2.5x slower on 500k detections).
    position = np.arange(g.shape[0])
    first = np.r_[True, g[1:] != g[:-1]] if g.shape[0] else np.zeros(0, dtype=bool)
    rank = position - np.maximum.accumulate(np.where(first, position, 0))
    keep = rank < max_det
    return order[keep], rank[keep]


@dataclass
class GroupMatch:
    """COCO's matching of every (category, image) group, as :func:`match_groups` returns it."""

    det_order: np.ndarray  # kept detections (input indices), by group then rank
    rank: np.ndarray  # rank of each inside its group
    gt_order: np.ndarray  # ground truth (input indices), by group, annotation order inside
    candidates: np.ndarray  # positions in det_order of the detections with a pair >= min threshold
    match: np.ndarray  # (n_candidates, A, T): position in gt_order of the match, or -1
    # every detection (input indices) by descending score (then by image, with n_minor)
    by_score: np.ndarray


def match_groups(
    det_group: np.ndarray,
    det_score: np.ndarray,
    gt_group: np.ndarray,
    max_det: int,
    similarity: Callable[[np.ndarray, np.ndarray], np.ndarray],
    gt_ignore: np.ndarray,
    gt_crowd: np.ndarray,
    iou_thresholds: np.ndarray,
    n_minor: int | None = None,
) -> GroupMatch:
    """Rank, pair and greedily match the detections of every (category, image) group at once — the
    one implementation behind :func:`mltutor.detection.evaluate_coco` and
    :func:`mltutor.detection.error_breakdown`.

    ``similarity(det, gt)`` gives the IoU (or OKS) of the listed pairs, ``det`` and ``gt`` indices
    into the inputs.  A detection none of whose pairs reaches the lowest threshold can match nothing
    at any threshold: only the others (the *candidates*) go through :func:`greedy_match`, so the
    result is ``(n_candidates, A, T)``, not ``(n_detections, A, T)``.

    Parameters
    ----------
    det_group, det_score : ndarray, shape (n_det,)
    gt_group : ndarray of int, shape (n_gt,)
    max_det : int
    similarity : callable
    gt_ignore : ndarray of bool, shape (n_gt, A)
    gt_crowd : ndarray of bool, shape (n_gt,)
    iou_thresholds : ndarray of float, shape (T,)
    n_minor : int, optional
        Passed to :func:`rank_in_groups` (the number of images when groups are
        ``category * n_images + image``).

    Returns
    -------
    GroupMatch

    Examples
    --------
    One image, one class: two detections of one box (IoU 1 and 0.5), thresholds 0.5 and 0.75.

    >>> sim = lambda d, g: np.array([1.0, 0.5])[d]
    >>> m = match_groups(np.array([0, 0]), np.array([0.9, 0.8]), np.array([0]), 100, sim,
    ...                  np.zeros((1, 1), bool), np.zeros(1, bool), np.array([0.5, 0.75]))
    >>> m.candidates.tolist(), m.match[:, 0, :].tolist()
    ([0, 1], [[0, 0], [-1, -1]])
    """
    gt_order = np.argsort(gt_group, kind="stable")  # annotation order inside each group
    by_score = score_order(det_score, None if n_minor is None else det_group % n_minor)
    det_order, rank = rank_in_groups(det_group, det_score, max_det, n_minor, by_score)
    pair_det, pair_gt, _ = group_pairs(det_group[det_order], gt_group[gt_order])
    pair_iou = similarity(det_order[pair_det], gt_order[pair_gt])
    thr = np.minimum(np.asarray(iou_thresholds, dtype=np.float64), 1 - 1e-10)
    keep = pair_iou >= thr.min()
    pair_det, pair_gt, pair_iou = pair_det[keep], pair_gt[keep], pair_iou[keep]
    new = np.r_[True, pair_det[1:] != pair_det[:-1]] if pair_det.shape[0] else np.zeros(0, bool)
    candidates = pair_det[new]  # pair_det is sorted: each detection's pairs are contiguous
    match = greedy_match(
        np.cumsum(new) - 1,
        pair_gt,
        pair_iou,
        rank[candidates],
        gt_ignore[gt_order],
        gt_crowd[gt_order],
        iou_thresholds,
    )
    return GroupMatch(det_order, rank, gt_order, candidates, match, by_score)


def _match_uncontested(det, gt, iou, det_rank, gt_crowd, thr, match):
    """Detections with a single candidate box that no other multi-candidate detection wants; their
    matches are written into the (n_det, T) ``match``, a whole row per detection (each has one pair
    here, since a detection's pairs are contiguous, as :func:`greedy_match` requires).

    Such a box simply goes to the first detection (in score order) whose IoU reaches the threshold,
    or, for a crowd box, to every such detection: no sequential loop is needed.
    """
    order = _stable_argsort2(gt, det_rank[det])  # by box, then rank (score order in the group)
    det, gt, iou = det[order], gt[order], iou[order]
    # How many of the thresholds, in increasing order, each pair reaches.
    by_value = np.argsort(thr, kind="stable")
    reach = np.searchsorted(thr[by_value], iou, side="right")
    # A box's detections in score order: each wins the thresholds it reaches and no earlier one
    # does, from the earlier ones' largest reach up to its own.  The running maximum of
    # box * (T + 1) + reach stays inside a box, since that key increases from box to box.
    n_t = thr.shape[0]
    new_box = np.r_[True, gt[1:] != gt[:-1]]
    offset = (np.cumsum(new_box) - 1) * (n_t + 1)
    best = np.maximum.accumulate(offset + reach)
    start = np.maximum(np.r_[-1, best[:-1]] - offset, 0)  # < 0 for a box's first detection
    start[gt_crowd[gt]] = 0  # a crowd box is never taken: every detection wins what it reaches
    t = np.arange(n_t)
    won = (t >= start[:, None]) & (t < reach[:, None])  # (n, T), thresholds in increasing order
    won = won[:, np.argsort(by_value)]  # in the caller's order
    match[det] = np.where(won, gt[:, None], -1)


def _match_sequential(det, gt, iou, det_rank, gt_ignore, gt_crowd, thr, match):
    """The general case: step k handles the k-th detection of every group at once."""
    order = np.argsort(
        det_rank[det], kind="stable"
    )  # keeps each detection's pairs together, in order
    det, gt, iou = det[order], gt[order], iou[order]
    taken = np.zeros((gt_ignore.shape[0], gt_ignore.shape[1], thr.shape[0]), dtype=bool)
    seg_start = np.flatnonzero(np.r_[True, det[1:] != det[:-1]])
    seg_rank = det_rank[det[seg_start]]
    rank_bounds = np.flatnonzero(np.diff(seg_rank)) + 1
    seg_end = np.r_[seg_start[1:], det.shape[0]]
    for s0, s1 in zip(
        np.r_[0, rank_bounds].tolist(), np.r_[rank_bounds, seg_start.shape[0]].tolist()
    ):
        p0, p1 = int(seg_start[s0]), int(seg_end[s1 - 1])
        starts = seg_start[s0:s1] - p0
        g, v = gt[p0:p1], iou[p0:p1]
        free = ~taken[g] | gt_crowd[g, None, None]  # (n, A, T)
        eligible = free & (v[:, None, None] >= thr)
        # Non-ignored candidates score their IoU (>= 0.5); ignored ones IoU - 1 (exact for IoU in
        # [0.5, 1], and below every non-ignored candidate); the rest -2.
        key = np.where(
            eligible, np.where(gt_ignore[g], v[:, None] - 1.0, v[:, None])[:, :, None], -2.0
        )
        best = np.maximum.reduceat(key, starts, axis=0)  # (detections, A, T)
        # The last pair attaining the best key wins a tie, as in pycocotools' loop.
        at_best = key == np.repeat(best, np.diff(np.r_[starts, p1 - p0]), axis=0)
        pick = np.maximum.reduceat(
            np.where(at_best, np.arange(p1 - p0)[:, None, None], -1), starts, axis=0
        )
        si, ai, ti = np.nonzero(best > -1.5)
        chosen = g[pick[si, ai, ti]]
        taken[chosen, ai, ti] = True
        match[det[seg_start[s0 + si]], ai, ti] = chosen


def greedy_match(
    pair_det: np.ndarray,
    pair_gt: np.ndarray,
    pair_iou: np.ndarray,
    det_rank: np.ndarray,
    gt_ignore: np.ndarray,
    gt_crowd: np.ndarray,
    iou_thresholds: np.ndarray,
) -> np.ndarray:
    """Greedy matching of many independent groups at once (the engine behind COCO evaluation).

    Parameters
    ----------
    pair_det, pair_gt, pair_iou : ndarray, shape (n_pairs,)
        Detection index, ground-truth index and IoU of every (detection, ground truth) pair of the
        same group.  The pairs of one detection are contiguous, ground truth in annotation order.
    det_rank : ndarray of int, shape (n_det,)
        Rank of each detection inside its group (0 = highest score, ties broken by input order).
    gt_ignore : ndarray of bool, shape (n_gt, A)
        Ignore flags of each ground truth under each of ``A`` settings (COCO's area ranges).
    gt_crowd : ndarray of bool, shape (n_gt,)
        Crowd boxes stay available after a match.
    iou_thresholds : ndarray of float, shape (T,)

    Returns
    -------
    ndarray of int64, shape (n_det, A, T)
        Index of the ground truth each detection matched, or -1.

    Notes
    -----
    Pairs below the lowest threshold are dropped first.  A detection left with one candidate box,
    when no detection with several candidates wants that box, is matched in closed form (the box
    goes to the first detection that reaches the threshold); only the rest runs the step-by-step
    loop, whose length is the largest rank among them.
    """
    n_det, n_a = det_rank.shape[0], gt_ignore.shape[1]
    thr = np.minimum(np.asarray(iou_thresholds, dtype=np.float64), 1 - 1e-10)
    keep = pair_iou >= thr.min()
    det, gt, iou = pair_det[keep], pair_gt[keep], pair_iou[keep]
    if det.shape[0] == 0:
        return np.full((n_det, n_a, thr.shape[0]), -1, dtype=np.int64)
    new_det = np.r_[True, det[1:] != det[:-1]]
    seg_len = np.diff(np.r_[np.flatnonzero(new_det), det.shape[0]])
    several = np.repeat(seg_len > 1, seg_len)
    contested = np.zeros(gt_ignore.shape[0], dtype=bool)
    contested[gt[several]] = True
    hard = contested[gt]
    easy = ~hard
    # The closed form gives the same box under every ignore setting: it fills (n_det, T), which is
    # then spread over the A settings in one contiguous copy.
    by_threshold = np.full((n_det, thr.shape[0]), -1, dtype=np.int64)
    _match_uncontested(det[easy], gt[easy], iou[easy], det_rank, gt_crowd, thr, by_threshold)
    match = np.repeat(by_threshold[:, None, :], n_a, axis=1)
    if hard.any():
        _match_sequential(det[hard], gt[hard], iou[hard], det_rank, gt_ignore, gt_crowd, thr, match)
    return match


def match_detections(
    ious: Any,
    iou_threshold: Any = 0.5,
    *,
    gt_ignore: Any = None,
    gt_crowd: Any = None,
) -> np.ndarray:
    """Greedy matching on one image and one class (pycocotools' rule).

    Parameters
    ----------
    ious : array-like of shape (n_det, n_gt)
        IoU of each detection with each ground-truth box, detections **sorted by descending score**
        (e.g. ``box_iou(det_boxes[order], gt_boxes)``).
    iou_threshold : float or sequence of floats, default 0.5
        A detection needs ``IoU >= threshold`` (COCO caps the threshold at ``1 - 1e-10``).
    gt_ignore : array-like of bool, shape (n_gt,), optional
        Ground truth that neither rewards nor penalises (COCO: crowd, or outside the area range).
        Such a box is matched only when no regular box qualifies.
    gt_crowd : array-like of bool, shape (n_gt,), optional
        Crowd boxes may absorb several detections (they are never marked as taken).

    Returns
    -------
    ndarray of int64
        For each detection, the index of the ground-truth box it matched, or -1 (a false positive,
        unless it matched an ignored box).  Shape (n_det,) for a single threshold, (T, n_det) for T
        thresholds.

    Examples
    --------
    Two detections of the same object: the better-scored one takes it, the duplicate finds it taken.

    >>> match_detections([[0.9, 0.0], [0.8, 0.1]]).tolist()
    [0, -1]
    """
    iou = np.asarray(ious, dtype=np.float64)
    if iou.ndim != 2:
        raise ValueError(f"ious must be a 2-D (n_det, n_gt) matrix; got shape {iou.shape}.")
    n_det, n_gt = iou.shape
    thr = np.atleast_1d(np.asarray(iou_threshold, dtype=np.float64))
    if thr.ndim != 1 or not np.all(np.isfinite(thr)):
        raise ValueError(
            f"iou_threshold must be a finite number or a 1-D sequence; got {iou_threshold!r}."
        )

    def flags(value: Any, name: str) -> np.ndarray:
        if value is None:
            return np.zeros(n_gt, dtype=bool)
        arr = np.asarray(value, dtype=bool).reshape(-1)
        if arr.shape[0] != n_gt:
            raise ValueError(
                f"{name} must hold one flag per ground-truth box ({n_gt}); got {arr.shape[0]}."
            )
        return arr

    ignore, crowd = flags(gt_ignore, "gt_ignore"), flags(gt_crowd, "gt_crowd")
    match = greedy_match(
        np.repeat(np.arange(n_det), n_gt),
        np.tile(np.arange(n_gt), n_det),
        iou.reshape(-1),
        np.arange(n_det),
        ignore[:, None],
        crowd,
        thr,
    )
    out = match[:, 0, :].T
    return out[0] if np.ndim(iou_threshold) == 0 else out
