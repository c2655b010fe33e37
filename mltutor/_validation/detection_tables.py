"""Parameters of the detection diagnostics: operating points, F1-confidence, confusion, tables.

The COCO records themselves are checked by :mod:`mltutor._validation.detection`; here only what the
diagnostics add: an IoU threshold, a score threshold, a confidence grid, an evaluate_coco result and
the name of an image attribute.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real
from typing import Any

import numpy as np

from .params import check_scalar

__all__ = [
    "check_iou_threshold",
    "check_score_threshold",
    "check_confidence_grid",
    "check_coco_result",
    "check_attribute",
]

_RESULT_KEYS = ("precision", "recall", "scores", "params")


def check_iou_threshold(value: Any) -> float:
    """An IoU threshold in (0, 1]."""
    return float(
        check_scalar(
            value, "iou_threshold", Real, min_val=0.0, max_val=1.0, include_boundaries="right"
        )
    )


def check_score_threshold(value: Any) -> float:
    """A score threshold: any finite real number (detections with ``score >= value`` are kept)."""
    value = check_scalar(value, "score_threshold", Real)
    if not np.isfinite(value):
        raise ValueError(f"score_threshold must be finite; got {value!r}.")
    return float(value)


def check_confidence_grid(thresholds: Any) -> np.ndarray:
    """A 1-D, non-empty, finite, increasing float grid of confidence thresholds."""
    arr = np.asarray(thresholds)
    if arr.dtype == bool or arr.dtype.kind not in "iuf" or arr.dtype in (np.float16, np.int8):
        raise TypeError(
            f"thresholds must be real numbers (float32/float64 or int >= 16 bits); got dtype {arr.dtype}."
        )
    arr = arr.astype(np.float64)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"thresholds must be a non-empty 1-D array; got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError("thresholds must be finite (no NaN or inf).")
    if arr.shape[0] > 1 and not np.all(np.diff(arr) > 0):
        raise ValueError("thresholds must be strictly increasing.")
    return arr


def check_coco_result(
    result: Any, iou_threshold: Any, area: Any, max_dets: Any
) -> tuple[int, int, int]:
    """An :func:`mltutor.detection.evaluate_coco` result and the (T, A, M) indices chosen in it."""
    if not isinstance(result, Mapping) or any(k not in result for k in _RESULT_KEYS):
        raise TypeError(
            "result must be the dict returned by mltutor.detection.evaluate_coco (with keys "
            f"{list(_RESULT_KEYS)})."
        )
    params = result["params"]
    t = check_iou_threshold(iou_threshold)
    ious = np.asarray(params["iou_thresholds"], dtype=np.float64)
    hit = np.flatnonzero(np.isclose(ious, t, rtol=0, atol=1e-9))
    if hit.shape[0] == 0:
        raise ValueError(
            f"iou_threshold must be one of the evaluation's thresholds {np.round(ious, 2).tolist()}; "
            f"got {t!r}."
        )
    if area not in params["area_labels"]:
        raise ValueError(f"area must be one of {params['area_labels']}; got {area!r}.")
    if max_dets is None:  # the largest
        return int(hit[0]), params["area_labels"].index(area), len(params["max_dets"]) - 1
    if isinstance(max_dets, bool) or max_dets not in params["max_dets"]:
        raise ValueError(f"max_dets must be one of {params['max_dets']}; got {max_dets!r}.")
    return int(hit[0]), params["area_labels"].index(area), params["max_dets"].index(max_dets)


def check_attribute(coco_gt: Mapping, attribute: Any) -> list:
    """The value of ``attribute`` for every image of ``coco_gt`` (in its ``images`` order)."""
    if not isinstance(attribute, str):
        raise TypeError(f"attribute must be the name of an image field (a str); got {attribute!r}.")
    images = coco_gt.get("images", []) if isinstance(coco_gt, Mapping) else []
    missing = [img.get("id") for img in images if attribute not in img]
    if not images or missing:
        raise ValueError(
            f"attribute {attribute!r} must be a field of every image record; missing on image ids "
            f"{missing[:5]}" + ("" if images else " (no images)") + "."
        )
    values = [img[attribute] for img in images]
    if any(v is None or (isinstance(v, float) and np.isnan(v)) for v in values):
        raise ValueError(f"attribute {attribute!r} must not be None or NaN on any image.")
    return values
