#!/usr/bin/env python
"""Re-execute every notebook that uses torch on other CPU kernels and compare it with nbval.

``make test-portable`` runs this.  The committed outputs come from one machine; a learner's CPU
may lack AVX-512, and then torch and numpy take other kernel paths whose rounding differs.  This
script makes this machine take those paths too and checks that every stored output still
matches:

* ``ATEN_CPU_CAPABILITY=default`` (or ``--capability avx2``): torch's generic kernels instead of
  the AVX-512 ones;
* ``NPY_DISABLE_CPU_FEATURES``: numpy's AVX-512 dispatch targets off (``X86_V4`` and the named
  AVX-512 groups; names this numpy does not dispatch on are ignored with an ImportWarning, which
  is silent by default, and features the CPU lacks are ignored, so the same setting works on any
  x86-64 machine).  numpy 2.x dispatches on ``X86_V4``: the older names alone would leave its
  AVX-512 kernels on.

``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` are left as the machine sets them.

A notebook "uses torch" when one of its code cells imports ``torch`` or ``mltutor.streaming``
(which needs torch); see :func:`torch_notebooks`.

Usage::

    python scripts/portable_notebooks.py                 # all of them, 2 pytest-xdist workers
    python scripts/portable_notebooks.py --list          # only print the notebooks
    python scripts/portable_notebooks.py --capability avx2 book/08_ucf101_case_study.ipynb
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIRS = ("book", "solutions", "exercises")

#: An import of torch, or of the part of mltutor that needs it, at the start of a code line.
TORCH_IMPORT = re.compile(r"^\s*(?:import|from)\s+(?:torch|mltutor\.streaming)\b", re.MULTILINE)

#: numpy's AVX-512 dispatch targets: numpy 2.x groups them as X86_V4, AVX512_ICL, AVX512_SPR;
#: numpy 1.x names the older groups.
NUMPY_AVX512 = "X86_V4 AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"


def uses_torch(path: str | os.PathLike) -> bool:
    """True when a code cell of the notebook at ``path`` imports torch or mltutor.streaming."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return any(
        TORCH_IMPORT.search("".join(cell["source"]))
        for cell in cells
        if cell["cell_type"] == "code"
    )


def torch_notebooks(root: str | os.PathLike = REPO_ROOT) -> list[str]:
    """Repository-relative paths of the notebooks that use torch, sorted."""
    root = Path(root)
    found = [
        path
        for folder in NOTEBOOK_DIRS
        for path in sorted((root / folder).rglob("*.ipynb"))
        if ".ipynb_checkpoints" not in path.parts and uses_torch(path)
    ]
    return sorted(path.relative_to(root).as_posix() for path in found)


def portable_environment(capability: str = "default") -> dict[str, str]:
    """The environment variables that make this CPU take the non-AVX-512 paths."""
    return {"ATEN_CPU_CAPABILITY": capability, "NPY_DISABLE_CPU_FEATURES": NUMPY_AVX512}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("notebooks", nargs="*", help="default: every notebook that uses torch")
    parser.add_argument(
        "--capability",
        default="default",
        choices=("default", "avx2", "avx512"),
        help="ATEN_CPU_CAPABILITY for torch (default: default)",
    )
    parser.add_argument("--workers", default="2", help="pytest-xdist workers (default 2)")
    parser.add_argument("--list", action="store_true", help="print the notebooks and stop")
    args = parser.parse_args(argv)

    notebooks = args.notebooks or torch_notebooks()
    if args.list:
        print("\n".join(notebooks))
        return 0
    env = {**os.environ, **portable_environment(args.capability)}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-n",
        args.workers,
        "--dist",
        "loadfile",
        *notebooks,
    ]
    print(
        " ".join(f"{k}={v!r}" for k, v in portable_environment(args.capability).items()),
        " ".join(command[1:]),
        flush=True,
    )
    return subprocess.call(command, cwd=REPO_ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
