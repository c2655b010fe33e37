"""Checks live in ``mltutor/_validation/`` and number parameters go through one ``check_scalar``
(issue 25, LAYOUT.md rule 3).

* No ``def check_*`` / ``def _check_*`` (functions or methods, at any depth) outside
  ``mltutor/_validation/``.  ``mltutor/exercises/`` is left out: its ``check`` is the learner's
  checker, not input validation.  Nothing else is allow-listed.
* No module outside ``_validation/`` writes the hand-made "int, but not a bool" test again: one
  ``and``/``or`` expression holding both ``isinstance(x, bool ...)`` and
  ``isinstance(x, int | Integral | np.integer ...)``.  ``mltutor/check/`` (the exercise engine,
  which compares a learner's answer with the expected one) is left out with ``exercises/``.
* ``check_scalar`` itself: types, bools, NaN, open and closed bounds, messages naming the argument
  and the bound.

Each scan is shown to fail on a planted violation in a temporary tree.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import pytest

from mltutor._validation.params import check_scalar

PACKAGE = Path(__file__).resolve().parents[1] / "mltutor"
CHECK_PREFIXES = ("check_", "_check_")
INT_NAMES = {"int", "Integral", "integer"}  # int, numbers.Integral, np.integer
BOOL_NAMES = {"bool", "bool_"}  # bool, np.bool_


def _modules(root: Path, skip: tuple[str, ...]):
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts[0] in skip:
            continue
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def check_definitions_outside_validation(root: Path) -> list[str]:
    """``file:line name`` of every function or method named ``check_*``/``_check_*``."""
    found = []
    for path, tree in _modules(root, skip=("_validation", "exercises")):
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                CHECK_PREFIXES
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return found


def _type_names(node: ast.expr) -> set[str]:
    """The last dotted name of each type in ``isinstance``'s second argument."""
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    names = set()
    for item in items:
        if isinstance(item, ast.Name):
            names.add(item.id)
        elif isinstance(item, ast.Attribute):
            names.add(item.attr)
    return names


def _isinstance_types(node: ast.expr) -> set[str] | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
    ):
        return _type_names(node.args[1])
    return None


def hand_written_int_checks(root: Path) -> list[str]:
    """``file:line`` of each ``and``/``or`` in which one ``isinstance`` tests for a bool and
    another for an integer type (one call naming both, ``isinstance(x, (str, int, bool))``,
    accepts a label; it is not the pattern)."""
    found = []
    for path, tree in _modules(root, skip=("_validation", "exercises", "check")):
        for node in ast.walk(tree):
            if not isinstance(node, ast.BoolOp):
                continue
            tested = [_isinstance_types(v) for v in node.values]
            tested = [t for t in tested if t is not None]
            bools = {i for i, t in enumerate(tested) if t & BOOL_NAMES}
            ints = {i for i, t in enumerate(tested) if t & INT_NAMES}
            if bools and ints and (len(bools | ints) > 1):  # two calls: "an int, not a bool"
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


# --------------------------------------------------------------------------------------------
# The rules hold in the package, and the scans can fail
# --------------------------------------------------------------------------------------------


def test_no_check_function_outside_validation():
    assert check_definitions_outside_validation(PACKAGE) == []


def test_no_hand_written_positive_int_outside_validation():
    assert hand_written_int_checks(PACKAGE) == []


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_planted_check_function_is_found(tmp_path):
    root = _plant(
        tmp_path,
        {
            "metrics.py": "def _check_k(k):\n    return k\n",
            "plots/figure.py": "class Figure:\n    def check_size(self):\n        pass\n",
            "_validation/params.py": "def check_k(k):\n    return k\n",  # allowed there
            "exercises/ch1.py": "def check_answer(x):\n    return x\n",  # the learner's checker
            "ok.py": "def checked(x):\n    return x\n\ndef recheck_(x):\n    return x\n",
        },
    )
    assert check_definitions_outside_validation(root) == [
        "metrics.py:1 _check_k",
        "plots/figure.py:2 check_size",
    ]


def test_a_planted_positive_int_check_is_found(tmp_path):
    root = _plant(
        tmp_path,
        {
            "a.py": (
                "from numbers import Integral\n"
                "def f(n):\n"
                "    if isinstance(n, bool) or not isinstance(n, Integral) or n < 1:\n"
                "        raise ValueError(n)\n"
            ),
            "b.py": (
                "import numpy as np\n"
                "def g(n):\n"
                "    ok = isinstance(n, (int, np.integer)) and not isinstance(n, np.bool_)\n"
            ),
            "c.py": "def h(x):\n    return isinstance(x, bool) or isinstance(x, str)\n",  # no int
            "d.py": "def label(x):\n    return x is None or isinstance(x, (str, int, bool))\n",
            "_validation/params.py": (
                "def k(n):\n    return isinstance(n, bool) or isinstance(n, int)\n"
            ),
            "check/_compare.py": (
                "def c(n):\n    return isinstance(n, int) and not isinstance(n, bool)\n"
            ),
        },
    )
    assert hand_written_int_checks(root) == ["a.py:3", "b.py:3"]


