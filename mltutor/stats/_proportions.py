"""Confidence intervals for a proportion, and for every rate of a confusion matrix."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .._validation import UndefinedMetricWarning, warn
from .._validation.stats import (
    check_alpha,
    check_confusion_counts,
    check_proportion_counts,
    check_proportion_method,
)
from ._beta_quantile import beta_lower_quantile
from ._special import norm_isf

#: The largest ``nobs`` the exact (Clopper–Pearson, Jeffreys) intervals accept.
MAX_EXACT_NOBS = 1e15


def proportion_ci(
    count: Any, nobs: Any, alpha: float = 0.05, method: str = "wilson"
) -> tuple[Any, Any]:
    """Two-sided ``1 - alpha`` confidence interval for a binomial proportion ``count / nobs``.

    With ``p = count / n`` and ``z`` the ``1 - alpha / 2`` normal quantile:

    * ``"normal"`` (Wald): :math:`p \\pm z\\sqrt{p(1-p)/n}`, clipped to [0, 1]. Width 0 at
      ``count = 0`` and ``count = n``: it claims certainty from no successes (or no failures).
    * ``"wilson"`` :cite:p:`wilson1927probable`: the ``p0`` with
      :math:`|p - p_0| \\le z\\sqrt{p_0(1-p_0)/n}`, i.e.
      :math:`\\frac{p + z^2/2n \\pm z\\sqrt{p(1-p)/n + z^2/4n^2}}{1 + z^2/n}`.  Its coverage
      is close to ``1 - alpha`` on average over the true proportion, but not at each one: just
      below its lower end for one success only ``count = 0`` covers, and for 95 % the coverage
      there falls to about 0.84 for each ``n`` checked in chapter 6b (12 to 100), and the same
      next to 1.
    * ``"agresti-coull"``: the Wald formula at :math:`\\tilde p = (count + z^2/2)/(n + z^2)`
      with :math:`\\tilde n = n + z^2`, clipped.
    * ``"clopper-pearson"`` (exact, conservative) :cite:p:`clopper1934use`: the ``alpha/2``
      quantile of Beta(count, n − count + 1) and the ``1 − alpha/2`` quantile of
      Beta(count + 1, n − count); 0 at ``count = 0`` and 1 at ``count = n``.  It inverts two
      one-sided exact binomial tests, so its coverage is at least ``1 - alpha`` at each true
      proportion, at the price of a wider interval: the one to use when that has to hold.
    * ``"jeffreys"``: the ``alpha/2`` and ``1 − alpha/2`` quantiles of
      Beta(count + 1/2, n − count + 1/2) (the posterior under Jeffreys' prior).

    Equal to statsmodels' ``proportion_confint`` (which calls Clopper–Pearson ``"beta"`` and
    Agresti–Coull ``"agresti_coull"``; those spellings are accepted too) to 1e-10 on ordinary
    inputs (up to 5,000 trials and ``alpha`` down to 1e-4 in the tests).  The Clopper–Pearson
    and Jeffreys ends are computed with NumPy alone (the incomplete beta function of ACM TOMS
    708, DiDonato and Morris 1992, in log scale), each entry of an array on its own, and are
    checked against 40-digit references for ``nobs`` up to 1e15 (larger ``nobs`` are refused
    for these two methods) and ``alpha`` down to 1e-300: within 1e-10 of the interval's width,
    or within two units in the last place where a float64 cannot hold that (at ``nobs = 1e15``
    with ``count / nobs`` near 1/2, one unit is 9e-10 of the width).  There SciPy 1.17's
    ``beta.ppf``, which statsmodels calls, can be far off:
    ``beta.ppf(5e-301, 3, 18)`` gives 1.75e-33, where the root is 7.6e-102.  Unlike
    statsmodels, the default method is ``"wilson"``: the Wald interval is unreliable on small or
    extreme counts, and erratic even for large ``n`` :cite:p:`brown2001interval`.  Every method
    assumes ``count`` is binomial: independent trials with one success probability.

    Parameters
    ----------
    count, nobs : int, float or array-like
        Successes and trials, broadcast together; ``0 <= count <= nobs`` and ``nobs > 0``.
    alpha : float in (0, 1)
        1 minus the confidence level.
    method : {'wilson', 'clopper-pearson', 'agresti-coull', 'jeffreys', 'normal'}

    Returns
    -------
    (low, high)
        Floats for scalar input, arrays of the broadcast shape otherwise.

    Examples
    --------
    >>> low, high = proportion_ci(0, 20)  # no success in 20 trials
    >>> round(low, 6), round(high, 4)
    (0.0, 0.1611)
    >>> proportion_ci(0, 20, method="normal")  # the Wald interval claims certainty
    (0.0, 0.0)
    >>> low, high = proportion_ci([3, 19], 20, method="clopper-pearson")
    >>> np.round(low, 4).tolist(), np.round(high, 4).tolist()
    ([0.0321, 0.7513], [0.3789, 0.9987])
    """
    scalar = np.isscalar(count) and np.isscalar(nobs)
    c, n = check_proportion_counts(count, nobs)
    alpha = check_alpha(alpha)
    low, high = _interval(c, n, alpha, check_proportion_method(method))
    if scalar:
        return float(low), float(high)
    return low, high


def _interval(
    c: np.ndarray, n: np.ndarray, alpha: float, method: str
) -> tuple[np.ndarray, np.ndarray]:
    """The interval of validated float64 arrays, in statsmodels' order of operations."""
    tail = alpha / 2.0
    q = c / n
    if method in ("clopper-pearson", "jeffreys"):
        if c.size and n.max() > MAX_EXACT_NOBS:
            raise ValueError(
                f"nobs must be at most {MAX_EXACT_NOBS:g} for the {method} interval (got "
                f"{n.max():g}): its ends are checked to 1e-10 of the width up to there, and "
                "beyond about 1e30 trials the interval is narrower than the spacing of float64 "
                "numbers."
            )
        low, _, _, high = _exact_ends(c, n, alpha, method)
        return low, high
    crit = norm_isf(tail)
    if method == "normal":
        dist = crit * np.sqrt(q * (1 - q) / n)
        low, high = q - dist, q + dist
    elif method == "agresti-coull":
        nobs_c = n + crit**2
        q_c = (c + crit**2 / 2.0) / nobs_c
        dist = crit * np.sqrt(q_c * (1.0 - q_c) / nobs_c)
        low, high = q_c - dist, q_c + dist
    else:  # wilson
        crit2 = crit**2
        denom = 1 + crit2 / n
        center = (q + crit2 / (2 * n)) / denom
        dist = crit * np.sqrt(q * (1.0 - q) / n + crit2 / (4.0 * n**2)) / denom
        low, high = center - dist, center + dist
    return np.clip(low, 0, 1), np.clip(high, 0, 1)


