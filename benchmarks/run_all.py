"""Run every benchmark in this folder and save the results to benchmarks/results/latest.json.

Usage: ``python benchmarks/run_all.py [--repeats N]`` (``make bench``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

BENCHMARKS = [
    "bench_classification",
    "bench_thresholds",
    "bench_ranking",
    "bench_streaming",
    "bench_curves",
    "bench_detection",
    "bench_many_classes",
    "bench_masks",
    "bench_errors",
    "bench_stats",
    "bench_monitoring",
    "bench_exact_intervals",
    "bench_calibration_intervals",
    "bench_temporal",
    "bench_sklearn_rest",
    "bench_curve_extras",
    "bench_paired_difference",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per function (median)")
    args = parser.parse_args()

    import numpy
    import sklearn

    print(
        f"python {platform.python_version()}, numpy {numpy.__version__}, scikit-learn {sklearn.__version__}"
    )
    records = []
    for name in BENCHMARKS:
        print(f"\n== {name}")
        records += importlib.import_module(name).run(repeats=args.repeats)

    out = HERE / "results" / "latest.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(records, indent=2))
    print(f"\nresults written to {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
