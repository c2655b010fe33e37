"""Detection records: COCO dicts and per-image box lists, read into plain arrays.

Every check raises a ``ValueError`` (or a ``TypeError`` for a wrong container type) whose message
names the record at fault: ``detections[17] (image_id=3, category_id=2)``,
``coco_gt['annotations'][4]``.  Nothing here matches or counts: the checks turn the COCO dicts and
the box lists into plain arrays for :mod:`mltutor.detection`.

The fast path reads every record with one ``map`` and converts whole columns at once; only when
that fails does a second pass walk the records to find and name the first bad one.
"""

from __future__ import annotations

import array
import difflib
import itertools
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from .boxes import check_boxes, first_bad_box
from .params import check_scalar

__all__ = [
    "CocoDetections",
    "CocoGroundTruth",
    "ImageBoxes",
    "check_error_thresholds",
    "check_pr_points",
    "check_ranked_detections",
    "parse_coco_detections",
    "parse_coco_gt",
    "check_label_kinds",
    "parse_image_records",
]


# --------------------------------------------------------------------------------------------
# Records (lists of dicts)
# --------------------------------------------------------------------------------------------


def _describe(record: Mapping, keys: Sequence[str]) -> str:
    shown = ", ".join(f"{k}={record[k]!r}" for k in keys if k in record)
    return f" ({shown})" if shown else ""


def _find_bad_record(
    records: Sequence, where: str, required: Sequence[str], id_keys: Sequence[str]
) -> None:
    """Walk the records and raise for the first one that is not a dict with the required keys."""
    for i, rec in enumerate(records):
        if not isinstance(rec, Mapping):
            raise TypeError(f"{where}[{i}] must be a dict; got {type(rec).__name__}: {rec!r}")
        missing = [k for k in required if k not in rec]
        if missing:
            hints = []
            for k in missing:
                close = difflib.get_close_matches(k, [str(x) for x in rec], n=1, cutoff=0.6)
                if close:
                    hints.append(f"{close[0]!r} should be {k!r}")
            hint = f"; did you mean: {', '.join(hints)}?" if hints else ""
            raise ValueError(
                f"{where}[{i}]{_describe(rec, id_keys)} has no key {', '.join(map(repr, missing))} "
                f"(its keys: {sorted(map(str, rec))}); every record needs {list(required)}{hint}"
            )


def _columns(
    records: Sequence, where: str, required: Sequence[str], id_keys: Sequence[str]
) -> list[tuple]:
    """The values of ``required`` for every record, one tuple per key."""
    if not isinstance(records, Sequence) or isinstance(records, (str, bytes)):
        raise TypeError(f"{where} must be a list of dicts; got {type(records).__name__}.")
    if len(records) == 0:
        return [() for _ in required]
    columns = []
    for key in required:  # one pass per key: faster than one itemgetter of all keys plus zip(*rows)
        try:
            columns.append(tuple(map(operator.itemgetter(key), records)))
        except (KeyError, TypeError, IndexError):
            _find_bad_record(records, where, required, id_keys)
            raise  # pragma: no cover - _find_bad_record always raises here
    return columns


_NOT_NUMBERS = {str, bytes, bool, np.str_, np.bytes_, np.bool_}
_BOOLS = (bool, np.bool_)


def _is_number(v: Any, bools: bool = False) -> bool:
    """One value by the rule of :func:`_floats` (used only to name the first bad one)."""
    try:
        float(v)
        _ = 0.0 + v  # float() reads "0.9"; adding it to a float refuses strings and bytes
    except (TypeError, ValueError):
        return False
    return bools or type(v) not in _BOOLS


def _floats(values: Any, count: int, rows: Callable[[np.ndarray], Any], bools: bool) -> np.ndarray:
    """``count`` float64 values from the iterable ``values`` (made twice by calling it), or a
    TypeError when one of them is not a real number.

    ``np.fromiter`` alone reads the string "0.9" and ``True`` as numbers.  Looking at the type of
    every value (``set(map(type, ...))``) costs as much as the conversion, so the check is split in
    two cheap steps: ``sum(values, 0.0)`` runs in C and raises TypeError for a string, bytes or
    None (a float plus a string is not defined); a bool adds as 0 or 1, so only the values that
    read as 0.0 or 1.0 need their type looked at, which ``rows(positions)`` hands back.
    """
    arr = np.fromiter(values(), dtype=np.float64, count=count)
    sum(values(), 0.0)
    if not bools:
        maybe = np.flatnonzero((arr == 0.0) | (arr == 1.0))
        if maybe.shape[0] and not _NOT_NUMBERS.isdisjoint(map(type, rows(maybe))):
            raise TypeError
    return arr


