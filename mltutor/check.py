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
❌ Incorrect: case 1 of 2, `add(a=1, b=2)`: your value -1 is not right.
>>> ex.check(None)
⏳ Not attempted: write your function, then pass it to `ex0.check(...)`.

Three outcomes
--------------
* **correct** -- every case matches the reference (integers exactly, floats within a tolerance,
  arrays by shape and then by value);
* **incorrect** -- the message names the *first* failing case, its inputs and what is wrong with
  the learner's result (wrong shape, wrong type, a NaN, which entry differs), but never the
  expected answer.  An exception raised by the learner's code is reported the same way;
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

Strict mode
-----------
When the environment variable ``MLTUTOR_STRICT`` is ``1`` (the repository's ``conftest.py`` sets it
for pytest and for the kernels that nbval starts), an *incorrect* result raises
:class:`CheckFailed`, an :class:`AssertionError`, so a wrong stored solution fails CI.  *Not
attempted* never raises: the exercise notebooks must run clean.
"""

from __future__ import annotations

import copy
import inspect
import math
import numbers
import os
import textwrap
import threading
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
    "Exercise",
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
#: Environment variable that, when set, makes checks raise on not-attempted answers (CI mode).
STRICT_ENV = "MLTUTOR_STRICT"

_ICONS = {CORRECT: "✅", INCORRECT: "❌", NOT_ATTEMPTED: "⏳"}
_LABELS = {CORRECT: "Correct", INCORRECT: "Incorrect", NOT_ATTEMPTED: "Not attempted"}


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

    __slots__ = ("status", "message", "exercise", "case")

    def __init__(self, status: str, message: str, exercise: str = "", case: int | None = None):
        if status not in _LABELS:
            raise ValueError(f"status must be one of {sorted(_LABELS)}, got {status!r}")
        self.status = status
        self.message = message
        self.exercise = exercise
        #: 1-based number of the first failing case, or None.
        self.case = case

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
        return f"{_ICONS[self.status]} {_LABELS[self.status]}: {self.message}"

    __repr__ = __str__

    def _repr_markdown_(self) -> str:
        return f"{_ICONS[self.status]} **{_LABELS[self.status]}:** {self.message}"


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
    """
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
        return None if ok else f"your value {_fmt(got)} is not right"

    try:
        ok = bool(got == expected)
    except Exception:  # noqa: BLE001 - a learner's object with an odd __eq__
        ok = False
    return None if ok else f"your value {_fmt(got)} is not right"


def _kind(x: Any) -> str:
    if isinstance(x, np.ndarray):
        return f"an array of shape {x.shape}"
    if isinstance(x, (tuple, list)):
        return f"a {type(x).__name__} of {len(x)} values"
    if _is_number(x):
        return "a single number"
    return f"a {type(x).__name__}"


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
        mine = _fmt(got[idx] if got.ndim else got.item())
        return (f"values differ in {entries}, first at index {_index_text(idx)} "
                f"(your value there: {mine})")
    return None


# --------------------------------------------------------------------------------------------
# Exercises
# --------------------------------------------------------------------------------------------


class _BaseExercise:
    """What function and value exercises share: name, title, hints, solution, strict handling."""

    def __init__(self, name: str, *, title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 rtol: float = 1e-9, atol: float = 1e-12):
        self.name = name
        self.title = title
        self.hints = list(hints)
        self._solution = solution
        self.rtol = rtol
        self.atol = atol
        self._next_hint = 0

    # -- results ------------------------------------------------------------------------------

    def _result(self, status: str, message: str, case: int | None = None,
                strict: bool | None = None) -> CheckResult:
        result = CheckResult(status, message, exercise=self.name, case=case)
        if status == INCORRECT and (is_strict() if strict is None else strict):
            raise CheckFailed(result)
        return result

    def _not_attempted(self, strict: bool | None, what: str = "") -> CheckResult:
        message = what or "replace the placeholder with your answer, then run this cell again."
        return self._result(NOT_ATTEMPTED, message, strict=strict)

    @staticmethod
    def _is_placeholder(answer: Any) -> bool:
        return answer is None or answer is Ellipsis or isinstance(answer, _Placeholder)

    # -- hints and solution -------------------------------------------------------------------

    def hint(self, n: int | None = None) -> _Markdown:
        """Hint number ``n`` (1-based); without ``n``, the next hint each time it is called."""
        if not self.hints:
            return _Markdown(f"No hints for `{self.name}`; `{self.name}.solution()` shows our answer.")
        if n is None:
            n = min(self._next_hint, len(self.hints) - 1) + 1
            self._next_hint = n
        if not 1 <= n <= len(self.hints):
            raise ValueError(f"{self.name} has hints 1 to {len(self.hints)}, got n={n}")
        more = (f"Run `{self.name}.hint()` again for hint {n + 1} of {len(self.hints)}."
                if n < len(self.hints)
                else f"That was the last hint; `{self.name}.solution()` shows our answer.")
        return _Markdown(f"💡 **Hint {n} of {len(self.hints)}:** {self.hints[n - 1]}\n\n{more}")

    def solution_code(self) -> str:
        """The reference solution as Python source."""
        sol = self._solution
        if callable(sol):
            sol = sol()
        if sol is None:
            raise ValueError(f"{self.name} has no solution to show")
        return textwrap.dedent(sol).strip("\n")

    def solution(self) -> _Markdown:
        """Our solution, as a Markdown code block."""
        return _Markdown(f"💡 **Solution for `{self.name}`:**\n\n```python\n{self.solution_code()}\n```")

    def __repr__(self) -> str:
        title = f": {self.title}" if self.title else ""
        return f"<{type(self).__name__} {self.name}{title}>"


