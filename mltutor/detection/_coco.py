"""COCO evaluation of boxes, instance masks and keypoints: AP@[.50:.05:.95], AP50, AP75, AP by object
size and AR, as pycocotools.

The three iou types differ only in how a (detection, ground truth) pair is scored — box IoU, mask IoU
(:func:`mltutor.detection.mask.iou`) or OKS (:func:`mltutor.detection.keypoints.oks`) — and in
pycocotools' parameters for keypoints (``maxDets`` 20, no "small" area range, 10 summary numbers).

The pipeline is pycocotools' ``evaluate() → accumulate() → summarize()``, vectorised:

1. **Group and rank.**  Detections are sorted by score inside each (image, category) group (a stable
   sort, so ties keep the input order, like pycocotools' mergesort) and only the best ``maxDets[-1]``
   (100) of each group are kept, without a warning for the rest.
2. **IoU of every pair** that shares a group, in one vectorised expression
   (:func:`mltutor.detection._iou._iou_xywh`, bit-identical to pycocotools' C code).
3. **Greedy matching** for all groups, the 10 IoU thresholds and the 4 area ranges at once
   (:func:`mltutor.detection._matching.greedy_match`).
4. **Accumulate**, all categories and all 40 (area range, IoU threshold) columns at once: sort each
   category's detections by score (stable, in image order as pycocotools concatenates them),
   cumulative TP and FP counts, precision made monotone (the envelope ``max_{r' >= r} p(r')``), and
   precision read at the 101 recall thresholds ``0, 0.01, ..., 1`` at the first detection whose recall
   reaches each one.
5. **Summarize**: the mean over the entries that are not -1 (a category without ground truth in an
   area range is -1 and is left out, not counted as 0).

Why the accumulate step is not :func:`mltutor.detection.interpolated_average_precision` with
``method="coco"``: pycocotools' numbers depend on details that a generic AP function has no reason to
share — the ``+ np.spacing(1)`` in the precision denominator, reading precision at
``np.searchsorted(recall, thresholds, side="left")`` on the *unmerged* per-detection curve, and
returning the whole T x R x K x A x M array rather than one number.  Reproducing those to 1e-9 for all
40 (area, threshold) columns at once is what the private :func:`_accumulate` does; the shared function
is the readable one-curve version used by the VOC evaluator and the chapter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation.detection import (
    CocoGroundTruth,
    parse_coco_detections,
    parse_coco_gt,
)
from .._validation.keypoints import check_num_keypoints, check_sigmas, keypoint_records
from .._validation.masks import (
    image_sizes,
    parse_scored_records,
    result_boxes,
    result_segmentations,
)
from ._ap import coco_sampled_precision, recall_steps
from ._iou import _pair_iou_xywh
from ._matching import _stable_argsort, match_groups
from .keypoints import COCO_SIGMAS, pair_oks
from .mask._overlap import pair_iou
from .mask._rle import _area
from .mask._segmentations import segmentations_to_rle_set

__all__ = [
    "evaluate_coco",
    "STAT_NAMES",
    "KEYPOINT_STAT_NAMES",
    "IOU_TYPES",
    "IOU_THRESHOLDS",
    "RECALL_THRESHOLDS",
    "AREA_RANGES",
    "MAX_DETS",
]

#: The three evaluations of pycocotools' ``COCOeval`` — boxes, instance masks, keypoints.
IOU_TYPES = ("bbox", "segm", "keypoints")

#: pycocotools' ``Params.setDetParams`` values, computed the same way (``np.arange`` would drift).
IOU_THRESHOLDS = np.linspace(0.5, 0.95, int(np.round((0.95 - 0.5) / 0.05)) + 1, endpoint=True)
#: The 101 recall points (0, 0.01, ..., 1) at which precision is sampled.
RECALL_THRESHOLDS = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
#: Detections kept per image and category, highest scores first, for the AR@1/10/100 summaries.
MAX_DETS = (1, 10, 100)
#: Object area ranges in square pixels, both ends included — all, small (≤ 32²), medium (32² to 96²),
#: large (≥ 96²).
AREA_RANGES = ((0**2, 1e5**2), (0**2, 32**2), (32**2, 96**2), (96**2, 1e5**2))
AREA_LABELS = ("all", "small", "medium", "large")

#: The 12 numbers of ``COCOeval.summarize()``, in its order — (name, is AP, IoU, area, maxDets).
_SUMMARY = (
    ("AP", True, None, "all", 100),
    ("AP50", True, 0.5, "all", 100),
    ("AP75", True, 0.75, "all", 100),
    ("APs", True, None, "small", 100),
    ("APm", True, None, "medium", 100),
    ("APl", True, None, "large", 100),
    ("AR1", False, None, "all", 1),
    ("AR10", False, None, "all", 10),
    ("AR100", False, None, "all", 100),
    ("ARs", False, None, "small", 100),
    ("ARm", False, None, "medium", 100),
    ("ARl", False, None, "large", 100),
)
#: The names of the 12 summary numbers, in COCOeval's ``stats`` order (AP, AP50, ..., ARl).
STAT_NAMES = tuple(row[0] for row in _SUMMARY)

#: The 10 numbers of ``COCOeval.summarize()`` for keypoints (``maxDets`` 20; no "small" range).
_KEYPOINT_SUMMARY = (
    ("AP", True, None, "all", 20),
    ("AP50", True, 0.5, "all", 20),
    ("AP75", True, 0.75, "all", 20),
    ("APm", True, None, "medium", 20),
    ("APl", True, None, "large", 20),
    ("AR", False, None, "all", 20),
    ("AR50", False, 0.5, "all", 20),
    ("AR75", False, 0.75, "all", 20),
    ("ARm", False, None, "medium", 20),
    ("ARl", False, None, "large", 20),
)
#: The names of the 10 keypoint summary numbers, in COCOeval's ``stats`` order.
KEYPOINT_STAT_NAMES = tuple(row[0] for row in _KEYPOINT_SUMMARY)


@dataclass(frozen=True)
class _Setup:
    """pycocotools' ``Params`` for one iou type: maxDets, area ranges and the summary rows."""

    max_dets: tuple
    area_ranges: tuple
    area_labels: tuple
    summary: tuple


