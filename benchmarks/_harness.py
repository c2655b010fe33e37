"""Tiny timing harness: medians of repeated runs and peak traced memory, side by side.

Speed is always reported as a ratio against the reference library measured in the same run, never
as an absolute threshold, because the machines this runs on are shared and noisy.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from typing import Callable


@dataclass
class Measurement:
    name: str
    median_s: float
    peak_mib: float


def measure(name: str, fn: Callable[[], object], repeats: int = 5) -> Measurement:
    """Median wall time over ``repeats`` calls (after one warm-up) and the peak traced memory."""
    fn()  # warm-up: imports, caches, page faults
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    # Memory in a separate call: tracing slows Python code down and would distort the timing.
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Measurement(name, statistics.median(times), peak / 2**20)


def report(title: str, ours: Measurement, reference: Measurement, target: float) -> dict:
    """Print one comparison line and return it as a record."""
    ratio = reference.median_s / ours.median_s
    verdict = "meets" if ratio >= target else "MISSES"
    print(
        f"{title:<48} mltutor {ours.median_s:8.4f} s {ours.peak_mib:8.1f} MiB | "
        f"{reference.name} {reference.median_s:8.4f} s {reference.peak_mib:8.1f} MiB | "
        f"{ratio:6.1f}x ({verdict} target {target:g}x)"
    )
    return {
        "benchmark": title,
        "mltutor_s": ours.median_s,
        "mltutor_peak_mib": ours.peak_mib,
        "reference": reference.name,
        "reference_s": reference.median_s,
        "reference_peak_mib": reference.peak_mib,
        "ratio": ratio,
        "target": target,
    }
