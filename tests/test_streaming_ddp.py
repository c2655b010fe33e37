"""mltutor.streaming under torch.distributed, for real: 2 CPU processes, gloo, uneven shards.

One launch runs every scenario (starting processes that import torch is the slow part); the tests
then compare what each rank computed with the single-process result, exactly: the states are
integer counts (and, for exact AUC, the very same scores), so "close" is not good enough.

Every wait is bounded: the process group has a 60 s timeout and ``run_gloo`` kills the workers
and raises when one fails or when they overrun, so a hang fails the test instead of blocking CI.
"""

from __future__ import annotations

import time

import pytest

torch = pytest.importorskip("torch")
dist = pytest.importorskip("torch.distributed")
if not (dist.is_available() and dist.is_gloo_available()):  # pragma: no cover
    pytest.skip("torch.distributed with gloo is not available", allow_module_level=True)

from mltutor.streaming import BinaryMetrics, MulticlassMetrics, run_gloo  # noqa: E402
from mltutor.streaming._dist import gather_cat  # noqa: E402

N = 517
NUM_CLASSES = 11
# (name, metric factory arguments, shard of rank 0, shard of rank 1)
SCENARIOS = {
    "multiclass, rank 0 empty": ("multi", {}, (0, 0), (0, N)),
    "multiclass, rank 1 empty": ("multi", {}, (0, N), (N, N)),
    "multiclass, uneven": ("multi", {}, (0, 123), (123, N)),
    "multiclass, ignore_index, uneven": ("multi", {"ignore_index": -100}, (0, 400), (400, N)),
    "binary exact, rank 0 empty": ("binary", {}, (0, 0), (0, N)),
    "binary exact, uneven": ("binary", {}, (0, 50), (50, N)),
    "binary binned, rank 1 empty": ("binary", {"thresholds": 51}, (0, N), (N, N)),
    "binary binned, uneven": ("binary", {"thresholds": 51}, (0, 300), (300, N)),
}


def make_data():
    """Logits, targets (some marked -100) and binary scores; identical on every rank."""
    gen = torch.Generator().manual_seed(1234)
    target = torch.randint(0, NUM_CLASSES - 2, (N,), generator=gen)  # two classes never occur
    logits = torch.randn(N, NUM_CLASSES, generator=gen, dtype=torch.float64)
    logits[torch.arange(N), target] += 1.5
    marked = target.clone()
    marked[torch.rand(N, generator=gen) < 0.1] = -100
    scores = torch.round(torch.sigmoid(logits[:, 0] - logits[:, 1]), decimals=2)  # with ties
    return logits, target, marked, scores, (target == 0).long()


def build(kind: str, kwargs: dict, lo: int, hi: int, data) -> MulticlassMetrics | BinaryMetrics:
    """Stream rows lo..hi in batches of uneven sizes (an empty batch included)."""
    logits, target, marked, scores, is_zero = data
    metric = (
        MulticlassMetrics(NUM_CLASSES, **kwargs) if kind == "multi" else BinaryMetrics(**kwargs)
    )
    cuts = [lo, lo, *range(lo + 1, hi, 61), hi]
    for a, b in zip(cuts[:-1], cuts[1:]):
        if kind == "multi":
            t = marked if "ignore_index" in kwargs else target
            metric.update(logits[a:b], t[a:b])
        else:
            metric.update(scores[a:b], is_zero[a:b])
    return metric


def _safe_compute(metric, sync):
    try:
        return metric.compute(sync=sync)
    except ValueError as exc:  # a rank without samples
        return f"ValueError: {exc}"


