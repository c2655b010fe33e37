"""Facts about UCF101: class names, clips per class and per group, and the official splits.

UCF101 (Soomro et al., 2012) has 13,320 video clips of 101 human actions, taken from YouTube.
The clips of each class come in 25 *groups* (``g01`` to ``g25``); the clips of one group can
share a person, a background or a viewpoint, so a group should not be split between training
and testing.  The three official splits keep each group on one side: split ``k`` tests on the 7
groups ``7k - 6, ..., 7k`` and trains on the other 18 (groups 22 to 25 are always training data).

This module ships the counts, not the videos: a 101 × 25 table of clips per class and group,
derived from the official ``ucfTrainTestlist`` files (``classInd.txt``, ``trainlist0k.txt``,
``testlist0k.txt``).  The test suite cross-checks the table against those files.

The classes are nearly balanced, 100 to 167 clips each, so a model that always answers one class
is right on at most 1.3 % of split 1's test clips (49 of 3,783, for any of the five largest test
classes).  A majority-class model fitted on split 1's training clips answers Punch, the largest
training class (121 clips), and is right on 39 test clips, 1.0 %:

>>> counts = clips_per_class()
>>> int(counts.sum()), int(counts.min()), int(counts.max())
(13320, 100, 167)
>>> train, test = split_counts(1)
>>> int(test.sum()), int(test.max()), round(float(test.max() / test.sum()), 3)
(3783, 49, 0.013)
>>> CLASS_NAMES[int(train.argmax())], int(train.max()), int(test[train.argmax()])
('Punch', 121, 39)

The technical report sorts the 101 classes into five action types: human-object interaction,
body motion only, human-human interaction, playing musical instruments, and sports (Soomro et
al., 2012).  It gives each class's type only by the colour of its frame in a figure, so
no per-class type table is shipped here.

References
----------
Khurram Soomro, Amir Roshan Zamir and Mubarak Shah. *UCF101: A Dataset of 101 Human Actions
Classes From Videos in The Wild.* CRCV-TR-12-01, University of Central Florida, 2012;
arXiv:1212.0402 (bib key ``soomro2012ucf101``).

Notes
-----
The official list files spell one class two ways: ``classInd.txt`` and the folder say
``HandstandPushups``, the file names ``v_HandStandPushups_gXX_cYY.avi``.  Compare class names
without regard to case.  :data:`CLASS_NAMES` uses the ``classInd.txt`` spelling.
"""

from __future__ import annotations

import csv
import io
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

import numpy as np

from .._validation.datasets import check_split_number

__all__ = [
    "CLASS_NAMES",
    "N_CLASSES",
    "N_GROUPS",
    "N_SPLITS",
    "SplitCounts",
    "clips_per_class",
    "clips_per_group",
    "require_disjoint_groups",
    "shared_groups",
    "split_counts",
    "split_groups",
]

#: Number of action classes.
N_CLASSES = 101
#: Number of groups per class (``g01`` to ``g25``).
N_GROUPS = 25
#: Number of official train/test splits.
N_SPLITS = 3
_TEST_GROUPS_PER_SPLIT = 7
_TABLE = "ucf101_clips.csv"


@lru_cache(maxsize=1)
def _load_table() -> tuple[tuple[str, ...], np.ndarray]:
    """Read ``mltutor/data/ucf101_clips.csv``: class index, class name, clips in g01 ... g25."""
    text = resources.files("mltutor").joinpath("data", _TABLE).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    expected_header = ["class_index", "class_name"] + [f"g{g:02d}" for g in range(1, N_GROUPS + 1)]
    if header != expected_header or len(body) != N_CLASSES:
        raise RuntimeError(f"{_TABLE} is malformed: unexpected header or number of rows")
    if [int(r[0]) for r in body] != list(range(1, N_CLASSES + 1)):
        raise RuntimeError(f"{_TABLE} is malformed: class indices are not 1 ... {N_CLASSES}")
    names = tuple(r[1] for r in body)
    counts = np.array([[int(v) for v in r[2:]] for r in body], dtype=np.int64)
    counts.setflags(write=False)
    return names, counts


#: The 101 class names in the official order of ``classInd.txt`` (index 1 is ``CLASS_NAMES[0]``).
CLASS_NAMES: tuple[str, ...] = _load_table()[0]


class SplitCounts(NamedTuple):
    """Clips per class in the training and the test part of one split; arrays of shape (101,)."""

    train: np.ndarray
    test: np.ndarray


def clips_per_group() -> np.ndarray:
    """Clips per class and group, an integer array of shape ``(101, 25)``.

    Row ``i`` is class ``CLASS_NAMES[i]``, column ``g`` is group ``g + 1`` (``g01`` is column 0).
    Every group holds 4 to 7 clips.

    Returns
    -------
    numpy.ndarray
        A fresh, writable copy; changing it does not change the table.

    Examples
    --------
    >>> table = clips_per_group()
    >>> table.shape, int(table.min()), int(table.max())
    ((101, 25), 4, 7)
    """
    return _load_table()[1].copy()


