"""Test-suite helpers: make tests/ importable (shared strategies) and report property-case counts.

Property tests count the hypothesis examples they run in ``_strategies.CASES``.  Under
pytest-xdist each worker sends its counts to the controller, which prints the total.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_WORKER_CASES: Counter = Counter()


def _local_cases() -> Counter:
    strategies = sys.modules.get("_strategies")
    return Counter(strategies.CASES) if strategies is not None else Counter()


def pytest_sessionfinish(session, exitstatus):  # noqa: ARG001
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the counts to the controller
        workeroutput["property_cases"] = dict(_local_cases())


class _XdistCaseCollector:
    """Controller-side hook; ``pytest_testnodedown`` exists only when pytest-xdist is installed."""

    @staticmethod
    def pytest_testnodedown(node, error):  # noqa: ARG004
        _WORKER_CASES.update(getattr(node, "workeroutput", {}).get("property_cases", {}))


#: ``make test-fast`` sets this: every property test runs at most this many examples.
QUICK_EXAMPLES = int(os.environ.get("MLTUTOR_QUICK_EXAMPLES", "0") or 0)


def pytest_collection_modifyitems(config, items):  # noqa: ARG001
    """The contributor's inner loop: cap the hypothesis examples (the full run keeps them all)."""
    if QUICK_EXAMPLES <= 0:
        return
    from hypothesis import settings

    for item in items:
        test = getattr(getattr(item, "obj", None), "hypothesis", None)
        inner = getattr(test, "inner_test", None)
        wrapped = getattr(item, "obj", None)
        current = getattr(wrapped, "_hypothesis_internal_use_settings", None)
        if test is None or current is None or inner is None:
            continue
        wrapped._hypothesis_internal_use_settings = settings(
            current, max_examples=min(current.max_examples, QUICK_EXAMPLES)
        )


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistCaseCollector(), "mltutor-xdist-cases")


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ARG001
    cases = _local_cases() + _WORKER_CASES
    if not cases:
        return
    terminalreporter.write_sep("-", "property-based cases (hypothesis examples run)")
    for name, count in sorted(cases.items()):
        terminalreporter.write_line(f"{name:<55} {count:>6}")
    terminalreporter.write_line(f"property cases run: {sum(cases.values())}")
