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
ends; the batch grader (:mod:`mltutor.grading.batch`), which runs each submission in a process of its
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
and are not a guard against one who patches them (for grading, see :mod:`mltutor.grading.batch` and
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

from ._compare import Case, case, compare
from ._exercises import ChoiceExercise, Exercise, Misconception, ValueExercise
from ._results import (
    CORRECT,
    DEFAULT_TIME_LIMIT,
    ICONS_ENV,
    INCORRECT,
    KINDS,
    NOT_ATTEMPTED,
    STRICT_ENV,
    CheckFailed,
    CheckResult,
    ____,
    is_strict,
)

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
