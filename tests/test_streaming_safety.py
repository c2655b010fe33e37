"""mltutor.streaming lets no wrong number through: aliasing, merges, dtypes, many classes, resume.

Each test here is a probe that once gave a silently wrong number, a hang, or one that could: a
metric merged into itself, a reused score buffer, a bool target with ``ignore_index=1``, a target
dtype that wraps ``ignore_index`` around, 200,000 classes, a resumed epoch.  The single-process
``sample_ids`` semantics are here too; the distributed ones are in ``test_streaming_ddp.py``.
"""

from __future__ import annotations

import copy
import io
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torchmetrics = pytest.importorskip("torchmetrics")

import sklearn.metrics as skm  # noqa: E402
from _strategies import CASES, PROPERTY  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from torchmetrics import classification as tmc  # noqa: E402

from mltutor.streaming import BinaryMetrics, MulticlassMetrics  # noqa: E402
from mltutor.streaming.multiclass import MAX_DENSE_CELLS  # noqa: E402


def make_metric(kind: str):
    return {
        "binary exact": lambda: BinaryMetrics(),
        "binary binned": lambda: BinaryMetrics(thresholds=11),
        "multiclass dense": lambda: MulticlassMetrics(4),
        "multiclass counts": lambda: MulticlassMetrics(4, dense=False),
    }[kind]()


KINDS = ["binary exact", "binary binned", "multiclass dense", "multiclass counts"]


def batch(kind: str, seed: int, n: int = 30):
    gen = torch.Generator().manual_seed(seed)
    if kind.startswith("binary"):
        target = torch.randint(0, 2, (n,), generator=gen)
        return torch.rand(n, generator=gen, dtype=torch.float64) * 0.5 + 0.4 * target, target
    target = torch.randint(0, 4, (n,), generator=gen)
    return torch.where(
        torch.rand(n, generator=gen) < 0.6, target, torch.randint(0, 4, (n,), generator=gen)
    ), target


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key, value in a.items():
        if isinstance(value, torch.Tensor):
            assert value.dtype == b[key].dtype, key
            assert torch.equal(value, b[key]) or (
                value.is_floating_point() and torch.isnan(value).all() and torch.isnan(b[key]).all()
            ), (key, value, b[key])
        else:
            assert value == b[key], key


def streamed(kind: str, seeds, **update_kwargs):
    metric = make_metric(kind)
    for seed in seeds:
        metric.update(*batch(kind, seed), **update_kwargs)
    return metric


# ------------------------------------------------------------------------------------------------
# Merges and aliasing
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_merge_into_itself_raises_and_changes_nothing(kind):
    # Before: BinaryMetrics extended a list with itself (never returned); MulticlassMetrics
    # doubled every count.
    metric = streamed(kind, [0, 1])
    before = metric.compute()
    with pytest.raises(ValueError, match="into itself"):
        metric.merge(metric)
    assert_same(metric.compute(), before)


@pytest.mark.parametrize("kind", KINDS)
def test_merging_a_deepcopy_doubles_on_purpose(kind):
    metric = streamed(kind, [0, 1])
    metric.merge(copy.deepcopy(metric))
    assert_same(metric.compute(), streamed(kind, [0, 1, 0, 1]).compute())


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
@pytest.mark.parametrize("kind", KINDS)
def test_copies_share_no_state(kind, copier):
    # A default copy.copy shared the state lists and tensors: an update of one changed the other,
    # and merging the copy extended a list with itself.
    metric = streamed(kind, [0])
    twin = copier(metric)
    twin.update(*batch(kind, 5))
    assert_same(metric.compute(), streamed(kind, [0]).compute())
    metric.merge(twin)
    assert_same(metric.compute(), streamed(kind, [0, 0, 5]).compute())
    assert_same(twin.compute(), streamed(kind, [0, 5]).compute())


@pytest.mark.parametrize("kind", KINDS)
def test_merge_leaves_other_unchanged_and_unshared(kind):
    metric, other = streamed(kind, [0]), streamed(kind, [1])
    metric.merge(other)
    metric.update(*batch(kind, 2))
    assert_same(other.compute(), streamed(kind, [1]).compute())
    assert_same(metric.compute(), streamed(kind, [0, 1, 2]).compute())


