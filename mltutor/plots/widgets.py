"""Interactive explorers for notebooks (ipywidgets), and their static twins for the HTML book.

* :func:`threshold_explorer` — a slider over the decision threshold with a live confusion matrix,
  precision, recall, F-beta, accuracy (and cost) and the picture below.
* :func:`plot_threshold_view` — the same picture for one threshold, as plain matplotlib axes, so a
  chapter can show it in the built book where widgets do not run.
* :func:`static_threshold_explorer` — the explorer computed in advance on a round grid of
  thresholds, as an HTML block whose slider works on a web page with no kernel (about twenty lines
  of JavaScript).

ipywidgets and pyplot are imported inside the functions: ``import mltutor`` needs neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_binary_scores
from .._validation.params import check_cost, check_scalar, check_threshold
from ..curves import OperatingPoint, ThresholdSweep, threshold_sweep
from ._style import LEGEND_PT

if TYPE_CHECKING:  # pragma: no cover - type hints only
    from matplotlib.axes import Axes

__all__ = [
    "StaticThresholdExplorer",
    "plot_threshold_view",
    "static_threshold_explorer",
    "threshold_explorer",
]

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


def _draw_scores(ax: Axes, data: _ViewData) -> None:
    """The score histograms of the two classes (nothing that depends on the threshold)."""
    negatives, positives = data.scores[~data.is_positive], data.scores[data.is_positive]
    ax.hist(
        negatives,
        bins=data.bins,
        alpha=0.6,
        color=NEGATIVE_COLOUR,
        label=f"negatives (n={negatives.size})",
    )
    ax.hist(
        positives,
        bins=data.bins,
        alpha=0.6,
        color=POSITIVE_COLOUR,
        label=f"positives (n={positives.size})",
    )
    ax.set_title("Scores by true class")
    ax.set_xlabel("score")
    ax.set_ylabel("number of samples")


def _draw_curves(ax: Axes, sweep: ThresholdSweep) -> dict[str, str]:
    """Precision, recall and F-beta at every threshold; returns {metric: legend name}."""
    x = sweep.thresholds[::-1]  # increasing; the value on (x[j-1], x[j]] is the one at x[j]
    names = {"precision": "precision", "recall": "recall", "fbeta": f"F{sweep.beta:g}"}
    for metric, name in names.items():
        ax.step(
            x, getattr(sweep, metric)[::-1], where="pre", color=_CURVE_COLOURS[metric], label=name
        )
    ax.set_ylim(-0.03, 1.03)
    ax.set_title(f"Precision, recall and {names['fbeta']} vs threshold")
    ax.set_xlabel("threshold (predict positive when score >= threshold)")
    ax.set_ylabel("value")
    return names


def _draw(axes: Sequence[Axes], data: _ViewData, threshold: float) -> OperatingPoint:
    """Draw both panels for ``threshold`` on two (cleared) axes; return the operating point."""
    point = data.sweep.at(threshold)
    ax_hist, ax_curve = axes[0], axes[1]
    for ax in (ax_hist, ax_curve):
        ax.clear()

    _draw_scores(ax_hist, data)
    lo, hi = data.bins[0], data.bins[-1]
    if threshold <= hi:
        ax_hist.axvspan(max(threshold, lo), hi, color="0.85", zorder=0, label="predicted positive")
    ax_hist.axvline(threshold, color="black", linestyle="--", label=f"threshold = {threshold:.3g}")
    ax_hist.legend(loc="best", fontsize=LEGEND_PT)

    names = _draw_curves(ax_curve, data.sweep)
    for metric in names:
        ax_curve.plot(
            [threshold], [getattr(point, metric)], "o", color=_CURVE_COLOURS[metric], markersize=7
        )
    ax_curve.axvline(threshold, color="black", linestyle="--")
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
    recall and F-beta at every threshold (from :func:`mltutor.curves.threshold_sweep`) with
    markers at the chosen one.  This is the static twin of :func:`threshold_explorer`.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`mltutor.curves.threshold_sweep`.
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
    threshold = check_threshold(threshold)
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


def readout_text(
    point: OperatingPoint, *, c_fp: float | None = None, c_fn: float | None = None
) -> str:
    """The explorer's text: the 2x2 confusion counts and the rates at one operating point.

    Examples
    --------
    >>> from mltutor.curves import threshold_sweep
    >>> point = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).at(0.3)
    >>> print(readout_text(point, c_fp=1, c_fn=5))
    predict positive when score >= 0.3
              predicted -   predicted +
    actual -       TN = 1        FP = 1
    actual +       FN = 0        TP = 2
    precision 0.667   recall 1.000
    F1 0.800   accuracy 0.750
    cost = 1*FP + 5*FN = 1
    """
    cells = {k: _format_count(getattr(point, k)) for k in ("tn", "fp", "fn", "tp")}
    w = max(11, 5 + max(len(v) for v in cells.values()))
    lines = [
        f"predict positive when score >= {point.threshold:.4g}",
        f"{'':10}{'predicted -':>{w}}   {'predicted +':>{w}}",
        f"{'actual -':<10}{'TN = ' + cells['tn']:>{w}}   {'FP = ' + cells['fp']:>{w}}",
        f"{'actual +':<10}{'FN = ' + cells['fn']:>{w}}   {'TP = ' + cells['tp']:>{w}}",
        # Two short lines rather than one long one: the readout fits a phone's width too.
        f"precision {point.precision:.3f}   recall {point.recall:.3f}",
        f"F{point.beta:g} {point.fbeta:.3f}   accuracy {point.accuracy:.3f}",
    ]
    if c_fp is not None and c_fn is not None:
        lines.append(f"cost = {c_fp:g}*FP + {c_fn:g}*FN = {point.cost(c_fp, c_fn):.4g}")
    return "\n".join(lines)


@dataclass(frozen=True)
class _Setup:
    """The checked inputs of an explorer: data, costs, slider range and starting position."""

    data: _ViewData
    c_fp: float | None
    c_fn: float | None
    lo: float
    hi: float
    start: float


def _explorer_setup(
    y_true: Any, y_score: Any, beta: float, c_fp: Any, c_fn: Any, pos_label: Any, threshold: Any
) -> _Setup:
    """What both explorers share: the slider spans the scores, and starts inside that span."""
    if (c_fp is None) != (c_fn is None):
        raise ValueError("Give both c_fp and c_fn (the cost of each error), or neither.")
    if c_fp is not None:
        c_fp, c_fn = check_cost(c_fp, "c_fp"), check_cost(c_fn, "c_fn")
    data = _view_data(y_true, y_score, beta, pos_label)
    lo, hi = float(data.scores.min()), float(data.scores.max())
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    if threshold is None:
        threshold = 0.5 if 0.0 <= lo and hi <= 1.0 else float(np.median(data.scores))
    threshold = check_threshold(threshold)
    return _Setup(data, c_fp, c_fn, lo, hi, min(max(threshold, lo), hi))


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
    :func:`~mltutor.curves.threshold_sweep` (no re-sorting) and redraws the picture of
    :func:`plot_threshold_view`.  The readout shows the 2x2 confusion counts, precision, recall,
    F-beta and accuracy, and the total cost ``c_fp * FP + c_fn * FN`` when both costs are given.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`mltutor.curves.threshold_sweep`.
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

    try:  # lazily: ipywidgets (and the IPython it brings) is only needed for the explorer
        import ipywidgets as widgets
        from IPython.display import display
    except ImportError as error:
        raise ImportError(
            "threshold_explorer needs ipywidgets, which mltutor does not install by default: "
            'pip install "mltutor[widgets]" (or use plot_threshold_view for a still figure)'
        ) from error
    import matplotlib.pyplot as plt

    setup = _explorer_setup(y_true, y_score, beta, c_fp, c_fn, pos_label, threshold)
    data, c_fp, c_fn, lo, hi = setup.data, setup.c_fp, setup.c_fn, setup.lo, setup.hi
    slider = widgets.FloatSlider(
        value=setup.start,
        min=lo,
        max=hi,
        step=(hi - lo) / 500,
        description="threshold",
        readout_format=".3f",
        continuous_update=False,
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


# --------------------------------------------------------------------------------------------
# The static twin for a web page with no kernel: every slider position precomputed.
# --------------------------------------------------------------------------------------------

#: Shade of the "predicted positive" region drawn over the histograms (black at this opacity on
#: white is the live view's 0.85 grey).
_SHADE_OPACITY = 0.15
#: Pixels per inch of the background images; their viewBox stays in 100-dpi pixels.
_STATIC_DPI = 150
#: Size of each panel (inches): the two side by side are the 11 x 3.8 of the live figure.
_PANEL_INCHES = (5.5, 3.8)

# The few lines that make the page respond: on every `input` event of the range input, set the
# readout, the shown value and the overlay's coordinates from the precomputed arrays.
_STATIC_JS = """(function () {
  var root = document.getElementById("%(id)s");
  var d = JSON.parse(root.querySelector("script[type='application/json']").textContent);
  var slider = root.querySelector("input[type=range]"), value = root.querySelector("output");
  var readout = root.querySelector("pre");
  function set(selector, attrs) {
    root.querySelectorAll(selector).forEach(function (el) {
      for (var k in attrs) el.setAttribute(k, attrs[k]);
    });
  }
  function show() {
    var i = Number(slider.value);
    value.textContent = d.t[i];
    slider.setAttribute("aria-valuetext", d.t[i]);
    readout.textContent = d.text[i];
    set(".mte-h", {x1: d.xh[i], x2: d.xh[i]});
    set(".mte-c", {x1: d.xc[i], x2: d.xc[i]});
    set(".mte-span", {x: d.xh[i], width: Math.max(0, d.xe - d.xh[i])});
    for (var m in d.y) set(".mte-" + m, {cx: d.xc[i], cy: d.y[m][i]});
  }
  slider.addEventListener("input", show);
  show();
})();"""


def _slider_positions(lo: float, hi: float, start: float, n_positions: int) -> np.ndarray:
    """Multiples of a round step (1, 2, 2.5 or 5 times a power of ten) in ``[lo, hi]``, at most
    ``n_positions`` of them, plus ``start`` when it is not one of them."""
    raw = (hi - lo) / (n_positions - 1)
    power = 10.0 ** np.floor(np.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * (1 - 1e-12))
    first, last = np.ceil(lo / step - 1e-9), np.floor(hi / step + 1e-9)
    grid = np.round(np.arange(first, last + 1) * step, 12) + 0.0  # + 0.0: no -0.0
    grid = grid[(grid >= lo) & (grid <= hi)]
    if not np.any(np.isclose(grid, start, rtol=0, atol=1e-12 * max(1.0, abs(start)))):
        grid = np.sort(np.append(grid, start))
    return grid


@dataclass(frozen=True, eq=False, repr=False)
class StaticThresholdExplorer:
    """The precomputed threshold explorer returned by :func:`static_threshold_explorer`.

    A notebook shows it as its ``html`` (``_repr_html_``).

    Attributes
    ----------
    thresholds : ndarray of float64
        The slider's positions, increasing.
    points : tuple of OperatingPoint
        The operating point at each position.
    readouts : tuple of str
        The readout text at each position, as :func:`threshold_explorer` shows it.
    start : int
        Index of the position the slider starts at.
    html : str
        The HTML block: a range input, the readout, the figure and the script.
    """

    thresholds: np.ndarray
    points: tuple
    readouts: tuple
    start: int
    html: str

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        t = self.thresholds
        return (
            f"StaticThresholdExplorer({t.size} thresholds from {t[0]:.4g} to {t[-1]:.4g}, "
            f"starting at {t[self.start]:.4g})"
        )


def _background(data: _ViewData) -> tuple[list[bytes], dict[str, Any]]:
    """Each panel without the threshold (one PNG each) and the pixel geometry of its axes.

    Two images rather than one figure of two panels: side by side where the column is wide,
    one above the other on a phone, each at a readable size.
    """
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure  # no pyplot: nothing is shown or kept open
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    figures = [Figure(figsize=_PANEL_INCHES, dpi=100, layout="constrained") for _ in range(2)]
    ax_hist, ax_curve = (fig.add_subplot() for fig in figures)
    _draw_scores(ax_hist, data)
    handles, labels = ax_hist.get_legend_handles_labels()
    handles += [
        Patch(facecolor="black", alpha=_SHADE_OPACITY),
        Line2D([], [], color="black", linestyle="--"),
    ]
    labels += ["predicted positive", "threshold"]
    ax_hist.legend(handles, labels, loc="best", fontsize=LEGEND_PT)
    names = _draw_curves(ax_curve, data.sweep)
    ax_curve.legend(loc="lower left", fontsize=LEGEND_PT)
    pngs = []
    for fig in figures:
        FigureCanvasAgg(fig).draw()  # fixes the constrained layout and the limits
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=_STATIC_DPI, metadata={"Software": None})
        pngs.append(buffer.getvalue())
    width, height = figures[0].bbox.width, figures[0].bbox.height

    def box(ax: Axes) -> tuple[float, float, float, float]:  # x0, y0 (top), x1, y1 (bottom)
        b = ax.bbox
        return b.x0, height - b.y1, b.x1, height - b.y0

    geometry = {
        "width": width,
        "height": height,
        "names": names,
        "hist": (ax_hist, box(ax_hist)),
        "curve": (ax_curve, box(ax_curve)),
    }
    return pngs, geometry


def _x_pixel(ax: Axes, x: float, bounds: tuple[float, float, float, float]) -> float:
    px = float(ax.transData.transform((x, 0.0))[0])
    return min(max(px, bounds[0]), bounds[2])


def _y_pixel(ax: Axes, y: float, height: float) -> float:
    return height - float(ax.transData.transform((0.0, y))[1])


def static_threshold_explorer(
    y_true: Any,
    y_score: Any,
    *,
    beta: float = 1.0,
    c_fp: float | None = None,
    c_fn: float | None = None,
    pos_label: Any = None,
    threshold: float | None = None,
    n_positions: int = 101,
) -> StaticThresholdExplorer:
    r"""The threshold explorer as a self-contained HTML block that runs without a kernel.

    The web page of a notebook has no Python behind it, so the slider of
    :func:`threshold_explorer` cannot redraw anything there.  This function computes every
    state in advance: the slider (an ``<input type="range">``) steps through at most
    ``n_positions`` thresholds, multiples of a round step (1, 2, 2.5 or 5 times a power of ten)
    between the lowest and the highest score, plus the starting one.  At each position it
    stores the readout of :func:`threshold_explorer` (the same function writes both) and the
    position of the threshold line, the shaded region ``score >= threshold`` and the three
    markers.  The two panels of :func:`plot_threshold_view` are drawn once, as two PNGs (side by
    side, or one above the other on a narrow screen), and about twenty lines of JavaScript move
    the overlay and swap the readout.  At a position :math:`t`:

    .. math::

        \text{precision} = \frac{TP(t)}{TP(t) + FP(t)},\quad
        \text{recall} = \frac{TP(t)}{P},\quad
        TP(t) = \#\{i : y_i = 1,\ s_i \ge t\}.

    The HTML depends only on the data and the arguments (its element ids are a hash of its
    content, and the PNG stores no date or version), so with the same matplotlib a notebook that
    shows it re-executes to the same output.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`mltutor.curves.threshold_sweep`.
    beta : float, default=1.0
        F-beta weight.
    c_fp, c_fn : float, optional
        Costs of a false positive and a false negative; give both or neither.
    threshold : float, optional
        Starting position, as in :func:`threshold_explorer`.
    n_positions : int, default=101
        Most slider positions on the round grid (at least 2).

    Returns
    -------
    StaticThresholdExplorer
        Shown as its HTML by a notebook; ``thresholds``, ``points`` and ``readouts`` hold the
        precomputed states.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> p = 1 / (1 + np.exp(-rng.normal(2 * y - 1, 1.0)))
    >>> explorer = static_threshold_explorer(y, p, c_fp=1, c_fn=5, threshold=0.3)
    >>> explorer
    StaticThresholdExplorer(96 thresholds from 0.02 to 0.97, starting at 0.3)
    >>> print(explorer.readouts[explorer.start].splitlines()[0])
    predict positive when score >= 0.3
    >>> '<input type="range"' in explorer.html
    True
    """
    import base64
    import hashlib
    import html
    import json

    from matplotlib.colors import to_hex

    n_positions = check_scalar(n_positions, "n_positions", Integral, min_val=2)
    setup = _explorer_setup(y_true, y_score, beta, c_fp, c_fn, pos_label, threshold)
    data = setup.data
    thresholds = _slider_positions(setup.lo, setup.hi, setup.start, int(n_positions))
    start = int(np.argmin(np.abs(thresholds - setup.start)))
    points = tuple(data.sweep.at(float(t)) for t in thresholds)
    readouts = tuple(readout_text(p, c_fp=setup.c_fp, c_fn=setup.c_fn) for p in points)

    pngs, geo = _background(data)
    ax_hist, hist_box = geo["hist"]
    ax_curve, curve_box = geo["curve"]
    height = geo["height"]
    state = {
        "t": [f"{p.threshold:.4g}" for p in points],
        "text": list(readouts),
        "xh": [round(_x_pixel(ax_hist, p.threshold, hist_box), 2) for p in points],
        "xc": [round(_x_pixel(ax_curve, p.threshold, curve_box), 2) for p in points],
        "xe": round(_x_pixel(ax_hist, float(data.bins[-1]), hist_box), 2),
        "y": {
            m: [round(_y_pixel(ax_curve, float(getattr(p, m)), height), 2) for p in points]
            for m in geo["names"]
        },
    }
    payload = json.dumps(state, separators=(",", ":"), sort_keys=True)
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    images = [base64.b64encode(png).decode("ascii") for png in pngs]
    uid = "mltutor-te-" + hashlib.sha1("".join([payload, *images]).encode("ascii")).hexdigest()[:12]

    i = start
    n_neg, n_pos = int(np.sum(~data.is_positive)), int(np.sum(data.is_positive))
    f_name = geo["names"]["fbeta"]
    alts = (
        f"Histograms of the scores of the {n_neg} negatives and {n_pos} positives, with the "
        f"threshold as a dashed line and the cases predicted positive shaded; the slider "
        f"above moves the threshold.",
        f"Precision, recall and {f_name} against the threshold, with a marker on each curve "
        f"at the threshold; the slider above moves the threshold.",
    )
    w, h = geo["width"], height
    hx0, hy0, hx1, hy1 = hist_box
    cx0, cy0, cx1, cy1 = curve_box
    markers = "".join(
        f'<circle class="mte-{m}" cx="{state["xc"][i]}" cy="{state["y"][m][i]}" r="5" '
        f'fill="{to_hex(_CURVE_COLOURS[m])}" stroke="white" stroke-width="1"/>'
        for m in geo["names"]
    )
    dashed = 'stroke="black" stroke-width="1.5" stroke-dasharray="6 3"'
    span_width = round(max(0.0, state["xe"] - state["xh"][i]), 2)
    overlays = (
        f'<rect class="mte-span" x="{state["xh"][i]}" y="{hy0:.2f}" width="{span_width}" '
        f'height="{hy1 - hy0:.2f}" fill="black" fill-opacity="{_SHADE_OPACITY}"/>'
        f'<line class="mte-h" x1="{state["xh"][i]}" x2="{state["xh"][i]}" y1="{hy0:.2f}" '
        f'y2="{hy1:.2f}" {dashed}/>',
        f'<line class="mte-c" x1="{state["xc"][i]}" x2="{state["xc"][i]}" y1="{cy0:.2f}" '
        f'y2="{cy1:.2f}" {dashed}/>{markers}',
    )
    # Each panel: its image, and over it an SVG in the image's own pixel coordinates.  Two
    # panels share a row only when each gets 320 px or more, so that 10 pt text drawn 550 px
    # wide stays at least 8 CSS px high (tests/test_figure_text_size.py's bar); else they stack.
    # The overlay covers the image exactly only if nothing pads the image: the white card that
    # the book's dark mode gives output images (book/_static/mltutor.css) is drawn by the outer
    # div.
    panels = "".join(
        f'<div style="position:relative;flex:1 1 320px;min-width:0">'
        f'<img src="data:image/png;base64,{image}" alt="{html.escape(alt)}" width="{w:g}" '
        f'height="{h:g}" style="display:block;width:100%;height:auto;margin:0;padding:0;'
        f'border:0;border-radius:0;background:none">'
        f'<svg viewBox="0 0 {w:g} {h:g}" preserveAspectRatio="none" aria-hidden="true" '
        f'focusable="false" style="position:absolute;left:0;top:0;width:100%;height:100%;'
        f'pointer-events:none">{overlay}</svg></div>'
        for image, alt, overlay in zip(images, alts, overlays)
    )
    page = (
        f'<div class="mltutor-threshold-explorer" id="{uid}" style="max-width:{2 * w:g}px">\n'
        f'<div style="display:flex;align-items:center;gap:0.6em;flex-wrap:wrap">'
        f'<label for="{uid}-slider">threshold</label>'
        f'<input type="range" id="{uid}-slider" min="0" max="{thresholds.size - 1}" '
        f'step="1" value="{i}" aria-valuetext="{state["t"][i]}" style="flex:1 1 12em">'
        f'<output for="{uid}-slider">{state["t"][i]}</output></div>\n'
        f'<pre aria-live="polite">{html.escape(readouts[i])}</pre>\n'
        f'<div class="mte-figure" style="display:flex;flex-wrap:wrap;gap:0.5rem;'
        f'background:#fff;padding:0.5rem;border-radius:0.25rem">{panels}</div>\n'
        f'<script type="application/json">{payload}</script>\n'
        f"<script>{_STATIC_JS % {'id': uid}}</script>\n</div>"
    )
    return StaticThresholdExplorer(thresholds, points, readouts, start, page)
