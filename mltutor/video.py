"""From clip scores to video scores, and the three-split report of UCF101-style benchmarks.

A video network scores short **clips** (a few consecutive frames, one crop); a benchmark scores
**videos**.  :func:`video_scores` turns the rows of clip scores that share a video id into one row
per video, by one of the three rules papers use:

* ``"mean_logits"``: :math:`s_{v,c} = \\frac{1}{k_v}\\sum_{j \\in v} z_{j,c}`;
* ``"mean_probs"``: :math:`s_{v,c} = \\frac{1}{k_v}\\sum_{j \\in v}
  \\operatorname{softmax}(z_j)_c`;
* ``"vote"``: :math:`s_{v,c} = \\frac{1}{k_v}\\,\\#\\{j \\in v : \\arg\\max_{c'} z_{j,c'} = c\\}`,
  the share of the video's clips whose arg-max is ``c``.

It is arithmetic on scores, one pass with no loop over videos: the clips are sorted by video
(a stable sort) and each video's rows are summed with ``np.add.reduceat``; the votes are counted
with ``np.bincount`` on ``video * n_classes + class``.

UCF101 (and HMDB51) report the **mean over the three official splits**.  :func:`three_split_report`
puts that mean next to what moves it: the split-to-split spread, the seed-to-seed spread when
several training seeds were run, and, given each split's per-video hits, a class-stratified
group-bootstrap interval of the three-split mean (through :func:`mltutor.stats.bootstrap_ci`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ._validation.params import check_scalar
from ._validation.video import check_clip_scores, check_split_samples, check_split_scores
from .calibration import softmax
from .stats import BootstrapResult, bootstrap_ci

__all__ = ["ThreeSplitReport", "VideoScores", "three_split_report", "video_scores"]


class VideoScores(NamedTuple):
    """Video ids and one row of scores per video (in the same order)."""

    video_ids: np.ndarray
    scores: np.ndarray


def _video_codes(ids: np.ndarray, order: str) -> tuple[np.ndarray, np.ndarray]:
    """(unique ids in the requested order, the code of each clip's video in that order)."""
    unique, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    if order == "sorted":
        return unique, inverse.reshape(-1)
    rank = np.empty(len(unique), dtype=np.intp)
    by_first = np.argsort(first, kind="stable")
    rank[by_first] = np.arange(len(unique))
    return unique[by_first], rank[inverse.reshape(-1)]


def video_scores(
    clip_scores: Any, video_ids: Any, *, method: str = "mean_logits", order: str = "first_seen"
) -> VideoScores:
    """One score row per video from the clip scores that share its id.

    With :math:`k_v` the number of clips of video :math:`v` and :math:`z_j` the scores of clip
    :math:`j`:

    .. math::

        \\mathtt{mean\\_logits}:\\  s_{v,c} = \\tfrac{1}{k_v}\\textstyle\\sum_{j \\in v} z_{j,c},
        \\quad
        \\mathtt{mean\\_probs}:\\  s_{v,c} = \\tfrac{1}{k_v}\\textstyle\\sum_{j \\in v}
        \\frac{e^{z_{j,c}}}{\\sum_{c'} e^{z_{j,c'}}},
        \\quad
        \\mathtt{vote}:\\  s_{v,c} = \\tfrac{1}{k_v}\\,\\#\\{j \\in v :
        \\operatorname{argmax}_{c'} z_{j,c'} = c\\}.

    Parameters
    ----------
    clip_scores : array-like of shape (n_clips, n_classes)
        Finite real scores per clip: logits for ``"mean_logits"`` and ``"mean_probs"`` (which
        applies the softmax itself), any scores for ``"vote"``.  Integers are read as float64;
        bool and float16 are refused.
    video_ids : array-like of shape (n_clips,)
        The video of each clip: integers or strings; the clips of a video need not be adjacent.
    method : {"mean_logits", "mean_probs", "vote"}, default "mean_logits"
    order : {"first_seen", "sorted"}, default "first_seen"
        Order of the videos in the result: that of each video's first clip in ``video_ids``, or
        the sorted ids (``np.unique``'s order).

    Returns
    -------
    VideoScores
        ``video_ids`` of shape (n_videos,) and ``scores`` of shape (n_videos, n_classes).

    Raises
    ------
    ValueError
        ``clip_scores`` not 2-D, empty, or with NaN or infinity; ``video_ids`` not 1-D, of
        another length, or with NaN; an unknown ``method`` or ``order``.
    TypeError
        Non-numeric, bool or float16 ``clip_scores``; ``video_ids`` neither integers nor strings.

    Notes
    -----
    **Ties.**  A clip whose highest score is tied votes for the **lowest** tied class index
    (``np.argmax``'s first maximum).  Video scores that tie are returned as they are (two
    classes with 2 of 4 votes both get 0.5); ``scores.argmax(1)`` then picks the lowest class
    index, the rule chapter 8b uses.  Break vote ties another way (e.g. by the mean
    probability) explicitly if you need to.

    The means are computed as sums divided by :math:`k_v` (sequential sums in clip order), so
    they can differ from ``np.mean`` of the same rows in the last bits.

    Examples
    --------
    >>> import numpy as np
    >>> z = np.array([[2.0, 0.0], [0.0, 1.0], [0.0, 3.0], [1.0, 0.0]])
    >>> r = video_scores(z, ["b", "b", "a", "b"])
    >>> r.video_ids.tolist(), r.scores.tolist()
    (['b', 'a'], [[1.0, 0.3333333333333333], [0.0, 3.0]])
    >>> video_scores(z, [7, 7, 3, 7], method="vote", order="sorted").scores.tolist()
    [[0.0, 1.0], [0.6666666666666666, 0.3333333333333333]]
    """
    s, ids, method, order = check_clip_scores(clip_scores, video_ids, method, order)
    unique, code = _video_codes(ids, order)
    n_videos, n_classes = len(unique), s.shape[1]
    counts = np.bincount(code, minlength=n_videos)
    if method == "vote":
        cells = np.bincount(code * n_classes + s.argmax(axis=1), minlength=n_videos * n_classes)
        return VideoScores(unique, cells.reshape(n_videos, n_classes) / counts[:, None])
    rows = softmax(s, axis=1) if method == "mean_probs" else s
    by_video = np.argsort(code, kind="stable")
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    sums = np.add.reduceat(rows[by_video], starts, axis=0)
    return VideoScores(unique, sums / counts[:, None])


@dataclass(frozen=True)
class ThreeSplitReport:
    """What :func:`three_split_report` returns (scores as fractions, like the inputs)."""

    mean: float
    """The protocol's number, the mean over splits 1-3, averaged over the seeds."""
    per_seed: np.ndarray
    """The three-split mean of each training seed, shape (n_seeds,)."""
    split_means: np.ndarray
    """Each split's score averaged over the seeds, shape (3,)."""
    split_spread: float
    """Largest minus smallest of ``split_means``."""
    seed_spread: float
    """Largest, over the splits, of (largest minus smallest score over seeds); 0 for one seed."""
    mean_seed_spread: float
    """Largest minus smallest of ``per_seed``; 0 for one seed."""
    interval: BootstrapResult | None
    """The group-bootstrap interval of the three-split mean of the models that produced
    ``correct`` (None without ``correct``)."""


def three_split_report(
    per_split_scores: Any,
    *,
    correct: Any = None,
    groups: Any = None,
    strata: Any = None,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
    random_state: Any = None,
) -> ThreeSplitReport:
    """The mean over the three official splits, its spreads, and a group-bootstrap interval.

    With :math:`a_{k,s}` the test score of split :math:`k` and training seed :math:`s`:
    ``per_seed`` is :math:`\\bar a_s = \\frac13 \\sum_{k=1}^3 a_{k,s}`, ``mean`` is the mean of
    the :math:`\\bar a_s`, ``split_spread`` is :math:`\\max_k \\bar a_{k\\cdot} -
    \\min_k \\bar a_{k\\cdot}` and ``seed_spread`` is :math:`\\max_k (\\max_s a_{k,s} -
    \\min_s a_{k,s})`.

    The interval (only with ``correct`` and ``groups``) resamples the **test groups**: in each
    split, and within each stratum (e.g. class) when ``strata`` is given, it draws as many
    groups with replacement as there are, scores the fixed models' hits on the drawn videos,
    and averages the three splits' accuracies,
    :math:`\\theta^* = \\frac13 \\sum_k \\operatorname{mean}(\\mathtt{correct}_k^*)`; the interval
    is the percentile interval of ``n_resamples`` such values (:func:`mltutor.stats.bootstrap_ci`
    with ``groups`` and ``strata`` made per split).  It holds the trained models fixed: the
    training seed's variation (``seed_spread``) is not in it, and neither is the choice of the
    split lists.  Three split values are not three independent draws (the training parts of two
    UCF101 splits share 11 of their 18 groups), so no interval is formed *over the splits*; with
    three values a *t* interval would be wide (:math:`t_{0.975, 2} = 4.303`) and rest on that
    false independence.

    Parameters
    ----------
    per_split_scores : array-like of shape (3,) or (3, n_seeds)
        Each split's test score (e.g. video accuracy), one column per training seed.
    correct : sequence of 3 array-likes of 0/1, optional
        Per test video of split k, whether the model was right (for the interval): one fixed
        model per split, e.g. seed 0's.
    groups : sequence of 3 array-likes, optional
        The group (UCF101: the actor/scene group 1-25) of each test video, per split.
    strata : sequence of 3 array-likes, optional
        A stratum per test video (e.g. its class).  Given, the unit drawn is a group's videos of
        one stratum, and each stratum of each split gets as many draws as it has groups (the
        class-stratified group bootstrap of chapter 8b).
    n_resamples : int, default 2000
    confidence_level : float, default 0.95
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    ThreeSplitReport

    Raises
    ------
    ValueError
        ``per_split_scores`` without 3 rows, with NaN or infinity; ``correct`` without
        ``groups`` (or the reverse), not 3 arrays, not 0/1, or of other lengths than ``groups``
        and ``strata``; what :func:`mltutor.stats.bootstrap_ci` refuses.

    Notes
    -----
    The interval's coverage is nominal, not measured here; chapter 6b measures a group
    bootstrap's coverage by simulation (about 93 % for 30 groups of 10 at a nominal 95 %).

    Examples
    --------
    >>> r = three_split_report([[0.80, 0.82], [0.78, 0.79], [0.84, 0.83]])
    >>> round(r.mean, 4), r.per_seed.round(4).tolist(), round(r.split_spread, 4)
    (0.81, [0.8067, 0.8133], 0.05)
    >>> round(r.seed_spread, 4), r.interval is None
    (0.02, True)
    """
    a = check_split_scores(per_split_scores)
    samples = check_split_samples(correct, groups, strata)
    n_resamples = check_scalar(n_resamples, "n_resamples", int, min_val=1)
    per_seed = a.mean(axis=0)
    split_means = a.mean(axis=1)
    interval = None
    if samples is not None:
        hits, grp, strat = samples
        split = np.concatenate([np.full(len(h), k) for k, h in enumerate(hits)])
        hit = np.concatenate(hits).astype(np.float64)
        # The unit drawn is a (split, group) pair, or a (split, group, stratum) cell with strata.
        group_code = np.unique(np.concatenate(grp), return_inverse=True)[1].reshape(-1)
        stratum = split  # groups are always drawn within their own split
        key = np.c_[split, group_code]
        if strat is not None:
            codes = np.unique(np.concatenate(strat), return_inverse=True)[1].reshape(-1)
            stratum = split * (codes.max() + 1) + codes
            key = np.c_[key, codes]
        group = np.unique(key, axis=0, return_inverse=True)[1].reshape(-1)

        def three_split_accuracy(split_of, hit_of):
            per_split = np.bincount(split_of, weights=hit_of, minlength=3)
            return float(np.mean(per_split / np.bincount(split_of, minlength=3)))

        interval = bootstrap_ci(
            three_split_accuracy,
            split,
            hit,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            random_state=random_state,
            skip_single_class=False,
            groups=group,
            strata=stratum,
        )
    return ThreeSplitReport(
        mean=float(per_seed.mean()),
        per_seed=per_seed,
        split_means=split_means,
        split_spread=float(np.ptp(split_means)),
        seed_spread=float(np.ptp(a, axis=1).max()),
        mean_seed_spread=float(np.ptp(per_seed)),
        interval=interval,
    )