_BBOX = _Setup(MAX_DETS, AREA_RANGES, AREA_LABELS, _SUMMARY)
_KEYPOINTS = _Setup(
    (20,),
    (AREA_RANGES[0], AREA_RANGES[2], AREA_RANGES[3]),
    ("all", "medium", "large"),
    _KEYPOINT_SUMMARY,
)


def _outside(area: np.ndarray, ranges: tuple = AREA_RANGES) -> np.ndarray:
    """(n, A) flags: area outside each area range (pycocotools: ``a < lo or a > hi``)."""
    lo = np.array([r[0] for r in ranges], dtype=np.float64)
    hi = np.array([r[1] for r in ranges], dtype=np.float64)
    return (area[:, None] < lo) | (area[:, None] > hi)


def _match(
    gt: CocoGroundTruth, dt: Any, setup: _Setup = _BBOX, *args: Any
) -> dict[str, np.ndarray]:
    """Steps 1-3 with every detection's flags laid out in full, (n_det, A, T) ``tp`` and ``fp`` (in
    the accumulation's order, with its ``cat``, ``score``, ``rank`` and ``npig``): the plain picture
    of what the matching decides, for the chapter and the tests.  The evaluation itself uses
    :func:`_match_candidates`, which stores those flags only for the detections that can match."""
    m = _match_candidates(gt, dt, setup, *args)
    n_det, n_a, n_t = m["cat"].shape[0], len(setup.area_ranges), IOU_THRESHOLDS.shape[0]
    cand = m["candidate"]
    tp = np.zeros((n_det, n_a, n_t), dtype=bool)
    counted = np.repeat(m["inside"][:, :, None], n_t, axis=2)  # unmatched: counted where inside
    tp[cand] = m["tp"].T.reshape(-1, n_a, n_t)
    counted[cand] = m["counted"].T.reshape(-1, n_a, n_t)
    return {
        "cat": m["cat"],
        "rank": m["rank"],
        "score": m["score"],
        "tp": tp,
        "fp": counted & ~tp,
        "npig": m["npig"],
    }


