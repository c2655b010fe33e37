"""mltutor.streaming on one process: parity with scikit-learn, mltutor.metrics and torchmetrics.

Batch by batch: after every ``update`` the metric must equal the reference computed on all data
seen so far.  The distributed tests are in ``test_streaming_ddp.py``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torchmetrics = pytest.importorskip("torchmetrics")

import sklearn.metrics as skm  # noqa: E402
from _strategies import CASES, PROPERTY  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from torch.overrides import TorchFunctionMode  # noqa: E402
from torchmetrics import classification as tmc  # noqa: E402

import mltutor.metrics as mtm  # noqa: E402
from mltutor.curves import binary_counts  # noqa: E402
from mltutor.streaming import BinaryMetrics, MulticlassMetrics, cumulative_counts  # noqa: E402
from mltutor.streaming.base import StreamingMetric  # noqa: E402

AVERAGE_KEYS = [
    "macro_precision",
    "macro_recall",
    "macro_f1",
    "weighted_precision",
    "weighted_recall",
    "weighted_f1",
    "micro_precision",
    "micro_recall",
    "micro_f1",
]


# ------------------------------------------------------------------------------------------------
# References
# ------------------------------------------------------------------------------------------------


def sklearn_multiclass(y_true: np.ndarray, y_pred: np.ndarray, num_classes: int, lib=skm) -> dict:
    """Every key of MulticlassMetrics.compute(), from scikit-learn (or mltutor.metrics)."""
    out = {"accuracy": lib.accuracy_score(y_true, y_pred)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "y_pred contains classes not in y_true"
        out["balanced_accuracy"] = lib.balanced_accuracy_score(y_true, y_pred)
    for average in ("macro", "weighted", "micro"):
        p, r, f, _ = lib.precision_recall_fscore_support(
            y_true, y_pred, average=average, zero_division=0
        )
        out.update({f"{average}_precision": p, f"{average}_recall": r, f"{average}_f1": f})
    labels = np.arange(num_classes)
    p, r, f, s = lib.precision_recall_fscore_support(
        y_true, y_pred, labels=labels, average=None, zero_division=0
    )
    out.update(precision=p, recall=r, f1=f, support=s)
    out["confusion_matrix"] = lib.confusion_matrix(y_true, y_pred, labels=labels)
    return out


def assert_matches(ours: dict, ref: dict, atol: float = 1e-12) -> None:
    for key, expected in ref.items():
        got = ours[key]
        got = got.cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
        if key in ("confusion_matrix", "support"):
            np.testing.assert_array_equal(got, expected, err_msg=key)
        else:
            np.testing.assert_allclose(got, expected, rtol=0, atol=atol, err_msg=key)


def random_batches(
    rng: np.random.Generator,
    num_classes: int,
    n_batches: int,
    as_logits: bool,
    used: int | None = None,
):
    """Batches of (preds, target), sizes 0..40, ~60 % right; only classes < ``used`` occur."""
    used = num_classes if used is None else used
    for _ in range(n_batches):
        size = int(rng.integers(0, 41))
        target = rng.integers(0, used, size)
        pred = np.where(rng.random(size) < 0.6, target, rng.integers(0, used, size))
        if as_logits:
            logits = rng.normal(size=(size, num_classes))
            logits[np.arange(size), pred] += 5.0
            yield torch.as_tensor(logits), torch.as_tensor(target), pred
        else:
            yield torch.as_tensor(pred), torch.as_tensor(target), pred


# ------------------------------------------------------------------------------------------------
# MulticlassMetrics
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("as_logits", [False, True], ids=["indices", "logits"])
@pytest.mark.parametrize("seed", range(4))
def test_multiclass_matches_sklearn_batch_by_batch(seed, as_logits):
    rng = np.random.default_rng(seed)
    num_classes = 7
    metric = MulticlassMetrics(num_classes)
    seen_t, seen_p = [], []
    for preds, target, pred in random_batches(rng, num_classes, 12, as_logits):
        metric.update(preds, target)
        seen_t.append(target.numpy())
        seen_p.append(pred)
        y_true, y_pred = np.concatenate(seen_t), np.concatenate(seen_p)
        if y_true.size:
            assert_matches(metric.compute(), sklearn_multiclass(y_true, y_pred, num_classes))


def test_multiclass_matches_mltutor_metrics():
    rng = np.random.default_rng(11)
    metric = MulticlassMetrics(5)
    ts, ps = [], []
    for preds, target, pred in random_batches(rng, 5, 8, as_logits=False):
        metric.update(preds, target)
        ts.append(target.numpy())
        ps.append(pred)
    y_true, y_pred = np.concatenate(ts), np.concatenate(ps)
    assert_matches(metric.compute(), sklearn_multiclass(y_true, y_pred, 5, lib=mtm))


@st.composite
def multiclass_streams(draw):
    num_classes = draw(st.integers(2, 6))
    n = draw(st.integers(1, 40))
    y_true = draw(st.lists(st.integers(0, num_classes - 1), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.integers(0, num_classes - 1), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    return num_classes, np.array(y_true), np.array(y_pred), [0, *cuts, n]


@settings(PROPERTY, max_examples=200)  # torch calls are slower than NumPy's: fewer, still many
@given(multiclass_streams())
def test_multiclass_property_any_batching(stream):
    """Any split into batches (empty ones included) gives scikit-learn's numbers on the whole."""
    CASES["streaming MulticlassMetrics == sklearn (any batching)"] += 1
    num_classes, y_true, y_pred, cuts = stream
    metric = MulticlassMetrics(num_classes)
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        metric.update(torch.as_tensor(y_pred[lo:hi]), torch.as_tensor(y_true[lo:hi]))
    assert_matches(metric.compute(), sklearn_multiclass(y_true, y_pred, num_classes))


