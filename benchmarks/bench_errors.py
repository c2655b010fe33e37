"""The TIDE error breakdown against tidecv (the authors' package): causes, counts and ΔAP per cause.

A synthetic box set of 2,000 images, 10 categories, about 20,000 objects (no crowd regions: tidecv has
none) and about 60,000 detections: two noisy detections near each object (a few with the wrong
label, some loose enough to be localisation errors or duplicates) and about 10 random false positives
per image.  Scores and boxes are continuous, so that no two detections tie — tidecv and pycocotools
break ties differently.  Each category's object count is kept prime to 100, before and after the
"missed" fix deletes its missed objects: tidecv samples precision at recall ``i / 100``, pycocotools at
``np.linspace(0, 1, 101)``, and the two differ in the last bit at some thresholds, which a recall
``k / n`` can hit exactly only when ``n`` shares a factor with 100.  (A few objects found exactly and a
few never detected, far from everything else, are added to set the counts.)

Both libraries start from the same Python objects and run to AP50, the six ΔAP values and the error
counts (tidecv: ``Data`` objects filled record by record, ``TIDE.evaluate``, ``get_main_errors``;
mltutor: ``error_breakdown``), which must agree — AP and ΔAP to 1e-9, counts exactly — before
anything is timed.

Target: no slower than tidecv (ratio >= 1); no issue sets a higher one.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
from _harness import measure, report
from bench_detection import as_coco

from mltutor.detection import CAUSES, error_breakdown

N_IMAGES = 2_000
N_CATEGORIES = 10
GT_PER_IMAGE = 10
FP_PER_IMAGE = 10
TARGET_TIDECV = 1.0


def make_dataset(seed: int = 0) -> tuple[dict, list[dict]]:
    """A COCO ground-truth dict and a result list (see the module docstring)."""
    rng = np.random.default_rng(seed)
    n_gt = N_IMAGES * GT_PER_IMAGE
    gt_img = rng.integers(0, N_IMAGES, n_gt)
    gt_cat = rng.integers(0, N_CATEGORIES, n_gt)
    wh = np.exp(rng.uniform(np.log(8), np.log(300), (n_gt, 2)))
    xy = rng.uniform(0, 640, (n_gt, 2))
    annotations = [
        {
            "id": i + 1,
            "image_id": int(gt_img[i]) + 1,
            "category_id": int(gt_cat[i]) + 1,
            "bbox": [float(xy[i, 0]), float(xy[i, 1]), float(wh[i, 0]), float(wh[i, 1])],
            "area": float(wh[i, 0] * wh[i, 1]),
            "iscrowd": 0,
        }
        for i in range(n_gt)
    ]
    # Two detections per object: a jittered box (sometimes a loose one) and, 5 % of the time, the
    # wrong label; the closer box tends to get the higher score.
    src = np.repeat(np.arange(n_gt), 2)
    spread = np.where(rng.random(src.shape[0]) < 0.2, 0.35, 0.1)
    noise = rng.normal(0, 1, (src.shape[0], 4)) * spread[:, None]
    d_xy = xy[src] + noise[:, :2] * wh[src]
    d_wh = wh[src] * np.exp(noise[:, 2:])
    d_score = np.clip(0.9 - np.abs(noise).sum(axis=1) + rng.normal(0, 0.1, src.shape[0]), 0.01, 1.0)
    d_cat = np.where(
        rng.random(src.shape[0]) < 0.05, rng.integers(0, N_CATEGORIES, src.shape[0]), gt_cat[src]
    )
    # Random false positives.
    n_fp = N_IMAGES * FP_PER_IMAGE
    f_wh = np.exp(rng.uniform(np.log(8), np.log(300), (n_fp, 2)))
    f_xy = rng.uniform(0, 640, (n_fp, 2))
    boxes = np.concatenate([np.hstack([d_xy, d_wh]), np.hstack([f_xy, f_wh])])
    scores = np.concatenate([d_score, rng.uniform(0.01, 0.6, n_fp)]) + rng.uniform(
        0, 1e-6, src.shape[0] + n_fp
    )
    imgs = np.concatenate([gt_img[src], rng.integers(0, N_IMAGES, n_fp)])
    cats = np.concatenate([d_cat, rng.integers(0, N_CATEGORIES, n_fp)])
    coco_gt, detections = as_coco(
        annotations, boxes, scores, imgs, cats, rng.permutation(boxes.shape[0])
    )
    _counts_prime_to_100(coco_gt, detections)
    return coco_gt, detections


def _counts_prime_to_100(coco_gt: dict, detections: list[dict]) -> None:
    """Add, per category, a few objects found exactly (n and n - missed grow by 1) and a few never
    detected (n grows by 1) until both counts are prime to 100.  They sit at x, y >= 2,000, away from
    every other box, so no other error changes its cause."""
    causes = np.array(error_breakdown(coco_gt, detections)["annotation_cause"])
    cats = np.array([a["category_id"] for a in coco_gt["annotations"]])
    spot = 0
    for c in range(1, N_CATEGORIES + 1):
        n = int((cats == c).sum())
        kept = n - int(((cats == c) & (causes == "missed")).sum())
        found, lost = next(
            (f, m)
            for f in range(10)
            for m in range(10)
            if np.gcd(n + f + m, 100) == 1 and np.gcd(kept + f, 100) == 1
        )
        for k in range(found + lost):
            spot += 1
            box = [2000.0 + 20 * spot, 2000.0, 10.0, 10.0]
            coco_gt["annotations"].append(
                {
                    "id": len(coco_gt["annotations"]) + 1,
                    "image_id": 1,
                    "category_id": c,
                    "bbox": box,
                    "area": 100.0,
                    "iscrowd": 0,
                }
            )
            if k < found:
                detections.append(
                    {
                        "image_id": 1,
                        "category_id": c,
                        "bbox": list(box),
                        "score": 0.95 + 1e-4 * spot,
                    }
                )


def tidecv_breakdown(coco_gt: dict, detections: list[dict]) -> tuple[float, dict, dict]:
    """AP50, ΔAP per cause and error counts from tidecv, fed record by record (its own API)."""
    import tidecv

    names = dict(zip(["Cls", "Loc", "Both", "Dupe", "Bkg", "Miss"], CAUSES))
    with contextlib.redirect_stdout(io.StringIO()):
        gt, dets = tidecv.Data("gt"), tidecv.Data("dets")
        for im in coco_gt["images"]:
            gt.add_image(im["id"], str(im["id"]))
        for a in coco_gt["annotations"]:
            gt.add_ground_truth(a["image_id"], a["category_id"], list(a["bbox"]))
        for d in detections:
            dets.add_detection(d["image_id"], d["category_id"], d["score"], list(d["bbox"]))
        tide = tidecv.TIDE()
        run = tide.evaluate(gt, dets, mode=tidecv.TIDE.BOX)
        main = tide.get_main_errors()["dets"]
    counts = {names[t.short_name]: n for t, n in run.count_errors().items()}
    return run.ap / 100, {names[k]: v / 100 for k, v in main.items()}, counts


def run(repeats: int = 3) -> list[dict]:
    coco_gt, detections = make_dataset()
    print(
        f"{len(coco_gt['images']):,} images, {len(coco_gt['categories'])} categories, "
        f"{len(coco_gt['annotations']):,} objects, {len(detections):,} detections"
    )
    ours = error_breakdown(coco_gt, detections)
    ap, delta, counts = tidecv_breakdown(coco_gt, detections)
    assert abs(ours["AP"] - ap) <= 1e-9, (ours["AP"], ap)
    assert ours["counts"] == counts, (ours["counts"], counts)
    for cause in CAUSES:
        assert abs(ours["delta_AP"][cause] - delta[cause]) <= 1e-9, (
            cause,
            ours["delta_AP"][cause],
            delta[cause],
        )
    print(
        "AP50",
        round(ours["AP"], 4),
        "| ΔAP",
        {c: round(v, 4) for c, v in ours["delta_AP"].items()},
        "| counts",
        ours["counts"],
    )
    return [
        report(
            "error_breakdown (TIDE) vs tidecv",
            measure("mltutor", lambda: error_breakdown(coco_gt, detections), repeats),
            measure("tidecv", lambda: tidecv_breakdown(coco_gt, detections), repeats),
            TARGET_TIDECV,
        )
    ]


if __name__ == "__main__":
    run()
