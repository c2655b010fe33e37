"""mltutor.stats: bootstrap intervals agree with scipy and with a plain-loop reference."""

from __future__ import annotations

import numpy as np
import pytest

from mltutor.stats import BootstrapResult, PairedBootstrapResult, bootstrap_ci, paired_bootstrap

scipy_stats = pytest.importorskip("scipy.stats")
sklearn_metrics = pytest.importorskip("sklearn.metrics")


def accuracy(t, p):
    return float(np.mean(t == p))


def make_data(n=300, seed=0, p_right=0.8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < p_right, y, 1 - y)
    return y, p


def loop_reference(metric, y, preds, n_resamples, seed, skip=True):
    """The textbook bootstrap, one resample at a time, from the same random stream."""
    rng = np.random.default_rng(seed)
    values, skipped = [], 0
    for _ in range(n_resamples):
        i = rng.integers(0, len(y), size=len(y))
        if skip and np.all(y[i] == y[i][0]):
            skipped += 1
            continue
        values.append([metric(y[i], p[i]) for p in preds])
    return np.array(values, dtype=float), skipped


# --------------------------------------------------------------------------------------------
# Agreement with references
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
@pytest.mark.parametrize("method", ["percentile", "basic"])
def test_matches_scipy_paired_bootstrap(level, method):
    y, p = make_data()
    f1 = sklearn_metrics.f1_score
    ours = bootstrap_ci(
        f1, y, p, n_resamples=400, confidence_level=level, method=method, random_state=7
    )
    ref = scipy_stats.bootstrap(
        (np.arange(len(y)),),
        lambda i: f1(y[i], p[i]),
        paired=True,
        vectorized=False,
        n_resamples=400,
        confidence_level=level,
        method=method,
        rng=np.random.default_rng(7),
    )
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=1e-12)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=1e-12)
    np.testing.assert_allclose(ours.distribution, ref.bootstrap_distribution, rtol=0, atol=1e-12)
    assert ours.standard_error == pytest.approx(ref.standard_error, abs=1e-12)


def test_matches_plain_loop_exactly_across_chunks(monkeypatch):
    """Chunked index drawing gives the very same resamples as one-at-a-time drawing."""
    import mltutor.stats._bootstrap as st

    monkeypatch.setattr(st, "_MAX_INDEX_ELEMENTS", 3 * 50)  # chunks of 3 resamples
    y, p = make_data(n=50, seed=1)
    ours = bootstrap_ci(accuracy, y, p, n_resamples=101, random_state=3)
    ref, skipped = loop_reference(accuracy, y, [p], 101, seed=3)
    np.testing.assert_array_equal(ours.distribution, ref[:, 0])
    assert ours.n_skipped == skipped == 0
    lo, hi = np.quantile(ref[:, 0], [0.025, 0.975])
    assert (ours.low, ours.high) == (lo, hi)
    assert ours.estimate == accuracy(y, p)


def test_paired_matches_loop_and_difference():
    y, a = make_data(n=200, seed=2)
    rng = np.random.default_rng(9)
    b = np.where(rng.random(200) < 0.1, 1 - a, a)
    r = paired_bootstrap(accuracy, y, a, b, n_resamples=300, random_state=4)
    ref, _ = loop_reference(accuracy, y, [a, b], 300, seed=4)
    np.testing.assert_array_equal(r.distribution, ref[:, 0] - ref[:, 1])
    assert isinstance(r, PairedBootstrapResult)
    assert r.estimate == pytest.approx(accuracy(y, a) - accuracy(y, b), abs=1e-15)
    assert (r.estimate_a, r.estimate_b) == (accuracy(y, a), accuracy(y, b))
    # same seed -> bootstrap_ci of model A sees the same resamples
    ra = bootstrap_ci(accuracy, y, a, n_resamples=300, random_state=4)
    np.testing.assert_array_equal(ra.distribution, ref[:, 0])


