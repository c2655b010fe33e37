"""The nbgrader route end to end, from the command line: export -> generate_assignment ->
release -> submissions (right, wrong, gamed, and the cheats of issue 23) -> autograde ->
the expected scores -> generate_feedback without any hidden test."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from mltutor.exercises import precision_recall as ch3  # noqa: E402
from mltutor.grading.nbgrader import (
    CONFIG_MARK,
    _hidden_spec,
    _pack,  # noqa: E402
    export_chapter,
    graded_exercises,
    hidden_cases,
    hidden_check,
    ungradable_submissions,
)

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENT = "ch03_precision_recall"
NOTEBOOK = "03_precision_recall.ipynb"
N = len(ch3.__all__)
EPSILON = '''def precision_recall(tp, fp, fn, zero_division=0.0):
    """The epsilon mistake."""
    return tp / (tp + fp + 1e-6), tp / (tp + fn + 1e-6)'''
GAMED = """def precision_recall(tp, fp, fn, zero_division=0.0):
    return 1.0, 0.75          # right for the first public case only

ex1.cases = ex1.cases[:1]     # ... and the public check is told to try only that one"""
# nothing done, the grading functions of the kernel made no-ops
PATCHER = """import mltutor.grading.nbgrader as grading
grading.require = grading.hidden_check = lambda *args, **kwargs: None
precision_recall = metrics_at_threshold = cost_optimal_threshold = review_band = None
precision_sweep = threshold_6 = answer_7 = None"""
# nothing done either: every exercise fooled another way
FAKER = """import sys
import numpy as np

def precision_recall(tp, fp, fn, zero_division=0.0):          # the package's own reference
    return ex1.reference(tp, fp, fn, zero_division)

class Peeking(float):                                         # reads `expected` from a frame
    def __float__(self):
        frame = sys._getframe(1)
        while frame is not None:
            if "expected" in frame.f_locals:
                return float(frame.f_locals["expected"][0])
            frame = frame.f_back
        return 0.0

def metrics_at_threshold(y_true, y_score, threshold):
    return Peeking(0.5), Peeking(0.5), Peeking(0.5)

cost_optimal_threshold = lambda c_fp, c_fn: ex3.reference(c_fp, c_fn)
review_band = lambda *args: ex4.reference(*args)

class AlwaysEqual(np.ndarray):                                # no difference is ever any()
    def any(self, *args, **kwargs):
        return False

precision_sweep = np.zeros(7).view(AlwaysEqual)
threshold_6 = ex6.answer                                      # the stored answer

class Yes(str):                                               # equal to every option
    __eq__ = lambda self, other: True
    __hash__ = lambda self: hash("a")
    strip = lower = lambda self, *args: self

answer_7 = Yes("z")"""


def run(command, cwd, check=True):
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        MLTUTOR_STRICT="0",
    )
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def solution_cells(nb):
    return {
        c["metadata"]["nbgrader"]["grade_id"]: c
        for c in nb["cells"]
        if c["metadata"].get("nbgrader", {}).get("solution")
    }


def test_hidden_cases_include_shuffled_variants():
    cases = hidden_cases(ch3.ex2)
    assert len(cases) > len(ch3.ex2.cases)
    hidden_check(lambda *a, **k: ch3.metrics_at_threshold(*a, **k), _pack(_hidden_spec(ch3.ex2)))
    with pytest.raises(AssertionError, match="not your function"):
        hidden_check(ch3.metrics_at_threshold, _pack(_hidden_spec(ch3.ex2)))


def test_the_kernel_side_hidden_check_converts_values_first():
    class Yes(str):
        __eq__ = lambda self, other: True  # noqa: E731
        __hash__ = str.__hash__
        strip = lower = lambda self, *args: self  # noqa: E731

    with pytest.raises(AssertionError):
        hidden_check(Yes("z"), _pack(_hidden_spec(ch3.ex7)))
    hidden_check("b", _pack(_hidden_spec(ch3.ex7)))


