"""Net benefit and decision curves (issue 29): against a brute-force loop over thresholds.

The definition (Vickers & Elkin 2006; "treat when score >= p_t", as in the dcurves package):
``NB(p_t) = TP/n - FP/n * p_t / (1 - p_t)`` with weighted sums when weights are given.
"""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY, run, same_error_type
from hypothesis import given
from hypothesis import strategies as st
from test_curves_kernel import scored_problems

from mltutor.curves import DecisionCurve, decision_curve, net_benefit, threshold_sweep


def brute_force(problem, p_t: np.ndarray) -> np.ndarray:
    """One pass over the samples per threshold, the definition written out."""
    pos = problem.is_positive
    s = np.asarray(problem.y_score, dtype=np.float64)
    w = np.ones(s.shape[0]) if problem.sample_weight is None else problem.sample_weight
    n = w.sum()
    out = []
    for t in p_t:
        treated = s >= t
        tp = w[treated & pos].sum()
        fp = w[treated & ~pos].sum()
        out.append(tp / n - fp / n * (t / (1 - t)))
    return np.array(out)


@st.composite
def threshold_probabilities(draw, problem) -> np.ndarray:
    """0, random points of [0, 1), and the problem's own scores that lie in [0, 1) (ties hit)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    s = np.asarray(problem.y_score, dtype=np.float64)
    own = s[(s >= 0) & (s < 1)]
    parts = [np.array([0.0]), rng.random(draw(st.integers(0, 5)))]
    if own.size:
        parts.append(rng.choice(own, size=min(own.size, 5), replace=False))
    return np.concatenate(parts)


@PROPERTY
@given(st.data())
def test_net_benefit_matches_brute_force(data):
    problem = data.draw(scored_problems())
    p_t = data.draw(threshold_probabilities(problem))
    ours = run(net_benefit, problem.y_true, problem.y_score, p_t, **problem.kwargs())
    sweep = run(threshold_sweep, problem.y_true, problem.y_score, **problem.kwargs())
    if sweep.error is not None:  # the same validation as every score metric
        assert ours.error is not None and same_error_type(sweep.error, ours.error)
        return
    assert ours.error is None, ours.error
    np.testing.assert_allclose(ours.result, brute_force(problem, p_t), rtol=1e-12, atol=1e-12)
    curve = decision_curve(problem.y_true, problem.y_score, p_t, **problem.kwargs())
    np.testing.assert_array_equal(curve.model, ours.result)
    # treat all = the rule "score >= p_t" with every score 1 (p_t < 1 flags everyone)
    everyone = net_benefit(problem.y_true, np.ones(len(problem.y_true)), p_t, **problem.kwargs())
    np.testing.assert_allclose(curve.treat_all, everyone, rtol=1e-12, atol=1e-12)
    assert (curve.treat_none == 0).all()
    CASES["net_benefit"] += 1
    CASES["decision_curve"] += 1


def test_hand_computed_values():
    y = [0, 0, 1, 1, 0, 1]
    p = [0.1, 0.3, 0.35, 0.8, 0.6, 0.9]
    # p_t = 0.2: treated 0.3, 0.35, 0.8, 0.6, 0.9 -> TP 3, FP 2; odds 0.25
    assert net_benefit(y, p, 0.2) == pytest.approx(3 / 6 - 2 / 6 * 0.25, abs=1e-15)
    # p_t = 0.35 exactly: the sample at 0.35 is treated (>=), TP 3, FP 1
    assert net_benefit(y, p, 0.35) == pytest.approx(3 / 6 - 1 / 6 * 0.35 / 0.65, abs=1e-15)
    # just above: it is not
    assert net_benefit(y, p, np.nextafter(0.35, 1)) == pytest.approx(
        2 / 6 - 1 / 6 * 0.35 / 0.65, abs=1e-15
    )
    assert net_benefit(y, p, 0.0) == 0.5  # odds 0: the prevalence
    assert isinstance(net_benefit(y, p, 0.5), float)
    assert net_benefit(y, p, [0.5]).shape == (1,)


def test_decision_curve_defaults_and_reading():
    rng = np.random.default_rng(0)
    p = rng.beta(1, 3, 5000)
    y = (rng.random(5000) < p).astype(int)  # calibrated
    curve = decision_curve(y, p)
    assert isinstance(curve, DecisionCurve)
    np.testing.assert_array_equal(curve.thresholds, np.arange(100) / 100)
    assert curve.prevalence == pytest.approx(y.mean())
    # at p_t = 0 the model treats everyone: equal to treat all
    assert curve.model[0] == pytest.approx(curve.treat_all[0])
    # treat all crosses 0 at p_t = prevalence
    above = curve.thresholds > curve.prevalence + 0.01
    assert (curve.treat_all[above] < 0).all()
    # a calibrated model is at least as good as both defaults (up to noise) and better in between
    assert (curve.model >= np.maximum(curve.treat_all, 0) - 0.01).all()
    assert curve.useful()[5:60].all()


def test_weights_equal_repeated_samples():
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.2, 0.7, 0.4, 0.6, 0.9])
    w = np.array([2, 1, 3, 1, 2])
    p_t = np.linspace(0, 0.95, 20)
    np.testing.assert_allclose(
        net_benefit(y, s, p_t, sample_weight=w),
        net_benefit(np.repeat(y, w), np.repeat(s, w), p_t),
        rtol=1e-13,
        atol=1e-15,
    )


@pytest.mark.parametrize(
    ("thresholds", "error", "match"),
    [
        (1.0, ValueError, r"\[0, 1\)"),
        ([0.1, -0.2], ValueError, r"\[0, 1\)"),
        ([0.1, np.nan], ValueError, "NaN"),
        ([], ValueError, "empty"),
        ([[0.1, 0.2]], ValueError, "1-D"),
        (True, TypeError, "thresholds"),
        (np.array([True, False]), TypeError, "bools"),
        ("0.1", TypeError, "thresholds"),
        (None, TypeError, "thresholds"),
        (["a"], TypeError, "thresholds"),
    ],
)
def test_bad_thresholds_are_refused(thresholds, error, match):
    with pytest.raises(error, match=match):
        net_benefit([0, 1], [0.2, 0.8], thresholds)


def test_bad_labels_and_scores_are_refused():
    with pytest.raises(ValueError, match="NaN"):
        net_benefit([0, 1], [0.2, np.nan], 0.1)
    with pytest.raises(ValueError, match="inconsistent"):
        decision_curve([0, 1, 1], [0.2, 0.3], [0.1])
    with pytest.raises(ValueError, match="multiclass"):
        decision_curve([0, 1, 2], [0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="empty"):
        net_benefit([], [], 0.1)


def test_plot_decision_curve_draws_the_three_strategies():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mltutor.plots import plot_decision_curve

    rng = np.random.default_rng(1)
    p = rng.beta(1, 3, 400)
    y = (rng.random(400) < p).astype(int)
    curve = decision_curve(y, p)
    ax = plot_decision_curve(curve, label="model A")
    plot_decision_curve(decision_curve(y, np.sqrt(p)), label="model B", ax=ax, defaults=False)
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["treat none", "treat all", "model A", "model B"]
    np.testing.assert_array_equal(ax.get_lines()[1].get_ydata(), curve.treat_all)
    low, high = ax.get_ylim()
    assert low < 0 < curve.prevalence < high
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    plt.close(ax.figure)
    with pytest.raises(TypeError, match="DecisionCurve"):
        plot_decision_curve((curve.thresholds, curve.model))


def test_decision_curve_arrays_are_read_only():
    curve = decision_curve([0, 1, 1], [0.2, 0.6, 0.9], [0.1, 0.5])
    with pytest.raises(ValueError, match="read-only"):
        curve.model[0] = 1.0