def test_unseen_classes_are_left_out_of_the_macro_mean():
    """10 classes declared, 4 occur: the macro mean is over the 4, as in scikit-learn."""
    rng = np.random.default_rng(3)
    metric = MulticlassMetrics(10)
    ts, ps = [], []
    for preds, target, pred in random_batches(rng, 10, 6, as_logits=False, used=4):
        metric.update(preds, target)
        ts.append(target.numpy())
        ps.append(pred)
    y_true, y_pred = np.concatenate(ts), np.concatenate(ps)
    out = metric.compute()
    assert_matches(out, sklearn_multiclass(y_true, y_pred, 10))
    assert out["f1"][4:].eq(0).all()
    # Averaging over all 10 declared classes would dilute it (the hand-written mistake).
    assert out["macro_f1"].item() > out["f1"].mean().item() * 2


def test_pred_only_class_counts_in_macro_recall_but_not_balanced_accuracy():
    target = torch.tensor([0, 0, 1, 1, 2, 2])
    preds = torch.tensor([0, 1, 1, 1, 2, 4])  # class 4 only predicted, 3 and 5 never seen
    metric = MulticlassMetrics(6)
    metric.update(preds, target)
    out = metric.compute()
    assert_matches(out, sklearn_multiclass(target.numpy(), preds.numpy(), 6))
    assert out["macro_recall"].item() == pytest.approx(0.5)  # (1 + 0.5 ... ) over 4 seen classes
    assert out["balanced_accuracy"].item() == pytest.approx(2 / 3)  # over the 3 target classes


def test_single_label_micro_equals_accuracy():
    rng = np.random.default_rng(5)
    metric = MulticlassMetrics(6)
    for preds, target, _ in random_batches(rng, 6, 5, as_logits=True):
        metric.update(preds, target)
    out = metric.compute()
    for key in ("micro_precision", "micro_recall", "micro_f1"):
        assert out[key].item() == pytest.approx(out["accuracy"].item(), abs=1e-15)


def test_multiclass_matches_torchmetrics():
    rng = np.random.default_rng(7)
    c = 9
    ours = MulticlassMetrics(c)
    theirs = {
        "macro_f1": tmc.MulticlassF1Score(num_classes=c),
        "weighted_f1": tmc.MulticlassF1Score(num_classes=c, average="weighted"),
        "micro_f1": tmc.MulticlassF1Score(num_classes=c, average="micro"),
        "macro_precision": tmc.MulticlassPrecision(num_classes=c),
        "macro_recall": tmc.MulticlassRecall(num_classes=c),
        "weighted_recall": tmc.MulticlassRecall(num_classes=c, average="weighted"),
        "accuracy": tmc.MulticlassAccuracy(num_classes=c, average="micro"),
        "f1": tmc.MulticlassF1Score(num_classes=c, average="none"),
        "confusion_matrix": tmc.MulticlassConfusionMatrix(num_classes=c),
    }
    for preds, target, _ in random_batches(rng, c, 10, as_logits=True, used=c - 2):
        if target.numel() == 0:
            continue  # torchmetrics' validation refuses empty batches
        ours.update(preds, target)
        for metric in theirs.values():
            metric.update(preds.float(), target)
        out = ours.compute()
        for key, metric in theirs.items():
            expected = metric.compute().double()
            np.testing.assert_allclose(
                out[key].numpy(), expected.numpy(), rtol=0, atol=1e-6, err_msg=key
            )


