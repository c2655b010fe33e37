"""mltutor.calibration's scores and reliability bins against their references.

* ``brier_score_loss``, ``log_loss`` and ``calibration_curve`` against scikit-learn 1.9.1: the same
  result (1e-12), the same warnings, or the same exception type, on >= 1,000 hypothesis cases each
  (binary and multiclass, {0,1}/{-1,1}/{1,2}/str/bool labels, one class only, pos_label present,
  absent or of the wrong type, labels sorted / unsorted / missing, weights with zeros, probabilities
  on bin edges, at 0 and 1, out of range, rows not summing to one, length mismatches).
* ``expected_calibration_error`` / ``maximum_calibration_error`` against torchmetrics'
  ``BinaryCalibrationError`` / ``MulticlassCalibrationError`` (15 bins, norm 'l1' and 'max').
* Refusals that name the argument.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import sklearn.calibration as skc
import sklearn.metrics as skm
import torch
from _strategies import CASES, PROPERTY, assert_parity
from hypothesis import given
from hypothesis import strategies as st
from torchmetrics.classification import BinaryCalibrationError, MulticlassCalibrationError
from torchmetrics.functional.classification.calibration_error import _ce_compute

import mltutor.calibration as cal
import mltutor.metrics as mtm

# --------------------------------------------------------------------------------------------
# Strategies: hypothesis draws the structure and a seed, numpy fills the arrays.
# --------------------------------------------------------------------------------------------

_BINARY_POOLS = {
    "01": [0, 1],
    "-11": [-1, 1],
    "12": [1, 2],
    "str": ["ham", "spam"],
    "bool": [False, True],
    "float01": [0.0, 1.0],
    "one0": [0],
    "one1": [1],
    "onestr": ["spam"],
    "three": [0, 1, 2],
}


def _probabilities(draw, rng, n: int) -> np.ndarray:
    mode = draw(st.sampled_from(["uniform", "grid", "edges", "extreme", "constant", "beta"]))
    if mode == "uniform":
        p = rng.random(n)
    elif mode == "grid":  # many ties
        p = rng.integers(0, 11, n) / 10
    elif mode == "edges":  # exactly on uniform bin edges (k / n_bins for small n_bins)
        k = draw(st.integers(1, 10))
        p = rng.integers(0, k + 1, n) / k
    elif mode == "extreme":
        p = rng.integers(0, 2, n).astype(float)
    elif mode == "constant":
        p = np.full(n, draw(st.sampled_from([0.0, 0.3, 0.5, 1.0])))
    else:
        p = rng.beta(0.3, 0.3, n)
    return p


@st.composite
def binary_cases(draw):
    """(y_true, y_prob, kwargs) for a binary score; sometimes bad on purpose."""
    n = draw(st.integers(1, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    pool = _BINARY_POOLS[draw(st.sampled_from(list(_BINARY_POOLS)))]
    y = np.array(pool)[rng.integers(0, len(pool), n)]
    p = _probabilities(draw, rng, n)
    fault = draw(st.sampled_from([None] * 8 + ["above", "below", "length", "column"]))
    if fault == "above":
        p[rng.integers(0, n)] = 1.25
    elif fault == "below":
        p[rng.integers(0, n)] = -0.01
    elif fault == "length":
        p = np.r_[p, 0.5]
    elif fault == "column":
        p = p.reshape(-1, 1)
    if draw(st.integers(0, 5)) == 0:
        p = p.astype(np.float32)
    pos_label = draw(st.sampled_from([None, None, None] + pool + [7, "zz"]))
    return y, p, pos_label


@st.composite
def weights(draw, n: int):
    choice = draw(st.sampled_from(["none", "none", "float", "int", "zeros"]))
    if choice == "none":
        return None
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if choice == "int":
        return rng.integers(1, 4, n)
    w = rng.uniform(0.1, 5.0, n)
    if choice == "zeros":
        w[rng.random(n) < 0.4] = 0.0
    return w


@st.composite
def multiclass_cases(draw):
    """(y_true, y_prob, labels) for a (n, K) probability matrix; sometimes bad on purpose."""
    n = draw(st.integers(1, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(2, 5))
    kind = draw(st.sampled_from(["int", "str", "indicator"]))
    pool = list(range(10, 10 + k)) if kind == "int" else ["ant", "bee", "cat", "dog", "eel"][:k]
    present = draw(st.integers(1, k))  # y_true may miss classes
    if kind == "indicator":
        y = (rng.random((n, k)) < 0.4).astype(np.int64)
    else:
        y = np.array(pool)[rng.integers(0, present, n)]
    p = rng.dirichlet(np.full(k, draw(st.sampled_from([0.2, 1.0, 5.0]))), n)
    if draw(st.integers(0, 4)) == 0:
        p = np.round(p, 1)  # ties, and rows that may not sum to one
    fault = draw(st.sampled_from([None] * 8 + ["unnormalised", "above", "width"]))
    if fault == "unnormalised":
        p = p * 0.9
    elif fault == "above":
        p[0, 0] = 1.5
    elif fault == "width":
        p = np.concatenate([p, np.zeros((n, 1))], axis=1)
    labels = None
    if kind != "indicator":
        choice = draw(st.sampled_from(["none", "none", "all", "shuffled", "missing", "extra"]))
        if choice == "all":
            labels = list(pool)
        elif choice == "shuffled":
            labels = list(pool)[::-1]
        elif choice == "missing":
            labels = list(pool)[1:]
        elif choice == "extra":
            labels = list(pool) + ([99] if kind == "int" else ["zzz"])
    return y, p, labels


# --------------------------------------------------------------------------------------------
# scikit-learn twins
# --------------------------------------------------------------------------------------------


def _params(fn):
    """Names, kinds and defaults (annotations aside)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", ["brier_score_loss", "log_loss"])
