"""Chapter 7c exercises: references agree with pycocotools and mltutor.detection, and known-wrong
"mutants" are caught (each implement exercise with at least three named ones).

The notebook-level checks shared by every chapter are in ``test_exercise_notebooks.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _exercise_harness import (
    EXERCISES as EXERCISES_DIR,
)
from _exercise_harness import (
    SOLUTIONS,
    assert_misconceptions_proven,
    assert_mutant_caught,
    assert_named,
    run_notebook_code,
)

from mltutor.check import CORRECT, INCORRECT, CheckFailed
from mltutor.detection import mask as rle
from mltutor.detection.keypoints import oks as oks_kernel
from mltutor.exercises import masks_keypoints_errors as ch

SOLUTIONS_NB = SOLUTIONS / "07c_masks_keypoints_errors.ipynb"
EXERCISES = {name: getattr(ch, name) for name in ch.__all__}


@pytest.fixture(scope="module")
def solved():
    return run_notebook_code(SOLUTIONS_NB)


def test_solutions_notebook_solves_every_exercise(solved):
    namespace, checks = solved
    assert [name for name, _, _ in checks] == ch.__all__
    for name, answer_name, _ in checks:
        assert getattr(ch, name).check(namespace[answer_name], strict=False)


# --------------------------------------------------------------------------------------------
# The references agree with pycocotools and mltutor.detection
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(ch.ex1.cases)))
def test_ex1_reference_is_cocos_rle(i):
    mask_api = pytest.importorskip("pycocotools.mask")
    (m,) = ch.ex1.cases[i].args
    m = np.asarray(m, dtype=np.uint8)
    counts = ch.ex1.expected(i)
    uncompressed = {"size": list(m.shape), "counts": counts}
    assert np.array_equal(rle.decode(uncompressed), m)
    compressed = mask_api.frPyObjects(uncompressed, *m.shape)
    assert compressed == mask_api.encode(np.asfortranarray(m)) == rle.encode(m)
    assert sum(counts[1::2]) == int(m.sum())  # the runs of ones sit at the odd positions


@pytest.mark.parametrize("i", range(len(ch.ex2.cases)))
def test_ex2_reference_is_mltutor_oks(i):
    found, truth, visible, area, sigmas = ch.ex2.cases[i].args
    flags = np.where(visible, 2, 0)
    gt = np.c_[truth, flags].ravel()
    dt = np.c_[found, np.ones(len(found))].ravel()
    expected = oks_kernel([dt], [gt], [area], sigmas=sigmas)[0, 0]
    assert ch.ex2.expected(i) == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("i", range(len(ch.ex3.cases)))
def test_ex3_reference_agrees_with_error_breakdown(i):
    """Each case rebuilt as a scene gives the same cause in mltutor.detection.error_breakdown.

    The detection under test is [0, 0, 100, 100]; an object [0, 0, w, 100] or [0, 0, 100, w]
    inside it has IoU w / 100 with it, exactly, for whole w.
    """
    from mltutor.detection import error_breakdown

    c = ch.ex3.cases[i]
    iou_same, iou_other, iou_taken = c.args[:3]
    t_f, t_b = c.args[3:5] if len(c.args) > 3 else (0.5, 0.1)
    if iou_taken == 0 and iou_same >= t_f:
        pytest.skip("an own-class object at IoU >= t_f that nobody took would be matched")
    assert iou_taken in (0, iou_same)  # one own-class object at most
    anns, dets = [], []
    if iou_same:
        w = round(100 * iou_same)
        anns.append({"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, w, 100], "area": 1})
        if iou_taken:  # found by a better detection
            dets.append({"image_id": 1, "category_id": 1, "bbox": [0, 0, w, 100], "score": 0.9})
    if iou_other:
        h = round(100 * iou_other)
        anns.append({"id": 2, "image_id": 1, "category_id": 2, "bbox": [0, 0, 100, h], "area": 1})
    dets.append({"image_id": 1, "category_id": 1, "bbox": [0, 0, 100, 100], "score": 0.5})
    gt = {"images": [{"id": 1}], "categories": [{"id": 1}, {"id": 2}], "annotations": anns}
    r = error_breakdown(gt, dets, foreground_iou=t_f, background_iou=t_b)
    assert r["detection_cause"][-1] == ch.ex3.expected(i)


# --------------------------------------------------------------------------------------------
# Mutants: known-wrong implementations every check must catch
# --------------------------------------------------------------------------------------------


def ex1_row_major(mask):
    pixels = np.asarray(mask).astype(bool).ravel()  # NumPy's default: row by row
    runs, value, length = [], False, 0
    for p in pixels:
        if p == value:
            length += 1
        else:
            runs.append(length)
            value, length = p, 1
    return runs + [length]


def ex1_no_leading_zero(mask):
    pixels = np.asarray(mask).astype(bool).flatten(order="F")
    runs, length = [], 1
    for a, b in zip(pixels[:-1], pixels[1:]):
        if a == b:
            length += 1
        else:
            runs.append(length)
            length = 1
    return runs + [length]  # forgets the empty zero run when the first pixel is set


def ex1_ones_only(mask):
    pixels = np.asarray(mask).astype(bool).flatten(order="F")
    runs, length = [], 0
    for p in pixels:
        if p:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs + ([length] if length else [])


def ex1_rows_and_runs_of_ones(mask):
    """Two mistakes at once: not a known single one."""
    return ex1_ones_only(np.asarray(mask).T)


def ex2_sigma_not_doubled(found, truth, visible, area, sigmas):
    d2 = ((np.asarray(found, float) - truth) ** 2).sum(axis=1)
    e = np.exp(-d2 / (2 * area * np.asarray(sigmas) ** 2))
    return float(e[np.asarray(visible)].mean())


def ex2_unlabelled_counted(found, truth, visible, area, sigmas):
    d2 = ((np.asarray(found, float) - truth) ** 2).sum(axis=1)
    return float(np.exp(-d2 / (2 * area * (2 * np.asarray(sigmas)) ** 2)).mean())


def ex2_sqrt_area(found, truth, visible, area, sigmas):
    d2 = ((np.asarray(found, float) - truth) ** 2).sum(axis=1)
    e = np.exp(-d2 / (2 * np.sqrt(area) * (2 * np.asarray(sigmas)) ** 2))
    return float(e[np.asarray(visible)].mean())


def ex2_distance_not_squared(found, truth, visible, area, sigmas):
    d = np.sqrt(((np.asarray(found, float) - truth) ** 2).sum(axis=1))
    e = np.exp(-d / (2 * area * (2 * np.asarray(sigmas)) ** 2))
    return float(e[np.asarray(visible)].mean())


def ex2_no_factor_two(found, truth, visible, area, sigmas):
    d2 = ((np.asarray(found, float) - truth) ** 2).sum(axis=1)
    e = np.exp(-d2 / (area * (2 * np.asarray(sigmas)) ** 2))
    return float(e[np.asarray(visible)].mean())


def ex3_classification_first(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    if iou_other >= t_f:
        return "classification"
    if t_b <= iou_same <= t_f:
        return "localisation"
    if iou_same_taken >= t_f:
        return "duplicate"
    return "background" if max(iou_same, iou_other) <= t_b else "both"


def ex3_strict_bounds(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    if t_b < iou_same < t_f:
        return "localisation"
    if iou_other >= t_f:
        return "classification"
    if iou_same_taken >= t_f:
        return "duplicate"
    return "background" if max(iou_same, iou_other) < t_b else "both"


def ex3_no_duplicate(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    if t_b <= iou_same <= t_f:
        return "localisation"
    if iou_other >= t_f:
        return "classification"
    return "background" if max(iou_same, iou_other) <= t_b else "both"


def ex3_default_thresholds_only(iou_same, iou_other, iou_same_taken, t_f=0.5, t_b=0.1):
    """Ignores the threshold arguments: not a known single mistake."""
    if 0.1 <= iou_same <= 0.5:
        return "localisation"
    if iou_other >= 0.5:
        return "classification"
    if iou_same_taken >= 0.5:
        return "duplicate"
    return "background" if max(iou_same, iou_other) <= 0.1 else "both"


MUTANTS = {
    "ex1": [ex1_row_major, ex1_no_leading_zero, ex1_ones_only, ex1_rows_and_runs_of_ones],
    "ex2": [
        ex2_sigma_not_doubled,
        ex2_unlabelled_counted,
        ex2_sqrt_area,
        ex2_distance_not_squared,
        ex2_no_factor_two,
    ],
    "ex3": [
        ex3_classification_first,
        ex3_strict_bounds,
        ex3_no_duplicate,
        ex3_default_thresholds_only,
    ],
}
MUTANT_PARAMS = [
    pytest.param(ex, m, id=f"{ex}-{m.__name__[4:]}") for ex, ms in MUTANTS.items() for m in ms
]
NAMED = {
    "ex1": {
        "ex1_row_major": "row_major",
        "ex1_no_leading_zero": "no_leading_zero",
        "ex1_ones_only": "ones_only",
    },
    "ex2": {
        "ex2_sigma_not_doubled": "sigma_not_doubled",
        "ex2_unlabelled_counted": "unlabelled_counted",
        "ex2_sqrt_area": "sqrt_area",
    },
    "ex3": {
        "ex3_classification_first": "classification_first",
        "ex3_strict_bounds": "strict_bounds",
        "ex3_no_duplicate": "no_duplicate",
    },
}


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_caught(name, mutant):
    ex = EXERCISES[name]
    if name == "ex3":  # string answers: the harness's no-leak check reads numbers only
        result = ex.check(mutant, strict=False)
        assert result.status == INCORRECT, result
        assert result.message.startswith(f"case {result.case} of {len(ex.cases)}")
        assert repr(ex.expected(result.case - 1)) not in result.message
        with pytest.raises(CheckFailed):
            ex.check(mutant, strict=True)
    else:
        assert_mutant_caught(ex, mutant)


@pytest.mark.parametrize("name, mutant", MUTANT_PARAMS)
def test_mutant_is_named_when_its_mistake_is_known(name, mutant):
    assert_named(EXERCISES[name], mutant, NAMED[name].get(mutant.__name__))


def test_every_named_mistake_is_proven_by_a_mutant():
    assert_misconceptions_proven(EXERCISES, NAMED)


# --------------------------------------------------------------------------------------------
# Judgement exercises
# --------------------------------------------------------------------------------------------

JUDGEMENT_ANSWERS = {"ex4": "b", "ex5": "c", "ex6": "c"}


def test_the_judgement_exercises_are_the_ones_with_answers():
    assert {n for n, ex in EXERCISES.items() if ex.kind == "judgement"} == set(JUDGEMENT_ANSWERS)


@pytest.mark.parametrize(
    "name, letter", [(n, x) for n, a in JUDGEMENT_ANSWERS.items() for x in "abcd" if x != a]
)
def test_judgement_wrong_letters_are_incorrect_and_explained(name, letter):
    ex = EXERCISES[name]
    result = ex.check(letter, strict=False)
    assert result.status == INCORRECT and result.misconception == f"option_{letter}"
    assert ex.options[letter][1] in result.message
    assert ex.check(JUDGEMENT_ANSWERS[name], strict=False).status == CORRECT


def test_exercise_notebook_contains_no_judgement_answers():
    text = (EXERCISES_DIR / "07c_masks_keypoints_errors.ipynb").read_text(encoding="utf-8")
    for name, letter in JUDGEMENT_ANSWERS.items():
        assert f'answer_{name[2:]} = \\"{letter}\\"' not in text  # as JSON writes the cell
        assert f'answer_{name[2:]} = "{letter}"' not in text
