"""Drift of a score or feature between a reference sample and a current one: PSI and KS."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.monitoring import check_positive_int, check_real_sample

__all__ = ["ks_statistic", "psi"]


def psi(reference: Any, current: Any, *, bins: int = 10, eps: float = 1e-4) -> float:
    """Population stability index ``sum((c - r) * log(c / r))`` over quantile bins.

    The bin edges are the ``bins``-quantiles of ``reference`` (duplicates merged; the outer bins
    open to ±infinity); ``r`` and ``c`` are the shares of each sample in each bin, floored at
    ``eps`` so an empty bin does not give an infinite value. A PSI measures how far the
    distribution moved, not whether the model got worse.

    Examples
    --------
    >>> round(psi([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8], bins=4), 6)
    0.0
    """
    ref = check_real_sample(reference, "reference")
    cur = check_real_sample(current, "current")
    bins = check_positive_int(bins, "bins")
    edges = np.unique(np.quantile(ref, np.linspace(0, 1, bins + 1)[1:-1]))
    r = np.bincount(np.searchsorted(edges, ref, side="right"), minlength=edges.size + 1)
    c = np.bincount(np.searchsorted(edges, cur, side="right"), minlength=edges.size + 1)
    r = np.maximum(r / ref.size, eps)
    c = np.maximum(c / cur.size, eps)
    return float(np.sum((c - r) * np.log(c / r)))


def ks_statistic(reference: Any, current: Any) -> float:
    """Two-sample Kolmogorov–Smirnov statistic ``max |F_ref(t) - F_cur(t)|``.

    Both empirical distribution functions are evaluated at every pooled value (ties counted
    with ``side='right'``), which is the statistic ``scipy.stats.ks_2samp`` returns
    (tested equal, ties included).

    Examples
    --------
    >>> ks_statistic([1, 2, 3, 4], [3, 4, 5, 6])
    0.5
    """
    a = np.sort(check_real_sample(reference, "reference"))
    b = np.sort(check_real_sample(current, "current"))
    pooled = np.concatenate([a, b])
    fa = np.searchsorted(a, pooled, side="right") / a.size
    fb = np.searchsorted(b, pooled, side="right") / b.size
    return float(np.max(np.abs(fa - fb)))
