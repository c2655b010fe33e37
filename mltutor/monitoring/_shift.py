"""Label shift without labels: the new prevalence (EM, BBSE) and performance from probabilities."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation.arrays import column_or_1d
from .._validation.labels import as_label_array
from .._validation.monitoring import (
    check_positive_int,
    check_positive_real,
    check_prior,
    check_proba,
    check_stream_targets,
)

__all__ = [
    "EMResult",
    "PerformanceEstimate",
    "bbse_prior_shift",
    "em_prior_shift",
    "estimate_performance",
]


class EMResult(NamedTuple):
    """The estimated prior, the re-weighted posteriors, the iterations run, and convergence."""

    prior: np.ndarray
    posteriors: np.ndarray
    n_iter: int
    converged: bool


def em_prior_shift(
    proba: Any, train_prior: Any, *, tol: float = 1e-4, max_iter: int = 1000
) -> EMResult:
    """The class prior of unlabelled data by EM (Saerens, Latinne and Decaestecker, 2002).

    Each step re-weights the posteriors by ``prior / train_prior`` (E-step) and sets the prior
    to their mean (M-step). The stopping rule is QuaPy's (``EMQ.EM``, QuaPy 0.2.3): stop when
    the mean absolute change of the prior is below ``tol`` after more than 10 iterations, or
    after ``max_iter`` iterations; a ``train_prior`` with a zero entry is first smoothed by
    adding ``tol`` and renormalising. With the defaults (QuaPy's ``tol=1e-4``,
    ``max_iter=1000``) the result equals ``EMQ.EM`` (tested). That rule stops on a small
    *step*, not a small *error*: EM can creep slowly, and on 300 random cases (Dirichlet
    posteriors, 2 to 5 classes, ``tests/test_monitoring.py``) the stopped prior lay up to 0.061
    from the converged one (``tol=1e-12``), in one entry. The default is QuaPy's so that the two
    agree; pass ``tol=1e-12`` and a larger ``max_iter`` (e.g. 200,000) for the converged answer,
    and read ``converged`` either way.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes), or (n_samples,) for P(class 1)
        Calibrated posteriors from the training distribution.
    train_prior : array-like of shape (n_classes,)
    tol : float, default=1e-4
    max_iter : int, default=1000

    Returns
    -------
    EMResult

    Examples
    --------
    >>> r = em_prior_shift([[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]], [0.5, 0.5])
    >>> r.prior.round(3).tolist(), r.converged
    ([0.418, 0.582], True)
    """
    px = check_proba(proba)
    ptr = check_prior(train_prior, px.shape[1]).copy()
    tol = check_positive_real(tol, "tol")
    max_iter = check_positive_int(max_iter, "max_iter")
    if np.prod(ptr) == 0:
        ptr = (ptr + tol) / (ptr + tol).sum()
    qs = ptr.copy()
    ps = px
    s, converged, previous = 0, False, None
    while not converged and s < max_iter:
        unnormalised = (qs / ptr) * px
        ps = unnormalised / unnormalised.sum(axis=1, keepdims=True)
        qs = ps.mean(axis=0)
        if previous is not None and np.abs(qs - previous).mean() < tol and s > 10:
            converged = True
        previous = qs
        s += 1
    return EMResult(qs, ps, s, converged)


def bbse_prior_shift(y_val: Any, y_pred_val: Any, y_pred_target: Any) -> np.ndarray:
    """Black-box shift estimation (Lipton, Wang and Smola, 2018) of the target's class prior.

    On labelled validation data from the training distribution, ``C[i, j] = P(pred = i,
    true = j)``; on the unlabelled target, ``q[i] = P(pred = i)``. Under label shift
    (``p(x | y)`` unchanged) ``C w = q`` with ``w_j = P_target(y = j) / P_train(y = j)``, so the
    target prior is ``w * P_train(y)``. Negative entries (noise) are clipped to 0 and the prior
    renormalised. For two classes this is the adjusted count ``(q - FPR) / (TPR - FPR)``.

    Returns
    -------
    numpy.ndarray
        The estimated prior, ordered like the sorted labels of ``y_val`` and the predictions.

    Examples
    --------
    >>> bbse_prior_shift([0, 0, 0, 0, 1, 1], [0, 0, 0, 1, 1, 1], [1, 1, 0, 0]).round(3).tolist()
    [0.667, 0.333]
    """
    yv, pv = check_stream_targets(y_val, y_pred_val)
    pt, _ = as_label_array(y_pred_target, "y_pred_target")
    pt = column_or_1d(pt, "y_pred_target")
    classes = np.unique(np.concatenate([yv, pv]))
    if not np.isin(pt, classes).all():
        raise ValueError("y_pred_target holds a label never seen in the validation data.")
    k = classes.shape[0]
    iv, ip = np.searchsorted(classes, yv), np.searchsorted(classes, pv)
    joint = np.zeros((k, k))
    np.add.at(joint, (ip, iv), 1.0)
    joint /= yv.shape[0]
    q = np.bincount(np.searchsorted(classes, pt), minlength=k) / pt.shape[0]
    if np.linalg.matrix_rank(joint) < k:
        raise ValueError(
            "the validation confusion matrix is singular: the predictions do not "
            "separate the classes, so the target prior cannot be recovered."
        )
    w = np.clip(np.linalg.solve(joint, q), 0.0, None)
    prior = w * joint.sum(axis=0)
    if prior.sum() == 0:
        raise ValueError("every estimated class weight is negative: no prior fits.")
    return prior / prior.sum()


class PerformanceEstimate(NamedTuple):
    """Expected accuracy and (class 1 against the rest) precision, recall and F1."""

    accuracy: float
    precision: float
    recall: float
    f1: float


def estimate_performance(proba: Any, *, threshold: float = 0.5) -> PerformanceEstimate:
    """Accuracy expected from calibrated probabilities, and F1 of the expected counts, no labels.

    If ``proba`` is calibrated on the data scored (``P(y = k | p) = p_k``), each sample is
    correct with probability ``p`` of its predicted class, so the expected number of true
    positives is ``sum(p_i1 over predicted positives)``, of false positives
    ``sum(1 - p_i1 over them)`` and of false negatives ``sum(p_i1 over predicted negatives)``;
    F1 and the rest are computed from these expected counts (the confidence-based performance
    estimate of NannyML, CBPE). The estimate is only as good as the calibration: under concept
    shift (``p(y | x)`` changes) the probabilities are no longer calibrated and the estimate
    can be far off (chapter 9: 0.773 estimated, 0.637 true).

    Two classes: class 1 is predicted when ``P(class 1) >= threshold``. More classes: the
    prediction is the arg-max and precision/recall/F1 are for class 1 against the rest.

    Examples
    --------
    >>> e = estimate_performance([0.9, 0.8, 0.3, 0.1])
    >>> [round(v, 3) for v in e]
    [0.825, 0.85, 0.81, 0.829]
    """
    p = check_proba(proba)
    if p.shape[1] == 2:
        pred = (p[:, 1] >= float(threshold)).astype(np.int64)
    else:
        pred = p.argmax(axis=1)
    accuracy = float(p[np.arange(p.shape[0]), pred].mean())
    pos = pred == 1
    tp = p[pos, 1].sum()
    fp = (1.0 - p[pos, 1]).sum()
    fn = p[~pos, 1].sum()
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn > 0 else 0.0
    return PerformanceEstimate(accuracy, float(precision), float(recall), float(f1))
