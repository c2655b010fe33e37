"""McNemar's test: do two classifiers err on the same test samples at different rates?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import UndefinedMetricWarning, check_bool, warn
from .._validation.stats import check_paired_predictions
from ._special import binom_cdf_half, chi2_1_sf


@dataclass(frozen=True)
class McNemarResult:
    """McNemar's test of two classifiers on the same samples.

    Attributes
    ----------
    statistic : float
        ``min(b, c)`` for the exact test; :math:`(|b - c| - \\text{corr})^2 / (b + c)` otherwise.
    pvalue : float
        Two-sided.
    table : ndarray of shape (2, 2)
        ``[[both right, only A right], [only B right, both wrong]]``: ``b = table[0, 1]`` and
        ``c = table[1, 0]`` are the discordant samples, the only ones the test looks at.
    """

    statistic: float
    pvalue: float
    table: np.ndarray


def mcnemar(
    y_true: Any, pred_a: Any, pred_b: Any, exact: bool = True, correction: bool = True
) -> McNemarResult:
    """McNemar's test :cite:p:`mcnemar1947note` that models A and B have the same error rate.

    Samples both models get right (or both wrong) say nothing about which is better; only the
    ``b`` samples that A gets right and B wrong and the ``c`` samples the other way round count.
    Under the null hypothesis each discordant sample is a fair coin: ``b ~ Binomial(b + c, 1/2)``.
    The test conditions on ``b + c``, assumes independent samples and holds both models fixed.
    A large p-value does not show the two error rates equal (with few discordant samples the
    test has little power); for that, check that an interval of the accuracy difference lies
    inside a margin fixed in advance (e.g. :func:`paired_bootstrap` of the accuracy).

    * ``exact=True``: :math:`p = \\min(1, 2 P(X \\le \\min(b, c)))`, ``X ~ Binomial(b + c, 1/2)``;
    * ``exact=False``: :math:`\\chi^2 = (|b - c| - 1)^2 / (b + c)` (``correction=False`` drops
      the ``- 1``), with 1 degree of freedom.

    Equal to statsmodels' ``mcnemar(table, exact, correction)`` on :attr:`McNemarResult.table`.
    With no discordant sample the chi-square statistic is 0/0 (statsmodels returns NaN, or inf with
    the correction): mltutor returns NaN with an ``UndefinedMetricWarning``; the exact test gives
    p = 1 there.

    Parameters
    ----------
    y_true, pred_a, pred_b : array-like of shape (n_samples,)
        Labels (any classes) and the two models' predictions on the same samples.
    exact : bool
        Binomial test (default) or chi-square approximation (fine when ``b + c`` >= 25 or so).
    correction : bool
        Continuity correction of the chi-square statistic.

    Examples
    --------
    >>> y = np.array([1] * 20)
    >>> a = np.array([1] * 18 + [0] * 2)          # A: 2 errors
    >>> b = np.array([0] * 9 + [1] * 11)          # B: 9 errors, all where A was right
    >>> r = mcnemar(y, a, b)
    >>> r.table.tolist(), r.statistic, round(r.pvalue, 4)
    ([[9, 9], [2, 0]], 2.0, 0.0654)
    """
    exact, correction = check_bool(exact, "exact"), check_bool(correction, "correction")
    y, a, b = check_paired_predictions(y_true, pred_a, pred_b)
    right_a, right_b = a == y, b == y
    # code 2 * (A wrong) + (B wrong): 0 both right, 1 only A right, 2 only B right, 3 both wrong
    table = np.bincount(2 * (~right_a) + (~right_b), minlength=4).reshape(2, 2)
    return _mcnemar_table(table, exact, correction)


def _mcnemar_table(table: np.ndarray, exact: bool, correction: bool) -> McNemarResult:
    n1, n2 = int(table[0, 1]), int(table[1, 0])
    if exact:
        statistic = min(n1, n2)
        pvalue = min(1.0, 2.0 * binom_cdf_half(statistic, n1 + n2))
        return McNemarResult(float(statistic), pvalue, table)
    if n1 + n2 == 0:
        warn(
            "McNemar's chi-square statistic is undefined (0/0): the two models never disagree "
            "on correctness. Statistic and p-value set to NaN; the exact test gives p = 1.",
            UndefinedMetricWarning,
        )
        return McNemarResult(np.nan, np.nan, table)
    statistic = (abs(n1 - n2) - int(correction)) ** 2 / (1.0 * (n1 + n2))
    return McNemarResult(float(statistic), chi2_1_sf(statistic), table)
