"""``sample_weight`` of every dtype gives scikit-learn's number (issue 12).

NumPy sums a bool array as bools, an int8 array modulo 256 and a float16 array in float16, so a
metric that sums the caller's weights as given is silently wrong.  Every public function that
takes weights is run here with the same weights in each dtype, against scikit-learn (same result
to 1e-12, same dtype kind, same warnings, or the same exception type) and, where scikit-learn has
no twin, against mltutor itself with the weights as float64.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.isotonic as ski
import sklearn.metrics as skm
from _strategies import assert_parity, assert_same, run

import mltutor.calibration as cal
import mltutor.curves as thr
import mltutor.metrics as M

N = 3000  # large enough that a float16 or int8 running sum of weights 0..3 is wrong
DTYPES = [
    bool,
    np.int8,
    np.uint8,
    np.int16,
    np.int32,
    np.int64,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
    object,
]

_rng = np.random.default_rng(12)
_W = _rng.integers(0, 4, N)  # whole numbers: exact in every dtype (bool: their != 0)
_W[0] = 1  # never all zero
_W32 = _rng.random(N).astype(np.float32)  # fractional float32: sklearn sums it exactly in float64


def _weights(dtype: type) -> np.ndarray:
    if dtype is bool:
        return _W != 0
    if dtype is object:
        return np.array([int(v) for v in _W], dtype=object)
    return _W.astype(dtype)


def _data() -> dict:
    r = np.random.default_rng(3)
    yb, ym = r.integers(0, 2, N), r.integers(0, 4, N)
    pb = np.where(r.random(N) < 0.7, yb, 1 - yb)
    pm = np.where(r.random(N) < 0.6, ym, r.integers(0, 4, N))
    yl, pl = r.integers(0, 2, (N, 4)), r.integers(0, 2, (N, 4))
    score = np.round(np.clip(yb * 0.3 + r.random(N), 0, 1), 2)  # ties
    logits = r.normal(size=(N, 4)) + 2 * np.eye(4)[ym]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    rel = r.integers(0, 4, (N, 5))
    return dict(
        yb=yb,
        pb=pb,
        ym=ym,
        pm=pm,
        yl=yl,
        pl=pl,
        score=score,
        proba=proba,
        logits=logits,
        ls=np.round(r.random((N, 4)), 2),
        rel=rel,
        rs=np.round(r.random((N, 5)), 1),
    )


D = _data()

#: (id, sklearn function, mltutor function, positional arguments, keyword arguments)
CASES = [
    ("accuracy binary", skm.accuracy_score, M.accuracy_score, ("yb", "pb"), {}),
    ("accuracy multilabel", skm.accuracy_score, M.accuracy_score, ("yl", "pl"), {}),
    (
        "accuracy unnormalised",
        skm.accuracy_score,
        M.accuracy_score,
        ("ym", "pm"),
        {"normalize": False},
    ),
    ("balanced accuracy", skm.balanced_accuracy_score, M.balanced_accuracy_score, ("ym", "pm"), {}),
    (
        "balanced accuracy adjusted",
        skm.balanced_accuracy_score,
        M.balanced_accuracy_score,
        ("ym", "pm"),
        {"adjusted": True},
    ),
    ("confusion matrix", skm.confusion_matrix, M.confusion_matrix, ("ym", "pm"), {}),
    (
        "confusion matrix normalised",
        skm.confusion_matrix,
        M.confusion_matrix,
        ("ym", "pm"),
        {"normalize": "true"},
    ),
    (
        "multilabel confusion matrix",
        skm.multilabel_confusion_matrix,
        M.multilabel_confusion_matrix,
        ("yl", "pl"),
        {},
    ),
    (
        "multilabel confusion matrix samplewise",
        skm.multilabel_confusion_matrix,
        M.multilabel_confusion_matrix,
        ("yl", "pl"),
        {"samplewise": True},
    ),
    (
        "multilabel confusion matrix multiclass",
        skm.multilabel_confusion_matrix,
        M.multilabel_confusion_matrix,
        ("ym", "pm"),
        {},
    ),
    (
        "classification report",
        skm.classification_report,
        M.classification_report,
        ("ym", "pm"),
        {"output_dict": True},
    ),
    (
        "classification report multilabel",
        skm.classification_report,
        M.classification_report,
        ("yl", "pl"),
        {"output_dict": True, "zero_division": 0},
    ),
    ("f1 binary", skm.f1_score, M.f1_score, ("yb", "pb"), {}),
    ("f1 macro", skm.f1_score, M.f1_score, ("ym", "pm"), {"average": "macro"}),
    ("f1 weighted", skm.f1_score, M.f1_score, ("ym", "pm"), {"average": "weighted"}),
    (
        "f1 samples",
        skm.f1_score,
        M.f1_score,
        ("yl", "pl"),
        {"average": "samples", "zero_division": 0},
    ),
    ("fbeta micro", skm.fbeta_score, M.fbeta_score, ("ym", "pm"), {"beta": 2, "average": "micro"}),
    (
        "precision per class",
        skm.precision_score,
        M.precision_score,
        ("ym", "pm"),
        {"average": None},
    ),
    (
        "recall multilabel macro",
        skm.recall_score,
        M.recall_score,
        ("yl", "pl"),
        {"average": "macro"},
    ),
    (
        "precision_recall_fscore_support",
        skm.precision_recall_fscore_support,
        M.precision_recall_fscore_support,
        ("ym", "pm"),
        {"average": None},
    ),
    ("jaccard macro", skm.jaccard_score, M.jaccard_score, ("ym", "pm"), {"average": "macro"}),
    (
        "jaccard samples",
        skm.jaccard_score,
        M.jaccard_score,
        ("yl", "pl"),
        {"average": "samples", "zero_division": 0},
    ),
    ("hamming multiclass", skm.hamming_loss, M.hamming_loss, ("ym", "pm"), {}),
    ("hamming multilabel", skm.hamming_loss, M.hamming_loss, ("yl", "pl"), {}),
    ("top-k accuracy", skm.top_k_accuracy_score, M.top_k_accuracy_score, ("ym", "proba"), {"k": 2}),
    (
        "top-k accuracy binary",
        skm.top_k_accuracy_score,
        M.top_k_accuracy_score,
        ("yb", "score"),
        {"k": 1},
    ),
    (
        "top-k accuracy unnormalised",
        skm.top_k_accuracy_score,
        M.top_k_accuracy_score,
        ("ym", "proba"),
        {"k": 2, "normalize": False},
    ),
    ("roc_auc binary", skm.roc_auc_score, M.roc_auc_score, ("yb", "score"), {}),
    ("roc_auc partial", skm.roc_auc_score, M.roc_auc_score, ("yb", "score"), {"max_fpr": 0.3}),
    ("roc_auc ovr", skm.roc_auc_score, M.roc_auc_score, ("ym", "proba"), {"multi_class": "ovr"}),
    (
        "roc_auc ovr weighted",
        skm.roc_auc_score,
        M.roc_auc_score,
        ("ym", "proba"),
        {"multi_class": "ovr", "average": "weighted"},
    ),
    (
        "roc_auc multilabel micro",
        skm.roc_auc_score,
        M.roc_auc_score,
        ("yl", "ls"),
        {"average": "micro"},
    ),
    (
        "roc_auc multilabel samples",
        skm.roc_auc_score,
        M.roc_auc_score,
        ("yl", "ls"),
        {"average": "samples"},
    ),
    (
        "average precision binary",
        skm.average_precision_score,
        M.average_precision_score,
        ("yb", "score"),
        {},
    ),
    (
        "average precision multiclass",
        skm.average_precision_score,
        M.average_precision_score,
        ("ym", "proba"),
        {},
    ),
    (
        "average precision multilabel weighted",
        skm.average_precision_score,
        M.average_precision_score,
        ("yl", "ls"),
        {"average": "weighted"},
    ),
    ("roc curve", skm.roc_curve, M.roc_curve, ("yb", "score"), {}),
    (
        "precision-recall curve",
        skm.precision_recall_curve,
        M.precision_recall_curve,
        ("yb", "score"),
        {},
    ),
    ("det curve", skm.det_curve, M.det_curve, ("yb", "score"), {}),
    ("brier binary", skm.brier_score_loss, M.brier_score_loss, ("yb", "score"), {}),
    ("brier multiclass", skm.brier_score_loss, M.brier_score_loss, ("ym", "proba"), {}),
    ("log loss", skm.log_loss, M.log_loss, ("ym", "proba"), {}),
    ("dcg", skm.dcg_score, M.dcg_score, ("rel", "rs"), {"k": 3}),
    ("ndcg", skm.ndcg_score, M.ndcg_score, ("rel", "rs"), {}),
]
IDS = [c[0] for c in CASES]


def _call_args(case: tuple) -> tuple[tuple, dict]:
    _, _, _, names, kwargs = case
    return tuple(D[n] for n in names), dict(kwargs)


def _integer_leaves(x) -> list:
    """For each array leaf of a result, whether it holds integers (sklearn's count dtypes)."""
    if isinstance(x, dict):
        return [v for key in x for v in _integer_leaves(x[key])]
    if isinstance(x, (tuple, list)):
        return [v for item in x for v in _integer_leaves(item)]
    return [np.asarray(x).dtype.kind in "iub"] if isinstance(x, np.ndarray) else []


def _as_exact(x, like):
    """``x`` with integer arrays cast to float where ``like`` (the float64-weights result) is float."""
    if isinstance(x, dict):
        return {key: _as_exact(x[key], like[key]) for key in x}
    if isinstance(x, (tuple, list)):
        return type(x)(_as_exact(a, b) for a, b in zip(x, like))
    if isinstance(x, np.ndarray) and np.asarray(like).dtype.kind == "f":
        return x.astype(np.float64)
    return x


#: scikit-learn's own dtype quirk: uint64 weights times int64 indicators promote to float64 in
#: the per-sample counts (its confusion_matrix keeps them integer); mltutor keeps int64 in both.
_SKLEARN_FLOAT_COUNTS = {("multilabel confusion matrix samplewise", "uint64")}


def _parity(case: tuple, w: np.ndarray) -> None:
    """The number is the one scikit-learn computes from the same weights as float64 (exact
    arithmetic), and counts keep the integer/float dtype that scikit-learn gives them for the
    weights as passed.

    scikit-learn itself sums some weights in their own dtype, so for bool, int8, uint8, float16
    and float32 weights a few of its functions return a wrong or rounded number (unnormalised
    accuracy and top-k accuracy, multilabel hamming loss, weighted multilabel average precision,
    multilabel confusion matrices); mltutor does not.  Object arrays of numbers are read as
    float64 (scikit-learn refuses them in some functions).
    """
    _, ref, ours, _, _ = case
    args, kwargs = _call_args(case)
    exact = assert_parity(ref, ours, *args, sample_weight=np.asarray(w, dtype=np.float64), **kwargs)
    native = run(ref, *args, sample_weight=w, **kwargs)
    if exact.error is None and native.error is None:
        got = run(ours, *args, sample_weight=w, **kwargs)
        assert got.error is None, got.error
        assert_same(_as_exact(got.result, exact.result), exact.result)
        if (case[0], w.dtype.name) not in _SKLEARN_FLOAT_COUNTS:
            assert _integer_leaves(got.result) == _integer_leaves(native.result)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: getattr(d, "__name__", str(d)))
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_weight_dtype_matches_sklearn(case: tuple, dtype: type) -> None:
    _parity(case, _weights(dtype))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fractional_float32_weights_match_sklearn(case: tuple) -> None:
    """float32 weights are summed in float64, as scikit-learn does (was ~1e-8 off)."""
    _parity(case, _W32)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_weights_are_not_kept_by_reference(case: tuple) -> None:
    """The metric never writes into the caller's weights."""
    w = _W.astype(np.float64)
    before = w.copy()
    _, _, ours, _, _ = case
    args, kwargs = _call_args(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours(*args, sample_weight=w, **kwargs)
    assert np.array_equal(w, before)


# --------------------------------------------------------------------------------------------
# Functions without a scikit-learn twin: the weights' dtype does not change the answer
# --------------------------------------------------------------------------------------------

NO_TWIN = [
    ("specificity macro", M.specificity_score, ("ym", "pm"), {"average": "macro"}),
    (
        "threshold sweep",
        lambda y, s, **kw: thr.threshold_sweep(y, s, **kw).fbeta,
        ("yb", "score"),
        {},
    ),
    (
        "best F-beta threshold",
        lambda y, s, **kw: thr.best_fbeta_threshold(y, s, **kw),
        ("yb", "score"),
        {},
    ),
    ("fit_platt", lambda y, s, **kw: cal.fit_platt(s, y, **kw), ("yb", "score"), {}),
    ("fit_isotonic", lambda y, s, **kw: cal.fit_isotonic(s, y, **kw), ("yb", "score"), {}),
    (
        "nll_from_logits",
        lambda y, z, **kw: cal.nll_from_logits(z, y, 1.5, **kw),
        ("ym", "logits"),
        {},
    ),
    ("fit_temperature", lambda y, z, **kw: cal.fit_temperature(z, y, **kw), ("ym", "logits"), {}),
]


def _plain(x):
    """A comparable form of a result object (dataclass/NamedTuple/array/float)."""
    if hasattr(x, "_asdict"):
        return tuple(_plain(v) for v in x._asdict().values())
    if hasattr(x, "__dataclass_fields__"):
        return tuple(_plain(getattr(x, f)) for f in x.__dataclass_fields__)
    if callable(x):
        return _plain(x(np.linspace(0, 1, 11)))
    return x


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: getattr(d, "__name__", str(d)))
@pytest.mark.parametrize("case", NO_TWIN, ids=[c[0] for c in NO_TWIN])
def test_weight_dtype_does_not_change_the_answer(case: tuple, dtype: type) -> None:
    _, fn, names, kwargs = case
    args = tuple(D[n] for n in names)
    ref = run(fn, *args, sample_weight=np.asarray(_weights(dtype), dtype=np.float64), **kwargs)
    got = run(fn, *args, sample_weight=_weights(dtype), **kwargs)
    assert ref.error is None and got.error is None, (ref.error, got.error)
    assert_same(_plain(got.result), _plain(ref.result))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: getattr(d, "__name__", str(d)))
