"""Masks and keypoints against pycocotools, faster-coco-eval and the Rust evaluators hotcoco and
ultrafast-pycocotools: COCO 'segm' and 'keypoints' evaluation of synthetic sets, and RLE encode /
IoU / merge against pycocotools' C.

* **segm**: 500 images of 480 x 640, 5 categories, about 5 objects per image drawn as polygons of
  8-16 vertices (1 % crowd regions, stored as RLEs), two noisy detections per object and about 2.4
  random false positives per image (about 6,400 detections), all as compressed RLEs (the COCO
  results format).
* **keypoints**: 2,000 images, about 1.5 people per image with the 17 COCO keypoints (a third of them
  unlabelled, 2 % crowd), two noisy detections per person and 2 random ones per image (about 10,000
  detections).
* **RLE encode**: 200 masks of 480 x 640 (blobs); **RLE IoU**: 300 x 300 of those masks; **RLE
  merge**: the union of 50 of them, 20 times.

The evaluations run as :func:`bench_detection.coco_comparison` does: the same JSON files for every
library, the summary numbers bit-for-bit equal across pycocotools, hotcoco, ultrafast and mltutor,
round-robin medians, peak RSS of a fresh process per library.  The RLE functions must agree with
pycocotools (counts bit for bit, IoU to 1e-12) before they are timed.

Targets (issues #16, #28): evaluation at least 5x pycocotools (same-run ratio) and, on parsed dicts,
no slower than the fastest Rust evaluator's file-to-stats time; RLE encode, IoU and merge at least
as fast as pycocotools' C (ratio >= 1).
"""

from __future__ import annotations

import numpy as np
from _harness import measure, report
from bench_detection import coco_comparison, print_table, records

from mltutor.detection import mask as mt_mask

HEIGHT, WIDTH = 480, 640
TARGET_PYCOCOTOOLS = 5.0
TARGET_C = 1.0


def _polygon(rng: np.random.Generator, cx: float, cy: float, r: float) -> np.ndarray:
    k = int(rng.integers(8, 17))
    angle = np.sort(rng.uniform(0, 2 * np.pi, k))
    radius = r * rng.uniform(0.5, 1.0, k)
    x = np.clip(cx + radius * np.cos(angle), 0, WIDTH - 1)
    y = np.clip(cy + radius * np.sin(angle), 0, HEIGHT - 1)
    return np.stack([x, y], axis=1).reshape(-1)


def make_segm_dataset(
    seed: int = 0, *, n_images: int = 500, objects: float = 5.2, false_positives: float = 2.4
) -> tuple[dict, list[dict]]:
    import pycocotools.mask as coco_mask

    rng = np.random.default_rng(seed)
    annotations, detections = [], []
    for img in range(1, n_images + 1):
        for _ in range(int(rng.poisson(objects))):
            cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
            r = float(np.exp(rng.uniform(np.log(4), np.log(120))))
            poly = _polygon(rng, cx, cy, r)
            rle = coco_mask.merge(coco_mask.frPyObjects([poly.tolist()], HEIGHT, WIDTH))
            crowd = rng.random() < 0.01
            cat = int(rng.integers(1, 6))
            area = float(coco_mask.area(rle))
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": img,
                    "category_id": cat,
                    "segmentation": {"size": rle["size"], "counts": rle["counts"].decode()}
                    if crowd
                    else [poly.tolist()],
                    "area": area,
                    "bbox": coco_mask.toBbox(rle).tolist(),
                    "iscrowd": int(crowd),
                }
            )
            for _ in range(2):
                noisy = poly + rng.normal(0, 0.08 * r, poly.shape)
                detections.append((img, cat, noisy, float(np.round(rng.uniform(0.3, 1.0), 2))))
        for _ in range(int(rng.poisson(false_positives))):
            poly = _polygon(
                rng, rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), float(rng.uniform(4, 60))
            )
            detections.append(
                (img, int(rng.integers(1, 6)), poly, float(np.round(rng.uniform(0.0, 0.6), 2)))
            )
    results = []
    for img, cat, poly, score in detections:
        rle = coco_mask.merge(coco_mask.frPyObjects([poly.tolist()], HEIGHT, WIDTH))
        results.append(
            {
                "image_id": img,
                "category_id": cat,
                "score": score,
                "segmentation": {"size": rle["size"], "counts": rle["counts"].decode()},
            }
        )
    coco_gt = {
        "images": [{"id": i, "height": HEIGHT, "width": WIDTH} for i in range(1, n_images + 1)],
        "categories": [{"id": c, "name": f"class{c}"} for c in range(1, 6)],
        "annotations": annotations,
    }
    return coco_gt, results


