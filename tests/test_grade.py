"""The batch grader: every submission isolated, every attack of issue 23 scored as it deserves.

Each attack test grades the cheat with an honest control (``solutions/03_precision_recall``,
7/7) in the same batch; before issue 23 each of them gave the cheat marks it did not earn, or took
marks from the honest submission, or crashed the batch.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mltutor.grading.batch import (
    CSV_FIELDS,
    chapter_module,
    grade_submission,
    grade_submissions,
    submission_blocks,
    submission_code,
)

ROOT = Path(__file__).resolve().parents[1]
RIGHT = ROOT / "solutions" / "03_precision_recall.ipynb"
BLANK = ROOT / "exercises" / "03_precision_recall.ipynb"
N = len(chapter_module("precision_recall").__all__)
FAST = {"time_limit": 30, "case_time_limit": 0.5, "cell_time_limit": 5}

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the batch grader is POSIX only")


def honest_code() -> str:
    """The solutions notebook's code as one .py file (its check cells left out)."""
    return "\n\n".join(submission_code(RIGHT))


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def by_student(results) -> dict:
    return {r["student"]: r for r in results}


def exercises(result) -> dict:
    return {e["exercise"]: e for e in result["exercises"]}


@pytest.fixture()
def honest(tmp_path):
    """Two honest submissions in a folder of their own: a notebook and a .py file."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    alice = folder / "alice.ipynb"
    alice.write_bytes(RIGHT.read_bytes())
    bob = write(folder, "bob.py", honest_code())
    return folder, alice, bob


def assert_full_marks(result) -> None:
    assert result["points"] == N, (
        result.get("student"),
        result["errors"],
        [(e["exercise"], e["status"], e["message"][:80]) for e in result["exercises"]],
    )


def test_chapter_names():
    assert (
        chapter_module("3")
        is chapter_module("03_precision_recall")
        is chapter_module("precision_recall")
    )
    assert (
        chapter_module("6c")
        is chapter_module("06c")
        is chapter_module("06c_prediction_sets")
        is chapter_module("prediction_sets")
    )
    assert chapter_module("7c") is chapter_module("masks_keypoints_errors")
    with pytest.raises(ValueError, match="chapter must be"):
        chapter_module("99")


def test_submission_code_skips_checks_magics_and_nbgrader_tests(tmp_path):
    test_cell = {
        "cell_type": "code",
        "source": "require(ex1, f)",
        "metadata": {"nbgrader": {"grade": True, "solution": False, "grade_id": "t"}},
    }
    nb = {
        "cells": [
            {"cell_type": "code", "source": "%matplotlib inline\nx = 1"},
            {"cell_type": "markdown", "source": "text"},
            {"cell_type": "code", "source": "ex1.check(x)"},
            test_cell,
            {"cell_type": "code", "source": ["y = ", "2"]},
        ]
    }
    path = tmp_path / "s.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert submission_code(path) == ["x = 1", "y = 2"]
    assert [label for label, _ in submission_blocks(path)] == ["cell 1", "cell 5"]
    with pytest.raises(ValueError, match=".py or .ipynb"):
        submission_code(tmp_path / "s.txt")


def test_right_wrong_blank_exiting_and_looping_submissions(tmp_path):
    wrong = write(
        tmp_path,
        "wrong.py",
        """
        def precision_recall(tp, fp, fn, zero_division=0.0):
            return tp / (tp + fp + 1e-6), tp / (tp + fn + 1e-6)   # the epsilon mistake

        def cost_optimal_threshold(c_fp, c_fn):
            while True:                                            # an infinite loop
                pass

        threshold_6 = 0.95
        answer_7 = "b"
        """,
    )
    exits = write(tmp_path, "exits.py", "import sys\nsys.exit(3)\n")
    loops = write(tmp_path, "loops.py", "while True:\n    pass\n")
    out_csv, out_json = tmp_path / "marks.csv", tmp_path / "marks.json"
    command = [
        sys.executable,
        "-m",
        "mltutor.grading",
        "precision_recall",
        str(RIGHT),
        str(BLANK),
        str(wrong),
        str(exits),
        str(loops),
        "--time-limit",
        "20",
        "--case-time-limit",
        "0.5",
        "--cell-time-limit",
        "2",
        "--csv",
        str(out_csv),
        "--json",
        str(out_json),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=180)
    results = json.loads(out_json.read_text())
    by_path = {r["submission"]: r for r in results}
    assert by_path[str(RIGHT)]["points"] == N and by_path[str(RIGHT)]["score"] == 1.0
    assert by_path[str(RIGHT)]["student"] == "solutions"  # the stems repeat: the folder
    assert by_path[str(BLANK)]["points"] == 0
    assert {e["status"] for e in by_path[str(BLANK)]["exercises"]} == {"not attempted"}
    w = exercises(by_student(results)["wrong"])
    assert (w["ex1"]["passed"], w["ex1"]["total"]) == (3, 8)  # partial credit
    assert w["ex1"]["misconception"] == "epsilon"
    assert w["ex3"]["passed"] == 0 and "took over 0.5 s" in w["ex3"]["cases"][0]["problem"]
    assert w["ex6"]["misconception"] == "wrong_answer_1" and w["ex7"]["score"] == 1.0
    assert by_student(results)["wrong"]["points"] == pytest.approx(3 / 8 + 1)
    exited = by_student(results)["exits"]
    assert exited["points"] == 0 and "SystemExit" in exited["errors"][0]
    looped = by_student(results)["loops"]
    assert looped["points"] == 0 and "ran over 2 s" in looped["errors"][0]
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert len(rows) == 5 * (N + 1) and tuple(rows[0]) == CSV_FIELDS
    epsilon = next(r for r in rows if r["student"] == "wrong" and r["exercise"] == "ex1")
    assert (
        epsilon["misconception"] == "epsilon"
        and "Your results match a known mistake" in epsilon["message"]
    )
    assert f"wrong: 1.38 / {N} (graded)" in done.stdout


def test_a_module_beside_the_submissions_shadows_nothing(honest):
    """A student's numpy.py in the submissions folder once fell an honest notebook to 1/7."""
    folder, alice, bob = honest
    write(folder, "numpy.py", "raise ImportError('a student shadowed numpy')\n")
    write(folder, "mltutor.py", "raise ImportError('a student shadowed mltutor')\n")
    shadow = write(
        folder,
        "shadow.py",
        """
        open("numpy.py", "w").write("raise ImportError('shadowed from the run directory')")
        """,
    )
    results = by_student(grade_submissions("3", [shadow, alice, bob], **FAST))
    assert_full_marks(results["alice"])
    assert_full_marks(results["bob"])
    assert results["shadow"]["points"] == 0


