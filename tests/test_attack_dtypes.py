"""Differential fuzzing of label and weight dtypes, layouts and aliasing against scikit-learn.

A hostile caller's arrays: int8 with negative labels, uint8, int16, uint64 at or beyond 2**63,
float16/float32 whole numbers, bools, lists of strings, pandas Series, (n, 1) column vectors,
strided and read-only views, the same array as y_true and y_pred; weights of every dtype.
mltutor must equal scikit-learn fed the same weights in float64 (int64 for integer weights):
mltutor sums weights exactly by design, where scikit-learn sums some in their own dtype (see the
``mltutor.metrics`` docstring).  No function may modify its inputs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import mltutor.metrics as mtm
from _strategies import CASES, PROPERTY, assert_parity

FUNCTIONS = [
    ("accuracy_score", {}), ("accuracy_score", {"normalize": False}), ("balanced_accuracy_score", {}),
    ("confusion_matrix", {}), ("multilabel_confusion_matrix", {}), ("hamming_loss", {}),
    ("zero_one_loss", {}), ("cohen_kappa_score", {}), ("matthews_corrcoef", {}),
    ("f1_score", {"average": "macro"}), ("f1_score", {"average": "weighted"}),
    ("precision_recall_fscore_support", {}), ("jaccard_score", {"average": "micro"}),
    ("recall_score", {"average": None, "zero_division": np.nan}),
    ("classification_report", {"output_dict": True, "zero_division": 0.0}),
]
LABEL_DTYPES = ["int8-negative", "uint8", "int16", "uint64-big", "float16", "float32", "bool",
                "str-list", "series", "column", "strided", "read-only", "alias"]
WEIGHT_DTYPES = [None, bool, np.int8, np.uint8, np.int16, np.uint64, np.float16, np.float32,
                 np.float64]


def _labels(kind: str, t: np.ndarray, p: np.ndarray) -> tuple:
    if kind == "int8-negative":
        return (t - 2).astype(np.int8), (p - 2).astype(np.int8)
    if kind == "uint64-big":
        big = np.uint64(2**63)
        return t.astype(np.uint64) + big, p.astype(np.uint64) + big
    if kind in ("uint8", "int16", "float16", "float32"):
        dtype = {"uint8": np.uint8, "int16": np.int16, "float16": np.float16, "float32": np.float32}
        return t.astype(dtype[kind]), p.astype(dtype[kind])
    if kind == "bool":
        return t % 2 == 1, p % 2 == 1
    if kind == "str-list":
        return [f"c{v}" for v in t], [f"c{v}" for v in p]
    if kind == "series":
        return pd.Series(t), pd.Series(p)
    if kind == "column":
        return t[:, None], p[:, None]
    if kind == "strided":
        return np.repeat(t, 2)[::2], np.repeat(p, 2)[1::2]
    if kind == "read-only":
        t, p = t.copy(), p.copy()
        t.setflags(write=False)
        p.setflags(write=False)
        return t, p
    return t, t  # alias: the very same array twice


@st.composite
def hostile_inputs(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(1, 4))
    t = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    p = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    kind = draw(st.sampled_from(LABEL_DTYPES))
    y_true, y_pred = _labels(kind, t, p)
    w_dtype = draw(st.sampled_from(WEIGHT_DTYPES))
    weights = None
    if w_dtype is not None:
        raw = draw(st.lists(st.integers(0, 200), min_size=n, max_size=n).filter(any))
        weights = np.array(raw) / (1 if np.dtype(w_dtype).kind in "biu" else 7)
        weights = (weights > 0) if w_dtype is bool else weights.astype(w_dtype)
    return kind, y_true, y_pred, weights, draw(st.sampled_from(FUNCTIONS))


def _copies(*arrays):
    return [np.array(a, copy=True) if a is not None else None for a in arrays]


@given(hostile_inputs())
@settings(PROPERTY, max_examples=400)
def test_hostile_dtypes_and_layouts_match_sklearn(case):
    kind, y_true, y_pred, weights, (name, kwargs) = case
    CASES["attack dtypes"] += 1
    before = _copies(y_true, y_pred, weights)
    ref_weights = None
    if weights is not None:
        exact = np.int64 if weights.dtype.kind in "biu" else np.float64
        ref_weights = weights.astype(exact)  # drawn weights are small: uint64 fits in int64
    ref_kwargs = dict(kwargs, **({} if weights is None else {"sample_weight": ref_weights}))
    our_kwargs = dict(kwargs, **({} if weights is None else {"sample_weight": weights}))
    ref, ours = getattr(skm, name), getattr(mtm, name)
    assert_parity(lambda *a, **k: ref(*a, **ref_kwargs), lambda *a, **k: ours(*a, **our_kwargs),
                  y_true, y_pred)
    for a, b in zip(before, _copies(y_true, y_pred, weights)):
        if a is not None:
            np.testing.assert_array_equal(a, b, err_msg=f"{name} modified an input ({kind})")
