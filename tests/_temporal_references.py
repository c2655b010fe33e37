"""Line-by-line re-implementations of the two official temporal-detection scorers (tests only).

**ActivityNet** — ``Evaluation/eval_detection.py`` (``ANETdetection._import_ground_truth``,
``_import_prediction``, ``wrapper_compute_average_precision``, ``evaluate``,
``compute_average_precision_detection``) and ``Evaluation/utils.py`` (``interpolated_prec_rec``,
``segment_iou``) of https://github.com/activitynet/ActivityNet at commit
82304fa9f4a7219421df13dae6347a445c4cf5bc (2021-01-06).  Ported from Python 2 to Python 3 with
these changes only:

* the inputs are dicts instead of JSON files, and the fields ``taxonomy``/``version`` (ground
  truth) and ``version``/``external_data`` (predictions) are not required;
* no blocked-video download (``check_status=False``); ``subset=None`` skips the subset filter;
* ``iteritems`` -> ``items``, ``np.float`` -> ``np.float64``, ``print`` statements dropped, and
  ``joblib.Parallel`` replaced by a loop (the same calls, one after the other);
* the two ``argsort()[::-1]`` calls use ``kind="stable"``: NumPy's default sort is not stable
  (with NumPy 2 its order among equal keys depends on the CPU's SIMD instructions), so the
  original's order among ties is unspecified; with a stable sort it is the reverse input order.

**THUMOS'14** — the official MATLAB kit ``TH14evalkit``: ``TH14evaldet.m`` (reading the ground
truth and detections, the loop over classes and thresholds, ``map = mean(ap_all, 1)``),
``TH14eventdetpr.m`` (the matching, the ambiguous rule, the PR curve and ``prap``) and
``intervaloverlapvalseconds.m``.  Read in the copies of
github.com/demianzhang/weakly-action-localization (``TH14evalkit/``, commit 6fc97fcf) and
github.com/menorashid/nn_net (``TH14evalkit/``, commits 8c2389f6 and 2f8ec8b1); they agree on
every line transcribed here (some copies add an early ``ap = 0`` return when no detection is a
true positive, which gives the same AP).  MATLAB's 1-based indexing becomes 0-based; ``sort``
(stable in MATLAB) becomes a stable argsort; ``max`` returns the first maximum, as MATLAB's;
``unique`` sorts; ``0:0.1:1`` is built as MATLAB builds a range (:func:`matlab_colon`).  The
ground truth comes from an ActivityNet-layout dict instead of the per-class text files, and the
class list (``detclasslist.txt``) is the sorted labels of the ground truth other than "Ambiguous".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

# ============================================================================================
# ActivityNet (Evaluation/utils.py)
# ============================================================================================


def interpolated_prec_rec(prec, rec):
    """Interpolated AP - VOCdevkit from VOC 2011."""
    mprec = np.hstack([[0], prec, [0]])
    mrec = np.hstack([[0], rec, [1]])
    for i in range(len(mprec) - 1)[::-1]:
        mprec[i] = max(mprec[i], mprec[i + 1])
    idx = np.where(mrec[1::] != mrec[0:-1])[0] + 1
    ap = np.sum((mrec[idx] - mrec[idx - 1]) * mprec[idx])
    return ap


def segment_iou(target_segment, candidate_segments):
    """tIoU of a target segment with each candidate segment (utils.segment_iou)."""
    tt1 = np.maximum(target_segment[0], candidate_segments[:, 0])
    tt2 = np.minimum(target_segment[1], candidate_segments[:, 1])
    # Intersection including Non-negative overlap score.
    segments_intersection = (tt2 - tt1).clip(0)
    # Segment union.
    segments_union = (
        (candidate_segments[:, 1] - candidate_segments[:, 0])
        + (target_segment[1] - target_segment[0])
        - segments_intersection
    )
    # Compute overlap as the ratio of the intersection
    # over union of two segments.
    tIoU = segments_intersection.astype(float) / segments_union
    return tIoU


# ============================================================================================
# ActivityNet (Evaluation/eval_detection.py)
# ============================================================================================


def _import_ground_truth(data, subset):
    activity_index, cidx = {}, 0
    video_lst, t_start_lst, t_end_lst, label_lst = [], [], [], []
    for videoid, v in data["database"].items():
        if subset is not None and subset != v["subset"]:
            continue
        for ann in v["annotations"]:
            if ann["label"] not in activity_index:
                activity_index[ann["label"]] = cidx
                cidx += 1
            video_lst.append(videoid)
            t_start_lst.append(float(ann["segment"][0]))
            t_end_lst.append(float(ann["segment"][1]))
            label_lst.append(activity_index[ann["label"]])

    ground_truth = pd.DataFrame(
        {"video-id": video_lst, "t-start": t_start_lst, "t-end": t_end_lst, "label": label_lst}
    )
    return ground_truth, activity_index


def _import_prediction(data, activity_index):
    video_lst, t_start_lst, t_end_lst = [], [], []
    label_lst, score_lst = [], []
    for videoid, v in data["results"].items():
        for result in v:
            label = activity_index[result["label"]]  # KeyError for a label without ground truth
            video_lst.append(videoid)
            t_start_lst.append(float(result["segment"][0]))
            t_end_lst.append(float(result["segment"][1]))
            label_lst.append(label)
            score_lst.append(result["score"])
    prediction = pd.DataFrame(
        {
            "video-id": video_lst,
            "t-start": t_start_lst,
            "t-end": t_end_lst,
            "label": label_lst,
            "score": score_lst,
        }
    )
    return prediction


def _get_predictions_with_label(prediction_by_label, label_name, cidx):
    try:
        return prediction_by_label.get_group(cidx).reset_index(drop=True)
    except Exception:  # noqa: BLE001 - as the original's bare except
        return pd.DataFrame()


def compute_average_precision_detection(
    ground_truth, prediction, tiou_thresholds=np.linspace(0.5, 0.95, 10)
):
    """Average precision of one class at each threshold (compute_average_precision_detection)."""
    ap = np.zeros(len(tiou_thresholds))
    if prediction.empty:
        return ap

    npos = float(len(ground_truth))
    lock_gt = np.ones((len(tiou_thresholds), len(ground_truth))) * -1
    # Sort predictions by decreasing score order.
    sort_idx = prediction["score"].values.argsort(kind="stable")[::-1]
    prediction = prediction.loc[sort_idx].reset_index(drop=True)

    # Initialize true positive and false positive vectors.
    tp = np.zeros((len(tiou_thresholds), len(prediction)))
    fp = np.zeros((len(tiou_thresholds), len(prediction)))

    # Adaptation to query faster
    ground_truth_gbvn = ground_truth.groupby("video-id")

    # Assigning true positive to truly grount truth instances.
    for idx, this_pred in prediction.iterrows():
        try:
            # Check if there is at least one ground truth in the video associated.
            ground_truth_videoid = ground_truth_gbvn.get_group(this_pred["video-id"])
        except Exception:  # noqa: BLE001
            fp[:, idx] = 1
            continue

        this_gt = ground_truth_videoid.reset_index()
        tiou_arr = segment_iou(
            this_pred[["t-start", "t-end"]].values.astype(np.float64),
            this_gt[["t-start", "t-end"]].values,
        )
        # We would like to retrieve the predictions with highest tiou score.
        tiou_sorted_idx = tiou_arr.argsort(kind="stable")[::-1]
        for tidx, tiou_thr in enumerate(tiou_thresholds):
            for jdx in tiou_sorted_idx:
                if tiou_arr[jdx] < tiou_thr:
                    fp[tidx, idx] = 1
                    break
                if lock_gt[tidx, this_gt.loc[jdx]["index"]] >= 0:
                    continue
                # Assign as true positive after the filters above.
                tp[tidx, idx] = 1
                lock_gt[tidx, this_gt.loc[jdx]["index"]] = idx
                break

            if fp[tidx, idx] == 0 and tp[tidx, idx] == 0:
                fp[tidx, idx] = 1

    tp_cumsum = np.cumsum(tp, axis=1).astype(np.float64)
    fp_cumsum = np.cumsum(fp, axis=1).astype(np.float64)
    recall_cumsum = tp_cumsum / npos

    precision_cumsum = tp_cumsum / (tp_cumsum + fp_cumsum)

    for tidx in range(len(tiou_thresholds)):
        ap[tidx] = interpolated_prec_rec(precision_cumsum[tidx, :], recall_cumsum[tidx, :])

    return ap


@dataclass
class AnetResult:
    ap: np.ndarray  # (thresholds, classes), classes in activity_index order
    activity_index: dict
    mAP: np.ndarray
    average_mAP: float


def anet_detection(
    ground_truth, predictions, tiou_thresholds=np.linspace(0.5, 0.95, 10), subset=None
) -> AnetResult:
    """``ANETdetection(...).evaluate()`` on dicts: ap, mAP per threshold and average mAP."""
    gt, activity_index = _import_ground_truth(ground_truth, subset)
    prediction = _import_prediction(predictions, activity_index)
    ap = np.zeros((len(tiou_thresholds), len(activity_index)))
    ground_truth_by_label = gt.groupby("label")
    prediction_by_label = prediction.groupby("label")
    results = [
        compute_average_precision_detection(
            ground_truth=ground_truth_by_label.get_group(cidx).reset_index(drop=True),
            prediction=_get_predictions_with_label(prediction_by_label, label_name, cidx),
            tiou_thresholds=tiou_thresholds,
        )
        for label_name, cidx in activity_index.items()
    ]
    for i, cidx in enumerate(activity_index.values()):
        ap[:, cidx] = results[i]
    mAP = ap.mean(axis=1)
    return AnetResult(ap, activity_index, mAP, float(mAP.mean()))


# ============================================================================================
# THUMOS'14 (TH14evalkit, MATLAB)
# ============================================================================================


def matlab_colon(a, d, b):
    """``a:d:b`` as MATLAB builds it: the first half ``a + k*d``, the second half ``b - k*d``, and
    ``(a + b) / 2`` in the middle when there is a middle element (MathWorks' description of the
    colon operator, its ``colonop`` function)."""
    n = int(round((b - a) / d))
    v = np.zeros(n + 1)
    for k in range(n // 2 + 1):
        v[k] = a + k * d
        v[n - k] = b - k * d
    if n % 2 == 0:
        v[n // 2] = (a + b) / 2
    return v


def _intervalsingleoverlapvalseconds(i1, i2, normtype):
    i1 = [min(i1), max(i1)]
    i2 = [min(i2), max(i2)]

    ov = 0
    if normtype < 0:
        ua = 1
    elif normtype == 1:
        ua = i1[1] - i1[0]
    elif normtype == 2:
        ua = i2[1] - i2[0]
    else:
        bu = [min(i1[0], i2[0]), max(i1[1], i2[1])]
        ua = bu[1] - bu[0]

    bi = [max(i1[0], i2[0]), min(i1[1], i2[1])]
    iw = bi[1] - bi[0]
    if iw > 0:
        if normtype < 0:  # no normalization!
            ov = iw
        else:
            ov = iw / ua
    return ov


def intervaloverlapvalseconds(i1, i2, normtype=0):
    ov = np.zeros((len(i1), len(i2)))
    for i in range(len(i1)):
        for j in range(len(i2)):
            ov[i, j] = _intervalsingleoverlapvalseconds(i1[i], i2[j], normtype)
    return ov


@dataclass
class Event:
    videoname: object
    timeinterval: tuple
    cls: object
    conf: float


def _prap(rec, prec):
    ap = 0
    recallpoints = matlab_colon(0, 0.1, 1)
    for t in recallpoints:
        sel = prec[rec >= t]
        p = sel.max() if sel.size else 0  # max([]) is empty in MATLAB, then p = 0
        ap = ap + p / len(recallpoints)
    return ap


def th14_eventdetpr(detevents, gtevents, cls, overlapthresh):
    """``[rec, prec, ap] = TH14eventdetpr(detevents, gtevents, class, overlapthresh)``."""
    gtvideonames = [g.videoname for g in gtevents]
    detvideonames = [d.videoname for d in detevents]
    videonames = sorted(set(gtvideonames + detvideonames), key=repr)  # unique(): sorted

    tpconf = []
    fpconf = []
    npos = sum(1 for g in gtevents if g.cls == cls)
    assert npos > 0

    # intersect(strmatch(videoname, ...), indclass): the events of one video and class, in index
    # order; grouped in one pass here instead of one scan per video (same lists, same order).
    gt_of, amb_of, det_of = {}, {}, {}
    for g in gtevents:
        if g.cls == cls:
            gt_of.setdefault(g.videoname, []).append(g)
        elif g.cls == "Ambiguous":
            amb_of.setdefault(g.videoname, []).append(g)
    for d in detevents:
        if d.cls == cls:
            det_of.setdefault(d.videoname, []).append(d)

    for vname in videonames:
        gt = gt_of.get(vname, [])
        amb = amb_of.get(vname, [])
        det = det_of.get(vname, [])

        if len(det):
            is_ = np.argsort(-np.array([d.conf for d in det]), kind="stable")  # MATLAB sort
            det = [det[i] for i in is_]
            conf = np.array([d.conf for d in det])
            indfree = np.ones(len(det))
            indamb = np.zeros(len(det))

            # interesct event detection intervals with GT
            if len(gt):
                ov = intervaloverlapvalseconds(
                    [g.timeinterval for g in gt], [d.timeinterval for d in det]
                )
                for k in range(ov.shape[0]):
                    ind = np.flatnonzero(indfree)
                    if ind.size == 0:  # [vm, im] = max([]) is empty; "if vm > t" is false
                        continue
                    im = int(np.argmax(ov[k, ind]))  # the first maximum, as MATLAB's max
                    vm = ov[k, ind][im]
                    if vm > overlapthresh:
                        indfree[ind[im]] = 0

            # respect ambiguous events (overlapping detections will be removed from the FP list)
            if len(amb):
                ovamb = intervaloverlapvalseconds(
                    [a.timeinterval for a in amb], [d.timeinterval for d in det]
                )
                indamb = ovamb.sum(axis=0)

            tpconf += conf[indfree == 0].tolist()
            fpconf += conf[(indfree == 1) & (indamb == 0)].tolist()

    conf = np.array([tpconf + fpconf, [1] * len(tpconf) + [2] * len(fpconf)], dtype=np.float64)
    is_ = np.argsort(-conf[0, :], kind="stable")
    tp = np.cumsum(conf[1, is_] == 1)
    fp = np.cumsum(conf[1, is_] == 2)
    rec = tp / npos
    with np.errstate(invalid="ignore"):
        prec = tp / (fp + tp)
    ap = _prap(rec, prec)
    return rec, prec, ap


@dataclass
class Th14Result:
    ap_all: np.ndarray  # (classes, thresholds), classes sorted
    classnames: list
    map: np.ndarray


def th14_evaldet(
    ground_truth, predictions, overlapthreshall=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7), subset=None
) -> Th14Result:
    """``[pr_all, ap_all, map] = TH14evaldet(...)`` on ActivityNet-layout dicts."""
    videos = {
        name: info
        for name, info in ground_truth["database"].items()
        if subset is None or info["subset"] == subset
    }
    th14classnames = sorted(
        {
            a["label"]
            for info in videos.values()
            for a in info["annotations"]
            if a["label"] != "Ambiguous"
        }
    )
    # read ground truth: class by class (one file per class, then 'Ambiguous'), file order
    gtevents = []
    for cls in th14classnames + ["Ambiguous"]:
        for name, info in videos.items():
            for a in info["annotations"]:
                if a["label"] == cls:
                    gtevents.append(Event(name, tuple(map(float, a["segment"])), cls, 1))
    # parse detection results: a class that is not a detection class is skipped (with a warning)
    detevents = []
    for name, records in predictions["results"].items():
        for r in records:
            if r["label"] in th14classnames:
                detevents.append(
                    Event(name, tuple(map(float, r["segment"])), r["label"], float(r["score"]))
                )
    ap_all = np.zeros((len(th14classnames), len(overlapthreshall)))
    for i, cls in enumerate(th14classnames):
        for j, overlapthresh in enumerate(overlapthreshall):
            _, _, ap = th14_eventdetpr(detevents, gtevents, cls, overlapthresh)
            ap_all[i, j] = ap
    return Th14Result(ap_all, th14classnames, ap_all.mean(axis=0))
