"""``mltutor.detection._temporal_errors``: the DETAD-style breakdown of temporal detections.

The vectorised module is compared with a slow, obvious reading of its documented rules (a loop
over predictions in score order), on hand cases and on random timelines.
"""

from __future__ import annotations

import numpy as np
import pytest

from mltutor.detection._temporal_errors import ERROR_KINDS, temporal_error_breakdown


def _layout(gt_rows, pred_rows):
    gt = {"database": {}}
    for v, s, e, label in gt_rows:
        gt["database"].setdefault(v, {"annotations": []})["annotations"].append(
            {"segment": [s, e], "label": label}
        )
    pred = {"results": {}}
    for v, s, e, label, score in pred_rows:
        pred["results"].setdefault(v, []).append(
            {"segment": [s, e], "label": label, "score": score}
        )
    return gt, pred


def _tiou(a, b):
    inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    return inter / ((a[1] - a[0]) + (b[1] - b[0]) - inter)


def _ap(hits, n_pos):
    """All-point AP (VOC2010+), written out."""
    if not hits:
        return 0.0
    tp = np.cumsum(hits)
    rec = np.r_[0.0, tp / n_pos, 1.0]
    prec = np.r_[0.0, tp / np.arange(1, len(hits) + 1), 0.0]
    for i in range(len(prec) - 2, -1, -1):
        prec[i] = max(prec[i], prec[i + 1])
    idx = np.flatnonzero(rec[1:] != rec[:-1]) + 1
    return float(np.sum((rec[idx] - rec[idx - 1]) * prec[idx]))


def slow_breakdown(gt_rows, pred_rows, alpha=0.5, beta=0.1):
    """Predictions in input order: (video, s, e, label, score); returns causes and mAP."""
    order = sorted(range(len(pred_rows)), key=lambda i: (-pred_rows[i][4], -i))
    taken, tp = set(), {}
    for i in order:
        v, s, e, label, _ = pred_rows[i]
        best, best_j = -1.0, None
        for j, (gv, gs, ge, gl) in enumerate(gt_rows):
            if gv == v and gl == label and j not in taken:
                t = _tiou((s, e), (gs, ge))
                if t >= alpha and t >= best:  # a tie goes to the later segment
                    best, best_j = t, j
        tp[i] = best_j is not None
        if best_j is not None:
            taken.add(best_j)
    causes = []
    for i, (v, s, e, label, _) in enumerate(pred_rows):
        same = [_tiou((s, e), (g[1], g[2])) for g in gt_rows if g[0] == v and g[3] == label]
        other = [_tiou((s, e), (g[1], g[2])) for g in gt_rows if g[0] == v and g[3] != label]
        t_same, t_other = max(same, default=0.0), max(other, default=0.0)
        if tp[i]:
            causes.append("true_positive")
        elif t_same >= alpha:
            causes.append("double")
        elif t_other >= alpha:
            causes.append("wrong_label")
        elif t_same >= beta:
            causes.append("localization")
        elif t_other >= beta:
            causes.append("confusion")
        else:
            causes.append("background")

    def mean_ap(keep, n_pos_of):
        aps = []
        for label in sorted({g[3] for g in gt_rows}):
            n_pos = n_pos_of(label)
            if n_pos == 0:
                continue
            hits = [tp[i] for i in order if pred_rows[i][3] == label and keep(i)]
            aps.append(_ap(hits, n_pos))
        return float(np.mean(aps)) if aps else 0.0

    def n_pos(label):
        return sum(g[3] == label for g in gt_rows)

    base = mean_ap(lambda i: True, n_pos)
    delta = {k: mean_ap(lambda i, k=k: causes[i] != k, n_pos) - base for k in ERROR_KINDS}
    n_found = {}
    for i in order:
        if tp[i]:
            n_found[pred_rows[i][3]] = n_found.get(pred_rows[i][3], 0) + 1
    delta["missed"] = (
        mean_ap(lambda i: True, lambda lab: n_found.get(lab, 0)) - base if any(tp.values()) else 0.0
    )
    return causes, base, delta


