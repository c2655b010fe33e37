"""Exercise checks for learners: ``ex1.check(my_function)`` says correct, incorrect or not attempted.

Pure Python and NumPy only (no widgets, no network, no nbconvert), so the checks work the same in
JupyterLab, Colab and JupyterLite.  The design follows Kaggle's *learntools*
(https://github.com/Kaggle/learntools), with ideas from nbgrader and otter-grader, and one
difference: the learner's answer is passed explicitly, never fished out of the notebook's globals.

>>> from mltutor.check import Exercise, case
>>> def add(a, b):
...     return a + b
>>> ex = Exercise("ex0", reference=add, cases=[case(1, 2), case(0.5, 0.25, note="floats")])
>>> ex.check(add)
✅ Correct: all 2 cases pass.
>>> ex.check(lambda a, b: a - b, strict=False)
❌ Incorrect: case 1 of 2, `add(a=1, b=2)`: your value -1 is not right. 0 of 2 cases pass. No hints for this one: `ex0.solution()` shows our answer.
>>> ex.check(None)
⏳ Not attempted: write your function, then pass it to `ex0.check(...)`.

Kinds of exercise
-----------------
Every exercise declares its :attr:`~Exercise.kind`: ``"implement"`` (:class:`Exercise`, the
learner writes a function), ``"value"`` (:class:`ValueExercise`, the learner computes a number or
an array) or ``"judgement"`` (:class:`ChoiceExercise`, or a :class:`ValueExercise` declared so:
a scenario and a decision, where every wrong option has its own explanation).

Three outcomes
--------------
* **correct** -- every case matches the reference (integers exactly, floats within a tolerance,
  arrays by shape and then by value);
* **incorrect** -- the message names the *first* failing case, its inputs and what is wrong with
  the learner's result (wrong shape, wrong type, a NaN, which entry differs), but never the
  expected answer; then how many cases pass, the known mistake the results match if they match
  one (a :class:`Misconception`), and the way forward (``exN.hint()``).  An exception raised by
  the learner's code (``SystemExit`` and ``KeyboardInterrupt`` included) is reported the same way,
  and so is a case that runs past the time limit;
* **not attempted** -- the answer is ``None``, ``...``, the placeholder :data:`____`, or a function
  that raises :class:`NotImplementedError` (the generated exercise notebooks contain exactly that).

Learner warnings
----------------
A warning raised by the learner's function (say a ``RuntimeWarning`` for 0/0) is named in an
*incorrect* message.  The checks record it without changing :data:`warnings.filters`, and checks
may run in several threads at once: :func:`warnings.catch_warnings` is not thread-safe (each one
saves and restores the module's global state), so every check's use of it is serialised by one
lock, and only the warnings of the checking thread are recorded (other threads' warnings are
passed on to the previous ``warnings.showwarning``).

Time limit
----------
Each case runs under a time limit (:data:`DEFAULT_TIME_LIMIT` seconds, ``time_limit=`` on the
exercise or on ``check``).  The learner's function runs in a thread of its own while the
checking thread waits for it at most that long: from the deadline on, a watchdog raises a
time-out in the function's thread, and again and again after it, which stops a Python loop even if the
loop swallows one time-out (``except BaseException``) or switches a timer off
(``signal.setitimer``); and a result that arrives after the deadline counts as a time-out.
The result is converted to plain types (see :func:`compare`) inside the same limit.  The check
waits 0.2 s past the deadline, then reports the time-out; the kernel keeps its variables.  What it cannot
do is kill the thread: a function that catches every exception in an endless loop, or one long
call into C (a huge NumPy operation, a ``time.sleep``), goes on in the background until it
ends; the batch grader (:mod:`mltutor.grade`), which runs each submission in a process of its
own, stops those too.  A fork or subprocess per case was not chosen for the learner's check: a
forked kernel with torch or OpenMP threads can deadlock, results would have to be pickled back,
JupyterLite (Pyodide) has neither ``fork`` nor subprocesses, and Windows has no ``fork``.
Where no thread can be started (Pyodide), the function runs in the checking thread under an
interval timer, :func:`signal.setitimer`, in the main thread, which a function can switch off.

Comparisons
-----------
Before anything is compared, the learner's value is converted to exact built-in or NumPy base
types without running any method of its own class (a ``float`` subclass becomes a ``float``, an
``ndarray`` subclass a fresh ``ndarray``); a Python object that cannot be converted so is
refused.  The expected values are computed before the learner's function runs, so a function that
replaces ``ex.reference`` or ``ex.cases`` while it is checked changes neither.  Checks run in
the learner's own kernel, which the learner controls: they help a learner who wants to learn,
and are not a guard against one who patches them (for grading, see :mod:`mltutor.grade` and
:mod:`mltutor.grading.nbgrader`).

Icons
-----
Results start with ✅, ❌ or ⏳.  With ``MLTUTOR_ICONS=plain`` in the environment they start with
✔, ✘ or ○ instead, symbols that common text fonts have (``scripts/lab.py`` sets it where no
emoji font is installed).

Strict mode
-----------
When the environment variable ``MLTUTOR_STRICT`` is ``1`` (the repository's ``conftest.py`` sets it
for pytest and for the kernels that nbval starts), an *incorrect* result raises
:class:`CheckFailed`, an :class:`AssertionError`, so a wrong stored solution fails CI.  *Not
attempted* never raises: the exercise notebooks must run clean.
"""

from __future__ import annotations

import copy
import ctypes
import inspect
import math
import numbers
import os
import signal
import textwrap
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

__all__ = [
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
    "STRICT_ENV",
    "Case",
    "CheckFailed",
    "CheckResult",
    "ChoiceExercise",
    "DEFAULT_TIME_LIMIT",
    "Exercise",
    "ICONS_ENV",
    "KINDS",
    "Misconception",
    "ValueExercise",
    "case",
    "compare",
    "is_strict",
    "____",
]

