"""Input checks for the streaming metrics' torch tensors (used when ``validate_args=True``).

Imported by :mod:`mltutor.streaming` only, never by this package's ``__init__``: it needs torch,
and the rest of mltutor does not.

Two kinds of check, and they cost very different amounts on a GPU:

* **metadata** (free): is it a tensor, its dtype, its shape, its device.  Python reads these
  from the tensor object; the device is never asked.
* **values** (one host sync per batch): labels outside ``[0, num_classes)``, targets other than
  0/1, NaN or infinite scores.  Answering needs the data, so the CPU waits for the device.  All
  value checks of a batch are stacked into one small tensor and read with a single ``.tolist()``,
  so validation costs one sync per batch, not one per check.  The offending value is looked up
  only when a check has failed.

``validate_args=False`` skips both kinds: ``update`` then queues its kernels and returns.
"""

from __future__ import annotations

import torch

__all__ = [
    "check_binary",
    "check_multiclass",
    "check_sample_ids",
    "check_loaded_state",
    "check_class_counts",
    "check_label_totals",
    "check_thresholds",
]


def _is_tensor(x: object, name: str) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(
            f"{name} must be a torch.Tensor; got {type(x).__name__}. "
            f"Convert it with torch.as_tensor({name})."
        )


def _is_integer(t: torch.Tensor) -> bool:
    return not (t.is_floating_point() or t.is_complex() or t.dtype == torch.bool)


def _same_batch(preds: torch.Tensor, target: torch.Tensor) -> None:
    if target.ndim != 1:
        raise ValueError(
            f"target must be 1-D with one label per sample, shape [B]; got shape {tuple(target.shape)}."
        )
    if preds.shape[0] != target.shape[0]:
        raise ValueError(
            f"preds and target must have the same batch size; got preds {tuple(preds.shape)} "
            f"and target {tuple(target.shape)}."
        )
    if preds.device != target.device:
        raise ValueError(
            f"preds and target must be on the same device; got preds on {preds.device} and "
            f"target on {target.device}."
        )


def _ignore_index_fits(target: torch.Tensor, ignore_index: int | None) -> None:
    """Refuse an ``ignore_index`` that the target's integer dtype cannot hold.

    torch compares across the wrap-around: a uint8 target of 255 *equals* -1, and an int8 target
    of -1 equals 255, so ``ignore_index=-1`` on a uint8 target would silently ignore 255
    (torchmetrics does exactly that).
    """
    if ignore_index is None or target.dtype == torch.bool or not _is_integer(target):
        return
    info = torch.iinfo(target.dtype)
    if not info.min <= ignore_index <= info.max:
        raise ValueError(
            f"ignore_index={ignore_index} cannot occur in a {target.dtype} target (values "
            f"{info.min}..{info.max}); torch would compare it after wrapping around (a uint8 255 "
            "equals -1). Pass an ignore_index the dtype can hold, or target.long()."
        )


def check_sample_ids(sample_ids: object, target: torch.Tensor) -> None:
    """Validate the ``sample_ids`` of one batch (metadata only: no host sync).

    Only int64 is accepted.  A narrower integer dtype (uint8 ... int32) cannot show, from its
    metadata, whether the ids overflowed on the way (a uint8 id 256 arrives as 0), and looking at
    the values would not tell either: a wrapped id is a valid-looking id of another sample, merged
    silently when the targets agree.  int32 with a documented bound was the alternative; int64 is
    what ids are made in anyway (``DistributedSampler`` indices, collated Python ints), so one rule
    costs nothing and leaves no bound to remember.
    """
    _is_tensor(sample_ids, "sample_ids")
    if sample_ids.dtype != torch.int64:
        raise TypeError(
            f"sample_ids must hold int64 (torch.long) ids, e.g. dataset indices; got dtype "
            f"{sample_ids.dtype}. " + _why_int64(sample_ids.dtype)
        )
    if sample_ids.shape != target.shape:
        raise ValueError(
            f"sample_ids must have one id per sample, shape {tuple(target.shape)} like target; got "
            f"shape {tuple(sample_ids.shape)}."
        )
    if sample_ids.device != target.device:
        raise ValueError(
            f"sample_ids must be on the device of target ({target.device}); got {sample_ids.device}."
        )


