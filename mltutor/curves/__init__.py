"""Kernel 2: sorted-score cumulative counts.

Every threshold-based quantity in mltutor (threshold sweeps, the best F-beta threshold, cost-based
thresholds, ROC and precision-recall curves, their areas) is arithmetic on the two arrays that
:func:`binary_counts` returns: at each distinct score, highest first, the numbers of positives
(``tps``) and negatives (``fps``) scoring at least that much.  The textbook way fits in four lines::

    order = np.argsort(y_score)[::-1]                       # highest score first
    tps = np.cumsum(is_positive[order] * weight[order])     # positives with score >= s
    fps = np.cumsum(~is_positive[order] * weight[order])    # negatives with score >= s
    last = np.r_[np.flatnonzero(np.diff(y_score[order])), n - 1]  # end of each run of ties

Predicting "positive" when ``score >= threshold`` and lowering the threshold one distinct score at
a time admits whole runs of tied scores at once, so the counts are read at the *last* index of each
run.  One sort gives every threshold: there is no loop over thresholds.

Without weights mltutor does not call ``argsort`` at all (it is the slow part: NumPy's ``sort`` of
floats is vectorised with SIMD instructions, its ``argsort`` moves twice the data and, on AVX2
machines, is not vectorised).  Counts need only *how many* scores lie below a value, not which
samples they are, so :func:`sort_classes` sorts the values alone: all scores with ``np.sort``, and
the smaller class's scores apart; ``np.searchsorted`` then gives the rank of every score of the
smaller class among all scores.  The number of positives at or above each distinct score follows
from those ranks with one cumulative sum of a mark per sample (:func:`sorted_counts`), and the
areas need even less (:func:`sorted_roc_auc` and :func:`sorted_average_precision`).  Weighted counts
keep the ``argsort`` form:
the sums of float weights depend on the order inside a run of ties, and matching scikit-learn to
the last bit needs its stable order.
"""

from ._areas import average_precision_score, roc_auc_score, sorted_average_precision, sorted_roc_auc
from ._at_fixed_rate import (
    precision_at_recall,
    precision_at_recall_score,
    recall_at_precision,
    recall_at_precision_score,
)
from ._at_thresholds import confusion_matrix_at_thresholds, metric_at_thresholds
from ._bands import CurveBand, pr_curve_band, roc_curve_band
from ._constrained import ConstrainedThreshold, threshold_for_precision, threshold_for_recall
from ._counts import (
    BinaryCounts,
    SortedClasses,
    binary_counts,
    cumulative_counts,
    sort_classes,
    sorted_counts,
)
from ._curves import (
    auc,
    det_curve,
    pr_points,
    precision_recall_curve,
    roc_curve,
    roc_rates,
    sorted_det_points,
    sorted_pr_points,
    sorted_roc_bends,
)
from ._hinge import hinge_loss
from ._multilabel_ranking import (
    coverage_error,
    label_ranking_average_precision_score,
    label_ranking_loss,
)
from ._net_benefit import DecisionCurve, decision_curve, net_benefit
from ._partial import partial_roc_auc
from ._retrieval import (
    RankedLists,
    average_precision,
    dcg_at_k,
    dcg_score,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    ndcg_score,
    precision_at_k,
    rank,
    recall_at_k,
    reciprocal_rank,
)
from ._thresholds import (
    OperatingPoint,
    ThresholdSweep,
    best_fbeta_threshold,
    cost_optimal_threshold,
    min_cost_threshold,
    threshold_sweep,
)

__all__ = [
    # the kernel: counts at each distinct score
    "BinaryCounts",
    "SortedClasses",
    "binary_counts",
    "cumulative_counts",
    "sort_classes",
    "sorted_counts",
    # curves and their areas
    "auc",
    "det_curve",
    "pr_points",
    "precision_recall_curve",
    "roc_curve",
    "roc_rates",
    "sorted_det_points",
    "sorted_pr_points",
    "sorted_roc_bends",
    "average_precision_score",
    "roc_auc_score",
    "sorted_average_precision",
    "sorted_roc_auc",
    # partial areas and pointwise bands
    "partial_roc_auc",
    "CurveBand",
    "pr_curve_band",
    "roc_curve_band",
    # thresholds
    "confusion_matrix_at_thresholds",
    "metric_at_thresholds",
    "OperatingPoint",
    "ThresholdSweep",
    "best_fbeta_threshold",
    "cost_optimal_threshold",
    "min_cost_threshold",
    "threshold_sweep",
    # constrained operating points: a required recall or precision
    "ConstrainedThreshold",
    "threshold_for_precision",
    "threshold_for_recall",
    # the best precision at a required recall, the best recall at a required precision
    "precision_at_recall",
    "precision_at_recall_score",
    "recall_at_precision",
    "recall_at_precision_score",
    # decision curves: net benefit at threshold probabilities
    "DecisionCurve",
    "decision_curve",
    "net_benefit",
    # retrieval: the scores ranked within each query
    "RankedLists",
    "average_precision",
    "dcg_at_k",
    "dcg_score",
    "mean_average_precision",
    "mean_reciprocal_rank",
    "ndcg_at_k",
    "ndcg_score",
    "precision_at_k",
    "rank",
    "recall_at_k",
    "reciprocal_rank",
    # multilabel ranking: the labels of each sample ranked within its row
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    # a loss of decision values
    "hinge_loss",
]
