"""Exercises for chapter 8b, *Video beyond clips: videos, splits and temporal detection*.

=====  =========================================================================================
ex1    a video's prediction from its clips' logits (mean of probabilities)   ``video_prediction``
ex2    temporal IoU of every pair of segments                                ``segment_tiou``
ex3    AP of one class under ActivityNet's rules                             ``class_ap``
ex4    judgement: which number goes next to a paper's UCF101 accuracy? (a letter)
ex5    judgement: is one method's temporal mAP really higher? (a letter)
=====  =========================================================================================

The functions below are the reference solutions, in plain NumPy (independent of
:mod:`mltutor.detection.temporal`, so an exercise cannot inherit its bugs).  Every case is small
enough to check by hand.
"""

from __future__ import annotations

import numpy as np

from mltutor.check import ChoiceExercise, Exercise, Misconception, case

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5"]


# --------------------------------------------------------------------------------------------
# Reference solutions (shown by exN.solution())
# --------------------------------------------------------------------------------------------


def video_prediction(clip_logits):
    """Class of each video: arg-max of the mean over its clips of the softmax probabilities.

    ``clip_logits`` has shape (n_videos, n_clips, n_classes).  Ties go to the lowest class.
    """
    z = np.asarray(clip_logits, dtype=float)
    z = z - z.max(axis=-1, keepdims=True)  # stable softmax: exp never overflows
    p = np.exp(z)
    p /= p.sum(axis=-1, keepdims=True)
    return p.mean(axis=1).argmax(axis=1)


