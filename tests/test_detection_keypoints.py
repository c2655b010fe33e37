"""evaluate_coco(iou_type="keypoints") against pycocotools' COCOeval(iouType='keypoints').

The 17 COCO keypoints with the default sigmas, and skeletons of 1 to 9 keypoints with their own
sigmas (pycocotools with ``params.kpt_oks_sigmas`` replaced, and faster-coco-eval's
``kpt_oks_sigmas``).  Generated ground truth covers: unlabelled (v = 0), hidden (v = 1) and visible
(v = 2) keypoints, objects with no labelled keypoint (the box-extension rule) and with
``num_keypoints == 0`` (ignored), crowd regions, areas on the 32² / 96² bounds, more than 20
detections in one (image, category), tied scores.
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
from test_detection_segm import assert_same

from mltutor.detection import evaluate_coco
from mltutor.detection.keypoints import COCO_SIGMAS, oks

NAMES = ["AP", "AP50", "AP75", "APm", "APl", "AR", "AR50", "AR75", "ARm", "ARl"]
KPT_PROPERTY = settings(PROPERTY, max_examples=300)  # pycocotools is slow: 300 small datasets


@st.composite
def keypoint_sets(draw, custom: bool):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = int(rng.integers(1, 10)) if custom else 17
    sigmas = np.round(rng.uniform(0.01, 0.2, k), 3).tolist() if custom else None
    n_img = draw(st.integers(1, 5))
    n_cat = draw(st.integers(1, 2))
    img_ids = rng.choice(np.arange(1, 50), n_img, replace=False).tolist()
    cat_ids = rng.choice(np.arange(1, 20), n_cat, replace=False).tolist()
    p_crowd = draw(st.sampled_from([0.0, 0.2]))
    gt_rate = draw(st.sampled_from([0.0, 1.0, 3.0, 6.0]))
    digits = draw(st.sampled_from([1, 8]))
    crowded = draw(st.integers(0, 5)) == 0
    anns, dets = [], []
    for img in img_ids:
        for _ in range(int(rng.poisson(gt_rate))):
            x, y = rng.uniform(0, 300, 2)
            w, h = rng.uniform(4, 150, 2)
            xy = np.stack([x + rng.uniform(0, w, k), y + rng.uniform(0, h, k)], axis=1)
            v = rng.choice([0, 1, 2], k, p=rng.dirichlet([1, 1, 1]))
            if rng.random() < 0.15:
                v[:] = 0
            xy[v == 0] = 0.0  # COCO writes unlabelled keypoints as (0, 0, 0)
            kpts = np.column_stack([xy, v]).reshape(-1)
            n_lab = int((v > 0).sum())
            if rng.random() < 0.1:
                n_lab = int(rng.integers(0, k + 1))  # a num_keypoints field that disagrees with v
            area = {0: 32.0**2, 1: 96.0**2}.get(
                int(rng.integers(0, 6)), float(w * h * rng.uniform(0.3, 1))
            )
            anns.append(
                {
                    "id": len(anns) + 1,
                    "image_id": img,
                    "category_id": int(rng.choice(cat_ids)),
                    "keypoints": kpts.tolist(),
                    "num_keypoints": n_lab,
                    "area": area,
                    "bbox": [float(x), float(y), float(w), float(h)],
                    "iscrowd": int(rng.random() < p_crowd),
                }
            )
            truth = np.stack([x + rng.uniform(0, w, k), y + rng.uniform(0, h, k)], axis=1)
            truth[v > 0] = xy[v > 0]
            for _ in range(int(rng.integers(0, 3))):
                noise = rng.normal(0, rng.choice([0.02, 0.1, 0.3]) * np.sqrt(area), (k, 2))
                dets.append(_det(truth + noise, img, anns[-1]["category_id"], rng, digits))
        for _ in range(int(rng.poisson(1.5))):
            dets.append(
                _det(rng.uniform(0, 400, (k, 2)), img, int(rng.choice(cat_ids)), rng, digits)
            )
    if crowded:
        for _ in range(25):
            dets.append(_det(rng.uniform(0, 400, (k, 2)), img_ids[0], cat_ids[0], rng, digits))
    anns = [anns[i] for i in rng.permutation(len(anns))]
    coco_gt = {
        "images": [{"id": i} for i in img_ids],
        "categories": [{"id": c} for c in cat_ids],
        "annotations": anns,
    }
    return coco_gt, dets, sigmas


def _det(xy, img, cat, rng, digits):
    score_v = rng.random(xy.shape[0])  # detectors often put a confidence where v goes
    kpts = np.column_stack([xy, score_v]).reshape(-1).tolist()
    return {
        "image_id": img,
        "category_id": cat,
        "keypoints": kpts,
        "score": round(float(rng.random()), digits),
    }


@KPT_PROPERTY
@given(keypoint_sets(custom=False))
def test_coco_17_keypoints_equal_pycocotools(case):
    CASES["detection: evaluate_coco keypoints (17, COCO sigmas) vs pycocotools"] += 1
    coco_gt, dets, _ = case
    assert_same(coco_gt, dets, "keypoints", NAMES)


@KPT_PROPERTY
@given(keypoint_sets(custom=True))
def test_custom_sigmas_equal_pycocotools(case):
    CASES["detection: evaluate_coco keypoints (1-9, own sigmas) vs pycocotools"] += 1
    coco_gt, dets, sigmas = case
    assert_same(coco_gt, dets, "keypoints", NAMES, sigmas=sigmas)


@settings(PROPERTY, max_examples=200)
@given(keypoint_sets(custom=True))
def test_custom_sigmas_equal_faster_coco_eval(case):
    CASES["detection: evaluate_coco keypoints (own sigmas) vs faster-coco-eval"] += 1
    from faster_coco_eval import COCO as FCOCO
    from faster_coco_eval import COCOeval_faster

    coco_gt, dets, sigmas = case
    if not dets:
        return
    with contextlib.redirect_stdout(io.StringIO()):
        gt = FCOCO(copy.deepcopy(coco_gt))
        dt = gt.loadRes(copy.deepcopy(dets))
        ev = COCOeval_faster(
            gt, dt, iouType="keypoints", kpt_oks_sigmas=sigmas, print_function=lambda *a: None
        )
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    ours = evaluate_coco(coco_gt, dets, iou_type="keypoints", kpt_oks_sigmas=sigmas)
    np.testing.assert_allclose(ours["stats"], ev.stats[:10], rtol=0, atol=1e-9)


def test_oks_by_hand():
    """Two keypoints, one 1 px off: OKS = (1 + exp(-1 / (2 · 0.2² · 100 · 2))) / 2."""
    got = oks([[10, 10, 1, 21, 20, 1]], [[10, 10, 2, 20, 20, 2]], [100.0], sigmas=[0.1, 0.1])
    assert got[0, 0] == pytest.approx(
        (1 + np.exp(-1 / (0.2**2 * (100 + np.spacing(1)) * 2))) / 2, abs=1e-15
    )
    # only labelled keypoints count; with none labelled, the distance outside the enlarged box
    assert (
        oks([[10, 10, 0, 500, 500, 0]], [[10, 10, 2, 0, 0, 0]], [100.0], sigmas=[0.1, 0.1])[0, 0]
        == 1.0
    )
    inside = oks(
        [[5, 5, 0, 6, 6, 0]], [[0, 0, 0, 0, 0, 0]], [100.0], [[0, 0, 10, 10]], sigmas=[0.1, 0.1]
    )
    assert inside[0, 0] == 1.0
    assert COCO_SIGMAS.shape == (17,)


GOOD = {
    "images": [{"id": 1}],
    "categories": [{"id": 1}],
    "annotations": [
        {
            "id": 1,
            "image_id": 1,
            "category_id": 1,
            "keypoints": [1, 1, 2, 5, 5, 1],
            "num_keypoints": 2,
            "area": 50.0,
            "bbox": [0, 0, 10, 10],
            "iscrowd": 0,
        }
    ],
}
SIG = [0.1, 0.1]


def _case(gt_kpts=None, det_kpts=None, sigmas=SIG, **ann):
    gt = copy.deepcopy(GOOD)
    if gt_kpts is not None:
        gt["annotations"][0]["keypoints"] = gt_kpts
    gt["annotations"][0].update(ann)
    det = {
        "image_id": 1,
        "category_id": 1,
        "keypoints": [1, 1, 1, 5, 5, 1] if det_kpts is None else det_kpts,
        "score": 0.9,
    }
    return gt, [det], sigmas


@pytest.mark.parametrize(
    "args, match",
    [
        (
            _case(gt_kpts=[1, 1, 3, 5, 5, 1]),
            r"coco_gt\['annotations'\]\[0\]\['keypoints'\] has the visibility flag 3",
        ),
        (_case(gt_kpts=[1, 1, -1, 5, 5, 1]), "visibility flag -1"),
        (_case(gt_kpts=[1, 1, 0.5, 5, 5, 1]), "visibility flag 0.5"),
        (
            _case(gt_kpts=[np.nan, 1, 2, 5, 5, 1]),
            r"coco_gt\['annotations'\]\[0\]\['keypoints'\] holds NaN",
        ),
        (
            _case(det_kpts=[1, np.inf, 1, 5, 5, 1]),
            r"detections\[0\]\['keypoints'\] holds NaN or inf",
        ),
        (
            _case(det_kpts=[1, 1, 1]),
            r"detections\[0\]\['keypoints'\] must hold 3 numbers .* 6 for 2 keypoints",
        ),
        (
            _case(gt_kpts=[1, 1, 2, 5, 5]),
            r"coco_gt\['annotations'\]\[0\]\['keypoints'\] must hold 3 numbers",
        ),
        (_case(sigmas=[0.1, 0.1, 0.1]), "must hold 3 numbers .* 9 for 3 keypoints"),
        (_case(sigmas=[0.1, 0.0]), "kpt_oks_sigmas must hold finite, positive"),
        (_case(sigmas=[0.1, -1.0]), "kpt_oks_sigmas must hold finite, positive"),
        (_case(sigmas=[0.1, np.nan]), "kpt_oks_sigmas must hold finite, positive"),
        (_case(sigmas=[[0.1, 0.1]]), "kpt_oks_sigmas must be a non-empty 1-D list"),
        (_case(sigmas=[]), "kpt_oks_sigmas must be a non-empty 1-D list"),
        (_case(sigmas="ab"), "kpt_oks_sigmas must be"),
        (_case(num_keypoints=-1), "num_keypoints=-1; expected a non-negative integer"),
        (_case(num_keypoints=1.5), "num_keypoints=1.5"),
        # np.asarray(..., dtype=float) would read these as 1.0 and NaN: a corrupted file, refused
        (
            _case(gt_kpts=[1, 1, "2", 5, 5, 1]),
            r"coco_gt\['annotations'\]\[0\]\['keypoints'\] must be a flat list .* of numbers",
        ),
        (
            _case(det_kpts=["1", 1, 1, 5, 5, 1]),
            r"detections\[0\]\['keypoints'\] must be a flat list .* of numbers",
        ),
        (
            _case(det_kpts=[1, 1, None, 5, 5, 1]),
            r"detections\[0\]\['keypoints'\] must be a flat list .* of numbers",
        ),
        (_case(gt_kpts=[1, 1, 2, 5, b"5", 1]), "must be a flat list .* of numbers"),
        # an int beyond a float (json reads 400 digits as one), and records that iterate as something
        # else than their numbers: the fast path must hand them to the checks that name them
        (
            _case(det_kpts=[10**400, 1, 1, 5, 5, 1]),
            r"detections\[0\]\['keypoints'\] must be a flat",
        ),
        (_case(gt_kpts=[1, 1, 2, 5, 5, 10**400]), r"coco_gt\['annotations'\]\[0\]\['keypoints'\]"),
        (_case(det_kpts=b"\x01\x01\x01\x05\x05\x01"), "must be a flat list .* of numbers"),
        (_case(det_kpts={1: 0, 2: 0, 3: 0, 5: 0, 6: 0, 7: 0}), "must be a flat list .* of numbers"),
        (_case(det_kpts=np.array([1, 1, 1, 5, 5, 1], dtype=object)), "must be a flat list"),
    ],
)
def test_bad_keypoint_input_is_named(args, match):
    gt, dets, sigmas = args
    with pytest.raises(ValueError, match=match):
        evaluate_coco(gt, dets, iou_type="keypoints", kpt_oks_sigmas=sigmas)


def test_missing_keypoint_fields_and_default_sigmas():
    gt = copy.deepcopy(GOOD)
    del gt["annotations"][0]["num_keypoints"]
    with pytest.raises(ValueError, match=r"coco_gt\['annotations'\]\[0\] has no 'num_keypoints'"):
        evaluate_coco(gt, [], iou_type="keypoints", kpt_oks_sigmas=SIG)
    with pytest.raises(
        ValueError, match=r"must hold 3 numbers .* 51 for 17 keypoints"
    ):  # default: COCO's 17
        evaluate_coco(GOOD, [], iou_type="keypoints")
    r = evaluate_coco(GOOD, _case()[1], iou_type="keypoints", kpt_oks_sigmas=SIG)
    assert list(r)[:10] == NAMES and r["stats"].shape == (10,) and r["params"]["max_dets"] == [20]


# --------------------------------------------------------------------------------------------
# Results that also carry a box or a mask: pycocotools' loadRes takes their area from those
# --------------------------------------------------------------------------------------------


def _with_boxes(dets, rng):
    """The same results, each with a ``bbox`` whose area differs from the keypoints' extent."""
    out = []
    for d in dets:
        x, y = rng.uniform(0, 300, 2)
        out.append(
            {
                **d,
                "bbox": [
                    float(x),
                    float(y),
                    float(rng.uniform(1, 150)),
                    float(rng.uniform(1, 150)),
                ],
            }
        )
    return out