def test_the_student_copy_is_titled_as_exercises_and_offers_no_solution(tmp_path):
    target = export_chapter("3", tmp_path)
    nb = json.loads(target.read_text(encoding="utf-8"))
    markdown = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
    assert markdown.splitlines()[0] == "# 3. Precision, recall and thresholds: exercises"
    assert ".solution()" not in markdown and "workspace/" not in markdown
    assert "`ex1.hint()` shows a hint" in markdown  # the rest of the sentence stays
    code = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "code")
    assert 'graded_exercises("precision_recall")' in code
    assert "from mltutor.exercises.precision_recall import ex" not in code
    assert CONFIG_MARK in (tmp_path / "nbgrader_config.py").read_text(encoding="utf-8")
    ex1, ex7 = graded_exercises("precision_recall", "ex1", "ex7")
    assert "not shown in a graded assignment" in str(ex1.solution())
    with pytest.raises(ValueError, match="graded assignment"):
        ex1.solution_code()
    last = [str(ex1.hint()) for _ in ex1.hints][-1]
    assert "solution()" not in last and "solution()" not in ex7.check("x", strict=False).message
    assert "solution()" in str(ch3.ex1.hint(len(ch3.ex1.hints)))  # the learner's copy keeps it


@pytest.mark.parametrize("chapter", ["1", "4", "6", "6c", "7", "7c", "8", "9"])
def test_no_chapter_exports_a_solution_pointer(chapter, tmp_path):
    nb = json.loads(export_chapter(chapter, tmp_path).read_text(encoding="utf-8"))
    markdown = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
    assert markdown.splitlines()[0].endswith(": exercises")
    assert ".solution()" not in markdown and "workspace/" not in markdown


def test_an_existing_config_without_isolated_tests_gets_a_warning(tmp_path, capsys):
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    export_chapter("3", tmp_path)
    assert "does not use mltutor's IsolatedTests" in capsys.readouterr().err


def test_generate_release_autograde_and_feedback(tmp_path):
    course = tmp_path / "course"
    run(
        [sys.executable, "-m", "mltutor.grading.nbgrader", str(course), "precision_recall"],
        tmp_path,
    )
    run(["nbgrader", "generate_assignment", ASSIGNMENT, "--force"], course)
    run(
        [
            "nbgrader",
            "release_assignment",
            ASSIGNMENT,
            "--force",
            "--Exchange.root",
            str(tmp_path / "exchange"),
        ],
        course,
    )
    source = json.loads((course / "source" / ASSIGNMENT / NOTEBOOK).read_text())
    release_path = course / "release" / ASSIGNMENT / NOTEBOOK
    release_text = release_path.read_text()
    for secret in (
        "BEGIN HIDDEN TESTS",
        "hidden_check",
        "BEGIN SOLUTION",
        "c_fp / (c_fp + c_fn)",
        "Discussion",
        ".solution()",
        "workspace/",
        ": solutions",
    ):
        assert secret not in release_text, secret
    assert (tmp_path / "exchange" / "mltutor" / "outbound" / ASSIGNMENT / NOTEBOOK).exists()
    release = json.loads(release_text)

    # alice fills in every solution; bob too, except the epsilon mistake in exercise 1; carol
    # games the public check of exercise 1; the patcher and the faker do nothing but cheat
    answers = solution_cells(source)
    first = min(answers, key=lambda g: int(g.split("_")[1]))
    nothing = {g: "pass" for g in answers}
    students = (
        ("alice", {}),
        ("bob", {"answer_3": EPSILON}),
        ("carol", {"answer_3": GAMED}),
        ("patcher", dict(nothing, **{first: PATCHER})),
        ("faker", dict(nothing, **{first: FAKER})),
    )
    for student, replace in students:
        nb = json.loads(json.dumps(release))
        for grade_id, cell in solution_cells(nb).items():
            cell["source"] = replace.get(grade_id, answers[grade_id]["source"])
        target = course / "submitted" / student / ASSIGNMENT / NOTEBOOK
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps(nb))
    # dave hands in his copy from workspace/: right, but without nbgrader's cell ids
    dave = course / "submitted" / "dave" / ASSIGNMENT / NOTEBOOK
    dave.parent.mkdir(parents=True)
    dave.write_bytes((ROOT / "solutions" / NOTEBOOK).read_bytes())
    checked = run(
        [
            sys.executable,
            "-m",
            "mltutor.grading.nbgrader",
            "check-submissions",
            str(course),
            ASSIGNMENT,
        ],
        course,
        check=False,
    )
    assert checked.returncode == 1
    assert f"{dave} has no nbgrader cell ids" in checked.stderr
    assert f"python -m mltutor.grading 03 {dave}" in checked.stderr
    assert [p for p in ungradable_submissions(course, ASSIGNMENT) if "dave" not in p] == []
    from mltutor.grading.batch import grade_submission

    assert grade_submission("03", dave, case_time_limit=2)["points"] == N  # the route named
    dave.unlink()

    run(["nbgrader", "autograde", ASSIGNMENT, "--force"], course)
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission(ASSIGNMENT, s).score for s, _ in students}
        faker = {
            f"ex{k}": gb.find_grade(f"test_ex{k}", NOTEBOOK[:-6], ASSIGNMENT, "faker").score
            for k in range(1, N + 1)
        }
    assert scores == {"alice": N, "bob": N - 1, "carol": N - 1, "patcher": 0, "faker": 0}, scores
    assert faker == {f"ex{k}": 0 for k in range(1, N + 1)}
    graded = json.loads((course / "autograded" / "carol" / ASSIGNMENT / NOTEBOOK).read_text())
    test_ex1 = next(
        c
        for c in graded["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade_id") == "test_ex1"
    )
    shown = json.dumps(test_ex1["outputs"])
    assert "case 2 of 8" in shown and "1 of 8 cases pass" in shown  # every public case, not 1

    run(["nbgrader", "generate_feedback", ASSIGNMENT, "--force"], course)
    blobs = re.findall(
        r'hidden_check\(\w+, "([^"]+)"\)', "\n".join(c["source"] for c in source["cells"])
    )
    assert len(blobs) == N
    for student, _ in students:
        html = course / "feedback" / student / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")
        text = html.read_text(encoding="utf-8")
        assert "Hidden tests" in text or student != "alice"
        for secret in ("HIDDEN TESTS", *(b[:40] for b in blobs)):
            assert secret not in text, (student, secret)
        assert student == "patcher" or "hidden_check" not in text


