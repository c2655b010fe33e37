"""Why is AP low?  TIDE's error breakdown (Bolya et al., ECCV 2020) on COCO boxes.

AP says *how much* is wrong, not *what*.  TIDE gives every false positive and every missed object
one cause, then asks for each cause: "how much higher would AP be if exactly these errors were
fixed, and nothing else?"  The thresholds are TIDE's: foreground ``t_f = 0.5`` (what counts as a
hit) and background ``t_b = 0.1`` (at or below it a box overlaps nothing).

Matching
--------
Detections are matched to the ground truth at IoU ``t_f`` by COCO's greedy rule
(:mod:`mltutor.detection`): per image and category, best score first, at most 100
detections per image and category.  A detection matched to a crowd region is *ignored* (neither
hit nor error).  A matched detection is a true positive; every other kept detection is a false
positive and gets exactly one cause.

The causes of a false positive
------------------------------
Only the image's non-crowd ground truth counts, with plain IoU (no crowd IoU).  "Same class" means
the ground truth's category equals the detection's.  The tests run in this order; the first that
holds decides:

1. **background** — the image has no (non-crowd) ground truth at all;
2. **localisation** — the best IoU with a *same-class* object lies in ``[t_b, t_f]`` (both ends
   included, as in TIDE); the error points at that object;
3. **classification** — the best IoU with an object of *another* class is ``>= t_f``: right place,
   wrong label; the error points at that object;
4. **duplicate** — the best IoU with a same-class object that *another detection already took* is
   ``>= t_f``: the object was found, this is a second hit on it;
5. **background** — the best IoU with any object is ``<= t_b``;
6. **both** — anything else: wrong class *and* badly placed (the best IoU with another class lies
   in ``(t_b, t_f)`` and no same-class object overlaps by ``t_b``).

The causes of a missed object
-----------------------------
7. **missed** — a non-crowd object that no detection matched *and* at which no localisation or
   classification error points.  An unmatched object that such an error points at is not a miss:
   fixing that error recovers it (``annotation_cause`` calls it ``"recoverable"``).

The fixing oracle (TIDE's, one cause at a time, each from the original detections)
----------------------------------------------------------------------------------
* **classification / localisation**: for every object that is the target of such errors, the
  error with the highest score among *both* kinds (ties: the earlier detection in the input) becomes
  a true positive of the object's class; the other errors of this kind on the same object, and
  those pointing at an object that was already found, are removed (one object can be recovered
  once).  So fixing localisation does not recover an object whose best candidate is a
  classification error; that AP goes to classification.
* **both, duplicate, background**: the false positives of that cause are removed.
* **missed**: the missed objects are removed from the ground truth.
* Two extra numbers, as TIDE's "special" errors: ``false_positives`` removes every false
  positive (perfect precision, same recall) and ``false_negatives`` removes every unmatched object
  (perfect recall, same precision).

ΔAP of a cause = AP after its fix − AP before.  The ΔAPs are not additive (TIDE's point: fix the
errors one kind at a time and compare), and they are not a partition of ``1 - AP``.

Where and why this differs from ``tidecv``
------------------------------------------
* AP is exactly COCO's AP at IoU ``t_f`` — 101 recall points, precision ``tp / (tp + fp + eps)``,
  the mean over categories that have ground truth — so the baseline ``AP`` equals
  :func:`mltutor.detection.evaluate_coco`'s ``AP50`` and every fixed AP equals ``evaluate_coco`` on
  the "fixed" dataset, as long as no image has more than 100 detections of one category (a fix
  keeps the detections that were kept before it; ``evaluate_coco`` would pick the 100 best of
  each image and category again).  tidecv uses the same 101-point rule (in percent, without the eps) but also
  averages in, as AP 0, a category with detections and no ground truth, and drops a category
  the moment a fix empties it; a fix could then move the mean for bookkeeping reasons alone.
  tidecv also samples precision at recall ``i / 100``, pycocotools at ``np.linspace(0, 1, 101)``;
  the two grids differ in the last bit at 10 of the 101 points (0.35, 0.41, ..., 0.95), so a recall
  of exactly 7/20 or 7/10 reads a different point of the curve and the APs differ slightly.
* Matching follows pycocotools (an IoU tie goes to the later annotation; crowd regions match at
  crowd IoU ``>= t_f``, after the regular objects; 100 detections per image *and category*);
  tidecv's own matcher takes the first annotation on a tie, ignores a detection with crowd IoU
  ``> t_f`` and keeps 100 detections per image.
* A detection ignored because of a crowd region gets no cause here; tidecv still gives it one (and
  a fix can even turn it into a true positive).
* ΔAP is reported as is; tidecv clips negative values to 0.  None of the fixes above can lower
  this AP (each removes false positives, adds true positives or removes unmatched objects), so
  there is nothing to clip; the tests check ΔAP >= 0.
* A category that a fix leaves without objects drops out of the mean (COCO's rule); if no
  category is left (every object was missed), there is nothing to measure and ΔAP is 0.  (tidecv
  divides by zero there.)
* Annotation id 0 is refused: pycocotools reads a match to id 0 as "unmatched", which would make
  the baseline disagree with the breakdown.

Reference: D. Bolya, S. Foley, J. Hays, J. Hoffman, "TIDE: A General Toolbox for Identifying
Object Detection Errors", ECCV 2020; the definitions follow ``tidecv/quantify.py`` and
``tidecv/errors/main_errors.py`` of github.com/dbolya/tide.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.detection import (
    CocoDetections,
    CocoGroundTruth,
    check_error_thresholds,
    parse_coco_detections,
    parse_coco_gt,
)
from ._ap import coco_sampled_precision
from ._coco import AREA_RANGES, MAX_DETS, RECALL_THRESHOLDS
from ._iou import _iou_xywh, _pair_iou_xywh
from ._matching import group_pairs, match_groups

__all__ = ["error_breakdown", "CAUSES"]

#: The six causes, in TIDE's order (Cls, Loc, Both, Dupe, Bkg, Miss).
CAUSES = ("classification", "localisation", "both", "duplicate", "background", "missed")
#: The two special fixes — perfect precision, perfect recall.
SPECIAL = ("false_positives", "false_negatives")
_CLS, _LOC, _BOTH, _DUPE, _BKG = range(5)


def _match(gt: CocoGroundTruth, dt: CocoDetections, t_f: float, gt_ignore: np.ndarray):
    """COCO's matching at one IoU threshold, area "all": (kept, matched annotation or -1) — the
    ranking and greedy matching of :func:`mltutor.detection._matching.match_groups`, as in
    :func:`mltutor.detection.evaluate_coco`."""
    n_img, n_det = gt.img_ids.shape[0], dt.score.shape[0]

    def iou(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        return _pair_iou_xywh(dt.boxes, gt.boxes, d, g, gt.crowd)

    m = match_groups(
        dt.cat * n_img + dt.img,
        dt.score,
        gt.cat * n_img + gt.img,
        MAX_DETS[-1],
        iou,
        gt_ignore[:, None],
        gt.crowd,
        np.array([t_f]),
        n_minor=n_img,
    )
    kept = np.zeros(n_det, dtype=bool)
    kept[m.det_order] = True
    matched = np.full(n_det, -1, dtype=np.int64)
    # m.match = -1 (no match) reads the appended -1
    matched[m.det_order[m.candidates]] = np.r_[m.gt_order, -1][m.match[:, 0, 0]]
    return kept, matched


def _first_argmax(values: np.ndarray, seg: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per segment (``seg`` = segment of each value): the maximum (0 if empty) and the position of
    its first occurrence (-1 if empty), like ``np.argmax`` on each row."""
    best = np.full(n, -np.inf)
    np.maximum.at(best, seg, values)
    first = np.full(n, values.shape[0], dtype=np.int64)
    at = np.flatnonzero(values == best[seg])
    np.minimum.at(first, seg[at], at)
    empty = np.isinf(best)
    return np.where(empty, 0.0, best), np.where(empty, -1, first)


