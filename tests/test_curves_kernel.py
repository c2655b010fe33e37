"""Kernel 2 (mltutor.curves.binary_counts) against scikit-learn's confusion_matrix_at_thresholds.

scikit-learn 1.8 made its private ``_binary_clf_curve`` public as
``confusion_matrix_at_thresholds`` (returning ``tns, fps, fns, tps, thresholds``); the kernel must
give the same ``fps, tps, thresholds`` on every input, with ties, weights (zeros included) and every
``pos_label`` convention, or raise the same kind of error.

``scored_problems`` is also used by tests/test_thresholds.py.
"""

from __future__ import annotations

import doctest
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from _strategies import CASES, PROPERTY, assert_parity, run, same_error_type
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix_at_thresholds

import mltutor.curves
from mltutor.curves import BinaryCounts, binary_counts

# --------------------------------------------------------------------------------------------
# A strategy for scored binary problems
# --------------------------------------------------------------------------------------------

_LABELS = {  # label kind -> (negative, positive) values; pos_label choices
    "01": (0, 1),
    "-11": (-1, 1),
    "bool": (False, True),
    "float01": (0.0, 1.0),
    "str": ("ham", "spam"),
    "int23": (2, 3),
}


@dataclass
class Scored:
    """A drawn problem: labels, scores, optional weights and the ``pos_label`` to pass."""

    y_true: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None
    pos_label: Any
    score_kind: str

    @property
    def is_positive(self) -> np.ndarray:
        pos = 1 if self.pos_label is None else self.pos_label
        if isinstance(pos, str) != (self.y_true.dtype.kind == "U"):
            return np.zeros(self.y_true.shape[0], dtype=bool)
        return np.asarray(self.y_true == pos, dtype=bool)

    def kwargs(self) -> dict:
        return {"pos_label": self.pos_label, "sample_weight": self.sample_weight}


def _scores(rng: np.random.Generator, kind: str, n: int, is_pos: np.ndarray) -> np.ndarray:
    if kind == "ties":  # a few distinct values: many ties
        return rng.integers(0, 4, n) / 4.0
    if kind == "int":
        return rng.integers(-3, 4, n)
    if kind == "float32":
        return (rng.random(n) * 4).round(1).astype(np.float32)
    if kind == "constant":
        return np.full(n, 0.7)
    if kind == "separable":  # every positive above every negative
        return np.where(is_pos, 0.6 + 0.4 * rng.random(n), 0.5 * rng.random(n))
    if kind == "reversed":  # every positive below every negative
        return np.where(is_pos, 0.4 * rng.random(n), 0.5 + 0.5 * rng.random(n))
    if kind == "informative":  # overlapping classes, no ties
        return rng.normal(is_pos.astype(float), 1.0)
    return rng.random(n)  # 'continuous'


@st.composite
def scored_problems(draw: Any, weights: bool = True, max_n: int = 30) -> Scored:
    """1..max_n samples; binary labels of six kinds (or multiclass with pos_label, or one class
    only), ``pos_label`` None / positive / negative / absent; scores with many ties, ints, float32,
    constant, separable, reversed or continuous; weights none, ints, dyadic or floats, with zeros."""
    n = draw(st.integers(1, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(list(_LABELS) + ["multiclass", "one_class"]))
    rate = draw(st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]))
    if kind == "multiclass":
        y_true = rng.integers(0, 4, n)
        pos_label = draw(st.sampled_from([0, 1, 3, 7]))  # 7 is absent
    elif kind == "one_class":
        value = draw(st.sampled_from([0, 1, -1]))
        y_true = np.full(n, value)
        pos_label = draw(st.sampled_from([None, 1, 0]))
    else:
        neg, pos = _LABELS[kind]
        y_true = np.where(rng.random(n) < rate, pos, neg)
        if kind == "str":
            y_true = y_true.astype(str)
        options = [pos, neg] + ([None] if kind in ("01", "-11", "bool", "float01") else [])
        options += ["absent"] if kind == "str" else [5]
        pos_label = draw(st.sampled_from(options))
    score_kind = draw(
        st.sampled_from(
            [
                "ties",
                "ties",
                "int",
                "float32",
                "constant",
                "separable",
                "reversed",
                "informative",
                "continuous",
            ]
        )
    )
    is_pos = Scored(y_true, np.zeros(n), None, pos_label, "").is_positive
    y_score = _scores(rng, score_kind, n, is_pos)
    w = None
    choice = (
        draw(st.sampled_from(["none", "none", "int", "dyadic", "float"])) if weights else "none"
    )
    if choice != "none":
        zeros = rng.random(n) < draw(st.sampled_from([0.0, 0.3]))
        if choice == "int":
            w = rng.integers(1, 4, n)
        elif choice == "dyadic":
            w = rng.choice([0.25, 0.5, 1.0, 3.0], n)
        else:
            w = rng.uniform(0.01, 10.0, n)
        w = np.where(zeros, 0, w).astype(w.dtype)
        if not w.any():
            w[0] = 1
    return Scored(y_true, y_score, w, pos_label, score_kind)