def test_each_kind_by_hand():
    gt, pred = _layout(
        [("a", 10, 20, "Diving"), ("a", 40, 50, "Shotput")],
        [
            ("a", 10, 20, "Diving", 0.9),  # hit
            ("a", 10, 21, "Diving", 0.8),  # a second hit on the same action
            ("a", 40, 50, "Diving", 0.7),  # right place, wrong label
            ("a", 10, 14, "Diving", 0.6),  # tIoU 0.4 with its own action
            ("a", 42, 44, "Diving", 0.5),  # tIoU 0.2 with another label's action
            ("a", 80, 90, "Diving", 0.4),  # nowhere near anything
            ("a", 40, 50, "Shotput", 0.3),
        ],
    )  # hit
    out = temporal_error_breakdown(gt, pred)
    assert out.cause.tolist() == [
        "true_positive",
        "double",
        "wrong_label",
        "localization",
        "confusion",
        "background",
        "true_positive",
    ]
    assert out.counts["true_positive"] == 2 and sum(out.counts.values()) == 7
    assert out.map == pytest.approx(1.0)


def test_missed_short_actions_are_counted_by_length():
    gt, pred = _layout(
        [("a", 0, 1, "Diving"), ("a", 10, 20, "Diving"), ("b", 5, 9, "Diving")],
        [("a", 10, 20, "Diving", 0.9)],
    )
    out = temporal_error_breakdown(gt, pred, length_bins=(0, 3, 6, np.inf))
    assert out.missed_by_length == [(0.0, 3.0, 1, 1), (3.0, 6.0, 1, 1), (6.0, np.inf, 1, 0)]
    assert out.map == pytest.approx(1 / 3)
    assert out.delta_map["missed"] == pytest.approx(1 - 1 / 3)


def _random_case(rng):
    labels = ["BaseballPitch", "Diving", "Shotput"][: rng.integers(1, 4)]
    gt_rows, pred_rows = [], []
    for v in range(rng.integers(1, 4)):
        for _ in range(rng.integers(0, 5)):
            s = float(rng.integers(0, 40))
            gt_rows.append((f"v{v}", s, s + float(rng.integers(1, 8)), str(rng.choice(labels))))
        for _ in range(rng.integers(0, 8)):
            s = float(rng.integers(0, 40))
            pred_rows.append(
                (
                    f"v{v}",
                    s,
                    s + float(rng.integers(1, 8)),
                    str(rng.choice(labels)),
                    float(rng.integers(0, 5)) / 4,
                )
            )
    if not gt_rows:
        gt_rows.append(("v0", 1.0, 2.0, labels[0]))
    return gt_rows, pred_rows


@pytest.mark.parametrize("seed", range(300))
def test_matches_the_slow_reading_of_the_rules(seed):
    rng = np.random.default_rng(seed)
    gt_rows, pred_rows = _random_case(rng)
    alpha = float(rng.choice([0.3, 0.5, 0.7]))
    gt, pred = _layout(gt_rows, pred_rows)
    out = temporal_error_breakdown(gt, pred, tiou_threshold=alpha)
    causes, base, delta = slow_breakdown(gt_rows, pred_rows, alpha)
    assert out.cause.tolist() == causes
    assert out.map == pytest.approx(base, abs=1e-12)
    for k, v in delta.items():
        assert out.delta_map[k] == pytest.approx(v, abs=1e-12), k
        assert out.delta_map[k] >= -1e-12


def test_agrees_with_evaluate_activitynet_at_one_threshold():
    temporal = pytest.importorskip("mltutor.detection.temporal")
    rng = np.random.default_rng(5)
    for _ in range(200):
        gt_rows, pred_rows = _random_case(rng)
        known = {g[3] for g in gt_rows}
        pred_rows = [r for r in pred_rows if r[3] in known]  # ActivityNet refuses the others
        gt, pred = _layout(gt_rows, pred_rows)
        out = temporal_error_breakdown(gt, pred, tiou_threshold=0.5)
        ref = temporal.evaluate_activitynet(gt, pred, tiou_thresholds=[0.5])
        assert out.map == pytest.approx(float(ref.map), abs=1e-12)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"tiou_threshold": 0.05}, "background_tiou < tiou_threshold"),
        ({"background_tiou": 0.0}, "0 < background_tiou"),
        ({"tiou_threshold": True}, "must be a number"),
        ({"length_bins": (3, 1)}, "length_bins"),
    ],
)
def test_bad_arguments(kwargs, match):
    gt, pred = _layout([("a", 0, 1, "Diving")], [("a", 0, 1, "Diving", 1.0)])
    with pytest.raises((TypeError, ValueError), match=match):
        temporal_error_breakdown(gt, pred, **kwargs)
