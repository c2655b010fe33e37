"""Hypothesis strategies and the parity check shared by the metric tests.

``assert_parity`` runs scikit-learn and mltutor on the same arguments and asserts the same outcome:
the same exception type, or equal results (ints exactly, floats to 1e-12, NaN equal to NaN) and
the same set of user-facing warnings (category name and message).
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Examples actually executed per property test; printed by tests/conftest.py at the end.
CASES: Counter = Counter()

PROPERTY = settings(
    max_examples=1000,
    deadline=None,
    derandomize=True,  # reproducible in CI
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

AVERAGES = [None, "binary", "micro", "macro", "weighted", "samples"]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]

_POOLS = {
    "int": st.integers(-4, 9),
    "bigint": st.integers(-(10**12), 10**12),  # a wide range: the np.unique path
    "str": st.sampled_from(["a", "b", "cat", "dog", "ant", "Zebra", "b2"]),
    "bool": st.booleans(),
    "float": st.integers(-3, 8).map(float),  # whole-number floats are class labels
}
_ABSENT = {
    "int": [100, -50],
    "bigint": [7],
    "str": ["absent", "zz"],
    "bool": [],
    "float": [42.0, -9.0],
}
_DTYPES = {"int": np.int64, "bigint": np.int64, "str": str, "bool": bool, "float": np.float64}


@dataclass
class Problem:
    """A drawn classification problem."""

    kind: str
    y_true: np.ndarray
    y_pred: np.ndarray
    pool: list  # candidate labels (column indices for multilabel)
    absent: list  # labels guaranteed absent from the data

    @property
    def multilabel(self) -> bool:
        return self.kind == "multilabel"

    @property
    def n_classes(self) -> int:
        if self.multilabel:
            return self.y_true.shape[1]
        return np.union1d(self.y_true.ravel(), self.y_pred.ravel()).shape[0]


@st.composite
def problems(draw: Any, multilabel: bool = True) -> Problem:
    """Small problems: 1-60 samples, 1-5 classes of ints (incl. negative), wide ints, strings,
    bools or whole floats; or 2-4 column indicator matrices.

    Hypothesis draws the structure (kind, size, label pool, prediction mode, a seed); numpy fills
    the arrays from the seed.  Drawing every element through Hypothesis cost ~7 ms per example,
    which 11 x 1000 examples cannot afford.
    """
    kinds = list(_POOLS) + (["multilabel"] if multilabel else [])
    kind = draw(st.sampled_from(kinds))
    n = draw(st.integers(1, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if kind == "multilabel":
        k = draw(st.integers(2, 4))
        dtype = draw(st.sampled_from([np.int64, bool, np.float64]))
        density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
        y_true = (rng.random((n, k)) < density).astype(dtype)
        y_pred = (rng.random((n, k)) < draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))).astype(dtype)
        if draw(st.booleans()):
            y_pred = np.where(rng.random((n, k)) < 0.7, y_true, y_pred).astype(dtype)
        return Problem(kind, y_true, y_pred, list(range(k)), [])
    pool = draw(st.lists(_POOLS[kind], min_size=1, max_size=5, unique=True))
    t = rng.integers(0, len(pool), n)
    mode = draw(st.sampled_from(["random", "mostly_right", "perfect", "all_wrong", "constant"]))
    if mode == "perfect":
        p = t.copy()
    elif mode == "all_wrong":
        p = (t + 1) % len(pool)
    elif mode == "constant":
        p = np.full(n, draw(st.integers(0, len(pool) - 1)))
    elif mode == "mostly_right":
        p = np.where(rng.random(n) < 0.7, t, rng.integers(0, len(pool), n))
    else:
        p = rng.integers(0, len(pool), n)
    values = np.array(pool, dtype=_DTYPES[kind])
    y_true, y_pred = values[t], values[p]
    if kind == "int" and draw(st.integers(0, 3)) == 0:
        y_true = y_true.reshape(-1, 1)  # a column vector is accepted as 1-D
    return Problem(kind, y_true, y_pred, pool, _ABSENT[kind])


@st.composite
def labels_for(draw: Any, problem: Problem) -> Any:
    """None, or a list mixing present and absent labels (any order, sometimes a subset)."""
    if draw(st.booleans()):
        return None
    candidates = problem.pool + problem.absent
    if problem.multilabel:
        return draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=4, unique=True))
    return draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=6, unique=True))


@st.composite
def weights_for(draw: Any, problem: Problem) -> Any:
    """None, positive floats (some zero), dyadic floats (sums exact) or integer weights."""
    n = problem.y_true.shape[0]
    choice = draw(st.sampled_from(["none", "none", "float", "dyadic", "int"]))
    if choice == "none":
        return None
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    zeros = rng.random(n) < draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    if choice == "int":
        w = rng.integers(1, 4, n)
    elif choice == "dyadic":
        w = rng.choice([0.25, 0.5, 1.0, 3.0], n)
    else:
        w = rng.uniform(0.01, 10.0, n)
    return np.where(zeros, 0, w).astype(w.dtype)


def pos_label_for(problem: Problem) -> st.SearchStrategy:
    """Default 1 (wrong for strings), a present label or an absent one."""
    return st.sampled_from([1] + problem.pool + problem.absent[:1])


betas = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0, np.inf]), st.floats(0.0, 5.0))


# --------------------------------------------------------------------------------------------
# Parity
# --------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    result: Any
    error: BaseException | None
    warnings: set


def run(fn: Callable, *args: Any, **kwargs: Any) -> Outcome:
    """Call ``fn`` recording its result or exception and its user-facing warnings."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        try:
            result, error = fn(*args, **kwargs), None
        except Exception as exc:  # noqa: BLE001 - compared below
            result, error = None, exc
    seen = {
        (w.category.__name__, str(w.message)) for w in record if issubclass(w.category, UserWarning)
    }
    return Outcome(result, error, seen)


