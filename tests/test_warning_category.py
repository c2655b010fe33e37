"""mltutor's UndefinedMetricWarning obeys a filter written for scikit-learn's (issue 24).

A learner who swaps ``sklearn.metrics`` for ``mltutor.metrics`` keeps the warning filters they
had: where scikit-learn is installed the warning is issued as a subclass of both classes.  Without
scikit-learn, mltutor's own class is issued and nothing fails.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

from mltutor import metrics
from mltutor._validation import UndefinedMetricWarning

Y_TRUE, Y_PRED = np.array([0, 0, 1, 1]), np.array([0, 0, 0, 0])  # precision of class 1 is 0/0


def _caught(filter_category=None):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        if filter_category is not None:
            warnings.filterwarnings("ignore", category=filter_category)
        metrics.precision_score(Y_TRUE, Y_PRED)
    return [w for w in record if "precision" in str(w.message).lower()]


def test_a_scikit_learn_filter_silences_mltutor():
    sklearn_exceptions = pytest.importorskip("sklearn.exceptions")
    assert len(_caught()) == 1
    assert _caught(sklearn_exceptions.UndefinedMetricWarning) == []


def test_mltutor_filter_and_pytest_warns_still_work():
    assert _caught(UndefinedMetricWarning) == []
    with pytest.warns(UndefinedMetricWarning):
        metrics.precision_score(Y_TRUE, Y_PRED)


def test_issued_class_is_both():
    sklearn_exceptions = pytest.importorskip("sklearn.exceptions")
    (w,) = _caught()
    assert issubclass(w.category, UndefinedMetricWarning)
    assert issubclass(w.category, sklearn_exceptions.UndefinedMetricWarning)
    assert w.category.__name__ == "UndefinedMetricWarning"


def test_without_scikit_learn():
    code = (
        "import sys, warnings\n"
        "sys.modules['sklearn'] = None  # import sklearn now raises ImportError\n"
        "import numpy as np\n"
        "from mltutor import metrics\n"
        "from mltutor._validation import UndefinedMetricWarning\n"
        "with warnings.catch_warnings(record=True) as r:\n"
        "    warnings.simplefilter('always')\n"
        "    metrics.precision_score(np.array([0, 1]), np.array([0, 0]))\n"
        "assert [w.category for w in r] == [UndefinedMetricWarning], r\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
