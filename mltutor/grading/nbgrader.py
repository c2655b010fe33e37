"""Export a chapter's exercises as an nbgrader assignment, with hidden tests that hold.

::

    python -m mltutor.grading.nbgrader COURSE_DIR 3 7        # chapters 3 and 7
    cd COURSE_DIR && nbgrader generate_assignment ch03_precision_recall
    # ... collect the students' notebooks into submitted/<student>/ch03_precision_recall/
    python -m mltutor.grading.nbgrader check-submissions COURSE_DIR ch03_precision_recall
    nbgrader autograde ch03_precision_recall && nbgrader generate_feedback ch03_precision_recall

writes ``COURSE_DIR/source/chNN_topic/NN_topic.ipynb`` (and ``nbgrader_config.py`` if there is
none) from ``solutions/NN_topic.ipynb``:

* the student's copy is titled as exercises (``# 3. ...: exercises``); its instructions do not
  offer ``exN.solution()`` or point to ``workspace/``, and the exercises it imports are graded
  copies (:func:`graded_exercises`), whose ``solution()`` says that none is shown;
* each code cell with ``### BEGIN SOLUTION`` becomes an nbgrader *solution* cell (nbgrader
  replaces the solution by ``raise NotImplementedError()`` in the release);
* each check cell ``exN.check(answer)`` becomes a locked *autograder test* cell worth one point:
  its visible part runs the public check (:func:`require`, which also refuses the package's own
  reference function), and its ``### BEGIN HIDDEN TESTS`` part, which nbgrader strips from the
  student's copy and puts back when it autogrades, carries the expected values, computed at
  export time by the reference, of the public cases *and* of hidden cases: the public cases with
  their samples shuffled (the same permutation for every array of the case; a square matrix,
  such as a confusion matrix, gets its classes relabelled on both axes);
* the Markdown discussions (``<!-- BEGIN SOLUTION -->``) are dropped.

The verdict of every test cell comes from :class:`IsolatedTests`, an autograde preprocessor that
the exported ``nbgrader_config.py`` adds after nbgrader's ``Execute``: it runs the student's cells
again in an isolated worker (the batch grader's, :mod:`mltutor.grading.batch`), calls the student's
functions on the public and the hidden cases there, compares in nbgrader's own process with
expected values that it computes from the installed package (those of the test cell's hidden
part), and replaces the test cell's outputs with that verdict.  Nothing the student's cells do in nbgrader's
kernel (patching :func:`hidden_check`, ``ex.reference`` or ``compare``, silencing errors) reaches
it.  The same config makes ``nbgrader generate_feedback`` strip the hidden tests
(``ClearHiddenTests``), so the feedback shows the verdicts and not the hidden cases.

nbgrader runs every submission in a fresh kernel, with the per-cell time limit that
``nbgrader_config.py`` sets (``c.Execute.timeout``, 60 s here).  The release carries no solution
and no hidden case; the hidden cases stay in the course directory's ``source`` folder and
gradebook.  The package that the students install still holds the reference solutions
(``mltutor.exercises``); ``book/instructors.md`` says what that allows and how to grade without it.
"""

from __future__ import annotations

import argparse
import base64
import copy
import importlib
import json
import os
import pickle
import re
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, compare
from mltutor.check._compare import _plain, _Refused

__all__ = [
    "export_chapter",
    "hidden_cases",
    "hidden_check",
    "require",
    "graded_exercises",
    "ungradable_submissions",
    "IsolatedTests",
    "main",
]

