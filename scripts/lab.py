#!/usr/bin/env python
"""Open the exercises in JupyterLab on a private copy (``make lab``).

Copies every ``exercises/*.ipynb`` into the git-ignored ``workspace/`` folder, **never**
overwriting a notebook that is already there (your work is safe when the exercises are
regenerated), then opens JupyterLab on it.

Usage::

    python scripts/lab.py                  # copy what is new, then start JupyterLab
    python scripts/lab.py --no-launch      # only copy (used by the tests)
    python scripts/lab.py -- --no-browser  # arguments after -- go to jupyter lab

To start an exercise afresh, delete (or rename) your copy in workspace/ and run this again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def sync_workspace(exercises_dir: Path, workspace: Path) -> tuple[list[Path], list[Path]]:
    """Copy exercise notebooks that are not in ``workspace`` yet; return (copied, kept)."""
    workspace.mkdir(parents=True, exist_ok=True)
    copied, kept = [], []
    for src in sorted(exercises_dir.glob("*.ipynb")):
        dst = workspace / src.name
        try:
            # "x" mode: fails if the file exists, so an existing copy is never truncated,
            # even if two copies run at once.
            with open(src, "rb") as fin, open(dst, "xb") as fout:
                shutil.copyfileobj(fin, fout)
        except FileExistsError:
            kept.append(dst)
            continue
        copied.append(dst)
    return copied, kept


def lab_location(workspace: Path) -> list[str]:
    """JupyterLab arguments that open ``workspace``.

    When the workspace lies inside the repository, the server's root is the repository and Lab
    opens on the workspace, so the notebooks' relative links to ``../book/`` chapters still work.
    """
    workspace = workspace.resolve()
    if workspace.is_relative_to(REPO_ROOT):
        start = workspace.relative_to(REPO_ROOT).as_posix()
        return [f"--ServerApp.root_dir={REPO_ROOT}", f"--LabApp.default_url=/lab/tree/{start}"]
    return [os.fspath(workspace)]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lab_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, lab_args = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exercises-dir", type=Path, default=REPO_ROOT / "exercises")
    parser.add_argument("--workspace", type=Path, default=REPO_ROOT / "workspace")
    parser.add_argument("--no-launch", action="store_true", help="copy only; do not start JupyterLab")
    args = parser.parse_args(argv)

    if not args.exercises_dir.is_dir():
        print(f"error: no exercises folder at {args.exercises_dir}", file=sys.stderr)
        return 2
    copied, kept = sync_workspace(args.exercises_dir, args.workspace)
    for path in copied:
        print(f"copied  {path.name} -> {args.workspace}")
    for path in kept:
        print(f"kept    {path.name} (your copy in {args.workspace} is left as it is)")
    if not copied and not kept:
        print(f"no exercise notebooks in {args.exercises_dir}")
    if kept:
        print("To start an exercise afresh, delete or rename your copy and run this again.")
    if args.no_launch:
        return 0
    cmd = [sys.executable, "-m", "jupyterlab", *lab_location(args.workspace), *lab_args]
    if hasattr(os, "geteuid") and os.geteuid() == 0 and "--allow-root" not in lab_args:
        cmd.append("--allow-root")  # containers often run as root; Jupyter refuses without it
    print("running:", " ".join(cmd), flush=True)
    try:
        return subprocess.call(cmd)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
