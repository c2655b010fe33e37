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

from ._overlap import iou, merge
from ._polygons import from_polygons
from ._rle import area, decode, encode, to_bbox

__all__ = ["encode", "decode", "area", "to_bbox", "from_polygons", "merge", "iou"]