def test_overlapping_intervals_yet_paired_difference_excludes_zero():
    """Myth 9: two correlated models, overlapping marginal CIs, a clear paired difference."""
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.78, y, 1 - y)
    fix = (a != y) & (rng.random(n) < 0.08)  # B = A, but fixes 8 % of A's errors
    b = np.where(fix, y, a)
    ra = bootstrap_ci(accuracy, y, a, n_resamples=1000, random_state=1)
    rb = bootstrap_ci(accuracy, y, b, n_resamples=1000, random_state=1)
    assert ra.high > rb.low  # they overlap
    d = paired_bootstrap(accuracy, y, b, a, n_resamples=1000, random_state=1)
    assert d.low > 0


# --------------------------------------------------------------------------------------------
# Behaviour
# --------------------------------------------------------------------------------------------


def test_seeding_is_reproducible_and_generator_accepted():
    y, p = make_data()
    r1 = bootstrap_ci(accuracy, y, p, n_resamples=200, random_state=11)
    r2 = bootstrap_ci(accuracy, y, p, n_resamples=200, random_state=11)
    r3 = bootstrap_ci(accuracy, y, p, n_resamples=200, random_state=np.random.default_rng(11))
    r4 = bootstrap_ci(accuracy, y, p, n_resamples=200, random_state=12)
    np.testing.assert_array_equal(r1.distribution, r2.distribution)
    np.testing.assert_array_equal(r1.distribution, r3.distribution)
    assert not np.array_equal(r1.distribution, r4.distribution)


def test_single_class_resamples_are_skipped_and_counted():
    y = np.array([1, 0, 0, 0])  # P(all-zero resample) = (3/4)^4 ≈ 0.32
    p = np.array([1, 0, 1, 0])
    r = bootstrap_ci(sklearn_metrics.recall_score, y, p, n_resamples=500, random_state=0)
    ref, skipped = loop_reference(sklearn_metrics.recall_score, y, [p], 500, seed=0)
    assert r.n_skipped == skipped > 100
    assert r.distribution.shape == (500 - skipped,)
    np.testing.assert_array_equal(r.distribution, ref[:, 0])


def test_not_skipping_lets_the_metric_decide():
    y = np.array([1, 0, 0, 0])
    p = np.array([1, 0, 1, 0])
    with pytest.warns(Warning):  # sklearn: recall is ill-defined when y_true has no positives
        r = bootstrap_ci(
            sklearn_metrics.recall_score,
            y,
            p,
            n_resamples=50,
            random_state=0,
            skip_single_class=False,
        )
    assert r.n_skipped == 0 and r.distribution.shape == (50,)


def test_all_resamples_single_class_raises():
    with pytest.raises(ValueError, match="single class"):
        bootstrap_ci(accuracy, np.ones(5, int), np.ones(5, int), n_resamples=20, random_state=0)


def test_metric_errors_are_not_swallowed():
    y, p = make_data(n=30)

    def fails_sometimes(t, q):
        if t.sum() > y.sum() + 2:  # never on the full data, often on a resample
            raise RuntimeError("boom")
        return 0.0

    with pytest.raises(RuntimeError, match="boom") as info:
        bootstrap_ci(fails_sometimes, y, p, n_resamples=200, random_state=0)
    assert any("bootstrap resample" in note for note in info.value.__notes__)


def test_per_class_arrays_give_per_element_intervals():
    rng = np.random.default_rng(3)
    y = rng.choice(3, size=400, p=[0.6, 0.3, 0.1])
    p = np.where(rng.random(400) < 0.7, y, rng.integers(0, 3, 400))

    def per_class_f1(t, q):
        return sklearn_metrics.f1_score(t, q, average=None, labels=[0, 1, 2], zero_division=0)

    r = bootstrap_ci(per_class_f1, y, p, n_resamples=300, random_state=0)
    assert r.distribution.shape == (300, 3)
    assert r.low.shape == r.high.shape == r.estimate.shape == (3,)
    assert np.all(r.low <= r.high)
    np.testing.assert_allclose(r.estimate, per_class_f1(y, p))
    np.testing.assert_array_equal(r.low, np.quantile(r.distribution, 0.025, axis=0))
    assert r.contains(r.estimate).all()


