"""Pytest configuration shared by the unit tests, the doctests and the nbval notebook runs.

The lock (``requirements.txt``, used by ``make test`` and CI) installs every reference library.
The loose route (``pip install -e '.[test,book]'``) does not bring torch, torchmetrics,
pycocotools, faster-coco-eval or pytrec_eval; a test file, package module (doctests) or notebook
that imports a library which is not installed is reported as *skipped*, with the library named,
instead of failing at import.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import re
from pathlib import Path

import pytest

# Exercise checks raise on a wrong answer under pytest, so nbval and the unit tests see failures.
# Kernels started by nbval inherit this environment.
os.environ["MLTUTOR_STRICT"] = "1"
# Headless plotting everywhere, in this process and in notebook kernels.
os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parent
# Import names whose pip distribution is called something else.
PIP_NAMES = {
    "sklearn": "scikit-learn",
    "pytrec_eval": "pytrec_eval-terrier",
    "faster_coco_eval": "faster-coco-eval",
    "yaml": "pyyaml",
}
# IPython magics and shell escapes are not Python: blank them before parsing a notebook cell.
MAGIC_LINE = re.compile(r"^(\s*)[%!].*$", re.MULTILINE)


def _imported_names(tree: ast.AST, module_level_only: bool, package: str = "") -> set[str]:
    """Dotted names imported by ``tree``; relative imports are resolved against ``package``.

    With ``module_level_only`` just the statements that run at import time count, and an import
    guarded by ``try: ... except ImportError`` counts as optional.
    """
    nodes = _module_level(tree) if module_level_only else ast.walk(tree)
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                module = node.module or ""
            elif package:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                continue
            names.add(module)
            # `from mltutor import streaming` imports a submodule: follow it too.
            names.update(
                f"{module}.{alias.name}" for alias in node.names if module.startswith("mltutor")
            )
    return {name for name in names if name}


def _guards_import_error(node: ast.Try) -> bool:
    caught = {"ImportError", "ModuleNotFoundError", "Exception"}
    for handler in node.handlers:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if handler.type is None or any(getattr(k, "id", None) in caught for k in kinds):
            return True
    return False


def _module_level(tree: ast.AST):
    """Statements that run when a module is imported (top level, inside if/with/try, not in defs)."""
    stack = list(getattr(tree, "body", []))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Try):
            if not _guards_import_error(node):
                stack.extend(node.body)
            stack.extend(node.orelse + node.finalbody)
        elif isinstance(node, (ast.If, ast.With)):
            stack.extend(node.body + getattr(node, "orelse", []))


def _parse(path: Path) -> ast.AST | None:
    try:
        if path.suffix == ".ipynb":
            import json

            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            code = "\n".join(
                MAGIC_LINE.sub(r"\1pass", "".join(c["source"]))
                for c in cells
                if c["cell_type"] == "code"
            )
            return ast.parse(code)
        return ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, ValueError, KeyError, OSError):
        return None  # let pytest report the real problem


def _module_file(dotted: str) -> Path | None:
    """The file that importing ``dotted`` (an mltutor module or package) runs, or None."""
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _file_imports(dotted: str) -> frozenset[str]:
    """What the module's own file imports when it runs (relative imports made absolute)."""
    path = _module_file(dotted)
    tree = _parse(path) if path is not None else None
    if tree is None:
        return frozenset()
    package = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
    return frozenset(_imported_names(tree, module_level_only=True, package=package))


def _with_parents(dotted: str) -> list[str]:
    """``mltutor.a.b`` -> ``mltutor``, ``mltutor.a``, ``mltutor.a.b``: importing it runs all three."""
    parts = dotted.split(".")
    return [".".join(parts[:depth]) for depth in range(1, len(parts) + 1)]


def _missing_for_module(dotted: str) -> frozenset[str]:
    """Libraries that importing ``dotted`` (an mltutor module) needs and that are not installed.

    Follows every mltutor module it imports, transitively (the walk keeps its own visited set, so
    import cycles are harmless), and asks ``find_spec`` about every other library named.
    """
    seen: set[str] = set()
    todo = _with_parents(dotted)
    libraries: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for name in _file_imports(module):
            if name.split(".")[0] == "mltutor":
                todo.extend(_with_parents(name))
            else:
                libraries.add(name.split(".")[0])
    return frozenset(name for name in libraries if importlib.util.find_spec(name) is None)


def _missing(names: set[str], local_dir: Path | None = None) -> set[str]:
    missing: set[str] = set()
    for name in names:
        top = name.split(".")[0]
        if top == "mltutor":
            missing |= _missing_for_module(name)
        elif local_dir is not None and (local_dir / f"{top}.py").is_file():
            continue  # a helper module next to the test file
        elif importlib.util.find_spec(top) is None:
            missing.add(top)
    return missing


def missing_libraries(path: Path) -> set[str]:
    """Libraries that the test file, package module or notebook at ``path`` needs but lacks."""
    tree = _parse(path)
    if tree is None:
        return set()
    in_package = ROOT / "mltutor" in path.parents
    names = _imported_names(tree, module_level_only=in_package)
    missing = _missing(names, local_dir=path.parent)
    if in_package:  # the module's own package __init__ files run first
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        missing |= _missing_for_module(dotted.removesuffix(".__init__"))
    return missing


@pytest.hookimpl(tryfirst=True)
def pytest_make_collect_report(collector):
    """Report a file whose imports are not installed as skipped, naming what to install."""
    path = getattr(collector, "path", None)
    if (
        not isinstance(collector, pytest.File)
        or path is None
        or path.suffix not in (".py", ".ipynb")
    ):
        return None
    if path.name == "conftest.py":
        return None
    missing = missing_libraries(Path(path))
    if not missing:
        return None
    wanted = " ".join(sorted(PIP_NAMES.get(name, name) for name in missing))
    reason = f"needs {', '.join(sorted(missing))} (not installed; pip install {wanted})"
    return pytest.CollectReport(
        collector.nodeid, "skipped", (str(path), 0, f"Skipped: {reason}"), []
    )