REPO = Path(__file__).resolve().parents[2]
CHECK_CELL = re.compile(r"^\s*(ex\d+)\.check\((\w+)\)\s*$")
MD_BEGIN = re.compile(r"^\s*<!--\s*BEGIN SOLUTION\s*-->\s*$")
MD_END = re.compile(r"^\s*<!--\s*END SOLUTION\s*-->\s*$")
CONFIG = """c = get_config()  # noqa: F821 - nbgrader's config object
c.CourseDirectory.course_id = "mltutor"
c.Execute.timeout = 60              # seconds per cell: a looping submission stops there
c.Execute.interrupt_on_timeout = True

# mltutor: every test cell's verdict comes from an isolated worker, not from the student's kernel
from nbgrader.converters.autograde import Autograde
from nbgrader.converters.generate_feedback import GenerateFeedback
from nbgrader.preprocessors import ClearHiddenTests, Execute, GetGrades
from mltutor.grading.nbgrader import IsolatedTests

_steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
c.Autograde.autograde_preprocessors = (_steps[:_steps.index(Execute) + 1] + [IsolatedTests]
                                       + _steps[_steps.index(Execute) + 1:])
c.IsolatedTests.enabled = True
c.IsolatedTests.case_time_limit = 5     # seconds per case of a student's function
c.IsolatedTests.cell_time_limit = 60    # seconds per cell, in the isolated worker
c.IsolatedTests.time_limit = 300        # seconds per notebook, restarts included
c.IsolatedTests.memory_limit = 2048     # MiB of address space for the worker

# mltutor: the feedback shows the verdicts, not the hidden tests
_steps = list(GenerateFeedback.class_traits()["preprocessors"].default())
c.GenerateFeedback.preprocessors = (_steps[:_steps.index(GetGrades) + 1] + [ClearHiddenTests]
                                    + _steps[_steps.index(GetGrades) + 1:])
"""
#: The line of ``nbgrader_config.py`` that says the isolated tests are in use.
CONFIG_MARK = "from mltutor.grading.nbgrader import IsolatedTests"
IMPORT_LINE = re.compile(r"^from mltutor\.exercises\.(\w+) import (.+)$")
_N_SHUFFLES = 2  # hidden variants per public case


# --------------------------------------------------------------------------------------------
# What the test cells call
# --------------------------------------------------------------------------------------------


def _from_the_package(answer: Any) -> bool:
    module = getattr(answer, "__module__", "") or ""
    return callable(answer) and isinstance(module, str) and module.startswith("mltutor")


def graded_exercises(chapter: str, *names: str) -> tuple:
    """Graded copies (:meth:`mltutor.check.Exercise.graded_copy`) of a chapter's exercises.

    ``ex1, ex2 = graded_exercises("precision_recall", "ex1", "ex2")``: the same checks and hints
    as ``from mltutor.exercises.precision_recall import ex1, ex2``, and a ``solution()`` that says
    no solution is shown.  Without names, every exercise of the chapter, in order.
    """
    from mltutor.grading.batch import chapter_module

    module = chapter_module(chapter)
    names = names or tuple(module.__all__)
    copies = tuple(getattr(module, n).graded_copy() for n in names)
    return copies[0] if len(copies) == 1 else copies


def require(ex, answer: Any) -> None:
    """The visible test: print the check's message and fail unless the answer is correct."""
    if _from_the_package(answer):
        raise AssertionError(f"{ex.name}: pass your own function, not one from mltutor")
    result = ex.check(answer, strict=False)
    print(result)
    assert result.correct, str(result)


def _pack(obj: Any) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(obj, protocol=4), 9)).decode("ascii")


def _unpack(text: str) -> Any:
    return pickle.loads(zlib.decompress(base64.b64decode(text)))  # noqa: S301 - our own cell


def _choice_ok(answer: Any, right: str) -> bool:
    try:
        answer = _plain(answer)
    except _Refused:
        return False
    return isinstance(answer, str) and answer.strip().lower().strip("()") == right


