"""Net benefit and decision curves (Vickers & Elkin 2006), arithmetic on kernel 2's counts.

A risk model is used to decide whom to treat: treat when the predicted risk is at least a
*threshold probability* ``p_t``.  Choosing ``p_t`` states how a reader weighs the two errors:
for calibrated risks, treating when ``p >= p_t`` is the Bayes rule exactly when a false positive
costs ``p_t / (1 - p_t)`` true positives.  Net benefit counts the true positives per sample and
charges each false positive at that exchange rate:

.. math::

    \\mathrm{NB}(p_t) = \\frac{TP(p_t)}{n} - \\frac{FP(p_t)}{n}\\,\\frac{p_t}{1 - p_t},

with ``TP(p_t)`` and ``FP(p_t)`` the (weighted) positives and negatives whose score is
``>= p_t`` and ``n`` the total (weighted) number of samples.  "Treat all" scores
:math:`\\pi - (1 - \\pi)\\,p_t / (1 - p_t)` (``pi`` the prevalence) and "treat none" 0.  The
convention ``score >= p_t`` is the one of the ``dcurves`` package (Python and R).

All thresholds at once: kernel 2 gives ``TP`` and ``FP`` at every distinct score from one sort,
and ``np.searchsorted`` finds, for each ``p_t``, how many distinct scores are ``>= p_t``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_binary_scores
from .._validation.decisions import check_threshold_probabilities
from ._counts import cumulative_counts

__all__ = ["DecisionCurve", "decision_curve", "net_benefit"]


def _counts_at(is_positive, scores, weights, p_t: np.ndarray):
    """``(TP, FP, n_pos, n_neg)`` of the rule ``score >= p_t`` at each ``p_t`` (float64 arrays)."""
    fps, tps, thresholds = cumulative_counts(is_positive, scores, weights)
    # thresholds decrease: the number of distinct scores >= p is searchsorted in -thresholds
    k = np.searchsorted(-thresholds.astype(np.float64), -p_t, side="right")
    tp = np.r_[0.0, tps][k]
    fp = np.r_[0.0, fps][k]
    return tp, fp, float(tps[-1]), float(fps[-1])


def _net_benefit(tp: np.ndarray, fp: np.ndarray, n: float, p_t: np.ndarray) -> np.ndarray:
    """TP/n - FP/n * p_t / (1 - p_t)."""
    return tp / n - fp / n * (p_t / (1.0 - p_t))


def net_benefit(
    y_true: Any,
    y_score: Any,
    thresholds: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> Any:
    r"""Net benefit of the rule "treat when ``score >= p_t``" at each threshold probability.

    .. math::

        \mathrm{NB}(p_t) = \frac{TP(p_t)}{n} - \frac{FP(p_t)}{n}\,\frac{p_t}{1 - p_t}

    :cite:p:`vickers2006decision`: the true positives per sample, less the false positives per
    sample weighted by the odds of ``p_t`` (what a reader who chooses ``p_t`` counts one false
    positive as worth, in true positives: at ``p_t = 0.1`` a ninth of one, so up to nine false
    positives are accepted per true positive).  It is in units of true positives per sample: 0.05
    means as good as finding 5 positives in 100 samples with no false positive.  The scores should
    be calibrated probabilities; for others ``p_t`` loses that meaning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (binary, or multiclass with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Predicted risks (probabilities of the positive class); finite.
    thresholds : float or array-like of float
        Threshold probabilities ``p_t`` in ``[0, 1)``.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: ``TP``, ``FP`` and ``n`` become sums of weights.

    Returns
    -------
    float or ndarray of float64
        The net benefit at each threshold (a float for a scalar ``thresholds``).

    See Also
    --------
    decision_curve : the model against "treat all" and "treat none".

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> p = [0.1, 0.3, 0.35, 0.8, 0.6, 0.9]
    >>> net_benefit(y, p, 0.5)  # TP = 2, FP = 1: 2/6 - 1/6 * 1
    0.16666666666666666
    >>> net_benefit(y, p, [0.0, 0.2, 0.95]).round(4).tolist()
    [0.5, 0.4167, 0.0]
    """
    scalar = np.ndim(thresholds) == 0
    p_t = check_threshold_probabilities(thresholds)
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    tp, fp, n_pos, n_neg = _counts_at(is_positive, scores, weights, p_t)
    nb = _net_benefit(tp, fp, n_pos + n_neg, p_t)
    return float(nb[0]) if scalar else nb


@dataclass(frozen=True, eq=False)
class DecisionCurve:
    r"""Net benefit of a model, of "treat all" and of "treat none" at each threshold probability.

    All arrays are read-only.

    Attributes
    ----------
    thresholds : ndarray of float64
        The threshold probabilities ``p_t``.
    model : ndarray of float64
        :math:`TP/n - FP/n \cdot p_t/(1-p_t)` of the rule "treat when ``score >= p_t``".
    treat_all : ndarray of float64
        :math:`\pi - (1-\pi)\,p_t/(1-p_t)`: everyone treated.
    treat_none : ndarray of float64
        0 at every threshold: nobody treated.
    prevalence : float
        :math:`\pi`, the (weighted) share of positives.
    tp, fp : ndarray of float64
        The model's true and false positives at each threshold (weighted with weights).
    """

    thresholds: np.ndarray
    model: np.ndarray
    treat_all: np.ndarray
    treat_none: np.ndarray
    prevalence: float
    tp: np.ndarray
    fp: np.ndarray

    def __post_init__(self) -> None:
        for name in ("thresholds", "model", "treat_all", "treat_none", "tp", "fp"):
            getattr(self, name).setflags(write=False)

    def useful(self) -> np.ndarray:
        """Where the model beats both defaults: ``model > max(treat_all, 0)`` (bool array)."""
        return self.model > np.maximum(self.treat_all, self.treat_none)


def decision_curve(
    y_true: Any,
    y_score: Any,
    thresholds: Any = None,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> DecisionCurve:
    r"""The decision curve: net benefit of the model, of "treat all" and of "treat none".

    .. math::

        \mathrm{NB}_\text{model}(p_t) = \frac{TP(p_t)}{n} - \frac{FP(p_t)}{n}\frac{p_t}{1-p_t},
        \quad
        \mathrm{NB}_\text{all}(p_t) = \pi - (1 - \pi)\frac{p_t}{1-p_t},
        \quad
        \mathrm{NB}_\text{none} = 0

    :cite:p:`vickers2006decision`, with "treat when ``score >= p_t``" as in the ``dcurves``
    package.  A model is worth using at ``p_t`` when its curve lies above both defaults there;
    read it only over the range of ``p_t`` that the decision's users would actually choose.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`net_benefit`.
    thresholds : array-like of float, default=None
        Threshold probabilities in ``[0, 1)``; ``None`` means 0.00, 0.01, ..., 0.99.

    Returns
    -------
    DecisionCurve
        ``thresholds``, ``model``, ``treat_all``, ``treat_none``, ``prevalence``, ``tp``, ``fp``.

    Examples
    --------
    >>> curve = decision_curve([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.9],
    ...                        thresholds=[0.2, 0.5])
    >>> curve.model.round(4).tolist(), curve.treat_all.round(4).tolist()
    ([0.4167, 0.1667], [0.375, 0.0])
    >>> curve.useful().tolist()
    [True, True]
    """
    p_t = check_threshold_probabilities(np.arange(100) / 100 if thresholds is None else thresholds)
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    tp, fp, n_pos, n_neg = _counts_at(is_positive, scores, weights, p_t)
    n = n_pos + n_neg
    prevalence = n_pos / n
    return DecisionCurve(
        thresholds=p_t,
        model=_net_benefit(tp, fp, n, p_t),
        treat_all=_net_benefit(np.full_like(p_t, n_pos), np.full_like(p_t, n_neg), n, p_t),
        treat_none=np.zeros_like(p_t),
        prevalence=prevalence,
        tp=tp,
        fp=fp,
    )
