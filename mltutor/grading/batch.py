"""Batch grading of plain ``.py`` and ``.ipynb`` submissions against one chapter's exercises.

::

    python -m mltutor.grading precision_recall alice.ipynb bob.py --csv marks.csv --json marks.json

Every submission is read once, before any of them runs, and graded in isolation:

* its code runs in a worker process of its own (:mod:`mltutor.grading._worker`), in a fresh
  temporary directory that holds only its copy, with ``python -I`` (neither that directory nor
  ``PYTHON*`` variables reach ``sys.path``, so no file can stand in for ``numpy``), under resource
  limits (address space ``--memory-limit``, CPU time ``--cpu-limit``, file size
  ``--file-size-limit``, processes ``--max-processes``), and with an audit hook that refuses to
  start processes, send signals, call ``ctypes``, open sockets, write outside its directory, or
  read the other submissions and the package's files;
* the worker never sees an expected value and never says whether anything is right: the grading
  process asks it, over a pipe that it opened, for one variable or one call of a function on one
  case at a time, checks every reply (a per-run secret, the request's id, a fixed schema, values
  of plain types only, see :mod:`mltutor.grading._wire`) and compares the values itself, with the
  exercise's reference and its named mistakes (:meth:`mltutor.check.Exercise.grade`);
* the time is measured by the grading process: a case that runs past ``--case-time-limit`` is a
  time-out and the function's remaining cases are not run; a code block (notebook cell) gets
  ``--cell-time-limit``; the whole submission ``--time-limit``.  A worker that overruns is killed
  with its whole process group and every process it detached (its supervisor is a Linux *child
  subreaper*, :mod:`mltutor.grading._supervisor`); the next question goes to a fresh worker,
  which runs the code again without the block that overran or crashed;
* a reply that is malformed, missing or late is that submission's error, never the batch's.

A notebook runs cell by cell (IPython magics, the ``exN.check(...)`` cells and nbgrader's test
cells are left out); a cell that does not parse, raises or runs too long is reported, with its
number, in the submission's ``errors`` and in the row of an exercise whose answer it should have
defined (status ``error``).  The CSV has one row per submission and exercise, and a ``total`` row
each: ``student, submission, exercise, kind, status, passed, total, points, max_points,
misconception, message``; the JSON has the same and every case.

What this does not stop: the worker runs as the user who grades, and the audit hook is a
tripwire, not a sandbox (:pep:`578`): code written against it (through NumPy's raw memory
access, say) may get past it.  For marks that count, grade as a user that can read nothing
else, or in a container; ``book/instructors.md`` lists the guarantees and their limits.

The chapter is named by its module (``precision_recall``), its number (``3`` or ``03``) or a
notebook name (``03_precision_recall``).  POSIX only (the limits and the process handling use
``fork`` and ``resource``).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import json
import os
import pickle
import re
import sys
import time
import types
from pathlib import Path
from typing import Any

import mltutor
from mltutor.check import DEFAULT_TIME_LIMIT, INCORRECT, Exercise
from mltutor.check._exercises import _BaseExercise
from mltutor.exercises import CHAPTERS
from mltutor.grading._sandbox import Limits, Sandbox
from mltutor.grading._solutions import SolutionsNotFound, solutions_folder

__all__ = [
    "chapter_module",
    "grade_submission",
    "grade_submissions",
    "submission_code",
    "submission_blocks",
    "main",
]

_CHECK_CELL = re.compile(r"^\s*ex\d+\.check\(.*\)\s*$")
#: One row of the CSV — the columns, in order.
CSV_FIELDS = (
    "student",
    "submission",
    "exercise",
    "kind",
    "status",
    "passed",
    "total",
    "points",
    "max_points",
    "misconception",
    "message",
)
#: Status of an exercise whose answer could not be graded: the cell that defines it did not
#: parse, raised or ran too long, or the submission's process failed.
ERROR = "error"
#: Status of an exercise left ungraded because the submission used up ``--time-limit``.
TIMEOUT = "timeout"


def chapter_module(chapter: str, solutions: str | Path | None = None):
    """The exercise module for ``"precision_recall"``, ``"3"``, ``"03"``, ``"6c"``, ``"06c"`` or
    ``"03_precision_recall"``."""
    # A number is looked up among the solutions notebooks (``solutions``, else a clone's
    # solutions/); from an installed wheel, without ``solutions``, SolutionsNotFound says how
    # to name them.
    name = str(chapter).strip()
    number = re.fullmatch(r"(\d+)([a-z]?)", name)
    if number:
        # the number (and letter) of a solutions notebook, NN[x]_topic.ipynb
        prefix = f"{int(number[1]):02d}{number[2]}_"
        folder = solutions_folder(
            solutions,
            needed_for=(
                f"to find chapter {name}'s exercises (or give its name, e.g. "
                f"{CHAPTERS[2]}, which needs none)"
            ),
        )
        found = [p.stem[len(prefix) :] for p in folder.glob(f"{prefix}*.ipynb")]
        found = [t for t in found if t in CHAPTERS]
        if len(found) != 1:
            raise ValueError(
                f"chapter must be one of {', '.join(CHAPTERS)} or the number of a "
                f"notebook in solutions/, got {chapter!r}"
            )
        name = found[0]
    elif re.match(r"^\d\d[a-z]?_", name):
        name = name.split("_", 1)[1]
    if name not in CHAPTERS:
        raise ValueError(
            f"chapter must be one of {', '.join(CHAPTERS)} (or its number), got {chapter!r}"
        )
    return importlib.import_module(f"mltutor.exercises.{name}")


def _is_test_cell(cell: dict) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


def _blocks_from_text(text: str, suffix: str) -> list[tuple[str, str]]:
    if suffix == ".py":
        return [("the file", text)]
    nb = json.loads(text)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise ValueError("not a Jupyter notebook (no list of cells)")
    blocks = []
    for k, cell in enumerate(nb.get("cells", [])):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or _is_test_cell(cell):
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if _CHECK_CELL.match(source):
            continue  # the checks print; grading calls them itself
        lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
        blocks.append((f"cell {k + 1}", "\n".join(lines)))
    return blocks


def submission_blocks(path: Path) -> list[tuple[str, str]]:
    """The code blocks of a submission with their labels (``("cell 4", source)``)."""
    path = Path(path)
    if path.suffix not in (".py", ".ipynb"):
        raise ValueError(f"a submission must be a .py or .ipynb file, got {path.name}")
    return _blocks_from_text(path.read_text(encoding="utf-8"), path.suffix)


def submission_code(path: Path) -> list[str]:
    """The code blocks of a submission: one per notebook code cell, or the whole ``.py`` file."""
    return [source for _, source in submission_blocks(path)]


# --------------------------------------------------------------------------------------------
# What the worker is given
# --------------------------------------------------------------------------------------------


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value, protocol=4)
    except Exception:  # noqa: BLE001
        return False
    return True


def _stand_in(module) -> dict:
    """What the worker's ``mltutor.exercises.<topic>`` holds: the exercises' names, the data."""
    data, exercises = {}, {}
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        if isinstance(value, _BaseExercise):
            exercises[name] = (value.title, value.kind, value.variable)
        elif (
            not callable(value)
            and not isinstance(value, types.ModuleType)
            and type(value).__module__ in ("builtins", "numpy")
            and _picklable(value)
        ):
            data[name] = value
    return {"data": data, "exercises": exercises, "all": list(module.__all__)}


def _package_paths() -> list[str]:
    """The package's folder, and the solutions beside it in a clone, which no submission may read."""
    paths = []
    package = Path(mltutor.__file__).parent
    for p in (package, package.parent / "solutions"):
        for form in (os.path.abspath(p), os.path.realpath(p)):
            if form not in paths and os.path.isdir(form):
                paths.append(form)
    return paths