def _worker(rank: int, world_size: int) -> dict:
    data = make_data()
    out = {}
    for name, (kind, kwargs, *shards) in SCENARIOS.items():
        lo, hi = shards[rank]
        metric = build(kind, kwargs, lo, hi, data)
        out[name] = {
            "local": _safe_compute(metric, sync=False),
            "synced": metric.compute(),
            "synced_again": metric.compute(),  # the local state survived the first sync
        }
        metric.sync()  # in place now
        out[name]["after_sync"] = metric.compute()
        try:
            if kind == "multi":
                metric.update(data[0][:1], data[1][:1])
            else:
                metric.update(data[3][:1], data[4][:1])
            out[name]["update_after_sync"] = "accepted"
        except RuntimeError as exc:
            out[name]["update_after_sync"] = str(exc)
    # The collective itself: 2-D rows, one rank with none.
    rows = (
        torch.arange(15, dtype=torch.float64).view(5, 3)
        if rank == 1
        else torch.zeros(0, 3, dtype=torch.float64)
    )
    out["gather_cat"] = gather_cat(rows)
    return out


@pytest.fixture(scope="module")
def ranks():
    start = time.monotonic()
    results = run_gloo(_worker, 2, timeout=60.0)
    assert time.monotonic() - start < 120
    return results


def single_process(name: str) -> dict:
    kind, kwargs, *_ = SCENARIOS[name]
    return build(kind, kwargs, 0, N, make_data()).compute()


def assert_identical(got: dict, expected: dict, where: str) -> None:
    assert got.keys() == expected.keys(), where
    for key, value in expected.items():
        if isinstance(value, torch.Tensor):
            assert value.dtype == got[key].dtype, (where, key)
            assert torch.equal(got[key], value) or (
                value.is_floating_point()
                and torch.isnan(value).all()
                and torch.isnan(got[key]).all()
            ), (where, key, got[key], value)
        else:
            assert got[key] == value, (where, key)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_synced_result_equals_single_process_exactly(ranks, name):
    expected = single_process(name)
    for rank in range(2):
        for when in ("synced", "synced_again", "after_sync"):
            assert_identical(ranks[rank][name][when], expected, f"rank {rank} {when}")


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_each_rank_alone_is_wrong_or_empty(ranks, name):
    """Without sync a rank reports its own shard only (or has nothing to report)."""
    expected = single_process(name)
    _, _, *shards = SCENARIOS[name]
    for rank, (lo, hi) in enumerate(shards):
        local = ranks[rank][name]["local"]
        if hi == lo:
            assert isinstance(local, str) and "seen no samples" in local
        elif (lo, hi) == (0, N):
            assert_identical(local, expected, f"rank {rank} holds everything")
        else:
            key = "confusion_matrix" if "confusion_matrix" in expected else "tp"
            assert not torch.equal(local[key], expected[key])


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_update_after_in_place_sync_is_refused(ranks, name):
    for rank in range(2):
        assert "call reset() before update()" in ranks[rank][name]["update_after_sync"]


def test_gather_cat_pads_gathers_and_trims(ranks):
    expected = torch.arange(15, dtype=torch.float64).view(5, 3)
    for rank in range(2):
        assert torch.equal(ranks[rank]["gather_cat"], expected)


def _failing_worker(rank: int, world_size: int) -> None:
    if rank == 1:
        raise ArithmeticError("rank 1 broke on purpose")
    dist.all_reduce(torch.ones(1))  # rank 0 waits for a partner that never comes


def test_a_failing_rank_fails_fast_instead_of_hanging():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="rank 1 broke on purpose"):
        run_gloo(_failing_worker, 2, timeout=30.0)
    assert time.monotonic() - start < 30  # well before the process group's own timeout


# ------------------------------------------------------------------------------------------------
# Ranks that disagree, and exact evaluation under DistributedSampler (a second launch)
# ------------------------------------------------------------------------------------------------