def _why_int64(dtype: torch.dtype) -> str:
    """Why an id dtype other than int64 is refused, in words for the error message."""
    if dtype == torch.bool or dtype.is_floating_point or dtype.is_complex:
        return "Bool and float ids are refused: they are not indices."
    info = torch.iinfo(dtype)
    return (
        f"A {dtype} holds {info.min}..{info.max} only, so larger ids would already have wrapped "
        "around before reaching the metric, and two samples would share an id without any "
        "error. Make the ids int64 where they are created (DistributedSampler's indices and "
        "DataLoader's collated Python ints already are)."
    )


def _first_bad(values: torch.Tensor, bad: torch.Tensor) -> object:
    """One offending value, for the error message (only called once a check has failed)."""
    return values[bad].flatten()[0].item()


def check_multiclass(
    preds: torch.Tensor, target: torch.Tensor, num_classes: int, ignore_index: int | None
) -> None:
    """Validate one batch for :class:`~mltutor.streaming.MulticlassMetrics`."""
    _is_tensor(preds, "preds")
    _is_tensor(target, "target")
    if not _is_integer(target):
        raise TypeError(
            f"target must hold integer class indices (torch.long); got dtype {target.dtype}. "
            "Float or bool targets are refused: 1.0 and 0.9999 are not labels."
        )
    if preds.ndim == 1:
        if not _is_integer(preds):
            raise TypeError(
                f"preds of shape [B] must hold integer class indices; got dtype {preds.dtype}. "
                f"Pass scores or logits as shape [B, {num_classes}] instead."
            )
    elif preds.ndim == 2:
        if not preds.is_floating_point():
            raise TypeError(
                f"preds of shape [B, C] must hold float scores, logits or probabilities; got "
                f"dtype {preds.dtype}."
            )
        if preds.shape[1] != num_classes:
            raise ValueError(
                f"preds of shape [B, C] must have C = num_classes = {num_classes} columns; got "
                f"shape {tuple(preds.shape)}."
            )
    else:
        raise ValueError(
            f"preds must be class indices of shape [B] or scores of shape [B, {num_classes}]; "
            f"got shape {tuple(preds.shape)}."
        )
    _same_batch(preds, target)
    _ignore_index_fits(target, ignore_index)

    # Value checks: one host sync for all of them.  The fast path reads the min and max of the
    # labels (and whether a score is NaN); only when that fails are the culprits looked up.
    if target.shape[0] == 0:
        return
    labels = target.long()
    if ignore_index is not None:
        labels = torch.where(labels == ignore_index, 0, labels)
    if preds.ndim == 1:
        labels = torch.cat([labels, preds.long()])
    lo_hi = torch.aminmax(labels)
    summary = [lo_hi.min, lo_hi.max]
    if preds.ndim == 2:
        summary.append(torch.isnan(preds).any().long())
    values = torch.stack(summary).tolist()
    if values[0] >= 0 and values[1] < num_classes and (len(values) == 2 or not values[2]):
        return
    bad_target = (target < 0) | (target >= num_classes)
    if ignore_index is not None:
        bad_target &= target != ignore_index
    if bad_target.any():
        allowed = f"[0, {num_classes})" + (
            f" or ignore_index={ignore_index}" if ignore_index is not None else ""
        )
        raise ValueError(
            f"target holds a label outside {allowed}: {_first_bad(target, bad_target)}."
        )
    if preds.ndim == 1:
        bad_preds = (preds < 0) | (preds >= num_classes)
        raise ValueError(
            f"preds holds a class index outside [0, {num_classes}): {_first_bad(preds, bad_preds)}."
        )
    raise ValueError(
        "preds (scores/logits) contain NaN; argmax would silently pick the NaN's column. "
        "Check the model for overflow (e.g. fp16 logits) before evaluating."
    )


