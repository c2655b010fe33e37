"""A set of COCO RLEs as flat arrays, and the string codec: encode, decode, area, box.

COCO's RLE format and its compressed strings are described in :mod:`mltutor.detection.mask`.
Here a set of many RLEs is one flat array of run lengths with offsets, so that areas and boxes are
cumulative sums and the string codec runs over all masks at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..._validation.masks import (
    bulk_rle_strings,
    check_binary_masks,
    check_decoded,
    check_rle_list,
)

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
    running: np.ndarray | None = field(
        default=None, repr=False
    )  # np.cumsum(counts), when already known

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
        before = np.r_[0, np.cumsum(self.heights * self.widths)][
            :-1
        ]  # pixels of the objects before
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
        return [
            {"size": [int(h), int(w)], "counts": s}
            for h, w, s in zip(self.heights.tolist(), self.widths.tolist(), strings)
        ]


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
    # Each count from the fourth of its object on is written as its difference from the count two
    # places before it: one subtraction over all counts, then the first three of each object put back.
    x = counts.astype(np.int64)
    x[2:] -= counts[:-2]
    head = (offsets[:-1, None] + np.arange(3)).reshape(-1)
    head = head[head < np.repeat(offsets[1:], 3)]
    x[head] = counts[head]
    # 5-bit groups needed: the fewest n >= 1 with x in 5n-bit two's complement, i.e. n = ceil((b + 1)
    # / 5) for the bit length b of x (of ~x when negative), read from the float exponent (exact
    # below 2**52; larger numbers are counted by comparisons).
    magnitude = x ^ (x >> 63)
    if magnitude.max() < 2**52:
        n_groups = np.frexp(magnitude.astype(np.float64))[1].astype(np.int64)
        n_groups += 5
        n_groups //= 5
    else:
        n_groups = np.ones(x.shape[0], dtype=np.int64)
        for n in range(1, 13):
            limit = np.int64(1) << (5 * n - 1)
            n_groups += (x >= limit) | (x < -limit)
    starts = _segment_starts(n_groups)
    value = np.repeat(np.arange(x.shape[0]), n_groups)
    k = np.arange(starts[-1]) - np.repeat(starts[:-1], n_groups)
    chars = (x[value] >> (5 * k)) & 0x1F
    chars |= np.where(k < n_groups[value] - 1, 0x20, 0)  # "more groups follow"
    blob = (chars + 48).astype(np.uint8).tobytes()
    bounds = starts[offsets].tolist()  # each object's first character, and the end
    return [blob[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def _strings_to_counts(
    blob: bytes, lengths: np.ndarray, where: Callable[[int], str]
) -> tuple[np.ndarray, np.ndarray]:
    """pycocotools' ``rleFrString`` for every object at once: (flat counts, offsets).

    ``blob`` is every object's string joined, ``lengths`` their lengths; ``where(i)`` names object *i*
    in error messages.  The work is per character only to find where
    numbers end; the numbers themselves are assembled one 5-bit group at a time, per number."""
    char_bounds = _segment_starts(lengths)
    c = np.frombuffer(blob, dtype=np.uint8) - np.uint8(48)  # wraps below '0' to >= 208
    if c.shape[0] and c.max() > 63:
        bad = int(np.argmax(c > 63))
        i = int(np.searchsorted(char_bounds, bad, side="right")) - 1
        raise ValueError(
            f"{where(i)}['counts'] is not a COCO compressed RLE string (characters must lie "
            "between '0' and 'o')."
        )
    is_last = (c & 0x20) == 0  # the last group of each number
    nonempty = lengths > 0
    unfinished = nonempty & ~is_last[np.maximum(char_bounds[1:] - 1, 0)] if c.shape[0] else nonempty
    if unfinished.any():
        i = int(np.argmax(unfinished))
        raise ValueError(
            f"{where(i)}['counts'] ends in the middle of a number; the string is truncated."
        )
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
        new_number = np.empty(cont.shape[0], dtype=bool)
        new_number[0] = True
        np.not_equal(number[1:], number[:-1], out=new_number[1:])
        first = np.flatnonzero(new_number)  # each multi-group number's first
        extra = np.diff(first, append=cont.shape[0])  # its groups before the last
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
        flat, offs = _strings_to_counts(
            b"".join(strings), np.fromiter(map(len, strings), np.int64, len(strings)), where
        )
        check_decoded(flat, offs, heights[idx], widths[idx], where)
        for n, i in enumerate(idx.tolist()):
            per_obj[i] = flat[offs[n] : offs[n + 1]]
    for i in np.flatnonzero(~is_str).tolist():
        per_obj[i] = counts[i]
    lengths = np.array([p.shape[0] for p in per_obj], dtype=np.int64)
    flat = np.concatenate(per_obj) if per_obj else np.zeros(0, np.int64)
    return RleSet(heights, widths, flat.astype(np.int64), _segment_starts(lengths)), single


# --------------------------------------------------------------------------------------------
# Masks <-> RLE
# --------------------------------------------------------------------------------------------


def _value_changes(flat: np.ndarray) -> np.ndarray:
    """The positions p where ``flat[p] != flat[p + 1]`` (increasing), for a contiguous flat uint8
    array.

    Masks are mostly zeros, so the bytes are read eight at a time as 64-bit words: only the nonzero
    words can hold a change, or end at one (a change between a zero word and the nonzero word after
    it is that word's first byte).  Inside a nonzero word, each byte is compared with the next byte
    by one shift; the word after it is either the next nonzero word or zero.  One pass over all
    pixels (``!= 0``) instead of a byte-by-byte comparison and a search of its result."""
    n = flat.shape[0]
    whole = n // 8 * 8
    words = flat[:whole].view("<u8")  # little-endian: byte j of a word is its bits 8j..8j+7
    nz = np.flatnonzero(words != 0)
    word = words[nz]
    follows = nz[1:] == nz[:-1] + 1  # the next word is nonzero: it is the next entry
    after = np.zeros_like(word)
    after[:-1] = np.where(follows, word[1:], 0)
    diff = word >> np.uint64(8)
    diff |= after << np.uint64(56)
    diff ^= word  # byte j: pixel 8i + j differs from the pixel after it
    changed = np.flatnonzero(diff != 0)
    byte = np.flatnonzero(diff[changed].view(np.uint8).reshape(-1, 8))
    inside = nz[changed][byte >> 3] * 8 + (byte & 7)
    opens = np.r_[nz[:1] > 0, ~follows] & ((word & np.uint64(0xFF)) != 0)  # a zero word before
    out = np.sort(np.r_[nz[opens] * 8 - 1, inside], kind="stable")  # two sorted runs: merged
    # The last word was compared with zero after it: redo that position and the bytes past the words.
    out = out[out < whole - 1]
    if whole < n or whole == 0:
        lo = max(whole - 1, 0)
        out = np.r_[out, lo + np.flatnonzero(flat[lo + 1 :] != flat[lo:-1])]
    return out


def _encode_array(masks: np.ndarray) -> RleSet:
    """(h, w, n) uint8 0/1 → RleSet, as ``rleEncode``: a run ends wherever the value changes."""
    h, w, n = masks.shape
    hw = h * w
    # Object-major, column-major inside each object; contiguous, as _value_changes reads it in words
    # (reshape can return a strided view, e.g. of a slice with a side of 1).
    flat = np.ascontiguousarray(masks.transpose(2, 1, 0).reshape(-1))
    starts = np.arange(n, dtype=np.int64) * hw
    if flat.shape[0]:
        changes = _value_changes(flat)
        # Every object starts in a run of zeros, whatever ends the one before it: at each object's
        # start s, a run ends if and only if its first pixel is set (a run of zeros of length 0).
        boundary = starts[1:] - 1
        at = np.searchsorted(changes, boundary)
        found = np.r_[changes, -1][at] == boundary
        kept = np.ones(changes.shape[0], dtype=bool)
        kept[at[found]] = False
        # (two sorted runs, sorted with the starts below)
        changes = np.r_[changes[kept], boundary[flat[starts[1:]] != 0]]
        changes += 1
        if flat[0]:
            changes = np.r_[0, changes]
    else:
        changes = starts[:0]
    points = np.sort(np.r_[starts, changes], kind="stable")  # sorted runs: timsort merges them
    counts = np.diff(np.r_[points, n * hw])
    per_obj = np.diff(np.searchsorted(points, np.r_[starts, n * hw], side="left"))
    if hw == 0:
        per_obj = np.ones(n, dtype=np.int64)
    return RleSet(
        np.full(n, h, np.int64), np.full(n, w, np.int64), counts, _segment_starts(per_obj)
    )


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
        raise ValueError(
            "rles must all have the same size to be decoded into one (h, w, n) array; got "
            f"sizes {sorted({(int(a), int(b)) for a, b in zip(r.heights, r.widths)})}."
        )
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


def _toggles_to_rle_set(
    owner: np.ndarray, pix: np.ndarray, n: int, heights: np.ndarray, widths: np.ndarray
) -> RleSet:
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
    # Stable sort (timsort for int64): each edge's toggles arrive already in increasing order, and
    # timsort merges those runs instead of sorting from scratch (15x faster than quicksort here).
    key.sort(kind="stable")
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


def _toggles_to_rles(
    key: np.ndarray, stride: int, n: int, heights: np.ndarray, widths: np.ndarray
) -> RleSet:
    """:func:`_toggles_to_rle_set` for toggles given as ``owner · stride + pixel``."""
    owner, pix = np.divmod(key, stride)
    return _toggles_to_rle_set(owner, pix, n, heights, widths)
