"""Per-class and per-slice tables of COCO AP.

Two kinds of slice, computed differently on purpose:

* **object size** (small / medium / large) is a slice of the *objects*: pycocotools evaluates each
  area range with the objects (and unmatched detections) outside it ignored, so one evaluation
  holds every class x area AP (:func:`coco_ap_table` reads them from
  :func:`mltutor.detection.evaluate_coco`'s ``precision`` array);
* an **image attribute** (weather, camera, site) is a slice of the *images*: AP on the images of one
  value is a new evaluation on those images only (:func:`evaluate_coco_by`), because AP is not an
  average over images and cannot be split after the fact.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.detection import parse_coco_detections, parse_coco_gt
from .._validation.detection_tables import check_attribute, check_coco_result
from ._coco import evaluate_coco

__all__ = ["coco_ap_table", "evaluate_coco_by"]


def coco_ap_table(result: dict, *, iou_threshold: float | None = None) -> dict[str, Any]:
    r"""AP of every class in every area range, from one :func:`evaluate_coco` result.

    .. math:: \mathrm{AP}_{k,a} = \frac{1}{|T|\,|R|} \sum_{t \in T} \sum_{r \in R}
              p_{\text{interp}}(t, r, k, a), \qquad
              \mathrm{AP}_a = \operatorname{mean}_{k : n_{k,a} > 0} \mathrm{AP}_{k,a}

    with *T* the ten IoU thresholds (or the one given), *R* the 101 recall points and ``maxDets``
    100.  The column means are the summary numbers: ``AP``, ``APs``, ``APm``, ``APl`` (or ``AP50``
    and ``AP75`` for one threshold, area "all").

    Parameters
    ----------
    result : dict
        What :func:`mltutor.detection.evaluate_coco` returned (boxes or masks).
    iou_threshold : float, optional
        One of the evaluation's thresholds; default: the mean over all ten.

    Returns
    -------
    dict
        ``cat_ids`` (K,), ``areas`` (the area labels), ``AP`` (K, A) — NaN for a class without
        objects in that range (COCO's -1) — and ``mean`` (A,), the mean of each column over the
        classes that have objects there.

    Examples
    --------
    >>> gt = {"images": [{"id": 1}], "categories": [{"id": 1}],
    ...       "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "area": 100,
    ...                        "bbox": [0, 0, 10, 10]}]}
    >>> table = coco_ap_table(evaluate_coco(gt, [{"image_id": 1, "category_id": 1,
    ...                                           "bbox": [0, 0, 10, 10], "score": 0.9}]))
    >>> table["areas"], np.round(table["AP"], 3).tolist()
    (['all', 'small', 'medium', 'large'], [[1.0, 1.0, nan, nan]])
    """
    probe = 0.5 if iou_threshold is None else iou_threshold
    t = check_coco_result(result, probe, "all", None)[0]
    cols = slice(None) if iou_threshold is None else slice(t, t + 1)
    p = np.asarray(result["precision"], dtype=np.float64)[cols, :, :, :, -1]  # (T, R, K, A)
    valid = p > -1
    n = valid.sum(axis=(0, 1))
    ap = np.where(n > 0, np.where(valid, p, 0.0).sum(axis=(0, 1)) / np.maximum(n, 1), np.nan)
    has = n > 0
    n_cls = has.sum(axis=0)
    mean = np.where(n_cls > 0, np.where(has, ap, 0.0).sum(axis=0) / np.maximum(n_cls, 1), np.nan)
    return {
        "cat_ids": list(result["params"]["cat_ids"]),
        "areas": list(result["params"]["area_labels"]),
        "AP": ap,
        "mean": mean,
    }


def evaluate_coco_by(
    coco_gt: dict, detections: Any, attribute: str, **kwargs: Any
) -> dict[Any, dict[str, Any]]:
    """:func:`evaluate_coco` on each slice of the images that share a value of ``attribute``.

    Each slice keeps its images, their annotations and their detections, and all the categories
    (a category without objects in a slice is -1 there, as in pycocotools).

    Parameters
    ----------
    coco_gt : dict
        COCO ground truth whose every image record has the field ``attribute``.
    detections : list of dict
    attribute : str
        The image field to slice by (e.g. ``"weather"``).
    **kwargs
        Passed to :func:`evaluate_coco` (``iou_type``, ``kpt_oks_sigmas``).

    Returns
    -------
    dict
        ``{value: evaluate_coco result of the images with that value}``, values sorted.

    Examples
    --------
    >>> gt = {"images": [{"id": 1, "weather": "sun"}, {"id": 2, "weather": "rain"}],
    ...       "categories": [{"id": 1}],
    ...       "annotations": [{"id": i, "image_id": i, "category_id": 1, "area": 100,
    ...                        "bbox": [0, 0, 10, 10]} for i in (1, 2)]}
    >>> dets = [{"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9}]
    >>> {k: round(v["AP"], 3) for k, v in evaluate_coco_by(gt, dets, "weather").items()}
    {'rain': 0.0, 'sun': 1.0}
    """
    values = check_attribute(coco_gt, attribute)
    if kwargs.get("iou_type", "bbox") == "bbox":  # unknown ids refused here, not dropped by a slice
        parse_coco_detections(detections, parse_coco_gt(coco_gt))
    ids = [img["id"] for img in coco_gt["images"]]
    out = {}
    for value in sorted(set(values), key=str):  # one evaluation per slice value, not per sample
        keep = {i for i, v in zip(ids, values) if v == value}
        sub = {
            **coco_gt,
            "images": [img for img in coco_gt["images"] if img["id"] in keep],
            "annotations": [a for a in coco_gt["annotations"] if a["image_id"] in keep],
        }
        dets = [d for d in detections if d["image_id"] in keep]
        out[value] = evaluate_coco(sub, dets, **kwargs)
    return out