def test_changing_shape_gives_a_clear_error():
    y = np.array([0, 0, 0, 0, 0, 0, 1, 2])
    p = np.array([0, 0, 0, 0, 0, 0, 1, 2])

    def per_class(t, q):  # no labels=: classes missing from a resample drop out
        return sklearn_metrics.f1_score(t, q, average=None)

    with pytest.raises(ValueError, match="labels="):
        bootstrap_ci(per_class, y, p, n_resamples=50, random_state=0)


def test_scores_and_2d_predictions_are_resampled_by_row():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 120)
    scores = rng.random((120, 3)) + np.eye(3)[y]
    top1 = lambda t, s: float(np.mean(s.argmax(axis=1) == t))  # noqa: E731
    r = bootstrap_ci(top1, y, scores, n_resamples=100, random_state=0)
    assert r.estimate == top1(y, scores)
    auc = bootstrap_ci(
        sklearn_metrics.roc_auc_score,
        (y == 0).astype(int),
        scores[:, 0],
        n_resamples=100,
        random_state=0,
    )
    assert 0.5 < auc.low <= auc.estimate <= auc.high <= 1


def test_result_is_frozen_and_repr_is_short():
    y, p = make_data(n=40)
    r = bootstrap_ci(accuracy, y, p, n_resamples=30, random_state=0)
    assert isinstance(r, BootstrapResult)
    with pytest.raises(AttributeError):
        r.low = 0.0
    text = repr(r)
    assert "distribution" not in text and "np.float64" not in text and "n_skipped=0" in text


