"""Kernel 1: the confusion count.

Every classification metric in mltutor is arithmetic on one count::

    C = np.bincount(n * true_idx + pred_idx, weights=sample_weight, minlength=n * n).reshape(n, n)

``C[i, j]`` is the (weighted) number of samples whose true class is ``i`` and predicted class is
``j``.  Rows are the truth, columns the prediction, as in scikit-learn.  From its diagonal, row sums
and column sums come the per-class true positives, false positives, false negatives and true
negatives (:func:`per_class_counts`), and from those every rate and average.

Multilabel indicator matrices have no single confusion matrix: each column is its own yes/no
problem, so :func:`multilabel_counts` sums the four outcomes down the columns (or along the rows,
per sample).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

__all__ = [
    "Confusion",
    "PerClassCounts",
    "confusion_counts",
    "count_labels",
    "mismatch_count",
    "multilabel_counts",
    "outranking_count",
    "per_class_counts",
    "select_labels",
]

# Codes n * t + p are built in chunks of this many samples so that the temporary stays in the CPU
# cache; on 10 million labels this is about twice as fast as one big temporary array.
_CHUNK = 1 << 16
# Largest dense count mltutor builds (entries); 2**26 int64 entries are 512 MiB.
_MAX_CELLS = 1 << 26


class PerClassCounts(NamedTuple):
    """The four outcomes of each one-vs-rest problem (one entry per class, label or sample)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray


@dataclass(frozen=True)
class Confusion:
    """A confusion count over the classes that occur in ``y_true`` or ``y_pred``.

    Attributes
    ----------
    classes : ndarray
        Sorted unique labels seen in either array (scikit-learn's ``unique_labels``).
    matrix : ndarray of shape (n_classes, n_classes)
        ``matrix[i, j]``: weighted count of samples with truth ``classes[i]`` and prediction
        ``classes[j]``; int64 without weights, float64 with.
    in_true : ndarray of bool
        Whether each class occurs in ``y_true`` (even if only with zero weight).
    n_exact : int
        Unweighted number of samples predicted exactly right.
    """

    classes: np.ndarray
    matrix: np.ndarray
    in_true: np.ndarray
    n_exact: int


def confusion_counts(
    true_idx: np.ndarray,
    pred_idx: np.ndarray,
    n_classes: int,
    sample_weight: np.ndarray | None = None,
) -> np.ndarray:
    """Count (true, predicted) pairs of class indices with one ``np.bincount``.

    .. math:: C_{ij} = \\sum_{s} w_s \\, [t_s = i] \\, [p_s = j]

    Parameters
    ----------
    true_idx, pred_idx : ndarray of int, shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    n_classes : int
        Number of classes ``n``; the result is ``n x n``.
    sample_weight : ndarray of shape (n_samples,), optional
        Weight of each sample (default 1).

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        int64 counts without weights, float64 sums of weights with them.

    Examples
    --------
    >>> confusion_counts(np.array([0, 1, 1, 2]), np.array([0, 1, 2, 2]), 3)
    array([[1, 0, 0],
           [0, 1, 1],
           [0, 0, 1]])
    """
    return _pair_counts(true_idx, pred_idx, int(n_classes), sample_weight, offset=0)


def _pair_counts(
    t: np.ndarray, p: np.ndarray, n: int, w: np.ndarray | None, offset: int
) -> np.ndarray:
    """``confusion_counts`` for values ``offset + index``; chunked so the codes stay in cache."""
    cells = n * n
    out = np.zeros(cells, dtype=np.float64 if w is not None else np.int64)
    chunk = max(_CHUNK, cells)  # a chunk never costs less than its minlength
    codes = np.empty(min(chunk, t.shape[0]), dtype=np.intp)
    shift = offset * (n + 1)  # (t - o) * n + (p - o) == t * n + p - o * (n + 1)
    for start in range(0, t.shape[0], chunk):
        tc, pc = t[start : start + chunk], p[start : start + chunk]
        c = codes[: tc.shape[0]]
        np.multiply(tc, n, out=c, dtype=np.intp, casting="unsafe")
        np.add(c, pc, out=c, dtype=np.intp, casting="unsafe")
        if shift:
            c -= shift
        wc = None if w is None else w[start : start + chunk]
        out += np.bincount(c, weights=wc, minlength=cells)
    return out.reshape(n, n)


def _integer_range(a: np.ndarray) -> tuple[int, int] | None:
    """(min, max) of an integer array, cheaply; None if it does not fit in int64."""
    if a.dtype.kind == "u":
        hi = int(a.max())
        return (0, hi) if hi < 2**63 else None
    # Seen as unsigned, a negative value is huge: one max() then proves all values are >= 0.
    bits = 8 * a.dtype.itemsize
    umax = int(a.view(f"u{a.dtype.itemsize}").max())
    if umax < 2 ** (bits - 1):
        return 0, umax
    return int(a.min()), int(a.max())


