"""Kernel 3: detection metrics — IoU, greedy matching, PASCAL VOC AP and COCO AP/AR.

* :func:`box_iou` — IoU of every pair of boxes (N x M), with COCO's crowd variant.
* :func:`match_detections` — greedy matching of one image's detections to its ground truth.
* :func:`interpolated_average_precision`, :func:`detection_pr_curve`, :func:`detection_average_precision`
  — AP from a precision-recall curve (all-point, VOC2007 11-point, COCO 101-point) and from
  per-detection scores and match flags.
* :func:`evaluate_voc` — per-class AP at IoU 0.5, VOC2007 11-point or all-point, "difficult" honoured.
* :func:`evaluate_coco` — pycocotools' ``COCOeval`` numbers for ``iou_type`` "bbox", "segm" and
  "keypoints" (any skeleton, own OKS sigmas), equal to it.
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
from ._errors import CAUSES, error_breakdown
from ._iou import box_area, box_iou
from ._matching import match_detections
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
    "error_breakdown",
    "CAUSES",
    "keypoints",
    "mask",
    "temporal",
]