#: Status of a check whose answer matches the expected value.
CORRECT = "correct"
#: Status of a check whose answer was given but does not match.
INCORRECT = "incorrect"
#: Status of a check whose answer is still a placeholder.
NOT_ATTEMPTED = "not attempted"
#: Environment variable that, when ``1``, makes checks raise :class:`CheckFailed` on *incorrect*
#: answers (CI mode); *not attempted* answers never raise.
STRICT_ENV = "MLTUTOR_STRICT"
#: The kinds of exercise, as :attr:`Exercise.kind` names them.
KINDS = ("implement", "value", "judgement")
#: Seconds one case may run before the check reports it (``time_limit=`` overrides it).
DEFAULT_TIME_LIMIT = 5.0

#: Environment variable that, when ``plain``, makes results use text symbols (✔, ✘, ○) instead of
#: emoji, for browsers without an emoji font (``scripts/lab.py`` sets it where it finds none).
ICONS_ENV = "MLTUTOR_ICONS"

_ICONS = {CORRECT: "✅", INCORRECT: "❌", NOT_ATTEMPTED: "⏳"}
_PLAIN_ICONS = {CORRECT: "✔", INCORRECT: "✘", NOT_ATTEMPTED: "○"}
_LABELS = {CORRECT: "Correct", INCORRECT: "Incorrect", NOT_ATTEMPTED: "Not attempted"}


def _plain_icons() -> bool:
    return os.environ.get(ICONS_ENV, "").strip().lower() in {"plain", "text"}


def _icon(status: str) -> str:
    return (_PLAIN_ICONS if _plain_icons() else _ICONS)[status]


def _bulb() -> str:
    """The hint and solution marker: an emoji, or nothing in plain mode."""
    return "" if _plain_icons() else "💡 "


class _Placeholder:
    """The blank a learner replaces: ``answer = ____``."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "____"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


#: The placeholder for a value the learner has still to fill in.
____ = _Placeholder()


def is_strict() -> bool:
    """True when ``MLTUTOR_STRICT`` asks incorrect answers to raise (pytest, nbval)."""
    return os.environ.get(STRICT_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


class CheckResult:
    """The outcome of one check: ``status`` is ``"correct"``, ``"incorrect"`` or ``"not attempted"``.

    ``bool(result)`` is True only when the answer is correct.  The text is deterministic (no
    addresses, no timings), so nbval can compare it in the committed notebooks.
    """

    __slots__ = ("status", "message", "exercise", "case", "passed", "total", "misconception",
                 "cases")

    def __init__(self, status: str, message: str, exercise: str = "", case: int | None = None, *,
                 passed: int | None = None, total: int | None = None,
                 misconception: str | None = None, cases: list[dict] | None = None):
        if status not in _LABELS:
            raise ValueError(f"status must be one of {sorted(_LABELS)}, got {status!r}")
        self.status = status
        self.message = message
        self.exercise = exercise
        #: 1-based number of the first failing case, or None.
        self.case = case
        #: How many cases pass, out of ``total`` (None when the answer was not checked case by case).
        self.passed = passed
        self.total = total
        #: The key of the known mistake the answer matches (:class:`Misconception`), or None.
        self.misconception = misconception
        #: One dict per case — ``{"case": 1, "note": ..., "passed": True, "problem": None}``.
        self.cases = cases or []

    @property
    def correct(self) -> bool:
        return self.status == CORRECT

    @property
    def attempted(self) -> bool:
        return self.status != NOT_ATTEMPTED

    def __bool__(self) -> bool:
        return self.status == CORRECT

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CheckResult):
            return NotImplemented
        return (self.status, self.message) == (other.status, other.message)

    __hash__ = None  # mutable-looking value object; not meant for sets

    def __str__(self) -> str:
        return f"{_icon(self.status)} {_LABELS[self.status]}: {self.message}"

    __repr__ = __str__

    def _repr_markdown_(self) -> str:
        return f"{_icon(self.status)} **{_LABELS[self.status]}:** {self.message}"


class CheckFailed(AssertionError):
    """Raised for an incorrect answer in strict mode; ``.result`` holds the :class:`CheckResult`."""

    def __init__(self, result: CheckResult):
        super().__init__(str(result))
        self.result = result


class _Markdown:
    """A bit of text that renders as Markdown in a notebook and as plain text in a console."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def _repr_markdown_(self) -> str:
        return self.text


# --------------------------------------------------------------------------------------------
# Cases and formatting
# --------------------------------------------------------------------------------------------


class Case:
    """One set of inputs for a function exercise: positional ``args``, ``kwargs`` and a ``note``.

    The note says what the case is about ("a class that never occurs"); it appears in messages.
    A learner can rerun a failing case with ``case.run(my_function)``.
    """

    __slots__ = ("args", "kwargs", "note")

    def __init__(self, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None, note: str = ""):
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
    if value is None or t is bool or t is int or t is float or t is str or t is complex or t is bytes:
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
    return (f"returned {what}, which the checker does not compare: return plain numbers, text, "
            "tuples or lists of them, or a NumPy array")


def compare(expected: Any, got: Any, *, rtol: float = 1e-9, atol: float = 1e-12,
            names: Sequence[str] | None = None) -> str | None:
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
            return (f"returned {_kind(got)}, expected {len(expected)} values "
                    f"({', '.join(names) if names else 'a tuple'})")
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
        return (f"contains NaN (first at index {_index_text(idx)}) -- a 0/0 somewhere? "
                "Handle division by zero")
    if expected.dtype.kind in "biu" and got.dtype.kind in "biu":
        bad = g != e
    else:
        bad = ~np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        n_bad, n = int(bad.sum()), bad.size
        entries = "entry" if n == 1 else f"{n_bad} of {n} entries"
        mine = _fmt_against(got[idx], expected[idx]) if got.ndim else _fmt(got.item())
        return (f"values differ in {entries}, first at index {_index_text(idx)} "
                f"(your value there: {mine})")
    return None