def same_error_type(reference: BaseException, ours: BaseException) -> bool:
    """sklearn's InvalidParameterError is both a ValueError and a TypeError; otherwise the
    built-in base class must agree."""
    if type(reference).__name__ == "InvalidParameterError":
        return isinstance(ours, (ValueError, TypeError))
    for base in (ZeroDivisionError, ValueError, TypeError):
        if isinstance(reference, base):
            return isinstance(ours, base)
    return type(ours) is type(reference)


def _same_text(ours: str, ref: str) -> bool:
    """Identical text; or, where a float-weighted support sum is printed in full (repr), the same
    words with numbers equal to 1e-12: sklearn and mltutor add the same weights in different orders,
    so the last printed digit may differ."""
    if ours == ref:
        return True
    a, b = ours.split(), ref.split()
    if len(a) != len(b) or a == b:
        return False
    for x, y in zip(a, b):
        if x != y:
            try:
                if abs(float(x) - float(y)) > 1e-12 * max(1.0, abs(float(y))):
                    return False
            except ValueError:
                return False
    return True


def assert_same(ours: Any, ref: Any, path: str = "result") -> None:
    """Equal structure; ints exactly, floats to 1e-12 with NaN == NaN; same int/float kind."""
    if ref is None:
        assert ours is None, f"{path}: expected None, got {ours!r}"
    elif isinstance(ref, str):
        assert isinstance(ours, str) and _same_text(ours, ref), (
            f"{path}: text differs\n--- mltutor\n{ours}\n--- sklearn\n{ref}"
        )
    elif isinstance(ref, dict):
        assert isinstance(ours, dict) and list(ours) == list(ref), (
            f"{path}: keys {list(ours)} != {list(ref)}"
        )
        for key in ref:
            assert_same(ours[key], ref[key], f"{path}[{key!r}]")
    elif isinstance(ref, (tuple, list)):
        assert isinstance(ours, (tuple, list)) and len(ours) == len(ref), (
            f"{path}: {ours!r} vs {ref!r}"
        )
        for i, (a, b) in enumerate(zip(ours, ref)):
            assert_same(a, b, f"{path}[{i}]")
    else:
        if isinstance(ref, float):
            assert isinstance(ours, float), f"{path}: expected a Python float, got {type(ours)}"
        a, b = np.asarray(ours), np.asarray(ref)
        assert a.shape == b.shape, f"{path}: shape {a.shape} != {b.shape}"
        if b.dtype.kind in "iub":
            assert a.dtype.kind in "iub", f"{path}: dtype {a.dtype} but sklearn has {b.dtype}"
            assert np.array_equal(a, b), f"{path}:\n{a}\n!=\n{b}"
        else:
            assert a.dtype.kind == "f", f"{path}: dtype {a.dtype} but sklearn has {b.dtype}"
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, equal_nan=True, err_msg=path)


def assert_parity(reference: Callable, ours: Callable, *args: Any, **kwargs: Any) -> Outcome:
    """Same exception type, or same result and same warnings.  Returns sklearn's outcome."""
    ref, got = run(reference, *args, **kwargs), run(ours, *args, **kwargs)
    if ref.error is not None:
        assert got.error is not None, (
            f"sklearn raised {ref.error!r}; mltutor returned {got.result!r}"
        )
        assert same_error_type(ref.error, got.error), (
            f"sklearn raised {ref.error!r}; mltutor {got.error!r}"
        )
        return ref
    assert got.error is None, f"mltutor raised {got.error!r}; sklearn returned {ref.result!r}"
    assert_same(got.result, ref.result)
    assert got.warnings == ref.warnings, (
        f"warnings differ:\nmltutor {got.warnings}\nsklearn {ref.warnings}"
    )
    return ref
