"""Checks for the agreement metrics, the statistical tests and the conformal sets.

Parameters of ``cohen_kappa_score`` and ``class_likelihood_ratios`` (scikit-learn 1.9's options),
proportion counts and interval methods, the 0/1 targets with paired predictions or scores of
McNemar's and DeLong's tests, the probability matrices of split-conformal prediction, and the
settings, samples and groups of the bootstrap (``bootstrap_ci``, ``paired_bootstrap``).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from numbers import Integral, Real
from typing import Any

import numpy as np

from .arrays import as_numpy, check_lengths, column_or_1d, describe, not_array_like, shown
from .params import check_scalar
from .scores import as_real_array
from .warning import warn

__all__ = [
    "BOOTSTRAP_METHODS",
    "PROPORTION_METHODS",
    "check_alpha",
    "check_binary_truth",
    "check_bootstrap_groups",
    "check_bootstrap_method",
    "check_class_labels",
    "check_confidence_level",
    "check_confusion_counts",
    "check_conformal_scores",
    "check_group_codes",
    "check_group_ids",
    "check_groups_vary",
    "check_kappa_replace",
    "check_kappa_weights",
    "check_lr_replace",
    "check_metric",
    "check_metric_value",
    "check_n_resamples",
    "check_n_samples_int",
    "check_paired_predictions",
    "check_paired_scores",
    "check_per_query_scores",
    "check_proba_matrix",
    "check_proportion_counts",
    "check_proportion_method",
    "check_random_state",
    "check_samples",
    "varies_within_groups",
]

#: ``proportion_ci`` methods, with the statsmodels spelling each one stands for.
PROPORTION_METHODS = {
    "wilson": "wilson",
    "clopper-pearson": "beta",
    "agresti-coull": "agresti_coull",
    "jeffreys": "jeffreys",
    "normal": "normal",
}


def _is_real(x: Any) -> bool:
    return isinstance(x, Real) and not isinstance(x, (bool, np.bool_))


# --------------------------------------------------------------------------------------------
# cohen_kappa_score / class_likelihood_ratios
# --------------------------------------------------------------------------------------------


def check_kappa_weights(weights: Any) -> Any:
    """``weights`` of Cohen's kappa: None, 'linear' or 'quadratic'."""
    if weights is None or (isinstance(weights, str) and weights in ("linear", "quadratic")):
        return weights
    raise ValueError(f"weights must be None, 'linear' or 'quadratic'; got {weights!r}.")


def check_kappa_replace(value: Any) -> Any:
    """``replace_undefined_by`` of Cohen's kappa: NaN or a real number in [-1, 1] (returned as
    given, as scikit-learn does)."""
    if _is_real(value) and (np.isnan(value) or -1.0 <= value <= 1.0):
        return value
    raise ValueError(
        f"replace_undefined_by must be np.nan or a real number in [-1.0, 1.0]; got {value!r}."
    )


_LR_DICT_MESSAGE = (
    "The dictionary passed as `replace_undefined_by` needs to be in the form "
    "`{{'LR+': `value_1`, 'LR-': `value_2`}}` where the value for `LR+` ranges "
    "from `1.0` to `np.inf` or is `np.nan` and the value for `LR-` ranges from "
    "`0.0` to `1.0` or is `np.nan`; got `{value}`."
)


def check_lr_replace(value: Any) -> tuple[float, float]:
    """``replace_undefined_by`` of ``class_likelihood_ratios``: NaN, 1.0 or a dict
    ``{'LR+': >= 1 (inf allowed) or NaN, 'LR-': in [0, 1] or NaN}``.  Returns the two values."""
    if isinstance(value, dict):
        pos, neg = value.get("LR+"), value.get("LR-")
        ok = (
            "LR+" in value
            and "LR-" in value
            and _is_real(pos)
            and _is_real(neg)
            and (np.isnan(pos) or pos >= 1.0)
            and (np.isnan(neg) or 0.0 <= neg <= 1.0)
        )
        if not ok:
            raise ValueError(_LR_DICT_MESSAGE.format(value=value))
        return pos, neg
    if _is_real(value) and np.isnan(value):
        return np.nan, np.nan
    if _is_real(value) and value == 1.0:
        return 1.0, 1.0
    raise ValueError(
        "replace_undefined_by must be np.nan, 1.0 or a dict {'LR+': value, 'LR-': value}; "
        f"got {value!r}."
    )


