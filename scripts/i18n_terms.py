"""The glossary's core terms, as the Chinese edition must render them (book/glossary.md).

Each rule: an English pattern (searched in the English prose, code and maths cut out, the display
text of roles kept), the Chinese that every translation of such a message must contain, and
English phrasings that are not the term (the verb "recall", "double precision").  Separately, the
ambiguous 精度 is refused everywhere except in the fixed phrases that do not mean a metric
(平均精度 for average precision, 单精度/双精度 for number formats), and the misspelling 阀值 and the
association-rule 支持度 are refused.

One term per concept (the Chinese edition's review, issue 22): 正类/反类 for the positive/negative
class and 正例/反例 for positive/negative samples (Zhou Zhihua's convention, which 真正例/假反例
follow), never 负类/负样本/正样本; F1 值 and Fβ 值, never F1 分数, F-β 分数 or an English
"F-beta"; 物体 for a detected object (目标检测 stays the field's name); 最大概率类别 for the
top-label view of calibration, never 最高标签.
"""

from __future__ import annotations

import hashlib
import re

#: "object" in senses that are not a detected object: the field, a Python object, OKS ...
OBJECT_NOT_DETECTED = (
    r"\bobject[- ]detect\w*|\bobject keypoint similarity\b|\bmetric objects?\b|"
    r"\bobject arrays?\b|\barrays? of objects\b|\bhuman-object\b|"
    r"\bobject interaction\b|\b(Python|callable|file|array-like|dict|"
    r"NumPy|result|report) objects?\b|`\s*objects?\b|\bobject dtype\b"
)

# (English term, English pattern, required Chinese pattern, English exceptions)
CORE_TERMS: list[tuple[str, str, str, str | None]] = [
    ("positive class", r"\bpositive[- ]class(es)?\b", r"正类", None),
    ("negative class", r"\bnegative[- ]class(es)?\b", r"反类", None),
    ("positives", r"\bpositives\b", r"正例", None),
    ("negatives", r"\bnegatives\b", r"反例", None),
    ("F1 score", r"\bF1[- ]scores?\b", r"F1 值", None),
    ("F-beta", r"(?-i:\bF-beta\b|Fβ|F-β)", r"Fβ", None),
    ("top-label", r"\btop-label\b", r"最大概率类别", None),
    ("object", r"\bobjects?\b", r"物体", OBJECT_NOT_DETECTED),
    ("accuracy", r"\baccurac(y|ies)\b", r"准确率", r"\brelative accuracy\b"),
    (
        "precision",
        r"\bprecisions?\b",
        r"精确率",
        r"\b(average|mean average|double|single|half|floating[- ]point|float\d*|numeric(al)?|machine|"
        r"arbitrary|full|limited|finite)[- ]precision\b|\bprecision (of float|loss)",
    ),
    ("average precision", r"\baverage precision\b", r"平均精度", None),
    ("recall", r"\brecalls?\b", r"召回率", r"\b[Rr]ecall (that|from|how|what|why|chapter)\b"),
    ("specificity", r"\bspecificit(y|ies)\b", r"特异度", None),
    ("sensitivity", r"\bsensitivity\b", r"灵敏度", r"\bsensitivity (analysis|to)\b"),
    ("confusion matrix", r"\bconfusion[- ]matri(x|ces)\b", r"混淆矩阵", None),
    ("threshold", r"\bthreshold(s|ed|ing)?\b", r"阈值", None),
    ("intersection over union", r"\bintersection[- ]over[- ]union\b", r"交并比", None),
    ("macro average", r"\bmacro[- ]?averag\w*", r"宏平均", None),
    ("micro average", r"\bmicro[- ]?averag\w*", r"微平均", None),
    ("weighted average", r"\bweighted[- ]averag\w*", r"加权平均", None),
    ("true positive", r"\btrue[- ]positives?\b", r"真正例", None),
    ("false positive", r"\bfalse[- ]positives?\b", r"假正例", None),
    ("false negative", r"\bfalse[- ]negatives?\b", r"假反例", None),
    ("true negative", r"\btrue[- ]negatives?\b", r"真反例", None),
    ("calibration", r"\bcalibrat(ion|ed|e|ing)\b", r"校准", None),
    ("confidence interval", r"\bconfidence intervals?\b", r"置信区间", None),
    ("harmonic mean", r"\bharmonic mean\b", r"调和平均", None),
    ("mean average precision", r"\bmean average precision\b", r"平均精度均值", None),
    ("class imbalance", r"\bimbalance(d)?\b", r"不平衡", None),
    ("operating point", r"\boperating points?\b", r"工作点", None),
    ("expected calibration error", r"\bexpected calibration error\b", r"期望校准误差", None),
    ("reliability diagram", r"\breliability diagrams?\b", r"可靠性图", None),
    ("log loss", r"\blog[- ]loss\b", r"对数损失", None),
    ("multilabel", r"\bmulti-?label\b", r"多标签", None),
    ("non-maximum suppression", r"\bnon-maximum suppression\b", r"非极大值抑制", None),
    ("Hamming loss", r"\bHamming loss\b", r"汉明损失", None),
    ("prevalence", r"\bprevalences?\b", r"正类比例|患病率|流行率", None),
]

