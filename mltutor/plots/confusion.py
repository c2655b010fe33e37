"""The confusion-matrix heatmap.

It follows scikit-learn's layout: rows are the true
label, columns the predicted label.  It adds the two things the course needs
most: a logarithmic colour scale that keeps a 101-class matrix readable when
its diagonal dwarfs every confusion, and automatic annotation with text whose
colour is chosen for contrast against the cell underneath.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import matplotlib as mpl
import numpy as np
from matplotlib.colors import Colormap, LogNorm, Normalize

from .._validation.plots import check_confusion_matrix
from ._style import SMALL_TEXT_PT

if TYPE_CHECKING:  # pragma: no cover - imported for type hints only
    from matplotlib.axes import Axes

__all__ = ["plot_confusion_matrix"]

#: Largest matrix that gets per-cell numbers when ``annotate=None``.
ANNOTATE_MAX_CLASSES = 12
#: Most tick labels drawn on one axis; more classes get every k-th label.
MAX_TICK_LABELS = 20
#: Colour used for zero cells on a log scale (they have no logarithm).
ZERO_CELL_COLOUR = "#f2f2f2"

_NORMALIZE_TITLES = {
    None: ("Confusion matrix", "count"),
    "true": ("Rows normalised: recall on the diagonal", "fraction of the true class"),
    "pred": ("Columns normalised: precision on the diagonal", "fraction of the predicted class"),
    "all": ("Normalised by the total", "fraction of all samples"),
}


def _normalize(cm: np.ndarray, normalize: str | None) -> np.ndarray:
    """Divide by row, column or grand totals as scikit-learn does (0/0 becomes 0)."""
    if normalize is None:
        return cm
    if normalize == "true":
        totals = cm.sum(axis=1, keepdims=True)
    elif normalize == "pred":
        totals = cm.sum(axis=0, keepdims=True)
    else:  # "all"
        totals = np.full((1, 1), cm.sum())
    totals = np.broadcast_to(totals, cm.shape)
    out = np.zeros_like(cm)
    np.divide(cm, totals, out=out, where=totals > 0)
    return out


def _tick_positions(n: int) -> np.ndarray:
    """Every k-th class index, k a round number, so at most ``MAX_TICK_LABELS`` are drawn."""
    needed = math.ceil(n / MAX_TICK_LABELS)
    decade = 1
    while True:
        for multiple in (1, 2, 5):
            step = multiple * decade
            if step >= needed:
                return np.arange(0, n, step)
        decade *= 10


def _text_colour(rgba: Sequence[float]) -> str:
    """Black or white, whichever contrasts more with the background colour ``rgba``."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b  # WCAG relative luminance
    # Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05); equal at L ~ 0.179.
    return "black" if luminance > 0.179 else "white"