# --------------------------------------------------------------------------------------------
# check_scalar
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, target, expected",
    [
        (3, Integral, 3),
        (np.int64(3), Integral, 3),
        (np.uint8(3), int, None),  # int is the Python type: NumPy integers are not ints
        (2, Real, 2.0),
        (np.float32(0.5), Real, 0.5),
        (Fraction(1, 4), Real, 0.25),
        (0.25, (Integral, Real), 0.25),
    ],
)
def test_types_and_conversion(value, target, expected):
    if expected is None:
        with pytest.raises(TypeError, match="n must be an int; got"):
            check_scalar(value, "n", target)
        return
    got = check_scalar(value, "n", target)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("target", [Integral, Real, int, float, (Integral, Real)])
@pytest.mark.parametrize("value", [True, False, np.True_, np.bool_(False)])
def test_bools_are_refused_naming_the_argument(value, target):
    with pytest.raises(TypeError, match=r"^n_bins must be an? .*; got "):
        check_scalar(value, "n_bins", target, min_val=0)


def test_a_type_naming_bool_lets_true_count_as_one():
    assert check_scalar(True, "k", (Integral, bool), min_val=1) == 1
    with pytest.raises(TypeError, match="k must be"):
        check_scalar(np.True_, "k", (Integral, bool), min_val=1)  # np.bool_ is not named


@pytest.mark.parametrize("value", [float("nan"), np.float32("nan"), np.nan])
@pytest.mark.parametrize("bounds", [{}, {"min_val": 0}, {"min_val": 0, "max_val": 1}])
def test_nan_is_refused_with_or_without_bounds(value, bounds):
    with pytest.raises(ValueError, match=r"^alpha must be a real number.*; got "):
        check_scalar(value, "alpha", Real, **bounds)


@pytest.mark.parametrize("value", ["3", None, 3 + 0j, [3], np.array([3])])
def test_non_numbers_are_refused(value):
    with pytest.raises(TypeError, match=r"^n_resamples must be an int >= 1; got "):
        check_scalar(value, "n_resamples", Integral, min_val=1)


@pytest.mark.parametrize(
    "closed, at_min, at_max, shown",
    [
        ("both", True, True, "[0, 1]"),
        ("left", True, False, "[0, 1)"),
        ("right", False, True, "(0, 1]"),
        ("neither", False, False, "(0, 1)"),
    ],
)
def test_boundaries_open_and_closed(closed, at_min, at_max, shown):
    for value, allowed in ((0, at_min), (1, at_max), (0.5, True), (-0.1, False), (1.1, False)):
        if allowed:
            assert (
                check_scalar(value, "p", Real, min_val=0, max_val=1, include_boundaries=closed)
                == value
            )
        else:
            message = f"p must be a real number in {shown}; got {value!r}."
            with pytest.raises(ValueError) as info:
                check_scalar(value, "p", Real, min_val=0, max_val=1, include_boundaries=closed)
            assert str(info.value) == message


@pytest.mark.parametrize(
    "kwargs, value, message",
    [
        ({"min_val": 1}, 0, "n must be an int >= 1; got 0."),
        ({"min_val": 0, "include_boundaries": "neither"}, 0, "n must be an int > 0; got 0."),
        ({"max_val": 5}, 6, "n must be an int <= 5; got 6."),
        ({"max_val": 5, "include_boundaries": "neither"}, 5, "n must be an int < 5; got 5."),
    ],
)
def test_one_sided_bounds_are_named(kwargs, value, message):
    with pytest.raises(ValueError) as info:
        check_scalar(value, "n", Integral, **kwargs)
    assert str(info.value) == message


def test_infinity_is_a_real_number_unless_a_bound_refuses_it():
    assert check_scalar(math.inf, "beta", Real, min_val=0) == math.inf
    with pytest.raises(ValueError, match="cost must be a real number in"):
        check_scalar(
            math.inf, "cost", Real, min_val=0, max_val=math.inf, include_boundaries="neither"
        )


def test_expected_and_type_error_keep_a_metric_s_own_message():
    with pytest.raises(ValueError, match=r"^k must be a positive integer; got 2\.0\.$"):
        check_scalar(
            2.0, "k", Integral, min_val=1, expected="a positive integer", type_error=ValueError
        )
    with pytest.raises(ValueError, match=r"^k must be a positive integer; got 0\.$"):
        check_scalar(0, "k", Integral, min_val=1, expected="a positive integer")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"include_boundaries": "closed"},
        {"include_boundaries": "left", "max_val": 1},
        {"include_boundaries": "right", "min_val": 0},
    ],
)
def test_inconsistent_boundaries_are_refused(kwargs):
    with pytest.raises(ValueError, match="include_boundaries"):
        check_scalar(0.5, "x", Real, **kwargs)
