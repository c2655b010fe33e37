"""evaluate_coco(iou_type="segm") against pycocotools' COCOeval(iouType='segm').

Generated datasets: ground truth as polygons (one or several parts), uncompressed and compressed
RLEs, crowd regions as RLE; detections as compressed RLEs (bytes or str counts) or polygons;
images of different sizes, images without objects, categories without ground truth, more than 100
detections in one (image, category), tied scores, areas exactly on the 32² / 96² bounds.
pycocotools cannot load polygon detections, so the reference gets them as pycocotools' own
rasterisation (frPyObjects + merge).
"""

from __future__ import annotations

import contextlib
import copy
import io

import numpy as np
import pycocotools.mask as coco_mask
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given, settings
from hypothesis import strategies as st
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

from mltutor.detection import evaluate_coco
from mltutor.detection.mask import _overlap as mask_overlap

STATS = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]
SEGM_PROPERTY = settings(PROPERTY, max_examples=300)  # pycocotools is slow: 300 small datasets

pytestmark = pytest.mark.filterwarnings("ignore:__array__ implementation:DeprecationWarning")


def pycocotools_eval(coco_gt: dict, detections: list[dict], iou_type: str, sigmas=None) -> COCOeval:
    """COCOeval on deep copies, prints silenced; polygon detections rasterised by pycocotools."""
    sizes = {im["id"]: (im.get("height"), im.get("width")) for im in coco_gt["images"]}
    dets = copy.deepcopy(detections)
    for d in dets:
        seg = d.get("segmentation")
        if isinstance(seg, list):
            h, w = sizes[d["image_id"]]
            d["segmentation"] = coco_mask.merge(coco_mask.frPyObjects(seg, h, w))
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = copy.deepcopy(coco_gt)
        gt.createIndex()
        if dets:
            dt = gt.loadRes(dets)
        else:
            dt = COCO()
            dt.dataset = {
                "images": list(coco_gt["images"]),
                "categories": copy.deepcopy(coco_gt["categories"]),
                "annotations": [],
            }
            dt.createIndex()
        evaluator = COCOeval(gt, dt, iouType=iou_type)
        if sigmas is not None:
            evaluator.params.kpt_oks_sigmas = np.asarray(sigmas, dtype=np.float64)
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return evaluator


def assert_same(coco_gt, detections, iou_type="segm", names=STATS, sigmas=None):
    ref = pycocotools_eval(coco_gt, detections, iou_type, sigmas)
    kwargs = {"kpt_oks_sigmas": sigmas} if sigmas is not None else {}
    ours = evaluate_coco(coco_gt, detections, iou_type=iou_type, **kwargs)
    for i, name in enumerate(names):
        assert abs(ours[name] - ref.stats[i]) <= 1e-9, (name, ours[name], ref.stats[i])
    for key in ("precision", "recall", "scores"):
        assert ours[key].shape == ref.eval[key].shape, key
        np.testing.assert_allclose(ours[key], ref.eval[key], rtol=0, atol=1e-9, err_msg=key)
    return ours


def _blob(rng, h, w, scale):
    """A random star-shaped polygon around a centre inside the image."""
    k = int(rng.integers(3, 10))
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    angle = np.sort(rng.uniform(0, 2 * np.pi, k))
    radius = rng.uniform(0.3, 1.0, k) * scale
    xy = np.stack([cx + radius * np.cos(angle), cy + radius * np.sin(angle)], axis=1)
    if rng.random() < 0.3:
        xy = np.round(xy)
    return xy.reshape(-1)


def _as_rle(polys, h, w, compressed=True, as_str=False):
    rle = coco_mask.merge(coco_mask.frPyObjects([p.tolist() for p in polys], h, w))
    if not compressed:
        flat = coco_mask.decode(rle).reshape(-1, order="F").astype(np.int64)
        change = np.flatnonzero(np.diff(np.r_[0, flat]))
        return {"size": [h, w], "counts": np.diff(np.r_[0, change, flat.shape[0]]).tolist()}
    if as_str:
        return {"size": rle["size"], "counts": rle["counts"].decode()}
    return rle


