"""box_iou against pycocotools' C implementation (bit for bit) and a plain-loop reference;
match_detections against a line-by-line transcription of pycocotools' ``evaluateImg`` loop."""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from pycocotools import mask as mask_utils

from mltutor.detection import box_area, box_iou, match_detections


@st.composite
def xywh_boxes(draw, max_n=8):
    """Boxes on a coarse grid (exact ties, touching edges, nesting) or continuous; some of zero area."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(0, max_n))
    if draw(st.booleans()):
        xy = rng.integers(0, 6, (n, 2)).astype(float)
        wh = rng.integers(0, 5, (n, 2)).astype(float)
    else:
        xy = rng.uniform(0, 50, (n, 2))
        wh = rng.uniform(0, 40, (n, 2)) * (rng.random((n, 2)) > 0.05)
    return np.hstack([xy, wh])


def loop_iou(a, b, crowd):
    out = np.zeros((len(a), len(b)))
    for i, (ax, ay, aw, ah) in enumerate(a):
        for j, (bx, by, bw, bh) in enumerate(b):
            iw = min(ax + aw, bx + bw) - max(ax, bx)
            ih = min(ay + ah, by + bh) - max(ay, by)
            if iw > 0 and ih > 0:
                union = aw * ah if crowd[j] else aw * ah + bw * bh - iw * ih
                out[i, j] = iw * ih / union
    return out


@PROPERTY
@given(xywh_boxes(), xywh_boxes(), st.integers(0, 2**32 - 1))
def test_box_iou_equals_pycocotools_bit_for_bit(d, g, seed):
    CASES["detection: box_iou vs pycocotools.mask.iou"] += 1
    crowd = np.random.default_rng(seed).random(g.shape[0]) < 0.3
    ours = box_iou(d, g, fmt="xywh", iscrowd=crowd)
    assert ours.shape == (d.shape[0], g.shape[0])
    if d.shape[0] and g.shape[0]:
        ref = np.asarray(mask_utils.iou(d.tolist(), g.tolist(), crowd.astype(np.uint8).tolist()))
        assert np.array_equal(ours, ref)
    np.testing.assert_allclose(ours, loop_iou(d, g, crowd), rtol=0, atol=1e-15)
    xyxy = lambda b: np.hstack([b[:, :2], b[:, :2] + b[:, 2:]])
    np.testing.assert_allclose(box_iou(xyxy(d), xyxy(g), iscrowd=crowd), ours, rtol=0, atol=1e-12)
    plain = box_iou(d, g, fmt="xywh")
    np.testing.assert_allclose(plain, box_iou(g, d, fmt="xywh").T, rtol=0, atol=1e-15)  # symmetric
    assert ((plain >= 0) & (plain <= 1 + 1e-12)).all()  # (x + w) - x can round a hair above w


def test_box_iou_small_cases():
    a = [[0, 0, 10, 10]]
    assert box_iou(a, a).tolist() == [[1.0]]
    assert box_iou(a, [[10, 0, 20, 10]]).tolist() == [[0.0]]  # touching edges
    assert box_iou(a, [[5, 0, 15, 10]])[0, 0] == pytest.approx(1 / 3)
    assert box_iou(a, [[0, 0, 5, 5]])[0, 0] == 0.25
    assert box_iou([[0, 0, 0, 10]], [[0, 0, 0, 10]]).tolist() == [[0.0]]  # zero area
    assert box_iou(np.zeros((0, 4)), a).shape == (0, 1)
    assert box_iou(a, []).shape == (1, 0)
    assert box_area([[0, 0, 2, 3], [1, 1, 1, 1]]).tolist() == [6.0, 0.0]
    assert box_area([[0, 0, 2, 3]], fmt="xywh").tolist() == [6.0]


@pytest.mark.parametrize(
    "b1, b2, kwargs, message",
    [
        ([[0, 0, 1]], [[0, 0, 1, 1]], {}, r"boxes1 must have shape \(n, 4\)"),
        ([[0, 0, 1, 1]], [[5, 0, 1, 1]], {}, r"boxes2 row 0 .* x2 < x1"),
        (
            [[0, 0, 1, 1], [0, 0, 1, -1]],
            [[0, 0, 1, 1]],
            {"fmt": "xywh"},
            r"boxes1 row 1 .* negative height",
        ),
        ([[0, 0, np.nan, 1]], [[0, 0, 1, 1]], {}, "NaN or inf"),
        ([[0, 0, 1, 1]], [[0, 0, 1, 1]], {"fmt": "cxcywh"}, "fmt must be"),
        ([[0, 0, 1, 1]], [[0, 0, 1, 1]], {"iscrowd": [1, 0]}, "iscrowd must hold one flag"),
        ([["a", 0, 1, 1]], [[0, 0, 1, 1]], {}, "could not read"),
    ],
)
def test_box_iou_errors(b1, b2, kwargs, message):
    with pytest.raises(ValueError, match=message):
        box_iou(b1, b2, **kwargs)


# --------------------------------------------------------------------------------------------
# Matching
# --------------------------------------------------------------------------------------------


def cocoeval_loop(ious, thresholds, gt_ignore, crowd):
    """pycocotools' evaluateImg inner loop, transcribed (ground truth already sorted ignore-last)."""
    T, (D, G) = len(thresholds), ious.shape
    gtm = np.zeros((T, G))
    out = np.full((T, D), -1)
    for tind, t in enumerate(thresholds):
        for dind in range(D):
            iou = min([t, 1 - 1e-10])
            m = -1
            for gind in range(G):
                if gtm[tind, gind] > 0 and not crowd[gind]:
                    continue
                if m > -1 and gt_ignore[m] == 0 and gt_ignore[gind] == 1:
                    break
                if ious[dind, gind] < iou:
                    continue
                iou = ious[dind, gind]
                m = gind
            if m == -1:
                continue
            out[tind, dind] = m
            gtm[tind, m] = dind + 1
    return out


