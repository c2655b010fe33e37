"""A hostile user against the issue 24 changes: each test is an input that gave a wrong number, a
refusal of a valid input, a misleading message or a slowdown after those changes.

- ``evaluate``: torch bfloat16 scores failed naming no argument, and bfloat16 probabilities (read
  through float32) were refused as "a mix"; a float16 entry of -0.09 passed for a probability with
  101 classes (the range check used the sum's tolerance, ``k * eps``); 2-class logits of a large
  test set were refused as "a mix" because a few rows look like probabilities by chance; rounded
  probabilities were sent in a circle (the mix message said ``logits=False``, which then said
  ``'auto'``); NaN group ids across classes were reported as "groups must not mix classes".
- bootstrap: a metric returning a ``Fraction`` or ``Decimal`` (real numbers) was refused, a torch
  bfloat16 or grad-requiring result failed naming nothing; pandas ``NA`` group ids failed with
  "boolean value of NA is ambiguous" and ``NaT`` ids made one group.
- conformal: ``conformal_quantile`` refused infinite scores (MAPIE and the order statistic take
  them), and plain APS sets sorted every row twice.
- masks: a compressed RLE whose runs exceed ``h * w`` but wrap around to it in int64 was accepted
  (area -9.2e18; ``decode`` crashed the interpreter).
- streaming: an exact ``BinaryMetrics`` that took infinite scores (``validate_args=False``) could
  not load its own saved state.
- warnings: the issued ``UndefinedMetricWarning`` could not be pickled, so a worker process that
  turned it into an error lost it to a ``PicklingError``.
"""

from __future__ import annotations

import decimal
import fractions
import io
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

from mltutor._validation import UndefinedMetricWarning
from mltutor.calibration import expected_calibration_error
from mltutor.conformal import ConformalClassifier, aps_scores, conformal_quantile, mass_above
from mltutor.detection import mask as rle
from mltutor.report import evaluate
from mltutor.stats import bootstrap_ci

torch = pytest.importorskip("torch")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

RNG = np.random.default_rng(24)


# ---------------------------------------------------------------------------------------------
# report.evaluate
# ---------------------------------------------------------------------------------------------


def _softmax_rows(n, k, seed):
    rng = np.random.default_rng(seed)
    z = torch.tensor(rng.normal(size=(n, k)), dtype=torch.float32)
    return torch.softmax(z, dim=1), rng.integers(0, k, n)


def test_evaluate_reads_bfloat16_probabilities_as_probabilities():
    p, y = _softmax_rows(300, 10, 0)
    pb = p.to(torch.bfloat16)
    r = evaluate(torch.tensor(y), pb, n_resamples=20)
    exact = pb.float().numpy().astype(np.float64)
    exact /= exact.sum(axis=1, keepdims=True)
    assert r.ece == pytest.approx(expected_calibration_error(y, exact, n_bins=15), rel=1e-12)
    assert r.nll == pytest.approx(sklearn_metrics.log_loss(y, exact), rel=1e-12)


def test_evaluate_bfloat16_logits_are_named_or_read():
    z = torch.tensor(RNG.normal(size=(50, 4)), dtype=torch.bfloat16)
    y = RNG.integers(0, 4, 50)
    r = evaluate(y, z, n_resamples=20)
    ref = evaluate(y, z.float().numpy(), n_resamples=20)
    assert r.nll == ref.nll and r.ece == ref.ece


def test_evaluate_float16_negative_entries_are_not_probabilities():
    # 101 classes in float16: k * eps = 0.099, but rounding never makes a probability negative.
    k = 101
    p = np.full((40, k), 1.0 / k)
    p[:, 0] -= 0.05
    p[:, 1] += 0.05  # rows sum to 1, with an entry of -0.04 (not a probability)
    p = p.astype(np.float16)
    y = RNG.integers(0, k, 40)
    with pytest.raises(ValueError, match="logits=False"):
        evaluate(y, p, n_resamples=20, logits=False)


def test_evaluate_two_class_logits_of_a_large_test_set_are_logits():
    rng = np.random.default_rng(0)
    z = rng.normal(scale=0.5, size=(100_000, 2))
    y = rng.integers(0, 2, z.shape[0])
    from mltutor._validation.report import probability_rows as _probability_rows

    assert (
        0 < _probability_rows(z, np.finfo(z.dtype).eps).sum() < 10
    )  # a few rows look like probabilities
    r = evaluate(y, z, n_resamples=2)
    explicit = evaluate(y, z, n_resamples=2, logits=True)
    assert r.nll == explicit.nll and r.ece == explicit.ece


