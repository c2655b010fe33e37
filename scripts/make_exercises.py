#!/usr/bin/env python
"""Generate ``exercises/NN_*.ipynb`` from ``solutions/NN_*.ipynb`` (``make exercises``).

The solutions notebook is the single source.  In it:

* code between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` lines is the solution.  Inside an
  indented block (a function body) it becomes ``# YOUR CODE HERE`` + ``raise NotImplementedError``,
  so the check says "not attempted".  At the top level of a cell it becomes one placeholder per
  name the solution assigns (``answer = ...  # YOUR CODE HERE``), or a stub for a function it
  defines, so the cell still runs;
* Markdown between ``<!-- BEGIN SOLUTION -->`` and ``<!-- END SOLUTION -->`` lines (a discussion of
  the solution) is dropped; a Markdown cell left empty is dropped entirely.

The generated notebook has no outputs until it is executed here (cwd = the exercises folder),
because CI runs nbval on ``exercises/`` too: every check cell must show "not attempted".  Its
metadata stores ``mltutor.source_sha256``, a hash of its cell sources.  An exercise notebook whose
sources no longer match that hash was edited by hand; it is not overwritten without ``--force``.

Usage::

    python scripts/make_exercises.py             # regenerate what changed, execute, write
    python scripts/make_exercises.py --check     # exit 1 if exercises/ is out of sync; writes nothing
    python scripts/make_exercises.py --force     # also overwrite hand-edited exercise notebooks
    python scripts/make_exercises.py --rerun     # re-execute even unchanged exercise notebooks
    python scripts/make_exercises.py solutions/01_confusion_matrix.ipynb   # just this one

Exit status: 0 on success, 1 when ``--check`` finds differences, 2 when a hand-edited notebook was
left alone (or on a malformed solutions notebook).
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, os.fspath(Path(__file__).resolve().parent))

import notebook_tools as nbt  # noqa: E402

SOLUTIONS_DIR = nbt.REPO_ROOT / "solutions"
EXERCISES_DIR = nbt.REPO_ROOT / "exercises"
PATTERN = "[0-9][0-9]_*.ipynb"

BEGIN = re.compile(r"^(?P<indent>[ \t]*)###\s*BEGIN SOLUTION\s*$")
END = re.compile(r"^[ \t]*###\s*END SOLUTION\s*$")
MD_BEGIN = re.compile(r"^\s*<!--\s*BEGIN SOLUTION\s*-->\s*$")
MD_END = re.compile(r"^\s*<!--\s*END SOLUTION\s*-->\s*$")
PLACEHOLDER_COMMENT = "# YOUR CODE HERE"


class SolutionFormatError(ValueError):
    """A solutions notebook with unbalanced or misplaced solution markers."""


# --------------------------------------------------------------------------------------------
# Turning solutions into placeholders
# --------------------------------------------------------------------------------------------


def _top_level_placeholder(block: list[str]) -> list[str]:
    """Placeholders for a solution block at the top level of a cell: the cell must still run."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(block)))
    except SyntaxError:
        return [PLACEHOLDER_COMMENT]
    lines: list[str] = []
    seen: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
            lines += [
                f"{prefix} {node.name}({ast.unparse(node.args)}):",
                f"    {PLACEHOLDER_COMMENT}",
                "    raise NotImplementedError",
            ]
            continue
        if isinstance(node, ast.ClassDef):
            lines += [f"class {node.name}:", f"    {PLACEHOLDER_COMMENT}", "    pass"]
            continue
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and name.id not in seen:
                    seen.add(name.id)
                    lines.append(f"{name.id} = ...  {PLACEHOLDER_COMMENT}")
    return lines or [PLACEHOLDER_COMMENT]


def strip_code_solutions(source: str, where: str = "") -> str:
    """Replace every ``### BEGIN/END SOLUTION`` block of a code cell by a placeholder."""
    out: list[str] = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if END.match(lines[i]):
            raise SolutionFormatError(f"{where}: '### END SOLUTION' without a BEGIN")
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent = m.group("indent")
        j = i + 1
        while j < len(lines) and not END.match(lines[j]):
            if BEGIN.match(lines[j]):
                raise SolutionFormatError(f"{where}: nested '### BEGIN SOLUTION'")
            j += 1
        if j == len(lines):
            raise SolutionFormatError(f"{where}: '### BEGIN SOLUTION' without an END")
        block = lines[i + 1 : j]
        if indent:
            out += [indent + PLACEHOLDER_COMMENT, indent + "raise NotImplementedError"]
        else:
            out += _top_level_placeholder(block)
        i = j + 1
    return "\n".join(out)