@st.composite
def match_problems(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    d, g = draw(st.integers(0, 12)), draw(st.integers(0, 8))
    levels = draw(st.sampled_from([[0.0, 0.5, 0.75, 0.9, 1.0], [0.3, 0.5, 0.55, 0.6], None]))
    ious = rng.choice(levels, (d, g)) if levels else rng.random((d, g))
    ignore = np.sort(
        rng.random(g) < draw(st.sampled_from([0.0, 0.3, 0.7]))
    )  # ignored last, as COCO sorts
    crowd = ignore & (rng.random(g) < 0.5)
    return ious, ignore, crowd


@PROPERTY
@given(match_problems())
def test_match_detections_equals_cocoeval_loop(problem):
    CASES["detection: match_detections vs COCOeval loop"] += 1
    ious, ignore, crowd = problem
    thresholds = np.linspace(0.5, 0.95, 10)
    ours = match_detections(ious, thresholds, gt_ignore=ignore, gt_crowd=crowd)
    assert ours.shape == (10, ious.shape[0])
    assert np.array_equal(ours, cocoeval_loop(ious, thresholds, ignore, crowd))


def test_match_detections_rules():
    # The duplicate finds its object taken.
    assert match_detections([[0.9, 0.0], [0.8, 0.1]]).tolist() == [0, -1]
    # Greedy, not optimal: the first detection takes the box the second needed.
    assert match_detections([[0.7, 0.6], [0.9, 0.0]]).tolist() == [0, -1]
    # Best IoU among the free boxes; a tie goes to the later box (pycocotools' loop).
    assert match_detections([[0.6, 0.8, 0.8]]).tolist() == [2]
    # An ignored box is used only when no regular box qualifies, even with a larger IoU.
    assert match_detections([[0.55, 0.95]], gt_ignore=[False, True]).tolist() == [0]
    assert match_detections([[0.3, 0.95]], gt_ignore=[False, True]).tolist() == [1]
    # A crowd box absorbs every detection.
    assert match_detections([[0.6], [0.7], [0.9]], gt_ignore=[True], gt_crowd=[True]).tolist() == [
        0,
        0,
        0,
    ]
    # IoU exactly at the threshold counts; the threshold 1.0 is capped at 1 - 1e-10.
    assert match_detections([[0.5]], 0.5).tolist() == [0]
    assert match_detections([[1.0]], 1.0).tolist() == [0]
    assert match_detections(np.zeros((0, 3))).shape == (0,)
    assert match_detections(np.zeros((2, 0))).tolist() == [-1, -1]


def test_match_detections_errors():
    with pytest.raises(ValueError, match="2-D"):
        match_detections([0.5, 0.6])
    with pytest.raises(ValueError, match="one flag per ground-truth box"):
        match_detections([[0.5, 0.6]], gt_ignore=[True])
