"""Exact (Clopper–Pearson, Jeffreys) proportion intervals against statsmodels.

Targets (issue 24): ``proportion_ci(method="clopper-pearson")`` and ``method="jeffreys"`` on
10,000 random intervals at most 5x statsmodels' ``proportion_confint`` time (target ratio 0.2:
the ratio printed is statsmodels' time over mltutor's), and ``confusion_rate_intervals`` on a
1000 x 1000 confusion table (3,000 Clopper–Pearson intervals: recall, precision and specificity
per class) at most 5x statsmodels' time for the same 3,000 intervals (before issue 24 it took
18 s).  The intervals: ``nobs`` log-uniform over 1 to 1,000,000 (integers), ``count`` uniform
over 0..nobs, alpha = 0.05.  Results are asserted equal to statsmodels' to 1e-10 first.

Usage: ``python benchmarks/bench_exact_intervals.py [--repeats R]`` (``make bench`` runs it).
"""

from __future__ import annotations

import argparse

import numpy as np
from _harness import measure, report
from statsmodels.stats.proportion import proportion_confint

from mltutor.stats import confusion_rate_intervals, proportion_ci

N_INTERVALS, N_CLASSES, TARGET = 10_000, 1_000, 0.2
METHODS = {"clopper-pearson": "beta", "jeffreys": "jeffreys"}


def make_counts(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    nobs = np.floor(10 ** rng.uniform(0, 6, n))
    count = np.floor(rng.random(n) * (nobs + 1))
    return count, nobs


def make_table(n_classes: int, seed: int = 1) -> np.ndarray:
    """A confusion table with a heavy diagonal and sparse, uneven errors (counts 0 to ~10^4)."""
    rng = np.random.default_rng(seed)
    cm = rng.poisson(rng.gamma(0.3, 2.0, (n_classes, n_classes)))
    cm[np.diag_indices(n_classes)] = rng.integers(0, 10_000, n_classes)
    return cm


def run(repeats: int = 3, n_intervals: int = N_INTERVALS, n_classes: int = N_CLASSES) -> list[dict]:
    records = []
    count, nobs = make_counts(n_intervals)
    for method, sm_name in METHODS.items():
        ours = proportion_ci(count, nobs, alpha=0.05, method=method)
        ref = proportion_confint(count, nobs, alpha=0.05, method=sm_name)
        assert max(np.max(np.abs(ours[0] - ref[0])), np.max(np.abs(ours[1] - ref[1]))) <= 1e-10
        title = f"proportion_ci {method} ({n_intervals:,} intervals)"
        records.append(
            report(
                title,
                measure(
                    "mltutor",
                    lambda: proportion_ci(count, nobs, alpha=0.05, method=method),
                    repeats,
                ),
                measure(
                    "statsmodels",
                    lambda: proportion_confint(count, nobs, alpha=0.05, method=sm_name),
                    repeats,
                ),
                TARGET,
            )
        )
    cm = make_table(n_classes)
    r = confusion_rate_intervals(cm, method="clopper-pearson")
    rates = (r.recall, r.precision, r.specificity)
    k = np.concatenate([x.count for x in rates]).astype(np.float64)
    n = np.concatenate([x.nobs for x in rates]).astype(np.float64)
    ref = proportion_confint(k, n, alpha=0.05, method="beta")
    assert np.max(np.abs(np.concatenate([x.low for x in rates]) - ref[0])) <= 1e-10
    assert np.max(np.abs(np.concatenate([x.high for x in rates]) - ref[1])) <= 1e-10
    title = f"confusion_rate_intervals CP ({n_classes} x {n_classes} table)"
    records.append(
        report(
            title,
            measure(
                "mltutor", lambda: confusion_rate_intervals(cm, method="clopper-pearson"), repeats
            ),
            measure(
                "statsmodels", lambda: proportion_confint(k, n, alpha=0.05, method="beta"), repeats
            ),
            TARGET,
        )
    )
    return records


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--intervals", type=int, default=N_INTERVALS)
    parser.add_argument("--classes", type=int, default=N_CLASSES)
    args = parser.parse_args()
    run(args.repeats, args.intervals, args.classes)