def segment_tiou(a, b):
    """tIoU of every row of ``a`` (n, 2) with every row of ``b`` (m, 2); rows are [start, end]."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    inter = (
        np.minimum(a[:, None, 1], b[None, :, 1]) - np.maximum(a[:, None, 0], b[None, :, 0])
    ).clip(min=0)
    union = (a[:, 1] - a[:, 0])[:, None] + (b[:, 1] - b[:, 0])[None, :] - inter
    return inter / union


def class_ap(gt_video, gt_segments, det_video, det_segments, det_scores, threshold):
    """AP of one class, ActivityNet's rules.

    Detections in decreasing score order (equal scores: the later detection first); each takes
    the still-free ground-truth segment *of its own video* with the highest tIoU if that tIoU is
    >= ``threshold``.  AP is the area under the precision envelope (all-point interpolation).
    """
    gt_video, det_video = np.asarray(gt_video), np.asarray(det_video)
    gt_segments = np.asarray(gt_segments, dtype=float).reshape(-1, 2)
    det_segments = np.asarray(det_segments, dtype=float).reshape(-1, 2)
    scores = np.asarray(det_scores, dtype=float)
    order = np.lexsort((-np.arange(scores.size), -scores))
    free = np.ones(len(gt_segments), dtype=bool)
    hit = np.zeros(scores.size, dtype=bool)
    for i in order:
        s, e = det_segments[i]
        inter = (np.minimum(e, gt_segments[:, 1]) - np.maximum(s, gt_segments[:, 0])).clip(min=0)
        overlap = inter / ((e - s) + (gt_segments[:, 1] - gt_segments[:, 0]) - inter)
        overlap[~free | (gt_video != det_video[i])] = -1.0
        j = len(overlap) - 1 - np.argmax(overlap[::-1]) if overlap.size else 0
        if overlap.size and overlap[j] >= threshold:  # a tIoU tie: the later segment
            free[j] = False
            hit[i] = True
    tp = np.cumsum(hit[order])
    recall = tp / len(gt_segments)
    precision = tp / np.arange(1, scores.size + 1)
    envelope = np.maximum.accumulate(precision[::-1])[::-1] if scores.size else precision
    return float(np.sum(np.diff(np.r_[0.0, recall]) * envelope))


# --------------------------------------------------------------------------------------------
# Known mistakes
# --------------------------------------------------------------------------------------------


def _mean_of_logits(clip_logits):
    return np.asarray(clip_logits, dtype=float).mean(axis=1).argmax(axis=1)


def _majority_vote(clip_logits):
    z = np.asarray(clip_logits, dtype=float)
    votes = np.zeros((z.shape[0], z.shape[2]))
    np.add.at(votes, (np.arange(z.shape[0])[:, None], z.argmax(-1)), 1)
    return votes.argmax(axis=1)


def _max_over_clips(clip_logits):
    z = np.asarray(clip_logits, dtype=float)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return p.max(axis=1).argmax(axis=1)


def _first_clip_only(clip_logits):
    return np.asarray(clip_logits, dtype=float)[:, 0].argmax(axis=1)


def _over_summed_lengths(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    inter = (
        np.minimum(a[:, None, 1], b[None, :, 1]) - np.maximum(a[:, None, 0], b[None, :, 0])
    ).clip(min=0)
    return inter / ((a[:, 1] - a[:, 0])[:, None] + (b[:, 1] - b[:, 0])[None, :])


def _over_second_length(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    inter = (
        np.minimum(a[:, None, 1], b[None, :, 1]) - np.maximum(a[:, None, 0], b[None, :, 0])
    ).clip(min=0)
    return inter / (b[:, 1] - b[:, 0])[None, :]


def _negative_overlap_kept(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    inter = np.minimum(a[:, None, 1], b[None, :, 1]) - np.maximum(a[:, None, 0], b[None, :, 0])
    union = (a[:, 1] - a[:, 0])[:, None] + (b[:, 1] - b[:, 0])[None, :] - inter
    return inter / union


def _ap_variant(
    gt_video,
    gt_segments,
    det_video,
    det_segments,
    det_scores,
    threshold,
    *,
    reuse=False,
    strict=False,
    any_video=False,
    eleven=False,
):
    gt_video, det_video = np.asarray(gt_video), np.asarray(det_video)
    gt_segments = np.asarray(gt_segments, dtype=float).reshape(-1, 2)
    det_segments = np.asarray(det_segments, dtype=float).reshape(-1, 2)
    scores = np.asarray(det_scores, dtype=float)
    order = np.lexsort((-np.arange(scores.size), -scores))
    free = np.ones(len(gt_segments), dtype=bool)
    hit = np.zeros(scores.size, dtype=bool)
    for i in order:
        overlap = segment_tiou(det_segments[i : i + 1], gt_segments)[0]
        blocked = np.zeros(len(gt_segments), dtype=bool)
        if not reuse:
            blocked |= ~free
        if not any_video:
            blocked |= gt_video != det_video[i]
        overlap[blocked] = -1.0
        if overlap.size == 0:
            continue
        j = len(overlap) - 1 - np.argmax(overlap[::-1])
        if (overlap[j] > threshold) if strict else (overlap[j] >= threshold):
            free[j] = False
            hit[i] = True
    tp = np.cumsum(hit[order])
    recall = np.minimum(tp / len(gt_segments), 1.0)
    precision = tp / np.arange(1, scores.size + 1)
    if scores.size == 0:
        return 0.0
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    if eleven:
        return float(
            np.mean([envelope[recall >= r].max(initial=0.0) for r in np.linspace(0, 1, 11)])
        )
    return float(np.sum(np.diff(np.r_[0.0, recall]) * envelope))


def _duplicates_count(*args):
    return _ap_variant(*args, reuse=True)


def _strict_threshold(*args):
    return _ap_variant(*args, strict=True)


def _videos_ignored(*args):
    return _ap_variant(*args, any_video=True)


def _eleven_point(*args):
    return _ap_variant(*args, eleven=True)


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


def _a(values, dtype=float):
    return np.array(values, dtype=dtype)


ex1 = Exercise(
    "ex1",
    title="A video's class from its clips",
    reference=video_prediction,
    cases=[
        case(
            _a([[[10.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 3.0, 0.0]]]),
            note="one very confident clip against two fairly confident ones",
        ),
        case(
            _a([[[2.0, 0.0], [0.0, 0.5]], [[0.0, 3.0], [1.0, 0.0]]]),
            note="two videos, two clips, two classes",
        ),
        case(_a([[[1.0, 2.0, 0.5]], [[3.0, 0.0, 0.0]]]), note="one clip per video"),
        case(
            _a([[[800.0, 0.0, 790.0], [0.0, 805.0, 0.0]]]),
            note="huge logits: a naive exp overflows",
        ),
        case(
            _a([[[5.0, 0.0, 0.0], [0.0, 0.0, 5.0], [0.0, 0.0, 0.0]]]),
            note="two classes tie on the mean probability: the lower class wins",
        ),
        case(
            _a([[[3.0, 0.0, 2.9], [0.0, 0.0, 2.9], [3.0, 0.0, 2.9], [0.0, 0.0, 2.9]]]),
            note="the vote and the probabilities disagree",
        ),
        case(np.random.default_rng(8).normal(0, 3, (6, 5, 4)), note="six random videos"),
    ],
    misconceptions=[
        Misconception(
            "mean_of_logits",
            "the arg-max of the mean of the logits, not of the probabilities",
            _mean_of_logits,
        ),
        Misconception("majority_vote", "a majority vote of the clips' arg-max", _majority_vote),
        Misconception(
            "max_over_clips",
            "the highest probability of any single clip instead of the mean",
            _max_over_clips,
        ),
        Misconception("first_clip_only", "the first clip's prediction only", _first_clip_only),
    ],
    hints=[
        "Softmax each clip's logits over the last axis, average over the clips (axis 1), then "
        "take the arg-max over the classes.",
        "Subtract each row's maximum before `np.exp`: the probabilities do not change and the "
        "exponential cannot overflow.",
        "`np.argmax` returns the first maximum, which gives ties to the lowest class.",
    ],
)

ex2 = Exercise(
    "ex2",
    title="Temporal IoU of every pair",
    reference=segment_tiou,
    cases=[
        case(_a([[10.0, 20.0]]), _a([[15.0, 25.0]]), note="half-overlapping segments"),
        case(
            _a([[0.0, 10.0]]),
            _a([[2.0, 4.0], [0.0, 10.0]]),
            note="one inside the other, and identical",
        ),
        case(
            _a([[0.0, 5.0]]),
            _a([[5.0, 9.0], [7.0, 9.0]]),
            note="touching at one instant, and far apart",
        ),
        case(
            _a([[1.0, 3.0], [4.0, 9.0]]),
            _a([[2.0, 6.0], [0.0, 1.0], [8.0, 12.0]]),
            note="two by three segments",
        ),
        case(_a([[30.0, 34.0]]), _a([[10.0, 20.0]]), note="no overlap at all"),
        case(
            _a([[0.5, 2.5], [100.0, 160.0]]),
            _a([[1.5, 2.0], [90.0, 170.0]]),
            note="a short and a long action",
        ),
    ],
    misconceptions=[
        Misconception(
            "over_summed_lengths",
            "the intersection divided by the sum of the two "
            "lengths, which counts the overlap twice",
            _over_summed_lengths,
        ),
        Misconception(
            "over_second_length",
            "the intersection divided by the second segment's "
            "length (coverage of the ground truth), not by the union",
            _over_second_length,
        ),
        Misconception(
            "negative_overlap",
            "disjoint segments given a negative 'intersection' instead of 0",
            _negative_overlap_kept,
        ),
    ],
    hints=[
        "Broadcast: `a[:, None, 0]` against `b[None, :, 0]` gives an (n, m) array of starts.",
        "The intersection is `min(ends) - max(starts)`, and 0 when that is negative.",
        "The union is the two lengths added, minus the intersection.",
    ],
)

_GT_V = _a(["v1", "v1", "v2"], object)
_GT_S = _a([[0.0, 10.0], [20.0, 30.0], [5.0, 15.0]])

ex3 = Exercise(
    "ex3",
    title="AP of one class, ActivityNet's rules",
    reference=class_ap,
    cases=[
        case(
            _GT_V,
            _GT_S,
            _a(["v1", "v1", "v2"], object),
            _a([[0.0, 10.0], [20.0, 31.0], [5.0, 14.0]]),
            _a([0.9, 0.8, 0.7]),
            0.5,
            note="three good detections",
        ),
        case(
            _GT_V,
            _GT_S,
            _a(["v1", "v1", "v1"], object),
            _a([[0.0, 10.0], [1.0, 10.0], [20.0, 30.0]]),
            _a([0.9, 0.8, 0.7]),
            0.5,
            note="a second detection of a found action",
        ),
        case(
            _GT_V,
            _GT_S,
            _a(["v1", "v2"], object),
            _a([[0.0, 5.0], [5.0, 15.0]]),
            _a([0.9, 0.6]),
            0.5,
            note="a tIoU of exactly the threshold counts",
        ),
        case(
            _GT_V,
            _GT_S,
            _a(["v2", "v1"], object),
            _a([[0.0, 10.0], [5.0, 15.0]]),
            _a([0.9, 0.8]),
            0.5,
            note="detections that fit another video's actions",
        ),
        case(
            _GT_V,
            _GT_S,
            _a(["v1", "v1", "v2", "v2"], object),
            _a([[50.0, 60.0], [0.0, 9.0], [5.0, 15.0], [40.0, 45.0]]),
            _a([0.95, 0.9, 0.5, 0.4]),
            0.5,
            note="a false positive ranked first",
        ),
        case(
            _GT_V,
            _GT_S,
            _a([], object),
            _a([]).reshape(0, 2),
            _a([]),
            0.5,
            note="no detection at all",
        ),
        case(
            _a(["v1"] * 11, object),
            np.c_[np.arange(11) * 10.0, np.arange(11) * 10.0 + 5],
            _a(["v1"] * 3, object),
            _a([[0.0, 5.0], [100.0, 105.0], [10.0, 15.0]]),
            _a([0.9, 0.8, 0.7]),
            0.5,
            note="eleven actions: the interpolation matters",
        ),
    ],
    misconceptions=[
        Misconception(
            "duplicates_count",
            "every detection that overlaps an action by the "
            "threshold counted as a hit, even when the action was already taken",
            _duplicates_count,
        ),
        Misconception(
            "strict_threshold",
            "a tIoU strictly above the threshold required "
            "(THUMOS'14's > instead of ActivityNet's >=)",
            _strict_threshold,
        ),
        Misconception(
            "videos_ignored", "detections matched to ground truth of any video", _videos_ignored
        ),
        Misconception(
            "eleven_point",
            "11-point interpolated AP (THUMOS'14's) instead of the all-point area",
            _eleven_point,
        ),
    ],
    hints=[
        "Visit the detections from the highest score down. Keep a boolean array of the "
        "ground-truth segments still free.",
        "A detection may only take a free segment of its own video; among those take the one "
        "of highest tIoU, and only if that tIoU is at least `threshold`.",
        "Precision and recall after each detection; the envelope is the running maximum of "
        "precision from the end; AP adds envelope × recall step.",
    ],
)

ex4 = ChoiceExercise(
    "ex4",
    title="Which number goes next to the paper's?",
    variable="answer_4",
    options={
        "a": (
            "The clip accuracy on split 1, since it needs one forward pass per clip",
            "clip accuracy scores single clips; the paper scores whole videos, and in "
            "chapter 8b the two differ by tens of points on one model.",
        ),
        "b": (
            "The video accuracy on split 1 with 10 random views, from the run that scored "
            "highest of five",
            "random views make the number change from run to run, and the best of five runs "
            "is chosen with the test labels; one split is also not the protocol.",
        ),
        "c": (
            "The mean over the three splits of the video accuracy with fixed 3 × 3 views, "
            "each model trained on its split's training list and tested once on its own "
            "test list, with the spread over splits",
            "this is the protocol's number, measured the way the paper's was.",
        ),
        "d": (
            "The video accuracy of the split-1 model on split 2's test list, as an "
            "independent second check",
            "split 2's test videos are all in split 1's training list; chapter 8b refuses "
            "that pairing (a memoriser scores 100 % on it).",
        ),
    },
    answer="c",
    hints=[
        "What does the paper's number average over, and what does it score: clips or videos?",
        "Which of the options would give the same number if you ran it again?",
    ],
)

ex5 = ChoiceExercise(
    "ex5",
    title="Is method B's temporal mAP really higher?",
    variable="answer_5",
    options={
        "a": (
            "Yes, B is better by far: 0.49 against 0.17",
            "in chapter 8b one and the same set of detections scores 0.1735 as ActivityNet's "
            "average over 0.5:0.95 and 0.4873 under THUMOS'14's rules at tIoU 0.5; the whole "
            "gap can come from the protocol (mostly the thresholds: ActivityNet's rules "
            "give 0.5161 at tIoU 0.5), with no difference between the detectors.",
        ),
        "b": (
            "No conclusion yet: the two numbers come from different scorers and thresholds; "
            "score both methods' detections with the same scorer, thresholds and videos "
            "first",
            "right: the protocol decides the number before the method does.",
        ),
        "c": (
            "No, A is better: ActivityNet's scorer is stricter, so A's 0.17 is worth more",
            "a stricter scorer does not make a number worth more; the numbers are not on one "
            "scale, so neither order can be read off them.",
        ),
        "d": (
            "Yes, if B's paper used the official THUMOS'14 kit",
            "the official kit makes B's number correct for THUMOS'14's rules, not comparable "
            "with A's number under ActivityNet's.",
        ),
    },
    answer="b",
    hints=[
        "Which scorer and which thresholds produced each number?",
        "Chapter 8b scores one set of detections both ways. How far apart are the numbers?",
    ],
)
