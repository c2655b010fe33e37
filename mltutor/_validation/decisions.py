"""Parameters of decision-oriented metrics: threshold probabilities, target rates, confidence.

Used by :func:`mltutor.curves.net_benefit`, :func:`mltutor.curves.decision_curve`,
:func:`mltutor.curves.threshold_for_recall` and :func:`mltutor.curves.threshold_for_precision`.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from .arrays import not_array_like
from .params import check_scalar
from .scores import as_real_array

__all__ = ["check_confidence", "check_min_rate", "check_threshold_probabilities"]


def check_threshold_probabilities(thresholds: Any) -> np.ndarray:
    """Threshold probabilities ``p_t`` of a decision curve: a non-empty 1-D array of real numbers
    in ``[0, 1)``, returned as float64 (a scalar becomes an array of one).

    ``p_t = 1`` is refused: its odds ``p_t / (1 - p_t)`` are infinite.  Bool arrays are refused
    (``True`` is not a probability threshold)."""
    if isinstance(thresholds, (bool, np.bool_)) or (
        not_array_like(thresholds) and not isinstance(thresholds, Real)
    ):
        raise TypeError(
            "thresholds must be a threshold probability in [0, 1) or an array-like of them; "
            f"got {thresholds!r}."
        )
    t = as_real_array(thresholds, "thresholds", dtype_error=TypeError)
    if t.dtype.kind == "b":
        raise TypeError("thresholds must hold real numbers in [0, 1), not bools.")
    t = np.atleast_1d(t).astype(np.float64)
    if t.ndim != 1:
        raise ValueError(f"thresholds must be 1-D; got shape {t.shape}.")
    if t.size == 0:
        raise ValueError("thresholds is empty; give at least one threshold probability.")
    if np.isnan(t).any():
        raise ValueError("thresholds contains NaN; threshold probabilities must lie in [0, 1).")
    bad = (t < 0) | (t >= 1)
    if bad.any():
        raise ValueError(
            "thresholds must lie in [0, 1) (at p_t = 1 the odds p_t / (1 - p_t) are infinite); "
            f"got {t[bad][0]!r}."
        )
    return t


def check_min_rate(value: Any, name: str, *, allow_zero: bool = False) -> float:
    """A required rate (``min_recall``, ``min_precision``): a real number in ``(0, 1]``.

    ``allow_zero=True`` admits 0 as well: the best precision at recall >= 0 is a defined question
    (torchmetrics' ``min_recall=0``), while a threshold chosen to reach recall 0 is not.
    """
    if allow_zero:
        return float(
            check_scalar(
                value, name, Real, min_val=0, max_val=1, expected="a real number in [0, 1]"
            )
        )
    return check_scalar(
        value,
        name,
        Real,
        min_val=0,
        max_val=1,
        include_boundaries="right",
        expected="a real number in (0, 1] (a required rate)",
    )


def check_confidence(confidence: Any) -> float | None:
    """None, or the level of a one-sided lower confidence bound: a real number in ``[0.5, 1)``."""
    if confidence is None:
        return None
    return check_scalar(
        confidence,
        "confidence",
        Real,
        min_val=0.5,
        max_val=1,
        include_boundaries="left",
        expected="None or a real number in [0.5, 1) (the level of a one-sided lower bound)",
    )