# --------------------------------------------------------------------------------------------
# proportion_ci
# --------------------------------------------------------------------------------------------


def check_alpha(alpha: Any, name: str = "alpha") -> float:
    """A significance level (or miscoverage) strictly between 0 and 1."""
    return check_scalar(
        alpha,
        name,
        Real,
        min_val=0,
        max_val=1,
        include_boundaries="neither",
        expected="a real number strictly between 0 and 1",
        type_error=ValueError,
    )


def check_proportion_method(method: Any) -> str:
    """One of :data:`PROPORTION_METHODS`; statsmodels' spellings ('beta', 'agresti_coull') too."""
    if isinstance(method, str):
        if method in PROPORTION_METHODS:
            return method
        aliases = {v: k for k, v in PROPORTION_METHODS.items()}
        if method in aliases:
            return aliases[method]
    shown = ", ".join(repr(m) for m in PROPORTION_METHODS)
    raise ValueError(f"method must be one of {shown}; got {method!r}.")


def check_proportion_counts(count: Any, nobs: Any) -> tuple[np.ndarray, np.ndarray]:
    """Successes and trials: finite real arrays (broadcast together), 0 <= count <= nobs,
    nobs > 0.  Returned as float64 arrays of the broadcast shape."""
    arrays = []
    for x, name in ((count, "count"), (nobs, "nobs")):
        zero_d = isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iuf"
        if not_array_like(x) and not _is_real(x) and not zero_d:
            raise TypeError(f"{name} must be a number or an array of numbers; got {shown(x)}.")
        a = as_real_array(x, name).astype(np.float64)
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must be finite (no NaN or inf).")
        arrays.append(a)
    try:
        c, n = np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(
            f"count (shape {arrays[0].shape}) and nobs (shape {arrays[1].shape}) cannot be "
            "broadcast together."
        ) from None
    if not (n > 0).all():
        raise ValueError("nobs must be > 0 (an interval needs at least one trial).")
    if not ((c >= 0) & (c <= n)).all():
        raise ValueError("count must lie in [0, nobs] (a number of successes out of nobs trials).")
    return c.copy(), n.copy()


# --------------------------------------------------------------------------------------------
# McNemar and DeLong
# --------------------------------------------------------------------------------------------


def check_binary_truth(y_true: Any, name: str = "y_true") -> np.ndarray:
    """0/1 (or bool) targets, 1-D, at least one sample: returned as a bool array."""
    if not_array_like(y_true):
        raise TypeError(f"{name} must be an array-like of 0/1 labels; got {describe(y_true)}.")
    y = column_or_1d(np.asarray(y_true), name)
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    if y.dtype.kind == "b":
        return y.copy()
    if y.dtype.kind not in "iuf" or not np.isin(y, (0, 1)).all():
        raise ValueError(f"{name} must hold only 0 and 1 (or False and True).")
    return y == 1


