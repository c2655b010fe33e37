"""mltutor.detection.mask against pycocotools.mask: RLE counts bit for bit, IoU to 1e-12.

Generated masks cover: empty and full masks, single pixels, h or w = 1, random noise (many short
runs), blocks and stripes (few long runs, counts needing several characters), masks large enough
for run lengths above 2^15.  Polygons cover convex and self-intersecting shapes, collinear and
repeated vertices, coordinates off the image and negative ones, fractional and integer vertices.
"""

from __future__ import annotations

import numpy as np
import pycocotools._mask as coco_mask_c
import pycocotools.mask as coco_mask
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st

from mltutor.detection import mask

pytestmark = pytest.mark.filterwarnings("ignore:__array__ implementation:DeprecationWarning")


def _random_masks(rng: np.random.Generator, h: int, w: int, n: int) -> np.ndarray:
    kind = rng.integers(0, 5)
    if kind == 0:  # noise
        out = rng.random((h, w, n)) < rng.choice([0.02, 0.5, 0.98])
    elif kind == 1:  # empty or full
        out = np.full((h, w, n), bool(rng.integers(0, 2)))
    elif kind == 2:  # one pixel
        out = np.zeros((h, w, n), dtype=bool)
        out[rng.integers(0, h), rng.integers(0, w)] = True
    else:  # blocks
        out = np.zeros((h, w, n), dtype=bool)
        for i in range(n):
            for _ in range(int(rng.integers(1, 4))):
                y0, x0 = rng.integers(0, h), rng.integers(0, w)
                out[y0 : y0 + rng.integers(1, h + 1), x0 : x0 + rng.integers(1, w + 1), i] = True
    return np.asfortranarray(out.astype(np.uint8))


