"""The collectives a streaming metric needs, and a tiny launcher for CPU (gloo) process groups.

* :func:`all_gather_object` for the settings check before a sync (every rank sees every rank's
  settings, so every rank can raise the same error).
* :func:`all_reduce_sum` for count states: every rank ends with the element-wise sum.
* :func:`gather_cat` for list states (the scores kept by exact ROC/AP): ranks may hold different
  numbers of rows, and gloo's ``all_gather`` needs equal shapes, so each rank pads to the longest,
  all ranks gather, and the padding is trimmed off again (what torchmetrics does too; it works on
  every backend).

Both return new tensors and leave their input alone, so a metric's local state survives a sync.

:func:`run_gloo` starts ``world_size`` processes on this machine, joins them into a gloo process
group on a free TCP port of 127.0.0.1, runs a function on every rank and returns what each rank
returned.  Every wait is bounded: the process group gets a timeout, and the parent kills the
workers and raises when one fails or when they run past the deadline, so a hung collective fails a
test instead of blocking it.
"""

from __future__ import annotations

import datetime
import os
import pickle
import socket
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

__all__ = [
    "all_gather_object",
    "all_reduce_sum",
    "distributed_ready",
    "free_port",
    "gather_cat",
    "run_gloo",
]


def distributed_ready(group: Any = None) -> bool:
    """True when ``torch.distributed`` is initialised with more than one process in ``group``.

    Raises
    ------
    RuntimeError
        This process is not a member of ``group``.  torch reports a world size of -1 there
        (``dist.get_rank(group) == -1``) and turns every collective into a no-op with a warning, so
        without this error a sync would quietly leave the local numbers in place.
    """
    if not (dist.is_available() and dist.is_initialized()):
        return False
    if dist.get_rank(group) == -1:
        raise RuntimeError(
            f"this process (global rank {dist.get_rank()}) is not a member of the metric's "
            "process_group, so it cannot sync over it; its numbers would be its own data only. "
            "Call compute(sync=False) for the local numbers, or build the metric on this rank with "
            "a process_group it belongs to."
        )
    return dist.get_world_size(group) > 1


def all_reduce_sum(tensor: torch.Tensor, group: Any = None) -> torch.Tensor:
    """The element-wise sum of ``tensor`` over all ranks, as a new tensor."""
    out = tensor.clone()
    dist.all_reduce(out, op=dist.ReduceOp.SUM, group=group)
    return out


def all_gather_object(obj: Any, group: Any = None) -> list[Any]:
    """Every rank's ``obj`` (small, picklable), in rank order, on every rank."""
    out: list[Any] = [None] * dist.get_world_size(group)
    dist.all_gather_object(out, obj, group=group)
    return out


def gather_cat(tensor: torch.Tensor, group: Any = None) -> torch.Tensor:
    """Concatenate every rank's ``tensor`` along dim 0, in rank order (pad, gather, trim).

    Ranks may hold different numbers of rows, zero included.  The sizes are gathered first (one
    small collective), then every rank pads to the largest size (at least one row, because some
    backends refuse empty buffers), gathers, and keeps only the real rows of each rank.
    """
    world = dist.get_world_size(group)
    size = torch.tensor([tensor.shape[0]], dtype=torch.long, device=tensor.device)
    sizes = [torch.zeros_like(size) for _ in range(world)]
    dist.all_gather(sizes, size, group=group)
    counts = [int(s.item()) for s in sizes]
    rows = max(max(counts), 1)
    padded = tensor.new_zeros((rows, *tensor.shape[1:]))
    padded[: tensor.shape[0]] = tensor
    buffers = [torch.empty_like(padded) for _ in range(world)]
    dist.all_gather(buffers, padded, group=group)
    return torch.cat([buf[:n] for buf, n in zip(buffers, counts)])


# --------------------------------------------------------------------------------------------
# Launcher (CPU, gloo, loopback only)
# --------------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, read it back)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _entry(
    fn: Callable[..., Any],
    rank: int,
    world_size: int,
    port: int,
    timeout: float,
    out_dir: str,
    args: tuple,
) -> None:
    """Body of one worker process: join the group, run ``fn``, store its result or traceback."""
    if sys.platform.startswith("linux"):
        os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")  # loopback only, never another address
    torch.set_num_threads(1)
    result: dict[str, Any]
    try:
        dist.init_process_group(
            "gloo",
            init_method=f"tcp://127.0.0.1:{port}",
            rank=rank,
            world_size=world_size,
            timeout=datetime.timedelta(seconds=timeout),
        )
        try:
            result = {"ok": fn(rank, world_size, *args)}
        finally:
            dist.destroy_process_group()
    except BaseException:  # noqa: BLE001 - reported to the parent, which raises
        result = {"error": traceback.format_exc()}
    with open(Path(out_dir) / f"rank{rank}.pkl", "wb") as fh:
        pickle.dump(result, fh)
    if "error" in result:
        sys.exit(1)


def run_gloo(
    fn: Callable[..., Any], world_size: int = 2, args: tuple = (), *, timeout: float = 60.0
) -> list[Any]:
    """Run ``fn(rank, world_size, *args)`` in ``world_size`` fresh processes joined by gloo.

    Parameters
    ----------
    fn : callable
        A module-level function (the workers import it by name; they are started with ``spawn``).
        Its return value must be picklable; tensors are best returned on the CPU.
    world_size : int, default=2
        Number of processes.
    args : tuple
        Extra positional arguments for ``fn``.
    timeout : float, default=60
        Seconds for the process group's collectives; the parent waits at most ``timeout + 30``
        seconds in all before it kills the workers.

    Returns
    -------
    list
        ``fn``'s return value on each rank, in rank order.

    Raises
    ------
    RuntimeError
        A worker raised (its traceback is in the message) or died; the other workers are killed
        at once, so a rank left waiting in a collective does not hang the caller.
    TimeoutError
        The workers ran past the deadline.
    """
    ctx = torch.multiprocessing.get_context("spawn")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="mltutor_gloo_") as out_dir:
        procs = [
            ctx.Process(target=_entry, args=(fn, rank, world_size, port, timeout, out_dir, args))
            for rank in range(world_size)
        ]
        for proc in procs:
            proc.start()
        deadline = time.monotonic() + timeout + 30.0
        try:
            while any(p.is_alive() for p in procs):
                if any(p.exitcode not in (None, 0) for p in procs):
                    break  # one rank failed: do not wait for the others to time out
                if time.monotonic() > deadline:
                    raise TimeoutError(f"gloo workers still running after {timeout + 30:.0f} s")
                time.sleep(0.02)
        finally:
            for proc in procs:
                if proc.is_alive():
                    proc.kill()
                proc.join(5)
        results = []
        for rank, proc in enumerate(procs):
            path = Path(out_dir) / f"rank{rank}.pkl"
            if not path.exists():
                results.append(
                    {"error": f"rank {rank} exited with code {proc.exitcode} and left no result"}
                )
                continue
            with open(path, "rb") as fh:
                results.append(pickle.load(fh))
    errors = [f"rank {r}:\n{res['error']}" for r, res in enumerate(results) if "error" in res]
    if errors:
        raise RuntimeError("distributed worker failed\n" + "\n".join(errors))
    return [res["ok"] for res in results]
