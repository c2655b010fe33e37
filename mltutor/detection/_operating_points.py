r"""Which score threshold gives each recall point, and the F1-confidence curve of each class.

COCO's AP reads precision at the 101 recall points :math:`r \in \{0, 0.01, \ldots, 1\}`; a
deployed detector needs the other direction: *which score threshold* gives recall *r*?  pycocotools
already records it (``eval['scores']``, kept by :func:`mltutor.detection.evaluate_coco` as
``result['scores']``): at recall point *r* it is the score of the first detection, in the
category's score order, at which the cumulative recall reaches *r*.  :func:`coco_operating_points`
lays that array out per class, with the precision there.

The F1-confidence curve (what Ultralytics plots) goes the other way round: for every confidence
threshold *c*, keep the detections with ``score >= c`` and report precision, recall and F1 at one
IoU threshold.  Because COCO's greedy matching visits detections from the highest score down, the
matches of the kept detections do not depend on the dropped ones: matching once and counting the
prefix is exact (:func:`f1_confidence_curve`).

Matching here is COCO's (:func:`mltutor.detection.evaluate_coco`, area range "all", at most 100
detections per image and category): a detection matched to a crowd region is ignored (neither a
true nor a false positive) and crowd regions are not objects to find.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.detection import (
    CocoDetections,
    CocoGroundTruth,
    parse_coco_detections,
    parse_coco_gt,
)
from .._validation.detection_tables import (
    check_coco_result,
    check_confidence_grid,
    check_iou_threshold,
)
from ._iou import _pair_iou_xywh
from ._matching import match_groups

__all__ = ["coco_operating_points", "f1_confidence_curve", "coco_matches"]

#: pycocotools' area range "all": ground truth outside it is ignored.
_ALL = (0.0, 1e5**2)


def coco_matches(
    gt: CocoGroundTruth, dt: CocoDetections, iou_threshold: float
) -> tuple[np.ndarray, np.ndarray]:
    """COCO's per-category matching at one IoU threshold, area "all", 100 detections per group.

    Returns ``status`` (n_det,) — 1 true positive, 0 false positive, -1 ignored (matched to an
    ignored box: crowd, or area outside "all"), -2 dropped (beyond the 100 best of its image and
    category) — and ``matched`` (n_det,), the annotation index matched, or -1.
    """
    n_img, n_det = gt.img_ids.shape[0], dt.score.shape[0]
    gt_ignore = gt.crowd | (gt.area < _ALL[0]) | (gt.area > _ALL[1])

    def iou(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        return _pair_iou_xywh(dt.boxes, gt.boxes, d, g, gt.crowd)

    m = match_groups(
        dt.cat * n_img + dt.img,
        dt.score,
        gt.cat * n_img + gt.img,
        100,
        iou,
        gt_ignore[:, None],
        gt.crowd,
        np.array([iou_threshold]),
        n_minor=n_img,
    )
    matched = np.full(n_det, -1, dtype=np.int64)
    matched[m.det_order[m.candidates]] = np.r_[m.gt_order, -1][m.match[:, 0, 0]]
    status = np.full(n_det, -2, dtype=np.int64)
    status[m.det_order] = 0
    hit = matched >= 0
    status[hit] = np.where(gt_ignore[matched[hit]], -1, 1)
    return status, matched


def coco_operating_points(
    result: dict, *, iou_threshold: float = 0.5, area: str = "all", max_dets: int = 100
) -> dict[str, Any]:
    r"""The score threshold at which each class first reaches each of COCO's 101 recall points.

    For class *k*, with its detections in descending score order :math:`d_1, d_2, \ldots` (a stable
    sort: tied scores keep pycocotools' order, image by image) and cumulative recall
    :math:`\rho_i = \mathrm{TP}_i / n_k`, the operating point of recall point *r* is

    .. math:: i(r) = \min\{\, i : \rho_i \ge r \,\}, \qquad s(r) = \mathrm{score}(d_{i(r)}),
              \qquad p(r) = \max_{j \ge i(r)} \frac{\mathrm{TP}_j}{\mathrm{TP}_j + \mathrm{FP}_j}

    — ``result['scores']`` and ``result['precision']`` of :func:`evaluate_coco`, which equal
    pycocotools' ``eval['scores']`` and ``eval['precision']``.  Without ties,
    :math:`s(r) = \max\{s : \mathrm{recall}(\mathrm{score} \ge s) \ge r\}`: keeping the
    detections with ``score >= s(r)`` gives recall at least *r*, and any higher threshold less.

    **Tie rule.**  When several detections share the score :math:`s(r)`, pycocotools stops at the
    one, in its order, where recall reaches *r*; keeping ``score >= s(r)`` keeps all of them, so
    the recall you get is at least *r* but can be higher, and the precision can differ from
    :math:`p(r)`.

    Parameters
    ----------
    result : dict
        What :func:`mltutor.detection.evaluate_coco` returned.
    iou_threshold : float, default 0.5
        One of the evaluation's IoU thresholds (0.5, 0.55, ..., 0.95).
    area : {"all", "small", "medium", "large"}, default "all"
    max_dets : int, default 100
        One of the evaluation's ``maxDets`` (1, 10, 100).

    Returns
    -------
    dict
        ``recall`` (R,), the 101 recall points; ``cat_ids`` (K,); ``score`` (K, R), the threshold
        :math:`s(r)`, NaN where the class never reaches *r* or has no ground truth (pycocotools
        writes 0 and -1 there); a class with objects but no detection reaches only :math:`r = 0`, where
        it reads pycocotools' 0; ``precision`` (K, R), the interpolated precision :math:`p(r)`
        there (NaN likewise), which can exceed the precision of the detections kept at
        :math:`s(r)`; ``max_recall`` (K,), the recall with every detection kept (NaN without
        ground truth).

    Examples
    --------
    >>> from mltutor.detection import evaluate_coco
    >>> gt = {"images": [{"id": 1}], "categories": [{"id": 1}],
    ...       "annotations": [{"id": i, "image_id": 1, "category_id": 1, "area": 100,
    ...                        "bbox": [20 * i, 0, 10, 10]} for i in (1, 2)]}
    >>> dets = [{"image_id": 1, "category_id": 1, "bbox": [20, 0, 10, 10], "score": 0.9},
    ...         {"image_id": 1, "category_id": 1, "bbox": [90, 0, 10, 10], "score": 0.6},
    ...         {"image_id": 1, "category_id": 1, "bbox": [40, 0, 10, 10], "score": 0.3}]
    >>> op = coco_operating_points(evaluate_coco(gt, dets))
    >>> op["score"][0, [0, 50, 51, 100]].tolist()  # recall 0.5 at 0.9; beyond it, 0.3
    [0.9, 0.9, 0.3, 0.3]
    """
    t, a, m = check_coco_result(result, iou_threshold, area, max_dets)
    scores = np.asarray(result["scores"], dtype=np.float64)[t, :, :, a, m].T  # (K, R)
    precision = np.asarray(result["precision"], dtype=np.float64)[t, :, :, a, m].T
    max_recall = np.asarray(result["recall"], dtype=np.float64)[t, :, a, m]
    rec = np.asarray(result["params"]["recall_thresholds"], dtype=np.float64)
    reached = (max_recall[:, None] >= rec[None, :]) & (max_recall[:, None] > -1)
    return {
        "recall": rec.copy(),
        "cat_ids": list(result["params"]["cat_ids"]),
        "score": np.where(reached, scores, np.nan),
        "precision": np.where(reached, precision, np.nan),
        "max_recall": np.where(max_recall > -1, max_recall, np.nan),
    }


def f1_confidence_curve(
    coco_gt: Any, detections: Any, *, iou_threshold: float = 0.5, thresholds: Any = None
) -> dict[str, Any]:
    r"""Precision, recall and F1 of each class as functions of the confidence threshold.

    For class *k* and threshold *c*, keep the detections with ``score >= c``; with COCO's matching
    at ``iou_threshold`` (see :func:`coco_matches`), :math:`\mathrm{TP}_k(c)` and
    :math:`\mathrm{FP}_k(c)` count the kept true and false positives and :math:`n_k` the class's
    non-crowd objects:

    .. math:: P_k(c) = \frac{\mathrm{TP}_k}{\mathrm{TP}_k + \mathrm{FP}_k}, \qquad
              R_k(c) = \frac{\mathrm{TP}_k}{n_k}, \qquad
              F1_k(c) = \frac{2\,\mathrm{TP}_k}{2\,\mathrm{TP}_k + \mathrm{FP}_k + (n_k - \mathrm{TP}_k)}

    Matching once and counting is exact: greedy matching visits detections from the highest score
    down, so dropping the lower-scored ones changes no earlier match.

    Parameters
    ----------
    coco_gt : dict
        COCO ground truth, as for :func:`mltutor.detection.evaluate_coco`.
    detections : list of dict
        COCO box results.
    iou_threshold : float in (0, 1], default 0.5
    thresholds : array-like, strictly increasing, optional
        The confidence grid; default ``np.linspace(0, 1, 1001)``.

    Returns
    -------
    dict
        ``thresholds`` (C,); ``cat_ids`` (K,); ``precision``, ``recall``, ``f1`` (K, C) — precision
        NaN where no detection is kept, recall NaN and F1 NaN for a class without objects (F1 is 0
        where objects exist and nothing is found); ``best_threshold``, ``best_f1`` (K,), the
        threshold of the highest F1 of each class (the lowest such threshold on a tie; NaN without
        objects); ``mean_f1`` (C,), the mean F1 over the classes with objects, and
        ``best_mean_threshold``, its arg-max: one threshold for all classes, as Ultralytics reports
        (Ultralytics takes the arg-max of the mean F1 after a box-filter smoothing, on its own
        matching).

    Examples
    --------
    >>> gt = {"images": [{"id": 1}], "categories": [{"id": 1}],
    ...       "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "area": 100,
    ...                        "bbox": [0, 0, 10, 10]}]}
    >>> dets = [{"image_id": 1, "category_id": 1, "bbox": [50, 0, 10, 10], "score": 0.9},
    ...         {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.6}]
    >>> c = f1_confidence_curve(gt, dets, thresholds=[0.5, 0.7])
    >>> c["f1"].round(3).tolist(), c["best_threshold"].tolist()
    ([[0.667, 0.0]], [0.5])
    """
    t = check_iou_threshold(iou_threshold)
    grid = np.linspace(0.0, 1.0, 1001) if thresholds is None else check_confidence_grid(thresholds)
    gt = parse_coco_gt(coco_gt)
    dt = parse_coco_detections(detections, gt)
    K, C = gt.cat_ids.shape[0], grid.shape[0]
    status, _ = coco_matches(gt, dt, t)
    n_obj = np.bincount(
        gt.cat[~gt.crowd & (gt.area >= _ALL[0]) & (gt.area <= _ALL[1])], minlength=K
    )
    tp = _count_at_or_above(dt.cat[status == 1], dt.score[status == 1], grid, K)
    fp = _count_at_or_above(dt.cat[status == 0], dt.score[status == 0], grid, K)
    n = n_obj[:, None].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        recall = np.where(n > 0, tp / n, np.nan)
        f1 = np.where(n > 0, 2 * tp / (tp + fp + n), np.nan)
    has = n_obj > 0
    best = np.full(K, np.nan)
    best_f1 = np.full(K, np.nan)
    if has.any():
        arg = np.argmax(f1[has], axis=1)
        best[has] = grid[arg]
        best_f1[has] = f1[has][np.arange(arg.shape[0]), arg]
        mean_f1 = f1[has].mean(axis=0)
        best_mean = float(grid[np.argmax(mean_f1)])
    else:
        mean_f1, best_mean = np.full(C, np.nan), float("nan")
    return {
        "thresholds": grid,
        "cat_ids": gt.cat_ids.tolist(),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "best_threshold": best,
        "best_f1": best_f1,
        "mean_f1": mean_f1,
        "best_mean_threshold": best_mean,
    }


def _count_at_or_above(cat: np.ndarray, score: np.ndarray, grid: np.ndarray, K: int) -> np.ndarray:
    """(K, C) counts of the entries of each class with ``score >= grid[c]``, by one sort: scores and
    grid values become integer ranks, so (class, rank) is one integer key."""
    values, inv = np.unique(np.r_[score, grid], return_inverse=True)
    width = values.shape[0] + 1
    key = np.sort(cat * width + inv[: score.shape[0]])
    q = np.arange(K)[:, None] * width + inv[score.shape[0] :][None, :]
    end = np.searchsorted(key, np.arange(1, K + 1) * width, side="left")
    return (end[:, None] - np.searchsorted(key, q, side="left")).astype(np.float64)