# (name, rank 0's metric, rank 1's metric): every pair differs in one setting.
MISMATCHES = {
    "num_classes": (
        lambda: MulticlassMetrics(5),
        lambda: MulticlassMetrics(6),
        "num_classes: rank 0: 5, rank 1: 6",
    ),
    "class layout": (
        lambda: MulticlassMetrics(5),
        lambda: MulticlassMetrics(5, dense=False),
        "dense: rank 0: True, rank 1: False",
    ),
    "ignore_index": (
        lambda: MulticlassMetrics(5),
        lambda: MulticlassMetrics(5, ignore_index=-100),
        "ignore_index: rank 0: None, rank 1: -100",
    ),
    "thresholds": (
        lambda: BinaryMetrics(thresholds=11),
        lambda: BinaryMetrics(thresholds=12),
        "thresholds: rank 0:",
    ),
    "exact vs binned": (
        lambda: BinaryMetrics(),
        lambda: BinaryMetrics(thresholds=11),
        "thresholds: rank 0: None",
    ),
    "threshold": (
        lambda: BinaryMetrics(),
        lambda: BinaryMetrics(threshold=0.3),
        "threshold: rank 0: 0.5, rank 1: 0.3",
    ),
    "metric class": (
        lambda: BinaryMetrics(),
        lambda: MulticlassMetrics(2),
        "metric: rank 0: 'BinaryMetrics', rank 1: 'MulticlassMetrics'",
    ),
}
EXACT = {  # metric factories for the DistributedSampler scenario
    "multiclass dense": lambda: MulticlassMetrics(NUM_CLASSES),
    "multiclass per-class counts": lambda: MulticlassMetrics(NUM_CLASSES, dense=False),
    "binary exact": lambda: BinaryMetrics(),
    "binary binned": lambda: BinaryMetrics(thresholds=51),
}


def sampler_indices(rank: int, world_size: int) -> torch.Tensor:
    """This rank's share of a real DistributedSampler over N = 517 samples: one is repeated."""
    from torch.utils.data import DistributedSampler

    sampler = DistributedSampler(range(N), num_replicas=world_size, rank=rank, shuffle=True, seed=3)
    return torch.tensor(list(sampler))


def stream_indices(metric, idx: torch.Tensor, data, with_ids: bool):
    logits, target, _, scores, is_zero = data
    for lo in range(0, idx.shape[0], 64):
        i = idx[lo : lo + 64]
        ids = {"sample_ids": i} if with_ids else {}
        if isinstance(metric, MulticlassMetrics):
            metric.update(logits[i], target[i], **ids)
        else:
            metric.update(scores[i], is_zero[i], **ids)
    return metric


def _safety_worker(rank: int, world_size: int) -> dict:
    data = make_data()
    out: dict = {"mismatch": {}, "naive": {}, "exact": {}, "exact_after_sync": {}}
    for name, (make0, make1, _) in MISMATCHES.items():
        metric = (make0 if rank == 0 else make1)()
        try:
            metric.compute()
            out["mismatch"][name] = "no error"
        except ValueError as exc:
            out["mismatch"][name] = str(exc)
    # The process group survived: a collective after all those errors still works.
    out["alive"] = _dist_sum(rank)
    idx = sampler_indices(rank, world_size)
    out["indices"] = idx
    for name, make in EXACT.items():
        out["naive"][name] = stream_indices(make(), idx, data, with_ids=False).compute()
        exact = stream_indices(make(), idx, data, with_ids=True)
        out["exact"][name] = exact.compute()
        exact.sync()
        out["exact_after_sync"][name] = exact.compute()
        try:
            exact.merge(make())
            out["merge_after_sync"] = "accepted"
        except RuntimeError as exc:
            out["merge_after_sync"] = str(exc)
        try:
            make().merge(exact)
            out["merge_from_synced"] = "accepted"
        except RuntimeError as exc:
            out["merge_from_synced"] = str(exc)
    # A process group that leaves rank 1 out (new_group is called by every rank).
    solo = dist.new_group(ranks=[0])
    outside = stream_indices(
        MulticlassMetrics(NUM_CLASSES, process_group=solo), idx, data, with_ids=False
    )
    out["outside"] = {"local": outside.compute(sync=False)}
    for name, call in (("compute", outside.compute), ("sync", outside.sync)):
        try:
            result = call()
            out["outside"][name] = result if name == "compute" else "returned"  # not the group
        except RuntimeError as exc:
            out["outside"][name] = str(exc)
    # One rank with ids, the other without: refused on both.
    mixed = stream_indices(MulticlassMetrics(NUM_CLASSES), idx, data, with_ids=rank == 0)
    try:
        mixed.compute()
        out["mixed"] = "no error"
    except ValueError as exc:
        out["mixed"] = str(exc)
    return out


