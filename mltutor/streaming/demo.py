"""DDP demo: two CPU processes (gloo) evaluate uneven shards; without sync each rank is wrong.

Run it with ``python -m mltutor.streaming.demo`` (about ten seconds, most of it starting two
Python processes that import torch).  The data and the shards are fixed, so the printout is the same
on every run.  Three rounds:

1. uneven shards, 300 and 700 samples, and the first 300 are the hard ones;
2. an empty shard: rank 0 gets nothing (``compute(sync=False)`` raises there), rank 1 everything.

In each of these two rounds both ranks print their local (unsynced) numbers, then the synced
numbers, which must equal, exactly, what one process computes on all 1,000 samples.

The third round uses what a DDP evaluation loop usually uses, ``DistributedSampler``, on the first
999 samples.  It pads the two shards to 500 each by repeating a sample, so the naive sync counts
1,000 samples; with ``update(..., sample_ids=indices)`` each sample counts once, and the synced
numbers equal one process on the 999.
"""

from __future__ import annotations

import torch
from torch.utils.data import DistributedSampler

from ._dist import run_gloo
from .binary import BinaryMetrics
from .multiclass import MulticlassMetrics

N_SAMPLES = 1000
N_CLASSES = 5
BATCH = 64
ROUNDS = {
    "uneven shards (300 hard samples | 700 easy samples)": [(0, 300), (300, 1000)],
    "an empty shard (rank 0 gets nothing)": [(0, 0), (0, 1000)],
}
PADDED_N = 999  # DistributedSampler pads 999 samples to 2 x 500: one sample is seen twice


