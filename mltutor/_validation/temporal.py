"""Temporal segments and the ActivityNet JSON layout, read into plain arrays.

Every check raises a ``ValueError`` (a ``TypeError`` for a wrong container type) whose message
names the argument or the record at fault: ``segments_a[3]``,
``ground_truth['database']['v_x']['annotations'][2]['segment']``,
``predictions['results']['v_y'][0]['score']``.  Nothing here matches or counts: the checks turn
the nested dicts into columns for :mod:`mltutor.detection.temporal`.

The fast path reads the records of all videos with ``map`` and converts whole columns at once;
only when that fails does a second pass read one video at a time and walk its records to find and
name the first bad one.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from numbers import Integral, Real
from typing import Any

import numpy as np

__all__ = [
    "Segments",
    "check_segments",
    "check_tiou_thresholds",
    "check_subset",
    "parse_ground_truth",
    "parse_predictions",
]

#: The largest tIoU threshold accepted: the matching kernel caps thresholds at ``1 - 1e-10``
#: (pycocotools' cap), so a larger one would not be honoured exactly.
MAX_TIOU_THRESHOLD = 1 - 1e-9

_SEGMENT = operator.itemgetter("segment")
_LABEL = operator.itemgetter("label")
_SCORE = operator.itemgetter("score")
_PLAIN = {float, int}  # JSON's numbers: read with np.fromiter (bool is not among them)


@dataclass
class Segments:
    """Labelled segments as columns (ground truth or predictions).

    ``video`` indexes ``videos``; ``score`` is None for ground truth.  Records keep their input
    order: videos in the mapping's order, segments in each list's order.
    """

    videos: list
    video: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: list
    score: np.ndarray | None = None
    label_types: frozenset | None = None  # set(map(type, label)), read once


def _bad_segment(seg: np.ndarray) -> np.ndarray:
    """Rows of an (n, 2) float array that are not finite with end > start."""
    finite = np.isfinite(seg).all(axis=1)
    return ~finite | ~(seg[:, 1] > seg[:, 0])


def _segment_problem(value: Any) -> str | None:
    """Why one record's ``segment`` is not [start, end] (None when it is)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        return f"must be a list [start, end] of two numbers; got {value!r:.60}"
    if len(value) != 2:
        return f"must hold two numbers [start, end]; got {len(value)} values"
    for v in value:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, Real):
            return f"must hold numbers; got {v!r:.40}"
    s, e = float(value[0]), float(value[1])
    if not (np.isfinite(s) and np.isfinite(e)):
        return f"must be finite (no NaN or infinity); got [{s}, {e}]"
    if not e > s:
        return f"must end after it starts (end > start, in seconds); got [{s}, {e}]"
    return None


def check_segments(segments: Any, name: str) -> np.ndarray:
    """An (n, 2) float64 array of [start, end] rows, finite, with end > start.

    A single segment ``[s, e]`` is read as one row.
    """
    if isinstance(segments, (str, bytes, Mapping)):
        raise TypeError(
            f"{name} must be an array-like of [start, end] segments; got {type(segments).__name__}."
        )
    try:
        arr = np.asarray(segments)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be an (n, 2) array of [start, end] segments; it is ragged "
            f"or not numeric: {segments!r:.80}"
        ) from None
    if arr.dtype.kind not in "iuf" or arr.dtype.kind == "b":
        if not (arr.size == 0 and arr.dtype.kind in "fO"):
            raise ValueError(f"{name} must hold numbers (seconds); got dtype {arr.dtype}.")
    arr = arr.astype(np.float64, copy=False)
    if arr.ndim == 1 and arr.shape[0] == 2:
        arr = arr[None, :]
    elif arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"{name} must have shape (n, 2), one [start, end] row per segment; got "
            f"shape {arr.shape}."
        )
    bad = np.flatnonzero(_bad_segment(arr))
    if bad.shape[0]:
        i = int(bad[0])
        s, e = arr[i]
        what = (
            "finite (no NaN or infinity)"
            if not (np.isfinite(s) and np.isfinite(e))
            else "a segment that ends after it starts (end > start)"
        )
        raise ValueError(f"{name}[{i}] = [{s}, {e}] must be {what}.")
    return arr


