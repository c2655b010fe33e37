"""Rates and averages built on the confusion count (kernel 1).

Nothing here looks at a sample: every function takes counts from :mod:`mltutor.confusion` and
does arithmetic on them.  Inputs are assumed valid (see :mod:`mltutor._validation`).

Undefined ratios (0/0) follow scikit-learn's ``zero_division`` rule: the value is replaced by
0.0, 1.0 or NaN, and with ``'warn'`` by 0.0 plus an :class:`UndefinedMetricWarning` worded
exactly like scikit-learn's.  NaN results are left out of averages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._validation import UndefinedMetricWarning, warn
from ._counts import PerClassCounts

# Rows of a text classification report formatted at a time.
_REPORT_CHUNK = 2048

__all__ = [
    "accuracy",
    "balanced_accuracy",
    "normalize_confusion",
    "ratio",
    "nan_average",
    "precision_recall_fscore",
    "jaccard",
    "hamming",
    "top_k_accuracy",
    "specificity",
    "matthews",
    "kappa",
    "likelihood_ratios",
    "format_report",
]


def accuracy(correct: float, total: float, normalize: bool = True) -> float:
    """Fraction (or, with ``normalize=False``, weighted number) of correct predictions.

    .. math:: \\mathrm{accuracy} = \\frac{\\operatorname{tr} C}{\\sum_{ij} C_{ij}}

    >>> accuracy(3, 4)
    0.75
    """
    if not normalize:
        return float(correct)
    if total == 0:  # only reachable with negative weights that cancel
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(correct / total)


def balanced_accuracy(tp: np.ndarray, support: np.ndarray, adjusted: bool = False) -> float:
    """Mean recall over the classes that occur in ``y_true`` (a non-zero support).

    ``tp`` and ``support`` are the diagonal and the row sums of the confusion matrix: the table
    itself is not needed.

    .. math:: \\mathrm{BA} = \\frac{1}{K} \\sum_k \\frac{C_{kk}}{\\sum_j C_{kj}},\\qquad
              \\mathrm{adjusted} = \\frac{\\mathrm{BA} - 1/K}{1 - 1/K}

    >>> balanced_accuracy(np.array([3, 2]), np.array([4, 2]))
    0.875
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = tp / support
    if np.isnan(per_class).any():
        warn("y_pred contains classes not in y_true", UserWarning)
        per_class = per_class[~np.isnan(per_class)]
    score = np.mean(per_class)
    if adjusted:
        chance = 1 / per_class.shape[0]
        score = (score - chance) / (1 - chance)
    return float(score)


def normalize_confusion(cm: np.ndarray, normalize: str | None) -> np.ndarray:
    """Divide by row sums ('true'), column sums ('pred') or the total ('all'); 0/0 becomes 0."""
    if normalize is None:
        return cm
    with np.errstate(all="ignore"):
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        else:
            cm = cm / cm.sum()
    return np.nan_to_num(cm, copy=False)  # cm is already a new array: no second C x C copy


def _undefined_message(metric: str, modifier: str, average: Any, size: int) -> str:
    """scikit-learn's wording, e.g. 'Precision is ill-defined and being set to 0.0 in labels with
    no predicted samples. Use `zero_division` parameter to control this behavior.'"""
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    return (
        f"{metric} is ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. "
        "Use `zero_division` parameter to control this behavior."
    )


