"""Recalibration maps: temperature scaling, Platt scaling and isotonic regression (PAV).

* temperature: the fitted T is the interior minimum of the NLL (derivative ~0 in beta = 1/T) and
  agrees with scikit-learn's ``_TemperatureScaling`` (Brent on a bounded log-beta) where that one
  is not at its bound; degenerate problems raise instead of returning a bound;
* Platt: agrees with scikit-learn's ``_sigmoid_calibration`` (Platt's smoothed targets) and, with
  ``smoothing=False``, with an unpenalised ``LogisticRegression``;
* isotonic: agrees with ``IsotonicRegression(out_of_bounds='clip')`` to 1e-12 (thresholds and
  predictions, ties in x, weights with zeros);
* the invariants the chapter teaches: temperature and Platt (a > 0) keep the ranking, so binary
  AUC and the argmax do not move; isotonic is only non-decreasing, so it can tie scores and can
  lower a held-out AUC.

Each property test runs >= 1,000 hypothesis cases (``derandomize=True``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from sklearn.calibration import _sigmoid_calibration, _TemperatureScaling
from sklearn.isotonic import IsotonicRegression, isotonic_regression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

import mltutor.calibration as cal

# --------------------------------------------------------------------------------------------
# Temperature scaling
# --------------------------------------------------------------------------------------------


def _nll(z: np.ndarray, y: np.ndarray, w: np.ndarray, t: float) -> float:
    return cal.nll_from_logits(z, y, t, sample_weight=w)


def _beta_slope(z2: np.ndarray, y: np.ndarray, w: np.ndarray, beta: float) -> float:
    """d NLL / d beta, written independently: mean_i (E_softmax(beta z_i)[z_i] - z_iy)."""
    p = cal.softmax(beta * z2)
    return float(np.sum(w * (np.sum(p * z2, axis=1) - z2[np.arange(len(y)), y])) / w.sum())


@st.composite
def logit_problems(draw):
    n = draw(st.integers(2, 60))
    k = draw(st.sampled_from([1, 2, 3, 5]))  # 1: binary 1-D logits
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([0.05, 0.5, 1.0, 3.0, 10.0, 40.0]))
    signal = draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]))
    n_cols = 2 if k == 1 else k
    y = rng.integers(0, n_cols, n)
    z = scale * (signal * np.eye(n_cols)[y] + rng.normal(0, 1, (n, n_cols)))
    if k == 1:
        z = z[:, 1] - z[:, 0]
    w = None
    if draw(st.integers(0, 3)) == 0:
        w = rng.uniform(0, 3, n)
        w[rng.random(n) < 0.2] = 0.0
        if not w.any():
            w[0] = 1.0
    return z, y, w


@PROPERTY
@given(problem=logit_problems())
def test_temperature_is_the_interior_minimum(problem):
    CASES["fit_temperature"] += 1
    z, y, w = problem
    z2 = np.stack([np.zeros_like(z), z], axis=1) if z.ndim == 1 else z
    ww = np.ones(len(y)) if w is None else w
    live = ww > 0
    true_logit = z2[np.arange(len(y)), y]
    try:
        t = cal.fit_temperature(z, y, sample_weight=w)
    except ValueError as exc:
        # Only the problems without an interior optimum may raise.
        all_right = np.all(true_logit[live] >= z2[live].max(axis=1))
        slope0 = np.sum(ww * (z2.mean(axis=1) - true_logit)) / ww.sum()
        assert all_right or slope0 >= 0 or np.all(np.ptp(z2[live], axis=1) == 0), exc
        return
    assert np.isfinite(t) and t > 0
    beta = 1.0 / t
    # first-order condition, on the scale of the logits
    size = np.mean(np.abs(z2 - true_logit[:, None])) + 1e-300
    assert abs(_beta_slope(z2, y, ww, beta)) <= 1e-9 * size
    best = _nll(z, y, ww, t)
    for factor in (1 - 1e-4, 1 + 1e-4):
        assert best <= _nll(z, y, ww, t * factor) + 1e-15
    # scikit-learn (1-D logits become (-z/2, z/2) there)
    x = z / 2 if z.ndim == 1 else z
    sk = _TemperatureScaling().fit(x, y, sample_weight=w)
    sk_t = 1.0 / float(sk.beta_)
    if (
        np.exp(-9.5) < float(sk.beta_) < np.exp(9.5)
    ):  # sklearn's search box is log-beta in (-10, 10)
        assert best <= _nll(z, y, ww, sk_t) + 1e-12 * (1 + best)
        # Brent locates a flat minimum only to ~sqrt(rounding / curvature)
        curvature = cal._maps._beta_derivatives(cal._maps._margins(z2, y, ww), beta)[1]
        slack = np.sqrt(1e-14 * (1 + best) / max(curvature, 1e-300))
        assert abs(beta - float(sk.beta_)) <= 1e-6 * beta + slack


@PROPERTY
@given(problem=logit_problems(), t=st.floats(0.05, 20.0))
def test_temperature_keeps_argmax_and_auc(problem, t):
    CASES["apply_temperature (invariants)"] += 1
    z, y, _ = problem
    p = cal.apply_temperature(z, t)
    if z.ndim == 2:
        np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        assert np.array_equal(p.argmax(axis=1), z.argmax(axis=1))
    elif np.unique(y).size == 2 and np.max(np.abs(z)) / t < 30:  # sigmoid saturates to 1.0 beyond
        assert roc_auc_score(y, p) == roc_auc_score(y, z)


def test_temperature_softens_an_overconfident_model():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 5000)
    z = 4.0 * (1.2 * np.eye(4)[y] + rng.normal(0, 1, (5000, 4)))
    t = cal.fit_temperature(z, y)
    assert t > 2
    before, after = cal.apply_temperature(z, 1.0), cal.apply_temperature(z, t)
    assert cal.expected_calibration_error(y, after) < 0.5 * cal.expected_calibration_error(
        y, before
    )
    assert cal.log_loss(y, after) < cal.log_loss(y, before)
    assert np.array_equal(after.argmax(axis=1), before.argmax(axis=1))


def test_temperature_is_not_clipped_by_a_box():
    """SEED_AUDIT 33: a (0.1, 5) bound returned 4.999.  The optimum here is far above 5."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 3000)
    z = 30.0 * (0.3 * np.eye(3)[y] + rng.normal(0, 1, (3000, 3)))
    t = cal.fit_temperature(z, y)
    assert t > 20
    slope = _beta_slope(z, y, np.ones(3000), 1 / t)
    assert abs(slope) < 1e-9


