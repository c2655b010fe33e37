"""Export a chapter's exercises as an nbgrader assignment, with hidden tests.

::

    python -m mltutor.grading.nbgrader COURSE_DIR 3 7        # chapters 3 and 7
    cd COURSE_DIR && nbgrader generate_assignment ch03_precision_recall

writes ``COURSE_DIR/source/chNN_topic/NN_topic.ipynb`` (and ``nbgrader_config.py`` if there is
none) from ``solutions/NN_topic.ipynb``:

* each code cell with ``### BEGIN SOLUTION`` becomes an nbgrader *solution* cell (nbgrader
  replaces the solution by ``raise NotImplementedError()`` in the release);
* each check cell ``exN.check(answer)`` becomes a locked *autograder test* cell worth one point:
  its visible part runs the public check (:func:`require`, which also refuses the package's own
  reference function), and its ``### BEGIN HIDDEN TESTS`` part, which nbgrader strips from the
  student's copy and puts back when it autogrades, compares the answer with expected values
  embedded in the cell (:func:`hidden_check`), on the public cases *and* on hidden cases: the
  public cases with their samples shuffled (the same permutation for every array of the case; a
  square matrix, such as a confusion matrix, gets its classes relabelled on both axes), whose answers
  come from the reference at export time.  Changing ``ex1.cases`` or the checker in the
  notebook therefore does not change the verdict;
* the Markdown discussions (``<!-- BEGIN SOLUTION -->``) are dropped.

nbgrader runs every submission in a fresh kernel, with the per-cell time limit that
``nbgrader_config.py`` sets (``c.Execute.timeout``, 60 s here).  The release carries no solution
and no hidden case; the hidden cases stay in the course directory's ``source`` folder and gradebook.
"""

from __future__ import annotations

import argparse
import base64
import copy
import importlib
import json
import pickle
import re
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, compare

__all__ = ["export_chapter", "hidden_cases", "hidden_check", "require", "main"]

REPO = Path(__file__).resolve().parents[2]
CHECK_CELL = re.compile(r"^\s*(ex\d+)\.check\((\w+)\)\s*$")
MD_BEGIN = re.compile(r"^\s*<!--\s*BEGIN SOLUTION\s*-->\s*$")
MD_END = re.compile(r"^\s*<!--\s*END SOLUTION\s*-->\s*$")
CONFIG = '''c = get_config()  # noqa: F821 - nbgrader's config object
c.CourseDirectory.course_id = "mltutor"
c.Execute.timeout = 60              # seconds per cell: a looping submission stops there
c.Execute.interrupt_on_timeout = True
'''
_N_SHUFFLES = 2  # hidden variants per public case


# --------------------------------------------------------------------------------------------
# What the test cells call
# --------------------------------------------------------------------------------------------


def _from_the_package(answer: Any) -> bool:
    module = getattr(answer, "__module__", "") or ""
    return callable(answer) and module.startswith("mltutor")


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


