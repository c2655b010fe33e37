"""APS sets keep classes of probability exactly 0, and the threshold refuses bad scores (issue 24).

Before: with rows ``[1, 0, 0]`` and labels 0, 1, 2 every APS score is 1, ``q̂ = 1``, and the
plain APS set (``mass above < q̂``) held class 0 alone: coverage 0.33 at α = 0.1; probabilities
rounded to two decimals (many exact zeros) covered 0.886.  ``conformal_quantile`` ignored NaN and
raised ``kth out of bounds`` for α = 5.
"""

from __future__ import annotations

import numpy as np
import pytest

from mltutor.conformal import ConformalClassifier, conformal_quantile, conformal_rank, coverage


def test_exact_zero_probabilities_are_covered():
    p = np.tile([1.0, 0.0, 0.0], (200, 1))
    y = np.arange(200) % 3
    sets = ConformalClassifier("aps").fit(p, y, alpha=0.1).predict_sets(p)
    assert coverage(sets, y) >= 0.9


def test_rounded_probabilities_keep_the_marginal_guarantee():
    rng = np.random.default_rng(11)
    n, k = 3000, 8
    z = rng.normal(size=(n, k)) * 3
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    y = (p.cumsum(axis=1) < rng.random((n, 1))).sum(axis=1)
    rounded = np.round(p, 2)  # many exact zeros
    covered = []
    for _ in range(100):
        idx = rng.permutation(n)
        cal, test = idx[:1000], idx[1000:]
        cp = ConformalClassifier("aps").fit(rounded[cal], y[cal], alpha=0.1)
        covered.append(coverage(cp.predict_sets(rounded[test]), y[test]))
    # The guarantee is on average over calibration sets: the mean of 100 draws, with room for
    # the simulation's own noise (standard error about 0.001).
    assert np.mean(covered) >= 0.895


def test_sets_are_never_empty():
    p = np.tile([1.0, 0.0, 0.0], (30, 1))
    y = np.zeros(30, dtype=int)
    cp = ConformalClassifier("aps").fit(p, y, alpha=0.1)
    tests = np.vstack([np.zeros((4, 3)), np.eye(3), [[0.5, 0.5, 0.0]]])
    assert cp.predict_sets(tests).sum(axis=1).min() >= 1
    cp.quantile_ = 0.0  # the smallest threshold possible: the top class stays
    assert cp.predict_sets(tests).sum(axis=1).min() >= 1


@pytest.mark.parametrize(
    "scores, words",
    [
        (np.array([0.1, np.nan, 0.3]), "NaN"),
        (np.array([]), "empty"),
        (np.array(0.5), "0-d array"),
        (np.ones((2, 2)), "1-D"),
    ],
)
def test_conformal_quantile_refuses_bad_scores(scores, words):
    with pytest.raises((ValueError, TypeError), match=words):
        conformal_quantile(scores, 0.1)


@pytest.mark.parametrize("alpha", [5, 0, 1, -0.1, float("nan"), "0.1"])
def test_conformal_quantile_refuses_bad_alpha(alpha):
    with pytest.raises((ValueError, TypeError), match="alpha"):
        conformal_quantile(np.array([0.1, 0.2, 0.3]), alpha)
    with pytest.raises((ValueError, TypeError), match="alpha"):
        conformal_rank(10, alpha)