def _dist_sum(rank: int) -> float:
    value = torch.tensor([float(rank + 1)])
    dist.all_reduce(value)
    return value.item()


@pytest.fixture(scope="module")
def safety_ranks():
    return run_gloo(_safety_worker, 2, timeout=60.0)


@pytest.mark.parametrize("name", list(MISMATCHES))
def test_ranks_with_different_settings_all_raise_clearly(safety_ranks, name):
    # Before: gloo aborted both processes with "terminate called" (or a sync hung).
    expected = MISMATCHES[name][2]
    for rank in range(2):
        message = safety_ranks[rank]["mismatch"][name]
        assert "different settings on different ranks" in message, message
        assert expected in message, message
    assert [r["alive"] for r in safety_ranks] == [3.0, 3.0]


def test_distributed_sampler_repeats_a_sample(safety_ranks):
    idx = torch.cat([r["indices"] for r in safety_ranks])
    assert idx.shape[0] == N + 1 and torch.unique(idx).shape[0] == N


def single_process_all(name: str) -> dict:
    metric = EXACT[name]()
    return stream_indices(metric, torch.arange(N), make_data(), with_ids=False).compute()


@pytest.mark.parametrize("name", list(EXACT))
def test_sample_ids_make_distributed_evaluation_exact(safety_ranks, name):
    expected = single_process_all(name)
    for rank in range(2):
        assert_identical(safety_ranks[rank]["exact"][name], expected, f"rank {rank} exact")
        assert_identical(
            safety_ranks[rank]["exact_after_sync"][name], expected, f"rank {rank} after sync"
        )
    naive = safety_ranks[0]["naive"][name]
    key = "support" if "support" in expected else "tp"
    counted = lambda out: (
        int(out[key].sum())
        if key == "support"
        else int(out["tp"] + out["fp"] + out["tn"] + out["fn"])
    )  # noqa: E731
    assert counted(naive) == N + 1 and counted(expected) == N  # the naive sync counts one twice


def test_mixing_ids_across_ranks_is_refused_on_every_rank(safety_ranks):
    for rank in range(2):
        assert "both with and without sample_ids" in safety_ranks[rank]["mixed"]


def test_merge_into_a_synced_metric_is_refused(safety_ranks):
    for rank in range(2):
        assert "call reset() before merge()" in safety_ranks[rank]["merge_after_sync"]


def test_merge_from_a_synced_metric_is_refused(safety_ranks):
    # Before: accepted, so the merged metric counted the other rank's samples a second time.
    for rank in range(2):
        assert "other was synced across ranks in place" in safety_ranks[rank]["merge_from_synced"]


def test_a_rank_outside_the_process_group_cannot_sync(safety_ranks):
    # Before: torch reports world size -1 there, so compute() silently gave the local numbers.
    local = {rank: safety_ranks[rank]["outside"]["local"] for rank in range(2)}
    inside = safety_ranks[0]["outside"]
    assert_identical(inside["compute"], local[0], "rank 0, alone in its group")
    outside = safety_ranks[1]["outside"]
    for name in ("compute", "sync"):
        assert isinstance(outside[name], str), name
        assert "global rank 1) is not a member of the metric's process_group" in outside[name]
    assert int(local[1]["support"].sum()) == safety_ranks[1]["indices"].shape[0]
