"""Kernel 1: the confusion count.

Every classification metric in mltutor is arithmetic on one count::

    C = np.bincount(n * true_idx + pred_idx, weights=sample_weight, minlength=n * n).reshape(n, n)

``C[i, j]`` is the (weighted) number of samples whose true class is ``i`` and predicted class is
``j``.  Rows are the truth, columns the prediction, as in scikit-learn.

Most metrics need only three marginals of that count: its diagonal (true positives), its row sums
(the support) and its column sums (the predicted totals).  Each is one ``np.bincount`` over the
samples, so :func:`class_counts` costs O(n + C) time and memory for any number of classes ``C``;
only :func:`confusion_table` (for ``confusion_matrix``) builds the C x C table itself.  From the
marginals come the per-class true positives, false positives, false negatives and true negatives
(:func:`one_vs_rest`), and from those every rate and average.

Multilabel indicator matrices have no single confusion matrix: each column is its own yes/no
problem, so :func:`multilabel_counts` sums the four outcomes down the columns (or along the rows,
per sample).
"""

from ._classification import (
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
from ._counts import (
    ClassCounts,
    Codes,
    PerClassCounts,
    class_counts,
    confusion_counts,
    confusion_table,
    encode_labels,
    exact_match_count,
    mismatch_count,
    multilabel_counts,
    one_vs_rest,
    outranking_count,
    per_class_counts,
)
from ._rates import (
    accuracy,
    balanced_accuracy,
    format_report,
    hamming,
    jaccard,
    nan_average,
    normalize_confusion,
    precision_recall_fscore,
    ratio,
    specificity,
    top_k_accuracy,
)

__all__ = [
    # the kernel: counts of (true, predicted) pairs and their marginals
    "ClassCounts",
    "Codes",
    "PerClassCounts",
    "class_counts",
    "confusion_counts",
    "confusion_table",
    "encode_labels",
    "exact_match_count",
    "mismatch_count",
    "multilabel_counts",
    "one_vs_rest",
    "outranking_count",
    "per_class_counts",
    # rates and averages from the counts
    "accuracy",
    "balanced_accuracy",
    "normalize_confusion",
    "ratio",
    "nan_average",
    "precision_recall_fscore",
    "jaccard",
    "hamming",
    "top_k_accuracy",
    "specificity",
    "format_report",
    # the metrics of predicted labels (also in mltutor.metrics, with scikit-learn's names)
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
