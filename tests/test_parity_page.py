"""``book/parity.md`` (written by ``scripts/make_parity_page.py``) names the right functions.

The counts on the page come from a test run and may be stale; the names may not: the page must
list exactly the public API of ``mltutor.metrics`` plus the other rows of the script, every row
must name a real object, and every property-case counter in the tests must have a row.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import mltutor.metrics

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "make_parity_page", ROOT / "scripts" / "make_parity_page.py"
)
parity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parity)


def test_page_lists_the_metrics_api():
    listed = parity.page_functions(parity.PAGE.read_text(encoding="utf-8"))
    metrics = {
        name.removeprefix("mltutor.metrics.")
        for name in listed
        if name.startswith("mltutor.metrics.")
    }
    assert metrics == set(mltutor.metrics.__all__)


def test_page_matches_the_script_and_the_package():
    # The rows name mltutor.streaming objects, and importing those needs torch.
    pytest.importorskip("torch", reason="the parity rows include mltutor.streaming (needs torch)")
    assert parity.check() == []


def test_every_case_counter_has_a_row():
    counters = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        counters |= set(re.findall(r'CASES\["([^"]+)"\]', path.read_text(encoding="utf-8")))
    known = {key for *_, keys in parity.ROWS for key in keys or []}
    assert counters == known, {
        "no row": sorted(counters - known),
        "no counter": sorted(known - counters),
    }


def test_property_test_files_are_listed():
    files = {
        f"tests/{p.name}"
        for p in (ROOT / "tests").glob("test_*.py")
        if p.name != Path(__file__).name and 'CASES["' in p.read_text(encoding="utf-8")
    }
    assert files == set(parity.PROPERTY_TESTS)


def test_counts_parse_from_the_conftest_summary():
    log = "\n".join(
        [
            "----- property-based cases (hypothesis examples run) -----",
            "roc_auc_score (binary)                                   1000",
            "detection: evaluate_coco vs pycocotools COCOeval           300",
            "property cases run: 1300",
        ]
    )
    assert parity.parse_counts(log) == {
        "roc_auc_score (binary)": 1000,
        "detection: evaluate_coco vs pycocotools COCOeval": 300,
    }
