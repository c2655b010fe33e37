"""The parser of the official UCF101 list files, ``mltutor.datasets.ucf101_lists``.

Most tests write small fixture files in ``tmp_path``; the last group reads the real official lists
in ``../shared/data/ucf101/`` and skips when that folder is absent.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pytest

from mltutor.datasets import ucf101, ucf101_lists
from mltutor.datasets.ucf101_lists import SplitList, read_class_index, read_split_list

SHARED_UCF101 = Path(__file__).resolve().parents[2] / "shared" / "data" / "ucf101"

CLASS_IND = "1 ApplyEyeMakeup\r\n2 HandstandPushups\r\n3 YoYo\r\n\r\n\r\n"
TRAIN = (
    "ApplyEyeMakeup/v_ApplyEyeMakeup_g08_c01.avi 1\r\n"
    "HandstandPushups/v_HandStandPushups_g09_c02.avi 2\r\n"
    "YoYo/v_YoYo_g25_c07.avi 3\r\n\r\n"
)
TEST = (
    "ApplyEyeMakeup/v_ApplyEyeMakeup_g01_c03.avi\r\n"
    "HandstandPushups/v_HandStandPushups_g07_c04.avi\r\n\r\n"
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture
def files(tmp_path):
    return (
        write(tmp_path, "classInd.txt", CLASS_IND),
        write(tmp_path, "trainlist01.txt", TRAIN),
        write(tmp_path, "testlist01.txt", TEST),
    )


# --------------------------------------------------------------------------------------------
# Well-formed files
# --------------------------------------------------------------------------------------------


def test_class_index_crlf_and_trailing_blank_lines(files):
    assert read_class_index(files[0]) == ("ApplyEyeMakeup", "HandstandPushups", "YoYo")


def test_class_index_accepts_str_path_lf_and_bom(tmp_path):
    path = write(tmp_path, "c.txt", "\ufeff1 A\n2 B")
    assert read_class_index(str(path)) == ("A", "B")


def test_train_list(files):
    names = read_class_index(files[0])
    lst = read_split_list(files[1], names)
    assert isinstance(lst, SplitList)
    assert lst.paths.tolist() == [
        "ApplyEyeMakeup/v_ApplyEyeMakeup_g08_c01.avi",
        "HandstandPushups/v_HandStandPushups_g09_c02.avi",
        "YoYo/v_YoYo_g25_c07.avi",
    ]
    assert lst.labels.tolist() == [0, 1, 2]  # 0-based
    assert lst.groups.tolist() == [8, 9, 25]
    assert lst.clips.tolist() == [1, 2, 7]
    assert lst.labels.dtype == lst.groups.dtype == lst.clips.dtype == np.int64


def test_test_list_without_indices(files):
    lst = read_split_list(files[2], files[0])  # class index given as a path
    assert lst.labels.tolist() == [0, 1]
    assert lst.groups.tolist() == [1, 7] and lst.clips.tolist() == [3, 4]


def test_handstand_case_quirk_is_accepted_either_way(tmp_path):
    # The index may use either spelling; the lookup ignores case.
    lst = read_split_list(write(tmp_path, "t.txt", TEST), ["ApplyEyeMakeup", "HandStandPushups"])
    assert lst.labels.tolist() == [0, 1]
    upper = write(tmp_path, "u.txt", "HANDSTANDPUSHUPS/v_HandstandPushups_g01_c01.avi 2\n")
    assert read_split_list(upper, ["ApplyEyeMakeup", "HandstandPushups"]).labels.tolist() == [1]


def test_default_class_index_is_the_official_one(files):
    lst = read_split_list(files[2])  # no indices in a test list
    assert [ucf101.CLASS_NAMES[i] for i in lst.labels] == ["ApplyEyeMakeup", "HandstandPushups"]
    assert lst.labels.tolist() == [0, ucf101.CLASS_NAMES.index("HandstandPushups")]


def test_blank_lines_in_the_middle_and_extra_spaces(tmp_path):
    path = write(
        tmp_path, "t.txt", "\n  YoYo/v_YoYo_g02_c01.avi   3  \n\n\nYoYo/v_YoYo_g02_c02.avi\n"
    )
    lst = read_split_list(path, ["A", "B", "YoYo"])
    assert lst.labels.tolist() == [2, 2] and lst.clips.tolist() == [1, 2]


def test_module_doctests():
    result = doctest.testmod(ucf101_lists)
    assert result.attempted > 0 and result.failed == 0


# --------------------------------------------------------------------------------------------
# Malformed files: the error names the file and the line
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("1 A\n2 B C\n", 2, "expected '<index> <ClassName>'"),
        ("1 A\nB 2\n", 2, "expected '<index> <ClassName>'"),
        ("1 A\n3 B\n", 2, "expected class index 2, got 3"),
        ("2 A\n", 1, "expected class index 1"),
        ("1 Archery\n\n2 archery\n", 3, "repeats line 1"),
    ],
)
def test_class_index_errors(tmp_path, text, line, fragment):
    path = write(tmp_path, "classInd.txt", text)
    with pytest.raises(ValueError, match=fragment) as info:
        read_class_index(path)
    assert str(path) in str(info.value) and f"line {line}:" in str(info.value)


def test_class_index_empty(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        read_class_index(write(tmp_path, "classInd.txt", "\r\n\r\n"))


@pytest.mark.parametrize(
    "bad_line, fragment",
    [
        ("YoYo/v_YoYo_g01_c01.avi 3 extra", "expected 'Folder/v_Name_gXX_cYY.avi"),
        ("YoYo/YoYo_g01_c01.avi", "not a video path"),
        ("v_YoYo_g01_c01.avi", "not a video path"),
        ("YoYo/v_YoYo_g01_c01.mp4", "not a video path"),
        ("YoYo/v_YoYo_gAB_c01.avi", "not a video path"),
        ("YoYo/v_Archery_g01_c01.avi", "folder 'YoYo' and file name class 'Archery' differ"),
        ("Surfing/v_Surfing_g01_c01.avi", "unknown class 'Surfing'"),
        ("YoYo/v_YoYo_g01_c01.avi 1", "class index 1 disagrees with folder 'YoYo'"),
        ("YoYo/v_YoYo_g01_c01.avi x", "must be a positive integer"),
        ("YoYo/v_YoYo_g01_c01.avi -3", "must be a positive integer"),
        ("YoYo/v_YoYo_g00_c01.avi", "group 0 is outside 1 ... 25"),
        ("YoYo/v_YoYo_g26_c01.avi", "group 26 is outside 1 ... 25"),
        ("YoYo/v_YoYo_g01_c00.avi", "clip number must be at least 1"),
        ("ApplyEyeMakeup/v_ApplyEyeMakeup_g08_c01.avi", "already listed on line 1"),
    ],
)
def test_split_list_errors(tmp_path, bad_line, fragment):
    path = write(
        tmp_path,
        "trainlist01.txt",
        "ApplyEyeMakeup/v_ApplyEyeMakeup_g08_c01.avi 1\r\n\r\n" + bad_line + "\r\n",
    )
    with pytest.raises(ValueError, match=fragment) as info:
        read_split_list(path, ["ApplyEyeMakeup", "HandstandPushups", "YoYo"])
    assert str(path) in str(info.value) and "line 3:" in str(info.value)


def test_split_list_empty(tmp_path):
    with pytest.raises(ValueError, match="no videos found"):
        read_split_list(write(tmp_path, "testlist01.txt", "\n"))


def test_class_index_differing_only_by_case_is_refused(files):
    with pytest.raises(ValueError, match="differ only by case"):
        read_split_list(files[1], ["YoYo", "yoyo"])


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_split_list(tmp_path / "nope.txt")


# --------------------------------------------------------------------------------------------
# The real official lists
# --------------------------------------------------------------------------------------------

needs_shared = pytest.mark.skipif(
    not SHARED_UCF101.is_dir(), reason="../shared/data/ucf101 (official lists) is absent"
)


@needs_shared
def test_real_class_index_matches_facts_table():
    assert read_class_index(SHARED_UCF101 / "classInd.txt") == ucf101.CLASS_NAMES


@needs_shared
@pytest.mark.parametrize("k", [1, 2, 3])
def test_real_split_lists(k):
    names = read_class_index(SHARED_UCF101 / "classInd.txt")
    train = read_split_list(SHARED_UCF101 / f"trainlist0{k}.txt", names)
    test = read_split_list(SHARED_UCF101 / f"testlist0{k}.txt", names)
    train_groups, test_groups = ucf101.split_groups(k)
    assert set(test.groups.tolist()) == set(test_groups)
    assert set(train.groups.tolist()) == set(train_groups)
    assert not set(train.paths.tolist()) & set(test.paths.tolist())
    assert len(train.paths) + len(test.paths) == 13_320
    table = np.zeros((101, 25), dtype=np.int64)
    np.add.at(table, (np.r_[train.labels, test.labels], np.r_[train.groups, test.groups] - 1), 1)
    np.testing.assert_array_equal(table, ucf101.clips_per_group())
    counts = ucf101.split_counts(k)
    np.testing.assert_array_equal(np.bincount(test.labels, minlength=101), counts.test)
    # The case quirk really is in the official files, and is read as HandstandPushups.
    handstand = ucf101.CLASS_NAMES.index("HandstandPushups")
    quirky = np.char.find(train.paths, "v_HandStandPushups_") >= 0
    assert quirky.any() and (train.labels[quirky] == handstand).all()
