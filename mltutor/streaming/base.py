"""The streaming-metric base: tensor states with a reduction, update / compute / reset / merge / sync.

A streaming metric keeps *counts*, never per-batch scores.  Each piece of state is a tensor
registered with how it combines across processes (or across two metric objects):

* ``"sum"``: counts (a confusion matrix, a histogram).  Combining is addition, so splitting the
  data in any way, over batches or over ranks, gives the same totals, exactly, in integers.
* ``"cat"``: rows kept as they come (the scores of exact ROC AUC, the ids of ``sample_ids``).
  Combining is concatenation; across ranks it is pad, gather, trim
  (:func:`mltutor.streaming._dist.gather_cat`).

``compute()`` turns the state into numbers.  Under ``torch.distributed`` it first combines the
state of every rank (``sync_on_compute=True``, like torchmetrics) on a copy, so the local state is
untouched and ``compute()`` can be called again.  Outside a process group it is purely local.

Before any state crosses the wire, the ranks compare their :meth:`~StreamingMetric.layout`
(class, settings, state shapes and dtypes) and, when they disagree, every rank raises the same
:class:`ValueError` naming the setting and each rank's value.  Without that check, buffers of
different sizes reach the backend, which aborts gloo with ``terminate called``.

Aliasing rules, so that no count is silently shared or doubled:

* ``update`` copies what it keeps, so the caller may reuse its buffers;
* ``merge(self)`` raises (it would double every count), and so does merging into, or from, a
  metric that was synced in place (its state is every rank's data);
* ``copy.copy`` and ``copy.deepcopy`` give independent metrics (no shared state tensors);
* :meth:`~StreamingMetric.state_dict` returns copies, and loads with ``torch.load(...,
  weights_only=True)``.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

import torch

from .._validation import streaming as _checks
from .._validation.params import check_scalar
from . import _dist
from ._layout import different_layouts, mismatch_message

__all__ = ["StreamingMetric"]

Reduction = Literal["sum", "cat"]
STATE_DICT_VERSION = 1


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

    # ---------------------------------------------------------------- settings

    def _config(self) -> dict[str, Any]:
        """The settings that must match for two metrics to combine (plain Python values).

        Subclasses add their parameters.  Used by :meth:`merge`, by the cross-rank check before a
        sync, and by :meth:`load_state_dict`.
        """
        return {}

    def layout(self) -> dict[str, Any]:
        """What every rank must agree on before a sync: class, settings, state shapes and dtypes.

        Returns a dict of plain Python values (picklable, comparable with ``==``).  For a "cat"
        state only the shape of one row counts, since ranks may hold different numbers of rows.
        """
        states = {}
        for name, reduction in self._reductions.items():
            default = self._defaults[name]
            shape = tuple(default.shape[1:]) if reduction == "cat" else tuple(default.shape)
            states[name] = (reduction, str(default.dtype), shape)
        return {"metric": type(self).__name__, **self._config(), "states": states}

    # ---------------------------------------------------------------- the public protocol

    @property
    def device(self) -> torch.device:
        """The device the state lives on."""
        return self._device

    def update(self, *args: Any, **kwargs: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _compute(self, state: dict[str, torch.Tensor]) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def compute(self, sync: bool | None = None) -> dict[str, Any]:
        """The metric values from all data seen so far (on every rank, under DDP).

        Parameters
        ----------
        sync : bool, optional
            Combine the ranks' states first.  Default: ``sync_on_compute``.  Ignored (nothing to
            combine) outside an initialised process group of two or more processes.  Every rank
            must call ``compute`` when it syncs, or the others wait for it (until the timeout).

        Raises
        ------
        ValueError
            On every rank, when the ranks' settings differ (see :meth:`layout`).
        RuntimeError
            With ``sync``, on a process that is not a member of ``process_group`` (its numbers
            would be its own data only); ``compute(sync=False)`` gives those on purpose.
        """
        if sync is None:
            sync = self.sync_on_compute
        if sync and not self._synced and _dist.distributed_ready(self.process_group):
            state = self.synced_state()
        else:
            state = self._local_state()
        return self._compute(state)

    def require_same_settings_across_ranks(self) -> None:
        """Raise the same :class:`ValueError` on every rank when the ranks' layouts differ.

        One small collective (``all_gather_object`` of :meth:`layout`).  A no-op outside an
        initialised process group; a :class:`RuntimeError` on a process outside ``process_group``.
        With NCCL, each process must have called
        ``torch.cuda.set_device(local_rank)`` first (DDP needs that anyway), since the pickled
        layouts travel through that device.
        """
        if not _dist.distributed_ready(self.process_group):
            return
        layouts = _dist.all_gather_object(self.layout(), self.process_group)
        if different_layouts(layouts):
            raise ValueError(mismatch_message(type(self).__name__, layouts))

    def synced_state(self) -> dict[str, torch.Tensor]:
        """The state combined over all ranks, as new tensors (the local state is unchanged).

        The ranks' settings are compared first (:meth:`require_same_settings_across_ranks`).
        """
        state = self._local_state()
        if not _dist.distributed_ready(self.process_group):
            return state
        self.require_same_settings_across_ranks()
        group = self.process_group
        return {
            name: _dist.all_reduce_sum(value, group)
            if self._reductions[name] == "sum"
            else _dist.gather_cat(value, group)
            for name, value in state.items()
        }

    def sync(self) -> StreamingMetric:
        """Replace the local state by the state combined over all ranks, in place.

        A no-op outside an initialised process group; a :class:`RuntimeError` on a process that
        is not a member of ``process_group``.  Afterwards :meth:`compute` does not sync
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
        ``other`` is left unchanged and shares no state with this metric afterwards.

        Raises
        ------
        ValueError
            ``other`` is this very metric (merging it would count every sample twice; merge a
            ``copy.deepcopy`` if that is really wanted), or has other settings.
        RuntimeError
            This metric was synced in place (:meth:`sync`); :meth:`reset` it first.  Or ``other``
            was: it holds every rank's data, so merging it would count the other ranks' samples
            again (and once per rank if every rank merges it).
        """
        if other is self:
            raise ValueError(
                f"cannot merge a {type(self).__name__} into itself: every sample would be counted "
                "twice. Merge a copy.deepcopy(metric) if you really want double counts."
            )
        if not isinstance(other, StreamingMetric) or other.layout() != self.layout():
            theirs = other.layout() if isinstance(other, StreamingMetric) else type(other).__name__
            raise ValueError(
                f"other must be a {type(self).__name__} with the same settings; this metric has "
                f"{self.layout()}, other has {theirs}."
            )
        if self._synced:
            raise RuntimeError(
                f"this {type(self).__name__} was synced across ranks in place; call reset() "
                "before merge() (merged data would be counted once, the rest once per rank)."
            )
        if other._synced:
            # Its state is every rank's data now, its own local part no longer separable: merged
            # on each rank, the other ranks' samples would be counted again.
            raise RuntimeError(
                "other was synced across ranks in place, so it holds the data of every rank; "
                "merging it would count the other ranks' samples twice. Merge metrics before "
                "syncing (or merge unsynced ones and sync the result once)."
            )
        for name, reduction in self._reductions.items():
            theirs = getattr(other, name)
            if reduction == "sum":
                setattr(self, name, getattr(self, name) + theirs.to(self._device))
            else:
                # list(...) first: extending a list with itself never ends (shared lists).
                getattr(self, name).extend([t.to(self._device) for t in list(theirs)])
        self._n_updates += other._n_updates
        return self

    def __copy__(self) -> StreamingMetric:
        """An independent copy (state tensors copied), like ``copy.deepcopy``.

        A plain shallow copy would share the state lists and tensors, so an ``update`` on one
        metric would silently change the other.
        """
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> StreamingMetric:
        """Copy every state; keep the ``process_group`` itself (a handle, not data, and not copyable)."""
        memo[id(self.process_group)] = self.process_group
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            setattr(new, key, copy.deepcopy(value, memo))
        return new

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

    # ---------------------------------------------------------------- resumable evaluation

    def state_dict(self) -> dict[str, Any]:
        """The state as a dict of tensors and plain values, for ``torch.save``.

        Loadable with ``torch.load(path, weights_only=True)`` (only tensors, dicts, lists, strings,
        numbers, bools and ``None``).  The tensors are copies on the state's device; "cat" states
        are concatenated into one tensor each.  Resume with :meth:`load_state_dict` on a fresh
        metric with the same settings: update half an epoch, save, load, update the rest, and
        ``compute()`` equals one uninterrupted pass.
        """
        return {
            "version": STATE_DICT_VERSION,
            "layout": self.layout(),
            "state": {name: value.clone() for name, value in self._local_state().items()},
            "n_updates": self._n_updates,
            "synced": self._synced,
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> StreamingMetric:
        """Replace this metric's state by a saved one (see :meth:`state_dict`).

        Raises
        ------
        ValueError
            The dict was saved by another class, with other settings, or is not a state dict of
            this format; or a state in it is one this metric could not have produced (a missing
            or extra state, another shape or dtype, a negative count, a code out of range, a NaN
            score, per-sample states of unequal length, counts that disagree with each other
            such as more true positives than samples of the class).  The message names the state
            and what differs, and the metric is left as it was.
        """
        if (
            not isinstance(state_dict, dict)
            or not {"version", "layout", "state"} <= state_dict.keys()
        ):
            raise ValueError(
                "state_dict must be a dict returned by StreamingMetric.state_dict() (keys "
                f"'version', 'layout', 'state'); got {type(state_dict).__name__}"
                + (f" with keys {sorted(state_dict)}" if isinstance(state_dict, dict) else "")
                + "."
            )
        if state_dict["version"] != STATE_DICT_VERSION:
            raise ValueError(
                f"state_dict has format version {state_dict['version']!r}; this mltutor reads "
                f"version {STATE_DICT_VERSION}."
            )
        saved, mine = _plain(state_dict["layout"]), _plain(self.layout())
        if saved != mine:
            keys = [
                k for k in sorted(set(saved) | set(mine), key=str) if saved.get(k) != mine.get(k)
            ]
            if len(keys) > 1 and "states" in keys:
                keys.remove("states")  # follows from the settings named; long to print
            diff = [
                f"{key}: saved {saved.get(key)!r}, this metric {mine.get(key)!r}" for key in keys
            ]
            raise ValueError(
                f"state_dict was saved by a metric with other settings ({'; '.join(diff)}). "
                f"Create the {type(self).__name__} with the saved settings before loading."
            )
        tensors = state_dict["state"]
        _checks.check_loaded_state(
            type(self).__name__,
            tensors,
            {
                name: (reduction, self._defaults[name], *self._state_range(name))
                for name, reduction in self._reductions.items()
            },
            self._parallel_states(),
        )
        self._verify_loaded_totals(tensors)
        n_updates, synced = state_dict.get("n_updates", 0), state_dict.get("synced", False)
        n_updates = check_scalar(
            n_updates,
            "state_dict['n_updates']",
            int,
            min_val=0,
            expected="an integer >= 0",
            type_error=ValueError,
        )
        if not isinstance(synced, bool):
            raise ValueError(f"state_dict['synced'] must be True or False; got {synced!r}.")
        for name, reduction in self._reductions.items():
            value = tensors[name].to(self._device).clone()
            setattr(
                self, name, value if reduction == "sum" else ([value] if value.shape[0] else [])
            )
        self._n_updates, self._synced = n_updates, synced
        return self

    def _state_range(self, name: str) -> tuple[int | None, int | None]:
        """The values a state can hold, ``(low, high)`` (``None``: unbounded), for loading.

        Counts cannot be negative; subclasses narrow codes and labels.
        """
        return (0, None) if self._reductions[name] == "sum" else (None, None)

    def _parallel_states(self) -> tuple[tuple[str, ...], ...]:
        """Groups of "cat" states that hold one row per sample each (equal row counts)."""
        return ()

    def _verify_loaded_totals(self, tensors: dict[str, torch.Tensor]) -> None:
        """Refuse states that disagree with each other (checked ones, after the layout)."""

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


def _plain(value: Any) -> Any:
    """Lists back to tuples (a saved layout may come back from a loader with lists)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value
