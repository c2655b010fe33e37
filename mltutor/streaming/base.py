"""The streaming-metric base: tensor states with a reduction, update / compute / reset / merge / sync.

A streaming metric keeps *counts*, never per-batch scores.  Each piece of state is a tensor
registered with how it combines across processes (or across two metric objects):

* ``"sum"``: counts (a confusion matrix, a histogram).  Combining is addition, so splitting the
  data in any way, over batches or over ranks, gives the same totals, exactly, in integers.
* ``"cat"``: rows kept as they come (the scores of exact ROC AUC).  Combining is concatenation;
  across ranks it is pad, gather, trim (:func:`mltutor.streaming._dist.gather_cat`).

``compute()`` turns the state into numbers.  Under ``torch.distributed`` it first combines the
state of every rank (``sync_on_compute=True``, like torchmetrics) on a copy, so the local state is
untouched and ``compute()`` can be called again.  Outside a process group it is purely local.
"""

from __future__ import annotations

from typing import Any, Literal

import torch

from . import _dist

__all__ = ["StreamingMetric"]

Reduction = Literal["sum", "cat"]


class StreamingMetric:
    """Base class: register states with :meth:`add_state`, implement ``update`` and ``_compute``.

    Parameters
    ----------
    validate_args : bool, default=True
        Check every batch and raise a clear error on bad input.  The shape, dtype and device checks
        read only metadata; the value checks (labels in range, NaN scores) need one host sync per
        batch.  ``False`` skips all checks: ``update`` then never waits for the device.
    sync_on_compute : bool, default=True
        Combine the state of all ranks in :meth:`compute` when ``torch.distributed`` is
        initialised with more than one process.
    process_group : optional
        The ``torch.distributed`` group to sync over (default: the whole world).
    device : str or torch.device, optional
        Where the state starts (default CPU).  The first ``update`` moves a fresh state to the
        device of its inputs; after that, inputs on another device are an error.
    """

    def __init__(
        self,
        *,
        validate_args: bool = True,
        sync_on_compute: bool = True,
        process_group: Any = None,
        device: str | torch.device | None = None,
    ) -> None:
        self.validate_args = bool(validate_args)
        self.sync_on_compute = bool(sync_on_compute)
        self.process_group = process_group
        self._device = torch.device(device) if device is not None else torch.device("cpu")
        self._defaults: dict[str, torch.Tensor] = {}
        self._reductions: dict[str, Reduction] = {}
        self._n_updates = 0
        self._synced = False
        self._one = torch.ones(1, dtype=torch.long, device=self._device)  # expanded, never copied

    # ---------------------------------------------------------------- state registration

    def add_state(self, name: str, default: torch.Tensor, reduction: Reduction = "sum") -> None:
        """Register a state tensor.

        ``"sum"`` states start as a copy of ``default``; ``"cat"`` states start as an empty list
        of tensors shaped like ``default`` (which must have 0 rows) and are concatenated.
        """
        if reduction not in ("sum", "cat"):
            raise ValueError(f"reduction must be 'sum' or 'cat'; got {reduction!r}.")
        if reduction == "cat" and default.shape[0] != 0:
            raise ValueError(f"the default of the 'cat' state {name!r} must have 0 rows.")
        self._defaults[name] = default.to(self._device)
        self._reductions[name] = reduction
        self._reset_state(name)

    def _reset_state(self, name: str) -> None:
        if self._reductions[name] == "sum":
            setattr(self, name, self._defaults[name].clone())
        else:
            setattr(self, name, [])

    def _local_state(self) -> dict[str, torch.Tensor]:
        """Every state as one tensor ("cat" lists concatenated)."""
        state = {}
        for name, reduction in self._reductions.items():
            value = getattr(self, name)
            state[name] = torch.cat([self._defaults[name], *value]) if reduction == "cat" else value
        return state

    # ---------------------------------------------------------------- the public protocol

    @property
    def device(self) -> torch.device:
        """The device the state lives on."""
        return self._device

    def update(self, *args: Any, **kwargs: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _compute(self, state: dict[str, torch.Tensor]) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _config(self) -> tuple:
        """What must match for two metrics to be merged (subclasses add their parameters)."""
        return (type(self),)

    def compute(self, sync: bool | None = None) -> dict[str, Any]:
        """The metric values from all data seen so far (on every rank, under DDP).

        Parameters
        ----------
        sync : bool, optional
            Combine the ranks' states first.  Default: ``sync_on_compute``.  Ignored (nothing to
            combine) outside an initialised process group of two or more processes.  Every rank
            must call ``compute`` when it syncs, or the others wait for it (until the timeout).
        """
        if sync is None:
            sync = self.sync_on_compute
        if sync and not self._synced and _dist.distributed_ready(self.process_group):
            state = self.synced_state()
        else:
            state = self._local_state()
        return self._compute(state)

    def synced_state(self) -> dict[str, torch.Tensor]:
        """The state combined over all ranks, as new tensors (the local state is unchanged)."""
        state = self._local_state()
        if not _dist.distributed_ready(self.process_group):
            return state
        group = self.process_group
        return {
            name: _dist.all_reduce_sum(value, group)
            if self._reductions[name] == "sum"
            else _dist.gather_cat(value, group)
            for name, value in state.items()
        }

    def sync(self) -> StreamingMetric:
        """Replace the local state by the state combined over all ranks, in place.

        A no-op outside an initialised process group.  Afterwards :meth:`compute` does not sync
        again and :meth:`update` refuses new data (it would be counted once, the rest ``world``
        times); call :meth:`reset` to start a new epoch.
        """
        if _dist.distributed_ready(self.process_group):
            for name, value in self.synced_state().items():
                setattr(self, name, value if self._reductions[name] == "sum" else [value])
            self._synced = True
        return self

    def reset(self) -> None:
        """Forget all data (start of an epoch)."""
        for name in self._reductions:
            self._reset_state(name)
        self._n_updates = 0
        self._synced = False

    def merge(self, other: StreamingMetric) -> StreamingMetric:
        """Add the data of ``other`` (a metric with the same settings) to this one, in place.

        Merging two metrics that saw two halves of the data gives the metric of all of it.
        """
        if not isinstance(other, StreamingMetric) or other._config() != self._config():
            raise ValueError(
                f"other must be a {type(self).__name__} with the same settings "
                f"{self._config()[1:]}; got {other!r}."
            )
        for name, reduction in self._reductions.items():
            theirs = getattr(other, name)
            if reduction == "sum":
                setattr(self, name, getattr(self, name) + theirs.to(self._device))
            else:
                getattr(self, name).extend(t.to(self._device) for t in theirs)
        self._n_updates += other._n_updates
        return self

    def to(self, device: str | torch.device) -> StreamingMetric:
        """Move the state to ``device`` and return the metric."""
        device = torch.device(device)
        self._device = device
        self._one = self._one.to(device)
        for name, reduction in self._reductions.items():
            self._defaults[name] = self._defaults[name].to(device)
            value = getattr(self, name)
            if reduction == "sum":
                setattr(self, name, value.to(device))
            else:
                setattr(self, name, [t.to(device) for t in value])
        return self

    # ---------------------------------------------------------------- helpers for update()

    def _start_update(self, *tensors: torch.Tensor) -> None:
        """Refuse updates after :meth:`sync`; put a fresh state on the inputs' device."""
        if self._synced:
            raise RuntimeError(
                f"this {type(self).__name__} was synced across ranks; call reset() before "
                "update() (or use compute(), which syncs a copy and keeps the local state)."
            )
        device = tensors[0].device
        if device != self._device:
            # Comparing devices reads metadata only: no host sync.
            if self._n_updates == 0:
                self.to(device)
            else:
                raise ValueError(
                    f"preds are on {device} but the metric state is on {self._device} (it has "
                    f"already seen data there); move the inputs to {self._device}, or reset() "
                    "the metric before switching devices."
                )
        self._n_updates += 1

    def __repr__(self) -> str:
        settings = ", ".join(f"{k}={v!r}" for k, v in self._settings().items())
        return f"{type(self).__name__}({settings})"

    def _settings(self) -> dict[str, Any]:
        return {}
