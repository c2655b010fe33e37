"""Checks for :mod:`mltutor.datasets`: split numbers of the UCF101 tables and the simulator."""

from __future__ import annotations

from numbers import Integral
from typing import Any

from .params import check_scalar

__all__ = ["check_split_number"]


def check_split_number(k: Any, n_splits: int = 3) -> int:
    """An official split number ``1 ... n_splits`` (an int; a bool or a float is refused).

    >>> check_split_number(2)
    2
    >>> check_split_number(4)
    Traceback (most recent call last):
    ...
    ValueError: k must be the split number 1, 2 or 3 (an int); got 4.
    """
    numbers = ", ".join(str(i) for i in range(1, n_splits)) + f" or {n_splits}"
    return check_scalar(
        k,
        "k",
        Integral,
        min_val=1,
        max_val=n_splits,
        expected=f"the split number {numbers} (an int)",
    )
