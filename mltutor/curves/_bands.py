"""Pointwise bootstrap bands of ROC and precision-recall curves: the kernel's cumulative counts,
computed for many resamples at once (resampling is a matrix of counts, one row per resample)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_binary_scores, check_option
from .._validation.scores import check_band_confidence, check_rate_grid
from .._validation.stats import check_n_resamples, check_random_state

__all__ = ["CurveBand", "pr_curve_band", "roc_curve_band"]

_METHODS = ("bootstrap",)
_CELLS = 1 << 22  # resamples x samples held in memory at once


@dataclass(frozen=True)
class CurveBand:
    """A curve read on a grid, with a pointwise confidence interval at each grid point.

    Attributes
    ----------
    grid : ndarray of float64
        The fixed rates where the curve is read (FPR for a ROC band, recall for a PR band).
    curve : ndarray of float64
        The curve of the given test set at each grid point (TPR, or precision).
    lower, upper : ndarray of float64
        The ends of each grid point's interval.
    confidence : float
        The level of each interval on its own (not of the band as a whole).
    method : str
        How the intervals were made (``"bootstrap"``: class-stratified percentile bootstrap).
    n_resamples : int
    x_name, y_name : str
        What ``grid`` and ``curve`` hold (``"FPR"``/``"TPR"`` or ``"recall"``/``"precision"``).
    """

    grid: np.ndarray
    curve: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    confidence: float
    method: str
    n_resamples: int
    x_name: str
    y_name: str


def _sorted_classes(is_positive: np.ndarray, scores: np.ndarray):
    """Sample positions in decreasing-score order: where the positives and the negatives sit, and
    the last position of every run of tied scores (where the counts are read)."""
    order = np.argsort(-scores, kind="stable")
    s, pos = scores[order], is_positive[order]
    last = np.append(np.flatnonzero(s[1:] != s[:-1]), s.shape[0] - 1)
    return np.flatnonzero(pos), np.flatnonzero(~pos), last


def _resampled_counts(where: np.ndarray, n: int, rows: int, rng: np.random.Generator) -> np.ndarray:
    """``rows`` bootstrap resamples of one class, as counts per sorted position: shape (rows, n).

    Each row draws ``len(where)`` members of the class with replacement (the class size is kept:
    a stratified bootstrap); ``np.bincount`` turns the draws of all rows into counts at once.
    """
    draws = where[rng.integers(0, where.shape[0], size=(rows, where.shape[0]))]
    draws += (np.arange(rows) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=rows * n).reshape(rows, n).astype(np.float64)


def _rows_searchsorted(x: np.ndarray, grid: np.ndarray, side: str) -> np.ndarray:
    """``np.searchsorted(x[i], grid, side)`` for every row ``i`` of ``x`` (non-decreasing rows
    of values in [0, 1]) in one call: the rows are shifted apart by 2 and searched as one array."""
    rows, m = x.shape
    shift = 2.0 * np.arange(rows)[:, None]
    flat = np.searchsorted((x + shift).ravel(), (grid[None, :] + shift).ravel(), side=side)
    return flat.reshape(rows, -1) - m * np.arange(rows)[:, None]


def _tpr_at_fpr(fps: np.ndarray, tps: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """TPR of each row's ROC curve (straight segments, from (0, 0)) at each FPR of ``grid``; on a
    vertical segment at ``g`` the top (the best TPR with FPR <= g)."""
    rows = fps.shape[0]
    zero = np.zeros((rows, 1))
    fpr = np.hstack((zero, fps / fps[:, -1:]))
    tpr = np.hstack((zero, tps / tps[:, -1:]))
    m = fpr.shape[1]
    k = _rows_searchsorted(fpr, grid, "right") - 1  # the last point with FPR <= g
    nxt = np.minimum(k + 1, m - 1)
    r = np.arange(rows)[:, None]
    x0, x1, y0, y1 = fpr[r, k], fpr[r, nxt], tpr[r, k], tpr[r, nxt]
    step = x1 - x0
    frac = np.divide(grid[None, :] - x0, step, out=np.zeros_like(step), where=step > 0)
    return y0 + frac * (y1 - y0)


def _precision_at_recall(fps: np.ndarray, tps: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Each row's best precision among thresholds with recall >= each grid value (the precision
    envelope read at the first threshold that reaches the recall)."""
    rows = tps.shape[0]
    flagged = tps + fps
    precision = np.divide(tps, flagged, out=np.zeros_like(tps), where=flagged > 0)
    envelope = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    recall = tps / tps[:, -1:]
    first = _rows_searchsorted(recall, grid, "left")  # the first threshold with recall >= g
    return envelope[np.arange(rows)[:, None], first]


