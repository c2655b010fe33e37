"""evaluate_coco against the two Rust evaluators, hotcoco and ultrafast-pycocotools (issue 28).

Both claim bit-exactness with pycocotools; here mltutor's summary numbers must equal theirs bit for
bit (``assert_array_equal``, not a tolerance) on a few generated sets per iou type: boxes (with crowd
regions, tied scores, several categories), masks (polygon ground truth and crowd RLEs, RLE results)
and keypoints (unlabelled keypoints, objects without any, crowd).  Each library reads the same JSON
files, as a user would give them.  Skipped when either package is missing (they are test-only
dependencies, pinned in requirements.txt).
"""

from __future__ import annotations

import contextlib
import io
import json
import os

import numpy as np
import pytest

from mltutor.detection import evaluate_coco

hotcoco = pytest.importorskip("hotcoco")
ultrafast = pytest.importorskip("ultrafast_pycocotools")
coco_mask = pytest.importorskip("pycocotools.mask")

H, W = 120, 160


@contextlib.contextmanager
def _quiet():
    """Both print their summary from native code, past ``sys.stdout``: silence descriptor 1."""
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        with contextlib.redirect_stdout(io.StringIO()):
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def _rust_stats(tmp_path, coco_gt: dict, detections: list[dict], iou_type: str) -> dict:
    gt_path, dt_path = tmp_path / "gt.json", tmp_path / "dt.json"
    gt_path.write_text(json.dumps(coco_gt))
    dt_path.write_text(json.dumps(detections))
    n = 10 if iou_type == "keypoints" else 12
    out = {}
    with _quiet():
        gt = hotcoco.COCO(str(gt_path))
        ev = hotcoco.COCOeval(gt, gt.load_res(str(dt_path)), iou_type)
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
        out["hotcoco"] = np.asarray(ev.stats)[:n]
        gt = ultrafast.COCO(str(gt_path))
        ev = ultrafast.COCOeval(gt, gt.loadRes(str(dt_path)), iou_type)
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
        out["ultrafast"] = np.asarray(ev.stats)[:n]
    return out


def _images(n: int) -> list[dict]:
    return [{"id": i, "height": H, "width": W} for i in range(1, n + 1)]


def _box_set(seed: int) -> tuple[dict, list[dict]]:
    rng = np.random.default_rng(seed)
    anns, dets = [], []
    for img in range(1, 21):
        for _ in range(int(rng.integers(0, 8))):
            w, h = (
                float(np.exp(rng.uniform(np.log(4), np.log(120)))),
                float(np.exp(rng.uniform(np.log(4), np.log(120)))),
            )
            x, y = float(rng.uniform(0, W)), float(rng.uniform(0, H))
            cat = int(rng.integers(1, 4))
            anns.append(
                {
                    "id": len(anns) + 1,
                    "image_id": img,
                    "category_id": cat,
                    "bbox": [x, y, w, h],
                    "area": w * h * float(rng.uniform(0.5, 1)),
                    "iscrowd": int(rng.random() < 0.05),
                }
            )
            for _ in range(int(rng.integers(0, 4))):
                j = rng.normal(0, 0.15, 4)
                dets.append(
                    {
                        "image_id": img,
                        "category_id": cat if rng.random() > 0.1 else int(rng.integers(1, 4)),
                        "bbox": [x + j[0] * w, y + j[1] * h, w * np.exp(j[2]), h * np.exp(j[3])],
                        "score": round(float(rng.random()), 1),
                    }
                )  # one decimal: many ties
        for _ in range(int(rng.integers(0, 5))):
            dets.append(
                {
                    "image_id": img,
                    "category_id": int(rng.integers(1, 4)),
                    "bbox": [*rng.uniform(0, 100, 2).tolist(), *rng.uniform(2, 60, 2).tolist()],
                    "score": round(float(rng.random()), 1),
                }
            )
    gt = {
        "images": _images(20),
        "categories": [{"id": c, "name": f"c{c}"} for c in (1, 2, 3)],
        "annotations": anns,
    }
    return gt, [dict(d, bbox=[float(v) for v in d["bbox"]]) for d in dets]


def _polygon(rng, cx: float, cy: float, r: float) -> list[float]:
    k = int(rng.integers(5, 12))
    angle = np.sort(rng.uniform(0, 2 * np.pi, k))
    radius = r * rng.uniform(0.5, 1.0, k)
    x = np.clip(cx + radius * np.cos(angle), 0, W - 1)
    y = np.clip(cy + radius * np.sin(angle), 0, H - 1)
    return np.stack([x, y], axis=1).reshape(-1).tolist()


def _rle(poly: list[float]) -> dict:
    rle = coco_mask.merge(coco_mask.frPyObjects([poly], H, W))
    return {"size": rle["size"], "counts": rle["counts"].decode()}


