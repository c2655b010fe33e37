"""Checks for :mod:`mltutor.plots`: what a figure is asked to draw."""

from __future__ import annotations

import numpy as np

__all__ = ["check_confusion_matrix"]


def check_confusion_matrix(cm: object) -> np.ndarray:
    """The matrix :func:`mltutor.plots.plot_confusion_matrix` draws: square, at least 1 x 1,
    finite real entries >= 0 (bools read as 0/1).  Returned as float64."""
    arr = np.asarray(cm)
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(f"cm must hold real numbers, got an array of dtype {arr.dtype}.")
    if arr.ndim != 2:
        raise ValueError(f"cm must be a 2-D array, got {arr.ndim}-D with shape {arr.shape}.")
    if arr.shape[0] != arr.shape[1]:
        raise ValueError(f"cm must be square (n_classes x n_classes), got shape {arr.shape}.")
    if arr.shape[0] == 0:
        raise ValueError("cm must have at least one class, got shape (0, 0).")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError("cm must be finite; it contains NaN or inf.")
    if np.any(arr < 0):
        raise ValueError(f"cm must be non-negative; its smallest entry is {arr.min():g}.")
    return arr