def hidden_check(answer: Any, blob: str) -> None:
    """The hidden test as it runs in the student's kernel: the answer against the cell's values.

    Values are compared after conversion to plain types (see :func:`mltutor.check.compare`).
    In the student's kernel this can still be patched by the student's own cells; the verdict
    that counts comes from :class:`IsolatedTests`.
    """
    spec = _unpack(blob)
    if spec["kind"] == "choice":
        assert _choice_ok(answer, spec["answer"]), "the hidden test does not accept this choice"
        return
    if spec["kind"] == "value":
        problem = compare(
            spec["answer"], answer, rtol=spec["rtol"], atol=spec["atol"], names=spec["outputs"]
        )
        assert problem is None, f"hidden test: {problem}"
        return
    assert callable(answer) and not _from_the_package(answer), "hidden test: not your function"
    for k, (args, kwargs, expected) in enumerate(spec["cases"]):
        got = answer(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        problem = compare(
            expected, got, rtol=spec["rtol"], atol=spec["atol"], names=spec["outputs"]
        )
        assert problem is None, f"hidden case {k + 1} of {len(spec['cases'])} fails"


# --------------------------------------------------------------------------------------------
# Hidden cases
# --------------------------------------------------------------------------------------------


def _shuffled(values: list[Any], rng: np.random.Generator) -> list[Any] | None:
    """The values with their samples reordered consistently, or None if nothing can be shuffled."""
    arrays = [v for v in values if isinstance(v, np.ndarray) and v.ndim >= 1]
    square = {v.shape[0] for v in arrays if v.ndim == 2 and v.shape[0] == v.shape[1] > 1}
    lengths = [v.shape[0] for v in arrays if not (v.ndim == 2 and v.shape[0] in square)]
    n = max(lengths, default=0)
    if n < 5 and not square:
        return None
    perms = {size: rng.permutation(size) for size in square}
    if n >= 5:
        perms.setdefault(n, rng.permutation(n))
    out = []
    for v in values:
        if (
            isinstance(v, np.ndarray)
            and v.ndim == 2
            and v.shape[0] in square
            and v.shape[0] == v.shape[1]
        ):
            p = perms[v.shape[0]]
            out.append(v[np.ix_(p, p)])  # relabel the classes on both axes
        elif isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == n and n >= 5:
            out.append(v[perms[n]])  # reorder the samples
        else:
            out.append(v)
    return out


def hidden_cases(ex: Exercise, seed: int = 0) -> list[tuple[tuple, dict, Any]]:
    """The public cases and their shuffled variants, with the reference's answers."""
    rng = np.random.default_rng([seed, *map(ord, ex.name)])
    cases = []
    for c in ex.cases:
        args, kwargs = c.copy_inputs()
        cases.append((args, kwargs, ex.reference(*copy.deepcopy(args), **copy.deepcopy(kwargs))))
        keys = list(kwargs)
        for _ in range(_N_SHUFFLES):
            values = _shuffled([*args, *kwargs.values()], rng)
            if values is None:
                break
            a, kw = tuple(values[: len(args)]), dict(zip(keys, values[len(args) :]))
            try:
                expected = ex.reference(*copy.deepcopy(a), **copy.deepcopy(kw))
            except Exception:  # noqa: BLE001 - a variant the reference refuses is left out
                continue
            cases.append((a, kw, expected))
    return cases


def _hidden_spec(ex) -> dict:
    if isinstance(ex, ChoiceExercise):
        return {"kind": "choice", "answer": ex.answer}
    outputs = getattr(ex, "outputs", None)
    if isinstance(ex, Exercise):
        return {
            "kind": "function",
            "cases": hidden_cases(ex),
            "rtol": ex.rtol,
            "atol": ex.atol,
            "outputs": outputs,
        }
    return {
        "kind": "value",
        "answer": ex.answer,
        "rtol": ex.rtol,
        "atol": ex.atol,
        "outputs": outputs,
    }


# --------------------------------------------------------------------------------------------
# The export
# --------------------------------------------------------------------------------------------


def _strip_markdown_solutions(source: str) -> str:
    kept, inside = [], False
    for line in source.splitlines():
        if MD_BEGIN.match(line):
            inside = True
        elif MD_END.match(line):
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept).strip("\n")


