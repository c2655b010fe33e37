"""Small helpers shared by the notebook scripts: read/write, strip, hash, execute, iterate.

Used by ``make_exercises.py`` (generate ``exercises/`` from ``solutions/``) and
``run_notebooks.py`` (re-execute every notebook in place).  Only nbformat and nbclient are needed.

Determinism: a notebook executed here gets no per-cell timing metadata, a fixed, minimal notebook
metadata block (``kernelspec`` python3 and a ``language_info`` without the Python version), and
runs with ``PYTHONHASHSEED=0``, ``MPLBACKEND=Agg``, ``MLTUTOR_STRICT=1`` and ``MATPLOTLIBRC`` set to
``mltutor/plots/text_record.matplotlibrc`` (every PNG records its smallest text), so re-running an
unchanged notebook gives an (almost) empty diff and a wrong stored solution fails loudly.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import nbformat

REPO_ROOT = Path(__file__).resolve().parents[1]
NB_VERSION = 4

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}
#: Notebook-level metadata written by editors and services that only makes diffs noisy.
NOISY_NOTEBOOK_METADATA = (
    "vscode",
    "colab",
    "toc",
    "varInspector",
    "celltoolbar",
    "interpreter",
    "accelerator",
    "gpuClass",
    "papermill",
    "execution",
    "toc-autonumbering",
)
#: Cell-level metadata of the same kind.
NOISY_CELL_METADATA = ("execution", "ExecuteTime", "papermill", "pycharm")

#: Environment for the kernels: headless plots, stable hashing, checks that raise when wrong, and
#: a matplotlibrc whose figure hook records each PNG's smallest text (tests/test_figure_text_size.py).
KERNEL_ENV = {
    "MPLBACKEND": "Agg",
    "PYTHONHASHSEED": "0",
    "MLTUTOR_STRICT": "1",
    "MATPLOTLIBRC": os.fspath(REPO_ROOT / "mltutor" / "plots" / "text_record.matplotlibrc"),
}


def read_notebook(path: str | os.PathLike) -> nbformat.NotebookNode:
    return nbformat.read(os.fspath(path), as_version=NB_VERSION)


def write_notebook(nb: nbformat.NotebookNode, path: str | os.PathLike) -> None:
    """Write with nbformat's stable layout (sorted keys, one-space indent, final newline)."""
    nbformat.validate(nb)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(nb, version=NB_VERSION)
    Path(path).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def normalize_metadata(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Minimal, stable metadata: kernelspec python3, language_info without a version, no noise."""
    for key in NOISY_NOTEBOOK_METADATA:
        nb.metadata.pop(key, None)
    nb.metadata["kernelspec"] = nbformat.from_dict(KERNELSPEC)
    nb.metadata["language_info"] = nbformat.from_dict(LANGUAGE_INFO)
    for cell in nb.cells:
        for key in NOISY_CELL_METADATA:
            cell.metadata.pop(key, None)
    return nb


def strip_outputs(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove outputs, execution counts and stored widget state, in place."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nb.metadata.pop("widgets", None)
    return normalize_metadata(nb)


def cell_sources(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(cell type, source) for every cell: what "in sync" and "hand-edited" compare."""
    return [(cell.cell_type, cell.source) for cell in nb.cells]


def sources_sha256(nb_or_sources) -> str:
    """SHA-256 of the cell types and sources (outputs and metadata do not count)."""
    sources = nb_or_sources if isinstance(nb_or_sources, list) else cell_sources(nb_or_sources)
    payload = json.dumps(sources, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@contextlib.contextmanager
def _environ(updates: dict[str, str]):
    old = {k: os.environ.get(k) for k in updates}
    os.environ.update(updates)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def execute(
    nb: nbformat.NotebookNode,
    cwd: str | os.PathLike,
    *,
    timeout: int = 600,
    kernel_name: str = "python3",
    env: dict[str, str] | None = None,
) -> nbformat.NotebookNode:
    """Execute ``nb`` in a fresh kernel whose working directory is ``cwd``; return it.

    Raises ``nbclient.exceptions.CellExecutionError`` on the first failing cell and
    ``CellTimeoutError`` when one cell runs longer than ``timeout`` seconds.
    """
    from nbclient import NotebookClient  # imported lazily: --check modes need no kernel

    strip_outputs(nb)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=kernel_name,
        resources={"metadata": {"path": os.fspath(cwd)}},
        record_timing=False,
        allow_errors=False,
    )
    with _environ({**KERNEL_ENV, **(env or {})}):
        client.execute()
    return normalize_metadata(nb)


def execute_in_place(
    path: str | os.PathLike, *, timeout: int = 600, kernel_name: str = "python3"
) -> float:
    """Execute the notebook at ``path`` with cwd = its own folder, write it back; return seconds."""
    path = Path(path)
    start = time.perf_counter()
    nb = read_notebook(path)
    execute(nb, path.parent, timeout=timeout, kernel_name=kernel_name)
    write_notebook(nb, path)
    return time.perf_counter() - start


def iter_notebooks(dirs: Iterable[str | os.PathLike], pattern: str = "*.ipynb") -> Iterator[Path]:
    """Notebooks directly inside each folder, sorted by name, skipping checkpoints."""
    for d in dirs:
        d = Path(d)
        if d.is_file() and d.suffix == ".ipynb":
            yield d
            continue
        for path in sorted(d.glob(pattern)):
            if path.is_file() and ".ipynb_checkpoints" not in path.parts:
                yield path


def display_path(path: str | os.PathLike) -> str:
    """``path`` relative to the repository when it is inside it, else as given."""
    path = Path(path).resolve()
    try:
        return path.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return os.fspath(path)
