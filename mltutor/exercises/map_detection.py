"""Exercises for chapter 7, *Detection mAP: IoU, matching, VOC and COCO*.

=====  =========================================================================================
ex1    IoU of two boxes in (x1, y1, x2, y2) format                    ``iou``
ex2    greedy matching of one image's detections; duplicates are FP  ``match_image``
ex3    all-point (VOC2010+) AP from a ranked TP/FP list               ``average_precision``
ex4    11-point (VOC2007) AP from the same list                       ``voc07_average_precision``
ex5    one small image: its VOC AP50 and its COCO AP@[.5:.95]         two numbers
ex6    judgement: a metric for a grasping robot (a letter)
ex7    judgement: more low-scoring boxes (a letter)
ex8    judgement: COCO's true positives beside a confusion matrix (a count)
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (``mltutor.detection`` and
``mltutor.curves`` are deliberately not used, so an exercise cannot inherit their bugs).  Every
case is small enough to check by hand.  Coordinates are continuous: a box from x = 0 to x = 10 is
10 wide (COCO's and torchvision's convention, not the old "+1 pixel" one).
"""

from __future__ import annotations

import inspect

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, ValueExercise, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def iou(box_a, box_b):
    """Intersection over union of two boxes given as [x1, y1, x2, y2]."""
    ax1, ay1, ax2, ay2 = box_a
    bx1, by1, bx2, by2 = box_b
    # The intersection is a box too; its width or height is 0 when the boxes do not overlap.
    width = max(0.0, min(ax2, bx2) - max(ax1, bx1))
    height = max(0.0, min(ay2, by2) - max(ay1, by1))
    intersection = width * height
    union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - intersection
    return float(intersection / union) if union > 0 else 0.0


def match_image(det_boxes, det_scores, gt_boxes, iou_threshold=0.5):
    """True for each detection (in input order) that matches a ground-truth box, else False."""
    is_tp = np.zeros(len(det_boxes), dtype=bool)
    taken = np.zeros(len(gt_boxes), dtype=bool)
    for d in np.argsort(-np.asarray(det_scores), kind="stable"):  # highest score first
        best, best_iou = -1, iou_threshold
        for g in range(len(gt_boxes)):
            overlap = iou(det_boxes[d], gt_boxes[g])
            if not taken[g] and overlap >= best_iou:
                best, best_iou = g, overlap
        if best >= 0:
            taken[best] = True  # each object can be found once: a later duplicate is a FP
            is_tp[d] = True
    return is_tp


def _pr_points(is_tp, n_gt):
    is_tp = np.asarray(is_tp, dtype=bool)
    tp = np.cumsum(is_tp)
    fp = np.cumsum(~is_tp)
    return tp / n_gt, tp / (tp + fp)


def average_precision(is_tp, n_gt):
    """All-point AP: area under the precision envelope, detections ranked by score already."""
    is_tp = np.asarray(is_tp, dtype=bool)
    if is_tp.size == 0:
        return 0.0
    tp = np.cumsum(is_tp)  # hits so far
    fp = np.cumsum(~is_tp)  # false positives so far
    recall, precision = tp / n_gt, tp / (tp + fp)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]  # best precision at this recall or more
    recall_step = np.diff(recall, prepend=0.0)  # > 0 only at true positives
    return float(np.sum(recall_step * envelope))


def voc07_average_precision(is_tp, n_gt):
    """VOC2007 AP: mean of the precision envelope at recall 0, 0.1, ..., 1 (exactly k / 10)."""
    is_tp = np.asarray(is_tp, dtype=bool)
    tp = np.cumsum(is_tp)
    fp = np.cumsum(~is_tp)
    recall, precision = tp / n_gt, tp / (tp + fp)
    total = 0.0
    for t in np.arange(11) / 10:
        reached = recall >= t
        total += precision[reached].max() if reached.any() else 0.0
    return float(total / 11)


