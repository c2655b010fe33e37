"""Old home of the threshold explorer, kept so that existing imports work: use :mod:`mltutor.plots.widgets`.

Everything here is the same object as in :mod:`mltutor.plots.widgets`.
"""

from .plots.widgets import (  # noqa: F401  (re-exported)
    plot_threshold_view,
    readout_text,
    threshold_explorer,
)

__all__ = ["plot_threshold_view", "threshold_explorer"]
