"""Differential fuzzing of kernel 2's inputs against scikit-learn: scores with ties, +-inf,
-0.0 and 0.0, denormals, all equal, in float16/float32/int/bool/uint64; labels as bools, +-1,
strings with ``pos_label``, column vectors and pandas Series; weights of several dtypes; read-only
and strided views.  Results, refusals and warnings must match, and no input may be modified.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY, assert_parity
from hypothesis import given, settings
from hypothesis import strategies as st

import mltutor.metrics as mtm

SCORE_VALUES = {
    "ties": [0.0, 0.1, 0.1, 0.5, 0.5, 1.0],
    "signed-zero": [0.0, -0.0],
    "denormal": [0.0, 5e-324, 1e-323, 2.2e-308],
    "infinite": [-np.inf, 0.3, 0.7, np.inf],
    "all-equal": [0.5],
    "wide": [-1e300, -1.0, 1.0, 1e300],
}
SCORE_DTYPES = [np.float64, np.float32, np.float16, np.int8, np.uint64, bool]
FUNCTIONS = [
    ("roc_auc_score", {}),
    ("roc_auc_score", {"max_fpr": 0.3}),
    ("average_precision_score", {}),
    ("roc_curve", {}),
    ("roc_curve", {"drop_intermediate": False}),
    ("precision_recall_curve", {}),
    ("precision_recall_curve", {"drop_intermediate": True}),
    ("det_curve", {}),
]


@st.composite
def scored_problems(draw):
    n = draw(st.integers(1, 25))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    family = draw(st.sampled_from(sorted(SCORE_VALUES)))
    s = np.array(draw(st.lists(st.sampled_from(SCORE_VALUES[family]), min_size=n, max_size=n)))
    dtype = draw(st.sampled_from(SCORE_DTYPES))
    if dtype is bool:
        s = s > 0.4
    elif np.dtype(dtype).kind in "iu":
        s = np.clip(np.nan_to_num(s * 10), 0, 100).astype(dtype)
    else:
        with np.errstate(over="ignore"):
            s = s.astype(dtype)
    kwargs = {}
    kind = draw(
        st.sampled_from(["int", "bool", "pm1", "str", "column", "series", "read-only", "strided"])
    )
    if kind == "bool":
        y = y.astype(bool)
    elif kind == "pm1":
        y = 2 * y - 1
    elif kind == "str":
        y = np.array(["neg", "pos"])[y]
        kwargs["pos_label"] = "pos"
    elif kind == "column":
        y = y[:, None]
    elif kind == "series":
        y = pd.Series(y)
    elif kind == "read-only":
        y, s = y.copy(), s.copy()
        y.setflags(write=False)
        s.setflags(write=False)
    elif kind == "strided":
        y, s = np.repeat(y, 2)[::2], np.repeat(s, 2)[::2]
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.integers(1, 9), min_size=n, max_size=n)))
        kwargs["sample_weight"] = w / 4 if draw(st.booleans()) else w
    return y, s, kwargs, draw(st.sampled_from(FUNCTIONS))


@given(scored_problems())
@settings(PROPERTY, max_examples=400)
def test_hostile_scores_match_sklearn(case):
    y, s, kwargs, (name, extra) = case
    CASES["attack scores"] += 1
    if name.startswith("roc_auc") or name.startswith("average"):
        kwargs = {k: v for k, v in kwargs.items() if k != "pos_label" or name.startswith("average")}
    kwargs = dict(kwargs, **extra)
    before = [np.array(y, copy=True), np.array(s, copy=True)]
    assert_parity(getattr(skm, name), getattr(mtm, name), y, s, **kwargs)
    np.testing.assert_array_equal(before[0], np.asarray(y), err_msg=f"{name} modified y_true")
    np.testing.assert_array_equal(before[1], s, err_msg=f"{name} modified y_score")
