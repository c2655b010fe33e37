"""Where the chapters' solutions notebooks are, for the grading tools.

The solutions notebooks (``solutions/NN_topic.ipynb``) live in the course repository, not in the
package: an installed wheel has none. The batch grader needs them only to turn a chapter *number*
into its exercise module (a chapter given by name, ``precision_recall``, needs none); the nbgrader
export reads the notebook it turns into an assignment. Both take ``--solutions DIR``; without it,
the ``solutions/`` folder of the checkout the package is imported from (a clone with
``pip install -e .``). When neither holds the notebooks, :func:`solutions_folder` says so, names
the folder it looked in, and how to point at one.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SolutionsNotFound", "default_solutions", "solutions_folder"]


class SolutionsNotFound(FileNotFoundError):
    """The solutions notebooks are not where the grading tool looked (an installed wheel)."""


def default_solutions() -> Path:
    """``solutions/`` beside the imported package: a clone's, which no wheel ships."""
    return Path(__file__).resolve().parents[2] / "solutions"


def solutions_folder(explicit: str | Path | None = None, *, needed_for: str = "") -> Path:
    """The folder that holds the solutions notebooks: ``explicit`` if given, else the clone's.

    Raises :class:`SolutionsNotFound` with the folder looked in and the ways to name one when it
    holds no ``NN_topic.ipynb``. ``needed_for`` says what they were needed for (one clause).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     solutions_folder(empty)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mltutor.grading._solutions.SolutionsNotFound: no solutions notebooks (NN_topic.ipynb) in ...
    """
    folder = Path(explicit).expanduser() if explicit else default_solutions()
    if folder.is_dir() and any(folder.glob("[0-9][0-9]*_*.ipynb")):
        return folder
    where = (
        "the folder given"
        if explicit
        else (
            "the solutions/ folder beside the package: mltutor is not imported from a clone of the "
            "course repository (an installed wheel ships no solutions)"
        )
    )
    raise SolutionsNotFound(
        f"no solutions notebooks (NN_topic.ipynb) in {folder}, {where}"
        + (f"; they are needed {needed_for}" if needed_for else "")
        + ". Pass --solutions DIR "
        "with the solutions/ folder of a clone of the course repository, or run from a clone "
        "in which `pip install -e .` installed mltutor."
    )
