"""Instance masks: binary arrays, COCO run-length encodings (RLE) and polygons.

Every check raises a ``ValueError`` (or ``TypeError`` for a wrong container) that names the argument
and the object at fault (``rles[3]``, ``polygons[0]``).  The checks hand back plain arrays; the run
arithmetic lives in :mod:`mltutor.detection.mask`, which never checks again.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from .arrays import describe
from .detection import (
    _DT_ID_KEYS,
    _bboxes,
    _columns,
    _describe,
    _ids,
    _index_of,
    _numbers,
    _unknown,
)
from .params import check_scalar

__all__ = [
    "check_binary_masks",
    "check_rle_list",
    "bulk_rle_strings",
    "bulk_polygons",
    "check_decoded",
    "check_polygons",
    "check_image_size",
    "check_rle_sizes",
    "check_iscrowd",
    "image_sizes",
    "ScoredRecords",
    "parse_scored_records",
    "result_boxes",
    "result_segmentations",
]


def check_binary_masks(mask: Any, name: str = "mask") -> tuple[np.ndarray, bool]:
    """A binary mask (h, w) or a stack (h, w, n) as a uint8 array, and whether it was a single one.

    Values must be 0/1 (or booleans): pycocotools would read a 2 as a third "colour" and toggle
    the run on every change between 1 and 2, which is never meant.
    """
    arr = np.asarray(mask)
    if arr.ndim not in (2, 3):
        raise ValueError(
            f"{name} must be a binary mask of shape (height, width) or a stack (height, width, n); "
            f"got shape {arr.shape}."
        )
    if arr.dtype == bool:
        return arr.view(np.uint8), arr.ndim == 2
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold 0/1 or booleans; got dtype {arr.dtype}.")
    if arr.size and arr.dtype != np.uint8:
        bad = (arr != 0) & (arr != 1)
        if bad.any():
            raise ValueError(
                f"{name} must hold only 0 and 1 (or booleans); got the value {arr[bad][0]!r}."
            )
        arr = arr.astype(np.uint8)
    elif arr.size and arr.max() > 1:
        raise ValueError(
            f"{name} must hold only 0 and 1 (or booleans); got the value {arr.max()!r}."
        )
    return arr.astype(np.uint8, copy=False), arr.ndim == 2


#: The largest image side accepted: ``h * w`` and every run length then fit in int64 with room
#: to add runs (2**62), where a side of 2**32 would wrap ``h * w`` around to 0.
MAX_SIDE = 2**31 - 1


def check_image_size(height: Any, width: Any) -> tuple[int, int]:
    """``height`` and ``width``: integers in ``[0, MAX_SIDE]``."""
    out = []
    for name, v in (("height", height), ("width", width)):
        v = check_scalar(
            v,
            name,
            Integral,
            min_val=0,
            expected="a non-negative integer (pixels)",
            type_error=ValueError,
        )
        if v > MAX_SIDE:
            raise ValueError(
                f"{name} = {v} pixels is beyond the largest side accepted, "
                f"2**31 - 1 (h * w must fit in 64-bit arithmetic)."
            )
        out.append(v)
    return out[0], out[1]


def _size(rle: Mapping, where: str) -> tuple[int, int]:
    size = rle["size"]
    if (
        not isinstance(size, (Sequence, np.ndarray))
        or isinstance(size, (str, bytes))
        or len(size) != 2
        or any(
            isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0
            for v in size
        )
    ):
        raise ValueError(
            f"{where}['size'] must be [height, width], two non-negative integers; got {size!r}."
        )
    if max(size) > MAX_SIDE:
        raise ValueError(
            f"{where}['size'] = {list(map(int, size))} is beyond the largest side "
            "accepted, 2**31 - 1 pixels (h * w must fit in 64-bit arithmetic)."
        )
    return int(size[0]), int(size[1])


def check_rle_list(rles: Any, name: str = "rles") -> tuple[list, np.ndarray, np.ndarray, bool]:
    """RLE dicts ``{"size": [h, w], "counts": ...}`` → (counts, heights, widths, single).

    ``counts`` is returned per object as given: ``bytes`` (a compressed string; ``str`` is encoded as
    ASCII) or an int64 array (uncompressed run lengths, which must be non-negative and sum to h·w).
    The compressed strings are checked where they are decoded (:func:`check_decoded`).
    """
    single = isinstance(rles, Mapping)
    items = [rles] if single else rles
    if not isinstance(items, (Sequence, np.ndarray)) or isinstance(items, (str, bytes)):
        raise TypeError(
            f"{name} must be an RLE dict {{'size': [h, w], 'counts': ...}} or a list of them; "
            f"got {describe(rles)}."
        )
    counts, heights, widths = [], np.zeros(len(items), np.int64), np.zeros(len(items), np.int64)
    for i, rle in enumerate(items):
        where = name if single else f"{name}[{i}]"
        if not isinstance(rle, Mapping) or "size" not in rle or "counts" not in rle:
            raise ValueError(
                f"{where} must be an RLE dict with 'size' and 'counts'; got {rle!r:.80}."
            )
        h, w = _size(rle, where)
        heights[i], widths[i] = h, w
        c = rle["counts"]
        if isinstance(c, str):
            try:
                c = c.encode("ascii")
            except UnicodeEncodeError:
                raise ValueError(
                    f"{where}['counts'] is not a COCO compressed RLE string (non-ASCII)."
                ) from None
        if isinstance(c, bytes):
            counts.append(c)
            continue
        arr = np.asarray(c)
        if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu") or arr.dtype == bool:
            raise ValueError(
                f"{where}['counts'] must be a compressed string or a list of run lengths (ints); "
                f"got {c!r:.80}."
            )
        if arr.size and arr.dtype.kind == "i" and arr.min() < 0:
            raise ValueError(f"{where}['counts'] holds a negative run length ({arr[arr < 0][0]}).")
        if arr.size and int(arr.max()) > h * w:  # before any cast: uint64 2**63 is no negative run
            raise ValueError(
                f"{where}['counts'] holds a run of {int(arr.max())} pixels, more than "
                f"size {[h, w]} has ({h * w})."
            )
        arr = arr.astype(np.int64)
        # Runs of at most h * w each: their int64 sum cannot wrap unless len * h * w reaches 2**63
        # (then, rarely, add them as Python ints).
        total = int(arr.sum()) if arr.size * (h * w) < 2**63 else sum(arr.tolist())
        if total != h * w:
            raise ValueError(
                f"{where}['counts'] sums to {total}, but size {[h, w]} has {h * w} pixels."
            )
        counts.append(arr)
    return counts, heights, widths, single


def bulk_rle_strings(rles: Any) -> tuple[bytes, np.ndarray, np.ndarray, np.ndarray] | None:
    """The common case checked in bulk, without a Python check per object: a list of plain dicts whose
    ``size`` is two non-negative ints and whose ``counts`` are ASCII ``str`` or all ``bytes``.

    Returns (all counts joined, length of each, heights, widths), or None when anything is unusual;
    :func:`check_rle_list` then checks object by object and names the one at fault.
    """
    if not isinstance(rles, list) or not rles or {type(r) for r in rles} != {dict}:
        return None
    try:
        sizes = [r["size"] for r in rles]
        counts = [r["counts"] for r in rles]
        if set(map(len, sizes)) != {2} or set(map(type, itertools.chain.from_iterable(sizes))) != {
            int
        }:
            return None
    except (KeyError, TypeError):
        return None
    kinds = {type(c) for c in counts}
    if kinds == {str}:
        try:
            blob = "".join(counts).encode("ascii")  # ASCII: one byte per character
        except UnicodeEncodeError:
            return None
    elif kinds == {bytes}:
        blob = b"".join(counts)
    else:
        return None
    try:
        hw = np.fromiter(
            itertools.chain.from_iterable(sizes), dtype=np.int64, count=2 * len(sizes)
        ).reshape(-1, 2)
    except OverflowError:  # beyond int64: not an image size
        return None
    if (hw < 0).any() or (hw > MAX_SIDE).any():
        return None
    return (
        blob,
        np.fromiter(map(len, counts), dtype=np.int64, count=len(counts)),
        hw[:, 0],
        hw[:, 1],
    )


def check_decoded(
    counts: np.ndarray,
    offsets: np.ndarray,
    heights: np.ndarray,
    widths: np.ndarray,
    where: Callable[[int], str],
) -> np.ndarray:
    """Decoded compressed strings: run lengths in [0, h·w] and summing to h·w (exactly, not in
    wrapped int64) for every object.

    Returns the running sum of ``counts`` it checks with (the run ends on one axis for all objects),
    which the caller may keep rather than compute again."""
    running = np.cumsum(counts)
    at = np.zeros(offsets.shape[0], dtype=np.int64)
    after = offsets > 0
    at[after] = running[offsets[after] - 1]
    sums = np.diff(at)
    hw = heights * widths
    per_obj = np.diff(offsets)
    neg = np.zeros(heights.shape[0], dtype=bool)
    long = np.zeros(heights.shape[0], dtype=bool)
    if counts.shape[0] and (counts.min() < 0 or counts.max() > hw.min()):
        owner = np.repeat(np.arange(heights.shape[0]), per_obj)
        neg[owner[counts < 0]] = True
        # A run longer than the image: deltas can build runs of any size, whose int64 sum may
        # wrap around to h·w (64 runs of 2**58 plus 4 "sum to" 2 x 2 pixels).
        long[owner[counts > hw[owner]]] = True
    # Runs of at most h·w each: an object's int64 sum wraps only if it has 2**63 / (h·w) of
    # them; such objects (rare: huge images) are added exactly.
    exact = {
        i: sum(counts[offsets[i] : offsets[i + 1]].tolist())
        for i in np.flatnonzero(per_obj.astype(np.float64) * hw >= 2.0**63).tolist()
    }
    bad = neg | long | (sums != hw)
    for i, total in exact.items():
        bad[i] = neg[i] or long[i] or total != hw[i]
    if bad.any():
        i = int(np.argmax(bad))
        if neg[i]:
            why = "a negative run length"
        elif long[i]:
            run = int(counts[offsets[i] : offsets[i + 1]].max())
            why = f"a run of {run} pixels, more than h·w = {hw[i]}"
        else:
            why = f"runs summing to {exact.get(i, int(sums[i]))}, not h·w = {hw[i]}"
        raise ValueError(
            f"{where(i)}['counts'] decodes to {why}; it is not a valid RLE of size "
            f"{[int(heights[i]), int(widths[i])]}."
        )
    return running


def check_polygons(polygons: Any, name: str = "polygons") -> list[np.ndarray]:
    """A list of polygons ``[x1, y1, x2, y2, ...]``, each with at least 3 finite points."""
    if not isinstance(polygons, (Sequence, np.ndarray)) or isinstance(polygons, (str, bytes)):
        raise TypeError(
            f"{name} must be a list of polygons [x1, y1, x2, y2, ...]; got {describe(polygons)}."
        )
    out = []
    for i, p in enumerate(polygons):
        try:
            xy = np.asarray(p, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name}[{i}] must be a flat list of numbers [x1, y1, x2, y2, ...]; got {p!r:.80}."
            ) from None
        if isinstance(p, (str, bytes, Mapping)) or xy.ndim != 1:
            raise ValueError(
                f"{name}[{i}] must be a flat list of numbers [x1, y1, x2, y2, ...]; got {p!r:.80}."
            )
        if xy.shape[0] % 2:
            raise ValueError(f"{name}[{i}] has {xy.shape[0]} numbers; a polygon needs x, y pairs.")
        if xy.shape[0] < 6:
            raise ValueError(
                f"{name}[{i}] has {xy.shape[0] // 2} point(s); a polygon needs at least 3 "
                "(pycocotools' frPyObjects would read 4 numbers as a box)."
            )
        if not np.isfinite(xy).all():
            raise ValueError(f"{name}[{i}] holds NaN or inf coordinates.")
        if np.abs(xy).max() > 1e8:
            raise ValueError(f"{name}[{i}] has a coordinate beyond ±1e8 pixels.")
        out.append(xy)
    return out


def bulk_polygons(polygons: list) -> tuple[np.ndarray, np.ndarray] | None:
    """Polygons checked in bulk, without a NumPy call per polygon: each a list of Python floats or ints
    with an even number (at least 6) of finite coordinates within ±1e8 — what :func:`check_polygons`
    accepts, in its common form.

    Returns (all coordinates one after the other, points per polygon), or None when anything is
    unusual (then :func:`check_polygons` checks each polygon and names the one at fault).
    """
    if {type(p) for p in polygons} - {list}:
        return None
    lengths = np.fromiter(map(len, polygons), dtype=np.int64, count=len(polygons))
    if lengths.shape[0] and (lengths.min() < 6 or (lengths % 2).any()):
        return None
    if set(map(type, itertools.chain.from_iterable(polygons))) - {
        float,
        int,
    }:  # bools, strings, lists, NumPy
        return None
    try:
        coords = np.fromiter(
            itertools.chain.from_iterable(polygons), dtype=np.float64, count=int(lengths.sum())
        )
    except OverflowError:  # an int beyond float64's range
        return None
    if coords.shape[0] and not (np.abs(coords) <= 1e8).all():  # also False for NaN
        return None
    return coords, lengths // 2


def check_iscrowd(iscrowd: Any, n: int, name: str = "iscrowd") -> np.ndarray:
    """One 0/1 (or boolean) flag per ground-truth object."""
    if iscrowd is None:
        return np.zeros(n, dtype=bool)
    flags = np.asarray(iscrowd).reshape(-1)
    if flags.shape[0] != n:
        raise ValueError(
            f"{name} must hold one flag per ground-truth object ({n}); got {flags.shape[0]}."
        )
    if flags.size and (flags.dtype.kind not in "biuf" or not np.isin(flags, (0, 1)).all()):
        raise ValueError(f"{name} must hold 0/1 or booleans; got {flags[:5].tolist()}.")
    return flags.astype(bool)


# --------------------------------------------------------------------------------------------
# COCO records with masks or keypoints
# --------------------------------------------------------------------------------------------


def image_sizes(coco_gt: Mapping, img_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``height`` and ``width`` of each image in ``img_ids`` order (-1 where an image has none)."""
    images = coco_gt["images"]
    heights = np.full(img_ids.shape[0], -1, dtype=np.int64)
    widths = np.full(img_ids.shape[0], -1, dtype=np.int64)
    if not images:
        return heights, widths
    pos, _ = _index_of(_ids(tuple(im["id"] for im in images)), img_ids)
    for i, im in enumerate(images):
        if "height" in im and "width" in im:
            h, w = im["height"], im["width"]
            if any(
                isinstance(v, (bool, np.bool_))
                or not isinstance(v, (int, np.integer, float, np.floating))
                or not float(v).is_integer()
                or v < 0
                for v in (h, w)
            ):
                raise ValueError(
                    f"coco_gt['images'][{i}] has height={h!r}, width={w!r}; expected non-negative "
                    "integers (pixels)."
                )
            if max(h, w) > MAX_SIDE:
                raise ValueError(
                    f"coco_gt['images'][{i}] has height={h!r}, width={w!r}: beyond the "
                    "largest side accepted, 2**31 - 1 pixels."
                )
            heights[pos[i]], widths[pos[i]] = int(h), int(w)
    return heights, widths