_SOLUTION_CALL = re.compile(r"`?ex\d+\.solution\(\)`?")
_LEARNER_ONLY = ("workspace/", "make lab")
# What an exam copy leaves out as well: there is no check to run in it
_CHECK_WORDS = ("hint()", ".check", "check cell", "run the check", "✅", "❌", "⏳")
EXAM_NOTE = (
    "This is an exam copy: it has no checks to run. Each exercise is graded, with hidden "
    "tests, after you hand the notebook in."
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(❌✅⏳\[])")


def _student_sentences(text: str, leave_out: tuple[str, ...] = _LEARNER_ONLY) -> str:
    """``text`` without what only the learner's copy offers: ``exN.solution()``, ``workspace/``."""
    if _SOLUTION_CALL.search(text):
        # "...; `ex1.solution()` shows our solution." -> "..."
        text = re.sub(r";\s*`?ex\d+\.solution\(\)`?[^.;]*(\.|$)", ".", text, flags=re.S)
    if _CHECK_WORDS[0] in leave_out:  # an exam copy: the clauses about running the checks
        text = re.sub(r",? then run the cell and the check cell below it", "", text)
        text = re.sub(r" and run the check[^.]*", "", text)
    sentences = _SENTENCE_END.split(text)
    kept = [
        t for t in sentences if not _SOLUTION_CALL.search(t) and not any(w in t for w in leave_out)
    ]
    if len(kept) == 1 and kept[0].endswith("?") and len(kept[0].split()) <= 3:
        kept = []  # "Stuck?" without its answer
    return " ".join(kept).strip()


def _student_markdown(source: str, exam: bool = False) -> str:
    """The instructions as the graded copy shows them (see :func:`_student_sentences`).

    An exam copy also leaves out what is said about checks and hints.
    """
    leave_out = _LEARNER_ONLY + (_CHECK_WORDS if exam else ())
    out: list[str] = []
    blocks: list[list[str]] = []
    for line in source.splitlines():  # list items and paragraphs, each with its lines
        starts_item = re.match(r"^\s*[-*] ", line)
        if not line.strip():
            blocks.append([line])
            blocks.append([])
        elif starts_item or not blocks or not blocks[-1]:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    for block in blocks:
        if not block:
            continue
        text = "\n".join(block)
        if (
            not _SOLUTION_CALL.search(text) and not any(w in text for w in leave_out)
        ) or text.lstrip().startswith(("#", "|", "```", "$$")):
            out.append(text)
            continue
        bullet = re.match(r"^(\s*[-*] )", text)
        body = " ".join(ln.strip() for ln in text.splitlines())
        if bullet:
            body = body[len(bullet.group(1).strip()) :].strip()
        body = _student_sentences(body, leave_out)
        if body:
            out.append((bullet.group(1) if bullet else "") + body)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")


def _exercise_title(source: str) -> str:
    """``# N. Topic: solutions`` becomes ``# N. Topic: exercises`` (as in ``make exercises``)."""
    first, sep, rest = source.partition("\n")
    if first.startswith("# ") and first.rstrip().endswith(": solutions"):
        first = first.rstrip()[: -len("solutions")] + "exercises"
    return first + sep + rest


def _literal(value: Any) -> str:
    """Python source that rebuilds a chapter's data (NumPy arrays, numbers, lists, dicts)."""
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r}, dtype=np.{value.dtype.name})"
    if isinstance(value, np.generic):
        return f"np.{value.dtype.name}({value.item()!r})"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(v) for v in value)
        return (
            f"[{inner}]"
            if isinstance(value, list)
            else f"({inner}{',' if len(value) == 1 else ''})"
        )
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise TypeError(f"cannot write a {type(value).__name__} as a literal")


def _graded_imports(source: str, exam: bool = False) -> str:
    """``from mltutor.exercises.topic import ex1, ex2`` -> graded copies of ex1 and ex2.

    In an exam copy the exercises are not imported at all and the chapter's data is written out,
    so the notebook needs no ``mltutor``.
    """
    lines = []
    for line in source.splitlines():
        m = IMPORT_LINE.match(line.strip())
        if not m or "(" in m.group(2):
            lines.append(line)
            continue
        names = [n.strip() for n in m.group(2).split(",") if n.strip()]
        exercises = [n for n in names if re.fullmatch(r"ex\d+", n)]
        others = [n for n in names if n not in exercises]
        module = importlib.import_module(f"mltutor.exercises.{m.group(1)}")
        if not exercises and not exam:
            lines.append(line)
            continue
        if exam:
            for name in others:
                lines.append(f"{name} = {_literal(getattr(module, name))}")
            continue
        if others:
            lines.append(f"from mltutor.exercises.{m.group(1)} import {', '.join(others)}")
        quoted = (
            ""
            if exercises == list(module.__all__)
            else ", " + ", ".join(f'"{n}"' for n in exercises)
        )
        lines.append("from mltutor.grading.nbgrader import graded_exercises")
        lines.append(
            f"{', '.join(exercises)}{',' if len(exercises) == 1 else ''} = "
            f'graded_exercises("{m.group(1)}"{quoted})'
        )
    return "\n".join(lines)


def _meta(grade_id: str, *, solution=False, grade=False, locked=False, points=0) -> dict:
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = points
    return meta


def _test_source(module_name: str, ex, answer: str, exam: bool = False) -> str:
    visible = (
        "# graded with hidden tests when you hand the notebook in\n"
        if exam
        else f"from mltutor.grading.nbgrader import require\nrequire({ex.name}, {answer})\n"
    )
    return (
        visible + "### BEGIN HIDDEN TESTS\n"
        "from mltutor.grading.nbgrader import hidden_check\n"
        f'hidden_check({answer}, "{_pack(_hidden_spec(ex))}")\n'
        "### END HIDDEN TESTS"
    )


