"""Exercise checks running in several threads leave the warnings machinery as they found it (issue 12).

``warnings.catch_warnings`` saves and restores module-global state, so two of them interleaved in
two threads restore each other's state: checks that inserted an ``('always', Warning)`` filter
left it behind for the rest of the session.
"""

from __future__ import annotations

import threading
import warnings

import numpy as np

from mltutor.check import Exercise, case

N_THREADS = 6


def _warning_function(i: int, barrier: threading.Barrier):
    def mine(a):
        try:  # every thread inside its check at once (times out if the checks are serialised)
            barrier.wait(timeout=0.2)
        except threading.BrokenBarrierError:
            pass
        warnings.warn(f"warning from thread {i}", UserWarning)
        return a + 1  # wrong: the reference returns a

    return mine


def _run_round() -> list[str]:
    ex = Exercise("ext", reference=lambda a: a, cases=[case(np.arange(3.0))])
    barrier = threading.Barrier(N_THREADS)
    messages = [""] * N_THREADS

    def work(i: int) -> None:
        messages[i] = ex.check(_warning_function(i, barrier), strict=False).message

    threads = [threading.Thread(target=work, args=(i,)) for i in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return messages


def test_concurrent_checks_leave_filters_unchanged() -> None:
    filters, filters_list, showwarning = (
        list(warnings.filters),
        warnings.filters,
        warnings.showwarning,
    )
    for _ in range(3):
        messages = _run_round()
        assert warnings.filters == filters
        assert warnings.filters is filters_list
        assert warnings.showwarning is showwarning
        for i, message in enumerate(messages):  # each check names its own thread's warning
            assert f"Your code also warned: UserWarning: warning from thread {i}." in message


def test_check_does_not_add_a_filter() -> None:
    ex = Exercise("exf", reference=lambda a: a, cases=[case(1.0)])
    before = list(warnings.filters)
    ex.check(lambda a: warnings.warn("x") or a + 1, strict=False)
    assert warnings.filters == before
