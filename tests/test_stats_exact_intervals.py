"""Exact intervals (Clopper–Pearson, Jeffreys) of ``mltutor.stats.proportion_ci`` against
40-digit references, for n up to 1e15 and alpha down to 1e-300; elementwise independence; no
SciPy anywhere on the path.

The references (mpmath at 40 significant digits) and why they are trusted:

* ``log I_x(a, b)`` where ``a + b <= 2e4``: ``mpmath.betainc``, which sums the hypergeometric
  series ``x^a 2F1(a, 1 - b; a + 1; x) / (a B(a, b))`` in arbitrary precision with its own error
  control (it raises rather than return an unconverged sum).
* where ``a + b > 2e4`` (that series would need too many terms): tanh-sinh quadrature
  (``mpmath.quad``) of the density of the logit ``u`` of a Beta variable,
  ``exp(a log expit(u) + b log expit(-u) - log B(a, b))`` — smooth, unimodal and log-concave —
  over ``(-inf, s]``, split at the mode plus multiples of its standard deviation and at ``s``
  minus multiples of the integrand's decay length, so that each piece is a smooth integrand on the
  scale it varies on.  It is checked against ``betainc`` where both apply
  (:func:`test_quadrature_reference_agrees_with_betainc`) and against the exact binomial identity
  ``I_x(c, n - c + 1) = P(Binomial(n, x) >= c)`` (a sum of a few dozen terms for small ``c``) at
  ``n = 1e14`` (:func:`test_quadrature_reference_agrees_with_binomial_sums`).
* the true quantile: Newton's method at 40 digits from our answer on
  ``g(s) = log I_{expit(s)}(a, b) - log q``, which is concave and increasing in the logit ``s``
  (the logit of a Beta variable has a log-concave density), iterated until the bound
  ``|g''/2g'| step^2`` on the remaining error is below 1e-30.

Each end is measured in the representation that can hold it: the end ``v`` itself where
``v < 1/2``, else ``1 - v`` (``1 - high`` comes from the solver directly, as the lower quantile of
the swapped parameters, ``1 - low`` as the complement it returns with ``low``).  The bound
checked: an error of at most ``1e-10 x width``, or at most 2 units in the last place of that
value: a float64 cannot hold an end to better than half a unit, and at ``n = 1e15`` with a
proportion near 1/2 one unit is 9e-10 of the width.  Timing is in
``benchmarks/bench_exact_intervals.py``, never here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mltutor.stats import confusion_rate_intervals, proportion_ci

DPS = 40


# --------------------------------------------------------------------------------------------
# References
# --------------------------------------------------------------------------------------------


def _log_beta_fn(a, b):
    return mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(a + b)


def _log_i_quad(a, b, s):
    """log I_x(a, b) at x = expit(s) by tanh-sinh quadrature of the logit's density."""
    lb = _log_beta_fn(a, b)

    def log_f(u):
        return -a * mp.log1p(mp.exp(-u)) - b * mp.log1p(mp.exp(u)) - lb

    mode, sig = mp.log(a / b), mp.sqrt(1 / a + 1 / b)
    xs = 1 / (1 + mp.exp(-s))
    slope = a * (1 - xs) - b * xs
    h = sig if slope <= 0 else min(sig, 1 / slope)
    top = log_f(s) if s < mode else log_f(mode)
    pts = {s - k * h for k in (0, 1, 4, 16, 64, 256)}
    pts |= {mode + j * sig for j in (-16, -6, -2, 0, 2, 6) if mode + j * sig < s}
    total = mp.quad(lambda u: mp.exp(log_f(u) - top), [-mp.inf] + sorted(pts))
    return mp.log(total) + top


def _log_i(a, b, s, how="auto"):
    """log I_x(a, b) at x = expit(s), all arguments mpf."""
    if how == "quad" or (how == "auto" and a + b > 2e4):
        return _log_i_quad(a, b, s)
    return mp.log(mp.betainc(a, b, 0, 1 / (1 + mp.exp(-s)), regularized=True))


