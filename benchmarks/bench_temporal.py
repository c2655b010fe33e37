"""Temporal action detection: ``mltutor.detection.temporal`` against the official scorers' ports.

No maintained library implements temporal-detection mAP; the references are the line-by-line
ports of ActivityNet's ``eval_detection.py`` (pandas, one row at a time, as the original) and of
THUMOS'14's MATLAB kit (plain Python) in ``tests/_temporal_references.py``.  Two synthetic sets in
ActivityNet's JSON layout:

* THUMOS-sized: 200 videos of 200 s, 20 classes, 15 actions per video (3,000 segments, one or
  two classes per video) plus 2 "Ambiguous" segments per video, and 1,000 detections per video
  (200,000): a few near each action, the rest anywhere; scores rounded to 3 decimals (ties).
  Scored with ``evaluate_thumos14`` at 0.1, ..., 0.7.
* ActivityNet-sized: 5,000 videos, 200 classes, 1 to 2 actions per video, 100 predictions per
  video (500,000), mostly of the video's class.  Scored with ``evaluate_activitynet`` at
  0.5:0.05:0.95.

* mmaction2-sized: 10,000 videos, 200 classes, 1 to 2 actions per video, 100 predictions per
  video (1,000,000), against mmaction2 1.2.0's ``ActivityNetLocalization`` (its two metric files,
  loaded as ``tests/test_temporal_mmaction2.py`` does; skipped if mmaction2 is not installed).
  Its file lists the predictions in reverse order (videos and each video's list), so that its
  order among tied scores is mltutor's (see the module docstring of
  ``mltutor.detection.temporal``).
  mmaction2 reads JSON files: they are written before the clock starts, and the time
  ``json.load`` takes on them (measured alone) is subtracted from mmaction2's, so that both sides
  are timed from parsed dicts.

Both sides start from the same dicts; their AP tables must agree to 1e-12 before the timing is
reported.  The ports are slow (the ActivityNet one takes minutes on the large set), so each is
run once and timed once, without the memory trace; mltutor gets the harness's median of
``repeats`` runs.
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _harness import Measurement, measure, report

from mltutor.detection.temporal import evaluate_activitynet, evaluate_thumos14

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import _temporal_references as ref  # noqa: E402

TARGET = 20.0  # issue 27: at least 20x the reference


def make_set(
    n_videos: int,
    n_classes: int,
    gt_range: tuple[int, int],
    per_video: int,
    n_ambiguous: int,
    duration: float,
    seed: int = 0,
) -> tuple[dict, dict]:
    """Ground truth and predictions in ActivityNet's layout (see the module docstring)."""
    rng = np.random.default_rng(seed)
    names = [f"class_{k:03d}" for k in range(n_classes)]
    database, results = {}, {}
    for v in range(n_videos):
        video = f"video_{v:05d}"
        classes = rng.choice(n_classes, size=int(rng.integers(1, 3)), replace=False)
        n_gt = int(rng.integers(gt_range[0], gt_range[1] + 1))
        length = np.exp(rng.uniform(np.log(2.0), np.log(duration / 8), n_gt))
        start = rng.uniform(0, duration - length)
        gt_cls = rng.choice(classes, n_gt)
        anns = [
            {"segment": [float(s), float(s + w)], "label": names[c]}
            for s, w, c in zip(start, length, gt_cls)
        ]
        amb = rng.uniform(0, duration - 5, n_ambiguous)
        anns += [{"segment": [float(a), float(a + 5)], "label": "Ambiguous"} for a in amb]
        database[video] = {"annotations": anns, "subset": "validation"}
        # Detections: a share near the actions (jittered ends, higher scores), the rest anywhere.
        n_near = min(per_video // 2, 4 * n_gt)
        src = rng.integers(0, n_gt, n_near)
        jitter = rng.normal(0, 0.15, (n_near, 2)) * length[src, None]
        near = np.c_[start[src], start[src] + length[src]] + jitter
        near[:, 1] = np.maximum(near[:, 1], near[:, 0] + 0.5)
        n_far = per_video - n_near
        far_len = np.exp(rng.uniform(np.log(1.0), np.log(duration / 4), n_far))
        far_start = rng.uniform(0, duration - far_len)
        far = np.c_[far_start, far_start + far_len]
        segs = np.r_[near, far]
        score = np.round(np.r_[rng.uniform(0.3, 1.0, n_near), rng.uniform(0.0, 0.7, n_far)], 3)
        label = np.r_[
            np.where(rng.random(n_near) < 0.9, gt_cls[src], rng.choice(classes, n_near)),
            np.where(
                rng.random(n_far) < 0.8,
                rng.choice(classes, n_far),
                rng.integers(0, n_classes, n_far),
            ),
        ]
        order = rng.permutation(per_video)
        results[video] = [
            {
                "segment": [float(segs[i, 0]), float(segs[i, 1])],
                "label": names[label[i]],
                "score": float(score[i]),
            }
            for i in order
        ]
    return {"database": database}, {"results": results}


def _once(name: str, fn) -> tuple[Measurement, object]:
    gc.collect()
    start = time.perf_counter()
    out = fn()
    return Measurement(name, time.perf_counter() - start, float("nan")), out


def _thumos(repeats: int) -> dict:
    gt, pred = make_set(200, 20, (15, 15), 1_000, 2, 200.0, seed=1)
    thresholds = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
    n_gt = sum(len(v["annotations"]) for v in gt["database"].values())
    n_pr = sum(len(v) for v in pred["results"].values())
    print(
        f"THUMOS-sized: 200 videos, 20 classes, {n_gt:,} segments (400 ambiguous), "
        f"{n_pr:,} detections"
    )
    reference, expected = _once("TH14evalkit port", lambda: ref.th14_evaldet(gt, pred, thresholds))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = evaluate_thumos14(gt, pred, thresholds)
    assert got.labels == expected.classnames
    np.testing.assert_allclose(got.ap, expected.ap_all, rtol=0, atol=1e-12)
    print("mAP per threshold", np.round(got.map_per_threshold, 4).tolist())
    ours = measure("mltutor", lambda: evaluate_thumos14(gt, pred, thresholds), repeats)
    return report("evaluate_thumos14 vs TH14evalkit port (200k det.)", ours, reference, TARGET)


def _activitynet(repeats: int) -> dict:
    gt, pred = make_set(5_000, 200, (1, 2), 100, 0, 120.0, seed=2)
    n_gt = sum(len(v["annotations"]) for v in gt["database"].values())
    print(f"ActivityNet-sized: 5,000 videos, 200 classes, {n_gt:,} segments, 500,000 predictions")
    reference, expected = _once("eval_detection.py port", lambda: ref.anet_detection(gt, pred))
    got = evaluate_activitynet(gt, pred)
    for label, column in expected.activity_index.items():
        np.testing.assert_allclose(
            got.ap[got.labels.index(label)], expected.ap[:, column], rtol=0, atol=1e-12
        )
    assert abs(got.map - expected.average_mAP) <= 1e-12
    print("average mAP", round(got.map, 4))
    ours = measure("mltutor", lambda: evaluate_activitynet(gt, pred), repeats)
    return report("evaluate_activitynet vs eval_detection.py port", ours, reference, TARGET)


def _mmaction2(repeats: int) -> dict | None:
    try:
        from test_temporal_mmaction2 import ActivityNetLocalization
    except Exception as exc:  # pytest's Skipped (no mmengine or mmaction2) or an import error
        print(f"mmaction2 row skipped: {exc}")
        return None
    gt, pred = make_set(10_000, 200, (1, 2), 100, 0, 120.0, seed=3)
    n_gt = sum(len(v["annotations"]) for v in gt["database"].values())
    print(f"mmaction2-sized: 10,000 videos, 200 classes, {n_gt:,} segments, 1,000,000 predictions")
    with tempfile.TemporaryDirectory() as tmp:
        gt_file, pred_file = Path(tmp, "gt.json"), Path(tmp, "pred.json")
        # mmaction2 drops the first two characters of the ground truth's video names
        gt_file.write_text(json.dumps({f"v_{v}": info for v, info in gt["database"].items()}))
        # Scores have 3 decimals, so many tie: mmaction2 ranks tied predictions in input order,
        # mltutor in reverse input order; the file lists them reversed so that the orders agree.
        results = {v: dets[::-1] for v, dets in reversed(list(pred["results"].items()))}
        pred_file.write_text(json.dumps({"results": results}))
        reading, _ = _once(
            "json.load",
            lambda: (json.loads(gt_file.read_text()), json.loads(pred_file.read_text())),
        )

        def mmaction2():
            anet = ActivityNetLocalization(str(gt_file), str(pred_file))
            anet.evaluate()
            return anet

        whole, anet = _once("mmaction2", mmaction2)
    got = evaluate_activitynet(gt, pred)
    for label, column in anet.activity_index.items():
        np.testing.assert_allclose(
            got.ap[got.labels.index(label)], anet.ap[:, column], rtol=0, atol=1e-12
        )
    assert abs(got.map - anet.average_mAP) <= 1e-12
    print(
        f"average mAP {got.map:.4f}; mmaction2 {whole.median_s:.2f} s, of which reading the "
        f"JSON files {reading.median_s:.2f} s"
    )
    reference = Measurement("mmaction2 1.2.0", whole.median_s - reading.median_s, float("nan"))
    ours = measure("mltutor", lambda: evaluate_activitynet(gt, pred), repeats)
    return report("evaluate_activitynet vs mmaction2 (10k videos)", ours, reference, TARGET)


def run(repeats: int = 3) -> list[dict]:
    rows = [_thumos(repeats), _activitynet(repeats), _mmaction2(repeats)]
    return [row for row in rows if row is not None]


if __name__ == "__main__":
    run()
