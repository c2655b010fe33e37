"""Interpolated AP (VOC 2007 11-point, VOC 2010+ all-point, COCO 101-point) against references
written here: brute-force loops over the recall points, the VOC development kit's envelope loop, and
the per-class part of pycocotools' ``COCOeval.accumulate`` (no reference library implements VOC AP;
pycocotools is not a dependency).
"""

from __future__ import annotations

import doctest
from typing import Any

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st

import mltutor.detection
from mltutor.detection import (
    detection_average_precision,
    detection_pr_curve,
    interpolated_average_precision,
    precision_envelope,
)
from mltutor.detection._ap import AP_METHODS
from mltutor.metrics import interpolated_average_precision as reexported

# --------------------------------------------------------------------------------------------
# References, written as loops on purpose
# --------------------------------------------------------------------------------------------


def voc2007_reference(rec: np.ndarray, prec: np.ndarray) -> float:
    """11-point AP: for each t in 0, 0.1, ..., 1 the best precision at recall >= t (exact k/10)."""
    ap = 0.0
    for k in range(11):
        t = k / 10
        p = max((prec[i] for i in range(len(rec)) if rec[i] >= t), default=0.0)
        ap += p / 11
    return ap


def all_point_reference(rec: np.ndarray, prec: np.ndarray) -> float:
    """VOC 2010+ AP as the development kit computes it (sentinels, backward max, recall steps)."""
    mrec = [0.0] + list(rec) + [1.0]
    mpre = [0.0] + list(prec) + [0.0]
    for i in range(len(mpre) - 2, -1, -1):
        mpre[i] = max(mpre[i], mpre[i + 1])
    return sum(
        (mrec[i + 1] - mrec[i]) * mpre[i + 1]
        for i in range(len(mrec) - 1)
        if mrec[i + 1] != mrec[i]
    )


def coco_reference(scores: np.ndarray, is_tp: np.ndarray, npig: int) -> float:
    """One class, one IoU threshold, one area range: pycocotools' accumulate, then the mean that
    summarize takes over the 101 recall thresholds."""
    rec_thrs = np.linspace(0.0, 1.0, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
    inds = np.argsort(-scores, kind="mergesort")
    tps = is_tp[inds]
    fps = np.logical_not(is_tp[inds])
    tp = np.cumsum(tps).astype(dtype=float)
    fp = np.cumsum(fps).astype(dtype=float)
    nd = len(tp)
    rc = tp / npig
    pr = tp / (fp + tp + np.spacing(1))
    q = np.zeros((len(rec_thrs),))
    pr = pr.tolist()
    q = q.tolist()
    for i in range(nd - 1, 0, -1):
        if pr[i] > pr[i - 1]:
            pr[i - 1] = pr[i]
    idx = np.searchsorted(rc, rec_thrs, side="left")
    try:
        for ri, pi in enumerate(idx):
            q[ri] = pr[pi]
    except IndexError:
        pass
    return float(np.mean(np.array(q)))


# --------------------------------------------------------------------------------------------
# Random detections
# --------------------------------------------------------------------------------------------


@st.composite
def detections(draw: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """0-25 detections, 1-12 objects; scores with many ties, distinct or constant; hit rates from
    0 to 1; never more hits than objects."""
    n_gt = draw(st.integers(1, 12))
    n = draw(st.integers(0, 25))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["ties", "distinct", "constant", "int"]))
    scores = {
        "ties": rng.integers(0, 4, n) / 4,
        "distinct": rng.random(n),
        "constant": np.full(n, 0.5),
        "int": rng.integers(0, 100, n),
    }[kind]
    hit = rng.random(n) < draw(st.sampled_from([0.0, 0.3, 0.6, 1.0]))
    hit &= np.cumsum(hit) <= n_gt  # each object matched at most once
    return scores, hit, n_gt


def _curve(scores: np.ndarray, is_tp: np.ndarray, n_gt: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-scores, kind="mergesort")
    tp = np.cumsum(is_tp[order])
    fp = np.cumsum(~is_tp[order])
    return tp / n_gt, tp / np.maximum(tp + fp, 1)


@PROPERTY
@given(detections())
def test_interpolated_ap_matches_brute_force(problem):
    CASES["interpolated_average_precision"] += 1
    rec, prec = _curve(*problem)
    assert interpolated_average_precision(rec, prec, method="voc2007") == pytest.approx(
        voc2007_reference(rec, prec), abs=1e-12
    )
    assert interpolated_average_precision(rec, prec, method="all-point") == pytest.approx(
        all_point_reference(rec, prec), abs=1e-12
    )
    assert interpolated_average_precision(rec, prec) == reexported(rec, prec)
    coco = interpolated_average_precision(rec, prec, method="coco")
    assert coco == pytest.approx(coco_reference(*problem), abs=1e-12)
    for method in AP_METHODS:
        assert 0.0 <= interpolated_average_precision(rec, prec, method=method) <= 1.0