def _true_root(log_q, a, b, s, how="auto"):
    """The root s* of log I_{expit(s)}(a, b) = log q, by Newton at 40 digits from s (mpf)."""
    lb = _log_beta_fn(a, b)
    for _ in range(40):
        li = _log_i(a, b, s, how)
        x, y = 1 / (1 + mp.exp(-s)), 1 / (1 + mp.exp(s))
        gp = mp.exp(a * mp.log(x) + b * mp.log(y) - lb - li)
        step = -(li - log_q) / gp
        s += step
        kappa = abs(a * y - b * x - gp) / 2  # |g''/2g'|: the remaining error <= kappa step^2
        if kappa * step**2 < mp.mpf(10) ** -30 * max(1, abs(s)):
            return s
    raise AssertionError("the reference did not converge")


def _params(c, n, method):
    """(a, b) of the lower end's Beta and of the upper end's swapped Beta; which ends exist."""
    if method == "clopper-pearson":
        return (c, n - c + 1), (n - c, c + 1), c > 0, c < n
    return (c + 0.5, n - c + 0.5), (n - c + 0.5, c + 0.5), True, True


def _reference_ends(c, n, alpha, method, start):
    """True (low, 1 - high) as mpf.  ``start``: our (low, 1 - low, 1 - high, high) floats."""
    (al, bl), (ah, bh), has_low, has_high = _params(mp.mpf(c), mp.mpf(n), method)
    log_q = mp.log(mp.mpf(alpha) / 2)
    ends = []
    for has, a, b, x, y in (
        (has_low, al, bl, start[0], start[1]),
        (has_high, ah, bh, start[2], start[3]),
    ):
        if not has:
            ends.append(mp.mpf(0))
            continue
        s0 = mp.log(mp.mpf(x)) - mp.log(mp.mpf(y)) if x > 0 else log_q / a
        ends.append(1 / (1 + mp.exp(-_true_root(log_q, a, b, s0))))
    return ends


def _ulp(v: float) -> float:
    return float(np.spacing(abs(v))) if v else float(np.spacing(0.0))


def _errors(c, n, alpha, method):
    """For each end: (error / width, error in ulps of the value measured), both for the
    representation that holds the end (v or 1 - v) and for the public float itself."""
    from mltutor.stats._proportions import _exact_ends

    with mp.workdps(DPS):
        low, one_minus_low, one_minus_high, high = (
            float(v[0])
            for v in _exact_ends(np.array([float(c)]), np.array([float(n)]), alpha, method)
        )
        pub_low, pub_high = proportion_ci(c, n, alpha=alpha, method=method)
        assert (pub_low, pub_high) == (low, high)
        low_t, omh_t = _reference_ends(
            c, n, alpha, method, (low, one_minus_low, one_minus_high, high)
        )
        width = 1 - omh_t - low_t
        out = []
        # lower end: low if low < 1/2, else 1 - low; upper end: 1 - high if high > 1/2, else high
        for v, w, true_v in ((low, one_minus_low, low_t), (one_minus_high, high, omh_t)):
            held, truth = (v, true_v) if true_v < 0.5 else (w, 1 - true_v)
            err = abs(mp.mpf(held) - truth)
            out.append((float(err / width), float(err / _ulp(held))))
        for v, truth in ((low, low_t), (high, 1 - omh_t)):  # the public floats themselves
            err = abs(mp.mpf(v) - truth)
            out.append((float(err / width), float(err / _ulp(v))))
        return out


def _assert_exact(c, n, alpha, method):
    for rel, ulps in _errors(c, n, alpha, method):
        assert rel <= 1e-10 or ulps <= 2.0, (c, n, alpha, method, rel, ulps)


# --------------------------------------------------------------------------------------------
# The references agree with each other
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, x",
    [(3, 18, 0.3), (300, 1000, 0.2), (0.5, 20.5, 1e-4), (40, 9000, 0.002), (2.5, 7.5, 0.9)],
)
def test_quadrature_reference_agrees_with_betainc(a, b, x):
    with mp.workdps(DPS):
        a, b, x = mp.mpf(a), mp.mpf(b), mp.mpf(x)
        s = mp.log(x) - mp.log1p(-x)
        assert abs(_log_i(a, b, s, "quad") - _log_i(a, b, s, "betainc")) < mp.mpf(10) ** -30


