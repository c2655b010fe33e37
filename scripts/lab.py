#!/usr/bin/env python
"""Open the exercises in JupyterLab on a private copy (``make lab``).

Copies every ``exercises/*.ipynb`` into the git-ignored ``workspace/`` folder, **never**
overwriting a notebook that is already there (your work is safe when the exercises are
regenerated), then opens JupyterLab rooted at ``workspace/``: the file browser shows your copies
and, through a ``book`` link beside them, the chapters (a copy's links to ``../book/`` are
written as ``book/`` so that they open in Lab), not the solutions.

The learner's Lab is not the instructor's: it starts with a configuration of its own
(``workspace/.jupyter-lab/``, first in ``JUPYTER_CONFIG_PATH``) in which nbgrader's server and
JupyterLab extensions are switched off.  Where no emoji font is installed (``fc-list`` finds
no font with ✅), the checks print ✔, ✘ and ○ instead of emoji (``MLTUTOR_ICONS=plain``;
``--icons`` chooses).

Usage::

    python scripts/lab.py                  # copy what is new, then start JupyterLab
    python scripts/lab.py --no-launch      # only copy (used by the tests)
    python scripts/lab.py --icons plain    # text symbols whatever the fonts
    python scripts/lab.py -- --no-browser  # arguments after -- go to jupyter lab

To start an exercise afresh, delete (or rename) your copy in workspace/ and run this again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
#: nbgrader's server extensions, switched off in the learner's Lab.
NBGRADER_SERVER_EXTENSIONS = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.course_list",
    "nbgrader.server_extensions.validate_assignment",
)
#: nbgrader's JupyterLab extension, switched off in the learner's Lab.
NBGRADER_LAB_EXTENSION = "@jupyter/nbgrader"
CONFIG_DIR = ".jupyter-lab"
_BOOK_LINK = b"](../book/"


def sync_workspace(exercises_dir: Path, workspace: Path) -> tuple[list[Path], list[Path]]:
    """Copy exercise notebooks that are not in ``workspace`` yet; return (copied, kept).

    A copy's Markdown links to ``../book/`` become ``book/`` (see :func:`link_book`); nothing
    else changes.
    """
    workspace.mkdir(parents=True, exist_ok=True)
    copied, kept = [], []
    for src in sorted(exercises_dir.glob("*.ipynb")):
        dst = workspace / src.name
        try:
            # "x" mode: fails if the file exists, so an existing copy is never truncated,
            # even if two copies run at once.
            with open(dst, "xb") as fout:
                fout.write(src.read_bytes().replace(_BOOK_LINK, b"](book/"))
        except FileExistsError:
            kept.append(dst)
            continue
        copied.append(dst)
    return copied, kept


def link_book(workspace: Path, book: Path = REPO_ROOT / "book") -> bool:
    """A ``book`` link in ``workspace`` to the chapters, so that Lab rooted there opens them.

    Returns False where no link can be made (no ``book`` folder, or a system without symbolic
    links); an existing ``workspace/book`` is left as it is.
    """
    target = workspace / "book"
    if target.exists() or target.is_symlink() or not book.is_dir():
        return target.exists()
    try:
        target.symlink_to(os.path.relpath(book, workspace), target_is_directory=True)
    except (OSError, NotImplementedError):
        return False
    return True


def emoji_font_available() -> bool:
    """Whether a font with ✅ is installed, as fontconfig says; True where there is no fontconfig
    (Windows and macOS ship an emoji font)."""
    if shutil.which("fc-list") is None:
        return True
    try:
        done = subprocess.run(
            ["fc-list", ":charset=2705", "family"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return True
    return bool(done.stdout.strip())


def learner_config(workspace: Path) -> Path:
    """Write the learner's Jupyter configuration (nbgrader off) and return its folder."""
    folder = workspace / CONFIG_DIR
    (folder / "labconfig").mkdir(parents=True, exist_ok=True)
    server = {
        "ServerApp": {"jpserver_extensions": {name: False for name in NBGRADER_SERVER_EXTENSIONS}}
    }
    (folder / "jupyter_server_config.json").write_text(
        json.dumps(server, indent=2) + "\n", encoding="utf-8"
    )
    page = {"disabledExtensions": {NBGRADER_LAB_EXTENSION: True}}
    (folder / "labconfig" / "page_config.json").write_text(
        json.dumps(page, indent=2) + "\n", encoding="utf-8"
    )
    return folder


def lab_environment(workspace: Path, icons: str = "auto", base: dict | None = None) -> dict:
    """The environment JupyterLab (and so every kernel it starts) runs with."""
    env = dict(os.environ if base is None else base)
    config = os.fspath(learner_config(workspace).resolve())
    rest = env.get("JUPYTER_CONFIG_PATH")
    env["JUPYTER_CONFIG_PATH"] = config + (os.pathsep + rest if rest else "")
    if icons == "plain" or (icons == "auto" and not emoji_font_available()):
        env["MLTUTOR_ICONS"] = "plain"
    elif icons == "emoji":
        env.pop("MLTUTOR_ICONS", None)
    return env


def lab_location(workspace: Path) -> list[str]:
    """JupyterLab arguments that root the server at ``workspace``."""
    return [f"--ServerApp.root_dir={workspace.resolve()}"]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lab_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, lab_args = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--exercises-dir", type=Path, default=REPO_ROOT / "exercises")
    parser.add_argument("--workspace", type=Path, default=REPO_ROOT / "workspace")
    parser.add_argument(
        "--no-launch", action="store_true", help="copy only; do not start JupyterLab"
    )
    parser.add_argument(
        "--icons",
        choices=("auto", "emoji", "plain"),
        default="auto",
        help="emoji or text symbols in the checks (auto: text without an emoji font)",
    )
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
    link_book(args.workspace)
    env = lab_environment(args.workspace, args.icons)
    cmd = [sys.executable, "-m", "jupyterlab", *lab_location(args.workspace), *lab_args]
    if hasattr(os, "geteuid") and os.geteuid() == 0 and "--allow-root" not in lab_args:
        cmd.append("--allow-root")  # containers often run as root; Jupyter refuses without it
    print("running:", " ".join(cmd), flush=True)
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