def test_same_signature_as_sklearn(name):
    assert _params(getattr(cal, name)) == _params(getattr(skm, name))
    assert getattr(mtm, name) is getattr(cal, name)
    assert name in mtm.__all__


def test_calibration_curve_signature():
    assert _params(cal.calibration_curve) == _params(skc.calibration_curve)


@PROPERTY
@given(case=binary_cases(), data=st.data())
def test_brier_binary_parity(case, data):
    CASES["brier_score_loss (binary)"] += 1
    y, p, pos_label = case
    w = data.draw(weights(len(y)))
    scale = data.draw(st.sampled_from(["auto", True, False]))
    assert_parity(
        skm.brier_score_loss,
        cal.brier_score_loss,
        y,
        p,
        sample_weight=w,
        pos_label=pos_label,
        scale_by_half=scale,
    )


@PROPERTY
@given(case=multiclass_cases(), data=st.data())
def test_brier_multiclass_parity(case, data):
    CASES["brier_score_loss (multiclass)"] += 1
    y, p, labels = case
    if y.ndim == 2:
        return  # brier_score_loss has no indicator targets (sklearn's error is a different path)
    w = data.draw(weights(len(y)))
    scale = data.draw(st.sampled_from(["auto", True, False]))
    assert_parity(
        skm.brier_score_loss,
        cal.brier_score_loss,
        y,
        p,
        sample_weight=w,
        labels=labels,
        scale_by_half=scale,
    )


@PROPERTY
@given(case=binary_cases(), data=st.data())
def test_log_loss_binary_parity(case, data):
    CASES["log_loss (binary, 1-D y_proba)"] += 1
    y, p, _ = case
    p = p.astype(np.float64)  # float32: see test_log_loss_float32
    w = data.draw(weights(len(y)))
    normalize = data.draw(st.booleans())
    assert_parity(skm.log_loss, cal.log_loss, y, p, sample_weight=w, normalize=normalize)


@PROPERTY
@given(case=multiclass_cases(), data=st.data())
def test_log_loss_multiclass_parity(case, data):
    CASES["log_loss (multiclass / indicator)"] += 1
    y, p, labels = case
    w = data.draw(weights(len(y)))
    normalize = data.draw(st.booleans())
    assert_parity(
        skm.log_loss, cal.log_loss, y, p, sample_weight=w, normalize=normalize, labels=labels
    )


@PROPERTY
@given(
    case=binary_cases(),
    n_bins=st.integers(1, 20),
    strategy=st.sampled_from(["uniform", "quantile"]),
)
def test_calibration_curve_parity(case, n_bins, strategy):
    CASES["calibration_curve"] += 1
    y, p, pos_label = case
    assert_parity(
        skc.calibration_curve,
        cal.calibration_curve,
        y,
        p,
        pos_label=pos_label,
        n_bins=n_bins,
        strategy=strategy,
    )


