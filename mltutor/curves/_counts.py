"""The counting of kernel 2: cumulative (weighted) counts of positives and negatives at each distinct
score, highest first, with the sort-only path for unweighted scores.

The algorithm is explained in :mod:`mltutor.curves`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation import (
    check_binary_scores,
)


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
# The kernel
# --------------------------------------------------------------------------------------------


class SortedClasses(NamedTuple):
    """Both classes of a binary problem sorted by value only (``np.sort``, no ``argsort``).

    Attributes
    ----------
    scores : ndarray, shape (n_samples,)
        Every score, ascending.
    minority : ndarray, shape (n_minority,)
        The scores of the smaller class (the positives when there are no more positives than
        negatives), ascending.
    below : ndarray of intp, shape (n_minority,)
        ``below[j]``: how many scores (of either class) are strictly lower than ``minority[j]``;
        that is where ``minority[j]``'s run of tied values starts in ``scores``.
    minority_is_positive : bool
        Whether ``minority`` holds the positives.
    """

    scores: np.ndarray
    minority: np.ndarray
    below: np.ndarray
    minority_is_positive: bool


def sort_classes(
    is_positive: np.ndarray, y_score: np.ndarray, buffer: np.ndarray | None = None
) -> SortedClasses:
    """Sort every score and, apart, the scores of the smaller class; rank the latter among all.

    Sorting the smaller class (not both) and searching it in the whole keeps the extra work at
    ``m log n`` for ``m`` minority scores.  Inputs are validated arrays (see
    :func:`cumulative_counts`).  ``buffer``, of ``y_score``'s dtype and at least its length, takes
    the sorted scores at its front (``scores`` is then a view of it).
    """
    n_positive = int(np.count_nonzero(is_positive))
    minority_is_positive = 2 * n_positive <= is_positive.shape[0]
    if buffer is None:
        scores = np.sort(y_score)
    else:
        scores = buffer[: y_score.shape[0]]
        scores[...] = y_score
        scores.sort()
    minority = y_score[is_positive if minority_is_positive else ~is_positive]  # a copy: sort it
    minority.sort()
    below = np.searchsorted(scores, minority, side="left")
    return SortedClasses(scores, minority, below, minority_is_positive)


def run_starts(sorted_values: np.ndarray) -> np.ndarray:
    """Index of the first element of every run of equal values in a sorted, non-empty array."""
    starts = np.flatnonzero(sorted_values[1:] != sorted_values[:-1])
    starts += 1
    return np.concatenate(([0], starts))


def _minority_positions(classes: SortedClasses) -> np.ndarray:
    """Distinct indices into ``classes.scores``, one per minority score, each inside the run of
    ties that holds its value (at the run's front: ``below[j]`` plus its rank among equal minority
    scores).  Within a run the order does not matter to counts read at run boundaries."""
    minority, m = classes.minority, classes.minority.shape[0]
    rank = np.arange(m)
    if m:
        first = np.where(np.r_[True, minority[1:] != minority[:-1]], rank, 0)
        np.maximum.accumulate(first, out=first)  # index of the first equal minority score
        rank -= first
    rank += classes.below
    return rank


def _has_ties(sorted_values: np.ndarray) -> bool:
    return not bool(np.all(sorted_values[1:] != sorted_values[:-1]))


def _split_counts(
    classes: SortedClasses,
    minority_at_or_above: np.ndarray,
    last: np.ndarray | None,
    thresholds: np.ndarray,
) -> BinaryCounts:
    """``BinaryCounts`` from the minority counts at the (descending) indices ``last``: all samples
    at or above index ``k`` number ``k + 1`` (``last=None`` means every index)."""
    n = classes.scores.shape[0]
    other = np.arange(1.0, n + 1.0) if last is None else last + 1.0
    other -= minority_at_or_above
    if classes.minority_is_positive:
        return BinaryCounts(other, minority_at_or_above, thresholds)
    return BinaryCounts(minority_at_or_above, other, thresholds)


def sorted_counts(is_positive: np.ndarray, y_score: np.ndarray) -> BinaryCounts:
    """The unweighted kernel without ``argsort``: the same arrays as :func:`cumulative_counts`.

    Read from the top, the sorted scores ``scores[::-1]`` hold the minority scores at known
    indices ``q_0 < q_1 < ...`` (:func:`sort_classes` ranked them), so the number of minority
    scores among the ``k + 1`` highest is ``j`` for ``q_{j-1} <= k < q_j``: a ``np.repeat`` of
    ``0, 1, ..., m``, no cumulative sum over labels.  At the last index ``k`` of each run of ties
    that is the minority count at or above that threshold, ``k + 1`` is the count of all samples,
    and the other class is the difference.  Counts are exact integers whatever the order inside a
    run, so nothing else about the samples is needed.
    """
    classes = sort_classes(is_positive, y_score)
    scores, m = classes.scores, classes.minority.shape[0]
    n = scores.shape[0]
    from_top = (n - 1) - _minority_positions(classes)[::-1]  # increasing indices into scores[::-1]
    run_lengths = np.diff(from_top, prepend=0, append=n)
    minority_top = np.repeat(np.arange(m + 1.0), run_lengths)  # exact below 2**53 samples
    descending = scores[::-1]
    if not _has_ties(scores):  # every score is a threshold
        return _split_counts(classes, minority_top, None, descending)
    last = np.append(np.flatnonzero(descending[1:] != descending[:-1]), n - 1)
    return _split_counts(classes, minority_top[last], last, descending[last])


def cumulative_counts(
    is_positive: np.ndarray, y_score: np.ndarray, sample_weight: np.ndarray | None = None
) -> BinaryCounts:
    """The kernel on validated arrays (see :func:`binary_counts` for the definition).

    ``is_positive`` is a 1-D bool array, ``y_score`` a 1-D finite real array of the same length and
    ``sample_weight`` float64 or None.  Samples with weight 0 are dropped first, so their scores are
    not thresholds (scikit-learn >= 1.8 does the same).  Without weights this is
    :func:`sorted_counts` (no ``argsort``).
    """
    if sample_weight is None:
        return sorted_counts(is_positive, y_score)
    keep = sample_weight != 0
    is_positive, y_score, sample_weight = is_positive[keep], y_score[keep], sample_weight[keep]
    # With weights the order inside a run of ties changes the last bit of the float sums, so the
    # weighted path sorts exactly as scikit-learn does (stable, descending, ties in input order: a
    # stable ascending sort of the reversed array, mapped back), which makes the sums identical to
    # the last bit.
    order = (y_score.shape[0] - 1) - np.argsort(y_score[::-1], kind="stable")[::-1]
    score = y_score[order]
    pos = is_positive[order].astype(np.float64)
    # Runs end where the next score differs (``!=``, not ``np.diff``: no overflow in float16).
    last = np.append(np.flatnonzero(score[1:] != score[:-1]), score.shape[0] - 1)
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
