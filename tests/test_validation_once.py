"""Each public function validates its inputs once, at its entry (issue 12: one room for validation).

Following ``y_score`` through ``roc_auc_score`` used to climb between four modules and check the
same arrays up to six times.  Here every reading of labels, scores and weights is counted.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import mltutor._validation
import mltutor._validation.calibration as calibration_checks
import mltutor._validation.labels as labels_mod
import mltutor._validation.scores as scores_mod
import mltutor._validation.weights as weights_mod
import mltutor.curves as T
import mltutor.curves._areas
import mltutor.curves._counts
import mltutor.curves._curves
import mltutor.curves._thresholds
import mltutor.metrics as M

Y = np.array([0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.8, 0.6, 0.3, 0.35, 0.4])
YM = np.array([0, 1, 2, 1, 0, 2])
P = np.array(
    [
        [0.7, 0.2, 0.1],
        [0.2, 0.5, 0.3],
        [0.1, 0.3, 0.6],
        [0.3, 0.4, 0.3],
        [0.5, 0.3, 0.2],
        [0.2, 0.2, 0.6],
    ]
)
YL = np.array([[0, 1], [1, 1], [1, 0], [0, 0], [1, 0], [0, 1]])
SL = np.array([[0.2, 0.9], [0.8, 0.7], [0.6, 0.1], [0.3, 0.2], [0.9, 0.4], [0.1, 0.6]])
W = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 2.0])


_MODULES = (
    labels_mod,
    scores_mod,
    weights_mod,
    calibration_checks,
    mltutor._validation,
    mltutor.curves._areas,
    mltutor.curves._counts,
    mltutor.curves._curves,
    mltutor.curves._thresholds,
)


@pytest.fixture
def calls(monkeypatch):
    """Count every reading of a label array, a score array and a weight array, wherever the
    check was imported."""
    counter: Counter = Counter()
    for module, name, key in (
        (labels_mod, "as_label_array", "labels"),
        (scores_mod, "check_real_scores", "scores"),
        (weights_mod, "check_sample_weight", "weights"),
    ):
        original = getattr(module, name)

        def wrapper(*args, _original=original, _key=key, **kwargs):
            counter[_key] += 1
            return _original(*args, **kwargs)

        for holder in _MODULES:
            if getattr(holder, name, None) is original:
                monkeypatch.setattr(holder, name, wrapper)
    return counter


CALLS = {
    "roc_auc binary": lambda: M.roc_auc_score(Y, S, sample_weight=W),
    "roc_auc ovr": lambda: M.roc_auc_score(YM, P, multi_class="ovr", sample_weight=W),
    "roc_auc multilabel": lambda: M.roc_auc_score(YL, SL, sample_weight=W),
    "average_precision binary": lambda: M.average_precision_score(Y, S, sample_weight=W),
    "average_precision multiclass": lambda: M.average_precision_score(YM, P, sample_weight=W),
    "average_precision multilabel": lambda: M.average_precision_score(YL, SL, sample_weight=W),
    "roc_curve": lambda: M.roc_curve(Y, S, sample_weight=W),
    "precision_recall_curve": lambda: M.precision_recall_curve(Y, S, sample_weight=W),
    "det_curve": lambda: M.det_curve(Y, S, sample_weight=W),
    "threshold_sweep": lambda: T.threshold_sweep(Y, S, sample_weight=W),
    "top_k_accuracy": lambda: M.top_k_accuracy_score(YM, P, k=2, sample_weight=W),
}


@pytest.mark.parametrize("name", CALLS, ids=list(CALLS))
def test_labels_scores_and_weights_are_read_once(name: str, calls: Counter) -> None:
    CALLS[name]()
    assert calls == Counter(labels=1, scores=1, weights=1)


PAIRS = {
    "accuracy": lambda: M.accuracy_score(YM, YM[::-1], sample_weight=W),
    "f1 macro": lambda: M.f1_score(YM, YM[::-1], average="macro", sample_weight=W),
    "balanced accuracy": lambda: M.balanced_accuracy_score(YM, YM[::-1], sample_weight=W),
    "classification report": lambda: M.classification_report(
        YL, YL[::-1], sample_weight=W, zero_division=0
    ),
    "hamming": lambda: M.hamming_loss(YL, YL[::-1], sample_weight=W),
}


@pytest.mark.parametrize("name", PAIRS, ids=list(PAIRS))
def test_label_pairs_are_read_once(name: str, calls: Counter) -> None:
    PAIRS[name]()
    assert calls == Counter(labels=2, weights=1)  # y_true and y_pred, one each


@pytest.mark.parametrize("fn", [M.log_loss, M.brier_score_loss], ids=["log_loss", "brier"])
def test_losses_read_labels_and_weights_once(fn, calls: Counter) -> None:
    fn(YM, P, sample_weight=W)
    assert calls == Counter(labels=1, weights=1)
