"""Write ``book/parity.md``: every checked ``mltutor`` function, its reference, and the cases compared.

The property tests count the Hypothesis examples they run in ``tests/_strategies.py``'s ``CASES``
(one counter per comparison, for example ``"roc_auc_score (binary)"``), and ``tests/conftest.py``
prints the counters at the end of every pytest run, also under pytest-xdist.  This script reads
that printout, maps each counter to the functions it checks (``ROWS`` below) and writes the page.

    # run the property tests now (about 4 minutes on 4 cores) and write the page
    python scripts/make_parity_page.py --run -n 4
    # or reuse the output of a run that already happened (``make test`` prints the counters)
    python scripts/make_parity_page.py --from-log test-output.txt
    # check that the committed page lists the right functions, without running anything
    python scripts/make_parity_page.py --check

``--run`` and ``--from-log`` refuse to write when a counter printed by pytest is not in ``ROWS``,
or a counter in ``ROWS`` was not printed: a new property test must get a row here.
``tests/test_parity_page.py`` checks that the page lists exactly the public names of
``mltutor.metrics`` and every other function in ``ROWS``; the counts may be stale, the names not.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "parity.md"

#: The test files whose property tests feed ``CASES``.
PROPERTY_TESTS = [
    "tests/test_metrics_parity.py",
    "tests/test_monitoring.py",
    "tests/test_metrics_multilabel_extra.py",
    "tests/test_many_classes.py",
    "tests/test_curves.py",
    "tests/test_curves_kernel.py",
    "tests/test_thresholds.py",
    "tests/test_net_benefit.py",
    "tests/test_constrained_threshold.py",
    "tests/test_calibration.py",
    "tests/test_calibration_maps.py",
    "tests/test_calibration_intervals.py",
    "tests/test_interpolated_ap.py",
    "tests/test_ranking.py",
    "tests/test_detection_iou.py",
    "tests/test_detection_voc.py",
    "tests/test_detection_coco.py",
    "tests/test_streaming.py",
    "tests/test_metrics_agreement.py",
    "tests/test_stats_intervals.py",
    "tests/test_stats_paired.py",
    "tests/test_conformal.py",
    "tests/test_calibration_variants.py",
    "tests/test_curves_sort_only.py",
    "tests/test_detection_mask.py",
    "tests/test_detection_segm.py",
    "tests/test_detection_coco_json.py",
    "tests/test_detection_keypoints.py",
    "tests/test_detection_errors.py",
    "tests/test_detection_operating_points.py",
    "tests/test_detection_confusion.py",
    "tests/test_detection_tables.py",
    "tests/test_detection_temporal.py",
    "tests/test_temporal_mmaction2.py",
    "tests/test_video_scores.py",
    "tests/test_streaming_safety.py",
    "tests/test_attack_dtypes.py",
    "tests/test_attack_scores.py",
    "tests/test_sklearn_rest.py",
    "tests/test_partial_auc.py",
    "tests/test_curve_bands.py",
    "tests/test_recall_precision_at.py",
]

SK = "scikit-learn 1.9 `sklearn.metrics.{}`"
_ALL_WARN = "scikit-learn's `UndefinedMetricWarning`: same category and message"

#: (module, function, reference, CASES counters).  The rows of module "metrics" must list exactly
#: ``mltutor.metrics.__all__``.  An empty counter list means "checked by the same cases as the row
#: above"; ``None`` means "checked in every case of the table above".
ROWS: list[tuple[str, str, str, list[str] | None]] = [
    ("metrics", "accuracy_score", SK.format("accuracy_score"), ["accuracy_score"]),
    (
        "metrics",
        "balanced_accuracy_score",
        SK.format("balanced_accuracy_score"),
        ["balanced_accuracy_score"],
    ),
    (
        "metrics",
        "classification_report",
        SK.format("classification_report") + " (text and dict)",
        ["classification_report"],
    ),
    ("metrics", "confusion_matrix", SK.format("confusion_matrix"), ["confusion_matrix"]),
    ("metrics", "f1_score", SK.format("f1_score"), ["f1_score"]),
    ("metrics", "fbeta_score", SK.format("fbeta_score"), ["fbeta_score"]),
    (
        "metrics",
        "multilabel_confusion_matrix",
        SK.format("multilabel_confusion_matrix"),
        ["multilabel_confusion_matrix"],
    ),
    (
        "metrics",
        "precision_recall_fscore_support",
        SK.format("precision_recall_fscore_support"),
        ["precision_recall_fscore_support"],
    ),
    ("metrics", "precision_score", SK.format("precision_score"), ["precision_score"]),
    ("metrics", "recall_score", SK.format("recall_score"), ["recall_score"]),
    (
        "metrics",
        "specificity_score",
        "scikit-learn `recall_score` of the negative class "
        "(scikit-learn has no `specificity_score`)",
        ["specificity_score"],
    ),
    ("metrics", "hamming_loss", SK.format("hamming_loss"), ["hamming_loss"]),
    ("metrics", "jaccard_score", SK.format("jaccard_score"), ["jaccard_score"]),
    (
        "metrics",
        "top_k_accuracy_score",
        SK.format("top_k_accuracy_score"),
        ["top_k_accuracy_score"],
    ),
    ("metrics", "dcg_score", SK.format("dcg_score"), ["dcg_score (sklearn parity)"]),
    ("metrics", "ndcg_score", SK.format("ndcg_score"), ["ndcg_score (sklearn parity)"]),
    ("metrics", "roc_curve", SK.format("roc_curve"), ["roc_curve"]),
    (
        "metrics",
        "precision_recall_curve",
        SK.format("precision_recall_curve"),
        ["precision_recall_curve"],
    ),
    ("metrics", "det_curve", SK.format("det_curve"), ["det_curve"]),
    ("metrics", "auc", SK.format("auc"), ["auc"]),
    (
        "metrics",
        "roc_auc_score",
        SK.format("roc_auc_score") + "; binary AUC also against the "
        "Mann-Whitney pair count (brute force)",
        [
            "roc_auc_score (binary)",
            "roc_auc_score (Mann-Whitney)",
            "roc_auc_score (multilabel)",
            "roc_auc_score (multiclass ovr/ovo)",
        ],
    ),
    (
        "metrics",
        "average_precision_score",
        SK.format("average_precision_score"),
        [
            "average_precision_score (binary)",
            "average_precision_score (multilabel)",
            "average_precision_score (multiclass)",
        ],
    ),
    (
        "metrics",
        "interpolated_average_precision",
        "brute force: the all-point and VOC 2007 "
        "11-point formulas written out; COCO's 101-point rule as in pycocotools",
        ["interpolated_average_precision"],
    ),
    (
        "metrics",
        "brier_score_loss",
        SK.format("brier_score_loss"),
        ["brier_score_loss (binary)", "brier_score_loss (multiclass)"],
    ),
    (
        "metrics",
        "log_loss",
        SK.format("log_loss"),
        ["log_loss (binary, 1-D y_proba)", "log_loss (multiclass / indicator)"],
    ),
    ("metrics", "d2_log_loss_score", SK.format("d2_log_loss_score"), ["d2_log_loss_score"]),
    ("metrics", "d2_brier_score", SK.format("d2_brier_score"), ["d2_brier_score"]),
    ("metrics", "hinge_loss", SK.format("hinge_loss"), ["hinge_loss"]),
    ("metrics", "coverage_error", SK.format("coverage_error"), ["coverage_error"]),
    (
        "metrics",
        "label_ranking_average_precision_score",
        SK.format("label_ranking_average_precision_score"),
        ["label_ranking_average_precision_score"],
    ),
    ("metrics", "label_ranking_loss", SK.format("label_ranking_loss"), ["label_ranking_loss"]),
    (
        "metrics",
        "confusion_matrix_at_thresholds",
        SK.format("confusion_matrix_at_thresholds"),
        ["confusion_matrix_at_thresholds"],
    ),
    (
        "metrics",
        "metric_at_thresholds",
        SK.format("metric_at_thresholds") + " (accuracy, macro "
        "F1 and a two-valued metric at each threshold)",
        ["metric_at_thresholds"],
    ),
    ("metrics", "matthews_corrcoef", SK.format("matthews_corrcoef"), ["matthews_corrcoef"]),
    (
        "metrics",
        "cohen_kappa_score",
        SK.format("cohen_kappa_score") + " (unweighted, linear, quadratic)",
        ["cohen_kappa_score"],
    ),
    (
        "metrics",
        "class_likelihood_ratios",
        SK.format("class_likelihood_ratios"),
        ["class_likelihood_ratios"],
    ),
    ("metrics", "zero_one_loss", SK.format("zero_one_loss"), ["zero_one_loss"]),
    ("metrics", "UndefinedMetricWarning", _ALL_WARN, None),
    # ---- everything else that is compared with a reference
    (
        "curves",
        "binary_counts",
        "scikit-learn `confusion_matrix_at_thresholds`; and the definition "
        "(brute-force counts per threshold)",
        ["binary_counts", "binary_counts (definition)"],
    ),
    (
        "curves",
        "threshold_sweep",
        "scikit-learn `confusion_matrix_at_thresholds` and brute "
        "force; a literal loop of scikit-learn calls per threshold",
        ["threshold_sweep", "threshold_sweep (literal sklearn loop)"],
    ),
    ("curves", "ThresholdSweep.at", "brute force", ["ThresholdSweep.at"]),
    (
        "curves",
        "best_fbeta_threshold",
        "brute force (maximum over all thresholds)",
        ["best_fbeta_threshold"],
    ),
    (
        "curves",
        "min_cost_threshold",
        "brute force (minimum over all thresholds)",
        ["min_cost_threshold"],
    ),
    (
        "curves",
        "cost_optimal_threshold",
        "the Bayes rule, checked by expected cost",
        ["cost_optimal_threshold"],
    ),
    (
        "curves",
        "threshold_for_recall",
        "brute force per threshold; the lower bound against scipy's Beta quantile "
        "(the promise of the bound checked by simulation in the test)",
        ["threshold_for_recall"],
    ),
    (
        "curves",
        "threshold_for_precision",
        "brute force per threshold",
        ["threshold_for_precision"],
    ),
    (
        "curves",
        "net_benefit",
        "the definition `TP/n - FP/n * p_t/(1 - p_t)`, a loop over thresholds",
        ["net_benefit"],
    ),
    (
        "curves",
        "decision_curve",
        "`net_benefit`; treat all as `net_benefit` of constant scores 1",
        ["decision_curve"],
    ),
    (
        "curves",
        "partial_roc_auc",
        "scikit-learn `roc_auc_score(max_fpr=m)` (McClish-standardised, FPR from 0); a "
        "segment-by-segment loop (raw areas over an FPR or a TPR range)",
        ["partial_roc_auc (McClish, sklearn max_fpr)", "partial_roc_auc (raw, FPR or TPR range)"],
    ),
    (
        "curves",
        "roc_curve_band",
        "scikit-learn `roc_curve` and `precision_recall_curve` weighted by each resample's "
        "counts (coverage checked by simulation in the test)",
        ["roc_curve_band / pr_curve_band (resampled curves)"],
    ),
    ("curves", "pr_curve_band", "the same cases", []),
    (
        "curves",
        "precision_at_recall",
        "a loop over scikit-learn's `precision_recall_curve` with torchmetrics' tie rule "
        "(and torchmetrics 1.9 itself on 40 problems)",
        ["precision_at_recall / recall_at_precision"],
    ),
    ("curves", "recall_at_precision", "the same cases", []),
    (
        "calibration",
        "calibration_curve",
        "scikit-learn `sklearn.calibration.calibration_curve`",
        ["calibration_curve"],
    ),
    (
        "calibration",
        "calibration_curve_intervals",
        "scikit-learn `calibration_curve` (the points); intervals: statsmodels `proportion_confint`",
        ["calibration_curve_intervals"],
    ),
    (
        "calibration",
        "expected_calibration_error",
        "TorchMetrics `BinaryCalibrationError`, `MulticlassCalibrationError` (l1)",
        [
            "expected/maximum_calibration_error (binary)",
            "expected/maximum_calibration_error (multiclass, top-label)",
        ],
    ),
    ("calibration", "maximum_calibration_error", "TorchMetrics calibration error (max norm)", []),
    (
        "calibration",
        "classwise_calibration_error",
        "the mean of TorchMetrics `BinaryCalibrationError` over the columns",
        ["classwise_calibration_error"],
    ),
    (
        "calibration",
        "adaptive_calibration_error",
        "brute force: sort, `np.array_split`, ECE sum",
        ["adaptive_calibration_error"],
    ),
    (
        "calibration",
        "fit_temperature",
        "scikit-learn `_TemperatureScaling`, and the interior minimum of the NLL",
        ["fit_temperature"],
    ),
    (
        "calibration",
        "apply_temperature",
        "invariants: argmax and AUC unchanged",
        ["apply_temperature (invariants)"],
    ),
    (
        "calibration",
        "fit_platt",
        "scikit-learn `_sigmoid_calibration` (smoothed targets); "
        "`LogisticRegression` without penalty (`smoothing=False`)",
        ["fit_platt (smoothed targets)", "fit_platt (smoothing=False)"],
    ),
    (
        "calibration",
        "apply_platt",
        "invariant: AUC kept or reversed",
        ["apply_platt (AUC invariant)"],
    ),
    ("calibration", "fit_isotonic", "scikit-learn `IsotonicRegression`", ["fit_isotonic"]),
    (
        "calibration",
        "pool_adjacent_violators",
        "scikit-learn `isotonic_regression`",
        ["pool_adjacent_violators"],
    ),
    (
        "detection",
        "detection_average_precision",
        "pycocotools' accumulate (COCO, bit for bit), all-point and VOC 2007 formulas",
        ["detection_average_precision"],
    ),
    ("detection", "detection_pr_curve", "brute force", ["detection_pr_curve + precision_envelope"]),
    ("detection", "precision_envelope", "brute force (running maximum from the right)", []),
    (
        "curves",
        "precision_at_k",
        "pytrec_eval (trec_eval) `P_k`",
        ["P@k, R@k, AP, RR, nDCG@k (pytrec_eval parity)"],
    ),
    ("curves", "recall_at_k", "pytrec_eval `recall_k`", []),
    ("curves", "average_precision", "pytrec_eval `map`", []),
    ("curves", "reciprocal_rank", "pytrec_eval `recip_rank`", []),
    ("curves", "ndcg_at_k", "pytrec_eval `ndcg_cut_k`", []),
    (
        "detection",
        "box_iou",
        "pycocotools `mask.iou`, bit for bit",
        ["detection: box_iou vs pycocotools.mask.iou"],
    ),
    (
        "detection",
        "match_detections",
        "pycocotools `COCOeval.evaluateImg` matching loop",
        ["detection: match_detections vs COCOeval loop"],
    ),
    (
        "detection",
        "evaluate_voc",
        "the PASCAL VOC devkit's `VOCevaldet`, transcribed",
        ["detection: VOC AP vs devkit transcription"],
    ),
    (
        "detection",
        "evaluate_coco",
        "pycocotools `COCOeval` (all 12 summary numbers); for "
        "`iou_type='segm'` also the precision/recall arrays (to 1e-9), with and without result boxes",
        [
            "detection: evaluate_coco vs pycocotools COCOeval",
            "detection: evaluate_coco segm vs pycocotools COCOeval",
            "detection: evaluate_coco segm with result boxes vs pycocotools",
        ],
    ),
    (
        "detection",
        "coco_operating_points",
        "pycocotools `COCOeval.eval['scores']` (tie-free sets); a brute-force threshold search",
        [
            "detection: coco_operating_points vs pycocotools eval['scores']",
            "detection: coco_operating_points vs brute-force threshold search",
        ],
    ),
    (
        "detection",
        "f1_confidence_curve",
        "brute force: re-matching at each confidence threshold",
        ["detection: f1_confidence_curve vs brute-force loop"],
    ),
    (
        "detection",
        "detection_confusion_matrix",
        "pycocotools `evalImgs` true positives (the diagonal); a brute-force loop (all cells)",
        [
            "detection: detection_confusion_matrix diagonal vs pycocotools TP",
            "detection: detection_confusion_matrix vs brute-force loop",
        ],
    ),
    (
        "detection",
        "coco_ap_table",
        "pycocotools `COCOeval.stats` (AP, APs, APm, APl as column means)",
        ["detection: coco_ap_table vs pycocotools summary"],
    ),
    (
        "detection",
        "evaluate_coco_by",
        "`evaluate_coco` on the subsets built by hand",
        ["detection: evaluate_coco_by vs evaluate_coco on subsets"],
    ),
    (
        "stats",
        "proportion_ci",
        "statsmodels 0.15 `proportion_confint` (wilson, beta, agresti_coull, "
        "jeffreys, normal), to 1e-10",
        ["proportion_ci"],
    ),
    (
        "stats",
        "mcnemar",
        "statsmodels 0.15 `contingency_tables.mcnemar` (exact and chi-square)",
        ["mcnemar"],
    ),
    (
        "stats",
        "delong_roc_test",
        "the O(m n) structural components of DeLong et al. (written in "
        "the test), scikit-learn `roc_auc_score`",
        ["delong (O(n^2) structural components)"],
    ),
    ("stats", "delong_roc_variance", "the same definition", []),
    (
        "conformal",
        "conformal_quantile",
        "the k-th smallest score, k = ceil((n+1)(1-alpha)), and `np.quantile(..., method='lower')`",
        ["conformal_quantile"],
    ),
    (
        "conformal",
        "ConformalClassifier",
        "MAPIE 1.6 `SplitConformalClassifier` (LAC sets); a "
        "per-sample brute force of Romano et al.'s APS (plain and randomised)",
        ["ConformalClassifier (lac vs MAPIE)", "ConformalClassifier (aps vs brute force)"],
    ),
    (
        "monitoring",
        "rolling_score",
        "scikit-learn on the samples of each window (accuracy, "
        "precision, recall, F1 binary and macro, balanced accuracy; zero_division 0, 1, NaN); river "
        "0.26.1 `utils.Rolling` on streams of 200",
        ["rolling_score (windows vs scikit-learn)", "rolling_score (streams vs river)"],
    ),
    (
        "monitoring",
        "ewm_score",
        "scikit-learn on the prefix with `sample_weight` = decay ** age",
        ["ewm_score"],
    ),
    (
        "monitoring",
        "tumbling_score",
        "scikit-learn on the labelled samples of each time window "
        "(delayed labels, by prediction or label time)",
        ["tumbling_score"],
    ),
    ("monitoring", "bernoulli_cusum", "the CUSUM recursion written as a loop", ["bernoulli_cusum"]),
    (
        "monitoring",
        "em_prior_shift",
        "QuaPy 0.2.3 `EMQ.EM` (prior and posteriors, to 1e-12)",
        ["em_prior_shift"],
    ),
    (
        "monitoring",
        "bbse_prior_shift",
        "the two-class adjusted count (q - FPR) / (TPR - FPR)",
        ["bbse_prior_shift"],
    ),
    (
        "monitoring",
        "ks_statistic",
        "SciPy 1.17 `stats.ks_2samp` (statistic; ties)",
        ["ks_statistic"],
    ),
    (
        "streaming",
        "MulticlassMetrics",
        "scikit-learn on the concatenated batches, any batching; "
        "the dense C x C state against the per-class-counts mode",
        [
            "streaming MulticlassMetrics == sklearn (any batching)",
            "streaming MulticlassMetrics dense == per-class counts",
        ],
    ),
    (
        "streaming",
        "BinaryMetrics.update",
        "one process without repeats: `sample_ids` count each repeated sample once",
        ["streaming sample_ids: repeats counted once"],
    ),
    # ---- kernel 2 without argsort, against the argsort kernel, brute force and scikit-learn
    (
        "curves",
        "sorted_roc_auc",
        "the Mann-Whitney pair count (ties 1/2, +-inf scores)",
        ["sorted_roc_auc == Mann-Whitney (with +-inf)"],
    ),
    (
        "curves",
        "sorted_average_precision",
        "the step sum over distinct thresholds (+-inf)",
        ["sorted_average_precision == step sum (with +-inf)"],
    ),
    (
        "curves",
        "sorted_counts",
        "the argsort kernel (stable sort + cumulative sums), +-inf scores",
        ["sorted_counts == argsort kernel (with +-inf)"],
    ),
    (
        "curves",
        "roc_curve",
        "scikit-learn `roc_curve`, `precision_recall_curve`, `det_curve`, "
        "`roc_auc_score`, `average_precision_score` on tie-heavy, float16/float32, one-class, "
        "weighted and multiclass/multilabel inputs (the sort-only path and its fallbacks)",
        [
            "sort-only roc/pr/det curves",
            "sort-only roc_auc_score + average_precision_score",
            "sort-only one-class inputs",
            "sort-only ovr/ovo/multilabel",
            "sort-only weighted (argsort path)",
            "sort-only threshold_sweep",
            "sorted_pr_points / sorted_det_points == counts path (with +-inf)",
        ],
    ),
    # ---- masks, keypoints and the error breakdown
    (
        "detection",
        "mask.encode",
        "pycocotools `mask.encode`/`decode`/`area`/`toBbox`, bit for bit "
        "(also sets of masks of mixed sizes); the run boundaries read 8 bytes at a time against a "
        "byte-by-byte comparison, and the strings of counts up to 2**62 against `rleToString` "
        "transcribed",
        [
            "mask: encode/decode/area/toBbox vs pycocotools",
            "mask: toBbox/area of mixed sizes vs pycocotools",
            "mask: run boundaries read 8 bytes at a time",
            "mask: RLE strings of counts up to 2**62",
        ],
    ),
    (
        "detection",
        "load_coco_json",
        "`json.loads` of the file's bytes: the same objects, with orjson and without it "
        "(integers of any size, NaN and infinities, any text, nested lists and dicts)",
        ["load_coco_json vs json.loads (orjson)", "load_coco_json vs json.loads (json)"],
    ),
    (
        "detection",
        "mask.iou",
        "pycocotools `mask.iou` and `mask.merge` (IoU to 1e-12, crowd regions)",
        ["mask: iou/merge vs pycocotools"],
    ),
    (
        "detection",
        "mask.from_polygons",
        "pycocotools `frPyObjects` (polygon rasterisation), bit for bit",
        ["mask: polygon rasterisation vs pycocotools frPyObjects"],
    ),
    (
        "detection",
        "keypoints.oks",
        "pycocotools `COCOeval(iouType="
        "'keypoints')` with the 17 COCO sigmas and with own sigmas; faster-coco-eval's custom "
        "sigmas",
        [
            "detection: evaluate_coco keypoints (17, COCO sigmas) vs pycocotools",
            "detection: evaluate_coco keypoints (1-9, own sigmas) vs pycocotools",
            "detection: evaluate_coco keypoints (own sigmas) vs faster-coco-eval",
            "detection: evaluate_coco keypoints with result boxes vs pycocotools",
        ],
    ),
    (
        "detection",
        "error_breakdown",
        "a brute-force re-implementation of TIDE's definitions; "
        "`evaluate_coco` on the fixed data; tidecv 1.0.1",
        [
            "detection: error_breakdown vs brute-force TIDE definitions",
            "detection: error_breakdown fixes vs evaluate_coco on fixed data",
            "detection: error_breakdown vs tidecv",
        ],
    ),
    (
        "detection.temporal",
        "evaluate_activitynet",
        "a line-by-line port of ActivityNet's "
        "`eval_detection.py` (`ANETdetection`, commit 82304fa), tied scores in reverse input order",
        ["temporal: evaluate_activitynet vs ActivityNet eval_detection.py"],
    ),
    (
        "detection.temporal",
        "evaluate_thumos14",
        "a line-by-line port of THUMOS'14's MATLAB kit "
        "(`TH14evaldet.m`, `TH14eventdetpr.m`, `intervaloverlapvalseconds.m`)",
        ["temporal: evaluate_thumos14 vs THUMOS'14 TH14evalkit"],
    ),
    (
        "detection.temporal",
        "temporal_iou",
        "ActivityNet's `segment_iou`, bit for bit",
        ["temporal: temporal_iou vs ActivityNet segment_iou"],
    ),
    (
        "detection.temporal",
        "evaluate_activitynet",
        "mmaction2 1.2.0's `ActivityNetLocalization` (its `eval_detection.py`), tied scores "
        "handed to it in reverse input order",
        ["temporal: evaluate_activitynet vs mmaction2 ActivityNetLocalization"],
    ),
    (
        "video",
        "video_scores",
        "a Python loop over the videos (`np.mean` of their rows, `np.argmax` per clip, "
        "votes counted)",
        ["video: video_scores vs a loop over videos"],
    ),
    # ---- hostile inputs across the scikit-learn facade
    (
        "_validation",
        "check_sample_weight",
        "scikit-learn on 20 metrics with hostile label and "
        "weight dtypes and layouts (bool ... uint64, float16, object, pandas, strided, read-only)",
        ["attack dtypes"],
    ),
    (
        "_validation",
        "check_binary_scores",
        "scikit-learn on hostile scores (ties, +-inf, -0.0, "
        "denormals, all equal) across the curve and AUC functions",
        ["attack scores"],
    ),
]

SECTION_TITLES = {
    "metrics": "`mltutor.metrics`: the drop-in replacements for `sklearn.metrics`",
    "other": "Everything else compared with a reference",
}

SUMMARY_START = "property-based cases (hypothesis examples run)"
SUMMARY_LINE = re.compile(r"^(.*\S)\s+(\d+)\s*$")


def parse_counts(output: str) -> dict[str, int]:
    """The counters of ``tests/conftest.py``'s summary in a pytest output."""
    lines = output.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if SUMMARY_START in line)
    except StopIteration:
        raise SystemExit("no property-case summary in the pytest output") from None
    counts: dict[str, int] = {}
    for line in lines[start + 1 :]:
        if line.startswith("property cases run:"):
            break
        match = SUMMARY_LINE.match(line)
        if match:
            counts[match.group(1).strip()] = int(match.group(2))
    return counts


