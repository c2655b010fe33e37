"""A release you can cite (issue 26): one version, a changelog, extras with clear import errors.

* The version is written once, in ``pyproject.toml``; ``mltutor.__version__`` and the installed
  metadata carry the same string, and ``CHANGELOG.md`` has a section for it.
* The ``widgets`` and ``torch`` extras exist, and each admits the version ``requirements.txt``
  pins (torch exactly, never a range that lets 2.14's CUDA build in).
* With ipywidgets or torch blocked (``sys.modules[name] = None``, which makes ``import name`` raise
  ``ImportError``), the explorer and ``mltutor.streaming`` raise an ``ImportError`` naming the
  extra, chained to the original error.
* ``make smoke`` (``scripts/smoke_wheel.sh``) is wired into ``.ci/run`` and ``make help``; the
  smoke test itself builds and installs, so it runs there, not here.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import tomllib

import mltutor

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REQUIREMENTS = (ROOT / "requirements.txt").read_text(encoding="utf-8")


def _pinned(name: str) -> str:
    return re.search(rf"^{re.escape(name)}==(\S+)", REQUIREMENTS, flags=re.M).group(1)


def test_the_version_is_written_once_and_agrees():
    version = PYPROJECT["project"]["version"]
    assert "version" not in PYPROJECT["project"].get("dynamic", [])
    assert mltutor.__version__ == version
    assert importlib.metadata.version("mltutor") == version
    # No second literal of the version in the package's code.
    init = (ROOT / "mltutor" / "__init__.py").read_text(encoding="utf-8")
    assert f'"{version}"' not in init


def test_the_changelog_has_the_version_and_the_readme_links_it():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    version = PYPROJECT["project"]["version"]
    sections = re.findall(r"^## \[?(\d+\.\d+\.\d+)\]?", changelog, flags=re.M)
    assert sections and sections[0] == version, sections
    assert "Keep a Changelog" in changelog
    assert "](CHANGELOG.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_extras_admit_the_pinned_versions():
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert extras["torch"] == [f"torch=={_pinned('torch')}"]
    assert _pinned("torch").startswith("2.13.")
    (widgets,) = extras["widgets"]
    lower = re.fullmatch(r"ipywidgets>=(\d+)", widgets)
    assert lower is not None, widgets
    assert int(_pinned("ipywidgets").split(".")[0]) >= int(lower.group(1))


def _block(monkeypatch: pytest.MonkeyPatch, blocked: str, reimport: str) -> None:
    """Make ``import blocked`` fail and forget ``reimport`` and its submodules."""
    monkeypatch.setitem(sys.modules, blocked, None)
    for name in [n for n in sys.modules if n == reimport or n.startswith(reimport + ".")]:
        monkeypatch.delitem(sys.modules, name)


def test_streaming_without_torch_names_the_extra(monkeypatch):
    pytest.importorskip("torch")  # the real module must import when torch is there
    _block(monkeypatch, "torch", "mltutor.streaming")
    with pytest.raises(ImportError, match=re.escape('pip install "mltutor[torch]"')) as info:
        importlib.import_module("mltutor.streaming")
    assert isinstance(info.value.__cause__, ImportError)
    # A submodule imported directly goes through the package first: the same message.
    with pytest.raises(ImportError, match=re.escape('"mltutor[torch]"')):
        importlib.import_module("mltutor.streaming.multiclass")


def test_streaming_imports_when_torch_is_there():
    pytest.importorskip("torch")
    streaming = importlib.import_module("mltutor.streaming")
    assert "MulticlassMetrics" in streaming.__all__


def test_threshold_explorer_without_ipywidgets_names_the_extra(monkeypatch):
    from mltutor.plots import threshold_explorer

    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    y_true = np.array([0, 1, 0, 1, 1, 0])
    y_score = np.array([0.1, 0.8, 0.4, 0.35, 0.9, 0.2])
    with pytest.raises(ImportError, match=re.escape('pip install "mltutor[widgets]"')) as info:
        threshold_explorer(y_true, y_score)
    assert isinstance(info.value.__cause__, ImportError)


def test_the_static_explorer_needs_no_ipywidgets(monkeypatch):
    # The static twin is for the web page: it must not need the extra.
    from mltutor.plots import static_threshold_explorer

    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    y_true = np.array([0, 1, 0, 1, 1, 0])
    y_score = np.array([0.1, 0.8, 0.4, 0.35, 0.9, 0.2])
    assert static_threshold_explorer(y_true, y_score, n_positions=3) is not None


def test_the_smoke_test_is_wired_into_ci_and_make():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^make smoke$", ci, flags=re.M)
    assert re.search(r"^smoke:\n\tbash scripts/smoke_wheel\.sh$", makefile, flags=re.M)
    smoke = (ROOT / "scripts" / "smoke_wheel.sh").read_text(encoding="utf-8")
    assert "python -m build" in smoke and "-m venv" in smoke and "smoke_wheel.py" in smoke
