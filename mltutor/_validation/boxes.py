"""Boxes: arrays of shape (n, 4) in corner (``xyxy``) or COCO (``xywh``) format.

Every check raises a ``ValueError`` whose message names the box at fault (``boxes1 row 2``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["FORMATS", "check_boxes", "check_fmt", "first_bad_box"]

FORMATS = ("xyxy", "xywh")


def check_fmt(fmt: Any) -> str:
    if fmt not in FORMATS:
        raise ValueError(
            f"fmt must be 'xyxy' (corners) or 'xywh' (COCO: x, y, width, height); got {fmt!r}."
        )
    return fmt


def _bad_box_message(box: np.ndarray, fmt: str) -> str | None:
    """Why a single box is malformed, or None."""
    if not np.all(np.isfinite(box)):
        return "holds NaN or inf"
    if fmt == "xywh":
        if box[2] < 0:
            return f"has a negative width ({box[2]:g})"
        if box[3] < 0:
            return f"has a negative height ({box[3]:g})"
    else:
        if box[2] < box[0]:
            return f"has x2 < x1 ({box[2]:g} < {box[0]:g}), i.e. a negative width"
        if box[3] < box[1]:
            return f"has y2 < y1 ({box[3]:g} < {box[1]:g}), i.e. a negative height"
    return None


def first_bad_box(boxes: np.ndarray, fmt: str) -> tuple[int, str] | None:
    """Row index and reason of the first malformed box (vectorised test, then one message)."""
    finite = np.isfinite(boxes).all(axis=1)
    if fmt == "xywh":
        ok = finite & (boxes[:, 2] >= 0) & (boxes[:, 3] >= 0)
    else:
        ok = finite & (boxes[:, 2] >= boxes[:, 0]) & (boxes[:, 3] >= boxes[:, 1])
    if ok.all():
        return None
    i = int(np.argmin(ok))
    return i, _bad_box_message(boxes[i], fmt) or "is malformed"


def check_boxes(boxes: Any, name: str, fmt: str) -> np.ndarray:
    """A float64 array of shape (n, 4) with finite coordinates and non-negative width and height."""
    try:
        arr = np.asarray(boxes, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must be an array of boxes of shape (n, 4); could not read it: {exc}"
        ) from None
    if arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0, 4)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise ValueError(
            f"{name} must have shape (n, 4) (one box per row, fmt={fmt!r}); got shape {arr.shape}."
        )
    bad = first_bad_box(arr, fmt)
    if bad is not None:
        i, why = bad
        raise ValueError(f"{name} row {i} {arr[i].tolist()} {why} (fmt={fmt!r}).")
    return arr
