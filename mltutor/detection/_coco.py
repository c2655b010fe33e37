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

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .._validation.detection import CocoDetections, CocoGroundTruth, parse_coco_detections, parse_coco_gt
from .._validation.keypoints import check_sigmas, keypoint_records
from .._validation.masks import image_sizes, parse_scored_records, result_boxes, result_segmentations
from ._iou import _iou_xywh
from .keypoints import COCO_SIGMAS, pair_oks
from .mask._overlap import pair_iou
from .mask._rle import _area
from .mask._segmentations import segmentations_to_rle_set
from ._matching import greedy_match, group_pairs

__all__ = ["evaluate_coco", "STAT_NAMES", "KEYPOINT_STAT_NAMES", "IOU_TYPES", "IOU_THRESHOLDS", "RECALL_THRESHOLDS",
           "AREA_RANGES", "MAX_DETS"]

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
_KEYPOINTS = _Setup((20,), (AREA_RANGES[0], AREA_RANGES[2], AREA_RANGES[3]), ("all", "medium", "large"),
                    _KEYPOINT_SUMMARY)


def _outside(area: np.ndarray, ranges: tuple = AREA_RANGES) -> np.ndarray:
    """(n, A) flags: area outside each area range (pycocotools: ``a < lo or a > hi``)."""
    lo = np.array([r[0] for r in ranges], dtype=np.float64)
    hi = np.array([r[1] for r in ranges], dtype=np.float64)
    return (area[:, None] < lo) | (area[:, None] > hi)


