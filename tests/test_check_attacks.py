"""The in-process check against a hostile learner's function (issue 23).

Each attack here once made ``ex.check`` say *correct* for nothing done, or blocked it far past
its time limit.  Now the answer is converted to exact built-in or NumPy types inside the time
limit, before any comparison; the expected values are taken before the learner's code runs; and
the time limit is re-armed by a watchdog and verified afterwards.
"""

from __future__ import annotations

import signal
import sys
import time

import numpy as np
import pytest

from mltutor.check import CORRECT, INCORRECT, ChoiceExercise, Exercise, ValueExercise, case, compare


def precision_recall(tp, fp, fn, zero_division=0.0):
    p = tp / (tp + fp) if tp + fp else zero_division
    r = tp / (tp + fn) if tp + fn else zero_division
    return float(p), float(r)


def make(**kw):
    return Exercise(
        "exq",
        reference=precision_recall,
        outputs=("precision", "recall"),
        cases=[case(15, 0, 5), case(6, 4, 14), case(0, 0, 5), case(3, 1, 1)],
        hints=["Divide by tp + fp."],
        **kw,
    )


class AlwaysEqual(np.ndarray):
    """An array whose differences are never ``any()`` and that equals everything."""

    def any(self, *args, **kwargs):
        return False

    def __eq__(self, other):
        return np.ones(np.shape(other), bool)


class Peeking(float):
    """A float whose ``__float__`` reads ``expected`` from the caller's frame."""

    def __float__(self):
        frame = sys._getframe(1)
        while frame is not None:
            if "expected" in frame.f_locals:
                e = frame.f_locals["expected"]
                return float(e[0] if isinstance(e, tuple) else e)
            frame = frame.f_back
        return 0.0

    __eq__ = lambda self, other: True  # noqa: E731
    __hash__ = float.__hash__


class Yes(str):
    """A str equal to every option, whose hash is that of option "a"."""

    __eq__ = lambda self, other: True  # noqa: E731
    __hash__ = lambda self: hash("a")  # noqa: E731
    strip = lower = lambda self, *args: self  # noqa: E731


def test_an_array_subclass_does_not_pass_for_the_right_array():
    ex = ValueExercise("v", np.array([0.25, 0.5, 0.75]))
    assert ex.check(np.zeros(3).view(AlwaysEqual), strict=False).status == INCORRECT
    assert compare(np.array([0.25, 0.5]), np.zeros(2).view(AlwaysEqual)) is not None
    assert ex.check(np.array([0.25, 0.5, 0.75]).view(AlwaysEqual)).status == CORRECT  # its values


def test_a_float_subclass_cannot_read_the_expected_value():
    assert ValueExercise("v", 0.05).check(Peeking(0.0), strict=False).status == INCORRECT
    r = make().check(
        lambda tp, fp, fn, zero_division=0.0: (Peeking(0.0), Peeking(0.0)), strict=False
    )
    assert r.status == INCORRECT and r.passed == 1  # (0, 0) is right for case 3 only


def test_a_str_subclass_equal_to_everything_is_just_its_text():
    ex = ChoiceExercise("c", {"a": ("x", "why a"), "b": ("y", "why b")}, "b")
    r = ex.check(Yes("z"), strict=False)
    assert r.status == INCORRECT and "'z' is not one of the options" in r.message
    assert ValueExercise("t", "macro").check(Yes("micro"), strict=False).status == INCORRECT


def test_objects_that_cannot_be_converted_are_refused():
    class Opaque:
        def __eq__(self, other):
            return True

    problem = compare(0.5, Opaque())
    assert problem.startswith("returned a Opaque, which the checker does not compare")
    r = make().check(lambda *a, **k: Opaque(), strict=False)
    assert r.status == INCORRECT and r.passed == 0
    assert "does not compare" in ValueExercise("v", 1.0).check(Opaque(), strict=False).message
    assert "Python objects" in compare(np.zeros(2), np.array([0.0, Opaque()], dtype=object))


def test_replacing_the_reference_during_the_check_changes_nothing():
    ex = make()

    def steals(tp, fp, fn, zero_division=0.0):
        ex.reference = lambda *a, **k: (0.0, 0.0)  # the check's own reference, replaced
        ex.cases = ex.cases[:1]
        return 0.0, 0.0

    r = ex.check(steals, strict=False)
    assert r.status == INCORRECT and r.total == 4 and r.passed == 1


def test_a_slow_conversion_cannot_block_the_check():
    """A float subclass whose __float__ slept once blocked a check for 66 s."""

    class Slow(float):
        def __float__(self):
            time.sleep(30)
            return 1.0

    started = time.monotonic()
    r = make(time_limit=1).check(
        lambda tp, fp, fn, zero_division=0.0: (Slow(1), Slow(0.75)), strict=False
    )
    assert time.monotonic() - started < 5
    assert r.passed == 1  # the values it holds, (1.0, 0.75), are right for case 1 only


def test_switching_the_timer_off_does_not_switch_the_limit_off():
    def stubborn(tp, fp, fn, zero_division=0.0):
        signal.setitimer(signal.ITIMER_REAL, 0)  # the check's alarm, cancelled
        started = time.monotonic()
        while time.monotonic() - started < 3:
            try:
                while True:
                    pass
            except BaseException:  # and one time-out swallowed
                pass
        return precision_recall(tp, fp, fn, zero_division)

    started = time.monotonic()
    r = make().check(stubborn, strict=False, time_limit=0.3)
    assert time.monotonic() - started < 1.5  # not the 3 s the function insists on
    assert r.status == INCORRECT and "took over 0.3 s" in r.message


def test_a_call_that_returns_after_the_limit_is_a_time_out():
    def sleeps(tp, fp, fn, zero_division=0.0):
        signal.setitimer(signal.ITIMER_REAL, 0)
        time.sleep(0.6)  # not interruptible once the timer is off
        return precision_recall(tp, fp, fn, zero_division)

    r = make().check(sleeps, strict=False, time_limit=0.2)
    assert r.status == INCORRECT and r.case == 1 and "took over 0.2 s" in r.message
    assert r.passed == 0  # the right values came too late


def test_plain_icons_for_browsers_without_an_emoji_font(monkeypatch):
    ex = make()
    assert str(ex.check(precision_recall)).startswith("✅ Correct")
    monkeypatch.setenv("MLTUTOR_ICONS", "plain")
    assert str(ex.check(precision_recall)).startswith("✔ Correct")
    assert str(ex.check(lambda *a, **k: (0.0, 0.0), strict=False)).startswith("✘ Incorrect")
    assert str(ex.check(None)).startswith("○ Not attempted")
    assert str(ex.hint(1)).startswith("**Hint 1 of 1:**")


def test_a_graded_copy_keeps_the_checks_and_refuses_the_solution():
    ex = make(time_limit=1)
    graded = ex.graded_copy()
    assert graded.check(precision_recall).status == CORRECT
    assert "solution()" not in str(graded.hint(1)) and "solution()" in str(ex.hint(1))
    assert "not shown in a graded assignment" in str(graded.solution())
    bare = Exercise("exb", reference=precision_recall, cases=[case(1, 1, 1)]).graded_copy()
    assert bare.check(lambda *a, **k: (0.0, 0.0), strict=False).message.endswith(
        "No hints for this one."
    )
    with pytest.raises(ValueError, match="graded assignment"):
        bare.solution_code()
    assert ex.solution_code()  # the original is untouched