def test_logits_probabilities_and_indices_agree():
    rng = np.random.default_rng(2)
    logits = torch.as_tensor(rng.normal(size=(50, 4)))
    target = torch.as_tensor(rng.integers(0, 4, 50))
    results = []
    for preds in (logits, logits.softmax(dim=1), logits.argmax(dim=1)):
        metric = MulticlassMetrics(4)
        metric.update(preds, target)
        results.append(metric.compute()["confusion_matrix"])
    assert torch.equal(results[0], results[1]) and torch.equal(results[0], results[2])


@pytest.mark.parametrize("ignore_index", [-100, 2])
def test_ignore_index(ignore_index):
    rng = np.random.default_rng(9)
    target = rng.integers(0, 5, 200)
    pred = np.where(rng.random(200) < 0.5, target, rng.integers(0, 5, 200))
    target[rng.random(200) < 0.2] = ignore_index
    metric = MulticlassMetrics(5, ignore_index=ignore_index)
    metric.update(torch.as_tensor(pred[:120]), torch.as_tensor(target[:120]))
    metric.update(torch.as_tensor(pred[120:]), torch.as_tensor(target[120:]))
    keep = target != ignore_index
    assert_matches(metric.compute(), sklearn_multiclass(target[keep], pred[keep], 5))
    tm = tmc.MulticlassF1Score(num_classes=5, ignore_index=ignore_index)
    tm.update(torch.as_tensor(pred), torch.as_tensor(target))
    assert metric.compute()["macro_f1"].item() == pytest.approx(tm.compute().item(), abs=1e-6)


def test_merge_reset_and_compute_is_repeatable():
    rng = np.random.default_rng(4)
    batches = list(random_batches(rng, 6, 10, as_logits=False))
    whole, left, right = MulticlassMetrics(6), MulticlassMetrics(6), MulticlassMetrics(6)
    for k, (preds, target, _) in enumerate(batches):
        whole.update(preds, target)
        (left if k % 3 else right).update(preds, target)
    merged = left.merge(right)
    assert merged is left
    assert torch.equal(merged.compute()["confusion_matrix"], whole.compute()["confusion_matrix"])
    first, second = whole.compute(), whole.compute()
    assert all(torch.equal(torch.as_tensor(first[k]), torch.as_tensor(second[k])) for k in first)
    whole.reset()
    with pytest.raises(ValueError, match="no samples"):
        whole.compute()
    with pytest.raises(ValueError, match="same settings"):
        left.merge(MulticlassMetrics(5))
    with pytest.raises(ValueError, match="same settings"):
        left.merge(MulticlassMetrics(6, ignore_index=-1))


def test_all_ignored_or_empty_raises():
    metric = MulticlassMetrics(3, ignore_index=-1)
    metric.update(torch.tensor([0, 1]), torch.tensor([-1, -1]))
    metric.update(torch.zeros(0, 3), torch.zeros(0, dtype=torch.long))
    with pytest.raises(ValueError, match="seen no samples"):
        metric.compute()


def test_gradients_are_not_tracked():
    logits = torch.randn(6, 3, requires_grad=True)
    metric = BinaryMetrics()
    metric.update(logits[:, 0], torch.tensor([0, 1, 0, 1, 1, 0]))
    assert not metric.scores[0].requires_grad
    multi = MulticlassMetrics(3)
    multi.update(logits, torch.tensor([0, 1, 2, 0, 1, 2]))
    assert not multi.confmat.requires_grad


def test_state_moves_to_the_inputs_device_only_while_fresh():
    metric = MulticlassMetrics(3, validate_args=False)
    metric.update(torch.tensor([0, 1]), torch.tensor([0, 2]))
    meta = torch.empty(2, dtype=torch.long, device="meta")
    with pytest.raises(ValueError, match="metric state is on cpu"):
        metric.update(meta, meta)
    fresh = MulticlassMetrics(3, validate_args=False)
    fresh.update(meta, meta)  # a fresh state follows its inputs
    assert fresh.device.type == "meta" and fresh.confmat.device.type == "meta"


