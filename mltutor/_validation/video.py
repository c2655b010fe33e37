"""Checks for clip scores grouped by video and for per-split scores (:mod:`mltutor.video`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .arrays import as_numpy, not_array_like, shown
from .params import check_option
from .scores import check_real_scores

__all__ = ["VIDEO_METHODS", "check_clip_scores", "check_split_scores", "check_split_samples"]

VIDEO_METHODS = ("mean_logits", "mean_probs", "vote")


def check_clip_scores(
    clip_scores: Any, video_ids: Any, method: Any, order: Any
) -> tuple[np.ndarray, np.ndarray, str, str]:
    """``clip_scores`` (n_clips, n_classes) finite reals as float64, ``video_ids`` (n_clips,)."""
    method = check_option(method, VIDEO_METHODS, "method")
    order = check_option(order, ("first_seen", "sorted"), "order")
    if not_array_like(clip_scores):
        raise TypeError(
            f"clip_scores must be an array of shape (n_clips, n_classes); got {shown(clip_scores)}."
        )
    s = as_numpy(clip_scores, "clip_scores")
    if s.dtype == np.bool_ or s.dtype == np.float16:
        raise TypeError(
            f"clip_scores has dtype {s.dtype}: pass logits or probabilities as float32 or "
            "float64 (float16 rounds them to 3 digits, and bool holds no score)."
        )
    if s.ndim != 2:
        raise ValueError(
            f"clip_scores must be 2-D, (n_clips, n_classes); got an array of shape {s.shape}."
        )
    if s.shape[0] == 0 or s.shape[1] == 0:
        raise ValueError(
            f"clip_scores has shape {s.shape}: it needs at least one clip and one class."
        )
    s = check_real_scores(s, name="clip_scores", dtype_error=TypeError).astype(np.float64)
    if not_array_like(video_ids):
        raise TypeError(f"video_ids must be an array with one id per clip; got {shown(video_ids)}.")
    ids = as_numpy(video_ids, "video_ids")
    if ids.ndim != 1:
        raise ValueError(f"video_ids must be 1-D, one id per clip; got shape {ids.shape}.")
    if len(ids) != len(s):
        raise ValueError(
            f"clip_scores has {len(s)} clips (rows) but video_ids has {len(ids)} ids; "
            "pass one video id per clip."
        )
    if ids.dtype.kind == "f" and np.isnan(ids).any():
        raise ValueError("video_ids contains NaN; a video id must be a number or a string.")
    if ids.dtype.kind == "O":
        try:
            ids = ids.astype(str) if all(isinstance(v, str) for v in ids) else ids.astype(np.int64)
        except (TypeError, ValueError):
            raise TypeError(
                "video_ids must hold integers or strings of one kind; got an object array of "
                "mixed values."
            ) from None
    if ids.dtype.kind not in "biuUS":
        raise TypeError(f"video_ids must hold integers or strings; got dtype {ids.dtype}.")
    return s, ids, method, order


def check_split_scores(per_split_scores: Any) -> np.ndarray:
    """Per-split scores as float64 of shape (3, n_seeds): a (3,) array becomes one column."""
    if not_array_like(per_split_scores):
        raise TypeError(
            f"per_split_scores must be an array of 3 scores (or 3 rows of seeds); "
            f"got {shown(per_split_scores)}."
        )
    a = check_real_scores(per_split_scores, name="per_split_scores", dtype_error=TypeError)
    if a.dtype == np.bool_:
        raise TypeError("per_split_scores has dtype bool; pass the splits' scores as numbers.")
    a = a.astype(np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2 or a.shape[0] != 3 or a.shape[1] == 0:
        raise ValueError(
            "per_split_scores must have shape (3,) or (3, n_seeds), one row per official split; "
            f"got {np.shape(per_split_scores)}."
        )
    return a


def check_split_samples(correct: Any, groups: Any, strata: Any) -> tuple[list, list, list]:
    """Three per-video hit arrays with their groups and strata (or all three None)."""
    given = [x is not None for x in (correct, groups)]
    if not any(given) and strata is None:
        return None
    if not all(given):
        raise ValueError("an interval needs both correct= and groups= (one array per split).")
    out = []
    for name, x in (("correct", correct), ("groups", groups), ("strata", strata)):
        if x is None:
            out.append(None)
            continue
        if isinstance(x, (str, bytes)) or not hasattr(x, "__len__") or len(x) != 3:
            raise ValueError(
                f"{name} must be a sequence of 3 arrays, one per split; got {shown(x)}."
            )
        out.append([np.asarray(v).reshape(-1) for v in x])
    hits, grp, strat = out
    for k in range(3):
        h = hits[k]
        if h.dtype.kind not in "biuf" or len(h) == 0 or not np.isin(h, (0, 1)).all():
            raise ValueError(
                f"correct[{k}] must be a non-empty array of 0/1 (or bool), one per test video."
            )
        if len(grp[k]) != len(h) or (strat is not None and len(strat[k]) != len(h)):
            raise ValueError(
                f"split {k + 1}: correct, groups and strata need one entry per test video; got "
                f"{len(h)}, {len(grp[k])}" + ("" if strat is None else f", {len(strat[k])}") + "."
            )
    return hits, grp, strat
