"""Write alt text for the figures of the book's notebooks into their code cells' metadata.

myst-nb reads ``cell.metadata.mystnb.image.alt`` and puts it on the ``<img>`` of every image
the cell outputs; without it the alt text is the image's file name, which a screen reader
reads out as a hash. tests/test_accessibility.py checks that every figure in the built book
has real alt text; this script records the texts, so re-running it is safe.

It touches nothing but the metadata of the listed cells (found by cell id, or by a piece of
their source for notebooks regenerated with fresh ids), re-reads each
notebook right before writing it, and refuses to write a notebook whose JSON it would not
reproduce byte for byte (nbformat's layout: indent=1, sorted keys, ensure_ascii=False, final newline).

    python scripts/set_figure_alt_text.py            # write
    python scripts/set_figure_alt_text.py book/02_accuracy_trap.ipynb   # only that notebook
    python scripts/set_figure_alt_text.py --check    # list figure cells still without alt text
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ALT_TEXT: dict[str, dict[str, str]] = {
    "book/01_confusion_matrix.ipynb": {
        "f482f755": "Two heat maps of the same four-class camera-trap confusion matrix (400 "
        "photos), true animal on the rows and predicted animal on the columns. The left one "
        "divides each row by its total, so the diagonal reads as recall per animal; the right "
        "one divides each column by its total, so the diagonal reads as precision per animal.",
        "b5b68256": "The same simulated 101-class confusion matrix drawn twice. On a linear "
        "colour scale only the bright diagonal is visible and the off-diagonal mistakes look "
        "empty; on a log colour scale the scattered confusions between classes become visible.",
    },
    "book/02_accuracy_trap.ipynb": {
        "0ac7b555": "Bar chart of the factory parts training half: one very tall bar for good "
        "parts and one tiny bar for defective parts, each labelled with its count and its "
        "share, about 98 % against 2 %.",
        "010dcc2c": "Two bar charts of clips per class, classes sorted from largest to smallest. "
        "Left, UCF101: the bars are nearly flat, every class holding roughly the same number "
        "of clips. Right, a hypothetical long tail with the same total: a few huge classes "
        "followed by a long run of tiny ones.",
    },
    "book/03_precision_recall.ipynb": {
        "280acd5f": "Two line charts of a threshold sweep over simulated cases with calibrated "
        "scores. Left: precision rises and recall falls as the threshold goes from 0 to 1, "
        "with F1 as a dashed curve peaking in between. Right: the counts of true positives, "
        "false positives, false negatives and true negatives against the same threshold.",
        "5f973011": "Line chart of the average cost per case against the threshold when a "
        "false negative costs nine times a false positive. The curve has its minimum near "
        "the dashed vertical line at C_FP / (C_FP + C_FN) = 0.1, well left of the default 0.5 "
        "and of the threshold where the two error totals are equal.",
        "65472004": "Three rows of paired plots for thresholds 0.1, 0.3 and 0.6. Each row shows "
        "the score distributions of the two true classes with the threshold drawn as a "
        "vertical line, titled with the resulting TP, FP and FN counts, beside the matching "
        "confusion matrix. Raising the threshold trades false positives for false negatives.",
    },
    "book/04_f1_fbeta.ipynb": {
        "24706d50": "Two square colour maps over precision (x axis) and recall (y axis), with "
        "contour lines every 0.1. The arithmetic mean has straight diagonal contours and gives "
        "the marked point precision 1, recall 0.01 a score near 0.5; F1, the harmonic mean, "
        "has contours that hug both axes and gives the same point a score near 0.02.",
        "c3c2f706": "Line chart of F-beta on validation data against the decision threshold "
        "for three values of beta, each with a dot at its maximum and a dotted vertical line "
        "at that threshold. Larger beta, which weights recall more, puts the best threshold "
        "further to the left.",
        "ca894aa5": "Two line charts of F1 against a bias added to every logit. Left: the hard "
        "F1 computed from decisions and the smooth soft F1 computed from expected counts "
        "follow each other. Right, zoomed in: the hard F1 is a staircase of flat steps, so its "
        "gradient is zero almost everywhere.",
    },
    "book/05_averaging.ipynb": {
        "48fb2ec8": "Grouped bar chart with two bars per class: the weight each class gets in "
        "a weighted average (its share of the samples) and in a macro average (one over the "
        "number of classes). The smallest class gets twice as much weight under macro as its "
        "sample share.",
        "e9ee19a7": "Line chart of validation F1 against the sigmoid threshold, one curve per "
        "tag, each with a circle at its own best threshold and a grey dashed line at the "
        "fixed threshold 0.5. The best thresholds differ from tag to tag and from 0.5.",
        "52c17aaf": "Dot plot of per-class F1 and of the macro, micro and weighted averages, "
        "each with a 95 % bootstrap interval as an error bar and the class support in "
        "brackets. The smallest class has by far the widest interval.",
    },
    "book/06_roc_pr.ipynb": {
        "ch06-010": "Two ROC curves, true positive rate against false positive rate. Left, ten "
        "patients: a staircase with one marked point per distinct score, from (0, 0) to "
        "(1, 1). Right, 1,000 patients, 500 sick and 500 healthy: a smooth curve bowing "
        "towards the top-left corner above the diagonal of chance.",
        "ch06-020": "ROC curves of two markers with their AUCs in the legend and the region of "
        "false positive rate up to 0.05 marked as the budget. The marker with the higher AUC "
        "catches fewer sick patients inside that budget: the curves cross.",
        "ch06-024": "Side by side, a ROC plot and a precision-recall plot of the same marker on "
        "a balanced population (solid) and on a population with 1 % prevalence (dashed). The "
        "two ROC curves lie on top of each other with the same AUC; the precision-recall curve "
        "and its AP fall sharply at 1 % prevalence, with the prevalence drawn as a baseline.",
        "ch06-035": "One-vs-rest ROC curves of four classes, labelled with their support and "
        "AUC, plus two averages: the macro curve (mean true positive rate, dashed) and the "
        "micro curve (all pairs pooled, dotted).",
        "ch06-037": "ROC curves of one random forest scored on its own training data and on a "
        "held-out test set. The training curve hugs the top-left corner with an AUC near 1; "
        "the test curve is clearly lower.",
        "ch06-i13-13": "Two panels drawn by scikit-learn's displays for the marker on the "
        "population with 1 % sick patients. Left: RocCurveDisplay, the ROC curve with its AUC "
        "in the legend and the dashed chance diagonal. Right: PrecisionRecallDisplay, the "
        "precision-recall staircase with its AP in the legend and a dashed horizontal chance "
        "line at the prevalence, close to zero.",
    },
    "book/06b_calibration_uncertainty.ipynb": {
        "ch06b-cci-04": "Reliability diagram of the binary model on 2,000 test samples, ten bins, "
        "mean predicted probability on the x axis and fraction of positives on the y axis, with "
        "a dashed diagonal for perfect calibration. Each bin's point carries a vertical 95 % "
        "interval bar. The Platt-calibrated points follow the diagonal, their bars mostly "
        "crossing it; the raw sigmoid's points stay near 0.1 to 0.2 up to a mean probability of "
        "0.85 and reach about 0.56 only in the last bin, far below the diagonal.",
        "c8b1bb28": "Exact coverage of three 95 % intervals for a proportion against the true rate p "
        "from 0 to 1, for a class of 20 samples. The dashed Wald curve is saw-toothed and "
        "falls far below the grey 0.95 line, towards 0 near p = 0 and p = 1. The solid "
        "Wilson curve oscillates around 0.95 but dips to about 0.84 in narrow spikes "
        "close to p = 0 and p = 1. The dotted Clopper-Pearson curve stays on or above "
        "0.95 everywhere, mostly well above it.",
        "ch06b-014": "Two panels on temperature scaling of an over-confident ten-class model. "
        "Left: validation log loss against the temperature T on a log axis, a single valley "
        "with its minimum at the fitted T marked by a dashed line. Right: top-label "
        "reliability diagrams on the test set before and after scaling, with their expected "
        "calibration errors; after scaling the points lie close to the diagonal.",
        "ch06b-023": "Binary reliability diagram on the test set with ten bins: observed "
        "fraction of positives against mean predicted probability for each model, labelled "
        "with its expected calibration error, and the diagonal of perfect calibration.",
        "ch06b-i13-04": "CalibrationDisplay reliability diagram on the test set with ten bins "
        "for the Platt (sigmoid) and isotonic maps fitted by scikit-learn's "
        "CalibratedClassifierCV: fraction of positives against mean predicted probability, "
        "both close to the dotted diagonal of perfect calibration.",
    },
    "book/06c_prediction_sets.ipynb": {
        "ch06c-015": "Three histograms, one per method (LAC, APS, randomised APS), of the "
        "coverage reached on each of 300 random calibration and test splits, with a dashed line "
        "at the promised 0.9 and a solid line at the mean. LAC and randomised APS spread from "
        "about 0.86 to 0.94 around a mean just above 0.9; plain APS sits near 0.997.",
        "ch06c-018": "Two grouped bar charts over the five insect classes for LAC, APS and "
        "randomised APS. Left: coverage of each true class, with a dashed line at 0.9; the four "
        "common insects are covered more than 90 % of the time by LAC and randomised APS, the "
        "rare earwig far less (about 0.37 and 0.52), while plain APS covers nearly everything. "
        "Right: mean set size per class, largest for the earwig, and three to four classes for "
        "plain APS.",
    },
    "book/07_map_detection.ipynb": {
        "adef6576": "Three panels, each drawing the same ground-truth box and one detection box "
        "shifted further to the side, with their overlap shaded and the IoU printed. The IoU "
        "drops quickly as the detection slides away from the object.",
        "30d8ad39": "One video frame in pixel coordinates, y pointing down: ground-truth boxes "
        "in solid green and labelled dashed detection boxes. Car 1 has two detections; the "
        "second, duplicate one is counted as a false positive.",
        "c827ff58": "Precision-recall curves at IoU 0.5, one panel per class: the raw precision "
        "as a thin grey zig-zag and its monotone envelope as a blue step line, with the area "
        "under the envelope shaded and the class AP50 in the title.",
        "11286cbc": "Bar chart of AP at IoU 0.5 for three classes, each bar labelled with its "
        "AP and its number of objects, with a dashed line at the mean AP and a second line at "
        "the object-weighted average. The mean gives each class one vote regardless of size.",
        "c419f4e9": "One precision-recall curve showing the raw precision points, the blue "
        "step envelope whose area is the all-point AP, and eleven red squares sampled at "
        "recall 0, 0.1, ..., 1 for the VOC2007 11-point AP; the title compares the two values.",
        "cfd6cc6b": "Line chart of AP averaged over classes against the IoU threshold from 0.5 "
        "to 0.95, one line per detector with its AP@[.5:.95] in the legend. The detector with "
        "loose boxes scores well at IoU 0.5 and collapses above 0.7.",
        "9c2a419d": "Line chart of F1 at IoU 0.5 against the confidence threshold from 0 to 1, "
        "one line per class (car, person, bicycle) with a dot at its best threshold and a "
        "dashed black line for the mean over classes. Cars stay highest, bicycles lowest; "
        "every curve falls towards 0 as the threshold approaches 1.",
        "98b74f09": "Heat map of a four-by-four detection confusion matrix on a log colour "
        "scale: true class (car, person, bicycle, background) on the rows, predicted class on "
        "the columns. The diagonal holds the matched objects, a few people are predicted as "
        "bicycles, the last column counts missed objects and the last row false alarms.",
    },
    "book/07b_retrieval.ipynb": {
        "e72ea874": "Line chart of precision@k and recall@k against the number of results "
        "read, k, for two queries (solid and dashed). Recall@k only ever rises in steps, while "
        "precision@k goes up and down as relevant and irrelevant results alternate.",
    },
    "book/07c_masks_keypoints_errors.ipynb": {
        # Found by a piece of their source: the chapter's cells may be regenerated.
        "A thin hose: box IoU": "A thin diagonal hose drawn as pixels: the object's mask in "
        "green, a detection shifted by 2.5 pixels across it in blue, their overlap in cyan, and "
        "the two nearly identical bounding boxes around them. The title reads box IoU 0.93 "
        "against mask IoU 0.34.",
        "The same 6-pixel error costs a hoof": "Line chart of the keypoint similarity against "
        "the distance from the labelled keypoint, from 0 to 15 pixels, for five cow joints. "
        "The curves for the nose and a hoof, with small sigmas, fall fast; those for the "
        "withers and the hip, with large sigmas, fall slowly. A dotted line marks 6 pixels.",
        "Why is AP low? The sloppy detector": "Horizontal bar chart of the AP50 gained by fixing "
        "one kind of error, for a sloppy and a tight detector side by side: classification, "
        "localisation, both, duplicate, background, missed, and below a line all false "
        "positives and all false negatives. The sloppy detector's longest bar is localisation "
        "(0.280), the tight detector's is missed (0.250).",
    },
    "book/08_ucf101_case_study.ipynb": {
        # This notebook is regenerated with fresh cell ids, so its cells are found by a piece
        # of their source (a figure title) instead.
        'ax.set_title("UCF101: clips per class (all 101 classes)")': "Histogram of clips per class "
        "over all 101 UCF101 classes, with a dashed "
        "line at the mean. Every class holds between roughly 100 and 170 clips, so the "
        "classes are close to balanced.",
        'title="Split 1 test set, 101 classes (log colour scale)"': "Confusion matrix of the split 1 "
        "test set, 101 classes by index, on a log "
        "colour scale: a strong diagonal of correct predictions with scattered, faint "
        "off-diagonal cells marking the pairs of actions the model confuses.",
    },
    "book/09_monitoring.ipynb": {
        # Found by a piece of its source (the figure title): the chapter may be regenerated.
        "Detection delay against false alarms": "Line chart of the median detection delay, in "
        "labelled predictions after the error rate rises from 0.15 to 0.20, against the "
        "false-alarm rate within 10,000 labels, for CUSUM thresholds from 2 to 14: a lower "
        "threshold gives a shorter delay and more false alarms. A square marks the threshold "
        "log(T/alpha), with no false alarm and a delay near 1,200; a cross marks the anytime "
        "monitor, with a false-alarm rate of 0.03 and a delay near 500.",
    },
    "book/appendix_training_loop.ipynb": {
        "a111b5b2": "Log-log chart of the error of binned AUC and binned AP against the number "
        "of thresholds T: solid lines for the error bound that compute() reports and dashed "
        "lines for the actual error, which always stays below its bound and shrinks as T "
        "grows.",
        "0a914003": "Two line charts over training epochs. Left: training and validation "
        "cross-entropy loss. Right: validation accuracy, weighted F1 and macro F1, all "
        "computed from one confusion count per epoch; macro F1 stays below the other two.",
    },
}


def _dump(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def figure_cells(nb: dict):
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and any(
            "image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
            for out in cell.get("outputs", [])
        ):
            yield cell


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list figure cells that would still lack alt text",
    )
    parser.add_argument(
        "notebooks", nargs="*", help="only these notebooks (paths relative to the repository root)"
    )
    args = parser.parse_args(argv)
    missing = []
    for rel, texts in ALT_TEXT.items():
        if args.notebooks and rel not in args.notebooks:
            continue
        path = ROOT / rel
        original = path.read_text(encoding="utf-8")  # re-read right before writing
        nb = json.loads(original)
        if _dump(json.loads(original)) != original:
            print(f"{rel}: not in the indent=1 / ensure_ascii=False layout; left alone")
            continue
        changed = 0
        found = set()
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            key = (
                cell.get("id")
                if cell.get("id") in texts
                else next((k for k in texts if len(k) > 12 and k in source), None)
            )
            if key is None:
                continue
            alt = texts[key]
            found.add(key)
            image = cell.setdefault("metadata", {}).setdefault("mystnb", {}).setdefault("image", {})
            if image.get("alt") != alt:
                image["alt"] = alt
                changed += 1
        for cell_id in sorted(set(texts) - found):
            print(f"{rel}: no code cell with id or source text {cell_id!r} (renamed?)")
        for cell in figure_cells(nb):
            if not cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt"):
                missing.append(f"{rel}: figure cell {cell.get('id')!r} has no alt text")
        if changed and not args.check:
            path.write_text(_dump(nb), encoding="utf-8")
            print(f"{rel}: alt text written for {changed} cell(s)")
    for book_nb in sorted((ROOT / "book").glob("*.ipynb")):
        rel = book_nb.relative_to(ROOT).as_posix()
        if rel not in ALT_TEXT and (not args.notebooks or rel in args.notebooks):
            for cell in figure_cells(json.loads(book_nb.read_text(encoding="utf-8"))):
                if not cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt"):
                    missing.append(f"{rel}: figure cell {cell.get('id')!r} has no alt text")
    for line in missing:
        print(line)
    return 1 if (missing and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