def _exact_ends(
    c: np.ndarray, n: np.ndarray, alpha: float, method: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The exact ends as ``(low, 1 - low, 1 - high, high)``, each to about one unit in its last
    place.

    Both ends solve ``I = alpha / 2``, taken in log scale (``alpha / 2`` underflows to 0 for
    ``alpha = 5e-324``).

    Both ends are lower ``tail``-quantiles of a Beta distribution (the upper end through
    ``1 - high``, the lower quantile of the swapped parameters), so only small probabilities are
    ever solved for, and each quantile comes with its complement, so that ``1 - high`` keeps its
    relative precision where ``high`` is next to 1 (and ``high`` where it is next to 0).
    Clopper–Pearson's Beta(0, .) at ``count = 0`` and Beta(., 0) at ``count = nobs`` do not
    exist: those ends are 0 and 1."""
    if method == "clopper-pearson":
        a_low, b_low, a_high, b_high = c, n - c + 1.0, n - c, c + 1.0
        has_low, has_high = c > 0, c < n
    else:
        a_low, b_low = c + 0.5, n - c + 0.5
        a_high, b_high = b_low, a_low
        has_low = has_high = np.ones(c.shape, dtype=bool)
    low, one_minus_low = np.zeros(c.shape), np.ones(c.shape)
    one_minus_high, high = np.zeros(c.shape), np.ones(c.shape)
    k = int(has_low.sum())
    # one solver call for both ends (each entry is solved on its own either way)
    x, y = beta_lower_quantile(
        math.log(alpha) - math.log(2.0),
        np.concatenate([a_low[has_low], a_high[has_high]]),
        np.concatenate([b_low[has_low], b_high[has_high]]),
    )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):  # never returned silently
        raise RuntimeError(
            "the Beta quantile did not converge for some entries: please report "
            "the counts to the mltutor maintainers."
        )
    low[has_low], one_minus_low[has_low] = x[:k], y[:k]
    one_minus_high[has_high], high[has_high] = x[k:], y[k:]
    return low, one_minus_low, one_minus_high, high


class Rate(NamedTuple):
    """One rate per class with its interval: ``estimate = count / nobs`` in ``[low, high]``."""

    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    count: np.ndarray
    nobs: np.ndarray


class RateIntervals(NamedTuple):
    """Per-class recall (``tp / (tp + fn)``), precision (``tp / (tp + fp)``) and specificity
    (``tn / (tn + fp)``) of a confusion matrix, each a :class:`Rate` with one entry per class."""

    recall: Rate
    precision: Rate
    specificity: Rate


def confusion_rate_intervals(cm: Any, alpha: float = 0.05, method: str = "wilson") -> RateIntervals:
    """Every per-class rate of a confusion matrix with its :func:`proportion_ci` interval.

    Rows of ``cm`` are true classes, columns predictions (scikit-learn's layout).  For class
    ``k``: ``tp = cm[k, k]``, ``fn`` = rest of row ``k``, ``fp`` = rest of column ``k``,
    ``tn`` = everything else.  Each rate is a proportion of a row or column total, and its
    interval is the binomial interval given that total: conditional on it, since the number of
    samples of a class and the number of predictions of a class are themselves random.  Samples
    are assumed independent; with grouped samples use the group bootstrap of
    :func:`bootstrap_ci` instead.

    A rate whose denominator is 0 (precision of a class never predicted) has no estimate: it is
    NaN with the interval [0, 1], and an ``UndefinedMetricWarning`` names the classes.

    Examples
    --------
    >>> cm = np.array([[50, 0], [3, 2]])  # class 1 has 5 samples, 2 found
    >>> r = confusion_rate_intervals(cm)
    >>> r.recall.estimate.tolist()
    [1.0, 0.4]
    >>> np.round(r.recall.low, 3).tolist(), np.round(r.recall.high, 3).tolist()
    ([0.929, 0.118], [1.0, 0.769])
    """
    cm = check_confusion_counts(cm)
    alpha = check_alpha(alpha)
    method = check_proportion_method(method)
    tp = np.diagonal(cm).astype(np.float64)
    true_sum, pred_sum, total = cm.sum(axis=1), cm.sum(axis=0), cm.sum()
    fp, fn = pred_sum - tp, true_sum - tp
    tn = total - tp - fp - fn
    pairs = {"recall": (tp, tp + fn), "precision": (tp, tp + fp), "specificity": (tn, tn + fp)}
    # the three rates' intervals in one call (each interval is computed on its own either way)
    count = np.concatenate([k for k, _ in pairs.values()])
    nobs = np.concatenate([n for _, n in pairs.values()])
    defined = nobs > 0
    low, high = np.zeros(count.shape), np.ones(count.shape)
    if defined.any():
        low[defined], high[defined] = _interval(
            count[defined].astype(np.float64), nobs[defined].astype(np.float64), alpha, method
        )
    k = tp.size
    return RateIntervals(
        **{
            name: _rate(name, kn[0], kn[1], low[i * k : (i + 1) * k], high[i * k : (i + 1) * k])
            for i, (name, kn) in enumerate(pairs.items())
        }
    )


def _rate(
    name: str, count: np.ndarray, nobs: np.ndarray, low: np.ndarray, high: np.ndarray
) -> Rate:
    defined = nobs > 0
    estimate = np.full(count.shape, np.nan)
    estimate[defined] = count[defined] / nobs[defined]
    if not defined.all():
        warn(
            f"{name} is undefined (0/0) for classes {np.flatnonzero(~defined).tolist()}: "
            "estimate set to NaN, interval to [0, 1].",
            UndefinedMetricWarning,
        )
    return Rate(estimate, low.copy(), high.copy(), count, nobs)
