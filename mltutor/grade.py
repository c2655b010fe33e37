"""Batch grading of plain ``.py`` and ``.ipynb`` submissions against one chapter's exercises.

::

    python -m mltutor.grade precision_recall alice.ipynb bob.py --csv marks.csv --json marks.json

Each submission runs in its own Python process (``python -m mltutor.grade --worker ...``) with a
wall-clock limit (``--time-limit``, default 120 s) on top of the checker's per-case limit
(``--case-time-limit``, default :data:`mltutor.check.DEFAULT_TIME_LIMIT`).  The worker executes
the submission's code (a notebook cell by cell, skipping IPython magics and the ``exN.check(...)``
cells, and going on after a cell that raises), then grades every exercise of the chapter with
:meth:`mltutor.check.Exercise.grade` on the variable or function the exercise names
(``ex.variable``).  A submission that loops, exits or crashes gets zero for what it did not
deliver, and the others are graded all the same.

This is practical, not tamper-proof: the submission runs in the same process as its grading, so
it could, say, overwrite the cases.  For marks that count, use the nbgrader export
(:mod:`mltutor.grading.nbgrader`), whose hidden tests do not ship in the student's copy.

The chapter is named by its module (``precision_recall``), its number (``3`` or ``03``) or a
notebook name (``03_precision_recall``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mltutor.check import DEFAULT_TIME_LIMIT
from mltutor.exercises import CHAPTERS

__all__ = ["chapter_module", "grade_namespace", "grade_submission", "grade_submissions",
           "submission_code", "main"]

_SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"
_CHECK_CELL = re.compile(r"^\s*ex\d+\.check\(.*\)\s*$")
#: One row of the CSV — the columns, in order.
CSV_FIELDS = ("submission", "exercise", "kind", "status", "passed", "total", "score")


def chapter_module(chapter: str):
    """The exercise module for ``"precision_recall"``, ``"3"``, ``"03"``, ``"6c"``, ``"06c"`` or
    ``"03_precision_recall"``."""
    name = str(chapter).strip()
    number = re.fullmatch(r"(\d+)([a-z]?)", name)
    if number:
        # the number (and letter) of a solutions notebook, NN[x]_topic.ipynb
        prefix = f"{int(number[1]):02d}{number[2]}_"
        found = [p.stem[len(prefix):] for p in _SOLUTIONS.glob(f"{prefix}*.ipynb")]
        found = [t for t in found if t in CHAPTERS]
        if len(found) != 1:
            raise ValueError(f"chapter must be one of {', '.join(CHAPTERS)} or the number of a "
                             f"notebook in solutions/, got {chapter!r}")
        name = found[0]
    elif re.match(r"^\d\d[a-z]?_", name):
        name = name.split("_", 1)[1]
    if name not in CHAPTERS:
        raise ValueError(f"chapter must be one of {', '.join(CHAPTERS)} (or its number), "
                         f"got {chapter!r}")
    return importlib.import_module(f"mltutor.exercises.{name}")


def submission_code(path: Path) -> list[str]:
    """The code blocks of a submission: one per notebook code cell, or the whole ``.py`` file."""
    path = Path(path)
    if path.suffix not in (".py", ".ipynb"):
        raise ValueError(f"a submission must be a .py or .ipynb file, got {path.name}")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return [text]
    nb = json.loads(text)
    blocks = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = "".join(cell.get("source", ""))
        if _CHECK_CELL.match(source):
            continue  # the checks print; grading calls them itself
        lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
        blocks.append("\n".join(lines))
    return blocks


def _run_blocks(blocks: list[str], name: str) -> tuple[dict, list[str]]:
    """Execute the blocks in one namespace; return it and the errors (a block's error ends it)."""
    namespace: dict[str, Any] = {"__name__": "__submission__"}
    errors = []
    for k, block in enumerate(blocks):
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                exec(compile(block, f"{name} block {k + 1}", "exec"), namespace)  # noqa: S102
        except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt included
            errors.append(f"block {k + 1}: {type(exc).__name__}: {str(exc)[:200]}")
    return namespace, errors


def grade_namespace(module, namespace: dict) -> list[dict]:
    """Grade every exercise of ``module`` on the answers found in ``namespace``."""
    rows = []
    for name in module.__all__:
        ex = getattr(module, name)
        answer = namespace.get(ex.variable) if ex.variable else None
        rows.append(ex.grade(answer))
    return rows


def _summary(path: Path, exercises: list[dict], status: str, errors: list[str]) -> dict:
    earned = sum(e["score"] for e in exercises)
    return {"submission": os.fspath(path), "status": status, "errors": errors,
            "points": round(earned, 6), "max_points": len(exercises),
            "score": earned / len(exercises) if exercises else 0.0, "exercises": exercises}


def _worker(chapter: str, path: Path, result_file: Path, case_time_limit: float) -> int:
    module = chapter_module(chapter)
    for name in module.__all__:
        ex = getattr(module, name)
        if hasattr(ex, "time_limit"):
            ex.time_limit = case_time_limit
    namespace, errors = _run_blocks(submission_code(path), path.name)
    result = _summary(path, grade_namespace(module, namespace), "graded", errors)
    result_file.write_text(json.dumps(result), encoding="utf-8")
    return 0


def _zeros(module, path: Path, status: str, error: str) -> dict:
    exercises = []
    for name in module.__all__:
        ex = getattr(module, name)
        total = len(ex.cases) if hasattr(ex, "cases") else 1
        exercises.append({"exercise": ex.name, "title": ex.title, "kind": ex.kind,
                          "status": status, "passed": 0, "total": total, "score": 0.0,
                          "misconception": None, "message": error, "cases": []})
    return _summary(path, exercises, status, [error])


def grade_submission(chapter: str, path: str | Path, *, time_limit: float = 120.0,
                     case_time_limit: float = DEFAULT_TIME_LIMIT) -> dict:
    """Grade one submission in a fresh Python process; never raises for the submission's faults."""
    path = Path(path).resolve()
    module = chapter_module(chapter)
    with tempfile.TemporaryDirectory(prefix="mltutor-grade-") as tmp:
        result_file = Path(tmp) / "result.json"
        env = dict(os.environ, MLTUTOR_STRICT="0", MPLBACKEND="Agg")
        command = [sys.executable, "-m", "mltutor.grade", "--worker", module.__name__.rsplit(".", 1)[1],
                   os.fspath(path), "--result-file", os.fspath(result_file),
                   "--case-time-limit", str(case_time_limit)]
        try:
            done = subprocess.run(command, cwd=path.parent, env=env, capture_output=True,
                                  text=True, timeout=time_limit, check=False)
        except subprocess.TimeoutExpired:
            return _zeros(module, path, "timeout", f"the submission ran over {time_limit:g} s")
        if not result_file.exists():
            tail = (done.stderr or done.stdout or "").strip().splitlines()[-1:] or ["no output"]
            return _zeros(module, path, "error",
                          f"the grading process ended with status {done.returncode}: {tail[0][:200]}")
        return json.loads(result_file.read_text(encoding="utf-8"))


def grade_submissions(chapter: str, paths, **kwargs) -> list[dict]:
    """:func:`grade_submission` for each path, in order."""
    return [grade_submission(chapter, p, **kwargs) for p in paths]


def _write_csv(results: list[dict], target: Path) -> None:
    with open(target, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in results:
            for e in r["exercises"]:
                writer.writerow({"submission": r["submission"], **{k: e[k] for k in CSV_FIELDS[1:]}})
            writer.writerow({"submission": r["submission"], "exercise": "total", "kind": "",
                             "status": r["status"], "passed": "", "total": r["max_points"],
                             "score": round(r["points"], 6)})


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m mltutor.grade CHAPTER SUBMISSION... [--csv F] [--json F]``.

    Grades each submission in its own process under ``--time-limit`` seconds and prints one
    score line per submission (and writes the CSV/JSON files asked for); returns 0.
    """
    parser = argparse.ArgumentParser(prog="python -m mltutor.grade", description=__doc__.split("\n")[0])
    parser.add_argument("chapter", help="module name, number or notebook name of the chapter")
    parser.add_argument("submissions", nargs="+", type=Path)
    parser.add_argument("--csv", type=Path, help="write one row per submission and exercise")
    parser.add_argument("--json", type=Path, help="write every result, with per-case details")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds per submission (default 120)")
    parser.add_argument("--case-time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                        help=f"seconds per case (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--result-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(args.chapter, args.submissions[0], args.result_file, args.case_time_limit)
    results = grade_submissions(args.chapter, args.submissions, time_limit=args.time_limit,
                                case_time_limit=args.case_time_limit)
    if args.csv:
        _write_csv(results, args.csv)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    for r in results:
        print(f"{r['submission']}: {r['points']:.2f} / {r['max_points']} ({r['status']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
