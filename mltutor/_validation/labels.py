"""Class labels: reading label arrays, their kind, pairs of targets, ``labels`` and ``pos_label``.

The rules mirror scikit-learn's ``type_of_target`` and ``_check_targets`` so that a learner who
swaps ``sklearn.metrics`` for ``mltutor.metrics`` is refused in the same places.  Nothing here
counts or divides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .arrays import as_numpy, check_lengths, not_array_like, shown
from .params import AVERAGES
from .warning import warn
from .weights import check_sample_weight

__all__ = [
    "Targets",
    "as_label_array",
    "check_labels",
    "check_labels_1d",
    "check_multilabel_labels",
    "check_set_wise_labels",
    "check_targets",
    "class_indices",
    "contains",
    "equals_label",
    "label_kind",
    "resolve_pos_label",
    "score_target_type",
    "target_type",
    "unique_labels",
]

_DEFAULT_POSITIVE_SETS = ([0, 1], [-1, 1], [0], [-1], [1])


# --------------------------------------------------------------------------------------------
# One label array
# --------------------------------------------------------------------------------------------


def _missing_values(y: Any) -> bool:
    """Whether a pandas object (nullable ``boolean``/``Int64``/``string``, or object) holds NA."""
    isna = getattr(y, "isna", None)
    if isna is None or not callable(isna):
        return False
    try:
        return bool(np.asarray(isna()).any())
    except Exception:  # noqa: BLE001 - not a pandas object after all
        return False


def _nullable_numeric(y: Any) -> bool:
    """A pandas nullable ``boolean``, ``Int*``, ``UInt*`` or ``Float*`` array (not a NumPy dtype)."""
    dtype = getattr(y, "dtype", None)
    return (
        dtype is not None
        and not isinstance(dtype, np.dtype)
        and type(dtype).__module__.startswith("pandas")
        and getattr(dtype, "kind", "O") in "biuf"
    )


def as_label_array(y: Any, name: str) -> tuple[np.ndarray, bool]:
    """Turn an array-like of labels into an ndarray; say whether it was a scipy sparse matrix.

    Refused, naming ``name``: non array-likes, missing values (pandas NA, None), bytes, complex
    numbers, and object arrays that are not all strings.  NaN and infinity in float arrays are
    refused by :func:`label_kind`.
    """
    if y is None or isinstance(y, (str, bytes)) or np.ndim(y) == 0 and not hasattr(y, "toarray"):
        raise TypeError(
            f"{name} must be an array-like of labels (list, array, Series); got {shown(y)}."
        )
    if _missing_values(y):
        raise ValueError(
            f"Input {name} contains NaN: missing values (pandas NA) cannot be class labels. "
            "Drop or fill the missing labels first."
        )
    if _nullable_numeric(y):
        y = np.asarray(y, dtype=np.float64)  # as scikit-learn: pandas boolean/Int64 -> float64
    sparse = hasattr(y, "toarray") and hasattr(y, "nnz")
    try:
        arr = np.asarray(y.toarray()) if sparse else as_numpy(y, name)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as an array of labels: {exc}") from None
    if arr.dtype.kind == "S":
        raise TypeError(f"{name} holds bytes; convert the labels to str or int.")
    if arr.dtype.kind == "U" and isinstance(y, (list, tuple)):
        _refuse_stringified_numbers(y, name)
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers; labels must be real numbers or strings.")
    if arr.dtype.kind == "O":
        arr = _object_labels(arr, name)
    if arr.dtype.kind not in "biufU":
        raise TypeError(f"{name} must hold numbers, bools or strings; got dtype {arr.dtype}.")
    return arr, sparse


def _refuse_stringified_numbers(y: list | tuple, name: str) -> None:
    """NumPy turns ``["a", 1]`` into the strings ``["a", "1"]``, so the int 1 would silently equal
    the string "1" (scikit-learn accepts this); a list must hold strings only, or numbers only."""
    other = [v for v in np.asarray(y, dtype=object).ravel() if not isinstance(v, str)]
    if other:
        raise TypeError(
            f"{name} mixes label types (str and a number, e.g. {other[0]!r}); use one type for "
            "all labels."
        )


def _object_labels(arr: np.ndarray, name: str) -> np.ndarray:
    """An object array is accepted when every element is a string (as sklearn's type_of_target)."""
    if arr.size == 0:
        return arr.astype(str)
    try:
        values = np.unique(arr)
    except TypeError:  # unorderable: a missing value among strings, or mixed types
        if any(v is None or (isinstance(v, float) and v != v) for v in arr.ravel()):
            raise ValueError(
                f"Input {name} contains NaN: missing values (None or NaN) cannot be class labels."
            ) from None
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


def label_kind(y: np.ndarray, name: str) -> str:
    """Classify one target like sklearn's type_of_target, minus the binary/multiclass split.

    Returns 'labels' (1-D class labels), 'multilabel-indicator', 'continuous',
    'continuous-multioutput', 'multiclass-multioutput' or 'unknown'.  Raises on NaN/inf.
    """
    if y.ndim not in (1, 2) or (y.ndim == 2 and min(y.shape) == 0):
        return "unknown"
    floating = y.dtype.kind == "f"
    if floating and not np.isfinite(y).all():
        _assert_finite(y, name)
    if y.ndim == 2 and y.shape[1] > 1:
        values = np.unique(y)
        if values.size < 3 and (not floating or _is_integral(values)):
            return "multilabel-indicator"
        if floating and not _is_integral(y):
            return "continuous-multioutput"
        return "multiclass-multioutput"
    if floating and not _is_integral(y):
        return "continuous"
    return "labels"


def _sklearn_type(y: np.ndarray, kind: str) -> str:
    """sklearn's name for a target kind (only used to word error messages)."""
    if kind != "labels":
        return kind
    return "binary" if np.unique(y.ravel()).size <= 2 else "multiclass"


def unique_labels(y: np.ndarray) -> np.ndarray:
    """``np.unique(y)``, without the sort when ``y`` holds bools or integers in a narrow range.

    Ten million int labels take ~0.4 s to sort but ~0.03 s to count with ``np.bincount``; the
    result (sorted distinct values, dtype of ``y``) is the same.
    """
    if y.dtype.kind in "biu" and y.size > 1000:
        lo, hi = int(y.min()), int(y.max())
        if hi - lo <= 1:  # the minimum and the maximum are both present: nothing else to count
            return np.array(sorted({lo, hi})).astype(y.dtype)
        if hi - lo < 1 << 16:
            present = np.bincount((y.astype(np.int64) - lo).ravel(), minlength=hi - lo + 1) > 0
            values = np.flatnonzero(present) + lo
            return values.astype(bool) if y.dtype.kind == "b" else values.astype(y.dtype)
    return np.unique(y)


def score_target_type(y_true: Any) -> tuple[np.ndarray, str]:
    """The labels of a score-based metric as an array and scikit-learn's ``type_of_target``.

    Returns ``(y, kind)`` with ``kind`` one of 'binary' (at most two distinct values), 'multiclass',
    'multilabel-indicator', 'continuous', 'continuous-multioutput', 'multiclass-multioutput' or
    'unknown'.  A column vector (n, 1) is flattened.  NaN/inf labels, bytes and mixed types are
    refused here.
    """
    y, _ = as_label_array(y_true, "y_true")
    kind = label_kind(y, "y_true")
    if kind != "labels":
        return y, kind
    if y.ndim == 2:
        y = y.reshape(-1)
    return y, "binary" if unique_labels(y).shape[0] <= 2 else "multiclass"


def check_labels_1d(y: Any, name: str) -> np.ndarray:
    """1-D class labels (a column vector is flattened); NaN and infinity refused."""
    if not_array_like(y):
        raise TypeError(f"{name} must be an array-like of labels; got {shown(y)}.")
    arr, _ = as_label_array(y, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per sample); got shape {arr.shape}.")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        what = "NaN" if np.isnan(arr).any() else "infinity"
        raise ValueError(f"Input {name} contains {what}; labels must be finite.")
    return arr


def class_indices(
    y: Any, n_classes: int, name: str = "y_true", *, binary_1d: bool = False
) -> np.ndarray:
    """Integer class indices in ``[0, n_classes)`` (bools and whole-number floats accepted).

    ``binary_1d=True`` (1-D scores or probabilities of class 1) words the error as "binary".
    """
    arr = check_labels_1d(y, name)
    if arr.dtype.kind == "U":
        raise ValueError(
            f"{name} must hold class indices 0..{n_classes - 1}; got strings. Encode them first "
            "(e.g. np.unique(y, return_inverse=True))."
        )
    if arr.dtype.kind == "f":
        if not np.all(arr == np.round(arr)):
            bad = arr[arr != np.round(arr)][:3]
            raise ValueError(f"{name} must hold whole-number class indices; got {bad}.")
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    # Compared before the cast to int64, which would wrap a huge label into the valid range.
    if arr.size and (arr.min() < 0 or arr.max() >= n_classes):
        bad = arr[(arr < 0) | (arr >= n_classes)][0]
        if binary_1d:
            raise ValueError(
                f"{name} must be binary (0 or 1) for 1-D scores/probabilities; got the value {bad}."
            )
        raise ValueError(
            f"{name} must hold class indices in [0, {n_classes}) (one per column); got {bad}."
        )
    return arr.astype(np.int64)


# --------------------------------------------------------------------------------------------
# A pair of targets (y_true, y_pred)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Targets:
    """Validated targets.

    ``multilabel`` is True for label-indicator matrices (2-D, one column per label), in which case
    ``y_true``/``y_pred`` are 2-D; otherwise they are 1-D label arrays of a common kind (numbers or
    strings).  ``sample_weight`` is None or a new 1-D array: int64 for bool and integer weights,
    float64 for float weights (see :func:`~mltutor._validation.check_sample_weight`).
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    sample_weight: np.ndarray | None
    multilabel: bool

    @property
    def n_samples(self) -> int:
        return int(self.y_true.shape[0])


def check_targets(y_true: Any, y_pred: Any, sample_weight: Any = None) -> Targets:
    """Validate a pair of targets for a classification metric.

    Refuses, naming the argument: non array-likes, bytes, NaN/inf, missing values, inconsistent
    lengths, empty input, continuous (non-integer float) targets, 2-D targets that are not label
    indicators (multiclass-multioutput), mixing label indicators with 1-D labels, indicator
    matrices with different numbers of columns, mixing string and numeric labels, and bad
    ``sample_weight``.  A column vector of shape (n, 1) is accepted and flattened, as in
    scikit-learn.
    """
    yt, sparse_t = as_label_array(y_true, "y_true")
    yp, sparse_p = as_label_array(y_pred, "y_pred")
    weights = None if np.ndim(sample_weight) == 0 else sample_weight
    check_lengths(
        " Each sample needs one true label, one prediction (and one weight).",
        y_true=yt,
        y_pred=yp,
        sample_weight=weights,
    )
    if yt.shape[0] == 0:
        raise ValueError(
            "Found empty input array (y_true and y_pred have 0 samples) while a minimum of 1 "
            "sample is required."
        )
    kind_t, kind_p = label_kind(yt, "y_true"), label_kind(yp, "y_pred")
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
        _refuse_inexact_common_dtype(yt, yp)
    w = check_sample_weight(
        sample_weight, yt.shape[0], keep_integer=True, others="y_true and y_pred"
    )
    return Targets(yt, yp, w, multilabel)


_FLOAT64_EXACT = 2**53  # every integer up to this magnitude is a float64


def _refuse_inexact_common_dtype(yt: np.ndarray, yp: np.ndarray) -> None:
    """Labels of two dtypes are compared in their common NumPy type; when that is float64 (int
    with float labels, uint64 with signed ints) integers beyond 2**53 collapse (2**63 + 1 and
    2**63 + 2 become one class).  scikit-learn miscounts there too; mltutor refuses."""
    if yt.dtype == yp.dtype or np.result_type(yt.dtype, yp.dtype) != np.float64:
        return
    for y, name in ((yt, "y_true"), (yp, "y_pred")):
        if y.dtype.kind in "iu" and y.size:
            big = max(abs(int(y.min())), abs(int(y.max())))
            if big > _FLOAT64_EXACT:
                raise ValueError(
                    f"{name} holds the integer label {big}, beyond 2**53, and y_true ({yt.dtype}) and "
                    f"y_pred ({yp.dtype}) meet only as float64, where such labels are no longer "
                    "distinct; give both arrays the same integer dtype."
                )


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


def equals_label(y: np.ndarray, label: Any) -> np.ndarray:
    """``y == label`` as bools, False everywhere when a string meets a number (never equal)."""
    if isinstance(label, (str, np.str_)) != (y.dtype.kind == "U"):
        return np.zeros(y.shape, dtype=bool)
    return np.asarray(y == label, dtype=bool)


def resolve_pos_label(classes: np.ndarray, pos_label: Any) -> Any:
    """scikit-learn's ``_check_pos_label_consistency``: ``pos_label=None`` means 1, which is only
    allowed when the labels are {0, 1}, {-1, 1} or one of them alone."""
    if pos_label is not None:
        return pos_label
    if classes.dtype.kind != "U" and any(
        classes.shape[0] == len(s) and np.array_equal(classes, s) for s in _DEFAULT_POSITIVE_SETS
    ):
        return 1
    shown = ", ".join(repr(c) for c in classes.tolist())
    raise ValueError(
        f"y_true takes value in {{{shown}}} and pos_label is not specified: either make y_true "
        "take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
    )


def check_set_wise_labels(
    ttype: str, classes: np.ndarray, average: Any, labels: Any, pos_label: Any
) -> Any:
    """sklearn's ``_check_set_wise_labels``: resolve ``labels`` for the chosen ``average``.

    With ``average='binary'`` the targets must be binary and the result is ``[pos_label]``;
    otherwise ``pos_label`` is ignored (with sklearn's warning when it was set).
    """
    if average == "binary":
        if pos_label is None:  # scikit-learn fails on it with a TypeError about ordering
            raise ValueError(
                "pos_label=None is not a valid label with average='binary'; pass the positive "
                "label (e.g. pos_label=1) or choose another average."
            )
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
