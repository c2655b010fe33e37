"""The UCF101 simulator, ``mltutor.datasets.ucf101_sim``: structure, determinism, and its lessons.

The lessons (leakage of a random split, key frames beating uniform sampling) are checked with
NumPy-only classifiers (nearest neighbour, nearest class mean) so the tests need no PyTorch.
"""

from __future__ import annotations

import dataclasses
import doctest

import numpy as np
import pytest

from mltutor.datasets import ucf101, ucf101_sim
from mltutor.datasets.ucf101_sim import (
    CONFUSABLE_PAIRS,
    SimulatedUCF101,
    keyframe_scores,
    simulate_ucf101,
)


@pytest.fixture(scope="module")
def sim() -> SimulatedUCF101:
    return simulate_ucf101(seed=0)


def test_shapes_dtypes_and_memory(sim):
    assert isinstance(sim, SimulatedUCF101) and len(sim) == 13_320 and sim.n_classes == 101
    assert sim.features.shape == (13_320, 16, 64) and sim.features.dtype == np.float32
    assert sim.action_mask.shape == (13_320, 16) and sim.action_mask.dtype == bool
    for a in (sim.labels, sim.groups, sim.clips):
        assert a.shape == (13_320,) and a.dtype == np.int64
    assert sim.signatures.shape == (101, 64)
    assert sim.class_names == ucf101.CLASS_NAMES
    assert sim.features.nbytes < 300e6
    assert np.all(np.isfinite(sim.features))


def test_real_counts_and_official_order(sim):
    table = np.zeros((101, 25), dtype=np.int64)
    np.add.at(table, (sim.labels, sim.groups - 1), 1)
    np.testing.assert_array_equal(table, ucf101.clips_per_group())
    key = sim.labels * 10_000 + sim.groups * 100 + sim.clips
    assert np.all(np.diff(key) > 0)  # class, then group, then clip, no repeats
    # clips are numbered 1, 2, ... inside each (class, group)
    first = np.r_[True, (np.diff(sim.labels) != 0) | (np.diff(sim.groups) != 0)]
    assert np.all(sim.clips[first] == 1) and np.all(np.diff(sim.clips)[~first[1:]] == 1)


def test_arrays_are_read_only(sim):
    with pytest.raises(ValueError):
        sim.features[0, 0, 0] = 1.0
    with pytest.raises(ValueError):
        sim.labels[0] = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        sim.labels = None  # type: ignore[misc]


def test_seeded():
    a, b = simulate_ucf101(seed=5, dim=32), simulate_ucf101(seed=5, dim=32)
    c = simulate_ucf101(seed=6, dim=32)
    np.testing.assert_array_equal(a.features, b.features)
    np.testing.assert_array_equal(a.action_mask, b.action_mask)
    assert not np.array_equal(a.features, c.features)
    assert a.params["seed"] == 5 and a.params["dim"] == 32


def test_action_runs_are_contiguous_and_in_range():
    s = simulate_ucf101(seed=1, n_frames=12, action_frames=(3, 6))
    length = s.action_mask.sum(axis=1)
    assert length.min() == 3 and length.max() == 6
    starts = np.diff(s.action_mask.astype(int), axis=1, prepend=0) == 1
    assert np.all(starts.sum(axis=1) == 1)  # one run per clip
    # every start frame is used somewhere
    assert set(np.argmax(s.action_mask, axis=1).tolist()) == set(range(0, 12 - 3 + 1))


def test_frame_model_signature_only_on_action_frames():
    s = simulate_ucf101(seed=2, dim=16, signal=3.0, group_scale=0.0, clip_scale=0.0, noise=0.0)
    expected = s.action_mask[:, :, None] * (3.0 * s.signatures[s.labels])[:, None, :]
    np.testing.assert_allclose(s.features, expected, atol=1e-6)


