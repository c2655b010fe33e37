"""The nbgrader route end to end, from the command line: export -> generate_assignment ->
a right and a wrong submission -> autograde -> the expected scores."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from mltutor.grading.nbgrader import hidden_cases, hidden_check, _pack, _hidden_spec  # noqa: E402
from mltutor.exercises import precision_recall as ch3  # noqa: E402

ASSIGNMENT = "ch03_precision_recall"
NOTEBOOK = "03_precision_recall.ipynb"
EPSILON = '''def precision_recall(tp, fp, fn, zero_division=0.0):
    """The epsilon mistake."""
    return tp / (tp + fp + 1e-6), tp / (tp + fn + 1e-6)'''
GAMED = '''def precision_recall(tp, fp, fn, zero_division=0.0):
    return 1.0, 0.75          # right for the first public case only

ex1.cases = ex1.cases[:1]     # ... and the public check is told to try only that one'''


def run(command, cwd):
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
               MLTUTOR_STRICT="0")
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def solution_cells(nb):
    return {c["metadata"]["nbgrader"]["grade_id"]: c for c in nb["cells"]
            if c["metadata"].get("nbgrader", {}).get("solution")}


def test_hidden_cases_include_shuffled_variants():
    cases = hidden_cases(ch3.ex2)
    assert len(cases) > len(ch3.ex2.cases)
    hidden_check(lambda *a, **k: ch3.metrics_at_threshold(*a, **k), _pack(_hidden_spec(ch3.ex2)))
    with pytest.raises(AssertionError, match="not your function"):
        hidden_check(ch3.metrics_at_threshold, _pack(_hidden_spec(ch3.ex2)))


def test_generate_assignment_and_autograde_a_right_and_a_wrong_submission(tmp_path):
    course = tmp_path / "course"
    run([sys.executable, "-m", "mltutor.grading.nbgrader", str(course), "precision_recall"], tmp_path)
    run(["nbgrader", "generate_assignment", ASSIGNMENT, "--force"], course)
    source = json.loads((course / "source" / ASSIGNMENT / NOTEBOOK).read_text())
    release_path = course / "release" / ASSIGNMENT / NOTEBOOK
    release_text = release_path.read_text()
    for secret in ("BEGIN HIDDEN TESTS", "hidden_check", "BEGIN SOLUTION", "c_fp / (c_fp + c_fn)",
                   "Discussion"):
        assert secret not in release_text, secret
    release = json.loads(release_text)

    # alice fills in every solution; bob too, except the epsilon mistake in exercise 1; carol
    # games the public check of exercise 1, which the hidden tests catch
    answers = solution_cells(source)
    students = (("alice", {}), ("bob", {"answer_3": EPSILON}), ("carol", {"answer_3": GAMED}))
    for student, replace in students:
        nb = json.loads(json.dumps(release))
        for grade_id, cell in solution_cells(nb).items():
            cell["source"] = replace.get(grade_id, answers[grade_id]["source"])
        target = course / "submitted" / student / ASSIGNMENT / NOTEBOOK
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps(nb))
    run(["nbgrader", "autograde", ASSIGNMENT, "--force"], course)

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: (gb.find_submission(ASSIGNMENT, s).score,
                      gb.find_submission(ASSIGNMENT, s).max_score) for s, _ in students}
    n = len(ch3.__all__)
    assert scores == {"alice": (n, n), "bob": (n - 1, n), "carol": (n - 1, n)}
    graded = json.loads((course / "autograded" / "carol" / ASSIGNMENT / NOTEBOOK).read_text())
    test_ex1 = next(c for c in graded["cells"]
                    if c["metadata"].get("nbgrader", {}).get("grade_id") == "test_ex1")
    shown = json.dumps(test_ex1["outputs"])
    assert "Correct: all 1 cases pass" in shown and "hidden case" in shown  # public passed, hidden not


CHAPTER_NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "solutions").glob("0[1-8]*_*.ipynb"))  # 06c, 07c too


@pytest.mark.parametrize("notebook", CHAPTER_NOTEBOOKS, ids=lambda p: p.stem)
def test_the_solutions_pass_every_hidden_test(notebook):
    """The hidden variants are valid inputs: our solutions (not the references) pass them all."""
    import importlib

    from _exercise_harness import run_notebook_code, topic_of

    module = importlib.import_module(f"mltutor.exercises.{topic_of(notebook)}")
    namespace, checks = run_notebook_code(notebook)
    for name, answer, _ in checks:
        ex = getattr(module, name)
        hidden_check(namespace[answer], _pack(_hidden_spec(ex)))


@pytest.mark.parametrize("chapter", ["prediction_sets", "masks_keypoints_errors", "3"])
def test_every_chapter_exports_one_graded_cell_per_exercise(chapter, tmp_path):
    """Lettered chapters (06c, 07c) export too, into ch06c_..., not only NN_topic notebooks."""
    import importlib

    from mltutor.grade import chapter_module
    from mltutor.grading.nbgrader import export_chapter

    module = chapter_module(chapter)
    target = export_chapter(chapter, tmp_path)
    number = target.name.split("_", 1)[0]
    assert target.parent.name == f"ch{number}_{module.__name__.rsplit('.', 1)[1]}"
    nb = json.loads(target.read_text(encoding="utf-8"))
    graded = [c["metadata"]["nbgrader"]["grade_id"] for c in nb["cells"]
              if c["metadata"].get("nbgrader", {}).get("grade")]
    assert graded == [f"test_{name}" for name in importlib.import_module(module.__name__).__all__]
