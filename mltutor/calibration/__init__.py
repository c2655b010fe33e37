"""Probability calibration: proper scores, reliability bins, ECE and three recalibration maps.

A classifier is *calibrated* when, among the samples it gives probability ``p``, a fraction ``p``
is positive.  This module measures that and repairs it:

* **scores** — :func:`brier_score_loss` and :func:`log_loss` and their :math:`D^2` skill scores
  :func:`d2_brier_score` and :func:`d2_log_loss_score` (scikit-learn 1.9 parity; also
  re-exported by :mod:`mltutor.metrics`), and :func:`nll_from_logits` (exact, from logits);
* **reliability** — :func:`calibration_curve` (scikit-learn parity) and
  :func:`calibration_curve_intervals` (the same points with an interval per bin and a warning on
  bins too small to read), :func:`calibration_bins`,
  :func:`expected_calibration_error` and :func:`maximum_calibration_error` (torchmetrics'
  ``CalibrationError`` with ``norm='l1'`` / ``'max'``);
* **recalibration maps**, each fitted on held-out data —
  temperature scaling (:func:`fit_temperature`, :func:`apply_temperature`),
  Platt scaling (:func:`fit_platt`, :func:`apply_platt`) and
  isotonic regression (:func:`fit_isotonic`, pool-adjacent-violators in :mod:`mltutor.calibration`).

Temperature and Platt scaling (with ``a > 0``) are strictly increasing maps of one score, so
they change the probabilities but not the order of that score: a binary AUC stays where it was,
as long as no probability saturates (in float64, sigmoids of logits above about 36 round to the
same few values next to 1.0 and tie).  Temperature scaling also keeps each sample's argmax, and
so the top-1 accuracy.  Platt scaling moves a fixed cut-off such as 0.5 to another score, so the
accuracy at that cut-off can change (chapter 6b: from 0.6165 to 0.7885).  With several classes,
a class's softmax probabilities can reorder across samples under temperature scaling (a
one-vs-rest AUC moves slightly), and one-vs-rest maps (a Platt or isotonic map per class, then
each row renormalised, as scikit-learn's ``CalibratedClassifierCV`` does with ``"sigmoid"`` and
``"isotonic"``) can change the argmax and the accuracy.  Isotonic regression is only
non-decreasing: it pools scores into steps, which creates ties and can lower a held-out AUC
slightly.  Judge calibration by ECE, NLL and the Brier score, not by AUC.

Differences from the references (each refuses input the reference mis-handles, or is a last-digit
detail):

* ``calibration_curve`` refuses NaN in ``y_prob`` (scikit-learn bins it into the last bin and
  returns a NaN mean) and NaN in ``y_true``;
* ``log_loss`` on float32 probabilities is computed in float32, as in scikit-learn, but with
  NumPy's float32 logarithm where scikit-learn uses SciPy's ``xlogy``: the two differ in the last
  float32 digit (about 1e-7 relative); float64 input agrees to 1e-12;
* ``fit_isotonic`` refuses negative ``sample_weight`` (scikit-learn drops those points silently);
* strings of digits ("0.5") are refused as probabilities (scikit-learn converts them);
* ``expected_calibration_error`` puts a confidence of exactly 1.0 into the last bin; torchmetrics
  opens an extra (n_bins + 1)-th bin for it (see :func:`calibration_bins`).
"""

from ._bins import (
    CalibrationBins,
    adaptive_calibration_error,
    calibration_bins,
    calibration_curve,
    classwise_calibration_error,
    expected_calibration_error,
    maximum_calibration_error,
)
from ._curve_intervals import CalibrationCurveIntervals, calibration_curve_intervals
from ._isotonic import IsotonicModel, fit_isotonic, pool_adjacent_violators
from ._losses import brier_score_loss, log_loss, log_softmax, nll_from_logits, softmax
from ._maps import apply_platt, apply_temperature, fit_platt, fit_temperature
from ._skill import d2_brier_score, d2_log_loss_score

__all__ = [
    "CalibrationBins",
    "CalibrationCurveIntervals",
    "IsotonicModel",
    "apply_platt",
    "apply_temperature",
    "brier_score_loss",
    "calibration_bins",
    "adaptive_calibration_error",
    "calibration_curve",
    "calibration_curve_intervals",
    "classwise_calibration_error",
    "d2_brier_score",
    "d2_log_loss_score",
    "expected_calibration_error",
    "fit_isotonic",
    "fit_platt",
    "fit_temperature",
    "log_loss",
    "log_softmax",
    "maximum_calibration_error",
    "nll_from_logits",
    "pool_adjacent_violators",
    "softmax",
]
