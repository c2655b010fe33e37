"""Scalar parameters: ``average``, ``zero_division``, ``beta``, flags, ``k``, bins, options."""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np

__all__ = [
    "AVERAGES",
    "check_average",
    "check_beta",
    "check_bool",
    "check_cost",
    "check_digits",
    "check_k",
    "check_max_fpr",
    "check_n_bins",
    "check_normalize",
    "check_option",
    "check_pos_label",
    "check_strategy",
    "check_threshold",
    "check_zero_division",
]

#: Averages accepted by the precision/recall family, besides ``'binary'``.
AVERAGES = (None, "micro", "macro", "weighted", "samples")


def check_zero_division(zero_division: Any, *, allow_nan: bool = True) -> float:
    """Return the value that replaces 0/0: ``'warn'`` -> 0.0 (and a warning later), 0, 1 or NaN.

    ``allow_nan=False`` for ``jaccard_score``, which (in scikit-learn 1.9) accepts only 'warn', 0
    and 1.
    """
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return 0.0
    elif isinstance(zero_division, Real) and not isinstance(zero_division, np.timedelta64):
        value = float(zero_division)
        if value in (0.0, 1.0) or (allow_nan and np.isnan(value)):
            return value
    options = "'warn', 0.0, 1.0 or np.nan" if allow_nan else "'warn', 0.0 or 1.0"
    raise ValueError(f"zero_division must be {options}; got {zero_division!r}.")


def check_average(average: Any, *, allow_binary: bool = True) -> Any:
    """Refuse an unknown ``average``; return it unchanged."""
    options = AVERAGES + (("binary",) if allow_binary else ())
    if not (average is None or (isinstance(average, str) and average in options)):
        shown = ", ".join(repr(o) for o in options)
        raise ValueError(f"average must be one of {shown}; got {average!r}.")
    return average


def check_beta(beta: Any) -> float:
    """``beta`` is the weight of recall against precision: a real number >= 0 (inf allowed)."""
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, Real):
        raise TypeError(f"beta must be a real number >= 0; got {beta!r}.")
    if not beta >= 0:  # also refuses NaN
        raise ValueError(f"beta must be >= 0 (recall weighs beta times precision); got {beta!r}.")
    return float(beta)


def check_bool(value: Any, name: str) -> bool:
    """A flag must be a real bool (bool or numpy.bool), not 0/1 or a string."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


def check_digits(digits: Any) -> int:
    """Number of decimals in the text report: an int >= 0."""
    if not isinstance(digits, Integral):
        raise TypeError(f"digits must be an int >= 0; got {digits!r}.")
    if digits < 0:
        raise ValueError(f"digits must be an int >= 0; got {digits!r}.")
    return int(digits)


def check_normalize(normalize: Any) -> Any:
    """``confusion_matrix(normalize=...)`` is None or one of 'true', 'pred', 'all'."""
    if normalize is None or (isinstance(normalize, str) and normalize in ("true", "pred", "all")):
        return normalize
    raise ValueError(
        "normalize must be None, 'true' (rows sum to 1), 'pred' (columns sum to 1) or 'all'; "
        f"got {normalize!r}."
    )


def check_pos_label(pos_label: Any) -> Any:
    """``pos_label`` is a single label: a number, a string, a bool or None."""
    if pos_label is None or isinstance(pos_label, (str, Real, np.bool_, np.str_)):
        return pos_label
    raise TypeError(f"pos_label must be a single label (int, float, bool or str); got {pos_label!r}.")


def check_k(k: Any) -> int:
    """Top-k accuracy's ``k``: an int >= 1."""
    if not isinstance(k, Integral):
        raise TypeError(f"k must be an int >= 1 (how many top-scored classes count); got {k!r}.")
    if k < 1:
        raise ValueError(f"k must be an int >= 1 (how many top-scored classes count); got {k!r}.")
    return int(k)


def check_option(value: Any, options: tuple, name: str) -> Any:
    """``value`` must be one of ``options`` (strings or None)."""
    if value is None and None in options:
        return None
    if isinstance(value, str) and value in options:
        return value
    shown = ", ".join(repr(o) for o in options)
    raise ValueError(f"{name} must be one of {shown}; got {value!r}.")


def check_max_fpr(max_fpr: Any) -> float | None:
    """``max_fpr`` is None or a real number in (0, 1]."""
    if max_fpr is None:
        return None
    if isinstance(max_fpr, (bool, np.bool_)) or not isinstance(max_fpr, Real):
        raise TypeError(f"max_fpr must be None or a real number in (0, 1]; got {max_fpr!r}.")
    if not 0 < max_fpr <= 1:  # also refuses NaN
        raise ValueError(f"max_fpr must be in the range (0, 1]; got {max_fpr!r}.")
    return float(max_fpr)


def check_n_bins(n_bins: Any) -> int:
    """An int >= 1 (not a bool)."""
    if isinstance(n_bins, (bool, np.bool_)) or not isinstance(n_bins, Integral):
        raise TypeError(f"n_bins must be an int >= 1; got {n_bins!r}.")
    if n_bins < 1:
        raise ValueError(f"n_bins must be an int >= 1; got {n_bins!r}.")
    return int(n_bins)


def check_strategy(strategy: Any) -> str:
    """Calibration bins: 'uniform' or 'quantile'."""
    if not (isinstance(strategy, str) and strategy in ("uniform", "quantile")):
        raise ValueError(
            "strategy must be 'uniform' (equal-width bins) or 'quantile' (equal-count bins); "
            f"got {strategy!r}."
        )
    return strategy


def check_threshold(threshold: Any) -> float:
    """A decision threshold: a real number, not NaN (inf allowed: nothing or everything positive)."""
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(threshold, Real):
        raise TypeError(f"threshold must be a real number; got {threshold!r}.")
    t = float(threshold)
    if np.isnan(t):
        raise ValueError("threshold must be a real number, not NaN.")
    return t


def check_cost(cost: Any, name: str) -> float:
    """A cost of one kind of error: a positive, finite real number."""
    if isinstance(cost, (bool, np.bool_)) or not isinstance(cost, Real):
        raise TypeError(f"{name} must be a positive real number (a cost); got {cost!r}.")
    value = float(cost)
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive, finite cost; got {cost!r}.")
    return value
