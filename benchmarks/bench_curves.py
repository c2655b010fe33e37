"""Kernel 2 at the sort limit: ROC AUC, AP and the curves on 10,000,000 binary scores (issue 18).

Without sample weights mltutor never calls ``argsort``: it sorts all scores with ``np.sort``, sorts
the smaller class's scores apart, and ranks them among all with ``np.searchsorted``
(``mltutor.curves.sort_classes``).  ROC AUC is then a sum of ranks (Mann–Whitney), AP a sum over
the distinct positive scores, and the curves counts read off the ranks (precision-recall and DET
straight into their output arrays, lowest threshold first).  scikit-learn sorts
with a stable ``argsort`` and gathers labels and weights through the permutation.

Each row reports two ratios measured in the same run:

* speed-up against scikit-learn (targets: areas >= 6x, curves >= 3x);
* distance to the limit, mltutor's time over one ``np.sort`` of the same scores (targets: areas
  <= 3x, curves <= 4x).

Peak memory is the traced numpy allocation (``_harness``) in the timing rows; the memory rows run
each function once on 50,000,000 scores in a fresh subprocess and read the peak resident set size
(``VmHWM``), against the input arrays (int64 labels and float64 scores, 800 MB; target <= 3x).
Same numbers first (to 1e-12), then the timings.  ``BENCH_CURVES_N`` and ``BENCH_CURVES_MEMORY_N``
(environment) shrink the sizes for a quick look; ``BENCH_CURVES_MEMORY_N=0`` skips the memory rows.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import sklearn.metrics as skm
from _harness import measure, report

from mltutor.metrics import (
    average_precision_score,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

N_SAMPLES = int(os.environ.get("BENCH_CURVES_N", 10_000_000))
N_MEMORY = int(os.environ.get("BENCH_CURVES_MEMORY_N", 50_000_000))
AREA_TARGET, AREA_SORT_LIMIT = 6.0, 3.0
CURVE_TARGET, CURVE_SORT_LIMIT = 3.0, 4.0
MEMORY_LIMIT = 3.0  # peak RSS over the bytes of the input arrays

FUNCTIONS = {  # name -> (mltutor, scikit-learn, speed-up target, distance-to-sort limit)
    "roc_auc_score": (roc_auc_score, skm.roc_auc_score, AREA_TARGET, AREA_SORT_LIMIT),
    "average_precision_score": (
        average_precision_score,
        skm.average_precision_score,
        AREA_TARGET,
        AREA_SORT_LIMIT,
    ),
    "roc_curve": (roc_curve, skm.roc_curve, CURVE_TARGET, CURVE_SORT_LIMIT),
    "precision_recall_curve": (
        precision_recall_curve,
        skm.precision_recall_curve,
        CURVE_TARGET,
        CURVE_SORT_LIMIT,
    ),
    "det_curve": (det_curve, skm.det_curve, CURVE_TARGET, CURVE_SORT_LIMIT),
}


def make_scores(n: int = N_SAMPLES, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """10 % positives; scores from overlapping normal distributions (no ties)."""
    rng = np.random.default_rng(seed)
    y_true = (rng.random(n) < 0.1).astype(np.int64)
    y_score = rng.normal(1.5 * y_true, 1.0)
    return y_true, y_score


def make_scores_in_chunks(n: int, seed: int = 0, chunk: int = 1_000_000):
    """The same kind of data as :func:`make_scores`, drawn a chunk at a time so that drawing it
    does not raise the process's peak memory above the two arrays themselves."""
    rng = np.random.default_rng(seed)
    y_true, y_score = np.empty(n, dtype=np.int64), np.empty(n)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        y_true[start:stop] = rng.random(stop - start) < 0.1
        y_score[start:stop] = rng.normal(1.5 * y_true[start:stop], 1.0)
    return y_true, y_score


