"""Chapter 7 exercises: references agree with pycocotools and mltutor's detection kernel, and
known-wrong "mutants" are caught.

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from _exercise_harness import (
    SOLUTIONS,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
    assert_wrong_value_caught,
    run_notebook_code,
)

from mltutor.exercises import map_detection as ch7

SOLUTIONS_NB = SOLUTIONS / "07_map_detection.ipynb"


@pytest.fixture(scope="module")
def solved():
    return run_notebook_code(SOLUTIONS_NB)


# --------------------------------------------------------------------------------------------
# The references agree with the reference libraries
# --------------------------------------------------------------------------------------------


def xywh(boxes):
    b = np.asarray(boxes, dtype=float).reshape(-1, 4)
    return np.c_[b[:, :2], b[:, 2:] - b[:, :2]]


@pytest.mark.parametrize("i", range(len(ch7.ex1.cases)))
def test_ex1_reference_matches_pycocotools(i):
    mask = pytest.importorskip("pycocotools.mask")
    a, b = ch7.ex1.cases[i].args
    expected = mask.iou(xywh(a).tolist(), xywh(b).tolist(), [0])[0][0]
    assert ch7.ex1.expected(i) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch7.ex1.cases)))
def test_ex1_reference_matches_box_iou(i):
    from mltutor.detection import box_iou

    a, b = ch7.ex1.cases[i].args
    assert ch7.ex1.expected(i) == pytest.approx(float(box_iou(a[None], b[None])[0, 0]), abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch7.ex2.cases)))
def test_ex2_reference_matches_match_detections(i):
    from mltutor.detection import box_iou, match_detections

    c = ch7.ex2.cases[i]
    det, scores, gt = c.args
    thr = c.kwargs.get("iou_threshold", 0.5)
    expected = np.zeros(len(det), dtype=bool)
    if len(det) and len(gt):
        order = np.argsort(-scores, kind="stable")
        matched = match_detections(box_iou(det[order], gt), thr)
        expected[order] = matched >= 0
    np.testing.assert_array_equal(ch7.ex2.expected(i), expected)


def _curve_ap(is_tp, n_gt, method):
    from mltutor.detection import interpolated_average_precision

    is_tp = np.asarray(is_tp, dtype=bool)
    tp, fp = np.cumsum(is_tp), np.cumsum(~is_tp)
    return interpolated_average_precision(tp / n_gt, tp / np.maximum(tp + fp, 1), method=method)


@pytest.mark.parametrize("i", range(len(ch7.ex3.cases)))
def test_ex3_reference_matches_curves(i):
    is_tp, n_gt = ch7.ex3.cases[i].args
    assert ch7.ex3.expected(i) == pytest.approx(_curve_ap(is_tp, n_gt, "all-point"), abs=1e-12)


@pytest.mark.parametrize("i", range(len(ch7.ex4.cases)))
def test_ex4_reference_matches_curves(i):
    is_tp, n_gt = ch7.ex4.cases[i].args
    assert ch7.ex4.expected(i) == pytest.approx(_curve_ap(is_tp, n_gt, "voc2007"), abs=1e-12)


def test_ex5_answer_matches_pycocotools_and_evaluate_voc():
    pytest.importorskip("pycocotools")
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    gt_boxes = xywh(ch7.EX5_GT)
    coco_gt = {
        "images": [{"id": 1, "width": 400, "height": 400}],
        "categories": [{"id": 1, "name": "thing"}],
        "annotations": [
            {
                "id": j + 1,
                "image_id": 1,
                "category_id": 1,
                "bbox": b.tolist(),
                "area": float(b[2] * b[3]),
                "iscrowd": 0,
            }
            for j, b in enumerate(gt_boxes)
        ],
    }
    dets = [
        {"image_id": 1, "category_id": 1, "bbox": b.tolist(), "score": float(s)}
        for b, s in zip(xywh(ch7.EX5_DETECTIONS), ch7.EX5_SCORES)
    ]
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = coco_gt
        gt.createIndex()
        ev = COCOeval(gt, gt.loadRes(dets), "bbox")
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    voc_ap50, coco_ap = ch7.ex5.answer
    assert coco_ap == pytest.approx(ev.stats[0], abs=1e-12)

    from mltutor.detection import evaluate_coco, evaluate_voc

    assert evaluate_coco(coco_gt, dets)["AP"] == pytest.approx(coco_ap, abs=1e-12)
    voc = evaluate_voc(
        [{"boxes": ch7.EX5_GT, "labels": np.ones(3, dtype=int)}],
        [{"boxes": ch7.EX5_DETECTIONS, "scores": ch7.EX5_SCORES, "labels": np.ones(4, dtype=int)}],
        method="all-point",
    )
    assert voc["mAP"] == pytest.approx(voc_ap50, abs=1e-12)


def test_solutions_notebook_solves_every_exercise(solved):
    namespace, checks = solved
    assert [name for name, _, _ in checks] == ch7.__all__
    for name, answer_name, _ in checks:
        assert getattr(ch7, name).check(namespace[answer_name], strict=False)


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def _parts(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    return w, h, area_a, area_b


def ex1_union_without_subtracting(a, b):
    w, h, area_a, area_b = _parts(a, b)
    inter = max(w, 0) * max(h, 0)
    return inter / (area_a + area_b)


def ex1_plus_one_pixel(a, b):
    w, h = min(a[2], b[2]) - max(a[0], b[0]) + 1, min(a[3], b[3]) - max(a[1], b[1]) + 1
    inter = max(w, 0) * max(h, 0)
    area_a = (a[2] - a[0] + 1) * (a[3] - a[1] + 1)
    area_b = (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
    return inter / (area_a + area_b - inter)


def ex1_clip_the_product(a, b):
    w, h, area_a, area_b = _parts(a, b)
    inter = max(w * h, 0)  # two negative sides make a positive "overlap"
    return inter / (area_a + area_b - inter)


def ex1_no_clipping(a, b):
    w, h, area_a, area_b = _parts(a, b)
    return w * h / (area_a + area_b - w * h)


def ex1_over_smaller_box(a, b):
    w, h, area_a, area_b = _parts(a, b)
    return max(w, 0) * max(h, 0) / min(area_a, area_b)


def ex1_max_min_swapped(a, b):
    w = max(a[2], b[2]) - min(a[0], b[0])
    h = max(a[3], b[3]) - min(a[1], b[1])
    _, _, area_a, area_b = _parts(a, b)
    return w * h / (area_a + area_b - w * h)


@pytest.mark.parametrize(
    "mutant",
    [
        ex1_union_without_subtracting,
        ex1_plus_one_pixel,
        ex1_clip_the_product,
        ex1_no_clipping,
        ex1_over_smaller_box,
        ex1_max_min_swapped,
    ],
)
def test_ex1_mutants_caught(mutant):
    assert_mutant_caught(ch7.ex1, mutant)


def _match(det, scores, gt, thr, *, order="score", reuse=False, strict=False, voc=False):
    is_tp = np.zeros(len(det), dtype=bool)
    taken = np.zeros(len(gt), dtype=bool)
    visit = np.argsort(-np.asarray(scores), kind="stable") if order == "score" else range(len(det))
    for d in visit:
        ious = np.array([ch7.iou(det[d], g) for g in gt])
        if voc:
            if len(gt) and ious.max() >= thr:
                g = int(np.argmax(ious))
                if not taken[g]:
                    taken[g] = is_tp[d] = True
            continue
        ok = (ious > thr if strict else ious >= thr) & (reuse | ~taken)
        if ok.any():
            g = int(np.argmax(np.where(ok, ious, -1)))
            taken[g] = is_tp[d] = True
    return is_tp


def ex2_gt_matched_twice(det, scores, gt, iou_threshold=0.5):
    return _match(det, scores, gt, iou_threshold, reuse=True)


def ex2_input_order(det, scores, gt, iou_threshold=0.5):
    return _match(det, scores, gt, iou_threshold, order="input")


def ex2_strictly_above_threshold(det, scores, gt, iou_threshold=0.5):
    return _match(det, scores, gt, iou_threshold, strict=True)


def ex2_voc_rule_best_box_even_if_taken(det, scores, gt, iou_threshold=0.5):
    return _match(det, scores, gt, iou_threshold, voc=True)


def ex2_result_in_score_order(det, scores, gt, iou_threshold=0.5):
    order = np.argsort(-np.asarray(scores), kind="stable")
    return ch7.match_image(det, scores, gt, iou_threshold)[order]


def ex2_threshold_ignored(det, scores, gt, iou_threshold=0.5):
    return _match(det, scores, gt, 0.5)


@pytest.mark.parametrize(
    "mutant",
    [
        ex2_gt_matched_twice,
        ex2_input_order,
        ex2_strictly_above_threshold,
        ex2_voc_rule_best_box_even_if_taken,
        ex2_result_in_score_order,
        ex2_threshold_ignored,
    ],
)
def test_ex2_mutants_caught(mutant):
    assert_mutant_caught(ch7.ex2, mutant)


def _points(is_tp, n_gt):
    is_tp = np.asarray(is_tp, dtype=bool)
    tp, fp = np.cumsum(is_tp), np.cumsum(~is_tp)
    return tp, fp


def ex3_recall_over_detections(is_tp, n_gt):
    tp, fp = _points(is_tp, n_gt)
    return ch7.average_precision(is_tp, max(len(is_tp), 1)) if len(is_tp) else 0.0


def ex3_no_envelope(is_tp, n_gt):
    tp, fp = _points(is_tp, n_gt)
    if not len(tp):
        return 0.0
    recall, precision = tp / n_gt, tp / (tp + fp)
    return float(np.sum(np.diff(recall, prepend=0.0) * precision))


def ex3_only_found_objects(is_tp, n_gt):
    found = int(np.sum(is_tp))
    return ch7.average_precision(is_tp, found) if found else 0.0


def ex3_eleven_points(is_tp, n_gt):
    return float(ch7.voc07_average_precision(is_tp, n_gt))


def ex3_envelope_from_the_left(is_tp, n_gt):
    tp, fp = _points(is_tp, n_gt)
    if not len(tp):
        return 0.0
    recall, precision = tp / n_gt, tp / (tp + fp)
    return float(np.sum(np.diff(recall, prepend=0.0) * np.maximum.accumulate(precision)))


@pytest.mark.parametrize(
    "mutant",
    [
        ex3_recall_over_detections,
        ex3_no_envelope,
        ex3_only_found_objects,
        ex3_eleven_points,
        ex3_envelope_from_the_left,
    ],
)
def test_ex3_mutants_caught(mutant):
    assert_mutant_caught(ch7.ex3, mutant)


def _eleven(is_tp, n_gt, points, *, envelope=True, divide=11, strict=False):
    tp, fp = _points(is_tp, n_gt)
    recall, precision = tp / n_gt, tp / np.maximum(tp + fp, 1)
    total = 0.0
    for t in points:
        reached = recall > t if strict else recall >= t
        if reached.any():
            total += precision[reached].max() if envelope else precision[np.argmax(reached)]
    return total / divide


def ex4_floating_recall_points(is_tp, n_gt):
    return _eleven(is_tp, n_gt, np.arange(0.0, 1.1, 0.1))


def ex4_no_envelope(is_tp, n_gt):
    return _eleven(is_tp, n_gt, np.arange(11) / 10, envelope=False)


def ex4_divide_by_ten(is_tp, n_gt):
    return _eleven(is_tp, n_gt, np.arange(11) / 10, divide=10)


def ex4_strictly_above(is_tp, n_gt):
    return _eleven(is_tp, n_gt, np.arange(11) / 10, strict=True)


def ex4_all_point_instead(is_tp, n_gt):
    return ch7.average_precision(is_tp, n_gt)


def ex4_ten_points_without_zero(is_tp, n_gt):
    return _eleven(is_tp, n_gt, np.arange(1, 11) / 10, divide=10)


@pytest.mark.parametrize(
    "mutant",
    [
        ex4_floating_recall_points,
        ex4_no_envelope,
        ex4_divide_by_ten,
        ex4_strictly_above,
        ex4_all_point_instead,
        ex4_ten_points_without_zero,
    ],
)
def test_ex4_mutants_caught(mutant):
    assert_mutant_caught(ch7.ex4, mutant)


def test_ex5_wrong_values_caught():
    voc, coco = ch7.ex5.answer
    at_50_only = ch7._coco_ap(
        ch7.match_image(ch7.EX5_DETECTIONS, ch7.EX5_SCORES, ch7.EX5_GT, 0.5), 3
    )
    voc07 = ch7.voc07_average_precision(
        ch7.match_image(ch7.EX5_DETECTIONS, ch7.EX5_SCORES, ch7.EX5_GT, 0.5), 3
    )
    for wrong in [(coco, voc), (voc, at_50_only), (voc07, coco), (voc, voc), (1.0, coco)]:
        assert_wrong_value_caught(ch7.ex5, wrong)


EXERCISES_CH7 = {name: getattr(ch7, name) for name in ch7.__all__}
MUTANTS = {
    "ex1": [
        ex1_union_without_subtracting,
        ex1_plus_one_pixel,
        ex1_clip_the_product,
        ex1_no_clipping,
        ex1_over_smaller_box,
        ex1_max_min_swapped,
    ],
    "ex2": [
        ex2_gt_matched_twice,
        ex2_input_order,
        ex2_strictly_above_threshold,
        ex2_voc_rule_best_box_even_if_taken,
        ex2_result_in_score_order,
        ex2_threshold_ignored,
    ],
    "ex3": [
        ex3_recall_over_detections,
        ex3_no_envelope,
        ex3_only_found_objects,
        ex3_eleven_points,
        ex3_envelope_from_the_left,
    ],
    "ex4": [
        ex4_floating_recall_points,
        ex4_no_envelope,
        ex4_divide_by_ten,
        ex4_strictly_above,
        ex4_all_point_instead,
        ex4_ten_points_without_zero,
    ],
}
MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]


# Known mutants and the misconception each must be named by; the others get none.
NAMED = {
    "ex1": {
        "ex1_union_without_subtracting": "union_not_subtracted",
        "ex1_plus_one_pixel": "plus_one_pixel",
        "ex1_over_smaller_box": "over_smaller_box",
    },
    "ex2": {
        "ex2_gt_matched_twice": "gt_matched_twice",
        "ex2_input_order": "input_order",
        "ex2_result_in_score_order": "input_order",  # the same order mix-up
        "ex2_strictly_above_threshold": "strict_greater",
    },
    "ex3": {
        "ex3_no_envelope": "no_envelope",
        "ex3_only_found_objects": "only_found_objects",
        "ex3_eleven_points": "eleven_points",
    },
    "ex4": {
        "ex4_no_envelope": "no_envelope",
        "ex4_divide_by_ten": "divide_by_ten",
        "ex4_all_point_instead": "all_point",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH7[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH7, NAMED)


# --------------------------------------------------------------------------------------------
# ex8: COCO's true positives beside a confusion matrix, checked against evaluate_coco
# --------------------------------------------------------------------------------------------


def _ex8_count(way: str) -> int:
    """The count each way of reasoning gives, computed with mltutor's detection kernel."""
    from mltutor.detection import box_iou, detection_confusion_matrix

    if way == "coco":
        m = detection_confusion_matrix(ch7.EX8_GT, ch7.EX8_DETECTIONS)["matrix"]
        return int(np.trace(m[:-1, :-1]))
    if way == "class_agnostic":
        m = detection_confusion_matrix(ch7.EX8_GT, ch7.EX8_DETECTIONS, class_agnostic=True)
        return int(np.trace(m["matrix"][:-1, :-1]))
    det = np.array([d["bbox"] for d in ch7.EX8_DETECTIONS], dtype=float)
    gt = np.array([g["bbox"] for g in ch7.EX8_GT["annotations"]], dtype=float)
    to_xyxy = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=float)
    ious = np.asarray(box_iou(det @ to_xyxy, gt @ to_xyxy))
    hits = ious >= 0.5
    if way == "every_overlap":  # any box on any object
        return int(hits.any(axis=1).sum())
    if way == "duplicates_count":  # right label, object reused
        d_cat = np.array([d["category_id"] for d in ch7.EX8_DETECTIONS])
        g_cat = np.array([g["category_id"] for g in ch7.EX8_GT["annotations"]])
        return int((hits & (d_cat[:, None] == g_cat[None, :])).any(axis=1).sum())
    raise ValueError(way)