def plot_confusion_matrix(
    cm: np.ndarray | Sequence[Sequence[float]],
    *,
    labels: Sequence[object] | None = None,
    normalize: Literal["true", "pred", "all"] | None = None,
    log_scale: bool = False,
    ax: Axes | None = None,
    cmap: str | Colormap = "viridis",
    annotate: bool | None = None,
    title: str | None = None,
) -> Axes:
    """Draw a confusion matrix as a heatmap with a colour bar.

    Rows are the true label and columns the predicted label, as in
    :func:`sklearn.metrics.confusion_matrix`.  Cell ``(i, j)`` counts samples of
    true class ``i`` predicted as class ``j``, so the diagonal holds the correct
    predictions.

    Parameters
    ----------
    cm : array-like of shape (n_classes, n_classes)
        The confusion matrix: non-negative, finite counts (or weights, or an
        already normalised matrix).
    labels : sequence of length n_classes, optional
        Class names for the ticks, in the order of the rows.  Defaults to
        ``0 .. n_classes - 1``.  With more than 20 classes only every k-th tick
        is labelled so that the names stay legible.
    normalize : {'true', 'pred', 'all'} or None, default=None
        Normalise the counts before plotting, with scikit-learn's meaning:
        ``'true'`` divides each row by its sum (the diagonal becomes each class's
        recall), ``'pred'`` divides each column by its sum (the diagonal becomes
        precision), ``'all'`` divides by the total.  Rows or columns that sum to
        0 stay 0.  Normalised matrices use a fixed 0 to 1 colour scale (unless
        ``log_scale=True``), so that two panels can be compared by colour.
    log_scale : bool, default=False
        Use a logarithmic colour scale (:class:`matplotlib.colors.LogNorm`)
        from the smallest positive cell to the largest.  Zero cells have no
        logarithm; they are masked and drawn in light grey.  Use this when a
        large diagonal would otherwise squash every confusion into one colour.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on.  A new figure is created when omitted.
    cmap : str or matplotlib.colors.Colormap, default='viridis'
        Colour map.  The default is perceptually uniform and readable with
        the common forms of colour blindness; ``'cividis'`` is another choice.
    annotate : bool, optional
        Write the value in each cell.  By default cells are annotated when
        the matrix has at most 12 classes.  Text is black or white, whichever
        contrasts more with the cell colour.
    title : str, optional
        Axes title.  Defaults to a title that says which normalisation is shown.

    Returns
    -------
    matplotlib.axes.Axes
        The axes holding the heatmap (the colour bar has its own axes).

    Raises
    ------
    ValueError
        If ``cm`` is not a 2-D square array of finite, non-negative numbers,
        if ``labels`` does not have one entry per class, if ``normalize`` is
        not one of the accepted values, or if ``log_scale=True`` and every
        cell is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from mltutor.plots import plot_confusion_matrix
    >>> cm = np.array([[50, 2], [5, 43]])
    >>> ax = plot_confusion_matrix(cm, labels=["ham", "spam"])
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Predicted label', 'True label')
    >>> len(ax.texts)  # one number per cell
    4
    """
    import matplotlib.pyplot as plt  # imported lazily: importing mltutor needs no backend

    counts = check_confusion_matrix(cm)
    n = counts.shape[0]

    if normalize not in _NORMALIZE_TITLES:
        raise ValueError(
            f"normalize must be one of 'true', 'pred', 'all' or None, got {normalize!r}."
        )
    if labels is None:
        tick_labels = [str(i) for i in range(n)]
    else:
        if isinstance(labels, str):
            raise ValueError("labels must be a sequence of class names, not a single string.")
        tick_labels = [str(lab) for lab in labels]
        if len(tick_labels) != n:
            raise ValueError(
                f"labels has {len(tick_labels)} entries but cm has {n} classes; "
                "give exactly one label per row of cm."
            )
    if annotate is not None and not isinstance(annotate, (bool, np.bool_)):
        raise ValueError(f"annotate must be True, False or None, got {annotate!r}.")

    values = _normalize(counts, normalize)
    colormap = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap

    if log_scale:
        positive = values[values > 0]
        if positive.size == 0:
            raise ValueError("log_scale=True needs at least one positive cell in cm; all are 0.")
        vmin, vmax = float(positive.min()), float(positive.max())
        if vmin == vmax:  # a single distinct value: give the scale one decade of room
            vmin = vmax / 10.0
        norm: Normalize = LogNorm(vmin=vmin, vmax=vmax)
        shown = np.ma.masked_less_equal(values, 0.0)
        colormap = colormap.with_extremes(bad=ZERO_CELL_COLOUR)
    else:
        # Fractions share one fixed 0..1 scale, so that panels normalised differently compare.
        vmax = 1.0 if normalize is not None else float(values.max())
        norm = Normalize(vmin=0.0, vmax=vmax if vmax > 0 else 1.0)
        shown = values

    if ax is None:
        side = float(np.clip(2.5 + 0.5 * n, 4.0, 7.0))
        _, ax = plt.subplots(figsize=(side + 1.2, side), layout="constrained")

    image = ax.imshow(shown, cmap=colormap, norm=norm, interpolation="nearest", aspect="equal")
    default_title, bar_label = _NORMALIZE_TITLES[normalize]
    if log_scale:
        bar_label += " (log scale; 0 in grey)"
    ax.figure.colorbar(image, ax=ax, label=bar_label)

    ticks = _tick_positions(n)
    # Rotate the column names only when they would run into each other.
    widest = max(len(tick_labels[i]) for i in ticks)
    rotation = 0 if widest * len(ticks) <= 48 else (45 if len(ticks) <= 12 else 90)
    ax.set_xticks(
        ticks,
        [tick_labels[i] for i in ticks],
        rotation=rotation,
        ha="right" if rotation == 45 else "center",
        rotation_mode="anchor" if rotation == 45 else "default",
    )
    ax.set_yticks(ticks, [tick_labels[i] for i in ticks])
    ax.set_xlabel("Predicted label")
    ax.set_ylabel("True label")
    ax.set_title(default_title if title is None else title)

    if annotate is None:
        annotate = n <= ANNOTATE_MAX_CLASSES
    if annotate:
        integral = normalize is None and np.all(values == np.round(values))
        fontsize = (
            11 if n <= 5 else (10 if n <= 8 else SMALL_TEXT_PT)
        )  # 12 classes: 9 pt still fits
        for (i, j), v in np.ndenumerate(values):
            background = (
                mpl.colors.to_rgba(ZERO_CELL_COLOUR) if log_scale and v <= 0 else colormap(norm(v))
            )
            text = f"{int(v)}" if integral else f"{v:.2f}"
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=fontsize,
                color=_text_colour(background),
            )
    return ax
