"""Build the book: the English edition, the Chinese edition, or the message catalogs.

    python scripts/build_book.py en       # _build/html/        (English, the source text)
    python scripts/build_book.py zh       # _build/html/zh/     (Chinese, from locales/zh_CN)
    python scripts/build_book.py gettext  # _build/gettext/     (the .pot templates, one per page)

All three read the same notebooks, pages, ``_config.yml`` and ``_toc.yml``; the Chinese edition only
adds ``language = zh_CN``, which makes Sphinx replace every prose message by its translation in
``locales/zh_CN/LC_MESSAGES/<page>.po`` and the theme print its own interface strings in Chinese.
Each build keeps its own doctree folder (Sphinx refuses to share one between builders and
languages). Warnings are errors; every page is rebuilt (``--all -W --keep-going`` of the CLI).

The terminal gets a few lines per edition (pages, warnings, where the log is) and the warnings
themselves; Sphinx's full log goes to ``_build/logs/<edition>.log`` (``--verbose``: to the
terminal too). The last lines name each edition's ``index.html``.

Where the book is published comes from the environment, never from an edit: in GitHub Actions
``GITHUB_SERVER_URL`` + ``GITHUB_REPOSITORY`` name the repository (``MLTUTOR_REPOSITORY_URL``
elsewhere) and ``MLTUTOR_PAGES_URL`` the site (default ``https://<owner>.github.io/<repo>/``);
:func:`publish_overrides` turns them into Sphinx settings. With none set, ``_config.yml`` is used
as it is.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The Chinese edition's folder inside the English site.
ZH_DIR = "zh"

#: edition -> (Sphinx builder, output folder, doctree folder, extra Sphinx settings)
EDITIONS = {
    "en": ("html", "_build/html", "_build/.doctrees", {}),
    "zh": (
        "html",
        "_build/html/zh",
        "_build/.doctrees-zh",
        {
            "language": "zh_CN",
            "html_title": "如实评估分类器与检测器",
            "author": "mltutor 作者团队",
            # Jupyter Book sets this theme string itself, so Sphinx's catalogs never see it.
            "html_theme_options": {"search_bar_text": "搜索本书……"},
            # sphinx-togglebutton ships these in a zh-cn folder that language zh_CN never finds.
            "togglebutton_hint": "点击显示",
            "togglebutton_hint_hide": "点击隐藏",
        },
    ),
    # The catalogs need no web assets (make book stages them; a fresh clone has none yet).
    "gettext": (
        "gettext",
        "_build/gettext",
        "_build/.doctrees-gettext",
        {"html_static_path": ["book/_static"]},
    ),
}


LOCALE = ROOT / "locales" / "zh_CN" / "LC_MESSAGES"

# --------------------------------------------------------------------------------------------
# Where the book is published: derived from the environment, never edited into _config.yml.
# --------------------------------------------------------------------------------------------


def repository_url_from_env(environ: Mapping[str, str]) -> str | None:
    """The repository's URL from the environment, or None (then _config.yml's URL is used).

    ``MLTUTOR_REPOSITORY_URL`` wins; in GitHub Actions, ``GITHUB_SERVER_URL`` and
    ``GITHUB_REPOSITORY`` (``owner/name``) name the repository the workflow runs in, so a fork
    publishes its own book with no edit.
    """
    explicit = environ.get("MLTUTOR_REPOSITORY_URL", "").strip()
    if explicit:
        return explicit.rstrip("/").removesuffix(".git")
    repository = environ.get("GITHUB_REPOSITORY", "").strip().strip("/")
    if repository:
        server = environ.get("GITHUB_SERVER_URL", "").strip().rstrip("/") or "https://github.com"
        return f"{server}/{repository}"
    return None


def pages_url(repository_url: str, environ: Mapping[str, str]) -> str | None:
    """The GitHub Pages address of the English edition (ends in ``/``; Chinese: ``+ "zh/"``).

    ``MLTUTOR_PAGES_URL`` wins (the workflow passes ``actions/configure-pages``' ``base_url``,
    which knows a custom domain); otherwise a github.com repository ``owner/name`` is published
    at ``https://owner.github.io/name/``, and ``owner/owner.github.io`` at the domain's root.
    Other servers have no rule here: None.
    """
    explicit = environ.get("MLTUTOR_PAGES_URL", "").strip()
    if explicit:
        return explicit.rstrip("/") + "/"
    match = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+)", repository_url.rstrip("/"))
    if not match:
        return None
    owner, name = match.group(1).lower(), match.group(2)
    if name.lower() == f"{owner}.github.io":
        return f"https://{owner}.github.io/"
    return f"https://{owner}.github.io/{name}/"


def install_ref(version: str, environ: Mapping[str, str]) -> str:
    """The git ref the downloaded notebooks' install cell installs ``mltutor`` from.

    ``MLTUTOR_INSTALL_REF`` wins; else the release tag ``v<version>`` when it names the commit
    being built; else that commit (``GITHUB_SHA``, or ``git rev-parse HEAD``), so the package a
    reader installs is the code that printed the book's outputs; else the tag.
    """
    explicit = environ.get("MLTUTOR_INSTALL_REF", "").strip()
    if explicit:
        return explicit
    tag = f"v{version}"

    def git(*args: str) -> str:
        try:
            return subprocess.run(
                ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""

    if tag in git("tag", "--points-at", "HEAD").split():
        return tag
    return environ.get("GITHUB_SHA", "").strip() or git("rev-parse", "HEAD") or tag


def read_online(edition: str, site: str | None) -> str:
    """The sentence behind ``{{ read_online }}`` in ``book/intro.md`` (a MyST substitution: the
    catalogs keep ``{{ read_online }}`` as it is, so the message does not depend on the site).

    With the Pages address: a link to each edition. Without: a link to the setup page's section
    on publishing, so that no build carries a link to a site that does not exist.
    """
    if site:
        zh = f"{site}{ZH_DIR}/"
        if edition == "zh":
            return f"本书发布在 [{zh}]({zh})，英文版在 [{site}]({site})。"
        return f"The book is published at [{site}]({site}), the Chinese edition at [{zh}]({zh})."
    if edition == "zh":
        return "这一份还没有发布：设置页的“{ref}`publishing`”一节说明仓库怎样发布自己的书，无需修改任何文件。"
    return (
        "This copy is not published yet: {ref}`publishing` on the setup page says how a "
        "repository publishes its own book, with nothing to edit."
    )


def publish_overrides(edition: str, environ: Mapping[str, str], config: dict, version: str) -> dict:
    """Sphinx settings that point the site at the repository the build runs for.

    Empty when the environment names no repository: the build then reads ``repository.url`` of
    ``_config.yml`` as it is (while that is the placeholder, no launch buttons and no install
    cell; ``book/_ext/mltutor_site.py``). Otherwise the theme's ``repository_url`` (Binder and
    Colab buttons, read by sphinx-book-theme 1.3.0), ``html_baseurl`` (each page's canonical
    address; the Chinese edition's ends in ``zh/``), and for ``mltutor_site``: the URL that the
    chapters' committed install cells name, and the ref the downloaded copies install from.
    """
    if edition == "gettext":
        return {}  # the catalogs' messages must not depend on where the book is built
    url = repository_url_from_env(environ)
    if url is None:
        return {}
    overrides: dict = {
        "html_theme_options": {"repository_url": url},
        "mltutor_install_cell_url": (config.get("repository") or {}).get("url"),
        "mltutor_install_ref": install_ref(version, environ),
    }
    site = pages_url(url, environ)
    if site:
        overrides["html_baseurl"] = site + (f"{ZH_DIR}/" if edition == "zh" else "")
        overrides["myst_substitutions"] = {"read_online": read_online(edition, site)}
    return overrides


def _config_and_version() -> tuple[dict, str]:
    import tomllib
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    return config, version


def merge(base: dict, extra: dict) -> dict:
    """``base`` updated by ``extra``, nested dictionaries merged (as Jupyter Book merges them)."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def translated_toc() -> Path:
    """``_toc.yml`` with its captions and titles in Chinese, for the Chinese edition.

    sphinx-external-toc inserts the table of contents after Sphinx has applied the catalogs, so
    its explicit titles (which equal the pages' own titles, tests/test_page_titles.py) and part
    captions (messages of the root page) are looked up in the catalogs here.  A missing or fuzzy
    translation stops the build.
    """
    import polib
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    catalogs: dict[str, polib.POFile] = {}

    def chinese(page: str, english: str) -> str:
        po = catalogs.setdefault(page, polib.pofile(str(LOCALE / f"{page}.po")))
        entry = po.find(english)
        if entry is None or not entry.msgstr or "fuzzy" in entry.flags:
            raise SystemExit(
                f"_toc.yml: {english!r} has no translation in {page}.po "
                "(make gettext, then translate it)"
            )
        return entry.msgstr.replace("\\.", ".", 1)  # "1\\. 混淆矩阵": escaped for MyST, not here

    def walk(entries: list[dict]) -> None:
        for entry in entries:
            if "title" in entry:
                entry["title"] = chinese(entry["file"], entry["title"])
            walk(entry.get("sections", []))

    for part in toc.get("parts", []):
        if "caption" in part:
            part["caption"] = chinese(toc["root"], part["caption"])
        walk(part.get("chapters", []))
    out = ROOT / "_build" / "_toc.zh_CN.yml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(toc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def glossary_dictionary() -> Path:
    """A jieba user dictionary of the glossary's Chinese terms (one "word frequency" per line)."""
    import re

    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    terms = sorted(
        {
            line.strip()
            for block in re.findall(r"```\{glossary\}\n(.*?)\n```", text, re.S)
            for line in block.split("\n")
            if line.strip()
            and not line.startswith((" ", "\t"))
            and re.search(r"[\u4e00-\u9fff]", line)
            and " " not in line.strip()
        }
    )
    out = ROOT / "_build" / "jieba_glossary.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{term} 100000\n" for term in terms), encoding="utf-8")
    return out


