"""The metrics of predicted labels, with scikit-learn's names, signatures and results.

Each function is a pipeline: validate (:mod:`mltutor._validation`) -> count (the kernel,
``_counts``) -> rates and averages (``_rates``).  Exported by :mod:`mltutor.metrics`, where the
deliberate differences from scikit-learn are listed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (
    Targets,
    check_average,
    check_beta,
    check_bool,
    check_digits,
    check_labels,
    check_multilabel_labels,
    check_normalize,
    check_pos_label,
    check_set_wise_labels,
    check_targets,
    check_top_k,
    check_zero_division,
    target_type,
    warn,
)
from .._validation.stats import check_kappa_replace, check_kappa_weights, check_lr_replace
from . import _counts as _count
from . import _rates

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "hamming_loss",
    "jaccard_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "specificity_score",
    "top_k_accuracy_score",
    "zero_one_loss",
]

_PRF = ("precision", "recall", "f-score")


# --------------------------------------------------------------------------------------------
# Shared steps
# --------------------------------------------------------------------------------------------


def _classes(targets: Targets) -> tuple[_count.ClassCounts | None, np.ndarray, str]:
    """The per-class marginal counts (1-D labels only), the labels present and sklearn's target
    type.  O(n + C) for any number of classes C: no C x C table is built."""
    if targets.multilabel:
        return None, np.arange(targets.y_true.shape[1]), "multilabel-indicator"
    conf = _count.class_counts(targets.y_true, targets.y_pred, targets.sample_weight)
    return conf, conf.classes, target_type(targets, conf.classes)


def _per_label(
    targets: Targets, conf: _count.ClassCounts | None, labels: Any, *, samplewise: bool = False
) -> _count.PerClassCounts:
    """tp/fp/fn/tn for each of ``labels`` (all present labels if None); column indices for
    indicator matrices, one entry per sample with ``samplewise``."""
    if targets.multilabel:
        columns = check_multilabel_labels(labels, targets.y_true.shape[1])
        y_true, y_pred = targets.y_true[:, columns], targets.y_pred[:, columns]
        counts = _count.multilabel_counts(y_true, y_pred, targets.sample_weight, samplewise)
        # sklearn sums integer weights over no positive entry at all into integers.
        keep_int = samplewise or not (y_true.any() or y_pred.any())
        return _as_count_dtype(counts, targets, None, keep_int)
    if samplewise:
        raise ValueError(
            "Samplewise metrics are not available outside of multilabel classification "
            "(average='samples' needs label-indicator matrices)."
        )
    counts = _count.one_vs_rest(conf, labels)
    return _as_count_dtype(counts, targets, conf, False)


def _as_count_dtype(
    counts: _count.PerClassCounts, targets: Targets, conf: _count.ClassCounts | None, keep_int: bool
) -> _count.PerClassCounts:
    """scikit-learn's dtype for these counts (it shows in classification_report's support column):
    float64 with weights, or, for 1-D labels, when no sample is predicted exactly right; int64
    otherwise; ``keep_int`` keeps integer weights integer (indicator matrices: per-sample counts,
    or no positive entry at all)."""
    w = targets.sample_weight
    if w is not None:
        as_int = keep_int and w.dtype.kind in "iub"
        dtype = np.int64 if as_int else np.float64
    elif conf is not None and conf.n_exact == 0:
        dtype = np.float64
    else:
        dtype = np.int64
    return _count.PerClassCounts(*(c.astype(dtype) for c in counts))


def _set_wise_counts(
    y_true: Any, y_pred: Any, labels: Any, pos_label: Any, average: Any, sample_weight: Any
) -> tuple[_count.PerClassCounts, Targets]:
    """Validate and count for the precision/recall/F/specificity family."""
    average = check_average(average)
    pos_label = check_pos_label(pos_label)
    targets = check_targets(y_true, y_pred, sample_weight)
    conf, classes, ttype = _classes(targets)
    labels = check_set_wise_labels(ttype, classes, average, labels, pos_label)
    if average != "binary" and not targets.multilabel:  # with 'binary', labels is [pos_label]
        labels = check_labels(labels, classes)
    return _per_label(targets, conf, labels, samplewise=average == "samples"), targets


def _refuse_multilabel(targets: Targets) -> None:
    """confusion_matrix (and balanced accuracy, built on it in scikit-learn) take 1-D labels only."""
    if targets.multilabel:
        raise ValueError(
            "multilabel-indicator is not supported by confusion_matrix; use "
            "multilabel_confusion_matrix for label-indicator matrices."
        )


def _zero_division(zero_division: Any, *, allow_nan: bool = True) -> Any:
    """``zero_division`` checked and normalised once, in the form the rates take: ``'warn'``,
    or the float that replaces 0/0 (``True`` becomes 1.0, ``np.float32(0)`` 0.0)."""
    value = check_zero_division(zero_division, allow_nan=allow_nan)
    return "warn" if isinstance(zero_division, str) else value


def _labels_in_y_true(conf: _count.ClassCounts, labels: np.ndarray, head: str, holder: str) -> None:
    """Refuse an empty ``labels``, or one none of whose labels occurs in ``y_true`` (scikit-learn's
    rule for ``confusion_matrix``, ``cohen_kappa_score`` and ``class_likelihood_ratios``); ``head``
    words the message as each of them does, ``holder`` names the array the labels were sought in."""
    if labels.size == 0:
        raise ValueError("'labels' should contain at least one label.")
    if not _count.labels_in_true(conf, labels).any():
        raise ValueError(
            f"{head}; labels={labels.tolist()} but {holder} holds "
            f"{conf.classes[conf.in_true].tolist()}."
        )


def _warn_single_label() -> None:
    """scikit-learn's warning for a 1 x 1 confusion matrix."""
    warn(
        "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have "
        "the correct shape, use the 'labels' parameter to pass all known labels.",
        UserWarning,
    )


