"""Proper scores of probabilities (Brier score, log loss) and the softmax/NLL of logits."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _validation as _chk
from .._validation import calibration as _prob

# --------------------------------------------------------------------------------------------
# Proper scores (scikit-learn twins)
# --------------------------------------------------------------------------------------------


def brier_score_loss(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
    scale_by_half: Any = "auto",
) -> float:
    """Brier score: mean squared distance between the predicted probabilities and the outcome.

    .. math::
        \\mathrm{BS} = \\frac{1}{\\sum_i w_i}\\sum_i w_i \\sum_{c=1}^{C} (y_{ic} - \\hat p_{ic})^2

    with :math:`y_{ic}` the one-hot truth.  It lies in [0, 2]; ``scale_by_half='auto'`` halves it
    for binary problems, where it becomes the familiar :math:`\\frac1n\\sum_i (y_i - p_i)^2`
    in [0, 1].  A strictly proper score: it is minimised in expectation only by the true
    probabilities.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of ``pos_label``.  2-D: one column per class, in the sorted order of
        ``labels`` (or of the labels in ``y_true``).
    sample_weight : array-like of shape (n_samples,), optional
    pos_label : int, float, bool or str, optional
        The positive class for 1-D ``y_proba``.  Default: 1 when the labels are {0, 1} or
        {-1, 1}, else the greater label; strings must name it.
    labels : array-like, optional
        All class labels, for 2-D ``y_proba`` when ``y_true`` misses some.
    scale_by_half : bool or 'auto'
        Halve the score ('auto': when there are at most two columns).

    Returns
    -------
    float

    Examples
    --------
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 10)
    0.0375
    >>> round(brier_score_loss(["a", "b", "c"], [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]]), 10)
    0.1466666667
    """
    auto = isinstance(scale_by_half, str) and scale_by_half == "auto"
    if not (auto or isinstance(scale_by_half, (bool, np.bool_))):
        raise TypeError(f"scale_by_half must be True, False or 'auto'; got {scale_by_half!r}.")
    if sample_weight is not None and _chk.not_array_like(sample_weight):
        raise TypeError(f"sample_weight must be an array-like or None; got {sample_weight!r}.")
    if labels is not None and _chk.not_array_like(labels):
        raise TypeError(f"labels must be an array-like or None; got {labels!r}.")
    if pos_label is not None and not isinstance(pos_label, (str, int, float, np.number, np.bool_)):
        raise TypeError(f"pos_label must be an int, float, bool, str or None; got {pos_label!r}.")
    p = _prob.sklearn_proba(y_proba)
    if p.ndim == 1 or p.shape[1] == 1:
        onehot, p, w = _prob.sklearn_binary_targets(y_true, p, sample_weight, pos_label)
    else:
        onehot, p, w = _prob.sklearn_multiclass_targets(y_true, p, sample_weight, labels)
    per_sample = np.sum((onehot.astype(p.dtype) - p) ** 2, axis=1)
    score = np.average(per_sample, weights=w)
    if isinstance(scale_by_half, str):
        scale_by_half = p.shape[1] < 3
    if scale_by_half:
        score *= 0.5
    return float(score)


def log_loss(
    y_true: Any,
    y_proba: Any = None,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
) -> float:
    """Log loss (cross-entropy): the mean negative log-probability of the true class.

    .. math::
        \\mathrm{LL} = -\\frac{1}{\\sum_i w_i}\\sum_i w_i \\sum_{c} y_{ic}\\,\\log \\hat p_{ic}

    Probabilities are first clipped to :math:`[\\epsilon, 1-\\epsilon]` (:math:`\\epsilon` the
    machine epsilon of their dtype), so a confident mistake costs at most
    :math:`-\\log \\epsilon \\approx 36` in float64 instead of infinity.  From logits, use
    :func:`nll_from_logits`, which needs no clipping.

    Parameters
    ----------
    y_true : array-like of labels, or a label-indicator matrix
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the greater of two labels.  2-D: one column per class, sorted.
    normalize : bool, default True
        Mean per sample (True) or sum (False).
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like, optional
        All class labels, when ``y_true`` misses some.
    y_pred : deprecated
        The old name of ``y_proba`` (scikit-learn 1.9 deprecates it; kept for parity).

    Returns
    -------
    float

    Examples
    --------
    >>> round(log_loss(["spam", "ham", "ham", "spam"], [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 10)
    0.2161618747
    """
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError(
                "Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` instead."
            )
        import warnings

        warnings.warn(
            "`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. "
            "Use `y_proba` instead.",
            FutureWarning,
            stacklevel=2,
        )
        y_proba = y_pred
    normalize = _chk.check_bool(normalize, "normalize")
    if sample_weight is not None and _chk.not_array_like(sample_weight):
        raise TypeError(f"sample_weight must be an array-like or None; got {sample_weight!r}.")
    if labels is not None and _chk.not_array_like(labels):
        raise TypeError(f"labels must be an array-like or None; got {labels!r}.")
    p = _prob.sklearn_proba(y_proba)
    onehot, p, w = _prob.sklearn_multiclass_targets(y_true, p, sample_weight, labels)
    eps = np.finfo(p.dtype).eps
    p = np.clip(p, eps, 1 - eps)
    loss = -np.sum(onehot.astype(p.dtype) * np.log(p), axis=1)
    if normalize:
        return float(np.average(loss, weights=w))
    return float(loss.sum() if w is None else np.dot(loss, w))


# --------------------------------------------------------------------------------------------
# Softmax, NLL and temperature scaling
# --------------------------------------------------------------------------------------------


def log_softmax(logits: Any, axis: int = -1) -> np.ndarray:
    """:math:`\\log \\mathrm{softmax}(z)_k = z_k - \\log\\sum_j e^{z_j}`, computed stably.

    Subtracting the row maximum first keeps every exponent <= 0, so nothing overflows and the
    largest entry is exactly ``-log(sum ...)``; ``np.log(softmax(z))`` instead returns ``-inf``
    once a probability underflows to 0.

    >>> log_softmax([[0.0, 1000.0]]).tolist()
    [[-1000.0, 0.0]]
    """
    z = np.asarray(logits, dtype=np.float64)
    shifted = z - np.max(z, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def softmax(logits: Any, axis: int = -1) -> np.ndarray:
    """:math:`\\mathrm{softmax}(z)_k = e^{z_k} / \\sum_j e^{z_j}`, stable for any finite logits.

    >>> softmax([[0.0, 0.0], [0.0, np.log(3.0)]]).round(3).tolist()
    [[0.5, 0.5], [0.25, 0.75]]
    """
    return np.exp(log_softmax(logits, axis=axis))


def _logit_problem(
    logits: Any, y_true: Any, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, K) logits (1-D binary logits z become columns [0, z]), class indices, weights."""
    z = _prob.check_real_array(logits, "logits", ndims=(1, 2))
    if z.ndim == 1:
        z = np.stack([np.zeros_like(z), z], axis=1)
    if z.shape[1] < 2:
        raise ValueError(
            f"logits must have at least 2 columns (one per class); got shape {z.shape}."
        )
    if _chk.not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of class indices; got {y_true!r}.")
    y = _chk.check_labels_1d(y_true, "y_true")
    weights = None if sample_weight is None else np.asarray(sample_weight)
    _chk.check_lengths("", logits=z, y_true=y, sample_weight=weights)
    y = _chk.class_indices(y, z.shape[1], binary_1d=np.ndim(logits) == 1)
    w = _chk.check_sample_weight(
        sample_weight, z.shape[0], non_negative=True, dtype_error=ValueError
    )
    w = np.ones(z.shape[0]) if w is None else w
    return z, y, w


def nll_from_logits(
    logits: Any, y_true: Any, temperature: float = 1.0, *, sample_weight: Any = None
) -> float:
    """Mean negative log-likelihood of softmax(logits / T), from logits (no clipping needed).

    .. math::
        \\mathrm{NLL}(T) = \\frac{1}{\\sum_i w_i}\\sum_i w_i\\Bigl(\\log\\sum_k e^{z_{ik}/T}
        - z_{i y_i}/T\\Bigr)

    1-D ``logits`` are binary logits :math:`z` with :math:`p(y{=}1) = \\sigma(z/T)`.  Equals
    ``log_loss(y_true, apply_temperature(logits, T))`` wherever no probability is clipped.

    >>> round(nll_from_logits([[2.0, 0.0], [0.0, 3.0]], [0, 1]), 6)
    0.087758
    >>> nll_from_logits([[0.0, 800.0]], [0])  # log(softmax) would give inf here
    800.0
    """
    z, y, w = _logit_problem(logits, y_true, sample_weight)
    t = _prob.check_temperature(temperature)
    lp = log_softmax(z / t)
    return float(np.sum(w * -lp[np.arange(z.shape[0]), y]) / w.sum())
