"""Retrieval metrics per query: P@k, R@k, AP/MAP, RR/MRR, DCG and nDCG@k.

A retrieval system answers each query with a ranked list of documents.  Here both inputs are
matrices with one row per query and one column per document:

* ``relevance[q, d]`` -- how relevant document ``d`` is to query ``q`` (0 = not relevant; graded
  relevance such as 0, 1, 2, 3 is used as the gain by DCG; every other metric calls a document
  relevant when its grade is > 0);
* ``scores[q, d]`` -- the system's score; higher scores are ranked first.

Every metric is kernel 2 of the course (sorted-score cumulative counts) applied to each row, and
all rows are done at once: **one argsort per matrix and a cumsum along the rows**::

    order = np.argsort(-scores, axis=1, kind="stable")      # best document first, per query
    rel = np.take_along_axis(relevance > 0, order, axis=1)  # relevant? in ranked order
    hits = np.cumsum(rel, axis=1)                           # relevant among the top 1, 2, ...
    precision_at = hits / np.arange(1, n_docs + 1)          # P@1, P@2, ... for every query

P@k, R@k, AP and RR are read off ``hits``; DCG sums graded gains times a log discount.

Ties
----
When two documents have the same score their order is a convention, and it changes P@k, AP and
RR.  ``ties="first"`` (the default) ranks the lower column index first (a stable sort);
``ties="last"`` ranks the higher column index first, which is **trec_eval's rule** (ties broken by
document id in descending order) when column ``j`` holds the document whose id sorts ``j``-th
(e.g. zero-padded ``"d0007"``).  DCG and nDCG also accept
``ties="average"``, scikit-learn's convention: the gain of a tied group is averaged over the
group's positions, which equals the mean DCG over all orders of the ties
(McSherry and Najork, 2008).

Queries without any relevant document have recall, AP and RR of 0 (as trec_eval has, through
pytrec_eval-terrier 0.5.11) and nDCG of 0 (as scikit-learn 1.9.1 has); the means over queries
(:func:`mean_average_precision`, :func:`mean_reciprocal_rank`) count them.  scikit-learn's
``average_precision_score`` (1.9.1) gives such a query 0 with a warning, and its rule for ties
differs from both orders here: a tied group is one threshold, one step.
"""

from __future__ import annotations

from numbers import Real
from typing import Any, NamedTuple

import numpy as np

from .._validation import as_real_array, check_sample_weight
from .._validation.params import check_cutoff, check_option

__all__ = [
    "RankedLists",
    "average_precision",
    "dcg_at_k",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "ndcg_at_k",
    "precision_at_k",
    "rank",
    "recall_at_k",
    "reciprocal_rank",
]

_TIES = ("first", "last")


# --------------------------------------------------------------------------------------------
# Validation.  Kept here (as in curves.py) because _validation.py checks label pairs, and these
# are query x document matrices.
# --------------------------------------------------------------------------------------------


def _matrix(x: Any, name: str, *, keep_dtype: bool = False) -> np.ndarray:
    """A finite, real, non-empty 2-D array (query x document); object arrays become float64."""
    if x is None or isinstance(x, (str, bytes)) or np.ndim(x) == 0:
        raise TypeError(f"{name} must be a 2-D array-like (queries x documents); got {x!r}.")
    a = as_real_array(x, name, dtype_error=TypeError)
    if a.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D, one row per query and one column per document; "
            f"got an array of shape {a.shape}."
        )
    if a.size == 0:
        raise ValueError(
            f"{name} is empty (shape {a.shape}); it needs at least one query and one document."
        )
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        what = "NaN" if np.isnan(a).any() else "infinity"
        raise ValueError(f"{name} contains {what}; every entry must be finite.")
    return a if keep_dtype else a.astype(np.float64, copy=False)


