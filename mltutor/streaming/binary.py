r"""Streaming binary metrics: P/R/F1 at a threshold, and ROC/PR curves with AUC and AP.

Two ways to keep what the curves need:

* **exact** (``thresholds=None``): keep every score (8 bytes) and label (1 byte).  ``compute()``
  runs kernel 2 of the course, the sorted-score cumulative counts (:mod:`mltutor.curves`), in
  torch: one stable sort, two cumulative sums read at the end of each run of tied scores.  The
  results equal scikit-learn's ``roc_curve`` / ``roc_auc_score`` / ``precision_recall_curve`` /
  ``average_precision_score``.  Memory grows with the data.
* **binned** (``thresholds=T`` or a tensor of thresholds): keep, for each of the ``T + 1`` gaps
  between sorted thresholds, how many positives and negatives fell in it.  Memory is fixed; the
  curve is the exact curve read at the chosen thresholds only, and ``compute()`` reports a
  guaranteed bound on the error of AUC and AP next to them.

The bounds.  Going from one kept threshold to the next, the exact curve may pass through points
that the binned curve skips.  The ROC curve is monotone, so between two kept points
:math:`(f_a, t_a)` and :math:`(f_b, t_b)` it stays inside their rectangle, and its area there
differs from the trapezoid by at most half the rectangle:

.. math:: |\mathrm{AUC} - \widehat{\mathrm{AUC}}| \le \tfrac12 \sum_k \Delta\mathrm{FPR}_k\,
          \Delta\mathrm{TPR}_k \;\le\; \tfrac12 \max_k \Delta\mathrm{TPR}_k .

For AP, each recall step inside a bin has a precision between
:math:`(\mathrm{tp}_a+1)/(\mathrm{tp}_a+1+\mathrm{fp}_b)` and
:math:`\mathrm{tp}_b/(\mathrm{tp}_b+\mathrm{fp}_a)`, while the binned AP uses the precision at the
bin's end, so the error is at most :math:`\sum_k \Delta R_k \max(P_b - P_{\min}, P_{\max} - P_b)`.
Both bounds are computed from the binned state itself, so every binned result comes with its own
worst case.  When every distinct score lies on a threshold, each bin holds one score value at
most, the binned curve passes through every vertex of the exact one, and the binned AUC and AP
equal the exact ones up to float rounding (the bounds stay positive where a tie mixes both
classes: they cannot tell a tie from a bin of several scores).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import torch

from .._validation import UndefinedMetricWarning, warn
from .._validation import streaming as _checks
from .._validation.params import check_scalar
from ._sample_ids import first_occurrences
from .base import StreamingMetric

__all__ = ["BinaryMetrics", "CumulativeCounts", "cumulative_counts"]

_IGNORED = 2  # label code of an ignored sample inside the state


class CumulativeCounts(NamedTuple):
    """Counts at each distinct score, highest first (the torch twin of ``mltutor.curves.BinaryCounts``)."""

    fps: torch.Tensor
    tps: torch.Tensor
    thresholds: torch.Tensor


def cumulative_counts(is_positive: torch.Tensor, scores: torch.Tensor) -> CumulativeCounts:
    """Kernel 2 in torch: negatives and positives with ``score >= s`` at every distinct score ``s``.

    The same sort and cumulative sums as :func:`mltutor.curves.binary_counts` (and scikit-learn's
    ``confusion_matrix_at_thresholds``), on any device, in int64: no rounding at all.

    Parameters
    ----------
    is_positive : Tensor of bool, shape [n]
    scores : Tensor of float, shape [n], finite

    Returns
    -------
    CumulativeCounts
        ``(fps, tps, thresholds)``; ``fps`` and ``tps`` int64, ``thresholds`` the distinct scores in
        decreasing order.

    Examples
    --------
    >>> import torch
    >>> from mltutor.streaming import cumulative_counts
    >>> fps, tps, thr = cumulative_counts(torch.tensor([False, False, True, True]),
    ...                                   torch.tensor([0.1, 0.4, 0.35, 0.8]))
    >>> thr.tolist(), tps.tolist(), fps.tolist()
    ([0.800000011920929, 0.4000000059604645, 0.3499999940395355, 0.10000000149011612], [1, 1, 2, 2], [0, 1, 1, 2])
    """
    order = torch.argsort(scores, descending=True, stable=True)
    s = scores[order]
    pos = is_positive[order].long()
    n = s.shape[0]
    last = torch.nonzero(s[1:] != s[:-1]).flatten()  # end of each run of tied scores
    last = torch.cat([last, torch.full((1,), n - 1, dtype=last.dtype, device=last.device)])
    tps = torch.cumsum(pos, 0)[last]
    fps = last + 1 - tps
    return CumulativeCounts(fps, tps, s[last])


def _divide(num: torch.Tensor, den: torch.Tensor) -> torch.Tensor:
    num = num.to(torch.float64)
    den = den.to(torch.float64)
    return torch.where(den == 0, torch.zeros_like(num), num / torch.where(den == 0, 1.0, den))


def _curves(
    fps: torch.Tensor, tps: torch.Tensor, thresholds: torch.Tensor
) -> dict[str, torch.Tensor]:
    """ROC and PR curves, AUC and AP from cumulative counts (decreasing thresholds, as sklearn)."""
    p, n = tps[-1], fps[-1]
    zero = tps.new_zeros(1)
    fpr = torch.cat([zero, fps]).to(torch.float64) / n.to(torch.float64)
    tpr = torch.cat([zero, tps]).to(torch.float64) / p.to(torch.float64)
    roc_thr = torch.cat([thresholds.new_full((1,), math.inf), thresholds])
    if p.item() == 0 or n.item() == 0:
        which = "positive" if p.item() == 0 else "negative"
        warn(
            f"No {which} samples: ROC AUC is not defined and is set to nan.", UndefinedMetricWarning
        )
        auroc = torch.tensor(math.nan, dtype=torch.float64, device=tps.device)
    else:
        auroc = torch.trapezoid(tpr, fpr)
    precision = _divide(tps, tps + fps)
    if p.item() == 0:
        warn(
            "No positive samples: recall is set to 1 at every threshold (as scikit-learn does).",
            UndefinedMetricWarning,
        )
        recall = torch.ones_like(precision)
    else:
        recall = tps.to(torch.float64) / p.to(torch.float64)
    ap = (torch.diff(recall, prepend=recall.new_zeros(1)) * precision).sum()
    one = precision.new_ones(1)
    return {
        "roc_fpr": fpr,
        "roc_tpr": tpr,
        "roc_thresholds": roc_thr,
        "auroc": auroc,
        # scikit-learn's precision_recall_curve layout: increasing thresholds, then (P=1, R=0).
        "pr_precision": torch.cat([precision.flip(0), one]),
        "pr_recall": torch.cat([recall.flip(0), one.new_zeros(1)]),
        "pr_thresholds": thresholds.flip(0),
        "average_precision": ap,
    }


def _error_bounds(fps: torch.Tensor, tps: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Bounds on |exact - binned| for AUC and AP, from counts at the kept thresholds.

    ``fps``/``tps`` are in decreasing-threshold order and end with the totals (threshold -inf);
    a point (0, 0) at +inf is put in front here.
    """
    zero = tps.new_zeros(1)
    f = torch.cat([zero, fps]).to(torch.float64)
    t = torch.cat([zero, tps]).to(torch.float64)
    p, n = t[-1], f[-1]
    if p.item() == 0 or n.item() == 0:
        nan = torch.tensor(math.nan, dtype=torch.float64, device=tps.device)
        return nan, nan
    df, dt = torch.diff(f), torch.diff(t)
    auc_bound = 0.5 * (df * dt).sum() / (n * p)
    ta, tb, fa, fb = t[:-1], t[1:], f[:-1], f[1:]
    p_lo = (ta + 1) / (ta + 1 + fb)
    p_hi = tb / torch.where(tb + fa == 0, 1.0, tb + fa)
    p_b = tb / torch.where(tb + fb == 0, 1.0, tb + fb)
    worst = torch.maximum(p_b - p_lo, p_hi - p_b)
    ap_bound = torch.where(dt > 0, dt / p * worst, torch.zeros_like(dt)).sum()
    return auc_bound, ap_bound


