"""mltutor.video: video_scores against a brute-force loop over videos, three_split_report by hand.

``video_scores`` is checked on generated clip scores (any number of clips per video, ids as
integers or strings, clips of a video not adjacent, many tied scores) against the plainest
reading of each rule: a Python loop over the videos, ``np.mean`` of their rows, ``np.argmax``
per clip and a count of the votes.  Ties in the vote follow the documented rule (a clip votes for
its lowest tied class; tied video scores are returned tied).
"""

from __future__ import annotations

import numpy as np
import pytest
from _strategies import CASES, PROPERTY
from hypothesis import given
from hypothesis import strategies as st

from mltutor.stats import bootstrap_ci
from mltutor.video import three_split_report, video_scores

METHODS = ("mean_logits", "mean_probs", "vote")


def brute_force(scores, ids, method, order):
    """One video at a time, in the requested order."""
    seen = list(dict.fromkeys(ids.tolist()))
    videos = sorted(seen) if order == "sorted" else seen
    rows = []
    for v in videos:
        z = scores[ids == v]
        if method == "mean_logits":
            rows.append(np.mean(z, axis=0))
        elif method == "mean_probs":
            e = np.exp(z - z.max(axis=1, keepdims=True))
            rows.append(np.mean(e / e.sum(axis=1, keepdims=True), axis=0))
        else:
            votes = np.zeros(z.shape[1])
            for row in z:
                votes[int(np.argmax(row))] += 1
            rows.append(votes / len(z))
    return np.array(videos), np.array(rows)


@st.composite
def clip_problems(draw):
    n_classes = draw(st.integers(1, 6))
    n_videos = draw(st.integers(1, 8))
    n_clips = draw(st.integers(n_videos, 30))
    # every video gets a clip, the rest at random, then shuffled: videos are not contiguous
    codes = np.r_[
        np.arange(n_videos),
        draw(
            st.lists(
                st.integers(0, n_videos - 1),
                min_size=n_clips - n_videos,
                max_size=n_clips - n_videos,
            )
        ),
    ]
    perm = draw(st.permutations(range(n_clips)))
    codes = codes.astype(int)[np.array(perm, dtype=int)]
    kind = draw(st.sampled_from(["int", "str", "bigint"]))
    names = {
        "int": np.array([7, 3, 11, 0, 5, 2, 9, 4])[:n_videos],
        "bigint": np.array([10**12, -5, 3, 10**9, 0, -(10**12), 8, 1])[:n_videos],
        "str": np.array(["v_b", "v_a", "v_c", "x", "a1", "a10", "a2", "b"])[:n_videos],
    }
    ids = names[kind][codes]
    # small integers (many ties) or wide floats
    if draw(st.booleans()):
        values = st.integers(-2, 2).map(float)
    else:
        values = st.floats(-50, 50, allow_nan=False, width=64)
    flat = draw(st.lists(values, min_size=n_clips * n_classes, max_size=n_clips * n_classes))
    scores = np.array(flat, dtype=np.float64).reshape(n_clips, n_classes)
    if draw(st.booleans()):
        scores = scores.astype(np.float32)
    return scores, ids


@PROPERTY
@given(
    problem=clip_problems(),
    method=st.sampled_from(METHODS),
    order=st.sampled_from(["first_seen", "sorted"]),
)
def test_video_scores_equals_a_loop_over_videos(problem, method, order):
    scores, ids = problem
    got = video_scores(scores, ids, method=method, order=order)
    want_ids, want = brute_force(scores.astype(np.float64), ids, method, order)
    assert got.video_ids.tolist() == want_ids.tolist()
    assert got.scores.shape == want.shape
    scale = max(1.0, float(np.abs(want).max()))
    np.testing.assert_allclose(got.scores, want, rtol=0, atol=1e-12 * scale)
    if method == "vote":
        np.testing.assert_array_equal(got.scores, want)  # counts / k: exact
        np.testing.assert_array_equal(got.scores.argmax(1), want.argmax(1))
    CASES["video: video_scores vs a loop over videos"] += 1


def test_vote_ties_follow_the_documented_rule():
    # clip 0: classes 1 and 2 tied -> votes 1; clip 1 votes 2; clip 2 votes 0; clip 3 votes 2
    z = np.array([[0.0, 5.0, 5.0], [0.0, 1.0, 2.0], [3.0, 1.0, 1.0], [0.0, 0.0, 9.0]])
    r = video_scores(z, [1, 1, 2, 2], method="vote")
    assert r.scores.tolist() == [[0.0, 0.5, 0.5], [0.5, 0.0, 0.5]]
    # tied video scores: argmax takes the lowest class index
    assert r.scores.argmax(1).tolist() == [1, 0]


