"""Statistics for evaluation: how sure is a number, and is a difference real?

* bootstrap intervals for any metric, and for the difference of two models on the same test set
  (:func:`bootstrap_ci`, :func:`paired_bootstrap`; resampling by group with ``groups=``);
* exact and approximate intervals for a proportion (:func:`proportion_ci`: Wilson,
  Clopper–Pearson, Agresti–Coull, Jeffreys, normal), and for every rate of a confusion matrix
  (:func:`confusion_rate_intervals`);
* intervals and tests on the mean difference of two systems' per-query scores (per-query AP or
  nDCG: :func:`paired_metric_difference`: paired bootstrap, paired t, sign-flip randomisation);
* McNemar's test of two classifiers on the same samples (:func:`mcnemar`);
* DeLong's variance of an AUC and test of two correlated AUCs (:func:`delong_roc_variance`,
  :func:`delong_roc_test`).
"""

from ._bootstrap import BootstrapResult, PairedBootstrapResult, bootstrap_ci, paired_bootstrap
from ._delong import DeLongTestResult, delong_roc_test, delong_roc_variance
from ._mcnemar import McNemarResult, mcnemar
from ._paired_difference import PairedDifferenceResult, paired_metric_difference
from ._proportions import RateIntervals, confusion_rate_intervals, proportion_ci

__all__ = [
    "BootstrapResult",
    "DeLongTestResult",
    "McNemarResult",
    "PairedBootstrapResult",
    "PairedDifferenceResult",
    "RateIntervals",
    "bootstrap_ci",
    "confusion_rate_intervals",
    "delong_roc_test",
    "delong_roc_variance",
    "mcnemar",
    "paired_bootstrap",
    "paired_metric_difference",
    "proportion_ci",
]
