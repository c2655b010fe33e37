"""mltutor.monitoring against scikit-learn, scipy, river and QuaPy; its alarms' bounds simulated.

river (0.26.1) and QuaPy (0.2.3) are optional test dependencies: their tests skip without them.
"""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest
from _strategies import CASES
from scipy import integrate, stats
from sklearn import metrics as skm

from mltutor import monitoring as mon

SK = {
    "accuracy": lambda t, p, **k: skm.accuracy_score(t, p),
    "precision": skm.precision_score,
    "recall": skm.recall_score,
    "f1": skm.f1_score,
    "balanced_accuracy": lambda t, p, **k: skm.balanced_accuracy_score(t, p),
}


def _sk(metric, t, p, average, zero_division):
    if metric in ("accuracy", "balanced_accuracy"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return SK[metric](t, p)
    return SK[metric](t, p, average=average, zero_division=zero_division)


def _stream(rng, n, k, p_right=0.6):
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < p_right, t, rng.integers(0, k, n))
    return t, p


# ---------------------------------------------------------------- rolling and tumbling windows
@pytest.mark.parametrize("metric", list(SK))
@pytest.mark.parametrize("average", ["binary", "macro"])
@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_rolling_equals_sklearn_on_each_window(metric, average, zero_division):
    rng = np.random.default_rng(zlib.crc32(f"{metric}-{average}".encode()))
    for case in range(6):
        k = 2 if average == "binary" else int(rng.integers(2, 5))
        n, window = int(rng.integers(1, 40)), int(rng.integers(1, 12))
        t, p = _stream(rng, n, k, p_right=rng.random())
        got = mon.rolling_score(metric, t, p, window, average=average, zero_division=zero_division)
        for i in range(n):
            s = slice(max(0, i - window + 1), i + 1)
            want = _sk(metric, t[s], p[s], average, zero_division)
            np.testing.assert_allclose(got[i], want, rtol=1e-12, err_msg=f"case {case} i={i}")
            CASES["rolling_score (windows vs scikit-learn)"] += 1


