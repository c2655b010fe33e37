"""Data the chapters use: facts about real benchmarks, readers for their files, and simulators.

Nothing here touches the network.  Facts about real data sets are small tables shipped as package
data in ``mltutor/data/``, derived once from the official files and cross-checked against them by
the test suite.

:mod:`mltutor.datasets.ucf101`
    UCF101 action recognition: the 101 class names in official order, the number of clips per
    class and per group, and the three official train/test splits (Soomro et al., 2012).
:mod:`mltutor.datasets.ucf101_lists`
    Readers for the official ``classInd.txt``, ``trainlistNN.txt`` and ``testlistNN.txt`` files,
    for people who have the real data set.
:mod:`mltutor.datasets.ucf101_sim`
    A seeded simulated stand-in for UCF101's clips (frame features with the real class names,
    clip counts and groups), used by the case-study chapter because the videos cannot be
    downloaded here.
:mod:`mltutor.datasets.thumos14`
    THUMOS'14 temporal action detection: its 20 classes (all UCF101 classes) with their UCF101
    indices, from the official annotation readme.
"""

from . import thumos14, ucf101, ucf101_lists, ucf101_sim

__all__ = ["thumos14", "ucf101", "ucf101_lists", "ucf101_sim"]
