"""Facts about THUMOS'14's temporal action detection task: its 20 classes.

THUMOS'14 (Jiang et al., 2014; Idrees et al., 2017) annotates the start and end of every action
instance of **20 classes** in long, untrimmed sports videos; all 20 are UCF101 classes.  Its
training set is UCF101's trimmed clips; the temporal annotations come with its untrimmed
validation and test videos.  This module ships the class list as a small table,
``mltutor/data/thumos14_detection_classes.csv``: the detection index (1 to 20, in the order of
the list), the class's index in UCF101's ``classInd.txt``, and its name.

Source: the list of "20 action classes for which temporal annotation is available" in the readme
of THUMOS'14's temporal annotations (``THUMOS CHALLENGE 2014, http://crcv.ucf.edu/THUMOS14/``),
which gives each class as its UCF101 index and name, ``7 BaseballPitch`` to ``97
VolleyballSpiking``.  The test suite checks every row against :data:`mltutor.datasets.ucf101
.CLASS_NAMES`: the name at that UCF101 index is the name in the table.

The ground truth also holds segments labelled ``Ambiguous``, parts of a video "hard to be labeled
as action or no-action", which the readme says are taken out of the evaluation; they are not a
class and are not in the table.

Examples
--------
>>> len(CLASS_NAMES), CLASS_NAMES[0], CLASS_NAMES[-1]
(20, 'BaseballPitch', 'VolleyballSpiking')
>>> UCF101_INDEX[:3]
(7, 9, 12)
>>> from mltutor.datasets import ucf101
>>> all(ucf101.CLASS_NAMES[i - 1] == name for i, name in zip(UCF101_INDEX, CLASS_NAMES))
True

References
----------
Y.-G. Jiang, J. Liu, A. Roshan Zamir, G. Toderici, I. Laptev, M. Shah and R. Sukthankar.
*THUMOS Challenge: Action Recognition with a Large Number of Classes*, 2014 (bib key
``jiang2014thumos``).  H. Idrees et al. *The THUMOS challenge on action recognition for videos
"in the wild"*, Computer Vision and Image Understanding 155, 2017 (``idrees2017thumos``).
"""

from __future__ import annotations

import csv
import io
from functools import lru_cache
from importlib import resources

__all__ = ["AMBIGUOUS", "CLASS_NAMES", "N_CLASSES", "UCF101_INDEX"]

#: Number of classes of the detection task.
N_CLASSES = 20
#: The label of the ground-truth segments that the evaluation leaves out.
AMBIGUOUS = "Ambiguous"
_TABLE = "thumos14_detection_classes.csv"


@lru_cache(maxsize=1)
def _load_table() -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Read the table: detection index, UCF101 index, class name."""
    text = resources.files("mltutor").joinpath("data", _TABLE).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    if rows[0] != ["detection_index", "ucf101_index", "class_name"] or len(rows) != N_CLASSES + 1:
        raise RuntimeError(f"{_TABLE} is malformed: unexpected header or number of rows")
    body = rows[1:]
    if [int(r[0]) for r in body] != list(range(1, N_CLASSES + 1)):
        raise RuntimeError(f"{_TABLE} is malformed: detection indices are not 1 ... {N_CLASSES}")
    return tuple(r[2] for r in body), tuple(int(r[1]) for r in body)


#: The 20 class names in the order of the official list (detection index 1 is ``CLASS_NAMES[0]``).
CLASS_NAMES: tuple[str, ...] = _load_table()[0]
#: Each class's index in UCF101's ``classInd.txt`` (1-based), in :data:`CLASS_NAMES` order.
UCF101_INDEX: tuple[int, ...] = _load_table()[1]
