"""A calibration curve with a confidence interval on each bin's fraction of positives, and a
warning on bins too small to read."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation import calibration as _prob
from .._validation import warn
from .._validation.stats import check_confidence_level
from ..exceptions import SmallBinWarning
from ..stats import proportion_ci
from ._bins import _curve_bins

__all__ = ["CalibrationCurveIntervals", "calibration_curve_intervals"]


class CalibrationCurveIntervals(NamedTuple):
    """Per non-empty bin of :func:`calibration_curve_intervals` (bins in increasing order).

    Attributes
    ----------
    prob_true : ndarray
        Fraction of positives in the bin (scikit-learn's ``prob_true``).
    prob_pred : ndarray
        Mean predicted probability in the bin (scikit-learn's ``prob_pred``).
    count : ndarray of int64
        Samples in the bin.
    low, high : ndarray
        Ends of the interval for the bin's fraction of positives.
    bin_index : ndarray of int64
        The bin's position among the ``n_bins`` bins (0 = lowest probabilities): empty bins are
        left out, so this says which bins the rows are.
    edges : ndarray of shape (n_bins + 1,)
        The bin edges, empty bins included.
    """

    prob_true: np.ndarray
    prob_pred: np.ndarray
    count: np.ndarray
    low: np.ndarray
    high: np.ndarray
    bin_index: np.ndarray
    edges: np.ndarray


def calibration_curve_intervals(
    y_true: Any,
    y_prob: Any,
    *,
    pos_label: Any = None,
    n_bins: int = 5,
    strategy: str = "uniform",
    confidence_level: float = 0.95,
    method: str = "wilson",
    min_bin_count: int = 10,
) -> CalibrationCurveIntervals:
    """:func:`calibration_curve` with a confidence interval on each bin's fraction of positives.

    The bins, ``prob_true`` and ``prob_pred`` are those of :func:`calibration_curve` (and so of
    scikit-learn's): bins :math:`(e_k, e_{k+1}]`, the first closed, empty bins left out.  For
    bin :math:`B_k` with :math:`n_k = |B_k|` samples of which :math:`m_k` are positive, the
    interval is :func:`mltutor.stats.proportion_ci` of :math:`m_k` out of :math:`n_k` at
    ``alpha = 1 - confidence_level``; the Wilson interval (default) is

    .. math::
        \\frac{\\hat p_k + z^2/2n_k \\pm z\\sqrt{\\hat p_k(1-\\hat p_k)/n_k + z^2/4n_k^2}}
        {1 + z^2/n_k},\\qquad \\hat p_k = m_k / n_k,

    with :math:`z` the :math:`1 - \\alpha/2` normal quantile; ``"jeffreys"`` takes the
    :math:`\\alpha/2` and :math:`1-\\alpha/2` quantiles of
    :math:`\\mathrm{Beta}(m_k + 1/2, n_k - m_k + 1/2)`, ``"clopper-pearson"`` the exact,
    conservative interval.

    **What the interval is for.**  Given the scores, and so which samples fall in bin
    :math:`k`, the labels are independent with :math:`P(y_i = 1) = c(p_i)` for the model's
    true calibration map :math:`c`.  The interval is then for the bin's *average* true
    frequency :math:`\\bar c_k = \\frac{1}{n_k}\\sum_{i \\in B_k} c(p_i)`: conditional on the
    binning, not for :math:`c` at a point such as ``prob_pred``.  The two differ where
    :math:`c` curves inside a wide bin (chapter 6b measures both coverages by simulation).
    Given the scores, :math:`m_k` is a sum of independent Bernoulli variables with
    different means (Poisson-binomial), whose variance is at most the binomial one, so the
    binomial intervals assume, if anything, too much spread for :math:`\\bar c_k` (in chapter
    6b's simulation they cover it slightly more often than 95 % in wide bins).  That is no
    guarantee of 95 %: Wilson's coverage of a binomial proportion itself dips below it next
    to 0 and 1.  The coverage is per bin; all bins of one curve cover together less often.
    Samples that are not independent (several frames of one video) need a group bootstrap
    instead.

    **Small bins.**  A :class:`~mltutor.exceptions.SmallBinWarning` names every non-empty bin
    with fewer than ``min_bin_count`` samples and its count.  The default 10 is where the
    point stops saying much: one label flipped moves the fraction by 0.1 or more, and the
    95 % Wilson interval of 5 positives in 10 is [0.237, 0.763], as wide as half the axis.
    Pass ``min_bin_count=0`` to switch the warning off.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_prob : array-like of shape (n_samples,)
        Probabilities of the positive class, in [0, 1].
    pos_label : int, float, bool or str, optional
        As in :func:`calibration_curve`.
    n_bins : int >= 1, default 5
    strategy : {'uniform', 'quantile'}
    confidence_level : float in (0, 1), default 0.95
    method : {'wilson', 'jeffreys', 'clopper-pearson'}, default 'wilson'
    min_bin_count : int >= 0, default 10

    Returns
    -------
    CalibrationCurveIntervals
        ``prob_true``, ``prob_pred``, ``count``, ``low``, ``high``, ``bin_index``, ``edges``.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 0, 1, 1, 1, 1, 1] * 3
    >>> p = [0.1, 0.1, 0.2, 0.2, 0.6, 0.7, 0.7, 0.8, 0.9, 0.9] * 3
    >>> c = calibration_curve_intervals(y, p, n_bins=2)
    >>> np.round(c.prob_true, 3).tolist(), c.count.tolist()
    ([0.25, 0.833], [12, 18])
    >>> np.round(c.low, 3).tolist(), np.round(c.high, 3).tolist()
    ([0.089, 0.608], [0.532, 0.942])
    """
    edges, hits, sums, totals = _curve_bins(y_true, y_prob, pos_label, n_bins, strategy)
    level = check_confidence_level(confidence_level)
    method = _prob.check_curve_interval_method(method)
    min_bin_count = _prob.check_min_bin_count(min_bin_count)
    index = np.flatnonzero(totals)
    count, positives = totals[index], hits[index]
    low, high = proportion_ci(positives, count, alpha=1.0 - level, method=method)
    small = count < min_bin_count
    if small.any():
        listed = ", ".join(
            f"bin {k} ({edges[k]:.3g}, {edges[k + 1]:.3g}]: {n}"
            for k, n in zip(index[small].tolist(), count[small].tolist(), strict=True)
        )
        warn(
            f"{int(small.sum())} non-empty bin(s) hold fewer than min_bin_count="
            f"{min_bin_count} samples: {listed}. Their fractions of positives are too noisy "
            "to read a calibration gap from; read their intervals, use fewer bins or "
            "strategy='quantile'.",
            SmallBinWarning,
        )
    return CalibrationCurveIntervals(
        positives / count,
        sums[index] / count,
        count.astype(np.int64),
        np.asarray(low, dtype=np.float64),
        np.asarray(high, dtype=np.float64),
        index.astype(np.int64),
        np.asarray(edges, dtype=np.float64),
    )
