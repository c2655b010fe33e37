"""PASCAL VOC AP against a brute-force transcription of the devkit (no library implements it).

The reference below follows ``VOCevaldet.m`` line by line with plain Python loops: per class, sort
detections by confidence (stable), for each one scan the image's boxes of that class for the largest
overlap (first on ties), then difficult → ignored, first hit → TP, later hit → FP (duplicate), below
threshold → FP.  AP: VOC2007 takes ``max(prec[rec >= t])`` at t = 0, 0.1, ..., 1; VOC2010+ pads
recall with 0 and 1, precision with 0 and 0, makes precision monotone and sums the rectangles.
Boxes are continuous (no +1 pixel), the same convention as mltutor.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st

from mltutor.detection import evaluate_voc


def _overlap(a, b):
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return None
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def reference_voc(ground_truth, detections, iou_threshold=0.5, method="all-point"):
    """Plain-loop devkit: returns {label: AP or nan}."""
    labels = set()
    for g in ground_truth:
        labels.update(np.asarray(g["labels"]).tolist())
    for d in detections:
        labels.update(np.asarray(d["labels"]).tolist())
    out = {}
    for c in sorted(labels):
        gts = {}
        npos = 0
        for i, g in enumerate(ground_truth):
            diff = g.get("difficult", [False] * len(g["labels"]))
            boxes = [
                (list(map(float, b)), bool(f))
                for b, lab, f in zip(g["boxes"], g["labels"], diff)
                if lab == c
            ]
            gts[i] = {"boxes": boxes, "det": [False] * len(boxes)}
            npos += sum(1 for _, f in boxes if not f)
        dets = [
            (float(s), i, list(map(float, b)))
            for i, d in enumerate(detections)
            for b, s, lab in zip(d["boxes"], d["scores"], d["labels"])
            if lab == c
        ]
        order = sorted(range(len(dets)), key=lambda k: -dets[k][0])  # Python's sort is stable
        tp, fp = [], []
        for k in order:
            _, i, bb = dets[k]
            ovmax, jmax = -math.inf, -1
            for j, (g, _) in enumerate(gts[i]["boxes"]):
                ov = _overlap(bb, g)
                if ov is not None and ov > ovmax:
                    ovmax, jmax = ov, j
            if ovmax >= iou_threshold:
                if not gts[i]["boxes"][jmax][1]:
                    if not gts[i]["det"][jmax]:
                        tp.append(1)
                        fp.append(0)
                        gts[i]["det"][jmax] = True
                    else:
                        tp.append(0)
                        fp.append(1)
                else:
                    tp.append(0)
                    fp.append(0)  # difficult: ignored
            else:
                tp.append(0)
                fp.append(1)
        if npos == 0:
            out[c] = float("nan")
            continue
        rec, prec, ctp, cfp = [], [], 0, 0
        for a, b in zip(tp, fp):
            ctp += a
            cfp += b
            if ctp + cfp == 0:
                continue  # only ignored detections so far: no point (MATLAB's 0/0 is skipped by max)
            rec.append(ctp / npos)
            prec.append(ctp / (ctp + cfp))
        if method == "voc2007":
            ap = 0.0
            for t10 in range(11):
                t = t10 / 10
                ps = [p for r, p in zip(rec, prec) if r >= t]
                ap += (max(ps) if ps else 0.0) / 11
        else:
            mrec = [0.0] + rec + [1.0]
            mpre = [0.0] + prec + [0.0]
            for i in range(len(mpre) - 2, -1, -1):
                mpre[i] = max(mpre[i], mpre[i + 1])
            ap = sum(
                (mrec[i] - mrec[i - 1]) * mpre[i]
                for i in range(1, len(mrec))
                if mrec[i] != mrec[i - 1]
            )
        out[c] = ap
    return out


@st.composite
def voc_sets(draw):
    """A few images, 1-3 classes, boxes on a coarse grid (so IoU ties and exact 0.5 overlaps occur),
    noisy duplicates, difficult flags, tied scores, images without boxes or detections."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_img = draw(st.integers(1, 5))
    n_cls = draw(st.integers(1, 3))
    p_difficult = draw(st.sampled_from([0.0, 0.2, 0.5]))
    gt, dt = [], []
    for _ in range(n_img):
        n = int(rng.integers(0, 5))
        xy = rng.integers(0, 8, (n, 2)).astype(float) * 2
        wh = rng.integers(1, 6, (n, 2)).astype(float) * 2
        boxes = np.hstack([xy, xy + wh])
        labels = rng.integers(0, n_cls, n)
        gt.append({"boxes": boxes, "labels": labels, "difficult": rng.random(n) < p_difficult})
        # detections: jittered copies (some duplicated) plus random boxes
        src = rng.integers(0, max(n, 1), int(rng.integers(0, 3 * n + 1))) if n else np.zeros(0, int)
        jit = rng.integers(-2, 3, (src.shape[0], 4)).astype(float)
        d_boxes = boxes[src] + jit if n else np.zeros((0, 4))
        d_boxes[:, 2:] = np.maximum(d_boxes[:, 2:], d_boxes[:, :2])
        m = int(rng.integers(0, 4))
        rxy = rng.integers(0, 8, (m, 2)).astype(float) * 2
        r_boxes = np.hstack([rxy, rxy + rng.integers(1, 6, (m, 2)) * 2])
        d_labels = np.r_[labels[src] if n else np.zeros(0, int), rng.integers(0, n_cls, m)].astype(
            int
        )
        if draw(st.booleans()):
            d_labels = np.where(
                rng.random(d_labels.shape[0]) < 0.2,
                rng.integers(0, n_cls, d_labels.shape[0]),
                d_labels,
            )
        scores = np.round(rng.random(src.shape[0] + m), draw(st.sampled_from([1, 2, 6])))
        dt.append(
            {
                "boxes": np.vstack([d_boxes, r_boxes]) if src.shape[0] + m else np.zeros((0, 4)),
                "scores": scores,
                "labels": d_labels,
            }
        )
    return gt, dt