@settings(KPT_PROPERTY, max_examples=100)
@given(keypoint_sets(custom=True), st.integers(0, 2**32 - 1))
def test_keypoint_results_with_boxes_take_their_area_from_the_box(case, seed):
    """loadRes branches on the first result: with a 'bbox', every result's area is bbox[2] * bbox[3]
    (not the keypoints' extent), and the area ranges read it for unmatched detections."""
    CASES["detection: evaluate_coco keypoints with result boxes vs pycocotools"] += 1
    coco_gt, dets, sigmas = case
    assert_same(
        coco_gt, _with_boxes(dets, np.random.default_rng(seed)), "keypoints", NAMES, sigmas=sigmas
    )


def _medium_scene():
    """One medium person found, and a false positive whose keypoints span a medium area (40 x 40)
    but whose box and mask are large: APm counts it only when the keypoints decide its area."""
    gt = {
        "images": [{"id": 1, "height": 200, "width": 200}],
        "categories": [{"id": 1}],
        "annotations": [
            {
                "id": 1,
                "image_id": 1,
                "category_id": 1,
                "keypoints": [10, 10, 2, 50, 50, 2],
                "num_keypoints": 2,
                "area": 2000.0,
                "bbox": [10, 10, 40, 40],
                "iscrowd": 0,
            }
        ],
    }
    dets = [
        {"image_id": 1, "category_id": 1, "keypoints": [120, 120, 1, 160, 160, 1], "score": 0.9},
        {"image_id": 1, "category_id": 1, "keypoints": [10, 10, 1, 50, 50, 1], "score": 0.5},
    ]
    return gt, dets


