"""error_breakdown (TIDE's error causes and fixing oracle) against three references.

1. A brute-force re-implementation of the definitions in the module docstring, written here with
   plain loops (pycocotools' greedy matching, TIDE's cause tests in TIDE's order, TIDE's fixes,
   COCO's 101-point AP), on generated scenes.
2. ``evaluate_coco`` on the "fixed" dataset: AP + ΔAP(cause) must equal the AP50 of the data with
   that cause fixed by hand (boxes moved onto their object, false positives deleted, missed
   objects deleted from the ground truth).
3. tidecv itself (the authors' package) on scenes where its matcher and class bookkeeping agree
   with COCO's (no crowd, no IoU or score ties, every category with ground truth).

Plus one hand-made scene per cause and the bad-input errors.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mltutor.detection import CAUSES, error_breakdown, evaluate_coco

BRUTE = settings(PROPERTY, max_examples=1000)
ORACLE = settings(PROPERTY, max_examples=150)  # nine evaluate_coco runs per scene


# --------------------------------------------------------------------------------------------
# Generated scenes
# --------------------------------------------------------------------------------------------


@st.composite
def scenes(draw, crowd=True, ties=True, crowded=True):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_img = draw(st.integers(1, 5))
    n_cat = draw(st.integers(1, 3))
    img_ids = rng.choice(np.arange(1, 40), n_img, replace=False).tolist()
    cat_ids = rng.choice(np.arange(1, 20), n_cat, replace=False).tolist()
    grid = ties and draw(st.booleans())  # integer boxes: IoU ties, IoU exactly 0.5 or 0.1
    p_crowd = draw(st.sampled_from([0.0, 0.2])) if crowd else 0.0
    gt_rate = draw(st.sampled_from([0.0, 1.0, 3.0, 5.0]))
    noise = draw(st.sampled_from([0.05, 0.2, 0.5]))  # how sloppy the boxes are
    p_wrong_class = draw(st.sampled_from([0.0, 0.2, 0.5]))
    score_digits = draw(st.sampled_from([1, 2, 8])) if ties else 12

    def box(n):
        if grid:
            return np.hstack(
                [rng.integers(0, 10, (n, 2)) * 4, rng.integers(1, 6, (n, 2)) * 4]
            ).astype(float)
        return np.hstack([rng.uniform(0, 60, (n, 2)), rng.uniform(2, 30, (n, 2))])

    annotations = []
    for img in img_ids:
        for b in box(int(rng.poisson(gt_rate))):
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
    if draw(st.booleans()):  # unordered, non-contiguous ids
        for a, i in zip(annotations, rng.permutation(len(annotations)) * 3 + 5):
            a["id"] = int(i)
    detections = []
    for a in annotations:  # noisy copies, sometimes several (duplicates), sometimes mislabelled
        for _ in range(int(rng.integers(0, 4))):
            b = np.array(a["bbox"])
            if grid:
                b = b + rng.integers(-1, 2, 4) * 4
            else:
                b = b + rng.normal(0, noise, 4) * np.r_[b[2:], b[2:]]
            b[2:] = np.maximum(b[2:], 0)
            cat = int(rng.choice(cat_ids)) if rng.random() < p_wrong_class else a["category_id"]
            detections.append({"image_id": a["image_id"], "category_id": cat, "bbox": b.tolist()})
    for img in img_ids:  # background boxes
        for b in box(int(rng.integers(0, 4))):
            detections.append(
                {"image_id": img, "category_id": int(rng.choice(cat_ids)), "bbox": b.tolist()}
            )
    if crowded and draw(st.integers(0, 9)) == 0:  # > 100 in one (image, category)
        img, cat = int(rng.choice(img_ids)), int(rng.choice(cat_ids))
        for b in box(int(rng.integers(101, 115))):
            detections.append({"image_id": img, "category_id": cat, "bbox": b.tolist()})
    scores = np.round(rng.random(len(detections)), score_digits)
    for d, s in zip(detections, scores):
        d["score"] = float(s)
    detections = [detections[i] for i in rng.permutation(len(detections))]
    gt = {
        "images": [{"id": i} for i in img_ids],
        "categories": [{"id": c} for c in cat_ids],
        "annotations": annotations,
    }
    return gt, detections


# --------------------------------------------------------------------------------------------
# 1. Brute force: the definitions, one loop at a time
# --------------------------------------------------------------------------------------------


def iou(d, g, crowd=False):
    """pycocotools' bbIou, operation by operation, on [x, y, w, h] lists."""
    w = min(d[2] + d[0], g[2] + g[0]) - max(d[0], g[0])
    h = min(d[3] + d[1], g[3] + g[1]) - max(d[1], g[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = d[2] * d[3] if crowd else d[2] * d[3] + g[2] * g[3] - inter
    return inter / union


def coco_ap(points, npos):
    """points: {category: [(score, image index, input index, is_tp)]}; npos: {category: n}."""
    aps = []
    for c, n in npos.items():
        if n <= 0:
            continue
        pts = sorted(points.get(c, []), key=lambda p: (-p[0], p[1], p[2]))
        tp = fp = 0
        rec, prec = [], []
        for p in pts:
            tp, fp = tp + p[3], fp + (not p[3])
            rec.append(tp / n)
            prec.append(tp / (tp + fp + np.spacing(1)))
        for i in range(len(prec) - 1, 0, -1):
            prec[i - 1] = max(prec[i - 1], prec[i])
        q = []
        for r in np.linspace(0.0, 1.00, 101):
            i = next((i for i, x in enumerate(rec) if x >= r), None)
            q.append(prec[i] if i is not None else 0.0)
        aps.append(float(np.mean(q)))
    return float(np.mean(aps)) if aps else -1.0


def brute_breakdown(gt, dets, t_f=0.5, t_b=0.1):
    anns = gt["annotations"]
    img_index = {i: k for k, i in enumerate(sorted(x["id"] for x in gt["images"]))}
    cats = sorted(c["id"] for c in gt["categories"])
    ignore = [bool(a.get("iscrowd", 0)) or a["area"] > 1e10 for a in anns]
    thr = min(t_f, 1 - 1e-10)
    status = ["dropped"] * len(dets)
    matched = [-1] * len(dets)
    taken = [False] * len(anns)
    for img in img_index:
        for c in cats:
            ds = sorted(
                (i for i, d in enumerate(dets) if d["image_id"] == img and d["category_id"] == c),
                key=lambda i: -dets[i]["score"],
            )[:100]
            gs = [j for j, a in enumerate(anns) if a["image_id"] == img and a["category_id"] == c]
            for i in ds:
                best, best_iou = -1, -1.0
                for want_ignored in (False, True):
                    for j in gs:
                        if ignore[j] != want_ignored or (
                            taken[j] and not anns[j].get("iscrowd", 0)
                        ):
                            continue
                        v = iou(dets[i]["bbox"], anns[j]["bbox"], bool(anns[j].get("iscrowd", 0)))
                        if v >= thr and v >= best_iou:  # a tie goes to the later annotation
                            best, best_iou = j, v
                    if best >= 0:
                        break
                if best >= 0:
                    taken[best] = True
                    matched[i] = best
                    status[i] = "ignored" if ignore[best] else "true_positive"
                else:
                    b = dets[i]["bbox"]
                    status[i] = "ignored" if b[2] * b[3] > 1e10 else "fp"
    detected = [False] * len(anns)
    for i, s in enumerate(status):
        if s == "true_positive":
            detected[matched[i]] = True
    target = [matched[i] if status[i] == "true_positive" else -1 for i in range(len(dets))]
    for i, d in enumerate(dets):
        if status[i] != "fp":
            continue
        regs = [j for j, a in enumerate(anns) if a["image_id"] == d["image_id"] and not ignore[j]]

        def best_of(keep):
            v, at = 0.0, -1
            for j in regs:
                if keep(j):
                    x = iou(d["bbox"], anns[j]["bbox"])
                    if at < 0 or x > v:
                        v, at = x, j
            return v, at

        same = lambda j: anns[j]["category_id"] == d["category_id"]  # noqa: E731
        s_v, s_at = best_of(same)
        o_v, o_at = best_of(lambda j: not same(j))
        u_v, u_at = best_of(lambda j: same(j) and detected[j])
        if not regs:
            status[i] = "background"
        elif t_b <= s_v <= t_f:
            status[i], target[i] = "localisation", s_at
        elif o_v >= t_f:
            status[i], target[i] = "classification", o_at
        elif u_v >= t_f:
            status[i], target[i] = "duplicate", u_at
        elif max(s_v, o_v) <= t_b:
            status[i] = "background"
        else:
            status[i] = "both"
    best_fixer = {}
    for i, d in enumerate(dets):
        if status[i] in ("localisation", "classification") and not detected[target[i]]:
            j = target[i]
            if j not in best_fixer or d["score"] > dets[best_fixer[j]]["score"]:
                best_fixer[j] = i  # the first detection (input order) wins a score tie
    ann_cause = []
    for j in range(len(anns)):
        if ignore[j]:
            ann_cause.append("ignored")
        elif detected[j]:
            ann_cause.append("detected")
        else:
            ann_cause.append("recoverable" if j in best_fixer else "missed")
    npos = {
        c: sum(1 for j, a in enumerate(anns) if a["category_id"] == c and not ignore[j])
        for c in cats
    }

    def ap(fix):
        points, n = {}, dict(npos)
        for i, d in enumerate(dets):
            s = status[i]
            point = (d["score"], img_index[d["image_id"]], i)
            if s == "true_positive":
                points.setdefault(d["category_id"], []).append(point + (True,))
            elif s in CAUSES:
                if s == fix and s in ("localisation", "classification"):
                    if best_fixer.get(target[i]) == i:
                        points.setdefault(anns[target[i]]["category_id"], []).append(
                            point + (True,)
                        )
                elif s != fix and fix != "false_positives":
                    points.setdefault(d["category_id"], []).append(point + (False,))
        for j, a in enumerate(anns):
            if (fix == "missed" and ann_cause[j] == "missed") or (
                fix == "false_negatives" and ann_cause[j] in ("missed", "recoverable")
            ):
                n[a["category_id"]] -= 1
        fixed = coco_ap(points, n)
        return fixed if fixed != -1.0 or fix is None else base

    base = None
    base = ap(None)
    return {
        "AP": base,
        "delta_AP": {c: ap(c) - base for c in CAUSES},
        "delta_AP_special": {c: ap(c) - base for c in ("false_positives", "false_negatives")},
        "counts": {
            c: status.count(c) if c != "missed" else ann_cause.count("missed") for c in CAUSES
        },
        "detection_cause": status,
        "detection_target": target,
        "annotation_cause": ann_cause,
    }


def assert_same(ours, ref):
    assert ours["detection_cause"].tolist() == ref["detection_cause"]
    assert ours["detection_target"].tolist() == ref["detection_target"]
    assert ours["annotation_cause"].tolist() == ref["annotation_cause"]
    assert ours["counts"] == ref["counts"]
    assert abs(ours["AP"] - ref["AP"]) <= 1e-12
    for key in ("delta_AP", "delta_AP_special"):
        assert list(ours[key]) == list(ref[key])
        for c in ref[key]:
            assert abs(ours[key][c] - ref[key][c]) <= 1e-12, (key, c, ours[key][c], ref[key][c])


@BRUTE
@given(scenes(), st.sampled_from([(0.5, 0.1), (0.5, 0.1), (0.75, 0.3), (0.3, 0.3)]))
def test_equals_brute_force_definitions(scene, thresholds):
    CASES["detection: error_breakdown vs brute-force TIDE definitions"] += 1
    gt, dets = scene
    t_f, t_b = thresholds
    ours = error_breakdown(gt, dets, foreground_iou=t_f, background_iou=t_b)
    assert_same(ours, brute_breakdown(gt, dets, t_f, t_b))
    # no fix lowers AP; a category with ground truth makes AP defined
    for key in ("delta_AP", "delta_AP_special"):
        assert all(v >= -1e-12 for v in ours[key].values())


# --------------------------------------------------------------------------------------------
# 2. evaluate_coco on the fixed dataset
# --------------------------------------------------------------------------------------------


def fixed_dataset(gt, dets, r, cause):
    """The scene with one cause fixed by hand, following the oracle of the module docstring."""
    gt, dets = copy.deepcopy(gt), copy.deepcopy(dets)
    causes, targets = r["detection_cause"], r["detection_target"]
    keep = [True] * len(dets)
    if cause in ("localisation", "classification"):
        best = {}
        for i in range(len(dets)):
            if (
                causes[i] in ("localisation", "classification")
                and r["annotation_cause"][targets[i]] == "recoverable"
            ):
                j = targets[i]
                if j not in best or dets[i]["score"] > dets[best[j]]["score"]:
                    best[j] = i
        for i in range(len(dets)):
            if causes[i] == cause:
                j = targets[i]
                if best.get(j) == i:  # moved onto its object, with the object's label
                    dets[i]["bbox"] = list(gt["annotations"][j]["bbox"])
                    dets[i]["category_id"] = gt["annotations"][j]["category_id"]
                else:
                    keep[i] = False
    elif cause == "missed":
        gt["annotations"] = [
            a for a, c in zip(gt["annotations"], r["annotation_cause"]) if c != "missed"
        ]
    else:
        keep = [c != cause for c in causes]
    return gt, [d for d, k in zip(dets, keep) if k]


@ORACLE
@given(scenes(ties=False, crowded=False))
def test_fixed_ap_equals_evaluate_coco_on_the_fixed_data(scene):
    CASES["detection: error_breakdown fixes vs evaluate_coco on fixed data"] += 1
    gt, dets = scene
    r = error_breakdown(gt, dets)
    assert r["AP"] == pytest.approx(evaluate_coco(gt, dets)["AP50"], abs=1e-12)
    for cause in CAUSES:
        fixed = evaluate_coco(*fixed_dataset(gt, dets, r, cause))["AP50"]
        if fixed == -1.0:  # every object removed: nothing left to measure, ΔAP 0 by definition
            assert r["delta_AP"][cause] == 0.0
            continue
        assert r["AP"] + r["delta_AP"][cause] == pytest.approx(fixed, abs=1e-12), cause


# --------------------------------------------------------------------------------------------
# 3. tidecv itself
# --------------------------------------------------------------------------------------------


def tidecv_breakdown(gt, dets):
    tidecv = pytest.importorskip("tidecv")
    g, p = tidecv.Data("gt"), tidecv.Data("dets")
    for im in gt["images"]:
        g.add_image(im["id"], str(im["id"]))
    for a in gt["annotations"]:
        g.add_ground_truth(a["image_id"], a["category_id"], list(a["bbox"]))
    for d in dets:
        p.add_detection(d["image_id"], d["category_id"], d["score"], list(d["bbox"]))
    tide = tidecv.TIDE()
    run = tide.evaluate(g, p, mode=tidecv.TIDE.BOX)
    try:
        main = tide.get_main_errors()["dets"]
    except ZeroDivisionError:  # the missed fix left no object at all (here: ΔAP 0, by definition)
        assume(False)
    names = dict(zip(["Cls", "Loc", "Both", "Dupe", "Bkg", "Miss"], CAUSES))
    counts = {names[t.short_name]: n for t, n in run.count_errors().items()}
    return run.ap / 100, {names[k]: v / 100 for k, v in main.items()}, counts


@settings(PROPERTY, max_examples=150)
@given(scenes(crowd=False, ties=False, crowded=False))
def test_agrees_with_tidecv(scene):
    gt, dets = scene
    ours = error_breakdown(gt, dets)
    cats_with_gt = {a["category_id"] for a in gt["annotations"]}
    # tidecv averages in, as AP 0, a category with detections and no objects, and drops one that a
    # fix empties; COCO leaves such categories out.  Compare where the two bookkeepings agree.
    assume(cats_with_gt and all(d["category_id"] in cats_with_gt for d in dets))
    per_image = np.bincount([d["image_id"] for d in dets]) if dets else np.zeros(1)
    assume(per_image.max() <= 100)  # tidecv keeps 100 per image, COCO 100 per image and category
    # tidecv samples recall at i / 100, pycocotools at np.linspace(0, 1, 101); they differ in the
    # last bit at 0.35, 0.41, ..., 0.95, which a recall k / n can hit only for n >= 10.
    assume(max(np.bincount([a["category_id"] for a in gt["annotations"]])) < 10)
    CASES["detection: error_breakdown vs tidecv"] += 1
    ap, delta, counts = tidecv_breakdown(gt, dets)
    assert ours["AP"] == pytest.approx(ap, abs=1e-9)
    assert ours["counts"] == counts
    missed_cats = {
        a["category_id"]
        for a, c in zip(gt["annotations"], ours["annotation_cause"])
        if c != "missed"
    }
    for cause in CAUSES:
        if cause == "missed" and missed_cats != cats_with_gt:
            continue  # a category whose objects are all missed: emptied by the fix (see above)
        assert ours["delta_AP"][cause] == pytest.approx(delta[cause], abs=1e-9), cause


# --------------------------------------------------------------------------------------------
# Hand-made scenes: one error of each kind
# --------------------------------------------------------------------------------------------


def _scene(anns, dets, cats=(1, 2), images=(1, 2)):
    annotations = []
    for i, (img, cat, box, *crowd) in enumerate(anns):
        annotations.append(
            {
                "id": i + 1,
                "image_id": img,
                "category_id": cat,
                "bbox": box,
                "area": box[2] * box[3],
                "iscrowd": crowd[0] if crowd else 0,
            }
        )
    gt = {
        "images": [{"id": i} for i in images],
        "categories": [{"id": c} for c in cats],
        "annotations": annotations,
    }
    return gt, [{"image_id": i, "category_id": c, "bbox": b, "score": s} for i, c, b, s in dets]


OBJ = [0, 0, 10, 10]


@pytest.mark.parametrize(
    "det, cause, target",
    [
        ((1, 2, OBJ, 0.7), "classification", 0),  # right place, wrong label
        ((1, 1, [5, 0, 10, 10], 0.7), "localisation", 0),  # IoU 1/3
        ((1, 1, [4, 0, 10, 10], 0.7), "localisation", 0),  # IoU 6/14: below 0.5
        ((1, 1, OBJ, 0.7), "duplicate", 0),  # the object is already taken by the 0.9 detection
        ((1, 2, [6, 0, 10, 10], 0.7), "both", -1),  # wrong label, IoU 0.25 with the other class
        ((1, 1, [30, 30, 5, 5], 0.7), "background", -1),  # overlaps nothing
        ((2, 1, OBJ, 0.7), "background", -1),  # an image without objects
        ((1, 1, [9, 0, 10, 10], 0.7), "background", -1),  # IoU 10/190 <= 0.1
    ],
)
def test_one_error_of_each_kind(det, cause, target):
    gt, dets = _scene([(1, 1, OBJ)], [(1, 1, OBJ, 0.9), det])
    r = error_breakdown(gt, dets)
    assert r["detection_cause"].tolist() == ["true_positive", cause]
    assert r["detection_target"].tolist() == [0, target]
    assert r["counts"][cause] == 1 and sum(r["counts"].values()) == 1
    assert r["AP"] == pytest.approx(1.0)  # the false positive scores below the hit


def test_iou_exactly_on_the_thresholds_is_localisation():
    # IoU 0.5 with a taken object: TIDE tests localisation (<= t_f) before duplicate
    gt, dets = _scene(
        [(1, 1, [0, 0, 12, 10])], [(1, 1, [0, 0, 12, 10], 0.9), (1, 1, [4, 0, 12, 10], 0.5)]
    )
    assert error_breakdown(gt, dets)["detection_cause"][1] == "localisation"
    # IoU exactly 0.1 with the only object: localisation too (t_b <= IoU)
    gt, dets = _scene([(1, 1, [0, 0, 11, 10])], [(1, 1, [9, 0, 11, 10], 0.5)])
    r = error_breakdown(gt, dets)
    assert r["detection_cause"][0] == "localisation"


def test_missed_and_recoverable_objects():
    gt, dets = _scene([(1, 1, OBJ), (1, 1, [40, 40, 10, 10])], [(1, 1, [5, 0, 10, 10], 0.8)])
    r = error_breakdown(gt, dets)
    assert r["annotation_cause"].tolist() == ["recoverable", "missed"]
    assert r["counts"]["missed"] == 1 and r["counts"]["localisation"] == 1
    assert r["AP"] == 0.0
    # fixing localisation finds 1 of 2 objects at precision 1: 51 of the 101 recall points
    assert r["delta_AP"]["localisation"] == pytest.approx(51 / 101)
    assert r["delta_AP"]["missed"] == 0.0  # one object left, still not found
    assert r["delta_AP_special"]["false_positives"] == 0.0  # precision was not the problem


def test_an_object_is_recovered_once_by_its_best_scored_error():
    # a classification error (0.9) and a localisation error (0.8) point at the same object
    gt, dets = _scene([(1, 1, OBJ)], [(1, 2, OBJ, 0.9), (1, 1, [5, 0, 10, 10], 0.8)])
    r = error_breakdown(gt, dets)
    assert r["delta_AP"]["classification"] == pytest.approx(1.0)
    assert r["delta_AP"]["localisation"] == 0.0  # its fix only deletes the 0.8 box


def test_fixing_duplicates_and_background_removes_false_positives():
    gt, dets = _scene(
        [(1, 1, OBJ), (1, 1, [40, 0, 10, 10])],
        [
            (1, 1, OBJ, 0.9),
            (1, 1, OBJ, 0.8),
            (1, 1, [80, 80, 5, 5], 0.85),
            (1, 1, [40, 0, 10, 10], 0.7),
        ],
    )
    r = error_breakdown(gt, dets)
    assert r["counts"]["duplicate"] == 1 and r["counts"]["background"] == 1
    base = r["AP"]
    assert base == pytest.approx((51 + 50 * 0.5) / 101)  # second hit at precision 2/4
    assert base + r["delta_AP"]["background"] == pytest.approx((51 + 50 * 2 / 3) / 101)
    assert base + r["delta_AP"]["duplicate"] == pytest.approx((51 + 50 * 2 / 3) / 101)
    assert base + r["delta_AP_special"]["false_positives"] == pytest.approx(1.0)


def test_crowd_and_dropped_detections_get_no_cause():
    dets = [(1, 1, [40, 0, 10, 10], 0.9)] + [(1, 1, [90, 90, 1, 1], 0.01)] * 100
    gt, dets = _scene([(1, 1, [30, 0, 30, 30], 1)], dets)
    r = error_breakdown(gt, dets)
    assert r["detection_cause"][0] == "ignored"
    assert r["detection_cause"][-1] == "dropped"  # the 101st of its image and category
    assert r["annotation_cause"].tolist() == ["ignored"]
    assert r["AP"] == -1.0  # no object that counts


def test_input_is_not_modified():
    gt, dets = _scene([(1, 1, OBJ)], [(1, 2, OBJ, 0.9)])
    before = copy.deepcopy((gt, dets))
    error_breakdown(gt, dets)
    assert (gt, dets) == before


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"foreground_iou": 0.0}, ValueError, r"foreground_iou must lie in \(0, 1\]"),
        ({"foreground_iou": 1.5}, ValueError, "foreground_iou must lie in"),
        ({"background_iou": -0.1}, ValueError, "background_iou must lie in"),
        ({"background_iou": 0.6}, ValueError, "must not exceed foreground_iou"),
        ({"background_iou": float("nan")}, TypeError, "background_iou must be a real number"),
        ({"foreground_iou": "0.5"}, TypeError, "foreground_iou must be a real number"),
        ({"foreground_iou": True}, TypeError, "foreground_iou must be a real number"),
    ],
)
def test_bad_thresholds(kwargs, error, message):
    gt, dets = _scene([(1, 1, OBJ)], [(1, 1, OBJ, 0.9)])
    with pytest.raises(error, match=message):
        error_breakdown(gt, dets, **kwargs)