def test_frame_model_group_offset_is_shared_by_the_group():
    s = simulate_ucf101(seed=3, dim=16, signal=0.0, clip_scale=0.0, noise=0.0)
    cell = s.labels * 25 + s.groups
    x = s.features[:, 0, :]
    np.testing.assert_array_equal(s.features, np.broadcast_to(x[:, None, :], s.features.shape))
    for c in np.unique(cell)[:50]:
        rows = x[cell == c]
        assert np.all(rows == rows[0])
    assert not np.allclose(x[cell == cell[0]][0], x[cell != cell[0]][0])
    # "scale" is the typical length of the offset
    assert 1.5 < np.linalg.norm(x, axis=1).mean() < 3.0  # default group_scale 2.5


def test_signatures_and_confusable_pairs(sim):
    mu = sim.signatures.astype(float)
    np.testing.assert_allclose(np.linalg.norm(mu, axis=1), 1.0, atol=1e-6)
    cos = mu @ mu.T
    index = {n: i for i, n in enumerate(ucf101.CLASS_NAMES)}
    pairs = {(index[a], index[b]) for a, b in CONFUSABLE_PAIRS}
    assert len(pairs) == 12
    for i, j in pairs:
        assert cos[i, j] == pytest.approx(0.8, abs=1e-6)
    off = cos[~np.eye(101, dtype=bool)]
    assert np.sort(np.abs(off))[-24:].min() == pytest.approx(0.8, abs=1e-6)  # the 12 pairs, twice
    assert np.sort(np.abs(off))[-25] < 0.6  # nothing else close


def test_confusable_pair_names_are_real_classes():
    for a, b in CONFUSABLE_PAIRS:
        assert a in ucf101.CLASS_NAMES and b in ucf101.CLASS_NAMES


@pytest.mark.parametrize("k", [1, 2, 3])
def test_official_split(sim, k):
    train, test = sim.split(k)
    assert np.all(np.diff(train) > 0) and np.all(np.diff(test) > 0)
    np.testing.assert_array_equal(np.sort(np.r_[train, test]), np.arange(len(sim)))
    _, test_groups = ucf101.split_groups(k)
    assert set(sim.groups[test].tolist()) == set(test_groups)
    assert not set(sim.groups[train].tolist()) & set(test_groups)
    counts = ucf101.split_counts(k)
    np.testing.assert_array_equal(np.bincount(sim.labels[test], minlength=101), counts.test)


def test_split_rejects_bad_k(sim):
    with pytest.raises(ValueError):
        sim.split(4)
    with pytest.raises(TypeError):
        sim.split(1.0)


def test_random_split_matches_sizes_and_leaks(sim):
    train, test = sim.random_split(2, seed=3)
    np.testing.assert_array_equal(np.sort(np.r_[train, test]), np.arange(len(sim)))
    np.testing.assert_array_equal(
        np.bincount(sim.labels[test], minlength=101), ucf101.split_counts(2).test
    )
    cells_train = set((sim.labels[train] * 25 + sim.groups[train]).tolist())
    cells_test = set((sim.labels[test] * 25 + sim.groups[test]).tolist())
    assert len(cells_train & cells_test) > 1000  # most groups sit on both sides
    again = sim.random_split(2, seed=3)
    np.testing.assert_array_equal(test, again[1])
    assert not np.array_equal(test, sim.random_split(2, seed=4)[1])


def test_validation_groups(sim):
    train, test = sim.split(1)
    fit, val = sim.validation_groups(train)
    assert sorted(set(sim.groups[val].tolist())) == [22, 23, 24, 25]
    np.testing.assert_array_equal(np.sort(np.r_[fit, val]), train)
    fit, val = sim.validation_groups(train, n_groups=3, seed=7)
    assert len(set(sim.groups[val].tolist())) == 3
    assert not set(sim.groups[fit].tolist()) & set(sim.groups[val].tolist())
    assert not set(sim.groups[val].tolist()) & set(ucf101.split_groups(1)[1])


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(n_groups=0), ValueError),
        (dict(n_groups=18), ValueError),
        (dict(n_groups=2.0), TypeError),
    ],
)
def test_validation_groups_errors(sim, kwargs, error):
    train, _ = sim.split(1)
    with pytest.raises(error):
        sim.validation_groups(train, **kwargs)