class Exercise(_BaseExercise):
    """A function exercise: the learner writes a function; ``check`` runs it on every case.

    Parameters
    ----------
    name : str
        The variable name the notebook uses (``"ex1"``); it appears in messages.
    reference : callable
        The correct implementation.  Its results on the cases are the expected answers; its
        parameter names label the inputs in messages; its source is the default solution.
    cases : sequence of Case
        Inputs to try, tricky ones included.  The first failing case is reported.
    hints : sequence of str
        Progressive hints (Markdown).
    solution : str or callable, optional
        Solution code to show; defaults to the source of ``reference``.
    outputs : sequence of str, optional
        Names of the items when the function returns a tuple (``("tp", "fp", "fn", "tn")``).
    compare : callable, optional
        ``compare(expected, got) -> None | str``; the default is :func:`compare` with
        ``rtol``/``atol``.  The string says what is wrong and must not reveal ``expected``.
    """

    def __init__(self, name: str, reference: Callable[..., Any], cases: Sequence[Case], *,
                 title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 outputs: Sequence[str] | None = None,
                 compare: Callable[[Any, Any], str | None] | None = None,
                 rtol: float = 1e-9, atol: float = 1e-12):
        if not cases:
            raise ValueError("an Exercise needs at least one case")
        if solution is None:
            solution = lambda: inspect.getsource(reference)  # noqa: E731 - read lazily
        super().__init__(name, title=title, hints=hints, solution=solution, rtol=rtol, atol=atol)
        self.reference = reference
        self.cases = list(cases)
        self.outputs = tuple(outputs) if outputs else None
        self._compare = compare
        self._func_name = getattr(reference, "__name__", "f")
        try:
            self._signature: inspect.Signature | None = inspect.signature(reference)
        except (TypeError, ValueError):
            self._signature = None
        self._params = list(self._signature.parameters) if self._signature else None

    def _inputs(self, c: Case) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Fresh copies of a case's inputs, passed by position wherever the reference allows.

        A learner may name the parameters differently (``labels`` for ``y_true``), so a case written
        as ``case(y, p, pos_label=1)`` calls the learner's function as ``f(y, p, 1)``.
        """
        args, kwargs = c.copy_inputs()
        if self._signature is not None:
            try:
                bound = self._signature.bind(*args, **kwargs)
            except TypeError:
                return args, kwargs
            return tuple(bound.args), dict(bound.kwargs)
        return args, kwargs

    def expected(self, i: int) -> Any:
        """The reference result for case ``i`` (0-based); for authors and tests, not learners."""
        args, kwargs = self.cases[i].copy_inputs()
        return self.reference(*args, **kwargs)

    def _diff(self, expected: Any, got: Any) -> str | None:
        if self._compare is not None:
            return self._compare(expected, got)
        return compare(expected, got, rtol=self.rtol, atol=self.atol, names=self.outputs)

    def check(self, candidate: Any, *, strict: bool | None = None) -> CheckResult:
        """Run ``candidate`` on every case and compare with the reference.

        ``strict=None`` follows ``MLTUTOR_STRICT``; ``strict=True`` raises :class:`CheckFailed`
        for an incorrect answer, ``strict=False`` never raises.
        """
        if self._is_placeholder(candidate):
            return self._not_attempted(strict, f"write your function, then pass it to "
                                               f"`{self.name}.check(...)`.")
        if not callable(candidate):
            return self._result(INCORRECT, f"`{self.name}.check` expects your function, got "
                                            f"{_kind(candidate)}.", strict=strict)
        n = len(self.cases)
        for i, c in enumerate(self.cases):
            label = f"case {i + 1} of {n}" + (f" ({c.note})" if c.note else "")
            call = _call_text(self._func_name, self._params, c)
            big = [*c.args, *c.kwargs.values()]
            if any(isinstance(a, np.ndarray) and a.size > _MAX_SHOWN for a in big):
                fname = getattr(candidate, "__name__", "")
                fname = fname if fname.isidentifier() else "your_function"
                label += f", rerun it with `{self.name}.cases[{i}].run({fname})`"
            args, kwargs = self._inputs(c)
            with _recording_warnings() as caught:
                try:
                    got = candidate(*args, **kwargs)
                except NotImplementedError as exc:
                    if i == 0:
                        return self._not_attempted(
                            strict, "your function still raises NotImplementedError: replace "
                                    "`raise NotImplementedError` with your code.")
                    return self._result(INCORRECT, f"{label}, `{call}`: your function raised "
                                                    f"{_short_exc(exc)}.", i + 1, strict)
                except Exception as exc:  # noqa: BLE001 - the learner's bug is the message
                    return self._result(INCORRECT, f"{label}, `{call}`: your function raised "
                                                    f"{_short_exc(exc)}.", i + 1, strict)
            try:
                problem = self._diff(self.expected(i), got)
            except Exception as exc:  # noqa: BLE001 - an unusual return value
                problem = f"could not compare your result ({_short_exc(exc)})"
            if problem is not None:
                warned = ""
                if caught:
                    w = caught[0]
                    warned = f" Your code also warned: {w.category.__name__}: {w.message}."
                return self._result(INCORRECT, f"{label}, `{call}`: {problem}.{warned}", i + 1, strict)
        return self._result(CORRECT, f"all {n} cases pass.", strict=strict)


#: Serialises every check's use of ``warnings.catch_warnings`` (not thread-safe: interleaved, two
#: of them restore each other's saved state).  Re-entrant: a checked function may run a check.
_WARNINGS_LOCK = threading.RLock()


@contextmanager
def _recording_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Record the warnings that this thread issues inside the block.

    The filters are left as they are (their content is never changed; ``catch_warnings`` only
    swaps in a copy and puts the original list back, which also resets the once-per-location
    registry so that a warning shown before is recorded again).  Warnings from other threads go
    on to the previous ``warnings.showwarning``.
    """
    caught: list[warnings.WarningMessage] = []
    me = threading.get_ident()
    with _WARNINGS_LOCK, warnings.catch_warnings():
        previous = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
            if threading.get_ident() == me:
                caught.append(warnings.WarningMessage(message, category, filename, lineno, file, line))
            else:
                previous(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        yield caught


class ValueExercise(_BaseExercise):
    """A value exercise: the learner supplies a number, a tuple or an array, not a function.

    ``answer`` is the expected value; floats are compared with ``rtol``/``atol`` (a typed-in
    answer deserves a looser tolerance than a computed one).
    """

    def __init__(self, name: str, answer: Any, *, title: str = "", hints: Sequence[str] = (),
                 solution: str | Callable[[], str] | None = None,
                 outputs: Sequence[str] | None = None,
                 compare: Callable[[Any, Any], str | None] | None = None,
                 rtol: float = 1e-9, atol: float = 1e-12):
        super().__init__(name, title=title, hints=hints, solution=solution, rtol=rtol, atol=atol)
        self.answer = answer
        self.outputs = tuple(outputs) if outputs else None
        self._compare = compare

    def check(self, value: Any, *, strict: bool | None = None) -> CheckResult:
        """Compare ``value`` with the answer; see :meth:`Exercise.check` for ``strict``."""
        if self._is_placeholder(value):
            return self._not_attempted(strict)
        if callable(value) and not isinstance(value, np.ndarray):
            return self._result(INCORRECT, f"`{self.name}.check` expects a value, got a function "
                                            "-- call it and pass its result.", strict=strict)
        if self._compare is not None:
            problem = self._compare(self.answer, value)
        else:
            problem = compare(self.answer, value, rtol=self.rtol, atol=self.atol, names=self.outputs)
        if problem is not None:
            if problem.startswith("your function returned None"):
                problem = "your value is None"
            return self._result(INCORRECT, f"{problem}.", 1, strict)
        return self._result(CORRECT, "that is the right value.", strict=strict)
