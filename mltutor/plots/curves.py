"""Plots of threshold curves and calibration: ROC, precision-recall with iso-F1 lines, reliability.

These helpers draw curves that were computed elsewhere (``mltutor.metrics.roc_curve``,
``precision_recall_curve``, or your own code); they compute nothing but the few things a picture
needs (iso-F1 lines, the best point within a false-positive budget, the bins of a reliability
diagram).  Every axes gets a title and labelled axes, both axes run from 0 to 1, and the default
colours come from the Okabe-Ito palette, which stays distinguishable with the common forms of
colour blindness (Okabe and Ito, *Color Universal Design*, 2008).

pyplot is imported inside the functions: ``import mltutor`` needs no plotting backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._style import LEGEND_PT, SMALL_TEXT_PT

if TYPE_CHECKING:  # pragma: no cover - type hints only
    from matplotlib.axes import Axes

__all__ = [
    "OKABE_ITO",
    "plot_curve_band",
    "plot_decision_curve",
    "plot_pr",
    "plot_reliability",
    "plot_reliability_intervals",
    "plot_roc",
]

#: The Okabe-Ito colour-blind-safe palette (black first); ``plot_*`` cycle through it from orange.
OKABE_ITO = (
    "#000000",  # black
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
)
#: The order in which curves on one axes get their colours (yellow is left out — too pale on white).
CURVE_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
#: Colour of reference lines (chance diagonal, iso-F1 lines).
REFERENCE_COLOUR = "0.55"


def _curve(x: Any, y: Any, x_name: str, y_name: str) -> tuple[np.ndarray, np.ndarray]:
    """Two 1-D float arrays of the same non-zero length with finite values in [0, 1]."""
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    for name, arr in ((x_name, xs), (y_name, ys)):
        if arr.ndim != 1:
            raise ValueError(f"{name} must be 1-D (one value per point); got shape {arr.shape}.")
        if arr.size == 0:
            raise ValueError(f"{name} is empty: a curve needs at least one point.")
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite; it contains NaN or inf.")
        if arr.min() < 0 or arr.max() > 1:
            raise ValueError(
                f"{name} must lie in [0, 1]; got values from {arr.min():g} to {arr.max():g}."
            )
    if xs.shape != ys.shape:
        raise ValueError(
            f"{x_name} and {y_name} must have the same length; got {xs.size} and {ys.size}."
        )
    return xs, ys


def _axes(ax: Axes | None, figsize: tuple[float, float] = (5.6, 5.0)) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _next_colour(ax: Axes) -> str:
    """The next colour of CURVE_COLOURS not yet used by a labelled curve on ``ax``."""
    used = sum(1 for line in ax.get_lines() if not line.get_label().startswith("_"))
    return CURVE_COLOURS[used % len(CURVE_COLOURS)]


def _legend(ax: Axes, loc: str) -> None:
    """A legend, only when something on ``ax`` has a label (matplotlib warns otherwise)."""
    handles, _ = ax.get_legend_handles_labels()
    if handles:
        ax.legend(loc=loc, fontsize=LEGEND_PT)


def _unit_square(ax: Axes) -> None:
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.grid(True, color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)


def plot_roc(
    fpr: Any,
    tpr: Any,
    *,
    label: str | None = None,
    ax: Axes | None = None,
    color: str | None = None,
    chance: bool = True,
    fpr_budget: float | None = None,
    title: str | None = None,
    **line_kwargs: Any,
) -> Axes:
    """Draw a ROC curve: true positive rate (recall) against false positive rate.

    The points are joined by straight lines, as the ROC convex combinations of two neighbouring
    operating points are achievable by randomising between them (Fawcett, 2006).  Call it
    once per model on the same ``ax`` to compare models; each call takes the next colour.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        False and true positive rates, as returned by ``roc_curve``, in [0, 1].
    label : str, optional
        Legend entry (for example ``"model A (AUC 0.87)"``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new square figure when omitted.
    color : str, optional
        Line colour; by default the next Okabe-Ito colour not yet used on ``ax``.
    chance : bool, default=True
        Draw the diagonal TPR = FPR of a scorer that ranks at random (AUC 0.5), once per axes.
    fpr_budget : float, optional
        A false positive rate the application can afford.  Draws a dotted vertical line there and
        marks the operating point with the highest TPR among those with FPR <= ``fpr_budget``
        (no interpolation: a point that exists on the curve).
    title : str, optional
        Axes title; defaults to ``"ROC curve"``.
    **line_kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot` (``linestyle``, ``linewidth`` ...).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from mltutor.plots import plot_roc
    >>> ax = plot_roc([0, 0, 0.5, 1], [0, 0.5, 1, 1], label="toy", fpr_budget=0.25)
    >>> ax.get_xlabel(), ax.get_ylabel(), ax.get_title()
    ('False positive rate (1 - specificity)', 'True positive rate (recall)', 'ROC curve')
    """
    x, y = _curve(fpr, tpr, "fpr", "tpr")
    ax = _axes(ax)
    colour = color or _next_colour(ax)
    if chance and not any(line.get_gid() == "chance" for line in ax.get_lines()):
        ax.plot(
            [0, 1],
            [0, 1],
            linestyle="--",
            color=REFERENCE_COLOUR,
            linewidth=1,
            label="chance (AUC 0.5)",
            gid="chance",
        )
    line_kwargs.setdefault("linewidth", 2)
    ax.plot(x, y, color=colour, label=label if label is not None else "_roc", **line_kwargs)
    if fpr_budget is not None:
        budget = float(fpr_budget)
        if not 0.0 <= budget <= 1.0:
            raise ValueError(f"fpr_budget must lie in [0, 1]; got {fpr_budget!r}.")
        within = x <= budget
        if within.any():
            best = np.flatnonzero(within)[np.argmax(y[within])]
            ax.plot(
                [x[best]],
                [y[best]],
                "o",
                color=colour,
                markersize=8,
                markeredgecolor="black",
                label=f"_best within FPR <= {budget:g}",
            )
            ax.annotate(
                f"TPR {y[best]:.2f}",
                (x[best], y[best]),
                xytext=(8, -14),
                textcoords="offset points",
                color=colour,
                fontsize=SMALL_TEXT_PT,
            )
        if not any(line.get_gid() == f"budget {budget:g}" for line in ax.get_lines()):
            ax.axvline(
                budget,
                color=REFERENCE_COLOUR,
                linestyle=":",
                linewidth=1.2,
                label=f"FPR budget {budget:g}",
                gid=f"budget {budget:g}",
            )
    ax.set_xlabel("False positive rate (1 - specificity)")
    ax.set_ylabel("True positive rate (recall)")
    ax.set_title("ROC curve" if title is None else title)
    _unit_square(ax)
    _legend(ax, "lower right")
    return ax


def _iso_f1(ax: Axes, levels: Sequence[float]) -> None:
    """Curves of constant F1 in (recall, precision): p = f r / (2 r - f) for r > f / 2."""
    for f in levels:
        r = np.linspace(f / 2 + 1e-9, 1.0, 200)
        p = f * r / (2 * r - f)
        keep = p <= 1.0
        ax.plot(
            r[keep],
            p[keep],
            color=REFERENCE_COLOUR,
            linewidth=0.8,
            alpha=0.8,
            label="_iso-F1",
            gid="iso-f1",
        )
        ax.annotate(
            f"F1={f:g}",
            (1.0, f / (2 - f)),
            xytext=(-38, 3),
            textcoords="offset points",
            color=REFERENCE_COLOUR,
            fontsize=SMALL_TEXT_PT,
        )


def plot_pr(
    recall: Any,
    precision: Any,
    *,
    label: str | None = None,
    ax: Axes | None = None,
    color: str | None = None,
    iso_f1: bool | Sequence[float] = True,
    prevalence: float | None = None,
    title: str | None = None,
    **line_kwargs: Any,
) -> Axes:
    """Draw a precision-recall curve as a step function, with iso-F1 lines.

    Precision is drawn as a **step** in recall: between two operating points precision does not
    change linearly, and the straight line is not achievable (it overstates the area)
    (Davis and Goadrich, 2006).  The steps are the ones that average precision sums,
    ``AP = sum_n (R_n - R_{n-1}) P_n``.

    Parameters
    ----------
    recall, precision : array-like of shape (n_points,)
        As returned by ``precision_recall_curve`` (in either order of recall), in [0, 1].
    label : str, optional
        Legend entry (for example ``"model A (AP 0.61)"``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new square figure when omitted.
    color : str, optional
        Line colour; by default the next Okabe-Ito colour not yet used on ``ax``.
    iso_f1 : bool or sequence of float, default=True
        Draw grey curves of constant F1 (``True``: F1 = 0.2, 0.4, 0.6, 0.8), once per axes.
        Every point on one of them has the same harmonic mean of precision and recall.
    prevalence : float, optional
        Share of positives; draws the horizontal line of a scorer that ranks at random, whose
        precision is the prevalence at every recall (its AP is the prevalence, not 0.5).
    title : str, optional
        Axes title; defaults to ``"Precision-recall curve"``.
    **line_kwargs
        Passed to :meth:`matplotlib.axes.Axes.step`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from mltutor.plots import plot_pr
    >>> ax = plot_pr([1, 1, 0.5, 0], [0.5, 0.67, 1, 1], label="toy", prevalence=0.5)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Recall (true positive rate)', 'Precision')
    """
    r, p = _curve(recall, precision, "recall", "precision")
    ax = _axes(ax)
    colour = color or _next_colour(ax)
    if iso_f1 is not False and not any(line.get_gid() == "iso-f1" for line in ax.get_lines()):
        levels = (0.2, 0.4, 0.6, 0.8) if iso_f1 is True else tuple(float(f) for f in iso_f1)
        if any(not 0 < f < 1 for f in levels):
            raise ValueError(f"iso_f1 levels must lie strictly between 0 and 1; got {levels}.")
        _iso_f1(ax, levels)
    if prevalence is not None:
        base = float(prevalence)
        if not 0.0 <= base <= 1.0:
            raise ValueError(f"prevalence must lie in [0, 1]; got {prevalence!r}.")
        ax.axhline(
            base,
            color=colour,
            linestyle="--",
            linewidth=1,
            label=f"random ranking (precision {base:.3g})",
        )
    order = np.argsort(r, kind="stable")
    if r.size > 1 and r[0] > r[-1]:  # scikit-learn's order (recall decreasing): keep it, reversed
        order = np.arange(r.size)[::-1]
    line_kwargs.setdefault("linewidth", 2)
    # Precision at recall R_n holds on (R_{n-1}, R_n]: a step drawn at the right end ("pre").
    ax.step(
        r[order],
        p[order],
        where="pre",
        color=colour,
        label=label if label is not None else "_pr",
        **line_kwargs,
    )
    ax.set_xlabel("Recall (true positive rate)")
    ax.set_ylabel("Precision")
    ax.set_title("Precision-recall curve" if title is None else title)
    _unit_square(ax)
    _legend(ax, "lower left")
    return ax


def _perfect_diagonal(ax: Any) -> None:
    """The dashed diagonal of perfect calibration, drawn once per axes (gid ``"perfect"``), so
    several reliability curves on one axes share it and the legend lists it once."""
    if not any(line.get_gid() == "perfect" for line in ax.get_lines()):
        ax.plot(
            [0, 1],
            [0, 1],
            linestyle="--",
            color=REFERENCE_COLOUR,
            linewidth=1,
            label="perfectly calibrated",
            gid="perfect",
        )


def plot_reliability(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    label: str | None = None,
    ax: Axes | None = None,
    color: str | None = None,
    show_counts: bool = True,
    title: str | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
) -> Axes:
    """Draw a reliability diagram: observed frequency against mean predicted probability per bin.

    A calibrated model's points lie on the diagonal: of the cases given probability about 0.8,
    about 80 % are positive.  Points **below** the diagonal mean a predicted
    probability that is too high: over-confidence in the top-label diagram (in the binary one,
    above 0.5).  The bins are
    those of :func:`mltutor.calibration.calibration_bins` (and so of
    :func:`~mltutor.calibration.expected_calibration_error`): with a 1-D ``y_prob`` the binary
    diagram (probability of class 1 against the fraction of positives), with an
    ``(n_samples, n_classes)`` matrix the *top-label* diagram (confidence, the largest
    probability, against accuracy).  Empty bins are not drawn.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels (binary) or class indices 0..K-1 (multiclass).
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities of class 1, or one row of class probabilities per sample.
    n_bins : int, default=15
    strategy : {"uniform", "quantile"}, default="uniform"
    label : str, optional
        Legend entry (for example ``"before (ECE 0.081)"``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new square figure when omitted.
    color : str, optional
        By default the next Okabe-Ito colour not yet used on ``ax``.
    show_counts : bool, default=True
        Marker area proportional to the number of samples in the bin, so that a sparse bin's
        large gap is seen as the small evidence it is.
    title : str, optional
        Defaults to ``"Reliability diagram"``.
    xlabel, ylabel : str, optional
        Axis labels; by default "Mean predicted probability" / "Fraction of positives" for
        binary input and "Confidence (top probability)" / "Accuracy" for a matrix.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from mltutor.plots import plot_reliability
    >>> ax = plot_reliability([0, 1, 1, 1], [0.1, 0.2, 0.9, 0.8], n_bins=2, label="toy")
    >>> ax.get_title(), ax.get_xlabel()
    ('Reliability diagram', 'Mean predicted probability')
    """
    from ..calibration import calibration_bins

    bins = calibration_bins(y_true, y_prob, n_bins=n_bins, strategy=strategy)
    filled = bins.count > 0
    mean_prob, freq, count = bins.confidence[filled], bins.accuracy[filled], bins.count[filled]
    top_label = np.ndim(y_prob) == 2 and np.shape(y_prob)[1] > 1
    if xlabel is None:
        xlabel = "Confidence (top probability)" if top_label else "Mean predicted probability"
    if ylabel is None:
        ylabel = "Accuracy" if top_label else "Fraction of positives"
    ax = _axes(ax)
    colour = color or _next_colour(ax)
    _perfect_diagonal(ax)
    ax.plot(
        mean_prob,
        freq,
        "-",
        color=colour,
        linewidth=1.5,
        label=label if label is not None else "_reliability",
    )
    sizes = 20 + 400 * count / count.sum() if show_counts else 30
    ax.scatter(
        mean_prob,
        freq,
        s=sizes,
        color=colour,
        edgecolor="black",
        linewidth=0.5,
        zorder=3,
        alpha=0.9,
    )
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title("Reliability diagram" if title is None else title)
    _unit_square(ax)
    _legend(ax, "upper left")
    return ax


def plot_reliability_intervals(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 10,
    strategy: str = "uniform",
    confidence_level: float = 0.95,
    method: str = "wilson",
    min_bin_count: int = 10,
    label: str | None = None,
    ax: Axes | None = None,
    color: str | None = None,
    title: str | None = None,
) -> Axes:
    """Draw a binary reliability diagram with a confidence interval on each bin's point.

    The points and intervals are :func:`mltutor.calibration.calibration_curve_intervals`'s
    (scikit-learn's ``calibration_curve`` bins, a Wilson interval by default): a vertical bar
    from ``low`` to ``high`` at each bin's mean predicted probability.  A bin with fewer than
    ``min_bin_count`` samples is drawn as a hollow marker, and the function issues the same
    :class:`~mltutor.exceptions.SmallBinWarning`.  Each interval is for the bin's average true
    frequency given its scores, so a bar that crosses the diagonal is a bin whose gap could be
    sampling noise, not a proof that the model is calibrated there.

    Parameters
    ----------
    y_true, y_prob : array-like of shape (n_samples,)
        Binary labels and probabilities of the positive class.
    n_bins, strategy, confidence_level, method, min_bin_count
        As in :func:`~mltutor.calibration.calibration_curve_intervals`.
    label : str, optional
        Legend entry.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new square figure when omitted.
    color : str, optional
        By default the next Okabe-Ito colour not yet used on ``ax``.
    title : str, optional
        Defaults to ``"Reliability diagram, 95 % intervals"`` (the level as given).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import numpy as np
    >>> from mltutor.plots import plot_reliability_intervals
    >>> p = np.linspace(0.01, 0.99, 200)
    >>> ax = plot_reliability_intervals((p > 0.5).astype(int), p, n_bins=4, label="toy")
    >>> ax.get_title(), ax.get_xlabel()
    ('Reliability diagram, 95 % intervals', 'Mean predicted probability')
    """
    from ..calibration import calibration_curve_intervals

    c = calibration_curve_intervals(
        y_true,
        y_prob,
        n_bins=n_bins,
        strategy=strategy,
        confidence_level=confidence_level,
        method=method,
        min_bin_count=min_bin_count,
    )
    ax = _axes(ax)
    colour = color or _next_colour(ax)
    _perfect_diagonal(ax)
    ax.errorbar(
        c.prob_pred,
        c.prob_true,
        yerr=np.vstack([c.prob_true - c.low, c.high - c.prob_true]).clip(0, None),
        fmt="-",
        color=colour,
        linewidth=1.5,
        elinewidth=1.2,
        capsize=3,
        label=label if label is not None else "_reliability",
    )
    small = c.count < min_bin_count
    for hollow in (False, True):
        chosen = small == hollow
        ax.scatter(
            c.prob_pred[chosen],
            c.prob_true[chosen],
            s=36,
            facecolor="white" if hollow else colour,
            edgecolor=colour if hollow else "black",
            linewidth=1.2 if hollow else 0.5,
            zorder=3,
            label=f"fewer than {min_bin_count} samples" if hollow and chosen.any() else None,
        )
    ax.set_xlabel("Mean predicted probability")
    ax.set_ylabel("Fraction of positives")
    level = f"{100 * confidence_level:g}"
    ax.set_title(f"Reliability diagram, {level} % intervals" if title is None else title)
    _unit_square(ax)
    _legend(ax, "upper left")
    return ax


def plot_decision_curve(
    curve: Any,
    *,
    label: str = "model",
    ax: Axes | None = None,
    defaults: bool = True,
    color: str | None = None,
) -> Axes:
    """Draw a decision curve: net benefit against the threshold probability ``p_t``.

    ``curve`` is what :func:`mltutor.curves.decision_curve` returned.  With ``defaults=True`` the
    two reference strategies are drawn too: "treat all" (grey, dashed) and "treat none" (the
    zero line).  Call again with ``defaults=False`` to add another model to the same axes.  The
    y-axis runs from a little below 0 to a little above the prevalence (the net benefit of
    perfect knowledge): "treat all" falls steeply past ``p_t = prevalence``, and following it
    would flatten everything that matters.

    Parameters
    ----------
    curve : mltutor.curves.DecisionCurve
        The net benefits to draw, at the curve's threshold probabilities.
    label : str, default="model"
        Legend entry of the model's line.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    defaults : bool, default=True
        Also draw "treat all" and "treat none" and set the y-limits to -0.25 and 1.1 times the
        prevalence; ``False`` adds only the model's line and widens the y-limits already set
        only as far as that range.
    color : str, optional
        Line colour; by default the next Okabe-Ito colour not yet used on ``ax``.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        When ``curve`` is not a :class:`~mltutor.curves.DecisionCurve`.

    Examples
    --------
    >>> import numpy as np
    >>> from mltutor.curves import decision_curve
    >>> rng = np.random.default_rng(0)
    >>> p = rng.beta(1, 3, 500)
    >>> y = (rng.random(500) < p).astype(int)
    >>> ax = plot_decision_curve(decision_curve(y, p))
    >>> ax.get_xlabel()
    'threshold probability $p_t$'
    """
    from ..curves import DecisionCurve

    if not isinstance(curve, DecisionCurve):
        raise TypeError(
            "curve must be a DecisionCurve (what mltutor.curves.decision_curve returns); "
            f"got {type(curve).__name__}."
        )
    ax = _axes(ax, figsize=(6.4, 4.4))
    colour = color or _next_colour(ax)
    if defaults:
        ax.plot(curve.thresholds, curve.treat_none, color="0.2", linewidth=1.0, label="treat none")
        ax.plot(
            curve.thresholds,
            curve.treat_all,
            color=REFERENCE_COLOUR,
            linestyle="--",
            linewidth=1.4,
            label="treat all",
        )
    ax.plot(curve.thresholds, curve.model, color=colour, linewidth=2.0, label=label)
    top = max(curve.prevalence, float(np.max(curve.model)))
    low, high = ax.get_ylim() if not defaults else (np.inf, -np.inf)
    ax.set_ylim(min(low, -0.25 * top), max(high, 1.1 * top))
    ax.set_xlim(float(curve.thresholds.min()), float(curve.thresholds.max()))
    ax.grid(True, color="0.9", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel("threshold probability $p_t$")
    ax.set_ylabel("net benefit (true positives per case)")
    if not ax.get_title():
        ax.set_title("Decision curve")
    _legend(ax, "upper right")
    return ax


def plot_curve_band(
    band: Any,
    *,
    label: str | None = None,
    ax: Axes | None = None,
    color: str | None = None,
) -> Axes:
    """Draw a curve band: the test set's curve and the shaded pointwise intervals around it.

    ``band`` is what :func:`mltutor.curves.roc_curve_band` or :func:`~mltutor.curves.pr_curve_band`
    returned.  The shading joins intervals that hold one grid point each: read it point by
    point, not as a region that holds the whole curve.  A ROC band also gets the chance diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> from mltutor.curves import roc_curve_band
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(40, dtype=int), np.zeros(40, dtype=int)]
    >>> s = np.r_[rng.normal(1, 1, 40), rng.normal(0, 1, 40)]
    >>> ax = plot_curve_band(roc_curve_band(y, s, n_resamples=200, random_state=0))
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('false positive rate (FPR)', 'true positive rate (TPR)')
    """
    from ..curves import CurveBand

    if not isinstance(band, CurveBand):
        raise TypeError(
            "band must be a CurveBand (what mltutor.curves.roc_curve_band or pr_curve_band "
            f"returns); got {type(band).__name__}."
        )
    ax = _axes(ax)
    colour = color or _next_colour(ax)
    is_roc = band.x_name == "FPR"
    if is_roc and not any(line.get_gid() == "chance" for line in ax.get_lines()):
        ax.plot([0, 1], [0, 1], color=REFERENCE_COLOUR, linestyle=":", linewidth=1.0, gid="chance")
    level = f"{100 * band.confidence:g} % pointwise intervals"
    ax.fill_between(band.grid, band.lower, band.upper, color=colour, alpha=0.25, linewidth=0)
    ax.plot(band.grid, band.curve, color=colour, linewidth=2.0, label=label or "test set")
    ax.plot([], [], color=colour, alpha=0.25, linewidth=8, label=level)
    _unit_square(ax)
    if is_roc:
        ax.set_xlabel("false positive rate (FPR)")
        ax.set_ylabel("true positive rate (TPR)")
    else:
        ax.set_xlabel("recall")
        ax.set_ylabel("precision (best at recall >= x)")
    if not ax.get_title():
        ax.set_title(
            "ROC curve with a pointwise band" if is_roc else "PR curve with a pointwise band"
        )
    _legend(ax, "lower right" if is_roc else "lower left")
    return ax
