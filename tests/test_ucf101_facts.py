"""The UCF101 facts table in ``mltutor.datasets.ucf101``: published totals, and the raw split lists.

The first group of tests needs only the package.  The cross-checks re-derive the whole table from
the official ``ucfTrainTestlist`` files in ``../shared/data/ucf101/`` and skip when that folder is
absent (the package never reads it).
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pytest

from mltutor.datasets import ucf101

SHARED_UCF101 = Path(__file__).resolve().parents[2] / "shared" / "data" / "ucf101"


# --------------------------------------------------------------------------------------------
# The table on its own
# --------------------------------------------------------------------------------------------


def test_class_names():
    names = ucf101.CLASS_NAMES
    assert isinstance(names, tuple) and len(names) == ucf101.N_CLASSES == 101
    assert len(set(names)) == 101 and len({n.lower() for n in names}) == 101
    assert names[0] == "ApplyEyeMakeup" and names[-1] == "YoYo"
    assert "HandstandPushups" in names  # the classInd.txt spelling
    assert "Walking" not in names and "Singing" not in names  # SEED_AUDIT items 16, 39


def test_totals_and_class_sizes():
    n = ucf101.clips_per_class()
    assert n.shape == (101,) and n.dtype.kind == "i"
    assert n.sum() == 13_320
    assert n.min() == 100 and n.max() == 167
    assert ucf101.CLASS_NAMES[int(n.argmax())] == "CricketShot"
    assert sorted(ucf101.CLASS_NAMES[i] for i in np.flatnonzero(n == 100)) == [
        "PlayingViolin",
        "PullUps",
        "Skijet",
        "TaiChi",
    ]
    assert round(n.max() / n.sum(), 4) == 0.0125  # the largest class is 1.25 % of the clips
    assert np.median(n) == 131


@pytest.mark.parametrize(
    "name, clips",
    [
        ("ApplyEyeMakeup", 145),
        ("WalkingWithDog", 123),
        ("Typing", 136),
        ("Drumming", 161),
        ("PlayingCello", 164),
    ],
)
def test_class_sizes_quoted_in_the_course(name, clips):
    """SEED_AUDIT items 26 and 39 quote these; the seed posts had 400, 20, 127 and 42."""
    assert ucf101.clips_per_class()[ucf101.CLASS_NAMES.index(name)] == clips


def test_groups():
    table = ucf101.clips_per_group()
    assert table.shape == (101, 25) and table.dtype.kind == "i"
    assert table.min() == 4 and table.max() == 7
    assert np.median(table) == 5
    np.testing.assert_array_equal(table.sum(axis=1), ucf101.clips_per_class())


def test_returned_arrays_are_copies():
    table = ucf101.clips_per_group()
    table[:] = 0
    ucf101.clips_per_class()[:] = 0
    ucf101.split_counts(1).test[:] = 0
    assert ucf101.clips_per_group().sum() == 13_320
    assert ucf101.split_counts(1).test.sum() == 3_783


def test_split_groups_rule():
    seen_in_test = []
    for k in (1, 2, 3):
        train, test = ucf101.split_groups(k)
        assert test == tuple(range(7 * k - 6, 7 * k + 1))
        assert set(train) | set(test) == set(range(1, 26)) and not set(train) & set(test)
        assert len(train) == 18 and list(train) == sorted(train)
        assert {22, 23, 24, 25} <= set(train)
        seen_in_test += test
    assert sorted(seen_in_test) == list(range(1, 22))  # every group 1-21 is tested exactly once


@pytest.mark.parametrize(
    "k, n_train, n_test, largest_test",
    [
        (1, 9_537, 3_783, 49),
        (2, 9_586, 3_734, 49),
        (3, 9_624, 3_696, 48),
    ],
)
def test_split_counts(k, n_train, n_test, largest_test):
    train, test = ucf101.split_counts(k)
    assert isinstance(ucf101.split_counts(k), ucf101.SplitCounts)
    assert train.shape == test.shape == (101,)
    assert train.sum() == n_train and test.sum() == n_test
    assert test.max() == largest_test
    np.testing.assert_array_equal(train + test, ucf101.clips_per_class())


def test_split1_majority_baseline():
    """SEED_AUDIT item 3: always answering the largest class is right on 49 / 3,783 = 1.3 %."""
    _, test = ucf101.split_counts(1)
    assert test.min() == 28 and test.max() == 49 and np.median(test) == 37
    assert round(test.max() / test.sum(), 3) == 0.013


@pytest.mark.parametrize("k", [0, 4, -1])
def test_bad_split_number_raises_value_error(k):
    with pytest.raises(ValueError, match="k must be the split number"):
        ucf101.split_groups(k)
    with pytest.raises(ValueError, match="k must be the split number"):
        ucf101.split_counts(k)


@pytest.mark.parametrize("k", [1.0, "1", True, None])
def test_split_number_must_be_an_int(k):
    with pytest.raises(TypeError, match="k must be the split number"):
        ucf101.split_groups(k)


def test_numpy_integer_split_number_is_accepted():
    assert ucf101.split_groups(np.int64(3)) == ucf101.split_groups(3)


def test_docstring_examples():
    result = doctest.testmod(ucf101, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0


def test_table_is_package_data():
    from importlib import resources

    assert resources.files("mltutor").joinpath("data", "ucf101_clips.csv").is_file()


# --------------------------------------------------------------------------------------------
# Cross-check against the official split lists (skipped without ../shared)
# --------------------------------------------------------------------------------------------

CLIP = re.compile(
    r"^(?P<folder>[A-Za-z]+)/v_(?P<name>[A-Za-z]+)_g(?P<group>\d\d)_c(?P<clip>\d\d)\.avi$"
)


def _lines(name: str) -> list[str]:
    return [
        line.strip()
        for line in (SHARED_UCF101 / name).read_text(encoding="ascii").splitlines()
        if line.strip()
    ]


def _parse(name: str) -> list[tuple[str, str, int, int | None]]:
    """(folder, class name in the file name, group, label or None) for each line of a list file."""
    rows = []
    for line in _lines(name):
        path, *label = line.split()
        m = CLIP.match(path)
        assert m, f"{name}: unexpected line {line!r}"
        rows.append((m["folder"], m["name"], int(m["group"]), int(label[0]) if label else None))
    return rows


@pytest.fixture(scope="module")
def shared():
    if not SHARED_UCF101.is_dir():
        pytest.skip(f"{SHARED_UCF101} is absent")
    class_ind = [line.split() for line in _lines("classInd.txt")]
    lookup = {name.lower(): int(index) - 1 for index, name in class_ind}
    lists = {
        (part, k): _parse(f"{part}list0{k}.txt") for part in ("train", "test") for k in (1, 2, 3)
    }
    return class_ind, lookup, lists


def _table_from(rows, lookup) -> np.ndarray:
    cls = [lookup[name.lower()] for _, name, _, _ in rows]
    grp = [group - 1 for _, _, group, _ in rows]
    return np.bincount(np.ravel_multi_index((cls, grp), (101, 25)), minlength=101 * 25).reshape(
        101, 25
    )


def test_class_names_match_class_ind(shared):
    class_ind, _, _ = shared
    assert [int(i) for i, _ in class_ind] == list(range(1, 102))
    assert tuple(name for _, name in class_ind) == ucf101.CLASS_NAMES


def test_handstand_pushups_case_quirk(shared):
    """classInd says HandstandPushups; the file names say HandStandPushups (capital S)."""
    _, lookup, lists = shared
    rows = lists["train", 1] + lists["test", 1]
    in_file_names = {name for _, name, _, _ in rows}
    folders = {folder for folder, _, _, _ in rows}
    assert "HandstandPushups" in ucf101.CLASS_NAMES and "HandstandPushups" in folders
    assert "HandStandPushups" in in_file_names and "HandstandPushups" not in in_file_names
    # It is the only mismatch, and comparing without case resolves it.
    assert in_file_names - set(ucf101.CLASS_NAMES) == {"HandStandPushups"}
    assert {n.lower() for n in in_file_names} == {n.lower() for n in ucf101.CLASS_NAMES}
    assert all(folder.lower() == name.lower() for folder, name, _, _ in rows)
    # An exact-case lookup would lose the class: the table must still have its clips.
    index = ucf101.CLASS_NAMES.index("HandstandPushups")
    from_files = sum(1 for _, name, _, _ in rows if name.lower() == "handstandpushups")
    assert from_files == ucf101.clips_per_class()[index] > 0


@pytest.mark.parametrize("k", [1, 2, 3])
def test_table_matches_the_split_lists(shared, k):
    _, lookup, lists = shared
    train_rows, test_rows = lists["train", k], lists["test", k]
    # every clip once: train and test of a split are disjoint and together hold all 13,320
    paths_train = {line.split()[0].lower() for line in _lines(f"trainlist0{k}.txt")}
    paths_test = {line.lower() for line in _lines(f"testlist0{k}.txt")}
    assert len(paths_train) == len(train_rows) and len(paths_test) == len(test_rows)
    assert not paths_train & paths_test and len(paths_train | paths_test) == 13_320

    full = _table_from(train_rows + test_rows, lookup)
    np.testing.assert_array_equal(full, ucf101.clips_per_group())

    train_groups, test_groups = ucf101.split_groups(k)
    assert {g for _, _, g, _ in test_rows} == set(test_groups)
    assert {g for _, _, g, _ in train_rows} == set(train_groups)
    train, test = ucf101.split_counts(k)
    np.testing.assert_array_equal(_table_from(train_rows, lookup).sum(axis=1), train)
    np.testing.assert_array_equal(_table_from(test_rows, lookup).sum(axis=1), test)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_train_list_labels_are_class_ind_indices(shared, k):
    _, lookup, lists = shared
    for _, name, _, label in lists["train", k]:
        assert label == lookup[name.lower()] + 1


def test_all_splits_hold_the_same_clips(shared):
    everything = [
        {
            line.split()[0].lower()
            for line in _lines(f"trainlist0{k}.txt") + _lines(f"testlist0{k}.txt")
        }
        for k in (1, 2, 3)
    ]
    assert everything[0] == everything[1] == everything[2]


def test_class_counts_csv_agrees(shared):
    import csv

    with open(SHARED_UCF101 / "class_counts.csv", newline="", encoding="ascii") as fh:
        rows = list(csv.DictReader(fh))
    train, test = ucf101.split_counts(1)
    assert [r["class_name"] for r in rows] == list(ucf101.CLASS_NAMES)
    assert [int(r["total_clips"]) for r in rows] == ucf101.clips_per_class().tolist()
    assert [int(r["train1"]) for r in rows] == train.tolist()
    assert [int(r["test1"]) for r in rows] == test.tolist()
    assert {int(r["n_groups"]) for r in rows} == {25}