def chapter_notebook(chapter: str, solutions_dir: Path | None = None) -> Path:
    """``solutions/NN_topic.ipynb`` (or ``NNc_topic.ipynb``) for a module name or a number.

    ``solutions_dir`` defaults to the ``solutions/`` of the clone the package runs from; an
    installed wheel has none, and :class:`~mltutor.grading._solutions.SolutionsNotFound` says so.
    """
    from mltutor.grading._solutions import solutions_folder
    from mltutor.grading.batch import chapter_module

    solutions_dir = solutions_folder(
        solutions_dir, needed_for="to export a chapter: each assignment is made from one"
    )
    topic = chapter_module(chapter, solutions_dir).__name__.rsplit(".", 1)[1]
    found = sorted(solutions_dir.glob(f"[0-9][0-9]*_{topic}.ipynb"))  # 07c_... too
    if not found:
        raise FileNotFoundError(f"no solutions notebook for {topic} in {solutions_dir}")
    return found[0]


def export_chapter(
    chapter: str, course: Path, solutions_dir: Path | None = None, *, exam: bool = False
) -> Path:
    """Write the nbgrader source notebook of one chapter; return its path.

    Writes ``nbgrader_config.py`` beside ``source/`` when there is none; an existing one is left
    as it is, with a warning on standard error if it does not use :class:`IsolatedTests`.

    With ``exam=True`` the student's copy needs no ``mltutor``: it imports no exercise, holds
    the chapter's data written out, and its test cells have no visible check, only the hidden
    tests (the instructions about checks and hints are left out too).  The students can then work
    in an environment without the package and its reference solutions; the instructor grades
    with the package installed.
    """
    notebook = chapter_notebook(chapter, solutions_dir)
    topic = notebook.stem.split("_", 1)[1]
    module = importlib.import_module(f"mltutor.exercises.{topic}")
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cells = []
    first_markdown = True
    for k, cell in enumerate(nb["cells"]):
        source = "".join(cell["source"])
        cell = {
            key: v for key, v in cell.items() if key not in ("outputs", "execution_count", "id")
        }
        cell["metadata"] = dict(cell.get("metadata", {}))
        if cell["cell_type"] == "markdown":
            source = _strip_markdown_solutions(source)
            if first_markdown:
                source, first_markdown = _exercise_title(source), False
                if exam:
                    title, _, rest = source.partition("\n")
                    source = f"{title}\n\n{EXAM_NOTE}\n{rest}"
            source = _student_markdown(source, exam)
            if not source.strip():
                continue
        elif cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
            m = CHECK_CELL.match(source)
            if m:
                ex = getattr(module, m.group(1))
                source = _test_source(topic, ex, m.group(2), exam)
                cell["metadata"]["nbgrader"] = _meta(
                    f"test_{ex.name}", grade=True, locked=True, points=1
                )
            elif "### BEGIN SOLUTION" in source:
                cell["metadata"]["nbgrader"] = _meta(f"answer_{k}", solution=True)
            else:
                source = _graded_imports(source, exam)
        cell["source"] = source
        cell["id"] = f"mltutor-{k}"
        cells.append(cell)
    nb["cells"] = cells
    nb.setdefault("metadata", {})["mltutor"] = {"chapter": topic, "exam": exam}
    name = f"ch{notebook.stem.split('_', 1)[0]}_{topic}"  # ch07c_masks_...
    target = Path(course) / "source" / name / notebook.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    config = Path(course) / "nbgrader_config.py"
    if not config.exists():
        config.write_text(CONFIG, encoding="utf-8")
    elif CONFIG_MARK not in config.read_text(encoding="utf-8"):
        print(
            f"warning: {config} does not use mltutor's IsolatedTests: its test cells would be "
            "judged in the student's kernel, which the student's code can patch. Add the "
            "lines of mltutor.grading.nbgrader.CONFIG to it.",
            file=sys.stderr,
        )
    return target


# --------------------------------------------------------------------------------------------
# Autograding out of the student's kernel
# --------------------------------------------------------------------------------------------


def _nbgrader_meta(cell) -> dict:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


