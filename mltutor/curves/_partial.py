"""Partial ROC AUC over a range of false positive rates or of true positive rates, raw or
McClish-standardised, from the kernel's counts."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_binary_scores
from .._validation.params import check_bool
from .._validation.scores import check_unit_range
from ._counts import cumulative_counts
from ._curves import roc_rates, sorted_roc_bends

__all__ = ["partial_roc_auc"]


def area_between(x: np.ndarray, y: np.ndarray, lo: float, hi: float) -> float:
    """Trapezoidal area under the polyline ``(x, y)`` (``x`` non-decreasing, from 0 to 1) between
    ``x = lo`` and ``x = hi``, the end segments cut by linear interpolation.

    The cumulative area :math:`F(c) = \\int_{x_0}^{c} y\\,dx` is piecewise quadratic and
    continuous (a vertical segment, two points with equal ``x``, adds nothing), so
    :math:`F(hi) - F(lo)` does not depend on which point of a vertical segment is read.
    """
    # Only the segments that meet [lo, hi] matter: from the last point at or below lo to the
    # first point above hi.
    first, last = np.searchsorted(x, [lo, hi], side="right")
    x, y = x[max(first - 1, 0) : last + 1], y[max(first - 1, 0) : last + 1]
    if x.shape[0] < 2:  # lo = hi = the last point (a range ending at 1 with no width left)
        return 0.0
    widths = np.diff(x)
    cumulative = np.concatenate(([0.0], np.cumsum(widths * (y[1:] + y[:-1]) * 0.5)))
    ends = np.array([lo, hi])
    k = np.clip(np.searchsorted(x, ends, side="right") - 1, 0, x.shape[0] - 2)
    step = widths[k]
    slope = np.divide(y[k + 1] - y[k], step, out=np.zeros_like(step), where=step > 0)
    dx = ends - x[k]
    partial = dx * (y[k] + 0.5 * slope * dx)  # the trapezoid from x[k] to the end
    at = cumulative[k] + partial
    return float(at[1] - at[0])


def standardize(area: float, chance: float, perfect: float) -> float:
    """McClish's map of a partial area from [chance, perfect] onto [0.5, 1]."""
    return 0.5 * (1.0 + (area - chance) / (perfect - chance))


def partial_roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    fpr_range: Any = None,
    tpr_range: Any = None,
    standardized: bool = False,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    r"""Partial area under the ROC curve over a range of FPR, or of TPR; raw or standardised.

    The ROC curve is the one :func:`roc_curve` returns, joined by straight segments (a run of
    tied scores is one diagonal segment), as for :func:`roc_auc_score`.

    **FPR range** ``fpr_range=(a, b)`` (the usual partial AUC,
    :cite:p:`mcclish1989analyzing`): the area under the curve between two false positive rates,

    .. math:: A = \int_a^b \mathrm{TPR}(f)\,df, \qquad
              A_\text{chance} = \frac{b^2 - a^2}{2}, \quad A_\text{perfect} = b - a.

    **TPR range** ``tpr_range=(a, b)``: the area between the curve and the right edge of the unit
    square, over the band of true positive rates :math:`a \le \mathrm{TPR} \le b`,

    .. math:: A = \int_a^b \bigl(1 - \mathrm{FPR}(t)\bigr)\,dt, \qquad
              A_\text{chance} = (b - a) - \frac{b^2 - a^2}{2}, \quad A_\text{perfect} = b - a,

    where :math:`\mathrm{FPR}(t)` is the curve read sideways.  With ``b = 1`` this is the
    "partial area" above the line :math:`\mathrm{TPR} = a` of Jiang, Metz and Nishikawa
    :cite:p:`jiang1996receiver`, and their *partial area index* is :math:`A / (1 - a)`.

    ``standardized=True`` applies McClish's transformation :cite:p:`mcclish1989analyzing`,
    :math:`\tfrac12\bigl(1 + \frac{A - A_\text{chance}}{A_\text{perfect} - A_\text{chance}}\bigr)`:
    0.5 for a chance-level curve over the range, 1 for a perfect one.  McClish defined it for
    ranges of FPR; for a range of TPR the same map uses that range's chance and perfect areas
    above.  With ``fpr_range=(0, m)`` it is ``sklearn.metrics.roc_auc_score(..., max_fpr=m)``.  With neither
    range the area is over all FPR (the ROC AUC).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, binary (or multiclass with ``pos_label``); both classes present.
    y_score : array-like of shape (n_samples,)
        Scores, larger means more positive.  Finite.
    fpr_range, tpr_range : pair of floats ``(lo, hi)`` with ``0 <= lo < hi <= 1``, default=None
        At most one of the two.
    standardized : bool, default=False
        McClish-standardise the area (see above).
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 and needs labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample.

    Returns
    -------
    float
        The raw area (at most ``hi - lo``) or the standardised one.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> partial_roc_auc(y, s, fpr_range=(0, 0.5))
    0.25
    >>> partial_roc_auc(y, s, fpr_range=(0, 0.5), standardized=True)
    0.6666666666666666
    >>> partial_roc_auc(y, s, tpr_range=(0.5, 1))
    0.25
    """
    fpr_range = check_unit_range(fpr_range, "fpr_range")
    tpr_range = check_unit_range(tpr_range, "tpr_range")
    if fpr_range is not None and tpr_range is not None:
        raise ValueError("Give fpr_range or tpr_range, not both.")
    standardized = check_bool(standardized, "standardized")
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    # Without weights the sort-only bends (collinear points dropped: the same polyline).
    counts = (
        sorted_roc_bends(is_positive, scores)
        if weights is None
        else cumulative_counts(is_positive, scores, weights)
    )
    if not (counts.tps[-1] > 0 and counts.fps[-1] > 0):
        raise ValueError(
            "Only one class is present in y_true (or one class has zero total weight). "
            "A partial ROC AUC is not defined in that case."
        )
    fpr, tpr, _ = roc_rates(counts)
    if tpr_range is None:
        lo, hi = fpr_range if fpr_range is not None else (0.0, 1.0)
        area = area_between(fpr, tpr, lo, hi)
        chance = 0.5 * (hi * hi - lo * lo)
    else:
        lo, hi = tpr_range
        area = area_between(tpr, 1.0 - fpr, lo, hi)
        chance = (hi - lo) - 0.5 * (hi * hi - lo * lo)
    return standardize(area, chance, hi - lo) if standardized else area
