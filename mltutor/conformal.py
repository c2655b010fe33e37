"""Split-conformal prediction sets for classification: LAC and APS.

A classifier's probabilities are not a promise.  Split conformal prediction turns them into
*sets* of classes with one :cite:p:`vovk2005algorithmic,angelopoulos2023gentle`: hold out ``n``
labelled calibration samples the model never saw, score how badly the model treats each one's
true class (its *non-conformity score*), and keep the ``⌈(n + 1)(1 − α)⌉``-th smallest score
as a threshold ``q̂``.  A new sample's set holds every class whose score is at most ``q̂``.  If the
calibration and test samples are exchangeable (e.g. drawn i.i.d. from one population), then

.. math:: 1 - \\alpha \\;\\le\\; P\\big(Y_{\\text{test}} \\in C(X_{\\text{test}})\\big)
          \\;\\le\\; 1 - \\alpha + \\frac{1}{n + 1}

(the upper bound when scores have no ties and the set is ``{y : s(x, y) <= q̂}``), **on average
over calibration and test draws**: the *marginal* coverage.  Nothing is promised for one class,
one region of the inputs, or one particular calibration set.  With untied scores, the coverage that
one calibration set gives on
new samples follows the Beta(k, n + 1 − k) distribution, so it falls below ``1 − α`` for nearly
half of all calibration sets once ``n`` is in the hundreds (0.478 at n = 500, α = 0.1), for
fewer at small ``n`` (0.377 at n = 19, α = 0.05); the smallest ``k`` with
P(Beta(k, n + 1 − k) ≥ 1 − α) ≥ 1 − δ gives
``1 − α`` for the calibration set at hand with confidence ``1 − δ`` (a *training-conditional*
guarantee, :cite:p:`vovk2012conditional`).

Scores (the model's probability ``p̂(y | x)`` of each class ``y``):

* ``"lac"`` (least ambiguous set-valued classifier): :math:`s(x, y) = 1 - \\hat p(y \\mid x)`.
  When ``p̂`` is the true conditional probability, these sets have the smallest expected size
  among sets with the same coverage :cite:p:`sadinle2019least`; with an estimated ``p̂`` that is
  not promised, though the sets are usually small.  A set grows on a hard input only when
  several classes each reach ``1 − q̂``, and it is empty when no class does.
* ``"aps"`` (adaptive prediction sets, :cite:p:`romano2020classification`): the total
  probability of the classes ranked at or above ``y``,
  :math:`s(x, y) = \\sum_{y'} \\hat p(y' \\mid x)\\,[\\hat p(y' \\mid x) \\ge \\hat p(y \\mid x)]`
  (ties in ``p̂`` ordered by class index).  A set takes the classes in that order until their
  mass reaches ``q̂``, the class that reaches it included: class ``y`` is in when the mass ranked
  strictly above it is below ``q̂``, or its own score is at most ``q̂`` (a class of probability
  exactly 0 has mass above equal to its score), and the top class always is (Romano et al.'s
  non-randomised sets; never empty, and a superset of ``{y : s(x, y) <= q̂}``, so the marginal
  coverage is at least ``1 − α``, often more).  With
  ``randomized=True`` the score is :math:`s(x, y) - U\\,\\hat p(y \\mid x)`,
  ``U ~ Uniform(0, 1)`` drawn per sample, and the set is ``{y : score <= q̂}``: the class that
  crosses ``q̂`` stays with a probability that makes the average coverage close to ``1 − α``
  (sets may then be empty).  Sets grow where the model is unsure.

If ``α < 1 / (n + 1)`` the rank ``⌈(n + 1)(1 − α)⌉`` exceeds ``n``: no finite threshold is
valid, ``q̂ = ∞`` and every set holds every class :cite:p:`angelopoulos2023gentle`.

>>> import numpy as np
>>> from mltutor.conformal import ConformalClassifier
>>> cal = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]])
>>> sets = ConformalClassifier("lac").fit(cal, [0, 1, 1, 2], alpha=0.2).predict_sets(cal)
>>> sets.astype(int).tolist()
[[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]]
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ._validation import check_bool, check_option
from ._validation.stats import (
    check_alpha,
    check_class_labels,
    check_conformal_scores,
    check_n_samples_int,
    check_proba_matrix,
)

__all__ = [
    "SCORES",
    "ConformalClassifier",
    "aps_scores",
    "conformal_quantile",
    "conformal_rank",
    "coverage",
    "lac_scores",
    "mass_above",
    "set_sizes",
]

#: The non-conformity scores :class:`ConformalClassifier` knows.
SCORES = ("lac", "aps")


def conformal_rank(n: int, alpha: float) -> int:
    """``k = ⌈(n + 1)(1 − α)⌉`` in exact rational arithmetic, ``α`` read as the shortest
    decimal that prints as the float given (``0.7`` is 7/10).  In floats ``(n + 1) * (1 - 0.7)`` is
    3.0000000000000004 for n = 9, and its ceiling 4 would ask for one score more than needed
    (MAPIE 1.6 computes it in floats).

    >>> conformal_rank(9, 0.1), conformal_rank(100, 0.1), conformal_rank(9, 0.7)
    (9, 91, 3)
    """
    n = check_n_samples_int(n, "n")
    return math.ceil((n + 1) * (1 - Fraction(repr(check_alpha(alpha)))))


def conformal_quantile(scores: np.ndarray, alpha: float) -> float:
    """The split-conformal threshold: the ``k``-th smallest of ``n`` scores,
    ``k = ⌈(n + 1)(1 − α)⌉`` (the empirical ``k / n`` quantile), or ``inf`` when ``k > n``.

    Equal to ``np.quantile(scores, k / n, method="lower")`` whenever ``k <= n``, and to MAPIE
    1.6's ``_compute_classification_quantile`` when its float rank is also ``k``: MAPIE takes the
    ceiling of ``(n + 1) * (1 - alpha)`` in floats, one rank higher at n = 9, α = 0.7 (see
    :func:`conformal_rank`).

    >>> conformal_quantile(np.array([0.3, 0.1, 0.9, 0.5]), alpha=0.4)
    0.5
    >>> conformal_quantile(np.array([0.3, 0.1, 0.9, 0.5]), alpha=0.1)  # 1/(n+1) = 0.2 > alpha
    inf
    """
    scores = check_conformal_scores(scores)
    n = scores.shape[0]
    k = conformal_rank(n, check_alpha(alpha))
    if k > n:
        return math.inf
    return float(np.partition(scores, k - 1)[k - 1])


def lac_scores(proba: np.ndarray) -> np.ndarray:
    """LAC score of every class: ``1 - p̂``, shape (n_samples, n_classes)."""
    return 1.0 - proba


def _ranked_cumulative(proba: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's classes by descending ``p̂`` (ties by class index, a stable sort) and the
    cumulative mass along that order: the one sort behind both APS quantities."""
    order = np.argsort(-proba, axis=1, kind="stable")
    return order, np.cumsum(np.take_along_axis(proba, order, axis=1), axis=1)


