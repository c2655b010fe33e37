"""Kernel 2 at work: every threshold at once on 1,000,000 scores.

``threshold_sweep`` returns the four confusion counts and five rates at every distinct score from
one sort.  The fair reference for "all thresholds at once" is scikit-learn's
``precision_recall_curve`` (one sort too, but only precision and recall); the best-F1 threshold is
compared with what a learner writes on top of it (F1 from P and R, then argmax).  The naive way —
a loop that calls ``f1_score`` once per threshold — is timed on a few thresholds and extrapolated,
because running it on all ~1,000,000 would take hours.

Target: at least as fast as scikit-learn (ratio >= 1) while computing more.  The sweep's distance
to the limit is reported too: its time over one ``np.sort`` of the same scores (issue 18; it returns
ten arrays of one entry per threshold, so the curves' 4x is a goal, not a promise).
"""

from __future__ import annotations

import time

import numpy as np
import sklearn.metrics as skm
from _harness import measure, report
from bench_curves import sort_ratio

from mltutor.curves import best_fbeta_threshold, threshold_sweep

N_SAMPLES = 1_000_000
N_LOOP = 5  # thresholds timed in the naive per-threshold loop
TARGET = 1.0
SORT_LIMIT = 4.0


def make_scores(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """10 % positives; scores from overlapping normal distributions (no ties)."""
    rng = np.random.default_rng(seed)
    y_true = (rng.random(N_SAMPLES) < 0.1).astype(np.int64)
    y_score = rng.normal(1.5 * y_true, 1.0)
    return y_true, y_score


def sklearn_best_f1(y_true: np.ndarray, y_score: np.ndarray) -> tuple[float, float]:
    precision, recall, thresholds = skm.precision_recall_curve(y_true, y_score)
    p, r = precision[:-1], recall[:-1]
    denom = p + r
    f1 = np.divide(2 * p * r, denom, out=np.zeros_like(denom), where=denom > 0)
    i = int(np.argmax(f1[::-1]))  # highest threshold among ties, as mltutor
    return float(thresholds[::-1][i]), float(f1[::-1][i])


def run(repeats: int = 3) -> list[dict]:
    y_true, y_score = make_scores()
    # Same numbers first: a fast wrong answer is worth nothing.
    sweep = threshold_sweep(y_true, y_score)
    precision, recall, thresholds = skm.precision_recall_curve(y_true, y_score)
    np.testing.assert_array_equal(sweep.thresholds, thresholds[::-1])
    np.testing.assert_allclose(sweep.precision, precision[:-1][::-1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(sweep.recall, recall[:-1][::-1], rtol=0, atol=1e-12)
    ours_best, ref_best = best_fbeta_threshold(y_true, y_score), sklearn_best_f1(y_true, y_score)
    assert ours_best[0] == ref_best[0] and abs(ours_best[1] - ref_best[1]) < 1e-12

    n_thr = len(sweep)
    ours = measure("mltutor", lambda: threshold_sweep(y_true, y_score), repeats)
    sweep_record = report(
        f"threshold_sweep ({N_SAMPLES:,} scores, {n_thr:,} thr.)",
        ours,
        measure("sklearn PR curve", lambda: skm.precision_recall_curve(y_true, y_score), repeats),
        TARGET,
    )
    ratio, sort_s = sort_ratio(lambda: threshold_sweep(y_true, y_score), y_score, repeats)
    sweep_record.update(sort_s=sort_s, sort_ratio=ratio, sort_limit=SORT_LIMIT)
    verdict = "meets" if sweep_record["sort_ratio"] <= SORT_LIMIT else "MISSES"
    print(
        f"{'':<48} {sweep_record['sort_ratio']:6.2f}x one np.sort ({verdict} limit {SORT_LIMIT:g}x)"
    )
    records = [
        sweep_record,
        report(
            "best F1 threshold (vs sklearn PR curve + argmax)",
            measure("mltutor", lambda: best_fbeta_threshold(y_true, y_score), repeats),
            measure("sklearn", lambda: sklearn_best_f1(y_true, y_score), repeats),
            TARGET,
        ),
    ]

    # The naive loop: one f1_score call per threshold, extrapolated to every threshold.
    chosen = sweep.thresholds[np.linspace(0, n_thr - 1, N_LOOP).astype(int)]
    start = time.perf_counter()
    for t in chosen:
        skm.f1_score(y_true, y_score >= t)
    per_threshold = (time.perf_counter() - start) / N_LOOP
    loop_s = per_threshold * n_thr
    print(
        f"{'naive loop of sklearn f1_score (extrapolated)':<48} {per_threshold:.4f} s per threshold "
        f"x {n_thr:,} thresholds = {loop_s / 3600:.1f} h, {loop_s / ours.median_s:,.0f}x the sweep"
    )
    records.append(
        {
            "benchmark": "naive loop of sklearn f1_score over every threshold (extrapolated)",
            "mltutor_s": ours.median_s,
            "mltutor_peak_mib": ours.peak_mib,
            "reference": f"f1_score loop, timed on {N_LOOP} thresholds",
            "reference_s": loop_s,
            "reference_peak_mib": None,
            "ratio": loop_s / ours.median_s,
            "target": TARGET,
        }
    )
    return records


if __name__ == "__main__":
    run()
