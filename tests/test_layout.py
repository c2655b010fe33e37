"""The folder list is the architecture (issue 25): faces export on purpose, the map is true.

* Each package face (and ``mltutor.metrics``) lists in ``__all__`` exactly the public names it
  binds, as httpx's ``tests/test_exported_members.py`` does, so the surface cannot drift.
* No alias module is kept for an old home (``tests/test_plots.py::test_old_homes_are_gone``).
* The map of ``mltutor/`` in ``CONTRIBUTING.md`` names every folder and top-level module, and, for
  the kernels and the families split into private modules, every private module.
* The package imports without SciPy, which it does not declare.
"""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mltutor

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mltutor"

FACES = [
    "mltutor.metrics",
    "mltutor.exceptions",
    "mltutor.confusion",
    "mltutor.curves",
    "mltutor.detection",
    "mltutor.detection.mask",
    "mltutor.calibration",
    "mltutor.check",
    "mltutor.stats",
    "mltutor.monitoring",
    "mltutor.plots",
    "mltutor.datasets",
]


@pytest.mark.parametrize("face", FACES)
def test_face_exports_exactly_its_public_names(face):
    module = importlib.import_module(face)
    exported = list(module.__all__)
    assert len(exported) == len(set(exported)), f"{face}.__all__ repeats a name"
    bound = {
        name
        for name, value in vars(module).items()
        if (not name.startswith("_") or name in exported)  # ``____`` is public on purpose
        and not inspect.ismodule(value)
        and name != "annotations"
    }
    listed = {name for name in exported if not inspect.ismodule(getattr(module, name))}
    assert bound == listed, (
        f"{face}: bound but not in __all__: {sorted(bound - listed)}; "
        f"in __all__ but not bound: {sorted(listed - bound)}"
    )


@pytest.mark.parametrize("face", FACES)
def test_face_imports_only_from_its_own_modules_or_other_faces(face):
    """A face re-exports; it does not define arithmetic (a class or function of its own)."""
    module = importlib.import_module(face)
    own = [
        name
        for name, value in vars(module).items()
        if (inspect.isfunction(value) or inspect.isclass(value))
        and getattr(value, "__module__", None) == face
    ]
    allowed = {"mltutor.exceptions": {"UndefinedMetricWarning", "SmallBinWarning"}}.get(face, set())
    assert set(own) <= allowed, f"{face} defines {own}: move them into a private module"


def test_a_face_that_grows_a_definition_fails(tmp_path):
    """The check above can fail: a face module with a function of its own is caught."""
    (tmp_path / "fakeface.py").write_text("__all__ = ['f']\ndef f():\n    return 1\n")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("fakeface")
        own = [
            n
            for n, v in vars(module).items()
            if inspect.isfunction(v) and v.__module__ == "fakeface"
        ]
        assert own == ["f"]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("fakeface", None)


def _contributing_map() -> dict[str, str]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- package-map[^>]*-->\s*```text\n(.*?)```", text, re.S).group(1)
    entries, current = {}, None
    for line in block.splitlines()[1:]:
        entry = re.match(r"[├└]── (\S+)\s*(.*)", line)
        if entry:
            current = entry.group(1).rstrip("/").removesuffix(".py")
            entries[current] = entry.group(2)
        elif current:
            entries[current] += " " + line.strip("│ ")
    return entries


def test_the_map_names_every_folder_and_top_level_module():
    mapped = set(_contributing_map())
    actual = {
        p.stem if p.suffix == ".py" else p.name
        for p in PACKAGE.iterdir()
        if p.name not in ("__init__.py", "__pycache__") and (p.is_dir() or p.suffix == ".py")
    }
    assert mapped == actual, (
        f"in mltutor/ but not in CONTRIBUTING's map: {sorted(actual - mapped)}; "
        f"in the map but not in mltutor/: {sorted(mapped - actual)}"
    )


@pytest.mark.parametrize("package", ["confusion", "curves", "detection", "calibration", "check"])
def test_the_map_names_every_private_module_of_a_family(package):
    text = _contributing_map()[package]
    mapped = set(re.findall(r"(?<![\w.])(_[a-z_]+)\b", text))
    actual = {p.stem for p in (PACKAGE / package).glob("_*.py") if p.name != "__init__.py"}
    assert mapped == actual, f"{package}/: map {sorted(mapped)} vs folder {sorted(actual)}"


def test_the_package_imports_without_scipy():
    """scipy is not a dependency: every module but the torch one imports with scipy blocked."""
    code = (
        "import importlib, pkgutil, sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'scipy' or name.startswith('scipy.'):\n"
        "            raise ImportError('scipy blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import mltutor\n"
        "for info in pkgutil.walk_packages(mltutor.__path__, 'mltutor.'):\n"
        "    if info.name.endswith('__main__') or info.name.startswith('mltutor.streaming'):\n"
        "        continue\n"
        "    importlib.import_module(info.name)\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]


def test_the_package_docstring_points_at_real_things():
    doc = mltutor.__doc__
    assert "DESIGN" not in doc
    for name in re.findall(r":mod:`(mltutor(?:\.\w+)*)`", doc):
        importlib.import_module(name)