def _unrank(order: np.ndarray, ranked: np.ndarray) -> np.ndarray:
    out = np.empty_like(ranked)
    np.put_along_axis(out, order, ranked, axis=1)
    return out


def _shifted(cumulative: np.ndarray) -> np.ndarray:
    """The exclusive cumulative sum: the mass ranked strictly above each position."""
    above = np.zeros_like(cumulative)
    above[:, 1:] = cumulative[:, :-1]
    return above


def aps_scores(proba: np.ndarray, u: np.ndarray | None = None) -> np.ndarray:
    """APS score of every class: the probability mass of the classes ranked at or above it
    (descending ``p̂``, ties by class index), less ``u * p̂`` when ``u`` (one per row) is
    given."""
    order, cumulative = _ranked_cumulative(proba)
    scores = _unrank(order, cumulative)
    if u is not None:
        scores -= u[:, None] * proba
    return scores


def mass_above(proba: np.ndarray) -> np.ndarray:
    """Probability mass of the classes ranked strictly above each class (descending ``p̂``, ties
    by class index): the APS score less the class's own ``p̂``, as an exclusive cumulative sum.

    >>> mass_above(np.array([[0.2, 0.5, 0.3]])).round(2).tolist()
    [[0.8, 0.0, 0.5]]
    """
    order, cumulative = _ranked_cumulative(proba)
    return _unrank(order, _shifted(cumulative))


def coverage(sets: np.ndarray, labels: Any) -> float:
    """Share of samples whose true class (a column index) is in its set.

    >>> coverage(np.array([[True, False], [True, True]]), [1, 0])
    0.5
    """
    sets = np.asarray(sets)
    if sets.ndim != 2 or sets.dtype.kind != "b":
        raise ValueError(
            f"sets must be a 2-D boolean matrix (samples x classes); got {sets.dtype} "
            f"of shape {sets.shape}."
        )
    labels = check_class_labels(labels, sets.shape[0], sets.shape[1], "labels", "sets")
    return float(np.mean(sets[np.arange(sets.shape[0]), labels]))


def set_sizes(sets: np.ndarray) -> np.ndarray:
    """Number of classes in each set.

    >>> set_sizes(np.array([[True, False, True], [False, False, False]])).tolist()
    [2, 0]
    """
    return np.asarray(sets).sum(axis=1)


