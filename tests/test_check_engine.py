"""The checker's engine: kinds, progress, digits, time limits, exits, keyword-only, grade()."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

import mltutor.check as check_module
from mltutor.check import (
    CORRECT,
    INCORRECT,
    KINDS,
    NOT_ATTEMPTED,
    STRICT_ENV,
    ChoiceExercise,
    Exercise,
    Misconception,
    ValueExercise,
    case,
)


def precision_recall(tp, fp, fn, zero_division=0.0):
    p = tp / (tp + fp) if tp + fp else zero_division
    r = tp / (tp + fn) if tp + fn else zero_division
    return float(p), float(r)


CASES = [
    case(15, 0, 5, note="perfect precision"),
    case(6, 4, 14, note="search"),
    case(0, 0, 5, note="nothing flagged"),
    case(0, 0, 0, zero_division=1.0, note="zd one"),
]


def make(**kw):
    return Exercise(
        "exq",
        reference=precision_recall,
        cases=CASES,
        outputs=("precision", "recall"),
        hints=["Divide by tp + fp."],
        **kw,
    )


def test_kinds_are_declared():
    assert KINDS == ("implement", "value", "judgement")
    assert make().kind == "implement"
    assert ValueExercise("v", 1.0).kind == "value"
    assert ValueExercise("v", 0.3, kind="judgement").kind == "judgement"
    assert ChoiceExercise("c", {"a": ("x", "why a"), "b": ("y", "why b")}, "a").kind == "judgement"
    with pytest.raises(ValueError, match="kind must be one of"):
        ValueExercise("v", 1.0, kind="essay")


def test_progress_is_shown_and_every_failure_ends_with_the_way_forward():
    r = make().check(
        lambda tp, fp, fn, zero_division=0.0: precision_recall(tp, fp, fn), strict=False
    )
    assert r.status == INCORRECT and r.case == 4
    assert "3 of 4 cases pass." in r.message and (r.passed, r.total) == (3, 4)
    assert r.message.endswith("Try `exq.hint()`.")
    no_hints = Exercise("exh", reference=precision_recall, cases=CASES)
    assert no_hints.check(lambda *a, **k: (0.0, 0.0), strict=False).message.endswith(
        "`exh.solution()` shows our answer."
    )


def test_floats_get_enough_digits_to_see_the_difference():
    def eps(tp, fp, fn, zero_division=0.0):
        return tp / (tp + fp + 1e-6), tp / (tp + fn + 1e-6)

    r = make().check(eps, strict=False)
    assert "your value 0.99999993 is not right" in r.message, r.message
    assert "your value 1 is not right" not in r.message
    arr = Exercise("exa", reference=lambda x: x / 3, cases=[case(np.ones(3), note="thirds")])
    m = arr.check(lambda x: x / 3 + np.array([0, 1e-8, 0]), strict=False).message
    assert "your value there: 0.33333334" in m, m


def test_none_message_has_no_stray_punctuation():
    r = make().check(lambda *a, **k: None, strict=False)
    assert "did you forget a `return`? " in r.message and "?." not in r.message


def test_a_result_instead_of_the_function_says_without_parentheses():
    r = make().check(precision_recall(1, 1, 1), strict=False)
    assert "pass the function, without ()" in r.message
    assert "`exq.check(precision_recall)`" in r.message


def test_a_string_for_a_value_says_which_type_was_expected():
    ex = ValueExercise("v", 0.987654, hints=["h"])
    m = ex.check("0.98", strict=False).message
    assert "a str" in m and "expected a number" in m and "0.987654" not in m
    arr = ValueExercise("w", np.array([0.25, 0.5]))
    assert "a NumPy array of shape (2,)" in arr.check("[0.25, 0.5]", strict=False).message


def test_display_name_labels_the_call():
    ex = Exercise(
        "exd", reference=lambda a: a + 1, cases=[case(1, note="one")], display_name="plus_one"
    )
    assert "`plus_one(a=1)`" in ex.check(lambda a: a, strict=False).message
    assert ex.variable == "plus_one"


def looping(tp, fp, fn, zero_division=0.0):
    if tp == 0:
        while True:  # the learner's infinite loop
            pass
    return precision_recall(tp, fp, fn, zero_division)


def test_time_limit_reports_the_case_and_leaves_the_interpreter_alive():
    start = time.monotonic()
    r = make(time_limit=0.3).check(looping, strict=False)
    assert time.monotonic() - start < 5
    assert r.status == INCORRECT and r.case == 3
    assert (
        "case 3 of 4 (nothing flagged)" in r.message
        and "took over 0.3 s -- an infinite loop?" in r.message
    )
    assert "2 of 4 cases pass." in r.message  # case 4 is not run after the time-out
    assert make().check(precision_recall)  # and checking goes on afterwards


def test_time_limit_can_be_set_per_check_and_swallowing_except_cannot_hide_it():
    def stubborn(tp, fp, fn, zero_division=0.0):
        while True:
            try:
                time.sleep(10)
            except Exception:  # noqa: BLE001 - a learner's catch-all
                pass

    r = make().check(stubborn, strict=False, time_limit=0.2)
    assert "case 1 of 4 (perfect precision)" in r.message and "took over 0.2 s" in r.message


def test_time_limit_works_outside_the_main_thread():
    out = {}
    thread = threading.Thread(
        target=lambda: out.setdefault("r", make(time_limit=0.3).check(looping, strict=False))
    )
    thread.start()
    thread.join(10)
    assert not thread.is_alive()
    assert "took over 0.3 s" in out["r"].message


def test_an_earlier_alarm_is_put_back():
    import signal

    if not hasattr(signal, "setitimer"):
        pytest.skip("no interval timers here")
    previous = signal.signal(signal.SIGALRM, lambda *a: None)
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        make(time_limit=1).check(precision_recall)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 20 < left <= 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "exc, fragment", [(SystemExit(0), "SystemExit"), (KeyboardInterrupt(), "KeyboardInterrupt")]
)
def test_exit_and_interrupt_are_reported_not_propagated(exc, fragment):
    def leaves(*a, **k):
        raise exc

    r = make().check(leaves, strict=False)
    assert r.status == INCORRECT and fragment in r.message and r.case == 1
    g = make().grade(leaves)
    assert g["passed"] == 0 and g["total"] == 4


def test_keyword_only_parameters_are_passed_by_keyword():
    def mine(tp, fp, fn, *, zero_division=0.0):
        return precision_recall(tp, fp, fn, zero_division)

    assert make().check(mine).status == CORRECT
    ref = Exercise(
        "exk",
        reference=lambda y, *, pos_label=1: int(np.sum(np.asarray(y) == pos_label)),
        cases=[case([1, 0, 0], pos_label=0, note="zero"), case([1, 1], note="default")],
    )
    assert ref.check(lambda labels, *, pos_label=1: int(np.sum(np.asarray(labels) == pos_label)))
    assert ref.check(lambda labels, pos_label=1: int(np.sum(np.asarray(labels) == pos_label)))


def test_strict_env_docstring_matches_behaviour():
    source = open(check_module._results.__file__, encoding="utf-8").read()
    comment = source[
        source.index("#: Environment variable that") : source.index(f'STRICT_ENV = "{STRICT_ENV}"')
    ]
    assert "incorrect" in comment and "never raise" in comment
    assert "raise on not-attempted" not in comment


def test_misconceptions_are_named_and_unknown_mistakes_are_generic():
    swapped = Misconception(
        "swapped",
        "precision and recall swapped",
        lambda tp, fp, fn, zero_division=0.0: precision_recall(tp, fp, fn, zero_division)[::-1],
    )
    ex = make(misconceptions=[swapped])
    r = ex.check(
        lambda tp, fp, fn, zero_division=0.0: precision_recall(tp, fp, fn, zero_division)[::-1],
        strict=False,
    )
    assert r.misconception == "swapped"
    assert "Your results match a known mistake: precision and recall swapped." in r.message
    other = ex.check(lambda *a, **k: (0.5, 0.5), strict=False)
    assert other.misconception is None and "known mistake" not in other.message


def test_grade_is_json_serialisable_with_partial_credit():
    g = make().grade(lambda tp, fp, fn, zero_division=0.0: precision_recall(tp, fp, fn))
    assert json.loads(json.dumps(g)) == g
    assert (g["passed"], g["total"], g["score"]) == (3, 4, 0.75)
    assert [c["passed"] for c in g["cases"]] == [True, True, True, False]
    assert g["kind"] == "implement" and g["status"] == INCORRECT
    assert make().grade(precision_recall)["score"] == 1.0
    assert make().grade(None)["status"] == NOT_ATTEMPTED
    grade_looping = make(time_limit=0.2).grade(looping)  # grading runs every case
    assert grade_looping["passed"] == 2
    assert [c["problem"][:9] for c in grade_looping["cases"][2:]] == ["took over"] * 2
    assert ValueExercise("v", 2).grade(2)["score"] == 1.0


def test_choice_exercise_explains_each_option():
    ex = ChoiceExercise(
        "exc",
        {
            "a": ("accuracy", "accuracy hides the rare class"),
            "b": ("recall", "misses are what cost lives here"),
        },
        "b",
        hints=["Think of the misses."],
    )
    r = ex.check("a", strict=False)
    assert r.status == INCORRECT and "you chose (a). accuracy hides the rare class." in r.message
    assert r.misconception == "option_a" and r.message.endswith("Try `exc.hint()`.")
    assert str(ex.check(" B ")) == "✅ Correct: (b) misses are what cost lives here."
    assert ex.check(...).status == NOT_ATTEMPTED
    assert "is not one of the options" in ex.check("z", strict=False).message
    assert "as a string" in ex.check(2, strict=False).message
    with pytest.raises(ValueError):
        ChoiceExercise("x", {"a": ("t", "w")}, "c")


def test_value_exercise_names_a_known_wrong_value():
    ex = ValueExercise(
        "v",
        0.1,
        wrong_answers=[(0.9, "that is the cost ratio, not the threshold.")],
        rtol=0,
        atol=1e-3,
    )
    r = ex.check(0.9, strict=False)
    assert "that is the cost ratio" in r.message and r.misconception == "wrong_answer_1"
    assert "cost ratio" not in ex.check(0.5, strict=False).message
