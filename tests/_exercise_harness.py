"""Shared helpers for the exercise tests of every chapter.

Convention: ``solutions/NN_topic.ipynb`` is the single source of the exercises whose checks live in
``mltutor.exercises.topic``; ``exercises/NN_topic.ipynb`` is generated from it.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from mltutor.check import INCORRECT, CheckFailed

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
CHECK_CELL = re.compile(r"^\s*(ex\d+)\.check\((\w+)\)\s*$")


def chapter_notebooks() -> list[Path]:
    """Every solutions notebook, in course order."""
    return sorted(SOLUTIONS.glob("[0-9][0-9]*_*.ipynb"))  # 07_..., 07c_..., sorted in course order


def topic_of(notebook: Path) -> str:
    """``01_confusion_matrix.ipynb`` -> ``confusion_matrix``."""
    return notebook.stem.split("_", 1)[1]


def exercise_module(notebook: Path):
    return importlib.import_module(f"mltutor.exercises.{topic_of(notebook)}")


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def run_notebook_code(path: Path) -> tuple[dict, list[tuple[str, str, list]]]:
    """Execute a notebook's code cells here, except the check cells, which are returned.

    Returns the namespace and a list of (exercise name, answer name, stored outputs).
    """
    nb = json.loads(path.read_text(encoding="utf-8"))
    namespace: dict = {"__name__": "__notebook__"}
    checks = []
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if source.lstrip().startswith("%"):
            continue  # IPython magics (e.g. %matplotlib inline) mean nothing here
        m = CHECK_CELL.match(source)
        if m:
            checks.append((m.group(1), m.group(2), cell.get("outputs", [])))
        else:
            exec(compile(source, f"{path.name} cell {k}", "exec"), namespace)  # noqa: S102
    return namespace, checks


def plain_text(outputs: list) -> str:
    return "".join("".join(o.get("data", {}).get("text/plain", "")) for o in outputs)


def without_own_values(message: str) -> str:
    """A failure message may quote the learner's own value; only the expected one is secret."""
    return re.sub(r"your value( there)?:? [^ )]+", "your value", message)


def assert_mutant_caught(ex, mutant) -> None:
    """``ex.check(mutant)`` must say incorrect, raise in strict mode, and not leak the answer."""
    result = ex.check(mutant, strict=False)
    assert result.status == INCORRECT, (
        f"{getattr(mutant, '__name__', mutant)} passed {ex.name}: {result}"
    )
    assert result.message.startswith(f"case {result.case} of {len(ex.cases)}")
    assert f" of {len(ex.cases)} cases pass." in result.message  # progress
    assert result.message.endswith(f"Try `{ex.name}.hint()`."), result.message  # the way forward
    with pytest.raises(CheckFailed):
        ex.check(mutant, strict=True)
    expected = ex.expected(result.case - 1)
    parts = expected if isinstance(expected, tuple) else (expected,)
    values = np.concatenate([np.ravel(np.asarray(v, dtype=float)) for v in parts])
    message = without_own_values(result.message)
    for v in values[np.isfinite(values) & (values != np.round(values))]:
        for text in {f"{v:.6g}", f"{v:.3f}", f"{v:.2f}", repr(float(v))}:
            assert text not in message, f"{ex.name}/{mutant.__name__} reveals {text}: {message}"


def assert_wrong_value_caught(ex, value) -> None:
    """A wrong value is called incorrect, and no element of the answer shows in the message."""
    result = ex.check(value, strict=False)
    assert result.status == INCORRECT, f"{value!r} passed {ex.name}"
    message = without_own_values(result.message)
    for v in np.ravel(np.asarray(ex.answer, dtype=float)):
        if v != round(v):
            assert f"{v:.3f}" not in message, f"{ex.name} reveals {v:.3f}: {message}"


def assert_named(ex, mutant, key: str | None) -> None:
    """A known mutant is named by its misconception; any other wrong answer gets no name."""
    result = ex.check(mutant, strict=False)
    assert result.status == INCORRECT, f"{mutant.__name__} passed {ex.name}"
    assert result.misconception == key, (mutant.__name__, result.misconception, key, result.message)
    if key is None:
        assert "known mistake" not in result.message, result.message
        return
    message = next(m.message for m in ex.misconceptions if m.key == key)
    assert f"Your results match a known mistake: {message}" in result.message, result.message
    assert result.message.endswith(f"Try `{ex.name}.hint()`."), result.message


def assert_misconceptions_proven(exercises: dict, named: dict) -> None:
    """Every implementation exercise names >= 3 mistakes, and a test mutant proves each one."""
    for name, ex in exercises.items():
        if ex.kind != "implement":
            continue
        keys = [m.key for m in ex.misconceptions]
        assert len(keys) >= 3 and len(set(keys)) == len(keys), (name, keys)
        assert set(keys) == set(named.get(name, {}).values()), (name, keys, named.get(name))