def test_ex8_answer_is_cocos_true_positive_count():
    from mltutor.detection import evaluate_coco

    result = evaluate_coco(ch7.EX8_GT, ch7.EX8_DETECTIONS)
    n_true = np.array([1, 2])  # one cat (category 1), two dogs (category 2)
    assert result["params"]["cat_ids"] == [1, 2]
    coco_tp = np.round(result["recall"][0, :, 0, -1] * n_true).astype(int)
    assert ch7.ex8.answer == coco_tp.sum() == _ex8_count("coco") == 2
    assert ch7.ex8.check(2).correct and ch7.ex8.check(np.int64(2)).correct


def test_ex8_answer_matches_pycocotools():
    pycocotools = pytest.importorskip("pycocotools.cocoeval")
    from pycocotools.coco import COCO

    gt = COCO()
    gt.dataset = {
        **ch7.EX8_GT,
        "annotations": [{**a, "iscrowd": 0} for a in ch7.EX8_GT["annotations"]],
    }
    with contextlib.redirect_stdout(io.StringIO()):
        gt.createIndex()
        dt = gt.loadRes([dict(d) for d in ch7.EX8_DETECTIONS])
        ev = pycocotools.COCOeval(gt, dt, "bbox")
        ev.evaluate()
        ev.accumulate()
    recall = ev.eval["recall"][0, :, 0, -1]  # IoU 0.5, area all, maxDets 100
    assert int(np.round(recall @ np.array([1, 2]))) == ch7.ex8.answer