def _match(
    gt: CocoGroundTruth,
    dt: Any,
    setup: _Setup = _BBOX,
    similarity: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    det_area: np.ndarray | None = None,
    gt_ignore_extra: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Steps 1-3: rank detections per group, pair them with their group's ground truth, match.

    ``dt`` needs ``img``, ``cat`` and ``score``; for boxes also ``boxes``.  For masks and keypoints,
    ``similarity(det_index, gt_index)`` gives the IoU (or OKS) of the listed pairs (indices into the
    input order), ``det_area`` the detections' areas and ``gt_ignore_extra`` ground truth ignored
    besides crowd regions (keypoints: no labelled keypoint).
    """
    max_det = setup.max_dets[-1]
    n_img = gt.img_ids.shape[0]
    gt_group = gt.cat * n_img + gt.img
    gt_order = np.argsort(gt_group, kind="stable")  # annotation order inside each group
    gt_group_sorted = gt_group[gt_order]

    # Highest score first inside each group, ties in input order; then group by (category, image).
    det_order = np.argsort(-dt.score, kind="stable")
    dt_group = dt.cat * n_img + dt.img
    det_order = det_order[np.argsort(dt_group[det_order], kind="stable")]
    group = dt_group[det_order]
    first = np.searchsorted(group, group, side="left")
    rank = np.arange(group.shape[0]) - first
    keep = rank < max_det
    det_order, group, rank = det_order[keep], group[keep], rank[keep]

    gt_crowd = gt.crowd[gt_order]
    gt_area = gt.area[gt_order]
    gt_ignore = gt_crowd[:, None] | _outside(gt_area, setup.area_ranges)  # (n_gt, A)
    if gt_ignore_extra is not None:
        gt_ignore |= gt_ignore_extra[gt_order][:, None]
    gt_id_nonzero = gt.ann_id[gt_order] != 0

    # Every (detection, ground truth) pair of the same group; a detection's pairs in annotation order.
    pair_det, pair_gt, _ = group_pairs(group, gt_group_sorted)
    if similarity is None:
        det_boxes = dt.boxes[det_order]
        pair_iou = _iou_xywh(det_boxes[pair_det], gt.boxes[gt_order][pair_gt], gt_crowd[pair_gt])
        det_area = det_boxes[:, 2] * det_boxes[:, 3]
    else:
        pair_iou = similarity(det_order[pair_det], gt_order[pair_gt])
        det_area = det_area[det_order]
    match = greedy_match(pair_det, pair_gt, pair_iou, rank, gt_ignore, gt_crowd, IOU_THRESHOLDS)
    # pycocotools records the matched annotation's *id* and later reads id 0 as "unmatched".
    # An unmatched detection (match -1) reads the appended row: not counted, not ignored.
    counted_gt = np.r_[gt_id_nonzero, False]
    ignored_gt = np.vstack([gt_ignore, np.zeros((1, gt_ignore.shape[1]), dtype=bool)])
    counted = counted_gt[match]
    area_index = np.arange(len(setup.area_ranges))[None, :, None]
    dt_ignore = ignored_gt[match, area_index] | (~counted & _outside(det_area, setup.area_ranges)[:, :, None])
    return {
        "cat": dt.cat[det_order],
        "rank": rank,
        "score": dt.score[det_order],
        "tp": counted & ~dt_ignore,  # (n_det, A, T)
        "fp": ~counted & ~dt_ignore,
        "npig": _count_regular(gt.cat[gt_order], gt_ignore, gt.cat_ids.shape[0]),  # (K, A)
    }


def _count_regular(cat: np.ndarray, gt_ignore: np.ndarray, n_cat: int) -> np.ndarray:
    """Number of ground-truth boxes that are not ignored, per category and area range."""
    out = np.zeros((n_cat, gt_ignore.shape[1]), dtype=np.int64)
    np.add.at(out, cat, ~gt_ignore)
    return out


def _recall_steps(npig: np.ndarray) -> np.ndarray:
    """(K, A, R): how many true positives it takes for the recall ``tp / npig`` to reach each of the
    101 recall thresholds — ``c_r = min{c : c / npig >= r}``, found with the same float division
    that pycocotools' ``np.searchsorted(tp / npig, recThrs, side='left')`` compares."""
    need = np.zeros(npig.shape + RECALL_THRESHOLDS.shape, dtype=np.int64)
    for n in np.unique(npig[npig > 0]).tolist():
        need[npig == n] = np.searchsorted(np.arange(n + 1) / n, RECALL_THRESHOLDS, side="left")
    return need


def _accumulate(m: dict[str, np.ndarray], n_cat: int, setup: _Setup = _BBOX) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 4: precision (T, R, K, A, M), recall (T, K, A, M) and scores (T, R, K, A, M).

    pycocotools, for each category, area range, maxDets and IoU threshold: sorts the detections by
    score, takes cumulative TP and FP counts, precision ``tp / (tp + fp + eps)``, makes it
    non-increasing from the right (the envelope) and reads it at the first detection whose recall
    reaches each threshold.  Here all (area range, threshold) columns and all categories go at once.
    Two facts make that cheap: the first detection reaching a recall of ``c / npig`` is the one
    holding the c-th true positive, and the envelope there is the largest precision at any *later
    true positive* (between true positives precision only falls).  So only the true positives are
    laid out, one row per (category, column), and the envelope is a running maximum along each row.
    """
    T, R, K = IOU_THRESHOLDS.shape[0], RECALL_THRESHOLDS.shape[0], n_cat
    A, M = len(setup.area_ranges), len(setup.max_dets)
    C = A * T
    precision = -np.ones((T, R, K, A, M))
    recall = -np.ones((T, K, A, M))
    scores = -np.ones((T, R, K, A, M))
    npig = m["npig"]  # (K, A) ground truth that is not ignored
    need = _recall_steps(npig)
    width = npig.max(axis=1) if K else np.zeros(0, dtype=np.int64)  # most true positives a row can hold
    offset = np.r_[0, np.cumsum(C * width)]
    evaluated = [k for k in range(K) if width[k] > 0]  # no ground truth: stays -1, as in pycocotools
    # By category, then descending score (stable: image order, then rank, as pycocotools concatenates).
    order = np.argsort(-m["score"], kind="stable")
    order = order[np.argsort(m["cat"][order], kind="stable")]
    n = order.shape[0]
    cat, score, rank = m["cat"][order], m["score"][order], m["rank"][order]
    # Columns (area range, threshold) as rows of a (C, n) array: cumulative sums run along rows.
    tp_all = np.ascontiguousarray(m["tp"].reshape(-1, C)[order].T)
    fp_all = np.ascontiguousarray(m["fp"].reshape(-1, C)[order].T)
    for mi, max_det in enumerate(setup.max_dets):
        # Only the maxDets best of each (image, category) count: keep those (in the same order).
        kept = np.flatnonzero(rank < max_det)
        tp, fp = (tp_all, fp_all) if kept.shape[0] == n else (tp_all[:, kept], fp_all[:, kept])
        cat_m, score_m = cat[kept], score[kept]
        bounds = np.searchsorted(cat_m, np.arange(K + 1))
        score_or_zero = np.r_[score_m, 0.0]
        ctp = np.zeros((C, kept.shape[0] + 1), dtype=np.int64)
        cfp = np.zeros((C, kept.shape[0] + 1), dtype=np.int64)
        # (int64 first: numpy's cumsum converting from bool on the fly is several times slower; the
        # flags are copied into the output and summed there, without a temporary)
        for flags, running in ((tp, ctp), (fp, cfp)):
            np.copyto(running[:, 1:], flags)
            np.cumsum(running[:, 1:], axis=1, out=running[:, 1:])
        total_tp = (ctp[:, bounds[1:]] - ctp[:, bounds[:-1]]).T  # (K, C), counts restart per category
        # Every true positive: its number j inside its (category, column) and the precision there.
        col, pos = np.nonzero(tp)
        k_of = cat_m[pos]
        j = ctp[col, pos + 1] - ctp[col, bounds[k_of]]
        fp_before = (cfp[col, pos + 1] - cfp[col, bounds[k_of]]).astype(np.float64)
        j_f = j.astype(np.float64)
        pr = j_f / (fp_before + j_f + np.spacing(1))
        slot = offset[k_of] + col * width[k_of] + j - 1
        flat_pr = np.zeros(offset[-1])
        flat_pr[slot] = pr
        flat_pos = np.full(offset[-1], -1, dtype=np.int64)
        flat_pos[slot] = pos
        for k in evaluated:
            areas = np.flatnonzero(npig[k] > 0)
            rows = flat_pr[offset[k]:offset[k + 1]].reshape(A, T, width[k])
            envelope = np.maximum.accumulate(rows[..., ::-1], axis=-1)[..., ::-1]
            at = np.maximum(need[k, areas], 1)[:, None, :] - 1  # (A', 1, R): c_r = 0 reads the first TP
            a_idx, t_idx = areas[:, None, None], np.arange(T)[None, :, None]
            precision[:, :, k, areas, mi] = envelope[a_idx, t_idx, at].transpose(1, 2, 0)
            p = flat_pos[offset[k]:offset[k + 1]].reshape(A, T, width[k])[a_idx, t_idx, at]
            first_score = score_m[bounds[k]] if bounds[k + 1] > bounds[k] else 0.0
            ss = np.where(need[k, areas][:, None, :] == 0, first_score, score_or_zero[p])  # p = -1: none
            scores[:, :, k, areas, mi] = ss.transpose(1, 2, 0)
            recall[:, k, areas, mi] = (total_tp[k].reshape(A, T)[areas] / npig[k, areas][:, None]).T
    return precision, recall, scores


def _summarize(precision: np.ndarray, recall: np.ndarray, setup: _Setup = _BBOX) -> dict[str, float]:
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
        raise ValueError(f"{_gt_where(missing)} has no 'segmentation'; iou_type='segm' needs a polygon list or "
                         "an RLE for every annotation.")
    gt_rles = segmentations_to_rle_set(tuple(a["segmentation"] for a in anns), heights[gt.img], widths[gt.img],
                                       _gt_where)
    dt = parse_scored_records(detections, gt, "segmentation")
    dt_rles = segmentations_to_rle_set(dt.values, heights[dt.img], widths[dt.img], _dt_where)
    dt_pixels, gt_pixels = _area(dt_rles), _area(gt_rles)

    def similarity(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        # A pair can only be matched at IoU >= IOU_THRESHOLDS[0] (0.5), and |d ∩ g| <= min(|d|, |g|)
        # bounds the IoU by min/max of the areas (|g|/|d| for a crowd region).  So a pair whose
        # areas differ more than 2x keeps IoU 0 without counting: the matching cannot tell.
        a, b = dt_pixels[d], gt_pixels[g]
        small, large = np.where(gt.crowd[g], b, np.minimum(a, b)), np.where(gt.crowd[g], a, np.maximum(a, b))
        can_match = np.flatnonzero(2 * small >= large)  # in integers: exact
        out = np.zeros(d.shape[0])
        # every mask is at its image's size (checked above), so no pair is pycocotools' -1
        out[can_match] = pair_iou(dt_rles, gt_rles, d[can_match], g[can_match], gt.crowd, same_sizes=True)
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
            raise ValueError(f"{_gt_where(i)} has no {key!r}; iou_type='keypoints' needs 'keypoints' and "
                             "'num_keypoints' in every annotation.")
    gt_kpt = keypoint_records([a["keypoints"] for a in anns], k, _gt_where, flags=True)
    n_kpt = np.array([a["num_keypoints"] for a in anns], dtype=object)
    bad = [i for i, v in enumerate(n_kpt) if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer))
           or v < 0]
    if bad:
        raise ValueError(f"{_gt_where(bad[0])} has num_keypoints={n_kpt[bad[0]]!r}; expected a non-negative integer.")
    dt = parse_scored_records(detections, gt, "keypoints")
    dt_kpt = keypoint_records(list(dt.values), k, _dt_where, flags=False)
    boxes = result_boxes(detections, otherwise="their masks, or their keypoints' extent")
    segms = result_segmentations(detections) if boxes is None else None
    if boxes is not None:
        dt_area = boxes[:, 2] * boxes[:, 3]
    elif segms is not None:
        heights, widths = image_sizes(coco_gt, gt.img_ids)
        dt_area = _area(segmentations_to_rle_set(segms, heights[dt.img], widths[dt.img], _dt_where)).astype(np.float64)
    else:
        x, y = dt_kpt[:, :, 0], dt_kpt[:, :, 1]
        dt_area = (x.max(axis=1) - x.min(axis=1)) * (y.max(axis=1) - y.min(axis=1)) if k else np.zeros(0)

    def similarity(d: np.ndarray, g: np.ndarray) -> np.ndarray:
        return pair_oks(dt_kpt, gt_kpt, gt.area, gt.boxes, sig, d, g)

    no_keypoints = n_kpt.astype(np.int64) == 0 if len(anns) else np.zeros(0, dtype=bool)
    return dt, _KEYPOINTS, similarity, dt_area, no_keypoints


def evaluate_coco(coco_gt: Any, detections: Any, *, iou_type: str = "bbox",
                  kpt_oks_sigmas: Any = None) -> dict[str, Any]:
    r"""COCO detection metrics, equal to ``pycocotools.cocoeval.COCOeval`` for boxes, masks and keypoints.

    AP at one IoU threshold *t* and one category is the mean, over the 101 recall levels
    :math:`r \\in \\{0, 0.01, \\ldots, 1\\}`, of the interpolated precision

    .. math:: p_{\\text{interp}}(r) = \\max_{r' \\ge r} p(r')

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
        raise ValueError(f"kpt_oks_sigmas is used only with iou_type='keypoints'; got iou_type={iou_type!r}.")
    if hasattr(coco_gt, "dataset") and not isinstance(coco_gt, dict):  # a pycocotools COCO object
        coco_gt = coco_gt.dataset
    gt = parse_coco_gt(coco_gt)
    K = gt.cat_ids.shape[0]
    setup = _KEYPOINTS if iou_type == "keypoints" else _BBOX
    if iou_type == "bbox":
        m = _match(gt, parse_coco_detections(detections, gt))
    elif iou_type == "segm":
        m = _match(gt, *_segm_inputs(coco_gt, gt, detections))
    else:
        m = _match(gt, *_keypoint_inputs(coco_gt, gt, detections, kpt_oks_sigmas))
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