@pytest.mark.parametrize("kind", KINDS)
def test_merge_from_a_synced_metric_is_refused(kind):
    # Before: merging *from* a metric synced in place (whose state is every rank's data, here
    # resumed from a checkpoint saved after sync()) was accepted, counting the other ranks again.
    saved = streamed(kind, [0]).state_dict()
    saved["synced"] = True
    synced = make_metric(kind).load_state_dict(saved)
    metric = streamed(kind, [1])
    before = metric.compute()
    with pytest.raises(RuntimeError, match="other was synced across ranks in place"):
        metric.merge(synced)
    assert_same(metric.compute(), before)


@pytest.mark.parametrize("kind", KINDS)
def test_merge_after_reset_is_the_other(kind):
    metric = streamed(kind, [0, 1])
    metric.reset()
    metric.merge(streamed(kind, [2]))
    assert_same(metric.compute(), streamed(kind, [2]).compute())


@pytest.mark.parametrize(
    "mine, theirs",
    [
        (MulticlassMetrics(4), MulticlassMetrics(5)),
        (MulticlassMetrics(4), MulticlassMetrics(4, dense=False)),
        (MulticlassMetrics(4), MulticlassMetrics(4, ignore_index=-1)),
        (BinaryMetrics(), BinaryMetrics(thresholds=11)),
        (BinaryMetrics(thresholds=11), BinaryMetrics(thresholds=12)),
        (BinaryMetrics(), BinaryMetrics(threshold=0.3)),
        (BinaryMetrics(), BinaryMetrics(ignore_index=-1)),
        (BinaryMetrics(), MulticlassMetrics(2)),
        (MulticlassMetrics(2), "not a metric"),
    ],
)
def test_merge_of_an_incompatible_metric_raises(mine, theirs):
    with pytest.raises(ValueError, match="same settings"):
        mine.merge(theirs)


# ------------------------------------------------------------------------------------------------
# update owns what it keeps
# ------------------------------------------------------------------------------------------------


def _buffers(dtype: torch.dtype, layout: str, n: int):
    """A score buffer of ``n`` entries in a given memory layout, to be overwritten in place."""
    if layout == "contiguous":
        return torch.empty(n, dtype=dtype)
    if layout == "view":  # a slice of a bigger tensor
        return torch.empty(3 * n, dtype=dtype)[n : 2 * n]
    return torch.empty(n, 2, dtype=dtype)[:, 1]  # a strided column: non-contiguous


@pytest.mark.parametrize("layout", ["contiguous", "view", "strided"])
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("thresholds", [None, 101], ids=["exact", "binned"])
def test_reused_score_buffer_is_copied(dtype, layout, thresholds):
    # Before: float64 scores were kept by reference, so refilling the buffer for the next batch
    # rewrote the previous batch too (AUROC 1.0 became 0.5).
    targets = [torch.tensor([0, 0, 1, 1]), torch.tensor([0, 1, 0, 1])]
    values = [torch.tensor([0.1, 0.2, 0.8, 0.9]), torch.tensor([0.3, 0.7, 0.4, 0.6])]
    buf = _buffers(dtype, layout, 4)
    metric = BinaryMetrics(thresholds=thresholds)
    ids_buf = torch.empty(4, dtype=torch.long)
    with_ids = BinaryMetrics(thresholds=thresholds)
    for k, (t, v) in enumerate(zip(targets, values)):
        buf.copy_(v)
        ids_buf.copy_(torch.arange(4) + 4 * k)
        metric.update(buf, t)
        with_ids.update(buf, t, sample_ids=ids_buf)
    y = torch.cat(targets).numpy()
    s = torch.cat(values).to(dtype).double().numpy()
    for m in (metric, with_ids):
        out = m.compute()
        if thresholds is None:
            assert out["auroc"].item() == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
        assert out["tp"].item() == int(((s >= 0.5) & (y == 1)).sum())


