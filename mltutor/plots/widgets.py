"""Interactive explorers for notebooks (ipywidgets), and their static twins for the HTML book.

* :func:`threshold_explorer` — a slider over the decision threshold with a live confusion matrix,
  precision, recall, F-beta, accuracy (and cost) and the picture below.
* :func:`plot_threshold_view` — the same picture for one threshold, as plain matplotlib axes, so a
  chapter can show it in the built book where widgets do not run.

ipywidgets and pyplot are imported inside the functions: ``import mltutor`` needs neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..curves import check_binary_scores
from ._style import LEGEND_PT
from ..thresholds import OperatingPoint, ThresholdSweep, _check_cost, _check_threshold, threshold_sweep

if TYPE_CHECKING:  # pragma: no cover - type hints only
    from matplotlib.axes import Axes

__all__ = ["plot_threshold_view", "threshold_explorer"]

NEGATIVE_COLOUR = "tab:blue"
POSITIVE_COLOUR = "tab:orange"
_CURVE_COLOURS = {"precision": "tab:green", "recall": "tab:red", "fbeta": "tab:purple"}


@dataclass(frozen=True)
class _ViewData:
    """Everything the picture needs, computed once: the sweep and the scores by class."""

    sweep: ThresholdSweep
    scores: np.ndarray
    is_positive: np.ndarray
    bins: np.ndarray


def _view_data(y_true: Any, y_score: Any, beta: float, pos_label: Any) -> _ViewData:
    is_positive, scores, _, pos_label = check_binary_scores(y_true, y_score, pos_label)
    scores = scores.astype(np.float64)
    sweep = threshold_sweep(is_positive, scores, pos_label=True, beta=beta)
    bins = np.histogram_bin_edges(scores, bins=min(40, max(10, int(np.sqrt(scores.size)))))
    return _ViewData(sweep, scores, is_positive, bins)


def _draw(axes: Sequence[Axes], data: _ViewData, threshold: float) -> OperatingPoint:
    """Draw both panels for ``threshold`` on two (cleared) axes; return the operating point."""
    point = data.sweep.at(threshold)
    ax_hist, ax_curve = axes[0], axes[1]
    for ax in (ax_hist, ax_curve):
        ax.clear()

    negatives, positives = data.scores[~data.is_positive], data.scores[data.is_positive]
    ax_hist.hist(negatives, bins=data.bins, alpha=0.6, color=NEGATIVE_COLOUR,
                 label=f"negatives (n={negatives.size})")
    ax_hist.hist(positives, bins=data.bins, alpha=0.6, color=POSITIVE_COLOUR,
                 label=f"positives (n={positives.size})")
    lo, hi = data.bins[0], data.bins[-1]
    if threshold <= hi:
        ax_hist.axvspan(max(threshold, lo), hi, color="0.85", zorder=0, label="predicted positive")
    ax_hist.axvline(threshold, color="black", linestyle="--", label=f"threshold = {threshold:.3g}")
    ax_hist.set_title("Scores by true class")
    ax_hist.set_xlabel("score")
    ax_hist.set_ylabel("number of samples")
    ax_hist.legend(loc="best", fontsize=LEGEND_PT)

    sweep = data.sweep
    x = sweep.thresholds[::-1]  # increasing; the value on (x[j-1], x[j]] is the one at x[j]
    names = {"precision": "precision", "recall": "recall", "fbeta": f"F{sweep.beta:g}"}
    for metric, name in names.items():
        colour = _CURVE_COLOURS[metric]
        ax_curve.step(x, getattr(sweep, metric)[::-1], where="pre", color=colour, label=name)
        ax_curve.plot([threshold], [getattr(point, metric)], "o", color=colour, markersize=7)
    ax_curve.axvline(threshold, color="black", linestyle="--")
    ax_curve.set_ylim(-0.03, 1.03)
    ax_curve.set_title(f"Precision, recall and {names['fbeta']} vs threshold")
    ax_curve.set_xlabel("threshold (predict positive when score >= threshold)")
    ax_curve.set_ylabel("value")
    ax_curve.legend(loc="lower left", fontsize=LEGEND_PT)
    return point


def plot_threshold_view(
    y_true: Any,
    y_score: Any,
    threshold: float,
    *,
    beta: float = 1.0,
    pos_label: Any = None,
    axes: Sequence[Axes] | None = None,
) -> np.ndarray:
    """The threshold picture for one threshold: score histograms and P/R/F-beta curves.

    Left: histograms of the scores of the negatives and the positives, the threshold as a dashed
    line and the "predicted positive" region (``score >= threshold``) shaded.  Right: precision,
    recall and F-beta at every threshold (from :func:`mltutor.thresholds.threshold_sweep`) with
    markers at the chosen one.  This is the static twin of :func:`threshold_explorer`.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`mltutor.thresholds.threshold_sweep`.
    threshold : float
        The threshold to show (any real number).
    beta : float, default=1.0
        F-beta weight.
    axes : sequence of two matplotlib Axes, optional
        Where to draw; a new 1x2 figure if omitted.

    Returns
    -------
    ndarray of two Axes
        ``(histogram axes, curve axes)``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> axes = plot_threshold_view(y, rng.normal(y, 1.0), threshold=0.5)
    >>> [ax.get_title() for ax in axes]
    ['Scores by true class', 'Precision, recall and F1 vs threshold']
    """
    threshold = _check_threshold(threshold)
    data = _view_data(y_true, y_score, beta, pos_label)
    if axes is None:
        import matplotlib.pyplot as plt  # lazily: importing mltutor needs no backend

        _, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    axes = np.asarray(axes, dtype=object).ravel()
    if axes.shape[0] != 2:
        raise ValueError(f"axes must hold exactly two Axes; got {axes.shape[0]}.")
    _draw(axes, data, threshold)
    return axes


def _format_count(value: float) -> str:
    return f"{value:d}" if isinstance(value, (int, np.integer)) else f"{value:.4g}"


def readout_text(point: OperatingPoint, *, c_fp: float | None = None, c_fn: float | None = None) -> str:
    """The explorer's text: the 2x2 confusion counts and the rates at one operating point.

    Examples
    --------
    >>> from mltutor.thresholds import threshold_sweep
    >>> point = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).at(0.3)
    >>> print(readout_text(point, c_fp=1, c_fn=5))
    predict positive when score >= 0.3
              predicted -   predicted +
    actual -       TN = 1        FP = 1
    actual +       FN = 0        TP = 2
    precision 0.667   recall 1.000   F1 0.800   accuracy 0.750
    cost = 1*FP + 5*FN = 1
    """
    cells = {k: _format_count(getattr(point, k)) for k in ("tn", "fp", "fn", "tp")}
    w = max(11, 5 + max(len(v) for v in cells.values()))
    lines = [
        f"predict positive when score >= {point.threshold:.4g}",
        f"{'':10}{'predicted -':>{w}}   {'predicted +':>{w}}",
        f"{'actual -':<10}{'TN = ' + cells['tn']:>{w}}   {'FP = ' + cells['fp']:>{w}}",
        f"{'actual +':<10}{'FN = ' + cells['fn']:>{w}}   {'TP = ' + cells['tp']:>{w}}",
        f"precision {point.precision:.3f}   recall {point.recall:.3f}   "
        f"F{point.beta:g} {point.fbeta:.3f}   accuracy {point.accuracy:.3f}",
    ]
    if c_fp is not None and c_fn is not None:
        lines.append(f"cost = {c_fp:g}*FP + {c_fn:g}*FN = {point.cost(c_fp, c_fn):.4g}")
    return "\n".join(lines)


def threshold_explorer(
    y_true: Any,
    y_score: Any,
    *,
    beta: float = 1.0,
    c_fp: float | None = None,
    c_fn: float | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
) -> Any:
    """A slider over the decision threshold with a live readout and figure (ipywidgets).

    Moving the slider re-reads the counts from one precomputed
    :func:`~mltutor.thresholds.threshold_sweep` (no re-sorting) and redraws the picture of
    :func:`plot_threshold_view`.  The readout shows the 2x2 confusion counts, precision, recall,
    F-beta and accuracy, and the total cost ``c_fp * FP + c_fn * FN`` when both costs are given.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`mltutor.thresholds.threshold_sweep`.
    beta : float, default=1.0
        F-beta weight.
    c_fp, c_fn : float, optional
        Costs of a false positive and a false negative; give both or neither.
    threshold : float, optional
        Initial slider position: 0.5 if the scores lie in [0, 1], else their median.

    Returns
    -------
    ipywidgets.VBox
        ``children == (slider, readout, figure output)``; ``slider`` is a ``FloatSlider``,
        ``readout`` an ``HTML`` widget whose value is the text in a ``<pre>`` block.

    Examples
    --------
    In a notebook::

        from mltutor.plots import threshold_explorer
        threshold_explorer(y_val, p_val, beta=2, c_fp=1, c_fn=10)
    """
    import html

    import ipywidgets as widgets  # lazily: ipywidgets is only needed for the explorer
    import matplotlib.pyplot as plt
    from IPython.display import display

    if (c_fp is None) != (c_fn is None):
        raise ValueError("Give both c_fp and c_fn (the cost of each error), or neither.")
    if c_fp is not None:
        c_fp, c_fn = _check_cost(c_fp, "c_fp"), _check_cost(c_fn, "c_fn")
    data = _view_data(y_true, y_score, beta, pos_label)
    lo, hi = float(data.scores.min()), float(data.scores.max())
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    if threshold is None:
        threshold = 0.5 if 0.0 <= lo and hi <= 1.0 else float(np.median(data.scores))
    threshold = _check_threshold(threshold)
    slider = widgets.FloatSlider(
        value=min(max(threshold, lo), hi), min=lo, max=hi, step=(hi - lo) / 500,
        description="threshold", readout_format=".3f", continuous_update=False,
        layout=widgets.Layout(width="60%"),
    )
    readout = widgets.HTML()
    output = widgets.Output()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    plt.close(fig)  # shown through the Output widget only, not again by the inline backend

    def update(change: Any = None) -> None:
        point = _draw(axes, data, float(slider.value))
        text = readout_text(point, c_fp=c_fp, c_fn=c_fn)
        readout.value = f"<pre>{html.escape(text)}</pre>"
        with output:
            output.clear_output(wait=True)
            display(fig)

    slider.observe(update, names="value")
    update()
    return widgets.VBox([slider, readout, output])