def ratio(
    numerator: np.ndarray,
    denominator: np.ndarray,
    zero_division: Any,
    *,
    metric: str,
    modifier: str,
    average: Any,
    warn_for: Iterable[str] = (),
) -> np.ndarray:
    """``numerator / denominator`` with 0/0 replaced by ``zero_division`` (sklearn's _prf_divide).

    ``metric`` ('precision', 'recall', 'f-score', 'specificity') and ``modifier`` ('predicted',
    'true', ...) only word the warning, issued when ``zero_division == 'warn'`` and ``metric`` is
    in ``warn_for``.
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    undefined = denominator == 0
    result = numerator / np.where(undefined, 1.0, denominator)
    if not undefined.any():
        return result
    warn_now = isinstance(zero_division, str) and zero_division == "warn"
    result[undefined] = 0.0 if warn_now else float(zero_division)
    if warn_now and metric in warn_for:
        name = metric.capitalize()
        warn(_undefined_message(name, modifier, average, result.shape[0]), UndefinedMetricWarning)
    return result


def nan_average(values: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Weighted mean that skips NaN (values set by ``zero_division=np.nan``).

    NaN if there is nothing to average; if the remaining weights sum to 0 the plain mean is used,
    as in scikit-learn.
    """
    values = np.asarray(values, dtype=np.float64)
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    if weights is None:
        return float(np.mean(values[keep]))
    w = np.asarray(weights, dtype=np.float64)[keep]
    if w.sum() == 0:
        return float(np.mean(values[keep]))
    return float(np.sum(values[keep] * w) / w.sum())


