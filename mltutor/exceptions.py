"""The warnings and errors mltutor raises that a learner may want to filter or catch.

::

    UserWarning
    ├── UndefinedMetricWarning     a metric is 0/0 and was set by ``zero_division``
    └── SmallBinWarning            a bin of a reliability diagram holds too few samples to read

Errors about bad input are plain ``ValueError`` and ``TypeError``, as in scikit-learn, and name
the argument at fault.
"""

__all__ = ["SmallBinWarning", "UndefinedMetricWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric is 0/0 for some label or sample and was set by ``zero_division``.

    Same name and meaning as ``sklearn.exceptions.UndefinedMetricWarning``; mltutor defines its own
    so that it does not need scikit-learn at run time.  Where scikit-learn is installed, the
    warning is *issued* as a subclass of both classes, so a filter a learner already has for
    scikit-learn's class still applies after swapping ``sklearn.metrics`` for
    ``mltutor.metrics``, and so does a filter for this one::

        warnings.filterwarnings("ignore", category=sklearn.exceptions.UndefinedMetricWarning)

    scikit-learn is imported at the first such warning, not when mltutor is imported.
    """


class SmallBinWarning(UserWarning):
    """A non-empty bin of a calibration curve holds fewer samples than ``min_bin_count``.

    Issued by :func:`mltutor.calibration.calibration_curve_intervals`; the message names the bins
    and their counts.  The point of such a bin (its fraction of positives) moves by a large step
    with each sample, so its gap from the diagonal says little: read its interval, merge bins
    (fewer ``n_bins``, or ``strategy="quantile"``) or collect more data.  scikit-learn has no
    such warning, so this class has no scikit-learn twin.
    """