@st.composite
def segm_sets(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_img = draw(st.integers(1, 5))
    n_cat = draw(st.integers(1, 3))
    img_ids = rng.choice(np.arange(1, 50), n_img, replace=False).tolist()
    cat_ids = rng.choice(np.arange(1, 20), n_cat, replace=False).tolist()
    images = [
        {"id": i, "height": int(rng.integers(8, 120)), "width": int(rng.integers(8, 120))}
        for i in img_ids
    ]
    p_crowd = draw(st.sampled_from([0.0, 0.2]))
    gt_rate = draw(st.sampled_from([0.0, 1.0, 3.0, 5.0]))
    score_digits = draw(st.sampled_from([1, 8]))
    crowded = draw(st.integers(0, 5)) == 0
    annotations, detections = [], []
    for im in images:
        h, w = im["height"], im["width"]
        for _ in range(int(rng.poisson(gt_rate))):
            scale = rng.uniform(2, max(h, w) / 2)
            parts = [_blob(rng, h, w, scale) for _ in range(int(rng.integers(1, 3)))]
            crowd = int(rng.random() < p_crowd)
            kind = rng.integers(0, 4)
            if crowd or kind == 0:
                seg = _as_rle(parts, h, w)
            elif kind == 1:
                seg = _as_rle(parts, h, w, compressed=False)
            else:
                seg = [p.tolist() for p in parts]
            true_area = float(coco_mask.area(_as_rle(parts, h, w)))
            area = {0: true_area, 1: 32.0**2, 2: 96.0**2}.get(
                int(rng.integers(0, 5)), true_area * rng.uniform(0.5, 1.5)
            )
            rle = _as_rle(parts, h, w)
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": im["id"],
                    "category_id": int(rng.choice(cat_ids)),
                    "segmentation": seg,
                    "area": area,
                    "bbox": coco_mask.toBbox(rle).tolist(),
                    "iscrowd": crowd,
                }
            )
            for _ in range(int(rng.integers(0, 3))):  # noisy copies: true positives and duplicates
                noisy = [p + rng.normal(0, rng.choice([0.3, 2.0]), p.shape) for p in parts]
                detections.append(
                    _detection(
                        rng, noisy, h, w, im["id"], annotations[-1]["category_id"], score_digits
                    )
                )
        for _ in range(int(rng.poisson(2))):  # background detections
            detections.append(
                _detection(
                    rng,
                    [_blob(rng, h, w, rng.uniform(2, 30))],
                    h,
                    w,
                    im["id"],
                    int(rng.choice(cat_ids)),
                    score_digits,
                )
            )
    if crowded:
        im = images[0]
        for _ in range(110):
            detections.append(
                _detection(
                    rng,
                    [_blob(rng, im["height"], im["width"], 6)],
                    im["height"],
                    im["width"],
                    im["id"],
                    cat_ids[0],
                    score_digits,
                )
            )
    order = rng.permutation(len(annotations))
    annotations = [annotations[i] for i in order]
    coco_gt = {
        "images": images,
        "categories": [{"id": c} for c in cat_ids],
        "annotations": annotations,
    }
    return coco_gt, detections


def _detection(rng, parts, h, w, img, cat, digits):
    kind = rng.integers(0, 3)
    if kind == 0:
        seg = [p.tolist() for p in parts]
    else:
        seg = _as_rle(parts, h, w, as_str=kind == 2)
    return {
        "image_id": img,
        "category_id": cat,
        "segmentation": seg,
        "score": round(float(rng.random()), digits),
    }


@SEGM_PROPERTY
@given(segm_sets())
def test_segm_equals_pycocotools(case):
    CASES["detection: evaluate_coco segm vs pycocotools COCOeval"] += 1
    coco_gt, detections = case
    assert_same(coco_gt, detections)
    # the intersections worked in blocks of a few runs (pairs split across blocks) give the same
    saved = mask_overlap.BLOCK
    mask_overlap.BLOCK = 3
    try:
        assert_same(coco_gt, detections)
    finally:
        mask_overlap.BLOCK = saved


def test_perfect_masks_and_empty_detections():
    h, w = 40, 50
    poly = [[5.0, 5.0, 30.0, 5.0, 30.0, 25.0, 5.0, 25.0]]
    gt = {
        "images": [{"id": 1, "height": h, "width": w}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": 1,
                "image_id": 1,
                "category_id": 1,
                "segmentation": poly,
                "area": 500.0,
                "bbox": [5, 5, 25, 20],
                "iscrowd": 0,
            }
        ],
    }
    r = assert_same(gt, [{"image_id": 1, "category_id": 1, "segmentation": poly, "score": 0.9}])
    assert r["AP"] == pytest.approx(1.0) and r["AR100"] == 1.0
    r = assert_same(gt, [])
    assert r["AP"] == 0.0


