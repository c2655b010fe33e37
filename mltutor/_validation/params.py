"""Scalar parameters: ``average``, ``zero_division``, ``beta``, flags, ``k``, bins, options.

Every number-valued parameter goes through one checker, :func:`check_scalar` (the shape of
scikit-learn's ``sklearn.utils.validation.check_scalar``); the other checks here are thin wrappers
that give it a name, a type and bounds.  Do not write another "positive integer" by hand.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np

__all__ = [
    "AVERAGES",
    "BOUNDARIES",
    "check_average",
    "check_beta",
    "check_bool",
    "check_cost",
    "check_cutoff",
    "check_digits",
    "check_k",
    "check_max_fpr",
    "check_n_bins",
    "check_normalize",
    "check_option",
    "check_pos_label",
    "check_scalar",
    "check_strategy",
    "check_threshold",
    "check_zero_division",
]

#: Averages accepted by the precision/recall family, besides ``'binary'``.
AVERAGES = (None, "micro", "macro", "weighted", "samples")

#: ``include_boundaries`` of :func:`check_scalar`: which ends of ``[min_val, max_val]`` are allowed.
BOUNDARIES = ("left", "right", "both", "neither")


def _as_tuple(target_type: Any) -> tuple[type, ...]:
    return target_type if isinstance(target_type, tuple) else (target_type,)


def _describe_scalar(types: tuple[type, ...], min_val: Any, max_val: Any, closed: str) -> str:
    """``'an int >= 1'``, ``'a real number in (0, 1]'``: the type and the bounds in words."""
    integral = all(issubclass(t, (Integral, np.bool_)) for t in types)
    what = "an int" if integral else "a real number"
    left = closed in ("left", "both")
    right = closed in ("right", "both")
    if min_val is not None and max_val is not None:
        return f"{what} in {'[' if left else '('}{min_val}, {max_val}{']' if right else ')'}"
    if min_val is not None:
        return f"{what} {'>=' if left else '>'} {min_val}"
    if max_val is not None:
        return f"{what} {'<=' if right else '<'} {max_val}"
    return what


def check_scalar(
    value: Any,
    name: str,
    target_type: type | tuple[type, ...],
    *,
    min_val: float | None = None,
    max_val: float | None = None,
    include_boundaries: str = "both",
    expected: str | None = None,
    type_error: type[Exception] = TypeError,
) -> Any:
    """Check one number-valued parameter and return it as an ``int`` or a ``float``.

    The value must be an instance of ``target_type`` (``numbers.Integral``, ``numbers.Real``,
    ``int``, ``float`` or a tuple of them; NumPy's integer and floating scalars are instances of
    the ABCs) and lie in the interval given by ``min_val``, ``max_val`` and
    ``include_boundaries``:

    .. math::

        \\text{min\\_val} \\le x \\le \\text{max\\_val} \\ (\\text{"both"}), \\quad
        \\text{min\\_val} < x < \\text{max\\_val} \\ (\\text{"neither"}),

    and likewise ``"left"`` (``[min_val, max_val)``) and ``"right"`` (``(min_val, max_val]``);
    a bound left as None is no bound.  Two refusals scikit-learn's ``check_scalar`` (1.9) does
    not make: a bool is refused even though ``isinstance(True, numbers.Integral)`` holds (unless
    ``target_type`` names ``bool`` itself, for parameters that follow scikit-learn in counting
    ``True`` as 1), and NaN is refused for every target type (a NaN compares False with every
    bound, so a bare ``x < min_val`` test lets it through).

    Parameters
    ----------
    value : object
        The parameter as the user passed it.
    name : str
        The argument's name, used in every message.
    target_type : type or tuple of types
        The accepted types.  The value is returned as ``int`` when every type is integral,
        otherwise as ``float``.
    min_val, max_val : int or float, optional
        The bounds (None: unbounded on that side; ``inf`` is a real number like any other, so
        ``max_val=np.inf`` with ``"neither"`` or ``"left"`` refuses ``inf``).
    include_boundaries : {"left", "right", "both", "neither"}, default="both"
        Which of ``min_val`` and ``max_val`` are allowed values.  As in scikit-learn, ``"left"``
        without ``min_val`` and ``"right"`` without ``max_val`` are refused as inconsistent.
    expected : str, optional
        What the message says the argument must be (e.g. ``"an int >= 1 (how many top-scored
        classes count)"``).  By default the type and the bounds in words (``"an int >= 1"``).
    type_error : exception class, default=TypeError
        Raised for a value of the wrong type (bools and non-numbers); ``ValueError`` where a
        metric's scikit-learn twin raises that.

    Returns
    -------
    int or float
        ``value`` converted.

    Raises
    ------
    TypeError (or ``type_error``)
        Wrong type, or a bool: ``"<name> must be <expected>; got <value>."``.
    ValueError
        NaN or out of bounds, with the same message, which names the argument and the bound;
        also an unknown or inconsistent ``include_boundaries``.

    Examples
    --------
    >>> from numbers import Integral, Real
    >>> check_scalar(np.int64(5), "n_bins", Integral, min_val=1)
    5
    >>> check_scalar(1, "max_fpr", Real, min_val=0, max_val=1, include_boundaries="right")
    1.0
    >>> check_scalar(True, "n_bins", Integral, min_val=1)
    Traceback (most recent call last):
    ...
    TypeError: n_bins must be an int >= 1; got True.
    >>> check_scalar(0.0, "alpha", Real, min_val=0, max_val=1, include_boundaries="neither")
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a real number in (0, 1); got 0.0.
    """
    if include_boundaries not in BOUNDARIES:
        raise ValueError(
            f"include_boundaries must be one of {BOUNDARIES}; got {include_boundaries!r}."
        )
    if min_val is None and include_boundaries == "left":
        raise ValueError("include_boundaries='left' without min_val is inconsistent.")
    if max_val is None and include_boundaries == "right":
        raise ValueError("include_boundaries='right' without max_val is inconsistent.")
    types = _as_tuple(target_type)
    if expected is None:
        expected = _describe_scalar(types, min_val, max_val, include_boundaries)
    message = f"{name} must be {expected}; got {value!r}."
    bool_allowed = any(issubclass(t, (bool, np.bool_)) for t in types)
    if (isinstance(value, (bool, np.bool_)) and not bool_allowed) or not isinstance(value, types):
        raise type_error(message)
    if value != value:  # NaN (also a NaN of a type without __float__ semantics)
        raise ValueError(message)
    left = include_boundaries in ("left", "both")
    right = include_boundaries in ("right", "both")
    if min_val is not None and (value < min_val if left else value <= min_val):
        raise ValueError(message)
    if max_val is not None and (value > max_val if right else value >= max_val):
        raise ValueError(message)
    integral = all(issubclass(t, (Integral, np.bool_)) for t in types)
    return int(value) if integral else float(value)


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
    return check_scalar(
        beta,
        "beta",
        Real,
        min_val=0,
        expected="a real number >= 0 (recall weighs beta times precision)",
    )


def check_bool(value: Any, name: str) -> bool:
    """A flag must be a real bool (bool or numpy.bool), not 0/1 or a string."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


