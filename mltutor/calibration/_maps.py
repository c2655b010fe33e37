"""Calibration maps fitted on held-out data: temperature scaling of logits and Platt scaling of scores."""

from __future__ import annotations

from numbers import Real
from typing import Any, NamedTuple

import numpy as np

from .. import _validation as _chk
from .._validation import calibration as _prob
from .._validation.params import check_scalar
from ._losses import _logit_problem, softmax


class _Margins(NamedTuple):
    """Per-sample logit margins d_ik = z_ik - z_iy (what the NLL's derivatives in beta need),
    their row maximum (for an overflow-free exp) and squares; computed once per fit."""

    d: np.ndarray
    d_max: np.ndarray
    d2: np.ndarray
    w: np.ndarray


def _margins(z: np.ndarray, y: np.ndarray, w: np.ndarray) -> _Margins:
    d = z - z[np.arange(z.shape[0]), y][:, None]
    return _Margins(d, d.max(axis=1, keepdims=True), d * d, w / w.sum())


def _beta_derivatives(m: _Margins, beta: float) -> tuple[float, float]:
    """First and second derivative in beta = 1/T of the weighted-mean NLL of softmax(beta z):
    f'(beta) = mean_i E_p[d_i],  f''(beta) = mean_i Var_p[d_i],  p = softmax(beta z_i) =
    softmax(beta d_i).  Margins d = z - z_y are better conditioned than E[z] - z_y."""
    e = np.exp(beta * (m.d - m.d_max))  # every exponent <= 0
    total = e.sum(axis=1)
    mean_d = np.einsum("ij,ij->i", e, m.d) / total
    var = np.einsum("ij,ij->i", e, m.d2) / total - mean_d**2
    return float(np.dot(m.w, mean_d)), float(max(np.dot(m.w, np.maximum(var, 0.0)), 0.0))


def fit_temperature(logits: Any, y_true: Any, *, sample_weight: Any = None) -> float:
    """Temperature :math:`T > 0` minimising the NLL of :math:`\\mathrm{softmax}(z / T)`.

    Temperature scaling (Guo et al., 2017) divides every logit by one number fitted on held-out
    data: :math:`T > 1` softens over-confident probabilities, :math:`T < 1` sharpens them.  As a
    function of :math:`\\beta = 1/T` the NLL

    .. math::
        f(\\beta) = \\frac{1}{\\sum_i w_i}\\sum_i w_i\\Bigl(\\log\\sum_k e^{\\beta z_{ik}}
        - \\beta z_{i y_i}\\Bigr)

    is *convex*, with :math:`f'(\\beta) = \\overline{E_{p}[z] - z_y}` and
    :math:`f''(\\beta) = \\overline{\\mathrm{Var}_p[z]}`, so a safeguarded Newton iteration on
    :math:`\\beta` (bracketed, bisecting when a step leaves the bracket) finds the unique minimum
    to machine precision.  Nothing bounds :math:`T` (a search box such as (0.1, 5) can silently
    return its edge); instead the two cases without an interior optimum raise:

    * :math:`f'(0) \\ge 0`: the logits score the true class no higher than average, and the NLL
      keeps falling as :math:`T \\to \\infty`;
    * every sample's true class already has the largest logit: the NLL keeps falling as
      :math:`T \\to 0`.

    Parameters
    ----------
    logits : array-like of shape (n_samples, n_classes) or (n_samples,)
        Raw scores before softmax; 1-D: binary logits with :math:`p(y{=}1) = \\sigma(z/T)`.
    y_true : array-like of shape (n_samples,)
        Class indices 0..K-1 (0/1 for binary logits).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.

    Returns
    -------
    float
        The fitted temperature.  It divides all logits of a sample by the same number, so each
        sample's argmax and the order of each class's *logits* across samples do not change.
        The order of a class's softmax probabilities across samples can change (they depend on
        the other logits too), so a one-vs-rest AUC can move slightly.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 2000)
    >>> logits = 3.0 * (np.eye(3)[y] + rng.normal(0, 0.6, (2000, 3)))  # over-confident
    >>> T = fit_temperature(logits, y)
    >>> from mltutor.calibration import nll_from_logits
    >>> round(T, 3) > 1, nll_from_logits(logits, y, T) < nll_from_logits(logits, y)
    (True, True)
    """
    z, y, w = _logit_problem(logits, y_true, sample_weight)
    keep = w > 0
    z, y, w = z[keep], y[keep], w[keep]
    margins = _margins(z, y, w)
    d = margins.d
    if not np.any(np.ptp(z, axis=1) > 0):
        raise ValueError("logits are equal within every row: the temperature has no effect.")
    slope_at_zero = float(np.dot(w, d.mean(axis=1)) / w.sum())
    if slope_at_zero >= 0:
        raise ValueError(
            "The NLL keeps decreasing as T -> infinity: on average the logits do not favour the true "
            "class (check that y_true indexes the logits' columns). No finite temperature is optimal."
        )
    if not np.any(d.max(axis=1) > 0):
        raise ValueError(
            "Every sample's true class already has the largest logit (y_true is perfectly "
            "separated): the NLL keeps decreasing as T -> 0, so no temperature is optimal. Fit on "
            "more (held-out) data."
        )
    lo, hi = 0.0, 1.0
    while _beta_derivatives(margins, hi)[0] < 0:  # f'(hi) < 0: the minimum lies further out
        lo, hi = hi, 2.0 * hi
        if hi > 1e300:  # pragma: no cover - unreachable with finite logits and the checks above
            raise ValueError("No finite temperature minimises the NLL.")
    beta = 0.5 * (lo + hi) if lo > 0 else min(1.0, hi)
    eps = np.finfo(float).eps
    for _ in range(200):
        g, h = _beta_derivatives(margins, beta)
        if g < 0:
            lo = beta
        elif g > 0:
            hi = beta
        else:
            break
        step = g / h if h > 0 else np.inf
        if abs(step) <= 4 * eps * beta:  # Newton's next move is below float resolution
            break
        new = beta - step
        if not lo < new < hi:  # a step out of the bracket: bisect instead
            new = 0.5 * (lo + hi)
        if hi - lo <= 4 * eps * hi:
            beta = new
            break
        beta = new
    return float(1.0 / beta)


