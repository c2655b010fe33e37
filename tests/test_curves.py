"""ROC / PR / DET curves, auc, ROC AUC and average precision against scikit-learn 1.9.

Every public function gets >= 1,000 random cases (hypothesis, derandomized) compared with
scikit-learn by ``assert_parity``: same exception type, or the same result (floats to 1e-12) and the
same user-facing warnings.  The binary problems come from ``scored_problems`` (ties, one class,
constant scores, every ``pos_label`` convention, weights with zeros); multilabel and multiclass
problems are drawn below.
"""

from __future__ import annotations

import doctest
import warnings
from typing import Any

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY, assert_parity, run
from hypothesis import given
from hypothesis import strategies as st
from test_curves_kernel import scored_problems

import mltutor.curves
import mltutor.metrics as mm

# --------------------------------------------------------------------------------------------
# Binary curves and scores
# --------------------------------------------------------------------------------------------


@PROPERTY
@given(scored_problems(), st.booleans())
def test_roc_curve_matches_sklearn(problem, drop):
    CASES["roc_curve"] += 1
    assert_parity(
        skm.roc_curve,
        mm.roc_curve,
        problem.y_true,
        problem.y_score,
        drop_intermediate=drop,
        **problem.kwargs(),
    )


@PROPERTY
@given(scored_problems(), st.booleans())
def test_precision_recall_curve_matches_sklearn(problem, drop):
    CASES["precision_recall_curve"] += 1
    assert_parity(
        skm.precision_recall_curve,
        mm.precision_recall_curve,
        problem.y_true,
        problem.y_score,
        drop_intermediate=drop,
        **problem.kwargs(),
    )


@PROPERTY
@given(scored_problems(), st.booleans())
def test_det_curve_matches_sklearn(problem, drop):
    CASES["det_curve"] += 1
    with np.errstate(divide="ignore", invalid="ignore"):  # sklearn divides by an emptied class
        assert_parity(
            skm.det_curve,
            mm.det_curve,
            problem.y_true,
            problem.y_score,
            drop_intermediate=drop,
            **problem.kwargs(),
        )


@PROPERTY
@given(scored_problems(), st.sampled_from([None, None, 1.0, 0.5, 0.25, 0.9, 1e-3]))
def test_binary_roc_auc_score_matches_sklearn(problem, max_fpr):
    """Binary ROC AUC: the larger label is positive (``pos_label`` is not an argument)."""
    CASES["roc_auc_score (binary)"] += 1
    assert_parity(
        skm.roc_auc_score,
        mm.roc_auc_score,
        problem.y_true,
        problem.y_score,
        sample_weight=problem.sample_weight,
        max_fpr=max_fpr,
    )


@PROPERTY
@given(scored_problems())
def test_binary_roc_auc_is_the_mann_whitney_probability(problem):
    """Independent of scikit-learn: P(score_pos > score_neg) + P(tie) / 2 over weighted pairs."""
    CASES["roc_auc_score (Mann-Whitney)"] += 1
    y = np.asarray(problem.y_true)
    if y.dtype.kind == "U" or np.unique(y).shape[0] != 2:
        return
    pos = y == np.unique(y)[-1]
    w = (
        np.ones(y.shape[0])
        if problem.sample_weight is None
        else problem.sample_weight.astype(float)
    )
    s = np.asarray(problem.y_score, dtype=np.float64)
    wp, wn = w * pos, w * ~pos
    if wp.sum() == 0 or wn.sum() == 0:
        return
    pairs = np.outer(wp, wn)
    wins = (s[:, None] > s[None, :]) + 0.5 * (s[:, None] == s[None, :])
    expected = (pairs * wins).sum() / pairs.sum()
    assert (
        abs(mm.roc_auc_score(y, problem.y_score, sample_weight=problem.sample_weight) - expected)
        < 1e-12
    )


