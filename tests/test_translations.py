"""The Chinese edition can never silently fall behind the English (issue 17).

The message catalogs in ``locales/zh_CN/LC_MESSAGES/`` must hold, for every prose message the
sources produce *now*, a translation that is not fuzzy; and every translation must keep its
English's code, maths, link and cross-reference targets, emphasis and numbers, and use the
glossary's preferred terms (``scripts/i18n.py``, ``scripts/i18n_terms.py``).  Editing English
prose without ``make gettext`` and a translation fails here.
"""

from __future__ import annotations

import importlib.util
import re
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
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "build_book.py"),
            "gettext",
            "--quiet",
            "--out",
            str(out / "pot"),
            "--doctrees",
            str(out / "doctrees"),
        ],
        check=True,
        cwd=ROOT,
    )
    return out / "pot"


def test_every_current_message_has_a_translation(templates):
    catalogs = i18n.catalogs()
    problems = []
    pages = sorted(
        str(p.relative_to(templates).with_suffix(""))
        for p in templates.rglob("*.pot")
        if p.stem != i18n.INTERFACE_CATALOG
    )
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
                problems.append(
                    f"{page}: new English, not in the catalog (make gettext): "
                    f"{template.msgid[:70]!r}"
                )
            elif not entry.msgstr:
                problems.append(f"{page}: untranslated: {template.msgid[:70]!r}")
            elif "fuzzy" in entry.flags:
                problems.append(f"{page}: fuzzy (English changed): {template.msgid[:70]!r}")
        problems += [
            f"{page}: stale message, gone from the English (make gettext): {m[:70]!r}"
            for m in entries
        ]
    problems += [
        f"{page}: catalog of a page that is not in the book"
        for page in catalogs
        if page not in pages
    ]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_every_translation_keeps_code_maths_numbers_and_terms():
    problems = i18n.all_problems()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_the_translation_is_complete_and_counted():
    entries = [e for po in i18n.catalogs().values() for e in po if not e.obsolete]
    assert len(entries) > 3000
    assert all(e.msgstr and "fuzzy" not in e.flags for e in entries)


@pytest.mark.parametrize(
    "english, chinese, expected",
    [
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
        # One term per concept (issue 22): negative class, F1/Fβ, object, top-label.
        ("The recall of the negative class.", "反类的召回率。", []),
        ("The recall of the negative class.", "负类的召回率。", ["negative class", "负类"]),
        ("Two negatives among the positives.", "正例之间的两个反例。", []),
        (
            "Two negatives among the positives.",
            "正样本之间的两个负样本。",
            ["positives", "negatives", "负样本", "正样本"],
        ),
        ("The F1 score of each class.", "每个类别的 F1 值。", []),
        ("The F1 score of each class.", "每个类别的 F1 分数。", ["F1 score", "F1 分数"]),
        ("The best F-beta threshold.", "最佳 Fβ 阈值。", []),
        ("The best F-beta threshold.", "最佳 F-beta 阈值。", ["F-beta", "F-beta"]),
        ("The top-label ECE.", "最大概率类别（top-label）ECE。", []),
        ("The top-label ECE.", "top-label ECE。", ["top-label", "top-label"]),
        ("The top-label ECE.", "最高标签 ECE。", ["top-label", "最高标签"]),
        ("A duplicate of the same object.", "对同一物体的重复检测。", []),
        ("A duplicate of the same object.", "对同一目标的重复检测。", ["物体", "目标"]),
        ("Object detection benchmarks.", "目标检测基准。", []),
        ("A disease that affects 1 in 1,000.", "某疾病的发生率为 1/1,000。", ["发生率"]),
        ("A tight box.", "一个紧致的框。", ["紧致"]),
    ],
)
def test_glossary_terms_are_enforced(english, chinese, expected):
    found = term_problems(english, chinese)
    assert len(found) == len(expected), found
    for problem, word in zip(found, expected):
        assert word in problem