def test_a_submission_cannot_write_its_own_result(honest):
    """It once read --result-file from sys.argv, wrote 7/7 there and scored 7/7 with no work."""
    folder, alice, _ = honest
    forger = write(
        folder,
        "forger.py",
        """
        import json, os, struct, sys
        fake = {"submission": __file__, "status": "graded", "errors": [], "points": 7,
                "max_points": 7, "score": 1.0, "exercises": []}
        if "--result-file" in sys.argv:                       # the old channel
            open(sys.argv[sys.argv.index("--result-file") + 1], "w").write(json.dumps(fake))
        for fd in map(int, os.listdir("/proc/self/fd")):      # the new one: forged replies
            if fd < 3:
                continue
            for message in ({"type": "cells_done"}, {"type": "answer", "id": 1, "state": "value",
                                                     "value": 0.05, "secret": "guessed"}):
                data = json.dumps(message).encode()
                try:
                    os.write(fd, struct.pack(">I", len(data)) + data)
                except OSError:
                    pass
        """,
    )
    results = by_student(grade_submissions("3", [forger, alice], **FAST))
    assert results["forger"]["points"] == 0
    assert any("grading channel" in e for e in results["forger"]["errors"])
    assert_full_marks(results["alice"])


def test_a_submission_cannot_blank_or_delete_another(honest):
    folder, alice, bob = honest
    before = {p.name: p.read_bytes() for p in (alice, bob)}
    vandal = write(
        folder,
        "aaa_vandal.py",
        f"""
        import glob, os
        for path in glob.glob({str(folder)!r} + "/*") + glob.glob("../*"):
            for attempt in (lambda: open(path, "w").close(), lambda: os.remove(path)):
                try:
                    attempt()
                except OSError:
                    pass
        """,
    )
    results = by_student(grade_submissions("3", [vandal, alice, bob], **FAST))
    assert_full_marks(results["alice"])
    assert_full_marks(results["bob"])
    assert {p.name: p.read_bytes() for p in (alice, bob)} == before


