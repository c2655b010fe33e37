"""evaluate_activitynet against mmaction2's ``ActivityNetLocalization`` (issue 27).

What is compared: mmaction2 1.2.0's class ``ActivityNetLocalization`` from
``mmaction/evaluation/functional/eval_detection.py`` (with ``interpolated_precision_recall`` and
``pairwise_temporal_iou`` from ``accuracy.py`` of the same folder), run as the mmaction2 metric
``ActivityNetMetric`` runs it: JSON files written to disk, ``evaluate()`` returning mAP per
threshold and their mean, and ``.ap`` per class.  The two files are loaded directly from the
installed ``mmaction`` package, without ``mmaction/__init__.py`` (which imports mmcv and checks
its version) and without ``evaluation/functional/__init__.py`` (which imports the AVA and
MultiSports helpers); ``eval_detection.py`` itself needs ``mmengine.logging``.  mmaction2 is
installed with ``--no-deps`` (its own requirements pull torch, decord and opencv-contrib), mmengine
from the lock (``requirements.txt``).

Inputs are turned into mmaction2's layout: the ground truth without the ``"database"`` level and
with ``v_`` put in front of every video name (mmaction2 drops the first two characters of the
ground truth's names, not of the predictions').  Documented differences, and how the cases avoid
them rather than hide them:

* **tied scores**: mmaction2 sorts with Python's stable ``list.sort`` (input order), mltutor in
  reverse input order (ActivityNet's stable behaviour).  Cases with tied scores hand mmaction2
  the videos and each video's predictions in reverse order, so the two orders coincide; cases
  without ties hand both the same order.
* **float32 tIoU**: mmaction2 rounds tIoU to float32.  Segment ends are continuous random numbers,
  so no tIoU is within float32's rounding (6e-8 relative) of a threshold except with a
  probability far below one case in the run; the test asserts it for every pair, so such a case
  would be reported, not passed silently.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
import types
from pathlib import Path

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st

from mltutor.detection.temporal import (
    ACTIVITYNET_TIOU_THRESHOLDS,
    evaluate_activitynet,
    temporal_iou,
)

pytest.importorskip("mmengine.logging", reason="mmengine is a test dependency (requirements.txt)")


def _load_mmaction2_eval_detection():
    spec = importlib.util.find_spec("mmaction")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("mmaction2 is not installed (pip install --no-deps mmaction2==1.2.0)")
    folder = Path(next(iter(spec.submodule_search_locations))) / "evaluation" / "functional"
    package = types.ModuleType("_mmaction2_functional")
    package.__path__ = [str(folder)]
    sys.modules["_mmaction2_functional"] = package
    modules = {}
    for name in ("accuracy", "eval_detection"):
        full = f"_mmaction2_functional.{name}"
        sub_spec = importlib.util.spec_from_file_location(full, folder / f"{name}.py")
        module = importlib.util.module_from_spec(sub_spec)
        sys.modules[full] = module
        sub_spec.loader.exec_module(module)
        modules[name] = module
    return modules["eval_detection"].ActivityNetLocalization


ActivityNetLocalization = _load_mmaction2_eval_detection()


def mmaction2_map(ground_truth, predictions, thresholds, reverse):
    """mmaction2's mAP per threshold, mean, AP table and label order, from JSON files."""
    gt = {f"v_{video}": info for video, info in ground_truth["database"].items()}
    results = predictions["results"]
    if reverse:
        results = {video: dets[::-1] for video, dets in reversed(list(results.items()))}
    with tempfile.TemporaryDirectory() as tmp:
        gt_file, pred_file = Path(tmp, "gt.json"), Path(tmp, "pred.json")
        gt_file.write_text(json.dumps(gt))
        pred_file.write_text(json.dumps({"results": results}))
        anet = ActivityNetLocalization(str(gt_file), str(pred_file), tiou_thresholds=thresholds)
        m, average = anet.evaluate()
    return m, average, anet.ap, anet.activity_index


