"""Choosing a decision threshold: sweeps, the best F-beta threshold and cost-based thresholds.

A score becomes a decision with a threshold ``t``: predict positive when ``score >= t``.  Every
candidate threshold worth trying is one of the distinct scores, and kernel 2
(:func:`mltutor.curves.binary_counts`) gives the true and false positives at all of them from one
sort.  Everything here is arithmetic on those two arrays:

* :func:`threshold_sweep` — the confusion counts and precision, recall, F-beta, accuracy and
  specificity at every threshold, plus ``.at(t)`` for any real ``t``;
* :func:`best_fbeta_threshold` — the threshold that maximises F-beta on the data given;
* :func:`min_cost_threshold` — the threshold that minimises ``c_fp * FP + c_fn * FN`` on the data;
* :func:`cost_optimal_threshold` — the decision-theoretic threshold ``c_fp / (c_fp + c_fn)`` for
  *calibrated* probabilities, which needs no data at all.

Undefined ratios (0/0) are reported as 0.0, with no warning, exactly like scikit-learn's metrics
with ``zero_division=0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_beta, check_binary_scores
from .._validation.params import check_cost, check_threshold
from ._counts import cumulative_counts

__all__ = [
    "OperatingPoint",
    "ThresholdSweep",
    "best_fbeta_threshold",
    "cost_optimal_threshold",
    "min_cost_threshold",
    "threshold_sweep",
]

_METRICS = ("precision", "recall", "fbeta", "accuracy", "specificity")


def _divide(numerator: Any, denominator: Any) -> np.ndarray:
    """``numerator / denominator`` with x/0 -> 0.0 and no warning.

    The same numbers as scikit-learn's ``zero_division=0`` (and ``classification.ratio``), in one
    pass: the sweep divides five arrays of up to one entry per sample.
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast_shapes(numerator.shape, denominator.shape))
    return np.divide(numerator, denominator, out=out, where=denominator != 0)


def _metrics(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, beta: float) -> dict:
    """Precision, recall, F-beta, accuracy and specificity from the four counts (arrays)."""
    # float64 once (whole counts stay exact below 2**53), not once per ratio.
    tp, fp, fn, tn = (np.asarray(c, dtype=np.float64) for c in (tp, fp, fn, tn))
    predicted, actual = tp + fp, tp + fn
    precision = _divide(tp, predicted)
    recall = _divide(tp, actual)
    if np.isposinf(beta):
        fbeta = recall.copy()
    elif beta == 0:
        fbeta = precision.copy()
    else:  # (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), written as scikit-learn writes it
        b2 = beta**2
        fbeta = _divide((1 + b2) * tp, b2 * actual + predicted)
    return {
        "precision": precision,
        "recall": recall,
        "fbeta": fbeta,
        "accuracy": _divide(tp + tn, predicted + fn + tn),
        "specificity": _divide(tn, tn + fp),
    }


def _number(x: Any) -> Any:
    """A numpy scalar as a Python int/float."""
    return x.item() if hasattr(x, "item") else x


@dataclass(frozen=True)
class OperatingPoint:
    """The confusion counts and rates of one decision rule ``score >= threshold``.

    Counts are ints without sample weights and floats with them.  ``confusion_matrix`` is the
    2x2 array ``[[TN, FP], [FN, TP]]`` (rows = truth, negative first, as in scikit-learn).
    """

    threshold: float
    tp: float
    fp: float
    fn: float
    tn: float
    precision: float
    recall: float
    fbeta: float
    accuracy: float
    specificity: float
    beta: float = 1.0

    @property
    def confusion_matrix(self) -> np.ndarray:
        return np.array([[self.tn, self.fp], [self.fn, self.tp]])

    def cost(self, c_fp: float, c_fn: float) -> float:
        """Total cost ``c_fp * FP + c_fn * FN`` of this operating point."""
        return float(check_cost(c_fp, "c_fp") * self.fp + check_cost(c_fn, "c_fn") * self.fn)