def _causes(gt, dt, fp, detected, regular, t_f, t_b):
    """One cause (an index into CAUSES) and one target annotation (or -1) per false positive."""
    fp_idx = np.flatnonzero(fp)
    reg = np.flatnonzero(regular)
    reg = reg[np.argsort(gt.img[reg], kind="stable")]  # by image, annotation order inside
    pd, pg, _ = group_pairs(dt.img[fp_idx], gt.img[reg])
    g = reg[pg]
    iou = _iou_xywh(dt.boxes[fp_idx[pd]], gt.boxes[g])
    same = dt.cat[fp_idx[pd]] == gt.cat[g]
    n = fp_idx.shape[0]
    same_max, same_at = _first_argmax(np.where(same, iou, 0.0), pd, n)
    other_max, other_at = _first_argmax(np.where(same, 0.0, iou), pd, n)
    used_max, used_at = _first_argmax(np.where(same & detected[g], iou, 0.0), pd, n)
    has_gt = np.bincount(pd, minlength=n) > 0
    conditions = [
        ~has_gt,
        (t_b <= same_max) & (same_max <= t_f),
        other_max >= t_f,
        used_max >= t_f,
        np.maximum(same_max, other_max) <= t_b,
    ]
    cause = np.select(conditions, [_BKG, _LOC, _CLS, _DUPE, _BKG], default=_BOTH)
    at = np.select(conditions[1:4], [same_at, other_at, used_at], default=-1)
    at = np.where(has_gt, at, -1)
    return fp_idx, cause, np.r_[g, -1][at]  # at = -1 (no target) reads the appended -1