CHAPTER_NOTEBOOKS = sorted(
    (Path(__file__).resolve().parents[1] / "solutions").glob("[0-9][0-9]*_*.ipynb")
)  # 06c, 07c, 09 too


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

    from mltutor.grading.batch import chapter_module

    module = chapter_module(chapter)
    target = export_chapter(chapter, tmp_path)
    number = target.name.split("_", 1)[0]
    assert target.parent.name == f"ch{number}_{module.__name__.rsplit('.', 1)[1]}"
    nb = json.loads(target.read_text(encoding="utf-8"))
    graded = [
        c["metadata"]["nbgrader"]["grade_id"]
        for c in nb["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade")
    ]
    assert graded == [f"test_{name}" for name in importlib.import_module(module.__name__).__all__]


def test_isolated_tests_grade_every_chapter_solution(tmp_path):
    """The out-of-kernel verdicts: full marks for our solutions in nbgrader's format."""
    from mltutor.grading._sandbox import Limits
    from mltutor.grading.nbgrader import grade_notebook

    for chapter in ("6c", "7"):
        source = json.loads(export_chapter(chapter, tmp_path).read_text(encoding="utf-8"))
        topic = source["metadata"]["mltutor"]["chapter"]
        verdicts = grade_notebook(source, topic, limits=Limits(time_limit=120))
        assert verdicts and all(ok for ok, _ in verdicts.values()), verdicts


def test_an_exam_copy_needs_no_mltutor(tmp_path):
    """The route without the reference solutions in the students' environment: the exam copy
    imports nothing from mltutor (the chapter's data is written out), so the students can work
    without the package; grading, with the package, gives our solutions full marks."""
    from mltutor.grading._sandbox import Limits
    from mltutor.grading.nbgrader import EXAM_NOTE, grade_notebook

    source = json.loads(export_chapter("7", tmp_path, exam=True).read_text(encoding="utf-8"))
    assert EXAM_NOTE in source["cells"][0]["source"]
    student = []
    for cell in source["cells"]:
        if cell["cell_type"] != "code":
            continue
        code = re.sub(
            r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS", "", cell["source"], flags=re.S
        )
        assert "mltutor" not in code and "require(" not in code
        student.append(code)
    script = (
        "import sys\n"
        "class NoMltutor:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'mltutor':\n"
        "            raise ImportError('no mltutor in the exam environment')\n"
        "sys.meta_path.insert(0, NoMltutor())\n" + "\n".join(student)
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    verdicts = grade_notebook(source, "map_detection", limits=Limits(time_limit=120))
    n_exercises = len(importlib.import_module("mltutor.exercises.map_detection").__all__)
    assert len(verdicts) == n_exercises and all(ok for ok, _ in verdicts.values()), verdicts
