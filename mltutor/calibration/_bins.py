"""Reliability: calibration_curve (scikit-learn), the binned statistics, and the calibration errors
(ECE, MCE, classwise, adaptive) as torchmetrics and the literature define them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _validation as _chk
from .._validation import calibration as _prob

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
    _, hits, sums, totals = _curve_bins(y_true, y_prob, pos_label, n_bins, strategy)
    nonzero = totals != 0
    return hits[nonzero] / totals[nonzero], sums[nonzero] / totals[nonzero]


def _curve_bins(
    y_true: Any, y_prob: Any, pos_label: Any, n_bins: Any, strategy: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`calibration_curve`'s checks and bins: (edges, positives, sum of p, count) per bin,
    empty bins included."""
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
    return edges, hits, sums, totals


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


def _bin_means(
    bin_of: np.ndarray, conf: np.ndarray, hits: np.ndarray, n_bins: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    bins = [
        _binned(p[:, k], (y == k).astype(np.float64), n_bins, strategy) for k in range(p.shape[1])
    ]  # a loop over classes, each one vectorised
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