def _log_binomial_tail(n, c, x, upper):
    """log P(Binomial(n, x) >= c) (upper) or log P(Binomial(n, x) <= c), summed term by term."""

    def log_term(k):
        return (
            mp.loggamma(n + 1)
            - mp.loggamma(k + 1)
            - mp.loggamma(n - k + 1)
            + k * mp.log(x)
            + (n - k) * mp.log1p(-x)
        )

    ks = range(int(c), int(c) + 400) if upper else range(0, int(c) + 1)
    terms = [log_term(mp.mpf(k)) for k in ks]
    top = max(terms)
    if upper:  # the terms fall off geometrically once k > n x: 400 of them reach below 1e-60
        assert terms[-1] - top < -140
    return top + mp.log(mp.fsum(mp.exp(t - top) for t in terms))


@pytest.mark.parametrize("c", [1, 3, 12])
def test_quadrature_reference_agrees_with_binomial_sums(c):
    """At n = 1e14 the Clopper–Pearson ends solve P(Bin(n, low) >= c) = alpha/2 and
    P(Bin(n, high) <= c) = alpha/2: exact finite sums, independent of any Beta function code."""
    n = mp.mpf(10) ** 14
    with mp.workdps(DPS):
        log_q = mp.log(mp.mpf("0.025"))
        s = _true_root(log_q, mp.mpf(c), n - c + 1, mp.log(mp.mpf(c) / n), "quad")
        low = 1 / (1 + mp.exp(-s))
        assert abs(_log_binomial_tail(n, c, low, upper=True) - log_q) < mp.mpf(10) ** -25
        t = _true_root(log_q, n - c, mp.mpf(c) + 1, -mp.log(mp.mpf(c) / n), "quad")
        high = 1 / (1 + mp.exp(t))
        assert abs(_log_binomial_tail(n, c, high, upper=False) - log_q) < mp.mpf(10) ** -25


# --------------------------------------------------------------------------------------------
# Exactness, regime by regime
# --------------------------------------------------------------------------------------------

ORDINARY = [
    (0, 20),
    (3, 20),
    (19, 20),
    (20, 20),
    (1, 1),
    (37, 120),
    (500, 1000),
    (2, 5000),
    (4999, 5000),
    (123456, 1000000),
]
HUGE = [
    (0, 1e15),
    (3, 1e15),
    (40, 1e13),
    (1000, 1e15),
    (3e13, 1e15),
    (5e14, 1e15),
    (1e15 - 3, 1e15),
    (1e13 - 1, 1e13),
    (5e12 + 1, 1e13),
    (7e14 + 1, 7.4e14),
]
ODD = [(0.3, 0.5), (2.5, 10.0), (1e-5, 3.0), (0.7, 0.7), (1e9 + 0.5, 1e13 + 0.25)]


@pytest.mark.parametrize("method", ["clopper-pearson", "jeffreys"])
@pytest.mark.parametrize("alpha", [0.05, 1e-300, 0.9])
def test_ordinary_counts_exact(method, alpha):
    for c, n in ORDINARY:
        _assert_exact(c, n, alpha, method)


@pytest.mark.parametrize("method", ["clopper-pearson", "jeffreys"])
@pytest.mark.parametrize("alpha", [0.05, 1e-300])
def test_huge_n_exact(method, alpha):
    """n = 1e13 to 1e15: the regime where TOMS 708's asymptotic expansions (bgrat, basym) and
    the gamma-limit starting point are used; before issue 24 the error was 1.6-10 % of the width
    (issue 24's cases) and up to 1.1 widths at n = 1e15 (these cases)."""
    for c, n in HUGE:
        _assert_exact(c, n, alpha, method)


@pytest.mark.parametrize("method", ["clopper-pearson", "jeffreys"])
@pytest.mark.parametrize("alpha", [0.05, 1e-300])
def test_non_integer_counts_exact(method, alpha):
    for c, n in ODD:
        _assert_exact(c, n, alpha, method)


