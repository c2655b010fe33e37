"""Input checks for the classification metrics.

Every check raises a ``ValueError`` or ``TypeError`` whose message names the argument and says what
was expected.  The rules mirror scikit-learn's ``type_of_target`` and ``_check_targets`` so that a
learner who swaps ``sklearn.metrics`` for ``mltutor.metrics`` is refused in the same places.

Nothing here counts or divides: the checks hand clean arrays to :mod:`mltutor.confusion`.
"""

from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

__all__ = [
    "UndefinedMetricWarning",
    "Targets",
    "check_targets",
    "check_zero_division",
    "check_average",
    "check_beta",
    "check_bool",
    "check_digits",
    "check_normalize",
    "check_labels",
    "check_multilabel_labels",
    "check_set_wise_labels",
    "check_top_k",
    "TopKInputs",
    "target_type",
    "warn",
]

#: Averages accepted by the precision/recall family, besides ``'binary'``.
AVERAGES = (None, "micro", "macro", "weighted", "samples")


class UndefinedMetricWarning(UserWarning):
    """A metric is 0/0 for some label or sample and was set by ``zero_division``.

    Same name and meaning as ``sklearn.exceptions.UndefinedMetricWarning``; mltutor defines its own
    so that it does not need scikit-learn at run time.
    """


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """Issue a warning attributed to the first caller outside mltutor (the learner's line)."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# --------------------------------------------------------------------------------------------
# Scalar parameters
# --------------------------------------------------------------------------------------------


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
    """A flag must be a real bool, not 0/1 or a string."""
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


# --------------------------------------------------------------------------------------------
# Targets
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Targets:
    """Validated targets.

    ``multilabel`` is True for label-indicator matrices (2-D, one column per label), in which case
    ``y_true``/``y_pred`` are 2-D; otherwise they are 1-D label arrays of a common kind (numbers or
    strings).  ``sample_weight`` is a 1-D array or None.
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    sample_weight: np.ndarray | None
    multilabel: bool

    @property
    def n_samples(self) -> int:
        return int(self.y_true.shape[0])


def _as_array(y: Any, name: str) -> tuple[np.ndarray, bool]:
    """Turn an array-like into an ndarray; say whether it was a scipy sparse matrix."""
    if y is None or isinstance(y, (str, bytes)) or np.ndim(y) == 0 and not hasattr(y, "toarray"):
        raise TypeError(f"{name} must be an array-like of labels (list, array, Series); got {y!r}.")
    sparse = hasattr(y, "toarray") and hasattr(y, "nnz")
    try:
        arr = np.asarray(y.toarray()) if sparse else np.asarray(y)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as an array of labels: {exc}") from None
    if arr.dtype.kind == "S":
        raise TypeError(f"{name} holds bytes; convert the labels to str or int.")
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers; labels must be real numbers or strings.")
    if arr.dtype.kind == "O":
        arr = _object_labels(arr, name)
    if arr.dtype.kind not in "biufU":
        raise TypeError(f"{name} must hold numbers, bools or strings; got dtype {arr.dtype}.")
    return arr, sparse


def _object_labels(arr: np.ndarray, name: str) -> np.ndarray:
    """An object array is accepted when every element is a string (as sklearn's type_of_target)."""
    if arr.size == 0:
        return arr.astype(str)
    try:
        values = np.unique(arr)
    except TypeError:
        raise TypeError(
            f"{name} mixes label types that cannot be ordered (e.g. str and int); "
            "use one type for all labels."
        ) from None
    if not all(isinstance(v, str) for v in values):
        raise ValueError(
            f"{name} has dtype object with non-string values; pass a numeric or a string array."
        )
    return arr.astype(str)


def _assert_finite(y: np.ndarray, name: str) -> None:
    """NaN or inf can never be a class label."""
    if np.isnan(y).any():
        raise ValueError(f"Input {name} contains NaN; class labels must be finite.")
    raise ValueError(f"Input {name} contains infinity; class labels must be finite.")


