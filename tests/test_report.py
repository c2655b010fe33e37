"""``mltutor.report.evaluate``: point estimates against scikit-learn, intervals against
``mltutor.stats.bootstrap_ci``, calibration against ``mltutor.calibration``, text and plots."""

from __future__ import annotations

import dataclasses
import doctest

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn import metrics as skm

from mltutor import report as report_module
from mltutor.calibration import expected_calibration_error, softmax
from mltutor.report import EvaluationReport, MetricInterval, evaluate
from mltutor.stats import bootstrap_ci

SKLEARN_HEADLINE = {
    "accuracy": skm.accuracy_score,
    "balanced_accuracy": skm.balanced_accuracy_score,
    "macro_f1": lambda t, p: skm.f1_score(t, p, average="macro", zero_division=0),
    "weighted_f1": lambda t, p: skm.f1_score(t, p, average="weighted", zero_division=0),
}


def make(n=400, k=6, seed=0, strength=1.5, drop_class=None):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    if drop_class is not None:
        y = np.where(y == drop_class, (drop_class + 1) % k, y)
    logits = rng.normal(size=(n, k)) + strength * np.eye(k)[y]
    return y, logits


@pytest.mark.parametrize("seed, k, drop", [(0, 6, None), (1, 3, None), (2, 10, 4), (3, 2, None)])
def test_point_estimates_match_sklearn(seed, k, drop):
    y, z = make(k=k, seed=seed, drop_class=drop)
    if drop is not None:
        z[:, drop] -= 10.0  # a class that is neither true nor predicted
    pred = z.argmax(axis=1)
    r = evaluate(y, z, n_resamples=20)
    for key, fn in SKLEARN_HEADLINE.items():
        assert getattr(r, key).estimate == pytest.approx(fn(y, pred), abs=1e-12), key
    np.testing.assert_array_equal(
        r.confusion_matrix, skm.confusion_matrix(y, pred, labels=range(k))
    )
    assert r.majority_baseline == pytest.approx(np.bincount(y).max() / y.size)


def test_per_class_table_matches_sklearn_and_is_sorted():
    y, z = make(k=8, seed=4, strength=1.0)
    r = evaluate(y, z, n_resamples=10)
    p, rec, f1, s = skm.precision_recall_fscore_support(
        y, z.argmax(1), labels=range(8), zero_division=0
    )
    arrays = r.per_class_arrays()
    np.testing.assert_allclose(arrays["precision"], p, atol=1e-12)
    np.testing.assert_allclose(arrays["recall"], rec, atol=1e-12)
    np.testing.assert_allclose(arrays["f1"], f1, atol=1e-12)
    np.testing.assert_array_equal(arrays["support"], s)
    f1_sorted = [row.f1 for row in r.per_class]
    assert f1_sorted == sorted(f1_sorted) and len(r.per_class) == 8
    assert [row.name for row in r.per_class] == [str(row.index) for row in r.per_class]


def test_intervals_equal_bootstrap_ci():
    y, z = make(n=300, k=5, seed=5)
    pred = z.argmax(axis=1)
    r = evaluate(y, z, n_resamples=300, random_state=11, confidence_level=0.9)
    for key, fn in SKLEARN_HEADLINE.items():
        ref = bootstrap_ci(
            fn,
            y,
            pred,
            n_resamples=300,
            random_state=11,
            confidence_level=0.9,
            skip_single_class=False,
        )
        got = getattr(r, key)
        assert isinstance(got, MetricInterval)
        assert got.low == pytest.approx(ref.low, abs=1e-12), key
        assert got.high == pytest.approx(ref.high, abs=1e-12), key
        assert got.low <= got.estimate <= got.high