def test_bad_records():
    gt, dets = _scene([(1, 1, OBJ)], [(1, 1, OBJ, 0.9)])
    gt["annotations"][0]["id"] = 0
    with pytest.raises(ValueError, match=r"annotations'\]\[0\] has id 0"):
        error_breakdown(gt, dets)
    gt, dets = _scene([(1, 1, OBJ)], [(1, 3, OBJ, 0.9)])
    with pytest.raises(ValueError, match="category_id"):
        error_breakdown(gt, dets)
    gt, dets = _scene([(1, 1, OBJ)], [(1, 1, [0, 0, -1, 10], 0.9)])
    with pytest.raises(ValueError, match="detections"):
        error_breakdown(gt, dets)
    with pytest.raises(TypeError, match="coco_gt must be a COCO ground-truth dict"):
        error_breakdown([], dets)
    del dets[0]["score"]
    with pytest.raises(ValueError, match="score"):
        error_breakdown(_scene([(1, 1, OBJ)], [])[0], dets)


def test_no_detections_and_no_objects():
    gt, dets = _scene([(1, 1, OBJ)], [])
    r = error_breakdown(gt, dets)
    assert r["AP"] == 0.0 and r["counts"]["missed"] == 1
    assert r["delta_AP"]["missed"] == 0.0  # no object left: nothing to measure
    gt, dets = _scene([], [(1, 1, OBJ, 0.5)])
    r = error_breakdown(gt, dets)
    assert r["AP"] == -1.0 and r["detection_cause"].tolist() == ["background"]