def hidden_check(answer: Any, blob: str) -> None:
    """The hidden test: the answer against the expected values embedded in the cell."""
    spec = _unpack(blob)
    if spec["kind"] == "choice":
        assert isinstance(answer, str) and answer.strip().lower().strip("()") == spec["answer"], \
            "the hidden test does not accept this choice"
        return
    if spec["kind"] == "value":
        problem = compare(spec["answer"], answer, rtol=spec["rtol"], atol=spec["atol"],
                          names=spec["outputs"])
        assert problem is None, f"hidden test: {problem}"
        return
    assert callable(answer) and not _from_the_package(answer), "hidden test: not your function"
    for k, (args, kwargs, expected) in enumerate(spec["cases"]):
        got = answer(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        problem = compare(expected, got, rtol=spec["rtol"], atol=spec["atol"], names=spec["outputs"])
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
        if isinstance(v, np.ndarray) and v.ndim == 2 and v.shape[0] in square and v.shape[0] == v.shape[1]:
            p = perms[v.shape[0]]
            out.append(v[np.ix_(p, p)])       # relabel the classes on both axes
        elif isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == n and n >= 5:
            out.append(v[perms[n]])           # reorder the samples
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
            a, kw = tuple(values[:len(args)]), dict(zip(keys, values[len(args):]))
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
        return {"kind": "function", "cases": hidden_cases(ex), "rtol": ex.rtol, "atol": ex.atol,
                "outputs": outputs}
    return {"kind": "value", "answer": ex.answer, "rtol": ex.rtol, "atol": ex.atol,
            "outputs": outputs}


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


def _meta(grade_id: str, *, solution=False, grade=False, locked=False, points=0) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return meta


def _test_source(module_name: str, ex, answer: str) -> str:
    return (f"from mltutor.grading.nbgrader import require\n"
            f"require({ex.name}, {answer})\n"
            "### BEGIN HIDDEN TESTS\n"
            "from mltutor.grading.nbgrader import hidden_check\n"
            f'hidden_check({answer}, "{_pack(_hidden_spec(ex))}")\n'
            "### END HIDDEN TESTS")


def chapter_notebook(chapter: str, solutions_dir: Path = REPO / "solutions") -> Path:
    """``solutions/NN_topic.ipynb`` (or ``NNc_topic.ipynb``) for a module name or a number."""
    from mltutor.grade import chapter_module

    topic = chapter_module(chapter).__name__.rsplit(".", 1)[1]
    found = sorted(solutions_dir.glob(f"[0-9][0-9]*_{topic}.ipynb"))  # 07c_... too
    if not found:
        raise FileNotFoundError(f"no solutions notebook for {topic} in {solutions_dir}")
    return found[0]


def export_chapter(chapter: str, course: Path, solutions_dir: Path = REPO / "solutions") -> Path:
    """Write the nbgrader source notebook of one chapter; return its path."""
    notebook = chapter_notebook(chapter, solutions_dir)
    topic = notebook.stem.split("_", 1)[1]
    module = importlib.import_module(f"mltutor.exercises.{topic}")
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cells = []
    for k, cell in enumerate(nb["cells"]):
        source = "".join(cell["source"])
        cell = {key: v for key, v in cell.items() if key not in ("outputs", "execution_count", "id")}
        cell["metadata"] = dict(cell.get("metadata", {}))
        if cell["cell_type"] == "markdown":
            source = _strip_markdown_solutions(source)
            if not source.strip():
                continue
        elif cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
            m = CHECK_CELL.match(source)
            if m:
                ex = getattr(module, m.group(1))
                source = _test_source(topic, ex, m.group(2))
                cell["metadata"]["nbgrader"] = _meta(f"test_{ex.name}", grade=True, locked=True,
                                                     points=1)
            elif "### BEGIN SOLUTION" in source:
                cell["metadata"]["nbgrader"] = _meta(f"answer_{k}", solution=True)
        cell["source"] = source
        cell["id"] = f"mltutor-{k}"
        cells.append(cell)
    nb["cells"] = cells
    name = f"ch{notebook.stem.split('_', 1)[0]}_{topic}"  # ch07c_masks_...
    target = Path(course) / "source" / name / notebook.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    config = Path(course) / "nbgrader_config.py"
    if not config.exists():
        config.write_text(CONFIG, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m mltutor.grading.nbgrader COURSE_DIR [CHAPTER...]``.

    Exports each chapter (all by default) as an nbgrader assignment in ``COURSE_DIR/source/`` and
    prints where each went; returns 0.
    """
    parser = argparse.ArgumentParser(prog="python -m mltutor.grading.nbgrader",
                                     description="Export chapters as nbgrader assignments.")
    parser.add_argument("course", type=Path, help="the nbgrader course directory")
    parser.add_argument("chapters", nargs="*", help="module names or numbers (default: all)")
    args = parser.parse_args(argv)
    from mltutor.exercises import CHAPTERS

    for chapter in args.chapters or CHAPTERS:
        print(export_chapter(chapter, args.course))
    return 0


if __name__ == "__main__":
    sys.exit(main())
