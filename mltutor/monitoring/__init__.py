"""Monitoring a deployed classifier: windows, alarms, label shift and drift.

* windows from pooled counts (:func:`rolling_score`, :func:`tumbling_score` with delayed
  labels, :func:`ewm_score` with exponentially weighted counts), never means of per-batch scores;
* alarms whose false-alarm probability is bounded: Page's CUSUM (:func:`bernoulli_cusum`,
  threshold from :func:`cusum_threshold` for a stated horizon), an anytime-valid monitor of an
  error rate (:func:`error_rate_monitor`) and a confidence sequence for a proportion
  (:func:`proportion_confidence_sequence`);
* label shift without labels: :func:`em_prior_shift` (EM; equal to QuaPy's ``EMQ.EM`` with its
  stopping rule), :func:`bbse_prior_shift` (black-box shift estimation / adjusted count) and
  :func:`estimate_performance` (accuracy and F1 from calibrated probabilities);
* drift of a score: :func:`psi` and :func:`ks_statistic` (equal to ``scipy.stats.ks_2samp``).
"""

from ._detectors import (
    AlarmResult,
    ConfidenceSequence,
    bernoulli_cusum,
    cusum_threshold,
    error_rate_monitor,
    proportion_confidence_sequence,
)
from ._drift import ks_statistic, psi
from ._shift import (
    EMResult,
    PerformanceEstimate,
    bbse_prior_shift,
    em_prior_shift,
    estimate_performance,
)
from ._windows import TumblingResult, ewm_score, rolling_score, tumbling_score

__all__ = [
    "AlarmResult",
    "ConfidenceSequence",
    "EMResult",
    "PerformanceEstimate",
    "TumblingResult",
    "bbse_prior_shift",
    "bernoulli_cusum",
    "cusum_threshold",
    "em_prior_shift",
    "error_rate_monitor",
    "estimate_performance",
    "ewm_score",
    "ks_statistic",
    "proportion_confidence_sequence",
    "psi",
    "rolling_score",
    "tumbling_score",
]
