"""The learner's Lab (``make lab``): rooted at workspace/, no nbgrader, icons a font can show."""

from __future__ import annotations

import json
import os

import pytest
from _exercise_harness import load_script

lab = load_script("lab")


def test_lab_is_rooted_at_the_workspace(tmp_path):
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    assert lab.lab_location(workspace) == [f"--ServerApp.root_dir={workspace.resolve()}"]


def test_copies_link_to_the_chapters_beside_them(tmp_path):
    exercises, workspace, book = tmp_path / "exercises", tmp_path / "workspace", tmp_path / "book"
    exercises.mkdir()
    book.mkdir()
    (book / "03_x.ipynb").write_text("{}", encoding="utf-8")
    (exercises / "03_x.ipynb").write_text(
        json.dumps(
            {
                "cells": [
                    {"cell_type": "markdown", "source": "go with [chapter 3](../book/03_x.ipynb)"}
                ]
            }
        ),
        encoding="utf-8",
    )
    copied, _ = lab.sync_workspace(exercises, workspace)
    assert "](book/03_x.ipynb)" in copied[0].read_text(encoding="utf-8")
    assert lab.link_book(workspace, book)
    assert (workspace / "book" / "03_x.ipynb").exists()
    assert lab.link_book(workspace, book)  # an existing link is left as it is


def test_no_nbgrader_extension_for_learners(tmp_path, monkeypatch):
    jupyter_core = pytest.importorskip("jupyter_core.paths")
    config = pytest.importorskip("jupyter_server.extension.config")
    env = lab.lab_environment(tmp_path, icons="emoji", base={})
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", env["JUPYTER_CONFIG_PATH"])
    manager = config.ExtensionConfigManager(read_config_path=jupyter_core.jupyter_config_path())
    enabled = manager.get_jpserver_extensions()
    assert all(enabled.get(name) is False for name in lab.NBGRADER_SERVER_EXTENSIONS)
    page = json.loads((tmp_path / lab.CONFIG_DIR / "labconfig" / "page_config.json").read_text())
    assert page["disabledExtensions"] == {"@jupyter/nbgrader": True}


def test_plain_icons_where_no_emoji_font_exists(tmp_path, monkeypatch):
    monkeypatch.setattr(lab, "emoji_font_available", lambda: False)
    assert lab.lab_environment(tmp_path, base={})["MLTUTOR_ICONS"] == "plain"
    monkeypatch.setattr(lab, "emoji_font_available", lambda: True)
    assert "MLTUTOR_ICONS" not in lab.lab_environment(tmp_path, base={})
    assert lab.lab_environment(tmp_path, icons="plain", base={})["MLTUTOR_ICONS"] == "plain"
    assert "MLTUTOR_ICONS" not in lab.lab_environment(
        tmp_path, icons="emoji", base={"MLTUTOR_ICONS": "plain"}
    )


def test_the_kernels_print_text_icons_in_plain_mode():
    from mltutor.check import Exercise, case

    ex = Exercise("exz", reference=lambda a: a, cases=[case(1)])
    old = os.environ.get("MLTUTOR_ICONS")
    os.environ["MLTUTOR_ICONS"] = "plain"
    try:
        assert str(ex.check(lambda a: a)) == "✔ Correct: all 1 cases pass."
    finally:
        if old is None:
            del os.environ["MLTUTOR_ICONS"]
        else:
            os.environ["MLTUTOR_ICONS"] = old
