"""Detection inputs that used to give a silently wrong mAP are refused, naming the record (issue 12)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mltutor.detection import evaluate_coco, evaluate_voc

GT = [{"boxes": [[0, 0, 10, 10], [20, 20, 30, 30]], "labels": [1, 2]}]
DT = [{"boxes": [[0, 0, 10, 10], [20, 20, 30, 30]], "scores": [0.9, 0.8], "labels": [1, 2]}]


def _with(records: list, **fields) -> list:
    return [{**records[0], **fields}]


def test_voc_reference_case() -> None:
    assert evaluate_voc(GT, DT)["mAP"] == 1.0


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("side", ["ground_truth", "detections"])
def test_voc_non_finite_label_refused(side: str, bad: float) -> None:
    """A NaN label used to become a class of its own (AP 0, mAP halved)."""
    gt, dt = (
        (_with(GT, labels=[1.0, bad]), DT)
        if side == "ground_truth"
        else (GT, _with(DT, labels=[1.0, bad]))
    )
    with pytest.raises(ValueError, match=rf"{side}\[0\]\['labels'\] holds the label"):
        evaluate_voc(gt, dt)


@pytest.mark.parametrize("difficult", [["False", "False"], ["0", "1"], [None, None]])
def test_voc_non_boolean_difficult_types_refused(difficult: list) -> None:
    """``difficult=["False", ...]`` used to be read as True (a non-empty string)."""
    with pytest.raises(TypeError, match=r"ground_truth\[0\]\['difficult'\] must hold booleans"):
        evaluate_voc(_with(GT, difficult=difficult), DT)


@pytest.mark.parametrize("difficult", [[0.5, 0], [np.nan, 0], [2, 0], [-1, 0]])
def test_voc_difficult_numbers_other_than_0_1_refused(difficult: list) -> None:
    with pytest.raises(ValueError, match=r"ground_truth\[0\]\['difficult'\] must hold booleans"):
        evaluate_voc(_with(GT, difficult=difficult), DT)


@pytest.mark.parametrize("difficult", [[False, True], [0, 1], [0.0, 1.0], np.array([False, True])])
def test_voc_boolean_difficult_accepted(difficult) -> None:
    result = evaluate_voc(_with(GT, difficult=difficult), DT)
    assert result["n_positives"] == {1: 1, 2: 0}


@pytest.mark.parametrize(
    "scores, error",
    [(["0.9", "0.8"], TypeError), ([True, False], TypeError), ([np.nan, 0.8], ValueError)],
)
def test_voc_bad_scores_refused(scores: list, error: type) -> None:
    with pytest.raises(error, match=r"detections\[0\]\['scores'\]"):
        evaluate_voc(GT, _with(DT, scores=scores))


def test_voc_string_and_numeric_labels_refused() -> None:
    """1 and "1" would be two classes."""
    with pytest.raises(TypeError, match="string and numeric labels are mixed"):
        evaluate_voc(_with(GT, labels=["1", "2"]), DT)
    with pytest.raises(TypeError, match=r"ground_truth\[0\]\['labels'\] must hold class labels"):
        evaluate_voc(_with(GT, labels=np.array([1, "a"], dtype=object)), DT)


def test_voc_string_labels_accepted() -> None:
    assert (
        evaluate_voc(_with(GT, labels=["cat", "dog"]), _with(DT, labels=["cat", "dog"]))["mAP"]
        == 1.0
    )


# --------------------------------------------------------------------------------------------
# COCO
# --------------------------------------------------------------------------------------------

COCO_GT = {
    "images": [{"id": 1}],
    "categories": [{"id": 1}, {"id": 2}],
    "annotations": [
        {"id": 1, "image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "area": 100},
        {"id": 2, "image_id": 1, "category_id": 2, "bbox": [20, 20, 10, 10], "area": 100},
    ],
}
COCO_DT = [
    {"image_id": 1, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 0.9},
    {"image_id": 1, "category_id": 2, "bbox": [20, 20, 10, 10], "score": 0.8},
]


def _coco(gt_change=None, dt_change=None):
    gt, dt = copy.deepcopy(COCO_GT), copy.deepcopy(COCO_DT)
    if gt_change:
        gt_change(gt)
    if dt_change:
        dt_change(dt)
    return evaluate_coco(gt, dt)


def _set(which: str, key: str, value):
    """A change that sets ``key`` of the first record of ``which`` (a coco_gt list or the detections)."""

    def change(obj):
        records = obj if which == "detections" else obj[which]
        records[0][key] = value

    return change


@pytest.mark.parametrize(
    "value, message",
    [
        ("False", "has iscrowd='False'; expected a number"),
        (0.5, "has iscrowd=0.5; expected 0 or 1"),
        (np.nan, "has iscrowd=nan; expected 0 or 1"),
    ],
)
def test_coco_iscrowd_must_be_0_or_1(value, message: str) -> None:
    """pycocotools reads any truthy iscrowd (the string "False" included) as a crowd."""
    with pytest.raises(ValueError, match=message):
        _coco(gt_change=_set("annotations", "iscrowd", value))


def test_coco_iscrowd_bool_accepted() -> None:
    crowd = _coco(gt_change=_set("annotations", "iscrowd", True))
    plain = _coco(gt_change=_set("annotations", "iscrowd", 1))
    np.testing.assert_array_equal(crowd["stats"], plain["stats"])


@pytest.mark.parametrize(
    "which, key, value",
    [
        ("annotations", "bbox", ["0", "0", "10", "10"]),
        ("annotations", "area", "100"),
        ("detections", "score", "0.9"),
        ("detections", "score", True),
        ("detections", "bbox", [0, 0, "10", 10]),
        # a bool reads as 0.0 or 1.0, which is where the parser looks at types: anywhere in a box
        ("detections", "bbox", [5, True, 10, 10]),
        ("annotations", "bbox", [5.5, 6.5, 10, np.True_]),
        ("detections", "bbox", [0, 0, 10, False]),
        ("detections", "bbox", [0, np.str_("0"), 10, 10]),
        ("detections", "bbox", [0, None, 10, 10]),
        ("detections", "score", b"1"),
        ("detections", "score", np.bool_(False)),
        ("annotations", "area", None),
    ],
)
def test_coco_strings_and_bools_are_not_numbers(which: str, key: str, value) -> None:
    """NumPy's fromiter reads "0.9" and True as numbers; they used to pass."""
    change = _set(which, key, value)
    kwargs = {"dt_change": change} if which == "detections" else {"gt_change": change}
    with pytest.raises(ValueError, match=f"has {key}=.*; expected"):
        _coco(**kwargs)


