"""Pictures for the detection chapter: boxes on an axes, and their overlap.

Image coordinates: x grows to the right and y grows *downwards* (row index), as in COCO and every
image library.  :func:`draw_boxes` flips the y axis of the axes it draws on unless told otherwise,
so a box near y = 0 appears at the top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._style import SMALL_TEXT_PT

__all__ = ["draw_boxes", "draw_iou", "plot_f1_confidence"]

# Okabe-Ito colours (as in mltutor.plots.curves): distinguishable with the common colour-vision
# deficiencies, unlike the default red/green pair. Box labels carry the names as text too.
BOX_COLOUR = "#0072B2"  # blue
IOU_COLOURS = ("#009E73", "#D55E00")  # bluish green (first box), vermillion (second box)
INTERSECTION_COLOUR = "#CC79A7"  # reddish purple, hatched


def _as_xyxy(boxes: Any, fmt: str) -> np.ndarray:
    b = np.asarray(boxes, dtype=float)
    if b.ndim == 1 and b.size == 4:
        b = b.reshape(1, 4)
    if b.ndim != 2 or (b.size and b.shape[1] != 4):
        raise ValueError(f"boxes must have shape (n, 4); got {np.shape(boxes)}.")
    if b.size == 0:
        return b.reshape(0, 4)
    if fmt == "xywh":
        return np.c_[b[:, :2], b[:, :2] + b[:, 2:]]
    if fmt != "xyxy":
        raise ValueError(f"fmt must be 'xyxy' or 'xywh'; got {fmt!r}.")
    return b


def draw_boxes(
    ax: Any,
    boxes: Any,
    *,
    fmt: str = "xyxy",
    labels: Sequence[str] | None = None,
    color: Any = BOX_COLOUR,
    linestyle: str = "-",
    linewidth: float = 2.0,
    fill_alpha: float = 0.0,
    label: str | None = None,
    invert_y: bool = True,
    autoscale: bool = True,
    fontsize: float = SMALL_TEXT_PT,
    label_corner: str = "top left",
) -> list:
    """Draw rectangles on a Matplotlib axes; return the patches.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    boxes : array-like of shape (n, 4) or (4,)
        ``[x1, y1, x2, y2]`` (``fmt="xyxy"``) or ``[x, y, width, height]`` (``fmt="xywh"``, COCO).
    labels : sequence of str, optional
        Text written at a corner of each box (a class name, a score, "TP"/"FP").
    label_corner : {"top left", "bottom right"}
        Where the labels go: just above the top-left corner (as on screen), or inside the
        bottom-right corner, which keeps the labels of two boxes with nearly the same top-left
        corner apart.
    color : colour or sequence of colours
        One colour for all boxes, or one per box.
    linestyle, linewidth, fill_alpha
        Outline style; ``fill_alpha > 0`` also fills the box with a translucent colour.
    label : str, optional
        Legend entry (given to the first box only).
    invert_y : bool
        Put y = 0 at the top, as in an image.
    autoscale : bool
        Widen the axes limits to show every box with a margin.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> patches = draw_boxes(ax, [[10, 10, 50, 40], [30, 20, 70, 60]], labels=["truth", "detection"])
    >>> len(patches)
    2
    >>> plt.close(fig)
    """
    from matplotlib.patches import Rectangle

    xyxy = _as_xyxy(boxes, fmt)
    n = xyxy.shape[0]
    fresh = not ax.patches  # nothing drawn yet: the limits are ours to set
    if (
        isinstance(color, (list, tuple, np.ndarray))
        and len(color) == n
        and n
        and not isinstance(color[0], float)
    ):
        colors = list(color)
    else:
        colors = [color] * n
    if labels is not None and len(labels) != n:
        raise ValueError(f"labels has {len(labels)} entries for {n} boxes.")
    if label_corner not in ("top left", "bottom right"):
        raise ValueError(
            f"label_corner must be 'top left' or 'bottom right'; got {label_corner!r}."
        )
    patches = []
    for i, (x1, y1, x2, y2) in enumerate(xyxy):
        c = colors[i]
        rect = Rectangle(
            (x1, y1),
            x2 - x1,
            y2 - y1,
            fill=False,
            edgecolor=c,
            linestyle=linestyle,
            linewidth=linewidth,
            label=label if i == 0 else None,
        )
        ax.add_patch(rect)
        patches.append(rect)
        if fill_alpha > 0:
            ax.add_patch(
                Rectangle(
                    (x1, y1), x2 - x1, y2 - y1, facecolor=c, alpha=fill_alpha, edgecolor="none"
                )
            )
        if labels is not None and labels[i]:
            # va is on screen; with y pointing down (invert_y) the box's top edge is y1.
            top, bottom = (y1, y2) if invert_y else (y2, y1)
            x, y, ha, va = (
                (x1, top, "left", "bottom")
                if label_corner == "top left"
                else (x2, bottom, "right", "bottom")
            )
            text = f" {labels[i]}" if label_corner == "top left" else f"{labels[i]} "
            ax.text(
                x,
                y,
                text,
                color="white",
                fontsize=fontsize,
                va=va,
                ha=ha,
                bbox=dict(facecolor=c, edgecolor="none", pad=1.0, alpha=0.9),
            )
    if autoscale and n:
        _widen_limits(ax, xyxy, invert_y, fresh)
    elif invert_y and not ax.yaxis_inverted():
        ax.invert_yaxis()
    ax.set_aspect("equal", adjustable="box")
    return patches


def _widen_limits(ax: Any, xyxy: np.ndarray, invert_y: bool, fresh: bool) -> None:
    """Show every box with a margin; keep what earlier calls showed."""
    x1, y1 = xyxy[:, 0].min(), xyxy[:, 1].min()
    x2, y2 = xyxy[:, 2].max(), xyxy[:, 3].max()
    pad = 0.08 * max(x2 - x1, y2 - y1, 1.0)
    old_x, old_y = ax.get_xlim(), sorted(ax.get_ylim())
    lo_x, hi_x = (
        (x1 - pad, x2 + pad) if fresh else (min(old_x[0], x1 - pad), max(old_x[1], x2 + pad))
    )
    lo_y, hi_y = (
        (y1 - pad, y2 + pad) if fresh else (min(old_y[0], y1 - pad), max(old_y[1], y2 + pad))
    )
    ax.set_xlim(lo_x, hi_x)
    ax.set_ylim((hi_y, lo_y) if invert_y else (lo_y, hi_y))


def draw_iou(
    ax: Any,
    box_a: Any,
    box_b: Any,
    *,
    fmt: str = "xyxy",
    names: Sequence[str] = ("A", "B"),
    colors: Sequence[Any] = IOU_COLOURS,
) -> float:
    """Draw two boxes, shade their intersection, write the IoU in the title; return the IoU.

    .. math:: \\mathrm{IoU}(A, B) = \\frac{|A \\cap B|}{|A| + |B| - |A \\cap B|}
    """
    from matplotlib.patches import Rectangle

    a, b = _as_xyxy(box_a, fmt)[0], _as_xyxy(box_b, fmt)[0]
    # The second label goes inside the bottom-right corner: two overlapping boxes often share
    # nearly the same top-left corner, and their labels would cover each other there.
    draw_boxes(ax, a, color=colors[0], labels=[names[0]])
    draw_boxes(ax, b, color=colors[1], labels=[names[1]], label_corner="bottom right")
    ix1, iy1 = max(a[0], b[0]), max(a[1], b[1])
    ix2, iy2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(ix2 - ix1, 0.0) * max(iy2 - iy1, 0.0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    iou = inter / union if union > 0 else 0.0
    if inter > 0:
        ax.add_patch(
            Rectangle(
                (ix1, iy1),
                ix2 - ix1,
                iy2 - iy1,
                facecolor=INTERSECTION_COLOUR,
                alpha=0.35,
                edgecolor="none",
                hatch="//",
            )
        )
    ax.set_title(f"IoU = {inter:g} / {union:g} = {iou:.3f}")
    ax.set_xlabel("x (pixels)")
    ax.set_ylabel("y (pixels, downwards)")
    return float(iou)


def plot_f1_confidence(
    curve: dict, *, ax: Any = None, names: Sequence[str] | None = None, title: str | None = None
) -> Any:
    r"""F1 against the confidence threshold, one line per class, best threshold of each marked.

    Draws what :func:`mltutor.detection.f1_confidence_curve` returned:
    :math:`F1_k(c) = 2\,\mathrm{TP}_k / (2\,\mathrm{TP}_k + \mathrm{FP}_k + \mathrm{FN}_k)` for each
    class *k* against *c*, a dot at ``best_threshold``, and the mean over classes (dashed black);
    the legend gives each line's highest F1 and the threshold where it is reached.

    Parameters
    ----------
    curve : dict
        The result of :func:`mltutor.detection.f1_confidence_curve`.
    ax : matplotlib.axes.Axes, optional
        A new figure is created when omitted.
    names : sequence of str, optional
        One name per class (default: the category ids).
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> c = {"thresholds": np.array([0.0, 0.5, 1.0]), "cat_ids": [1], "f1": np.array([[0.5, 0.8, 0.0]]),
    ...      "best_threshold": np.array([0.5]), "best_f1": np.array([0.8]),
    ...      "mean_f1": np.array([0.5, 0.8, 0.0]), "best_mean_threshold": 0.5}
    >>> len(plot_f1_confidence(c).lines)
    3
    """
    import matplotlib.pyplot as plt

    from .curves import OKABE_ITO

    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 4.2))
    grid = np.asarray(curve["thresholds"], dtype=np.float64)
    f1 = np.asarray(curve["f1"], dtype=np.float64)
    labels = list(names) if names is not None else [str(c) for c in curve["cat_ids"]]
    colours = OKABE_ITO[1:]
    for k in range(f1.shape[0]):
        colour = colours[k % len(colours)]
        if np.all(np.isnan(f1[k])):
            continue
        best_t, best = curve["best_threshold"][k], curve["best_f1"][k]
        ax.plot(grid, f1[k], color=colour, label=f"{labels[k]}: {best:.2f} at {best_t:.2f}")
        ax.plot([best_t], [best], "o", color=colour)
    mean = np.asarray(curve["mean_f1"], dtype=np.float64)
    if not np.all(np.isnan(mean)):
        ax.plot(
            grid,
            mean,
            "--",
            color=OKABE_ITO[0],
            label=f"mean: {np.nanmax(mean):.2f} at {curve['best_mean_threshold']:.2f}",
        )
    ax.set_xlim(grid[0], grid[-1])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("confidence threshold")
    ax.set_ylabel("F1")
    ax.legend(loc="lower left", fontsize=SMALL_TEXT_PT)
    if title:
        ax.set_title(title)
    return ax
