"""Intervals of runs: union and intersection of masks (merge), and IoU of (detection, truth) pairs.

Intersections are counted column by column on the runs cut at column boundaries, or by searching
one mask's run boundaries in the other's when a mask takes part in few pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._validation.masks import (
    check_iscrowd,
)
from .._matching import _stable_argsort2
from ._rle import RleSet, _area, _bbox, _segment_starts, _toggles_to_rles, as_rle_set

COLUMNS_FROM = 4  # pairs per mask from which IoU is counted on column pieces (see pair_iou)


# --------------------------------------------------------------------------------------------
# Intervals: merge and IoU
# --------------------------------------------------------------------------------------------


def _intervals(r: RleSet, ones: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of ones (or of zeros) as [start, end) pixel intervals: (object, start, end), non-empty
    only."""
    ends = r.run_ends
    keep = (r.run_is_one if ones else ~r.run_is_one) & (r.counts > 0)
    return r.run_object[keep], (ends - r.counts)[keep], ends[keep]


def _union_bounds(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The union of intervals [start, end), given their starts sorted and, separately, their ends
    sorted: its pieces' bounds ``[open, close, open, close, ...]``, increasing.

    No coverage count is needed: the union has a gap before the i-th start exactly when that start
    lies after the (i-1)-th end, since the i intervals that start before it have all ended by then
    (touching intervals join: a gap needs a pixel that no interval covers)."""
    if starts.shape[0] == 0:
        return starts
    gap = np.flatnonzero(starts[1:] > ends[:-1])
    bounds = np.empty(2 * (gap.shape[0] + 1), dtype=np.int64)
    bounds[0::2] = starts[np.r_[0, gap + 1]]
    bounds[1::2] = ends[np.r_[gap, ends.shape[0] - 1]]
    return bounds


def combine(
    r: RleSet,
    group: np.ndarray,
    n_groups: int,
    heights: np.ndarray,
    widths: np.ndarray,
    intersect: bool = False,
) -> RleSet:
    """Union (or intersection) of the masks of each group → one RLE per group, like ``rleMerge``.

    Groups are kept apart on one axis (group · stride + pixel, stride above every h·w), so one
    :func:`_union_bounds` serves all of them.  An intersection is the complement, inside each
    group's [0, h·w), of the union of the runs of zeros: the same bounds, and a toggle at pixel 0."""
    obj, start, end = _intervals(r, ones=not intersect)
    stride = int((heights * widths).max()) + 1 if n_groups else 1
    base = group[obj] * stride
    toggles = _union_bounds(np.sort(base + start), np.sort(base + end))
    if intersect:
        toggles = np.r_[np.arange(n_groups) * stride, toggles]
    return _toggles_to_rles(toggles, stride, n_groups, heights, widths)


#: Images with fewer pixels than this have each run of ones packed as ``start · 2**b + end`` in one
#: int64 for the union (see :func:`_union_of_one_size`); larger ones sort starts and ends apart.
PACK_BELOW = 2**31


def _union_of_one_size(r: RleSet) -> RleSet:
    """:func:`combine` of all masks of ``r`` into one, for masks of one size (what ``merge`` is
    given), read from the runs of ones on the set's common axis (:attr:`RleSet.ones`), where mask i's
    pixel p is i·h·w + p.

    The pieces of the union are found as in :func:`_union_bounds`, from the starts in order and,
    for each, the furthest end among the runs that start no later (a running maximum).  While a
    run's start and end fit side by side in one int64 (``PACK_BELOW``), a single sort of the
    packed pairs gives both; each mask's runs are increasing, so a stable sort (timsort) merges those
    sorted stretches."""
    h, w = r.heights[:1], r.widths[:1]
    hw = int(h[0] * w[0])
    start, end, offsets = r.ones
    # Mask i's runs less i·h·w: the pixel inside its own mask (int64 wrapping, like the axis).
    base = np.repeat(np.arange(len(r), dtype=np.int64) * hw, offsets[1:] - offsets[:-1])
    start = start - base
    end = end - base
    nonempty = end > start
    if not nonempty.all():  # runs of ones of length 0 add no pixel (and would open a piece)
        start, end = start[nonempty], end[nonempty]
    if start.shape[0] == 0:
        return RleSet(h, w, np.array([hw], dtype=np.int64), np.array([0, 1], dtype=np.int64))
    if hw < PACK_BELOW:
        bits = hw.bit_length()  # start < end <= h·w < 2**bits: start · 2**bits + end fits 62 bits
        key = start
        key <<= bits
        key |= end
        key.sort(kind="stable")
        start = key >> bits
        key &= (1 << bits) - 1
        end = np.maximum.accumulate(key, out=key)
    else:  # separately sorted starts and ends give the same pieces (see _union_bounds)
        start.sort(kind="stable")
        end.sort(kind="stable")
    # A piece closes before start i + 1 when no run that starts before it reaches it.
    gap = np.flatnonzero(start[1:] > end[:-1])
    # bounds: 0, then each piece's first pixel and its end, then h·w; the counts are the steps
    bounds = np.empty(2 * gap.shape[0] + 4, dtype=np.int64)
    bounds[0], bounds[1], bounds[-2], bounds[-1] = 0, start[0], end[-1], hw
    np.take(start[1:], gap, out=bounds[3:-2:2], mode="clip")  # clip: unbuffered, in range
    np.take(end, gap, out=bounds[2:-2:2], mode="clip")
    counts = bounds[1:] - bounds[:-1]
    if bounds[-2] == hw:  # the union reaching the last pixel leaves no run of zeros after it
        counts = counts[:-1]
    return RleSet(h, w, counts, np.array([0, counts.shape[0]], dtype=np.int64))


def merge(rles: Any, intersect: bool = False) -> dict:
    """The union (or, with ``intersect=True``, the intersection) of masks as one RLE
    (``pycocotools.mask.merge``).  A single RLE is returned unchanged, as pycocotools does.

    Counts with a run of length 0 after the first (which :func:`encode` and pycocotools' encoder do
    not write, but an uncompressed RLE may hold) are read as the pixels they encode, and a merge of
    two or more is written as :func:`encode` writes it; pycocotools' ``rleMerge`` then returns such
    zero runs too, or (in one case we found) does not finish.

    Examples
    --------
    >>> a = {"size": [1, 4], "counts": [0, 2, 2]}
    >>> b = {"size": [1, 4], "counts": [1, 2, 1]}
    >>> merge([a, b])["counts"], merge([a, b], intersect=True)["counts"]
    (b'031', b'112')
    """
    r, single = as_rle_set(rles, "rles")
    if len(r) == 0:
        raise ValueError("rles must hold at least one RLE to merge.")
    if ((r.heights != r.heights[0]) | (r.widths != r.widths[0])).any():
        raise ValueError(
            "rles must all have the same size to be merged; got sizes "
            f"{sorted({(int(a), int(b)) for a, b in zip(r.heights, r.widths)})}."
        )
    if len(r) == 1:
        return r.to_dicts()[0]
    if intersect:
        out = combine(r, np.zeros(len(r), np.int64), 1, r.heights[:1], r.widths[:1], True)
    else:
        out = _union_of_one_size(r)
    return out.to_dicts()[0]


def _box_overlaps(db: np.ndarray, gb: np.ndarray, pd: np.ndarray, pg: np.ndarray) -> np.ndarray:
    """``bbIou(...) > 0`` for each pair: the boxes overlap with positive width and height."""
    # Pairs (db[pd], gb[pg]); each box's far edges are added once, and the pairs read plain columns.
    dx0, dy0, gx0, gy0 = db[:, 0], db[:, 1], gb[:, 0], gb[:, 1]
    dx1, dy1, gx1, gy1 = dx0 + db[:, 2], dy0 + db[:, 3], gx0 + gb[:, 2], gy0 + gb[:, 3]
    w = np.minimum(dx1[pd], gx1[pg]) - np.maximum(dx0[pd], gx0[pg])
    h = np.minimum(dy1[pd], gy1[pg]) - np.maximum(dy0[pd], gy0[pg])
    return (w > 0) & (h > 0)


@dataclass
class ColumnRuns:
    """A set of masks cut into column pieces: runs of ones split where a pixel column ends.

    Columns are stored densely over each mask's column range; ``rows``/``rows2`` hold a column's
    first two pieces (a blob crosses most columns once or twice), ``n`` how many it has,
    ``piece_start`` where its pieces begin in ``py0``/``py1``.
    """

    first_col: np.ndarray  # (n_obj,) first column with ones (0 when empty)
    n_cols: np.ndarray  # (n_obj,) width of the column range (0 when empty)
    col_offset: np.ndarray  # (n_obj + 1,) where each object's dense columns start
    n: np.ndarray  # (n_dense,) pieces per column
    rows: np.ndarray  # (n_dense,) the first piece's rows [y0, y1) packed in one number (0, 0: none)
    rows2: np.ndarray  # (n_dense,) int64: the second piece's, the same way
    several: np.ndarray  # dense indices of the columns with more than one piece, increasing
    piece_start: np.ndarray  # (n_dense + 1,)
    py0: np.ndarray  # (n_pieces,) every piece, by object, column and row
    py1: np.ndarray


def column_runs(r: RleSet) -> ColumnRuns:
    """Cut the runs of ones of every mask at column boundaries (pixel p is column p // h)."""
    obj, start, end = _intervals(r)
    h = r.heights[obj]
    c0, c1 = start // h, (end - 1) // h
    count = c1 - c0 + 1
    p_obj = np.repeat(obj, count)
    k = np.arange(p_obj.shape[0]) - np.repeat(_segment_starts(count)[:-1], count)
    p_col = np.repeat(c0, count) + k
    ph = r.heights[p_obj]
    py0 = np.maximum(np.repeat(start, count), p_col * ph) - p_col * ph
    py1 = np.minimum(np.repeat(end, count), (p_col + 1) * ph) - p_col * ph
    n_obj = len(r)
    first_col = np.zeros(n_obj, dtype=np.int64)
    last_col = np.full(n_obj, -1, dtype=np.int64)
    obj_first = np.r_[True, p_obj[1:] != p_obj[:-1]] if p_obj.shape[0] else np.zeros(0, bool)
    obj_last = np.r_[obj_first[1:], True] if p_obj.shape[0] else obj_first
    first_col[p_obj[obj_first]] = p_col[obj_first]
    last_col[p_obj[obj_last]] = p_col[obj_last]
    n_cols = last_col - first_col + 1
    col_offset = _segment_starts(n_cols)
    dense = col_offset[p_obj] + p_col - first_col[p_obj]
    n = np.bincount(dense, minlength=col_offset[-1]).astype(np.int64)
    piece_start = _segment_starts(n)
    # y0 and y1 side by side, read as one number: one gather per piece, not two.
    # Images under 2**15 rows (nearly all) pack y0, y1 as two int16 in one int32: half the bytes
    # for every gather of a column; taller ones as two int32 in one int64.
    half, whole = (
        (np.int16, np.int32) if n_obj == 0 or int(r.heights.max()) < 2**15 else (np.int32, np.int64)
    )
    packed = []
    for k in (0, 1):
        rows = np.zeros((col_offset[-1], 2), dtype=half)
        has_k = np.flatnonzero(n > k)
        rows[has_k, 0], rows[has_k, 1] = py0[piece_start[has_k] + k], py1[piece_start[has_k] + k]
        packed.append(rows.view(whole).reshape(-1))
    return ColumnRuns(
        first_col,
        n_cols,
        col_offset,
        n,
        packed[0],
        packed[1],
        np.flatnonzero(n > 1),
        piece_start,
        py0,
        py1,
    )


def _piece_overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rows shared by two packed pieces (y0, y1 as two int16 in an int32, or two int32 in an int64
    for images of 2**15 rows or more): ``max(0, min(y1) - max(y0))``; an absent piece (0, 0)
    shares none."""
    half = np.int16 if a.dtype == np.int32 else np.int32  # see column_runs
    a, b = a.view(half).reshape(-1, 2), b.view(half).reshape(-1, 2)
    out = np.minimum(a[:, 1], b[:, 1])
    out -= np.maximum(a[:, 0], b[:, 0])
    return np.maximum(out, 0, out=out)


def _in_ranges(
    sorted_values: np.ndarray, lo: np.ndarray, width: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The values in [lo_i, lo_i + width_i) for every i: (i, value), by i then value."""
    a = np.searchsorted(sorted_values, lo)
    count = np.searchsorted(sorted_values, lo + width) - a
    which = np.repeat(np.arange(lo.shape[0]), count)
    return which, sorted_values[
        np.arange(which.shape[0]) + np.repeat(a - _segment_starts(count)[:-1], count)
    ]


BLOCK = 1 << 16  # pieces expanded at once (shared columns, runs): what the cache holds


def _blocks(lengths: np.ndarray, size: int | None = None) -> list[tuple[int, int]]:
    """Consecutive slices of items, cut where the running total of ``lengths`` passes each multiple
    of ``size`` (default :data:`BLOCK`): a slice holds about ``size`` entries, more when a long item
    falls in it.

    The intersections expand every pair into one entry per shared column or run, then make some ten
    passes over those entries.  Over a million entries, each pass streams arrays of megabytes through
    memory, and each fresh array costs its page faults; in blocks of 2**16 entries the temporaries
    stay in the cache and their memory is reused (the 300 x 300 IoU of ``make bench``: 39 ms at once,
    24 ms in blocks, medians of 15 interleaved runs of a profiling script on one 2-core machine)."""
    size = BLOCK if size is None else size
    ends = np.cumsum(lengths)
    total = int(ends[-1]) if ends.shape[0] else 0
    cuts = np.searchsorted(ends, np.arange(size, total, size), side="right").tolist()
    bounds = [0, *cuts, lengths.shape[0]]
    return [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def _pair_intersections(d: ColumnRuns, g: ColumnRuns, pd: np.ndarray, pg: np.ndarray) -> np.ndarray:
    """|d ∩ g| for each pair, worked out in :func:`_blocks` of pairs (see :func:`_block_intersections`)."""
    lo = np.maximum(d.first_col[pd], g.first_col[pg])
    hi = np.minimum(d.first_col[pd] + d.n_cols[pd], g.first_col[pg] + g.n_cols[pg])
    inter = np.empty(pd.shape[0], dtype=np.int64)
    for a, b in _blocks(np.maximum(hi - lo, 0)):
        inter[a:b] = _block_intersections(d, g, pd[a:b], pg[a:b])
    return inter


def _block_intersections(
    d: ColumnRuns, g: ColumnRuns, pd: np.ndarray, pg: np.ndarray
) -> np.ndarray:
    """|d ∩ g| for each pair: the overlap of their pieces, column by column over the shared columns.

    A column where both masks have one piece is ``max(0, min(y1) - max(y0))``; a column where either
    has several compares every piece with every piece (they are few)."""
    lo = np.maximum(d.first_col[pd], g.first_col[pg])
    hi = np.minimum(d.first_col[pd] + d.n_cols[pd], g.first_col[pg] + g.n_cols[pg])
    width = np.maximum(hi - lo, 0)
    inter = np.zeros(pd.shape[0], dtype=np.int64)
    has = np.flatnonzero(width)
    if has.shape[0] == 0:
        return inter
    seg = _segment_starts(width[has])
    d_first = (
        d.col_offset[pd[has]] + lo[has] - d.first_col[pd[has]]
    )  # first shared column, dense index
    g_first = g.col_offset[pg[has]] + lo[has] - g.first_col[pg[has]]
    dcol = np.repeat(d_first - seg[:-1], width[has])  # built in place: no temporary per column
    dcol += np.arange(seg[-1])
    gcol = np.repeat(g_first - d_first, width[has])
    gcol += dcol
    per_col = _piece_overlap(d.rows[dcol], g.rows[gcol])  # first piece with first piece
    # Columns where either mask has several pieces: found from each set's shorter list of them.
    d_pair, d_col = _in_ranges(d.several, d_first, width[has])
    g_pair, g_col = _in_ranges(g.several, g_first, width[has])
    flag = np.zeros(seg[-1], dtype=bool)
    flag[seg[d_pair] + d_col - d_first[d_pair]] = True
    flag[seg[g_pair] + g_col - g_first[g_pair]] = True
    several = np.flatnonzero(flag)
    if several.shape[
        0
    ]:  # pieces are disjoint inside a column: the overlap is the sum over piece pairs
        dc, gc = dcol[several], gcol[several]
        d1, d2, g1, g2 = d.rows[dc], d.rows2[dc], g.rows[gc], g.rows2[gc]
        per_col[several] += _piece_overlap(d1, g2) + _piece_overlap(d2, g1) + _piece_overlap(d2, g2)
        many = np.flatnonzero((d.n[dc] > 2) | (g.n[gc] > 2))  # beyond two pieces: every combination
        several, dc, gc = several[many], dc[many], gc[many]
    if several.shape[0]:
        nd, ng = d.n[dc], g.n[gc]
        # every (d piece, g piece) combination of these columns
        combos = nd * ng
        entry = np.repeat(np.arange(several.shape[0]), combos)
        k = np.arange(entry.shape[0]) - np.repeat(_segment_starts(combos)[:-1], combos)
        di = d.piece_start[dc][entry] + k // ng[entry]
        gi = g.piece_start[gc][entry] + k % ng[entry]
        overlap = np.maximum(np.minimum(d.py1[di], g.py1[gi]) - np.maximum(d.py0[di], g.py0[gi]), 0)
        per_col[several] = np.bincount(entry, weights=overlap, minlength=several.shape[0]).astype(
            np.int32
        )
    inter[has] = np.add.reduceat(per_col, seg[:-1], dtype=np.int64)
    return inter


def _pair_intersections_by_search(
    dt: RleSet, gt: RleSet, pd: np.ndarray, pg: np.ndarray
) -> np.ndarray:
    """|d ∩ g| for each pair by sorted searches: ``Σ_{[s, e) ∈ b} F_a(e) - F_a(s)`` over the runs of
    one mask *b* inside the span of the other, *a*, with ``F_a(p)`` the pixels of *a* set before p.

    *a* is taken from the set with fewer runs of ones (a shorter array to search).  Cheaper than
    :func:`column_runs` when each mask meets only a few others (an evaluation), since nothing is
    prepared per column; the column pieces win for a full IoU matrix.  Pairs must have the same size
    (``pair_iou`` keeps only those).
    """
    if dt.ones[0].shape[0] > gt.ones[0].shape[0]:
        dt, gt, pd, pg = gt, dt, pg, pd
    # By the searched mask, then the other: the searches then walk forwards (cache-friendly).
    order = _stable_argsort2(pd, pg)
    inter = np.empty(pd.shape[0], dtype=np.int64)
    inter[order] = _count_common(dt, gt, pd[order], pg[order])
    return inter


def _search_on(
    padded: np.ndarray, keys: np.ndarray, start: np.ndarray, steps: int = 3
) -> np.ndarray:
    """``np.searchsorted(padded[:-1], keys, side="right")`` given, for each key, a ``start`` no later
    than its answer (``padded`` ends in a value above every key): step forwards while the next value
    is <= the key (a run of one mask meets only a few runs of another), then search the few keys
    still moving."""
    values = padded[:-1]
    out = start.copy()
    moving = np.flatnonzero(padded[out] <= keys)
    for _ in range(steps):
        if moving.shape[0] == 0:
            return out
        out[moving] += 1
        moving = moving[padded[out[moving]] <= keys[moving]]
    out[moving] = np.searchsorted(values, keys[moving], side="right")
    return out


def _count_common(a: RleSet, b: RleSet, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """|a ∩ b| for pairs (a[pa], b[pb]) of one size, searching *a*'s runs of ones (see above)."""
    # Runs of ones on each set's common axis (RleSet.ones); a zero-length run adds nothing below.
    a_start, a_end, a_first = a.ones  # a_first[i]: mask i's first run of ones
    b_start, b_end, _ = b.ones
    if a_start.shape[0] == 0:  # every mask of a empty
        return np.zeros(pa.shape[0], dtype=np.int64)
    a_base = _segment_starts(a.heights * a.widths)
    b_base = _segment_starts(b.heights * b.widths)
    # Only b's runs inside a's span [first one, last one) can meet it.
    span_lo = a_start[np.minimum(a_first[pa], a_start.shape[0] - 1)]
    span_hi = a_end[np.maximum(a_first[pa + 1] - 1, 0)]
    shift = a_base[pa] - b_base[pb]  # b's axis → a's (same image size)
    r0 = np.searchsorted(b_end, span_lo - shift, side="right")
    r1 = np.searchsorted(b_start, span_hi - shift, side="left")
    n_runs = np.where(
        a_first[pa + 1] > a_first[pa], np.maximum(r1 - r0, 0), 0
    )  # an empty mask meets none
    has = np.flatnonzero(n_runs)
    inter = np.zeros(pa.shape[0], dtype=np.int64)
    for i, j in _blocks(n_runs[has]):
        h = has[i:j]
        inter[h] = _runs_in_common(a, b, r0[h], n_runs[h], shift[h])
    return inter


def _runs_in_common(
    a: RleSet, b: RleSet, r0: np.ndarray, n_runs: np.ndarray, shift: np.ndarray
) -> np.ndarray:
    """|a ∩ b| for pairs whose *b* runs of ones ``r0 .. r0 + n_runs - 1`` (n_runs > 0) lie inside the
    *a* mask's span, ``shift`` taking b's axis to a's (see :func:`_count_common`)."""
    a_start = a.ones[0]
    b_start, b_end, _ = b.ones
    # F(p) = (ones of the runs that start at or before p) - (what the last of them has at or after p):
    # with j of a's runs starting at or before p, F(p) = before[j] - max(0, end[j - 1] - p).
    before = a.ones_before
    start_padded, end_before, _ = a.ones_padded
    seg = _segment_starts(n_runs)
    # (big arrays are worked on in place: each fresh one costs its page faults; takes into out=
    # use mode="clip", unbuffered, as the indices are in range)
    run = np.repeat(r0 - seg[:-1], n_runs)
    run += np.arange(seg[-1])
    run_shift = np.repeat(shift, n_runs)
    hi = np.take(b_end, run)
    hi += run_shift
    lo = np.take(b_start, run)
    lo += run_shift
    j_lo = np.searchsorted(a_start, lo, side="right")
    j_hi = _search_on(start_padded, hi, j_lo)
    per_run = np.take(before, j_hi)
    per_run -= np.take(before, j_lo, out=run_shift, mode="clip")
    hi -= end_before[j_hi]  # hi, lo reused: -(what a's last run has past them)
    lo -= end_before[j_lo]
    per_run += np.minimum(hi, 0, out=hi)
    per_run -= np.minimum(lo, 0, out=lo)
    return np.add.reduceat(per_run, seg[:-1])


def pair_iou(
    dt: RleSet,
    gt: RleSet,
    pair_dt: np.ndarray,
    pair_gt: np.ndarray,
    gt_crowd: np.ndarray,
    dt_box: np.ndarray | None = None,
    gt_box: np.ndarray | None = None,
    dt_cols: ColumnRuns | None = None,
    gt_cols: ColumnRuns | None = None,
    same_sizes: bool = False,
) -> np.ndarray:
    """IoU of the listed (detection, ground truth) pairs, as ``rleIou``.

    The intersection is counted column by column (:func:`column_runs`) when there are many pairs per
    mask, by sorted searches over the runs otherwise; unions and crowd
    denominators follow from the areas: ``|d ∪ g| = |d| + |g| - |d ∩ g|``.  Pairs whose boxes do not
    overlap are 0 without looking (pycocotools' shortcut), pairs of different sizes are -1
    (pycocotools' value).  A caller that knows every pair has one size (``same_sizes``: masks at
    their image's size, as in an evaluation) skips the boxes: they can only turn a pair that has no
    common pixel into 0, which the count gives anyway, and cost a pass over every run.
    """
    out = np.zeros(pair_dt.shape[0])
    if pair_dt.shape[0] == 0:
        return out
    if same_sizes:
        live = np.arange(pair_dt.shape[0])
    else:
        dt_box = _bbox(dt) if dt_box is None else dt_box
        gt_box = _bbox(gt) if gt_box is None else gt_box
        overlap = _box_overlaps(dt_box, gt_box, pair_dt, pair_gt)
        same = (dt.heights[pair_dt] == gt.heights[pair_gt]) & (
            dt.widths[pair_dt] == gt.widths[pair_gt]
        )
        out[overlap & ~same] = -1.0
        live = np.flatnonzero(overlap & same)
    if live.shape[0] == 0:
        return out
    pd, pg = pair_dt[live], pair_gt[live]
    if live.shape[0] > COLUMNS_FROM * (len(dt) + len(gt)):  # many pairs per mask: columns pay off
        dt_cols = column_runs(dt) if dt_cols is None else dt_cols
        gt_cols = column_runs(gt) if gt_cols is None else gt_cols
        inter = _pair_intersections(dt_cols, gt_cols, pd, pg)
    else:
        inter = _pair_intersections_by_search(dt, gt, pd, pg)
    d_area, g_area = _area(dt)[pd], _area(gt)[pg]
    union = np.where(gt_crowd[pg], d_area, d_area + g_area - inter)
    union = np.where(inter == 0, 1, union)
    out[live] = inter / union
    return out


def iou(dt: Any, gt: Any, iscrowd: Any = None) -> np.ndarray:
    """IoU of every detection mask with every ground-truth mask (``pycocotools.mask.iou``).

    .. math::

        \\mathrm{IoU}(d, g) = \\frac{|d \\cap g|}{|d \\cup g|}, \\qquad
        \\mathrm{IoU}_{\\text{crowd}}(d, g) = \\frac{|d \\cap g|}{|d|}

    A crowd region covers many objects, so a detection inside it is judged by how much of the
    *detection* it covers, not by the union.

    Parameters
    ----------
    dt, gt : list of dict
        RLEs (compressed or uncompressed counts).
    iscrowd : sequence of 0/1 or bool, length ``len(gt)``, optional
        Which ground-truth masks are crowd regions (default: none).

    Returns
    -------
    ndarray of float64, shape (len(dt), len(gt))
        0 where the masks do not overlap, -1 for a pair of different image sizes (pycocotools'
        convention).  Counts with a run of length 0 after the first are read as the pixels they
        encode; pycocotools' ``rleIou`` can then differ (0 for such a mask with itself).

    Examples
    --------
    >>> d = [{"size": [1, 4], "counts": [0, 2, 2]}]
    >>> g = [{"size": [1, 4], "counts": [1, 2, 1]}]
    >>> iou(d, g, [0]).tolist(), iou(d, g, [1]).tolist()
    ([[0.3333333333333333]], [[0.5]])
    """
    d, _ = as_rle_set([dt] if isinstance(dt, dict) else dt, "dt")
    g, _ = as_rle_set([gt] if isinstance(gt, dict) else gt, "gt")
    crowd = check_iscrowd(iscrowd, len(g), "iscrowd")
    m, n = len(d), len(g)
    pair_dt = np.repeat(np.arange(m), n)
    pair_gt = np.tile(np.arange(n), m)
    return pair_iou(d, g, pair_dt, pair_gt, crowd).reshape(m, n)