@pytest.mark.parametrize("metric", list(SK))
@pytest.mark.parametrize("average", ["binary", "macro"])
def test_ewm_equals_sklearn_with_decaying_weights(metric, average):
    rng = np.random.default_rng(zlib.crc32(f"ewm-{metric}-{average}".encode()))
    for case in range(4):
        k = 2 if average == "binary" else int(rng.integers(2, 5))
        n, halflife = int(rng.integers(1, 40)), float(rng.uniform(0.5, 20))
        t, p = _stream(rng, n, k, p_right=rng.random())
        got = mon.ewm_score(metric, t, p, halflife, average=average, zero_division=0.0)
        d = 0.5 ** (1 / halflife)
        for i in range(n):
            w = d ** (i - np.arange(i + 1))
            if metric in ("accuracy", "balanced_accuracy"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fn = skm.accuracy_score if metric == "accuracy" else skm.balanced_accuracy_score
                    want = fn(t[: i + 1], p[: i + 1], sample_weight=w)
            else:
                want = SK[metric](
                    t[: i + 1], p[: i + 1], average=average, zero_division=0.0, sample_weight=w
                )
            np.testing.assert_allclose(got[i], want, rtol=1e-9, err_msg=f"case {case} i={i}")
            CASES["ewm_score"] += 1


def test_rolling_warns_once_with_zero_division_warn():
    with pytest.warns(UserWarning, match="ill-defined"):
        out = mon.rolling_score("precision", [1, 0, 0, 1], [0, 0, 0, 1], window=2)
    np.testing.assert_allclose(out, [0.0, 0.0, 0.0, 1.0])


def test_rolling_string_labels_and_pos_label():
    t = np.array(["a", "b", "b", "a", "b"])
    p = np.array(["a", "a", "b", "b", "b"])
    got = mon.rolling_score("recall", t, p, 3, pos_label="b", zero_division=0)
    want = [
        skm.recall_score(
            t[max(0, i - 2) : i + 1], p[max(0, i - 2) : i + 1], pos_label="b", zero_division=0
        )
        for i in range(5)
    ]
    np.testing.assert_allclose(got, want)


RIVER = {
    ("accuracy", "binary"): "Accuracy",
    ("precision", "binary"): "Precision",
    ("recall", "binary"): "Recall",
    ("f1", "binary"): "F1",
    ("precision", "macro"): "MacroPrecision",
    ("recall", "macro"): "MacroRecall",
    ("f1", "macro"): "MacroF1",
    ("balanced_accuracy", "macro"): "BalancedAccuracy",
}


@pytest.mark.parametrize("key", list(RIVER), ids=lambda k: "-".join(k))
def test_rolling_equals_river(key):
    river = pytest.importorskip("river")
    from river import metrics as rm
    from river import utils as ru

    metric, average = key
    rng = np.random.default_rng(7)
    for case in range(5):
        k = 2 if average == "binary" else int(rng.integers(2, 5))
        n, window = 200, int(rng.integers(1, 40))
        t, p = _stream(rng, n, k, p_right=rng.random())
        got = mon.rolling_score(metric, t, p, window, average=average, zero_division=0.0)
        roll = ru.Rolling(getattr(rm, RIVER[key]), window_size=window)
        want = []
        for a, b in zip(t.tolist(), p.tolist()):
            roll.update(a, b)
            want.append(roll.get())
        np.testing.assert_allclose(
            got, want, rtol=1e-9, atol=1e-12, err_msg=f"river {river.__version__} case {case}"
        )
        CASES["rolling_score (streams vs river)"] += 1


def test_mean_of_batch_f1_is_not_window_f1():
    # The post's monitor: mean of per-batch F1 against the F1 of the pooled window.
    t = np.array([1, 0, 0, 0, 1, 1, 1, 1])
    p = np.array([1, 1, 1, 1, 1, 1, 1, 0])
    per_batch = [skm.f1_score(t[i : i + 4], p[i : i + 4]) for i in (0, 4)]
    pooled = mon.rolling_score("f1", t, p, 8)[-1]
    assert pooled == pytest.approx(skm.f1_score(t, p))
    assert np.mean(per_batch) != pytest.approx(pooled)


@pytest.mark.parametrize("by", ["prediction", "label"])
def test_tumbling_equals_sklearn_with_delayed_labels(by):
    rng = np.random.default_rng(3 if by == "label" else 4)
    for _case in range(8):
        n = int(rng.integers(5, 80))
        t, p = _stream(rng, n, 2)
        times = np.sort(rng.uniform(0, 20, n))
        delay = rng.exponential(5, n)
        as_of = float(rng.uniform(5, 40))
        width = float(rng.uniform(1, 6))
        r = mon.tumbling_score(
            "f1",
            t,
            p,
            times,
            width,
            label_times=times + delay,
            as_of=as_of,
            by=by,
            zero_division=0.0,
        )
        key = times if by == "prediction" else times + delay
        idx = np.floor((key - times.min()) / width).astype(int)
        known = times + delay <= as_of
        for j in range(r.start.size):
            m = (idx == j) & known
            assert r.n_labelled[j] == m.sum()
            assert r.n_predicted[j] == (idx == j).sum()
            if m.any():
                assert r.value[j] == pytest.approx(skm.f1_score(t[m], p[m], zero_division=0))
            else:
                assert np.isnan(r.value[j])
            CASES["tumbling_score"] += 1


def test_tumbling_refuses_label_before_prediction():
    with pytest.raises(ValueError, match="precede"):
        mon.tumbling_score("accuracy", [1, 0], [1, 0], [0, 1], 1, label_times=[0, 0.5])


# ---------------------------------------------------------------- CUSUM
def _cusum_loop(x, p0, p1):
    s, out = 0.0, []
    for v in x:
        s = max(0.0, s + (np.log(p1 / p0) if v else np.log((1 - p1) / (1 - p0))))
        out.append(s)
    return np.array(out)


def test_cusum_equals_its_recursion():
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = (rng.random(int(rng.integers(1, 200))) < rng.random()).astype(int)
        p0, p1 = sorted(rng.uniform(0.01, 0.9, 2))
        r = mon.bernoulli_cusum(x, p0, p1, threshold=2.0)
        np.testing.assert_allclose(r.statistic, _cusum_loop(x, p0, p1), atol=1e-9)
        CASES["bernoulli_cusum"] += 1
        hits = np.flatnonzero(r.statistic >= 2.0)
        assert r.alarm == (hits[0] if hits.size else -1)


@pytest.mark.parametrize("p_true", [0.10, 0.07])
def test_cusum_false_alarms_within_the_stated_bound(p_true):
    # In control (rate <= p0), a year of daily checks: P(any alarm in 365) <= alpha.
    alpha, horizon, reps = 0.05, 365, 4000
    h = mon.cusum_threshold(horizon, alpha)
    x = np.random.default_rng(1).random((reps, horizon)) < p_true
    r = mon.bernoulli_cusum(x, 0.10, 0.20, h)
    rate = np.mean(r.alarm >= 0)
    assert rate <= alpha  # simulated about 0.003 here: the union bound is loose
    # ... and it does detect: after a shift to 0.2, most streams alarm within the year.
    y = np.random.default_rng(2).random((reps, horizon)) < 0.20
    assert np.mean(mon.bernoulli_cusum(y, 0.10, 0.20, h).alarm >= 0) > 0.9


# ---------------------------------------------------------------- anytime-valid monitor and CS
def test_error_rate_monitor_statistic_equals_quadrature():
    p0 = 0.2
    x = np.array([1, 0, 0, 1, 1, 0, 1, 1, 0, 1])
    r = mon.error_rate_monitor(x, p0)
    for t in range(1, x.size + 1):
        s, f = x[:t].sum(), t - x[:t].sum()
        num, _ = integrate.quad(lambda q: q**s * (1 - q) ** f, p0, 1, epsabs=1e-14)
        want = np.log(num / (1 - p0)) - s * np.log(p0) - f * np.log(1 - p0)
        assert r.statistic[t - 1] == pytest.approx(want, rel=1e-8)


@pytest.mark.parametrize("p_true", [0.10, 0.05])
def test_error_rate_monitor_ever_alarms_at_most_alpha(p_true):
    alpha, horizon, reps = 0.05, 1000, 2000
    x = np.random.default_rng(5).random((reps, horizon)) < p_true
    rate = np.mean(mon.error_rate_monitor(x, 0.10, alpha).alarm >= 0)
    # Ville: P(ever) <= alpha; 3 Monte-Carlo standard errors of slack.
    assert rate <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / reps)


