"""The batch grader's worker: runs one submission's code and calls its functions on request.

Started by :mod:`mltutor.grading._supervisor` as ``python -I -B _worker.py REQUEST_FD RESULT_FD``
in a fresh directory that holds only a copy of the submission.  ``-I`` keeps the working
directory, the script's folder and ``PYTHON*`` variables out of ``sys.path``, so no file beside
the submission can stand in for a module.  The worker

1. reads its job from ``REQUEST_FD`` (pickled by the grading process: the code blocks, the case
   inputs, the per-run secret, the paths the submission may not touch);
2. loads :mod:`mltutor.check` and :mod:`mltutor.grading._wire` by their file paths, imports
   NumPy, and puts *stand-ins* for ``mltutor``, ``mltutor.check``, the chapter's
   ``mltutor.exercises.<topic>`` and ``mltutor.grading.nbgrader`` into ``sys.modules``: the
   exercise objects there have a name and no reference, answer or solution, and importing any
   other ``mltutor`` module fails;
3. installs an audit hook (:pep:`578`) that refuses to create processes, send signals, load
   foreign code through ``ctypes``, open sockets, change resource limits or the working
   directory, write, rename or delete anything outside the run directory, and read the other
   submissions or the package's own files;
4. runs the blocks one by one, each under the cell time limit, reporting each (parsed, raised,
   timed out) to the grading process;
5. answers requests: the value of a variable, or one call of a function on one case under the
   case time limit, its result converted to plain types (``mltutor.check._compare._plain``) inside that
   limit and sent as JSON (:mod:`mltutor.grading._wire`).

It never judges anything: the grading process compares the values it receives with the expected
ones, which the worker never sees, and measures the time itself.  The audit hook raises the bar;
it is not a sandbox (:pep:`578` says so too), which is why the grading process also trusts
nothing the worker sends beyond a validated value.
"""

import copy
import importlib.util
import io
import os
import pickle
import signal
import struct
import sys
import types

sys.dont_write_bytecode = True

