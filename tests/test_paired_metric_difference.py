"""``mltutor.stats.paired_metric_difference``: the bootstrap against ``paired_bootstrap``, the t
interval and test against SciPy, the sign-flip test against exact enumeration, coverage and size
by simulation, and the input errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from mltutor.stats import paired_bootstrap, paired_metric_difference

FLOATS = st.floats(-1.0, 1.0, allow_nan=False, width=64)


def _pairs(min_size: int = 2, max_size: int = 40):
    return st.integers(min_size, max_size).flatmap(
        lambda n: st.tuples(
            st.lists(FLOATS, min_size=n, max_size=n), st.lists(FLOATS, min_size=n, max_size=n)
        )
    )


def test_bootstrap_sees_paired_bootstraps_resamples() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.random(57), rng.random(57)
    mine = paired_metric_difference(a, b, n_resamples=500, random_state=11)
    mean_of = lambda t, s: float(np.mean(s))  # noqa: E731
    ref = paired_bootstrap(
        mean_of, np.zeros(57), a, b, n_resamples=500, random_state=11, skip_single_class=False
    )
    np.testing.assert_allclose(mine.distribution, ref.distribution, rtol=0, atol=1e-12)
    assert mine.low == pytest.approx(ref.low, abs=1e-12)
    assert mine.high == pytest.approx(ref.high, abs=1e-12)
    assert mine.difference == pytest.approx(ref.estimate, abs=1e-12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_pairs(), st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]))
def test_t_interval_and_p_value_match_scipy(pair, level) -> None:
    a, b = (np.array(v) for v in pair)
    d = a - b
    r = paired_metric_difference(a, b, confidence_level=level, n_resamples=1, random_state=0)
    assert r.difference == pytest.approx(d.mean(), abs=1e-12)
    if np.ptp(d) <= 1e-9 * max(1.0, np.abs(d).max()):
        return  # no spread: SciPy's t is nan or huge from rounding
    test = sps.ttest_rel(a, b)
    assert r.t_p_value == pytest.approx(test.pvalue, rel=1e-9, abs=1e-13)
    half = sps.t.ppf(0.5 + level / 2, len(d) - 1) * sps.sem(d)
    assert r.t_low == pytest.approx(d.mean() - half, rel=1e-9, abs=1e-12)
    assert r.t_high == pytest.approx(d.mean() + half, rel=1e-9, abs=1e-12)


def test_sign_flip_p_value_matches_exact_enumeration() -> None:
    rng = np.random.default_rng(5)
    for n in (6, 9, 12):
        a, b = rng.random(n), rng.random(n) * 0.8
        d = a - b
        signs = np.array(list(itertools.product([-1.0, 1.0], repeat=n)))
        exact = np.mean(np.abs(signs @ d) >= np.abs(d.sum()) - 1e-12)
        R = 40_000
        r = paired_metric_difference(a, b, n_resamples=R, random_state=n)
        se = np.sqrt(exact * (1 - exact) / R)
        assert abs(r.p_value - exact) <= 4 * se + 1 / R, (n, r.p_value, exact)


def _population(n_queries: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-query nDCG@10-like scores of two systems on a population of queries: bounded in
    [0, 1], skewed, correlated between the systems, B a little better on average."""
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 2, n_queries)
    a = np.clip(difficulty + rng.normal(0, 0.15, n_queries), 0, 1)
    b = np.clip(difficulty + 0.03 + rng.normal(0, 0.15, n_queries), 0, 1)
    return a, b


def test_coverage_by_simulation() -> None:
    """400 samples of 60 queries from a population of 200,000: the 95 % bootstrap and t
    intervals contain the population's mean difference in 95 % +- 3 points of them (the
    binomial standard error of 400 repetitions is 1.1 points; the percentile bootstrap is known
    to cover a little less than promised with few queries)."""
    pop_a, pop_b = _population(200_000, 0)
    truth = float(np.mean(pop_a - pop_b))
    rng = np.random.default_rng(1)
    reps, n = 400, 60
    boot = t_cov = 0
    for _ in range(reps):
        idx = rng.integers(0, pop_a.size, n)
        r = paired_metric_difference(pop_a[idx], pop_b[idx], n_resamples=1000, random_state=rng)
        boot += r.low <= truth <= r.high
        t_cov += r.t_low <= truth <= r.t_high
    assert abs(boot / reps - 0.95) <= 0.03, boot / reps
    assert abs(t_cov / reps - 0.95) <= 0.03, t_cov / reps


