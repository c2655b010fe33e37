"""calibration_curve_intervals: scikit-learn's points, an interval per bin, the small-bin warning.

* The points (``prob_true``, ``prob_pred``) equal ``sklearn.calibration.calibration_curve``'s to
  1e-12 on >= 1,000 hypothesis cases (uniform and quantile bins, probabilities on bin edges, at 0
  and 1, ties, one class only, string labels with ``pos_label``), empty bins dropped as there.
* Each interval is ``proportion_ci`` of the bin's positives and count, and statsmodels'
  ``proportion_confint`` to 1e-10 (Wilson, Jeffreys, Clopper-Pearson).
* ``SmallBinWarning`` names the small bins and their counts, and is not issued otherwise.
* Coverage by simulation: with the true calibration map c(p) = p^1.3, each bin's interval covers
  the bin's average true frequency (given the scores) in about 95 % of 1,000 test sets.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import sklearn.calibration as skc
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

import mltutor.calibration as cal
from mltutor.exceptions import SmallBinWarning
from mltutor.stats import proportion_ci

# --------------------------------------------------------------------------------------------
# Strategies: hypothesis draws the structure and a seed, NumPy fills the arrays.
# --------------------------------------------------------------------------------------------


@st.composite
def curve_cases(draw):
    """(y, p, pos_label, n_bins, strategy): valid binary input for calibration_curve."""
    n = draw(st.integers(1, 80))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["uniform", "grid", "extremes", "ties", "narrow"]))
    if kind == "uniform":
        p = rng.random(n)
    elif kind == "grid":  # many probabilities exactly on bin edges
        p = rng.integers(0, 21, n) / 20
    elif kind == "extremes":
        p = rng.choice([0.0, 1.0, 0.5, 1e-12, 1 - 1e-12], n)
    elif kind == "ties":
        p = np.repeat(rng.random(max(1, n // 4)), 4)[:n]
        n = p.size
    else:  # all in a narrow range: most uniform bins empty
        p = 0.3 + 0.01 * rng.random(n)
    truth = rng.random(n) < draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    labels = draw(st.sampled_from(["01", "-11", "str"]))
    if labels == "01":
        y, pos_label = truth.astype(int), None
    elif labels == "-11":
        y, pos_label = np.where(truth, 1, -1), None
    else:
        y, pos_label = np.where(truth, "cat", "dog"), "cat"
    n_bins = draw(st.integers(1, 20))
    strategy = draw(st.sampled_from(["uniform", "quantile"]))
    return y, p, pos_label, n_bins, strategy


@PROPERTY
@given(case=curve_cases())
def test_points_equal_sklearns_calibration_curve(case):
    CASES["calibration_curve_intervals"] += 1
    y, p, pos_label, n_bins, strategy = case
    t_ref, p_ref = skc.calibration_curve(
        y, p, pos_label=pos_label, n_bins=n_bins, strategy=strategy
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallBinWarning)
        c = cal.calibration_curve_intervals(
            y, p, pos_label=pos_label, n_bins=n_bins, strategy=strategy
        )
    assert c.prob_true.shape == t_ref.shape
    np.testing.assert_allclose(c.prob_true, t_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.prob_pred, p_ref, rtol=0, atol=1e-12)
    assert c.count.sum() == len(y) and (c.count > 0).all()
    assert c.edges.shape == (n_bins + 1,) and np.all(np.diff(c.bin_index) > 0)
    assert ((c.low <= c.prob_true + 1e-15) & (c.prob_true <= c.high + 1e-15)).all()
    positives = np.round(c.prob_true * c.count)
    low, high = proportion_ci(positives, c.count, alpha=1 - 0.95)
    np.testing.assert_array_equal(c.low, low)
    np.testing.assert_array_equal(c.high, high)


def test_points_match_calibration_curve_exactly_on_a_large_sample():
    rng = np.random.default_rng(0)
    p = rng.random(100_000) ** 2
    y = (rng.random(p.size) < p).astype(int)
    for strategy in ("uniform", "quantile"):
        c = cal.calibration_curve_intervals(y, p, n_bins=15, strategy=strategy)
        t_ref, p_ref = skc.calibration_curve(y, p, n_bins=15, strategy=strategy)
        np.testing.assert_array_equal(c.prob_true, t_ref)
        np.testing.assert_array_equal(c.prob_pred, p_ref)


@pytest.mark.parametrize(
    ("method", "statsmodels_method"),
    [("wilson", "wilson"), ("jeffreys", "jeffreys"), ("clopper-pearson", "beta")],
)
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_intervals_equal_statsmodels(method, statsmodels_method, level):
    rng = np.random.default_rng(1)
    p = rng.random(3000)
    y = (rng.random(p.size) < p**1.3).astype(int)
    c = cal.calibration_curve_intervals(
        y, p, n_bins=40, confidence_level=level, method=method, min_bin_count=0
    )
    low, high = proportion_confint(
        np.round(c.prob_true * c.count), c.count, alpha=1 - level, method=statsmodels_method
    )
    np.testing.assert_allclose(c.low, low, rtol=0, atol=1e-10)
    np.testing.assert_allclose(c.high, high, rtol=0, atol=1e-10)


def test_a_bin_with_no_positive_or_all_positive_gets_a_nonzero_width():
    y = [0] * 12 + [1] * 12
    p = [0.1] * 12 + [0.9] * 12
    c = cal.calibration_curve_intervals(y, p, n_bins=2)
    assert c.prob_true.tolist() == [0.0, 1.0]
    assert c.low[0] < 1e-15 and c.high[0] > 0.2 and c.high[1] == 1.0 and c.low[1] < 0.8


def test_a_higher_level_gives_wider_intervals():
    rng = np.random.default_rng(2)
    p = rng.random(500)
    y = (rng.random(p.size) < p).astype(int)
    narrow = cal.calibration_curve_intervals(y, p, confidence_level=0.8)
    wide = cal.calibration_curve_intervals(y, p, confidence_level=0.99)
    assert (wide.high - wide.low > narrow.high - narrow.low).all()


# --------------------------------------------------------------------------------------------
# The small-bin warning
# --------------------------------------------------------------------------------------------


def test_small_bins_warn_naming_the_bins_and_their_counts():
    p = np.r_[np.full(50, 0.15), np.full(3, 0.55), np.full(40, 0.95)]
    y = (np.arange(p.size) % 2).astype(int)
    with pytest.warns(SmallBinWarning) as record:
        c = cal.calibration_curve_intervals(y, p, n_bins=5)
    assert len(record) == 1
    message = str(record[0].message)
    assert "bin 2 (0.4, 0.6]: 3" in message and "min_bin_count=10" in message
    assert re.search(r"\b1 non-empty bin", message)
    assert "bin 0" not in message and "bin 4" not in message  # 50 and 40 samples
    assert "bin 1" not in message and "bin 3" not in message  # empty bins are not small
    assert c.count.tolist() == [50, 3, 40] and c.bin_index.tolist() == [0, 2, 4]


def test_the_warning_points_at_the_callers_line():
    with pytest.warns(SmallBinWarning) as record:
        cal.calibration_curve_intervals([0, 1], [0.2, 0.8])
    assert record[0].filename == __file__


def test_no_warning_when_every_nonempty_bin_is_large_enough():
    p = np.r_[np.full(10, 0.15), np.full(10, 0.95)]  # exactly min_bin_count in each
    y = np.tile([0, 1], 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cal.calibration_curve_intervals(y, p, n_bins=5)
        cal.calibration_curve_intervals(y, p, n_bins=5, min_bin_count=0)
        cal.calibration_curve_intervals([0, 1], [0.2, 0.8], min_bin_count=0)
    with pytest.warns(SmallBinWarning, match="min_bin_count=11"):
        cal.calibration_curve_intervals(y, p, n_bins=5, min_bin_count=11)


def test_smallbinwarning_is_a_userwarning_and_public():
    assert issubclass(SmallBinWarning, UserWarning)
    import mltutor.exceptions as exc

    assert "SmallBinWarning" in exc.__all__


# --------------------------------------------------------------------------------------------
# Refusals that name the argument
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "normal"}, ValueError, "method"),
        ({"method": "agresti-coull"}, ValueError, "method"),
        ({"confidence_level": 95}, ValueError, "confidence_level"),
        ({"confidence_level": 1.0}, ValueError, "confidence_level"),
        ({"confidence_level": "0.9"}, TypeError, "confidence_level"),
        ({"min_bin_count": -1}, ValueError, "min_bin_count"),
        ({"min_bin_count": True}, TypeError, "min_bin_count"),
        ({"min_bin_count": 2.5}, TypeError, "min_bin_count"),
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"strategy": "kmeans"}, ValueError, "strategy"),
    ],
)
def test_bad_parameters_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        cal.calibration_curve_intervals([0, 1, 1], [0.1, 0.5, 0.9], **kwargs)


@pytest.mark.parametrize(
    ("y", "p", "match"),
    [
        ([0, 1], [0.2, np.nan], "y_prob"),
        ([0, 1], [0.2, 1.3], "outside"),
        ([0, 1, 2], [0.2, 0.3, 0.4], "pos_label|binary"),
        ([0, 1], [0.2], "y_"),
        (["a", "b"], [0.2, 0.3], "pos_label"),
    ],
)
def test_bad_input_is_refused(y, p, match):
    with pytest.raises(ValueError, match=match):
        cal.calibration_curve_intervals(y, p)


# --------------------------------------------------------------------------------------------
# Coverage by simulation
# --------------------------------------------------------------------------------------------

N_SETS, N_SAMPLES, N_BINS, POWER = 1000, 600, 6, 1.3
#: Three standard errors of a coverage estimated from 1,000 test sets at 0.95
#: (sqrt(0.95 * 0.05 / 1000) = 0.0069).
TOLERANCE = 0.021


def _coverage(
    n_bins: int, target: str, method: str = "wilson", n_samples: int = N_SAMPLES
) -> np.ndarray:
    """Per bin: the share of N_SETS test sets of ``n_samples`` whose interval contains the target,
    where the scores are Beta(2, 2) and the labels Bernoulli(p ** POWER)."""
    rng = np.random.default_rng(2026)
    hits = np.zeros(n_bins)
    seen = np.zeros(n_bins)
    for _ in range(N_SETS):  # one calibration curve per simulated test set
        p = rng.beta(2.0, 2.0, n_samples)
        y = (rng.random(n_samples) < p**POWER).astype(int)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SmallBinWarning)
            c = cal.calibration_curve_intervals(y, p, n_bins=n_bins, method=method)
        bin_of = np.searchsorted(c.edges[1:-1], p)  # calibration_curve's bins
        if target == "bin mean":  # the bin's average true frequency, given its scores
            truth = np.bincount(bin_of, weights=p**POWER, minlength=n_bins)[c.bin_index] / c.count
        else:  # the calibration map at the bin's mean predicted probability
            truth = c.prob_pred**POWER
        hits[c.bin_index] += (c.low <= truth) & (truth <= c.high)
        seen[c.bin_index] += 1
    return hits / seen


@pytest.mark.parametrize("method", ["wilson", "jeffreys"])
def test_each_bins_interval_covers_the_bins_mean_true_frequency(method):
    coverage = _coverage(N_BINS, "bin mean", method)
    assert (np.abs(coverage - 0.95) <= TOLERANCE).all(), coverage.round(3)


def test_the_interval_is_not_for_the_map_at_a_point_in_a_wide_bin():
    # Two bins of width 0.5: p ** 1.3 curves inside each, so the map at the bin's mean score
    # (0.2206 in the lower bin) is not the bin's mean true frequency (0.2277), and with about
    # 5,000 samples a bin the interval is narrow enough to miss the first often.
    at_point = _coverage(2, "map at the mean", n_samples=10_000)
    assert at_point[0] < 0.9, at_point.round(3)
    assert (np.abs(_coverage(2, "bin mean", n_samples=10_000) - 0.95) <= TOLERANCE).all()


# --------------------------------------------------------------------------------------------
# The figure
# --------------------------------------------------------------------------------------------


def test_plot_draws_one_bar_per_bin_and_hollow_small_bins():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mltutor.plots import plot_reliability_intervals

    p = np.r_[np.full(50, 0.15), np.full(3, 0.55), np.full(40, 0.95)]
    y = (np.arange(p.size) % 2).astype(int)
    with pytest.warns(SmallBinWarning, match="bin 2"):
        ax = plot_reliability_intervals(y, p, n_bins=5, label="model")
    c = cal.calibration_curve_intervals(y, p, n_bins=5, min_bin_count=0)
    bars = ax.containers[0]
    segments = bars.lines[2][0].get_segments()
    assert len(segments) == 3
    np.testing.assert_allclose([s[:, 1].min() for s in segments], c.low)
    np.testing.assert_allclose([s[:, 1].max() for s in segments], c.high)
    filled, hollow = ax.collections[-2], ax.collections[-1]
    assert len(filled.get_offsets()) == 2 and len(hollow.get_offsets()) == 1
    assert hollow.get_offsets()[0][0] == pytest.approx(0.55)
    labels = ax.get_legend_handles_labels()[1]
    assert "fewer than 10 samples" in labels and "model" in labels
    assert ax.get_title() == "Reliability diagram, 95 % intervals"
    plt.close(ax.figure)
