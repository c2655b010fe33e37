"""Generated COCO box datasets and pycocotools runs shared by the detection-diagnostics tests
(operating points, F1-confidence, confusion matrix, tables).

``coco_cases(ties=False)`` draws distinct scores (the operating-point parity with pycocotools'
``eval['scores']`` is stated without ties); ``ties=True`` rounds scores to one decimal.
"""

from __future__ import annotations

import contextlib
import copy
import io

import numpy as np
from hypothesis import strategies as st
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval


@st.composite
def coco_cases(draw, ties: bool = False, attribute: bool = False):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_img = draw(st.integers(1, 5))
    n_cat = draw(st.integers(1, 4))
    img_ids = rng.choice(np.arange(1, 50), n_img, replace=False).tolist()
    cat_ids = rng.choice(np.arange(1, 20), n_cat, replace=False).tolist()
    p_crowd = draw(st.sampled_from([0.0, 0.2]))
    rate = draw(st.sampled_from([1.0, 3.0, 6.0]))
    scale = draw(st.sampled_from([4.0, 30.0, 150.0]))
    images = [{"id": i, "weather": str(rng.choice(["rain", "sun"]))} for i in img_ids]
    if not attribute:
        images = [{"id": i} for i in img_ids]
    annotations, detections = [], []
    for img in img_ids:
        n = int(rng.poisson(rate))
        xy = rng.uniform(0, 3 * scale, (n, 2))
        wh = rng.uniform(0.3 * scale, 1.5 * scale, (n, 2))
        for b in np.hstack([xy, wh]):
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": img,
                    "category_id": int(rng.choice(cat_ids)),
                    "bbox": b.tolist(),
                    "area": float(b[2] * b[3]),
                    "iscrowd": int(rng.random() < p_crowd),
                }
            )
        # detections: jittered copies of the objects (some relabelled) and random boxes
        own = [a for a in annotations if a["image_id"] == img]
        for a in own:
            for _ in range(int(rng.integers(0, 3))):
                b = np.array(a["bbox"]) + rng.normal(0, 0.15 * scale, 4) * [1, 1, 0.5, 0.5]
                b[2:] = np.abs(b[2:]) + 0.1
                cat = a["category_id"] if rng.random() < 0.7 else int(rng.choice(cat_ids))
                detections.append({"image_id": img, "category_id": cat, "bbox": b.tolist()})
        for _ in range(int(rng.poisson(1.5))):
            b = np.r_[rng.uniform(0, 3 * scale, 2), rng.uniform(0.3 * scale, 1.5 * scale, 2)]
            detections.append(
                {"image_id": img, "category_id": int(rng.choice(cat_ids)), "bbox": b.tolist()}
            )
    scores = rng.permutation(len(detections)) / max(len(detections), 1) + 0.5 / (
        max(len(detections), 1)
    )
    if ties:
        scores = np.round(scores, 1)
    for d, s in zip(detections, scores):
        d["score"] = float(s)
    gt = {"images": images, "categories": [{"id": c} for c in cat_ids], "annotations": annotations}
    return gt, detections


def pycocotools_eval(coco_gt: dict, detections: list[dict]) -> COCOeval:
    """COCOeval(bbox) evaluate + accumulate on deep copies, prints silenced; needs detections."""
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = copy.deepcopy(coco_gt)
        gt.createIndex()
        dt = gt.loadRes(copy.deepcopy(detections))
        ev = COCOeval(gt, dt, iouType="bbox")
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    return ev
