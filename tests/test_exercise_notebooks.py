"""Every chapter's exercises: stored solutions pass, exercises/ is generated and "not attempted".

Parametrised over ``solutions/NN_topic.ipynb``; chapter-specific checks (references against
scikit-learn, mutants) live in ``test_exercises_<topic>.py``.  The solutions are read from the
notebook itself (its code cells run here, in process), so the notebook the book shows is the one
that is tested.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    ROOT,
    SOLUTIONS,
    chapter_notebooks,
    exercise_module,
    load_script,
    plain_text,
    run_notebook_code,
    topic_of,
)

from mltutor.check import CORRECT, NOT_ATTEMPTED, Exercise
from mltutor.exercises import CHAPTERS

NOTEBOOKS = chapter_notebooks()
IDS = [nb.stem for nb in NOTEBOOKS]
_SOLVED: dict[Path, tuple] = {}


def solved(notebook: Path):
    if notebook not in _SOLVED:
        _SOLVED[notebook] = run_notebook_code(notebook)
    return _SOLVED[notebook]


def exercises_of(notebook: Path) -> dict:
    module = exercise_module(notebook)
    return {name: getattr(module, name) for name in module.__all__}


def test_every_chapter_module_has_a_notebook():
    assert sorted(CHAPTERS) == sorted(topic_of(nb) for nb in NOTEBOOKS)
    assert list(CHAPTERS) == [topic_of(nb) for nb in NOTEBOOKS], "CHAPTERS must be in course order"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_one_check_cell_per_exercise_in_order(notebook):
    _, checks = solved(notebook)
    assert [ex for ex, _, _ in checks] == list(exercise_module(notebook).__all__)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_notebook_solutions_pass(notebook):
    namespace, checks = solved(notebook)
    for name, answer, outputs in checks:
        result = namespace[name].check(namespace[answer], strict=False)
        assert result.status == CORRECT, f"{notebook.name} {name}: {result}"
        assert plain_text(outputs).startswith("✅ Correct:"), (name, outputs)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_package_solutions_pass(notebook):
    """``exN.solution()`` shows code that passes ``exN`` (it cannot drift from the check)."""
    answers = {e: a for e, a, _ in solved(notebook)[1]}
    for name, ex in exercises_of(notebook).items():
        namespace = {"np": np}
        exec(ex.solution_code(), namespace)  # noqa: S102
        assert ex.check(namespace[answers[name]], strict=False).status == CORRECT, name
        assert "```python" in ex.solution()._repr_markdown_()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_exercises_are_well_formed(notebook):
    for name, ex in exercises_of(notebook).items():
        assert ex.name == name
        assert ex.title and len(ex.hints) >= 2, name
        if isinstance(ex, Exercise):
            assert len(ex.cases) >= 5, name
            notes = [c.note for c in ex.cases]
            assert all(notes) and len(set(notes)) == len(notes), (
                f"{name}: every case needs its own note"
            )


def test_exercises_in_sync_with_solutions():
    make_exercises = load_script("make_exercises")
    problems = make_exercises.check_sync(SOLUTIONS, EXERCISES)
    assert not problems, "\n".join(problems) + "\nRun `make exercises`."


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_exercise_notebook_is_not_attempted_everywhere(notebook):
    exercise_nb = EXERCISES / notebook.name
    namespace, checks = run_notebook_code(exercise_nb)
    assert [ex for ex, _, _ in checks] == list(exercise_module(notebook).__all__)
    for ex, answer, outputs in checks:
        result = namespace[ex].check(namespace[answer], strict=True)  # not attempted never raises
        assert result.status == NOT_ATTEMPTED, (ex, str(result))
        assert plain_text(outputs).startswith("⏳ Not attempted:"), (ex, outputs)
    text = exercise_nb.read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text


@pytest.mark.parametrize(
    "notebook",
    NOTEBOOKS + [EXERCISES / nb.name for nb in NOTEBOOKS] + sorted((ROOT / "book").glob("*.ipynb")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_notebook_headings_do_not_skip_levels(notebook):
    """Jupyter Book's -W build fails on a skipped heading level; catch it here first."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    levels = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            text = re.sub(r"```.*?```", "", "".join(cell["source"]), flags=re.S)
            levels += [len(m) for m in re.findall(r"^(#+) ", text, re.M)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels
