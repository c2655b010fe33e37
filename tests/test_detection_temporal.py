"""Temporal action detection (``mltutor.detection.temporal``) against the official scorers.

The references are line-by-line ports of ActivityNet's ``eval_detection.py`` and of THUMOS'14's
MATLAB kit (``tests/_temporal_references.py``, sources and commits in its docstring).  The
generated cases put segments on a grid of whole and half seconds, so that tIoU values such as
1/2 or 3/5 land exactly on the thresholds, and draw scores from a few values so that ties are
common; they include videos without ground truth, classes without predictions or without ground
truth, empty predictions, ambiguous segments (THUMOS) and subsets.
"""

from __future__ import annotations

import warnings

import _temporal_references as ref
import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given, settings
from hypothesis import strategies as st

from mltutor.detection import interpolated_average_precision
from mltutor.detection.temporal import (
    ACTIVITYNET_TIOU_THRESHOLDS,
    THUMOS14_TIOU_THRESHOLDS,
    TemporalDetectionResult,
    evaluate_activitynet,
    evaluate_thumos14,
    temporal_iou,
)

# The ActivityNet port walks pandas rows (a few milliseconds per case): 600 cases each.
TEMPORAL_PROPERTY = settings(PROPERTY, max_examples=600)


# --------------------------------------------------------------------------------------------
# Generated problems
# --------------------------------------------------------------------------------------------


def _segment(rng, grid):
    start = rng.integers(0, 40) / grid
    return [float(start), float(start + rng.integers(1, 16) / grid)]