def check_paired_predictions(
    y_true: Any, pred_a: Any, pred_b: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels and two predictions of them, 1-D of one length; returned as arrays."""
    arrays = []
    for x, name in ((y_true, "y_true"), (pred_a, "pred_a"), (pred_b, "pred_b")):
        if not_array_like(x):
            raise TypeError(f"{name} must be an array-like of labels; got {describe(x)}.")
        a = column_or_1d(np.asarray(x), name)
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf; labels must be finite.")
        if a.dtype.kind == "O":
            raise TypeError(f"{name} must hold numbers or strings, not Python objects.")
        arrays.append(a)
    check_lengths(
        " Each sample needs one label and one prediction from each model.",
        y_true=arrays[0],
        pred_a=arrays[1],
        pred_b=arrays[2],
    )
    if arrays[0].shape[0] == 0:
        raise ValueError("y_true is empty; at least one sample is required.")
    kinds = {a.dtype.kind == "U" for a in arrays}
    if len(kinds) > 1:
        raise ValueError("y_true, pred_a and pred_b must all hold numbers or all hold strings.")
    return arrays[0], arrays[1], arrays[2]


def _check_scores(y_score: Any, name: str, n: int) -> np.ndarray:
    if not_array_like(y_score):
        raise TypeError(f"{name} must be an array-like of scores; got {describe(y_score)}.")
    s = column_or_1d(as_real_array(y_score, name), name).astype(np.float64)
    if not np.isfinite(s).all():
        raise ValueError(f"{name} contains NaN or inf; scores must be finite.")
    check_lengths(" Each sample needs one label and one score.", y_true=np.empty(n), **{name: s})
    return s


def check_paired_scores(
    y_true: Any, *scores: tuple[Any, str]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """0/1 targets with both classes present and one or more finite 1-D score arrays of the
    same length (given as ``(array, name)`` pairs).  Returns the bool targets and float64 scores."""
    y = check_binary_truth(y_true)
    n_pos = int(np.count_nonzero(y))
    if n_pos < 2 or y.shape[0] - n_pos < 2:
        raise ValueError(
            "y_true must hold at least 2 samples of each class (0 and 1): DeLong's variance "
            f"needs them; got {n_pos} positives and {y.shape[0] - n_pos} negatives."
        )
    return y, [_check_scores(s, name, y.shape[0]) for s, name in scores]


# --------------------------------------------------------------------------------------------
# Conformal prediction
# --------------------------------------------------------------------------------------------


def check_proba_matrix(proba: Any, name: str, n_classes: int | None = None) -> np.ndarray:
    """Class probabilities, shape (n_samples, n_classes) with n_samples >= 1 and n_classes >= 2,
    finite, in [0, 1].  Rows need not sum to 1 exactly (scores, not a distribution check)."""
    if not_array_like(proba):
        raise TypeError(
            f"{name} must be a 2-D array of class probabilities; got {describe(proba)}."
        )
    p = as_real_array(proba, name).astype(np.float64)
    if p.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_classes); got shape {p.shape}.")
    if p.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is required.")
    if p.shape[1] < 2:
        raise ValueError(f"{name} needs at least 2 class columns; got {p.shape[1]}.")
    if n_classes is not None and p.shape[1] != n_classes:
        raise ValueError(
            f"{name} has {p.shape[1]} class columns but the calibration data had {n_classes}."
        )
    if not np.isfinite(p).all():
        raise ValueError(f"{name} contains NaN or inf.")
    if p.min() < 0 or p.max() > 1:
        raise ValueError(
            f"{name} must hold probabilities in [0, 1]; got values in [{p.min():g}, {p.max():g}]."
        )
    return p


def check_class_labels(
    labels: Any, n_samples: int, n_classes: int, name: str = "cal_labels", rows: str = "cal_proba"
) -> np.ndarray:
    """Class indices 0..n_classes-1, one per sample (the column of each sample's true class)."""
    if not_array_like(labels):
        raise TypeError(f"{name} must be an array-like of class indices; got {describe(labels)}.")
    y = column_or_1d(np.asarray(labels), name)
    check_lengths(
        f" Each sample needs one row of {rows} and one label.",
        **{rows: np.empty(n_samples), name: y},
    )
    if y.dtype.kind == "f" and np.isfinite(y).all() and (y == np.round(y)).all():
        y = y.astype(np.int64)
    if y.dtype.kind not in "iu":
        raise ValueError(f"{name} must be integer class indices (columns of {rows}).")
    if y.size and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(
            f"{name} must lie in [0, {n_classes - 1}] (columns of {rows}); got values in "
            f"[{y.min()}, {y.max()}]."
        )
    return y.astype(np.intp)


def check_n_samples_int(value: Any, name: str) -> int:
    """A positive integer (resample counts)."""
    return check_scalar(
        value, name, Integral, min_val=1, expected="a positive integer", type_error=ValueError
    )


def check_confusion_counts(cm: Any) -> np.ndarray:
    """A square confusion matrix of finite counts >= 0, at least 2 x 2, as float64."""
    if not_array_like(cm):
        raise TypeError(f"cm must be a 2-D confusion matrix; got {describe(cm)}.")
    a = as_real_array(cm, "cm").astype(np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or a.shape[0] < 2:
        raise ValueError(
            f"cm must be a square confusion matrix with at least 2 classes; got shape {a.shape}."
        )
    if not np.isfinite(a).all() or (a < 0).any():
        raise ValueError("cm must hold finite counts >= 0.")
    return a


def check_metric_value(value: Any, where: str) -> np.ndarray:
    """What a user's metric returned, as a float array: a real number or an array of them.

    ``None``, strings (``"0.5"``), bools, complex numbers, dicts and other objects are refused with
    the call named (``where``): ``float("0.5")`` or ``np.asarray(None, float)`` would turn them
    into a number (or NaN) without a word.  Exact real numbers (``Fraction``, ``Decimal``) are
    real numbers, and a torch tensor is read as :func:`~.arrays.as_numpy` reads it.
    """
    kind = type(value).__name__
    if isinstance(value, (bool, np.bool_, str, bytes, dict)) or value is None:
        raise TypeError(
            f"the metric must return a real number or an array of them; {where} it "
            f"returned {kind} {value!r:.60}"
        )
    arr = as_numpy(value, f"what the metric returned {where}")
    if arr.dtype.kind == "O" and all(
        isinstance(v, (Real, Decimal)) and not isinstance(v, (bool, np.bool_))
        for v in arr.ravel().tolist()
    ):
        arr = arr.astype(float)
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"the metric must return a real number or an array of them; {where} it "
            f"returned {kind} of dtype {arr.dtype}"
        )
    return arr.astype(float)


def check_conformal_scores(scores: Any, name: str = "scores") -> np.ndarray:
    """Calibration non-conformity scores: a non-empty 1-D array of reals, NaN refused.

    ``np.partition`` sorts NaN last without a word, so a NaN score would move the threshold.
    Infinite scores are ordered like any other (a score of ``inf`` for an impossible label, say),
    as in MAPIE: the threshold is then ``inf`` only when the ``k``-th smallest is.
    """
    if not_array_like(scores):
        raise TypeError(
            f"{name} must be a 1-D array of non-conformity scores; got {describe(scores)}."
        )
    s = as_real_array(scores, name).astype(np.float64)
    if s.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one score per calibration sample); got shape {s.shape}."
        )
    if s.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one calibration score is required.")
    if np.isnan(s).any():
        raise ValueError(f"{name} contains NaN at index {int(np.flatnonzero(np.isnan(s))[0])}.")
    return s