@dataclass(frozen=True, eq=False, repr=False)
class ThresholdSweep:
    r"""Confusion counts and rates at every distinct score, highest threshold first.

    Row ``i`` describes the rule "predict positive when ``score >= thresholds[i]``".  With
    :math:`P = TP + FN` (total positive weight) and :math:`N = FP + TN`:

    .. math::

        \text{precision} = \frac{TP}{TP + FP},\quad
        \text{recall} = \frac{TP}{P},\quad
        F_\beta = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP},\quad
        \text{accuracy} = \frac{TP + TN}{P + N},\quad
        \text{specificity} = \frac{TN}{N}.

    A ratio whose denominator is 0 is 0.0 (no warning), as scikit-learn with ``zero_division=0``.
    ``beta = 0`` gives precision and ``beta = inf`` recall.  All arrays are read-only.

    Attributes
    ----------
    thresholds : ndarray of float64
        Distinct scores (of samples with non-zero weight), decreasing.
    tp, fp, fn, tn : ndarray
        Confusion counts at each threshold; int64 without weights, float64 with.
    precision, recall, fbeta, accuracy, specificity : ndarray of float64
        The rates at each threshold.
    beta : float
        The F-beta weight used for ``fbeta``.
    pos_label : int, float, bool or str
        The positive class.
    n_pos, n_neg : int or float
        Total positive and negative weight (``tp + fn`` and ``fp + tn`` on every row).
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    fbeta: np.ndarray
    accuracy: np.ndarray
    specificity: np.ndarray
    beta: float
    pos_label: Any
    n_pos: float
    n_neg: float

    def __post_init__(self) -> None:
        for name in ("thresholds", "tp", "fp", "fn", "tn") + _METRICS:
            getattr(self, name).setflags(write=False)

    def __len__(self) -> int:
        return int(self.thresholds.shape[0])

    def __repr__(self) -> str:
        return (
            f"ThresholdSweep({len(self)} thresholds from {_number(self.thresholds[0]):g} down to "
            f"{_number(self.thresholds[-1]):g}; positives={_number(self.n_pos):g}, "
            f"negatives={_number(self.n_neg):g}, beta={self.beta:g})"
        )

    def index(self, threshold: float) -> int:
        """Number of sweep thresholds ``>= threshold``; 0 means "nothing predicted positive"."""
        t = check_threshold(threshold)
        # thresholds decrease, so -thresholds increases: count the entries with -thr <= -t.
        return int(np.searchsorted(-self.thresholds, -t, side="right"))

    def at(self, threshold: float) -> OperatingPoint:
        """Counts and rates for "predict positive when ``score >= threshold``", any real threshold.

        A threshold between two distinct scores behaves like the next distinct score above it;
        one above the highest score predicts nothing positive (TP = FP = 0, precision 0.0);
        ``-inf`` predicts everything positive.

        Examples
        --------
        >>> sweep = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> point = sweep.at(0.5)
        >>> point.tp, point.fp, point.precision, point.recall
        (1, 0, 1.0, 0.5)
        >>> sweep.at(0.9).precision
        0.0
        """
        t = check_threshold(threshold)
        k = self.index(t)
        if k == 0:
            zero = self.n_pos * 0
            tp, fp, fn, tn = zero, zero, self.n_pos, self.n_neg
            nothing = _metrics(*(np.array([c]) for c in (tp, fp, fn, tn)), self.beta)
            rates = {m: v[0] for m, v in nothing.items()}
        else:
            i = k - 1
            tp, fp, fn, tn = self.tp[i], self.fp[i], self.fn[i], self.tn[i]
            rates = {m: getattr(self, m)[i] for m in _METRICS}
        return OperatingPoint(
            threshold=t,
            tp=_number(tp),
            fp=_number(fp),
            fn=_number(fn),
            tn=_number(tn),
            beta=self.beta,
            **{m: float(v) for m, v in rates.items()},
        )

    def cost(self, c_fp: float, c_fn: float) -> np.ndarray:
        """Total cost ``c_fp * FP + c_fn * FN`` at each threshold (float64 array)."""
        c_fp, c_fn = check_cost(c_fp, "c_fp"), check_cost(c_fn, "c_fn")
        return c_fp * self.fp.astype(np.float64) + c_fn * self.fn.astype(np.float64)

    def table(self, rows: int | Sequence[float] | None = 20, *, digits: int = 3) -> str:
        """A plain-text table of the sweep, for notebooks (``print(sweep.table())``).

        Parameters
        ----------
        rows : int, sequence of float or None, default=20
            ``None``: every threshold.  An int ``n``: every threshold if there are at most ``n``,
            else ``n`` rows evenly spaced along the sweep (first and last included).  A sequence:
            those thresholds, evaluated with :meth:`at`.
        digits : int, default=3
            Decimals for the rates.
        """
        if rows is None or isinstance(rows, (int, np.integer)):
            n = len(self)
            if rows is not None and rows < 1:
                raise ValueError(f"rows must be >= 1, None or a list of thresholds; got {rows!r}.")
            idx = (
                np.arange(n)
                if rows is None or n <= rows
                else np.unique(np.linspace(0, n - 1, int(rows)).round().astype(int))
            )
            points = [self.at(self.thresholds[i]) for i in idx]
        else:
            points = [self.at(t) for t in rows]
        weighted = not np.issubdtype(self.tp.dtype, np.integer)
        fmt_count = (lambda v: f"{v:.{digits}g}") if weighted else (lambda v: f"{v:d}")
        header = [
            "threshold",
            "TP",
            "FP",
            "FN",
            "TN",
            "precision",
            "recall",
            f"F{self.beta:g}",
            "accuracy",
            "specificity",
        ]
        body = [
            [f"{p.threshold:.{max(digits, 4)}g}"]
            + [fmt_count(getattr(p, c)) for c in ("tp", "fp", "fn", "tn")]
            + [f"{getattr(p, m):.{digits}f}" for m in _METRICS]
            for p in points
        ]
        widths = [max(len(h), *(len(r[j]) for r in body)) for j, h in enumerate(header)]
        lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
        lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in body]
        return "\n".join(lines)


def threshold_sweep(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    beta: float = 1.0,
) -> ThresholdSweep:
    r"""Confusion counts and rates at every distinct score, from one sort.

    Row ``i`` of the result is the rule "predict positive when ``score >= thresholds[i]``";
    thresholds are the distinct scores, highest first (see :class:`ThresholdSweep` for the
    formulas).  The counts come from :func:`mltutor.curves.binary_counts`; nothing loops over
    thresholds, so a million scores take a fraction of a second.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels: binary, or multiclass with ``pos_label`` naming the positive class.
    y_score : array-like of shape (n_samples,)
        Scores; larger means "more positive".  Finite.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 (labels must be {0, 1} or {-1, 1}).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights; zero-weight samples contribute no threshold.
    beta : float, default=1.0
        Weight of recall against precision in F-beta (>= 0; ``inf`` allowed).

    Returns
    -------
    ThresholdSweep
        Arrays ``thresholds, tp, fp, fn, tn, precision, recall, fbeta, accuracy, specificity``;
        ``.at(t)`` for any threshold, ``.cost(c_fp, c_fn)``, ``.table()``.

    Examples
    --------
    >>> sweep = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> sweep.thresholds.tolist()
    [0.8, 0.4, 0.35, 0.1]
    >>> sweep.precision.round(3).tolist(), sweep.recall.tolist()
    ([1.0, 0.5, 0.667, 0.5], [0.5, 0.5, 1.0, 1.0])
    >>> print(sweep.table())
    threshold  TP  FP  FN  TN  precision  recall     F1  accuracy  specificity
          0.8   1   0   1   2      1.000   0.500  0.667     0.750        1.000
          0.4   1   1   1   1      0.500   0.500  0.500     0.500        0.500
         0.35   2   1   0   1      0.667   1.000  0.800     0.750        0.500
          0.1   2   2   0   0      0.500   1.000  0.667     0.500        0.000
    """
    beta = check_beta(beta)
    is_positive, scores, weights, pos_label = check_binary_scores(
        y_true, y_score, pos_label, sample_weight
    )
    fps, tps, thresholds = cumulative_counts(is_positive, scores, weights)
    fn, tn = tps[-1] - tps, fps[-1] - fps
    rates = _metrics(tps, fps, fn, tn, beta)  # on the float64 counts: no conversions per ratio
    if weights is None:  # whole counts: show them as ints
        fps, tps, fn, tn = (c.astype(np.int64) for c in (fps, tps, fn, tn))
    return ThresholdSweep(
        thresholds=thresholds.astype(np.float64),
        tp=tps,
        fp=fps,
        fn=fn,
        tn=tn,
        beta=beta,
        pos_label=pos_label,
        n_pos=_number(tps[-1]),
        n_neg=_number(fps[-1]),
        **rates,
    )


def best_fbeta_threshold(
    y_true: Any,
    y_score: Any,
    *,
    beta: float = 1.0,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[float, float]:
    r"""The threshold that maximises F-beta on the given data, and that F-beta.

    .. math::

        t^\ast = \arg\max_{t \in \{\text{distinct scores}\}} F_\beta(t), \qquad
        F_\beta = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}

    with "predict positive when ``score >= t``".  Ties: the **highest** threshold among the
    maxima (the fewest positive predictions).  When F-beta is 0 everywhere (e.g. no positives in
    ``y_true``) that is the highest score.  Choosing a threshold on the data you then report on
    overfits: choose it on validation data.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`threshold_sweep`.
    beta : float, default=1.0
        Recall counts ``beta`` times as much as precision (>= 0, ``inf`` allowed).

    Returns
    -------
    threshold : float
        The best threshold (one of the distinct scores).
    fbeta : float
        F-beta at that threshold.

    Examples
    --------
    >>> best_fbeta_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    (0.35, 0.8)
    >>> best_fbeta_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], beta=0.5)
    (0.8, 0.8333333333333334)
    """
    sweep = threshold_sweep(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, beta=beta
    )
    i = int(np.argmax(sweep.fbeta))  # first maximum = highest threshold
    return float(sweep.thresholds[i]), float(sweep.fbeta[i])


def cost_optimal_threshold(c_fp: float, c_fn: float) -> float:
    r"""The Bayes-optimal threshold on **calibrated** probabilities for given error costs.

    Predicting positive costs :math:`(1-p)\,C_{FP}` in expectation, predicting negative costs
    :math:`p\,C_{FN}`; so predict positive when

    .. math::

        p \ge t^\ast = \frac{C_{FP}}{C_{FP} + C_{FN}}.

    It is not the point where "the costs are equal" on a curve, and it is only right if ``p`` is a
    calibrated probability of the positive class (check calibration first; otherwise use
    :func:`min_cost_threshold` on validation data).

    Parameters
    ----------
    c_fp : float
        Cost of one false positive (> 0, finite).
    c_fn : float
        Cost of one false negative (> 0, finite).

    Returns
    -------
    float
        The threshold, in (0, 1).

    Examples
    --------
    >>> cost_optimal_threshold(1, 1)
    0.5
    >>> cost_optimal_threshold(c_fp=1, c_fn=9)  # a miss costs 9x a false alarm
    0.1
    """
    c_fp, c_fn = check_cost(c_fp, "c_fp"), check_cost(c_fn, "c_fn")
    return c_fp / (c_fp + c_fn)


def min_cost_threshold(
    y_true: Any,
    y_score: Any,
    *,
    c_fp: float,
    c_fn: float,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> tuple[float, float]:
    r"""The threshold with the lowest total cost ``c_fp * FP + c_fn * FN`` on the given data.

    .. math::

        t^\ast = \arg\min_{t \in \{+\infty\} \cup \{\text{distinct scores}\}}
        C_{FP}\,FP(t) + C_{FN}\,FN(t)

    :math:`t = +\infty` is the rule "predict nothing positive" (cost :math:`C_{FN} \cdot P`).
    Ties: the highest threshold among the minima.  Unlike :func:`cost_optimal_threshold`, this
    works for uncalibrated scores, but it is fitted to the data: choose it on validation data.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`threshold_sweep`.
    c_fp, c_fn : float
        Cost of one false positive / one false negative (> 0, finite).

    Returns
    -------
    threshold : float
        The cheapest threshold (a distinct score, or ``inf``).
    cost : float
        Its total cost.

    Examples
    --------
    >>> min_cost_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], c_fp=1, c_fn=1)
    (0.8, 1.0)
    >>> min_cost_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], c_fp=1, c_fn=5)
    (0.35, 1.0)
    >>> min_cost_threshold([1, 0, 0], [0.9, 0.95, 0.2], c_fp=10, c_fn=1)  # flag nothing
    (inf, 1.0)
    """
    c_fp, c_fn = check_cost(c_fp, "c_fp"), check_cost(c_fn, "c_fn")
    sweep = threshold_sweep(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    costs = np.r_[c_fn * float(sweep.n_pos), sweep.cost(c_fp, c_fn)]
    thresholds = np.r_[np.inf, sweep.thresholds]
    i = int(np.argmin(costs))  # first minimum = highest threshold
    return float(thresholds[i]), float(costs[i])
