"""The batch grader: one process per submission, a time limit, CSV and JSON out."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mltutor.grade import chapter_module, grade_submission, submission_code

ROOT = Path(__file__).resolve().parents[1]
RIGHT = ROOT / "solutions" / "03_precision_recall.ipynb"
BLANK = ROOT / "exercises" / "03_precision_recall.ipynb"


@pytest.fixture()
def submissions(tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text(textwrap.dedent("""
        def precision_recall(tp, fp, fn, zero_division=0.0):
            return tp / (tp + fp + 1e-6), tp / (tp + fn + 1e-6)   # the epsilon mistake

        def cost_optimal_threshold(c_fp, c_fn):
            while True:                                            # an infinite loop
                pass

        threshold_6 = 0.95
        answer_7 = "b"
        """), encoding="utf-8")
    exits = tmp_path / "exits.py"
    exits.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    loops = tmp_path / "loops.py"
    loops.write_text("while True:\n    pass\n", encoding="utf-8")
    return wrong, exits, loops


def test_chapter_names():
    assert chapter_module("3") is chapter_module("03_precision_recall") is chapter_module("precision_recall")
    assert (chapter_module("6c") is chapter_module("06c") is chapter_module("06c_prediction_sets")
            is chapter_module("prediction_sets"))
    assert chapter_module("7c") is chapter_module("masks_keypoints_errors")
    with pytest.raises(ValueError, match="chapter must be"):
        chapter_module("99")


def test_submission_code_skips_checks_and_magics(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": "%matplotlib inline\nx = 1"},
                    {"cell_type": "markdown", "source": "text"},
                    {"cell_type": "code", "source": "ex1.check(x)"}]}
    path = tmp_path / "s.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert submission_code(path) == ["x = 1"]
    with pytest.raises(ValueError, match=".py or .ipynb"):
        submission_code(tmp_path / "s.txt")


def test_right_wrong_blank_exiting_and_looping_submissions(submissions, tmp_path):
    wrong, exits, loops = submissions
    out_csv, out_json = tmp_path / "marks.csv", tmp_path / "marks.json"
    command = [sys.executable, "-m", "mltutor.grade", "precision_recall", str(RIGHT), str(BLANK),
               str(wrong), str(exits), str(loops), "--time-limit", "6", "--case-time-limit", "0.5",
               "--csv", str(out_csv), "--json", str(out_json)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
    results = {Path(r["submission"]).name: r for r in json.loads(out_json.read_text())}
    n = len(chapter_module("precision_recall").__all__)
    by_path = {r["submission"]: r for r in json.loads(out_json.read_text())}
    assert by_path[str(RIGHT)]["points"] == n and by_path[str(RIGHT)]["score"] == 1.0
    assert by_path[str(BLANK)]["points"] == 0
    assert {e["status"] for e in by_path[str(BLANK)]["exercises"]} == {"not attempted"}
    w = {e["exercise"]: e for e in results["wrong.py"]["exercises"]}
    assert (w["ex1"]["passed"], w["ex1"]["total"]) == (3, 8)          # partial credit
    assert w["ex1"]["misconception"] == "epsilon"
    assert w["ex3"]["passed"] == 0 and "took over 0.5 s" in w["ex3"]["cases"][0]["problem"]
    assert w["ex6"]["misconception"] == "wrong_answer_1" and w["ex7"]["score"] == 1.0
    assert results["wrong.py"]["points"] == pytest.approx(3 / 8 + 1)
    assert results["exits.py"]["points"] == 0 and "SystemExit" in results["exits.py"]["errors"][0]
    assert results["loops.py"]["status"] == "timeout" and results["loops.py"]["points"] == 0
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert len(rows) == 5 * (n + 1)
    assert {"submission", "exercise", "kind", "status", "passed", "total", "score"} == set(rows[0])
    assert "wrong.py: 1.38 / 7 (graded)" in done.stdout


def test_grade_submission_reports_a_crashing_worker(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("x = 1", encoding="utf-8")
    result = grade_submission("3", bad, time_limit=30)
    assert result["status"] == "error" and result["points"] == 0
