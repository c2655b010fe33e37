"""The exercise kinds: Exercise (implement a function), ValueExercise, ChoiceExercise, and the
misconceptions that name a wrong answer.
"""

from __future__ import annotations

import copy
import inspect
import math
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._compare import (
    _MAX_SHOWN,
    Case,
    _call_text,
    _is_number,
    _kind,
    _plain,
    _Refused,
    _refused_text,
    _sentence,
    _short_exc,
    compare,
)
from ._limits import _recording_warnings, _run_call
from ._results import (
    CORRECT,
    DEFAULT_TIME_LIMIT,
    INCORRECT,
    KINDS,
    NOT_ATTEMPTED,
    CheckFailed,
    CheckResult,
    _bulb,
    _Markdown,
    _Placeholder,
    is_strict,
)

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


class _BaseExercise:
    """What every exercise shares: name, title, kind, hints, solution, strict handling."""

    kind = "implement"
    #: True in a graded copy (:meth:`graded_copy`): ``solution()`` refuses, messages do not offer it.
    graded = False

    def __init__(
        self,
        name: str,
        *,
        title: str = "",
        hints: Sequence[str] = (),
        solution: str | Callable[[], str] | None = None,
        rtol: float = 1e-9,
        atol: float = 1e-12,
        kind: str | None = None,
        variable: str | None = None,
    ):
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

    def _result(
        self,
        status: str,
        message: str,
        case: int | None = None,
        strict: bool | None = None,
        **details: Any,
    ) -> CheckResult:
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
            "exercise": self.name,
            "title": self.title,
            "kind": self.kind,
            "status": result.status,
            "passed": int(passed),
            "total": int(total),
            "score": passed / total if total else 0.0,
            "misconception": result.misconception,
            "message": result.message,
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
            return _Markdown(
                f"No hints for `{self.name}`; `{self.name}.solution()` shows our answer."
            )
        if n is None:
            n = min(self._next_hint, len(self.hints) - 1) + 1
            self._next_hint = n
        if not 1 <= n <= len(self.hints):
            raise ValueError(f"{self.name} has hints 1 to {len(self.hints)}, got n={n}")
        more = (
            f"Run `{self.name}.hint()` again for hint {n + 1} of {len(self.hints)}."
            if n < len(self.hints)
            else "That was the last hint."
            if self.graded
            else f"That was the last hint; `{self.name}.solution()` shows our answer."
        )
        return _Markdown(
            f"{_bulb()}**Hint {n} of {len(self.hints)}:** {self.hints[n - 1]}\n\n{more}"
        )

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
            return _Markdown(
                f"Solutions are not shown in a graded assignment: `{self.name}` is "
                "graded with hidden tests after you hand it in."
                + (f" `{self.name}.hint()` is still here." if self.hints else "")
            )
        return _Markdown(
            f"{_bulb()}**Solution for `{self.name}`:**\n\n```python\n{self.solution_code()}\n```"
        )

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
        n_pos = sum(
            k in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            for k in kinds
        )
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

    def __init__(
        self,
        name: str,
        reference: Callable[..., Any],
        cases: Sequence[Case],
        *,
        title: str = "",
        hints: Sequence[str] = (),
        solution: str | Callable[[], str] | None = None,
        outputs: Sequence[str] | None = None,
        compare: Callable[[Any, Any], str | None] | None = None,
        rtol: float = 1e-9,
        atol: float = 1e-12,
        misconceptions: Sequence[Misconception] = (),
        display_name: str | None = None,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
    ):
        if not cases:
            raise ValueError("an Exercise needs at least one case")
        if solution is None:
            solution = lambda: inspect.getsource(reference)  # noqa: E731 - read lazily
        self._func_name = display_name or getattr(reference, "__name__", "f")
        super().__init__(
            name,
            title=title,
            hints=hints,
            solution=solution,
            rtol=rtol,
            atol=atol,
            variable=self._func_name,
        )
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
            return (
                "your function raised SystemExit (a call to exit() or sys.exit()?): a function "
                "should return its result, not stop Python"
            )
        if info.get("interrupt"):
            return "your function was interrupted (KeyboardInterrupt)"
        return f"your function raised {info['text']}"

    def _evaluate(
        self,
        run: Callable[[int], tuple],
        cases: list[Case],
        expected: list[tuple[bool, Any]],
        limit: float | None,
        stop_after_timeout: bool,
    ) -> tuple[list[dict], list[Any], str | None]:
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
                row["problem"] = (
                    f"took over {limit:g} s -- an infinite loop?"
                    if how == "timeout"
                    else outcome[1]
                )
                results[i] = _TIMED_OUT
                stopped = stop_after_timeout
                continue
            if how == "raised":
                info = outcome[1]
                if info.get("not_implemented") and i == 0:
                    return (
                        outcomes,
                        results,
                        (
                            "your function still raises NotImplementedError: "
                            "replace `raise NotImplementedError` with your code."
                        ),
                    )
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

    def _matching_misconception(
        self, results: list[Any], cases: list[Case], expected: list[tuple[bool, Any]]
    ) -> Misconception | None:
        """The first known mistake whose results the learner's agree with on every case.

        Where the mistake raises, the learner's function must have raised too.
        """
        if any(r is _TIMED_OUT for r in results):
            return None
        for m in self.misconceptions:
            if self._same_as(m, results, cases, expected):
                return m
        return None

    def _same_as(
        self,
        m: Misconception,
        results: list[Any],
        cases: list[Case],
        expected: list[tuple[bool, Any]],
    ) -> bool:
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

    def check(
        self,
        candidate: Any,
        *,
        strict: bool | None = None,
        time_limit: float | None | str = "default",
    ) -> CheckResult:
        """Run ``candidate`` on every case and compare with the reference.

        ``strict=None`` follows ``MLTUTOR_STRICT``; ``strict=True`` raises :class:`CheckFailed`
        for an incorrect answer, ``strict=False`` never raises.  ``time_limit`` (seconds per case)
        overrides the exercise's; after a case runs past it the remaining cases are not run.
        """
        return self._check(candidate, strict, time_limit, stop_after_timeout=True)

    def _grade_result(self, answer: Any) -> CheckResult:
        return self._check(answer, False, "default", stop_after_timeout=False)

    def _check(
        self, candidate: Any, strict: bool | None, time_limit: Any, stop_after_timeout: bool
    ) -> CheckResult:
        if self._is_placeholder(candidate):
            return self._not_attempted(
                strict, f"write your function, then pass it to `{self.name}.check(...)`."
            )
        if not callable(candidate):
            try:
                what = _kind(_plain(candidate))
            except _Refused as exc:
                what = str(exc)
            return self._result(
                INCORRECT,
                f"`{self.name}.check` expects your function, got {what}: "
                f"pass the function, without () -- `{self.name}.check({self._func_name})`",
                strict=strict,
                passed=0,
                total=len(self.cases),
            )
        limit = self.time_limit if time_limit == "default" else time_limit
        cases, expected = self._snapshot()
        fname = getattr(candidate, "__name__", "")
        fname = fname if isinstance(fname, str) else ""
        return self._verdict(
            lambda i: self._run_case(candidate, cases[i], limit),
            cases,
            expected,
            limit,
            stop_after_timeout,
            strict,
            fname,
        )

    def _verdict(
        self,
        run: Callable[[int], tuple],
        cases: list[Case],
        expected: list[tuple[bool, Any]],
        limit: float | None,
        stop_after_timeout: bool,
        strict: bool | None,
        fname: str,
    ) -> CheckResult:
        n = len(cases)
        outcomes, results, not_attempted = self._evaluate(
            run, cases, expected, limit, stop_after_timeout
        )
        if not_attempted:
            return self._not_attempted(strict, not_attempted)
        passed = sum(row["passed"] for row in outcomes)
        if passed == n:
            return self._result(
                CORRECT, f"all {n} cases pass.", strict=strict, passed=n, total=n, cases=outcomes
            )
        first = next(row for row in outcomes if not row["passed"])
        i = first["case"] - 1
        message = f"{self._case_label(fname, i, cases)}: {_sentence(first['problem'])}"
        message += f" {passed} of {n} cases pass."
        match = self._matching_misconception(results, cases, expected)
        if match is not None:
            message += f" Your results match a known mistake: {_sentence(match.message)}"
        return self._result(
            INCORRECT,
            message,
            i + 1,
            strict,
            passed=passed,
            total=n,
            misconception=match.key if match else None,
            cases=outcomes,
        )

    def _grade_outcomes(
        self, run: Callable[[int], tuple], fname: str = "", limit: float | None | str = "default"
    ) -> dict[str, Any]:
        """:meth:`grade` for a function that runs elsewhere (the batch grader's worker process).

        ``run(i)`` returns case ``i``'s outcome, as :func:`_run_call` does, with the learner's
        value already converted by :func:`_plain`; the remaining cases are not run after a
        time-out.
        """
        limit = self.time_limit if limit == "default" else limit
        cases, expected = self._snapshot()
        return self._grade_dict(self._verdict(run, cases, expected, limit, True, False, fname))