def _is_integral(y: np.ndarray) -> bool:
    """Float labels count as classes only if every value is a whole number (sklearn's test)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return bool(np.all(y.astype(np.int64).astype(y.dtype) == y))


def _kind(y: np.ndarray, name: str) -> str:
    """Classify one target like sklearn's type_of_target, minus the binary/multiclass split.

    Returns 'labels' (1-D class labels), 'multilabel-indicator', 'continuous',
    'continuous-multioutput', 'multiclass-multioutput' or 'unknown'.  Raises on NaN/inf.
    """
    if y.ndim not in (1, 2) or (y.ndim == 2 and min(y.shape) == 0):
        return "unknown"
    floating = y.dtype.kind == "f"
    if y.ndim == 2 and y.shape[1] > 1:
        values = np.unique(y)
        if values.size < 3 and (not floating or _is_integral(values)):
            return "multilabel-indicator"
        if floating and not _is_integral(y):
            if not np.isfinite(y).all():
                _assert_finite(y, name)
            return "continuous-multioutput"
        return "multiclass-multioutput"
    if floating and not _is_integral(y):
        if not np.isfinite(y).all():
            _assert_finite(y, name)
        return "continuous"
    return "labels"


def _sklearn_type(y: np.ndarray, kind: str) -> str:
    """sklearn's name for a target kind (only used to word error messages)."""
    if kind != "labels":
        return kind
    return "binary" if np.unique(y.ravel()).size <= 2 else "multiclass"


def _check_lengths(**arrays: np.ndarray | None) -> None:
    lengths = {k: int(v.shape[0]) if v.ndim else 1 for k, v in arrays.items() if v is not None}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: {detail}. "
            "Each sample needs one true label, one prediction (and one weight)."
        )


def _check_sample_weight(
    sample_weight: Any, n_samples: int, *, require_nonzero: bool = True
) -> np.ndarray | None:
    """1-D, finite, one weight per sample, not all zero (unless ``require_nonzero=False``: the
    metric then raises ZeroDivisionError itself, as scikit-learn's top-k accuracy does).  Negative
    weights are accepted (sklearn)."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, (str, bytes)) or np.ndim(sample_weight) == 0:
        raise TypeError(
            f"sample_weight must be an array-like with one weight per sample; got {sample_weight!r}."
        )
    w = np.asarray(sample_weight)
    if w.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight must hold real numbers; got dtype {w.dtype}.")
    if w.ndim != 1:
        raise ValueError(
            f"sample_weight must be 1-D with one weight per sample; got shape {w.shape}."
        )
    if w.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {w.shape[0]} weights but y_true and y_pred have {n_samples} samples."
        )
    if w.dtype.kind == "f" and not np.isfinite(w).all():
        what = "NaN" if np.isnan(w).any() else "infinity"
        raise ValueError(f"Input sample_weight contains {what}; weights must be finite.")
    if require_nonzero and not w.any():
        raise ValueError("sample_weight must contain at least one non-zero weight; all weights are 0.")
    return w


def check_targets(y_true: Any, y_pred: Any, sample_weight: Any = None) -> Targets:
    """Validate a pair of targets for a classification metric.

    Refuses, naming the argument: non array-likes, bytes, NaN/inf, inconsistent lengths, empty
    input, continuous (non-integer float) targets, 2-D targets that are not label indicators
    (multiclass-multioutput), mixing label indicators with 1-D labels, indicator matrices with
    different numbers of columns, mixing string and numeric labels, and bad ``sample_weight``.
    A column vector of shape (n, 1) is accepted and flattened, as in scikit-learn.
    """
    yt, sparse_t = _as_array(y_true, "y_true")
    yp, sparse_p = _as_array(y_pred, "y_pred")
    weights = None if np.ndim(sample_weight) == 0 else np.asarray(sample_weight)
    _check_lengths(y_true=yt, y_pred=yp, sample_weight=weights)
    if yt.shape[0] == 0:
        raise ValueError(
            "Found empty input array (y_true and y_pred have 0 samples) while a minimum of 1 "
            "sample is required."
        )
    kind_t, kind_p = _kind(yt, "y_true"), _kind(yp, "y_pred")
    if kind_t != kind_p:
        type_t, type_p = _sklearn_type(yt, kind_t), _sklearn_type(yp, kind_p)
        raise ValueError(
            f"Classification metrics can't handle a mix of {type_t} and {type_p} targets "
            f"(y_true is {type_t}, y_pred is {type_p})."
        )
    if kind_t not in ("labels", "multilabel-indicator"):
        raise ValueError(
            f"{kind_t} is not supported: y_true (shape {yt.shape}) and y_pred (shape {yp.shape}) "
            "must be 1-D class labels or 2-D label-indicator matrices (0/1, one column per label)."
        )
    multilabel = kind_t == "multilabel-indicator"
    if multilabel:
        if yt.shape[1] != yp.shape[1]:
            raise ValueError(
                "Multi-label binary indicator input with different numbers of labels: "
                f"y_true has {yt.shape[1]} columns, y_pred has {yp.shape[1]}."
            )
    else:
        if sparse_t or sparse_p:
            raise TypeError("Sparse input is only supported when targets are of multilabel type.")
        yt, yp = yt.reshape(-1), yp.reshape(-1)  # (n, 1) column vectors
        if (yt.dtype.kind == "U") != (yp.dtype.kind == "U"):
            raise ValueError(
                "Mix of label input types (string and number): y_true holds "
                f"{'strings' if yt.dtype.kind == 'U' else 'numbers'}, y_pred holds "
                f"{'strings' if yp.dtype.kind == 'U' else 'numbers'}."
            )
    w = _check_sample_weight(sample_weight, yt.shape[0])
    return Targets(yt, yp, w, multilabel)


def target_type(targets: Targets, classes: np.ndarray) -> str:
    """sklearn's combined target type: 'binary' (<= 2 labels seen), 'multiclass' or multilabel."""
    if targets.multilabel:
        return "multilabel-indicator"
    return "binary" if classes.shape[0] <= 2 else "multiclass"