def clips_per_class() -> np.ndarray:
    """Clips per class over all 25 groups, an integer array of shape ``(101,)``.

    .. math:: n_c = \\sum_{g=1}^{25} \\mathrm{clips}_{c,g}

    The classes hold 100 to 167 clips (13,320 in all), so the largest class is 1.25 % of the data:
    UCF101 is nearly balanced, not long-tailed.

    Examples
    --------
    >>> n = clips_per_class()
    >>> CLASS_NAMES[int(n.argmax())], round(float(n.max() / n.sum()), 4)
    ('CricketShot', 0.0125)
    """
    return _load_table()[1].sum(axis=1)


def split_groups(k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The groups (numbered 1 to 25) in the training and the test part of official split ``k``.

    Split ``k`` tests on groups ``7k - 6`` to ``7k`` and trains on the other 18; groups 22 to 25
    are in the training part of every split.

    Parameters
    ----------
    k : int
        The split number, 1, 2 or 3.

    Returns
    -------
    train_groups, test_groups : tuple of int
        Group numbers, 1-based and ascending (subtract 1 to index :func:`clips_per_group`).

    Examples
    --------
    >>> train, test = split_groups(2)
    >>> test
    (8, 9, 10, 11, 12, 13, 14)
    >>> len(train), train[:3], train[-4:]
    (18, (1, 2, 3), (22, 23, 24, 25))
    """
    k = check_split_number(k, N_SPLITS)
    last = _TEST_GROUPS_PER_SPLIT * k
    test = tuple(range(last - _TEST_GROUPS_PER_SPLIT + 1, last + 1))
    train = tuple(g for g in range(1, N_GROUPS + 1) if g not in test)
    return train, test


def split_counts(k: int) -> SplitCounts:
    """Clips per class in the training and the test part of official split ``k``.

    Parameters
    ----------
    k : int
        The split number, 1, 2 or 3.

    Returns
    -------
    SplitCounts
        ``(train, test)``, two integer arrays of shape ``(101,)`` in :data:`CLASS_NAMES` order;
        ``train + test == clips_per_class()``.

    Examples
    --------
    >>> train, test = split_counts(1)
    >>> int(train.sum()), int(test.sum()), int(test.min()), int(test.max())
    (9537, 3783, 28, 49)
    """
    train_groups, test_groups = split_groups(k)
    table = _load_table()[1]
    return SplitCounts(
        train=table[:, np.subtract(train_groups, 1)].sum(axis=1),
        test=table[:, np.subtract(test_groups, 1)].sum(axis=1),
    )


def shared_groups(train_split: int, test_split: int) -> tuple[int, ...]:
    """The groups in the training part of split ``train_split`` and the test part of ``test_split``.

    .. math:: S = \\mathrm{train}(a) \\cap \\mathrm{test}(b)

    Empty when ``train_split == test_split`` (the official pairing); for two different splits it
    holds the 7 test groups of ``test_split``, all of which are training groups of the other split.
    A model trained on split ``a`` and tested on split ``b``'s test list has seen every test video
    of those groups in training (the lists name the same files).

    Parameters
    ----------
    train_split, test_split : int
        Split numbers, 1, 2 or 3.

    Returns
    -------
    tuple of int
        Group numbers (1-based, ascending).

    Examples
    --------
    >>> shared_groups(1, 1)
    ()
    >>> shared_groups(1, 2)
    (8, 9, 10, 11, 12, 13, 14)
    """
    train, _ = split_groups(train_split)
    _, test = split_groups(test_split)
    return tuple(g for g in test if g in train)


def require_disjoint_groups(train_split: int, test_split: int) -> None:
    """Refuse to score a model of split ``train_split`` on the test list of split ``test_split``.

    Returns ``None`` when the two parts share no group (:func:`shared_groups` is empty), which for
    the official lists happens exactly when the two split numbers are equal.

    Raises
    ------
    ValueError
        When they share groups; the message names the groups and counts their test clips.

    Examples
    --------
    >>> require_disjoint_groups(2, 2)
    >>> require_disjoint_groups(1, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: split 1's training part holds split 2's test groups 8-14 (3,734 test clips)...
    """
    shared = shared_groups(train_split, test_split)
    if shared:
        n_clips = int(split_counts(test_split).test.sum())
        raise ValueError(
            f"split {train_split}'s training part holds split {test_split}'s test groups "
            f"{shared[0]}-{shared[-1]} ({n_clips:,} test clips), so a model trained on split "
            f"{train_split} has seen every one of those test videos; test it on split "
            f"{train_split}'s own test list"
        )
