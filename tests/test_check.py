"""mltutor.check: results, not-attempted detection, strict mode, and never revealing the answer."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mltutor import check as chk
from mltutor.check import (
    CORRECT,
    INCORRECT,
    NOT_ATTEMPTED,
    CheckFailed,
    CheckResult,
    Exercise,
    ValueExercise,
    ____,
    case,
    compare,
)


@pytest.fixture
def lenient(monkeypatch):
    """The root conftest sets MLTUTOR_STRICT=1; most tests here want to look at the result."""
    monkeypatch.delenv(chk.STRICT_ENV, raising=False)


# A toy exercise whose expected values are distinctive numbers, to catch any leak in messages.
def rates(counts):
    """Two rates and a count: (share of the first, share of the last, total)."""
    counts = np.asarray(counts)
    total = int(counts.sum())
    return counts[0] / total, counts[-1] / total, total


RATE_CASES = [
    case(np.array([1234, 5678, 9012]), note="three bins"),
    case(np.array([3, 4]), note="two bins"),
]
# Expected: (0.07787... , 0.5687..., 15924) and (0.428571..., 0.571428..., 7)


def make_rates(**kw):
    return Exercise(
        "exr",
        reference=rates,
        cases=RATE_CASES,
        outputs=("first", "last", "total"),
        hints=["Divide by the total.", "`counts.sum()` is the total."],
        **kw,
    )


def table(n):
    return np.arange(n * n).reshape(n, n) * 7 + 1234


def make_table():
    return Exercise("ext", reference=table, cases=[case(3, note="3 by 3"), case(2)])


def leaks(message: str, values) -> list[str]:
    """Representations of expected values that appear in a message.

    The learner's own value may be quoted ("your value 0.5 ..."), even when it happens to equal
    an expected value elsewhere (a transposed matrix holds the right numbers in the wrong places),
    so those quotes are removed first.
    """
    message = re.sub(r"your value( there)?:? [^ )]+", "your value", message)
    found = []
    for v in values:
        for text in {repr(v), str(v), f"{v:.2f}", f"{v:.3f}", f"{v:.4g}", f"{v:.6g}"}:
            if re.search(rf"(?<![\d.]){re.escape(text)}(?![\d])", message):
                found.append(text)
    return found


# --------------------------------------------------------------------------------------------
# CheckResult
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status, icon, label",
    [
        (CORRECT, "✅", "Correct"),
        (INCORRECT, "❌", "Incorrect"),
        (NOT_ATTEMPTED, "⏳", "Not attempted"),
    ],
)
def test_result_renders_deterministically(status, icon, label):
    r = CheckResult(status, "some message.")
    assert repr(r) == str(r) == f"{icon} {label}: some message."
    assert r._repr_markdown_() == f"{icon} **{label}:** some message."
    assert bool(r) is (status == CORRECT)
    assert "0x" not in repr(r)


def test_result_rejects_unknown_status():
    with pytest.raises(ValueError, match="status"):
        CheckResult("passed", "")


def test_results_compare_by_status_and_message():
    assert CheckResult(CORRECT, "a") == CheckResult(CORRECT, "a")
    assert CheckResult(CORRECT, "a") != CheckResult(INCORRECT, "a")


# --------------------------------------------------------------------------------------------
# Correct, incorrect, not attempted
# --------------------------------------------------------------------------------------------


def test_reference_passes_and_says_how_many_cases(lenient):
    r = make_rates().check(rates)
    assert r.status == CORRECT and r
    assert str(r) == "✅ Correct: all 2 cases pass."


def test_equivalent_but_different_code_passes(lenient):
    def mine(c):
        s = sum(int(x) for x in c)
        return (float(c[0]) / s, float(c[len(c) - 1]) / s, np.int64(s))  # float/np types are fine

    assert make_rates().check(mine)


def test_returning_a_list_instead_of_a_tuple_is_fine(lenient):
    assert make_rates().check(lambda c: list(rates(c)))


def test_float_tolerance(lenient):
    ex = make_rates()
    assert ex.check(lambda c: (rates(c)[0] * (1 + 1e-12), *rates(c)[1:]))
    assert not ex.check(lambda c: (rates(c)[0] * (1 + 1e-6), *rates(c)[1:]))


def test_integers_are_compared_exactly(lenient):
    r = make_rates().check(lambda c: (*rates(c)[:2], rates(c)[2] + 1))
    assert r.status == INCORRECT and "`total`" in r.message


@pytest.mark.parametrize("placeholder", [None, ..., ____])
def test_placeholders_are_not_attempted(placeholder, lenient):
    r = make_rates().check(placeholder)
    assert r.status == NOT_ATTEMPTED and not r
    assert str(r).startswith("⏳ Not attempted:")


def test_not_implemented_is_not_attempted(lenient):
    def stub(counts):
        # YOUR CODE HERE
        raise NotImplementedError

    r = make_rates().check(stub)
    assert r.status == NOT_ATTEMPTED
    assert "NotImplementedError" in r.message


def test_not_implemented_on_a_later_case_is_incorrect(lenient):
    def half_done(counts):
        if len(counts) == 2:
            raise NotImplementedError("two bins")
        return rates(counts)

    r = make_rates().check(half_done)
    assert r.status == INCORRECT and r.case == 2
    assert "case 2 of 2 (two bins)" in r.message and "NotImplementedError: two bins" in r.message


def test_learner_exception_names_the_case_and_the_error(lenient):
    def boom(counts):
        return counts[0] / 0 if len(counts) == 3 else rates(counts)

    r = make_rates().check(boom)
    assert r.status == INCORRECT and r.case == 1
    assert r.message.startswith("case 1 of 2 (three bins), `rates(counts=[1234, 5678, 9012])`")
    assert "ZeroDivisionError" not in r.message or "raised" in r.message
    # numpy integer / 0 warns instead of raising: the message then reports what came back
    r = make_rates().check(lambda c: 1 / 0)
    assert "raised ZeroDivisionError: division by zero" in r.message


def test_forgetting_return_gets_a_nudge(lenient):
    def no_return(counts):
        counts.sum()

    r = make_rates().check(no_return)
    assert r.status == INCORRECT and "did you forget a `return`?" in r.message


def test_a_non_callable_answer_is_incorrect(lenient):
    r = make_rates().check(0.5)
    assert r.status == INCORRECT and "expects your function" in r.message


def test_learner_may_name_parameters_differently(lenient):
    ex = Exercise(
        "exk",
        reference=lambda y_true, y_pred, pos_label=1: int(np.sum(y_true == pos_label)),
        cases=[case(np.array([1, 0, 2]), np.array([0, 0, 0]), pos_label=2)],
    )
    assert ex.check(lambda labels, predictions, positive: int(np.sum(labels == positive)))


def test_arguments_are_copied(lenient):
    """A function that scribbles on its inputs changes neither the cases nor the reference."""
    ex = make_rates()
    before = [c.args[0].copy() for c in ex.cases]

    def vandal(counts):
        result = rates(counts)
        counts[:] = 0
        return result

    assert ex.check(vandal)
    assert ex.check(vandal)  # a second run still sees the original inputs
    for c, b in zip(ex.cases, before):
        np.testing.assert_array_equal(c.args[0], b)


def test_first_failing_case_is_reported(lenient):
    r = make_rates().check(lambda c: rates(c) if len(c) == 3 else (0.5, 0.5, 7))
    assert r.case == 2 and r.message.startswith("case 2 of 2 (two bins)")


def test_large_inputs_are_summarised_and_pointed_to(lenient):
    big = np.arange(100)
    ex = Exercise("exb", reference=lambda a: int(a.sum()), cases=[case(big, note="big")])
    r = ex.check(lambda a: 0)
    assert r.message.startswith(
        "case 1 of 1 (big), rerun it with `exb.cases[0].run(your_function)`, "
        "`<lambda>(a=<100 array of int64>)`: your value 0 is not right"
    )

    def mine(a):
        return 0

    assert "`exb.cases[0].run(mine)`" in ex.check(mine).message
    assert ex.cases[0].run(lambda a: int(a.sum())) == 4950


def test_warnings_from_learner_code_are_mentioned(lenient):
    ex = Exercise("exw", reference=lambda a: np.zeros(2), cases=[case(np.array([0.0, 1.0]))])
    r = ex.check(lambda a: a / a)  # 0/0 -> nan with a RuntimeWarning
    assert "contains NaN (first at index 0)" in r.message
    assert "Handle division by zero" in r.message
    assert "RuntimeWarning" in r.message


# --------------------------------------------------------------------------------------------
# What is wrong, without the answer
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wrong, fragment",
    [
        (lambda n: np.zeros((n, n - 1)), "wrong shape (3, 2), expected a square matrix"),
        (lambda n: np.zeros(n * n), "wrong shape (9,)"),
        (lambda n: 5.0, "returned a single number, expected an array"),
        (lambda n: table(n).T, "values differ in 6 of 9 entries, first at index (0, 1)"),
        (lambda n: table(n) + 0.5, "values differ in 9 of 9 entries, first at index (0, 0)"),
        (lambda n: np.full((n, n), np.nan), "contains NaN"),
        (lambda n: np.array([["a"] * n] * n), "dtype"),
        (lambda n: "nope", "wrong shape ()"),
    ],
)
def test_array_messages_say_what_is_wrong(wrong, fragment, lenient):
    r = make_table().check(wrong)
    assert r.status == INCORRECT
    assert fragment in r.message


def test_float_array_result_with_integer_values_is_accepted(lenient):
    assert make_table().check(lambda n: table(n).astype(float))
    assert make_table().check(lambda n: table(n).tolist())


@pytest.mark.parametrize(
    "wrong",
    [
        lambda c: rates(c)[::-1],
        lambda c: (rates(c)[1], rates(c)[0], rates(c)[2]),
        lambda c: (rates(c)[0] + 0.01, *rates(c)[1:]),
        lambda c: (*rates(c)[:2], rates(c)[2] - 1),
        lambda c: rates(c)[:2],
        lambda c: np.array(rates(c)) * 2,
        lambda c: rates(c)[0],
        lambda c: {"first": rates(c)[0]},
    ],
)
def test_messages_never_reveal_expected_values(wrong, lenient):
    ex = make_rates()
    r = ex.check(wrong)
    assert r.status == INCORRECT
    expected = [v for i in range(len(ex.cases)) for v in ex.expected(i)]
    assert not leaks(r.message, expected), (r.message, leaks(r.message, expected))
    assert not leaks(r._repr_markdown_(), expected)


def test_array_messages_never_reveal_expected_values(lenient):
    ex = make_table()
    expected = [int(v) for v in np.unique(np.concatenate([table(3).ravel(), table(2).ravel()]))]
    for wrong in (lambda n: table(n) + 1, lambda n: table(n).T, lambda n: -table(n)):
        r = ex.check(wrong)
        assert r.status == INCORRECT
        # the learner's own value may be quoted; the expected one must not be
        got = wrong(3)[np.unravel_index(np.argmax(wrong(3) != table(3)), (3, 3))]
        assert f"your value there: {got}" in r.message
        assert not leaks(r.message, expected), r.message


def test_compare_function_directly():
    assert compare(3, 3) is None
    assert compare(3, np.int64(3)) is None
    assert compare(0.1 + 0.2, 0.3) is None
    assert compare(np.arange(3), [0, 1, 2]) is None
    assert compare((1, 2.5), (1, 2.5)) is None
    assert "is not right" in compare(3, 4)
    assert "NaN" in compare(0.5, float("nan"))
    assert "expected a single number" in compare(1.0, [1.0])
    assert "returned 1 values, expected 2" in compare((1, 2), (1,))
    assert "expected a number" in compare(1.0, "1.0")


# --------------------------------------------------------------------------------------------
# Strict mode
# --------------------------------------------------------------------------------------------


def test_strict_env_raises_on_incorrect_only(monkeypatch):
    monkeypatch.setenv(chk.STRICT_ENV, "1")
    ex = make_rates()
    assert ex.check(rates).status == CORRECT
    assert ex.check(None).status == NOT_ATTEMPTED  # must not raise
    with pytest.raises(CheckFailed) as info:
        ex.check(lambda c: (0, 0, 0))
    assert isinstance(info.value, AssertionError)
    assert info.value.result.status == INCORRECT
    assert str(info.value).startswith("❌ Incorrect: case 1 of 2")


def test_conftest_turns_strict_mode_on():
    assert chk.is_strict()


@pytest.mark.parametrize("value", ["", "0", "false", "no"])
def test_strict_off(monkeypatch, value):
    monkeypatch.setenv(chk.STRICT_ENV, value)
    assert not chk.is_strict()
    assert make_rates().check(lambda c: (0, 0, 0)).status == INCORRECT


def test_strict_argument_overrides_env(monkeypatch):
    monkeypatch.setenv(chk.STRICT_ENV, "1")
    assert make_rates().check(lambda c: (0, 0, 0), strict=False).status == INCORRECT
    monkeypatch.delenv(chk.STRICT_ENV)
    with pytest.raises(AssertionError):
        make_rates().check(lambda c: (0, 0, 0), strict=True)


# --------------------------------------------------------------------------------------------
# Value exercises, hints, solutions
# --------------------------------------------------------------------------------------------


def test_value_exercise(lenient):
    ex = ValueExercise("exv", answer=0.987654, atol=5e-4, solution="answer = 0.987654")
    assert ex.check(0.9877)
    assert ex.check(np.float64(0.98765))
    assert ex.check(...).status == NOT_ATTEMPTED
    assert ex.check(____).status == NOT_ATTEMPTED
    r = ex.check(0.95)
    assert r.status == INCORRECT and "your value 0.95 is not right" in r.message
    assert not leaks(r.message, [0.987654])
    assert "expects a value" in ex.check(lambda: 0.987654).message
    assert "single number" in ex.check([0.987654]).message
    assert str(ex.check(0.987654)) == "✅ Correct: that is the right value."


def test_value_exercise_tuple_and_integers(lenient):
    ex = ValueExercise("exv", answer=(12, 34), outputs=("fp", "fn"))
    assert ex.check((12, 34)) and ex.check([12, 34])
    r = ex.check((34, 12))
    assert "`fp`" in r.message and not leaks(r.message.replace("34", ""), [12])


def test_hints_are_progressive():
    ex = make_rates()
    first, second, third = ex.hint(), ex.hint(), ex.hint()
    assert "Hint 1 of 2" in str(first) and "Divide by the total." in str(first)
    assert "Run `exr.hint()` again for hint 2 of 2" in str(first)
    assert "Hint 2 of 2" in str(second) and "last hint" in str(second)
    assert "Hint 2 of 2" in str(third)  # stays on the last one
    assert "Hint 1 of 2" in ex.hint(1)._repr_markdown_()
    with pytest.raises(ValueError):
        ex.hint(3)
    assert "No hints" in str(Exercise("e", reference=rates, cases=RATE_CASES).hint())


def test_solution_is_markdown_code_of_the_reference():
    sol = make_rates().solution()
    text = sol._repr_markdown_()
    assert "```python\ndef rates(counts):" in text and text.rstrip().endswith("```")
    assert repr(sol) == str(sol)
    assert ValueExercise("v", 1, solution="    x = 1\n").solution_code() == "x = 1"


def test_exercise_needs_cases():
    with pytest.raises(ValueError):
        Exercise("e", reference=rates, cases=[])


def test_case_repr_is_readable():
    c = case(np.array([[1, 2], [3, 4]]), n_classes=2, note="tiny")
    assert repr(c) == "Case([[1, 2], [3, 4]], n_classes=2)  # tiny"
