"""COCO annotations' ``segmentation`` fields (polygons, uncompressed or compressed RLE) -> RLEs.

This is pycocotools' ``annToRLE`` for many records at once, used by the COCO evaluator.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..._validation.masks import (
    bulk_polygons,
    check_polygons,
    check_rle_sizes,
)
from ._overlap import combine
from ._polygons import _flatten_polygons, polygons_to_rle_set
from ._rle import RleSet, _segment_starts, as_rle_set


def _concat_take(sets: list[RleSet], which: np.ndarray, index: np.ndarray) -> RleSet:
    """Object ``index[i]`` of ``sets[which[i]]`` for every i, as one set."""
    heights = np.concatenate([s.heights for s in sets])
    widths = np.concatenate([s.widths for s in sets])
    counts = np.concatenate([s.counts for s in sets])
    shift = np.cumsum([0] + [len(s) for s in sets])
    cshift = np.cumsum([0] + [s.counts.shape[0] for s in sets])
    starts = np.concatenate([s.offsets[:-1] + c for s, c in zip(sets, cshift)])
    lengths = np.concatenate([np.diff(s.offsets) for s in sets])
    pick = shift[which] + index
    n_runs = lengths[pick]
    offsets = _segment_starts(n_runs)
    gather = (
        np.arange(offsets[-1]) - np.repeat(offsets[:-1], n_runs) + np.repeat(starts[pick], n_runs)
    )
    return RleSet(heights[pick], widths[pick], counts[gather], offsets)


def segmentations_to_rle_set(
    segms: tuple, heights: np.ndarray, widths: np.ndarray, where: Callable[[int], str]
) -> RleSet:
    """COCO ``segmentation`` fields → one RLE per object, as pycocotools' ``annToRLE``.

    A field is a list of polygons (rasterised at the image size and merged), an uncompressed RLE
    (list counts) or a compressed one.  ``heights[i]``/``widths[i]`` are object *i*'s image size
    (-1 when the image gives none: then only RLEs are possible); ``where(i)`` names the record.
    """
    is_rle = [isinstance(seg, dict) for seg in segms]
    rle_obj = [i for i, r in enumerate(is_rle) if r]
    rle_dicts = [segms[i] for i in rle_obj]
    rle_obj_a = np.array(rle_obj, dtype=np.int64)
    poly_obj, polys = [], []
    for i in (i for i, r in enumerate(is_rle) if not r):
        seg = segms[i]
        if not isinstance(seg, (list, tuple)):
            raise TypeError(
                f"{where(i)}['segmentation'] must be a list of polygons or an RLE dict; got "
                f"{type(seg).__name__}."
            )
        if heights[i] < 0:
            raise ValueError(
                f"{where(i)}['segmentation'] is a list of polygons, but its image has no 'height' and "
                "'width' to rasterise them at."
            )
        if not seg:
            raise ValueError(f"{where(i)}['segmentation'] is an empty list of polygons.")
        polys.extend(seg)
        poly_obj.extend([i] * len(seg))
    try:
        rles, _ = as_rle_set(rle_dicts, "segmentation")
    except (ValueError, TypeError):  # find the bad record again, one by one, to name it
        for i, seg in zip(rle_obj, rle_dicts):
            as_rle_set(seg, f"{where(i)}['segmentation']")
        raise
    check_rle_sizes(rles, rle_obj_a, heights, widths, where)
    if (
        not poly_obj
    ):  # every field an RLE (COCO results): already in record order, nothing to gather
        return rles
    poly_obj_a = np.array(poly_obj, dtype=np.int64)
    bulk = bulk_polygons(polys)
    if bulk is None:  # something unusual: check object by object, to name the one at fault
        checked = [
            p
            for i in dict.fromkeys(poly_obj)
            for p in check_polygons(segms[i], f"{where(i)}['segmentation']")
        ]
        bulk = _flatten_polygons(checked)
    owners, first_part, n_parts = np.unique(poly_obj_a, return_index=True, return_counts=True)
    parts = polygons_to_rle_set(*bulk, heights[poly_obj_a], widths[poly_obj_a])
    # Objects of several polygons are merged (union), as annToRLE does; one polygon is taken as is.
    several = n_parts > 1
    if not rle_obj and not several.any():  # one polygon per record: the parts are the records
        return parts
    in_several = np.repeat(several, n_parts)
    group = np.repeat(np.arange(int(several.sum())), n_parts[several])
    multi = owners[several]
    merged = combine(
        _concat_take([parts], np.zeros(group.shape[0], np.int64), np.flatnonzero(in_several)),
        group,
        multi.shape[0],
        heights[multi],
        widths[multi],
    )
    which = np.zeros(len(segms), dtype=np.int64)
    index = np.zeros(len(segms), dtype=np.int64)
    index[rle_obj_a] = np.arange(rle_obj_a.shape[0])
    which[owners[~several]], index[owners[~several]] = 1, first_part[~several]
    which[multi], index[multi] = 2, np.arange(multi.shape[0])
    return _concat_take([rles, parts, merged], which, index)
