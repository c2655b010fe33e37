"""COCO box evaluation against pycocotools, faster-coco-eval (C++) and the two Rust evaluators,
hotcoco and ultrafast-pycocotools, on synthetic sets written to JSON files.

* **boxes**: 2,000 images, 10 categories, about 20,000 ground-truth boxes (1 % crowd, sizes from
  small to large, ``area`` a little below the box area as a mask's would be) and about 60,000
  detections (two noisy detections near each object, plus about 10 random false positives per
  image; scores rounded to two decimals so that ties occur).
* **val2017-sized boxes**: the same recipe at COCO val2017's size — 5,000 images, 80 categories,
  about 36,000 objects, and 100 detections per image (the two near each object, the rest random),
  500,000 in all.

Each library loads the same two JSON files and runs to the 12 summary numbers (pycocotools' and
ultrafast's ``COCO`` + ``loadRes`` + ``COCOeval``, faster-coco-eval's ``COCOeval_faster``, hotcoco's
``COCO`` + ``load_res`` + ``COCOeval``; "mltutor from file (json)" is ``json.load`` of both files +
``evaluate_coco``, "(orjson)" the same with ``load_coco_json`` and orjson installed).  "mltutor on
parsed dicts" times ``evaluate_coco`` alone, on the dicts that ``json.load`` returned.  The 12
numbers must be bit-for-bit equal across pycocotools, hotcoco, ultrafast and mltutor (faster-coco-
eval's largest difference is printed) before anything is timed.
The runs are taken round-robin, one of each library per round, and the median is reported; the
peak memory of each library is the peak resident set size of a fresh process that runs one
file-to-stats evaluation (tracemalloc cannot see a Rust or C++ extension's memory).

Targets (issue #28): ``evaluate_coco`` on parsed dicts no slower than the fastest Rust evaluator's
whole file-to-stats time (a ratio of at least 1), and a peak RSS no larger than theirs.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import _harness
import numpy as np
from _harness import (
    COCO_LIBRARIES,
    MLTUTOR,
    coco_available,
    coco_from_file,
    coco_peak_rss,
    interleaved_medians,
)

from mltutor.detection import evaluate_coco

N_IMAGES = 2_000
N_CATEGORIES = 10
GT_PER_IMAGE = 10
FP_PER_IMAGE = 10
RUST = ("hotcoco", "ultrafast")
TARGET_RUST = 1.0


def make_dataset(
    seed: int = 0,
    *,
    n_images: int = N_IMAGES,
    n_categories: int = N_CATEGORIES,
    gt_per_image: float = GT_PER_IMAGE,
    fp_per_image: int = FP_PER_IMAGE,
    dets_per_image: int | None = None,
) -> tuple[dict, list[dict]]:
    """A COCO ground-truth dict and a result list (see the module docstring).  ``dets_per_image``
    tops every image up to that many detections with random false positives instead of adding
    ``fp_per_image``."""
    rng = np.random.default_rng(seed)
    n_gt = int(round(n_images * gt_per_image))
    gt_img = rng.integers(0, n_images, n_gt)
    gt_cat = rng.integers(0, n_categories, n_gt)
    wh = np.exp(rng.uniform(np.log(6), np.log(300), (n_gt, 2)))
    xy = rng.uniform(0, 640, (n_gt, 2))
    crowd = rng.random(n_gt) < 0.01
    area = wh[:, 0] * wh[:, 1] * rng.uniform(0.6, 1.0, n_gt)
    annotations = [
        {
            "id": i + 1,
            "image_id": int(gt_img[i]) + 1,
            "category_id": int(gt_cat[i]) + 1,
            "bbox": [float(xy[i, 0]), float(xy[i, 1]), float(wh[i, 0]), float(wh[i, 1])],
            "area": float(area[i]),
            "iscrowd": int(crowd[i]),
        }
        for i in range(n_gt)
    ]
    # Two detections per object: jittered box, a score that is higher for the closer one.
    src = np.repeat(np.arange(n_gt), 2)
    noise = rng.normal(0, 0.12, (src.shape[0], 4))
    d_xy = xy[src] + noise[:, :2] * wh[src]
    d_wh = wh[src] * np.exp(noise[:, 2:])
    d_score = np.clip(0.9 - np.abs(noise).sum(axis=1) + rng.normal(0, 0.1, src.shape[0]), 0.01, 1.0)
    d_cat = np.where(
        rng.random(src.shape[0]) < 0.05, rng.integers(0, n_categories, src.shape[0]), gt_cat[src]
    )
    d_img = gt_img[src]
    # Random false positives.
    if dets_per_image is None:
        n_fp = n_images * fp_per_image
        f_img = rng.integers(0, n_images, n_fp)
    else:
        f_img = np.repeat(
            np.arange(n_images), dets_per_image - np.bincount(d_img, minlength=n_images)
        )
        n_fp = f_img.shape[0]
    f_wh = np.exp(rng.uniform(np.log(6), np.log(300), (n_fp, 2)))
    f_xy = rng.uniform(0, 640, (n_fp, 2))
    boxes = np.concatenate([np.hstack([d_xy, d_wh]), np.hstack([f_xy, f_wh])])
    scores = np.round(np.concatenate([d_score, rng.uniform(0.01, 0.6, n_fp)]), 2)
    imgs = np.concatenate([d_img, f_img])
    cats = np.concatenate([d_cat, rng.integers(0, n_categories, n_fp)])
    return as_coco(
        annotations,
        boxes,
        scores,
        imgs,
        cats,
        rng.permutation(boxes.shape[0]),
        n_images=n_images,
        n_categories=n_categories,
    )


def as_coco(
    annotations: list[dict],
    boxes: np.ndarray,
    scores: np.ndarray,
    imgs: np.ndarray,
    cats: np.ndarray,
    order: np.ndarray,
    *,
    n_images: int = N_IMAGES,
    n_categories: int = N_CATEGORIES,
) -> tuple[dict, list[dict]]:
    """COCO ground truth (640 x 640 images) and results, in ``order``, from 0-based id arrays."""
    detections = [
        {
            "image_id": int(imgs[i]) + 1,
            "category_id": int(cats[i]) + 1,
            "bbox": boxes[i].tolist(),
            "score": float(scores[i]),
        }
        for i in order
    ]
    coco_gt = {
        "images": [{"id": i + 1, "width": 640, "height": 640} for i in range(n_images)],
        "categories": [{"id": c + 1, "name": f"class{c + 1}"} for c in range(n_categories)],
        "annotations": annotations,
    }
    return coco_gt, detections


def _fastest(row: dict, names: tuple) -> str:
    return min((n for n in names if n in row["seconds"]), key=lambda n: row["seconds"][n])


def coco_comparison(
    work: str,
    coco_gt: dict,
    detections: list[dict],
    iou_type: str,
    repeats: int,
    pyc_repeats: int = 3,
) -> dict:
    """Write the set to JSON files, check that every library gives the same numbers, then time each
    one from file (and ``evaluate_coco`` on parsed dicts) round-robin and measure its peak RSS.

    ``pyc_repeats`` runs for pycocotools and faster-coco-eval (slow on the big sets); 0 takes
    their time from the fresh process that measures their memory (one cold run)."""
    libraries = tuple(lib for lib in COCO_LIBRARIES if coco_available(lib))
    print(
        f"{work}: {len(coco_gt['images']):,} images, {len(coco_gt['categories'])} categories, "
        f"{len(coco_gt['annotations']):,} objects, {len(detections):,} detections"
    )
    with tempfile.TemporaryDirectory() as folder:
        gt_path, dt_path = str(Path(folder) / "gt.json"), str(Path(folder) / "dt.json")
        Path(gt_path).write_text(json.dumps(coco_gt))
        Path(dt_path).write_text(json.dumps(detections))
        # Memory first, one fresh process per library (it also gives the slow ones' single run).
        peaks, cold = {}, {}
        for lib in libraries:
            peaks[lib], cold[lib] = coco_peak_rss(lib, gt_path, dt_path, iou_type)
        floor, _ = _harness.child_peak_rss("import json, numpy")
        # What any evaluator that takes Python dicts starts from: the two files as json.load's objects.
        loaded, _ = _harness.child_peak_rss(
            f"import json, numpy\nd = [json.load(open(p)) for p in ({gt_path!r}, {dt_path!r})]"
        )

        # Same numbers first: a fast wrong answer is worth nothing.
        with open(gt_path) as f:
            parsed_gt = json.load(f)
        with open(dt_path) as f:
            parsed_dt = json.load(f)
        ours = evaluate_coco(parsed_gt, parsed_dt, iou_type=iou_type)["stats"]
        stats = {
            lib: np.array(coco_from_file(lib, gt_path, dt_path, iou_type))
            for lib in libraries
            if lib not in ("pycocotools", "faster-coco-eval") or pyc_repeats > 0
        }
        for lib in ("pycocotools", "hotcoco", "ultrafast", *MLTUTOR):
            if lib in stats:
                np.testing.assert_array_equal(stats[lib], ours, err_msg=f"{lib} vs mltutor, {work}")
        note = ""
        if "faster-coco-eval" in stats:
            note = f"faster-coco-eval max |difference| {np.abs(stats['faster-coco-eval'] - ours).max():.2g}"
        print(
            "  AP, AP50, AP75:",
            np.round(ours[:3], 4).tolist(),
            "| equal bit for bit:",
            ", ".join(lib for lib in stats if lib != "faster-coco-eval"),
            "|",
            note,
        )

        def load_json() -> None:
            with open(gt_path) as f:
                json.load(f)
            with open(dt_path) as f:
                json.load(f)

        fns = {
            lib: (lambda lib=lib: coco_from_file(lib, gt_path, dt_path, iou_type))
            for lib in libraries
        }
        fns["mltutor on parsed dicts"] = lambda: evaluate_coco(
            parsed_gt, parsed_dt, iou_type=iou_type
        )
        fns["json.load"] = load_json
        slow = {lib: pyc_repeats for lib in ("pycocotools", "faster-coco-eval")}
        fns = {name: fn for name, fn in fns.items() if slow.get(name, 1) > 0}
        cpu: dict[str, float] = {}
        seconds = interleaved_medians(fns, repeats, slow, cpu)
        for lib in slow:
            if lib in libraries and lib not in seconds:
                seconds[lib] = cold[lib]
    row = {
        "work": work,
        "iou_type": iou_type,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "peak_rss_mib": peaks,
        "floor_rss_mib": floor,
        "json_rss_mib": loaded,
        "n_detections": len(detections),
        "repeats": repeats,
        "slow_repeats": pyc_repeats,
    }
    rust = [lib for lib in RUST if lib in seconds]
    if rust:
        best = _fastest(row, tuple(rust))
        ratio = seconds[best] / seconds["mltutor on parsed dicts"]
        mem = peaks[best] / peaks["mltutor"]
        verdict = "meets" if ratio >= TARGET_RUST else "MISSES"
        print(
            f"  evaluate_coco on parsed dicts {seconds['mltutor on parsed dicts']:.4f} s vs {best} from file "
            f"{seconds[best]:.4f} s: {ratio:.2f}x ({verdict} target {TARGET_RUST:g}x); from file "
            f"{seconds['mltutor']:.4f} s ({seconds[best] / seconds['mltutor']:.2f}x)"
            + (
                f", with orjson {seconds['mltutor+orjson']:.4f} s "
                f"({seconds[best] / seconds['mltutor+orjson']:.2f}x)"
                if "mltutor+orjson" in seconds
                else ""
            )
            + f"; peak RSS mltutor "
            f"{peaks['mltutor']:.0f} MiB vs {best} {peaks[best]:.0f} MiB ({mem:.2f}x); json.load alone "
            f"{seconds['json.load']:.4f} s"
        )
    return row


def _cell(seconds: float, bold: bool) -> str:
    text = f"{seconds:.3g} s" if seconds < 1 else f"{seconds:.2f} s"
    return f"**{text}**" if bold else text


def _table_head(title: str, columns: list[str]) -> None:
    """A markdown table's header and separator lines, after a blank line."""
    print(f"\n| {title} | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")


