r"""The hinge loss of decision values (the margin loss of linear SVMs)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.scores import check_hinge_inputs

__all__ = ["hinge_loss"]


def hinge_loss(
    y_true: Any, pred_decision: Any, *, labels: Any = None, sample_weight: Any = None
) -> float:
    r"""Average hinge loss: how far each decision value falls short of a margin of 1.

    .. math::
        \mathrm{HL} = \frac{1}{\sum_i w_i} \sum_i w_i \max(0,\ 1 - m_i), \qquad
        m_i = \begin{cases} y_i\, f_i & \text{binary, } y_i \in \{-1, +1\} \\
        f_{i, y_i} - \max_{c \ne y_i} f_{i c} & \text{multiclass (Crammer-Singer)} \end{cases}

    Binary: the greater label of ``y_true`` is +1 and the other -1 (if ``y_true`` holds one
    label, every sample counts as -1, as in scikit-learn); ``pred_decision`` is one value per
    sample.  Multiclass (more than two classes in ``labels``, or in ``y_true`` without
    ``labels``): one column per class in sorted order.  Matches scikit-learn 1.9's
    ``sklearn.metrics.hinge_loss``; an upper bound on the number of mistakes per sample.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    pred_decision : array-like of shape (n_samples,) or (n_samples, n_classes)
        Decision values (``decision_function``), finite.
    labels : array-like, default=None
        Every class of a multiclass problem, when ``y_true`` misses some.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float

    Raises
    ------
    ValueError
        A 1-D ``pred_decision`` with more than two classes, a column count that is not the
        number of classes, labels of ``y_true`` missing from ``labels``, NaN or infinity.
        Unlike scikit-learn, two or fewer ``labels`` with more classes in ``y_true`` are refused.

    Examples
    --------
    >>> hinge_loss([-1, 1, 1], [-2.18, 2.36, 0.09])
    0.30...
    >>> round(hinge_loss([0, 1, 2], [[2.0, 0.5, 0.1], [0.2, 1.1, 0.9], [0.3, 0.1, 0.0]]), 6)
    0.7
    """
    d, sign, true_idx, w = check_hinge_inputs(y_true, pred_decision, labels, sample_weight)
    if true_idx is None:
        margin = sign * d
    else:
        true_score = np.take_along_axis(d, true_idx[:, None], axis=1)[:, 0]
        # The best other class, one class (column) at a time: no copy of the whole matrix.
        best_other = np.full(d.shape[0], -np.inf)
        for c in range(d.shape[1]):
            np.maximum(best_other, np.where(true_idx == c, -np.inf, d[:, c]), out=best_other)
        margin = true_score - best_other
    losses = np.maximum(1.0 - margin, 0.0)
    return float(np.average(losses, weights=w))
