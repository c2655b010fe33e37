"""detection_confusion_matrix: its diagonal is COCO's true-positive count (pycocotools' evalImgs),
its rows and columns add up, and the class-agnostic shortcut differs where it should."""

from __future__ import annotations

import numpy as np
import pytest
from _detection_diagnostics_cases import coco_cases, pycocotools_eval
from _strategies import CASES, PROPERTY
from hypothesis import assume, given, settings

from mltutor.detection import box_iou, detection_confusion_matrix

DIAG = settings(PROPERTY, max_examples=200)


def coco_true_positives(ev, k, t_index, s):
    """TP count of category index k at IoU index t among detections with score >= s, read from
    pycocotools' per-image results (area range 'all', maxDets 100)."""
    n_img = len(ev.params.imgIds)
    n_area = len(ev.params.areaRng)
    tp = 0
    for e in ev.evalImgs[k * n_area * n_img : k * n_area * n_img + n_img]:  # area index 0
        if e is None:
            continue
        matched = e["dtMatches"][t_index] > 0
        ignored = e["dtIgnore"][t_index].astype(bool)
        tp += int((matched & ~ignored & (np.asarray(e["dtScores"]) >= s)).sum())
    return tp


@DIAG
@given(coco_cases())
def test_diagonal_is_coco_true_positives_and_sums_add_up(case):
    gt, dets = case
    assume(dets)
    ev = pycocotools_eval(gt, dets)
    cats = [int(c) for c in ev.params.catIds]
    crowd = np.array([a["iscrowd"] for a in gt["annotations"]], dtype=bool)
    cat_of = np.array([a["category_id"] for a in gt["annotations"]])
    for t_index, s in ((0, 0.0), (0, 0.5), (5, 0.3)):
        t = float(ev.params.iouThrs[t_index])
        r = detection_confusion_matrix(gt, dets, iou_threshold=t, score_threshold=s)
        M = r["matrix"]
        assert r["labels"] == cats + ["background"]
        for k, cat in enumerate(cats):
            assert M[k, k] == coco_true_positives(ev, k, t_index, s), (cat, t, s)
            assert M[k].sum() == int(((cat_of == cat) & ~crowd).sum())
            kept = sum(d["category_id"] == cat and d["score"] >= s for d in dets)
            assert M[:, k].sum() <= kept
        assert M[-1, -1] == 0
        assert M[:, :-1].sum() + r["ignored"] == sum(d["score"] >= s for d in dets)
    CASES["detection: detection_confusion_matrix diagonal vs pycocotools TP"] += 1


@settings(PROPERTY, max_examples=100)
@given(coco_cases())
def test_cross_class_cells_equal_a_brute_force_loop(case):
    """Step 3 (leftover detections against leftover objects of other classes), image by image with
    a Python loop; also the class-agnostic variant."""
    gt, dets = case
    assume(dets)
    cats = sorted({c["id"] for c in gt["categories"]})
    K = len(cats)
    for agnostic in (False, True):
        got = detection_confusion_matrix(gt, dets, class_agnostic=agnostic)["matrix"]
        want = np.zeros((K + 1, K + 1), dtype=np.int64)
        for img in gt["images"]:
            g = [a for a in gt["annotations"] if a["image_id"] == img["id"]]
            d = sorted(
                [x for x in dets if x["image_id"] == img["id"]], key=lambda x: -x["score"]
            )  # sorted() is stable: ties keep the input order, as the matching
            _brute_image(g, d, cats, agnostic, want)
        np.testing.assert_array_equal(got, want)
    CASES["detection: detection_confusion_matrix vs brute-force loop"] += 1


