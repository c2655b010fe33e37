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
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY, assert_parity
from hypothesis import given, settings
from hypothesis import strategies as st

import mltutor.metrics as mtm

FUNCTIONS = [
    ("accuracy_score", {}),
    ("accuracy_score", {"normalize": False}),
    ("balanced_accuracy_score", {}),
    ("confusion_matrix", {}),
    ("multilabel_confusion_matrix", {}),
    ("hamming_loss", {}),
    ("zero_one_loss", {}),
    ("cohen_kappa_score", {}),
    ("matthews_corrcoef", {}),
    ("f1_score", {"average": "macro"}),
    ("f1_score", {"average": "weighted"}),
    ("precision_recall_fscore_support", {}),
    ("jaccard_score", {"average": "micro"}),
    ("recall_score", {"average": None, "zero_division": np.nan}),
    ("classification_report", {"output_dict": True, "zero_division": 0.0}),
]
LABEL_DTYPES = [
    "int8-negative",
    "uint8",
    "int16",
    "uint64-big",
    "float16",
    "float32",
    "bool",
    "str-list",
    "series",
    "column",
    "strided",
    "read-only",
    "alias",
]
WEIGHT_DTYPES = [
    None,
    bool,
    np.int8,
    np.uint8,
    np.int16,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
]


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
    assert_parity(
        lambda *a, **k: ref(*a, **ref_kwargs),
        lambda *a, **k: ours(*a, **our_kwargs),
        y_true,
        y_pred,
    )
    for a, b in zip(before, _copies(y_true, y_pred, weights)):
        if a is not None:
            np.testing.assert_array_equal(a, b, err_msg=f"{name} modified an input ({kind})")


Y_TRUE, Y_PRED = np.array([0, 1, 1, 0, 2]), np.array([0, 1, 0, 0, 2])
RATES = [
    "accuracy_score",
    "balanced_accuracy_score",
    "hamming_loss",
    "matthews_corrcoef",
    "cohen_kappa_score",
    "zero_one_loss",
]


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
@pytest.mark.parametrize("name", RATES)
def test_integer_weights_whose_total_overflows_int64(name, dtype):
    # Five weights of 2**62 sum to 2**64 + 2**62, which wraps to 2**62 in int64: accuracy was 4.0.
    w = np.full(5, 2**62, dtype=dtype)
    expected = getattr(skm, name)(Y_TRUE, Y_PRED, sample_weight=w.astype(np.float64))
    assert getattr(mtm, name)(Y_TRUE, Y_PRED, sample_weight=w) == pytest.approx(expected, rel=1e-12)


def test_integer_weights_overflowing_int64_give_exact_float_counts():
    w = np.full(5, 2**62, dtype=np.int64)
    assert mtm.accuracy_score(Y_TRUE, Y_PRED, sample_weight=w, normalize=False) == 4.0 * 2**62
    cm = mtm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w)
    np.testing.assert_array_equal(cm, mtm.confusion_matrix(Y_TRUE, Y_PRED) * 2.0**62)
    assert (cm >= 0).all()  # scikit-learn's int64 cells wrap around to negative counts


def test_small_integer_weights_keep_integer_counts():
    w = np.array([3, 1, 1, 1, 1], dtype=np.int8)
    assert mtm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w).dtype == np.int64


@pytest.mark.parametrize("name", RATES + ["f1_score", "confusion_matrix"])
def test_float_weights_whose_sum_overflows_are_refused(name):
    # 5 x 1e308 is inf: balanced accuracy was 0.5 (scikit-learn 0.667; the true value 0.833).
    with pytest.raises(ValueError, match="sample_weight sums to more than the largest float64"):
        getattr(mtm, name)(Y_TRUE, Y_PRED, sample_weight=np.full(5, 1e308))