@st.composite
def problems(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_videos = draw(st.integers(1, 6))
    n_classes = draw(st.integers(1, 4))
    names = [f"c{k}" for k in range(n_classes)]
    gt_per_video = draw(st.integers(1, 6))
    pr_per_video = draw(st.integers(0, 15))
    near_gt = draw(st.sampled_from([0.3, 0.7, 0.95]))
    ties = draw(st.booleans())
    database, results = {}, {}
    for v in range(n_videos):
        anns = []
        for _ in range(int(rng.integers(1 if v == 0 else 0, gt_per_video + 1))):
            s = rng.uniform(0, 100)
            anns.append({"segment": [s, s + rng.uniform(0.5, 20)], "label": str(rng.choice(names))})
        database[f"video_{v}"] = {"annotations": anns}
        labels = sorted({a["label"] for info in database.values() for a in info["annotations"]})
        preds = []
        for _ in range(int(rng.integers(0, pr_per_video + 1))):
            if anns and rng.random() < near_gt:
                a = anns[rng.integers(len(anns))]
                length = a["segment"][1] - a["segment"][0]
                s, e = np.array(a["segment"]) + rng.normal(0, 0.2 * length, 2)
                seg = [float(s), float(max(e, s + 0.1))]
                label = a["label"] if rng.random() < 0.85 else str(rng.choice(labels))
            else:
                s = rng.uniform(0, 100)
                seg, label = [s, s + rng.uniform(0.5, 30)], str(rng.choice(labels))
            score = float(rng.integers(0, 5)) / 4 if ties else float(rng.random())
            preds.append({"segment": seg, "label": label, "score": score})
        key = f"video_{v}" if rng.random() < 0.9 else f"extra_{v}"  # some without ground truth
        results.setdefault(key, []).extend(preds)
    # every predicted label must be a ground-truth label (mmaction2 raises KeyError otherwise)
    labels = {a["label"] for info in database.values() for a in info["annotations"]}
    results = {k: [p for p in ps if p["label"] in labels] for k, ps in results.items()}
    if draw(st.booleans()):
        thresholds = np.asarray(ACTIVITYNET_TIOU_THRESHOLDS, dtype=np.float64)
    else:
        thresholds = np.array(draw(st.lists(st.floats(0.05, 0.95), min_size=1, max_size=5)))
    return {"database": database}, {"results": results}, thresholds, ties


def _float32_sides_agree(ground_truth, predictions, thresholds):
    """No tIoU changes side of a threshold when rounded to float32 (mmaction2's dtype)."""
    for video, dets in predictions["results"].items():
        anns = ground_truth["database"].get(video, {"annotations": []})["annotations"]
        if not dets or not anns:
            continue
        t64 = temporal_iou([d["segment"] for d in dets], [a["segment"] for a in anns])
        t32 = t64.astype(np.float32)
        for t in thresholds:
            if not np.array_equal(t64 >= t, t32 >= t):
                return False
    return True


@PROPERTY
@given(problem=problems())
def test_evaluate_activitynet_equals_mmaction2(problem):
    ground_truth, predictions, thresholds, ties = problem
    assert _float32_sides_agree(ground_truth, predictions, thresholds)
    m, average, ap, index = mmaction2_map(ground_truth, predictions, thresholds, reverse=ties)
    got = evaluate_activitynet(ground_truth, predictions, thresholds)
    assert sorted(index) == got.labels
    for label, column in index.items():
        np.testing.assert_allclose(
            got.ap[got.labels.index(label)], ap[:, column], rtol=0, atol=1e-12, err_msg=label
        )
    np.testing.assert_allclose(got.map_per_threshold, m, rtol=0, atol=1e-12)
    assert abs(got.map - average) <= 1e-12
    CASES["temporal: evaluate_activitynet vs mmaction2 ActivityNetLocalization"] += 1


def _tie_case():
    gt = {"database": {"a": {"annotations": [{"segment": [0.0, 10.0], "label": "x"}]}}}
    preds = {
        "results": {
            "a": [
                {"segment": [50.0, 60.0], "label": "x", "score": 0.5},  # false positive
                {"segment": [0.0, 10.0], "label": "x", "score": 0.5},  # hit, same score
            ]
        }
    }
    return gt, preds


def test_the_tie_order_difference_is_real_and_documented():
    """Same predictions, tied scores: mmaction2's input order and mltutor's reverse order differ,
    and handing mmaction2 the reversed order makes them agree (what the property test relies on)."""
    gt, preds = _tie_case()
    th = np.array([0.5])
    ours = evaluate_activitynet(gt, preds, th).map
    as_given = mmaction2_map(gt, preds, th, reverse=False)[1]
    reversed_ = mmaction2_map(gt, preds, th, reverse=True)[1]
    assert ours == 1.0  # the hit is listed last, so it comes first in reverse input order
    assert as_given == 0.5  # mmaction2 ranks the false positive first
    assert reversed_ == ours


def test_mmaction2_drops_two_characters_of_ground_truth_names():
    """Why the adapter prefixes ``v_``: without it, ground truth 'ab1' becomes video '1'."""
    gt, preds = _tie_case()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "gt.json").write_text(json.dumps({"a": gt["database"]["a"]}))
        Path(tmp, "p.json").write_text(json.dumps(preds))
        anet = ActivityNetLocalization(str(Path(tmp, "gt.json")), str(Path(tmp, "p.json")))
    assert anet.ground_truth[0]["video-id"] == ""
