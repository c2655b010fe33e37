"""Test cases, how values are shown, and the comparison that says what is wrong without ever
printing the expected value.
"""

from __future__ import annotations

import copy
import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# --------------------------------------------------------------------------------------------
# Cases and formatting
# --------------------------------------------------------------------------------------------


class Case:
    """One set of inputs for a function exercise: positional ``args``, ``kwargs`` and a ``note``.

    The note says what the case is about ("a class that never occurs"); it appears in messages.
    A learner can rerun a failing case with ``case.run(my_function)``.
    """

    __slots__ = ("args", "kwargs", "note")

    def __init__(
        self, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None, note: str = ""
    ):
        self.args = tuple(args)
        self.kwargs = dict(kwargs or {})
        self.note = note

    def copy_inputs(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Fresh deep copies, so a function that mutates its inputs cannot spoil the case."""
        return copy.deepcopy(self.args), copy.deepcopy(self.kwargs)

    def run(self, func: Callable[..., Any]) -> Any:
        """Call ``func`` on copies of this case's inputs: ``ex2.cases[3].run(my_function)``."""
        args, kwargs = self.copy_inputs()
        return func(*args, **kwargs)

    def __repr__(self) -> str:
        parts = [_fmt(a) for a in self.args] + [f"{k}={_fmt(v)}" for k, v in self.kwargs.items()]
        note = f"  # {self.note}" if self.note else ""
        return f"Case({', '.join(parts)}){note}"


def case(*args: Any, note: str = "", **kwargs: Any) -> Case:
    """Build a :class:`Case`: ``case(y_true, y_pred, pos_label=1, note="pos_label is 0")``."""
    return Case(args, kwargs, note)


_MAX_SHOWN = 24  # arrays with more entries are summarised, not printed


def _fmt(value: Any) -> str:
    """A short, deterministic, single-line description of a value for messages."""
    if isinstance(value, np.ndarray):
        if value.size > _MAX_SHOWN:
            shape = "×".join(str(n) for n in value.shape)
            return f"<{shape} array of {value.dtype.name}>"
        return _fmt(value.tolist())
    if isinstance(value, (np.generic,)):
        return _fmt(value.item())
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_fmt(v) for v in value)
        if isinstance(value, tuple):
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        return f"[{inner}]"
    text = repr(value)
    if len(text) > 80 or " at 0x" in text:
        return f"<{type(value).__name__}>"
    return text


def _fmt_against(got: Any, expected: Any) -> str:
    """The learner's number with enough digits to differ visibly from ``expected``.

    ``15 / (15 + 1e-6)`` prints as 0.99999993, not as 1.  Only the learner's value is printed;
    the reference value serves to choose the number of digits.
    """
    try:
        g, e = float(got), float(expected)
    except (TypeError, ValueError, OverflowError):
        return _fmt(got)
    if isinstance(got, (bool, np.bool_)) or _is_int(got) or not math.isfinite(g):
        return _fmt(got)
    for digits in (6, 8, 10, 12, 15, 17):
        text = f"{g:.{digits}g}"
        if text != f"{e:.{digits}g}":
            return text
    return repr(g)