@st.composite
def mask_stacks(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    big = draw(st.integers(0, 9)) == 0
    h = int(rng.integers(1, 400 if big else 24))
    w = int(rng.integers(1, 400 if big else 24))
    if draw(st.integers(0, 5)) == 0:
        (h, w) = (1, w) if rng.random() < 0.5 else (h, 1)
    n = int(rng.integers(1, 5))
    return _random_masks(rng, h, w, n)


def _counts(rles):
    return [r["counts"] for r in rles]


@PROPERTY
@given(mask_stacks())
def test_encode_decode_area_bbox_equal_pycocotools(masks):
    CASES["mask: encode/decode/area/toBbox vs pycocotools"] += 1
    ref = coco_mask.encode(masks)
    ours = mask.encode(masks)
    assert _counts(ours) == _counts(ref)
    assert [r["size"] for r in ours] == [list(r["size"]) for r in ref]
    # C-ordered bool input reads the same pixels, and so does a strided view (masks in reverse)
    assert _counts(mask.encode(np.ascontiguousarray(masks.astype(bool)))) == _counts(ref)
    assert _counts(mask.encode(masks[:, :, ::-1])) == _counts(ref)[::-1]
    decoded = mask.decode(ref)
    assert decoded.dtype == np.uint8 and decoded.flags.f_contiguous
    np.testing.assert_array_equal(decoded, coco_mask.decode(ref))
    as_str = [{"size": r["size"], "counts": r["counts"].decode()} for r in ref]
    np.testing.assert_array_equal(mask.area(as_str), coco_mask.area(ref))
    np.testing.assert_array_equal(mask.to_bbox(ref), coco_mask.toBbox(ref))
    single = mask.encode(masks[:, :, 0])
    assert single["counts"] == ref[0]["counts"]
    assert mask.area(single) == int(coco_mask.area(ref[0]))


@PROPERTY
@given(mask_stacks(), st.integers(0, 2**32 - 1))
def test_iou_and_merge_equal_pycocotools(masks, seed):
    CASES["mask: iou/merge vs pycocotools"] += 1
    rng = np.random.default_rng(seed)
    h, w, _ = masks.shape
    dt = coco_mask.encode(masks)
    gt = coco_mask.encode(_random_masks(rng, h, w, int(rng.integers(1, 5))))
    crowd = rng.integers(0, 2, len(gt)).tolist()
    ref = coco_mask.iou(dt, gt, crowd)
    # Both ways of counting intersections (column pieces, sorted searches), each in one block and in
    # blocks of a few entries (pairs cut into slices, a pair longer than a block alone in its own).
    saved = mask._overlap.COLUMNS_FROM, mask._overlap.BLOCK
    for columns_from, block in ((0, saved[1]), (10**9, saved[1]), (0, 3), (10**9, 3)):
        mask._overlap.COLUMNS_FROM, mask._overlap.BLOCK = columns_from, block
        try:
            np.testing.assert_allclose(mask.iou(dt, gt, crowd), ref, rtol=0, atol=1e-12)
        finally:
            mask._overlap.COLUMNS_FROM, mask._overlap.BLOCK = saved
    # uncompressed counts give the same numbers
    uncompressed = [{"size": r["size"], "counts": _runs(r)} for r in gt]
    np.testing.assert_allclose(
        mask.iou(dt, uncompressed, crowd), coco_mask.iou(dt, gt, crowd), rtol=0, atol=1e-12
    )
    # The union packs each run's start and end in one int64 below PACK_BELOW pixels, and sorts them
    # apart above it: both ways (0 sends every image the second way).
    saved = mask._overlap.PACK_BELOW
    for pack_below in (saved, 0):
        mask._overlap.PACK_BELOW = pack_below
        try:
            for intersect in (False, True):
                assert (
                    mask.merge(dt + gt, intersect)["counts"]
                    == coco_mask.merge(dt + gt, int(intersect))["counts"]
                )
        finally:
            mask._overlap.PACK_BELOW = saved


def test_merge_of_images_too_large_to_pack_runs():
    # h·w = 2**32 >= PACK_BELOW: starts and ends sorted apart; runs overlapping, touching, apart.
    hw = 2**32
    a = {"size": [2**16, 2**16], "counts": [5, 10, 5, 3, hw - 23]}
    b = {"size": [2**16, 2**16], "counts": [12, 8, 30, 1, hw - 51]}
    assert hw >= mask._overlap.PACK_BELOW
    union = mask.merge([a, b])["counts"]
    inter = mask.merge([a, b], intersect=True)["counts"]
    assert (
        union
        == mask._rle._counts_to_strings(np.array([5, 18, 27, 1, hw - 51]), np.array([0, 5]))[0]
    )
    assert inter == mask._rle._counts_to_strings(np.array([12, 3, hw - 15]), np.array([0, 3]))[0]


def _runs(rle):
    flat = coco_mask.decode(rle).reshape(-1, order="F").astype(np.int64)
    change = np.flatnonzero(np.diff(np.r_[0, flat]))
    return np.diff(np.r_[0, change, flat.shape[0]]).tolist()


@PROPERTY
@given(st.integers(0, 2**32 - 1))
def test_value_changes_read_by_words_equal_a_byte_by_byte_comparison(seed):
    # Every length around the 8-byte words (the tail past the last whole word, one word, none),
    # sparse and dense bytes, changes at word boundaries and in the last byte.
    CASES["mask: run boundaries read 8 bytes at a time"] += 1
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 70))
    flat = (rng.random(n) < rng.choice([0.03, 0.5, 0.97])).astype(np.uint8)
    if n and rng.random() < 0.3:
        flat[rng.integers(0, n) // 8 * 8 :] ^= 1  # a change exactly at a word's first byte
    expected = np.flatnonzero(flat[1:] != flat[:-1])
    np.testing.assert_array_equal(mask._rle._value_changes(flat), expected)


def _rle_to_string(counts):
    """pycocotools' rleToString, transcribed to Python: a reference for counts beyond uint32."""
    out = []
    for i, c in enumerate(counts):
        x = c - counts[i - 2] if i > 2 else c
        more = True
        while more:
            ch = x & 0x1F
            x >>= 5
            more = (x != -1) if ch & 0x10 else (x != 0)
            out.append(chr(ch + 48 + (0x20 if more else 0)))
    return "".join(out).encode()


@PROPERTY
@given(st.lists(st.lists(st.integers(0, 2**62), max_size=7), max_size=5))
def test_count_strings_equal_rle_to_string_for_any_count(objects):
    # Counts up to 2**62, past the float-exponent count of 5-bit groups (exact below 2**52).
    CASES["mask: RLE strings of counts up to 2**62"] += 1
    counts = np.array([c for obj in objects for c in obj], dtype=np.int64)
    offsets = np.cumsum([0] + [len(obj) for obj in objects])
    ours = mask._rle._counts_to_strings(counts, offsets)
    assert ours == [_rle_to_string(obj) for obj in objects]
    # Read back (numbers of up to 12 groups, what the decoder accepts), at once and in blocks of a
    # few characters (objects longer than a block alone in theirs).
    if counts.size == 0 or counts.max() < 2**58:
        saved = mask._rle.DECODE_BLOCK
        for block in (saved, 3):
            mask._rle.DECODE_BLOCK = block
            try:
                flat, offs = mask._rle._strings_to_counts(
                    b"".join(ours), np.array([len(s) for s in ours], dtype=np.int64), str
                )
            finally:
                mask._rle.DECODE_BLOCK = saved
            np.testing.assert_array_equal(flat, counts)
            np.testing.assert_array_equal(offs, offsets)
    # pycocotools itself, where its C buffer (6 characters per count) holds the string: counts
    # below 2**29, whose differences fit six 5-bit groups.
    for obj, s in zip(objects, ours):
        if 0 < sum(obj) and max(obj) < 2**29:
            rle = coco_mask_c.frPyObjects([{"size": [1, sum(obj)], "counts": obj}], 1, sum(obj))
            assert rle[0]["counts"] == s


@st.composite
def polygon_sets(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    h, w = int(rng.integers(1, 60)), int(rng.integers(1, 60))
    polys = []
    for _ in range(int(rng.integers(1, 4))):
        k = int(rng.integers(3, 12))
        kind = rng.integers(0, 4)
        if kind == 0:  # collinear
            t = rng.uniform(0, 1, k)
            xy = np.stack([t * w, t * h * rng.uniform(-1, 1)], axis=1)
        else:
            xy = rng.uniform(-0.2 * max(h, w), 1.2 * max(h, w), (k, 2))
        if kind == 1:
            xy = np.round(xy)  # integer vertices: crossings exactly on pixel centres' grid
        elif kind == 2:
            xy = np.round(xy * 2) / 2
        if rng.random() < 0.3:
            xy = np.repeat(xy, rng.integers(1, 3, k), axis=0)  # repeated vertices
        polys.append(xy.reshape(-1).tolist())
    return polys, h, w


@PROPERTY
@given(polygon_sets())
def test_from_polygons_equal_frPyObjects(case):
    CASES["mask: polygon rasterisation vs pycocotools frPyObjects"] += 1
    polys, h, w = case
    ref = coco_mask.frPyObjects(polys, h, w)
    ours = mask.from_polygons(polys, h, w)
    assert _counts(ours) == _counts(ref)
    assert mask.merge(ours)["counts"] == coco_mask.merge(ref)["counts"]


# --------------------------------------------------------------------------------------------
# Edge cases
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (1, 7), (7, 1), (5, 6)])
@pytest.mark.parametrize("fill", [0, 1])
def test_empty_full_and_thin_masks(shape, fill):
    m = np.full(shape + (1,), fill, dtype=np.uint8, order="F")
    ref = coco_mask.encode(m)
    ours = mask.encode(m)
    assert _counts(ours) == _counts(ref)
    np.testing.assert_array_equal(mask.to_bbox(ours), coco_mask.toBbox(ref))
    np.testing.assert_array_equal(mask.area(ours), coco_mask.area(ref))
    np.testing.assert_array_equal(mask.decode(ours), coco_mask.decode(ref))


