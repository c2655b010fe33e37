"""Alarms with a stated false-alarm bound: a Bernoulli CUSUM and confidence sequences.

Both work on a 0/1 stream such as the error indicator ``y_pred != y_true`` in label order, and
both accept a 2-D array (one stream per row), so a simulation of thousands of streams is one call.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation.monitoring import (
    check_alpha,
    check_cusum_rates,
    check_indicator_stream,
    check_positive_int,
    check_positive_real,
    check_probability,
)
from ..stats._special import betaln, log_binom_cdf, xlog1py, xlogy

__all__ = [
    "AlarmResult",
    "ConfidenceSequence",
    "bernoulli_cusum",
    "cusum_threshold",
    "error_rate_monitor",
    "proportion_confidence_sequence",
]


class AlarmResult(NamedTuple):
    """``statistic`` after each observation; ``alarm``: index of the first alarm (-1: none)."""

    statistic: np.ndarray
    alarm: np.ndarray | int


def _first_alarm(statistic: np.ndarray, level: float) -> np.ndarray | int:
    hit = statistic >= level
    first = np.where(hit.any(axis=-1), hit.argmax(axis=-1), -1)
    return int(first) if first.ndim == 0 else first


def cusum_threshold(horizon: int, alpha: float) -> float:
    """The CUSUM threshold ``log(horizon / alpha)``: P(false alarm within ``horizon``) <= alpha.

    An alarm by step ``T`` means that, for some start ``k < T``, the likelihood ratio of the
    observations ``k+1 .. t`` reached ``exp(h)``. Under the in-control rate that ratio is a
    non-negative martingale starting at 1, so by Ville's inequality each start crosses with
    probability at most ``exp(-h)``; a union over the ``T`` starts gives
    ``P(alarm by T) <= T * exp(-h)``. The bound is loose (the starts overlap), so the simulated
    rate is well below ``alpha``.

    Examples
    --------
    >>> round(cusum_threshold(365, 0.05), 3)
    8.896
    """
    return float(np.log(check_positive_int(horizon, "horizon") / check_alpha(alpha)))


def bernoulli_cusum(x: Any, p0: float, p1: float, threshold: float) -> AlarmResult:
    """Page's CUSUM of the log-likelihood ratio Bernoulli(p1) : Bernoulli(p0).

    ``S_t = max(0, S_{t-1} + log LR(x_t))`` with ``S_0 = 0``, computed without a Python loop as
    ``W_t - min(0, W_1, ..., W_t)`` where ``W`` is the running sum of the increments. An alarm is
    the first ``t`` with ``S_t >= threshold``.

    Promise (with :func:`cusum_threshold`): if the observations are independent with
    ``P(x_t = 1) <= p0`` and ``p1 > p0``, the probability of any alarm within the first ``T``
    observations is at most ``T * exp(-threshold)``; Lorden's bound gives an in-control average
    run length of at least ``exp(threshold)``.

    Parameters
    ----------
    x : array-like of 0/1, shape (n,) or (n_streams, n)
    p0, p1 : float in (0, 1)
        In-control and out-of-control rates of ``x = 1`` (``p1 > p0`` detects an increase).
    threshold : float > 0

    Returns
    -------
    AlarmResult

    Examples
    --------
    >>> r = bernoulli_cusum([0, 0, 1, 1, 1, 1], p0=0.1, p1=0.5, threshold=3.0)
    >>> r.alarm
    3
    """
    arr = check_indicator_stream(x)
    p0, p1 = check_cusum_rates(p0, p1)
    threshold = check_positive_real(threshold, "threshold")
    inc = np.where(arr == 1, np.log(p1 / p0), np.log((1 - p1) / (1 - p0)))
    w = np.cumsum(inc, axis=-1)
    stat = w - np.minimum(np.minimum.accumulate(w, axis=-1), 0.0)
    return AlarmResult(stat, _first_alarm(stat, float(threshold)))


def error_rate_monitor(x: Any, baseline: float, alpha: float = 0.05) -> AlarmResult:
    """Anytime-valid alarm when the rate of ``x = 1`` rises above ``baseline``.

    The statistic is the log of a mixture likelihood ratio: the likelihood of the stream under
    a rate ``q`` averaged over ``q`` uniform on ``(baseline, 1)``, divided by its likelihood
    under ``baseline``. If the observations are independent with ``P(x_t = 1) <= baseline``,
    the ratio is a non-negative supermartingale starting at 1, so by Ville's inequality the
    probability that it **ever** reaches ``1/alpha``, over an unlimited number of checks, is at
    most ``alpha`` (Howard et al., 2021). It may therefore be checked after every observation.

    Returns
    -------
    AlarmResult
        ``statistic`` is the log mixture ratio; ``alarm`` the first index where it reaches
        ``log(1/alpha)`` (-1 if never).

    Examples
    --------
    >>> r = error_rate_monitor([1] * 8, baseline=0.2, alpha=0.05)
    >>> r.alarm
    2
    """
    arr = check_indicator_stream(x)
    p0 = check_probability(baseline, "baseline")
    level = np.log(1.0 / check_alpha(alpha))
    s = np.cumsum(arr, axis=-1)
    f = np.cumsum(1.0 - arr, axis=-1)
    # The integral of q^S (1-q)^F over (p0, 1) is B(S+1, F+1) * (1 - I_p0(S+1, F+1)), and
    # 1 - I_p0(S+1, F+1) = P(Binomial(S+F+1, p0) <= S), whose log the package's TOMS 708 port
    # gives directly (mltutor does not depend on SciPy).
    log_tail = log_binom_cdf(s, s + f + 1, p0)
    log_mix = betaln(s + 1, f + 1) + log_tail - np.log1p(-p0)
    stat = log_mix - xlogy(s, p0) - xlog1py(f, -p0)
    return AlarmResult(stat, _first_alarm(stat, level))


class ConfidenceSequence(NamedTuple):
    """``lower[t]``, ``upper[t]``: the interval after ``t + 1`` observations."""

    lower: np.ndarray
    upper: np.ndarray


def proportion_confidence_sequence(
    x: Any, alpha: float = 0.05, prior: tuple[float, float] = (0.5, 0.5)
) -> ConfidenceSequence:
    """A confidence sequence for a proportion: intervals valid at every time at once.

    After ``t`` observations with ``S`` ones, the interval holds the rates ``p`` whose
    beta-binomial mixture ratio ``B(a + S, b + t - S) / (B(a, b) p^S (1 - p)^(t - S))`` is below
    ``1/alpha`` (Robbins' mixture; Howard et al., 2021). If the observations are independent
    Bernoulli(``p``), ``P(p outside the interval at some t >= 1) <= alpha`` — over every time at
    once, so the interval may be looked at after each batch and the monitoring stopped whenever
    one likes. A fixed-``n`` interval (Wilson) promises ``1 - alpha`` at one pre-chosen ``n`` only.

    Examples
    --------
    >>> cs = proportion_confidence_sequence([0, 1, 0, 0, 1, 0, 0, 0, 0, 0], alpha=0.05)
    >>> [round(float(v), 3) for v in (cs.lower[-1], cs.upper[-1])]
    [0.009, 0.658]
    """
    arr = check_indicator_stream(x)
    level = np.log(1.0 / check_alpha(alpha))
    a, b = (check_positive_real(v, "prior") for v in prior)
    s = np.cumsum(arr, axis=-1)
    f = np.cumsum(1.0 - arr, axis=-1)
    const = betaln(a + s, b + f) - betaln(a, b)

    def log_ratio(p):
        return const - xlogy(s, p) - xlog1py(f, -p)

    mle = s / (s + f)
    lo_l, hi_l = np.zeros_like(mle), mle.copy()  # lower bound in [0, mle]
    lo_u, hi_u = mle.copy(), np.ones_like(mle)  # upper bound in [mle, 1]
    for _ in range(60):
        mid = 0.5 * (lo_l + hi_l)
        out = log_ratio(mid) >= level  # mid excluded: the bound lies above it
        lo_l, hi_l = np.where(out, mid, lo_l), np.where(out, hi_l, mid)
        mid = 0.5 * (lo_u + hi_u)
        out = log_ratio(mid) >= level
        lo_u, hi_u = np.where(out, lo_u, mid), np.where(out, mid, hi_u)
    return ConfidenceSequence(lo_l, hi_u)  # the excluded ends: never narrower than the set
