"""coco_operating_points against pycocotools' eval['scores'] and a brute-force definition;
f1_confidence_curve against a brute-force loop over thresholds."""

from __future__ import annotations

import numpy as np
import pytest
from _detection_diagnostics_cases import coco_cases, pycocotools_eval
from _strategies import CASES, PROPERTY
from hypothesis import assume, given, settings

from mltutor.detection import (
    box_iou,
    coco_operating_points,
    evaluate_coco,
    f1_confidence_curve,
    match_detections,
)

DIAG = settings(PROPERTY, max_examples=220)


def brute_threshold(gt, dets, cat, r, iou=0.5):
    """max{s : recall(score >= s) >= r} by re-matching at every distinct score (no ties)."""
    best = np.nan
    for s in sorted({d["score"] for d in dets if d["category_id"] == cat}):
        tp, n = _tp_and_n(gt, [d for d in dets if d["score"] >= s], cat, iou)
        if n and tp / n >= r:
            best = s
    return best


def _tp_and_n(gt, dets, cat, iou):
    """COCO's true positives and non-crowd objects of one class, image by image, with a loop."""
    tp = n = 0
    for img in gt["images"]:
        g = [a for a in gt["annotations"] if a["image_id"] == img["id"] and a["category_id"] == cat]
        d = [x for x in dets if x["image_id"] == img["id"] and x["category_id"] == cat]
        d = sorted(d, key=lambda x: -x["score"])[:100]
        crowd = np.array([a["iscrowd"] for a in g], dtype=bool)
        n += int((~crowd).sum())
        if not d or not g:
            continue
        ious = box_iou([x["bbox"] for x in d], [a["bbox"] for a in g], fmt="xywh", iscrowd=crowd)
        m = match_detections(ious, iou, gt_ignore=crowd, gt_crowd=crowd)
        tp += int(((m >= 0) & ~crowd[np.maximum(m, 0)]).sum())
    return tp, n


@DIAG
@given(coco_cases())
def test_operating_points_equal_pycocotools_scores(case):
    gt, dets = case
    assume(dets)
    ref = pycocotools_eval(gt, dets)
    ours = evaluate_coco(gt, dets)
    for t_i, t in enumerate(ours["params"]["iou_thresholds"][[0, 5]]):
        op = coco_operating_points(ours, iou_threshold=t)
        want = ref.eval["scores"][[0, 5][t_i], :, :, 0, -1].T  # (K, R)
        reached = ~np.isnan(op["score"])
        np.testing.assert_array_equal(op["score"][reached], want[reached])
        prec = ref.eval["precision"][[0, 5][t_i], :, :, 0, -1].T
        np.testing.assert_array_equal(op["precision"][reached], prec[reached])
        # where not reached, pycocotools leaves 0 (or -1 without ground truth)
        assert np.all(np.isin(want[~reached], [0.0, -1.0]))
    CASES["detection: coco_operating_points vs pycocotools eval['scores']"] += 1


@settings(PROPERTY, max_examples=40)
@given(coco_cases())
def test_operating_points_are_the_highest_threshold_reaching_each_recall(case):
    gt, dets = case
    assume(dets)
    op = coco_operating_points(evaluate_coco(gt, dets))
    for k, cat in enumerate(op["cat_ids"]):
        for r_i in (1, 25, 50, 75, 100):
            want = brute_threshold(gt, dets, cat, op["recall"][r_i])
            got = op["score"][k, r_i]
            assert (np.isnan(want) and np.isnan(got)) or want == got, (cat, r_i, want, got)
    CASES["detection: coco_operating_points vs brute-force threshold search"] += 1


def test_tie_rule_keeps_every_tied_detection():
    """Two tied detections, the first (in input order) a false positive: pycocotools' recall point
    0.5 is read at the second; keeping score >= 0.5 keeps both (precision 1/2, not 1/1)."""
    gt = {
        "images": [{"id": 1}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": i,
                "image_id": 1,
                "category_id": 1,
                "area": 100,
                "iscrowd": 0,
                "bbox": [20 * i, 0, 10, 10],
            }
            for i in (1, 2)
        ],
    }
    dets = [
        {"image_id": 1, "category_id": 1, "bbox": [90, 0, 10, 10], "score": 0.5},
        {"image_id": 1, "category_id": 1, "bbox": [20, 0, 10, 10], "score": 0.5},
    ]
    op = coco_operating_points(evaluate_coco(gt, dets))
    assert op["score"][0, 50] == 0.5 and op["precision"][0, 50] == pytest.approx(0.5)
    assert np.isnan(op["score"][0, 51]) and op["max_recall"][0] == 0.5
    ref = pycocotools_eval(gt, dets)
    assert ref.eval["scores"][0, 50, 0, 0, -1] == 0.5


