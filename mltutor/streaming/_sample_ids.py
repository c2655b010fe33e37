"""Exact evaluation under ``DistributedSampler``: count each sample id once.

``DistributedSampler`` makes every rank's shard equally long by repeating samples from the start
of the index list (pytorch#25162), so summing the ranks' counts counts those samples twice.  No
rank can tell which of its samples are the repeats: a repeat is only visible once the ids of
*all* ranks are side by side.  So a metric updated with ``sample_ids`` keeps, per sample, its id
and its contribution (a label code, or a score and a label), the rows are gathered like any
"cat" state, and :func:`first_occurrences` picks one row per distinct id before anything is
counted.

Which row wins.  Rows are in rank order, then update order (that is how ``gather_cat``
concatenates), and the first row of each id is kept, so the result does not depend on timing.
Two rows of one id must carry the same *target*: a different target means the ids are not sample
ids (a batch index, say), and :func:`first_occurrences` raises.  Predictions and scores may
differ in their last bits (the same sample in batches of another size or on another GPU), so those
are not compared; the first row's value is used.
"""

from __future__ import annotations

import torch

__all__ = ["first_occurrences"]


def first_occurrences(ids: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Positions of the first row of each distinct id, in increasing order.

    Parameters
    ----------
    ids : Tensor of int64, shape [n]
    target : Tensor, shape [n]
        The label (or label code) of each row; rows of one id must agree on it.

    Raises
    ------
    ValueError
        One id comes with two different targets.
    """
    n = ids.shape[0]
    unique, inverse = torch.unique(ids, return_inverse=True)
    positions = torch.arange(n, device=ids.device)
    first = torch.full((unique.shape[0],), n, dtype=torch.long, device=ids.device)
    first = first.scatter_reduce(0, inverse, positions, reduce="amin")
    conflict = target != target[first][inverse]
    if conflict.any():
        row = int(torch.nonzero(conflict)[0].item())
        raise ValueError(
            f"sample_ids repeat with different targets: id {int(ids[row].item())} comes with "
            f"target {target[first[inverse[row]]].item()} and, in a later row (of the same batch "
            f"or of another), with target {target[row].item()}. sample_ids must identify samples "
            "(e.g. dataset indices), so that a repeated id is the same sample."
        )
    return torch.sort(first).values