def apply_temperature(logits: Any, temperature: float) -> np.ndarray:
    """Calibrated probabilities :math:`\\mathrm{softmax}(z / T)` (rows sum to 1).

    1-D binary logits give the 1-D probability of class 1, :math:`\\sigma(z / T)`.

    >>> apply_temperature([[2.0, 0.0]], 2.0).round(4).tolist()
    [[0.7311, 0.2689]]
    >>> apply_temperature([0.0, 2.0], 2.0).round(4).tolist()
    [0.5, 0.7311]
    """
    t = _prob.check_temperature(temperature)
    z = _prob.check_real_array(logits, "logits", ndims=(1, 2))
    if z.ndim == 1:
        return softmax(np.stack([np.zeros_like(z), z / t], axis=1))[:, 1]
    return softmax(z / t)


# --------------------------------------------------------------------------------------------
# Platt scaling
# --------------------------------------------------------------------------------------------


def _binary_01(y_true: Any, n: int, name: str = "y_true") -> np.ndarray:
    if _chk.not_array_like(y_true):
        raise TypeError(f"{name} must be an array-like of 0/1 labels; got {y_true!r}.")
    y = _chk.check_labels_1d(y_true, name)
    _chk.check_lengths("", scores=np.empty(n), y_true=y)
    return _chk.class_indices(y, 2, name, binary_1d=True)