@PROPERTY
@given(detections())
def test_detection_average_precision_matches_references(problem):
    CASES["detection_average_precision"] += 1
    scores, hit, n_gt = problem
    rec, prec = _curve(*problem)
    # COCO: bit for bit what pycocotools computes (same sort, same + np.spacing(1), same mean)
    assert detection_average_precision(scores, hit, n_gt, method="coco") == coco_reference(*problem)
    assert detection_average_precision(scores, hit, n_gt, method="voc2007") == pytest.approx(
        voc2007_reference(rec, prec), abs=1e-12
    )
    assert detection_average_precision(scores, hit, n_gt) == pytest.approx(
        all_point_reference(rec, prec), abs=1e-12
    )


@PROPERTY
@given(detections())
def test_detection_pr_curve_and_envelope(problem):
    CASES["detection_pr_curve + precision_envelope"] += 1
    scores, hit, n_gt = problem
    rec, prec, sorted_scores = detection_pr_curve(scores, hit, n_gt)
    ref_rec, ref_prec = _curve(*problem)
    np.testing.assert_allclose(rec, ref_rec, rtol=0, atol=1e-15)
    np.testing.assert_allclose(prec, ref_prec, rtol=0, atol=1e-15)
    assert np.all(np.diff(sorted_scores) <= 0)
    env = precision_envelope(prec)
    expected = [max(prec[i:]) for i in range(len(prec))]  # max over r' >= r, by definition
    np.testing.assert_array_equal(env, expected)
    assert np.all(np.diff(env) <= 0) and np.all(env >= prec)


# --------------------------------------------------------------------------------------------
# Hand-picked cases
# --------------------------------------------------------------------------------------------


def test_recall_point_0_3_is_exact():
    """Three hits out of ten objects give recall exactly 3/10.  With 11 points generated by
    np.arange(0, 1.1, 0.1), t = 0.30000000000000004 > 0.3 and the point would be lost."""
    rec = np.array([0.1, 0.2, 0.3])
    prec = np.array([1.0, 1.0, 1.0])
    assert np.arange(0, 1.1, 0.1)[3] > 0.3  # the pitfall
    assert interpolated_average_precision(rec, prec, method="voc2007") == pytest.approx(
        4 / 11, abs=1e-15
    )
    wrong = sum(max(prec[rec >= t], default=0.0) for t in np.arange(0, 1.1, 0.1)) / 11
    assert wrong == pytest.approx(3 / 11)


def test_methods_differ_on_a_small_example():
    rec, prec = [0.5, 0.5, 1.0], [1.0, 0.5, 2 / 3]
    assert interpolated_average_precision(rec, prec) == pytest.approx(0.5 + 0.5 * 2 / 3)
    assert interpolated_average_precision(rec, prec, method="voc2007") == pytest.approx(
        (6 + 5 * 2 / 3) / 11
    )
    assert interpolated_average_precision(rec, prec, method="coco") == pytest.approx(
        (51 + 50 * 2 / 3) / 101
    )


def test_no_detections_and_no_objects():
    assert interpolated_average_precision([], []) == 0.0
    assert interpolated_average_precision([], [], method="coco") == 0.0
    assert detection_average_precision([], [], 3, method="voc2007") == 0.0
    with pytest.warns(UserWarning, match="No ground-truth"):
        assert np.isnan(detection_average_precision([0.5], [False], 0))


@pytest.mark.parametrize(
    "args, kwargs, error",
    [
        (([0.5, 0.4], [1.0, 1.0]), {}, ValueError),  # recall decreasing (sklearn's order)
        (([0.5], [1.0, 1.0]), {}, ValueError),
        (([0.5], [1.5]), {}, ValueError),
        (([np.nan], [1.0]), {}, ValueError),
        (([0.5], [1.0]), {"method": "11-point"}, ValueError),
    ],
)
def test_interpolated_ap_refuses_bad_curves(args, kwargs, error):
    with pytest.raises(error):
        interpolated_average_precision(*args, **kwargs)


@pytest.mark.parametrize(
    "args, error",
    [
        (([0.9, 0.8], [True, True], 1), ValueError),  # more hits than objects
        (([0.9, 0.8], [True], 2), ValueError),
        (([0.9], [2], 2), ValueError),
        (([0.9], [True], 1.5), TypeError),
        (([0.9], [True], -1), ValueError),
        (([np.inf], [True], 1), ValueError),
    ],
)
def test_detection_inputs_are_checked(args, error):
    with pytest.raises(error):
        detection_average_precision(*args)


def test_doctests():
    assert doctest.testmod(mltutor.detection).failed == 0