def _band(y_true, y_score, grid, confidence, n_resamples, method, random_state, pos_label, reader):
    confidence = check_band_confidence(confidence)
    n_resamples = check_n_resamples(n_resamples)
    method = check_option(method, _METHODS, "method")
    rng = check_random_state(random_state)
    is_positive, scores, _, _ = check_binary_scores(y_true, y_score, pos_label)
    if is_positive.all() or not is_positive.any():
        raise ValueError(
            "y_true must hold both classes: a curve band needs positives and negatives."
        )
    n = scores.shape[0]
    pos_at, neg_at, last = _sorted_classes(is_positive, scores)
    ones = np.zeros((1, n))
    ones[0, pos_at] = 1.0
    curve = reader(np.cumsum(1.0 - ones, axis=1)[:, last], np.cumsum(ones, axis=1)[:, last], grid)
    block = max(1, _CELLS // n)
    values = []
    for start in range(0, n_resamples, block):  # blocks of resamples, each one matrix
        rows = min(block, n_resamples - start)
        w_pos = _resampled_counts(pos_at, n, rows, rng)
        w_neg = _resampled_counts(neg_at, n, rows, rng)
        tps = np.cumsum(w_pos, axis=1)[:, last]
        fps = np.cumsum(w_neg, axis=1)[:, last]
        values.append(reader(fps, tps, grid))
    alpha = 1.0 - confidence
    lower, upper = np.quantile(np.vstack(values), [alpha / 2, 1 - alpha / 2], axis=0)
    return curve[0], lower, upper, confidence, method, n_resamples


def roc_curve_band(
    y_true: Any,
    y_score: Any,
    *,
    fpr_grid: Any = None,
    confidence: float = 0.95,
    n_resamples: int = 1000,
    method: str = "bootstrap",
    random_state: Any = None,
    pos_label: Any = None,
) -> CurveBand:
    r"""A ROC curve read at fixed false positive rates, with a pointwise confidence interval.

    At each FPR :math:`f` of the grid the curve gives :math:`\mathrm{TPR}(f)` (straight segments
    between the points of :func:`roc_curve`; on a vertical step the top, the best TPR with
    FPR :math:`\le f`).  The interval is a class-stratified percentile bootstrap
    :cite:p:`efron1993bootstrap`: each resample draws the positives and the negatives with
    replacement, keeping both class sizes, and the interval is the :math:`\alpha/2` and
    :math:`1 - \alpha/2` quantiles of the resampled :math:`\mathrm{TPR}(f)`, with
    :math:`\alpha = 1 - \text{confidence}`.

    **What it promises.** Each grid point on its own: over repetitions of the test set (the same
    class sizes, drawn from the same population), its interval covers the population's
    :math:`\mathrm{TPR}(f)` in about ``confidence`` of the repetitions (approximately: the
    bootstrap is a large-sample method; at the ends of the curve and on small test sets the
    coverage can fall short).  It does **not** promise that the whole population curve
    lies inside the band with that probability (a simultaneous band is wider), and it says
    nothing about how the model would vary if it were trained again: the model is held fixed.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, binary (or multiclass with ``pos_label``); both classes present.
    y_score : array-like of shape (n_samples,)
        Scores, larger means more positive.  Finite.
    fpr_grid : array-like of floats in [0, 1], default=None
        Where to read the curve; ``None`` means ``np.linspace(0, 1, 101)``.
    confidence : float in (0, 1), default=0.95
        The level of each pointwise interval.
    n_resamples : int, default=1000
    method : {"bootstrap"}, default="bootstrap"
    random_state : None, int or numpy.random.Generator, default=None
    pos_label : int, float, bool or str, default=None

    Returns
    -------
    CurveBand
        ``grid`` (FPR), ``curve`` (TPR of the given test set), ``lower``, ``upper``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(50, dtype=int), np.zeros(50, dtype=int)]
    >>> s = np.r_[rng.normal(1, 1, 50), rng.normal(0, 1, 50)]
    >>> band = roc_curve_band(y, s, fpr_grid=[0.1, 0.5], random_state=0)
    >>> bool(np.all((band.lower <= band.curve) & (band.curve <= band.upper)))
    True
    """
    grid = check_rate_grid(fpr_grid, "fpr_grid", np.linspace(0.0, 1.0, 101))
    curve, lower, upper, confidence, method, n_resamples = _band(
        y_true, y_score, grid, confidence, n_resamples, method, random_state, pos_label, _tpr_at_fpr
    )
    return CurveBand(grid, curve, lower, upper, confidence, method, n_resamples, "FPR", "TPR")


def pr_curve_band(
    y_true: Any,
    y_score: Any,
    *,
    recall_grid: Any = None,
    confidence: float = 0.95,
    n_resamples: int = 1000,
    method: str = "bootstrap",
    random_state: Any = None,
    pos_label: Any = None,
) -> CurveBand:
    r"""A precision-recall curve read at fixed recalls, with a pointwise confidence interval.

    At each recall :math:`r` of the grid the curve gives the best precision among thresholds
    whose recall is at least :math:`r` (the interpolated precision,
    :func:`precision_at_recall`).  Intervals as in :func:`roc_curve_band`: a class-stratified
    percentile bootstrap, so the prevalence of every resample is the test set's, and the band is
    about test sets of that prevalence.  Each interval aims to cover its own grid point's
    population value in about ``confidence`` of repetitions, approximately as in
    :func:`roc_curve_band`; at small recalls, where precision is near 1, the interval can shrink
    to [1, 1] and miss a population value just below 1 far more often (chapter 6 simulates such
    a case).  The band as a whole promises nothing simultaneous, and the model is held fixed.

    Parameters
    ----------
    y_true, y_score, confidence, n_resamples, method, random_state, pos_label
        As in :func:`roc_curve_band`.
    recall_grid : array-like of floats in [0, 1], default=None
        Where to read the curve; ``None`` means ``np.linspace(0, 1, 101)``.

    Returns
    -------
    CurveBand
        ``grid`` (recall), ``curve`` (precision of the given test set), ``lower``, ``upper``.

    Examples
    --------
    >>> y = np.r_[np.ones(50, dtype=int), np.zeros(50, dtype=int)]
    >>> s = np.r_[np.random.default_rng(0).normal(1, 1, 100)[:50], np.zeros(50)]
    >>> band = pr_curve_band(y, s, recall_grid=[0.5], random_state=0)
    >>> band.y_name, band.grid.tolist()
    ('precision', [0.5])
    """
    grid = check_rate_grid(recall_grid, "recall_grid", np.linspace(0.0, 1.0, 101))
    curve, lower, upper, confidence, method, n_resamples = _band(
        y_true,
        y_score,
        grid,
        confidence,
        n_resamples,
        method,
        random_state,
        pos_label,
        _precision_at_recall,
    )
    return CurveBand(
        grid, curve, lower, upper, confidence, method, n_resamples, "recall", "precision"
    )
