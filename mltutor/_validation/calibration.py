"""Probabilities, logits and calibration targets (:mod:`mltutor.calibration`).

The checks for the scikit-learn twins (``brier_score_loss``, ``log_loss``, ``calibration_curve``)
follow scikit-learn 1.9's order and error types; the others (temperature, Platt, isotonic, ECE) are
stricter, because a silently accepted NaN or a probability of 1.3 only hides a bug upstream.
Labels are read by :mod:`.labels`, weights by :func:`.weights.check_sample_weight`.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np

from .arrays import as_numpy, check_lengths, not_array_like, shown
from .labels import as_label_array, check_labels_1d, equals_label, label_kind
from .params import check_scalar
from .warning import UndefinedMetricWarning, warn
from .weights import check_sample_weight

__all__ = [
    "check_curve_interval_method",
    "check_d2_sample_count",
    "check_min_bin_count",
    "check_temperature",
    "check_probabilities_range",
    "check_real_array",
    "sklearn_binary_targets",
    "sklearn_multiclass_targets",
    "sklearn_pos_label",
    "sklearn_proba",
]

_DEFAULT_POSITIVE_SETS = ([0, 1], [-1, 1], [0], [-1], [1])


def check_real_array(
    x: Any,
    name: str,
    *,
    ndims: tuple[int, ...] = (1, 2),
    keep_dtype: bool = False,
    allow_empty: bool = False,
) -> np.ndarray:
    """A finite real array of one of ``ndims`` dimensions, as float64 (``keep_dtype=True`` keeps
    float32 and float16, as scikit-learn's probability checks do).

    Refuses, naming ``name``: non array-likes (TypeError), strings, complex numbers, NaN,
    infinity, empty input and the wrong number of dimensions (ValueError).
    """
    if not_array_like(x):
        raise TypeError(f"{name} must be an array-like of numbers; got {shown(x)}.")
    try:
        arr = as_numpy(x, name)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as an array of numbers: {exc}") from None
    if arr.dtype.kind == "O":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must hold real numbers; got an object array.") from None
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers; it must hold real numbers.")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold real numbers; got dtype {arr.dtype}.")
    if arr.ndim not in ndims:
        shapes = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"{name} must be {shapes}; got shape {arr.shape}.")
    dtype = arr.dtype if keep_dtype and arr.dtype in (np.float32, np.float16) else np.float64
    arr = arr.astype(dtype, copy=False)
    if not allow_empty and (arr.shape[0] == 0 or (arr.ndim == 2 and arr.shape[1] == 0)):
        raise ValueError(
            f"Found array with 0 sample(s) (shape={arr.shape}) in {name} while a minimum of 1 "
            "is required."
        )
    if not np.isfinite(arr).all():
        what = "NaN" if np.isnan(arr).any() else "infinity"
        raise ValueError(f"Input {name} contains {what}; it must hold finite numbers.")
    return arr


def check_probabilities_range(p: np.ndarray, name: str) -> None:
    """Every value in [0, 1] (scikit-learn's two messages)."""
    if p.size and p.max() > 1:
        raise ValueError(f"{name} contains values greater than 1: {p.max()}")
    if p.size and p.min() < 0:
        raise ValueError(f"{name} contains values lower than 0: {p.min()}")


# --------------------------------------------------------------------------------------------
# scikit-learn's probabilistic-prediction checks (brier_score_loss, log_loss, calibration_curve)
# --------------------------------------------------------------------------------------------


def sklearn_proba(y_proba: Any, name: str = "y_proba") -> np.ndarray:
    """scikit-learn's ``check_array(y_proba, ensure_2d=False, dtype=supported_float_dtypes)``:
    float32 and float16 keep their dtype (the loss is then computed in it, as in scikit-learn)."""
    return check_real_array(y_proba, name, ndims=(1, 2), keep_dtype=True)


def _target_kind(y: np.ndarray, name: str) -> str:
    """scikit-learn's type_of_target: 'binary', 'multiclass', 'multilabel-indicator', or other."""
    if y.size == 0:
        return "unknown"
    kind = label_kind(y, name)
    if kind == "labels":
        yy = y.reshape(-1)
        return "binary" if np.unique(yy).size <= 2 else "multiclass"
    return kind


def sklearn_pos_label(pos_label: Any, classes: np.ndarray, *, fall_back: bool) -> Any:
    """scikit-learn's ``_check_pos_label_consistency``: without ``pos_label`` the labels must be
    {0, 1} or {-1, 1} (or one of them).  ``fall_back=True`` (Brier score) then uses the greater
    label for numbers and only refuses strings."""
    if pos_label is not None:
        if not isinstance(pos_label, (str, Real, np.bool_)):
            raise TypeError(
                f"pos_label must be an int, float, bool, str or None; got {pos_label!r}."
            )
        return pos_label
    strings = classes.dtype.kind == "U"
    if not strings and any(
        classes.shape[0] == len(s) and np.array_equal(classes, s) for s in _DEFAULT_POSITIVE_SETS
    ):
        return 1
    if fall_back and not strings and classes.size:
        return classes[-1].item()
    shown = ", ".join(repr(c) for c in classes.tolist())
    raise ValueError(
        f"y_true takes value in {{{shown}}} and pos_label is not specified: either make y_true "
        "take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
    )


def sklearn_binary_targets(
    y_true: Any, y_prob: np.ndarray, sample_weight: Any, pos_label: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """scikit-learn's ``_validate_binary_probabilistic_prediction``: one-hot (n, 2) targets,
    (n, 2) probabilities [1 - p, p] and the weights."""
    if not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {shown(y_true)}.")
    yt = check_labels_1d(y_true, "y_true")
    p = y_prob.reshape(-1)
    weights = None if not_array_like(sample_weight) else as_numpy(sample_weight, "sample_weight")
    check_lengths("", y_prob=p, y_true=yt, sample_weight=weights)
    w = check_sample_weight(sample_weight, yt.shape[0], dtype_error=ValueError)
    kind = _target_kind(yt, "y_true")
    if kind != "binary":
        raise ValueError(
            f"The type of the target inferred from y_true is {kind} but should be binary "
            "according to the shape of y_prob (1-D: the probability of the positive class)."
        )
    if p.max() > 1:
        raise ValueError(f"y_prob contains values greater than 1: {p.max()}")
    if p.min() < 0:
        raise ValueError(f"y_prob contains values less than 0: {p.min()}")
    pos_label = sklearn_pos_label(pos_label, np.unique(yt), fall_back=True)
    positive = equals_label(yt, pos_label).astype(np.int64)
    onehot = np.stack([1 - positive, positive], axis=1)
    return onehot, np.stack([1 - p, p], axis=1), w


def _label_array(labels: Any) -> np.ndarray:
    if not_array_like(labels):
        raise TypeError(f"labels must be an array-like of class labels; got {shown(labels)}.")
    arr, _ = as_label_array(labels, "labels")
    if arr.ndim != 1:
        raise ValueError(f"labels must be 1-D; got shape {arr.shape}.")
    kind = _target_kind(arr, "labels")
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"labels must be class labels (not {kind}); got {shown(labels)}.")
    return arr


def sklearn_multiclass_targets(
    y_true: Any, y_prob: np.ndarray, sample_weight: Any, labels: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """scikit-learn's ``_validate_multiclass_probabilistic_prediction``: one column per class (the
    sorted labels of ``labels`` or of ``y_true``; the columns of an indicator ``y_true``)."""
    check_probabilities_range(y_prob, "y_prob")
    if not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {shown(y_true)}.")
    yt, _ = as_label_array(y_true, "y_true")
    weights = None if not_array_like(sample_weight) else as_numpy(sample_weight, "sample_weight")
    check_lengths("", y_prob=y_prob, y_true=yt, sample_weight=weights)
    w = check_sample_weight(sample_weight, y_prob.shape[0], dtype_error=ValueError)
    if yt.ndim == 2 and yt.shape[1] == 1:
        yt = yt.reshape(-1)
    kind = _target_kind(yt, "y_true")
    if labels is not None:
        lab = _label_array(labels)
        classes = np.unique(lab)
        if classes.shape != lab.shape:
            raise ValueError(f"labels must not repeat a label; got {shown(labels)}.")
        if not np.array_equal(classes, lab):
            warn(
                f"Labels passed were {labels}. But this function assumes labels are ordered "
                f"lexicographically. Pass the ordered labels={classes.tolist()} and ensure that the "
                "columns of y_prob correspond to this ordering.",
                UserWarning,
            )
        if kind not in ("binary", "multiclass"):
            raise ValueError(f"y_true must be 1-D class labels when labels is given; got {kind}.")
        if (yt.dtype.kind == "U") != (classes.dtype.kind == "U"):
            missing = set(np.unique(yt).tolist())
        else:
            missing = set(np.setdiff1d(yt, classes).tolist())
        if missing:
            raise ValueError(
                f"y_true contains values {missing} not belonging to the passed labels {labels}."
            )
    elif kind in ("binary", "multiclass"):
        classes = np.unique(yt)
    elif kind == "multilabel-indicator":
        classes = np.arange(yt.shape[1])
    else:
        raise ValueError(
            f"Unknown label type: y_true is {kind}; it must hold class labels or be a "
            "label-indicator matrix."
        )
    if classes.shape[0] == 1:
        if labels is None:
            raise ValueError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of all "
                "expected class labels explicitly through the labels argument."
            )
        raise ValueError(f"The labels array needs to contain at least two labels, got {classes}.")
    if kind == "multilabel-indicator":
        onehot = (yt != 0).astype(np.int64)
    else:
        onehot = (yt[:, None] == classes[None, :]).astype(np.int64)
    p = y_prob.reshape(-1, 1) if y_prob.ndim == 1 else y_prob
    if p.shape[1] == 1:
        p = np.concatenate([1 - p, p], axis=1)
    eps = np.finfo(p.dtype).eps
    if not np.isclose(p.sum(axis=1), 1, rtol=np.sqrt(eps), atol=1e-8).all():
        warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning)
    if classes.shape[0] != p.shape[1]:
        if labels is None:
            raise ValueError(
                f"y_true and y_prob contain different number of classes: {classes.shape[0]} vs "
                f"{p.shape[1]}. Please provide the true labels explicitly through the labels "
                f"argument. Classes found in y_true: {classes}"
            )
        raise ValueError(
            "The number of classes in labels is different from that in y_prob. Classes found in "
            f"labels: {classes}"
        )
    return onehot, p, w


def check_temperature(temperature: Any) -> float:
    """A temperature for scaling logits: a real number > 0 (inf allowed), not a bool."""
    return check_scalar(
        temperature,
        "temperature",
        Real,
        min_val=0,
        include_boundaries="neither",
        expected="> 0 (a real number; inf gives uniform probabilities)",
    )


def check_d2_sample_count(y_true: Any, y_proba: Any, sample_weight: Any) -> bool:
    """scikit-learn 1.9's first step of ``d2_log_loss_score`` and ``d2_brier_score``: the inputs
    have one entry per sample, and fewer than two samples give an ``UndefinedMetricWarning``
    (the caller then returns NaN).  Returns whether the score is defined."""
    for name, x in (("y_true", y_true), ("y_proba", y_proba), ("sample_weight", sample_weight)):
        if x is not None and not_array_like(x):
            raise TypeError(f"{name} must be an array-like; got {shown(x)}.")
    check_lengths(
        "",
        y_proba=None if y_proba is None else as_numpy(y_proba, "y_proba"),
        y_true=as_numpy(y_true, "y_true"),
        sample_weight=None if sample_weight is None else as_numpy(sample_weight, "sample_weight"),
    )
    n = int(np.shape(y_proba)[0]) if np.ndim(y_proba) else 1
    if n < 2:
        warn("D^2 score is not well-defined with less than two samples.", UndefinedMetricWarning)
        return False
    return True


# --------------------------------------------------------------------------------------------
# calibration_curve_intervals
# --------------------------------------------------------------------------------------------

#: The interval methods of a calibration curve's bins: the two with no zero-width interval at 0 of
#: n or n of n (Wald's would claim certainty there), and the conservative exact one.
CURVE_INTERVAL_METHODS = ("wilson", "jeffreys", "clopper-pearson")


def check_curve_interval_method(method: Any) -> str:
    """One of :data:`CURVE_INTERVAL_METHODS`."""
    if isinstance(method, str) and method in CURVE_INTERVAL_METHODS:
        return method
    shown_methods = ", ".join(repr(m) for m in CURVE_INTERVAL_METHODS)
    raise ValueError(
        f"method must be one of {shown_methods}; got {method!r} (the Wald interval has width 0 "
        "in a bin with no positive, or no negative, sample, which is common in a "
        "reliability diagram)."
    )


def check_min_bin_count(min_bin_count: Any) -> int:
    """An int >= 0 (not a bool); 0 switches the small-bin warning off."""
    return check_scalar(min_bin_count, "min_bin_count", Integral, min_val=0)
