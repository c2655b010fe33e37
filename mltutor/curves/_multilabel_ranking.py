r"""Multilabel ranking: the labels of each sample ranked by their scores, within the row.

Each sample (row) has ``n_labels`` scores and a set of relevant labels.  The three metrics of
scikit-learn's multilabel ranking family read, for every label of a row, how many labels (and how
many relevant labels) score at least as high.  ``row_rank_counts`` gets all of these with one
row-wise sort: ``np.argsort(-y_score, axis=1)``, a cumulative sum of the relevant marks along each
sorted row, and the end and start of each run of tied scores (ties count as ranked above, the
"max" rank of scikit-learn's ``rankdata(..., "max")``).  No Python loop over samples.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation.scores import check_multilabel_ranking

__all__ = [
    "RowRankCounts",
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "row_rank_counts",
]


class RowRankCounts(NamedTuple):
    """Per-row ranks of every label, in each row's descending score order.

    Attributes
    ----------
    relevant : ndarray of bool, shape (n_samples, n_labels)
        Whether the label at each sorted position is relevant.
    at_or_above : ndarray of int64, shape (n_samples, n_labels)
        How many labels of the row score at least as high (the label's "max" rank).
    relevant_at_or_above : ndarray of int64, shape (n_samples, n_labels)
        How many relevant labels of the row score at least as high.
    relevant_above : ndarray of int64, shape (n_samples, n_labels)
        How many relevant labels of the row score strictly higher.
    n_relevant : ndarray of int64, shape (n_samples,)
        Relevant labels per row.
    """

    relevant: np.ndarray
    at_or_above: np.ndarray
    relevant_at_or_above: np.ndarray
    relevant_above: np.ndarray
    n_relevant: np.ndarray


def row_rank_counts(relevant: np.ndarray, y_score: np.ndarray) -> RowRankCounts:
    """The row-wise variant of the kernel's counts (see the module docstring), on validated arrays.

    >>> r = row_rank_counts(np.array([[True, False, True]]), np.array([[0.2, 0.5, 0.5]]))
    >>> r.at_or_above.tolist(), r.relevant_at_or_above.tolist(), r.relevant_above.tolist()
    ([[2, 2, 3]], [[1, 1, 2]], [[0, 0, 1]])
    """
    n, k = y_score.shape
    order = np.argsort(-y_score, axis=1, kind="stable")
    # The sorted rows are transposed to (n_labels, n_samples): the running sums and the runs of
    # ties then advance one label at a time over all samples at once (NumPy's accumulations
    # along a short last axis are many times slower).
    score = np.ascontiguousarray(np.take_along_axis(y_score, order, axis=1).T)
    rel = np.ascontiguousarray(np.take_along_axis(relevant, order, axis=1).T)
    cum = np.cumsum(rel, axis=0, dtype=np.int64)
    positions = np.arange(k)[:, None]
    # A run of ties ends where the next score (lower or equal) differs.
    ends = np.ones((k, n), dtype=bool)
    ends[:-1] = score[1:] != score[:-1]
    end = np.minimum.accumulate(np.where(ends, positions, k)[::-1], axis=0)[::-1]
    starts = np.ones((k, n), dtype=bool)
    starts[1:] = ends[:-1]
    start = np.maximum.accumulate(np.where(starts, positions, -1), axis=0)
    at_end = np.take_along_axis(cum, end, axis=0)
    before = np.take_along_axis(cum, np.maximum(start - 1, 0), axis=0)
    before[start == 0] = 0
    return RowRankCounts(rel.T, (end + 1).T, at_end.T, before.T, cum[-1])


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    r"""Coverage error: how far down each sample's ranked labels one must go to reach them all.

    .. math::
        \mathrm{coverage} = \frac{1}{\sum_i w_i} \sum_i w_i
        \bigl|\{\, l : s_{il} \ge \min_{j \in Y_i} s_{ij} \,\}\bigr|

    with :math:`Y_i` the relevant labels of sample :math:`i`; a sample without relevant labels
    counts 0.  Ties count against the ranking (every label tied with the lowest relevant one is
    counted).  The best value is the mean number of relevant labels per sample.  Matches
    scikit-learn 1.9's ``sklearn.metrics.coverage_error`` (which is 1 more than the definition
    of Tsoumakas et al.).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        Label-indicator matrix (a label is relevant where it is non-zero).  Dense only.
    y_score : array-like of shape (n_samples, n_labels)
        Scores, higher meaning "more relevant".  Finite.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float

    Examples
    --------
    >>> coverage_error([[1, 0, 0], [0, 1, 1]], [[1, 0, 0], [0, 1, 1]])
    1.5
    >>> coverage_error([[1, 0, 1]], [[0.9, 0.5, 0.2]])  # the second relevant label is third
    3.0
    """
    relevant, s, w = check_multilabel_ranking(y_true, y_score, sample_weight, accept_sparse=False)
    lowest = np.where(relevant, s, np.inf).min(axis=1)
    coverage = np.count_nonzero(s >= lowest[:, None], axis=1)
    return float(np.average(coverage, weights=w))


def label_ranking_average_precision_score(
    y_true: Any, y_score: Any, *, sample_weight: Any = None
) -> float:
    r"""Label ranking average precision (LRAP): the precision at each relevant label, averaged.

    .. math::
        \mathrm{LRAP} = \frac{1}{\sum_i w_i} \sum_i \frac{w_i}{|Y_i|} \sum_{j \in Y_i}
        \frac{|\{\, l \in Y_i : s_{il} \ge s_{ij} \,\}|}{|\{\, l : s_{il} \ge s_{ij} \,\}|}

    A sample whose labels are all relevant or all irrelevant scores 1 (its ranking cannot be
    wrong).  Tied scores share the lowest rank of their run (scikit-learn's ``rankdata(...,
    "max")``).  The value lies in (0, 1]; 1 means every relevant label is ranked above every
    irrelevant one.  Matches scikit-learn 1.9's
    ``sklearn.metrics.label_ranking_average_precision_score``.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        Label-indicator matrix (relevant where non-zero); one column is accepted.
    y_score : array-like of shape (n_samples, n_labels)
        Scores.  Finite.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float

    Examples
    --------
    >>> label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]],
    ...                                       [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.416...
    """
    relevant, s, w = check_multilabel_ranking(y_true, y_score, sample_weight, accept_column=True)
    r = row_rank_counts(relevant, s)
    n_labels = s.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(r.relevant, r.relevant_at_or_above / r.at_or_above, 0.0)
        per_row = precision.sum(axis=1) / r.n_relevant
    per_row[(r.n_relevant == 0) | (r.n_relevant == n_labels)] = 1.0
    if w is None:
        return float(per_row.sum() / per_row.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.dot(per_row, w) / np.sum(w))


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    r"""Ranking loss: the fraction of (relevant, irrelevant) label pairs ranked the wrong way.

    .. math::
        \mathrm{RL} = \frac{1}{\sum_i w_i} \sum_i \frac{w_i}{|Y_i|\,(L - |Y_i|)}
        \bigl|\{\, (j, q) : j \in Y_i,\ q \notin Y_i,\ s_{iq} \ge s_{ij} \,\}\bigr|

    with :math:`L` labels; a tie counts as a wrong pair.  A sample whose labels are all
    relevant or all irrelevant scores 0.  Matches scikit-learn 1.9's
    ``sklearn.metrics.label_ranking_loss``.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        Label-indicator matrix (relevant where non-zero).
    y_score : array-like of shape (n_samples, n_labels)
        Scores.  Finite.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float

    Examples
    --------
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    relevant, s, w = check_multilabel_ranking(y_true, y_score, sample_weight)
    r = row_rank_counts(relevant, s)
    n_labels = s.shape[1]
    # Each irrelevant label is wrongly ordered against every relevant label not strictly above it.
    wrong = np.where(r.relevant, 0, r.n_relevant[:, None] - r.relevant_above).sum(axis=1)
    pairs = (n_labels - r.n_relevant) * r.n_relevant
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = wrong / pairs
    loss[(r.n_relevant == 0) | (r.n_relevant == n_labels)] = 0.0
    return float(np.average(loss, weights=w))