def strip_markdown_solutions(source: str, where: str = "") -> str:
    """Drop ``<!-- BEGIN SOLUTION -->`` ... ``<!-- END SOLUTION -->`` parts of a Markdown cell."""
    out: list[str] = []
    inside = False
    for line in source.split("\n"):
        if MD_BEGIN.match(line):
            if inside:
                raise SolutionFormatError(f"{where}: nested '<!-- BEGIN SOLUTION -->'")
            inside = True
        elif MD_END.match(line):
            if not inside:
                raise SolutionFormatError(f"{where}: '<!-- END SOLUTION -->' without a BEGIN")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise SolutionFormatError(f"{where}: '<!-- BEGIN SOLUTION -->' without an END")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")


def exercise_title(source: str) -> str:
    """The solutions page's title ``# N. Topic: solutions`` becomes ``# N. Topic: exercises``.

    Both pages then carry the same title as their entry in ``_toc.yml``.
    """
    first, newline, rest = source.partition("\n")
    if first.startswith("# ") and first.endswith(": solutions"):
        first = first[: -len("solutions")] + "exercises"
    return first + newline + rest


def make_exercise(solution_nb, source_name: str = "") -> nbt.nbformat.NotebookNode:
    """The exercise notebook (not executed) generated from a solutions notebook."""
    nb = copy.deepcopy(solution_nb)
    cells = []
    for k, cell in enumerate(nb.cells):
        where = f"{source_name} cell {k}"
        if cell.cell_type == "code":
            cell.source = strip_code_solutions(cell.source, where)
            if not any(line.lstrip()[:1] in ("%", "!") for line in cell.source.split("\n")):
                try:
                    compile(cell.source, where, "exec")
                except SyntaxError as exc:
                    raise SolutionFormatError(  # noqa: B904 - the compile error is in the message
                        f"{where}: the generated code does not compile: {exc}"
                    )
        elif cell.cell_type == "markdown":
            cell.source = strip_markdown_solutions(cell.source, where)
            if k == 0:
                cell.source = exercise_title(cell.source)
            if not cell.source.strip():
                continue
        cells.append(cell)
    nb.cells = cells
    nbt.strip_outputs(nb)
    nb.metadata["mltutor"] = {
        "generated_from": source_name,
        "note": "Generated by scripts/make_exercises.py from the solutions notebook; edit that instead.",
        "source_sha256": nbt.sources_sha256(nb),
    }
    return nb


# --------------------------------------------------------------------------------------------
# Sync, check and write
# --------------------------------------------------------------------------------------------


@dataclass
class Plan:
    solution: Path
    exercise: Path
    generated: object  # NotebookNode
    state: str  # "missing" | "unchanged" | "changed" | "hand-edited"


def _state(exercise: Path, generated) -> str:
    if not exercise.exists():
        return "missing"
    current = nbt.read_notebook(exercise)
    if nbt.cell_sources(current) == nbt.cell_sources(generated):
        return "unchanged"
    stored = current.metadata.get("mltutor", {}).get("source_sha256")
    if stored is not None and stored == nbt.sources_sha256(current):
        return "changed"  # generated earlier and untouched since: safe to overwrite
    return "hand-edited"


def plan(solutions_dir: Path, exercises_dir: Path, only: list[Path] | None = None) -> list[Plan]:
    solutions = only if only else list(nbt.iter_notebooks([solutions_dir], PATTERN))
    plans = []
    for sol in solutions:
        sol = Path(sol)
        exercise = exercises_dir / sol.name
        source_name = os.path.relpath(sol, exercises_dir).replace(os.sep, "/")
        generated = make_exercise(nbt.read_notebook(sol), source_name)
        plans.append(Plan(sol, exercise, generated, _state(exercise, generated)))
    return plans


