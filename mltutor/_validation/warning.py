"""The warning every metric raises for 0/0, and how mltutor points a warning at the learner's line."""

from __future__ import annotations

import os
import sys
import warnings

__all__ = ["UndefinedMetricWarning", "warn"]


class UndefinedMetricWarning(UserWarning):
    """A metric is 0/0 for some label or sample and was set by ``zero_division``.

    Same name and meaning as ``sklearn.exceptions.UndefinedMetricWarning``; mltutor defines its own
    so that it does not need scikit-learn at run time.
    """


#: The ``mltutor`` folder — frames from files under it are skipped when attributing a warning.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """Issue a warning attributed to the first caller outside mltutor (the learner's line)."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
