"""THUMOS'14's 20 detection classes in ``mltutor.datasets.thumos14``, checked two ways.

The list below is typed from the readme of THUMOS'14's temporal annotations ("The following is
the list of 20 action classes for which temporal annotation is available", each line a UCF101
index and a class name).  Each row must also name the UCF101 class at that index of the official
``classInd.txt`` (``mltutor.datasets.ucf101.CLASS_NAMES``; the raw file is read when
``../shared/data/ucf101`` is present).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mltutor.datasets import thumos14, ucf101

README_LIST = """
7 BaseballPitch
9 BasketballDunk
12 Billiards
21 CleanAndJerk
22 CliffDiving
23 CricketBowling
24 CricketShot
26 Diving
31 FrisbeeCatch
33 GolfSwing
36 HammerThrow
40 HighJump
45 JavelinThrow
51 LongJump
68 PoleVault
79 Shotput
85 SoccerPenalty
92 TennisSwing
93 ThrowDiscus
97 VolleyballSpiking
"""
SHARED_CLASS_IND = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "ucf101" / "classInd.txt"
)


def _pairs():
    return [
        (int(i), name) for i, name in (line.split() for line in README_LIST.split("\n") if line)
    ]


def test_table_equals_the_readme_list():
    assert list(zip(thumos14.UCF101_INDEX, thumos14.CLASS_NAMES)) == _pairs()
    assert thumos14.N_CLASSES == len(thumos14.CLASS_NAMES) == 20
    assert len(set(thumos14.CLASS_NAMES)) == 20


def test_every_class_is_the_ucf101_class_at_its_index():
    for index, name in zip(thumos14.UCF101_INDEX, thumos14.CLASS_NAMES):
        assert ucf101.CLASS_NAMES[index - 1] == name


@pytest.mark.skipif(not SHARED_CLASS_IND.exists(), reason="the official classInd.txt is absent")
def test_against_the_official_class_index_file():
    rows = dict(
        line.split()
        for line in SHARED_CLASS_IND.read_text(encoding="utf-8-sig").splitlines()
        if line.strip()
    )
    for index, name in zip(thumos14.UCF101_INDEX, thumos14.CLASS_NAMES):
        assert rows[str(index)] == name


def test_ambiguous_is_not_a_class():
    assert thumos14.AMBIGUOUS == "Ambiguous" and thumos14.AMBIGUOUS not in thumos14.CLASS_NAMES


def test_names_are_read_only():
    assert isinstance(thumos14.CLASS_NAMES, tuple) and isinstance(thumos14.UCF101_INDEX, tuple)