def test_validation_groups_bad_indices(sim):
    with pytest.raises(TypeError):
        sim.validation_groups(np.array([0.5, 1.0]))
    with pytest.raises(ValueError):
        sim.validation_groups(np.array([0, 20_000]))


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(n_frames=0), ValueError),
        (dict(dim=1), ValueError),
        (dict(n_frames=2.5), TypeError),
        (dict(seed=-1), ValueError),
        (dict(action_frames=(0, 3)), ValueError),
        (dict(action_frames=(5, 3)), ValueError),
        (dict(action_frames=(3, 17)), ValueError),
        (dict(action_frames=3), TypeError),
        (dict(noise=-1.0), ValueError),
        (dict(signal="big"), TypeError),
        (dict(pair_similarity=1.5), ValueError),
        (dict(group_scale=True), TypeError),
    ],
)
def test_parameter_errors(kwargs, error):
    with pytest.raises(error):
        simulate_ucf101(**kwargs)


def test_keyframe_scores_find_the_action(sim):
    s = keyframe_scores(sim.features[:2000])
    assert s.shape == (2000, 16) and s.dtype == np.float32
    top = np.argsort(-s, axis=1)[:, :8]
    found = np.take_along_axis(sim.action_mask[:2000], top, axis=1).sum()
    assert found / sim.action_mask[:2000].sum() > 0.9  # the top 8 hold the action frames
    top4 = np.argsort(-s, axis=1)[:, :4]  # and beat chance as a selector
    precision = np.take_along_axis(sim.action_mask[:2000], top4, axis=1).mean()
    assert precision > 2 * sim.action_mask.mean()
    with pytest.raises(ValueError):
        keyframe_scores(sim.features[0])


# --------------------------------------------------------------------------------------------
# The lessons, measured with NumPy-only classifiers
# --------------------------------------------------------------------------------------------


def _nearest_neighbour_accuracy(x, y, train, test):
    a, b = x[train].astype(np.float64), x[test].astype(np.float64)
    d = (b * b).sum(1)[:, None] - 2 * b @ a.T + (a * a).sum(1)[None, :]
    return float(np.mean(y[train][d.argmin(axis=1)] == y[test]))


def _nearest_mean_accuracy(x, y, train, test):
    means = np.stack([x[train][y[train] == c].mean(axis=0) for c in range(101)])
    d = ((x[test][:, None, :] - means[None]) ** 2).sum(axis=2)
    return float(np.mean(d.argmin(axis=1) == y[test]))


def test_random_split_inflates_accuracy(sim):
    pooled = sim.features.mean(axis=1)
    group = _nearest_neighbour_accuracy(pooled, sim.labels, *sim.split(1))
    leaky = _nearest_neighbour_accuracy(pooled, sim.labels, *sim.random_split(1, seed=0))
    assert leaky > group + 0.15


def test_key_frames_beat_uniform_sampling(sim):
    x = sim.features
    uniform = x[:, ::2].mean(axis=1)
    key = np.sort(np.argsort(-keyframe_scores(x), axis=1)[:, :8], axis=1)
    keyed = np.take_along_axis(x, key[:, :, None], axis=1).mean(axis=1)
    train, test = sim.split(1)
    acc_uniform = _nearest_mean_accuracy(uniform, sim.labels, train, test)
    acc_key = _nearest_mean_accuracy(keyed, sim.labels, train, test)
    assert acc_key > acc_uniform + 0.15


def test_module_doctests():
    result = doctest.testmod(ucf101_sim)
    assert result.attempted > 0 and result.failed == 0
