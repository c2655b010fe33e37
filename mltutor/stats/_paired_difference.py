"""Is system A really better than system B?  Intervals and tests on a mean per-query difference.

Ranking metrics are reported as means over queries (MAP is the mean AP, "nDCG@10" the mean
nDCG@10).  Two systems run on the **same** queries are paired: a hard query is hard for both, so
the question is about the per-query differences :math:`d_q = s_{A,q} - s_{B,q}`, and their mean.
:func:`paired_metric_difference` gives three answers from the same differences:

* a paired **bootstrap** percentile interval :cite:p:`efron1993bootstrap` of the mean
  difference, drawing queries with replacement from the same index stream as
  :func:`~mltutor.stats.paired_bootstrap` (same ``random_state``, same resamples), but
  vectorised over resamples: the mean of a resample is one row mean;
* the paired **t** interval and test, :math:`\\bar d \\pm t_{n-1,\\,1-\\alpha/2}\\, s_d/\\sqrt n`;
* a paired **randomisation** (sign-flip) test: under "A and B are exchangeable on every query",
  each :math:`d_q` is as likely to be :math:`-d_q`, so random signs give the null distribution of
  the mean :cite:p:`smucker2007comparison`.

What is promised, and about what: the queries are an i.i.d. sample from a population of queries,
and the interval is about the mean difference over that population, for the two systems as they
are (no retraining, the same relevance judgements).  The coverage is approximate (chapter 7b
checks it by simulation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation.stats import (
    check_confidence_level,
    check_n_resamples,
    check_per_query_scores,
    check_random_state,
)
from ._bootstrap import _resample_indices
from ._special import beta_cdf, beta_ppf

__all__ = ["PairedDifferenceResult", "paired_metric_difference"]

#: Sign flips drawn at once: at most this many entries (float64), 32 MB.
_MAX_ELEMENTS = 1 << 22


@dataclass(frozen=True)
class PairedDifferenceResult:
    """A mean per-query difference ``mean(scores_a - scores_b)`` with intervals and p-values.

    Attributes
    ----------
    difference : float
        :math:`\\bar d`, the mean of the per-query differences (= ``mean_a - mean_b``).
    low, high : float
        The paired bootstrap percentile interval of the mean difference.
    p_value : float
        Two-sided p-value of the paired randomisation (sign-flip) test.
    t_low, t_high : float
        The paired t interval.
    t_p_value : float
        Two-sided p-value of the paired t test.
    mean_a, mean_b : float
        Each system's mean score.
    n : int
        Number of queries.
    confidence_level : float
    n_resamples : int
        Bootstrap resamples, and sign-flip draws, each.
    differences : ndarray of shape (n,)
        The per-query differences.
    distribution : ndarray of shape (n_resamples,)
        The mean difference on each bootstrap resample.
    """

    difference: float
    low: float
    high: float
    p_value: float
    t_low: float
    t_high: float
    t_p_value: float
    mean_a: float
    mean_b: float
    n: int
    confidence_level: float
    n_resamples: int
    differences: np.ndarray = field(repr=False)
    distribution: np.ndarray = field(repr=False)

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies inside the bootstrap interval (ends included)."""
        return bool(self.low <= value <= self.high)


def _t_quantile(level: float, df: int) -> float:
    """The upper ``(1 - level) / 2`` quantile of Student's t with ``df`` degrees of freedom.

    :math:`P(|T| > t) = I_{\\nu/(\\nu + t^2)}(\\nu/2, 1/2)`, solved for ``t`` with ``beta_ppf``.
    """
    x = float(beta_ppf(1.0 - level, df / 2.0, 0.5))
    return float(np.sqrt(df * (1.0 - x) / x))


def _t_two_sided_p(t: float, df: int) -> float:
    return float(beta_cdf(df / (df + t * t), df / 2.0, 0.5))