def test_nll_is_stable_at_extreme_logits():
    z = np.array([[0.0, 800.0], [900.0, 0.0]])
    with np.errstate(divide="ignore"):
        naive = -np.log(
            np.exp(z - z.max(axis=1, keepdims=True))
            / np.exp(z - z.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
        )
    assert np.isinf(naive[0, 0])
    assert cal.nll_from_logits(z, [0, 1]) == pytest.approx(850.0)
    assert cal.log_softmax(z)[0].tolist() == [-800.0, 0.0]
    t = cal.fit_temperature(np.array([[0.0, 800.0], [900.0, 0.0], [0.0, 5.0]]), [1, 0, 0])
    assert np.isfinite(t) and t > 0


@pytest.mark.parametrize(
    "logits, y, match",
    [
        ([[1.0, 2.0], [3.0, 0.0]], [1, 0], "largest logit"),  # every sample right
        ([[1.0, 2.0], [3.0, 0.0]], [0, 1], "T -> infinity"),  # every sample wrong
        ([[1.0, 1.0], [2.0, 2.0]], [0, 1], "equal within every row"),
        ([[1.0, np.nan]], [0], "logits contains NaN"),
        ([[1.0, 2.0]], [2], r"class indices in \[0, 2\)"),
        ([1.0, 2.0], [0, 2], "y_true must be binary"),
        ([[1.0, 2.0]], [0, 1], "inconsistent numbers of samples"),
        ([[1.0, 2.0]], ["a"], "class indices"),
        ([[1.0], [2.0]], [0, 0], "at least 2 columns"),
    ],
)
def test_temperature_refusals(logits, y, match):
    with pytest.raises(ValueError, match=match):
        cal.fit_temperature(logits, y)


def test_temperature_refuses_negative_weights_and_bad_t():
    with pytest.raises(ValueError, match="sample_weight must be >= 0"):
        cal.fit_temperature(
            [[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]], [1, 1, 0], sample_weight=[1, -1, 1]
        )
    for bad in (0.0, -1.0, np.nan):
        with pytest.raises(ValueError, match="temperature must be > 0"):
            cal.apply_temperature([[0.0, 1.0]], bad)


# --------------------------------------------------------------------------------------------
# Platt scaling
# --------------------------------------------------------------------------------------------


def _platt_loss(s, y, w, a, b, smoothing=True):
    w = np.ones_like(s) if w is None else w
    n_pos, n_neg = w[y == 1].sum(), w[y == 0].sum()
    t = np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2)) if smoothing else y
    z = a * s + b
    return float(np.sum(w * (np.logaddexp(0, z) - t * z)))


