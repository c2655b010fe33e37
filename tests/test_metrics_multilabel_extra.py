"""hamming_loss, jaccard_score and top_k_accuracy_score against scikit-learn 1.9.1.

Property tests (hypothesis, 1000 derandomized examples each, counted in ``_strategies.CASES``)
draw small binary, multiclass and multilabel problems with absent labels, every ``average`` and
``zero_division`` (np.nan included: jaccard_score refuses it, like scikit-learn) and weights, and
assert the same result (floats to 1e-12), the same warnings or the same exception type.  Then
hand-picked errors, warnings and the top-k tie rule.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import (
    AVERAGES,
    CASES,
    PROPERTY,
    ZERO_DIVISIONS,
    Problem,
    assert_parity,
    labels_for,
    pos_label_for,
    problems,
    run,
    same_error_type,
    weights_for,
)
from hypothesis import given
from hypothesis import strategies as st

import mltutor.metrics as mtm

NEW = ["hamming_loss", "jaccard_score", "top_k_accuracy_score"]


@pytest.mark.parametrize("name", NEW)
def test_signature_matches_sklearn(name):
    ours, theirs = inspect.signature(getattr(mtm, name)), inspect.signature(getattr(skm, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.default) for p in theirs.parameters.values()
    ]


@pytest.mark.parametrize("name", NEW)
def test_exported(name):
    assert name in mtm.__all__


# --------------------------------------------------------------------------------------------
# Property tests
# --------------------------------------------------------------------------------------------


@PROPERTY
@given(data=st.data(), problem=problems())
def test_hamming_loss(data, problem):
    CASES["hamming_loss"] += 1
    assert_parity(
        skm.hamming_loss,
        mtm.hamming_loss,
        problem.y_true,
        problem.y_pred,
        sample_weight=data.draw(weights_for(problem)),
    )


@PROPERTY
@given(data=st.data(), problem=problems())
def test_jaccard_score(data, problem):
    CASES["jaccard_score"] += 1
    kwargs = dict(
        labels=data.draw(labels_for(problem)),
        pos_label=data.draw(pos_label_for(problem)),
        average=data.draw(st.sampled_from(AVERAGES)),
        sample_weight=data.draw(weights_for(problem)),
        # np.nan is refused by both; ints 0 and 1 are accepted by both.
        zero_division=data.draw(st.sampled_from(ZERO_DIVISIONS + [0, 1])),
    )
    assert_parity(skm.jaccard_score, mtm.jaccard_score, problem.y_true, problem.y_pred, **kwargs)


@st.composite
def top_k_cases(draw):
    """1-D labels from ``problems`` plus scores, labels, k, normalize and weights.

    Scores are small integers (many ties), floats in [0, 1] or on a wide range; usually one
    column per class, sometimes one too many or too few; binary problems get 1-D scores or a
    column (rarely a full matrix, which sklearn refuses).  A one-class ``y_true`` usually gets
    ``labels`` naming absent classes.  About a quarter of the cases are errors.  ``labels`` is None,
    the full sorted list (with absent labels), or broken: unsorted,
    repeated, or missing a class of ``y_true``.
    """
    problem: Problem = draw(problems(multilabel=False))
    n = problem.y_true.shape[0]
    present = np.unique(problem.y_true)
    absent = (
        problem.absent if problem.kind != "bool" else [v for v in (False, True) if v not in present]
    )
    labels_mode = draw(st.sampled_from(["none"] * 4 + ["sorted"] * 4 + ["broken"]))
    if labels_mode == "none" and present.size < 2 and absent:
        labels_mode = "sorted"  # one class only: labels must name the others (else an error)
    if labels_mode == "broken":
        labels_mode = draw(st.sampled_from(["unsorted", "repeat", "missing"]))
    if labels_mode == "none":
        labels = None
    else:
        extra = (
            draw(st.lists(st.sampled_from(absent), unique=True, min_size=int(present.size < 2)))
            if absent
            else []
        )
        base = np.unique(np.concatenate([present, np.array(extra, dtype=present.dtype)]))
        labels = base.tolist()
        if labels_mode == "unsorted" and len(labels) > 1:
            labels = labels[::-1]
        elif labels_mode == "repeat":
            labels = labels + labels[:1]
        elif labels_mode == "missing" and len(labels) > 1:
            labels = labels[1:]
    n_classes = present.size if labels is None else len(labels)
    binary = present.size <= 2 and not (labels is not None and len(labels) > 2)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from(["ties", "unit", "wide"]))
    binary_shape = draw(st.sampled_from(["1-D", "1-D", "1-D", "column", "column", "matrix"]))
    if binary and binary_shape != "matrix":
        shape = (n,) if binary_shape == "1-D" else (n, 1)
    else:
        cols = max(1, n_classes + draw(st.sampled_from([0] * 10 + [-1, 1])))
        shape = (n, cols)
    if scale == "ties":
        y_score = rng.integers(0, 3, shape).astype(np.float64)
    elif scale == "unit":
        y_score = rng.random(shape)
    else:
        y_score = rng.normal(0, 3, shape)
    return dict(
        y_true=problem.y_true,
        y_score=y_score,
        k=draw(st.integers(1, 6)),
        normalize=draw(st.booleans()),
        sample_weight=draw(weights_for(problem)),
        labels=labels,
    )


@PROPERTY
@given(case=top_k_cases())
def test_top_k_accuracy_score(case):
    CASES["top_k_accuracy_score"] += 1
    y_true, y_score = case.pop("y_true"), case.pop("y_score")
    assert_parity(skm.top_k_accuracy_score, mtm.top_k_accuracy_score, y_true, y_score, **case)


# --------------------------------------------------------------------------------------------
# Hand-picked cases: binary, multiclass, multilabel, absent labels, every average
# --------------------------------------------------------------------------------------------

Y_ML = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 0]])
P_ML = np.array([[1, 0, 0, 0], [0, 1, 1, 1], [0, 1, 0, 0], [0, 0, 0, 0]])


@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, 0, 1])
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize(
    "case",
    [
        ("binary", [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], None),
        ("binary, no positive at all", [0, 0, 0], [0, 0, 0], None),
        ("multiclass", [0, 1, 2, 2, 1], [0, 2, 2, 1, 1], None),
        ("multiclass, absent label listed", [0, 1, 2, 2], [0, 2, 2, 1], [0, 1, 2, 7]),
        ("multiclass, subset of labels", [0, 1, 2, 2], [0, 2, 2, 1], [2, 0]),
        ("multilabel", Y_ML, P_ML, None),
        ("multilabel, label columns", Y_ML, P_ML, [3, 1]),
    ],
)
def test_jaccard_tricky(case, average, zero_division):
    _, y_true, y_pred, labels = case
    assert_parity(
        skm.jaccard_score,
        mtm.jaccard_score,
        y_true,
        y_pred,
        labels=labels,
        average=average,
        zero_division=zero_division,
    )


def test_jaccard_is_f1_over_two_minus_f1():
    y_true, y_pred = [0, 1, 2, 2, 1, 0, 2], [0, 2, 2, 1, 1, 0, 0]
    f1 = mtm.f1_score(y_true, y_pred, average=None)
    np.testing.assert_allclose(mtm.jaccard_score(y_true, y_pred, average=None), f1 / (2 - f1))


def test_jaccard_weighted_with_no_support_is_plain_mean():
    # Label 5 is neither true nor predicted: every weight is 0, sklearn falls back to the mean.
    assert_parity(
        skm.jaccard_score,
        mtm.jaccard_score,
        [0, 1, 2],
        [0, 1, 1],
        labels=[5],
        average="weighted",
        zero_division=1.0,
    )


@pytest.mark.parametrize(
    "case",
    [
        ("binary", [0, 1, 1, 0], [0, 1, 0, 0]),
        ("strings", ["a", "b", "c"], ["a", "c", "c"]),
        ("multilabel", Y_ML, P_ML),
        ("multilabel bool", Y_ML.astype(bool), P_ML.astype(bool)),
        ("multilabel float", Y_ML.astype(float), P_ML.astype(float)),
        ("multilabel all zero", np.zeros((3, 2), int), np.zeros((3, 2), int)),
    ],
)
@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_hamming_tricky(case, weights):
    _, y_true, y_pred = case
    n = len(y_true)
    w = (
        None
        if weights is None
        else (np.arange(1, n + 1) if weights == "int" else np.linspace(0.1, 2, n))
    )
    assert_parity(skm.hamming_loss, mtm.hamming_loss, y_true, y_pred, sample_weight=w)


def test_hamming_multiclass_is_one_minus_accuracy():
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.integers(0, 5, 200), rng.integers(0, 5, 200)
    assert mtm.hamming_loss(y_true, y_pred) == pytest.approx(1 - mtm.accuracy_score(y_true, y_pred))


def test_top_k_ties_rank_the_higher_class_index_first():
    scores = [[0.4, 0.4, 0.2]]
    for y in (0, 1):  # class 1 wins the tie, in sklearn and in mltutor
        ours = mtm.top_k_accuracy_score([y], scores, k=1, labels=[0, 1, 2])
        assert ours == skm.top_k_accuracy_score([y], scores, k=1, labels=[0, 1, 2]) == float(y == 1)


def test_top_k_ties_differ_from_torchmetrics():
    torch = pytest.importorskip("torch")
    tm = pytest.importorskip("torchmetrics.classification")
    scores = torch.tensor([[0.4, 0.4, 0.2]])
    metric = tm.MulticlassAccuracy(num_classes=3, top_k=1, average="micro")
    # torchmetrics lets the lower index win the tie: class 0 is "right", class 1 is not.
    assert metric(scores, torch.tensor([0])).item() == 1.0
    assert mtm.top_k_accuracy_score([0], scores.numpy(), k=1, labels=[0, 1, 2]) == 0.0


@pytest.mark.parametrize("k", [1, 2, 3])
def test_top_k_matches_argsort_reference(k):
    rng = np.random.default_rng(k)
    y_true = rng.integers(0, 6, 300)
    y_score = rng.integers(0, 4, (300, 6)).astype(float)  # heavy ties
    order = np.argsort(y_score, axis=1, kind="stable")[:, ::-1][:, :k]
    expected = np.mean((order == y_true[:, None]).any(axis=1))
    assert mtm.top_k_accuracy_score(y_true, y_score, k=k) == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize(
    "case",
    [
        ("binary k=1, probabilities", [0, 1, 1, 0], [0.2, 0.7, 0.4, 0.5], {"k": 1}),
        ("binary k=1, logits", [0, 1, 1, 0], [-1.0, 2.0, 0.1, -0.2], {"k": 1}),
        ("binary k=2 always right (warns)", [0, 1, 1, 0], [0.9, 0.1, 0.2, 0.8], {}),
        ("binary column", [0, 1, 1], [[0.2], [0.9], [0.4]], {"k": 1}),
        ("strings", ["b", "a", "c"], [[0.1, 0.5, 0.4], [0.3, 0.3, 0.4], [0.2, 0.2, 0.6]], {"k": 1}),
        (
            "labels add a class",
            [0, 2, 2],
            [[0.5, 0.2, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.6, 0.1]],
            {"labels": [0, 1, 2, 3]},
        ),
        (
            "one class in y_true with labels",
            [2, 2],
            [[0.1, 0.3, 0.6], [0.5, 0.3, 0.2]],
            {"labels": [0, 1, 2], "k": 1},
        ),
        (
            "not normalized, weighted",
            [0, 1, 2],
            [[0.5, 0.2, 0.3], [0.5, 0.2, 0.3], [0.5, 0.2, 0.3]],
            {"k": 2, "normalize": False, "sample_weight": [1.5, 2.0, 0.5]},
        ),
        ("k = n_classes warns", [0, 1, 2], np.eye(3), {"k": 3}),
    ],
)
def test_top_k_tricky(case):
    _, y_true, y_score, kwargs = case
    assert_parity(skm.top_k_accuracy_score, mtm.top_k_accuracy_score, y_true, y_score, **kwargs)


# --------------------------------------------------------------------------------------------
# Errors: same exception type as scikit-learn, and a message that names the argument
# --------------------------------------------------------------------------------------------

S3 = [[0.2, 0.5, 0.3]] * 3

ERRORS = [
    (
        "jaccard zero_division nan",
        "jaccard_score",
        ([0, 1], [0, 1]),
        {"zero_division": np.nan},
        ValueError,
        ["zero_division", "'warn', 0.0 or 1.0"],
    ),
    (
        "jaccard zero_division 0.5",
        "jaccard_score",
        ([0, 1], [0, 1]),
        {"zero_division": 0.5},
        ValueError,
        ["zero_division"],
    ),
    (
        "jaccard multiclass binary average",
        "jaccard_score",
        ([0, 1, 2], [0, 1, 1]),
        {},
        ValueError,
        ["Target is multiclass but average='binary'"],
    ),
    (
        "jaccard samples on 1-D",
        "jaccard_score",
        ([0, 1, 2], [0, 1, 1]),
        {"average": "samples"},
        ValueError,
        ["average='samples'", "indicator"],
    ),
    (
        "jaccard unknown average",
        "jaccard_score",
        ([0, 1], [0, 1]),
        {"average": "mean"},
        ValueError,
        ["average", "'mean'"],
    ),
    (
        "jaccard pos_label absent",
        "jaccard_score",
        ([0, 1, 1], [0, 1, 0]),
        {"pos_label": 2},
        ValueError,
        ["pos_label=2"],
    ),
    (
        "jaccard multilabel label out of range",
        "jaccard_score",
        (Y_ML, P_ML),
        {"average": "macro", "labels": [0, 9]},
        ValueError,
        ["All labels must be in [0, n labels)"],
    ),
    (
        "hamming length",
        "hamming_loss",
        ([0, 1, 1], [0, 1]),
        {},
        ValueError,
        ["y_true has 3", "y_pred has 2"],
    ),
    ("hamming continuous", "hamming_loss", ([0, 1], [0.5, 1.0]), {}, ValueError, ["continuous"]),
    (
        "hamming mix",
        "hamming_loss",
        (Y_ML, [0, 1, 1, 0]),
        {},
        ValueError,
        ["mix of multilabel-indicator"],
    ),
    (
        "hamming zero weights",
        "hamming_loss",
        ([0, 1], [1, 1]),
        {"sample_weight": [0, 0]},
        ValueError,
        ["sample_weight", "non-zero"],
    ),
    (
        "top-k k=0",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"k": 0},
        ValueError,
        ["k must be an int >= 1"],
    ),
    (
        "top-k k float",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"k": 2.0},
        TypeError,
        ["k must be an int"],
    ),
    (
        "top-k normalize int",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"normalize": 1},
        TypeError,
        ["normalize"],
    ),
    (
        "top-k binary with 2 columns",
        "top_k_accuracy_score",
        ([0, 1, 1], [[0.8, 0.2]] * 3),
        {"k": 1},
        ValueError,
        ["`y_true` is binary while y_score is 2d with 2 classes"],
    ),
    (
        "top-k multiclass 1-D scores",
        "top_k_accuracy_score",
        ([0, 1, 2], [0.1, 0.2, 0.3]),
        {},
        ValueError,
        ["`y_score` needs to be of shape `(n_samples, n_classes)`"],
    ),
    (
        "top-k too few columns",
        "top_k_accuracy_score",
        ([0, 1, 2, 3], S3 + S3[:1]),
        {},
        ValueError,
        ["Number of classes in 'y_true' (4) not equal to the number of classes in 'y_score' (3)"],
    ),
    (
        "top-k labels unsorted",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"labels": [2, 1, 0]},
        ValueError,
        ["'labels' must be ordered"],
    ),
    (
        "top-k labels repeated",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"labels": [0, 1, 1, 2]},
        ValueError,
        ["'labels' must be unique"],
    ),
    (
        "top-k y_true outside labels",
        "top_k_accuracy_score",
        ([0, 1, 5], S3),
        {"labels": [0, 1, 2]},
        ValueError,
        ["'y_true' contains labels not in parameter 'labels'"],
    ),
    (
        "top-k labels wrong count",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"labels": [0, 1, 2, 3]},
        ValueError,
        ["Number of given labels (4)"],
    ),
    (
        "top-k NaN score",
        "top_k_accuracy_score",
        ([0, 1, 2], [[0.2, np.nan, 0.3]] * 3),
        {},
        ValueError,
        ["y_score", "NaN"],
    ),
    (
        "top-k string scores",
        "top_k_accuracy_score",
        ([0, 1, 2], [["a", "b", "c"]] * 3),
        {},
        ValueError,
        ["y_score", "real numbers"],
    ),
    (
        "top-k 3-D scores",
        "top_k_accuracy_score",
        ([0, 1, 2], np.zeros((3, 3, 1))),
        {},
        ValueError,
        ["y_score", "shape"],
    ),
    (
        "top-k continuous y_true",
        "top_k_accuracy_score",
        ([0.5, 1, 2], S3),
        {},
        ValueError,
        ["y type must be 'binary' or 'multiclass', got 'continuous'"],
    ),
    (
        "top-k 2-D y_true",
        "top_k_accuracy_score",
        ([[0, 1], [1, 0], [1, 1]], S3),
        {},
        ValueError,
        ["y_true must be 1-D"],
    ),
    ("top-k empty", "top_k_accuracy_score", ([], np.zeros((0, 3))), {}, ValueError, ["empty"]),
    (
        "top-k length",
        "top_k_accuracy_score",
        ([0, 1, 2], S3[:2]),
        {},
        ValueError,
        ["y_true has 3", "y_score has 2"],
    ),
    (
        "top-k weights length",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"sample_weight": [1, 2]},
        ValueError,
        ["sample_weight has 2"],
    ),
    (
        "top-k zero weights",
        "top_k_accuracy_score",
        ([0, 1, 2], S3),
        {"sample_weight": [0, 0, 0]},
        ZeroDivisionError,
        ["Weights sum to zero"],
    ),
]


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_errors_match_sklearn(case):
    _, name, args, kwargs, exc, words = case
    ref = run(getattr(skm, name), *args, **kwargs)
    assert ref.error is not None, f"sklearn accepted {case[0]}"
    with pytest.raises(exc) as info:
        getattr(mtm, name)(*args, **kwargs)
    assert same_error_type(ref.error, info.value), (ref.error, info.value)
    for word in words:
        assert word in str(info.value), f"{word!r} not in {str(info.value)!r}"


def test_top_k_zero_weights_not_normalized_is_zero():
    assert_parity(
        skm.top_k_accuracy_score,
        mtm.top_k_accuracy_score,
        [0, 1, 2],
        S3,
        sample_weight=[0, 0, 0],
        normalize=False,
    )


def test_deliberate_difference_hamming_weights_cancelling():
    # sklearn returns inf (RuntimeWarning) for indicator matrices; mltutor raises, as for 1-D labels.
    with pytest.raises(ZeroDivisionError):
        mtm.hamming_loss(Y_ML[:2], P_ML[:2], sample_weight=[1.0, -1.0])
    assert same_error_type(
        run(skm.hamming_loss, [0, 1], [1, 1], sample_weight=[1, -1]).error, ZeroDivisionError()
    )


# --------------------------------------------------------------------------------------------
# Warnings: wording and attribution to the caller's line
# --------------------------------------------------------------------------------------------


def test_jaccard_warning_text_and_line():
    with pytest.warns(mtm.UndefinedMetricWarning) as record:
        mtm.jaccard_score([0, 0], [0, 0])
    assert str(record[0].message) == (
        "Jaccard is ill-defined and being set to 0.0 due to no true or predicted samples. "
        "Use `zero_division` parameter to control this behavior."
    )
    assert record[0].filename == __file__


def test_jaccard_samples_warning_mentions_samples():
    outcome = assert_parity(skm.jaccard_score, mtm.jaccard_score, Y_ML, P_ML, average="samples")
    assert any("in samples with no true or predicted labels" in msg for _, msg in outcome.warnings)


def test_top_k_warning_text_and_line():
    with pytest.warns(mtm.UndefinedMetricWarning) as record:
        mtm.top_k_accuracy_score([0, 1, 1], [0.1, 0.8, 0.6])
    assert str(record[0].message) == (
        "'k' (2) greater than or equal to 'n_classes' (2) will result in a perfect score and is "
        "therefore meaningless."
    )
    assert record[0].filename == __file__


def test_jaccard_pos_label_ignored_warns_like_sklearn():
    assert_parity(
        skm.jaccard_score, mtm.jaccard_score, [0, 1, 1], [0, 1, 0], average="macro", pos_label=0
    )
