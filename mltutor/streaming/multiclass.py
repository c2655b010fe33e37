"""Streaming multiclass metrics: one C x C confusion count, one scatter-add per batch.

The whole state is kernel 1 of the course (:mod:`mltutor.confusion`) kept as a tensor::

    codes = target * C + preds                       # the cell (true, predicted) of each sample
    state.index_add_(0, codes, ones)                 # a bincount, added into the state in place

Every number of ``classification_report`` is arithmetic on that count, so the batches can be
counted in any order, on any device, on any number of processes, and summed.
"""

from __future__ import annotations

from typing import Any

import torch

from . import _checks
from .base import StreamingMetric

__all__ = ["MulticlassMetrics"]


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
                               (``confusion_matrix(labels=range(num_classes))``)
    =========================  =====================================================================

    Rates are float64 tensors on the state's device (0-d for averages).

    Parameters
    ----------
    num_classes : int
        Number of classes ``C`` (at least 2); labels are ``0 .. C-1``.
    ignore_index : int, optional
        Samples whose target equals this value are not counted (e.g. ``-100`` for padding).
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
    """

    def __init__(
        self,
        num_classes: int,
        *,
        ignore_index: int | None = None,
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
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 2:
            raise ValueError(f"num_classes must be an integer >= 2; got {num_classes!r}.")
        if ignore_index is not None and (isinstance(ignore_index, bool) or not isinstance(ignore_index, int)):
            raise ValueError(f"ignore_index must be an integer or None; got {ignore_index!r}.")
        self.num_classes = num_classes
        self.ignore_index = ignore_index
        # C*C cells, plus one spare cell that swallows ignored samples (so that dropping them
        # needs no boolean indexing, which would wait for the device).
        self.add_state("confmat", torch.zeros(num_classes * num_classes + 1, dtype=torch.long))

    def _config(self) -> tuple:
        return (type(self), self.num_classes, self.ignore_index)

    def _settings(self) -> dict[str, Any]:
        return {"num_classes": self.num_classes, "ignore_index": self.ignore_index}

    def update(self, preds: torch.Tensor, target: torch.Tensor) -> None:
        """Count one batch.

        Parameters
        ----------
        preds : Tensor
            Predicted class indices, shape ``[B]`` (integer), or scores, shape ``[B, C]`` (float:
            logits or probabilities; the prediction is the argmax, no softmax is needed).
        target : Tensor of int, shape [B]
            True class indices in ``[0, C)`` (or ``ignore_index``).  ``B = 0`` is allowed.
        """
        if self.validate_args:
            _checks.check_multiclass(preds, target, self.num_classes, self.ignore_index)
        self._start_update(preds, target)
        c = self.num_classes
        if preds.ndim == 2:
            preds = preds.argmax(dim=1)  # integer result: no autograd graph is recorded
        target = target.long()
        codes = torch.add(preds.long(), target, alpha=c)  # target * C + preds, one kernel
        if self.ignore_index is not None:
            codes = torch.where(target == self.ignore_index, c * c, codes)
        self.confmat.index_add_(0, codes, self._one.expand(codes.shape[0]))

    def _compute(self, state: dict[str, torch.Tensor]) -> dict[str, Any]:
        c = self.num_classes
        cm = state["confmat"][: c * c].view(c, c)
        total = cm.sum()
        if total.item() == 0:
            raise ValueError(
                "MulticlassMetrics has seen no samples: call update() with at least one "
                "(non-ignored) sample before compute()."
            )
        tp = cm.diagonal()
        true_sum = cm.sum(dim=1)  # support
        pred_sum = cm.sum(dim=0)
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
        return {
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
            "confusion_matrix": cm.clone(),
        }
