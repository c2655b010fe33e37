"""A seeded stand-in for UCF101 built on its real facts: frame features instead of videos.

The videos of UCF101 cannot be shipped with a course, so the chapters train on *simulated* clips
that keep what matters for evaluation: the real 101 classes, the real number of clips in each
class and group (13,320 clips; :mod:`mltutor.datasets.ucf101`), the official group splits, and
the three things that make video evaluation tricky:

* **Sparse action.**  Each clip is a sequence of ``n_frames`` frame feature vectors.  The class
  *signature* is present only in a short run of consecutive "action" frames
  (:attr:`SimulatedUCF101.action_mask`); the other frames show only the scene.  Sampling frames
  uniformly dilutes the action; picking key frames does not.
* **Groups.**  All clips of one (class, group) share a *group offset*, which stands for what the
  clips of a real group can have in common: the actor, the background, the camera.  A model can
  score well by memorising those offsets, which pays only when clips of the same group sit on both
  sides of the split: a random clip-level split leaks, the official group split does not.  How
  much the leak pays is set by ``group_scale`` (:func:`simulate_ucf101`); the gap between the two
  splits is a setting of the simulator, not an estimate of UCF101's.
* **Confusable classes.**  The pairs in :data:`CONFUSABLE_PAIRS` (FrontCrawl/BreastStroke,
  CricketShot/CricketBowling, ...) get nearby signatures, so a model has confusions to find.  The
  pairs are chosen by hand as plausible look-alikes; the simulation plants them, so that a model
  trained here confuses them
  shows only that they were planted, not which classes real models confuse.

A frame of clip ``i`` (class ``c``, group ``g``) at time ``t`` is

.. math::
    x_{it} = o_{cg} + u_i + m_{it}\\, s\\, \\mu_c + \\varepsilon_{it},

with :math:`\\mu_c` the unit-norm class signature, :math:`m_{it} \\in \\{0, 1\\}` the action mask,
:math:`o_{cg}` the group offset, :math:`u_i` a per-clip offset and :math:`\\varepsilon_{it}` frame
noise, all Gaussian.  The scales are parameters of :func:`simulate_ucf101`; the defaults are
tuned so that a small model (a hidden layer applied to each frame, a temporal mean-pool and a
linear classifier, a few epochs on a CPU) reaches about 76 % top-1 accuracy on split 1 from 8
uniformly sampled frames; chapter 8 shows how key frames, several views or a long-tailed
training set move that number.

Everything is NumPy; nothing here needs PyTorch.

Examples
--------
>>> sim = simulate_ucf101(seed=0)
>>> sim.features.shape, sim.features.dtype.name
((13320, 16, 64), 'float32')
>>> train, test = sim.split(1)
>>> len(train), len(test)
(9537, 3783)
>>> fit, val = sim.validation_groups(train)
>>> len(fit) + len(val) == len(train), sorted(set(sim.groups[val].tolist()))
(True, [22, 23, 24, 25])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np

from .._validation.datasets import check_split_number
from .._validation.params import check_scalar
from .ucf101 import CLASS_NAMES, N_CLASSES, N_GROUPS, N_SPLITS, clips_per_group, split_groups

__all__ = [
    "CONFUSABLE_PAIRS",
    "SimulatedUCF101",
    "keyframe_scores",
    "simulate_ucf101",
]

#: Look-alike class pairs chosen by hand as plausible confusions (not measured on real models);
#: the simulator gives them nearby signatures.
CONFUSABLE_PAIRS: tuple[tuple[str, str], ...] = (
    ("FrontCrawl", "BreastStroke"),
    ("CricketShot", "CricketBowling"),
    ("BrushingTeeth", "ShavingBeard"),
    ("PlayingDhol", "PlayingTabla"),
    ("ApplyEyeMakeup", "ApplyLipstick"),
    ("YoYo", "Nunchucks"),
    ("PlayingFlute", "PlayingViolin"),
    ("BoxingPunchingBag", "BoxingSpeedBag"),
    ("MilitaryParade", "BandMarching"),
    ("Kayaking", "Rafting"),
    ("HammerThrow", "ThrowDiscus"),
    ("BalanceBeam", "ParallelBars"),
)


def _index_arrays(array: np.ndarray) -> np.ndarray:
    array = np.asarray(array)
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class SimulatedUCF101:
    """Simulated UCF101 clips (see the module docstring for the model).

    Clips are ordered as in the official lists: by class, then group, then clip number.

    Attributes
    ----------
    features : ndarray of float32, shape (13320, n_frames, dim)
        Frame features of every clip.
    labels : ndarray of int64, shape (13320,)
        Class index 0 ... 100 (``CLASS_NAMES[labels[i]]``; the official index is ``labels + 1``).
    groups : ndarray of int64, shape (13320,)
        Group number 1 ... 25 (``gXX`` in the file names).
    clips : ndarray of int64, shape (13320,)
        Clip number within its group, 1 ... 7 (``cYY``).
    action_mask : ndarray of bool, shape (13320, n_frames)
        True on the frames that carry the class signature.
    signatures : ndarray of float32, shape (101, dim)
        The unit-norm class signatures :math:`\\mu_c`.
    class_names : tuple of str
        :data:`mltutor.datasets.ucf101.CLASS_NAMES`.
    params : dict
        The arguments of :func:`simulate_ucf101` that made this data.
    """

    features: np.ndarray = field(repr=False)
    labels: np.ndarray = field(repr=False)
    groups: np.ndarray = field(repr=False)
    clips: np.ndarray = field(repr=False)
    action_mask: np.ndarray = field(repr=False)
    signatures: np.ndarray = field(repr=False)
    class_names: tuple[str, ...] = field(repr=False)
    params: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.labels.shape[0])

    @property
    def n_classes(self) -> int:
        """Number of classes, 101."""
        return len(self.class_names)

    def split(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Indices of the training and test clips of official split ``k`` (1, 2 or 3).

        Split ``k`` tests on groups ``7k - 6`` ... ``7k`` of every class and trains on the others,
        so no group (whose clips can share an actor or a background) is on both sides.

        Returns
        -------
        train_idx, test_idx : ndarray of int64
            Ascending clip indices; together they cover every clip once.

        Examples
        --------
        >>> sim = simulate_ucf101(seed=0)
        >>> train, test = sim.split(3)
        >>> sorted(set(sim.groups[test].tolist()))
        [15, 16, 17, 18, 19, 20, 21]
        """
        _, test_groups = split_groups(check_split_number(k, N_SPLITS))
        in_test = np.isin(self.groups, test_groups)
        return np.flatnonzero(~in_test), np.flatnonzero(in_test)

    def random_split(self, k: int = 1, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """A **leaky** random clip-level split with as many test clips per class as split ``k``.

        Clips of most groups land on both sides, so a model that memorises actors and backgrounds
        is rewarded.  Use it only to show the leak; report the official :meth:`split`.

        Returns
        -------
        train_idx, test_idx : ndarray of int64
            Ascending clip indices.

        Examples
        --------
        >>> sim = simulate_ucf101(seed=0)
        >>> train, test = sim.random_split(1, seed=0)
        >>> len(test) == len(sim.split(1)[1])
        True
        """
        _, official_test = self.split(k)
        n_test = np.bincount(self.labels[official_test], minlength=self.n_classes)
        rng = np.random.default_rng(seed)
        # A random permutation, then the first n_test[c] clips of class c in that order.
        order = rng.permutation(len(self))
        order = order[np.argsort(self.labels[order], kind="stable")]
        starts = np.searchsorted(self.labels[order], np.arange(self.n_classes))
        rank = np.arange(len(self)) - starts[self.labels[order]]
        test = np.sort(order[rank < n_test[self.labels[order]]])
        train = np.setdiff1d(np.arange(len(self)), test)
        return train, test

    def validation_groups(
        self, train_idx, *, n_groups: int = 4, seed: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Carve a group-disjoint validation set out of training clips.

        Parameters
        ----------
        train_idx : array-like of int
            Training clip indices, e.g. the first result of :meth:`split`.
        n_groups : int, default 4
            How many group numbers go to validation (in every class).
        seed : int or None, default None
            ``None`` takes the highest-numbered groups present in ``train_idx`` (22 to 25 by
            default: training groups in every official split, so validation is the same for all
            three); an int draws ``n_groups`` of the present groups at random.

        Returns
        -------
        fit_idx, val_idx : ndarray of int64
            Ascending indices into the whole data set; no group number is on both sides.

        Examples
        --------
        >>> sim = simulate_ucf101(seed=0)
        >>> train, _ = sim.split(1)
        >>> fit, val = sim.validation_groups(train, n_groups=3, seed=1)
        >>> set(sim.groups[fit].tolist()) & set(sim.groups[val].tolist())
        set()
        """
        train_idx = np.asarray(train_idx)
        if train_idx.ndim != 1 or not np.issubdtype(train_idx.dtype, np.integer):
            raise TypeError("train_idx must be a 1-D array of integer clip indices")
        if train_idx.size and (train_idx.min() < 0 or train_idx.max() >= len(self)):
            raise ValueError(f"train_idx must index the {len(self)} clips")
        present = np.unique(self.groups[train_idx])
        n_groups = check_scalar(
            n_groups,
            "n_groups",
            Integral,
            min_val=1,
            max_val=len(present) - 1,
            expected=f"an int between 1 and {len(present) - 1} (train_idx "
            f"holds {len(present)} groups)",
        )
        if seed is None:
            val_groups = present[-n_groups:]
        else:
            val_groups = np.random.default_rng(seed).choice(present, size=n_groups, replace=False)
        in_val = np.isin(self.groups[train_idx], val_groups)
        return np.sort(train_idx[~in_val]), np.sort(train_idx[in_val])


def _signatures(rng: np.random.Generator, dim: int, pair_similarity: float) -> np.ndarray:
    """Unit-norm class signatures; each confusable pair has cosine ``pair_similarity``."""
    mu = rng.standard_normal((N_CLASSES, dim))
    mu /= np.linalg.norm(mu, axis=1, keepdims=True)
    index = {name: i for i, name in enumerate(CLASS_NAMES)}
    for a, b in CONFUSABLE_PAIRS:
        ia, ib = index[a], index[b]
        other = mu[ib] - (mu[ib] @ mu[ia]) * mu[ia]
        other /= np.linalg.norm(other)
        mu[ib] = pair_similarity * mu[ia] + np.sqrt(1.0 - pair_similarity**2) * other
    return mu


def simulate_ucf101(
    *,
    n_frames: int = 16,
    dim: int = 64,
    seed: int = 0,
    action_frames: tuple[int, int] = (2, 5),
    signal: float = 7.0,
    group_scale: float = 2.5,
    clip_scale: float = 0.5,
    noise: float = 7.0,
    pair_similarity: float = 0.8,
) -> SimulatedUCF101:
    """Simulate 13,320 UCF101-shaped clips of frame features (seeded, NumPy only).

    The model of a frame is in the module docstring.  Norms are used for the scales: a Gaussian
    vector of "scale" ``s`` has independent coordinates of standard deviation ``s / sqrt(dim)``,
    so its length is about ``s`` whatever ``dim`` is.

    Parameters
    ----------
    n_frames : int, default 16
        Frames per clip.
    dim : int, default 64
        Features per frame.
    seed : int, default 0
        Seed of :func:`numpy.random.default_rng`; the same seed gives the same data.
    action_frames : (int, int), default (2, 5)
        Each clip's action lasts a uniform random number of consecutive frames in this inclusive
        range, starting at a uniform random frame.
    signal : float, default 7.0
        Length :math:`s` of the class signature added to each action frame.
    group_scale : float, default 2.5
        Scale of the group offset shared by all frames of all clips of one (class, group): the
        actor and the scene.  Larger values make the leaky random split look better and the
        official split worse: the gap between them is set by this parameter (chapter 8 shows it
        for several values), so it says nothing about the size of UCF101's own leakage.
    clip_scale : float, default 0.5
        Scale of the per-clip offset (clips of one group differ a little).
    noise : float, default 7.0
        Scale of the independent noise of every frame.
    pair_similarity : float, default 0.8
        Cosine similarity of the signatures of each pair in :data:`CONFUSABLE_PAIRS`
        (other signatures are random, nearly orthogonal).

    Returns
    -------
    SimulatedUCF101

    Notes
    -----
    With the defaults the features take 55 MB (float32); they are generated by array operations over
    all clips at once, without a loop over clips.

    Examples
    --------
    >>> sim = simulate_ucf101(seed=3)
    >>> len(sim), sim.n_classes
    (13320, 101)
    >>> counts = sim.action_mask.sum(axis=1)
    >>> int(counts.min()), int(counts.max())
    (2, 5)
    >>> bool(np.array_equal(sim.features, simulate_ucf101(seed=3).features))
    True
    """
    n_frames = check_scalar(n_frames, "n_frames", Integral, min_val=1)
    dim = check_scalar(dim, "dim", Integral, min_val=2)
    seed = check_scalar(seed, "seed", Integral, min_val=0)
    try:
        lo, hi = (int(v) for v in action_frames)
    except (TypeError, ValueError):
        raise TypeError("action_frames must be a pair of ints (min, max)") from None
    if not 1 <= lo <= hi <= n_frames:
        raise ValueError(
            f"action_frames must satisfy 1 <= min <= max <= n_frames={n_frames}, "
            f"got {tuple(action_frames)}"
        )
    signal = check_scalar(signal, "signal", Real, min_val=0)
    group_scale = check_scalar(group_scale, "group_scale", Real, min_val=0)
    clip_scale = check_scalar(clip_scale, "clip_scale", Real, min_val=0)
    noise = check_scalar(noise, "noise", Real, min_val=0)
    pair_similarity = check_scalar(pair_similarity, "pair_similarity", Real, min_val=-1, max_val=1)
    params = dict(
        n_frames=n_frames,
        dim=dim,
        seed=seed,
        action_frames=(lo, hi),
        signal=signal,
        group_scale=group_scale,
        clip_scale=clip_scale,
        noise=noise,
        pair_similarity=pair_similarity,
    )

    rng = np.random.default_rng(seed)
    table = clips_per_group()  # (101, 25)
    n_per_cell = table.reshape(-1)  # class-major, then group
    cell = np.repeat(np.arange(n_per_cell.size), n_per_cell)  # (class, group) cell of each clip
    labels = cell // N_GROUPS
    groups = cell % N_GROUPS + 1
    starts = np.concatenate(([0], np.cumsum(n_per_cell)[:-1]))
    clips = np.arange(cell.size) - starts[cell] + 1
    n = cell.size

    mu = _signatures(rng, dim, pair_similarity)
    per_dim = 1.0 / np.sqrt(dim)
    offsets = rng.standard_normal((n_per_cell.size, dim)) * (group_scale * per_dim)
    clip_off = rng.standard_normal((n, dim)) * (clip_scale * per_dim)

    length = rng.integers(lo, hi + 1, size=n)
    start = (rng.random(n) * (n_frames - length + 1)).astype(np.int64)
    t = np.arange(n_frames)
    mask = (t >= start[:, None]) & (t < (start + length)[:, None])

    features = rng.standard_normal((n, n_frames, dim), dtype=np.float32)
    features *= np.float32(noise * per_dim)
    base = (offsets[cell] + clip_off).astype(np.float32)
    features += base[:, None, :]
    rows, frames = np.nonzero(mask)
    features[rows, frames] += (signal * mu[labels[rows]]).astype(np.float32)

    return SimulatedUCF101(
        features=_index_arrays(features),
        labels=_index_arrays(labels.astype(np.int64)),
        groups=_index_arrays(groups.astype(np.int64)),
        clips=_index_arrays(clips.astype(np.int64)),
        action_mask=_index_arrays(mask),
        signatures=_index_arrays(mu.astype(np.float32)),
        class_names=tuple(CLASS_NAMES),
        params=params,
    )


def keyframe_scores(features) -> np.ndarray:
    """A light, label-free key-frame scorer: how far each frame is from its clip's median frame.

    .. math:: \\mathrm{score}_{it} = \\lVert x_{it} - \\operatorname{median}_t x_{it} \\rVert^2

    When the action is short, the median frame is the scene without the action, so the action
    frames stand out.  Take the top-scoring frames with ``np.argsort(-scores, axis=1)[:, :k]``
    (sort the chosen indices to keep the time order).

    Parameters
    ----------
    features : array-like, shape (n_clips, n_frames, dim)

    Returns
    -------
    ndarray of float32, shape (n_clips, n_frames)

    Examples
    --------
    >>> sim = simulate_ucf101(seed=0)
    >>> s = keyframe_scores(sim.features[:500])
    >>> top = np.argsort(-s, axis=1)[:, :4]
    >>> hit = np.take_along_axis(sim.action_mask[:500], top, axis=1).mean()
    >>> bool(hit > sim.action_mask[:500].mean())
    True
    """
    x = np.asarray(features, dtype=np.float32)
    if x.ndim != 3:
        raise ValueError(f"features must have shape (n_clips, n_frames, dim), got {x.shape}")
    centre = np.median(x, axis=1, keepdims=True)
    return np.square(x - centre).sum(axis=2)