# --------------------------------------------------------------------------------------------
# Public metrics
# --------------------------------------------------------------------------------------------


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: Any = None,
) -> np.ndarray:
    """Confusion matrix: ``C[i, j]`` counts samples of true class ``i`` predicted as ``j``.

    .. math:: C_{ij} = \\sum_s w_s\\,[y_s = \\ell_i]\\,[\\hat y_s = \\ell_j]

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (ints, whole-number floats, bools or strings).
        Label-indicator matrices are refused, as in scikit-learn.
    labels : array-like of shape (n_classes,), optional
        Row/column order; may select a subset or add absent labels.  Default: the sorted labels
        seen in either array.  At least one must occur in ``y_true``; repeats are refused.
    sample_weight : array-like of shape (n_samples,), optional
    normalize : {'true', 'pred', 'all'}, optional
        Divide by row sums, column sums or the total (0/0 gives 0).

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        int64 without weights (or with integer weights), float64 otherwise.

    Examples
    --------
    >>> confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
    array([[2, 0, 0],
           [0, 0, 1],
           [1, 0, 2]])
    """
    normalize = check_normalize(normalize)
    targets = check_targets(y_true, y_pred, sample_weight)
    _refuse_multilabel(targets)
    conf = _count.class_counts(targets.y_true, targets.y_pred, targets.sample_weight)
    classes = conf.classes
    labels = check_labels(labels, classes, unique=True)
    if labels is not None:
        _labels_in_y_true(conf, labels, "At least one label specified must be in y_true", "y_true")
    # The only metric that builds the C x C table; an absent label gets a row and column of 0.
    cm = _count.confusion_table(conf, targets.sample_weight, labels)
    w = targets.sample_weight
    if w is not None and w.dtype.kind in "iub":
        cm = cm.astype(np.int64)  # integer weights give integer counts, as in sklearn
    cm = _rates.normalize_confusion(cm, normalize)
    if cm.shape == (1, 1):
        _warn_single_label()
    return cm


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One 2x2 confusion matrix per label (one-vs-rest), or per sample for indicator matrices.

    ``MCM[k] = [[tn, fp], [fn, tp]]`` for label ``k``.  Multiclass labels are binarised one-vs-rest;
    for indicator matrices ``labels`` are column indices and ``samplewise=True`` gives one matrix
    per row.

    Examples
    --------
    >>> multilabel_confusion_matrix(["cat", "ant", "cat"], ["ant", "ant", "cat"]).tolist()
    [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
    """
    samplewise = check_bool(samplewise, "samplewise")
    targets = check_targets(y_true, y_pred, sample_weight)
    conf, classes, _ = _classes(targets)
    if not targets.multilabel:
        labels = check_labels(labels, classes)
    counts = _per_label(targets, conf, labels, samplewise=samplewise)
    return np.stack([counts.tn, counts.fp, counts.fn, counts.tp], axis=-1).reshape(-1, 2, 2)


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction of samples predicted exactly right (subset accuracy for indicator matrices).

    .. math:: \\mathrm{accuracy} = \\frac{\\sum_s w_s [\\hat y_s = y_s]}{\\sum_s w_s}
              = \\frac{\\operatorname{tr} C}{\\sum C}

    With ``normalize=False`` the (weighted) number of correct samples.

    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    """
    normalize = check_bool(normalize, "normalize")
    targets = check_targets(y_true, y_pred, sample_weight)
    w = targets.sample_weight
    total = targets.n_samples if w is None else w.sum()
    # Labels (or label rows) compared as they are: no class index or count is needed.
    correct = _count.exact_match_count(targets.y_true, targets.y_pred, w)
    return _rates.accuracy(correct, total, normalize)


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False
) -> float:
    """Mean per-class recall; with ``adjusted=True`` rescaled so that chance scores 0.

    .. math:: \\mathrm{BA} = \\frac{1}{K}\\sum_{k} \\frac{C_{kk}}{\\sum_j C_{kj}}

    Classes that appear only in ``y_pred`` are skipped with a warning, as in scikit-learn.

    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    adjusted = check_bool(adjusted, "adjusted")
    targets = check_targets(y_true, y_pred, sample_weight)
    _refuse_multilabel(targets)
    conf = _count.class_counts(targets.y_true, targets.y_pred, targets.sample_weight)
    if conf.classes.shape[0] == 1:
        _warn_single_label()  # scikit-learn's confusion_matrix warns here
    return _rates.balanced_accuracy(conf.tp, conf.true_sum, adjusted)


def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = None,
    warn_for: Any = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support of each label, or their average.

    .. math::
        P = \\frac{tp}{tp+fp},\\quad R = \\frac{tp}{tp+fn},\\quad
        F_\\beta = \\frac{(1+\\beta^2)\\,tp}{(1+\\beta^2)\\,tp + \\beta^2 fn + fp}

    Parameters
    ----------
    y_true, y_pred : 1-D labels or label-indicator matrices
    beta : float >= 0
        Recall weighs ``beta`` times precision (``inf``: recall; 0: precision).
    labels : array-like, optional
        Labels to report (order kept), including absent ones; column indices for indicators.
    pos_label : label, default 1
        The positive class when ``average='binary'``; ignored (with a warning) otherwise.
    average : {None, 'binary', 'micro', 'macro', 'weighted', 'samples'}
    warn_for : tuple of str
        Which of 'precision', 'recall', 'f-score' may warn about 0/0.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : {'warn', 0.0, 1.0, np.nan}
        Value of a 0/0 ratio ('warn': 0.0 with an :class:`UndefinedMetricWarning`); NaN values
        are left out of averages.

    Returns
    -------
    precision, recall, fbeta, support
        Arrays per label when ``average`` is None, else floats and ``support=None``.

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 2], [0, 1, 2, 2])
    >>> p.tolist(), r.tolist(), s.tolist()
    ([1.0, 1.0, 0.5], [1.0, 0.5, 1.0], [1, 2, 1])
    """
    zero_division = _zero_division(zero_division)
    beta = check_beta(beta)
    counts, targets = _set_wise_counts(y_true, y_pred, labels, pos_label, average, sample_weight)
    return _rates.precision_recall_fscore(
        counts,
        beta=beta,
        average=average,
        warn_for=warn_for,
        zero_division=zero_division,
        sample_weight=targets.sample_weight,
    )


