"""Exercises for chapter 7c, *Masks, keypoints and why AP is low*.

=====  =========================================================================================
ex1    COCO's uncompressed run-length counts of a binary mask          ``rle_counts``
ex2    the object keypoint similarity of one detection, own sigmas      ``oks``
ex3    the TIDE cause of one false positive, from its three best IoUs  ``false_positive_cause``
ex4    judgement: which fix to fund first, from an error breakdown (a letter)
ex5    judgement: box AP or mask AP for a hose segmenter (a letter)
ex6    judgement: sigmas for a hand skeleton (a letter)
=====  =========================================================================================

The reference solutions below are plain NumPy (``mltutor.detection`` is deliberately not used,
so an exercise cannot inherit its bugs); tests/test_exercises_masks_keypoints_errors.py checks
them against ``pycocotools`` and ``mltutor.detection``.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def rle_counts(mask):
    """COCO's uncompressed RLE counts: run lengths of the pixels read column by column,
    starting with a run of zeros (of length 0 when the first pixel is set)."""
    pixels = np.asarray(mask).astype(bool).flatten(order="F")  # down each column in turn
    change = np.flatnonzero(pixels[1:] != pixels[:-1]) + 1  # where a new run starts
    runs = np.diff(np.r_[0, change, pixels.size]).tolist()
    if pixels.size and pixels[0]:
        runs = [0] + runs  # the first run always counts zeros
    return [int(r) for r in runs]


def oks(found, truth, visible, area, sigmas):
    """Object keypoint similarity of one detection with one object (COCO's formula)."""
    found, truth = np.asarray(found, float), np.asarray(truth, float)
    visible = np.asarray(visible, bool)
    sigmas = np.asarray(sigmas, float)
    d2 = ((found - truth) ** 2).sum(axis=1)  # squared distances, per joint
    similarity = np.exp(-d2 / (2 * (area + np.spacing(1)) * (2 * sigmas) ** 2))
    return float(similarity[visible].mean())  # labelled keypoints only


def false_positive_cause(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    """TIDE's cause of a false positive, from its best IoU with an object of its own class, with
    an object of another class, and with an own-class object another detection already found."""
    if t_b <= iou_same <= t_f:
        return "localisation"
    if iou_other >= t_f:
        return "classification"
    if iou_same_taken >= t_f:
        return "duplicate"
    if max(iou_same, iou_other) <= t_b:
        return "background"
    return "both"


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _m(rows):
    return np.array(rows, dtype=np.uint8)


_BLOB = _m([[0, 0, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 1, 0, 0]])

ex1 = Exercise(
    "ex1",
    title="Run-length encode a mask",
    reference=rle_counts,
    cases=[
        case(_BLOB, note="the chapter's mask"),
        case(1 - _BLOB, note="the first pixel is set"),
        case(np.zeros((2, 3), np.uint8), note="an empty mask"),
        case(np.ones((2, 2), np.uint8), note="every pixel set"),
        case(
            _m([[0, 1, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0]]), note="a vertical bar: order matters"
        ),
        case(np.eye(3, dtype=np.uint8), note="a diagonal line"),
        case(_m([[1, 1, 0, 1, 0, 0]]), note="a single row"),
        case(_m([[1], [0], [1], [1]]), note="a single column"),
        case(np.eye(4, dtype=bool)[:, ::-1], note="a boolean mask, the other diagonal"),
    ],
    hints=[
        "Read the pixels column by column: `np.asarray(mask).flatten(order='F')` goes down the "
        "first column, then the second, and so on (NumPy's default `'C'` order reads rows).",
        "A new run starts wherever a pixel differs from the one before it: "
        "`np.flatnonzero(pixels[1:] != pixels[:-1]) + 1`. The run lengths are the differences "
        "between consecutive run starts, with 0 in front and the number of pixels at the end.",
        "COCO's first run always counts zeros. If the very first pixel is set, that run is "
        "empty: put a 0 in front of the list.",
    ],
)

_COW_TRUTH = np.array(
    [[110, 80], [140, 72], [195, 74], [185, 80], [138, 120], [145, 121], [188, 120], [194, 121]],
    float,
)
_COW_SIGMAS = np.array([0.024, 0.092, 0.048, 0.076, 0.031, 0.031, 0.030, 0.032])
_COW_VISIBLE = np.array([1, 1, 1, 1, 1, 1, 0, 1], bool)
_COW_AREA = 110 * 60 * 0.55
_HAND_TRUTH = np.array([[20, 40], [30, 12], [40, 8], [50, 10], [60, 18]], float)
_HAND_SIGMAS = np.array([0.05, 0.02, 0.02, 0.02, 0.02])  # wrist, then four fingertips

ex2 = Exercise(
    "ex2",
    title="OKS with your own sigmas",
    reference=oks,
    cases=[
        case(
            _COW_TRUTH + [4, 0],
            _COW_TRUTH,
            _COW_VISIBLE,
            _COW_AREA,
            _COW_SIGMAS,
            note="the chapter's cow, 4 px to the right, one hoof not labelled",
        ),
        case(
            _COW_TRUTH,
            _COW_TRUTH,
            np.ones(8, bool),
            _COW_AREA,
            _COW_SIGMAS,
            note="a perfect detection",
        ),
        case(
            _HAND_TRUTH + [[0, 0], [2, 1], [-1, 3], [0, -2], [3, 3]],
            _HAND_TRUTH,
            np.ones(5, bool),
            1500.0,
            _HAND_SIGMAS,
            note="a hand: wrist and four fingertips",
        ),
        case(
            _HAND_TRUTH + 2.0,
            _HAND_TRUTH,
            np.array([1, 0, 0, 1, 1], bool),
            1500.0,
            _HAND_SIGMAS,
            note="two fingertips not labelled",
        ),
        case(
            _COW_TRUTH + [4, 0],
            _COW_TRUTH,
            _COW_VISIBLE,
            4 * _COW_AREA,
            _COW_SIGMAS,
            note="the same error on a cow twice the size",
        ),
        case(
            np.array([[12.0, 9.0]]),
            np.array([[10.0, 10.0]]),
            np.ones(1, bool),
            400.0,
            np.array([0.1]),
            note="a single keypoint",
        ),
        case(
            _COW_TRUTH + 40,
            _COW_TRUTH,
            _COW_VISIBLE,
            _COW_AREA,
            _COW_SIGMAS,
            note="a detection far from every joint",
        ),
    ],
    rtol=1e-9,
    atol=1e-12,
    hints=[
        "Per keypoint: the squared distance `d2 = ((found - truth) ** 2).sum(axis=1)` and the "
        "similarity `exp(-d2 / (2 * area * (2 * sigma) ** 2))`. Note the `2 * sigma`: COCO's "
        "constant per joint is twice its sigma.",
        "OKS is the mean similarity over the **labelled** keypoints only "
        "(`similarity[visible].mean()`); a keypoint that is not labelled does not count, however "
        "close or far the detection put it.",
        "The area enters as is, not its square root: the formula divides the squared distance by "
        "an area, so both sides are in pixels squared.",
    ],
)

ex3 = Exercise(
    "ex3",
    title="Why is this box a false positive?",
    reference=false_positive_cause,
    cases=[
        case(0.3, 0.0, 0.0, note="right class, badly placed"),
        case(0.5, 0.0, 0.0, note="own-class IoU exactly t_f"),
        case(0.1, 0.0, 0.0, note="own-class IoU exactly t_b"),
        case(0.0, 0.7, 0.0, note="right place, wrong class"),
        case(0.3, 0.7, 0.0, note="both tests hold: the order decides"),
        case(0.8, 0.0, 0.8, note="a second box on a found object"),
        case(0.6, 0.55, 0.6, note="on a found object and on another class"),
        case(0.05, 0.02, 0.0, note="overlaps nothing"),
        case(0.0, 0.1, 0.0, note="other-class IoU exactly t_b"),
        case(0.05, 0.3, 0.0, note="wrong class and badly placed"),
        case(0.6, 0.0, 0.0, 0.75, 0.3, note="stricter thresholds t_f = 0.75, t_b = 0.3"),
    ],
    hints=[
        "Test the causes in TIDE's order and return at the first that holds: localisation, "
        "classification, duplicate, background, and 'both' for everything else.",
        "Localisation is `t_b <= iou_same <= t_f`, both ends included; background is "
        "`max(iou_same, iou_other) <= t_b`, also included.",
        "A duplicate needs a same-class object that was *already found* (`iou_same_taken`), "
        "overlapped by at least `t_f`.",
    ],
)


# --------------------------------------------------------------------------------------------
# Judgement exercises: a scenario and a decision; every wrong option explains itself
# --------------------------------------------------------------------------------------------

ex4 = ChoiceExercise(
    "ex4",
    title="Which fix to fund first",
    variable="answer_4",
    options={
        "a": (
            "the duplicates: they are the most frequent error",
            "a count is not a cost: a duplicate never scores above the hit that took its object "
            "(greedy matching goes in score order), duplicates often come late in the ranking, "
            "and their ΔAP is the second smallest of the four.",
        ),
        "b": (
            "better box regression: localisation has the largest ΔAP",
            "ΔAP is the AP that fixing one cause alone would buy, and localisation buys the "
            "most; the count of errors does not say what they cost.",
        ),
        "c": (
            "each of the four in proportion to its share of 1 - AP50, since the ΔAPs add up to it",
            "each ΔAP fixes one cause and leaves the others in place, so the ΔAPs are not shares "
            "of 1 - AP and their sum means nothing (chapter 7c's sloppy detector: 0.424 against "
            "0.493).",
        ),
        "d": (
            "fewer boxes on empty ground: background boxes are the false positives that no "
            "object explains",
            "the background boxes buy the least of the four here: their small ΔAP says they "
            "mostly come late in the ranking, where a false positive costs little AP, however "
            "wrong it is.",
        ),
    },
    answer="b",
    hints=[
        "Which column of the breakdown is measured in AP, and which only counts errors?",
        "Sort the four causes by ΔAP, not by count.",
    ],
)

ex5 = ChoiceExercise(
    "ex5",
    title="Box AP or mask AP for a hose segmenter",
    variable="answer_5",
    options={
        "a": (
            "accept: the masks come from the same detections, so their AP is about 0.87 too",
            "the same detections can score very differently on their masks: a thin object's "
            "box barely moves when the mask slides across its width (chapter 7c: box IoU 0.931,"
            " mask IoU 0.336 for a 5-pixel hose).",
        ),
        "b": (
            "accept: box AP75 is strict enough to stand in for mask AP",
            "a stricter box threshold does not measure the pixels: in chapter 7c every hose box"
            " counted at IoU 0.75 (box AP75 1.000) while hardly any hose mask did (0.057).",
        ),
        "c": (
            'ask for mask AP (iou_type="segm"), with mask areas in the annotations, before '
            "deciding",
            "the robot needs the pixels, so the match must be measured on the masks; for thin "
            "objects box AP says little about them, and the size ranges need the mask's area, "
            "not the box's.",
        ),
        "d": (
            "accept: mask AP is always at least box AP, because a mask is more precise than a box",
            "a mask fits the object more closely, which makes its IoU *more* sensitive to a "
            "small shift, not less; for the hoses of chapter 7c mask AP was 0.173 against a "
            "box AP of 0.867.",
        ),
    },
    answer="c",
    hints=[
        "What does the robot need to know: where the hose's box is, or which pixels it covers?",
        "For a long, thin object, what fraction of its box does a 2-pixel shift change, and what "
        "fraction of its mask?",
    ],
)

ex6 = ChoiceExercise(
    "ex6",
    title="Sigmas for a hand skeleton",
    variable="answer_6",
    options={
        "a": (
            "COCO's person sigmas: the wrist's for the wrist, the ankles' and the eyes' for the "
            "fingertips",
            "COCO's sigmas were measured for people's joints from COCO's annotations; a "
            "fingertip judged by an ankle's or an eye's sigma is judged by a precision that was "
            "measured for another joint.",
        ),
        "b": (
            "one sigma for every keypoint, their mean, so that no joint is favoured",
            "one sigma judges every joint by the same precision: errors at the sharp "
            "fingertips then count as little as errors at the vaguer wrist (chapter 7c's two "
            "cow detectors, 0.740 and 0.736 with one sigma, were 0.624 and 0.932 with their "
            "own).",
        ),
        "c": (
            "sigmas estimated per keypoint from several annotators labelling the same hands: "
            "the spread of their labels around the consensus, relative to the hand's scale",
            "a sigma says how precisely a joint *can* be placed, and repeated annotations "
            "measure that, joint by joint.",
        ),
        "d": (
            "very small sigmas for every keypoint, so that the evaluation is strict",
            "with tiny sigmas every similarity falls to about 0 at a pixel or two, far below "
            "what annotators themselves agree on: AP then ranks detectors by label noise.",
        ),
    },
    answer="c",
    hints=[
        "What does sigma stand for in OKS: how much a joint matters, or how precisely it can be "
        "placed?",
        "How did chapter 7c get the cow's sigmas?",
    ],
)


# --------------------------------------------------------------------------------------------
# Known mistakes: a failing check names the one whose results the learner's match
# (tests/test_exercises_masks_keypoints_errors.py proves each with an independent wrong version)
# --------------------------------------------------------------------------------------------


def _wrong_ex1_row_major(mask):
    return rle_counts(np.asarray(mask).T)  # reading rows = reading the columns of the transpose


def _wrong_ex1_no_leading_zero(mask):
    runs = rle_counts(mask)
    return runs[1:] if runs and runs[0] == 0 and len(runs) > 1 else runs


def _wrong_ex1_ones_only(mask):
    return rle_counts(mask)[1::2]


def _wrong_ex2_sigma_not_doubled(found, truth, visible, area, sigmas):
    return oks(found, truth, visible, area, np.asarray(sigmas, float) / 2)


def _wrong_ex2_unlabelled_counted(found, truth, visible, area, sigmas):
    return oks(found, truth, np.ones(len(truth), bool), area, sigmas)


def _wrong_ex2_sqrt_area(found, truth, visible, area, sigmas):
    return oks(found, truth, visible, np.sqrt(area), sigmas)


def _wrong_ex3_classification_first(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    if iou_other >= t_f:
        return "classification"
    return false_positive_cause(iou_same, iou_other, iou_same_taken, t_f, t_b)


def _wrong_ex3_strict_bounds(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    if t_b < iou_same < t_f:
        return "localisation"
    if iou_other >= t_f:
        return "classification"
    if iou_same_taken >= t_f:
        return "duplicate"
    if max(iou_same, iou_other) < t_b:
        return "background"
    return "both"


def _wrong_ex3_no_duplicate(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    return false_positive_cause(iou_same, iou_other, 0.0, t_f, t_b)


ex1.misconceptions = [
    Misconception(
        "row_major",
        "the pixels read row by row; COCO reads them column by column",
        _wrong_ex1_row_major,
    ),
    Misconception(
        "no_leading_zero",
        "no empty run of zeros in front when the first pixel is set",
        _wrong_ex1_no_leading_zero,
    ),
    Misconception(
        "ones_only",
        "only the runs of ones listed; COCO lists the zeros' runs too",
        _wrong_ex1_ones_only,
    ),
]
ex2.misconceptions = [
    Misconception(
        "sigma_not_doubled",
        "sigma in the formula where COCO has 2 * sigma",
        _wrong_ex2_sigma_not_doubled,
    ),
    Misconception(
        "unlabelled_counted",
        "the mean over every keypoint, labelled or not",
        _wrong_ex2_unlabelled_counted,
    ),
    Misconception(
        "sqrt_area",
        "the square root of the area where the formula has the area",
        _wrong_ex2_sqrt_area,
    ),
]
ex3.misconceptions = [
    Misconception(
        "classification_first",
        "classification tested before localisation",
        _wrong_ex3_classification_first,
    ),
    Misconception(
        "strict_bounds",
        "strict inequalities at t_b and t_f, where TIDE includes them",
        _wrong_ex3_strict_bounds,
    ),
    Misconception(
        "no_duplicate",
        "no duplicate test: a second box on a found object is not 'both'",
        _wrong_ex3_no_duplicate,
    ),
]
