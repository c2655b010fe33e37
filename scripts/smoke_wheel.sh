#!/usr/bin/env bash
# Release check (issue 26): build the sdist and the wheel from this tree (python -m build, which
# builds the wheel from the sdist, so a file missing from the sdist fails here), install the wheel
# with its dependencies into a clean virtual environment, and run scripts/smoke_wheel.py there
# from a folder outside the repository, so that only the installed package can be imported.
#
#   bash scripts/smoke_wheel.sh            (make smoke; .ci/run runs it)
#   PYTHON=python3.12 bash scripts/smoke_wheel.sh
#
# Needs the package registry (build, setuptools, numpy, matplotlib) and nothing from .venv.
# KEEP=1 keeps the temporary folder (its path is printed) to look at the built files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
PYTHON=${PYTHON:-python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/mltutor-smoke.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; else echo "smoke: keeping $work"; fi

# 1. The sdist and the wheel, by the build front end in a venv of its own.
$PYTHON -m venv "$work/build-venv"
"$work/build-venv/bin/python" -m pip install --quiet --disable-pip-version-check build
"$work/build-venv/bin/python" -m build --outdir "$work/dist" "$root" > "$work/build.log" 2>&1 \
  || { tail -n 40 "$work/build.log"; echo "smoke: python -m build failed" >&2; exit 1; }
ls "$work/dist"
sdists=("$work"/dist/mltutor-*.tar.gz)
wheels=("$work"/dist/mltutor-*-py3-none-any.whl)
[ ${#sdists[@]} -eq 1 ] && [ -f "${sdists[0]}" ] || { echo "smoke: want one sdist" >&2; exit 1; }
[ ${#wheels[@]} -eq 1 ] && [ -f "${wheels[0]}" ] || { echo "smoke: want one wheel" >&2; exit 1; }

# 2. A clean venv with the wheel and what it declares (numpy, matplotlib), none of the extras.
$PYTHON -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "${wheels[0]}"

# 3. The smoke test, run from outside the repository (the repository is not on sys.path).
mkdir "$work/outside"
cp scripts/smoke_wheel.py "$work/outside/"
(cd "$work/outside" && "$work/venv/bin/python" -I smoke_wheel.py \
  --repository "$root" --wheel "${wheels[0]}" --sdist "${sdists[0]}")
