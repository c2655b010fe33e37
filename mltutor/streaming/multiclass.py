"""Streaming multiclass metrics: one C x C confusion count (or three C-vectors), one scatter-add per batch.

The dense state is kernel 1 of the course (:mod:`mltutor.confusion`) kept as a tensor::

    codes = target * C + preds                       # the cell (true, predicted) of each sample
    state.index_add_(0, codes, ones)                 # a bincount, added into the state in place

Every number of ``classification_report`` is arithmetic on that count, so the batches can be
counted in any order, on any device, on any number of processes, and summed.

The report needs only three marginals of the count, though: per class the true positives (the
diagonal), the support (row sums) and the predicted count (column sums).  With many classes the
C x C state is too big (200,000 classes: 4e10 cells, 320 GB of int64), so above
:data:`MAX_DENSE_CELLS` cells the metric keeps those three vectors instead, O(C) memory, same
numbers; only ``confusion_matrix`` needs the dense state.
"""

from __future__ import annotations

from typing import Any

import torch

from .._validation import streaming as _checks
from .._validation.params import check_scalar
from ._sample_ids import first_occurrences
from .base import StreamingMetric

__all__ = ["MAX_DENSE_CELLS", "MetricDict", "MulticlassMetrics"]

MAX_DENSE_CELLS = 2**24
"""Largest C x C state kept by default — 16,777,216 cells (128 MiB of int64), i.e. up to 4,096 classes."""


class MetricDict(dict):
    """The dict returned by ``compute()``; a missing ``confusion_matrix`` says why it is missing."""

    def __missing__(self, key: object) -> Any:
        if key == "confusion_matrix":
            raise KeyError(
                "confusion_matrix is only kept in the dense mode; this MulticlassMetrics keeps "
                "per-class counts (tp, support, predicted) because C x C cells would exceed "
                f"MAX_DENSE_CELLS = {MAX_DENSE_CELLS:,}. Create it with dense=True if the "
                "C x C int64 matrix fits in memory."
            )
        raise KeyError(key)


def _divide(num: torch.Tensor, den: torch.Tensor) -> torch.Tensor:
    """``num / den`` in float64, and 0 where ``den == 0`` (scikit-learn's ``zero_division=0``)."""
    num = num.to(torch.float64)
    den = den.to(torch.float64)
    return torch.where(den == 0, torch.zeros_like(num), num / torch.where(den == 0, 1.0, den))