def test_thin_objects_box_ap_hides_mask_errors():
    """A diagonal stripe: a detection with the right box but the wrong mask scores AP 1 on boxes and
    0 on masks."""
    h = w = 60
    stripe = [[0.0, 0.0, 6.0, 0.0, 60.0, 54.0, 60.0, 60.0, 54.0, 60.0, 0.0, 6.0]]
    other = [[0.0, 54.0, 6.0, 60.0, 60.0, 6.0, 54.0, 0.0]]
    gt = {
        "images": [{"id": 1, "height": h, "width": w}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": 1,
                "image_id": 1,
                "category_id": 1,
                "segmentation": stripe,
                "area": 684.0,
                "bbox": [0, 0, 60, 60],
                "iscrowd": 0,
            }
        ],
    }
    det = {
        "image_id": 1,
        "category_id": 1,
        "segmentation": other,
        "bbox": [0, 0, 60, 60],
        "score": 0.9,
    }
    assert evaluate_coco(gt, [det])["AP"] == pytest.approx(1.0)
    assert assert_same(gt, [det])["AP"] == 0.0


GOOD = {
    "images": [{"id": 1, "height": 10, "width": 10}],
    "categories": [{"id": 1}],
    "annotations": [
        {
            "id": 1,
            "image_id": 1,
            "category_id": 1,
            "segmentation": [[0, 0, 5, 0, 5, 5]],
            "area": 12.0,
            "bbox": [0, 0, 5, 5],
            "iscrowd": 0,
        }
    ],
}


def _with(gt_seg=None, det_seg=None, drop_size=False, **det):
    gt = copy.deepcopy(GOOD)
    if gt_seg is not None:
        gt["annotations"][0]["segmentation"] = gt_seg
    if drop_size:
        del gt["images"][0]["height"], gt["images"][0]["width"]
    d = {
        "image_id": 1,
        "category_id": 1,
        "segmentation": [[0, 0, 5, 0, 5, 5]] if det_seg is None else det_seg,
        "score": 0.5,
        **det,
    }
    return gt, [d]


@pytest.mark.parametrize(
    "args, match",
    [
        (
            _with(gt_seg=[[0, 0, 5, 0]]),
            r"coco_gt\['annotations'\]\[0\]\['segmentation'\]\[0\] has 2 point",
        ),
        (
            _with(det_seg=[[0, 0, np.nan, 0, 5, 5]]),
            r"detections\[0\]\['segmentation'\]\[0\] holds NaN",
        ),
        (
            _with(det_seg={"size": [10, 9], "counts": [90]}),
            r"detections\[0\]\['segmentation'\] has size \[10, 9\]",
        ),
        (
            _with(det_seg={"size": [10, 10], "counts": [50]}),
            r"detections\[0\]\['segmentation'\]\['counts'\] sums",
        ),
        (
            _with(det_seg={"size": [10, 10], "counts": "0o"}),
            r"detections\[0\]\['segmentation'\]\['counts'\] ends",
        ),
        (_with(det_seg="0 0 5 5"), r"detections\[0\]\['segmentation'\] must be"),
        (_with(det_seg=[]), "empty list of polygons"),
        (_with(drop_size=True), "has no 'height' and 'width'"),
        (_with(score=float("nan")), "NaN score"),
    ],
)
def test_bad_segm_input_is_named(args, match):
    gt, dets = args
    with pytest.raises((ValueError, TypeError), match=match):
        evaluate_coco(gt, dets, iou_type="segm")


def test_missing_segmentation_and_stray_sigmas():
    gt = copy.deepcopy(GOOD)
    del gt["annotations"][0]["segmentation"]
    with pytest.raises(ValueError, match=r"coco_gt\['annotations'\]\[0\] has no 'segmentation'"):
        evaluate_coco(gt, [], iou_type="segm")
    with pytest.raises(ValueError, match="kpt_oks_sigmas is used only with iou_type='keypoints'"):
        evaluate_coco(GOOD, [], iou_type="segm", kpt_oks_sigmas=[0.1])
    dets = [{"image_id": 1, "category_id": 1, "score": 0.5, "bbox": [0, 0, 1, 1]}]
    with pytest.raises(ValueError, match=r"detections\[0\].*has no key 'segmentation'"):
        evaluate_coco(GOOD, dets, iou_type="segm")


