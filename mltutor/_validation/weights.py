"""``sample_weight``: the one check every metric family uses.

Why one function: a weight array's dtype decides the precision of every sum built on it.
NumPy sums a bool array as bools, an int8 array modulo 256 and a float16 array in float16 (which
overflows past 65,504), so a metric that sums the caller's weights as given returns silently wrong
numbers.  This check converts once, at the entry, to float64 (or int64 for integer weights where
the metric's counts keep integer dtypes, as scikit-learn's do), so every sum after it is exact or
accurate to the last bit of float64, and it always returns a new array the caller cannot change
afterwards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .arrays import as_numpy, column_or_1d, not_array_like, shown

__all__ = ["check_area_weights", "check_sample_weight"]

# Integer weights are summed in int64 only while no sum of them can wrap around: every count is
# at most the sum of the absolute weights, which must stay below this.
_INT64_SAFE_TOTAL = 2.0**62


def _accumulation_dtype(w: np.ndarray, keep_integer: bool) -> type:
    """int64 for bool/int/uint weights when integer counts are wanted (and their total cannot
    overflow int64: five weights of 2**62 would wrap around), float64 otherwise."""
    if not keep_integer or w.dtype.kind not in "biu":
        return np.float64
    if w.dtype.kind != "b" and w.size and np.abs(w, dtype=np.float64).sum() >= _INT64_SAFE_TOTAL:
        return np.float64
    return np.int64


def check_sample_weight(
    sample_weight: Any,
    n_samples: int,
    *,
    allow_all_zero: bool = False,
    non_negative: bool = False,
    allow_column: bool = False,
    keep_integer: bool = False,
    dtype_error: type[Exception] = TypeError,
    others: str = "the other inputs",
) -> np.ndarray | None:
    """Validate ``sample_weight`` and return it as a new float64 (or int64) array, or None.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,) or None
        Real numbers: bool, any int or uint, any float, or an object array of numbers.
    n_samples : int
        How many samples the other inputs hold.
    allow_all_zero : bool, default=False
        Accept weights that are all 0 (the metric then raises ``ZeroDivisionError`` itself, as
        scikit-learn's ``np.average`` does); otherwise refused.
    non_negative : bool, default=False
        Refuse negative weights (where scikit-learn does); otherwise they are accepted.
    allow_column : bool, default=False
        Accept a column vector of shape (n_samples, 1).
    keep_integer : bool, default=False
        Return bool and integer weights as int64 (exact sums, and integer counts where
        scikit-learn returns them); float weights are always float64.
    dtype_error : exception type, default=TypeError
        Raised for non-numeric weights (scikit-learn raises TypeError in some functions and
        ValueError in others; mltutor mirrors each).
    others : str
        Names the other inputs in the length-mismatch message.

    Returns
    -------
    ndarray of float64 (or int64), shape (n_samples,), or None

    Examples
    --------
    >>> check_sample_weight(np.ones(3, dtype=np.float16), 3).dtype
    dtype('float64')
    >>> check_sample_weight([True, False, True], 3, keep_integer=True).tolist()
    [1, 0, 1]
    """
    if sample_weight is None:
        return None
    if not_array_like(sample_weight):
        raise TypeError(
            f"sample_weight must be an array-like with one weight per sample; got {shown(sample_weight)}."
        )
    try:
        w = as_numpy(sample_weight, "sample_weight")
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"sample_weight could not be read as an array of numbers: {exc}") from None
    if w.dtype.kind == "O":
        if any(isinstance(v, (str, bytes)) for v in w.ravel()):  # astype would read "1" as 1.0
            raise dtype_error(
                "sample_weight must hold real numbers; got strings in an object array."
            )
        try:
            w = w.astype(np.float64)
        except (TypeError, ValueError):
            raise dtype_error(
                "sample_weight must hold real numbers; got an object array."
            ) from None
    if w.dtype.kind not in "biuf":
        raise dtype_error(f"sample_weight must hold real numbers; got dtype {w.dtype}.")
    if allow_column:
        w = column_or_1d(w, "sample_weight")
    if w.ndim != 1:
        raise ValueError(
            f"sample_weight must be 1-D with one weight per sample; got shape {w.shape}."
        )
    if w.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {w.shape[0]} weights but {others} have {n_samples} samples."
        )
    w = w.astype(_accumulation_dtype(w, keep_integer), copy=True)
    if w.dtype.kind == "f" and not np.isfinite(w).all():
        what = "NaN" if np.isnan(w).any() else "infinity"
        raise ValueError(f"Input sample_weight contains {what}; weights must be finite.")
    with np.errstate(over="ignore"):
        overflows = w.dtype.kind == "f" and not np.isfinite(np.abs(w).sum())
    if overflows:
        # Every count is a sum of weights: one that overflows to inf gives inf/inf = NaN rates.
        raise ValueError(
            "sample_weight sums to more than the largest float64 (about 1.8e308); rescale the "
            "weights (only their ratios matter to a normalised metric)."
        )
    if non_negative and (w < 0).any():
        raise ValueError(f"sample_weight must be >= 0; got a weight of {w.min()}.")
    if not allow_all_zero and not w.any():
        raise ValueError(
            "sample_weight must contain at least one non-zero weight; all weights are 0."
        )
    return w


def check_area_weights(
    sample_weight: Any, n_samples: int, average: Any, y_type: str
) -> np.ndarray | None:
    """``sample_weight`` of ``roc_auc_score`` and ``average_precision_score``: float64 weights,
    one per sample (a column is accepted).  All-zero weights are accepted for multilabel
    ``average='samples'``, where they only average the per-sample scores (a zero sum then raises
    ZeroDivisionError, as scikit-learn's ``np.average``)."""
    return check_sample_weight(
        sample_weight,
        n_samples,
        allow_column=True,
        others="y_true and y_score",
        allow_all_zero=average == "samples" and y_type == "multilabel-indicator",
    )