@PROPERTY
@given(scored_problems())
def test_binary_average_precision_matches_sklearn(problem):
    CASES["average_precision_score (binary)"] += 1
    assert_parity(
        skm.average_precision_score,
        mm.average_precision_score,
        problem.y_true,
        problem.y_score,
        **problem.kwargs(),
    )


@st.composite
def xy_points(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    n = draw(st.integers(0, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    mode = draw(st.sampled_from(["increasing", "decreasing", "ties", "random", "int", "column"]))
    x = np.sort(rng.integers(0, 5, n) / 4) if mode in ("ties", "int") else np.sort(rng.random(n))
    if mode == "decreasing":
        x = x[::-1]
    elif mode == "random":
        x = rng.random(n)
    elif mode == "int":
        x = (x * 4).astype(np.int64)
    y = rng.random(n) if draw(st.booleans()) else rng.integers(-2, 3, n)
    if mode == "column":
        x, y = x.reshape(-1, 1), y.reshape(-1, 1)
    if draw(st.integers(0, 9)) == 0:
        y = y[:-1]  # inconsistent lengths
    return x, y


@PROPERTY
@given(xy_points())
def test_auc_matches_sklearn(points):
    CASES["auc"] += 1
    assert_parity(skm.auc, mm.auc, *points)


# --------------------------------------------------------------------------------------------
# Multilabel indicator matrices
# --------------------------------------------------------------------------------------------


@st.composite
def indicator_problems(draw: Any) -> dict:
    """Indicator (n, k) with {0, 1}, bool, float or {-1, 1} values, empty or full columns and
    rows; tied / constant / continuous scores; weights (with zeros) or none."""
    n = draw(st.integers(1, 25))
    k = draw(st.integers(2, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.5, 0.5, 0.3, 0.7, 0.1, 0.9, 0.0, 1.0, "mixed"]))
    if density == "mixed":  # columns of different prevalence, some empty
        y = rng.random((n, k)) < rng.choice([0.0, 0.3, 0.7, 1.0], k)
    else:
        y = rng.random((n, k)) < density
    values = draw(st.sampled_from(["int", "bool", "float", "pm1"]))
    y = {
        "int": y.astype(np.int64),
        "bool": y,
        "float": y.astype(np.float64),
        "pm1": np.where(y, 1, -1),
    }[values]
    scores = draw(st.sampled_from(["ties", "continuous", "constant", "int", "informative"]))
    if scores == "ties":
        s = rng.integers(0, 4, (n, k)) / 4
    elif scores == "constant":
        s = np.full((n, k), 0.3)
    elif scores == "int":
        s = rng.integers(-2, 3, (n, k))
    elif scores == "informative":
        s = rng.normal(y.astype(float), 1.0)
    else:
        s = rng.random((n, k))
    w = None
    choice = draw(st.sampled_from(["none", "none", "int", "dyadic", "float"]))
    if choice != "none":
        w = {
            "int": rng.integers(1, 4, n),
            "dyadic": rng.choice([0.25, 0.5, 1.0, 3.0], n),
            "float": rng.uniform(0.01, 10.0, n),
        }[choice]
        w = np.where(rng.random(n) < 0.3, 0, w).astype(w.dtype)
        if not w.any():
            w[0] = 1
    return {"y_true": y, "y_score": s, "sample_weight": w}


@PROPERTY
@given(
    indicator_problems(),
    st.sampled_from(["micro", "macro", "weighted", "samples", None]),
    st.sampled_from([None, None, 0.5, 0.2]),
)
def test_multilabel_roc_auc_matches_sklearn(problem, average, max_fpr):
    CASES["roc_auc_score (multilabel)"] += 1
    assert_parity(
        skm.roc_auc_score,
        mm.roc_auc_score,
        problem["y_true"],
        problem["y_score"],
        sample_weight=problem["sample_weight"],
        average=average,
        max_fpr=max_fpr,
    )


@PROPERTY
@given(
    indicator_problems(),
    st.sampled_from(["micro", "macro", "weighted", "samples", None]),
    st.sampled_from([1, 1, True, 1.0, 0, "1"]),
)
def test_multilabel_average_precision_matches_sklearn(problem, average, pos_label):
    CASES["average_precision_score (multilabel)"] += 1
    assert_parity(
        skm.average_precision_score,
        mm.average_precision_score,
        problem["y_true"],
        problem["y_score"],
        sample_weight=problem["sample_weight"],
        average=average,
        pos_label=pos_label,
    )


# --------------------------------------------------------------------------------------------
# Multiclass: one-vs-rest and one-vs-one
# --------------------------------------------------------------------------------------------


@st.composite
def multiclass_problems(draw: Any) -> dict:
    """3-5 classes (ints or strings), some absent from y_true (then ``labels`` names them);
    probability rows (Dirichlet, tied or one-hot); ``multi_class`` and ``average`` valid for each
    other, weights for one-vs-rest only.  One case in ten draws freely among the invalid
    combinations too (rows not summing to 1, unsorted labels, weights with 'ovo', ...); every
    error is also checked one by one in ERROR_CASES."""
    n = draw(st.integers(1, 30))
    n_classes = draw(st.integers(3, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    free = draw(st.integers(0, 9)) == 0
    kind = draw(st.sampled_from(["int", "str"]))
    pool = (
        np.array([-2, 0, 3, 7, 11][:n_classes])
        if kind == "int"
        else np.array(["ant", "bee", "cat", "dog", "elk"][:n_classes])
    )
    present = draw(st.sampled_from(["all", "some", "one"]))
    if present == "all":
        idx = (
            np.r_[np.arange(n_classes), rng.integers(0, n_classes, n)][:n]
            if n >= n_classes
            else rng.integers(0, n_classes, n)
        )
        idx = rng.permutation(idx)
    elif present == "some":
        idx = rng.choice(rng.choice(n_classes, 2, replace=False), n)
    else:
        idx = np.full(n, rng.integers(0, n_classes))
    y = pool[idx]
    scores = draw(
        st.sampled_from(["dirichlet", "ties", "onehot"] + (["unnormalised"] if free else []))
    )
    if scores == "dirichlet":
        s = rng.dirichlet(np.ones(n_classes), n)
    elif scores == "ties":
        counts = rng.integers(0, 3, (n, n_classes)) + 0.0
        counts[:, 0] += 1
        s = counts / counts.sum(axis=1, keepdims=True)
    elif scores == "onehot":
        s = np.eye(n_classes)[np.where(rng.random(n) < 0.7, idx, rng.integers(0, n_classes, n))]
    else:
        s = rng.random((n, n_classes))
    all_present = np.unique(idx).shape[0] == n_classes
    label_options = (
        ["pool"] + (["none"] if all_present or free else []) + (["unsorted"] if free else [])
    )
    labels = {"none": None, "pool": pool.tolist(), "unsorted": pool[::-1].tolist()}[
        draw(st.sampled_from(label_options))
    ]
    multi_class = draw(st.sampled_from(["ovr", "ovo"] + (["raise"] if free else [])))
    averages = ["macro", "weighted"] + (["micro", None] if multi_class == "ovr" or free else [])
    average = draw(st.sampled_from(averages + (["samples"] if free else [])))
    w = None
    if (multi_class == "ovr" or free) and draw(st.booleans()):
        w = rng.choice([0.0, 0.5, 1.0, 2.5], n)
        if not w.any():
            w[0] = 1
    return {
        "y_true": y,
        "y_score": s,
        "labels": labels,
        "sample_weight": w,
        "multi_class": multi_class,
        "average": average,
    }


@PROPERTY
@given(multiclass_problems())
def test_multiclass_roc_auc_matches_sklearn(problem):
    CASES["roc_auc_score (multiclass ovr/ovo)"] += 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # sklearn's mean of no class pairs
        assert_parity(
            skm.roc_auc_score,
            mm.roc_auc_score,
            problem["y_true"],
            problem["y_score"],
            multi_class=problem["multi_class"],
            average=problem["average"],
            labels=problem["labels"],
            sample_weight=problem["sample_weight"],
        )


@PROPERTY
@given(multiclass_problems(), st.sampled_from(["macro", "weighted", "micro", None, "samples"]))
def test_multiclass_average_precision_matches_sklearn(problem, average):
    CASES["average_precision_score (multiclass)"] += 1
    s = problem["y_score"]
    n_present = np.unique(problem["y_true"]).shape[0]
    if n_present >= 3:  # one column per present class, as sklearn's one-vs-rest AP expects
        s = s[:, :n_present]
    assert_parity(
        skm.average_precision_score,
        mm.average_precision_score,
        problem["y_true"],
        s,
        average=average,
        sample_weight=problem["sample_weight"],
    )


# --------------------------------------------------------------------------------------------
# Hand-picked cases: warnings, errors, documented numbers
# --------------------------------------------------------------------------------------------


def test_roc_curve_ties_make_one_diagonal_step():
    fpr, tpr, thr = mm.roc_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    assert fpr.tolist() == [0.0, 0.0, 0.5, 1.0] and tpr.tolist() == [0.0, 0.5, 1.0, 1.0]
    assert thr[0] == np.inf


def test_auc_bounds_and_inverted_ranker():
    y = [0, 0, 1, 1]
    assert mm.roc_auc_score(y, [0.1, 0.2, 0.8, 0.9]) == 1.0
    assert mm.roc_auc_score(y, [0.9, 0.8, 0.2, 0.1]) == 0.0  # AUC 0: a perfectly inverted ranker
    assert mm.roc_auc_score(y, [0.5] * 4) == 0.5


def test_mcclish_partial_auc():
    y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.2]
    for max_fpr in (0.1, 0.33, 0.5, 0.99):
        assert mm.roc_auc_score(y, s, max_fpr=max_fpr) == pytest.approx(
            skm.roc_auc_score(y, s, max_fpr=max_fpr), abs=1e-12
        )
    assert mm.roc_auc_score([0, 1], [0.0, 1.0], max_fpr=0.2) == 1.0
    assert mm.roc_auc_score([0, 1], [1.0, 0.0], max_fpr=0.2) == pytest.approx(
        skm.roc_auc_score([0, 1], [1.0, 0.0], max_fpr=0.2), abs=1e-12
    )


WARNING_CASES = [
    ("roc one class", mm.roc_auc_score, skm.roc_auc_score, ([1, 1, 1], [0.2, 0.5, 0.9]), {}),
    ("roc_curve no negatives", mm.roc_curve, skm.roc_curve, ([1, 1], [0.2, 0.5]), {}),
    ("roc_curve no positives", mm.roc_curve, skm.roc_curve, ([0, 0], [0.2, 0.5]), {}),
    (
        "pr no positives",
        mm.precision_recall_curve,
        skm.precision_recall_curve,
        ([0, 0], [0.2, 0.5]),
        {},
    ),
    (
        "ap no positives",
        mm.average_precision_score,
        skm.average_precision_score,
        ([0, 0], [0.2, 0.5]),
        {},
    ),
    (
        "ovr absent class",
        mm.roc_auc_score,
        skm.roc_auc_score,
        ([0, 1, 0, 1], np.full((4, 3), 1 / 3)),
        {"multi_class": "ovr", "labels": [0, 1, 2]},
    ),
    (
        "multilabel empty column",
        mm.roc_auc_score,
        skm.roc_auc_score,
        ([[0, 1], [1, 1], [0, 1]], [[0.2, 0.3], [0.6, 0.1], [0.4, 0.9]]),
        {"average": None},
    ),
    (
        "weights remove the negatives",
        mm.roc_auc_score,
        skm.roc_auc_score,
        ([0, 1, 1], [0.2, 0.5, 0.9]),
        {"sample_weight": [0, 1, 1]},
    ),
]


@pytest.mark.parametrize(
    "ours, ref, args, kwargs", [c[1:] for c in WARNING_CASES], ids=[c[0] for c in WARNING_CASES]
)
def test_warnings_match_sklearn(ours, ref, args, kwargs):
    outcome = assert_parity(ref, ours, *args, **kwargs)
    assert outcome.warnings, "expected a warning"


ERROR_CASES = [
    ("multiclass without multi_class", ([0, 1, 2], np.eye(3)), {}),
    ("multiclass max_fpr", ([0, 1, 2], np.eye(3)), {"multi_class": "ovr", "max_fpr": 0.5}),
    ("ovo average None", ([0, 1, 2], np.eye(3)), {"multi_class": "ovo", "average": None}),
    (
        "ovo sample_weight",
        ([0, 1, 2], np.eye(3)),
        {"multi_class": "ovo", "sample_weight": [1, 1, 1]},
    ),
    ("multiclass samples", ([0, 1, 2], np.eye(3)), {"multi_class": "ovr", "average": "samples"}),
    ("rows not summing to 1", ([0, 1, 2], np.ones((3, 3))), {"multi_class": "ovr"}),
    ("1-D scores multiclass", ([0, 1, 2], [0.1, 0.2, 0.3]), {"multi_class": "ovr"}),
    ("labels unsorted", ([0, 1, 2], np.eye(3)), {"multi_class": "ovr", "labels": [2, 1, 0]}),
    ("labels repeated", ([0, 1, 2], np.eye(3)), {"multi_class": "ovr", "labels": [0, 1, 1]}),
    ("labels too few", ([0, 1, 2], np.eye(3)), {"multi_class": "ovr", "labels": [0, 1]}),
    ("labels miss a class", ([0, 1, 3], np.eye(3)), {"multi_class": "ovr", "labels": [0, 1, 2]}),
    ("columns != classes", ([0, 1, 2, 2], np.full((4, 4), 0.25)), {"multi_class": "ovr"}),
    ("bad average", ([0, 1], [0.1, 0.2]), {"average": "binary"}),
    ("bad multi_class", ([0, 1], [0.1, 0.2]), {"multi_class": "ova"}),
    ("max_fpr 0", ([0, 1], [0.1, 0.2]), {"max_fpr": 0}),
    ("max_fpr 1.5", ([0, 1], [0.1, 0.2]), {"max_fpr": 1.5}),
    ("continuous y_true", ([0.5, 1.5], [0.1, 0.2]), {}),
    ("NaN score", ([0, 1], [0.1, np.nan]), {}),
    ("2-D binary scores", ([0, 1], [[0.1, 0.9], [0.8, 0.2]]), {}),
    ("1-D scores multilabel", ([[0, 1], [1, 0]], [0.1, 0.2]), {}),
    ("lengths", ([0, 1, 1], [0.1, 0.2]), {}),
    ("empty", ([], []), {}),
    ("multiclass-multioutput", ([[0, 2], [1, 3]], [[0.1, 0.2], [0.3, 0.4]]), {}),
    ("all-zero weights", ([0, 1], [0.1, 0.2]), {"sample_weight": [0, 0]}),
    (
        "samples zero weights",
        ([[0, 1], [1, 0]], [[0.1, 0.2], [0.3, 0.4]]),
        {"average": "samples", "sample_weight": [0, 0]},
    ),
    (
        "ovo one class weighted",
        ([1, 1, 1], np.full((3, 3), 1 / 3)),
        {"multi_class": "ovo", "average": "weighted", "labels": [0, 1, 2]},
    ),
]


@pytest.mark.parametrize(
    "args, kwargs", [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES]
)
def test_roc_auc_errors_match_sklearn(args, kwargs):
    ref = run(skm.roc_auc_score, *args, **kwargs)
    assert ref.error is not None
    assert_parity(skm.roc_auc_score, mm.roc_auc_score, *args, **kwargs)


AP_ERROR_CASES = [
    ("pos_label absent", (["a", "b"], [0.1, 0.2]), {}),
    ("pos_label None", ([0, 1], [0.1, 0.2]), {"pos_label": None}),
    ("multilabel pos_label", ([[0, 1], [1, 0]], [[0.1, 0.2], [0.3, 0.4]]), {"pos_label": 0}),
    ("multiclass pos_label", ([0, 1, 2], np.eye(3)), {"pos_label": 2}),
    ("multiclass shape", ([0, 1, 2], np.ones((3, 4))), {}),
    ("bad average", ([0, 1], [0.1, 0.2]), {"average": "binary"}),
    ("continuous", ([0.5, 1.5], [0.1, 0.2]), {}),
]


@pytest.mark.parametrize(
    "args, kwargs", [c[1:] for c in AP_ERROR_CASES], ids=[c[0] for c in AP_ERROR_CASES]
)
def test_average_precision_errors_match_sklearn(args, kwargs):
    ref = run(skm.average_precision_score, *args, **kwargs)
    assert ref.error is not None
    assert_parity(skm.average_precision_score, mm.average_precision_score, *args, **kwargs)


def test_ovo_one_class_macro_is_nan_like_sklearn():
    args = ([1, 1, 1], np.full((3, 3), 1 / 3))
    with pytest.warns(RuntimeWarning, match="no pair of classes"):
        assert np.isnan(mm.roc_auc_score(*args, multi_class="ovo", labels=[0, 1, 2]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(skm.roc_auc_score(*args, multi_class="ovo", labels=[0, 1, 2]))


DELIBERATE = [
    ("score columns fewer than labels", ([[0, 1, 1], [1, 0, 1]], [[0.1, 0.2], [0.3, 0.4]]), {}),
    ("string scores", ([0, 1], ["a", "b"]), {}),
]


@pytest.mark.parametrize(
    "args, kwargs", [c[1:] for c in DELIBERATE], ids=[c[0] for c in DELIBERATE]
)
def test_deliberate_refusals(args, kwargs):
    """Inputs that scikit-learn mis-handles (scores only the first columns / ValueError for a type
    problem) are refused with a clear message."""
    with pytest.raises((ValueError, TypeError)):
        mm.roc_auc_score(*args, **kwargs)


def test_average_precision_is_a_step_sum_not_the_trapezoid():
    y, s = [0, 1, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.1]
    precision, recall, _ = mm.precision_recall_curve(y, s)
    step = -np.sum(np.diff(recall) * precision[:-1])
    assert mm.average_precision_score(y, s) == pytest.approx(step, abs=1e-15)
    assert mm.auc(recall, precision) != pytest.approx(step)


def test_weighted_counts_are_bit_identical_to_sklearn():
    """The weighted path sorts exactly as scikit-learn, so float sums agree to the last bit."""
    rng = np.random.default_rng(3)
    y, s, w = rng.integers(0, 2, 500), rng.integers(0, 20, 500) / 19, rng.random(500)
    _, fps, _, tps, _ = skm.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    ours = mltutor.curves.binary_counts(y, s, sample_weight=w)
    assert np.array_equal(ours.fps, fps) and np.array_equal(ours.tps, tps)


def test_metrics_reexports_and_signatures():
    import inspect

    for name in [
        "roc_curve",
        "precision_recall_curve",
        "det_curve",
        "auc",
        "roc_auc_score",
        "average_precision_score",
    ]:
        assert name in mm.__all__
        assert (
            inspect.signature(getattr(mm, name)).parameters.keys()
            == inspect.signature(getattr(skm, name)).parameters.keys()
        )
        for p, q in zip(
            inspect.signature(getattr(mm, name)).parameters.values(),
            inspect.signature(getattr(skm, name)).parameters.values(),
        ):
            assert (p.kind, p.default) == (q.kind, q.default), (name, p, q)


def test_doctests():
    assert doctest.testmod(mltutor.curves).failed == 0
    assert doctest.testmod(mltutor.curves).failed == 0