# --------------------------------------------------------------------------------------------
# labels / pos_label
# --------------------------------------------------------------------------------------------


def check_labels(labels: Any, classes: np.ndarray, *, unique: bool = False) -> np.ndarray | None:
    """``labels`` must be a 1-D array-like of labels of the same kind (str / number) as the data.

    sklearn silently matches nothing when the kinds differ; mltutor refuses because such a label
    can never be found.  ``unique=True`` (confusion_matrix) also refuses repeated labels, for which
    sklearn returns a matrix that miscounts.
    """
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or np.ndim(labels) == 0:
        raise TypeError(f"labels must be an array-like of labels; got {labels!r}.")
    arr = np.asarray(labels)
    if arr.dtype.kind == "O" and arr.size:
        arr = _object_labels(arr, "labels")
    if arr.ndim != 1:
        raise ValueError(f"labels must be 1-D; got shape {arr.shape}.")
    if arr.size and (arr.dtype.kind == "U") != (classes.dtype.kind == "U"):
        data = "strings" if classes.dtype.kind == "U" else "numbers"
        raise ValueError(
            f"labels must be of the same type as y_true and y_pred ({data}); got {labels!r}."
        )
    if unique and np.unique(arr).size != arr.size:
        raise ValueError(f"labels must not repeat a label; got {labels!r}.")
    return arr


def check_multilabel_labels(labels: Any, n_columns: int) -> np.ndarray:
    """For indicator matrices, labels are column indices in [0, n_columns)."""
    if labels is None:
        return np.arange(n_columns)
    if isinstance(labels, (str, bytes)) or np.ndim(labels) == 0:
        raise TypeError(f"labels must be an array-like of column indices; got {labels!r}.")
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise ValueError(f"labels must be 1-D; got shape {arr.shape}.")
    if arr.size == 0:
        return arr.astype(np.intp)
    if arr.dtype.kind not in "iu":
        raise ValueError(
            f"labels must be integer column indices for multilabel targets; got {labels!r}."
        )
    if arr.max() >= n_columns:
        raise ValueError(
            "All labels must be in [0, n labels) for multilabel targets. "
            f"Got {arr.max()} > {n_columns - 1}"
        )
    if arr.min() < 0:
        raise ValueError(
            f"All labels must be in [0, n labels) for multilabel targets. Got {arr.min()} < 0"
        )
    return arr


def contains(classes: np.ndarray, label: Any) -> bool:
    """``label in classes`` without comparing strings to numbers."""
    if isinstance(label, (str, np.str_)) != (classes.dtype.kind == "U"):
        return False
    return bool(np.any(classes == label))


