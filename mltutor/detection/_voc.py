"""PASCAL VOC detection AP: per-class AP at IoU 0.5, 11-point (VOC2007) or all-point (VOC2010+).

The rule of the official devkit (``VOCevaldet.m``), class by class:

1. sort the class's detections over **all** images by descending confidence (ties keep input order);
2. each detection looks at the ground-truth box of its class, in its image, that it overlaps most
   (the first one on a tie), *whether or not that box is already taken*;
3. if that IoU is at least 0.5: a "difficult" box makes the detection ignored (neither TP nor FP);
   otherwise the first detection to reach the box is a true positive and any later one a false
   positive (a duplicate).  Below 0.5 it is a false positive.

Note the difference from COCO's greedy rule (:mod:`mltutor.detection`): VOC never hands a
duplicate to a second-best free box.  Because step 2 does not depend on what was taken before, the
whole VOC matching is vectorised without any sequential loop: a true positive is simply the *first
occurrence* of its box among the qualifying detections in score order (``np.unique(...,
return_index=True)``).

Then recall = TP / (number of non-difficult boxes) and precision = TP / (TP + FP) along the ranking
(kernel 2), and the AP is the area under the interpolated curve, computed by
:func:`mltutor.detection.interpolated_average_precision`.

``"voc2007"`` reads the envelope at the exact levels k/10.  The VOC2007 devkit's MATLAB loop
``t=0:0.1:1`` holds 0.30000000000000004 as its fourth level, and Python ports that loop over
``np.arange(0., 1.1, 0.1)`` also put the levels for 0.6 and 0.7 just above them, so on a class whose
recall reaches such a level exactly (3 of 10 objects, say) their 11-point AP can be lower than this
one.

The devkit measures boxes in whole pixels and adds 1 to every width and height; here coordinates are
continuous (``width = x2 - x1``), like COCO and torchvision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.boxes import check_fmt
from .._validation.detection import check_label_kinds, parse_image_records
from ._ap import interpolated_average_precision
from ._iou import _iou_xywh, _to_xywh
from ._matching import group_pairs

__all__ = ["evaluate_voc", "VOC_METHODS"]

#: The AP interpolation methods — ``"all-point"`` (VOC 2010+) and ``"voc2007"`` (11-point).
VOC_METHODS = ("all-point", "voc2007")


def _voc_match(gt_boxes, gt_group, gt_difficult, det_boxes, det_group, iou_threshold):
    """TP / FP / ignored flags for detections already sorted by (class, descending score)."""
    n_det = det_group.shape[0]
    gt_order = np.argsort(gt_group, kind="stable")
    pair_det, pair_gt, seg_start = group_pairs(det_group, gt_group[gt_order])
    pair_gt = gt_order[pair_gt]  # back to original ground-truth indices (annotation order kept)
    ov = _iou_xywh(det_boxes[pair_det], gt_boxes[pair_gt])
    ovmax = np.full(n_det, -np.inf)
    jmax = np.full(n_det, -1)
    has = np.diff(np.r_[seg_start, pair_gt.shape[0]]) > 0
    if has.any():
        starts = seg_start[has]
        best = np.maximum.reduceat(ov, starts)
        counts = np.diff(np.r_[starts, ov.shape[0]])
        first = np.minimum.reduceat(
            np.where(ov == np.repeat(best, counts), np.arange(ov.shape[0]), ov.shape[0]), starts
        )
        ovmax[has] = best
        jmax[has] = pair_gt[first]
    ok = ovmax >= iou_threshold
    difficult = ok & np.r_[gt_difficult, False][jmax]  # jmax = -1 (no overlap) reads the False
    cand = np.flatnonzero(ok & ~difficult)
    tp = np.zeros(n_det, dtype=bool)
    _, first_hit = np.unique(jmax[cand], return_index=True)
    tp[cand[first_hit]] = True
    ignored = difficult
    fp = ~tp & ~ignored
    return tp, fp, ignored


def evaluate_voc(
    ground_truth: Any,
    detections: Any,
    *,
    iou_threshold: float = 0.5,
    method: str = "all-point",
    fmt: str = "xyxy",
) -> dict[str, Any]:
    """PASCAL VOC per-class average precision and its mean (mAP).

    For class *c*, with detections ranked by confidence, recall :math:`R_n = TP_n / N_c`
    (:math:`N_c` non-difficult boxes of class *c*) and precision :math:`P_n = TP_n / n`, after the
    precision envelope :math:`\\hat P(r) = \\max_{r' \\ge r} P(r')`:

    * ``"voc2007"``: :math:`AP = \\frac{1}{11} \\sum_{r \\in \\{0, 0.1, \\ldots, 1\\}} \\hat P(r)`;
    * ``"all-point"`` (VOC2010 onwards): :math:`AP = \\sum_n (R_n - R_{n-1}) \\hat P(R_n)`.

    mAP is the unweighted mean of AP over the classes that have at least one non-difficult box.

    Parameters
    ----------
    ground_truth : list of dict, one per image
        ``{"boxes": (n, 4), "labels": (n,), "difficult": (n,) bool (optional, default False)}``.
    detections : list of dict, one per image (same length and order)
        ``{"boxes": (m, 4), "scores": (m,), "labels": (m,)}`` (the torchmetrics layout).
    iou_threshold : float, default 0.5
        A detection qualifies when its best IoU is at least this.
    method : {"all-point", "voc2007"}, default "all-point"
    fmt : {"xyxy", "xywh"}, default "xyxy"

    Returns
    -------
    dict
        ``mAP`` (float); and per class label, in sorted label order: ``AP`` (nan for a class with no
        non-difficult ground truth), ``precision`` and ``recall`` (arrays along the ranking, ignored
        detections left out), ``scores`` and ``is_tp`` (the ranked (score, is-true-positive) list that
        the curve is built from) and ``n_positives``.

    Examples
    --------
    One object, detected twice: the duplicate is a false positive, so precision falls to 1/2 after
    recall already reached 1, and AP stays 1.

    >>> gt = [{"boxes": [[0, 0, 10, 10]], "labels": [1]}]
    >>> dt = [{"boxes": [[0, 0, 10, 10], [1, 0, 11, 10]], "scores": [0.9, 0.8], "labels": [1, 1]}]
    >>> r = evaluate_voc(gt, dt)
    >>> r["AP"][1], r["precision"][1].tolist()
    (1.0, [1.0, 0.5])
    """
    fmt = check_fmt(fmt)
    if method not in VOC_METHODS:
        raise ValueError(f"method must be one of {VOC_METHODS}; got {method!r}.")
    thr = float(iou_threshold)
    if not 0.0 <= thr <= 1.0:
        raise ValueError(f"iou_threshold must be in [0, 1]; got {iou_threshold!r}.")
    gt = parse_image_records(ground_truth, "ground_truth", "difficult", fmt, extra_default=False)
    dt = parse_image_records(detections, "detections", "scores", fmt)
    if len(ground_truth) != len(detections):
        raise ValueError(
            f"ground_truth and detections must list the same images: got {len(ground_truth)} and "
            f"{len(detections)} entries."
        )
    check_label_kinds([gt.labels, dt.labels], "ground_truth and detections")
    scores = dt.extra.astype(np.float64)  # validated: real, not NaN
    difficult = gt.extra.astype(bool)  # validated: bools or 0/1

    classes = np.union1d(gt.labels, dt.labels)
    n_img = len(ground_truth)
    gt_cls = np.searchsorted(classes, gt.labels)
    dt_cls = np.searchsorted(classes, dt.labels)
    order = np.argsort(-scores, kind="stable")
    order = order[np.argsort(dt_cls[order], kind="stable")]  # by class, then descending score
    tp, fp, ignored = _voc_match(
        _to_xywh(gt.boxes, fmt),
        gt_cls * n_img + gt.img,
        difficult,
        _to_xywh(dt.boxes, fmt)[order],
        (dt_cls * n_img + dt.img)[order],
        thr,
    )
    kept = ~ignored
    n_pos = np.bincount(gt_cls[~difficult], minlength=classes.shape[0])
    bounds = np.searchsorted(dt_cls[order], np.arange(classes.shape[0] + 1))

    result: dict[str, Any] = {
        "mAP": float("nan"),
        "AP": {},
        "precision": {},
        "recall": {},
        "scores": {},
        "is_tp": {},
        "n_positives": {},
    }
    for c, label in enumerate(classes.tolist()):
        sl = slice(bounds[c], bounds[c + 1])
        k = kept[sl]
        hits = tp[sl][k]
        ctp = np.cumsum(hits, dtype=np.float64)
        cfp = np.cumsum(fp[sl][k], dtype=np.float64)
        npos = int(n_pos[c])
        precision = ctp / np.maximum(ctp + cfp, 1.0)
        recall = ctp / npos if npos else np.full(ctp.shape, np.nan)
        if not npos:
            ap = float("nan")  # no positives: recall is undefined
        elif not hits.shape[0]:
            ap = 0.0  # positives but not a single (non-ignored) detection
        else:
            ap = float(interpolated_average_precision(recall, precision, method=method))
        result["AP"][label] = ap
        result["precision"][label] = precision
        result["recall"][label] = recall
        result["scores"][label] = scores[order][sl][k]
        result["is_tp"][label] = hits
        result["n_positives"][label] = npos
    aps = np.array([v for v in result["AP"].values() if not np.isnan(v)])
    result["mAP"] = float(aps.mean()) if aps.shape[0] else float("nan")
    return result