def _pair(relevance: Any, scores: Any) -> tuple[np.ndarray, np.ndarray]:
    rel = _matrix(relevance, "relevance")
    sc = _matrix(scores, "scores")
    if rel.shape != sc.shape:
        raise ValueError(
            f"relevance and scores must have the same shape (queries x documents); "
            f"got {rel.shape} and {sc.shape}."
        )
    if (rel < 0).any():
        raise ValueError("relevance must be >= 0 (0 = not relevant, larger = more relevant).")
    return rel, sc


# --------------------------------------------------------------------------------------------
# The kernel: one argsort, one cumsum
# --------------------------------------------------------------------------------------------


def rank(scores: np.ndarray, ties: str = "first") -> np.ndarray:
    """Column indices of each row from the highest score to the lowest (one argsort).

    ``ties="first"``: among equal scores the lower column index comes first;
    ``ties="last"``: the higher one (trec_eval's rule with ids in column order).

    >>> rank(np.array([[0.2, 0.9, 0.2]]), ties="first").tolist()
    [[1, 0, 2]]
    >>> rank(np.array([[0.2, 0.9, 0.2]]), ties="last").tolist()
    [[1, 2, 0]]
    """
    ties = check_option(ties, _TIES, "ties")
    if ties == "first":
        return np.argsort(-scores, axis=1, kind="stable")
    # A stable ascending sort keeps equal scores in column order; reversing the row puts the
    # highest score first and the higher column index first among equals.
    return np.argsort(scores, axis=1, kind="stable")[:, ::-1]


class RankedLists(NamedTuple):
    """Each query's ranked list, as cumulative counts.

    Attributes
    ----------
    order : ndarray of int, shape (n_queries, n_docs)
        Column indices, best first.
    relevant : ndarray of bool, shape (n_queries, n_docs)
        ``relevant[q, i]``: is the document at rank ``i + 1`` relevant?
    hits : ndarray of int64, shape (n_queries, n_docs)
        ``hits[q, i]``: relevant documents among the top ``i + 1`` (``cumsum`` of ``relevant``).
    n_relevant : ndarray of int64, shape (n_queries,)
        Relevant documents per query (``hits[:, -1]``).
    """

    order: np.ndarray
    relevant: np.ndarray
    hits: np.ndarray
    n_relevant: np.ndarray


def ranked_lists(relevance: Any, scores: Any, *, ties: str = "first") -> RankedLists:
    """Validate, rank once, and count relevant documents down each list."""
    rel, sc = _pair(relevance, scores)
    order = rank(sc, ties)
    relevant = np.take_along_axis(rel > 0, order, axis=1)
    hits = np.cumsum(relevant, axis=1, dtype=np.int64)
    return RankedLists(order, relevant, hits, hits[:, -1].copy())


def _hits_at(lists: RankedLists, k: int) -> np.ndarray:
    """Relevant documents in the top k (all of them when k exceeds the list length)."""
    return lists.hits[:, min(k, lists.hits.shape[1]) - 1]


