"""roc_curve_band and pr_curve_band: the resampled curves equal weighted curves computed one at a
time, the point estimate is the test set's own curve, and the pointwise coverage, checked by
simulation on a binormal model whose ROC and PR curves are known in closed form."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import norm

from mltutor.curves import pr_curve_band, roc_curve_band
from mltutor.curves._bands import (
    _precision_at_recall,
    _resampled_counts,
    _sorted_classes,
    _tpr_at_fpr,
)

GRID = np.array([0.0, 0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 0.9, 1.0])


def _tpr_by_loop(fpr, tpr, grid):
    """Brute force: for each grid FPR, the last point with FPR <= g (the top of a vertical
    step), then the straight segment to the next point."""
    out = []
    for g in grid:
        k = max(i for i in range(fpr.shape[0]) if fpr[i] <= g)
        if fpr[k] == g or k == fpr.shape[0] - 1:
            out.append(tpr[k])
        else:
            out.append(tpr[k] + (tpr[k + 1] - tpr[k]) * (g - fpr[k]) / (fpr[k + 1] - fpr[k]))
    return np.array(out)


def _precision_by_loop(precision, recall, grid):
    """Brute force: the best precision among thresholds with recall >= g (sklearn's final
    (1, 0) point, which has no threshold, left out)."""
    return np.array([max(precision[:-1][recall[:-1] >= g]) for g in grid])


@st.composite
def resampled(draw):
    n = draw(st.integers(2, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.random(n) < draw(st.sampled_from([0.2, 0.5, 0.8]))
    y[0], y[1] = True, False  # both classes
    kind = draw(st.sampled_from(["ties", "continuous"]))
    s = rng.integers(0, 4, n) / 4 if kind == "ties" else rng.normal(y.astype(float), 1.0)
    return y, s, rng


@PROPERTY
@given(resampled())
def test_each_resampled_curve_equals_the_weighted_curve_of_its_counts(case):
    CASES["roc_curve_band / pr_curve_band (resampled curves)"] += 1
    y, s, rng = case
    n = y.shape[0]
    pos_at, neg_at, last = _sorted_classes(y, s)
    w_pos = _resampled_counts(pos_at, n, 3, rng)
    w_neg = _resampled_counts(neg_at, n, 3, rng)
    assert (w_pos.sum(axis=1) == y.sum()).all() and (w_neg.sum(axis=1) == n - y.sum()).all()
    tps, fps = np.cumsum(w_pos, axis=1)[:, last], np.cumsum(w_neg, axis=1)[:, last]
    tpr_rows = _tpr_at_fpr(fps, tps, GRID)
    prec_rows = _precision_at_recall(fps, tps, GRID)
    order = np.argsort(-s, kind="stable")
    for row in range(3):
        w = np.empty(n)
        w[order] = w_pos[row] + w_neg[row]  # the counts back in sample order
        fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        np.testing.assert_allclose(tpr_rows[row], _tpr_by_loop(fpr, tpr, GRID), atol=1e-12)
        precision, recall, _ = skm.precision_recall_curve(
            y, s, sample_weight=w, drop_intermediate=False
        )
        np.testing.assert_allclose(
            prec_rows[row], _precision_by_loop(precision, recall, GRID), atol=1e-12
        )


def test_the_curve_is_the_test_sets_own_and_inside_its_band():
    rng = np.random.default_rng(5)
    y = np.r_[np.ones(60, dtype=int), np.zeros(90, dtype=int)]
    s = np.round(np.r_[rng.normal(1, 1, 60), rng.normal(0, 1, 90)], 1)
    roc = roc_curve_band(y, s, fpr_grid=GRID, n_resamples=300, random_state=0)
    fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(roc.curve, _tpr_by_loop(fpr, tpr, GRID), atol=1e-12)
    pr = pr_curve_band(y, s, recall_grid=GRID, n_resamples=300, random_state=0)
    precision, recall, _ = skm.precision_recall_curve(y, s)
    np.testing.assert_allclose(pr.curve, _precision_by_loop(precision, recall, GRID), atol=1e-12)
    for band in (roc, pr):
        assert band.lower.shape == band.upper.shape == band.grid.shape
        assert np.all(band.lower <= band.upper)
        assert band.confidence == 0.95 and band.method == "bootstrap" and band.n_resamples == 300
    assert roc.lower[-1] == roc.upper[-1] == 1.0  # every ROC curve ends at (1, 1)
    assert (roc.x_name, roc.y_name, pr.x_name, pr.y_name) == ("FPR", "TPR", "recall", "precision")


def test_the_same_seed_gives_the_same_band_and_blocks_do_not_change_it(monkeypatch):
    y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    s = np.random.default_rng(1).normal(y, 1.0)
    a = roc_curve_band(y, s, n_resamples=200, random_state=7)
    b = roc_curve_band(y, s, n_resamples=200, random_state=np.random.default_rng(7))
    np.testing.assert_array_equal(a.lower, b.lower)
    monkeypatch.setattr("mltutor.curves._bands._CELLS", 60 * 7)  # blocks of 7 resamples
    c = roc_curve_band(y, s, n_resamples=200, random_state=7)
    assert c.lower.shape == a.lower.shape and np.all(c.lower <= c.upper)
    wider = roc_curve_band(y, s, n_resamples=200, random_state=7, confidence=0.99)
    assert np.all(wider.upper - wider.lower >= a.upper - a.lower - 1e-12)


def _binormal(mu, n_pos, n_neg, fpr_grid, recall_grid):
    """True TPR at each FPR and true precision at each recall, for negatives N(0, 1), positives
    N(mu, 1) and the prevalence of the design (the bootstrap keeps the class sizes)."""
    tpr = norm.sf(norm.isf(fpr_grid) - mu)
    t = mu - norm.ppf(recall_grid)  # the threshold whose recall is r
    pi = n_pos / (n_pos + n_neg)
    precision = pi * recall_grid / (pi * recall_grid + (1 - pi) * norm.sf(t))
    return tpr, precision


def test_pointwise_coverage_by_simulation():
    """200 test sets of 100 positives and 100 negatives, binormal with mu = 1, 500 resamples
    each.  Each interior grid point of the ROC band covers its true TPR in 0.88-1.00 of the
    test sets (0.95 expected; 200 repetitions give a standard error of 0.015), and so does the
    PR band from recall 0.3 on; the whole curve on the grid is covered less often than each
    point (pointwise, not simultaneous)."""
    mu, n_pos, n_neg, reps = 1.0, 100, 100, 200
    fg = np.array([0.05, 0.1, 0.2, 0.3, 0.5, 0.8])
    rg = np.array([0.3, 0.5, 0.7, 0.9])
    true_tpr, true_precision = _binormal(mu, n_pos, n_neg, fg, rg)
    rng = np.random.default_rng(2026)
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    hits_roc, hits_pr, whole = np.zeros(fg.size), np.zeros(rg.size), 0
    for rep in range(reps):
        s = np.r_[rng.normal(mu, 1, n_pos), rng.normal(0, 1, n_neg)]
        roc = roc_curve_band(y, s, fpr_grid=fg, n_resamples=500, random_state=rep)
        inside = (roc.lower <= true_tpr) & (true_tpr <= roc.upper)
        hits_roc += inside
        whole += inside.all()
        pr = pr_curve_band(y, s, recall_grid=rg, n_resamples=500, random_state=rep)
        hits_pr += (pr.lower <= true_precision) & (true_precision <= pr.upper)
    coverage_roc, coverage_pr = hits_roc / reps, hits_pr / reps
    assert np.all((coverage_roc >= 0.88) & (coverage_roc <= 1.0)), coverage_roc
    assert np.all((coverage_pr >= 0.88) & (coverage_pr <= 1.0)), coverage_pr
    assert abs(coverage_roc.mean() - 0.95) <= 0.03, coverage_roc
    assert whole / reps < coverage_roc.min()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"confidence": 95}, ValueError, "confidence"),
        ({"confidence": 1.0}, ValueError, "confidence"),
        ({"n_resamples": 0}, ValueError, "n_resamples"),
        ({"n_resamples": 10.5}, TypeError, "n_resamples"),
        ({"method": "bca"}, ValueError, "method"),
        ({"random_state": -1}, ValueError, "random_state"),
        ({"fpr_grid": [0.1, 1.2]}, ValueError, "fpr_grid"),
        ({"fpr_grid": []}, ValueError, "fpr_grid"),
        ({"fpr_grid": [0.1, np.nan]}, ValueError, "fpr_grid"),
        ({"fpr_grid": "0.5"}, TypeError, "fpr_grid"),
        ({"fpr_grid": [True, False]}, TypeError, "fpr_grid"),
        ({"fpr_grid": [[0.1, 0.2]]}, ValueError, "fpr_grid"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        roc_curve_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], **kwargs)


def test_bad_inputs():
    with pytest.raises(ValueError, match="both classes"):
        roc_curve_band([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="both classes"):
        pr_curve_band([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="NaN"):
        pr_curve_band([0, 1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="recall_grid"):
        pr_curve_band([0, 1, 1], [0.1, 0.2, 0.3], recall_grid=[-0.1])
    band = pr_curve_band(["a", "b", "b", "a"], [0.1, 0.9, 0.8, 0.2], pos_label="b")
    assert np.all(band.curve == 1.0)  # separable: precision 1 at every recall


def test_plot_curve_band_draws_one_chance_diagonal():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mltutor.plots import plot_curve_band, plot_roc

    rng = np.random.default_rng(3)
    y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    s = np.r_[rng.normal(1, 1, 30), rng.normal(0, 1, 30)]
    band = roc_curve_band(y, s, n_resamples=50, random_state=0)
    fig, ax = plt.subplots()
    fpr, tpr, _ = skm.roc_curve(y, s)
    plot_roc(fpr, tpr, ax=ax)
    plot_curve_band(band, ax=ax)
    plot_curve_band(band, ax=ax, label="again")
    diagonals = [
        line
        for line in ax.get_lines()
        if list(line.get_xdata()) == [0, 1] and list(line.get_ydata()) == [0, 1]
    ]
    assert len(diagonals) == 1 and diagonals[0].get_gid() == "chance"
    plt.close(fig)