def test_pool_adjacent_violators_matches_sklearn_isotonic(dtype: type) -> None:
    y = D["score"][:200]
    w = _weights(dtype)[:200]
    positive = np.asarray(w, dtype=np.float64) > 0
    got = cal.pool_adjacent_violators(y[positive], sample_weight=w[positive])
    ref = ski.isotonic_regression(y[positive], sample_weight=np.asarray(w[positive], np.float64))
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------------------------
# The snippets, verbatim
# --------------------------------------------------------------------------------------------

_Y = np.zeros((300, 2), int)


@pytest.mark.parametrize("dtype", [bool, np.int8, np.uint8])
def test_multilabel_accuracy_with_small_integer_weights(dtype: type) -> None:
    """Was 0.00333 (bool weights summed as one True) and 0.14667 (int8/uint8: 300 mod 256)."""
    assert M.accuracy_score(_Y, _Y, sample_weight=np.ones(300, dtype)) == 1.0


def test_top_k_with_bool_weights() -> None:
    """Was 0.00333."""
    yk = np.r_[0, 1, 2, np.zeros(297, int)]
    sc = np.tile([0.5, 0.3, 0.2], (300, 1))
    w = np.ones(300, bool)
    got = M.top_k_accuracy_score(yk, sc, k=1, sample_weight=w)
    assert got == skm.top_k_accuracy_score(yk, sc, k=1, sample_weight=w) == 298 / 300


def test_float16_weights_beyond_float16_range() -> None:
    """70,000 float16 ones sum to inf in float16; accuracy and hamming loss were 0.0."""
    y = np.zeros(70_000, int)
    w = np.ones(70_000, np.float16)
    assert M.accuracy_score(y, y, sample_weight=w) == 1.0
    assert M.hamming_loss(y, 1 - y, sample_weight=w) == 1.0


def test_float32_weights_are_exact() -> None:
    """Was ~1e-8 relative off."""
    r = np.random.default_rng(0)
    y, p = r.integers(0, 3, 1000), r.integers(0, 3, 1000)
    w = r.random(1000).astype(np.float32)
    assert M.accuracy_score(y, p, sample_weight=w) == pytest.approx(
        skm.accuracy_score(y, p, sample_weight=w), rel=1e-15
    )
    assert M.hamming_loss(y, p, sample_weight=w) == pytest.approx(
        skm.hamming_loss(y, p, sample_weight=w), rel=1e-15
    )
