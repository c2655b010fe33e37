"""``ucf101.shared_groups`` and ``ucf101.require_disjoint_groups``: a split-``a`` model tested on
split ``b``'s test list (chapter 8b)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from mltutor.datasets import ucf101

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "ucf101"


@pytest.mark.parametrize("a, b", list(itertools.product((1, 2, 3), repeat=2)))
def test_shared_groups_are_the_intersection(a, b):
    train, _ = ucf101.split_groups(a)
    _, test = ucf101.split_groups(b)
    assert ucf101.shared_groups(a, b) == tuple(sorted(set(train) & set(test)))
    assert (ucf101.shared_groups(a, b) == ()) == (a == b)
    if a != b:
        assert ucf101.shared_groups(a, b) == test  # the whole test part of b


@pytest.mark.parametrize("a, b", list(itertools.product((1, 2, 3), repeat=2)))
def test_require_disjoint_groups(a, b):
    if a == b:
        assert ucf101.require_disjoint_groups(a, b) is None
    else:
        with pytest.raises(ValueError, match=rf"split {a}'s training part holds split {b}'s"):
            ucf101.require_disjoint_groups(a, b)


@pytest.mark.parametrize("bad", [0, 4, 1.0, "1", True])
def test_bad_split_numbers(bad):
    with pytest.raises((TypeError, ValueError), match="split number"):
        ucf101.shared_groups(bad, 1)
    with pytest.raises((TypeError, ValueError), match="split number"):
        ucf101.require_disjoint_groups(1, bad)


@pytest.mark.skipif(not SHARED.exists(), reason="the official split lists are absent")
def test_the_real_lists_put_split_2s_test_videos_in_split_1s_training_list():
    train_1 = {
        line.split()[0]
        for line in (SHARED / "trainlist01.txt").read_text().splitlines()
        if line.strip()
    }
    test_2 = {
        line.strip()
        for line in (SHARED / "testlist02.txt").read_text().splitlines()
        if line.strip()
    }
    assert len(test_2) == 3734 and test_2 <= train_1
