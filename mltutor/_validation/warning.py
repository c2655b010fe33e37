"""The warning every metric raises for 0/0, and how mltutor points a warning at the learner's line."""

from __future__ import annotations

import functools
import os
import sys
import warnings

from ..exceptions import UndefinedMetricWarning

__all__ = ["UndefinedMetricWarning", "warn"]


@functools.cache
def _issued_as(category: type[Warning]) -> type[Warning]:
    """The class a warning of ``category`` is issued as (see :class:`UndefinedMetricWarning`)."""
    if category is not UndefinedMetricWarning:
        return category
    try:
        from sklearn.exceptions import UndefinedMetricWarning as sklearn_warning
    except ImportError:
        return category
    # Its own qualified name, found by the module's __getattr__, so that pickle finds the class
    # (a worker process that turned the warning into an error sends it back pickled).
    return type(
        "UndefinedMetricWarning",
        (UndefinedMetricWarning, sklearn_warning),
        {
            "__module__": __name__,
            "__qualname__": _ISSUED_NAME,
            "__doc__": UndefinedMetricWarning.__doc__,
        },
    )


#: The name under which pickle finds the class issued where scikit-learn is installed.
_ISSUED_NAME = "_UndefinedMetricWarningAsSklearns"


def __getattr__(name: str) -> type[Warning]:
    """The issued class, created on first use (unpickling may be that first use)."""
    if name == _ISSUED_NAME:
        return _issued_as(UndefinedMetricWarning)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The ``mltutor`` folder — frames from files under it are skipped when attributing a warning.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """Issue a warning attributed to the first caller outside mltutor (the learner's line)."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, _issued_as(category), stacklevel=level)