_TEST_ID = re.compile(r"^test_(ex\d+)$")


def _blocks(nb) -> list[tuple[str, str]]:
    """The code the student's notebook runs, test cells left out, magics blanked."""
    from mltutor.grading.batch import _blocks_from_text

    return _blocks_from_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": c.get("cell_type"),
                        "source": c.get("source", ""),
                        "metadata": c.get("metadata", {}),
                    }
                    for c in nb["cells"]
                ]
            }
        ),
        ".ipynb",
    )


def _topic(nb, resources: dict) -> str | None:
    """The chapter of an autograded notebook, from its name (nbgrader's notebook id)."""
    from mltutor.exercises import CHAPTERS

    name = (resources.get("nbgrader", {}) or {}).get("notebook") or ""
    topic = name.split("_", 1)[1] if "_" in name else name
    if topic in CHAPTERS:
        return topic
    return None


def _hidden_verdict(ex, spec: dict, box, limits) -> tuple[bool, str]:
    """Run the hidden part of one test in the worker: (passed, text for the feedback)."""
    if spec["kind"] == "function":
        n = len(spec["cases"])
        task = f"{ex.name}:hidden"
        for k, (_, _, expected) in enumerate(spec["cases"]):
            outcome = box.call(ex.variable, task, k, limits.case_time_limit)
            if outcome[0] != "ok":
                return False, f"hidden case {k + 1} of {n} fails"
            problem = compare(
                expected, outcome[1], rtol=spec["rtol"], atol=spec["atol"], names=spec["outputs"]
            )
            if problem is not None:
                return False, f"hidden case {k + 1} of {n} fails"
        return True, f"all {n} hidden cases pass"
    answer = box.inspect(ex.variable)
    if answer["state"] != "value":
        return False, "the hidden test does not accept this answer"
    if spec["kind"] == "choice":
        ok = _choice_ok(answer["value"], spec["answer"])
    else:
        ok = (
            compare(
                spec["answer"],
                answer["value"],
                rtol=spec["rtol"],
                atol=spec["atol"],
                names=spec["outputs"],
            )
            is None
        )
    return ok, "the hidden test passes" if ok else "the hidden test does not accept this value"


def grade_notebook(nb, topic: str, *, limits=None, protected=()) -> dict[str, tuple[bool, str]]:
    """Every test cell's verdict for a notebook in nbgrader's format: ``{grade_id: (passed, text)}``.

    The student's cells run in an isolated worker (:class:`mltutor.grading._sandbox.Sandbox`); the
    expected values come from the installed package (the public cases, and the hidden cases that
    :func:`hidden_cases` derives from them with a fixed seed), never from the notebook.
    """
    from mltutor.check import CheckResult
    from mltutor.grading._sandbox import Limits, Sandbox
    from mltutor.grading.batch import _grade_exercise, _package_paths, _stand_in

    module = importlib.import_module(f"mltutor.exercises.{topic}")
    limits = limits or Limits(time_limit=300.0)
    tests = {}
    for cell in nb["cells"]:
        meta = _nbgrader_meta(cell)
        m = _TEST_ID.match(str(meta.get("grade_id", "")))
        if cell.get("cell_type") == "code" and meta.get("grade") and m and hasattr(module, m[1]):
            tests[meta["grade_id"]] = getattr(module, m[1])
    if not tests:
        return {}
    cases, signatures, specs = {}, {}, {}
    for ex in tests.values():
        specs[ex.name] = _hidden_spec(ex)
        if isinstance(ex, Exercise):
            cases[ex.name] = [c.copy_inputs() for c in ex.cases]
            signatures[ex.name] = signatures[f"{ex.name}:hidden"] = ex._signature
            cases[f"{ex.name}:hidden"] = [(a, kw) for a, kw, _ in specs[ex.name]["cases"]]
    blocks = _blocks(nb)
    verdicts = {}
    with Sandbox(
        blocks,
        cases=cases,
        signatures=signatures,
        modules={module.__name__: _stand_in(module)},
        limits=limits,
        protected=list(_package_paths()) + [os.fspath(p) for p in protected],
    ) as box:
        box.run_blocks()
        for grade_id, ex in tests.items():
            try:
                row = _grade_exercise(ex, box, blocks, limits)
                shown = (
                    str(CheckResult(row["status"], row["message"]))
                    if row["status"] in ("correct", "incorrect", "not attempted")
                    else f"{row['status']}: {row['message']}"
                )
                if row["status"] != "correct":
                    verdicts[grade_id] = (False, shown)
                    continue
                ok, hidden = _hidden_verdict(ex, specs[ex.name], box, limits)
                verdicts[grade_id] = (ok, f"{shown}\nHidden tests: {hidden}.")
            except Exception as exc:  # noqa: BLE001 - this cell fails, the others are graded
                verdicts[grade_id] = (False, f"grading error: {type(exc).__name__}: {exc}")
    return verdicts