def _brute_image(g, d, cats, agnostic, M):
    K = len(cats)
    crowd = np.array([a["iscrowd"] for a in g], dtype=bool)
    gcat = [cats.index(a["category_id"]) for a in g]
    taken = np.zeros(len(g), dtype=bool)
    det_match = [None] * len(d)  # annotation index, "ignored", or None

    def visit(order, allowed):
        for i in order:
            if det_match[i] is not None:
                continue
            cand = [
                (box_iou([d[i]["bbox"]], [g[j]["bbox"]], fmt="xywh", iscrowd=[crowd[j]])[0, 0], j)
                for j in range(len(g))
                if allowed(i, j) and not (taken[j] and not crowd[j])
            ]
            cand = [(iou, j) for iou, j in cand if iou >= 0.5]
            # COCO: a regular box before an ignored (crowd) one; the highest IoU, the last on ties
            regular = [c for c in cand if not crowd[c[1]]] or cand
            best = max(regular, key=lambda c: (c[0], c[1]))[1] if regular else None
            if best is not None:
                det_match[i] = "ignored" if crowd[best] else best
                if not crowd[best]:
                    taken[best] = True

    dcat = [cats.index(x["category_id"]) for x in d]
    if agnostic:
        visit(range(len(d)), lambda i, j: True)
    else:
        for k in range(K):  # per class, at most 100 best detections of the image
            own = [i for i in range(len(d)) if dcat[i] == k][:100]
            for i in [i for i in range(len(d)) if dcat[i] == k][100:]:
                det_match[i] = "dropped"
            visit(own, lambda i, j: gcat[j] == dcat[i])
        left = [i for i in range(len(d)) if det_match[i] is None]
        visit(left, lambda i, j: gcat[j] != dcat[i] and not crowd[j])
    for i, m in enumerate(det_match):
        if m in ("ignored", "dropped"):
            continue
        M[K if m is None else gcat[m], dcat[i]] += 1
    for j in range(len(g)):
        if not crowd[j] and not taken[j]:
            M[gcat[j], K] += 1


def test_class_agnostic_matching_is_not_coco():
    """The myth case: a confident wrong label on the dog takes it in the shortcut."""
    gt = {
        "images": [{"id": 1}],
        "categories": [{"id": 1}, {"id": 2}],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": 2, "area": 100, "bbox": [0, 0, 10, 10]}
        ],
    }
    dets = [
        {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},
        {"image_id": 1, "category_id": 2, "bbox": [1, 0, 10, 10], "score": 0.8},
    ]
    aware = detection_confusion_matrix(gt, dets)["matrix"]
    shortcut = detection_confusion_matrix(gt, dets, class_agnostic=True)["matrix"]
    assert aware[1, 1] == 1 and shortcut[1, 1] == 0
    assert aware.sum() == shortcut.sum() == 2
    # below the wrong detection's score the two agree
    same = detection_confusion_matrix(gt, dets, score_threshold=0.85)["matrix"]
    np.testing.assert_array_equal(
        same,
        detection_confusion_matrix(gt, dets, score_threshold=0.85, class_agnostic=True)["matrix"],
    )


def test_crowd_regions_absorb_detections_and_are_no_row():
    gt = {
        "images": [{"id": 1}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": 1,
                "image_id": 1,
                "category_id": 1,
                "area": 400,
                "bbox": [0, 0, 20, 20],
                "iscrowd": 1,
            }
        ],
    }
    dets = [
        {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},
        {"image_id": 1, "category_id": 1, "bbox": [10, 10, 10, 10], "score": 0.8},
    ]
    r = detection_confusion_matrix(gt, dets)
    assert r["ignored"] == 2 and r["matrix"].sum() == 0


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"iou_threshold": 1.5}, ValueError, "iou_threshold"),
        ({"score_threshold": float("nan")}, ValueError, "score_threshold"),
        ({"score_threshold": "0.5"}, TypeError, "score_threshold"),
        ({"class_agnostic": "yes"}, TypeError, "class_agnostic"),
    ],
)
def test_refuses_bad_parameters(kwargs, error, match):
    gt = {"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": []}
    with pytest.raises(error, match=match):
        detection_confusion_matrix(gt, [], **kwargs)


def test_empty_detections():
    gt = {
        "images": [{"id": 1}],
        "categories": [{"id": 3}],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": 3, "area": 100, "bbox": [0, 0, 10, 10]}
        ],
    }
    r = detection_confusion_matrix(gt, [])
    assert r["matrix"].tolist() == [[0, 1], [0, 0]] and r["labels"] == [3, "background"]


def test_negative_scores_are_kept_by_default():
    """Logits as scores: without a score threshold every detection counts."""
    gt = {
        "images": [{"id": 1}],
        "categories": [{"id": 1}],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": 1, "area": 100, "bbox": [0, 0, 10, 10]}
        ],
    }
    dets = [{"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": -2.5}]
    assert detection_confusion_matrix(gt, dets)["matrix"].tolist() == [[1, 0], [0, 0]]
    dropped = detection_confusion_matrix(gt, dets, score_threshold=0.0)["matrix"]
    assert dropped.tolist() == [[0, 1], [0, 0]]  # the box is gone, the object missed
