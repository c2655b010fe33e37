"""partial_roc_auc: McClish-standardised over FPR in [0, m] against scikit-learn's
``roc_auc_score(max_fpr=m)``, raw areas over FPR or TPR ranges against a segment-by-segment loop,
and the tricky inputs (ties, vertical steps at the range's ends, bad ranges)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st
from test_curves_kernel import scored_problems

from mltutor.curves import partial_roc_auc

RANGES = st.sampled_from([0.0, 0.0, 0.1, 0.25, 0.5, 0.7]).flatmap(
    lambda lo: st.sampled_from([x for x in (0.05, 0.3, 0.5, 0.75, 0.9, 1.0) if x > lo]).map(
        lambda hi: (lo, hi)
    )
)


def _binary(problem):
    """The drawn problem as 0/1 labels (sklearn's binary roc_auc_score takes no pos_label), or
    None when a class is missing or weighs nothing."""
    y = problem.is_positive.astype(int)
    w = problem.sample_weight
    wt = np.ones(y.shape[0]) if w is None else np.asarray(w, dtype=float)
    if wt[y == 1].sum() <= 0 or wt[y == 0].sum() <= 0:
        return None
    return y, w


def _area_by_segments(x, y, lo, hi):
    """Brute force: the trapezoid of every segment's overlap with [lo, hi], one at a time."""
    total = 0.0
    for x0, x1, y0, y1 in zip(x[:-1], x[1:], y[:-1], y[1:], strict=True):
        a, b = max(x0, lo), min(x1, hi)
        if x1 <= x0 or b <= a:
            continue
        ya = y0 + (y1 - y0) * (a - x0) / (x1 - x0)
        yb = y0 + (y1 - y0) * (b - x0) / (x1 - x0)
        total += (b - a) * (ya + yb) / 2
    return total


@PROPERTY
@given(scored_problems(), st.sampled_from([1e-3, 0.05, 0.25, 0.5, 0.9, 1.0]))
def test_standardized_fpr_range_from_zero_is_sklearns_max_fpr(problem, m):
    CASES["partial_roc_auc (McClish, sklearn max_fpr)"] += 1
    case = _binary(problem)
    if case is None:
        with pytest.raises(ValueError):
            partial_roc_auc(
                problem.is_positive.astype(int),
                problem.y_score,
                fpr_range=(0, m),
                sample_weight=problem.sample_weight,
            )
        return
    y, w = case
    ref = skm.roc_auc_score(y, problem.y_score, max_fpr=m, sample_weight=w)
    got = partial_roc_auc(y, problem.y_score, fpr_range=(0, m), standardized=True, sample_weight=w)
    assert abs(got - ref) <= 1e-12


@PROPERTY
@given(scored_problems(), RANGES, st.booleans())
def test_raw_areas_match_a_segment_loop(problem, bounds, over_tpr):
    CASES["partial_roc_auc (raw, FPR or TPR range)"] += 1
    case = _binary(problem)
    if case is None:
        return
    y, w = case
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fpr, tpr, _ = skm.roc_curve(y, problem.y_score, sample_weight=w, drop_intermediate=False)
    lo, hi = bounds
    if over_tpr:
        ref = _area_by_segments(tpr, 1.0 - fpr, lo, hi)
        got = partial_roc_auc(y, problem.y_score, tpr_range=bounds, sample_weight=w)
        chance = (hi - lo) - (hi**2 - lo**2) / 2
    else:
        ref = _area_by_segments(fpr, tpr, lo, hi)
        got = partial_roc_auc(y, problem.y_score, fpr_range=bounds, sample_weight=w)
        chance = (hi**2 - lo**2) / 2
    assert abs(got - ref) <= 1e-12
    assert -1e-12 <= got <= hi - lo + 1e-12
    std = partial_roc_auc(
        y,
        problem.y_score,
        standardized=True,
        sample_weight=w,
        **({"tpr_range": bounds} if over_tpr else {"fpr_range": bounds}),
    )
    assert abs(std - 0.5 * (1 + (ref - chance) / ((hi - lo) - chance))) <= 1e-12


def test_whole_range_is_the_roc_auc_both_ways():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    s = np.round(rng.normal(y, 1.0), 1)  # ties
    auc = skm.roc_auc_score(y, s)
    assert abs(partial_roc_auc(y, s) - auc) <= 1e-12
    assert abs(partial_roc_auc(y, s, fpr_range=(0, 1)) - auc) <= 1e-12
    assert abs(partial_roc_auc(y, s, tpr_range=(0, 1)) - auc) <= 1e-12  # the same region


def test_a_range_end_on_a_vertical_step_and_the_chance_and_perfect_ends():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]  # ROC (0,0) (0,.5) (.5,.5) (.5,1) (1,1)
    assert partial_roc_auc(y, s, fpr_range=(0, 0.5)) == 0.25
    assert partial_roc_auc(y, s, fpr_range=(0.5, 1)) == 0.5
    assert partial_roc_auc(y, s, tpr_range=(0.5, 1)) == 0.25
    assert partial_roc_auc(y, s, tpr_range=(0, 0.5)) == 0.5
    perfect, inverted = [0.1, 0.2, 0.8, 0.9], [0.9, 0.8, 0.2, 0.1]
    for kw in ({"fpr_range": (0.2, 0.6)}, {"tpr_range": (0.3, 0.9)}):
        assert partial_roc_auc(y, perfect, standardized=True, **kw) == pytest.approx(1.0)
        assert partial_roc_auc(y, inverted, standardized=True, **kw) < 0.5
    # a chance-level curve (every score tied: the diagonal) standardises to 0.5
    assert partial_roc_auc(y, [0.5] * 4, fpr_range=(0.1, 0.3), standardized=True) == 0.5
    assert partial_roc_auc(y, [0.5] * 4, tpr_range=(0.8, 1), standardized=True) == 0.5


