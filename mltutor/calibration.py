"""Probability calibration: proper scores, reliability bins, ECE and three recalibration maps.

A classifier is *calibrated* when, among the samples it gives probability ``p``, a fraction ``p``
is positive.  This module measures that and repairs it:

* **scores** — :func:`brier_score_loss` and :func:`log_loss` (scikit-learn 1.9 parity; also
  re-exported by :mod:`mltutor.metrics`), and :func:`nll_from_logits` (exact, from logits);
* **reliability** — :func:`calibration_curve` (scikit-learn parity), :func:`calibration_bins`,
  :func:`expected_calibration_error` and :func:`maximum_calibration_error` (torchmetrics'
  ``CalibrationError`` with ``norm='l1'`` / ``'max'``);
* **recalibration maps**, each fitted on held-out data —
  temperature scaling (:func:`fit_temperature`, :func:`apply_temperature`),
  Platt scaling (:func:`fit_platt`, :func:`apply_platt`) and
  isotonic regression (:func:`fit_isotonic`, pool-adjacent-violators in :mod:`mltutor.isotonic`).

Temperature and Platt scaling (with ``a > 0``) are strictly increasing maps of one score, so
they change the probabilities but not the order of that score: a binary AUC stays where it was,
as long as no probability saturates (in float64, sigmoids of logits above about 36 round to the
same few values next to 1.0 and tie).  Temperature scaling also keeps each sample's argmax, and
so the top-1 accuracy.  Platt scaling moves a fixed cut-off such as 0.5 to another score, so the
accuracy at that cut-off can change (chapter 6b: from 0.6165 to 0.7885).  With several classes,
a class's softmax probabilities can reorder across samples under temperature scaling (a
one-vs-rest AUC moves slightly), and one-vs-rest maps (a Platt or isotonic map per class, then
each row renormalised, as scikit-learn's ``CalibratedClassifierCV`` does with ``"sigmoid"`` and
``"isotonic"``) can change the argmax and the accuracy.  Isotonic regression is only
non-decreasing: it pools scores into steps, which creates ties and can lower a held-out AUC
slightly.  Judge calibration by ECE, NLL and the Brier score, not by AUC.

Differences from the references (each refuses input the reference mis-handles, or is a last-digit
detail):

* ``calibration_curve`` refuses NaN in ``y_prob`` (scikit-learn bins it into the last bin and
  returns a NaN mean) and NaN in ``y_true``;
* ``log_loss`` on float32 probabilities is computed in float32, as in scikit-learn, but with
  NumPy's float32 logarithm where scikit-learn uses SciPy's ``xlogy``: the two differ in the last
  float32 digit (about 1e-7 relative); float64 input agrees to 1e-12;
* ``fit_isotonic`` refuses negative ``sample_weight`` (scikit-learn drops those points silently);
* strings of digits ("0.5") are refused as probabilities (scikit-learn converts them);
* ``expected_calibration_error`` puts a confidence of exactly 1.0 into the last bin; torchmetrics
  opens an extra (n_bins + 1)-th bin for it (see :func:`calibration_bins`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import _validation as _chk
from ._validation import calibration as _prob
from .isotonic import IsotonicModel, fit_isotonic, pool_adjacent_violators

__all__ = [
    "CalibrationBins",
    "IsotonicModel",
    "apply_platt",
    "apply_temperature",
    "brier_score_loss",
    "calibration_bins",
    "adaptive_calibration_error",
    "calibration_curve",
    "classwise_calibration_error",
    "expected_calibration_error",
    "fit_isotonic",
    "fit_platt",
    "fit_temperature",
    "log_loss",
    "log_softmax",
    "maximum_calibration_error",
    "nll_from_logits",
    "pool_adjacent_violators",
    "softmax",
]


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
# Reliability: calibration_curve (scikit-learn) and binned calibration error (torchmetrics)
# --------------------------------------------------------------------------------------------


def calibration_curve(
    y_true: Any, y_prob: Any, *, pos_label: Any = None, n_bins: int = 5, strategy: str = "uniform"
) -> tuple[np.ndarray, np.ndarray]:
    """Points of a reliability diagram: fraction of positives vs mean probability, per bin.

    Bins cut [0, 1] into ``n_bins`` equal widths (``'uniform'``) or at the quantiles of
    ``y_prob`` (``'quantile'``).  A probability on an inner edge goes to the bin *below* it
    (bins are :math:`(e_{k}, e_{k+1}]`, the first one closed), as in scikit-learn.  For bin
    :math:`B_k`

    .. math::
        \\text{prob\\_true}_k = \\frac{|\\{i \\in B_k: y_i = \\text{pos}\\}|}{|B_k|},\\qquad
        \\text{prob\\_pred}_k = \\frac{1}{|B_k|}\\sum_{i\\in B_k} p_i

    and empty bins are left out, so fewer than ``n_bins`` points may come back.  A calibrated
    model lies on the diagonal up to each bin's sampling noise.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_prob : array-like of shape (n_samples,)
        Probabilities of the positive class, in [0, 1].
    pos_label : int, float, bool or str, optional
        Default 1 when the labels are {0, 1} or {-1, 1}; otherwise it must be given.
    n_bins : int >= 1, default 5
    strategy : {'uniform', 'quantile'}

    Returns
    -------
    prob_true, prob_pred : ndarray of shape (n_nonempty_bins,)

    Examples
    --------
    >>> t, p = calibration_curve([0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...                          [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0], n_bins=3)
    >>> t.tolist(), np.round(p, 3).tolist()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    """
    if pos_label is not None and not isinstance(pos_label, (str, int, float, np.number, np.bool_)):
        raise TypeError(f"pos_label must be an int, float, bool, str or None; got {pos_label!r}.")
    n_bins = _chk.check_n_bins(n_bins)
    strategy = _chk.check_strategy(strategy)
    if _chk.not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {y_true!r}.")
    yt = _chk.check_labels_1d(y_true, "y_true")
    p = _prob.check_real_array(y_prob, "y_prob", ndims=(1, 2), keep_dtype=True)
    if p.ndim == 2:
        if p.shape[1] != 1:
            raise ValueError(
                f"y_prob must be 1-D (the probability of the positive class); got shape {p.shape}."
            )
        p = p.reshape(-1)
    _chk.check_lengths("", y_true=yt, y_prob=p)
    classes = np.unique(yt)
    pos_label = _prob.sklearn_pos_label(pos_label, classes, fall_back=False)
    if p.min() < 0 or p.max() > 1:
        raise ValueError("y_prob has values outside [0, 1].")
    if classes.size > 2:
        raise ValueError(f"Only binary classification is supported. Provided labels {classes}.")
    positive = _chk.equals_label(yt, pos_label)
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    bin_of = np.searchsorted(edges[1:-1], p)
    sums = np.bincount(bin_of, weights=p, minlength=n_bins)
    hits = np.bincount(bin_of, weights=positive, minlength=n_bins)
    totals = np.bincount(bin_of, minlength=n_bins)
    nonzero = totals != 0
    return hits[nonzero] / totals[nonzero], sums[nonzero] / totals[nonzero]


class CalibrationBins(NamedTuple):
    """Per-bin summary of a reliability diagram (from :func:`calibration_bins`).

    Attributes
    ----------
    edges : ndarray of shape (n_bins + 1,)
        Bin edges; bin ``k`` is ``[edges[k], edges[k+1])``, the last one closed.
    count : ndarray of int64, shape (n_bins,)
        Samples per bin.
    confidence : ndarray of shape (n_bins,)
        Mean confidence per bin (0 where the bin is empty).
    accuracy : ndarray of shape (n_bins,)
        Fraction correct (top-label) or positive (binary) per bin (0 where empty).
    """

    edges: np.ndarray
    count: np.ndarray
    confidence: np.ndarray
    accuracy: np.ndarray


def _confidence_and_hits(y_true: Any, y_prob: Any) -> tuple[np.ndarray, np.ndarray]:
    """Binary: (p, y).  Matrix: (max_k p_ik, [argmax_k p_ik == y_i])."""
    p = _prob.check_real_array(y_prob, "y_prob", ndims=(1, 2))
    _prob.check_probabilities_range(p, "y_prob")
    if p.ndim == 2 and p.shape[1] == 1:
        p = p.reshape(-1)
    n_classes = 2 if p.ndim == 1 else p.shape[1]
    if _chk.not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {y_true!r}.")
    y = _chk.check_labels_1d(y_true, "y_true")
    _chk.check_lengths("", y_true=y, y_prob=p)
    y = _chk.class_indices(y, n_classes, binary_1d=p.ndim == 1)
    if p.ndim == 1:
        return p, y.astype(np.float64)
    return p.max(axis=1), (p.argmax(axis=1) == y).astype(np.float64)


def calibration_bins(
    y_true: Any, y_prob: Any, *, n_bins: int = 15, strategy: str = "uniform"
) -> CalibrationBins:
    """Bin the confidences and compare each bin's mean confidence with its accuracy.

    * Binary (``y_prob`` 1-D, the probability of class 1): *positive-class* calibration — the
      confidence is :math:`p_i` and the "accuracy" of a bin is its fraction of positives
      (torchmetrics' ``BinaryCalibrationError``).  For the top-label view of a binary model pass
      the two-column matrix ``np.c_[1 - p, p]``.
    * Multiclass (``y_prob`` of shape (n, K), rows summing to 1): *top-label* calibration — the
      confidence is :math:`\\max_k p_{ik}` and the accuracy is whether the argmax is right
      (torchmetrics' ``MulticlassCalibrationError``, Guo et al. 2017).

    Bin ``k`` is :math:`[e_k, e_{k+1})` and the last bin is closed at 1, as in torchmetrics
    (``torch.bucketize(..., right=True)``); ``calibration_curve`` instead sends a value on an
    inner edge to the bin below.  ``'uniform'`` edges are ``np.linspace(0, 1, n_bins + 1)``;
    ``'quantile'`` edges are the percentiles of the confidences (equal-count bins).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels (binary) or class indices 0..K-1 (multiclass).
    y_prob : array-like of shape (n_samples,) or (n_samples, K)
    n_bins : int >= 1, default 15
    strategy : {'uniform', 'quantile'}

    Examples
    --------
    >>> b = calibration_bins([0, 0, 1, 1, 1], [0.25, 0.25, 0.55, 0.75, 0.75], n_bins=2)
    >>> b.count.tolist(), b.confidence.round(4).tolist(), b.accuracy.tolist()
    ([2, 3], [0.25, 0.6833], [0.0, 1.0])
    """
    n_bins = _chk.check_n_bins(n_bins)
    strategy = _chk.check_strategy(strategy)
    conf, hits = _confidence_and_hits(y_true, y_prob)
    return _binned(conf, hits, n_bins, strategy)


def _binned(conf: np.ndarray, hits: np.ndarray, n_bins: int, strategy: str) -> CalibrationBins:
    """The bins of :func:`calibration_bins` for validated confidences and hits."""
    if strategy == "quantile":
        edges = np.percentile(conf, np.linspace(0, 100, n_bins + 1))
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    bin_of = np.searchsorted(edges[1:-1], conf, side="right")
    return CalibrationBins(edges, *_bin_means(bin_of, conf, hits, n_bins))


def _bin_means(bin_of: np.ndarray, conf: np.ndarray, hits: np.ndarray,
               n_bins: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per bin: the count, the mean confidence and the mean hit (0 in an empty bin)."""
    count = np.bincount(bin_of, minlength=n_bins)
    safe = np.maximum(count, 1)
    confidence = np.bincount(bin_of, weights=conf, minlength=n_bins) / safe
    accuracy = np.bincount(bin_of, weights=hits, minlength=n_bins) / safe
    return count, confidence, accuracy


def _ece(count: np.ndarray, confidence: np.ndarray, accuracy: np.ndarray) -> float:
    """The count-weighted mean gap between accuracy and confidence over the bins."""
    return float(np.sum(count / count.sum() * np.abs(accuracy - confidence)))


def expected_calibration_error(
    y_true: Any, y_prob: Any, *, n_bins: int = 15, strategy: str = "uniform"
) -> float:
    """Expected calibration error: the bin-weighted mean gap between accuracy and confidence.

    .. math::
        \\mathrm{ECE} = \\sum_{k=1}^{M} \\frac{|B_k|}{n}\\,\\bigl|\\mathrm{acc}(B_k) -
        \\mathrm{conf}(B_k)\\bigr|

    Which ECE this is depends on the shape of ``y_prob`` (binning as in :func:`calibration_bins`):

    * ``y_prob`` of shape (n, K): the **top-label** ECE.  The confidence is
      :math:`\\max_k p_{ik}` and the accuracy is whether the argmax is right (Guo et al. 2017;
      torchmetrics' ``MulticlassCalibrationError``).
    * ``y_prob`` 1-D, the probability of class 1: the **positive-class** (binary) ECE.  The
      confidence is :math:`p_i` itself and the accuracy of a bin is its fraction of positives
      (torchmetrics' ``BinaryCalibrationError``; the points of ``calibration_curve``).  This is
      *not* the top-label ECE of the same binary model, which bins :math:`\\max(p_i, 1 - p_i)`:
      pass ``np.c_[1 - p, p]`` for that one.

    Two more variants have functions of their own: the **class-wise** ECE
    (:func:`classwise_calibration_error`, the mean over the K columns of each column's
    positive-class ECE, Kull et al. 2019) and the **adaptive** (equal-mass) ECE
    (:func:`adaptive_calibration_error`, bins holding equal numbers of samples).  Name the
    variant when you report a number: they differ on the same predictions.

    Equals torchmetrics' ``BinaryCalibrationError`` / ``MulticlassCalibrationError`` with
    ``norm='l1'`` (default 15 bins) unless a confidence is exactly 1.0, which torchmetrics puts
    in an extra bin of its own.

    ECE depends on the binning (more bins: a noisier, usually larger estimate) and is 0 for a
    model that predicts the test set's class frequencies for every sample, so report it next to
    a proper score (log loss, Brier), not alone.  It is biased upwards: on a finite sample the
    expected ECE of a perfectly calibrated model is above 0 (unless all its probabilities are 0
    or 1), about 0.022 on 3,000 samples with 15 bins in chapter 6b's ten-class simulation (about
    0.04 with 50 bins, or on 1,000 samples).
    Compare an ECE, or a difference between two, with that noise floor for the same number of
    samples and bins.

    Examples
    --------
    >>> round(expected_calibration_error([0, 0, 1, 1, 1], [0.25, 0.25, 0.55, 0.75, 0.75], n_bins=2), 4)
    0.29
    """
    b = calibration_bins(y_true, y_prob, n_bins=n_bins, strategy=strategy)
    return _ece(b.count, b.confidence, b.accuracy)


def maximum_calibration_error(
    y_true: Any, y_prob: Any, *, n_bins: int = 15, strategy: str = "uniform"
) -> float:
    """Maximum calibration error: the largest accuracy-confidence gap over non-empty bins.

    .. math:: \\mathrm{MCE} = \\max_{k:\\,|B_k|>0} \\bigl|\\mathrm{acc}(B_k) - \\mathrm{conf}(B_k)\\bigr|

    torchmetrics' ``norm='max'``.  A bin with a single sample can set it, so read it with the bin
    counts.

    Examples
    --------
    >>> round(maximum_calibration_error([0, 0, 1, 1, 1], [0.25, 0.25, 0.55, 0.75, 0.75], n_bins=2), 4)
    0.3167
    """
    b = calibration_bins(y_true, y_prob, n_bins=n_bins, strategy=strategy)
    return float(np.max(np.abs(b.accuracy - b.confidence)[b.count > 0]))


def classwise_calibration_error(
    y_true: Any, y_prob: Any, *, n_bins: int = 15, strategy: str = "uniform"
) -> float:
    """Class-wise ECE: the mean over the K classes of each column's positive-class ECE.

    .. math::
        \\mathrm{cwECE} = \\frac1K \\sum_{k=1}^{K} \\sum_{b=1}^{M} \\frac{|B_{kb}|}{n}\\,
        \\bigl|\\overline{[y_i = k]}_{B_{kb}} - \\overline{p_{ik}}_{B_{kb}}\\bigr|

    where :math:`B_{kb}` bins the column :math:`p_{\\cdot k}` (Kull et al. 2019).  Unlike the
    top-label ECE it also checks the probabilities of the classes that were *not* predicted, so
    a model whose runner-up probabilities are off scores worse here.  Bins as in
    :func:`calibration_bins`; each column is binned on its own.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class indices 0..K-1.
    y_prob : array-like of shape (n_samples, K), K >= 2
    n_bins : int >= 1, default 15
    strategy : {'uniform', 'quantile'}

    Examples
    --------
    >>> p = np.array([[0.8, 0.2], [0.6, 0.4], [0.3, 0.7], [0.1, 0.9]])
    >>> round(classwise_calibration_error([0, 1, 1, 1], p, n_bins=2), 4)
    0.2
    """
    p = _prob.check_real_array(y_prob, "y_prob", ndims=(2,))
    if p.shape[1] < 2:
        raise ValueError(f"y_prob must have K >= 2 class columns; got shape {p.shape}.")
    _prob.check_probabilities_range(p, "y_prob")
    if _chk.not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {y_true!r}.")
    y = _chk.check_labels_1d(y_true, "y_true")
    _chk.check_lengths("", y_true=y, y_prob=p)
    y = _chk.class_indices(y, p.shape[1])
    n_bins = _chk.check_n_bins(n_bins)
    strategy = _chk.check_strategy(strategy)
    bins = [_binned(p[:, k], (y == k).astype(np.float64), n_bins, strategy)
            for k in range(p.shape[1])]  # a loop over classes, each one vectorised
    return float(np.mean([_ece(b.count, b.confidence, b.accuracy) for b in bins]))


def adaptive_calibration_error(y_true: Any, y_prob: Any, *, n_bins: int = 15) -> float:
    """Adaptive (equal-mass) ECE: the ECE over bins that hold equal numbers of samples.

    .. math::
        \\mathrm{ACE} = \\sum_{b=1}^{M} \\frac{|B_b|}{n}\\,\\bigl|\\mathrm{acc}(B_b) -
        \\mathrm{conf}(B_b)\\bigr|,\\qquad |B_b| \\in \\{\\lfloor n/M \\rfloor, \\lceil n/M \\rceil\\}

    The confidences (top-label for a matrix ``y_prob``, positive-class for 1-D, as in
    :func:`expected_calibration_error`) are sorted (stable, so ties keep the input order) and
    cut into ``n_bins`` consecutive groups of as equal size as possible (``np.array_split``).
    With equal-width bins most samples of a confident model share the top bin or two; equal-mass
    bins spend the resolution where the samples are.  Unlike ``strategy='quantile'``, whose
    percentile edges can leave bins unequal when confidences tie, every bin here has
    ⌊n/M⌋ or ⌈n/M⌉ samples (fewer bins than ``n_bins`` when n < ``n_bins``).

    Examples
    --------
    >>> round(adaptive_calibration_error([0, 0, 1, 1, 1], [0.25, 0.25, 0.55, 0.75, 0.75], n_bins=2), 4)
    0.11
    """
    n_bins = _chk.check_n_bins(n_bins)
    conf, hits = _confidence_and_hits(y_true, y_prob)
    order = np.argsort(conf, kind="stable")
    n = conf.shape[0]
    bins = min(n_bins, n)
    bin_of = np.empty(n, dtype=np.intp)
    # np.array_split's sizes: the first n % bins groups get one sample more
    bin_of[order] = np.repeat(np.arange(bins), _split_sizes(n, bins))
    return _ece(*_bin_means(bin_of, conf, hits, bins))


def _split_sizes(n: int, bins: int) -> np.ndarray:
    """Group sizes of ``np.array_split(range(n), bins)``."""
    sizes = np.full(bins, n // bins)
    sizes[: n % bins] += 1
    return sizes


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


def _logit_problem(logits: Any, y_true: Any, sample_weight: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, K) logits (1-D binary logits z become columns [0, z]), class indices, weights."""
    z = _prob.check_real_array(logits, "logits", ndims=(1, 2))
    if z.ndim == 1:
        z = np.stack([np.zeros_like(z), z], axis=1)
    if z.shape[1] < 2:
        raise ValueError(f"logits must have at least 2 columns (one per class); got shape {z.shape}.")
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
    t = _check_temperature(temperature)
    lp = log_softmax(z / t)
    return float(np.sum(w * -lp[np.arange(z.shape[0]), y]) / w.sum())


def _check_temperature(temperature: Any) -> float:
    if isinstance(temperature, (bool, np.bool_)) or not isinstance(temperature, (int, float, np.number)):
        raise TypeError(f"temperature must be a positive number; got {temperature!r}.")
    t = float(temperature)
    if not t > 0 or np.isnan(t):
        raise ValueError(f"temperature must be > 0 (inf gives uniform probabilities); got {temperature!r}.")
    return t


class _Margins(NamedTuple):
    """Per-sample logit margins d_ik = z_ik - z_iy (what the NLL's derivatives in beta need),
    their row maximum (for an overflow-free exp) and squares; computed once per fit."""

    d: np.ndarray
    d_max: np.ndarray
    d2: np.ndarray
    w: np.ndarray


def _margins(z: np.ndarray, y: np.ndarray, w: np.ndarray) -> _Margins:
    d = z - z[np.arange(z.shape[0]), y][:, None]
    return _Margins(d, d.max(axis=1, keepdims=True), d * d, w / w.sum())


def _beta_derivatives(m: _Margins, beta: float) -> tuple[float, float]:
    """First and second derivative in beta = 1/T of the weighted-mean NLL of softmax(beta z):
    f'(beta) = mean_i E_p[d_i],  f''(beta) = mean_i Var_p[d_i],  p = softmax(beta z_i) =
    softmax(beta d_i).  Margins d = z - z_y are better conditioned than E[z] - z_y."""
    e = np.exp(beta * (m.d - m.d_max))  # every exponent <= 0
    total = e.sum(axis=1)
    mean_d = np.einsum("ij,ij->i", e, m.d) / total
    var = np.einsum("ij,ij->i", e, m.d2) / total - mean_d**2
    return float(np.dot(m.w, mean_d)), float(max(np.dot(m.w, np.maximum(var, 0.0)), 0.0))


def fit_temperature(logits: Any, y_true: Any, *, sample_weight: Any = None) -> float:
    """Temperature :math:`T > 0` minimising the NLL of :math:`\\mathrm{softmax}(z / T)`.

    Temperature scaling (Guo et al., 2017) divides every logit by one number fitted on held-out
    data: :math:`T > 1` softens over-confident probabilities, :math:`T < 1` sharpens them.  As a
    function of :math:`\\beta = 1/T` the NLL

    .. math::
        f(\\beta) = \\frac{1}{\\sum_i w_i}\\sum_i w_i\\Bigl(\\log\\sum_k e^{\\beta z_{ik}}
        - \\beta z_{i y_i}\\Bigr)

    is *convex*, with :math:`f'(\\beta) = \\overline{E_{p}[z] - z_y}` and
    :math:`f''(\\beta) = \\overline{\\mathrm{Var}_p[z]}`, so a safeguarded Newton iteration on
    :math:`\\beta` (bracketed, bisecting when a step leaves the bracket) finds the unique minimum
    to machine precision.  Nothing bounds :math:`T` (a search box such as (0.1, 5) can silently
    return its edge); instead the two cases without an interior optimum raise:

    * :math:`f'(0) \\ge 0`: the logits score the true class no higher than average, and the NLL
      keeps falling as :math:`T \\to \\infty`;
    * every sample's true class already has the largest logit: the NLL keeps falling as
      :math:`T \\to 0`.

    Parameters
    ----------
    logits : array-like of shape (n_samples, n_classes) or (n_samples,)
        Raw scores before softmax; 1-D: binary logits with :math:`p(y{=}1) = \\sigma(z/T)`.
    y_true : array-like of shape (n_samples,)
        Class indices 0..K-1 (0/1 for binary logits).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.

    Returns
    -------
    float
        The fitted temperature.  It divides all logits of a sample by the same number, so each
        sample's argmax and the order of each class's *logits* across samples do not change.
        The order of a class's softmax probabilities across samples can change (they depend on
        the other logits too), so a one-vs-rest AUC can move slightly.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 2000)
    >>> logits = 3.0 * (np.eye(3)[y] + rng.normal(0, 0.6, (2000, 3)))  # over-confident
    >>> T = fit_temperature(logits, y)
    >>> round(T, 3) > 1, nll_from_logits(logits, y, T) < nll_from_logits(logits, y)
    (True, True)
    """
    z, y, w = _logit_problem(logits, y_true, sample_weight)
    keep = w > 0
    z, y, w = z[keep], y[keep], w[keep]
    margins = _margins(z, y, w)
    d = margins.d
    if not np.any(np.ptp(z, axis=1) > 0):
        raise ValueError("logits are equal within every row: the temperature has no effect.")
    slope_at_zero = float(np.dot(w, d.mean(axis=1)) / w.sum())
    if slope_at_zero >= 0:
        raise ValueError(
            "The NLL keeps decreasing as T -> infinity: on average the logits do not favour the true "
            "class (check that y_true indexes the logits' columns). No finite temperature is optimal."
        )
    if not np.any(d.max(axis=1) > 0):
        raise ValueError(
            "Every sample's true class already has the largest logit (y_true is perfectly "
            "separated): the NLL keeps decreasing as T -> 0, so no temperature is optimal. Fit on "
            "more (held-out) data."
        )
    lo, hi = 0.0, 1.0
    while _beta_derivatives(margins, hi)[0] < 0:  # f'(hi) < 0: the minimum lies further out
        lo, hi = hi, 2.0 * hi
        if hi > 1e300:  # pragma: no cover - unreachable with finite logits and the checks above
            raise ValueError("No finite temperature minimises the NLL.")
    beta = 0.5 * (lo + hi) if lo > 0 else min(1.0, hi)
    eps = np.finfo(float).eps
    for _ in range(200):
        g, h = _beta_derivatives(margins, beta)
        if g < 0:
            lo = beta
        elif g > 0:
            hi = beta
        else:
            break
        step = g / h if h > 0 else np.inf
        if abs(step) <= 4 * eps * beta:  # Newton's next move is below float resolution
            break
        new = beta - step
        if not lo < new < hi:  # a step out of the bracket: bisect instead
            new = 0.5 * (lo + hi)
        if hi - lo <= 4 * eps * hi:
            beta = new
            break
        beta = new
    return float(1.0 / beta)


def apply_temperature(logits: Any, temperature: float) -> np.ndarray:
    """Calibrated probabilities :math:`\\mathrm{softmax}(z / T)` (rows sum to 1).

    1-D binary logits give the 1-D probability of class 1, :math:`\\sigma(z / T)`.

    >>> apply_temperature([[2.0, 0.0]], 2.0).round(4).tolist()
    [[0.7311, 0.2689]]
    >>> apply_temperature([0.0, 2.0], 2.0).round(4).tolist()
    [0.5, 0.7311]
    """
    t = _check_temperature(temperature)
    z = _prob.check_real_array(logits, "logits", ndims=(1, 2))
    if z.ndim == 1:
        return softmax(np.stack([np.zeros_like(z), z / t], axis=1))[:, 1]
    return softmax(z / t)


# --------------------------------------------------------------------------------------------
# Platt scaling
# --------------------------------------------------------------------------------------------


def _binary_01(y_true: Any, n: int, name: str = "y_true") -> np.ndarray:
    if _chk.not_array_like(y_true):
        raise TypeError(f"{name} must be an array-like of 0/1 labels; got {y_true!r}.")
    y = _chk.check_labels_1d(y_true, name)
    _chk.check_lengths("", scores=np.empty(n), y_true=y)
    return _chk.class_indices(y, 2, name, binary_1d=True)


def fit_platt(
    scores: Any, y_true: Any, *, sample_weight: Any = None, smoothing: bool = True
) -> tuple[float, float]:
    """Platt scaling: fit :math:`p = \\sigma(a s + b)` to binary labels by maximum likelihood.

    Minimises the (weighted) cross-entropy

    .. math::
        L(a, b) = \\sum_i w_i\\bigl(\\log(1 + e^{a s_i + b}) - t_i (a s_i + b)\\bigr)

    by Newton's method with a backtracking line search (the problem is convex; scores are
    standardised first for conditioning).  With ``smoothing=True`` (the default, Platt 1999, as
    scikit-learn's ``CalibratedClassifierCV(method='sigmoid')``) the targets are not 0/1 but
    :math:`t_+ = (N_+ + 1)/(N_+ + 2)` and :math:`t_- = 1/(N_- + 2)` (:math:`N_\\pm` the weighted
    class counts): a Bayesian prior that keeps :math:`a` finite even when the scores separate the
    classes.  ``smoothing=False`` is plain logistic regression on one feature; it raises when the
    classes are separable (the likelihood then has no maximum) or one class is missing.

    Parameters
    ----------
    scores : array-like of shape (n_samples,)
        Uncalibrated scores (decision values, logits, SVM margins...).
    y_true : array-like of shape (n_samples,)
        0/1 labels.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    smoothing : bool, default True
        Platt's target smoothing.

    Returns
    -------
    (a, b) : tuple of float
        scikit-learn stores the same map as ``expit(-(A s + B))``: ``A = -a``, ``B = -b``.
        With ``a > 0`` the map is increasing and keeps the ranking (AUC unchanged), while the
        accuracy at a fixed cut-off such as 0.5 can change; ``a < 0`` reverses the
        ranking (the AUC becomes 1 − AUC): the fit gives it to scores anti-correlated with the
        labels, and can give it to a score that ranks most pairs the right way round when a few
        outlying scores pull the other way (chapter 6b), so check its sign.

    Examples
    --------
    >>> a, b = fit_platt([-2.0, -1.0, 0.5, 1.0, 2.0, -0.2], [0, 0, 1, 1, 1, 1])
    >>> a > 0
    True
    """
    smoothing = _chk.check_bool(smoothing, "smoothing")
    s = _prob.check_real_array(scores, "scores", ndims=(1, 2))
    if s.ndim == 2:
        if s.shape[1] != 1:
            raise ValueError(f"scores must be 1-D (one score per sample); got shape {s.shape}.")
        s = s.reshape(-1)
    y = _binary_01(y_true, s.shape[0])
    w = _chk.check_sample_weight(
        sample_weight, s.shape[0], non_negative=True, dtype_error=ValueError
    )
    w = np.ones_like(s) if w is None else w
    keep = w > 0
    s, y, w = s[keep], y[keep], w[keep]
    n_pos, n_neg = float(w[y == 1].sum()), float(w[y == 0].sum())
    if smoothing:
        t = np.where(y == 1, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    else:
        if n_pos == 0 or n_neg == 0:
            raise ValueError(
                "y_true holds one class only: without smoothing the intercept goes to infinity. "
                "Use smoothing=True."
            )
        t = y.astype(np.float64)
    mean_t = float(np.dot(w, t) / w.sum())
    centre, scale = float(s.mean()), float(s.std())
    if scale == 0 or not np.isfinite(scale) or np.ptp(s) == 0:  # constant scores: only b matters
        return 0.0, float(np.log(mean_t) - np.log1p(-mean_t))
    if not smoothing and (s[y == 0].max() <= s[y == 1].min() or s[y == 1].max() <= s[y == 0].min()):
        raise ValueError(
            "The scores separate the two classes: the likelihood has no maximum (a -> infinity) "
            "without smoothing. Use smoothing=True (Platt's targets)."
        )
    x = (s - centre) / scale

    def loss(params: np.ndarray) -> float:
        zz = params[0] * x + params[1]
        return float(np.dot(w, np.logaddexp(0.0, zz) - t * zz))

    params = np.array([0.0, np.log((n_pos + 1.0) / (n_neg + 1.0))])
    current = loss(params)
    for _ in range(100):
        zz = params[0] * x + params[1]
        p = 0.5 * (1.0 + np.tanh(0.5 * zz))  # the logistic function, without overflow
        r = w * (p - t)
        grad = np.array([np.dot(r, x), r.sum()])
        c = w * p * (1.0 - p)
        hess = np.array([[np.dot(c, x * x), np.dot(c, x)], [np.dot(c, x), c.sum()]])
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = grad / max(np.abs(hess).max(), 1e-300)
        size, slack = 1.0, 16 * np.finfo(float).eps * abs(current)
        while True:  # backtrack until the loss does not rise (beyond rounding)
            trial = params - size * step
            value = loss(trial)
            if value <= current + slack or size < 1e-10:
                break
            size *= 0.5
        moved = np.max(np.abs(trial - params))
        params, current = trial, value
        if moved <= 1e-13 * (1.0 + np.max(np.abs(params))):
            break
    a_std, b_std = params
    return float(a_std / scale), float(b_std - a_std * centre / scale)


def apply_platt(scores: Any, a: float, b: float) -> np.ndarray:
    """Calibrated probabilities :math:`\\sigma(a s + b) = 1 / (1 + e^{-(a s + b)})`.

    >>> apply_platt([0.0, 1.0], 2.0, -1.0).round(4).tolist()
    [0.2689, 0.7311]
    """
    s = _prob.check_real_array(scores, "scores", ndims=(1, 2)).reshape(-1)
    for name, v in (("a", a), ("b", b)):
        number = isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_))
        if not number or not np.isfinite(v):
            raise ValueError(f"{name} must be a finite number; got {v!r}.")
    z = float(a) * s + float(b)
    return np.exp(-np.logaddexp(0.0, -z))