def test_confusions():
    y = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2])
    pred = np.array([0, 1, 1, 2, 1, 0, 0, 2, 2, 1, 2, 2])
    r = evaluate(y, np.eye(3)[pred], class_names=["a", "b", "c"], n_resamples=10)
    # counts: a->b 2, b->a 2, a->c 1, c->b 1; ties by (true, predicted) index
    assert [(c.true_name, c.predicted_name, c.count) for c in r.top_confusions] == [
        ("a", "b", 2),
        ("b", "a", 2),
        ("a", "c", 1),
        ("c", "b", 1),
    ]
    assert r.top_confusions[0].fraction_of_true == pytest.approx(0.5)
    assert (r.top_confusions[1].true, r.top_confusions[1].predicted) == (1, 0)
    assert len(evaluate(y, np.eye(3)[pred], top_confusions=2, n_resamples=5).top_confusions) == 2
    assert evaluate(y, np.eye(3)[pred], top_confusions=0, n_resamples=5).top_confusions == ()
    perfect = evaluate(y, np.eye(3)[y], n_resamples=5)
    assert perfect.top_confusions == () and "every prediction is right" in str(perfect)


def test_calibration_from_logits_and_from_probabilities():
    y, z = make(n=500, k=4, seed=6)
    probs = softmax(z, axis=1)
    r_logits = evaluate(y, z, n_resamples=10)
    r_probs = evaluate(y, probs, n_resamples=10)
    ece = expected_calibration_error(y, probs, n_bins=15)
    assert r_logits.ece == pytest.approx(ece, abs=1e-12)
    assert r_probs.ece == pytest.approx(ece, abs=1e-12)
    nll = skm.log_loss(y, probs, labels=range(4))
    assert r_logits.nll == pytest.approx(nll, abs=1e-9)
    assert r_probs.nll == pytest.approx(nll, abs=1e-9)
    assert r_logits.mean_confidence == pytest.approx(probs.max(axis=1).mean())
    assert evaluate(y, z, n_resamples=10, n_bins=5).ece == pytest.approx(
        expected_calibration_error(y, probs, n_bins=5), abs=1e-12
    )
    # logits=True forces a softmax even on rows that look like probabilities
    forced = evaluate(y, probs, logits=True, n_resamples=10)
    np.testing.assert_allclose(forced.probabilities, softmax(probs, axis=1))


def test_predicted_labels_only():
    y, z = make(k=4, seed=7)
    r = evaluate(y, z.argmax(axis=1), class_names=list("abcd"), n_resamples=20)
    assert r.ece is None and r.nll is None and r.probabilities is None
    assert r.accuracy.estimate == pytest.approx(skm.accuracy_score(y, z.argmax(1)))
    assert "not available" in str(r)
    fig = r.plot()
    assert len([ax for ax in fig.axes if ax.get_title()]) == 1
    plt.close(fig)


def test_text_is_deterministic_and_seeded():
    y, z = make(seed=8)
    a, b = evaluate(y, z, n_resamples=200), evaluate(y, z, n_resamples=200)
    assert str(a) == str(b) and a._repr_markdown_() == b._repr_markdown_()
    c = evaluate(y, z, n_resamples=200, random_state=1)
    assert (c.accuracy.low, c.accuracy.high) != (a.accuracy.low, a.accuracy.high)
    text = a.to_text(n_classes=3)
    assert "Worst 3 classes by F1" in text and "accuracy" in text and "ECE" in text
    assert "| metric | estimate | interval |" in a._repr_markdown_()


def test_report_is_frozen_and_read_only():
    y, z = make(seed=9)
    r = evaluate(y, z, n_resamples=10)
    assert isinstance(r, EvaluationReport)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.ece = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        r.confusion_matrix[0, 0] = 5
    assert list(r.metrics()) == ["accuracy", "balanced_accuracy", "macro_f1", "weighted_f1"]


def test_plot_has_heatmap_and_reliability():
    y, z = make(k=12, seed=10)
    r = evaluate(y, z, class_names=[f"class{i}" for i in range(12)], n_resamples=10)
    fig = r.plot()
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles == [
        "Confusion matrix, 12 classes (log colour scale)",
        "Reliability diagram (top label)",
    ]
    for ax in fig.axes:
        if ax.get_title():
            assert ax.get_xlabel() and ax.get_ylabel()
    plt.close(fig)