def check_binary(preds: torch.Tensor, target: torch.Tensor, ignore_index: int | None) -> None:
    """Validate one batch for :class:`~mltutor.streaming.BinaryMetrics`."""
    _is_tensor(preds, "preds")
    _is_tensor(target, "target")
    if not preds.is_floating_point():
        raise TypeError(
            f"preds must hold float scores (probabilities or logits) of shape [B]; got dtype "
            f"{preds.dtype}."
        )
    if preds.ndim != 1:
        raise ValueError(
            f"preds must be 1-D with one score per sample, shape [B]; got shape "
            f"{tuple(preds.shape)}. For [B, C] multiclass scores use MulticlassMetrics."
        )
    if target.is_floating_point() or target.is_complex():
        raise TypeError(
            f"target must hold integer (or bool) labels 0/1; got dtype {target.dtype}. "
            "Float targets are refused (torchmetrics' AP refuses them too): convert exact 0.0/1.0 "
            "labels with target.long()."
        )
    _same_batch(preds, target)
    _ignore_index_fits(target, ignore_index)

    # Value checks: one host sync for all of them.
    bad_target = (
        (target != 0) & (target != 1) if target.dtype != torch.bool else torch.zeros_like(target)
    )
    if ignore_index is not None and target.dtype != torch.bool:
        bad_target &= target != ignore_index
    bad_preds = ~torch.isfinite(preds)
    flags = torch.stack([bad_target.any(), bad_preds.any()]).tolist()
    if flags[0]:
        allowed = "0 or 1" + (
            f" or ignore_index={ignore_index}" if ignore_index is not None else ""
        )
        raise ValueError(
            f"target must hold binary labels ({allowed}); found {_first_bad(target, bad_target)}. "
            "For more classes use MulticlassMetrics."
        )
    if flags[1]:
        raise ValueError(f"preds must be finite scores; found {_first_bad(preds, bad_preds)}.")


def check_loaded_state(
    metric_name: str,
    tensors: object,
    specs: dict[str, tuple],
    parallel: tuple[tuple[str, ...], ...] = (),
) -> None:
    """Refuse a saved state that this metric could not have produced (``load_state_dict``).

    ``specs`` maps each state's name to ``(reduction, default, low, high)``: a ``"sum"`` state
    must have the default's shape, a ``"cat"`` state its row shape; both its dtype (a float or
    bool tensor where counts are kept is refused, not cast); every value must lie in
    ``[low, high]`` (``None``: unbounded) and a float state must hold no NaN (infinite scores
    are kept by ``update`` with ``validate_args=False``, and sort like any other).  The states
    named together in ``parallel`` hold one row per sample and must have as many rows.
    """
    where = f"state_dict['state'] for {metric_name}"
    if not isinstance(tensors, dict):
        raise ValueError(f"{where} must be a dict of tensors; got {type(tensors).__name__}.")
    missing = sorted(set(specs) - set(tensors))
    extra = sorted(set(tensors) - set(specs), key=str)
    if missing or extra:
        raise ValueError(
            f"{where} must hold exactly the states {sorted(specs)}; "
            + (f"missing {missing}" if missing else "")
            + ("; " if missing and extra else "")
            + (f"unexpected {extra}" if extra else "")
            + "."
        )
    for name, (reduction, default, low, high) in specs.items():
        value = tensors[name]
        if not isinstance(value, torch.Tensor):
            raise ValueError(
                f"{where}: {name!r} must be a torch.Tensor; got {type(value).__name__}."
            )
        if value.dtype != default.dtype:
            raise ValueError(
                f"{where}: {name!r} has dtype {value.dtype}; this metric keeps "
                f"{default.dtype} (a state is not cast on load)."
            )
        if reduction == "sum" and value.shape != default.shape:
            raise ValueError(
                f"{where}: {name!r} has shape {tuple(value.shape)}; this metric's "
                f"settings give {tuple(default.shape)}."
            )
        if reduction == "cat" and (
            value.ndim != default.ndim or value.shape[1:] != default.shape[1:]
        ):
            raise ValueError(
                f"{where}: {name!r} has shape {tuple(value.shape)}; rows of shape "
                f"{tuple(default.shape[1:])} expected."
            )
        if value.numel() == 0:
            continue
        if value.is_floating_point() and bool(torch.isnan(value).any()):
            raise ValueError(f"{where}: {name!r} holds NaN values.")
        if low is not None and bool((value < low).any()):
            raise ValueError(
                f"{where}: {name!r} holds {value.min().item()}, below {low} "
                "(counts and codes cannot be negative or out of range)."
            )
        if high is not None and bool((value > high).any()):
            raise ValueError(f"{where}: {name!r} holds {value.max().item()}, above {high}.")
    for names in parallel:
        rows = {name: tensors[name].shape[0] for name in names if name in tensors}
        if len(set(rows.values())) > 1:
            raise ValueError(f"{where}: the per-sample states {rows} must have as many rows.")