@pytest.mark.parametrize(
    "english, chinese, expected",
    [
        (
            "Use `np.bincount` on **all** 101 classes.",
            "对**全部** 101 个类别使用 `np.bincount`。",
            None,
        ),
        (
            "Use `np.bincount` on **all** 101 classes.",
            "对**全部** 100 个类别使用 `np.bincount`。",
            "kept pieces",
        ),
        (
            "Use `np.bincount` on **all** 101 classes.",
            "对全部 101 个类别使用 np.bincount。",
            "kept pieces",
        ),
        (
            "A **“quoted” word** here and there.",
            "这里那里有一个**“引号”**词。",
            "markdown structure",
        ),
        (
            "See $x^2$ and [the docs](https://example.org).",
            "见 $x^2$ 和[文档](https://example.org)。",
            None,
        ),
        (
            "See $x^2$ and [the docs](https://example.org).",
            "见 $x^3$ 和[文档](https://example.org)。",
            "kept pieces",
        ),
        ("Pass ``labels`` to :func:`f`.", "把 ``labels`` 传给 {func}`f`。", None),
        ("Pass ``labels`` to :func:`f`.", "把 ``labels`` 传给 :func:`f`。", "reST roles"),
        ("See `the docs <https://example.org>`_.", "见[文档](https://example.org)。", None),
        ("Pass the labels to the function.", "", "untranslated"),
        ("Pass the labels to the function.", "Pass the labels to the function.", "no Chinese"),
    ],
)
def test_structure_is_compared(english, chinese, expected):
    problems = i18n.entry_problems(english, chinese)
    if expected is None:
        assert problems == []
    else:
        assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    "chinese, broken",
    [
        ("它对*任何* 101 类模型都报告 0.98，见[第 1 章](01.ipynb)。", None),
        ("它对 *任何* 101 类模型都报告 0.98。", "between Chinese characters"),
        ("见 [第 1 章](01.ipynb) 的表。", "between Chinese characters"),
        (
            "读作{term}`召回率 <recall>`，而不是 {term}`准确率 <accuracy>` 。",
            "full-width punctuation",
        ),
        ("（ `labels` ）", "full-width punctuation"),
        ("调用`f`。", "no space"),
        ("第6b章", "no space"),
        ("**在测试集上调参。** 阈值要在验证数据上选择。", "full-width punctuation"),
        ("**在测试集上调参**。阈值要在验证数据上选择。", None),
        # The markup needs this space: "**" followed by a role opens bold only after a space.
        ("计算 **{term}`马修斯相关系数 <MCC>`** 和它的区间。", None),
        ("TN<sub>k</sub> 是其余的一切。", None),
    ],
)
def test_one_spacing_convention(chinese, broken):
    problems = i18n.spacing_problems(chinese)
    if broken is None:
        assert problems == []
    else:
        assert problems and any(broken in p for p in problems), problems


@pytest.mark.parametrize(
    "chinese, fixed",
    [
        ("它对 *任何* 101 类模型。", "它对*任何* 101 类模型。"),
        ("见 [第 1 章](01.ipynb) 的表 ；", "见[第 1 章](01.ipynb)的表；"),
        ("（ {func}`f` ）", "（{func}`f`）"),
        ("**在测试集上调参。** 阈值", "**在测试集上调参**。阈值"),
        (
            "用{term}`F1 值 <F1 score>`比较",
            "用 {term}`F1 值 <F1 score>`比较",
        ),  # 值 and 比: no space
    ],
)
def test_spacing_is_fixed_without_changing_the_markup(chinese, fixed):
    assert i18n.fix_spacing(chinese) == fixed
    assert i18n.spacing_problems(fixed) == []


@pytest.mark.parametrize(
    "english, chinese, expected",
    [
        ("\\text{accuracy} = \\frac{TP + TN}{N}", "\\text{准确率} = \\frac{TP + TN}{N}", None),
        (
            "\\text{accuracy} = \\frac{TP + TN}{N}",
            "\\text{accuracy} = \\frac{TP + TN}{N}",
            "English inside",
        ),
        (
            "\\text{accuracy} = \\frac{TP + TN}{N}",
            "\\text{准确率} = \\frac{TP + FN}{N}",
            "differ outside",
        ),
        ("\\text{accuracy} = \\frac{TP + TN}{N}", "\\text{精度} = \\frac{TP + TN}{N}", "准确率"),
        (
            "P@k = \\#\\{\\text{relevant documents among the top } k\\}",
            "P@k = \\#\\{\\text{前 } k \\text{ 个结果中的相关文档}\\}",
            None,
        ),
        ("p_{\\text{interp}}(r) = \\max p", "p_{\\text{interp}}(r) = \\max p", None),
        ("\\text{BA}_\\text{adjusted} = 1", "\\text{AB}_\\text{调整后} = 1", "neither"),
    ],
)
def test_words_in_display_maths_are_translated(english, chinese, expected):
    assert not i18n.is_prose(english)
    problems = i18n.entry_problems(english, chinese)
    if expected is None:
        assert problems == []
    else:
        assert any(expected in p for p in problems), problems