@st.composite
def temporal_problems(draw, ambiguous: bool = False):
    """(ground_truth, predictions, thresholds, subset) in ActivityNet's layout."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_videos = draw(st.integers(1, 6))
    n_classes = draw(st.integers(1, 4))
    # Whole and half seconds put tIoU values exactly on thresholds; tenths of a second make
    # THUMOS's intersection / hull and ActivityNet's intersection / union differ in the last bit.
    grid = draw(st.sampled_from([1, 2, 10]))
    names = [f"c{k}" for k in range(n_classes)]
    gt_per_video = draw(st.integers(1, 5)) if draw(st.integers(0, 19)) else 0
    many = draw(st.integers(0, 4)) == 0
    if many:  # one class with 10 or 20 segments: recall exactly 0.3 is reachable
        n_videos, n_classes, names = draw(st.integers(1, 2)), 1, ["c0"]
        gt_per_video = 20 // n_videos * draw(st.integers(1, 2)) // 2
    duplicates = draw(st.sampled_from([0.0, 0.3]))
    pr_per_video = draw(st.integers(0, 12))
    score_mode = draw(st.sampled_from(["ties", "ties", "continuous", "constant"]))
    near_gt = draw(st.sampled_from([0.0, 0.5, 0.9]))
    use_subset = draw(st.booleans())
    database, results = {}, {}
    for v in range(n_videos):
        anns = []
        n_gt = int(rng.integers(0, gt_per_video + 1))
        if many:
            n_gt = gt_per_video  # exactly 10 or 20 over the videos
        for _ in range(max(n_gt, 1) if v == 0 and gt_per_video else n_gt):
            label = names[rng.integers(n_classes)]
            if ambiguous and not many and rng.random() < 0.25:
                label = "Ambiguous"
            if anns and rng.random() < duplicates:  # the same segment twice: equal tIoU
                anns.append({"segment": list(anns[-1]["segment"]), "label": label})
            else:
                anns.append({"segment": _segment(rng, grid), "label": label})
        info = {"annotations": anns}
        if use_subset:
            info["subset"] = "validation" if v == 0 or rng.random() < 0.75 else "training"
        database[f"video_{v}"] = info
        preds = []
        for _ in range(int(rng.integers(0, pr_per_video + 1))):
            if anns and rng.random() < near_gt:  # near a ground-truth segment: true positives
                a = anns[rng.integers(len(anns))]
                shift = rng.integers(-3, 4, 2) / grid
                s, e = a["segment"][0] + shift[0], a["segment"][1] + shift[1]
                seg = [float(s), float(e)] if e > s else a["segment"]
                label = a["label"] if rng.random() < 0.8 else names[rng.integers(n_classes)]
            else:
                seg, label = _segment(rng, grid), names[rng.integers(n_classes)]
            if label == "Ambiguous":
                label = names[0]
            if preds and rng.random() < duplicates:  # a duplicate with another score
                seg, label = list(preds[-1]["segment"]), preds[-1]["label"]
            if score_mode == "ties":
                score = float(rng.integers(0, 4)) / 4
            elif score_mode == "constant":
                score = 0.5
            else:
                score = float(rng.random())
            preds.append({"segment": seg, "label": label, "score": score})
        # Some predictions are for a video without any ground truth.
        key = f"video_{v}" if rng.random() < 0.85 else f"extra_{v}"
        results.setdefault(key, []).extend(preds)
    if draw(st.integers(0, 9)) == 0:
        results = {}
    thresholds = draw(st.sampled_from(["default", "grid", "drawn"]))
    subset = "validation" if use_subset and draw(st.booleans()) else None
    return {"database": database}, {"results": results}, thresholds, subset


def _gt_labels(ground_truth, subset, drop=()):
    return {
        a["label"]
        for info in ground_truth["database"].values()
        if subset is None or info["subset"] == subset
        for a in info["annotations"]
    } - set(drop)


def _only_labels(predictions, labels):
    return {
        "results": {
            v: [p for p in ps if p["label"] in labels] for v, ps in predictions["results"].items()
        }
    }


def _thresholds(kind, default, data):
    if kind == "default":
        return np.asarray(default, dtype=np.float64)
    if kind == "grid":  # exact fractions that tIoU values on the grid reach
        return np.array([0.0, 0.2, 0.25, 1 / 3, 0.4, 0.5, 0.6, 2 / 3, 0.75, 0.8])
    return np.array(data.draw(st.lists(st.floats(0.0, 0.99), min_size=1, max_size=5)))


# --------------------------------------------------------------------------------------------
# Parity (property tests)
# --------------------------------------------------------------------------------------------


@TEMPORAL_PROPERTY
@given(problem=temporal_problems(), data=st.data())
def test_activitynet_equals_the_official_port(problem, data):
    ground_truth, predictions, kind, subset = problem
    labels = _gt_labels(ground_truth, subset)
    if not labels:
        with pytest.raises(ValueError, match="no segment to detect"):
            evaluate_activitynet(ground_truth, predictions, subset=subset)
        return
    predictions = _only_labels(predictions, labels)  # the official code fails on other labels
    thresholds = _thresholds(kind, ACTIVITYNET_TIOU_THRESHOLDS, data)
    CASES["temporal: evaluate_activitynet vs ActivityNet eval_detection.py"] += 1
    expected = ref.anet_detection(ground_truth, predictions, thresholds, subset=subset)
    got = evaluate_activitynet(ground_truth, predictions, thresholds, subset=subset)
    assert sorted(expected.activity_index) == got.labels
    for label, column in expected.activity_index.items():
        np.testing.assert_allclose(
            got.ap[got.labels.index(label)],
            expected.ap[:, column],
            rtol=0,
            atol=1e-12,
            err_msg=str(label),
        )
    np.testing.assert_allclose(got.map_per_threshold, expected.mAP, rtol=0, atol=1e-12)
    assert abs(got.map - expected.average_mAP) <= 1e-12


@TEMPORAL_PROPERTY
@given(problem=temporal_problems(ambiguous=True), data=st.data())
def test_thumos14_equals_the_official_kit(problem, data):
    ground_truth, predictions, kind, subset = problem
    labels = _gt_labels(ground_truth, subset, drop=("Ambiguous",))
    if not labels:
        with pytest.raises(ValueError, match="no segment to detect"):
            evaluate_thumos14(ground_truth, predictions, subset=subset)
        return
    thresholds = _thresholds(kind, THUMOS14_TIOU_THRESHOLDS, data)
    CASES["temporal: evaluate_thumos14 vs THUMOS'14 TH14evalkit"] += 1
    expected = ref.th14_evaldet(ground_truth, predictions, thresholds, subset=subset)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        got = evaluate_thumos14(ground_truth, predictions, thresholds, subset=subset)
    unknown = any(p["label"] not in labels for ps in predictions["results"].values() for p in ps)
    assert bool(record) == unknown  # skipped detections are announced, as the kit prints them
    assert got.labels == expected.classnames
    np.testing.assert_allclose(got.ap, expected.ap_all, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.map_per_threshold, expected.map, rtol=0, atol=1e-12)


@settings(PROPERTY, max_examples=300)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 8),
    m=st.integers(0, 8),
    grid=st.sampled_from([1, 4, 1000]),
)
def test_temporal_iou_equals_segment_iou(seed, n, m, grid):
    CASES["temporal: temporal_iou vs ActivityNet segment_iou"] += 1
    rng = np.random.default_rng(seed)
    a = np.sort(rng.integers(0, 50, (n, 2)), axis=1) / grid
    b = np.sort(rng.integers(0, 50, (m, 2)), axis=1) / grid
    a[:, 1] += 1 / grid  # end > start
    b[:, 1] += 1 / grid
    got = temporal_iou(a, b)
    assert got.shape == (n, m)
    for i in range(n):
        if m:
            # bit for bit: the matching compares these values with the thresholds
            assert np.array_equal(got[i], ref.segment_iou(a[i], b))
    assert np.array_equal(got, temporal_iou(b, a).T)


# --------------------------------------------------------------------------------------------
# Hand cases: the rules, one at a time
# --------------------------------------------------------------------------------------------


def _gt(*videos):
    return {
        "database": {
            f"v{i}": {"annotations": [{"segment": list(s), "label": lab} for s, lab in anns]}
            for i, anns in enumerate(videos)
        }
    }


def _pred(*videos):
    return {
        "results": {
            f"v{i}": [{"segment": list(s), "label": lab, "score": sc} for s, lab, sc in dets]
            for i, dets in enumerate(videos)
        }
    }


def test_result_type_and_fields():
    r = evaluate_activitynet(_gt([((0, 10), "a"), ((0, 5), "b")]), _pred([((0, 10), "a", 0.9)]))
    assert isinstance(r, TemporalDetectionResult)
    assert r.labels == ["a", "b"] and r.protocol == "activitynet"
    assert r.ap.shape == (2, 10) and r.map_per_threshold.shape == (10,)
    assert r.ap[0].tolist() == [1.0] * 10 and r.ap[1].tolist() == [0.0] * 10  # b: no prediction
    assert r.map == 0.5 and r.n_positives.tolist() == [1, 1]
    np.testing.assert_array_equal(r.tiou_thresholds, np.linspace(0.5, 0.95, 10))


def test_tiou_exactly_at_the_threshold():
    # tIoU([0, 10], [0, 5]) = 0.5 exactly: ActivityNet matches at t = 0.5 (>=), THUMOS not (>).
    gt, pred = _gt([((0, 10), "a")]), _pred([((0, 5), "a", 0.9)])
    assert temporal_iou([0, 10], [0, 5])[0, 0] == 0.5
    assert evaluate_activitynet(gt, pred, [0.5]).map == 1.0
    assert evaluate_thumos14(gt, pred, [0.5]).map == 0.0
    assert evaluate_thumos14(gt, pred, [0.4999]).map == 1.0


def test_ground_truth_major_vs_prediction_major():
    # The higher-scored detection overlaps less: THUMOS's segment takes the better overlap.
    gt = _gt([((0, 10), "a")])
    pred = _pred([((0, 6), "a", 0.9), ((0, 9), "a", 0.8)])
    assert evaluate_activitynet(gt, pred, [0.5]).map == 1.0  # FP ranked after the TP
    assert evaluate_thumos14(gt, pred, [0.5]).map == 0.5  # the FP is ranked first


def test_duplicates_are_false_positives_in_both():
    gt = _gt([((0, 10), "a")])
    pred = _pred([((0, 10), "a", 0.9), ((0, 10), "a", 0.8), ((1, 10), "a", 0.7)])
    for evaluate in (evaluate_activitynet, evaluate_thumos14):
        r = evaluate(gt, pred, [0.5])
        assert r.map == 1.0  # the duplicates come after the hit: precision falls after recall 1


def test_ambiguous_segments_thumos():
    gt = _gt([((0, 10), "a"), ((20, 30), "Ambiguous")])
    # FP near the ambiguous segment (any overlap) is left out; the true positive stays.
    pred = _pred([((21, 22), "a", 0.9), ((0, 10), "a", 0.8)])
    assert evaluate_thumos14(gt, pred, [0.5]).map == 1.0
    # Touching only (no positive overlap): an ordinary false positive.
    pred = _pred([((30, 31), "a", 0.9), ((0, 10), "a", 0.8)])
    assert evaluate_thumos14(gt, pred, [0.5]).map == 0.5
    # A true positive that also overlaps the ambiguous segment stays a true positive.
    gt2 = _gt([((0, 10), "a"), ((5, 15), "Ambiguous")])
    r = evaluate_thumos14(gt2, _pred([((0, 10), "a", 0.9)]), [0.5])
    assert r.map == 1.0 and r.labels == ["a"]
    # For ActivityNet "Ambiguous" is a class like any other.
    r = evaluate_activitynet(gt, _pred([((0, 10), "a", 0.9)]), [0.5])
    assert r.labels == ["Ambiguous", "a"] and r.ap[:, 0].tolist() == [0.0, 1.0]


def test_ties_thumos_counts_true_positives_first():
    gt = _gt([((0, 10), "a")], [((0, 10), "a")])
    pred = _pred([((50, 60), "a", 0.5)], [((0, 10), "a", 0.5)])  # FP (v0) and TP (v1) tied
    r = evaluate_thumos14(gt, pred, [0.5])
    # TP then FP: recall 0.5 at precision 1, then precision 1/2: 11-point (6 + 0) / 11.
    assert r.map == pytest.approx(6 / 11, abs=1e-15)
    expected = ref.th14_evaldet(gt, pred, [0.5])
    np.testing.assert_allclose(r.ap, expected.ap_all, rtol=0, atol=1e-15)


def test_ties_activitynet_later_prediction_first():
    gt = _gt([((0, 10), "a")])
    tp, fp = ((0, 10), "a", 0.5), ((50, 60), "a", 0.5)
    # Equal scores: the later prediction in the input comes first.
    assert evaluate_activitynet(gt, _pred([tp, fp]), [0.5]).map == 0.5  # FP, then TP
    assert evaluate_activitynet(gt, _pred([fp, tp]), [0.5]).map == 1.0  # TP, then FP
    # Across videos: the order of predictions["results"], reversed among the ties.
    gt2 = _gt([((0, 10), "a")], [((0, 10), "a")])
    pred = {
        "results": {
            "v1": [{"segment": [0, 10], "label": "a", "score": 0.5}],
            "v0": [{"segment": [50, 60], "label": "a", "score": 0.5}],
        }
    }
    assert evaluate_activitynet(gt2, pred, [0.5]).map == 0.25  # v0's FP first, then v1's TP
    assert ref.anet_detection(gt2, pred, [0.5]).average_mAP == 0.25


def test_ties_activitynet_ground_truth_at_equal_tiou():
    # Two ground-truth segments at the same tIoU from the first prediction: it takes the later
    # one, so the second prediction (which overlaps only the earlier one) is a true positive.
    gt = _gt([((0, 10), "a"), ((10, 20), "a")])
    pred = _pred([((5, 15), "a", 0.9), ((0, 8), "a", 0.8)])
    t = [1 / 3]
    assert temporal_iou([5, 15], [[0, 10], [10, 20]]).tolist() == [[1 / 3, 1 / 3]]
    assert evaluate_activitynet(gt, pred, t).map == 1.0
    assert ref.anet_detection(gt, pred, t).average_mAP == 1.0


def test_matlab_recall_levels_thumos():
    # 10 segments, 3 found first (precision 1), then only misses: recall is exactly 0.3, which
    # does not reach MATLAB's fourth level 0.30000000000000004.
    gt = _gt([((10 * k, 10 * k + 5), "a") for k in range(10)])
    pred = _pred([((10 * k, 10 * k + 5), "a", 1.0 - k / 10) for k in range(3)])
    r = evaluate_thumos14(gt, pred, [0.5])
    assert r.map == pytest.approx(3 / 11, abs=1e-15)
    assert ref.th14_evaldet(gt, pred, [0.5]).ap_all[0, 0] == pytest.approx(3 / 11, abs=1e-15)
    voc = interpolated_average_precision([0.1, 0.2, 0.3], [1.0, 1.0, 1.0], method="voc2007")
    assert voc == pytest.approx(4 / 11, abs=1e-15)  # the levels k/10 count recall 0.3


def test_subset_and_videos_without_ground_truth():
    gt = {
        "database": {
            "val": {"subset": "validation", "annotations": [{"segment": [0, 10], "label": "a"}]},
            "train": {"subset": "training", "annotations": [{"segment": [0, 10], "label": "a"}]},
        }
    }
    pred = {
        "results": {
            "val": [{"segment": [0, 10], "label": "a", "score": 0.5}],
            "train": [{"segment": [0, 10], "label": "a", "score": 0.9}],
        }
    }
    # All videos: both are found.
    assert evaluate_activitynet(gt, pred, [0.5]).map == 1.0
    # Only the validation subset: the training video's prediction is a false positive, ranked
    # first (predictions are not filtered by subset, as in the official code).
    r = evaluate_activitynet(gt, pred, [0.5], subset="validation")
    assert r.map == 0.5 and r.n_positives.tolist() == [1]
    assert ref.anet_detection(gt, pred, [0.5], subset="validation").average_mAP == 0.5
    assert evaluate_thumos14(gt, pred, [0.5], subset="validation").map == 0.5


def test_empty_predictions_give_zero():
    gt = _gt([((0, 10), "a")])
    for predictions in ({"results": {}}, {"results": {"v0": []}}):
        for evaluate in (evaluate_activitynet, evaluate_thumos14):
            r = evaluate(gt, predictions)
            assert r.map == 0.0 and not r.ap.any()


def test_labels_without_ground_truth():
    gt, pred = _gt([((0, 10), "a")]), _pred([((0, 10), "a", 0.9), ((0, 10), "zz", 0.8)])
    with pytest.raises(ValueError, match=r"\['v0'\] has the label 'zz'.*KeyError"):
        evaluate_activitynet(gt, pred)
    with pytest.raises(KeyError):  # what the official code does
        ref.anet_detection(gt, pred)
    with pytest.warns(UserWarning, match=r"1 detection\(s\).*\['zz'\].*skipped"):
        r = evaluate_thumos14(gt, pred, [0.5])
    assert r.map == 1.0 and r.labels == ["a"]


def test_integer_labels():
    gt = {"database": {"v": {"annotations": [{"segment": [0, 10], "label": 3}]}}}
    pred = {"results": {"v": [{"segment": [0, 10], "label": 3, "score": 1}]}}
    assert evaluate_activitynet(gt, pred).labels == [3]
    assert evaluate_thumos14(gt, pred).map == 1.0


def test_temporal_iou_cases():
    assert temporal_iou([0, 10], [10, 20]).tolist() == [[0.0]]  # touching
    assert temporal_iou([0, 10], [2, 4]).tolist() == [[0.2]]  # contained
    assert temporal_iou(np.zeros((0, 2)), [[0, 1]]).shape == (0, 1)
    assert temporal_iou([[0, 1], [1, 3]], []).shape == (2, 0)
    assert temporal_iou([[0.5, 1.5]], [[1, 2]]).dtype == np.float64


# --------------------------------------------------------------------------------------------
# Attacks: every refusal names what is wrong
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "segments, match",
    [
        ([[0, 1], [5, 2]], r"segments_a\[1\] = \[5.0, 2.0\] must be a segment that ends after"),
        ([[3, 3]], r"segments_a\[0\].*ends after it starts"),
        ([[0, np.nan]], r"segments_a\[0\].*finite"),
        ([[0, np.inf]], r"segments_a\[0\].*finite"),
        ([[0, 1, 2]], r"segments_a must have shape \(n, 2\)"),
        ([["a", "b"]], r"segments_a must hold numbers"),
        ([[0, 1], [2]], r"segments_a must be an \(n, 2\) array"),
    ],
)
def test_temporal_iou_refuses(segments, match):
    with pytest.raises(ValueError, match=match):
        temporal_iou(segments, [[0, 1]])


def test_temporal_iou_names_the_second_argument():
    with pytest.raises(ValueError, match=r"segments_b\[0\]"):
        temporal_iou([[0, 1]], [[2, 1]])
    with pytest.raises(TypeError, match="segments_b"):
        temporal_iou([[0, 1]], "0 1")


_GOOD_GT = {"database": {"v": {"annotations": [{"segment": [0, 10], "label": "a"}]}}}
_GOOD_PR = {"results": {"v": [{"segment": [0, 10], "label": "a", "score": 0.5}]}}


def _with(obj, path, value):
    """A copy of obj with the item at path replaced (value None deletes it)."""
    import copy

    out = copy.deepcopy(obj)
    node = out
    for key in path[:-1]:
        node = node[key]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


_PR_PATH = ("results", "v", 0)
_GT_PATH = ("database", "v", "annotations", 0)


@pytest.mark.parametrize("evaluate", [evaluate_activitynet, evaluate_thumos14])
@pytest.mark.parametrize(
    "gt, pr, error, match",
    [
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("score",), float("nan")),
            ValueError,
            r"predictions\['results'\]\['v'\]\[0\]\['score'\] must be finite",
        ),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("score",), float("inf")),
            ValueError,
            r"\['score'\] must be finite",
        ),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("score",), "0.5"),
            ValueError,
            r"\['score'\] must be a number",
        ),
        (_GOOD_GT, _with(_GOOD_PR, _PR_PATH + ("score",), None), ValueError, r"has no key 'score'"),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("segment",), [5, 2]),
            ValueError,
            r"\['v'\]\[0\]\['segment'\] must end after it starts",
        ),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("segment",), [0, float("nan")]),
            ValueError,
            r"\['segment'\] must be finite",
        ),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("segment",), ["0", "1"]),
            ValueError,
            r"\['segment'\] must hold numbers",
        ),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("segment",), [0, 1, 2]),
            ValueError,
            r"\['segment'\] must hold two numbers",
        ),
        (_GOOD_GT, _with(_GOOD_PR, _PR_PATH + ("label",), None), ValueError, r"has no key 'label'"),
        (
            _GOOD_GT,
            _with(_GOOD_PR, _PR_PATH + ("label",), 1.5),
            ValueError,
            r"\['label'\] must be a class name",
        ),
        (
            _GOOD_GT,
            _with(_GOOD_PR, ("results", "v"), {"segment": [0, 1]}),
            TypeError,
            r"predictions\['results'\]\['v'\] must be a list of dicts",
        ),
        (_GOOD_GT, _with(_GOOD_PR, _PR_PATH, [0, 1]), TypeError, r"\['v'\]\[0\] must be a dict"),
        (_GOOD_GT, {"detections": {}}, ValueError, r"predictions has no key 'results'"),
        (_GOOD_GT, [], TypeError, r"predictions must be a dict with the key 'results'"),
        ({"videos": {}}, _GOOD_PR, ValueError, r"ground_truth has no key 'database'"),
        (
            _with(_GOOD_GT, ("database", "v", "annotations"), None),
            _GOOD_PR,
            ValueError,
            r"ground_truth\['database'\]\['v'\] has no key 'annotations'",
        ),
        (
            _with(_GOOD_GT, _GT_PATH + ("segment",), [3, np.nan]),
            _GOOD_PR,
            ValueError,
            r"ground_truth\['database'\]\['v'\]\['annotations'\]\[0\]\['segment'\] must be finite",
        ),
        (
            _with(_GOOD_GT, _GT_PATH + ("segment",), [3, 1]),
            _GOOD_PR,
            ValueError,
            r"\['annotations'\]\[0\]\['segment'\] must end after",
        ),
        (_with(_GOOD_GT, _GT_PATH + ("label",), None), _GOOD_PR, ValueError, r"has no key 'label'"),
        (
            _with(_GOOD_GT, ("database", "v"), []),
            _GOOD_PR,
            TypeError,
            r"ground_truth\['database'\]\['v'\] must be a dict",
        ),
        (_with(_GOOD_GT, ("database",), {}), _GOOD_PR, ValueError, r"no segment to detect"),
        (_with(_GOOD_GT, _GT_PATH + ("label",), 7), _GOOD_PR, ValueError, r"labels of one kind"),
    ],
)
def test_layout_attacks(evaluate, gt, pr, error, match):
    with pytest.raises(error, match=match):
        evaluate(gt, pr)


@pytest.mark.parametrize("evaluate", [evaluate_activitynet, evaluate_thumos14])
def test_parameter_attacks(evaluate):
    for thresholds in ([], [1.0], [-0.1], [np.nan], [[0.5]]):
        with pytest.raises(ValueError, match="tiou_thresholds"):
            evaluate(_GOOD_GT, _GOOD_PR, thresholds)
    with pytest.raises(TypeError, match="tiou_thresholds"):
        evaluate(_GOOD_GT, _GOOD_PR, "0.5")
    with pytest.raises(ValueError, match=r"\['v'\] has no key 'subset'.*subset=None"):
        evaluate(_GOOD_GT, _GOOD_PR, subset="validation")
    with pytest.raises(TypeError, match="subset must be None or a string"):
        evaluate(_GOOD_GT, _GOOD_PR, subset=1)
    mixed = {
        "results": {
            "v": [
                {"segment": [0, 1], "label": "a", "score": 1},
                {"segment": [0, 1], "label": 2, "score": 1},
            ]
        }
    }
    with pytest.raises(ValueError, match="all strings or all integers"):
        evaluate(_GOOD_GT, mixed)


def test_ties_thumos_first_detection_at_equal_overlap():
    # Segment A overlaps both tied detections at 0.6; it takes the first in input order, which
    # leaves the second one for segment B.
    gt = _gt([((0, 10), "a"), ((6, 14), "a")])
    pred = _pred([((0, 6), "a", 0.5), ((4, 10), "a", 0.5)])
    assert evaluate_thumos14(gt, pred, [0.3]).map == 1.0
    assert ref.th14_evaldet(gt, pred, [0.3]).ap_all[0, 0] == pytest.approx(1.0, abs=1e-15)
    swapped = _pred([((4, 10), "a", 0.5), ((0, 6), "a", 0.5)])  # A takes [4, 10]; B gets none
    assert evaluate_thumos14(gt, swapped, [0.3]).map == pytest.approx(6 / 11, abs=1e-15)


def test_python_ints_beyond_int64_are_read_one_by_one():
    big = 2**70  # np.array of such ints is an object array: the slow path converts each record
    gt = {"database": {"v": {"annotations": [{"segment": [0, big], "label": "a"}]}}}
    pred = {"results": {"v": [{"segment": [0, big], "label": "a", "score": big}]}}
    assert evaluate_activitynet(gt, pred).map == 1.0
    assert evaluate_thumos14(gt, pred).map == 1.0
