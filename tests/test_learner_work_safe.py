"""Nothing a person wrote is overwritten: learner copies in workspace/, hand edits in exercises/.

Everything happens in tmp_path: the scripts take their folders as arguments.  Most tests generate
without executing (``--no-execute``); one runs the real chapter-1 notebook through a kernel.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_exercises = load_script("make_exercises")
lab = load_script("lab")
run_notebooks = load_script("run_notebooks")


def tiny_solution(statement: str = "Write `double(x)`.") -> nbformat.NotebookNode:
    nb = new_notebook(
        cells=[
            new_markdown_cell(
                "# Exercises: tiny\n\n<!-- BEGIN SOLUTION -->\nOur answers.\n<!-- END SOLUTION -->"
            ),
            new_markdown_cell(f"## 1. Double\n\n{statement}"),
            new_code_cell(
                'def double(x):\n    """Twice x."""\n    ### BEGIN SOLUTION\n    return 2 * x\n'
                "    ### END SOLUTION"
            ),
            new_code_cell(
                "### BEGIN SOLUTION\nanswer = 42\nx, y = 1, 2\n### END SOLUTION\nprint('ok')"
            ),
        ]
    )
    for k, cell in enumerate(nb.cells):
        cell.id = f"cell-{k}"
    return nb


@pytest.fixture
def dirs(tmp_path):
    sol, ex, ws = tmp_path / "solutions", tmp_path / "exercises", tmp_path / "workspace"
    sol.mkdir()
    nbformat.write(tiny_solution(), sol / "01_tiny.ipynb")
    return sol, ex, ws


def generate(sol, ex, *extra):
    return make_exercises.main(
        ["--solutions-dir", str(sol), "--exercises-dir", str(ex), "--no-execute", *extra]
    )


def edit_first_code_cell(path: Path, text: str) -> None:
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code")
    cell.source = text
    nbformat.write(nb, path)


# --------------------------------------------------------------------------------------------
# make_exercises.py
# --------------------------------------------------------------------------------------------


def test_generation_replaces_solutions_with_runnable_placeholders(dirs):
    sol, ex, _ = dirs
    assert generate(sol, ex) == 0
    nb = nbformat.read(ex / "01_tiny.ipynb", as_version=4)
    sources = [c.source for c in nb.cells]
    assert sources[0] == "# Exercises: tiny"  # solution-only Markdown dropped
    assert sources[2] == (
        'def double(x):\n    """Twice x."""\n    # YOUR CODE HERE\n    raise NotImplementedError'
    )
    assert sources[3] == (
        "answer = ...  # YOUR CODE HERE\nx = ...  # YOUR CODE HERE\n"
        "y = ...  # YOUR CODE HERE\nprint('ok')"
    )
    assert [c.id for c in nb.cells] == [f"cell-{k}" for k in range(4)]  # ids kept: small diffs
    meta = nb.metadata["mltutor"]
    assert meta["source_sha256"] == make_exercises.nbt.sources_sha256(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    namespace: dict = {}
    for cell in nb.cells[2:]:
        exec(cell.source, namespace)  # noqa: S102 - the placeholders run
    with pytest.raises(NotImplementedError):
        namespace["double"](1)


def test_regenerating_an_unedited_exercise_just_works(dirs, capsys):
    sol, ex, _ = dirs
    assert generate(sol, ex) == 0
    assert generate(sol, ex) == 0
    assert "up to date" in capsys.readouterr().out
    nbformat.write(tiny_solution("Write `double(x)`, returning twice `x`."), sol / "01_tiny.ipynb")
    assert generate(sol, ex) == 0
    assert "updated" in capsys.readouterr().out
    nb = nbformat.read(ex / "01_tiny.ipynb", as_version=4)
    assert "returning twice" in nb.cells[1].source
    assert make_exercises.check_sync(sol, ex) == []


def test_hand_edited_exercise_is_refused_without_force(dirs, capsys):
    sol, ex, _ = dirs
    assert generate(sol, ex) == 0
    target = ex / "01_tiny.ipynb"
    edit_first_code_cell(target, "def double(x):\n    return x + x  # edited by hand")
    before = target.read_bytes()
    nbformat.write(tiny_solution("A changed statement."), sol / "01_tiny.ipynb")

    assert generate(sol, ex) == 2
    err = capsys.readouterr().err
    assert "REFUSED" in err and "01_tiny.ipynb" in err and "--force" in err
    assert target.read_bytes() == before  # untouched

    assert generate(sol, ex, "--force") == 0
    assert "OVERWROTE" in capsys.readouterr().out
    assert "edited by hand" not in target.read_text()
    assert make_exercises.check_sync(sol, ex) == []


def test_exercise_without_stored_hash_is_treated_as_hand_written(dirs):
    sol, ex, _ = dirs
    ex.mkdir()
    nbformat.write(new_notebook(cells=[new_markdown_cell("# Mine")]), ex / "01_tiny.ipynb")
    assert generate(sol, ex) == 2
    assert nbformat.read(ex / "01_tiny.ipynb", as_version=4).cells[0].source == "# Mine"


def test_check_mode_reports_and_never_writes(dirs, capsys):
    sol, ex, _ = dirs
    assert (
        make_exercises.main(["--solutions-dir", str(sol), "--exercises-dir", str(ex), "--check"])
        == 1
    )
    assert "missing" in capsys.readouterr().err
    assert not ex.exists()

    assert generate(sol, ex) == 0
    check = ["--solutions-dir", str(sol), "--exercises-dir", str(ex), "--check"]
    assert make_exercises.main(check) == 0

    # outputs do not matter, only sources
    target = ex / "01_tiny.ipynb"
    nb = nbformat.read(target, as_version=4)
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", name="stdout", text="hi\n")]
    nb.cells[2].execution_count = 7
    nbformat.write(nb, target)
    assert make_exercises.main(check) == 0

    nbformat.write(tiny_solution("Changed."), sol / "01_tiny.ipynb")
    before = target.read_bytes()
    assert make_exercises.main(check) == 1
    assert "01_tiny.ipynb" in capsys.readouterr().err
    assert target.read_bytes() == before

    shutil.copy(target, ex / "02_orphan.ipynb")
    assert any("02_orphan" in p for p in make_exercises.check_sync(sol, ex))


def test_unbalanced_markers_are_an_error(dirs, capsys):
    sol, ex, _ = dirs
    nb = tiny_solution()
    nb.cells[2].source = "def f():\n    ### BEGIN SOLUTION\n    return 1\n"
    nbformat.write(nb, sol / "01_tiny.ipynb")
    assert generate(sol, ex) == 2
    assert "without an END" in capsys.readouterr().err


def test_generate_and_execute_the_real_chapter(tmp_path):
    """End to end, with a kernel: the generated notebook equals the committed one and runs clean."""
    sol, ex = tmp_path / "solutions", tmp_path / "exercises"
    sol.mkdir()
    shutil.copy(ROOT / "solutions" / "01_confusion_matrix.ipynb", sol)
    code = make_exercises.main(
        ["--solutions-dir", str(sol), "--exercises-dir", str(ex), "--timeout", "120"]
    )
    assert code == 0
    generated = nbformat.read(ex / "01_confusion_matrix.ipynb", as_version=4)
    committed = nbformat.read(ROOT / "exercises" / "01_confusion_matrix.ipynb", as_version=4)
    assert [(c.cell_type, c.source) for c in generated.cells] == [
        (c.cell_type, c.source) for c in committed.cells
    ]
    checks = [c for c in generated.cells if c.cell_type == "code" and ".check(" in c.source]
    assert checks and all(
        c.outputs[0]["data"]["text/plain"].startswith("⏳ Not attempted") for c in checks
    )
    assert all("execution" not in c.metadata for c in generated.cells)
    # the committed copy carries the same outputs (only execution counts could differ)
    assert [c.get("outputs") for c in generated.cells] == [
        c.get("outputs") for c in committed.cells
    ]


# --------------------------------------------------------------------------------------------
# lab.py
# --------------------------------------------------------------------------------------------


def test_lab_copies_new_notebooks_and_never_overwrites(dirs, capsys):
    sol, ex, ws = dirs
    assert generate(sol, ex) == 0
    args = ["--exercises-dir", str(ex), "--workspace", str(ws), "--no-launch"]

    assert lab.main(args) == 0
    assert "copied  01_tiny.ipynb" in capsys.readouterr().out
    mine = ws / "01_tiny.ipynb"
    assert mine.read_bytes() == (ex / "01_tiny.ipynb").read_bytes()

    # The learner works on their copy ...
    edit_first_code_cell(mine, "def double(x):\n    return 2 * x  # my answer")
    learner_bytes = mine.read_bytes()
    # ... the exercises are regenerated, and a new one appears ...
    nbformat.write(tiny_solution("New wording."), sol / "01_tiny.ipynb")
    shutil.copy(sol / "01_tiny.ipynb", sol / "02_more.ipynb")
    assert generate(sol, ex) == 0
    # ... and `make lab` again keeps their work and adds only the new notebook.
    assert lab.main(args) == 0
    out = capsys.readouterr().out
    assert "kept    01_tiny.ipynb" in out and "copied  02_more.ipynb" in out
    assert mine.read_bytes() == learner_bytes
    assert (ws / "02_more.ipynb").exists()


def test_lab_cli_no_launch(dirs):
    sol, ex, ws = dirs
    assert generate(sol, ex) == 0
    proc = subprocess.run(
        [
            sys.executable,
            str(SCRIPTS / "lab.py"),
            "--exercises-dir",
            str(ex),
            "--workspace",
            str(ws),
            "--no-launch",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "copied" in proc.stdout and (ws / "01_tiny.ipynb").exists()


def test_lab_without_exercises_folder_fails_clearly(tmp_path, capsys):
    assert (
        lab.main(
            [
                "--exercises-dir",
                str(tmp_path / "nope"),
                "--workspace",
                str(tmp_path / "ws"),
                "--no-launch",
            ]
        )
        == 2
    )
    assert "no exercises folder" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# run_notebooks.py
# --------------------------------------------------------------------------------------------


def test_run_notebooks_executes_in_place_with_cwd_of_the_notebook(tmp_path, capsys):
    folder = tmp_path / "book"
    folder.mkdir()
    nb = new_notebook(
        cells=[
            new_code_cell("import os\nprint(os.path.basename(os.getcwd()))"),
            new_code_cell("print(os.environ['MLTUTOR_STRICT'])"),
        ]
    )
    nb.metadata["vscode"] = {"noise": True}
    nbformat.write(nb, folder / "01_x.ipynb")
    assert run_notebooks.main([str(folder), "--timeout", "60"]) == 0
    out = capsys.readouterr().out
    assert "[1/1]" in out and "01_x.ipynb … ok (" in out
    done = json.loads((folder / "01_x.ipynb").read_text())
    assert "".join(done["cells"][0]["outputs"][0]["text"]) == "book\n"
    assert "".join(done["cells"][1]["outputs"][0]["text"]) == "1\n"
    assert "vscode" not in done["metadata"] and "version" not in done["metadata"]["language_info"]
    assert all("execution" not in c["metadata"] for c in done["cells"])


def test_run_notebooks_reports_failures(tmp_path, capsys):
    nbformat.write(new_notebook(cells=[new_code_cell("1 / 0")]), tmp_path / "bad.ipynb")
    assert run_notebooks.main([str(tmp_path / "bad.ipynb"), "--timeout", "60"]) == 1
    captured = capsys.readouterr()
    assert "FAILED" in captured.out and "ZeroDivisionError" in captured.err
