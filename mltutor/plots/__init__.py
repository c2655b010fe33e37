"""Every figure of the course, one module per family.

* :mod:`mltutor.plots.confusion` — the confusion-matrix heatmap (optionally on a log colour scale).
* :mod:`mltutor.plots.curves` — ROC and precision-recall curves (with iso-F1 lines), the
  reliability diagram (also with a confidence interval per bin) and the decision curve.
* :mod:`mltutor.plots.detection` — boxes on an image, the overlap of two boxes, and F1 against
  the confidence threshold.
* :mod:`mltutor.plots.widgets` — the ipywidgets threshold explorer and its static twin.

Every public function is also importable from ``mltutor.plots`` itself.  Importing this package
imports neither pyplot nor ipywidgets; the functions import them when they draw.
"""

from .confusion import plot_confusion_matrix
from .curves import (
    OKABE_ITO,
    plot_curve_band,
    plot_decision_curve,
    plot_pr,
    plot_reliability,
    plot_reliability_intervals,
    plot_roc,
)
from .detection import draw_boxes, draw_iou, plot_f1_confidence
from .widgets import plot_threshold_view, static_threshold_explorer, threshold_explorer

__all__ = [
    "OKABE_ITO",
    "draw_boxes",
    "draw_iou",
    "plot_curve_band",
    "plot_decision_curve",
    "plot_confusion_matrix",
    "plot_f1_confidence",
    "plot_pr",
    "plot_reliability",
    "plot_reliability_intervals",
    "plot_roc",
    "plot_threshold_view",
    "static_threshold_explorer",
    "threshold_explorer",
]