def _runtime_dirs() -> list[str]:
    """Where Python and the installed packages live: a worker must be able to read them."""
    import sysconfig

    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    dirs.update(
        sysconfig.get_paths().get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib")
    )
    dirs.update(p for p in sys.path if p and os.path.isdir(p))
    return sorted({os.path.realpath(d) for d in dirs if d})


def _submission_paths(path: Path) -> list[str]:
    """What no other submission may read of this one: its folder, or, where that folder holds
    Python or its packages (a home folder, say), the file alone."""
    folder = [os.path.abspath(path.parent), os.path.realpath(path.parent)]
    runtime = _runtime_dirs()
    if any(r == f or r.startswith(f.rstrip(os.sep) + os.sep) for f in folder for r in runtime):
        return sorted({os.path.abspath(path), os.path.realpath(path)})
    return sorted(set(folder))


def _function_tasks(module) -> tuple[dict, dict]:
    cases, signatures = {}, {}
    for name in module.__all__:
        ex = getattr(module, name)
        if isinstance(ex, Exercise):
            cases[name] = [c.copy_inputs() for c in ex.cases]
            signatures[name] = ex._signature
    return cases, signatures


# --------------------------------------------------------------------------------------------
# Grading one submission
# --------------------------------------------------------------------------------------------


