r"""A detection confusion matrix consistent with COCO's matching.

Rows are the true class of a (non-crowd) object, with a last row "background" for detections that
found no object; columns are the predicted class, with a last column "background" for objects no
detection found.  With *K* classes the matrix is :math:`(K+1) \times (K+1)`; cell
``[K, K]`` (background, background) is always 0.

Rules (``class_agnostic=False``, the default):

1. keep the detections with ``score >= score_threshold``;
2. **same class first, as COCO**: match per image and category with COCO's greedy rule
   (:func:`mltutor.detection.evaluate_coco`: best score first, the free object with the highest IoU
   ``>= iou_threshold``, at most 100 detections per image and category, area range "all").  Each
   match adds 1 to the diagonal cell of its class, so the diagonal of class *k* is exactly the
   number of COCO true positives of *k* at that IoU and score threshold.  A detection matched to a
   crowd region is *ignored*: it appears nowhere, and crowd regions are no row;
3. **then across classes**: the detections still unmatched are matched, best score first, to the
   objects still unmatched *of another class* in the same image (the highest IoU
   ``>= iou_threshold``, each object once): such a pair adds 1 to ``[true class, predicted class]``;
4. a detection left unmatched adds 1 to ``[background, predicted class]``; an object left
   unmatched adds 1 to ``[true class, background]``.

So row *k* sums to the number of non-crowd objects of class *k*, and column *k* to the number of
kept, not ignored detections of class *k* (among the 100 best of each image and category).

``class_agnostic=True`` is the common shortcut, and a trap: one greedy matching per image over all
classes at once (the same rule, class ignored), each pair going to ``[true class, predicted
class]``.  A confident detection with the wrong label then takes an object that a lower-scored
detection of the right class would have matched, so the diagonal is no longer COCO's count of
true positives.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.detection import parse_coco_detections, parse_coco_gt
from .._validation.detection_tables import check_iou_threshold, check_score_threshold
from .._validation.params import check_bool
from ._iou import _pair_iou_xywh
from ._matching import match_groups
from ._operating_points import _ALL, coco_matches

__all__ = ["detection_confusion_matrix"]


def detection_confusion_matrix(
    coco_gt: Any,
    detections: Any,
    *,
    iou_threshold: float = 0.5,
    score_threshold: float | None = None,
    class_agnostic: bool = False,
) -> dict[str, Any]:
    r"""(K+1) x (K+1) confusion matrix of a detector, consistent with COCO's matching.

    With :math:`M_{ij}` the count of cell (true class *i*, predicted class *j*), classes
    :math:`0, \ldots, K-1` and background *K* (rules in :mod:`mltutor.detection._confusion`):

    .. math:: M_{kk} = \mathrm{TP}_k(t, s), \qquad \sum_j M_{kj} = n_k, \qquad
              \sum_i M_{ik} = \#\{\text{kept, not ignored detections of } k\}

    where :math:`\mathrm{TP}_k(t, s)` is COCO's true-positive count of class *k* at IoU *t* among
    the detections with score at least *s* (``class_agnostic=False``) and :math:`n_k` the number of
    non-crowd objects of class *k*.

    Parameters
    ----------
    coco_gt : dict
        COCO ground truth, as for :func:`mltutor.detection.evaluate_coco`.
    detections : list of dict
        COCO box results.
    iou_threshold : float in (0, 1], default 0.5
    score_threshold : float, optional
        Detections with ``score >= score_threshold`` are kept; all of them when None (the default).
    class_agnostic : bool, default False
        True: one matching per image over all classes (the shortcut whose diagonal is not COCO's).

    Returns
    -------
    dict
        ``matrix`` (K+1, K+1) of int64; ``labels``: the category ids, then ``"background"``;
        ``ignored``: the number of kept detections matched to crowd regions.

    Examples
    --------
    One dog (category 2) and no cat (1).  A cat detection sits on the dog with a higher score
    than the dog detection: COCO counts the dog detection as a true positive, the shortcut does not.

    >>> gt = {"images": [{"id": 1}], "categories": [{"id": 1}, {"id": 2}],
    ...       "annotations": [{"id": 1, "image_id": 1, "category_id": 2, "area": 100,
    ...                        "bbox": [0, 0, 10, 10]}]}
    >>> dets = [{"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},
    ...         {"image_id": 1, "category_id": 2, "bbox": [1, 0, 10, 10], "score": 0.8}]
    >>> detection_confusion_matrix(gt, dets)["matrix"].tolist()
    [[0, 0, 0], [0, 1, 0], [1, 0, 0]]
    >>> detection_confusion_matrix(gt, dets, class_agnostic=True)["matrix"].tolist()
    [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    """
    t = check_iou_threshold(iou_threshold)
    s = -np.inf if score_threshold is None else check_score_threshold(score_threshold)
    agnostic = check_bool(class_agnostic, "class_agnostic")
    gt = parse_coco_gt(coco_gt)
    dt = parse_coco_detections(detections, gt)
    K = gt.cat_ids.shape[0]
    gt_ignore = gt.crowd | (gt.area < _ALL[0]) | (gt.area > _ALL[1])
    keep = np.flatnonzero(dt.score >= s)
    sub = type(dt)(dt.img[keep], dt.cat[keep], dt.boxes[keep], dt.score[keep])
    n_det = keep.shape[0]
    if agnostic:
        matched = _greedy(gt, sub, np.arange(n_det), np.arange(gt.cat.shape[0]), t, any_class=True)
        kept = np.ones(n_det, dtype=bool)
    else:
        status, matched = coco_matches(gt, sub, t)
        kept = status != -2
    ignored = np.r_[gt_ignore, False][matched]  # -1 (no match) reads the appended False
    matched = np.where(ignored, -1, matched)
    if not agnostic:  # step 3: the leftovers, across classes
        free_dt = np.flatnonzero(kept & (matched < 0) & ~ignored)
        taken = np.zeros(gt.cat.shape[0], dtype=bool)
        taken[matched[matched >= 0]] = True
        free_gt = np.flatnonzero(~taken & ~gt_ignore)
        matched[free_dt] = _greedy(gt, sub, free_dt, free_gt, t, any_class=False)
    counted = kept & ~ignored
    true = np.r_[gt.cat, K][matched][counted]  # unmatched: the background row
    pred = sub.cat[counted]
    found = np.zeros(gt.cat.shape[0], dtype=bool)
    found[matched[matched >= 0]] = True
    missed = gt.cat[~found & ~gt_ignore]
    matrix = np.bincount(
        np.r_[true * (K + 1) + pred, missed * (K + 1) + K], minlength=(K + 1) ** 2
    ).reshape(K + 1, K + 1)
    return {
        "matrix": matrix.astype(np.int64),
        "labels": gt.cat_ids.tolist() + ["background"],
        "ignored": int(ignored[kept].sum()),
    }


def _greedy(gt, dt, det_idx, gt_idx, t, *, any_class):
    """Greedy matching per image (all classes in one group) of the detections ``det_idx`` to the
    objects ``gt_idx``; pairs of the same class are left out unless ``any_class``.  Returns the
    matched annotation index (into the ground truth) of each of ``det_idx``, or -1."""
    n_img = gt.img_ids.shape[0]

    def iou(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        dd, gg = det_idx[d], gt_idx[g]
        value = _pair_iou_xywh(dt.boxes, gt.boxes, dd, gg, gt.crowd)
        return value if any_class else np.where(dt.cat[dd] == gt.cat[gg], 0.0, value)

    m = match_groups(
        dt.img[det_idx],
        dt.score[det_idx],
        gt.img[gt_idx],
        max(det_idx.shape[0], 1),
        iou,
        (gt.crowd | (gt.area < _ALL[0]) | (gt.area > _ALL[1]))[gt_idx][:, None],
        gt.crowd[gt_idx],
        np.array([t]),
        n_minor=n_img,
    )
    out = np.full(det_idx.shape[0], -1, dtype=np.int64)
    pos = np.r_[m.gt_order, -1][m.match[:, 0, 0]]
    out[m.det_order[m.candidates]] = np.r_[gt_idx, -1][pos]
    return out
