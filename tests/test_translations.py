"""The Chinese edition can never silently fall behind the English (issue 17).

The message catalogs in ``locales/zh_CN/LC_MESSAGES/`` must hold, for every prose message the
sources produce *now*, a translation that is not fuzzy; and every translation must keep its
English's code, maths, link and cross-reference targets, emphasis and numbers, and use the
glossary's preferred terms (``scripts/i18n.py``, ``scripts/i18n_terms.py``).  Editing English
prose without ``make gettext`` and a translation fails here.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


i18n = _script("i18n")  # puts scripts/ on sys.path for its own i18n_terms import
term_problems = _script("i18n_terms").term_problems


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> Path:
    """The message templates of the sources as they are now (a fresh gettext build)."""
    out = tmp_path_factory.mktemp("gettext")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_book.py"), "gettext", "--quiet",
                    "--out", str(out / "pot"), "--doctrees", str(out / "doctrees")],
                   check=True, cwd=ROOT)
    return out / "pot"


def test_every_current_message_has_a_translation(templates):
    catalogs = i18n.catalogs()
    problems = []
    pages = sorted(str(p.relative_to(templates).with_suffix("")) for p in templates.rglob("*.pot")
                   if p.stem != i18n.INTERFACE_CATALOG)
    assert len(pages) > 40, pages
    for page in pages:
        if page not in catalogs:
            problems.append(f"{page}: no catalog (run make gettext)")
            continue
        entries = {e.msgid: e for e in catalogs[page] if not e.obsolete}
        for template in polib.pofile(str(templates / f"{page}.pot")):
            if not template.msgid:
                continue  # an empty node's message: gettext keeps "" for the header, nothing to say
            entry = entries.pop(template.msgid, None)
            if entry is None:
                problems.append(f"{page}: new English, not in the catalog (make gettext): "
                                f"{template.msgid[:70]!r}")
            elif not entry.msgstr:
                problems.append(f"{page}: untranslated: {template.msgid[:70]!r}")
            elif "fuzzy" in entry.flags:
                problems.append(f"{page}: fuzzy (English changed): {template.msgid[:70]!r}")
        problems += [f"{page}: stale message, gone from the English (make gettext): {m[:70]!r}"
                     for m in entries]
    problems += [f"{page}: catalog of a page that is not in the book" for page in catalogs
                 if page not in pages]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_every_translation_keeps_code_maths_numbers_and_terms():
    problems = i18n.all_problems()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_the_translation_is_complete_and_counted():
    entries = [e for po in i18n.catalogs().values() for e in po if not e.obsolete]
    assert len(entries) > 3000
    assert all(e.msgstr and "fuzzy" not in e.flags for e in entries)


@pytest.mark.parametrize("english, chinese, expected", [
    ("The precision of the model.", "模型的精确率。", []),
    ("The precision of the model.", "模型的精度。", ["precision", "精度"]),
    ("The precision of the model.", "模型的查准率。", ["precision"]),
    ("Scores in double precision.", "双精度的分数。", []),
    ("Recall that a threshold is chosen.", "回想一下，阈值是选出来的。", []),
    ("Recall is 0.9.", "回想是 0.9。", ["recall"]),
    ("Average precision (AP).", "平均精度（AP）。", []),
    ("The support of each class.", "每个类别的支持度。", ["支持度"]),
    ("Pick the threshold.", "选择阀值。", ["threshold", "阀值"]),
    ("{term}`accuracy` is misleading.", "{term}`准确率 <accuracy>`会误导。", []),
    ("{term}`accuracy` is misleading.", "{term}`正确率 <accuracy>`会误导。", ["accuracy"]),
    ("Call `precision_score`.", "调用 `precision_score`。", []),
    ("The word 精度 is ambiguous.", "精度一词有歧义。", []),
])
def test_glossary_terms_are_enforced(english, chinese, expected):
    found = term_problems(english, chinese)
    assert len(found) == len(expected), found
    for problem, word in zip(found, expected):
        assert word in problem


@pytest.mark.parametrize("english, chinese, expected", [
    ("Use `np.bincount` on **all** 101 classes.", "对**全部** 101 个类别使用 `np.bincount`。", None),
    ("Use `np.bincount` on **all** 101 classes.", "对**全部** 100 个类别使用 `np.bincount`。", "kept pieces"),
    ("Use `np.bincount` on **all** 101 classes.", "对全部 101 个类别使用 np.bincount。", "kept pieces"),
    ("A **“quoted” word** here and there.", "这里那里有一个**“引号”**词。", "markdown structure"),
    ("See $x^2$ and [the docs](https://example.org).", "见 $x^2$ 和[文档](https://example.org)。", None),
    ("See $x^2$ and [the docs](https://example.org).", "见 $x^3$ 和[文档](https://example.org)。", "kept pieces"),
    ("Pass ``labels`` to :func:`f`.", "把 ``labels`` 传给 {func}`f`。", None),
    ("Pass ``labels`` to :func:`f`.", "把 ``labels`` 传给 :func:`f`。", "reST roles"),
    ("See `the docs <https://example.org>`_.", "见[文档](https://example.org)。", None),
    ("Pass the labels to the function.", "", "untranslated"),
    ("Pass the labels to the function.", "Pass the labels to the function.", "no Chinese"),
])
def test_structure_is_compared(english, chinese, expected):
    problems = i18n.entry_problems(english, chinese)
    if expected is None:
        assert problems == []
    else:
        assert any(expected in p for p in problems), problems


def test_rest_markup_is_written_as_myst():
    assert i18n.rst_to_myst("见 :func:`f` 和 `文档 <https://x.org>`_，格式如下::") == \
        "见 {func}`f` 和 [文档](https://x.org)，格式如下："


def test_template_strings_are_translated(templates):
    """Every string our templates mark with _() (the gettext build's sphinx.pot) is in sphinx.po."""
    po = polib.pofile(str(i18n.LOCALE / f"{i18n.INTERFACE_CATALOG}.po"))
    wanted = [e.msgid for e in polib.pofile(str(templates / f"{i18n.INTERFACE_CATALOG}.pot"))]
    assert wanted and all(po.find(m) is not None and po.find(m).msgstr for m in wanted), wanted


def test_interface_strings_are_translated():
    """Sphinx's and the theme's strings that their own zh_CN catalogs lack (sphinx.po), and every
    one of them is used by a template or by Sphinx (no dead entries)."""
    po = polib.pofile(str(i18n.LOCALE / f"{i18n.INTERFACE_CATALOG}.po"))
    assert len(po) >= 8 and all(e.msgstr and "fuzzy" not in e.flags for e in po)
    sources = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "book" / "_templates").glob("*.html"))
    for label in ("Toggle primary sidebar", "Toggle secondary sidebar", "Main"):
        assert f'_("{label}")' in sources and po.find(label) is not None


def test_glossary_term_lines_stay_english_on_the_glossary_page():
    assert "confusion matrix" in i18n.glossary_terms()
    assert i18n.entry_problems("confusion matrix", "confusion matrix", "book/glossary") == []
    assert i18n.entry_problems("confusion matrix", "混淆矩阵", "book/glossary")