class ConformalClassifier:
    """Split-conformal prediction sets from a fitted model's class probabilities.

    Parameters
    ----------
    score : {'lac', 'aps'}
        Non-conformity score (see the module docstring).
    randomized : bool
        APS only: subtract ``U * p̂(y)`` from the score, with ``U`` drawn per sample at fit and at
        prediction time.  Sets may then be empty.
    random_state : int, numpy Generator or None
        Seed of ``U`` (``randomized=True``).

    Attributes
    ----------
    quantile_ : float
        The threshold ``q̂`` (``inf`` when ``alpha < 1 / (n + 1)``).
    alpha_ : float
    n_calibration_ : int
    n_classes_ : int
    calibration_scores_ : ndarray
        The score of each calibration sample's true class.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> proba = rng.dirichlet(np.ones(4), size=500)
    >>> labels = np.array([rng.choice(4, p=p) for p in proba])
    >>> cp = ConformalClassifier("aps").fit(proba[:250], labels[:250], alpha=0.1)
    >>> sets = cp.predict_sets(proba[250:])
    >>> coverage(sets, labels[250:]) >= 0.85, sets.shape
    (True, (250, 4))
    """

    def __init__(self, score: str = "lac", *, randomized: bool = False, random_state: Any = None):
        self.score = check_option(score, SCORES, "score")
        self.randomized = check_bool(randomized, "randomized")
        if self.randomized and self.score != "aps":
            raise ValueError(
                "randomized=True is defined for score='aps' only (LAC has no ties "
                "to break within a set)."
            )
        self.random_state = random_state

    def _scores(self, proba: np.ndarray) -> np.ndarray:
        if self.score == "lac":
            return lac_scores(proba)
        u = self._rng.random(proba.shape[0]) if self.randomized else None
        return aps_scores(proba, u)

    def fit(self, cal_proba: Any, cal_labels: Any, alpha: float) -> ConformalClassifier:
        """Compute the threshold ``q̂`` from held-out calibration probabilities and labels.

        Parameters
        ----------
        cal_proba : array-like of shape (n, n_classes)
            The model's probabilities on calibration samples it was not trained on.
        cal_labels : array-like of shape (n,)
            Their true classes as column indices of ``cal_proba``.
        alpha : float in (0, 1)
            Allowed miscoverage: sets hold the true class with probability >= 1 - alpha, on
            average over calibration sets and new samples (marginal coverage).
        """
        proba = check_proba_matrix(cal_proba, "cal_proba")
        labels = check_class_labels(cal_labels, proba.shape[0], proba.shape[1])
        self.alpha_ = check_alpha(alpha)
        self._rng = np.random.default_rng(self.random_state)
        rows = np.arange(proba.shape[0])
        self.calibration_scores_ = self._scores(proba)[rows, labels]
        self.n_calibration_, self.n_classes_ = proba.shape
        self.quantile_ = conformal_quantile(self.calibration_scores_, self.alpha_)
        return self

    def predict_sets(self, test_proba: Any) -> np.ndarray:
        """Boolean matrix (n_test, n_classes): class ``j`` is in sample ``i``'s set when its score
        is at most ``q̂`` (LAC, randomised APS), or when the mass ranked above it is below ``q̂``
        (plain APS: the class that reaches ``q̂`` is kept)."""
        if not hasattr(self, "quantile_"):
            raise RuntimeError("Call fit(cal_proba, cal_labels, alpha) before predict_sets.")
        proba = check_proba_matrix(test_proba, "test_proba", self.n_classes_)
        if self.score == "aps" and not self.randomized:
            return _plain_aps_sets(proba, self.quantile_)
        return self._scores(proba) <= self.quantile_


def _plain_aps_sets(proba: np.ndarray, quantile: float) -> np.ndarray:
    """Romano et al.'s non-randomised APS sets: the classes ranked above the one whose mass
    reaches ``q̂``, that one included, and always the top class.

    ``mass_above < q̂`` alone drops a class of probability exactly 0 whose score equals ``q̂``
    (its mass above *is* its score): with rows ``[1, 0, 0]`` every score is 1, ``q̂ = 1`` and the
    sets held class 0 only, coverage 1/3 at a promised 0.9.  The union with
    ``{y : s(x, y) <= q̂}`` restores the superset of the split-conformal set, so coverage is at
    least ``1 − α``; the top class keeps the sets non-empty even when ``q̂ = 0``.
    """
    order, cumulative = _ranked_cumulative(proba)  # one sort for both (two took 2.2x as long)
    ranked = (_shifted(cumulative) < quantile) | (cumulative <= quantile)
    ranked[:, 0] = True  # the top class (the first in the stable order, as np.argmax)
    return _unrank(order, ranked)
