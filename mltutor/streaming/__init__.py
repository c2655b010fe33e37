"""Streaming and distributed metrics in PyTorch: ``update`` per batch, ``compute`` per epoch.

Import this module explicitly (``import mltutor.streaming``); it needs torch, the rest of mltutor
does not.

* :class:`StreamingMetric`: the base (tensor states with a reduction, ``update`` / ``compute`` /
  ``reset`` / ``merge`` / ``to`` / ``sync`` / ``state_dict`` / ``load_state_dict``).
* :class:`MulticlassMetrics`: every number of a classification report from one C x C count, or
  from per-class counts (O(C)) beyond :data:`MAX_DENSE_CELLS` cells.
* :class:`BinaryMetrics`: P/R/F1 at a threshold, ROC/PR curves, AUC and AP, exact or binned.
* :func:`cumulative_counts`: kernel 2 (sorted-score cumulative counts) in torch.
* :func:`run_gloo`: run a function on N local processes joined by a gloo process group.

The state is counts, so it lives on the inputs' device, never waits for the host inside
``update`` (with ``validate_args=False``), and sums across processes exactly.  Before a sync the
ranks compare their settings and all raise the same clear error when they differ.  Under
``DistributedSampler``, which repeats samples to pad the shards, pass ``update(...,
sample_ids=dataset_indices)`` and each sample is counted once.
"""

try:  # torch is an extra: say which one instead of a bare "No module named 'torch'"
    import torch  # noqa: F401
except ImportError as error:
    raise ImportError(
        "mltutor.streaming needs PyTorch, which mltutor does not install by default: "
        'pip install "mltutor[torch]" (torch==2.13.0, the version the course is tested with)'
    ) from error

from ._dist import run_gloo
from .base import StreamingMetric
from .binary import BinaryMetrics, CumulativeCounts, cumulative_counts
from .multiclass import MAX_DENSE_CELLS, MulticlassMetrics

__all__ = [
    "BinaryMetrics",
    "CumulativeCounts",
    "MAX_DENSE_CELLS",
    "MulticlassMetrics",
    "StreamingMetric",
    "cumulative_counts",
    "run_gloo",
]
