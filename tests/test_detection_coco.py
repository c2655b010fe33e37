"""evaluate_coco against pycocotools' COCOeval(iouType='bbox'), stat by stat and array by array.

Generated datasets cover: crowd regions, images without ground truth or without detections,
categories without ground truth (-1) or without detections, more than 100 detections in one
(image, category), tied scores within and across images, boxes on an integer grid (IoU exactly at a
threshold, IoU ties between boxes), zero-area boxes, areas exactly on the 32² / 96² boundaries,
non-contiguous and unsorted image and category ids.
"""

from __future__ import annotations

import contextlib
import copy
import io

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given, settings
from hypothesis import strategies as st
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

from mltutor._validation.detection import parse_coco_detections, parse_coco_gt
from mltutor.detection import _coco as coco_module
from mltutor.detection import detection_average_precision, evaluate_coco

STATS = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]
COCO_PROPERTY = settings(PROPERTY, max_examples=300)  # pycocotools is slow: 300 small datasets


def pycocotools_eval(coco_gt: dict, detections: list[dict]) -> COCOeval:
    """Run COCOeval on deep copies (loadRes and _prepare write into the dicts), prints silenced."""
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = copy.deepcopy(coco_gt)
        gt.createIndex()
        if detections:
            dt = gt.loadRes(copy.deepcopy(detections))
        else:  # loadRes cannot take an empty list; an empty result set is still a valid evaluation
            dt = COCO()
            dt.dataset = {
                "images": list(coco_gt["images"]),
                "categories": copy.deepcopy(coco_gt["categories"]),
                "annotations": [],
            }
            dt.createIndex()
        evaluator = COCOeval(gt, dt, iouType="bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return evaluator


def assert_same_as_pycocotools(coco_gt: dict, detections: list[dict]) -> dict:
    ref = pycocotools_eval(coco_gt, detections)
    ours = evaluate_coco(coco_gt, detections)
    for i, name in enumerate(STATS):
        assert abs(ours[name] - ref.stats[i]) <= 1e-9, (name, ours[name], ref.stats[i])
    np.testing.assert_allclose(ours["stats"], ref.stats, rtol=0, atol=1e-9)
    for key in ("precision", "recall", "scores"):
        assert ours[key].shape == ref.eval[key].shape, key
        np.testing.assert_allclose(ours[key], ref.eval[key], rtol=0, atol=1e-12, err_msg=key)
    assert ours["params"]["cat_ids"] == [int(c) for c in ref.params.catIds]
    assert ours["params"]["img_ids"] == [int(i) for i in ref.params.imgIds]
    for k, cat in enumerate(ref.params.catIds):
        s = ref.eval["precision"][:, :, k, 0, -1]
        expected = float(np.mean(s[s > -1])) if (s > -1).any() else -1.0
        assert abs(ours["AP_per_class"][int(cat)] - expected) <= 1e-9
    return ours


# --------------------------------------------------------------------------------------------
# Generated datasets
# --------------------------------------------------------------------------------------------


@st.composite
def coco_sets(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_img = draw(st.integers(1, 6))
    n_cat = draw(st.integers(1, 4))
    img_ids = rng.choice(np.arange(1, 60), n_img, replace=False).tolist()
    cat_ids = rng.choice(np.arange(1, 30), n_cat, replace=False).tolist()
    grid = draw(st.booleans())  # integer coordinates: exact IoU values and ties
    p_crowd = draw(st.sampled_from([0.0, 0.15, 0.5]))
    gt_rate = draw(st.sampled_from([0.0, 1.0, 3.0, 6.0]))
    scale = draw(st.sampled_from([4.0, 30.0, 150.0]))  # small / medium / large objects
    score_digits = draw(st.sampled_from([1, 2, 8]))
    crowded = draw(st.integers(0, 4)) == 0  # one (image, category) with > 100 detections

    def box(n, s):
        if grid:
            xy = rng.integers(0, 12, (n, 2)) * max(1, int(s // 4))
            wh = rng.integers(0, 6, (n, 2)) * max(1, int(s // 4))
        else:
            xy = rng.uniform(0, 4 * s, (n, 2))
            wh = rng.uniform(0.2, 2 * s, (n, 2))
        return np.hstack([xy, wh]).astype(float)

    annotations = []
    for img in img_ids:
        n = int(rng.poisson(gt_rate))
        boxes = box(n, scale)
        for b in boxes:
            kind = rng.integers(0, 6)
            area = {0: b[2] * b[3], 1: 32.0**2, 2: 96.0**2}.get(
                kind, b[2] * b[3] * rng.uniform(0.4, 1.0)
            )
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": img,
                    "category_id": int(rng.choice(cat_ids)),
                    "bbox": b.tolist(),
                    "area": float(area),
                    "iscrowd": int(rng.random() < p_crowd),
                }
            )
    if draw(st.booleans()):
        ids = rng.permutation(np.arange(1, len(annotations) + 1) * 7)
        for a, i in zip(annotations, ids):
            a["id"] = int(i)
    order = rng.permutation(len(annotations))
    annotations = [annotations[i] for i in order]

    detections = []
    for a in annotations:  # noisy copies of the objects, sometimes several (duplicates)
        for _ in range(int(rng.integers(0, 4))):
            b = np.array(a["bbox"])
            if grid:
                b = b + rng.integers(-1, 2, 4) * max(1, int(scale // 8))
            else:
                b = b + rng.normal(0, 0.15, 4) * np.r_[b[2:], b[2:]]
            b[2:] = np.maximum(b[2:], 0)
            cat = a["category_id"] if rng.random() > 0.1 else int(rng.choice(cat_ids))
            detections.append({"image_id": a["image_id"], "category_id": cat, "bbox": b.tolist()})
    for img in img_ids:  # background false positives
        for b in box(int(rng.integers(0, 4)), scale):
            detections.append(
                {"image_id": img, "category_id": int(rng.choice(cat_ids)), "bbox": b.tolist()}
            )
    if crowded:
        img, cat = int(rng.choice(img_ids)), int(rng.choice(cat_ids))
        for b in box(int(rng.integers(101, 140)), scale):
            detections.append({"image_id": img, "category_id": cat, "bbox": b.tolist()})
    scores = np.round(rng.random(len(detections)), score_digits)
    for d, s in zip(detections, scores):
        d["score"] = float(s)
    detections = [detections[i] for i in rng.permutation(len(detections))]

    images = [{"id": i} for i in img_ids]
    categories = [{"id": c, "name": f"c{c}"} for c in cat_ids]
    return {"images": images, "categories": categories, "annotations": annotations}, detections


@COCO_PROPERTY
@given(coco_sets())
def test_coco_equals_pycocotools(data):
    CASES["detection: evaluate_coco vs pycocotools COCOeval"] += 1
    assert_same_as_pycocotools(*data)


# --------------------------------------------------------------------------------------------
# Targeted cases
# --------------------------------------------------------------------------------------------


def _gt(annotations, n_img=1, cats=(1,)):
    for i, a in enumerate(annotations):
        a.setdefault("id", i + 1)
        a.setdefault("image_id", 1)
        a.setdefault("category_id", 1)
        a.setdefault("iscrowd", 0)
        a.setdefault("area", a["bbox"][2] * a["bbox"][3])
    return {
        "images": [{"id": i + 1} for i in range(n_img)],
        "categories": [{"id": c} for c in cats],
        "annotations": annotations,
    }


def _det(bbox, score, image_id=1, category_id=1):
    return {"image_id": image_id, "category_id": category_id, "bbox": list(bbox), "score": score}


def test_perfect_detector():
    gt = _gt([{"bbox": [0, 0, 50, 50]}, {"bbox": [100, 100, 20, 20]}])
    r = assert_same_as_pycocotools(gt, [_det([0, 0, 50, 50], 0.9), _det([100, 100, 20, 20], 0.8)])
    assert r["AP"] == pytest.approx(1.0) and r["AR100"] == 1.0
    assert r["APl"] == -1.0  # no large object: -1, as pycocotools


def test_duplicates_are_false_positives():
    gt = _gt([{"bbox": [0, 0, 50, 50]}, {"bbox": [100, 0, 50, 50]}])
    dets = [_det([0, 0, 50, 50], 0.9), _det([1, 0, 50, 50], 0.85), _det([100, 0, 50, 50], 0.8)]
    r = assert_same_as_pycocotools(gt, dets)
    assert r["AP50"] < 1.0


def test_crowd_absorbs_detections_and_is_never_a_miss():
    gt = _gt([{"bbox": [0, 0, 100, 100], "iscrowd": 1}, {"bbox": [200, 200, 40, 40]}])
    inside = [
        _det([x, 10, 20, 20], 0.9 - x / 1000) for x in range(0, 80, 10)
    ]  # all inside the crowd
    r = assert_same_as_pycocotools(gt, inside + [_det([200, 200, 40, 40], 0.1)])
    assert r["AP"] == pytest.approx(1.0)  # the crowd neither rewards nor penalises


def test_more_than_100_detections_per_image_and_category():
    gt = _gt([{"bbox": [0, 0, 40, 40]}])
    junk = [_det([500 + i, 500, 10, 10], 0.9) for i in range(120)]
    late = _det([0, 0, 40, 40], 0.5)  # rank 121: dropped before matching
    r = assert_same_as_pycocotools(gt, junk + [late])
    assert r["AR100"] == 0.0
    r = assert_same_as_pycocotools(gt, junk[:50] + [late])  # rank 51: counts for AR100 only
    assert (r["AR1"], r["AR10"], r["AR100"]) == (0.0, 0.0, 1.0)


def test_ignored_detections_use_up_max_dets():
    """A detection matched to a crowd region is ignored but still occupies the first slot."""
    gt = _gt([{"bbox": [0, 0, 100, 100], "iscrowd": 1}, {"bbox": [300, 300, 40, 40]}])
    r = assert_same_as_pycocotools(gt, [_det([10, 10, 20, 20], 0.9), _det([300, 300, 40, 40], 0.8)])
    assert r["AR1"] == 0.0 and r["AR10"] == 1.0


def test_category_without_ground_truth_is_minus_one():
    gt = _gt([{"bbox": [0, 0, 40, 40]}], cats=(1, 2, 3))
    r = assert_same_as_pycocotools(
        gt, [_det([0, 0, 40, 40], 0.9), _det([0, 0, 40, 40], 0.9, category_id=2)]
    )
    assert r["AP_per_class"][2] == -1.0 and r["AP_per_class"][3] == -1.0
    assert (r["precision"][:, :, 1:] == -1).all()
    assert r["AP"] == pytest.approx(1.0)  # left out of the mean, not counted as 0


def test_images_without_ground_truth_or_detections():
    gt = _gt([{"bbox": [0, 0, 40, 40]}], n_img=4)
    assert_same_as_pycocotools(
        gt, [_det([0, 0, 40, 40], 0.9), _det([0, 0, 40, 40], 0.95, image_id=3)]
    )


def test_iou_exactly_on_thresholds():
    """IoU 0.5 and 0.75 exactly (integer boxes): >= counts, as in pycocotools."""
    gt = _gt([{"bbox": [0, 0, 40, 40]}, {"bbox": [100, 0, 40, 40]}])
    dets = [
        _det([0, 0, 40, 20], 0.9),  # IoU 0.5
        _det([100, 0, 40, 30], 0.8),
    ]  # IoU 0.75
    r = assert_same_as_pycocotools(gt, dets)
    # At 0.75 only the second detection counts: precision 1/2 up to recall 1/2 → 51 of 101 points.
    assert r["AP50"] == pytest.approx(1.0) and r["AP75"] == pytest.approx(51 * 0.5 / 101)


def test_tied_scores_across_images_keep_image_order():
    gt = _gt(
        [{"bbox": [0, 0, 40, 40], "image_id": 2}, {"bbox": [0, 0, 40, 40], "image_id": 1}], n_img=3
    )
    dets = [
        _det([0, 0, 40, 40], 0.5, image_id=2),
        _det([90, 90, 40, 40], 0.5, image_id=3),
        _det([90, 90, 40, 40], 0.5, image_id=1),
        _det([0, 0, 40, 40], 0.5, image_id=1),
    ]
    assert_same_as_pycocotools(gt, dets)


def test_area_field_not_box_decides_the_size_range():
    gt = _gt([{"bbox": [0, 0, 100, 100], "area": 500.0}])  # a big box around a small mask
    r = assert_same_as_pycocotools(gt, [_det([0, 0, 100, 100], 0.9)])
    assert r["APs"] == pytest.approx(1.0) and r["APl"] == -1.0


def test_annotation_id_zero_quirk():
    """pycocotools stores the matched annotation id and reads 0 as 'unmatched'."""
    gt = _gt([{"bbox": [0, 0, 40, 40], "id": 0}, {"bbox": [100, 0, 40, 40], "id": 5}])
    assert_same_as_pycocotools(gt, [_det([0, 0, 40, 40], 0.9), _det([100, 0, 40, 40], 0.8)])


def test_no_detections_at_all():
    gt = _gt([{"bbox": [0, 0, 40, 40]}], cats=(1, 2))
    r = assert_same_as_pycocotools(gt, [])
    assert r["AP"] == 0.0 and r["AR100"] == 0.0


def test_per_class_ap_agrees_with_the_curve_kernel():
    """One class, one IoU threshold: the (score, is-TP) list from matching fed to the shared
    interpolated-AP function gives the same number as the accumulated precision array."""
    coco_gt, dets = _fixed_dataset()
    result = evaluate_coco(coco_gt, dets)
    gt = parse_coco_gt(coco_gt)
    m = coco_module._match(gt, parse_coco_detections(dets, gt))
    for k, _cat in enumerate(gt.cat_ids.tolist()):
        n_pos = int(m["npig"][k, 0])
        if n_pos == 0:
            continue
        counted = (m["cat"] == k) & (
            m["tp"][:, 0, 0] | m["fp"][:, 0, 0]
        )  # area 'all', IoU 0.5, rank < 100
        ap = detection_average_precision(
            m["score"][counted], m["tp"][counted, 0, 0], n_pos, method="coco"
        )
        assert abs(ap - result["precision"][0, :, k, 0, 2].mean()) <= 1e-12


def _fixed_dataset():
    rng = np.random.default_rng(7)
    anns, dets = [], []
    for i in range(60):
        x, y, w, h = (
            rng.uniform(0, 300),
            rng.uniform(0, 300),
            rng.uniform(5, 120),
            rng.uniform(5, 120),
        )
        cat = int(rng.integers(1, 4))
        anns.append(
            {
                "id": i + 1,
                "image_id": int(rng.integers(1, 11)),
                "category_id": cat,
                "bbox": [x, y, w, h],
                "area": w * h,
                "iscrowd": 0,
            }
        )
        for _ in range(int(rng.integers(0, 3))):
            j = rng.normal(0, 0.1, 4) * [w, h, w, h]
            dets.append(
                _det(
                    [x + j[0], y + j[1], w + j[2], h + j[3]],
                    float(rng.random()),
                    anns[-1]["image_id"],
                    cat,
                )
            )
    for _ in range(40):
        dets.append(
            _det(
                [*rng.uniform(0, 300, 2), *rng.uniform(5, 100, 2)],
                float(rng.random()),
                int(rng.integers(1, 11)),
                int(rng.integers(1, 4)),
            )
        )
    return {
        "images": [{"id": i} for i in range(1, 11)],
        "categories": [{"id": c} for c in (1, 2, 3)],
        "annotations": anns,
    }, dets


def test_fixed_dataset_parity_and_result_layout():
    coco_gt, dets = _fixed_dataset()
    r = assert_same_as_pycocotools(coco_gt, dets)
    assert list(r)[:12] == STATS
    assert r["precision"].shape == (10, 101, 3, 4, 3) and r["recall"].shape == (10, 3, 4, 3)
    assert all(isinstance(r[name], float) for name in STATS)


def test_input_is_not_modified():
    coco_gt, dets = _fixed_dataset()
    before = copy.deepcopy((coco_gt, dets))
    evaluate_coco(coco_gt, dets)
    assert (coco_gt, dets) == before


# --------------------------------------------------------------------------------------------
# Bad input: clear errors that name the record
# --------------------------------------------------------------------------------------------

GOOD_GT = _gt([{"bbox": [0, 0, 10, 10]}], cats=(1, 2))


def _with(dets=None, **gt_changes):
    gt = copy.deepcopy(GOOD_GT)
    gt.update(gt_changes)
    return gt, dets if dets is not None else [_det([0, 0, 10, 10], 0.9)]


@pytest.mark.parametrize(
    "args, error, message",
    [
        (
            _with([{"image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1], "scores": 0.5}]),
            ValueError,
            r"detections\[0\] .* has no key 'score'.*'scores' should be 'score'",
        ),
        (
            _with([{"image_id": 1, "category_id": 1, "box": [0, 0, 1, 1], "score": 0.5}]),
            ValueError,
            r"'box' should be 'bbox'",
        ),
        (
            _with([_det([0, 0, 1, 1], 0.5), _det([0, 0, -1, 1], 0.5)]),
            ValueError,
            r"detections\[1\] \(image_id=1, category_id=1, score=0.5\) .* negative width",
        ),
        (_with([_det([0, 0, 1, np.nan], 0.5)]), ValueError, r"detections\[0\].*NaN or inf"),
        (_with([_det([0, 0, 1], 0.5)]), ValueError, r"detections\[0\].*expected 4 numbers"),
        (_with([_det([0, 0, 1, 1], float("nan"))]), ValueError, r"detections\[0\].*NaN score"),
        (_with([_det([0, 0, 1, 1], "high")]), ValueError, r"detections\[0\].*score='high'"),
        (
            _with([_det([0, 0, 1, 1], 0.5, image_id=9)]),
            ValueError,
            r"detections\[0\] .* image_id=9, which is not in coco_gt\['images'\]",
        ),
        (
            _with([_det([0, 0, 1, 1], 0.5, category_id=7)]),
            ValueError,
            r"category_id=7, which is not in coco_gt\['categories'\]",
        ),
        (_with(["not a dict"]), TypeError, r"detections\[0\] must be a dict"),
        (
            _with(annotations=[{"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1]}]),
            ValueError,
            r"coco_gt\['annotations'\]\[0\] \(id=1, image_id=1, category_id=1\) has no key 'area'",
        ),
        (
            _with(
                annotations=[
                    {"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, -1, 1], "area": 1}
                ]
            ),
            ValueError,
            r"coco_gt\['annotations'\]\[0\].*negative width",
        ),
        (
            _with(
                annotations=[
                    {"id": 1, "image_id": 5, "category_id": 1, "bbox": [0, 0, 1, 1], "area": 1}
                ]
            ),
            ValueError,
            r"image_id=5, which is not in coco_gt\['images'\]",
        ),
        (
            _with(
                annotations=[
                    {"id": 3, "image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1], "area": 1}
                ]
                * 2
            ),
            ValueError,
            r"ids must be unique: records \[0, 1\] share id=3",
        ),
        (
            _with(
                annotations=[
                    {"id": 3, "image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1], "area": -2}
                ]
            ),
            ValueError,
            r"area=-2",
        ),
        (
            ({"images": [], "annotation": [], "categories": []}, []),
            ValueError,
            r"no 'annotations' list \(found 'annotation'\)",
        ),
        ((["not a dict"], []), TypeError, "coco_gt must be a COCO ground-truth dict"),
        ((GOOD_GT, {"image_id": 1}), TypeError, "detections must be a list of dicts"),
    ],
)
def test_bad_input(args, error, message):
    with pytest.raises(error, match=message):
        evaluate_coco(*args)


def test_unknown_iou_type():
    with pytest.raises(
        ValueError, match=r"iou_type must be one of \['bbox', 'segm', 'keypoints'\]; got 'mask'"
    ):
        evaluate_coco(GOOD_GT, [], iou_type="mask")
