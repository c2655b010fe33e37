"""Old home of the curve plots, kept so that existing imports work: use :mod:`mltutor.plots.curves`.

Everything here is the same object as in :mod:`mltutor.plots.curves`.
"""

from .plots.curves import (  # noqa: F401  (re-exported)
    CURVE_COLOURS,
    OKABE_ITO,
    REFERENCE_COLOUR,
    plot_pr,
    plot_reliability,
    plot_roc,
)

__all__ = ["OKABE_ITO", "plot_pr", "plot_reliability", "plot_roc"]
