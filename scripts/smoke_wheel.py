"""Smoke test of an installed mltutor wheel, run by scripts/smoke_wheel.sh in a clean venv.

Run from a folder outside the repository with ``python -I`` (so only the installed package can be
imported). Checks: the package comes from the venv, not the repository; its version is the one in
pyproject.toml, in the wheel's and the sdist's names and in the wheel's metadata; the metadata
declares the ``widgets`` and ``torch`` extras (torch pinned as requirements.txt pins it); the
packaged data files load; a few metrics give the numbers worked out by hand below; the grading
command prints its help, and refuses to grade (no solutions in a wheel) with a message that
points at a clone; without the extras installed, the explorer and ``mltutor.streaming``
raise an ImportError that names the extra to install. Prints one line per check; exits 1 on the
first failure.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"smoke: FAILED: {what}", file=sys.stderr)
        raise SystemExit(1)
    print(f"smoke: ok  {what}")


def pyproject_version(repository: Path) -> str:
    text = (repository / "pyproject.toml").read_text(encoding="utf-8")
    project = text[text.index("[project]") :]
    return re.search(r'^version = "([^"]+)"$', project, flags=re.M).group(1)


def pinned_torch(repository: Path) -> str:
    text = (repository / "requirements.txt").read_text(encoding="utf-8")
    return re.search(r"^torch==(\S+)", text, flags=re.M).group(1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repository", type=Path, required=True)
    parser.add_argument("--wheel", type=Path, required=True)
    parser.add_argument("--sdist", type=Path, required=True)
    args = parser.parse_args()
    repository = args.repository.resolve()

    import mltutor

    where = Path(mltutor.__file__).resolve()
    check(
        repository not in where.parents and Path(sys.prefix).resolve() in where.parents,
        f"mltutor imported from the venv ({where.parent}), not from the repository",
    )

    version = pyproject_version(repository)
    check(mltutor.__version__ == version, f"mltutor.__version__ == pyproject's {version}")
    check(importlib.metadata.version("mltutor") == version, "installed metadata has it too")
    check(args.wheel.name.startswith(f"mltutor-{version}-"), f"wheel name {args.wheel.name}")
    check(args.sdist.name == f"mltutor-{version}.tar.gz", f"sdist name {args.sdist.name}")

    with zipfile.ZipFile(args.wheel) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(f"mltutor-{version}.dist-info/METADATA").decode()
    check(f"\nVersion: {version}\n" in metadata, "wheel METADATA Version")
    extras = set(re.findall(r"^Provides-Extra: (\S+)$", metadata, flags=re.M))
    check({"widgets", "torch"} <= extras, f"extras declared: {sorted(extras)}")
    torch = pinned_torch(repository)
    pin = rf'^Requires-Dist: torch=={re.escape(torch)}; extra == "torch"$'
    check(
        re.search(pin, metadata, flags=re.M) is not None,
        f"the torch extra pins torch=={torch}, as requirements.txt does",
    )
    check(
        "mltutor/data/ucf101_clips.csv" in names and not any(n.startswith("tests/") for n in names),
        "the wheel ships mltutor/data and no tests",
    )
    with tarfile.open(args.sdist) as sdist:
        members = {m.split("/", 1)[1] for m in sdist.getnames() if "/" in m}
    check(
        {"pyproject.toml", "README.md", "LICENSE", "mltutor/data/ucf101_clips.csv"} <= members,
        "the sdist has pyproject.toml, README.md, LICENSE and the data",
    )

    import numpy as np

    from mltutor.datasets import thumos14, ucf101
    from mltutor.metrics import (
        accuracy_score,
        average_precision_score,
        confusion_matrix,
        f1_score,
        precision_score,
        recall_score,
        roc_auc_score,
    )

    counts = ucf101.clips_per_class()
    check(
        (int(counts.sum()), len(thumos14.CLASS_NAMES)) == (13320, 20),
        "packaged data: UCF101's 13,320 clips, THUMOS'14's 20 detection classes",
    )
    # TP 3, FN 1, FP 0, TN 2: accuracy 5/6, precision 1, recall 3/4, F1 2*3/(2*3 + 1 + 0) = 6/7.
    y_true = np.array([0, 1, 1, 0, 1, 1])
    y_pred = np.array([0, 1, 0, 0, 1, 1])
    check(confusion_matrix(y_true, y_pred).tolist() == [[2, 0], [1, 3]], "confusion_matrix")
    got = [
        accuracy_score(y_true, y_pred),
        precision_score(y_true, y_pred),
        recall_score(y_true, y_pred),
        f1_score(y_true, y_pred),
    ]
    check(np.allclose(got, [5 / 6, 1.0, 3 / 4, 6 / 7], rtol=0, atol=1e-12), f"scores {got}")
    # Positives 0.35 and 0.8 against negatives 0.1 and 0.4: 3 of the 4 pairs ordered, AUC 3/4;
    # AP: recall 1/2 at precision 1 (0.8), recall 1 at precision 2/3 (0.35): (1 + 2/3) / 2.
    scores = np.array([0.1, 0.4, 0.35, 0.8])
    auc = roc_auc_score([0, 0, 1, 1], scores)
    ap = average_precision_score([0, 0, 1, 1], scores)
    check(abs(auc - 3 / 4) < 1e-12 and abs(ap - 5 / 6) < 1e-12, f"ROC AUC {auc}, AP {ap}")

    import matplotlib

    matplotlib.use("Agg")
    from mltutor.plots import plot_confusion_matrix

    ax = plot_confusion_matrix(confusion_matrix(y_true, y_pred))
    check(ax is not None, "plot_confusion_matrix draws with the Agg backend")

    grading = subprocess.run(
        [sys.executable, "-I", "-m", "mltutor.grading", "--help"],
        capture_output=True,
        text=True,
    )
    check(
        grading.returncode == 0 and grading.stdout.startswith("usage: python -m mltutor.grading"),
        "python -m mltutor.grading --help",
    )

    # The wheel ships no solutions notebooks: grading a submission refuses, and says to use a clone.
    submission = Path("submission.py")
    submission.write_text("x = 1\n", encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-I", "-m", "mltutor.grading", "01", str(submission)],
        capture_output=True,
        text=True,
    )
    check(
        refused.returncode == 2 and "a clone of the course repository" in refused.stderr,
        "python -m mltutor.grading 01 submission.py refuses and points at a clone",
    )

    # The extras are not installed here: each entry point that needs one names it.
    if importlib.util.find_spec("torch") is None:
        try:
            import mltutor.streaming  # noqa: F401
        except ImportError as error:
            check('pip install "mltutor[torch]"' in str(error), f"no torch: {error}")
        else:
            check(False, "import mltutor.streaming without torch raises ImportError")
    if importlib.util.find_spec("ipywidgets") is None:
        from mltutor.plots import threshold_explorer

        try:
            threshold_explorer(y_true, scores.repeat(2)[:6])
        except ImportError as error:
            check('pip install "mltutor[widgets]"' in str(error), f"no ipywidgets: {error}")
        else:
            check(False, "threshold_explorer without ipywidgets raises ImportError")
    print(f"smoke: mltutor {version} wheel and sdist pass")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