def print_table(rows: list[dict]) -> None:
    """The README's table: median seconds from file per library, mltutor on parsed dicts, the ratio
    to the fastest Rust evaluator, then the peak RSS of each library's process."""
    names = COCO_LIBRARIES
    label = {"mltutor": "mltutor from file (json)", "mltutor+orjson": "mltutor from file (orjson)"}
    print(
        "\n| work | "
        + " | ".join(label.get(n, n) for n in names)
        + " | mltutor on parsed dicts | parsed dicts ÷ fastest Rust | from file (json) ÷ fastest Rust"
        + " | from file (orjson) ÷ fastest Rust |"
    )
    print("|---" * (len(names) + 5) + "|")
    for row in rows:
        s = row["seconds"]
        best = _fastest(row, names + ("mltutor on parsed dicts",))
        rust = _fastest(row, RUST)
        cells = [_cell(s[n], n == best) if n in s else "—" for n in names]
        parsed = s["mltutor on parsed dicts"]
        print(
            f"| {row['work']} | "
            + " | ".join(cells)
            + f" | {_cell(parsed, best == 'mltutor on parsed dicts')} | {parsed / s[rust]:.2f}× | "
            f"{s['mltutor'] / s[rust]:.2f}× | "
            + (f"{s['mltutor+orjson'] / s[rust]:.2f}× |" if "mltutor+orjson" in s else "— |")
        )
    _table_head(
        "CPU time ÷ wall time, same runs (user + system, every thread)",
        [label.get(n, n) for n in names]
        + ["mltutor on parsed dicts", "parsed dicts, CPU ÷ fastest Rust's CPU"],
    )
    for row in rows:
        s, c = row["seconds"], row["cpu_seconds"]
        rust = _fastest(row, RUST)
        parsed = "mltutor on parsed dicts"
        print(
            f"| {row['work']} | "
            + " | ".join(f"{c[n] / s[n]:.2f}" if n in c else "—" for n in names)
            + f" | {c[parsed] / s[parsed]:.2f} | {c[parsed] / c[rust]:.2f}× |"
        )
    _table_head(
        "peak RSS of one file-to-stats run",
        [label.get(n, n) for n in names] + ["python + numpy alone", "the two files json.load-ed"],
    )
    for row in rows:
        p = row["peak_rss_mib"]
        print(
            f"| {row['work']} | "
            + " | ".join(f"{p[n]:.0f} MiB" if n in p else "—" for n in names)
            + f" | {row['floor_rss_mib']:.0f} MiB | {row['json_rss_mib']:.0f} MiB |"
        )


