"""Kernel 1: the confusion count.

Every classification metric in mltutor is arithmetic on one count::

    C = np.bincount(n * true_idx + pred_idx, weights=sample_weight, minlength=n * n).reshape(n, n)

``C[i, j]`` is the (weighted) number of samples whose true class is ``i`` and predicted class is
``j``.  Rows are the truth, columns the prediction, as in scikit-learn.

Most metrics need only three marginals of that count: its diagonal (true positives), its row sums
(the support) and its column sums (the predicted totals).  Each is one ``np.bincount`` over the
samples, so :func:`class_counts` costs O(n + C) time and memory for any number of classes ``C``;
only :func:`confusion_table` (for ``confusion_matrix``) builds the C x C table itself.  From the
marginals come the per-class true positives, false positives, false negatives and true negatives
(:func:`one_vs_rest`), and from those every rate and average.

Multilabel indicator matrices have no single confusion matrix: each column is its own yes/no
problem, so :func:`multilabel_counts` sums the four outcomes down the columns (or along the rows,
per sample).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "ClassCounts",
    "Codes",
    "PerClassCounts",
    "class_counts",
    "confusion_counts",
    "confusion_table",
    "encode_labels",
    "exact_match_count",
    "labels_in_true",
    "mismatch_count",
    "multilabel_counts",
    "one_vs_rest",
    "outranking_count",
    "per_class_counts",
]

# Codes n * t + p are built in chunks of this many samples so that the temporary stays in the CPU
# cache; on 10 million labels this is about twice as fast as one big temporary array.
_CHUNK = 1 << 16
# Up to this many cells (256 x 256 classes) the marginals are read off the small dense table,
# which one cache-friendly pass fills faster than three bincounts over the samples.
_TABLE_CELLS = 1 << 16
# Integer labels are their own codes when their range is at most this much wider than the number
# of samples: the per-code counts then cost no more memory than the samples themselves.
_RANGE_SLACK = 1 << 16


class PerClassCounts(NamedTuple):
    """The four outcomes of each one-vs-rest problem (one entry per class, label or sample)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray


class Codes(NamedTuple):
    """Two label arrays as integer codes in ``[0, n)``.

    Integer labels in a small range are their own codes, shifted by ``offset`` (``values`` is then
    None and some codes may name no label that occurs); other labels are positions in ``values``,
    the sorted labels seen in either array.
    """

    true: np.ndarray
    pred: np.ndarray
    n: int
    values: np.ndarray | None
    offset: int
    dtype: np.dtype

    def labels(self, codes: np.ndarray) -> np.ndarray:
        """The label that each code stands for."""
        if self.values is not None:
            return self.values[codes]
        return (codes + self.offset).astype(self.dtype)


class ClassCounts(NamedTuple):
    """Marginal counts over the classes that occur in ``y_true`` or ``y_pred``.

    Attributes
    ----------
    classes : ndarray
        Sorted unique labels seen in either array (scikit-learn's ``unique_labels``).
    tp, true_sum, pred_sum : ndarray of shape (n_classes,)
        (Weighted) number of samples of each class predicted right (the diagonal of the confusion
        count), of each true class (row sums, the support) and of each predicted class (column
        sums); int64 without weights, float64 with.
    in_true : ndarray of bool
        Whether each class occurs in ``y_true`` (even if only with zero weight).
    n_exact : int
        Unweighted number of samples predicted exactly right.
    total : int or float
        Number of samples, or the sum of the weights.
    tn_is_zero : ndarray of bool or None
        With float weights: the classes whose true negatives are exactly 0 (every sample of
        non-zero weight is of that class or predicted as it); the subtraction that gives ``tn``
        can leave a rounding residue there.  None otherwise.
    codes : Codes
        The samples' codes, for :func:`confusion_table`.
    class_codes : ndarray or None
        Code of each class (None when the codes are the class indices).
    table : ndarray or None
        The (weighted) code x code count, when it was small enough to build on the way.
    """

    classes: np.ndarray
    tp: np.ndarray
    true_sum: np.ndarray
    pred_sum: np.ndarray
    in_true: np.ndarray
    n_exact: int
    total: int | float
    tn_is_zero: np.ndarray | None
    codes: Codes
    class_codes: np.ndarray | None
    table: np.ndarray | None


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
    return _pair_counts(true_idx, pred_idx, int(n_classes), sample_weight)