@dataclass
class ScoredRecords:
    """COCO results for masks or keypoints: image and category indices, scores, the raw values."""

    img: np.ndarray
    cat: np.ndarray
    score: np.ndarray
    values: tuple


def parse_scored_records(detections: Any, gt: Any, key: str) -> ScoredRecords:
    """Read a COCO result list whose records carry ``image_id``, ``category_id``, ``score`` and
    ``key`` (``"segmentation"`` or ``"keypoints"``); ids are checked against the ground truth."""
    where = "detections"
    image_id, category_id, values, score = _columns(
        detections, where, ("image_id", "category_id", key, "score"), _DT_ID_KEYS
    )
    if len(image_id) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return ScoredRecords(empty, empty, np.zeros(0), ())
    scores = _numbers(score, detections, where, "score", _DT_ID_KEYS)
    if np.isnan(scores).any():
        i = int(np.argmax(np.isnan(scores)))
        raise ValueError(f"{where}[{i}]{_describe(detections[i], _DT_ID_KEYS)} has a NaN score.")
    ids = _ids(image_id)
    img, found = _index_of(ids, gt.img_ids)
    _unknown(found, ids, detections, where, "image_id", _DT_ID_KEYS, "coco_gt['images']")
    ids = _ids(category_id)
    cat, found = _index_of(ids, gt.cat_ids)
    _unknown(found, ids, detections, where, "category_id", _DT_ID_KEYS, "coco_gt['categories']")
    return ScoredRecords(img, cat, scores, values)