def _as_integers(y: np.ndarray) -> np.ndarray | None:
    """Integer view of bool/int labels and of whole-number floats; None for strings."""
    if y.dtype.kind == "b":
        return y.view(np.uint8)
    if y.dtype.kind in "iu":
        return y
    if y.dtype.kind == "f":  # validated integral and finite
        return y.astype(np.int64)
    return None


def _count_small_range(
    t: np.ndarray, p: np.ndarray, lo: int, hi: int, w: np.ndarray | None, dtype: np.dtype
) -> Confusion:
    """Integer labels in a small range: count every value in [lo, hi], then drop absent ones."""
    n = hi - lo + 1
    counts = _pair_counts(t, p, n, None, lo)  # unweighted: says which labels occur
    in_true, in_pred = counts.sum(axis=1) > 0, counts.sum(axis=0) > 0
    keep = np.flatnonzero(in_true | in_pred)
    matrix = counts if w is None else _pair_counts(t, p, n, w, lo)
    classes = (keep + lo).astype(dtype)
    return Confusion(classes, matrix[np.ix_(keep, keep)], in_true[keep], int(np.trace(counts)))


def _count_unique(y_true: np.ndarray, y_pred: np.ndarray, w: np.ndarray | None) -> Confusion:
    """Any labels (strings, large ranges): sort-based encoding with np.unique."""
    true_values, t = np.unique(y_true, return_inverse=True)
    pred_values, p = np.unique(y_pred, return_inverse=True)
    classes = np.union1d(true_values, pred_values)
    n = classes.shape[0]
    if n * n > _MAX_CELLS:
        raise ValueError(
            f"y_true and y_pred hold {n} distinct labels; mltutor's dense {n}x{n} confusion "
            "count would not fit in memory. Are these really class labels?"
        )
    t = np.searchsorted(classes, true_values)[t.reshape(-1)]
    p = np.searchsorted(classes, pred_values)[p.reshape(-1)]
    matrix = _pair_counts(t, p, n, w, 0)
    in_true = np.zeros(n, dtype=bool)
    in_true[np.searchsorted(classes, true_values)] = True
    n_exact = int(np.trace(matrix)) if w is None else int(np.count_nonzero(t == p))
    return Confusion(classes, matrix, in_true, n_exact)


def count_labels(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
) -> Confusion:
    """Confusion count of two validated 1-D label arrays over the labels that occur in them.

    Integer, bool and whole-number float labels spanning a small range take a fast path: the
    values themselves are the class indices, so no sort or search over the samples is needed.
    Other labels (strings, sparse large integers) are encoded with ``np.unique``.

    Examples
    --------
    >>> c = count_labels(np.array(["cat", "dog", "dog"]), np.array(["cat", "cat", "dog"]))
    >>> c.classes.tolist(), c.matrix.tolist()
    (['cat', 'dog'], [[1, 0], [1, 1]])
    """
    t, p = _as_integers(y_true), _as_integers(y_pred)
    if t is not None and p is not None:
        rt, rp = _integer_range(t), _integer_range(p)
        if rt is not None and rp is not None:
            lo, hi = min(rt[0], rp[0]), max(rt[1], rp[1])
            n = hi - lo + 1
            if n <= 4096 and n * n <= 4 * t.shape[0] + (1 << 16):
                dtype = np.result_type(y_true.dtype, y_pred.dtype)
                return _count_small_range(t, p, lo, hi, sample_weight, dtype)
    return _count_unique(y_true, y_pred, sample_weight)


def per_class_counts(cm: np.ndarray) -> PerClassCounts:
    """True/false positives/negatives of each class, one-vs-rest, from a confusion matrix.

    For class ``k``:  ``tp = C[k, k]``,  ``fp = sum_i C[i, k] - tp`` (column),
    ``fn = sum_j C[k, j] - tp`` (row),  ``tn = sum(C) - tp - fp - fn``.

    Examples
    --------
    >>> per_class_counts(np.array([[5, 1], [2, 7]]))
    PerClassCounts(tp=array([5, 7]), fp=array([2, 1]), fn=array([1, 2]), tn=array([7, 5]))
    """
    cm = np.asarray(cm)
    tp = np.diagonal(cm).copy()
    fp = cm.sum(axis=0) - tp
    fn = cm.sum(axis=1) - tp
    tn = cm.sum() - tp - fp - fn
    if cm.dtype.kind == "f":
        # With float weights the subtraction above can leave a rounding residue (1e-16) where the
        # true count is exactly 0, which would turn 0/0 into 1.0 in specificity.  A class has
        # tn == 0 exactly when no non-zero cell lies outside its row and column.
        nz = cm != 0
        outside = nz.sum() - nz.sum(axis=0) - nz.sum(axis=1) + np.diagonal(nz)
        tn[outside == 0] = 0.0
    return PerClassCounts(tp, fp, fn, tn)