def _boxed(detections, rng):
    """The same results, each with a ``bbox`` whose area differs from its mask's (a loose box)."""
    out = []
    for d in detections:
        x, y = rng.uniform(0, 40, 2)
        out.append(
            {
                **d,
                "bbox": [
                    float(x),
                    float(y),
                    float(rng.uniform(1, 120)),
                    float(rng.uniform(1, 120)),
                ],
            }
        )
    return out


@settings(SEGM_PROPERTY, max_examples=100)
@given(segm_sets(), st.integers(0, 2**32 - 1))
def test_results_with_boxes_take_their_area_from_the_box(case, seed):
    """pycocotools' loadRes sets a mask result's area to bbox[2] * bbox[3] when results carry a bbox;
    the area ranges (APs/APm/APl, ARs/ARm/ARl) then read that area for unmatched detections."""
    CASES["detection: evaluate_coco segm with result boxes vs pycocotools"] += 1
    coco_gt, detections = case
    assert_same(coco_gt, _boxed(detections, np.random.default_rng(seed)))


def test_result_box_area_changes_the_size_ranges():
    """Fails if the mask's area is used: a small false positive with a large box is ignored for 'small'."""
    poly = [[2.0, 2.0, 8.0, 2.0, 8.0, 8.0, 2.0, 8.0]]
    gt = {
        "images": [{"id": 1, "height": 120, "width": 120}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": 1,
                "image_id": 1,
                "category_id": 1,
                "segmentation": poly,
                "area": 36.0,
                "bbox": [2, 2, 6, 6],
                "iscrowd": 0,
            }
        ],
    }
    miss = [[50.0, 50.0, 56.0, 50.0, 56.0, 56.0, 50.0, 56.0]]
    dets = [
        {"image_id": 1, "category_id": 1, "segmentation": miss, "score": 0.9},
        {"image_id": 1, "category_id": 1, "segmentation": poly, "score": 0.5},
    ]
    masks_only = assert_same(gt, dets)
    boxed = assert_same(
        gt, [{**dets[0], "bbox": [40, 40, 60, 60]}, {**dets[1], "bbox": [2, 2, 6, 6]}]
    )
    assert masks_only["APs"] < boxed["APs"] == pytest.approx(1.0)


def test_results_mixing_boxes_and_none_are_refused():
    gt, dets = _with()
    with pytest.raises(
        ValueError, match=r"detections\[1\] has no 'bbox' but detections\[0\] has one"
    ):
        evaluate_coco(gt, [{**dets[0], "bbox": [0, 0, 5, 5]}, dets[0]], iou_type="segm")
    with pytest.raises(ValueError, match=r"detections\[0\].*bbox=\[0, 0, 5\]; expected 4 numbers"):
        evaluate_coco(gt, [{**dets[0], "bbox": [0, 0, 5]}], iou_type="segm")


def test_empty_detection_masks_next_to_others():
    """Empty masks (and runs of ones of length 0) among the detections: the intersections are counted
    on one axis for all masks, where an empty mask must not reach into its neighbours' pixels."""
    h, w = 12, 10
    square = [[1.0, 1.0, 8.0, 1.0, 8.0, 8.0, 1.0, 8.0]]
    gt = {
        "images": [{"id": 1, "height": h, "width": w}, {"id": 2, "height": h, "width": w}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": i,
                "image_id": i,
                "category_id": 1,
                "segmentation": square,
                "area": 49.0,
                "bbox": [1, 1, 7, 7],
                "iscrowd": 0,
            }
            for i in (1, 2)
        ],
    }
    full = coco_mask.merge(coco_mask.frPyObjects(square, h, w))
    empty = coco_mask.frPyObjects({"size": [h, w], "counts": [h * w]}, h, w)
    zero_runs = coco_mask.frPyObjects(
        {"size": [h, w], "counts": [5, 0, 40, 0, h * w - 45]}, h, w
    )  # ones of length 0
    everything = coco_mask.frPyObjects({"size": [h, w], "counts": [0, h * w]}, h, w)
    for first, second in (
        (empty, full),
        (empty, everything),
        (zero_runs, everything),
        (full, empty),
        (empty, empty),
    ):
        dets = [
            {"image_id": 1, "category_id": 1, "segmentation": first, "score": 0.9},
            {"image_id": 2, "category_id": 1, "segmentation": second, "score": 0.8},
            {"image_id": 2, "category_id": 1, "segmentation": first, "score": 0.7},
        ]
        assert_same(gt, dets)
