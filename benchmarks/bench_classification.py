"""Kernel 1 against scikit-learn: 10,000,000 labels over 101 classes.

Target (issue #2): at least 25x faster than scikit-learn for ``confusion_matrix`` and for
``precision_recall_fscore_support(average=None)``.
"""

from __future__ import annotations

import numpy as np
import sklearn.metrics as skm
from _harness import measure, report

import mltutor.metrics as mtm

N_SAMPLES = 10_000_000
N_CLASSES = 101
TARGET = 25.0


def make_labels(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random true labels and predictions that are right about 70 % of the time."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, N_CLASSES, N_SAMPLES)
    wrong = rng.random(N_SAMPLES) < 0.3
    y_pred = np.where(wrong, rng.integers(0, N_CLASSES, N_SAMPLES), y_true)
    return y_true, y_pred


def run(repeats: int = 3) -> list[dict]:
    y_true, y_pred = make_labels()
    # Same numbers first: a fast wrong answer is worth nothing.
    assert np.array_equal(
        mtm.confusion_matrix(y_true, y_pred), skm.confusion_matrix(y_true, y_pred)
    )
    ours_prf = mtm.precision_recall_fscore_support(y_true, y_pred, average=None)
    ref_prf = skm.precision_recall_fscore_support(y_true, y_pred, average=None)
    for a, b in zip(ours_prf, ref_prf):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)

    title = f"confusion_matrix ({N_SAMPLES:,} labels, {N_CLASSES} classes)"
    records = [
        report(
            title,
            measure("mltutor", lambda: mtm.confusion_matrix(y_true, y_pred), repeats),
            measure("sklearn", lambda: skm.confusion_matrix(y_true, y_pred), repeats),
            TARGET,
        )
    ]
    title = "precision_recall_fscore_support(average=None)"
    records.append(
        report(
            title,
            measure(
                "mltutor",
                lambda: mtm.precision_recall_fscore_support(y_true, y_pred, average=None),
                repeats,
            ),
            measure(
                "sklearn",
                lambda: skm.precision_recall_fscore_support(y_true, y_pred, average=None),
                repeats,
            ),
            TARGET,
        )
    )
    return records


if __name__ == "__main__":
    run()
