"""Classification metrics with scikit-learn's names, signatures and results.

Swap ``from sklearn.metrics import f1_score`` for ``from mltutor.metrics import f1_score`` and the
numbers, the warnings and the refusals stay the same.  Each function is thin::

    validate (mltutor._validation) -> count (the kernel) -> rates/averages

The functions live with their kernel (:mod:`mltutor.confusion` for predicted labels,
:mod:`mltutor.curves` for scores, :mod:`mltutor.calibration` for probabilities,
:mod:`mltutor.detection` for the interpolated AP); this module only gathers scikit-learn's names.

Deliberate differences from scikit-learn 1.9 (each refuses input that scikit-learn accepts but
mis-handles, or is a last-digit detail):

* a ``labels`` argument of the wrong kind (strings for numeric data or the reverse) is refused:
  such a label can never match, and scikit-learn silently counts it as absent;
* ``confusion_matrix`` (and ``cohen_kappa_score``, built on it) refuses repeated ``labels``
  (scikit-learn returns a matrix that miscounts) and 2-D ``labels``;
* a list mixing strings and numbers (``[1, "a"]``) is refused: NumPy reads it as the strings
  ``["1", "a"]``, so scikit-learn silently counts the int 1 equal to a predicted "1";
* integer labels beyond 2**53 are refused when ``y_true`` and ``y_pred`` meet only as float64
  (int with float labels, uint64 with signed ints), where such labels stop being distinct
  (scikit-learn merges or misplaces them);
* ``labels`` must be 1-D in every function (scikit-learn flattens a 2-D ``labels`` in some);
* ``classification_report`` names the classes of two label arrays of different dtypes in their
  common NumPy type (int ``y_true`` with float ``y_pred`` gives '1.0'; bool with int gives '1');
  scikit-learn's names depend on which array holds each label first.  A float label -0.0 is
  the class 0.0 and is named '0.0' (scikit-learn may print '-0.0');
* ``pos_label=None`` with ``average='binary'`` is refused (scikit-learn fails on it with a
  TypeError about ordering when one class is present, and mltutor gave 0.0 there);
* ``hamming_loss`` on indicator matrices whose weights sum to 0 (negative weights) raises
  ZeroDivisionError, as it does for 1-D labels; scikit-learn returns inf there;
* ``top_k_accuracy_score`` refuses NaN or infinite ``sample_weight`` (scikit-learn returns nan);
* ``hinge_loss`` refuses two or fewer ``labels`` when ``y_true`` holds more classes
  (scikit-learn then scores every sample against one column of its own binarisation of
  ``y_true``);
* ``sample_weight`` of any dtype is summed in float64 (int64 for bool and integer weights, whose
  counts stay integers as in scikit-learn).  scikit-learn sums some weights in their own dtype
  (``normalize=False`` accuracy and top-k accuracy, multilabel ``hamming_loss`` and confusion
  matrices): wrong for bool, int8, uint8 and float16 weights, float32-rounded for float32;
  mltutor gives the exact number there.  Object arrays of numbers are read as float64 weights
  (scikit-learn refuses them in some functions).  Integer weights whose absolute total reaches
  2**62 are summed in float64 (in int64 they would wrap around: scikit-learn's counts turn
  negative there), and float weights whose sum overflows to infinity are refused (every rate
  would be inf/inf);
* ``beta`` and ``max_fpr`` refuse bools (scikit-learn reads ``beta=True`` as 1); a float32
  ``max_fpr`` gives a float64 AUC (scikit-learn computes that AUC in float32, 1e-8 off);
* missing labels (pandas NA, None) are refused with "contains NaN: missing values" everywhere
  (scikit-learn raises a TypeError about ordering for None and pandas ``string`` NA);
* with at most 256 classes, float weights are summed cell by cell, then along rows and columns,
  so weighted sums may differ from scikit-learn's in the last bit (1e-16 relative);
  ``classification_report`` prints weighted supports in full, so such a digit can show there.
  With more classes they are summed per class in sample order, as scikit-learn does.

Any number of classes is accepted: every metric but ``confusion_matrix`` works from per-class
counts (O(n + C) time and memory); only ``confusion_matrix`` builds the C x C table.

scikit-learn's dtypes are mirrored, quirks included, because they show in the report: counts are
float64 when no sample is predicted exactly right (and with float weights), int64 otherwise.
"""

from .calibration import brier_score_loss, d2_brier_score, d2_log_loss_score, log_loss
from .confusion import (
    accuracy_score,
    balanced_accuracy_score,
    class_likelihood_ratios,
    classification_report,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    hamming_loss,
    jaccard_score,
    matthews_corrcoef,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    specificity_score,
    top_k_accuracy_score,
    zero_one_loss,
)
from .curves import (
    auc,
    average_precision_score,
    confusion_matrix_at_thresholds,
    coverage_error,
    dcg_score,
    det_curve,
    hinge_loss,
    label_ranking_average_precision_score,
    label_ranking_loss,
    metric_at_thresholds,
    ndcg_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from .detection import interpolated_average_precision
from .exceptions import UndefinedMetricWarning

__all__ = [
    "UndefinedMetricWarning",
    # predicted labels (kernel 1)
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
    # scores (kernel 2)
    "auc",
    "average_precision_score",
    "confusion_matrix_at_thresholds",
    "coverage_error",
    "dcg_score",
    "det_curve",
    "hinge_loss",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "metric_at_thresholds",
    "ndcg_score",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    # the interpolated AP of detection (kernel 3)
    "interpolated_average_precision",
    # probabilities
    "brier_score_loss",
    "d2_brier_score",
    "d2_log_loss_score",
    "log_loss",
]