def test_progress_bar_goes_to_stderr_only_when_asked(capsys):
    pytest.importorskip("tqdm")
    y, p = make_data(n=40)
    bootstrap_ci(accuracy, y, p, n_resamples=30, random_state=0)
    assert capsys.readouterr().err == ""
    bootstrap_ci(accuracy, y, p, n_resamples=30, random_state=0, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "bootstrap" in captured.err


# --------------------------------------------------------------------------------------------
# Bad arguments
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"confidence_level": 1.0}, ValueError, "confidence_level"),
        ({"confidence_level": 0.0}, ValueError, "confidence_level"),
        ({"confidence_level": 95}, ValueError, "confidence_level"),
        ({"confidence_level": "0.95"}, TypeError, "confidence_level"),
        ({"n_resamples": 0}, ValueError, "n_resamples"),
        ({"n_resamples": 10.0}, TypeError, "n_resamples"),
        ({"method": "bca"}, ValueError, "method"),
        ({"random_state": "seed"}, TypeError, "random_state"),
        ({"random_state": -1}, ValueError, "random_state"),
        ({"progress": "yes"}, TypeError, "progress"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    y, p = make_data(n=20)
    with pytest.raises(error, match=match):
        bootstrap_ci(accuracy, y, p, **kwargs)
    with pytest.raises(error, match=match):
        paired_bootstrap(accuracy, y, p, p, **kwargs)


def test_bad_inputs():
    y, p = make_data(n=20)
    with pytest.raises(ValueError, match="y_true has 20, y_pred has 19"):
        bootstrap_ci(accuracy, y, p[:-1])
    with pytest.raises(ValueError, match="y_pred_b has 19"):
        paired_bootstrap(accuracy, y, p, p[:-1])
    with pytest.raises(ValueError, match="empty"):
        bootstrap_ci(accuracy, [], [])
    with pytest.raises(ValueError, match="scalar"):
        bootstrap_ci(accuracy, 1, 1)
    with pytest.raises(TypeError, match="metric"):
        bootstrap_ci("f1", y, p)


# --------------------------------------------------------------------------------------------
# Group (cluster) bootstrap, optionally stratified
# --------------------------------------------------------------------------------------------


def group_loop_reference(metric, y, p, groups, strata, n_resamples, seed):
    """Whole groups drawn with replacement, stratum by stratum, from the same random stream."""
    rng = np.random.default_rng(seed)
    strata = np.zeros(len(y), int) if strata is None else np.asarray(strata)
    slots = [(s, sorted(set(groups[strata == s].tolist()))) for s in sorted(set(strata.tolist()))]
    values = []
    for _ in range(n_resamples):
        u = rng.random(sum(len(g) for _, g in slots))
        idx, k = [], 0
        for _, stratum_groups in slots:
            for _ in stratum_groups:
                chosen = stratum_groups[int(u[k] * len(stratum_groups))]
                idx.extend(np.flatnonzero(groups == chosen).tolist())
                k += 1
        idx = np.array(idx)
        values.append(metric(y[idx], p[idx]))
    return np.array(values)


@pytest.mark.parametrize("stratified", [False, True])
def test_group_bootstrap_matches_a_plain_loop(stratified):
    rng = np.random.default_rng(3)
    groups = rng.integers(0, 30, 200) * 7 + 1  # unsorted, gaps between ids
    strata = groups % 3 if stratified else None  # constant within each group
    y, p = make_data(n=200, seed=4)
    r = bootstrap_ci(accuracy, y, p, n_resamples=300, random_state=5, groups=groups, strata=strata)
    ref = group_loop_reference(accuracy, y, p, groups, strata, 300, 5)
    np.testing.assert_allclose(r.distribution, ref, rtol=0, atol=1e-15)
    assert r.estimate == accuracy(y, p)


def test_stratified_resamples_keep_the_groups_of_every_stratum():
    # 4 strata of 5 groups of 3 samples each: every resample holds 5 groups (15 samples) per stratum.
    groups = np.repeat(np.arange(20), 3)
    strata = groups // 5
    counts = lambda t, q: np.bincount(t, minlength=4)  # samples per stratum in the resample
    r = bootstrap_ci(
        counts,
        strata,
        strata,
        n_resamples=200,
        random_state=0,
        groups=groups,
        strata=strata,
        skip_single_class=False,
    )
    assert np.all(r.distribution == 15)
    # Unstratified, the strata's shares move.
    free = bootstrap_ci(
        counts,
        strata,
        strata,
        n_resamples=200,
        random_state=0,
        groups=groups,
        skip_single_class=False,
    )
    assert free.distribution.std(axis=0).min() > 0


def test_group_bootstrap_is_wider_when_groups_are_right_or_wrong_together():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(60), 8)
    y = rng.integers(0, 2, groups.size)
    p = np.where(np.repeat(rng.random(60) < 0.7, 8), y, 1 - y)
    rows = bootstrap_ci(accuracy, y, p, random_state=1)
    grouped = bootstrap_ci(accuracy, y, p, random_state=1, groups=groups)
    assert grouped.standard_error > 2 * rows.standard_error  # about sqrt(8) wider


def test_paired_group_bootstrap_uses_the_same_groups_for_both_models():
    rng = np.random.default_rng(2)
    groups = np.repeat(np.arange(40), 5)
    y, a = make_data(n=200, seed=6)
    b = np.where(rng.random(200) < 0.1, 1 - a, a)
    r = paired_bootstrap(accuracy, y, a, b, n_resamples=300, random_state=7, groups=groups)
    da = bootstrap_ci(accuracy, y, a, n_resamples=300, random_state=7, groups=groups).distribution
    db = bootstrap_ci(accuracy, y, b, n_resamples=300, random_state=7, groups=groups).distribution
    np.testing.assert_allclose(r.distribution, da - db, rtol=0, atol=1e-15)


def test_bad_groups_and_strata():
    y, p = make_data(n=20)
    groups = np.repeat(np.arange(5), 4)
    with pytest.raises(ValueError, match=r"groups must have one id per sample, shape \(20,\)"):
        bootstrap_ci(accuracy, y, p, groups=groups[:-1])
    with pytest.raises(ValueError, match="strata must have one value per sample"):
        paired_bootstrap(accuracy, y, p, p, groups=groups, strata=np.zeros(3))
    with pytest.raises(ValueError, match="strata must be constant within each group"):
        bootstrap_ci(accuracy, y, p, groups=groups, strata=np.arange(20) % 2)
    with pytest.raises(ValueError, match="strata needs groups"):
        bootstrap_ci(accuracy, y, p, strata=groups)
