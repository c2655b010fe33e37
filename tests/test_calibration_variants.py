"""Class-wise and adaptive (equal-mass) ECE: the class-wise ECE against torchmetrics'
BinaryCalibrationError on each column, the adaptive ECE against a sort-and-split brute force."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from torchmetrics.classification import BinaryCalibrationError

import mltutor.calibration as cal


@st.composite
def multiclass_probabilities(draw):
    """1-300 samples, 2-6 classes, Dirichlet rows (no entry exactly 1.0: torchmetrics gives 1.0
    a bin of its own), sometimes on a grid of 0.01 shifted by 0.003 to create ties off the bin
    edges (torchmetrics compares float32 values with its edges)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, k = draw(st.integers(1, 300)), draw(st.integers(2, 6))
    p = rng.dirichlet(np.full(k, draw(st.sampled_from([0.3, 1.0, 4.0]))), n)
    if draw(st.booleans()):
        p = np.round(p, 2) + 0.003
    p = np.clip(p, 0, 0.999)
    y = rng.integers(0, k, n)
    return y, p


@PROPERTY
@given(problem=multiclass_probabilities(), n_bins=st.sampled_from([1, 2, 5, 10, 15]))
def test_classwise_ece_is_the_mean_of_torchmetrics_binary_ece_per_column(problem, n_bins):
    CASES["classwise_calibration_error"] += 1
    y, p = problem
    ours = cal.classwise_calibration_error(y, p, n_bins=n_bins)
    metric = BinaryCalibrationError(n_bins=n_bins, norm="l1")
    ref = np.mean(
        [
            float(
                metric(
                    torch.tensor(p[:, k], dtype=torch.float64), torch.tensor((y == k).astype(int))
                )
            )
            for k in range(p.shape[1])
        ]
    )
    assert ours == pytest.approx(ref, abs=1e-6)  # torchmetrics bins in float32
    exact = np.mean(
        [
            cal.expected_calibration_error((y == k).astype(int), p[:, k], n_bins=n_bins)
            for k in range(p.shape[1])
        ]
    )
    assert ours == pytest.approx(exact, abs=1e-14)


def adaptive_brute_force(y, p, n_bins):
    conf, hits = (
        (p.max(1), (p.argmax(1) == y).astype(float)) if p.ndim == 2 else (p, y.astype(float))
    )
    order = np.argsort(conf, kind="stable")
    total = 0.0
    for chunk in np.array_split(order, min(n_bins, len(conf))):
        total += len(chunk) / len(conf) * abs(hits[chunk].mean() - conf[chunk].mean())
    return total


@PROPERTY
@given(
    problem=multiclass_probabilities(),
    n_bins=st.sampled_from([1, 2, 5, 15, 500]),
    binary=st.booleans(),
)
def test_adaptive_ece_equals_the_sort_and_split_definition(problem, n_bins, binary):
    CASES["adaptive_calibration_error"] += 1
    y, p = problem
    if binary:
        y, p = (y % 2), p[:, 0]
    ours = cal.adaptive_calibration_error(y, p, n_bins=n_bins)
    assert ours == pytest.approx(adaptive_brute_force(y, p, n_bins), abs=1e-12)


def test_variants_differ_on_the_same_predictions():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(2000, 4)) * 2
    p = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    y = np.array([rng.choice(4, p=np.roll(q, 1) * 0.3 + q * 0.7) for q in p])
    top = cal.expected_calibration_error(y, p)
    assert (
        len(
            {
                round(top, 6),
                round(cal.classwise_calibration_error(y, p), 6),
                round(cal.adaptive_calibration_error(y, p), 6),
            }
        )
        == 3
    )


def test_refusals():
    with pytest.raises(ValueError, match="K >= 2 class columns"):
        cal.classwise_calibration_error([0, 0], np.ones((2, 1)))
    with pytest.raises(ValueError, match="y_prob"):
        cal.classwise_calibration_error([0, 1], [0.2, 0.8])
    with pytest.raises(ValueError, match="n_bins"):
        cal.adaptive_calibration_error([0, 1], [0.2, 0.8], n_bins=0)
    with pytest.raises(ValueError):
        cal.adaptive_calibration_error([0, 1, 1], [0.2, 0.8])
