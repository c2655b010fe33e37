"""A batch with a sabotaging, a forging, a hanging, a memory-hungry and a malformed submission
among honest ones grades the honest ones as if they were alone (issue 23).

The default batch has 10 submissions, so that ``make test`` stays fast; with ``MLTUTOR_BATCH=30``
the same mix is repeated to 30 (the issue's acceptance run), and ``-s`` prints the grader's
overhead per submission: its time per submission minus the time the same exercises take to
grade in-process (``ex.grade``) on the same answers.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mltutor.grading.batch import chapter_module, submission_code

ROOT = Path(__file__).resolve().parents[1]
RIGHT = ROOT / "solutions" / "03_precision_recall.ipynb"
MODULE = chapter_module("precision_recall")
N = len(MODULE.__all__)
SIZE = int(os.environ.get("MLTUTOR_BATCH", "10"))

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the batch grader is POSIX only")

HONEST = "\n\n".join(submission_code(RIGHT))
EPSILON = (
    HONEST
    + """

def precision_recall(tp, fp, fn, zero_division=0.0):
    return tp / (tp + fp + 1e-6), tp / (tp + fn + 1e-6)
"""
)
BAD = {
    "sabotage": """
import glob, os
for path in glob.glob({folder!r} + "/*"):
    try:
        open(path, "w").close()
    except OSError:
        pass
open("numpy.py", "w").write("raise ImportError")
""",
    "forge": """
import json, os, struct
for fd in map(int, os.listdir("/proc/self/fd")):
    data = json.dumps({"type": "cells_done"}).encode()
    try:
        os.write(fd, struct.pack(">I", len(data)) + data) if fd > 2 else None
    except OSError:
        pass
""",
    "hang": HONEST
    + """
import time
def precision_recall(tp, fp, fn, zero_division=0.0):
    while True:
        try:
            time.sleep(10)
        except BaseException:
            pass
""",
    "hungry": HONEST
    + """
def metrics_at_threshold(y_true, y_score, threshold):
    hog = bytearray(4 * 2**30)
    return 1.0, 1.0, 1.0
hog = bytearray(4 * 2**30)
""",
}


def make_batch(folder: Path, size: int) -> list[tuple[Path, float | None]]:
    """``size`` submissions, honest and not, each with the points it deserves (None: any)."""
    kinds = [
        "alice",
        "sabotage",
        "bob",
        "forge",
        "carol",
        "hang",
        "dave",
        "hungry",
        "malformed",
        "erin",
    ]
    batch = []
    for k in range(size):
        kind = kinds[k % len(kinds)]
        name = f"{k:02d}_{kind}"
        if kind in ("alice", "dave"):
            path = folder / f"{name}.ipynb"
            path.write_bytes(RIGHT.read_bytes())
            batch.append((path, N))
        elif kind in ("bob", "erin"):
            path = folder / f"{name}.py"
            path.write_text(HONEST, encoding="utf-8")
            batch.append((path, N))
        elif kind == "carol":
            path = folder / f"{name}.py"
            path.write_text(EPSILON, encoding="utf-8")
            batch.append((path, N - 1 + 3 / 8))
        elif kind == "malformed":
            path = folder / f"{name}.ipynb"
            path.write_text('{"cells": [{"cell_type": "code", "source": ', encoding="utf-8")
            batch.append((path, 0))
        else:
            path = folder / f"{name}.py"
            path.write_text(
                textwrap.dedent(
                    BAD[kind].format(folder=str(folder)) if kind == "sabotage" else BAD[kind]
                ),
                encoding="utf-8",
            )
            batch.append((path, None))
    return batch


def test_a_hostile_batch_grades_the_honest_submissions_right(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    batch = make_batch(folder, SIZE)
    honest_bytes = {p: p.read_bytes() for p, points in batch if points}
    out_csv, out_json = tmp_path / "marks.csv", tmp_path / "marks.json"
    started = time.monotonic()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mltutor.grading",
            "3",
            *map(str, (p for p, _ in batch)),
            "--csv",
            str(out_csv),
            "--json",
            str(out_json),
            "--time-limit",
            "30",
            "--case-time-limit",
            "0.5",
            "--cell-time-limit",
            "5",
            "--memory-limit",
            "1024",
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wall = time.monotonic() - started
    results = {Path(r["submission"]).name: r for r in json.loads(out_json.read_text())}
    assert len(results) == SIZE
    for path, points in batch:
        r = results[path.name]
        if points is not None:
            assert r["points"] == pytest.approx(points), (path.name, r["errors"], r["exercises"])
    assert results[batch[3][0].name]["points"] == 0  # the forger
    assert all(results[p.name]["points"] < N for p, points in batch if points is None)
    assert {p: p.read_bytes() for p in honest_bytes} == honest_bytes  # nothing was blanked
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert len(rows) == SIZE * (N + 1)
    assert {r["student"] for r in rows} == {p.stem for p, _ in batch}

    # the overhead: seconds per honest submission, less the in-process grading of the answers
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(HONEST, "honest", "exec"), namespace)  # noqa: S102 - our own solutions
    in_process = time.monotonic()
    for name in MODULE.__all__:
        ex = getattr(MODULE, name)
        ex.grade(namespace.get(ex.variable))
    in_process = time.monotonic() - in_process
    honest = [results[p.name]["seconds"] for p, points in batch if points == N]
    per_submission = sum(honest) / len(honest)
    print(
        f"\n{SIZE} submissions in {wall:.1f} s; an honest one takes {per_submission:.3f} s "
        f"(in-process grading of the same answers: {in_process:.3f} s; overhead "
        f"{per_submission - in_process:.3f} s per submission)"
    )
