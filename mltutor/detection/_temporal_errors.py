r"""What lowers temporal AP: a breakdown of temporal action detections, in the spirit of DETAD.

DETAD (Alwassel et al., ECCV 2018) sorts every false positive of a temporal action detector into
one of five kinds and asks how much average precision each kind costs.  This module does the same
at one tIoU threshold :math:`\alpha` (``tiou_threshold``) with a background threshold
:math:`\beta` (``background_tiou``, DETAD's 0.1), on ActivityNet's JSON layout.

Matching
--------
Within one video and one label, predictions are visited from the highest score down (among equal
scores the later prediction in input order first, the order
:func:`~mltutor.detection.temporal.evaluate_activitynet` uses); each takes the still-unmatched
ground-truth segment of the same label with the highest
tIoU, if that tIoU is :math:`\ge \alpha` (a tie in tIoU goes to the later segment in input order,
the rule of mltutor's matching kernel, :mod:`mltutor.detection` kernel 3).  A matched prediction
is a true positive.  AP is all-point interpolated AP over the predictions of each label, and mAP
the mean over the labels that have ground truth: :func:`mltutor.detection.temporal
.evaluate_activitynet` at the single threshold :math:`\alpha` (the test suite checks it).

The kinds of false positive
---------------------------
With :math:`t_=` the highest tIoU of a false positive with any ground truth of *its* label in its
video and :math:`t_\ne` the highest with ground truth of *another* label, the first rule that holds
decides:

1. ``"double"`` — :math:`t_= \ge \alpha`: the action was found by a higher-scored prediction;
2. ``"wrong_label"`` — :math:`t_\ne \ge \alpha`: right place, wrong label;
3. ``"localization"`` — :math:`\beta \le t_= < \alpha`: right label, badly placed;
4. ``"confusion"`` — :math:`\beta \le t_\ne < \alpha`: wrong label and badly placed;
5. ``"background"`` — every tIoU is below :math:`\beta`.

A ground-truth segment that no prediction matched is *missed*; ``missed_by_length`` counts them
by the segment's length, since short actions are the ones detectors tend to miss.

The cost of each kind
---------------------
``delta_map[kind]`` is the mAP after removing the false positives of that kind (and nothing else)
minus the mAP before; ``delta_map["missed"]`` removes the missed ground truth instead (perfect
recall on what was found; a label whose every segment was missed drops out of the mean, and if
nothing was found ΔmAP is 0).  Removing false positives never lowers a class's AP, so no ΔmAP is
negative; the ΔmAPs are not additive and need not sum to :math:`1 - \mathrm{mAP}`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from .._validation.params import check_scalar
from .._validation.temporal import parse_ground_truth, parse_predictions
from ._ap import interpolated_average_precision
from ._matching import greedy_match, group_pairs

__all__ = ["ERROR_KINDS", "TemporalErrorBreakdown", "temporal_error_breakdown"]

#: The kinds of false positive, in the order their rules are tried.
ERROR_KINDS = ("double", "wrong_label", "localization", "confusion", "background")


@dataclass(frozen=True)
class TemporalErrorBreakdown:
    """The result of :func:`temporal_error_breakdown`.

    Attributes
    ----------
    map : float
        mAP at ``tiou_threshold`` over the labels with ground truth.
    cause : ndarray of str, shape (n_predictions,)
        ``"true_positive"`` or one of :data:`ERROR_KINDS`, per prediction in input order (videos
        in the mapping's order, predictions in each list's order).
    counts : dict
        Number of predictions of each cause.
    delta_map : dict
        mAP gained by removing each kind of false positive, or the missed ground truth.
    missed_by_length : list of (low, high, n_ground_truth, n_missed)
        Ground-truth segments per length bin ``[low, high)`` in seconds, and how many were missed.
    """

    map: float
    cause: np.ndarray = field(repr=False)
    counts: dict
    delta_map: dict
    missed_by_length: list


def _tiou(s1, e1, s2, e2):
    inter = np.clip(np.minimum(e1, e2) - np.maximum(s1, s2), 0.0, None)
    return inter / ((e1 - s1) + (e2 - s2) - inter)


def _rank_in_group(group: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order by (group, score descending, reverse input order) and each rank inside its group."""
    order = np.lexsort((-np.arange(group.size), -score, group))
    g = group[order]
    first = np.r_[0, np.flatnonzero(g[1:] != g[:-1]) + 1] if g.size else np.zeros(0, np.int64)
    starts = np.repeat(first, np.diff(np.r_[first, g.size]))
    rank = np.empty(group.size, dtype=np.int64)
    rank[order] = np.arange(group.size) - starts
    return order, rank


