"""Old home of the detection drawings, kept so that existing imports work: use :mod:`mltutor.plots.detection`.

Everything here is the same object as in :mod:`mltutor.plots.detection`.
"""

from .plots.detection import (  # noqa: F401  (re-exported)
    BOX_COLOUR,
    INTERSECTION_COLOUR,
    IOU_COLOURS,
    draw_boxes,
    draw_iou,
)

__all__ = ["draw_boxes", "draw_iou"]
