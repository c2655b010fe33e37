"""Tiny timing harness: medians of repeated runs and peak traced memory, side by side.

Speed is always reported as a ratio against the reference library measured in the same run, never
as an absolute threshold, because the machines this runs on are shared and noisy.
"""

from __future__ import annotations

import gc
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass


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


# --------------------------------------------------------------------------------------------
# COCO evaluators from files (issue 28): the same JSON files, five libraries, peak RSS per library
# --------------------------------------------------------------------------------------------

#: The COCO evaluators compared, in the order of the README's table ("mltutor" loads the files with
#: json.load, "mltutor+orjson" with load_coco_json and orjson installed).
COCO_LIBRARIES = (
    "pycocotools",
    "faster-coco-eval",
    "hotcoco",
    "ultrafast",
    "mltutor",
    "mltutor+orjson",
)
MLTUTOR = ("mltutor", "mltutor+orjson")


class _quiet_fd1:
    """Silence file descriptor 1 (and ``sys.stdout``): the Rust and C++ evaluators print their
    summaries from native code, which ``contextlib.redirect_stdout`` does not catch."""

    def __enter__(self):
        import contextlib
        import io
        import os
        import sys

        sys.stdout.flush()
        self._saved = os.dup(1)
        self._null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(self._null, 1)
        self._redirect = contextlib.redirect_stdout(io.StringIO())
        self._redirect.__enter__()
        return self

    def __exit__(self, *exc):
        import os

        self._redirect.__exit__(*exc)
        os.dup2(self._saved, 1)
        os.close(self._saved)
        os.close(self._null)
        return False


def coco_from_file(library: str, gt_path: str, dt_path: str, iou_type: str) -> list[float]:
    """One library's whole file-to-stats evaluation: load both JSON files, evaluate, accumulate,
    summarize.  Returns the 12 (10 for keypoints) summary numbers.  Imports only that library."""
    n_stats = 10 if iou_type == "keypoints" else 12
    with _quiet_fd1():
        if library in MLTUTOR:
            import json

            from mltutor.detection import evaluate_coco, load_coco_json

            if library == "mltutor+orjson":
                coco_gt, detections = load_coco_json(gt_path), load_coco_json(dt_path)
            else:
                with open(gt_path) as f:
                    coco_gt = json.load(f)
                with open(dt_path) as f:
                    detections = json.load(f)
            return [
                float(x) for x in evaluate_coco(coco_gt, detections, iou_type=iou_type)["stats"]
            ]
        if library == "pycocotools":
            from pycocotools.coco import COCO
            from pycocotools.cocoeval import COCOeval

            gt = COCO(gt_path)
            evaluator = COCOeval(gt, gt.loadRes(dt_path), iouType=iou_type)
        elif library == "faster-coco-eval":
            from faster_coco_eval import COCO, COCOeval_faster

            gt = COCO(gt_path)
            evaluator = COCOeval_faster(
                gt, gt.loadRes(dt_path), iouType=iou_type, print_function=lambda *a: None
            )
        elif library == "hotcoco":
            import hotcoco

            gt = hotcoco.COCO(gt_path)
            evaluator = hotcoco.COCOeval(gt, gt.load_res(dt_path), iou_type)
        elif library == "ultrafast":
            from ultrafast_pycocotools import COCO, COCOeval

            gt = COCO(gt_path)
            evaluator = COCOeval(gt, gt.loadRes(dt_path), iou_type)
        else:
            raise ValueError(f"unknown library {library!r}; expected one of {COCO_LIBRARIES}")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return [float(x) for x in list(evaluator.stats)[:n_stats]]


def coco_available(library: str) -> bool:
    """Whether ``library`` (one of :data:`COCO_LIBRARIES`) can be imported here."""
    import importlib.util

    module = {
        "pycocotools": "pycocotools",
        "faster-coco-eval": "faster_coco_eval",
        "hotcoco": "hotcoco",
        "ultrafast": "ultrafast_pycocotools",
        "mltutor": "mltutor",
        "mltutor+orjson": "orjson",
    }[library]
    return importlib.util.find_spec(module) is not None


def child_peak_rss(code: str) -> tuple[float, str]:
    """Run ``code`` in a fresh interpreter (this folder on its path) and return its peak resident set
    size in MiB and what it printed after ``RESULT`` on a line of its own (``print("RESULT", value)``).

    tracemalloc sees only Python's allocator, not the memory of a Rust or C++ extension; a fresh
    process per library measures every byte each one touched, interpreter and imports included.
    The peak is Linux's ``VmHWM`` of the child's own address space: ``getrusage``'s ``ru_maxrss``
    would start from the parent's peak, which Linux carries over through ``fork`` and ``exec``.
    """
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    script = (
        f"import sys; sys.path.insert(0, {here!r})\n{code}\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print('\\nRSS', hwm)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    found = {
        line.split(" ", 1)[0]: line.split(" ", 1)[1]
        for line in out.splitlines()
        if line.startswith(("RSS ", "RESULT "))
    }
    return int(found["RSS"]) / 1024, found.get("RESULT", "")


def coco_peak_rss(library: str, gt_path: str, dt_path: str, iou_type: str) -> tuple[float, float]:
    """Peak RSS (MiB) of a fresh process that runs one :func:`coco_from_file`, and the seconds
    that evaluation took there (imports excluded)."""
    peak, line = child_peak_rss(
        "import time, _harness\nt = time.perf_counter()\n"
        f"_harness.coco_from_file({library!r}, {gt_path!r}, {dt_path!r}, {iou_type!r})\n"
        "print('RESULT', time.perf_counter() - t)"
    )
    return peak, float(line)


def _cpu_seconds() -> float:
    """User + system time of this process so far, every thread included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def interleaved_medians(
    fns: dict[str, Callable[[], object]],
    repeats: int,
    repeats_of: dict[str, int] | None = None,
    cpu: dict[str, float] | None = None,
) -> dict[str, float]:
    """Median wall time of each function, the runs taken round-robin (one of each per round, after
    one warm-up round), so that a change in the machine's load hits every library alike.  A function
    given fewer than 3 runs in ``repeats_of`` (a slow one) skips the warm-up; 0 runs skips it.
    ``cpu``, when given, receives the median CPU time (user + system, all threads) of the same runs:
    a library that works on several cores shows more CPU time than wall time."""
    repeats_of = repeats_of or {}
    for name, fn in fns.items():
        if repeats_of.get(name, repeats) >= 3:
            fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    cpu_times: dict[str, list[float]] = {name: [] for name in fns}
    for r in range(repeats):
        for name, fn in fns.items():
            if r >= repeats_of.get(name, repeats):
                continue
            gc.collect()
            cpu_start, start = _cpu_seconds(), time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
            cpu_times[name].append(_cpu_seconds() - cpu_start)
    if cpu is not None:
        cpu.update({name: statistics.median(t) for name, t in cpu_times.items() if t})
    return {name: statistics.median(t) for name, t in times.items() if t}