def _sign_flip_p(rng: np.random.Generator, d: np.ndarray, n_resamples: int) -> float:
    """``(1 + #{|mean(s * d)| >= |mean(d)|}) / (1 + n_resamples)`` over random signs ``s``."""
    n = d.shape[0]
    observed = abs(d.mean())
    # A flip that reproduces the observed mean may differ from it in the last bit.
    tol = 1e-12 * max(1.0, float(np.abs(d).max()))
    chunk = max(1, min(n_resamples, _MAX_ELEMENTS // n))
    total = float(d.sum())
    count = 0
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        # One random bit per sign: mean(s * d) = (2 * (bits @ d) - sum(d)) / n for s = 2 bits - 1
        raw = np.frombuffer(rng.bytes(-(-size * n // 8)), dtype=np.uint8)
        bits = np.unpackbits(raw)[: size * n].reshape(size, n).astype(np.float64)
        count += int((np.abs(2.0 * (bits @ d) - total) / n >= observed - tol).sum())
    return (1 + count) / (1 + n_resamples)


def paired_metric_difference(
    scores_a: Any,
    scores_b: Any,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    random_state: int | np.random.Generator | None = None,
) -> PairedDifferenceResult:
    r"""Intervals and tests on the mean difference of two systems' per-query scores.

    With :math:`d_q = a_q - b_q` for the :math:`n` queries, :math:`\bar d = \frac1n \sum_q d_q`:

    * bootstrap: resample *r* draws query indices :math:`i_1..i_n` with replacement and keeps
      :math:`\bar d^*_r = \frac1n \sum_j d_{i_j}`; the interval is
      :math:`[q_{\alpha/2}(\bar d^*), q_{1-\alpha/2}(\bar d^*)]`, :math:`\alpha = 1 -`
      ``confidence_level``;
    * paired t: :math:`\bar d \pm t_{n-1,1-\alpha/2}\, s_d / \sqrt n` with :math:`s_d` the
      standard deviation of the :math:`d_q` (``ddof=1``), and the p-value of
      :math:`T = \bar d\, \sqrt n / s_d`;
    * randomisation: with signs :math:`\epsilon_{q} = \pm 1` drawn uniformly,
      :math:`p = (1 + \#\{r : |\frac1n \sum_q \epsilon_{rq} d_q| \ge |\bar d|\}) / (1 + R)`.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_queries,)
        One score per query for system A and for system B, the same queries in the same order:
        the per-query AP, nDCG@k, RR... (``mltutor.curves.average_precision``,
        ``ndcg_at_k`` and ``reciprocal_rank`` return them).
    confidence_level : float, default 0.95
        Of both intervals.
    n_resamples : int, default 10000
        Bootstrap resamples, and as many sign-flip draws.
    random_state : None, int or numpy.random.Generator
        The bootstrap's indices equal those of ``paired_bootstrap`` with the same seed; the sign
        flips are drawn after them from the same generator.

    Returns
    -------
    PairedDifferenceResult

    Raises
    ------
    TypeError
        Inputs that are not arrays of real numbers, bool or float16 arrays.
    ValueError
        Arrays that are not 1-D, of different lengths, with fewer than two queries, holding NaN
        or infinity; ``confidence_level`` outside (0, 1); ``n_resamples < 1``.

    Notes
    -----
    The queries are taken to be an i.i.d. sample from a population of queries; the intervals
    are about the mean difference over that population, for the two systems as they are and
    the relevance judgements as they are.  They say nothing about a single query, and queries
    that come in related groups (the reformulations of one need) are not independent.  The
    bootstrap and t intervals are approximate; their coverage depends on the number of queries
    and the shape of the differences (chapter 7b simulates it).  The randomisation test's
    p-value is exact for its null hypothesis (A and B exchangeable on every query) up to the
    Monte Carlo error of ``n_resamples`` draws.  When every difference is 0 both intervals are
    ``[0, 0]`` and both p-values are 1.

    Examples
    --------
    >>> import numpy as np
    >>> from mltutor.stats import paired_metric_difference
    >>> a = np.array([0.9, 0.7, 0.8, 0.6, 0.95, 0.5, 0.85, 0.7])
    >>> b = np.array([0.8, 0.7, 0.6, 0.5, 0.90, 0.5, 0.80, 0.6])
    >>> r = paired_metric_difference(a, b, n_resamples=2000, random_state=0)
    >>> round(r.difference, 4), r.n
    (0.075, 8)
    >>> bool(r.low > 0), bool(r.t_low > 0), r.p_value < 0.05
    (True, True, True)
    """
    a, b = check_per_query_scores(scores_a, scores_b)
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    rng = check_random_state(random_state)

    d = a - b
    n = d.shape[0]
    mean = float(d.mean())
    distribution = np.concatenate(
        [d[idx].mean(axis=1) for idx in _resample_indices(rng, n, n_resamples, False)]
    )
    alpha = 1.0 - confidence_level
    low, high = (float(v) for v in np.quantile(distribution, [alpha / 2, 1 - alpha / 2]))

    sd = float(d.std(ddof=1))
    if sd == 0.0:  # every difference equal: no spread to estimate
        t_low = t_high = mean
        t_p = 1.0 if mean == 0.0 else 0.0
    else:
        half = _t_quantile(confidence_level, n - 1) * sd / np.sqrt(n)
        t_low, t_high = mean - half, mean + half
        t_p = _t_two_sided_p(mean * np.sqrt(n) / sd, n - 1)
    p = 1.0 if not d.any() else _sign_flip_p(rng, d, n_resamples)
    return PairedDifferenceResult(
        difference=mean,
        low=low,
        high=high,
        p_value=float(p),
        t_low=float(t_low),
        t_high=float(t_high),
        t_p_value=float(t_p),
        mean_a=float(a.mean()),
        mean_b=float(b.mean()),
        n=n,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        differences=d,
        distribution=distribution,
    )