def test_numpy_scores_are_refused_clearly():
    with pytest.raises(TypeError, match=r"torch.as_tensor\(preds\)"):
        BinaryMetrics().update(np.array([0.2, 0.8]), torch.tensor([0, 1]))
    with pytest.raises(TypeError, match=r"torch.as_tensor\(target\)"):
        MulticlassMetrics(3).update(torch.tensor([0, 1]), np.array([0, 1]))
    with pytest.raises(TypeError, match="sample_ids must be a torch.Tensor"):
        BinaryMetrics().update(
            torch.tensor([0.2, 0.8]), torch.tensor([0, 1]), sample_ids=np.arange(2)
        )


def test_reused_prediction_and_id_buffers_in_multiclass():
    preds, ids = torch.empty(3, dtype=torch.long), torch.empty(3, dtype=torch.long)
    metric = MulticlassMetrics(3)
    for k, (p, t) in enumerate([([0, 1, 2], [0, 1, 2]), ([1, 1, 1], [0, 1, 2])]):
        preds.copy_(torch.tensor(p))
        ids.copy_(torch.arange(3) + 3 * k)
        metric.update(preds, torch.tensor(t), sample_ids=ids)
    assert metric.compute()["accuracy"].item() == pytest.approx(4 / 6, abs=1e-15)


# ------------------------------------------------------------------------------------------------
# Target and score dtypes, ignore_index (against torchmetrics 1.9)
# ------------------------------------------------------------------------------------------------

SCORES = torch.tensor([0.9, 0.8, 0.3, 0.6, 0.2, 0.1, 0.45, 0.55])  # none equal to 0.5
BOOL_TARGET = torch.tensor([True, True, False, True, False, False, True, False])


def _ours_stat(preds, target, **kwargs):
    out = BinaryMetrics(**kwargs)
    out.update(preds, target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one class left: the AUROC warning is not the point
        res = out.compute()
    return [res[k].item() for k in ("tp", "fp", "tn", "fn")]


def _tm_stat(preds, target, **kwargs):
    tm = tmc.BinaryStatScores(**kwargs)
    tm.update(preds, target)
    return tm.compute()[:4].tolist()


@pytest.mark.parametrize("ignore_index", [None, 1, 0, -1, -100])
def test_bool_target_is_never_ignored(ignore_index):
    # Before: ignore_index=1 dropped every positive of a bool target (True == 1).
    ours = _ours_stat(SCORES, BOOL_TARGET, ignore_index=ignore_index)
    assert ours == _ours_stat(SCORES, BOOL_TARGET)
    if ignore_index != 0:  # torchmetrics turns the negatives into positives there (its bug)
        assert ours == _tm_stat(SCORES, BOOL_TARGET, ignore_index=ignore_index)
    metric = BinaryMetrics(ignore_index=ignore_index)
    metric.update(SCORES, BOOL_TARGET)
    assert metric.compute()["auroc"].item() == skm.roc_auc_score(
        BOOL_TARGET.numpy(), SCORES.numpy()
    )


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8])
@pytest.mark.parametrize("ignore_index", [None, 0, 1, 9])
def test_integer_targets_match_torchmetrics(dtype, ignore_index):
    target = torch.tensor([1, 1, 0, 9, 0, 0, 1, 9]).to(dtype)
    if ignore_index != 9:  # 9 is only allowed as the marker
        target = torch.where(target == 9, 0, target).to(dtype)
    keep = (target != ignore_index).numpy() if ignore_index is not None else np.ones(8, bool)
    ours = _ours_stat(SCORES, target, ignore_index=ignore_index)
    assert ours == _tm_stat(SCORES, target, ignore_index=ignore_index)
    y = target.numpy()[keep]
    s = SCORES.numpy()[keep]
    metric = BinaryMetrics(ignore_index=ignore_index)
    metric.update(SCORES, target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one class left: AUROC undefined (nan), as sklearn
        auroc = metric.compute()["auroc"].item()
    if len(np.unique(y)) == 2:
        assert auroc == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    else:
        assert np.isnan(auroc)


@pytest.mark.parametrize(
    "dtype, ignore_index",
    [
        (torch.uint8, -1),
        (torch.uint8, 256),
        (torch.int8, 255),
        (torch.int8, -129),
        (torch.int16, 40000),
    ],
)
def test_ignore_index_the_target_dtype_cannot_hold_is_refused(dtype, ignore_index):
    # torch compares across the wrap-around: uint8 255 == -1 (torchmetrics ignores 255 then).
    target = torch.tensor([0, 1, 1, 0]).to(dtype)
    with pytest.raises(ValueError, match=f"ignore_index={ignore_index} cannot occur"):
        BinaryMetrics(ignore_index=ignore_index).update(SCORES[:4], target)
    with pytest.raises(ValueError, match=f"ignore_index={ignore_index} cannot occur"):
        MulticlassMetrics(3, ignore_index=ignore_index).update(target.long(), target)


def test_uint8_target_with_ignore_index_255_matches_torchmetrics():
    target = torch.tensor([1, 1, 0, 255, 0, 0, 1, 255], dtype=torch.uint8)
    assert _ours_stat(SCORES, target, ignore_index=255) == _tm_stat(
        SCORES, target, ignore_index=255
    )
    preds = torch.tensor([1, 0, 0, 2, 2, 0, 1, 1])
    ours = MulticlassMetrics(3, ignore_index=255)
    ours.update(preds, target)
    tm = tmc.MulticlassConfusionMatrix(3, ignore_index=255)
    tm.update(preds, target)
    assert torch.equal(ours.compute()["confusion_matrix"], tm.compute())


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16])
def test_float_targets_are_refused(dtype):
    with pytest.raises(TypeError, match="target must hold integer"):
        BinaryMetrics().update(SCORES, BOOL_TARGET.to(dtype))
    with pytest.raises(TypeError, match="target must hold integer"):
        MulticlassMetrics(2).update(BOOL_TARGET.long(), BOOL_TARGET.to(dtype))


