"""torch tensors as metric inputs: bfloat16 and tensors that require grad (issue 24).

NumPy has no bfloat16, so ``np.asarray`` of such a tensor failed with "Got unsupported ScalarType
BFloat16", naming no argument; a tensor that requires grad failed in ``numpy()``.  Both are now
read exactly (bfloat16 widens to float32 without rounding) and match the same call on NumPy data.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from mltutor import metrics  # noqa: E402

Y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
S = np.array([0.1, 0.9, 0.8, 0.3, 0.55, 0.7, 0.2, 0.45])


@pytest.mark.parametrize(
    "fn", [metrics.roc_auc_score, metrics.average_precision_score, metrics.brier_score_loss]
)
def test_bfloat16_scores_equal_their_float32_values(fn):
    scores = torch.tensor(S, dtype=torch.bfloat16)
    exact = scores.float().numpy()
    assert fn(torch.tensor(Y), scores) == fn(Y, exact)


def test_tensors_that_require_grad_are_read():
    scores = torch.tensor(S, dtype=torch.float32, requires_grad=True)
    assert metrics.roc_auc_score(Y, scores) == metrics.roc_auc_score(Y, S.astype(np.float32))
    weights = torch.ones(8, requires_grad=True)
    assert metrics.roc_auc_score(Y, S, sample_weight=weights) == metrics.roc_auc_score(Y, S)


def test_label_tensors():
    pred = torch.tensor((S > 0.5).astype(int))
    assert metrics.f1_score(torch.tensor(Y), pred) == metrics.f1_score(Y, (S > 0.5).astype(int))
