"""mltutor.plots.widgets: the threshold explorer builds headless and updates; the static view draws."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import doctest  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import mltutor.plots.widgets  # noqa: E402
from mltutor.curves import threshold_sweep
from mltutor.plots.widgets import plot_threshold_view, readout_text, threshold_explorer  # noqa: E402

widgets = pytest.importorskip("ipywidgets")

RNG = np.random.default_rng(3)
Y = RNG.integers(0, 2, 400)
P = 1 / (1 + np.exp(-RNG.normal(2.0 * Y - 1.0, 1.3)))  # probabilities, classes overlap


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _text(readout) -> str:
    value = readout.value
    assert value.startswith("<pre>") and value.endswith("</pre>")
    return value[len("<pre>") : -len("</pre>")].replace("&gt;", ">").replace("&lt;", "<")


def test_explorer_builds_headless():
    box = threshold_explorer(Y, P, beta=2.0, c_fp=1, c_fn=5)
    assert isinstance(box, widgets.VBox)
    slider, readout, output = box.children
    assert isinstance(slider, widgets.FloatSlider) and isinstance(readout, widgets.HTML)
    assert isinstance(output, widgets.Output)
    assert slider.value == 0.5 and slider.min == P.min() and slider.max == P.max()
    text = _text(readout)
    point = threshold_sweep(Y, P, beta=2.0).at(0.5)
    assert f"TP = {point.tp}" in text and f"FN = {point.fn}" in text
    assert f"F2 {point.fbeta:.3f}" in text
    assert f"cost = 1*FP + 5*FN = {point.fp + 5 * point.fn:g}" in text


def test_slider_change_updates_the_readout():
    box = threshold_explorer(Y, P)
    slider, readout, _ = box.children
    before = _text(readout)
    slider.value = 0.8
    after = _text(readout)
    assert after != before
    point = threshold_sweep(Y, P).at(slider.value)
    assert after == readout_text(point)
    assert "cost" not in after  # no costs given


def test_explorer_options():
    scores = RNG.normal(size=Y.size) * 3  # not probabilities: starts at the median
    slider = threshold_explorer(Y, scores).children[0]
    assert slider.value == pytest.approx(np.median(scores), abs=slider.step)
    constant = threshold_explorer([0, 1, 1], [0.3, 0.3, 0.3]).children[0]
    assert constant.min < 0.3 < constant.max
    labels = np.where(Y == 1, "spam", "ham")
    text = _text(threshold_explorer(labels, P, pos_label="spam", threshold=0.6).children[1])
    assert "score >= 0.6" in text
    with pytest.raises(ValueError, match="both"):
        threshold_explorer(Y, P, c_fp=1)
    with pytest.raises(ValueError, match="c_fn"):
        threshold_explorer(Y, P, c_fp=1, c_fn=-1)


def test_static_view_returns_two_labelled_axes():
    axes = plot_threshold_view(Y, P, 0.3, beta=0.5)
    assert len(axes) == 2
    hist, curves = axes
    assert hist.get_title() == "Scores by true class" and curves.get_title().endswith(
        "vs threshold"
    )
    for ax in axes:
        assert ax.get_xlabel() and ax.get_ylabel()
    assert [t.get_text() for t in curves.get_legend().get_texts()] == [
        "precision",
        "recall",
        "F0.5",
    ]
    point = threshold_sweep(Y, P, beta=0.5).at(0.3)
    markers = [line for line in curves.get_lines() if line.get_marker() == "o"]
    assert [float(m.get_ydata()[0]) for m in markers] == [
        point.precision,
        point.recall,
        point.fbeta,
    ]
    assert all(float(m.get_xdata()[0]) == 0.3 for m in markers)


def test_static_view_on_given_axes_and_beyond_the_scores():
    fig, given = plt.subplots(1, 2)
    axes = plot_threshold_view(Y, P, 2.0, axes=given)  # above every score: nothing predicted
    assert axes[0] is given[0] and axes[1] is given[1]
    with pytest.raises(ValueError, match="two"):
        plot_threshold_view(Y, P, 0.5, axes=[given[0]])
    with pytest.raises(ValueError, match="NaN"):
        plot_threshold_view(Y, P, np.nan)


def test_package_imports_without_ipywidgets():
    code = (
        "import sys; sys.modules['ipywidgets'] = None\n"
        "import mltutor.plots.widgets, mltutor.curves\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
        "try:\n    mltutor.plots.widgets.threshold_explorer([0, 1], [0.2, 0.8])\n"
        "except ImportError:\n    print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "ok"


def test_doctests():
    assert doctest.testmod(mltutor.plots.widgets).failed == 0
