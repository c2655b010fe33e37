"""mltutor.plots.detection: boxes land where their coordinates say, and draw_iou reports the IoU."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mltutor.plots.detection import draw_boxes, draw_iou  # noqa: E402


def test_draw_boxes_xyxy_and_xywh_agree():
    fig, (a, b) = plt.subplots(1, 2)
    pa = draw_boxes(a, [[10, 20, 50, 40]], labels=["cat"])
    pb = draw_boxes(b, [[10, 20, 40, 20]], fmt="xywh")
    for p in (pa[0], pb[0]):
        assert (p.get_x(), p.get_y(), p.get_width(), p.get_height()) == (10, 20, 40, 20)
    assert a.yaxis_inverted()  # image coordinates: y grows downwards
    assert a.texts[0].get_text().strip() == "cat"
    plt.close(fig)


def test_draw_boxes_keeps_earlier_boxes_in_view_and_checks_input():
    fig, ax = plt.subplots()
    draw_boxes(ax, [[0, 0, 10, 10]])
    draw_boxes(ax, np.array([[100, 100, 120, 130]]), color=["tab:red"], linestyle="--")
    x_lo, x_hi = ax.get_xlim()
    assert x_lo < 0 and x_hi > 120
    assert len(draw_boxes(ax, np.zeros((0, 4)))) == 0
    with pytest.raises(ValueError, match="shape"):
        draw_boxes(ax, [[1, 2, 3]])
    with pytest.raises(ValueError, match="labels"):
        draw_boxes(ax, [[0, 0, 1, 1]], labels=["a", "b"])
    plt.close(fig)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ([0, 0, 10, 10], [5, 0, 15, 10], 50 / 150),
        ([0, 0, 10, 10], [10, 0, 20, 10], 0.0),  # touching edges
        ([0, 0, 10, 10], [0, 0, 10, 10], 1.0),
        ([0, 0, 10, 10], [20, 20, 30, 30], 0.0),
    ],
)
def test_draw_iou(a, b, expected):
    fig, ax = plt.subplots()
    assert draw_iou(ax, a, b) == pytest.approx(expected, abs=1e-15)
    assert "IoU" in ax.get_title()
    plt.close(fig)


def test_draw_iou_labels_do_not_cover_each_other():
    """Two boxes with nearly the same top-left corner: the second label goes to its bottom right."""
    fig, ax = plt.subplots(figsize=(3.5, 3.5))
    draw_iou(ax, [100, 100, 200, 200], [105, 102, 203, 198], names=("truth", "detection"))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    first, second = (t.get_window_extent(renderer) for t in ax.texts)
    assert not first.overlaps(second)
    assert ax.texts[1].get_ha() == "right" and ax.texts[1].get_text().strip() == "detection"
    plt.close(fig)


def test_label_corner_is_checked():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="label_corner"):
        draw_boxes(ax, [[0, 0, 1, 1]], labels=["a"], label_corner="middle")
    plt.close(fig)
