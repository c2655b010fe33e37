"""Kernel 3: detection metrics — IoU, greedy matching, PASCAL VOC AP and COCO AP/AR.

* :func:`box_iou` — IoU of every pair of boxes (N x M), with COCO's crowd variant.
* :func:`match_detections` — greedy matching of one image's detections to its ground truth.
* :func:`evaluate_voc` — per-class AP at IoU 0.5, VOC2007 11-point or all-point, "difficult" honoured.
* :func:`evaluate_coco` — pycocotools' ``COCOeval`` numbers for ``iou_type`` "bbox", "segm" and
  "keypoints" (any skeleton, own OKS sigmas), equal to it.
* :mod:`mltutor.detection.mask` — COCO run-length encoded masks: encode, decode, area, box, polygons,
  IoU (equal to ``pycocotools.mask``).
* :mod:`mltutor.detection.keypoints` — object keypoint similarity (OKS) and the COCO sigmas.
"""

from . import keypoints, mask

from .coco import evaluate_coco
from .errors import error_breakdown
from .iou import box_area, box_iou
from .matching import match_detections
from .voc import evaluate_voc

__all__ = ["box_iou", "box_area", "match_detections", "evaluate_voc", "evaluate_coco", "error_breakdown"]