def test_jiang_partial_area_index_example():
    """Jiang, Metz & Nishikawa's partial area index for TPR >= t: the area above TPR = t under the
    curve over 1 - t.  A binormal model with a large sample approaches its closed form."""
    from scipy.integrate import quad
    from scipy.stats import norm

    rng = np.random.default_rng(0)
    n = 200_000
    y = np.r_[np.ones(n, dtype=int), np.zeros(n, dtype=int)]
    s = np.r_[rng.normal(1.5, 1, n), rng.normal(0, 1, n)]
    t = 0.9
    # population: FPR at TPR level u is norm.sf(norm.isf(u) + 1.5)
    area = quad(lambda u: 1 - norm.sf(norm.isf(u) + 1.5), t, 1)[0]
    got = partial_roc_auc(y, s, tpr_range=(t, 1))
    assert abs(got / (1 - t) - area / (1 - t)) < 0.01


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"fpr_range": (0.5, 0.5)}, ValueError, "fpr_range"),
        ({"fpr_range": (0.6, 0.2)}, ValueError, "fpr_range"),
        ({"fpr_range": (0, 1.5)}, ValueError, "fpr_range"),
        ({"fpr_range": (0, np.nan)}, ValueError, "fpr_range"),
        ({"fpr_range": 0.5}, TypeError, "fpr_range"),
        ({"tpr_range": "ab"}, TypeError, "tpr_range"),
        ({"tpr_range": (True, 1)}, TypeError, "tpr_range"),
        ({"fpr_range": (0, 0.5), "tpr_range": (0, 0.5)}, ValueError, "not both"),
        ({"standardized": "yes"}, TypeError, "standardized"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        partial_roc_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], **kwargs)


def test_one_class_is_refused():
    with pytest.raises(ValueError, match="one class"):
        partial_roc_auc([1, 1, 1], [0.1, 0.2, 0.3], fpr_range=(0, 0.5))