def _safe_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with 0 where den == 0 (a query without relevant documents scores 0)."""
    num = np.asarray(num, dtype=np.float64)
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


# --------------------------------------------------------------------------------------------
# Binary-relevance metrics
# --------------------------------------------------------------------------------------------


def precision_at_k(relevance: Any, scores: Any, k: int, *, ties: str = "first") -> np.ndarray:
    """Precision at k for each query: the share of the top ``k`` documents that are relevant.

    .. math:: P@k = \\frac{1}{k}\\,\\#\\{\\text{relevant documents among the top } k\\}

    The denominator is always ``k`` (trec_eval's ``P_k``), so a list shorter than ``k`` counts
    the missing places as misses.

    Parameters
    ----------
    relevance : array-like of shape (n_queries, n_docs)
        Relevance grades, >= 0; a document is relevant when its grade is > 0.
    scores : array-like of shape (n_queries, n_docs)
        The system's scores; higher is ranked first.
    k : int >= 1
    ties : {'first', 'last'}
        Order of equal scores (see the module docstring).

    Returns
    -------
    ndarray of float64, shape (n_queries,)

    Examples
    --------
    >>> relevance = [[1, 0, 1, 0, 0], [0, 0, 0, 1, 1]]
    >>> scores = [[0.9, 0.8, 0.7, 0.2, 0.1], [0.5, 0.4, 0.3, 0.2, 0.1]]
    >>> precision_at_k(relevance, scores, k=2).tolist()
    [0.5, 0.0]
    """
    k = check_cutoff(k, allow_none=False)
    return _hits_at(ranked_lists(relevance, scores, ties=ties), k) / k


def recall_at_k(relevance: Any, scores: Any, k: int, *, ties: str = "first") -> np.ndarray:
    """Recall at k for each query: the share of all relevant documents found in the top ``k``.

    .. math:: R@k = \\frac{\\#\\{\\text{relevant documents among the top } k\\}}{\\#\\{\\text{relevant documents}\\}}

    Recall@k never falls as ``k`` grows (the numerator only gains documents); P@k can go either
    way.  A query without relevant documents scores 0.

    >>> recall_at_k([[1, 0, 1, 0, 0]], [[0.9, 0.8, 0.7, 0.2, 0.1]], k=2).tolist()
    [0.5]
    """
    k = check_cutoff(k, allow_none=False)
    lists = ranked_lists(relevance, scores, ties=ties)
    return _safe_ratio(_hits_at(lists, k), lists.n_relevant)


def average_precision(
    relevance: Any, scores: Any, *, k: int | None = None, ties: str = "first"
) -> np.ndarray:
    """Average precision of each query's ranking (trec_eval's ``map``; ``map_cut_k`` with ``k``).

    .. math:: AP = \\frac{1}{R}\\sum_{i=1}^{n} P@i \\cdot \\mathrm{rel}_i

    the mean of P@i over the ranks ``i`` where a relevant document appears, with ``R`` the number
    of relevant documents.  With ``k`` only ranks ``i <= k`` contribute, and the sum is still
    divided by ``R``, as trec_eval does (some libraries divide by ``min(k, R)`` instead).
    Relevant documents that the list never reaches add 0, which is why AP is recall-aware.

    >>> average_precision([[1, 0, 1, 0]], [[0.9, 0.8, 0.7, 0.1]]).tolist()  # (1/1 + 2/3) / 2
    [0.8333333333333333]
    """
    k = check_cutoff(k, allow_none=True)
    lists = ranked_lists(relevance, scores, ties=ties)
    n_docs = lists.hits.shape[1]
    precision_at = lists.hits / np.arange(1, n_docs + 1)
    gained = np.where(lists.relevant, precision_at, 0.0)
    if k is not None:
        gained = gained[:, :k]
    return _safe_ratio(gained.sum(axis=1), lists.n_relevant)


def mean_average_precision(
    relevance: Any, scores: Any, *, k: int | None = None, ties: str = "first"
) -> float:
    """MAP: the mean of :func:`average_precision` over queries (each query counts once).

    >>> mean_average_precision([[1, 0], [0, 1]], [[0.9, 0.1], [0.9, 0.1]])
    0.75
    """
    return float(np.mean(average_precision(relevance, scores, k=k, ties=ties)))


def reciprocal_rank(relevance: Any, scores: Any, *, ties: str = "first") -> np.ndarray:
    """1 / (rank of the first relevant document) for each query; 0 when there is none.

    >>> reciprocal_rank([[0, 0, 1], [1, 1, 0]], [[0.9, 0.8, 0.7], [0.3, 0.2, 0.1]]).tolist()
    [0.3333333333333333, 1.0]
    """
    lists = ranked_lists(relevance, scores, ties=ties)
    first = np.argmax(lists.relevant, axis=1)  # index of the first True (0 if none)
    return np.where(lists.n_relevant > 0, 1.0 / (first + 1), 0.0)


def mean_reciprocal_rank(relevance: Any, scores: Any, *, ties: str = "first") -> float:
    """MRR: the mean of :func:`reciprocal_rank` over queries.

    >>> mean_reciprocal_rank([[0, 0, 1], [1, 1, 0]], [[0.9, 0.8, 0.7], [0.3, 0.2, 0.1]])
    0.6666666666666666
    """
    return float(np.mean(reciprocal_rank(relevance, scores, ties=ties)))


# --------------------------------------------------------------------------------------------
# Graded relevance: DCG and nDCG
# --------------------------------------------------------------------------------------------


def _discount(n_docs: int, k: int | None, log_base: float = 2) -> np.ndarray:
    """1 / log_b(i + 1) for ranks i = 1..n_docs, zero after rank k (scikit-learn's formula)."""
    discount = 1 / (np.log(np.arange(n_docs) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0
    return discount


def _dcg(
    gains: np.ndarray, scores: np.ndarray, discount: np.ndarray, ties: str, k: int | None = None
) -> np.ndarray:
    """DCG of every row.  ``gains`` float64; ``scores`` in any real dtype (never converted, so
    ties stay ties); ``discount`` is zero after rank ``k``.

    ties: 'first' / 'last' (one order), 'average' (gain averaged over each tied group), or
    'numpy' (``np.argsort(scores)[:, ::-1]``, scikit-learn's ``ignore_ties=True`` order).
    """
    n_docs = gains.shape[1]
    depth = n_docs if k is None else min(k, n_docs)  # ranks that carry a discount
    if ties == "numpy":
        order = np.argsort(scores)[:, ::-1]
    elif ties == "average":
        order = np.argsort(scores, axis=1)[:, ::-1]  # any order: tied groups are averaged below
    else:
        order = rank(scores, ties)
    if ties == "average":
        # Only a tie that touches the top `depth` ranks can change the result; without one, any
        # order of the ties is as good as the average.
        look = np.take_along_axis(scores, order[:, : min(depth + 1, n_docs)], axis=1)
        if (look[:, 1:] == look[:, :-1]).any():
            return _tie_averaged_dcg(gains, scores, order, discount)
    return np.take_along_axis(gains, order[:, :depth], axis=1) @ discount[:depth]


def _tie_averaged_dcg(
    gains: np.ndarray, scores: np.ndarray, order: np.ndarray, discount: np.ndarray
) -> np.ndarray:
    """DCG with every tied group's gains replaced by their mean, all queries at once.

    Group g spans ranks start_g .. end_g of its row; its mean gain fills each of those ranks, so
    it contributes mean_g * (discount[start_g] + ... + discount[end_g]).  Works on the flattened
    matrix, so there is no loop over queries.
    """
    n_queries, n_docs = gains.shape
    ranked = np.take_along_axis(gains, order, axis=1)
    ranked_scores = np.take_along_axis(scores, order, axis=1)
    new_group = np.ones(ranked.shape, dtype=bool)
    new_group[:, 1:] = ranked_scores[:, 1:] != ranked_scores[:, :-1]
    starts = np.flatnonzero(new_group)
    ends = np.r_[starts[1:], ranked.size] - 1
    group_mean = np.add.reduceat(ranked.ravel(), starts) / (ends - starts + 1)
    cumulative = np.cumsum(discount)
    start_col, end_col = starts % n_docs, ends % n_docs
    before = np.where(start_col > 0, cumulative[start_col - 1], 0.0)
    discount_sum = cumulative[end_col] - before
    return np.bincount(starts // n_docs, weights=group_mean * discount_sum, minlength=n_queries)


def _ideal_dcg(gains: np.ndarray, discount: np.ndarray) -> np.ndarray:
    """DCG of the best possible order: gains sorted from high to low."""
    return np.sort(gains, axis=1)[:, ::-1] @ discount


def dcg_at_k(
    relevance: Any, scores: Any, k: int | None = None, *, ties: str = "average", log_base: float = 2
) -> np.ndarray:
    """Discounted cumulative gain of each query's top ``k`` (all documents when ``k`` is None).

    .. math:: DCG@k = \\sum_{i=1}^{k} \\frac{\\mathrm{rel}_i}{\\log_b(i + 1)}

    with the graded relevance of the document at rank ``i`` as its gain (linear gain, as
    scikit-learn and trec_eval use).

    ``ties="average"`` (default, scikit-learn's convention) gives every member of a tied group the
    group's mean gain; 'first' and 'last' pick one order (see the module docstring).

    >>> dcg_at_k([[3, 2, 0, 1]], [[0.9, 0.8, 0.7, 0.6]]).round(4).tolist()  # 3 + 2/log2(3) + 1/log2(5)
    [4.6925]
    """
    k = check_cutoff(k, allow_none=True)
    ties = check_option(ties, _TIES + ("average",), "ties")
    rel, _ = _pair(relevance, scores)
    sc = _matrix(scores, "scores", keep_dtype=True)
    return _dcg(rel, sc, _discount(rel.shape[1], k, log_base), ties, k)


def ndcg_at_k(
    relevance: Any, scores: Any, k: int | None = None, *, ties: str = "average"
) -> np.ndarray:
    """Normalised DCG: DCG@k divided by the DCG@k of the ideal order, in [0, 1].

    .. math:: nDCG@k = \\frac{DCG@k}{IDCG@k}

    A query without relevant documents (IDCG = 0) scores 0, as in scikit-learn.

    >>> ndcg_at_k([[3, 2, 0, 1]], [[0.9, 0.8, 0.7, 0.6]]).round(4).tolist()
    [0.9854]
    """
    k = check_cutoff(k, allow_none=True)
    ties = check_option(ties, _TIES + ("average",), "ties")
    rel, _ = _pair(relevance, scores)
    sc = _matrix(scores, "scores", keep_dtype=True)
    discount = _discount(rel.shape[1], k)
    return _normalise(_dcg(rel, sc, discount, ties, k), _ideal_dcg(rel, discount))


def _normalise(gain: np.ndarray, ideal: np.ndarray) -> np.ndarray:
    gain = np.array(gain, dtype=np.float64)
    nothing = ideal == 0
    gain[nothing] = 0
    gain[~nothing] /= ideal[~nothing]
    return gain


# --------------------------------------------------------------------------------------------
# scikit-learn's dcg_score / ndcg_score (re-exported by mltutor.metrics)
# --------------------------------------------------------------------------------------------


def _sk_matrix(x: Any, name: str) -> np.ndarray:
    """scikit-learn's ``check_array(x, ensure_2d=False)`` for these two functions: any numeric
    dtype kept as is (object -> float64), 1-D or 2-D, non-empty, finite."""
    if x is None or isinstance(x, (str, bytes)) or np.ndim(x) == 0:
        raise TypeError(f"{name} must be an array-like of shape (n_samples, n_labels); got {x!r}.")
    a = as_real_array(x, name, dtype_error=ValueError)
    if a.ndim > 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_labels); got {a.ndim} dimensions.")
    if a.shape[0] == 0 or (a.ndim == 2 and a.shape[1] == 0):
        raise ValueError(
            f"{name} is empty (shape {a.shape}); at least one sample and one label are needed."
        )
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        what = "NaN" if np.isnan(a).any() else "infinity"
        raise ValueError(f"Input {name} contains {what}.")
    return a


def _sk_inputs(
    y_true: Any, y_score: Any, k: Any, sample_weight: Any, ignore_ties: Any, *, ndcg: bool
) -> tuple[np.ndarray, np.ndarray, int | None, Any, str]:
    k = check_cutoff(k, allow_none=True, allow_bool=True)
    if not isinstance(ignore_ties, (bool, np.bool_)):
        raise TypeError(f"ignore_ties must be a bool; got {ignore_ties!r}.")
    if sample_weight is not None and (
        isinstance(sample_weight, (str, bytes)) or np.ndim(sample_weight) == 0
    ):
        raise TypeError(
            f"sample_weight must be an array-like with one weight per sample; got {sample_weight!r}."
        )
    t = _sk_matrix(y_true, "y_true")
    s = _sk_matrix(y_score, "y_score")
    lengths = [t.shape[0], s.shape[0]]
    if sample_weight is not None:
        lengths.append(len(sample_weight))
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")
    if ndcg:
        if t.min() < 0:
            raise ValueError("ndcg_score should not be used on negative y_true values.")
        if t.ndim > 1 and t.shape[1] <= 1:
            raise ValueError(
                "Computing NDCG is only meaningful when there is more than 1 document. "
                f"Got {t.shape[1]} instead."
            )
    if t.ndim == 1 or t.shape[1] == 1:  # scikit-learn's type_of_target calls these 1-D targets
        raise ValueError(
            "Only ('multilabel-indicator', 'continuous-multioutput', 'multiclass-multioutput') "
            f"formats are supported: y_true must be 2-D, one row per query and at least two "
            f"columns (documents); got shape {t.shape}."
        )
    if s.shape != t.shape:
        raise ValueError(f"y_score must have the shape of y_true {t.shape}; got {s.shape}.")
    w = check_sample_weight(
        sample_weight, t.shape[0], allow_all_zero=True, others="y_true and y_score"
    )
    return t.astype(np.float64, copy=False), s, k, w, "numpy" if ignore_ties else "average"


def dcg_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int | None = None,
    log_base: float = 2,
    sample_weight: Any = None,
    ignore_ties: bool = False,
) -> float:
    """Discounted cumulative gain, averaged over samples (scikit-learn's ``dcg_score``).

    .. math:: DCG@k = \\sum_{i=1}^{k} \\frac{y_{(i)}}{\\log_b(i + 1)}

    where :math:`y_{(i)}` is the true relevance of the item ranked ``i``-th by ``y_score``.
    Tied scores share their mean gain unless ``ignore_ties=True``, which assumes there are no ties
    and takes NumPy's argsort order as it comes (faster; with ties, the DCG of whichever order the
    sort returns).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        True relevance of each item (one row per query).
    y_score : array-like of shape (n_samples, n_labels)
    k : int >= 1, optional
        Only the top ``k`` ranks count.
    log_base : float > 0
        Base of the logarithm in the discount.
    sample_weight : array-like of shape (n_samples,), optional
    ignore_ties : bool

    Returns
    -------
    float

    Examples
    --------
    >>> dcg_score([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]], k=1)  # ties: (10 + 5) / 2
    7.5
    """
    if not isinstance(log_base, Real) or not log_base > 0:
        raise ValueError(f"log_base must be a real number > 0; got {log_base!r}.")
    t, s, k, w, ties = _sk_inputs(y_true, y_score, k, sample_weight, ignore_ties, ndcg=False)
    gain = _dcg(t, s, _discount(t.shape[1], k, log_base), ties, k)
    return float(np.average(gain, weights=w))


def ndcg_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int | None = None,
    sample_weight: Any = None,
    ignore_ties: bool = False,
) -> float:
    """Normalised DCG, averaged over samples (scikit-learn's ``ndcg_score``).

    .. math:: nDCG@k = \\frac{DCG@k(y_\\text{score})}{DCG@k(\\text{ideal order})}

    Each sample's DCG is divided by the DCG of the best possible ranking of its items; a sample
    whose items are all irrelevant scores 0.  Ties: see :func:`dcg_score`.

    Differences from scikit-learn 1.9.1 (none changes a result scikit-learn computes correctly):
    ``y_score`` of another shape than ``y_true`` is refused with a ValueError (scikit-learn raises
    IndexError or a broadcasting error); boolean scores are ranked (scikit-learn raises TypeError
    when it negates them) and unsigned-integer scores are ranked by value (scikit-learn negates
    them, which wraps around).

    Examples
    --------
    >>> ndcg_score([[10, 0, 0, 1, 5]], [[.1, .2, .3, 4, 70]])
    0.6956940443813076
    """
    t, s, k, w, ties = _sk_inputs(y_true, y_score, k, sample_weight, ignore_ties, ndcg=True)
    discount = _discount(t.shape[1], k)
    gain = _normalise(_dcg(t, s, discount, ties, k), _ideal_dcg(t, discount))
    return float(np.average(gain, weights=w))
