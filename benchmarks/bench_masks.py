"""Masks and keypoints against pycocotools and faster-coco-eval: COCO 'segm' and 'keypoints'
evaluation of synthetic sets, and RLE encode / IoU against pycocotools' C.

* **segm**: 2,000 images of 480 x 640, 5 categories, about 8 objects per image drawn as polygons of
  8-16 vertices (1 % crowd regions, stored as RLEs), two noisy detections per object and about 4
  random false positives per image, all as compressed RLEs (the COCO results format).
* **keypoints**: 2,000 images, about 5 people per image with the 17 COCO keypoints (a third of them
  unlabelled, 2 % crowd), two noisy detections per person and 3 random ones per image.
* **RLE encode**: 200 masks of 480 x 640 (blobs); **RLE IoU**: 300 x 300 of those masks.

Every library starts from the same Python objects and runs to the summary numbers, which must agree
to 1e-9 (RLE counts bit for bit, IoU to 1e-12) before anything is timed.  pycocotools' evaluation
runs for seconds on these sets, so its parity run is also its timing (one run, memory not traced).

Targets (issue #16): evaluation at least 5x pycocotools and no slower than faster-coco-eval (ratio
>= 1); RLE encode and IoU within 2x of pycocotools' C (ratio >= 0.5).
"""

from __future__ import annotations

import contextlib
import copy
import io
import time

import numpy as np

from _harness import Measurement, measure, report
from mltutor.detection import evaluate_coco
from mltutor.detection import mask as mt_mask

N_IMAGES = 2_000
HEIGHT, WIDTH = 480, 640
TARGET_PYCOCOTOOLS = 5.0
TARGET_FASTER = 1.0
TARGET_C = 0.5


def _polygon(rng: np.random.Generator, cx: float, cy: float, r: float) -> np.ndarray:
    k = int(rng.integers(8, 17))
    angle = np.sort(rng.uniform(0, 2 * np.pi, k))
    radius = r * rng.uniform(0.5, 1.0, k)
    x = np.clip(cx + radius * np.cos(angle), 0, WIDTH - 1)
    y = np.clip(cy + radius * np.sin(angle), 0, HEIGHT - 1)
    return np.stack([x, y], axis=1).reshape(-1)


def make_segm_dataset(seed: int = 0) -> tuple[dict, list[dict]]:
    import pycocotools.mask as coco_mask

    rng = np.random.default_rng(seed)
    annotations, detections = [], []
    for img in range(1, N_IMAGES + 1):
        for _ in range(int(rng.poisson(8))):
            cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
            r = float(np.exp(rng.uniform(np.log(4), np.log(120))))
            poly = _polygon(rng, cx, cy, r)
            rle = coco_mask.merge(coco_mask.frPyObjects([poly.tolist()], HEIGHT, WIDTH))
            crowd = rng.random() < 0.01
            cat = int(rng.integers(1, 6))
            area = float(coco_mask.area(rle))
            annotations.append({
                "id": len(annotations) + 1, "image_id": img, "category_id": cat,
                "segmentation": {"size": rle["size"], "counts": rle["counts"].decode()} if crowd else [poly.tolist()],
                "area": area, "bbox": coco_mask.toBbox(rle).tolist(), "iscrowd": int(crowd),
            })
            for _ in range(2):
                noisy = poly + rng.normal(0, 0.08 * r, poly.shape)
                detections.append((img, cat, noisy, float(np.round(rng.uniform(0.3, 1.0), 2))))
        for _ in range(int(rng.poisson(4))):
            poly = _polygon(rng, rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), float(rng.uniform(4, 60)))
            detections.append((img, int(rng.integers(1, 6)), poly, float(np.round(rng.uniform(0.0, 0.6), 2))))
    results = []
    for img, cat, poly, score in detections:
        rle = coco_mask.merge(coco_mask.frPyObjects([poly.tolist()], HEIGHT, WIDTH))
        results.append({"image_id": img, "category_id": cat, "score": score,
                        "segmentation": {"size": rle["size"], "counts": rle["counts"].decode()}})
    coco_gt = {"images": [{"id": i, "height": HEIGHT, "width": WIDTH} for i in range(1, N_IMAGES + 1)],
               "categories": [{"id": c} for c in range(1, 6)], "annotations": annotations}
    return coco_gt, results


def make_keypoint_dataset(seed: int = 0) -> tuple[dict, list[dict]]:
    rng = np.random.default_rng(seed)
    annotations, detections = [], []
    for img in range(1, N_IMAGES + 1):
        for _ in range(int(rng.poisson(5))):
            x, y = rng.uniform(0, WIDTH - 50), rng.uniform(0, HEIGHT - 80)
            w, h = float(rng.uniform(10, 200)), float(rng.uniform(20, 300))
            xy = np.stack([x + rng.uniform(0, w, 17), y + rng.uniform(0, h, 17)], axis=1)
            v = rng.choice([0, 1, 2], 17, p=[0.3, 0.2, 0.5])
            labelled = np.where(v[:, None] > 0, xy, 0.0)
            area = w * h * float(rng.uniform(0.4, 0.8))
            annotations.append({
                "id": len(annotations) + 1, "image_id": img, "category_id": 1,
                "keypoints": np.column_stack([labelled, v]).reshape(-1).tolist(),
                "num_keypoints": int((v > 0).sum()), "area": area, "bbox": [x, y, w, h],
                "iscrowd": int(rng.random() < 0.02),
            })
            for _ in range(2):
                d = xy + rng.normal(0, 0.05 * np.sqrt(area), xy.shape)
                detections.append({"image_id": img, "category_id": 1, "score": float(np.round(rng.random(), 2)),
                                   "keypoints": np.column_stack([d, np.ones(17)]).reshape(-1).tolist()})
        for _ in range(3):
            d = rng.uniform(0, 1, (17, 2)) * [WIDTH, HEIGHT]
            detections.append({"image_id": img, "category_id": 1, "score": float(np.round(rng.random() * 0.5, 2)),
                               "keypoints": np.column_stack([d, np.ones(17)]).reshape(-1).tolist()})
    coco_gt = {"images": [{"id": i, "height": HEIGHT, "width": WIDTH} for i in range(1, N_IMAGES + 1)],
               "categories": [{"id": 1, "name": "person"}], "annotations": annotations}
    return coco_gt, detections