def _row(ex, status: str, message: str) -> dict:
    total = len(ex.cases) if isinstance(ex, Exercise) else 1
    return {
        "exercise": ex.name,
        "title": ex.title,
        "kind": ex.kind,
        "status": status,
        "passed": 0,
        "total": total,
        "score": 0.0,
        "misconception": None,
        "message": message,
        "cases": [],
    }


def _defining_cell(blocks, cells, variable: str) -> str | None:
    """The first block that failed and names ``variable``: why the answer is missing."""
    if not variable:
        return None
    pattern = re.compile(rf"\b{re.escape(variable)}\b")
    for (label, source), report in zip(blocks, cells):
        if report and report["state"] != "ok" and pattern.search(source):
            return f"{_cell_error(label, report)}, so `{variable}` is not defined"
    return None


_CELL_STATES = {
    "syntax": "does not parse:",
    "raised": "raised",
    "timeout": "was stopped:",
    "crashed": "was stopped:",
}


def _cell_error(label: str, report: dict) -> str:
    """``cell 4 raised ValueError: oops``, ``cell 5 does not parse: SyntaxError: ...``."""
    return f"{label} {_CELL_STATES.get(report['state'], 'failed:')} {report['text']}"


def _function_stand_in():
    """A function, for the messages about a function given where a value was expected."""


def _grade_exercise(ex, box: Sandbox, blocks, limits: Limits) -> dict:
    answer = box.inspect(ex.variable) if ex.variable else {"state": "missing"}
    state = answer["state"]
    if state == "failed":
        return _row(ex, TIMEOUT if box.out_of_time else ERROR, answer["text"])
    if state == "missing":
        why = _defining_cell(blocks, box.cells, ex.variable)
        return _row(ex, ERROR, why) if why else ex.grade(None)
    if state == "placeholder":
        return ex.grade(None)
    if state == "refused":
        message = (
            f"your answer is {answer['text']}, which the grader does not compare: give "
            "numbers, text, tuples or lists of them, or a NumPy array"
        )
        result = ex._result(
            INCORRECT,
            message,
            1,
            False,
            passed=0,
            total=len(ex.cases) if isinstance(ex, Exercise) else 1,
        )
        return ex._grade_dict(result)
    if state == "function":
        if isinstance(ex, Exercise):
            limit = limits.case_time_limit
            row = ex._grade_outcomes(
                lambda i: box.call(ex.variable, ex.name, i, limit), fname=ex.variable, limit=limit
            )
            if box.out_of_time and row["status"] != "correct":
                row["status"] = TIMEOUT
            return row
        return ex.grade(_function_stand_in)
    return ex.grade(answer["value"])


def _summary(
    student: str,
    path: Path,
    exercises: list[dict],
    status: str,
    errors: list[str],
    seconds: float,
    restarts: int = 0,
) -> dict:
    earned = sum(e["score"] for e in exercises)
    return {
        "student": student,
        "submission": os.fspath(path),
        "status": status,
        "errors": errors,
        "points": round(earned, 6),
        "max_points": len(exercises),
        "score": earned / len(exercises) if exercises else 0.0,
        "restarts": max(restarts, 0),
        "seconds": round(seconds, 3),
        "exercises": exercises,
    }


def _all_rows(module, status: str, message: str) -> list[dict]:
    return [_row(getattr(module, name), status, message) for name in module.__all__]