def test_size_under_the_null_by_simulation() -> None:
    """Two exchangeable systems (B = A's scores with the same noise law): the randomisation
    test rejects at 5 % in 5 % +- 3 points of 400 samples of 40 queries."""
    rng = np.random.default_rng(2)
    reps, n = 400, 40
    rejected = rejected_t = 0
    for _ in range(reps):
        base = rng.beta(2, 2, n)
        a = np.clip(base + rng.normal(0, 0.1, n), 0, 1)
        b = np.clip(base + rng.normal(0, 0.1, n), 0, 1)
        r = paired_metric_difference(a, b, n_resamples=999, random_state=rng)
        rejected += r.p_value < 0.05
        rejected_t += r.t_p_value < 0.05
    assert abs(rejected / reps - 0.05) <= 0.03, rejected / reps
    assert abs(rejected_t / reps - 0.05) <= 0.03, rejected_t / reps


def test_a_clear_difference_is_found() -> None:
    rng = np.random.default_rng(4)
    a = rng.random(200)
    r = paired_metric_difference(a + 0.05 + rng.normal(0, 0.02, 200), a, random_state=0)
    assert r.low > 0 and r.t_low > 0 and r.p_value < 0.001 and r.t_p_value < 1e-6
    assert r.mean_a - r.mean_b == pytest.approx(r.difference, abs=1e-12)
    assert r.n == 200 and r.distribution.shape == (10_000,)
    assert r.contains(r.difference) and not r.contains(0.0)


def test_identical_systems() -> None:
    a = np.array([0.2, 0.5, 0.9, 0.4])
    r = paired_metric_difference(a, a.copy(), n_resamples=200, random_state=0)
    assert (r.difference, r.low, r.high, r.t_low, r.t_high) == (0.0,) * 5
    assert r.p_value == 1.0 and r.t_p_value == 1.0


def test_constant_nonzero_difference() -> None:
    a = np.array([0.3, 0.5, 0.9, 0.4])
    r = paired_metric_difference(a + 0.1, a, n_resamples=200, random_state=0)
    assert r.t_low == pytest.approx(0.1) and r.t_high == pytest.approx(0.1)
    assert r.t_p_value < 1e-12  # the differences agree up to rounding
    assert r.p_value == pytest.approx(2**-3, abs=0.06)  # only the two all-same flips tie


def test_same_seed_same_result() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.random(30), rng.random(30)
    r1 = paired_metric_difference(a, b, n_resamples=300, random_state=7)
    r2 = paired_metric_difference(list(a), list(b), n_resamples=300, random_state=7)
    assert (r1.low, r1.high, r1.p_value) == (r2.low, r2.high, r2.p_value)


@pytest.mark.parametrize(
    ("a", "b", "error", "match"),
    [
        (np.array([True, False]), np.array([0.1, 0.2]), TypeError, "scores_a has dtype bool"),
        (
            np.array([0.1, 0.2]),
            np.array([1, 2], np.float16),
            TypeError,
            "scores_b has dtype float16",
        ),
        (np.array([0.1, np.nan]), np.array([0.1, 0.2]), ValueError, "scores_a contains nan"),
        (np.array([0.1, 0.2]), np.array([0.1, np.inf]), ValueError, "scores_b contains inf"),
        (np.array([0.1, 0.2, 0.3]), np.array([0.1, 0.2]), ValueError, "same queries"),
        (np.array([0.1]), np.array([0.2]), ValueError, "at least two"),
        (np.array([]), np.array([]), ValueError, "at least two"),
        (np.ones((2, 2)), np.ones((2, 2)), ValueError, "must be 1-D"),
        (np.array(["a", "b"]), np.array([0.1, 0.2]), ValueError, "real numbers"),
        (0.5, np.array([0.1, 0.2]), TypeError, "scores_a must be a 1-D array"),
    ],
)
def test_bad_inputs(a, b, error, match) -> None:
    with pytest.raises(error, match=match):
        paired_metric_difference(a, b)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"confidence_level": 95}, "confidence_level"),
        ({"confidence_level": 0.0}, "confidence_level"),
        ({"n_resamples": 0}, "n_resamples"),
        ({"n_resamples": 10.5}, "n_resamples"),
        ({"random_state": -1}, "random_state"),
    ],
)
def test_bad_parameters(kwargs, match) -> None:
    with pytest.raises((TypeError, ValueError), match=match):
        paired_metric_difference([0.1, 0.2, 0.3], [0.2, 0.2, 0.1], **kwargs)
