"""mltutor.conformal: the finite-sample quantile, LAC sets equal to MAPIE 1.6's, APS sets equal to a
per-sample brute force written here (MAPIE's APS always randomises its calibration scores and
treats the last label differently, so its sets are a different definition), and marginal
coverage >= 1 - alpha over many seeded splits."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin

from mltutor.conformal import (
    ConformalClassifier,
    aps_scores,
    conformal_quantile,
    conformal_rank,
    coverage,
    mass_above,
    set_sizes,
)

ALPHAS = [0.01, 0.05, 0.1, 0.2, 0.25, 0.5, 0.9]


@st.composite
def calibrated(draw):
    """Dirichlet probabilities for 2-6 classes (peaked or flat, sometimes rounded to create
    ties), labels drawn from them, 1-300 calibration and 1-100 test samples."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(2, 6))
    n_cal, n_test = draw(st.integers(1, 300)), draw(st.integers(1, 100))
    concentration = draw(st.sampled_from([0.2, 1.0, 5.0]))
    proba = rng.dirichlet(np.full(k, concentration), n_cal + n_test)
    if draw(st.booleans()):
        proba = np.round(proba, 1)
        proba = np.where(proba.sum(1, keepdims=True) == 0, 1.0 / k, proba)
        proba /= proba.sum(1, keepdims=True)
    labels = (rng.random(n_cal + n_test)[:, None] > np.cumsum(proba, axis=1)).sum(axis=1)
    labels = np.minimum(labels, k - 1)
    alpha = draw(st.sampled_from(ALPHAS))
    return proba[:n_cal], labels[:n_cal], proba[n_cal:], labels[n_cal:], alpha


# --------------------------------------------------------------------------------------------
# The quantile
# --------------------------------------------------------------------------------------------


@PROPERTY
@given(n=st.integers(1, 2000), alpha=st.floats(1e-4, 0.9999), seed=st.integers(0, 2**32 - 1))
def test_quantile_is_the_k_th_smallest_score(n, alpha, seed):
    CASES["conformal_quantile"] += 1
    scores = np.random.default_rng(seed).random(n)
    k = conformal_rank(n, alpha)
    exact = (n + 1) * (1 - Fraction(repr(alpha)))
    assert k - 1 < exact <= k
    q = conformal_quantile(scores, alpha)
    if alpha < 1 / (n + 1):
        assert k > n and q == math.inf
    else:
        assert q == np.sort(scores)[k - 1] == np.quantile(scores, k / n, method="lower")


def test_rank_is_exact_where_floats_round_up():
    # 1 - 0.7 is 0.30000000000000004 in floats: (n + 1) * (1 - alpha) lands just above 3 for n = 9
    assert math.ceil((9 + 1) * (1 - 0.7)) == 4
    assert conformal_rank(9, 0.7) == 3


def test_tiny_alpha_gives_every_class():
    proba = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]])
    for score in ("lac", "aps"):
        cp = ConformalClassifier(score).fit(proba, [0, 1, 0], alpha=0.2)  # 1/(n+1) = 0.25
        assert cp.quantile_ == math.inf and cp.predict_sets(proba).all()


# --------------------------------------------------------------------------------------------
# LAC against MAPIE
# --------------------------------------------------------------------------------------------


class _Identity(ClassifierMixin, BaseEstimator):
    """A 'fitted model' whose probabilities are its input: MAPIE then sees our probabilities."""

    def fit(self, X, y):  # noqa: ARG002
        self.classes_ = np.arange(X.shape[1])
        self.n_features_in_ = X.shape[1]
        return self

    def predict_proba(self, X):
        return np.asarray(X)

    def predict(self, X):
        return np.argmax(X, axis=1)