def _grade_text(
    module,
    student: str,
    path: Path,
    text: bytes | None,
    read_error: str | None,
    limits: Limits,
    protected: list[str],
) -> dict:
    started = time.monotonic()
    if read_error is not None:
        return _summary(
            student,
            path,
            _all_rows(module, ERROR, read_error),
            ERROR,
            [read_error],
            time.monotonic() - started,
        )
    try:
        blocks = _blocks_from_text(text.decode("utf-8"), path.suffix)
    except (UnicodeDecodeError, ValueError) as exc:
        why = f"{path.name} could not be read as a {path.suffix} submission: {str(exc)[:200]}"
        return _summary(
            student, path, _all_rows(module, ERROR, why), ERROR, [why], time.monotonic() - started
        )
    cases, signatures = _function_tasks(module)
    stand_in = {module.__name__: _stand_in(module)}
    copy = ("submission" + path.suffix, text)
    with Sandbox(
        blocks,
        cases=cases,
        signatures=signatures,
        modules=stand_in,
        limits=limits,
        protected=protected,
        copy=copy,
    ) as box:
        box.run_blocks()
        rows = []
        for name in module.__all__:
            ex = getattr(module, name)
            try:
                rows.append(_grade_exercise(ex, box, blocks, limits))
            except Exception as exc:  # noqa: BLE001 - never the batch's failure
                rows.append(_row(ex, ERROR, f"internal grading error: {type(exc).__name__}: {exc}"))
        errors = [
            _cell_error(label, report)
            for (label, _), report in zip(blocks, box.cells)
            if report is not None and report["state"] != "ok"
        ]
        errors += box.errors
        if box.failed_to_start:
            errors.append(box.failed_to_start)
        status = TIMEOUT if box.out_of_time else ERROR if box.failed_to_start else "graded"
        return _summary(
            student, path, rows, status, errors, time.monotonic() - started, box.restarts
        )


def _student_names(paths: list[Path]) -> list[str]:
    """Each submission's student: the file's stem, or its folder when stems repeat."""
    stems = [p.stem for p in paths]
    names = []
    for p in paths:
        if stems.count(p.stem) == 1:
            names.append(p.stem)
            continue
        parts = p.resolve().parts[:-1]
        others = [q.resolve().parts[:-1] for q in paths if q.stem == p.stem and q != p]
        label = p.stem
        for depth in range(1, len(parts) + 1):  # the nearest folders that tell them apart
            mine = parts[-depth:]
            if all(o[-depth:] != mine for o in others):
                label = "/".join(mine)
                break
        names.append(label)
    return names


def _limits(
    time_limit,
    case_time_limit,
    cell_time_limit,
    memory_limit,
    cpu_limit,
    file_size_limit,
    max_processes,
) -> Limits:
    return Limits(
        time_limit=time_limit,
        case_time_limit=case_time_limit,
        cell_time_limit=cell_time_limit,
        memory_mb=memory_limit,
        cpu_seconds=cpu_limit,
        file_size_mb=file_size_limit,
        max_processes=max_processes,
    )


def grade_submissions(
    chapter: str,
    paths,
    *,
    time_limit: float = 120.0,
    case_time_limit: float = DEFAULT_TIME_LIMIT,
    cell_time_limit: float = 60.0,
    memory_limit: int | None = 2048,
    cpu_limit: float | None = None,
    file_size_limit: int | None = 16,
    max_processes: int | None = 16,
    students: list[str] | None = None,
) -> list[dict]:
    """Grade each submission in isolation, in order; never raises for a submission's faults.

    Every file is read before the first one runs, so no submission can change another's copy.
    The limits are those of the command line (seconds, MiB; None or 0 for none).  Returns one
    dict per submission: ``student``, ``submission``, ``status`` (``graded``, ``error`` or
    ``timeout``), ``errors``, ``points`` out of ``max_points``, ``score``, ``restarts`` (fresh
    workers needed after an overrun), ``seconds`` and the ``exercises`` (as
    :meth:`mltutor.check.Exercise.grade` returns them, with status ``error`` or ``timeout``
    where an answer could not be graded).
    """
    module = chapter_module(chapter)
    paths = [Path(p).resolve() for p in paths]
    names = list(students) if students is not None else _student_names(paths)
    if len(names) != len(paths):
        raise ValueError("give one student name per submission")
    snapshots = []
    for p in paths:
        if p.suffix not in (".py", ".ipynb"):
            snapshots.append((None, f"a submission must be a .py or .ipynb file, got {p.name}"))
            continue
        try:
            snapshots.append((p.read_bytes(), None))
        except OSError as exc:
            snapshots.append((None, f"{p.name} could not be read: {exc.strerror or exc}"))
    protected = _package_paths()
    for p in paths:
        for form in _submission_paths(p):
            if form not in protected:
                protected.append(form)
    limits = _limits(
        time_limit,
        case_time_limit,
        cell_time_limit,
        memory_limit,
        cpu_limit,
        file_size_limit,
        max_processes,
    )
    results = []
    for name, p, (text, error) in zip(names, paths, snapshots):
        try:
            results.append(_grade_text(module, name, p, text, error, limits, protected))
        except Exception as exc:  # noqa: BLE001 - one submission's failure stays its own
            why = f"internal grading error: {type(exc).__name__}: {exc}"
            results.append(_summary(name, p, _all_rows(module, ERROR, why), ERROR, [why], 0.0))
    return results