def test_one_pixel_and_iou_extremes():
    m = np.zeros((4, 5), dtype=np.uint8)
    m[2, 3] = 1
    rle = mask.encode(m)
    assert rle == {"size": [4, 5], "counts": coco_mask.encode(np.asfortranarray(m))["counts"]}
    assert mask.to_bbox(rle).tolist() == [3.0, 2.0, 1.0, 1.0]
    empty = mask.encode(np.zeros((4, 5), dtype=np.uint8))
    assert mask.iou([rle], [rle]).tolist() == [[1.0]]
    assert mask.iou([empty], [empty], [1]).tolist() == [[0.0]]  # pycocotools: 0, not 0/0
    other = mask.encode(np.zeros((5, 4), dtype=np.uint8))
    assert mask.iou([rle], [other]).tolist() == [[0.0]]  # boxes do not overlap: no size check
    assert mask.iou([], [rle]).shape == (0, 1)


def test_iou_by_columns_of_images_taller_than_int16_rows():
    # Enough pairs per mask for the column pieces, in images of 2**15 + 50 rows with pieces across
    # row 2**15: rows no longer fit the int16 packing, so the int32 one is used; in 500 rows, int16.
    rng = np.random.default_rng(7)
    for h, low in ((2**15 + 50, 2**15 - 40), (500, 0)):
        y0 = rng.integers(low, low + 45, (2, 9, 3))
        m = np.zeros((2, h, 3, 9), dtype=np.uint8)
        for s in range(2):
            for i in range(9):
                for c in range(3):
                    m[s, y0[s, i, c] : y0[s, i, c] + int(rng.integers(1, 40)), c, i] = 1
        dt, gt = (coco_mask.encode(np.asfortranarray(m[s])) for s in range(2))
        assert 9 * 9 > mask._overlap.COLUMNS_FROM * 18  # the column path, not the searches
        crowd = [i % 4 == 0 for i in range(9)]
        np.testing.assert_allclose(
            mask.iou(dt, gt, crowd), coco_mask.iou(dt, gt, crowd), rtol=0, atol=1e-12
        )