def test_first_seen_and_sorted_orders():
    z = np.arange(8.0).reshape(4, 2)
    first = video_scores(z, ["c", "a", "c", "b"])
    assert first.video_ids.tolist() == ["c", "a", "b"]
    assert first.scores.tolist() == [[2.0, 3.0], [2.0, 3.0], [6.0, 7.0]]
    assert video_scores(z, ["c", "a", "c", "b"], order="sorted").video_ids.tolist() == [
        "a",
        "b",
        "c",
    ]


def test_mean_probs_is_not_mean_logits_and_rows_sum_to_one():
    z = np.array([[10.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    logits = video_scores(z, [0, 0, 0]).scores
    probs = video_scores(z, [0, 0, 0], method="mean_probs").scores
    assert logits.argmax() == 0 and probs.argmax() == 0
    # one confident clip outweighs two in the mean of logits, not in the mean of probabilities
    z2 = np.array([[10.0, 0.0], [0.0, 4.0], [0.0, 4.0]])
    assert video_scores(z2, [0, 0, 0]).scores.argmax() == 0
    assert video_scores(z2, [0, 0, 0], method="mean_probs").scores.argmax() == 1
    np.testing.assert_allclose(probs.sum(1), 1.0, atol=1e-15)


def test_large_logits_do_not_overflow_in_mean_probs():
    z = np.array([[1000.0, 0.0], [0.0, 1000.0], [1000.0, 999.0]])
    p = video_scores(z, [0, 0, 0], method="mean_probs").scores
    assert np.isfinite(p).all()


@pytest.mark.parametrize(
    ("scores", "ids", "kwargs", "error", "match"),
    [
        (np.zeros((0, 3)), [], {}, ValueError, "at least one clip"),
        (np.zeros((2, 0)), [0, 1], {}, ValueError, "at least one clip"),
        (np.zeros(3), [0, 1, 2], {}, ValueError, "2-D"),
        (np.array([[np.nan, 0.0]]), [0], {}, ValueError, "NaN"),
        (np.array([[np.inf, 0.0]]), [0], {}, ValueError, "infinity"),
        (np.zeros((2, 2)), [0], {}, ValueError, "video_ids has 1"),
        (np.zeros((2, 2)), [[0, 1]], {}, ValueError, "1-D"),
        (np.zeros((2, 2)), [0.0, np.nan], {}, ValueError, "NaN"),
        (np.zeros((2, 2)), [0, 1], {"method": "median"}, ValueError, "method"),
        (np.zeros((2, 2)), [0, 1], {"order": "random"}, ValueError, "order"),
        (np.zeros((2, 2), bool), [0, 1], {}, TypeError, "bool"),
        (np.zeros((2, 2), np.float16), [0, 1], {}, TypeError, "float16"),
        (np.array([["a", "b"]]), [0], {}, TypeError, "clip_scores"),
        (np.zeros((2, 2)), np.array([1, "a"], dtype=object), {}, TypeError, "mixed"),
        (np.zeros((2, 2)), [0.5, 1.5], {}, TypeError, "integers or strings"),
        (None, [0], {}, TypeError, "clip_scores"),
        (np.zeros((1, 2)), None, {}, TypeError, "video_ids"),
    ],
)
def test_bad_inputs_are_refused_by_name(scores, ids, kwargs, error, match):
    with pytest.raises(error, match=match):
        video_scores(scores, ids, **kwargs)


def test_integer_scores_are_read_as_float64():
    r = video_scores(np.array([[1, 2], [2, 4]], dtype=np.int8), [0, 0])
    assert r.scores.dtype == np.float64 and r.scores.tolist() == [[1.5, 3.0]]


# ---------------------------------------------------------------- three_split_report


def test_three_split_report_by_hand():
    a = np.array([[0.80, 0.82, 0.81], [0.78, 0.79, 0.77], [0.84, 0.83, 0.86]])
    r = three_split_report(a)
    assert r.per_seed.tolist() == a.mean(axis=0).tolist()
    assert r.mean == pytest.approx(a.mean(), abs=1e-15)
    assert r.split_means.tolist() == a.mean(axis=1).tolist()
    assert r.split_spread == pytest.approx((0.84 + 0.83 + 0.86 - 0.78 - 0.79 - 0.77) / 3, abs=1e-12)
    assert r.seed_spread == pytest.approx(0.03, abs=1e-15)
    assert r.mean_seed_spread == pytest.approx(np.ptp(a.mean(axis=0)), abs=1e-15)
    assert r.interval is None
    one = three_split_report([0.8, 0.7, 0.9])
    assert one.seed_spread == 0.0 and one.mean == pytest.approx(0.8)


def _split_samples(seed=0, n=210):
    rng = np.random.default_rng(seed)
    hits = [rng.random(n) < p for p in (0.8, 0.7, 0.9)]
    groups = [np.repeat(np.arange(7) + 7 * k, n // 7) for k in range(3)]
    classes = [np.tile(np.arange(3), n // 3) for _ in range(3)]
    return hits, groups, classes


def test_three_split_interval_is_the_group_bootstrap_of_the_mean():
    hits, groups, classes = _split_samples()
    r = three_split_report(
        [h.mean() for h in hits], correct=hits, groups=groups, strata=classes, random_state=3
    )
    assert r.interval.estimate == pytest.approx(np.mean([h.mean() for h in hits]), abs=1e-15)
    assert r.interval.low < r.interval.estimate < r.interval.high
    # the same resamples through bootstrap_ci directly: split code as y_true, hits as y_pred,
    # (split, group, class) cells as groups, (split, class) as strata
    split = np.repeat([0, 1, 2], 210)
    g = np.concatenate(groups)
    c = np.concatenate(classes)
    cells = np.unique(np.c_[split, g, c], axis=0, return_inverse=True)[1].reshape(-1)

    def metric(s, h):
        return float(np.mean(np.bincount(s, weights=h, minlength=3) / np.bincount(s, minlength=3)))

    direct = bootstrap_ci(
        metric,
        split,
        np.concatenate(hits).astype(float),
        random_state=3,
        skip_single_class=False,
        groups=cells,
        strata=split * 3 + c,
    )
    np.testing.assert_array_equal(r.interval.distribution, direct.distribution)


def test_three_split_interval_takes_splits_of_different_sizes():
    rng = np.random.default_rng(2)
    sizes = (30, 45, 21)
    hits = [list(rng.random(n) < 0.7) for n in sizes]  # plain lists, ragged over the splits
    groups = [list(rng.integers(0, 3, n)) for n in sizes]
    r = three_split_report([np.mean(h) for h in hits], correct=hits, groups=groups, random_state=0)
    assert r.interval.estimate == pytest.approx(np.mean([np.mean(h) for h in hits]), abs=1e-15)


def test_three_split_interval_resamples_groups_not_videos():
    """Hits that go together by group: the group interval is wider than a video-level one."""
    rng = np.random.default_rng(1)
    groups = [np.repeat(np.arange(7), 40) for _ in range(3)]
    hits = [np.repeat(rng.random(7) < 0.6, 40) for _ in range(3)]
    by_group = three_split_report(
        [h.mean() for h in hits], correct=hits, groups=groups, random_state=0
    )
    by_video = three_split_report(
        [h.mean() for h in hits], correct=hits, groups=[np.arange(280)] * 3, random_state=0
    )
    width = by_group.interval.high - by_group.interval.low
    assert width > 2 * (by_video.interval.high - by_video.interval.low)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (([0.8, 0.7],), {}, "shape"),
        (([0.8, 0.7, np.nan],), {}, "NaN"),
        (([[0.8], [0.7]],), {}, "shape"),
        ((np.zeros((3, 0)),), {}, "shape"),
        (([0.8, 0.7, 0.9],), {"correct": [[1]] * 3}, "both"),
        (([0.8, 0.7, 0.9],), {"correct": [[1]] * 2, "groups": [[1]] * 2}, "3 arrays"),
        (([0.8, 0.7, 0.9],), {"correct": [[2]] * 3, "groups": [[1]] * 3}, "0/1"),
        (([0.8, 0.7, 0.9],), {"correct": [[1, 0]] * 3, "groups": [[1]] * 3}, "one entry"),
        (([0.8, 0.7, 0.9],), {"n_resamples": 0}, "n_resamples"),
    ],
)
def test_three_split_report_refuses_bad_inputs(args, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        three_split_report(*args, **kwargs)