def check_tiou_thresholds(thresholds: Any, name: str = "tiou_thresholds") -> np.ndarray:
    """A non-empty 1-D float64 array of thresholds in [0, 1 - 1e-9] (a scalar is one threshold)."""
    if isinstance(thresholds, (str, bytes)):
        raise TypeError(
            f"{name} must be a number or a 1-D sequence of numbers; got {thresholds!r}."
        )
    try:
        arr = np.asarray(thresholds, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a number or a 1-D sequence of numbers; got {thresholds!r:.80}."
        ) from None
    arr = np.atleast_1d(arr)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence; got shape {arr.shape}.")
    ok = np.isfinite(arr) & (arr >= 0) & (arr <= MAX_TIOU_THRESHOLD)
    if not ok.all():
        raise ValueError(f"{name} must lie in [0, 1) (at most 1 - 1e-9); got {arr[~ok][0]!r}.")
    return arr


def check_subset(subset: Any) -> str | None:
    """None (every video) or the name of a subset (``"validation"``, ``"testing"``, ...)."""
    if subset is not None and not isinstance(subset, str):
        raise TypeError(f"subset must be None or a string such as 'validation'; got {subset!r}.")
    return subset


def _mapping(value: Any, where: str, key: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise TypeError(f"{where} must be a dict with the key {key!r}; got {type(value).__name__}.")
    if key not in value:
        keys = ", ".join(map(repr, list(value)[:5]))
        raise ValueError(
            f"{where} has no key {key!r} (keys: {keys or 'none'}); the ActivityNet "
            f"layout is {{{key!r}: {{video: ...}}}}."
        )
    inner = value[key]
    if not isinstance(inner, Mapping):
        raise TypeError(f"{where}[{key!r}] must be a dict of videos; got {type(inner).__name__}.")
    return inner


def _label_problem(value: Any) -> str | None:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, Integral)):
        return f"must be a class name (a string) or an integer id; got {value!r:.40}"
    return None


def _find_bad_record(records: Any, where: str, required: Sequence[str]) -> None:
    """Walk one video's records and raise for the first bad one."""
    if not isinstance(records, Sequence) or isinstance(records, (str, bytes)):
        raise TypeError(f"{where} must be a list of dicts; got {type(records).__name__}.")
    for i, rec in enumerate(records):
        here = f"{where}[{i}]"
        if not isinstance(rec, Mapping):
            raise TypeError(f"{here} must be a dict; got {type(rec).__name__}: {rec!r:.60}")
        missing = [k for k in required if k not in rec]
        if missing:
            raise ValueError(
                f"{here} has no key {', '.join(map(repr, missing))} (it has "
                f"{', '.join(map(repr, rec)) or 'no keys'})."
            )
        problem = _segment_problem(rec["segment"])
        if problem:
            raise ValueError(f"{here}['segment'] {problem}.")
        problem = _label_problem(rec["label"])
        if problem:
            raise ValueError(f"{here}['label'] {problem}.")
        if "score" in required:
            s = rec["score"]
            if isinstance(s, (bool, np.bool_)) or not isinstance(s, Real):
                raise ValueError(f"{here}['score'] must be a number; got {s!r:.40}.")
            if not np.isfinite(float(s)):
                raise ValueError(f"{here}['score'] must be finite (no NaN or infinity); got {s}.")


def _columns(records: Sequence, with_score: bool):
    """Segments (n, 2), labels and scores (or None) of a list of records, or an exception."""
    n = len(records)
    segments = list(map(_SEGMENT, records))
    labels = list(map(_LABEL, records))
    scores = list(map(_SCORE, records)) if with_score else None
    if n == 0:
        seg = np.zeros((0, 2))
    elif set(map(len, segments)) == {2}:
        # One flat array of the 2n ends: its dtype is float64 or int64 only if every end is a
        # number (strings give a str dtype, None or huge integers object; refused below).
        flat = np.array(list(chain.from_iterable(segments)))
        if flat.ndim != 1:
            raise ValueError
        seg = flat.reshape(n, 2)
    else:
        # No dtype: strings stay strings (np.array(..., float) would read "1.5") and are refused.
        seg = np.array(segments)
    if with_score:
        plain = set(map(type, scores)) <= _PLAIN
        score = np.fromiter(scores, np.float64, n) if plain else np.array(scores)
    else:
        score = None
    if seg.dtype.kind not in "iuf" or seg.ndim != 2 or seg.shape[1] != 2:
        raise ValueError
    seg = seg.astype(np.float64, copy=False)
    if _bad_segment(seg).any():
        raise ValueError
    if with_score:
        if n == 0:
            score = np.zeros(0)
        if score.dtype.kind not in "iuf" or score.ndim != 1:
            raise ValueError
        score = score.astype(np.float64, copy=False)
        if not np.isfinite(score).all():
            raise ValueError
    if not set(map(type, labels)) <= {str} and any(map(_label_problem, labels)):
        raise ValueError
    return seg, labels, score


