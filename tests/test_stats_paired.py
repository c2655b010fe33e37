"""McNemar against statsmodels; DeLong against the O(n^2) structural components, scikit-learn's AUC
and the paired bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from mltutor.stats import delong_roc_test, delong_roc_variance, mcnemar, paired_bootstrap

# --------------------------------------------------------------------------------------------
# McNemar
# --------------------------------------------------------------------------------------------


@st.composite
def paired_predictions(draw):
    """Labels of 1-4 classes (ints or strings) and two models right 0-100 % of the time."""
    n = draw(st.integers(1, 300))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(1, 4))
    y = rng.integers(0, k, n)
    acc_a, acc_b = (
        draw(st.sampled_from([0.0, 0.5, 0.8, 1.0])),
        draw(st.sampled_from([0.0, 0.5, 0.9, 1.0])),
    )
    wrong = (y + 1) % max(k, 2)
    a = np.where(rng.random(n) < acc_a, y, wrong)
    b = np.where(rng.random(n) < acc_b, y, np.where(rng.random(n) < 0.5, a, wrong))
    if draw(st.booleans()):
        names = np.array(["ant", "bee", "cat", "dog", "emu"])
        y, a, b = names[y], names[a], names[b]
    return y, a, b


@PROPERTY
@given(data=paired_predictions(), exact=st.booleans(), correction=st.booleans())
def test_mcnemar_matches_statsmodels(data, exact, correction):
    CASES["mcnemar"] += 1
    y, a, b = data
    with _maybe_warns():
        ours = mcnemar(y, a, b, exact=exact, correction=correction)
    ra, rb = a == y, b == y
    table = np.array([[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]])
    np.testing.assert_array_equal(ours.table, table)
    if not exact and table[0, 1] + table[1, 0] == 0:
        # statsmodels divides by 0 (nan, or inf with the correction); mltutor warns and says NaN
        assert np.isnan(ours.statistic) and np.isnan(ours.pvalue)
        return
    with np.errstate(invalid="ignore", divide="ignore"):
        ref = sm_mcnemar(table, exact=exact, correction=correction)
    np.testing.assert_allclose(ours.statistic, ref.statistic, rtol=0, atol=1e-12, equal_nan=True)
    np.testing.assert_allclose(ours.pvalue, ref.pvalue, rtol=0, atol=1e-12, equal_nan=True)


class _maybe_warns:  # noqa: N801 - a context manager that allows (and ignores) warnings
    def __enter__(self):
        import warnings

        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)


def test_mcnemar_no_discordant_pair():
    y = [0, 1, 1, 0]
    assert mcnemar(y, y, y).pvalue == 1.0
    with pytest.warns(UserWarning, match="undefined"):
        r = mcnemar(y, y, y, exact=False)
    assert np.isnan(r.statistic) and np.isnan(r.pvalue)


@pytest.mark.parametrize(
    "args, error, match",
    [
        (([0, 1], [0, 1, 1], [0, 1]), ValueError, "inconsistent numbers of samples"),
        (([], [], []), ValueError, "empty"),
        ((["a", "b"], [0, 1], [0, 1]), ValueError, "all hold numbers or all hold strings"),
        ((np.zeros((2, 2)), [0, 1], [0, 1]), ValueError, "must be 1-D"),
        (([0, np.nan], [0, 1], [0, 1]), ValueError, "NaN or inf"),
        ((0, [0], [0]), TypeError, "y_true must be an array-like"),
    ],
)
def test_mcnemar_refuses_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        mcnemar(*args)
    with pytest.raises(TypeError, match="exact must be True or False"):
        mcnemar([0], [0], [0], exact=1)


# --------------------------------------------------------------------------------------------
# DeLong
# --------------------------------------------------------------------------------------------


def structural_components(y, s):
    """The definition, O(m n): psi(x, y) = [x > y] + [x = y] / 2 over all positive-negative pairs."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return psi.mean(axis=1), psi.mean(axis=0)  # V10 (one per positive), V01 (one per negative)


def definition_covariance(y, scores):
    comps = [structural_components(y, s) for s in scores]
    v10 = np.stack([c[0] for c in comps])
    v01 = np.stack([c[1] for c in comps])
    aucs = v10.mean(axis=1)
    cov = np.atleast_2d(np.cov(v10)) / v10.shape[1] + np.atleast_2d(np.cov(v01)) / v01.shape[1]
    return aucs, cov


