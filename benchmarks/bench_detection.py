"""Kernel 3 against pycocotools and faster-coco-eval: COCO box evaluation of a synthetic set.

2,000 images, 10 categories, about 20,000 ground-truth boxes (1 % crowd, sizes from small to large,
``area`` a little below the box area as a mask's would be) and about 60,000 detections (two noisy
detections near each object, plus about 10 random false positives per image; scores rounded to two
decimals so that ties occur).

Every library starts from the same Python objects — the ground-truth dict and the list of result
dicts — and runs to the 12 summary numbers: pycocotools' ``COCO`` index + ``loadRes`` + ``evaluate`` +
``accumulate`` + ``summarize``, faster-coco-eval's ``COCOeval_faster`` the same way, mltutor's
``evaluate_coco``.  The 12 numbers must agree to 1e-9 before anything is timed.

Targets (issue #5): at least 6x faster than pycocotools; within 1.2x of faster-coco-eval (C++), i.e. a
ratio of at least 1/1.2 against it.
"""

from __future__ import annotations

import contextlib
import copy
import io

import numpy as np

from _harness import measure, report
from mltutor.detection import evaluate_coco

N_IMAGES = 2_000
N_CATEGORIES = 10
GT_PER_IMAGE = 10
FP_PER_IMAGE = 10
TARGET_PYCOCOTOOLS = 6.0
TARGET_FASTER = 1 / 1.2


def make_dataset(seed: int = 0) -> tuple[dict, list[dict]]:
    """A COCO ground-truth dict and a result list (see the module docstring)."""
    rng = np.random.default_rng(seed)
    n_gt = N_IMAGES * GT_PER_IMAGE
    gt_img = rng.integers(0, N_IMAGES, n_gt)
    gt_cat = rng.integers(0, N_CATEGORIES, n_gt)
    wh = np.exp(rng.uniform(np.log(6), np.log(300), (n_gt, 2)))
    xy = rng.uniform(0, 640, (n_gt, 2))
    crowd = rng.random(n_gt) < 0.01
    area = wh[:, 0] * wh[:, 1] * rng.uniform(0.6, 1.0, n_gt)
    annotations = [
        {"id": i + 1, "image_id": int(gt_img[i]) + 1, "category_id": int(gt_cat[i]) + 1,
         "bbox": [float(xy[i, 0]), float(xy[i, 1]), float(wh[i, 0]), float(wh[i, 1])],
         "area": float(area[i]), "iscrowd": int(crowd[i])}
        for i in range(n_gt)
    ]
    # Two detections per object: jittered box, a score that is higher for the closer one.
    src = np.repeat(np.arange(n_gt), 2)
    noise = rng.normal(0, 0.12, (src.shape[0], 4))
    d_xy = xy[src] + noise[:, :2] * wh[src]
    d_wh = wh[src] * np.exp(noise[:, 2:])
    d_score = np.clip(0.9 - np.abs(noise).sum(axis=1) + rng.normal(0, 0.1, src.shape[0]), 0.01, 1.0)
    d_cat = np.where(rng.random(src.shape[0]) < 0.05, rng.integers(0, N_CATEGORIES, src.shape[0]), gt_cat[src])
    d_img = gt_img[src]
    # Random false positives.
    n_fp = N_IMAGES * FP_PER_IMAGE
    f_img = rng.integers(0, N_IMAGES, n_fp)
    f_wh = np.exp(rng.uniform(np.log(6), np.log(300), (n_fp, 2)))
    f_xy = rng.uniform(0, 640, (n_fp, 2))
    boxes = np.concatenate([np.hstack([d_xy, d_wh]), np.hstack([f_xy, f_wh])])
    scores = np.round(np.concatenate([d_score, rng.uniform(0.01, 0.6, n_fp)]), 2)
    imgs = np.concatenate([d_img, f_img])
    cats = np.concatenate([d_cat, rng.integers(0, N_CATEGORIES, n_fp)])
    return as_coco(annotations, boxes, scores, imgs, cats, rng.permutation(boxes.shape[0]))


def as_coco(annotations: list[dict], boxes: np.ndarray, scores: np.ndarray, imgs: np.ndarray,
            cats: np.ndarray, order: np.ndarray) -> tuple[dict, list[dict]]:
    """COCO ground truth (640 x 640 images) and results, in ``order``, from 0-based id arrays."""
    detections = [
        {"image_id": int(imgs[i]) + 1, "category_id": int(cats[i]) + 1,
         "bbox": boxes[i].tolist(), "score": float(scores[i])}
        for i in order
    ]
    coco_gt = {
        "images": [{"id": i + 1, "width": 640, "height": 640} for i in range(N_IMAGES)],
        "categories": [{"id": c + 1, "name": f"class{c + 1}"} for c in range(N_CATEGORIES)],
        "annotations": annotations,
    }
    return coco_gt, detections


def pycocotools_stats(coco_gt: dict, detections: list[dict]) -> np.ndarray:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = coco_gt
        gt.createIndex()
        evaluator = COCOeval(gt, gt.loadRes(detections), iouType="bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return evaluator.stats


def faster_coco_eval_stats(coco_gt: dict, detections: list[dict]) -> np.ndarray:
    from faster_coco_eval import COCO, COCOeval_faster

    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(coco_gt)
        evaluator = COCOeval_faster(gt, gt.loadRes(detections), iouType="bbox", print_function=lambda *a: None)
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return np.asarray(evaluator.stats[:12])


def run(repeats: int = 3) -> list[dict]:
    coco_gt, detections = make_dataset()
    # Each library gets its own copy: pycocotools' loadRes writes keys into the result dicts.
    inputs = {name: (copy.deepcopy(coco_gt), copy.deepcopy(detections)) for name in ("ours", "pyc", "fce")}
    print(f"{len(coco_gt['images']):,} images, {len(coco_gt['categories'])} categories, "
          f"{len(coco_gt['annotations']):,} ground-truth boxes, {len(detections):,} detections")

    # Same numbers first: a fast wrong answer is worth nothing.
    ours = evaluate_coco(*inputs["ours"])["stats"]
    ref = pycocotools_stats(*inputs["pyc"])
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-9)
    fce = faster_coco_eval_stats(*inputs["fce"])
    print("AP, AP50, AP75:", np.round(ours[:3], 4).tolist(),
          f"| faster-coco-eval max |difference| vs pycocotools {np.abs(fce - ref).max():.2g}")

    mine = measure("mltutor", lambda: evaluate_coco(*inputs["ours"]), repeats)
    return [
        report("evaluate_coco vs pycocotools", mine,
               measure("pycocotools", lambda: pycocotools_stats(*inputs["pyc"]), max(1, min(repeats, 3))),
               TARGET_PYCOCOTOOLS),
        report("evaluate_coco vs faster-coco-eval (C++)", mine,
               measure("faster-coco-eval", lambda: faster_coco_eval_stats(*inputs["fce"]), repeats),
               TARGET_FASTER),
    ]


if __name__ == "__main__":
    run()