def _pair_counts(t: np.ndarray, p: np.ndarray, n: int, w: np.ndarray | None) -> np.ndarray:
    """``confusion_counts`` of codes in ``[0, n)``.

    A small table is filled chunk by chunk so that the codes stay in cache; a large one (more cells
    than a chunk has samples) is counted straight into the result, with no second table to add into.
    """
    cells = n * n
    chunk = max(_CHUNK, cells)  # a chunk never costs less than its minlength
    if t.shape[0] <= chunk:
        codes = np.multiply(t, n, dtype=np.intp, casting="unsafe")
        np.add(codes, p, out=codes, dtype=np.intp, casting="unsafe")
        return _bincount(codes, w, cells).reshape(n, n)
    out = np.zeros(cells, dtype=np.float64 if w is not None else np.int64)
    codes = np.empty(chunk, dtype=np.intp)
    for start in range(0, t.shape[0], chunk):
        tc, pc = t[start : start + chunk], p[start : start + chunk]
        c = codes[: tc.shape[0]]
        np.multiply(tc, n, out=c, dtype=np.intp, casting="unsafe")
        np.add(c, pc, out=c, dtype=np.intp, casting="unsafe")
        wc = None if w is None else w[start : start + chunk]
        out += np.bincount(c, weights=wc, minlength=cells)
    return out.reshape(n, n)


def _bincount(codes: np.ndarray, w: np.ndarray | None, n: int) -> np.ndarray:
    """``np.bincount`` with ``minlength=n``, float64 whenever there are weights (numpy returns
    int64 for an empty input even then)."""
    out = np.bincount(codes, weights=w, minlength=n)
    return out if w is None else out.astype(np.float64, copy=False)


# --------------------------------------------------------------------------------------------
# Encoding: labels -> integer codes
# --------------------------------------------------------------------------------------------


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


def _shift(a: np.ndarray, offset: int) -> np.ndarray:
    """``a - offset`` as indices ``np.bincount`` accepts; ``a`` itself when it already is one."""
    if offset == 0 and np.can_cast(a.dtype, np.intp):
        return a
    return np.subtract(a, offset, dtype=np.intp, casting="unsafe")


def encode_labels(y_true: np.ndarray, y_pred: np.ndarray) -> Codes:
    """Integer codes of two validated 1-D label arrays, without any C x C table.

    Integer, bool and whole-number float labels spanning a range no wider than the number of
    samples (plus 65,536) are their own codes, shifted to start at 0: O(n), no sort.  Other labels
    (strings, sparse large integers) are encoded with ``np.unique``: O(n log n) time, O(n) memory.

    Examples
    --------
    >>> c = encode_labels(np.array(["cat", "dog", "dog"]), np.array(["cat", "cat", "emu"]))
    >>> c.true.tolist(), c.pred.tolist(), c.values.tolist()
    ([0, 1, 1], [0, 0, 2], ['cat', 'dog', 'emu'])
    """
    t, p = _as_integers(y_true), _as_integers(y_pred)
    if t is not None and p is not None:
        rt, rp = _integer_range(t), _integer_range(p)
        if rt is not None and rp is not None:
            lo, hi = min(rt[0], rp[0]), max(rt[1], rp[1])
            if hi - lo < t.shape[0] + _RANGE_SLACK:  # counting over the range costs O(n)
                dtype = np.result_type(y_true.dtype, y_pred.dtype)
                return Codes(_shift(t, lo), _shift(p, lo), hi - lo + 1, None, lo, dtype)
    true_values, t = np.unique(y_true, return_inverse=True)
    pred_values, p = np.unique(y_pred, return_inverse=True)
    classes = np.union1d(true_values, pred_values)
    t = np.searchsorted(classes, true_values)[t.reshape(-1)]
    p = np.searchsorted(classes, pred_values)[p.reshape(-1)]
    return Codes(t, p, classes.shape[0], classes, 0, classes.dtype)


# --------------------------------------------------------------------------------------------
# Marginal counts: O(n + C)
# --------------------------------------------------------------------------------------------