def test_a_submission_cannot_read_another(honest):
    folder, alice, _ = honest
    copycat = write(
        folder,
        "copycat.py",
        f"""
        import json
        try:
            cells = json.load(open({str(alice)!r}))["cells"]
        except OSError:
            cells = []
        for cell in cells:
            if cell["cell_type"] == "code" and ".check(" not in "".join(cell["source"]):
                exec("".join(cell["source"]))
        """,
    )
    results = by_student(grade_submissions("3", [alice, copycat], **FAST))
    assert_full_marks(results["alice"])
    assert results["copycat"]["points"] == 0


def test_a_detached_process_cannot_outlive_its_submission(honest, tmp_path):
    """One started with start_new_session=True once outlived its limit and killed the next worker."""
    folder, alice, _ = honest
    marker = tmp_path / "still-alive"
    killer = f"""
import os, signal, time
time.sleep(1.5)
open({str(marker)!r}, "w").write(str(os.getpid()))
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid():
        try:
            if b"_worker.py" in open(f"/proc/{{pid}}/cmdline", "rb").read():
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass
"""
    detacher = write(
        folder,
        "detacher.py",
        f"""
        import os, subprocess, sys
        try:
            subprocess.Popen([sys.executable, "-c", {killer!r}], start_new_session=True)
        except Exception:
            pass
        try:
            if os.fork() == 0:
                os.setsid()
                exec({killer!r})
                os._exit(0)
        except Exception:
            pass
        def precision_recall(tp, fp, fn, zero_division=0.0):
            while True:
                pass
        """,
    )
    results = by_student(grade_submissions("3", [detacher, alice], **FAST))
    assert_full_marks(results["alice"])
    time.sleep(2.0)
    assert not marker.exists()


def supervise(cfg: dict) -> dict:
    """Run the supervisor on ``cfg`` until its worker ends (its standard input stays open)."""
    from mltutor.grading import _supervisor

    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", _supervisor.__file__, json.dumps(cfg)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        line = proc.stdout.readline()
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
    return json.loads(line)


def test_the_supervisor_kills_a_process_that_left_the_group(tmp_path):
    """Past the audit hook (say, a submission that found a way to fork), the supervisor still
    kills every process the worker left behind: it is their subreaper."""
    if not sys.platform.startswith("linux"):
        pytest.skip("child subreapers are Linux only")

    pid_file = tmp_path / "grandchild.pid"
    script = textwrap.dedent(f"""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:               # a daemon: new session, parent gone
                open({str(pid_file)!r}, "w").write(str(os.getpid()))
                time.sleep(60)
            os._exit(0)
        time.sleep(0.5)
        """)
    cfg = {
        "argv": [sys.executable, "-c", script],
        "env": {},
        "cwd": str(tmp_path),
        "log": str(tmp_path / "log"),
        "pass_fds": [],
    }
    assert supervise(cfg) == {"exit": 0}
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and Path(f"/proc/{grandchild}").exists():
        time.sleep(0.05)
    assert not Path(f"/proc/{grandchild}").exists()


def test_the_supervisor_sets_the_resource_limits(tmp_path):
    script = (
        "import resource\n"
        "for name in ('RLIMIT_AS', 'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_NPROC', "
        "'RLIMIT_CORE'):\n"
        "    print(name, *resource.getrlimit(getattr(resource, name)))\n"
    )
    cfg = {
        "argv": [sys.executable, "-c", script],
        "env": {},
        "cwd": str(tmp_path),
        "log": str(tmp_path / "log"),
        "pass_fds": [],
        "memory_bytes": 2**30,
        "cpu_seconds": 7,
        "file_bytes": 2**20,
        "nproc_extra": 5,
    }
    assert supervise(cfg) == {"exit": 0}
    limits = {
        line.split()[0]: [int(v) for v in line.split()[1:]]
        for line in (tmp_path / "log").read_text().splitlines()
    }
    assert limits["RLIMIT_AS"] == [2**30, 2**30]
    assert limits["RLIMIT_CPU"] == [7, 8]
    assert limits["RLIMIT_FSIZE"] == [2**20, 2**20]
    assert limits["RLIMIT_CORE"] == [0, 0]
    assert 5 < limits["RLIMIT_NPROC"][0] < 10**6