def test_confidence_sequence_covers_at_every_time_at_once():
    alpha, horizon, reps, p = 0.05, 500, 2000, 0.3
    x = np.random.default_rng(6).random((reps, horizon)) < p
    cs = mon.proportion_confidence_sequence(x, alpha)
    ever_out = ((cs.lower > p) | (cs.upper < p)).any(axis=1).mean()
    assert ever_out <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / reps)
    assert (cs.lower <= cs.upper).all() and (cs.lower >= 0).all() and (cs.upper <= 1).all()


def test_confidence_sequence_ends_are_where_the_ratio_reaches_one_over_alpha():
    from scipy.special import betaln

    x = np.array([0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1])
    cs = mon.proportion_confidence_sequence(x, 0.1)
    s, f = x.sum(), x.size - x.sum()

    def ratio(q):
        return betaln(0.5 + s, 0.5 + f) - betaln(0.5, 0.5) - s * np.log(q) - f * np.log(1 - q)

    assert ratio(cs.lower[-1]) == pytest.approx(np.log(10), abs=1e-9)
    assert ratio(cs.upper[-1]) == pytest.approx(np.log(10), abs=1e-9)


def test_naive_threshold_rule_cries_wolf():
    # A model that never changed (accuracy 0.85), daily windows of 200: "alert if < 0.82".
    acc = np.random.default_rng(8).binomial(200, 0.85, (2000, 365)) / 200
    assert np.mean((acc < 0.82).any(axis=1)) > 0.9


# ---------------------------------------------------------------- label shift
def _random_case(rng):
    k = int(rng.integers(2, 6))
    n = int(rng.integers(5, 300))
    proba = rng.dirichlet(np.full(k, rng.uniform(0.2, 3)), n)
    prior = rng.dirichlet(np.ones(k))
    if rng.random() < 0.15:
        prior[0] = 0.0
        prior /= prior.sum()
    return proba, prior