def test_log_loss_float32():
    """float32 probabilities are clipped at float32's epsilon and summed in float32, as in
    scikit-learn; only the last float32 digit of the logarithm may differ (SciPy's xlogy)."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        y = rng.integers(0, 3, 40)
        p = rng.dirichlet(np.ones(3), 40).astype(np.float32)
        p[0] = [0, 1, 0]  # clipped at float32 eps
        np.testing.assert_allclose(cal.log_loss(y, p), skm.log_loss(y, p), rtol=1e-6)
    assert cal.log_loss(
        [0], np.array([[0.0, 1.0]], dtype=np.float32), labels=[0, 1]
    ) == pytest.approx(-np.log(np.finfo(np.float32).eps), rel=1e-6)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([0, 1, 1], [0.1, 0.9, 0.8]), {}),
        ((["ham", "spam", "spam"], [0.1, 0.9, 0.8]), {"pos_label": "spam"}),
        ((["ham", "spam"], [0.1, 0.9]), {}),  # strings need pos_label
        (([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"labels": [0, 1, 2]}),
        (([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {"labels": [2, 1, 0]}),  # warns: order
        (([0, 1, 2], [[0.2, 0.3, 0.4]] * 3), {}),  # warns: rows do not sum to 1
        (([0, 0, 0], [[0.2, 0.8]] * 3), {}),  # one class: needs labels
        (([0, 1], [[0.2, 0.8]] * 2), {"sample_weight": [1.0, -1.0]}),  # weights sum to 0
        (([0, 1], [0.2, 0.8]), {"sample_weight": [0.0, 0.0]}),
        (([0, 1], [0.2, np.nan]), {}),
        (([0, 1], [0.2, np.inf]), {}),
        (([0, 1], [0.2, 0.8]), {"scale_by_half": 1}),
        (([0, 1], "ab"), {}),
    ],
)
def test_brier_hand_picked(args, kwargs):
    assert_parity(skm.brier_score_loss, cal.brier_score_loss, *args, **kwargs)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((["spam", "ham", "ham", "spam"], [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]), {}),
        (([0, 1], [[0.0, 1.0], [1.0, 0.0]]), {}),  # clipped: -log(eps) = 36.04 per sample
        (([0, 1, 2], [[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]]), {"labels": [0, 1]}),
        (([[0, 1], [1, 1], [0, 0]], [[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]]), {}),  # indicator
        (([0, 1, 1], [0.1, 0.2, 0.3]), {"normalize": 1}),
        (([0.5, 1, 1], [0.1, 0.2, 0.3]), {}),  # continuous y_true
        (([0, 1, 1], [[0.1], [0.2], [0.3]]), {}),
    ],
)
def test_log_loss_hand_picked(args, kwargs):
    assert_parity(skm.log_loss, cal.log_loss, *args, **kwargs)


def test_log_loss_deprecated_y_pred():
    with pytest.warns(FutureWarning, match="renamed to `y_proba`"):
        assert cal.log_loss([0, 1], y_pred=[0.2, 0.7]) == skm.log_loss([0, 1], [0.2, 0.7])
    with pytest.raises(ValueError, match="Cannot use both"):
        cal.log_loss([0, 1], [0.2, 0.7], y_pred=[0.2, 0.7])


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([0, 1, 1], [0.2, 0.4, 0.6]), {"n_bins": 5}),  # 0.2 and 0.4 on edges: the bin below
        (([1, 2, 2], [0.1, 0.2, 0.3]), {}),  # {1, 2} needs pos_label
        (([1, 2, 2], [0.1, 0.2, 0.3]), {"pos_label": 2}),
        (([0, 1, 2], [0.1, 0.2, 0.3]), {"pos_label": 1}),  # three labels
        (([0, 1, 1], [0.1, 1.2, 0.3]), {}),
        (([0, 1, 1], [0.1, 0.2, 0.3]), {"n_bins": 0}),
        (([0, 1, 1], [0.1, 0.2, 0.3]), {"strategy": "kmeans"}),
        (([0, 1, 1], [0.1, 0.1, 0.1]), {"strategy": "quantile", "n_bins": 4}),
    ],
)
def test_calibration_curve_hand_picked(args, kwargs):
    assert_parity(skc.calibration_curve, cal.calibration_curve, *args, **kwargs)


def test_calibration_curve_refuses_nan():
    """Deliberate difference: scikit-learn puts NaN in the last bin and returns a NaN mean."""
    with pytest.raises(ValueError, match="y_prob contains NaN"):
        cal.calibration_curve([0, 1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="y_true contains NaN"):
        cal.calibration_curve([0, np.nan, 1], [0.1, 0.2, 0.3])


# --------------------------------------------------------------------------------------------
# ECE / MCE against torchmetrics
# --------------------------------------------------------------------------------------------


def _away_from_edges(c: np.ndarray, n_bins: int, gap: float) -> bool:
    """True when no confidence lies within ``gap`` of an inner uniform edge (float32 edges and
    float32 confidences in torchmetrics' multiclass code can move such a point across)."""
    edges = np.linspace(0, 1, n_bins + 1)[1:-1]
    return edges.size == 0 or np.min(np.abs(c[:, None] - edges[None, :])) > gap


@PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 60),
    n_bins=st.integers(1, 20),
    mode=st.sampled_from(["uniform", "beta", "grid"]),
)
def test_binary_ece_matches_torchmetrics(seed, n, n_bins, mode):
    CASES["expected/maximum_calibration_error (binary)"] += 1
    rng = np.random.default_rng(seed)
    p = {
        "uniform": rng.random(n),
        "beta": rng.beta(0.4, 0.4, n) * 0.999,
        "grid": rng.integers(0, 97, n) / 97,
    }[mode]
    y = (rng.random(n) < p ** rng.uniform(0.5, 2)).astype(np.int64)
    for norm, ours in (
        ("l1", cal.expected_calibration_error),
        ("max", cal.maximum_calibration_error),
    ):
        got = ours(y, p, n_bins=n_bins)
        if _away_from_edges(p, n_bins, 1e-12):
            metric = BinaryCalibrationError(n_bins=n_bins, norm=norm)
            ref = metric(torch.tensor(p, dtype=torch.float64), torch.tensor(y)).item()
            assert abs(got - ref) <= 1e-12, (norm, got, ref)
        # Same binning rule, float64, edges exactly np.linspace (no 1-ulp drift).
        ref = _ce_compute(
            torch.tensor(p),
            torch.tensor(y, dtype=torch.float64),
            torch.tensor(np.linspace(0, 1, n_bins + 1)),
            norm=norm,
        ).item()
        assert abs(got - ref) <= 1e-12, (norm, got, ref)


@PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 60),
    k=st.integers(2, 6),
    n_bins=st.integers(1, 20),
    sharp=st.sampled_from([0.3, 1.0, 3.0]),
)
def test_multiclass_ece_matches_torchmetrics(seed, n, k, n_bins, sharp):
    CASES["expected/maximum_calibration_error (multiclass, top-label)"] += 1
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(k, sharp), n)
    y = np.where(rng.random(n) < 0.6, p.argmax(axis=1), rng.integers(0, k, n))
    conf, hit = p.max(axis=1), (p.argmax(axis=1) == y).astype(np.float64)
    for norm, ours in (
        ("l1", cal.expected_calibration_error),
        ("max", cal.maximum_calibration_error),
    ):
        got = ours(y, p, n_bins=n_bins)
        # float64 top-label reference with torchmetrics' own binning code
        ref = _ce_compute(
            torch.tensor(conf),
            torch.tensor(hit),
            torch.tensor(np.linspace(0, 1, n_bins + 1)),
            norm=norm,
        ).item()
        assert abs(got - ref) <= 1e-12, (norm, got, ref)
        # the public metric casts confidences to float32: agreement to float32 precision
        if _away_from_edges(conf, n_bins, 1e-6) and conf.astype(np.float32).max() < 1.0:
            metric = MulticlassCalibrationError(num_classes=k, n_bins=n_bins, norm=norm)
            ref32 = metric(torch.tensor(p), torch.tensor(y)).item()
            assert abs(got - ref32) <= 1e-6, (norm, got, ref32)


def test_ece_one_is_in_the_last_bin():
    """A confidence of exactly 1.0 joins the last bin here; torchmetrics gives it a bin of its
    own (bucketize(right=True) sends it past the last edge)."""
    y = np.array([1, 1, 0, 1])
    p = np.array([0.95, 0.97, 1.0, 1.0])
    b = cal.calibration_bins(y, p)
    assert b.count[-1] == 4 and b.count.sum() == 4
    ours = cal.expected_calibration_error(y, p)
    assert ours == pytest.approx(abs(0.75 - np.mean(p)), abs=1e-15)  # 0.23
    theirs = BinaryCalibrationError(n_bins=15)(torch.tensor(p), torch.tensor(y)).item()
    assert theirs == pytest.approx(0.5 * abs(1.0 - 0.96) + 0.5 * abs(0.5 - 1.0), abs=1e-12)  # 0.27
    assert ours != pytest.approx(theirs)