@PROPERTY
@given(st.integers(0, 2**32 - 1))
def test_bbox_and_area_of_mixed_sizes_and_empty_runs(seed):
    """RLEs of different sizes in one list, with runs of length 0 inside (uncompressed counts allow
    them) and odd numbers of runs: boxes and areas are read per mask on one shared pixel axis."""
    CASES["mask: toBbox/area of mixed sizes vs pycocotools"] += 1
    rng = np.random.default_rng(seed)
    rles = []
    for _ in range(int(rng.integers(1, 6))):
        h, w = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        cuts = np.sort(
            rng.integers(1, h * w + 1, int(rng.integers(0, 8)))
        )  # repeated cuts: empty runs
        counts = np.diff(np.r_[0, cuts, h * w]).tolist()
        if rng.random() < 0.3:
            counts = [0] + counts  # starts with a pixel set
        rles.append({"size": [h, w], "counts": counts})
    ref = [coco_mask.frPyObjects(r, *r["size"]) for r in rles]
    np.testing.assert_array_equal(mask.to_bbox(rles), coco_mask.toBbox(ref))
    np.testing.assert_array_equal(mask.area(rles), coco_mask.area(ref))


@pytest.mark.parametrize(
    "h, w, counts",
    [
        (1, 5, [2, 0, 3]),
        (3, 4, [0, 0, 12]),
        (3, 4, [1, 0, 2, 2, 7]),
        (4, 4, [0, 0, 3, 1, 12]),
        (4, 4, [5, 4, 7]),
        (3, 4, [12]),
    ],
)
def test_bbox_skips_runs_of_ones_of_length_zero(h, w, counts):
    """pycocotools (2.0.8+) reads no pixel from an empty run of ones; a mask made only of those gets
    its unsigned arithmetic's wrapped box."""
    rle = {"size": [h, w], "counts": counts}
    np.testing.assert_array_equal(
        mask.to_bbox(rle), coco_mask.toBbox(coco_mask.frPyObjects(rle, h, w))
    )


def test_strided_and_sliced_masks_encode_as_pycocotools():
    # Slices whose flattened pixels are a strided view (a side of 1, every other row, every other
    # mask): read like any other array, at every length around the 8-byte words.
    rng = np.random.default_rng(11)
    for h, w in ((17, 1), (1, 17), (8, 5), (9, 3), (16, 1), (3, 24)):
        stack = (rng.random((h, w, 4)) < 0.4).astype(np.uint8)
        for m in (
            stack[:, :, 0],
            np.ascontiguousarray(stack)[:, :, 1],
            np.asfortranarray(stack)[::2],
            np.asfortranarray(stack)[:, ::2],
            stack[:, :, ::2],
        ):
            ref = coco_mask.encode(np.asfortranarray(m if m.ndim == 3 else m[:, :, None]))
            ours = mask.encode(m)
            assert _counts(ours if m.ndim == 3 else [ours]) == _counts(ref), (h, w, m.strides)


