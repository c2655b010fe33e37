"""Kernel 2: sorted-score cumulative counts.

Every threshold-based quantity in mltutor (threshold sweeps, the best F-beta threshold, cost-based
thresholds, and later ROC and precision-recall curves and average precision) is arithmetic on the
two arrays that :func:`binary_counts` returns.  The idea fits in four lines of NumPy::

    order = np.argsort(y_score)[::-1]                       # highest score first
    tps = np.cumsum(is_positive[order] * weight[order])     # positives with score >= s
    fps = np.cumsum(~is_positive[order] * weight[order])    # negatives with score >= s
    last = np.r_[np.flatnonzero(np.diff(y_score[order])), n - 1]  # end of each run of ties

Predicting "positive" when ``score >= threshold`` and lowering the threshold one distinct score at
a time admits whole runs of tied scores at once, so the counts are read at the *last* index of each
run.  One sort gives every threshold: there is no loop over thresholds.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ._validation import _as_array, _kind, check_pos_label

__all__ = ["BinaryCounts", "binary_counts", "check_binary_scores", "cumulative_counts"]


class BinaryCounts(NamedTuple):
    """Cumulative counts at each distinct score, highest score first.

    Attributes
    ----------
    fps : ndarray of float64, shape (n_thresholds,)
        ``fps[i]``: (weighted) number of negatives with ``score >= thresholds[i]``.
        Non-decreasing for non-negative weights; ``fps[-1]`` is the total negative weight.
    tps : ndarray of float64, shape (n_thresholds,)
        ``tps[i]``: (weighted) number of positives with ``score >= thresholds[i]``;
        ``tps[-1]`` is the total positive weight.
    thresholds : ndarray, shape (n_thresholds,)
        The distinct scores in decreasing order, in the dtype of ``y_score``.
    """

    fps: np.ndarray
    tps: np.ndarray
    thresholds: np.ndarray


# --------------------------------------------------------------------------------------------
# Validation (binary targets + scores).  Kept here because _validation.py checks label pairs; the
# label-array reading and the target-kind test are reused from there.
# --------------------------------------------------------------------------------------------

_DEFAULT_POSITIVE_SETS = ([0, 1], [-1, 1], [0], [-1], [1])


def _column_or_1d(arr: np.ndarray, name: str) -> np.ndarray:
    """Accept shape (n,) or a column (n, 1); refuse anything else, naming the argument."""
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one value per sample); got an array of shape {arr.shape}."
        )
    return arr


def _resolve_pos_label(classes: np.ndarray, pos_label: Any) -> Any:
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


def _check_scores(y_score: Any) -> np.ndarray:
    if y_score is None or isinstance(y_score, (str, bytes)) or np.ndim(y_score) == 0:
        raise TypeError(f"y_score must be an array-like of scores (one per sample); got {y_score!r}.")
    s = np.asarray(y_score)
    if s.dtype.kind == "O":
        try:
            s = s.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError("y_score must hold real numbers; got an object array.") from None
    if s.dtype.kind not in "biuf":
        raise TypeError(f"y_score must hold real numbers (scores or probabilities); got dtype {s.dtype}.")
    s = _column_or_1d(s, "y_score")
    if s.dtype.kind == "f" and not np.isfinite(s).all():
        what = "NaN" if np.isnan(s).any() else "infinity"
        raise ValueError(f"Input y_score contains {what}; scores must be finite.")
    return s


def _check_weights(sample_weight: Any, n_samples: int) -> np.ndarray | None:
    if sample_weight is None:
        return None
    if isinstance(sample_weight, (str, bytes)) or np.ndim(sample_weight) == 0:
        raise TypeError(
            f"sample_weight must be an array-like with one weight per sample; got {sample_weight!r}."
        )
    w = np.asarray(sample_weight)
    if w.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight must hold real numbers; got dtype {w.dtype}.")
    w = _column_or_1d(w, "sample_weight").astype(np.float64)
    if w.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {w.shape[0]} weights but y_true and y_score have {n_samples} samples."
        )
    if not np.isfinite(w).all():
        what = "NaN" if np.isnan(w).any() else "infinity"
        raise ValueError(f"Input sample_weight contains {what}; weights must be finite.")
    if not w.any():
        raise ValueError("sample_weight must contain at least one non-zero weight; all weights are 0.")
    return w


def check_binary_scores(
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, Any]:
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
    yt, sparse = _as_array(y_true, "y_true")
    if sparse:
        raise TypeError("y_true must be a dense 1-D array of labels; got a sparse matrix.")
    yt = _column_or_1d(yt, "y_true")
    scores = _check_scores(y_score)
    if yt.shape[0] != scores.shape[0]:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"y_true has {yt.shape[0]}, y_score has {scores.shape[0]}. "
            "Each sample needs one true label and one score."
        )
    if yt.shape[0] == 0:
        raise ValueError("Found empty input: y_true and y_score have 0 samples; need at least 1.")
    if _kind(yt, "y_true") != "labels":
        raise ValueError(
            "y_true holds continuous values; it must hold class labels (the scores go in y_score)."
        )
    classes = np.unique(yt)
    if classes.shape[0] > 2 and pos_label is None:
        raise ValueError(
            f"y_true has {classes.shape[0]} classes (multiclass format is not supported without "
            "pos_label); pass pos_label to score one class against the rest."
        )
    pos_label = _resolve_pos_label(classes, pos_label)
    weights = _check_weights(sample_weight, yt.shape[0])
    if isinstance(pos_label, (str, np.str_)) != (yt.dtype.kind == "U"):
        is_positive = np.zeros(yt.shape[0], dtype=bool)  # a str label never equals a number
    else:
        is_positive = np.asarray(yt == pos_label, dtype=bool)
    return is_positive, scores, weights, pos_label


# --------------------------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------------------------


def cumulative_counts(
    is_positive: np.ndarray, y_score: np.ndarray, sample_weight: np.ndarray | None = None
) -> BinaryCounts:
    """The kernel on validated arrays (see :func:`binary_counts` for the definition).

    ``is_positive`` is a 1-D bool array, ``y_score`` a 1-D finite real array of the same length and
    ``sample_weight`` float64 or None.  Samples with weight 0 are dropped first, so their scores are
    not thresholds (scikit-learn >= 1.8 does the same).
    """
    if sample_weight is not None:
        keep = sample_weight != 0
        is_positive, y_score, sample_weight = is_positive[keep], y_score[keep], sample_weight[keep]
    # One sort, highest score first.  Reversing an ascending sort also reverses the order inside a
    # run of tied scores; that never matters, because only each run's last count is kept.  Without
    # weights the counts are exact integers whatever the order inside a run, so the faster
    # unstable sort gives identical results; with weights a stable sort keeps the floating-point
    # sums reproducible to the last bit (as scikit-learn).
    order = np.argsort(y_score, kind=None if sample_weight is None else "stable")[::-1]
    score = y_score[order]
    pos = is_positive[order].astype(np.float64)
    last = np.append(np.flatnonzero(np.diff(score)), score.shape[0] - 1)
    if sample_weight is None:
        tps = np.cumsum(pos)[last]
        fps = 1.0 + last - tps  # samples so far minus positives so far (exact in float64)
    else:
        w = sample_weight[order]
        tps = np.cumsum(pos * w)[last]
        fps = np.cumsum((1.0 - pos) * w)[last]  # a cumsum: stays monotone despite rounding
    return BinaryCounts(fps, tps, score[last])


def binary_counts(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> BinaryCounts:
    r"""False and true positives at every distinct score, highest score first.

    Predict positive when ``score >= threshold``.  For each distinct score :math:`s_i` (in
    decreasing order) the kernel returns

    .. math::

        \mathrm{tps}_i = \sum_{k:\; s_k \ge s_i,\; y_k = +} w_k, \qquad
        \mathrm{fps}_i = \sum_{k:\; s_k \ge s_i,\; y_k \ne +} w_k,

    with :math:`w_k = 1` without ``sample_weight``.  The other two confusion counts follow:
    ``fn = tps[-1] - tps`` and ``tn = fps[-1] - fps``.  It is computed with one sort and
    two cumulative sums, read at the last position of each run of tied scores, so tied samples
    cross the threshold together.  Results equal scikit-learn's
    ``sklearn.metrics.confusion_matrix_at_thresholds`` (formerly the private
    ``_binary_clf_curve``), to 1e-12 with float weights and exactly otherwise.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.  Binary; or multiclass when ``pos_label`` names the positive class.
    y_score : array-like of shape (n_samples,)
        Scores, probabilities or decision values; larger means "more positive".  Finite.
    pos_label : int, float, bool or str, default=None
        The positive class.  ``None`` means 1 and requires labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each sample.  Samples with weight 0 are dropped (their scores are not
        thresholds).

    Returns
    -------
    BinaryCounts
        A named tuple ``(fps, tps, thresholds)``; ``fps`` and ``tps`` are float64 and
        ``thresholds`` keeps the dtype of ``y_score``.

    Raises
    ------
    ValueError
        Inconsistent lengths, empty input, NaN/inf scores or weights, continuous ``y_true``,
        non-binary ``y_true`` without ``pos_label``, ``pos_label=None`` with labels other than
        {0, 1} / {-1, 1}, all-zero weights.
    TypeError
        Non-numeric scores or weights, a ``pos_label`` that is not a single label.

    Examples
    --------
    >>> from mltutor.curves import binary_counts
    >>> fps, tps, thresholds = binary_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> thresholds.tolist(), tps.tolist(), fps.tolist()
    ([0.8, 0.4, 0.35, 0.1], [1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 1.0, 2.0])

    Tied scores form one threshold:

    >>> binary_counts([1, 0, 1], [0.5, 0.5, 0.2]).tps.tolist()
    [1.0, 2.0]
    """
    is_positive, scores, weights, _ = check_binary_scores(y_true, y_score, pos_label, sample_weight)
    return cumulative_counts(is_positive, scores, weights)
