"""The grading tools from an installed wheel: a clear refusal without the solutions, work with them.

The wheel carries the package, not the repository's ``solutions/`` notebooks. The batch grader
needs them to turn a chapter number into its exercises, the nbgrader export to build an
assignment; from a wheel both used to fail without saying why. Here the wheel is built from a
copy of the sources, installed with ``pip install --target`` into a temporary folder, and the
command lines are run by this interpreter with only that folder ahead of its site-packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"  # a copy: building in the working tree would write build/ there
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "mltutor", source / "mltutor", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    # pyproject.toml's build-system needs setuptools >= 77: with it here, no download; otherwise
    # (a fresh venv has an older one) pip fetches it into an isolated build environment.
    local = _setuptools_major() >= 77
    built = subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--quiet",
            str(source),
            "-w",
            str(tmp / "dist"),
            *(["--no-build-isolation"] if local else []),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode and not local:
        pytest.skip(
            "building the wheel needs setuptools >= 77, not installed here and not "
            f"downloadable: {built.stderr.strip()[-300:]}"
        )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp / "dist").glob("mltutor-*.whl")
    target = tmp / "site"
    subprocess.run(
        [
            *pip,
            "install",
            "--no-deps",
            "--no-compile",
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert not (target / "solutions").exists()
    return target


def _setuptools_major() -> int:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return int(version("setuptools").split(".")[0])
    except (PackageNotFoundError, ValueError):
        return 0


def _run(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONSAFEPATH": "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_package_comes_from_the_wheel(site, tmp_path):
    result = _run(site, "-c", "import mltutor; print(mltutor.__file__)", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()).is_relative_to(site)


@pytest.mark.parametrize(
    "module, args",
    [
        ("mltutor.grading", ["3", "submission.py"]),
        ("mltutor.grading.nbgrader", ["course", "3"]),
    ],
)
def test_without_solutions_the_cli_says_what_is_missing(site, tmp_path, module, args):
    (tmp_path / "submission.py").write_text("x = 1\n")
    result = _run(site, "-m", module, *args, cwd=tmp_path)
    assert result.returncode == 2, (result.stdout, result.stderr)
    message = " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr
    assert f"no solutions notebooks (NN_topic.ipynb) in {site / 'solutions'}" in message
    assert "an installed wheel ships no solutions" in message
    assert "Pass --solutions DIR" in message
    assert not (tmp_path / "course").exists()


def test_a_chapter_by_name_needs_no_solutions(site, tmp_path):
    code = (
        "from mltutor.grading.batch import chapter_module; "
        "print(chapter_module('precision_recall').__name__)"
    )
    result = _run(site, "-c", code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "mltutor.exercises.precision_recall"


@pytest.mark.skipif(not SOLUTIONS.is_dir(), reason="needs the repository's solutions/")
def test_with_solutions_the_tools_work_from_the_wheel(site, tmp_path):
    code = (
        "import sys; from mltutor.grading.batch import chapter_module; "
        "print(chapter_module('6c', sys.argv[1]).__name__)"
    )
    result = _run(site, "-c", code, str(SOLUTIONS), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "mltutor.exercises.prediction_sets"
    result = _run(
        site,
        "-m",
        "mltutor.grading.nbgrader",
        "course",
        "3",
        "--solutions",
        str(SOLUTIONS),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    written = tmp_path / result.stdout.strip()  # printed relative to the working folder
    assert written.is_file() and written.name == "03_precision_recall.ipynb"
    assert written.resolve().is_relative_to((tmp_path / "course" / "source").resolve())