def pycocotools_stats(coco_gt: dict, detections: list[dict], iou_type: str) -> np.ndarray:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = coco_gt
        gt.createIndex()
        evaluator = COCOeval(gt, gt.loadRes(detections), iouType=iou_type)
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return evaluator.stats


def faster_coco_eval_stats(coco_gt: dict, detections: list[dict], iou_type: str) -> np.ndarray:
    from faster_coco_eval import COCO, COCOeval_faster

    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(coco_gt)
        evaluator = COCOeval_faster(gt, gt.loadRes(detections), iouType=iou_type, print_function=lambda *a: None)
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return np.asarray(evaluator.stats)


def _fresh(inputs: tuple[dict, list[dict]]) -> tuple[dict, list[dict]]:
    """The ground truth and shallow copies of the result dicts: pycocotools' ``loadRes`` adds a numpy
    ``bbox`` to every mask or keypoint result, which its next ``loadRes`` cannot read."""
    return inputs[0], [dict(d) for d in inputs[1]]


def _evaluation_rows(name: str, coco_gt: dict, detections: list[dict], iou_type: str, repeats: int) -> list[dict]:
    n_stats = 10 if iou_type == "keypoints" else 12
    inputs = {k: (copy.deepcopy(coco_gt), copy.deepcopy(detections)) for k in ("ours", "pyc", "fce")}
    print(f"{name}: {len(coco_gt['images']):,} images, {len(coco_gt['annotations']):,} objects, "
          f"{len(detections):,} detections")
    ours = evaluate_coco(*_fresh(inputs["ours"]), iou_type=iou_type)["stats"]
    start = time.perf_counter()
    ref = pycocotools_stats(*_fresh(inputs["pyc"]), iou_type)
    # pycocotools takes seconds here: its parity run is its (single) timing, memory not traced.
    pyc = Measurement("pycocotools", time.perf_counter() - start, float("nan"))
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-9)
    fce = faster_coco_eval_stats(*_fresh(inputs["fce"]), iou_type)[:n_stats]
    print("AP, AP50, AP75:", np.round(ours[:3], 4).tolist(),
          f"| faster-coco-eval max |difference| vs pycocotools {np.abs(fce - ref).max():.2g}")
    mine = measure("mltutor", lambda: evaluate_coco(*_fresh(inputs["ours"]), iou_type=iou_type), repeats)
    return [
        report(f"evaluate_coco {iou_type} vs pycocotools", mine, pyc, TARGET_PYCOCOTOOLS),
        report(f"evaluate_coco {iou_type} vs faster-coco-eval", mine,
               measure("faster-coco-eval", lambda: faster_coco_eval_stats(*_fresh(inputs["fce"]), iou_type), repeats),
               TARGET_FASTER),
    ]


def _mask_stack(n: int, seed: int = 1) -> np.ndarray:
    import pycocotools.mask as coco_mask

    rng = np.random.default_rng(seed)
    polys = [_polygon(rng, rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), float(rng.uniform(10, 150))).tolist()
             for _ in range(n)]
    return coco_mask.decode(coco_mask.frPyObjects(polys, HEIGHT, WIDTH))


def _rle_rows(repeats: int) -> list[dict]:
    import pycocotools.mask as coco_mask

    masks = np.asfortranarray(_mask_stack(200))
    ref = coco_mask.encode(masks)
    assert [r["counts"] for r in mt_mask.encode(masks)] == [r["counts"] for r in ref]
    rows = [report("mask.encode (200 x 480x640) vs pycocotools C",
                   measure("mltutor", lambda: mt_mask.encode(masks), repeats),
                   measure("pycocotools", lambda: coco_mask.encode(masks), repeats), TARGET_C)]
    dt = coco_mask.encode(np.asfortranarray(_mask_stack(300, seed=2)))
    gt = coco_mask.encode(np.asfortranarray(_mask_stack(300, seed=3)))
    crowd = [i % 10 == 0 for i in range(len(gt))]
    np.testing.assert_allclose(mt_mask.iou(dt, gt, crowd), coco_mask.iou(dt, gt, crowd), rtol=0, atol=1e-12)
    rows.append(report("mask.iou (300 x 300 RLEs) vs pycocotools C",
                       measure("mltutor", lambda: mt_mask.iou(dt, gt, crowd), repeats),
                       measure("pycocotools", lambda: coco_mask.iou(dt, gt, crowd), repeats), TARGET_C))
    return rows


def run(repeats: int = 3) -> list[dict]:
    rows = _rle_rows(repeats)
    rows += _evaluation_rows("segm", *make_segm_dataset(), "segm", repeats)
    rows += _evaluation_rows("keypoints", *make_keypoint_dataset(), "keypoints", repeats)
    return rows


if __name__ == "__main__":
    run()