def _missing(value: Any) -> bool:
    """None, NaN, NaT or pandas' NA (whose ``NA != NA`` is NA, and ``bool(NA)`` raises)."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:
        return True


def check_group_ids(ids: np.ndarray, name: str) -> None:
    """NaN, NaT, None or pandas' NA is no group id: ``np.unique`` would quietly make one group of
    them all (and one NA raised "boolean value of NA is ambiguous")."""
    if ids.dtype.kind in "fc":
        missing = np.flatnonzero(np.isnan(ids))
    elif ids.dtype.kind in "mM":
        missing = np.flatnonzero(np.isnat(ids))
    elif ids.dtype.kind == "O":
        missing = [i for i, v in enumerate(ids.tolist()) if _missing(v)]
    else:
        return
    if len(missing):
        raise ValueError(
            f"{name} contains a missing id (None, NaN or NaT) at index "
            f"{int(missing[0])}; every sample needs a real id"
        )


# --------------------------------------------------------------------------------------------
# bootstrap_ci / paired_bootstrap
# --------------------------------------------------------------------------------------------

#: Interval methods of the bootstrap: the percentile and the "basic" (reverse percentile) one.
BOOTSTRAP_METHODS = ("percentile", "basic")


def check_metric(metric: Any) -> Callable[..., Any]:
    """The metric to bootstrap: a callable ``metric(y_true, y_pred)``."""
    if not callable(metric):
        raise TypeError(
            f"metric must be a callable metric(y_true, y_pred), got {type(metric).__name__}"
        )
    return metric


def check_n_resamples(n_resamples: Any) -> int:
    """How many bootstrap resamples to draw: an int >= 1."""
    return check_scalar(n_resamples, "n_resamples", Integral, min_val=1)


def check_confidence_level(confidence_level: Any) -> float:
    """A confidence level strictly between 0 and 1 (0.95, not 95)."""
    return check_scalar(
        confidence_level,
        "confidence_level",
        Real,
        min_val=0,
        max_val=1,
        include_boundaries="neither",
    )


def check_bootstrap_method(method: Any) -> str:
    """One of :data:`BOOTSTRAP_METHODS`."""
    if method not in BOOTSTRAP_METHODS:
        raise ValueError(f"method must be one of {BOOTSTRAP_METHODS}, got {method!r}")
    return method


def check_random_state(random_state: Any) -> np.random.Generator:
    """None, an int seed >= 0 or a ``numpy.random.Generator`` (returned as it is)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None:
        return np.random.default_rng()
    seed = check_scalar(
        random_state,
        "random_state",
        Integral,
        min_val=0,
        expected="None, an int >= 0 or a numpy.random.Generator",
    )
    return np.random.default_rng(seed)