def test_bool_target_is_refused_by_multiclass():
    with pytest.raises(TypeError, match="Float or bool targets are refused"):
        MulticlassMetrics(2).update(BOOL_TARGET.long(), BOOL_TARGET)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_low_precision_scores_are_widened_exactly(dtype):
    preds = SCORES.to(dtype)
    target = BOOL_TARGET.long()
    metric = BinaryMetrics()
    metric.update(preds, target)
    out = metric.compute()
    widened = preds.double().numpy()
    assert out["auroc"].item() == skm.roc_auc_score(target.numpy(), widened)
    assert out["average_precision"].item() == pytest.approx(
        skm.average_precision_score(target.numpy(), widened), abs=1e-12
    )
    assert [out[k].item() for k in ("tp", "fp", "tn", "fn")] == _tm_stat(preds, target)


# Thresholds written as decimals, and scores that are the very same decimals in a low-precision
# dtype: float32 and bfloat16 round 0.29, 0.7 and 0.9 down, float16 rounds 0.1, 0.55 and 0.9
# down (so widening such a score to float64 put it below its own threshold).
DECIMAL_THRESHOLDS = [0.1, 0.25, 0.29, 0.3, 0.55, 0.7, 0.9]


def _decimal_scores(dtype):
    gen = torch.Generator().manual_seed(11)
    values = torch.tensor(DECIMAL_THRESHOLDS + [0.05, 0.5, 0.95], dtype=torch.float64)
    scores = values[torch.randint(0, values.shape[0], (400,), generator=gen)]
    target = (torch.rand(400, generator=gen, dtype=torch.float64) < 0.3 + 0.5 * scores).long()
    return scores.to(dtype), target