def test_rounded_probabilities_get_an_answer_that_is_not_a_circle():
    p = RNG.dirichlet(np.ones(10), 300).round(3)  # probabilities saved with 3 decimals
    y = RNG.integers(0, 10, 300)
    with pytest.raises(ValueError) as auto:
        evaluate(y, p, n_resamples=20)
    with pytest.raises(ValueError) as given:
        evaluate(y, p, n_resamples=20, logits=False)
    for message in (str(auto.value), str(given.value)):
        assert "sum(axis=1, keepdims=True)" in message  # how to renormalise them
        assert "sums to" in message  # what is wrong with the row shown
    assert "'auto'" not in str(given.value)  # 'auto' refuses the same rows
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # rounded to 0.000
        fixed = evaluate(y, p / p.sum(axis=1, keepdims=True), n_resamples=20)
    assert fixed.ece is not None


def test_nan_group_ids_are_named_as_nan_in_evaluate():
    y = np.repeat([0, 1, 2], 4)
    p = np.eye(3)[y] * 0.8 + 0.2 / 3
    groups = np.arange(12, dtype=float)
    groups[[0, 5]] = np.nan  # NaN in two classes
    with pytest.raises(ValueError, match="NaN"):
        evaluate(y, p, groups=groups, n_resamples=20)


# ---------------------------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------------------------

Y10 = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 1])
P10 = np.array([0, 1, 0, 0, 1, 1, 1, 1, 0, 1])


def _acc(t, q):
    return float(np.mean(t == q))


@pytest.mark.parametrize(
    "wrap",
    [
        lambda v: fractions.Fraction(v).limit_denominator(1000),
        lambda v: decimal.Decimal(repr(v)),
        lambda v: [fractions.Fraction(v).limit_denominator(1000), 1],
    ],
    ids=["Fraction", "Decimal", "list of Fraction"],
)
def test_a_metric_may_return_exact_real_numbers(wrap):
    exact = bootstrap_ci(lambda t, q: wrap(_acc(t, q)), Y10, P10, n_resamples=50, random_state=0)
    plain = bootstrap_ci(_acc, Y10, P10, n_resamples=50, random_state=0)
    assert np.ravel(exact.estimate)[0] == plain.estimate
    assert np.ravel(exact.low)[0] == plain.low and np.ravel(exact.high)[0] == plain.high


@pytest.mark.parametrize(
    "make",
    [
        lambda v: torch.tensor(v).to(torch.bfloat16),
        lambda v: torch.tensor(v, requires_grad=True) * 1.0,
    ],
    ids=["bfloat16", "requires_grad"],
)
def test_a_metric_may_return_torch_tensors(make):
    r = bootstrap_ci(lambda t, q: make(_acc(t, q)), Y10, P10, n_resamples=50, random_state=0)
    ref = bootstrap_ci(
        lambda t, q: make(_acc(t, q)).detach().float().item(),
        Y10,
        P10,
        n_resamples=50,
        random_state=0,
    )
    assert (r.estimate, r.low, r.high) == (ref.estimate, ref.low, ref.high)


def test_pandas_na_group_ids_are_refused_by_name():
    pd = pytest.importorskip("pandas")
    groups = pd.array(["a", "b", "c", None, "e"] * 2, dtype="string")
    with pytest.raises(ValueError, match="groups contains a missing id"):
        bootstrap_ci(_acc, Y10, P10, n_resamples=20, groups=groups)


def test_nat_group_ids_are_refused():
    groups = np.array(
        ["2020-01-01", "NaT", "2020-01-02", "NaT", "2020-01-03"] * 2, dtype="datetime64[D]"
    )
    with pytest.raises(ValueError, match="groups contains"):
        bootstrap_ci(_acc, Y10, P10, n_resamples=20, groups=groups)


# ---------------------------------------------------------------------------------------------
# conformal
# ---------------------------------------------------------------------------------------------


