"""Constrained operating points: the threshold that meets a required recall or precision.

"Find at least 95 % of the positives" is met on validation data by the highest threshold whose
validation recall reaches 0.95.  That threshold sits at the edge of a noisy estimate: deployed
on fresh data from the same distribution, its true recall falls below 0.95 roughly half the time
(with continuous scores and ``k = ceil(0.95 n)`` of the ``n`` positives kept, the true recall is
Beta(k, n − k + 1), below 0.95 with probability 0.43 to 0.65 for ``n`` from 50 to 1,000).
:func:`threshold_for_recall` with ``confidence`` keeps a margin instead: the highest threshold at
which a one-sided Clopper–Pearson lower confidence bound of the recall is still at least the
target.  Both are arithmetic on kernel 2's counts (one sort, no loop over thresholds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_binary_scores
from .._validation.decisions import check_confidence, check_min_rate
from ..stats._beta_quantile import beta_lower_quantile
from ._counts import cumulative_counts

__all__ = ["ConstrainedThreshold", "threshold_for_precision", "threshold_for_recall"]


@dataclass(frozen=True)
class ConstrainedThreshold:
    """A threshold chosen to meet a required rate, with its counts on the data it was chosen on.

    The rule is "predict positive when ``score >= threshold``".

    Attributes
    ----------
    threshold : float
        The chosen threshold (one of the distinct scores).
    recall, precision : float
        Recall ``TP / P`` and precision ``TP / (TP + FP)`` at that threshold, on the given data.
    lower_bound : float or None
        The one-sided Clopper–Pearson lower bound of the recall at level ``confidence`` (None for
        the empirical rule and for :func:`threshold_for_precision`).
    confidence : float or None
        The level used (None: the empirical rule).
    tp, fp, fn, tn : int
        The confusion counts at the threshold.
    """

    threshold: float
    recall: float
    precision: float
    lower_bound: float | None
    confidence: float | None
    tp: int
    fp: int
    fn: int
    tn: int


def _recall_lower_bound(kept: Any, n_pos: int, confidence: float) -> np.ndarray:
    r"""One-sided Clopper–Pearson lower bound of a recall ``kept / n_pos``, at level ``confidence``.

    .. math::

        L = B^{-1}(1 - c;\ k,\ n - k + 1), \qquad L = 0 \text{ at } k = 0,

    the ``1 - c`` quantile of Beta(k, n − k + 1) :cite:p:`clopper1934use`.  For continuous scores
    and validation positives drawn i.i.d., the true recall of the threshold at the ``k``-th
    highest positive score is Beta(k, n − k + 1) distributed, so ``P(true recall < L) <= 1 - c``.
    Its inputs are not checked here (:func:`threshold_for_recall` checks them).
    """
    k = np.asarray(kept, dtype=np.float64)
    low = np.zeros(k.shape)
    has = k > 0
    if has.any():
        low[has] = beta_lower_quantile(math.log1p(-confidence), k[has], n_pos - k[has] + 1.0)[0]
    return low


def _operating_point(tps, fps, i, lower_bound, confidence) -> tuple:
    n_pos, n_neg = tps[-1], fps[-1]
    tp, fp = tps[i], fps[i]
    return (
        float(tp / n_pos),
        float(tp / (tp + fp)),
        lower_bound,
        confidence,
        int(tp),
        int(fp),
        int(n_pos - tp),
        int(n_neg - fp),
    )


def threshold_for_recall(
    y_true: Any,
    y_score: Any,
    *,
    min_recall: float,
    confidence: float | None = None,
    pos_label: Any = None,
) -> ConstrainedThreshold:
    r"""The highest threshold whose recall meets ``min_recall`` on this data, or, with
    ``confidence``, whose recall's lower confidence bound does.

    With ``k(t)`` the positives scoring ``>= t`` among the ``n`` positives:

    * ``confidence=None`` (the empirical rule): the highest distinct score ``t`` with
      :math:`k(t)/n \ge r_\min`;
    * ``confidence=c``: the highest ``t`` with
      :math:`L(t) = B^{-1}(1 - c; k, n - k + 1) \ge r_\min`, the one-sided Clopper–Pearson
      lower bound :cite:p:`clopper1934use` (the ``1 - c`` quantile of Beta(k, n − k + 1)).

    What the bound promises: over repetitions of the validation draw (positives i.i.d. from the
    population met in deployment, continuous scores, the model fixed), the true recall of the
    chosen threshold is below ``min_recall`` with probability at most ``1 - c``.  It promises
    nothing about one deployment sample's recall, which scatters around the true recall, nor
    under a shift between validation and deployment.  The empirical rule gives no such promise:
    its true recall falls below the target roughly half the time, with probability
    :math:`I_{r_\min}(k, n - k + 1)` for :math:`k = \lceil r_\min n \rceil` (0.43 to 0.65 for
    ``min_recall=0.95`` and ``n`` from 50 to 1,000; chapter 3 simulates both rules).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (binary, or multiclass with ``pos_label``); at least one positive.
    y_score : array-like of shape (n_samples,)
        Scores; larger means "more positive".
    min_recall : float
        The required recall, in (0, 1].
    confidence : float, default=None
        None for the empirical rule, else the level of the one-sided lower bound, in [0.5, 1).
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1.

    Returns
    -------
    ConstrainedThreshold
        The threshold, its recall, precision and counts on this data, and the lower bound.

    Raises
    ------
    ValueError
        No positives; or, with ``confidence``, too few positives for any threshold to qualify
        (keeping all ``n`` gives the bound :math:`(1 - c)^{1/n}`, so ``n`` must be at least
        :math:`\log(1 - c) / \log r_\min`; the message says how many).

    Examples
    --------
    >>> y = [1] * 10 + [0] * 10
    >>> s = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.2] + [0.1 * i for i in range(10)]
    >>> point = threshold_for_recall(y, s, min_recall=0.9)
    >>> point.threshold, point.recall, point.tp, point.fp
    (0.55, 0.9, 9, 4)
    >>> threshold_for_recall(y, s, min_recall=0.7, confidence=0.95).threshold
    0.2
    """
    min_recall = check_min_rate(min_recall, "min_recall")
    confidence = check_confidence(confidence)
    is_positive, scores, _, _ = check_binary_scores(y_true, y_score, pos_label)
    fps, tps, thresholds = cumulative_counts(is_positive, scores, None)
    n_pos = int(tps[-1])
    if n_pos == 0:
        raise ValueError("y_true has no positives: recall is undefined, no threshold meets it.")
    if confidence is None:
        lower = None
        ok = tps / n_pos >= min_recall
    else:
        lower = _recall_lower_bound(tps, n_pos, confidence)
        ok = lower >= min_recall
        if not ok[-1]:
            need = (
                "A lower bound of 1 is never reached: ask for min_recall < 1."
                if min_recall == 1
                else f"This needs at least "
                f"{math.ceil(math.log1p(-confidence) / math.log(min_recall))} positives "
                "(and more for a threshold that drops any)."
            )
            raise ValueError(
                f"With {n_pos} positives no threshold has a {confidence:g} lower bound of recall "
                f">= {min_recall:g}: even keeping all of them gives {lower[-1]:.4f}. {need}"
            )
    i = int(np.argmax(ok))  # first True = highest threshold (recall never falls as t falls)
    bound = None if lower is None else float(lower[i])
    return ConstrainedThreshold(
        float(thresholds[i]), *_operating_point(tps, fps, i, bound, confidence)
    )


def threshold_for_precision(
    y_true: Any, y_score: Any, *, min_precision: float, pos_label: Any = None
) -> ConstrainedThreshold:
    r"""The threshold with the highest recall among those whose precision meets ``min_precision``.

    .. math::

        t^\ast = \min\{t \in \text{distinct scores} : \tfrac{TP(t)}{TP(t) + FP(t)} \ge p_\min\}

    (the lowest such threshold: recall never falls as the threshold falls).  Precision is not
    monotone in the threshold, so thresholds above ``t*`` may miss the target.  This is the
    empirical rule only, with no confidence statement: the flagged set changes with the
    threshold, so a binomial bound on ``TP / (TP + FP)`` would ignore the selection.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`threshold_for_recall`.
    min_precision : float
        The required precision, in (0, 1].

    Returns
    -------
    ConstrainedThreshold
        ``lower_bound`` and ``confidence`` are None.

    Raises
    ------
    ValueError
        When no threshold reaches ``min_precision``.

    Examples
    --------
    >>> point = threshold_for_precision([0, 1, 1, 0, 1], [0.2, 0.9, 0.7, 0.6, 0.3],
    ...                                 min_precision=0.7)
    >>> point.threshold, point.precision, point.recall
    (0.3, 0.75, 1.0)
    """
    min_precision = check_min_rate(min_precision, "min_precision")
    is_positive, scores, _, _ = check_binary_scores(y_true, y_score, pos_label)
    fps, tps, thresholds = cumulative_counts(is_positive, scores, None)
    precision = tps / (tps + fps)  # every distinct score flags at least one sample
    ok = precision >= min_precision
    if not ok.any():
        raise ValueError(
            f"No threshold reaches precision >= {min_precision:g} on this data "
            f"(the highest is {float(precision.max()):.4f})."
        )
    i = int(np.flatnonzero(ok)[-1])  # last True = lowest threshold = highest recall
    return ConstrainedThreshold(float(thresholds[i]), *_operating_point(tps, fps, i, None, None))