def test_memory_cpu_and_file_size_are_limited(honest):
    """1.5 GB allocated, an endless loop and a large file once went through unchecked."""
    folder, alice, _ = honest
    hungry = write(
        folder,
        "hungry.py",
        """
        big = bytearray(3 * 2**30)                  # over --memory-limit
        def precision_recall(tp, fp, fn, zero_division=0.0):
            more = bytearray(3 * 2**30)
            return 1.0, 0.75
        """,
    )
    writer = write(
        folder,
        "writer.py",
        """
        with open("big.bin", "wb") as f:            # over --file-size-limit
            f.write(b"x" * 2 * 2**20)
        """,
    )
    spinner = write(
        folder,
        "spinner.py",
        """
        import signal
        signal.signal(signal.SIGALRM, signal.SIG_IGN)   # the soft cell limit switched off
        while True:                                  # until --cpu-limit stops it
            pass
        """,
    )
    results = by_student(
        grade_submissions(
            "3",
            [hungry, writer, spinner, alice],
            memory_limit=1024,
            file_size_limit=1,
            cpu_limit=2,
            time_limit=30,
            case_time_limit=0.5,
            cell_time_limit=20,
        )
    )
    assert_full_marks(results["alice"])
    assert results["hungry"]["points"] == 0
    assert "MemoryError" in results["hungry"]["errors"][0]
    assert exercises(results["hungry"])["ex1"]["status"] == "error"  # its cell raised
    assert results["writer"]["points"] == 0 and "File too large" in results["writer"]["errors"][0]
    assert results["spinner"]["points"] == 0
    assert "CPU" in results["spinner"]["errors"][0], results["spinner"]["errors"]


def test_a_cell_that_does_not_parse_or_raises_is_reported_as_such(tmp_path):
    """A cell with a syntax error was once reported "not attempted"."""
    nb = json.loads(RIGHT.read_text(encoding="utf-8"))
    cells = nb["cells"]
    first = next(k for k, c in enumerate(cells) if "def precision_recall" in "".join(c["source"]))
    second = next(
        k for k, c in enumerate(cells) if "def metrics_at_threshold" in "".join(c["source"])
    )
    cells[first]["source"] = (
        "def precision_recall(tp, fp, fn, zero_division=0.0)\n    return 1, 1\n"
    )
    cells[second]["source"] = (
        "def metrics_at_threshold(y_true, y_score, threshold):\n"
        "    return 1.0, 1.0, 1.0\nraise ValueError('oops')\n"
    )
    path = tmp_path / "typo.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    result = grade_submission("3", path, **FAST)
    ex = exercises(result)
    assert ex["ex1"]["status"] == "error" and ex["ex1"]["score"] == 0
    assert f"cell {first + 1} does not parse" in ex["ex1"]["message"]
    assert "SyntaxError" in ex["ex1"]["message"]
    assert any(f"cell {second + 1} raised ValueError: oops" in e for e in result["errors"])
    assert ex["ex2"]["status"] == "incorrect"  # defined before the raise: graded
    assert result["points"] == pytest.approx(N - 2 + ex["ex2"]["score"])


def test_hanging_functions_do_not_use_up_the_time_of_the_others(tmp_path):
    """Three hanging functions once used 115 of 120 s, so one more case zeroed right answers."""
    stubborn = """
    while True:
        try:
            time.sleep(10)
        except BaseException:      # swallows the worker's soft time limit
            pass
"""
    code = honest_code() + "\nimport time\n"
    for name, args in (
        ("precision_recall", "tp, fp, fn, zero_division=0.0"),
        ("metrics_at_threshold", "y_true, y_score, threshold"),
        ("cost_optimal_threshold", "c_fp, c_fn"),
    ):
        code += f"\ndef {name}({args}):{stubborn}"
    path = tmp_path / "hangs.py"
    path.write_text(code, encoding="utf-8")
    started = time.monotonic()
    result = grade_submission("3", path, time_limit=20, case_time_limit=0.5, cell_time_limit=5)
    ex = exercises(result)
    for name in ("ex1", "ex2", "ex3"):
        assert ex[name]["passed"] == 0 and "took over 0.5 s" in ex[name]["cases"][0]["problem"]
        assert all(c["problem"].startswith("not run") for c in ex[name]["cases"][1:])
    assert result["points"] == N - 3  # ex4 to ex7 are still graded right
    assert time.monotonic() - started < 20


