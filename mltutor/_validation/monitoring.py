"""Checks for :mod:`mltutor.monitoring`: label streams, 0/1 indicators, windows, probabilities."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np

from .arrays import as_numpy, check_lengths, column_or_1d
from .labels import as_label_array
from .params import check_option, check_scalar, check_zero_division

__all__ = [
    "ROLLING_METRICS",
    "check_alpha",
    "check_cusum_rates",
    "check_indicator_stream",
    "check_label_times",
    "check_positive_real",
    "check_positive_int",
    "check_prior",
    "check_proba",
    "check_probability",
    "check_real_sample",
    "check_stream_targets",
    "check_times",
    "check_window_options",
]

#: Metrics :func:`mltutor.monitoring.rolling_score` computes from pooled window counts.
ROLLING_METRICS = ("accuracy", "precision", "recall", "f1", "balanced_accuracy")


def check_positive_int(value: Any, name: str) -> int:
    """A positive integer (``bool`` refused)."""
    return check_scalar(
        value, name, Integral, min_val=1, expected="a positive integer", type_error=ValueError
    )


def check_probability(value: Any, name: str, *, open_interval: bool = True) -> float:
    """A real number in (0, 1) (or [0, 1] with ``open_interval=False``)."""
    return check_scalar(
        value,
        name,
        Real,
        min_val=0,
        max_val=1,
        include_boundaries="neither" if open_interval else "both",
        type_error=ValueError,
    )


def check_alpha(alpha: Any) -> float:
    """The false-alarm level of a detector: a number in (0, 1)."""
    return check_probability(alpha, "alpha")


def check_stream_targets(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two 1-D label arrays of one length, in arrival order, with at least one sample."""
    yt, _ = as_label_array(y_true, "y_true")
    yp, _ = as_label_array(y_pred, "y_pred")
    yt, yp = column_or_1d(yt, "y_true"), column_or_1d(yp, "y_pred")
    check_lengths(y_true=yt, y_pred=yp)
    if yt.shape[0] == 0:
        raise ValueError("y_true and y_pred are empty: a stream needs at least one sample.")
    return yt, yp


def check_indicator_stream(x: Any, name: str = "x") -> np.ndarray:
    """A non-empty 0/1 stream, 1-D (or 2-D: one stream per row), returned as float64."""
    arr = as_numpy(x, name)
    if arr.ndim not in (1, 2) or arr.shape[-1] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D stream (or 2-D: one stream per row).")
    if arr.dtype != bool and (
        not np.issubdtype(arr.dtype, np.number) or not np.isin(arr, (0, 1)).all()
    ):
        raise ValueError(
            f"{name} must hold only 0 and 1 (for example 1 = the prediction was wrong)."
        )
    return arr.astype(np.float64)


def check_positive_real(value: Any, name: str) -> float:
    """A finite real number > 0 (``bool`` refused)."""
    return check_scalar(
        value,
        name,
        Real,
        min_val=0,
        max_val=np.inf,
        include_boundaries="neither",
        expected="a positive number",
        type_error=ValueError,
    )


def check_real_sample(x: Any, name: str) -> np.ndarray:
    """A non-empty 1-D array of finite real numbers."""
    arr = column_or_1d(np.asarray(x), name)
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty.")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must hold real numbers; got dtype {arr.dtype}.")
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} holds NaN or infinite values.")
    return arr


def check_times(times: Any, name: str, n: int) -> np.ndarray:
    """Real timestamps (numbers, e.g. days), one per sample, finite."""
    arr = check_real_sample(times, name)
    check_lengths(**{"y_true": np.empty(n), name: arr})
    return arr


def check_proba(proba: Any, name: str = "proba") -> np.ndarray:
    """Probabilities: shape (n, k) with k ≥ 2 rows summing to 1, or 1-D P(class 1) -> (n, 2)."""
    arr = np.asarray(proba)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must hold probabilities (real numbers).")
    arr = arr.astype(np.float64)
    if arr.ndim == 1:
        arr = np.column_stack([1.0 - arr, arr])
    if arr.ndim != 2 or arr.shape[1] < 2 or arr.shape[0] == 0:
        raise ValueError(
            f"{name} must have shape (n_samples, n_classes) with n_classes >= 2, or be 1-D "
            f"(the probability of class 1); got shape {np.shape(proba)}."
        )
    if not np.isfinite(arr).all() or (arr < 0).any() or (arr > 1).any():
        raise ValueError(f"{name} must lie in [0, 1].")
    if not np.allclose(arr.sum(axis=1), 1.0, atol=1e-6):
        raise ValueError(f"each row of {name} must sum to 1.")
    return arr


def check_prior(prior: Any, n_classes: int, name: str = "train_prior") -> np.ndarray:
    """Class proportions: ``n_classes`` non-negative numbers summing to 1."""
    arr = np.asarray(prior, dtype=np.float64).reshape(-1)
    if arr.shape[0] != n_classes:
        raise ValueError(f"{name} must have one entry per class ({n_classes}); got {arr.shape[0]}.")
    if not np.isfinite(arr).all() or (arr < 0).any() or not np.isclose(arr.sum(), 1.0):
        raise ValueError(f"{name} must be non-negative and sum to 1; got {arr.tolist()}.")
    return arr


def check_label_times(times: np.ndarray, label_times: Any) -> np.ndarray:
    """When each label arrived: one per sample, never before its prediction's time."""
    if label_times is None:
        return times
    lt = check_times(label_times, "label_times", times.shape[0])
    if (lt < times).any():
        raise ValueError("label_times must not precede times (a label comes after its prediction).")
    return lt


def check_cusum_rates(p0: Any, p1: Any) -> tuple[float, float]:
    """In-control and out-of-control rates: two different numbers in (0, 1)."""
    p0, p1 = check_probability(p0, "p0"), check_probability(p1, "p1")
    if p1 == p0:
        raise ValueError("p1 must differ from p0.")
    return p0, p1


def check_window_options(metric: Any, average: Any, zero_division: Any) -> tuple[str, str, float]:
    """The options shared by the window scores: ``metric`` (one of :data:`ROLLING_METRICS`),
    ``average`` ('binary' or 'macro') and ``zero_division`` (returned as its value)."""
    metric = check_option(metric, ROLLING_METRICS, "metric")
    average = check_option(average, ("binary", "macro"), "average")
    return metric, average, check_zero_division(zero_division)