@PROPERTY
@given(st.integers(0, 2**32 - 1))
def test_zero_length_runs_read_as_the_pixels_they_encode(seed):
    # Uncompressed counts with runs of length 0 in the middle (no encoder writes them; pycocotools'
    # rleIou and rleMerge mis-handle them): merge, iou, area and to_bbox give what the decoded
    # masks, encoded again, give.
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    masks = _random_masks(rng, h, w, int(rng.integers(2, 5)))  # merge returns a single RLE as given
    plain = coco_mask.encode(masks)
    padded = []
    for r in plain:
        counts = _runs(r)
        for _ in range(
            int(rng.integers(1, 4))
        ):  # a zero run (and one beside it) inserted after the first
            at = int(rng.integers(1, len(counts) + 1))
            counts[at:at] = [0, 0]
        padded.append({"size": r["size"], "counts": counts})
    assert _counts([mask.merge(padded)]) == _counts([mask.merge(plain)])
    assert _counts([mask.merge(padded, True)]) == _counts([mask.merge(plain, True)])
    np.testing.assert_array_equal(mask.iou(padded, padded), mask.iou(plain, plain))
    np.testing.assert_array_equal(mask.area(padded), mask.area(plain))
    np.testing.assert_array_equal(mask.decode(padded), masks)


def test_large_counts_round_trip():
    m = np.zeros((1000, 1000, 1), dtype=np.uint8, order="F")
    m[999, 999] = 1  # a first run of 999,999 zeros: five characters
    ref = coco_mask.encode(m)
    assert _counts(mask.encode(m)) == _counts(ref)
    assert mask.area(ref).tolist() == [1]


def test_degenerate_polygons_match():
    for poly in (
        [0, 0, 0, 0, 0, 0],
        [1, 1, 5, 1, 9, 1],
        [0, 0, 10, 10, 0, 0, 10, 10],
        [-5, -5, -1, -5, -1, -1],
    ):
        assert (
            mask.from_polygons([poly], 8, 8)[0]["counts"]
            == coco_mask_c.frPoly([poly], 8, 8)[0]["counts"]
        )


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: mask.encode(np.zeros(5)), "mask must be a binary mask of shape"),
        (lambda: mask.encode(np.full((2, 2), 2)), "only 0 and 1"),
        (lambda: mask.encode(np.full((2, 2), 0.5)), "only 0 and 1"),
        (lambda: mask.encode(np.full((2, 2), "a")), "0/1 or booleans"),
        (lambda: mask.decode({"size": [2, 2], "counts": [1, 1]}), "sums to 2"),
        (lambda: mask.decode({"size": [2, 2], "counts": [1, -1, 4]}), "negative run length"),
        (
            lambda: mask.decode({"size": [2], "counts": [4]}),
            r"\['size'\] must be \[height, width\]",
        ),
        (lambda: mask.decode({"counts": [4]}), "must be an RLE dict"),
        (
            lambda: mask.area([{"size": [2, 2], "counts": "1 1"}]),
            "not a COCO compressed RLE string",
        ),
        (lambda: mask.area([{"size": [2, 2], "counts": "0o"}]), "ends in the middle of a number"),
        (
            lambda: mask.area([{"size": [2, 2], "counts": "3"}]),
            r"rles\[0\]\['counts'\] decodes to runs summing",
        ),
        (lambda: mask.area("abc"), "must be an RLE dict"),
        (
            lambda: mask.decode([{"size": [2, 2], "counts": [4]}, {"size": [1, 4], "counts": [4]}]),
            "same size",
        ),
        (lambda: mask.merge([]), "at least one"),
        (lambda: mask.from_polygons([[0, 0, 1, 1]], 4, 4), "at least 3"),
        (lambda: mask.from_polygons([[0, 0, 1, 1, 2]], 4, 4), "x, y pairs"),
        (lambda: mask.from_polygons([[0, 0, np.nan, 1, 2, 2]], 4, 4), "NaN or inf"),
        (
            lambda: mask.from_polygons([[0, 0, 1, 0, 1, 1]], -1, 4),
            "height must be a non-negative integer",
        ),
        (
            lambda: mask.from_polygons([[0, 0, 1, 0, 1, 1]], 4, 2.5),
            "width must be a non-negative integer",
        ),
        (lambda: mask.from_polygons("0 0 1 1", 4, 4), "list of polygons"),
        (
            lambda: mask.iou(
                [{"size": [1, 1], "counts": [0, 1]}], [{"size": [1, 1], "counts": [0, 1]}], [0, 1]
            ),
            "iscrowd must hold one flag per ground-truth object",
        ),
        (
            lambda: mask.iou(
                [{"size": [1, 1], "counts": [0, 1]}], [{"size": [1, 1], "counts": [0, 1]}], [2]
            ),
            "iscrowd must hold 0/1",
        ),
    ],
)
def test_bad_input_is_named(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()