def check_set_wise_labels(
    ttype: str, classes: np.ndarray, average: Any, labels: Any, pos_label: Any
) -> Any:
    """sklearn's ``_check_set_wise_labels``: resolve ``labels`` for the chosen ``average``.

    With ``average='binary'`` the targets must be binary and the result is ``[pos_label]``;
    otherwise ``pos_label`` is ignored (with sklearn's warning when it was set).
    """
    if average == "binary":
        if ttype == "binary":
            if not contains(classes, pos_label) and classes.shape[0] >= 2:
                raise ValueError(
                    f"pos_label={pos_label} is not a valid label. It should be one of {classes}"
                )
            return [pos_label]
        options = [o for o in AVERAGES if not (o == "samples" and ttype == "multiclass")]
        raise ValueError(
            f"Target is {ttype} but average='binary'. Please choose another average setting, "
            f"one of {options!r}."
        )
    if pos_label not in (None, 1):
        warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single positive class.",
            UserWarning,
        )
    return labels


# --------------------------------------------------------------------------------------------
# Top-k accuracy: 1-D labels and a score per class
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TopKInputs:
    """Validated inputs of ``top_k_accuracy_score``.

    ``true_idx`` is each sample's true class as a column index of ``y_score``; ``y_score`` is 1-D
    (binary: the score of the second class) or ``(n_samples, n_classes)``.
    """

    true_idx: np.ndarray
    y_score: np.ndarray
    n_classes: int
    sample_weight: np.ndarray | None


def _check_k(k: Any) -> int:
    if not isinstance(k, Integral):
        raise TypeError(f"k must be an int >= 1 (how many top-scored classes count); got {k!r}.")
    if k < 1:
        raise ValueError(f"k must be an int >= 1 (how many top-scored classes count); got {k!r}.")
    return int(k)


def as_real_array(x: Any, name: str, *, dtype_error: type[Exception] = ValueError) -> np.ndarray:
    """``x`` as an array of real numbers: object arrays become float64, anything else non-numeric
    raises ``dtype_error`` (scikit-learn raises ValueError in some functions and TypeError in
    others, and mltutor mirrors each)."""
    a = np.asarray(x)
    if a.dtype.kind == "O":
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError):
            raise dtype_error(f"{name} must hold real numbers; got an object array.") from None
    if a.dtype.kind not in "biuf":
        raise dtype_error(f"{name} must hold real numbers; got dtype {a.dtype}.")
    return a


def check_real_scores(y_score: Any, *, dtype_error: type[Exception] = ValueError) -> np.ndarray:
    """``y_score`` as an array of finite real numbers (no strings, no NaN, no infinity).

    Shape checks stay with the caller.
    """
    s = as_real_array(y_score, "y_score", dtype_error=dtype_error)
    if s.dtype.kind == "f" and not np.isfinite(s).all():
        what = "NaN" if np.isnan(s).any() else "infinity"
        raise ValueError(f"Input y_score contains {what}; scores must be finite.")
    return s


def _check_scores(y_score: Any) -> np.ndarray:
    """Scores are a finite real 1-D or 2-D array (no strings, no NaN, no infinity)."""
    if y_score is None or isinstance(y_score, (str, bytes)) or np.ndim(y_score) == 0:
        raise TypeError(f"y_score must be an array-like of scores; got {y_score!r}.")
    s = np.asarray(y_score)
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
        raise ValueError(
            f"'y_true' contains labels not in parameter 'labels': {missing.tolist()}."
        )
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
    k = _check_k(k)
    normalize = check_bool(normalize, "normalize")
    yt, _ = _as_array(y_true, "y_true")
    if yt.ndim == 2 and yt.shape[1] == 1:
        yt = yt.reshape(-1)
    if yt.ndim != 1:
        raise ValueError(f"y_true must be 1-D class labels; got shape {yt.shape}.")
    if yt.shape[0] == 0:
        raise ValueError("Found empty input array (y_true has 0 samples); at least 1 is required.")
    kind = _kind(yt, "y_true")
    if kind != "labels":
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    present = np.unique(yt)
    binary = present.size <= 2 and not (labels is not None and len(labels) > 2)
    s = _check_scores(y_score)
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
    weights = None if np.ndim(sample_weight) == 0 else np.asarray(sample_weight)
    _check_lengths(y_true=yt, y_score=s, sample_weight=weights)
    w = _check_sample_weight(sample_weight, yt.shape[0], require_nonzero=False)
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
