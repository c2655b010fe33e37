"""Hostile label inputs that scikit-learn accepts with a silently wrong (or no) number.

Found by differential fuzzing against scikit-learn 1.9 (issue 12); each test fails without its fix.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import PROPERTY
from hypothesis import given
from hypothesis import strategies as st

import mltutor.metrics as mtm


def test_sklearn_reads_a_mixed_list_as_strings():
    # The premise: NumPy turns the int 1 into the string "1", which then matches a predicted "1".
    assert skm.accuracy_score([1, "a"], ["1", "a"]) == 1.0


@pytest.mark.parametrize("where", ["y_true", "y_pred"])
@pytest.mark.parametrize("name", ["accuracy_score", "f1_score", "confusion_matrix", "hamming_loss"])
def test_mixed_str_and_number_lists_are_refused(name, where):
    mixed, clean = [1, "a", "b"], ["1", "a", "b"]
    args = (mixed, clean) if where == "y_true" else (clean, mixed)
    kwargs = {"average": "macro"} if name == "f1_score" else {}
    with pytest.raises(TypeError, match=f"{where} mixes label types"):
        getattr(mtm, name)(*args, **kwargs)


def test_mixed_column_vector_list_is_refused():
    with pytest.raises(TypeError, match="y_true mixes label types"):
        mtm.accuracy_score([[1], ["a"]], [["1"], ["a"]])


@given(st.lists(st.sampled_from(["a", "b", "cat"]), min_size=1, max_size=20), st.data())
@PROPERTY
def test_lists_of_strings_still_match_sklearn(y_true, data):
    y_pred = data.draw(
        st.lists(st.sampled_from(["a", "b", "dog"]), min_size=len(y_true), max_size=len(y_true))
    )
    assert mtm.accuracy_score(y_true, y_pred) == skm.accuracy_score(y_true, y_pred)
    np.testing.assert_array_equal(
        mtm.confusion_matrix(y_true, y_pred), skm.confusion_matrix(y_true, y_pred)
    )


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1], ["a", "a"]])
@pytest.mark.parametrize("name", ["precision_score", "recall_score", "f1_score", "jaccard_score"])
def test_pos_label_none_with_binary_average_is_refused(name, y):
    # scikit-learn fails with "'<' not supported between NoneType"; mltutor returned 0.0 (a
    # label that is never there), even when every prediction is right.
    with pytest.raises(TypeError):
        getattr(skm, name)(y, y, pos_label=None)
    with pytest.raises(ValueError, match="pos_label=None"):
        getattr(mtm, name)(y, y, pos_label=None)


def test_pos_label_none_is_still_ignored_by_other_averages():
    y = [0, 1, 2, 2]
    assert mtm.f1_score(y, y, average="macro", pos_label=None) == 1.0


BIG = np.array([0, 1, 2, 1], dtype=np.uint64) + np.uint64(2**63)


@pytest.mark.parametrize(
    "name", ["confusion_matrix", "f1_score", "accuracy_score", "multilabel_confusion_matrix"]
)
@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        (BIG, np.array([0, 1, 2, 1])),  # uint64 >= 2**63 meets int64 as float64
        (np.array([0, 1, 2, 1]), BIG),
        (np.array([2**53 + 1, 2**53 + 2, 3, 3]), np.array([2.0**53, 2.0**53, 3.0, 3.0])),
    ],
    ids=["uint64-big-vs-int64", "int64-vs-uint64-big", "int64-beyond-2**53-vs-float"],
)
def test_labels_that_collapse_in_float64_are_refused(name, y_true, y_pred):
    # Before: 2**63, 2**63 + 1 and 2**63 + 2 became one float64 class (a 4 x 4 matrix for 6
    # distinct labels); scikit-learn miscounts too.
    kwargs = {"average": "macro"} if name == "f1_score" else {}
    with pytest.raises(ValueError, match="2\\*\\*53"):
        getattr(mtm, name)(y_true, y_pred, **kwargs)


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        (BIG, BIG[::-1].copy()),  # one dtype: exact
        (np.array([0, 1, 2**53], dtype=np.int64), np.array([0.0, 1.0, 2.0**53])),
        (np.array([3, 1, 2], dtype=np.uint64), np.array([1, 2, 2], dtype=np.int8)),
    ],
)
def test_labels_exact_in_their_common_dtype_still_match_sklearn(y_true, y_pred):
    np.testing.assert_array_equal(
        mtm.confusion_matrix(y_true, y_pred), skm.confusion_matrix(y_true, y_pred)
    )
