"""coco_ap_table against evaluate_coco's (and pycocotools') summary numbers; evaluate_coco_by
against evaluate_coco on hand-made subsets."""

from __future__ import annotations

import numpy as np
import pytest
from _detection_diagnostics_cases import coco_cases, pycocotools_eval
from _strategies import CASES, PROPERTY
from hypothesis import assume, given, settings

from mltutor.detection import coco_ap_table, evaluate_coco, evaluate_coco_by


def _stat(x):
    return np.nan if x == -1 else x


@settings(PROPERTY, max_examples=200)
@given(coco_cases())
def test_table_means_are_the_summary_numbers(case):
    gt, dets = case
    assume(dets)
    r = evaluate_coco(gt, dets)
    ref = pycocotools_eval(gt, dets)
    table = coco_ap_table(r)
    assert table["areas"] == ["all", "small", "medium", "large"]
    for a, name in enumerate(["AP", "APs", "APm", "APl"]):
        np.testing.assert_allclose(table["mean"][a], _stat(r[name]), rtol=0, atol=1e-12)
        np.testing.assert_allclose(
            table["mean"][a], _stat(ref.stats[[0, 3, 4, 5][a]]), rtol=0, atol=1e-12
        )
    for k, cat in enumerate(table["cat_ids"]):
        np.testing.assert_allclose(table["AP"][k, 0], _stat(r["AP_per_class"][cat]), atol=1e-12)
    for t, name in ((0.5, "AP50"), (0.75, "AP75")):
        one = coco_ap_table(r, iou_threshold=t)
        np.testing.assert_allclose(one["mean"][0], _stat(r[name]), rtol=0, atol=1e-12)
    CASES["detection: coco_ap_table vs pycocotools summary"] += 1


@settings(PROPERTY, max_examples=60)
@given(coco_cases(attribute=True))
def test_slices_are_evaluations_on_the_subsets(case):
    gt, dets = case
    out = evaluate_coco_by(gt, dets, "weather")
    values = sorted({img["weather"] for img in gt["images"]})
    assert list(out) == values
    for v in values:
        keep = {img["id"] for img in gt["images"] if img["weather"] == v}
        sub = {
            "images": [img for img in gt["images"] if img["id"] in keep],
            "categories": gt["categories"],
            "annotations": [a for a in gt["annotations"] if a["image_id"] in keep],
        }
        want = evaluate_coco(sub, [d for d in dets if d["image_id"] in keep])
        np.testing.assert_array_equal(out[v]["stats"], want["stats"])
    CASES["detection: evaluate_coco_by vs evaluate_coco on subsets"] += 1


def test_bad_arguments():
    gt = {
        "images": [{"id": 1, "site": "a"}, {"id": 2}],
        "categories": [{"id": 1}],
        "annotations": [],
    }
    with pytest.raises(ValueError, match="missing on image ids \\[2\\]"):
        evaluate_coco_by(gt, [], "site")
    with pytest.raises(TypeError, match="attribute"):
        evaluate_coco_by(gt, [], 3)
    gt["images"][1]["site"] = "b"
    stray = [{"image_id": 9, "category_id": 1, "bbox": [0, 0, 1, 1], "score": 0.5}]
    with pytest.raises(ValueError, match="image_id"):
        evaluate_coco_by(gt, stray, "site")  # in no slice: refused, not silently dropped
    with pytest.raises(TypeError, match="evaluate_coco"):
        coco_ap_table([1, 2])
    with pytest.raises(ValueError, match="thresholds"):
        coco_ap_table(evaluate_coco(gt, []), iou_threshold=0.6 + 1e-3)
    assert np.all(np.isnan(coco_ap_table(evaluate_coco(gt, []))["mean"]))