def check_samples(**arrays: Any) -> tuple[int, dict[str, np.ndarray]]:
    """Arrays with the same number (at least two) of samples along axis 0."""
    out: dict[str, np.ndarray] = {}
    for name, value in arrays.items():
        arr = as_numpy(value, name)
        if arr.ndim == 0:
            raise ValueError(f"{name} must be an array of samples, got a scalar {value!r}")
        out[name] = arr
    lengths = {name: arr.shape[0] for name, arr in out.items()}
    if len(set(lengths.values())) > 1:
        found = ", ".join(f"{name} has {k}" for name, k in lengths.items())
        raise ValueError(f"inputs have different numbers of samples: {found}")
    n = next(iter(lengths.values()))
    if n == 0:
        raise ValueError(
            f"{next(iter(lengths))} is empty: the bootstrap needs at least two samples"
        )
    if n == 1:
        raise ValueError(
            f"{next(iter(lengths))} has one sample: the bootstrap needs at least two "
            "(every resample of one sample is that sample, a zero-width interval)"
        )
    return n, out


def check_per_query_scores(scores_a: Any, scores_b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two systems' scores on the same queries (``paired_metric_difference``): 1-D arrays of
    finite reals of one length, at least two, as float64.

    bool and float16 are refused (a 0/1 success per query is a proportion: use McNemar's test;
    float16 keeps about three digits of an nDCG).
    """
    out = []
    for name, value in (("scores_a", scores_a), ("scores_b", scores_b)):
        if not_array_like(value):
            raise TypeError(
                f"{name} must be a 1-D array of per-query scores; got {describe(value)}."
            )
        s = as_real_array(value, name)
        if s.dtype.kind == "b" or s.dtype == np.float16:
            raise TypeError(
                f"{name} has dtype {s.dtype}; pass per-query scores as float32 or float64 "
                "(0/1 successes per query are a proportion: compare them with mcnemar)"
            )
        if s.ndim != 1:
            raise ValueError(f"{name} must be 1-D (one score per query); got shape {s.shape}.")
        s = s.astype(np.float64)
        if not np.isfinite(s).all():
            bad = int(np.flatnonzero(~np.isfinite(s))[0])
            raise ValueError(f"{name} contains {s[bad]} at index {bad}; scores must be finite.")
        out.append(s)
    a, b = out
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"scores_a has {a.shape[0]} queries and scores_b {b.shape[0]}; a paired comparison "
            "needs both systems' scores on the same queries, in the same order"
        )
    if a.shape[0] < 2:
        raise ValueError(
            f"scores_a has {a.shape[0]} queries; an interval on a mean difference needs at least two"
        )
    return a, b


def check_group_codes(groups: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(groups, group_code)``: one group id per sample (shape ``(n,)``), none missing, and each
    sample's group as a code of ``np.unique(groups, return_inverse=True)``."""
    groups = as_numpy(groups, "groups")
    if groups.ndim != 1 or groups.shape[0] != n:
        raise ValueError(f"groups must have one id per sample, shape ({n},), got {groups.shape}")
    check_group_ids(groups, "groups")  # before np.unique, which makes one group of all NaNs
    _, group_code = np.unique(groups, return_inverse=True)
    return groups, group_code


def varies_within_groups(group_code: np.ndarray, values: np.ndarray) -> bool:
    """Whether some group (codes from :func:`check_group_codes`) holds two different ``values``
    (a stratum or a class that should be constant within each group)."""
    first = np.zeros(group_code.max() + 1, dtype=values.dtype)
    first[group_code] = values
    return bool(np.any(first[group_code] != values))


def check_bootstrap_groups(groups: Any, strata: Any, n: int):
    """``(members, bounds, strata_code)`` for a group bootstrap, or None when ``groups`` is None.

    ``members`` lists the sample indices ordered by stratum, then group; group ``j`` (in that
    order) is ``members[bounds[j]:bounds[j + 1]]``, and the groups of one stratum are consecutive.
    """
    if groups is None:
        if strata is not None:
            raise ValueError("strata needs groups: pass groups= as well (one group id per sample)")
        return None
    groups, group_code = check_group_codes(groups, n)
    if strata is None:
        strata_code = np.zeros(n, dtype=np.int64)
    else:
        strata = as_numpy(strata, "strata")
        if strata.ndim != 1 or strata.shape[0] != n:
            raise ValueError(
                f"strata must have one value per sample, shape ({n},), got {strata.shape}"
            )
        check_group_ids(strata, "strata")
        _, strata_code = np.unique(strata, return_inverse=True)
        if varies_within_groups(group_code, strata_code):
            raise ValueError(
                "strata must be constant within each group: a group lies in one stratum"
            )
    members = np.lexsort((group_code, strata_code))
    new_group = np.r_[True, np.diff(group_code[members]) != 0]
    bounds = np.r_[np.flatnonzero(new_group), n]
    check_groups_vary(strata_code[members[bounds[:-1]]], strata is not None)
    return members, bounds, strata_code


def check_groups_vary(group_stratum: np.ndarray, stratified: bool) -> None:
    """Refuse a group layout whose every resample is the data itself (a zero-width interval).

    Each stratum is resampled with as many groups as it has, so a stratum with one group is
    drawn whole every time and adds no variability (a warning says how many strata do).
    """
    groups_per_stratum = np.bincount(group_stratum)
    single = int(np.count_nonzero(groups_per_stratum == 1))
    if single == groups_per_stratum.size:
        raise ValueError(
            ("every stratum holds a single group" if stratified else "groups holds a single group")
            + ": every resample would be the data itself and the interval would have zero "
            "width. The group bootstrap needs at least two groups per stratum (are groups and "
            "strata the same thing? groups are the clusters of dependent samples, e.g. videos)"
        )
    if single:
        warn(
            f"{single} of {groups_per_stratum.size} strata hold a single group: they are drawn "
            "whole in every resample and add no variability, so the interval is narrower than "
            "the data support."
        )