def records(row: dict) -> list[dict]:
    """``run_all``'s records: evaluate_coco on parsed dicts against every library's file-to-stats."""
    s, p = row["seconds"], row["peak_rss_mib"]
    out = []
    for lib in COCO_LIBRARIES:
        if lib in s and lib not in MLTUTOR:
            out.append(
                {
                    "benchmark": f"evaluate_coco {row['iou_type']} ({row['work']}), parsed dicts vs {lib}",
                    "mltutor_s": s["mltutor on parsed dicts"],
                    "mltutor_from_file_s": s["mltutor"],
                    "mltutor_peak_rss_mib": p["mltutor"],
                    "reference": lib,
                    "reference_s": s[lib],
                    "reference_peak_rss_mib": p[lib],
                    "ratio": s[lib] / s["mltutor on parsed dicts"],
                    "target": TARGET_RUST if lib in RUST else None,
                }
            )
    return out


def run(repeats: int = 3, table: bool = True) -> list[dict]:
    repeats = max(repeats, 5)
    boxes = make_dataset()
    rows = [
        coco_comparison(
            f"boxes, 2,000 images, {len(boxes[0]['annotations']) / 1000:.0f}k GT, "
            f"{len(boxes[1]) / 1000:.0f}k detections",
            *boxes,
            "bbox",
            repeats,
            pyc_repeats=3,
        )
    ]
    val = make_dataset(n_images=5_000, n_categories=80, gt_per_image=7.2, dets_per_image=100)
    rows.append(
        coco_comparison(
            f"boxes, val2017-sized: 5,000 images, {len(val[0]['annotations']) / 1000:.0f}k GT, "
            f"{len(val[1]) / 1000:.0f}k detections",
            *val,
            "bbox",
            repeats,
            pyc_repeats=0,
        )
    )
    if table:
        print_table(rows)
    return [r for row in rows for r in records(row)]


if __name__ == "__main__":
    run()