# --------------------------------------------------------------------------------------------
# Exercises
# --------------------------------------------------------------------------------------------


class Misconception:
    """A known wrong version of an exercise, recognised when the learner's results match it.

    Parameters
    ----------
    key : str
        A short identifier for tests and grade reports (``"swapped"``).
    message : str
        What the mistake is, completing "your results match ...": ``"precision and recall
        swapped"``.  It must not reveal the expected answer.
    function : callable
        The wrong implementation.  The learner's results match it when they agree with it on
        every case where it returns (cases where it raises are skipped), and it differs from the
        reference on at least one case.
    """

    __slots__ = ("key", "message", "function")

    def __init__(self, key: str, message: str, function: Callable[..., Any]):
        self.key = key
        self.message = message
        self.function = function

    def __repr__(self) -> str:
        return f"Misconception({self.key!r}: {self.message})"


#: Stand-ins for a case's result when the learner's function raised or ran out of time.
_RAISED = object()
_TIMED_OUT = object()
_REFUSED = object()


class _CaseTimeout(BaseException):
    """Raised inside a learner's function that ran past the time limit.

    A :class:`BaseException`, so that a learner's ``except Exception:`` cannot swallow it.
    """


class _BaseExercise:
    """What every exercise shares: name, title, kind, hints, solution, strict handling."""

    kind = "implement"
    #: True in a graded copy (:meth:`graded_copy`): ``solution()`` refuses, messages do not offer it.
    graded = False

    def __init__(self, name: str, *, title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 rtol: float = 1e-9, atol: float = 1e-12, kind: str | None = None,
                 variable: str | None = None):
        if kind is not None:
            if kind not in KINDS:
                raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
            self.kind = kind
        self.name = name
        self.title = title
        self.hints = list(hints)
        self._solution = solution
        self.rtol = rtol
        self.atol = atol
        #: The notebook variable (or function) whose value is checked; the batch grader reads it.
        self.variable = variable
        self._next_hint = 0

    # -- results ------------------------------------------------------------------------------

    def _way_forward(self) -> str:
        if self.hints:
            return f"Try `{self.name}.hint()`."
        if self.graded:
            return "No hints for this one."
        return f"No hints for this one: `{self.name}.solution()` shows our answer."

    def _result(self, status: str, message: str, case: int | None = None,
                strict: bool | None = None, **details: Any) -> CheckResult:
        if status == INCORRECT:
            message = " ".join(filter(None, [_sentence(message), self._way_forward()]))
        result = CheckResult(status, message, exercise=self.name, case=case, **details)
        if status == INCORRECT and (is_strict() if strict is None else strict):
            raise CheckFailed(result)
        return result

    def _not_attempted(self, strict: bool | None, what: str = "") -> CheckResult:
        message = what or "replace the placeholder with your answer, then run this cell again."
        return self._result(NOT_ATTEMPTED, message, strict=strict)

    @staticmethod
    def _is_placeholder(answer: Any) -> bool:
        return answer is None or answer is Ellipsis or isinstance(answer, _Placeholder)

    def grade(self, answer: Any) -> dict[str, Any]:
        """Per-case results and a score, as a JSON-serialisable dict, for instructors.

        ``{"exercise", "title", "kind", "status", "passed", "total", "score", "misconception",
        "message", "cases"}``; ``score`` is ``passed / total``.  Never raises for a wrong answer.
        """
        return self._grade_dict(self._grade_result(answer))

    def _grade_dict(self, result: CheckResult) -> dict[str, Any]:
        total = result.total if result.total is not None else len(getattr(self, "cases", [1]))
        passed = result.passed if result.passed is not None else int(result.correct)
        return {
            "exercise": self.name, "title": self.title, "kind": self.kind,
            "status": result.status, "passed": int(passed), "total": int(total),
            "score": passed / total if total else 0.0,
            "misconception": result.misconception, "message": result.message,
            "cases": [dict(c) for c in result.cases],
        }

    def _grade_result(self, answer: Any) -> CheckResult:
        return self.check(answer, strict=False)

    # -- hints and solution -------------------------------------------------------------------

    def hint(self, n: int | None = None) -> _Markdown:
        """Hint number ``n`` (1-based); without ``n``, the next hint each time it is called."""
        if not self.hints:
            if self.graded:
                return _Markdown(f"No hints for `{self.name}`.")
            return _Markdown(f"No hints for `{self.name}`; `{self.name}.solution()` shows our answer.")
        if n is None:
            n = min(self._next_hint, len(self.hints) - 1) + 1
            self._next_hint = n
        if not 1 <= n <= len(self.hints):
            raise ValueError(f"{self.name} has hints 1 to {len(self.hints)}, got n={n}")
        more = (f"Run `{self.name}.hint()` again for hint {n + 1} of {len(self.hints)}."
                if n < len(self.hints)
                else "That was the last hint." if self.graded
                else f"That was the last hint; `{self.name}.solution()` shows our answer.")
        return _Markdown(f"{_bulb()}**Hint {n} of {len(self.hints)}:** {self.hints[n - 1]}\n\n{more}")

    def graded_copy(self):
        """A copy of this exercise for a graded assignment: the same checks and hints, no solution.

        Its :meth:`solution` says that solutions are not shown, and no message offers one.  The
        copy still holds the reference that its checks need; a student with the package can read
        it in the package's source (``book/instructors.md`` says how to grade without relying on
        this copy).
        """
        other = copy.copy(self)
        other.graded = True
        other._solution = None
        other._next_hint = 0
        return other

    def solution_code(self) -> str:
        """The reference solution as Python source."""
        if self.graded:
            raise ValueError(f"{self.name} is part of a graded assignment: no solution is shown")
        sol = self._solution
        if callable(sol):
            sol = sol()
        if sol is None:
            raise ValueError(f"{self.name} has no solution to show")
        return textwrap.dedent(sol).strip("\n")

    def solution(self) -> _Markdown:
        """Our solution, as a Markdown code block (in a graded copy, a note that none is shown)."""
        if self.graded:
            return _Markdown(f"Solutions are not shown in a graded assignment: `{self.name}` is "
                             "graded with hidden tests after you hand it in."
                             + (f" `{self.name}.hint()` is still here." if self.hints else ""))
        return _Markdown(f"{_bulb()}**Solution for `{self.name}`:**\n\n```python\n"
                         f"{self.solution_code()}\n```")

    def __repr__(self) -> str:
        title = f": {self.title}" if self.title else ""
        return f"<{type(self).__name__} {self.name}{title}>"


