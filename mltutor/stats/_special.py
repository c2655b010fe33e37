"""The few special functions the tests and intervals need, in NumPy (mltutor does not need SciPy).

* :func:`norm_isf` — the standard normal upper quantile (a scalar: a critical value);
* :func:`norm_sf` — the normal tail, :func:`chi2_1_sf` — the chi-square tail with 1 degree of
  freedom, both from ``math.erfc``;
* :func:`log_gamma` — Lanczos' approximation (g = 7, 9 terms), vectorised, ~1e-15 relative;
* :func:`beta_cdf` — the regularised incomplete beta function ``I_x(a, b)``, and
  :func:`beta_ppf` — its inverse in ``x``: both from :mod:`mltutor.stats._beta_quantile`
  (ACM TOMS 708 in log scale; Newton–Halley in the logit), exact to about 14 digits for any
  ``a, b`` up to 1e15 and probabilities down to 1e-300;
* :func:`binom_cdf_half` — the Binomial(n, 1/2) distribution function, summed in log space.

Accuracy is checked against SciPy in ``tests/test_stats_intervals.py`` and against mpmath in
``tests/test_stats_exact_intervals.py``.
"""

from __future__ import annotations

import math

import numpy as np

from ._beta_quantile import _betaln, beta_lower_quantile, log_beta_cdf

_LANCZOS = np.array(
    [
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7,
    ]
)


def norm_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def chi2_1_sf(x: float) -> float:
    """P(X > x) for X chi-square with 1 degree of freedom (X = Z^2)."""
    return math.erfc(math.sqrt(max(x, 0.0) / 2.0))


def norm_isf(q: float) -> float:
    """z with P(Z > z) = q, for 0 < q < 1: bisection on ``math.erfc`` then Newton polishing."""
    lo, hi = -40.0, 40.0
    for _ in range(80):  # bracket to ~1e-22: far below float spacing
        mid = 0.5 * (lo + hi)
        if norm_sf(mid) > q:
            lo = mid
        else:
            hi = mid
    z = 0.5 * (lo + hi)
    for _ in range(3):  # Newton on the tail: d/dz sf = -pdf
        pdf = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
        if pdf == 0:
            break
        z += (norm_sf(z) - q) / pdf
    return z


def log_gamma(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for x > 0 (Lanczos; arguments below 1/2 shifted up by one)."""
    x = np.asarray(x, dtype=np.float64)
    small = x < 0.5
    y = np.where(small, x + 1.0, x) - 1.0
    series = _LANCZOS[0] + sum(_LANCZOS[i] / (y + i) for i in range(1, 9))
    t = y + 7.5
    out = 0.5 * math.log(2 * math.pi) + (y + 0.5) * np.log(t) - t + np.log(series)
    return np.where(small, out - np.log(np.where(small, x, 1.0)), out)


def beta_cdf(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Regularised incomplete beta ``I_x(a, b)`` for a, b >= 1e-3 and x in [0, 1]."""
    x, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, a, b)))
    with np.errstate(divide="ignore"):
        s = np.log(x) - np.log1p(-x)  # the logit: -inf at 0, +inf at 1
    return np.exp(log_beta_cdf(a, b, s))


def beta_ppf(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with ``I_x(a, b) = q`` for 0 < q < 1, a > 0, b > 0: a lower quantile is solved directly,
    an upper one (q > 1/2) as the lower ``1 - q`` quantile of Beta(b, a), whose complement is
    returned."""
    q, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (q, a, b)))
    upper = q > 0.5
    with np.errstate(divide="ignore"):
        log_tail = np.log(np.where(upper, 1.0 - q, q))
    x, y = beta_lower_quantile(log_tail, np.where(upper, b, a), np.where(upper, a, b))
    return np.where(upper, y, x)


def binom_cdf_half(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2): the log terms log C(n, i) - n log 2 summed with a
    running log-sum-exp (one cumulative sum, no factorials)."""
    if k >= n:
        return 1.0
    i = np.arange(1, k + 1, dtype=np.float64)
    log_choose = np.concatenate([[0.0], np.cumsum(np.log((n - i + 1) / i))])
    log_terms = log_choose - n * math.log(2.0)
    top = log_terms.max()
    return float(min(1.0, math.exp(top) * np.sum(np.exp(log_terms - top))))


def betaln(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log B(a, b) for a, b > 0 (TOMS 708's ``betaln``, as ``scipy.special.betaln``)."""
    return _betaln(a, b)


def xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x * log(y)``, and 0 where ``x == 0`` (even at ``y == 0``), as ``scipy.special.xlogy``."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, x * np.log(y))


def xlog1py(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x * log1p(y)``, and 0 where ``x == 0``, as ``scipy.special.xlog1py``."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, x * np.log1p(y))


def log_binom_cdf(k: np.ndarray, n: np.ndarray, p: float) -> np.ndarray:
    """log P(Binomial(n, p) <= k) for 0 <= k < n, 0 < p < 1: ``log I_{1-p}(n - k, k + 1)``."""
    k, n = np.asarray(k, dtype=np.float64), np.asarray(n, dtype=np.float64)
    return log_beta_cdf(n - k, k + 1.0, math.log1p(-p) - math.log(p))