def _mean_ap(cls, score, tp, n_pos, keep) -> float:
    """All-point AP per label with ground truth (n_pos > 0), averaged."""
    aps = []
    for c in np.flatnonzero(n_pos > 0):
        sel = np.flatnonzero((cls == c) & keep)
        sel = sel[np.lexsort((-sel, -score[sel]))]
        hits = np.cumsum(tp[sel])
        recall = hits / n_pos[c]
        precision = hits / np.arange(1, sel.size + 1)
        aps.append(interpolated_average_precision(recall, precision) if sel.size else 0.0)
    return float(np.mean(aps)) if aps else 0.0


def temporal_error_breakdown(
    ground_truth: Any,
    predictions: Any,
    *,
    tiou_threshold: float = 0.5,
    background_tiou: float = 0.1,
    length_bins: Any = (0.0, 3.0, 6.0, np.inf),
) -> TemporalErrorBreakdown:
    r"""Sort the false positives of temporal detections by cause and measure what each costs.

    .. math::
        \Delta\mathrm{mAP}_k = \mathrm{mAP}(\text{predictions without the false positives of kind
        } k) - \mathrm{mAP}(\text{predictions})

    Predictions are matched as by :func:`evaluate_activitynet` at the single threshold
    :math:`\alpha`.  Each false positive gets the first of these kinds that fits: ``"double"``
    (tIoU :math:`\ge \alpha` with an action of its label that a better-scored prediction took),
    ``"wrong_label"`` (tIoU :math:`\ge \alpha` with an action of another label),
    ``"localization"`` (its label, :math:`\beta \le` tIoU :math:`< \alpha`), ``"confusion"``
    (another label, :math:`\beta \le` tIoU :math:`< \alpha`), ``"background"`` (every tIoU
    below :math:`\beta`).

    Parameters
    ----------
    ground_truth : dict
        ``{"database": {video: {"annotations": [{"segment": [s, e], "label": str}, ...]}}}``
        (ActivityNet's layout; every video is read, whatever its ``"subset"``).
    predictions : dict
        ``{"results": {video: [{"segment": [s, e], "label": str, "score": float}, ...]}}``.
    tiou_threshold : float, default 0.5
        :math:`\alpha`, the tIoU at which a prediction matches.
    background_tiou : float, default 0.1
        :math:`\beta`, below which a prediction overlaps nothing; ``0 < β < α < 1``.
    length_bins : sequence of float, default (0, 3, 6, inf)
        Edges, in seconds, of the length bins of ``missed_by_length``.

    Returns
    -------
    TemporalErrorBreakdown

    Examples
    --------
    One 10-second action; a hit, a second hit on it, one prediction of the wrong label on it, and
    one far away.

    >>> gt = {"database": {"v": {"annotations": [{"segment": [10, 20], "label": "Diving"}]}}}
    >>> pred = {"results": {"v": [
    ...     {"segment": [10, 20], "label": "Diving", "score": 0.9},
    ...     {"segment": [11, 20], "label": "Diving", "score": 0.8},
    ...     {"segment": [10, 19], "label": "Shotput", "score": 0.7},
    ...     {"segment": [50, 60], "label": "Diving", "score": 0.6}]}}
    >>> out = temporal_error_breakdown(gt, pred)
    >>> out.cause.tolist()
    ['true_positive', 'double', 'wrong_label', 'background']
    >>> out.map, out.delta_map["double"]
    (1.0, 0.0)
    """
    alpha = check_scalar(tiou_threshold, "tiou_threshold", Real, expected="a number")
    beta = check_scalar(background_tiou, "background_tiou", Real, expected="a number")
    if not 0.0 < beta < alpha < 1.0:
        raise ValueError(
            "need 0 < background_tiou < tiou_threshold < 1; got "
            f"background_tiou={beta}, tiou_threshold={alpha}"
        )
    edges = np.asarray(length_bins, dtype=np.float64)
    if edges.ndim != 1 or edges.size < 2 or np.isnan(edges).any() or np.any(np.diff(edges) <= 0):
        raise ValueError(
            f"length_bins must be increasing edges (at least two); got {length_bins!r}"
        )

    gt = parse_ground_truth(ground_truth, None)
    dt = parse_predictions(predictions)
    names = list(dict.fromkeys(list(gt.videos) + list(dt.videos)))
    where = {v: i for i, v in enumerate(names)}
    g_vid = np.array([where[v] for v in gt.videos], dtype=np.int64)[gt.video]
    d_vid = np.array([where[v] for v in dt.videos], dtype=np.int64)[dt.video]
    labels = list(dict.fromkeys(list(gt.label) + list(dt.label)))
    lab = {x: i for i, x in enumerate(labels)}
    g_cls = np.array([lab[x] for x in gt.label], dtype=np.int64)
    d_cls = np.array([lab[x] for x in dt.label], dtype=np.int64)
    n_lab = len(labels)
    n_pos = np.bincount(g_cls, minlength=n_lab)
    score = dt.score.astype(np.float64)

    # Matching per (video, label), by mltutor's kernel 3.
    g_group = g_vid * n_lab + g_cls
    g_order = np.argsort(g_group, kind="stable")
    d_group = d_vid * n_lab + d_cls
    _, d_rank = _rank_in_group(d_group, score)
    p_det, p_gt, _ = group_pairs(d_group, g_group[g_order])
    gs, ge = gt.start[g_order][p_gt], gt.end[g_order][p_gt]
    p_iou = _tiou(dt.start[p_det], dt.end[p_det], gs, ge)
    n_g = g_order.size
    match = greedy_match(
        p_det, p_gt, p_iou, d_rank, np.zeros((n_g, 1), bool), np.zeros(n_g, bool), np.array([alpha])
    )[:, 0, 0]
    tp = match >= 0
    found = np.zeros(n_g, dtype=bool)
    found[match[tp]] = True
    found_input = np.empty(n_g, dtype=bool)
    found_input[g_order] = found

    # Highest tIoU with same-label and other-label ground truth of the same video.
    v_order = np.argsort(g_vid, kind="stable")
    q_det, q_gt, _ = group_pairs(d_vid, g_vid[v_order])
    q_gt = v_order[q_gt]
    q_iou = _tiou(dt.start[q_det], dt.end[q_det], gt.start[q_gt], gt.end[q_gt])
    same = g_cls[q_gt] == d_cls[q_det]
    t_same = np.zeros(score.size)
    t_other = np.zeros(score.size)
    np.maximum.at(t_same, q_det[same], q_iou[same])
    np.maximum.at(t_other, q_det[~same], q_iou[~same])

    conditions = [tp, t_same >= alpha, t_other >= alpha, t_same >= beta, t_other >= beta]
    cause = np.select(conditions, ["true_positive", *ERROR_KINDS[:4]], default="background")
    counts = {k: int(np.sum(cause == k)) for k in ("true_positive", *ERROR_KINDS)}

    keep_all = np.ones(score.size, dtype=bool)
    base = _mean_ap(d_cls, score, tp, n_pos, keep_all)
    delta = {k: _mean_ap(d_cls, score, tp, n_pos, cause != k) - base for k in ERROR_KINDS}
    found_pos = np.bincount(g_cls[found_input], minlength=n_lab)
    delta["missed"] = _mean_ap(d_cls, score, tp, found_pos, keep_all) - base if tp.any() else 0.0

    length = gt.end - gt.start
    missed_by_length = []
    for low, high in zip(edges[:-1], edges[1:]):
        inside = (length >= low) & (length < high)
        missed_by_length.append(
            (float(low), float(high), int(inside.sum()), int((inside & ~found_input).sum()))
        )
    return TemporalErrorBreakdown(
        map=base, cause=cause, counts=counts, delta_map=delta, missed_by_length=missed_by_length
    )