def test_keypoint_result_box_and_mask_areas_change_the_size_ranges():
    import pycocotools.mask as coco_mask

    gt, dets = _medium_scene()
    extent = assert_same(gt, dets, "keypoints", NAMES, sigmas=SIG)
    boxed = assert_same(
        gt, [{**d, "bbox": [0, 0, 110.0, 110.0]} for d in dets], "keypoints", NAMES, sigmas=SIG
    )
    full = coco_mask.encode(np.asfortranarray(np.ones((200, 200, 1), np.uint8)))[0]
    rle = {"size": full["size"], "counts": full["counts"].decode()}
    masked = assert_same(
        gt, [{**d, "segmentation": dict(rle)} for d in dets], "keypoints", NAMES, sigmas=SIG
    )
    # polygons (pycocotools takes only RLEs here; the reference gets its own rasterisation of them)
    square = [[0.0, 0.0, 110.0, 0.0, 110.0, 110.0, 0.0, 110.0]]
    polygons = assert_same(
        gt, [{**d, "segmentation": square} for d in dets], "keypoints", NAMES, sigmas=SIG
    )
    assert polygons["APm"] == pytest.approx(1.0)
    # a box beats a mask, as in loadRes
    both = assert_same(
        gt,
        [{**d, "bbox": [0, 0, 40.0, 40.0], "segmentation": dict(rle)} for d in dets],
        "keypoints",
        NAMES,
        sigmas=SIG,
    )
    assert extent["APm"] < boxed["APm"] == masked["APm"] == pytest.approx(1.0)
    assert both["APm"] == pytest.approx(extent["APm"])