def orphans(solutions_dir: Path, exercises_dir: Path) -> list[Path]:
    """Exercise notebooks without a solutions notebook."""
    names = {p.name for p in nbt.iter_notebooks([solutions_dir], PATTERN)}
    return [p for p in nbt.iter_notebooks([exercises_dir], PATTERN) if p.name not in names]


def check_sync(
    solutions_dir: Path = SOLUTIONS_DIR, exercises_dir: Path = EXERCISES_DIR
) -> list[str]:
    """Problems that make ``exercises_dir`` out of sync with ``solutions_dir`` (empty: in sync)."""
    problems = []
    for p in plan(Path(solutions_dir), Path(exercises_dir)):
        if p.state == "missing":
            problems.append(f"{nbt.display_path(p.exercise)}: missing")
        elif p.state != "unchanged":
            what = "edited by hand" if p.state == "hand-edited" else "stale"
            problems.append(
                f"{nbt.display_path(p.exercise)}: cell sources differ from what "
                f"{nbt.display_path(p.solution)} generates ({what})"
            )
    for o in orphans(Path(solutions_dir), Path(exercises_dir)):
        problems.append(
            f"{nbt.display_path(o)}: no matching notebook in {nbt.display_path(solutions_dir)}"
        )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "notebooks",
        nargs="*",
        type=Path,
        help="solutions notebooks to process (default: all NN_*.ipynb)",
    )
    parser.add_argument("--solutions-dir", type=Path, default=SOLUTIONS_DIR)
    parser.add_argument("--exercises-dir", type=Path, default=EXERCISES_DIR)
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if exercises are out of sync (cell sources only); write nothing",
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite exercise notebooks that were edited by hand"
    )
    parser.add_argument(
        "--rerun",
        action="store_true",
        help="re-execute and rewrite exercise notebooks that are already up to date",
    )
    parser.add_argument(
        "--no-execute",
        action="store_true",
        help="write the generated notebooks without outputs (faster; nbval will fail)",
    )
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    args = parser.parse_args(argv)

    try:
        if args.check:
            problems = check_sync(args.solutions_dir, args.exercises_dir)
            if problems:
                print("exercises/ is out of sync with solutions/:", file=sys.stderr)
                for line in problems:
                    print(f"  {line}", file=sys.stderr)
                print(
                    "Run `make exercises` (python scripts/make_exercises.py) and commit the result.",
                    file=sys.stderr,
                )
                return 1
            print("exercises/ is in sync with solutions/.")
            return 0
        plans = plan(args.solutions_dir, args.exercises_dir, args.notebooks or None)
    except nbt.nbformat.reader.NotJSONError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SolutionFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    refused = []
    for p in plans:
        name = nbt.display_path(p.exercise)
        if p.state == "hand-edited" and not args.force:
            refused.append(p)
            print(
                f"REFUSED  {name}: its cells were edited by hand since it was generated "
                "(the stored source_sha256 no longer matches).",
                file=sys.stderr,
            )
            continue
        if p.state == "unchanged" and not args.rerun:
            print(f"ok       {name} (up to date)")
            continue
        if not args.no_execute:
            p.exercise.parent.mkdir(parents=True, exist_ok=True)
            try:
                nbt.execute(p.generated, p.exercise.parent, timeout=args.timeout)
            except Exception as exc:  # noqa: BLE001 - nbclient's CellExecutionError, timeouts
                print(
                    f"FAILED   {name}: executing the generated notebook failed; nothing written.\n"
                    f"{exc}",
                    file=sys.stderr,
                )
                return 1
        nbt.write_notebook(p.generated, p.exercise)
        verb = {
            "missing": "created",
            "unchanged": "rerun",
            "changed": "updated",
            "hand-edited": "OVERWROTE",
        }[p.state]
        print(f"{verb:<8} {name} (from {nbt.display_path(p.solution)})")

    for o in orphans(args.solutions_dir, args.exercises_dir):
        print(
            f"warning: {nbt.display_path(o)} has no solutions notebook; delete it if it is stale.",
            file=sys.stderr,
        )
    if refused:
        names = ", ".join(nbt.display_path(p.exercise) for p in refused)
        print(
            f"\nNot overwritten: {names}.\nExercise notebooks are generated: move your changes "
            "into the solutions notebook, then rerun; or rerun with --force to discard them.",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