@pytest.mark.parametrize(
    "y, scores, kwargs, error, fragment",
    [
        ([0, 1], np.zeros((3, 2)), {}, ValueError, "2 samples but"),
        ([0, 1], np.zeros((2, 2, 1)), {}, ValueError, "must have shape"),
        ([0, 1], [[0.0, np.nan], [1.0, 0.0]], {}, ValueError, "NaN or infinite"),
        ([0, 2], np.zeros((2, 2)), {}, ValueError, "only 2 classes"),
        ([0, -1], np.zeros((2, 2)), {}, ValueError, "found -1"),
        ([0, 1], np.zeros((2, 1)), {}, ValueError, "at least 2 classes"),
        ([0.5, 1], np.zeros((2, 2)), {}, TypeError, "integer class indices"),
        (["a", "b"], np.zeros((2, 2)), {}, TypeError, "integer class indices"),
        ([], np.zeros((0, 2)), {}, ValueError, "empty"),
        ([[0, 1]], np.zeros((1, 2)), {}, ValueError, "1-D"),
        ([0, 1], np.zeros((2, 2)), dict(class_names=["a"]), ValueError, "1 entries"),
        ([0, 1], np.zeros((2, 2)), dict(class_names="ab"), TypeError, "single string"),
        ([0, 1], np.zeros((2, 2)), dict(class_names=["a", "a"]), ValueError, "unique"),
        (
            [0, 1],
            np.array([[2.0, -1.0], [0.0, 1.0]]),
            dict(logits=False),
            ValueError,
            "not probabilities",
        ),
        ([0, 1], np.zeros((2, 2)), dict(logits="yes"), ValueError, "logits must be"),
        ([0, 1], np.zeros((2, 2)), dict(n_resamples=0), ValueError, "n_resamples"),
        ([0, 1], np.zeros((2, 2)), dict(n_resamples=10.0), TypeError, "n_resamples"),
        ([0, 1], np.zeros((2, 2)), dict(top_confusions=-1), ValueError, "top_confusions"),
        ([0, 1], [[True, False], [False, True]], {}, TypeError, "must be numbers"),
        ([0, 1], [0, 3], dict(class_names=["a", "b"]), ValueError, "outside the 2 class_names"),
    ],
)
def test_input_errors(y, scores, kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        evaluate(y, scores, **kwargs)


def test_module_doctests():
    result = doctest.testmod(report_module)
    assert result.attempted > 0 and result.failed == 0


def test_groups_give_the_class_stratified_group_bootstrap():
    y, z = make(k=4, seed=5)
    groups = np.arange(y.size) // 6 * 4 + y  # about 6 samples a group, one class each
    r = evaluate(y, z, n_resamples=200, random_state=3, groups=groups)
    pred = z.argmax(axis=1)
    ref = bootstrap_ci(
        lambda t, p: np.array([np.mean(t == p)]),
        y,
        pred,
        n_resamples=200,
        random_state=3,
        groups=groups,
        strata=y,
        skip_single_class=False,
    )
    assert (r.accuracy.low, r.accuracy.high) == (float(ref.low[0]), float(ref.high[0]))
    assert r.grouped and "group bootstrap intervals" in r.to_text()
    plain = evaluate(y, z, n_resamples=200, random_state=3)
    assert not plain.grouped and "group bootstrap" not in plain.to_text()
    assert r.accuracy.estimate == plain.accuracy.estimate


def test_groups_must_match_the_samples_and_not_mix_classes():
    y = np.array([0, 0, 1, 1])
    z = np.eye(2)[y]
    with pytest.raises(ValueError, match=r"groups must have one id per sample, shape \(4,\)"):
        evaluate(y, z, groups=[1, 1, 2])
    with pytest.raises(ValueError, match="groups must not mix classes"):
        evaluate(y, z, groups=[1, 2, 2, 3])
