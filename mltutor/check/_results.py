"""What a check returns: the three statuses, the placeholder ``____``, CheckResult and CheckFailed."""

from __future__ import annotations

import os

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

    __slots__ = (
        "status",
        "message",
        "exercise",
        "case",
        "passed",
        "total",
        "misconception",
        "cases",
    )

    def __init__(
        self,
        status: str,
        message: str,
        exercise: str = "",
        case: int | None = None,
        *,
        passed: int | None = None,
        total: int | None = None,
        misconception: str | None = None,
        cases: list[dict] | None = None,
    ):
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
