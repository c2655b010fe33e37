"""``make bench`` runs every benchmark file: a new ``benchmarks/bench_*.py`` missing from
``run_all.BENCHMARKS`` would never be measured."""

from __future__ import annotations

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _listed() -> list[str]:
    tree = ast.parse((BENCH / "run_all.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "BENCHMARKS" for t in node.targets
        ):
            return [ast.literal_eval(e) for e in node.value.elts]
    raise AssertionError("run_all.py has no BENCHMARKS list")


def test_every_benchmark_file_is_run() -> None:
    files = sorted(p.stem for p in BENCH.glob("bench_*.py"))
    listed = _listed()
    assert len(listed) == len(set(listed)), "a benchmark is listed twice"
    assert sorted(listed) == files