def _assert_same_ap(ours, ref):
    assert set(ours["AP"]) == set(ref)
    for c, ap in ref.items():
        if math.isnan(ap):
            assert math.isnan(ours["AP"][c]), c
        else:
            assert abs(ours["AP"][c] - ap) <= 1e-12, (c, ours["AP"][c], ap)
    finite = [v for v in ref.values() if not math.isnan(v)]
    expected = float(np.mean(finite)) if finite else float("nan")
    assert (math.isnan(expected) and math.isnan(ours["mAP"])) or abs(
        ours["mAP"] - expected
    ) <= 1e-12


@PROPERTY
@given(
    voc_sets(), st.sampled_from(["all-point", "voc2007"]), st.sampled_from([0.5, 0.5, 0.3, 0.75])
)
def test_voc_matches_devkit_reference(data, method, thr):
    CASES["detection: VOC AP vs devkit transcription"] += 1
    gt, dt = data
    ours = evaluate_voc(gt, dt, method=method, iou_threshold=thr)
    _assert_same_ap(ours, reference_voc(gt, dt, thr, method))


def test_duplicate_lowers_ap_no_nms_myth():
    """Two objects, each detected twice: without NMS the duplicates are false positives."""
    gt = [{"boxes": [[0, 0, 10, 10], [20, 20, 30, 30]], "labels": [0, 0]}]
    clean = [{"boxes": [[0, 0, 10, 10], [20, 20, 30, 30]], "scores": [0.9, 0.8], "labels": [0, 0]}]
    dup = [
        {
            "boxes": [[0, 0, 10, 10], [1, 0, 11, 10], [20, 20, 30, 30], [21, 20, 31, 30]],
            "scores": [0.9, 0.85, 0.8, 0.75],
            "labels": [0, 0, 0, 0],
        }
    ]
    assert evaluate_voc(gt, clean)["mAP"] == 1.0
    r = evaluate_voc(gt, dup)
    assert r["is_tp"][0].tolist() == [True, False, True, False]
    assert r["AP"][0] == pytest.approx(0.5 + 0.5 * 2 / 3)


def test_difficult_is_neither_reward_nor_penalty():
    gt = [
        {"boxes": [[0, 0, 10, 10], [20, 20, 30, 30]], "labels": [1, 1], "difficult": [False, True]}
    ]
    found = [{"boxes": [[0, 0, 10, 10], [20, 20, 30, 30]], "scores": [0.5, 0.9], "labels": [1, 1]}]
    missed = [{"boxes": [[0, 0, 10, 10]], "scores": [0.5], "labels": [1]}]
    a, b = evaluate_voc(gt, found), evaluate_voc(gt, missed)
    assert a["AP"][1] == b["AP"][1] == 1.0
    assert a["n_positives"][1] == 1 and a["scores"][1].tolist() == [
        0.5
    ]  # the ignored one is left out