def test_inline_maths_keeps_all_but_its_words():
    english = "Summing gives $\\text{buggy} = 1 - 2(1 - \\text{accuracy}) / C$ for any model."
    good = "求和得到 $\\text{有误版本} = 1 - 2(1 - \\text{准确率}) / C$，对任何模型都如此。"
    assert i18n.entry_problems(english, good) == []
    assert any(
        "English inside" in p
        for p in i18n.entry_problems(english, good.replace("有误版本", "buggy"))
    )
    assert any("kept pieces" in p for p in i18n.entry_problems(english, good.replace("/ C", "/ N")))


def test_display_maths_with_words_carries_a_translation():
    assert not i18n.kept_verbatim("book/02_accuracy_trap", "\n\\text{for two classes}\\quad x\n")
    assert i18n.kept_verbatim("book/07_map_detection", "\np_{\\text{interp}}(r)\n")
    assert i18n.kept_verbatim("book/02_accuracy_trap", "\n\\text{MCC} = \\frac{a}{b}\n")


def test_myth_titles_of_the_index_equal_their_boxes():
    """The Myths index quotes every box's title: in Chinese too, the same words."""
    boxes = i18n.myth_boxes()
    assert len(boxes) >= 20 and all(title for title in boxes.values())
    assert i18n.myth_title_problems() == []


def test_translated_display_maths_reaches_the_page(tmp_path):
    """Sphinx alone would turn a translated maths block of a MyST page into \\[::\\]; the book's
    extension (book/_ext/mltutor_site.py, item 5) puts the translated LaTeX in place."""
    src = tmp_path / "src"
    (src / "locales" / "zh_CN" / "LC_MESSAGES").mkdir(parents=True)
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'mltutor_site']\nmyst_enable_extensions = ['dollarmath']\n"
        "locale_dirs = ['locales']\nhtml_theme = 'basic'\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text(
        "# T\n\n$$\n\\text{accuracy} = \\frac{1}{N}\n$$\n", encoding="utf-8"
    )
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(
        polib.POEntry(
            msgid="\n\\text{accuracy} = \\frac{1}{N}\n", msgstr="\n\\text{准确率} = \\frac{1}{N}\n"
        )
    )
    po.save_as_mofile(str(src / "locales" / "zh_CN" / "LC_MESSAGES" / "index.mo"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-q",
            "-D",
            "language=zh_CN",
            str(src),
            str(tmp_path / "html"),
        ],
        check=True,
        cwd=tmp_path,
        capture_output=True,
    )
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "\\text{准确率} = \\frac{1}{N}" in page and "\\[::\\]" not in page


def test_chinese_emphasis_is_upright():
    """No faux italic on the Chinese pages (<html lang="zh-CN">): emphasis dots instead."""
    css = (ROOT / "book" / "_static" / "mltutor.css").read_text(encoding="utf-8")
    rule = re.search(r":lang\(zh\) em \{(.*?)\}", css, re.S)
    assert rule and "font-style: normal" in rule[1] and "text-emphasis: filled dot" in rule[1]


def test_rest_markup_is_written_as_myst():
    assert (
        i18n.rst_to_myst("见 :func:`f` 和 `文档 <https://x.org>`_，格式如下::")
        == "见 {func}`f` 和 [文档](https://x.org)，格式如下："
    )


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
    sources = "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "book" / "_templates").glob("*.html")
    )
    for label in ("Toggle primary sidebar", "Toggle secondary sidebar", "Main"):
        assert f'_("{label}")' in sources and po.find(label) is not None


def test_glossary_term_lines_stay_english_on_the_glossary_page():
    assert "confusion matrix" in i18n.glossary_terms()
    assert i18n.entry_problems("confusion matrix", "confusion matrix", "book/glossary") == []
    assert i18n.entry_problems("confusion matrix", "混淆矩阵", "book/glossary")