def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """F-beta score: weighted harmonic mean of precision and recall.

    .. math:: F_\\beta = (1+\\beta^2)\\frac{P\\,R}{\\beta^2 P + R}

    >>> fbeta_score([0, 1, 1, 1], [0, 1, 0, 0], beta=2.0)
    0.38461538461538464
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[2]


def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """F1 score: harmonic mean of precision and recall, ``2 tp / (2 tp + fp + fn)``.

    >>> f1_score([0, 1, 1, 1], [0, 1, 1, 0])
    0.8
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[2]


def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Precision ``tp / (tp + fp)``: of the predicted positives, how many are right.

    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("precision",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[0]


def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Recall (sensitivity) ``tp / (tp + fn)``: of the actual positives, how many were found.

    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("recall",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[1]


def specificity_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Specificity (true negative rate) ``tn / (tn + fp)``.  scikit-learn has no such function.

    For binary targets it is the recall of the negative class.  Otherwise each label is scored
    one-vs-rest and averaged like :func:`recall_score`: 'micro' pools ``tn`` and ``fp``,
    'macro' is the plain mean, 'weighted' weights each label by its support ``tp + fn`` (the
    weights recall uses), 'samples' averages per-sample values of indicator matrices.  A 0/0
    (a label with no negative samples) follows ``zero_division`` with an
    :class:`UndefinedMetricWarning`, e.g. "Specificity is ill-defined and being set to 0.0 due to
    no negative samples."

    >>> specificity_score([0, 0, 0, 1], [0, 1, 0, 1])
    0.6666666666666666
    """
    zero_division = _zero_division(zero_division)
    counts, targets = _set_wise_counts(y_true, y_pred, labels, pos_label, average, sample_weight)
    return _rates.specificity(
        counts, average=average, zero_division=zero_division, sample_weight=targets.sample_weight
    )


def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    target_names: Any = None,
    sample_weight: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
) -> str | dict:
    """Text (or dict) report of precision, recall, F1 and support per label, plus averages.

    Identical to scikit-learn's: the rows are the labels, then 'accuracy' (multiclass/binary with
    every label shown) or 'micro avg', then 'macro avg', 'weighted avg' and, for indicator
    matrices, 'samples avg'.

    Examples
    --------
    >>> print(classification_report([0, 1, 2, 2, 2], [0, 0, 2, 2, 1],
    ...                             target_names=["class 0", "class 1", "class 2"]))
                  precision    recall  f1-score   support
    <BLANKLINE>
         class 0       0.50      1.00      0.67         1
         class 1       0.00      0.00      0.00         1
         class 2       1.00      0.67      0.80         3
    <BLANKLINE>
        accuracy                           0.60         5
       macro avg       0.50      0.56      0.49         5
    weighted avg       0.70      0.60      0.61         5
    <BLANKLINE>
    """
    zero_division = _zero_division(zero_division)
    digits = check_digits(digits)
    output_dict = check_bool(output_dict, "output_dict")
    targets = check_targets(y_true, y_pred, sample_weight)
    conf, classes, ttype = _classes(targets)
    labels_given = labels is not None
    if labels_given and not targets.multilabel:
        check_labels(labels, classes)
    labels = np.asarray(labels) if labels_given else classes
    counts = _per_label(targets, conf, labels if labels_given else None)
    micro_is_accuracy = ttype in ("binary", "multiclass") and (
        not labels_given or set(labels) >= set(classes)
    )
    if target_names is not None and len(labels) != len(target_names):
        if not labels_given:
            raise ValueError(
                f"Number of classes, {len(labels)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter"
            )
        warn(
            f"labels size, {len(labels)}, does not match size of target_names, {len(target_names)}",
            UserWarning,
        )
    names = [f"{label}" for label in labels] if target_names is None else list(target_names)

    w = targets.sample_weight
    per_label = _rates.precision_recall_fscore(counts, average=None, zero_division=zero_division)
    support = np.sum(per_label[3])
    averages = {}
    for average in ("micro", "macro", "weighted", "samples"):
        if average == "samples":
            if ttype != "multilabel-indicator":
                continue
            label_counts = _per_label(
                targets, conf, labels if labels_given else None, samplewise=True
            )
        else:
            label_counts = counts
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        p, r, f, _ = _rates.precision_recall_fscore(
            label_counts, average=average, zero_division=zero_division, sample_weight=w
        )
        averages[heading] = (p, r, f, support)
    return _rates.format_report(names, per_label, averages, digits=digits, output_dict=output_dict)


# --------------------------------------------------------------------------------------------
# Set-overlap and ranking views of the same counts
# --------------------------------------------------------------------------------------------


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Fraction of label decisions that are wrong.

    .. math:: \\mathrm{HL} = \\frac{1}{L \\sum_s w_s}\\sum_s w_s \\sum_{l=1}^{L} [Y_{sl} \\ne \\hat Y_{sl}]

    For 1-D labels (``L = 1``) it is the off-diagonal share of the confusion matrix,
    ``1 - accuracy``.  For indicator matrices every (sample, label) cell is one yes/no decision,
    so a sample with one wrong label out of five costs 0.2, not 1 as in subset accuracy.

    Parameters
    ----------
    y_true, y_pred : 1-D labels or label-indicator matrices
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float
        In [0, 1]; lower is better.

    Examples
    --------
    >>> hamming_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    >>> hamming_loss(np.array([[0, 1], [1, 1]]), np.zeros((2, 2)))
    0.75
    """
    targets = check_targets(y_true, y_pred, sample_weight)
    w = targets.sample_weight
    total = targets.n_samples if w is None else np.sum(w)
    # Entries compared as they are (no class count needed); each label column is one decision.
    n_wrong = _count.mismatch_count(targets.y_true, targets.y_pred, w)
    n_labels = targets.y_true.shape[1] if targets.multilabel else 1
    return _rates.hamming(n_wrong, total * n_labels)


def jaccard_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: Any = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Jaccard index (intersection over union) of the predicted and true sets of each label.

    .. math:: J = \\frac{|Y \\cap \\hat Y|}{|Y \\cup \\hat Y|} = \\frac{tp}{tp + fp + fn}

    Built from the same counts as :func:`precision_score` and averaged the same way
    ('binary', 'micro', 'macro', 'weighted', 'samples' or None).  Unlike the precision family,
    ``zero_division`` accepts only 'warn', 0 and 1 (as in scikit-learn 1.9).

    Examples
    --------
    >>> jaccard_score([0, 1, 1, 1], [0, 1, 1, 0])
    0.6666666666666666
    >>> jaccard_score([0, 1, 2, 2], [0, 2, 1, 2], average=None).tolist()
    [1.0, 0.0, 0.3333333333333333]
    """
    zero_division = _zero_division(zero_division, allow_nan=False)
    counts, targets = _set_wise_counts(y_true, y_pred, labels, pos_label, average, sample_weight)
    return _rates.jaccard(
        counts, average=average, zero_division=zero_division, sample_weight=targets.sample_weight
    )


def top_k_accuracy_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
) -> float:
    """Fraction of samples whose true class is among the ``k`` highest-scored classes.

    .. math:: \\frac{1}{\\sum_s w_s}\\sum_s w_s\\,[r_s < k],\\qquad
              r_s = \\#\\{\\text{classes ranked above the true class of } s\\}

    Tied scores rank the higher class index first (as in scikit-learn; torchmetrics ranks the
    lower index first).  Binary targets take 1-D scores of the second class: with ``k=1`` a
    sample is predicted positive when its score exceeds 0.5 (scores in [0, 1]) or 0 (otherwise),
    and ``k >= 2`` is always right.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Columns follow the sorted labels of ``y_true``, or ``labels``.
    k : int >= 1
    normalize : bool
        Fraction (True) or (weighted) number of hits (False).
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like of shape (n_classes,), optional
        All classes, sorted, when ``y_true`` does not show them all.

    Examples
    --------
    >>> scores = [[0.5, 0.2, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2]]
    >>> top_k_accuracy_score([2, 1, 0], scores, k=1)
    0.0
    >>> top_k_accuracy_score([2, 1, 0], scores, k=2)
    1.0
    """
    inputs, k, normalize = check_top_k(y_true, y_score, k, normalize, sample_weight, labels)
    s, t = inputs.y_score, inputs.true_idx
    if s.ndim == 1:  # binary: the predicted class outranks the true one when they differ
        threshold = 0.5 if s.min() >= 0 and s.max() <= 1 else 0
        outranked_by = ((s > threshold) != t).astype(np.intp)
    else:
        outranked_by = _count.outranking_count(s, t)
    return _rates.top_k_accuracy(outranked_by, k, inputs.sample_weight, normalize)


# --------------------------------------------------------------------------------------------
# Single-number agreement: MCC, Cohen's kappa, likelihood ratios, zero-one loss
# --------------------------------------------------------------------------------------------


def _labelled_table(targets: Targets, labels: Any, who: str) -> np.ndarray:
    """The confusion count over ``labels`` (or the present classes) of validated 1-D targets,
    refusing labels none of which occur in ``y_true`` as ``confusion_matrix`` does."""
    if targets.multilabel:
        raise ValueError(f"multilabel-indicator is not supported by {who}; it needs 1-D labels.")
    conf = _count.class_counts(targets.y_true, targets.y_pred, targets.sample_weight)
    labels = check_labels(labels, conf.classes, unique=True)
    if labels is not None:
        first = "y1" if who == "cohen_kappa_score" else "y_true"
        _labels_in_y_true(
            conf, labels, f"At least one label in `labels` must be present in `{first}`", first
        )
    cm = _count.confusion_table(conf, targets.sample_weight, labels)
    if cm.shape == (1, 1):
        _warn_single_label()  # scikit-learn's confusion_matrix, called inside, warns
    return cm


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Matthews correlation coefficient (the phi coefficient; Gorodkin's R_K for K classes).

    .. math:: \\mathrm{MCC} = \\frac{c\\,s - \\sum_k t_k p_k}
              {\\sqrt{(s^2 - \\sum_k p_k^2)\\,(s^2 - \\sum_k t_k^2)}}

    with ``c`` the (weighted) number of correct predictions, ``s`` the total, ``t_k`` and ``p_k``
    the true and predicted totals of class ``k``: the correlation of the one-hot truth and
    prediction, so only the diagonal and the two marginals of the confusion count are needed
    (O(n + C)).  In [-1, 1]; 0 for chance.

    Undefined when every sample has the same true class or the same predicted class (a
    denominator factor is 0); like scikit-learn, the result is then 0.0, **without a warning** —
    a constant classifier and a random one both score 0.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Binary or multiclass labels (indicator matrices are refused).
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1])
    -0.3333333333333333
    >>> matthews_corrcoef([0, 1, 0, 1], [0, 0, 0, 0])  # a constant prediction
    0.0
    """
    targets = check_targets(y_true, y_pred, sample_weight)
    if targets.multilabel:
        raise ValueError(
            "multilabel-indicator is not supported by matthews_corrcoef; "
            "it needs binary or multiclass 1-D labels."
        )
    conf = _count.class_counts(targets.y_true, targets.y_pred, targets.sample_weight)
    if conf.classes.shape[0] == 1:
        _warn_single_label()  # scikit-learn's confusion_matrix warns here
    return _rates.matthews(conf.tp, conf.true_sum, conf.pred_sum)


def cohen_kappa_score(
    y1: Any,
    y2: Any,
    *,
    labels: Any = None,
    weights: Any = None,
    sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
) -> Any:
    """Cohen's kappa: agreement of two labelings beyond the agreement expected by chance.

    .. math:: \\kappa = 1 - \\frac{\\sum_{ij} w_{ij} C_{ij}}{\\sum_{ij} w_{ij} E_{ij}},\\qquad
              E_{ij} = \\frac{(\\sum_k C_{kj})(\\sum_k C_{ik})}{\\sum C}

    with ``w_ij = [i != j]`` (unweighted, so ``kappa = (p_o - p_e) / (1 - p_e)``), ``|i - j|``
    (``weights='linear'``) or ``(i - j)^2`` (``'quadratic'``), classes in the order of
    ``labels`` (default: sorted).  Symmetric in ``y1`` and ``y2``.

    Undefined (with an ``UndefinedMetricWarning``, returning ``replace_undefined_by``, NaN by
    default) when no sample falls in the ``labels`` rows and columns, or when chance agreement is
    already perfect (one label in common) — scikit-learn 1.9's two cases.

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
        Labels of the two annotators (or truth and prediction).
    labels : array-like, optional
        Classes to keep (at least one must occur in ``y1``); samples outside are left out.
    weights : {None, 'linear', 'quadratic'}
    sample_weight : array-like of shape (n_samples,), optional
    replace_undefined_by : np.nan or float in [-1, 1]

    Returns
    -------
    float

    Examples
    --------
    >>> cohen_kappa_score(["neg", "pos", "neg", "neu", "pos"], ["neg", "pos", "neg", "neu", "neg"])
    0.6875
    >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 1], weights="quadratic"), 4)
    0.6364
    """
    weights = check_kappa_weights(weights)
    replace_undefined_by = check_kappa_replace(replace_undefined_by)
    targets = check_targets(y1, y2, sample_weight)
    confusion = _labelled_table(targets, labels, "cohen_kappa_score").astype(np.float64)
    return _rates.kappa(confusion, weights, replace_undefined_by)


def class_likelihood_ratios(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    replace_undefined_by: Any = np.nan,
) -> tuple[float, float]:
    """Positive and negative likelihood ratios of a binary classifier.

    .. math:: LR_+ = \\frac{\\mathrm{TPR}}{\\mathrm{FPR}} = \\frac{tp\\,(tn + fp)}{fp\\,(tp + fn)},
              \\qquad
              LR_- = \\frac{\\mathrm{FNR}}{\\mathrm{TNR}} = \\frac{fn\\,(tn + fp)}{tn\\,(tp + fn)}

    Post-test odds = pre-test odds x LR; unlike precision, neither depends on prevalence.
    ``labels=[negative, positive]`` names the classes (default: the sorted two present).

    Undefined cases warn (``UndefinedMetricWarning``) as in scikit-learn 1.9: ``fp == 0`` makes
    ``LR+`` undefined, ``tn == 0`` makes ``LR-`` undefined (each then takes
    ``replace_undefined_by``: NaN, 1.0 for both, or a dict ``{'LR+': v, 'LR-': w}``), and no
    positive sample at all makes both NaN (0/0) unless replaced.

    Returns
    -------
    (float, float)
        ``(LR+, LR-)``.

    Examples
    --------
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    replace_pos, replace_neg = check_lr_replace(replace_undefined_by)
    targets = check_targets(y_true, y_pred, sample_weight)
    if targets.multilabel:
        ttype = "multilabel-indicator"
    else:
        ttype = target_type(targets, _count.class_counts(targets.y_true, targets.y_pred).classes)
    if ttype != "binary":
        raise ValueError(
            "class_likelihood_ratios only supports binary classification "
            f"problems, got targets of type: {ttype}"
        )
    cm = _labelled_table(targets, labels, "class_likelihood_ratios")
    if cm.shape != (2, 2):
        raise ValueError(
            f"class_likelihood_ratios needs a 2 x 2 confusion matrix; labels give {cm.shape}. "
            "Pass labels=[negative_class, positive_class]."
        )
    tn, fp, fn, tp = cm.ravel()
    return _rates.likelihood_ratios(tn, fp, fn, tp, replace_pos, replace_neg)


def zero_one_loss(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or weighted number, ``normalize=False``) of samples predicted wrong.

    .. math:: L_{0/1} = 1 - \\mathrm{accuracy} = \\frac{\\sum_s w_s [\\hat y_s \\ne y_s]}{\\sum_s w_s}

    For indicator matrices a sample counts as wrong unless its whole label row is right (the
    subset zero-one loss).

    Examples
    --------
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4], normalize=False)
    1.0
    """
    normalize = check_bool(normalize, "normalize")
    targets = check_targets(y_true, y_pred, sample_weight)
    w = targets.sample_weight
    total = targets.n_samples if w is None else w.sum()
    score = _rates.accuracy(
        _count.exact_match_count(targets.y_true, targets.y_pred, w), total, normalize
    )
    return float(1 - score) if normalize else float(total - score)