def test_tiny_alpha_lower_end():
    """The code before issue 24 gave 1.55e-13 here, and SciPy 1.17's beta.ppf(5e-301, 3, 18)
    gives 1.75e-33 with a RuntimeWarning: near 0, I_x(3, 18) = 1140 x^3 (1 + O(x)), so the root
    is (5e-301 / 1140)^(1/3) = 7.5978e-102."""
    from mltutor.stats._proportions import _exact_ends

    low, high = proportion_ci(3, 20, alpha=1e-300, method="clopper-pearson")
    assert low == pytest.approx((5e-301 / 1140) ** (1 / 3), rel=1e-13)
    # high is 1 - 1.6e-17 (it rounds to 1.0); its complement is held apart
    one_minus_high = _exact_ends(np.array([3.0]), np.array([20.0]), 1e-300, "clopper-pearson")[2][0]
    assert high == 1.0 and 1e-18 < one_minus_high < 1e-16
    _assert_exact(3, 20, 1e-300, "clopper-pearson")


def test_smallest_alpha_and_the_nobs_limit():
    """alpha = 5e-324 (alpha / 2 underflows to 0: the level is taken in log scale), and nobs
    above 1e15 refused for the exact methods, by name (Wilson has no such limit)."""
    low, high = proportion_ci(3, 20, alpha=5e-324, method="clopper-pearson")
    with mp.workdps(DPS):  # I_x(3, 18) = 1140 x^3 (1 + O(x)) near 0
        truth = (mp.mpf(5e-324) / 2 / 1140) ** (mp.mpf(1) / 3)
    assert abs(low - truth) <= 1e-13 * truth and high == 1.0
    for method in ("clopper-pearson", "jeffreys"):
        with pytest.raises(ValueError, match=r"nobs must be at most 1e\+15 for the"):
            proportion_ci(3, [10, 2e15], method=method)
    assert proportion_ci(3, 2e15)[0] > 0


def test_edges_are_exact_zero_and_one():
    low, high = proportion_ci([0, 7, 1e15], [7, 7, 1e15], alpha=1e-300, method="clopper-pearson")
    assert low[0] == 0.0 and high[1] == 1.0 and high[2] == 1.0
    low, high = proportion_ci([0, 1e6], 1e6, alpha=0.05, method="jeffreys")
    assert 0 < low[0] and high[1] < 1  # Jeffreys' Beta(1/2, n + 1/2) exists at count 0
    low, high = proportion_ci([0, 1e15], 1e15, alpha=1e-300, method="jeffreys")
    assert low[0] == 0.0 and high[1] == 1.0  # there the ends are within 1e-600 of 0 and 1


# --------------------------------------------------------------------------------------------
# Elementwise independence and no SciPy
# --------------------------------------------------------------------------------------------


def _random_counts(size, seed):
    rng = np.random.default_rng(seed)
    n = np.floor(10 ** rng.uniform(0, 15, size))
    c = np.floor(rng.random(size) * (n + 1))
    return c, n


@pytest.mark.parametrize("method", ["clopper-pearson", "jeffreys"])
@pytest.mark.parametrize("alpha", [0.05, 1e-300])
def test_an_entry_does_not_depend_on_the_others(method, alpha):
    """Before issue 24 the iterations ran until every entry had converged, so an entry's result
    moved with the rest of the array (by up to 1.3e-8 in issue 24's probe): now it is
    bit-identical alone, in an array of 3,000, and in a shuffled 2-D array."""
    c, n = _random_counts(3000, 7)
    low, high = proportion_ci(c, n, alpha=alpha, method=method)
    rng = np.random.default_rng(8)
    for i in rng.choice(c.size, 40, replace=False):
        assert proportion_ci(c[i], n[i], alpha=alpha, method=method) == (low[i], high[i])
        one = proportion_ci(c[i : i + 1], n[i : i + 1], alpha=alpha, method=method)
        assert (one[0][0], one[1][0]) == (low[i], high[i])
    perm = rng.permutation(c.size)
    plow, phigh = proportion_ci(
        c[perm].reshape(30, 100), n[perm].reshape(30, 100), alpha=alpha, method=method
    )
    assert np.array_equal(plow.ravel(), low[perm]) and np.array_equal(phigh.ravel(), high[perm])