#: Chinese that is never right here, and the fixed phrases that contain it but are right.  A
#: message whose English quotes the forbidden Chinese itself (the glossary's "Also F1 分数") is
#: not checked for it.
FORBIDDEN = [
    (
        "精度 (ambiguous: precision, accuracy or number format)",
        r"精度",
        r"平均精度|单精度|双精度|半精度|浮点精度|数值精度|机器精度|计算精度|定位精度",
    ),
    ("阀值 (a misspelling of 阈值)", r"阀值", None),
    ("支持度 (association-rule support; the class count is 支持数)", r"支持度", None),
    ("负类 (the negative class is 反类)", r"负类", None),
    ("负样本/负例 (negative samples are 反例)", r"负样本|负例", None),
    ("正样本 (positive samples are 正例)", r"正样本", None),
    ("F1 分数 (the glossary's term is F1 值)", r"F1 ?分数", None),
    ("Fβ 分数 (the glossary's term is Fβ 值)", r"F[-_]?β ?分数", None),
    ("最高标签 (top-label is 最大概率类别)", r"最高标签", None),
    (
        "发生率 (that is incidence; prevalence is 患病率, or 正类比例 outside medicine)",
        r"发生率",
        None,
    ),
    (
        "紧致 (a skin-care word: a tight box is 贴合的框 or 最小外接框, a tight detector "
        "定位精准的检测器)",
        r"紧致",
        None,
    ),
]

#: English left in the Chinese prose where the glossary has a Chinese term (checked whatever the
#: English says), and the forms that may keep it: a gloss in brackets after the Chinese term.
ENGLISH_LEFT_IN = [
    ("F-beta (write Fβ)", r"F-beta|F-β", r"（F-beta[^）]*）"),
    (
        "top-label (write 最大概率类别; the English may follow it once, in brackets)",
        r"top-label",
        r"最大概率类别（top-label）",
    ),
]

#: When the English names a detected object, the Chinese says 物体, not 目标 (except in 目标检测,
#: the field's name, the COCO term 目标关键点相似度 (OKS), and 目标值, the label array).
OBJECT_NOT_DETECTED_ZH = r"目标(?!检测|关键点相似度|值)"

#: Messages where an English core word does not mean the metric: (message id, term) -> the sense.
NOT_THE_METRIC = {
    ("7193c3d33f", "precision"): "the numeric precision of float32 (chapter 6b)",
    ("771d75b6f9", "precision"): "how precisely an annotator places a joint (chapter 7c)",
    ("dc163d016a", "object"): "Python objects re-exported by a module (API plots)",
    ("7a26d40dc6", "object"): "the same Python object as in another module (API plots)",
    ("6ae8b84ee4", "object"): "the same Python object as in another module (API plots)",
    ("d4975a0c98", "object"): "the same Python object as in another module (API plots)",
    ("1d0dc9a84f", "object"): "NumPy's object dtype (parity page)",
    ("e980c350cd", "object"): "the Python objects json.loads returns (API detection)",
    ("09b8cdfcb3", "object"): "the Python objects json.loads returns (parity page)",
}

_CODE = re.compile(r"``.+?``|(?<![`}:])`[^`]+`(?!`)|\$\$.+?\$\$|\$[^$\n]+?\$|https?://\S+", re.S)
_ROLE = re.compile(r"(?:\{(?P<a>[a-z:+-]+)\}|:(?P<b>[a-z:+-]+):)`(?P<text>[^`<]*?)(?:\s*<[^>]*>)?`")
#: Roles whose display text is prose (the others show code: func, mod, class ...).
_PROSE_ROLES = {"term", "doc", "ref", "numref", "std:term"}


def prose(text: str) -> str:
    """Text with prose roles replaced by their display text, and code, maths and URLs removed."""

    def keep(m: re.Match) -> str:
        return f" {m['text']} " if (m["a"] or m["b"]) in _PROSE_ROLES else " "

    return _CODE.sub(" ", _ROLE.sub(keep, text))


def term_problems(msgid: str, msgstr: str) -> list[str]:
    """Core terms of ``msgid`` missing from ``msgstr``, and forbidden Chinese found in it."""
    english, chinese = prose(msgid), prose(msgstr)
    key = hashlib.sha1(msgid.encode("utf-8")).hexdigest()[:10]
    problems = []
    for name, pattern, required, exceptions in CORE_TERMS:
        if (key, name) in NOT_THE_METRIC:
            continue
        hits = [m for m in re.finditer(pattern, english, re.I)]
        if exceptions:
            spans = [m.span() for m in re.finditer(exceptions, english, re.I)]
            hits = [m for m in hits if not any(a <= m.start() < b for a, b in spans)]
        if hits and not re.search(required, chinese):
            problems.append(f"term {name!r}: the translation should use {required}")
        if name == "object" and hits and re.search(OBJECT_NOT_DETECTED_ZH, chinese):
            problems.append("term 'object': a detected object is 物体, not 目标 (目标检测 stays)")
    for name, pattern, allowed in FORBIDDEN:
        if re.search(pattern, msgid):
            continue  # the English text itself discusses the word
        rest = re.sub(allowed, "", chinese) if allowed else chinese
        if re.search(pattern, rest):
            problems.append(f"forbidden {name}")
    for name, pattern, allowed in ENGLISH_LEFT_IN:
        rest = re.sub(allowed, "", chinese) if allowed else chinese
        if re.search(pattern, rest):
            problems.append(f"English left in: {name}")
    return problems