def _segm_set(seed: int) -> tuple[dict, list[dict]]:
    rng = np.random.default_rng(seed)
    anns, dets = [], []
    for img in range(1, 13):
        for _ in range(int(rng.integers(0, 6))):
            poly = _polygon(
                rng,
                rng.uniform(0, W),
                rng.uniform(0, H),
                float(np.exp(rng.uniform(np.log(3), np.log(60)))),
            )
            crowd = rng.random() < 0.08
            cat = int(rng.integers(1, 3))
            merged = coco_mask.merge(coco_mask.frPyObjects([poly], H, W))
            anns.append(
                {
                    "id": len(anns) + 1,
                    "image_id": img,
                    "category_id": cat,
                    "segmentation": _rle(poly) if crowd else [poly],
                    "iscrowd": int(crowd),
                    "area": float(coco_mask.area(merged)),
                    "bbox": coco_mask.toBbox(merged).tolist(),
                }
            )
            for _ in range(int(rng.integers(0, 3))):
                noisy = (
                    (np.asarray(poly) + rng.normal(0, 2.0, len(poly)))
                    .clip(0, min(H, W) - 1)
                    .tolist()
                )
                dets.append(
                    {
                        "image_id": img,
                        "category_id": cat,
                        "segmentation": _rle(noisy),
                        "score": round(float(rng.random()), 1),
                    }
                )
        for _ in range(int(rng.integers(0, 3))):
            dets.append(
                {
                    "image_id": img,
                    "category_id": int(rng.integers(1, 3)),
                    "segmentation": _rle(_polygon(rng, rng.uniform(0, W), rng.uniform(0, H), 10.0)),
                    "score": round(float(rng.random()), 1),
                }
            )
    gt = {
        "images": _images(12),
        "categories": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}],
        "annotations": anns,
    }
    return gt, dets


def _keypoint_set(seed: int) -> tuple[dict, list[dict]]:
    rng = np.random.default_rng(seed)
    anns, dets = [], []
    for img in range(1, 16):
        for _ in range(int(rng.integers(0, 5))):
            x, y = float(rng.uniform(0, W - 40)), float(rng.uniform(0, H - 60))
            w, h = float(rng.uniform(10, 60)), float(rng.uniform(20, 80))
            xy = np.stack([x + rng.uniform(0, w, 17), y + rng.uniform(0, h, 17)], axis=1)
            v = rng.choice([0, 1, 2], 17, p=[0.3, 0.2, 0.5]) * (
                rng.random() > 0.1
            )  # some with none
            area = w * h * float(rng.uniform(0.4, 0.8))
            anns.append(
                {
                    "id": len(anns) + 1,
                    "image_id": img,
                    "category_id": 1,
                    "keypoints": np.column_stack([np.where(v[:, None] > 0, xy, 0.0), v])
                    .reshape(-1)
                    .tolist(),
                    "num_keypoints": int((v > 0).sum()),
                    "area": area,
                    "bbox": [x, y, w, h],
                    "iscrowd": int(rng.random() < 0.05),
                }
            )
            for _ in range(int(rng.integers(0, 3))):
                d = xy + rng.normal(0, 0.08 * np.sqrt(area), xy.shape)
                dets.append(
                    {
                        "image_id": img,
                        "category_id": 1,
                        "score": round(float(rng.random()), 1),
                        "keypoints": np.column_stack([d, np.ones(17)]).reshape(-1).tolist(),
                    }
                )
        for _ in range(int(rng.integers(0, 3))):
            d = rng.uniform(0, 1, (17, 2)) * [W, H]
            dets.append(
                {
                    "image_id": img,
                    "category_id": 1,
                    "score": round(float(rng.random()), 1),
                    "keypoints": np.column_stack([d, np.ones(17)]).reshape(-1).tolist(),
                }
            )
    gt = {"images": _images(15), "categories": [{"id": 1, "name": "person"}], "annotations": anns}
    return gt, dets


SETS = {"bbox": _box_set, "segm": _segm_set, "keypoints": _keypoint_set}


@pytest.mark.parametrize("iou_type", list(SETS))
@pytest.mark.parametrize("seed", range(4))
def test_evaluate_coco_equals_hotcoco_and_ultrafast_bit_for_bit(tmp_path, iou_type, seed):
    coco_gt, detections = SETS[iou_type](seed)
    assert detections and coco_gt["annotations"]
    ours = evaluate_coco(
        json.loads(json.dumps(coco_gt)), json.loads(json.dumps(detections)), iou_type=iou_type
    )["stats"]
    for name, theirs in _rust_stats(tmp_path, coco_gt, detections, iou_type).items():
        np.testing.assert_array_equal(ours, theirs, err_msg=f"{name}, {iou_type}, seed {seed}")
