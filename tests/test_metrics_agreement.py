"""MCC, Cohen's kappa, likelihood ratios and zero-one loss against scikit-learn 1.9.

Property tests draw the problems of ``_strategies.problems`` (ints, wide ints, strings, bools,
whole floats, indicator matrices; absent and one-sided classes; perfect, all-wrong and constant
predictions) and assert the same result (1e-12), the same warnings or the same exception type.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY, assert_parity, labels_for, problems, run, weights_for
from hypothesis import given
from hypothesis import strategies as st

import mltutor.metrics as mtm

NEW = ["matthews_corrcoef", "cohen_kappa_score", "class_likelihood_ratios", "zero_one_loss"]


@pytest.mark.parametrize("name", NEW)
def test_signature_matches_sklearn(name):
    ours, theirs = inspect.signature(getattr(mtm, name)), inspect.signature(getattr(skm, name))
    described = lambda sig: [(p.name, p.kind, repr(p.default)) for p in sig.parameters.values()]
    assert described(ours) == described(theirs)


def _binary_sometimes(data, problem):
    """Half of the 1-D problems are folded onto two of their labels (the binary metrics need
    them); the rest stay as drawn (multiclass, one class, indicator matrices)."""
    if problem.multilabel or len(problem.pool) < 2 or not data.draw(st.booleans()):
        return problem.y_true, problem.y_pred
    first, second = problem.y_true.ravel()[0], problem.pool[1]
    fold = lambda y: np.where(y == first, first, np.asarray(second, dtype=y.dtype))
    return fold(problem.y_true), fold(problem.y_pred)


@PROPERTY
@given(data=st.data(), problem=problems())
def test_matthews_corrcoef(data, problem):
    CASES["matthews_corrcoef"] += 1
    y_true, y_pred = _binary_sometimes(data, problem)
    assert_parity(
        skm.matthews_corrcoef,
        mtm.matthews_corrcoef,
        y_true,
        y_pred,
        sample_weight=data.draw(weights_for(problem)),
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_cohen_kappa_score(data, problem):
    CASES["cohen_kappa_score"] += 1
    kwargs = dict(
        labels=data.draw(labels_for(problem)),
        weights=data.draw(st.sampled_from([None, "linear", "quadratic"])),
        sample_weight=data.draw(weights_for(problem)),
        replace_undefined_by=data.draw(st.sampled_from([np.nan, 0.0, -1.0, 0.5, 1.0])),
    )
    assert_parity(
        skm.cohen_kappa_score, mtm.cohen_kappa_score, problem.y_true, problem.y_pred, **kwargs
    )


LR_REPLACE = [
    np.nan,
    1.0,
    {"LR+": 1.0, "LR-": 1.0},
    {"LR+": np.inf, "LR-": 0.0},
    {"LR+": 2.5, "LR-": np.nan},
    {"LR+": 0.5, "LR-": 0.5},
    {"LR+": 1.0},
]


@PROPERTY
@given(data=st.data(), problem=problems())
def test_class_likelihood_ratios(data, problem):
    CASES["class_likelihood_ratios"] += 1
    y_true, y_pred = _binary_sometimes(data, problem)
    labels = data.draw(labels_for(problem))
    if labels is not None and not problem.multilabel:
        labels = labels[:2]
    kwargs = dict(
        labels=labels,
        sample_weight=data.draw(weights_for(problem)),
        replace_undefined_by=data.draw(st.sampled_from(LR_REPLACE)),
    )
    assert_parity(
        skm.class_likelihood_ratios, mtm.class_likelihood_ratios, y_true, y_pred, **kwargs
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_zero_one_loss(data, problem):
    CASES["zero_one_loss"] += 1
    kwargs = dict(normalize=data.draw(st.booleans()), sample_weight=data.draw(weights_for(problem)))
    assert_parity(skm.zero_one_loss, mtm.zero_one_loss, problem.y_true, problem.y_pred, **kwargs)


# --------------------------------------------------------------------------------------------
# Hand-picked cases: the undefined ones, on purpose
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([0, 1, 0, 1], [0, 0, 0, 0]),  # constant prediction: a column sum is everything
        ([1, 1, 1, 1], [0, 1, 0, 1]),  # a single true class
        ([2, 2, 2], [2, 2, 2]),  # one label only: sklearn's single-label warning
    ],
)
def test_mcc_undefined_is_zero_without_undefined_warning(y_true, y_pred):
    outcome = assert_parity(skm.matthews_corrcoef, mtm.matthews_corrcoef, y_true, y_pred)
    assert outcome.result == 0.0
    assert not any(name == "UndefinedMetricWarning" for name, _ in outcome.warnings)


def test_kappa_undefined_cases_warn_and_replace():
    # One label in common: chance agreement is already perfect.
    outcome = assert_parity(skm.cohen_kappa_score, mtm.cohen_kappa_score, [1, 1], [1, 1])
    assert np.isnan(outcome.result) and outcome.warnings
    # No sample within labels: replaced by the given value.
    outcome = assert_parity(
        skm.cohen_kappa_score,
        mtm.cohen_kappa_score,
        [0, 1, 1],
        [1, 1, 1],
        labels=[0, 5],
        replace_undefined_by=0.0,
    )
    assert outcome.result == 0.0


def test_kappa_refuses_labels_absent_from_y1():
    with pytest.raises(ValueError, match="present in `y1`"):
        mtm.cohen_kappa_score([0, 1], [2, 2], labels=[2])
    assert_parity(skm.cohen_kappa_score, mtm.cohen_kappa_score, [0, 1], [2, 2], labels=[2])


@pytest.mark.parametrize("bad", ["cubic", 2, ""])
def test_kappa_refuses_unknown_weights(bad):
    with pytest.raises(ValueError, match="weights must be None, 'linear' or 'quadratic'"):
        mtm.cohen_kappa_score([0, 1], [0, 1], weights=bad)


@pytest.mark.parametrize("bad", [1.5, -2, "nan", True])
def test_kappa_refuses_bad_replacement(bad):
    with pytest.raises(ValueError, match="replace_undefined_by"):
        mtm.cohen_kappa_score([0, 1], [0, 1], replace_undefined_by=bad)


@pytest.mark.parametrize(
    "y_true, y_pred",
    [
        ([0, 1, 0, 1], [0, 1, 0, 1]),  # fp == 0 and fn == 0
        ([0, 0, 0, 0], [0, 1, 0, 1]),  # no positive sample
        ([1, 1, 1, 1], [0, 1, 0, 1]),  # tn == 0 and fp == 0
        ([0, 1, 0, 1], [0, 0, 0, 0]),  # nothing predicted positive
    ],
)
@pytest.mark.parametrize("replace", LR_REPLACE[:4])
def test_likelihood_ratio_undefined_cases(y_true, y_pred, replace):
    outcome = assert_parity(
        skm.class_likelihood_ratios,
        mtm.class_likelihood_ratios,
        y_true,
        y_pred,
        replace_undefined_by=replace,
    )
    assert outcome.warnings


def test_likelihood_ratios_refuse_multiclass_and_bad_dicts():
    with pytest.raises(ValueError, match="only supports binary classification"):
        mtm.class_likelihood_ratios([0, 1, 2], [0, 1, 2])
    with pytest.raises(ValueError, match="needs to be in the form"):
        mtm.class_likelihood_ratios([0, 1], [0, 1], replace_undefined_by={"LR+": 0.5, "LR-": 0.1})
    with pytest.raises(ValueError, match="replace_undefined_by"):
        mtm.class_likelihood_ratios([0, 1], [0, 1], replace_undefined_by=0.0)


def test_refusals_name_the_argument():
    assert run(mtm.matthews_corrcoef, np.eye(3), np.eye(3)).error is not None
    with pytest.raises(ValueError, match="multilabel-indicator is not supported"):
        mtm.matthews_corrcoef(np.eye(3, dtype=int), np.eye(3, dtype=int))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        mtm.zero_one_loss([0, 1, 1], [0, 1])
    with pytest.raises(TypeError, match="normalize"):
        mtm.zero_one_loss([0, 1], [0, 1], normalize="yes")


def test_large_class_counts_use_marginals():
    """300 classes (more than the dense-table limit): same numbers as scikit-learn."""
    rng = np.random.default_rng(3)
    t = rng.integers(0, 300, 5000)
    p = np.where(rng.random(5000) < 0.6, t, rng.integers(0, 300, 5000))
    w = rng.uniform(0, 2, 5000)
    for fn in (skm.matthews_corrcoef, skm.cohen_kappa_score):
        ours = getattr(mtm, fn.__name__)
        assert_parity(fn, ours, t, p, sample_weight=w)