try:
    from nbconvert.preprocessors import Preprocessor as _Preprocessor
    from traitlets import Bool, Float, Integer
except ImportError:  # nbconvert is not installed: no nbgrader route
    _Preprocessor = object

    class _Default(float):
        def tag(self, **_):
            return float(self)

    def Float(default, **_):  # noqa: N802 - stands in for traitlets.Float
        return _Default(default)

    Integer = Bool = Float


class IsolatedTests(_Preprocessor):
    """An nbgrader autograde step: every mltutor test cell judged out of the student's kernel.

    Added after ``Execute`` by the exported ``nbgrader_config.py``.  For each autograded notebook
    it runs the student's code cells again in the batch grader's isolated worker, grades each
    exercise there on the public cases and on the hidden ones (:func:`grade_notebook`), and
    replaces the outputs of each test cell with that verdict: the check's message, and an
    ``AssertionError`` when the public or the hidden cases fail (nbgrader gives the cell's point
    only when its outputs hold no error).
    """

    enabled = Bool(True, help="whether nbgrader runs this step (it does by default)").tag(
        config=True
    )
    time_limit = Float(300.0, help="seconds per notebook, restarts included").tag(config=True)
    case_time_limit = Float(5.0, help="seconds per case of a student's function").tag(config=True)
    cell_time_limit = Float(60.0, help="seconds per cell in the isolated worker").tag(config=True)
    memory_limit = Integer(2048, help="MiB of address space for the worker").tag(config=True)

    def preprocess(self, nb, resources):
        """Replace the outputs of the notebook's mltutor test cells; return ``nb, resources``."""
        from mltutor.grading._sandbox import Limits

        topic = _topic(nb, resources)
        tests = [
            c
            for c in nb.cells
            if c.get("cell_type") == "code"
            and _nbgrader_meta(c).get("grade")
            and _TEST_ID.match(str(_nbgrader_meta(c).get("grade_id", "")))
        ]
        if not tests or (topic is None and "mltutor" not in nb.get("metadata", {})):
            return nb, resources  # not a notebook exported by mltutor
        limits = Limits(
            time_limit=self.time_limit,
            case_time_limit=self.case_time_limit,
            cell_time_limit=self.cell_time_limit,
            memory_mb=self.memory_limit or None,
        )
        if topic is None:
            verdicts = {}
        else:
            protected = [os.getcwd()]
            path = (resources.get("metadata", {}) or {}).get("path")
            if path:
                protected.append(os.path.abspath(path))
            verdicts = grade_notebook(nb, topic, limits=limits, protected=protected)
        from nbformat import v4

        for cell in tests:
            grade_id = _nbgrader_meta(cell).get("grade_id")
            ok, text = verdicts.get(
                grade_id, (False, "mltutor could not tell which chapter this notebook belongs to")
            )
            outputs = [v4.new_output("stream", name="stdout", text=text + "\n")]
            if not ok:
                reason = text.splitlines()[-1]
                outputs.append(
                    v4.new_output(
                        "error",
                        ename="AssertionError",
                        evalue=reason,
                        traceback=[f"AssertionError: {reason}"],
                    )
                )
            cell.outputs = outputs
        return nb, resources


# --------------------------------------------------------------------------------------------
# Before autograding: notebooks nbgrader cannot grade
# --------------------------------------------------------------------------------------------