def check_digits(digits: Any) -> int:
    """Number of decimals in the text report: an int >= 0 (True counts as 1, as in scikit-learn)."""
    return check_scalar(digits, "digits", (Integral, bool), min_val=0)


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
    raise TypeError(
        f"pos_label must be a single label (int, float, bool or str); got {pos_label!r}."
    )


def check_k(k: Any) -> int:
    """Top-k accuracy's ``k``: an int >= 1 (True counts as 1, as scikit-learn's check allows)."""
    return check_scalar(
        k,
        "k",
        (Integral, bool),
        min_val=1,
        expected="an int >= 1 (how many top-scored classes count)",
    )


def check_cutoff(k: Any, *, allow_none: bool, allow_bool: bool = False) -> int | None:
    """The cutoff ``k`` of a retrieval metric (precision@k, nDCG@k): a positive integer, or None
    (the whole list) where ``allow_none``.  ``allow_bool``: True counts as 1, as scikit-learn's
    parameter check of ``ndcg_score``/``dcg_score`` allows.  A wrong type raises ValueError."""
    if k is None and allow_none:
        return None
    what = "a positive integer or None" if allow_none else "a positive integer"
    types = (Integral, bool) if allow_bool else Integral
    return check_scalar(k, "k", types, min_val=1, expected=what, type_error=ValueError)


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
    return check_scalar(
        max_fpr,
        "max_fpr",
        Real,
        min_val=0,
        max_val=1,
        include_boundaries="right",
        expected="None or a real number in (0, 1]",
    )


def check_n_bins(n_bins: Any) -> int:
    """An int >= 1 (not a bool)."""
    return check_scalar(n_bins, "n_bins", Integral, min_val=1)


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
    return check_scalar(threshold, "threshold", Real, expected="a real number, not NaN")


def check_cost(cost: Any, name: str) -> float:
    """A cost of one kind of error: a positive, finite real number."""
    return check_scalar(
        cost,
        name,
        Real,
        min_val=0,
        max_val=np.inf,
        include_boundaries="neither",
        expected="a positive, finite real number (a cost)",
    )