class _Tee(io.TextIOBase):
    """A text stream that writes to the log file and to the terminal, counting problem lines."""

    PROBLEM = re.compile(r"\b(WARNING|ERROR|CRITICAL|SEVERE)\b")

    def __init__(self, log: io.TextIOBase, terminal: io.TextIOBase) -> None:
        self.log, self.terminal, self.problems = log, terminal, 0

    def write(self, text: str) -> int:
        self.log.write(text)
        self.terminal.write(text)
        self.problems += sum(bool(self.PROBLEM.search(line)) for line in text.splitlines())
        return len(text)

    def flush(self) -> None:
        self.log.flush()
        self.terminal.flush()

    def isatty(self) -> bool:
        return False


def quiet_libraries(stream: io.TextIOBase) -> None:
    """Route Python logging to ``stream`` at WARNING before any library configures it.

    The noise of a build came from three places: accessible-pygments 0.0.5 (module
    ``a11y_pygments``, imported by pydata-sphinx-theme for its code styles) calls
    ``logging.basicConfig(level=INFO)`` on the root logger, after which fontTools' subsetter
    and merger (``fontTools.subset``, ``fontTools.merge``: the web-font step of
    ``book/_ext/mltutor_fonts.py``) log several thousand INFO lines; jieba (the Chinese search
    index) logs its dictionary loading through
    its own handler; and Sphinx's status lines, which go to the log file instead.  Configuring
    the root logger first makes the later ``basicConfig`` a no-op; warnings still reach
    ``stream``.  Python's own warnings are logged too (``py.warnings``), so they are seen.
    """
    import logging

    logging.basicConfig(
        level=logging.WARNING,
        force=True,
        stream=stream,
        format="%(levelname)s: %(name)s: %(message)s",
    )
    logging.getLogger("fontTools").setLevel(logging.WARNING)
    try:  # jieba sets its own logger to DEBUG when imported: import it first, then lower it
        import jieba
    except ImportError:
        pass
    else:
        jieba.setLogLevel(logging.WARNING)
    logging.captureWarnings(True)