def _same(ours: object, ref: object, name: str) -> None:
    if isinstance(ref, float):
        assert abs(ours - ref) < 1e-12, name
        return
    for a, b in zip(ours, ref):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, err_msg=name)


def sort_ratio(fn, y_score: np.ndarray, repeats: int) -> tuple[float, float]:
    """Median of ``time(fn) / time(np.sort(y_score))`` over runs that alternate the two, so that
    both see the same load on a shared machine; and the median ``np.sort`` time."""
    ratios, sorts = [], []
    fn()  # warm-up
    for _ in range(max(repeats, 5)):
        start = time.perf_counter()
        np.sort(y_score)
        middle = time.perf_counter()
        fn()
        ratios.append((time.perf_counter() - middle) / (middle - start))
        sorts.append(middle - start)
    return statistics.median(ratios), statistics.median(sorts)


def run(repeats: int = 3) -> list[dict]:
    y_true, y_score = make_scores()
    records = []
    for name, (ours, reference, target, sort_limit) in FUNCTIONS.items():
        _same(ours(y_true, y_score), reference(y_true, y_score), name)
        record = report(
            f"{name} ({N_SAMPLES:,} binary scores)",
            measure("mltutor", lambda f=ours: f(y_true, y_score), repeats),
            measure("sklearn", lambda f=reference: f(y_true, y_score), repeats),
            target,
        )
        ratio, sort_s = sort_ratio(lambda f=ours: f(y_true, y_score), y_score, repeats)
        record.update(sort_s=sort_s, sort_ratio=ratio, sort_limit=sort_limit)
        verdict = "meets" if ratio <= sort_limit else "MISSES"
        print(
            f"{'':<48} {ratio:6.2f}x one np.sort, {sort_s:.4f} s ({verdict} limit {sort_limit:g}x)"
        )
        records.append(record)
    if N_MEMORY:
        records += memory_records(N_MEMORY)
    return records


# --------------------------------------------------------------------------------------------
# Peak resident memory, one fresh process per function
# --------------------------------------------------------------------------------------------

_CHILD = """
import json, sys
sys.path.insert(0, {here!r})
from bench_curves import FUNCTIONS, make_scores_in_chunks

def vm(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
y_true, y_score = make_scores_in_chunks({n})
before = vm("VmRSS")
FUNCTIONS[{name!r}][{which}](y_true, y_score)
print(json.dumps({{"input": y_true.nbytes + y_score.nbytes, "before": before, "peak": vm("VmHWM")}}))
"""


def peak_rss(name: str, n: int, which: int = 0) -> dict:
    """Peak RSS of one call of ``FUNCTIONS[name][which]`` (0 mltutor, 1 scikit-learn) on ``n``
    scores, in a fresh Python process (the peak is per process)."""
    code = _CHILD.format(here=str(Path(__file__).resolve().parent), n=n, name=name, which=which)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def memory_records(n: int) -> list[dict]:
    records = []
    for name in FUNCTIONS:
        m = peak_rss(name, n)
        ratio = m["peak"] / m["input"]
        verdict = "meets" if ratio <= MEMORY_LIMIT else "MISSES"
        print(
            f"{name + f' ({n:,}) peak RSS':<48} {m['peak'] / 2**30:6.2f} GiB = {ratio:4.2f}x the "
            f"inputs ({m['input'] / 2**30:.2f} GiB; {(m['peak'] - m['before']) / 2**30:.2f} GiB "
            f"above them) ({verdict} limit {MEMORY_LIMIT:g}x)"
        )
        records.append(
            {
                "benchmark": f"{name} peak RSS ({n:,} binary scores)",
                "mltutor_peak_rss_bytes": m["peak"],
                "input_bytes": m["input"],
                "rss_before_bytes": m["before"],
                "rss_ratio": ratio,
                "rss_limit": MEMORY_LIMIT,
            }
        )
    return records


if __name__ == "__main__":
    run(repeats=int(sys.argv[1]) if len(sys.argv) > 1 else 3)