def precision_recall_fscore(
    counts: PerClassCounts,
    *,
    beta: float = 1.0,
    average: Any = None,
    warn_for: Iterable[str] = ("precision", "recall", "f-score"),
    zero_division: Any = "warn",
    sample_weight: np.ndarray | None = None,
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support from per-label (or per-sample) counts.

    .. math::
        P = \\frac{tp}{tp + fp},\\quad R = \\frac{tp}{tp + fn},\\quad
        F_\\beta = \\frac{(1 + \\beta^2)\\, tp}{(1 + \\beta^2)\\, tp + \\beta^2 fn + fp}

    ``average``: None (per label), 'micro' (pool the counts), 'macro' (mean over labels),
    'weighted' (mean weighted by support ``tp + fn``), 'samples' (``counts`` are per sample; mean
    weighted by ``sample_weight``), 'binary' (``counts`` hold the positive label only).

    >>> c = PerClassCounts(np.array([2]), np.array([1]), np.array([2]), np.array([5]))
    >>> precision_recall_fscore(c, average="binary")
    (0.6666666666666666, 0.5, 0.5714285714285714, None)
    """
    tp, fp, fn = counts.tp, counts.fp, counts.fn
    pred_sum, true_sum = tp + fp, tp + fn
    if average == "micro":
        tp, pred_sum, true_sum = (np.reshape(np.sum(a), (1,)) for a in (tp, pred_sum, true_sum))
    kw = dict(average=average, warn_for=tuple(warn_for))
    precision = ratio(tp, pred_sum, zero_division, metric="precision", modifier="predicted", **kw)
    recall = ratio(tp, true_sum, zero_division, metric="recall", modifier="true", **kw)
    if np.isposinf(beta):
        f_score = recall
    elif beta == 0:
        f_score = precision
    else:
        beta2 = beta**2
        denominator = beta2 * true_sum.astype(np.float64) + pred_sum.astype(np.float64)
        f_score = ratio(
            (1 + beta2) * tp.astype(np.float64),
            denominator,
            zero_division,
            metric="f-score",
            modifier="true nor predicted",
            **kw,
        )
    if average is None:
        return precision, recall, f_score, true_sum
    weights = {"weighted": true_sum, "samples": sample_weight}.get(average)
    return (
        nan_average(precision, weights),
        nan_average(recall, weights),
        nan_average(f_score, weights),
        None,
    )


def jaccard(
    counts: PerClassCounts,
    *,
    average: Any = None,
    zero_division: Any = "warn",
    sample_weight: np.ndarray | None = None,
) -> Any:
    """Jaccard index (intersection over union) of each label, or its average.

    .. math:: J = \\frac{tp}{tp + fp + fn} = \\frac{F_1}{2 - F_1}

    The same counts as precision and recall, and the same averages: 'micro' pools ``tp`` and the
    union ``tp + fp + fn`` over labels, 'macro' is the plain mean, 'weighted' weights by support
    ``tp + fn`` (a plain mean if every support is 0), 'samples' averages per-sample values with
    ``sample_weight``.  A 0/0 (label neither true nor predicted) follows ``zero_division``.

    >>> jaccard(PerClassCounts(np.array([2, 0]), np.array([1, 1]), np.array([1, 0]), np.array([0, 3])))
    array([0.5, 0. ])
    """
    tp, union = counts.tp, counts.tp + counts.fp + counts.fn
    if average == "micro":
        tp, union = np.reshape(np.sum(tp), (1,)), np.reshape(np.sum(union), (1,))
    score = ratio(
        tp,
        union,
        zero_division,
        metric="jaccard",
        modifier="true or predicted",
        average=average,
        warn_for=("jaccard",),
    )
    if average is None:
        return score
    weights = {"weighted": counts.tp + counts.fn, "samples": sample_weight}.get(average)
    if average == "weighted" and not np.any(weights):
        weights = None  # every score is 0/0 here; sklearn then takes the plain mean
    if weights is not None and np.sum(weights) == 0:  # only with negative weights
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return nan_average(score, weights)


def hamming(n_wrong: float, n_cells: float) -> float:
    """Hamming loss: the (weighted) fraction of label decisions that are wrong.

    For 1-D labels ``n_wrong`` is the off-diagonal sum of the confusion matrix (= sum of FP = sum
    of FN) and ``n_cells`` the number of samples, so the loss is ``1 - accuracy``; for indicator
    matrices ``n_wrong`` counts differing entries and ``n_cells`` is samples x labels.

    .. math:: \\mathrm{HL} = \\frac{\\sum_s w_s \\sum_l [Y_{sl} \\ne \\hat Y_{sl}]}{L \\sum_s w_s}

    >>> hamming(3, 12)
    0.25
    """
    if n_cells == 0:  # only reachable with negative weights that cancel
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(n_wrong / n_cells)


def top_k_accuracy(
    outranked_by: np.ndarray,
    k: int,
    sample_weight: np.ndarray | None = None,
    normalize: bool = True,
) -> float:
    """Fraction (or weighted number) of samples whose true class is among the ``k`` best scored.

    ``outranked_by[s]`` is how many classes sample ``s``'s true class loses to
    (:func:`mltutor.confusion.outranking_count`); the sample is a hit when that is below ``k``.

    >>> top_k_accuracy(np.array([0, 1, 2, 0]), k=2)
    0.75
    """
    hits = outranked_by < k
    if sample_weight is None:
        return accuracy(np.count_nonzero(hits), hits.shape[0], normalize)
    return accuracy(np.dot(hits, sample_weight), np.sum(sample_weight), normalize)


def specificity(
    counts: PerClassCounts,
    *,
    average: Any = None,
    zero_division: Any = "warn",
    sample_weight: np.ndarray | None = None,
) -> Any:
    """Specificity (true negative rate) of each label: how many actual negatives were left alone.

    .. math:: \\mathrm{TNR} = \\frac{tn}{tn + fp}

    Averages as for recall: 'micro' pools ``tn`` and ``fp`` over labels; 'weighted' weights each
    label by its support ``tp + fn`` (the same weights ``recall_score`` uses, so the averaging rule
    is the one learners already know); 'samples' averages per-sample values with ``sample_weight``.

    >>> specificity(PerClassCounts(np.array([2]), np.array([1]), np.array([2]), np.array([5])))
    array([0.83333333])
    """
    tn, fp = counts.tn, counts.fp
    if average == "micro":
        tn, fp = np.reshape(np.sum(tn), (1,)), np.reshape(np.sum(fp), (1,))
    spec = ratio(
        tn,
        tn + fp,
        zero_division,
        metric="specificity",
        modifier="negative",
        average=average,
        warn_for=("specificity",),
    )
    if average is None:
        return spec
    weights = {"weighted": counts.tp + counts.fn, "samples": sample_weight}.get(average)
    return nan_average(spec, weights)


# --------------------------------------------------------------------------------------------
# Single-number agreement: MCC, Cohen's kappa, likelihood ratios
# --------------------------------------------------------------------------------------------


def matthews(tp: np.ndarray, true_sum: np.ndarray, pred_sum: np.ndarray) -> float:
    """Matthews correlation coefficient from the diagonal and the marginals of the confusion
    count, in scikit-learn's order of operations.

    .. math:: \\mathrm{MCC} = \\frac{c\\,s - \\sum_k t_k p_k}
              {\\sqrt{(s^2 - \\sum_k p_k^2)\\,(s^2 - \\sum_k t_k^2)}}

    with ``c = sum(tp)`` the correct predictions, ``s`` the total and ``t_k``, ``p_k`` the true
    and predicted totals of class ``k``; 0.0 when the denominator is 0 (every sample has the same
    true class or the same predicted class), without a warning, as in scikit-learn.

    >>> matthews(np.array([2, 0]), np.array([3, 1]), np.array([3, 1]))
    -0.3333333333333333
    """
    t_sum, p_sum = true_sum.astype(np.float64), pred_sum.astype(np.float64)
    n_correct = np.sum(tp, dtype=np.float64)
    n_samples = p_sum.sum()
    cov_ytyp = n_correct * n_samples - np.dot(t_sum, p_sum)
    cov_ypyp = n_samples**2 - np.dot(p_sum, p_sum)
    cov_ytyt = n_samples**2 - np.dot(t_sum, t_sum)
    denominator = cov_ypyp * cov_ytyt
    if denominator == 0:
        return 0.0
    return float(cov_ytyp / np.sqrt(denominator))


def kappa(confusion: np.ndarray, weights: Any, replace_undefined_by: Any) -> Any:
    """Cohen's kappa from the float64 confusion count, in scikit-learn's order of operations.

    .. math:: \\kappa = 1 - \\frac{\\sum_{ij} w_{ij} C_{ij}}{\\sum_{ij} w_{ij} E_{ij}},\\qquad
              E_{ij} = \\frac{(\\sum_k C_{kj})(\\sum_k C_{ik})}{\\sum C}

    with ``weights`` None (``w_ij = [i != j]``), 'linear' (``|i - j|``) or 'quadratic'
    (``(i - j)^2``).  An empty count, or a chance term of 0, gives ``replace_undefined_by`` with
    an :class:`UndefinedMetricWarning` worded as scikit-learn 1.9's.

    >>> kappa(np.array([[2.0, 0.0], [1.0, 1.0]]), None, np.nan)
    0.5
    """
    n_classes = confusion.shape[0]
    sum0, sum1 = confusion.sum(axis=0), confusion.sum(axis=1)
    total = sum0.sum()
    if total == 0:
        warn(
            "`y2` contains no labels that are present in both `y1` and `labels`."
            "`cohen_kappa_score` is undefined and set to the value defined by "
            f"the `replace_undefined_by` param, which is set to {replace_undefined_by}.",
            UndefinedMetricWarning,
        )
        return replace_undefined_by
    expected = np.outer(sum0, sum1) / total
    if weights is None:
        w_mat = np.ones((n_classes, n_classes))
        np.fill_diagonal(w_mat, 0)
    else:
        offsets = np.zeros((n_classes, n_classes)) + np.arange(n_classes)
        w_mat = np.abs(offsets - offsets.T) if weights == "linear" else (offsets - offsets.T) ** 2
    chance = np.sum(w_mat * expected)
    if chance == 0:
        warn(
            "`y1`, `y2` and `labels` have only one label in common. "
            "`cohen_kappa_score` is undefined and set to the value defined by the "
            f"the `replace_undefined_by` param, which is set to {replace_undefined_by}.",
            UndefinedMetricWarning,
        )
        return replace_undefined_by
    return float(1 - np.sum(w_mat * confusion) / chance)


def likelihood_ratios(
    tn: Any, fp: Any, fn: Any, tp: Any, replace_pos: float, replace_neg: float
) -> tuple[float, float]:
    """LR+ and LR- from the four counts of a binary problem, with scikit-learn 1.9's warnings and
    replacements.

    .. math:: LR_+ = \\frac{tp\\,(tn + fp)}{fp\\,(tp + fn)},\\qquad
              LR_- = \\frac{fn\\,(tn + fp)}{tn\\,(tp + fn)}

    ``fp == 0`` gives ``replace_pos`` for LR+, ``tn == 0`` gives ``replace_neg`` for LR- (each
    with an :class:`UndefinedMetricWarning`); no positive sample makes a computed ratio 0/0, NaN.

    >>> likelihood_ratios(2, 1, 1, 1, np.nan, np.nan)
    (1.5, 0.75)
    """
    support_pos, support_neg = tp + fn, tn + fp
    end = (
        "Use the `replace_undefined_by` param to control this behavior. To suppress this "
        "warning or turn it into an error, see Python's `warnings` module and "
        "`warnings.catch_warnings()`."
    )
    if support_pos == 0:
        warn(
            "No samples of the positive class are present in `y_true`. "
            "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both set "
            "to `np.nan`. " + end,
            UndefinedMetricWarning,
        )
    if fp == 0:
        beginning = (
            "No samples were predicted for the positive class and `positive_likelihood_ratio` is "
            if tp == 0
            else "`positive_likelihood_ratio` is ill-defined and "
        )
        # scikit-learn's message stops here (the rest of its sentence is a separate statement)
        warn(
            beginning + "set to `np.nan`. Use the `replace_undefined_by` param to ",
            UndefinedMetricWarning,
        )
        positive = replace_pos
    else:
        positive = _ratio_or_nan(tp * support_neg, fp * support_pos)
    if tn == 0:
        warn(
            "`negative_likelihood_ratio` is ill-defined and set to `np.nan`. " + end,
            UndefinedMetricWarning,
        )
        negative = replace_neg
    else:
        negative = _ratio_or_nan(fn * support_neg, tn * support_pos)
    return float(positive), float(negative)


def _ratio_or_nan(numerator: Any, denominator: Any) -> float:
    """numerator / denominator, NaN for 0/0 (no positive sample; already warned about)."""
    if denominator == 0:
        return np.nan
    return float(numerator) / float(denominator)


def format_report(
    names: list[str],
    per_label: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    averages: dict[str, tuple[float, float, float, Any]],
    *,
    digits: int = 2,
    output_dict: bool = False,
) -> str | dict:
    """Lay out a classification report exactly as scikit-learn does.

    ``averages`` maps a row heading ('accuracy', 'micro avg', 'macro avg', ...) to
    ``(precision, recall, f1, support)``; the 'accuracy' row shows only the f1 column (which equals
    accuracy) and the support.
    """
    headers = ["precision", "recall", "f1-score", "support"]
    columns = [np.asarray(column) for column in per_label]
    if output_dict:
        rows = zip(names, *(column.tolist() for column in columns))
        report: dict = {row[0]: dict(zip(headers, [float(v) for v in row[1:]])) for row in rows}
        for heading, values in averages.items():
            scores = dict(zip(headers, [float(v) for v in values]))
            report[heading] = scores["precision"] if heading == "accuracy" else scores
        return report
    width = max(max(len(n) for n in names), len("weighted avg"), digits)
    text = ("{:>{width}s} " + " {:>9}" * len(headers)).format("", *headers, width=width) + "\n\n"
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    label_fmt = row_fmt.replace("{width}", str(width)).replace("{digits}", str(digits))
    # Rows in chunks, as Python numbers (they format several times faster than numpy scalars):
    # with 100,000 labels the text itself is then the only large thing held.
    for start in range(0, len(names), _REPORT_CHUNK):
        part = slice(start, start + _REPORT_CHUNK)
        rows = zip(names[part], *(column[part].tolist() for column in columns))
        text += "".join([label_fmt.format(*row) for row in rows])
    text += "\n"
    for heading, values in averages.items():
        if heading == "accuracy":
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            text += fmt.format(heading, "", "", *values[2:], width=width, digits=digits)
        else:
            text += row_fmt.format(heading, *values, width=width, digits=digits)
    return text
