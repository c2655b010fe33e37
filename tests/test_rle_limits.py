"""RLE sizes and run lengths beyond 64-bit arithmetic are refused with the reason (issue 24).

Before: ``size`` [2**32, 2**32] made ``h * w`` wrap to 0 in int64 and the RLE was accepted;
uint64 run lengths of 2**63 were reported as "a negative run length".
"""

from __future__ import annotations

import numpy as np
import pytest

from mltutor.detection import mask


@pytest.mark.parametrize("size", [[2**32, 2**32], [2**31, 1], [1, 2**40]])
def test_huge_sizes_are_refused(size):
    with pytest.raises(ValueError, match="largest side"):
        mask.area({"size": size, "counts": [0]})
    with pytest.raises(ValueError, match="largest side"):
        mask.area([{"size": size, "counts": "0"}])


def test_uint64_runs_beyond_int64_are_named():
    rle = {"size": [2, 2], "counts": np.array([2**63, 0], dtype=np.uint64)}
    with pytest.raises(ValueError, match="a run of 9223372036854775808 pixels, more than"):
        mask.area(rle)


def test_runs_that_would_wrap_the_sum_are_counted_exactly():
    side = 2**31 - 1
    runs = np.array([side * side] * 3, dtype=np.int64)  # 3 * h * w: wraps int64 if summed there
    with pytest.raises(ValueError, match=f"sums to {3 * side * side}"):
        mask.area({"size": [side, side], "counts": runs})


def test_the_largest_side_still_works():
    side = 2**31 - 1
    assert mask.area({"size": [side, 1], "counts": [side - 5, 5]}) == 5