def make_keypoint_dataset(
    seed: int = 0, *, n_images: int = 2_000, people: float = 1.5, false_positives: int = 2
) -> tuple[dict, list[dict]]:
    rng = np.random.default_rng(seed)
    annotations, detections = [], []
    for img in range(1, n_images + 1):
        for _ in range(int(rng.poisson(people))):
            x, y = rng.uniform(0, WIDTH - 50), rng.uniform(0, HEIGHT - 80)
            w, h = float(rng.uniform(10, 200)), float(rng.uniform(20, 300))
            xy = np.stack([x + rng.uniform(0, w, 17), y + rng.uniform(0, h, 17)], axis=1)
            v = rng.choice([0, 1, 2], 17, p=[0.3, 0.2, 0.5])
            labelled = np.where(v[:, None] > 0, xy, 0.0)
            area = w * h * float(rng.uniform(0.4, 0.8))
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": img,
                    "category_id": 1,
                    "keypoints": np.column_stack([labelled, v]).reshape(-1).tolist(),
                    "num_keypoints": int((v > 0).sum()),
                    "area": area,
                    "bbox": [x, y, w, h],
                    "iscrowd": int(rng.random() < 0.02),
                }
            )
            for _ in range(2):
                d = xy + rng.normal(0, 0.05 * np.sqrt(area), xy.shape)
                detections.append(
                    {
                        "image_id": img,
                        "category_id": 1,
                        "score": float(np.round(rng.random(), 2)),
                        "keypoints": np.column_stack([d, np.ones(17)]).reshape(-1).tolist(),
                    }
                )
        for _ in range(false_positives):
            d = rng.uniform(0, 1, (17, 2)) * [WIDTH, HEIGHT]
            detections.append(
                {
                    "image_id": img,
                    "category_id": 1,
                    "score": float(np.round(rng.random() * 0.5, 2)),
                    "keypoints": np.column_stack([d, np.ones(17)]).reshape(-1).tolist(),
                }
            )
    coco_gt = {
        "images": [{"id": i, "height": HEIGHT, "width": WIDTH} for i in range(1, n_images + 1)],
        "categories": [{"id": 1, "name": "person"}],
        "annotations": annotations,
    }
    return coco_gt, detections


def _mask_stack(n: int, seed: int = 1) -> np.ndarray:
    import pycocotools.mask as coco_mask

    rng = np.random.default_rng(seed)
    polys = [
        _polygon(
            rng, rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), float(rng.uniform(10, 150))
        ).tolist()
        for _ in range(n)
    ]
    return coco_mask.decode(coco_mask.frPyObjects(polys, HEIGHT, WIDTH))


def _rle_rows(repeats: int) -> list[dict]:
    import pycocotools.mask as coco_mask

    masks = np.asfortranarray(_mask_stack(200))
    ref = coco_mask.encode(masks)
    assert [r["counts"] for r in mt_mask.encode(masks)] == [r["counts"] for r in ref]
    rows = [
        report(
            "mask.encode (200 x 480x640) vs pycocotools C",
            measure("mltutor", lambda: mt_mask.encode(masks), repeats),
            measure("pycocotools", lambda: coco_mask.encode(masks), repeats),
            TARGET_C,
        )
    ]
    dt = coco_mask.encode(np.asfortranarray(_mask_stack(300, seed=2)))
    gt = coco_mask.encode(np.asfortranarray(_mask_stack(300, seed=3)))
    crowd = [i % 10 == 0 for i in range(len(gt))]
    np.testing.assert_allclose(
        mt_mask.iou(dt, gt, crowd), coco_mask.iou(dt, gt, crowd), rtol=0, atol=1e-12
    )
    rows.append(
        report(
            "mask.iou (300 x 300 RLEs) vs pycocotools C",
            measure("mltutor", lambda: mt_mask.iou(dt, gt, crowd), repeats),
            measure("pycocotools", lambda: coco_mask.iou(dt, gt, crowd), repeats),
            TARGET_C,
        )
    )
    groups = [dt[i : i + 50] for i in range(0, 300, 15)][:20]  # 20 unions of 50 overlapping masks
    for intersect in (False, True):
        assert all(
            mt_mask.merge(g, intersect=intersect)["counts"]
            == coco_mask.merge(g, intersect=intersect)["counts"]
            for g in groups
        )
    rows.append(
        report(
            "mask.merge (20 x 50 RLEs, union) vs pycocotools C",
            measure("mltutor", lambda: [mt_mask.merge(g) for g in groups], repeats),
            measure("pycocotools", lambda: [coco_mask.merge(g) for g in groups], repeats),
            TARGET_C,
        )
    )
    return rows


def _versus_pycocotools(row: dict) -> dict:
    """The same-run ratio to pycocotools, both from file (issue #16's target)."""
    s = row["seconds"]
    ratio = s["pycocotools"] / s["mltutor"]
    verdict = "meets" if ratio >= TARGET_PYCOCOTOOLS else "MISSES"
    print(
        f"  {row['iou_type']}: pycocotools {s['pycocotools']:.3f} s / mltutor from file {s['mltutor']:.3f} s = "
        f"{ratio:.1f}x ({verdict} target {TARGET_PYCOCOTOOLS:g}x); on parsed dicts "
        f"{s['pycocotools'] / s['mltutor on parsed dicts']:.1f}x"
        + (
            f"; from file with orjson {s['pycocotools'] / s['mltutor+orjson']:.1f}x"
            if "mltutor+orjson" in s
            else ""
        )
    )
    return {
        "benchmark": f"evaluate_coco {row['iou_type']} ({row['work']}) from file vs pycocotools from file",
        "mltutor_s": s["mltutor"],
        "reference": "pycocotools",
        "reference_s": s["pycocotools"],
        "ratio": ratio,
        "target": TARGET_PYCOCOTOOLS,
    }


def run(repeats: int = 3, table: bool = True) -> list[dict]:
    out = _rle_rows(max(repeats, 5))
    repeats = max(repeats, 7)  # small sets: more runs for a stable median
    segm, keypoints = make_segm_dataset(), make_keypoint_dataset()
    rows = [
        coco_comparison(
            f"masks, 500 images, {len(segm[1]) / 1000:.1f}k detections",
            *segm,
            "segm",
            repeats,
            pyc_repeats=repeats,
        ),
        coco_comparison(
            f"keypoints, 2,000 images, {len(keypoints[1]) / 1000:.1f}k detections",
            *keypoints,
            "keypoints",
            repeats,
            pyc_repeats=5,
        ),
    ]
    for row in rows:
        out.append(_versus_pycocotools(row))
        out += records(row)
    if table:
        print_table(rows)
    return out


if __name__ == "__main__":
    run()