def _coco_ap(cat, score, img, idx, tp, npos) -> float:
    """COCO's 101-point AP at one IoU threshold, averaged over categories with ``npos > 0``: every
    listed detection counts (none is ignored), sampled by the same
    :func:`mltutor.detection._ap.coco_sampled_precision` as :func:`evaluate_coco`."""
    order = np.lexsort((idx, img, -score, cat))  # as pycocotools orders each category's list
    cat, tp = cat[order], tp[order]
    bounds = np.searchsorted(cat, np.arange(npos.shape[0] + 1))
    hit = np.flatnonzero(tp)  # the true positives, by category then score
    precision, _, _ = coco_sampled_precision(
        cat[hit], hit - bounds[cat[hit]] + 1, npos, RECALL_THRESHOLDS
    )
    aps = precision[npos > 0].mean(axis=1)
    return float(np.mean(aps)) if aps.shape[0] else -1.0


def error_breakdown(
    coco_gt: Any,
    detections: Any,
    *,
    foreground_iou: float = 0.5,
    background_iou: float = 0.1,
) -> dict[str, Any]:
    """TIDE's error breakdown: one cause per false positive and missed object, and ΔAP per cause.

    The definitions of the causes and of the fixes are in the module docstring
    (:mod:`mltutor.detection`); in one line each, for a false positive, tested in this order:
    no ground truth in the image → background; best same-class IoU in ``[t_b, t_f]`` →
    localisation; best other-class IoU ``>= t_f`` → classification; best IoU with an already
    found same-class object ``>= t_f`` → duplicate; best IoU with anything ``<= t_b`` →
    background; otherwise both.  An unmatched object that no localisation or classification
    error points at is missed.

    Parameters
    ----------
    coco_gt : dict
        A COCO ground-truth dict, as for :func:`mltutor.detection.evaluate_coco` (annotation ids
        must not be 0).
    detections : list of dict
        COCO results (``image_id``, ``category_id``, ``bbox`` = [x, y, w, h], ``score``).
    foreground_iou : float, default 0.5
        ``t_f``: the IoU of a hit, and the threshold of the AP.
    background_iou : float, default 0.1
        ``t_b``: at or below it a detection overlaps nothing.

    Returns
    -------
    dict
        ``AP`` (COCO's AP at IoU ``t_f``, equal to ``evaluate_coco(...)["AP50"]`` at 0.5; -1 without
        ground truth); ``delta_AP`` ({cause: AP after fixing that cause − ``AP``}, causes in
        :data:`CAUSES` order); ``delta_AP_special`` ({"false_positives", "false_negatives"});
        ``counts`` ({cause: number of errors}); ``detection_cause`` (one string per detection, input
        order: ``"true_positive"``, ``"ignored"`` (matched a crowd region), ``"dropped"`` (beyond
        the 100 best of its image and category), or a cause); ``detection_target`` (the index into
        ``coco_gt["annotations"]`` of the object a true positive matched or a localisation,
        classification or duplicate error points at; -1 otherwise); ``annotation_cause`` (one string
        per annotation: ``"detected"``, ``"ignored"`` (crowd), ``"missed"`` or ``"recoverable"``);
        ``params``.

    Raises
    ------
    ValueError, TypeError
        The input checks of :func:`evaluate_coco`; an annotation id 0; a threshold outside (0, 1]
        or ``background_iou > foreground_iou``.

    Examples
    --------
    One object of class 1; a detection of class 2 on top of it and a badly placed one of class 1.

    >>> gt = {"images": [{"id": 1}], "categories": [{"id": 1}, {"id": 2}],
    ...       "annotations": [{"id": 1, "image_id": 1, "category_id": 1,
    ...                        "bbox": [0, 0, 10, 10], "area": 100}]}
    >>> dets = [{"image_id": 1, "category_id": 2, "bbox": [0, 0, 10, 10], "score": 0.9},
    ...         {"image_id": 1, "category_id": 1, "bbox": [5, 0, 10, 10], "score": 0.8}]
    >>> r = error_breakdown(gt, dets)
    >>> r["detection_cause"].tolist(), r["AP"]
    (['classification', 'localisation'], 0.0)
    >>> round(r["delta_AP"]["classification"], 6), r["delta_AP"]["localisation"]
    (1.0, 0.0)
    """
    t_f, t_b = check_error_thresholds(foreground_iou, background_iou)
    if hasattr(coco_gt, "dataset") and not isinstance(coco_gt, dict):  # a pycocotools COCO object
        coco_gt = coco_gt.dataset
    gt = parse_coco_gt(coco_gt)
    dt = parse_coco_detections(detections, gt)
    if (gt.ann_id == 0).any():
        i = int(np.argmax(gt.ann_id == 0))
        raise ValueError(
            f"coco_gt['annotations'][{i}] has id 0; pycocotools reads a match to id 0 "
            "as 'unmatched', so error_breakdown needs non-zero annotation ids."
        )
    n_det, n_gt, n_cat = dt.score.shape[0], gt.ann_id.shape[0], gt.cat_ids.shape[0]
    lo, hi = AREA_RANGES[0]
    gt_ignore = gt.crowd | (gt.area < lo) | (gt.area > hi)
    regular = ~gt_ignore

    kept, matched = _match(gt, dt, t_f, gt_ignore)
    hit = matched >= 0
    ignored = kept & (
        (hit & gt_ignore[np.maximum(matched, 0)] if n_gt else hit)
        | (~hit & (dt.boxes[:, 2] * dt.boxes[:, 3] > hi))
    )
    tp = kept & hit & ~ignored
    fp = kept & ~tp & ~ignored
    detected = np.zeros(n_gt, dtype=bool)
    detected[matched[tp]] = True

    fp_idx, cause, target = _causes(gt, dt, fp, detected, regular, t_f, t_b)
    # The object each localisation / classification error could recover, and the one error that
    # does recover it: the highest score over both kinds (ties: earlier input), as TIDE.
    fixer = np.flatnonzero(((cause == _LOC) | (cause == _CLS)) & (target >= 0))
    fixer = fixer[~detected[target[fixer]]]
    fixer = fixer[np.lexsort((fp_idx[fixer], -dt.score[fp_idx[fixer]], target[fixer]))]
    first = np.r_[True, target[fixer][1:] != target[fixer][:-1]] if fixer.shape[0] else fixer > 0
    best = np.zeros(fp_idx.shape[0], dtype=bool)
    best[fixer[first]] = True
    recoverable = np.zeros(n_gt, dtype=bool)
    recoverable[target[fixer]] = True
    missed = regular & ~detected & ~recoverable

    npos = np.bincount(gt.cat[regular], minlength=n_cat)
    idx = np.arange(n_det)

    def ap(keep_fp: np.ndarray, promote: np.ndarray, npos_fixed: np.ndarray) -> float:
        """AP with the false positives ``keep_fp`` (mask over fp_idx) kept, ``promote`` of them
        turned into true positives of their target's class."""
        d = np.r_[np.flatnonzero(tp), fp_idx[keep_fp]]
        moved_to = np.r_[gt.cat, -1][target]  # the target's class (-1: no target, never promoted)
        cats = np.r_[dt.cat[tp], np.where(promote, moved_to, dt.cat[fp_idx])[keep_fp]]
        is_tp = np.r_[np.ones(int(tp.sum()), dtype=bool), promote[keep_fp]]
        fixed = _coco_ap(cats, dt.score[d], dt.img[d], idx[d], is_tp, npos_fixed)
        return fixed if fixed != -1.0 else base  # no object left: nothing to measure, ΔAP 0

    none = np.zeros(fp_idx.shape[0], dtype=bool)
    base = -1.0
    base = ap(~none, none, npos)
    delta = {}
    for c, name in enumerate(CAUSES[:5]):
        mine = cause == c
        if c in (_CLS, _LOC):
            fixed = ap(~mine | best, mine & best, npos)
        else:
            fixed = ap(~mine, none, npos)
        delta[name] = fixed - base
    delta["missed"] = ap(~none, none, npos - np.bincount(gt.cat[missed], minlength=n_cat)) - base
    special = {
        "false_positives": ap(none, none, npos) - base,
        "false_negatives": ap(~none, none, np.bincount(gt.cat[detected], minlength=n_cat)) - base,
    }
    counts = {name: int((cause == c).sum()) for c, name in enumerate(CAUSES[:5])}
    counts["missed"] = int(missed.sum())

    det_cause = np.full(n_det, "dropped", dtype=object)
    det_cause[kept] = "ignored"
    det_cause[tp] = "true_positive"
    det_cause[fp_idx] = np.array(CAUSES, dtype=object)[cause]
    det_target = np.full(n_det, -1, dtype=np.int64)
    det_target[tp] = matched[tp]
    det_target[fp_idx] = target
    ann_cause = np.full(n_gt, "ignored", dtype=object)
    ann_cause[regular] = "missed"
    ann_cause[recoverable] = "recoverable"
    ann_cause[detected] = "detected"
    return {
        "AP": base,
        "delta_AP": delta,
        "delta_AP_special": special,
        "counts": counts,
        "detection_cause": det_cause.astype(str),
        "detection_target": det_target,
        "annotation_cause": ann_cause.astype(str),
        "params": {
            "foreground_iou": t_f,
            "background_iou": t_b,
            "max_dets": MAX_DETS[-1],
            "cat_ids": gt.cat_ids.tolist(),
            "img_ids": gt.img_ids.tolist(),
        },
    }