def grade_submission(chapter: str, path: str | Path, **kwargs) -> dict:
    """:func:`grade_submissions` for one file (same keywords)."""
    return grade_submissions(chapter, [path], **kwargs)[0]


def _write_csv(results: list[dict], target: Path) -> None:
    with open(target, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in results:
            for e in r["exercises"]:
                writer.writerow(
                    {
                        "student": r["student"],
                        "submission": r["submission"],
                        "exercise": e["exercise"],
                        "kind": e["kind"],
                        "status": e["status"],
                        "passed": e["passed"],
                        "total": e["total"],
                        "points": round(e["score"], 6),
                        "max_points": 1,
                        "misconception": e["misconception"] or "",
                        "message": e["message"],
                    }
                )
            writer.writerow(
                {
                    "student": r["student"],
                    "submission": r["submission"],
                    "exercise": "total",
                    "kind": "",
                    "status": r["status"],
                    "passed": "",
                    "total": "",
                    "points": round(r["points"], 6),
                    "max_points": r["max_points"],
                    "misconception": "",
                    "message": "; ".join(r["errors"])[:1000],
                }
            )


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m mltutor.grading CHAPTER SUBMISSION... [--csv F] [--json F]``.

    Grades each submission in isolation under the limits given and prints one score line per
    submission (and writes the CSV/JSON files asked for); returns 0.
    """
    parser = argparse.ArgumentParser(
        prog="python -m mltutor.grading", description=__doc__.split("\n")[0]
    )
    parser.add_argument("chapter", help="module name, number or notebook name of the chapter")
    parser.add_argument("submissions", nargs="+", type=Path)
    parser.add_argument(
        "--solutions",
        type=Path,
        metavar="DIR",
        help="the solutions/ folder of a clone of the course repository, to find "
        "a chapter given by number (default: the clone mltutor runs from)",
    )
    parser.add_argument("--csv", type=Path, help="write one row per submission and exercise")
    parser.add_argument("--json", type=Path, help="write every result, with per-case details")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=120.0,
        help="seconds per submission, restarts included (default 120)",
    )
    parser.add_argument(
        "--case-time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help=f"seconds per case (default {DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--cell-time-limit",
        type=float,
        default=60.0,
        help="seconds per notebook cell or .py file (default 60)",
    )
    parser.add_argument(
        "--memory-limit",
        type=int,
        default=2048,
        help="MiB of address space per worker, 0 for none (default 2048)",
    )
    parser.add_argument(
        "--cpu-limit",
        type=float,
        default=None,
        help="CPU seconds per worker (default: the time limit)",
    )
    parser.add_argument(
        "--file-size-limit",
        type=int,
        default=16,
        help="MiB per file a worker writes, 0 for none (default 16)",
    )
    parser.add_argument(
        "--max-processes",
        type=int,
        default=16,
        help="processes or threads a worker may add to the user's, 0 for no "
        "limit (default 16; Linux does not apply it to root)",
    )
    args = parser.parse_args(argv)
    try:
        chapter = chapter_module(args.chapter, args.solutions).__name__.rsplit(".", 1)[1]
    except (SolutionsNotFound, ValueError) as error:
        parser.error(str(error))
    results = grade_submissions(
        chapter,
        args.submissions,
        time_limit=args.time_limit,
        case_time_limit=args.case_time_limit,
        cell_time_limit=args.cell_time_limit,
        memory_limit=args.memory_limit or None,
        cpu_limit=args.cpu_limit,
        file_size_limit=args.file_size_limit or None,
        max_processes=args.max_processes or None,
    )
    if args.csv:
        _write_csv(results, args.csv)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    for r in results:
        print(f"{r['student']}: {r['points']:.2f} / {r['max_points']} ({r['status']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