def _is_list(records: Any) -> bool:
    return isinstance(records, Sequence) and not isinstance(records, (str, bytes))


def _read_records(records: Any, where: str, with_score: bool):
    """Columns of one video's records: segments (n, 2), labels, scores (or None)."""
    required = ("segment", "label", "score") if with_score else ("segment", "label")
    try:
        if not _is_list(records):
            raise TypeError
        return _columns(records, with_score)
    except (TypeError, ValueError, KeyError, IndexError):
        _find_bad_record(records, where, required)
    # Every record is valid one by one (Python ints beyond int64, say): convert them so.
    seg = np.array([[float(v) for v in r["segment"]] for r in records], dtype=np.float64).reshape(
        len(records), 2
    )
    labels = [r["label"] for r in records]
    score = np.array([float(r["score"]) for r in records], dtype=np.float64) if with_score else None
    return seg, labels, score


def _read_videos(named: list, with_score: bool):
    """Columns of every video's records at once, and the number of records of each video.

    ``named`` holds ``(records, where)`` pairs.  When the records of all videos do not convert
    as one column, each video is read alone, so that the error names the bad record.
    """
    lists = [records for records, _ in named]
    try:
        if not set(map(type, lists)) <= {list, tuple} and not all(map(_is_list, lists)):
            raise TypeError
        seg, labels, score = _columns(list(chain.from_iterable(lists)), with_score)
        return seg, labels, score, list(map(len, lists))
    except (TypeError, ValueError, KeyError, IndexError):
        parts = [_read_records(records, where, with_score) for records, where in named]
    seg = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, 2))
    labels = [v for p in parts for v in p[1]]
    score = None
    if with_score:
        score = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0)
    return seg, labels, score, [p[0].shape[0] for p in parts]


def _check_label_kinds(labels: list, where: str) -> frozenset:
    types = frozenset(map(type, labels))
    if len(types) > 1 and len({issubclass(t, str) for t in types}) > 1:
        raise ValueError(f"{where}: labels must be all strings or all integers, not a mix.")
    return types


def parse_ground_truth(ground_truth: Any, subset: str | None) -> Segments:
    """ActivityNet's ground-truth layout ``{"database": {video: {"annotations": [...]}}}``.

    With ``subset`` given, only the videos whose ``"subset"`` equals it are read, as the official
    ``ANETdetection`` does; a video without a ``"subset"`` key is refused then.
    """
    database = _mapping(ground_truth, "ground_truth", "database")
    videos, named = [], []
    for name, info in database.items():
        where = f"ground_truth['database'][{name!r}]"
        if not isinstance(info, Mapping):
            raise TypeError(
                f"{where} must be a dict with the key 'annotations'; got {type(info).__name__}."
            )
        if subset is not None:
            if "subset" not in info:
                raise ValueError(
                    f"{where} has no key 'subset', and subset={subset!r} asks to "
                    "filter on it (pass subset=None to keep every video)."
                )
            if info["subset"] != subset:
                continue
        if "annotations" not in info:
            raise ValueError(
                f"{where} has no key 'annotations' (it has "
                f"{', '.join(map(repr, info)) or 'no keys'})."
            )
        videos.append(name)
        named.append((info["annotations"], f"{where}['annotations']"))
    seg, labels, _, counts = _read_videos(named, False)
    types = _check_label_kinds(labels, "ground_truth")
    video = np.repeat(np.arange(len(videos), dtype=np.int64), counts)
    return Segments(videos, video, seg[:, 0].copy(), seg[:, 1].copy(), labels, None, types)


def parse_predictions(predictions: Any) -> Segments:
    """ActivityNet's prediction layout ``{"results": {video: [{"segment", "label", "score"}]}}``."""
    results = _mapping(predictions, "predictions", "results")
    videos = list(results)
    named = [(records, f"predictions['results'][{name!r}]") for name, records in results.items()]
    seg, labels, score, counts = _read_videos(named, True)
    types = _check_label_kinds(labels, "predictions")
    video = np.repeat(np.arange(len(videos), dtype=np.int64), counts)
    return Segments(videos, video, seg[:, 0].copy(), seg[:, 1].copy(), labels, score, types)
