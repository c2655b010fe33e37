"""Comparing the ranks' metric settings before a sync, and saying what differs.

A collective on buffers of different sizes does not fail cleanly: gloo aborts the process
(``terminate called``), NCCL may hang.  So before the first state tensor is sent, every rank
gathers every rank's :meth:`~mltutor.streaming.StreamingMetric.layout` (one small
``all_gather_object``) and, since all ranks then hold the same list, all raise the same error.
"""

from __future__ import annotations

from typing import Any

__all__ = ["different_layouts", "mismatch_message"]


def different_layouts(layouts: list[dict[str, Any]]) -> bool:
    """True when some rank's layout differs from rank 0's."""
    return any(layout != layouts[0] for layout in layouts[1:])


def mismatch_message(metric: str, layouts: list[dict[str, Any]]) -> str:
    """One line per differing setting, with each rank's value."""
    keys = sorted({key for layout in layouts for key in layout}, key=str)
    differing = [k for k in keys if any(lay.get(k) != layouts[0].get(k) for lay in layouts[1:])]
    if len(differing) > 1 and "states" in differing:
        differing.remove("states")  # follows from the settings named; long to print
    lines = []
    for key in differing:
        values = [layout.get(key) for layout in layouts]
        if any(v != values[0] for v in values[1:]):
            per_rank = ", ".join(f"rank {r}: {v!r}" for r, v in enumerate(values))
            lines.append(f"  {key}: {per_rank}")
    return (
        f"{metric} has different settings on different ranks, so their states cannot be "
        "combined (nothing was synced):\n"
        + "\n".join(lines)
        + "\nCreate the metric with the same arguments on every rank."
    )