def run_tests(workers: str | None) -> str:
    cmd = [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider"]
    if workers:
        cmd += ["-n", workers, "--dist", "loadfile"]
    proc = subprocess.run(cmd + PROPERTY_TESTS, cwd=ROOT, capture_output=True, text=True)
    sys.stdout.write(proc.stdout[-3000:])
    if proc.returncode != 0:
        raise SystemExit(f"the property tests failed (exit {proc.returncode}); page not written")
    return proc.stdout


def qualified(section: str, name: str) -> str:
    return f"mltutor.{section}.{name}"


def _fmt(n: int) -> str:
    return f"{n:,}"


def render(counts: dict[str, int]) -> str:
    known = {key for *_, keys in ROWS for key in keys or []}
    unknown = sorted(set(counts) - known)
    missing = sorted(known - set(counts))
    if unknown or missing:
        raise SystemExit(
            f"counters without a row in ROWS: {unknown}; rows without a counter: {missing}"
        )
    total = sum(counts.values())
    out = [
        "# Parity with reference implementations",
        "",
        "Every function of `mltutor` that has a reference implementation is tested against it on",
        "randomly generated inputs (property-based tests with Hypothesis, derandomized so that every",
        "run draws the same cases).  A case passes when both sides give the same result (integers",
        "exactly, floats to 1e-12, NaN equal to NaN), or refuse the input with the same exception",
        "type, and, for scikit-learn, emit the same warnings.  The counts are the examples actually",
        "run; a function checked by several tests adds them up.",
        "",
        "This page is generated by `scripts/make_parity_page.py` from the test suite's own counters",
        f"(`tests/_strategies.py`, `CASES`): {_fmt(total)} cases in the run it was made from.",
        "Tests with fixed examples (error messages, edge cases, doctests) come on top and are not",
        "counted here.",
        "",
    ]
    for section in ("metrics", "other"):
        rows = [r for r in ROWS if (r[0] == "metrics") == (section == "metrics")]
        last = ""
        out += [
            f"## {SECTION_TITLES[section]}",
            "",
            "| Function | Checked against | Cases compared |",
            "| --- | --- | --- |",
        ]
        for module, name, reference, keys in rows:
            if keys is None:
                cases = "every case above that warns"
            elif not keys:
                cases = f"counted with `{last}`"
            elif len(keys) == 1:
                cases = _fmt(counts[keys[0]])
            else:
                parts = "; ".join(f"{_label(k, name)} {_fmt(counts[k])}" for k in keys)
                cases = f"{_fmt(sum(counts[k] for k in keys))} ({parts})"
            out.append(f"| `{qualified(module, name)}` | {reference} | {cases} |")
            last = name if keys else last
        out.append("")
    return "\n".join(out)


def _label(key: str, name: str) -> str:  # noqa: ARG001
    match = re.search(r"\(([^()]*)\)\s*$", key)
    return match.group(1) if match else key


def page_functions(text: str) -> list[str]:
    """The fully qualified names in the first column of the page's tables."""
    return re.findall(r"^\| `(mltutor\.[\w.]+)` \|", text, re.M)


def check() -> list[str]:
    """Problems with the committed page (function names only; counts are not checked)."""
    import importlib

    import mltutor.metrics

    problems = []
    listed = page_functions(PAGE.read_text(encoding="utf-8"))
    expected = [qualified(m, n) for m, n, *_ in ROWS]
    if sorted(listed) != sorted(expected):
        problems.append(f"page and ROWS differ: {sorted(set(listed) ^ set(expected))}")
    metrics = {n for m, n, *_ in ROWS if m == "metrics"}
    if metrics != set(mltutor.metrics.__all__):
        problems.append(
            f"ROWS and mltutor.metrics.__all__ differ: {sorted(metrics ^ set(mltutor.metrics.__all__))}"
        )
    for module, name, *_ in ROWS:
        obj = importlib.import_module(f"mltutor.{module}")
        for part in name.split("."):
            obj = getattr(obj, part, None)
        if obj is None:
            problems.append(f"mltutor.{module}.{name} does not exist")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--run", action="store_true", help="run the property tests and write the page"
    )
    group.add_argument("--from-log", type=Path, help="read the counters from a saved pytest output")
    group.add_argument(
        "--check", action="store_true", help="check the committed page's function list"
    )
    parser.add_argument(
        "-n", dest="workers", help="pytest-xdist workers for --run (e.g. 4 or auto)"
    )
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        print("\n".join(problems) or "book/parity.md lists the right functions")
        return 1 if problems else 0
    output = run_tests(args.workers) if args.run else args.from_log.read_text(encoding="utf-8")
    PAGE.write_text(render(parse_counts(output)) + "\n", encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