@pytest.mark.parametrize("which", ["images", "categories"])
def test_coco_non_finite_ids_refused(which: str) -> None:
    with pytest.raises(ValueError, match=rf"coco_gt\['{which}'\] ids holds nan"):
        _coco(gt_change=_set(which, "id", np.nan))


# --------------------------------------------------------------------------------------------
# The fast paths of the COCO parser and matcher (issue 28) against their plain versions
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "known",
    [
        np.arange(1, 50),  # compact: read through the lookup table
        np.array([-7, -3, 0, 2, 11]),  # negative ids, still compact
        np.array([1, 10**6, 10**9]),  # sparse: binary search
        np.array([2.0, 3.5, 9.0]),  # float ids: binary search
    ],
)
def test_index_of_table_equals_search(known: np.ndarray) -> None:
    from mltutor._validation.detection import _index_of

    rng = np.random.default_rng(0)
    queries = np.r_[rng.choice(known, 200), known.min() - 1, known.max() + 1, known.max() + 7]
    if known.dtype.kind == "i":
        queries = np.r_[queries, np.arange(known.min(), known.max() + 1)[:100]].astype(np.int64)
    pos, found = _index_of(queries, known)
    expected = np.isin(queries, known)
    np.testing.assert_array_equal(found, expected)
    np.testing.assert_array_equal(known[pos[found]], queries[found])


def test_coco_unknown_ids_refused_on_both_paths() -> None:
    """An image id just past the known ones and one far beyond them (outside the lookup table's
    range) are both named."""
    for bad in (2, 10**9):
        with pytest.raises(ValueError, match=rf"refers to image_id={bad}, which is not in"):
            _coco(dt_change=_set("detections", "image_id", bad))


@pytest.mark.parametrize("high", [100, 1 << 20])
def test_stable_argsort2_is_lexsort(high: int) -> None:
    from mltutor.detection._matching import _stable_argsort2

    rng = np.random.default_rng(1)
    major, minor = rng.integers(0, high, 5000), rng.integers(0, 7, 5000)
    np.testing.assert_array_equal(_stable_argsort2(major, minor), np.lexsort((minor, major)))


def test_rank_in_groups_rank_is_position_in_group() -> None:
    from mltutor.detection._matching import rank_in_groups

    rng = np.random.default_rng(2)
    group, score = rng.integers(0, 40, 3000), np.round(rng.random(3000), 1)
    order, rank = rank_in_groups(group, score, 1000)
    g = group[order]
    np.testing.assert_array_equal(rank, np.arange(g.shape[0]) - np.searchsorted(g, g))
    assert rank.max() > 50  # groups of many detections, so the test can see a wrong rank


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([0.0, -0.0, 0.5, 0.25, 1.0, np.nan, np.inf, -np.inf, 1e-300, 0.3]),
        max_size=60,
    )
    | st.lists(st.floats(allow_nan=True), max_size=60)
)
def test_stable_descending_argsort_is_numpys_stable_sort(values: list) -> None:
    """The quicksort-then-ties sort equals numpy's stable sort of -values, ties (0.0 and -0.0, NaNs,
    repeated scores) in input order."""
    from mltutor.detection._matching import _stable_argsort_descending

    x = np.array(values, dtype=np.float64)
    np.testing.assert_array_equal(_stable_argsort_descending(x), np.argsort(-x, kind="stable"))


def test_score_order_breaks_ties_by_image_then_input() -> None:
    from mltutor.detection._matching import score_order

    rng = np.random.default_rng(3)
    score, image = np.round(rng.random(4000), 1), rng.integers(0, 30, 4000)
    np.testing.assert_array_equal(score_order(score, image), np.lexsort((image, -score)))


@pytest.mark.parametrize("dtype", [np.uint64, np.uint8, np.int32])
def test_group_pairs_same_for_any_integer_dtype(dtype) -> None:
    """The table path (bincount) and the binary-search path give the same pairs, for unsigned
    groups too (numpy before 2.0 refuses to bincount uint64)."""
    from mltutor.detection._matching import group_pairs

    rng = np.random.default_rng(4)
    det, gt = rng.integers(0, 50, 300), np.sort(rng.integers(0, 50, 120))
    expected = group_pairs(det, gt)
    for got in (
        group_pairs(det.astype(dtype), gt.astype(dtype)),
        group_pairs(det + 10**9, gt + 10**9),
    ):
        for a, b in zip(got, expected):
            np.testing.assert_array_equal(a, b)