def _all_or_none(detections: Any, key: str, has: list, otherwise: str) -> bool:
    """Whether every result carries ``key`` (False: none does); a mix is refused, naming one of each."""
    if not any(has):
        return False
    if not all(has):
        i, j = has.index(False), has.index(True)
        raise ValueError(
            f"detections[{i}] has no {key!r} but detections[{j}] has one; give a {key!r} with every "
            f"result or with none (pycocotools' loadRes reads only the first result to decide: every "
            f"area from the {key} when it has one, from {otherwise} otherwise)."
        )
    return True


def result_boxes(detections: Any, otherwise: str = "the masks") -> np.ndarray | None:
    """The ``bbox`` of every mask or keypoint result, or None when none carries one.

    pycocotools' ``loadRes`` looks only at the first result: when it has a ``bbox`` (not ``[]``), every
    result's ``area`` becomes ``bbox[2] * bbox[3]`` (a result without one fails with a KeyError);
    otherwise every area comes from ``otherwise`` (the masks; for keypoint results the masks if they
    carry some, else the keypoints).  Results that mix the two are refused, since pycocotools' answer
    would then depend on which one comes first.
    """
    if not detections:
        return None
    has = [
        (type(d) is dict or isinstance(d, Mapping))
        and "bbox" in d
        and not (isinstance(d["bbox"], list) and d["bbox"] == [])
        for d in detections
    ]
    if not _all_or_none(detections, "bbox", has, otherwise):
        return None
    return _bboxes(tuple(d["bbox"] for d in detections), detections, "detections", _DT_ID_KEYS)