def test_ece_bin_edge_convention():
    """[lo, hi): 0.2 with 5 bins goes to the second bin in the ECE, to the first in
    calibration_curve (scikit-learn's (lo, hi])."""
    b = cal.calibration_bins([1], [0.2], n_bins=5)
    assert b.count.tolist() == [0, 1, 0, 0, 0]
    t, p = cal.calibration_curve([1, 0], [0.2, 0.1], n_bins=5)
    assert t.tolist() == [0.5] and p.tolist() == [0.15000000000000002]


def test_ece_quantile_bins():
    rng = np.random.default_rng(0)
    p = rng.random(1000)
    y = (rng.random(1000) < p).astype(int)
    b = cal.calibration_bins(y, p, n_bins=10, strategy="quantile")
    assert b.count.tolist() == [100] * 10
    assert cal.expected_calibration_error(y, p, strategy="quantile", n_bins=10) < 0.05


def test_ece_of_a_calibrated_and_an_overconfident_model():
    rng = np.random.default_rng(1)
    p = rng.random(20000)
    y = (rng.random(20000) < p).astype(int)
    assert cal.expected_calibration_error(y, p) < 0.02
    sharp = np.clip(0.5 + 1.8 * (p - 0.5), 0, 1)
    assert cal.expected_calibration_error(y, sharp) > 0.08


# --------------------------------------------------------------------------------------------
# Refusals name the argument
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: cal.expected_calibration_error([0, 1], [0.2, 1.3]),
            "y_prob contains values greater than 1",
        ),
        (
            lambda: cal.expected_calibration_error([0, 1], [-0.2, 0.3]),
            "y_prob contains values lower than 0",
        ),
        (lambda: cal.expected_calibration_error([0, 1], [np.nan, 0.3]), "y_prob contains NaN"),
        (
            lambda: cal.expected_calibration_error([0, 1, 1], [0.2, 0.3]),
            "inconsistent numbers of samples",
        ),
        (lambda: cal.expected_calibration_error([0, 2], [0.2, 0.3]), "y_true must be binary"),
        (
            lambda: cal.expected_calibration_error(["a", "b"], [0.2, 0.3]),
            "y_true must hold class indices",
        ),
        (
            lambda: cal.expected_calibration_error([0, 3], [[0.2, 0.8], [0.5, 0.5]]),
            r"y_true must hold class indices in \[0, 2\)",
        ),
        (lambda: cal.expected_calibration_error([0, 3], [0.2, 0.5]), "y_true must be binary"),
        (
            lambda: cal.expected_calibration_error([0, 1], [0.2, 0.3], n_bins=0),
            "n_bins must be an int >= 1",
        ),
        (
            lambda: cal.expected_calibration_error([0, 1], [0.2, 0.3], strategy="equal"),
            "strategy must be",
        ),
        (lambda: cal.calibration_curve([0, 1], [0.2, 0.3], n_bins=2.5), "n_bins must be an int"),
        (lambda: cal.brier_score_loss([0, 1], [0.2, 1.3]), "y_prob contains values greater than 1"),
        (lambda: cal.brier_score_loss([0, 1], [0.2, np.nan]), "y_proba contains NaN"),
        (lambda: cal.brier_score_loss([0, 1, 2], [0.2, 0.4, 0.6]), "should be binary"),
        (lambda: cal.log_loss([0, 1], [0.2, 0.3, 0.4]), "inconsistent numbers of samples"),
        (
            lambda: cal.log_loss([0, 1], [0.2, 0.3], sample_weight=[1, np.nan]),
            "sample_weight contains NaN",
        ),
    ],
)
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_no_warnings_on_clean_input():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cal.expected_calibration_error([0, 1, 1], [0.0, 0.5, 1.0])
        cal.log_loss([0, 1, 2], [[0.2, 0.3, 0.5]] * 3)
        cal.calibration_curve([0, 1, 1], [0.0, 0.5, 1.0], strategy="quantile")