def test_conformal_quantile_takes_infinite_scores():
    scores = np.array([0.3, np.inf, 0.1, 0.9, -np.inf, 0.5, 0.2, 0.7, 0.4])
    # k = ceil(10 * 0.6) = 6: the 6th smallest (the order statistic MAPIE takes too)
    assert conformal_quantile(scores, 0.4) == np.sort(scores)[5] == 0.5
    assert conformal_quantile(scores, 0.05) == np.inf  # k = 10 > n
    assert conformal_quantile(np.r_[scores, np.inf], 0.05) == np.inf
    with pytest.raises(ValueError, match="NaN"):
        conformal_quantile(np.r_[scores, np.nan], 0.4)


def test_plain_aps_sets_sort_once(monkeypatch):
    p = RNG.dirichlet(np.ones(101), 4000)
    y = RNG.integers(0, 101, 4000)
    cp = ConformalClassifier("aps").fit(p[:2000], y[:2000], 0.1)
    test = p[2000:]
    expected = (mass_above(test) < cp.quantile_) | (aps_scores(test) <= cp.quantile_)
    expected[np.arange(test.shape[0]), test.argmax(axis=1)] = True
    sorts = []
    argsort = np.argsort
    monkeypatch.setattr(np, "argsort", lambda *a, **kw: sorts.append(1) or argsort(*a, **kw))
    assert np.array_equal(cp.predict_sets(test), expected)
    assert len(sorts) == 1  # the union once sorted every row twice (2.2x the time)


# ---------------------------------------------------------------------------------------------
# masks
# ---------------------------------------------------------------------------------------------


def _compressed(counts):
    counts = np.asarray(counts, dtype=np.int64)
    return rle._rle._counts_to_strings(counts, np.array([0, counts.size]))[0]