def result_segmentations(detections: Any) -> tuple | None:
    """The ``segmentation`` of every keypoint result, or None when none carries one.

    Without boxes, pycocotools' ``loadRes`` takes a keypoint result's area from its mask when the
    first result has a ``segmentation`` (a later one without fails with a KeyError), from the
    keypoints' extent otherwise; a mix is refused, as for boxes.
    """
    if not detections:
        return None
    has = [(type(d) is dict or isinstance(d, Mapping)) and "segmentation" in d for d in detections]
    if not _all_or_none(detections, "segmentation", has, "the keypoints' extent"):
        return None
    return tuple(d["segmentation"] for d in detections)


def check_rle_sizes(
    rles: Any, obj: np.ndarray, heights: np.ndarray, widths: np.ndarray, where: Callable[[int], str]
) -> None:
    """Each RLE's ``size`` is its image's (where the image gives one); ``obj[j]`` is RLE j's record.

    ``rles`` is an RLE set of ``mltutor.detection.mask`` (its ``heights`` and ``widths``).
    """
    wrong = (heights[obj] >= 0) & ((rles.heights != heights[obj]) | (rles.widths != widths[obj]))
    if wrong.any():
        j = int(np.argmax(wrong))
        i = int(obj[j])
        size = [int(rles.heights[j]), int(rles.widths[j])]
        raise ValueError(
            f"{where(i)}['segmentation'] has size {size!r}, but "
            f"its image is {[int(heights[i]), int(widths[i])]} (height, width)."
        )