def _match_candidates(
    gt: CocoGroundTruth,
    dt: Any,
    setup: _Setup = _BBOX,
    similarity: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    det_area: np.ndarray | None = None,
    gt_ignore_extra: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Steps 1-3: rank detections per group, pair them with their group's ground truth, match; the
    results come in step 4's order (by category, then descending score).

    ``dt`` needs ``img``, ``cat`` and ``score``; for boxes also ``boxes``.  For masks and keypoints,
    ``similarity(det_index, gt_index)`` gives the IoU (or OKS) of the listed pairs (indices into the
    input order), ``det_area`` the detections' areas and ``gt_ignore_extra`` ground truth ignored
    besides crowd regions (keypoints: no labelled keypoint).

    Only the *candidates* (detections with a pair at IoU >= 0.5) are matched and get (A, T) flags;
    every other detection is unmatched at every threshold, so it is a false positive in the area
    ranges that hold its area and ignored in the others: its (A,) ``inside`` flags say all.
    """
    n_img = gt.img_ids.shape[0]
    gt_ignore = gt.crowd[:, None] | _outside(gt.area, setup.area_ranges)  # (n_gt, A)
    if gt_ignore_extra is not None:
        gt_ignore |= gt_ignore_extra[:, None]
    if similarity is None:

        def similarity(d: np.ndarray, g: np.ndarray) -> np.ndarray:
            return _pair_iou_xywh(dt.boxes, gt.boxes, d, g, gt.crowd)

        det_area = dt.boxes[:, 2] * dt.boxes[:, 3]
    m = match_groups(
        dt.cat * n_img + dt.img,
        dt.score,
        gt.cat * n_img + gt.img,
        setup.max_dets[-1],
        similarity,
        gt_ignore,
        gt.crowd,
        IOU_THRESHOLDS,
        n_minor=n_img,
    )
    det_order, gt_order, cand = m.det_order, m.gt_order, m.candidates
    n_a, n_t, n_cand = len(setup.area_ranges), IOU_THRESHOLDS.shape[0], cand.shape[0]
    # Step 4's order: by category, then descending score, ties by image and rank (pycocotools
    # concatenates the images' lists, then merge-sorts them by score).  The matching already sorted
    # by score then image, so one radix sort by category is left; then only the kept detections.
    kept_at = np.full(dt.cat.shape[0], -1, dtype=np.int64)
    kept_at[det_order] = np.arange(det_order.shape[0])
    order = kept_at[m.by_score[_stable_argsort(dt.cat[m.by_score])]]
    order = order[order >= 0]  # positions in det_order
    cand_row = np.full(det_order.shape[0], -1, dtype=np.int64)
    cand_row[cand] = np.arange(n_cand)
    row = cand_row[order]
    is_cand = row >= 0
    inside = ~_outside(det_area[det_order[order]], setup.area_ranges)  # (n_det, A)
    # What a match to each ground truth means in each area range, as 2A bits of one code: bit a, a
    # true positive (pycocotools records the annotation's *id* and reads id 0 as "unmatched"); bit
    # A + a, not ignored.  The appended row is "no match" (-1): not a true positive, not ignored.
    regular = np.vstack([~gt_ignore[gt_order], np.ones((1, n_a), dtype=bool)])
    true_pos = regular & np.r_[gt.ann_id[gt_order] != 0, False][:, None]
    bits = np.hstack([true_pos, regular]) << np.arange(2 * n_a)
    code = bits.sum(axis=1).astype(np.min_scalar_type((1 << 2 * n_a) - 1))
    # One gather of the codes of every (candidate, area range, threshold) match, put in step 4's
    # order and laid out a row per (area range, threshold) column: the accumulation reads rows.
    c = code[m.match].reshape(n_cand, n_a * n_t)[row[is_cand]].T
    c = np.ascontiguousarray(c).reshape(n_a, n_t, n_cand)
    area = np.arange(n_a, dtype=c.dtype)[:, None, None]
    tp = ((c >> area) & 1).view(bool)
    # An unmatched detection is counted where its area is inside the range; a matched one where its
    # ground truth is not ignored.
    counted = tp | (((c >> (area + n_a)) & 1).view(bool) & inside[is_cand].T[:, None, :])
    return {
        "cat": dt.cat[det_order[order]],
        "rank": m.rank[order],
        "score": dt.score[det_order[order]],
        "candidate": is_cand,  # the detections that have (A, T) flags in tp / counted
        "tp": tp.reshape(n_a * n_t, n_cand),  # (A * T, n_cand), candidates in this order
        "counted": counted.reshape(n_a * n_t, n_cand),  # true or false positive (not ignored)
        "inside": inside,
        "npig": _count_regular(gt.cat, gt_ignore, gt.cat_ids.shape[0]),  # (K, A)
    }


def _count_regular(cat: np.ndarray, gt_ignore: np.ndarray, n_cat: int) -> np.ndarray:
    """Number of ground-truth boxes that are not ignored, per category and area range."""
    n_a = gt_ignore.shape[1]
    slot = (cat[:, None] * n_a + np.arange(n_a))[~gt_ignore]  # (category, area range) of each
    return np.bincount(slot, minlength=n_cat * n_a).reshape(n_cat, n_a)


def _running_count(flags: np.ndarray) -> np.ndarray:
    """Cumulative counts along the last axis with a leading 0 (``out[..., i]`` counts the first *i*
    flags), in int32: the flags are copied into the output and summed in place, which is several
    times faster than numpy's ``cumsum`` converting the booleans on the fly."""
    out = np.zeros(flags.shape[:-1] + (flags.shape[-1] + 1,), dtype=np.int32)
    np.copyto(out[..., 1:], flags)
    np.cumsum(out[..., 1:], axis=-1, out=out[..., 1:])
    return out


def _counted_before(
    flags: np.ndarray,
    inside: np.ndarray,
    is_cand: np.ndarray,
    cand_rows: np.ndarray,
    subset: np.ndarray,
    starts: np.ndarray,
    at: np.ndarray,
    col: np.ndarray,
    k: np.ndarray,
    T: int,
    found: tuple | None = None,
) -> np.ndarray:
    """For each (column ``col``, category ``k``, position ``at``) query: how many detections of
    ``subset`` (positions in the accumulation order, sorted) lie in that category before ``at`` (or
    at it) and are counted in that column.  ``starts[k]`` is where category *k* begins.

    Candidates count by their (A * T, n_cand) ``flags`` (column ``cand_rows[position]``), the others
    where their area is inside the range (``inside``, (n, A)); both as running counts over ``subset``
    with a leading 0.
    ``found`` = (subset items, candidates of it) up to each ``at``, when the caller knows them.
    """
    sub_cand = is_cand[subset]
    others = _running_count(inside[subset].T & ~sub_cand)  # (A, len(subset) + 1)
    cand_pos = subset[sub_cand]
    rows = cand_rows[cand_pos]  # increasing: all of them when the subset holds every candidate
    running = _running_count(flags if rows.shape[0] == flags.shape[1] else flags[:, rows])
    if found is None:
        # Items of subset (and candidates of it) at or before each position: one running count over
        # the positions, read at every query (a binary search of each query was ten times slower).
        member = np.zeros(inside.shape[0], dtype=np.int64)
        member[subset] = 1
        member_cand = member * is_cand
        found = (np.cumsum(member, out=member)[at], np.cumsum(member_cand, out=member_cand)[at])
    i, j = found
    i0, j0 = np.searchsorted(subset, starts), np.searchsorted(cand_pos, starts)
    # The counts before each category's start, per column: a small (C, K) table read once per query
    # (where two more reads of the large running counts would jump around memory).
    before = np.repeat(others[:, i0], T, axis=0) + running[:, j0]
    # The reads as flat indices (faster than two-array indexing).
    at_area = (col // T) * others.shape[1]
    at_col = col * running.shape[1]
    out = others.ravel()[at_area + i]
    out += running.ravel()[at_col + j]
    out -= before.ravel()[col * starts.shape[0] + k]
    return out


def _accumulate(
    m: dict[str, np.ndarray], n_cat: int, setup: _Setup = _BBOX
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 4: precision (T, R, K, A, M), recall (T, K, A, M) and scores (T, R, K, A, M).

    pycocotools, for each category, area range, maxDets and IoU threshold: sorts the detections by
    score, takes cumulative TP and FP counts, precision ``tp / (tp + fp + eps)``, makes it
    non-increasing from the right (the envelope) and reads it at the first detection whose recall
    reaches each threshold.  Here every (category, area range, threshold) curve of one maxDets goes
    at once, and only the true positives are laid out (:func:`mltutor.detection._ap.
    coco_sampled_precision` samples them).  What a true positive needs is the number of counted
    detections up to it in its category: for the candidates a running count per (area range,
    threshold) column, for all the others (unmatched everywhere) one per area range.

    The matching does not depend on maxDets (pycocotools matches the best ``maxDets[-1]`` once), so
    the true positives under a smaller maxDets are those of rank below it.  When it drops few
    detections, the counts are the full ones less the dropped detections counted before each
    true positive; otherwise they are counted afresh over the kept ones.
    """
    T, R, K = IOU_THRESHOLDS.shape[0], RECALL_THRESHOLDS.shape[0], n_cat
    A, M = len(setup.area_ranges), len(setup.max_dets)
    C = A * T
    precision = -np.ones((T, R, K, A, M))
    recall = -np.ones((T, K, A, M))
    scores = -np.ones((T, R, K, A, M))
    npig = m["npig"]  # (K, A) ground truth that is not ignored
    # m comes by category, then descending score (ties: image order, then rank, as pycocotools
    # concatenates the images' lists), the candidates' flags in the same order.
    cat, score, rank, is_cand, inside = m["cat"], m["score"], m["rank"], m["candidate"], m["inside"]
    n = cat.shape[0]
    bounds = np.searchsorted(cat, np.arange(K + 1))
    cand_row = np.cumsum(is_cand) - 1  # each candidate's column in tp / counted
    counted = m["counted"]

    # Every true positive under the largest maxDets: its column, position and category.
    cand_pos = np.flatnonzero(is_cand)
    # By column, then score order.  np.nonzero of the 2-D flags is four times slower than the flat
    # positions split into (row, column).
    flat = np.flatnonzero(m["tp"])
    col, q = np.divmod(flat, m["tp"].shape[1])
    p_all = cand_pos[q]
    k_all = cat[p_all]
    everything = np.arange(n)
    full_counted = _counted_before(
        counted,
        inside,
        is_cand,
        cand_row,
        everything,
        bounds[:-1],
        p_all,
        col,
        k_all,
        T,
        found=(p_all + 1, q + 1),
    )
    # pycocotools' score at recall 0: the category's first detection (rank 0 in its group, kept by
    # every maxDets); elsewhere the score of the true positive read.
    first_score = np.zeros(K)
    has_det = bounds[1:] > bounds[:-1]
    first_score[has_det] = score[bounds[:-1][has_det]]
    curve_npig = np.repeat(npig.T, T, axis=0).reshape(-1)  # curve = column * K + category
    need = recall_steps(curve_npig, RECALL_THRESHOLDS)
    at_zero = (need == 0) & (curve_npig > 0)[:, None]
    evaluated = (npig > 0).T[:, None, :, None]  # (A, 1, K, 1) against (A, T, K, R)
    full = None  # the column of the first maxDets that drops nothing: the others are copies
    for mi, max_det in enumerate(setup.max_dets):
        dropped = np.flatnonzero(rank >= max_det)
        if dropped.shape[0] == 0 and full is not None:
            precision[..., mi], scores[..., mi], recall[..., mi] = (
                precision[..., full],
                scores[..., full],
                recall[..., full],
            )
            continue
        keep = rank[p_all] < max_det
        p, k, c = p_all[keep], k_all[keep], col[keep]
        if dropped.shape[0] == 0:
            n_counted, full = full_counted, mi
        elif dropped.shape[0] < n - dropped.shape[0]:
            n_counted = full_counted[keep] - _counted_before(
                counted, inside, is_cand, cand_row, dropped, bounds[:-1], p, c, k, T
            )
        else:
            n_counted = _counted_before(
                counted,
                inside,
                is_cand,
                cand_row,
                np.flatnonzero(rank < max_det),
                bounds[:-1],
                p,
                c,
                k,
                T,
            )
        pr, read, n_tp = coco_sampled_precision(
            c * K + k, n_counted, curve_npig, RECALL_THRESHOLDS, need
        )
        ss = np.where(read >= 0, np.r_[score[p], 0.0][read], 0.0)
        ss = np.where(at_zero, np.tile(first_score, C)[:, None], ss)
        precision[..., mi] = np.where(evaluated, pr.reshape(A, T, K, R), -1).transpose(1, 3, 2, 0)
        scores[..., mi] = np.where(evaluated, ss.reshape(A, T, K, R), -1).transpose(1, 3, 2, 0)
        rc = n_tp.reshape(A, T, K) / np.maximum(npig.T, 1)[:, None, :]
        recall[..., mi] = np.where(evaluated[..., 0], rc, -1).transpose(1, 2, 0)
    return precision, recall, scores


def _summarize(
    precision: np.ndarray, recall: np.ndarray, setup: _Setup = _BBOX
) -> dict[str, float]:
    """Step 5: ``COCOeval.summarize()``'s numbers (mean over entries > -1, else -1)."""
    stats = {}
    for name, is_ap, iou, area, max_det in setup.summary:
        a = setup.area_labels.index(area)
        mi = setup.max_dets.index(max_det)
        s = precision[..., a, mi] if is_ap else recall[..., a, mi]
        if iou is not None:
            s = s[np.where(iou == IOU_THRESHOLDS)[0]]
        valid = s[s > -1]
        stats[name] = float(np.mean(valid)) if valid.shape[0] else -1.0
    return stats


def _gt_where(i: int) -> str:
    return f"coco_gt['annotations'][{i}]"


def _dt_where(i: int) -> str:
    return f"detections[{i}]"


def _segm_inputs(coco_gt: Any, gt: CocoGroundTruth, detections: Any) -> tuple:
    """Mask IoU as pycocotools' ``computeIoU`` for 'segm': ground truth and detections as RLEs at
    their image's size, ground-truth areas from the ``area`` field, detection areas as ``loadRes``
    sets them: ``bbox[2] * bbox[3]`` when the results carry boxes, else the mask's area."""
    heights, widths = image_sizes(coco_gt, gt.img_ids)
    anns = coco_gt["annotations"]
    missing = next((i for i, a in enumerate(anns) if "segmentation" not in a), None)
    if missing is not None:
        raise ValueError(
            f"{_gt_where(missing)} has no 'segmentation'; iou_type='segm' needs a polygon list or "
            "an RLE for every annotation."
        )
    gt_rles = segmentations_to_rle_set(
        tuple(a["segmentation"] for a in anns), heights[gt.img], widths[gt.img], _gt_where
    )
    dt = parse_scored_records(detections, gt, "segmentation")
    dt_rles = segmentations_to_rle_set(dt.values, heights[dt.img], widths[dt.img], _dt_where)
    dt_pixels, gt_pixels = _area(dt_rles), _area(gt_rles)

    def similarity(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        # A pair can only be matched at IoU >= IOU_THRESHOLDS[0] (0.5), and |d ∩ g| <= min(|d|, |g|)
        # bounds the IoU by min/max of the areas (|g|/|d| for a crowd region).  So a pair whose
        # areas differ more than 2x keeps IoU 0 without counting: the matching cannot tell.
        a, b = dt_pixels[d], gt_pixels[g]
        small, large = (
            np.where(gt.crowd[g], b, np.minimum(a, b)),
            np.where(gt.crowd[g], a, np.maximum(a, b)),
        )
        can_match = np.flatnonzero(2 * small >= large)  # in integers: exact
        out = np.zeros(d.shape[0])
        # every mask is at its image's size (checked above), so no pair is pycocotools' -1
        out[can_match] = pair_iou(
            dt_rles, gt_rles, d[can_match], g[can_match], gt.crowd, same_sizes=True
        )
        return out

    boxes = result_boxes(detections)
    dt_area = _area(dt_rles).astype(np.float64) if boxes is None else boxes[:, 2] * boxes[:, 3]
    return dt, _BBOX, similarity, dt_area


def _keypoint_inputs(coco_gt: Any, gt: CocoGroundTruth, detections: Any, sigmas: Any) -> tuple:
    """OKS as pycocotools' ``computeOks``; ground truth with ``num_keypoints == 0`` ignored.  Detection
    areas as ``loadRes`` sets them: ``bbox[2] * bbox[3]`` when the results carry boxes, else the mask's
    area when they carry a ``segmentation``, else the keypoints' extent ``(max x - min x)(max y - min y)``."""
    sig = check_sigmas(sigmas, "kpt_oks_sigmas", COCO_SIGMAS)
    k = sig.shape[0]
    anns = coco_gt["annotations"]
    for i, a in enumerate(anns):
        if "keypoints" not in a or "num_keypoints" not in a:
            key = "keypoints" if "keypoints" not in a else "num_keypoints"
            raise ValueError(
                f"{_gt_where(i)} has no {key!r}; iou_type='keypoints' needs 'keypoints' and "
                "'num_keypoints' in every annotation."
            )
    gt_kpt = keypoint_records([a["keypoints"] for a in anns], k, _gt_where, flags=True)
    n_kpt = check_num_keypoints([a["num_keypoints"] for a in anns], _gt_where)
    dt = parse_scored_records(detections, gt, "keypoints")
    dt_kpt = keypoint_records(list(dt.values), k, _dt_where, flags=False)
    boxes = result_boxes(detections, otherwise="their masks, or their keypoints' extent")
    segms = result_segmentations(detections) if boxes is None else None
    if boxes is not None:
        dt_area = boxes[:, 2] * boxes[:, 3]
    elif segms is not None:
        heights, widths = image_sizes(coco_gt, gt.img_ids)
        dt_area = _area(
            segmentations_to_rle_set(segms, heights[dt.img], widths[dt.img], _dt_where)
        ).astype(np.float64)
    else:
        x, y = dt_kpt[:, :, 0], dt_kpt[:, :, 1]
        dt_area = (
            (x.max(axis=1) - x.min(axis=1)) * (y.max(axis=1) - y.min(axis=1)) if k else np.zeros(0)
        )

    def similarity(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        return pair_oks(dt_kpt, gt_kpt, gt.area, gt.boxes, sig, d, g)

    no_keypoints = n_kpt.astype(np.int64) == 0 if len(anns) else np.zeros(0, dtype=bool)
    return dt, _KEYPOINTS, similarity, dt_area, no_keypoints


def evaluate_coco(
    coco_gt: Any, detections: Any, *, iou_type: str = "bbox", kpt_oks_sigmas: Any = None
) -> dict[str, Any]:
    r"""COCO detection metrics, equal to ``pycocotools.cocoeval.COCOeval`` for boxes, masks and keypoints.

    AP at one IoU threshold *t* and one category is the mean, over the 101 recall levels
    :math:`r \in \{0, 0.01, \ldots, 1\}`, of the interpolated precision

    .. math:: p_{\text{interp}}(r) = \max_{r' \ge r} p(r')

    (0 where the recall never reaches *r*).  ``AP`` averages this over the IoU thresholds
    0.50, 0.55, ..., 0.95 and over the categories that have ground truth; ``AR`` averages the final
    recall the same way, at most ``maxDets`` detections per image *and category*.

    A pair (detection *d*, ground truth *g*) is matched when its similarity reaches *t*:

    * ``"bbox"`` and ``"segm"``: :math:`\mathrm{IoU} = |d \cap g| / |d \cup g|` of the boxes or of the
      masks; for a crowd region :math:`|d \cap g| / |d|`.
    * ``"keypoints"``: :math:`\mathrm{OKS} = \frac{1}{|L|}\sum_{i \in L}
      \exp\!\big(-d_i^2 / (2\,s\,(2\sigma_i)^2)\big)` over the labelled keypoints *L* of *g*,
      with *s* its ``area`` and :math:`\sigma_i` the per-keypoint spread (see
      :mod:`mltutor.detection.keypoints`).

    Parameters
    ----------
    coco_gt : dict
        The COCO ground-truth dict (``json.load`` of an instances file; a pycocotools ``COCO`` object
        is read through its ``.dataset``):
        ``images`` (each with ``id``), ``categories`` (each with ``id``) and ``annotations`` (each with
        ``id``, ``image_id``, ``category_id``, ``bbox`` = [x, y, width, height], ``area``, and
        optionally ``iscrowd``).  Size ranges use the ``area`` field, not the box or the mask: in COCO
        it is the segmentation mask's area.  For ``"segm"`` every annotation also needs
        ``segmentation``: a list of polygons ``[[x1, y1, x2, y2, ...], ...]`` (rasterised at the image's
        ``height`` and ``width`` exactly as pycocotools does, then merged) or an RLE dict (crowd regions
        are RLEs in COCO).  For ``"keypoints"``: ``keypoints`` ``[x1, y1, v1, ...]`` with v in
        {0, 1, 2} and ``num_keypoints`` (an object with 0 is ignored, as in pycocotools: it is never a
        miss, but it can absorb one detection; see :mod:`mltutor.detection.keypoints`).
    detections : list of dict
        COCO results: ``image_id``, ``category_id``, ``score`` and ``bbox`` ([x, y, width, height]),
        ``segmentation`` (an RLE dict, compressed or not, or polygons — the ``loadRes`` of pycocotools
        2.0.11 takes only compressed RLEs) or ``keypoints`` (3 numbers per keypoint; the third is not
        used).  A detection's area,
        for the size ranges, is its box's, its mask's, or its keypoints' extent
        ``(max x - min x)(max y - min y)``, as pycocotools' ``loadRes`` computes it; mask and keypoint
        results that also carry a ``bbox`` take its area ``width * height``, and keypoint results
        with a ``segmentation`` (and no box) their mask's area (``loadRes`` again), so give boxes (or
        masks) with all results or with none.  An empty list is allowed (the AP of each category that
        has ground truth is then 0).
    iou_type : {"bbox", "segm", "keypoints"}
        What a match is measured on.
    kpt_oks_sigmas : array-like of float, shape (K,), optional
        Keypoints only: the per-keypoint sigmas, any number *K* of keypoints (a hand, an animal); the
        default is :data:`mltutor.detection.keypoints.COCO_SIGMAS` (the 17 person keypoints).
        Equivalent to setting pycocotools' ``params.kpt_oks_sigmas``.

    Returns
    -------
    dict
        ``AP, AP50, AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl`` (floats, -1 where
        undefined, as pycocotools' ``stats``) — for keypoints instead
        ``AP, AP50, AP75, APm, APl, AR, AR50, AR75, ARm, ARl`` (``maxDets`` 20); ``stats`` (the same
        numbers as an array);
        ``AP_per_class`` ({category id: AP@[.5:.95], -1 without ground truth}); ``precision``
        (T x R x K x A x M), ``recall`` (T x K x A x M) and ``scores`` (T x R x K x A x M), laid out
        like ``COCOeval.eval``; and ``params`` (the thresholds, area ranges, maxDets and the
        category and image ids indexing K and the images).

    Raises
    ------
    ValueError
        A record without a required key (the message names it and suggests the closest key), a box
        with NaN, inf or a negative width or height, a NaN score, a detection or annotation whose
        ``image_id`` or ``category_id`` is not in the ground truth's ``images`` / ``categories``,
        duplicate annotation ids.  (pycocotools silently drops unknown categories; mltutor refuses
        them, because they are almost always a label-mapping bug.)  Masks: a polygon with fewer than 3
        points or NaN coordinates, an RLE whose runs do not add up to its size or whose size is not its
        image's, polygons on an image without ``height``/``width``.  Keypoints: a list that is not 3
        numbers per sigma, NaN or inf coordinates, a visibility flag outside {0, 1, 2}, sigmas that
        are not positive and finite.  Mask or keypoint results of which some carry a ``bbox`` (for
        keypoints also a ``segmentation``) and some do not.  An unknown ``iou_type``, or
        ``kpt_oks_sigmas`` with another iou type.

    Notes
    -----
    pycocotools quirks kept for parity: a detection matched to an annotation whose ``id`` is 0 counts
    as unmatched; detections beyond the 100 best of an (image, category) are dropped before matching;
    an ignored detection (matched to a crowd box or, unmatched, outside the area range) still uses
    up one of the ``maxDets`` slots.

    Examples
    --------
    >>> gt = {"images": [{"id": 1}], "categories": [{"id": 1}],
    ...       "annotations": [{"id": 1, "image_id": 1, "category_id": 1,
    ...                        "bbox": [0, 0, 10, 10], "area": 100, "iscrowd": 0}]}
    >>> dets = [{"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},
    ...         {"image_id": 1, "category_id": 1, "bbox": [1, 0, 10, 10], "score": 0.8}]
    >>> r = evaluate_coco(gt, dets)
    >>> round(r["AP"], 12), r["AR1"]  # precision is tp / (tp + fp + eps), as pycocotools
    (1.0, 1.0)
    """
    if iou_type not in IOU_TYPES:
        raise ValueError(f"iou_type must be one of {list(IOU_TYPES)}; got {iou_type!r}.")
    if kpt_oks_sigmas is not None and iou_type != "keypoints":
        raise ValueError(
            f"kpt_oks_sigmas is used only with iou_type='keypoints'; got iou_type={iou_type!r}."
        )
    if hasattr(coco_gt, "dataset") and not isinstance(coco_gt, dict):  # a pycocotools COCO object
        coco_gt = coco_gt.dataset
    gt = parse_coco_gt(coco_gt)
    K = gt.cat_ids.shape[0]
    setup = _KEYPOINTS if iou_type == "keypoints" else _BBOX
    if iou_type == "bbox":
        m = _match_candidates(gt, parse_coco_detections(detections, gt))
    elif iou_type == "segm":
        m = _match_candidates(gt, *_segm_inputs(coco_gt, gt, detections))
    else:
        m = _match_candidates(gt, *_keypoint_inputs(coco_gt, gt, detections, kpt_oks_sigmas))
    precision, recall, scores = _accumulate(m, K, setup)
    stats = _summarize(precision, recall, setup)
    names = KEYPOINT_STAT_NAMES if iou_type == "keypoints" else STAT_NAMES
    per_class = precision[:, :, :, 0, -1]  # area "all", maxDets 100
    ap_per_class = {}
    for k, cat_id in enumerate(gt.cat_ids.tolist()):
        s = per_class[:, :, k]
        ap_per_class[cat_id] = float(np.mean(s[s > -1])) if (s > -1).any() else -1.0
    return {
        **stats,
        "stats": np.array([stats[name] for name in names]),
        "AP_per_class": ap_per_class,
        "precision": precision,
        "recall": recall,
        "scores": scores,
        "params": {
            "iou_thresholds": IOU_THRESHOLDS.copy(),
            "recall_thresholds": RECALL_THRESHOLDS.copy(),
            "area_ranges": [list(r) for r in setup.area_ranges],
            "area_labels": list(setup.area_labels),
            "max_dets": list(setup.max_dets),
            "cat_ids": gt.cat_ids.tolist(),
            "img_ids": gt.img_ids.tolist(),
        },
    }