def _sentence(text: str) -> str:
    """``text`` ending in one full stop (no "?." after a question)."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _call_text(name: str, params: Sequence[str] | None, c: Case) -> str:
    """``name(y_true=[0, 1], y_pred=[1, 1], pos_label=1)`` for a case."""
    parts = []
    for i, a in enumerate(c.args):
        if params is not None and i < len(params):
            parts.append(f"{params[i]}={_fmt(a)}")
        else:
            parts.append(_fmt(a))
    parts += [f"{k}={_fmt(v)}" for k, v in c.kwargs.items()]
    return f"{name}({', '.join(parts)})"


def _short_exc(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if len(text) > 160:
        text = text[:157] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# --------------------------------------------------------------------------------------------
# Comparison: returns None when equal, otherwise what is wrong -- never the expected value
# --------------------------------------------------------------------------------------------


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool) or isinstance(x, np.number)


def _is_int(x: Any) -> bool:
    return isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_))


def _index_text(idx: tuple[int, ...]) -> str:
    return str(idx[0]) if len(idx) == 1 else "(" + ", ".join(str(i) for i in idx) + ")"


class _Refused(Exception):
    """A value that :func:`_plain` does not convert; ``str()`` names it ("a Foo")."""


# NumPy's own scalar types (not subclasses of them): their values are read without running any
# code of the learner's.
_NUMPY_SCALARS = frozenset(np.dtype(code).type for code in "?bhilqpBHILQPefdgFDG")
_MAX_DEPTH = 32
_type_name = type.__dict__["__name__"].__get__  # a class's own name, whatever its metaclass says


def _plain(value: Any, _depth: int = 0) -> Any:
    """``value`` as exact built-in or NumPy base types, or :class:`_Refused`.

    ``int``, ``float``, ``complex``, ``str``, ``bytes``, ``bool`` and ``None`` come back as they
    are; a subclass of one of them as a fresh value of the base type, read with the base type's
    own method (``float.__float__``), so no method of the subclass runs.  NumPy's scalar types
    come back as they are; an array as a fresh ``np.ndarray`` (``subok=False``: an overridden
    ``any()`` or ``__eq__`` does not travel with it), refused when it holds Python objects.
    Lists, tuples and dicts (and their subclasses) are rebuilt as plain ``list``, ``tuple`` and
    ``dict`` of converted items.  Anything else is refused.  The conversion runs no code of the
    value's class, so a checker that compares only converted values cannot be fooled by an
    object that claims to equal everything.
    """
    t = type(value)
    if (
        value is None
        or t is bool
        or t is int
        or t is float
        or t is str
        or t is complex
        or t is bytes
    ):
        return value
    if t is np.ndarray or isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise _Refused("an array of Python objects")
        return value if t is np.ndarray else np.array(value, subok=False, copy=True)
    if t in _NUMPY_SCALARS:
        return value
    if _depth > _MAX_DEPTH:
        raise _Refused("a structure nested too deeply")
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, complex):
        return complex.__complex__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return bytes.__getitem__(value, slice(None))
    if isinstance(value, list):
        return [_plain(v, _depth + 1) for v in list.copy(value)]
    if isinstance(value, tuple):
        return tuple([_plain(v, _depth + 1) for v in tuple.__getitem__(value, slice(None))])
    if isinstance(value, dict):
        items = dict.copy(value)
        return {_plain(k, _depth + 1): _plain(v, _depth + 1) for k, v in dict.items(items)}
    name = _type_name(t)
    raise _Refused(f"a {name}" if len(name) <= 40 else "an object of an unusual type")


def _refused_text(what: str) -> str:
    return (
        f"returned {what}, which the checker does not compare: return plain numbers, text, "
        "tuples or lists of them, or a NumPy array"
    )


def compare(
    expected: Any,
    got: Any,
    *,
    rtol: float = 1e-9,
    atol: float = 1e-12,
    names: Sequence[str] | None = None,
) -> str | None:
    """Compare a learner's result with the reference result.

    Returns None when they agree, otherwise a short description of what is wrong with ``got``.
    The description may quote the learner's own value, shapes and types, but never ``expected``.

    * integers are compared exactly, floats with ``rtol``/``atol``;
    * arrays must have the expected shape, then every entry must agree (a NaN is reported as
      such: it usually means an unhandled 0/0);
    * tuples and lists are compared item by item; ``names`` labels the items in messages
      (``("tp", "fp", "fn", "tn")``).

    ``got`` is first converted to exact built-in or NumPy base types (a subclass of ``float``
    becomes a ``float``, an ``ndarray`` subclass a fresh ``ndarray``, a ``list`` subclass a
    ``list``), without running any method of its own class; a Python object that cannot be
    converted so is refused with a message.  A Python object that overrides ``__eq__``,
    ``__float__`` or ``any()`` therefore cannot make a wrong answer compare equal.
    """
    try:
        got = _plain(got)
    except _Refused as exc:
        return _refused_text(str(exc))
    if got is None:
        return "your function returned None -- did you forget a `return`?"

    if isinstance(expected, (tuple, list)):
        if isinstance(got, np.ndarray) and got.ndim == 1:
            got = list(got)
        if not isinstance(got, (tuple, list)):
            return (
                f"returned {_kind(got)}, expected {len(expected)} values "
                f"({', '.join(names) if names else 'a tuple'})"
            )
        if len(got) != len(expected):
            return f"returned {len(got)} values, expected {len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            problem = compare(e, g, rtol=rtol, atol=atol)
            if problem is not None:
                label = f"`{names[i]}`" if names and i < len(names) else f"item {i} of the result"
                if g is None:
                    return f"{label} is None"
                return f"{label}: {problem}"
        return None

    if isinstance(expected, np.ndarray):
        return _compare_arrays(expected, got, rtol=rtol, atol=atol)

    if _is_number(expected) or isinstance(expected, (bool, np.bool_)):
        if isinstance(got, np.ndarray) and got.ndim == 0:
            got = got.item()
        if isinstance(got, (np.ndarray, list, tuple)):
            return f"returned {_kind(got)}, expected a single number"
        if not (_is_number(got) or isinstance(got, (bool, np.bool_))):
            return f"returned {_kind(got)}, expected a number"
        if isinstance(got, (complex, np.complexfloating)):
            return f"returned the complex number {got}, expected a real number"
        g = float(got)
        if math.isnan(g):
            return "your value is NaN -- a 0/0 somewhere? Handle division by zero"
        if _is_int(expected) and _is_int(got):
            ok = int(got) == int(expected)
        else:
            ok = math.isclose(g, float(expected), rel_tol=rtol, abs_tol=atol)
        return None if ok else f"your value {_fmt_against(got, expected)} is not right"

    try:
        ok = bool(got == expected)
    except Exception:  # noqa: BLE001 - a learner's object with an odd __eq__
        ok = False
    return None if ok else f"your value {_fmt(got)} is not right"


def _kind(x: Any) -> str:
    if isinstance(x, str):
        return f"the text {x!r}" if len(x) <= 40 else "a str"
    if isinstance(x, np.ndarray):
        return f"an array of shape {x.shape}"
    if isinstance(x, (tuple, list)):
        return f"a {_type_name(type(x))} of {len(x)} values"
    if _is_number(x):
        return "a single number"
    return f"a {_type_name(type(x))}"


def _compare_arrays(expected: np.ndarray, got: Any, *, rtol: float, atol: float) -> str | None:
    if not isinstance(got, np.ndarray):
        if _is_number(got):
            return f"returned a single number, expected an array of shape {expected.shape}"
        try:
            got = np.asarray(got)
        except Exception:  # noqa: BLE001
            return f"returned {_kind(got)}, expected an array"
    if got.shape != expected.shape:
        square = expected.ndim == 2 and expected.shape[0] == expected.shape[1]
        what = f"a square matrix of shape {expected.shape}" if square else f"shape {expected.shape}"
        return f"wrong shape {got.shape}, expected {what}"
    if got.dtype.kind not in "biuf":
        return f"the array has dtype {got.dtype}, expected numbers"
    g = got.astype(float)
    e = expected.astype(float)
    nan = np.isnan(g) & ~np.isnan(e)
    if nan.any():
        idx = tuple(int(i) for i in np.argwhere(nan)[0])
        return (
            f"contains NaN (first at index {_index_text(idx)}) -- a 0/0 somewhere? "
            "Handle division by zero"
        )
    if expected.dtype.kind in "biu" and got.dtype.kind in "biu":
        bad = g != e
    else:
        bad = ~np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        n_bad, n = int(bad.sum()), bad.size
        entries = "entry" if n == 1 else f"{n_bad} of {n} entries"
        mine = _fmt_against(got[idx], expected[idx]) if got.ndim else _fmt(got.item())
        return (
            f"values differ in {entries}, first at index {_index_text(idx)} "
            f"(your value there: {mine})"
        )
    return None