def _coco_ap(is_tp_at, n_gt):
    """COCO: the envelope read at 101 recall points (pycocotools' rule), 0 beyond the last."""
    recall, precision = _pr_points(is_tp_at, n_gt)
    envelope = np.maximum.accumulate(precision[::-1])[::-1] if precision.size else precision
    points = np.linspace(0, 1, 101)
    first = np.searchsorted(recall, points, side="left")
    values = np.where(first < recall.size, envelope[np.minimum(first, recall.size - 1)], 0.0)
    return float(values.mean()) if recall.size else 0.0


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _f(values):
    return np.array(values, dtype=float)


def _b(values):
    return np.array(values, dtype=bool)


ex1 = Exercise(
    "ex1",
    title="IoU by hand",
    reference=iou,
    cases=[
        case(_f([0, 0, 10, 10]), _f([5, 0, 15, 10]), note="half a box overlaps"),
        case(_f([0, 0, 10, 10]), _f([0, 0, 10, 10]), note="identical boxes"),
        case(_f([0, 0, 10, 10]), _f([20, 20, 30, 30]), note="no overlap at all"),
        case(_f([0, 0, 10, 10]), _f([10, 0, 20, 10]), note="touching edges only"),
        case(_f([0, 0, 10, 10]), _f([12, 2, 20, 8]), note="side by side, no overlap in x"),
        case(_f([0, 0, 10, 10]), _f([-5, 12, 5, 20]), note="overlap in x but not in y"),
        case(_f([0, 0, 100, 100]), _f([25, 25, 75, 75]), note="one box inside the other"),
        case(_f([2.5, 1.0, 7.5, 9.0]), _f([4.0, 3.5, 12.0, 6.5]), note="fractional coordinates"),
        case(_f([10, 20, 60, 40]), _f([30, 10, 50, 70]), note="a cross: thin boxes crossing"),
    ],
    hints=[
        "The intersection of two boxes is itself a box: its left edge is the larger of the two "
        "left edges, its right edge the smaller of the two right edges (same for top and bottom).",
        "When the boxes do not overlap, that 'right edge minus left edge' is negative: clip the "
        "width and the height at 0 with `max(0.0, ...)` *separately*, before multiplying them.",
        "The union counts the overlap once: area A + area B - intersection. A width here is "
        "`x2 - x1` (no `+ 1`).",
    ],
)

_G2 = _f([[0, 0, 10, 10], [20, 0, 30, 10]])

