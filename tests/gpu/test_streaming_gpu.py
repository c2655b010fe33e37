"""mltutor.streaming on a CUDA device: equality with the CPU, no host sync, and throughput.

Under pytest the whole module is skipped without CUDA.  As a script it is the one short check a GPU
session runs (well under a minute on an H200)::

    python tests/gpu/test_streaming_gpu.py

It prints whether CUDA results equal the CPU results (integer counts bit for bit, float64 rates
to 1e-12, since a GPU may sum in another order), and labels per second for
``MulticlassMetrics`` next to torchmetrics' ``MulticlassF1Score`` on the same GPU (batch 256, the
issue's 1,000 x 256 x 101 classes, and batch 1M), each timed after ``torch.cuda.synchronize()``.
"""

from __future__ import annotations

import sys
import time

import pytest

torch = pytest.importorskip("torch")

if __name__ != "__main__" and not torch.cuda.is_available():
    pytest.skip("needs a CUDA device", allow_module_level=True)

from mltutor.streaming import BinaryMetrics, MulticlassMetrics  # noqa: E402

C = 101


def _multiclass_data(n: int, seed: int = 0):
    gen = torch.Generator().manual_seed(seed)
    target = torch.randint(0, C, (n,), generator=gen)
    logits = torch.randn(n, C, generator=gen)
    logits[torch.arange(n), target] += 1.0
    return logits, target


def _stream(metric, preds, target, batch, ids=None):
    for start in range(0, target.shape[0], batch):
        extra = {} if ids is None else {"sample_ids": ids[start : start + batch]}
        metric.update(preds[start : start + batch], target[start : start + batch], **extra)
    return metric.compute()


def _same(a: dict, b: dict) -> bool:
    """Counts bit for bit; float64 rates to 1e-12 (GPU reductions may sum in another order)."""
    for key, value in a.items():
        if not isinstance(value, torch.Tensor):
            continue
        mine, other = value.cpu(), b[key].cpu()
        if not value.is_floating_point():
            if not torch.equal(mine, other):
                return False
        elif not torch.allclose(mine, other, rtol=0, atol=1e-12, equal_nan=True):
            return False
    return True


def cpu_vs_cuda() -> dict[str, bool]:
    logits, target = _multiclass_data(20_000)
    scores = torch.sigmoid(logits[:, 0] - logits[:, 1]).double()
    is_zero = (target == 0).long()
    # Ids with repeats (as DistributedSampler pads): every 10th sample comes again at the end.
    ids = torch.cat([torch.arange(20_000), torch.arange(0, 20_000, 10)])
    checks = {}
    for name, make, x, y, i in [
        ("MulticlassMetrics, logits", lambda: MulticlassMetrics(C), logits, target, None),
        (
            "MulticlassMetrics, indices, ignore_index",
            lambda: MulticlassMetrics(C, ignore_index=-1),
            logits.argmax(1),
            torch.where(target % 17 == 0, -1, target),
            None,
        ),
        (
            "MulticlassMetrics, per-class counts",
            lambda: MulticlassMetrics(C, dense=False),
            logits,
            target,
            None,
        ),
        (
            "MulticlassMetrics, sample_ids",
            lambda: MulticlassMetrics(C),
            logits[ids],
            target[ids],
            ids,
        ),
        ("BinaryMetrics exact", lambda: BinaryMetrics(), scores, is_zero, None),
        ("BinaryMetrics exact, fp16 scores", lambda: BinaryMetrics(), scores.half(), is_zero, None),
        (
            "BinaryMetrics binned (101)",
            lambda: BinaryMetrics(thresholds=101),
            scores,
            is_zero,
            None,
        ),
        (
            "BinaryMetrics binned, sample_ids",
            lambda: BinaryMetrics(thresholds=101),
            scores[ids],
            is_zero[ids],
            ids,
        ),
    ]:
        cpu = _stream(make(), x, y, 512, i)
        gpu = _stream(make(), x.cuda(), y.cuda(), 512, None if i is None else i.cuda())
        checks[name] = _same(cpu, gpu) and all(
            v.device.type == "cuda" for v in gpu.values() if isinstance(v, torch.Tensor)
        )
    return checks


def test_cuda_equals_cpu_exactly():
    for name, ok in cpu_vs_cuda().items():
        assert ok, name


def test_update_does_not_sync_without_validation():
    """With validate_args=False, update() must queue work only: CUDA sync debug mode stays silent."""
    logits, target = _multiclass_data(1024)
    logits, target = logits.cuda(), target.cuda()
    metric = MulticlassMetrics(C, validate_args=False)
    wide = MulticlassMetrics(C, dense=False, validate_args=False)
    with_ids = MulticlassMetrics(C, validate_args=False)
    binned = BinaryMetrics(thresholds=101, validate_args=False)
    ids = torch.arange(1024, device="cuda")
    metric.update(logits[:8], target[:8])  # first update places the state
    wide.update(logits[:8], target[:8])
    with_ids.update(logits[:8], target[:8], sample_ids=ids[:8])
    binned.update(logits[:8, 0].sigmoid(), (target[:8] == 0).long())
    previous = torch.cuda.get_sync_debug_mode()
    torch.cuda.set_sync_debug_mode("error")
    try:
        metric.update(logits, target)
        wide.update(logits, target)
        with_ids.update(logits, target, sample_ids=ids)
        binned.update(logits[:, 0].sigmoid(), (target == 0).long())
    finally:
        torch.cuda.set_sync_debug_mode(previous)


def throughput(batch: int, n_batches: int, validate: bool) -> tuple[float, float]:
    """Labels per second: (mltutor, torchmetrics MulticlassF1Score), same data, same GPU."""
    from torchmetrics.classification import MulticlassF1Score

    gen = torch.Generator().manual_seed(1)
    n_distinct = min(n_batches, 10)
    target = torch.randint(0, C, (n_distinct, batch), generator=gen).cuda()
    preds = torch.randint(0, C, (n_distinct, batch), generator=gen).cuda()
    rates = []
    for make in (
        lambda: MulticlassMetrics(C, validate_args=validate),
        lambda: MulticlassF1Score(num_classes=C, validate_args=validate).cuda(),
    ):
        for warm in (True, False):
            metric = make()
            torch.cuda.synchronize()
            start = time.perf_counter()
            for i in range(n_batches if not warm else 3):
                metric.update(preds[i % n_distinct], target[i % n_distinct])
            out = metric.compute()
            torch.cuda.synchronize()
            seconds = time.perf_counter() - start
        rates.append(n_batches * batch / seconds)
        del out
    return rates[0], rates[1]


def main() -> int:
    if not torch.cuda.is_available():
        print("no CUDA device: nothing to check")
        return 0
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    ok = True
    for name, same in cpu_vs_cuda().items():
        print(f"CPU == CUDA (counts exact, rates 1e-12)  {name:<42} {same}")
        ok &= same
    for batch, n_batches in ((256, 1000), (1 << 20, 50)):
        for validate in (True, False):
            ours, theirs = throughput(batch, n_batches, validate)
            print(
                f"batch {batch:>8} x {n_batches:>4}, validate_args={validate!s:<5}: mltutor "
                f"{ours / 1e6:9.1f} M labels/s | torchmetrics {theirs / 1e6:9.1f} M labels/s | "
                f"ratio {ours / theirs:5.2f}x"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
