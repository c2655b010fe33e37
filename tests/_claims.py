"""Loads ``scripts/claims_check.py`` for the prose-number and claims tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_spec = importlib.util.spec_from_file_location("claims_check", ROOT / "scripts" / "claims_check.py")
claims_check = importlib.util.module_from_spec(_spec)
sys.modules["claims_check"] = claims_check  # dataclasses look their module up by name
_spec.loader.exec_module(claims_check)


def page_ids() -> list[str]:
    return [str(p.relative_to(ROOT)) for p in claims_check.page_paths()]


def exercise_pages() -> list[tuple[str, str]]:
    """(exercise notebook, the solutions notebook it is generated from)."""
    return [
        (str(p.relative_to(ROOT)), f"solutions/{p.name}")
        for p in sorted((ROOT / "exercises").glob("*.ipynb"))
    ]
