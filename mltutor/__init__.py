"""mltutor: the teaching package of the course *Evaluating classifiers and detectors honestly*.

Every metric is arithmetic on one of three counting kernels, and each kernel is one package:

* :mod:`mltutor.confusion` — the confusion count, and every metric of predicted labels;
* :mod:`mltutor.curves` — sorted-score cumulative counts, and every metric of scores
  (curves, areas, thresholds, retrieval);
* :mod:`mltutor.detection` — greedy matching, and every metric of boxes, masks and keypoints.

:mod:`mltutor.metrics` is the scikit-learn-compatible face: swap ``sklearn.metrics`` for
``mltutor.metrics`` and get the same numbers.  Around the kernels: :mod:`mltutor.calibration`,
:mod:`mltutor.stats`, :mod:`mltutor.conformal`, :mod:`mltutor.monitoring`,
:mod:`mltutor.streaming`, :mod:`mltutor.report`, :mod:`mltutor.plots`,
:mod:`mltutor.datasets`, and the course's :mod:`mltutor.check`, :mod:`mltutor.exercises` and
:mod:`mltutor.grading`.  The map of the folders, and where new code goes, is in the repository's
``CONTRIBUTING.md``.
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

try:  # the version is written once, in pyproject.toml; the installed metadata carries it
    __version__ = _version("mltutor")
except PackageNotFoundError:  # a source tree put on sys.path by hand, never installed
    __version__ = "0+unknown"
del PackageNotFoundError, _version
