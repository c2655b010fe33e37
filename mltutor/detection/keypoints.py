"""Object keypoint similarity (OKS): COCO's IoU for keypoints, exactly as pycocotools computes it.

For a detection *d* and a ground-truth object *g* with keypoints :math:`(x_i, y_i, v_i)`, area *s*
(its ``area`` field) and per-keypoint spreads :math:`\\sigma_i`:

.. math::

    e_i = \\frac{d_i^2}{(2\\sigma_i)^2 \\, (s + \\varepsilon) \\, 2}, \\qquad
    \\mathrm{OKS}(d, g) = \\frac{1}{|L|} \\sum_{i \\in L} e^{-e_i}

where :math:`d_i` is the distance between the detected and the labelled keypoint *i* and *L* the
labelled keypoints (:math:`v_i > 0`; 1 = labelled but hidden, 2 = visible).  A keypoint counts as
well placed when :math:`d_i` is small *relative to the object's size and to how precisely people
can label that joint*: an eye (σ = 0.025) must be placed far more precisely than a hip (0.107).

When *g* has no labelled keypoint, pycocotools measures instead how far each detected keypoint lies
outside *g*'s box enlarged by its own width and height on every side (``[x - w, x + 2w]`` by
``[y - h, y + 2h]``), over all *K* keypoints.  (Such an object usually also has
``num_keypoints == 0``, which makes it an ignore region of the evaluation: it is not counted as a
miss, a detection matched to it is ignored, and, not being a crowd, it absorbs one detection.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation.keypoints import check_keypoint_array, check_sigmas, keypoint_rows

__all__ = ["COCO_SIGMAS", "oks"]

#: pycocotools' ``Params.kpt_oks_sigmas`` — the spreads of the 17 COCO person keypoints (nose, eyes,
#: ears, shoulders, elbows, wrists, hips, knees, ankles), in that order.
COCO_SIGMAS = (
    np.array(
        [
            0.26,
            0.25,
            0.25,
            0.35,
            0.35,
            0.79,
            0.79,
            0.72,
            0.72,
            0.62,
            0.62,
            1.07,
            1.07,
            0.87,
            0.87,
            0.89,
            0.89,
        ]
    )
    / 10.0
)


def pair_oks(
    dt_xy: np.ndarray,
    gt_kpt: np.ndarray,
    gt_area: np.ndarray,
    gt_box: np.ndarray,
    sigmas: np.ndarray,
    pair_dt: np.ndarray,
    pair_gt: np.ndarray,
) -> np.ndarray:
    """OKS of the listed (detection, ground truth) pairs, pycocotools' ``computeOks`` vectorised.

    ``dt_xy`` (n_dt, K, 2+), ``gt_kpt`` (n_gt, K, 3), ``gt_area`` (n_gt,), ``gt_box`` (n_gt, 4) xywh.
    The arithmetic is pycocotools' operation for operation, so the numbers agree to the last bits
    (only the order of the final sum over keypoints may differ).
    """
    out = np.empty(pair_dt.shape[0])
    var = (sigmas * 2) ** 2
    # (n, K) planes made contiguous once: the gathers below then copy whole rows of K numbers
    # instead of every third number of a gathered (pairs, K, 3) array (about 2x on 20k pairs).
    gx, gy = np.ascontiguousarray(gt_kpt[:, :, 0]), np.ascontiguousarray(gt_kpt[:, :, 1])
    dxs, dys = np.ascontiguousarray(dt_xy[:, :, 0]), np.ascontiguousarray(dt_xy[:, :, 1])
    g_labelled = gt_kpt[:, :, 2] > 0
    scale = gt_area + np.spacing(1)
    for lo in range(0, pair_dt.shape[0], 1 << 16):  # bounded memory: (chunk, K) temporaries
        pd, pg = pair_dt[lo : lo + (1 << 16)], pair_gt[lo : lo + (1 << 16)]
        labelled = g_labelled[pg]
        dx = dxs[pd]
        dx -= gx[pg]
        dy = dys[pd]
        dy -= gy[pg]
        # Objects without a labelled keypoint (rare): the distance outside the enlarged box instead,
        # over all K keypoints.
        bare = np.flatnonzero(~labelled.any(axis=1))
        if bare.shape[0]:
            bb = gt_box[pg[bare]]
            xd, yd = dxs[pd[bare]], dys[pd[bare]]
            x0, x1 = bb[:, 0] - bb[:, 2], bb[:, 0] + bb[:, 2] * 2
            y0, y1 = bb[:, 1] - bb[:, 3], bb[:, 1] + bb[:, 3] * 2
            dx[bare] = np.maximum(0, x0[:, None] - xd) + np.maximum(0, xd - x1[:, None])
            dy[bare] = np.maximum(0, y0[:, None] - yd) + np.maximum(0, yd - y1[:, None])
            labelled[bare] = True
        # pycocotools' e = (dx**2 + dy**2) / vars / (area + eps) / 2 and exp(-e), operation for
        # operation but in place (x**2 is x * x in NumPy, so the bits are the same).
        e = np.multiply(dx, dx, out=dx)
        e += np.multiply(dy, dy, out=dy)
        e /= var
        e /= scale[pg][:, None]
        e /= 2
        # exp(-x) is exactly 0.0 in float64 from x = 746 on, where libm's exp is slowest (about
        # 3x): those entries keep the 0 they start with.  Most pairs of distinct people are there.
        np.negative(e, out=e)
        e = np.exp(e, out=np.zeros_like(e), where=~(e <= -746.0))  # NaN, if any, stays NaN
        e[~labelled] = 0.0
        out[lo : lo + pd.shape[0]] = e.sum(axis=1) / labelled.sum(axis=1)
    return out


def oks(
    dt_keypoints: Any, gt_keypoints: Any, gt_areas: Any, gt_boxes: Any = None, sigmas: Any = None
) -> np.ndarray:
    """OKS of every detection with every ground-truth object of one image (pycocotools' rule).

    Parameters
    ----------
    dt_keypoints : array-like, shape (n_dt, 3K)
        Detected keypoints ``[x1, y1, v1, ..., xK, yK, vK]`` (the v values are not used).
    gt_keypoints : array-like, shape (n_gt, 3K)
        Labelled keypoints; v in {0, 1, 2} (0 = not labelled).
    gt_areas : array-like, shape (n_gt,)
        The objects' ``area`` (COCO: the segmentation mask's area), the *s* of the formula.
    gt_boxes : array-like, shape (n_gt, 4), optional
        ``[x, y, width, height]``; needed only for an object without labelled keypoints.
    sigmas : array-like, shape (K,), optional
        Per-keypoint spreads; default :data:`COCO_SIGMAS` (the 17 person keypoints).

    Returns
    -------
    ndarray of float64, shape (n_dt, n_gt)

    Examples
    --------
    >>> gt = [[10, 10, 2, 20, 20, 2]]
    >>> oks([[10, 10, 1, 21, 20, 1]], gt, [100.0], sigmas=[0.1, 0.1]).round(4).tolist()
    [[0.9412]]
    """
    sig = check_sigmas(sigmas, "sigmas", COCO_SIGMAS)
    k = sig.shape[0]
    dt = keypoint_rows(dt_keypoints, k, "dt_keypoints")
    gt = keypoint_rows(gt_keypoints, k, "gt_keypoints")
    dt = (
        np.stack(
            [
                check_keypoint_array(row, k, f"dt_keypoints[{i}]", flags=False)
                for i, row in enumerate(dt)
            ]
        )
        if dt.shape[0]
        else np.zeros((0, k, 3))
    )
    gt = (
        np.stack(
            [
                check_keypoint_array(row, k, f"gt_keypoints[{i}]", flags=True)
                for i, row in enumerate(gt)
            ]
        )
        if gt.shape[0]
        else np.zeros((0, k, 3))
    )
    area = np.asarray(gt_areas, dtype=np.float64).reshape(-1)
    if area.shape[0] != gt.shape[0] or not (np.isfinite(area) & (area >= 0)).all():
        raise ValueError(
            f"gt_areas must hold one finite, non-negative area per ground-truth object ({gt.shape[0]})."
        )
    box = (
        np.zeros((gt.shape[0], 4))
        if gt_boxes is None
        else np.asarray(gt_boxes, dtype=np.float64).reshape(-1, 4)
    )
    if box.shape[0] != gt.shape[0] or not np.isfinite(box).all():
        raise ValueError(
            f"gt_boxes must hold one finite [x, y, width, height] per ground-truth object ({gt.shape[0]})."
        )
    if gt_boxes is None and (gt[:, :, 2] == 0).all(axis=1).any():
        raise ValueError(
            "gt_boxes is needed: a ground-truth object without labelled keypoints is scored against "
            "its box."
        )
    m, n = dt.shape[0], gt.shape[0]
    return pair_oks(
        dt, gt, area, box, sig, np.repeat(np.arange(m), n), np.tile(np.arange(n), m)
    ).reshape(m, n)
