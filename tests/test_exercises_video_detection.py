"""Chapter 8b exercises: the references agree with scipy and mltutor.detection.temporal, correct
alternatives pass, and known-wrong "mutants" are caught (and named when the mistake is known).

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
)
from scipy.special import softmax

from mltutor.check import CORRECT
from mltutor.detection import temporal
from mltutor.exercises import video_detection as ch

EXERCISES_CH = {name: getattr(ch, name) for name in ch.__all__}


# --------------------------------------------------------------------------------------------
# The references agree with independent implementations
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(ch.ex1.cases)))
def test_ex1_reference_matches_scipy_softmax(i):
    (z,) = ch.ex1.cases[i].args
    np.testing.assert_array_equal(ch.ex1.expected(i), softmax(z, axis=-1).mean(1).argmax(1))


@pytest.mark.parametrize("i", range(len(ch.ex2.cases)))
def test_ex2_reference_matches_mltutor_temporal_iou(i):
    a, b = ch.ex2.cases[i].args
    np.testing.assert_allclose(ch.ex2.expected(i), temporal.temporal_iou(a, b), atol=1e-15, rtol=0)


def _layouts(gt_video, gt_seg, det_video, det_seg, det_score):
    gt = {"database": {}}
    for v, seg in zip(gt_video, gt_seg):
        gt["database"].setdefault(str(v), {"annotations": []})["annotations"].append(
            {"segment": [float(seg[0]), float(seg[1])], "label": "Diving"}
        )
    pred = {"results": {}}
    for v, seg, s in zip(det_video, det_seg, det_score):
        pred["results"].setdefault(str(v), []).append(
            {"segment": [float(seg[0]), float(seg[1])], "label": "Diving", "score": float(s)}
        )
    return gt, pred


@pytest.mark.parametrize("i", range(len(ch.ex3.cases)))
def test_ex3_reference_matches_evaluate_activitynet(i):
    *arrays, threshold = ch.ex3.cases[i].args
    gt, pred = _layouts(*arrays)
    ref = temporal.evaluate_activitynet(gt, pred, [threshold])
    assert ch.ex3.expected(i) == pytest.approx(float(ref.map), abs=1e-12)


def test_ex3_reference_on_random_cases_with_ties():
    rng = np.random.default_rng(27)
    for _ in range(200):
        n, m = int(rng.integers(1, 6)), int(rng.integers(0, 8))
        gv = rng.choice(["a", "b"], n).astype(object)
        gs = rng.integers(0, 20, n).astype(float)
        gseg = np.c_[gs, gs + rng.integers(1, 6, n)]
        dv = rng.choice(["a", "b"], m).astype(object)
        ds = rng.integers(0, 20, m).astype(float)
        dseg = np.c_[ds, ds + rng.integers(1, 6, m)]
        score = rng.integers(0, 3, m) / 2  # many ties
        # "input order" is the layout's: videos in first-appearance order, then list order
        g, d = np.argsort(gv, kind="stable"), np.argsort(dv, kind="stable")
        gv, gseg, dv, dseg, score = gv[g], gseg[g], dv[d], dseg[d], score[d]
        t = float(rng.choice([0.3, 0.5]))
        gt, pred = _layouts(gv, gseg, dv, dseg, score)
        got = ch.class_ap(gv, gseg, dv, dseg, score, t)
        assert got == pytest.approx(
            float(temporal.evaluate_activitynet(gt, pred, [t]).map), abs=1e-12
        )


# --------------------------------------------------------------------------------------------
# Correct alternatives pass
# --------------------------------------------------------------------------------------------


def ex1_with_scipy(clip_logits):
    return softmax(clip_logits, axis=-1).mean(axis=1).argmax(axis=1)


def ex2_with_loops(a, b):
    out = np.zeros((len(a), len(b)))
    for i, (s1, e1) in enumerate(a):
        for j, (s2, e2) in enumerate(b):
            inter = max(0.0, min(e1, e2) - max(s1, s2))
            out[i, j] = inter / ((e1 - s1) + (e2 - s2) - inter)
    return out


def ex3_with_mltutor(gt_video, gt_segments, det_video, det_segments, det_scores, threshold):
    gt, pred = _layouts(gt_video, gt_segments, det_video, det_segments, det_scores)
    return float(temporal.evaluate_activitynet(gt, pred, [threshold]).map)


@pytest.mark.parametrize(
    "name, alternative",
    [
        ("ex1", ex1_with_scipy),
        ("ex2", ex2_with_loops),
        ("ex2", temporal.temporal_iou),
        ("ex3", ex3_with_mltutor),
    ],
)
def test_correct_alternatives_pass(name, alternative):
    assert EXERCISES_CH[name].check(alternative, strict=False).status == CORRECT


# --------------------------------------------------------------------------------------------
# Mutants
# --------------------------------------------------------------------------------------------


def ex1_mean_of_logits(clip_logits):
    return np.asarray(clip_logits).mean(axis=1).argmax(axis=1)


def ex1_majority_vote(clip_logits):
    return ch._majority_vote(clip_logits)


def ex1_max_over_clips(clip_logits):
    return softmax(clip_logits, axis=-1).max(axis=1).argmax(axis=1)


def ex1_first_clip_only(clip_logits):
    return np.asarray(clip_logits)[:, 0].argmax(axis=1)


def ex1_naive_softmax(clip_logits):  # overflows on large logits
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.asarray(clip_logits))
        return (e / e.sum(-1, keepdims=True)).mean(1).argmax(1)


def ex1_softmax_over_clips(clip_logits):  # normalised over the wrong axis
    return softmax(clip_logits, axis=1).mean(axis=1).argmax(axis=1)


def ex2_over_summed_lengths(a, b):
    return ch._over_summed_lengths(a, b)


def ex2_over_second_length(a, b):
    return ch._over_second_length(a, b)


def ex2_negative_overlap(a, b):
    return ch._negative_overlap_kept(a, b)


def ex2_over_hull_always(a, b):  # the hull is the union only when segments overlap
    a, b = np.asarray(a, float), np.asarray(b, float)
    inter = np.minimum(a[:, None, 1], b[None, :, 1]) - np.maximum(a[:, None, 0], b[None, :, 0])
    hull = np.maximum(a[:, None, 1], b[None, :, 1]) - np.minimum(a[:, None, 0], b[None, :, 0])
    return inter / hull


def ex2_transposed(a, b):
    return ch.segment_tiou(b, a)


def ex3_duplicates_count(*args):
    return ch._duplicates_count(*args)


def ex3_strict_threshold(*args):
    return ch._strict_threshold(*args)


def ex3_videos_ignored(*args):
    return ch._videos_ignored(*args)


def ex3_eleven_point(*args):
    return ch._eleven_point(*args)


def ex3_ascending_scores(gt_video, gt_segments, det_video, det_segments, det_scores, threshold):
    return ch.class_ap(
        gt_video, gt_segments, det_video, det_segments, -np.asarray(det_scores, float), threshold
    )


def ex3_precision_at_end(gt_video, gt_segments, det_video, det_segments, det_scores, threshold):
    """Recall times final precision, no curve."""
    n = len(det_scores)
    if n == 0:
        return 0.0
    hits = round(
        ch.class_ap(gt_video, gt_segments, det_video, det_segments, det_scores, 0.0) * 0
    )  # placeholder to keep the signature; compute hits below
    del hits
    free = np.ones(len(gt_segments), bool)
    tp = 0
    for i in np.argsort(-np.asarray(det_scores, float), kind="stable"):
        o = ch.segment_tiou(
            np.asarray(det_segments, float)[i : i + 1], np.asarray(gt_segments, float)
        )[0]
        o[~free | (np.asarray(gt_video) != np.asarray(det_video)[i])] = -1
        if o.size and o.max() >= threshold:
            free[o.argmax()] = False
            tp += 1
    return tp / len(gt_segments) * tp / n


MUTANTS = {
    "ex1": [
        ex1_mean_of_logits,
        ex1_majority_vote,
        ex1_max_over_clips,
        ex1_first_clip_only,
        ex1_naive_softmax,
        ex1_softmax_over_clips,
    ],
    "ex2": [
        ex2_over_summed_lengths,
        ex2_over_second_length,
        ex2_negative_overlap,
        ex2_over_hull_always,
        ex2_transposed,
    ],
    "ex3": [
        ex3_duplicates_count,
        ex3_strict_threshold,
        ex3_videos_ignored,
        ex3_eleven_point,
        ex3_ascending_scores,
        ex3_precision_at_end,
    ],
}
MUTANT_PARAMS = [(name, m) for name, ms in MUTANTS.items() for m in ms]

NAMED = {
    "ex1": {
        "ex1_mean_of_logits": "mean_of_logits",
        "ex1_majority_vote": "majority_vote",
        "ex1_max_over_clips": "max_over_clips",
        "ex1_first_clip_only": "first_clip_only",
    },
    "ex2": {
        "ex2_over_summed_lengths": "over_summed_lengths",
        "ex2_over_second_length": "over_second_length",
        "ex2_negative_overlap": "negative_overlap",
        "ex2_over_hull_always": "negative_overlap",  # the hull is the union plus any gap
    },
    "ex3": {
        "ex3_duplicates_count": "duplicates_count",
        "ex3_strict_threshold": "strict_threshold",
        "ex3_videos_ignored": "videos_ignored",
        "ex3_eleven_point": "eleven_point",
    },
}


def test_every_exercise_has_mutants():
    assert set(MUTANTS) == {n for n, ex in EXERCISES_CH.items() if ex.kind != "judgement"}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_caught(name, mutant):
    assert_mutant_caught(EXERCISES_CH[name], mutant)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES_CH[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES_CH, NAMED)


JUDGEMENT_ANSWERS = {"ex4": "c", "ex5": "b"}


def test_the_judgement_exercises_are_the_ones_with_answers():
    assert {n for n, ex in EXERCISES_CH.items() if ex.kind == "judgement"} == set(JUDGEMENT_ANSWERS)


@pytest.mark.parametrize(
    "name, letter", [(n, x) for n, a in JUDGEMENT_ANSWERS.items() for x in "abcd" if x != a]
)
def test_judgement_wrong_letters_are_incorrect_and_explained(name, letter):
    ex = EXERCISES_CH[name]
    result = ex.check(letter, strict=False)
    assert result.status != CORRECT and result.misconception == f"option_{letter}"
    assert ex.options[letter][1] in result.message
    assert ex.check(JUDGEMENT_ANSWERS[name], strict=False).status == CORRECT


def test_exercise_notebook_contains_no_solution_code():
    text = (EXERCISES / "08b_video_detection.ipynb").read_text(encoding="utf-8")
    assert "np.maximum.accumulate" not in text and "z.max(axis=-1" not in text
    for name, letter in JUDGEMENT_ANSWERS.items():
        assert f'answer_{name[2:]} = \\"{letter}\\"' not in text
        assert f'answer_{name[2:]} = "{letter}"' not in text


def test_ex5_quotes_the_chapters_numbers():
    """The numbers option (a) quotes are the chapter's (book/08b_video_detection.ipynb)."""
    import json

    nb = json.loads((EXERCISES.parent / "book" / "08b_video_detection.ipynb").read_text("utf-8"))
    text = "".join(
        "".join(o.get("text", ""))
        for c in nb["cells"]
        if c["cell_type"] == "code"
        for o in c.get("outputs", [])
    )
    for value in ("0.1735", "0.4873"):
        assert value in text and value in ch.ex5.options["a"][1]
