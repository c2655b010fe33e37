"""A tampered or mismatched saved state is refused by ``load_state_dict`` (issue 24).

Before, only the layout (class, settings, default shapes) was compared: a 17-cell confusion state
loaded into a 3-class metric and reported accuracy 0.333; negative, float or bool counts and NaN
scores loaded silently; a missing key was a bare ``KeyError``.  Each case here names the state
and what is wrong; an honest round trip still loads and computes the same numbers.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from mltutor.streaming import BinaryMetrics, MulticlassMetrics  # noqa: E402


def _multiclass(**kw):
    m = MulticlassMetrics(num_classes=3, **kw)
    m.update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1, 1, 2]))
    return m


def _binary(**kw):
    m = BinaryMetrics(**kw)
    m.update(torch.tensor([0.1, 0.8, 0.4, 0.9]), torch.tensor([0, 1, 0, 1]))
    return m


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or (a != a and b != b)


def _tampered(metric, name, value):
    sd = metric.state_dict()
    sd["state"][name] = value
    return sd


def test_honest_round_trip_loads():
    for make in (_multiclass, _binary):
        m = make()
        fresh = type(m)(**({"num_classes": 3} if isinstance(m, MulticlassMetrics) else {}))
        fresh.load_state_dict(m.state_dict())
        assert _same(fresh.compute(), m.compute())


@pytest.mark.parametrize(
    "value, words",
    [
        (torch.zeros(17, dtype=torch.long), "shape"),
        (torch.full((10,), -1, dtype=torch.long), "below 0"),
        (torch.zeros(10, dtype=torch.float64), "dtype"),
        (torch.zeros(10, dtype=torch.bool), "dtype"),
        ([0] * 10, "torch.Tensor"),
    ],
)
def test_confusion_state_tampering_is_refused(value, words):
    m = _multiclass()
    with pytest.raises(ValueError, match=words) as info:
        MulticlassMetrics(num_classes=3).load_state_dict(_tampered(m, "confmat", value))
    assert "confmat" in str(info.value)


def test_missing_and_unexpected_states_are_named():
    sd = _multiclass().state_dict()
    del sd["state"]["confmat"]
    with pytest.raises(ValueError, match="missing \\['confmat'\\]"):
        MulticlassMetrics(num_classes=3).load_state_dict(sd)
    sd = _multiclass().state_dict()
    sd["state"]["extra"] = torch.zeros(1)
    with pytest.raises(ValueError, match="unexpected \\['extra'\\]"):
        MulticlassMetrics(num_classes=3).load_state_dict(sd)


def test_nan_scores_and_bad_labels_are_refused():
    m = _binary()
    with pytest.raises(ValueError, match="'scores' holds NaN"):
        BinaryMetrics().load_state_dict(
            _tampered(m, "scores", torch.tensor([0.1, float("nan"), 0.4, 0.9], dtype=torch.float64))
        )
    with pytest.raises(ValueError, match="'labels' holds 7"):
        BinaryMetrics().load_state_dict(
            _tampered(m, "labels", torch.tensor([0, 7, 0, 1], dtype=torch.int8))
        )
    with pytest.raises(ValueError, match="as many rows"):
        BinaryMetrics().load_state_dict(
            _tampered(m, "labels", torch.tensor([0, 1, 0], dtype=torch.int8))
        )


def test_sample_id_codes_out_of_range_are_refused():
    m = MulticlassMetrics(num_classes=3)
    m.update(torch.tensor([0, 1]), torch.tensor([0, 1]), sample_ids=torch.tensor([5, 6]))
    with pytest.raises(ValueError, match="'id_codes' holds 10, above 9"):
        MulticlassMetrics(num_classes=3).load_state_dict(
            _tampered(m, "id_codes", torch.tensor([0, 10]))
        )


@pytest.mark.parametrize(
    "key, value", [("n_updates", -1), ("n_updates", 1.5), ("synced", "no"), ("synced", 1)]
)
def test_bookkeeping_values_are_checked(key, value):
    sd = _multiclass().state_dict()
    sd[key] = value
    with pytest.raises(ValueError, match=key):
        MulticlassMetrics(num_classes=3).load_state_dict(sd)


def test_a_refused_load_changes_nothing():
    target = _multiclass()
    before = target.compute()
    with pytest.raises(ValueError):
        target.load_state_dict(
            _tampered(_multiclass(), "confmat", torch.zeros(17, dtype=torch.long))
        )
    assert _same(target.compute(), before)
