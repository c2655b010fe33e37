"""The loose install route: a file that needs a library which is not installed is skipped, by name.

``pip install -e '.[test,book]'`` brings no torch, torchmetrics, pycocotools, faster-coco-eval or
pytrec_eval. The root ``conftest.py`` reads each test file, package module and notebook's imports
and reports the file as skipped when one is missing; these tests pretend libraries are missing.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def fresh_conftest():
    """A new instance of the root conftest module: its caches start empty in every test."""
    spec = importlib.util.spec_from_file_location("_root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


root_conftest = fresh_conftest()

OPTIONAL = {"torch", "torchmetrics", "pycocotools", "faster_coco_eval", "pytrec_eval"}


@pytest.fixture
def without_optional(monkeypatch):
    """``find_spec`` answers None for the optional reference libraries; a fresh conftest module."""
    global root_conftest
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name in OPTIONAL else real(name, *a)
    )
    root_conftest = fresh_conftest()
    yield
    root_conftest = fresh_conftest()


def test_nothing_is_missing_in_the_locked_environment():
    absent = sorted(name for name in OPTIONAL if importlib.util.find_spec(name) is None)
    if absent:
        pytest.skip(f"not the locked environment (no {', '.join(absent)})")
    conftest = fresh_conftest()
    for path in [*ROOT.glob("tests/test_*.py"), *ROOT.glob("book/*.ipynb")]:
        assert conftest.missing_libraries(path) == set(), path


def test_a_notebook_that_imports_torch_needs_torch(without_optional):
    assert root_conftest.missing_libraries(ROOT / "book/08_ucf101_case_study.ipynb") >= {"torch"}
    assert root_conftest.missing_libraries(ROOT / "book/01_confusion_matrix.ipynb") == set()


def test_a_package_module_needs_what_its_package_imports():
    """Run in a clean interpreter, so no module imported by other tests can interfere."""
    script = (
        "import importlib.util, json, sys; from pathlib import Path\n"
        "real = importlib.util.find_spec\n"
        f"optional = {sorted(OPTIONAL)!r}\n"
        "importlib.util.find_spec = lambda n, *a: None if n in optional else real(n, *a)\n"
        "spec = importlib.util.spec_from_file_location('c', sys.argv[1] + '/conftest.py')\n"
        "c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)\n"
        "root = Path(sys.argv[1])\n"
        "paths = sorted((root / 'mltutor/streaming').glob('*.py')) + [root / 'mltutor/metrics.py']\n"
        "print(json.dumps({p.name: sorted(c.missing_libraries(p)) for p in paths}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    missing = json.loads(result.stdout)
    metrics = missing.pop("metrics.py")
    assert missing and all("torch" in needs for needs in missing.values()), missing
    assert metrics == []


def test_a_test_importing_an_mltutor_module_follows_its_imports(tmp_path, without_optional):
    test_file = tmp_path / "test_uses_streaming.py"
    test_file.write_text("from mltutor.streaming import BinaryMetrics\n")
    assert root_conftest.missing_libraries(test_file) == {"torch"}


def test_a_guarded_import_is_optional(tmp_path, without_optional):
    module = tmp_path / "guarded.py"
    module.write_text("try:\n    import torch\nexcept ImportError:\n    torch = None\n")
    tree = root_conftest._parse(module)
    assert root_conftest._imported_names(tree, module_level_only=True) == set()


def test_pytest_reports_the_file_as_skipped_with_the_library_named(tmp_path):
    """End to end, in a subprocess: a test file importing an absent library is skipped, not an error."""
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "test_needs_absent.py").write_text(
        "import mltutor_absent_library_for_this_test\n\ndef test_x():\n    pass\n"
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-rs",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-p",
            "no:nbval",
            "-o",
            "addopts=",
            "test_needs_absent.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode in (0, 5), result.stdout + result.stderr  # 5: nothing ran
    assert "needs mltutor_absent_library_for_this_test" in result.stdout
    assert "1 skipped" in result.stdout
