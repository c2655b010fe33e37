"""``mltutor.metrics`` has every classification and ranking function of scikit-learn's metrics.

The list is derived from scikit-learn itself, not written here: the public names of
``sklearn.metrics`` (its ``__all__``) whose function is defined in
``sklearn.metrics._classification`` or ``sklearn.metrics._ranking`` (in scikit-learn 1.9 these
modules also define the threshold functions ``confusion_matrix_at_thresholds`` and
``metric_at_thresholds``).  Regression, clustering, pairwise metrics, scorers, Displays and
helpers are defined elsewhere and so are not on the list.  (issue 29)
"""

from __future__ import annotations

import inspect

import pytest

import mltutor.metrics

sklearn_metrics = pytest.importorskip("sklearn.metrics")

#: The modules whose public functions mltutor.metrics must mirror.
MODULES = ("sklearn.metrics._classification", "sklearn.metrics._ranking")


def sklearn_names(namespace=sklearn_metrics) -> list[str]:
    """The public classification and ranking functions of ``sklearn.metrics``."""
    names = []
    for name in namespace.__all__:
        obj = getattr(namespace, name)
        if inspect.isfunction(obj) and getattr(obj, "__module__", None) in MODULES:
            names.append(name)
    return sorted(names)


def missing_from(face, names: list[str]) -> list[str]:
    """The names of ``names`` that ``face`` does not export in ``__all__``."""
    exported = set(face.__all__)
    return [name for name in names if name not in exported or not hasattr(face, name)]


def test_the_list_is_derived_and_plausible():
    names = sklearn_names()
    # A sanity floor: the derivation must find the long-standing functions of both modules.
    assert {"f1_score", "roc_auc_score", "log_loss", "label_ranking_loss"} <= set(names)
    assert len(names) >= 30, names


def test_mltutor_metrics_has_every_classification_and_ranking_function():
    missing = missing_from(mltutor.metrics, sklearn_names())
    assert not missing, f"scikit-learn has, mltutor.metrics lacks: {missing}"


def test_the_comparison_reports_a_removed_name():
    """The test can fail: a copy of mltutor.metrics without one name is reported."""

    class Copy:
        pass

    copy = Copy()
    copy.__all__ = [name for name in mltutor.metrics.__all__ if name != "coverage_error"]
    for name in copy.__all__:
        setattr(copy, name, getattr(mltutor.metrics, name))
    assert missing_from(copy, sklearn_names()) == ["coverage_error"]
    # ... and a name dropped from a copy of scikit-learn's list is not demanded.
    names = [name for name in sklearn_names() if name != "hinge_loss"]
    assert "hinge_loss" not in names and not missing_from(mltutor.metrics, names)


def test_the_signatures_match():
    """Same parameter names, kinds and defaults as scikit-learn (its decorators unwrapped)."""
    differ = {}
    for name in sklearn_names():
        ours = inspect.signature(getattr(mltutor.metrics, name))
        ref = inspect.signature(inspect.unwrap(getattr(sklearn_metrics, name)))
        a = [(p.name, p.kind, p.default) for p in ours.parameters.values()]
        b = [(p.name, p.kind, p.default) for p in ref.parameters.values()]
        if a != b:
            differ[name] = (str(ours), str(ref))
    assert not differ, differ
