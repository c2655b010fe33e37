"""Read the official UCF101 list files: ``classInd.txt``, ``trainlistNN.txt``, ``testlistNN.txt``.

For readers who have the real data set (the ``ucfTrainTestlist`` folder of Soomro et al., 2012).
The formats are::

    classInd.txt        1 ApplyEyeMakeup
    trainlist01.txt     ApplyEyeMakeup/v_ApplyEyeMakeup_g08_c01.avi 1
    testlist01.txt      ApplyEyeMakeup/v_ApplyEyeMakeup_g01_c01.avi

The official files end their lines with CRLF; CRLF and LF line ends are accepted, as are blank
lines anywhere (a trailing one included) and a UTF-8 byte-order mark.

**Class names are compared without regard to case.**  The official files spell one class two
ways: ``classInd.txt`` and the folder say ``HandstandPushups``, the file names say
``v_HandStandPushups_gXX_cYY.avi``.  A strict lookup would reject the official lists, so
:func:`read_split_list` matches names case-insensitively (and refuses a class index whose names
differ only by case).

Malformed lines raise :class:`ValueError` naming the file and the line number.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "classInd.txt").write_text("1 Archery\\r\\n2 HandstandPushups\\r\\n\\r\\n")
>>> _ = (folder / "trainlist01.txt").write_text(
...     "Archery/v_Archery_g08_c01.avi 1\\n"
...     "HandstandPushups/v_HandStandPushups_g09_c02.avi 2\\n")
>>> names = read_class_index(folder / "classInd.txt")
>>> names
('Archery', 'HandstandPushups')
>>> lst = read_split_list(folder / "trainlist01.txt", names)
>>> lst.labels.tolist(), lst.groups.tolist(), lst.clips.tolist()
([0, 1], [8, 9], [1, 2])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .ucf101 import CLASS_NAMES, N_GROUPS

__all__ = ["SplitList", "read_class_index", "read_split_list"]

_VIDEO = re.compile(
    r"^(?P<folder>[^/\\]+)[/\\]v_(?P<name>[^_/\\]+)_g(?P<group>\d+)_c(?P<clip>\d+)"
    r"\.avi$"
)


class SplitList(NamedTuple):
    """The clips of one list file, in file order.

    Attributes
    ----------
    paths : ndarray of str
        Video paths as written in the file (``Folder/v_Name_gXX_cYY.avi``).
    labels : ndarray of int64
        Class indices **0-based** into the class index (the official 1-based index is
        ``labels + 1``), so ``class_names[labels[i]]`` names the class.
    groups : ndarray of int64
        Group numbers 1 ... 25.
    clips : ndarray of int64
        Clip numbers within the group (1 ... 7 in UCF101).
    """

    paths: np.ndarray
    labels: np.ndarray
    groups: np.ndarray
    clips: np.ndarray


def _lines(path: str | PathLike) -> list[tuple[int, str]]:
    """(line number, stripped text) of the non-blank lines of a text file."""
    text = Path(path).read_text(encoding="utf-8-sig")
    return [(i, line.strip()) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]


def read_class_index(path: str | PathLike) -> tuple[str, ...]:
    """Read ``classInd.txt``: one ``<index> <ClassName>`` per line, indices 1, 2, 3, ...

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    tuple of str
        Class names in index order: index ``i`` (1-based, as in the file) is ``names[i - 1]``.

    Raises
    ------
    ValueError
        A line that is not ``<int> <name>``, indices that are not 1, 2, 3, ... in order, names
        repeated (compared without case), or an empty file; the message names file and line.
    """
    names: list[str] = []
    seen: dict[str, int] = {}
    for lineno, line in _lines(path):
        parts = line.split()
        if len(parts) != 2 or not parts[0].isdigit():
            raise ValueError(f"{path}, line {lineno}: expected '<index> <ClassName>', got {line!r}")
        index, name = int(parts[0]), parts[1]
        if index != len(names) + 1:
            raise ValueError(
                f"{path}, line {lineno}: expected class index {len(names) + 1}, got {index}"
            )
        if name.lower() in seen:
            raise ValueError(
                f"{path}, line {lineno}: class {name!r} repeats line "
                f"{seen[name.lower()]} (names are compared without case)"
            )
        seen[name.lower()] = lineno
        names.append(name)
    if not names:
        raise ValueError(f"{path}: no classes found (empty file)")
    return tuple(names)


def _class_lookup(class_index: Sequence[str] | str | PathLike | None) -> dict[str, int]:
    if class_index is None:
        names: Sequence[str] = CLASS_NAMES
    elif isinstance(class_index, (str, PathLike)):
        names = read_class_index(class_index)
    else:
        names = tuple(class_index)
    lookup = {str(n).lower(): i for i, n in enumerate(names)}
    if len(lookup) != len(names):
        raise ValueError(
            "class_index holds names that differ only by case; they cannot be told "
            "apart in the list files"
        )
    return lookup


def read_split_list(
    path: str | PathLike,
    class_index: Sequence[str] | str | PathLike | None = None,
) -> SplitList:
    """Read a ``trainlistNN.txt`` or ``testlistNN.txt`` file.

    Each non-blank line is ``Folder/v_Name_gXX_cYY.avi``, optionally followed by the 1-based
    class index (train lists have it, test lists do not).  The class comes from the folder name,
    looked up **case-insensitively** in ``class_index``; the file-name class must match the folder
    (again ignoring case: ``HandstandPushups/v_HandStandPushups_...`` is fine), and a given index
    must agree with the folder.

    Parameters
    ----------
    path : str or path-like
    class_index : sequence of str, path-like, or None
        Class names in official order (e.g. the result of :func:`read_class_index`), or the path
        of ``classInd.txt``.  Default: :data:`mltutor.datasets.ucf101.CLASS_NAMES`.

    Returns
    -------
    SplitList
        ``(paths, labels, groups, clips)`` arrays in file order; ``labels`` are 0-based.

    Raises
    ------
    ValueError
        A malformed line, an unknown class, folder and file name disagreeing, an index that
        disagrees with the folder or is out of range, a group outside 1 ... 25 or a clip number
        below 1, a video listed twice, or an empty file; the message names file and line.
    """
    lookup = _class_lookup(class_index)
    paths: list[str] = []
    labels: list[int] = []
    groups: list[int] = []
    clips: list[int] = []
    seen: dict[str, int] = {}
    for lineno, line in _lines(path):
        where = f"{path}, line {lineno}"
        parts = line.split()
        if len(parts) not in (1, 2):
            raise ValueError(f"{where}: expected 'Folder/v_Name_gXX_cYY.avi [index]', got {line!r}")
        match = _VIDEO.match(parts[0])
        if match is None:
            raise ValueError(
                f"{where}: {parts[0]!r} is not a video path of the form 'Folder/v_Name_gXX_cYY.avi'"
            )
        folder, name = match["folder"], match["name"]
        if folder.lower() != name.lower():
            raise ValueError(f"{where}: folder {folder!r} and file name class {name!r} differ")
        label = lookup.get(folder.lower())
        if label is None:
            raise ValueError(f"{where}: unknown class {folder!r} (not in the class index)")
        if len(parts) == 2:
            if not parts[1].isdigit():
                raise ValueError(
                    f"{where}: the class index must be a positive integer, got {parts[1]!r}"
                )
            if int(parts[1]) != label + 1:
                raise ValueError(
                    f"{where}: class index {parts[1]} disagrees with folder "
                    f"{folder!r}, which is class {label + 1} in the class index"
                )
        group, clip = int(match["group"]), int(match["clip"])
        if not 1 <= group <= N_GROUPS:
            raise ValueError(f"{where}: group {group} is outside 1 ... {N_GROUPS}")
        if clip < 1:
            raise ValueError(f"{where}: clip number must be at least 1, got {clip}")
        key = parts[0].lower()
        if key in seen:
            raise ValueError(f"{where}: {parts[0]!r} already listed on line {seen[key]}")
        seen[key] = lineno
        paths.append(parts[0])
        labels.append(label)
        groups.append(group)
        clips.append(clip)
    if not paths:
        raise ValueError(f"{path}: no videos found (empty file)")
    return SplitList(
        np.array(paths, dtype=str),
        np.array(labels, dtype=np.int64),
        np.array(groups, dtype=np.int64),
        np.array(clips, dtype=np.int64),
    )