def make_data(n: int = N_SAMPLES, num_classes: int = N_CLASSES, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits and targets of a simulated classifier that is poor on the first 300 samples."""
    gen = torch.Generator().manual_seed(seed)
    target = torch.randint(0, num_classes, (n,), generator=gen)
    logits = torch.randn(n, num_classes, generator=gen, dtype=torch.float64)
    margin = torch.where(torch.arange(n) < 300, 0.3, 2.0).to(torch.float64)
    logits[torch.arange(n), target] += margin
    return logits, target


def class0_score(logits: torch.Tensor) -> torch.Tensor:
    """Log-odds of class 0 against the rest: the score for a one-vs-rest AUC.

    Computed once on the full tensor and then sliced, so every rank sees bit-identical scores.
    """
    return logits[:, 0] - logits[:, 1:].logsumexp(dim=1)


def evaluate(logits: torch.Tensor, score: torch.Tensor, target: torch.Tensor,
             sample_ids: torch.Tensor | None = None) -> tuple[MulticlassMetrics, BinaryMetrics]:
    """Stream the data through both metrics in batches (class 0 against the rest for the AUC)."""
    multi, binary = MulticlassMetrics(N_CLASSES), BinaryMetrics()
    for start in range(0, max(target.shape[0], 1), BATCH):
        t = target[start : start + BATCH]
        ids = {} if sample_ids is None else {"sample_ids": sample_ids[start : start + BATCH]}
        multi.update(logits[start : start + BATCH], t, **ids)
        binary.update(score[start : start + BATCH], (t == 0).long(), **ids)
    return multi, binary


def summary(multi: MulticlassMetrics, binary: BinaryMetrics, sync: bool) -> dict | None:
    """The headline numbers (plain Python values), or None if this rank has no data to report."""
    try:
        m, b = multi.compute(sync=sync), binary.compute(sync=sync)
    except ValueError:  # no samples on this rank
        return None
    return {
        "accuracy": m["accuracy"].item(),
        "macro_f1": m["macro_f1"].item(),
        "weighted_f1": m["weighted_f1"].item(),
        "auroc_class0": b["auroc"].item(),
        "confusion_matrix": m["confusion_matrix"].tolist(),
        "counted": int(m["support"].sum().item()),
    }


def _worker(
    rank: int, world_size: int, rounds: list[list[tuple[int, int]]]
) -> list[dict]:
    logits, target = make_data()
    score = class0_score(logits)
    out = []
    for shards in rounds:
        lo, hi = shards[rank]
        multi, binary = evaluate(logits[lo:hi], score[lo:hi], target[lo:hi])
        out.append({"n": hi - lo, "local": summary(multi, binary, sync=False),
                    "synced": summary(multi, binary, sync=True)})
    return out


def _padded_worker(rank: int, world_size: int) -> dict:
    """Evaluate this rank's DistributedSampler share twice: naively, and with sample_ids."""
    logits, target = make_data()
    score = class0_score(logits)
    idx = torch.tensor(list(DistributedSampler(range(PADDED_N), num_replicas=world_size, rank=rank,
                                               shuffle=False)))
    naive = evaluate(logits[idx], score[idx], target[idx])
    exact = evaluate(logits[idx], score[idx], target[idx], sample_ids=idx)
    return {"n": idx.shape[0], "naive": summary(*naive, sync=True), "exact": summary(*exact, sync=True)}


def _all_rounds(rank: int, world_size: int, rounds: list[list[tuple[int, int]]]) -> dict:
    return {"shards": _worker(rank, world_size, rounds), "padded": _padded_worker(rank, world_size)}


LABEL = 38  # the printout is a table within 88 columns: a row label, then the four numbers
HEADER = f"{'':{LABEL}}{'accuracy':>9}{'macro-F1':>10}{'weighted-F1':>13}{'AUROC(class 0)':>16}"


def _row(label: str, values: dict | None) -> str:
    if values is None:
        return f"{label}  no samples: compute(sync=False) raises ValueError"
    return (f"{label:{LABEL}}{values['accuracy']:>9.4f}{values['macro_f1']:>10.4f}"
            f"{values['weighted_f1']:>13.4f}{values['auroc_class0']:>16.4f}")


def main() -> None:
    """Run the three rounds on two gloo processes and print the numbers of each rank."""
    logits, target = make_data()
    reference = summary(*evaluate(logits, class0_score(logits), target), sync=False)
    launched = run_gloo(_all_rounds, 2, (list(ROUNDS.values()),), timeout=60.0)
    per_rank = [r["shards"] for r in launched]
    print(HEADER)
    print(_row(f"one process, all {N_SAMPLES} samples", reference))
    for k, title in enumerate(ROUNDS):
        print(f"\nround {k + 1}: {title}")
        for rank, results in enumerate(per_rank):
            r = results[k]
            print(_row(f"  rank {rank}, {r['n']:4d} samples, local", r["local"]))
        local = [results[k]["local"] for results in per_rank if results[k]["local"] is not None]
        if len(local) > 1:
            mean_f1 = sum(v["macro_f1"] for v in local) / len(local)
            print(f"  mean of the ranks' local macro-F1 (averaging logged values): {mean_f1:.4f}")
        for rank, results in enumerate(per_rank):
            print(_row(f"  rank {rank}, synced", results[k]["synced"]))
        same = all(results[k]["synced"] == reference for results in per_rank)
        print(f"  synced == one process, exactly (incl. the confusion matrix): {same}")

    padded_ref = summary(*evaluate(logits[:PADDED_N], class0_score(logits)[:PADDED_N], target[:PADDED_N]),
                         sync=False)
    print(f"\nround 3: DistributedSampler over the first {PADDED_N} samples "
          f"(shards of {launched[0]['padded']['n']} and {launched[1]['padded']['n']})")
    print(_row(f"  one process, {padded_ref['counted']} samples", padded_ref))
    for key, label in [("naive", "naive,     "), ("exact", "sample_ids,")]:
        for rank, r in enumerate(launched):
            v = r["padded"][key]  # n: the samples the synced counts hold
            print(_row(f"  rank {rank}, synced, {label} n = {v['counted']:4d}", v))
    for key in ("naive", "exact"):
        same = all(r["padded"][key] == padded_ref for r in launched)
        print(f"  {key} == one process, exactly: {same}")


if __name__ == "__main__":
    main()
