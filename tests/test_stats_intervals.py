"""mltutor.stats.proportion_ci against statsmodels' proportion_confint; the confusion-rate helper;
the special functions against SciPy."""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from scipy import special, stats
from statsmodels.stats.proportion import proportion_confint

from mltutor.stats import _special, confusion_rate_intervals, proportion_ci

STATSMODELS_NAME = {
    "wilson": "wilson",
    "clopper-pearson": "beta",
    "agresti-coull": "agresti_coull",
    "jeffreys": "jeffreys",
    "normal": "normal",
}


@st.composite
def proportion_inputs(draw):
    """Scalars or arrays of counts out of 1-5,000 trials; a third of the counts at 0 or nobs."""
    size = draw(st.sampled_from([None, 1, 5, 30]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = () if size is None else (size,)
    nobs = rng.integers(1, draw(st.sampled_from([3, 30, 500, 5000])) + 1, shape)
    count = np.floor(rng.random(shape) * (nobs + 1)).astype(np.int64)
    edge = rng.random(shape)
    count = np.where(edge < 0.15, 0, np.where(edge < 0.3, nobs, count))
    if size is None:
        return int(count), int(nobs)
    return count, nobs


@PROPERTY
@given(
    inputs=proportion_inputs(),
    method=st.sampled_from(list(STATSMODELS_NAME)),
    alpha=st.sampled_from([0.05, 0.1, 0.01, 0.32, 0.5, 1e-4]),
)
def test_proportion_ci_matches_statsmodels(inputs, method, alpha):
    CASES["proportion_ci"] += 1
    count, nobs = inputs
    low, high = proportion_ci(count, nobs, alpha=alpha, method=method)
    ref_low, ref_high = proportion_confint(
        count, nobs, alpha=alpha, method=STATSMODELS_NAME[method]
    )
    if np.isscalar(count):
        assert isinstance(low, float) and isinstance(high, float)
    np.testing.assert_allclose(low, ref_low, rtol=0, atol=1e-10)
    np.testing.assert_allclose(high, ref_high, rtol=0, atol=1e-10)
    assert np.all(low <= high)


@pytest.mark.parametrize("method", list(STATSMODELS_NAME))
def test_edge_counts_as_statsmodels(method):
    for count in (0, 7):
        ours = proportion_ci(count, 7, method=method)
        ref = proportion_confint(count, 7, method=STATSMODELS_NAME[method])
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)
    if method == "clopper-pearson":
        assert proportion_ci(0, 7, method=method)[0] == 0.0
        assert proportion_ci(7, 7, method=method)[1] == 1.0
    if method == "normal":  # the Wald interval has width 0 at the edges: the reason not to use it
        assert proportion_ci(0, 7, method=method) == (0.0, 0.0)


def test_non_integer_counts_and_statsmodels_spellings():
    ours = proportion_ci(2.5, 10.0, method="beta")
    np.testing.assert_allclose(ours, proportion_confint(2.5, 10.0, method="beta"), atol=1e-10)
    ours = proportion_ci(np.array([[1, 2], [3, 4]]), 10, method="agresti_coull")
    ref = proportion_confint(np.array([[1, 2], [3, 4]]), 10, method="agresti_coull")
    np.testing.assert_allclose(ours, ref, atol=1e-12)
    assert ours[0].shape == (2, 2)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(count=5, nobs=3), ValueError, r"count must lie in \[0, nobs\]"),
        (dict(count=-1, nobs=3), ValueError, r"count must lie in \[0, nobs\]"),
        (dict(count=0, nobs=0), ValueError, "nobs must be > 0"),
        (dict(count=np.nan, nobs=3), ValueError, "count must be finite"),
        (
            dict(count=1, nobs=3, alpha=0),
            ValueError,
            "alpha must be a real number strictly between",
        ),
        (dict(count=1, nobs=3, alpha=1.5), ValueError, "alpha"),
        (dict(count=1, nobs=3, method="wald"), ValueError, "method must be one of"),
        (dict(count="3", nobs=3), TypeError, "count must be a number"),
        (dict(count=[1, 2, 3], nobs=[4, 5]), ValueError, "cannot be broadcast"),
    ],
)
def test_bad_input_is_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        proportion_ci(**kwargs)


def test_confusion_rate_intervals_are_proportion_intervals_of_rows_and_columns():
    rng = np.random.default_rng(0)
    cm = rng.integers(0, 40, (4, 4))
    r = confusion_rate_intervals(cm, alpha=0.1, method="clopper-pearson")
    tp = np.diag(cm)
    for rate, count, nobs in [
        (r.recall, tp, cm.sum(1)),
        (r.precision, tp, cm.sum(0)),
        (r.specificity, cm.sum() - cm.sum(0) - cm.sum(1) + tp, cm.sum() - cm.sum(1)),
    ]:
        low, high = proportion_confint(count, nobs, alpha=0.1, method="beta")
        np.testing.assert_allclose(rate.estimate, count / nobs, atol=1e-15)
        np.testing.assert_allclose(rate.low, low, atol=1e-10)
        np.testing.assert_allclose(rate.high, high, atol=1e-10)


def test_confusion_rate_undefined_precision_warns():
    cm = np.array([[5, 0], [3, 0]])  # class 1 never predicted
    with pytest.warns(UserWarning, match=r"precision is undefined \(0/0\) for classes \[1\]"):
        r = confusion_rate_intervals(cm)
    assert np.isnan(r.precision.estimate[1]) and (r.precision.low[1], r.precision.high[1]) == (0, 1)
    with pytest.raises(ValueError, match="square confusion matrix"):
        confusion_rate_intervals(np.ones((2, 3)))
    with pytest.raises(ValueError, match="counts >= 0"):
        confusion_rate_intervals(-np.ones((2, 2)))


def test_special_functions_match_scipy():
    x = np.array([1e-3, 0.3, 0.5, 1, 2.5, 17, 300, 4e4])
    np.testing.assert_allclose(_special.log_gamma(x), special.gammaln(x), rtol=1e-14, atol=1e-13)
    rng = np.random.default_rng(1)
    a, b = rng.uniform(0.5, 300, 200), rng.uniform(0.5, 300, 200)
    u = rng.random(200)
    np.testing.assert_allclose(_special.beta_cdf(u, a, b), special.betainc(a, b, u), atol=1e-12)
    for q in (1e-6, 0.025, 0.5, 0.975):
        np.testing.assert_allclose(_special.beta_ppf(q, a, b), stats.beta.ppf(q, a, b), atol=1e-12)
        assert _special.norm_isf(q) == pytest.approx(stats.norm.isf(q), abs=1e-13)
    for k, n in [(0, 0), (0, 5), (3, 20), (50, 100), (480, 1000)]:
        assert _special.binom_cdf_half(k, n) == pytest.approx(stats.binom.cdf(k, n, 0.5), abs=1e-13)
    assert _special.chi2_1_sf(3.2) == pytest.approx(stats.chi2.sf(3.2, 1), abs=1e-15)
