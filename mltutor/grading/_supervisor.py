"""Run one grading worker under resource limits, and leave no process of it behind.

Started by :mod:`mltutor.grading._sandbox` as ``python -I -S _supervisor.py CONFIG_JSON`` (the
standard library only, no site packages).  It

* becomes a *child subreaper* (Linux ``prctl(PR_SET_CHILD_SUBREAPER)``), so that a process the
  worker starts and detaches (a new session, a double fork) is re-parented to this supervisor
  instead of to ``init`` when its parent dies;
* forks the worker into a process group of its own, with the limits of the config
  (``RLIMIT_AS``, ``RLIMIT_CPU``, ``RLIMIT_FSIZE``, ``RLIMIT_NPROC``, no core files), standard
  input from ``/dev/null``, standard output and error into a log file, and ``SIGXFSZ`` ignored
  (a write past the file-size limit fails instead of killing the worker);
* waits until the worker ends or the grading process asks it to stop (a byte on, or the end of,
  the supervisor's standard input), then kills the worker's process group and every process
  still re-parented to it, with ``SIGKILL``, until none is left, and reaps them;
* prints one JSON line, ``{"exit": N}`` or ``{"signal": N}`` (how the worker ended), and exits.
"""

import json
import os
import select
import signal
import sys
import time

try:
    import resource
except ImportError:  # not a POSIX system
    resource = None

PR_SET_CHILD_SUBREAPER = 36


def _subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _user_tasks(uid: int) -> int:
    """How many processes and threads this user runs now (what ``RLIMIT_NPROC`` counts)."""
    count = 0
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", encoding="ascii", errors="replace") as f:
                status = f.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        try:
            if int(fields.get("Uid", "-1").split()[0]) == uid:
                count += int(fields.get("Threads", "1").strip())
        except (ValueError, IndexError):
            continue
    return count


def _children(me: int) -> list:
    """The processes whose parent is ``me`` (the orphans re-parented to a subreaper included)."""
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")"
        try:
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        except (ValueError, IndexError):
            continue
        if ppid == me:
            found.append(int(name))
    return found


def _limits(cfg: dict) -> None:
    if resource is None:
        return

    def cap(which, soft, hard=None):
        hard = soft if hard is None else hard
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):
            pass

    cap(resource.RLIMIT_CORE, 0)
    if cfg.get("memory_bytes"):
        cap(resource.RLIMIT_AS, int(cfg["memory_bytes"]))
    if cfg.get("cpu_seconds"):
        soft = max(1, int(cfg["cpu_seconds"] + 0.999))
        cap(resource.RLIMIT_CPU, soft, soft + 1)
    if cfg.get("file_bytes"):
        cap(resource.RLIMIT_FSIZE, int(cfg["file_bytes"]))
    if cfg.get("nproc") and hasattr(resource, "RLIMIT_NPROC"):
        cap(resource.RLIMIT_NPROC, int(cfg["nproc"]))


def _start(cfg: dict) -> int:
    devnull = os.open(os.devnull, os.O_RDONLY)
    log = os.open(cfg["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    pid = os.fork()
    if pid == 0:  # the worker-to-be
        try:
            os.setpgid(0, 0)
            os.dup2(devnull, 0)
            os.dup2(log, 1)
            os.dup2(log, 2)
            for fd in cfg["pass_fds"]:
                os.set_inheritable(fd, True)
            os.chdir(cfg["cwd"])
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            _limits(cfg)
            os.execve(cfg["argv"][0], cfg["argv"], cfg["env"])
        finally:
            os._exit(127)
    try:
        os.setpgid(pid, pid)  # also here, so that the group exists before anyone kills it
    except OSError:
        pass
    os.close(devnull)
    os.close(log)
    for fd in cfg["pass_fds"]:  # only the worker holds its ends of the channel now
        os.close(fd)
    return pid


def _kill_all(pid: int, me: int) -> None:
    """SIGKILL the worker's group and every child of this process, until none is left."""
    for _ in range(1000):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        left = _children(me)
        for child in left:
            for kill in (os.killpg, os.kill):
                try:
                    kill(child, signal.SIGKILL)
                except OSError:
                    pass
        while True:  # reap what has died
            try:
                done, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                done = -1
            if done <= 0:
                break
        if not left and not _children(me):
            try:
                os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if not _children(me):
                return
        time.sleep(0.005)


def main() -> int:
    cfg = json.loads(sys.argv[1])
    _subreaper()
    if cfg.get("nproc_extra") is not None and hasattr(os, "getuid"):
        cfg["nproc"] = _user_tasks(os.getuid()) + int(cfg["nproc_extra"])
    pid = _start(cfg)
    me = os.getpid()
    status = None
    stop = False
    while status is None and not stop:
        try:
            ready, _, _ = select.select([0], [], [], 0.02)
        except InterruptedError:
            ready = []
        if ready:
            stop = True  # a byte or the end of file: either way, stop the worker
        while True:  # reap the worker, and any orphan re-parented here, as they end
            try:
                done, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                done, code = (pid, 0) if status is None else (0, 0)
            if done == pid:
                status = code
            if done <= 0 or done == pid:
                break
    _kill_all(pid, me)
    if status is None:  # stopped: the worker was killed above, or reaped there
        status = signal.SIGKILL
        report = {"signal": int(signal.SIGKILL), "stopped": True}
    elif os.WIFSIGNALED(status):
        report = {"signal": os.WTERMSIG(status)}
    else:
        report = {"exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1}
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
