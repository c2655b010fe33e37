"""COCO run-length encoding (RLE) of instance masks, in NumPy, equal to ``pycocotools.mask``.

A binary mask of height *h* and width *w* is read in **column-major** order (down the first column,
then the next: pixel ``(y, x)`` is number ``x·h + y``) and stored as the lengths of its alternating
runs, starting with a run of zeros (of length 0 when the first pixel is set)::

    mask (h=3, w=2)   column-major pixels   runs            counts
    0 1               0 1 1 | 1 0 0         0 | 1 1 1 | 0 0  [1, 3, 2]
    1 0
    1 0

COCO then *compresses* the counts into a string: from the fourth count on, each count is replaced by
its difference from the count two places back, and every number is written as 5-bit groups
(least significant first), one ASCII character ``48 + group`` each, with the bit worth 32 set while
more groups follow and the bit worth 16 of the last group acting as the sign (a LEB128 variant, 6
bits per character).

The functions here take many objects at once and do not loop in Python over pixels or runs: a set
of RLEs is one flat array of run lengths with offsets; areas and boxes are cumulative sums over it, and
intersections are counted column by column on the runs cut at column boundaries.

* :func:`encode`, :func:`decode` — binary masks ↔ RLE dicts ``{"size": [h, w], "counts": b"..."}``.
* :func:`area`, :func:`to_bbox` — pixels set, and the tight ``[x, y, width, height]`` box.
* :func:`from_polygons` — polygons rasterised exactly as pycocotools' ``frPyObjects`` does.
* :func:`merge` — union (or intersection) of several masks as one RLE.
* :func:`iou` — IoU of every (detection, ground truth) pair; ``|d ∩ g| / |d|`` for crowd regions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

import numpy as np

from .._validation.masks import (
    bulk_polygons,
    bulk_rle_strings,
    check_binary_masks,
    check_decoded,
    check_image_size,
    check_iscrowd,
    check_polygons,
    check_rle_list,
)

__all__ = ["encode", "decode", "area", "to_bbox", "from_polygons", "merge", "iou"]

_POLY_SCALE = 5  # pycocotools rasterises polygons on a grid 5x finer than the pixels
COLUMNS_FROM = 4  # pairs per mask from which IoU is counted on column pieces (see pair_iou)


# --------------------------------------------------------------------------------------------
# A set of RLEs as flat arrays
# --------------------------------------------------------------------------------------------


@dataclass
class RleSet:
    """Many RLEs as one flat array: object *i* has runs ``counts[offsets[i]:offsets[i + 1]]``."""

    heights: np.ndarray  # (n,) int64
    widths: np.ndarray  # (n,) int64
    counts: np.ndarray  # flat int64 run lengths, zeros first
    offsets: np.ndarray  # (n + 1,) int64
    running: np.ndarray | None = field(default=None, repr=False)  # np.cumsum(counts), when already known

    def __len__(self) -> int:
        return self.heights.shape[0]

    @cached_property
    def run_object(self) -> np.ndarray:
        """The object each run belongs to."""
        return np.repeat(np.arange(len(self)), np.diff(self.offsets))

    @cached_property
    def run_is_one(self) -> np.ndarray:
        """Whether each run is a run of ones: odd position inside its object.  Built from bytes (the
        global index's parity, flipped in objects that start at an odd index), not from int64
        positions, which would cost several passes over every run."""
        parity = np.zeros(self.counts.shape[0], dtype=bool)
        parity[1::2] = True
        return parity ^ np.repeat((self.offsets[:-1] % 2).astype(bool), np.diff(self.offsets))

    @cached_property
    def run_ends(self) -> np.ndarray:
        """Each run's end as a pixel index inside its object (the cumulative count).

        One running sum over all objects, restarted at each object's first run by subtracting there
        what the objects before it add up to (h·w each: every RLE here covers its image exactly)."""
        steps = self.counts.copy()
        first = self.offsets[:-1]
        nonempty = first < self.offsets[1:]
        before = np.r_[0, np.cumsum(self.heights * self.widths)][:-1]  # pixels of the objects before
        starts, before = first[nonempty], before[nonempty]
        steps[starts[1:]] -= np.diff(before)  # each start: what the previous non-empty start added
        steps[starts[:1]] -= before[:1]
        return np.cumsum(steps, out=steps)

    @cached_property
    def ones(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every run of ones (zero-length ones included) as [start, end) on one pixel axis, mask after
        mask: mask i's pixel p is ``base_i + p`` with ``base_i`` the pixels of the masks before it.

        Every RLE covers h·w exactly, so the ends are one plain running sum of all counts, and a run
        of ones starts where the run of zeros before it (always in the same mask) ends.  Returns
        (start, end, offsets): mask i's runs of ones are ``offsets[i]:offsets[i + 1]``, one per
        (zeros, ones) pair of its runs."""
        start, end, offsets = self.ones_padded
        return start[:-1], end[1:], offsets

    @cached_property
    def ones_padded(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:attr:`ones` with one more slot: the starts end in the largest int64, the ends begin with 0
        (what searches over them need at either end)."""
        ends = np.cumsum(self.counts) if self.running is None else self.running
        offsets = _segment_starts(np.diff(self.offsets) // 2)
        # The runs of ones found from a mask of bytes (run_is_one; the first run of all is zeros):
        # each one, less one, is where the run before it ends, so where the run of ones starts.
        before_one = np.flatnonzero(self.run_is_one[1:])
        start = np.empty(offsets[-1] + 1, dtype=np.int64)
        end = np.empty(offsets[-1] + 1, dtype=np.int64)
        # mode="clip": the indices are in range, and numpy buffers a take into out= only with "raise"
        np.take(ends, before_one, out=start[:-1], mode="clip")
        np.take(ends[1:], before_one, out=end[1:], mode="clip")
        start[-1], end[0] = np.iinfo(np.int64).max, 0
        return start, end, offsets

    @cached_property
    def ones_before(self) -> np.ndarray:
        """Pixels set in all runs of ones before each one (length: runs of ones + 1)."""
        start, end, _ = self.ones
        return _segment_starts(end - start)

    @cached_property
    def areas(self) -> np.ndarray:
        """Pixels set in each mask: the sum of its runs of ones (the second, fourth, ... run)."""
        offsets = self.ones[2]
        return self.ones_before[offsets[1:]] - self.ones_before[offsets[:-1]]

    def to_dicts(self) -> list[dict]:
        strings = _counts_to_strings(self.counts, self.offsets)
        return [{"size": [int(h), int(w)], "counts": s}
                for h, w, s in zip(self.heights.tolist(), self.widths.tolist(), strings)]


def _segment_starts(lengths: np.ndarray) -> np.ndarray:
    """``[0, l0, l0 + l1, ...]`` as int64: where each segment of the given lengths starts (and the end)."""
    out = np.empty(np.shape(lengths)[0] + 1, dtype=np.int64)
    out[0] = 0
    np.cumsum(lengths, out=out[1:])
    return out


def _counts_to_strings(counts: np.ndarray, offsets: np.ndarray) -> list[bytes]:
    """pycocotools' ``rleToString`` for every object at once."""
    n_obj = offsets.shape[0] - 1
    if counts.shape[0] == 0:
        return [b""] * n_obj
    idx = np.arange(counts.shape[0])
    j = idx - np.repeat(offsets[:-1], np.diff(offsets))
    x = counts.astype(np.int64)
    delta = j > 2
    x[delta] -= counts[idx[delta] - 2]
    # Groups needed: the fewest n >= 1 such that x fits in 5n-bit two's complement.
    n_groups = np.ones(x.shape[0], dtype=np.int64)
    for n in range(1, 13):
        limit = np.int64(1) << (5 * n - 1)
        n_groups += (x >= limit) | (x < -limit)
    value = np.repeat(np.arange(x.shape[0]), n_groups)
    k = np.arange(value.shape[0]) - np.repeat(_segment_starts(n_groups)[:-1], n_groups)
    chars = (x[value] >> (5 * k)) & 0x1F
    chars |= np.where(k < n_groups[value] - 1, 0x20, 0)
    blob = (chars + 48).astype(np.uint8).tobytes()
    chars_per_obj = np.zeros(n_obj, dtype=np.int64)
    np.add.at(chars_per_obj, np.repeat(np.arange(n_obj), np.diff(offsets)), n_groups)
    bounds = _segment_starts(chars_per_obj).tolist()
    return [blob[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _strings_to_counts(blob: bytes, lengths: np.ndarray, where: Callable[[int], str]) -> tuple[np.ndarray, np.ndarray]:
    """pycocotools' ``rleFrString`` for every object at once: (flat counts, offsets).

    ``blob`` is every object's string joined, ``lengths`` their lengths; ``where(i)`` names object *i*
    in error messages.  The work is per character only to find where
    numbers end; the numbers themselves are assembled one 5-bit group at a time, per number."""
    char_bounds = _segment_starts(lengths)
    c = np.frombuffer(blob, dtype=np.uint8) - np.uint8(48)  # wraps below '0' to >= 208
    if c.shape[0] and c.max() > 63:
        bad = int(np.argmax(c > 63))
        i = int(np.searchsorted(char_bounds, bad, side="right")) - 1
        raise ValueError(f"{where(i)}['counts'] is not a COCO compressed RLE string (characters must lie "
                         "between '0' and 'o').")
    is_last = (c & 0x20) == 0  # the last group of each number
    nonempty = np.diff(char_bounds) > 0
    unfinished = nonempty & ~is_last[np.maximum(char_bounds[1:] - 1, 0)] if c.shape[0] else nonempty
    if unfinished.any():
        i = int(np.argmax(unfinished))
        raise ValueError(f"{where(i)}['counts'] ends in the middle of a number; the string is truncated.")
    # The last group (0..31) carries the sign in its bit 5 (16): as a signed 5-bit number it is
    # (v ^ 16) - 16, worked out in bytes before the one widening to int64.
    last = c[is_last]
    last ^= np.uint8(16)
    last = last.view(np.int8)
    last -= np.int8(16)
    x = last.astype(np.int64)
    # Continuation groups are few (most numbers are one character): the number that continuation
    # character p belongs to is p less the continuation characters before it.
    cont = np.flatnonzero(~is_last)
    n_cont_before = np.searchsorted(cont, char_bounds, side="left")
    if cont.shape[0]:
        number = cont - np.arange(cont.shape[0])
        first = np.flatnonzero(np.r_[True, number[1:] != number[:-1]])  # each multi-group number's first
        extra = np.diff(np.r_[first, cont.shape[0]])  # its groups before the last
        if extra.max() > 11:
            raise ValueError(f"{where(0)}: a run length is too large for an RLE.")
        k = np.arange(cont.shape[0]) - np.repeat(first, extra)
        low = (c[cont] & 0x1F).astype(np.int64) << (5 * k)
        multi = number[first]
        x[multi] = (x[multi] << (5 * extra)) + np.add.reduceat(low, first)
    offsets = (char_bounds - n_cont_before).astype(np.int64)  # numbers per object
    return _undo_delta(x, offsets), offsets


def _undo_delta(x: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``count_j = x_j + count_{j-2}`` for j > 2 (``rleFrString``'s delta rule), all objects at once
    (``x`` is used as scratch and overwritten).

    Every other number forms a chain, so the counts are running sums of ``x[0::2]`` and ``x[1::2]``
    that restart at each object's first three numbers (j = 0, 1, 2 are stored as they are).  A
    segmented running sum is one plain ``cumsum`` after subtracting, at each restart, the sum of the
    segment before it: three passes over the data instead of a pass per object index."""
    counts = x  # the running sums are written over x, chain by chain
    head = (offsets[:-1, None] + np.arange(3)).reshape(-1)
    head = head[head < np.repeat(offsets[1:], 3)]  # objects with fewer than three numbers
    for parity in (0, 1):
        chain = x[parity::2]  # a view: x is the caller's scratch array
        restarts = (head[head % 2 == parity] - parity) // 2  # increasing, and 0 is always one
        if chain.shape[0] == 0:
            continue
        sums = np.add.reduceat(chain, restarts)
        chain[restarts[1:]] -= sums[:-1]
        np.cumsum(chain, out=counts[parity::2])
    return counts


def as_rle_set(rles: Any, name: str = "rles") -> tuple[RleSet, bool]:
    """RLE dict(s) with compressed or uncompressed counts → :class:`RleSet` (checked)."""
    bulk = bulk_rle_strings(rles)
    if bulk is not None:  # all compressed strings (the COCO results format): no loop over objects
        blob, lengths, heights, widths = bulk
        where = lambda i: f"{name}[{i}]"  # noqa: E731
        flat, offsets = _strings_to_counts(blob, lengths, where)
        running = check_decoded(flat, offsets, heights, widths, where)
        return RleSet(heights, widths, flat, offsets, running), False
    counts, heights, widths, single = check_rle_list(rles, name)
    is_str = np.array([isinstance(c, bytes) for c in counts], dtype=bool)
    per_obj = [None] * len(counts)
    if is_str.any():
        idx = np.flatnonzero(is_str)
        where = (lambda i: name) if single else (lambda i: f"{name}[{idx[i]}]")
        strings = [counts[i] for i in idx]
        flat, offs = _strings_to_counts(b"".join(strings), np.fromiter(map(len, strings), np.int64, len(strings)),
                                        where)
        check_decoded(flat, offs, heights[idx], widths[idx], where)
        for n, i in enumerate(idx.tolist()):
            per_obj[i] = flat[offs[n]:offs[n + 1]]
    for i in np.flatnonzero(~is_str).tolist():
        per_obj[i] = counts[i]
    lengths = np.array([p.shape[0] for p in per_obj], dtype=np.int64)
    flat = np.concatenate(per_obj) if per_obj else np.zeros(0, np.int64)
    return RleSet(heights, widths, flat.astype(np.int64), _segment_starts(lengths)), single


# --------------------------------------------------------------------------------------------
# Masks <-> RLE
# --------------------------------------------------------------------------------------------


def _encode_array(masks: np.ndarray) -> RleSet:
    """(h, w, n) uint8 0/1 → RleSet, as ``rleEncode``: a run ends wherever the value changes."""
    h, w, n = masks.shape
    hw = h * w
    flat = masks.transpose(2, 1, 0).reshape(-1)  # object-major, column-major inside each object
    previous = np.empty_like(flat)
    previous[1:] = flat[:-1]
    if hw:
        previous[::hw] = 0  # every object starts in a run of zeros
    changes = np.flatnonzero(flat != previous)
    starts = np.arange(n, dtype=np.int64) * hw
    points = np.sort(np.r_[starts, changes])
    counts = np.diff(np.r_[points, n * hw])
    per_obj = np.diff(np.searchsorted(points, np.r_[starts, n * hw], side="left"))
    if hw == 0:
        per_obj = np.ones(n, dtype=np.int64)
    return RleSet(np.full(n, h, np.int64), np.full(n, w, np.int64), counts, _segment_starts(per_obj))


def encode(mask: Any) -> dict | list[dict]:
    """Run-length encode binary masks as COCO does (``pycocotools.mask.encode``).

    Parameters
    ----------
    mask : array-like of 0/1 or bool, shape (h, w) or (h, w, n)
        One mask, or *n* masks stacked on the last axis (pycocotools' layout).  Any memory order is
        accepted; pixels are always read column by column.

    Returns
    -------
    dict or list of dict
        ``{"size": [h, w], "counts": bytes}`` per mask, the counts compressed exactly as pycocotools
        writes them; one dict for a 2-D input, a list for a 3-D one.

    Examples
    --------
    >>> encode(np.array([[0, 1], [1, 0], [1, 0]]))
    {'size': [3, 2], 'counts': b'132'}
    """
    arr, single = check_binary_masks(mask, "mask")
    rles = _encode_array(arr[:, :, None] if single else arr).to_dicts()
    return rles[0] if single else rles


def decode(rles: Any) -> np.ndarray:
    """The binary masks of RLEs (``pycocotools.mask.decode``).

    Parameters
    ----------
    rles : dict or list of dict
        ``{"size": [h, w], "counts": ...}``; counts a compressed string (``bytes`` or ``str``) or a
        list of run lengths.  All masks of a list must share one size.

    Returns
    -------
    ndarray of uint8
        Shape (h, w) for one dict, (h, w, n) for a list, Fortran-ordered like pycocotools'.

    Examples
    --------
    >>> decode({"size": [3, 2], "counts": [1, 3, 2]}).tolist()
    [[0, 1], [1, 0], [1, 0]]
    """
    r, single = as_rle_set(rles, "rles")
    if len(r) and ((r.heights != r.heights[0]) | (r.widths != r.widths[0])).any():
        raise ValueError("rles must all have the same size to be decoded into one (h, w, n) array; got "
                         f"sizes {sorted({(int(a), int(b)) for a, b in zip(r.heights, r.widths)})}.")
    h, w = (int(r.heights[0]), int(r.widths[0])) if len(r) else (0, 0)
    values = r.run_is_one.view(np.uint8)
    flat = np.repeat(values, r.counts)
    out = flat.reshape(len(r), w, h).transpose(2, 1, 0)  # (h, w, n), Fortran order
    return out[:, :, 0] if single else out


def _area(r: RleSet) -> np.ndarray:
    return r.areas


def area(rles: Any) -> int | np.ndarray:
    """Pixels set in each mask (``pycocotools.mask.area``): the sum of the runs of ones.

    The runs of ones are the counts :math:`c_j` at odd positions *j*, counting from 0 (the second,
    fourth, ... count):

    .. math:: |M| = \\sum_{j\\ \\text{odd}} c_j

    Returns an int for one dict, an int64 array for a list.

    Examples
    --------
    >>> area({"size": [3, 2], "counts": [1, 3, 2]})
    3
    """
    r, single = as_rle_set(rles, "rles")
    a = _area(r)
    return int(a[0]) if single else a


def _bbox(r: RleSet) -> np.ndarray:
    """(n, 4) boxes as ``rleToBbox``: the first and the last pixel of each run of ones of length > 0
    (pycocotools 2.0.8+ skips empty ones); a run of ones that spans columns widens the box to the full
    image height.  A mask with runs of ones, all of length 0, gets pycocotools' wrapped unsigned
    ``[w, h, 1 - w, 1 - h]``; one without any run of ones gets zeros."""
    n = len(r)
    out = np.zeros((n, 4))
    start, end, offsets = r.ones
    per_obj = np.diff(offsets)
    nonzero = end > start
    if not nonzero.all():
        nonempty = np.repeat(np.arange(n), per_obj)[nonzero]
        start, end = start[nonzero], end[nonzero]
        wrapped = (per_obj > 0) & (np.bincount(nonempty, minlength=n) == 0)
        per_obj = np.bincount(nonempty, minlength=n)
        offsets = _segment_starts(per_obj)
        w, h = r.widths[wrapped], r.heights[wrapped]
        out[wrapped] = np.stack([w, h, (1 - w) % 2**32, (1 - h) % 2**32], axis=1)
    has = np.flatnonzero(per_obj > 0)
    if has.shape[0] == 0:
        return out
    heights, widths = r.heights[has], r.widths[has]
    base = _segment_starts(r.heights * r.widths)[has]
    t0, t1 = start, end - 1
    if (r.heights == r.heights[0]).all() and (r.widths == r.widths[0]).all():
        # One image size (the usual case): mask i starts at pixel i·h·w of the common axis, a multiple
        # of h, so a scalar division gives the row and the column, less i·w per mask afterwards.
        h = max(int(r.heights[0]), 1)
        col_shift = base // h
    else:
        local = np.repeat(base, per_obj[has])
        t0, t1 = t0 - local, t1 - local
        h = np.repeat(np.maximum(heights, 1), per_obj[has])
        col_shift = 0
    x0, y0 = np.divmod(t0, h)
    x1, y1 = np.divmod(t1, h)
    seg = offsets[has]
    xs = np.minimum(np.minimum.reduceat(np.minimum(x0, x1), seg) - col_shift, widths)
    xe = np.maximum.reduceat(np.maximum(x0, x1), seg) - col_shift
    ys = np.minimum(np.minimum.reduceat(np.minimum(y0, y1), seg), heights)
    ye = np.maximum.reduceat(np.maximum(y0, y1), seg)
    spans = np.maximum.reduceat((x0 < x1).astype(np.int8), seg).astype(bool)
    ys = np.where(spans, 0, ys)
    ye = np.where(spans, heights - 1, ye)
    out[has] = np.stack([xs, ys, xe - xs + 1, ye - ys + 1], axis=1)
    return out


def to_bbox(rles: Any) -> np.ndarray:
    """The tight box ``[x, y, width, height]`` of each mask (``pycocotools.mask.toBbox``).

    An empty mask gets ``[0, 0, 0, 0]``.  Returns shape (4,) for one dict, (n, 4) for a list.

    Examples
    --------
    >>> to_bbox({"size": [3, 2], "counts": [1, 3, 2]}).tolist()
    [0.0, 0.0, 2.0, 3.0]
    """
    r, single = as_rle_set(rles, "rles")
    b = _bbox(r)
    return b[0] if single else b


# --------------------------------------------------------------------------------------------
# Polygons
# --------------------------------------------------------------------------------------------


def _toggles_to_rles(key: np.ndarray, stride: int, n: int, heights: np.ndarray,
                     widths: np.ndarray) -> RleSet:
    """:func:`_toggles_to_rle_set` for toggles given as ``owner · stride + pixel``."""
    owner, pix = np.divmod(key, stride)
    return _toggles_to_rle_set(owner, pix, n, heights, widths)


def _toggles_to_rle_set(owner: np.ndarray, pix: np.ndarray, n: int, heights: np.ndarray,
                        widths: np.ndarray) -> RleSet:
    """Pixels where the value toggles (any order, repeats allowed) → RLEs.

    Object ``owner[i]`` toggles at its pixel ``pix[i]``.  A pixel toggled an even number of times does
    not toggle, and toggles at or past h·w are dropped — exactly what ``rleFrPoly``'s final merge loop
    does to repeated boundary points.  The toggles are sorted on one axis for all objects (object i's
    pixel p at ``base_i + p``, ``base_i`` the pixels of the objects before it), where the run ends of
    every object follow one another: the counts are their plain differences.
    """
    heights, widths = heights.astype(np.int64), widths.astype(np.int64)
    hw = heights * widths
    base = _segment_starts(hw)
    if n and (hw == hw[0]).all():  # one image size: base is owner·h·w, no gather per toggle
        keep = pix < hw[0]
        key = owner * hw[0]
    else:
        keep = pix < hw[owner]
        key = base[owner]
    key += pix
    if not keep.all():
        key = key[keep]
    key.sort()
    same = key[1:] == key[:-1]
    if same.any():
        # A run of L equal toggles cancels in pairs: drop all of it, but keep its first when L is odd.
        # dup lists each i with key[i] == key[i + 1]; a run of L is L - 1 consecutive entries there.
        dup = np.flatnonzero(same)
        drop = np.zeros(key.shape[0], dtype=bool)
        drop[dup] = True
        drop[dup + 1] = True
        run = np.flatnonzero(np.r_[True, dup[1:] != dup[:-1] + 1])  # each run's first entry in dup
        odd = np.diff(np.r_[run, dup.shape[0]]) % 2 == 0  # L - 1 even: L odd
        drop[dup[run[odd]]] = False
        key = key[~drop]
    # Each object's runs end at its toggles and, last, at its h·w (the next object's base).
    at = np.searchsorted(key, base)
    ends = np.insert(key, at[1:], base[1:])
    counts = np.empty_like(ends)
    counts[:1] = ends[:1]
    np.subtract(ends[1:], ends[:-1], out=counts[1:])
    return RleSet(heights, widths, counts, _segment_starts(np.diff(at) + 1))


def _first_in_class(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fine columns c in [lo, hi] with c ≡ 2 (mod 5) — the centres of pixel columns: (first, count)."""
    first = lo + (2 - lo) % _POLY_SCALE
    return first, np.maximum((hi - first) // _POLY_SCALE + 1, 0)


def _pixel_columns(edges: np.ndarray, first: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each edge's n pixel columns from its first centre ``first`` (fine units): (edge, column) pairs."""
    e = np.repeat(edges, n)
    col = np.repeat((first - 2) // _POLY_SCALE - _segment_starts(n)[:-1], n)
    col += np.arange(e.shape[0])
    return e, col


def _polygon_toggles(coords: np.ndarray, k: np.ndarray, heights: np.ndarray,
                     widths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The boundary points of ``rleFrPoly`` for all polygons: (polygon, pixel index) pairs.

    pycocotools scales the vertices by 5, rounds them, and walks each edge one fine step at a time
    along its longer axis, rounding the other coordinate.  A pair of consecutive points whose fine x
    are c and c + 1 with c ≡ 2 (mod 5) (a pixel column's centre) toggles pixel
    ``(x = (c - 2) / 5, y = ceil((min(v) + .5) / 5 - .5))``; no other pair does.  The x coordinate moves
    by at most one per step, so each such column is crossed exactly once per edge that spans it.
    Only those crossings are computed here — about one point in five of the walk (edges along x) or
    one per pixel column (edges along y) — with the walk's own arithmetic, so they are the same.
    """
    if k.shape[0] == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    xy = coords.reshape(-1, 2)
    fine = np.trunc(_POLY_SCALE * xy + 0.5).astype(np.int64)  # C's (int)(5x + .5) truncates
    poly = np.repeat(np.arange(k.shape[0]), k)
    first = _segment_starts(k)[:-1]
    nxt = np.arange(xy.shape[0]) + 1
    nxt[np.r_[first[1:], xy.shape[0]] - 1] = first
    xs0, ys0 = fine[:, 0], fine[:, 1]
    xe0, ye0 = fine[nxt, 0], fine[nxt, 1]
    dx, dy = np.abs(xe0 - xs0), np.abs(ys0 - ye0)
    along_x = dx >= dy
    flip = (along_x & (xs0 > xe0)) | (~along_x & (ys0 > ye0))
    xs, xe = np.where(flip, xe0, xs0), np.where(flip, xs0, xe0)
    ys, ye = np.where(flip, ye0, ys0), np.where(flip, ys0, ye0)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(along_x, (ye - ys) / dx, (xe - xs) / dy)
    s = np.where(np.isfinite(s), s, 0.0)  # a repeated vertex: one point, no crossing
    max_c = _POLY_SCALE * (widths[poly] - 1) + 2  # the last pixel column's centre

    # Edges along x: the point t has u = xs + t, v = (int)(ys + s·t + .5); the pair (t, t + 1) crosses
    # column c = xs + t.
    ex = np.flatnonzero(along_x & (dx > 0))
    cx, nx = _first_in_class(np.maximum(xs[ex], 2), np.minimum(xs[ex] + dx[ex] - 1, max_c[ex]))

    # Edges along y: u(t) = (int)(xs + s·t + .5) is monotone and moves by at most 1 per step; find the
    # step t where it passes between c and c + 1 (estimate, then check the neighbours exactly); v = ys + t.
    ey = np.flatnonzero(~along_x)
    ut = lambda e_, t_: np.trunc(xs[e_] + s[e_] * t_ + 0.5)  # noqa: E731 - the walk's own formula
    u0, u1 = ut(ey, np.zeros(ey.shape[0])), ut(ey, dy[ey].astype(np.float64))
    lo, hi = np.minimum(u0, u1).astype(np.int64), np.maximum(u0, u1).astype(np.int64)
    cy, ny = _first_in_class(np.maximum(lo, 2), np.minimum(hi - 1, max_c[ey]))

    # The crossings of both kinds in one set of arrays (those along x first), each part worked on in
    # place: no concatenation of per-crossing arrays.
    edges, n_cross = np.r_[ex, ey], np.r_[nx, ny]
    e, col = _pixel_columns(edges, np.r_[cx, cy], n_cross)
    split = int(nx.sum())
    v = np.empty(e.shape[0])

    e_x = e[:split]
    t = _POLY_SCALE * col[:split] + 2
    t -= xs[e_x]  # c - xs
    ys_e, s_e = ys[e_x], s[e_x]  # gathered once: every crossing reads its edge's start and slope twice
    v1 = s_e * t
    v1 += ys_e  # ys + s·t + .5, then truncated (the sum commutes exactly)
    v1 += 0.5
    np.trunc(v1, out=v1)
    t += 1
    v2 = np.multiply(s_e, t, out=s_e)
    v2 += ys_e
    v2 += 0.5
    np.trunc(v2, out=v2)
    np.minimum(v1, v2, out=v[:split])

    e_y = e[split:]
    c = _POLY_SCALE * col[split:] + 2
    xs_e, s_e = xs[e_y], s[e_y]  # gathered once for the four evaluations below
    guess = np.floor((c + 0.5 - xs_e) / s_e) if e_y.shape[0] else np.zeros(0)
    # u(t) is monotone in t (for every real t, not only the walk's), so "u(t) <= c" keeps the side it
    # has at t = 0 up to the transition T and flips after it: T = guess - 2 + the number of
    # t in guess - 1 ... guess + 2 still on t = 0's side, for any T within two of the guess; clipped
    # to the walk's steps [0, dy - 1] as the candidates of a search there would be.
    at_start = np.repeat(u0, ny) <= c
    same_side = np.zeros(e_y.shape[0], dtype=np.int64)
    t = guess - 2
    u = np.empty_like(t)
    for _ in range(4):
        t += 1
        np.multiply(s_e, t, out=u)
        u += xs_e  # xs + s·t + .5, then truncated: the walk's own formula (the sum commutes exactly)
        u += 0.5
        np.trunc(u, out=u)
        same_side += (u <= c) == at_start
    guess -= 2
    guess += same_side
    found = np.clip(guess, 0, np.repeat(dy[ey] - 1, ny), out=guess)
    np.add(ys[e_y], found, out=v[split:])

    owner = np.repeat(poly[edges], n_cross)
    # one image size (the usual case): a scalar height instead of one per crossing
    height = heights[0] if (heights == heights[0]).all() else heights[owner]
    v += 0.5  # the row: ceil(clip((v + .5) / 5 - .5, 0, h)), in place
    v /= _POLY_SCALE
    v -= 0.5
    np.clip(v, 0, height, out=v)
    np.ceil(v, out=v)
    col *= height
    col += v.astype(np.int64)
    return owner, col


def polygons_to_rle_set(coords: np.ndarray, n_points: np.ndarray, heights: Any, widths: Any) -> RleSet:
    """Checked polygons → one RLE each, as pycocotools' ``frPoly``: ``coords`` holds every polygon's
    x, y pairs one after the other, ``n_points`` their numbers of points; the image size is one
    (height, width) or one per polygon."""
    n = n_points.shape[0]
    heights = np.broadcast_to(np.asarray(heights, dtype=np.int64), (n,))
    widths = np.broadcast_to(np.asarray(widths, dtype=np.int64), (n,))
    owner, pix = _polygon_toggles(coords, n_points, heights, widths)
    return _toggles_to_rle_set(owner, pix, n, heights, widths)


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
    gather = np.arange(offsets[-1]) - np.repeat(offsets[:-1], n_runs) + np.repeat(starts[pick], n_runs)
    return RleSet(heights[pick], widths[pick], counts[gather], offsets)


def _flatten_polygons(polys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Checked polygons (flat arrays) → (all coordinates, points per polygon)."""
    n_points = np.fromiter((p.shape[0] // 2 for p in polys), dtype=np.int64, count=len(polys))
    return (np.concatenate(polys) if polys else np.zeros(0)), n_points


def _check_rle_sizes(rles: RleSet, obj: np.ndarray, heights: np.ndarray, widths: np.ndarray,
                     where: Callable[[int], str]) -> None:
    """Each RLE's ``size`` is its image's (where the image gives one); ``obj[j]`` is RLE j's record."""
    wrong = (heights[obj] >= 0) & ((rles.heights != heights[obj]) | (rles.widths != widths[obj]))
    if wrong.any():
        j = int(np.argmax(wrong))
        i = int(obj[j])
        raise ValueError(f"{where(i)}['segmentation'] has size {[int(rles.heights[j]), int(rles.widths[j])]!r}, but "
                         f"its image is {[int(heights[i]), int(widths[i])]} (height, width).")


def segmentations_to_rle_set(segms: tuple, heights: np.ndarray, widths: np.ndarray,
                             where: Callable[[int], str]) -> RleSet:
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
            raise TypeError(f"{where(i)}['segmentation'] must be a list of polygons or an RLE dict; got "
                            f"{type(seg).__name__}.")
        if heights[i] < 0:
            raise ValueError(f"{where(i)}['segmentation'] is a list of polygons, but its image has no 'height' and "
                             "'width' to rasterise them at.")
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
    _check_rle_sizes(rles, rle_obj_a, heights, widths, where)
    if not poly_obj:  # every field an RLE (COCO results): already in record order, nothing to gather
        return rles
    poly_obj_a = np.array(poly_obj, dtype=np.int64)
    bulk = bulk_polygons(polys)
    if bulk is None:  # something unusual: check object by object, to name the one at fault
        checked = [p for i in dict.fromkeys(poly_obj) for p in check_polygons(segms[i], f"{where(i)}['segmentation']")]
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
    merged = combine(_concat_take([parts], np.zeros(group.shape[0], np.int64), np.flatnonzero(in_several)),
                     group, multi.shape[0], heights[multi], widths[multi])
    which = np.zeros(len(segms), dtype=np.int64)
    index = np.zeros(len(segms), dtype=np.int64)
    index[rle_obj_a] = np.arange(rle_obj_a.shape[0])
    which[owners[~several]], index[owners[~several]] = 1, first_part[~several]
    which[multi], index[multi] = 2, np.arange(multi.shape[0])
    return _concat_take([rles, parts, merged], which, index)


def from_polygons(polygons: Any, height: int, width: int) -> list[dict]:
    """Rasterise polygons into RLEs exactly as ``pycocotools.mask.frPyObjects`` does.

    pycocotools' rule (``rleFrPoly``): the vertices are scaled by 5 and rounded to that fine grid,
    each edge is walked one fine step at a time, and a pixel ``(x, y)`` is inside when it lies below
    an odd number of edge crossings of its column centre.  In practice a pixel is set when its
    centre is inside the polygon, give or take the rounding to fifths of a pixel.

    Parameters
    ----------
    polygons : list of list of float
        Each polygon ``[x1, y1, x2, y2, ...]`` in pixel coordinates, at least 3 points.
    height, width : int
        The image size.

    Returns
    -------
    list of dict
        One RLE per polygon (compressed counts), as ``frPyObjects`` returns; :func:`merge` joins
        the parts of one object, as pycocotools' ``annToRLE`` does.

    Raises
    ------
    ValueError
        A polygon with fewer than 3 points or an odd number of coordinates (pycocotools reads 4
        numbers as a box and fails on fewer), NaN or inf coordinates.

    Examples
    --------
    >>> rle = from_polygons([[0, 0, 4, 0, 4, 4, 0, 4]], 6, 6)[0]
    >>> area(rle), to_bbox(rle).tolist()
    (16, [0.0, 0.0, 4.0, 4.0])
    """
    h, w = check_image_size(height, width)
    coords, n_points = _flatten_polygons(check_polygons(polygons, "polygons"))
    return polygons_to_rle_set(coords, n_points, h, w).to_dicts()


# --------------------------------------------------------------------------------------------
# Intervals: merge and IoU
# --------------------------------------------------------------------------------------------


def _intervals(r: RleSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of ones as [start, end) pixel intervals: (object, start, end), non-empty only."""
    ends = r.run_ends
    on = r.run_is_one & (r.counts > 0)
    return r.run_object[on], (ends - r.counts)[on], ends[on]


def combine(r: RleSet, group: np.ndarray, n_groups: int, heights: np.ndarray, widths: np.ndarray,
            intersect: bool = False) -> RleSet:
    """Union (or intersection) of the masks of each group → one RLE per group, like ``rleMerge``."""
    obj, start, end = _intervals(r)
    g = group[obj]
    members = np.bincount(group, minlength=n_groups)
    stride = int((heights * widths).max()) + 1 if n_groups else 1
    # Coverage changes: +1 where an interval starts, -1 where it ends.
    key = np.r_[g * stride + start, g * stride + end]
    step = np.r_[np.ones(start.shape[0], np.int64), -np.ones(end.shape[0], np.int64)]
    order = np.argsort(key, kind="stable")
    key, step = key[order], step[order]
    uniq, first = np.unique(key, return_index=True)
    delta = np.add.reduceat(step, first) if first.shape[0] else np.zeros(0, np.int64)
    ug = uniq // stride
    level = np.cumsum(delta)  # coverage just after each point (it returns to 0 at each group's end)
    need = members[ug] if intersect else np.ones_like(ug)
    inside = level >= need
    before = np.r_[False, inside[:-1]]
    before[np.r_[True, ug[1:] != ug[:-1]] if ug.shape[0] else np.zeros(0, bool)] = False
    toggle = inside != before
    return _toggles_to_rles(uniq[toggle], stride, n_groups, heights, widths)


def merge(rles: Any, intersect: bool = False) -> dict:
    """The union (or, with ``intersect=True``, the intersection) of masks as one RLE
    (``pycocotools.mask.merge``).  A single RLE is returned unchanged, as pycocotools does.

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
        raise ValueError("rles must all have the same size to be merged; got sizes "
                         f"{sorted({(int(a), int(b)) for a, b in zip(r.heights, r.widths)})}.")
    if len(r) == 1:
        return r.to_dicts()[0]
    out = combine(r, np.zeros(len(r), np.int64), 1, r.heights[:1], r.widths[:1], bool(intersect))
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
    half, whole = (np.int16, np.int32) if n_obj == 0 or int(r.heights.max()) < 2**15 else (np.int32, np.int64)
    packed = []
    for k in (0, 1):
        rows = np.zeros((col_offset[-1], 2), dtype=half)
        has_k = np.flatnonzero(n > k)
        rows[has_k, 0], rows[has_k, 1] = py0[piece_start[has_k] + k], py1[piece_start[has_k] + k]
        packed.append(rows.view(whole).reshape(-1))
    return ColumnRuns(first_col, n_cols, col_offset, n, packed[0], packed[1], np.flatnonzero(n > 1), piece_start,
                      py0, py1)


def _piece_overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rows shared by two packed pieces (y0, y1 as two int16 in an int32, or two int32 in an int64
    for images of 2**15 rows or more): ``max(0, min(y1) - max(y0))``; an absent piece (0, 0)
    shares none."""
    half = np.int16 if a.dtype == np.int32 else np.int32  # see column_runs
    a, b = a.view(half).reshape(-1, 2), b.view(half).reshape(-1, 2)
    out = np.minimum(a[:, 1], b[:, 1])
    out -= np.maximum(a[:, 0], b[:, 0])
    return np.maximum(out, 0, out=out)


def _in_ranges(sorted_values: np.ndarray, lo: np.ndarray, width: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The values in [lo_i, lo_i + width_i) for every i: (i, value), by i then value."""
    a = np.searchsorted(sorted_values, lo)
    count = np.searchsorted(sorted_values, lo + width) - a
    which = np.repeat(np.arange(lo.shape[0]), count)
    return which, sorted_values[np.arange(which.shape[0]) + np.repeat(a - _segment_starts(count)[:-1], count)]


def _pair_intersections(d: ColumnRuns, g: ColumnRuns, pd: np.ndarray, pg: np.ndarray) -> np.ndarray:
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
    d_first = d.col_offset[pd[has]] + lo[has] - d.first_col[pd[has]]  # first shared column, dense index
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
    if several.shape[0]:  # pieces are disjoint inside a column: the overlap is the sum over piece pairs
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
        per_col[several] = np.bincount(entry, weights=overlap, minlength=several.shape[0]).astype(np.int32)
    inter[has] = np.add.reduceat(per_col, seg[:-1], dtype=np.int64)
    return inter


def _pair_intersections_by_search(dt: RleSet, gt: RleSet, pd: np.ndarray, pg: np.ndarray) -> np.ndarray:
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
    order = np.lexsort((pg, pd))
    inter = np.empty(pd.shape[0], dtype=np.int64)
    inter[order] = _count_common(dt, gt, pd[order], pg[order])
    return inter


def _search_on(padded: np.ndarray, keys: np.ndarray, start: np.ndarray, steps: int = 3) -> np.ndarray:
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
    # F(p) = (ones of the runs that start at or before p) - (what the last of them has at or after p):
    # with j of a's runs starting at or before p, F(p) = before[j] - max(0, end[j - 1] - p).
    before = a.ones_before
    start_padded, end_before, _ = a.ones_padded
    a_base = _segment_starts(a.heights * a.widths)
    b_base = _segment_starts(b.heights * b.widths)
    # Only b's runs inside a's span [first one, last one) can meet it.
    span_lo = a_start[np.minimum(a_first[pa], a_start.shape[0] - 1)]
    span_hi = a_end[np.maximum(a_first[pa + 1] - 1, 0)]
    shift = a_base[pa] - b_base[pb]  # b's axis → a's (same image size)
    r0 = np.searchsorted(b_end, span_lo - shift, side="right")
    r1 = np.searchsorted(b_start, span_hi - shift, side="left")
    n_runs = np.where(a_first[pa + 1] > a_first[pa], np.maximum(r1 - r0, 0), 0)  # an empty mask meets none
    has = np.flatnonzero(n_runs)
    inter = np.zeros(pa.shape[0], dtype=np.int64)
    if has.shape[0]:
        seg = _segment_starts(n_runs[has])
        # (big arrays are worked on in place: each fresh one costs its page faults; takes into out=
        # use mode="clip", unbuffered, as the indices are in range)
        run = np.repeat(r0[has] - seg[:-1], n_runs[has])
        run += np.arange(seg[-1])
        run_shift = np.repeat(shift[has], n_runs[has])
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
        inter[has] = np.add.reduceat(per_run, seg[:-1])
    return inter


def pair_iou(dt: RleSet, gt: RleSet, pair_dt: np.ndarray, pair_gt: np.ndarray,
             gt_crowd: np.ndarray, dt_box: np.ndarray | None = None,
             gt_box: np.ndarray | None = None, dt_cols: ColumnRuns | None = None,
             gt_cols: ColumnRuns | None = None, same_sizes: bool = False) -> np.ndarray:
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
        same = (dt.heights[pair_dt] == gt.heights[pair_gt]) & (dt.widths[pair_dt] == gt.widths[pair_gt])
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
        convention).

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
