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
        per_obj = self.offsets[1:] - self.offsets[:-1]
        per_obj //= 2
        offsets = _segment_starts(per_obj)
        # Mask i's runs of ones are its runs 1, 3, 5, ...: the k-th of all, its j-th, follows run
        # offsets_i + 2j, which is (offsets_i - 2·first_i) + 2k with first_i its first run of ones.
        # That run's end is where the run of ones starts.
        before_one = np.repeat(self.offsets[:-1] - 2 * offsets[:-1], per_obj)
        before_one += np.arange(0, 2 * offsets[-1], 2)
        start = np.empty(offsets[-1] + 1, dtype=np.int64)
        end = np.empty(offsets[-1] + 1, dtype=np.int64)
        # mode="clip": the indices are in range, and numpy buffers a take into out= only with "raise"
        np.take(ends, before_one, out=start[:-1], mode="clip")
        np.take(ends[1:], before_one, out=end[1:], mode="clip")
        start[-1], end[0] = _INT64_MAX, 0
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


_INT64_MAX = np.iinfo(np.int64).max  # (np.iinfo is slow to call)


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
    head = offsets[:-1, None] + _FIRST_THREE
    head = head[head < offsets[1:, None]]
    x[head] = counts[head]
    # Each number is written in 5-bit groups, lowest first, as few as hold it in two's complement:
    # group k >= 1 is written when |x| (~x when negative) is at least 2**(5k - 1).  The groups are
    # worked out as a table, row k holding every number's group k (long rows: each step is one
    # pass), then read column by column (tobytes of the transposed table) with the groups not
    # written, left as zero bytes, deleted by bytes.translate (a boolean mask is 3x slower).
    magnitude = x ^ (x >> 63)
    n_rows = (int(magnitude.max()).bit_length() + 5) // 5  # groups of the largest number
    written = np.zeros((n_rows + 1, x.shape[0]), dtype=bool)  # the last row: never written
    np.greater_equal(magnitude, _GROUP_FLOOR[:n_rows, None], out=written[:-1])
    groups = np.right_shift(x, _GROUP_SHIFT[:n_rows, None]).astype(
        np.uint8
    )  # the low byte is enough
    groups &= 0x1F
    groups |= written[1:].view(np.uint8) << 5  # 0x20: more groups follow
    groups += 48
    groups *= written[:-1]  # the groups not written: 0
    blob = groups.T.tobytes().translate(None, b"\0")
    if n_obj == 1:
        return [blob]
    n_chars = written.sum(axis=0)
    bounds = _segment_starts(n_chars)[
        offsets
    ].tolist()  # each object's first character, and the end
    return [blob[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


#: 2**(5k - 1) for k >= 1 (0 for k = 0): the smallest magnitude written with a group k; and the
#: shift that brings group k down (13 groups hold any int64).
_GROUP_FLOOR = np.array([0] + [1 << (5 * k - 1) for k in range(1, 13)], dtype=np.int64)
_GROUP_SHIFT = 5 * np.arange(13, dtype=np.int64)


def _strings_to_counts(
    blob: bytes, lengths: np.ndarray, where: Callable[[int], str]
) -> tuple[np.ndarray, np.ndarray]:
    """pycocotools' ``rleFrString`` for every object at once: (flat counts, offsets).

    ``blob`` is every object's string joined, ``lengths`` their lengths; ``where(i)`` names object *i*
    in error messages.  The work is per character only to find where
    numbers end; the numbers themselves are assembled one 5-bit group at a time, per number."""
    char_bounds = _segment_starts(lengths)
    raw = np.frombuffer(blob, dtype=np.uint8)  # a view of blob: '0' + v for each 6-bit group v
    if raw.shape[0] and (raw.min() < 48 or raw.max() > 111):
        bad = int(np.argmax((raw - np.uint8(48)) > 63))  # wraps below '0' to >= 208
        i = int(np.searchsorted(char_bounds, bad, side="right")) - 1
        raise ValueError(
            f"{where(i)}['counts'] is not a COCO compressed RLE string (characters must lie "
            "between '0' and 'o')."
        )
    if raw.shape[0]:  # the last character of a string must end a number (bit 5 clear: before 'P')
        unfinished = (lengths > 0) & (raw[char_bounds[1:] - 1] >= 80)  # (an empty one's is masked)
    else:
        unfinished = lengths > 0
    if unfinished.any():
        i = int(np.argmax(unfinished))
        raise ValueError(
            f"{where(i)}['counts'] ends in the middle of a number; the string is truncated."
        )
    if raw.shape[0] <= DECODE_BLOCK:
        return _decode_numbers(blob, raw, char_bounds, where)
    # A long blob is decoded in blocks of whole objects: a dozen passes over arrays that stay in the
    # cache, whose memory is reused, rather than over fresh arrays of megabytes (each costing its page
    # faults): 842k characters of 6,266 COCO results in 9 ms rather than 16 ms.
    cuts = np.searchsorted(char_bounds, np.arange(DECODE_BLOCK, raw.shape[0], DECODE_BLOCK))
    cuts = [0, *np.unique(cuts[(cuts > 0) & (cuts < lengths.shape[0])]).tolist(), lengths.shape[0]]
    parts = []
    offsets = np.empty(lengths.shape[0] + 1, dtype=np.int64)
    offsets[0] = 0
    for a, b in zip(cuts[:-1], cuts[1:]):
        lo, hi = int(char_bounds[a]), int(char_bounds[b])
        counts, offs = _decode_numbers(blob[lo:hi], raw[lo:hi], char_bounds[a : b + 1] - lo, where)
        parts.append(counts)
        np.add(offs[1:], offsets[a], out=offsets[a + 1 : b + 1])
    return np.concatenate(parts), offsets


#: Characters of compressed strings decoded at once (see _strings_to_counts).
DECODE_BLOCK = 1 << 16


def _decode_numbers(
    blob: bytes, raw: np.ndarray, char_bounds: np.ndarray, where: Callable[[int], str]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_strings_to_counts` of checked strings (``raw``: blob's bytes; ``char_bounds``: where
    each object's string starts, and the end)."""
    # The last group of a number ('0' to 'O') carries the sign in its bit 4: as a signed 5-bit number
    # it is (v ^ 16) - 16.  bytes.translate keeps only those characters and maps them to that value
    # in one pass (3x faster than selecting them with a boolean mask).  The numbers are put in
    # "chain order", the even-indexed ones and then the odd-indexed ones, which _undo_delta sums as
    # one contiguous array: as bytes (slices of bytes are plain copies), then widened in one pass.
    last = blob.translate(_SIGNED_LAST, _CONTINUATION)
    n = len(last)
    half = (n + 1) // 2
    x = np.frombuffer(last[0::2] + last[1::2], dtype=np.int8).astype(np.int64)
    # Continuation groups are few (most numbers are one character): the number that continuation
    # character p belongs to is p less the continuation characters before it.
    cont = np.flatnonzero(raw >= 80)  # bit 5 set ('P' and after): more groups follow
    n_cont_before = np.searchsorted(cont, char_bounds, side="left")
    if cont.shape[0]:
        # (in place where it can be: each fresh array of a large input costs its page faults)
        low = raw[cont]
        low -= np.uint8(80)  # the group's 5 bits
        low = low.astype(np.int64)
        k = np.arange(cont.shape[0])
        number = np.subtract(cont, k, out=cont)
        new_number = np.empty(cont.shape[0], dtype=bool)
        new_number[0] = True
        np.not_equal(number[1:], number[:-1], out=new_number[1:])
        first = np.flatnonzero(new_number)  # each multi-group number's first
        extra = np.empty_like(first)  # its groups before the last (np.diff's append= is slow)
        np.subtract(first[1:], first[:-1], out=extra[:-1])
        extra[-1] = cont.shape[0] - first[-1]
        if extra.max() > 11:
            raise ValueError(f"{where(0)}: a run length is too large for an RLE.")
        k -= np.repeat(first, extra)  # each group's place inside its number
        k *= 5
        low <<= k
        at = number[first]  # the numbers with several groups ...
        odd = at & 1
        at >>= 1
        odd *= half
        at += odd  # ... and where each is in chain order
        extra *= 5
        value = x[at]
        value <<= extra
        value += np.add.reduceat(low, first)
        x[at] = value
    offsets = char_bounds - n_cont_before  # numbers per object
    return _undo_delta(x, offsets), offsets


_FIRST_THREE = np.arange(3)
#: bytes.translate's table and deleted characters for the last groups (see _strings_to_counts).
_SIGNED_LAST = bytes((((v - 48) ^ 16) - 16) & 0xFF if 48 <= v < 80 else 0 for v in range(256))
_CONTINUATION = bytes(range(80, 112))


def _undo_delta(x: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``count_j = x_j + count_{j-2}`` for j > 2 (``rleFrString``'s delta rule), all objects at once.

    ``x`` is in chain order (numbers 0, 2, 4, ... of the flat array, then 1, 3, 5, ...) and is
    used as scratch; the counts come back in their own order.  Every other number forms a chain, so
    the counts are running sums of each chain that restart at each object's first three numbers
    (j = 0, 1, 2 are stored as they are).  A segmented running sum is one plain ``cumsum`` after
    subtracting, at each restart, the sum of the segment before it; with the two chains side by
    side that is one ``reduceat`` and one contiguous ``cumsum`` (a strided one is twice as slow),
    the second chain's start being a restart too."""
    n = x.shape[0]
    if n == 0:
        return x
    half = (n + 1) // 2
    head = offsets[:-1, None] + _FIRST_THREE
    head = head[head < offsets[1:, None]]  # objects with fewer than three numbers have fewer
    restarts = np.sort((head & 1) * half + (head >> 1))  # chain order; 0 and half among them
    sums = np.add.reduceat(x, restarts)
    x[restarts[1:]] -= sums[:-1]
    np.cumsum(x, out=x)
    counts = np.empty_like(x)
    counts[0::2] = x[:half]
    counts[1::2] = x[half:]
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
