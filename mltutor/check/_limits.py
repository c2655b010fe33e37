"""Running a learner's function under a time limit (a signal, or a watchdog thread that raises in the
calling thread) and recording the warnings it issues.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ._compare import _plain, _Refused, _short_exc


class _CaseTimeout(BaseException):
    """Raised inside a learner's function that ran past the time limit.

    A :class:`BaseException`, so that a learner's ``except Exception:`` cannot swallow it.
    """


def _exception_info(exc: BaseException) -> dict:
    """What the messages need to know about an exception the learner's code raised."""
    return {
        "text": _short_exc(exc),
        "exit": isinstance(exc, SystemExit),
        "interrupt": isinstance(exc, KeyboardInterrupt),
        "not_implemented": isinstance(exc, NotImplementedError),
    }


_monotonic = time.monotonic
#: Seconds a check waits past the time limit for the learner's function to take its time-out.
_GRACE = 0.2


def _run_call(
    candidate: Callable[..., Any], args: tuple, kwargs: dict, limit: float | None
) -> tuple:
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


def _call_here(
    candidate: Callable[..., Any], args: tuple, kwargs: dict, limit: float | None
) -> tuple:
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
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(target), ctypes.py_object(exc) if exc else None
    )


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
                caught.append(
                    warnings.WarningMessage(message, category, filename, lineno, file, line)
                )
            else:
                previous(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        yield caught