# --------------------------------------------------------------------------------------------
# Parity with scikit-learn
# --------------------------------------------------------------------------------------------


def sklearn_counts(y_true: Any, y_score: Any, **kwargs: Any) -> tuple:
    """scikit-learn's kernel, reduced to (fps, tps, thresholds)."""
    _, fps, _, tps, thresholds = confusion_matrix_at_thresholds(y_true, y_score, **kwargs)
    return fps, tps, thresholds


def _ours(y_true: Any, y_score: Any, **kwargs: Any) -> tuple:
    return tuple(binary_counts(y_true, y_score, **kwargs))


@PROPERTY
@given(scored_problems())
def test_binary_counts_matches_sklearn(problem):
    CASES["binary_counts"] += 1
    outcome = assert_parity(
        sklearn_counts, _ours, problem.y_true, problem.y_score, **problem.kwargs()
    )
    if outcome.error is None:
        fps, tps, thresholds = binary_counts(problem.y_true, problem.y_score, **problem.kwargs())
        assert thresholds.dtype == np.asarray(problem.y_score).dtype
        assert np.all(np.diff(thresholds) < 0)  # distinct, decreasing
        if problem.sample_weight is None or problem.sample_weight.dtype.kind == "i":
            assert np.array_equal(fps, outcome.result[0]) and np.array_equal(tps, outcome.result[1])


@PROPERTY
@given(scored_problems())
def test_binary_counts_definition(problem):
    """Independent of scikit-learn: tps/fps are the weighted counts with score >= threshold."""
    CASES["binary_counts (definition)"] += 1
    outcome = run(binary_counts, problem.y_true, problem.y_score, **problem.kwargs())
    if outcome.error is not None:
        return
    fps, tps, thresholds = outcome.result
    w = np.ones(problem.y_true.shape[0]) if problem.sample_weight is None else problem.sample_weight
    scores = np.asarray(problem.y_score)
    above = scores[None, :] >= thresholds[:, None]  # (thresholds, samples): a test-only brute force
    np.testing.assert_allclose(tps, above @ (w * problem.is_positive), rtol=0, atol=1e-12)
    np.testing.assert_allclose(fps, above @ (w * ~problem.is_positive), rtol=0, atol=1e-12)
    assert set(thresholds.tolist()) == set(scores[w != 0].tolist())


# --------------------------------------------------------------------------------------------
# Hand-picked cases
# --------------------------------------------------------------------------------------------