def test_compressed_runs_longer_than_the_image_are_refused():
    # 64 runs of 2**58 wrap int64's sum to 0; with a last run of 4 they "sum to" 2 x 2 pixels.
    wrapped = {"size": [2, 2], "counts": _compressed([2**58] * 64 + [4])}
    for fn in (rle.area, rle.to_bbox):
        with pytest.raises(ValueError, match="run"):
            fn(wrapped)
    with pytest.raises(ValueError, match="run"):
        rle.area([wrapped, {"size": [2, 2], "counts": [0, 4]}])  # the bulk path
    # decode once crashed the interpreter on it: run it in a child process
    code = (
        "from mltutor.detection import mask as rle\n"
        f"r = {{'size': [2, 2], 'counts': {wrapped['counts']!r}}}\n"
        "try:\n    rle.decode(r)\nexcept ValueError:\n    print('refused')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "refused", out.stderr


def test_compressed_runs_of_a_huge_image_are_added_exactly():
    side = 2**31 - 1  # the largest side accepted
    hw = side * side
    runs = [2**58] * 79 + [2**58 - (2**32 - 1)]  # each < h*w; the sum is h*w + 2**64
    assert sum(runs) == hw + 2**64 and np.array(runs).sum() == hw  # int64 wraps to h*w
    with pytest.raises(ValueError, match="summing to"):
        rle.area({"size": [side, side], "counts": _compressed(runs)})
    fits = [2**58] * 15 + [2**58 - 2**32 + 1]  # sums to h*w exactly
    assert sum(fits) == hw
    assert rle.area({"size": [side, side], "counts": _compressed(fits)}) == sum(fits[1::2])


def test_compressed_runs_that_fit_still_decode():
    m = RNG.integers(0, 2, (7, 5)).astype(np.uint8)
    enc = rle.encode(m)
    assert np.array_equal(rle.decode(enc), m)
    assert rle.area(enc) == int(m.sum())


# ---------------------------------------------------------------------------------------------
# streaming
# ---------------------------------------------------------------------------------------------


def test_a_state_with_infinite_scores_loads_into_its_own_kind():
    from mltutor.streaming import BinaryMetrics

    m = BinaryMetrics(validate_args=False)
    scores = torch.tensor([float("inf"), 0.2, -float("inf"), 0.7, 0.4])
    m.update(scores, torch.tensor([1, 0, 0, 1, 0]))
    buffer = io.BytesIO()
    torch.save(m.state_dict(), buffer)
    buffer.seek(0)
    resumed = BinaryMetrics(validate_args=False).load_state_dict(
        torch.load(buffer, weights_only=True)
    )
    assert resumed.compute()["auroc"].item() == m.compute()["auroc"].item() == 1.0
    nan_state = m.state_dict()
    nan_state["state"]["scores"][1] = float("nan")
    with pytest.raises(ValueError, match="NaN"):
        BinaryMetrics().load_state_dict(nan_state)


# ---------------------------------------------------------------------------------------------
# warnings
# ---------------------------------------------------------------------------------------------


def test_the_issued_warning_pickles():
    pytest.importorskip("sklearn.exceptions")
    from mltutor import metrics

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        metrics.precision_score([0, 0, 1], [0, 0, 0])
    (w,) = [r for r in record if "recision" in str(r.message)]
    again = pickle.loads(pickle.dumps(w.message))
    assert type(again) is w.category and str(again) == str(w.message)
    assert pickle.loads(pickle.dumps(w.category)) is w.category
    # and in a fresh process, where nothing has issued the warning yet
    code = (
        "import pickle, sys\n"
        f"c = pickle.loads({pickle.dumps(w.category)!r})\n"
        "import sklearn.exceptions as e\n"
        "from mltutor._validation import UndefinedMetricWarning as U\n"
        "assert issubclass(c, U) and issubclass(c, e.UndefinedMetricWarning)\n"
        "print(c.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "UndefinedMetricWarning", out.stderr


# ---------------------------------------------------------------------------------------------
# torch tensors that np.asarray and the old check did not read
# ---------------------------------------------------------------------------------------------


class _Tagged(torch.Tensor):
    """A tensor subclass defined outside torch (its module is this test file)."""


def test_real_tensors_with_a_lazy_negation_and_subclasses_are_read():
    from mltutor import metrics

    y = [0, 1, 1, 0]
    values = np.array([-0.9, 0.2, -0.4, -0.1])
    negated = torch.tensor([0.1 + 0.9j, 0.8 - 0.2j, 0.3 + 0.4j, 0.6 + 0.1j]).conj().imag
    assert negated.is_neg()  # numpy() refuses this real tensor
    assert metrics.roc_auc_score(torch.tensor(y), negated) == metrics.roc_auc_score(y, values)
    tagged = torch.tensor(values, dtype=torch.bfloat16).as_subclass(_Tagged)
    exact = torch.tensor(values, dtype=torch.bfloat16).float().numpy()
    assert metrics.roc_auc_score(y, tagged) == metrics.roc_auc_score(y, exact)


# ---------------------------------------------------------------------------------------------
# streaming states whose counts disagree with each other
# ---------------------------------------------------------------------------------------------


def test_per_class_counts_that_no_data_gives_are_refused():
    from mltutor.streaming import MulticlassMetrics

    m = MulticlassMetrics(3, dense=False)
    m.update(torch.tensor([0, 1, 2, 1]), torch.tensor([0, 1, 1, 2]))
    assert (
        MulticlassMetrics(3, dense=False)
        .load_state_dict(m.state_dict())
        .compute()["accuracy"]
        .item()
        == 0.5
    )
    state = m.state_dict()
    state["state"]["class_counts"][0] = 5  # tp of class 0 > its support: accuracy 1.5
    with pytest.raises(ValueError, match="true positives for class 0"):
        MulticlassMetrics(3, dense=False).load_state_dict(state)
    state = m.state_dict()
    state["state"]["class_counts"][3 + 2] += 1  # one more sample by true class only
    with pytest.raises(ValueError, match="by predicted class"):
        MulticlassMetrics(3, dense=False).load_state_dict(state)


@pytest.mark.parametrize("thresholds, cell", [(None, 3), (5, 7)])
def test_binary_counts_must_agree_with_the_kept_rows(thresholds, cell):
    from mltutor.streaming import BinaryMetrics

    m = BinaryMetrics(thresholds=thresholds)
    m.update(torch.tensor([0.1, 0.9, 0.6, 0.3]), torch.tensor([0, 1, 0, 1]))
    state = m.state_dict()
    name = "counts" if thresholds is None else "hist"
    state["state"][name][cell] += 50  # exact: recall 0.98 instead of 0.5
    with pytest.raises(ValueError, match="count the same samples"):
        BinaryMetrics(thresholds=thresholds).load_state_dict(state)