@pytest.mark.parametrize("with_ids", [False, True], ids=["plain", "sample_ids"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_binned_thresholds_compare_in_the_scores_dtype(dtype, with_ids):
    # Before: scores were widened to float64 and compared with float64 thresholds, so a float32
    # score of 0.29 fell below the threshold 0.29 (and a float16 0.1 below 0.1).
    scores, target = _decimal_scores(dtype)
    ids = {"sample_ids": torch.arange(400)} if with_ids else {}
    ours = BinaryMetrics(thresholds=DECIMAL_THRESHOLDS)
    ours.update(scores, target, **ids)
    out = ours.compute()
    tm = tmc.BinaryPrecisionRecallCurve(thresholds=torch.tensor(DECIMAL_THRESHOLDS, dtype=dtype))
    tm.update(scores, target)
    precision, recall, _ = tm.compute()
    # Ours: [-inf, thresholds..., then (P=1, R=0)]; torchmetrics: [thresholds..., (1, 0)].
    assert torch.equal(out["pr_precision"][1:].to(torch.float32), precision.to(torch.float32))
    assert torch.equal(out["pr_recall"][1:].to(torch.float32), recall.to(torch.float32))
    tps = tm.confmat[:, 1, 1]
    fps = tm.confmat[:, 0, 1]
    for k, t in enumerate(DECIMAL_THRESHOLDS):  # the decision threshold follows the same rule
        at = BinaryMetrics(threshold=t)
        at.update(scores, target, **ids)
        res = at.compute()
        assert (res["tp"].item(), res["fp"].item()) == (tps[k].item(), fps[k].item()), t


def test_widening_would_have_dropped_the_equal_scores():
    """The rule matters: every dtype here has a decimal that widening puts below itself."""
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        rounded = torch.tensor(DECIMAL_THRESHOLDS, dtype=dtype)
        assert (rounded.double() < torch.tensor(DECIMAL_THRESHOLDS, dtype=torch.float64)).any()


def test_torchmetrics_default_float32_thresholds_drop_a_float16_score():
    # The docstring's claim: torchmetrics compares float16 scores with its float32 thresholds in
    # float32, so a float16 score of 0.1 is below the threshold 0.1 there; ours counts it.
    scores, target = torch.tensor([0.1, 0.5], dtype=torch.float16), torch.tensor([0, 1])
    tm = tmc.BinaryPrecisionRecallCurve(thresholds=[0.1])
    tm.update(scores, target)
    assert tm.confmat[0, 0, 1].item() == 0  # the negative at 0.1 is not counted at 0.1
    ours = BinaryMetrics(thresholds=[0.1], threshold=0.1)
    ours.update(scores, target)
    assert ours.compute()["fp"].item() == 1


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_non_finite_scores_are_refused(bad, dtype):
    preds = SCORES.clone()
    preds[2] = bad
    with pytest.raises(ValueError, match="preds must be finite"):
        BinaryMetrics().update(preds.to(dtype), BOOL_TARGET.long())


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_low_precision_logits_give_torchmetrics_confusion(dtype):
    gen = torch.Generator().manual_seed(3)
    logits = torch.randn(200, 5, generator=gen).to(dtype)
    target = torch.randint(0, 5, (200,), generator=gen).to(torch.int8)
    ours = MulticlassMetrics(5)
    ours.update(logits, target)
    tm = tmc.MulticlassConfusionMatrix(5)
    tm.update(logits, target.long())
    assert torch.equal(ours.compute()["confusion_matrix"], tm.compute())
    logits[3, 1] = float("nan")
    with pytest.raises(ValueError, match="contain NaN"):
        MulticlassMetrics(5).update(logits, target)


# ------------------------------------------------------------------------------------------------
# Any number of classes: the per-class-counts mode
# ------------------------------------------------------------------------------------------------


def test_dense_up_to_max_dense_cells_then_per_class_counts():
    side = int(MAX_DENSE_CELLS**0.5)
    assert side * side == MAX_DENSE_CELLS == 16_777_216
    assert MulticlassMetrics(side).dense
    assert not MulticlassMetrics(side + 1).dense
    assert not MulticlassMetrics(3, dense=False).dense
    assert MulticlassMetrics(3, dense=True).dense


def test_two_hundred_thousand_classes_use_o_of_c_memory():
    # Before: a 200,000**2 int64 state (320 GB) was allocated.
    c = 200_000
    metric = MulticlassMetrics(c)
    assert metric.class_counts.numel() == 3 * c + 1
    gen = torch.Generator().manual_seed(0)
    target = torch.randint(0, c, (5000,), generator=gen)
    preds = torch.where(
        torch.rand(5000, generator=gen) < 0.7, target, torch.randint(0, c, (5000,), generator=gen)
    )
    metric.update(preds, target)
    out = metric.compute()
    y, p = target.numpy(), preds.numpy()
    assert out["accuracy"].item() == skm.accuracy_score(y, p)
    assert out["macro_f1"].item() == pytest.approx(skm.f1_score(y, p, average="macro"), abs=1e-12)
    assert out["weighted_f1"].item() == pytest.approx(
        skm.f1_score(y, p, average="weighted"), abs=1e-12
    )
    with pytest.raises(KeyError, match="only kept in the dense mode"):
        out["confusion_matrix"]


@st.composite
def labelled_stream(draw):
    c = draw(st.integers(2, 6))
    n = draw(st.integers(1, 40))
    y = draw(st.lists(st.sampled_from([*range(c), -100]), min_size=n, max_size=n))
    p = draw(st.lists(st.integers(0, c - 1), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    return c, torch.tensor(y), torch.tensor(p), [0, *cuts, n]


@settings(PROPERTY, max_examples=150)
@given(labelled_stream())
def test_dense_and_per_class_counts_give_the_same_numbers(stream):
    CASES["streaming MulticlassMetrics dense == per-class counts"] += 1
    c, y, p, cuts = stream
    dense = MulticlassMetrics(c, ignore_index=-100, dense=True)
    counts = MulticlassMetrics(c, ignore_index=-100, dense=False)
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        dense.update(p[lo:hi], y[lo:hi])
        counts.update(p[lo:hi], y[lo:hi])
    if (y != -100).sum() == 0:
        for m in (dense, counts):
            with pytest.raises(ValueError, match="seen no samples"):
                m.compute()
        return
    a, b = dense.compute(), counts.compute()
    assert a.pop("confusion_matrix").sum() == (y != -100).sum()
    assert_same(a, b)


# ------------------------------------------------------------------------------------------------
# state_dict / load_state_dict: resumable evaluation
# ------------------------------------------------------------------------------------------------

RESUMABLE = {
    **{kind: (lambda kind=kind: make_metric(kind)) for kind in KINDS},
    "multiclass ignore_index": lambda: MulticlassMetrics(4, ignore_index=3),
}


def _roundtrip(state: dict) -> dict:
    buffer = io.BytesIO()
    torch.save(state, buffer)
    buffer.seek(0)
    return torch.load(buffer, weights_only=True)


@pytest.mark.parametrize("with_ids", [False, True], ids=["plain", "sample_ids"])
@pytest.mark.parametrize("name", list(RESUMABLE))
def test_mid_epoch_resume_equals_one_pass(name, with_ids):
    kind = name if name in KINDS else "multiclass dense"
    make = RESUMABLE[name]

    def feed(metric, seeds):
        for seed in seeds:
            # With ids, epochs 3..5 repeat the samples of 0..2 (counted once, as in one pass).
            preds, target = batch(kind, seed % 3 if with_ids else seed)
            ids = {"sample_ids": torch.arange(30) + 30 * (seed % 3)} if with_ids else {}
            metric.update(preds, target, **ids)

    one_pass = make()
    feed(one_pass, range(6))
    first = make()
    feed(first, range(3))
    saved = _roundtrip(first.state_dict())
    resumed = make().load_state_dict(saved)
    feed(resumed, range(3, 6))
    assert_same(resumed.compute(), one_pass.compute())
    assert resumed._n_updates == one_pass._n_updates


def test_state_dict_holds_copies():
    metric = streamed("multiclass dense", [0])
    saved = metric.state_dict()
    metric.update(*batch("multiclass dense", 1))
    assert_same(
        MulticlassMetrics(4).load_state_dict(saved).compute(),
        streamed("multiclass dense", [0]).compute(),
    )


@pytest.mark.parametrize(
    "saver, loader, match",
    [
        (MulticlassMetrics(4), MulticlassMetrics(5), "num_classes: saved 4, this metric 5"),
        (
            MulticlassMetrics(4),
            MulticlassMetrics(4, dense=False),
            "dense: saved True, this metric False",
        ),
        (MulticlassMetrics(4), MulticlassMetrics(4, ignore_index=0), "ignore_index: saved None"),
        (BinaryMetrics(thresholds=5), BinaryMetrics(thresholds=6), "thresholds: saved"),
        (BinaryMetrics(), BinaryMetrics(threshold=0.2), "threshold: saved 0.5, this metric 0.2"),
        (BinaryMetrics(), MulticlassMetrics(2), "metric: saved 'BinaryMetrics'"),
    ],
)
def test_loading_other_settings_raises(saver, loader, match):
    with pytest.raises(ValueError, match=match):
        loader.load_state_dict(_roundtrip(saver.state_dict()))


def test_loading_something_else_raises():
    with pytest.raises(ValueError, match="must be a dict returned by"):
        MulticlassMetrics(3).load_state_dict({"confmat": torch.zeros(10)})
    saved = MulticlassMetrics(3).state_dict()
    saved["version"] = 99
    with pytest.raises(ValueError, match="format version 99"):
        MulticlassMetrics(3).load_state_dict(saved)


# ------------------------------------------------------------------------------------------------
# sample_ids on one process
# ------------------------------------------------------------------------------------------------


@st.composite
def id_streams(draw):
    n = draw(st.integers(1, 40))
    ids = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=3)))
    seed = draw(st.integers(0, 2**16))
    return np.array(ids), [0, *cuts, n], seed


@settings(PROPERTY, max_examples=100)
@given(id_streams(), st.sampled_from(KINDS))
def test_each_sample_id_is_counted_once(stream, kind):
    """Rows of a repeated id (same target, any prediction) count once: the first row's values."""
    CASES["streaming sample_ids: repeats counted once"] += 1
    ids, cuts, seed = stream
    gen = torch.Generator().manual_seed(seed)
    truth = torch.randint(0, 2 if kind.startswith("binary") else 4, (16,), generator=gen)
    target = truth[ids]
    if kind.startswith("binary"):
        preds = torch.rand(len(ids), generator=gen, dtype=torch.float64)
    else:
        preds = torch.randint(0, 4, (len(ids),), generator=gen)
    metric, reference = make_metric(kind), make_metric(kind)
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        metric.update(preds[lo:hi], target[lo:hi], sample_ids=torch.as_tensor(ids[lo:hi]))
    _, first = np.unique(ids, return_index=True)
    first = np.sort(first)
    reference.update(preds[first], target[first])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one class only: AUROC nan, as in the reference
        assert_same(metric.compute(), reference.compute())


@pytest.mark.parametrize("kind", KINDS)
def test_mixing_updates_with_and_without_ids_is_refused(kind):
    metric = make_metric(kind)
    metric.update(*batch(kind, 0), sample_ids=torch.arange(30))
    metric.update(*batch(kind, 1))
    with pytest.raises(ValueError, match="both with and without sample_ids"):
        metric.compute()


@pytest.mark.parametrize("same_batch", [False, True], ids=["two batches", "one batch"])
@pytest.mark.parametrize("kind", KINDS)
def test_one_id_with_two_targets_is_refused(kind, same_batch):
    # Before: the message said "in one update and ... in another" also when both rows were in one.
    metric = make_metric(kind)
    preds, _ = batch(kind, 0, n=5)
    if same_batch:
        metric.update(
            preds, torch.tensor([0, 1, 1, 0, 1]), sample_ids=torch.tensor([7, 8, 9, 10, 7])
        )
    else:
        metric.update(preds[:4], torch.tensor([0, 1, 1, 0]), sample_ids=torch.tensor([7, 8, 9, 10]))
        metric.update(preds[4:], torch.tensor([1]), sample_ids=torch.tensor([7]))
    with pytest.raises(
        ValueError,
        match=r"id 7 comes with target 0 and, in a later row \(of the "
        r"same batch or of another\), with target 1",
    ):
        metric.compute()


@pytest.mark.parametrize(
    "ids, error, match",
    [
        (torch.tensor([0.0, 1.0, 2.0]), TypeError, "sample_ids must hold int64"),
        (torch.tensor([0, 1]), ValueError, "one id per sample"),
        (torch.tensor([[0, 1, 2]]), ValueError, "one id per sample"),
        ([0, 1, 2], TypeError, "sample_ids must be a torch.Tensor"),
    ],
)
def test_bad_sample_ids(ids, error, match):
    for metric, preds in [
        (BinaryMetrics(), torch.tensor([0.1, 0.6, 0.9])),
        (MulticlassMetrics(3), torch.tensor([0, 1, 2])),
    ]:
        with pytest.raises(error, match=match):
            metric.update(preds, torch.tensor([0, 1, 1]), sample_ids=ids)


NARROW_IDS = [
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.uint16,
    torch.int32,
    torch.uint32,
    torch.uint64,
]


@pytest.mark.parametrize("dtype", NARROW_IDS + [torch.bool, torch.float32, torch.float64])
@pytest.mark.parametrize("kind", KINDS)
def test_sample_ids_must_be_int64(kind, dtype):
    # Before: any integer dtype was accepted, so ids that had wrapped around on the way (a uint8
    # 256 arrives as 0) merged two samples silently whenever their targets agreed.
    preds, target = batch(kind, 0, n=3)
    ids = torch.tensor([0, 1, 1]).to(dtype)
    not_an_index = dtype == torch.bool or dtype.is_floating_point
    why = "Bool and float ids are refused" if not_an_index else "would already have wrapped"
    with pytest.raises(TypeError, match=f"sample_ids must hold int64 .*got dtype {dtype}.*{why}"):
        make_metric(kind).update(preds, target, sample_ids=ids)


def test_a_wrapped_uint8_id_would_merge_two_samples():
    """Why int64 is required: the merge a narrow id dtype caused, shown without validation."""
    preds, target = torch.tensor([0, 1]), torch.tensor([0, 0])
    ids = torch.tensor([0, 256]).to(torch.uint8)  # two samples, one id after the wrap-around
    unchecked = MulticlassMetrics(3, validate_args=False)
    unchecked.update(preds, target, sample_ids=ids)
    assert unchecked.compute()["support"].tolist() == [1, 0, 0]  # one sample lost, no error
    with pytest.raises(TypeError, match="sample_ids must hold int64"):
        MulticlassMetrics(3).update(preds, target, sample_ids=ids)


def test_deepcopy_keeps_the_process_group_handle():
    class Handle:  # stands in for a ProcessGroup, which cannot be deep-copied
        def __deepcopy__(self, memo):
            raise TypeError("a process group cannot be copied")

    group = Handle()
    metric = MulticlassMetrics(3, process_group=group)
    metric.update(torch.tensor([0, 1]), torch.tensor([0, 1]))
    for twin in (copy.deepcopy(metric), copy.copy(metric)):
        assert twin.process_group is group
        assert twin.confmat is not metric.confmat and torch.equal(twin.confmat, metric.confmat)


@pytest.mark.parametrize("kind", KINDS)
def test_compute_returns_tensors_the_state_does_not_share(kind):
    metric = streamed(kind, [0, 1])
    first = metric.compute()
    for value in first.values():
        if isinstance(value, torch.Tensor):
            value.add_(1)  # a caller editing the result in place
    assert_same(metric.compute(), streamed(kind, [0, 1]).compute())


def test_thresholds_tensor_is_copied_at_construction():
    thresholds = torch.tensor([0.25, 0.5, 0.75], dtype=torch.float64)
    metric = BinaryMetrics(thresholds=thresholds)
    thresholds.fill_(0.0)  # the caller reuses its tensor
    metric.update(torch.tensor([0.1, 0.6, 0.8]), torch.tensor([0, 1, 1]))
    assert metric.compute()["pr_thresholds"].tolist() == [-float("inf"), 0.25, 0.5, 0.75]


def test_thresholds_that_round_together_count_the_same_scores():
    # The docstring's price of the rule: 0.1 and 0.09999 are one float16 value.
    scores, target = torch.tensor([0.1, 0.5], dtype=torch.float16), torch.tensor([0, 1])
    metric = BinaryMetrics(thresholds=[0.09999, 0.1])
    metric.update(scores, target)
    out = metric.compute()
    assert out["pr_precision"][1:3].tolist() == [0.5, 0.5]  # the 0.1 counts at both
