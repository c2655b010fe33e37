"""Tests for mltutor.plots.confusion (headless: the Agg backend, no display needed)."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402

from mltutor.plots import plot_confusion_matrix  # noqa: E402

SMALL = np.array([[50, 2, 0], [5, 43, 2], [1, 0, 47]])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _image(ax):
    (image,) = ax.get_images()
    return image


def test_returns_axes_with_titles_and_colour_bar():
    ax = plot_confusion_matrix(SMALL, labels=["a", "b", "c"])
    assert ax.get_xlabel() == "Predicted label"
    assert ax.get_ylabel() == "True label"
    assert ax.get_title() == "Confusion matrix"
    assert len(ax.figure.axes) == 2  # heatmap + colour bar
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]


def test_rows_are_truth_columns_are_prediction():
    cm = np.array([[1, 7], [3, 9]])
    ax = plot_confusion_matrix(cm)
    shown = np.asarray(_image(ax).get_array())
    np.testing.assert_array_equal(shown, cm)
    # Text at (x=1, y=0) is row 0 ("true 0"), column 1 ("predicted 1").
    texts = {(t.get_position(), t.get_text()) for t in ax.texts}
    assert ((1, 0), "7") in texts
    assert ((0, 1), "3") in texts


def test_uses_given_axes():
    fig, ax = plt.subplots()
    assert plot_confusion_matrix(SMALL, ax=ax) is ax


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.zeros(3), "2-D"),
        (np.zeros((2, 3)), "square"),
        (np.zeros((2, 2, 2)), "2-D"),
        (np.zeros((0, 0)), "at least one class"),
        (np.array([[1, -1], [0, 2]]), "non-negative"),
        (np.array([[1, np.nan], [0, 2]]), "finite"),
        (np.array([[1, np.inf], [0, 2]]), "finite"),
        (np.array([["a", "b"], ["c", "d"]]), "real numbers"),
    ],
)
def test_bad_cm_raises_naming_the_argument(bad, message):
    with pytest.raises(ValueError, match=message) as info:
        plot_confusion_matrix(bad)
    assert str(info.value).startswith("cm ")


@pytest.mark.parametrize("labels", [["a", "b"], ["a", "b", "c", "d"], []])
def test_labels_length_mismatch_raises(labels):
    with pytest.raises(ValueError, match=r"labels has \d+ entries but cm has 3 classes"):
        plot_confusion_matrix(SMALL, labels=labels)


def test_labels_as_single_string_raises():
    with pytest.raises(ValueError, match="labels"):
        plot_confusion_matrix(SMALL, labels="abc")


def test_bad_normalize_and_annotate_raise():
    with pytest.raises(ValueError, match="normalize"):
        plot_confusion_matrix(SMALL, normalize="rows")
    with pytest.raises(ValueError, match="annotate"):
        plot_confusion_matrix(SMALL, annotate="yes")


def test_log_scale_with_zero_cells():
    cm = np.array([[1000, 0, 3], [0, 800, 0], [1, 0, 950]])
    ax = plot_confusion_matrix(cm, log_scale=True)
    image = _image(ax)
    assert isinstance(image.norm, LogNorm)
    assert image.norm.vmin == 1 and image.norm.vmax == 1000
    shown = image.get_array()
    assert np.ma.is_masked(shown)
    np.testing.assert_array_equal(np.ma.getmaskarray(shown), cm == 0)
    # The figure renders without warnings or errors despite the zeros.
    ax.figure.canvas.draw()
    # Zero cells are still annotated, in a colour readable on the light grey.
    zero_texts = [t for t in ax.texts if t.get_text() == "0"]
    assert len(zero_texts) == 4
    assert all(t.get_color() == "black" for t in zero_texts)


def test_log_scale_single_positive_value_and_all_zero():
    ax = plot_confusion_matrix(np.eye(3) * 5, log_scale=True)
    assert _image(ax).norm.vmax == 5
    ax.figure.canvas.draw()
    with pytest.raises(ValueError, match="log_scale"):
        plot_confusion_matrix(np.zeros((3, 3)), log_scale=True)


def test_log_scale_101_classes_keeps_ticks_readable():
    rng = np.random.default_rng(0)
    cm = np.diag(rng.integers(100, 170, size=101))
    cm[np.arange(100), np.arange(1, 101)] = rng.integers(0, 5, size=100)
    ax = plot_confusion_matrix(cm, log_scale=True)
    assert len(ax.texts) == 0  # too many classes to annotate by default
    assert len(ax.get_xticks()) <= 20
    assert len(ax.get_yticks()) <= 20
    # Thinned to a round step: 0, 10, ..., 100.
    np.testing.assert_array_equal(ax.get_xticks(), np.arange(0, 101, 10))
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(i) for i in range(0, 101, 10)]
    ax.figure.canvas.draw()


def test_annotation_count():
    assert len(plot_confusion_matrix(SMALL).texts) == 9
    assert len(plot_confusion_matrix(np.ones((12, 12))).texts) == 144
    assert len(plot_confusion_matrix(np.ones((13, 13))).texts) == 0
    assert len(plot_confusion_matrix(np.ones((13, 13)), annotate=True).texts) == 169
    assert len(plot_confusion_matrix(SMALL, annotate=False).texts) == 0


def test_annotation_text_contrasts_with_cell():
    ax = plot_confusion_matrix(np.array([[100, 0], [0, 100]]), cmap="viridis")
    colours = {t.get_text(): t.get_color() for t in ax.texts}
    assert colours["100"] == "black"  # viridis' top is light yellow
    assert colours["0"] == "white"  # viridis' bottom is dark purple


@pytest.mark.parametrize(
    "normalize, expected",
    [
        ("true", SMALL / SMALL.sum(axis=1, keepdims=True)),
        ("pred", SMALL / SMALL.sum(axis=0, keepdims=True)),
        ("all", SMALL / SMALL.sum()),
    ],
)
def test_normalize_matches_definition(normalize, expected):
    ax = plot_confusion_matrix(SMALL, normalize=normalize)
    np.testing.assert_allclose(np.asarray(_image(ax).get_array()), expected)
    assert ax.texts[0].get_text() == f"{expected[0, 0]:.2f}"
    assert (_image(ax).norm.vmin, _image(ax).norm.vmax) == (0.0, 1.0)  # shared scale for fractions


def test_normalize_matches_sklearn_and_keeps_empty_rows_zero():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    y_true = [0, 0, 1, 1, 1]
    y_pred = [0, 1, 1, 1, 0]
    for normalize in ("true", "pred", "all"):
        counts = sklearn_metrics.confusion_matrix(y_true, y_pred, labels=[0, 1, 2])
        expected = sklearn_metrics.confusion_matrix(
            y_true, y_pred, labels=[0, 1, 2], normalize=normalize
        )
        ax = plot_confusion_matrix(counts, normalize=normalize)
        np.testing.assert_allclose(np.asarray(_image(ax).get_array()), expected)


def test_title_and_cmap_are_honoured():
    ax = plot_confusion_matrix(SMALL, title="Validation, epoch 3", cmap="cividis")
    assert ax.get_title() == "Validation, epoch 3"
    assert _image(ax).get_cmap().name == "cividis"


@pytest.mark.parametrize(
    "old",
    [
        "curve_plots",
        "detection_plots",
        "widgets",
        "thresholds",
        "ranking",
        "curve_scores",
        "classification",
        "interpolated_ap",
        "isotonic",
        "grade",
    ],
)
def test_old_homes_are_gone(old):
    """The layout keeps no alias modules (issue 25): every name has one home, reached by its face."""
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"mltutor.{old}")


def test_plots_package_imports_without_pyplot():
    import subprocess
    import sys

    code = "import sys, mltutor.plots; assert 'matplotlib.pyplot' not in sys.modules; print('ok')"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "ok"


def test_every_plot_function_draws_text_readable_in_the_book():
    """No text below 9 pt, and every default-size figure reads at >= 8 px in the book's column."""
    import io

    from mltutor.plots import _text_record as tr
    from mltutor.plots import draw_iou, plot_pr, plot_reliability, plot_roc, plot_threshold_view
    from mltutor.plots._style import SMALL_TEXT_PT

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.35 * y + rng.uniform(0, 0.65, 300), 0, 1)
    r = np.linspace(0, 1, 20)
    draws = {
        "confusion, 12 classes annotated": lambda ax: plot_confusion_matrix(
            rng.integers(0, 100, (12, 12)), normalize="true", ax=ax
        ),
        "roc with a budget": lambda ax: plot_roc(
            r, np.sqrt(r), label="model", fpr_budget=0.1, ax=ax
        ),
        "pr with iso-F1": lambda ax: plot_pr(r, 1 - 0.5 * r, label="model", prevalence=0.3, ax=ax),
        "reliability": lambda ax: plot_reliability(y, p, label="model", ax=ax),
        "iou": lambda ax: draw_iou(ax, [0, 0, 10, 10], [3, 2, 13, 12]),
    }
    with matplotlib.rc_context({"figure.hooks": ["mltutor.plots._text_record:watch"]}):
        figures = {name: plt.subplots(figsize=(5.6, 5.0), layout="constrained") for name in draws}
        figures["threshold view"] = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    for name, draw in draws.items():
        draw(figures[name][1])
    plot_threshold_view(y, p, 0.5, axes=figures["threshold view"][1])
    for name, (fig, _) in figures.items():
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", bbox_inches="tight")
        plt.close(fig)
        record = tr.read_record(buffer.getvalue())
        assert record["smallest_pt"] >= SMALL_TEXT_PT, (name, record)
        assert tr.shown_text_px(record) >= tr.MIN_TEXT_PX, (name, record)
