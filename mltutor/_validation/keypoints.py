"""Keypoints: COCO ``keypoints`` lists ``[x1, y1, v1, ..., xK, yK, vK]`` and OKS sigmas.

Every check raises a ``ValueError`` that names the argument or the record at fault
(``coco_gt['annotations'][3]``, ``kpt_oks_sigmas``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "check_sigmas",
    "check_keypoint_array",
    "check_num_keypoints",
    "keypoint_records",
    "keypoint_rows",
]


def check_sigmas(sigmas: Any, name: str, default: np.ndarray) -> np.ndarray:
    """Per-keypoint sigmas: a 1-D array of finite, positive numbers (``default`` for None)."""
    if sigmas is None:
        return np.array(default, dtype=np.float64)
    try:
        arr = np.asarray(sigmas, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a 1-D list of positive numbers (one per keypoint); got {sigmas!r:.80}."
        ) from None
    if arr.ndim != 1 or arr.shape[0] == 0 or isinstance(sigmas, (str, bytes)):
        raise ValueError(
            f"{name} must be a non-empty 1-D list of positive numbers (one per keypoint); "
            f"got shape {arr.shape}."
        )
    if not (np.isfinite(arr) & (arr > 0)).all():
        raise ValueError(
            f"{name} must hold finite, positive numbers; got {arr[~(np.isfinite(arr) & (arr > 0))][0]}."
        )
    return arr


def _as_numbers(values: Any) -> np.ndarray:
    """``values`` as a float64 array, or a TypeError when they hold a string, bytes or None.

    ``np.asarray(values, dtype=float)`` would read the string "1" as 1.0 and None as NaN; without a
    dtype numpy finds a string or object dtype for them at no extra cost, so the kind is checked and
    the array converted after.  (A bool among numbers reads as 0 or 1, as pycocotools reads it.)"""
    arr = np.asarray(values)
    if arr.dtype.kind not in "fiu" and arr.size:
        raise TypeError
    return arr.astype(np.float64, copy=False)


def _rows_of_numbers(values: Sequence, width: int) -> np.ndarray | None:
    """(n, width) float64 of ``values``, n lists of ``width`` numbers each, or None when they are
    not that (the caller then looks closer).

    JSON's case in three C-level passes, about 3/4 of the time of :func:`_as_numbers`' type
    discovery: the lengths, all the numbers chained in one ``np.fromiter`` (which refuses None and
    lists but reads the string "1" as 1.0), and ``sum`` of them, which refuses strings and bytes (a
    float plus a string is not defined).  Bools read as 0 or 1, as in :func:`_as_numbers`; other
    real numbers (``Fraction``) by their value.  Only lists and tuples take this path: bytes, a dict
    or a set would iterate as something else than their numbers."""
    n = len(values)
    if not set(map(type, values)) <= {list, tuple}:
        return None
    try:
        lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
        if (lengths != width).any():
            return None
        arr = np.fromiter(itertools.chain.from_iterable(values), dtype=np.float64, count=n * width)
        sum(itertools.chain.from_iterable(values), 0.0)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int beyond a float
        return None
    return arr.reshape(n, width)


def keypoint_rows(values: Any, n_kpt: int, name: str) -> np.ndarray:
    """An (n, 3K) float array of keypoint lists given as one array-like (``oks``' inputs); strings,
    bytes and None refused (:func:`_as_numbers`), and a size that is not a multiple of 3K named."""
    if np.size(values) == 0:
        return np.zeros((0, 3 * n_kpt))
    try:
        arr = _as_numbers(values)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must hold lists [x1, y1, v1, ...] of numbers; got {values!r:.80}."
        ) from None
    if arr.size % (3 * n_kpt):
        raise ValueError(
            f"{name} must hold 3 numbers (x, y, v) per keypoint, {3 * n_kpt} per object for "
            f"{n_kpt} keypoints; got shape {arr.shape}."
        )
    return arr.reshape(-1, 3 * n_kpt)


def check_keypoint_array(values: Any, n_kpt: int, name: str, *, flags: bool) -> np.ndarray:
    """One object's keypoints as a (K, 3) float array: numbers (see :func:`_as_numbers`), finite x,
    y; with ``flags``, v in {0, 1, 2}."""
    try:
        arr = _as_numbers(values)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a flat list [x1, y1, v1, ...] of numbers; got {values!r:.80}."
        ) from None
    if isinstance(values, (str, bytes)) or arr.ndim != 1 or arr.shape[0] != 3 * n_kpt:
        raise ValueError(
            f"{name} must hold 3 numbers (x, y, v) per keypoint, {3 * n_kpt} for {n_kpt} keypoints "
            f"(the length of kpt_oks_sigmas); got shape {arr.shape}."
        )
    kpt = arr.reshape(n_kpt, 3)
    if not np.isfinite(kpt[:, :2]).all():
        raise ValueError(f"{name} holds NaN or inf coordinates.")
    if flags and not np.isin(kpt[:, 2], (0, 1, 2)).all():
        bad = kpt[~np.isin(kpt[:, 2], (0, 1, 2)), 2][0]
        raise ValueError(
            f"{name} has the visibility flag {bad:g}; COCO flags are 0 (not labelled), 1 (labelled, "
            "hidden) or 2 (visible)."
        )
    return kpt


def keypoint_records(values: Sequence, n_kpt: int, where: Any, *, flags: bool) -> np.ndarray:
    """(n, K, 3) keypoints of n records; ``where(i)`` names record i.  One fast conversion, and a
    record-by-record pass only to name the first bad one."""
    n = len(values)
    try:
        arr = _rows_of_numbers(values, 3 * n_kpt)
        if arr is None:
            arr = _as_numbers(values)
        ok = arr.shape == (n, 3 * n_kpt) and np.isfinite(arr).all()
        if ok and flags:
            ok = bool(np.isin(arr[:, 2::3], (0, 1, 2)).all())
    except (TypeError, ValueError):
        ok = False
    if not ok:
        for i, v in enumerate(values):
            check_keypoint_array(v, n_kpt, f"{where(i)}['keypoints']", flags=flags)
        arr = _as_numbers(values)  # only the unused v of a detection was not finite
    return arr.reshape(n, n_kpt, 3)


def check_num_keypoints(values: Sequence, where: Callable[[int], str]) -> np.ndarray:
    """The ``num_keypoints`` of each ground-truth annotation: an int >= 0 (bools refused), as an
    int64 array; ``where(i)`` names annotation ``i`` in the message."""
    if set(map(type, values)) <= {int}:  # JSON's case: one look at the types, then one array
        arr = np.array(values, dtype=np.int64)
        if not arr.shape[0] or arr.min() >= 0:
            return arr
    bad = [
        i
        for i, v in enumerate(values)
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0
    ]
    if bad:
        raise ValueError(
            f"{where(bad[0])} has num_keypoints={values[bad[0]]!r}; "
            "expected a non-negative integer."
        )
    return np.array(values, dtype=np.int64)
