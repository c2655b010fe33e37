"""Tests for mltutor.plots.curves (headless: the Agg backend)."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from sklearn.metrics import precision_recall_curve, roc_curve  # noqa: E402

from mltutor.calibration import calibration_bins  # noqa: E402
from mltutor.plots.curves import (  # noqa: E402
    CURVE_COLOURS,
    OKABE_ITO,
    plot_pr,
    plot_reliability,
    plot_roc,
)

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, 300)
S = Y + RNG.normal(0, 1, 300)
P = 1 / (1 + np.exp(-S))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _labelled(ax):
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def test_plot_roc_titles_axes_and_chance_line():
    fpr, tpr, _ = roc_curve(Y, S)
    ax = plot_roc(fpr, tpr, label="model")
    assert ax.get_title() == "ROC curve"
    assert ax.get_xlabel().startswith("False positive rate")
    assert ax.get_ylabel().startswith("True positive rate")
    assert [line.get_label() for line in _labelled(ax)] == ["chance (AUC 0.5)", "model"]
    np.testing.assert_array_equal(_labelled(ax)[1].get_xydata(), np.c_[fpr, tpr])


def test_two_curves_share_one_chance_line_and_get_different_safe_colours():
    fpr, tpr, _ = roc_curve(Y, S)
    fig, ax = plt.subplots()
    plot_roc(fpr, tpr, label="a", ax=ax)
    plot_roc(fpr, tpr, label="b", ax=ax, title="two")
    chance = [line for line in ax.get_lines() if line.get_gid() == "chance"]
    assert len(chance) == 1
    a, b = (line for line in _labelled(ax) if line.get_gid() != "chance")
    assert a.get_color() != b.get_color()
    assert {to_hex(a.get_color()), to_hex(b.get_color())} <= {c.lower() for c in OKABE_ITO}
    assert ax.get_title() == "two"


def test_fpr_budget_marks_the_best_point_within_the_budget():
    fpr = np.array([0.0, 0.0, 0.02, 0.04, 0.08, 1.0])
    tpr = np.array([0.0, 0.3, 0.5, 0.55, 0.9, 1.0])
    ax = plot_roc(fpr, tpr, fpr_budget=0.05)
    marker = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert len(marker) == 1
    np.testing.assert_array_equal(marker[0].get_xydata(), [[0.04, 0.55]])
    assert any(line.get_gid() == "budget 0.05" for line in ax.get_lines())
    assert any("0.55" in t.get_text() for t in ax.texts)


def test_plot_pr_draws_iso_f1_lines_once_and_a_step_curve():
    precision, recall, _ = precision_recall_curve(Y, S)
    fig, ax = plt.subplots()
    plot_pr(recall, precision, label="a", ax=ax, prevalence=Y.mean())
    plot_pr(recall, precision, label="b", ax=ax)
    iso = [line for line in ax.get_lines() if line.get_gid() == "iso-f1"]
    assert len(iso) == 4
    for line, f in zip(iso, (0.2, 0.4, 0.6, 0.8)):
        r, p = line.get_xydata().T
        np.testing.assert_allclose(2 * p * r / (p + r), f, rtol=1e-6)
    assert ax.get_xlabel().startswith("Recall") and ax.get_ylabel() == "Precision"
    assert ax.get_title() == "Precision-recall curve"
    curve = [line for line in ax.get_lines() if line.get_label() == "a"][0]
    assert curve.get_drawstyle() == "steps-pre"
    xs = curve.get_xdata()
    assert np.all(np.diff(xs) >= 0)  # recall increasing, whatever the input order


def test_iso_f1_levels_can_be_chosen_and_are_validated():
    ax = plot_pr([0, 1], [1, 0.5], iso_f1=[0.5])
    assert len([line for line in ax.get_lines() if line.get_gid() == "iso-f1"]) == 1
    ax = plot_pr([0, 1], [1, 0.5], iso_f1=False)
    assert not [line for line in ax.get_lines() if line.get_gid() == "iso-f1"]
    with pytest.raises(ValueError, match="iso_f1"):
        plot_pr([0, 1], [1, 0.5], iso_f1=[1.5])


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 5, 15])
def test_reliability_points_are_the_calibration_bins(strategy, n_bins):
    ax = plot_reliability(Y, P, n_bins=n_bins, strategy=strategy, label="model")
    (line,) = [line for line in ax.get_lines() if line.get_label() == "model"]
    bins = calibration_bins(Y, P, n_bins=n_bins, strategy=strategy)
    filled = bins.count > 0
    np.testing.assert_allclose(
        line.get_xydata(), np.c_[bins.confidence[filled], bins.accuracy[filled]]
    )
    assert (ax.get_xlabel(), ax.get_ylabel()) == (
        "Mean predicted probability",
        "Fraction of positives",
    )


def test_plot_reliability_top_label_for_a_probability_matrix():
    rng = np.random.default_rng(1)
    probs = rng.dirichlet([1, 1, 1], 400)
    labels = rng.integers(0, 3, 400)
    ax = plot_reliability(labels, probs, n_bins=10, label="three classes")
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Confidence (top probability)", "Accuracy")
    (line,) = [line for line in ax.get_lines() if line.get_label() == "three classes"]
    bins = calibration_bins(labels, probs, n_bins=10)
    np.testing.assert_allclose(line.get_xdata(), bins.confidence[bins.count > 0])


def test_plot_reliability_has_diagonal_and_labels():
    correct = (RNG.random(500) < 0.7).astype(int)
    confidence = np.clip(RNG.normal(0.85, 0.1, 500), 0, 1)
    ax = plot_reliability(
        correct,
        confidence,
        label="before",
        xlabel="Confidence",
        ylabel="Accuracy",
        title="Top-label reliability",
    )
    assert ax.get_title() == "Top-label reliability"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Confidence", "Accuracy")
    assert [line.get_label() for line in _labelled(ax)] == ["perfectly calibrated", "before"]
    assert CURVE_COLOURS[0].lower() == to_hex(_labelled(ax)[1].get_color())


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: plot_roc([0, 0.5], [0, 1, 1]), "same length"),
        (lambda: plot_roc([0, 1.5], [0, 1]), r"fpr must lie in \[0, 1\]"),
        (lambda: plot_roc([0, np.nan], [0, 1]), "finite"),
        (lambda: plot_roc([[0, 1]], [[0, 1]]), "1-D"),
        (lambda: plot_roc([], []), "empty"),
        (lambda: plot_roc([0, 1], [0, 1], fpr_budget=2), "fpr_budget"),
        (lambda: plot_pr([0, 1], [1, -0.1]), "precision must lie"),
        (lambda: plot_pr([0, 1], [1, 0.5], prevalence=1.2), "prevalence"),
        (lambda: plot_reliability([0, 1], [0.1, 1.2]), "y_prob"),
        (lambda: plot_reliability([0, 1], [0.1]), "y_"),
        (lambda: plot_reliability([0, 1], [0.1, 0.2], n_bins=0), "n_bins"),
        (lambda: plot_reliability([0, 1], [0.1, 0.2], strategy="kmeans"), "strategy"),
    ],
)
def test_bad_input_raises_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
