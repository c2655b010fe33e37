"""The API reference documents every public name of ``mltutor``, and every such name has a docstring.

A *public module* is any module under ``mltutor`` with no path component starting with ``_``,
except ``mltutor.exercises`` (the graded exercises of the chapters, not a library API).  Its
*public names* are ``__all__``, or, without ``__all__``, the functions and classes it defines whose
names do not start with ``_``.

* Functions and classes need a non-empty ``__doc__`` of their own (a dataclass's generated
  ``Name(field, ...)`` signature does not count).
* Other objects (constants, placeholders) need a ``#:`` comment or a string literal right after
  their assignment in the module that defines them, which is what autodoc shows.
* Every public module has an ``.. automodule::`` in the API pages (``book/api/*.md``), and every
  public name is documented there once: through ``:members:`` of its module (less
  ``:exclude-members:``), of another module that exports the same object under the same name, or an
  explicit ``autofunction`` / ``autoclass`` / ``autodata`` (names starting with ``_`` are skipped
  by ``:members:``, so they need the explicit directive).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from functools import cache
from pathlib import Path

import pytest

import mltutor

# The reference covers every module, and importing them all needs torch (mltutor.streaming): the
# loose install route has no torch, so there this whole check is skipped, with the reason.
pytest.importorskip(
    "torch", reason="the API-reference check imports mltutor.streaming (needs torch)"
)

ROOT = Path(__file__).resolve().parents[1]
API_DIR = ROOT / "book" / "api"
EXCLUDED_PACKAGES = ("mltutor.exercises",)


def public_modules() -> list[str]:
    names = ["mltutor"]
    for info in pkgutil.walk_packages(mltutor.__path__, "mltutor."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts):
            continue
        if any(info.name == p or info.name.startswith(p + ".") for p in EXCLUDED_PACKAGES):
            continue
        names.append(info.name)
    return sorted(names)


def public_names(modname: str) -> list[str]:
    module = importlib.import_module(modname)
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (inspect.isfunction(value) or inspect.isclass(value))
        and value.__module__ == modname
    )


@cache
def attr_docs(modname: str) -> dict:
    from sphinx.pycode import ModuleAnalyzer

    try:
        return {
            name: doc
            for (ns, name), doc in ModuleAnalyzer.for_module(modname).find_attr_docs().items()
            if ns == ""
        }
    except Exception:  # noqa: BLE001  (no source: no attribute docs)
        return {}


def all_modules() -> list[str]:
    return ["mltutor"] + [
        i.name
        for i in pkgutil.walk_packages(mltutor.__path__, "mltutor.")
        if not i.name.startswith(EXCLUDED_PACKAGES)
    ]


def has_docstring(modname: str, name: str) -> bool:
    obj = getattr(importlib.import_module(modname), name)
    if inspect.ismodule(obj):
        return bool((obj.__doc__ or "").strip())
    if (
        inspect.isfunction(obj)
        or inspect.isclass(obj)
        or inspect.ismethod(obj)
        or callable(obj)
        and hasattr(obj, "__wrapped__")
    ):
        doc = obj.__doc__ or ""
        if inspect.isclass(obj) and (dataclasses.is_dataclass(obj) or issubclass(obj, tuple)):
            if doc.startswith(f"{obj.__name__}("):
                return False
        if inspect.isclass(obj) and "__doc__" in vars(obj) and vars(obj)["__doc__"] is None:
            return False
        return bool(doc.strip())
    # data: a documented assignment in any module that binds the same object under this name
    for other in all_modules():
        mod = importlib.import_module(other)
        if getattr(mod, name, object()) is obj and "".join(attr_docs(other).get(name, [])).strip():
            return True
    return False


DIRECTIVE = re.compile(r"^\s*\.\.\s+auto(module|function|class|data|exception)::\s+(\S+)\s*$", re.M)


def directives() -> list[tuple[str, str, str]]:
    """(kind, target, option block) of every autodoc directive in ``book/api/*.md``."""
    found = []
    for page in sorted(API_DIR.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in DIRECTIVE.finditer(text):
            options = re.match(r"(?:[ \t]+:[^\n]*\n?)*", text[match.end() + 1 :]).group(0)
            found.append((match.group(1), match.group(2), options))
    return found


@cache
def documented() -> tuple[frozenset, frozenset]:
    """(modules with an automodule, the documented (name, id(object)) pairs).

    ``automodule`` with ``:members:`` documents the module's public names except those in
    ``:exclude-members:``; a name re-exported elsewhere counts as documented when the same object
    is documented under the same name on some page (so each function is documented once).
    """
    modules, objects = set(), set()
    for kind, target, options in directives():
        if kind == "module":
            module = importlib.import_module(target)
            modules.add(target)
            if ":members:" not in options:
                continue
            excluded = re.search(r":exclude-members:(.*)", options)
            excluded = {n.strip() for n in excluded.group(1).split(",")} if excluded else set()
            for name in public_names(target):
                if not name.startswith("_") and name not in excluded:
                    objects.add((name, id(getattr(module, name))))
        else:
            modname, _, attr = target.rpartition(".")
            objects.add((attr, id(getattr(importlib.import_module(modname), attr))))
    return frozenset(modules), frozenset(objects)


PUBLIC = [(m, n) for m in public_modules() for n in public_names(m)]


def test_api_pages_exist():
    assert sorted(API_DIR.glob("*.md")), "book/api/*.md is missing"


@pytest.mark.parametrize("modname, name", PUBLIC, ids=[f"{m}.{n}" for m, n in PUBLIC])
def test_public_name_has_docstring(modname, name):
    assert has_docstring(modname, name), f"{modname}.{name} has no docstring"


@pytest.mark.parametrize("modname, name", PUBLIC, ids=[f"{m}.{n}" for m, n in PUBLIC])
def test_public_name_in_api_reference(modname, name):
    modules, objects = documented()
    obj = getattr(importlib.import_module(modname), name)
    if inspect.ismodule(obj):  # a submodule listed in a package's __all__
        assert obj.__name__ in modules, f"{obj.__name__} has no automodule in book/api/*.md"
    else:
        assert (name, id(obj)) in objects, f"{modname}.{name} is not in book/api/*.md"


@pytest.mark.parametrize("modname", public_modules())
def test_module_in_api_reference(modname):
    assert modname in documented()[0], f"{modname} has no automodule in book/api/*.md"


@pytest.mark.parametrize("modname", public_modules())
def test_module_has_docstring(modname):
    assert (importlib.import_module(modname).__doc__ or "").strip(), (
        f"{modname} has no module docstring"
    )


def test_api_pages_name_only_real_objects():
    for kind, target, _ in directives():
        if kind == "module":
            importlib.import_module(target)
        else:
            modname, _, attr = target.rpartition(".")
            assert hasattr(importlib.import_module(modname), attr), target