def select_labels(
    counts: PerClassCounts, classes: np.ndarray, labels: np.ndarray | None
) -> PerClassCounts:
    """Per-class counts in the order of ``labels``; a label absent from the data counts 0 everywhere
    except ``tn`` (every sample is a true negative for it)."""
    if labels is None:
        return counts
    labels = np.asarray(labels)
    if labels.size == 0:
        empty = np.zeros(0, dtype=counts.tp.dtype)
        return PerClassCounts(empty, empty, empty, empty)
    pos, found = _lookup(classes, labels)
    total = counts.tp.sum() + counts.fn.sum()  # every sample has exactly one true class
    picked = [np.where(found, c[pos], 0) for c in counts[:3]]
    tn = np.where(found, counts.tn[pos], total)
    return PerClassCounts(*picked, tn.astype(picked[0].dtype))


def _lookup(classes: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each label in the sorted ``classes`` and whether it is there at all.  A label of
    another kind (a string among numbers, or the reverse) is simply not there."""
    comparable = labels.dtype.kind != "O" and (labels.dtype.kind == "U") == (classes.dtype.kind == "U")
    if not comparable:
        return np.zeros(labels.shape, dtype=np.intp), np.zeros(labels.shape, dtype=bool)
    pos = np.minimum(np.searchsorted(classes, labels), classes.shape[0] - 1)
    return pos, classes[pos] == labels


def multilabel_counts(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    sample_weight: np.ndarray | None = None,
    samplewise: bool = False,
) -> PerClassCounts:
    """tp, fp, fn, tn of each label (column) of indicator matrices, or of each sample (row).

    Any non-zero entry means "label present".  With weights, label counts are sums of the weights
    of the samples; per-sample counts are multiplied by the sample's weight.

    Examples
    --------
    >>> Y = np.array([[1, 0], [1, 1]]); P = np.array([[1, 1], [0, 1]])
    >>> multilabel_counts(Y, P)
    PerClassCounts(tp=array([1, 1]), fp=array([0, 1]), fn=array([1, 0]), tn=array([0, 0]))
    """
    t, p = np.asarray(y_true) != 0, np.asarray(y_pred) != 0
    outcomes = (t & p, ~t & p, t & ~p, ~t & ~p)
    if samplewise:
        sums = [o.sum(axis=1) for o in outcomes]
        if sample_weight is not None:
            sums = [s * sample_weight for s in sums]
    elif sample_weight is None:
        sums = [o.sum(axis=0) for o in outcomes]
    else:
        w = np.asarray(sample_weight, dtype=np.float64)
        sums = [w @ o for o in outcomes]
    return PerClassCounts(*sums)


def exact_match_count(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
) -> float:
    """(Weighted) number of samples whose whole label row is predicted exactly (subset accuracy)."""
    exact = np.all(np.asarray(y_true) == np.asarray(y_pred), axis=1)
    if sample_weight is None:
        return float(np.count_nonzero(exact))
    return float(np.dot(exact, sample_weight))


def mismatch_count(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
) -> float:
    """(Weighted) number of entries of two indicator matrices that differ (Hamming distance).

    .. math:: \\sum_s w_s \\sum_l [Y_{sl} \\ne \\hat Y_{sl}]

    >>> mismatch_count(np.array([[1, 0], [1, 1]]), np.array([[1, 1], [0, 1]]))
    2.0
    """
    per_sample = np.count_nonzero(np.asarray(y_true) != np.asarray(y_pred), axis=1)
    if sample_weight is None:
        return float(per_sample.sum())
    return float(np.dot(per_sample, sample_weight))


def outranking_count(y_score: np.ndarray, true_idx: np.ndarray) -> np.ndarray:
    """How many classes each sample's true class loses to, ranked by score (0 = ranked first).

    A class beats the true class when its score is higher, or equal with a higher column index
    (scikit-learn's tie rule: it sorts the scores with a stable sort and reads them backwards).
    The true class is in the top ``k`` exactly when the count is below ``k``.

    .. math:: r_s = \\#\\{c : S_{sc} > S_{st_s}\\} + \\#\\{c > t_s : S_{sc} = S_{st_s}\\}

    Parameters
    ----------
    y_score : ndarray of shape (n_samples, n_classes)
    true_idx : ndarray of int, shape (n_samples,)
        Column of each sample's true class.

    Examples
    --------
    >>> outranking_count(np.array([[0.2, 0.5, 0.3], [0.4, 0.4, 0.2]]), np.array([2, 0]))
    array([1, 1])
    """
    rows = np.arange(y_score.shape[0])
    own = y_score[rows, true_idx][:, None]
    higher_column = np.arange(y_score.shape[1])[None, :] > true_idx[:, None]
    beats = (y_score > own) | ((y_score == own) & higher_column)
    return np.count_nonzero(beats, axis=1)