def log_path(edition: str, out: Path | None) -> Path:
    """Where the full Sphinx log of an edition goes: ``_build/logs/<edition>.log``, or beside a
    folder given with ``--out``."""
    if out is None:
        return ROOT / "_build" / "logs" / f"{edition}.log"
    return out.parent / f"{out.name}.{edition}.log"


def build(
    edition: str,
    out: Path | None = None,
    doctrees: Path | None = None,
    quiet: bool = False,
    verbose: bool = False,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run one Sphinx build through Jupyter Book's own entry point; return its exit status.

    ``out`` and ``doctrees`` replace the edition's folders (tests build the catalogs elsewhere).
    Sphinx's status lines go to :func:`log_path` (all of them with ``verbose``, on the terminal
    too); its warnings and errors go to both, and any of them fails the build (``-W
    --keep-going``). ``quiet``: no progress lines either.
    """
    environ = os.environ if environ is None else environ
    builder, default_out, default_doctrees, settings = EDITIONS[edition]
    log = log_path(edition, out)
    out = out or ROOT / default_out
    doctrees = doctrees or ROOT / default_doctrees
    toc = translated_toc().as_posix() if edition == "zh" else "_toc.yml"
    overrides = {"external_toc_path": toc, "latex_individualpages": False, **settings}
    if edition == "zh":
        # Sphinx indexes Chinese text for search only through jieba's word segmentation; the
        # glossary's terms are added to its dictionary so that 精确率 is one word, not 精确 + 率.
        overrides["html_search_options"] = {"dict": str(glossary_dictionary())}
    config, version = _config_and_version()
    overrides["myst_substitutions"] = {"read_online": read_online(edition, None)}
    overrides = merge(overrides, publish_overrides(edition, environ, config, version))
    log.parent.mkdir(parents=True, exist_ok=True)
    say = (lambda message: None) if quiet else (lambda message: print(message, flush=True))
    url = (overrides.get("html_theme_options") or {}).get("repository_url")
    say(
        f"{edition}: Sphinx {builder} build of every page into {_shown(out)}"
        + (f" (repository {url})" if url else "")
    )
    with open(log, "w", encoding="utf-8") as log_file:
        warnings = _Tee(log_file, sys.stderr)  # Sphinx's warning stream
        libraries = _Tee(log_file, sys.stderr)  # Python logging and warnings of the libraries
        status = _Tee(log_file, sys.stdout) if verbose else log_file
        quiet_libraries(libraries)
        from jupyter_book.sphinx import build_sphinx
        from sphinx.util.console import nocolor

        nocolor()  # plain text in the log (the Sphinx CLI does this when not on a terminal)

        with contextlib.redirect_stdout(status), contextlib.redirect_stderr(warnings):
            result = build_sphinx(
                ROOT,
                out,
                noconfig=True,
                path_config=str(ROOT / "_config.yml"),
                confoverrides=overrides,
                doctreedir=doctrees,
                builder=builder,
                force_all=True,
                freshenv=True,
                warningiserror=True,
                keep_going=True,
                quiet=False,
            )
    if isinstance(result, Exception):
        raise result
    pages = sum(1 for _ in doctrees.rglob("*.doctree"))
    found = warning_count(log.read_text(encoding="utf-8"), warnings.problems)
    say(
        f"{edition}: {pages} pages, {found} warnings"
        + (
            f" (and {libraries.problems} from libraries, printed above)"
            if libraries.problems
            else ""
        )
        + f"; full log: {_shown(log)}"
    )
    return int(result)


def warning_count(log_text: str, seen: int) -> int:
    """Sphinx's own count of warnings in its log ("build finished with problems, 3 warnings
    (with warnings treated as errors)."), or ``seen`` (the problem lines the terminal got)."""
    counted = re.findall(r"^build \w.*?, (\d+) warnings?\b", log_text, re.M)
    return int(counted[-1]) if counted else seen


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it is inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def dropped_translations(doctrees: Path) -> list[str]:
    """Messages whose translation the Chinese build did not use.

    Sphinx keeps the English, without a warning, when a translation does not parse into the same
    kind of node (MyST reads "1. 标题" as a list); every prose node of the Chinese doctrees must
    therefore be marked translated unless its catalog keeps the English on purpose.
    """
    import pickle

    import polib
    from sphinx.util.nodes import extract_messages

    problems = []
    for path in sorted(doctrees.rglob("*.doctree")):
        page = path.relative_to(doctrees).with_suffix("").as_posix()
        catalog = LOCALE / f"{page}.po"
        if not catalog.is_file():
            continue
        table = {e.msgid: e.msgstr for e in polib.pofile(str(catalog)) if not e.obsolete}
        doctree = pickle.loads(path.read_bytes())
        for node, message in extract_messages(doctree):
            wanted = table.get(message)
            if not node.get("translated") and wanted and wanted != message:
                problems.append(f"{page}: translation not used: {message[:70]!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("editions", nargs="+", choices=sorted(EDITIONS))
    parser.add_argument("--out", type=Path, help="output folder (one edition only)")
    parser.add_argument("--doctrees", type=Path, help="doctree folder (one edition only)")
    parser.add_argument("--quiet", action="store_true", help="warnings only")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="Sphinx's full log on the terminal too (it always goes to the log)",
    )
    args = parser.parse_args(argv)
    if (args.out or args.doctrees) and len(args.editions) > 1:
        parser.error("--out and --doctrees need exactly one edition")
    status = 0
    built = []
    for edition in args.editions:
        result = build(edition, args.out, args.doctrees, args.quiet, args.verbose)
        if edition == "zh" and not result:
            dropped = dropped_translations(args.doctrees or ROOT / EDITIONS["zh"][2])
            for problem in dropped:
                print(problem, file=sys.stderr)
            if dropped:
                print(f"{len(dropped)} translations were not used (see above)", file=sys.stderr)
                result = 1
        status = result or status
        if edition != "gettext":
            index = (args.out or ROOT / EDITIONS[edition][1]) / "index.html"
            built.append((edition, index, result))
    if not args.quiet:
        for edition, index, result in built:
            name = {"en": "English", "zh": "Chinese"}[edition]
            state = "built" if not result else "FAILED (see the warnings above)"
            print(f"The {name} edition ({edition}): {state}: {_shown(index)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
