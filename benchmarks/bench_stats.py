"""Agreement metrics and the DeLong test against their references.

Targets (issue 15): ``matthews_corrcoef`` and ``cohen_kappa_score`` at least 25x faster than
scikit-learn on 10,000,000 labels over 101 classes (both are arithmetic on the confusion count);
``delong_roc_test`` on 1,000,000 scores faster than one paired bootstrap of the AUC difference with
200 resamples (``mltutor.stats.paired_bootstrap`` over ``mltutor.metrics.roc_auc_score``, the
alternative a reader would otherwise run).  Results are asserted equal first: the metrics to
1e-12, and the two AUCs of DeLong to scikit-learn's ``roc_auc_score``.

Usage: ``python benchmarks/bench_stats.py [--repeats R]`` (``make bench`` runs it).
"""

from __future__ import annotations

import argparse

import numpy as np
import sklearn.metrics as skm
from _harness import measure, report

import mltutor.metrics as mtm
from mltutor.stats import delong_roc_test, paired_bootstrap

N_LABELS, N_CLASSES, N_SCORES, N_RESAMPLES = 10_000_000, 101, 1_000_000, 200
TARGET_METRICS, TARGET_DELONG = 25.0, 1.0
# mltutor's metrics take about 30 ms here, scikit-learn's about a second: on a shared machine one
# time slice lost to another process moves a 30 ms run by half, so its median needs more runs.
FAST_REPEATS = 15


def make_labels(n: int, n_classes: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.3, rng.integers(0, n_classes, n), y_true)
    return y_true, y_pred


def make_scores(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    a = rng.normal(size=n) + y
    b = 0.7 * a + 0.7 * rng.normal(size=n) + 0.2 * y
    return y, np.round(a, 3), np.round(b, 3)  # rounding: many ties, as real scores have


def run(repeats: int = 3, n_labels: int = N_LABELS, n_scores: int = N_SCORES) -> list[dict]:
    records = []
    y_true, y_pred = make_labels(n_labels, N_CLASSES)
    for name in ("matthews_corrcoef", "cohen_kappa_score"):
        ours_fn, ref_fn = getattr(mtm, name), getattr(skm, name)
        assert abs(ours_fn(y_true, y_pred) - ref_fn(y_true, y_pred)) <= 1e-12
        title = f"{name} ({n_labels:,} labels, {N_CLASSES} classes)"
        ours = measure("mltutor", lambda: ours_fn(y_true, y_pred), max(repeats, FAST_REPEATS))
        records.append(
            report(
                title,
                ours,
                measure("sklearn", lambda: ref_fn(y_true, y_pred), repeats),
                TARGET_METRICS,
            )
        )
    y_true = y_pred = None  # free the labels before the score benchmarks
    y, a, b = make_scores(n_scores)
    result = delong_roc_test(y, a, b)
    assert abs(result.auc_a - skm.roc_auc_score(y, a)) <= 1e-12
    assert abs(result.auc_b - skm.roc_auc_score(y, b)) <= 1e-12

    def bootstrap() -> object:
        return paired_bootstrap(
            mtm.roc_auc_score, y, a, b, n_resamples=N_RESAMPLES, random_state=0, progress=False
        )

    title = f"delong_roc_test ({n_scores:,} scores) vs bootstrap x{N_RESAMPLES}"
    records.append(
        report(
            title,
            measure("mltutor", lambda: delong_roc_test(y, a, b), repeats),
            measure("paired_bootstrap", bootstrap, 1),
            TARGET_DELONG,
        )
    )
    return records


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--labels", type=int, default=N_LABELS)
    parser.add_argument("--scores", type=int, default=N_SCORES)
    args = parser.parse_args()
    run(args.repeats, args.labels, args.scores)
