"""mltutor: the teaching package of the course *Evaluating classifiers and detectors honestly*.

Every metric is arithmetic on one of three counting kernels (see ``DESIGN``):
the confusion count (:mod:`mltutor.confusion`), the sorted-score cumulative
counts, and detection matching.  :mod:`mltutor.metrics` is the
scikit-learn-compatible façade: swap ``sklearn.metrics`` for
``mltutor.metrics`` and get the same numbers.
"""

__version__ = "0.1.0"
