"""Streaming metrics against torchmetrics: 1,000 batches of 256 labels over 101 classes, on CPU.

Target (issue #6): ``MulticlassMetrics.update`` x 1000 + ``compute`` at least 4x faster than
torchmetrics' ``MulticlassF1Score`` in the same run.  Both sides run with their defaults
(``validate_args=True``: one host sync per batch for mltutor), and again with validation off.
One thread for both, so that the shared machine's load hurts them alike.

Extra lines, not targets: [B, C] logits instead of class indices, binned binary AUROC
(101 thresholds) against torchmetrics' ``BinaryAUROC(thresholds=101)``, the cost of
``sample_ids`` (exact DDP evaluation keeps 16 bytes per sample), and 100,000 classes in the
per-class-counts mode against scikit-learn's ``f1_score`` on the concatenated labels (torchmetrics
is left out there: its multiclass stat scores bincount C**2 = 1e10 cells per batch).
"""

from __future__ import annotations

import sklearn.metrics as skm
import torch
from _harness import measure, report
from torchmetrics.classification import BinaryAUROC, MulticlassF1Score

from mltutor.streaming import BinaryMetrics, MulticlassMetrics

N_BATCHES = 1000
BATCH = 256
N_CLASSES = 101
TARGET = 4.0


def make_batches(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Targets and predictions, shape [N_BATCHES, BATCH], right about 70 % of the time."""
    gen = torch.Generator().manual_seed(seed)
    target = torch.randint(0, N_CLASSES, (N_BATCHES, BATCH), generator=gen)
    wrong = torch.rand(N_BATCHES, BATCH, generator=gen) < 0.3
    preds = torch.where(
        wrong, torch.randint(0, N_CLASSES, (N_BATCHES, BATCH), generator=gen), target
    )
    return preds, target


def stream(metric, preds, target):
    for i in range(preds.shape[0]):
        metric.update(preds[i], target[i])
    return metric.compute()


def run(repeats: int = 3) -> list[dict]:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run(repeats)
    finally:
        torch.set_num_threads(threads)


def _run(repeats: int) -> list[dict]:
    preds, target = make_batches()
    # Same numbers first: a fast wrong answer is worth nothing.
    ours = stream(MulticlassMetrics(N_CLASSES), preds, target)["macro_f1"].item()
    theirs = stream(MulticlassF1Score(num_classes=N_CLASSES), preds, target).item()
    assert abs(ours - theirs) < 1e-6, (ours, theirs)

    records = []
    for validate in (True, False):
        title = (
            f"streaming macro-F1, {N_BATCHES} x {BATCH}, {N_CLASSES} cl, validate_args={validate}"
        )
        records.append(
            report(
                title,
                measure(
                    "mltutor",
                    lambda: stream(
                        MulticlassMetrics(N_CLASSES, validate_args=validate), preds, target
                    ),
                    repeats,
                ),
                measure(
                    "torchmetrics",
                    lambda: stream(
                        MulticlassF1Score(num_classes=N_CLASSES, validate_args=validate),
                        preds,
                        target,
                    ),
                    repeats,
                ),
                TARGET,
            )
        )

    # [B, C] logits: 100 distinct batches, each used 10 times (keeps memory at 10 MB).
    gen = torch.Generator().manual_seed(1)
    logits = torch.randn(100, BATCH, N_CLASSES, generator=gen)
    logit_target = target[:100]

    def logit_stream(metric):
        for i in range(N_BATCHES):
            metric.update(logits[i % 100], logit_target[i % 100])
        return metric.compute()

    records.append(
        report(
            f"same, [B, {N_CLASSES}] logits (argmax inside)",
            measure("mltutor", lambda: logit_stream(MulticlassMetrics(N_CLASSES)), repeats),
            measure(
                "torchmetrics",
                lambda: logit_stream(MulticlassF1Score(num_classes=N_CLASSES)),
                repeats,
            ),
            1.0,
        )
    )

    # Binned binary AUROC with 101 thresholds.
    scores = torch.rand(N_BATCHES, BATCH, generator=gen)
    labels = (torch.rand(N_BATCHES, BATCH, generator=gen) < scores).long()
    ours = stream(BinaryMetrics(thresholds=101), scores, labels)["auroc"].item()
    theirs = stream(BinaryAUROC(thresholds=101), scores, labels).item()
    assert abs(ours - theirs) < 1e-6, (ours, theirs)
    records.append(
        report(
            f"binned AUROC (101 thresholds), {N_BATCHES} x {BATCH}",
            measure(
                "mltutor", lambda: stream(BinaryMetrics(thresholds=101), scores, labels), repeats
            ),
            measure(
                "torchmetrics", lambda: stream(BinaryAUROC(thresholds=101), scores, labels), repeats
            ),
            1.0,
        )
    )

    # sample_ids: the same stream, every sample with its id (deduplicated in compute).
    ids = torch.arange(N_BATCHES * BATCH).view(N_BATCHES, BATCH)

    def id_stream(metric):
        for i in range(N_BATCHES):
            metric.update(preds[i], target[i], sample_ids=ids[i])
        return metric.compute()

    assert id_stream(MulticlassMetrics(N_CLASSES))["macro_f1"].item() == ours_f1(preds, target)
    records.append(
        report(
            f"same, with sample_ids (exact DDP evaluation), {N_BATCHES} x {BATCH}",
            measure("mltutor", lambda: id_stream(MulticlassMetrics(N_CLASSES)), repeats),
            measure(
                "torchmetrics",
                lambda: stream(MulticlassF1Score(num_classes=N_CLASSES), preds, target),
                repeats,
            ),
            1.0,
        )
    )

    # 100,000 classes: per-class counts (3 C + 1 int64) against scikit-learn on all labels at once.
    many = 100_000
    gen = torch.Generator().manual_seed(2)
    wide_t = torch.randint(0, many, (200, BATCH), generator=gen)
    wide_p = torch.where(
        torch.rand(200, BATCH, generator=gen) < 0.3,
        torch.randint(0, many, (200, BATCH), generator=gen),
        wide_t,
    )
    y_true, y_pred = wide_t.flatten().numpy(), wide_p.flatten().numpy()
    got = stream(MulticlassMetrics(many), wide_p, wide_t)["macro_f1"].item()
    assert abs(got - skm.f1_score(y_true, y_pred, average="macro")) < 1e-12
    records.append(
        report(
            f"macro-F1, 200 x {BATCH}, {many:,} classes (per-class counts)",
            measure("mltutor", lambda: stream(MulticlassMetrics(many), wide_p, wide_t), repeats),
            measure("sklearn", lambda: skm.f1_score(y_true, y_pred, average="macro"), repeats),
            1.0,
        )
    )
    return records


def ours_f1(preds: torch.Tensor, target: torch.Tensor) -> float:
    return stream(MulticlassMetrics(N_CLASSES), preds, target)["macro_f1"].item()


if __name__ == "__main__":
    run()