def _marginals(
    t: np.ndarray, p: np.ndarray, n: int, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Diagonal, row sums and column sums of the confusion count of codes in ``[0, n)``, and
    the count itself when it is small enough to be the quickest way there."""
    if n * n <= _TABLE_CELLS:
        table = _pair_counts(t, p, n, w)
        return np.diagonal(table).copy(), table.sum(axis=1), table.sum(axis=0), table
    agree = t == p
    tp = _bincount(t[agree], None if w is None else w[agree], n)
    return tp, _bincount(t, w, n), _bincount(p, w, n), None


def class_counts(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
) -> ClassCounts:
    """Per-class true positives, support and predicted totals of two validated 1-D label arrays.

    .. math:: tp_k = \\sum_s w_s [t_s = k][p_s = k],\\quad
              \\mathrm{true}_k = \\sum_s w_s [t_s = k],\\quad
              \\mathrm{pred}_k = \\sum_s w_s [p_s = k]

    Three ``np.bincount`` calls (of the truth where the prediction agrees, of the truth, of the
    prediction), as scikit-learn's ``multilabel_confusion_matrix`` does: O(n + C) time and memory
    for any number of classes C.

    Examples
    --------
    >>> c = class_counts(np.array(["cat", "dog", "dog"]), np.array(["cat", "cat", "dog"]))
    >>> c.classes.tolist(), c.tp.tolist(), c.true_sum.tolist(), c.pred_sum.tolist()
    (['cat', 'dog'], [1, 1], [1, 2], [2, 1])
    """
    codes = encode_labels(y_true, y_pred)
    w = sample_weight
    # Unweighted first: a label seen only with zero weight is still a class (sklearn).
    tp, true_sum, pred_sum, table = _marginals(codes.true, codes.pred, codes.n, None)
    present = (true_sum > 0) | (pred_sum > 0)
    class_codes = None if present.all() else np.flatnonzero(present)
    n_exact, in_true = int(tp.sum()), true_sum > 0
    tn_is_zero = None
    if w is not None:
        if w.dtype.kind == "f":
            tn_is_zero = _tn_is_zero(codes, w, (tp, true_sum, pred_sum))
        tp, true_sum, pred_sum, table = _marginals(codes.true, codes.pred, codes.n, w)
    arrays = [tp, true_sum, pred_sum, in_true, tn_is_zero]
    if class_codes is not None:
        arrays = [None if a is None else a[class_codes] for a in arrays]
    tp, true_sum, pred_sum, in_true, tn_is_zero = arrays
    if codes.values is not None:  # encoded with np.unique: every code is a class
        classes = codes.values
    else:
        classes = codes.labels(np.arange(codes.n) if class_codes is None else class_codes)
    total = codes.true.shape[0] if w is None else np.sum(w, dtype=np.float64)
    return ClassCounts(
        classes,
        tp,
        true_sum,
        pred_sum,
        in_true,
        n_exact,
        total,
        tn_is_zero,
        codes,
        class_codes,
        table,
    )


def _tn_is_zero(
    codes: Codes, w: np.ndarray, unweighted: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> np.ndarray:
    """Codes whose true negatives are exactly 0: every sample of non-zero weight is of that class
    or predicted as it (samples of zero weight add exactly nothing)."""
    nonzero = w != 0
    if nonzero.all():
        tp, true_sum, pred_sum = unweighted
    else:
        t, p = codes.true[nonzero], codes.pred[nonzero]
        tp, true_sum, pred_sum, _ = _marginals(t, p, codes.n, None)
    return true_sum + pred_sum - tp == np.count_nonzero(nonzero)


def one_vs_rest(counts: ClassCounts, labels: np.ndarray | None = None) -> PerClassCounts:
    """tp, fp, fn, tn of each class (or of each of ``labels``, in that order), one-vs-rest.

    ``fp = pred - tp``, ``fn = true - tp``, ``tn = total - tp - fp - fn``: scikit-learn's
    arithmetic, in its order.  A label absent from the data counts 0 everywhere except ``tn``
    (every sample is a true negative for it).

    Examples
    --------
    >>> c = class_counts(np.array([0, 1, 1, 2]), np.array([0, 1, 2, 2]))
    >>> one_vs_rest(c, labels=np.array([2, 7]))
    PerClassCounts(tp=array([1, 0]), fp=array([1, 0]), fn=array([0, 0]), tn=array([2, 4]))
    """
    tp, true_sum, pred_sum, tn_is_zero = (
        counts.tp,
        counts.true_sum,
        counts.pred_sum,
        counts.tn_is_zero,
    )
    if labels is not None:
        labels = np.asarray(labels)
        pos, found = _lookup(counts.classes, labels)
        tp, true_sum, pred_sum = (
            np.where(found, a[pos], 0).astype(a.dtype) for a in (tp, true_sum, pred_sum)
        )
        if tn_is_zero is not None:
            tn_is_zero = found & tn_is_zero[pos]
    fp = pred_sum - tp
    fn = true_sum - tp
    tn = counts.total - tp - fp - fn
    if tn_is_zero is not None:
        tn[tn_is_zero] = 0.0  # not the rounding residue of the subtraction
    return PerClassCounts(tp, fp, fn, tn)


def _lookup(classes: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each label in the sorted ``classes`` and whether it is there at all.  A label of
    another kind (a string among numbers, or the reverse) is simply not there."""
    comparable = labels.dtype.kind != "O" and (labels.dtype.kind == "U") == (
        classes.dtype.kind == "U"
    )
    if not comparable or labels.size == 0:
        return np.zeros(labels.shape, dtype=np.intp), np.zeros(labels.shape, dtype=bool)
    pos = np.minimum(np.searchsorted(classes, labels), classes.shape[0] - 1)
    return pos, classes[pos] == labels


def labels_in_true(counts: ClassCounts, labels: np.ndarray) -> np.ndarray:
    """Whether each of ``labels`` occurs in ``y_true`` (even if only with zero weight).

    .. math:: \\mathrm{found}_l = [\\exists s:\\ t_s = l]

    A label of another kind than the classes (a string among numbers) is not found.

    Examples
    --------
    >>> c = class_counts(np.array([0, 0, 1]), np.array([0, 2, 2]))
    >>> labels_in_true(c, np.array([2, 1, 5])).tolist()
    [False, True, False]
    """
    pos, found = _lookup(counts.classes, labels)
    return found & counts.in_true[pos]


# --------------------------------------------------------------------------------------------
# The C x C table itself (confusion_matrix only)
# --------------------------------------------------------------------------------------------


def confusion_table(
    counts: ClassCounts, sample_weight: np.ndarray | None = None, labels: np.ndarray | None = None
) -> np.ndarray:
    """The confusion count over ``counts.classes`` (or over ``labels``, in their order).

    Rows and columns of a label absent from the data are 0; samples whose truth or prediction is
    not among ``labels`` are left out (scikit-learn's rule).  ``sample_weight`` must be the weights
    ``counts`` was made with.  A large table is counted with one ``np.bincount`` straight into the
    result: its memory is the ``int64`` (or ``float64``) table plus O(n).

    Examples
    --------
    >>> c = class_counts(np.array([0, 1, 1, 2]), np.array([0, 1, 2, 2]))
    >>> confusion_table(c, labels=np.array([2, 1])).tolist()
    [[1, 0], [1, 1]]
    """
    codes = counts.codes
    n_rows = counts.classes.shape[0] if labels is None else len(labels)
    if labels is None:
        class_codes = counts.class_codes
        if class_codes is None:
            if counts.table is not None:
                return counts.table
            return _pair_counts(codes.true, codes.pred, codes.n, sample_weight)
        wanted = class_codes
    else:
        pos, found = _lookup(counts.classes, np.asarray(labels))
        class_codes = np.arange(codes.n) if counts.class_codes is None else counts.class_codes
        wanted = np.where(found, class_codes[pos], codes.n)  # code n: a label not in the data
    if counts.table is not None:  # small: pick rows and columns of the table counted on the way
        padded = np.zeros((codes.n + 1,) * 2, dtype=counts.table.dtype)
        padded[:-1, :-1] = counts.table
        return padded[np.ix_(wanted, wanted)]
    # Large: map each code to its row (n_rows: not wanted), drop unwanted samples, count once.
    row = np.full(codes.n + 1, n_rows, dtype=np.intp)
    row[wanted] = np.arange(n_rows)
    row[codes.n] = n_rows
    t, p, w = row[codes.true], row[codes.pred], sample_weight
    keep = (t < n_rows) & (p < n_rows)
    if not keep.all():
        t, p, w = t[keep], p[keep], None if w is None else w[keep]
    return _pair_counts(t, p, n_rows, w)


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


# --------------------------------------------------------------------------------------------
# Indicator matrices, and counts that need no class at all
# --------------------------------------------------------------------------------------------


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


def _weighted_total(per_sample: np.ndarray, sample_weight: np.ndarray | None) -> float:
    """Sum of per-sample counts, each times its weight, accumulated in float64 whatever the
    weights' dtype (scikit-learn's ``np.average``)."""
    if sample_weight is None:
        return float(np.sum(per_sample, dtype=np.int64))
    return float(np.multiply(per_sample, sample_weight, dtype=np.float64).sum())


def exact_match_count(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
) -> float:
    """(Weighted) number of samples predicted exactly right: the label (1-D labels) or the whole
    label row (indicator matrices, subset accuracy).  No class index or count is needed.

    >>> exact_match_count(np.array(["a", "b", "b"]), np.array(["a", "a", "b"]))
    2.0
    """
    exact = np.asarray(y_true) == np.asarray(y_pred)
    if exact.ndim == 2:
        exact = np.all(exact, axis=1)
    return _weighted_total(exact, sample_weight)


def mismatch_count(
    y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray | None = None
) -> float:
    """(Weighted) number of entries of two label arrays (1-D, or indicator matrices) that differ
    (Hamming distance).

    .. math:: \\sum_s w_s \\sum_l [Y_{sl} \\ne \\hat Y_{sl}]

    >>> mismatch_count(np.array([[1, 0], [1, 1]]), np.array([[1, 1], [0, 1]]))
    2.0
    """
    differ = np.asarray(y_true) != np.asarray(y_pred)
    if differ.ndim == 2:
        differ = np.count_nonzero(differ, axis=1)
    return _weighted_total(differ, sample_weight)


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
