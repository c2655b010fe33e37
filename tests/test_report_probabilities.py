"""``evaluate`` reads probabilities as probabilities, and its NLL is scikit-learn's (issue 24).

Before: float16 probabilities (row sums off by 3e-4) or one row such as ``[1 + 1e-9, -1e-9, 0]``
were taken for logits and the whole matrix was softmaxed (ECE 0.293 -> 0.105, NLL 1.53 -> 1.13,
no warning); a zero probability on a true class gave an NLL clipped at ``finfo.tiny`` (19.22)
where scikit-learn's ``log_loss`` clips at eps.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from mltutor._validation import UndefinedMetricWarning
from mltutor.calibration import expected_calibration_error
from mltutor.report import evaluate

sklearn_metrics = pytest.importorskip("sklearn.metrics")

RNG = np.random.default_rng(7)
Y = RNG.integers(0, 3, 400)
P = RNG.dirichlet([1.0, 1.0, 1.0], 400)


def _report(scores, **kw):
    return evaluate(Y, scores, n_resamples=20, **kw)


def test_float64_probabilities_match_the_references():
    r = _report(P)
    assert r.nll == pytest.approx(sklearn_metrics.log_loss(Y, P), rel=1e-12)
    assert r.ece == pytest.approx(expected_calibration_error(Y, P, n_bins=15), rel=1e-12)


def test_float16_probabilities_are_probabilities():
    p16 = P.astype(np.float16)
    assert np.abs(p16.astype(float).sum(axis=1) - 1).max() > 1e-4  # the rounding that misled
    r = _report(p16)
    expected = p16.astype(float) / p16.astype(float).sum(axis=1, keepdims=True)
    assert r.ece == pytest.approx(expected_calibration_error(Y, expected, n_bins=15), rel=1e-9)
    assert r.nll == pytest.approx(sklearn_metrics.log_loss(Y, expected), rel=1e-9)


def test_a_row_with_rounding_noise_is_a_probability_row():
    p = P.copy()
    p[0] = [1 + 1e-9, -1e-9, 0.0]
    r = _report(p)
    clean = p.clip(0, None)
    clean /= clean.sum(axis=1, keepdims=True)
    assert r.ece == pytest.approx(expected_calibration_error(Y, clean, n_bins=15), rel=1e-9)
    assert np.all(r.probabilities >= 0)


def test_a_mix_of_probability_rows_and_other_rows_is_refused():
    p = P.copy()
    p[5] = [2.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="399 of 400 rows are probabilities.*row 5"):
        _report(p)
    assert _report(p, logits=True).nll > 0  # said explicitly: softmax every row


def test_logits_are_still_softmaxed():
    z = RNG.normal(size=(400, 3)) * 3
    r = _report(z)
    shifted = np.exp(z - z.max(axis=1, keepdims=True))
    probs = shifted / shifted.sum(axis=1, keepdims=True)
    assert r.nll == pytest.approx(sklearn_metrics.log_loss(Y, probs), rel=1e-9)


def test_zero_probability_on_a_true_class_warns_and_matches_log_loss():
    p = P.copy()
    p[Y == 0, 0] = 0.0
    p /= p.sum(axis=1, keepdims=True)
    with pytest.warns(UndefinedMetricWarning, match="infinite"):
        r = _report(p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert r.nll == pytest.approx(sklearn_metrics.log_loss(Y, p), rel=1e-12)


def test_logits_false_still_refuses_rows_that_are_not_probabilities():
    with pytest.raises(ValueError, match="logits=False"):
        _report(P * 2, logits=False)
