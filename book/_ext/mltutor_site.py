"""Small Sphinx fixes for the mltutor book (loaded through ``sphinx.local_extensions``).

sphinx-thebe 0.3.1 registers its inline configuration script (``const THEBE_JS_URL = ...``) once
with ``filename=None`` and once, through Sphinx's registry, with ``filename=''``; Sphinx 7.4 sees
two different assets and writes the script twice, so every page throws
``SyntaxError: Identifier 'THEBE_JS_URL' has already been declared`` in the browser.
This extension drops exact duplicate scripts from each page before it is written.
"""

from __future__ import annotations

from typing import Any


def _script_key(script: Any) -> tuple:
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return (filename, tuple(sorted((k, str(v)) for k, v in attributes.items())))


def drop_duplicate_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple] = set()
    unique = []
    for script in scripts:
        key = _script_key(script)
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    context["script_files"] = unique


def setup(app) -> dict[str, Any]:
    # After every other handler (sphinx-thebe, myst-nb, the theme) has added its scripts.
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
