"""The grading process's side of isolated grading: one worker per submission, driven over pipes.

:class:`Sandbox` runs a submission's code blocks in a worker process (:mod:`._worker`) under a
supervisor (:mod:`._supervisor`) and asks it, one request at a time, for the value of a variable
or for one call of a function on one case.  Every reply is checked (the per-run secret, the
request's id, the schema, the value's types) before it is used; anything else ends that worker
and counts against that submission only.  The grading process measures each request's time
itself and stops a worker that overruns (its process group and every process it detached); the
next request then starts a fresh worker, which runs the blocks again, leaving out the blocks that
overran or crashed before.  Expected values never leave the grading process.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import secrets
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mltutor.grading import _wire

_HERE = Path(__file__).resolve().parent
_CHECK = _HERE.parent / "check"  # the checker package, loaded by its folder
_WORKER = _HERE / "_worker.py"
_SUPERVISOR = _HERE / "_supervisor.py"
_STARTUP = 60.0  # seconds a worker may take to start (Python and NumPy imports), within the total


@dataclasses.dataclass
class Limits:
    """The limits one submission runs under (``None`` or 0: no limit of that kind)."""

    #: Seconds for the whole submission, every restart of its worker included.
    time_limit: float = 120.0
    #: Seconds per case of a function.
    case_time_limit: float = 5.0
    #: Seconds per code block (notebook cell).
    cell_time_limit: float = 60.0
    #: Address space of the worker, in MiB (``RLIMIT_AS``).
    memory_mb: int | None = 2048
    #: CPU seconds per worker (``RLIMIT_CPU``); None: the whole time limit.
    cpu_seconds: float | None = None
    #: Largest file the worker may write, in MiB (``RLIMIT_FSIZE``).
    file_size_mb: int | None = 16
    #: Processes or threads the worker may add to what the user already runs (``RLIMIT_NPROC``).
    max_processes: int | None = 16

    def grace(self, seconds: float) -> float:
        """How long after a soft limit the grading process waits before it kills the worker."""
        return max(1.0, 0.25 * seconds)


class ProtocolError(Exception):
    """The worker sent something that is not a valid reply."""


def _signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def _ended_text(report: dict | None) -> str:
    """Why a worker ended, in words, from its supervisor's report."""
    if not report:
        return "the grading process of this submission ended"
    if "signal" in report:
        n = int(report["signal"])
        if report.get("stopped"):
            return "the grading process of this submission was stopped"
        if n == signal.SIGXCPU:
            return "the submission used up its CPU time (SIGXCPU)"
        if n == signal.SIGKILL:
            return (
                "the grading process of this submission was killed (SIGKILL: memory or CPU limit?)"
            )
        return f"the grading process of this submission died ({_signal_name(n)})"
    return f"the submission ended its grading process (exit status {report.get('exit')})"