_NO_SCIPY = """
import json, sys
sys.modules["scipy"] = None  # any import of scipy now raises ImportError
import numpy as np
from mltutor.stats import confusion_rate_intervals, proportion_ci
c, n = np.array(json.loads(sys.argv[1])), np.array(json.loads(sys.argv[2]))
out = {m: [v.tolist() for v in proportion_ci(c, n, alpha=a, method=m)]
       for m, a in (("clopper-pearson", 1e-300), ("jeffreys", 0.05))}
r = confusion_rate_intervals(np.array([[50, 0], [3, 2]]), method="clopper-pearson")
out["table"] = [r.recall.low.tolist(), r.recall.high.tolist()]
print(json.dumps(out))
"""


def test_same_results_without_scipy():
    """mltutor depends on NumPy only: with SciPy made unimportable the exact intervals are the
    same to the last bit (SciPy is not used for them at all)."""
    c, n = _random_counts(200, 9)
    proc = subprocess.run(
        [sys.executable, "-c", _NO_SCIPY, json.dumps(c.tolist()), json.dumps(n.tolist())],
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(proc.stdout)
    for method, alpha in (("clopper-pearson", 1e-300), ("jeffreys", 0.05)):
        low, high = proportion_ci(c, n, alpha=alpha, method=method)
        assert got[method] == [low.tolist(), high.tolist()]
    r = confusion_rate_intervals(np.array([[50, 0], [3, 2]]), method="clopper-pearson")
    assert got["table"] == [r.recall.low.tolist(), r.recall.high.tolist()]


# --------------------------------------------------------------------------------------------
# Properties over the whole range, and the solver on a wide grid
# --------------------------------------------------------------------------------------------


@st.composite
def _counts(draw):
    n = draw(st.one_of(st.integers(1, 10**6), st.integers(10**6, 10**15))).__float__()
    c = np.floor(draw(st.floats(0, 1)) * (n + 1))
    return min(c, n), n


@settings(max_examples=300, deadline=None)
@given(counts=_counts(), alpha=st.sampled_from([1e-300, 1e-20, 1e-3, 0.05, 0.5, 0.999]))
def test_interval_properties(counts, alpha):
    """Clopper–Pearson contains the estimate, contains Jeffreys' interval (Beta(c, n - c + 1)
    has the smaller first and larger second parameter: its distribution function is larger), and
    widens as alpha falls."""
    c, n = counts
    cp = proportion_ci(c, n, alpha=alpha, method="clopper-pearson")
    jf = proportion_ci(c, n, alpha=alpha, method="jeffreys")
    assert cp[0] <= c / n <= cp[1]
    assert cp[0] <= jf[0] <= jf[1] <= cp[1]
    wider = proportion_ci(c, n, alpha=alpha / 10, method="clopper-pearson")
    assert wider[0] <= cp[0] and cp[1] <= wider[1]


def test_solver_converges_on_a_wide_grid():
    """a from 0.01 to 1e15, b from 0.5 to 1e15, four levels: every entry converges (a NaN would
    mean an iteration cap was reached), x and 1 - x are consistent, and x grows with q."""
    from mltutor.stats._beta_quantile import beta_lower_quantile

    rng = np.random.default_rng(11)
    a = 10 ** rng.uniform(-2, 15, 4000)
    b = 10 ** rng.uniform(np.log10(0.5), 15, 4000)
    previous = np.zeros(a.size)
    for q in (5e-301, 1e-10, 0.025, 0.4):
        x, y = beta_lower_quantile(np.log(q), a, b)
        assert np.isfinite(x).all() and np.isfinite(y).all()
        assert ((x >= 0) & (x <= 1) & (y >= 0) & (y <= 1)).all()
        assert np.all(np.abs(x + y - 1) <= 4e-16)
        assert np.all(x >= previous)
        previous = x


def test_large_confusion_table_matches_proportion_ci():
    """The three rates of a 300 x 300 table are solved in one call: each equals proportion_ci on
    its own counts to the last bit."""
    rng = np.random.default_rng(12)
    cm = rng.poisson(rng.gamma(0.3, 2.0, (300, 300)))
    cm[np.diag_indices(300)] = rng.integers(0, 10_000, 300)
    r = confusion_rate_intervals(cm, method="clopper-pearson")
    for rate in (r.recall, r.precision, r.specificity):
        low, high = proportion_ci(rate.count, rate.nobs, method="clopper-pearson")
        assert np.array_equal(rate.low, low) and np.array_equal(rate.high, high)