def test_docstring_example_and_ties():
    fps, tps, thresholds = binary_counts([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert thresholds.tolist() == [0.8, 0.4, 0.35, 0.1]
    assert tps.tolist() == [1, 1, 2, 2] and fps.tolist() == [0, 1, 1, 2]
    # a tie between a positive and a negative is one threshold, crossed by both at once
    counts = binary_counts([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    assert isinstance(counts, BinaryCounts)
    assert counts.thresholds.tolist() == [0.9, 0.5, 0.1]
    assert counts.tps.tolist() == [1, 2, 2] and counts.fps.tolist() == [0, 1, 2]


def test_single_score_value_gives_one_threshold():
    fps, tps, thresholds = binary_counts([0, 1, 1, 0, 1], [0.3] * 5)
    assert thresholds.tolist() == [0.3] and tps.tolist() == [3] and fps.tolist() == [2]


@pytest.mark.parametrize("y_true", [[1, 1, 1], [0, 0, 0], [-1, -1]])
def test_one_class_only(y_true):
    ours = binary_counts(y_true, np.linspace(0, 1, len(y_true)))
    ref = sklearn_counts(y_true, np.linspace(0, 1, len(y_true)))
    for a, b in zip(ours, ref):
        np.testing.assert_array_equal(a, b)


def test_zero_weight_scores_are_not_thresholds():
    fps, tps, thresholds = binary_counts([0, 1, 1], [0.9, 0.5, 0.2], sample_weight=[0, 2.0, 1.0])
    assert thresholds.tolist() == [0.5, 0.2] and tps.tolist() == [2, 3] and fps.tolist() == [0, 0]


def test_string_labels_and_multiclass_need_pos_label():
    assert binary_counts(["ham", "spam", "spam"], [1, 2, 3], pos_label="spam").tps.tolist() == [
        1,
        2,
        2,
    ]
    assert binary_counts([0, 1, 2], [1, 2, 3], pos_label=2).tps.tolist() == [1, 1, 1]
    assert binary_counts([0, 1, 2], [1, 2, 3], pos_label=0).tps.tolist() == [0, 0, 1]
    with pytest.raises(ValueError, match="pos_label"):
        binary_counts(["ham", "spam"], [1, 2])
    with pytest.raises(ValueError, match="multiclass"):
        binary_counts([0, 1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match=r"\{2, 3\}"):
        binary_counts([2, 3], [1, 2])


def test_column_vectors_are_accepted():
    ours = binary_counts(np.array([[0], [1], [1]]), np.array([[0.2], [0.4], [0.1]]))
    assert ours.tps.tolist() == [1, 1, 2]


BAD_INPUTS = [
    ("NaN score", [0, 1], [0.1, np.nan], {}, ValueError, "NaN"),
    ("inf score", [0, 1], [0.1, np.inf], {}, ValueError, "infinity"),
    ("lengths", [0, 1, 1], [0.1, 0.2], {}, ValueError, "inconsistent"),
    ("empty", [], [], {}, ValueError, "empty"),
    ("continuous y_true", [0.5, 1.0], [0.1, 0.2], {"pos_label": 1}, ValueError, "continuous"),
    ("2-D y_score", [0, 1], [[0.1, 0.2], [0.3, 0.4]], {}, ValueError, "1-D"),
    ("string scores", [0, 1], ["a", "b"], {}, TypeError, "real numbers"),
    ("NaN weight", [0, 1], [0.1, 0.2], {"sample_weight": [1, np.nan]}, ValueError, "NaN"),
    ("zero weights", [0, 1], [0.1, 0.2], {"sample_weight": [0, 0]}, ValueError, "non-zero"),
    ("weight length", [0, 1], [0.1, 0.2], {"sample_weight": [1, 1, 1]}, ValueError, "weights"),
    ("pos_label list", [0, 1], [0.1, 0.2], {"pos_label": [1]}, TypeError, "pos_label"),
]


@pytest.mark.parametrize(
    "y_true, y_score, kwargs, error, match",
    [case[1:] for case in BAD_INPUTS],
    ids=[case[0] for case in BAD_INPUTS],
)
def test_bad_input_is_refused_like_sklearn(y_true, y_score, kwargs, error, match):
    with pytest.raises(error, match=match):
        binary_counts(y_true, y_score, **kwargs)
    ref = run(sklearn_counts, y_true, y_score, **kwargs)
    assert ref.error is not None, "scikit-learn accepts this input"
    if type(ref.error).__name__ != "UFuncTypeError" and "broadcast" not in str(ref.error):
        assert same_error_type(ref.error, error("x")), ref.error


def test_doctests():
    assert doctest.testmod(mltutor.curves).failed == 0
