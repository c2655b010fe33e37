"""Rolling F1 over a trailing window against river's ``utils.Rolling(metrics.F1, window_size=...)``.

Target (issue #30): at least 100x river on 10 million events. river updates one event at a
time in Python, so 10 million events take it minutes on the shared 2-core machine; it is timed
on ``N_RIVER`` events and compared **per event** with mltutor timed on all ``N_EVENTS`` (both
costs are linear in the number of events: river's per update, mltutor's two cumulative sums per
count). The values are checked equal first, on the first ``N_RIVER`` events.
"""

from __future__ import annotations

import warnings

import numpy as np
from _harness import Measurement, measure, report

from mltutor.monitoring import rolling_score

N_EVENTS = 10_000_000
N_RIVER = 200_000
WINDOW = 1000
TARGET = 100.0


def make_stream(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    pred = np.where(rng.random(n) < 0.9, y, 1 - y)
    return y, pred


def river_rolling_f1(y: np.ndarray, pred: np.ndarray) -> np.ndarray:
    from river import metrics, utils

    roll = utils.Rolling(metrics.F1, window_size=WINDOW)
    out = np.empty(y.size)
    for i, (a, b) in enumerate(zip(y.tolist(), pred.tolist())):
        roll.update(a, b)
        out[i] = roll.get()
    return out


def run(repeats: int = 3) -> list[dict]:
    try:
        import river  # noqa: F401
    except ImportError:
        print("river is not installed: bench_monitoring skipped")
        return []
    y, pred = make_stream(N_EVENTS)
    small_y, small_pred = y[:N_RIVER], pred[:N_RIVER]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours_small = rolling_score("f1", small_y, small_pred, WINDOW, zero_division=0.0)
    np.testing.assert_allclose(ours_small, river_rolling_f1(small_y, small_pred), atol=1e-12)

    ours = measure(
        "mltutor", lambda: rolling_score("f1", y, pred, WINDOW, zero_division=0.0), repeats
    )
    theirs = measure("river", lambda: river_rolling_f1(small_y, small_pred), max(1, repeats // 3))
    # Per-event cost of river, scaled to N_EVENTS (linear), so the ratio is per event.
    scaled = Measurement(
        f"river (x{N_EVENTS // N_RIVER} of {N_RIVER:,} events)",
        theirs.median_s * N_EVENTS / N_RIVER,
        theirs.peak_mib,
    )
    title = f"rolling F1, window {WINDOW}, {N_EVENTS:,} events"
    return [report(title, ours, scaled, TARGET)]


if __name__ == "__main__":
    run()