def test_em_equals_quapy_emq():
    import matplotlib

    # Importing QuaPy 0.2.3 rewrites matplotlib's global rcParams (dpi 200, font size 18):
    # keep that out of every later test in this process.
    with matplotlib.rc_context():
        pytest.importorskip("quapy")
        from quapy.method.aggregative import EMQ

    rng = np.random.default_rng(11)
    for case in range(300):
        proba, prior = _random_case(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want, posteriors = EMQ.EM(prior.copy(), proba)
        got = mon.em_prior_shift(proba, prior)
        np.testing.assert_allclose(got.prior, want, rtol=0, atol=1e-12, err_msg=f"case {case}")
        np.testing.assert_allclose(got.posteriors, posteriors, atol=1e-12)
        CASES["em_prior_shift"] += 1


def test_em_default_rule_stops_near_but_not_at_the_fixed_point():
    rng = np.random.default_rng(12)
    gaps = []
    for _ in range(300):
        proba, prior = _random_case(rng)
        quick = mon.em_prior_shift(proba, prior).prior
        full = mon.em_prior_shift(proba, prior, tol=1e-12, max_iter=200_000)
        assert full.converged
        gaps.append(np.abs(quick - full.prior).max())
    # 0.061 at worst on these 300 cases (the docstring's figure): not the converged answer.
    assert 0.05 < max(gaps) < 0.07


def test_em_recovers_a_shifted_prior_from_calibrated_posteriors():
    # Two Gaussian classes; Bayes posteriors at the training prior 0.5; target prior 0.2.
    rng = np.random.default_rng(13)
    y = rng.random(20_000) < 0.2
    x = rng.normal(np.where(y, 1.5, 0.0), 1.0)
    p1 = 1 / (1 + np.exp(-(1.5 * x - 1.125)))
    got = mon.em_prior_shift(p1, [0.5, 0.5], tol=1e-10, max_iter=10_000).prior
    assert got[1] == pytest.approx(0.2, abs=0.01)


def test_bbse_binary_is_the_adjusted_count():
    rng = np.random.default_rng(14)
    for _ in range(50):
        yv = rng.integers(0, 2, 300)
        pv = np.where(rng.random(300) < 0.8, yv, 1 - yv)
        pt = rng.integers(0, 2, 200)
        tpr, fpr = pv[yv == 1].mean(), pv[yv == 0].mean()
        acc = np.clip((pt.mean() - fpr) / (tpr - fpr), 0, 1)
        assert mon.bbse_prior_shift(yv, pv, pt)[1] == pytest.approx(acc)
        CASES["bbse_prior_shift"] += 1


def test_bbse_recovers_the_prior_exactly_when_the_target_is_a_reweighting():
    # Target built from the validation set by repeating each class-j sample w_j times.
    rng = np.random.default_rng(15)
    yv = np.repeat([0, 1, 2], 60)
    pv = np.where(rng.random(180) < 0.7, yv, rng.integers(0, 3, 180))
    w = np.array([1, 3, 2])
    pt = np.repeat(pv, w[yv])
    want = np.bincount(np.repeat(yv, w[yv])) / pt.size
    np.testing.assert_allclose(mon.bbse_prior_shift(yv, pv, pt), want, atol=1e-12)


def test_estimate_performance_is_the_expectation_under_calibration():
    rng = np.random.default_rng(16)
    p = rng.beta(0.6, 0.6, 300)
    est = mon.estimate_performance(p)
    y = rng.random((4000, p.size)) < p  # labels drawn from the probabilities
    pred = p >= 0.5
    acc = (y == pred).mean(axis=1)
    tp = (y & pred).sum(axis=1)
    assert est.accuracy == pytest.approx(acc.mean(), abs=0.002)
    assert est.accuracy == pytest.approx(np.maximum(p, 1 - p).mean())
    assert tp.mean() == pytest.approx(p[pred].sum(), rel=0.01)


# ---------------------------------------------------------------- drift
def test_ks_equals_scipy_ks_2samp_with_ties():
    rng = np.random.default_rng(17)
    for _case in range(200):
        a = rng.integers(0, 8, int(rng.integers(1, 60))) * rng.choice([1.0, 0.5])
        b = rng.integers(0, 8, int(rng.integers(1, 60))) + rng.choice([0.0, 0.5])
        assert mon.ks_statistic(a, b) == pytest.approx(stats.ks_2samp(a, b).statistic, abs=1e-15)
        CASES["ks_statistic"] += 1


def test_psi_by_hand():
    ref = np.arange(1, 101, dtype=float)
    cur = np.concatenate([np.arange(1, 51), np.arange(1, 51)]).astype(float)
    # Quartile bins of ref: (-inf, 25.75], ..., shares ref 0.25 each; cur 0.5, 0.5, 0, 0 -> eps.
    r = np.full(4, 0.25)
    c = np.array([0.5, 0.5, 1e-4, 1e-4])
    assert mon.psi(ref, cur, bins=4) == pytest.approx(np.sum((c - r) * np.log(c / r)))
    assert mon.psi(ref, ref) == 0.0


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: mon.rolling_score("auc", [1], [1], 1), "metric"),
        (lambda: mon.rolling_score("f1", [1], [1], 0), "window"),
        (lambda: mon.rolling_score("f1", [1, 0], [1], 1), "inconsistent"),
        (lambda: mon.rolling_score("f1", [1], [1], 1, average="micro"), "average"),
        (lambda: mon.bernoulli_cusum([0, 2], 0.1, 0.2, 1.0), "only 0 and 1"),
        (lambda: mon.bernoulli_cusum([0, 1], 0.1, 0.1, 1.0), "differ"),
        (lambda: mon.error_rate_monitor([0, 1], 1.5), "baseline"),
        (lambda: mon.cusum_threshold(365, 0), "alpha"),
        (lambda: mon.em_prior_shift([[0.5, 0.6]], [0.5, 0.5]), "sum to 1"),
        (lambda: mon.em_prior_shift([[0.5, 0.5]], [0.5, 0.6]), "train_prior"),
        (lambda: mon.bbse_prior_shift([0, 1], [0, 0], [0]), "singular"),
        (lambda: mon.psi([], [1.0]), "empty"),
        (lambda: mon.ks_statistic([1.0, np.nan], [1.0]), "NaN"),
    ],
)
def test_refuses_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()