def test_keypoint_results_mixing_boxes_or_masks_are_refused():
    """pycocotools raises a KeyError when the first result has a box (or mask) and a later one not, and
    silently ignores later ones when the first has none: mixed results are refused, naming both."""
    gt, dets = _medium_scene()
    with pytest.raises(
        ValueError, match=r"detections\[1\] has no 'bbox' but detections\[0\] has one"
    ):
        evaluate_coco(
            gt,
            [{**dets[0], "bbox": [0, 0, 5, 5]}, dets[1]],
            iou_type="keypoints",
            kpt_oks_sigmas=SIG,
        )
    with pytest.raises(
        ValueError, match=r"detections\[0\] has no 'bbox' but detections\[1\] has one"
    ):
        evaluate_coco(
            gt,
            [dets[0], {**dets[1], "bbox": [0, 0, 5, 5]}],
            iou_type="keypoints",
            kpt_oks_sigmas=SIG,
        )
    seg = {"size": [200, 200], "counts": [0, 40000]}
    with pytest.raises(
        ValueError, match=r"detections\[1\] has no 'segmentation' but detections\[0\] has one"
    ):
        evaluate_coco(
            gt,
            [{**dets[0], "segmentation": seg}, dets[1]],
            iou_type="keypoints",
            kpt_oks_sigmas=SIG,
        )
    with pytest.raises(ValueError, match=r"detections\[0\]\['segmentation'\] has size \[10, 10\]"):
        evaluate_coco(
            gt,
            [{**d, "segmentation": {"size": [10, 10], "counts": [100]}} for d in dets],
            iou_type="keypoints",
            kpt_oks_sigmas=SIG,
        )


@pytest.mark.parametrize(
    "dt_kpts, match",
    [
        ([["10", 10, 1, 21, 20, 1]], r"dt_keypoints must hold lists .* of numbers"),
        ([[10, 10, None, 21, 20, 1]], r"dt_keypoints must hold lists .* of numbers"),
        ([[10, 10, 1, 21, 20]], r"dt_keypoints must hold 3 numbers .* 6 per object"),
    ],
)
def test_oks_refuses_strings_none_and_a_wrong_size(dt_kpts, match):
    """np.asarray(..., dtype=float) read "10" as 10.0 and None as NaN; a wrong size was numpy's
    unnamed reshape error."""
    with pytest.raises(ValueError, match=match):
        oks(dt_kpts, [[10, 10, 2, 20, 20, 2]], [100.0], sigmas=[0.1, 0.1])