@st.composite
def score_problems(draw):
    n = draw(st.integers(2, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    mode = draw(st.sampled_from(["normal", "grid", "wide", "constant", "one_class", "separable"]))
    s = rng.normal(0, 1, n)
    y = (
        rng.random(n) < 1 / (1 + np.exp(-draw(st.sampled_from([-2.0, 0.0, 1.0, 3.0])) * s))
    ).astype(np.int64)
    if mode == "grid":
        s = np.round(s * 2) / 2
    elif mode == "wide":
        s = s * 1000.0  # sklearn rescales scores beyond 30
    elif mode == "constant":
        s = np.full(n, 0.7)
    elif mode == "one_class":
        y = np.full(n, draw(st.integers(0, 1)))
    elif mode == "separable":
        y = (s > 0).astype(np.int64)
    w = None
    if draw(st.integers(0, 3)) == 0:
        w = rng.uniform(0.0, 3.0, n)
        w[0] = 1.0
    return s, y, w


@PROPERTY
@given(problem=score_problems())
def test_platt_matches_sklearn_sigmoid_calibration(problem):
    CASES["fit_platt (smoothed targets)"] += 1
    s, y, w = problem
    a, b = cal.fit_platt(s, y, sample_weight=w)
    big_a, big_b = _sigmoid_calibration(s, y, sample_weight=w)
    ours, theirs = _platt_loss(s, y, w, a, b), _platt_loss(s, y, w, -big_a, -big_b)
    assert ours <= theirs + 1e-9 * (1 + abs(theirs))
    np.testing.assert_allclose(
        cal.apply_platt(s, a, b), cal.apply_platt(s, -big_a, -big_b), atol=1e-5
    )
    # our solution is a stationary point to high precision
    total = np.sum(np.ones_like(s) if w is None else w)
    eps = 1e-7 * (1 + abs(a))
    assert _platt_loss(s, y, w, a + eps, b) >= ours - 1e-10 * total
    assert _platt_loss(s, y, w, a - eps, b) >= ours - 1e-10 * total


@PROPERTY
@given(problem=score_problems())
def test_platt_without_smoothing_is_logistic_regression(problem):
    CASES["fit_platt (smoothing=False)"] += 1
    s, y, w = problem
    try:
        a, b = cal.fit_platt(s, y, sample_weight=w, smoothing=False)
    except ValueError as exc:
        ww = np.ones_like(s) if w is None else w
        pos, neg = s[(y == 1) & (ww > 0)], s[(y == 0) & (ww > 0)]
        assert pos.size == 0 or neg.size == 0 or pos.min() >= neg.max() or neg.min() >= pos.max(), (
            exc
        )
        return
    if np.ptp(s) == 0:
        assert a == 0.0
        return
    x = (s - s.mean()) / s.std()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # lbfgs may warn on near-separable data
        lr = LogisticRegression(C=np.inf, tol=1e-12, max_iter=100_000).fit(
            x[:, None], y, sample_weight=w
        )
    ref_a, ref_b = lr.coef_[0, 0] / s.std(), lr.intercept_[0] - lr.coef_[0, 0] * s.mean() / s.std()
    ours, theirs = _platt_loss(s, y, w, a, b, False), _platt_loss(s, y, w, ref_a, ref_b, False)
    assert ours <= theirs + 1e-9 * (1 + abs(theirs))


@PROPERTY
@given(problem=score_problems())
def test_platt_keeps_or_reverses_the_ranking(problem):
    CASES["apply_platt (AUC invariant)"] += 1
    s, y, w = problem
    a, b = cal.fit_platt(s, y, sample_weight=w)
    if np.unique(y).size < 2 or a == 0:
        return
    p = cal.apply_platt(s, a, b)
    if np.unique(p).size != np.unique(s).size:
        return  # the logistic saturated (|a s + b| > 36): floats tie, not the map
    auc_s, auc_p = roc_auc_score(y, s), roc_auc_score(y, p)
    assert auc_p == pytest.approx(auc_s if a > 0 else 1 - auc_s, abs=1e-12)


def test_platt_refusals():
    with pytest.raises(ValueError, match="y_true must be binary"):
        cal.fit_platt([0.1, 0.2, 0.3], [0, 1, 2])
    with pytest.raises(ValueError, match="scores contains NaN"):
        cal.fit_platt([0.1, np.nan], [0, 1])
    with pytest.raises(ValueError, match="separate the two classes"):
        cal.fit_platt([0.1, 0.2, 0.3], [0, 1, 1], smoothing=False)
    with pytest.raises(ValueError, match="one class only"):
        cal.fit_platt([0.1, 0.2, 0.3], [1, 1, 1], smoothing=False)
    with pytest.raises(TypeError, match="smoothing must be True or False"):
        cal.fit_platt([0.1, 0.2], [0, 1], smoothing=1)
    a, b = cal.fit_platt([0.1, 0.2, 0.3], [0, 1, 1])  # smoothing keeps a finite
    assert np.isfinite(a) and a > 0


# --------------------------------------------------------------------------------------------
# Isotonic regression
# --------------------------------------------------------------------------------------------


@st.composite
def isotonic_problems(draw):
    n = draw(st.integers(1, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    mode = draw(st.sampled_from(["continuous", "ties", "few", "constant", "sorted", "reversed"]))
    x = rng.normal(0, 1, n)
    if mode == "ties":
        x = np.round(x * 3) / 3
    elif mode == "few":
        x = rng.integers(0, 3, n).astype(float)
    elif mode == "constant":
        x = np.full(n, 2.5)
    elif mode in ("sorted", "reversed"):
        x = np.sort(x)
    target = draw(st.sampled_from(["binary", "real", "anti"]))
    if target == "binary":
        y = (rng.random(n) < 1 / (1 + np.exp(-2 * x))).astype(float)
    elif target == "real":
        y = x + rng.normal(0, 1, n)
    else:
        y = -x + rng.normal(0, 0.3, n)
    w = None
    choice = draw(st.sampled_from(["none", "none", "float", "int", "zeros"]))
    if choice == "float":
        w = rng.uniform(0.1, 5, n)
    elif choice == "int":
        w = rng.integers(1, 4, n)
    elif choice == "zeros":
        w = rng.uniform(0.1, 5, n)
        w[rng.random(n) < 0.3] = 0.0
        w[rng.integers(0, n)] = 1.0
    return x, y, w


@PROPERTY
@given(problem=isotonic_problems())
def test_isotonic_matches_sklearn(problem):
    CASES["fit_isotonic"] += 1
    x, y, w = problem
    ours = cal.fit_isotonic(x, y, sample_weight=w)
    ref = IsotonicRegression(out_of_bounds="clip").fit(x, y, sample_weight=w)
    assert ours.x_thresholds.shape == ref.X_thresholds_.shape
    np.testing.assert_allclose(ours.x_thresholds, ref.X_thresholds_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.y_thresholds, ref.y_thresholds_, rtol=0, atol=1e-12)
    grid = np.r_[x, np.linspace(x.min() - 1, x.max() + 1, 25)]
    np.testing.assert_allclose(ours(grid), ref.predict(grid), rtol=0, atol=1e-12)
    fitted = ours(np.sort(x))
    assert np.all(np.diff(fitted) >= -1e-15)  # non-decreasing


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 80), weighted=st.booleans())
def test_pool_adjacent_violators_matches_sklearn(seed, n, weighted):
    CASES["pool_adjacent_violators"] += 1
    rng = np.random.default_rng(seed)
    y = rng.normal(0, 1, n) + np.linspace(0, rng.uniform(-3, 3), n)
    if rng.random() < 0.3:
        y = np.round(y)
    w = rng.uniform(0.1, 4, n) if weighted else None
    np.testing.assert_allclose(
        cal.pool_adjacent_violators(y, w),
        isotonic_regression(y, sample_weight=w),
        rtol=0,
        atol=1e-12,
    )


def test_isotonic_creates_ties_and_can_lower_a_held_out_auc():
    rng = np.random.default_rng(7)

    def draw(n):
        s = rng.normal(0, 1, n)
        return s, (rng.random(n) < 1 / (1 + np.exp(-1.5 * s))).astype(int)

    s_fit, y_fit = draw(300)
    s_test, y_test = draw(3000)
    model = cal.fit_isotonic(s_fit, y_fit)
    p = model(s_test)
    assert np.unique(p).size < np.unique(s_test).size / 10  # a few steps: many ties
    assert roc_auc_score(y_test, p) < roc_auc_score(y_test, s_test)
    # ...but never by reversing a pair: strict order in p implies the same order in s
    i, j = np.nonzero(p[:, None] > p[None, :])
    assert np.all(s_test[i] > s_test[j])


def test_isotonic_on_training_data_can_raise_auc():
    """Pooling a mis-ranked pair ties it (counted 1/2 instead of 0)."""
    s, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 1, 0, 1])
    p = cal.fit_isotonic(s, y)(s)
    assert p.tolist() == [0.0, 0.5, 0.5, 1.0]
    assert roc_auc_score(y, p) > roc_auc_score(y, s)


def test_isotonic_refusals():
    with pytest.raises(ValueError, match="sample_weight must be >= 0"):
        cal.fit_isotonic([1.0, 2.0], [0, 1], sample_weight=[1.0, -1.0])
    with pytest.raises(ValueError, match="scores contains NaN"):
        cal.fit_isotonic([1.0, np.nan], [0, 1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        cal.fit_isotonic([1.0, 2.0, 3.0], [0, 1])
    with pytest.raises(ValueError, match="scores must be 1-D"):
        cal.fit_isotonic([[1.0, 2.0], [3.0, 4.0]], [0, 1])
    with pytest.raises(ValueError, match="scores contains NaN"):
        cal.fit_isotonic([1.0, 2.0], [0, 1])([np.nan])
