"""The few special functions the tests and intervals need, in NumPy (mltutor does not need SciPy).

* :func:`norm_isf` — the standard normal upper quantile (a scalar: a critical value);
* :func:`norm_sf` — the normal tail, :func:`chi2_1_sf` — the chi-square tail with 1 degree of
  freedom, both from ``math.erfc``;
* :func:`log_gamma` — Lanczos' approximation (g = 7, 9 terms), vectorised, ~1e-15 relative;
* :func:`beta_cdf` — the regularised incomplete beta function ``I_x(a, b)`` by Lentz's continued
  fraction (Numerical Recipes' ``betacf``), vectorised;
* :func:`beta_ppf` — its inverse in ``x``: bisection to a bracket, then safeguarded Newton steps;
* :func:`binom_cdf_half` — the Binomial(n, 1/2) distribution function, summed in log space.

Accuracy is checked against SciPy in ``tests/test_stats_intervals.py``.
"""

from __future__ import annotations

import math

import numpy as np

_LANCZOS = np.array([
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
])
_TINY = 1e-300
_CF_TERMS = 3_000


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


def _beta_cf(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Continued fraction of the incomplete beta function (modified Lentz), all entries at once;
    iterates until every entry has converged."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    for m in range(1, _CF_TERMS):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        step = d * c
        h *= step
        if np.all(np.abs(step - 1.0) < 1e-15):
            break
    return h


def _log_beta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return log_gamma(a) + log_gamma(b) - log_gamma(a + b)


def beta_cdf(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Regularised incomplete beta ``I_x(a, b)`` for a, b > 0 and x in [0, 1]."""
    x, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, a, b)))
    inner = (x > 0) & (x < 1)
    xs = np.where(inner, x, 0.5)
    log_front = (a * np.log(xs) + b * np.log1p(-xs) - _log_beta(a, b))
    front = np.exp(log_front)
    direct = xs < (a + 1.0) / (a + b + 2.0)  # where the fraction converges fast
    ad, bd, xd = np.where(direct, a, b), np.where(direct, b, a), np.where(direct, xs, 1.0 - xs)
    part = front * _beta_cf(ad, bd, xd) / ad
    value = np.where(direct, part, 1.0 - part)
    return np.where(inner, value, np.where(x >= 1, 1.0, 0.0))


def beta_ppf(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with ``I_x(a, b) = q``: 24 bisection steps (a bracket ~6e-8 wide), then Newton steps
    kept inside the bracket until they stop moving."""
    q, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (q, a, b)))
    lo, hi = np.zeros(q.shape), np.ones(q.shape)
    for _ in range(24):
        mid = 0.5 * (lo + hi)
        below = beta_cdf(mid, a, b) < q
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    x = 0.5 * (lo + hi)
    log_b = _log_beta(a, b)
    for _ in range(30):
        inner = (x > 0) & (x < 1)
        xs = np.where(inner, x, 0.5)
        density = np.exp((a - 1) * np.log(xs) + (b - 1) * np.log1p(-xs) - log_b)
        f = beta_cdf(xs, a, b) - q
        lo, hi = np.where(f < 0, xs, lo), np.where(f > 0, xs, hi)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(inner & (density > 0), f / density, 0.0)
        new = xs - step
        new = np.where((new <= lo) | (new >= hi), 0.5 * (lo + hi), new)
        new = np.where(inner, new, x)
        if np.all(np.abs(new - x) <= 1e-17 + 4e-16 * np.abs(x)):
            x = new
            break
        x = new
    return x


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