class MulticlassMetrics(StreamingMetric):
    r"""Accuracy, precision, recall, F1 (per class, macro, weighted, micro) from streamed batches.

    The state is one confusion count :math:`C_{ij}` (true class ``i``, predicted ``j``) of int64,
    built with one scatter-add per batch (no loop over classes, no host sync).  ``compute()``
    returns, identical to ``mltutor.metrics`` / scikit-learn with ``zero_division=0`` on the
    concatenated data:

    .. math::

        \mathrm{TP}_k = C_{kk},\quad \mathrm{FP}_k = \sum_i C_{ik} - C_{kk},\quad
        \mathrm{FN}_k = \sum_j C_{kj} - C_{kk},\qquad
        F_{1,k} = \frac{2\,\mathrm{TP}_k}{2\,\mathrm{TP}_k + \mathrm{FP}_k + \mathrm{FN}_k}

    =========================  =====================================================================
    key                        meaning (scikit-learn equivalent)
    =========================  =====================================================================
    ``accuracy``               :math:`\sum_k C_{kk} / \sum_{ij} C_{ij}` (``accuracy_score``)
    ``balanced_accuracy``      mean recall over classes present in the targets
                               (``balanced_accuracy_score``)
    ``macro_*``                mean over the classes that occur in the targets *or* the
                               predictions (``average='macro'`` with the default ``labels``);
                               classes never seen are left out
    ``weighted_*``             mean weighted by support (``average='weighted'``)
    ``micro_*``                from the summed counts (``average='micro'``); for single-label data
                               all three equal ``accuracy``
    ``precision``, ``recall``  per class, length ``num_classes``, indexed by class id
    ``f1``, ``support``        (``average=None, labels=range(num_classes)``); 0 for unseen classes
    ``confusion_matrix``       the int64 count, ``num_classes x num_classes``
                               (``confusion_matrix(labels=range(num_classes))``); dense mode only
    =========================  =====================================================================

    Rates are float64 tensors on the state's device (0-d for averages).

    Parameters
    ----------
    num_classes : int
        Number of classes ``C`` (at least 2); labels are ``0 .. C-1``.
    ignore_index : int, optional
        Samples whose target equals this value are not counted (e.g. ``-100`` for padding).  It
        must be a value the target's dtype can hold (``-1`` on a uint8 target is refused: torch
        would compare it as 255).
    dense : bool, optional
        ``True``: keep the C x C confusion count (``C**2 + 1`` int64).  ``False``: keep per-class
        counts only (``3 C + 1`` int64; every key except ``confusion_matrix``).  Default: dense
        while ``C**2 <= MAX_DENSE_CELLS`` (16,777,216, i.e. ``C <= 4096``), per-class above.
        Both give identical numbers.
    validate_args, sync_on_compute, process_group, device
        See :class:`~mltutor.streaming.StreamingMetric`.  With ``validate_args=True`` each batch
        costs one host sync (the label-range and NaN checks); with ``False``, none.

    Examples
    --------
    >>> import torch
    >>> from mltutor.streaming import MulticlassMetrics
    >>> m = MulticlassMetrics(num_classes=3)
    >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))   # class indices
    >>> m.update(torch.tensor([[2.0, 0.1, 0.3]]), torch.tensor([0]))        # or [B, C] logits
    >>> out = m.compute()
    >>> round(out["accuracy"].item(), 4), round(out["macro_f1"].item(), 4)
    (0.6, 0.5)
    >>> out["confusion_matrix"]
    tensor([[2, 0, 0],
            [0, 1, 1],
            [0, 1, 0]])

    Exact evaluation under ``DistributedSampler`` (which repeats samples to pad the shards):
    pass the dataset indices, and each sample is counted once after the sync.  Memory: 16 bytes
    per sample (its int64 id and its int64 cell code), on top of the fixed state.

    >>> m = MulticlassMetrics(num_classes=3)
    >>> m.update(torch.tensor([0, 2, 1]), torch.tensor([0, 1, 1]), sample_ids=torch.tensor([0, 1, 2]))
    >>> m.update(torch.tensor([0]), torch.tensor([0]), sample_ids=torch.tensor([0]))  # a repeat
    >>> m.compute()["support"]
    tensor([1, 2, 0])
    """

    def __init__(
        self,
        num_classes: int,
        *,
        ignore_index: int | None = None,
        dense: bool | None = None,
        validate_args: bool = True,
        sync_on_compute: bool = True,
        process_group: Any = None,
        device: str | torch.device | None = None,
    ) -> None:
        super().__init__(
            validate_args=validate_args,
            sync_on_compute=sync_on_compute,
            process_group=process_group,
            device=device,
        )
        num_classes = check_scalar(
            num_classes,
            "num_classes",
            int,
            min_val=2,
            expected="an integer >= 2",
            type_error=ValueError,
        )
        if ignore_index is not None:
            ignore_index = check_scalar(
                ignore_index,
                "ignore_index",
                int,
                expected="an integer or None",
                type_error=ValueError,
            )
        if dense is not None and not isinstance(dense, bool):
            raise ValueError(f"dense must be True, False or None (automatic); got {dense!r}.")
        self.num_classes = num_classes
        self.ignore_index = ignore_index
        self.dense = num_classes * num_classes <= MAX_DENSE_CELLS if dense is None else dense
        # One spare cell at the end swallows ignored samples (so that dropping them needs no
        # boolean indexing, which would wait for the device).
        if self.dense:
            self.add_state("confmat", torch.zeros(num_classes * num_classes + 1, dtype=torch.long))
        else:  # [tp | support | predicted | spare]
            self.add_state("class_counts", torch.zeros(3 * num_classes + 1, dtype=torch.long))
        # With sample_ids: per sample its id and its cell code target * C + pred (C * C: ignored).
        self.add_state("ids", torch.zeros(0, dtype=torch.long), "cat")
        self.add_state("id_codes", torch.zeros(0, dtype=torch.long), "cat")

    def _state_range(self, name: str) -> tuple[int | None, int | None]:
        if name == "id_codes":
            return 0, self.num_classes * self.num_classes
        return super()._state_range(name)

    def _parallel_states(self) -> tuple[tuple[str, ...], ...]:
        return (("ids", "id_codes"),)

    def _verify_loaded_totals(self, tensors: dict[str, torch.Tensor]) -> None:
        if not self.dense:
            _checks.check_class_counts(
                type(self).__name__, tensors["class_counts"], self.num_classes
            )

    @property
    def _counts_name(self) -> str:
        return "confmat" if self.dense else "class_counts"

    def _config(self) -> dict[str, Any]:
        return {
            "num_classes": self.num_classes,
            "ignore_index": self.ignore_index,
            "dense": self.dense,
        }

    def _settings(self) -> dict[str, Any]:
        return self._config()

    def update(
        self, preds: torch.Tensor, target: torch.Tensor, sample_ids: torch.Tensor | None = None
    ) -> None:
        """Count one batch.

        Parameters
        ----------
        preds : Tensor
            Predicted class indices, shape ``[B]`` (integer), or scores, shape ``[B, C]`` (float:
            logits or probabilities; the prediction is the argmax, no softmax is needed).
        target : Tensor of int, shape [B]
            True class indices in ``[0, C)`` (or ``ignore_index``).  ``B = 0`` is allowed.
        sample_ids : Tensor of int64, shape [B], optional
            An id per sample (e.g. its dataset index; int64 only, since in a narrower dtype ids
            may have wrapped around unseen).  After a sync each distinct id is counted
            once: the first row in rank order, then update order.  Rows of one id must have the
            same target (else ``compute`` raises).  Use it for every update of an epoch or for
            none (``compute`` refuses a mix).  Costs 16 bytes per sample until ``reset``.
        """
        if self.validate_args:
            _checks.check_multiclass(preds, target, self.num_classes, self.ignore_index)
            if sample_ids is not None:
                _checks.check_sample_ids(sample_ids, target)
        self._start_update(preds, target)
        c = self.num_classes
        if preds.ndim == 2:
            preds = preds.argmax(dim=1)  # integer result: no autograd graph is recorded
        target = target.long()
        codes = torch.add(preds.long(), target, alpha=c)  # target * C + preds, one kernel
        if self.ignore_index is not None:
            codes = torch.where(target == self.ignore_index, c * c, codes)
        if sample_ids is None:
            self._add_codes(getattr(self, self._counts_name), codes)
        else:  # kept as rows, counted after deduplication (codes is a fresh tensor already)
            self.ids.append(sample_ids.detach().to(torch.long, copy=True))
            self.id_codes.append(codes)

    def _add_codes(self, counts: torch.Tensor, codes: torch.Tensor) -> None:
        """Add samples, given as cell codes ``target * C + pred`` (``C * C``: ignored), in place."""
        c = self.num_classes
        if self.dense:
            counts.index_add_(0, codes, self._one.expand(codes.shape[0]))
            return
        spare = 3 * c
        ignored = codes == c * c
        t, p = torch.div(codes, c, rounding_mode="floor"), codes % c
        slots = torch.cat(
            [
                torch.where(ignored | (t != p), spare, t),  # tp
                torch.where(ignored, spare, c + t),  # support
                torch.where(ignored, spare, 2 * c + p),  # predicted
            ]
        )
        counts.index_add_(0, slots, self._one.expand(slots.shape[0]))

    def _deduplicated_counts(self, state: dict[str, torch.Tensor]) -> torch.Tensor:
        """The count state, with samples given by id counted once per distinct id."""
        counts = state[self._counts_name]
        ids = state["ids"]
        if ids.shape[0] == 0:
            return counts
        if counts.sum().item() != 0:
            raise ValueError(
                "MulticlassMetrics was updated both with and without sample_ids (on this rank or "
                "another); samples without ids cannot be deduplicated. Pass sample_ids to every "
                "update of the epoch, on every rank, or to none."
            )
        codes = state["id_codes"]
        c = self.num_classes
        keep = first_occurrences(ids, torch.div(codes, c, rounding_mode="floor"))
        counts = torch.zeros_like(counts)
        self._add_codes(counts, codes[keep])
        return counts

    def _compute(self, state: dict[str, torch.Tensor]) -> dict[str, Any]:
        c = self.num_classes
        counts = self._deduplicated_counts(state)
        cm = None
        if self.dense:
            cm = counts[: c * c].view(c, c)
            tp, true_sum, pred_sum = cm.diagonal(), cm.sum(dim=1), cm.sum(dim=0)
        else:
            tp, true_sum, pred_sum = counts[:c], counts[c : 2 * c], counts[2 * c : 3 * c]
        total = true_sum.sum()
        if total.item() == 0:
            raise ValueError(
                "MulticlassMetrics has seen no samples: call update() with at least one "
                "(non-ignored) sample before compute()."
            )
        precision = _divide(tp, pred_sum)
        recall = _divide(tp, true_sum)
        f1 = _divide(2 * tp, true_sum + pred_sum)
        seen = (true_sum + pred_sum) > 0  # scikit-learn's default labels: in targets or preds
        in_true = true_sum > 0
        weights = true_sum.to(torch.float64)

        def macro(values: torch.Tensor) -> torch.Tensor:
            return values[seen].mean()

        def weighted(values: torch.Tensor) -> torch.Tensor:
            return (values * weights).sum() / weights.sum()

        tp_all, true_all, pred_all = tp.sum(), true_sum.sum(), pred_sum.sum()
        micro_p = _divide(tp_all, pred_all)
        micro_r = _divide(tp_all, true_all)
        out = MetricDict(
            {
                "accuracy": _divide(tp_all, total),
                "balanced_accuracy": recall[in_true].mean(),
                "macro_precision": macro(precision),
                "macro_recall": macro(recall),
                "macro_f1": macro(f1),
                "weighted_precision": weighted(precision),
                "weighted_recall": weighted(recall),
                "weighted_f1": weighted(f1),
                "micro_precision": micro_p,
                "micro_recall": micro_r,
                "micro_f1": _divide(2 * tp_all, true_all + pred_all),
                "precision": precision,
                "recall": recall,
                "f1": f1,
                "support": true_sum.clone(),
            }
        )
        if cm is not None:
            out["confusion_matrix"] = cm.clone()
        return out
