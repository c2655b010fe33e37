"""Every input check in mltutor, one module per input family.

Each public function validates its arguments once, at its entry, with these checks, then hands
clean arrays to kernels that never check again.  Every check raises a ``ValueError`` or
``TypeError`` whose message names the argument and says what was expected.

==================  ======================================================================
module              checks
==================  ======================================================================
``params``          scalar parameters: ``check_scalar`` (every number-valued one: type, bounds,
                    no bool, no NaN), ``average``, ``zero_division``, options, flags
``arrays``          shapes and lengths shared by every family
``labels``          class labels, pairs of targets, ``labels``, ``pos_label``
``weights``         ``sample_weight`` (one function for every family)
``scores``          scores of curves, areas and top-k accuracy
``calibration``     probabilities, logits and the targets of the calibration metrics
``boxes``           detection boxes
``detection``       COCO dicts and per-image box lists, the error breakdown's thresholds
``masks``           RLE dicts, polygons and binary masks of :mod:`mltutor.detection.mask`
``keypoints``       keypoint arrays, OKS sigmas and COCO keypoint records
``temporal``        segments and the ActivityNet / THUMOS'14 layouts of :mod:`mltutor.detection.temporal`
``stats``           kappa and LR options, proportions, paired tests, conformal sets, the
                    bootstrap's settings, samples and groups
``warning``         ``UndefinedMetricWarning`` and the learner-facing ``warn``
``monitoring``      label streams, 0/1 alarm streams, windows, priors of :mod:`mltutor.monitoring`
``plots``           what a figure of :mod:`mltutor.plots` is asked to draw
``datasets``        split numbers of :mod:`mltutor.datasets`
``report``          the class indices, scores, names and groups of :func:`mltutor.report.evaluate`
``streaming``       torch tensors of :mod:`mltutor.streaming` (needs torch, so it is imported
                    by ``mltutor.streaming`` only, not here)
==================  ======================================================================
"""

from .arrays import check_lengths, column_or_1d, not_array_like
from .labels import (
    Targets,
    as_label_array,
    check_labels,
    check_labels_1d,
    check_multilabel_labels,
    check_set_wise_labels,
    check_targets,
    class_indices,
    contains,
    equals_label,
    label_kind,
    resolve_pos_label,
    score_target_type,
    target_type,
    unique_labels,
)
from .params import (
    AVERAGES,
    check_average,
    check_beta,
    check_bool,
    check_digits,
    check_k,
    check_max_fpr,
    check_n_bins,
    check_normalize,
    check_option,
    check_pos_label,
    check_scalar,
    check_strategy,
    check_zero_division,
)
from .scores import (
    BinaryScores,
    TopKInputs,
    as_real_array,
    check_binary_scores,
    check_indicator_scores,
    check_labels_for_scores,
    check_real_scores,
    check_score_array,
    check_top_k,
)
from .warning import UndefinedMetricWarning, warn
from .weights import check_sample_weight

__all__ = [
    "AVERAGES",
    "BinaryScores",
    "Targets",
    "TopKInputs",
    "UndefinedMetricWarning",
    "as_label_array",
    "as_real_array",
    "check_average",
    "check_beta",
    "check_binary_scores",
    "check_bool",
    "check_digits",
    "check_indicator_scores",
    "check_k",
    "check_labels",
    "check_labels_1d",
    "check_labels_for_scores",
    "check_lengths",
    "check_max_fpr",
    "check_multilabel_labels",
    "check_n_bins",
    "check_normalize",
    "check_option",
    "check_pos_label",
    "check_real_scores",
    "check_sample_weight",
    "check_scalar",
    "check_score_array",
    "check_set_wise_labels",
    "check_strategy",
    "check_targets",
    "check_top_k",
    "check_zero_division",
    "class_indices",
    "column_or_1d",
    "contains",
    "equals_label",
    "label_kind",
    "not_array_like",
    "resolve_pos_label",
    "score_target_type",
    "target_type",
    "unique_labels",
    "warn",
]