def test_voc_rule_differs_from_coco_greedy():
    """VOC: the best-overlapping box is taken → FP, even if another box would qualify."""
    gt = [{"boxes": [[0, 0, 10, 10], [2, 0, 12, 10]], "labels": [0, 0]}]
    dt = [{"boxes": [[1, 0, 11, 10], [1, 0, 11, 10]], "scores": [0.9, 0.8], "labels": [0, 0]}]
    r = evaluate_voc(gt, dt)
    assert r["is_tp"][0].tolist() == [True, False]


def test_eleven_point_uses_exact_tenths():
    """A recall of exactly 0.3 must count for the 0.3 point (np.arange would give 0.30000000000000004)."""
    boxes = [[i * 20, 0, i * 20 + 10, 10] for i in range(10)]
    gt = [{"boxes": boxes, "labels": [0] * 10}]
    dt = [
        {
            "boxes": boxes[:3] + [[500, 500, 510, 510]],
            "scores": [0.9, 0.8, 0.7, 0.95],
            "labels": [0] * 4,
        }
    ]
    r = evaluate_voc(gt, dt, method="voc2007")
    assert r["recall"][0][-1] == 0.3
    assert r["AP"][0] == pytest.approx(4 * 0.75 / 11, abs=1e-15)


def test_class_without_ground_truth_is_nan_and_left_out_of_map():
    gt = [{"boxes": [[0, 0, 10, 10]], "labels": [0]}]
    dt = [{"boxes": [[0, 0, 10, 10], [0, 0, 5, 5]], "scores": [0.9, 0.8], "labels": [0, 7]}]
    r = evaluate_voc(gt, dt)
    assert r["AP"][0] == 1.0 and math.isnan(r["AP"][7]) and r["mAP"] == 1.0


def test_no_detections_gives_zero():
    gt = [{"boxes": [[0, 0, 10, 10]], "labels": [3]}]
    r = evaluate_voc(gt, [{"boxes": np.zeros((0, 4)), "scores": [], "labels": []}])
    assert r["AP"] == {3: 0.0} and r["mAP"] == 0.0


def test_xywh_equals_xyxy():
    gt = [{"boxes": [[0, 0, 10, 10], [5, 5, 20, 20]], "labels": [0, 1]}]
    dt = [{"boxes": [[1, 1, 10, 10], [5, 5, 18, 21]], "scores": [0.3, 0.4], "labels": [0, 1]}]
    to_wh = lambda recs, k: [
        {**r, "boxes": [[b[0], b[1], b[2] - b[0], b[3] - b[1]] for b in r["boxes"]]} for r in recs
    ]
    a = evaluate_voc(gt, dt)
    b = evaluate_voc(to_wh(gt, "boxes"), to_wh(dt, "boxes"), fmt="xywh")
    assert a["AP"] == b["AP"]


@pytest.mark.parametrize(
    "gt, dt, message",
    [
        ([{"boxes": [[0, 0, 1, 1]], "labels": [0]}], [], "same images"),
        (
            [{"boxes": [[0, 0, 1, 1]], "label": [0]}],
            [{"boxes": [], "scores": [], "labels": []}],
            "'label' should be 'labels'",
        ),
        (
            [{"boxes": [[0, 0, 1, 1]], "labels": [0]}],
            [{"boxes": [[0, 0, 1, 1]], "score": [1], "labels": [0]}],
            "'score' should be 'scores'",
        ),
        (
            [{"boxes": [[5, 0, 1, 1]], "labels": [0]}],
            [{"boxes": [], "scores": [], "labels": []}],
            r"ground_truth\[0\]\['boxes'\] row 0",
        ),
        (
            [{"boxes": [[0, 0, 1, 1]], "labels": [0]}],
            [{"boxes": [[0, 0, np.nan, 1]], "scores": [1], "labels": [0]}],
            "NaN",
        ),
        (
            [{"boxes": [[0, 0, 1, 1]], "labels": [0, 1]}],
            [{"boxes": [], "scores": [], "labels": []}],
            "1 boxes but 2 labels",
        ),
        (
            [{"boxes": [[0, 0, 1, 1]], "labels": [0]}],
            [{"boxes": [[0, 0, 1, 1]], "scores": [np.nan], "labels": [0]}],
            "NaN",
        ),
    ],
)
def test_voc_bad_input(gt, dt, message):
    with pytest.raises(ValueError, match=message):
        evaluate_voc(gt, dt)


def test_voc_bad_method():
    with pytest.raises(ValueError, match="method"):
        evaluate_voc([], [], method="11pt")