@st.composite
def scored_problems(draw):
    """2-200 samples with at least 2 of each class; scores continuous, coarse (many ties) or
    constant; the second model correlated, independent, equal or reversed."""
    n = draw(st.integers(4, 200))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.random(n) < draw(st.sampled_from([0.1, 0.5, 0.9]))
    y[:2], y[2:4] = True, False
    rng.shuffle(y)
    signal = draw(st.sampled_from([0.0, 0.5, 2.0]))
    a = rng.normal(size=n) + signal * y
    b = {
        "corr": a + rng.normal(size=n),
        "indep": rng.normal(size=n) + signal * y,
        "same": a.copy(),
        "reversed": -a,
    }[draw(st.sampled_from(["corr", "indep", "same", "reversed"]))]
    grain = draw(st.sampled_from([None, 0.5, 2.0, 100.0]))  # rounding creates ties
    if grain is not None:
        a, b = np.round(a * 1 / grain), np.round(b * 1 / grain)
    return y.astype(int), a, b


@PROPERTY
@given(problem=scored_problems())
def test_delong_equals_the_structural_components_definition(problem):
    CASES["delong (O(n^2) structural components)"] += 1
    y, a, b = problem
    aucs, cov = definition_covariance(y, [a, b])
    auc_a, var_a = delong_roc_variance(y, a)
    assert auc_a == pytest.approx(aucs[0], abs=1e-12)
    assert auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert var_a == pytest.approx(cov[0, 0], abs=1e-12)
    with _maybe_warns():
        r = delong_roc_test(y, a, b)
    np.testing.assert_allclose(r.covariance, cov, rtol=0, atol=1e-12)
    assert (r.auc_a, r.auc_b) == pytest.approx(tuple(aucs), abs=1e-12)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    if var > 1e-14:
        z = (aucs[0] - aucs[1]) / np.sqrt(var)
        assert r.z == pytest.approx(z, rel=1e-9, abs=1e-9)
        from scipy.stats import norm

        assert r.pvalue == pytest.approx(2 * norm.sf(abs(z)), rel=1e-9, abs=1e-12)


def test_delong_same_scores_is_undefined():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.7, 0.3, 0.6, 0.9, 0.2])
    with pytest.warns(UserWarning, match="undefined"):
        r = delong_roc_test(y, s, s)
    assert np.isnan(r.z) and np.isnan(r.pvalue) and r.auc_a == r.auc_b == 1.0
    auc_a, auc_b, z, p = r  # unpacks as four numbers
    assert auc_a == 1.0


def test_delong_variance_agrees_with_the_paired_bootstrap_on_large_n():
    """n = 20,000: DeLong's standard error of the AUC difference is within 5 % of the paired
    bootstrap's (2,000 resamples), and the z statistics agree to 0.1."""
    rng = np.random.default_rng(7)
    n = 20_000
    y = (rng.random(n) < 0.3).astype(int)
    a = rng.normal(size=n) + 1.0 * y
    b = 0.6 * a + 0.8 * rng.normal(size=n) + 0.3 * y
    r = delong_roc_test(y, a, b)
    se = np.sqrt(r.covariance[0, 0] + r.covariance[1, 1] - 2 * r.covariance[0, 1])
    boot = paired_bootstrap(
        roc_auc_score, y, a, b, n_resamples=2000, random_state=0, progress=False
    )
    boot_se = np.std(boot.distribution, ddof=1)
    assert abs(se / boot_se - 1) < 0.05
    assert abs(r.z - (r.auc_a - r.auc_b) / boot_se) < 0.1 * abs(r.z) + 0.1
    _, var_a = delong_roc_variance(y, a)
    single = np.sqrt(var_a)
    assert 0.5 < single / se < 5  # sanity: both standard errors are of the same scale


@pytest.mark.parametrize(
    "args, error, match",
    [
        (([0, 1, 1, 0], [0.1, 0.2, 0.3]), ValueError, "inconsistent numbers of samples"),
        (([0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4]), ValueError, "at least 2 samples of each class"),
        (([0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4]), ValueError, "only 0 and 1"),
        (([0, 1, 1, 0], [0.1, np.nan, 0.3, 0.4]), ValueError, "NaN or inf"),
        (([0, 1, 1, 0], ["a", "b", "c", "d"]), ValueError, "real numbers"),
        (([0, 1, 1, 0], np.zeros((4, 2))), ValueError, "must be 1-D"),
    ],
)
def test_delong_refuses_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        delong_roc_variance(*args)
