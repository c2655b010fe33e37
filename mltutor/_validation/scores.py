"""Scores: the real-valued inputs of curves, areas, top-k accuracy and rankings.

A score array is checked once, here, at the public function's entry: real numbers (no strings),
finite (no NaN, no infinity), the right shape and one row per sample.  The kernels in
:mod:`mltutor.curves` then work on the clean arrays and never check again.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from .arrays import as_numpy, check_lengths, column_or_1d, not_array_like, shown
from .labels import (
    as_label_array,
    check_labels,
    equals_label,
    label_kind,
    resolve_pos_label,
    unique_labels,
)
from .params import check_bool, check_k, check_pos_label, check_scalar
from .warning import UndefinedMetricWarning, warn
from .weights import check_sample_weight

__all__ = [
    "BinaryScores",
    "HingeInputs",
    "RankingInputs",
    "ThresholdMetricInputs",
    "TopKInputs",
    "as_real_array",
    "check_band_confidence",
    "check_binary_scores",
    "check_hinge_inputs",
    "check_indicator_scores",
    "check_labels_for_scores",
    "check_multilabel_ranking",
    "check_rate_grid",
    "check_real_scores",
    "check_score_array",
    "check_threshold_metric",
    "check_top_k",
    "check_unit_range",
]


def as_real_array(x: Any, name: str, *, dtype_error: type[Exception] = ValueError) -> np.ndarray:
    """``x`` as an array of real numbers: object arrays become float64, anything else non-numeric
    raises ``dtype_error`` (scikit-learn raises ValueError in some functions and TypeError in
    others, and mltutor mirrors each)."""
    a = as_numpy(x, name)
    if a.dtype.kind == "O":
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError):
            raise dtype_error(f"{name} must hold real numbers; got an object array.") from None
    if a.dtype.kind not in "biuf":
        raise dtype_error(f"{name} must hold real numbers; got dtype {a.dtype}.")
    return a


def check_real_scores(
    y_score: Any, *, name: str = "y_score", dtype_error: type[Exception] = ValueError
) -> np.ndarray:
    """``y_score`` as an array of finite real numbers (no strings, no NaN, no infinity).

    Shape checks stay with the caller.
    """
    s = as_real_array(y_score, name, dtype_error=dtype_error)
    if s.dtype.kind == "f" and not np.isfinite(s).all():
        what = "NaN" if np.isnan(s).any() else "infinity"
        raise ValueError(f"Input {name} contains {what}; scores must be finite.")
    return s


def check_score_array(y_score: Any, n_samples: int) -> np.ndarray:
    """Scores of shape (n_samples,) or (n_samples, n_columns): real, finite, non-empty."""
    if not_array_like(y_score):
        raise TypeError(f"y_score must be an array-like of scores; got {shown(y_score)}.")
    s = as_numpy(y_score, "y_score")
    if s.ndim > 2:
        raise ValueError(f"y_score must be 1-D or 2-D; got an array of shape {s.shape}.")
    if s.ndim == 2 and s.shape[1] == 0:
        raise ValueError(f"y_score has shape {s.shape}: it needs at least one column of scores.")
    s = check_real_scores(s, dtype_error=TypeError)
    if s.shape[0] != n_samples:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {n_samples}, y_score has {s.shape[0]}."
        )
    if n_samples == 0:
        raise ValueError("Found empty input: y_true and y_score have 0 samples; need at least 1.")
    return s


def check_indicator_scores(y: np.ndarray, s: np.ndarray) -> None:
    """A label-indicator ``y`` (n, k) needs scores of the same shape: one column per label
    (scikit-learn silently scores only the first columns, or fails with an IndexError)."""
    if s.ndim != 2:
        raise ValueError(
            f"y_score must be 2-D, one column per label, when y_true is a label-indicator matrix; "
            f"got shape {s.shape}."
        )
    if s.shape != y.shape:
        raise ValueError(
            f"y_score has shape {s.shape} but y_true has shape {y.shape}; they must match."
        )


# --------------------------------------------------------------------------------------------
# One binary problem: labels and one score per sample (curves, thresholds)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BinaryScores:
    """Validated binary inputs; unpacks as ``(is_positive, y_score, sample_weight, pos_label)``.

    ``n_classes`` is the number of distinct values in ``y_true`` (1, 2, or more with an explicit
    ``pos_label``).
    """

    is_positive: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None
    pos_label: Any
    n_classes: int

    def __iter__(self):
        return iter((self.is_positive, self.y_score, self.sample_weight, self.pos_label))


def check_binary_scores(
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None
) -> BinaryScores:
    """Validate a binary problem given as labels and scores.

    Returns ``(is_positive, y_score, sample_weight, pos_label)``: a 1-D bool array (``y_true ==
    pos_label``), the 1-D scores, float64 weights or None, and the resolved ``pos_label``.

    Follows scikit-learn's ``confusion_matrix_at_thresholds``: ``y_true`` must be binary, or
    multiclass with an explicit ``pos_label`` (one class against the rest); ``pos_label=None``
    means 1 and is only allowed for labels in {0, 1} or {-1, 1}; a ``pos_label`` absent from
    ``y_true`` is accepted (there are then no positives).  Refused, naming the argument: NaN or
    infinite scores or weights, continuous or 2-D ``y_true``, non-numeric scores, inconsistent
    lengths, empty input, all-zero weights.
    """
    pos_label = check_pos_label(pos_label)
    yt, sparse = as_label_array(y_true, "y_true")
    if sparse:
        raise TypeError("y_true must be a dense 1-D array of labels; got a sparse matrix.")
    yt = column_or_1d(yt, "y_true")
    if not_array_like(y_score):
        raise TypeError(
            f"y_score must be an array-like of scores (one per sample); got {shown(y_score)}."
        )
    scores = column_or_1d(check_real_scores(y_score, dtype_error=TypeError), "y_score")
    if yt.shape[0] != scores.shape[0]:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {yt.shape[0]}, y_score has {scores.shape[0]}. "
            "Each sample needs one true label and one score."
        )
    if yt.shape[0] == 0:
        raise ValueError("Found empty input: y_true and y_score have 0 samples; need at least 1.")
    if label_kind(yt, "y_true") != "labels":
        raise ValueError(
            "y_true holds continuous values; it must hold class labels (the scores go in y_score)."
        )
    classes = unique_labels(yt)
    if classes.shape[0] > 2 and pos_label is None:
        raise ValueError(
            f"y_true has {classes.shape[0]} classes (multiclass format is not supported without "
            "pos_label); pass pos_label to score one class against the rest."
        )
    pos_label = resolve_pos_label(classes, pos_label)
    weights = check_sample_weight(
        sample_weight, yt.shape[0], allow_column=True, others="y_true and y_score"
    )
    return BinaryScores(
        equals_label(yt, pos_label), scores, weights, pos_label, int(classes.shape[0])
    )


# --------------------------------------------------------------------------------------------
# The classes that the columns of a score matrix stand for (multiclass ROC AUC)
# --------------------------------------------------------------------------------------------


def check_labels_for_scores(labels: Any, y_true: np.ndarray, n_columns: int) -> np.ndarray:
    """The classes that the columns of a multiclass score matrix stand for.

    Without ``labels``: the sorted classes of ``y_true``, one per column.  With ``labels``: unique,
    sorted, one per column, and containing every class of ``y_true``.
    """
    if labels is None:
        classes = unique_labels(y_true)
        if classes.shape[0] != n_columns:
            raise ValueError(
                f"Number of classes in y_true ({classes.shape[0]}) not equal to the number of "
                f"columns in 'y_score' ({n_columns}); pass labels= to name every column."
            )
        return classes
    given, _ = as_label_array(labels, "labels")
    given = column_or_1d(given, "labels")
    classes = np.unique(given)
    if classes.shape[0] != given.shape[0]:
        raise ValueError("Parameter 'labels' must be unique")
    if not np.array_equal(classes, given):
        raise ValueError("Parameter 'labels' must be ordered (sorted increasingly)")
    if classes.shape[0] != n_columns:
        raise ValueError(
            f"Number of given labels, {classes.shape[0]}, not equal to the number of columns in "
            f"'y_score', {n_columns}"
        )
    same_kind = (classes.dtype.kind == "U") == (y_true.dtype.kind == "U")
    if not same_kind or np.setdiff1d(y_true, classes).shape[0]:
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes


# --------------------------------------------------------------------------------------------
# Top-k accuracy: 1-D labels and a score per class
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TopKInputs:
    """Validated inputs of ``top_k_accuracy_score``.

    ``true_idx`` is each sample's true class as a column index of ``y_score``; ``y_score`` is 1-D
    (binary: the score of the second class) or ``(n_samples, n_classes)``; ``sample_weight`` is
    None, int64 (bool and integer weights) or float64.
    """

    true_idx: np.ndarray
    y_score: np.ndarray
    n_classes: int
    sample_weight: np.ndarray | None


def _top_k_scores(y_score: Any) -> np.ndarray:
    """Scores are a finite real 1-D or 2-D array (no strings, no NaN, no infinity)."""
    if not_array_like(y_score):
        raise TypeError(f"y_score must be an array-like of scores; got {shown(y_score)}.")
    s = as_numpy(y_score, "y_score")
    if s.ndim > 2:
        raise ValueError(f"y_score must be 1-D or 2-D (n_samples, n_classes); got shape {s.shape}.")
    if s.ndim == 2 and s.shape[1] == 0:
        raise ValueError("y_score has 0 columns; it needs one score per class.")
    return check_real_scores(s, dtype_error=ValueError)


def _check_top_k_labels(labels: Any, y_true: np.ndarray, n_score_classes: int) -> np.ndarray:
    """``labels`` name the columns of ``y_score``: unique, sorted, one per column, covering y_true."""
    arr = np.asarray(labels)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.reshape(-1)  # a column vector, as sklearn's column_or_1d
    arr = check_labels(arr, y_true)
    if np.unique(arr).size != arr.size:
        raise ValueError(f"Parameter 'labels' must be unique; got {labels!r}.")
    if not np.array_equal(np.unique(arr), arr):
        raise ValueError(f"Parameter 'labels' must be ordered (sorted ascending); got {labels!r}.")
    if arr.size != n_score_classes:
        raise ValueError(
            f"Number of given labels ({arr.size}) not equal to the number of classes in "
            f"'y_score' ({n_score_classes})."
        )
    missing = np.setdiff1d(y_true, arr)
    if missing.size:
        raise ValueError(f"'y_true' contains labels not in parameter 'labels': {missing.tolist()}.")
    return arr


def check_top_k(
    y_true: Any, y_score: Any, k: Any, normalize: Any, sample_weight: Any, labels: Any
) -> tuple[TopKInputs, int, bool]:
    """Validate ``top_k_accuracy_score``'s arguments the way scikit-learn does.

    ``y_true`` is 1-D class labels (a column vector is flattened).  The targets are binary when
    ``y_true`` holds at most two labels and ``labels`` (if given) at most two; binary scores are
    1-D (or one column).  Otherwise ``y_score`` has one column per class: the sorted labels of
    ``y_true``, or ``labels`` (unique, sorted, covering ``y_true``).  Returns the inputs, ``k``
    and ``normalize``.
    """
    k = check_k(k)
    normalize = check_bool(normalize, "normalize")
    yt, _ = as_label_array(y_true, "y_true")
    if yt.ndim == 2 and yt.shape[1] == 1:
        yt = yt.reshape(-1)
    if yt.ndim != 1:
        raise ValueError(f"y_true must be 1-D class labels; got shape {yt.shape}.")
    if yt.shape[0] == 0:
        raise ValueError("Found empty input array (y_true has 0 samples); at least 1 is required.")
    kind = label_kind(yt, "y_true")
    if kind != "labels":
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    present = np.unique(yt)
    binary = present.size <= 2 and not (labels is not None and len(labels) > 2)
    s = _top_k_scores(y_score)
    if binary:
        if s.ndim == 2 and s.shape[1] != 1:
            raise ValueError(
                f"`y_true` is binary while y_score is 2d with {s.shape[1]} classes. If `y_true` "
                "does not contain all the labels, `labels` must be provided."
            )
        s = s.reshape(-1)
    elif s.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={s.shape}`."
        )
    weights = None if np.ndim(sample_weight) == 0 else sample_weight
    check_lengths(
        " Each sample needs one true label, one row of scores (and one weight).",
        y_true=yt,
        y_score=s,
        sample_weight=weights,
    )
    w = check_sample_weight(
        sample_weight,
        yt.shape[0],
        allow_all_zero=True,
        keep_integer=True,
        others="y_true and y_score",
    )
    n_score_classes = s.shape[1] if s.ndim == 2 else 2
    if labels is None:
        classes = present
        if classes.size != n_score_classes:
            raise ValueError(
                f"Number of classes in 'y_true' ({classes.size}) not equal to the number of "
                f"classes in 'y_score' ({n_score_classes}). You can provide a list of all known "
                "classes by assigning it to the `labels` parameter."
            )
    else:
        classes = _check_top_k_labels(labels, yt, n_score_classes)
    if k >= classes.size:
        warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({classes.size}) will result in a "
            "perfect score and is therefore meaningless.",
            UndefinedMetricWarning,
        )
    true_idx = np.searchsorted(classes, yt)
    return TopKInputs(true_idx, s, int(classes.size), w), k, normalize


# --------------------------------------------------------------------------------------------
# Multilabel ranking: an indicator matrix and one score per label (coverage, LRAP, ranking loss)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingInputs:
    """Validated inputs of the multilabel ranking metrics.

    ``relevant`` is the (n_samples, n_labels) bool matrix ``y_true != 0``, ``y_score`` the float64
    scores of the same shape, ``sample_weight`` None or float64.
    """

    relevant: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None

    def __iter__(self):
        return iter((self.relevant, self.y_score, self.sample_weight))


def check_multilabel_ranking(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    *,
    accept_sparse: bool = True,
    accept_column: bool = False,
) -> RankingInputs:
    """Validate a label-indicator ``y_true`` and a score matrix of the same shape.

    As scikit-learn 1.9's multilabel ranking metrics: ``y_true`` must be a label-indicator
    matrix (at most two distinct values, whole numbers; a label counts as relevant where it is
    non-zero); ``accept_column=True`` (``label_ranking_average_precision_score``) also takes a
    one-column matrix.  ``accept_sparse=False`` (``coverage_error``) refuses a scipy sparse
    ``y_true`` with a TypeError.  Scores: finite real numbers, the shape of ``y_true``.  Weights:
    real, finite, one per row; all zero is accepted (the metric then divides by zero as
    scikit-learn does).
    """
    yt, sparse = as_label_array(y_true, "y_true")
    if sparse and not accept_sparse:
        raise TypeError(
            "y_true is a sparse matrix; this function needs a dense label-indicator array."
        )
    if not_array_like(y_score):
        raise TypeError(f"y_score must be an array-like of scores; got {shown(y_score)}.")
    s = check_real_scores(y_score)
    n_true = yt.shape[0] if yt.ndim else 1
    n_score = s.shape[0] if s.ndim else 1
    if n_true != n_score:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {n_true}, y_score has {n_score}."
        )
    if yt.ndim != 2 or min(yt.shape) == 0:
        raise ValueError(
            f"y_true must be a non-empty 2-D label-indicator matrix; got shape {yt.shape}."
        )
    if yt.dtype.kind in "biu" and yt.shape[1] > 1:
        # label_kind's rule for integers, with unique_labels' counting instead of a sort.
        few = unique_labels(yt.reshape(-1)).shape[0] < 3
        kind = "multilabel-indicator" if few else "multiclass-multioutput"
    else:
        kind = label_kind(yt, "y_true")
    column = accept_column and yt.shape[1] == 1 and kind == "labels"
    if column and unique_labels(yt.reshape(-1)).shape[0] > 2:
        column = False
        kind = "multiclass"
    if kind != "multilabel-indicator" and not column:
        what = (
            "binary" if kind == "labels" and unique_labels(yt.reshape(-1)).shape[0] <= 2 else kind
        )
        raise ValueError(f"{what} format is not supported")
    if s.shape != yt.shape:
        raise ValueError("y_true and y_score have different shape")
    weights = check_sample_weight(
        sample_weight, yt.shape[0], allow_all_zero=True, others="y_true and y_score"
    )
    return RankingInputs(yt != 0, s.astype(np.float64, copy=False), weights)


# --------------------------------------------------------------------------------------------
# Hinge loss: labels and decision values (one per sample, or one per class)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HingeInputs:
    """Validated inputs of ``hinge_loss``.

    Binary (``true_idx is None``): ``sign`` is +1 for the greater of the labels of ``y_true``
    and -1 otherwise (all -1 when ``y_true`` holds one label, as scikit-learn's
    ``LabelBinarizer(neg_label=-1)``), ``pred_decision`` 1-D.  Multiclass: ``true_idx`` is each
    sample's class as a column of the (n_samples, n_classes) ``pred_decision``.
    """

    pred_decision: np.ndarray
    sign: np.ndarray | None
    true_idx: np.ndarray | None
    sample_weight: np.ndarray | None

    def __iter__(self):
        return iter((self.pred_decision, self.sign, self.true_idx, self.sample_weight))


def check_hinge_inputs(
    y_true: Any, pred_decision: Any, labels: Any, sample_weight: Any
) -> HingeInputs:
    """Validate ``hinge_loss``'s inputs as scikit-learn 1.9 does.

    More than two classes (in ``labels``, or in ``y_true`` without ``labels``) need a 2-D
    ``pred_decision`` with one column per class; otherwise ``pred_decision`` is one value per
    sample.  Refused: NaN or infinite decisions, inconsistent lengths, labels of ``y_true`` not
    in ``labels``, and (a deliberate difference) two or fewer ``labels`` while ``y_true`` holds
    more classes, which scikit-learn scores against a column of its own label binarisation.
    """
    if not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {shown(y_true)}.")
    if not_array_like(pred_decision):
        raise TypeError(
            f"pred_decision must be an array-like of decision values; got {shown(pred_decision)}."
        )
    yt, _ = as_label_array(y_true, "y_true")
    d = as_real_array(pred_decision, "pred_decision")
    if d.ndim > 2:
        raise ValueError(f"pred_decision must be 1-D or 2-D; got shape {d.shape}.")
    n_true = yt.shape[0] if yt.ndim else 1
    n_dec = d.shape[0] if d.ndim else 1
    if n_true != n_dec:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {n_true}, pred_decision has {n_dec}."
        )
    if d.ndim == 0 or d.shape[0] == 0 or (d.ndim == 2 and d.shape[1] == 0):
        raise ValueError(f"Found empty input: pred_decision has shape {d.shape}.")
    d = check_real_scores(d, name="pred_decision")
    yt = column_or_1d(yt, "y_true")
    if yt.dtype.kind == "f" and not np.isfinite(yt).all():
        raise ValueError("Input y_true contains NaN or infinity; labels must be finite.")
    weights = check_sample_weight(
        sample_weight, yt.shape[0], allow_all_zero=True, others="y_true and pred_decision"
    )
    present = unique_labels(yt)
    if labels is not None:
        if not_array_like(labels):
            raise TypeError(f"labels must be an array-like or None; got {shown(labels)}.")
        lab, _ = as_label_array(labels, "labels")
        classes = np.unique(lab.reshape(-1))
        if (classes.dtype.kind == "U") != (present.dtype.kind == "U") and present.size:
            raise ValueError(
                f"y contains previously unseen labels: {present.tolist()} (not in labels)."
            )
    else:
        classes = present
    d = d.astype(np.float64, copy=False)
    if classes.shape[0] > 2:
        if d.ndim <= 1:
            raise ValueError(
                "The shape of pred_decision cannot be 1d array with a multiclass target. "
                "pred_decision shape must be (n_samples, n_classes), that is "
                f"({yt.shape[0]}, {classes.shape[0]}). Got: {d.shape}"
            )
        if classes.shape[0] != d.shape[1]:
            if labels is None:
                raise ValueError(
                    "Please include all labels in y_true or pass labels as third argument"
                )
            raise ValueError(
                "The shape of pred_decision is not consistent with the number of classes. "
                "With a multiclass target, pred_decision shape must be (n_samples, n_classes), "
                f"that is ({yt.shape[0]}, {classes.shape[0]}). Got: {d.shape}"
            )
        idx = np.searchsorted(classes, yt)
        idx = np.minimum(idx, classes.shape[0] - 1)
        unseen = classes[idx] != yt
        if unseen.any():
            raise ValueError(
                f"y contains previously unseen labels: {np.unique(yt[unseen]).tolist()}"
            )
        return HingeInputs(d, None, idx, weights)
    d = column_or_1d(d, "pred_decision")
    if present.shape[0] > 2:
        raise ValueError(
            f"labels names {classes.shape[0]} classes but y_true holds {present.shape[0]}; "
            "pass every class in labels (and one column of pred_decision per class)."
        )
    if present.shape[0] == 2:
        sign = np.where(equals_label(yt, present[1]), 1.0, -1.0)
    else:
        sign = np.full(yt.shape[0], -1.0)
    return HingeInputs(d, sign, None, weights)


# --------------------------------------------------------------------------------------------
# A metric at every threshold: labels, scores and a callable
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThresholdMetricInputs:
    """Validated inputs of ``metric_at_thresholds``: 1-D labels and scores, float64 weights or
    None, the callable and its keyword arguments (a new dict)."""

    y_true: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None
    metric_func: Any
    metric_params: dict


def check_threshold_metric(
    y_true: Any, y_score: Any, metric_func: Any, sample_weight: Any, metric_params: Any
) -> ThresholdMetricInputs:
    """Validate ``metric_at_thresholds``' inputs as scikit-learn 1.9 does: any 1-D labels (the
    metric judges them), finite real 1-D scores of the same length, a callable, and a dict or
    None of its keyword arguments."""
    if not callable(metric_func):
        raise TypeError(f"metric_func must be a callable; got {shown(metric_func)}.")
    if metric_params is not None and not isinstance(metric_params, dict):
        raise TypeError(f"metric_params must be a dict or None; got {shown(metric_params)}.")
    if not_array_like(y_true):
        raise TypeError(f"y_true must be an array-like of labels; got {shown(y_true)}.")
    if not_array_like(y_score):
        raise TypeError(f"y_score must be an array-like of scores; got {shown(y_score)}.")
    yt, sparse = as_label_array(y_true, "y_true")
    if sparse:
        raise TypeError("y_true must be a dense 1-D array of labels; got a sparse matrix.")
    s = check_real_scores(y_score)
    n_true = yt.shape[0] if yt.ndim else 1
    n_score = s.shape[0] if s.ndim else 1
    if n_true != n_score:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {n_true}, y_score has {n_score}."
        )
    yt = column_or_1d(yt, "y_true")
    s = column_or_1d(s, "y_score")
    if yt.dtype.kind == "f" and not np.isfinite(yt).all():
        raise ValueError("Input y_true contains NaN or infinity.")
    weights = check_sample_weight(
        sample_weight, yt.shape[0], allow_column=True, others="y_true and y_score"
    )
    return ThresholdMetricInputs(yt, s, weights, metric_func, dict(metric_params or {}))


# --------------------------------------------------------------------------------------------
# Parameters of partial areas, bands and constrained operating points (curves/_partial,
# _bands, _at_fixed_rate)
# --------------------------------------------------------------------------------------------


def check_unit_range(value: Any, name: str) -> tuple[float, float] | None:
    """None, or a pair ``(lo, hi)`` of real numbers with ``0 <= lo < hi <= 1`` (a range of rates)."""
    if value is None:
        return None
    expected = f"{name} must be None or a pair (lo, hi) with 0 <= lo < hi <= 1"
    if isinstance(value, str) or not hasattr(value, "__len__") or len(value) != 2:
        raise TypeError(f"{expected}; got {shown(value)}.")
    lo, hi = (
        check_scalar(v, f"{name}[{i}]", Real, min_val=0, max_val=1) for i, v in enumerate(value)
    )
    if not lo < hi:
        raise ValueError(f"{expected}; got ({lo!r}, {hi!r}).")
    return float(lo), float(hi)


def check_rate_grid(grid: Any, name: str, default: np.ndarray) -> np.ndarray:
    """``default`` for None, else a non-empty 1-D array of finite reals in [0, 1] (float64)."""
    if grid is None:
        return default
    if not_array_like(grid):
        raise TypeError(f"{name} must be an array-like of rates in [0, 1]; got {shown(grid)}.")
    g = column_or_1d(check_real_scores(grid, name=name, dtype_error=TypeError), name)
    if g.dtype.kind == "b":
        raise TypeError(f"{name} must hold rates in [0, 1], not booleans.")
    if g.shape[0] == 0:
        raise ValueError(f"{name} is empty; give at least one rate in [0, 1].")
    g = g.astype(np.float64)
    if g.min() < 0 or g.max() > 1:
        raise ValueError(f"{name} must hold rates in [0, 1]; got values in [{g.min()}, {g.max()}].")
    return g


def check_band_confidence(confidence: Any) -> float:
    """The level of each pointwise interval: a real number strictly between 0 and 1."""
    return float(
        check_scalar(
            confidence,
            "confidence",
            Real,
            min_val=0,
            max_val=1,
            include_boundaries="neither",
            expected="a real number in (0, 1), e.g. 0.95 (not 95)",
        )
    )
