"""mltutor.curves: nDCG/DCG parity with scikit-learn, P@k / R@k / MAP / MRR / nDCG against
pytrec_eval (trec_eval), and the tie conventions.

trec_eval sorts a query's documents by score, descending, and breaks ties by document id,
descending.  The runs below name column ``j`` ``"d0000j"`` (zero-padded), so its rule is
``ties="last"``.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from _strategies import CASES, PROPERTY, assert_parity, assert_same
from hypothesis import given
from hypothesis import strategies as st

import mltutor.metrics as mlm
from mltutor import curves as R

skm = pytest.importorskip("sklearn.metrics")


# --------------------------------------------------------------------------------------------
# Strategies: small query x document matrices with many ties
# --------------------------------------------------------------------------------------------


@st.composite
def ranking_problems(draw, *, negative: bool = False):
    """(y_true, y_score) of 1-6 queries x 2-8 documents.  Scores come from a few levels (ties) or
    are continuous; relevance is binary, graded (0-3), whole floats, fractional or all zero."""
    n_q = draw(st.integers(1, 6))
    n_d = draw(st.integers(2, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rel_kind = draw(
        st.sampled_from(["binary", "graded", "float_whole", "fractional", "zeros", "bool"])
    )
    if rel_kind == "binary":
        y_true = rng.integers(0, 2, (n_q, n_d))
    elif rel_kind == "graded":
        y_true = rng.integers(0, 4, (n_q, n_d))
    elif rel_kind == "float_whole":
        y_true = rng.integers(0, 5, (n_q, n_d)).astype(float)
    elif rel_kind == "fractional":
        y_true = rng.choice([0.0, 0.5, 1.25, 3.0], (n_q, n_d))
    elif rel_kind == "bool":
        y_true = rng.random((n_q, n_d)) < 0.4
    else:
        y_true = np.zeros((n_q, n_d), dtype=int)
    if negative:
        y_true = y_true.astype(float) - rng.integers(0, 2, (n_q, n_d))
    score_kind = draw(
        st.sampled_from(["levels2", "levels3", "int", "continuous", "constant", "negzero"])
    )
    if score_kind == "levels2":
        y_score = rng.integers(0, 2, (n_q, n_d)).astype(float)
    elif score_kind == "levels3":
        y_score = rng.choice([0.1, 0.5, 0.9], (n_q, n_d))
    elif score_kind == "int":
        y_score = rng.integers(-3, 4, (n_q, n_d))
    elif score_kind == "continuous":
        y_score = rng.normal(size=(n_q, n_d))
    elif score_kind == "negzero":
        y_score = rng.choice([-0.0, 0.0, 1.0], (n_q, n_d))
    else:
        y_score = np.full((n_q, n_d), 0.3)
    return y_true, y_score


@st.composite
def weights(draw, n):
    kind = draw(st.sampled_from(["none", "none", "ints", "floats"]))
    if kind == "none":
        return None
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.integers(1, 4, n) if kind == "ints" else rng.uniform(0.1, 3.0, n)


ks = st.one_of(st.none(), st.integers(1, 10))


# --------------------------------------------------------------------------------------------
# scikit-learn parity
# --------------------------------------------------------------------------------------------


def test_signatures_match_sklearn():
    for name in ("ndcg_score", "dcg_score"):
        ours, theirs = inspect.signature(getattr(mlm, name)), inspect.signature(getattr(skm, name))
        assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
            (p.name, p.kind, p.default) for p in theirs.parameters.values()
        ], name
        assert name in mlm.__all__


@PROPERTY
@given(data=st.data())
def test_ndcg_score_parity(data):
    y_true, y_score = data.draw(ranking_problems())
    k = data.draw(ks)
    ignore_ties = data.draw(st.booleans())
    w = data.draw(weights(y_true.shape[0]))
    CASES["ndcg_score (sklearn parity)"] += 1
    assert_parity(
        skm.ndcg_score,
        mlm.ndcg_score,
        y_true,
        y_score,
        k=k,
        sample_weight=w,
        ignore_ties=ignore_ties,
    )


@PROPERTY
@given(data=st.data())
def test_dcg_score_parity(data):
    y_true, y_score = data.draw(ranking_problems(negative=data.draw(st.booleans())))
    k = data.draw(ks)
    ignore_ties = data.draw(st.booleans())
    log_base = data.draw(st.sampled_from([2, 10, np.e, 1.5, 0.5]))
    w = data.draw(weights(y_true.shape[0]))
    CASES["dcg_score (sklearn parity)"] += 1
    assert_parity(
        skm.dcg_score,
        mlm.dcg_score,
        y_true,
        y_score,
        k=k,
        log_base=log_base,
        sample_weight=w,
        ignore_ties=ignore_ties,
    )


def test_tie_averaging_doc_example():
    true_relevance = np.asarray([[10, 0, 0, 1, 5]])
    tied = np.asarray([[1, 0, 0, 0, 1]])
    assert mlm.dcg_score(true_relevance, tied, k=1) == 7.5  # (10 + 5) / 2
    assert mlm.ndcg_score(true_relevance, tied, k=1) == pytest.approx(0.75, abs=1e-15)
    assert mlm.ndcg_score(true_relevance, tied, k=1, ignore_ties=True) == skm.ndcg_score(
        true_relevance, tied, k=1, ignore_ties=True
    )


@pytest.mark.parametrize(
    "bad",
    [
        dict(y_true=[1, 0, 2], y_score=[0.1, 0.2, 0.3]),  # 1-D
        dict(y_true=[[1], [0]], y_score=[[0.1], [0.2]]),  # one document
        dict(y_true=[[1, -1]], y_score=[[0.1, 0.2]]),  # negative relevance
        dict(y_true=[[1, 0]], y_score=[[np.nan, 0.2]]),  # NaN score
        dict(y_true=[[1, 0]], y_score=[[np.inf, 0.2]]),  # inf score
        dict(y_true=[[1, 0], [0, 1]], y_score=[[0.1, 0.2]]),  # rows differ
        dict(y_true=[[1, 0]], y_score=[[0.1, 0.2]], k=0),  # k < 1
        dict(y_true=[[1, 0]], y_score=[[0.1, 0.2]], k=2.0),  # k not an int
        dict(y_true=[[1, 0]], y_score=[[0.1, 0.2]], ignore_ties=1),  # not a bool
        dict(y_true=[[1, 0]], y_score=[[0.1, 0.2]], sample_weight=[1, 2]),  # weights length
        dict(y_true=[[1, 0]], y_score=[["a", "b"]]),  # strings
        dict(y_true=np.zeros((2, 0)), y_score=np.zeros((2, 0))),  # empty
        dict(y_true=np.zeros((1, 2, 2)), y_score=np.zeros((1, 2, 2))),  # 3-D
        dict(y_true=[[0, 0]], y_score=[[1, 2]], sample_weight=[0]),  # weights sum to 0
    ],
)
def test_ndcg_score_refuses_what_sklearn_refuses(bad):
    args = dict(bad)
    y_true, y_score = args.pop("y_true"), args.pop("y_score")
    ref = assert_parity(skm.ndcg_score, mlm.ndcg_score, y_true, y_score, **args)
    assert ref.error is not None


def test_dcg_score_bad_log_base_and_k_true():
    for log_base in (0, -1.0, "2"):
        ref = assert_parity(skm.dcg_score, mlm.dcg_score, [[1, 0]], [[0.2, 0.1]], log_base=log_base)
        assert ref.error is not None
    # scikit-learn's parameter check counts True as the integer 1
    assert_parity(skm.ndcg_score, mlm.ndcg_score, [[1, 0, 2]], [[0.3, 0.2, 0.1]], k=True)


def test_documented_differences_from_sklearn():
    # y_score of another width: a clear ValueError (scikit-learn: IndexError with ignore_ties)
    with pytest.raises(ValueError, match="shape"):
        mlm.ndcg_score([[1, 0, 2]], [[0.3, 0.2]], ignore_ties=True)
    # unsigned scores are ranked by value: same as the int64 version of the same scores
    y_true, scores = np.array([[0, 1, 3]]), np.array([[0, 1, 2]])
    assert mlm.ndcg_score(y_true, scores.astype(np.uint8)) == mlm.ndcg_score(y_true, scores) == 1.0
    # boolean scores are ranked (scikit-learn raises TypeError when it negates them)
    assert mlm.ndcg_score([[1, 0]], np.array([[True, False]])) == 1.0


def test_large_matrix_fast_path_matches_sklearn():
    """10,000 continuous scores per ... well, 300 x 50 with continuous scores and with ties."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, (300, 50))
    for s in (rng.random((300, 50)), rng.integers(0, 5, (300, 50)).astype(float)):
        for k in (None, 1, 10, 49, 50, 80):
            assert abs(mlm.ndcg_score(y, s, k=k) - skm.ndcg_score(y, s, k=k)) < 1e-12
            assert abs(mlm.dcg_score(y, s, k=k) - skm.dcg_score(y, s, k=k)) < 1e-12


