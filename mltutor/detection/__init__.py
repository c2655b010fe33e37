"""Kernel 3: detection metrics — IoU, greedy matching, PASCAL VOC AP and COCO AP/AR.

* :func:`box_iou` — IoU of every pair of boxes (N x M), with COCO's crowd variant.
* :func:`match_detections` — greedy matching of one image's detections to its ground truth.
* :func:`interpolated_average_precision`, :func:`detection_pr_curve`, :func:`detection_average_precision`
  — AP from a precision-recall curve (all-point, VOC2007 11-point, COCO 101-point) and from
  per-detection scores and match flags.
* :func:`evaluate_voc` — per-class AP at IoU 0.5, VOC2007 11-point or all-point, "difficult" honoured.
* :func:`evaluate_coco` — pycocotools' ``COCOeval`` numbers for ``iou_type`` "bbox", "segm" and
  "keypoints" (any skeleton, own OKS sigmas), equal to it; :func:`load_coco_json` reads its files
  (with orjson when installed).
* :func:`coco_operating_points`, :func:`f1_confidence_curve`, :func:`detection_confusion_matrix`,
  :func:`coco_ap_table`, :func:`evaluate_coco_by` — operating points (the score threshold of each
  recall point), F1 against confidence, a confusion matrix consistent with COCO's matching, AP per
  class and per slice.
* :mod:`mltutor.detection.mask` — COCO run-length encoded masks: encode, decode, area, box, polygons,
  IoU (equal to ``pycocotools.mask``).
* :mod:`mltutor.detection.keypoints` — object keypoint similarity (OKS) and the COCO sigmas.
* :mod:`mltutor.detection.temporal` — temporal action detection: tIoU, and mAP as ActivityNet and
  THUMOS'14 score it (two protocols, two numbers).
"""

from . import keypoints, mask, temporal
from ._ap import (
    detection_average_precision,
    detection_pr_curve,
    interpolated_average_precision,
    precision_envelope,
)
from ._coco import evaluate_coco
from ._coco_json import load_coco_json
from ._confusion import detection_confusion_matrix
from ._errors import CAUSES, error_breakdown
from ._iou import box_area, box_iou
from ._matching import match_detections
from ._operating_points import coco_operating_points, f1_confidence_curve
from ._tables import coco_ap_table, evaluate_coco_by
from ._voc import evaluate_voc

__all__ = [
    "box_iou",
    "box_area",
    "match_detections",
    "precision_envelope",
    "interpolated_average_precision",
    "detection_pr_curve",
    "detection_average_precision",
    "evaluate_voc",
    "evaluate_coco",
    "load_coco_json",
    "error_breakdown",
    "coco_operating_points",
    "f1_confidence_curve",
    "detection_confusion_matrix",
    "coco_ap_table",
    "evaluate_coco_by",
    "CAUSES",
    "keypoints",
    "mask",
    "temporal",
]