class _Worker:
    """One worker process with its supervisor and its two pipes."""

    def __init__(self, job: dict, limits: Limits, log: Path, run_dir: Path, env: dict):
        req_r, self.req_w = os.pipe()
        self.res_r, res_w = os.pipe()
        cfg = {
            "argv": [sys.executable, "-I", "-B", os.fspath(_WORKER), str(req_r), str(res_w)],
            "env": env,
            "cwd": os.fspath(run_dir),
            "log": os.fspath(log),
            "pass_fds": [req_r, res_w],
            "memory_bytes": int(limits.memory_mb * 2**20) if limits.memory_mb else None,
            "cpu_seconds": limits.cpu_seconds or limits.time_limit or None,
            "file_bytes": int(limits.file_size_mb * 2**20) if limits.file_size_mb else None,
            "nproc_extra": limits.max_processes if limits.max_processes else None,
        }
        try:
            self.supervisor = subprocess.Popen(
                [sys.executable, "-I", "-S", os.fspath(_SUPERVISOR), json.dumps(cfg)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                pass_fds=(req_r, res_w),
                close_fds=True,
            )
        finally:
            os.close(req_r)
            os.close(res_w)
        self.reader = _wire.FrameReader(self.res_r)
        self.report: dict | None = None
        self.alive = True
        data = pickle.dumps(job, protocol=4)
        self._pending = memoryview(struct.pack(">Q", len(data)) + data)
        os.set_blocking(self.req_w, False)

    def send(self, message: dict) -> None:
        self._pending = memoryview(bytes(self._pending) + _wire.pack(message))

    def _flush(self) -> None:
        while self._pending:
            try:
                n = os.write(self.req_w, self._pending)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._pending = memoryview(b"")
                return
            self._pending = self._pending[n:]

    def next(self, deadline: float) -> dict | None:
        """The next frame, or None at the deadline or when the worker has ended."""
        while True:
            message = self.reader.next()
            if message is not None:
                return message
            if self.reader.closed:
                self._collect(deadline)
                return None
            now = time.monotonic()
            if now >= deadline:
                return None
            self._flush()
            wanted = [self.res_r, self.supervisor.stdout]
            writing = [self.req_w] if self._pending else []
            ready, can_write, _ = select.select(wanted, writing, [], min(deadline - now, 1.0))
            if self.supervisor.stdout in ready and self.report is None:
                self._read_report(deadline)
                if self.res_r not in ready:
                    # the worker has ended; whatever it sent is in the pipe, read it to the end
                    self._drain()
                    continue
            if self.res_r in ready:
                self.reader.feed()

    def _drain(self) -> None:
        os.set_blocking(self.res_r, False)
        try:
            while not self.reader.closed:
                try:
                    self.reader.feed()
                except BlockingIOError:
                    # a process that the worker detached may still hold the pipe open
                    self.reader.closed = True
        finally:
            os.set_blocking(self.res_r, True)

    def _read_report(self, deadline: float) -> None:
        line = b""
        end = max(deadline, time.monotonic() + 10)
        while not line.endswith(b"\n") and time.monotonic() < end:
            ready, _, _ = select.select([self.supervisor.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(self.supervisor.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
        try:
            self.report = json.loads(line.decode("utf-8")) if line else {}
        except ValueError:
            self.report = {}
        self.alive = False

    def _collect(self, deadline: float) -> None:
        if self.report is None:
            self._read_report(deadline)

    def stop(self) -> dict:
        """End the worker and everything it started; return the supervisor's report."""
        if self.report is None:
            try:
                self.supervisor.stdin.write(b"k")
                self.supervisor.stdin.flush()
            except (BrokenPipeError, OSError):
                pass
            self._read_report(time.monotonic() + 10)
        try:
            self.supervisor.stdin.close()
        except OSError:
            pass
        try:
            self.supervisor.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.supervisor.kill()
            self.supervisor.wait()
        self.supervisor.stdout.close()
        for fd in (self.req_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.alive = False
        return self.report or {}


class Sandbox:
    """Run one submission's blocks in an isolated worker and answer questions about them.

    Parameters
    ----------
    blocks : list of (label, source)
        The code, in order (``("cell 4", "def f(...): ...")``).
    cases : dict
        ``{task: [(args, kwargs), ...]}``: the inputs of each function to call.
    signatures : dict
        ``{task: inspect.Signature}``: the reference's signature, to pass a case's arguments by
        position or by keyword as the learner's function takes them.
    modules : dict
        ``{"mltutor.exercises.topic": {"data": {...}, "exercises": {name: (title, kind,
        variable)}, "all": [...]}}``: what the stand-in modules hold.
    limits : Limits
    protected : list of paths
        Folders the submission may neither read nor change (the other submissions, the package).
    copy : (name, bytes), optional
        The submission's own file, written into the run directory.
    """

    def __init__(
        self,
        blocks: list[tuple[str, str]],
        *,
        cases: dict,
        signatures: dict,
        modules: dict,
        limits: Limits,
        protected: list,
        copy: tuple[str, bytes] | None = None,
    ):
        self.blocks = blocks
        self.limits = limits
        self.started = time.monotonic()
        self.deadline = self.started + (limits.time_limit or 1e9)
        self.cells: list[dict | None] = [None] * len(blocks)
        self.skip: set[int] = set()
        self.errors: list[str] = []
        self.restarts = -1
        self.out_of_time = False
        self.failed_to_start: str | None = None
        self._copy = copy
        self._private = Path(tempfile.mkdtemp(prefix="mltutor-grade-"))
        self._protected = [os.fspath(p) for p in protected] + [os.fspath(self._private)]
        self._job = {
            "cases": cases,
            "signatures": signatures,
            "modules": modules,
            "blocks": blocks,
            "cell_time_limit": limits.cell_time_limit or 0,
            "check_path": os.fspath(_CHECK),
            "wire_path": os.fspath(_wire.__file__),
        }
        self._worker: _Worker | None = None
        self._run_dir: Path | None = None
        self._ids = 0

    # -- lifecycle -----------------------------------------------------------------------------

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker and remove every file of this run."""
        self._end_worker()
        shutil.rmtree(self._private, ignore_errors=True)

    def _end_worker(self) -> dict:
        report = {}
        if self._worker is not None:
            report = self._worker.stop()
            self._worker = None
        if self._run_dir is not None:
            shutil.rmtree(self._run_dir, ignore_errors=True)
            self._run_dir = None
        return report

    def _log_tail(self) -> str:
        try:
            text = (self._private / "worker.log").read_bytes()[-2000:].decode("utf-8", "replace")
        except OSError:
            return ""
        lines = [ln for ln in text.strip().splitlines() if ln.strip()]
        return lines[-1][:200] if lines else ""

    def _env(self, run_dir: Path) -> dict:
        env = {
            "HOME": os.fspath(run_dir),
            "TMPDIR": os.fspath(run_dir),
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": os.fspath(run_dir / ".matplotlib"),
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "NUMEXPR_NUM_THREADS": "1",
            "MLTUTOR_STRICT": "0",
            "LANG": "C.UTF-8",
            "PATH": os.defpath,
        }
        for name in ("SYSTEMROOT", "LD_LIBRARY_PATH"):
            if name in os.environ:
                env[name] = os.environ[name]
        return env

    def time_left(self) -> float:
        return self.deadline - time.monotonic()

    def _start(self) -> bool:
        """A fresh worker with the blocks run; False when none could be had."""
        while True:
            if self.failed_to_start is not None:
                return False
            if self.time_left() <= 0:
                self.out_of_time = True
                return False
            self._end_worker()
            self.restarts += 1
            if self.restarts > len(self.blocks) + 20:
                self.failed_to_start = "the submission's worker had to be restarted too often"
                return False
            self._run_dir = Path(tempfile.mkdtemp(prefix="mltutor-run-"))
            if self._copy is not None:
                (self._run_dir / self._copy[0]).write_bytes(self._copy[1])
            secret = secrets.token_hex(16)
            job = dict(
                self._job,
                secret=secret,
                run_dir=os.fspath(self._run_dir),
                skip=sorted(self.skip),
                protected=self._protected,
                file=os.fspath(self._run_dir / self._copy[0]) if self._copy else None,
            )
            self._secret = secret
            self._worker = _Worker(
                job,
                self.limits,
                self._private / "worker.log",
                self._run_dir,
                self._env(self._run_dir),
            )
            result = self._run_cells()
            if result == "done":
                return True
            if result == "stop":
                return False
            # "again": a block overran or crashed; it is skipped in the next worker

    def _run_cells(self) -> str:
        worker = self._worker
        deadline = min(self.deadline, time.monotonic() + _STARTUP)
        current: int | None = None
        ready = False
        while True:
            try:
                message = worker.next(deadline)
                if message is not None:
                    self._validate(message)
            except (ProtocolError, _wire.WireError) as exc:
                if current is None:
                    return self._fail_start(f"the grading channel broke ({exc})")
                self._abandon_cell(current, f"broke the grading channel ({exc})")
                return "again"
            if message is None:
                timed_out = worker.alive
                report = self._end_worker()
                if not ready:
                    if timed_out:
                        self.out_of_time = self.time_left() <= 0
                        return self._fail_start("the worker did not start in time")
                    return self._fail_start(f"{_ended_text(report)}: {self._log_tail()}")
                if current is None:
                    return self._fail_start(_ended_text(report))
                if timed_out:
                    limit = self.limits.cell_time_limit
                    self._abandon_cell(
                        current,
                        f"ran over {limit:g} s"
                        if self.time_left() > 0
                        else "ran out of the submission's time",
                    )
                    if self.time_left() <= 0:
                        self.out_of_time = True
                        return "stop"
                else:
                    self._abandon_cell(current, _ended_text(report))
                return "again"
            kind = message.get("type")
            if kind == "ready":
                ready = True
                deadline = self.deadline
            elif kind == "cell" and ready:
                k = message.get("index")
                if type(k) is not int or not 0 <= k < len(self.blocks) or k in self.skip:
                    if current is None:
                        return self._fail_start("the grading channel broke (a bad cell number)")
                    self._abandon_cell(current, "broke the grading channel (a bad cell number)")
                    return "again"
                if message.get("state") == "start":
                    current = k
                    limit = self.limits.cell_time_limit
                    deadline = (
                        min(self.deadline, time.monotonic() + limit + self.limits.grace(limit))
                        if limit
                        else self.deadline
                    )
                else:
                    state, text = message.get("state"), message.get("text", "")
                    if (
                        state not in ("ok", "syntax", "raised", "timeout")
                        or type(text) is not str
                        or k != current
                    ):
                        if current is None:
                            return self._fail_start("the grading channel broke (a bad cell report)")
                        self._abandon_cell(current, "broke the grading channel (a bad cell report)")
                        return "again"
                    if self.cells[k] is None:
                        self.cells[k] = {"state": state, "text": text[:300]}
                    if state == "timeout":
                        self.skip.add(k)
                    current = None
                    deadline = self.deadline
            elif kind == "cells_done" and ready and current is None:
                return "done"
            else:
                if current is None:
                    return self._fail_start("the grading channel broke (an unexpected message)")
                self._abandon_cell(current, "broke the grading channel (an unexpected message)")
                return "again"

    def _fail_start(self, why: str) -> str:
        self._end_worker()
        self.failed_to_start = why
        return "stop"

    def _abandon_cell(self, k: int | None, why: str) -> None:
        self._end_worker()
        if k is None:
            self.errors.append(why)
            return
        self.skip.add(k)
        if self.cells[k] is None or self.cells[k]["state"] == "ok":
            state = "timeout" if why.startswith("ran ") else "crashed"
            self.cells[k] = {"state": state, "text": why}

    def _validate(self, message: dict) -> None:
        if message.get("secret") != self._secret:
            raise ProtocolError("a message without this run's secret")

    # -- requests ------------------------------------------------------------------------------

    def _ask(self, request: dict, seconds: float) -> tuple[dict | None, str]:
        """Send a request; its reply and "", or None and why there is none."""
        if self._worker is None and not self._start():
            if self.failed_to_start:
                return None, self.failed_to_start
            return None, "the submission ran out of its time"
        self._ids += 1
        request = dict(request, id=self._ids)
        worker = self._worker
        worker.send(request)
        started = time.monotonic()
        deadline = min(self.deadline, started + seconds)
        try:
            message = worker.next(deadline)
            if message is not None:
                self._validate(message)
                if message.get("id") != self._ids:
                    raise ProtocolError("a reply to another request")
        except (ProtocolError, _wire.WireError) as exc:
            self._end_worker()
            self.errors.append(f"the submission broke the grading channel ({exc})")
            return None, f"broke the grading channel ({exc})"
        if message is None:
            timed_out = worker.alive
            report = self._end_worker()
            if timed_out:
                if self.time_left() <= 0:
                    self.out_of_time = True
                    return None, "the submission ran out of its time"
                return None, "timeout"
            return None, _ended_text(report)
        message["_elapsed"] = time.monotonic() - started
        return message, ""

    def inspect(self, variable: str) -> dict:
        """``{"state": "missing" | "placeholder" | "function" | "value" | "refused" | "failed",
        "value": ..., "text": ...}`` for one variable of the submission."""
        message, why = self._ask(
            {"op": "inspect", "variable": variable}, 10.0 + self.limits.case_time_limit
        )
        if message is None:
            return {
                "state": "failed",
                "text": "ran past its time limit" if why == "timeout" else why,
            }
        state = message.get("state")
        try:
            if state == "value":
                return {"state": "value", "value": _wire.decode(message.get("value"))}
            if state == "refused" and type(message.get("text")) is str:
                return {"state": "refused", "text": message["text"][:200]}
            if state in ("missing", "placeholder", "function"):
                return {"state": state}
            raise ProtocolError("a bad answer")
        except (ProtocolError, _wire.WireError) as exc:
            self._end_worker()
            return {"state": "failed", "text": f"broke the grading channel ({exc})"}

    def call(self, variable: str, task: str, i: int, limit: float | None) -> tuple:
        """The function ``variable`` called on case ``i`` of ``task`` by the worker.

        Returns an outcome of ``mltutor.check._limits._run_call`` (or ``("crashed", why)``); a reply that
        takes longer than ``limit`` seconds, as the grading process measures it, is a time-out.
        """
        seconds = limit or self.limits.time_limit or 1e9
        message, why = self._ask(
            {"op": "call", "variable": variable, "task": task, "case": i, "limit": limit or 0},
            seconds + self.limits.grace(seconds),
        )
        if message is None:
            return ("timeout",) if why == "timeout" else ("crashed", why)
        try:
            outcome = message.get("outcome")
            if limit and message["_elapsed"] > limit:
                return ("timeout",)
            if outcome == "ok":
                warned = message.get("warnings", [])
                if (
                    type(warned) is not list
                    or len(warned) > 3
                    or any(
                        type(w) is not list or len(w) != 2 or not all(type(x) is str for x in w)
                        for w in warned
                    )
                ):
                    raise ProtocolError("bad warnings")
                return "ok", _wire.decode(message.get("value")), [tuple(w) for w in warned]
            if outcome == "timeout":
                return ("timeout",)
            if outcome == "refused" and type(message.get("text")) is str:
                return "refused", message["text"][:200]
            if outcome == "raised":
                info = message.get("info")
                if (
                    type(info) is not dict
                    or type(info.get("text")) is not str
                    or not all(
                        type(info.get(k)) is bool for k in ("exit", "interrupt", "not_implemented")
                    )
                ):
                    raise ProtocolError("a bad exception report")
                return "raised", {
                    "text": info["text"][:200],
                    "exit": info["exit"],
                    "interrupt": info["interrupt"],
                    "not_implemented": info["not_implemented"],
                }
            raise ProtocolError("a bad case report")
        except (ProtocolError, _wire.WireError) as exc:
            self._end_worker()
            self.errors.append(f"the submission broke the grading channel ({exc})")
            return "crashed", f"broke the grading channel ({exc})"

    def run_blocks(self) -> bool:
        """Start the worker and run the blocks now (requests do it when needed)."""
        return self._worker is not None or self._start()