# Events refused outright once the submission runs.
_DENIED = frozenset(
    {
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "subprocess.Popen",
        "pty.spawn",
        "os.startfile",
        "os.kill",
        "os.killpg",
        "signal.pthread_kill",
        "resource.setrlimit",
        "resource.prlimit",
        "os.chdir",
        "os.chroot",
        "os.link",
        "os.symlink",
        "socket.connect",
        "socket.bind",
        "socket.sendto",
        "socket.sendmsg",
        "socket.__new__",
        "socket.getaddrinfo",
        "urllib.Request",
        "webbrowser.open",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys.remote_exec",
        "os.setuid",
        "os.setgid",
        "os.setreuid",
        "os.setregid",
        "os.setresuid",
        "os.setresgid",
    }
)
# Events whose arguments are paths written to (first argument, or the first two for a rename).
_WRITES = frozenset(
    {
        "os.mkdir",
        "os.remove",
        "os.rmdir",
        "os.truncate",
        "os.chmod",
        "os.chown",
        "os.utime",
        "os.chflags",
        "os.lchflags",
        "os.lchmod",
        "os.lchown",
        "os.setxattr",
        "os.removexattr",
        "shutil.rmtree",
        "shutil.chown",
        "shutil.copymode",
        "shutil.copystat",
        "tempfile.mkstemp",
        "tempfile.mkdtemp",
        "os.mkfifo",
        "os.mknod",
    }
)
_TWO_PATHS = frozenset({"os.rename", "shutil.copyfile", "shutil.copytree", "shutil.move"})
_READS = frozenset(
    {
        "os.listdir",
        "os.scandir",
        "os.getxattr",
        "os.listxattr",
        "glob.glob",
        "glob.glob/2",
        "os.walk",
        "pathlib.Path.glob",
        "pathlib.Path.rglob",
    }
)
_NO_IMPORT = (
    "mltutor",
    "_posixsubprocess",
    "_ctypes",
    "ctypes",
    "cffi",
    "_testcapi",
    "_testinternalcapi",
    "_xxsubinterpreters",
    "_posixshmem",
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _make_hook(run_dir: str, protected: tuple, pid: int):
    """The audit hook; it reads nothing that the submission could change afterwards.

    Everything it uses is bound as a default argument (changing a function's defaults or code is
    itself refused), so patching ``os``, ``str`` or ``builtins`` later does not reach it.
    """
    import pathlib

    run = run_dir.rstrip("/") + "/"
    prot = tuple(p.rstrip("/") + "/" for p in protected)
    proc_own = f"/proc/{pid}/"

    def hook(
        event,
        args,
        _run=run,
        _prot=prot,
        _proc_own=proc_own,
        _denied=_DENIED,
        _writes=_WRITES,
        _two=_TWO_PATHS,
        _reads=_READS,
        _no_import=_NO_IMPORT,
        _flags=_WRITE_FLAGS,
        _getcwd=os.getcwd,
        _type=type,
        _str=str,
        _bytes=bytes,
        _int=int,
        _path_type=pathlib.PosixPath,
        _path_str=pathlib.PurePath.__str__,
        _decode=bytes.decode,
        _starts=str.startswith,
        _split=str.split,
        _join="/".join,
        _err=PermissionError,
        _len=len,
        _tuple=tuple,
        _any_char=str.__contains__,
        _fsdecode=os.fsdecode,
    ):
        def where(path):
            """The path made absolute and normalised with str methods only, or None for an fd."""
            t = _type(path)
            if t is _int:
                return None
            if t is _bytes:
                path = _fsdecode(path)
            elif t is _path_type:
                path = _path_str(path)
            elif t is not _str:
                raise _err(f"grading: a path must be a str or bytes, not {t}")
            if not _starts(path, "/"):
                path = _getcwd() + "/" + path
            parts = []
            for part in _split(path, "/"):
                if part == "" or part == ".":
                    continue
                if part == "..":
                    if parts:
                        parts.pop()
                    continue
                parts.append(part)
            return "/" + _join(parts) + "/"

        def read_ok(p):
            if p is None:
                return True
            for q in _prot:
                if _starts(p, q):
                    return False
            if _starts(p, "/proc/") and not _starts(p, "/proc/self/") and not _starts(p, _proc_own):
                rest = p[6:]
                first = _split(rest, "/")[0]
                if first.isdigit() or first == "thread-self":
                    return False
            return True

        def write_ok(p):
            return p is None or _starts(p, _run) or p == "/dev/null/"

        if event in _denied or _starts(event, "ctypes."):
            raise _err(f"grading: {event} is not allowed")
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            p = where(path)
            writing = (
                _type(mode) is _str
                and (
                    _any_char(mode, "w")
                    or _any_char(mode, "a")
                    or _any_char(mode, "x")
                    or _any_char(mode, "+")
                )
            ) or (_type(flags) is _int and flags & _flags)
            if (writing and not write_ok(p)) or not read_ok(p):
                raise _err(f"grading: may not open {path!r}")
            return
        if event in _writes:
            p = where(args[0])
            if not write_ok(p) or not read_ok(p):
                raise _err(f"grading: may not change {args[0]!r}")
            return
        if event in _two:
            for path in (args[0], args[1]):
                p = where(path)
                if not write_ok(p) or not read_ok(p):
                    raise _err(f"grading: may not change {path!r}")
            return
        if event in _reads:
            if _len(args) and (
                _type(args[0]) is _str or _type(args[0]) is _bytes or _type(args[0]) is _path_type
            ):
                if not read_ok(where(args[0])):
                    raise _err(f"grading: may not list {args[0]!r}")
            return
        if event == "import":
            name = args[0]
            if _type(name) is _str:
                for banned in _no_import:
                    if name == banned or _starts(name, banned + "."):
                        raise _err(f"grading: module {name} is not available to a submission")
            return
        if event == "object.__setattr__":
            if _len(args) >= 2 and args[1] in (
                "__code__",
                "__defaults__",
                "__kwdefaults__",
                "__globals__",
                "__closure__",
            ):
                raise _err("grading: changing a function's code or defaults is not allowed")
            return

    return hook


class _Timeout(BaseException):
    """The soft time limit: a cell or a call that ran too long."""


def _alarm(signum, frame):  # noqa: ARG001
    raise _Timeout


class _Sink(io.TextIOBase):
    """``sys.stdout`` and ``sys.stderr`` of the submission: kept short, then dropped."""

    def __init__(self, limit=1 << 16):
        self.size = 0
        self.limit = limit

    def writable(self):
        return True

    def write(self, text):
        self.size += len(text)
        return len(text)


class _StandIn:
    """An exercise as the submission sees it while it is graded: a name, nothing to copy."""

    def __init__(self, name, title, kind, variable):
        self.name, self.title, self.kind, self.variable = name, title, kind, variable

    def check(self, *args, **kwargs):  # noqa: ARG002
        return f"{self.name}: checked by the grader"

    def hint(self, *args, **kwargs):  # noqa: ARG002
        return ""

    def solution(self, *args, **kwargs):  # noqa: ARG002
        return "no solution while grading"

    grade = check

    def __repr__(self):
        return f"<exercise {self.name} (graded)>"


def _load(name, path, package=False):
    """Load a module (or, with ``package=True``, the package whose folder is ``path``) by its path."""
    if package:
        spec = importlib.util.spec_from_file_location(
            name, os.path.join(path, "__init__.py"), submodule_search_locations=[path]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _gather_internals(check):
    """The checker's private helpers the worker calls, gathered from the modules of the package."""
    internals = types.SimpleNamespace()
    for part in ("_results", "_compare", "_limits", "_exercises"):
        vars(internals).update(vars(getattr(check, part)))
    return internals


class _Blocker:
    """A meta-path finder that answers every other ``mltutor`` import with an ImportError."""

    @staticmethod
    def find_spec(name, path=None, target=None):  # noqa: ARG004
        if name == "mltutor" or name.startswith("mltutor."):
            raise ImportError(f"{name} is not available to a submission while it is graded")
        return None


def _read_exact(fd, n):
    data = bytearray()
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


def main():
    req_fd, res_fd = int(sys.argv[1]), int(sys.argv[2])
    (size,) = struct.unpack(">Q", _read_exact(req_fd, 8))
    job = pickle.loads(_read_exact(req_fd, size))  # noqa: S301 - from the grading process
    secret = job["secret"]

    check_package = _load("mltutor.check", job["check_path"], package=True)
    check = _gather_internals(check_package)
    wire = _load("_mltutor_wire", job["wire_path"])
    import numpy  # imported before the hook, as every submission needs it

    global _ndarray
    _ndarray = numpy.ndarray

    def send(message):
        message["secret"] = secret
        wire.write_frame(res_fd, message)

    # stand-ins for the package
    package = types.ModuleType("mltutor")
    package.__path__ = []
    package.check = check_package
    exercises = types.ModuleType("mltutor.exercises")
    exercises.__path__ = []
    package.exercises = exercises
    sys.modules["mltutor"], sys.modules["mltutor.exercises"] = package, exercises
    for modname, spec in job["modules"].items():
        module = types.ModuleType(modname)
        for name, value in spec["data"].items():
            setattr(module, name, value)
        for name, (title, kind, variable) in spec["exercises"].items():
            setattr(module, name, _StandIn(name, title, kind, variable))
        module.__all__ = list(spec["all"])
        sys.modules[modname] = module
        setattr(exercises, modname.rsplit(".", 1)[1], module)
    grading = types.ModuleType("mltutor.grading")
    grading.__path__ = []
    nbgrader = types.ModuleType("mltutor.grading.nbgrader")
    chapters = {name.rsplit(".", 1)[1]: sys.modules[name] for name in job["modules"]}

    def graded_exercises(chapter, *names):
        module = chapters.get(str(chapter)) or next(iter(chapters.values()))
        found = tuple(getattr(module, n) for n in (names or module.__all__))
        return found[0] if len(found) == 1 else found

    nbgrader.graded_exercises = graded_exercises
    nbgrader.require = nbgrader.hidden_check = lambda *args, **kwargs: None
    grading.nbgrader, package.grading = nbgrader, grading
    sys.modules["mltutor.grading"], sys.modules["mltutor.grading.nbgrader"] = grading, nbgrader
    sys.meta_path.insert(0, _Blocker())

    cases = job["cases"]
    signatures = job["signatures"]
    blocks = job["blocks"]
    skip = set(job["skip"])
    cell_limit = job["cell_time_limit"]
    sys.stdout = sys.stderr = _Sink()
    signal.signal(signal.SIGALRM, _alarm)
    sys.addaudithook(_make_hook(job["run_dir"], tuple(job["protected"]), os.getpid()))
    send({"type": "ready"})

    namespace = {"__name__": "__submission__", "__builtins__": __builtins__}
    if job.get("file"):
        namespace["__file__"] = job["file"]
    for k, (label, source) in enumerate(blocks):
        if k in skip:
            continue
        send({"type": "cell", "index": k, "state": "start"})
        state, text = "ok", ""
        try:
            code = compile(source, label, "exec")
        except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError) as exc:
            state = "syntax"
            line = getattr(exc, "lineno", None)
            text = f"{type(exc).__name__}: {getattr(exc, 'msg', None) or exc}"
            text += f" (line {line})" if line else ""
        else:
            try:
                try:
                    signal.setitimer(signal.ITIMER_REAL, cell_limit) if cell_limit else None
                    exec(code, namespace)  # noqa: S102 - the submission, here in its worker
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except _Timeout:
                state, text = "timeout", f"ran over {cell_limit:g} s"
            except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt too
                state, text = "raised", check._short_exc(exc)
        send({"type": "cell", "index": k, "state": state, "text": text[:300]})
    send({"type": "cells_done"})

    reader = wire.FrameReader(req_fd)
    while True:
        request = reader.next()
        if request is None:
            reader.feed()
            if reader.closed:
                return 0
            continue
        op, rid = request.get("op"), request.get("id")
        if op == "bye":
            return 0
        name = request.get("variable")
        value = namespace.get(name, _MISSING) if isinstance(name, str) else _MISSING
        if op == "inspect":
            send(dict(_describe(value, check, wire), type="answer", id=rid))
        elif op == "call":
            task, i, limit = request["task"], request["case"], request["limit"]
            args, kwargs = copy.deepcopy(cases[task][i])
            send(
                dict(
                    _call(value, signatures.get(task), args, kwargs, limit, check, wire),
                    type="case",
                    id=rid,
                )
            )


_MISSING = object()
_ndarray = None


def _describe(value, check, wire):
    if value is _MISSING:
        return {"state": "missing"}
    if value is None or value is Ellipsis or isinstance(value, check._Placeholder):
        return {"state": "placeholder"}
    if callable(value) and not isinstance(value, _ndarray):
        return {"state": "function"}
    try:
        return {"state": "value", "value": wire.encode(check._plain(value))}
    except check._Refused as exc:
        return {"state": "refused", "text": str(exc)}
    except wire.WireError as exc:
        return {"state": "refused", "text": f"a value that cannot be sent ({exc})"}


def _call(function, signature, args, kwargs, limit, check, wire):
    if not callable(function):
        return {
            "outcome": "raised",
            "info": {
                "text": "TypeError: not a function",
                "exit": False,
                "interrupt": False,
                "not_implemented": False,
            },
        }
    with check._recording_warnings() as caught:
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, limit) if limit else None
                a, kw = check._arrange(signature, args, kwargs, function)
                raw = function(*a, **kw)
                try:
                    got = check._plain(raw)
                except check._Refused as exc:
                    return {"outcome": "refused", "text": str(exc)}
                finally:
                    del raw
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Timeout:
            return {"outcome": "timeout"}
        except BaseException as exc:  # noqa: BLE001 - the learner's bug is the message
            return {"outcome": "raised", "info": check._exception_info(exc)}
        warned = [[str(w.category.__name__)[:80], str(w.message)[:300]] for w in caught[:3]]
    try:
        return {"outcome": "ok", "value": wire.encode(got), "warnings": warned}
    except wire.WireError as exc:
        return {"outcome": "refused", "text": f"a value that cannot be sent ({exc})"}


if __name__ == "__main__":
    try:
        code = main()
    except BaseException:  # noqa: BLE001 - the worker's own failure, for the grading log
        import traceback

        traceback.print_exc(file=sys.__stderr__)
        code = 3
    os._exit(code or 0)
