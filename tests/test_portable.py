"""``make test-portable`` re-executes exactly the notebooks that use torch (scripts/portable_notebooks.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "portable_notebooks", ROOT / "scripts" / "portable_notebooks.py"
)
portable = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(portable)


def _imports_torch(path: Path) -> bool:
    """A second, plainer reading of "uses torch": a code line that starts with the import."""
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        for line in "".join(cell["source"]).splitlines():
            words = line.split()
            if (
                len(words) >= 2
                and words[0] in ("import", "from")
                and (words[1] == "torch" or words[1].startswith(("torch.", "mltutor.streaming")))
            ):
                return True
    return False


def test_portable_step_runs_every_notebook_that_imports_torch():
    every = sorted(
        p
        for d in ("book", "solutions", "exercises")
        for p in (ROOT / d).rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
    )
    expected = {p.relative_to(ROOT).as_posix() for p in every if _imports_torch(p)}
    assert set(portable.torch_notebooks()) == expected
    # The chapters known to train or evaluate with torch are among them.
    assert {
        "book/04_f1_fbeta.ipynb",
        "book/05_averaging.ipynb",
        "book/06b_calibration_uncertainty.ipynb",
        "book/08_ucf101_case_study.ipynb",
        "book/appendix_training_loop.ipynb",
    } <= expected


def _notebook(tmp_path: Path, code: str, markdown: str = "") -> Path:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": [markdown]},
        {
            "cell_type": "code",
            "metadata": {},
            "source": [code],
            "outputs": [],
            "execution_count": None,
        },
    ]
    path = tmp_path / "nb.ipynb"
    path.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "code, expected",
    [
        ("import numpy as np\nimport torch\n", True),
        ("from torch import nn", True),
        ("    import torch.nn.functional as F", True),
        ("from mltutor.streaming import MulticlassMetrics", True),
        ("import torchvision_like_name", False),
        ("x = 'import torch'", False),
        ("import numpy as np", False),
    ],
)
def test_uses_torch_reads_code_cells(tmp_path, code, expected):
    assert portable.uses_torch(_notebook(tmp_path, code)) is expected


def test_uses_torch_ignores_markdown(tmp_path):
    assert not portable.uses_torch(_notebook(tmp_path, "print(1)", markdown="import torch"))


def test_portable_environment_leaves_openblas_alone():
    env = portable.portable_environment("avx2")
    assert env["ATEN_CPU_CAPABILITY"] == "avx2"
    assert "X86_V4" in env["NPY_DISABLE_CPU_FEATURES"].split()
    assert not any(key.startswith("OPENBLAS") for key in env)