# --------------------------------------------------------------------------------------------
# pytrec_eval (trec_eval) parity
# --------------------------------------------------------------------------------------------

pytrec_eval = pytest.importorskip("pytrec_eval")


def trec(relevance, scores, measures):
    """Run trec_eval on matrices: query q{i}, document d{j:05d}; per-query results."""
    qrels = {
        f"q{i}": {f"d{j:05d}": int(r) for j, r in enumerate(row)} for i, row in enumerate(relevance)
    }
    run = {
        f"q{i}": {f"d{j:05d}": float(s) for j, s in enumerate(row)} for i, row in enumerate(scores)
    }
    result = pytrec_eval.RelevanceEvaluator(qrels, set(measures)).evaluate(run)
    return {m: np.array([result[f"q{i}"][m] for i in range(len(relevance))]) for m in measures}


@st.composite
def trec_problems(draw):
    n_q = draw(st.integers(1, 5))
    n_d = draw(st.integers(1, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    relevance = rng.integers(0, draw(st.sampled_from([2, 4])), (n_q, n_d))
    if draw(st.booleans()):
        scores = rng.integers(0, draw(st.integers(1, 4)), (n_q, n_d)).astype(float)  # many ties
    else:
        scores = rng.normal(size=(n_q, n_d)).round(3)
    return relevance, scores


@PROPERTY
@given(problem=trec_problems(), k=st.sampled_from([1, 2, 3, 5, 10, 15]))
def test_binary_metrics_match_trec_eval(problem, k):
    relevance, scores = problem
    CASES["P@k, R@k, AP, RR, nDCG@k (pytrec_eval parity)"] += 1
    ref = trec(
        relevance,
        scores,
        [f"P_{k}", f"recall_{k}", "map", f"map_cut_{k}", "recip_rank", f"ndcg_cut_{k}"],
    )
    tol = dict(rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        R.precision_at_k(relevance, scores, k, ties="last"), ref[f"P_{k}"], **tol
    )
    np.testing.assert_allclose(
        R.recall_at_k(relevance, scores, k, ties="last"), ref[f"recall_{k}"], **tol
    )
    np.testing.assert_allclose(
        R.average_precision(relevance, scores, ties="last"), ref["map"], **tol
    )
    np.testing.assert_allclose(
        R.average_precision(relevance, scores, k=k, ties="last"), ref[f"map_cut_{k}"], **tol
    )
    np.testing.assert_allclose(
        R.reciprocal_rank(relevance, scores, ties="last"), ref["recip_rank"], **tol
    )
    np.testing.assert_allclose(
        R.ndcg_at_k(relevance, scores, k, ties="last"), ref[f"ndcg_cut_{k}"], **tol
    )
    assert R.mean_average_precision(relevance, scores, ties="last") == pytest.approx(
        ref["map"].mean(), abs=1e-12
    )
    assert R.mean_reciprocal_rank(relevance, scores, ties="last") == pytest.approx(
        ref["recip_rank"].mean(), abs=1e-12
    )


def test_tie_rules():
    relevance = np.array([[0, 1, 0]])
    scores = np.array([[0.5, 0.5, 0.1]])
    # "first": column 0 (not relevant) ranks above column 1 -> the first hit is at rank 2
    assert R.reciprocal_rank(relevance, scores, ties="first").tolist() == [0.5]
    # "last": column 1 ranks above column 0, as trec_eval does with ids d0, d1
    assert R.reciprocal_rank(relevance, scores, ties="last").tolist() == [1.0]
    assert trec(relevance, scores, ["recip_rank"])["recip_rank"].tolist() == [1.0]
    # "average" (nDCG only): the mean over both orders of the tie
    first, last = (
        R.dcg_at_k(relevance, scores, ties="first"),
        R.dcg_at_k(relevance, scores, ties="last"),
    )
    np.testing.assert_allclose(
        R.dcg_at_k(relevance, scores), (first + last) / 2, rtol=0, atol=1e-15
    )
    with pytest.raises(ValueError, match="ties"):
        R.precision_at_k(relevance, scores, 1, ties="average")


def test_recall_at_k_never_falls_precision_may_rise():
    rng = np.random.default_rng(3)
    relevance = rng.integers(0, 2, (50, 20))
    scores = rng.random((50, 20))
    recall = np.stack([R.recall_at_k(relevance, scores, k) for k in range(1, 21)], axis=1)
    precision = np.stack([R.precision_at_k(relevance, scores, k) for k in range(1, 21)], axis=1)
    assert (np.diff(recall, axis=1) >= 0).all()
    assert (np.diff(precision, axis=1) > 0).any()


def test_ranking_inputs_are_checked():
    with pytest.raises(ValueError, match="same shape"):
        R.precision_at_k([[1, 0]], [[0.1, 0.2, 0.3]], 1)
    with pytest.raises(ValueError, match=">= 0"):
        R.average_precision([[1, -1]], [[0.1, 0.2]])
    with pytest.raises(ValueError, match="2-D"):
        R.reciprocal_rank([1, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="k must be"):
        R.precision_at_k([[1, 0]], [[0.1, 0.2]], 0)
    with pytest.raises(ValueError, match="NaN"):
        R.ndcg_at_k([[1, 0]], [[np.nan, 0.2]])
    with pytest.raises(TypeError, match="real numbers"):
        R.recall_at_k([["a", "b"]], [[0.1, 0.2]], 1)


def test_ranked_lists_kernel():
    lists = R._retrieval.ranked_lists([[1, 0, 2, 0]], [[0.1, 0.9, 0.5, 0.3]])
    assert lists.order.tolist() == [[1, 2, 3, 0]]
    assert lists.hits.tolist() == [[0, 1, 1, 2]]
    assert lists.n_relevant.tolist() == [2]
    assert_same(R.precision_at_k([[1, 0, 2, 0]], [[0.1, 0.9, 0.5, 0.3]], 2), np.array([0.5]))