def _arrange(
    signature: inspect.Signature | None, args: tuple, kwargs: dict, candidate: Any = None
) -> tuple[tuple[Any, ...], dict[str, Any]]:
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
        elif (
            kind is not inspect.Parameter.KEYWORD_ONLY
            and not keywords
            and len(positional) < n_pos
            and pname not in kw_only
        ):
            positional.append(value)
        else:
            keywords[pname] = value
    return tuple(positional), keywords


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

    def __init__(
        self,
        name: str,
        answer: Any,
        *,
        title: str = "",
        hints: Sequence[str] = (),
        solution: str | Callable[[], str] | None = None,
        outputs: Sequence[str] | None = None,
        compare: Callable[[Any, Any], str | None] | None = None,
        rtol: float = 1e-9,
        atol: float = 1e-12,
        kind: str = "value",
        variable: str | None = None,
        wrong_answers: Sequence[tuple[Any, str]] = (),
    ):
        super().__init__(
            name,
            title=title,
            hints=hints,
            solution=solution,
            rtol=rtol,
            atol=atol,
            kind=kind,
            variable=variable,
        )
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
                return self._result(
                    INCORRECT,
                    f"your answer is {exc}, which the check does not "
                    "compare: give a number, a tuple or a NumPy array",
                    1,
                    strict,
                    passed=0,
                    total=1,
                )
        if callable(value) and not isinstance(value, np.ndarray):
            return self._result(
                INCORRECT,
                f"`{self.name}.check` expects a value, got a function "
                "-- call it and pass its result.",
                1,
                strict,
                passed=0,
                total=1,
            )
        if isinstance(value, str) and not isinstance(self.answer, str):
            return self._result(
                INCORRECT,
                f"your answer is {_kind(value)}, a str; expected "
                f"{_expected_type(self.answer)} (without quotes)",
                1,
                strict,
                passed=0,
                total=1,
            )
        try:
            problem = self._diff(self.answer, value)
        except Exception as exc:  # noqa: BLE001 - an unusual value
            problem = f"could not compare your value ({_short_exc(exc)})"
        if problem is None:
            return self._result(
                CORRECT, "that is the right value.", strict=strict, passed=1, total=1
            )
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

    def __init__(
        self,
        name: str,
        options: dict[str, tuple[str, str]],
        answer: str,
        *,
        title: str = "",
        hints: Sequence[str] = (),
        solution: str | Callable[[], str] | None = None,
        variable: str | None = None,
    ):
        letters = [str(k).lower() for k in options]
        if answer.lower() not in letters:
            raise ValueError(f"answer {answer!r} is not one of the options {letters}")
        if any(len(v) != 2 or not v[1] for v in options.values()):
            raise ValueError("every option needs (text, explanation), the explanation not empty")
        if solution is None:
            solution = f"{variable or 'answer'} = {answer.lower()!r}"
        super().__init__(
            name, title=title, hints=hints, solution=solution, kind="judgement", variable=variable
        )
        self.options = {str(k).lower(): v for k, v in options.items()}
        self.answer = answer.lower()

    def _letters(self) -> str:
        keys = list(self.options)
        return ", ".join(f"'{k}'" for k in keys[:-1]) + f" or '{keys[-1]}'"

    def check(self, choice: Any, *, strict: bool | None = None) -> CheckResult:
        """Say whether ``choice`` (a letter) is right, and why the chosen option is (not)."""
        if self._is_placeholder(choice):
            return self._not_attempted(
                strict,
                f"set your answer to one of the letters "
                f"{self._letters()}, then run this cell again.",
            )
        if not callable(choice):
            try:
                choice = _plain(choice)
            except _Refused as exc:
                choice = _Refused(str(exc))
        if not isinstance(choice, str):
            what = str(choice) if isinstance(choice, _Refused) else _kind(choice)
            return self._result(
                INCORRECT,
                f"your answer is {what}; expected one of the "
                f"letters {self._letters()}, as a string",
                1,
                strict,
                passed=0,
                total=1,
            )
        letter = choice.strip().lower().strip("()")
        if letter not in self.options:
            return self._result(
                INCORRECT,
                f"{choice!r} is not one of the options; choose {self._letters()}",
                1,
                strict,
                passed=0,
                total=1,
            )
        text, why = self.options[letter]
        if letter == self.answer:
            return self._result(
                CORRECT, f"({letter}) {_sentence(why)}", strict=strict, passed=1, total=1
            )
        return self._result(
            INCORRECT,
            f"you chose ({letter}). {_sentence(why)} Read the scenario "
            "again and choose another option",
            1,
            strict,
            passed=0,
            total=1,
            misconception=f"option_{letter}",
        )

    def _way_forward(self) -> str:
        return f"Try `{self.name}.hint()`." if self.hints else ""