# ------------------------------------------------------------------------------------------------
# Host syncs: none in update() without validation, exactly one with it
# ------------------------------------------------------------------------------------------------

# Tensor methods that make the CPU wait for the device.
SYNCING = {
    "item",
    "tolist",
    "__bool__",
    "__int__",
    "__float__",
    "__index__",
    "nonzero",
    "cpu",
    "numpy",
}


class CallRecorder(TorchFunctionMode):
    """Records the name of every torch function and Tensor method called inside the block."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize(
    "make, preds, target",
    [
        (
            lambda v: MulticlassMetrics(5, validate_args=v),
            torch.randn(16, 5),
            torch.randint(0, 5, (16,)),
        ),
        (
            lambda v: MulticlassMetrics(5, ignore_index=-1, validate_args=v),
            torch.randint(0, 5, (16,)),
            torch.randint(-1, 5, (16,)),
        ),
        (lambda v: BinaryMetrics(validate_args=v), torch.rand(16), torch.randint(0, 2, (16,))),
        (
            lambda v: BinaryMetrics(thresholds=11, ignore_index=-1, validate_args=v),
            torch.rand(16),
            torch.randint(-1, 2, (16,)),
        ),
    ],
    ids=["multiclass-logits", "multiclass-ignore", "binary-exact", "binary-binned"],
)
@pytest.mark.parametrize(
    "extra", [{}, {"sample_ids": torch.arange(16)}], ids=["plain", "sample_ids"]
)
@pytest.mark.parametrize("dense", [True, False], ids=["dense", "per-class"])
def test_update_host_syncs(make, preds, target, extra, dense):
    for validate, expected in ((False, 0), (True, 1)):
        metric = make(validate)
        if isinstance(metric, MulticlassMetrics) and not dense:
            metric = MulticlassMetrics(
                5, ignore_index=metric.ignore_index, dense=False, validate_args=validate
            )
        metric.update(preds, target, **extra)  # the first update may move the state
        with CallRecorder() as rec:
            metric.update(preds, target, **extra)
        syncs = [name for name in rec.names if name in SYNCING]
        assert len(syncs) == expected, (validate, syncs)


# ------------------------------------------------------------------------------------------------
# Bad input
# ------------------------------------------------------------------------------------------------

BAD_MULTICLASS = [
    ([0, 1], torch.tensor([0, 1]), TypeError, "preds must be a torch.Tensor"),
    (torch.tensor([0, 1]), np.array([0, 1]), TypeError, "target must be a torch.Tensor"),
    (torch.tensor([0, 1]), torch.tensor([0.0, 1.0]), TypeError, "target must hold integer"),
    (torch.tensor([0, 1]), torch.tensor([True, False]), TypeError, "target must hold integer"),
    (
        torch.tensor([0, 1]),
        torch.tensor([0, 3]),
        ValueError,
        r"target holds a label outside \[0, 3\): 3",
    ),
    (
        torch.tensor([0, 1]),
        torch.tensor([-1, 0]),
        ValueError,
        r"target holds a label outside \[0, 3\): -1",
    ),
    (
        torch.tensor([0, 5]),
        torch.tensor([0, 1]),
        ValueError,
        r"preds holds a class index outside \[0, 3\): 5",
    ),
    (
        torch.tensor([0.0, 1.0]),
        torch.tensor([0, 1]),
        TypeError,
        "preds of shape \\[B\\] must hold integer",
    ),
    (torch.randn(2, 4), torch.tensor([0, 1]), ValueError, "C = num_classes = 3"),
    (torch.randn(2, 3, 1), torch.tensor([0, 1]), ValueError, "preds must be class indices"),
    (
        torch.tensor([[0, 1, 2], [1, 2, 0]]),
        torch.tensor([0, 1]),
        TypeError,
        "must hold float scores",
    ),
    (torch.tensor([0, 1, 2]), torch.tensor([0, 1]), ValueError, "same batch size"),
    (torch.tensor([0, 1]), torch.tensor([[0, 1]]), ValueError, "target must be 1-D"),
    (
        torch.tensor([[0.1, float("nan"), 0.2], [0.3, 0.2, 0.1]]),
        torch.tensor([0, 1]),
        ValueError,
        "NaN",
    ),
]


@pytest.mark.parametrize("preds, target, error, match", BAD_MULTICLASS)
def test_multiclass_bad_input(preds, target, error, match):
    with pytest.raises(error, match=match):
        MulticlassMetrics(3).update(preds, target)


def test_preds_and_target_on_different_devices():
    meta = torch.empty(2, dtype=torch.long, device="meta")
    with pytest.raises(ValueError, match="same device; got preds on cpu and target on meta"):
        MulticlassMetrics(3).update(torch.tensor([0, 1]), meta)


@pytest.mark.parametrize("num_classes", [1, 0, 2.0, True, "3"])
def test_bad_num_classes(num_classes):
    with pytest.raises(ValueError, match="num_classes"):
        MulticlassMetrics(num_classes)


BAD_BINARY = [
    (torch.tensor([1, 0]), torch.tensor([0, 1]), TypeError, "preds must hold float scores"),
    (torch.rand(2, 2), torch.tensor([0, 1]), ValueError, "preds must be 1-D"),
    (torch.rand(2), torch.tensor([0.0, 1.0]), TypeError, "target must hold integer"),
    (torch.rand(2), torch.tensor([0, 2]), ValueError, "binary labels .* found 2"),
    (torch.tensor([0.5, float("nan")]), torch.tensor([0, 1]), ValueError, "preds must be finite"),
    (torch.tensor([0.5, float("inf")]), torch.tensor([0, 1]), ValueError, "preds must be finite"),
    (torch.rand(3), torch.tensor([0, 1]), ValueError, "same batch size"),
]


@pytest.mark.parametrize("preds, target, error, match", BAD_BINARY)
def test_binary_bad_input(preds, target, error, match):
    with pytest.raises(error, match=match):
        BinaryMetrics().update(preds, target)


@pytest.mark.parametrize(
    "thresholds, error",
    [
        (1, ValueError),
        (True, TypeError),
        ([], ValueError),
        ([[0.1, 0.2]], ValueError),
        ([0.1, float("nan")], ValueError),
    ],
)
def test_bad_thresholds(thresholds, error):
    with pytest.raises(error, match="thresholds"):
        BinaryMetrics(thresholds=thresholds)


# ------------------------------------------------------------------------------------------------
# BinaryMetrics, exact mode
# ------------------------------------------------------------------------------------------------


def binary_data(seed: int, n: int = 300, ties: bool = False):
    rng = np.random.default_rng(seed)
    target = (rng.random(n) < 0.3).astype(np.int64)
    scores = rng.normal(size=n) + 1.2 * target
    scores = 1 / (1 + np.exp(-scores))
    if ties:
        scores = np.round(scores, 1)
    return scores, target


def stream(metric, scores, target, batch: int = 37):
    for start in range(0, len(target), batch):
        metric.update(
            torch.as_tensor(scores[start : start + batch]),
            torch.as_tensor(target[start : start + batch]),
        )
    return metric


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_exact_curves_match_sklearn(seed, ties):
    scores, target = binary_data(seed, ties=ties)
    metric = BinaryMetrics()
    for start in range(0, len(target), 60):
        metric.update(
            torch.as_tensor(scores[start : start + 60]), torch.as_tensor(target[start : start + 60])
        )
        s, t = scores[: start + 60], target[: start + 60]
        out = metric.compute()
        assert out["auroc"].item() == pytest.approx(skm.roc_auc_score(t, s), abs=1e-12)
        assert out["average_precision"].item() == pytest.approx(
            skm.average_precision_score(t, s), abs=1e-12
        )
    fpr, tpr, thr = skm.roc_curve(target, scores, drop_intermediate=False)
    np.testing.assert_array_equal(out["roc_fpr"].numpy(), fpr)
    np.testing.assert_array_equal(out["roc_tpr"].numpy(), tpr)
    np.testing.assert_array_equal(out["roc_thresholds"].numpy(), thr)
    prec, rec, thr = skm.precision_recall_curve(target, scores)
    np.testing.assert_array_equal(out["pr_precision"].numpy(), prec)
    np.testing.assert_array_equal(out["pr_recall"].numpy(), rec)
    np.testing.assert_array_equal(out["pr_thresholds"].numpy(), thr)
    assert out["auroc_error_bound"].item() == 0 and out["average_precision_error_bound"].item() == 0


@pytest.mark.parametrize("ties", [False, True])
def test_cumulative_counts_is_kernel_2(ties):
    scores, target = binary_data(8, ties=ties)
    fps, tps, thr = cumulative_counts(torch.as_tensor(target == 1), torch.as_tensor(scores))
    ref = binary_counts(target, scores)
    np.testing.assert_array_equal(fps.numpy(), ref.fps)
    np.testing.assert_array_equal(tps.numpy(), ref.tps)
    np.testing.assert_array_equal(thr.numpy(), ref.thresholds)


@pytest.mark.parametrize("threshold", [0.5, 0.3, 0.7])
def test_at_threshold_matches_sklearn(threshold):
    scores, target = binary_data(1, ties=True)  # ties put samples exactly on the threshold
    out = stream(BinaryMetrics(threshold=threshold), scores, target).compute()
    pred = (scores >= threshold).astype(int)
    tn, fp, fn, tp = skm.confusion_matrix(target, pred).ravel()
    assert [out[k].item() for k in ("tn", "fp", "fn", "tp")] == [tn, fp, fn, tp]
    for key, fn_ in [
        ("accuracy", skm.accuracy_score),
        ("precision", skm.precision_score),
        ("recall", skm.recall_score),
        ("f1", skm.f1_score),
    ]:
        kwargs = {} if key == "accuracy" else {"zero_division": 0}
        assert out[key].item() == pytest.approx(fn_(target, pred, **kwargs), abs=1e-12), key
    assert out["specificity"].item() == pytest.approx(tn / (tn + fp), abs=1e-12)


def test_logits_with_threshold_zero_equal_probabilities_at_half():
    scores, target = binary_data(2)
    logits = np.log(scores / (1 - scores))
    a = stream(BinaryMetrics(threshold=0.0), logits, target).compute()
    b = stream(BinaryMetrics(threshold=0.5), scores, target).compute()
    assert a["f1"].item() == b["f1"].item()
    assert a["auroc"].item() == pytest.approx(b["auroc"].item(), abs=1e-12)


def test_binary_matches_torchmetrics():
    scores, target = binary_data(3)
    s, t = torch.as_tensor(scores, dtype=torch.float32), torch.as_tensor(target)
    out = stream(BinaryMetrics(), s.numpy(), target).compute()
    assert out["auroc"].item() == pytest.approx(tmc.BinaryAUROC()(s, t).item(), abs=1e-6)
    assert out["average_precision"].item() == pytest.approx(
        tmc.BinaryAveragePrecision()(s, t).item(), abs=1e-6
    )
    assert out["f1"].item() == pytest.approx(tmc.BinaryF1Score()(s, t).item(), abs=1e-6)
    # Binned, with thresholds that include 0 and 1 and scores strictly inside: same curve.
    binned = stream(BinaryMetrics(thresholds=101), s.numpy(), target).compute()
    assert binned["auroc"].item() == pytest.approx(
        tmc.BinaryAUROC(thresholds=101)(s, t).item(), abs=1e-6
    )
    assert binned["average_precision"].item() == pytest.approx(
        tmc.BinaryAveragePrecision(thresholds=101)(s, t).item(), abs=1e-6
    )


def test_binary_ignore_index_and_bool_target():
    scores, target = binary_data(4)
    marked = target.copy()
    marked[::7] = -1
    out = stream(BinaryMetrics(ignore_index=-1), scores, marked).compute()
    keep = marked != -1
    assert out["auroc"].item() == pytest.approx(
        skm.roc_auc_score(target[keep], scores[keep]), abs=1e-12
    )
    assert out["tp"].item() + out["fn"].item() == target[keep].sum()
    as_bool = stream(BinaryMetrics(), scores, target.astype(bool)).compute()
    assert as_bool["auroc"].item() == pytest.approx(skm.roc_auc_score(target, scores), abs=1e-12)


def test_one_class_only_is_undefined_like_sklearn():
    metric = BinaryMetrics()
    metric.update(torch.tensor([0.2, 0.7, 0.4]), torch.tensor([0, 0, 0]))
    with pytest.warns(UserWarning) as record:
        out = metric.compute()
    assert any("ROC AUC is not defined" in str(w.message) for w in record)
    assert np.isnan(out["auroc"].item())
    with pytest.warns(UserWarning):
        ref = skm.average_precision_score([0, 0, 0], [0.2, 0.7, 0.4])
    assert out["average_precision"].item() == ref == 0.0


def test_binary_merge_exact_and_binned():
    scores, target = binary_data(6)
    for thresholds in (None, 21):
        whole = stream(BinaryMetrics(thresholds), scores, target).compute()
        a = stream(BinaryMetrics(thresholds), scores[:100], target[:100])
        b = stream(BinaryMetrics(thresholds), scores[100:], target[100:])
        merged = a.merge(b).compute()
        for key in ("auroc", "average_precision", "tp", "fp"):
            assert merged[key].item() == whole[key].item()
    with pytest.raises(ValueError, match="same settings"):
        BinaryMetrics(11).merge(BinaryMetrics(21))


# ------------------------------------------------------------------------------------------------
# BinaryMetrics, binned mode: the documented error bound
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_bins", [3, 11, 101, 1001])
@pytest.mark.parametrize("seed", range(6))
def test_binned_error_is_within_the_bound(seed, n_bins):
    scores, target = binary_data(seed, n=400, ties=seed % 2 == 1)
    exact_auc = skm.roc_auc_score(target, scores)
    exact_ap = skm.average_precision_score(target, scores)
    out = stream(BinaryMetrics(thresholds=n_bins), scores, target).compute()
    assert abs(out["auroc"].item() - exact_auc) <= out["auroc_error_bound"].item() + 1e-12
    assert (
        abs(out["average_precision"].item() - exact_ap)
        <= out["average_precision_error_bound"].item() + 1e-12
    )


def test_binned_bound_with_scores_outside_the_thresholds():
    """Thresholds need not cover the scores: the -inf end point keeps the curve complete."""
    scores, target = binary_data(9)
    logits = np.log(scores / (1 - scores))  # roughly -4 .. 4
    out = stream(BinaryMetrics(thresholds=torch.linspace(-1, 1, 9)), logits, target).compute()
    assert out["roc_fpr"][-1].item() == 1.0 and out["roc_tpr"][-1].item() == 1.0
    assert (
        abs(out["auroc"].item() - skm.roc_auc_score(target, logits))
        <= out["auroc_error_bound"].item() + 1e-12
    )
    ap = skm.average_precision_score(target, logits)
    assert (
        abs(out["average_precision"].item() - ap)
        <= out["average_precision_error_bound"].item() + 1e-12
    )


def test_binned_error_shrinks_with_more_bins():
    scores, target = binary_data(0, n=2000)
    exact = skm.roc_auc_score(target, scores)
    errors, bounds = [], []
    for n_bins in (11, 101, 1001):
        out = stream(BinaryMetrics(thresholds=n_bins), scores, target, batch=500).compute()
        errors.append(abs(out["auroc"].item() - exact))
        bounds.append(out["auroc_error_bound"].item())
    assert bounds[0] > bounds[1] > bounds[2]
    assert errors[2] < 1e-3 and bounds[2] < 1e-2


def test_binned_is_exact_when_scores_lie_on_the_bin_edges():
    rng = np.random.default_rng(12)
    grid = torch.arange(21, dtype=torch.float64) / 20
    target = (rng.random(500) < 0.4).astype(np.int64)
    index = np.clip(rng.integers(0, 21, 500) + 3 * target, 0, 20)
    scores = grid.numpy()[index]
    out = stream(BinaryMetrics(thresholds=grid), scores, target).compute()
    exact = stream(BinaryMetrics(), scores, target).compute()
    assert out["auroc"].item() == pytest.approx(skm.roc_auc_score(target, scores), abs=1e-12)
    assert out["average_precision"].item() == pytest.approx(
        skm.average_precision_score(target, scores), abs=1e-12
    )
    assert out["auroc"].item() == pytest.approx(exact["auroc"].item(), abs=1e-12)


def test_binned_state_is_fixed_size():
    metric = BinaryMetrics(thresholds=51)
    for seed in range(3):
        scores, target = binary_data(seed, n=1000)
        stream(metric, scores, target, batch=250)
    assert metric.hist.shape == (3 * 52,) and metric.hist.dtype == torch.long
    assert metric.hist.sum().item() == 3000


def test_base_class_rejects_unknown_reduction():
    metric = StreamingMetric()
    with pytest.raises(ValueError, match="reduction"):
        metric.add_state("x", torch.zeros(1), "mean")
