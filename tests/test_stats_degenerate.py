"""Bootstrap inputs whose interval would mean nothing are refused, not returned (issue 24).

Before: one sample, one group, or one group per stratum (``evaluate(y, P, groups=y)``) gave a
zero-width interval without a word; a metric returning ``None``, ``"0.5"``, a complex number or
a dict gave NaN, 0.5 or a bare ``float()`` error; ``skip_single_class="no"`` was read as True.
"""

from __future__ import annotations

import numpy as np
import pytest

from mltutor.report import evaluate
from mltutor.stats import bootstrap_ci, paired_bootstrap

RNG = np.random.default_rng(3)
Y = RNG.integers(0, 2, 60)
P = np.where(RNG.random(60) < 0.8, Y, 1 - Y)


def accuracy(t, p):
    return float(np.mean(t == p))


def test_one_sample_is_refused():
    with pytest.raises(ValueError, match="one sample.*zero-width"):
        bootstrap_ci(accuracy, [1], [1])
    with pytest.raises(ValueError, match="one sample"):
        paired_bootstrap(accuracy, [1], [1], [0])


def test_one_group_is_refused():
    with pytest.raises(ValueError, match="single group.*zero width"):
        bootstrap_ci(accuracy, Y, P, groups=np.zeros(60), random_state=0)


def test_one_group_per_stratum_is_refused():
    with pytest.raises(ValueError, match="every stratum holds a single group"):
        bootstrap_ci(accuracy, Y, P, groups=Y, strata=Y, random_state=0)
    scores = np.eye(2)[P] * 0.8 + 0.1
    with pytest.raises(ValueError, match="every stratum holds a single group"):
        evaluate(Y, scores, groups=Y, n_resamples=20)


def test_some_strata_with_a_single_group_warn():
    groups = np.where(Y == 0, 0, 1 + np.arange(60) % 5)  # class 0: one group; class 1: five
    with pytest.warns(UserWarning, match="1 of 2 strata hold a single group"):
        bootstrap_ci(accuracy, Y, P, groups=groups, strata=Y, random_state=0, n_resamples=50)


@pytest.mark.parametrize("returned", [None, "0.5", 0.5 + 0j, {"acc": 0.5}, True, object()])
def test_a_metric_must_return_real_numbers(returned):
    with pytest.raises(TypeError, match="real number"):
        bootstrap_ci(lambda t, p: returned, Y, P, n_resamples=5, random_state=0)
    with pytest.raises(TypeError, match="real number"):
        paired_bootstrap(lambda t, p: returned, Y, P, 1 - P, n_resamples=5, random_state=0)


def test_a_metric_that_goes_bad_on_a_resample_is_named():
    calls = []

    def flaky(t, p):
        calls.append(1)
        return None if len(calls) == 3 else accuracy(t, p)

    with pytest.raises(TypeError, match="bootstrap resample 1"):
        bootstrap_ci(flaky, Y, P, n_resamples=5, random_state=0)


@pytest.mark.parametrize("flag", ["no", 0, 1, None])
def test_skip_single_class_must_be_a_bool(flag):
    with pytest.raises(TypeError, match="skip_single_class"):
        bootstrap_ci(accuracy, Y, P, skip_single_class=flag, n_resamples=5)


def test_arrays_and_numpy_scalars_are_still_fine():
    r = bootstrap_ci(
        lambda t, p: np.array([np.mean(t == p), np.mean(p)]), Y, P, n_resamples=50, random_state=0
    )
    assert r.low.shape == (2,)
    r = bootstrap_ci(lambda t, p: np.float32(np.mean(t == p)), Y, P, n_resamples=50, random_state=0)
    assert r.low <= r.estimate <= r.high


def test_zero_d_arrays_are_numbers():
    """``np.array(3)`` is a number: it was refused as "got array(3)"."""
    from mltutor.stats import proportion_ci

    low, high = proportion_ci(np.array(3), np.array(10))
    assert (float(low), float(high)) == proportion_ci(3, 10)


@pytest.mark.parametrize(
    "bad",
    [np.r_[np.arange(59.0), np.nan], np.array([f"g{i}" for i in range(59)] + [None], dtype=object)],
)
def test_missing_group_ids_are_refused(bad):
    with pytest.raises(ValueError, match="groups contains"):
        bootstrap_ci(accuracy, Y, P, groups=bad, n_resamples=5, random_state=0)
    with pytest.raises(ValueError, match="strata contains"):
        bootstrap_ci(
            accuracy,
            Y,
            P,
            groups=np.arange(60) // 2,
            strata=np.r_[Y[:-1], np.nan],
            n_resamples=5,
            random_state=0,
        )


def test_zero_d_array_messages_say_what_they_got():
    """A 0-d array is named as one ("got array(1)" read like a valid array)."""
    from mltutor import metrics

    with pytest.raises(TypeError, match="0-d array"):
        metrics.accuracy_score(np.array(1), np.array(1))
    with pytest.raises(TypeError, match="0-d array"):
        metrics.roc_auc_score([0, 1], np.array(0.5))
