"""Isotonic regression by pool-adjacent-violators (PAV), written out by hand.

Isotonic regression finds the non-decreasing sequence closest to the targets in weighted least
squares:

.. math::
    \\hat y = \\arg\\min_{z_1 \\le z_2 \\le \\dots \\le z_m} \\sum_j w_j (y_j - z_j)^2

where the points are sorted by score.  Pool-adjacent-violators solves it exactly: walk left to
right; whenever a block's mean is above the next block's mean (a *violation*), pool the two blocks
into one whose value is their weighted mean, and keep pooling backwards while the new block still
violates its left neighbour.  Each point is pushed once and popped at most once, so the walk is
O(m).  The merging is sequential by nature (a pool can cascade backwards), so it runs as a plain
stack loop over *blocks*; the NumPy steps before it (sorting, averaging tied scores, pooling every
strictly decreasing run in one vectorised pass) usually leave far fewer blocks than points.

As a calibration map (Zadrozny and Elkan, 2002) the fitted steps turn scores into probabilities:
:func:`fit_isotonic` returns an :class:`IsotonicModel` with scikit-learn's
``IsotonicRegression(out_of_bounds='clip')`` semantics (linear interpolation between the fitted
points, constant beyond the ends).

The map is non-decreasing, not strictly increasing: scores inside one pooled block all get the same
probability, so isotonic calibration *creates ties*, and ties can lower a held-out AUC slightly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_lengths, check_sample_weight
from .._validation.calibration import check_real_array

__all__ = ["IsotonicModel", "fit_isotonic", "pool_adjacent_violators"]

#: Scores closer than this count as ties (scikit-learn's ``np.finfo(float64).resolution``).
TIE_TOLERANCE = float(np.finfo(np.float64).resolution)


def pool_adjacent_violators(y: Any, sample_weight: Any = None) -> np.ndarray:
    """Weighted isotonic (non-decreasing) least-squares fit of ``y``, in the given order.

    Parameters
    ----------
    y : array-like of shape (m,)
        Targets, already ordered by the score.
    sample_weight : array-like of shape (m,), optional
        Positive weights (default 1).

    Returns
    -------
    ndarray of shape (m,)
        The fitted values: non-decreasing, constant on each pooled block, equal there to the
        block's weighted mean :math:`\\sum_{j\\in B} w_j y_j / \\sum_{j \\in B} w_j`.

    Examples
    --------
    >>> pool_adjacent_violators([1.0, 3.0, 2.0, 4.0]).tolist()
    [1.0, 2.5, 2.5, 4.0]
    >>> pool_adjacent_violators([1.0, 3.0, 2.0], sample_weight=[1, 1, 3]).tolist()
    [1.0, 2.25, 2.25]
    """
    y = check_real_array(y, "y", ndims=(1,))
    if sample_weight is None:
        w = np.ones_like(y)
    else:
        check_lengths("", y=y, sample_weight=None if np.ndim(sample_weight) == 0 else sample_weight)
        w = check_sample_weight(
            sample_weight, y.shape[0], dtype_error=ValueError, allow_all_zero=True
        )
    if (w <= 0).any():
        raise ValueError("sample_weight must be > 0 here (drop zero-weight points first).")
    # 1. Vectorised first pass: every maximal strictly decreasing run is pooled at once (adjacent
    #    violators always share a level in the solution).  starts[k] is the first index of block k.
    starts = np.flatnonzero(np.r_[True, y[1:] >= y[:-1]])
    wy_sum = np.add.reduceat(w * y, starts)
    w_sum = np.add.reduceat(w, starts)
    # 2. The sequential part: a stack of blocks (sum of w*y, sum of w, first index).
    s_wy: list[float] = []
    s_w: list[float] = []
    s_start: list[int] = []
    for wy, ww, start in zip(wy_sum.tolist(), w_sum.tolist(), starts.tolist()):
        while s_w and s_wy[-1] / s_w[-1] > wy / ww:  # the left block violates: pool it in
            wy += s_wy.pop()
            ww += s_w.pop()
            start = s_start.pop()
        s_wy.append(wy)
        s_w.append(ww)
        s_start.append(start)
    means = np.asarray(s_wy) / np.asarray(s_w)
    lengths = np.diff(np.r_[s_start, y.shape[0]])
    return np.repeat(means, lengths)


@dataclass(frozen=True)
class IsotonicModel:
    """A fitted isotonic calibration map (scikit-learn's ``out_of_bounds='clip'``).

    Attributes
    ----------
    x_thresholds, y_thresholds : ndarray
        The points the map interpolates linearly between (scikit-learn's ``X_thresholds_`` and
        ``y_thresholds_``: interior points of a flat step are dropped).
    x_min, x_max : float
        The smallest and largest training score; new scores are clipped into this range.
    """

    x_thresholds: np.ndarray
    y_thresholds: np.ndarray
    x_min: float
    x_max: float

    def __call__(self, scores: Any) -> np.ndarray:
        """The calibrated values of ``scores`` (any shape is flattened to 1-D)."""
        s = check_real_array(scores, "scores", ndims=(1, 2)).reshape(-1)
        s = np.clip(s, self.x_min, self.x_max)
        if self.y_thresholds.shape[0] == 1:
            return np.repeat(self.y_thresholds, s.shape[0])
        return np.interp(s, self.x_thresholds, self.y_thresholds)

    predict = __call__


def fit_isotonic(scores: Any, y_true: Any, sample_weight: Any = None) -> IsotonicModel:
    """Fit a non-decreasing map from scores to (expected) labels by pool-adjacent-violators.

    The steps, as in scikit-learn's ``IsotonicRegression(increasing=True)``:

    1. drop points of zero weight; sort by score;
    2. average tied scores into one point: :math:`\\bar y = \\sum w_i y_i / \\sum w_i`, weight
       :math:`\\sum w_i` (scores closer than 1e-15 count as tied, as in scikit-learn);
    3. pool adjacent violators (:func:`pool_adjacent_violators`);
    4. keep the ends of each flat step and interpolate linearly in between.

    Parameters
    ----------
    scores : array-like of shape (n_samples,) or (n_samples, 1)
        Uncalibrated scores (any real numbers).
    y_true : array-like of shape (n_samples,)
        Targets: 0/1 labels for calibration (any real numbers are accepted).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights; zero-weight points are ignored.  (scikit-learn silently drops
        negative weights too; mltutor refuses them.)

    Returns
    -------
    IsotonicModel
        Callable: ``model(new_scores)`` gives calibrated values in ``[min y, max y]``.

    Examples
    --------
    >>> model = fit_isotonic([0.1, 0.4, 0.35, 0.8], [0, 1, 0, 1])
    >>> model([0.1, 0.35, 0.4, 0.8, 2.0]).tolist()
    [0.0, 0.0, 1.0, 1.0, 1.0]
    >>> fit_isotonic([1, 2, 3], [1, 0, 1])([1, 2, 3]).tolist()  # pooling creates a tie
    [0.5, 0.5, 1.0]
    """
    x = check_real_array(scores, "scores", ndims=(1, 2))
    if x.ndim == 2:
        if x.shape[1] != 1:
            raise ValueError(f"scores must be 1-D (one score per sample); got shape {x.shape}.")
        x = x.reshape(-1)
    y = check_real_array(y_true, "y_true", ndims=(1,))
    weights = None if sample_weight is None else np.asarray(sample_weight)
    check_lengths("", scores=x, y_true=y, sample_weight=weights)
    w = check_sample_weight(sample_weight, x.shape[0], non_negative=True, dtype_error=ValueError)
    if w is None:
        w = np.ones_like(x)
    else:
        keep = w > 0
        x, y, w = x[keep], y[keep], w[keep]
    order = np.lexsort((y, x))
    x, y, w = x[order], y[order], w[order]
    # Tied scores: a new group starts where the score moves by at least TIE_TOLERANCE.
    starts = np.flatnonzero(np.r_[True, np.diff(x) >= TIE_TOLERANCE])
    x_unique = x[starts]
    w_unique = np.add.reduceat(w, starts)
    y_unique = np.add.reduceat(w * y, starts) / w_unique
    fitted = pool_adjacent_violators(y_unique, w_unique)
    keep = np.ones(fitted.shape[0], dtype=bool)  # drop the inside of flat steps
    keep[1:-1] = (fitted[1:-1] != fitted[:-2]) | (fitted[1:-1] != fitted[2:])
    return IsotonicModel(x_unique[keep], fitted[keep], float(x_unique[0]), float(x_unique[-1]))
