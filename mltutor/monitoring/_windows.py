"""Rolling and tumbling windows from pooled counts (kernel 1), never from per-batch means."""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from .._validation.monitoring import (
    check_label_times,
    check_positive_int,
    check_positive_real,
    check_real_sample,
    check_stream_targets,
    check_times,
    check_window_options,
)
from .._validation.params import check_option
from .._validation.warning import UndefinedMetricWarning, warn

__all__ = ["TumblingResult", "ewm_score", "rolling_score", "tumbling_score"]


def _encode(yt: np.ndarray, yp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    classes, codes = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    n = yt.shape[0]
    return classes, codes[:n], codes[n:]


def _window_counts(indicator: np.ndarray, window: int) -> np.ndarray:
    """Sum of ``indicator`` (along axis 0) over the trailing ``window`` rows, after each row.

    One cumulative sum ``C``; the window ending at row ``i`` holds ``C[i] - C[i - window]``
    (just ``C[i]`` for the first ``window`` rows), done with two slices, no fancy indexing.
    """
    n = indicator.shape[0]
    dtype = np.int32 if n < 2**31 else np.int64
    c = np.cumsum(indicator, axis=0, dtype=dtype)
    out = c.copy()
    if window < n:
        out[window:] -= c[: n - window]
    return out


def _ratio(num: np.ndarray, den: np.ndarray, zero_division: float) -> tuple[np.ndarray, bool]:
    """num / den with ``zero_division`` where den == 0; also whether any 0/0 occurred."""
    empty = den == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.true_divide(num, den, dtype=np.float64)
    undefined = bool(empty.any())
    if undefined:
        out[empty] = zero_division
    return out, undefined


def _rate(metric: str, tp, fp, fn, zero_division: float):
    if metric == "precision":
        return _ratio(tp, tp + fp, zero_division)
    if metric == "recall":
        return _ratio(tp, tp + fn, zero_division)
    return _ratio(2 * tp, 2 * tp + fp + fn, zero_division)  # f1 (scikit-learn >= 1.3 rule)


def _scores_from_counts(metric, tp, fp, fn, average, zero_division):
    """Metric value per row from per-row counts (shape (m,) binary or (m, k) per class)."""
    if average == "binary":
        return _rate(metric, tp, fp, fn, zero_division)
    present = (tp + fn + fp) > 0  # classes seen in the window (labels or predictions)
    den = {"precision": tp + fp, "recall": tp + fn}.get(metric, 2 * tp + fp + fn)
    per_class, _ = _rate(metric, tp, fp, fn, zero_division)
    undefined = bool(((den == 0) & present).any())
    # zero_division=np.nan leaves NaN in a class's entry; like scikit-learn, the mean skips it.
    per_class = np.where(present, per_class, np.nan)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a window with no defined class: NaN
        value = np.nanmean(per_class, axis=1)
    return value, undefined


def _balanced_accuracy(tp, fn):
    support = tp + fn
    rec = np.divide(tp, support, out=np.full(tp.shape, np.nan), where=support > 0)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a window with no defined class: NaN
        return np.nanmean(rec, axis=1)


def _evaluate(metric, yt, yp, average, pos_label, zero_division, counts):
    """Shared pipeline: encode -> per-sample indicators -> ``counts`` (window sums) -> rates."""
    if metric == "accuracy":
        return counts(yt == yp) / counts(np.ones(yt.shape[0], np.int8)), False
    if metric == "balanced_accuracy" or average == "macro":
        classes, ct, cp = _encode(yt, yp)
        k = classes.shape[0]
        eye = np.eye(k, dtype=np.int64)
        true_1h, pred_1h = eye[ct], eye[cp]
        tp = counts(true_1h * pred_1h)
        fn = counts(true_1h) - tp
        if metric == "balanced_accuracy":
            return _balanced_accuracy(tp, fn), False
        fp = counts(pred_1h) - tp
        return _scores_from_counts(metric, tp, fp, fn, "macro", zero_division)
    # Binary: two window counts per metric. F1 = 2 TP / (2 TP + FP + FN) = 2 TP / (T + P),
    # with T the true and P the predicted positives in the window.
    t, p = (yt == pos_label), (yp == pos_label)
    tp = counts(t & p)
    if metric == "precision":
        num, den = tp, counts(p)
    elif metric == "recall":
        num, den = tp, counts(t)
    else:
        num, den = 2 * tp, counts(t.view(np.int8) + p.view(np.int8))
    return _ratio(num, den, zero_division)


def rolling_score(
    metric: str,
    y_true: Any,
    y_pred: Any,
    window: int,
    *,
    average: str = "binary",
    pos_label: Any = 1,
    zero_division: Any = "warn",
) -> np.ndarray:
    """The metric over the trailing ``window`` samples, after each sample, from pooled counts.

    Value ``i`` is the metric of samples ``max(0, i - window + 1) .. i`` pooled into one
    confusion table, exactly what scikit-learn returns on that slice; the first ``window - 1``
    values use the samples seen so far (as ``river.utils.Rolling`` does). The whole run costs
    two cumulative sums per count, so the window size does not change the cost.

    Parameters
    ----------
    metric : {'accuracy', 'precision', 'recall', 'f1', 'balanced_accuracy'}
    y_true, y_pred : array-like of shape (n_samples,)
        Labels in arrival order.
    window : int
        Number of trailing samples in each window.
    average : {'binary', 'macro'}, default='binary'
        ``'binary'`` scores ``pos_label``; ``'macro'`` averages the classes present in each
        window (in its true or predicted labels), as scikit-learn does on that slice.
        Ignored by accuracy and balanced accuracy.
    pos_label : label, default=1
    zero_division : {'warn', 0.0, 1.0, np.nan}, default='warn'
        Value of an undefined ratio (for example precision of a window with no positive
        prediction); ``'warn'`` gives 0.0 and one ``UndefinedMetricWarning``.

    Returns
    -------
    numpy.ndarray of shape (n_samples,)

    Examples
    --------
    >>> rolling_score("f1", [1, 1, 0, 1, 0], [1, 0, 0, 1, 1], window=3)
    array([1.        , 0.66666667, 0.66666667, 0.66666667, 0.66666667])
    """
    metric, average, zd = check_window_options(metric, average, zero_division)
    window = check_positive_int(window, "window")
    yt, yp = check_stream_targets(y_true, y_pred)
    value, undefined = _evaluate(
        metric, yt, yp, average, pos_label, zd, lambda ind: _window_counts(ind, window)
    )
    if undefined and isinstance(zero_division, str):
        warn(
            f"{metric} is ill-defined in some windows; set to 0.0 there. Use zero_division "
            "to choose another value.",
            UndefinedMetricWarning,
        )
    return value


def ewm_score(
    metric: str,
    y_true: Any,
    y_pred: Any,
    halflife: float,
    *,
    average: str = "binary",
    pos_label: Any = 1,
    zero_division: Any = "warn",
) -> np.ndarray:
    """The metric of exponentially weighted counts, after each sample.

    Each count is weighted by ``0.5 ** (age / halflife)``, where ``age`` is the number of samples
    since it arrived: ``C_t = d * C_{t-1} + x_t`` with ``d = 0.5 ** (1 / halflife)``, run by
    ``scipy.signal.lfilter``. The value after sample ``i`` equals scikit-learn's metric on samples
    ``0 .. i`` with ``sample_weight = d ** (i - j)`` (tested). The counts are pooled first, so
    this is not an exponential average of per-batch scores. A class last seen more than about
    1,000 half-lives earlier has an underflowed weight of 0 and drops out of a macro average.

    Parameters
    ----------
    metric, y_true, y_pred, average, pos_label, zero_division
        As in :func:`rolling_score`.
    halflife : float
        Number of samples after which a count weighs one half.

    Returns
    -------
    numpy.ndarray of shape (n_samples,)

    Examples
    --------
    >>> ewm_score("accuracy", [1, 1, 0, 0], [1, 1, 1, 1], halflife=1).round(4).tolist()
    [1.0, 1.0, 0.4286, 0.2]
    """
    from scipy.signal import lfilter

    metric, average, zd = check_window_options(metric, average, zero_division)
    decay = 0.5 ** (1.0 / check_positive_real(halflife, "halflife"))
    yt, yp = check_stream_targets(y_true, y_pred)

    def counts(ind: np.ndarray) -> np.ndarray:
        return lfilter([1.0], [1.0, -decay], ind.astype(np.float64), axis=0)

    value, undefined = _evaluate(metric, yt, yp, average, pos_label, zd, counts)
    if undefined and isinstance(zero_division, str):
        warn(
            f"{metric} is ill-defined after some samples; set to 0.0 there. Use zero_division "
            "to choose another value.",
            UndefinedMetricWarning,
        )
    return value


class TumblingResult(NamedTuple):
    """One row per tumbling window: its start, the metric, and how many labels it pooled."""

    start: np.ndarray
    value: np.ndarray
    n_labelled: np.ndarray
    n_predicted: np.ndarray


def tumbling_score(
    metric: str,
    y_true: Any,
    y_pred: Any,
    times: Any,
    width: float,
    *,
    label_times: Any = None,
    as_of: float | None = None,
    by: str = "prediction",
    origin: float | None = None,
    average: str = "binary",
    pos_label: Any = 1,
    zero_division: Any = "warn",
) -> TumblingResult:
    """The metric per non-overlapping time window ``[origin + j*width, origin + (j+1)*width)``.

    With delayed labels, pass when each label arrived (``label_times``) and the day the
    dashboard is read (``as_of``): only samples whose label has arrived by then are counted, so
    the same window shows different numbers (and counts) on different days.

    Parameters
    ----------
    metric : {'accuracy', 'precision', 'recall', 'f1', 'balanced_accuracy'}
    y_true, y_pred : array-like of shape (n_samples,)
    times : array-like of shape (n_samples,)
        When each prediction was made (numbers, e.g. days).
    width : float
        Window length, in the units of ``times``.
    label_times : array-like of shape (n_samples,), optional
        When each true label became known; ``None`` means at prediction time.
    as_of : float, optional
        Count only labels with ``label_times <= as_of``; ``None`` counts every label.
    by : {'prediction', 'label'}, default='prediction'
        Assign each sample to a window by its prediction time or by its label's arrival time.
    origin : float, optional
        Start of the first window; default ``min(times)``.
    average, pos_label, zero_division
        As in :func:`rolling_score`.

    Returns
    -------
    TumblingResult
        ``start``, ``value`` (NaN for a window with no labelled sample), ``n_labelled`` and
        ``n_predicted`` per window.

    Examples
    --------
    >>> r = tumbling_score("accuracy", [1, 0, 1, 1], [1, 1, 1, 0], times=[0, 1, 2, 3], width=2)
    >>> r.start.tolist(), r.value.tolist(), r.n_labelled.tolist()
    ([0.0, 2.0], [0.5, 0.5], [2, 2])
    >>> r = tumbling_score("accuracy", [1, 0, 1, 1], [1, 1, 1, 0], times=[0, 1, 2, 3], width=2,
    ...                    label_times=[1, 30, 4, 40], as_of=10)
    >>> r.value.tolist(), r.n_labelled.tolist(), r.n_predicted.tolist()
    ([1.0, 1.0], [1, 1], [2, 2])
    """
    metric, average, zd = check_window_options(metric, average, zero_division)
    yt, yp = check_stream_targets(y_true, y_pred)
    n = yt.shape[0]
    t = check_times(times, "times", n)
    lt = check_label_times(t, label_times)
    width = check_positive_real(width, "width")
    by = check_option(by, ("prediction", "label"), "by")
    key = t if by == "prediction" else lt
    origin = float(np.min(t)) if origin is None else float(check_real_sample([origin], "origin")[0])
    if (key < origin).any():
        raise ValueError("origin must not be later than the first time.")
    idx = np.floor((key - origin) / float(width)).astype(np.int64)
    n_windows = int(idx.max()) + 1
    known = np.ones(n, bool) if as_of is None else lt <= float(as_of)

    def counts(ind: np.ndarray) -> np.ndarray:
        ind = ind * (known if ind.ndim == 1 else known[:, None])
        if ind.ndim == 1:
            return np.bincount(idx, weights=ind, minlength=n_windows).astype(np.int64)
        out = np.zeros((n_windows, ind.shape[1]), np.int64)
        np.add.at(out, idx, ind)
        return out

    n_labelled = counts(np.ones(n, np.int64))
    n_predicted = np.bincount(idx, minlength=n_windows)
    with np.errstate(invalid="ignore", divide="ignore"):
        value, undefined = _evaluate(metric, yt, yp, average, pos_label, zd, counts)
    value = np.where(n_labelled > 0, value, np.nan)
    if undefined and isinstance(zero_division, str) and metric != "accuracy":
        warn(f"{metric} is ill-defined in some windows; set to 0.0 there.", UndefinedMetricWarning)
    start = origin + float(width) * np.arange(n_windows)
    return TumblingResult(start, value, n_labelled, n_predicted)