def ungradable_submissions(course: Path, assignment: str) -> list[str]:
    """Warnings for submitted notebooks that nbgrader would grade wrongly, each with its route.

    A notebook without the assignment's nbgrader cell ids (the learner's copy from
    ``exercises/`` or ``workspace/``, say) gets 0 from ``nbgrader autograde``, however right it
    is; the warning names the batch grader command that grades it instead.
    """
    course = Path(course)
    source_dir = course / "source" / assignment
    wanted: dict[str, set[str]] = {}
    for nb_path in sorted(source_dir.glob("*.ipynb")):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        wanted[nb_path.name] = {
            _nbgrader_meta(c).get("grade_id")
            for c in nb["cells"]
            if _nbgrader_meta(c).get("grade") or _nbgrader_meta(c).get("solution")
        }
    if not wanted:
        raise FileNotFoundError(f"no source notebooks in {source_dir}")
    chapter = next(iter(wanted)).split("_", 1)[0]
    problems = []
    for student_dir in sorted((course / "submitted").glob("*")):
        folder = student_dir / assignment
        if not folder.is_dir():
            continue
        for name, ids in wanted.items():
            path = folder / name
            route = f"python -m mltutor.grading {chapter} {path}"
            if not path.exists():
                others = sorted(p.name for p in folder.glob("*.ipynb"))
                if others:
                    problems.append(
                        f"{student_dir.name}: no {name} (found {', '.join(others)}); "
                        f"nbgrader grades only {name}. Rename it, or grade it with "
                        f"`python -m mltutor.grading {chapter} {folder / others[0]}`."
                    )
                continue
            try:
                nb = json.loads(path.read_text(encoding="utf-8"))
                have = {_nbgrader_meta(c).get("grade_id") for c in nb.get("cells", [])}
            except (ValueError, OSError) as exc:
                problems.append(f"{path}: not a readable notebook ({exc}); it cannot be graded.")
                continue
            missing = sorted(i for i in ids - have if i)
            if missing:
                what = (
                    "has no nbgrader cell ids"
                    if len(missing) == len(ids)
                    else f"lacks the nbgrader cells {', '.join(missing)}"
                )
                problems.append(
                    f"{path} {what} (a copy from exercises/ or workspace/?): "
                    f"nbgrader autograde would give it 0 for those cells. Grade it "
                    f"with `{route}` instead."
                )
    return problems


def main(argv: list[str] | None = None) -> int:
    """Command line.

    ``python -m mltutor.grading.nbgrader COURSE_DIR [CHAPTER...]`` exports each chapter (all by
    default) as an nbgrader assignment in ``COURSE_DIR/source/`` and prints where each went;
    ``python -m mltutor.grading.nbgrader check-submissions COURSE_DIR ASSIGNMENT`` prints a
    warning for each submitted notebook that nbgrader cannot grade, with the route that can
    (status 1 when there is any).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["check-submissions"]:
        parser = argparse.ArgumentParser(
            prog="python -m mltutor.grading.nbgrader check-submissions",
            description="Warn about notebooks nbgrader cannot grade.",
        )
        parser.add_argument("course", type=Path, help="the nbgrader course directory")
        parser.add_argument("assignment", help="the assignment, e.g. ch03_precision_recall")
        args = parser.parse_args(argv[1:])
        problems = ungradable_submissions(args.course, args.assignment)
        for line in problems:
            print(f"warning: {line}", file=sys.stderr)
        if not problems:
            print(f"every submitted notebook of {args.assignment} has its nbgrader cells")
        return 1 if problems else 0
    parser = argparse.ArgumentParser(
        prog="python -m mltutor.grading.nbgrader",
        description="Export chapters as nbgrader assignments.",
    )
    parser.add_argument("course", type=Path, help="the nbgrader course directory")
    parser.add_argument("chapters", nargs="*", help="module names or numbers (default: all)")
    parser.add_argument(
        "--exam", action="store_true", help="a student copy without checks that needs no mltutor"
    )
    parser.add_argument(
        "--solutions",
        type=Path,
        metavar="DIR",
        help="the solutions/ folder of a clone of the course repository "
        "(default: the clone mltutor runs from)",
    )
    args = parser.parse_args(argv)
    from mltutor.exercises import CHAPTERS
    from mltutor.grading._solutions import SolutionsNotFound, solutions_folder

    try:
        solutions = solutions_folder(
            args.solutions, needed_for="to export a chapter: each assignment is made from one"
        )
    except SolutionsNotFound as error:
        parser.error(str(error))
    for chapter in args.chapters or CHAPTERS:
        print(export_chapter(chapter, args.course, solutions, exam=args.exam))
    return 0


if __name__ == "__main__":
    sys.exit(main())