def _numbers(
    values: Sequence,
    records: Sequence,
    where: str,
    key: str,
    id_keys: Sequence[str],
    *,
    bools: bool = False,
) -> np.ndarray:
    """A float64 column; a value that is not a real number (a string, None, a bool unless ``bools``)
    is named with its record."""
    try:
        return _floats(
            lambda: values,
            len(values),
            lambda pos: map(values.__getitem__, pos.tolist()),
            bools,
        )
    except (TypeError, ValueError):
        i = next((i for i, v in enumerate(values) if not _is_number(v, bools)), 0)
        raise ValueError(
            f"{where}[{i}]{_describe(records[i], id_keys)} has {key}={values[i]!r}; expected a number."
        ) from None


def _bboxes(values: Sequence, records: Sequence, where: str, id_keys: Sequence[str]) -> np.ndarray:
    """An (n, 4) float64 array of xywh boxes; the first malformed one is named with its record.

    One length check over the boxes, then all 4n coordinates converted in one ``np.fromiter``
    over the chained lists (:func:`_floats` says how strings and bools are still refused)."""
    n = len(values)
    try:
        lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
    except TypeError:
        lengths = np.array(
            [len(v) if isinstance(v, Sequence) or hasattr(v, "__len__") else -1 for v in values]
        )
    if n and (lengths != 4).any():
        i = int(np.argmax(lengths != 4))
        raise ValueError(
            f"{where}[{i}]{_describe(records[i], id_keys)} has bbox={values[i]!r}; expected 4 numbers "
            "[x, y, width, height]."
        )
    try:
        flat = _floats(
            lambda: itertools.chain.from_iterable(values),
            4 * n,
            # the boxes holding a 0 or a 1 (their four values: a bool hides in any of them)
            lambda pos: itertools.chain.from_iterable(
                map(values.__getitem__, np.unique(pos // 4).tolist())
            ),
            False,
        )
    except (TypeError, ValueError):
        i = next((i for i, v in enumerate(values) if not all(map(_is_number, v))), 0)
        raise ValueError(
            f"{where}[{i}]{_describe(records[i], id_keys)} has bbox={values[i]!r}; expected 4 numbers."
        ) from None
    boxes = flat.reshape(n, 4)
    bad = first_bad_box(boxes, "xywh")
    if bad is not None:
        i, why = bad
        raise ValueError(
            f"{where}[{i}]{_describe(records[i], id_keys)} has bbox={list(values[i])!r}, which {why} "
            "(COCO boxes are [x, y, width, height])."
        )
    return boxes


def _ids(values: tuple, name: str = "ids", *, finite: bool = False) -> np.ndarray:
    """Ids as an array: all numbers or all strings; ``finite`` also refuses NaN and inf (ids that
    records refer to are checked against these lists, which then name the record)."""
    try:
        # JSON's ids are Python ints: array("q") reads them in one C loop, about twice as fast as
        # np.asarray's type discovery, and refuses floats and strings (read below instead).
        return np.frombuffer(array.array("q", values), dtype=np.int64)
    except (TypeError, OverflowError):
        pass
    arr = np.asarray(values)
    if arr.dtype == object:
        raise ValueError(f"{name} must all be numbers or all be strings.")
    if finite and arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(
            f"{name} holds {arr[~np.isfinite(arr)][0]}; an id must be a finite number or a string."
        )
    return arr


def _index_of(ids: np.ndarray, known: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``ids`` in the sorted unique array ``known`` and a mask of those found."""
    none = np.zeros(ids.shape[0], dtype=np.int64), np.zeros(ids.shape[0], dtype=bool)
    if known.shape[0] == 0:
        return none
    if known.dtype.kind in "iu" and ids.dtype.kind in "iu":
        lo, span = int(known[0]), int(known[-1]) - int(known[0]) + 1
        if span <= 4 * known.shape[0] + 1024:
            # COCO ids are mostly a compact range (1..N): a table from id to position reads each
            # id in one step, where a binary search of unsorted ids jumps around memory (4-5x).
            table = np.full(span, -1, dtype=np.int64)
            table[known.astype(np.int64) - lo] = np.arange(known.shape[0])
            off = ids.astype(np.int64) - lo
            inside = (off >= 0) & (off < span)
            pos = table[np.where(inside, off, 0)]
            found = inside & (pos >= 0)
            return np.where(found, pos, 0), found
    try:
        pos = np.searchsorted(known, ids)
    except TypeError:  # e.g. string ids against numeric ones
        return none
    pos = np.minimum(pos, known.shape[0] - 1)
    found = known[pos] == ids
    return pos.astype(np.int64), np.asarray(found, dtype=bool)


def _unknown(
    found: np.ndarray,
    ids: np.ndarray,
    records: Sequence,
    where: str,
    key: str,
    id_keys: Sequence[str],
    known_name: str,
) -> None:
    if not found.all():
        i = int(np.argmin(found))
        raise ValueError(
            f"{where}[{i}]{_describe(records[i], id_keys)} refers to {key}={ids[i].item()!r}, which is not "
            f"in {known_name}."
        )


# --------------------------------------------------------------------------------------------
# COCO
# --------------------------------------------------------------------------------------------


@dataclass
class CocoGroundTruth:
    """The ground-truth dict as arrays (one entry per annotation)."""

    img_ids: np.ndarray  # sorted unique image ids (pycocotools' params.imgIds)
    cat_ids: np.ndarray  # sorted unique category ids (params.catIds)
    img: np.ndarray  # annotation -> index into img_ids
    cat: np.ndarray  # annotation -> index into cat_ids
    boxes: np.ndarray  # (n, 4) xywh
    area: np.ndarray  # the 'area' field (not recomputed from the box)
    crowd: np.ndarray  # bool
    ann_id: np.ndarray  # annotation ids


@dataclass
class CocoDetections:
    img: np.ndarray
    cat: np.ndarray
    boxes: np.ndarray  # (n, 4) xywh
    score: np.ndarray


_GT_ID_KEYS = ("id", "image_id", "category_id")
_DT_ID_KEYS = ("image_id", "category_id", "score")


def parse_coco_gt(coco_gt: Any) -> CocoGroundTruth:
    """Read a COCO ground-truth dict: ``images``, ``annotations`` and ``categories``.

    Required per annotation: ``id``, ``image_id``, ``category_id``, ``bbox`` ([x, y, w, h]), ``area``;
    ``iscrowd`` is optional (default 0).  Annotation ids must be unique (pycocotools silently keeps
    only the last of two annotations sharing an id).
    """
    if not isinstance(coco_gt, Mapping):
        raise TypeError(
            "coco_gt must be a COCO ground-truth dict with 'images', 'annotations' and 'categories'; got "
            f"{type(coco_gt).__name__}.  (A pycocotools COCO object's .dataset is such a dict.)"
        )
    for key in ("images", "annotations", "categories"):
        if key not in coco_gt:
            close = difflib.get_close_matches(key, [str(k) for k in coco_gt], n=1)
            hint = f" (found {close[0]!r})" if close else ""
            raise ValueError(
                f"coco_gt has no {key!r} list{hint}; a COCO ground-truth dict needs "
                "'images', 'annotations' and 'categories'."
            )
    (img_vals,) = _columns(coco_gt["images"], "coco_gt['images']", ("id",), ("id", "file_name"))
    (cat_vals,) = _columns(coco_gt["categories"], "coco_gt['categories']", ("id",), ("id", "name"))
    img_ids = (
        np.unique(_ids(img_vals, "coco_gt['images'] ids", finite=True))
        if img_vals
        else np.zeros(0, dtype=np.int64)
    )
    cat_ids = (
        np.unique(_ids(cat_vals, "coco_gt['categories'] ids", finite=True))
        if cat_vals
        else np.zeros(0, dtype=np.int64)
    )

    anns = coco_gt["annotations"]
    where = "coco_gt['annotations']"
    ann_id, image_id, category_id, bbox, area = _columns(
        anns, where, ("id", "image_id", "category_id", "bbox", "area"), _GT_ID_KEYS
    )
    n = len(ann_id)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return CocoGroundTruth(
            img_ids,
            cat_ids,
            empty,
            empty,
            np.zeros((0, 4)),
            np.zeros(0),
            np.zeros(0, dtype=bool),
            empty,
        )
    crowd_values = tuple(a.get("iscrowd", 0) for a in anns)
    iscrowd = _numbers(crowd_values, anns, where, "iscrowd", _GT_ID_KEYS, bools=True)
    not_flag = (iscrowd != 0) & (iscrowd != 1)
    if not_flag.any():
        i = int(np.argmax(not_flag))
        raise ValueError(
            f"{where}[{i}]{_describe(anns[i], _GT_ID_KEYS)} has iscrowd={crowd_values[i]!r}; "
            "expected 0 or 1."
        )
    iscrowd = iscrowd == 1
    boxes = _bboxes(bbox, anns, where, _GT_ID_KEYS)
    areas = _numbers(area, anns, where, "area", _GT_ID_KEYS)
    bad_area = ~np.isfinite(areas) | (areas < 0)
    if bad_area.any():
        i = int(np.argmax(bad_area))
        raise ValueError(
            f"{where}[{i}]{_describe(anns[i], _GT_ID_KEYS)} has area={area[i]!r}; "
            "expected a finite non-negative number."
        )
    ids = _ids(ann_id, f"{where} ids", finite=True)
    uniq, first, counts = np.unique(ids, return_index=True, return_counts=True)
    if (counts > 1).any():
        dup = uniq[np.argmax(counts > 1)]
        where_dup = np.flatnonzero(ids == dup)[:2].tolist()
        raise ValueError(
            f"{where} ids must be unique: records {where_dup} share id={dup.item()!r}."
        )
    image_ids, category_ids = _ids(image_id), _ids(category_id)
    img, found = _index_of(image_ids, img_ids)
    _unknown(found, image_ids, anns, where, "image_id", _GT_ID_KEYS, "coco_gt['images']")
    cat, found = _index_of(category_ids, cat_ids)
    _unknown(found, category_ids, anns, where, "category_id", _GT_ID_KEYS, "coco_gt['categories']")
    return CocoGroundTruth(img_ids, cat_ids, img, cat, boxes, areas, iscrowd, ids)


def parse_coco_detections(detections: Any, gt: CocoGroundTruth) -> CocoDetections:
    """Read a COCO result list: dicts with ``image_id``, ``category_id``, ``bbox`` and ``score``."""
    where = "detections"
    image_id, category_id, bbox, score = _columns(
        detections, where, ("image_id", "category_id", "bbox", "score"), _DT_ID_KEYS
    )
    n = len(image_id)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return CocoDetections(empty, empty, np.zeros((0, 4)), np.zeros(0))
    scores = _numbers(score, detections, where, "score", _DT_ID_KEYS)
    if np.isnan(scores).any():
        i = int(np.argmax(np.isnan(scores)))
        raise ValueError(f"{where}[{i}]{_describe(detections[i], _DT_ID_KEYS)} has a NaN score.")
    boxes = _bboxes(bbox, detections, where, _DT_ID_KEYS)
    ids = _ids(image_id)
    img, found = _index_of(ids, gt.img_ids)
    _unknown(found, ids, detections, where, "image_id", _DT_ID_KEYS, "coco_gt['images']")
    ids = _ids(category_id)
    cat, found = _index_of(ids, gt.cat_ids)
    _unknown(found, ids, detections, where, "category_id", _DT_ID_KEYS, "coco_gt['categories']")
    return CocoDetections(img, cat, boxes, scores)


# --------------------------------------------------------------------------------------------
# Per-image records (VOC): [{"boxes": (n, 4), "labels": (n,), ...}, ...]
# --------------------------------------------------------------------------------------------


@dataclass
class ImageBoxes:
    """Per-image box lists flattened: one entry per box."""

    img: np.ndarray  # box -> image index (position in the list)
    boxes: np.ndarray  # (n, 4) in the caller's fmt
    labels: np.ndarray
    extra: np.ndarray  # scores (detections) or difficult flags (ground truth)


def _image_labels(values: Any, where: str) -> np.ndarray:
    """One image's class labels: ints (or bools, whole floats) or strings; never NaN or inf, which
    would otherwise become a class of their own (AP 0, mAP diluted)."""
    lab = np.asarray(values).reshape(-1)
    if lab.dtype.kind == "O" and lab.size:
        if not all(isinstance(v, str) for v in lab):
            raise TypeError(
                f"{where} must hold class labels (all ints or all strings); got {lab[:5].tolist()}."
            )
        lab = lab.astype(str)
    if lab.dtype.kind not in "biufU":
        raise TypeError(f"{where} must hold class labels (ints or strings); got dtype {lab.dtype}.")
    if lab.dtype.kind == "f" and not np.isfinite(lab).all():
        bad = lab[~np.isfinite(lab)][0]
        raise ValueError(
            f"{where} holds the label {bad}; a class label must be a finite number or a string."
        )
    return lab


def _flags(values: Any, where: str) -> np.ndarray:
    """True/False flags (bools, or numbers that are exactly 0 or 1).  A string such as "False"
    would otherwise read as True."""
    flags = np.asarray(values).reshape(-1)
    if flags.dtype.kind == "b":
        return flags
    if flags.dtype.kind not in "iuf":
        shown = flags[:3].tolist()
        raise TypeError(
            f"{where} must hold booleans (True/False or 0/1); got {shown} (dtype {flags.dtype})."
        )
    ok = (flags == 0) | (flags == 1)
    if not ok.all():
        raise ValueError(
            f"{where} must hold booleans (True/False or 0/1); got the value {flags[~ok][0]}."
        )
    return flags.astype(bool)


def _scores(values: Any, where: str) -> np.ndarray:
    """Real-valued confidences (±inf ranks first/last); bools, strings and NaN refused."""
    scores = np.asarray(values).reshape(-1)
    if scores.size and scores.dtype.kind not in "iuf":
        raise TypeError(
            f"{where} must hold real numbers; got dtype {scores.dtype} ({scores[:3].tolist()})."
        )
    scores = scores.astype(np.float64)
    if np.isnan(scores).any():
        raise ValueError(f"{where} holds NaN; every detection needs a real score.")
    return scores


def parse_image_records(
    records: Any, where: str, extra_key: str, fmt: str, *, extra_default: Any = None
) -> ImageBoxes:
    """Flatten ``[{"boxes", "labels", extra_key}, ...]`` (one dict per image) into arrays.

    ``extra_key`` is ``"scores"`` (real numbers, not NaN) or ``"difficult"`` (booleans: bools or
    0/1).  Labels must be finite numbers or strings, of one kind across all images.
    """
    if not isinstance(records, Sequence) or isinstance(records, (str, bytes)):
        raise TypeError(
            f"{where} must be a list with one dict per image; got {type(records).__name__}."
        )
    required = ("boxes", "labels") if extra_default is not None else ("boxes", "labels", extra_key)
    _find_bad_record(records, where, required, ())
    read_extra = _scores if extra_key == "scores" else _flags
    img, boxes, labels, extra = [], [], [], []
    for i, rec in enumerate(records):
        b = check_boxes(rec["boxes"], f"{where}[{i}]['boxes']", fmt)
        lab = _image_labels(rec["labels"], f"{where}[{i}]['labels']")
        if lab.shape[0] != b.shape[0]:
            raise ValueError(f"{where}[{i}] has {b.shape[0]} boxes but {lab.shape[0]} labels.")
        if extra_key in rec:
            ex = read_extra(rec[extra_key], f"{where}[{i}][{extra_key!r}]")
            if ex.shape[0] != b.shape[0]:
                raise ValueError(
                    f"{where}[{i}] has {b.shape[0]} boxes but {ex.shape[0]} {extra_key}."
                )
        else:
            ex = np.full(b.shape[0], extra_default)
        img.append(np.full(b.shape[0], i, dtype=np.int64))
        boxes.append(b)
        labels.append(lab)
        extra.append(ex)
    check_label_kinds(labels, where)

    def join(parts: list, empty: np.ndarray) -> np.ndarray:
        parts = [p for p in parts if p.shape[0]]  # an empty list would turn int labels into floats
        return np.concatenate(parts) if parts else empty

    return ImageBoxes(
        join(img, np.zeros(0, np.int64)),
        join(boxes, np.zeros((0, 4))),
        join(labels, np.zeros(0, np.int64)),
        join(extra, np.zeros(0)),
    )


def check_label_kinds(parts: Sequence[np.ndarray], where: str) -> None:
    """All labels are numbers or all are strings: joined, 1 and "1" would be two classes."""
    kinds = {"strings" if p.dtype.kind == "U" else "numbers" for p in parts if p.shape[0]}
    if len(kinds) > 1:
        raise TypeError(
            f"{where}: string and numeric labels are mixed; use one kind of label everywhere."
        )


def check_error_thresholds(foreground_iou: Any, background_iou: Any) -> tuple[float, float]:
    """The IoU thresholds of :func:`mltutor.detection.error_breakdown`:
    ``0 < background_iou <= foreground_iou <= 1``, both finite real numbers (NaN, inf and bools
    raise TypeError, a real number out of range ValueError)."""
    for name, v in (("foreground_iou", foreground_iou), ("background_iou", background_iou)):
        if isinstance(v, bool) or not isinstance(v, Real) or not np.isfinite(v):
            raise TypeError(f"{name} must be a real number in (0, 1]; got {v!r}.")
        if not 0.0 < v <= 1.0:
            raise ValueError(f"{name} must lie in (0, 1]; got {v!r}.")
    if background_iou > foreground_iou:
        raise ValueError(
            f"background_iou ({background_iou!r}) must not exceed foreground_iou "
            f"({foreground_iou!r})."
        )
    return float(foreground_iou), float(background_iou)


def check_pr_points(recall: Any, precision: Any) -> tuple[np.ndarray, np.ndarray]:
    """The points of a detection precision-recall curve (1-D, one length, finite, in [0, 1],
    recall non-decreasing), as float64 arrays."""
    r = np.asarray(recall, dtype=np.float64)
    p = np.asarray(precision, dtype=np.float64)
    if r.ndim != 1 or p.ndim != 1 or r.shape != p.shape:
        raise ValueError(
            f"recall and precision must be 1-D arrays of the same length; got shapes {r.shape} "
            f"and {p.shape}."
        )
    if not (np.isfinite(r).all() and np.isfinite(p).all()):
        raise ValueError("recall and precision must be finite (no NaN or infinity).")
    if ((r < 0) | (r > 1) | (p < 0) | (p > 1)).any():
        raise ValueError("recall and precision must lie in [0, 1].")
    if (np.diff(r) < 0).any():
        raise ValueError(
            "recall must be non-decreasing: give the points in decreasing score order, one per "
            "detection.  (scikit-learn's precision_recall_curve runs the other way and ends with "
            "an artificial point (recall 0, precision 1): reverse it and drop that point first.)"
        )
    return r, p


def check_ranked_detections(
    scores: Any, is_tp: Any, n_positives: Any
) -> tuple[np.ndarray, np.ndarray, int]:
    """One class's detections: finite scores, 0/1 (or bool) match flags of the same length, and
    the number of ground-truth objects, an int >= 0 no smaller than the matched detections."""
    s = np.asarray(scores, dtype=np.float64).reshape(-1) if np.ndim(scores) else None
    t = np.asarray(is_tp).reshape(-1) if np.ndim(is_tp) else None
    if s is None or t is None:
        raise TypeError("scores and is_tp must be array-likes with one entry per detection.")
    if s.shape != t.shape:
        raise ValueError(
            f"scores has {s.shape[0]} entries but is_tp has {t.shape[0]}; one per detection."
        )
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite (no NaN or infinity).")
    if t.dtype.kind != "b":
        if t.dtype.kind not in "iuf" or not np.isin(t, (0, 1)).all():
            raise ValueError(
                "is_tp must hold booleans (or 0/1): True where the detection matched an object."
            )
        t = t.astype(bool)
    n_positives = check_scalar(
        n_positives,
        "n_positives",
        Integral,
        min_val=0,
        expected="an int >= 0 (number of ground-truth objects)",
    )
    if t.sum() > n_positives:
        raise ValueError(
            f"{int(t.sum())} detections are marked true positive but there are only {n_positives} "
            "ground-truth objects: each object can be matched once."
        )
    return s, t, n_positives
