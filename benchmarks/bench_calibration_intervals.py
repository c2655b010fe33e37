"""calibration_curve_intervals against scikit-learn's calibration_curve plus statsmodels' Wilson.

The reference for the whole function is what a learner would write without it:
``sklearn.calibration.calibration_curve`` for the points, then the bin counts (a second pass
over the samples with scikit-learn's edges) and statsmodels' ``proportion_confint`` for the
intervals.  mltutor counts the bins once for both.  Target (issue 29): at least
as fast as the reference on 1,000,000 samples in 15 bins, uniform and quantile (target ratio 1:
the ratio printed is the reference's time over mltutor's).  The points are asserted equal to
scikit-learn's and the intervals to statsmodels' (1e-12) first.

Usage: ``python benchmarks/bench_calibration_intervals.py [--repeats R] [--samples N]``
(``make bench`` runs it).
"""

from __future__ import annotations

import argparse

import numpy as np
from _harness import measure, report
from sklearn.calibration import calibration_curve
from statsmodels.stats.proportion import proportion_confint

from mltutor.calibration import calibration_curve_intervals

N_SAMPLES, N_BINS, TARGET = 1_000_000, 15, 1.0


def reference(y: np.ndarray, p: np.ndarray, strategy: str):
    """scikit-learn's points, the counts of its bins, statsmodels' Wilson intervals."""
    prob_true, prob_pred = calibration_curve(y, p, n_bins=N_BINS, strategy=strategy)
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, N_BINS + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, N_BINS + 1)
    counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=N_BINS)
    counts = counts[counts > 0]
    low, high = proportion_confint(np.round(prob_true * counts), counts, method="wilson")
    return prob_true, prob_pred, low, high


def run(repeats: int = 3, n_samples: int = N_SAMPLES) -> list[dict]:
    rng = np.random.default_rng(0)
    p = rng.beta(2.0, 2.0, n_samples)
    y = (rng.random(n_samples) < p**1.3).astype(int)
    records = []
    for strategy in ("uniform", "quantile"):
        ours = calibration_curve_intervals(y, p, n_bins=N_BINS, strategy=strategy)
        ref = reference(y, p, strategy)
        for a, b in zip((ours.prob_true, ours.prob_pred, ours.low, ours.high), ref, strict=True):
            assert np.max(np.abs(a - b)) <= 1e-12
        records.append(
            report(
                f"calibration_curve_intervals {strategy} ({n_samples:,} samples, {N_BINS} bins)",
                measure(
                    "mltutor",
                    lambda s=strategy: calibration_curve_intervals(y, p, n_bins=N_BINS, strategy=s),
                    repeats,
                ),
                measure("sklearn+statsmodels", lambda s=strategy: reference(y, p, s), repeats),
                TARGET,
            )
        )
    return records


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=N_SAMPLES)
    args = parser.parse_args()
    run(args.repeats, args.samples)