@DIAG
@given(coco_cases(ties=True))
def test_f1_confidence_equals_a_brute_force_loop(case):
    gt, dets = case
    grid = np.linspace(0.0, 1.0, 11)
    iou = 0.5
    c = f1_confidence_curve(gt, dets, iou_threshold=iou, thresholds=grid)
    for k, cat in enumerate(c["cat_ids"]):
        for j, s in enumerate(grid):
            kept = [d for d in dets if d["score"] >= s]
            tp, n = _tp_and_n(gt, kept, cat, iou)
            n_det = sum(d["category_id"] == cat for d in kept)
            # kept detections of the class that matched a crowd region are neither TP nor FP
            ignored = _ignored(gt, kept, cat, iou)
            fp = n_det - tp - ignored
            p = tp / (tp + fp) if tp + fp else np.nan
            f1 = 2 * tp / (tp + fp + n) if n else np.nan
            np.testing.assert_equal(c["precision"][k, j], p)
            np.testing.assert_equal(c["recall"][k, j], tp / n if n else np.nan)
            np.testing.assert_allclose(c["f1"][k, j], f1, rtol=0, atol=1e-15)
        if not np.isnan(c["best_f1"][k]):
            assert c["best_f1"][k] == np.nanmax(c["f1"][k])
            assert c["best_threshold"][k] == grid[np.nanargmax(c["f1"][k])]
    CASES["detection: f1_confidence_curve vs brute-force loop"] += 1


def _ignored(gt, dets, cat, iou):
    out = 0
    for img in gt["images"]:
        g = [a for a in gt["annotations"] if a["image_id"] == img["id"] and a["category_id"] == cat]
        d = [x for x in dets if x["image_id"] == img["id"] and x["category_id"] == cat]
        d = sorted(d, key=lambda x: -x["score"])[:100]
        if not d or not g:
            continue
        crowd = np.array([a["iscrowd"] for a in g], dtype=bool)
        ious = box_iou([x["bbox"] for x in d], [a["bbox"] for a in g], fmt="xywh", iscrowd=crowd)
        m = match_detections(ious, iou, gt_ignore=crowd, gt_crowd=crowd)
        out += int(((m >= 0) & crowd[np.maximum(m, 0)]).sum())
    return out


def test_f1_confidence_default_grid_and_mean():
    gt = {
        "images": [{"id": 1}],
        "categories": [{"id": 1}, {"id": 2}],
        "annotations": [
            {"id": 1, "image_id": 1, "category_id": 1, "area": 100, "bbox": [0, 0, 10, 10]}
        ],
    }
    dets = [{"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.7}]
    c = f1_confidence_curve(gt, dets)
    assert c["thresholds"].shape == (1001,) and c["f1"].shape == (2, 1001)
    assert c["best_threshold"][0] == 0.0 and c["best_f1"][0] == 1.0
    assert np.isnan(c["best_threshold"][1]) and np.all(np.isnan(c["f1"][1]))
    assert c["f1"][0, 701] == 0.0 and c["mean_f1"][0] == 1.0  # class 2 has no objects: left out
    np.testing.assert_array_equal(c["mean_f1"], c["f1"][0])


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"iou_threshold": 0.0}, ValueError, "iou_threshold"),
        ({"iou_threshold": True}, TypeError, "iou_threshold"),
        ({"iou_threshold": float("nan")}, ValueError, "iou_threshold"),
        ({"thresholds": [0.5, 0.2]}, ValueError, "increasing"),
        ({"thresholds": []}, ValueError, "non-empty"),
        ({"thresholds": [0.1, np.nan]}, ValueError, "finite"),
        ({"thresholds": np.array([0.1, 0.2], dtype=np.float16)}, TypeError, "thresholds"),
        ({"thresholds": [True, False]}, TypeError, "thresholds"),
    ],
)
def test_f1_confidence_refuses_bad_parameters(kwargs, error, match):
    gt = {"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": []}
    with pytest.raises(error, match=match):
        f1_confidence_curve(gt, [], **kwargs)


def test_operating_points_refuse_bad_arguments():
    gt = {"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": []}
    r = evaluate_coco(gt, [])
    with pytest.raises(TypeError, match="evaluate_coco"):
        coco_operating_points({"AP": 0.5})
    with pytest.raises(ValueError, match="one of the evaluation's thresholds"):
        coco_operating_points(r, iou_threshold=0.52)
    with pytest.raises(ValueError, match="area"):
        coco_operating_points(r, area="tiny")
    with pytest.raises(ValueError, match="max_dets"):
        coco_operating_points(r, max_dets=5)
    op = coco_operating_points(r, iou_threshold=0.75, area="small", max_dets=10)
    assert np.all(np.isnan(op["score"])) and np.isnan(op["max_recall"][0])
