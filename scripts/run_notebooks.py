#!/usr/bin/env python
"""Re-execute notebooks in place, each with its own folder as working directory (``make notebooks``).

By default: ``book/*.ipynb``, ``solutions/*.ipynb`` and ``exercises/*.ipynb``, in that order.
Outputs are replaced, timing metadata is not recorded and notebook metadata is normalised (see
``notebook_tools.py``), so re-running an unchanged notebook gives a small diff.  Kernels run with
``MLTUTOR_STRICT=1``: a wrong stored solution stops the run.

Usage::

    python scripts/run_notebooks.py                       # everything
    python scripts/run_notebooks.py book/01_confusion_matrix.ipynb solutions
    python scripts/run_notebooks.py --keep-going --timeout 300

Exit status 1 if any notebook failed (the others are still written when --keep-going is given).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.fspath(Path(__file__).resolve().parent))

import notebook_tools as nbt  # noqa: E402

DEFAULT_DIRS = ("book", "solutions", "exercises")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        help="notebooks or folders (default: book, solutions, exercises)",
    )
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="continue after a failing notebook instead of stopping",
    )
    args = parser.parse_args(argv)

    paths = args.paths or [nbt.REPO_ROOT / d for d in DEFAULT_DIRS]
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"error: not found: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    notebooks = list(nbt.iter_notebooks(paths))
    if not notebooks:
        print("no notebooks found", file=sys.stderr)
        return 2

    failed = []
    start = time.perf_counter()
    for k, path in enumerate(notebooks, 1):
        label = f"[{k}/{len(notebooks)}] {nbt.display_path(path)} …"
        try:
            seconds = nbt.execute_in_place(path, timeout=args.timeout)
        except Exception as exc:  # noqa: BLE001 - CellExecutionError, timeouts, bad JSON
            print(f"{label} FAILED", flush=True)
            print(f"    {type(exc).__name__}: {str(exc).strip()[-2000:]}", file=sys.stderr)
            failed.append(path)
            if not args.keep_going:
                break
            continue
        print(f"{label} ok ({seconds:.1f} s)", flush=True)

    total = time.perf_counter() - start
    if failed:
        print(
            f"{len(failed)} notebook(s) failed: "
            f"{', '.join(nbt.display_path(p) for p in failed)} ({total:.1f} s)",
            file=sys.stderr,
        )
        return 1
    print(f"all {len(notebooks)} notebooks executed ({total:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