def _positional_capacity(sig: inspect.Signature | None) -> tuple[float, set[str], bool]:
    """How many arguments ``sig`` takes by position, its keyword-only names, and ``**kwargs``."""
    if sig is None:
        return math.inf, set(), True
    kinds = [p.kind for p in sig.parameters.values()]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        n_pos: float = math.inf
    else:
        n_pos = sum(k in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                    for k in kinds)
    kw_only = {n for n, p in sig.parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    return n_pos, kw_only, inspect.Parameter.VAR_KEYWORD in kinds


class Exercise(_BaseExercise):
    """A function exercise (kind ``"implement"``): the learner writes a function; ``check`` runs it.

    Parameters
    ----------
    name : str
        The variable name the notebook uses (``"ex1"``); it appears in messages.
    reference : callable
        The correct implementation.  Its results on the cases are the expected answers; its
        parameter names label the inputs in messages; its source is the default solution.
    cases : sequence of Case
        Inputs to try, tricky ones included.  The first failing case is reported, with how many
        cases pass.
    hints : sequence of str
        Progressive hints (Markdown).
    solution : str or callable, optional
        Solution code to show; defaults to the source of ``reference``.
    outputs : sequence of str, optional
        Names of the items when the function returns a tuple (``("tp", "fp", "fn", "tn")``).
    compare : callable, optional
        ``compare(expected, got) -> None | str``; the default is :func:`compare` with
        ``rtol``/``atol``.  The string says what is wrong and must not reveal ``expected``.
    misconceptions : sequence of Misconception, optional
        Known wrong versions, named in the message when the learner's results match one.
    display_name : str, optional
        The function name used in messages (default: the reference's ``__name__``).
    time_limit : float, optional
        Seconds per case (default :data:`DEFAULT_TIME_LIMIT`; 0 or None: no limit).
    """

    kind = "implement"

    def __init__(self, name: str, reference: Callable[..., Any], cases: Sequence[Case], *,
                 title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 outputs: Sequence[str] | None = None,
                 compare: Callable[[Any, Any], str | None] | None = None,
                 rtol: float = 1e-9, atol: float = 1e-12,
                 misconceptions: Sequence[Misconception] = (),
                 display_name: str | None = None,
                 time_limit: float | None = DEFAULT_TIME_LIMIT):
        if not cases:
            raise ValueError("an Exercise needs at least one case")
        if solution is None:
            solution = lambda: inspect.getsource(reference)  # noqa: E731 - read lazily
        self._func_name = display_name or getattr(reference, "__name__", "f")
        super().__init__(name, title=title, hints=hints, solution=solution, rtol=rtol, atol=atol,
                         variable=self._func_name)
        self.reference = reference
        self.cases = list(cases)
        self.outputs = tuple(outputs) if outputs else None
        self.misconceptions = list(misconceptions)
        self.time_limit = time_limit
        self._compare = compare
        try:
            self._signature: inspect.Signature | None = inspect.signature(reference)
        except (TypeError, ValueError):
            self._signature = None
        self._params = list(self._signature.parameters) if self._signature else None

    def _inputs(self, c: Case, candidate: Any = None) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Fresh copies of a case's inputs, passed by position wherever both functions allow.

        A learner may name the parameters differently (``labels`` for ``y_true``), so a case written
        as ``case(y, p, pos_label=1)`` calls the learner's function as ``f(y, p, 1)``; a parameter
        that the learner's signature makes keyword-only (``def f(y, p, *, pos_label=1)``) is passed
        by keyword, under the reference's name.
        """
        args, kwargs = c.copy_inputs()
        return _arrange(self._signature, args, kwargs, candidate)

    def expected(self, i: int) -> Any:
        """The reference result for case ``i`` (0-based); for authors and tests, not learners."""
        args, kwargs = self.cases[i].copy_inputs()
        return self.reference(*args, **kwargs)

    def _diff(self, expected: Any, got: Any) -> str | None:
        if self._compare is not None:
            return self._compare(expected, got)
        return compare(expected, got, rtol=self.rtol, atol=self.atol, names=self.outputs)

    def _snapshot(self) -> tuple[list[Case], list[tuple[bool, Any]]]:
        """The cases and the reference's result on each, taken before the learner's code runs.

        A function that replaces ``ex.reference`` or ``ex.cases`` while it is being checked
        changes neither the cases nor the expected values of that check.
        """
        reference, cases = self.reference, list(self.cases)
        expected = []
        for c in cases:
            args, kwargs = c.copy_inputs()
            try:
                expected.append((True, reference(*args, **kwargs)))
            except Exception as exc:  # noqa: BLE001 - reported when that case is compared
                expected.append((False, exc))
        return cases, expected

    def _run_case(self, candidate: Callable[..., Any], c: Case, limit: float | None) -> tuple:
        """Run one case; see :func:`_run_call` for the outcomes."""
        args, kwargs = self._inputs(c, candidate)
        return _run_call(candidate, args, kwargs, limit)

    def _case_label(self, fname: str, i: int, cases: Sequence[Case] | None = None) -> str:
        cases = self.cases if cases is None else cases
        c = cases[i]
        label = f"case {i + 1} of {len(cases)}" + (f" ({c.note})" if c.note else "")
        big = [*c.args, *c.kwargs.values()]
        if any(isinstance(a, np.ndarray) and a.size > _MAX_SHOWN for a in big):
            fname = fname if fname.isidentifier() else "your_function"
            label += f", rerun it with `{self.name}.cases[{i}].run({fname})`"
        return f"{label}, `{_call_text(self._func_name, self._params, c)}`"

    @staticmethod
    def _raised_text(info: dict) -> str:
        if info.get("exit"):
            return ("your function raised SystemExit (a call to exit() or sys.exit()?): a function "
                    "should return its result, not stop Python")
        if info.get("interrupt"):
            return "your function was interrupted (KeyboardInterrupt)"
        return f"your function raised {info['text']}"

    def _evaluate(self, run: Callable[[int], tuple], cases: list[Case],
                  expected: list[tuple[bool, Any]], limit: float | None,
                  stop_after_timeout: bool) -> tuple[list[dict], list[Any], str | None]:
        """Every case's outcome, the learner's results (None where none) and a not-attempted text.

        ``run(i)`` runs case ``i`` and returns one of the outcomes of :func:`_run_call` (or
        ``("crashed", text)`` when the process that ran it died).
        """
        outcomes: list[dict] = []
        results: list[Any] = []
        stopped = False
        for i, c in enumerate(cases):
            row = {"case": i + 1, "note": c.note, "passed": False, "problem": None}
            outcomes.append(row)
            results.append(None)
            if stopped:
                row["problem"] = "not run: an earlier case ran past the time limit"
                continue
            outcome = run(i)
            how = outcome[0]
            if how in ("timeout", "crashed"):
                row["problem"] = (f"took over {limit:g} s -- an infinite loop?" if how == "timeout"
                                  else outcome[1])
                results[i] = _TIMED_OUT
                stopped = stop_after_timeout
                continue
            if how == "raised":
                info = outcome[1]
                if info.get("not_implemented") and i == 0:
                    return outcomes, results, ("your function still raises NotImplementedError: "
                                               "replace `raise NotImplementedError` with your code.")
                row["problem"] = self._raised_text(info)
                results[i] = _RAISED
                continue
            if how == "refused":
                row["problem"] = _refused_text(outcome[1])
                results[i] = _REFUSED
                continue
            got, caught = outcome[1], outcome[2]
            results[i] = got
            ok, want = expected[i]
            try:
                if not ok:
                    raise want
                problem = self._diff(want, got)
            except Exception as exc:  # noqa: BLE001 - an unusual return value
                problem = f"could not compare your result ({_short_exc(exc)})"
            if problem is not None and caught:
                category, text = caught[0]
                problem = f"{_sentence(problem)} Your code also warned: {category}: {text}"
            row["problem"] = problem
            row["passed"] = problem is None
        return outcomes, results, None

    def _matching_misconception(self, results: list[Any], cases: list[Case],
                                expected: list[tuple[bool, Any]]) -> Misconception | None:
        """The first known mistake whose results the learner's agree with on every case.

        Where the mistake raises, the learner's function must have raised too.
        """
        if any(r is _TIMED_OUT for r in results):
            return None
        for m in self.misconceptions:
            if self._same_as(m, results, cases, expected):
                return m
        return None

    def _same_as(self, m: Misconception, results: list[Any], cases: list[Case],
                 expected: list[tuple[bool, Any]]) -> bool:
        differs = False
        for i, got in enumerate(results):
            args, kwargs = cases[i].copy_inputs()
            try:
                with _recording_warnings(), np.errstate(all="ignore"):
                    wrong = m.function(*args, **kwargs)
            except Exception:  # noqa: BLE001 - the mistake fails on this case
                if got is not _RAISED:
                    return False
                differs = True
                continue
            if got is _RAISED:
                return False
            try:
                if self._diff(wrong, got) is not None:
                    return False
                ok, want = expected[i]
                differs = differs or not ok or self._diff(want, wrong) is not None
            except Exception:  # noqa: BLE001
                return False
        return differs

    def check(self, candidate: Any, *, strict: bool | None = None,
              time_limit: float | None | str = "default") -> CheckResult:
        """Run ``candidate`` on every case and compare with the reference.

        ``strict=None`` follows ``MLTUTOR_STRICT``; ``strict=True`` raises :class:`CheckFailed`
        for an incorrect answer, ``strict=False`` never raises.  ``time_limit`` (seconds per case)
        overrides the exercise's; after a case runs past it the remaining cases are not run.
        """
        return self._check(candidate, strict, time_limit, stop_after_timeout=True)

    def _grade_result(self, answer: Any) -> CheckResult:
        return self._check(answer, False, "default", stop_after_timeout=False)

    def _check(self, candidate: Any, strict: bool | None, time_limit: Any,
               stop_after_timeout: bool) -> CheckResult:
        if self._is_placeholder(candidate):
            return self._not_attempted(strict, f"write your function, then pass it to "
                                               f"`{self.name}.check(...)`.")
        if not callable(candidate):
            try:
                what = _kind(_plain(candidate))
            except _Refused as exc:
                what = str(exc)
            return self._result(
                INCORRECT, f"`{self.name}.check` expects your function, got {what}: "
                           f"pass the function, without () -- `{self.name}.check({self._func_name})`",
                strict=strict, passed=0, total=len(self.cases))
        limit = self.time_limit if time_limit == "default" else time_limit
        cases, expected = self._snapshot()
        fname = getattr(candidate, "__name__", "")
        fname = fname if isinstance(fname, str) else ""
        return self._verdict(lambda i: self._run_case(candidate, cases[i], limit), cases,
                             expected, limit, stop_after_timeout, strict, fname)

    def _verdict(self, run: Callable[[int], tuple], cases: list[Case],
                 expected: list[tuple[bool, Any]], limit: float | None, stop_after_timeout: bool,
                 strict: bool | None, fname: str) -> CheckResult:
        n = len(cases)
        outcomes, results, not_attempted = self._evaluate(run, cases, expected, limit,
                                                          stop_after_timeout)
        if not_attempted:
            return self._not_attempted(strict, not_attempted)
        passed = sum(row["passed"] for row in outcomes)
        if passed == n:
            return self._result(CORRECT, f"all {n} cases pass.", strict=strict, passed=n, total=n,
                                cases=outcomes)
        first = next(row for row in outcomes if not row["passed"])
        i = first["case"] - 1
        message = f"{self._case_label(fname, i, cases)}: {_sentence(first['problem'])}"
        message += f" {passed} of {n} cases pass."
        match = self._matching_misconception(results, cases, expected)
        if match is not None:
            message += f" Your results match a known mistake: {_sentence(match.message)}"
        return self._result(INCORRECT, message, i + 1, strict, passed=passed, total=n,
                            misconception=match.key if match else None, cases=outcomes)

    def _grade_outcomes(self, run: Callable[[int], tuple], fname: str = "",
                        limit: float | None | str = "default") -> dict[str, Any]:
        """:meth:`grade` for a function that runs elsewhere (the batch grader's worker process).

        ``run(i)`` returns case ``i``'s outcome, as :func:`_run_call` does, with the learner's
        value already converted by :func:`_plain`; the remaining cases are not run after a
        time-out.
        """
        limit = self.time_limit if limit == "default" else limit
        cases, expected = self._snapshot()
        return self._grade_dict(self._verdict(run, cases, expected, limit, True, False, fname))


def _arrange(signature: inspect.Signature | None, args: tuple, kwargs: dict,
             candidate: Any = None) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A case's inputs, bound to the reference's ``signature``, as ``candidate`` can take them."""
    if signature is None:
        return args, kwargs
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    try:
        theirs = inspect.signature(candidate) if candidate is not None else None
    except (TypeError, ValueError):
        theirs = None
    n_pos, kw_only, _ = _positional_capacity(theirs)
    positional: list[Any] = []
    keywords: dict[str, Any] = {}
    for pname, value in bound.arguments.items():
        kind = signature.parameters[pname].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            keywords.update(value)
        elif (kind is not inspect.Parameter.KEYWORD_ONLY and not keywords
              and len(positional) < n_pos and pname not in kw_only):
            positional.append(value)
        else:
            keywords[pname] = value
    return tuple(positional), keywords


def _exception_info(exc: BaseException) -> dict:
    """What the messages need to know about an exception the learner's code raised."""
    return {"text": _short_exc(exc), "exit": isinstance(exc, SystemExit),
            "interrupt": isinstance(exc, KeyboardInterrupt),
            "not_implemented": isinstance(exc, NotImplementedError)}


_monotonic = time.monotonic
#: Seconds a check waits past the time limit for the learner's function to take its time-out.
_GRACE = 0.2


def _run_call(candidate: Callable[..., Any], args: tuple, kwargs: dict,
              limit: float | None) -> tuple:
    """Call ``candidate`` under the time limit and convert its result inside that limit.

    Returns ``("ok", value, warnings)`` (``value`` converted by :func:`_plain`, ``warnings`` a list
    of ``(category name, message)``), ``("raised", info)`` (see :func:`_exception_info`),
    ``("refused", what)`` for a result that cannot be converted, or ``("timeout",)``.

    With a limit, the function runs in a thread of its own (:func:`_in_thread`) while the
    checking thread waits at most ``limit`` seconds (and :data:`_GRACE` more): nothing the
    function does (``signal.setitimer(signal.ITIMER_REAL, 0)``, ``except BaseException``, a long
    ``time.sleep``) keeps the check waiting longer, and a result that arrives late is a time-out.
    """
    if not limit or limit <= 0:
        return _call_here(candidate, args, kwargs, None)
    return _in_thread(candidate, args, kwargs, limit)


def _call_here(candidate: Callable[..., Any], args: tuple, kwargs: dict,
               limit: float | None) -> tuple:
    """:func:`_run_call` in this thread, under :func:`_time_limit` (no thread can be started)."""
    with _recording_warnings() as caught:
        started = _monotonic()
        try:
            with _time_limit(limit):
                raw = candidate(*args, **kwargs)
                try:
                    got = _plain(raw)
                except _Refused as exc:
                    return "refused", str(exc)
                finally:
                    del raw
        except _CaseTimeout:
            return ("timeout",)
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - the bug is the message
            return "raised", _exception_info(exc)
        if limit and limit > 0 and _monotonic() - started > limit:
            return ("timeout",)
        warned = [(w.category.__name__, str(w.message)) for w in caught]
    return "ok", got, warned


def _in_thread(candidate: Callable[..., Any], args: tuple, kwargs: dict, limit: float) -> tuple:
    """Run the call in a daemon thread; from the deadline on, raise time-outs in it.

    A watchdog raises :class:`_CaseTimeout` in the thread at the deadline and again every
    :data:`_REARM` seconds while the thread lives (more slowly after the check has returned),
    so a Python loop ends there even if it swallows one.  A function that catches every
    exception in an endless loop keeps running in the background; the check has reported it as
    a time-out all the same.
    """
    box: dict[str, Any] = {}
    go = threading.Event()
    state = threading.Lock()  # held while one side decides whether the thread may get a time-out

    def target() -> None:
        go.wait()
        started = _monotonic()
        try:
            raw = candidate(*args, **kwargs)
            try:
                box["got"] = _plain(raw)
                box["how"] = "ok"
            except _Refused as exc:
                box["how"], box["what"] = "refused", str(exc)
            finally:
                del raw
        except _CaseTimeout:
            box["how"] = "timeout"
        except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt too
            box["how"], box["info"] = "raised", _exception_info(exc)
        finally:
            box["elapsed"] = _monotonic() - started
            while True:  # no time-out may reach the thread's own shutdown
                try:
                    with state:
                        box["done"] = True
                        _async_raise(threading.get_ident(), None)
                    finished.set()
                    break
                except _CaseTimeout:
                    continue

    def watch() -> None:
        if box.get("done") or finished.wait(limit):
            return
        waited = 0.0
        while True:
            with state:
                if box.get("done"):
                    return
                _async_raise(worker.ident, _CaseTimeout)
            pause = _REARM if waited < 2.0 else 0.5
            waited += pause
            if finished.wait(pause):
                return

    worker = threading.Thread(target=target, name="mltutor-candidate", daemon=True)
    finished = threading.Event()
    try:
        worker.start()
    except RuntimeError:  # no threads here (Pyodide)
        return _call_here(candidate, args, kwargs, limit)
    threads = {worker.ident}
    with _recording_warnings(threads) as caught:
        watcher = threading.Thread(target=watch, name="mltutor-time-limit", daemon=True)
        watcher.start()
        go.set()
        started = _monotonic()
        worker.join(limit)
        if worker.is_alive():
            worker.join(_GRACE)
        waited = _monotonic() - started
        warned = [(w.category.__name__, str(w.message)) for w in caught]
    how = box.get("how")
    if not box.get("done") or how == "timeout" or box.get("elapsed", waited) > limit:
        return ("timeout",)
    if how == "raised":
        return "raised", box["info"]
    if how == "refused":
        return "refused", box["what"]
    return "ok", box["got"], warned


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`_CaseTimeout` inside the block once it has run ``seconds``.

    The main thread uses ``signal.setitimer`` (an earlier timer, if any, is put back afterwards).
    Every thread also gets a watchdog thread that, from the deadline on, raises the exception in
    it with ``PyThreadState_SetAsyncExc``, again every :data:`_REARM` seconds until the block
    ends: code that switches the timer off (``signal.setitimer(signal.ITIMER_REAL, 0)``) or
    swallows one time-out (``except BaseException: pass``) gets the next one.  Without
    ``seconds`` (0 or None) the block runs without a limit; where threads cannot start (Pyodide)
    only the timer applies, if there is one.
    """
    if not seconds or seconds <= 0:
        yield
        return
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        with _alarm(seconds), _watchdog(seconds + _REARM):
            yield
        return
    with _watchdog(seconds):
        yield


#: Seconds between two time-outs raised by the watchdog once the deadline has passed.
_REARM = 0.05


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    active = [True]

    def on_alarm(signum, frame):  # noqa: ANN001, ARG001
        if active[0]:
            raise _CaseTimeout

    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    started = time.monotonic()
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay > 0:  # someone else's timer was running: let it go on
            left = max(previous_delay - (time.monotonic() - started), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, previous_interval)


def _async_raise(target: int, exc: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                               ctypes.py_object(exc) if exc else None)


@contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    target = threading.get_ident()
    done = threading.Event()
    fired = threading.Event()

    def watch() -> None:
        if done.wait(seconds):
            return
        while True:
            fired.set()
            _async_raise(target, _CaseTimeout)
            if done.wait(_REARM):
                return

    try:
        watcher = threading.Thread(target=watch, name="mltutor-time-limit", daemon=True)
        watcher.start()
    except RuntimeError:  # no threads here (Pyodide): run without a watchdog
        yield
        return
    try:
        yield
    finally:
        while True:  # a time-out may arrive here too, until the watchdog has stopped
            try:
                done.set()
                watcher.join()
                break
            except _CaseTimeout:
                continue
        if fired.is_set():  # a time-out raised but not yet delivered: cancel it
            _async_raise(target, None)


#: Serialises every check's use of ``warnings.catch_warnings`` (not thread-safe — interleaved, two
#: of them restore each other's saved state).  Re-entrant: a checked function may run a check.
_WARNINGS_LOCK = threading.RLock()


@contextmanager
def _recording_warnings(threads: set[int] | None = None) -> Iterator[list[warnings.WarningMessage]]:
    """Record the warnings that this thread (or the threads in ``threads``) issue in the block.

    The filters are left as they are (their content is never changed; ``catch_warnings`` only
    swaps in a copy and puts the original list back, which also resets the once-per-location
    registry so that a warning shown before is recorded again).  Warnings from other threads go
    on to the previous ``warnings.showwarning``.  ``threads`` may be filled in after the block
    has started (the thread that runs the learner's function, once it exists).
    """
    caught: list[warnings.WarningMessage] = []
    mine = threads if threads is not None else {threading.get_ident()}
    with _WARNINGS_LOCK, warnings.catch_warnings():
        previous = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
            if threading.get_ident() in mine:
                caught.append(warnings.WarningMessage(message, category, filename, lineno, file, line))
            else:
                previous(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        yield caught


def _expected_type(answer: Any) -> str:
    """What kind of value an answer is, in words, without its content."""
    if isinstance(answer, np.ndarray):
        return f"a NumPy array of shape {answer.shape}"
    if isinstance(answer, (tuple, list)):
        return f"a {type(answer).__name__} of {len(answer)} values"
    if isinstance(answer, (bool, np.bool_)):
        return "True or False"
    if _is_number(answer):
        return "a number"
    return f"a {type(answer).__name__}"


class ValueExercise(_BaseExercise):
    """A value exercise: the learner supplies a number, a tuple or an array, not a function.

    ``answer`` is the expected value; floats are compared with ``rtol``/``atol`` (a typed-in
    answer deserves a looser tolerance than a computed one).  ``kind`` is ``"value"`` unless
    declared ``"judgement"`` (a decision given as a number, such as a threshold).
    ``wrong_answers`` maps known wrong values to their explanation: ``[(0.5, "that is ...")]``;
    a value that matches one (within the tolerance) gets that explanation.
    """

    kind = "value"

    def __init__(self, name: str, answer: Any, *, title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 outputs: Sequence[str] | None = None,
                 compare: Callable[[Any, Any], str | None] | None = None,
                 rtol: float = 1e-9, atol: float = 1e-12, kind: str = "value",
                 variable: str | None = None,
                 wrong_answers: Sequence[tuple[Any, str]] = ()):
        super().__init__(name, title=title, hints=hints, solution=solution, rtol=rtol, atol=atol,
                         kind=kind, variable=variable)
        self.answer = answer
        self.outputs = tuple(outputs) if outputs else None
        self.wrong_answers = list(wrong_answers)
        self._compare = compare

    def _diff(self, expected: Any, got: Any) -> str | None:
        if self._compare is not None:
            return self._compare(expected, got)
        return compare(expected, got, rtol=self.rtol, atol=self.atol, names=self.outputs)

    def check(self, value: Any, *, strict: bool | None = None) -> CheckResult:
        """Compare ``value`` with the answer; see :meth:`Exercise.check` for ``strict``."""
        if self._is_placeholder(value):
            return self._not_attempted(strict)
        if not callable(value) or isinstance(value, np.ndarray):
            try:
                value = _plain(value)
            except _Refused as exc:
                return self._result(INCORRECT, f"your answer is {exc}, which the check does not "
                                                "compare: give a number, a tuple or a NumPy array",
                                    1, strict, passed=0, total=1)
        if callable(value) and not isinstance(value, np.ndarray):
            return self._result(INCORRECT, f"`{self.name}.check` expects a value, got a function "
                                            "-- call it and pass its result.", 1, strict,
                                passed=0, total=1)
        if isinstance(value, str) and not isinstance(self.answer, str):
            return self._result(INCORRECT, f"your answer is {_kind(value)}, a str; expected "
                                            f"{_expected_type(self.answer)} (without quotes)",
                                1, strict, passed=0, total=1)
        try:
            problem = self._diff(self.answer, value)
        except Exception as exc:  # noqa: BLE001 - an unusual value
            problem = f"could not compare your value ({_short_exc(exc)})"
        if problem is None:
            return self._result(CORRECT, "that is the right value.", strict=strict, passed=1,
                                total=1)
        if problem.startswith("your function returned None"):
            problem = "your value is None"
        key = None
        for k, (wrong, why) in enumerate(self.wrong_answers):
            try:
                same = self._diff(wrong, value) is None
            except Exception:  # noqa: BLE001
                same = False
            if same:
                problem, key = f"{_sentence(problem)} {why}", f"wrong_answer_{k + 1}"
                break
        return self._result(INCORRECT, problem, 1, strict, passed=0, total=1, misconception=key)


class ChoiceExercise(_BaseExercise):
    """A judgement exercise: a scenario, a decision among lettered options, one right.

    Parameters
    ----------
    name : str
        The notebook's variable for the check (``"ex6"``).
    options : dict of str to (str, str)
        ``{"a": (text of the option, explanation shown when it is chosen), ...}``.  The
        explanation of a wrong option says why it is wrong without naming the right one.
    answer : str
        The letter of the right option.
    """

    kind = "judgement"

    def __init__(self, name: str, options: dict[str, tuple[str, str]], answer: str, *,
                 title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 variable: str | None = None):
        letters = [str(k).lower() for k in options]
        if answer.lower() not in letters:
            raise ValueError(f"answer {answer!r} is not one of the options {letters}")
        if any(len(v) != 2 or not v[1] for v in options.values()):
            raise ValueError("every option needs (text, explanation), the explanation not empty")
        if solution is None:
            solution = f"{variable or 'answer'} = {answer.lower()!r}"
        super().__init__(name, title=title, hints=hints, solution=solution, kind="judgement",
                         variable=variable)
        self.options = {str(k).lower(): v for k, v in options.items()}
        self.answer = answer.lower()

    def _letters(self) -> str:
        keys = list(self.options)
        return ", ".join(f"'{k}'" for k in keys[:-1]) + f" or '{keys[-1]}'"

    def check(self, choice: Any, *, strict: bool | None = None) -> CheckResult:
        """Say whether ``choice`` (a letter) is right, and why the chosen option is (not)."""
        if self._is_placeholder(choice):
            return self._not_attempted(strict, f"set your answer to one of the letters "
                                               f"{self._letters()}, then run this cell again.")
        if not callable(choice):
            try:
                choice = _plain(choice)
            except _Refused as exc:
                choice = _Refused(str(exc))
        if not isinstance(choice, str):
            what = str(choice) if isinstance(choice, _Refused) else _kind(choice)
            return self._result(INCORRECT, f"your answer is {what}; expected one of the "
                                            f"letters {self._letters()}, as a string", 1, strict,
                                passed=0, total=1)
        letter = choice.strip().lower().strip("()")
        if letter not in self.options:
            return self._result(INCORRECT, f"{choice!r} is not one of the options; choose "
                                            f"{self._letters()}", 1, strict, passed=0, total=1)
        text, why = self.options[letter]
        if letter == self.answer:
            return self._result(CORRECT, f"({letter}) {_sentence(why)}", strict=strict,
                                passed=1, total=1)
        return self._result(INCORRECT, f"you chose ({letter}). {_sentence(why)} Read the scenario "
                                        "again and choose another option", 1, strict,
                            passed=0, total=1, misconception=f"option_{letter}")

    def _way_forward(self) -> str:
        return f"Try `{self.name}.hint()`." if self.hints else ""