def fit_platt(
    scores: Any, y_true: Any, *, sample_weight: Any = None, smoothing: bool = True
) -> tuple[float, float]:
    """Platt scaling: fit :math:`p = \\sigma(a s + b)` to binary labels by maximum likelihood.

    Minimises the (weighted) cross-entropy

    .. math::
        L(a, b) = \\sum_i w_i\\bigl(\\log(1 + e^{a s_i + b}) - t_i (a s_i + b)\\bigr)

    by Newton's method with a backtracking line search (the problem is convex; scores are
    standardised first for conditioning).  With ``smoothing=True`` (the default, Platt 1999, as
    scikit-learn's ``CalibratedClassifierCV(method='sigmoid')``) the targets are not 0/1 but
    :math:`t_+ = (N_+ + 1)/(N_+ + 2)` and :math:`t_- = 1/(N_- + 2)` (:math:`N_\\pm` the weighted
    class counts): a Bayesian prior that keeps :math:`a` finite even when the scores separate the
    classes.  ``smoothing=False`` is plain logistic regression on one feature; it raises when the
    classes are separable (the likelihood then has no maximum) or one class is missing.

    Parameters
    ----------
    scores : array-like of shape (n_samples,)
        Uncalibrated scores (decision values, logits, SVM margins...).
    y_true : array-like of shape (n_samples,)
        0/1 labels.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    smoothing : bool, default True
        Platt's target smoothing.

    Returns
    -------
    (a, b) : tuple of float
        scikit-learn stores the same map as ``expit(-(A s + B))``: ``A = -a``, ``B = -b``.
        With ``a > 0`` the map is increasing and keeps the ranking (AUC unchanged), while the
        accuracy at a fixed cut-off such as 0.5 can change; ``a < 0`` reverses the
        ranking (the AUC becomes 1 − AUC): the fit gives it to scores anti-correlated with the
        labels, and can give it to a score that ranks most pairs the right way round when a few
        outlying scores pull the other way (chapter 6b), so check its sign.

    Examples
    --------
    >>> a, b = fit_platt([-2.0, -1.0, 0.5, 1.0, 2.0, -0.2], [0, 0, 1, 1, 1, 1])
    >>> a > 0
    True
    """
    smoothing = _chk.check_bool(smoothing, "smoothing")
    s = _prob.check_real_array(scores, "scores", ndims=(1, 2))
    if s.ndim == 2:
        if s.shape[1] != 1:
            raise ValueError(f"scores must be 1-D (one score per sample); got shape {s.shape}.")
        s = s.reshape(-1)
    y = _binary_01(y_true, s.shape[0])
    w = _chk.check_sample_weight(
        sample_weight, s.shape[0], non_negative=True, dtype_error=ValueError
    )
    w = np.ones_like(s) if w is None else w
    keep = w > 0
    s, y, w = s[keep], y[keep], w[keep]
    n_pos, n_neg = float(w[y == 1].sum()), float(w[y == 0].sum())
    if smoothing:
        t = np.where(y == 1, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    else:
        if n_pos == 0 or n_neg == 0:
            raise ValueError(
                "y_true holds one class only: without smoothing the intercept goes to infinity. "
                "Use smoothing=True."
            )
        t = y.astype(np.float64)
    mean_t = float(np.dot(w, t) / w.sum())
    centre, scale = float(s.mean()), float(s.std())
    if scale == 0 or not np.isfinite(scale) or np.ptp(s) == 0:  # constant scores: only b matters
        return 0.0, float(np.log(mean_t) - np.log1p(-mean_t))
    if not smoothing and (s[y == 0].max() <= s[y == 1].min() or s[y == 1].max() <= s[y == 0].min()):
        raise ValueError(
            "The scores separate the two classes: the likelihood has no maximum (a -> infinity) "
            "without smoothing. Use smoothing=True (Platt's targets)."
        )
    x = (s - centre) / scale

    def loss(params: np.ndarray) -> float:
        zz = params[0] * x + params[1]
        return float(np.dot(w, np.logaddexp(0.0, zz) - t * zz))

    params = np.array([0.0, np.log((n_pos + 1.0) / (n_neg + 1.0))])
    current = loss(params)
    for _ in range(100):
        zz = params[0] * x + params[1]
        p = 0.5 * (1.0 + np.tanh(0.5 * zz))  # the logistic function, without overflow
        r = w * (p - t)
        grad = np.array([np.dot(r, x), r.sum()])
        c = w * p * (1.0 - p)
        hess = np.array([[np.dot(c, x * x), np.dot(c, x)], [np.dot(c, x), c.sum()]])
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = grad / max(np.abs(hess).max(), 1e-300)
        size, slack = 1.0, 16 * np.finfo(float).eps * abs(current)
        while True:  # backtrack until the loss does not rise (beyond rounding)
            trial = params - size * step
            value = loss(trial)
            if value <= current + slack or size < 1e-10:
                break
            size *= 0.5
        moved = np.max(np.abs(trial - params))
        params, current = trial, value
        if moved <= 1e-13 * (1.0 + np.max(np.abs(params))):
            break
    a_std, b_std = params
    return float(a_std / scale), float(b_std - a_std * centre / scale)


def apply_platt(scores: Any, a: float, b: float) -> np.ndarray:
    """Calibrated probabilities :math:`\\sigma(a s + b) = 1 / (1 + e^{-(a s + b)})`.

    >>> apply_platt([0.0, 1.0], 2.0, -1.0).round(4).tolist()
    [0.2689, 0.7311]
    """
    s = _prob.check_real_array(scores, "scores", ndims=(1, 2)).reshape(-1)
    a, b = (
        check_scalar(
            v,
            name,
            Real,
            min_val=-np.inf,
            max_val=np.inf,
            include_boundaries="neither",
            expected="a finite number",
            type_error=ValueError,
        )
        for name, v in (("a", a), ("b", b))
    )
    z = a * s + b
    return np.exp(-np.logaddexp(0.0, -z))
