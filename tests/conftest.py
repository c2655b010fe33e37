"""Test-suite helpers: make tests/ importable (shared strategies) and report property-case counts."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ARG001
    strategies = sys.modules.get("_strategies")
    if strategies is None or not strategies.CASES:
        return
    cases = strategies.CASES
    terminalreporter.write_sep("-", "property-based cases (hypothesis examples run)")
    for name, count in sorted(cases.items()):
        terminalreporter.write_line(f"{name:<55} {count:>6}")
    terminalreporter.write_line(f"property cases run: {sum(cases.values())}")