def check_class_counts(metric_name: str, counts: torch.Tensor, num_classes: int) -> None:
    """A loaded per-class state ``[tp | support | predicted | spare]`` that counts could give.

    Every counted sample adds one to its true class's support and one to its predicted class's
    count, and to ``tp`` only where they agree: so ``tp <= support``, ``tp <= predicted`` and both
    totals are equal.  A tampered ``tp`` above the support loaded silently and gave a recall of 5
    and an accuracy of 1.5.
    """
    c = num_classes
    tp, support, predicted = counts[:c], counts[c : 2 * c], counts[2 * c : 3 * c]
    where = f"state_dict['state'] for {metric_name}: 'class_counts'"
    over = (tp > torch.minimum(support, predicted)).nonzero().flatten()
    if over.numel():
        k = int(over[0])
        raise ValueError(
            f"{where} has {int(tp[k])} true positives for class {k} but a support of "
            f"{int(support[k])} and {int(predicted[k])} predictions; a count cannot "
            "give that."
        )
    if int(support.sum()) != int(predicted.sum()):
        raise ValueError(
            f"{where} has {int(support.sum())} samples by true class but "
            f"{int(predicted.sum())} by predicted class; each sample counts in both."
        )


def check_label_totals(
    metric_name: str, counts: torch.Tensor, per_label: torch.Tensor, name: str
) -> None:
    """A loaded binary state whose outcome counts agree, label by label, with the kept rows.

    ``counts`` holds ``2 * label + (score >= threshold)`` tallies; every sample counted there is
    also a row of ``labels`` (exact mode) or a cell of ``hist`` (binned), so the two give the same
    number of negatives, positives and ignored samples.
    """
    by_counts = counts.view(3, 2).sum(dim=1).tolist()
    by_rows = per_label.tolist()
    if by_counts != by_rows:
        raise ValueError(
            f"state_dict['state'] for {metric_name}: 'counts' holds {by_counts} "
            f"negatives, positives and ignored samples but {name!r} holds "
            f"{by_rows}; they count the same samples."
        )


def check_thresholds(thresholds: object) -> torch.Tensor | None:
    """``thresholds`` of :class:`~mltutor.streaming.BinaryMetrics`: None (exact curves), an int
    >= 2 (that many evenly spaced thresholds in [0, 1]) or a non-empty 1-D finite tensor
    (sorted, duplicates dropped)."""
    if thresholds is None:
        return None
    if isinstance(thresholds, bool):
        raise TypeError("thresholds must be None, an int or a 1-D tensor; got a bool.")
    if isinstance(thresholds, int):
        if thresholds < 2:
            raise ValueError(f"thresholds as an int must be at least 2; got {thresholds}.")
        return torch.linspace(0, 1, thresholds, dtype=torch.float64)
    t = torch.as_tensor(thresholds, dtype=torch.float64).detach().cpu()
    if t.ndim != 1 or t.shape[0] == 0:
        raise ValueError(f"thresholds must be a non-empty 1-D tensor; got shape {tuple(t.shape)}.")
    if not torch.isfinite(t).all():
        raise ValueError("thresholds must be finite.")
    return torch.unique(t)  # sorted, duplicates dropped