class BinaryMetrics(StreamingMetric):
    r"""Streaming binary metrics: at one threshold, and over all thresholds (ROC, PR, AUC, AP).

    A sample is predicted positive when ``score >= threshold`` (scikit-learn's curve convention;
    torchmetrics' stat scores use ``>``).  Scores are used as given: probabilities with
    ``threshold=0.5``, or logits with ``threshold=0.0``; nothing applies a sigmoid for you
    (torchmetrics does when a score lies outside [0, 1], which needs a look at the data).

    ``compute()`` returns a dict of float64 / int64 tensors:

    * at ``threshold``: ``tp``, ``fp``, ``fn``, ``tn``, ``accuracy``, ``precision``, ``recall``,
      ``f1``, ``specificity`` (0 where a ratio is 0/0, as ``zero_division=0``);
    * ``auroc``, ``average_precision`` and their ``auroc_error_bound`` /
      ``average_precision_error_bound`` (0 in exact mode);
    * ``roc_fpr``, ``roc_tpr``, ``roc_thresholds`` (``roc_curve(drop_intermediate=False)``
      layout, starting at threshold +inf) and ``pr_precision``, ``pr_recall``, ``pr_thresholds``
      (``precision_recall_curve`` layout).  In binned mode the thresholds are the kept ones
      plus -inf at the end (every sample predicted positive).

    Parameters
    ----------
    thresholds : None, int or 1-D tensor/sequence, default=None
        ``None``: exact curves (the scores are kept).  An int ``T >= 2``: ``T`` evenly spaced
        thresholds in [0, 1] (``torch.linspace(0, 1, T)``).  A tensor or sequence: these
        thresholds (sorted; duplicates dropped).  Binned state: ``3 (T + 1)`` int64 counts
        (negatives, positives, ignored), plus the six outcome counts at ``threshold``.
    threshold : float, default=0.5
        The decision threshold for ``tp`` ... ``f1``.

        Both ``threshold`` and ``thresholds`` are compared in the dtype of each batch's scores:
        they are cast to it (``.to(preds.dtype)``), so ``score >= threshold`` holds when both
        were written as the same decimal (a float32 score of 0.29 counts at the threshold 0.29,
        which it would not after widening to float64: ``float32(0.29) < 0.29``).  That is what
        torchmetrics' ``BinaryPrecisionRecallCurve`` does when given thresholds of the scores'
        dtype; its default float32 thresholds put a float16 score of 0.1 below 0.1.  The price
        is the dtype's resolution: thresholds that round to one value (0.1 and 0.09999 in
        float16) count the same scores.
    ignore_index : int, optional
        Samples whose integer target equals this value are skipped.  It applies to integer
        targets only, and must be a value their dtype can hold (``-1`` on a uint8 target is
        refused: torch would compare it as 255).  A bool target holds labels only, no marker,
        so nothing of it is ignored: ``True`` is always a positive, ``False`` a negative.  That is
        what torchmetrics' stat scores do with ``ignore_index=1`` (torchmetrics 1.9 is not
        consistent here: its ``BinaryAUROC`` drops the positives instead, and with
        ``ignore_index=0`` its stat scores turn the negatives into positives).  Float targets are
        refused.
    validate_args, sync_on_compute, process_group, device
        See :class:`~mltutor.streaming.StreamingMetric`.

    Notes
    -----
    ``update`` copies the scores it keeps (float64, contiguous), whatever their dtype, so a
    caller may reuse one score buffer for every batch.  With ``sample_ids`` every mode keeps 17
    bytes per sample (int64 id, int8 outcome code, and the float64 score or, binned, the int64
    bucket) until ``reset``, and counts each distinct id once after the sync; see :meth:`update`.

    Examples
    --------
    >>> import torch
    >>> from mltutor.streaming import BinaryMetrics
    >>> target = torch.tensor([0, 0, 1, 1])
    >>> scores = torch.tensor([0.1, 0.4, 0.35, 0.8])
    >>> exact = BinaryMetrics()
    >>> exact.update(scores, target)
    >>> out = exact.compute()
    >>> out["auroc"].item(), out["average_precision"].item()
    (0.75, 0.8333333333333333)
    >>> binned = BinaryMetrics(thresholds=5)            # thresholds 0, .25, .5, .75, 1
    >>> binned.update(scores, target)
    >>> out = binned.compute()
    >>> out["auroc"].item(), out["auroc_error_bound"].item()   # 0.35 and 0.4 share a bin
    (0.875, 0.125)
    """

    def __init__(
        self,
        thresholds: None | int | torch.Tensor | list[float] = None,
        *,
        threshold: float = 0.5,
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
        threshold = float(threshold)
        if not math.isfinite(threshold):
            raise ValueError(f"threshold must be a finite number; got {threshold!r}.")
        if ignore_index is not None:
            ignore_index = check_scalar(
                ignore_index,
                "ignore_index",
                int,
                expected="an integer or None",
                type_error=ValueError,
            )
        self.threshold = threshold
        self.ignore_index = ignore_index
        self.thresholds = _checks.check_thresholds(thresholds)
        # `threshold` as a tensor, so it is cast to the scores' dtype like the thresholds are.
        self._cut = torch.tensor(threshold, dtype=torch.float64, device=self.device)
        # Outcome counts at `threshold`: index 2 * label + (score >= threshold); label 2 = ignored.
        self.add_state("counts", torch.zeros(6, dtype=torch.long))
        if self.thresholds is None:
            self.add_state("scores", torch.zeros(0, dtype=torch.float64), "cat")
            self.add_state("labels", torch.zeros(0, dtype=torch.int8), "cat")
        else:
            self.thresholds = self.thresholds.to(self.device)
            self.add_state(
                "hist", torch.zeros(3 * (self.thresholds.shape[0] + 1), dtype=torch.long)
            )
        # With sample_ids: one row per sample, counted after deduplication: the id, the outcome
        # code at `threshold`, and the score (exact) or the histogram bucket (binned), both
        # decided at update time, in the dtype of the scores.
        self.add_state("ids", torch.zeros(0, dtype=torch.long), "cat")
        self.add_state("id_codes", torch.zeros(0, dtype=torch.int8), "cat")
        if self.thresholds is None:
            self.add_state("id_scores", torch.zeros(0, dtype=torch.float64), "cat")
        else:
            self.add_state("id_buckets", torch.zeros(0, dtype=torch.long), "cat")

    def _state_range(self, name: str) -> tuple[int | None, int | None]:
        ranges = {
            "labels": (0, _IGNORED),
            "id_codes": (0, 2 * _IGNORED + 1),
            "id_buckets": (0, None if self.thresholds is None else self.thresholds.shape[0]),
        }
        return ranges.get(name, super()._state_range(name))

    def _parallel_states(self) -> tuple[tuple[str, ...], ...]:
        return (("scores", "labels"), ("ids", "id_codes", "id_scores", "id_buckets"))

    def _verify_loaded_totals(self, tensors: dict[str, torch.Tensor]) -> None:
        if self.binned:
            per_label, name = tensors["hist"].view(3, -1).sum(dim=1), "hist"
        else:
            per_label = torch.bincount(tensors["labels"].long(), minlength=_IGNORED + 1)
            name = "labels"
        _checks.check_label_totals(type(self).__name__, tensors["counts"], per_label, name)

    @property
    def binned(self) -> bool:
        """Whether the curves are binned (fixed memory) rather than exact."""
        return self.thresholds is not None

    def _config(self) -> dict[str, Any]:
        thr = None if self.thresholds is None else tuple(self.thresholds.tolist())
        return {"thresholds": thr, "threshold": self.threshold, "ignore_index": self.ignore_index}

    def _settings(self) -> dict[str, Any]:
        thr = None if self.thresholds is None else self.thresholds.shape[0]
        return {"thresholds": thr, "threshold": self.threshold, "ignore_index": self.ignore_index}

    def to(self, device: str | torch.device) -> BinaryMetrics:
        super().to(device)
        self._cut = self._cut.to(device)
        if self.thresholds is not None:
            self.thresholds = self.thresholds.to(device)
        return self

    def update(
        self, preds: torch.Tensor, target: torch.Tensor, sample_ids: torch.Tensor | None = None
    ) -> None:
        """Count one batch.

        Parameters
        ----------
        preds : Tensor of float, shape [B]
            Scores: probabilities or logits (higher means "more positive"), finite.  Any float
            dtype, compared with the thresholds in that dtype (see ``threshold``); exact mode
            keeps a float64 copy (float16 and bfloat16 widen exactly).
        target : Tensor of int or bool, shape [B]
            0/1 labels (or ``ignore_index``).  ``B = 0`` is allowed.
        sample_ids : Tensor of int64, shape [B], optional
            An id per sample (e.g. its dataset index; int64 only, since in a narrower dtype ids
            may have wrapped around unseen), for exact evaluation under
            ``DistributedSampler``, which repeats samples to pad the shards.  After the sync each
            distinct id is counted once: the first row in rank order, then update order.  A
            repeat cannot be recognised on its own rank (the other copy is on another), so every
            sample's row is kept (17 bytes) and the deduplication runs in ``compute``.  Rows of
            one id must have the same target (else ``compute`` raises); their scores may differ
            in the last bits and are not compared.  Use it for every update of an epoch or for
            none (``compute`` refuses a mix).
        """
        if self.validate_args:
            _checks.check_binary(preds, target, self.ignore_index)
            if sample_ids is not None:
                _checks.check_sample_ids(sample_ids, target)
        self._start_update(preds, target)
        preds = preds.detach()
        label = self._label_codes(target)
        code, bucket = self._classify(preds, label)
        if not self.binned:
            # A copy, always: .to() returns the caller's own tensor when it is float64 already.
            scores = preds.to(torch.float64, memory_format=torch.contiguous_format, copy=True)
        if sample_ids is not None:
            self.ids.append(sample_ids.detach().to(torch.long, copy=True))
            self.id_codes.append(code.to(torch.int8))
            if self.binned:
                self.id_buckets.append(bucket)
            else:
                self.id_scores.append(scores)
            return
        self._count(self.counts, self.hist if self.binned else None, code, bucket)
        if not self.binned:
            self.scores.append(scores)
            self.labels.append(label.to(torch.int8))

    def _label_codes(self, target: torch.Tensor) -> torch.Tensor:
        """0/1 labels as int64, ``_IGNORED`` for ignored samples (integer targets only)."""
        label = target.long()  # compare in int64: no wrap-around
        if self.ignore_index is not None and target.dtype != torch.bool:
            label = torch.where(label == self.ignore_index, _IGNORED, label)
        return label

    def _classify(
        self, preds: torch.Tensor, label: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Outcome codes ``2 * label + (score >= threshold)`` and, when binned, histogram buckets.

        Compared in the dtype of ``preds``: ``threshold`` and ``thresholds`` are cast to it (as
        ``.to(preds.dtype)`` rounds), so a float32 score of 0.29 is ``>=`` a threshold of 0.29,
        as the user meant.  Widening the score to float64 instead would put it below
        (``float32(0.29) < 0.29``).  Bucket ``b`` = number of thresholds ``<= score``, so the
        sample counts at ``thresholds[:b]``; thresholds that round to one value are kept apart
        and give equal counts.
        """
        code = 2 * label + (preds >= self._cut.to(preds.dtype)).long()
        if not self.binned:
            return code, None
        scores = preds.contiguous()  # searchsorted copies (and warns about) strided input
        return code, torch.bucketize(scores, self.thresholds.to(preds.dtype), right=True)

    def _count(
        self,
        counts: torch.Tensor,
        hist: torch.Tensor | None,
        code: torch.Tensor,
        bucket: torch.Tensor | None,
    ) -> None:
        """Add samples (see :meth:`_classify`) to ``counts`` and, when binned, ``hist``, in place."""
        counts.index_add_(0, code, self._one.expand(code.shape[0]))
        if hist is not None:
            label = torch.div(code, 2, rounding_mode="floor")
            cells = label * (self.thresholds.shape[0] + 1) + bucket
            hist.index_add_(0, cells, self._one.expand(cells.shape[0]))

    def _deduplicated(self, state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """The state with the rows given by id counted once per distinct id."""
        ids = state["ids"]
        if ids.shape[0] == 0:
            return state
        if state["counts"].sum().item() != 0:
            raise ValueError(
                "BinaryMetrics was updated both with and without sample_ids (on this rank or "
                "another); samples without ids cannot be deduplicated. Pass sample_ids to every "
                "update of the epoch, on every rank, or to none."
            )
        labels = torch.div(state["id_codes"], 2, rounding_mode="floor")
        keep = first_occurrences(ids, labels)
        code = state["id_codes"][keep].long()
        state = dict(state, counts=torch.zeros_like(state["counts"]))
        if self.binned:
            state["hist"] = torch.zeros_like(state["hist"])
            self._count(state["counts"], state["hist"], code, state["id_buckets"][keep])
        else:
            self._count(state["counts"], None, code, None)
            state["scores"], state["labels"] = state["id_scores"][keep], labels[keep]
        return state

    def _compute(self, state: dict[str, torch.Tensor]) -> dict[str, Any]:
        state = self._deduplicated(state)
        tn, fp, fn, tp = state["counts"][:4]
        total = tn + fp + fn + tp
        if total.item() == 0:
            raise ValueError(
                "BinaryMetrics has seen no samples: call update() with at least one "
                "(non-ignored) sample before compute()."
            )
        out: dict[str, Any] = {
            "threshold": self.threshold,
            "tp": tp.clone(),
            "fp": fp.clone(),
            "fn": fn.clone(),
            "tn": tn.clone(),
            "accuracy": _divide(tp + tn, total),
            "precision": _divide(tp, tp + fp),
            "recall": _divide(tp, tp + fn),
            "f1": _divide(2 * tp, 2 * tp + fp + fn),
            "specificity": _divide(tn, tn + fp),
        }
        if self.thresholds is None:
            keep = state["labels"] != _IGNORED
            counts = cumulative_counts(state["labels"][keep] == 1, state["scores"][keep])
            out.update(_curves(*counts))
            zero = torch.zeros((), dtype=torch.float64, device=tp.device)
            out["auroc_error_bound"] = zero
            out["average_precision_error_bound"] = zero.clone()
        else:
            k = self.thresholds.shape[0] + 1
            hist = state["hist"].view(3, k)[:2]
            # at_least[:, j] = samples with bucket >= j; threshold i is kept by bucket >= i + 1.
            at_least = hist.flip(1).cumsum(1).flip(1)
            fps = torch.cat([at_least[0, 1:].flip(0), at_least[0, :1]])  # decreasing, then -inf
            tps = torch.cat([at_least[1, 1:].flip(0), at_least[1, :1]])
            thr = torch.cat([self.thresholds.flip(0), self.thresholds.new_full((1,), -math.inf)])
            out.update(_curves(fps, tps, thr))
            out["auroc_error_bound"], out["average_precision_error_bound"] = _error_bounds(fps, tps)
        return out
