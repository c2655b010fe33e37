"""Data the chapters use: facts about real benchmarks, and (later) synthetic data makers.

Nothing here touches the network.  Facts about real data sets are small tables shipped as package
data in ``mltutor/data/``, derived once from the official files and cross-checked against them by
the test suite.

:mod:`mltutor.datasets.ucf101`
    UCF101 action recognition: the 101 class names in official order, the number of clips per
    class and per group, and the three official train/test splits (Soomro et al., 2012).
"""

from . import ucf101

__all__ = ["ucf101"]