ex2 = Exercise(
    "ex2",
    title="Match one image: duplicates are false positives",
    reference=match_image,
    solution=lambda: inspect.getsource(iou) + "\n\n" + inspect.getsource(match_image),
    cases=[
        case(
            _f([[0, 0, 10, 10], [20, 1, 30, 11], [1, 0, 11, 10]]),
            _f([0.9, 0.8, 0.7]),
            _G2,
            note="two objects found, plus a duplicate of the first",
        ),
        case(
            _f([[1, 0, 11, 10], [0, 0, 10, 10]]),
            _f([0.6, 0.95]),
            _G2[:1],
            note="detections not sorted by score",
        ),
        case(
            _f([[2, 0, 12, 10], [0, 0, 10, 10]]),
            _f([0.9, 0.8]),
            _G2[:1],
            note="the better box has the lower score",
        ),
        case(
            _f([[0, 0, 10, 10], [1, 0, 11, 10]]),
            _f([0.9, 0.8]),
            _f([[0, 0, 10, 10], [3, 0, 13, 10]]),
            note="two overlapping objects: the second detection takes the free one",
        ),
        case(_f([[0, 0, 10, 20]]), _f([0.5]), _G2[:1], note="IoU exactly 0.5"),
        case(
            _f([[0, 0, 10, 10], [50, 50, 60, 60]]),
            _f([0.9, 0.8]),
            np.zeros((0, 4)),
            note="no ground truth in the image",
        ),
        case(np.zeros((0, 4)), np.zeros(0), _G2, note="no detections in the image"),
        case(
            _f([[0, 0, 10, 10], [0, 0, 10, 10], [0, 0, 10, 10]]),
            _f([0.5, 0.5, 0.5]),
            _G2[:1],
            note="three identical detections with the same score",
        ),
        case(
            _f([[0, 0, 10, 10], [22, 0, 32, 10]]),
            _f([0.9, 0.8]),
            _G2,
            iou_threshold=0.75,
            note="a stricter threshold",
        ),
    ],
    hints=[
        "Visit the detections from the highest score down: `np.argsort(-scores, kind='stable')` "
        "gives that order (equal scores keep their input order). Store each result at the "
        "detection's *original* position.",
        "Keep a boolean array `taken`, one entry per ground-truth box. A detection may only take "
        "a box that is not taken yet, and among those the one it overlaps most, if that IoU is "
        "at least the threshold (`>=`).",
        "When a detection takes a box, mark it taken: a second detection of the same object finds "
        "it taken and is a false positive. Reuse your `iou` from exercise 1.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="All-point AP from a ranked list",
    reference=average_precision,
    cases=[
        case(_b([1, 0, 1]), 2, note="hit, miss, hit: every object found"),
        case(_b([1, 1, 1]), 3, note="a perfect detector"),
        case(_b([1, 1, 0, 0]), 4, note="half of the objects are never found"),
        case(_b([0, 0, 1, 1]), 2, note="the two false positives come first"),
        case(_b([1, 0, 0, 1, 1, 0, 1]), 5, note="precision rises again after a dip"),
        case(_b([0, 0, 0]), 2, note="only false positives"),
        case(_b([]), 3, note="no detections at all"),
        case(_b([1, 0, 1, 0, 1, 0, 0, 1]), 10, note="ten objects, four found"),
    ],
    hints=[
        "Cumulative sums give the counts after each detection: `tp = np.cumsum(is_tp)` and "
        "`fp = np.cumsum(~is_tp)`. Recall divides by the number of *objects* `n_gt`, precision by "
        "the number of *detections so far*.",
        "The envelope replaces each precision by the best precision at the same or a higher "
        "recall: a running maximum from the right, "
        "`np.maximum.accumulate(precision[::-1])[::-1]`.",
        "AP is the area under the envelope: sum of (recall step) x (envelope) over the list; the "
        "recall steps are `np.diff(recall, prepend=0.0)`. An empty list has AP 0.",
    ],
)

ex4 = Exercise(
    "ex4",
    title="VOC2007 11-point AP",
    reference=voc07_average_precision,
    cases=[
        case(_b([1, 0, 1]), 2, note="hit, miss, hit"),
        case(
            _b([1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1]), 10, note="ten objects: recall passes exactly 0.3"
        ),
        case(_b([1, 1, 1, 1, 1, 1, 0, 1]), 10, note="recall stops at exactly 0.7"),
        case(_b([0, 1, 1, 0, 1]), 3, note="a false positive first"),
        case(_b([1, 0, 0, 1, 1, 0, 1]), 5, note="precision rises again after a dip"),
        case(_b([0, 0]), 4, note="only false positives"),
        case(_b([1, 1]), 2, note="a perfect detector"),
    ],
    hints=[
        "Use exactly the eleven recall levels `np.arange(11) / 10`. `np.arange(0, 1.1, 0.1)` "
        "looks the same but holds 0.30000000000000004 instead of 0.3 (and drifts at 0.6 and 0.7 "
        "too), so a recall of exactly 0.3 would not count as reaching it. Some reference code "
        "(the VOC2007 devkit's `0:0.1:1`, py-faster-rcnn's `voc_eval.py`) does use such drifted "
        "levels; this exercise uses the exact ones.",
        "At each level t take the *largest* precision among the points with recall >= t (that "
        "is the envelope), or 0 if the list never reaches t; average the 11 values.",
    ],
)

# One image, one class, three objects, four detections (continuous coordinates).
EX5_GT = _f([[0, 0, 100, 100], [200, 0, 300, 100], [0, 200, 100, 300]])
EX5_DETECTIONS = _f(
    [
        [4, 0, 104, 100],  # object 0, shifted by 4 pixels
        [218, 0, 318, 100],  # object 1, shifted by 18
        [150, 150, 190, 190],  # nothing there
        [0, 228, 100, 328],
    ]
)  # object 2, shifted by 28
EX5_SCORES = _f([0.9, 0.8, 0.7, 0.6])


def _ex5_answer():
    voc = average_precision(match_image(EX5_DETECTIONS, EX5_SCORES, EX5_GT, 0.5), len(EX5_GT))
    thresholds = np.linspace(0.5, 0.95, 10)  # as pycocotools
    per_threshold = [
        _coco_ap(match_image(EX5_DETECTIONS, EX5_SCORES, EX5_GT, t), len(EX5_GT))
        for t in thresholds
    ]
    return voc, float(np.mean(per_threshold))


ex5 = ValueExercise(
    "ex5",
    variable="answer",
    title="The same detections, two benchmarks",
    answer=_ex5_answer(),
    outputs=("voc_ap50", "coco_ap"),
    atol=5e-4,
    hints=[
        "Compute the IoU of each detection with its object first (your `iou`): the shifts of 4, "
        "18 and 28 pixels give three different overlaps, and the third detection overlaps "
        "nothing. At each IoU threshold, which detections are true positives?",
        "VOC AP50: match at 0.5 and take the all-point AP of exercise 3. COCO: for each threshold "
        "in `np.linspace(0.5, 0.95, 10)` match again, read the envelope at the 101 recall points "
        "`np.linspace(0, 1, 101)` (0 beyond the largest recall reached), average them, then "
        "average over the 10 thresholds.",
    ],
    solution="""
        from mltutor.exercises.map_detection import EX5_DETECTIONS, EX5_GT, EX5_SCORES


        def iou(a, b):
            w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
            h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
            inter = w * h
            return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


        def ranked_hits(threshold):
            # The detections are already sorted by score; greedy matching, each object once.
            taken, hits = set(), []
            for det in EX5_DETECTIONS:
                free = [(iou(det, g), j) for j, g in enumerate(EX5_GT) if j not in taken]
                best = max(free, default=(0.0, -1))
                hits.append(best[0] >= threshold)
                if best[0] >= threshold:
                    taken.add(best[1])
            return np.array(hits)


        def curve(threshold):
            hits = ranked_hits(threshold)
            tp, fp = np.cumsum(hits), np.cumsum(~hits)
            precision = tp / (tp + fp)
            return tp / len(EX5_GT), np.maximum.accumulate(precision[::-1])[::-1]  # envelope


        recall, envelope = curve(0.5)
        voc_ap50 = np.sum(np.diff(recall, prepend=0.0) * envelope)   # all-point area

        per_threshold = []
        for t in np.linspace(0.5, 0.95, 10):
            recall, envelope = curve(t)
            first = np.searchsorted(recall, np.linspace(0, 1, 101), side="left")
            reached = first < len(recall)
            per_threshold.append(np.where(reached, envelope[np.minimum(first, len(recall) - 1)], 0.0).mean())
        coco_ap = np.mean(per_threshold)
        answer = (voc_ap50, coco_ap)
        """,
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex6 = ChoiceExercise(
    "ex6",
    title="A metric for a grasping robot",
    variable="answer_6",
    options={
        "a": (
            "AP at IoU 0.5 (the PASCAL VOC measure)",
            "at IoU 0.5 a box can be far off and still count as a hit, so AP50 does not reward "
            "the tight boxes the robot needs.",
        ),
        "b": (
            "COCO's AP, averaged over IoU thresholds 0.5 to 0.95",
            "averaging over thresholds up to 0.95 gives credit to tight boxes and penalises "
            "loose ones, which is what a grasp needs. AP at IoU 0.75 alone would also point that"
            " way.",
        ),
        "c": (
            "the accuracy of the predicted class labels",
            "class accuracy ignores where the boxes are, which is what the robot depends on.",
        ),
        "d": (
            "recall at IoU 0.1",
            "IoU 0.1 counts almost any overlap as found, and recall ignores false detections.",
        ),
    },
    answer="b",
    hints=[
        "How far off can a box be and still be a match at IoU 0.5?",
        "Which IoU thresholds does COCO average over, and what does a high one ask of a box?",
    ],
)

ex7 = ChoiceExercise(
    "ex7",
    title="More low-scoring boxes",
    variable="answer_7",
    options={
        "a": (
            "lower it, since most extra boxes are false positives",
            "the extra boxes come last in the ranking; the interpolated precision at a recall "
            "level is the best precision at that recall *or beyond*, so extra points at the end "
            "cannot lower it at the recall levels already reached.",
        ),
        "b": (
            "never lower it; raise it if some of the extra boxes find objects missed so far",
            "the extra boxes only add points at the end of the ranking: the earlier envelope can"
            " only rise, and every newly found object adds a recall step. So AP alone does not "
            "punish a flood of low-scoring boxes; COCO's cap of 100 detections per image and "
            "category limits how many of them count.",
        ),
        "c": (
            "nothing at all",
            "an extra box that matches a missed object raises recall, and with it the AP.",
        ),
        "d": (
            "lower it only at high IoU thresholds",
            "the argument does not depend on the IoU threshold: at any threshold, boxes appended"
            " at the end of the ranking cannot lower the interpolated AP.",
        ),
    },
    answer="b",
    hints=[
        "The extra boxes are scored below every other box, in every image, so they are matched "
        "last and ranked after all the others. Which points of the PR curve can they change?",
        "The interpolated precision at recall r is the maximum precision at any recall ≥ r.",
    ],
)


# One image with two dogs (category 2) and a cat (category 1); COCO boxes are [x, y, w, h].
EX8_GT = {
    "images": [{"id": 1}],
    "categories": [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}],
    "annotations": [
        {"id": 1, "image_id": 1, "category_id": 2, "bbox": [0, 0, 10, 10], "area": 100},
        {"id": 2, "image_id": 1, "category_id": 2, "bbox": [20, 0, 10, 10], "area": 100},
        {"id": 3, "image_id": 1, "category_id": 1, "bbox": [40, 0, 10, 10], "area": 100},
    ],
}
EX8_DETECTIONS = [
    {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},  # "cat" on dog 1
    {"image_id": 1, "category_id": 2, "bbox": [1, 0, 10, 10], "score": 0.8},  # dog on dog 1
    {"image_id": 1, "category_id": 2, "bbox": [0, 1, 10, 10], "score": 0.7},  # dog on dog 1
    {"image_id": 1, "category_id": 1, "bbox": [40, 0, 10, 10], "score": 0.6},  # cat on the cat
]


def _ex8_true_positives(class_aware=True, duplicates=False):
    """True positives at IoU 0.5 of EX8, by greedy matching in score order (plain Python)."""

    def corners(b):
        return [b[0], b[1], b[0] + b[2], b[1] + b[3]]

    objects = EX8_GT["annotations"]
    taken = [False] * len(objects)
    tp = 0
    for d in sorted(EX8_DETECTIONS, key=lambda d: -d["score"]):
        best, best_iou = None, 0.5
        for j, g in enumerate(objects):
            same = g["category_id"] == d["category_id"] or not class_aware
            overlap = iou(corners(d["bbox"]), corners(g["bbox"]))
            if same and (duplicates or not taken[j]) and overlap >= best_iou:
                best, best_iou = j, overlap
        if best is not None:
            taken[best] = True
            # class-agnostic: the pair counts on the diagonal only if the labels agree
            tp += objects[best]["category_id"] == d["category_id"]
    return tp


ex8 = ValueExercise(
    "ex8",
    kind="judgement",
    title="COCO's true positives and a confusion matrix",
    variable="tp_8",
    answer=_ex8_true_positives(),
    rtol=0.0,
    atol=0.1,
    wrong_answers=[
        (
            _ex8_true_positives(class_aware=False),
            'that is the diagonal of a class-agnostic matching: the confident "cat" box takes '
            "the first dog, and the dog boxes behind it find the dog taken. COCO matches each "
            "class on its own, so a box with another label takes nothing from a dog box.",
        ),
        (
            _ex8_true_positives(duplicates=True),
            "that counts both dog boxes on the first dog as hits, but an object is found once: "
            "the second box on it is a duplicate, a false positive. (The second dog is found by "
            "no box at all.)",
        ),
        (
            4,
            "that counts every box that overlaps an object at IoU 0.5, whatever its label and "
            "even if the object was found already: a true positive needs the right class and a "
            "free object.",
        ),
    ],
    hints=[
        "COCO matches each class separately: list the dog detections against the dog objects, "
        "then the cat detections against the cat, each by decreasing score.",
        "Inside a class an object can be taken once; a later box on a taken object is a false "
        "positive. A box of another class never takes a dog, whatever its score.",
        "In the chapter, `detection_confusion_matrix` from `mltutor.detection` puts COCO's true "
        "positives on its diagonal; here (the grader has no mltutor) match by hand, class by "
        "class.",
    ],
    solution="""
        from mltutor.detection import detection_confusion_matrix
        from mltutor.exercises.map_detection import EX8_DETECTIONS, EX8_GT

        matrix = detection_confusion_matrix(EX8_GT, EX8_DETECTIONS)["matrix"]
        tp_8 = int(np.trace(matrix[:-1, :-1]))  # the diagonal without the background cell
        """,
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_map_detection.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_parts(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    return w, h, area_a, area_b


def _wrong_ex1_union_without_subtracting(a, b):
    w, h, area_a, area_b = _wrong_parts(a, b)
    inter = max(w, 0) * max(h, 0)
    return inter / (area_a + area_b)


def _wrong_ex1_plus_one_pixel(a, b):
    w, h = min(a[2], b[2]) - max(a[0], b[0]) + 1, min(a[3], b[3]) - max(a[1], b[1]) + 1
    inter = max(w, 0) * max(h, 0)
    area_a = (a[2] - a[0] + 1) * (a[3] - a[1] + 1)
    area_b = (b[2] - b[0] + 1) * (b[3] - b[1] + 1)
    return inter / (area_a + area_b - inter)


def _wrong_ex1_over_smaller_box(a, b):
    w, h, area_a, area_b = _wrong_parts(a, b)
    return max(w, 0) * max(h, 0) / min(area_a, area_b)


def _wrong_match(det, scores, gt, thr, *, order="score", reuse=False, strict=False, voc=False):
    is_tp = np.zeros(len(det), dtype=bool)
    taken = np.zeros(len(gt), dtype=bool)
    visit = np.argsort(-np.asarray(scores), kind="stable") if order == "score" else range(len(det))
    for d in visit:
        ious = np.array([iou(det[d], g) for g in gt])
        if voc:
            if len(gt) and ious.max() >= thr:
                g = int(np.argmax(ious))
                if not taken[g]:
                    taken[g] = is_tp[d] = True
            continue
        ok = (ious > thr if strict else ious >= thr) & (reuse | ~taken)
        if ok.any():
            g = int(np.argmax(np.where(ok, ious, -1)))
            taken[g] = is_tp[d] = True
    return is_tp


def _wrong_ex2_gt_matched_twice(det, scores, gt, iou_threshold=0.5):
    return _wrong_match(det, scores, gt, iou_threshold, reuse=True)


def _wrong_ex2_input_order(det, scores, gt, iou_threshold=0.5):
    return _wrong_match(det, scores, gt, iou_threshold, order="input")


def _wrong_ex2_strictly_above_threshold(det, scores, gt, iou_threshold=0.5):
    return _wrong_match(det, scores, gt, iou_threshold, strict=True)


def _wrong_points(is_tp, n_gt):
    is_tp = np.asarray(is_tp, dtype=bool)
    tp, fp = np.cumsum(is_tp), np.cumsum(~is_tp)
    return tp, fp


def _wrong_ex3_no_envelope(is_tp, n_gt):
    tp, fp = _wrong_points(is_tp, n_gt)
    if not len(tp):
        return 0.0
    recall, precision = tp / n_gt, tp / (tp + fp)
    return float(np.sum(np.diff(recall, prepend=0.0) * precision))


def _wrong_ex3_only_found_objects(is_tp, n_gt):
    found = int(np.sum(is_tp))
    return average_precision(is_tp, found) if found else 0.0


def _wrong_ex3_eleven_points(is_tp, n_gt):
    return float(voc07_average_precision(is_tp, n_gt))


def _wrong_eleven(is_tp, n_gt, points, *, envelope=True, divide=11, strict=False):
    tp, fp = _wrong_points(is_tp, n_gt)
    recall, precision = tp / n_gt, tp / np.maximum(tp + fp, 1)
    total = 0.0
    for t in points:
        reached = recall > t if strict else recall >= t
        if reached.any():
            total += precision[reached].max() if envelope else precision[np.argmax(reached)]
    return total / divide


def _wrong_ex4_no_envelope(is_tp, n_gt):
    return _wrong_eleven(is_tp, n_gt, np.arange(11) / 10, envelope=False)


def _wrong_ex4_divide_by_ten(is_tp, n_gt):
    return _wrong_eleven(is_tp, n_gt, np.arange(11) / 10, divide=10)


def _wrong_ex4_all_point_instead(is_tp, n_gt):
    return average_precision(is_tp, n_gt)


ex1.misconceptions = [
    Misconception(
        "union_not_subtracted",
        "the union as area A + area B, without subtracting the overlap",
        _wrong_ex1_union_without_subtracting,
    ),
    Misconception(
        "plus_one_pixel",
        "the old +1-pixel convention for widths and heights",
        _wrong_ex1_plus_one_pixel,
    ),
    Misconception(
        "over_smaller_box",
        "the overlap divided by the smaller box's area instead of the union",
        _wrong_ex1_over_smaller_box,
    ),
]
ex2.misconceptions = [
    Misconception(
        "gt_matched_twice",
        "a ground-truth box matched by more than one detection",
        _wrong_ex2_gt_matched_twice,
    ),
    Misconception(
        "input_order",
        "the order mixed up: match detections by decreasing score, and return the result in "
        "input order",
        _wrong_ex2_input_order,
    ),
    Misconception(
        "strict_greater", "IoU `>` threshold instead of `>=`", _wrong_ex2_strictly_above_threshold
    ),
]
ex3.misconceptions = [
    Misconception(
        "no_envelope",
        "precision at each step without the upper envelope (COCO/VOC-2010 interpolation)",
        _wrong_ex3_no_envelope,
    ),
    Misconception(
        "only_found_objects",
        "recall divided by the objects found, not by all ground-truth objects",
        _wrong_ex3_only_found_objects,
    ),
    Misconception(
        "eleven_points",
        "the VOC 2007 11-point average instead of the all-point area",
        _wrong_ex3_eleven_points,
    ),
]
ex4.misconceptions = [
    Misconception(
        "no_envelope",
        "the precision at the first point reaching each recall level, not the best "
        "precision from there on",
        _wrong_ex4_no_envelope,
    ),
    Misconception(
        "divide_by_ten", "the sum over 11 recall levels divided by 10", _wrong_ex4_divide_by_ten
    ),
    Misconception(
        "all_point",
        "the all-point area instead of the 11-point average",
        _wrong_ex4_all_point_instead,
    ),
]