def test_objects_that_fool_comparisons_score_nothing(tmp_path):
    cheat = write(
        tmp_path,
        "cheat.py",
        """
        import sys
        import numpy as np
        from mltutor.exercises.precision_recall import ex1, ex6

        class AlwaysEqual(np.ndarray):           # .any() of a difference is always False
            def any(self, *a, **k):
                return False
            def __eq__(self, other):
                return np.ones(np.shape(other), bool)
            __ne__ = lambda self, other: np.zeros(np.shape(other), bool)

        class Peeking(float):                    # reads `expected` from the caller's frame
            def __float__(self):
                frame = sys._getframe(1)
                while frame is not None:
                    if "expected" in frame.f_locals:
                        return float(frame.f_locals["expected"])
                    frame = frame.f_back
                return 0.0
            __eq__ = lambda self, other: True
            __hash__ = float.__hash__

        class Yes(str):                          # equal to everything
            __eq__ = lambda self, other: True
            __hash__ = str.__hash__
            strip = lower = lambda self, *a: self

        def precision_recall(tp, fp, fn, zero_division=0.0):
            return ex1.reference(tp, fp, fn, zero_division)   # the package's own answer

        def metrics_at_threshold(y_true, y_score, threshold):
            return Peeking(0), Peeking(0), Peeking(0)

        precision_sweep = np.zeros(7).view(AlwaysEqual)
        threshold_6 = ex6.answer                              # the stored answer
        answer_7 = Yes("z")
        """,
    )
    result = grade_submission("3", cheat, **FAST)
    ex = exercises(result)
    assert {name: e["status"] for name, e in ex.items() if e["status"] == "correct"} == {}, result[
        "exercises"
    ]
    for name in ("ex1", "ex5", "ex6", "ex7"):
        assert ex[name]["score"] == 0, ex[name]
    # the peeking floats are zeros: they earn what (0.0, 0.0, 0.0) earns, no more
    zeros = chapter_module("3").ex2.grade(lambda y_true, y_score, threshold: (0.0, 0.0, 0.0))
    assert ex["ex2"]["passed"] == zeros["passed"] < zeros["total"]


def test_a_malformed_submission_is_its_own_error_never_the_batch(honest, tmp_path):
    """A malformed result file once crashed the batch (KeyError, CSV cut short, no JSON)."""
    folder, alice, bob = honest
    broken = folder / "broken.ipynb"
    broken.write_text("{ this is not json", encoding="utf-8")
    odd = folder / "odd.ipynb"
    odd.write_text(json.dumps({"cells": "not a list"}), encoding="utf-8")
    missing = folder / "missing.py"
    garbage = write(
        folder,
        "garbage.py",
        """
        import os, struct, sys
        if "--result-file" in sys.argv:                   # the old channel: a result without
            open(sys.argv[sys.argv.index("--result-file") + 1], "w").write("{}")  # "exercises"
            os._exit(0)
        for fd in map(int, os.listdir("/proc/self/fd")):  # the new one: frames that are not JSON
            if fd > 2:
                try:
                    os.write(fd, struct.pack(">I", 12) + b"not a frame!")
                except OSError:
                    pass
        """,
    )
    out_csv, out_json = tmp_path / "m.csv", tmp_path / "m.json"
    command = [
        sys.executable,
        "-m",
        "mltutor.grading",
        "3",
        str(broken),
        str(odd),
        str(missing),
        str(garbage),
        str(alice),
        str(bob),
        "--csv",
        str(out_csv),
        "--json",
        str(out_json),
        "--case-time-limit",
        "0.5",
    ]
    subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
    results = by_student(json.loads(out_json.read_text()))
    for name in ("broken", "odd", "missing"):
        assert results[name]["status"] == "error" and results[name]["points"] == 0
        assert {e["status"] for e in results[name]["exercises"]} == {"error"}
    assert results["garbage"]["points"] == 0
    assert any("grading channel" in e for e in results["garbage"]["errors"])
    assert_full_marks(results["alice"])
    assert_full_marks(results["bob"])
    assert len(list(csv.DictReader(out_csv.open(encoding="utf-8")))) == 6 * (N + 1)


def test_a_folder_that_holds_python_is_not_hidden_from_the_workers(tmp_path):
    """Submissions kept where Python lives (a home folder holding the virtual environment):
    the other submissions' files are protected one by one, so the workers can still import."""
    from mltutor.grading.batch import _submission_paths

    inside = Path(sys.prefix) / "alice.py"
    assert _submission_paths(inside) == sorted({os.path.abspath(inside), os.path.realpath(inside)})
    elsewhere = tmp_path / "bob.py"
    assert os.path.realpath(tmp_path) in _submission_paths(elsewhere)