@settings(PROPERTY, max_examples=3000)
@given(problem=calibrated())
def test_lac_sets_equal_mapie(problem):
    from mapie.classification import SplitConformalClassifier

    cal_p, cal_y, test_p, _, alpha = problem
    k = cal_p.shape[1]
    # MAPIE needs every class in its calibration labels and a finite quantile
    n = len(cal_y)
    if n <= max(1 / alpha, 1 / (1 - alpha)) or set(cal_y.tolist()) != set(range(k)):
        return  # MAPIE refuses these (too few samples, or a class missing from cal_y)
    if conformal_rank(n, alpha) != math.ceil((n + 1) * (1 - alpha)):
        return  # MAPIE's float rank is one higher here (see test_rank_is_exact_where_floats_round_up)
    ours = ConformalClassifier("lac").fit(cal_p, cal_y, alpha)
    sets = ours.predict_sets(test_p)
    # MAPIE includes a class when 1 - p <= q + 1e-8; skip draws with a test score that close to q
    if np.any(np.abs((1 - test_p) - ours.quantile_) <= 1e-8):
        return
    CASES["ConformalClassifier (lac vs MAPIE)"] += 1  # counted only when compared
    est = _Identity().fit(cal_p, cal_y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mapie = SplitConformalClassifier(
            est, confidence_level=1 - alpha, conformity_score="lac", prefit=True
        ).conformalize(cal_p, cal_y)
        _, ref = mapie.predict_set(test_p)
    np.testing.assert_array_equal(sets, ref[:, :, 0])


# --------------------------------------------------------------------------------------------
# APS against the definition, one sample at a time
# --------------------------------------------------------------------------------------------


def aps_brute_force(proba, labels, test_proba, alpha, u_cal=None, u_test=None):
    """Romano et al.'s APS written out: rank classes, add masses down to the true class."""

    def score(p, y, u):
        order = sorted(range(len(p)), key=lambda j: (-p[j], j))
        total = 0.0
        for j in order:
            total += p[j]
            if j == y:
                return total - (u * p[j] if u is not None else 0.0)
        raise AssertionError

    n = len(labels)
    cal = sorted(score(proba[i], labels[i], None if u_cal is None else u_cal[i]) for i in range(n))
    k = math.ceil((n + 1) * (1 - Fraction(repr(alpha))))
    q = math.inf if k > n else cal[k - 1]

    def above(p, y):  # mass of the classes ranked strictly above y
        return score(p, y, None) - p[y]

    if u_test is None:  # Romano et al.'s plain sets: down to the class that reaches q, included
        return np.array([[above(p, j) < q for j in range(len(p))] for p in test_proba])
    return np.array(
        [[score(p, j, u_test[i]) <= q for j in range(len(p))] for i, p in enumerate(test_proba)]
    )


@PROPERTY
@given(problem=calibrated(), randomized=st.booleans(), seed=st.integers(0, 1000))
def test_aps_sets_equal_the_brute_force(problem, randomized, seed):
    CASES["ConformalClassifier (aps vs brute force)"] += 1
    cal_p, cal_y, test_p, _, alpha = problem
    cp = ConformalClassifier("aps", randomized=randomized, random_state=seed).fit(
        cal_p, cal_y, alpha
    )
    sets = cp.predict_sets(test_p)
    u_cal = u_test = None
    if randomized:  # the same uniforms, drawn in the same order
        rng = np.random.default_rng(seed)
        u_cal, u_test = rng.random(len(cal_y)), rng.random(len(test_p))
    ref = aps_brute_force(cal_p, cal_y, test_p, alpha, u_cal, u_test)
    # cumulative sums may differ in the last bit from the loop's; only scores within 1e-12 of the
    # threshold could flip, and we leave those entries out
    scores = aps_scores(test_p, u_test) if randomized else mass_above(test_p)
    clear = np.abs(scores - cp.quantile_) > 1e-12
    np.testing.assert_array_equal(sets[clear], ref[clear])


def test_plain_aps_sets_are_never_empty_and_contain_the_score_sets():
    rng = np.random.default_rng(5)
    proba = rng.dirichlet(np.full(4, 0.3), 600)
    labels = rng.integers(0, 4, 600)
    cp = ConformalClassifier("aps").fit(proba[:300], labels[:300], 0.3)
    sets = cp.predict_sets(proba[300:])
    assert set_sizes(sets).min() >= 1
    assert np.all(sets >= (aps_scores(proba[300:]) <= cp.quantile_))


def test_aps_sets_grow_with_uncertainty_and_lac_sets_do_not_need_to():
    peaked = np.array([[0.97, 0.01, 0.01, 0.01]])
    flat = np.array([[0.3, 0.25, 0.25, 0.2]])
    rng = np.random.default_rng(0)
    cal = rng.dirichlet(np.ones(4), 400)
    labels = np.array([rng.choice(4, p=p) for p in cal])
    cp = ConformalClassifier("aps").fit(cal, labels, 0.1)
    assert set_sizes(cp.predict_sets(flat))[0] > set_sizes(cp.predict_sets(peaked))[0]


# --------------------------------------------------------------------------------------------
# The guarantee: marginal coverage >= 1 - alpha
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("score, randomized", [("lac", False), ("aps", False), ("aps", True)])
@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.2])
def test_marginal_coverage_over_many_splits(score, randomized, alpha):
    """400 seeded splits of 5,000 samples (n = 100 calibration, the rest test): the mean coverage
    is >= 1 - alpha and <= 1 - alpha + 1/(n+1), up to 4 standard errors of the mean."""
    rng = np.random.default_rng(42)
    k, n_all, n_cal, splits = 5, 5000, 100, 400
    logits = rng.normal(size=(n_all, k)) * 1.5
    proba = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    # labels from a *different* (sharper) distribution: the model is miscalibrated on purpose
    truth = np.exp(2 * logits) / np.exp(2 * logits).sum(1, keepdims=True)
    labels = (rng.random(n_all)[:, None] > np.cumsum(truth, axis=1)).sum(axis=1).clip(0, k - 1)
    covered = np.empty(splits)
    for s in range(splits):
        perm = np.random.default_rng(s).permutation(n_all)
        cal, test = perm[:n_cal], perm[n_cal:]
        cp = ConformalClassifier(score, randomized=randomized, random_state=s)
        sets = cp.fit(proba[cal], labels[cal], alpha).predict_sets(proba[test])
        covered[s] = coverage(sets, labels[test])
    se = covered.std(ddof=1) / np.sqrt(splits)
    assert covered.mean() >= 1 - alpha - 4 * se
    if not (score == "aps" and not randomized):  # plain APS keeps the crossing class: conservative
        assert covered.mean() <= 1 - alpha + 1 / (n_cal + 1) + 4 * se


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "proba, labels, alpha, error, match",
    [
        (np.ones((3, 1)), [0, 0, 0], 0.1, ValueError, "at least 2 class columns"),
        (np.full((3, 2), 0.5), [0, 1], 0.1, ValueError, "inconsistent numbers of samples"),
        (np.full((3, 2), 0.5), [0, 1, 2], 0.1, ValueError, r"must lie in \[0, 1\]"),
        (np.full((3, 2), 0.5), [0, 1, 1], 0.0, ValueError, "alpha must be a real number"),
        (np.full((3, 2), 1.5), [0, 1, 1], 0.1, ValueError, r"probabilities in \[0, 1\]"),
        (np.full((3, 2), np.nan), [0, 1, 1], 0.1, ValueError, "NaN or inf"),
        (np.full(3, 0.5), [0, 1, 1], 0.1, ValueError, "must be 2-D"),
        (np.full((3, 2), 0.5), ["a", "b", "a"], 0.1, ValueError, "integer class indices"),
        (np.full((0, 2), 0.5), [], 0.1, ValueError, "empty"),
    ],
)
def test_fit_refuses_bad_input(proba, labels, alpha, error, match):
    with pytest.raises(error, match=match):
        ConformalClassifier().fit(proba, labels, alpha)


def test_other_refusals():
    with pytest.raises(ValueError, match="score must be one of"):
        ConformalClassifier("raps")
    with pytest.raises(ValueError, match="score='aps' only"):
        ConformalClassifier("lac", randomized=True)
    with pytest.raises(RuntimeError, match="before predict_sets"):
        ConformalClassifier().predict_sets(np.full((2, 2), 0.5))
    cp = ConformalClassifier().fit(np.full((3, 2), 0.5), [0, 1, 1], 0.5)
    with pytest.raises(ValueError, match="calibration data had 2"):
        cp.predict_sets(np.full((2, 3), 0.3))
    with pytest.raises(ValueError, match="boolean matrix"):
        coverage(np.ones((2, 2)), [0, 1])