EX8_MUTANTS = {
    "class_agnostic": "the diagonal of a class-agnostic matching",
    "duplicates_count": "an object is found once",
    "every_overlap": "whatever its label",
}


@pytest.mark.parametrize("way, why", EX8_MUTANTS.items())
def test_ex8_mutant_counts_are_caught_and_explained(way, why):
    value = _ex8_count(way)
    assert value != ch7.ex8.answer, way
    assert_wrong_value_caught(ch7.ex8, value)
    result = ch7.ex8.check(value, strict=False)
    assert why in result.message, result.message


def test_ex8_the_explanations_describe_the_scene():
    from mltutor.detection import detection_confusion_matrix

    aware = detection_confusion_matrix(ch7.EX8_GT, ch7.EX8_DETECTIONS)["matrix"]
    agnostic = detection_confusion_matrix(ch7.EX8_GT, ch7.EX8_DETECTIONS, class_agnostic=True)
    # labels: [cat, dog, background]; COCO finds dog 1 with a dog box, the shortcut gives it to
    # the "cat" box (true dog, predicted cat) and sends both dog boxes to the background row
    assert aware[1, 1] == 1 and agnostic["matrix"][1, 0] == 1 and agnostic["matrix"][2, 1] == 2
    assert aware[1, 2] == 1  # the second dog is found by no box
    assert _ex8_count("duplicates_count") == 3 and _ex8_count("every_overlap") == 4
