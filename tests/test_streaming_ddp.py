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
    metric = MulticlassMetrics(NUM_CLASSES, **kwargs) if kind == "multi" else BinaryMetrics(**kwargs)
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
    rows = torch.arange(15, dtype=torch.float64).view(5, 3) if rank == 1 else torch.zeros(0, 3, dtype=torch.float64)
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
                value.is_floating_point() and torch.isnan(value).all() and torch.isnan(got[key]).all()
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
